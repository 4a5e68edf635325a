// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite shadow_wheel_hz: jiffies as the ticks of another HZ
 * (core/wheel/sw_hz.h), for every kernel HZ the core knows and every virtual
 * HZ the mirror runs. The reference is the formula of sw_hz.h evaluated
 * in 64-bit arithmetic from the origin, checked at every jiffy of whole
 * seconds around the origin (a second repeats the pattern), far from it,
 * across the wrap of unsigned long and across 32 bits.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/prandom.h>

#include "sw_hz.h"
#include "sw_test_common.h"

struct sw_hz_param {
	unsigned int	khz;
	unsigned int	vhz;
};

static const struct sw_hz_param sw_hz_params[] = {
	{ 100, 100 }, { 100, 250 }, { 100, 1000 },
	{ 250, 100 }, { 250, 250 }, { 250, 1000 },
	{ 300, 100 }, { 300, 250 }, { 300, 1000 },
	{ 1000, 100 }, { 1000, 250 }, { 1000, 1000 },
};

static const void *sw_hz_gen_params(const void *prev, char *desc)
{
	const struct sw_hz_param *next = prev ? (const struct sw_hz_param *)prev + 1 : sw_hz_params;

	if (next >= sw_hz_params + ARRAY_SIZE(sw_hz_params))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "hz%u-as-%u", next->khz, next->vhz);
	return next;
}

/* floor (@up: ceil) of @d * vhz / khz, @d jiffies from the origin, in 64 bits */
static s64 sw_hz_ref_ticks(const struct sw_hz *h, s64 d, bool up)
{
	bool negative = d < 0;
	u64 a = negative ? -d : d;
	u64 num = a * h->vhz;

	/* Rounding a negative value down is rounding its magnitude up */
	if (up != negative)
		return d < 0 ? -(s64)div64_u64(num + h->khz - 1, h->khz) :
			       (s64)div64_u64(num + h->khz - 1, h->khz);
	return d < 0 ? -(s64)div64_u64(num, h->khz) : (s64)div64_u64(num, h->khz);
}

/* Both conversions of jiffy @j against the reference */
static void sw_hz_check(struct kunit *test, const struct sw_hz *h, unsigned long j)
{
	s64 d = (long)(j - h->j0);
	unsigned long clock = sw_hz_clock(h, j), expiry = sw_hz_expiry(h, j);

	KUNIT_ASSERT_EQ_MSG(test, clock, h->v0 + (unsigned long)sw_hz_ref_ticks(h, d, false),
			    "j %lu (origin %+lld)", j, d);
	KUNIT_ASSERT_EQ_MSG(test, expiry, h->v0 + (unsigned long)sw_hz_ref_ticks(h, d, true),
			    "j %lu (origin %+lld)", j, d);
	/* Rounded up only when the jiffy starts between two virtual ticks */
	KUNIT_ASSERT_EQ_MSG(test, expiry - clock, (unsigned long)!!(d * h->vhz % h->khz),
			    "j %lu", j);
}

/* The origins: boot, at the wrap of unsigned long, just before 32 bits wrap */
static void sw_hz_origin(struct sw_hz *h, const struct sw_hz_param *p, unsigned int i)
{
	sw_hz_init(h, p->khz, p->vhz);
	if (i == 1) {
		h->j0 = ULONG_MAX - 3 * p->khz + 7;
		h->v0 = ULONG_MAX - 3 * p->vhz + 1;
	} else if (i == 2) {
		h->j0 = (unsigned long)U32_MAX - p->khz / 2;
		h->v0 = 12345;
	}
}

#define SW_HZ_NR_ORIGINS	3

/*
 * Every jiffy of the five seconds around the origin, at the origin of
 * each kind: each jiffy on a virtual tick boundary, between two, and
 * every remainder of a second.
 */
static void sw_hz_every_jiffy_near_the_origin(struct kunit *test)
{
	const struct sw_hz_param *p = test->param_value;
	unsigned int o;
	long d;

	for (o = 0; o < SW_HZ_NR_ORIGINS; o++) {
		struct sw_hz h;

		sw_hz_origin(&h, p, o);
		for (d = -2L * p->khz - 1; d <= 3L * p->khz + 1; d++)
			sw_hz_check(test, &h, h.j0 + d);
	}
}

