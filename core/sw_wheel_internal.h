/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: what the wheel core's files share and no one else sees.
 * sw_wheel.c holds the operations and the non-cascading wheels;
 * sw_classic.c the placement, tick and next expiry of the cascading one.
 */
#ifndef _SHADOW_WHEEL_SW_WHEEL_INTERNAL_H
#define _SHADOW_WHEEL_SW_WHEEL_INTERNAL_H

#include "sw_wheel.h"

/*
 * The one test on the kind of wheel: the operations that differ call the
 * classic wheel's own, directly (no table of operations: an indirect call
 * would cost the arm path more than it does).
 */
static inline bool sw_wheel_is_classic(const struct sw_geometry *geo)
{
	return geo->kind == SW_WHEEL_CLASSIC;
}

/*
 * sw_lvl_first_bucket() for the non-cascading wheels, whose root is as
 * wide as their other levels: one shift
 */
static inline unsigned int sw_lvl_offs(const struct sw_geometry *geo, unsigned int lvl)
{
	return lvl << geo->lvl_bits;
}

/* Record how the last placement went (the other flags are the caller's) */
static inline void sw_set_placement(struct sw_timer *timer, unsigned int how)
{
	timer->flags = (timer->flags & ~SW_TIMER_PLACEMENT) | how;
}

/* Link @timer into bucket @idx, to run at @bucket_expiry */
static inline void sw_bucket_add(struct sw_base *base, struct sw_timer *timer,
				 unsigned int idx, unsigned long bucket_expiry)
{
	hlist_add_head(&timer->entry, base->vectors + idx);
	timer->idx = idx;
	timer->bucket_expiry = bucket_expiry;
}

/*
 * Put @timer into bucket @idx of a non-cascading wheel, to run at
 * @bucket_expiry, and mark the bucket pending. The bucket comes due then,
 * or for a timer parked beyond the seed wheel's range, at the same point
 * of an earlier revolution of the last level: the first tick from the
 * clock on that is a whole number of revolutions before it.
 */
static inline void sw_enqueue(struct sw_base *base, struct sw_timer *timer, unsigned int idx,
			      unsigned long bucket_expiry)
{
	unsigned long due = (bucket_expiry - base->clk) & (base->geo.revolution - 1);

	sw_bucket_add(base, timer, idx, bucket_expiry);
	__set_bit(idx, base->pending_map);
	if (due < base->next_due - base->clk)
		base->next_due = base->clk + due;
}

/*
 * Unlink a timer that stays pending (it is about to be enqueued again).
 * It may sit in its bucket, or in a tick's expired list that
 * sw_collect_tick() handed out; only in the first case can its bucket
 * become empty.
 */
static inline void sw_unlink(struct sw_base *base, struct sw_timer *timer)
{
	struct hlist_head *head = base->vectors + timer->idx;

	if (!sw_wheel_is_classic(&base->geo) && hlist_is_singular_node(&timer->entry, head))
		__clear_bit(timer->idx, base->pending_map);
	hlist_del_init(&timer->entry);
}

/* Note that a tick emptied bucket @idx and placed @moved of its timers again */
static inline void sw_tick_add_cascade(struct sw_tick *tick, unsigned int idx,
				       unsigned int moved)
{
	if (!moved)
		return;
	tick->cascades[tick->nr_cascades].idx = idx;
	tick->cascades[tick->nr_cascades].moved = moved;
	tick->nr_cascades++;
	tick->cascaded += moved;
}

#endif
