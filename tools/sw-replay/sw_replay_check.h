/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sw-replay --check: the replay tested (sw_replay_check.c)
 */
#ifndef _SW_REPLAY_CHECK_H
#define _SW_REPLAY_CHECK_H

#include "sw_replay_run.h"

unsigned int sw_replay_check(struct sw_replay *rp, const struct sw_mirror_report *rep,
			     const char *path);

#endif /* _SW_REPLAY_CHECK_H */
