// SPDX-License-Identifier: GPL-2.0
/*
 * sw-bench: the wheel core in user space, unchanged (core/wheel/sw_wheel.c,
 * sw_classic.c and the workloads of sw_bench.c, built against the
 * stand-ins in core/user/include), timed on the same workload for every
 * wheel and for a binary min-heap.
 *
 *   sw-bench [--wheel seed|mainline|classic|heap|all] [--timers N] [--hz HZ]
 *            [--ops N] [--ticks N] [--gap TICKS] [--mean TICKS] [--cancel PCT]
 *            [--seed N]
 *            [--trace FILE] [--callgrind OP]
 *
 * Prints one "bench key=value ..." line per figure, then the ratios the
 * targets are stated in. --trace writes the per-tick cost of each wheel,
 * tick by tick, for plotting. --callgrind OP runs only OP (arm, mod_near,
 * mod_far, cancel, next, empty_tick) on the first wheel named, with
 * callgrind's collection on around that loop alone; run it under
 * valgrind --tool=callgrind --collect-atstart=no, as
 * scripts/bench.sh callgrind does.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>
#include <linux/kernel.h>
#include <linux/minmax.h>

#include "sw_bench.h"
#include "sw_heap.h"

#define SW_NR_TARGETS	4	/* seed, mainline, classic, heap */
#define SW_HEAP		SW_WHEEL_NR_KINDS

static const char * const sw_target_names[SW_NR_TARGETS] = {
	"seed", "mainline", "classic", "heap",
};

/* The run (as the module's bench file takes it), and what only sw-bench does */
struct sw_opts {
	struct sw_bench_params	p;
	const char		*trace;
	const char		*callgrind;
	bool			which[SW_NR_TARGETS];
};

static u64 sw_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void sw_nothing(void)
{
}

static const struct sw_bench_env sw_native = {
	.now_ns = sw_now_ns, .begin = sw_nothing, .end = sw_nothing,
};

static void *sw_alloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "sw-bench: out of memory\n");
		exit(1);
	}
	return p;
}

static void sw_run_wheel(const struct sw_opts *o, enum sw_wheel_kind kind,
			 struct sw_bench_report *r, u32 *trace)
{
	const struct sw_bench_params *p = &o->p;
	struct sw_bench_mem mem = {
		.base = sw_alloc(1, sizeof(*mem.base)),
		.timers = sw_alloc(o->p.timers, sizeof(*mem.timers)),
		.extra = sw_alloc(o->p.ops, sizeof(*mem.extra)),
		.expiry = sw_alloc(o->p.ops, sizeof(*mem.expiry)),
		.samples = sw_alloc(o->p.ticks, sizeof(*mem.samples)),
		.trace = trace,
	};
	int ret = sw_bench_wheel(p, kind, &mem, &sw_native, r);

	if (ret) {
		fprintf(stderr, "sw-bench: %s: %s\n", sw_wheel_kind_name(kind),
			ret == -EINVAL ? "no such wheel at this HZ" : "timers expired in the gap");
		exit(1);
	}
	free(mem.samples);
	free(mem.expiry);
	free(mem.extra);
	free(mem.timers);
	free(mem.base);
}

/* The heap's operations for sw_bench_time_ops() */
struct sw_heap_ops {
	struct sw_heap		*heap;
	struct sw_heap_timer	*first;
	struct sw_heap_timer	*timers;
	const unsigned long	*expiry;
	unsigned long		clk;
	unsigned long		mean;
	struct sw_bench_rng	*rng;
};

static unsigned long sw_heap_timeout(void *ctx)
{
	struct sw_heap_ops *h = ctx;

	return h->clk + sw_bench_exp(h->rng, h->mean);
}

static void sw_heap_arm(void *ctx, unsigned long i)
{
	struct sw_heap_ops *h = ctx;

	sw_heap_modify(h->heap, &h->timers[i], h->expiry[i]);
}

static void sw_heap_near(void *ctx, unsigned long i)
{
	struct sw_heap_ops *h = ctx;

	sw_heap_modify(h->heap, &h->timers[i], h->timers[i].expires + 1);
}

static void sw_heap_cancel_one(void *ctx, unsigned long i)
{
	struct sw_heap_ops *h = ctx;

	sw_heap_cancel(h->heap, &h->timers[i]);
}

static void sw_heap_next(void *ctx, unsigned long i)
{
	struct sw_heap_ops *h = ctx;

	h->first = sw_heap_peek(h->heap);
}

