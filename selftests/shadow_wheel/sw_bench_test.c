// SPDX-License-Identifier: GPL-2.0
/*
 * The bench file (docs/benchmarks.rst, docs/ABI/debugfs-shadow-wheel).
 *
 * A small run reports every wheel asked for in the documented lines: the
 * operations, the ticks under traffic and the catch-up, with the run's own
 * population and tick count, figures that are there and not zero where
 * work was done, cascades on the classic wheel only, the target ratios,
 * and the kernel's own timers beside the seed wheel, none of which fired.
 * A bad run is refused with -EINVAL (-ENODEV for a CPU that is not there)
 * before anything runs: the last report stays as it was.
 *
 * Figures are not judged here: they are measurements, read in docs/benchmarks.rst.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "lib/swt_test.h"

#define SWT_RUN	"wheel=all timers=2000 ops=2048 ticks=600 gap=200 mean=300 seed=7"

FIXTURE(bench) {
	struct swt_geometry geo;
};

SWT_FIXTURE_SETUP(bench, NULL, NULL)
SWT_FIXTURE_TEARDOWN(bench, NULL)

/* The report's line for @wheel whose first key after timers= is @key */
static const char *swt_bench_line(const char *report, const char *wheel, const char *key,
				  char *line, size_t size)
{
	char want[64];
	const char *p = report;

	snprintf(want, sizeof(want), "bench wheel=%s ", wheel);
	while ((p = strstr(p, want))) {
		size_t len = strcspn(p, "\n");

		snprintf(line, size, "%.*s", (int)len, p);
		if (strstr(line, key))
			return line;
		p += len;
	}
	return NULL;
}

/* The value of " @key=" in @line as a number; -1 if it is not there */
static double swt_bench_value(const char *line, const char *key)
{
	char want[64];
	const char *p;

	snprintf(want, sizeof(want), " %s=", key);
	p = line ? strstr(line, want) : NULL;
	return p ? strtod(p + strlen(want), NULL) : -1;
}

static void swt_bench_check_wheel(struct __test_metadata *_metadata, const char *report,
				  const char *wheel, u64 hz)
{
	static const char * const ops[] = { "arm", "mod_near", "mod_far", "cancel", "next",
					     "next_idle" };
	char ol[512] = "", tl[512] = "", cl[512] = "";
	const char *o = swt_bench_line(report, wheel, " arm=", ol, sizeof(ol));
	const char *t = swt_bench_line(report, wheel, " tick_median=", tl, sizeof(tl));
	const char *c = swt_bench_line(report, wheel, " catch_up_median=", cl, sizeof(cl));
	unsigned int i;

	ASSERT_TRUE(o && t && c) TH_LOG("%s: lines missing from:\n%s", wheel, report);
	EXPECT_EQ((double)hz, swt_bench_value(o, "hz")) TH_LOG("%s", ol);
	EXPECT_EQ(2000, swt_bench_value(o, "timers")) TH_LOG("%s", ol);
	EXPECT_EQ(2048, swt_bench_value(o, "ops")) TH_LOG("%s", ol);
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		EXPECT_LT(0, swt_bench_value(o, ops[i])) TH_LOG("op %u: %s", i, ol);
	EXPECT_EQ(600, swt_bench_value(t, "ticks")) TH_LOG("%s", tl);
	EXPECT_LE(swt_bench_value(t, "tick_median"), swt_bench_value(t, "tick_p99"))
		TH_LOG("%s", tl);
	EXPECT_LE(swt_bench_value(t, "tick_p99"), swt_bench_value(t, "tick_max")) TH_LOG("%s", tl);
	/* 600 ticks of 2000 timers with a mean timeout of 300 ticks: some expire */
	EXPECT_LT(0, swt_bench_value(t, "expired")) TH_LOG("%s", tl);
	/* Only the classic wheel cascades timers this near */
	EXPECT_EQ(!strcmp(wheel, "classic"), swt_bench_value(t, "cascaded") > 0) TH_LOG("%s", tl);
	EXPECT_EQ(200, swt_bench_value(c, "gap")) TH_LOG("%s", cl);
	EXPECT_LT(0, swt_bench_value(c, "catch_up_median")) TH_LOG("%s", cl);
	EXPECT_LE(swt_bench_value(c, "catch_up_median"), swt_bench_value(c, "catch_up_max"))
		TH_LOG("%s", cl);
}

/* Lines starting "ratio @what=" end in " met" or " missed" */
static void swt_bench_check_ratio(struct __test_metadata *_metadata, const char *report,
				  const char *what)
{
	char want[96], line[256];
	const char *p;

	snprintf(want, sizeof(want), "ratio %s=", what);
	p = strstr(report, want);
	ASSERT_NE(NULL, p) TH_LOG("no %s in:\n%s", want, report);
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
	EXPECT_TRUE(strstr(line, " target=") &&
		    (!strcmp(line + strlen(line) - 4, " met") ||
		     !strcmp(line + strlen(line) - 7, " missed")))
		TH_LOG("%s", line);
}

