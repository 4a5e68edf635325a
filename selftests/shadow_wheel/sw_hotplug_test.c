// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug (docs/design.rst: "A CPU that goes offline hands its pending shadow
 * timers to an online CPU; one that comes back starts with its clock at
 * jiffies"; stats: migrated; errors: -ENODEV for an offline CPU).
 *
 * Timers on CPU 1, long (3 s .. 5 s) and short (100 ms .. 1 s), and some on
 * CPU 0; then CPU 1 goes offline (the other CPUs, if any, stay online):
 *  - CPU 1 has nothing pending and is not online in stats, nothing was lost
 *    or added (armed unchanged, the long ones all still pending); migrated
 *    counts the timers moved, as migrated_out of CPU 1 and migrated_in of
 *    the online CPUs, and every read adds up, in total and per CPU;
 *  - arming on CPU 1 gives -ENODEV and changes nothing; arming without a
 *    CPU goes to the online ones only.
 * CPU 1 comes back: its clock starts at jiffies and it takes timers again.
 * Then every timer runs by the time it must: expired = armed, the per-CPU
 * counts add up to the totals, and lateness stays within 1 .. gran.
 *
 * Skipped when CPU 1 cannot be taken offline.
 */

#include "kselftest_harness.h"
#include "lib/swt_test.h"

#define SWT_CPU			1
#define SWT_GRACE_MS		2000	/* for the tasklet to run once they are due */
#define SWT_POLL_MS		100

/* CPU 1 online to start with: a run that failed half way may have left it offline */
static void swt_cpu_online_first(struct __test_metadata *_metadata)
{
	if (!swt_cpu_online(SWT_CPU) && swt_cpu_set_online(SWT_CPU, true))
		SKIP(return, "CPU %u is not online: %s", SWT_CPU, swt_error());
}

/* And online again at the end, whatever happened */
static void swt_cpu_online_after(struct __test_metadata *_metadata)
{
	int ret = swt_cpu_online(SWT_CPU) ? 0 : swt_cpu_set_online(SWT_CPU, true);

	EXPECT_EQ(0, ret) TH_LOG("CPU %u left offline: %s", SWT_CPU, swt_error());
}

FIXTURE(hotplug) {
	struct swt_geometry geo;
};

SWT_FIXTURE_SETUP(hotplug, NULL, swt_cpu_online_first)
SWT_FIXTURE_TEARDOWN(hotplug, swt_cpu_online_after)

/*
 * CPU 1 gone offline (@s0 the stats before, @lng its long timers): nothing
 * was lost or added, its timers moved to CPU 0 and were counted as moved;
 * the stats after in @s1
 */
static void swt_expect_timers_moved_off(struct __test_metadata *_metadata,
					const struct swt_stats *s0, const struct swt_arm *lng,
					struct swt_stats *s1)
{
	u64 j_offline, moved;
	char why[256];

