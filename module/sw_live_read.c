// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the live mirror read, for the files of debugfs mirror/.
 * A read drains the log (sw_live_feed.c) and brings every wheel up to
 * jiffies, then copies the figures out under the lock into a snapshot of
 * its own; the report (core/mirror/sw_mirror_report.c) prints from that
 * copy, into the read's seq_file, with no lock held.
 */
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "sw_live.h"
#include "sw_live_state.h"
#include "sw_mirror_report.h"

/* Rounds of catching up a read may do, each under the lock */
#define SW_LIVE_READ_ROUNDS	64

/*
 * Take the mirror's report into @rep (with its top table if @with_top),
 * having brought its wheels up to jiffies first, a budget at a time with
 * the lock dropped in between. Returns false if it never ran.
 */
static bool sw_live_snapshot(struct sw_mirror_report *rep, bool with_top)
{
	struct sw_live *live = &sw_live_mirror;
	struct sw_mirror_head head = { .has_log = true, .caught_up = true };
	struct sw_mirror *m = live->m;
	unsigned long flags;
	unsigned int round, cpu;

	lockdep_assert_held(&sw_live_mutex);
	if (!m)
		return false;
	sw_live_drain();
	for (round = 0; live->running && round < SW_LIVE_READ_ROUNDS; round++) {
		raw_spin_lock_irqsave(&sw_live_lock, flags);
		head.caught_up = sw_mirror_advance(m, jiffies);
		raw_spin_unlock_irqrestore(&sw_live_lock, flags);
		if (head.caught_up)
			break;
		cond_resched();
	}
	raw_spin_lock_irqsave(&sw_live_lock, flags);
	head.running = live->running;
	head.records = live->nr_recs;
	head.elapsed_ms = jiffies_to_msecs((live->running ? jiffies : live->stopped) -
					   live->started);
	head.own_events = live->own_events;
	head.log_size = live->log_size;
	head.log_drained = live->drained;
	head.log_drained_by_probes = live->drained_by_probes;
	for_each_possible_cpu(cpu)
		head.log_lost += local_read(&per_cpu_ptr(live->logs, cpu)->lost);
	head.log_forced = live->merge.forced;
	head.log_softirqs = live->softirqs;
	sw_mirror_report_take(rep, &head, m, with_top ? live->top : NULL);
	raw_spin_unlock_irqrestore(&sw_live_lock, flags);
	return true;
}

static __printf(2, 0) void sw_live_seq_vprintf(struct sw_print *p, const char *fmt, va_list args)
{
	seq_vprintf(p->ctx, fmt, args);
}

static void sw_live_seq_fn(struct sw_print *p, const void *fn)
{
	seq_printf(p->ctx, "%ps", fn);
}

/* Each section: what prints it, and whether it needs the top table */
static const struct {
	void	(*print)(struct sw_print *p, const struct sw_mirror_report *rep);
	bool	with_top;
} sw_live_sections[] = {
	[SW_LIVE_STATS]		= { sw_mirror_report_stats, false },
	[SW_LIVE_LATENESS]	= { sw_mirror_report_lateness, false },
	[SW_LIVE_DIFF]		= { sw_mirror_report_diff, false },
	[SW_LIVE_TOP]		= { sw_mirror_report_top, true },
	[SW_LIVE_SUMMARY]	= { sw_mirror_report_summary, true },
};

/*
 * mirror/logs: a line per CPU of what its probes logged, with the mutex
 * held: the figures only grow, each read at one moment
 */
static void sw_live_show_logs(struct seq_file *s, const struct sw_live *live)
{
	const struct sw_live_log *log;
	unsigned int cpu;

	lockdep_assert_held(&sw_live_mutex);
	seq_printf(s, "running %d\nlog_size %lu\n", live->running, live->log_size);
	for_each_possible_cpu(cpu) {
		log = per_cpu_ptr(live->logs, cpu);
		seq_printf(s, "cpu %u logged %lu unread %lu full %lu lost %lu\n", cpu,
			   local_read(&log->head), sw_live_log_unread(log), local_read(&log->full),
			   local_read(&log->lost));
	}
}

/**
 * sw_live_show - a read of a file of debugfs mirror/
 * @s:		the read
 * @section:	which section of the mirror's report the file is
 *
 * Takes the mirror's report (sw_live_snapshot()) and prints the section
 * from it; a mirror that never ran reads "running 0".
 *
 * Return: 0 or -ENOMEM.
 */
int sw_live_show(struct seq_file *s, enum sw_live_section section)
{
	struct sw_print p = {
		.vprintf = sw_live_seq_vprintf, .fn = sw_live_seq_fn, .ctx = s,
	};
	struct sw_mirror_report *rep;
	bool ran;

	if (section == SW_LIVE_LOGS) {
		mutex_lock(&sw_live_mutex);
		if (sw_live_mirror.logs)
			sw_live_show_logs(s, &sw_live_mirror);
		else
			seq_puts(s, "running 0\n");
		mutex_unlock(&sw_live_mutex);
		return 0;
	}
	rep = kvzalloc(sizeof(*rep), GFP_KERNEL);
	if (!rep)
		return -ENOMEM;
	mutex_lock(&sw_live_mutex);
	ran = sw_live_snapshot(rep, sw_live_sections[section].with_top);
	mutex_unlock(&sw_live_mutex);

	if (ran)
		sw_live_sections[section].print(&p, rep);
	else
		seq_puts(s, "running 0\n");
	kvfree(rep);
	return 0;
}
