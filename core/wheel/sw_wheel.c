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
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/prefetch.h>
#include <linux/stdarg.h>
#include <linux/string.h>

#include "sw_classic.h"
#include "sw_wheel_internal.h"

/* In the order of the enum: the same list */
#define SW_EM(sym, name)	name,
#define SW_EM_LAST(sym, name)	name

static const char * const sw_wheel_kind_names[SW_WHEEL_NR_KINDS] = {
	SW_WHEEL_KINDS
};

#undef SW_EM
#undef SW_EM_LAST

const char *sw_wheel_kind_name(enum sw_wheel_kind kind)
{
	return kind < SW_WHEEL_NR_KINDS ? sw_wheel_kind_names[kind] : "?";
}

/*
 * The shapes of the named non-cascading wheels, constants for their arm
 * paths: the level clock shift, buckets per level (log2), and the seed
 * wheel's depth and range, the first delta beyond its last level
 * (mainline's depth, and so its range, depend on HZ)
 */
#define SW_NAMED_CLK_SHIFT	3
#define SW_SEED_LVL_BITS	5
#define SW_SEED_DEPTH		8
#define SW_SEED_RANGE		((BIT(SW_SEED_LVL_BITS) - 1) <<			\
				 (SW_NAMED_CLK_SHIFT * (SW_SEED_DEPTH - 1)))
#define SW_MAINLINE_LVL_BITS	6

/* The arm path takes a timer's half of the arrays from its flags as they are */
static_assert(SW_TIMER_DEFERRABLE == 1);

static bool sw_hz_supported(unsigned int hz)
{
	return hz >= SW_MIN_HZ && hz <= SW_MAX_HZ;
}

/*
 * For each bit length, the level of the largest delta that long: the last
 * level whose start it reaches. A level is at least twice as wide as the
 * one below (the root: at least three buckets), so the deltas of one bit
 * length reach at most one level start, and sw_level_of() needs one
 * comparison more.
 */
static void sw_init_lvl_of_bits(struct sw_geometry *geo)
{
	unsigned int bits, lvl;

	for (bits = 0; bits <= BITS_PER_LONG; bits++) {
		unsigned long longest = bits ? ULONG_MAX >> (BITS_PER_LONG - bits) : 0;

		for (lvl = 0; lvl + 1 < geo->depth && longest >= geo->lvl_start[lvl + 1]; lvl++)
			;
		geo->lvl_of_bits[bits] = lvl;
	}
}

/*
 * A spec's parameters, in the order sw_geometry_format() writes them, with
 * their ranges: the core's limits (sw_wheel.h)
 */
enum sw_spec_key {
	SW_SPEC_BITS,
	SW_SPEC_SHIFT,
	SW_SPEC_DEPTH,
	SW_SPEC_HZ,
	SW_SPEC_NR_KEYS,
};

static const struct sw_spec_param {
	const char	*name;
	const char	*what;
	unsigned int	min;
	unsigned int	max;
} sw_spec_params[SW_SPEC_NR_KEYS] = {
	[SW_SPEC_BITS]	= { "bits", "buckets per level, log2", 2, SW_MAX_LVL_BITS },
	[SW_SPEC_SHIFT]	= { "shift", "level clock shift", 1, SW_MAX_CLK_SHIFT },
	[SW_SPEC_DEPTH]	= { "depth", "levels", 2, SW_MAX_DEPTH },
	[SW_SPEC_HZ]	= { "hz", "tick rate", SW_MIN_HZ, SW_MAX_HZ },
};

/* The rules beyond the last level, by the wheel that follows each */
static const char * const sw_spec_rules[SW_WHEEL_CLASSIC] = {
	[SW_WHEEL_SEED]		= "cascade",
	[SW_WHEEL_MAINLINE]	= "clamp",
};

/*
 * A spec's wheel must tell its whole range apart in a long, with room for
 * the comparisons that survive the wrap: the last level's revolution,
 * 2^(bits + shift (depth - 1)) ticks, is at most 2^SW_SPEC_RANGE_BITS.
 */
#define SW_SPEC_RANGE_BITS	(BITS_PER_LONG - 2)

static unsigned int sw_spec_max_depth(unsigned int bits, unsigned int shift)
{
	unsigned int most = (SW_SPEC_RANGE_BITS - bits) / shift + 1;

	return most < SW_MAX_DEPTH ? most : SW_MAX_DEPTH;
}

