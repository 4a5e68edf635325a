// SPDX-License-Identifier: GPL-2.0
/*
 * Unloading under load (README: "Unloading cancels and frees every timer
 * and stops everything first").
 *
 * A mixed run at 20000 timers a second for 30 s; after 1 s, rmmod succeeds
 * at once, the module and its debugfs directory are gone, and it loads
 * again, empty.
 */

#include "kselftest_harness.h"
#include "sw_test.h"

FIXTURE(unload) {
	struct sw_geometry geo;
};

FIXTURE_SETUP(unload)
{
	int ret;

	if (!sw_module_file_present())
		SKIP(return, "no module file at %s (SW_MODULE) to load", sw_module_path());
	ret = sw_start(NULL);
	if (ret == SW_SKIP)
		SKIP(return, "%s", sw_error());
	ASSERT_EQ(0, ret) TH_LOG("%s", sw_error());
}

FIXTURE_TEARDOWN(unload)
{
	sw_teardown(_metadata);
}

TEST_F_TIMEOUT(unload, under_load, 60)
{
	struct sw_stats st;
	u64 start;
	char why[256];

	if (_metadata->skip)
		return;

	ASSERT_EQ(0, sw_control("run preset=mixed rate=20000 duration=30"))
		TH_LOG("%s", sw_error());
	sw_sleep_ms(1000);
	ASSERT_EQ(0, sw_stats_read(&st)) TH_LOG("%s", sw_error());
	sw_msg("after 1 s: armed %llu, modified %llu, cancelled %llu, expired %llu, pending %llu",
	       st.total.armed, st.total.modified, st.total.cancelled, st.total.expired,
	       st.total.pending);
	EXPECT_LT(0U, st.total.armed) TH_LOG("the run armed nothing");
	EXPECT_LT(0U, st.total.pending) TH_LOG("the run left nothing pending");
	EXPECT_TRUE(sw_stats_sane(&st, why, sizeof(why))) TH_LOG("%s", why);

	start = sw_now_ms();
	ASSERT_EQ(0, sw_unload()) TH_LOG("%s", sw_error());
	sw_msg("rmmod took %llu ms", sw_now_ms() - start);
	EXPECT_FALSE(sw_module_loaded());
	EXPECT_FALSE(sw_debugfs_present()) TH_LOG("%s outlived the module", sw_debugfs_dir());

	/* And it comes back, empty */
	ASSERT_EQ(0, sw_load(NULL)) TH_LOG("%s", sw_error());
	ASSERT_EQ(0, sw_stats_read(&st)) TH_LOG("%s", sw_error());
	EXPECT_EQ(0U, st.total.armed);
	EXPECT_EQ(0U, st.total.pending);
}

TEST_HARNESS_MAIN
