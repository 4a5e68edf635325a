// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the classic cascading wheel, as the kernel ran it before
 * the non-cascading wheel replaced it (v2.6 to v4.7), kept as a baseline.
 *
 * The root level has one bucket per tick for the next 256 ticks; each of
 * the four levels above has 64 buckets, each as wide as the whole level
 * below. A timer goes to the lowest level whose range covers its delta,
 * into the bucket its expiry tick falls in. Every 256 ticks the wheel
 * empties the level-1 bucket whose span begins and places its timers
 * again (cascades them), now into the root, each at its exact tick; when
 * that bucket was the level's first, level 2 cascades into level 1 the
 * same way, and so on up. So a timer expires exactly on its tick, never
 * late, but may be moved up to four times on the way, and the ticks that
 * cascade do work in proportion to the timers they move: the spikes the
 * non-cascading wheel removes.
 *
 * Lvl  Offs  Bucket width (ticks)  Range of deltas (ticks)
 *  0      0                     1          0 -       255
 *  1    256                   256        256 -     16383
 *  2    320                 16384      16384 -   1048575
 *  3    384               1048576    1048576 -  67108863
 *  4    448              67108864   67108864 - 4294967295
 *
 * Deltas beyond 2^32 - 1 ticks (64-bit only) are placed as if that far
 * and cascade back into the last level until they are within range: they
 * too run on time. A timer already due runs on the next tick processed
 * and is marked SW_TIMER_OVERDUE, as on the other wheels.
 *
 * What the classic wheel did not have, this one does not either: no
 * pending bitmap (the next expiry is found by scanning the buckets, and
 * walking the lists of the first occupied bucket of each level), no
 * separate deferrable buckets (the scan skips deferrable timers), no
 * skipping of empty ticks (a wheel that fell behind processes every tick
 * in between, as __run_timers() did; only an empty wheel catches up at
 * once). The kernel cached the scan's result, next_timer, lowered by an
 * arm that came earlier, or by any arm while it counted no timer (no value
 * of next_timer could say none: a timer may be due at any tick), and
 * found again by the scan once a cancel of the timer that made it, or the
 * clock passing it, left it stale; the base keeps it the same way
 * (sw_next_expiry(), with a flag for none), and a tick that expires
 * timers leaves it stale.
 */

#include <linux/build_bug.h>
#include <linux/limits.h>

#include "sw_classic.h"
#include "sw_wheel_internal.h"

/*
 * A root level of 256 buckets, one per tick, and four levels of 64 above
 * it, each bucket as wide as the whole level below. It fits in the first
 * half of the arrays and keeps its deferrable timers with the others, as
 * it always did.
 */
#define SW_CLASSIC_ROOT_BITS	8
#define SW_CLASSIC_ROOT_SIZE	BIT(SW_CLASSIC_ROOT_BITS)
#define SW_CLASSIC_LVL_BITS	6
#define SW_CLASSIC_DEPTH	5
#define SW_CLASSIC_ROOT_MASK	(SW_CLASSIC_ROOT_SIZE - 1)
#define SW_CLASSIC_LVL_SIZE	BIT(SW_CLASSIC_LVL_BITS)
#define SW_CLASSIC_LVL_MASK	(SW_CLASSIC_LVL_SIZE - 1)

/* log2 of the width of a bucket of level @lvl, in ticks */
static inline unsigned int sw_classic_shift(unsigned int lvl)
{
	return lvl ? SW_CLASSIC_ROOT_BITS + (lvl - 1) * SW_CLASSIC_LVL_BITS : 0;
}

static_assert(SW_CLASSIC_DEPTH <= SW_MAX_DEPTH);
static_assert(SW_CLASSIC_ROOT_SIZE + ((SW_CLASSIC_DEPTH - 1) << SW_CLASSIC_LVL_BITS) <=
	      SW_DEFERRABLE_OFFSET);
/* A tick cascades at most one bucket of each level above the root */
static_assert(SW_CLASSIC_DEPTH - 1 <= SW_TICK_CASCADES);

/**
 * sw_classic_geometry - the classic wheel's shape, for sw_geometry_init()
 * @geo:	zeroed, with its kind and tick rate set
 */
