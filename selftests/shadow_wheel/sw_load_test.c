// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and unloading shadow_wheel (docs/design.rst, the driver on a
 * live kernel; docs/ABI/debugfs-shadow-wheel).
 *
 *  - Loaded with geometry=seed, geometry=mainline or a spec
 *    (bits=5,shift=2,depth=9), its debugfs directory
 *    holds geometry (naming that wheel), stats (with every documented key,
 *    in total and per online CPU), lateness, control and a cpuN/wheel per
 *    online CPU, all empty; unloaded, all of it is gone.
 *  - The geometry file has the tables of docs/design.rst for the running HZ,
 *    and the wheel's canonical spec.
 *  - An unknown geometry, one at another HZ than the kernel's, or a bad
 *    list of wheels for the mirror does not load, and leaves nothing
 *    behind.
 *  - Without parameters it loads one of the two wheels.
 */
#include <math.h>

#include "kselftest_harness.h"
#include "lib/swt_test.h"

static const char * const swt_files[] = {
	"geometry", "stats", "lateness", "control", "cpu0/wheel",
};

FIXTURE(load) {
	struct swt_geometry geo;
};

/*
 * @spec: the shape spelt out, when not a named wheel's (its rule is
 * mainline's: clamp); @levels: its depth (0: the named wheel's)
 */
FIXTURE_VARIANT(load) {
	const char *params;
	const char *wheel;
	const char *spec;
	unsigned int buckets;
	unsigned int shift;
	unsigned int levels;
};

FIXTURE_VARIANT_ADD(load, seed) {
	.params = "geometry=seed",
	.wheel = "seed",
	.buckets = 32,
	.shift = 3,
};

FIXTURE_VARIANT_ADD(load, mainline) {
	.params = "geometry=mainline",
	.wheel = "mainline",
	.buckets = 64,
	.shift = 3,
};

FIXTURE_VARIANT_ADD(load, spec) {
	.params = "geometry=bits=5,shift=2,depth=9",
	.wheel = "mainline",
	.spec = "bits=5,shift=2,depth=9",
	.buckets = 32,
	.shift = 2,
	.levels = 9,
};

FIXTURE_SETUP(load)
{
	if (!swt_module_file_present())
		SKIP(return, "no module file at %s (SW_MODULE) to load", swt_module_path());
	ASSERT_EQ(0, swt_unload_any()) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_load(variant->params)) TH_LOG("%s", swt_error());
}

FIXTURE_TEARDOWN(load)
{
	swt_teardown(_metadata);
}

/* Online CPU @cpu has its keys in stats (@st) and an empty wheel of @levels levels */
static void swt_expect_cpu_empty(struct __test_metadata *_metadata, const struct swt_stats *st,
				 unsigned int cpu, unsigned int levels)
{
	struct swt_wheel w;
	char rel[64];

	EXPECT_TRUE(st->has_cpu[cpu]) TH_LOG("no cpu%u.* keys in stats", cpu);
	EXPECT_NULL(swt_stats_missing(st, cpu))
		TH_LOG("stats: no cpu%u.%s", cpu, swt_stats_missing(st, cpu));
	EXPECT_EQ(1U, st->cpu[cpu].online) TH_LOG("cpu%u", cpu);
	snprintf(rel, sizeof(rel), "cpu%u/wheel", cpu);
	if (swt_wheel_read(cpu, &w)) {
		EXPECT_TRUE(false) TH_LOG("%s", swt_error());
		return;
	}
	EXPECT_EQ(levels, w.levels) TH_LOG("%s", rel);
	EXPECT_EQ(0U, w.pending) TH_LOG("%s", rel);
	EXPECT_EQ(0U, swt_wheel_normal(&w) + swt_wheel_deferrable(&w)) TH_LOG("%s", rel);
	EXPECT_FALSE(w.has_next)
		TH_LOG("%s: next_expiry %llu with nothing armed", rel, w.next_expiry);
	/* The clock is the next tick to process: never past jiffies + 1 */
	EXPECT_GE((s64)(w.jiffies + 1 - w.clk), 0)
		TH_LOG("%s: clk %llu ahead of jiffies %llu",
		       rel, w.clk, w.jiffies);
}

