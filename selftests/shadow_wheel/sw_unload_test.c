// SPDX-License-Identifier: GPL-2.0
/*
 * Unloading under load (docs/design.rst: "Unloading cancels and frees every timer
 * and stops everything first").
 *
 * A mixed run at 20000 timers a second for 30 s; after 1 s, rmmod succeeds
 * at once, the module and its debugfs directory are gone, and it loads
 * again, empty.
 */

#include "kselftest_harness.h"
#include "lib/swt_test.h"

FIXTURE(unload) {
	struct swt_geometry geo;
};

FIXTURE_SETUP(unload)
{
	int ret;

	if (!swt_module_file_present())
		SKIP(return, "no module file at %s (SW_MODULE) to load", swt_module_path());
	ret = swt_start(NULL);
	if (ret == SWT_SKIP)
		SKIP(return, "%s", swt_error());
	ASSERT_EQ(0, ret) TH_LOG("%s", swt_error());
}

FIXTURE_TEARDOWN(unload)
{
	swt_teardown(_metadata);
}

TEST_F_TIMEOUT(unload, under_load, 60)
{
	struct swt_stats st;
	u64 start;
	char why[256];

	if (_metadata->skip)
		return;

	ASSERT_EQ(0, swt_control("run preset=mixed rate=20000 duration=30"))
		TH_LOG("%s", swt_error());
	swt_sleep_ms(1000);
	ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
	swt_msg("after 1 s: armed %llu, modified %llu, cancelled %llu, expired %llu, pending %llu",
		st.total.armed, st.total.modified, st.total.cancelled, st.total.expired,
	       st.total.pending);
	EXPECT_LT(0U, st.total.armed) TH_LOG("the run armed nothing");
	EXPECT_LT(0U, st.total.pending) TH_LOG("the run left nothing pending");
	EXPECT_TRUE(swt_stats_sane(&st, why, sizeof(why))) TH_LOG("%s", why);

	start = swt_now_ms();
	ASSERT_EQ(0, swt_unload()) TH_LOG("%s", swt_error());
	swt_msg("rmmod took %llu ms", swt_now_ms() - start);
	EXPECT_FALSE(swt_module_loaded());
	EXPECT_FALSE(swt_debugfs_present()) TH_LOG("%s outlived the module", swt_debugfs_dir());

	/* And it comes back, empty */
	ASSERT_EQ(0, swt_load(NULL)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
	EXPECT_EQ(0U, st.total.armed);
	EXPECT_EQ(0U, st.total.pending);
}

TEST_HARNESS_MAIN
