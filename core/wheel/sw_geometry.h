/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the shape of a wheel, struct sw_geometry: the kinds of
 * wheel, the limits every base is sized for, the named geometries and
 * the specs of any other (sw_geometry.c), and the layout of the levels
 * in a base's arrays.
 */
#ifndef _SHADOW_WHEEL_SW_GEOMETRY_H
#define _SHADOW_WHEEL_SW_GEOMETRY_H

#include <linux/bitops.h>
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

#endif /* _SHADOW_WHEEL_SW_GEOMETRY_H */
