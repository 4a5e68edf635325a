// SPDX-License-Identifier: GPL-2.0
/*
 * The control file (docs/ABI/debugfs-shadow-wheel: control).
 *
 * What it accepts: each documented form of arm, spread round-robin over the
 * online CPUs without cpu=; reset clears the figures and keeps the timers;
 * cancel-all empties every wheel; a run is alone (-EBUSY for a second one),
 * stop ends it, and a run ends by itself after its duration.
 *
 * What it rejects, one test per class of the control file's errors: an unknown
 * word, a missing, malformed or out-of-range value and an overflow give
 * -EINVAL, a count past its limit -E2BIG, a CPU that does not exist -ENODEV,
 * a command over 256 bytes or holding a NUL byte -EINVAL. Each error changes
 * nothing (the timer counts in stats are the same before and after, with
 * timers pending) and logs a line to the kernel log.
 */
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/swt_test.h"

#define SWT_BACKGROUND		100	/* pending through every test */
#define SWT_RUN_END_MS		6000	/* a run of 1 s has ended by then */

static bool swt_kmsg_noted;

/* Timers pending through every test */
static void swt_arm_background(struct __test_metadata *_metadata)
{
	ASSERT_EQ(0, swt_control("arm count=%u delta=60000ms", SWT_BACKGROUND))
		TH_LOG("%s", swt_error());
}

FIXTURE(control) {
	struct swt_geometry geo;
};

SWT_FIXTURE_SETUP(control, NULL, swt_arm_background)
SWT_FIXTURE_TEARDOWN(control, NULL)

/* @cmd (@len bytes, written as is) fails with -@err and changes nothing */
static void swt_expect_rejected(struct __test_metadata *_metadata, const char *cmd,
				size_t len, int err)
{
	struct swt_stats before, after;
	char why[256];
	int kmsg, ret;

	ASSERT_EQ(0, swt_stats_read(&before)) TH_LOG("%s", swt_error());
	kmsg = swt_kmsg_open();
	ret = swt_control_raw(cmd, len);
	EXPECT_EQ(-err, ret) TH_LOG("'%.*s': %s, expected %s", (int)strcspn(cmd, "\n"), cmd,
				    ret ? strerror(-ret) : "accepted", strerror(err));
	ASSERT_EQ(0, swt_stats_read(&after)) TH_LOG("%s", swt_error());
	EXPECT_TRUE(swt_stats_same_timers(&before, &after, why, sizeof(why)))
		TH_LOG("'%.*s' changed %s", (int)strcspn(cmd, "\n"), cmd, why);
	if (kmsg < 0) {
		if (!swt_kmsg_noted)
			swt_msg("no /dev/kmsg (%s): the kernel log is not checked",
				strerror(-kmsg));
		swt_kmsg_noted = true;
		return;
	}
	EXPECT_LE(1, swt_kmsg_new(kmsg, NULL, 0))
		TH_LOG("'%.*s' logged nothing", (int)strcspn(cmd, "\n"), cmd);
	close(kmsg);
}

/*
 * Each of @cmds, as echo(1) writes it, fails with -@err and changes
 * nothing; nothing is tried in a test its setup skipped
 */
static void swt_expect_all_rejected(struct __test_metadata *_metadata,
				    const char * const *cmds, size_t nr, int err)
{
	char buf[SWT_CMD_MAX + 2];
	size_t i;
	int len;

	if (_metadata->skip)
		return;
	for (i = 0; i < nr; i++) {
		len = snprintf(buf, sizeof(buf), "%s\n", cmds[i]);
		ASSERT_LT(len, (int)sizeof(buf));
		swt_expect_rejected(_metadata, buf, len, err);
	}
}

