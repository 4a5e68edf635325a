// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the timer wheel core.
 *
 * The wheel has a number of levels, each an array of buckets (hlists).
 * Each level is driven by its own clock: level n looks at one bucket
 * every 2^(s n) ticks, s the level clock shift (the kernel's
 * LVL_CLK_SHIFT, 3), so that is the granularity of its timers.
 * A timer goes to the lowest level whose range covers its delta (expiry
 * minus the wheel's clock) when it is armed and stays there: timers are
 * not cascaded down, they expire in place, with the granularity of their
 * level. That is the trade of the non-cascading wheel: timeouts are
 * nearly always cancelled before they expire, and one that does expire
 * signals a problem that a little lateness does not make worse.
 *
 * A bitmap has one bit per bucket, set while the bucket holds a timer.
 * The next expiry is found from the bitmap alone, a find-next-bit per
 * level, without looking at a single timer. Deferrable timers live in a
 * second set of buckets at SW_DEFERRABLE_OFFSET, so that search skips
 * them: they expire when the wheel runs anyway, but never make it run.
 *
 * Two geometries are named, both with s = 3 (a third wheel, the classic
 * cascading one, is described in sw_classic.c):
 *
 *  seed:     8 levels of 32 buckets. Timers beyond the last level's range
 *            wait in the last level, marked SW_TIMER_PARKED: when their
 *            bucket comes due they are placed again (cascaded) until their
 *            own revolution arrives.
 *  mainline: 64 buckets, 8 levels for HZ <= 100, 9 above. Timers beyond
 *            the range are clamped to the largest timeout the wheel holds
 *            and marked SW_TIMER_CLAMPED: they expire early, by design.
 *
 * Any other shape is a spec (sw_geometry_parse()): buckets per level
 * (2^bits), the level clock shift s, the number of levels, the tick rate,
 * and the rule beyond the last level, seed's (cascade) or mainline's
 * (clamp). The named wheels are specs too, and keep arm paths with their
 * shapes in constants; any other shape takes a path that reads it from
 * the geometry.
 *
 * Level n takes deltas from LVL_START(n) = (LVL_SIZE - 1) << s(n - 1) up
 * to LVL_START(n + 1) - 1; level 0 starts at 0.
 *
 * The contract, for a timer armed with expiry E when the clock is C (the
 * next tick to be processed) and put at level n:
 *
 *  - E >= C: it runs when the wheel processes tick
 *	bucket_expiry = ((E >> sn) + 1) << sn
 *    the first multiple of the level's granularity strictly after E.
 *    It never runs before E + 1 and never after E + granularity: lateness
 *    is 1 .. gran ticks. Level 0 included: a timer armed for E is rounded
 *    to the edge of tick E + 1, so that a timeout of D ticks lasts at least
 *    D whole ticks even when it is armed just before a tick ends (mainline
 *    rounds the same way; the old wheel ran such a timer at E).
 *  - E < C (already in the past): it runs at tick C, the next one processed,
 *    and is marked SW_TIMER_OVERDUE.
 *  - Beyond the last level's range: seed cascades, and the timer still
 *    runs at bucket_expiry computed at the last level; mainline clamps E
 *    to C + timeout_max first.
 *
 * Clocks are unsigned long and wrap: only differences are compared.
 *
 * The levels of each named geometry, with the tick converted to milliseconds
 * (the ranges are deltas, in ticks, as the level selection sees them):
 *
 * seed, HZ 1000
 * Lvl Offs  Gran (ticks)    Gran     Range (ticks)                 Range
 *  0     0            1      1 ms            0 -         30      0 ms - 30 ms
 *  1    32            8      8 ms           31 -        247     31 ms - 247 ms
 *  2    64           64     64 ms          248 -       1983    248 ms - ~2 s
 *  3    96          512    512 ms         1984 -      15871     ~2 s - ~16 s
 *  4   128         4096    ~4.1 s        15872 -     126975    ~16 s - ~2.1 m
 *  5   160        32768     ~33 s       126976 -    1015807   ~2.1 m - ~17 m
 *  6   192       262144    ~4.4 m      1015808 -    8126463    ~17 m - ~2.3 h
 *  7   224      2097152     ~35 m      8126464 -   65011711   ~2.3 h - ~18 h
 *  beyond 65011711 ticks (~18 h): last level, cascaded
 *
 * seed, HZ 250
 * Lvl Offs  Gran (ticks)    Gran     Range (ticks)                 Range
 *  0     0            1      4 ms            0 -         30      0 ms - 120 ms
 *  1    32            8     32 ms           31 -        247    124 ms - 988 ms
 *  2    64           64    256 ms          248 -       1983    992 ms - ~7.9 s
 *  3    96          512     ~2 s          1984 -      15871   ~7.9 s - ~1.1 m
 *  4   128         4096    ~16 s         15872 -     126975   ~1.1 m - ~8.5 m
 *  5   160        32768    ~2.2 m       126976 -    1015807   ~8.5 m - ~1.1 h
 *  6   192       262144     ~17 m      1015808 -    8126463   ~1.1 h - ~9 h
 *  7   224      2097152    ~2.3 h      8126464 -   65011711     ~9 h - ~3 d
 *  beyond 65011711 ticks (~3 d): last level, cascaded
 *
 * seed, HZ 100
 * Lvl Offs  Gran (ticks)    Gran     Range (ticks)                 Range
 *  0     0            1     10 ms            0 -         30      0 ms - 300 ms
 *  1    32            8     80 ms           31 -        247    310 ms - ~2.5 s
 *  2    64           64    640 ms          248 -       1983   ~2.5 s - ~20 s
 *  3    96          512    ~5.1 s         1984 -      15871    ~20 s - ~2.6 m
 *  4   128         4096    ~41 s         15872 -     126975   ~2.6 m - ~21 m
 *  5   160        32768    ~5.5 m       126976 -    1015807    ~21 m - ~2.8 h
 *  6   192       262144    ~44 m       1015808 -    8126463   ~2.8 h - ~23 h
 *  7   224      2097152    ~5.8 h      8126464 -   65011711    ~23 h - ~7.5 d
 *  beyond 65011711 ticks (~7.5 d): last level, cascaded
 *
 * mainline, HZ 1000
 * Lvl Offs  Gran (ticks)    Gran     Range (ticks)                 Range
 *  0     0            1      1 ms            0 -         62      0 ms - 62 ms
 *  1    64            8      8 ms           63 -        503     63 ms - 503 ms
 *  2   128           64     64 ms          504 -       4031    504 ms - ~4 s
 *  3   192          512    512 ms         4032 -      32255     ~4 s - ~32 s
 *  4   256         4096    ~4.1 s        32256 -     258047    ~32 s - ~4.3 m
 *  5   320        32768     ~33 s       258048 -    2064383   ~4.3 m - ~34 m
 *  6   384       262144    ~4.4 m      2064384 -   16515071    ~34 m - ~4.6 h
 *  7   448      2097152     ~35 m     16515072 -  132120575   ~4.6 h - ~1.5 d
 *  8   512     16777216    ~4.7 h    132120576 - 1056964607   ~1.5 d - ~12 d
 *  1056964608 ticks (~12 d) and beyond: clamped to 1040187392
 *
 * mainline, HZ 250
 * Lvl Offs  Gran (ticks)    Gran     Range (ticks)                 Range
 *  0     0            1      4 ms            0 -         62      0 ms - 248 ms
 *  1    64            8     32 ms           63 -        503    252 ms - ~2 s
 *  2   128           64    256 ms          504 -       4031     ~2 s - ~16 s
 *  3   192          512     ~2 s          4032 -      32255    ~16 s - ~2.2 m
 *  4   256         4096    ~16 s         32256 -     258047   ~2.2 m - ~17 m
 *  5   320        32768    ~2.2 m       258048 -    2064383    ~17 m - ~2.3 h
 *  6   384       262144     ~17 m      2064384 -   16515071   ~2.3 h - ~18 h
 *  7   448      2097152    ~2.3 h     16515072 -  132120575    ~18 h - ~6.1 d
 *  8   512     16777216     ~19 h    132120576 - 1056964607   ~6.1 d - ~49 d
 *  1056964608 ticks (~49 d) and beyond: clamped to 1040187392
 *
 * mainline, HZ 100
 * Lvl Offs  Gran (ticks)    Gran     Range (ticks)                 Range
 *  0     0            1     10 ms            0 -         62      0 ms - 620 ms
 *  1    64            8     80 ms           63 -        503    630 ms - ~5 s
 *  2   128           64    640 ms          504 -       4031     ~5 s - ~40 s
 *  3   192          512    ~5.1 s         4032 -      32255    ~40 s - ~5.4 m
 *  4   256         4096    ~41 s         32256 -     258047   ~5.4 m - ~43 m
 *  5   320        32768    ~5.5 m       258048 -    2064383    ~43 m - ~5.7 h
 *  6   384       262144    ~44 m       2064384 -   16515071   ~5.7 h - ~1.9 d
 *  7   448      2097152    ~5.8 h     16515072 -  132120575   ~1.9 d - ~15 d
 *  132120576 ticks (~15 d) and beyond: clamped to 130023424
 */

#include <linux/bitmap.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/prefetch.h>

#include "sw_classic.h"
#include "sw_wheel_internal.h"

/* The arm path takes a timer's half of the arrays from its flags as they are */
static_assert(SW_TIMER_DEFERRABLE == 1);

/*
 * The level for @delta, as sw_delta_level() documents; inline for
 * sw_modify(). The bit length of @delta gives the level, or the one below
 * it when @delta is short of that level's start.
 */
static inline unsigned int sw_level_of(const struct sw_geometry *geo, unsigned long delta)
{
	unsigned int lvl = geo->lvl_of_bits[fls_long(delta)];

	return delta < geo->lvl_start[lvl] ? lvl - 1 : lvl;
}

/**
 * sw_delta_level - the level a timer @delta ticks away is placed at
 * @geo:	the geometry
 * @delta:	expiry minus clock, not negative
 *
 * Deltas beyond the last level's range report the last level: the level
 * the seed wheel parks them in, and the one mainline clamps them to.
 *
 * Return: the level, 0 .. @geo->depth - 1.
 */
unsigned int sw_delta_level(const struct sw_geometry *geo, unsigned long delta)
{
	return sw_level_of(geo, delta);
}

/*
 * Bucket index within one half of the arrays for @expires at @lvl, and
 * the tick that bucket comes due: the next multiple of the level's
 * granularity strictly after @expires.
 */
static inline unsigned int sw_calc_index(const struct sw_geometry *geo, unsigned long expires,
					 unsigned int lvl, unsigned long *bucket_expiry)
{
	unsigned long lvl_clk = (expires >> sw_lvl_shift(geo, lvl)) + 1;

	*bucket_expiry = lvl_clk << sw_lvl_shift(geo, lvl);
	return sw_lvl_offs(geo, lvl) + (lvl_clk & (sw_lvl_size(geo) - 1));
}

/*
 * Where a timer with SW_TIMER_* @flags goes on a non-cascading wheel for
 * @expires when the wheel's clock is @clk; @how gets SW_TIMER_OVERDUE,
 * SW_TIMER_CLAMPED or SW_TIMER_PARKED when the placement was one of those
 * exceptions to the rule. Depends on nothing but its arguments: sw_wheel_place() asks the
 * same question for any clock.
 */
static inline unsigned int sw_wheel_index_at(const struct sw_geometry *geo, unsigned long clk,
					     unsigned int flags, unsigned long expires,
					     unsigned long *bucket_expiry, unsigned int *how)
{
	unsigned long delta = expires - clk;
	unsigned int half = flags & SW_TIMER_DEFERRABLE ? SW_DEFERRABLE_OFFSET : 0;
	unsigned int lvl;

	*how = 0;
	if ((long)delta < 0) {
		/* Already due: the next tick processed runs it */
		*how = SW_TIMER_OVERDUE;
		*bucket_expiry = clk;
		return half + (clk & (sw_lvl_size(geo) - 1));
	}

	lvl = sw_level_of(geo, delta);
	if (unlikely(delta >= geo->lvl_start[geo->depth])) {
		if (geo->cascade) {
			/* Seed: it waits in the last level for its revolution */
			*how = SW_TIMER_PARKED;
		} else {
			expires = clk + geo->timeout_max;
			*how = SW_TIMER_CLAMPED;
		}
	}
	return half + sw_calc_index(geo, expires, lvl, bucket_expiry);
}

/* Where @timer goes for @expires, given the base's clock right now */
static inline unsigned int sw_wheel_index(const struct sw_base *base,
					  const struct sw_timer *timer, unsigned long expires,
					  unsigned long *bucket_expiry, unsigned int *how)
{
	return sw_wheel_index_at(&base->geo, base->clk, timer->flags, expires, bucket_expiry,
				 how);
}

/**
 * sw_wheel_place - where a wheel would put a timer, without putting it there
 * @geo:	the wheel's geometry
 * @clk:	the wheel's clock (the next tick it processes)
 * @expires:	the timer's expiry tick
 * @flags:	SW_TIMER_DEFERRABLE or 0
 * @place:	filled in: bucket, level, the tick it runs at, and how
 *
 * The placement sw_modify() makes on a base of @geo whose clock is @clk,
 * for any wheel; for the classic one the bucket a timer starts in. For
 * comparing a wheel with another one's placements (the mirror's
 * differential) at clocks other than the wheel's own.
 */
void sw_wheel_place(const struct sw_geometry *geo, unsigned long clk, unsigned long expires,
		    unsigned int flags, struct sw_place *place)
{
	if (sw_wheel_is_classic(geo))
		place->idx = sw_classic_index(geo, clk, expires, &place->bucket_expiry,
					      &place->how);
	else
		place->idx = sw_wheel_index_at(geo, clk, flags, expires, &place->bucket_expiry,
					       &place->how);
	place->level = sw_idx_level(geo, place->idx);
}

/* Take a pending timer out of the wheel: it is no longer pending */
static void sw_detach(struct sw_base *base, struct sw_timer *timer)
{
	sw_unlink(base, timer);
	base->nr_pending--;
}

/*
 * sw_modify() on a non-cascading wheel, any timer, any expiry: what the
 * fast paths below hand on when they see an exception to the rule (a
 * timer already due, or beyond mainline's range).
 */
static noinline enum sw_modify_result sw_modify_any(struct sw_base *base,
						    struct sw_timer *timer,
						    unsigned long expires)
{
	unsigned long bucket_expiry;
	unsigned int idx, how;

	idx = sw_wheel_index(base, timer, expires, &bucket_expiry, &how);
	timer->expires = expires;
	sw_set_placement(timer, how);

	if (!sw_timer_pending(timer)) {
		sw_enqueue(base, timer, idx, bucket_expiry);
		base->nr_pending++;
		return SW_MOD_ARMED;
	}
	if (idx == timer->idx && bucket_expiry == timer->bucket_expiry)
		return SW_MOD_SAME_BUCKET;

	sw_unlink(base, timer);
	sw_enqueue(base, timer, idx, bucket_expiry);
	return SW_MOD_REQUEUED;
}

/*
 * The placement of sw_wheel_index() on a wheel whose shape the caller
 * states in constants, for a timer @delta ticks away that sw_shape_fits():
 * @lvl_bits is the log2 of the wheel's buckets per level, @clk_shift its
 * level clock shift, @half_offset where the timer's half of the arrays
 * begins. The level comes from the base's two small tables
 * (sw_level_of()); the rest is shifts and masks.
 */
static __always_inline unsigned long sw_shape_index(const struct sw_geometry *geo,
						    unsigned long expires, unsigned long delta,
						    unsigned int lvl_bits, unsigned int clk_shift,
						    unsigned int half_offset,
						    unsigned long *bucket_expiry)
{
	/* At fls_long(delta), for 0 and 1 alike: both are at level 0 */
	unsigned long lvl = (geo->lvl_of_bits + 1)[__fls(delta | 1)];
	unsigned long lvl_clk;

	if (delta < geo->lvl_start[lvl])
		lvl--;
	lvl_clk = (expires >> (lvl * clk_shift)) + 1;
	*bucket_expiry = lvl_clk << (lvl * clk_shift);
	return half_offset + (lvl << lvl_bits) + (lvl_clk & (BIT(lvl_bits) - 1));
}

/*
 * Whether sw_shape_index() places a timer @delta ticks away: not due
 * already, and within the wheel's range, which the seed wheel has in a
 * constant, @seed_range (0 for the others: the geometry's cutoff). One
 * comparison does both: a negative delta is larger than either as an
 * unsigned long. Timers beyond the range (clamped, or parked by a
 * cascading wheel to come due a revolution early) take the general path:
 * in range, a timer's bucket comes due at its bucket_expiry.
 */
static __always_inline bool sw_shape_fits(const struct sw_geometry *geo, unsigned long delta,
					  unsigned long seed_range)
{
	return delta < (seed_range ? seed_range : geo->cutoff);
}

/*
 * Arm @timer, not pending, on a non-cascading wheel whose shape the
 * caller states in constants, @lvl_bits, @clk_shift and @seed_range as
 * above (or, for any other shape, reads from its geometry). Always
 * inlined into one copy per path. A deferrable timer takes the general
 * path too: most timers are not, and leaving the second half of the
 * arrays out keeps this path to 40-odd instructions (docs/benchmarks.rst).
 */
static __always_inline enum sw_modify_result sw_arm_shape(struct sw_base *base,
							  struct sw_timer *timer,
							  unsigned long expires,
							  unsigned int lvl_bits,
							  unsigned int clk_shift,
							  unsigned long seed_range)
{
	unsigned long delta = expires - base->clk;
	unsigned long bucket_expiry, idx;

	if (unlikely(!sw_shape_fits(&base->geo, delta, seed_range) ||
		     (timer->flags & SW_TIMER_DEFERRABLE)))
		return sw_modify_any(base, timer, expires);
	idx = sw_shape_index(&base->geo, expires, delta, lvl_bits, clk_shift, 0, &bucket_expiry);
	timer->expires = expires;
	sw_set_placement(timer, 0);
	sw_bucket_add(base, timer, idx, bucket_expiry);
	__set_bit(idx, base->pending_map);
	sw_next_lower(base, 0, bucket_expiry);
	base->nr_pending++;
	return SW_MOD_ARMED;
}

/* sw_arm_shape() for a pending timer to a new expiry */
static __always_inline enum sw_modify_result sw_move_shape(struct sw_base *base,
							   struct sw_timer *timer,
							   unsigned long expires,
							   unsigned int lvl_bits,
							   unsigned int clk_shift,
							   unsigned long seed_range)
{
	unsigned long delta = expires - base->clk;
	unsigned int half = timer->flags & SW_TIMER_DEFERRABLE;
	unsigned long bucket_expiry;
	unsigned int idx;

	if (unlikely(!sw_shape_fits(&base->geo, delta, seed_range)))
		return sw_modify_any(base, timer, expires);
	idx = sw_shape_index(&base->geo, expires, delta, lvl_bits, clk_shift,
			     half * SW_DEFERRABLE_OFFSET, &bucket_expiry);
	timer->expires = expires;
	sw_set_placement(timer, 0);
	if (idx == timer->idx && bucket_expiry == timer->bucket_expiry)
		return SW_MOD_SAME_BUCKET;
	sw_unlink(base, timer);
	sw_bucket_add(base, timer, idx, bucket_expiry);
	__set_bit(idx, base->pending_map);
	sw_next_lower(base, half, bucket_expiry);
	return SW_MOD_REQUEUED;
}

/*
 * The arm path of each wheel, apart: a tail call from sw_modify(), with
 * no register shared with the other paths
 */
static noinline enum sw_modify_result sw_arm_seed(struct sw_base *base, struct sw_timer *timer,
						  unsigned long expires)
{
	return sw_arm_shape(base, timer, expires, SW_SEED_LVL_BITS, SW_NAMED_CLK_SHIFT,
			    SW_SEED_RANGE);
}

static noinline enum sw_modify_result sw_arm_mainline(struct sw_base *base,
						      struct sw_timer *timer,
						      unsigned long expires)
{
	return sw_arm_shape(base, timer, expires, SW_MAINLINE_LVL_BITS, SW_NAMED_CLK_SHIFT, 0);
}

static noinline enum sw_modify_result sw_arm_any(struct sw_base *base, struct sw_timer *timer,
						 unsigned long expires)
{
	return sw_arm_shape(base, timer, expires, base->geo.lvl_bits, base->geo.clk_shift, 0);
}

/* sw_modify() of a pending timer: its own path, so that arming tests nothing twice */
static noinline enum sw_modify_result sw_modify_pending(struct sw_base *base,
							struct sw_timer *timer,
							unsigned long expires)
{
	if (timer->expires == expires)
		return SW_MOD_UNCHANGED;
	/* In this order, as sw_modify() tests them */
	if (base->geo.path == SW_ARM_SEED)
		return sw_move_shape(base, timer, expires, SW_SEED_LVL_BITS, SW_NAMED_CLK_SHIFT,
				     SW_SEED_RANGE);
	if (base->geo.path == SW_ARM_MAINLINE)
		return sw_move_shape(base, timer, expires, SW_MAINLINE_LVL_BITS,
				     SW_NAMED_CLK_SHIFT, 0);
	if (base->geo.path == SW_ARM_CLASSIC)
		return sw_classic_modify(base, timer, expires);
	return sw_move_shape(base, timer, expires, base->geo.lvl_bits, base->geo.clk_shift, 0);
}

/**
 * sw_modify - arm a timer, or move a pending one to a new expiry
 * @base:	the wheel
 * @timer:	initialised with sw_timer_init()
 * @expires:	the expiry tick
 *
 * A pending timer whose expiry does not change is left alone; one whose
 * new expiry maps to the bucket it is in only gets the new expiry. A timer
 * already collected for expiry (in a &struct sw_tick, not yet popped) is
 * not in its bucket, whatever its index says, and is always requeued.
 * The classic wheel requeues on any change of expiry, as it always did.
 *
 * Return: what was done.
 */
enum sw_modify_result sw_modify(struct sw_base *base, struct sw_timer *timer,
				unsigned long expires)
{
	if (sw_timer_pending(timer))
		return sw_modify_pending(base, timer, expires);
	/*
	 * The one dispatch on the path: the named shapes have theirs in
	 * constants. Tested in this order, any other shape last (a switch lets
	 * the compiler choose one, which cost the seed wheel 4 instructions
	 * more on every arm).
	 */
	if (base->geo.path == SW_ARM_SEED)
		return sw_arm_seed(base, timer, expires);
	if (base->geo.path == SW_ARM_MAINLINE)
		return sw_arm_mainline(base, timer, expires);
	if (base->geo.path == SW_ARM_CLASSIC)
		return sw_classic_modify(base, timer, expires);
	return sw_arm_any(base, timer, expires);
}

/**
 * sw_cancel - take a timer out of the wheel
 * @base:	the wheel
 * @timer:	the timer
 *
 * Return: true if it was pending.
 */
bool sw_cancel(struct sw_base *base, struct sw_timer *timer)
{
	if (!sw_timer_pending(timer))
		return false;
	sw_detach(base, timer);
	return true;
}

/**
 * sw_take_any - take some pending timer out of the wheel
 * @base:	the wheel
 *
 * For emptying a wheel: moving its timers elsewhere, or freeing them.
 * Timers of a tick collected but not popped are not in the wheel.
 *
 * Return: the timer, no longer pending, or NULL if the wheel is empty.
 */
struct sw_timer *sw_take_any(struct sw_base *base)
{
	struct sw_timer *timer;
	unsigned int idx;

	if (sw_wheel_is_classic(&base->geo)) {
		timer = sw_classic_first(base);
	} else {
		idx = find_first_bit(base->pending_map, SW_TOTAL_BUCKETS);
		timer = idx < SW_TOTAL_BUCKETS ?
			hlist_entry(base->vectors[idx].first, struct sw_timer, entry) : NULL;
	}
	if (timer)
		sw_detach(base, timer);
	return timer;
}

/*
 * Distance from bucket @start (0 .. LVL_SIZE - 1) of the level beginning
 * at bit @offset to the next bucket with a pending bit, wrapping around
 * the level; -1 if none is pending.
 */
static int sw_next_pending_bucket(const struct sw_base *base, unsigned int offset,
				  unsigned int start)
{
	unsigned int size = sw_lvl_size(&base->geo);
	unsigned int end = offset + size;
	unsigned int pos;

	pos = find_next_bit(base->pending_map, end, offset + start);
	if (pos < end)
		return pos - (offset + start);
	pos = find_next_bit(base->pending_map, offset + start, offset);
	if (pos < offset + start)
		return pos + size - (offset + start);
	return -1;
}

/*
 * The first tick at which a bucket of the half at @half comes due, as a
 * delta from the clock. Level n is looked at on ticks that are multiples
 * of its granularity; lvl_clk is the first such tick from the clock on,
 * in units of that granularity (ceil(clk / gran)), and the bucket at
 * lvl_clk + pos comes due at tick (lvl_clk + pos) << sn.
 */
static bool sw_next_bucket_delta(const struct sw_base *base, unsigned int half,
				 unsigned long *delta)
{
	const struct sw_geometry *geo = &base->geo;
	unsigned long lvl_clk = base->clk;
	unsigned int mask = sw_lvl_size(geo) - 1;
	unsigned int lvl;
	bool found = false;

	for (lvl = 0; lvl < geo->depth; lvl++) {
		int pos = sw_next_pending_bucket(base, half + sw_lvl_offs(geo, lvl),
						 lvl_clk & mask);

		if (pos >= 0) {
			unsigned long d = ((lvl_clk + pos) << sw_lvl_shift(geo, lvl)) - base->clk;

			if (!found || d < *delta)
				*delta = d;
			found = true;
		}
		if (lvl + 1 == geo->depth)
			break;
		/* ceil() into the next level's granularity */
		lvl_clk = (lvl_clk >> geo->clk_shift) +
			  !!(lvl_clk & (BIT(geo->clk_shift) - 1));
		/* Nothing further up can come due before what we have */
		if (found && *delta <= (lvl_clk << sw_lvl_shift(geo, lvl + 1)) - base->clk)
			break;
	}
	return found;
}

/*
 * Find the next expiry of half @half again, from the bitmap (the classic
 * wheel: by its scan, for its non-deferrable timers only), and keep it,
 * exact.
 */
static void sw_next_refresh(struct sw_base *base, unsigned int half)
{
	unsigned long next, delta = 0;
	bool found;

	if (sw_wheel_is_classic(&base->geo)) {
		found = !half && sw_classic_next_expiry(base, &next);
	} else {
		found = sw_next_bucket_delta(base, half * SW_DEFERRABLE_OFFSET, &delta);
		if (found)
			next = base->clk + delta;
	}
	if (found) {
		sw_next_set(base, half, next);
	} else {
		base->next_stale = (base->next_stale & ~SW_NEXT_STALE(half)) | SW_NEXT_NONE(half);
		sw_next_hint(base, half);
	}
}

/**
 * sw_next_expiry - when the wheel next has to run for a non-deferrable timer
 * @base:	the wheel
 * @next:	set to that tick when there is one
 *
 * Normally a read: the wheel keeps the tick up to date as mainline keeps
 * its next_expiry. An arm that comes due earlier lowers it; a cancel that
 * empties the bucket it came from, or a tick that expires that bucket,
 * marks it stale, and then this finds it again, from the pending bitmap
 * alone, and keeps it. Deferrable timers are ignored: they never make the
 * wheel run. For a seed wheel's cascading timers this is the tick of their
 * next cascade, which is when the wheel must look at them. The classic
 * wheel keeps the earliest expiry of its non-deferrable timers the same
 * way, as its next_timer was kept, and scans its buckets when that is
 * stale, see sw_classic.c.
 *
 * Return: false if no non-deferrable timer is pending.
 */
bool sw_next_expiry(struct sw_base *base, unsigned long *next)
{
	if (unlikely(base->next_stale & SW_NEXT_STALE(0)))
		sw_next_refresh(base, 0);
	if (sw_next_none(base, 0))
		return false;
	*next = base->next_expiry[0];
	return true;
}

/*
 * How many ticks from the clock half @half next has a bucket due (when
 * stale, a bound below that); ULONG_MAX, farther than any tick, when it
 * has none. A half with buckets pending never has its next expiry before
 * the clock: the clock does not pass a bucket due.
 */
static inline unsigned long sw_due_in(const struct sw_base *base, unsigned int half)
{
	return sw_next_none(base, half) ? ULONG_MAX : base->next_expiry[half] - base->clk;
}

/*
 * The nearer of the two halves' next expiries, in ticks from the clock: no
 * bucket comes due sooner, though when one is stale the first that does
 * may come later.
 */
static inline unsigned long sw_first_due_in(const struct sw_base *base)
{
	return min(sw_due_in(base, 0), sw_due_in(base, 1));
}

/*
 * Whether no bucket comes due up to @now, from the halves' next_look
 * alone: both after @now. The flags are not read. A half with none
 * pending keeps its next_look SW_NONE_LOOK_AHEAD of the clock, so an idle
 * wheel's ticks take this path too; where the value says a bucket may be
 * due (the clock came that far, or a clock more than LONG_MAX ticks from
 * @now, either way), the caller's ticks ask the flags and find what
 * there is to process, nothing for a half with none, and put its hints
 * ahead of the new clock again.
 */
static inline bool sw_nothing_due(const struct sw_base *base, unsigned long now)
{
	return sw_time_after(base->next_look[0], now) &&
	       sw_time_after(base->next_look[1], now);
}

/*
 * The ticks or sw_forward_clock() moved the clock, maybe past a hint of
 * next_look: a half with none pending gets its hints ahead of the new
 * clock again (SW_NONE_AHEAD)
 */
static void sw_next_ahead(struct sw_base *base)
{
	unsigned int half;

	for (half = 0; half < 2; half++) {
		if (sw_next_none(base, half))
			sw_next_hint(base, half);
	}
}

/*
 * sw_first_due_in(), found again where stale if it may come by @now: what
 * skipping up to @now needs
 */
static unsigned long sw_first_due_in_by(struct sw_base *base, unsigned long now)
{
	unsigned long first = sw_first_due_in(base);
	unsigned int half;

	if (first > now - base->clk || !(base->next_stale & SW_NEXT_STALE_ANY))
		return first;
	for (half = 0; half < 2; half++) {
		if (base->next_stale & SW_NEXT_STALE(half))
			sw_next_refresh(base, half);
	}
	return sw_first_due_in(base);
}

/*
 * sw_forward_clock() on a non-cascading wheel: its own function, which
 * leaves the classic wheel's test inline in its ticks
 */
static noinline void sw_forward_wheel(struct sw_base *base, unsigned long now)
{
	unsigned long first = sw_first_due_in_by(base, now);

	base->clk += min(first, now - base->clk);
	sw_next_ahead(base);
}

/**
 * sw_forward_clock - move an idle wheel's clock forward without running it
 * @base:	the wheel
 * @now:	the current tick
 *
 * Skips the ticks before @now at which no bucket, deferrable or not, comes
 * due. Afterwards the clock is @now, or the first tick with due timers if
 * that is earlier. Used before arming on a wheel that has not run for a
 * while, so new timers are placed relative to the present. The classic
 * wheel only moves its clock when it is empty: it processes every tick.
 */
void sw_forward_clock(struct sw_base *base, unsigned long now)
{
	if (!sw_time_after(now, base->clk))
		return;
	if (sw_wheel_is_classic(&base->geo)) {
		if (!base->nr_pending)
			base->clk = now;
		return;
	}
	sw_forward_wheel(base, now);
}

static void sw_tick_add_list(struct sw_tick *tick, struct hlist_head *bucket)
{
	hlist_move_list(bucket, &tick->lists[tick->nr_lists++]);
}

/*
 * The seed wheel's last level holds timers beyond its range: a due bucket
 * there has timers whose revolution it is (bucket_expiry is this tick) and
 * far ones that go back into the wheel (into this same bucket, as their
 * delta is still beyond the range) to wait for a later revolution.
 */
static void sw_cascade_bucket(struct sw_base *base, struct sw_tick *tick, unsigned int idx)
{
	struct hlist_head *expired = &tick->lists[tick->nr_lists];
	unsigned int moved = 0;
	struct sw_timer *timer;
	HLIST_HEAD(far);

	/* The tick's lists beyond nr_lists hold whatever the caller left */
	INIT_HLIST_HEAD(expired);
	hlist_move_list(base->vectors + idx, &far);
	while ((timer = sw_timer_pop(&far))) {
		unsigned long bucket_expiry;
		unsigned int new_idx, how;

		if (timer->bucket_expiry == tick->clk) {
			hlist_add_head(&timer->entry, expired);
			continue;
		}
		/* Still beyond the range: neither overdue nor clamped (seed) */
		new_idx = sw_wheel_index(base, timer, timer->expires, &bucket_expiry, &how);
		sw_enqueue(base, timer, new_idx, bucket_expiry);
		moved++;
	}
	sw_tick_add_cascade(tick, idx, moved);
	if (!hlist_empty(expired))
		tick->nr_lists++;
}

static void sw_collect_bucket(struct sw_base *base, struct sw_tick *tick, unsigned int idx,
			      bool last_level)
{
	if (!__test_and_clear_bit(idx, base->pending_map))
		return;
	if (last_level && base->geo.cascade)
		sw_cascade_bucket(base, tick, idx);
	else
		sw_tick_add_list(tick, base->vectors + idx);
}

/*
 * Tick @clk was processed: a half whose next expiry was that tick (or a
 * bound below it) has its next expiry after it, somewhere. Marked stale,
 * with the next tick as its bound: the next tick, if it is processed on
 * its own, is looked at without a search; a lookup or a jump of the clock
 * searches.
 */
static inline void sw_next_expired(struct sw_base *base, unsigned long clk)
{
	unsigned int half;

	for (half = 0; half < 2; half++) {
		if (!sw_next_none(base, half) && !sw_time_after(base->next_expiry[half], clk)) {
			sw_next_at(base, half, clk + 1);
			base->next_stale |= SW_NEXT_STALE(half);
		}
	}
}

/*
 * sw_collect_tick() on a non-cascading wheel, which skips the ticks with
 * nothing due; its own function, which leaves the classic wheel's ticks
 * the few registers they need
 */
static noinline void sw_collect_wheel(struct sw_base *base, unsigned long now,
				      struct sw_tick *tick)
{
	const struct sw_geometry *geo = &base->geo;
	unsigned int mask = sw_lvl_size(geo) - 1;
	unsigned long clk_mask = BIT(geo->clk_shift) - 1;
	unsigned long lvl_clk, first;
	unsigned int lvl;

	first = sw_first_due_in(base);
	/* A bound below the first due tick will do, unless the clock must jump */
	if (first <= now - base->clk && base->clk != now)
		first = sw_first_due_in_by(base, now);
	if (first > now - base->clk) {
		/* Nothing due up to @now */
		tick->clk = now;
		base->clk = now + 1;
		sw_next_ahead(base);
		return;
	}
	base->clk += first;
	tick->clk = base->clk;
	lvl_clk = base->clk;
	for (lvl = 0; lvl < geo->depth; lvl++) {
		unsigned int idx = sw_lvl_offs(geo, lvl) + (lvl_clk & mask);
		bool last = lvl == geo->depth - 1;

		sw_collect_bucket(base, tick, idx, last);
		sw_collect_bucket(base, tick, idx + SW_DEFERRABLE_OFFSET, last);
		/* The next level is looked at every 2^clk_shift ticks of this one */
		if (lvl_clk & clk_mask)
			break;
		lvl_clk >>= geo->clk_shift;
	}
	sw_next_expired(base, tick->clk);
	base->clk++;
	sw_next_ahead(base);
}

/**
 * sw_collect_tick - collect the timers of the next tick that has any
 * @base:	the wheel
 * @now:	the current tick: nothing after it is processed
 * @tick:	receives the expired timers; the caller need not initialise it,
 *		this fills in all of it that sw_tick_pop() reads
 *
 * Processes one tick: the clock's, or when the clock lags behind @now, the
 * first tick up to @now at which a bucket comes due (the ticks skipped had
 * none), or @now itself if none does. Each level's bucket is looked at on
 * ticks that are multiples of its granularity. The clock then moves past
 * the tick processed. The first tick a bucket comes due is kept (see
 * sw_next_expiry()), so a tick with nothing due costs a comparison, as in
 * mainline; after a tick that expired timers it is stale, bounded by the
 * next tick, and is searched for only when the clock must jump: a wheel
 * run tick by tick looks at each tick's buckets instead. The classic
 * wheel skips no tick unless it is empty.
 *
 * The collected timers stay pending, and cancelling or modifying one takes
 * it out of @tick, until sw_tick_pop() hands it out, unlinked.
 *
 * Return: false if the clock is already past @now (nothing processed).
 */
bool sw_collect_tick(struct sw_base *base, unsigned long now, struct sw_tick *tick)
{
	if (sw_time_after(base->clk, now))
		return false;
	tick->base = base;
	tick->nr_lists = 0;
	tick->cascaded = 0;
	tick->nr_cascades = 0;
	if (sw_wheel_is_classic(&base->geo)) {
		sw_forward_clock(base, now);
		tick->clk = base->clk;
		sw_classic_collect(base, tick);
		sw_next_expired(base, base->clk);
		base->clk++;
		return true;
	}
	sw_collect_wheel(base, now, tick);
	return true;
}

/**
 * sw_tick_pop - hand out the next timer collected in a tick
 * @tick:	filled by sw_collect_tick()
 *
 * Return: the timer, no longer pending, or NULL when the tick is done.
 */
struct sw_timer *sw_tick_pop(struct sw_tick *tick)
{
	struct sw_timer *timer;

	while (tick->nr_lists && hlist_empty(&tick->lists[tick->nr_lists - 1]))
		tick->nr_lists--;
	if (!tick->nr_lists)
		return NULL;

	timer = hlist_entry(tick->lists[tick->nr_lists - 1].first, struct sw_timer, entry);
	hlist_del_init(&timer->entry);
	/*
	 * The timer after it was just touched (its link back); the one after
	 * that is the next pop's to touch. Timers that expire were mostly armed
	 * long ago and are cold: fetch it while this one is handed on.
	 */
	if (tick->lists[tick->nr_lists - 1].first)
		prefetchw(tick->lists[tick->nr_lists - 1].first->next);
	tick->base->nr_pending--;
	return timer;
}

/* sw_run() when some bucket may be due: tick by tick */
static noinline unsigned long sw_run_ticks(struct sw_base *base, unsigned long now,
					   void (*fn)(struct sw_timer *timer, unsigned long clk,
						      void *arg),
					   void *arg)
{
	unsigned long expired = 0;
	struct sw_tick tick;

	while (sw_collect_tick(base, now, &tick)) {
		struct sw_timer *timer;

		while ((timer = sw_tick_pop(&tick))) {
			fn(timer, tick.clk, arg);
			expired++;
		}
	}
	return expired;
}

/**
 * sw_run - run the wheel up to and including tick @now
 * @base:	the wheel
 * @now:	the current tick
 * @fn:		called for each expired timer, with the tick it expired at; it
 *		may arm, modify or cancel timers of this wheel
 * @arg:	passed to @fn
 *
 * When nothing is due up to @now only the clock moves, here, without the
 * stack frame the ticks need.
 *
 * Return: the number of timers expired.
 */
unsigned long sw_run(struct sw_base *base, unsigned long now,
		     void (*fn)(struct sw_timer *timer, unsigned long clk, void *arg),
		     void *arg)
{
	if (sw_wheel_is_classic(&base->geo) || !sw_nothing_due(base, now))
		return sw_run_ticks(base, now, fn, arg);
	if (!sw_time_after(base->clk, now))
		base->clk = now + 1;
	return 0;
}

/**
 * sw_base_init - set up an empty wheel
 * @base:	the wheel
 * @geo:	its geometry, from sw_geometry_init()
 * @clk:	the first tick it will process
 */
void sw_base_init(struct sw_base *base, const struct sw_geometry *geo, unsigned long clk)
{
	unsigned int i;

	base->geo = *geo;
	base->clk = clk;
	base->nr_pending = 0;
	/* None pending: the flags say so, the ticks are hints (SW_NONE_AHEAD) */
	base->next_stale = SW_NEXT_NONE(0) | SW_NEXT_NONE(1);
	sw_next_hint(base, 0);
	sw_next_hint(base, 1);
	bitmap_zero(base->pending_map, SW_TOTAL_BUCKETS);
	for (i = 0; i < SW_TOTAL_BUCKETS; i++)
		INIT_HLIST_HEAD(base->vectors + i);
}
