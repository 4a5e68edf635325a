// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the CPUs' timer softirqs, as the kernel raises them.
 *
 * On every tick a CPU takes, run_local_timers() raises TIMER_SOFTIRQ when
 * jiffies has reached the next_expiry of one of the CPU's timer bases
 * (kernel/time/timer.c; 6.1: BASE_STD, BASE_DEF; 6.12: BASE_LOCAL,
 * BASE_GLOBAL, BASE_DEF). A base's next_expiry is
 *
 *  lowered	by enqueue_timer() when a timer's bucket_expiry is before it
 *		(which clears next_expiry_recalc);
 *  left	by a delete (detach_if_pending()): it only sets
 *		next_expiry_recalc, so the base may come due at a tick whose
 *		bucket is empty, and the softirq then runs no timer;
 *  recomputed	by __run_timers(), which runs only a base whose next_expiry
 *		has come, for the first pending bucket after the tick; and on
 *		the way to idle, if next_expiry_recalc is set: 6.1's
 *		get_next_timer_interrupt() for BASE_STD, 6.12's
 *		next_timer_interrupt() for BASE_LOCAL and BASE_GLOBAL; never
 *		for BASE_DEF there.
 *
 * A timer the kernel expired before a wheel's tick for it came (a wheel at
 * a coarser HZ runs it later) still runs at that tick in that wheel: its
 * tick is kept as a ghost until the wheel's softirq runs it.
 *
 * A CPU ticks on every jiffy while it is awake. An idle CPU whose tick is
 * stopped (NOHZ) takes a tick only when its next non-deferrable expiry
 * comes: that is an idle wakeup, and a deferrable base that is due by then
 * runs in the same softirq (deferrable timers ride along; they never wake
 * a CPU).
 *
 * 6.12 traces the tick's stop (timer_base_idle), but 6.1's idle events are
 * cpu_idle's, traced on every pass of the idle loop whether the tick was
 * stopped or kept: tick_nohz_next_event() keeps it, and does not call
 * get_next_timer_interrupt(), so recomputes nothing, while
 * rcu_needs_cpu() (RCU callbacks queued on the CPU), irq_work or a
 * pending timer softirq need the CPU. A kept tick ends the idle period on
 * the next tick (default_idle_call() returns on each interrupt). So on
 * 6.1 an idle CPU's tick is taken as kept, the CPU ticking as if awake
 * and its bases as they were, until it has stayed idle for more than
 * %SW_SIRQ_WINDOW ticks (under emulation a tick comes that late): then the
 * tick was stopped, and the recompute done at the idle entry.
 *
 * The mirror keeps this per CPU for each of its wheels (struct
 * sw_mirror_cpu, from the caller): a timer is on the bases of the CPU its
 * flags name, the base its flags choose, at the tick the wheel placed it
 * for (on the kernel wheel, the tick the kernel said, &sw_mirror_rec.ktick).
 * Each CPU's ticks are looked at lazily, up to jiffies j, before any event
 * at j that concerns the CPU (its own, or a timer on its bases): the tick
 * of jiffy j comes before the events of that jiffy, and the CPU's state in
 * between (idle, its timers) changes only by such events. A recompute is a
 * walk of the CPU's timers, done only when the kernel recomputes.
 *
 * The differential: the kernel wheel's predicted softirqs against the
 * softirq_entry events of TIMER_SOFTIRQ the CPU recorded. A recorded run
 * at jiffy j takes the predictions up to j: the one at j agrees; failing
 * that, the latest one ran late (the softirq went to ksoftirqd, or waited
 * for interrupts to come back on, or the CPU's tick itself came late);
 * the others were raised again while a raise was pending (coalesced). A
 * trace's run that ran no timer is known only to lie between the events
 * around it, jiffies lo to j: it takes the predictions up to lo, failing
 * those the first one up to j, which agrees; a later one is the next
 * run's. A prediction that no run took within %SW_SIRQ_WINDOW ticks was
 * missed, unless the next run's first timer was due by then (its baseclk,
 * the base's clock __run_timers() had caught up from): under emulation a
 * CPU's tick comes many ticks late, jiffies having advanced by several
 * at once (tick_do_update_jiffies64()), and that run is the raise, late,
 * the ones before it coalesced into it.
 * A missed one on an idle 6.12 CPU whose only due base was BASE_GLOBAL
 * was the timer migration hierarchy's (tmigr): another CPU ran those
 * timers. A recorded run nothing predicted ran a timer from before the
 * trace (history, whose base the model could not know), or on 6.12
 * another CPU's global timers (tmigr, tmigr_handle_remote()), or ran
 * none and came at the jiffies of the CPU's previous run (rerun:
 * TIMER_SOFTIRQ raised again while that run was pending or running, and
 * run again by handle_softirqs()'s restart or by ksoftirqd, the bases
 * recomputed by then; under emulation a late tick's successor comes
 * early, tick_sched_timer() forwarding it to the next period, and can
 * land inside the run), or came while the model had the CPU idle
 * (idle_tick: the tick was not stopped, tick_nohz_idle_stop_tick() keeps
 * it when the next event is a tick away or RCU needs the CPU); else it is
 * unpredicted.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/string.h>

