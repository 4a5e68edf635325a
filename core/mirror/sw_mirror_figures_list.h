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
 * (selftests/shadow_wheel/lib/swt.h, lib/mirror.c). scripts/replay.sh
 * --check reads it too: every key mirror/stats prints must be in
 * docs/ABI/debugfs-shadow-wheel, every figure in sw-replay --json.
 *
 *  scope	whose, and so which struct holds it: head (the caller's:
 *		the module's or the replay's) and log (the module's log of
 *		events; printed only where there is one), in struct
 *		sw_mirror_head; mirror (one for the whole mirror, in struct
 *		sw_mirror_figures), wheel (one per wheel, in struct
 *		sw_mirror_wheel_figures), each computed when the figures are
 *		read or derived; mcount (one for the whole mirror, which the
 *		mirror counts itself: kept in its struct sw_mirror_counts,
 *		shown as a mirror figure), wcount (one per wheel, which the
 *		wheel counts itself: kept in its struct
 *		sw_mirror_wheel_counts, shown as a wheel figure)
 *  name	the key in mirror/stats and in the JSON, and the member
 *  unit	what it counts
 *  merge	how the figures of two runs make one: sum, max, same (equal
 *		in both), and (true in both), derive (computed again from the
 *		merged figures); sw-replay --json prints it in its
 *		figure_list for whoever merges runs
 *  stats	where mirror/stats prints it: line (a line of its own),
 *		wheel (in every wheel's line), none
 *  column	the heading of its column in mirror/summary's table of the
 *		wheels, "" for none; a mirror figure repeats on every row
 *  div		the summary shows it divided by this (1, 10, 100 or 1000),
 *		with as many decimals as it has zeros
 *
 * Every figure is in the JSON. A figure is this entry and its computation.
 * A counter of scope mcount or wcount is the entry and its increment
 * (sw_mirror.c): its member, its copy into the figures and its key come
 * from the entry. The mirror's other figures are computed in
 * sw_mirror_read_figures() (sw_mirror.c), those computed from other
 * figures in sw_mirror_report_derive() (sw_mirror_report.c), the head and
 * the log by the caller. The events by class (events.CLASS, counted with
 * the mcount figures), the lateness, the differential and the top table
 * have shapes of their own; the report prints them after these.
 *
 * SW_MIRROR_FIG_IF(x, y)(text) is text where the words x and y are the
 * same (the scopes or stats columns above), else nothing: the structs
 * keep the entries of their scope with it. It is the test of
 * IS_ENABLED(): SW_MIRROR_FIG_SAME_x_y is "1," only where x is y, which
 * moves SW_MIRROR_FIG_KEEP into the second argument.
 *
 * It needs no kernel header: the selftests include it too.
 */
#ifndef SW_MIRROR_FIG_IF
#define SW_MIRROR_FIG_SAME_head_head		1,
#define SW_MIRROR_FIG_SAME_log_log		1,
#define SW_MIRROR_FIG_SAME_mirror_mirror	1,
#define SW_MIRROR_FIG_SAME_wheel_wheel		1,
#define SW_MIRROR_FIG_SAME_mcount_mcount	1,
#define SW_MIRROR_FIG_SAME_wcount_wcount	1,
#define SW_MIRROR_FIG_SAME_line_line		1,
#define SW_MIRROR_FIG_KEEP(...)			__VA_ARGS__
#define SW_MIRROR_FIG_DROP(...)
#define SW_MIRROR_FIG_SECOND(a, b, ...)		b
#define SW_MIRROR_FIG_PICK(...)			SW_MIRROR_FIG_SECOND(__VA_ARGS__)
#define SW_MIRROR_FIG_IF(x, y)							\
	SW_MIRROR_FIG_PICK(SW_MIRROR_FIG_SAME_##x##_##y SW_MIRROR_FIG_KEEP,	\
			   SW_MIRROR_FIG_DROP)
#endif
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
SW_MIRROR_FIG(mcount,	expired_remote,		"timers",	sum,	line,	"", 1)
SW_MIRROR_FIG(mcount,	cancelled_due,		"timers",	sum,	line,	"", 1)
SW_MIRROR_FIG(mcount,	silently_modified,	"timers",	sum,	line,	"", 1)
SW_MIRROR_FIG(head,	own_events,		"events",	sum,	line,	"", 1)
SW_MIRROR_FIG(log,	log_softirqs,		"softirqs",	sum,	line,	"", 1)
SW_MIRROR_FIG(mcount,	seen,			"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(mcount,	cancelled,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(mcount,	expired,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(mcount,	pending,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(mcount,	dropped,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(mirror,	cpus_modelled,		"CPUs",		max,	line,	"", 1)
SW_MIRROR_FIG(mirror,	cpu_events,		"events",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	idle_events,		"events",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	tick_events,		"events",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	softirq_recorded,	"softirqs",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	softirq_recorded_spurious, "softirqs",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	softirq_spurious_paired, "softirqs",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	softirq_predicted,	"softirqs",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	softirq_model_resets,	"resets",	sum,	line,	"", 1)
SW_MIRROR_FIG(mirror,	softirq_agreement_permille, "1/1000 of verdicts", derive, line, "", 1)
SW_MIRROR_FIG(mirror,	softirq_paired_permille, "1/1000 of verdicts", derive, line, "", 1)
SW_MIRROR_FIG(mirror,	expired_permille,	"1/1000 of seen", derive, none,	"expired%", 10)
SW_MIRROR_FIG(wcount,	cascaded,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wheel,	cascaded_per_s,		"timers/s",	derive,	wheel,	"cascades/s", 1)
SW_MIRROR_FIG(wcount,	due_ticks,		"ticks",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wheel,	due_ticks_per_s,	"ticks/s",	derive,	wheel,	"busy ticks/s", 1)
SW_MIRROR_FIG(wheel,	expired_per_due_tick_milli, "1/1000", derive, wheel, "timers/tick", 1000)
SW_MIRROR_FIG(wheel,	softirqs,		"softirqs",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wheel,	softirqs_per_s,		"softirqs/s",	derive,	wheel,	"softirqs/s", 1)
SW_MIRROR_FIG(wheel,	spurious_softirqs,	"softirqs",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wheel,	spurious_permille,	"1/1000",	derive,	wheel,	"spurious%", 10)
SW_MIRROR_FIG(wheel,	idle_wakeups,		"wakeups",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wheel,	idle_wakeups_per_s,	"wakeups/s",	derive,	wheel,	"wakeups/s", 1)
SW_MIRROR_FIG(wcount,	late_10pct,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wheel,	late_10pct_permille,	"1/1000 of expired", derive, wheel, "", 1)
SW_MIRROR_FIG(wcount,	clamped,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wcount,	parked,			"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wcount,	ran_ahead,		"timers",	sum,	wheel,	"", 1)
SW_MIRROR_FIG(wcount,	behind,			"events",	sum,	wheel,	"", 1)
