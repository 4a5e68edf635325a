// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites shadow_wheel_next_cache, the next expiry each base keeps,
 * against a full scan, and shadow_wheel_bounds, the same and its timer at
 * the ends of the clock's range (described with that suite, below).
 *
 * A wheel keeps, per half of its arrays (normal and deferrable timers),
 * the tick its first bucket comes due: exact, or marked stale and then no
 * later than that tick and not before the clock, or marked none when no
 * bucket is pending. The classic wheel keeps the earliest expiry of its
 * non-deferrable timers the same way. After every operation of a long
 * fixed-seed random sequence (arms, modifies, cancels, runs, single ticks
 * with timers modified and cancelled while collected, clock jumps, timers
 * taken out) each half's cached value is compared with a scan of every
 * timer in every bucket, and now and then the lookup with it: it must
 * give the scan's answer and leave the cache exact, so that the next
 * lookup is a read.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sw_wheel_internal.h"
#include "sw_test_common.h"

#define SW_NEXT_TIMERS		128
#define SW_NEXT_OPS		40000

struct sw_next_run {
	struct kunit		*test;
	struct sw_base		*base;
	struct sw_timer		*timers;
	struct rnd_state	rnd;
	unsigned long		rearmed;
	unsigned long		lookups;
	unsigned long		stale_seen;
};

static bool sw_next_classic(const struct sw_base *base)
{
	return base->geo.kind == SW_WHEEL_CLASSIC;
}

/*
 * The scan: over every timer in every bucket of half @half, the first
 * tick its bucket comes due. A bucket comes due at its timers'
 * bucket_expiry, or, for a seed timer parked beyond the range, a whole
 * number of revolutions of the last level earlier, the first such tick
 * from the clock on. Classic: the earliest expiry of a non-deferrable
 * timer, all in the first half.
 */
static bool sw_next_scan(const struct sw_base *base, unsigned int half, unsigned long *first)
{
	unsigned long clk = base->clk, rev = base->geo.revolution, best = 0;
	unsigned int idx, end = half ? SW_TOTAL_BUCKETS : SW_DEFERRABLE_OFFSET;
	bool found = false;

	if (sw_next_classic(base) && half)
		return false;
	for (idx = half ? SW_DEFERRABLE_OFFSET : 0; idx < end; idx++) {
		struct sw_timer *timer;

		hlist_for_each_entry(timer, &base->vectors[idx], entry) {
			unsigned long d = timer->bucket_expiry - clk;

			if (sw_next_classic(base)) {
				if (timer->flags & SW_TIMER_DEFERRABLE)
					continue;
			} else if (d >= rev) {
				d -= d / rev * rev;
			}
			if (!found || d < best)
				best = d;
			found = true;
		}
	}
	*first = clk + best;
	return found;
}

static void sw_next_check(struct sw_next_run *r, const char *after)
{
	struct kunit *test = r->test;
	struct sw_base *base = r->base;
	unsigned int half;

	for (half = 0; half < 2; half++) {
		unsigned long cached = base->next_expiry[half], first = 0;
		bool found = sw_next_scan(base, half, &first);

		if (base->next_stale & SW_NEXT_NONE(half)) {
			KUNIT_ASSERT_FALSE_MSG(test, found, "half %u none after %s, scan has %lu",
					       half, after, first);
			KUNIT_ASSERT_FALSE_MSG(test, base->next_stale & SW_NEXT_STALE(half),
					       "half %u none and stale after %s", half, after);
			continue;
		}
		KUNIT_ASSERT_FALSE_MSG(test, sw_time_before(cached, base->clk),
				       "half %u at %lu before the clock %lu after %s", half, cached,
				       base->clk, after);
		if (base->next_stale & SW_NEXT_STALE(half)) {
			r->stale_seen++;
			if (found)
				KUNIT_ASSERT_FALSE_MSG(test, sw_time_after(cached, first),
						       "half %u stale at %lu after the first, %lu, after %s",
						       half, cached, first, after);
			continue;
		}
		KUNIT_ASSERT_TRUE_MSG(test, found, "half %u at %lu, scan finds none, after %s",
				      half, cached, after);
		KUNIT_ASSERT_EQ_MSG(test, cached, first, "half %u after %s", half, after);
	}
}

