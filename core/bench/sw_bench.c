// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the benchmark workloads, over the wheel core only.
 *
 * Timeouts are exponential, as the gaps between independent events are;
 * a background population of pending timers is what the wheel holds while
 * the operations are timed. Operations are timed in stretches of
 * SW_BENCH_CHUNK, so the clock's own cost is spread thin, and reported as
 * the median stretch's cost per operation, so an interrupt or a preemption
 * in one stretch does not count; per-tick costs are timed one tick at a
 * time and so include one clock read each (the same for every wheel).
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "sw_bench.h"

static int sw_bench_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * An exponentially distributed timeout of mean @mean ticks, at least 1:
 * -ln(u) for u uniform in (0, 1], from a piecewise linear log2. Integer
 * only, so it runs in the kernel too.
 */
unsigned long sw_bench_exp(struct sw_bench_rng *rng, unsigned long mean)
{
	u32 u = sw_bench_rand(rng) | 1;
	unsigned int e = fls(u) - 1;
	u32 frac = e >= 16 ? (u >> (e - 16)) & 0xffff : (u << (16 - e)) & 0xffff;
	/* -log2(u / 2^32) in 16.16 fixed point */
	u64 neg_log2 = ((u64)(32 - e) << 16) - frac;

	/* times ln 2, which is 45426 / 2^16 */
	return 1 + (unsigned long)(((u64)mean * neg_log2 * 45426) >> 32);
}

/**
 * sw_bench_stretch_init - start timing a loop of @nr operations
 * @st:		the timing
 * @env:	clock and stretch hooks
 * @ps:		room for one figure per stretch: up to %SW_BENCH_MAX_CHUNKS
 * @nr:		operations, up to %SW_BENCH_MAX_OPS
 */
void sw_bench_stretch_init(struct sw_bench_stretch *st, const struct sw_bench_env *env,
			   u32 *ps, unsigned long nr)
{
	*st = (struct sw_bench_stretch){
		.env = env, .ps = ps, .nr = min_t(unsigned long, nr, SW_BENCH_MAX_OPS),
	};
}

/**
 * sw_bench_stretch_next - close the stretch timed, open the next one
 * @st:		the timing
 * @i:		set to the first operation of the next stretch
 * @end:	set to one past its last
 *
 * Return: false when all operations were handed out (nothing is open).
 */
bool sw_bench_stretch_next(struct sw_bench_stretch *st, unsigned long *i, unsigned long *end)
{
	const struct sw_bench_env *env = st->env;

	if (st->done) {
		unsigned long len = st->done - st->stretches * SW_BENCH_CHUNK;
		u64 ns = env->now_ns() - st->t0;

		env->end();
		st->ps[st->stretches++] = min_t(u64, div64_u64(ns * 1000, len), U32_MAX);
	}
	if (st->done >= st->nr)
		return false;
	*i = st->done;
	*end = min(st->nr, st->done + SW_BENCH_CHUNK);
	st->done = *end;
	env->begin();
	st->t0 = env->now_ns();
	return true;
}

/* The median stretch's picoseconds per operation */
u32 sw_bench_stretch_median(struct sw_bench_stretch *st)
{
	return sw_bench_median(st->ps, st->stretches);
}

/**
 * sw_bench_populate - arm the background population
 * @base:	the wheel
 * @timers:	@n timers, initialised here
 * @n:		how many
 * @traffic:	their timeouts: @traffic->floor plus exponential
 * @rng:	the generator
 */
void sw_bench_populate(struct sw_base *base, struct sw_timer *timers, unsigned long n,
		       const struct sw_bench_traffic *traffic, struct sw_bench_rng *rng)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		sw_timer_init(&timers[i], 0);
		sw_modify(base, &timers[i],
			  base->clk + traffic->floor + sw_bench_exp(rng, traffic->mean));
	}
}

/* A wheel's operations for sw_bench_time_ops() */
struct sw_bench_wheel_ops {
	struct sw_base			*base;
	struct sw_timer			*timers;
	const unsigned long		*expiry;
	unsigned long			clk;
	const struct sw_bench_traffic	*traffic;
	struct sw_bench_rng		*rng;
	unsigned long			same_bucket;
};

static unsigned long sw_bench_wheel_timeout(void *ctx)
{
	struct sw_bench_wheel_ops *w = ctx;

	return w->clk + w->traffic->floor + sw_bench_exp(w->rng, w->traffic->mean);
}

