// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the merge of the live mirror's per-CPU logs
 * (core/merge/sw_logmerge.c): a counter's numbers come in order, whatever
 * the CPUs and jiffies say; among the rest the earliest jiffies; an event
 * being written holds back only what comes after it; a number that can
 * never come is passed, counted. Then against the real order itself: many
 * CPUs appending, writing late, out of step, over thousands of events.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/prandom.h>

#include "sw_logmerge.h"
#include "sw_test_common.h"

#define SW_LMT_CPUS	16
#define SW_LMT_COUNTERS	8
/* An event of its CPU alone: no counter */
#define SW_LMT_NONE	SW_LMT_COUNTERS

/* Heads of up to SW_LMT_CPUS logs and the merge over them */
struct sw_lmt {
	struct sw_logmerge_head	heads[SW_LMT_CPUS];
	unsigned long		next[SW_LMT_COUNTERS];
	struct sw_logmerge	m;
};

static struct sw_lmt *sw_lmt_new(struct kunit *test, unsigned int nr_cpus)
{
	struct sw_lmt *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	sw_logmerge_init(&s->m, s->next, SW_LMT_COUNTERS, nr_cpus);
	return s;
}

/* CPU @c's next event: number @nr of counter @counter, at jiffies @now */
static void sw_lmt_ready(struct sw_lmt *s, unsigned int c, unsigned int counter,
			 unsigned long nr, unsigned long now)
{
	s->heads[c] = (struct sw_logmerge_head){
		.state = SW_LH_READY, .counter = counter, .nr = nr, .now = now,
	};
}

/* A counter's numbers come in order: before the earlier jiffies and the lower CPU */
static void sw_logmerge_takes_a_counter_in_order(struct kunit *test)
{
	struct sw_lmt *s = sw_lmt_new(test, 2);

	sw_lmt_ready(s, 0, 1, 1, 5);
	sw_lmt_ready(s, 1, 1, 0, 6);
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), 1);
	KUNIT_EXPECT_EQ(test, s->next[1], 1UL);
	s->heads[1].state = SW_LH_EMPTY;
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), 0);
	KUNIT_EXPECT_EQ(test, s->next[1], 2UL);
	KUNIT_EXPECT_EQ(test, s->m.taken, 2UL);
	KUNIT_EXPECT_EQ(test, s->m.forced, 0UL);
}

/*
 * Among events it may take (a counter's next, or an event of no timer):
 * the earliest jiffies, across the wrap, then the lower CPU
 */
static void sw_logmerge_takes_the_earliest_jiffies(struct kunit *test)
{
	struct sw_lmt *s = sw_lmt_new(test, 4);

	sw_lmt_ready(s, 0, 0, 0, 3);
	sw_lmt_ready(s, 1, 1, 0, ULONG_MAX - 1);
	sw_lmt_ready(s, 2, SW_LMT_NONE, 7, ULONG_MAX - 1);
	sw_lmt_ready(s, 3, 3, 0, 0);
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), 1);
	s->heads[1].state = SW_LH_EMPTY;
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), 2);
	s->heads[2].state = SW_LH_EMPTY;
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), 3);
	s->heads[3].state = SW_LH_EMPTY;
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), 0);
	s->heads[0].state = SW_LH_EMPTY;
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), SW_LOGMERGE_WAIT);
}

/* Of events with the same jiffies, the fuller log's first: it may be one that filled */
static void sw_logmerge_takes_the_fuller_log_on_a_tie(struct kunit *test)
{
	struct sw_lmt *s = sw_lmt_new(test, 3);

	sw_lmt_ready(s, 0, 0, 0, 9);
	sw_lmt_ready(s, 1, 1, 0, 9);
	sw_lmt_ready(s, 2, 2, 0, 8);
	s->heads[0].backlog = 3;
	s->heads[1].backlog = 64;
	s->heads[2].backlog = 1;
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), 2);
	s->heads[2].state = SW_LH_EMPTY;
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), 1);
	s->heads[1].state = SW_LH_EMPTY;
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), 0);
}

/* An event being written holds back what waits for its number, nothing else */
static void sw_logmerge_waits_only_for_what_is_being_written(struct kunit *test)
{
	struct sw_lmt *s = sw_lmt_new(test, 3);

	sw_lmt_ready(s, 0, 0, 1, 10);
	s->heads[1].state = SW_LH_WRITING;
	sw_lmt_ready(s, 2, 2, 0, 20);
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), 2);
	s->heads[2].state = SW_LH_EMPTY;
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), SW_LOGMERGE_WAIT);
	KUNIT_EXPECT_EQ(test, sw_logmerge_force(&s->m, s->heads), SW_LOGMERGE_WAIT);
	/* Written: number 0 of counter 0, then the one that waited for it */
	sw_lmt_ready(s, 1, 0, 0, 10);
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), 1);
	s->heads[1].state = SW_LH_EMPTY;
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), 0);
	KUNIT_EXPECT_EQ(test, s->m.forced, 0UL);
}

