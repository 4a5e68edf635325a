/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the benchmark workloads, over the wheel core only.
 *
 * Like the core, this is pure: the caller supplies the timers, a clock
 * and what to do between timed stretches, so the module's bench file and
 * the user-space benchmark run the very same loops.
 */
#ifndef _SHADOW_WHEEL_SW_BENCH_H
#define _SHADOW_WHEEL_SW_BENCH_H

#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "sw_wheel.h"

/* Timed stretches are this many operations (or one tick) long */
#define SW_BENCH_CHUNK		1024
#define SW_BENCH_MAX_CHUNKS	1024
#define SW_BENCH_MAX_OPS	(SW_BENCH_CHUNK * SW_BENCH_MAX_CHUNKS)
#define SW_BENCH_CLOCK_READS	64
#define SW_BENCH_NS_LEN		16	/* "4294967.2" and more */

/* A small, fast, seedable generator: xorshift64* */
struct sw_bench_rng {
	u64	state;
};

static inline void sw_bench_seed(struct sw_bench_rng *rng, u64 seed)
{
	rng->state = seed ? seed : 0x9e3779b97f4a7c15ULL;
}

static inline u32 sw_bench_rand(struct sw_bench_rng *rng)
{
	u64 x = rng->state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng->state = x;
	return (x * 0x2545f4914f6cdd1dULL) >> 32;
}

unsigned long sw_bench_exp(struct sw_bench_rng *rng, unsigned long mean);

/**
 * struct sw_bench_env - what the caller provides
 * @now_ns:	a nanosecond clock
 * @begin:	called before each timed stretch (the module: no preemption)
 * @end:	called after it (the module: preemption back, maybe reschedule)
 */
struct sw_bench_env {
	u64	(*now_ns)(void);
	void	(*begin)(void);
	void	(*end)(void);
};

/**
 * struct sw_bench_traffic - the timers a workload uses, and how they behave
 * @mean:	mean of the exponential timeouts, in ticks
 * @floor:	the background population's timeouts are @floor + exponential
 * @cancel_pct:	share of timers cancelled (and armed again, as the next
 *		request's timeout) before they expire: most timeouts never run
 */
struct sw_bench_traffic {
	unsigned long	mean;
	unsigned long	floor;
	unsigned int	cancel_pct;
};

/* Picoseconds per operation on a wheel holding a background population */
struct sw_bench_op_cost {
	u32		arm;		/* sw_modify() of a timer not pending */
	u32		mod_near;	/* to one tick later: mostly the same bucket */
	u32		mod_far;	/* to a new exponential timeout */
	u32		cancel;
	u32		next;		/* sw_next_expiry() */
	unsigned long	same_bucket;	/* how many mod_near stayed in their bucket */
	unsigned long	nr;		/* operations of each kind */
	u32		ps[SW_BENCH_MAX_CHUNKS];	/* scratch: per stretch */
};

/* Distribution of per-tick cost, in nanoseconds */
struct sw_bench_dist {
	u64		median;
	u64		p99;
	u64		p999;
	u64		max;
	u64		total;
	unsigned long	nr;
};

unsigned long sw_bench_churn(const struct sw_bench_traffic *traffic, unsigned long n);

void sw_bench_populate(struct sw_base *base, struct sw_timer *timers, unsigned long n,
		       const struct sw_bench_traffic *traffic, struct sw_bench_rng *rng);

void sw_bench_ops(struct sw_base *base, struct sw_timer *extra, unsigned long *expiry,
		  unsigned long nr,
		  const struct sw_bench_traffic *traffic, struct sw_bench_rng *rng,
		  const struct sw_bench_env *env, struct sw_bench_op_cost *res);

void sw_bench_ticks(struct sw_base *base, struct sw_timer *timers, unsigned long n,
		    const struct sw_bench_traffic *traffic, struct sw_bench_rng *rng,
		    const struct sw_bench_env *env, u32 *samples, unsigned long ticks,
		    unsigned long *expired, unsigned long *cascaded);

u32 sw_bench_next(struct sw_base *base, unsigned long nr, const struct sw_bench_env *env,
		  u32 *ps);
u64 sw_bench_clock_cost(const struct sw_bench_env *env);

u64 sw_bench_catch_up(struct sw_base *base, unsigned long gap, const struct sw_bench_env *env,
		      unsigned long *ran);

void sw_bench_dist_fill(u32 *samples, unsigned long nr, struct sw_bench_dist *dist);
u32 sw_bench_median(u32 *v, unsigned long nr);

/**
 * struct sw_bench_params - one benchmark run, the same for every wheel
 * @hz:		tick rate the geometries are made for
 * @timers:	the population: pending timers while operations and ticks run
 * @ops:	operations of each kind timed, up to %SW_BENCH_MAX_OPS
 * @ticks:	ticks timed under traffic
 * @gap:	idle ticks caught up after
 * @traffic:	timeouts and how many are cancelled
 * @seed:	for the generator: the same seed, the same timers
 */
struct sw_bench_params {
	unsigned int		hz;
	unsigned long		timers;
	unsigned long		ops;
	unsigned long		ticks;
	unsigned long		gap;
	struct sw_bench_traffic	traffic;
	u64			seed;
};

/* What a run needs, allocated by the caller: sizes from the params */
struct sw_bench_mem {
	struct sw_base		*base;
	struct sw_timer		*timers;	/* @timers */
	struct sw_timer		*extra;		/* @ops */
	unsigned long		*expiry;	/* @ops */
	u32			*samples;	/* @ticks */
	u32			*trace;		/* @ticks, or NULL: samples in tick order */
};