static void sw_bench_wheel_arm(void *ctx, unsigned long i)
{
	struct sw_bench_wheel_ops *w = ctx;

	sw_modify(w->base, &w->timers[i], w->expiry[i]);
}

static void sw_bench_wheel_near(void *ctx, unsigned long i)
{
	struct sw_bench_wheel_ops *w = ctx;
	struct sw_timer *timer = &w->timers[i];

	w->same_bucket += sw_modify(w->base, timer, timer->expires + 1) == SW_MOD_SAME_BUCKET;
}

static void sw_bench_wheel_cancel(void *ctx, unsigned long i)
{
	struct sw_bench_wheel_ops *w = ctx;

	sw_cancel(w->base, &w->timers[i]);
}

static const struct sw_bench_api sw_bench_wheel_api = {
	.timeout	= sw_bench_wheel_timeout,
	.arm		= sw_bench_wheel_arm,
	.near		= sw_bench_wheel_near,
	.cancel		= sw_bench_wheel_cancel,
};

/**
 * sw_bench_ops - time each operation @nr times on a populated wheel
 * @base:	the wheel, holding its background population
 * @extra:	@nr timers for the timed operations; left not pending
 * @expiry:	@nr entries of scratch space, for the timeouts
 * @nr:		operations of each kind, up to SW_BENCH_MAX_OPS
 * @traffic:	the timeouts armed: @traffic->floor plus exponential
 * @rng:	the generator
 * @env:	clock and stretch hooks
 * @res:	picoseconds per operation of each kind
 *
 * The @extra timers are armed, moved one tick later, moved to a new
 * timeout and cancelled, in that order; then the next expiry is looked
 * up @nr times on the background population alone. Timeouts are drawn
 * before each timed loop.
 */
void sw_bench_ops(struct sw_base *base, struct sw_timer *extra, unsigned long *expiry,
		  unsigned long nr,
		  const struct sw_bench_traffic *traffic, struct sw_bench_rng *rng,
		  const struct sw_bench_env *env, struct sw_bench_op_cost *res)
{
	struct sw_bench_wheel_ops w = {
		.base = base, .timers = extra, .expiry = expiry, .clk = base->clk,
		.traffic = traffic, .rng = rng,
	};
	unsigned long i;

	nr = min_t(unsigned long, nr, SW_BENCH_MAX_OPS);
	for (i = 0; i < nr; i++)
		sw_timer_init(&extra[i], 0);
	sw_bench_time_ops(res, env, nr, expiry, &sw_bench_wheel_api, &w);
	res->same_bucket = w.same_bucket;
	res->next = sw_bench_next(base, nr, env, res->ps);
}

static void sw_bench_wheel_next(void *ctx, unsigned long i)
{
	unsigned long next;

	sw_next_expiry(ctx, &next);
}

/**
 * sw_bench_next - time @nr next expiry lookups on the wheel as it is
 * @base:	the wheel
 * @nr:		how many, up to SW_BENCH_MAX_OPS
 * @env:	clock and stretch hooks
 * @ps:		scratch: SW_BENCH_MAX_CHUNKS entries
 *
 * Return: picoseconds per lookup.
 */
u32 sw_bench_next(struct sw_base *base, unsigned long nr, const struct sw_bench_env *env,
		  u32 *ps)
{
	return sw_bench_time_loop(env, ps, nr, sw_bench_wheel_next, base);
}

/**
 * sw_bench_clock_cost - what one clock read adds to a timed stretch
 * @env:	the clock
 *
 * Return: the median of a few back-to-back reads' differences, in ns:
 * the floor under every per-tick figure.
 */
u64 sw_bench_clock_cost(const struct sw_bench_env *env)
{
	u32 d[SW_BENCH_CLOCK_READS];
	struct sw_bench_dist dist;
	unsigned int i;

	for (i = 0; i < SW_BENCH_CLOCK_READS; i++) {
		u64 t0;

		env->begin();
		t0 = env->now_ns();
		d[i] = env->now_ns() - t0;
		env->end();
	}
	sw_bench_dist_fill(d, SW_BENCH_CLOCK_READS, &dist);
	return dist.median;
}