TEST_F(control, accepts_every_documented_form)
{
	static const struct {
		const char *cmd;
		u64 count;
		int cpu;	/* -1: any */
	} ok[] = {
		{ "arm count=3 delta=100", 3, -1 },
		{ "arm count=3 delta=100ms", 3, -1 },
		{ "arm count=3 delta=10..20", 3, -1 },
		{ "arm count=3 delta=10ms..20ms", 3, -1 },
		{ "arm count=3 delta=0", 3, -1 },
		{ "arm count=1 delta=1099511627776", 1, -1 },	/* 2^40 */
		{ "arm count=3 delta=5000 cpu=0", 3, 0 },
		{ "arm count=3 delta=5000 deferrable", 3, -1 },
		{ "arm count=3 delta=5000 cancel=0", 3, -1 },
		{ "arm count=3 delta=5000 cancel=100", 3, -1 },
		{ "arm count=3 delta=5000 cpu=0 deferrable cancel=50", 3, 0 },
	};
	unsigned int online[SWT_MAX_CPUS], ncpu, i, per;
	struct swt_stats before, after;
	char why[256];

	if (_metadata->skip)
		return;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		ASSERT_EQ(0, swt_stats_read(&before)) TH_LOG("%s", swt_error());
		EXPECT_EQ(0, swt_control("%s", ok[i].cmd)) TH_LOG("%s", swt_error());
		ASSERT_EQ(0, swt_stats_read(&after)) TH_LOG("%s", swt_error());
		EXPECT_EQ(before.total.armed + ok[i].count, after.total.armed)
			TH_LOG("'%s'", ok[i].cmd);
		EXPECT_TRUE(swt_stats_sane(&after, why, sizeof(why))) TH_LOG("%s", why);
		if (ok[i].cpu < 0)
			continue;
		EXPECT_EQ(before.cpu[ok[i].cpu].armed + ok[i].count, after.cpu[ok[i].cpu].armed)
			TH_LOG("'%s'", ok[i].cmd);
	}

	/* Without cpu=, round-robin over the online CPUs */
	ncpu = swt_cpus_online(online);
	ASSERT_LT(0U, ncpu);
	ASSERT_EQ(0, swt_stats_read(&before)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_control("arm count=%u delta=60000ms", 10 * ncpu))
		TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_stats_read(&after)) TH_LOG("%s", swt_error());
	for (i = 0; i < ncpu; i++) {
		per = after.cpu[online[i]].armed - before.cpu[online[i]].armed;
		EXPECT_EQ(10U, per) TH_LOG("cpu%u got %u of %u", online[i], per, 10 * ncpu);
	}
}

TEST_F(control, reset_clears_figures_keeps_timers)
{
	struct swt_lateness lt;
	struct swt_stats st;
	unsigned int lvl;
	u64 until, expired = 0;
	char why[256];

	if (_metadata->skip)
		return;

	/* Some figures to clear: timers that expire, one cancelled */
	ASSERT_EQ(0, swt_control("arm count=20 delta=1..10")) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_control("arm count=1 delta=100ms cancel=100")) TH_LOG("%s", swt_error());
	until = swt_now_ms() + 3000;
	do {
		swt_sleep_ms(50);
		ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
	} while (st.total.pending > SWT_BACKGROUND && swt_now_ms() < until);
	ASSERT_EQ((u64)SWT_BACKGROUND, st.total.pending);
	ASSERT_EQ(20U, st.total.expired);
	ASSERT_EQ(1U, st.total.cancelled);

	ASSERT_EQ(0, swt_control("reset")) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
	EXPECT_EQ((u64)SWT_BACKGROUND, st.total.pending);
	EXPECT_EQ(0U, st.total.expired);
	EXPECT_EQ(0U, st.total.cancelled);
	EXPECT_EQ(0U, st.total.early);
	/* The invariant holds at every read, so armed restarts from pending */
	EXPECT_TRUE(swt_stats_sane(&st, why, sizeof(why))) TH_LOG("after reset: %s", why);

	ASSERT_EQ(0, swt_lateness_read(&lt)) TH_LOG("%s", swt_error());
	for (lvl = 0; lvl < lt.levels; lvl++)
		expired += lt.level[lvl].expired;
	EXPECT_EQ(0U, expired) TH_LOG("expired timers in lateness after reset");
	EXPECT_EQ(0U, lt.delivery_expired);
}

