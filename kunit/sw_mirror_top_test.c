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
#include "sw_test_common.h"

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
	bool seen[SW_MIRROR_TOP_FNS] = {};
	u8 order[SW_MIRROR_TOP_FNS];
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

	/* In order, most events first, each entry once, and the table untouched */
	memset(order, 0xff, sizeof(order));
	sw_mirror_top_order(top, order);
	for (i = 0; i < top->nr; i++) {
		KUNIT_ASSERT_LT(test, order[i], top->nr);
		KUNIT_EXPECT_FALSE(test, seen[order[i]]);
		seen[order[i]] = true;
		if (i)
			KUNIT_EXPECT_GE(test, sw_mirror_fn_events(&top->fns[order[i - 1]]),
					sw_mirror_fn_events(&top->fns[order[i]]));
	}
	for (i = 0; i < ref->nr; i++) {
		KUNIT_EXPECT_PTR_EQ(test, top->fns[i].fn, ref->fn[i]);
		KUNIT_EXPECT_EQ(test, sw_mirror_fn_events(sw_mirror_top_entry(top, ref->fn[i])),
				ref->events[i]);
	}
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

/* An empty sink */
static struct sw_tt_sink *sw_tt_sink_new(struct kunit *test)
{
	struct sw_tt_sink *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->p.vprintf = sw_tt_vprintf;
	s->p.fn = sw_tt_print_fn;
	return s;
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

/* @top into @rep, in order, as sw_mirror_report_take() puts it there */
static void sw_tt_report_top(struct sw_mirror_report *rep, const struct sw_mirror_top *top)
{
	rep->has_top = true;
	rep->top = *top;
	sw_mirror_top_order(&rep->top, rep->top_order);
}

/* mirror/top: most events first, "(others)" last, and only with events */
static void sw_tt_report_order(struct kunit *test)
{
	struct sw_tt_sink *s = sw_tt_sink_new(test);
	struct sw_mirror_report *rep = kunit_kzalloc(test, sizeof(*rep), GFP_KERNEL);
	struct sw_mirror_top *top = sw_tt_new(test);
	struct sw_mirror_outcome out = {};
	struct sw_geometry geo;
	const char *last;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, rep);
	rep->fig.wheels = 1;
	rep->fig.wheel[0].kind = SW_WHEEL_MAINLINE;
	rep->fig.wheel[0].vhz = 250;
	KUNIT_ASSERT_EQ(test, sw_geometry_init(&geo, SW_WHEEL_MAINLINE, 250), 0);
	sw_mirror_wheel_name(&geo, rep->fig.wheel[0].name, sizeof(rep->fig.wheel[0].name));
	/* f1 once, f2 three times, f3 twice */
	for (i = 0; i < 6; i++)
		sw_mirror_top_account(top, sw_tt_fn(i < 1 ? 1 : i < 4 ? 2 : 3), SW_MC_ARM, &out, 1);
	sw_tt_report_top(rep, top);
	sw_mirror_report_top(&s->p, rep);
	KUNIT_ASSERT_LT(test, s->len, sizeof(s->buf));
	KUNIT_EXPECT_EQ(test, sw_tt_lines(s->buf, &last), 3U);
	KUNIT_EXPECT_EQ(test, strncmp(s->buf, "fn f2 events 3 arm 3 ", 21), 0);
	KUNIT_EXPECT_EQ(test, strncmp(last, "fn f1 events 1 arm 1 ", 21), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(s->buf, " mainline.250.level_max 0 "));

	/* Full: the next functions' events are the others', printed last */
	for (i = 0; i < SW_MIRROR_TOP_FNS + 2; i++)
		sw_mirror_top_account(top, sw_tt_fn(8 + i), SW_MC_CANCEL, &out, 1);
	s->len = 0;
	sw_tt_report_top(rep, top);
	sw_mirror_report_top(&s->p, rep);
	KUNIT_ASSERT_LT(test, s->len, sizeof(s->buf) - 1);
	KUNIT_EXPECT_EQ(test, sw_tt_lines(s->buf, &last), SW_MIRROR_TOP_FNS + 1U);
	/* 3 + 61 functions had room: 5 found the table full */
	KUNIT_EXPECT_EQ(test, strncmp(last, "fn (others) events 5 ", 21), 0);
}