void sw_classic_geometry(struct sw_geometry *geo)
{
	unsigned int lvl;

	geo->root_bits = SW_CLASSIC_ROOT_BITS;
	geo->lvl_bits = SW_CLASSIC_LVL_BITS;
	geo->depth = SW_CLASSIC_DEPTH;
	geo->exact = true;
	geo->cascade = true;
	geo->lvl_start[0] = 0;
	for (lvl = 1; lvl < geo->depth; lvl++)
		geo->lvl_start[lvl] = BIT(sw_classic_shift(lvl));
	/* MAX_TVAL: 2^32 - 1, or all a long can tell apart on 32-bit */
	geo->timeout_max = sizeof(long) > 4 ? U32_MAX : LONG_MAX;
	geo->lvl_start[geo->depth] = geo->timeout_max + 1;
	geo->clamp_start = ULONG_MAX;
	/* The last level's 64 buckets of 2^26 ticks (2^32 wraps to 0 on 32-bit) */
	geo->revolution = (unsigned long)SW_CLASSIC_LVL_SIZE << sw_classic_shift(geo->depth - 1);
}

/* The bucket of level @lvl whose span holds tick @at */
static inline unsigned int sw_classic_bucket(unsigned int lvl, unsigned long at)
{
	if (!lvl)
		return at & SW_CLASSIC_ROOT_MASK;
	return SW_CLASSIC_ROOT_SIZE + ((lvl - 1) << SW_CLASSIC_LVL_BITS) +
	       ((at >> sw_classic_shift(lvl)) & SW_CLASSIC_LVL_MASK);
}

/**
 * sw_classic_index - where a timer due at @expires goes on a classic wheel
 * @geo:	the classic geometry
 * @clk:	the wheel's clock
 * @expires:	the expiry tick
 * @bucket_expiry: gets the tick it runs at
 * @how:	gets SW_TIMER_OVERDUE if that tick had passed, else 0
 *
 * Return: its bucket.
 */
unsigned int sw_classic_index(const struct sw_geometry *geo, unsigned long clk,
			      unsigned long expires, unsigned long *bucket_expiry,
			      unsigned int *how)
{
	unsigned long delta = expires - clk;

	*how = 0;
	if ((long)delta < 0) {
		*how = SW_TIMER_OVERDUE;
		*bucket_expiry = clk;
		return sw_classic_bucket(0, clk);
	}
	*bucket_expiry = expires;
	/* As internal_add_timer() chose: one comparison per level */
	if (delta < geo->lvl_start[1])
		return sw_classic_bucket(0, expires);
	if (delta < geo->lvl_start[2])
		return sw_classic_bucket(1, expires);
	if (delta < geo->lvl_start[3])
		return sw_classic_bucket(2, expires);
	if (delta < geo->lvl_start[4])
		return sw_classic_bucket(3, expires);
	if (delta > geo->timeout_max)
		expires = clk + geo->timeout_max;
	return sw_classic_bucket(4, expires);
}

/*
 * sw_classic_modify - sw_modify() on the classic wheel, for a timer not
 * already pending at @expires: placed at its exact tick, or moved there,
 * as mod_timer() always requeued on a change of expiry.
 */
enum sw_modify_result sw_classic_modify(struct sw_base *base, struct sw_timer *timer,
					unsigned long expires)
{
	bool pending = sw_timer_pending(timer);
	unsigned long bucket_expiry;
	unsigned int idx, how;

	idx = sw_classic_index(&base->geo, base->clk, expires, &bucket_expiry, &how);
	timer->expires = expires;
	sw_set_placement(timer, how);
	if (pending)
		sw_unlink(base, timer);
	else
		base->nr_pending++;
	sw_bucket_add(base, timer, idx, bucket_expiry);
	/*
	 * next_timer, as internal_add_timer() kept it, which took any timer
	 * while it counted none: here the flag is asked, as no hint is later
	 * than every timer (they may be due as far as clk + LONG_MAX)
	 */
	if (!(timer->flags & SW_TIMER_DEFERRABLE)) {
		if (sw_next_none(base, 0))
			sw_next_set(base, 0, bucket_expiry);
		else
			sw_next_lower(base, 0, bucket_expiry);
	}
	return pending ? SW_MOD_REQUEUED : SW_MOD_ARMED;
}

/* Empty bucket @idx and place its timers again: they now go lower */
static void sw_classic_cascade(struct sw_base *base, struct sw_tick *tick, unsigned int idx)
{
	unsigned int moved = 0;
	struct sw_timer *timer;
	HLIST_HEAD(moving);

	hlist_move_list(base->vectors + idx, &moving);
	while ((timer = sw_timer_pop(&moving))) {
		unsigned long bucket_expiry;
		unsigned int new_idx, how;

		new_idx = sw_classic_index(&base->geo, base->clk, timer->expires, &bucket_expiry,
					   &how);
		sw_bucket_add(base, timer, new_idx, bucket_expiry);
		moved++;
	}
	sw_tick_add_cascade(tick, idx, moved);
}