/* Timers of the population re-armed per tick for @traffic->cancel_pct */
unsigned long sw_bench_churn(const struct sw_bench_traffic *traffic, unsigned long n)
{
	/*
	 * A pending timer expires at a rate of 1 / mean per tick (exponential
	 * timeouts have no memory); it is cancelled and armed again at a rate
	 * r such that r / (r + 1 / mean) is the share cancelled.
	 */
	if (traffic->cancel_pct >= 100)
		return n;
	return (u64)n * traffic->cancel_pct / ((100 - traffic->cancel_pct) * traffic->mean);
}

/**
 * sw_bench_ticks - per-tick cost on a wheel under traffic
 * @base:	the wheel, holding @n timers from sw_bench_populate()
 * @timers:	those timers
 * @n:		how many
 * @traffic:	per tick, enough random timers get a new timeout (untimed)
 *		for @traffic->cancel_pct of them to be cancelled before they
 *		expire; every timer that expires is armed again
 * @rng:	the generator
 * @env:	clock and stretch hooks
 * @samples:	@ticks entries: nanoseconds each tick took
 * @ticks:	how many ticks to run
 * @expired:	incremented by the timers expired
 * @cascaded:	incremented by the timers cascaded
 *
 * A tick's time is the wheel's own work: processing the tick (cascades
 * included) and handing out each expired timer, which goes on a list as
 * a callback would take it.
 */
void sw_bench_ticks(struct sw_base *base, struct sw_timer *timers, unsigned long n,
		    const struct sw_bench_traffic *traffic, struct sw_bench_rng *rng,
		    const struct sw_bench_env *env, u32 *samples, unsigned long ticks,
		    unsigned long *expired, unsigned long *cascaded)
{
	unsigned long churn = sw_bench_churn(traffic, n), t, c;

	for (t = 0; t < ticks; t++) {
		unsigned long clk = base->clk;
		struct sw_timer *timer;
		struct sw_tick tick;
		HLIST_HEAD(ran);
		u64 t0, dt;

		for (c = 0; c < churn && n; c++)
			sw_modify(base, &timers[sw_bench_rand(rng) % n],
				  clk + sw_bench_exp(rng, traffic->mean));

		env->begin();
		t0 = env->now_ns();
		while (sw_collect_tick(base, clk, &tick)) {
			*cascaded += tick.cascaded;
			while ((timer = sw_tick_pop(&tick)))
				hlist_add_head(&timer->entry, &ran);
		}
		dt = env->now_ns() - t0;
		env->end();
		samples[t] = min_t(u64, dt, U32_MAX);

		while (!hlist_empty(&ran)) {
			timer = hlist_entry(ran.first, struct sw_timer, entry);
			hlist_del_init(&timer->entry);
			sw_modify(base, timer, clk + 1 + sw_bench_exp(rng, traffic->mean));
			(*expired)++;
		}
	}
}

static void sw_bench_count(struct sw_timer *timer, unsigned long clk, void *arg)
{
	(*(unsigned long *)arg)++;
}

/**
 * sw_bench_catch_up - time running a wheel over @gap idle ticks
 * @base:	the wheel, holding timers due after the gap
 * @gap:	ticks it did not run for, as after an idle period
 * @env:	clock and stretch hooks
 * @ran:	set to the timers that expired on the way
 *
 * Return: nanoseconds taken to bring the clock up to date; @ran gets the
 * timers that expired on the way (0 when they were all due after it).
 */
u64 sw_bench_catch_up(struct sw_base *base, unsigned long gap, const struct sw_bench_env *env,
		      unsigned long *ran)
{
	u64 t0, dt;

	*ran = 0;
	env->begin();
	t0 = env->now_ns();
	sw_run(base, base->clk + gap - 1, sw_bench_count, ran);
	dt = env->now_ns() - t0;
	env->end();
	return dt;
}

/* The median of @v (sorted in place) */
u32 sw_bench_median(u32 *v, unsigned long nr)
{
	struct sw_bench_dist dist;

	sw_bench_dist_fill(v, nr, &dist);
	return dist.median;
}

/* Sorts @samples */
void sw_bench_dist_fill(u32 *samples, unsigned long nr, struct sw_bench_dist *dist)
{
	unsigned long i;

	*dist = (struct sw_bench_dist){ .nr = nr };
	if (!nr)
		return;
	for (i = 0; i < nr; i++)
		dist->total += samples[i];
	sort(samples, nr, sizeof(*samples), sw_bench_cmp_u32, NULL);
	dist->median = samples[nr / 2];
	dist->p99 = samples[nr * 99 / 100];
	dist->p999 = samples[nr * 999 / 1000];
	dist->max = samples[nr - 1];
}