#include "sw_softirq.h"

/* The bases a stopped tick wakes for, and that idle entry recomputes */
#define SW_SIRQ_NONDEF		(BIT(0) | BIT(SW_SIRQ_BASE_GLOBAL))
#define SW_SIRQ_ALL		(SW_SIRQ_NONDEF | BIT(SW_SIRQ_BASE_DEF))

/**
 * sw_sirq_verdict_name - the name of a verdict of the softirq differential
 * @v:		the verdict
 *
 * Return: its name, as mirror/stats prints it (softirq.NAME).
 */
const char *sw_sirq_verdict_name(enum sw_sirq_verdict v)
{
/* In the order of the enum: the same list */
#define SW_EM(sym, name)	name,
#define SW_EM_LAST(sym, name)	name
	static const char * const names[SW_SIRQ_NR_VERDICTS] = { SW_SIRQ_VERDICTS };
#undef SW_EM
#undef SW_EM_LAST

	return v < SW_SIRQ_NR_VERDICTS ? names[v] : "?";
}

/**
 * sw_mirror_set_cpus - model the CPUs' timer bases and softirqs
 * @m:		the mirror, before its first event
 * @cpus:	one per CPU; the caller keeps them until it stops the mirror
 * @nr_cpus:	CPUs; timers on others' bases and their events are left out
 * @bases:	the kernel's bases per CPU: 6.1's or 6.12's
 */
void sw_mirror_set_cpus(struct sw_mirror *m, struct sw_mirror_cpu *cpus, unsigned int nr_cpus,
			enum sw_mirror_bases bases)
{
	unsigned int i;

	memset(cpus, 0, nr_cpus * sizeof(*cpus));
	for (i = 0; i < nr_cpus; i++)
		INIT_LIST_HEAD(&cpus[i].timers);
	m->cpus = cpus;
	m->nr_cpus = nr_cpus;
	m->bases = bases;
}

/**
 * sw_mirror_set_exact_next - turn the stale-next_expiry rule off, or on
 * @m:		the mirror
 * @exact:	a delete recomputes its base's next_expiry at once, as the
 *		kernel does not: the model the differential must reject
 */
void sw_mirror_set_exact_next(struct sw_mirror *m, bool exact)
{
	m->exact_next = exact;
}

/**
 * sw_mirror_set_cpu_budget - how much work the CPUs' model may do per event
 * @m:		the mirror
 * @budget:	visits of a timer by a wheel (%SW_SIRQ_BUDGET by default);
 *		ULONG_MAX never runs out
 *
 * The model recomputes a base's next_expiry by a walk of its CPU's
 * timers, in each wheel. With many timers on one CPU that is more than
 * the live mirror may do with interrupts off for one event: a CPU whose
 * model runs out is reset (&sw_mirror_cpu.resets) and followed again from
 * an own event whose recompute fits.
 */
void sw_mirror_set_cpu_budget(struct sw_mirror *m, unsigned long budget)
{
	m->cpu_budget = budget;
}

static struct sw_mirror_cpu *sw_sirq_cpu(const struct sw_mirror *m, unsigned int cpu)
{
	return m->cpus && cpu < m->nr_cpus ? &m->cpus[cpu] : NULL;
}

/* The base a timer is on, by its flags: get_timer_cpu_base() */
static unsigned int sw_sirq_base_of(const struct sw_mirror *m, u32 tflags)
{
	if (tflags & SW_KTIMER_DEFERRABLE)
		return SW_SIRQ_BASE_DEF;
	if (m->bases == SW_BASES_LOCAL_GLOBAL_DEF && !(tflags & SW_KTIMER_PINNED))
		return SW_SIRQ_BASE_GLOBAL;
	return 0;
}

