/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sw-replay --json: the mirror's report as a JSON document (sw_replay_json.c)
 */
#ifndef _SW_REPLAY_JSON_H
#define _SW_REPLAY_JSON_H

#include <json-c/json.h>

#include "sw_mirror_report.h"

/* The name of the timer function @fn, into @buf */
typedef void (*sw_replay_fn_name_t)(void *ctx, const void *fn, char *buf, size_t size);

struct json_object *sw_replay_json_report(const struct sw_mirror_report *rep,
					  sw_replay_fn_name_t fn_name, void *ctx);
struct json_object *sw_replay_json_wheel(const struct sw_mirror_report *rep, unsigned int w);

#endif /* _SW_REPLAY_JSON_H */