/* The lookup gives the scan's answer, and the cache is exact after it */
static void sw_next_lookup(struct sw_next_run *r)
{
	struct kunit *test = r->test;
	unsigned long next = 0, first = 0;
	bool found = sw_next_expiry(r->base, &next);

	r->lookups++;
	KUNIT_ASSERT_EQ(test, found, sw_next_scan(r->base, 0, &first));
	if (found)
		KUNIT_ASSERT_EQ(test, next, first);
	KUNIT_ASSERT_FALSE(test, r->base->next_stale & SW_NEXT_STALE(0));
}

static unsigned long sw_next_delta(struct sw_next_run *r)
{
	u32 a = prandom_u32_state(&r->rnd), v = prandom_u32_state(&r->rnd);
	unsigned int far_bits = sw_next_classic(r->base) ? 25 : 34;

	switch (a % 16) {
	case 0 ... 7:			/* level 0 and 1 */
		return v % 64;
	case 8 ... 11:
		return v % 4096;
	case 12 ... 13:			/* anywhere, log-uniform */
		return v % (2UL << (a / 16 % 26));
	case 14:			/* beyond the range: cascaded or clamped */
		return (v | (u64)a << 32) % (1UL << far_bits);
	default:			/* already due */
		return -(unsigned long)(v % 50) - 1;
	}
}

static void sw_next_modify(struct sw_next_run *r, struct sw_timer *timer)
{
	sw_modify(r->base, timer, r->base->clk + sw_next_delta(r));
}

/* What an expired timer does: now and then it arms itself again */
static void sw_next_expired(struct sw_timer *timer, unsigned long clk, void *arg)
{
	struct sw_next_run *r = arg;

	if (prandom_u32_state(&r->rnd) % 4 == 0) {
		sw_next_modify(r, timer);
		r->rearmed++;
	}
}

/* One tick collected, timers modified and cancelled while it holds some */
static void sw_next_one_tick(struct sw_next_run *r, unsigned long now)
{
	struct sw_timer *timer;
	struct sw_tick tick;
	unsigned int i;

	if (!sw_collect_tick(r->base, now, &tick))
		return;
	sw_next_check(r, "a tick collected");
	timer = sw_tick_pop(&tick);
	if (timer)
		sw_next_expired(timer, tick.clk, r);
	for (i = 0; i < 4; i++) {
		struct sw_timer *t = &r->timers[prandom_u32_state(&r->rnd) % SW_NEXT_TIMERS];

		if (i % 2)
			sw_cancel(r->base, t);
		else
			sw_next_modify(r, t);
		sw_next_check(r, "a change in a collected tick");
	}
	while ((timer = sw_tick_pop(&tick)))
		sw_next_expired(timer, tick.clk, r);
}

static void sw_next_cache_matches_scan(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	unsigned int c, op, i;

	for (c = 1; c <= 2; c++) {
		struct sw_next_run r = { .test = test };
		unsigned int jump_bits;

		prandom_seed_state(&r.rnd, 0x7e57 + c);
		r.base = sw_test_new_base(test, sw_test_clock(param, c));
		r.timers = kunit_kcalloc(test, SW_NEXT_TIMERS, sizeof(*r.timers), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, r.timers);
		for (i = 0; i < SW_NEXT_TIMERS; i++)
			sw_timer_init(&r.timers[i], i % 4 ? 0 : SW_TIMER_DEFERRABLE);
		/* The classic wheel processes every tick: shorter jumps */
		jump_bits = sw_next_classic(r.base) ? 14 : 26;
		sw_next_check(&r, "init");

		for (op = 0; op < sw_test_ops(SW_NEXT_OPS); op++) {
			u32 a = prandom_u32_state(&r.rnd);
			struct sw_timer *t = &r.timers[(a >> 8) % SW_NEXT_TIMERS];
			unsigned long clk = r.base->clk;

			/* Long under KASAN and TCG: the soft lockup detector's thread runs */
			cond_resched();

			switch (a % 100) {
			case 0 ... 39:
				sw_next_modify(&r, t);
				break;
			case 40 ... 59:
				sw_cancel(r.base, t);
				break;
			case 60 ... 79:
				sw_run(r.base, clk + (a >> 20) % 4, sw_next_expired, &r);
				break;
			case 80 ... 87:
				sw_next_one_tick(&r, clk + (a >> 20) % 3);
				break;
			case 88 ... 91:
				sw_run(r.base, clk + (a >> 12) % 3000, sw_next_expired, &r);
				break;
			case 92 ... 94:
				sw_forward_clock(r.base, clk + (a >> 12) % (1UL << jump_bits));
				break;
			case 95:
				sw_take_any(r.base);
				break;
			default:
				sw_next_lookup(&r);
				break;
			}
			sw_next_check(&r, "an operation");
		}
		/* Every kind of state was seen, not only exact ones */
		KUNIT_EXPECT_GT(test, r.stale_seen, 0UL);
		KUNIT_EXPECT_GT(test, r.rearmed, 0UL);
		KUNIT_EXPECT_GT(test, r.lookups, 0UL);
		while (sw_take_any(r.base))
			sw_next_check(&r, "emptying");
		KUNIT_EXPECT_EQ(test, r.base->nr_pending, 0UL);
	}
}