/* The tick wheel @w runs @r's timer at; on the kernel wheel, the kernel's */
static unsigned long sw_sirq_tick_of(const struct sw_mirror *m, const struct sw_mirror_rec *r,
				     unsigned int w)
{
	return w == m->kernel_wheel ? r->ktick : r->ent[w].bucket_expiry;
}

/* Take tick @tk of a timer on base @b into @next, if it is after @t and @b is in @mask */
static void sw_sirq_min(unsigned int b, unsigned long tk, unsigned int mask, unsigned long t,
			unsigned long *next, unsigned int *found)
{
	if (!(mask & BIT(b)) || !sw_time_after(tk, t))
		return;
	if (!(*found & BIT(b)) || sw_time_before(tk, next[b]))
		next[b] = tk;
	*found |= BIT(b);
}

/*
 * One walk of @c's timers and ghosts in wheel @w: for each base in @mask,
 * @next gets the first tick after @t of a timer pending there
 * (__next_timer_interrupt()), and @found the bases that have one; @runs,
 * if not NULL, whether a timer is due in (@from, @t], which a run at @t
 * runs. Each timer on the list is charged to the event's budget, all of
 * them before the walk: false, and nothing to go by, if that is more than
 * is left (the event's budget is then spent: what else the event catches
 * up fails too). A CPU with more timers than the budget is given up on
 * at once, on each of its events, rather than after a walk of the
 * budget's worth of them.
 */
static bool sw_sirq_scan(struct sw_mirror *m, const struct sw_mirror_cpu *c, unsigned int w,
			 unsigned int mask, unsigned long from, unsigned long t,
			 unsigned long *next, unsigned int *found, bool *runs)
{
	const struct sw_sirq_wheel *sw = &c->wheel[w];
	const struct sw_mirror_rec *r;
	unsigned int i;

	*found = 0;
	if (runs)
		*runs = false;
	/* cpu_work never passes cpu_budget */
	if (c->nr_timers > m->cpu_budget - m->cpu_work) {
		m->cpu_work = m->cpu_budget;
		return false;
	}
	m->cpu_work += c->nr_timers;
	list_for_each_entry(r, &c->timers, on_cpu) {
		unsigned long tk;

		if (r->state != SW_REC_PENDING)
			continue;
		tk = sw_sirq_tick_of(m, r, w);
		if (runs && sw_time_after(tk, from) && !sw_time_after(tk, t))
			*runs = true;
		sw_sirq_min(sw_sirq_base_of(m, r->tflags), tk, mask, t, next, found);
	}
	for (i = 0; i < sw->nr_ghosts; i++) {
		unsigned long tk = sw->ghost[i];

		if (runs && sw_time_after(tk, from) && !sw_time_after(tk, t))
			*runs = true;
		sw_sirq_min(sw->ghost_base[i], tk, mask, t, next, found);
	}
	return true;
}

/* The bases in @mask of wheel @w recomputed from a scan: next_expiry_recalc cleared */
static void sw_sirq_set_next(struct sw_sirq_wheel *sw, unsigned int mask,
			     const unsigned long *next, unsigned int found)
{
	unsigned int b;

	for (b = 0; b < SW_SIRQ_NR_BASES; b++) {
		if (!(mask & BIT(b)))
			continue;
		sw->next[b] = found & BIT(b) ? next[b] : 0;
		sw->stale &= ~BIT(b);
		if (found & BIT(b))
			sw->none &= ~BIT(b);
		else
			sw->none |= BIT(b);
	}
}

/* Recompute the bases in @mask of @c in wheel @w after tick @after; false if over budget */
static bool sw_sirq_recalc(struct sw_mirror *m, struct sw_mirror_cpu *c, unsigned int w,
			   unsigned int mask, unsigned long after)
{
	unsigned long next[SW_SIRQ_NR_BASES];
	unsigned int found;

	if (!sw_sirq_scan(m, c, w, mask, after, after, next, &found, NULL))
		return false;
	sw_sirq_set_next(&c->wheel[w], mask, next, found);
	return true;
}

/*
 * The CPU's model ran out of the event's budget: it is followed again from
 * its next own event whose recompute fits in one, and the softirqs it runs
 * until then are unmodelled
 */