/* A small mirror at HZ 250 and its events, for reports of a known run */
struct sw_tt_run {
	struct sw_mirror	m;
	struct sw_mirror_rec	recs[8];
	struct sw_mirror_rec	*slots[2];
	unsigned long		timers[8];
	struct sw_mirror_top	top;
	struct sw_mirror_report	rep;
	struct sw_mirror_report	copy;
};

/* One event of timer @i of function @fn into the mirror and the table */
static void sw_tt_event(struct sw_tt_run *r, enum sw_ev_type type, unsigned int i,
			unsigned int fn, unsigned long now, unsigned long expires)
{
	struct sw_mirror_event ev = {
		.type = type,
		.timer = &r->timers[i],
		.now = now,
		.expires = expires,
		.baseclk = now,
	};
	struct sw_mirror_outcome out;
	enum sw_mirror_class class;
	struct sw_place place;

	/* A start says the kernel's bucket: the one mainline picks from jiffies */
	if (type == SW_EV_START) {
		sw_wheel_place(&r->m.wheels[r->m.kernel_wheel].base.geo, now, expires, 0, &place);
		ev.tflags = place.idx << SW_KTIMER_ARRAYSHIFT;
		ev.have = SW_EVF_IDX;
	}
	class = sw_mirror_handle_event(&r->m, &ev, &out);
	sw_mirror_top_account(&r->top, sw_tt_fn(fn), class, &out, sw_mirror_nr_wheels(&r->m));
}

/*
 * Four timers armed at jiffies 1000 on CPU 0: timer 0 (of f1) expires
 * at 1001 and runs at tick 1002, where mainline puts it (a tick late, as
 * every level-0 timer); timer 1 (of f2) is cancelled at 1005; timers 2 and
 * 3 (of f2) stay pending. The report covers two seconds.
 */
static struct sw_tt_run *sw_tt_known_run(struct kunit *test)
{
	struct sw_tt_run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct sw_mirror_head head = {
		.running = 1, .records = 8, .elapsed_ms = 2000, .caught_up = 1,
	};
	struct sw_mirror_config cfg = { .khz = 250, .now = 1000, .nr_slots = 2,
					.nr_recs = ARRAY_SIZE(r->recs) };

	KUNIT_ASSERT_NOT_NULL(test, r);
	cfg.slots = r->slots;
	cfg.recs = r->recs;
	KUNIT_ASSERT_EQ(test, sw_mirror_setup(&r->m, &cfg), 0);
	sw_mirror_top_init(&r->top);
	sw_tt_event(r, SW_EV_START, 0, 1, 1000, 1001);
	sw_tt_event(r, SW_EV_START, 1, 2, 1000, 1100);
	sw_tt_event(r, SW_EV_START, 2, 2, 1000, 1200);
	sw_tt_event(r, SW_EV_START, 3, 2, 1000, 1300);
	/* An expiry: the detach, then the expire_entry of baseclk 1002 */
	sw_tt_event(r, SW_EV_CANCEL, 0, 1, 1002, 0);
	sw_tt_event(r, SW_EV_EXPIRE, 0, 1, 1002, 0);
	/* A cancel: nothing follows it within the grace */
	sw_tt_event(r, SW_EV_CANCEL, 1, 2, 1005, 0);
	sw_mirror_advance(&r->m, 1020);
	sw_mirror_report_take(&r->rep, &head, &r->m, &r->top);
	return r;
}

/* The line of @buf that starts with @start, up to its newline, or "" */
static const char *sw_tt_line(const char *buf, const char *start, char *line, size_t size)
{
	const char *c = buf;

	*line = 0;
	while (c && *c) {
		if (!strncmp(c, start, strlen(start))) {
			snprintf(line, size, "%.*s", (int)strcspn(c, "\n"), c);
			break;
		}
		c = strchr(c, '\n');
		c = c ? c + 1 : NULL;
	}
	return line;
}

