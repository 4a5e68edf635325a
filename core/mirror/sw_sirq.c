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
 * The model keeps this per CPU for each wheel of its caller, the mirror
 * (struct sw_sirq_cpu, from the caller): a timer is on the bases of the
 * CPU its flags name, the base its flags choose, at the tick the wheel
 * placed it for (on the kernel wheel, the tick the kernel said,
 * &sw_sirq_timer.ktick).
 * Each CPU's ticks are looked at lazily, up to jiffies j, before any event
 * at j that concerns the CPU (its own, or a timer on its bases): the tick
 * of jiffy j comes before the events of that jiffy, and the CPU's state in
 * between (idle, its timers) changes only by such events. Each wheel keeps
 * a CPU's pending timers in a tree per base, ordered by the tick it runs
 * them at (sw_tree.c): a recompute, done only when the kernel recomputes,
 * is a lookup of the first tick after the wheel's in each base's tree,
 * O(log n) in the timers the CPU has pending.
 *
 * The differential of the kernel wheel's raises against the recorded ones
 * is sw_sirq_diff.c's: the model tells it what it predicts and what the
 * CPU ran.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/string.h>

#include "sw_diff.h"
#include "sw_sirq.h"

/* The bases a stopped tick wakes for, and that idle entry recomputes */
#define SW_SIRQ_NONDEF		(BIT(0) | BIT(SW_SIRQ_BASE_GLOBAL))
#define SW_SIRQ_ALL		(SW_SIRQ_NONDEF | BIT(SW_SIRQ_BASE_DEF))

/**
 * sw_sirq_init - a model of no CPU, its budget the default
 * @s:		the model
 */
void sw_sirq_init(struct sw_sirq *s)
{
	memset(s, 0, sizeof(*s));
	s->budget = SW_SIRQ_BUDGET;
}

/**
 * sw_sirq_set_wheels - the wheels the model follows
 * @s:		the model, before its first event
 * @nr_wheels:	how many (up to %SW_SIRQ_MAX_WHEELS)
 * @kernel_wheel: the one the differential takes the raises of, each
 *		timer at the tick the kernel runs it at
 */
void sw_sirq_set_wheels(struct sw_sirq *s, unsigned int nr_wheels, unsigned int kernel_wheel)
{
	s->nr_wheels = nr_wheels;
	s->kernel_wheel = kernel_wheel;
}

/**
 * sw_sirq_set_cpus - model the CPUs' timer bases and softirqs
 * @s:		the model, before its first event
 * @cpus:	one per CPU; the caller keeps them until it stops the model
 * @nr_cpus:	CPUs; timers on others' bases and their events are left out
 * @bases:	the kernel's bases per CPU: 6.1's or 6.12's
 */
void sw_sirq_set_cpus(struct sw_sirq *s, struct sw_sirq_cpu *cpus, unsigned int nr_cpus,
		      enum sw_sirq_bases bases)
{
	unsigned int i, w, b;

	memset(cpus, 0, nr_cpus * sizeof(*cpus));
	for (i = 0; i < nr_cpus; i++) {
		INIT_LIST_HEAD(&cpus[i].timers);
		for (w = 0; w < SW_SIRQ_MAX_WHEELS; w++)
			for (b = 0; b < SW_SIRQ_NR_BASES; b++)
				sw_tree_init(&cpus[i].wheel[w].timers[b]);
	}
	s->cpus = cpus;
	s->nr_cpus = nr_cpus;
	s->bases = bases;
}

/**
 * sw_sirq_set_exact_next - turn the stale-next_expiry rule off, or on
 * @s:		the model
 * @exact:	a delete recomputes its base's next_expiry at once, as the
 *		kernel does not: the model the differential must reject
 */
void sw_sirq_set_exact_next(struct sw_sirq *s, bool exact)
{
	s->exact_next = exact;
}

