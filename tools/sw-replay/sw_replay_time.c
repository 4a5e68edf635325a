// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay --time: the trace's events replayed into each wheel alone
 * (seed, mainline, classic) and into the binary heap of core/heap/sw_heap.c, at
 * the trace's HZ and at 100, 250 and 1000, timed. A start modifies the
 * timer (sw_modify(), sw_heap_modify()), a cancel cancels it, an
 * expire_entry does nothing (its cancel came first); before each event the
 * structure is brought up to the event's jiffies in its HZ, its due timers
 * run (taken out). Prints, per structure and HZ, the nanoseconds per event
 * (the whole replay over the events, ticks included), the ticks the trace
 * spans at that HZ and those processed (a wheel skips ticks with nothing
 * due; the heap looks at every one), and the nanoseconds of tick
 * processing per tick spanned (timed around each catch-up, clock reads
 * included, as many for each structure), with the ratios of the classic
 * wheel's figures to each. The best of @rounds replays counts. Figures
 * only: nothing is judged.
 *
 * sw-replay --tick-cost: the same replays at the trace's HZ and at 1000,
 * each tick processed timed alone (two clock reads), the least of @rounds
 * replays for each tick (they do the same work tick by tick), printed for
 * plotting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/kernel.h>

#include "sw_hz.h"
#include "sw_wheel.h"
#include "sw_heap.h"
#include "sw_replay_exit.h"
#include "sw_replay_time.h"
#include "sw_replay_trace.h"

static double sw_replay_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The same clock in seconds: the modes' wall times */
double sw_replay_now_s(void)
{
	return sw_replay_now_ns() / 1e9;
}

/* One tick processed, timed alone: --tick-cost */
struct sw_replay_tick_sample {
	unsigned long	clk;
	double		ns;
};

/* Per tick processed, its cost: the least of the rounds so far */
struct sw_replay_tick_samples {
	struct sw_replay_tick_sample *c;
	size_t		nr;
	size_t		size;
	unsigned int	round;
};

/* What one replay measured */
struct sw_timing {
	double		total_ns;
	double		tick_ns;
	unsigned long	ticks;
	struct sw_replay_tick_samples *costs;	/* or NULL: ticks not timed alone */
};

static void sw_replay_tick_sample_add(struct sw_replay_tick_samples *tc, unsigned long clk,
				      double ns)
{
	struct sw_replay_tick_sample *c;

	if (tc->round) {
		/* The rounds process the same ticks in the same order */
		if (tc->nr < tc->size && tc->c[tc->nr].clk == clk && ns < tc->c[tc->nr].ns)
			tc->c[tc->nr].ns = ns;
		tc->nr++;
		return;
	}
	c = sw_replay_grow(tc->c, &tc->size, tc->nr, sizeof(*tc->c), 4096);
	if (!c)
		sw_replay_die("out of memory");
	tc->c = c;
	tc->c[tc->nr++] = (struct sw_replay_tick_sample){ .clk = clk, .ns = ns };
}

/* Bring @base to @clk: run (take out) every timer due before it */
static unsigned long sw_replay_time_catch_up(struct sw_base *base, unsigned long clk,
					     struct sw_replay_tick_samples *tc)
{
	unsigned long ticks = 0;
	struct sw_tick tick;

	while (sw_time_before(base->clk, clk)) {
		double a = tc ? sw_replay_now_ns() : 0;

		sw_collect_tick(base, clk - 1, &tick);
		ticks++;
		while (sw_tick_pop(&tick))
			;
		if (tc)
			sw_replay_tick_sample_add(tc, tick.clk, sw_replay_now_ns() - a);
	}
	return ticks;
}

static void sw_replay_time_wheel(const struct sw_replay_trace *t, const size_t *timer_of,
				 struct sw_timer *timers, size_t nr_timers,
				 const struct sw_geometry *geo, const struct sw_hz *hz0,
				 bool timed_ticks, struct sw_timing *out)
{
	struct sw_hz hz = *hz0;
	struct sw_base *base = sw_replay_calloc(1, sizeof(*base));
	struct sw_replay_tick_samples *tc = out->costs;
	double t0, t1;
	size_t i;

	sw_hz_rebase(&hz, t->evs[0].now);
	sw_base_init(base, geo, sw_hz_clock(&hz, t->evs[0].now));
	for (i = 0; i < nr_timers; i++)
		sw_timer_init(&timers[i], 0);
	memset(out, 0, sizeof(*out));
	out->costs = tc;
	t0 = sw_replay_now_ns();
	for (i = 0; i < t->nr; i++) {
		const struct sw_replay_ev *ev = &t->evs[i];
		struct sw_timer *timer = &timers[timer_of[i]];
		unsigned long clk;

		sw_hz_rebase(&hz, ev->now);
		clk = sw_hz_clock(&hz, ev->now);
		if (timed_ticks && sw_time_before(base->clk, clk)) {
			double a = sw_replay_now_ns();

			out->ticks += sw_replay_time_catch_up(base, clk, tc);
			out->tick_ns += sw_replay_now_ns() - a;
		} else if (!timed_ticks) {
			out->ticks += sw_replay_time_catch_up(base, clk, NULL);
		}
		if (ev->type == SW_EV_START)
			sw_modify(base, timer, sw_hz_expiry_at(&hz, ev->expires, ev->now));
		else if (ev->type == SW_EV_CANCEL)
			sw_cancel(base, timer);
	}
	t1 = sw_replay_now_ns();
	if (!timed_ticks)
		out->total_ns = t1 - t0;
	free(base);
}