/* A number no log holds nor is writing: a gap, passed by force and counted */
static void sw_logmerge_passes_a_gap_counted(struct kunit *test)
{
	struct sw_lmt *s = sw_lmt_new(test, 2);

	sw_lmt_ready(s, 0, 1, 3, 7);
	sw_lmt_ready(s, 1, 1, 5, 6);
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), SW_LOGMERGE_GAP);
	KUNIT_EXPECT_EQ(test, s->m.taken, 0UL);
	/* The earliest jiffies first; the counter goes on from its number */
	KUNIT_EXPECT_EQ(test, sw_logmerge_force(&s->m, s->heads), 1);
	KUNIT_EXPECT_EQ(test, s->next[1], 6UL);
	KUNIT_EXPECT_EQ(test, s->m.forced, 1UL);
	s->heads[1].state = SW_LH_EMPTY;
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), SW_LOGMERGE_GAP);
	KUNIT_EXPECT_EQ(test, sw_logmerge_force(&s->m, s->heads), 0);
	KUNIT_EXPECT_EQ(test, s->m.forced, 2UL);
	/* Not while one is being written: it may hold the number */
	sw_lmt_ready(s, 0, 0, 4, 7);
	s->heads[1].state = SW_LH_WRITING;
	KUNIT_EXPECT_EQ(test, sw_logmerge_pick(&s->m, s->heads), SW_LOGMERGE_WAIT);
	KUNIT_EXPECT_EQ(test, sw_logmerge_force(&s->m, s->heads), SW_LOGMERGE_WAIT);
	KUNIT_EXPECT_EQ(test, s->m.forced, 2UL);
}

/* The reference run: how the logs are written */
enum sw_lmt_mode {
	SW_LMT_AT_ONCE,		/* each event written as it is reserved */
	SW_LMT_LATE,		/* written later, each CPU at its own pace */
	SW_LMT_LOST,		/* and some never: numbers taken, events lost */
};

struct sw_lmt_param {
	unsigned int		cpus;
	enum sw_lmt_mode	mode;
	const char		*name;
};

static const struct sw_lmt_param sw_lmt_params[] = {
	{ 2, SW_LMT_AT_ONCE, "2 CPUs, written at once" },
	{ 2, SW_LMT_LATE, "2 CPUs, written late" },
	{ 8, SW_LMT_AT_ONCE, "8 CPUs, written at once" },
	{ 8, SW_LMT_LATE, "8 CPUs, written late" },
	{ 16, SW_LMT_LATE, "16 CPUs, written late" },
	{ 16, SW_LMT_LOST, "16 CPUs, some lost" },
};

static const void *sw_lmt_gen_params(const void *prev, char *desc)
{
	const struct sw_lmt_param *next = prev ? (const struct sw_lmt_param *)prev + 1 :
					  sw_lmt_params;

	if (next >= sw_lmt_params + ARRAY_SIZE(sw_lmt_params))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", next->name);
	return next;
}

#define SW_LMT_EVENTS	4000

/* One event of the real order, as it is logged */
struct sw_lmt_ev {
	unsigned long	now;
	u32		nr;
	u16		counter;
	bool		lost;
};

/**
 * struct sw_lmt_run - the reference: the real order, and the logs it wrote
 * @ev:		the events in their real order
 * @log:	per CPU, indices into @ev in the CPU's order
 * @len:	per CPU, events in its log
 * @reserved:	per CPU, events reserved (the real order has reached them)
 * @written:	per CPU, of those, written
 * @taken:	per CPU, of those, taken by the merge
 * @next_nr:	per counter, the number the merge must take next
 */
struct sw_lmt_run {
	struct sw_lmt_ev	ev[SW_LMT_EVENTS];
	u16			log[SW_LMT_CPUS][SW_LMT_EVENTS];
	unsigned int		len[SW_LMT_CPUS];
	unsigned int		reserved[SW_LMT_CPUS];
	unsigned int		written[SW_LMT_CPUS];
	unsigned int		taken[SW_LMT_CPUS];
	unsigned long		next_nr[SW_LMT_COUNTERS + 1];
};

/* What the merge sees of CPU @c's log */
static void sw_lmt_head(const struct sw_lmt_run *r, struct sw_lmt *s, unsigned int c)
{
	const struct sw_lmt_ev *e;

	/* A lost event is never written: the log goes on after it */
	if (r->taken[c] < r->written[c]) {
		e = &r->ev[r->log[c][r->taken[c]]];
		sw_lmt_ready(s, c, e->counter, e->nr, e->now);
		s->heads[c].backlog = r->reserved[c] - r->taken[c];
	} else {
		s->heads[c].state = r->taken[c] < r->reserved[c] ? SW_LH_WRITING : SW_LH_EMPTY;
	}
}