TEST_F(control, cancel_all_empties_every_wheel)
{
	unsigned int online[SWT_MAX_CPUS], ncpu, i;
	struct swt_stats before, after;
	struct swt_wheel w;

	if (_metadata->skip)
		return;

	ncpu = swt_cpus_online(online);
	for (i = 0; i < ncpu; i++) {
		ASSERT_EQ(0, swt_control("arm count=50 delta=1000..100000 cpu=%u", online[i]))
			TH_LOG("%s", swt_error());
		ASSERT_EQ(0, swt_control("arm count=50 delta=1000..100000 cpu=%u deferrable",
					 online[i])) TH_LOG("%s", swt_error());
	}
	ASSERT_EQ(0, swt_stats_read(&before)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_control("cancel-all")) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_stats_read(&after)) TH_LOG("%s", swt_error());
	EXPECT_EQ(0U, after.total.pending);
	EXPECT_EQ(0U, after.total.alive);
	EXPECT_EQ(before.total.cancelled + before.total.pending, after.total.cancelled);
	EXPECT_EQ(before.total.expired, after.total.expired);
	for (i = 0; i < ncpu; i++) {
		ASSERT_EQ(0, swt_wheel_read(online[i], &w)) TH_LOG("%s", swt_error());
		EXPECT_EQ(0U, w.pending) TH_LOG("cpu%u", online[i]);
		EXPECT_EQ(0U, swt_wheel_normal(&w) + swt_wheel_deferrable(&w))
			TH_LOG("cpu%u", online[i]);
		EXPECT_FALSE(w.has_next) TH_LOG("cpu%u", online[i]);
	}
}

TEST_F(control, one_run_at_a_time)
{
	struct swt_stats st;
	u64 armed, start, start_ms;

	if (_metadata->skip)
		return;

	ASSERT_EQ(0, swt_control("run preset=net rate=1000 duration=30")) TH_LOG("%s", swt_error());
	swt_sleep_ms(300);
	EXPECT_EQ(-EBUSY, swt_control("run preset=io"));
	EXPECT_EQ(-EBUSY, swt_control("run preset=net rate=10 duration=1"));
	ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
	EXPECT_LT((u64)SWT_BACKGROUND, st.total.armed) TH_LOG("the run arms nothing");

	/* stop ends it now */
	ASSERT_EQ(0, swt_control("stop")) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
	armed = st.total.armed;
	swt_sleep_ms(300);
	ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
	EXPECT_EQ(armed, st.total.armed) TH_LOG("still arming after stop");

	/*
	 * A run of 1 s at 1000 a second ends by itself, having armed about
	 * 1000 timers (a slow kernel may fall behind: a few s of slack)
	 */
	start = armed;
	start_ms = swt_now_ms();
	ASSERT_EQ(0, swt_control("run preset=net rate=1000 duration=1")) TH_LOG("%s", swt_error());
	swt_sleep_ms(1000);
	do {
		swt_sleep_ms(300);
		ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
		if (st.total.armed == armed)
			break;
		armed = st.total.armed;
	} while (swt_now_ms() - start_ms < SWT_RUN_END_MS);
	swt_msg("a 1 s run at 1000/s armed %llu, done within %llu ms", armed - start,
		swt_now_ms() - start_ms);
	EXPECT_EQ(armed, st.total.armed) TH_LOG("still arming after %u ms", SWT_RUN_END_MS);
	EXPECT_LE(250U, armed - start);
	EXPECT_GE(1500U, armed - start);
	EXPECT_EQ(0, swt_control("run preset=poll rate=100 duration=5")) TH_LOG("%s", swt_error());
	EXPECT_EQ(0, swt_control("stop")) TH_LOG("%s", swt_error());
}

TEST_F(control, rejects_unknown_word)
{
	static const char * const bad[] = {
		"frobnicate",
		"arm count=1 delta=1 bogus",
		"arm count=1 delta=1 colour=red",
		"run preset=bogus",
		"run preset=net speed=3",
		"reset now",
	};

	swt_expect_all_rejected(_metadata, bad, ARRAY_SIZE(bad), EINVAL);
}

TEST_F(control, rejects_missing_value)
{
	static const char * const bad[] = {
		"arm count= delta=1",
		"arm count=1 delta=",
		"arm count=1",
		"arm delta=1",
		"arm count=1 delta=1 cpu=",
		"arm count=1 delta=1 cancel=",
		"run",
		"run preset=",
		"run preset=net rate=",
		"run preset=net duration=",
	};

	swt_expect_all_rejected(_metadata, bad, ARRAY_SIZE(bad), EINVAL);
}

TEST_F(control, rejects_malformed_value)
{
	static const char * const bad[] = {
		"arm count=abc delta=1",
		"arm count=1x delta=1",
		"arm count=-1 delta=1",
		"arm count=1 delta=1x",
		"arm count=1 delta=1s",
		"arm count=1 delta=10ms..20",
		"arm count=1 delta=..5",
		"arm count=1 delta=5..",
		"arm count=1 delta=1 cpu=x",
		"arm count=1 delta=1 cancel=1.5",
		"run preset=net rate=fast",
		/* Decimal digits alone: no sign */
		"arm count=+1 delta=1",
		"arm count=1 delta=+1",
		"arm count=1 delta=1ms..+2ms",
		"arm count=1 delta=1 cpu=+0",
		"run preset=net rate=+10",
	};

	swt_expect_all_rejected(_metadata, bad, ARRAY_SIZE(bad), EINVAL);
}

