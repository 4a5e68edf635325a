// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite shadow_wheel_spec: a wheel given by its spec.
 *
 * A named wheel's spec makes the very geometry sw_geometry_init() makes,
 * and so does the same shape spelt out; a name's shape takes overrides;
 * every bad spec is refused with a message that starts with the parameter
 * at fault and gives its range, and leaves the geometry as it was; the
 * canonical form of every geometry of the grid is the spec the tests
 * write for it (or the name), and parses back to the same geometry.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "sw_test_common.h"

/* What a geometry holds before a parse that must not change it */
#define SW_SPEC_POISON		0x5a

/* @spec, parsed at default tick rate @hz, is sw_geometry_init(@kind, @named_hz) */
static void sw_spec_expect_named(struct kunit *test, const char *spec, unsigned int hz,
				 enum sw_wheel_kind kind, unsigned int named_hz)
{
	char err[SW_SPEC_ERR_MAX] = "";
	struct sw_geometry geo, named;

	KUNIT_ASSERT_EQ(test, sw_geometry_init(&named, kind, named_hz), 0);
	KUNIT_ASSERT_EQ_MSG(test, sw_geometry_parse(&geo, spec, hz, err, sizeof(err)), 0,
			    "%s: %s", spec, err);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(&geo, &named, sizeof(geo)), 0, "%s", spec);
}

static void sw_spec_names_the_named_wheels(struct kunit *test)
{
	sw_spec_expect_named(test, "seed", 250, SW_WHEEL_SEED, 250);
	sw_spec_expect_named(test, "mainline", 1000, SW_WHEEL_MAINLINE, 1000);
	sw_spec_expect_named(test, "classic", 100, SW_WHEEL_CLASSIC, 100);
	sw_spec_expect_named(test, "mainline,hz=300", 250, SW_WHEEL_MAINLINE, 300);
	sw_spec_expect_named(test, "classic,hz=24", 250, SW_WHEEL_CLASSIC, 24);
	/* No name: mainline's shape */
	sw_spec_expect_named(test, "hz=1200", 250, SW_WHEEL_MAINLINE, 1200);
	/* A write to a file ends in a newline */
	sw_spec_expect_named(test, "seed,hz=100\n", 250, SW_WHEEL_SEED, 100);
	/* The same shapes spelt out, in any order */
	sw_spec_expect_named(test, "bits=6,shift=3,depth=9,hz=300,clamp", 100,
			     SW_WHEEL_MAINLINE, 300);
	sw_spec_expect_named(test, "bits=6,shift=3,depth=8,hz=100,clamp", 250,
			     SW_WHEEL_MAINLINE, 100);
	sw_spec_expect_named(test, "cascade,depth=8,hz=1000,shift=3,bits=5", 250,
			     SW_WHEEL_SEED, 1000);
	sw_spec_expect_named(test, "mainline,bits=5,depth=8,cascade", 250, SW_WHEEL_SEED, 250);
}

