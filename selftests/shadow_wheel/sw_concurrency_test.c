// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrent writers (docs/ABI/debugfs-shadow-wheel: control, "Writers may write concurrently";
 * stats, "armed = expired + cancelled + pending holds at every read").
 *
 * 8 threads, spread over the CPUs, each write 50 "arm count=100" commands
 * at once, half of them with short deltas (expiring while the others still
 * arm) and half with long ones, on a given CPU or round-robin; a reader
 * checks stats all along. Afterwards armed went up by exactly 40000, every
 * write succeeded, every read added up, and once the short ones are due
 * they have all expired; cancel-all then takes exactly the long ones.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "kselftest_harness.h"
#include "lib/swt_test.h"

#define SWT_WRITERS		8
#define SWT_WRITES		50
#define SWT_COUNT		100
#define SWT_SHORT_TICKS		200	/* delta=1..200 */
#define SWT_LONG_MS		1200000	/* delta=600000ms..1200000ms: none expires */
#define SWT_GRACE_MS		2000	/* for the tasklet to run once they are due */
#define SWT_READ_MS		5	/* between the reader's reads */

struct swt_writer {
	pthread_t thread;
	unsigned int id;
	unsigned int cpu;		/* where the thread runs */
	int target;			/* cpu= of its commands, -1 for none */
	bool is_short;
	unsigned int failed;
	int err;
};

struct swt_reader {
	pthread_t thread;
	unsigned int reads;
	unsigned int bad;
	char why[256];
};

static atomic_bool swt_go, swt_writers_done;

static void *swt_write(void *arg)
{
	struct swt_writer *wr = arg;
	char cpu[32] = "";
	unsigned int i;
	int ret;

	swt_pin_to_cpu(wr->cpu);
	if (wr->target >= 0)
		snprintf(cpu, sizeof(cpu), " cpu=%d", wr->target);
	while (!atomic_load(&swt_go))
		;
	for (i = 0; i < SWT_WRITES; i++) {
		if (wr->is_short)
			ret = swt_control("arm count=%u delta=1..%u%s", SWT_COUNT, SWT_SHORT_TICKS,
					  cpu);
		else
			ret = swt_control("arm count=%u delta=%ums..%ums%s", SWT_COUNT,
					  SWT_LONG_MS / 2, SWT_LONG_MS, cpu);
		if (ret) {
			wr->failed++;
			wr->err = ret;
		}
	}
	return NULL;
}

static void *swt_read(void *arg)
{
	struct swt_reader *rd = arg;
	struct swt_stats st;
	char why[256];

	while (!atomic_load(&swt_writers_done)) {
		if (swt_stats_read(&st)) {
			snprintf(rd->why, sizeof(rd->why), "%s", swt_error());
			rd->bad++;
		} else if (!swt_stats_sane(&st, why, sizeof(why))) {
			snprintf(rd->why, sizeof(rd->why), "%s", why);
			rd->bad++;
		}
		rd->reads++;
		swt_sleep_ms(SWT_READ_MS);
	}
	return NULL;
}

FIXTURE(concurrency) {
	struct swt_geometry geo;
};

SWT_FIXTURE_SETUP(concurrency, NULL, NULL)
SWT_FIXTURE_TEARDOWN(concurrency, NULL)

/*
 * The writers @wr, spread over the online CPUs, write at once while the
 * reader @rd checks stats; returns how many short timers they armed
 */
static u64 swt_run_writers(struct __test_metadata *_metadata,
			   struct swt_writer wr[SWT_WRITERS], struct swt_reader *rd)
{
	unsigned int online[SWT_MAX_CPUS], ncpu, i;
	u64 shorts = 0, j, start;

	ncpu = swt_cpus_online(online);
	ASSERT_LT(0U, ncpu);
	ASSERT_EQ(0, swt_jiffies(&j)) TH_LOG("%s", swt_error());

