/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/: no locks, no jiffies, no allocation, and it builds in user space.
 *
 * shadow-wheel: the timer wheel core. A pure data structure: the caller
 * owns the base, serialises access to it and tells it what time it is.
 * Every file of core/ also builds against core/user/include alone (the
 * benchmark and kunit/user do), which holds it to that rule. The design
 * and its contract are described at the top of sw_wheel.c.
 */
#ifndef _SHADOW_WHEEL_SW_WHEEL_H
#define _SHADOW_WHEEL_SW_WHEEL_H

#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/types.h>

#include "sw_geometry.h"

/**
 * struct sw_base - one wheel
 * @geo:	its geometry (a copy, kept next to the hot data)
 * @clk:	the next tick to be processed; every tick before it has been
 * @nr_pending:	timers pending, those of a collected tick not yet popped too
 * @next_expiry: per half of the arrays (normal, deferrable): the tick its
 *		first bucket comes due, kept as mainline keeps its bases'
 *		next_expiry; exact unless the half's bit in @next_stale is set,
 *		and then no later than that tick (a bound below it). The
 *		classic wheel keeps only the first half's, as it kept
 *		next_timer: the earliest expiry of a non-deferrable timer.
 * @next_look:	per half, the tick by which sw_run() has to look at it:
 *		@next_expiry while the half has a bucket pending
 * @next_stale:	per half, SW_NEXT_STALE (@next_expiry is only a bound below
 *		the first bucket's tick) and SW_NEXT_NONE (no bucket pending;
 *		@next_expiry and @next_look are then only hints, far ahead of
 *		the clock of the moment, never a tick that stands for none:
 *		see SW_NONE_AHEAD)
 * @pending_map: one bit per bucket, set while the bucket holds a timer
 *		(not kept by the classic wheel, which had no such map)
 * @vectors:	the buckets; deferrable ones from %SW_DEFERRABLE_OFFSET on
 *
 * Set up whole by sw_base_init(); the caller allocates it and owns it.
 */
struct sw_base {
	struct sw_geometry	geo;
	unsigned long		clk;
	unsigned long		nr_pending;
	unsigned long		next_expiry[2];
	unsigned long		next_look[2];
	unsigned int		next_stale;
	DECLARE_BITMAP(pending_map, SW_TOTAL_BUCKETS);
	struct hlist_head	vectors[SW_TOTAL_BUCKETS];
};

/* sw_timer::flags */
#define SW_TIMER_DEFERRABLE	0x1U	/* never the reason for a wakeup */
#define SW_TIMER_CLAMPED	0x2U	/* set by the wheel: expiry was clamped */
#define SW_TIMER_OVERDUE	0x4U	/* set by the wheel: expiry had passed */
#define SW_TIMER_PARKED		0x8U	/* set by the wheel: beyond the last level's range (seed) */
#define SW_TIMER_PLACEMENT	(SW_TIMER_CLAMPED | SW_TIMER_OVERDUE | SW_TIMER_PARKED)

/* Their letters in traces (the kernel's timer events print "D" too) */
#define SW_TIMER_FLAGS SW_LIST(							\
	SW_EM(SW_TIMER_DEFERRABLE,	"D")					\
	SW_EM(SW_TIMER_CLAMPED,		"C")					\
	SW_EM(SW_TIMER_OVERDUE,		"O")					\
	SW_EM_LAST(SW_TIMER_PARKED,	"P"))

/**
 * struct sw_timer - a timer as the wheel sees it
 * @entry:	bucket (or expired list) linkage; unhashed when not pending
 * @expires:	the expiry tick the caller asked for
 * @bucket_expiry: the tick at which the wheel will run it (set on enqueue)
 * @idx:	bucket index, so that cancel needs no search
 * @flags:	SW_TIMER_*
 *
 * Set up whole by sw_timer_init() before the first sw_modify(); the wheel
 * keeps it consistent from then on.
 */
struct sw_timer {
	struct hlist_node	entry;
	unsigned long		expires;
	unsigned long		bucket_expiry;
	unsigned int		idx;
	unsigned int		flags;
};

/* What sw_modify() did */
#define SW_MODIFY_RESULTS SW_LIST(						\
	SW_EM(SW_MOD_ARMED, "armed")		/* was not pending, now is */	\
	SW_EM(SW_MOD_UNCHANGED, "unchanged")	/* pending, this very expiry: nothing done */ \
	SW_EM(SW_MOD_SAME_BUCKET, "same_bucket") /* new expiry, same bucket: not requeued */ \
	SW_EM_LAST(SW_MOD_REQUEUED, "requeued")	/* moved to another bucket */)

#define SW_EM(sym, name)	sym,
#define SW_EM_LAST(sym, name)	sym,

enum sw_modify_result {
	SW_MODIFY_RESULTS
};

#undef SW_EM
#undef SW_EM_LAST