/* Far from the origin, both ways, on and around whole seconds */
static void sw_hz_far_from_the_origin(struct kunit *test)
{
	const struct sw_hz_param *p = test->param_value;
	static const long secs[] = { 1, 59, 3600, 86400, 49L * 86400, 1000000 };
	unsigned int o, s;
	long r;

	for (o = 0; o < SW_HZ_NR_ORIGINS; o++) {
		struct sw_hz h;

		sw_hz_origin(&h, p, o);
		for (s = 0; s < ARRAY_SIZE(secs); s++) {
			for (r = -1; r <= 1; r++) {
				sw_hz_check(test, &h, h.j0 + secs[s] * p->khz + r);
				sw_hz_check(test, &h, h.j0 - secs[s] * p->khz + r);
			}
		}
	}
}

/* At the kernel's own HZ both clocks are jiffies themselves */
static void sw_hz_identity_at_the_kernel_hz(struct kunit *test)
{
	const struct sw_hz_param *p = test->param_value;
	static const unsigned long js[] = {
		0, 1, 299, 4294667296UL, U32_MAX, ULONG_MAX, ULONG_MAX - 1, LONG_MAX,
	};
	struct sw_hz h;
	unsigned int i;
	long d;

	if (p->khz != p->vhz)
		return;
	sw_hz_init(&h, p->khz, p->vhz);
	KUNIT_EXPECT_EQ(test, h.j0, h.v0);
	for (i = 0; i < ARRAY_SIZE(js); i++) {
		for (d = -2; d <= 2; d++) {
			KUNIT_EXPECT_EQ(test, sw_hz_clock(&h, js[i] + d), js[i] + d);
			KUNIT_EXPECT_EQ(test, sw_hz_expiry(&h, js[i] + d), js[i] + d);
		}
	}
}

/*
 * The clock goes up by floor() or ceil() of vhz / khz a jiffy and by
 * exactly vhz a second, never backwards, also where jiffies wrap: from
 * boot through the wrap of 32 bits, and through the wrap of unsigned long.
 */
static void sw_hz_clock_steps_through_the_wrap(struct kunit *test)
{
	const struct sw_hz_param *p = test->param_value;
	unsigned long lo = p->vhz / p->khz, hi = (p->vhz + p->khz - 1) / p->khz;
	static const unsigned long starts[] = { 0, ULONG_MAX - 1000 };
	unsigned int s, i;

	for (s = 0; s < ARRAY_SIZE(starts) + 1; s++) {
		struct sw_hz h;
		unsigned long j, prev;

		sw_hz_init(&h, p->khz, p->vhz);
		/* From boot (INITIAL_JIFFIES), else the origin moved near the start */
		j = s ? starts[s - 1] : h.j0;
		if (s) {
			h.j0 = j - p->khz;
			h.v0 = 7;
		}
		prev = sw_hz_clock(&h, j);
		for (i = 0; i < 301 * p->khz + 2000; i++) {
			unsigned long now = sw_hz_clock(&h, j + 1);

			KUNIT_ASSERT_GE_MSG(test, now - prev, lo, "at j %lu", j);
			KUNIT_ASSERT_LE_MSG(test, now - prev, hi, "at j %lu", j);
			KUNIT_ASSERT_EQ_MSG(test, sw_hz_clock(&h, j + 1 + p->khz) - now,
					    (unsigned long)p->vhz, "at j %lu", j);
			prev = now;
			j++;
			/* The mirror rebases on every event; the result must not notice */
			if (!(i % 997))
				sw_hz_rebase(&h, j);
		}
	}
}

/* A virtual expiry never begins before the real one, and is the first that does not */
static void sw_hz_expiry_never_early(struct kunit *test)
{
	const struct sw_hz_param *p = test->param_value;
	struct rnd_state rnd;
	struct sw_hz h;
	unsigned int i;

	sw_hz_init(&h, p->khz, p->vhz);
	prandom_seed_state(&rnd, p->khz * 1000 + p->vhz);
	for (i = 0; i < 100000; i++) {
		long d = prandom_u32_state(&rnd) % (1U << 30) - (1L << 29);
		unsigned long v = sw_hz_expiry(&h, h.j0 + d);
		s64 vt = (long)(v - h.v0);

		/* Virtual tick vt begins at vt / vhz seconds, jiffy d at d / khz */
		KUNIT_ASSERT_GE_MSG(test, vt * p->khz, (s64)d * p->vhz, "d %ld", d);
		KUNIT_ASSERT_LT_MSG(test, (vt - 1) * p->khz, (s64)d * p->vhz, "d %ld", d);
	}
}