/* After a lookup, nothing changing, the next lookups read what it kept */
static void sw_next_lookup_is_a_read(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	struct sw_base *base = sw_test_new_base(test, 1000);
	struct sw_timer t[3];
	unsigned long next;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		sw_timer_init(&t[i], 0);
		sw_modify(base, &t[i], 1000 + 5 + 100 * i);
	}
	/* Arms keep it exact */
	KUNIT_EXPECT_FALSE(test, base->next_stale & SW_NEXT_STALE(0));
	KUNIT_ASSERT_TRUE(test, sw_next_expiry(base, &next));
	KUNIT_EXPECT_EQ(test, next, param->kind == SW_WHEEL_CLASSIC ? 1005UL : 1006UL);
	/* The cancel of the timer that made it leaves it stale, found again on lookup */
	sw_cancel(base, &t[0]);
	KUNIT_EXPECT_TRUE(test, base->next_stale & SW_NEXT_STALE(0));
	KUNIT_ASSERT_TRUE(test, sw_next_expiry(base, &next));
	KUNIT_EXPECT_FALSE(test, base->next_stale & SW_NEXT_STALE(0));
	KUNIT_EXPECT_EQ(test, next, base->next_expiry[0]);
	KUNIT_EXPECT_GT(test, next, 1006UL);
	/* Another timer's cancel does not */
	sw_cancel(base, &t[2]);
	KUNIT_EXPECT_FALSE(test, base->next_stale & SW_NEXT_STALE(0));
	sw_cancel(base, &t[1]);
	KUNIT_EXPECT_FALSE(test, sw_next_expiry(base, &next));
	KUNIT_EXPECT_TRUE(test, base->next_stale & SW_NEXT_NONE(0));
}

SW_TEST_SUITE(sw_next_suite, "shadow_wheel_next_cache",
	      KUNIT_CASE_PARAM(sw_next_cache_matches_scan, sw_test_gen_grid_sample_params),
	      KUNIT_CASE_PARAM(sw_next_lookup_is_a_read, sw_test_gen_grid_sample_params));

/*
 * Suite shadow_wheel_bounds: the next expiry each base keeps, and the
 * timer it keeps it for, at the ends of what a tick can hold. One timer,
 * deferrable or not, 0, 1, LONG_MAX - 1, LONG_MAX, LONG_MAX + 1 or
 * ULONG_MAX ticks from the clock (the last two are in the past as the
 * clock's wrap reads them), with the clock on either side of the wraps of
 * unsigned long and of long, reached by starting there or by an empty
 * wheel idling there from far behind; and on the widest wheels, from a
 * clock that ticks of one timer at a time took far on. Its placement,
 * each half's cached next expiry, the lookup and the tick it runs at are
 * held to the contract (sw_test_expect(), sw_test_bucket(),
 * sw_test_look_at()), not to what a wheel happened to answer.
 */

static const unsigned long sw_bounds_deltas[] = {
	0, 1, LONG_MAX - 1, LONG_MAX, (unsigned long)LONG_MAX + 1, ULONG_MAX,
};

static const unsigned long sw_bounds_clocks[] = {
	0, 2, ULONG_MAX - 2, ULONG_MAX, LONG_MAX - 2, (unsigned long)LONG_MAX + 2,
};

