// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the merge of per-CPU timer event streams
 * (core/merge/sw_order.c): each CPU's order kept, the timestamps' order
 * kept where no rule of the kernel's speaks, and a timer's events put in
 * a sequence the kernel can produce where the timestamps tie.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "sw_order.h"

#define SW_OT_CPUS	2
#define SW_OT_MAX	16

/* Streams of up to SW_OT_MAX events on each of two CPUs, and what came out */
struct sw_ot {
	struct sw_order_timer	timer[4];
	struct sw_order_ev	ev[SW_OT_CPUS][SW_OT_MAX];
	struct sw_order_cpu	cpu[SW_OT_CPUS];
	struct sw_order		o;
	/* The merged order: CPU, index in its stream */
	unsigned int		out_cpu[SW_OT_CPUS * SW_OT_MAX];
	unsigned int		out_idx[SW_OT_CPUS * SW_OT_MAX];
	unsigned int		nr_out;
};

static struct sw_ot *sw_ot_new(struct kunit *test)
{
	struct sw_ot *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	unsigned int c;

	KUNIT_ASSERT_NOT_NULL(test, s);
	for (c = 0; c < SW_OT_CPUS; c++)
		s->cpu[c].ev = s->ev[c];
	return s;
}

/* Append an event to CPU @c's stream; @timer < 0: an event of the CPU alone */
static struct sw_order_ev *sw_ot_add(struct sw_ot *s, unsigned int c, u64 ts, int timer,
				     enum sw_ev_type type, unsigned long tick)
{
	struct sw_order_ev *e = &s->ev[c][s->cpu[c].nr++];

	e->ts = ts;
	e->type = timer < 0 ? SW_EV_SOFTIRQ_ENTRY : type;
	e->timer = timer < 0 ? NULL : &s->timer[timer];
	e->tick = tick;
	return e;
}

static void sw_ot_with_now(struct sw_order_ev *e, unsigned long now)
{
	e->now = now;
	e->has_now = true;
}

/* Merge it all, checking that every event comes out once, each CPU's in its order */
static void sw_ot_merge(struct kunit *test, struct sw_ot *s, u64 window)
{
	unsigned int c, seen[SW_OT_CPUS] = {};
	int next;

	for (c = 0; c < SW_OT_CPUS; c++)
		sw_order_mark(s->ev[c], s->cpu[c].nr);
	sw_order_init(&s->o, s->cpu, SW_OT_CPUS, window);
	while ((next = sw_order_next(&s->o)) >= 0) {
		KUNIT_ASSERT_LT(test, next, SW_OT_CPUS);
		KUNIT_ASSERT_LT(test, s->nr_out, (unsigned int)ARRAY_SIZE(s->out_cpu));
		KUNIT_EXPECT_EQ(test, s->cpu[next].pos, (size_t)seen[next] + 1);
		s->out_cpu[s->nr_out] = next;
		s->out_idx[s->nr_out++] = seen[next]++;
	}
	for (c = 0; c < SW_OT_CPUS; c++)
		KUNIT_EXPECT_EQ(test, seen[c], (unsigned int)s->cpu[c].nr);
	KUNIT_EXPECT_EQ(test, s->o.merged, (unsigned long)s->nr_out);
}

/*
 * The merged order, as the CPU of each event in turn ("0110": CPU 0's
 * first, CPU 1's first two, CPU 0's second), and how many decisions went
 * against the timestamps and against the rules
 */
static void sw_ot_expect(struct kunit *test, const struct sw_ot *s, const char *cpus,
			 unsigned long moved, unsigned long broken)
{
	char got[SW_OT_CPUS * SW_OT_MAX + 1];
	unsigned int k;

	for (k = 0; k < s->nr_out; k++)
		got[k] = '0' + s->out_cpu[k];
	got[k] = 0;
	KUNIT_EXPECT_STREQ(test, got, cpus);
	KUNIT_EXPECT_EQ(test, s->o.moved, moved);
	KUNIT_EXPECT_EQ(test, s->o.broken, broken);
}