static const struct sw_bench_api sw_heap_api = {
	.timeout	= sw_heap_timeout,
	.arm		= sw_heap_arm,
	.near		= sw_heap_near,
	.cancel		= sw_heap_cancel_one,
};

/*
 * The same workloads on the heap: its operations timed as the wheels'
 * are, its ticks written out again for its API; fills all of @r but
 * @r->name, as sw_bench_wheel() does
 */
static void sw_run_heap(const struct sw_opts *o, struct sw_bench_report *r, u32 *trace)
{
	struct sw_heap_timer *timers = sw_alloc(o->p.timers, sizeof(*timers));
	struct sw_heap_timer *extra = sw_alloc(o->p.ops, sizeof(*extra));
	unsigned long *expiry = sw_alloc(o->p.ops, sizeof(*expiry));
	u32 *samples = sw_alloc(o->p.ticks, sizeof(*samples));
	struct sw_heap_timer **slots = sw_alloc(o->p.timers + o->p.ops, sizeof(*slots));
	struct sw_bench_traffic traffic = o->p.traffic;
	unsigned long mean = o->p.traffic.mean;
	unsigned long churn = sw_bench_churn(&traffic, o->p.timers);
	unsigned long i, t, c, clk = 1000;
	struct sw_heap_ops hops;
	struct sw_heap heap;
	struct sw_bench_rng rng;
	u64 t0, ns;

	sw_heap_init(&heap, slots, o->p.timers + o->p.ops);
	sw_bench_seed(&rng, o->p.seed);
	for (i = 0; i < o->p.timers; i++)
		sw_heap_modify(&heap, &timers[i], clk + sw_bench_exp(&rng, mean));

	hops = (struct sw_heap_ops){
		.heap = &heap, .timers = extra, .expiry = expiry, .clk = clk, .mean = mean,
		.rng = &rng,
	};
	r->ops.same_bucket = 0;
	sw_bench_time_ops(&r->ops, &sw_native, o->p.ops, expiry, &sw_heap_api, &hops);
	r->ops.next = sw_bench_time_loop(&sw_native, r->ops.ps, o->p.ops, sw_heap_next, &hops);
	r->next_idle = r->ops.next;

	/* Ticks under the same traffic */
	r->expired = 0;
	r->cascaded = 0;
	for (t = 0; t < 4 * mean + o->p.ticks; t++, clk++) {
		struct sw_heap_timer *ran = NULL, *timer;
		unsigned long n = 0;

		for (c = 0; c < churn; c++)
			sw_heap_modify(&heap, &timers[sw_bench_rand(&rng) % o->p.timers],
				       clk + sw_bench_exp(&rng, mean));
		t0 = sw_now_ns();
		while ((timer = sw_heap_pop_due(&heap, clk))) {
			/* Chained through pos, as the wheels chain theirs through a list */
			timer->pos = (unsigned long)ran;
			ran = timer;
		}
		ns = sw_now_ns() - t0;
		if (t >= 4 * mean)
			samples[t - 4 * mean] = ns;
		while (ran) {
			timer = ran;
			ran = (struct sw_heap_timer *)timer->pos;
			timer->pos = 0;
			sw_heap_modify(&heap, timer, clk + 1 + sw_bench_exp(&rng, mean));
			n++;
		}
		if (t >= 4 * mean)
			r->expired += n;
	}
	if (trace)
		memcpy(trace, samples, o->p.ticks * sizeof(*samples));
	sw_bench_dist_fill(samples, o->p.ticks, &r->tick);
	/* A heap has nothing to catch up: the next expiry is at the top */
	t0 = sw_now_ns();
	sw_heap_pop_due(&heap, clk + o->p.gap - 1);
	r->catch_up_median = sw_now_ns() - t0;
	r->catch_up_max = r->catch_up_median;

	free(slots);
	free(samples);
	free(expiry);
	free(extra);
	free(timers);
}

static void sw_write_trace(const struct sw_opts *o, u32 **trace, const bool *have)
{
	FILE *f = fopen(o->trace, "w");
	unsigned long t;
	int k;

	if (!f) {
		perror(o->trace);
		exit(1);
	}
	fprintf(f, "# per-tick cost in ns, %lu timers, HZ %u, mean timeout %lu ticks\n# tick",
		o->p.timers, o->p.hz, o->p.traffic.mean);
	for (k = 0; k < SW_NR_TARGETS; k++)
		if (have[k])
			fprintf(f, " %s", sw_target_names[k]);
	fputc('\n', f);
	for (t = 0; t < o->p.ticks; t++) {
		fprintf(f, "%lu", t);
		for (k = 0; k < SW_NR_TARGETS; k++)
			if (have[k])
				fprintf(f, " %u", trace[k][t]);
		fputc('\n', f);
	}
	fclose(f);
}

