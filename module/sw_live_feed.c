// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the live mirror fed: each CPU's log of the kernel's timer
 * events (sw_live_log.h), which the probes fill (sw_live_probe.c),
 * drained into the mirror's wheels in each timer's real order. A timer's
 * events come from any CPU, each logged on the CPU it came on and
 * numbered on a counter of the timer's; the drain merges the logs back by
 * those numbers (core/merge/sw_logmerge.c says why that is right).
 *
 * The mirror's thread drains the logs into the wheels, serialised by one
 * raw spinlock taken with interrupts off (sw_live_lock, sw_live.c), a
 * batch at a time; a read drains them first (sw_live_read.c). Only when
 * its log is full does a probe drain itself (sw_live_reserve_full()),
 * until its log has room, so that nothing is lost while the thread cannot
 * keep up; an event that still finds no room (its log's oldest entries
 * wait for an event still being written) is counted as lost, and takes no
 * number. The logs and the merge's state are allocated at start
 * (sw_live_logs_init()). This file calls none of the mirror's others.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "sw_event.h"
#include "sw_live.h"
#include "sw_live_state.h"

/* Events drained under one hold of the lock: about 10 us natively, interrupts off */
#define SW_LIVE_DRAIN_BATCH	16
/* The thread's sleep between drains, by how much the last one found (us) */
#define SW_LIVE_DRAIN_BUSY_US	1000
#define SW_LIVE_DRAIN_US	10000
#define SW_LIVE_DRAIN_IDLE_US	50000

/* One logged event into the mirror, with the lock held */
static void sw_live_feed(struct sw_live *live, const struct sw_live_logged *ent)
{
	struct sw_mirror_outcome out;
	enum sw_mirror_class class;

	lockdep_assert_held(&sw_live_lock);
	/* The CPU's own events go to its model: they have no timer to account */
	if (sw_ev_of_cpu(ent->ev.type)) {
		if (ent->ev.type == SW_EV_SOFTIRQ_ENTRY)
			live->softirqs++;
		sw_mirror_handle_event(live->m, &ent->ev, NULL);
		return;
	}
	/* The module's own timers (its traffic, its poll) are not the kernel's */
	if (!live->with_own && within_module((unsigned long)ent->fn, THIS_MODULE)) {
		live->own_events++;
		return;
	}
	class = sw_mirror_handle_event(live->m, &ent->ev, &out);
	sw_mirror_top_account(live->top, ent->fn, class, &out, sw_mirror_nr_wheels(live->m));
}

/* What the merge sees of CPU @cpu's log, with the lock held */
static void sw_live_head(struct sw_live *live, unsigned int cpu)
{
	const struct sw_live_log *log = per_cpu_ptr(live->logs, cpu);
	struct sw_logmerge_head *h = &live->heads[cpu];
	const struct sw_live_logged *ent = sw_live_log_peek(log);

	if (ent) {
		h->now = ent->ev.now;
		h->nr = ent->nr;
		h->backlog = sw_live_log_unread(log);
		h->counter = ent->counter;
		h->state = SW_LH_READY;
	} else {
		/* An entry reserved that sw_live_log_peek() does not give yet */
		h->state = sw_live_log_unread(log) ? SW_LH_WRITING : SW_LH_EMPTY;
	}
}

/* Read again the logs whose next event was not written yet */
static void sw_live_heads(struct sw_live *live)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		if (live->heads[cpu].state != SW_LH_READY)
			sw_live_head(live, cpu);
	}
}

/* Read every log's backlog again: once a batch, as the others write on */
static void sw_live_backlogs(struct sw_live *live)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		live->heads[cpu].backlog = sw_live_log_unread(per_cpu_ptr(live->logs, cpu));
}

/*
 * The CPU whose logged event comes next, or < 0 if none may come yet. A
 * gap is certain only if the logs read after the heads still show
 * nothing being written (sw_logmerge.c): then it is forced through.
 */
static int sw_live_pick(struct sw_live *live)
{
	int cpu;

	sw_live_heads(live);
	cpu = sw_logmerge_pick(&live->merge, live->heads);
	if (cpu == SW_LOGMERGE_GAP) {
		sw_live_heads(live);
		cpu = sw_logmerge_force(&live->merge, live->heads);
	}
	return cpu;
}

/* Up to @max events from the logs into the mirror, merged, with the lock held */
static unsigned long sw_live_drain_locked(struct sw_live *live, unsigned long max)
{
	struct sw_live_log *log;
	unsigned long n = 0;
	int cpu;

	lockdep_assert_held(&sw_live_lock);
	sw_live_backlogs(live);
	while (n < max && (cpu = sw_live_pick(live)) >= 0) {
		log = per_cpu_ptr(live->logs, cpu);
		sw_live_feed(live, sw_live_log_peek(log));
		sw_live_log_pop(log);
		sw_live_head(live, cpu);
		n++;
	}
	live->drained += n;
	return n;
}