/* Where CPU @c's event @i came out */
static unsigned int sw_ot_at(const struct sw_ot *s, unsigned int c, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < s->nr_out; k++) {
		if (s->out_cpu[k] == c && s->out_idx[k] == i)
			return k;
	}
	return UINT_MAX;
}

/* One event of a case: CPU, timestamp, timer (-1: none), type, tick, jiffies (0: none) */
struct sw_ot_ev {
	u8		cpu;
	u64		ts;
	int		timer;
	u8		type;
	unsigned long	tick;
	unsigned long	now;
};

/*
 * A case: the events, each CPU's in its order; whether timer 0 was known
 * not pending before them; the merged order as sw_ot_expect() reads it,
 * decisions against the timestamps, events merged against the rules
 */
struct sw_ot_case {
	const char		*name;
	struct sw_ot_ev		ev[6];
	bool			idle;
	const char		*want;
	unsigned long		moved;
	unsigned long		broken;
};

#define W	SW_ORDER_WINDOW_NS
#define START	SW_EV_START
#define CANCEL	SW_EV_CANCEL
#define EXPIRE	SW_EV_EXPIRE

static const struct sw_ot_case sw_ot_cases[] = {
	/* Without ties, the timestamps' order, whatever the events */
	{ "untied-by-timestamp",
	  { { 0, 1000, 0, START, 10 }, { 1, 50000, -1 }, { 0, 90000, 0, CANCEL },
	    { 1, 120000, 1, START, 20 } }, false, "0101", 0, 0 },
	/* Tied events of other timers, and of no timer: the timestamps, CPU 0 first */
	{ "tie-without-rule-keeps-timestamps",
	  { { 0, 1000, 0, START, 10 }, { 0, 1003, -1 }, { 1, 1000, 1, START, 20 },
	    { 1, 1001, -1 } }, false, "0110", 0, 0 },
	/* A cancel of another CPU, a few us early by its clock, after the start it undoes */
	{ "cancel-follows-its-start",
	  { { 0, 10000, 0, START, 10 }, { 1, 9000, 0, CANCEL }, { 1, 9500, 0, START, 30 } },
	  true, "011", 1, 0 },
	/* Jiffies never go back: within the window the event that read fewer goes first */
	{ "jiffies-order",
	  { { 0, 2000, 0, START, 40, 101 }, { 1, 2004, 1, START, 40, 100 } },
	  false, "10", 1, 0 },
	/* Beyond the window the timestamps stand: the rule is counted broken, nothing lost */
	{ "beyond-the-window-counts-broken",
	  { { 0, 2000, 0, START, 40, 101 }, { 1, 2000 + 2 * W, 1, START, 40, 100 } },
	  false, "01", 0, 1 },
	/* No order keeps the rules (a start lost): every event still comes out, once */
	{ "impossible-input-merged-whole",
	  { { 0, 3000, 0, CANCEL }, { 0, 3000, 0, CANCEL }, { 1, 3000, 0, CANCEL },
	    { 1, 3001, -1 } }, false, "0011", 0, 2 },
	/*
	 * Another CPU may start a timer between its detach and its callback,
	 * but within the window the callback is taken first; apart by more
	 * than the window, the restart stays in between
	 */
	{ "expire-entry-before-a-tied-restart",
	  { { 0, 7000, 0, CANCEL }, { 0, 7003, 0, EXPIRE, 60 }, { 1, 7001, 0, START, 90 } },
	  false, "001", 1, 0 },
	{ "restart-between-detach-and-callback",
	  { { 0, 7000, 0, CANCEL }, { 0, 7000 + 3 * W, 0, EXPIRE, 60 },
	    { 1, 7000 + W + 1, 0, START, 90 } }, false, "010", 0, 0 },
};

#undef W
#undef START
#undef CANCEL
#undef EXPIRE

static const void *sw_ot_gen_params(const void *prev, char *desc)
{
	const struct sw_ot_case *next = prev ? (const struct sw_ot_case *)prev + 1 : sw_ot_cases;

	if (next >= sw_ot_cases + ARRAY_SIZE(sw_ot_cases))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", next->name);
	return next;
}

