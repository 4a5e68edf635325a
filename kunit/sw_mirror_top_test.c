// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the mirror's table per timer function
 * (core/mirror/sw_mirror_top.c) and its report (mirror/top, core/mirror/sw_mirror_report.c):
 * the hashed table against a plain linear one with the same semantics
 * (the first SW_MIRROR_TOP_FNS functions seen get an entry, the rest go to
 * "others"), the accounting of an event, and the order of the report.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sw_mirror_report.h"
#include "sw_mirror_top.h"

/* Function identities: addresses in an array, never called */
static char sw_tt_fns[4 * SW_MIRROR_TOP_FNS];

static const void *sw_tt_fn(unsigned int i)
{
	return &sw_tt_fns[i];
}

static struct sw_mirror_top *sw_tt_new(struct kunit *test)
{
	struct sw_mirror_top *top = kunit_kzalloc(test, sizeof(*top), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, top);
	sw_mirror_top_init(top);
	return top;
}

static void sw_tt_same_fn_same_entry(struct kunit *test)
{
	struct sw_mirror_top *top = sw_tt_new(test);
	struct sw_mirror_fn *a = sw_mirror_top_entry(top, sw_tt_fn(0));
	struct sw_mirror_fn *b = sw_mirror_top_entry(top, sw_tt_fn(1));
	struct sw_mirror_fn *null = sw_mirror_top_entry(top, NULL);

	KUNIT_EXPECT_PTR_NE(test, a, b);
	KUNIT_EXPECT_PTR_NE(test, a, null);
	KUNIT_EXPECT_PTR_NE(test, b, null);
	KUNIT_EXPECT_PTR_EQ(test, sw_mirror_top_entry(top, sw_tt_fn(0)), a);
	KUNIT_EXPECT_PTR_EQ(test, sw_mirror_top_entry(top, sw_tt_fn(1)), b);
	KUNIT_EXPECT_PTR_EQ(test, sw_mirror_top_entry(top, NULL), null);
	KUNIT_EXPECT_PTR_EQ(test, a->fn, sw_tt_fn(0));
	KUNIT_EXPECT_PTR_EQ(test, null->fn, NULL);
	KUNIT_EXPECT_EQ(test, top->nr, 3U);
}

/* Full, a new function goes to the others and a known one keeps its entry */
static void sw_tt_full_overflows_to_others(struct kunit *test)
{
	struct sw_mirror_top *top = sw_tt_new(test);
	struct sw_mirror_fn *first[SW_MIRROR_TOP_FNS];
	unsigned int i;

	for (i = 0; i < SW_MIRROR_TOP_FNS; i++) {
		first[i] = sw_mirror_top_entry(top, sw_tt_fn(i));
		KUNIT_EXPECT_PTR_NE(test, first[i], &top->others);
	}
	KUNIT_EXPECT_EQ(test, top->nr, (unsigned int)SW_MIRROR_TOP_FNS);
	for (i = SW_MIRROR_TOP_FNS; i < ARRAY_SIZE(sw_tt_fns); i++)
		KUNIT_EXPECT_PTR_EQ(test, sw_mirror_top_entry(top, sw_tt_fn(i)), &top->others);
	for (i = 0; i < SW_MIRROR_TOP_FNS; i++)
		KUNIT_EXPECT_PTR_EQ(test, sw_mirror_top_entry(top, sw_tt_fn(i)), first[i]);
	KUNIT_EXPECT_EQ(test, top->nr, (unsigned int)SW_MIRROR_TOP_FNS);
}