/* The shape of a named non-cascading wheel at @hz, as a spec's parameters */
static void sw_named_shape(enum sw_wheel_kind kind, unsigned int hz,
			   unsigned int val[SW_SPEC_NR_KEYS])
{
	val[SW_SPEC_SHIFT] = SW_NAMED_CLK_SHIFT;
	val[SW_SPEC_HZ] = hz;
	if (kind == SW_WHEEL_SEED) {
		val[SW_SPEC_BITS] = SW_SEED_LVL_BITS;
		val[SW_SPEC_DEPTH] = SW_SEED_DEPTH;
	} else {
		val[SW_SPEC_BITS] = SW_MAINLINE_LVL_BITS;
		/* The kernel's LVL_DEPTH */
		val[SW_SPEC_DEPTH] = hz > 100 ? 9 : 8;
	}
}

/*
 * The arm path of a non-cascading geometry: the named shapes' own, whose
 * constants are exactly its shape, or the one for any shape
 */
static enum sw_arm_path sw_geometry_path(const struct sw_geometry *geo)
{
	if (geo->clk_shift != SW_NAMED_CLK_SHIFT)
		return SW_ARM_ANY;
	if (geo->cascade && geo->lvl_bits == SW_SEED_LVL_BITS && geo->depth == SW_SEED_DEPTH)
		return SW_ARM_SEED;
	if (!geo->cascade && geo->lvl_bits == SW_MAINLINE_LVL_BITS)
		return SW_ARM_MAINLINE;
	return SW_ARM_ANY;
}

/*
 * Fill in @geo whole, for a wheel of @kind at @hz; a non-cascading one of
 * the shape in @val, checked by the caller
 */
static void sw_geometry_build(struct sw_geometry *geo, enum sw_wheel_kind kind, unsigned int hz,
			      const unsigned int val[SW_SPEC_NR_KEYS])
{
	unsigned int lvl;

	/* Every field, the arrays' unused tails included, is defined */
	memset(geo, 0, sizeof(*geo));
	geo->kind = kind;
	geo->hz = hz;
	if (kind == SW_WHEEL_CLASSIC) {
		sw_classic_geometry(geo);
		geo->path = SW_ARM_CLASSIC;
	} else {
		geo->lvl_bits = val[SW_SPEC_BITS];
		geo->root_bits = geo->lvl_bits;
		geo->clk_shift = val[SW_SPEC_SHIFT];
		geo->depth = val[SW_SPEC_DEPTH];
		geo->cascade = kind == SW_WHEEL_SEED;
		geo->lvl_start[0] = 0;
		for (lvl = 1; lvl <= geo->depth; lvl++)
			geo->lvl_start[lvl] = (sw_lvl_size(geo) - 1UL) <<
					      sw_lvl_shift(geo, lvl - 1);
		/* The largest delta whose bucket the last level still tells apart */
		geo->timeout_max = geo->lvl_start[geo->depth] - sw_lvl_gran(geo, geo->depth - 1);
		geo->clamp_start = geo->cascade ? ULONG_MAX : geo->lvl_start[geo->depth];
		geo->revolution = (unsigned long)sw_lvl_size(geo) <<
				  sw_lvl_shift(geo, geo->depth - 1);
		geo->path = sw_geometry_path(geo);
	}
	geo->cutoff = geo->lvl_start[geo->depth];
	sw_init_lvl_of_bits(geo);
}

/**
 * sw_geometry_init - describe a named wheel
 * @geo:	filled in
 * @kind:	seed, mainline or classic
 * @hz:		tick rate, %SW_MIN_HZ to %SW_MAX_HZ (only mainline's depth and
 *		the reports depend on it)
 *
 * Return: 0, or -EINVAL for an unknown kind or tick rate (@geo untouched).
 */
int sw_geometry_init(struct sw_geometry *geo, enum sw_wheel_kind kind, unsigned int hz)
{
	unsigned int val[SW_SPEC_NR_KEYS];

	if (kind >= SW_WHEEL_NR_KINDS || !sw_hz_supported(hz))
		return -EINVAL;
	sw_named_shape(kind, hz, val);
	sw_geometry_build(geo, kind, hz, val);
	return 0;
}

