// SPDX-License-Identifier: GPL-2.0
/*
 * The classic cascading wheel on a live kernel (docs/design.rst, "The classic
 * wheel"; geometry=classic), the baseline the benchmarks compare with.
 *
 *  - Its geometry file has the classic table: a root of 256 buckets and
 *    four levels of 64, each bucket as wide as the level below, expiry
 *    granularity 1 at every level.
 *  - Timers armed across the root and level 1 all run, none early and
 *    none late: lateness is 0 (the classic wheel runs a timer on its tick,
 *    and they all end in the root), and the ones past the root were
 *    cascaded.
 */
#include "kselftest_harness.h"
#include "lib/swt_test.h"

#define SWT_CLASSIC_TIMERS	3000
#define SWT_CLASSIC_DELTA_MAX	2000	/* ticks: the root and level 1 */

FIXTURE(classic) {
	struct swt_geometry geo;
};

SWT_FIXTURE_SETUP(classic, "geometry=classic", NULL)
SWT_FIXTURE_TEARDOWN(classic, NULL)

TEST_F(classic, geometry_is_the_classic_table)
{
	static const u64 offset[] = { 0, 256, 320, 384, 448 };
	static const u64 start[] = { 0, 256, 16384, 1048576, 67108864, 4294967296ULL };
	const struct swt_geometry *g = &self->geo;
	unsigned int lvl;

	if (_metadata->skip)
		return;
	EXPECT_STREQ("classic", g->wheel);
	ASSERT_EQ(5U, g->levels);
	EXPECT_EQ(start[5], g->cutoff);
	for (lvl = 0; lvl < 5; lvl++) {
		const struct swt_geo_level *l = &g->level[lvl];

		EXPECT_EQ(offset[lvl], l->offset) TH_LOG("level %u", lvl);
		EXPECT_EQ(1ULL, l->gran) TH_LOG("level %u", lvl);
		EXPECT_EQ(start[lvl], l->start) TH_LOG("level %u", lvl);
		EXPECT_EQ(start[lvl + 1] - 1, l->end) TH_LOG("level %u", lvl);
	}
}

TEST_F(classic, every_timer_runs_on_its_tick)
{
	struct swt_arm a = { .cpu = -1, .count = SWT_CLASSIC_TIMERS, .lo = 1,
			    .hi = SWT_CLASSIC_DELTA_MAX };
	struct swt_lateness lt;
	struct swt_stats st;
	char why[256];
	unsigned int lvl;
	u64 expired = 0;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, swt_arm(&self->geo, &a)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_wait_tick(&self->geo, a.last_tick + 2)) TH_LOG("%s", swt_error());
	/* The tasklet may still be running the last tick's timers */
	for (lvl = 0; lvl < 100; lvl++) {
		ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
		if (!st.total.pending)
			break;
		swt_sleep_ms(100);
	}
	EXPECT_TRUE(swt_stats_sane(&st, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(0ULL, st.total.pending);
	EXPECT_EQ((u64)SWT_CLASSIC_TIMERS, st.total.expired);
	EXPECT_EQ(0ULL, st.total.early);
	/* Deltas of 256 and more went to level 1 first */
	EXPECT_LT(0ULL, st.total.cascaded);
	swt_msg("%llu expired, %llu cascaded", st.total.expired, st.total.cascaded);

	ASSERT_EQ(0, swt_lateness_read(&lt)) TH_LOG("%s", swt_error());
	for (lvl = 0; lvl < lt.levels; lvl++) {
		const struct swt_late_level *l = &lt.level[lvl];

		if (!l->present || !l->expired)
			continue;
		expired += l->expired;
		EXPECT_EQ(0ULL, l->late_max)
			TH_LOG("level %u: %llu .. %llu ticks late", lvl, l->late_min, l->late_max);
	}
	/* None was placed for a tick already gone: all are in the lateness */
	EXPECT_EQ((u64)SWT_CLASSIC_TIMERS, expired);
}

TEST_HARNESS_MAIN