/**
 * sw_sirq_set_budget - how much work the model may do per event
 * @s:		the model
 * @budget:	looks at a CPU's bases in one wheel (%SW_SIRQ_BUDGET by
 *		default); ULONG_MAX never runs out
 *
 * A look at a CPU's bases in a wheel, a recompute or a raise, costs a
 * lookup in each base's tree, however many timers it holds. What bounds
 * an event's work is how many it takes: its CPUs' ticks caught up over a
 * long gap, in every wheel. A CPU whose model runs out is reset
 * (&sw_sirq_cpu.resets) and followed again from an own event whose
 * recompute fits.
 */
void sw_sirq_set_budget(struct sw_sirq *s, unsigned long budget)
{
	s->budget = budget;
}

/**
 * sw_sirq_set_observed_ticks - the CPUs' ticks come as events, or not
 * @s:		the model, before its first event
 * @observed:	each tick a CPU takes is an event (sw_sirq_tick()), its
 *		jiffies the tick's: the kernel wheel raises at those ticks
 *		alone. The other wheels, at HZ the kernel does not run, still
 *		tick on every jiffy of an awake CPU
 */
void sw_sirq_set_observed_ticks(struct sw_sirq *s, bool observed)
{
	s->observed_ticks = observed;
}

/**
 * sw_sirq_timer_init - a timer's part, on no CPU's list
 * @tm:		the part, in the caller's record
 * @ent:	the record's timers, one per wheel, in the wheels' order
 */
void sw_sirq_timer_init(struct sw_sirq_timer *tm, const struct sw_timer *ent)
{
	unsigned int w;

	INIT_LIST_HEAD(&tm->on_cpu);
	for (w = 0; w < SW_SIRQ_MAX_WHEELS; w++)
		sw_tree_node_init(&tm->node[w]);
	tm->ent = ent;
	tm->ktick = 0;
	tm->tflags = 0;
	tm->listed_cpu = 0;
	tm->pending = false;
}

static struct sw_sirq_cpu *sw_sirq_cpu(const struct sw_sirq *s, unsigned int cpu)
{
	return s->cpus && cpu < s->nr_cpus ? &s->cpus[cpu] : NULL;
}

/* The base a timer is on, by its flags: get_timer_cpu_base() */
static unsigned int sw_sirq_base_of(const struct sw_sirq *s, u32 tflags)
{
	if (tflags & SW_KTIMER_DEFERRABLE)
		return SW_SIRQ_BASE_DEF;
	if (s->bases == SW_BASES_LOCAL_GLOBAL_DEF && !(tflags & SW_KTIMER_PINNED))
		return SW_SIRQ_BASE_GLOBAL;
	return 0;
}

