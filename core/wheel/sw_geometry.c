// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the shapes of the wheels. The names of the wheel kinds,
 * the named geometries, and the specs that describe any other shape of
 * the non-cascading wheel: parsed, checked, listed and written back. The
 * levels these shapes give are described at the top of sw_wheel.c.
 */

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
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
 * their ranges: the core's limits (sw_geometry.h)
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

/* The hint of a half with none pending stays farther from the clock than that */
static_assert(SW_NONE_AHEAD - SW_NONE_LOOK_AHEAD >= BIT(SW_SPEC_RANGE_BITS));

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
