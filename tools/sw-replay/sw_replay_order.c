// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay: the trace's events, read in timestamp order (libtracecmd
 * merges the CPUs' streams by timestamp, the lower CPU first on a tie),
 * put in an order the kernel can have produced: each CPU's events in
 * their own order, merged by core/merge/sw_order.c, which keeps the
 * timestamps' order unless a timer's events would come in a sequence the
 * kernel cannot produce (docs/design.rst, "Order from causality"). Events
 * of no timer (an event of its CPU alone) keep their CPU's order and
 * their place in time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/kernel.h>

#include "sw_order.h"
#include "sw_replay_exit.h"
#include "sw_replay_order.h"

/* The merge's view of a trace event */
static void sw_replay_order_view(const struct sw_replay_ev *re, struct sw_order_timer *timer,
				 struct sw_order_ev *oe)
{
	memset(oe, 0, sizeof(*oe));
	oe->ts = re->ts;
	oe->now = re->now;
	oe->has_now = re->have & SW_RE_NOW;
	oe->type = re->type;
	if (sw_ev_of_cpu(re->type))
		return;
	oe->timer = timer;
	/* A start's bucket runs at its tick (6.8 on: said), never before its expiry */
	if (re->type == SW_EV_START)
		oe->tick = re->have & SW_EVF_BUCKET ? re->kclk : re->expires;
	else if (re->type == SW_EV_EXPIRE)
		oe->tick = re->kclk;
}

/* Event i takes the place of event @perm[i], in place; @perm is used up */
static void sw_replay_order_permute(struct sw_replay_trace *t, size_t *timer_of, size_t *perm)
{
	size_t i, j, k;

	for (i = 0; i < t->nr; i++) {
		struct sw_replay_ev ev = t->evs[i];
		size_t ti = timer_of[i];

		/* Around the cycle through i, each place filled from the next */
		for (j = i; perm[j] != SIZE_MAX; j = k) {
			k = perm[j];
			perm[j] = SIZE_MAX;
			if (k == i) {
				t->evs[j] = ev;
				timer_of[j] = ti;
				break;
			}
			t->evs[j] = t->evs[k];
			timer_of[j] = timer_of[k];
		}
	}
}

/**
 * sw_replay_order - put the trace's events in an order the kernel can have produced
 * @t:		the trace, its events in timestamp order; reordered in place
 * @timer_of:	per event, its timer's index; reordered with the events
 * @nr_timers:	distinct timers
 * @ro:		@window given; the rest filled in
 */
void sw_replay_order(struct sw_replay_trace *t, size_t *timer_of, size_t nr_timers,
		     struct sw_replay_order *ro)
{
	unsigned int nr_cpus = 1, nr_streams = 0, c;
	struct sw_order_cpu *cpu, *streams;
	struct sw_order_timer *timers;
	struct sw_order_ev *oev;
	size_t i, n, *at, *from, *perm;
	struct timespec a, b;
	struct sw_order o;
	int next;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < t->nr; i++) {
		if (t->evs[i].cpu + 1U > nr_cpus)
			nr_cpus = t->evs[i].cpu + 1U;
	}
	timers = sw_replay_calloc(nr_timers + 1, sizeof(*timers));
	oev = sw_replay_calloc(t->nr + 1, sizeof(*oev));
	from = sw_replay_calloc(t->nr + 1, sizeof(*from));
	perm = sw_replay_calloc(t->nr + 1, sizeof(*perm));
	cpu = sw_replay_calloc(nr_cpus, sizeof(*cpu));
	streams = sw_replay_calloc(nr_cpus, sizeof(*streams));
	at = sw_replay_calloc(nr_cpus, sizeof(*at));
	/*
	 * Each CPU's events together, in their order: CPU c's from at[c] on;
	 * a stream for each CPU that has any, in the CPUs' order
	 */
	for (i = 0; i < t->nr; i++)
		cpu[t->evs[i].cpu].nr++;
	for (c = 0, n = 0; c < nr_cpus; c++) {
		at[c] = n;
		if (cpu[c].nr) {
			streams[nr_streams].ev = &oev[n];
			streams[nr_streams++].nr = cpu[c].nr;
		}
		n += cpu[c].nr;
		cpu[c].nr = 0;
	}
	for (i = 0; i < t->nr; i++) {
		const struct sw_replay_ev *re = &t->evs[i];
		size_t k = at[re->cpu] + cpu[re->cpu].nr++;

		sw_replay_order_view(re, &timers[timer_of[i]], &oev[k]);
		from[k] = i;
	}
	for (c = 0; c < nr_cpus; c++)
		sw_order_mark(&oev[at[c]], cpu[c].nr);

	sw_order_init(&o, streams, nr_streams, ro->window);
	for (i = 0; (next = sw_order_next(&o)) >= 0; i++)
		perm[i] = from[streams[next].ev - oev + streams[next].pos - 1];
	sw_replay_order_permute(t, timer_of, perm);
	ro->ties = o.ties;
	ro->moved = o.moved;
	ro->broken = o.broken;
	free(timers);
	free(oev);
	free(from);
	free(perm);
	free(cpu);
	free(streams);
	free(at);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ro->ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
}