/* A NUL does not end a command early: what follows it is part of the write */
TEST_F(control, rejects_nul_byte)
{
	static const char arm[] = "arm count=1 delta=60000ms\0bogus\n";
	static const char stop[] = "stop\0";

	if (_metadata->skip)
		return;
	swt_expect_rejected(_metadata, arm, sizeof(arm) - 1, EINVAL);
	swt_expect_rejected(_metadata, stop, sizeof(stop) - 1, EINVAL);
}

TEST_F(control, rejects_out_of_range_value)
{
	static const char * const bad[] = {
		"arm count=0 delta=1",
		"arm count=1 delta=1 cancel=101",
		"arm count=1 delta=1099511627777",		/* 2^40 + 1 */
		"arm count=1 delta=1..1099511627777",
		"arm count=1 delta=20..10",
		"run preset=net rate=0",
		"run preset=net rate=1000001",
		"run preset=net duration=0",
		"run preset=net duration=3601",
	};
	char beyond[SWT_CMD_MAX];

	if (_metadata->skip)
		return;
	swt_expect_all_rejected(_metadata, bad, ARRAY_SIZE(bad), EINVAL);

	/* Twice the largest delta, in ms at the running HZ */
	snprintf(beyond, sizeof(beyond), "arm count=1 delta=%llums\n",
		 SWT_MAX_DELTA * 1000 / self->geo.hz * 2);
	swt_expect_rejected(_metadata, beyond, strlen(beyond), EINVAL);
}

TEST_F(control, rejects_overflow)
{
	static const char * const bad[] = {
		"arm count=99999999999999999999999 delta=1",
		"arm count=18446744073709551616 delta=1",		/* 2^64 */
		"arm count=1 delta=99999999999999999999999",
		"arm count=1 delta=99999999999999999999999ms",
		"arm count=1 delta=18446744073709551615ms",
		"arm count=1 delta=1..99999999999999999999999",
		"arm count=1 delta=1 cpu=99999999999999999999999",
		"arm count=1 delta=1 cancel=99999999999999999999999",
		"run preset=net rate=99999999999999999999999",
		"run preset=net duration=99999999999999999999999",
	};

	swt_expect_all_rejected(_metadata, bad, ARRAY_SIZE(bad), EINVAL);
}

TEST_F(control, rejects_count_past_limit)
{
	static const char * const bad[] = {
		"arm count=1000001 delta=1",
		"arm count=1000001 delta=60000ms cpu=0",
	};

	swt_expect_all_rejected(_metadata, bad, ARRAY_SIZE(bad), E2BIG);
}

TEST_F(control, rejects_cpu_that_does_not_exist)
{
	static const char * const bad[] = {
		"arm count=1 delta=1 cpu=4096",
	};
	char cmd[SWT_CMD_MAX];

	if (_metadata->skip)
		return;
	swt_expect_all_rejected(_metadata, bad, ARRAY_SIZE(bad), ENODEV);

	/* The first CPU number past the possible ones */
	snprintf(cmd, sizeof(cmd), "arm count=1 delta=1 cpu=%u\n", swt_cpus_possible());
	swt_expect_rejected(_metadata, cmd, strlen(cmd), ENODEV);
}

TEST_F(control, rejects_command_over_256_bytes)
{
	static const char arm[] = "arm count=1 delta=";
	static const size_t lengths[] = { 300, 8192 };
	static char cmd[8192];
	size_t i, len;

	if (_metadata->skip)
		return;

	/* A valid arm, made long with leading zeros in its delta */
	for (i = 0; i < ARRAY_SIZE(lengths); i++) {
		len = lengths[i];
		memcpy(cmd, arm, strlen(arm));
		memset(cmd + strlen(arm), '0', len - strlen(arm) - 2);
		cmd[len - 2] = '1';
		cmd[len - 1] = '\n';
		swt_expect_rejected(_metadata, cmd, len, EINVAL);
	}
}

TEST_HARNESS_MAIN