/* How an empty wheel is brought to a clock: hops of the same length, each one way */
enum sw_bounds_way { SW_BOUNDS_RUN, SW_BOUNDS_FORWARD, SW_BOUNDS_TICK };

static const struct sw_bounds_arrival {
	const char		*name;
	enum sw_bounds_way	way;
	unsigned long		hop;
	unsigned int		hops;
} sw_bounds_arrivals[] = {
	{ "run 1 tick on", SW_BOUNDS_RUN, 1, 1 },
	{ "run LONG_MAX ticks on, 3 times", SW_BOUNDS_RUN, LONG_MAX, 3 },
	/* As far as sw_run() moves an idle wheel's clock without its ticks, and on */
	{ "run LONG_MAX / 2 ticks on", SW_BOUNDS_RUN, LONG_MAX / 2, 1 },
	{ "run LONG_MAX / 2 ticks on, twice", SW_BOUNDS_RUN, LONG_MAX / 2, 2 },
	{ "forwarded LONG_MAX / 2 ticks, 3 times", SW_BOUNDS_FORWARD, LONG_MAX / 2, 3 },
	{ "forwarded LONG_MAX ticks, twice", SW_BOUNDS_FORWARD, LONG_MAX, 2 },
	{ "one tick collected 1 tick on", SW_BOUNDS_TICK, 1, 1 },
	{ "one tick collected LONG_MAX ticks on, twice", SW_BOUNDS_TICK, LONG_MAX, 2 },
};

/* How far a classic wheel, which processes every tick, is run: past two cascades */
#define SW_BOUNDS_CLASSIC_REACH	600UL

/* The one timer, what it did, what the contract expects of it, and where it is */
struct sw_bounds_timer {
	struct sw_test_timer	t;
	struct sw_test_expect	exp;
	char			where[160];
};

/* Bring the empty @base to its clock plus @a's hops, the way @a says */
static void sw_bounds_idle(struct kunit *test, struct sw_base *base,
			   const struct sw_bounds_arrival *a)
{
	unsigned long to, next;
	struct sw_tick tick;
	unsigned int i;

	for (i = 0; i < a->hops; i++) {
		to = base->clk + a->hop;
		switch (a->way) {
		case SW_BOUNDS_RUN:
			KUNIT_EXPECT_EQ(test, sw_run(base, to - 1, sw_test_record, NULL), 0UL);
			break;
		case SW_BOUNDS_FORWARD:
			sw_forward_clock(base, to);
			break;
		case SW_BOUNDS_TICK:
			/* Nothing due before: the tick processed is the one asked for */
			KUNIT_ASSERT_TRUE(test, sw_collect_tick(base, to - 1, &tick));
			KUNIT_EXPECT_EQ_MSG(test, tick.clk, to - 1, "%s, hop %u", a->name, i);
			KUNIT_EXPECT_NULL(test, sw_tick_pop(&tick));
			break;
		}
		KUNIT_EXPECT_EQ_MSG(test, base->clk, to, "%s, hop %u", a->name, i);
		KUNIT_EXPECT_FALSE_MSG(test, sw_next_expiry(base, &next), "%s, hop %u", a->name,
				       i);
	}
}

/*
 * Set @bt, made deferrable or not by sw_timer_init(), to run @delta ticks
 * from the clock of @base: arm it, or move it if it is pending. What
 * sw_modify() says it did, and where it put the timer, are the contract's.
 */
