// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite shadow_wheel_classic: the classic cascading wheel, the
 * baseline the benchmarks compare against, held to its own contract (the
 * comment at the top of core/wheel/sw_classic.c): placed by the table, run on
 * the exact tick, never early and never late, cascaded level by level on
 * the ticks that begin a bucket's span, next expiry found by scanning.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "sw_test_common.h"

static const struct sw_test_param sw_classic_param = { SW_WHEEL_CLASSIC, 1000 };

static struct sw_base *sw_classic_base(struct kunit *test, unsigned long clk)
{
	return sw_test_new_base_of(test, &sw_classic_param, clk);
}

/* The classic wheel's own: every second timer deferrable */
static struct sw_test_timer *sw_classic_timers(struct kunit *test, unsigned int n)
{
	struct sw_test_timer *t = sw_test_timers(test, n);
	unsigned int i;

	for (i = 1; i < n; i += 2)
		sw_timer_init(&t[i].timer, SW_TIMER_DEFERRABLE);
	return t;
}

static void sw_classic_geometry_matches_table(struct kunit *test)
{
	static const unsigned int hz[] = { 100, 250, 1000 };
	unsigned int i, lvl;

	for (i = 0; i < ARRAY_SIZE(hz); i++) {
		const struct sw_test_param *param = &sw_classic_param;
		struct sw_geometry geo;

		KUNIT_ASSERT_EQ(test, sw_geometry_init(&geo, SW_WHEEL_CLASSIC, hz[i]), 0);
		KUNIT_ASSERT_EQ(test, geo.depth, 5U);
		KUNIT_EXPECT_TRUE(test, geo.cascade);
		KUNIT_EXPECT_EQ(test, geo.timeout_max, 4294967295UL);
		for (lvl = 0; lvl <= geo.depth; lvl++)
			KUNIT_EXPECT_EQ_MSG(test, geo.lvl_start[lvl],
					    sw_test_lvl_start(param, lvl), "level %u", lvl);
		for (lvl = 0; lvl < geo.depth; lvl++) {
			KUNIT_EXPECT_EQ(test, sw_lvl_first_bucket(&geo, lvl),
					sw_test_classic_bucket(lvl, 0));
			KUNIT_EXPECT_EQ(test, sw_lvl_nr_buckets(&geo, lvl), lvl ? 64U : 256U);
			KUNIT_EXPECT_EQ(test, sw_lvl_expiry_gran(&geo, lvl), 1UL);
		}
		/* All of it in the first half of the arrays */
		KUNIT_EXPECT_LE(test, sw_lvl_first_bucket(&geo, geo.depth),
				(unsigned int)SW_DEFERRABLE_OFFSET);
	}
}

static void sw_classic_check_placement(struct kunit *test, struct sw_base *base,
				       unsigned long delta, unsigned int flags)
{
	unsigned long clk = base->clk, at = clk + delta;
	unsigned int lvl = 4;
	struct sw_timer timer;

	while (lvl && delta < sw_test_lvl_start(&sw_classic_param, lvl))
		lvl--;
	/* Beyond the range: placed as if 2^32 - 1 away, still due at its own tick */
	if (delta > 4294967295UL)
		at = clk + 4294967295UL;

	sw_timer_init(&timer, flags);
	KUNIT_EXPECT_EQ(test, sw_modify(base, &timer, clk + delta), SW_MOD_ARMED);
	KUNIT_EXPECT_EQ_MSG(test, sw_timer_level(base, &timer), lvl, "delta %lu", delta);
	KUNIT_EXPECT_EQ_MSG(test, timer.idx, sw_test_classic_bucket(lvl, at), "delta %lu", delta);
	KUNIT_EXPECT_EQ_MSG(test, timer.bucket_expiry, clk + delta, "delta %lu", delta);
	KUNIT_EXPECT_FALSE(test, timer.flags & SW_TIMER_PLACEMENT);
	KUNIT_EXPECT_EQ(test, base->nr_pending, 1UL);
	/* The classic wheel keeps no bitmap */
	KUNIT_EXPECT_EQ(test, find_first_bit(base->pending_map, SW_TOTAL_BUCKETS),
			(unsigned long)SW_TOTAL_BUCKETS);
	KUNIT_EXPECT_TRUE(test, sw_cancel(base, &timer));
	KUNIT_EXPECT_EQ(test, base->nr_pending, 0UL);
}

