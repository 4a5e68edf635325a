// SPDX-License-Identifier: GPL-2.0
/*
 * Deferrable timers never wake an idle CPU; a non-deferrable one does
 * (docs/design.rst: "Deferrable timers get their own buckets, so they never cause an
 * idle CPU to wake up"; stats: wakeups).
 *
 * CPU 1 is kept idle: this test runs on CPU 0 and nothing else runs in the
 * guest. Both NO_HZ_IDLE (our kernels) and NO_HZ_FULL (Debian's, without
 * nohz_full=) stop the tick of an idle CPU, so only the shadow wheel's
 * hrtimer can wake it for a shadow timer.
 *
 *  1. Deferrable timers of a few hundred ms on CPU 1 sit in its deferrable
 *     buckets and leave next_expiry at none. Past the time they would have
 *     run on an awake CPU, cpu1.wakeups has not moved (whether they ran is
 *     up to whatever else woke CPU 1).
 *  2. Non-deferrable timers on CPU 1 set next_expiry, run on time, and
 *     cpu1.wakeups goes up. A wakeup is only counted when CPU 1 was idle,
 *     and on the debug kernel under emulation it is sometimes busy just
 *     then: up to SWT_WAKE_TRIES rounds of timers, and one wakeup must come.
 *  3. Once CPU 1 is kept busy, the deferrable timers due run too, within
 *     1 .. gran ticks of the shadow clock like any other.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "kselftest_harness.h"
#include "lib/swt_test.h"

#define SWT_IDLE_CPU		1
#define SWT_DEFERRABLE		50
#define SWT_MARGIN_MS		100	/* past the last tick they may run on */
#define SWT_GRACE_MS		2000	/* for the tasklet to run once they are due */
#define SWT_POLL_MS		20
#define SWT_WAKE_TRIES		5

FIXTURE(idle) {
	struct swt_geometry geo;
};

SWT_FIXTURE_SETUP(idle, NULL, NULL)
SWT_FIXTURE_TEARDOWN(idle, NULL)

static atomic_bool swt_spin_stop;

/* Keep a CPU busy, so that its tick runs */
static void *swt_spin(void *arg)
{
	unsigned int cpu = *(unsigned int *)arg;

	if (swt_pin_to_cpu(cpu))
		return (void *)-1L;
	while (!atomic_load(&swt_spin_stop))
		;
	return NULL;
}

/* Poll until CPU @cpu has no pending timers of the kind asked, or @until */
static int swt_wait_empty(unsigned int cpu, bool deferrable, u64 until,
			  struct swt_wheel *w)
{
	int ret;

	for (;;) {
		ret = swt_wheel_read(cpu, w);
		if (ret)
			return ret;
		if (!(deferrable ? swt_wheel_deferrable(w) : swt_wheel_normal(w)))
			return 0;
		if (swt_now_ms() > until)
			return -ETIME;
		swt_sleep_ms(SWT_POLL_MS);
	}
}

/*
 * 1. Deferrable timers on idle CPU 1 sit in its deferrable buckets, leave
 * next_expiry at none, and do not wake it; the stats after in @s1
 */
static void swt_expect_deferrable_let_it_sleep(struct __test_metadata *_metadata,
					       const struct swt_geometry *g, struct swt_stats *s1)
{
	const unsigned int cpu = SWT_IDLE_CPU;
	struct swt_arm def = {
		.cpu = SWT_IDLE_CPU,
		.count = SWT_DEFERRABLE,
		.lo = 200,
		.hi = 500,
		.ms = true,
		.extra = "deferrable",
	};
	struct swt_stats s0;
	struct swt_wheel w;

	ASSERT_EQ(0, swt_stats_read(&s0)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_arm(g, &def)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_wheel_read(cpu, &w)) TH_LOG("%s", swt_error());
	if ((s64)(w.jiffies - def.first_tick) < 0) {
		EXPECT_EQ((u64)SWT_DEFERRABLE, swt_wheel_deferrable(&w));
		EXPECT_EQ(0U, swt_wheel_normal(&w));
		EXPECT_FALSE(w.has_next)
			TH_LOG("only deferrable timers, next_expiry %llu", w.next_expiry);
	}
	ASSERT_EQ(0, swt_wait_tick(g, def.last_tick)) TH_LOG("%s", swt_error());
	swt_sleep_ms(SWT_MARGIN_MS);
	ASSERT_EQ(0, swt_stats_read(s1)) TH_LOG("%s", swt_error());
	swt_msg("deferrable on idle cpu%u: wakeups %llu -> %llu, %llu of %u ran anyway",
		cpu, s0.cpu[cpu].wakeups, s1->cpu[cpu].wakeups, s1->cpu[cpu].expired,
		SWT_DEFERRABLE);
	EXPECT_EQ(s0.cpu[cpu].wakeups, s1->cpu[cpu].wakeups)
		TH_LOG("deferrable timers woke cpu%u", cpu);
}