/* A name's shape, with what the spec gives instead */
static void sw_spec_overrides_a_name(struct kunit *test)
{
	char err[SW_SPEC_ERR_MAX] = "";
	struct sw_geometry geo;

	KUNIT_ASSERT_EQ(test, sw_geometry_parse(&geo, "mainline,shift=2", 250, err, sizeof(err)),
			0);
	KUNIT_EXPECT_EQ(test, geo.kind, SW_WHEEL_MAINLINE);
	KUNIT_EXPECT_EQ(test, geo.lvl_bits, 6U);
	KUNIT_EXPECT_EQ(test, geo.clk_shift, 2U);
	KUNIT_EXPECT_EQ(test, geo.depth, 9U);
	KUNIT_EXPECT_EQ(test, geo.hz, 250U);
	KUNIT_EXPECT_FALSE(test, geo.cascade);
	KUNIT_EXPECT_EQ(test, geo.lvl_start[2], 63UL << 2);
	KUNIT_EXPECT_EQ(test, geo.path, SW_ARM_ANY);

	/* Mainline's depth follows the HZ given, unless the depth is given too */
	KUNIT_ASSERT_EQ(test, sw_geometry_parse(&geo, "mainline,hz=100", 250, err, sizeof(err)),
			0);
	KUNIT_EXPECT_EQ(test, geo.depth, 8U);
	KUNIT_ASSERT_EQ(test, sw_geometry_parse(&geo, "mainline,depth=9,hz=100", 250, err,
						sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, geo.depth, 9U);

	/* Seed's shape, clamped: mainline's rule */
	KUNIT_ASSERT_EQ(test, sw_geometry_parse(&geo, "seed,clamp", 1000, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, geo.kind, SW_WHEEL_MAINLINE);
	KUNIT_EXPECT_EQ(test, geo.lvl_bits, 5U);
	KUNIT_EXPECT_EQ(test, geo.depth, 8U);
	KUNIT_EXPECT_FALSE(test, geo.cascade);
	KUNIT_EXPECT_EQ(test, geo.clamp_start, geo.lvl_start[8]);
	KUNIT_EXPECT_EQ(test, geo.path, SW_ARM_ANY);

	/* Mainline's shape, one level less, cascading: seed's rule */
	KUNIT_ASSERT_EQ(test, sw_geometry_parse(&geo, "depth=7,cascade", 1000, err, sizeof(err)),
			0);
	KUNIT_EXPECT_EQ(test, geo.kind, SW_WHEEL_SEED);
	KUNIT_EXPECT_EQ(test, geo.lvl_bits, 6U);
	KUNIT_EXPECT_TRUE(test, geo.cascade);
	KUNIT_EXPECT_EQ(test, geo.clamp_start, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, geo.revolution, 64UL << 18);
}

/**
 * struct sw_spec_bad - a spec that must be refused
 * @spec:	the spec
 * @hz:		the default tick rate it is parsed at
 * @names:	what the message starts with: the parameter at fault
 * @lo:		the lowest value of the range the message gives
 * @hi:		the highest (0: the message gives no range, or the next two
 *		give it)
 * @bits:	a depth too deep for its wheel: the wheel's bits, whose
 *		deepest the message gives as @hi
 * @shift:	and the wheel's shift (0: not such a spec)
 */
struct sw_spec_bad {
	const char	*spec;
	unsigned int	hz;
	const char	*names;
	unsigned int	lo;
	unsigned int	hi;
	unsigned int	bits;
	unsigned int	shift;
};

/*
 * The deepest wheel of @bits and @shift whose range fits, as
 * sw_geometry_parse() states it: 2^(bits + shift (depth - 1)) ticks at
 * most 2^(BITS_PER_LONG - 2)
 */
static unsigned int sw_spec_test_max_depth(unsigned int bits, unsigned int shift)
{
	return min_t(unsigned int, SW_MAX_DEPTH, (BITS_PER_LONG - 2 - bits) / shift + 1);
}

static const struct sw_spec_bad sw_spec_bad[] = {
	{ "", 250, "an empty spec" },
	{ "\n", 250, "an empty spec" },
	{ "bits=1", 250, "bits=1:", 2, SW_MAX_LVL_BITS },
	{ "bits=7", 250, "bits=7:", 2, SW_MAX_LVL_BITS },
	{ "seed,shift=0", 250, "shift=0:", 1, SW_MAX_CLK_SHIFT },
	{ "shift=9", 250, "shift=9:", 1, SW_MAX_CLK_SHIFT },
	{ "depth=1", 250, "depth=1:", 2, SW_MAX_DEPTH },
	{ "mainline,depth=10", 250, "depth=10:", 2, SW_MAX_DEPTH },
	{ "hz=23", 250, "hz=23:", SW_MIN_HZ, SW_MAX_HZ },
	{ "seed,hz=1201", 250, "hz=1201:", SW_MIN_HZ, SW_MAX_HZ },
	{ "hz=", 250, "hz=:", SW_MIN_HZ, SW_MAX_HZ },
	{ "hz=abc", 250, "hz=abc:", SW_MIN_HZ, SW_MAX_HZ },
	{ "hz=-100", 250, "hz=-100:", SW_MIN_HZ, SW_MAX_HZ },
	{ "hz=4294967396", 250, "hz=4294967396:", SW_MIN_HZ, SW_MAX_HZ },
	/* The default tick rate, when the spec gives none, must be one too */
	{ "seed", 0, "hz=0:", SW_MIN_HZ, SW_MAX_HZ },
	{ "bits=6,shift=8", 250, "depth=9:", 2, 0, 6, 8 },
	{ "bits=2,shift=8,depth=9", 250, "depth=9:", 2, 0, 2, 8 },
	{ "hz=100,hz=100", 250, "hz:" },
	{ "bits=5,depth=7,bits=5", 250, "bits:" },
	{ "mainline,seed", 250, "seed:" },
	{ "hz=250,mainline", 250, "mainline:" },
	{ "classic,bits=6", 250, "bits:" },
	{ "classic,depth=5", 250, "depth:" },
	{ "classic,cascade", 250, "cascade:" },
	{ "clamp,cascade", 250, "cascade:" },
	{ "clamp,clamp", 250, "clamp:" },
	{ "wheel", 250, "wheel:" },
	{ "Seed", 250, "Seed:" },
	{ "mainline, hz=100", 250, " hz=100:" },
	{ "bits=5,buckets=32", 250, "buckets=32:" },
	{ "mainline,,hz=100", 250, "an empty item" },
	{ "mainline,", 250, "an empty item" },
};

/* Every bad spec: refused, the parameter at fault named with its range, nothing changed */
static void sw_spec_rejects_bad_specs(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sw_spec_bad); i++) {
		const struct sw_spec_bad *bad = &sw_spec_bad[i];
		unsigned int hi = bad->shift ? sw_spec_test_max_depth(bad->bits, bad->shift) :
				  bad->hi;
		char err[SW_SPEC_ERR_MAX] = "", range[32];
		struct sw_geometry geo, before;

		memset(&geo, SW_SPEC_POISON, sizeof(geo));
		before = geo;
		KUNIT_EXPECT_EQ_MSG(test, sw_geometry_parse(&geo, bad->spec, bad->hz, err,
							    sizeof(err)), -EINVAL,
				    "\"%s\"", bad->spec);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&geo, &before, sizeof(geo)), 0, "\"%s\"",
				    bad->spec);
		KUNIT_EXPECT_EQ_MSG(test, strncmp(err, bad->names, strlen(bad->names)), 0,
				    "\"%s\" said \"%s\"", bad->spec, err);
		if (!hi)
			continue;
		snprintf(range, sizeof(range), "%u to %u", bad->lo, hi);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(err, range), "\"%s\" said \"%s\", not %s",
					  bad->spec, err, range);
	}
}

