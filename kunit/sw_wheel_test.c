// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for the shadow-wheel core: each case states one part of the
 * contract written at the top of core/wheel/sw_wheel.c and checks it for both
 * non-cascading geometries (the classic wheel too, where the rule is
 * shared) at HZ 100, 250 and 1000, from clocks at 0, INITIAL_JIFFIES and
 * around the wrap of unsigned long.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "sw_test_common.h"

/*
 * Suite shadow_wheel_geometry: the levels are the ones tabled, and a timer
 * goes to the lowest level whose range covers its delta.
 */

static void sw_geometry_matches_tables(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	struct sw_base *base = sw_test_new_base(test, 0);
	const struct sw_geometry *geo = &base->geo;
	unsigned int lvl;

	KUNIT_ASSERT_EQ(test, geo->depth, sw_test_depth(param));
	for (lvl = 0; lvl <= geo->depth; lvl++)
		KUNIT_EXPECT_EQ_MSG(test, geo->lvl_start[lvl], sw_test_lvl_start(param, lvl),
				    "level %u", lvl);
	KUNIT_EXPECT_EQ(test, geo->lvl_bits, sw_test_bits(param));
	KUNIT_EXPECT_EQ(test, geo->clk_shift, sw_test_shift(param));
	for (lvl = 0; lvl < geo->depth; lvl++)
		KUNIT_EXPECT_EQ(test, sw_lvl_gran(geo, lvl), sw_test_gran(param, lvl));
	KUNIT_EXPECT_EQ(test, geo->cascade, param->kind == SW_WHEEL_SEED);
	if (!geo->cascade)
		KUNIT_EXPECT_EQ(test, geo->timeout_max, sw_test_timeout_max(param));
	KUNIT_EXPECT_EQ(test, geo->clamp_start,
			geo->cascade ? ULONG_MAX : sw_test_cutoff(param));
}

