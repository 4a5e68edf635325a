// SPDX-License-Identifier: GPL-2.0
/*
 * Timers expire on the running kernel's jiffies as the contract
 * (docs/design.rst) says: a timer armed for expiry E and placed at level n runs on a tick in
 * E + 1 .. E + gran(n), never before; stats and lateness account for every
 * one of them. For seed, mainline and a shape given by its spec:
 *
 *  - near_levels: the levels whose range can be waited for (0 to 2 at
 *    least, and more while the end of a level's range plus its granularity
 *    fits in SWT_WAIT_BUDGET_MS). Timers at the start, middle and end of each
 *    of them, on every online CPU; until they must all have run, none may
 *    run before its time (checked from user space on jiffies); then all have
 *    expired, early is 0, lateness per level is within 1 .. gran, and each
 *    level expired the timers that can only have gone there.
 *  - far_levels: the levels beyond that, and deltas beyond the wheel's range
 *    (up to the largest, 2^40 ticks): the timers sit pending at their level
 *    in cpuN/wheel, and cancel-all takes every one out.
 *
 * Where a timer goes depends on where the target wheel's clock is when it is
 * armed: swt_arm() reads it around each command, and the expected level of a
 * group of timers is the range of levels its deltas can have mapped to.
 */

#include "kselftest_harness.h"
#include "lib/swt_test.h"

#define SWT_WAIT_BUDGET_MS	20000	/* the longest wait for a level's range */
#define SWT_COUNT		8	/* timers per arm command */
#define SWT_GRACE_MS		2000	/* for the tasklet to run once they are due */
#define SWT_POLL_MS		100

/*
 * The arm commands of a test, and what is known of each: three on each CPU
 * for each level, and two beyond the range. Each test runs in a child
 * process of its own: one plan serves them all.
 */
struct swt_plan {
	const struct swt_geometry *geo;
	unsigned int nr;
	struct swt_arm arm[3 * SWT_MAX_LEVELS * SWT_MAX_CPUS + 2];
};

static struct swt_plan swt_plan;

static struct swt_plan *swt_plan_start(const struct swt_geometry *geo)
{
	swt_plan.geo = geo;
	swt_plan.nr = 0;
	return &swt_plan;
}

FIXTURE_VARIANT(expiry) {
	const char *params;
};

FIXTURE(expiry) {
	struct swt_geometry geo;
};

SWT_FIXTURE_SETUP(expiry, variant->params, NULL)
SWT_FIXTURE_TEARDOWN(expiry, NULL)

FIXTURE_VARIANT_ADD(expiry, seed) {
	.params = "geometry=seed",
};

FIXTURE_VARIANT_ADD(expiry, mainline) {
	.params = "geometry=mainline",
};

/* Any shape, by its spec: 32 buckets, each level 4 times the last's granularity */
FIXTURE_VARIANT_ADD(expiry, spec) {
	.params = "geometry=bits=5,shift=2,depth=9",
};

/* Levels 0 .. near - 1 are waited for: 0 to 2, and those within the budget */
static unsigned int swt_near_levels(const struct swt_geometry *g)
{
	unsigned int lvl, near = 0;

	for (lvl = 0; lvl < g->levels; lvl++) {
		if (lvl > 2 && swt_ticks_to_ms(g, g->level[lvl].end + g->level[lvl].gran) >
			       SWT_WAIT_BUDGET_MS)
			break;
		near = lvl + 1;
	}
	return near;
}

/* Arm SWT_COUNT timers with delta @delta ticks on @cpu, and note them */
static int swt_arm_one(struct swt_plan *plan, int cpu, u64 delta)
{
	struct swt_arm *a = &plan->arm[plan->nr];
	int ret;

	a->cpu = cpu;
	a->count = SWT_COUNT;
	a->lo = delta;
	a->hi = delta;
	ret = swt_arm(plan->geo, a);
	if (!ret)
		plan->nr++;
	return ret;
}

