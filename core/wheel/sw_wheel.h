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

/*
 * Lists written once: the enums below, the names of the wheels and the
 * tracepoints' names for all of these (module/sw_trace.h) are made from
 * them, as the kernel's trace headers make theirs. Each entry is
 * SW_EM(symbol, "name"), the last SW_EM_LAST(symbol, "name"); whoever
 * expands a list defines both first and undefines them after. SW_LIST()
 * only makes a list one expression.
 */
#define SW_LIST(entries)	entries

/* Which wheel a base implements */
#define SW_WHEEL_KINDS SW_LIST(							\
	SW_EM(SW_WHEEL_SEED, "seed")		/* 8 x 32 buckets, far timers cascade */ \
	SW_EM(SW_WHEEL_MAINLINE, "mainline")	/* 8 or 9 x 64 buckets, far timers clamp */ \
	SW_EM_LAST(SW_WHEEL_CLASSIC, "classic")	/* 256 + 4 x 64 buckets, exact, cascades */)

#define SW_EM(sym, name)	sym,
#define SW_EM_LAST(sym, name)	sym,

enum sw_wheel_kind {
	SW_WHEEL_KINDS
	SW_WHEEL_NR_KINDS,
};

#undef SW_EM
#undef SW_EM_LAST

/*
 * The limits of a geometry: the largest is mainline's 9 levels of 64
 * buckets (HZ > 100); each level's clock is at most 2^SW_MAX_CLK_SHIFT
 * times as slow as the one below (the kernel's LVL_CLK_SHIFT is 3); the
 * tick rates are the kernel's CONFIG_HZ choices and whatever lies between.
 * The arrays of every base are as large as the largest geometry.
 */
#define SW_MAX_LVL_BITS		6
#define SW_MAX_DEPTH		9
#define SW_MAX_CLK_SHIFT	8
#define SW_MAX_BUCKETS		(SW_MAX_DEPTH << SW_MAX_LVL_BITS)
#define SW_MIN_HZ		24
#define SW_MAX_HZ		1200

/*
 * Deferrable timers live in a second set of buckets at this fixed offset
 * of the same arrays, so the next expiry search can skip them wholesale.
 */
#define SW_DEFERRABLE_OFFSET	SW_MAX_BUCKETS
#define SW_TOTAL_BUCKETS	(2 * SW_MAX_BUCKETS)

/*
 * The arm path of a geometry: seed's and mainline's shapes have theirs,
 * with the shape in constants; any other shape of the non-cascading wheel
 * takes one that reads it from the geometry; classic has its own.
 */
enum sw_arm_path {
	SW_ARM_SEED,
	SW_ARM_MAINLINE,
	SW_ARM_CLASSIC,
	SW_ARM_ANY,
};

/**
 * struct sw_geometry - the shape of a wheel
 * @kind:	seed, mainline or classic; for a geometry made from a spec
 *		of its own shape, the wheel whose rule beyond the last level
 *		it follows: seed's (cascade) or mainline's (clamp)
 * @path:	the arm path sw_modify() takes
 * @hz:		tick rate the geometry was made for (it picks mainline's depth
 *		and converts ticks to milliseconds in reports)
 * @root_bits:	log2 of the number of buckets of level 0, the root: as many
 *		as the other levels have, or more (classic: 256, one per tick)
 * @lvl_bits:	log2 of the number of buckets of each level above the root
 * @clk_shift:	the level clock shift: level n looks at a bucket every
 *		2^(@clk_shift * n) ticks, its granularity (the kernel's
 *		LVL_CLK_SHIFT, 3); 0 on the classic wheel, whose timers run
 *		on their tick at every level
 * @depth:	number of levels
 * @exact:	timers run on their expiry tick, whatever their level (the
 *		wheel cascades them down to the root first: classic); else
 *		with the granularity of the level they were placed at
 * @cascade:	far timers wait in the last level and are placed again when
 *		their bucket comes due (seed), or every level cascades into the
 *		one below (classic); otherwise they are clamped to @timeout_max
 *		(mainline)
 * @lvl_start:	smallest delta each level takes; @lvl_start[@depth] is the
 *		first delta beyond the wheel's range (the cutoff)
 * @lvl_of_bits: the level of the largest delta of each bit length (0 ..
 *		BITS_PER_LONG bits); a delta of that length is at that level, or
 *		at the one below when it is short of the level's start
 * @cutoff:	@lvl_start[@depth], where the arm path finds it in one load
 * @timeout_max: the delta far timers are clamped to when !@cascade; classic
 *		places farther timers as if this far, but runs them on time
 * @clamp_start: the first delta clamped to @timeout_max; ULONG_MAX (none)
 *		when @cascade
 * @revolution:	ticks the last level takes to come round to a bucket again
 *
 * Filled in whole by sw_geometry_init() or sw_geometry_parse(): two
 * geometries of the same wheel compare equal with memcmp().
 */