/* The tick wheel @w runs @tm's timer at; on the kernel wheel, the kernel's */
static unsigned long sw_sirq_tick_of(const struct sw_sirq *s, const struct sw_sirq_timer *tm,
				     unsigned int w)
{
	return w == s->kernel_wheel ? tm->ktick : tm->ent[w].bucket_expiry;
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

/* Whether base tree @tree holds a timer due in (@from, @t] */
static bool sw_sirq_due_in(const struct sw_tree *tree, unsigned long from, unsigned long t)
{
	const struct sw_tree_node *n = sw_tree_after(tree, from);

	return n && !sw_time_after(n->tick, t);
}

/*
 * A look at @c's bases and ghosts in wheel @w: for each base in @mask,
 * @next gets the first tick after @t of a timer pending there
 * (__next_timer_interrupt()), and @found the bases that have one; @runs,
 * if not NULL, whether a timer of any base is due in (@from, @t], which a
 * run at @t runs. Charged one to the event's budget: false, and nothing
 * to go by, if none is left (what else the event catches up then fails
 * too).
 */
static bool sw_sirq_scan(struct sw_sirq *s, const struct sw_sirq_cpu *c, unsigned int w,
			 unsigned int mask, unsigned long from, unsigned long t,
			 unsigned long *next, unsigned int *found, bool *runs)
{
	const struct sw_sirq_wheel *sw = &c->wheel[w];
	const struct sw_tree_node *n;
	unsigned int b, i;

	*found = 0;
	if (runs)
		*runs = false;
	if (s->work >= s->budget)
		return false;
	s->work++;
	for (b = 0; b < SW_SIRQ_NR_BASES; b++) {
		if (runs && !*runs)
			*runs = sw_sirq_due_in(&sw->timers[b], from, t);
		n = mask & BIT(b) ? sw_tree_after(&sw->timers[b], t) : NULL;
		if (n)
			sw_sirq_min(b, n->tick, mask, t, next, found);
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
static bool sw_sirq_recalc(struct sw_sirq *s, struct sw_sirq_cpu *c, unsigned int w,
			   unsigned int mask, unsigned long after)
{
	unsigned long next[SW_SIRQ_NR_BASES];
	unsigned int found;

	if (!sw_sirq_scan(s, c, w, mask, after, after, next, &found, NULL))
		return false;
	sw_sirq_set_next(&c->wheel[w], mask, next, found);
	return true;
}

/*
 * The CPU's model ran out of the event's budget: it is followed again from
 * its next own event whose recompute fits in one, and the softirqs it runs
 * until then are unmodelled
 */
static void sw_sirq_reset(struct sw_sirq_cpu *c)
{
	c->followed = false;
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

/*
 * run_local_timers() raised TIMER_SOFTIRQ at tick @t of wheel @w:
 * run_timer_softirq(); false if the model ran out of budget first
 */
static bool sw_sirq_raise(struct sw_sirq *s, struct sw_sirq_cpu *c, unsigned int w,
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
	if (!sw_sirq_scan(s, c, w, due, sw->ran, t, next, &found, &runs))
		return false;
	sw->softirqs++;
	if (!runs)
		sw->spurious++;
	if (asleep)
		sw->wakeups++;
	sw->ran = t;
	sw_sirq_ghosts_ran(sw, t);
	sw_sirq_set_next(sw, due, next, found);
	if (w == s->kernel_wheel)
		sw_sirq_diff_predict(&c->diff, t, (asleep ? SW_SIRQ_WHY_IDLE : 0) |
				     ((due & SW_SIRQ_NONDEF) == BIT(SW_SIRQ_BASE_GLOBAL) ?
				      SW_SIRQ_WHY_GLOBAL : 0));
	return true;
}

/* The CPU's ticks of wheel @w after the last one looked at, up to @v; false if over budget */
static bool sw_sirq_ticks(struct sw_sirq *s, struct sw_sirq_cpu *c, unsigned int w,
			  unsigned long v)
{
	struct sw_sirq_wheel *sw = &c->wheel[w];
	unsigned long t = 0;

	/*
	 * Its ticks observed, the kernel wheel is at the last of them and
	 * raises there (sw_sirq_tick()): an event's jiffies may be ahead of
	 * the CPU's tick (a softirq or idle event takes the next event's)
	 */
	if (w == s->kernel_wheel && s->observed_ticks)
		return true;
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
		if (!sw_sirq_raise(s, c, w, t))
			return false;
	}
	if (sw_time_after(v, sw->tick))
		sw->tick = v;
	return true;
}

static bool sw_sirq_idle_recalc(struct sw_sirq *s, struct sw_sirq_cpu *c);

/*
 * @c followed from its own event at jiffies @j: its bases' next_expiry
 * computed afresh in every wheel, a look at its bases in each, if they all
 * fit in what is left of the event's budget. Their cost is known before
 * any is done: where they do not all fit, none is done, as they would only
 * have to be done again. Their next_expiry would mean nothing until a
 * start that fits computes them all again; the wheels' ticks are set as
 * those looks would have left them, an expiry's ghost goes by them.
 * @clock holds each wheel's tick at @j.
 */
static void sw_sirq_start(struct sw_sirq *s, struct sw_sirq_cpu *c, unsigned long j,
			  const unsigned long *clock)
{
	unsigned long fit = min_t(unsigned long, s->nr_wheels, s->budget - s->work);
	unsigned int w;

	for (w = 0; w < s->nr_wheels; w++) {
		struct sw_sirq_wheel *sw = &c->wheel[w];
		unsigned long v = clock[w];

		sw->tick = v;
		sw->ran = v;
		if (w == fit) {
			s->work = s->budget;
			return;
		}
		if (fit == s->nr_wheels)
			sw_sirq_recalc(s, c, w, SW_SIRQ_ALL, v);
	}
	c->followed = true;
	c->caught_j = j;
}

/**
 * sw_sirq_catch_up - the ticks a CPU took up to jiffies @j
 * @s:		the model
 * @cpu:	the CPU
 * @j:		jiffies of an event that concerns it
 * @clock:	each wheel's tick at @j
 * @own:	the event is the CPU's own: a CPU is followed from its first
 *		one on, its bases' next_expiry computed afresh then
 */
void sw_sirq_catch_up(struct sw_sirq *s, unsigned int cpu, unsigned long j,
		      const unsigned long *clock, bool own)
{
	struct sw_sirq_cpu *c = sw_sirq_cpu(s, cpu);
	unsigned int w;

	if (!c || (!c->followed && !own))
		return;
	if (!c->followed) {
		sw_sirq_start(s, c, j, clock);
		return;
	}
	/* 6.1: idle past the ticks a kept tick can be late by, its tick was stopped */
	if (c->idle_unsure && sw_time_after(j, c->idle_at + SW_SIRQ_WINDOW)) {
		c->idle_unsure = false;
		if (!sw_sirq_idle_recalc(s, c))
			return;
	}
	/*
	 * Up to this jiffy already, as most events of a jiffy find it (an
	 * event catches up to three CPUs): no tick of any wheel to take
	 */
	if (j == c->caught_j)
		return;
	for (w = 0; w < s->nr_wheels; w++) {
		if (!sw_sirq_ticks(s, c, w, clock[w])) {
			sw_sirq_reset(c);
			return;
		}
	}
	c->caught_j = j;
}

/**
 * sw_sirq_catch_up_all - every CPU followed, up to jiffies @j
 * @s:		the model
 * @j:		jiffies
 * @clock:	each wheel's tick at @j
 */
void sw_sirq_catch_up_all(struct sw_sirq *s, unsigned long j, const unsigned long *clock)
{
	unsigned int cpu;

	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		sw_sirq_catch_up(s, cpu, j, clock, false);
}

/**
 * sw_sirq_enqueue - enqueue_timer(): @tm placed, on the base its flags name
 * @s:		the model
 * @tm:		the timer, its wheels' timers placed
 * @tflags:	the kernel's flags at the start
 * @ktick:	the tick the kernel will run it at
 */
void sw_sirq_enqueue(struct sw_sirq *s, struct sw_sirq_timer *tm, u32 tflags, unsigned long ktick)
{
	unsigned int cpu = sw_ktimer_cpu(tflags), b = sw_sirq_base_of(s, tflags), w;
	struct sw_sirq_cpu *c = sw_sirq_cpu(s, cpu);

	sw_sirq_release(s, tm);
	tm->tflags = tflags;
	tm->ktick = ktick;
	tm->pending = true;
	if (!c)
		return;
	list_add_tail(&tm->on_cpu, &c->timers);
	tm->listed_cpu = cpu;
	c->nr_timers++;
	for (w = 0; w < s->nr_wheels; w++) {
		struct sw_sirq_wheel *sw = &c->wheel[w];
		unsigned long t = sw_sirq_tick_of(s, tm, w);

		sw_tree_insert(&sw->timers[b], &tm->node[w], t);
		if ((sw->none & BIT(b)) || sw_time_before(t, sw->next[b])) {
			sw->next[b] = t;
			sw->none &= ~BIT(b);
			sw->stale &= ~BIT(b);
		}
	}
}

/* @tm no longer pending: out of its base's tree in every wheel */
static void sw_sirq_unqueue(struct sw_sirq *s, struct sw_sirq_timer *tm)
{
	struct sw_sirq_wheel *wheel;
	unsigned int b, w;

	if (tm->pending && sw_sirq_listed(tm)) {
		wheel = s->cpus[tm->listed_cpu].wheel;
		b = sw_sirq_base_of(s, tm->tflags);
		for (w = 0; w < s->nr_wheels; w++)
			sw_tree_erase(&wheel[w].timers[b], &tm->node[w]);
	}
	tm->pending = false;
}

/**
 * sw_sirq_delete - detach_if_pending(): @tm's timer left its base
 * @s:		the model
 * @tm:		the timer, no longer pending
 *
 * next_expiry stays, marked for recalculation; with the stale rule off
 * (sw_sirq_set_exact_next()) it is recomputed at once.
 */
void sw_sirq_delete(struct sw_sirq *s, struct sw_sirq_timer *tm)
{
	struct sw_sirq_cpu *c = sw_sirq_cpu(s, sw_ktimer_cpu(tm->tflags));
	unsigned int b = sw_sirq_base_of(s, tm->tflags), w;

	sw_sirq_unqueue(s, tm);
	if (!c || !c->followed)
		return;
	for (w = 0; w < s->nr_wheels; w++) {
		if (!s->exact_next) {
			c->wheel[w].stale |= BIT(b);
		} else if (!sw_sirq_recalc(s, c, w, BIT(b), c->wheel[w].tick)) {
			sw_sirq_reset(c);
			return;
		}
	}
}

/**
 * sw_sirq_release - @tm's lifetime ended: off its CPU's list
 * @s:		the model
 * @tm:		the timer
 */
void sw_sirq_release(struct sw_sirq *s, struct sw_sirq_timer *tm)
{
	sw_sirq_unqueue(s, tm);
	if (list_empty(&tm->on_cpu))
		return;
	list_del_init(&tm->on_cpu);
	s->cpus[tm->listed_cpu].nr_timers--;
}

/**
 * sw_sirq_expired - the kernel ran @tm's timer: a wheel whose tick for it
 *	has not come keeps that tick, to run it there
 * @s:		the model
 * @tm:		the timer, before its release
 */
void sw_sirq_expired(struct sw_sirq *s, const struct sw_sirq_timer *tm)
{
	struct sw_sirq_cpu *c = sw_sirq_cpu(s, sw_ktimer_cpu(tm->tflags));
	unsigned int b = sw_sirq_base_of(s, tm->tflags), w;

	if (!c || list_empty(&tm->on_cpu))
		return;
	for (w = 0; w < s->nr_wheels; w++) {
		struct sw_sirq_wheel *sw = &c->wheel[w];
		unsigned long t = sw_sirq_tick_of(s, tm, w);

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
 * sw_sirq_expiry - an expire_entry on @cpu: counted in the CPU's run
 * @s:		the model
 * @cpu:	the CPU it ran on
 * @baseclk:	the tick its base ran it at
 * @tm:		its timer, or NULL (the caller has no record of it)
 */
void sw_sirq_expiry(struct sw_sirq *s, unsigned int cpu, unsigned long baseclk,
		    const struct sw_sirq_timer *tm)
{
	struct sw_sirq_cpu *c = sw_sirq_cpu(s, cpu);

	if (c)
		sw_sirq_diff_expiry(&c->diff, baseclk, !tm,
				    tm && sw_ktimer_cpu(tm->tflags) != cpu);
}

/*
 * Idle entry: 6.1's get_next_timer_interrupt(), 6.12's
 * next_timer_interrupt(): the non-deferrable bases marked for
 * recalculation are recomputed; false if over budget
 */
static bool sw_sirq_idle_recalc(struct sw_sirq *s, struct sw_sirq_cpu *c)
{
	unsigned int w, mask;

	for (w = 0; w < s->nr_wheels; w++) {
		mask = c->wheel[w].stale & SW_SIRQ_NONDEF;
		if (mask && !sw_sirq_recalc(s, c, w, mask, c->wheel[w].tick)) {
			sw_sirq_reset(c);
			return false;
		}
	}
	return true;
}

/* An idle entry or exit of @cpu, counted: the CPU's model, or NULL */
static struct sw_sirq_cpu *sw_sirq_idle_event(struct sw_sirq *s, unsigned int cpu)
{
	s->cpu_events++;
	s->idle_events++;
	return sw_sirq_cpu(s, cpu);
}

/**
 * sw_sirq_idle_enter - @cpu goes idle at jiffies @j, its ticks caught up
 * @s:		the model
 * @cpu:	the CPU
 * @j:		jiffies
 *
 * On 6.12 the tick stopped and the bases were recomputed; on 6.1 that is
 * known only once the CPU stays idle (see the top of the file), its tick
 * kept until then.
 */
void sw_sirq_idle_enter(struct sw_sirq *s, unsigned int cpu, unsigned long j)
{
	struct sw_sirq_cpu *c = sw_sirq_idle_event(s, cpu);

	if (!c)
		return;
	c->idle = true;
	if (!c->followed)
		return;
	if (s->bases == SW_BASES_STD_DEF) {
		c->idle_unsure = true;
		c->idle_at = j;
		return;
	}
	sw_sirq_idle_recalc(s, c);
}

/**
 * sw_sirq_idle_exit - @cpu leaves idle, its ticks caught up
 * @s:		the model
 * @cpu:	the CPU
 */
void sw_sirq_idle_exit(struct sw_sirq *s, unsigned int cpu)
{
	struct sw_sirq_cpu *c = sw_sirq_idle_event(s, cpu);

	if (!c)
		return;
	c->idle = false;
	c->idle_unsure = false;
}

/**
 * sw_sirq_tick - @cpu took its tick at jiffies @j, its ticks caught up
 * @s:		the model, its ticks observed (sw_sirq_set_observed_ticks())
 * @cpu:	the CPU
 * @j:		the jiffies the tick saw
 *
 * run_local_timers(): the kernel wheel raises TIMER_SOFTIRQ if one of the
 * CPU's bases is due at @j. A tick that comes late, or two that come at
 * the same jiffy, are taken as they came.
 */
void sw_sirq_tick(struct sw_sirq *s, unsigned int cpu, unsigned long j)
{
	struct sw_sirq_cpu *c = sw_sirq_cpu(s, cpu);
	struct sw_sirq_wheel *sw;
	unsigned long first;

	s->cpu_events++;
	if (!c)
		return;
	c->ticks++;
	if (!c->followed || !s->observed_ticks)
		return;
	sw = &c->wheel[s->kernel_wheel];
	if (sw_time_after(j, sw->tick))
		sw->tick = j;
	if (!sw_sirq_first(sw, SW_SIRQ_ALL, &first) || sw_time_after(first, sw->tick))
		return;
	if (!sw_sirq_raise(s, c, s->kernel_wheel, sw->tick))
		sw_sirq_reset(c);
}

/**
 * sw_sirq_softirq_entry - @cpu's timer softirq runs, its ticks caught up
 * @s:		the model
 * @cpu:	the CPU
 * @lo:		the earliest jiffies the run can have begun at
 * @j:		the latest
 */
void sw_sirq_softirq_entry(struct sw_sirq *s, unsigned int cpu, unsigned long lo,
			   unsigned long j)
{
	struct sw_sirq_cpu *c = sw_sirq_cpu(s, cpu);

	s->cpu_events++;
	if (!c)
		return;
	/* An exit lost before it: the run ended */
	sw_sirq_diff_run_end(&c->diff);
	sw_sirq_diff_run_begin(&c->diff, lo, j, c->idle, c->followed);
}

/**
 * sw_sirq_softirq_exit - @cpu's timer softirq returns
 * @s:		the model
 * @cpu:	the CPU
 */
void sw_sirq_softirq_exit(struct sw_sirq *s, unsigned int cpu)
{
	struct sw_sirq_cpu *c = sw_sirq_cpu(s, cpu);

	s->cpu_events++;
	if (c)
		sw_sirq_diff_run_end(&c->diff);
}

/**
 * sw_sirq_read - what the model shows, summed over the CPUs
 * @s:		the model
 * @fig:	gets it
 */
void sw_sirq_read(const struct sw_sirq *s, struct sw_sirq_figures *fig)
{
	unsigned int cpu, w, v;

	memset(fig, 0, sizeof(*fig));
	fig->cpus_modelled = s->nr_cpus;
	fig->cpu_events = s->cpu_events;
	fig->idle_events = s->idle_events;
	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct sw_sirq_cpu *c = &s->cpus[cpu];
		struct sw_sirq_cpu_figures cf;

		sw_sirq_read_cpu(s, cpu, &cf);
		fig->recorded += cf.recorded;
		fig->recorded_spurious += cf.recorded_spurious;
		fig->spurious_paired += cf.spurious_paired;
		fig->predicted += cf.predicted;
		fig->resets += cf.resets;
		fig->ticks += cf.ticks;
		for (v = 0; v < SW_SIRQ_NR_VERDICTS; v++)
			fig->verdict[v] += cf.verdict[v];
		for (w = 0; w < s->nr_wheels; w++) {
			fig->softirqs[w] += c->wheel[w].softirqs;
			fig->spurious[w] += c->wheel[w].spurious;
			fig->wakeups[w] += c->wheel[w].wakeups;
		}
	}
}

/**
 * sw_sirq_read_cpu - one CPU's softirq differential, copied out
 * @s:		the model
 * @cpu:	the CPU
 * @fig:	gets it; all zero if the CPU is not modelled
 */
void sw_sirq_read_cpu(const struct sw_sirq *s, unsigned int cpu,
		      struct sw_sirq_cpu_figures *fig)
{
	const struct sw_sirq_cpu *c = sw_sirq_cpu(s, cpu);

	memset(fig, 0, sizeof(*fig));
	if (!c)
		return;
	sw_sirq_diff_read(&c->diff, fig);
	fig->modelled = true;
	fig->followed = c->followed;
	fig->idle = c->idle;
	fig->timers = c->nr_timers;
	fig->resets = c->resets;
	fig->ticks = c->ticks;
}

/* @c's trees in wheel @w hold its @pending timers, in order; false if not */
static bool sw_sirq_trees_hold(const struct sw_sirq_wheel *sw, unsigned long pending)
{
	unsigned long n;
	unsigned int b;

	for (b = 0; b < SW_SIRQ_NR_BASES; b++) {
		n = sw_tree_check(&sw->timers[b], NULL);
		if (n > pending)
			return false;
		pending -= n;
	}
	return !pending;
}

/**
 * sw_sirq_consistent - check the model's books
 * @s:		the model
 * @listed:	the timers the caller has in use that are on a CPU's list
 *		(sw_sirq_listed()): every timer listed must be one of them
 *
 * Each CPU counts the timers on its list, each of them is listed under
 * that CPU, and they are @listed in all; each wheel's trees of the CPU's
 * bases hold its pending ones, in order. Walks every timer listed: for a
 * read, not for every event.
 *
 * Return: true if they hold.
 */
bool sw_sirq_consistent(const struct sw_sirq *s, unsigned long listed)
{
	const struct sw_sirq_timer *tm;
	unsigned int i, w;

	for (i = 0; i < s->nr_cpus; i++) {
		unsigned long n = 0, pending = 0;

		list_for_each_entry(tm, &s->cpus[i].timers, on_cpu) {
			if (tm->listed_cpu != i)
				return false;
			for (w = 0; w < s->nr_wheels; w++) {
				if (sw_tree_linked(&tm->node[w]) != tm->pending)
					return false;
			}
			pending += tm->pending;
			n++;
		}
		if (n != s->cpus[i].nr_timers)
			return false;
		for (w = 0; w < s->nr_wheels; w++) {
			if (!sw_sirq_trees_hold(&s->cpus[i].wheel[w], pending))
				return false;
		}
		listed -= n;
	}
	return !listed;
}