/* A message cut short stays a string; no room for one is no fault */
static void sw_spec_message_fits_any_room(struct kunit *test)
{
	struct sw_geometry geo;
	char err[8];

	memset(err, 'x', sizeof(err));
	KUNIT_EXPECT_EQ(test, sw_geometry_parse(&geo, "depth=99", 250, err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, strlen(err), sizeof(err) - 1);
	KUNIT_EXPECT_EQ(test, sw_geometry_parse(&geo, "depth=99", 250, NULL, 0), -EINVAL);
}

/* A list of specs: each wheel as its spec alone makes it, in the list's order */
static void sw_spec_list_gives_each_wheel(struct kunit *test)
{
	static const char * const spec[] = { "seed", "bits=5,shift=2,depth=9", "classic,hz=300",
					     "mainline,hz=500,cascade" };
	struct sw_geometry geos[4], one;
	char err[SW_SPEC_ERR_MAX] = "";
	unsigned int i;
	const char *list = "seed;bits=5,shift=2,depth=9;classic,hz=300;mainline,hz=500,cascade\n";

	KUNIT_ASSERT_EQ_MSG(test, sw_geometry_parse_list(geos, ARRAY_SIZE(geos), list, 250, err,
							 sizeof(err)),
			    4, "%s", err);
	for (i = 0; i < ARRAY_SIZE(spec); i++) {
		KUNIT_ASSERT_EQ(test, sw_geometry_parse(&one, spec[i], 250, NULL, 0), 0);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&geos[i], &one, sizeof(one)), 0, "%s", spec[i]);
	}
	/* Room for exactly as many as given is enough */
	KUNIT_EXPECT_EQ(test, sw_geometry_parse_list(geos, 1, "hz=1000", 250, NULL, 0), 1);
	KUNIT_EXPECT_EQ(test, geos[0].hz, 1000U);
}