/**
 * sw_bench_wheel - run the whole benchmark on one wheel
 * @p:		what to run
 * @kind:	the wheel
 * @mem:	the caller's memory for it
 * @env:	clock and stretch hooks
 * @r:		the figures (@r->name is left alone)
 *
 * Operations on a wheel holding @p->timers; then ticks under traffic from
 * a fresh population, after letting it settle for four mean timeouts;
 * then, from populations due after @p->gap, the next expiry on the way
 * into idle and the catch-up on the way out. Each part starts from
 * @p->seed, so every wheel sees the same timers.
 *
 * Return: 0; -EINVAL for a wheel or tick rate the core does not know, or
 * -ERANGE if a timer expired in the gap (then the catch-up did more than
 * catch up: the gap is too long for the traffic's floor).
 */
int sw_bench_wheel(const struct sw_bench_params *p, enum sw_wheel_kind kind,
		   const struct sw_bench_mem *mem, const struct sw_bench_env *env,
		   struct sw_bench_report *r)
{
	struct sw_bench_traffic traffic = p->traffic;
	u32 catch_up[SW_BENCH_CATCH_UP_ROUNDS];
	unsigned long i, ran, settle = 4 * traffic.mean;
	struct sw_bench_rng rng;
	struct sw_geometry geo;
	unsigned long clk = 1000;

	if (sw_geometry_init(&geo, kind, p->hz))
		return -EINVAL;

	traffic.floor = 0;
	sw_bench_seed(&rng, p->seed);
	sw_base_init(mem->base, &geo, clk);
	sw_bench_populate(mem->base, mem->timers, p->timers, &traffic, &rng);
	sw_bench_ops(mem->base, mem->extra, mem->expiry, p->ops, &traffic, &rng, env, &r->ops);

	sw_bench_seed(&rng, p->seed + 1);
	sw_base_init(mem->base, &geo, clk);
	sw_bench_populate(mem->base, mem->timers, p->timers, &traffic, &rng);
	r->expired = 0;
	r->cascaded = 0;
	for (i = 0; i < settle; i += p->ticks)
		sw_bench_ticks(mem->base, mem->timers, p->timers, &traffic, &rng, env,
			       mem->samples, min(p->ticks, settle - i), &r->expired, &r->cascaded);
	r->expired = 0;
	r->cascaded = 0;
	sw_bench_ticks(mem->base, mem->timers, p->timers, &traffic, &rng, env, mem->samples,
		       p->ticks, &r->expired, &r->cascaded);
	if (mem->trace)
		memcpy(mem->trace, mem->samples, p->ticks * sizeof(*mem->samples));
	sw_bench_dist_fill(mem->samples, p->ticks, &r->tick);

	traffic.floor = p->gap;
	sw_bench_seed(&rng, p->seed + 2);
	for (i = 0; i < SW_BENCH_CATCH_UP_ROUNDS; i++) {
		sw_base_init(mem->base, &geo, clk + i * 77777);
		sw_bench_populate(mem->base, mem->timers, p->timers, &traffic, &rng);
		if (!i)
			r->next_idle = sw_bench_next(mem->base, p->ops, env, r->ops.ps);
		catch_up[i] = min_t(u64, sw_bench_catch_up(mem->base, p->gap, env, &ran), U32_MAX);
		if (ran)
			return -ERANGE;
	}
	sort(catch_up, SW_BENCH_CATCH_UP_ROUNDS, sizeof(*catch_up), sw_bench_cmp_u32, NULL);
	r->catch_up_median = catch_up[SW_BENCH_CATCH_UP_ROUNDS / 2];
	r->catch_up_max = catch_up[SW_BENCH_CATCH_UP_ROUNDS - 1];
	return 0;
}

/* Picoseconds as nanoseconds with one decimal, into @buf */
static const char *sw_bench_ns(char buf[SW_BENCH_NS_LEN], u32 ps)
{
	snprintf(buf, SW_BENCH_NS_LEN, "%u.%u", ps / 1000, ps % 1000 / 100);
	return buf;
}

/**
 * sw_bench_format - a report as "bench key=value ..." lines
 * @buf:	where to write
 * @size:	its size
 * @p:		the run
 * @r:		the figures
 *
 * Return: as snprintf().
 */