static void sw_classic_placement_by_table(struct kunit *test)
{
	unsigned int c, lvl;

	for (c = 0; c < SW_TEST_NR_CLOCKS; c++) {
		struct sw_base *base = sw_classic_base(test, sw_test_clock(&sw_classic_param, c));

		for (lvl = 0; lvl < 5; lvl++) {
			unsigned long start = sw_test_lvl_start(&sw_classic_param, lvl);
			unsigned long end = sw_test_lvl_start(&sw_classic_param, lvl + 1) - 1;

			if (lvl)
				sw_classic_check_placement(test, base, start - 1, 0);
			sw_classic_check_placement(test, base, start, 0);
			sw_classic_check_placement(test, base, start + 1, SW_TIMER_DEFERRABLE);
			sw_classic_check_placement(test, base, end, 0);
		}
		sw_classic_check_placement(test, base, 4294967296UL, 0);
		sw_classic_check_placement(test, base, 5UL << 40, SW_TIMER_DEFERRABLE);
	}
}

static void sw_classic_past_expiry_runs_next_tick(struct kunit *test)
{
	struct sw_base *base = sw_classic_base(test, 1000);
	struct sw_test_timer *t = sw_classic_timers(test, 2);

	KUNIT_EXPECT_EQ(test, sw_modify(base, &t[0].timer, 990), SW_MOD_ARMED);
	KUNIT_EXPECT_EQ(test, sw_modify(base, &t[1].timer, 1000), SW_MOD_ARMED);
	KUNIT_EXPECT_TRUE(test, t[0].timer.flags & SW_TIMER_OVERDUE);
	KUNIT_EXPECT_FALSE(test, t[1].timer.flags & SW_TIMER_OVERDUE);
	KUNIT_EXPECT_EQ(test, t[0].timer.bucket_expiry, 1000UL);
	KUNIT_EXPECT_EQ(test, sw_run(base, 1000, sw_test_record, NULL), 2UL);
	KUNIT_EXPECT_EQ(test, t[0].expired_at, 1000UL);
	KUNIT_EXPECT_EQ(test, t[1].expired_at, 1000UL);
}

/*
 * Timers at every level, from every clock, the wheel run over all of
 * them: each runs once, on its expiry tick, not one before or after. The
 * wheel walks every tick, so only the last clock reaches level 4 (and
 * crosses the wrap of unsigned long on the way).
 */
static void sw_classic_runs_exactly_on_time(struct kunit *test)
{
	static const unsigned long deltas[] = {
		0, 1, 2, 254, 255,				/* level 0 */
		256, 257, 300, 511, 512, 12345, 16383,		/* level 1 */
		16384, 16385, 16639, 16640, 500000, 1048575,	/* level 2 */
		1048576, 1048577, 3 * 1048576 + 77,		/* level 3 */
	};
	unsigned int n = ARRAY_SIZE(deltas) * 2 + 2, c, i;
	struct sw_test_timer *t = sw_classic_timers(test, n);

	for (c = 0; c < SW_TEST_NR_CLOCKS; c++) {
		unsigned long clk = sw_test_clock(&sw_classic_param, c);
		struct sw_base *base = sw_classic_base(test, clk);
		bool far = c == SW_TEST_NR_CLOCKS - 1;

		for (i = 0; i < ARRAY_SIZE(deltas); i++) {
			/* One normal and one deferrable at each delta */
			t[2 * i].expires = clk + deltas[i];
			t[2 * i + 1].expires = clk + deltas[i];
		}
		/* The last timer is the latest */
		t[n - 2].expires = clk + (far ? 67108864UL + 5 : 1048576UL * 4);
		t[n - 1].expires = clk + (far ? 67108864UL + 5 * 1048576 + 3 : 1048576UL * 4 + 1);
		for (i = 0; i < n; i++) {
			t[i].expired = 0;
			KUNIT_EXPECT_EQ(test, sw_modify(base, &t[i].timer, t[i].expires),
					SW_MOD_ARMED);
		}

		sw_run(base, t[n - 1].expires, sw_test_record, NULL);
		for (i = 0; i < n; i++) {
			KUNIT_EXPECT_EQ_MSG(test, t[i].expired, 1U, "delta %lu",
					    t[i].expires - clk);
			KUNIT_EXPECT_EQ_MSG(test, t[i].expired_at, t[i].expires, "delta %lu",
					    t[i].expires - clk);
		}
		KUNIT_EXPECT_EQ(test, base->nr_pending, 0UL);
	}
}

