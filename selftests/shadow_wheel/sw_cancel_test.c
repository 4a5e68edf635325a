// SPDX-License-Identifier: GPL-2.0
/*
 * Timers cancelled before they expire (docs/ABI/debugfs-shadow-wheel: control, "arm ... cancel=P").
 *
 * 1000 timers of 2 s, spread over the online CPUs, P percent of them
 * cancelled at a random time before they expire; waited for past the time
 * the last of them must have run:
 *  - cancel=100: all 1000 cancelled, none expired;
 *  - cancel=50: about half each way, and every one either way;
 *  - cancel=0: all 1000 expired, none cancelled.
 * At every read on the way, armed = expired + cancelled + pending, early is
 * 0 and nothing has expired before its time.
 */

#include "kselftest_harness.h"
#include "lib/swt_test.h"

#define SWT_COUNT	1000
#define SWT_DELTA_MS	2000
#define SWT_GRACE_MS	2000	/* for the tasklet to run once they are due */
#define SWT_POLL_MS	100

FIXTURE(cancel) {
	struct swt_geometry geo;
};

SWT_FIXTURE_SETUP(cancel, NULL, NULL)
SWT_FIXTURE_TEARDOWN(cancel, NULL)

FIXTURE_VARIANT(cancel) {
	unsigned int percent;
	unsigned int min_cancelled;
	unsigned int max_cancelled;
};

FIXTURE_VARIANT_ADD(cancel, all) {
	.percent = 100,
	.min_cancelled = SWT_COUNT,
	.max_cancelled = SWT_COUNT,
};

/* Binomial(1000, 0.5) has a standard deviation of 16: +-150 is ample */
FIXTURE_VARIANT_ADD(cancel, half) {
	.percent = 50,
	.min_cancelled = SWT_COUNT / 2 - 150,
	.max_cancelled = SWT_COUNT / 2 + 150,
};

FIXTURE_VARIANT_ADD(cancel, none) {
	.percent = 0,
	.min_cancelled = 0,
	.max_cancelled = 0,
};

TEST_F(cancel, before_expiry)
{
	struct swt_poll poll = { .grace_ms = SWT_GRACE_MS, .poll_ms = SWT_POLL_MS };
	u64 j, start_ms, mid_cancelled = 0;
	struct swt_arm a = {
		.cpu = -1,
		.count = SWT_COUNT,
		.lo = SWT_DELTA_MS,
		.hi = SWT_DELTA_MS,
		.ms = true,
	};
	struct swt_stats st;
	char extra[32], why[256];

	if (_metadata->skip)
		return;

	snprintf(extra, sizeof(extra), "cancel=%u", variant->percent);
	a.extra = extra;
	ASSERT_EQ(0, swt_arm(&self->geo, &a)) TH_LOG("%s", swt_error());
	swt_msg("'%s': due by tick %llu, %llu ms after arming", a.cmd,
		a.last_tick, swt_ticks_to_ms(&self->geo, a.last_tick - a.j_before));

	poll.due = a.last_tick;
	start_ms = swt_now_ms();
	do {
		ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
		ASSERT_EQ(0, swt_jiffies(&j)) TH_LOG("%s", swt_error());
		ASSERT_TRUE(swt_stats_sane(&st, why, sizeof(why))) TH_LOG("%s", why);
		ASSERT_EQ((u64)SWT_COUNT, st.total.armed);
		/* None runs before the first tick it may run on */
		ASSERT_TRUE((s64)(j - a.first_tick) >= 0 || !st.total.expired)
			TH_LOG("%llu expired at jiffies %llu, before tick %llu", st.total.expired,
			       j, a.first_tick);
		if (!mid_cancelled && swt_now_ms() - start_ms >= SWT_DELTA_MS / 2)
			mid_cancelled = st.total.cancelled;
	} while (st.total.pending && swt_poll_again(&poll, j));
	swt_msg("cancel=%u: %llu cancelled (%llu half way), %llu expired, after %llu ms",
		variant->percent, st.total.cancelled, mid_cancelled, st.total.expired,
		swt_now_ms() - start_ms);

	EXPECT_EQ(0U, st.total.alive);
	EXPECT_EQ(0U, st.total.pending)
		TH_LOG("still pending at jiffies %llu, due by %llu", j, a.last_tick);
	EXPECT_EQ((u64)SWT_COUNT, st.total.cancelled + st.total.expired);
	EXPECT_LE(variant->min_cancelled, st.total.cancelled);
	EXPECT_GE(variant->max_cancelled, st.total.cancelled);
	EXPECT_EQ(st.total.cancelled, SWT_CPU_SUM(&st, cancelled));
	EXPECT_EQ(st.total.expired, SWT_CPU_SUM(&st, expired));
}

TEST_HARNESS_MAIN