/* Three non-deferrable timers on the idle CPU; @last is the tick all have run by */
static void swt_arm_wake_round(struct __test_metadata *_metadata,
			       const struct swt_geometry *g, u64 *last)
{
	static const u64 norm_ms[3] = { 100, 250, 400 };
	struct swt_arm norm;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		norm = (struct swt_arm){
			.cpu = SWT_IDLE_CPU,
			.count = 1,
			.lo = norm_ms[i],
			.hi = norm_ms[i],
			.ms = true,
		};
		ASSERT_EQ(0, swt_arm(g, &norm)) TH_LOG("%s", swt_error());
		*last = swt_later(*last, norm.last_tick);
	}
}

/*
 * 2. Non-deferrable timers set next_expiry, run on time and wake the idle
 * CPU (wakeups past @s1's): rounds of them until one wakes it, at most
 * SWT_WAKE_TRIES; returns how many rounds ran
 */
static unsigned int swt_expect_normal_timers_wake(struct __test_metadata *_metadata,
						  const struct swt_geometry *g,
						  const struct swt_stats *s1)
{
	const unsigned int cpu = SWT_IDLE_CPU;
	struct swt_stats s2;
	struct swt_wheel w;
	unsigned int try;
	u64 last = 0;

	for (try = 0; try < SWT_WAKE_TRIES; try++) {
		swt_arm_wake_round(_metadata, g, &last);
		ASSERT_EQ(0, swt_wheel_read(cpu, &w)) TH_LOG("%s", swt_error());
		EXPECT_TRUE(w.has_next) TH_LOG("non-deferrable timers pending, next_expiry none");
		ASSERT_EQ(0, swt_wait_tick(g, last)) TH_LOG("%s", swt_error());
		EXPECT_EQ(0, swt_wait_empty(cpu, false, swt_now_ms() + SWT_GRACE_MS, &w))
			TH_LOG("%llu non-deferrable timers still pending on cpu%u",
			       swt_wheel_normal(&w), cpu);
		ASSERT_EQ(0, swt_stats_read(&s2)) TH_LOG("%s", swt_error());
		swt_msg("non-deferrable on idle cpu%u, round %u: wakeups %llu -> %llu", cpu,
			try + 1, s1->cpu[cpu].wakeups, s2.cpu[cpu].wakeups);
		if (s2.cpu[cpu].wakeups > s1->cpu[cpu].wakeups)
			break;
	}
	EXPECT_LT(s1->cpu[cpu].wakeups, s2.cpu[cpu].wakeups)
		TH_LOG("the shadow hrtimer never woke cpu%u in %u rounds", cpu, SWT_WAKE_TRIES);
	/* The loop ends on the round that saw a wakeup */
	return try < SWT_WAKE_TRIES ? try + 1 : SWT_WAKE_TRIES;
}

/* 3. Busy, CPU 1 runs the deferrable timers too */
static void swt_expect_busy_cpu_runs_deferrable(struct __test_metadata *_metadata)
{
	const unsigned int cpu = SWT_IDLE_CPU;
	pthread_t spinner;
	struct swt_wheel w;

	atomic_store(&swt_spin_stop, false);
	ASSERT_EQ(0, pthread_create(&spinner, NULL, swt_spin, (void *)&cpu));
	EXPECT_EQ(0, swt_wait_empty(cpu, true, swt_now_ms() + SWT_GRACE_MS, &w))
		TH_LOG("%llu deferrable timers still pending on busy cpu%u",
		       swt_wheel_deferrable(&w), cpu);
	atomic_store(&swt_spin_stop, true);
	pthread_join(spinner, NULL);
}

TEST_F(idle, deferrable_timers_do_not_wake_an_idle_cpu)
{
	const struct swt_geometry *g = &self->geo;
	struct swt_lateness lt;
	struct swt_stats s1, s3;
	unsigned int rounds;

	if (_metadata->skip)
		return;
	if (!swt_cpu_online(SWT_IDLE_CPU))
		SKIP(return, "CPU %u is not online", SWT_IDLE_CPU);
	ASSERT_EQ(0, swt_pin_to_cpu(0)) TH_LOG("%s", swt_error());

	swt_expect_deferrable_let_it_sleep(_metadata, g, &s1);
	rounds = swt_expect_normal_timers_wake(_metadata, g, &s1);
	swt_expect_busy_cpu_runs_deferrable(_metadata);

	ASSERT_EQ(0, swt_stats_read(&s3)) TH_LOG("%s", swt_error());
	/* Three timers a round */
	EXPECT_EQ((u64)SWT_DEFERRABLE + 3 * rounds, s3.total.expired);
	EXPECT_EQ(0U, s3.total.pending);
	ASSERT_EQ(0, swt_lateness_read(&lt)) TH_LOG("%s", swt_error());
	swt_expect_late_within_gran(_metadata, &lt);
	swt_msg("delivery delay %llu .. %llu ticks; hist %s", lt.delay_min,
		lt.delay_max, lt.delivery_hist);
}

TEST_HARNESS_MAIN