static void sw_usage(void)
{
	fprintf(stderr,
		"usage: sw-bench [--wheel seed|mainline|classic|heap|all] [--timers N] [--hz HZ]\n"
		"                [--ops N] [--ticks N] [--gap TICKS] [--mean TICKS] [--cancel PCT]\n"
		"                [--seed N]\n"
		"                [--trace FILE] [--callgrind arm|mod_near|mod_far|cancel|next|empty_tick]\n");
	exit(2);
}

static unsigned long sw_number(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "sw-bench: '%s' is not a number\n", s);
		sw_usage();
	}
	return v;
}

/* The numeric options: each a field of the workload's parameters, of @type */
#define SW_NUM_OPT(opt, field, type)						\
	{ opt, offsetof(struct sw_bench_params, field), sizeof(type) }

static const struct sw_num_opt {
	const char	*name;
	size_t		off;
	size_t		size;
} sw_num_opts[] = {
	SW_NUM_OPT("timers", timers, unsigned long),
	SW_NUM_OPT("hz", hz, unsigned int),
	SW_NUM_OPT("ops", ops, unsigned long),
	SW_NUM_OPT("ticks", ticks, unsigned long),
	SW_NUM_OPT("gap", gap, unsigned long),
	SW_NUM_OPT("mean", traffic.mean, unsigned long),
	SW_NUM_OPT("cancel", traffic.cancel_pct, unsigned int),
	SW_NUM_OPT("seed", seed, u64),
};

/* getopt_long's value for numeric option @i */
#define SW_NUM_OPT_VAL(i)	(256 + (i))

static void sw_set_number(struct sw_bench_params *p, const struct sw_num_opt *opt,
			  const char *arg)
{
	unsigned long v = sw_number(arg);
	void *at = (char *)p + opt->off;

	if (opt->size == sizeof(unsigned int))
		*(unsigned int *)at = v;
	else
		*(u64 *)at = v;
}

static void sw_parse(int argc, char **argv, struct sw_opts *o)
{
	struct option longopts[ARRAY_SIZE(sw_num_opts) + 4] = {
		{ "wheel", required_argument, NULL, 'w' },
		{ "trace", required_argument, NULL, 'T' },
		{ "callgrind", required_argument, NULL, 'C' },
	};
	bool any = false;
	unsigned int i;
	int c, k;

	for (i = 0; i < ARRAY_SIZE(sw_num_opts); i++)
		longopts[3 + i] = (struct option){ sw_num_opts[i].name, required_argument, NULL,
						   SW_NUM_OPT_VAL(i) };
	*o = (struct sw_opts){
		.p = {
			.hz = 1000, .timers = 100000, .ops = 100000, .ticks = 20000,
			.traffic = { .cancel_pct = 95 }, .seed = 1,
		},
	};
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c >= SW_NUM_OPT_VAL(0) && c < SW_NUM_OPT_VAL(ARRAY_SIZE(sw_num_opts))) {
			sw_set_number(&o->p, &sw_num_opts[c - SW_NUM_OPT_VAL(0)], optarg);
			continue;
		}
		switch (c) {
		case 'w':
			for (k = 0; k < SW_NR_TARGETS; k++) {
				if (!strcmp(optarg, "all") || !strcmp(optarg, sw_target_names[k])) {
					o->which[k] = true;
					any = true;
				}
			}
			if (!any) {
				fprintf(stderr, "sw-bench: unknown wheel '%s'\n", optarg);
				sw_usage();
			}
			break;
		case 'T':
			o->trace = optarg;
			break;
		case 'C':
			o->callgrind = optarg;
			break;
		default:
			sw_usage();
		}
	}
	if (!o->p.traffic.mean)
		o->p.traffic.mean = 2 * o->p.hz;	/* 2 s */
	if (o->p.ops > SW_BENCH_MAX_OPS)
		o->p.ops = SW_BENCH_MAX_OPS;
	if (optind != argc || !o->p.timers || !o->p.ops || !o->p.ticks ||
	    o->p.traffic.cancel_pct > 99)
		sw_usage();
	if (!any)
		for (k = 0; k < SW_NR_TARGETS; k++)
			o->which[k] = true;
	if (!o->p.gap)
		o->p.gap = 3 * o->p.hz;	/* 3 s */
}