static void sw_geometry_rejects_bad_input(struct kunit *test)
{
	struct sw_geometry geo, before;

	memset(&geo, 0x5a, sizeof(geo));
	before = geo;
	KUNIT_EXPECT_EQ(test, sw_geometry_init(&geo, SW_WHEEL_NR_KINDS, 250), -EINVAL);
	KUNIT_EXPECT_EQ(test, sw_geometry_init(&geo, SW_WHEEL_SEED, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sw_geometry_init(&geo, SW_WHEEL_SEED, SW_MIN_HZ - 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, sw_geometry_init(&geo, SW_WHEEL_MAINLINE, SW_MAX_HZ + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(&geo, &before, sizeof(geo)), 0);
	KUNIT_EXPECT_EQ(test, sw_geometry_init(&geo, SW_WHEEL_MAINLINE, 300), 0);
	KUNIT_EXPECT_EQ(test, geo.depth, 9U);
}

/* Arm one timer at @delta and check its placement against the contract */
static void sw_test_check_placement(struct kunit *test, struct sw_base *base,
				    unsigned long delta, bool deferrable)
{
	const struct sw_test_param *param = test->param_value;
	unsigned long clk = base->clk;
	struct sw_test_expect exp;
	struct sw_timer timer;
	unsigned int half = deferrable ? SW_DEFERRABLE_OFFSET : 0;

	sw_timer_init(&timer, deferrable ? SW_TIMER_DEFERRABLE : 0);
	sw_test_expect(param, clk, clk + delta, &exp);
	KUNIT_EXPECT_EQ(test, sw_modify(base, &timer, clk + delta), SW_MOD_ARMED);

	KUNIT_EXPECT_EQ_MSG(test, sw_timer_level(base, &timer), exp.level, "delta %lu", delta);
	KUNIT_EXPECT_EQ_MSG(test, timer.bucket_expiry, exp.run_at, "delta %lu", delta);
	/* Its bucket in the level: the one that comes due at that tick */
	KUNIT_EXPECT_EQ_MSG(test, sw_timer_bucket(base, &timer),
			    (exp.run_at / sw_test_gran(param, exp.level)) &
			    (sw_lvl_nr_buckets(&base->geo, exp.level) - 1), "delta %lu", delta);
	KUNIT_EXPECT_EQ_MSG(test, !!(timer.flags & SW_TIMER_CLAMPED), exp.clamped,
			    "delta %lu", delta);
	KUNIT_EXPECT_EQ_MSG(test, !!(timer.flags & SW_TIMER_PARKED), exp.parked,
			    "delta %lu", delta);
	KUNIT_EXPECT_FALSE(test, timer.flags & SW_TIMER_OVERDUE);
	KUNIT_EXPECT_GE(test, timer.idx, half + sw_lvl_first_bucket(&base->geo, exp.level));
	KUNIT_EXPECT_LT(test, timer.idx, half + sw_lvl_first_bucket(&base->geo, exp.level + 1));
	KUNIT_EXPECT_TRUE(test, test_bit(timer.idx, base->pending_map));

	KUNIT_EXPECT_TRUE(test, sw_cancel(base, &timer));
	KUNIT_EXPECT_FALSE(test, test_bit(timer.idx, base->pending_map));
}

static void sw_placement_at_level_boundaries(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	unsigned int c, lvl, depth = sw_test_depth(param);

	for (c = 0; c < SW_TEST_NR_CLOCKS; c++) {
		struct sw_base *base = sw_test_new_base(test, sw_test_clock(param, c));

		for (lvl = 0; lvl < depth; lvl++) {
			unsigned long start = sw_test_lvl_start(param, lvl);
			unsigned long end = sw_test_lvl_start(param, lvl + 1) - 1;

			if (lvl)
				sw_test_check_placement(test, base, start - 1, false);
			sw_test_check_placement(test, base, start, false);
			sw_test_check_placement(test, base, start + 1, false);
			sw_test_check_placement(test, base, end, false);
			sw_test_check_placement(test, base, end, true);
		}
		/* At and past the cutoff: parked in the last level, or clamped */
		sw_test_check_placement(test, base, sw_test_cutoff(param), false);
		sw_test_check_placement(test, base, sw_test_cutoff(param) + 1, true);
		sw_test_check_placement(test, base, sw_test_cutoff(param) * 5, false);
	}
}

/*
 * The shortest and the longest delta of every bit length: the wheel reads
 * a level off the length first, so both ends of every length must come
 * out at the level the tables give, on all three wheels, and the
 * non-cascading ones must place them there.
 */
static void sw_level_at_every_bit_length(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	unsigned int c, bits;

	for (c = 0; c < SW_TEST_NR_CLOCKS; c++) {
		struct sw_base *base = sw_test_new_base(test, sw_test_clock(param, c));

		KUNIT_EXPECT_EQ(test, sw_delta_level(&base->geo, 0), 0U);
		for (bits = 1; bits < BITS_PER_LONG; bits++) {
			unsigned long shortest = 1UL << (bits - 1);
			unsigned long longest = (shortest << 1) - 1;

			KUNIT_EXPECT_EQ_MSG(test, sw_delta_level(&base->geo, shortest),
					    sw_test_level(param, shortest), "bits %u", bits);
			KUNIT_EXPECT_EQ_MSG(test, sw_delta_level(&base->geo, longest),
					    sw_test_level(param, longest), "bits %u", bits);
			if (param->kind == SW_WHEEL_CLASSIC)
				continue;
			sw_test_check_placement(test, base, shortest, false);
			sw_test_check_placement(test, base, longest, true);
		}
	}
}

static void sw_placement_of_past_expiry(struct kunit *test)
{
	struct sw_base *base = sw_test_new_base(test, 1000);
	struct sw_test_timer *t = sw_test_timers(test, 1);

	sw_modify(base, &t->timer, 990);
	KUNIT_EXPECT_EQ(test, sw_timer_level(base, &t->timer), 0U);
	KUNIT_EXPECT_EQ(test, t->timer.bucket_expiry, 1000UL);
	KUNIT_EXPECT_TRUE(test, t->timer.flags & SW_TIMER_OVERDUE);
	/* Due at the very next tick processed */
	KUNIT_EXPECT_EQ(test, sw_run(base, 1000, sw_test_record, NULL), 1UL);
	KUNIT_EXPECT_EQ(test, t->expired_at, 1000UL);
}

/*
 * sw_wheel_place() answers, for any clock, what sw_modify() does at that
 * clock: bucket, level, tick and how, without touching a wheel.
 */
static void sw_place_is_what_modify_does(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	struct rnd_state rnd;
	unsigned int c, i;

	prandom_seed_state(&rnd, 0x91ace);
	for (c = 0; c < SW_TEST_NR_CLOCKS; c++) {
		struct sw_base *base = sw_test_new_base(test, sw_test_clock(param, c));

		for (i = 0; i < 2000; i++) {
			u32 r = prandom_u32_state(&rnd);
			unsigned long delta = (r >> 6) % (2UL << (r % 32)) - 100;
			unsigned int flags = r & 1 << 5 ? SW_TIMER_DEFERRABLE : 0;
			unsigned long expires = base->clk + delta;
			struct sw_place place;
			struct sw_timer timer;

			sw_timer_init(&timer, flags);
			sw_wheel_place(&base->geo, base->clk, expires, flags, &place);
			KUNIT_ASSERT_EQ(test, sw_modify(base, &timer, expires), SW_MOD_ARMED);
			KUNIT_EXPECT_EQ_MSG(test, place.idx, timer.idx, "delta %ld", (long)delta);
			KUNIT_EXPECT_EQ(test, place.level, sw_timer_level(base, &timer));
			KUNIT_EXPECT_EQ(test, place.bucket_expiry, timer.bucket_expiry);
			KUNIT_EXPECT_EQ(test, place.how, timer.flags & SW_TIMER_PLACEMENT);
			KUNIT_ASSERT_TRUE(test, sw_cancel(base, &timer));
		}
	}
}

SW_TEST_SUITE(sw_geometry_suite, "shadow_wheel_geometry",
	      KUNIT_CASE_PARAM(sw_geometry_matches_tables, sw_test_gen_grid_params),
	      KUNIT_CASE(sw_geometry_rejects_bad_input),
	      KUNIT_CASE_PARAM(sw_placement_at_level_boundaries, sw_test_gen_grid_params),
	      KUNIT_CASE_PARAM(sw_level_at_every_bit_length, sw_test_gen_grid_all_params),
	      KUNIT_CASE_PARAM(sw_placement_of_past_expiry, sw_test_gen_grid_params),
	      KUNIT_CASE_PARAM(sw_place_is_what_modify_does, sw_test_gen_grid_all_params));

/*
 * Suite shadow_wheel_expiry: a timer never runs before its expiry tick
 * plus one and never after its expiry tick plus its level's granularity,
 * whether the wheel runs every tick or catches up a long gap at once.
 */

#define SW_DENSE_DELTAS		4097	/* every delta 0 .. 4096 */
#define SW_SWEEP_MAX_ORDER	34	/* log-spaced up to 2^34, beyond every level */
#define SW_SWEEP_PER_ORDER	5
#define SW_SWEEP_DELTAS		((SW_SWEEP_MAX_ORDER - 11) * SW_SWEEP_PER_ORDER)
#define SW_EXPIRY_TIMERS	(SW_DENSE_DELTAS + SW_SWEEP_DELTAS)

/*
 * The timers of a sweep on @param's wheel: log-spaced up to 2^34, beyond
 * every level; on a cascading wheel of the grid, up to 2^4 revolutions of
 * its last level (a timer cascades once a revolution, and the smallest
 * shapes come round every 2^14 ticks)
 */
static unsigned int sw_expiry_nr(const struct sw_test_param *param)
{
	unsigned int order = SW_SWEEP_MAX_ORDER;

	if (param->bits && param->kind == SW_WHEEL_SEED)
		order = min_t(unsigned int, order, ilog2(sw_test_revolution(param)) + 4);
	return SW_DENSE_DELTAS + (order - 11) * SW_SWEEP_PER_ORDER;
}

static unsigned long sw_expiry_delta(unsigned int i)
{
	unsigned int order, k;
	unsigned long p;

	if (i < SW_DENSE_DELTAS)
		return i;
	i -= SW_DENSE_DELTAS;
	order = 12 + i / SW_SWEEP_PER_ORDER;
	k = i % SW_SWEEP_PER_ORDER;
	p = 1UL << order;
	/* Around each power of two and in between: 2^n - 1, 2^n, 2^n + 1, 1.25 2^n, 1.5 2^n + 7 */
	switch (k) {
	case 0:
		return p - 1;
	case 1:
		return p;
	case 2:
		return p + 1;
	case 3:
		return p + p / 4;
	default:
		return p + p / 2 + 7;
	}
}

/*
 * Checks the contract for every timer armed by sw_test_arm_sweep(): run at
 * exactly the tabled tick, which is never before the expiry plus one and
 * at most the level's granularity after it (clamped ones relative to the
 * clamped expiry, and never before it).
 */
static void sw_test_check_sweep(struct kunit *test, struct sw_test_timer *t, unsigned long clk0)
{
	const struct sw_test_param *param = test->param_value;
	unsigned int i;

	for (i = 0; i < sw_expiry_nr(param); i++) {
		unsigned long expires = clk0 + sw_expiry_delta(i);
		unsigned long late, gran;
		struct sw_test_expect exp;

		sw_test_expect(param, clk0, expires, &exp);
		KUNIT_ASSERT_EQ_MSG(test, t[i].expired, 1U, "delta %lu", sw_expiry_delta(i));
		KUNIT_EXPECT_EQ_MSG(test, t[i].expired_at, exp.run_at, "delta %lu",
				    sw_expiry_delta(i));
		if (exp.clamped)
			expires = clk0 + sw_test_timeout_max(param);
		late = t[i].expired_at - expires;
		gran = sw_test_gran(param, exp.level);
		KUNIT_EXPECT_TRUE_MSG(test, late >= 1 && late <= gran,
				      "delta %lu level %u late %ld gran %lu",
				      sw_expiry_delta(i), exp.level, (long)late, gran);
	}
}

static struct sw_test_timer *sw_test_arm_sweep(struct kunit *test, struct sw_base *base)
{
	struct sw_test_timer *t = sw_test_timers(test, SW_EXPIRY_TIMERS);
	unsigned int i;

	for (i = 0; i < sw_expiry_nr(test->param_value); i++)
		sw_modify(base, &t[i].timer, base->clk + sw_expiry_delta(i));
	return t;
}

/*
 * From each start clock: arm the sweep, run the wheel a tick at a time
 * over its first @tick_by_tick ticks, then on past the last timer at once,
 * and hold every timer to the contract.
 */
static void sw_expiry_sweep(struct kunit *test, unsigned long tick_by_tick)
{
	const struct sw_test_param *param = test->param_value;
	unsigned int c;

	for (c = 0; c < SW_TEST_NR_CLOCKS; c++) {
		unsigned long clk0 = sw_test_clock(param, c);
		struct sw_base *base = sw_test_new_base(test, clk0);
		struct sw_test_timer *t = sw_test_arm_sweep(test, base);
		unsigned long now;

		for (now = clk0; now != clk0 + tick_by_tick; now++)
			sw_run(base, now, sw_test_record, NULL);
		sw_run(base, clk0 + (1UL << (SW_SWEEP_MAX_ORDER + 1)), sw_test_record, NULL);
		sw_test_check_sweep(test, t, clk0);
	}
}

/* Tick by tick past the dense part, then on to the end at once */
static void sw_expiry_ticking_every_tick(struct kunit *test)
{
	sw_expiry_sweep(test, SW_DENSE_DELTAS + 1024);
}

static void sw_expiry_catching_up_at_once(struct kunit *test)
{
	sw_expiry_sweep(test, 0);
}

/* Deferrable timers follow the same contract: only wakeups differ */
static void sw_expiry_of_deferrable_timers(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	unsigned long clk0 = sw_test_clock(param, 1);
	struct sw_base *base = sw_test_new_base(test, clk0);
	struct sw_test_timer *t = sw_test_timers(test, SW_EXPIRY_TIMERS);
	unsigned int i;

	for (i = 0; i < sw_expiry_nr(param); i++) {
		sw_timer_init(&t[i].timer, SW_TIMER_DEFERRABLE);
		sw_modify(base, &t[i].timer, clk0 + sw_expiry_delta(i));
	}
	sw_run(base, clk0 + (1UL << (SW_SWEEP_MAX_ORDER + 1)), sw_test_record, NULL);
	sw_test_check_sweep(test, t, clk0);
}

SW_TEST_SUITE(sw_expiry_suite, "shadow_wheel_expiry",
	      KUNIT_CASE_PARAM(sw_expiry_ticking_every_tick, sw_test_gen_grid_params),
	      KUNIT_CASE_PARAM(sw_expiry_catching_up_at_once, sw_test_gen_grid_params),
	      KUNIT_CASE_PARAM(sw_expiry_of_deferrable_timers, sw_test_gen_grid_params));

/*
 * Suite shadow_wheel_next_expiry: the next expiry, found from the bitmap,
 * is the brute-force minimum of the run ticks of the pending
 * non-deferrable timers; deferrable timers never set it.
 */

#define SW_NEXT_TIMERS		2000
#define SW_NEXT_ROUNDS		300

/* Mostly near deltas, some on every level, all within the wheel's range */
static unsigned long sw_test_random_delta(const struct sw_test_param *param,
					  struct rnd_state *rnd)
{
	u32 r = prandom_u32_state(rnd);
	unsigned int order = r % ilog2(sw_test_cutoff(param));

	return (prandom_u32_state(rnd) | (u64)prandom_u32_state(rnd) << 32) % (2UL << order);
}

static void sw_next_expiry_is_brute_force_minimum(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	struct rnd_state rnd;
	unsigned int c;

	prandom_seed_state(&rnd, 42);
	for (c = 0; c < SW_TEST_NR_CLOCKS; c++) {
		unsigned long clk0 = sw_test_clock(param, c);
		struct sw_base *base = sw_test_new_base(test, clk0);
		struct sw_test_timer *t = sw_test_timers(test, SW_NEXT_TIMERS);
		unsigned int i, round;

		for (i = 0; i < SW_NEXT_TIMERS; i++) {
			unsigned long expires = clk0 + sw_test_random_delta(param, &rnd);
			struct sw_test_expect exp;

			sw_timer_init(&t[i].timer, i % 3 ? 0 : SW_TIMER_DEFERRABLE);
			sw_modify(base, &t[i].timer, expires);
			/* The brute force relies on bucket_expiry: hold it to the contract */
			sw_test_expect(param, clk0, expires, &exp);
			KUNIT_ASSERT_EQ(test, t[i].timer.bucket_expiry, exp.run_at);
		}

		for (round = 0; round < SW_NEXT_ROUNDS; round++) {
			unsigned long next, brute;
			bool found = sw_next_expiry(base, &next);
			unsigned int early = 0;

			KUNIT_ASSERT_EQ(test, found,
					sw_test_brute_next(t, SW_NEXT_TIMERS, base->clk, &brute));
			if (!found)
				break;
			KUNIT_ASSERT_EQ_MSG(test, next, brute, "round %u", round);
			/* No non-deferrable timer runs before it; then cancel a few and go there */
			sw_run(base, next - 1, sw_test_record, &early);
			KUNIT_ASSERT_EQ(test, early, 0U);
			for (i = prandom_u32_state(&rnd) % 64; i < SW_NEXT_TIMERS; i += 97)
				sw_cancel(base, &t[i].timer);
			sw_run(base, next, sw_test_record, NULL);
		}
	}
}

static void sw_next_expiry_ignores_deferrable(struct kunit *test)
{
	struct sw_base *base = sw_test_new_base(test, 5);
	struct sw_test_timer *t = sw_test_timers(test, 3);
	unsigned long next;

	KUNIT_EXPECT_FALSE(test, sw_next_expiry(base, &next));

	sw_timer_init(&t[0].timer, SW_TIMER_DEFERRABLE);
	sw_timer_init(&t[1].timer, SW_TIMER_DEFERRABLE);
	sw_modify(base, &t[0].timer, 10);
	sw_modify(base, &t[1].timer, 5000);
	KUNIT_EXPECT_FALSE(test, sw_next_expiry(base, &next));

	sw_modify(base, &t[2].timer, 100);
	KUNIT_ASSERT_TRUE(test, sw_next_expiry(base, &next));
	KUNIT_EXPECT_EQ(test, next, t[2].timer.bucket_expiry);

	/* Deferrable timers still expire whenever the wheel runs past them */
	KUNIT_EXPECT_EQ(test, sw_run(base, 100000, sw_test_record, NULL), 3UL);
	KUNIT_EXPECT_EQ(test, t[0].expired_at, 11UL);
	KUNIT_EXPECT_FALSE(test, sw_next_expiry(base, &next));
}

SW_TEST_SUITE(sw_next_expiry_suite, "shadow_wheel_next_expiry",
	      KUNIT_CASE_PARAM(sw_next_expiry_is_brute_force_minimum, sw_test_gen_grid_params),
	      KUNIT_CASE_PARAM(sw_next_expiry_ignores_deferrable, sw_test_gen_params));

/*
 * Suite shadow_wheel_far: timers beyond the last level's range. The seed
 * wheel cascades them, once a revolution of the last level, and they still
 * expire within its granularity; mainline clamps them.
 */

/* One timer @delta ticks beyond a wheel started at @clk0, run until it expires */
static void sw_test_far_timer(struct kunit *test, unsigned long clk0, unsigned long delta)
{
	const struct sw_test_param *param = test->param_value;
	unsigned int last = sw_test_depth(param) - 1;
	unsigned long revolution = sw_test_revolution(param);
	struct sw_base *base = sw_test_new_base(test, clk0);
	unsigned long expires = clk0 + delta;
	unsigned long cascades = 0, run_at = 0, next;
	struct sw_test_expect exp;
	struct sw_timer timer;
	struct sw_tick tick;
	unsigned int fired = 0, bucket, i;

	sw_test_expect(param, clk0, expires, &exp);
	sw_timer_init(&timer, 0);
	sw_modify(base, &timer, expires);
	KUNIT_EXPECT_EQ(test, sw_timer_level(base, &timer), last);
	bucket = sw_timer_bucket(base, &timer);

	/* The first wakeup is its bucket's first turn */
	KUNIT_ASSERT_TRUE(test, sw_next_expiry(base, &next));
	KUNIT_EXPECT_EQ(test, next, exp.run_at - (exp.run_at - clk0) / revolution * revolution);

	/* Up to past the latest the contract allows */
	while (sw_collect_tick(base, expires + sw_test_gran(param, last) + (1UL << 30), &tick)) {
		cascades += tick.cascaded;
		/* Each cascade is reported: its own bucket, where it goes back */
		KUNIT_EXPECT_EQ(test, tick.nr_cascades, tick.cascaded);
		for (i = 0; i < tick.nr_cascades; i++) {
			unsigned int idx = tick.cascades[i].idx;

			KUNIT_EXPECT_EQ(test, sw_idx_level(&base->geo, idx), last);
			KUNIT_EXPECT_EQ(test, sw_idx_bucket(&base->geo, idx), bucket);
			KUNIT_EXPECT_EQ(test, tick.cascades[i].moved, 1U);
			KUNIT_EXPECT_EQ(test, timer.idx, idx);
		}
		while (sw_tick_pop(&tick)) {
			run_at = tick.clk;
			fired++;
		}
	}
	KUNIT_ASSERT_EQ(test, fired, 1U);
	KUNIT_EXPECT_EQ(test, run_at, exp.run_at);
	if (param->kind == SW_WHEEL_SEED) {
		KUNIT_EXPECT_FALSE(test, exp.clamped);
		KUNIT_EXPECT_GT(test, run_at - expires, 0UL);
		KUNIT_EXPECT_LE(test, run_at - expires, sw_test_gran(param, last));
		/* One cascade per revolution of the last level it waited */
		KUNIT_EXPECT_EQ_MSG(test, cascades, (exp.run_at - clk0) / revolution,
				    "delta %lu", delta);
	} else {
		KUNIT_EXPECT_EQ(test, exp.clamped, delta >= sw_test_cutoff(param));
		KUNIT_EXPECT_EQ(test, !!(timer.flags & SW_TIMER_CLAMPED), exp.clamped);
		KUNIT_EXPECT_EQ(test, cascades, 0UL);
	}
}

static void sw_far_timers_cascade_or_clamp(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	unsigned long cutoff = sw_test_cutoff(param);
	/* Far, but no more than 2^14 revolutions of a seed wheel's last level */
	const unsigned long deltas[] = {
		cutoff - 1, cutoff, cutoff + 1, 3 * cutoff + 12345,
		min(1UL << 40, sw_test_revolution(param) << 14),
	};
	unsigned int c, i;

	for (c = 0; c < SW_TEST_NR_CLOCKS; c++)
		for (i = 0; i < ARRAY_SIZE(deltas); i++)
			sw_test_far_timer(test, sw_test_clock(param, c), deltas[i]);
}

static void sw_far_modify_back_into_range_unclamps(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	struct sw_base *base = sw_test_new_base(test, 0);
	struct sw_test_timer *t = sw_test_timers(test, 1);
	struct sw_test_expect exp;

	/* 100 ticks: level 1 of the named wheels, 104 */
	sw_test_expect(param, 0, 100, &exp);
	sw_modify(base, &t->timer, sw_test_cutoff(param) * 2);
	KUNIT_EXPECT_EQ(test, !!(t->timer.flags & SW_TIMER_CLAMPED),
			param->kind == SW_WHEEL_MAINLINE);
	KUNIT_EXPECT_EQ(test, sw_modify(base, &t->timer, 100), SW_MOD_REQUEUED);
	KUNIT_EXPECT_FALSE(test, t->timer.flags & SW_TIMER_CLAMPED);
	KUNIT_EXPECT_EQ(test, sw_run(base, 1UL << 36, sw_test_record, NULL), 1UL);
	KUNIT_EXPECT_EQ(test, t->expired_at, exp.run_at);
}

/*
 * A sweep over every level and beyond the range: the first, a middle and
 * the last delta of each level and, past the last one, the cutoff and
 * deltas that wait one to four revolutions of the last level (the seed
 * wheel cascades those). The classic wheel processes every tick while it
 * holds timers, so its sweep ends at level 2 (2^20 ticks); the levels
 * above are covered by shadow_wheel_classic.
 */
#define SW_SWEEP_MAX_DELTAS	(3 * 9 + 4)
#define SW_SWEEP_CLASSIC_DEPTH	3

static unsigned int sw_test_sweep_deltas(const struct sw_test_param *param,
					 unsigned long deltas[SW_SWEEP_MAX_DELTAS])
{
	bool classic = param->kind == SW_WHEEL_CLASSIC;
	unsigned int depth = classic ? SW_SWEEP_CLASSIC_DEPTH : sw_test_depth(param);
	unsigned long cutoff = sw_test_cutoff(param);
	unsigned int lvl, n = 0;

	for (lvl = 0; lvl < depth; lvl++) {
		unsigned long first = sw_test_lvl_start(param, lvl);
		unsigned long last = sw_test_lvl_start(param, lvl + 1) - 1;

		deltas[n++] = first;
		deltas[n++] = first + (last - first) / 2;
		deltas[n++] = last;
	}
	if (!classic) {
		deltas[n++] = cutoff;
		deltas[n++] = cutoff + cutoff / 3;
		deltas[n++] = 3 * cutoff + 12345;
		deltas[n++] = 5 * cutoff + 7;
	}
	return n;
}

/*
 * Arm the sweep's timers, deferrable and not, from each start clock, run
 * the wheel past the last of them with sw_run() or tick by tick, and hold
 * every timer to the contract: run once, on the tick it names.
 */
static void sw_test_sweep(struct kunit *test, bool tick_by_tick)
{
	const struct sw_test_param *param = test->param_value;
	unsigned long revolution = sw_test_revolution(param);
	unsigned long deltas[SW_SWEEP_MAX_DELTAS];
	unsigned int n = sw_test_sweep_deltas(param, deltas);
	unsigned int c, i;

	for (c = 0; c < SW_TEST_NR_CLOCKS; c++) {
		unsigned long clk0 = sw_test_clock(param, c);
		struct sw_base *base = sw_test_new_base(test, clk0);
		struct sw_test_timer *t = sw_test_timers(test, 2 * n);
		unsigned long last = 0, cascades = 0, expect_cascades = 0;
		struct sw_test_expect exp;

		for (i = 0; i < 2 * n; i++) {
			sw_timer_init(&t[i].timer, i & 1 ? SW_TIMER_DEFERRABLE : 0);
			sw_modify(base, &t[i].timer, clk0 + deltas[i / 2]);
			sw_test_expect(param, clk0, clk0 + deltas[i / 2], &exp);
			last = max(last, exp.run_at - clk0);
			/* Seed: one cascade per revolution of the last level waited */
			expect_cascades += (exp.run_at - clk0) / revolution;
		}

		if (tick_by_tick)
			cascades = sw_test_run_tick_by_tick(base, clk0 + last + 1, NULL, NULL);
		else
			sw_run(base, clk0 + last + 1, sw_test_record, NULL);

		for (i = 0; i < 2 * n; i++) {
			sw_test_expect(param, clk0, clk0 + deltas[i / 2], &exp);
			KUNIT_EXPECT_EQ_MSG(test, t[i].expired, 1U, "clock %u delta %lu", c,
					    deltas[i / 2]);
			KUNIT_EXPECT_EQ_MSG(test, t[i].expired_at, exp.run_at,
					    "clock %u delta %lu", c, deltas[i / 2]);
		}
		KUNIT_EXPECT_EQ(test, base->nr_pending, 0UL);
		if (tick_by_tick && param->kind != SW_WHEEL_CLASSIC)
			KUNIT_EXPECT_EQ(test, cascades,
					param->kind == SW_WHEEL_SEED ? expect_cascades : 0UL);
	}
}

static void sw_far_every_level_runs_to_expiry(struct kunit *test)
{
	sw_test_sweep(test, false);
}

static void sw_far_every_level_collected_tick_by_tick(struct kunit *test)
{
	sw_test_sweep(test, true);
}

SW_TEST_SUITE(sw_far_suite, "shadow_wheel_far",
	      KUNIT_CASE_PARAM(sw_far_timers_cascade_or_clamp, sw_test_gen_grid_params),
	      KUNIT_CASE_PARAM(sw_far_modify_back_into_range_unclamps, sw_test_gen_grid_params),
	      KUNIT_CASE_PARAM(sw_far_every_level_runs_to_expiry, sw_test_gen_grid_all_params),
	      KUNIT_CASE_PARAM(sw_far_every_level_collected_tick_by_tick,
			       sw_test_gen_grid_all_params));

/*
 * Suite shadow_wheel_ops: arm, modify and cancel, their fast paths, the
 * clock, and what happens to timers collected but not yet run.
 */

static void sw_ops_modify_fast_paths(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	unsigned int c;

	for (c = 0; c < SW_TEST_NR_CLOCKS; c++) {
		unsigned long clk0 = sw_test_clock(param, c);
		struct sw_base *base = sw_test_new_base(test, clk0);
		struct sw_test_timer *t = sw_test_timers(test, 1);
		/* Level 1, at the start of an 8-tick bucket */
		unsigned long expires = ((clk0 + 100) | 7) + 1;
		unsigned long bucket_expiry;
		unsigned int idx;

		KUNIT_EXPECT_EQ(test, sw_modify(base, &t->timer, expires), SW_MOD_ARMED);
		KUNIT_EXPECT_EQ(test, sw_timer_level(base, &t->timer), 1U);
		idx = t->timer.idx;
		bucket_expiry = t->timer.bucket_expiry;

		KUNIT_EXPECT_EQ(test, sw_modify(base, &t->timer, expires), SW_MOD_UNCHANGED);
		KUNIT_EXPECT_EQ(test, sw_modify(base, &t->timer, expires + 7), SW_MOD_SAME_BUCKET);
		KUNIT_EXPECT_EQ(test, t->timer.expires, expires + 7);
		KUNIT_EXPECT_EQ(test, t->timer.idx, idx);
		KUNIT_EXPECT_EQ(test, t->timer.bucket_expiry, bucket_expiry);

		KUNIT_EXPECT_EQ(test, sw_modify(base, &t->timer, expires + 8), SW_MOD_REQUEUED);
		KUNIT_EXPECT_NE(test, t->timer.idx, idx);
		KUNIT_EXPECT_FALSE(test, test_bit(idx, base->pending_map));
		KUNIT_EXPECT_TRUE(test, test_bit(t->timer.idx, base->pending_map));

		KUNIT_EXPECT_EQ(test, sw_run(base, clk0 + 1000, sw_test_record, NULL), 1UL);
		KUNIT_EXPECT_EQ(test, t->expired_at, bucket_expiry + 8);
		KUNIT_EXPECT_FALSE(test, sw_timer_pending(&t->timer));
		/* Not pending any more: the same expiry arms it again */
		KUNIT_EXPECT_EQ(test, sw_modify(base, &t->timer, expires + 8), SW_MOD_ARMED);
	}
}

static void sw_ops_cancel_keeps_bitmap_exact(struct kunit *test)
{
	struct sw_base *base = sw_test_new_base(test, 0);
	struct sw_test_timer *t = sw_test_timers(test, 3);
	unsigned long next;
	unsigned int idx;

	KUNIT_EXPECT_FALSE(test, sw_cancel(base, &t[0].timer));

	sw_modify(base, &t[0].timer, 20);
	sw_modify(base, &t[1].timer, 20);
	sw_modify(base, &t[2].timer, 20);
	idx = t[0].timer.idx;
	KUNIT_ASSERT_EQ(test, t[1].timer.idx, idx);

	/* First, middle and last of a bucket's list; the bit goes with the last */
	KUNIT_EXPECT_TRUE(test, sw_cancel(base, &t[1].timer));
	KUNIT_EXPECT_TRUE(test, test_bit(idx, base->pending_map));
	KUNIT_EXPECT_TRUE(test, sw_cancel(base, &t[2].timer));
	KUNIT_EXPECT_TRUE(test, test_bit(idx, base->pending_map));
	KUNIT_EXPECT_TRUE(test, sw_cancel(base, &t[0].timer));
	KUNIT_EXPECT_FALSE(test, test_bit(idx, base->pending_map));
	KUNIT_EXPECT_FALSE(test, sw_cancel(base, &t[0].timer));
	KUNIT_EXPECT_FALSE(test, sw_next_expiry(base, &next));
	KUNIT_EXPECT_EQ(test, sw_run(base, 100, sw_test_record, NULL), 0UL);
}

static void sw_ops_collected_timers_can_be_cancelled_or_moved(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	unsigned int size = param->kind == SW_WHEEL_SEED ? 32 : 64;
	struct sw_base *base = sw_test_new_base(test, 1000);
	struct sw_test_timer *t = sw_test_timers(test, 3);
	struct sw_tick tick;
	unsigned int idx;

	sw_modify(base, &t[0].timer, 1000);
	sw_modify(base, &t[1].timer, 1000);
	sw_modify(base, &t[2].timer, 1000);
	idx = t[0].timer.idx;

	KUNIT_ASSERT_TRUE(test, sw_collect_tick(base, 1001, &tick));
	KUNIT_EXPECT_EQ(test, tick.clk, 1001UL);
	KUNIT_EXPECT_TRUE(test, sw_timer_pending(&t[0].timer));
	KUNIT_EXPECT_FALSE(test, test_bit(idx, base->pending_map));

	/* Collected but not popped: cancel takes it out of the tick */
	KUNIT_EXPECT_TRUE(test, sw_cancel(base, &t[1].timer));
	/*
	 * Moved to the expiry that maps to the very bucket index it was
	 * collected from: it is not in that bucket, so it must be requeued
	 * rather than left to expire early with this tick.
	 */
	KUNIT_EXPECT_EQ(test, sw_modify(base, &t[2].timer, 1000 + size), SW_MOD_REQUEUED);
	KUNIT_EXPECT_EQ(test, t[2].timer.idx, idx);

	KUNIT_EXPECT_PTR_EQ(test, sw_tick_pop(&tick), &t[0].timer);
	KUNIT_EXPECT_FALSE(test, sw_timer_pending(&t[0].timer));
	KUNIT_EXPECT_NULL(test, sw_tick_pop(&tick));

	KUNIT_EXPECT_EQ(test, sw_run(base, 1001 + size, sw_test_record, NULL), 1UL);
	KUNIT_EXPECT_EQ(test, t[2].expired, 1U);
	KUNIT_EXPECT_EQ(test, t[2].expired_at, 1001UL + size);
	KUNIT_EXPECT_EQ(test, t[1].expired, 0U);
}

struct sw_test_rearm {
	struct sw_base		*base;
	struct sw_test_timer	*t;
	unsigned int		runs;
};

static void sw_test_rearm_next_tick(struct sw_timer *timer, unsigned long clk, void *arg)
{
	struct sw_test_rearm *r = arg;

	r->runs++;
	/* As a callback does: relative to the tick being run */
	sw_modify(r->base, timer, clk + 1);
}

/* A timer re-armed one tick ahead from its own callback runs every second tick */
static void sw_ops_rearm_from_callback(struct kunit *test)
{
	struct sw_base *base = sw_test_new_base(test, 0);
	struct sw_test_rearm r = { .base = base, .t = sw_test_timers(test, 1) };

	sw_modify(base, &r.t->timer, 1);
	sw_run(base, 999, sw_test_rearm_next_tick, &r);
	KUNIT_EXPECT_EQ(test, r.runs, 499U);
	KUNIT_EXPECT_TRUE(test, sw_timer_pending(&r.t->timer));
}

static void sw_ops_forward_idle_clock(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	unsigned long clk0 = sw_test_clock(param, 3);
	struct sw_base *base = sw_test_new_base(test, clk0);
	struct sw_test_timer *t = sw_test_timers(test, 2);

	/* Empty: straight to now; never backwards */
	sw_forward_clock(base, clk0 + 500);
	KUNIT_EXPECT_EQ(test, base->clk, clk0 + 500);
	sw_forward_clock(base, clk0 + 400);
	KUNIT_EXPECT_EQ(test, base->clk, clk0 + 500);

	/* Not past a bucket that comes due, deferrable or not */
	sw_timer_init(&t[0].timer, SW_TIMER_DEFERRABLE);
	sw_modify(base, &t[0].timer, clk0 + 700);
	sw_forward_clock(base, clk0 + 600);
	KUNIT_EXPECT_EQ(test, base->clk, clk0 + 600);
	sw_forward_clock(base, clk0 + 100000);
	KUNIT_EXPECT_EQ(test, base->clk, t[0].timer.bucket_expiry);
	KUNIT_EXPECT_EQ(test, sw_run(base, clk0 + 100000, sw_test_record, NULL), 1UL);
	KUNIT_EXPECT_EQ(test, base->clk, clk0 + 100001);

	/* A timer armed after forwarding is placed relative to the present */
	sw_modify(base, &t[1].timer, clk0 + 100010);
	KUNIT_EXPECT_EQ(test, sw_timer_level(base, &t[1].timer), 0U);
	KUNIT_EXPECT_EQ(test, t[1].timer.bucket_expiry, clk0 + 100011);
}

static void sw_ops_clock_wraps(struct kunit *test)
{
	struct sw_base *base = sw_test_new_base(test, ULONG_MAX - 3);
	struct sw_test_timer *t = sw_test_timers(test, 12);
	unsigned long now;
	unsigned int i;

	for (i = 0; i < 12; i++)
		sw_modify(base, &t[i].timer, ULONG_MAX - 3 + i);
	for (now = ULONG_MAX - 3; now != 20; now++)
		sw_run(base, now, sw_test_record, NULL);
	for (i = 0; i < 12; i++) {
		KUNIT_EXPECT_EQ(test, t[i].expired, 1U);
		KUNIT_EXPECT_EQ(test, t[i].expired_at, ULONG_MAX - 3 + i + 1);
	}
}

/* Emptying a wheel, as hotplug and unload do, finds every timer once */
static void sw_ops_take_any_empties_the_wheel(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	struct sw_base *base = sw_test_new_base(test, sw_test_clock(param, 1));
	struct sw_test_timer *t = sw_test_timers(test, SW_EXPIRY_TIMERS);
	struct sw_timer *timer;
	unsigned long next;
	unsigned int i, taken = 0;

	for (i = 0; i < SW_EXPIRY_TIMERS; i++) {
		sw_timer_init(&t[i].timer, i % 2 ? SW_TIMER_DEFERRABLE : 0);
		sw_modify(base, &t[i].timer, base->clk + sw_expiry_delta(i));
	}
	while ((timer = sw_take_any(base))) {
		struct sw_test_timer *tt = container_of(timer, struct sw_test_timer, timer);

		KUNIT_EXPECT_FALSE(test, sw_timer_pending(timer));
		KUNIT_EXPECT_EQ(test, tt->expired, 0U);
		/* Mark it, so that a timer handed out twice shows */
		tt->expired++;
		taken++;
	}
	KUNIT_EXPECT_EQ(test, taken, SW_EXPIRY_TIMERS);
	KUNIT_EXPECT_EQ(test, find_first_bit(base->pending_map, SW_TOTAL_BUCKETS),
			(unsigned long)SW_TOTAL_BUCKETS);
	KUNIT_EXPECT_FALSE(test, sw_next_expiry(base, &next));
}

SW_TEST_SUITE(sw_ops_suite, "shadow_wheel_ops",
	      KUNIT_CASE_PARAM(sw_ops_modify_fast_paths, sw_test_gen_params),
	      KUNIT_CASE_PARAM(sw_ops_cancel_keeps_bitmap_exact, sw_test_gen_params),
	      KUNIT_CASE_PARAM(sw_ops_collected_timers_can_be_cancelled_or_moved,
			       sw_test_gen_params),
	      KUNIT_CASE_PARAM(sw_ops_rearm_from_callback, sw_test_gen_params),
	      KUNIT_CASE_PARAM(sw_ops_forward_idle_clock, sw_test_gen_params),
	      KUNIT_CASE_PARAM(sw_ops_clock_wraps, sw_test_gen_params),
	      KUNIT_CASE_PARAM(sw_ops_take_any_empties_the_wheel, sw_test_gen_params));

kunit_test_suites(&sw_geometry_suite, &sw_expiry_suite, &sw_next_expiry_suite, &sw_far_suite,
		  &sw_ops_suite);

MODULE_DESCRIPTION("KUnit tests for the shadow-wheel timer wheel core");
MODULE_LICENSE("GPL");