TEST_F_TIMEOUT(bench, small_run_reports_every_wheel_and_the_kernel, 120)
{
	static const char * const ratios[] = {
		"seed/classic.next", "seed/classic.next_idle", "seed/classic.tick_p99",
		"seed/classic.tick_max", "classic/seed.tick_total", "classic/seed.catch_up",
		"seed-bare/kernel.arm_cancel", "seed-locked/kernel.arm_cancel",
	};
	static const char * const wheels[] = { "seed", "mainline", "classic" };
	char *report = NULL, line[512];
	const char *fired, *all, *drain;
	unsigned int i;
	int ret;

	if (_metadata->skip)
		return;
	ret = swt_bench_write(SWT_RUN);
	ASSERT_EQ(0, ret) TH_LOG("'%s': %s", SWT_RUN, strerror(-ret));
	ASSERT_EQ(0, swt_bench_read(&report)) TH_LOG("%s", swt_error());

	for (i = 0; i < ARRAY_SIZE(wheels); i++)
		swt_bench_check_wheel(_metadata, report, wheels[i], self->geo.hz);
	for (i = 0; i < ARRAY_SIZE(ratios); i++)
		swt_bench_check_ratio(_metadata, report, ratios[i]);
	for (i = 0; i < 3; i++) {
		static const char * const cmp[] = { "kernel", "seed-bare", "seed-locked" };
		const char *l = swt_bench_line(report, cmp[i], " arm=", line, sizeof(line));

		ASSERT_NE(NULL, l) TH_LOG("no %s line in:\n%s", cmp[i], report);
		EXPECT_LT(0, swt_bench_value(l, "arm")) TH_LOG("%s", l);
		EXPECT_LT(0, swt_bench_value(l, "cancel")) TH_LOG("%s", l);
	}
	/* The kernel's arm and cancel on every online CPU at once, mirror off and on */
	all = strstr(report, "bench mirror_added_ns.arm_cancel_all_cpus=");
	ASSERT_NE(NULL, all) TH_LOG("%s", report);
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(all, "\n"), all);
	EXPECT_EQ(swt_cpus_online(NULL), swt_bench_value(line, "cpus")) TH_LOG("%s", line);
	EXPECT_EQ(2048, swt_bench_value(line, "ops")) TH_LOG("%s", line);
	EXPECT_LT(0, swt_bench_value(line, "kernel")) TH_LOG("%s", line);
	EXPECT_LT(0, swt_bench_value(line, "kernel_mirror")) TH_LOG("%s", line);
	/* The drain's cost an event, shared by the mirror's wheels (9, or 12 at HZ 300) */
	drain = strstr(report, "bench mirror_drained_ns.wheel_event=");
	ASSERT_NE(NULL, drain) TH_LOG("%s", report);
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(drain, "\n"), drain);
	EXPECT_LE(9, swt_bench_value(line, "wheels")) TH_LOG("%s", line);
	EXPECT_LT(0, swt_bench_value(line, "mirror_drained_ns.wheel_event")) TH_LOG("%s", line);
	/* The kernel's timers an hour out, and the timed ones cancelled at once */
	fired = strstr(report, "bench kernel_timers_fired=");
	ASSERT_NE(NULL, fired) TH_LOG("%s", report);
	EXPECT_EQ(0, strtol(fired + strlen("bench kernel_timers_fired="), NULL, 10))
		TH_LOG("%.*s", (int)strcspn(fired, "\n"), fired);
	swt_msg("%s", report);
	free(report);
}

TEST_F(bench, one_wheel_without_the_kernel)
{
	char *report = NULL, line[512];

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, swt_bench_write("wheel=mainline timers=500 ops=1024 ticks=100 kernel=0"));
	ASSERT_EQ(0, swt_bench_read(&report)) TH_LOG("%s", swt_error());
	EXPECT_NE(NULL, swt_bench_line(report, "mainline", " arm=", line, sizeof(line)));
	EXPECT_EQ(NULL, swt_bench_line(report, "seed", " arm=", line, sizeof(line)));
	EXPECT_EQ(NULL, strstr(report, "wheel=kernel"));
	/* The ratios need the seed and the classic wheel */
	EXPECT_EQ(NULL, strstr(report, "ratio "));
	free(report);
}

TEST_F(bench, bad_runs_are_refused_and_change_nothing)
{
	static const struct {
		const char	*words;
		int		err;
	} bad[] = {
		{ "wheel=cascading", EINVAL },
		{ "wheel=", EINVAL },
		{ "timers=0", EINVAL },
		{ "timers=1000001", EINVAL },
		{ "timers=12x", EINVAL },
		{ "ops=0", EINVAL },
		{ "ops=1048577", EINVAL },
		{ "ticks=0", EINVAL },
		{ "mean=0", EINVAL },
		{ "gap=0", EINVAL },
		{ "cancel=100", EINVAL },
		{ "kernel=2", EINVAL },
		{ "seed=-1", EINVAL },
		{ "timers=100 timers=200", EINVAL },
		{ "speed=1", EINVAL },
		{ "timers", EINVAL },
		{ "cpu=4096", EINVAL },
	};
	char *before = NULL, *after = NULL;
	unsigned int i;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, swt_bench_write("wheel=seed timers=100 ops=1024 ticks=10 kernel=0"));
	ASSERT_EQ(0, swt_bench_read(&before)) TH_LOG("%s", swt_error());
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int ret = swt_bench_write(bad[i].words);

		EXPECT_EQ(-bad[i].err, ret) TH_LOG("'%s': %s", bad[i].words,
						   ret ? strerror(-ret) : "accepted");
	}
	ASSERT_EQ(0, swt_bench_read(&after)) TH_LOG("%s", swt_error());
	EXPECT_STREQ(before, after);
	free(before);
	free(after);
}

TEST_HARNESS_MAIN