static void sw_sirq_reset(struct sw_mirror_cpu *c)
{
	c->seen = false;
	c->resets++;
}

/* The ghosts a run at @t ran */
static void sw_sirq_ghosts_ran(struct sw_sirq_wheel *sw, unsigned long t)
{
	unsigned int i, n = 0;

	for (i = 0; i < sw->nr_ghosts; i++) {
		if (!sw_time_after(sw->ghost[i], t))
			continue;
		sw->ghost[n] = sw->ghost[i];
		sw->ghost_base[n++] = sw->ghost_base[i];
	}
	sw->nr_ghosts = n;
}

/* The earliest next_expiry of the bases in @mask; false if none holds a timer */
static bool sw_sirq_first(const struct sw_sirq_wheel *sw, unsigned int mask, unsigned long *first)
{
	bool found = false;
	unsigned int b;

	for (b = 0; b < SW_SIRQ_NR_BASES; b++) {
		if (!(mask & BIT(b)) || (sw->none & BIT(b)))
			continue;
		if (!found || sw_time_before(sw->next[b], *first))
			*first = sw->next[b];
		found = true;
	}
	return found;
}

/* A prediction no run took: missed, or on 6.12 taken over by the hierarchy */
static void sw_sirq_unmatched(struct sw_sirq_diff *d, const struct sw_sirq_pred *p)
{
	bool tmigr = (p->why & SW_SIRQ_WHY_IDLE) && (p->why & SW_SIRQ_WHY_GLOBAL);

	d->verdict[tmigr ? SW_SIRQ_TMIGR : SW_SIRQ_MISSED]++;
}

/* Drop @n predictions from the @at-th on */
static void sw_sirq_drop(struct sw_sirq_diff *d, unsigned int at, unsigned int n)
{
	memmove(d->pred + at, d->pred + at + n, (d->nr_pred - at - n) * sizeof(*d->pred));
	d->nr_pred -= n;
}

/*
 * The run in progress takes the @n predictions from the @at-th on: the
 * last is its raise, verdict @v, the others were raised again while it was
 * pending; all of them, if the run had its raise already
 */
static void sw_sirq_take(struct sw_sirq_diff *d, unsigned int at, unsigned int n,
			 enum sw_sirq_verdict v)
{
	unsigned int i;

	for (i = 0; i + 1 < n; i++)
		d->verdict[SW_SIRQ_COALESCED]++;
	d->verdict[d->run_matched ? SW_SIRQ_COALESCED : v]++;
	d->run_matched = true;
	sw_sirq_drop(d, at, n);
}

/*
 * The first expire_entry of a run that came more than %SW_SIRQ_WINDOW
 * ticks after predictions it did not take: a timer due at @baseclk, the
 * tick its base's clock had when it ran it. The CPU's tick came late (an
 * emulated CPU that did not run; jiffies had advanced by several ticks,
 * tick_do_update_jiffies64()) and __run_timers() caught the base's clock
 * up from there: if a prediction held was at @baseclk or after, the run
 * was that raise, late, and the older ones, which no run took in between,
 * were raised by ticks that did not come either: coalesced into it. If
 * all were before @baseclk, they were missed (sw_sirq_run_old()).
 */
static void sw_sirq_late_tick(struct sw_sirq_diff *d, unsigned long baseclk)
{
	if (!d->run_old || sw_time_before(d->pred[d->run_old - 1].tick, baseclk))
		return;
	sw_sirq_take(d, 0, d->run_old, SW_SIRQ_LATE);
	d->run_old = 0;
}

/* The held predictions no expire_entry of the run took: missed */
static void sw_sirq_run_old(struct sw_sirq_diff *d)
{
	unsigned int i;

	for (i = 0; i < d->run_old; i++)
		sw_sirq_unmatched(d, &d->pred[i]);
	sw_sirq_drop(d, 0, d->run_old);
	d->run_old = 0;
}

static void sw_sirq_predict(struct sw_sirq_diff *d, unsigned long tick, unsigned int why)
{
	d->predicted++;
	if (d->nr_pred == SW_SIRQ_WINDOW) {
		sw_sirq_unmatched(d, &d->pred[0]);
		sw_sirq_drop(d, 0, 1);
		if (d->run_old)
			d->run_old--;
	}
	d->pred[d->nr_pred++] = (struct sw_sirq_pred){ .tick = tick, .why = why };
}