/* Drain as the module does: pick until none may be taken, forcing confirmed gaps */
static void sw_lmt_drain(struct kunit *test, struct sw_lmt_run *r, struct sw_lmt *s,
			 unsigned long *last_now, bool *went_back)
{
	const struct sw_lmt_ev *e;
	unsigned int c;
	int got;

	for (;;) {
		for (c = 0; c < s->m.nr_logs; c++)
			sw_lmt_head(r, s, c);
		got = sw_logmerge_pick(&s->m, s->heads);
		if (got == SW_LOGMERGE_GAP)
			got = sw_logmerge_force(&s->m, s->heads);
		if (got < 0)
			return;
		e = &r->ev[r->log[got][r->taken[got]++]];
		/* Without loss, every counter's numbers in order */
		if (!s->m.forced && e->counter != SW_LMT_NONE)
			KUNIT_EXPECT_EQ(test, e->nr, r->next_nr[e->counter]);
		r->next_nr[e->counter] = e->nr + 1;
		if (sw_time_before(e->now, *last_now))
			*went_back = true;
		*last_now = e->now;
	}
}

/*
 * The real order: each event on a random CPU, of one of a few timers'
 * counters or of none, jiffies going on now and then. The logs are written at once
 * or late, and drained at random moments; every event written comes out
 * once, in its log's order, each counter's numbers in order, with no
 * force. Written at once, jiffies never go back. With events lost after
 * taking their numbers (which the module never does), the merge still
 * never stops: what waits for them is forced through, counted.
 */
static void sw_logmerge_matches_the_real_order(struct kunit *test)
{
	const struct sw_lmt_param *p = test->param_value;
	struct sw_lmt *s = sw_lmt_new(test, p->cpus);
	struct sw_lmt_run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	unsigned long cnt[SW_LMT_COUNTERS + 1] = {}, now = -500UL, last_now = now;
	unsigned int i, c, reached = 0, lost = 0, total = 0;
	bool went_back = false;
	struct rnd_state rnd;

	KUNIT_ASSERT_NOT_NULL(test, r);
	prandom_seed_state(&rnd, 0x10963e + p->cpus * 3 + p->mode);
	for (i = 0; i < SW_LMT_EVENTS; i++) {
		u32 x = prandom_u32_state(&rnd);
		unsigned int cpu = x % p->cpus;
		struct sw_lmt_ev *e = &r->ev[i];

		e->counter = (x >> 8) % 4 ? (x >> 10) % SW_LMT_COUNTERS : SW_LMT_NONE;
		e->nr = cnt[e->counter]++;
		now += (x >> 16) % 40 == 0;
		e->now = now;
		e->lost = p->mode == SW_LMT_LOST && (x >> 20) % 500 == 0;
		lost += e->lost;
		/* A lost event's number was taken; its entry never is */
		if (!e->lost)
			r->log[cpu][r->len[cpu]++] = i;
	}
	while (reached < SW_LMT_EVENTS || p->mode != SW_LMT_AT_ONCE) {
		u32 x = prandom_u32_state(&rnd);

		if (reached < SW_LMT_EVENTS && x % 4) {
			/* The real order goes on: its next event reserved */
			for (c = 0; c < p->cpus; c++) {
				if (r->reserved[c] < r->len[c] &&
				    r->log[c][r->reserved[c]] == reached)
					break;
			}
			reached++;
			if (c == p->cpus)
				continue;	/* lost */
			r->reserved[c]++;
			if (p->mode == SW_LMT_AT_ONCE)
				r->written[c]++;
		} else if (p->mode != SW_LMT_AT_ONCE) {
			/* A CPU writes what it reserved, oldest first */
			c = (x >> 4) % p->cpus;
			if (r->written[c] < r->reserved[c])
				r->written[c]++;
			else if (reached == SW_LMT_EVENTS)
				break;
		}
		if ((x >> 12) % 16 == 0)
			sw_lmt_drain(test, r, s, &last_now, &went_back);
	}
	for (c = 0; c < p->cpus; c++)
		r->written[c] = r->reserved[c];
	sw_lmt_drain(test, r, s, &last_now, &went_back);

	for (c = 0; c < p->cpus; c++) {
		KUNIT_EXPECT_EQ(test, r->taken[c], r->len[c]);
		total += r->len[c];
	}
	KUNIT_EXPECT_EQ(test, total, SW_LMT_EVENTS - lost);
	KUNIT_EXPECT_EQ(test, s->m.taken, (unsigned long)total);
	if (p->mode == SW_LMT_LOST) {
		KUNIT_EXPECT_LT(test, 0U, lost);
		KUNIT_EXPECT_LT(test, 0UL, s->m.forced);
	} else {
		KUNIT_EXPECT_EQ(test, s->m.forced, 0UL);
	}
	if (p->mode == SW_LMT_AT_ONCE)
		KUNIT_EXPECT_FALSE(test, went_back);
}

SW_TEST_SUITE(sw_logmerge_suite, "shadow_wheel_logmerge",
	      KUNIT_CASE(sw_logmerge_takes_a_counter_in_order),
	      KUNIT_CASE(sw_logmerge_takes_the_earliest_jiffies),
	      KUNIT_CASE(sw_logmerge_takes_the_fuller_log_on_a_tie),
	      KUNIT_CASE(sw_logmerge_waits_only_for_what_is_being_written),
	      KUNIT_CASE(sw_logmerge_passes_a_gap_counted),
	      KUNIT_CASE_PARAM(sw_logmerge_matches_the_real_order, sw_lmt_gen_params));

kunit_test_suites(&sw_logmerge_suite);
