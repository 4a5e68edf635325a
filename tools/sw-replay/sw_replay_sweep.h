/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sw-replay --sweep: the trace through every geometry of a grid
 * (sw_replay_sweep.c)
 */
#ifndef _SW_REPLAY_SWEEP_H
#define _SW_REPLAY_SWEEP_H

#include "sw_replay_grid.h"
#include "sw_replay_run.h"

void sw_replay_sweep(const struct sw_replay *rp, const struct sw_grid *grid, const char *path,
		     bool json);

#endif /* _SW_REPLAY_SWEEP_H */