/*
 * run_local_timers() raised TIMER_SOFTIRQ at tick @t of wheel @w:
 * run_timer_softirq(); false if the model ran out of budget first
 */
static bool sw_sirq_raise(struct sw_mirror *m, struct sw_mirror_cpu *c, unsigned int w,
			  unsigned long t)
{
	struct sw_sirq_wheel *sw = &c->wheel[w];
	unsigned long next[SW_SIRQ_NR_BASES];
	unsigned int b, due = 0, found;
	/* Idle with the tick stopped: 6.1's kept tick is an awake CPU's */
	bool asleep = c->idle && !c->idle_unsure;
	bool runs;

	for (b = 0; b < SW_SIRQ_NR_BASES; b++) {
		if (!(sw->none & BIT(b)) && !sw_time_after(sw->next[b], t))
			due |= BIT(b);
	}
	/* __run_timers() runs, and recomputes, only a base that is due */
	if (!sw_sirq_scan(m, c, w, due, sw->ran, t, next, &found, &runs))
		return false;
	sw->softirqs++;
	if (!runs)
		sw->spurious++;
	if (asleep)
		sw->wakeups++;
	sw->ran = t;
	sw_sirq_ghosts_ran(sw, t);
	sw_sirq_set_next(sw, due, next, found);
	if (w == m->kernel_wheel)
		sw_sirq_predict(&c->diff, t, (asleep ? SW_SIRQ_WHY_IDLE : 0) |
				((due & SW_SIRQ_NONDEF) == BIT(SW_SIRQ_BASE_GLOBAL) ?
				 SW_SIRQ_WHY_GLOBAL : 0));
	return true;
}

/* The CPU's ticks of wheel @w after the last one looked at, up to @v; false if over budget */
static bool sw_sirq_ticks(struct sw_mirror *m, struct sw_mirror_cpu *c, unsigned int w,
			  unsigned long v)
{
	struct sw_sirq_wheel *sw = &c->wheel[w];
	unsigned long t = 0;

	/*
	 * Awake, or idle with the tick kept, it ticks every tick; idle, for
	 * its next non-deferrable expiry
	 */
	while (sw_time_before(sw->tick, v) &&
	       sw_sirq_first(sw, c->idle && !c->idle_unsure ? SW_SIRQ_NONDEF : SW_SIRQ_ALL,
			     &t)) {
		if (!sw_time_after(t, sw->tick))
			t = sw->tick + 1;
		if (sw_time_after(t, v))
			break;
		sw->tick = t;
		if (!sw_sirq_raise(m, c, w, t))
			return false;
	}
	if (sw_time_after(v, sw->tick))
		sw->tick = v;
	return true;
}

static bool sw_sirq_idle_recalc(struct sw_mirror *m, struct sw_mirror_cpu *c);

/*
 * @c followed from its own event at jiffies @j: its bases' next_expiry
 * computed afresh in every wheel, a walk of its timers in each, if they
 * all fit in what is left of the event's budget. Their cost is known
 * before any is done: a CPU with more timers than that is given up on at
 * once, where the walks that fit would have been done first, only to be
 * done again. Their next_expiry would mean nothing until a start that
 * fits computes them all again; the wheels' ticks are set as those walks
 * would have left them, an expiry's ghost goes by them.
 */
static void sw_sirq_start(struct sw_mirror *m, struct sw_mirror_cpu *c, unsigned long j)
{
	unsigned long left = m->cpu_budget - m->cpu_work, fit = m->nr_wheels;
	unsigned int w;

	if (c->nr_timers)
		fit = min(fit, left / c->nr_timers);
	for (w = 0; w < m->nr_wheels; w++) {
		struct sw_sirq_wheel *sw = &c->wheel[w];
		unsigned long v = sw_mirror_clock(&m->wheels[w], j);

		sw->tick = v;
		sw->ran = v;
		if (w == fit) {
			m->cpu_work = m->cpu_budget;
			return;
		}
		if (fit == m->nr_wheels)
			sw_sirq_recalc(m, c, w, SW_SIRQ_ALL, v);
	}
	c->seen = true;
	c->caught_j = j;
}

/**
 * sw_sirq_catch_up - the ticks a CPU took up to jiffies @j
 * @m:		the mirror
 * @cpu:	the CPU
 * @j:		jiffies of an event that concerns it
 * @own:	the event is the CPU's own: a CPU is followed from its first
 *		one on, its bases' next_expiry computed afresh then
 */
