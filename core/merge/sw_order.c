// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: one order for the timer events of all CPUs, from the
 * streams each CPU wrote in its own order, that the kernel can have
 * produced.
 *
 * Each CPU's stream is in the order the CPU wrote it, and that order is
 * kept. Across CPUs, timestamps give the order, but they tie, and clocks
 * of different CPUs may be a little apart: events of other CPUs within
 * @window of one another may have happened either way. Among those, the
 * merge keeps the timestamps' order (then the lower CPU first) unless it
 * breaks one of the kernel's rules (kernel/time/timer.c, 6.1 and 6.12):
 *
 *  alternation	timer_start fires in enqueue_timer(), for a timer not
 *		pending; timer_cancel in detach_timer(), for a timer
 *		pending; both under the lock of the timer's base, and
 *		lock_timer_base() waits out a timer moving between bases
 *		(TIMER_MIGRATING). So one timer's starts and cancels come
 *		one after the other, on whatever CPU: a start, a cancel, a
 *		start... A cancel from another CPU than the base's (a
 *		del_timer() where the caller runs), a start there
 *		(mod_timer()), a move to another base, are all in it.
 *  expiry	expire_timers() detaches a timer (timer_cancel), drops the
 *		lock and calls it (timer_expire_entry), on the same CPU,
 *		the one running the base: its own, or on 6.12 a CPU of the
 *		timer migration hierarchy running another's global base
 *		(timer_expire_remote()). The base runs a bucket at its tick
 *		(baseclk), never before: so the start in force at that
 *		detach is one whose bucket's tick is no later than baseclk.
 *		A cancel whose timer's next event on its CPU is its
 *		expire_entry is such a detach (sw_order_mark()).
 *  jiffies	jiffies never go back: an event that read jiffies j comes
 *		before one that read j + 1, on any CPU.
 *
 * The expire_entry itself is not ordered against the timer's other
 * events: another CPU may start the timer between its detach and its
 * callback (the mirror's SW_MC_EXPIRE_REARMED), and nothing tells how
 * long the callback waited.
 *
 * Each decision between heads of several CPUs within the window looks
 * ahead: the candidates are tried in the timestamps' order (a start of a
 * timer awaiting its callback last), and the first from which the merge
 * can go on for SW_ORDER_DEPTH events (a search, depth first, of at most
 * SW_ORDER_STEPS steps; running out of steps counts as going on) without
 * a dead end (no candidate allowed, or a candidate's jiffies already
 * past) is taken. A rule may need the events
 * a little ahead: in the tie of a timer started on CPU 0 for E, twice,
 * on CPU 1 for E + 50, then detached on CPU 0 for its expiry at E + 1,
 * CPU 1's start must come before CPU 0's second one, or nothing can
 * explain the expiry. If no order keeps the rules (an event lost, a clock
 * further off than the window) the merge takes the earliest event that
 * keeps them, else the earliest, and counts it broken: it never stops,
 * and never drops or reorders a CPU's own events.
 */

#include <linux/kernel.h>
#include <linux/string.h>

#include "sw_order.h"
#include "sw_wheel.h"

/* What taking an event changed, to put it back */
struct sw_order_undo {
	struct sw_order_timer	timer;
	unsigned long		now;
	bool			has_now;
};

/**
 * sw_order_mark - find the cancels of one CPU's stream that detach an expiry
 * @ev:		the CPU's events, in its order
 * @nr:		how many
 *
 * Sets @detach, and @tick to the expiry's baseclk, of each cancel whose
 * timer's next event on the CPU is its expire_entry. Uses the timers'
 * @next_expire and @next_baseclk; call it once per CPU, before the merge.
 */
void sw_order_mark(struct sw_order_ev *ev, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (ev[i].timer)
			ev[i].timer->next_expire = false;
	}
	for (i = nr; i-- > 0;) {
		struct sw_order_ev *e = &ev[i];
		struct sw_order_timer *t = e->timer;

		if (!t)
			continue;
		e->detach = e->type == SW_EV_CANCEL && t->next_expire;
		if (e->detach)
			e->tick = t->next_baseclk;
		t->next_expire = e->type == SW_EV_EXPIRE;
		t->next_baseclk = e->tick;
	}
}