static void sw_bounds_set(struct kunit *test, struct sw_base *base, struct sw_bounds_timer *bt,
			  unsigned long delta, const char *how)
{
	const struct sw_test_param *param = test->param_value;
	bool deferrable = bt->t.timer.flags & SW_TIMER_DEFERRABLE;
	unsigned long clk = base->clk;
	enum sw_modify_result expect;
	struct sw_test_expect exp;
	struct sw_place place;
	unsigned int idx;

	snprintf(bt->where, sizeof(bt->where), "%s timer at clk %#lx + %#lx, %s",
		 deferrable ? "deferrable" : "normal", clk, delta, how);
	sw_test_expect(param, clk, clk + delta, &exp);
	idx = sw_test_bucket(param, clk, &exp, deferrable);
	if (!sw_timer_pending(&bt->t.timer))
		expect = SW_MOD_ARMED;
	else if (bt->t.timer.expires == clk + delta)
		expect = SW_MOD_UNCHANGED;
	else if (param->kind != SW_WHEEL_CLASSIC && idx == bt->t.timer.idx &&
		 exp.run_at == bt->exp.run_at)
		expect = SW_MOD_SAME_BUCKET;
	else
		expect = SW_MOD_REQUEUED;
	bt->exp = exp;
	bt->t.expired = 0;
	KUNIT_ASSERT_EQ_MSG(test, sw_modify(base, &bt->t.timer, clk + delta), expect, "%s",
			    bt->where);

	KUNIT_EXPECT_EQ_MSG(test, sw_timer_level(base, &bt->t.timer), exp.level, "%s", bt->where);
	KUNIT_EXPECT_EQ_MSG(test, bt->t.timer.idx, idx, "%s", bt->where);
	KUNIT_EXPECT_EQ_MSG(test, bt->t.timer.bucket_expiry, exp.run_at, "%s", bt->where);
	KUNIT_EXPECT_EQ_MSG(test, !!(bt->t.timer.flags & SW_TIMER_OVERDUE), (long)delta < 0, "%s",
			    bt->where);
	KUNIT_EXPECT_EQ_MSG(test, !!(bt->t.timer.flags & SW_TIMER_CLAMPED), exp.clamped, "%s",
			    bt->where);
	/* And what the wheel says it would do is what it did */
	sw_wheel_place(&base->geo, clk, clk + delta, bt->t.timer.flags, &place);
	KUNIT_EXPECT_EQ_MSG(test, place.idx, bt->t.timer.idx, "%s", bt->where);
	KUNIT_EXPECT_EQ_MSG(test, place.bucket_expiry, bt->t.timer.bucket_expiry, "%s", bt->where);
	KUNIT_EXPECT_EQ_MSG(test, place.how, bt->t.timer.flags & SW_TIMER_PLACEMENT, "%s",
			    bt->where);
}

/*
 * Each half's cached next expiry for @base holding @bt alone, and the
 * lookup: the half that holds it is the tick the wheel must look at it
 * (exact after an arm, @armed; else maybe stale, a bound below it, not
 * before the clock), the other none; the lookup gives that tick, exact.
 * Classic keeps only the first half, of non-deferrable timers.
 */
static void sw_bounds_check_next(struct kunit *test, struct sw_base *base,
				 const struct sw_bounds_timer *bt, bool armed)
{
	bool deferrable = bt->t.timer.flags & SW_TIMER_DEFERRABLE;
	bool classic = base->geo.kind == SW_WHEEL_CLASSIC;
	unsigned long look = sw_test_look_at(test->param_value, base->clk, &bt->exp);
	unsigned long next = 0, cached;
	unsigned int half;
	bool found;

	for (half = 0; half < 2; half++) {
		bool holds = classic ? !half && !deferrable : half == deferrable;

		cached = base->next_expiry[half];
		KUNIT_EXPECT_EQ_MSG(test, !(base->next_stale & SW_NEXT_NONE(half)), holds,
				    "half %u none, %s", half, bt->where);
		if (!holds)
			continue;
		if (base->next_stale & SW_NEXT_STALE(half)) {
			KUNIT_EXPECT_FALSE_MSG(test, armed, "half %u stale, %s", half, bt->where);
			KUNIT_EXPECT_FALSE_MSG(test, sw_time_after(cached, look) ||
					       sw_time_before(cached, base->clk),
					       "half %u stale at %#lx, clk %#lx, %s", half, cached,
					       base->clk, bt->where);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, cached, look, "half %u, %s", half, bt->where);
	}
	found = sw_next_expiry(base, &next);
	KUNIT_EXPECT_EQ_MSG(test, found, !deferrable, "%s", bt->where);
	if (found) {
		KUNIT_EXPECT_EQ_MSG(test, next, look, "%s", bt->where);
		KUNIT_EXPECT_FALSE(test, base->next_stale & SW_NEXT_STALE(0));
	}
}