/* An empty list gives no wheel and writes none */
static void sw_spec_list_may_be_empty(struct kunit *test)
{
	struct sw_geometry geo, before;

	memset(&geo, SW_SPEC_POISON, sizeof(geo));
	before = geo;
	KUNIT_EXPECT_EQ(test, sw_geometry_parse_list(&geo, 1, "", 250, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, sw_geometry_parse_list(&geo, 1, "\n", 250, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, sw_geometry_parse_list(&geo, 0, "", 250, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&geo, &before, sizeof(geo)), 0);
}

/*
 * A list with a bad spec anywhere, or more specs than room: refused whole,
 * the message giving the spec's place first, no wheel written
 */
static void sw_spec_list_refused_whole(struct kunit *test)
{
	static const struct {
		const char	*list;
		unsigned int	max;
		const char	*says;
	} bad[] = {
		{ "seed;bits=9", 4, "spec 2: bits=9: buckets per level, log2, 2 to 6" },
		{ "hz=2000;seed", 4, "spec 1: hz=2000:" },
		{ "seed;;classic", 4, "spec 2: an empty spec" },
		{ "seed;", 4, "spec 2: an empty spec" },
		{ ";seed", 4, "spec 1: an empty spec" },
		{ "seed\n;classic", 4, "spec 1: a newline inside the list" },
		{ "seed\nclassic", 4, "spec 1: a newline inside the list" },
		{ "seed;mainline;classic", 2, "spec 3: at most 2 wheels" },
		{ "seed", 0, "spec 1: at most 0 wheels" },
	};
	struct sw_geometry geos[4], before[4];
	char err[SW_SPEC_ERR_MAX], list[SW_SPEC_ERR_MAX + 8];
	unsigned int i;

	memset(geos, SW_SPEC_POISON, sizeof(geos));
	memcpy(before, geos, sizeof(geos));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		KUNIT_EXPECT_EQ_MSG(test, sw_geometry_parse_list(geos, bad[i].max, bad[i].list,
								 250, err, sizeof(err)),
				    -EINVAL, "\"%s\"", bad[i].list);
		KUNIT_EXPECT_EQ_MSG(test, strncmp(err, bad[i].says, strlen(bad[i].says)), 0,
				    "\"%s\" said \"%s\"", bad[i].list, err);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(geos, before, sizeof(geos)), 0, "\"%s\"",
				    bad[i].list);
	}

	/* A spec longer than any geometry needs: "seed;" and 128 characters */
	memset(list, 'x', sizeof(list) - 1);
	list[sizeof(list) - 1] = '\0';
	memcpy(list, "seed;", 5);
	err[0] = '\0';
	KUNIT_EXPECT_EQ(test, sw_geometry_parse_list(geos, 4, list, 250, err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "spec 2: 130 characters, at most 127");
	KUNIT_EXPECT_EQ(test, memcmp(geos, before, sizeof(geos)), 0);
}

/* The place in the list and the parser's message cut short stay a string */
static void sw_spec_list_message_fits_any_room(struct kunit *test)
{
	const char *said = "spec 1: depth=99: levels, 2 to 9";
	struct sw_geometry geo;
	char err[SW_SPEC_ERR_MAX + 1];
	size_t room;

	for (room = 0; room <= SW_SPEC_ERR_MAX; room++) {
		memset(err, 'x', sizeof(err));
		KUNIT_EXPECT_EQ(test, sw_geometry_parse_list(&geo, 1, "depth=99", 250,
							     room ? err : NULL, room), -EINVAL);
		if (room)
			KUNIT_EXPECT_EQ_MSG(test, strnlen(err, room), min(room - 1, strlen(said)),
					    "room %zu", room);
		KUNIT_EXPECT_EQ_MSG(test, err[room], 'x', "room %zu", room);
	}
}

/*
 * Every geometry of the grid: its canonical form is the name, for a named
 * shape, or the spec the tests write for it; the form parses back to the
 * same geometry whatever the default tick rate.
 */
static void sw_spec_canonical_form_round_trips(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	struct sw_base *base = sw_test_new_base(test, 0);
	const struct sw_geometry *geo = &base->geo;
	char spec[SW_SPEC_MAX], want[SW_SPEC_MAX], err[SW_SPEC_ERR_MAX] = "";
	unsigned int bits = sw_test_bits(param), depth = sw_test_depth(param);
	struct sw_geometry again;
	bool named;
	int len;

	/* A shape of the grid may be a named one */
	named = !param->bits || sw_test_shift(param) != 3 ? !param->bits :
		param->kind == SW_WHEEL_SEED ? bits == 5 && depth == 8 :
		bits == 6 && depth == (param->hz > 100 ? 9 : 8);
	if (named)
		snprintf(want, sizeof(want), "%s,hz=%u", sw_wheel_kind_name(param->kind),
			 param->hz);
	else
		sw_test_spec(param, want, sizeof(want));

	len = sw_geometry_format(geo, spec, sizeof(spec));
	KUNIT_EXPECT_STREQ(test, spec, want);
	KUNIT_EXPECT_EQ(test, len, (int)strlen(want));

	memset(&again, SW_SPEC_POISON, sizeof(again));
	KUNIT_ASSERT_EQ_MSG(test, sw_geometry_parse(&again, spec, 1000, err, sizeof(err)), 0,
			    "%s: %s", spec, err);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(&again, geo, sizeof(again)), 0, "%s", spec);
	KUNIT_ASSERT_EQ(test, sw_geometry_parse(&again, spec, 24, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(&again, geo, sizeof(again)), 0, "%s", spec);
}

/* The longest canonical spec fits in SW_SPEC_MAX; a short buffer gets a string */
static void sw_spec_format_fits(struct kunit *test)
{
	char spec[SW_SPEC_MAX], err[SW_SPEC_ERR_MAX] = "", small[8];
	struct sw_geometry geo;
	int len;

	snprintf(spec, sizeof(spec), "bits=%u,shift=1,depth=%u,hz=%u,cascade",
		 SW_MAX_LVL_BITS, SW_MAX_DEPTH, SW_MAX_HZ);
	KUNIT_ASSERT_EQ_MSG(test, sw_geometry_parse(&geo, spec, 250, err, sizeof(err)), 0,
			    "%s: %s", spec, err);
	len = sw_geometry_format(&geo, spec, sizeof(spec));
	KUNIT_EXPECT_LT(test, len, SW_SPEC_MAX);
	KUNIT_EXPECT_EQ(test, sw_geometry_format(&geo, small, sizeof(small)), len);
	KUNIT_EXPECT_EQ(test, strlen(small), sizeof(small) - 1);
	KUNIT_EXPECT_EQ(test, strncmp(small, spec, sizeof(small) - 1), 0);
}

/* Classic's shape has no parameters: any classic geometry is written as its name */
static void sw_spec_formats_classic_by_name(struct kunit *test)
{
	char spec[SW_SPEC_MAX];
	struct sw_geometry geo;

	KUNIT_ASSERT_EQ(test, sw_geometry_init(&geo, SW_WHEEL_CLASSIC, 250), 0);
	geo.revolution++;	/* no longer the named one: no rule of the spec fits it */
	sw_geometry_format(&geo, spec, sizeof(spec));
	KUNIT_EXPECT_STREQ(test, spec, "classic,hz=250");
}

SW_TEST_SUITE(sw_spec_suite, "shadow_wheel_spec",
	      KUNIT_CASE(sw_spec_names_the_named_wheels),
	      KUNIT_CASE(sw_spec_overrides_a_name),
	      KUNIT_CASE(sw_spec_rejects_bad_specs),
	      KUNIT_CASE(sw_spec_message_fits_any_room),
	      KUNIT_CASE(sw_spec_list_gives_each_wheel),
	      KUNIT_CASE(sw_spec_list_may_be_empty),
	      KUNIT_CASE(sw_spec_list_refused_whole),
	      KUNIT_CASE(sw_spec_list_message_fits_any_room),
	      KUNIT_CASE_PARAM(sw_spec_canonical_form_round_trips, sw_test_gen_grid_all_params),
	      KUNIT_CASE(sw_spec_format_fits),
	      KUNIT_CASE(sw_spec_formats_classic_by_name));

kunit_test_suites(&sw_spec_suite);

MODULE_DESCRIPTION("KUnit tests for the shadow-wheel geometry spec");
MODULE_LICENSE("GPL");