static void sw_replay_time_heap(const struct sw_replay_trace *t, const size_t *timer_of,
				struct sw_heap_timer *timers, size_t nr_timers,
				const struct sw_hz *hz0, bool timed_ticks, struct sw_timing *out)
{
	struct sw_hz hz = *hz0;
	struct sw_replay_tick_samples *tc = out->costs;
	struct sw_heap_timer **slots = sw_replay_calloc(nr_timers, sizeof(*slots));
	struct sw_heap heap;
	unsigned long clk;
	double t0, t1;
	size_t i;

	sw_heap_init(&heap, slots, nr_timers);
	memset(timers, 0, nr_timers * sizeof(*timers));
	memset(out, 0, sizeof(*out));
	out->costs = tc;
	sw_hz_rebase(&hz, t->evs[0].now);
	clk = sw_hz_clock(&hz, t->evs[0].now);
	t0 = sw_replay_now_ns();
	for (i = 0; i < t->nr; i++) {
		const struct sw_replay_ev *ev = &t->evs[i];
		unsigned long now;
		double a = 0;

		sw_hz_rebase(&hz, ev->now);
		now = sw_hz_clock(&hz, ev->now);
		if (timed_ticks && sw_time_before(clk, now))
			a = sw_replay_now_ns();
		/* Tick by tick, as a wheel's clock goes: what is due before @now runs */
		for (; sw_time_before(clk, now); clk++) {
			double b = tc ? sw_replay_now_ns() : 0;

			while (sw_heap_pop_due(&heap, clk))
				;
			out->ticks++;
			if (tc)
				sw_replay_tick_sample_add(tc, clk, sw_replay_now_ns() - b);
		}
		if (a)
			out->tick_ns += sw_replay_now_ns() - a;
		if (ev->type == SW_EV_START)
			sw_heap_modify(&heap, &timers[timer_of[i]],
				       sw_hz_expiry_at(&hz, ev->expires, ev->now));
		else if (ev->type == SW_EV_CANCEL)
			sw_heap_cancel(&heap, &timers[timer_of[i]]);
	}
	t1 = sw_replay_now_ns();
	if (!timed_ticks)
		out->total_ns = t1 - t0;
	free(slots);
}

/* The best of @rounds, the whole replay and its ticks timed apart */
static void sw_replay_time_one(const struct sw_replay_trace *t, const size_t *timer_of,
			       size_t nr_timers, int kind, const struct sw_hz *hz,
			       unsigned int rounds, struct sw_replay_tick_samples *tc,
			       struct sw_timing *best)
{
	struct sw_timer *timers = sw_replay_calloc(nr_timers, sizeof(*timers));
	struct sw_heap_timer *htimers = sw_replay_calloc(nr_timers, sizeof(*htimers));
	struct sw_geometry geo;
	struct sw_timing m;
	unsigned int r;
	int pass;

	if (kind < SW_WHEEL_NR_KINDS)
		sw_geometry_init(&geo, kind, hz->vhz);
	memset(best, 0, sizeof(*best));
	/* Ticks timed alone: only the pass that times them */
	for (pass = tc ? 1 : 0; pass < 2; pass++) {
		for (r = 0; r < rounds; r++) {
			m.costs = tc;
			if (tc) {
				tc->round = r;
				tc->nr = 0;
			}
			if (kind < SW_WHEEL_NR_KINDS)
				sw_replay_time_wheel(t, timer_of, timers, nr_timers, &geo, hz, pass,
						     &m);
			else
				sw_replay_time_heap(t, timer_of, htimers, nr_timers, hz, pass, &m);
			if (!pass && (!r || m.total_ns < best->total_ns))
				best->total_ns = m.total_ns;
			if (pass && (!r || m.tick_ns < best->tick_ns))
				best->tick_ns = m.tick_ns;
			best->ticks = m.ticks;
		}
	}
	free(timers);
	free(htimers);
}

static const char * const sw_replay_time_names[] = { "seed", "mainline", "classic", "heap" };

static double sw_ratio(double x, double classic)
{
	return x > 0 ? classic / x : 0;
}

/**
 * sw_replay_time - time the trace's replay into each wheel and the heap
 * @t:		the trace, its events with jiffies (cancels' derived)
 * @timer_of:	per event, its timer's index
 * @nr_timers:	distinct timers
 * @khz:	the trace's HZ
 * @rounds:	replays of each, the best counts
 */