void sw_sirq_catch_up(struct sw_mirror *m, unsigned int cpu, unsigned long j, bool own)
{
	struct sw_mirror_cpu *c = sw_sirq_cpu(m, cpu);
	unsigned int w;

	if (!c || (!c->seen && !own))
		return;
	if (!c->seen) {
		sw_sirq_start(m, c, j);
		return;
	}
	/* 6.1: idle past the ticks a kept tick can be late by, its tick was stopped */
	if (c->idle_unsure && sw_time_after(j, c->idle_at + SW_SIRQ_WINDOW)) {
		c->idle_unsure = false;
		if (!sw_sirq_idle_recalc(m, c))
			return;
	}
	/*
	 * Up to this jiffy already, as most events of a jiffy find it (an
	 * event catches up to three CPUs): no tick of any wheel to take
	 */
	if (j == c->caught_j)
		return;
	for (w = 0; w < m->nr_wheels; w++) {
		if (!sw_sirq_ticks(m, c, w, sw_mirror_clock(&m->wheels[w], j))) {
			sw_sirq_reset(c);
			return;
		}
	}
	c->caught_j = j;
}

/**
 * sw_sirq_catch_up_all - every CPU followed, up to jiffies @j
 * @m:		the mirror
 * @j:		jiffies
 */
void sw_sirq_catch_up_all(struct sw_mirror *m, unsigned long j)
{
	unsigned int cpu;

	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		sw_sirq_catch_up(m, cpu, j, false);
}

/**
 * sw_sirq_enqueue - enqueue_timer(): @r placed, on the base its flags name
 * @m:		the mirror
 * @r:		the record, its @tflags and @ktick those of the start
 */
void sw_sirq_enqueue(struct sw_mirror *m, struct sw_mirror_rec *r)
{
	unsigned int cpu = sw_ktimer_cpu(r->tflags), b = sw_sirq_base_of(m, r->tflags), w;
	struct sw_mirror_cpu *c = sw_sirq_cpu(m, cpu);

	sw_sirq_release(m, r);
	if (!c)
		return;
	list_add_tail(&r->on_cpu, &c->timers);
	r->listed_cpu = cpu;
	c->nr_timers++;
	for (w = 0; w < m->nr_wheels; w++) {
		struct sw_sirq_wheel *sw = &c->wheel[w];
		unsigned long t = sw_sirq_tick_of(m, r, w);

		if ((sw->none & BIT(b)) || sw_time_before(t, sw->next[b])) {
			sw->next[b] = t;
			sw->none &= ~BIT(b);
			sw->stale &= ~BIT(b);
		}
	}
}

/**
 * sw_sirq_delete - detach_if_pending(): @r's timer left its base
 * @m:		the mirror
 * @r:		the record, no longer pending
 *
 * next_expiry stays, marked for recalculation; with the stale rule off
 * (sw_mirror_set_exact_next()) it is recomputed at once.
 */
void sw_sirq_delete(struct sw_mirror *m, struct sw_mirror_rec *r)
{
	struct sw_mirror_cpu *c = sw_sirq_cpu(m, sw_ktimer_cpu(r->tflags));
	unsigned int b = sw_sirq_base_of(m, r->tflags), w;

	if (!c || !c->seen)
		return;
	for (w = 0; w < m->nr_wheels; w++) {
		if (!m->exact_next) {
			c->wheel[w].stale |= BIT(b);
		} else if (!sw_sirq_recalc(m, c, w, BIT(b), c->wheel[w].tick)) {
			sw_sirq_reset(c);
			return;
		}
	}
}

/**
 * sw_sirq_release - @r's lifetime ended: off its CPU's list
 * @m:		the mirror
 * @r:		the record
 */
void sw_sirq_release(struct sw_mirror *m, struct sw_mirror_rec *r)
{
	if (list_empty(&r->on_cpu))
		return;
	list_del_init(&r->on_cpu);
	m->cpus[r->listed_cpu].nr_timers--;
}

/**
 * sw_sirq_expired - the kernel ran @r's timer: a wheel whose tick for it
 *	has not come keeps that tick, to run it there
 * @m:		the mirror
 * @r:		the record, before its release
 */