/* The expired lists of one tick: up to two per level plus the cascade's */
#define SW_TICK_LISTS		(2 * SW_MAX_DEPTH + 1)

/*
 * The buckets one tick may cascade: classic, one per level above the root;
 * seed, its last level's, normal and deferrable
 */
#define SW_TICK_CASCADES	SW_MAX_DEPTH

/**
 * struct sw_cascade - a bucket a tick emptied to place its timers again
 * @idx:	the bucket, as &sw_timer.idx (see sw_idx_level(), sw_idx_bucket())
 * @moved:	the timers placed again: into lower levels (classic), or back
 *		into the same bucket for a later revolution (seed)
 */
struct sw_cascade {
	unsigned int		idx;
	unsigned int		moved;
};

/**
 * struct sw_tick - timers collected for one tick, see sw_collect_tick()
 * @base:	the wheel they were collected from
 * @clk:	the tick they expired at
 * @nr_lists:	lists in use
 * @cascaded:	timers this tick placed again instead of expiring (seed, classic)
 * @nr_cascades: buckets in @cascades
 * @cascades:	the buckets that moved timers, in the order they did; their
 *		@moved add up to @cascaded
 * @lists:	the timers; they stay pending (and cancellable) until popped
 *
 * Filled in by sw_collect_tick(), which reads nothing the caller left in
 * it: a tick on the stack needs no initialiser. Only @lists[0 .. @nr_lists)
 * and @cascades[0 .. @nr_cascades) are defined afterwards.
 */
struct sw_tick {
	struct sw_base		*base;
	unsigned long		clk;
	unsigned int		nr_lists;
	unsigned int		cascaded;
	unsigned int		nr_cascades;
	struct sw_cascade	cascades[SW_TICK_CASCADES];
	struct hlist_head	lists[SW_TICK_LISTS];
};

/* Tick comparisons that survive the clock wrapping around */
static inline bool sw_time_after(unsigned long a, unsigned long b)
{
	return (long)(b - a) < 0;
}

static inline bool sw_time_before(unsigned long a, unsigned long b)
{
	return sw_time_after(b, a);
}

unsigned int sw_delta_level(const struct sw_geometry *geo, unsigned long delta);

void sw_base_init(struct sw_base *base, const struct sw_geometry *geo, unsigned long clk);

static inline void sw_timer_init(struct sw_timer *timer, unsigned int flags)
{
	INIT_HLIST_NODE(&timer->entry);
	timer->expires = 0;
	timer->bucket_expiry = 0;
	timer->idx = 0;
	timer->flags = flags & SW_TIMER_DEFERRABLE;
}

static inline bool sw_timer_pending(const struct sw_timer *timer)
{
	return !hlist_unhashed(&timer->entry);
}

/*
 * The level a timer was placed at, and its bucket there (meaningful once
 * it was armed); on a wheel that cascades every level (classic), where it
 * is now.
 */
static inline unsigned int sw_timer_level(const struct sw_base *base,
					  const struct sw_timer *timer)
{
	return sw_idx_level(&base->geo, timer->idx);
}

static inline unsigned int sw_timer_bucket(const struct sw_base *base,
					   const struct sw_timer *timer)
{
	return sw_idx_bucket(&base->geo, timer->idx);
}

/**
 * struct sw_place - a placement, see sw_wheel_place()
 * @idx:	bucket index (from %SW_DEFERRABLE_OFFSET on for deferrable timers)
 * @level:	the level of that bucket
 * @bucket_expiry: the tick the wheel runs the timer at (classic: its exact
 *		expiry, whatever the level)
 * @how:	SW_TIMER_OVERDUE, SW_TIMER_CLAMPED, SW_TIMER_PARKED or 0
 */
struct sw_place {
	unsigned int	idx;
	unsigned int	level;
	unsigned long	bucket_expiry;
	unsigned int	how;
};

void sw_wheel_place(const struct sw_geometry *geo, unsigned long clk, unsigned long expires,
		    unsigned int flags, struct sw_place *place);

enum sw_modify_result sw_modify(struct sw_base *base, struct sw_timer *timer,
				unsigned long expires);
bool sw_cancel(struct sw_base *base, struct sw_timer *timer);

struct sw_timer *sw_take_any(struct sw_base *base);

bool sw_next_expiry(struct sw_base *base, unsigned long *next);
void sw_forward_clock(struct sw_base *base, unsigned long now);

bool sw_collect_tick(struct sw_base *base, unsigned long now, struct sw_tick *tick);
struct sw_timer *sw_tick_pop(struct sw_tick *tick);

unsigned long sw_run(struct sw_base *base, unsigned long now,
		     void (*fn)(struct sw_timer *timer, unsigned long clk, void *arg),
		     void *arg);

#endif /* _SHADOW_WHEEL_SW_WHEEL_H */