#define SW_BENCH_CATCH_UP_ROUNDS	7

/**
 * struct sw_bench_report - the figures of one wheel (or of a baseline)
 * @name:	what was measured
 * @ops:	picoseconds per operation
 * @next_idle:	picoseconds per next expiry lookup when nothing is due for
 *		the gap, as on the way into idle
 * @tick:	per-tick nanoseconds under traffic
 * @expired:	timers expired in those ticks
 * @cascaded:	timers cascaded in them
 * @catch_up_median: nanoseconds to catch up after the gap
 * @catch_up_max: the worst of %SW_BENCH_CATCH_UP_ROUNDS
 */
struct sw_bench_report {
	const char		*name;
	struct sw_bench_op_cost	ops;
	u32			next_idle;
	struct sw_bench_dist	tick;
	unsigned long		expired;
	unsigned long		cascaded;
	u64			catch_up_median;
	u64			catch_up_max;
};

int sw_bench_wheel(const struct sw_bench_params *p, enum sw_wheel_kind kind,
		   const struct sw_bench_mem *mem, const struct sw_bench_env *env,
		   struct sw_bench_report *r);

int sw_bench_format(char *buf, size_t size, const struct sw_bench_params *p,
		    const struct sw_bench_report *r);
int sw_bench_format_ratio(char *buf, size_t size, const char *what, u64 num, u64 den,
			  unsigned int target_pct, bool at_most);
int sw_bench_format_targets(char *buf, size_t size, const struct sw_bench_report *seed,
			    const struct sw_bench_report *classic);

/**
 * struct sw_bench_stretch - timing a loop in stretches of %SW_BENCH_CHUNK
 * @env:	clock and stretch hooks
 * @ps:		each stretch's picoseconds per operation
 * @nr:		operations in all
 * @done:	operations handed out so far
 * @stretches:	stretches timed so far
 * @t0:		when the open stretch began
 *
 *	sw_bench_stretch_init(&st, env, ps, nr);
 *	while (sw_bench_stretch_next(&st, &i, &end))
 *		for (; i < end; i++)
 *			the operation on i;
 *	cost = sw_bench_stretch_median(&st);
 */
struct sw_bench_stretch {
	const struct sw_bench_env	*env;
	u32				*ps;
	unsigned long			nr;
	unsigned long			done;
	unsigned long			stretches;
	u64				t0;
};

void sw_bench_stretch_init(struct sw_bench_stretch *st, const struct sw_bench_env *env,
			   u32 *ps, unsigned long nr);
bool sw_bench_stretch_next(struct sw_bench_stretch *st, unsigned long *i, unsigned long *end);
u32 sw_bench_stretch_median(struct sw_bench_stretch *st);

/* One operation of a timer API on timer @i of @ctx, for the timing below */
typedef void (*sw_bench_op_fn)(void *ctx, unsigned long i);

/*
 * The median picoseconds of @op on timers 0 .. @nr - 1, timed in
 * stretches (@ps: room for one figure per stretch). Always inlined, so
 * that a constant @op becomes a direct call in the timed loop.
 */
static __always_inline u32 sw_bench_time_loop(const struct sw_bench_env *env, u32 *ps,
					      unsigned long nr, sw_bench_op_fn op, void *ctx)
{
	struct sw_bench_stretch st;
	unsigned long i, end;

	sw_bench_stretch_init(&st, env, ps, nr);
	while (sw_bench_stretch_next(&st, &i, &end))
		for (; i < end; i++)
			op(ctx, i);
	return sw_bench_stretch_median(&st);
}

/**
 * struct sw_bench_api - a timer API the benchmark times: the wheels, the
 *			 heap, the kernel's timers, a wheel under a lock
 * @timeout:	a fresh timeout (an absolute tick), drawn outside the loops
 * @arm:	arm timer @i, pending or not, for the tick in @expiry[@i]
 * @near:	move timer @i one tick later
 * @cancel:	cancel timer @i
 */
struct sw_bench_api {
	unsigned long	(*timeout)(void *ctx);
	sw_bench_op_fn	arm;
	sw_bench_op_fn	near;
	sw_bench_op_fn	cancel;
};

/**
 * sw_bench_time_ops - the four timed operations, the same for every API
 * @res:	receives nr, arm, mod_near, mod_far and cancel
 * @env:	clock and stretch hooks
 * @nr:		timers, not pending yet, up to %SW_BENCH_MAX_OPS
 * @expiry:	@nr entries: the ticks @api->arm arms for
 * @api:	the operations; a compile-time constant, so that always
 *		inlined, each becomes a direct call
 * @ctx:	passed to them
 *
 * arm: each timer for a fresh timeout; mod_near: one tick later;
 * mod_far: to another fresh timeout; cancel.
 */
static __always_inline void sw_bench_time_ops(struct sw_bench_op_cost *res,
					      const struct sw_bench_env *env, unsigned long nr,
					      unsigned long *expiry,
					      const struct sw_bench_api *api, void *ctx)
{
	unsigned long i;

	res->nr = nr;
	for (i = 0; i < nr; i++)
		expiry[i] = api->timeout(ctx);
	res->arm = sw_bench_time_loop(env, res->ps, nr, api->arm, ctx);
	res->mod_near = sw_bench_time_loop(env, res->ps, nr, api->near, ctx);
	for (i = 0; i < nr; i++)
		expiry[i] = api->timeout(ctx);
	res->mod_far = sw_bench_time_loop(env, res->ps, nr, api->arm, ctx);
	res->cancel = sw_bench_time_loop(env, res->ps, nr, api->cancel, ctx);
}

#endif