/* What sw_geometry_parse() has read of a spec */
struct sw_spec {
	enum sw_wheel_kind	name;		/* SW_WHEEL_NR_KINDS: none given */
	enum sw_wheel_kind	rule;		/* the same */
	unsigned int		given;		/* BIT(key) per parameter given */
	unsigned int		val[SW_SPEC_NR_KEYS];
};

/* Say what is wrong, in @err: -EINVAL */
static __printf(3, 4) int sw_spec_error(char *err, size_t err_size, const char *fmt, ...)
{
	va_list args;

	if (err_size) {
		va_start(args, fmt);
		vsnprintf(err, err_size, fmt, args);
		va_end(args);
	}
	return -EINVAL;
}

/* A parameter's value out of its range (or not a number): name, value and range */
static int sw_spec_range_error(char *err, size_t err_size, enum sw_spec_key key,
			       const char *val, int len, unsigned int max)
{
	const struct sw_spec_param *p = &sw_spec_params[key];

	return sw_spec_error(err, err_size, "%s=%.*s: %s, %u to %u", p->name, len, val, p->what,
			     p->min, max);
}

/* Append @sep and @word to the message at @pos of @err; the new end */
static size_t sw_spec_append(char *err, size_t err_size, size_t pos, const char *sep,
			     const char *word)
{
	if (pos >= err_size)
		return pos;
	return pos + snprintf(err + pos, err_size - pos, "%s%s", sep, word);
}

/*
 * An item that is none of a spec's words: what the words are, from the
 * lists of names, parameters and rules
 */
static int sw_spec_unknown(char *err, size_t err_size, const char *s, size_t len)
{
	size_t pos;
	unsigned int k;

	if (!err_size)
		return -EINVAL;
	pos = snprintf(err, err_size, "%.*s: not a wheel (", (int)min_t(size_t, len, 32), s);
	for (k = 0; k < SW_WHEEL_NR_KINDS; k++)
		pos = sw_spec_append(err, err_size, pos, k ? ", " : "", sw_wheel_kind_name(k));
	pos = sw_spec_append(err, err_size, pos, "), a parameter (", "");
	for (k = 0; k < SW_SPEC_NR_KEYS; k++)
		pos = sw_spec_append(err, err_size, pos, k ? ", " : "", sw_spec_params[k].name);
	pos = sw_spec_append(err, err_size, pos, ") or a rule (", "");
	for (k = 0; k < ARRAY_SIZE(sw_spec_rules); k++)
		pos = sw_spec_append(err, err_size, pos, k ? ", " : "", sw_spec_rules[k]);
	sw_spec_append(err, err_size, pos, ")", "");
	return -EINVAL;
}

/* Whether [@s, @s + @len) is @word */
static bool sw_spec_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !memcmp(s, word, len);
}

/* The decimal number [@s, @s + @len), if it is one below 10^9 */
static bool sw_spec_number(const char *s, size_t len, unsigned int *val)
{
	size_t i;

	if (!len || len > 9)
		return false;
	*val = 0;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*val = *val * 10 + (s[i] - '0');
	}
	return true;
}

/* Take in item [@s, @s + @len), the @nth of the spec */
static int sw_spec_item(struct sw_spec *spec, const char *s, size_t len, unsigned int nth,
			char *err, size_t err_size)
{
	const char *eq = memchr(s, '=', len);
	unsigned int k;

	if (!len)
		return sw_spec_error(err, err_size, "an empty item");
	if (eq) {
		size_t klen = eq - s, vlen = len - klen - 1;

		for (k = 0; k < SW_SPEC_NR_KEYS; k++) {
			if (sw_spec_is(s, klen, sw_spec_params[k].name))
				break;
		}
		if (k == SW_SPEC_NR_KEYS)
			goto unknown;
		if (spec->given & BIT(k))
			return sw_spec_error(err, err_size, "%s: given twice",
					     sw_spec_params[k].name);
		if (!sw_spec_number(eq + 1, vlen, &spec->val[k]) ||
		    spec->val[k] < sw_spec_params[k].min || spec->val[k] > sw_spec_params[k].max)
			return sw_spec_range_error(err, err_size, k, eq + 1, vlen,
						   sw_spec_params[k].max);
		spec->given |= BIT(k);
		return 0;
	}
	for (k = 0; k < SW_WHEEL_NR_KINDS; k++) {
		if (!sw_spec_is(s, len, sw_wheel_kind_name(k)))
			continue;
		if (nth)
			return sw_spec_error(err, err_size, "%s: a wheel's name comes first",
					     sw_wheel_kind_name(k));
		spec->name = k;
		return 0;
	}
	for (k = 0; k < ARRAY_SIZE(sw_spec_rules); k++) {
		if (!sw_spec_is(s, len, sw_spec_rules[k]))
			continue;
		if (spec->rule != SW_WHEEL_NR_KINDS)
			return sw_spec_error(err, err_size, "%s: one rule, %s or %s",
					     sw_spec_rules[k], sw_spec_rules[SW_WHEEL_MAINLINE],
					     sw_spec_rules[SW_WHEEL_SEED]);
		spec->rule = k;
		return 0;
	}
unknown:
	return sw_spec_unknown(err, err_size, s, len);
}

