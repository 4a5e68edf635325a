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

/* FIXTURE_TEARDOWN of every test: the final checks, then unload */
static inline void swt_teardown(struct __test_metadata *_metadata)
{
	/* An ASSERT that failed in the body leaves the harness's trigger set */
	_metadata->trigger = 0;
	if (swt_module_loaded() && swt_debugfs_present())
		swt_expect_sane(_metadata);
	EXPECT_EQ(0, swt_finish()) TH_LOG("%s", swt_error());
}

#endif /* _SWT_TEST_H */