struct sw_geometry {
	enum sw_wheel_kind	kind;
	enum sw_arm_path	path;
	unsigned int		hz;
	unsigned int		root_bits;
	unsigned int		lvl_bits;
	unsigned int		clk_shift;
	unsigned int		depth;
	bool			exact;
	bool			cascade;
	unsigned long		lvl_start[SW_MAX_DEPTH + 1];
	u8			lvl_of_bits[BITS_PER_LONG + 1];
	unsigned long		cutoff;
	unsigned long		timeout_max;
	unsigned long		clamp_start;
	unsigned long		revolution;
};

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
 * @next_stale:	per half, SW_NEXT_STALE (@next_expiry is only a bound below
 *		the first bucket's tick) and SW_NEXT_NONE (no bucket pending,
 *		and @next_expiry means nothing: no tick is set aside for none)
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

int sw_geometry_init(struct sw_geometry *geo, enum sw_wheel_kind kind, unsigned int hz);
const char *sw_wheel_kind_name(enum sw_wheel_kind kind);

/* Room for any spec sw_geometry_format() writes, and any message of sw_geometry_parse() */
#define SW_SPEC_MAX		64
#define SW_SPEC_ERR_MAX		128

int sw_geometry_parse(struct sw_geometry *geo, const char *spec, unsigned int hz,
		      char *err, size_t err_size);
int sw_geometry_parse_list(struct sw_geometry *geos, unsigned int max, const char *list,
			   unsigned int hz, char *err, size_t err_size);
int sw_geometry_format(const struct sw_geometry *geo, char *buf, size_t size);
bool sw_geometry_named(const struct sw_geometry *geo);

/* Buckets of each level above the root */
static inline unsigned int sw_lvl_size(const struct sw_geometry *geo)
{
	return 1U << geo->lvl_bits;
}

/* log2 of the granularity of level @lvl of a non-cascading wheel */
static inline unsigned int sw_lvl_shift(const struct sw_geometry *geo, unsigned int lvl)
{
	return lvl * geo->clk_shift;
}

/* Granularity of a level in ticks: (2 ^ clk_shift) ^ lvl */
static inline unsigned long sw_lvl_gran(const struct sw_geometry *geo, unsigned int lvl)
{
	return 1UL << sw_lvl_shift(geo, lvl);
}

/*
 * The layout of the levels in one half of the arrays, for any wheel: the
 * first bucket of a level, its number of buckets, and how late its
 * timers may run.
 */
static inline unsigned int sw_lvl_first_bucket(const struct sw_geometry *geo, unsigned int lvl)
{
	return lvl ? BIT(geo->root_bits) + ((lvl - 1) << geo->lvl_bits) : 0;
}

static inline unsigned int sw_lvl_nr_buckets(const struct sw_geometry *geo, unsigned int lvl)
{
	return lvl ? BIT(geo->lvl_bits) : BIT(geo->root_bits);
}

static inline unsigned long sw_lvl_expiry_gran(const struct sw_geometry *geo, unsigned int lvl)
{
	return geo->exact ? 1 : sw_lvl_gran(geo, lvl);
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

/* The level of bucket @idx of either half of the arrays */
static inline unsigned int sw_idx_level(const struct sw_geometry *geo, unsigned int idx)
{
	idx %= SW_DEFERRABLE_OFFSET;
	if (idx < BIT(geo->root_bits))
		return 0;
	return 1 + ((idx - BIT(geo->root_bits)) >> geo->lvl_bits);
}

/* The position of bucket @idx in its level, 0 .. sw_lvl_nr_buckets() - 1 */
static inline unsigned int sw_idx_bucket(const struct sw_geometry *geo, unsigned int idx)
{
	return idx % SW_DEFERRABLE_OFFSET - sw_lvl_first_bucket(geo, sw_idx_level(geo, idx));
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
