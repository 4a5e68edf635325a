// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrent writers (README: control, "Writers may write concurrently";
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
#include "sw_test.h"

#define SW_WRITERS		8
#define SW_WRITES		50
#define SW_COUNT		100
#define SW_SHORT_TICKS		200	/* delta=1..200 */
#define SW_LONG_MS		1200000	/* delta=600000ms..1200000ms: none expires */
#define SW_GRACE_MS		2000	/* for the tasklet to run once they are due */
#define SW_READ_MS		5	/* between the reader's reads */

struct sw_writer {
	pthread_t thread;
	unsigned int id;
	unsigned int cpu;		/* where the thread runs */
	int target;			/* cpu= of its commands, -1 for none */
	bool is_short;
	unsigned int failed;
	int err;
};

struct sw_reader {
	pthread_t thread;
	unsigned int reads;
	unsigned int bad;
	char why[256];
};

static atomic_bool sw_go, sw_writers_done;

static void *sw_write(void *arg)
{
	struct sw_writer *wr = arg;
	char cpu[32] = "";
	unsigned int i;
	int ret;

	sw_pin_to_cpu(wr->cpu);
	if (wr->target >= 0)
		snprintf(cpu, sizeof(cpu), " cpu=%d", wr->target);
	while (!atomic_load(&sw_go))
		;
	for (i = 0; i < SW_WRITES; i++) {
		if (wr->is_short)
			ret = sw_control("arm count=%u delta=1..%u%s", SW_COUNT, SW_SHORT_TICKS,
					 cpu);
		else
			ret = sw_control("arm count=%u delta=%ums..%ums%s", SW_COUNT,
					 SW_LONG_MS / 2, SW_LONG_MS, cpu);
		if (ret) {
			wr->failed++;
			wr->err = ret;
		}
	}
	return NULL;
}

static void *sw_read(void *arg)
{
	struct sw_reader *rd = arg;
	struct sw_stats st;
	char why[256];

	while (!atomic_load(&sw_writers_done)) {
		if (sw_stats_read(&st)) {
			snprintf(rd->why, sizeof(rd->why), "%s", sw_error());
			rd->bad++;
		} else if (!sw_stats_sane(&st, why, sizeof(why))) {
			snprintf(rd->why, sizeof(rd->why), "%s", why);
			rd->bad++;
		}
		rd->reads++;
		sw_sleep_ms(SW_READ_MS);
	}
	return NULL;
}

FIXTURE(concurrency) {
	struct sw_geometry geo;
};

FIXTURE_SETUP(concurrency)
{
	int ret;

	ret = sw_start(NULL);
	if (ret == SW_SKIP)
		SKIP(return, "%s", sw_error());
	ASSERT_EQ(0, ret) TH_LOG("%s", sw_error());
	ASSERT_EQ(0, sw_geometry_read(&self->geo)) TH_LOG("%s", sw_error());
}

FIXTURE_TEARDOWN(concurrency)
{
	sw_teardown(_metadata);
}

TEST_F_TIMEOUT(concurrency, writers_arm_exactly_what_they_ask, 180)
{
	const u64 total = (u64)SW_WRITERS * SW_WRITES * SW_COUNT;
	struct sw_writer wr[SW_WRITERS];
	unsigned int online[SW_MAX_CPUS], ncpu, i;
	u64 shorts = 0, j, due, until, start;
	struct sw_reader rd = { 0 };
	struct sw_stats st;
	char why[256];

	if (_metadata->skip)
		return;

	ncpu = sw_cpus_online(online);
	ASSERT_LT(0U, ncpu);
	ASSERT_EQ(0, sw_jiffies(&j)) TH_LOG("%s", sw_error());

	atomic_store(&sw_go, false);
	atomic_store(&sw_writers_done, false);
	for (i = 0; i < SW_WRITERS; i++) {
		wr[i] = (struct sw_writer){
			.id = i,
			.cpu = online[i % ncpu],
			/* every other pair round-robin, the rest on a CPU of their own */
			.target = i & 2 ? -1 : (int)online[(i / 4) % ncpu],
			.is_short = i & 1,
		};
		if (wr[i].is_short)
			shorts += SW_WRITES * SW_COUNT;
		ASSERT_EQ(0, pthread_create(&wr[i].thread, NULL, sw_write, &wr[i]));
	}
	ASSERT_EQ(0, pthread_create(&rd.thread, NULL, sw_read, &rd));
	start = sw_now_ms();
	atomic_store(&sw_go, true);
	for (i = 0; i < SW_WRITERS; i++)
		pthread_join(wr[i].thread, NULL);
	atomic_store(&sw_writers_done, true);
	pthread_join(rd.thread, NULL);
	sw_msg("%u writers armed %llu timers in %llu ms; %u stats reads meanwhile",
	       SW_WRITERS, total, sw_now_ms() - start, rd.reads);

	for (i = 0; i < SW_WRITERS; i++) {
		const struct sw_writer *w = &wr[i];

		EXPECT_EQ(0U, w->failed)
			TH_LOG("writer %u: %u writes failed, the last with %s", w->id, w->failed,
			       strerror(-w->err));
	}
	EXPECT_EQ(0U, rd.bad) TH_LOG("%u of %u reads did not add up: %s", rd.bad, rd.reads,
				     rd.why);
	ASSERT_EQ(0, sw_stats_read(&st)) TH_LOG("%s", sw_error());
	EXPECT_EQ(total, st.total.armed);
	EXPECT_EQ(total, SW_CPU_SUM(&st, armed));
	EXPECT_TRUE(sw_stats_sane(&st, why, sizeof(why))) TH_LOG("%s", why);

	/* The short ones all run; the long ones are all still there */
	ASSERT_EQ(0, sw_jiffies(&due)) TH_LOG("%s", sw_error());
	due += SW_SHORT_TICKS + self->geo.level[sw_geo_level_of(&self->geo, 2 * SW_SHORT_TICKS)]
		.gran;
	ASSERT_EQ(0, sw_wait_tick(&self->geo, due)) TH_LOG("%s", sw_error());
	until = sw_now_ms() + SW_GRACE_MS;
	do {
		ASSERT_EQ(0, sw_stats_read(&st)) TH_LOG("%s", sw_error());
		if (st.total.expired == shorts)
			break;
		sw_sleep_ms(50);
	} while (sw_now_ms() < until);
	EXPECT_EQ(shorts, st.total.expired);
	EXPECT_EQ(total - shorts, st.total.pending);

	ASSERT_EQ(0, sw_control("cancel-all")) TH_LOG("%s", sw_error());
	ASSERT_EQ(0, sw_stats_read(&st)) TH_LOG("%s", sw_error());
	EXPECT_EQ(0U, st.total.pending);
	EXPECT_EQ(0U, st.total.alive);
	EXPECT_EQ(total - shorts, st.total.cancelled);
	EXPECT_EQ(shorts, st.total.expired);
}

TEST_HARNESS_MAIN
