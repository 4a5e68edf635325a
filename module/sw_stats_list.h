/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the counters of a CPU's shadow wheel, listed once, in the
 * order the stats file prints them. No include guard: define
 *
 *	SW_STAT(name, merge, counts_timers)
 *
 * and include this file where the list is needed (the struct, its adder
 * and printer, the selftests' reader); each entry ends with a semicolon,
 * so it expands into a struct member or a statement.
 *
 *  name		the field of struct sw_stats and the key in debugfs
 *  merge		how the CPUs' figures make the total: sum or max
 *  counts_timers	1 if it moves only when timers are armed, modified,
 *			cancelled, expired or moved; 0 if time moves it too
 *
 * It needs no kernel header: the selftests include it too.
 */
SW_STAT(armed,			sum,	1);
SW_STAT(modified,		sum,	1);
SW_STAT(cancelled,		sum,	1);
SW_STAT(expired,		sum,	1);
SW_STAT(pending,		sum,	1);
SW_STAT(migrated_in,		sum,	1);
SW_STAT(migrated_out,		sum,	1);
SW_STAT(cascaded,		sum,	1);
SW_STAT(clamped,		sum,	1);
SW_STAT(overdue,		sum,	1);
SW_STAT(early,			sum,	1);
SW_STAT(wakeups,		sum,	0);
/* wakeups for the traffic's cancel queue (module/sw_traffic.c) */
SW_STAT(workload_wakeups,	sum,	0);
SW_STAT(runs,			sum,	0);
SW_STAT(catchup_runs,		sum,	0);
SW_STAT(catchup_max,		max,	0);
SW_STAT(tick_ns_max,		max,	0);