	ASSERT_EQ(0, swt_stats_read(s1)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_jiffies(&j_offline)) TH_LOG("%s", swt_error());
	moved = s1->total.migrated - s0->total.migrated;
	swt_msg("cpu%u offline: %llu of its %llu timers moved, %llu pending in all",
		SWT_CPU, moved, s0->cpu[SWT_CPU].pending, s1->total.pending);
	EXPECT_TRUE(swt_stats_sane(s1, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(s0->total.armed, s1->total.armed);
	EXPECT_EQ(s0->total.pending, s1->total.pending + s1->total.expired - s0->total.expired);
	EXPECT_EQ(0U, s1->cpu[SWT_CPU].pending);
	EXPECT_EQ(0U, s1->cpu[SWT_CPU].online);
	EXPECT_GE(s0->cpu[SWT_CPU].pending, moved);
	/* The online CPUs took them all */
	EXPECT_EQ(moved, SWT_CPU_SUM(s1, migrated_in) - SWT_CPU_SUM(s0, migrated_in));
	EXPECT_EQ(moved, s1->cpu[SWT_CPU].migrated_out - s0->cpu[SWT_CPU].migrated_out);
	EXPECT_EQ(s1->total.migrated, SWT_CPU_SUM(s1, migrated_in));
	EXPECT_EQ(s1->total.migrated, SWT_CPU_SUM(s1, migrated_out));
	if ((s64)(j_offline - lng->first_tick) < 0) {
		EXPECT_LE(lng->count, moved);
		EXPECT_LE(lng->count, s1->total.pending);
	} else {
		swt_msg("going offline took past the first long timer: not counted");
	}
}

/*
 * Arming on offline CPU 1 fails and changes nothing; arming without a CPU
 * (@spread) goes to the online CPUs only. The stats after the failed arm
 * in @s2.
 */
static void swt_expect_nothing_goes_offline(struct __test_metadata *_metadata,
					    const struct swt_geometry *g,
					    const struct swt_stats *s1, struct swt_arm *spread,
					    struct swt_stats *s2)
{
	struct swt_stats s3;

	EXPECT_EQ(-ENODEV, swt_control("arm count=1 delta=10 cpu=%u", SWT_CPU));
	ASSERT_EQ(0, swt_stats_read(s2)) TH_LOG("%s", swt_error());
	EXPECT_EQ(s1->total.armed, s2->total.armed);
	EXPECT_EQ(s1->cpu[SWT_CPU].armed, s2->cpu[SWT_CPU].armed);
	ASSERT_EQ(0, swt_arm(g, spread)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_stats_read(&s3)) TH_LOG("%s", swt_error());
	EXPECT_EQ(s2->cpu[SWT_CPU].armed, s3.cpu[SWT_CPU].armed);
	EXPECT_EQ(s2->total.armed + spread->count, s3.total.armed);
}

/* CPU 1 back online: its clock starts at jiffies, and it takes timers (@back) */
static void swt_expect_back_online(struct __test_metadata *_metadata,
				   const struct swt_geometry *g,
				   const struct swt_stats *s2, struct swt_arm *back)
{
	struct swt_stats s3;
	struct swt_wheel w;
	u64 j;

	ASSERT_EQ(0, swt_jiffies(&j)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_cpu_set_online(SWT_CPU, true)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_wheel_read(SWT_CPU, &w)) TH_LOG("%s", swt_error());
	swt_msg("cpu%u online: clk %llu, jiffies %llu (%llu before)",
		SWT_CPU, w.clk, w.jiffies, j);
	EXPECT_LE(0, (s64)(w.clk - j)) TH_LOG("clock left behind jiffies");
	EXPECT_LE(0, (s64)(w.jiffies + 1 - w.clk)) TH_LOG("clock ahead of jiffies");
	EXPECT_EQ(0U, w.pending);
	ASSERT_EQ(0, swt_arm(g, back)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_stats_read(&s3)) TH_LOG("%s", swt_error());
	EXPECT_EQ(1U, s3.cpu[SWT_CPU].online);
	EXPECT_EQ(s2->cpu[SWT_CPU].armed + back->count, s3.cpu[SWT_CPU].armed);
}

/* Every timer of the @nr @arms runs by the time it must: nothing lost */
static void swt_expect_every_timer_runs(struct __test_metadata *_metadata,
					const struct swt_geometry *g,
					const struct swt_arm *arms, unsigned int nr)
{
	struct swt_poll poll = { .grace_ms = SWT_GRACE_MS, .poll_ms = SWT_POLL_MS };
	struct swt_lateness lt;
	struct swt_stats st;
	char why[256];
	u64 j, total;

	poll.due = swt_arms_last_tick(arms, nr, &total);
	ASSERT_EQ(0, swt_jiffies(&j)) TH_LOG("%s", swt_error());
	swt_msg("%llu timers, all due by tick %llu (%llu ms from now)",
		total, poll.due, swt_ticks_to_ms(g, poll.due - j));
	do {
		ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
		ASSERT_EQ(0, swt_jiffies(&j)) TH_LOG("%s", swt_error());
		ASSERT_TRUE(swt_stats_sane(&st, why, sizeof(why))) TH_LOG("%s", why);
	} while (st.total.pending && swt_poll_again(&poll, j));
	EXPECT_EQ(total, st.total.armed);
	EXPECT_EQ(total, st.total.expired)
		TH_LOG("%llu pending at jiffies %llu, due by %llu",
		       st.total.pending, j, poll.due);
	EXPECT_EQ(0U, st.total.cancelled);
	EXPECT_EQ(0U, st.total.alive);
	EXPECT_EQ(st.total.expired, SWT_CPU_SUM(&st, expired));
	EXPECT_EQ(st.total.armed, SWT_CPU_SUM(&st, armed));
	EXPECT_EQ(st.total.migrated, SWT_CPU_SUM(&st, migrated_in));

	ASSERT_EQ(0, swt_lateness_read(&lt)) TH_LOG("%s", swt_error());
	swt_expect_late_within_gran(_metadata, &lt);
}

TEST_F_TIMEOUT(hotplug, timers_move_off_an_offline_cpu, 90)
{
	const struct swt_geometry *g = &self->geo;
	struct swt_arm arms[5] = {
		{ .cpu = SWT_CPU, .count = 2000, .lo = 3000, .hi = 5000, .ms = true },
		{ .cpu = SWT_CPU, .count = 200, .lo = 100, .hi = 1000, .ms = true },
		{ .cpu = 0, .count = 100, .lo = 100, .hi = 5000, .ms = true },
		/* while CPU 1 is offline, spread over the online CPUs */
		{ .cpu = -1, .count = 10, .lo = 100, .hi = 100, .ms = true },
		/* CPU 1 back online */
		{ .cpu = SWT_CPU, .count = 100, .lo = 200, .hi = 200, .ms = true },
	};
	struct swt_stats s0, s1, s2;
	unsigned int i;
	int ret;

	if (_metadata->skip)
		return;

	for (i = 0; i < 3; i++) {
		ret = swt_arm(g, &arms[i]);
		ASSERT_EQ(0, ret) TH_LOG("%s", swt_error());
	}
	ASSERT_EQ(0, swt_stats_read(&s0)) TH_LOG("%s", swt_error());

	ret = swt_cpu_set_online(SWT_CPU, false);
	if (ret)
		SKIP(return, "CPU %u cannot be taken offline: %s", SWT_CPU, strerror(-ret));
	swt_expect_timers_moved_off(_metadata, &s0, &arms[0], &s1);
	swt_expect_nothing_goes_offline(_metadata, g, &s1, &arms[3], &s2);
	swt_expect_back_online(_metadata, g, &s2, &arms[4]);
	swt_expect_every_timer_runs(_metadata, g, arms, ARRAY_SIZE(arms));
}

TEST_HARNESS_MAIN