/**
 * sw_order_init - a merge of streams
 * @o:		the merge
 * @cpu:	the streams, each at its first event to merge (@pos)
 * @nr_cpus:	how many
 * @window:	ns: events of other CPUs this close may be out of order
 *		(%SW_ORDER_WINDOW_NS)
 *
 * The timers' states start as the caller zeroed them: unknown.
 */
void sw_order_init(struct sw_order *o, struct sw_order_cpu *cpu, unsigned int nr_cpus,
		   u64 window)
{
	memset(o, 0, sizeof(*o));
	o->cpu = cpu;
	o->nr_cpus = nr_cpus;
	o->window = window;
}

static const struct sw_order_ev *sw_order_head(const struct sw_order *o, unsigned int c)
{
	const struct sw_order_cpu *s = &o->cpu[c];

	return s->pos < s->nr ? &s->ev[s->pos] : NULL;
}

/* The window opens at the earliest head's timestamp, @first; false if no head is left */
static bool sw_order_first(const struct sw_order *o, u64 *first)
{
	const struct sw_order_ev *e;
	bool any = false;
	unsigned int c;

	*first = 0;
	for (c = 0; c < o->nr_cpus; c++) {
		e = sw_order_head(o, c);
		if (e && (!any || e->ts < *first)) {
			*first = e->ts;
			any = true;
		}
	}
	return any;
}

/* Whether a CPU below @c has a head with the same timestamp as @c's */
static bool sw_order_earlier_cpu(const struct sw_order *o, int c)
{
	const struct sw_order_ev *e;
	int b;

	for (b = 0; b < c; b++) {
		e = sw_order_head(o, b);
		if (e && e->ts == sw_order_head(o, c)->ts)
			return true;
	}
	return false;
}

/* CPU @c's head, if it is in the window that opens at @first */
static const struct sw_order_ev *sw_order_in_window(const struct sw_order *o, unsigned int c,
						    u64 first)
{
	const struct sw_order_ev *e = sw_order_head(o, c);

	return e && e->ts - first <= o->window ? e : NULL;
}

/*
 * A start of a timer detached for its expiry, whose expire_entry has not
 * come: the kernel allows it (another CPU may re-arm a timer before its
 * callback runs), but the detach and the callback are moments apart on
 * one CPU, so within the window it is tried after the rest
 */
static bool sw_order_late(const struct sw_order_ev *e)
{
	return e->type == SW_EV_START && e->timer->expiring;
}

/* Whether CPU @a's head @x is tried before CPU @b's head @y */
static bool sw_order_before(const struct sw_order_ev *x, int a, const struct sw_order_ev *y,
			    int b)
{
	if (sw_order_late(x) != sw_order_late(y))
		return sw_order_late(y);
	if (x->ts != y->ts)
		return x->ts < y->ts;
	return a < b;
}

/*
 * Among the heads in the window that opens at @first, the CPU whose head
 * is tried after CPU @prev's (-1: the first); -1 if none
 */
static int sw_order_candidate(const struct sw_order *o, u64 first, int prev)
{
	const struct sw_order_ev *p = prev >= 0 ? sw_order_head(o, prev) : NULL;
	const struct sw_order_ev *e, *best = NULL;
	int c, found = -1;

	for (c = 0; c < (int)o->nr_cpus; c++) {
		e = sw_order_in_window(o, c, first);
		if (!e || (p && !sw_order_before(p, prev, e, c)))
			continue;
		if (!best || sw_order_before(e, c, best, found)) {
			best = e;
			found = c;
		}
	}
	return found;
}

/* Whether @e may come next: the rules at the top of this file */
static bool sw_order_allowed(const struct sw_order *o, const struct sw_order_ev *e)
{
	const struct sw_order_timer *t = e->timer;

	if (e->has_now && o->has_now && sw_time_before(e->now, o->now))
		return false;
	if (!t)
		return true;
	switch (e->type) {
	case SW_EV_START:
		return t->state != SW_OT_PENDING;
	case SW_EV_CANCEL:
		if (t->state == SW_OT_IDLE)
			return false;
		/* A detach for an expiry at baseclk: the timer's bucket was due */
		return !e->detach || t->state != SW_OT_PENDING || !sw_time_after(t->tick, e->tick);
	default:
		return true;
	}
}