/* Process ticks up to @now one at a time; return how many timers were cascaded */
static unsigned long sw_classic_cascaded_until(struct sw_base *base, unsigned long now)
{
	return sw_test_run_tick_by_tick(base, now, NULL, NULL);
}

static void sw_classic_cascades_level_by_level(struct kunit *test)
{
	struct sw_base *base = sw_classic_base(test, 0);
	struct sw_test_timer *t = sw_classic_timers(test, 5);
	unsigned int i;

	sw_modify(base, &t[0].timer, 256);		/* level 1, bucket 1 */
	sw_modify(base, &t[1].timer, 300);		/* level 1, bucket 1 */
	sw_modify(base, &t[2].timer, 511);		/* level 1, bucket 1 */
	sw_modify(base, &t[3].timer, 16384 + 300);	/* level 2, bucket 1 */
	sw_modify(base, &t[4].timer, 16384 * 3);	/* level 2, bucket 3 */
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, t[i].timer.idx, 257U);
	KUNIT_EXPECT_EQ(test, t[3].timer.idx, 321U);

	/* Nothing moves before a root revolution begins */
	KUNIT_EXPECT_EQ(test, sw_classic_cascaded_until(base, 255), 0UL);
	/* At 256 level 1's bucket 1 comes down: one runs now, two wait in the root */
	KUNIT_EXPECT_EQ(test, sw_classic_cascaded_until(base, 256), 3UL);
	KUNIT_EXPECT_EQ(test, t[0].expired_at, 256UL);
	KUNIT_EXPECT_EQ(test, t[1].timer.idx, 300U - 256);
	KUNIT_EXPECT_EQ(test, t[2].timer.idx, 511U - 256);
	KUNIT_EXPECT_EQ(test, sw_timer_level(base, &t[3].timer), 2U);

	/* At 16384 level 1 starts over, so level 2's bucket 1 comes down a level */
	KUNIT_EXPECT_EQ(test, sw_classic_cascaded_until(base, 16383), 0UL);
	KUNIT_EXPECT_EQ(test, sw_classic_cascaded_until(base, 16384), 1UL);
	KUNIT_EXPECT_EQ(test, sw_timer_level(base, &t[3].timer), 1U);
	KUNIT_EXPECT_EQ(test, t[3].timer.idx, 256U + ((16384U + 300) >> 8 & 63));
	/* And at 16640 to the root; it runs on its tick */
	KUNIT_EXPECT_EQ(test, sw_classic_cascaded_until(base, 16640), 1UL);
	KUNIT_EXPECT_EQ(test, sw_timer_level(base, &t[3].timer), 0U);
	KUNIT_EXPECT_EQ(test, sw_classic_cascaded_until(base, 16384 + 300), 0UL);
	KUNIT_EXPECT_EQ(test, t[3].expired_at, 16384UL + 300);

	/* A timer due on a revolution's first tick goes straight to the root */
	KUNIT_EXPECT_EQ(test, sw_classic_cascaded_until(base, 16384 * 3), 1UL);
	KUNIT_EXPECT_EQ(test, t[4].expired_at, 16384UL * 3);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ_MSG(test, t[i].expired, 1U, "timer %u", i);
}

/* A cascade a tick reported: the tick, the bucket's level and position, the timers moved */
struct sw_classic_cascade {
	unsigned long	clk;
	unsigned int	level;
	unsigned int	bucket;
	unsigned int	moved;
};

/* The cascades ticks reported, noted as they come */
struct sw_classic_seen {
	struct kunit			*test;
	struct sw_classic_cascade	*seen;
	unsigned int			n;
	unsigned int			max;
};

static void sw_classic_note_cascades(const struct sw_tick *tick, void *arg)
{
	struct sw_classic_seen *s = arg;
	const struct sw_geometry *geo = &tick->base->geo;
	unsigned int i, moved = 0;

	KUNIT_EXPECT_LE(s->test, tick->nr_cascades, (unsigned int)SW_TICK_CASCADES);
	for (i = 0; i < tick->nr_cascades && s->n < s->max; i++, s->n++) {
		s->seen[s->n].clk = tick->clk;
		s->seen[s->n].level = sw_idx_level(geo, tick->cascades[i].idx);
		s->seen[s->n].bucket = sw_idx_bucket(geo, tick->cascades[i].idx);
		s->seen[s->n].moved = tick->cascades[i].moved;
		moved += tick->cascades[i].moved;
	}
	KUNIT_EXPECT_EQ(s->test, moved, tick->cascaded);
}