static void sw_ot_case(struct kunit *test)
{
	const struct sw_ot_case *tc = test->param_value;
	struct sw_ot *s = sw_ot_new(test);
	const struct sw_ot_ev *e;

	for (e = tc->ev; e < tc->ev + ARRAY_SIZE(tc->ev) && e->ts; e++) {
		struct sw_order_ev *oe = sw_ot_add(s, e->cpu, e->ts, e->timer, e->type, e->tick);

		if (e->now)
			sw_ot_with_now(oe, e->now);
	}
	if (tc->idle)
		s->timer[0].state = SW_OT_IDLE;
	sw_ot_merge(test, s, SW_ORDER_WINDOW_NS);

	sw_ot_expect(test, s, tc->want, tc->moved, tc->broken);
}

/*
 * The recording of issue 24, one tcp_write_timer, six events on one
 * timestamp: CPU 0 cancels it and starts it for E, twice; CPU 1 cancels it
 * and starts it for E + 50; CPU 0 cancels it and its expire_entry runs
 * with baseclk E + 1. By timestamp, CPU 0 first, CPU 1's start came last
 * and nothing explained the expiry. CPU 1's pair belongs before CPU 0's
 * last start: the one in force at the detach.
 */
static void sw_ot_expiry_shows_the_last_start(struct kunit *test)
{
	const unsigned long e = 4294896316UL;
	struct sw_ot *s = sw_ot_new(test);
	unsigned int k, last_start = UINT_MAX;

	sw_ot_add(s, 0, 5000, 0, SW_EV_CANCEL, 0);
	sw_ot_add(s, 0, 5000, 0, SW_EV_START, e);
	sw_ot_add(s, 0, 5000, 0, SW_EV_CANCEL, 0);
	sw_ot_add(s, 0, 5000, 0, SW_EV_START, e);
	sw_ot_add(s, 0, 5000, 0, SW_EV_CANCEL, 0);
	sw_ot_add(s, 0, 5000, 0, SW_EV_EXPIRE, e + 1);
	sw_ot_add(s, 1, 5000, 0, SW_EV_CANCEL, 0);
	sw_ot_add(s, 1, 5000, 0, SW_EV_START, e + 50);
	sw_ot_merge(test, s, SW_ORDER_WINDOW_NS);

	KUNIT_EXPECT_TRUE(test, s->ev[0][4].detach);
	KUNIT_EXPECT_EQ(test, s->ev[0][4].tick, e + 1);
	/* CPU 1's start before CPU 0's detach, and a start for E after it */
	KUNIT_EXPECT_LT(test, sw_ot_at(s, 1, 1), sw_ot_at(s, 0, 4));
	for (k = 0; k < sw_ot_at(s, 0, 4); k++) {
		if (s->ev[s->out_cpu[k]][s->out_idx[k]].type == SW_EV_START)
			last_start = k;
	}
	KUNIT_ASSERT_NE(test, last_start, UINT_MAX);
	KUNIT_EXPECT_EQ(test, s->ev[s->out_cpu[last_start]][s->out_idx[last_start]].tick, e);
	/* Starts and cancels alternate: CPU 1's pair right after one of CPU 0's starts */
	KUNIT_EXPECT_EQ(test, sw_ot_at(s, 1, 1), sw_ot_at(s, 1, 0) + 1);
	KUNIT_EXPECT_EQ(test, s->out_cpu[sw_ot_at(s, 1, 0) - 1], 0U);
	/* The nearest such order to the timestamps: after CPU 0's first start */
	sw_ot_expect(test, s, "00110000", 2, 0);
}

static struct kunit_case sw_order_cases[] = {
	KUNIT_CASE_PARAM(sw_ot_case, sw_ot_gen_params),
	KUNIT_CASE(sw_ot_expiry_shows_the_last_start),
	{}
};

static struct kunit_suite sw_order_suite = {
	.name = "shadow_wheel_order",
	.test_cases = sw_order_cases,
};

kunit_test_suites(&sw_order_suite);