/* How many timers (on @cpu, or all) can only be at level @lvl, and can be */
static void swt_level_bounds(const struct swt_plan *plan, int cpu, unsigned int lvl,
			     u64 *lower, u64 *upper)
{
	unsigned int i;

	*lower = 0;
	*upper = 0;
	for (i = 0; i < plan->nr; i++) {
		const struct swt_arm *a = &plan->arm[i];

		if (cpu >= 0 && a->cpu != cpu)
			continue;
		if (a->lvl_lo == lvl && a->lvl_hi == lvl)
			*lower += a->count;
		if (a->lvl_lo <= lvl && lvl <= a->lvl_hi)
			*upper += a->count;
	}
}

/* How many of the plan's timers may have run by jiffies @j */
static u64 swt_plan_due(const struct swt_plan *plan, u64 j)
{
	unsigned int i;
	u64 due = 0;

	for (i = 0; i < plan->nr; i++)
		if ((s64)(j - plan->arm[i].first_tick) >= 0)
			due += plan->arm[i].count;
	return due;
}

/* Timers at the start, middle and end of each of the @near levels, on each online CPU */
static void swt_arm_near_levels(struct __test_metadata *_metadata, struct swt_plan *plan,
				unsigned int near)
{
	const struct swt_geometry *g = plan->geo;
	unsigned int online[SWT_MAX_CPUS], ncpu, lvl, pos, cpu;

	ncpu = swt_cpus_online(online);
	for (lvl = 0; lvl < near; lvl++) {
		const u64 delta[3] = {
			g->level[lvl].start,
			(g->level[lvl].start + g->level[lvl].end) / 2,
			g->level[lvl].end,
		};

		for (pos = 0; pos < 3; pos++)
			for (cpu = 0; cpu < ncpu; cpu++)
				ASSERT_EQ(0, swt_arm_one(plan, online[cpu], delta[pos]))
					TH_LOG("%s", swt_error());
	}
}

/*
 * Until the plan's @total timers have all run, or should have by @due: none
 * runs before its time, and the counts add up; the last stats in @st, at
 * jiffies @j
 */
static void swt_expect_none_early(struct __test_metadata *_metadata,
				  const struct swt_plan *plan, u64 total, u64 due,
				  struct swt_stats *st, u64 *j)
{
	struct swt_poll poll = { .due = due, .grace_ms = SWT_GRACE_MS, .poll_ms = SWT_POLL_MS };
	u64 start_ms = swt_now_ms(), allowed;
	char why[256];

	do {
		ASSERT_EQ(0, swt_stats_read(st)) TH_LOG("%s", swt_error());
		ASSERT_EQ(0, swt_jiffies(j)) TH_LOG("%s", swt_error());
		ASSERT_TRUE(swt_stats_sane(st, why, sizeof(why))) TH_LOG("%s", why);
		allowed = swt_plan_due(plan, *j);
		ASSERT_LE(st->total.expired, allowed)
			TH_LOG("at jiffies %llu, %llu expired, at most %llu were due",
			       *j, st->total.expired, allowed);
	} while (st->total.expired != total && swt_poll_again(&poll, *j));
	swt_msg("waited %llu ms after arming", swt_now_ms() - start_ms);
}

/*
 * Lateness: every level has a line with its granularity, expired the
 * plan's timers that can only have gone there and at most those that may
 * have, 1 .. gran ticks late; and the delivery counted all @total
 */