static void sw_tt_account(struct kunit *test)
{
	struct sw_mirror_top *top = sw_tt_new(test);
	struct sw_mirror_outcome out = {};
	struct sw_mirror_fn *f;

	/* A start placed at levels 2 and 1, a cancel, two expiries: 3 late, then 1 early */
	out.placed = true;
	out.wheel[0].lvl = 2;
	out.wheel[1].lvl = 1;
	sw_mirror_top_account(top, sw_tt_fn(7), SW_MC_ARM, &out, 2);
	memset(&out, 0, sizeof(out));
	sw_mirror_top_account(top, sw_tt_fn(7), SW_MC_CANCEL, &out, 2);
	out.expired = true;
	out.wheel[0].lateness = 3;
	out.wheel[1].lateness = 5;
	sw_mirror_top_account(top, sw_tt_fn(7), SW_MC_EXPIRE, &out, 2);
	out.wheel[0].lateness = -1;
	out.wheel[1].lateness = 7;
	sw_mirror_top_account(top, sw_tt_fn(7), SW_MC_EXPIRE, &out, 2);

	f = sw_mirror_top_entry(top, sw_tt_fn(7));
	KUNIT_EXPECT_EQ(test, f->events[SW_MC_ARM], 1UL);
	KUNIT_EXPECT_EQ(test, f->events[SW_MC_CANCEL], 1UL);
	KUNIT_EXPECT_EQ(test, f->events[SW_MC_EXPIRE], 2UL);
	KUNIT_EXPECT_EQ(test, sw_mirror_fn_events(f), 4UL);
	KUNIT_EXPECT_EQ(test, f->lvl_max[0], 2);
	KUNIT_EXPECT_EQ(test, f->lvl_max[1], 1);
	KUNIT_EXPECT_EQ(test, f->expired[0], 2UL);
	KUNIT_EXPECT_EQ(test, f->expired[1], 2UL);
	/* Early counts as 0 in the sum; the largest stays the largest */
	KUNIT_EXPECT_EQ(test, f->lat_sum[0], 3UL);
	KUNIT_EXPECT_EQ(test, f->lat_sum[1], 12UL);
	KUNIT_EXPECT_EQ(test, f->lat_max[0], 3L);
	KUNIT_EXPECT_EQ(test, f->lat_max[1], 7L);
	/* Wheels beyond nr_wheels are untouched */
	KUNIT_EXPECT_EQ(test, f->expired[2], 0UL);
}

/* The linear table the hashed one replaces: first come, first served, then "others" */
struct sw_tt_ref {
	const void	*fn[SW_MIRROR_TOP_FNS];
	unsigned long	events[SW_MIRROR_TOP_FNS + 1];
	unsigned int	nr;
};

static unsigned int sw_tt_ref_index(struct sw_tt_ref *ref, const void *fn)
{
	unsigned int i;

	for (i = 0; i < ref->nr; i++) {
		if (ref->fn[i] == fn)
			return i;
	}
	if (ref->nr == SW_MIRROR_TOP_FNS)
		return SW_MIRROR_TOP_FNS;
	ref->fn[ref->nr] = fn;
	return ref->nr++;
}

/* Random functions, skewed as real traffic is, against the linear table */
static void sw_tt_matches_linear_table(struct kunit *test)
{
	struct sw_mirror_top *top = sw_tt_new(test);
	struct sw_mirror_outcome out = {};
	struct sw_tt_ref *ref = kunit_kzalloc(test, sizeof(*ref), GFP_KERNEL);
	unsigned long total = 0;
	struct rnd_state rnd;
	unsigned int n, i;

	KUNIT_ASSERT_NOT_NULL(test, ref);
	prandom_seed_state(&rnd, 12);
	for (n = 0; n < 20000; n++) {
		u32 r = prandom_u32_state(&rnd);
		/* Half the events from 8 functions, the rest from all of them */
		unsigned int i = r & 1 ? (r >> 1) % 8 : (r >> 1) % ARRAY_SIZE(sw_tt_fns);

		sw_mirror_top_account(top, sw_tt_fn(i), SW_MC_ARM, &out, 1);
		ref->events[sw_tt_ref_index(ref, sw_tt_fn(i))]++;
	}
	KUNIT_ASSERT_EQ(test, top->nr, ref->nr);
	for (i = 0; i < ref->nr; i++) {
		KUNIT_EXPECT_PTR_EQ(test, top->fns[i].fn, ref->fn[i]);
		KUNIT_EXPECT_EQ(test, sw_mirror_fn_events(&top->fns[i]), ref->events[i]);
		total += ref->events[i];
	}
	KUNIT_EXPECT_EQ(test, sw_mirror_fn_events(&top->others), ref->events[SW_MIRROR_TOP_FNS]);
	KUNIT_EXPECT_EQ(test, total + ref->events[SW_MIRROR_TOP_FNS], 20000UL);

	/* Sorted, most events first, and every function still finds its own entry */
	sw_mirror_top_sort(top);
	for (i = 1; i < top->nr; i++)
		KUNIT_EXPECT_GE(test, sw_mirror_fn_events(&top->fns[i - 1]),
				sw_mirror_fn_events(&top->fns[i]));
	for (i = 0; i < ref->nr; i++)
		KUNIT_EXPECT_EQ(test, sw_mirror_fn_events(sw_mirror_top_entry(top, ref->fn[i])),
				ref->events[i]);
	KUNIT_EXPECT_EQ(test, top->nr, ref->nr);
}