/* Process ticks up to @now one at a time, noting each cascade in @seen */
static unsigned int sw_classic_cascades_until(struct kunit *test, struct sw_base *base,
					      unsigned long now, struct sw_classic_cascade *seen,
					      unsigned int max)
{
	struct sw_classic_seen s = { .test = test, .seen = seen, .max = max };

	sw_test_run_tick_by_tick(base, now, sw_classic_note_cascades, &s);
	return s.n;
}

/* Process ticks up to @now one at a time: they report exactly the cascades @want */
static void sw_classic_expect_cascades(struct kunit *test, struct sw_base *base,
				       unsigned long now, const struct sw_classic_cascade *want,
				       unsigned int n)
{
	struct sw_classic_cascade seen[8];
	unsigned int i;

	KUNIT_ASSERT_EQ_MSG(test, sw_classic_cascades_until(test, base, now, seen,
							    ARRAY_SIZE(seen)), n,
			    "up to %lu", now);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, seen[i].clk, want[i].clk, "up to %lu, %u", now, i);
		KUNIT_EXPECT_EQ_MSG(test, seen[i].level, want[i].level, "up to %lu, %u", now, i);
		KUNIT_EXPECT_EQ_MSG(test, seen[i].bucket, want[i].bucket, "up to %lu, %u", now, i);
		KUNIT_EXPECT_EQ_MSG(test, seen[i].moved, want[i].moved, "up to %lu, %u", now, i);
	}
}

/*
 * Each tick reports the buckets it cascaded, level by level, and how many
 * timers each moved; empty buckets are not reported.
 */
static void sw_classic_tick_reports_cascades(struct kunit *test)
{
	/* 256: level 1's bucket 1 moves two timers to the root */
	static const struct sw_classic_cascade to_256[] = { { 256, 1, 1, 2 } };
	/* 16384: level 1's bucket 0 is empty, level 2's bucket 1 moves one */
	static const struct sw_classic_cascade to_16384[] = { { 16384, 2, 1, 1 } };
	/* 16640: it comes down again, from level 1's bucket 65 & 63 */
	static const struct sw_classic_cascade to_16640[] = { { 16640, 1, 1, 1 } };
	/* 32768: level 2's bucket 2 moves its timer to level 1; 33024 to the root */
	static const struct sw_classic_cascade to_33068[] = {
		{ 16384 * 2, 2, 2, 1 },
		{ 16384 * 2 + 256, 1, 1, 1 },
	};
	struct sw_base *base = sw_classic_base(test, 0);
	struct sw_test_timer *t = sw_classic_timers(test, 4);
	unsigned int n;

	sw_modify(base, &t[0].timer, 300);		/* level 1, bucket 1 */
	sw_modify(base, &t[1].timer, 511);		/* level 1, bucket 1 */
	sw_modify(base, &t[2].timer, 16384 + 300);	/* level 2, bucket 1 */
	sw_modify(base, &t[3].timer, 16384 * 2 + 300);	/* level 2, bucket 2 */
	KUNIT_EXPECT_EQ(test, sw_timer_level(base, &t[0].timer), 1U);
	KUNIT_EXPECT_EQ(test, sw_timer_bucket(base, &t[0].timer), 1U);
	KUNIT_EXPECT_EQ(test, sw_timer_level(base, &t[2].timer), 2U);
	KUNIT_EXPECT_EQ(test, sw_timer_bucket(base, &t[2].timer), 1U);
	KUNIT_EXPECT_EQ(test, sw_timer_bucket(base, &t[3].timer), 2U);

	sw_classic_expect_cascades(test, base, 256, to_256, ARRAY_SIZE(to_256));
	KUNIT_EXPECT_EQ(test, sw_timer_level(base, &t[1].timer), 0U);
	KUNIT_EXPECT_EQ(test, sw_timer_bucket(base, &t[1].timer), 511U - 256);
	sw_classic_expect_cascades(test, base, 16384, to_16384, ARRAY_SIZE(to_16384));
	sw_classic_expect_cascades(test, base, 16640, to_16640, ARRAY_SIZE(to_16640));
	sw_classic_expect_cascades(test, base, 16384 * 2 + 300, to_33068, ARRAY_SIZE(to_33068));
	KUNIT_EXPECT_EQ(test, t[3].expired_at, 16384UL * 2 + 300);
	for (n = 0; n < 4; n++)
		KUNIT_EXPECT_EQ_MSG(test, t[n].expired, 1U, "timer %u", n);
}

/*
 * A level-1 bucket is reused every 64 revolutions of the root: a timer
 * put in the bucket that has just cascaded waits a full level revolution.
 */