void sw_sirq_expired(struct sw_mirror *m, const struct sw_mirror_rec *r)
{
	struct sw_mirror_cpu *c = sw_sirq_cpu(m, sw_ktimer_cpu(r->tflags));
	unsigned int b = sw_sirq_base_of(m, r->tflags), w;

	if (!c || list_empty(&r->on_cpu))
		return;
	for (w = 0; w < m->nr_wheels; w++) {
		struct sw_sirq_wheel *sw = &c->wheel[w];
		unsigned long t = sw_sirq_tick_of(m, r, w);

		if (!sw_time_after(t, sw->tick))
			continue;
		if (sw->nr_ghosts == SW_SIRQ_GHOSTS) {
			memmove(sw->ghost, sw->ghost + 1, sizeof(sw->ghost) - sizeof(*sw->ghost));
			memmove(sw->ghost_base, sw->ghost_base + 1, SW_SIRQ_GHOSTS - 1);
			sw->nr_ghosts--;
		}
		sw->ghost[sw->nr_ghosts] = t;
		sw->ghost_base[sw->nr_ghosts++] = b;
	}
}

/**
 * sw_sirq_expiry - an expire_entry: counted in the run of its CPU
 * @m:		the mirror
 * @ev:		the event
 * @r:		the record of its timer, or NULL (the mirror has none)
 */
void sw_sirq_expiry(struct sw_mirror *m, const struct sw_mirror_event *ev,
		    const struct sw_mirror_rec *r)
{
	struct sw_mirror_cpu *c = sw_sirq_cpu(m, ev->cpu);

	if (!c || !c->diff.in_run)
		return;
	if (!c->diff.run_expiries++ && c->diff.run_old)
		sw_sirq_late_tick(&c->diff, ev->baseclk);
	if (!r)
		c->diff.run_history++;
	else if (sw_ktimer_cpu(r->tflags) != ev->cpu)
		c->diff.run_remote++;
}

/*
 * A softirq_entry at jiffies @lo to @j (a trace's run that ran no timer is
 * known only to have come between the events around it): it takes the
 * predictions up to @lo, failing those the first one up to @j. The ones
 * more than %SW_SIRQ_WINDOW ticks before @lo are held for its first
 * expire_entry (sw_sirq_late_tick()).
 */
static void sw_sirq_run_begin(struct sw_mirror_cpu *c, unsigned long lo, unsigned long j)
{
	struct sw_sirq_diff *d = &c->diff;
	unsigned int n = 0, k;

	d->recorded++;
	d->in_run = true;
	d->run_expiries = 0;
	d->run_history = 0;
	d->run_remote = 0;
	d->run_idle = c->idle;
	d->run_matched = false;
	d->run_old = 0;
	d->run_rerun = d->have_last && !sw_time_after(lo, d->last_j);
	d->have_last = true;
	d->last_j = j;
	d->run_unmodelled = !c->seen;
	if (d->run_unmodelled)
		return;
	while (n < d->nr_pred && sw_time_before(d->pred[n].tick, lo - SW_SIRQ_WINDOW))
		n++;
	d->run_old = n;
	for (k = n; k < d->nr_pred && !sw_time_after(d->pred[k].tick, lo); k++)
		;
	if (k == n && k < d->nr_pred && !sw_time_after(d->pred[k].tick, j))
		k++;
	/* Raised at a tick it can have run at, or before */
	if (k > n)
		sw_sirq_take(d, n, k - n, sw_time_before(d->pred[k - 1].tick, lo) ?
			     SW_SIRQ_LATE : SW_SIRQ_AGREE);
}

/* Its softirq_exit: a run nothing predicted is told by what it ran */
static void sw_sirq_run_end(struct sw_mirror_cpu *c)
{
	struct sw_sirq_diff *d = &c->diff;

	if (!d->in_run)
		return;
	d->in_run = false;
	sw_sirq_run_old(d);
	if (!d->run_expiries) {
		d->recorded_spurious++;
		d->spurious_paired += d->run_matched;
	}
	if (d->run_matched)
		return;
	if (d->run_unmodelled)
		d->verdict[SW_SIRQ_UNMODELLED]++;
	else if (d->run_history)
		d->verdict[SW_SIRQ_HISTORY]++;
	else if (d->run_remote)
		d->verdict[SW_SIRQ_TMIGR]++;
	else if (d->run_rerun && !d->run_expiries)
		d->verdict[SW_SIRQ_RERUN]++;
	else if (d->run_idle)
		d->verdict[SW_SIRQ_IDLE_TICK]++;
	else
		d->verdict[SW_SIRQ_UNPREDICTED]++;
}