/*
 * Run @base up to the tick before it must look at @bt: nothing runs; then
 * that tick: @bt runs on the contract's tick, or, a seed timer parked
 * beyond the range, is placed again and kept for its next revolution. A
 * classic timer farther than the wheel can be run to tick by tick is run
 * part of the way, and must stay and be reported the same.
 */
static void sw_bounds_check_runs(struct kunit *test, struct sw_base *base,
				 struct sw_bounds_timer *bt)
{
	unsigned long look = sw_test_look_at(test->param_value, base->clk, &bt->exp);
	unsigned long next;

	if (base->geo.kind == SW_WHEEL_CLASSIC && look - base->clk > SW_BOUNDS_CLASSIC_REACH) {
		sw_run(base, base->clk + SW_BOUNDS_CLASSIC_REACH, sw_test_record, NULL);
		KUNIT_EXPECT_EQ_MSG(test, bt->t.expired, 0U, "%s", bt->where);
		sw_bounds_check_next(test, base, bt, false);
		return;
	}
	if (look != base->clk) {
		sw_run(base, look - 1, sw_test_record, NULL);
		KUNIT_EXPECT_EQ_MSG(test, bt->t.expired, 0U, "before %#lx, %s", look, bt->where);
		KUNIT_ASSERT_EQ_MSG(test, base->clk, look, "%s", bt->where);
	}
	sw_run(base, look, sw_test_record, NULL);
	if (look != bt->exp.run_at) {
		KUNIT_EXPECT_EQ_MSG(test, bt->t.expired, 0U, "cascade at %#lx, %s", look,
				    bt->where);
		KUNIT_EXPECT_TRUE_MSG(test, sw_timer_pending(&bt->t.timer), "%s", bt->where);
		sw_bounds_check_next(test, base, bt, false);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, bt->t.expired, 1U, "%s", bt->where);
	KUNIT_EXPECT_EQ_MSG(test, bt->t.expired_at, bt->exp.run_at, "%s", bt->where);
	KUNIT_EXPECT_FALSE_MSG(test, sw_next_expiry(base, &next), "%s", bt->where);
	KUNIT_EXPECT_EQ_MSG(test, base->nr_pending, 0UL, "%s", bt->where);
}

/* Every delta, deferrable and not, from the clock of @base as @how brought it there */
static void sw_bounds_every_delta(struct kunit *test, struct sw_base *base, const char *how)
{
	struct sw_bounds_timer *bt = kunit_kzalloc(test, sizeof(*bt), GFP_KERNEL);
	struct sw_base *copy = kunit_kzalloc(test, sizeof(*copy), GFP_KERNEL);
	unsigned int d, deferrable;

	KUNIT_ASSERT_NOT_NULL(test, bt);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	for (d = 0; d < ARRAY_SIZE(sw_bounds_deltas); d++) {
		for (deferrable = 0; deferrable < 2; deferrable++) {
			/* An empty wheel holds no pointer into itself: a copy is a wheel */
			memcpy(copy, base, sizeof(*base));
			sw_timer_init(&bt->t.timer, deferrable ? SW_TIMER_DEFERRABLE : 0);
			sw_bounds_set(test, copy, bt, sw_bounds_deltas[d], how);
			sw_bounds_check_next(test, copy, bt, true);
			sw_bounds_check_runs(test, copy, bt);
		}
	}
}

static void sw_bounds_one_timer_from_a_new_wheel(struct kunit *test)
{
	unsigned int c;

	for (c = 0; c < ARRAY_SIZE(sw_bounds_clocks); c++)
		sw_bounds_every_delta(test, sw_test_new_base(test, sw_bounds_clocks[c]),
				      "started there");
}

static void sw_bounds_one_timer_after_idling(struct kunit *test)
{
	unsigned int c, i;

	for (c = 0; c < ARRAY_SIZE(sw_bounds_clocks); c++) {
		for (i = 0; i < ARRAY_SIZE(sw_bounds_arrivals); i++) {
			const struct sw_bounds_arrival *a = &sw_bounds_arrivals[i];
			struct sw_base *base;

			base = sw_test_new_base(test, sw_bounds_clocks[c] - a->hop * a->hops);
			sw_bounds_idle(test, base, a);
			sw_bounds_every_delta(test, base, a->name);
		}
	}
}

/*
 * The widest wheels a spec makes, a rule each: a revolution of
 * 2^(BITS_PER_LONG - 2) ticks, the last level's shift 8 (depth - 1)
 */