static void sw_classic_bucket_just_cascaded_waits_a_revolution(struct kunit *test)
{
	struct sw_base *base = sw_classic_base(test, 255);
	struct sw_test_timer *t = sw_classic_timers(test, 1);

	sw_modify(base, &t[0].timer, 255 + 16383);	/* bucket 0 of level 1 */
	KUNIT_EXPECT_EQ(test, t[0].timer.idx, 256U);
	KUNIT_EXPECT_EQ(test, sw_classic_cascaded_until(base, 16383), 0UL);
	KUNIT_EXPECT_EQ(test, sw_classic_cascaded_until(base, 16384), 1UL);
	sw_classic_cascaded_until(base, 255 + 16383 - 1);
	KUNIT_EXPECT_EQ(test, t[0].expired, 0U);
	sw_classic_cascaded_until(base, 255 + 16383);
	KUNIT_EXPECT_EQ(test, t[0].expired_at, 255UL + 16383);
}

static void sw_classic_next_expiry_by_scanning(struct kunit *test)
{
	struct sw_base *base = sw_classic_base(test, 7);
	struct sw_test_timer *t = sw_classic_timers(test, 2);
	unsigned long next;

	KUNIT_EXPECT_FALSE(test, sw_next_expiry(base, &next));
	/* t[1] is deferrable: never a reason to run */
	sw_modify(base, &t[1].timer, 9);
	KUNIT_EXPECT_FALSE(test, sw_next_expiry(base, &next));
	sw_modify(base, &t[0].timer, 7 + 20000);
	KUNIT_ASSERT_TRUE(test, sw_next_expiry(base, &next));
	KUNIT_EXPECT_EQ(test, next, 7UL + 20000);
	sw_modify(base, &t[0].timer, 100);
	KUNIT_ASSERT_TRUE(test, sw_next_expiry(base, &next));
	KUNIT_EXPECT_EQ(test, next, 100UL);
}

/*
 * Many timers in few buckets, some beyond the range, some deferrable: the
 * scan's answer is the brute-force minimum, from many clocks.
 */
static void sw_classic_next_expiry_matches_brute_force(struct kunit *test)
{
	const unsigned int n = 600;
	struct sw_test_timer *t = sw_classic_timers(test, n);
	struct rnd_state rnd;
	unsigned int c, round, i;

	prandom_seed_state(&rnd, 0xc1a551c);
	for (c = 0; c < SW_TEST_NR_CLOCKS; c++) {
		struct sw_base *base = sw_classic_base(test, sw_test_clock(&sw_classic_param, c));

		for (round = 0; round < 200; round++) {
			unsigned long next = 0, ref = 0;
			bool found;

			for (i = 0; i < 8; i++) {
				struct sw_test_timer *x = &t[prandom_u32_state(&rnd) % n];
				u32 r = prandom_u32_state(&rnd);
				u64 v = (u64)prandom_u32_state(&rnd) << 14 | r;
				unsigned long delta = v % (1UL << (r % 35));

				if (r % 7 == 0) {
					sw_cancel(base, &x->timer);
				} else {
					x->expires = base->clk + delta;
					sw_modify(base, &x->timer, x->expires);
					/* The brute force reads it: on its exact tick */
					KUNIT_ASSERT_EQ(test, x->timer.bucket_expiry, x->expires);
				}
			}
			found = sw_next_expiry(base, &next);
			KUNIT_ASSERT_EQ(test, found, sw_test_brute_next(t, n, base->clk, &ref));
			if (found)
				KUNIT_ASSERT_EQ_MSG(test, next, ref, "clk %lu", base->clk);
			sw_run(base, base->clk + prandom_u32_state(&rnd) % 700, sw_test_record,
			       NULL);
		}
		while (sw_take_any(base))
			;
	}
}

/*
 * An empty wheel catches up at once; one holding a timer processes every
 * tick in between (what made the classic wheel slow after an idle gap).
 */