static void swt_expect_lateness_by_level(struct __test_metadata *_metadata,
					 const struct swt_plan *plan, u64 total)
{
	const struct swt_geometry *g = plan->geo;
	u64 lower, upper, sum = 0;
	struct swt_lateness lt;
	unsigned int lvl;

	ASSERT_EQ(0, swt_lateness_read(&lt)) TH_LOG("%s", swt_error());
	ASSERT_EQ(g->levels, lt.levels);
	for (lvl = 0; lvl < lt.levels; lvl++) {
		const struct swt_late_level *ll = &lt.level[lvl];

		ASSERT_TRUE(ll->present) TH_LOG("no lateness line for level %u", lvl);
		EXPECT_EQ(g->level[lvl].gran, ll->gran) TH_LOG("level %u", lvl);
		swt_level_bounds(plan, -1, lvl, &lower, &upper);
		EXPECT_LE(lower, ll->expired) TH_LOG("level %u", lvl);
		EXPECT_GE(upper, ll->expired) TH_LOG("level %u", lvl);
		sum += ll->expired;
		if (!ll->expired)
			continue;
		swt_msg("level %u gran %llu: %llu expired, %llu .. %llu ticks late; hist %s",
			lvl, ll->gran, ll->expired, ll->late_min, ll->late_max, ll->hist);
	}
	swt_expect_late_within_gran(_metadata, &lt);
	EXPECT_EQ(total, sum);

	/* Delivery: jiffies when the callback ran minus the tick that ran it */
	EXPECT_EQ(total, lt.delivery_expired);
	swt_msg("delivery: %llu expired, delay %llu .. %llu ticks (%llu .. %llu ms); hist %s",
		lt.delivery_expired, lt.delay_min, lt.delay_max, swt_ticks_to_ms(g, lt.delay_min),
		swt_ticks_to_ms(g, lt.delay_max), lt.delivery_hist);
}

TEST_F_TIMEOUT(expiry, near_levels, 120)
{
	const struct swt_geometry *g = &self->geo;
	struct swt_plan *plan = swt_plan_start(g);
	const unsigned int near = swt_near_levels(g);
	u64 total, deadline, j;
	struct swt_stats st;

	if (_metadata->skip)
		return;

	swt_arm_near_levels(_metadata, plan, near);
	deadline = swt_arms_last_tick(plan->arm, plan->nr, &total);
	ASSERT_EQ(0, swt_jiffies(&j)) TH_LOG("%s", swt_error());
	swt_msg("%s: %llu timers, levels 0..%u, all due by tick %llu (in %llu ms at HZ=%u)",
		g->wheel, total, near - 1, deadline, swt_ticks_to_ms(g, deadline - j), g->hz);

	swt_expect_none_early(_metadata, plan, total, deadline, &st, &j);
	EXPECT_EQ(total, st.total.armed);
	EXPECT_EQ(total, st.total.expired)
		TH_LOG("%llu still pending at jiffies %llu, due by %llu",
		       st.total.pending, j, deadline);
	EXPECT_EQ(0U, st.total.cancelled);
	EXPECT_EQ(0U, st.total.cascaded);
	EXPECT_EQ(0U, st.total.clamped);
	EXPECT_EQ(total, SWT_CPU_SUM(&st, expired));

	swt_expect_lateness_by_level(_metadata, plan, total);
}

/*
 * Timers at the start, middle and end of each level from @near on, clear
 * of the level's edges by @slack ticks, and two beyond the range, spread
 * over the @ncpu @online CPUs
 */
static void swt_arm_far_levels(struct __test_metadata *_metadata, struct swt_plan *plan,
			       unsigned int near, u64 slack,
			       const unsigned int *online, unsigned int ncpu)
{
	const struct swt_geometry *g = plan->geo;
	unsigned int lvl, pos, next = 0;
	u64 ticks[3];

	for (lvl = near; lvl < g->levels; lvl++) {
		ticks[0] = g->level[lvl].start + slack;
		ticks[1] = (g->level[lvl].start + g->level[lvl].end) / 2;
		ticks[2] = g->level[lvl].end - slack;
		for (pos = 0; pos < 3; pos++)
			ASSERT_EQ(0, swt_arm_one(plan, online[next++ % ncpu], ticks[pos]))
				TH_LOG("%s", swt_error());
	}
	/* Beyond the range: seed cascades, mainline clamps; both in the last level */
	ASSERT_EQ(0, swt_arm_one(plan, online[next++ % ncpu], g->cutoff + g->cutoff / 2))
		TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_arm_one(plan, online[next++ % ncpu], SWT_MAX_DELTA))
		TH_LOG("%s", swt_error());
}

/*
 * CPU @cpu's wheel holds what stats (@st) say is pending there, all of it
 * normal, and at each level the plan's timers that can only be there and
 * at most those that can
 */
