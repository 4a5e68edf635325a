/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: what the wheel core's files share and no one else sees.
 * sw_wheel.c holds the operations and the non-cascading wheels;
 * sw_classic.c the placement, tick and next expiry of the cascading one;
 * sw_geometry.c the shapes, named and from specs.
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
 * The shapes of the named non-cascading wheels, constants for their arm
 * paths (sw_wheel.c) and their geometries (sw_geometry.c): the level
 * clock shift, buckets per level (log2), and the seed wheel's depth and
 * range, the first delta beyond its last level (mainline's depth, and so
 * its range, depend on HZ)
 */
#define SW_NAMED_CLK_SHIFT	3
#define SW_SEED_LVL_BITS	5
#define SW_SEED_DEPTH		8
#define SW_SEED_RANGE		((BIT(SW_SEED_LVL_BITS) - 1) <<			\
				 (SW_NAMED_CLK_SHIFT * (SW_SEED_DEPTH - 1)))
#define SW_MAINLINE_LVL_BITS	6

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

/*
 * Link @timer into bucket @idx, to run at @bucket_expiry; @idx as wide as
 * the arm path computes it, which then needs no widening for the address
 */
static inline void sw_bucket_add(struct sw_base *base, struct sw_timer *timer,
				 unsigned long idx, unsigned long bucket_expiry)
{
	hlist_add_head(&timer->entry, base->vectors + idx);
	timer->idx = idx;
	timer->bucket_expiry = bucket_expiry;
}

/* sw_base::next_stale, per half of the arrays (0: normal, 1: deferrable) */
#define SW_NEXT_STALE(half)	(1U << (2 * (half)))	/* next_expiry only a bound below */
#define SW_NEXT_NONE(half)	(2U << (2 * (half)))	/* no bucket of the half pending */
#define SW_NEXT_STALE_ANY	(SW_NEXT_STALE(0) | SW_NEXT_STALE(1))

/*
 * Whether half @half has no bucket pending; its next_expiry and next_look
 * are then only hints. None is this flag and never a tick: a timer may be
 * due at any tick a delta reaches (the classic wheel's up to clk +
 * LONG_MAX), and a tick set aside from the clock of the moment is
 * overtaken as the clock of an idle wheel moves on.
 */
static inline bool sw_next_none(const struct sw_base *base, unsigned int half)
{
	return base->next_stale & SW_NEXT_NONE(half);
}

/*
 * How far ahead of the clock of the moment a half with none pending puts
 * its next_expiry (as far as a tick still compares after the clock) and
 * its next_look (half as far). Not a meaning (the flag is that), hints:
 * sw_nothing_due() finds such a half idle until the clock comes as far as
 * next_look; only that step moves the clock without putting both hints
 * ahead of it again (sw_next_ahead()), so next_expiry stays at least
 * SW_NONE_AHEAD - SW_NONE_LOOK_AHEAD, 2^(BITS_PER_LONG - 2) ticks, ahead
 * of the clock: no bucket of a non-cascading wheel comes due that far
 * (its revolution is at most that, sw_geometry.c), and sw_next_lower()
 * needs no flag.
 */
#define SW_NONE_AHEAD		(ULONG_MAX >> 1)
#define SW_NONE_LOOK_AHEAD	(ULONG_MAX >> 2)

/* Half @half's next expiry is @tick, exact or a bound below as its flags say */
static inline void sw_next_at(struct sw_base *base, unsigned int half, unsigned long tick)
{
	base->next_expiry[half] = tick;
	base->next_look[half] = tick;
}

/* Half @half's first bucket comes due at @due: its next expiry, exact */
static inline void sw_next_set(struct sw_base *base, unsigned int half, unsigned long due)
{
	sw_next_at(base, half, due);
	base->next_stale &= ~(SW_NEXT_STALE(half) | SW_NEXT_NONE(half));
}

/* Half @half has none pending: its hints, ahead of the clock of the moment */
static inline void sw_next_hint(struct sw_base *base, unsigned int half)
{
	base->next_expiry[half] = base->clk + SW_NONE_AHEAD;
	base->next_look[half] = base->clk + SW_NONE_LOOK_AHEAD;
}

/* The first timer of @list, taken off it (as a cascade takes them); NULL when empty */
static inline struct sw_timer *sw_timer_pop(struct hlist_head *list)
{
	struct sw_timer *timer;

	if (hlist_empty(list))
		return NULL;
	timer = hlist_entry(list->first, struct sw_timer, entry);
	__hlist_del(&timer->entry);
	return timer;
}

/* The half of the arrays bucket @idx is in: 1 for the deferrable one */
static inline unsigned int sw_idx_half(unsigned int idx)
{
	return idx >= SW_DEFERRABLE_OFFSET;
}

/*
 * A bucket of half @half comes due at @due (not before the clock): if it
 * is earlier than the half's next expiry, it is the new one, and exact
 * (whatever the old one was, nothing pending comes due before it). On a
 * non-cascading wheel a half with none pending is no exception: @due is
 * less than a revolution after the clock, its next_expiry (the hint)
 * farther, and the flag is not asked. Unlikely: with timers pending, a
 * new one seldom comes first, and the arm path is laid out straight
 * through.
 */
static inline void sw_next_lower(struct sw_base *base, unsigned int half, unsigned long due)
{
	if (unlikely(sw_time_before(due, base->next_expiry[half])))
		sw_next_set(base, half, due);
}

/*
 * The tick a bucket holding a timer that runs at @bucket_expiry comes due:
 * that tick, or for a timer parked beyond the seed wheel's range, the same
 * point of an earlier revolution of the last level, the first from the
 * clock on that is a whole number of revolutions before it. @rev_mask is
 * the revolution minus one.
 */
static inline unsigned long sw_bucket_due(const struct sw_base *base,
					  unsigned long bucket_expiry, unsigned long rev_mask)
{
	return base->clk + ((bucket_expiry - base->clk) & rev_mask);
}

/* Put @timer into bucket @idx of a non-cascading wheel, to run at @bucket_expiry */
static inline void sw_enqueue(struct sw_base *base, struct sw_timer *timer, unsigned int idx,
			      unsigned long bucket_expiry)
{
	sw_bucket_add(base, timer, idx, bucket_expiry);
	__set_bit(idx, base->pending_map);
	sw_next_lower(base, sw_idx_half(idx),
		      sw_bucket_due(base, bucket_expiry, base->geo.revolution - 1));
}

/*
 * Unlink a timer that stays pending (it is about to be enqueued again).
 * It may sit in its bucket, or in a tick's expired list that
 * sw_collect_tick() handed out; only in the first case can its bucket
 * become empty. When the bucket that empties is the one that made its
 * half's next expiry, or on the classic wheel the timer that did, that
 * next expiry is stale: found again when it is needed, as mainline marks
 * next_expiry_recalc.
 */
static inline void sw_unlink(struct sw_base *base, struct sw_timer *timer)
{
	struct hlist_head *head = base->vectors + timer->idx;

	if (sw_wheel_is_classic(&base->geo)) {
		if (!(timer->flags & SW_TIMER_DEFERRABLE) &&
		    timer->bucket_expiry == base->next_expiry[0])
			base->next_stale |= SW_NEXT_STALE(0);
	} else if (hlist_is_singular_node(&timer->entry, head)) {
		unsigned int half = sw_idx_half(timer->idx);

		__clear_bit(timer->idx, base->pending_map);
		if (sw_bucket_due(base, timer->bucket_expiry, base->geo.revolution - 1) ==
		    base->next_expiry[half])
			base->next_stale |= SW_NEXT_STALE(half);
	}
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