#define SW_BOUNDS_WIDEST_DEPTH	((BITS_PER_LONG - 8) / 8 + 1)

static const struct sw_test_param sw_bounds_widest[] = {
	{ SW_WHEEL_SEED, 1000, 6, 8, SW_BOUNDS_WIDEST_DEPTH },
	{ SW_WHEEL_MAINLINE, 1000, 6, 8, SW_BOUNDS_WIDEST_DEPTH },
};

static const void *sw_bounds_gen_widest(const void *prev, char *desc)
{
	const struct sw_test_param *next = prev ? (const struct sw_test_param *)prev + 1 :
					   sw_bounds_widest;

	if (next == sw_bounds_widest + ARRAY_SIZE(sw_bounds_widest))
		return NULL;
	sw_test_spec(next, desc, KUNIT_PARAM_DESC_SIZE);
	return next;
}

/*
 * A half with none pending while ticks of the other move the clock: two
 * timers, each as far on as the wheel's range goes and run by sw_run(),
 * take the clock most of LONG_MAX ticks on with no tick of nothing due
 * between; a lookup finds none pending (the deferrable half not asked).
 * Then every delta, deferrable or not, is held to the contract as from a
 * wheel started there.
 */
static void sw_bounds_one_timer_after_far_ticks(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	struct sw_base *base = sw_test_new_base(test, 0);
	struct sw_test_timer *t = sw_test_timers(test, 1);
	unsigned long expires, next;
	struct sw_test_expect exp;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		expires = base->clk + sw_test_timeout_max(param);
		sw_test_expect(param, base->clk, expires, &exp);
		KUNIT_ASSERT_EQ(test, sw_modify(base, &t->timer, expires), SW_MOD_ARMED);
		KUNIT_ASSERT_EQ(test, sw_run(base, exp.run_at, sw_test_record, NULL), 1UL);
		KUNIT_ASSERT_EQ(test, t->expired_at, exp.run_at);
	}
	KUNIT_ASSERT_FALSE(test, sw_next_expiry(base, &next));
	sw_bounds_every_delta(test, base, "after two far ticks");
}

/*
 * A timer moved from each delta to each other one: the half it leaves and
 * the one it joins keep their next expiry (stale at worst, a bound below),
 * and it runs where the new delta puts it.
 */
static void sw_bounds_one_timer_moved(struct kunit *test)
{
	struct sw_bounds_timer *bt = kunit_kzalloc(test, sizeof(*bt), GFP_KERNEL);
	struct sw_base *base = sw_test_new_base(test, 0);
	unsigned int c, from, to, deferrable;

	KUNIT_ASSERT_NOT_NULL(test, bt);
	for (c = 0; c < ARRAY_SIZE(sw_bounds_clocks); c++) {
		for (from = 0; from < ARRAY_SIZE(sw_bounds_deltas); from++) {
			for (to = 0; to < 2 * ARRAY_SIZE(sw_bounds_deltas); to++) {
				deferrable = to % 2;
				sw_base_init(base, &base->geo, sw_bounds_clocks[c]);
				sw_timer_init(&bt->t.timer, deferrable ? SW_TIMER_DEFERRABLE : 0);
				sw_bounds_set(test, base, bt, sw_bounds_deltas[from], "armed");
				sw_bounds_set(test, base, bt, sw_bounds_deltas[to / 2], "moved");
				sw_bounds_check_next(test, base, bt, false);
				sw_bounds_check_runs(test, base, bt);
			}
		}
	}
}

SW_TEST_SUITE(sw_bounds_suite, "shadow_wheel_bounds",
	      KUNIT_CASE_PARAM(sw_bounds_one_timer_from_a_new_wheel,
			       sw_test_gen_grid_sample_params),
	      KUNIT_CASE_PARAM(sw_bounds_one_timer_after_idling, sw_test_gen_grid_sample_params),
	      KUNIT_CASE_PARAM(sw_bounds_one_timer_after_far_ticks, sw_bounds_gen_widest),
	      KUNIT_CASE_PARAM(sw_bounds_one_timer_moved, sw_test_gen_grid_sample_params));

kunit_test_suites(&sw_next_suite, &sw_bounds_suite);