static void swt_expect_pending_by_level(struct __test_metadata *_metadata,
					const struct swt_plan *plan, unsigned int cpu,
					const struct swt_stats *st)
{
	u64 have, lower, upper;
	struct swt_wheel w;
	unsigned int lvl;

	ASSERT_EQ(0, swt_wheel_read(cpu, &w)) TH_LOG("%s", swt_error());
	EXPECT_EQ(st->cpu[cpu].pending, w.pending) TH_LOG("cpu%u", cpu);
	EXPECT_EQ(w.pending, swt_wheel_normal(&w)) TH_LOG("cpu%u", cpu);
	EXPECT_EQ(0U, swt_wheel_deferrable(&w)) TH_LOG("cpu%u", cpu);
	EXPECT_TRUE(!w.pending || w.has_next)
		TH_LOG("cpu%u: timers pending, next_expiry none", cpu);
	for (lvl = 0; lvl < plan->geo->levels; lvl++) {
		have = w.level[lvl].normal_timers;
		swt_level_bounds(plan, cpu, lvl, &lower, &upper);
		if (have || upper)
			swt_msg("cpu%u level %u: %llu timers, %llu buckets, want %llu..%llu",
				cpu, lvl, have, w.level[lvl].normal_buckets, lower, upper);
		EXPECT_LE(lower, have) TH_LOG("cpu%u level %u", cpu, lvl);
		EXPECT_GE(upper, have) TH_LOG("cpu%u level %u", cpu, lvl);
	}
}

/* cancel-all takes out all @total timers, and every wheel is empty */
static void swt_expect_cancel_all_takes_all(struct __test_metadata *_metadata, u64 total,
					    const unsigned int *online, unsigned int ncpu)
{
	struct swt_stats st;
	struct swt_wheel w;
	unsigned int i;

	ASSERT_EQ(0, swt_control("cancel-all")) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
	EXPECT_EQ(0U, st.total.pending);
	EXPECT_EQ(total, st.total.cancelled);
	EXPECT_EQ(0U, st.total.expired);
	for (i = 0; i < ncpu; i++) {
		ASSERT_EQ(0, swt_wheel_read(online[i], &w)) TH_LOG("%s", swt_error());
		EXPECT_EQ(0U, w.pending) TH_LOG("cpu%u", online[i]);
		EXPECT_EQ(0U, swt_wheel_normal(&w)) TH_LOG("cpu%u", online[i]);
		EXPECT_FALSE(w.has_next) TH_LOG("cpu%u: empty, next_expiry %llu",
						online[i], w.next_expiry);
	}
}

TEST_F(expiry, far_levels)
{
	const struct swt_geometry *g = &self->geo;
	struct swt_plan *plan = swt_plan_start(g);
	unsigned int online[SWT_MAX_CPUS], ncpu, i;
	struct swt_stats st;
	u64 slack, total;

	if (_metadata->skip)
		return;

	ncpu = swt_cpus_online(online);
	ASSERT_LT(0U, ncpu);

	/* Clear of the level's edges by more than the clock can be off */
	slack = 2 + g->hz / 10;
	swt_arm_far_levels(_metadata, plan, swt_near_levels(g), slack, online, ncpu);
	swt_arms_last_tick(plan->arm, plan->nr, &total);
	for (i = 0; i < plan->nr; i++) {
		const struct swt_arm *a = &plan->arm[i];

		if (a->lvl_lo != a->lvl_hi)
			swt_msg("'%s': level %u or %u, the clock off by more than %llu ticks",
				a->cmd, a->lvl_lo, a->lvl_hi, slack);
	}

	ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
	EXPECT_EQ(total, st.total.armed);
	EXPECT_EQ(total, st.total.pending);
	EXPECT_EQ(0U, st.total.expired);
	for (i = 0; i < ncpu; i++)
		swt_expect_pending_by_level(_metadata, plan, online[i], &st);

	swt_expect_cancel_all_takes_all(_metadata, total, online, ncpu);
}

TEST_HARNESS_MAIN
