/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel selftests: the glue with kselftest_harness.h (6.1), which
 * each test includes before this file.
 *
 *  - A program that cannot run here (not root, no module and no debugfs
 *    directory) says so in TAP and exits KSFT_SKIP before any test.
 *  - 6.1's harness exits 0 when every test skipped: exit KSFT_SKIP then.
 *  - 6.1's SKIP() in FIXTURE_SETUP still runs the test body: each body
 *    starts with "if (_metadata->skip) return;".
 *  - The tests run in forked children that end with _exit(): messages go
 *    through swt_msg(), which flushes.
 *  - SWT_FIXTURE() writes the fixture of the tests that start from a
 *    freshly loaded module.
 */
#ifndef _SWT_TEST_H
#define _SWT_TEST_H

#include <stdarg.h>

#include "swt.h"

/* A "# ..." diagnostic line in the TAP output */
static inline void __printf(1, 2) swt_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
}

static void swt_exit_skip_if_all_skipped(void)
{
	if (ksft_plan && ksft_cnt.ksft_xskip == ksft_plan) {
		fflush(NULL);
		_exit(KSFT_SKIP);
	}
}

static void __attribute__((constructor)) swt_test_init(void)
{
	const char *reason = swt_skip_reason();

	if (reason) {
		ksft_print_header();
		ksft_exit_skip("%s\n", reason);
	}
	atexit(swt_exit_skip_if_all_skipped);
}

/* The checks every test ends with: early is 0, the counts add up */
static inline void swt_expect_sane(struct __test_metadata *_metadata)
{
	struct swt_stats st;
	char why[256];
	int ret;

	ret = swt_stats_read(&st);
	EXPECT_EQ(0, ret) TH_LOG("stats: %s", swt_error());
	if (ret)
		return;
	EXPECT_TRUE(swt_stats_sane(&st, why, sizeof(why))) TH_LOG("stats: %s", why);
}

/* Each level that expired timers ran them 1 .. gran ticks late, never on time */
static inline void swt_expect_late_within_gran(struct __test_metadata *_metadata,
					       const struct swt_lateness *lt)
{
	unsigned int lvl;

	for (lvl = 0; lvl < lt->levels; lvl++) {
		const struct swt_late_level *l = &lt->level[lvl];

		if (!l->expired)
			continue;
		EXPECT_LE(1U, l->late_min) TH_LOG("level %u ran a timer on its tick", lvl);
		EXPECT_GE(l->gran, l->late_max) TH_LOG("level %u late by more than gran", lvl);
	}
}

/* FIXTURE_TEARDOWN of every test: the final checks, then unload */
static inline void swt_teardown(struct __test_metadata *_metadata)
{
	/* An ASSERT that failed in the body leaves the harness's trigger set */
	_metadata->trigger = 0;
	if (swt_module_loaded() && swt_debugfs_present())
		swt_expect_sane(_metadata);
	EXPECT_EQ(0, swt_finish()) TH_LOG("%s", swt_error());
}

/*
 * What a fixture does beyond the common setup (swt_start() and the
 * geometry) and teardown (swt_teardown()): a hook, or NULL for nothing.
 * The setup hook runs once the common setup is done, unless it skipped;
 * the teardown hook before the common teardown.
 */
typedef void swt_fixture_hook(struct __test_metadata *_metadata);

struct swt_fixture_hooks {
	swt_fixture_hook *setup;
	swt_fixture_hook *teardown;
};

static inline void swt_fixture_setup(struct __test_metadata *_metadata,
				     struct swt_geometry *geo, const char *params,
				     const struct swt_fixture_hooks *hooks)
{
	int ret;

	ret = swt_start(params);
	if (ret == SWT_SKIP)
		SKIP(return, "%s", swt_error());
	ASSERT_EQ(0, ret) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_geometry_read(geo)) TH_LOG("%s", swt_error());
	if (hooks->setup)
		hooks->setup(_metadata);
}

static inline void swt_fixture_teardown(struct __test_metadata *_metadata,
					const struct swt_fixture_hooks *hooks)
{
	if (hooks->teardown) {
		_metadata->trigger = 0;
		hooks->teardown(_metadata);
	}
	swt_teardown(_metadata);
}

/*
 * The fixture of the tests that start from the module freshly loaded with
 * @params (see swt_start()), its geometry in self->geo:
 *
 *	FIXTURE(name) {
 *		struct swt_geometry geo;
 *	};
 *	SWT_FIXTURE_SETUP(name, params, more_setup)
 *	SWT_FIXTURE_TEARDOWN(name, more_teardown)
 *
 * with the hooks @more_setup and @more_teardown, or NULL. @params is
 * evaluated in the setup: it may be variant->params, the variant's struct
 * declared before.
 */
#define SWT_FIXTURE_SETUP(name, params, more_setup)				\
	static const struct swt_fixture_hooks name##_setup_hooks = {		\
		.setup = more_setup,						\
	};									\
	FIXTURE_SETUP(name)							\
	{									\
		swt_fixture_setup(_metadata, &self->geo, params, &name##_setup_hooks); \
	}

#define SWT_FIXTURE_TEARDOWN(name, more_teardown)				\
	static const struct swt_fixture_hooks name##_teardown_hooks = {		\
		.teardown = more_teardown,					\
	};									\
	FIXTURE_TEARDOWN(name)							\
	{									\
		swt_fixture_teardown(_metadata, &name##_teardown_hooks);	\
	}

#endif /* _SWT_TEST_H */