/*
 * sw_classic_collect - process tick base->clk: cascade when a root
 * revolution begins, then take the root bucket of the tick.
 */
void sw_classic_collect(struct sw_base *base, struct sw_tick *tick)
{
	unsigned long clk = base->clk;
	struct hlist_head *root = base->vectors + sw_classic_bucket(0, clk);
	unsigned int lvl;

	if (!(clk & SW_CLASSIC_ROOT_MASK)) {
		for (lvl = 1; lvl < base->geo.depth; lvl++) {
			unsigned int idx = sw_classic_bucket(lvl, clk);

			sw_classic_cascade(base, tick, idx);
			/* The level above cascades when this one starts over */
			if (idx != sw_lvl_first_bucket(&base->geo, lvl))
				break;
		}
	}
	if (!hlist_empty(root))
		hlist_move_list(root, &tick->lists[tick->nr_lists++]);
}

/*
 * The earliest run tick of a non-deferrable timer in bucket @head, as a
 * delta from @clk, when it is smaller than *@best (or *@found is false).
 */
static void sw_classic_walk_bucket(const struct hlist_head *head, unsigned long clk,
				   unsigned long *best, bool *found)
{
	struct sw_timer *timer;

	hlist_for_each_entry(timer, head, entry) {
		unsigned long delta = timer->bucket_expiry - clk;

		if (timer->flags & SW_TIMER_DEFERRABLE)
			continue;
		if (!*found || delta < *best)
			*best = delta;
		*found = true;
	}
}

/* Whether bucket @head holds a non-deferrable timer */
static bool sw_classic_bucket_wakes(const struct hlist_head *head)
{
	struct sw_timer *timer;

	hlist_for_each_entry(timer, head, entry) {
		if (!(timer->flags & SW_TIMER_DEFERRABLE))
			return true;
	}
	return false;
}

/*
 * sw_classic_next_expiry - the earliest tick a non-deferrable timer runs at,
 * by the scan: what the cached next expiry is found again with
 *
 * The root's bucket for tick clk + d holds exactly the timers due at that
 * tick, so the first one holding a non-deferrable timer answers for the
 * root. A bucket of a higher level holds timers due anywhere in its span:
 * the first occupied one, in the order the level cascades them, has to be
 * walked for its earliest. A level need not be looked at when its next
 * cascade comes after the earliest tick found so far.
 */
bool sw_classic_next_expiry(const struct sw_base *base, unsigned long *next)
{
	unsigned long clk = base->clk, lvl_clk = clk, best = 0;
	bool found = false;
	unsigned int lvl, d;

	for (d = 0; d < SW_CLASSIC_ROOT_SIZE; d++) {
		if (sw_classic_bucket_wakes(base->vectors + sw_classic_bucket(0, clk + d))) {
			best = d;
			found = true;
			break;
		}
	}

	for (lvl = 1; lvl < base->geo.depth; lvl++) {
		unsigned int bits = lvl == 1 ? SW_CLASSIC_ROOT_BITS : SW_CLASSIC_LVL_BITS;
		unsigned int shift = sw_classic_shift(lvl);

		/* The first tick the level cascades at, in its buckets' width: ceil() */
		lvl_clk = (lvl_clk >> bits) + !!(lvl_clk & (BIT(bits) - 1));
		if (found && best <= (lvl_clk << shift) - clk)
			break;

		for (d = 0; d < SW_CLASSIC_LVL_SIZE; d++) {
			unsigned long span_end = ((lvl_clk + d + 1) << shift) - clk;

			unsigned int idx = sw_classic_bucket(lvl, (lvl_clk + d) << shift);

			sw_classic_walk_bucket(base->vectors + idx, clk, &best, &found);
			/*
			 * Later buckets hold later timers, except the ones placed beyond
			 * the range, which may sit in any bucket of the last level.
			 */
			if (found && best < span_end)
				break;
		}
	}
	if (found)
		*next = clk + best;
	return found;
}

/* Some timer still in a bucket, or NULL */
struct sw_timer *sw_classic_first(const struct sw_base *base)
{
	unsigned int idx, end = sw_lvl_first_bucket(&base->geo, base->geo.depth);

	for (idx = 0; idx < end; idx++) {
		if (!hlist_empty(base->vectors + idx))
			return hlist_entry(base->vectors[idx].first, struct sw_timer, entry);
	}
	return NULL;
}