TEST_F(load, files_appear_and_go)
{
	unsigned int i, cpu;
	struct swt_stats st;
	char why[256];

	if (_metadata->skip)
		return;

	ASSERT_TRUE(swt_debugfs_present()) TH_LOG("no %s", swt_debugfs_dir());
	for (i = 0; i < ARRAY_SIZE(swt_files); i++) {
		const char *file = swt_files[i];

		EXPECT_TRUE(swt_debugfs_exists(file)) TH_LOG("no %s", file);
	}

	ASSERT_EQ(0, swt_geometry_read(&self->geo)) TH_LOG("%s", swt_error());
	EXPECT_STREQ(variant->wheel, self->geo.wheel);

	/* Nothing armed yet: every count is 0, in total and per online CPU */
	ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
	EXPECT_NULL(swt_stats_missing(&st, -1))
		TH_LOG("stats: no '%s'", swt_stats_missing(&st, -1));
	EXPECT_TRUE(swt_stats_sane(&st, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(0U, st.total.armed);
	EXPECT_EQ(0U, st.total.pending);
	EXPECT_EQ(0U, st.total.expired);
	EXPECT_EQ(0U, st.total.cancelled);
	EXPECT_EQ(0U, st.total.alive);
	for (cpu = 0; cpu < SWT_MAX_CPUS; cpu++)
		if (swt_cpu_online(cpu))
			swt_expect_cpu_empty(_metadata, &st, cpu, self->geo.levels);

	ASSERT_EQ(0, swt_unload()) TH_LOG("%s", swt_error());
	EXPECT_FALSE(swt_module_loaded());
	EXPECT_FALSE(swt_debugfs_present()) TH_LOG("%s outlived the module", swt_debugfs_dir());
}

/* A ms figure matches ticks * 1000 / HZ, however the module rounds it */
static bool swt_ms_matches(double ms, u64 ticks, unsigned int hz)
{
	double want = (double)ticks * 1000.0 / hz;

	return fabs(ms - want) <= fmax(1.0, want / 1000000);
}

TEST_F(load, geometry_matches_tables)
{
	const struct swt_geometry *g = &self->geo;
	unsigned int lvl, levels, s = variant->shift;
	char spec[SWT_SPEC_MAX];
	u64 start, next;

	if (_metadata->skip)
		return;

	ASSERT_EQ(0, swt_geometry_read(&self->geo)) TH_LOG("%s", swt_error());
	swt_msg("%s wheel at HZ=%u: %u levels of %u buckets, cutoff %llu ticks",
		g->wheel, g->hz, g->levels, g->buckets, g->cutoff);
	EXPECT_STREQ(variant->wheel, g->wheel);
	EXPECT_TRUE(g->hz == 100 || g->hz == 250 || g->hz == 300 || g->hz == 1000)
		TH_LOG("hz %u", g->hz);

	/* The canonical spec: a named wheel's name and HZ, any other's every parameter */
	snprintf(spec, sizeof(spec), "%s,hz=%u%s", variant->spec ?: variant->wheel, g->hz,
		 variant->spec ? ",clamp" : "");
	EXPECT_STREQ(spec, g->spec);

	/* seed: 8 x 32; mainline: 64 buckets, 8 levels at HZ <= 100, 9 above */
	levels = variant->levels ?: !strcmp(variant->wheel, "seed") || g->hz <= 100 ? 8 : 9;
	ASSERT_EQ(levels, g->levels);
	ASSERT_EQ(variant->buckets, g->buckets);

	/* LVL_START(n) = (buckets - 1) << s(n - 1); the cutoff is LVL_START(levels) */
	EXPECT_EQ((u64)(g->buckets - 1) << s * (levels - 1), g->cutoff);
	for (lvl = 0; lvl < levels; lvl++) {
		const struct swt_geo_level *l = &g->level[lvl];

		start = lvl ? (u64)(g->buckets - 1) << s * (lvl - 1) : 0;
		next = (u64)(g->buckets - 1) << s * lvl;
		swt_msg("level %u gran %llu (%g ms) range %llu - %llu (%g ms - %g ms)",
			lvl, l->gran, l->gran_ms, l->start, l->end, l->start_ms, l->end_ms);
		EXPECT_EQ((u64)lvl * g->buckets, l->offset) TH_LOG("level %u", lvl);
		EXPECT_EQ(1ULL << s * lvl, l->gran) TH_LOG("level %u", lvl);
		EXPECT_EQ(start, l->start) TH_LOG("level %u", lvl);
		EXPECT_EQ(next - 1, l->end) TH_LOG("level %u", lvl);
		EXPECT_TRUE(swt_ms_matches(l->gran_ms, l->gran, g->hz)) TH_LOG("level %u", lvl);
		EXPECT_TRUE(swt_ms_matches(l->start_ms, l->start, g->hz)) TH_LOG("level %u", lvl);
		EXPECT_TRUE(swt_ms_matches(l->end_ms, l->end, g->hz)) TH_LOG("level %u", lvl);
	}
}

/*
 * Bad parameters: an unknown geometry, a spec at another HZ than the
 * kernel's (the shadow wheels tick with jiffies), a bad list of wheels
 * for the mirror. Each fails the load and leaves nothing behind.
 */
TEST(bad_parameters_do_not_load)
{
	static const char * const bad[] = { "geometry=foo", "geometry=seed,hz=24",
					    "mirror_wheels=seed;bits=9" };
	unsigned int i;
	int ret;

	if (!swt_module_file_present())
		SKIP(return, "no module file at %s (SW_MODULE) to load", swt_module_path());
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(0, swt_unload_any()) TH_LOG("%s", swt_error());
		ret = swt_load(bad[i]);
		if (!ret)
			swt_unload();
		EXPECT_NE(0, ret) TH_LOG("%s loaded", bad[i]);
		swt_msg("%s: %s", bad[i], strerror(-ret));
		EXPECT_FALSE(swt_module_loaded()) TH_LOG("%s", bad[i]);
		EXPECT_FALSE(swt_debugfs_present()) TH_LOG("%s", bad[i]);
	}
}

TEST(loads_without_parameters)
{
	struct swt_geometry geo;

	if (!swt_module_file_present())
		SKIP(return, "no module file at %s (SW_MODULE) to load", swt_module_path());
	ASSERT_EQ(0, swt_unload_any()) TH_LOG("%s", swt_error());

	ASSERT_EQ(0, swt_load(NULL)) TH_LOG("%s", swt_error());
	EXPECT_EQ(0, swt_geometry_read(&geo)) TH_LOG("%s", swt_error());
	EXPECT_TRUE(!strcmp(geo.wheel, "seed") || !strcmp(geo.wheel, "mainline"))
		TH_LOG("wheel '%s'", geo.wheel);
	swt_msg("default geometry: %s", geo.wheel);
	EXPECT_EQ(0, swt_unload()) TH_LOG("%s", swt_error());
}

TEST_HARNESS_MAIN
