/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the merge of per-CPU streams of timer events into one
 * order the kernel can have produced (sw_order.c). Pure logic: the caller
 * supplies the streams and a state per timer; nothing here allocates or
 * locks.
 */
#ifndef _SHADOW_WHEEL_SW_ORDER_H
#define _SHADOW_WHEEL_SW_ORDER_H

#include <linux/types.h>

#include "sw_event.h"

/* sw_order_timer::state */
enum sw_order_state {
	SW_OT_UNKNOWN,		/* no event of it merged yet: zero, as the caller sets it up */
	SW_OT_IDLE,		/* not pending */
	SW_OT_PENDING,		/* started, not cancelled since */
};

/**
 * struct sw_order_timer - what the merge knows of one timer; zeroed by the caller
 * @tick:	while pending: the earliest tick its bucket can run (its
 *		start's @tick)
 * @next_baseclk: sw_order_mark()'s: the @tick of its next event on the
 *		CPU marked
 * @state:	enum sw_order_state
 * @expiring:	detached for its expiry, its expire_entry not merged yet
 * @next_expire: sw_order_mark()'s: its next event on the CPU marked is
 *		its expire_entry
 */
struct sw_order_timer {
	unsigned long	tick;
	unsigned long	next_baseclk;
	u8		state;
	bool		expiring;
	bool		next_expire;
};

/**
 * struct sw_order_ev - one event of a CPU's stream, as the merge sees it
 * @ts:		its timestamp
 * @timer:	its timer's state, or NULL: an event of its CPU (sw_ev_of_cpu())
 * @now:	jiffies, if @has_now
 * @tick:	START: the earliest tick the kernel can run the timer at (its
 *		bucket's tick if known, else its expiry); EXPIRE: baseclk;
 *		a cancel that sw_order_mark() found to be an expiry's
 *		detach: that expiry's baseclk
 * @type:	enum sw_ev_type
 * @has_now:	@now is known
 * @detach:	set by sw_order_mark(): a cancel whose timer's next event on
 *		its CPU is its expire_entry
 */
struct sw_order_ev {
	u64			ts;
	struct sw_order_timer	*timer;
	unsigned long		now;
	unsigned long		tick;
	u8			type;
	bool			has_now;
	bool			detach;
};

/**
 * struct sw_order_cpu - one CPU's stream, in the order the CPU wrote it
 * @ev:		its events
 * @nr:		how many
 * @pos:	the next one to merge; sw_order_next() moves it
 */
struct sw_order_cpu {
	const struct sw_order_ev	*ev;
	size_t				nr;
	size_t				pos;
};

/**
 * struct sw_order - the merge
 * @cpu:	the streams
 * @nr_cpus:	how many
 * @window:	events of other CPUs this close in time (ns) may be out of
 *		order
 * @now:	the latest jiffies merged, if @has_now
 * @has_now:	an event with jiffies was merged
 * @left:	search steps left for the decision being made
 * @merged:	events merged
 * @ties:	decisions between events of several CPUs
 * @moved:	of those, decided against the timestamps (a rule of the
 *		kernel's said so)
 * @broken:	events merged that break a rule: no order within the window
 *		kept them all (lost events, or a clock skewed more than
 *		@window)
 */
struct sw_order {
	struct sw_order_cpu	*cpu;
	unsigned int		nr_cpus;
	u64			window;
	unsigned long		now;
	bool			has_now;
	unsigned int		left;
	unsigned long		merged;
	unsigned long		ties;
	unsigned long		moved;
	unsigned long		broken;
};

/* Events ahead a decision is tried over, and the search steps it may take */
#define SW_ORDER_DEPTH		32
#define SW_ORDER_STEPS		1024

/* The window when the caller has no better one: clocks a few us apart */
#define SW_ORDER_WINDOW_NS	10000

void sw_order_mark(struct sw_order_ev *ev, size_t nr);
void sw_order_init(struct sw_order *o, struct sw_order_cpu *cpu, unsigned int nr_cpus,
		   u64 window);
int sw_order_next(struct sw_order *o);

#endif /* _SHADOW_WHEEL_SW_ORDER_H */