/* The heap's peek, never folded into its caller's loop: done every time */
static __attribute__((noipa)) struct sw_heap_timer *sw_peek(const struct sw_heap *heap)
{
	return sw_heap_peek(heap);
}

/* The heap's operations under callgrind, as sw_callgrind() does the wheels' */
static int sw_callgrind_heap(const struct sw_opts *o)
{
	struct sw_heap_timer *timers = sw_alloc(o->p.timers, sizeof(*timers));
	struct sw_heap_timer *extra = sw_alloc(o->p.ops, sizeof(*extra));
	unsigned long *expiry = sw_alloc(o->p.ops, sizeof(*expiry));
	struct sw_heap_timer **slots = sw_alloc(o->p.timers + o->p.ops, sizeof(*slots));
	unsigned long i, nr = o->p.ops, clk = 1000;
	const char *op = o->callgrind;
	struct sw_bench_rng rng;
	struct sw_heap heap;

	sw_heap_init(&heap, slots, o->p.timers + nr);
	sw_bench_seed(&rng, o->p.seed);
	for (i = 0; i < o->p.timers; i++)
		sw_heap_modify(&heap, &timers[i], clk + sw_bench_exp(&rng, o->p.traffic.mean));
	for (i = 0; i < nr; i++)
		expiry[i] = clk + sw_bench_exp(&rng, o->p.traffic.mean);
	if (strcmp(op, "arm") && strcmp(op, "next") && strcmp(op, "empty_tick")) {
		for (i = 0; i < nr; i++)
			sw_heap_modify(&heap, &extra[i], expiry[i]);
		for (i = 0; i < nr; i++)
			expiry[i] = !strcmp(op, "mod_near") ? extra[i].expires + 1 :
				    clk + sw_bench_exp(&rng, o->p.traffic.mean);
	}
	if (!strcmp(op, "empty_tick")) {
		/* An empty heap, as the wheels' empty tick runs on an empty wheel */
		sw_heap_init(&heap, slots, 1);
	}

	CALLGRIND_TOGGLE_COLLECT;
	if (!strcmp(op, "arm") || !strcmp(op, "mod_near") || !strcmp(op, "mod_far")) {
		for (i = 0; i < nr; i++)
			sw_heap_modify(&heap, &extra[i], expiry[i]);
	} else if (!strcmp(op, "cancel")) {
		for (i = 0; i < nr; i++)
			sw_heap_cancel(&heap, &extra[i]);
	} else if (!strcmp(op, "next")) {
		for (i = 0; i < nr; i++)
			sw_peek(&heap);
	} else if (!strcmp(op, "empty_tick")) {
		for (i = 0; i < nr; i++)
			sw_heap_pop_due(&heap, clk - 1);
	}
	CALLGRIND_TOGGLE_COLLECT;
	printf("callgrind wheel=heap op=%s ops=%lu\n", op, nr);
	free(slots);
	free(expiry);
	free(extra);
	free(timers);
	return 0;
}

/*
 * One operation alone under callgrind's collection, after an uncounted
 * setup: the instruction count divided by the operations is instructions
 * per operation, the loop around the call included (2 to 4 of them).
 */
