/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the counters of a CPU's shadow wheel, listed once.
 *
 * SW_STATS_COUNTERS(C) expands C(name, merge, counts_timers) for each, in
 * the order the stats file prints them:
 *
 *  name		the field of struct sw_stats and the key in debugfs
 *  merge		how the CPUs' figures make the total: sum or max
 *  counts_timers	1 if it moves only when timers are armed, modified,
 *			cancelled, expired or moved; 0 if time moves it too
 *
 * It needs no kernel header: the selftests expand it into their reader.
 */
#ifndef _SHADOW_WHEEL_SW_STATS_LIST_H
#define _SHADOW_WHEEL_SW_STATS_LIST_H

#define SW_STATS_COUNTERS(C)				\
	C(armed,		sum,	1)		\
	C(modified,		sum,	1)		\
	C(cancelled,		sum,	1)		\
	C(expired,		sum,	1)		\
	C(pending,		sum,	1)		\
	C(migrated_in,		sum,	1)		\
	C(migrated_out,		sum,	1)		\
	C(cascaded,		sum,	1)		\
	C(clamped,		sum,	1)		\
	C(overdue,		sum,	1)		\
	C(early,		sum,	1)		\
	C(wakeups,		sum,	0)		\
	/* wakeups for the traffic's cancel queue (module/sw_traffic.c) */	\
	C(workload_wakeups,	sum,	0)		\
	C(runs,			sum,	0)		\
	C(catchup_runs,		sum,	0)		\
	C(catchup_max,		max,	0)		\
	C(tick_ns_max,		max,	0)

#endif /* _SHADOW_WHEEL_SW_STATS_LIST_H */