/* A sink into a buffer */
struct sw_tt_sink {
	struct sw_print	p;
	char		buf[32768];
	size_t		len;
};

static __printf(2, 0) void sw_tt_vprintf(struct sw_print *p, const char *fmt, va_list args)
{
	struct sw_tt_sink *s = container_of(p, struct sw_tt_sink, p);

	if (s->len < sizeof(s->buf))
		s->len += vsnprintf(s->buf + s->len, sizeof(s->buf) - s->len, fmt, args);
}

/* Functions by their index in sw_tt_fns */
static void sw_tt_print_fn(struct sw_print *p, const void *fn)
{
	sw_printf(p, "f%d", (int)((const char *)fn - sw_tt_fns));
}

/* Count the lines of @buf, and return the start of the last */
static unsigned int sw_tt_lines(const char *buf, const char **last)
{
	unsigned int n = 0;
	const char *c;

	*last = buf;
	for (c = buf; *c; c++) {
		if (*c == '\n') {
			n++;
			if (c[1])
				*last = c + 1;
		}
	}
	return n;
}

/* mirror/top: most events first, "(others)" last, and only with events */
static void sw_tt_report_order(struct kunit *test)
{
	struct sw_tt_sink *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct sw_mirror_report *rep = kunit_kzalloc(test, sizeof(*rep), GFP_KERNEL);
	struct sw_mirror_top *top = sw_tt_new(test);
	struct sw_mirror_outcome out = {};
	const char *last;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, rep);
	s->p.vprintf = sw_tt_vprintf;
	s->p.fn = sw_tt_print_fn;
	rep->nr_wheels = 1;
	rep->fig[0].kind = SW_WHEEL_MAINLINE;
	rep->fig[0].hz = 250;
	/* f1 once, f2 three times, f3 twice */
	for (i = 0; i < 6; i++)
		sw_mirror_top_account(top, sw_tt_fn(i < 1 ? 1 : i < 4 ? 2 : 3), SW_MC_ARM, &out, 1);
	sw_mirror_report_top(&s->p, rep, top);
	KUNIT_ASSERT_LT(test, s->len, sizeof(s->buf));
	KUNIT_EXPECT_EQ(test, sw_tt_lines(s->buf, &last), 3U);
	KUNIT_EXPECT_EQ(test, strncmp(s->buf, "fn f2 events 3 arm 3 ", 21), 0);
	KUNIT_EXPECT_EQ(test, strncmp(last, "fn f1 events 1 arm 1 ", 21), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(s->buf, " mainline.250.level_max 0 "));

	/* Full: the next functions' events are the others', printed last */
	for (i = 0; i < SW_MIRROR_TOP_FNS + 2; i++)
		sw_mirror_top_account(top, sw_tt_fn(8 + i), SW_MC_CANCEL, &out, 1);
	s->len = 0;
	sw_mirror_report_top(&s->p, rep, top);
	KUNIT_ASSERT_LT(test, s->len, sizeof(s->buf) - 1);
	KUNIT_EXPECT_EQ(test, sw_tt_lines(s->buf, &last), SW_MIRROR_TOP_FNS + 1U);
	/* 3 + 61 functions had room: 5 found the table full */
	KUNIT_EXPECT_EQ(test, strncmp(last, "fn (others) events 5 ", 21), 0);
}

static struct kunit_case sw_mirror_top_cases[] = {
	KUNIT_CASE(sw_tt_same_fn_same_entry),
	KUNIT_CASE(sw_tt_full_overflows_to_others),
	KUNIT_CASE(sw_tt_account),
	KUNIT_CASE(sw_tt_matches_linear_table),
	KUNIT_CASE(sw_tt_report_order),
	{}
};

static struct kunit_suite sw_mirror_top_suite = {
	.name = "shadow_wheel_mirror_top",
	.test_cases = sw_mirror_top_cases,
};

kunit_test_suites(&sw_mirror_top_suite);