/* Whether @line starts with @start and ends with @end */
static bool sw_tt_spans(const char *line, const char *start, const char *end)
{
	size_t n = strlen(line), e = strlen(end);

	return !strncmp(line, start, strlen(start)) && n >= e && !strcmp(line + n - e, end);
}

/*
 * The summary of a known run: what was seen, the table, the differential,
 * the functions. The table's rows are checked at their ends: a new figure
 * of the list is a new column in between.
 */
static void sw_tt_summary(struct kunit *test)
{
	struct sw_tt_sink *s = sw_tt_sink_new(test);
	struct sw_tt_run *r = sw_tt_known_run(test);
	char line[160];

	sw_mirror_report_summary(&s->p, &r->rep);
	KUNIT_ASSERT_LT(test, s->len, sizeof(s->buf));
	KUNIT_EXPECT_STREQ(test, sw_tt_line(s->buf, "mirror:", line, sizeof(line)),
			   "mirror: 2.0 s of the kernel's own timers, HZ=250: 4 armed, 1 expired, 1 cancelled, 2 pending, 0 dropped, 0 run remotely");
	/* Expired 1 of 4; no cascade; 1 busy tick in 2 s; a tick (4 ms) late, at level 0 */
	KUNIT_EXPECT_TRUE(test, sw_tt_spans(sw_tt_line(s->buf, "wheel ", line, sizeof(line)),
					    "wheel          expired% cascades/s busy ticks/s ",
					    " L0 p50/p99"));
	KUNIT_EXPECT_TRUE(test, sw_tt_spans(sw_tt_line(s->buf, "mainline.250 ", line, sizeof(line)),
					    "mainline.250       25.0          0            0 ",
					    "       4/4 ms"));
	KUNIT_EXPECT_TRUE(test, sw_tt_spans(sw_tt_line(s->buf, "classic.250 ", line, sizeof(line)),
					    "classic.250        25.0          0            0 ",
					    "       0/0 ms"));
	/* The one expiry ran at a busy tick of its own */
	KUNIT_EXPECT_NOT_NULL(test, strstr(sw_tt_line(s->buf, "mainline.250 ", line, sizeof(line)),
					   " 1.000 "));
	KUNIT_EXPECT_STREQ(test, sw_tt_line(s->buf, "  placement", line, sizeof(line)),
			   "  placement 4 of 4 match (100.000%)");
	KUNIT_EXPECT_STREQ(test, sw_tt_line(s->buf, "  expiry", line, sizeof(line)),
			   "  expiry    1 of 1 match (100.000%)");
	/* f2 had four events (three starts, a cancel), f1 three */
	KUNIT_EXPECT_NOT_NULL(test, strstr(s->buf, "most events first:\n"
					   "         4 events  f2\n"
					   "         3 events  f1\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(s->buf, "\ninvariant held\n"));
	KUNIT_EXPECT_NULL(test, strstr(s->buf, "EARLY"));
}

/* No printer changes the snapshot; the snapshot does not follow the mirror */
static void sw_tt_print_leaves_report(struct kunit *test)
{
	struct sw_tt_sink *s = sw_tt_sink_new(test);
	struct sw_tt_run *r = sw_tt_known_run(test);
	unsigned long seen = r->rep.fig.counts.seen;

	r->copy = r->rep;
	sw_mirror_report_stats(&s->p, &r->rep);
	sw_mirror_report_lateness(&s->p, &r->rep);
	sw_mirror_report_diff(&s->p, &r->rep);
	sw_mirror_report_top(&s->p, &r->rep);
	sw_mirror_report_summary(&s->p, &r->rep);
	KUNIT_EXPECT_EQ(test, memcmp(&r->copy, &r->rep, sizeof(r->rep)), 0);
	/* The caller's table stays in the order first seen: f1, then f2 */
	KUNIT_EXPECT_PTR_EQ(test, r->top.fns[0].fn, sw_tt_fn(1));
	sw_tt_event(r, SW_EV_START, 4, 3, 1020, 1030);
	KUNIT_EXPECT_EQ(test, r->rep.fig.counts.seen, seen);
}

/* mirror/stats: the figures' lines, the wheel lines with every wheel figure of the list */
static void sw_tt_stats_keys(struct kunit *test)
{
	struct sw_tt_sink *s = sw_tt_sink_new(test);
	static const char lines[] = "running 1\nrecords 8\nelapsed_ms 2000\nhz 250\nwheels 9\n"
				    "consistent 1\ncaught_up 1\n";
	struct sw_tt_run *r = sw_tt_known_run(test);
	char line[400];

	sw_mirror_report_stats(&s->p, &r->rep);
	KUNIT_ASSERT_LT(test, s->len, sizeof(s->buf));
	KUNIT_EXPECT_EQ(test, strncmp(s->buf, lines, strlen(lines)), 0);
	/* No log, no log lines */
	KUNIT_EXPECT_NULL(test, strstr(s->buf, "log_"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(s->buf, "\nevents.arm 4\n"));
	/* The keys of docs/ABI, in their order; a new figure may come in between */
	KUNIT_EXPECT_TRUE(test, sw_tt_spans(sw_tt_line(s->buf, "wheel mainline.250 ", line,
						       sizeof(line)),
					    "wheel mainline.250 seen 4 cancelled 1 expired 1 pending 2 dropped 0 cascaded 0 cascaded_per_s 0 due_ticks 1 due_ticks_per_s 0 ",
					    " clamped 0 parked 0 ran_ahead 1 behind 0"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(line, " expired_per_due_tick_milli 1000 "));
	r->rep.head.has_log = true;
	r->rep.head.log_lost = 3;
	s->len = 0;
	sw_mirror_report_stats(&s->p, &r->rep);
	KUNIT_EXPECT_NOT_NULL(test, strstr(s->buf, "\nwheels 9\nlog_size 0\nlog_drained 0\n"
					   "log_drained_by_probes 0\nlog_lost 3\nlog_forced 0\n"
					   "consistent 1\n"));
}

/* Quantiles to the histogram's resolution: the top of the bin, at most the largest seen */
static void sw_tt_quantiles(struct kunit *test)
{
	struct sw_mirror_lateness lat = { .count = 100, .min = 0, .max = 12 };

	/* 50 on time, 45 a tick late, 5 in [8, 16) ticks */
	lat.hist[1] = 50;
	lat.hist[2] = 45;
	lat.hist[5] = 5;
	KUNIT_EXPECT_EQ(test, sw_mirror_lat_quantile(&lat, 500), 0L);
	KUNIT_EXPECT_EQ(test, sw_mirror_lat_quantile(&lat, 501), 1L);
	KUNIT_EXPECT_EQ(test, sw_mirror_lat_quantile(&lat, 950), 1L);
	KUNIT_EXPECT_EQ(test, sw_mirror_lat_quantile(&lat, 951), 12L);
	KUNIT_EXPECT_EQ(test, sw_mirror_lat_quantile(&lat, 990), 12L);
	lat.max = 20;
	KUNIT_EXPECT_EQ(test, sw_mirror_lat_quantile(&lat, 990), 15L);
	/* Nothing expired: the largest, 0 */
	memset(&lat, 0, sizeof(lat));
	KUNIT_EXPECT_EQ(test, sw_mirror_lat_quantile(&lat, 500), 0L);
	/* A single early expiry */
	lat.count = 1;
	lat.min = -2;
	lat.max = -2;
	lat.hist[0] = 1;
	KUNIT_EXPECT_EQ(test, sw_mirror_lat_quantile(&lat, 990), -2L);
}

SW_TEST_SUITE(sw_mirror_top_suite, "shadow_wheel_mirror_top",
	      KUNIT_CASE(sw_tt_same_fn_same_entry),
	      KUNIT_CASE(sw_tt_full_overflows_to_others),
	      KUNIT_CASE(sw_tt_account),
	      KUNIT_CASE(sw_tt_matches_linear_table),
	      KUNIT_CASE(sw_tt_report_order),
	      KUNIT_CASE(sw_tt_summary),
	      KUNIT_CASE(sw_tt_print_leaves_report),
	      KUNIT_CASE(sw_tt_stats_keys),
	      KUNIT_CASE(sw_tt_quantiles));

kunit_test_suites(&sw_mirror_top_suite);
