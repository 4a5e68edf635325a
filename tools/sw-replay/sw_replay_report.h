/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sw-replay: the report of a run, as text or JSON (sw_replay_report.c)
 */
#ifndef _SW_REPLAY_REPORT_H
#define _SW_REPLAY_REPORT_H

#include "sw_replay_run.h"

/* What the report shows: sections of the key-value report, the summary, or JSON */
enum {
	SW_SHOW_STATS = 1, SW_SHOW_LATENESS = 2, SW_SHOW_DIFF = 4, SW_SHOW_TOP = 8,
	SW_SHOW_RAW = 15, SW_SHOW_SUMMARY = 16, SW_SHOW_JSON = 32,
};

void sw_replay_report_trace(const struct sw_replay *rp, const char *path, const char *why);
void sw_replay_report(struct sw_replay *rp, const struct sw_mirror_report *rep,
		      unsigned int show);
void sw_replay_report_json(struct sw_replay *rp, const struct sw_mirror_report *rep,
			   const char *path, const char *why);

#endif /* _SW_REPLAY_REPORT_H */
