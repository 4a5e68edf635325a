/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the mirror's figures, listed once, in the order mirror/stats
 * prints them. No include guard: define
 *
 *	SW_MIRROR_FIG(scope, name, unit, merge, stats, column, div)
 *
 * and include this file where the list is needed: the structs that hold
 * the figures (sw_mirror.h, sw_mirror_report.h), the report's table of
 * them (sw_mirror_report.c), which mirror/stats, mirror/summary and
 * sw-replay --json print from, and the selftests' reader
 * (selftests/shadow_wheel/lib/mirror.c). scripts/replay.sh --check reads
 * it too: every key mirror/stats prints must be in
 * docs/ABI/debugfs-shadow-wheel, every figure in sw-replay --json.
 *
 *  scope	whose: head (the caller's: the module's or the replay's),
 *		log (the module's log of events; printed only where there is
 *		one), mirror (one for the whole mirror), wheel (one per wheel),
 *		count (one per wheel, which the wheel counts itself: kept in
 *		its struct sw_mirror_wheel_counts, shown as a wheel figure)
 *  name	the key in mirror/stats and in the JSON, and the member
 *  unit	what it counts
 *  merge	how the figures of two runs make one: sum, max, same (equal
 *		in both), and (true in both), derive (computed again from the
 *		merged figures)
 *  stats	where mirror/stats prints it: line (a line of its own),
 *		wheel (in every wheel's line), none
 *  column	the heading of its column in mirror/summary's table of the
 *		wheels, "" for none; a mirror figure repeats on every row
 *  div		the summary shows it divided by this (1, 10, 100 or 1000),
 *		with as many decimals as it has zeros
 *
 * Every figure is in the JSON. A figure is this entry and its computation:
 * in sw_mirror_read_figures() (sw_mirror.c) for what the mirror counts, in
 * sw_mirror_report_derive() (sw_mirror_report.c) for what is computed
 * from other figures, by the caller for the head and the log. The events
 * by class (events.CLASS), the lateness, the differential and the top
 * table have shapes of their own; the report prints them after these.
 *
 * It needs no kernel header: the selftests include it too.
 */
SW_MIRROR_FIG(head,	running,		"bool",		and,	line,	"", 1)
SW_MIRROR_FIG(head,	records,		"records",	max,	line,	"", 1)
SW_MIRROR_FIG(head,	elapsed_ms,		"ms",		sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	hz,			"HZ",		same,	line,	"", 1)
SW_MIRROR_FIG(mirror,	wheels,			"wheels",	same,	line,	"", 1)
SW_MIRROR_FIG(log,	log_size,		"events",	max,	line,	"", 1)
SW_MIRROR_FIG(log,	log_drained,		"events",	sum,	line,	"", 1)
SW_MIRROR_FIG(log,	log_drained_by_probes,	"events",	sum,	line,	"", 1)
SW_MIRROR_FIG(log,	log_lost,		"events",	sum,	line,	"", 1)
SW_MIRROR_FIG(log,	log_forced,		"events",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	consistent,		"bool",		and,	line,	"", 1)
SW_MIRROR_FIG(head,	caught_up,		"bool",		and,	line,	"", 1)
SW_MIRROR_FIG(mirror,	expired_remote,		"timers",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	cancelled_due,		"timers",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	silently_modified,	"timers",	sum,	line,	"", 1)
SW_MIRROR_FIG(head,	own_events,		"events",	sum,	line,	"", 1)
SW_MIRROR_FIG(log,	log_softirqs,		"softirqs",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	seen,			"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(mirror,	cancelled,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(mirror,	expired,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(mirror,	pending,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(mirror,	dropped,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(mirror,	cpus_modelled,		"CPUs",		max,	line,	"", 1)
SW_MIRROR_FIG(mirror,	cpu_events,		"events",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	idle_events,		"events",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	softirq_recorded,	"softirqs",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	softirq_recorded_spurious, "softirqs",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	softirq_spurious_paired, "softirqs",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	softirq_predicted,	"softirqs",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	softirq_model_resets,	"resets",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	softirq_agreement_permille, "1/1000 of verdicts", derive, line, "", 1)
SW_MIRROR_FIG(mirror,	softirq_paired_permille, "1/1000 of verdicts", derive, line, "", 1)
SW_MIRROR_FIG(mirror,	expired_permille,	"1/1000 of seen", derive, none,	"expired%", 10)
SW_MIRROR_FIG(count,	cascaded,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wheel,	cascaded_per_s,		"timers/s",	derive,	wheel,	"cascades/s", 1)
SW_MIRROR_FIG(count,	due_ticks,		"ticks",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wheel,	due_ticks_per_s,	"ticks/s",	derive,	wheel,	"busy ticks/s", 1)
SW_MIRROR_FIG(wheel,	expired_per_due_tick_milli, "1/1000", derive, wheel, "timers/tick", 1000)
SW_MIRROR_FIG(wheel,	softirqs,		"softirqs",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wheel,	softirqs_per_s,		"softirqs/s",	derive,	wheel,	"softirqs/s", 1)
SW_MIRROR_FIG(wheel,	spurious_softirqs,	"softirqs",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wheel,	spurious_permille,	"1/1000",	derive,	wheel,	"spurious%", 10)
SW_MIRROR_FIG(wheel,	idle_wakeups,		"wakeups",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wheel,	idle_wakeups_per_s,	"wakeups/s",	derive,	wheel,	"wakeups/s", 1)
SW_MIRROR_FIG(count,	late_10pct,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wheel,	late_10pct_permille,	"1/1000 of expired", derive, wheel, "", 1)
SW_MIRROR_FIG(count,	clamped,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(count,	parked,			"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(count,	ran_ahead,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(count,	behind,			"events",	sum,	wheel,	"", 1)
