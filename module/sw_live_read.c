// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the live mirror read, for the files of debugfs mirror/.
 * A read drains the log (sw_live_probe.c) and brings every wheel up to
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

/**
 * struct sw_live_snap - the mirror's figures, copied out for a read
 * @running:	the probes were registered
 * @nr_recs:	records in the pool
 * @log_size:	events its log holds
 * @drained:	events drained from the log
 * @drained_by_probes: of those, by probes that found it full
 * @lost:	events that found no room in the log
 * @rep:	the figures the report prints
 */
struct sw_live_snap {
	bool				running;
	unsigned int			nr_recs;
	unsigned long			log_size;
	unsigned long			drained;
	unsigned long			drained_by_probes;
	unsigned long			lost;
	struct sw_mirror_report		rep;
};

/* Rounds of catching up a read may do, each under the lock */
#define SW_LIVE_READ_ROUNDS	64

/*
 * Copy the mirror's figures into @snap (and, if @top, its top table),
 * having brought its wheels up to jiffies first, a budget at a time with
 * the lock dropped in between. Returns false if it never ran.
 */
static bool sw_live_snapshot(struct sw_live_snap *snap, struct sw_mirror_top *top)
{
	struct sw_live *live = &sw_live_mirror;
	struct sw_mirror *m = live->m;
	unsigned long flags;
	unsigned int round;

	lockdep_assert_held(&sw_live_mutex);
	if (!m)
		return false;
	sw_live_drain();
	for (round = 0; round < SW_LIVE_READ_ROUNDS; round++) {
		raw_spin_lock_irqsave(&sw_live_lock, flags);
		snap->rep.caught_up = live->running ? sw_mirror_advance(m, jiffies) : true;
		raw_spin_unlock_irqrestore(&sw_live_lock, flags);
		if (snap->rep.caught_up)
			break;
		cond_resched();
	}
	raw_spin_lock_irqsave(&sw_live_lock, flags);
	snap->running = live->running;
	snap->nr_recs = live->nr_recs;
	snap->log_size = live->log.mask + 1;
	snap->drained = live->drained;
	snap->drained_by_probes = live->drained_by_probes;
	snap->lost = atomic_long_read(&live->lost);
	sw_mirror_report_take(&snap->rep, m);
	snap->rep.elapsed = (live->running ? jiffies : live->stopped) - live->started;
	snap->rep.own_events = live->own_events;
	if (top)
		*top = *live->top;
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

/* What the module adds to the stats section: the probes' side */
static void sw_live_show_feed(struct seq_file *s, const struct sw_live_snap *snap)
{
	seq_printf(s, "running %d\nrecords %u\nelapsed_ms %u\nhz %d\nwheels %u\n",
		   snap->running, snap->nr_recs, jiffies_to_msecs(snap->rep.elapsed), HZ,
		   snap->rep.nr_wheels);
	seq_printf(s, "log_size %lu\nlog_drained %lu\nlog_drained_by_probes %lu\nlog_lost %lu\n",
		   snap->log_size, snap->drained, snap->drained_by_probes, snap->lost);
}

/**
 * sw_live_show - a read of a file of debugfs mirror/
 * @s:		the read
 * @section:	which section of the mirror's report the file is
 *
 * Copies the mirror out (sw_live_snapshot()) and prints the section from
 * the copy; a mirror that never ran reads "running 0".
 *
 * Return: 0 or -ENOMEM.
 */
int sw_live_show(struct seq_file *s, enum sw_live_section section)
{
	struct sw_print p = {
		.vprintf = sw_live_seq_vprintf, .fn = sw_live_seq_fn, .ctx = s,
	};
	struct sw_mirror_top *top = NULL;
	struct sw_live_snap *snap;
	bool ran;

	snap = kvzalloc(sizeof(*snap), GFP_KERNEL);
	if (section == SW_LIVE_TOP)
		top = kvzalloc(sizeof(*top), GFP_KERNEL);
	if (!snap || (section == SW_LIVE_TOP && !top)) {
		kvfree(snap);
		return -ENOMEM;
	}
	mutex_lock(&sw_live_mutex);
	ran = sw_live_snapshot(snap, top);
	mutex_unlock(&sw_live_mutex);

	if (!ran) {
		seq_puts(s, "running 0\n");
	} else {
		switch (section) {
		case SW_LIVE_STATS:
			sw_live_show_feed(s, snap);
			sw_mirror_report_stats(&p, &snap->rep);
			break;
		case SW_LIVE_LATENESS:
			sw_mirror_report_lateness(&p, &snap->rep);
			break;
		case SW_LIVE_DIFF:
			sw_mirror_report_diff(&p, &snap->rep);
			break;
		case SW_LIVE_TOP:
			sw_mirror_report_top(&p, &snap->rep, top);
			break;
		}
	}
	kvfree(top);
	kvfree(snap);
	return 0;
}