int sw_bench_format(char *buf, size_t size, const struct sw_bench_params *p,
		    const struct sw_bench_report *r)
{
	const struct sw_bench_op_cost *o = &r->ops;
	char n[6][SW_BENCH_NS_LEN];

	return snprintf(buf, size,
			"bench wheel=%s hz=%u timers=%lu ops=%lu arm=%s mod_near=%s mod_far=%s cancel=%s next=%s next_idle=%s same_bucket=%lu\n"
			"bench wheel=%s hz=%u timers=%lu ticks=%lu tick_median=%llu tick_p99=%llu tick_p999=%llu tick_max=%llu tick_total_us=%llu expired=%lu cascaded=%lu\n"
			"bench wheel=%s hz=%u timers=%lu gap=%lu catch_up_median=%llu catch_up_max=%llu\n",
			r->name, p->hz, p->timers, o->nr, sw_bench_ns(n[0], o->arm),
			sw_bench_ns(n[1], o->mod_near), sw_bench_ns(n[2], o->mod_far),
			sw_bench_ns(n[3], o->cancel), sw_bench_ns(n[4], o->next),
			sw_bench_ns(n[5], r->next_idle), o->same_bucket,
			r->name, p->hz, p->timers, r->tick.nr, (unsigned long long)r->tick.median,
			(unsigned long long)r->tick.p99, (unsigned long long)r->tick.p999,
			(unsigned long long)r->tick.max,
			(unsigned long long)div64_u64(r->tick.total, 1000), r->expired, r->cascaded,
			r->name, p->hz, p->timers, p->gap, (unsigned long long)r->catch_up_median,
			(unsigned long long)r->catch_up_max);
}

/**
 * sw_bench_format_ratio - "ratio WHAT=X target=<=T met|missed"
 * @buf:	where to write
 * @size:	its size
 * @what:	the name of the ratio
 * @num:	numerator
 * @den:	denominator
 * @target_pct:	the target, in hundredths
 * @at_most:	the ratio must be at most the target (else at least)
 *
 * A ratio with nothing measured on either side (a clock too coarse to see
 * the work) is "unmeasured", neither met nor missed.
 *
 * Return: as snprintf().
 */
int sw_bench_format_ratio(char *buf, size_t size, const char *what, u64 num, u64 den,
			  unsigned int target_pct, bool at_most)
{
	u64 milli = den ? div64_u64(num * 1000, den) : 0;
	bool met = at_most ? milli * 100 <= (u64)target_pct * 1000 :
			     milli * 100 >= (u64)target_pct * 1000;

	if (!num || !den)
		return snprintf(buf, size, "ratio %s=unmeasured target=%s%u.%02u\n", what,
				at_most ? "<=" : ">=", target_pct / 100, target_pct % 100);
	return snprintf(buf, size, "ratio %s=%llu.%03llu target=%s%u.%02u %s\n", what,
			(unsigned long long)div64_u64(milli, 1000),
			(unsigned long long)(milli % 1000), at_most ? "<=" : ">=",
			target_pct / 100, target_pct % 100, met ? "met" : "missed");
}

/* The targets set for the seed wheel against the classic one */
int sw_bench_format_targets(char *buf, size_t size, const struct sw_bench_report *seed,
			    const struct sw_bench_report *classic)
{
	const struct {
		const char	*what;
		u64		num, den;
		unsigned int	target_pct;
		bool		at_most;
	} ratios[] = {
		{ "seed/classic.next", seed->ops.next, classic->ops.next, 10, true },
		{ "seed/classic.next_idle", seed->next_idle, classic->next_idle, 10, true },
		{ "seed/classic.tick_p99", seed->tick.p99, classic->tick.p99, 10, true },
		{ "seed/classic.tick_max", seed->tick.max, classic->tick.max, 10, true },
		{ "classic/seed.tick_total", classic->tick.total, seed->tick.total, 200, false },
		{ "classic/seed.catch_up", classic->catch_up_median, seed->catch_up_median,
		  2000, false },
	};
	size_t n = 0;
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(ratios); k++)
		n += sw_bench_format_ratio(buf + n, n < size ? size - n : 0, ratios[k].what,
					   ratios[k].num, ratios[k].den, ratios[k].target_pct,
					   ratios[k].at_most);
	return n;
}