/*
 * Idle entry: 6.1's get_next_timer_interrupt(), 6.12's
 * next_timer_interrupt(): the non-deferrable bases marked for
 * recalculation are recomputed; false if over budget
 */
static bool sw_sirq_idle_recalc(struct sw_mirror *m, struct sw_mirror_cpu *c)
{
	unsigned int w, mask;

	for (w = 0; w < m->nr_wheels; w++) {
		mask = c->wheel[w].stale & SW_SIRQ_NONDEF;
		if (mask && !sw_sirq_recalc(m, c, w, mask, c->wheel[w].tick)) {
			sw_sirq_reset(c);
			return false;
		}
	}
	return true;
}

/*
 * Idle entry at jiffies @j: on 6.12 the tick stopped and the bases were
 * recomputed; on 6.1 that is known only once the CPU stays idle (see the
 * top of the file), its tick kept until then
 */
static void sw_sirq_idle(struct sw_mirror *m, struct sw_mirror_cpu *c, unsigned long j)
{
	c->idle = true;
	if (!c->seen)
		return;
	if (m->bases == SW_BASES_STD_DEF) {
		c->idle_unsure = true;
		c->idle_at = j;
		return;
	}
	sw_sirq_idle_recalc(m, c);
}

/**
 * sw_sirq_cpu_event - an event of the CPU itself, its ticks caught up
 * @m:		the mirror
 * @ev:		SW_EV_SOFTIRQ_ENTRY, _EXIT, SW_EV_IDLE_ENTER or _EXIT
 */
void sw_sirq_cpu_event(struct sw_mirror *m, const struct sw_mirror_event *ev)
{
	struct sw_mirror_cpu *c = sw_sirq_cpu(m, ev->cpu);

	m->cpu_events++;
	if (ev->type == SW_EV_IDLE_ENTER || ev->type == SW_EV_IDLE_EXIT)
		m->idle_events++;
	if (!c)
		return;
	switch (ev->type) {
	case SW_EV_SOFTIRQ_ENTRY:
		/* An exit lost before it: the run ended */
		sw_sirq_run_end(c);
		sw_sirq_run_begin(c, ev->have & SW_EVF_EARLIEST ? ev->expires : ev->now, ev->now);
		break;
	case SW_EV_SOFTIRQ_EXIT:
		sw_sirq_run_end(c);
		break;
	case SW_EV_IDLE_ENTER:
		sw_sirq_idle(m, c, ev->now);
		break;
	default:
		c->idle = false;
		c->idle_unsure = false;
		break;
	}
}

/**
 * sw_sirq_read_wheel - a wheel's softirqs, summed over the CPUs
 * @m:		the mirror
 * @w:		the wheel
 * @softirqs:	gets the timer softirqs raised
 * @spurious:	of those, the ones that ran no timer
 * @wakeups:	the idle wakeups
 */
void sw_sirq_read_wheel(const struct sw_mirror *m, unsigned int w, unsigned long *softirqs,
			unsigned long *spurious, unsigned long *wakeups)
{
	unsigned int cpu;

	*softirqs = 0;
	*spurious = 0;
	*wakeups = 0;
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		*softirqs += m->cpus[cpu].wheel[w].softirqs;
		*spurious += m->cpus[cpu].wheel[w].spurious;
		*wakeups += m->cpus[cpu].wheel[w].wakeups;
	}
}

/**
 * sw_mirror_read_cpu - one CPU's softirq differential, copied out
 * @m:		the mirror
 * @cpu:	the CPU
 * @fig:	gets it; all zero if the CPU is not modelled
 */
void sw_mirror_read_cpu(const struct sw_mirror *m, unsigned int cpu,
			struct sw_sirq_cpu_figures *fig)
{
	const struct sw_mirror_cpu *c = sw_sirq_cpu(m, cpu);

	memset(fig, 0, sizeof(*fig));
	if (!c)
		return;
	fig->modelled = true;
	fig->seen = c->seen;
	fig->idle = c->idle;
	fig->recorded = c->diff.recorded;
	fig->recorded_spurious = c->diff.recorded_spurious;
	fig->spurious_paired = c->diff.spurious_paired;
	fig->predicted = c->diff.predicted;
	fig->pending = c->diff.nr_pred;
	fig->timers = c->nr_timers;
	fig->resets = c->resets;
	memcpy(fig->verdict, c->diff.verdict, sizeof(fig->verdict));
}