void sw_replay_time(const struct sw_replay_trace *t, const size_t *timer_of, size_t nr_timers,
		    unsigned int khz, unsigned int rounds)
{
	unsigned int hzs[4] = { khz }, nr_hz = 1, h, k;
	unsigned long spanned;
	static const unsigned int vhz[] = { 100, 250, 1000 };

	for (h = 0; h < ARRAY_SIZE(vhz); h++) {
		if (vhz[h] != khz)
			hzs[nr_hz++] = vhz[h];
	}
	for (h = 0; h < nr_hz; h++) {
		struct sw_timing tm[4];
		struct sw_hz hz;

		sw_hz_init(&hz, khz, hzs[h]);
		spanned = sw_hz_clock(&hz, t->evs[t->nr - 1].now) - sw_hz_clock(&hz, t->evs[0].now);
		for (k = 0; k < 4; k++)
			sw_replay_time_one(t, timer_of, nr_timers, k, &hz, rounds, NULL, &tm[k]);
		for (k = 0; k < 4; k++) {
			const struct sw_timing *c = &tm[SW_WHEEL_CLASSIC];
			double ev_ns = tm[k].total_ns / t->nr;
			double tick_ns = spanned ? tm[k].tick_ns / spanned : 0;

			printf("time %s.%u events %zu ns_per_event %.1f", sw_replay_time_names[k],
			       hzs[h], t->nr, ev_ns);
			printf(" ticks_spanned %lu ticks_processed %lu", spanned, tm[k].ticks);
			printf(" tick_ns_per_tick %.1f", tick_ns);
			printf(" classic_over_this.event %.2f classic_over_this.tick %.2f\n",
			       sw_ratio(ev_ns, c->total_ns / t->nr),
			       sw_ratio(tick_ns, spanned ? c->tick_ns / spanned : 0));
		}
	}
}

/**
 * sw_replay_tick_cost - print the cost of each tick processed, for plotting
 * @t:		the trace, its events with jiffies (cancels' derived)
 * @timer_of:	per event, its timer's index
 * @nr_timers:	distinct timers
 * @khz:	the trace's HZ
 * @rounds:	replays of each, the least of them counts, tick by tick
 *
 * For each HZ (the trace's, then 1000) and each structure, a block of lines
 * "SECONDS NS", the tick's time from the trace's start and what processing
 * it took, headed by "# tick_cost NAME.HZ"; blocks are apart by two empty
 * lines (gnuplot's index). A wheel's blocks hold only the ticks it
 * processed; the ticks it skipped cost it nothing.
 */
void sw_replay_tick_cost(const struct sw_replay_trace *t, const size_t *timer_of,
			 size_t nr_timers, unsigned int khz, unsigned int rounds)
{
	unsigned int hzs[2] = { khz, 1000 }, h, k;
	struct sw_replay_tick_samples tc = {};

	for (h = 0; h < (khz == 1000 ? 1 : 2); h++) {
		struct sw_timing tm;
		struct sw_hz hz;
		unsigned long clk0;
		size_t i;

		sw_hz_init(&hz, khz, hzs[h]);
		clk0 = sw_hz_clock(&hz, t->evs[0].now);
		for (k = 0; k < ARRAY_SIZE(sw_replay_time_names); k++) {
			sw_replay_time_one(t, timer_of, nr_timers, k, &hz, rounds, &tc, &tm);
			printf("# tick_cost %s.%u\n", sw_replay_time_names[k], hzs[h]);
			for (i = 0; i < tc.nr && i < tc.size; i++)
				printf("%.4f %.0f\n", (double)(tc.c[i].clk - clk0) / hzs[h],
				       tc.c[i].ns);
			printf("\n\n");
		}
	}
	free(tc.c);
}

/**
 * sw_replay_time_geometry - the trace replayed into one wheel alone, timed
 * @t:		the trace, its events with jiffies (cancels' derived)
 * @timer_of:	per event, its timer's index
 * @nr_timers:	distinct timers
 * @geo:	the wheel, at @geo->hz
 * @khz:	the trace's HZ
 *
 * What the wheel itself costs on the trace's timer events, as --time
 * measures it (sw_modify(), sw_cancel(), its ticks with their due timers
 * run), once: none of the mirror's bookkeeping.
 *
 * Return: nanoseconds.
 */
double sw_replay_time_geometry(const struct sw_replay_trace *t, const size_t *timer_of,
			       size_t nr_timers, const struct sw_geometry *geo, unsigned int khz)
{
	struct sw_timer *timers = sw_replay_calloc(nr_timers, sizeof(*timers));
	struct sw_timing m = { 0 };
	struct sw_hz hz;

	sw_hz_init(&hz, khz, geo->hz);
	sw_replay_time_wheel(t, timer_of, timers, nr_timers, geo, &hz, false, &m);
	free(timers);
	return m.total_ns;
}