/*
 * This CPU's log was full: drain here, under the lock, a batch at a time,
 * until it has room. The merge takes the logs' events in their order, so
 * every event older than this log's oldest goes first: at most what all
 * the logs hold. Still no room means this log's oldest entries wait for
 * an event another CPU is writing, or one this CPU was interrupted
 * writing (an event of no timer, in a probe this one interrupted): the
 * event is lost, and counted.
 */
noinline struct sw_live_logged *
sw_live_reserve_full(struct sw_live *live, struct sw_live_log *log, unsigned long *pos)
{
	unsigned long n, flags, budget = nr_cpu_ids * live->log_size;
	struct sw_live_logged *ent;

	local_inc(&log->full);
	do {
		raw_spin_lock_irqsave(&sw_live_lock, flags);
		n = sw_live_drain_locked(live, min_t(unsigned long, budget, SW_LIVE_DRAIN_BATCH));
		live->drained_by_probes += n;
		raw_spin_unlock_irqrestore(&sw_live_lock, flags);
		budget -= n;
		ent = sw_live_log_reserve(log, pos);
	} while (!ent && n && budget);
	if (!ent)
		local_inc(&log->lost);
	return ent;
}

/**
 * sw_live_drain - drain the log into the mirror, a batch per lock hold
 *
 * Return: the events drained. Not with the lock held; may sleep.
 */
unsigned long sw_live_drain(void)
{
	struct sw_live *live = &sw_live_mirror;
	unsigned long flags, n, total = 0;

	might_sleep();
	if (!live->logs)
		return 0;
	do {
		raw_spin_lock_irqsave(&sw_live_lock, flags);
		n = sw_live_drain_locked(live, SW_LIVE_DRAIN_BATCH);
		raw_spin_unlock_irqrestore(&sw_live_lock, flags);
		total += n;
		cond_resched();
	} while (n == SW_LIVE_DRAIN_BATCH);
	return total;
}

/*
 * The mirror's thread: drains the log, then sleeps the longer the less it
 * found, on an hrtimer (no timer_list of its own in the traffic it
 * mirrors), not counted in the load average, until kthread_stop()
 */
int sw_live_drainer(void *unused)
{
	const unsigned long busy = sw_live_mirror.log_size / 8;

	while (!kthread_should_stop()) {
		unsigned long n = sw_live_drain();
		ktime_t sleep;

		sleep = (n >= busy ? SW_LIVE_DRAIN_BUSY_US :
			 n ? SW_LIVE_DRAIN_US : SW_LIVE_DRAIN_IDLE_US) * NSEC_PER_USEC;
		set_current_state(TASK_IDLE);
		if (!kthread_should_stop())
			schedule_hrtimeout_range(&sleep, sleep / 4, HRTIMER_MODE_REL);
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/*
 * Every CPU's log of @entries, the counters, and the merge's state over
 * them. Returns 0, -EINVAL or -ENOMEM; what it got is in @live either
 * way, for sw_live_logs_free().
 */
int sw_live_logs_init(struct sw_live *live, unsigned long entries)
{
	unsigned int cpu;
	int ret;

	live->logs = alloc_percpu(struct sw_live_log);
	live->orders = kvcalloc(SW_LIVE_ORDERS, sizeof(*live->orders), GFP_KERNEL);
	live->merge_next = kvcalloc(SW_LIVE_ORDERS, sizeof(*live->merge_next), GFP_KERNEL);
	live->heads = kcalloc(nr_cpu_ids, sizeof(*live->heads), GFP_KERNEL);	/* empty */
	if (!live->logs || !live->orders || !live->merge_next || !live->heads)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		ret = sw_live_log_init(per_cpu_ptr(live->logs, cpu), entries);
		if (ret)
			return ret;
	}
	live->log_size = roundup_pow_of_two(entries);
	sw_logmerge_init(&live->merge, live->merge_next, SW_LIVE_ORDERS, nr_cpu_ids);
	return 0;
}

/* What sw_live_logs_init() got, all or part */
void sw_live_logs_free(struct sw_live *live)
{
	unsigned int cpu;

	if (live->logs) {
		for_each_possible_cpu(cpu)
			sw_live_log_free(per_cpu_ptr(live->logs, cpu));
	}
	free_percpu(live->logs);
	kvfree(live->orders);
	kvfree(live->merge_next);
	kfree(live->heads);
}