/* Rebasing moves the origin in whole seconds and changes no result */
static void sw_hz_rebase_changes_nothing(struct kunit *test)
{
	const struct sw_hz_param *p = test->param_value;
	struct rnd_state rnd;
	unsigned int i, o;

	prandom_seed_state(&rnd, 0x4e8a5e);
	for (o = 0; o < SW_HZ_NR_ORIGINS; o++) {
		struct sw_hz h, moved;
		unsigned long now;

		sw_hz_origin(&h, p, o);
		moved = h;
		now = h.j0;
		for (i = 0; i < 2000; i++) {
			unsigned long j = now + prandom_u32_state(&rnd) % 100000 - 50000;

			now += prandom_u32_state(&rnd) % (7 * p->khz);
			sw_hz_rebase(&moved, now);
			KUNIT_ASSERT_EQ(test, (moved.j0 - h.j0) % p->khz, 0UL);
			KUNIT_ASSERT_EQ(test, (moved.v0 - h.v0) / p->vhz,
					(moved.j0 - h.j0) / p->khz);
			KUNIT_ASSERT_EQ(test, (moved.v0 - h.v0) % p->vhz, 0UL);
			KUNIT_ASSERT_LT(test, now - moved.j0, (unsigned long)p->khz);
			KUNIT_ASSERT_EQ(test, sw_hz_clock(&moved, j), sw_hz_clock(&h, j));
			KUNIT_ASSERT_EQ(test, sw_hz_expiry(&moved, j), sw_hz_expiry(&h, j));
		}
		/* Never backwards */
		h = moved;
		sw_hz_rebase(&moved, now - 5 * p->khz);
		KUNIT_EXPECT_EQ(test, moved.j0, h.j0);
	}
}

/* Far expiries are clamped so their virtual delta stays within LONG_MAX / 2 */
static void sw_hz_far_expiry_is_clamped(struct kunit *test)
{
	const struct sw_hz_param *p = test->param_value;
	unsigned long most, now, vnow;
	struct sw_hz h;

	sw_hz_init(&h, p->khz, p->vhz);
	most = sw_hz_max_delta(&h);
	now = h.j0 + 12345;
	vnow = sw_hz_clock(&h, now);
	KUNIT_EXPECT_LE(test, most, (unsigned long)LONG_MAX >> 1);
	KUNIT_EXPECT_EQ(test, sw_hz_expiry_at(&h, now + most, now), sw_hz_expiry(&h, now + most));
	KUNIT_EXPECT_EQ(test, sw_hz_expiry_at(&h, now + most + 1, now),
			sw_hz_expiry(&h, now + most));
	KUNIT_EXPECT_EQ(test, sw_hz_expiry_at(&h, now + LONG_MAX, now),
			sw_hz_expiry(&h, now + most));
	KUNIT_EXPECT_LE(test, sw_hz_expiry_at(&h, now + LONG_MAX, now) - vnow,
			((unsigned long)LONG_MAX >> 1) + 2);
	/* The largest that fits: the real delta or the virtual one reaches LONG_MAX / 2 */
	KUNIT_EXPECT_GE(test, max(most, sw_hz_expiry(&h, now + most) - vnow),
			((unsigned long)LONG_MAX >> 1) - 2000);
	/* The past is not clamped */
	KUNIT_EXPECT_EQ(test, sw_hz_expiry_at(&h, now - 1000, now), sw_hz_expiry(&h, now - 1000));
}

SW_TEST_SUITE(sw_hz_suite, "shadow_wheel_hz",
	      KUNIT_CASE_PARAM(sw_hz_every_jiffy_near_the_origin, sw_hz_gen_params),
	      KUNIT_CASE_PARAM(sw_hz_far_from_the_origin, sw_hz_gen_params),
	      KUNIT_CASE_PARAM(sw_hz_identity_at_the_kernel_hz, sw_hz_gen_params),
	      KUNIT_CASE_PARAM(sw_hz_clock_steps_through_the_wrap, sw_hz_gen_params),
	      KUNIT_CASE_PARAM(sw_hz_expiry_never_early, sw_hz_gen_params),
	      KUNIT_CASE_PARAM(sw_hz_rebase_changes_nothing, sw_hz_gen_params),
	      KUNIT_CASE_PARAM(sw_hz_far_expiry_is_clamped, sw_hz_gen_params));

kunit_test_suites(&sw_hz_suite);