/**
 * sw_geometry_parse - describe a wheel given by a spec
 * @geo:	filled in on success; untouched on error
 * @spec:	the spec, a string: a wheel's name (seed, mainline, classic),
 *		then parameters, each name=value, and a rule, separated by
 *		commas; a final newline is ignored
 * @hz:		the tick rate when @spec gives none
 * @err:	on error, what is wrong, naming the parameter and its range
 *		(%SW_SPEC_ERR_MAX holds any); may be NULL if @err_size is 0
 * @err_size:	room at @err
 *
 * The parameters: bits (buckets per level, log2), shift (the level clock
 * shift), depth (levels), hz (the tick rate); the rules beyond the last
 * level: clamp (mainline's) or cascade (seed's). A spec without a name
 * starts from mainline; a name's shape is overridden by the parameters
 * and rule given ("mainline,hz=300", "seed,shift=2"). Classic takes only
 * hz. The ranges are the core's limits, and a wheel's range must fit in
 * a long: its depth is at most sw_spec_max_depth() of its bits and shift.
 * No allocation and no side effect on error: it runs anywhere.
 *
 * Return: 0, or -EINVAL.
 */
int sw_geometry_parse(struct sw_geometry *geo, const char *spec, unsigned int hz,
		      char *err, size_t err_size)
{
	struct sw_spec sp = { .name = SW_WHEEL_NR_KINDS, .rule = SW_WHEEL_NR_KINDS };
	size_t len = strlen(spec);
	unsigned int val[SW_SPEC_NR_KEYS] = { 0 };
	unsigned int nth = 0, k, most;
	enum sw_wheel_kind kind;
	const char *s = spec, *end;
	int ret;

	if (len && spec[len - 1] == '\n')
		len--;
	if (!len)
		return sw_spec_error(err, err_size, "an empty spec: a wheel or its parameters");
	end = spec + len;
	for (;;) {
		const char *comma = memchr(s, ',', end - s);
		const char *item_end = comma ? comma : end;

		ret = sw_spec_item(&sp, s, item_end - s, nth++, err, err_size);
		if (ret)
			return ret;
		if (!comma)
			break;
		s = comma + 1;
	}

	if (sp.name == SW_WHEEL_CLASSIC) {
		for (k = 0; k < SW_SPEC_NR_KEYS; k++) {
			if (k != SW_SPEC_HZ && (sp.given & BIT(k)))
				return sw_spec_error(err, err_size,
						     "%s: classic's shape is fixed, it takes only hz",
						     sw_spec_params[k].name);
		}
		if (sp.rule != SW_WHEEL_NR_KINDS)
			return sw_spec_error(err, err_size,
					     "%s: classic's rule is fixed, it takes only hz",
					     sw_spec_rules[sp.rule]);
	}
	if (sp.given & BIT(SW_SPEC_HZ))
		hz = sp.val[SW_SPEC_HZ];
	else if (!sw_hz_supported(hz))
		return sw_spec_error(err, err_size, "hz=%u: %s, %u to %u", hz,
				     sw_spec_params[SW_SPEC_HZ].what, SW_MIN_HZ, SW_MAX_HZ);

	/* A name's shape, mainline's if none, then what the spec gives */
	kind = sp.name == SW_WHEEL_NR_KINDS ? SW_WHEEL_MAINLINE : sp.name;
	if (kind != SW_WHEEL_CLASSIC) {
		sw_named_shape(kind, hz, val);
		for (k = 0; k < SW_SPEC_NR_KEYS; k++) {
			if (sp.given & BIT(k))
				val[k] = sp.val[k];
		}
		if (sp.rule != SW_WHEEL_NR_KINDS)
			kind = sp.rule;
		most = sw_spec_max_depth(val[SW_SPEC_BITS], val[SW_SPEC_SHIFT]);
		if (val[SW_SPEC_DEPTH] > most)
			return sw_spec_error(err, err_size,
					     "depth=%u: %s, %u to %u with bits=%u,shift=%u",
					     val[SW_SPEC_DEPTH], sw_spec_params[SW_SPEC_DEPTH].what,
					     sw_spec_params[SW_SPEC_DEPTH].min, most,
					     val[SW_SPEC_BITS], val[SW_SPEC_SHIFT]);
	}
	sw_geometry_build(geo, kind, hz, val);
	return 0;
}

