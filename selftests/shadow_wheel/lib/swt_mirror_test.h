/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel selftests: what the mirror's tests share (sw_mirror_test.c,
 * sw_mirror_toggle_test.c): the fixture, a module loaded with the mirror
 * on, and the mirror's books. Each test includes kselftest_harness.h and
 * lib/swt_test.h first.
 */
#ifndef _SWT_MIRROR_TEST_H
#define _SWT_MIRROR_TEST_H

FIXTURE(mirror) {
	struct swt_geometry geo;
};

/* A kernel without timer tracepoints cannot be mirrored */
static inline void swt_mirror_setup(struct __test_metadata *_metadata)
{
	int ret = swt_mirror_enable(true);

	if (ret == -ENODEV)
		SKIP(return, "the kernel has no timer tracepoints");
	ASSERT_EQ(0, ret) TH_LOG("mirror/enable: %s", swt_error());
}

SWT_FIXTURE_SETUP(mirror, NULL, swt_mirror_setup)
SWT_FIXTURE_TEARDOWN(mirror, NULL)

/* The mirror's books balance in every wheel, and its logs lost no event nor its order */
static inline void swt_expect_mirror_consistent(struct __test_metadata *_metadata,
						const struct swt_mirror *mr)
{
	unsigned int w;

	EXPECT_EQ(1U, mr->consistent) TH_LOG("mirror/stats: consistent 0");
	EXPECT_EQ(0U, mr->log_lost) TH_LOG("mirror/stats: log_lost %llu", mr->log_lost);
	EXPECT_EQ(0U, mr->log_forced) TH_LOG("mirror/stats: log_forced %llu", mr->log_forced);
	EXPECT_LE(9U, mr->nr_wheels);
	for (w = 0; w < mr->nr_wheels; w++) {
		const struct swt_mirror_wheel *v = &mr->wheel[w];
		u64 ended = v->cancelled + v->expired + v->pending + v->dropped;

		EXPECT_EQ(v->seen, ended)
			TH_LOG("%s: seen %llu, cancelled + expired + pending + dropped %llu",
			       v->name, v->seen, ended);
	}
}

/* The mirror read into @mr: it runs as @running says, and its books balance */
static inline void swt_expect_mirror(struct __test_metadata *_metadata, struct swt_mirror *mr,
				     bool running)
{
	ASSERT_EQ(0, swt_mirror_read(mr)) TH_LOG("%s", swt_error());
	EXPECT_EQ(running, mr->running) TH_LOG("mirror/stats: running %llu", mr->running);
	swt_expect_mirror_consistent(_metadata, mr);
}

/*
 * mirror/diff read into @d: every mismatch between the mirror's mainline
 * wheel and the kernel's is explained; the ones that are not are shown,
 * with what the mirror kept of them (docs/ABI/debugfs-shadow-wheel)
 */
static inline void swt_expect_explained(struct __test_metadata *_metadata,
					struct swt_mirror_diff *d)
{
	unsigned int i;

	ASSERT_EQ(0, swt_mirror_diff_read(d)) TH_LOG("%s", swt_error());
	EXPECT_EQ(0U, d->unexplained[0])
		TH_LOG("placement: %llu of %llu unexplained", d->unexplained[0], d->compared[0]);
	EXPECT_EQ(0U, d->unexplained[1])
		TH_LOG("expiry: %llu of %llu unexplained", d->unexplained[1], d->compared[1]);
	for (i = 0; i < d->nr_lines; i++)
		swt_msg("mismatch %s", d->line[i]);
}

#endif /* _SWT_MIRROR_TEST_H */