static void sw_classic_catches_up_only_when_empty(struct kunit *test)
{
	struct sw_base *base = sw_classic_base(test, 0);
	struct sw_test_timer *t = sw_classic_timers(test, 1);
	unsigned int ticks = 0;
	struct sw_tick tick;

	KUNIT_ASSERT_TRUE(test, sw_collect_tick(base, 1000000, &tick));
	KUNIT_EXPECT_EQ(test, tick.clk, 1000000UL);
	KUNIT_EXPECT_EQ(test, base->clk, 1000001UL);

	sw_modify(base, &t[0].timer, 1000001 + 5000000);
	sw_forward_clock(base, 2000000);
	KUNIT_EXPECT_EQ(test, base->clk, 1000001UL);
	while (sw_collect_tick(base, 1000001 + 999, &tick)) {
		KUNIT_EXPECT_EQ(test, tick.clk, 1000001UL + ticks);
		ticks++;
	}
	KUNIT_EXPECT_EQ(test, ticks, 1000U);
	KUNIT_EXPECT_TRUE(test, sw_timer_pending(&t[0].timer));

	sw_cancel(base, &t[0].timer);
	sw_forward_clock(base, 2000000);
	KUNIT_EXPECT_EQ(test, base->clk, 2000000UL);
}

static void sw_classic_modify_cancel_take(struct kunit *test)
{
	struct sw_base *base = sw_classic_base(test, 0);
	struct sw_test_timer *t = sw_classic_timers(test, 4);
	struct sw_tick tick;
	unsigned int i, taken = 0;

	KUNIT_EXPECT_EQ(test, sw_modify(base, &t[0].timer, 300), SW_MOD_ARMED);
	KUNIT_EXPECT_EQ(test, sw_modify(base, &t[0].timer, 300), SW_MOD_UNCHANGED);
	/* Same bucket of level 1, but the classic wheel requeues all the same */
	KUNIT_EXPECT_EQ(test, sw_modify(base, &t[0].timer, 301), SW_MOD_REQUEUED);
	KUNIT_EXPECT_EQ(test, t[0].timer.bucket_expiry, 301UL);
	KUNIT_EXPECT_EQ(test, t[0].timer.idx, 257U);
	KUNIT_EXPECT_EQ(test, sw_modify(base, &t[0].timer, 20), SW_MOD_REQUEUED);
	KUNIT_EXPECT_EQ(test, t[0].timer.idx, 20U);

	/* A collected timer is still pending: cancel and modify take it out of the tick */
	sw_modify(base, &t[1].timer, 20);
	sw_modify(base, &t[2].timer, 20);
	sw_forward_clock(base, 20);
	KUNIT_EXPECT_EQ(test, base->clk, 0UL);
	while (sw_collect_tick(base, 19, &tick))
		KUNIT_EXPECT_NULL(test, sw_tick_pop(&tick));
	KUNIT_ASSERT_TRUE(test, sw_collect_tick(base, 20, &tick));
	KUNIT_EXPECT_EQ(test, base->nr_pending, 3UL);
	KUNIT_EXPECT_TRUE(test, sw_cancel(base, &t[1].timer));
	KUNIT_EXPECT_EQ(test, sw_modify(base, &t[2].timer, 500), SW_MOD_REQUEUED);
	KUNIT_EXPECT_PTR_EQ(test, sw_tick_pop(&tick), &t[0].timer);
	KUNIT_EXPECT_NULL(test, sw_tick_pop(&tick));
	KUNIT_EXPECT_EQ(test, base->nr_pending, 1UL);

	/* Emptying the wheel finds every timer, deferrable ones too */
	sw_modify(base, &t[0].timer, 1UL << 40);
	sw_modify(base, &t[1].timer, 70000);
	sw_modify(base, &t[3].timer, 22);
	while (sw_take_any(base))
		taken++;
	KUNIT_EXPECT_EQ(test, taken, 4U);
	KUNIT_EXPECT_EQ(test, base->nr_pending, 0UL);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_FALSE(test, sw_timer_pending(&t[i].timer));
}

SW_TEST_SUITE(sw_classic_suite, "shadow_wheel_classic",
	      KUNIT_CASE(sw_classic_geometry_matches_table),
	      KUNIT_CASE(sw_classic_placement_by_table),
	      KUNIT_CASE(sw_classic_past_expiry_runs_next_tick),
	      KUNIT_CASE(sw_classic_runs_exactly_on_time),
	      KUNIT_CASE(sw_classic_cascades_level_by_level),
	      KUNIT_CASE(sw_classic_tick_reports_cascades),
	      KUNIT_CASE(sw_classic_bucket_just_cascaded_waits_a_revolution),
	      KUNIT_CASE(sw_classic_next_expiry_by_scanning),
	      KUNIT_CASE(sw_classic_next_expiry_matches_brute_force),
	      KUNIT_CASE(sw_classic_catches_up_only_when_empty),
	      KUNIT_CASE(sw_classic_modify_cancel_take));

kunit_test_suites(&sw_classic_suite);