/* Spec @n (from 0) of a list, @len characters at @s: parsed into @geo */
static int sw_spec_list_item(struct sw_geometry *geo, unsigned int n, const char *s, size_t len,
			     unsigned int hz, char *err, size_t err_size)
{
	char spec[SW_SPEC_ERR_MAX];
	int pre;

	if (len >= sizeof(spec))
		return sw_spec_error(err, err_size, "spec %u: %zu characters, at most %zu", n + 1,
				     len, sizeof(spec) - 1);
	if (memchr(s, '\n', len))
		return sw_spec_error(err, err_size, "spec %u: a newline inside the list", n + 1);
	memcpy(spec, s, len);
	spec[len] = '\0';
	/* Its place, then the parser's message in the room left */
	pre = snprintf(err, err_size, "spec %u: ", n + 1);
	if (pre < 0 || (size_t)pre >= err_size)
		pre = err_size;
	return sw_geometry_parse(geo, spec, hz, err ? err + pre : NULL, err_size - pre);
}

/**
 * sw_geometry_parse_list - describe the wheels of a list of specs
 * @geos:	gets the wheels, in the list's order; untouched on error
 * @max:	room at @geos: the most wheels the list may give
 * @list:	specs apart by ';', each as sw_geometry_parse() takes it; a
 *		final newline is ignored, and an empty list gives no wheel
 * @hz:		the tick rate of a spec that gives none
 * @err:	on error, what is wrong: "spec N: " (its place in the list),
 *		then sw_geometry_parse()'s message or what else is wrong, cut
 *		to @err_size (%SW_SPEC_ERR_MAX holds all but a message that
 *		echoes a long bad value); may be NULL if @err_size is 0
 * @err_size:	room at @err
 *
 * Every spec is checked before @geos is written: a list is taken whole
 * or not at all. An empty spec (";;", a ';' at an end) and a newline
 * inside the list are errors, as is a spec of %SW_SPEC_ERR_MAX characters
 * or more, which no geometry needs.
 *
 * Return: the number of wheels, or -EINVAL.
 */
int sw_geometry_parse_list(struct sw_geometry *geos, unsigned int max, const char *list,
			   unsigned int hz, char *err, size_t err_size)
{
	size_t len = strlen(list);
	unsigned int pass, n;
	int ret;

	if (len && list[len - 1] == '\n')
		len--;
	if (!len)
		return 0;
	/* The first pass checks, the second writes */
	for (pass = 0; pass < 2; pass++) {
		const char *s = list, *end = list + len, *semi;
		struct sw_geometry geo;

		for (n = 0;; n++, s = semi + 1) {
			semi = memchr(s, ';', end - s);
			if (n == max)
				return sw_spec_error(err, err_size, "spec %u: at most %u wheels",
						     n + 1, max);
			ret = sw_spec_list_item(pass ? &geos[n] : &geo, n, s,
						(semi ? semi : end) - s, hz, err, err_size);
			if (ret)
				return ret;
			if (!semi)
				break;
		}
	}
	return n + 1;
}

/**
 * sw_geometry_named - whether a geometry is a named wheel's at its tick rate
 * @geo:	from sw_geometry_init() or sw_geometry_parse()
 *
 * Classic is, whatever it holds: its shape has no parameters.
 *
 * Return: true if it is seed's, mainline's or classic's at @geo->hz.
 */
bool sw_geometry_named(const struct sw_geometry *geo)
{
	struct sw_geometry named;

	return geo->kind >= ARRAY_SIZE(sw_spec_rules) ||
	       (!sw_geometry_init(&named, geo->kind, geo->hz) &&
		!memcmp(&named, geo, sizeof(named)));
}