static int sw_callgrind(const struct sw_opts *o)
{
	struct sw_bench_traffic traffic = o->p.traffic;
	struct sw_timer *timers, *extra;
	unsigned long *expiry;
	struct sw_base *base;
	const char *op = o->callgrind;
	enum sw_wheel_kind kind;
	struct sw_geometry geo;
	struct sw_bench_rng rng;
	unsigned long i, nr = o->p.ops, next;

	for (kind = 0; kind < SW_WHEEL_NR_KINDS && !o->which[kind]; kind++)
		;
	if (kind == SW_WHEEL_NR_KINDS && o->which[SW_HEAP])
		return sw_callgrind_heap(o);
	if (kind == SW_WHEEL_NR_KINDS || sw_geometry_init(&geo, kind, o->p.hz))
		sw_usage();
	timers = sw_alloc(o->p.timers, sizeof(*timers));
	extra = sw_alloc(o->p.ops, sizeof(*extra));
	expiry = sw_alloc(o->p.ops, sizeof(*expiry));
	base = sw_alloc(1, sizeof(*base));
	sw_bench_seed(&rng, o->p.seed);
	sw_base_init(base, &geo, 1000);
	sw_bench_populate(base, timers, o->p.timers, &traffic, &rng);
	for (i = 0; i < nr; i++) {
		sw_timer_init(&extra[i], 0);
		expiry[i] = base->clk + sw_bench_exp(&rng, o->p.traffic.mean);
	}
	/* Setup: what the operation needs in place */
	if (strcmp(op, "arm") && strcmp(op, "next") && strcmp(op, "empty_tick")) {
		for (i = 0; i < nr; i++)
			sw_modify(base, &extra[i], expiry[i]);
		for (i = 0; i < nr; i++)
			expiry[i] = !strcmp(op, "mod_near") ? extra[i].expires + 1 :
				    base->clk + sw_bench_exp(&rng, o->p.traffic.mean);
	}
	if (!strcmp(op, "empty_tick"))
		sw_base_init(base, &geo, 1000);

	if (!strcmp(op, "arm") || !strcmp(op, "mod_near") || !strcmp(op, "mod_far")) {
		CALLGRIND_TOGGLE_COLLECT;
		for (i = 0; i < nr; i++)
			sw_modify(base, &extra[i], expiry[i]);
		CALLGRIND_TOGGLE_COLLECT;
	} else if (!strcmp(op, "cancel")) {
		CALLGRIND_TOGGLE_COLLECT;
		for (i = 0; i < nr; i++)
			sw_cancel(base, &extra[i]);
		CALLGRIND_TOGGLE_COLLECT;
	} else if (!strcmp(op, "next")) {
		CALLGRIND_TOGGLE_COLLECT;
		for (i = 0; i < nr; i++)
			sw_next_expiry(base, &next);
		CALLGRIND_TOGGLE_COLLECT;
	} else if (!strcmp(op, "empty_tick")) {
		/* A tick with nothing due, on an empty wheel: sw_run() for one tick */
		CALLGRIND_TOGGLE_COLLECT;
		for (i = 0; i < nr; i++)
			sw_run(base, base->clk, NULL, NULL);
		CALLGRIND_TOGGLE_COLLECT;
	} else {
		sw_usage();
	}
	printf("callgrind wheel=%s op=%s ops=%lu\n", sw_wheel_kind_name(kind), op, nr);
	free(base);
	free(expiry);
	free(extra);
	free(timers);
	return 0;
}

int main(int argc, char **argv)
{
	static struct sw_bench_report res[SW_NR_TARGETS];
	u32 *trace[SW_NR_TARGETS] = { NULL };
	struct sw_opts o;
	char buf[2048];
	int k;

	sw_parse(argc, argv, &o);
	if (o.callgrind)
		return sw_callgrind(&o);

	printf("bench clock_ns=%llu mean=%lu cancel_pct=%u\n",
	       (unsigned long long)sw_bench_clock_cost(&sw_native), o.p.traffic.mean,
	       o.p.traffic.cancel_pct);
	printf("bench memory sw_base=%zu sw_timer=%zu heap_timer=%zu heap_slot=%zu\n",
	       sizeof(struct sw_base), sizeof(struct sw_timer), sizeof(struct sw_heap_timer),
	       sizeof(struct sw_heap_timer *));
	for (k = 0; k < SW_NR_TARGETS; k++) {
		if (!o.which[k])
			continue;
		if (o.trace)
			trace[k] = sw_alloc(o.p.ticks, sizeof(*trace[k]));
		res[k].name = sw_target_names[k];
		if (k == SW_HEAP)
			sw_run_heap(&o, &res[k], trace[k]);
		else
			sw_run_wheel(&o, k, &res[k], trace[k]);
		sw_bench_format(buf, sizeof(buf), &o.p, &res[k]);
		fputs(buf, stdout);
		fflush(stdout);
	}
	if (o.which[SW_WHEEL_SEED] && o.which[SW_WHEEL_CLASSIC]) {
		sw_bench_format_targets(buf, sizeof(buf), &res[SW_WHEEL_SEED],
					&res[SW_WHEEL_CLASSIC]);
		fputs(buf, stdout);
	}
	if (o.trace)
		sw_write_trace(&o, trace, o.which);
	for (k = 0; k < SW_NR_TARGETS; k++)
		free(trace[k]);
	return 0;
}