/* Merge CPU @c's head: the timer's state and jiffies move on */
static void sw_order_take(struct sw_order *o, unsigned int c, struct sw_order_undo *u)
{
	const struct sw_order_ev *e = &o->cpu[c].ev[o->cpu[c].pos++];
	struct sw_order_timer *t = e->timer;

	u->now = o->now;
	u->has_now = o->has_now;
	if (e->has_now && (!o->has_now || sw_time_after(e->now, o->now))) {
		o->now = e->now;
		o->has_now = true;
	}
	if (!t)
		return;
	u->timer = *t;
	if (e->type == SW_EV_START) {
		t->state = SW_OT_PENDING;
		t->tick = e->tick;
	} else if (e->type == SW_EV_CANCEL) {
		t->state = SW_OT_IDLE;
		t->expiring = e->detach;
	} else if (e->type == SW_EV_EXPIRE) {
		t->expiring = false;
	}
}

/* Undo sw_order_take() of CPU @c's last merged event */
static void sw_order_untake(struct sw_order *o, unsigned int c, const struct sw_order_undo *u)
{
	const struct sw_order_ev *e = &o->cpu[c].ev[--o->cpu[c].pos];

	o->now = u->now;
	o->has_now = u->has_now;
	if (e->timer)
		*e->timer = u->timer;
}

/*
 * Whether the merge can go on from here, @depth events ahead at most,
 * without a dead end; true also when the search runs out of steps
 */
static bool sw_order_search(struct sw_order *o, unsigned int depth)
{
	const struct sw_order_ev *e;
	struct sw_order_undo u;
	u64 first;
	bool ok;
	int c;

	if (!depth || !o->left || !sw_order_first(o, &first))
		return true;
	o->left--;
	for (c = 0; c < (int)o->nr_cpus; c++) {
		e = sw_order_in_window(o, c, first);
		if (!e)
			continue;
		/* Its jiffies are past: it can never come */
		if (e->has_now && o->has_now && sw_time_before(e->now, o->now))
			return false;
	}
	for (c = sw_order_candidate(o, first, -1); c >= 0; c = sw_order_candidate(o, first, c)) {
		if (!sw_order_allowed(o, sw_order_head(o, c)))
			continue;
		sw_order_take(o, c, &u);
		ok = sw_order_search(o, depth - 1);
		sw_order_untake(o, c, &u);
		if (ok)
			return true;
	}
	return false;
}

/*
 * Among the heads in the window that opens at @first, CPU @best's the
 * earliest, the one to merge next
 */
static int sw_order_decide(struct sw_order *o, u64 first, int best)
{
	struct sw_order_undo u;
	int c, fallback = best;
	bool ok;

	for (c = best; c >= 0; c = sw_order_candidate(o, first, c)) {
		if (!sw_order_allowed(o, sw_order_head(o, c)))
			continue;
		if (fallback == best && !sw_order_allowed(o, sw_order_head(o, best)))
			fallback = c;
		o->left = SW_ORDER_STEPS;
		sw_order_take(o, c, &u);
		ok = sw_order_search(o, SW_ORDER_DEPTH);
		sw_order_untake(o, c, &u);
		if (ok)
			return c;
	}
	return fallback;
}

/**
 * sw_order_next - merge the next event
 * @o:		the merge
 *
 * Return: the CPU whose event (at its @pos before the call) comes next,
 * its @pos moved past it; -1 when every stream is merged.
 */
int sw_order_next(struct sw_order *o)
{
	struct sw_order_undo u;
	int best, c;
	u64 first;

	if (!sw_order_first(o, &first))
		return -1;
	best = sw_order_candidate(o, first, -1);
	c = best;
	if (sw_order_candidate(o, first, best) >= 0) {
		o->ties++;
		c = sw_order_decide(o, first, best);
		/* Not the earliest head, the lowest CPU's of those */
		if (sw_order_head(o, c)->ts != first || sw_order_earlier_cpu(o, c))
			o->moved++;
	}
	if (!sw_order_allowed(o, sw_order_head(o, c)))
		o->broken++;
	sw_order_take(o, c, &u);
	o->merged++;
	return c;
}