/**
 * sw_geometry_format - the canonical spec of a geometry
 * @geo:	from sw_geometry_init() or sw_geometry_parse()
 * @buf:	gets the spec (%SW_SPEC_MAX holds any)
 * @size:	room at @buf
 *
 * A named wheel by its name and tick rate ("mainline,hz=250"), any other
 * by all its parameters and its rule ("bits=6,shift=2,depth=9,hz=300,clamp");
 * sw_geometry_parse() makes the same geometry of it at any default tick rate.
 *
 * Return: the length of the spec, as snprintf() returns it.
 */
int sw_geometry_format(const struct sw_geometry *geo, char *buf, size_t size)
{
	const unsigned int val[SW_SPEC_NR_KEYS] = {
		[SW_SPEC_BITS]	= geo->lvl_bits,
		[SW_SPEC_SHIFT]	= geo->clk_shift,
		[SW_SPEC_DEPTH]	= geo->depth,
		[SW_SPEC_HZ]	= geo->hz,
	};
	unsigned int k;
	size_t len = 0;

	if (sw_geometry_named(geo))
		return snprintf(buf, size, "%s,hz=%u", sw_wheel_kind_name(geo->kind), geo->hz);
	for (k = 0; k < SW_SPEC_NR_KEYS; k++)
		len += snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0,
				"%s=%u,", sw_spec_params[k].name, val[k]);
	return len + snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0, "%s",
			      sw_spec_rules[geo->kind]);
}

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
	base->next_stale &= ~(SW_NEXT_STALE(half) | SW_NEXT_NONE(half));
	if (found)
		base->next_expiry[half] = next;
	else
		base->next_stale |= SW_NEXT_NONE(half);
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
 * Whether no bucket comes due from the clock up to @now. A clock already
 * past @now is as far from it as a tick can be, and only a wheel with
 * none pending says so: the caller finds nothing to process either way.
 */
static inline bool sw_nothing_due(const struct sw_base *base, unsigned long now)
{
	unsigned long upto = now - base->clk;

	return sw_due_in(base, 0) > upto && sw_due_in(base, 1) > upto;
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
	unsigned long first;

	if (!sw_time_after(now, base->clk))
		return;
	if (sw_wheel_is_classic(&base->geo)) {
		if (!base->nr_pending)
			base->clk = now;
		return;
	}
	first = sw_first_due_in_by(base, now);
	base->clk += min(first, now - base->clk);
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
			base->next_expiry[half] = clk + 1;
			base->next_stale |= SW_NEXT_STALE(half);
		}
	}
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
	const struct sw_geometry *geo = &base->geo;
	unsigned int mask = sw_lvl_size(geo) - 1;
	unsigned long clk_mask = BIT(geo->clk_shift) - 1;
	unsigned long lvl_clk, first;
	unsigned int lvl;

	if (sw_time_after(base->clk, now))
		return false;
	tick->base = base;
	tick->nr_lists = 0;
	tick->cascaded = 0;
	tick->nr_cascades = 0;
	if (sw_wheel_is_classic(geo)) {
		sw_forward_clock(base, now);
		tick->clk = base->clk;
		sw_classic_collect(base, tick);
		sw_next_expired(base, base->clk);
		base->clk++;
		return true;
	}
	first = sw_first_due_in(base);
	/* A bound below the first due tick will do, unless the clock must jump */
	if (first <= now - base->clk && base->clk != now)
		first = sw_first_due_in_by(base, now);
	if (first > now - base->clk) {
		/* Nothing due up to @now */
		tick->clk = now;
		base->clk = now + 1;
		return true;
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
	if (!sw_wheel_is_classic(&base->geo) && sw_nothing_due(base, now)) {
		if (!sw_time_after(base->clk, now))
			base->clk = now + 1;
		return 0;
	}
	return sw_run_ticks(base, now, fn, arg);
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
	/* None pending: the flags say so, the ticks mean nothing */
	base->next_expiry[0] = clk;
	base->next_expiry[1] = clk;
	base->next_stale = SW_NEXT_NONE(0) | SW_NEXT_NONE(1);
	bitmap_zero(base->pending_map, SW_TOTAL_BUCKETS);
	for (i = 0; i < SW_TOTAL_BUCKETS; i++)
		INIT_HLIST_HEAD(base->vectors + i);
}