	atomic_store(&swt_go, false);
	atomic_store(&swt_writers_done, false);
	for (i = 0; i < SWT_WRITERS; i++) {
		wr[i] = (struct swt_writer){
			.id = i,
			.cpu = online[i % ncpu],
			/* every other pair round-robin, the rest on a CPU of their own */
			.target = i & 2 ? -1 : (int)online[(i / 4) % ncpu],
			.is_short = i & 1,
		};
		if (wr[i].is_short)
			shorts += SWT_WRITES * SWT_COUNT;
		ASSERT_EQ(0, pthread_create(&wr[i].thread, NULL, swt_write, &wr[i]));
	}
	ASSERT_EQ(0, pthread_create(&rd->thread, NULL, swt_read, rd));
	start = swt_now_ms();
	atomic_store(&swt_go, true);
	for (i = 0; i < SWT_WRITERS; i++)
		pthread_join(wr[i].thread, NULL);
	atomic_store(&swt_writers_done, true);
	pthread_join(rd->thread, NULL);
	swt_msg("%u writers armed %llu timers in %llu ms; %u stats reads meanwhile",
		SWT_WRITERS, (u64)SWT_WRITERS * SWT_WRITES * SWT_COUNT, swt_now_ms() - start,
		rd->reads);
	return shorts;
}

/* Every write succeeded, every read added up, and armed went up by @total */
static void swt_expect_every_write_counted(struct __test_metadata *_metadata,
					   const struct swt_writer wr[SWT_WRITERS],
					   const struct swt_reader *rd, u64 total)
{
	struct swt_stats st;
	char why[256];
	unsigned int i;

	for (i = 0; i < SWT_WRITERS; i++) {
		const struct swt_writer *w = &wr[i];

		EXPECT_EQ(0U, w->failed)
			TH_LOG("writer %u: %u writes failed, the last with %s", w->id, w->failed,
			       strerror(-w->err));
	}
	EXPECT_EQ(0U, rd->bad) TH_LOG("%u of %u reads did not add up: %s", rd->bad, rd->reads,
				      rd->why);
	ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
	EXPECT_EQ(total, st.total.armed);
	EXPECT_EQ(total, SWT_CPU_SUM(&st, armed));
	EXPECT_TRUE(swt_stats_sane(&st, why, sizeof(why))) TH_LOG("%s", why);
}

/*
 * The @shorts short ones all run, the long ones are all still there; then
 * cancel-all takes exactly the long ones
 */
static void swt_expect_shorts_run_longs_wait(struct __test_metadata *_metadata,
					     const struct swt_geometry *g, u64 total, u64 shorts)
{
	struct swt_stats st;
	u64 due, until;

	ASSERT_EQ(0, swt_jiffies(&due)) TH_LOG("%s", swt_error());
	due += SWT_SHORT_TICKS + g->level[swt_geo_level_of(g, 2 * SWT_SHORT_TICKS)].gran;
	ASSERT_EQ(0, swt_wait_tick(g, due)) TH_LOG("%s", swt_error());
	until = swt_now_ms() + SWT_GRACE_MS;
	do {
		ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
		if (st.total.expired == shorts)
			break;
		swt_sleep_ms(50);
	} while (swt_now_ms() < until);
	EXPECT_EQ(shorts, st.total.expired);
	EXPECT_EQ(total - shorts, st.total.pending);

	ASSERT_EQ(0, swt_control("cancel-all")) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_stats_read(&st)) TH_LOG("%s", swt_error());
	EXPECT_EQ(0U, st.total.pending);
	EXPECT_EQ(0U, st.total.alive);
	EXPECT_EQ(total - shorts, st.total.cancelled);
	EXPECT_EQ(shorts, st.total.expired);
}

TEST_F_TIMEOUT(concurrency, writers_arm_exactly_what_they_ask, 180)
{
	const u64 total = (u64)SWT_WRITERS * SWT_WRITES * SWT_COUNT;
	struct swt_writer wr[SWT_WRITERS];
	struct swt_reader rd = { 0 };
	u64 shorts;

	if (_metadata->skip)
		return;

	shorts = swt_run_writers(_metadata, wr, &rd);
	swt_expect_every_write_counted(_metadata, wr, &rd, total);
	swt_expect_shorts_run_longs_wait(_metadata, &self->geo, total, shorts);
}

TEST_HARNESS_MAIN
