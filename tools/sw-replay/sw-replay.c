// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay: the kernel's timer events recorded by trace-cmd, replayed in
 * user space through the mirror's core (core/mirror/sw_mirror.c, unchanged): seed,
 * mainline and classic wheels at the trace's HZ and at 100, 250 and 1000,
 * and any wheel given by a spec (--wheel), with the differential against
 * the kernel's recorded placement and expiry tick, and the same report as
 * the module's mirror/ files (core/mirror/sw_mirror_report.c). docs/replay.rst tells how to use it.
 *
 *   sw-replay [--hz HZ] [--window NS] [--wheel SPEC]... [--raw | --only stats|lateness|diff|top |
 *             --json] [--phases] TRACE.dat
 *   sw-replay [--hz HZ] [--window NS] --sweep GRID [--json] TRACE.dat
 *   sw-replay [--hz HZ] [--window NS] [--exact-next] --check TRACE.dat
 *   sw-replay [--hz HZ] [--window NS] --time [ROUNDS] TRACE.dat
 *   sw-replay [--hz HZ] [--window NS] --tick-cost [ROUNDS] TRACE.dat
 *
 * By default it prints the summary, every wheel side by side (as
 * mirror/summary); --raw the sections of the key-value report (as the
 * mirror/ files stats, lateness, diff, top), --only one of them; --json
 * the same report as one JSON document (sw_replay_json.c).
 * HZ is inferred from the trace (jiffies against timestamps) unless given.
 * The CPUs' events are put in an order the kernel can have produced
 * (sw_replay_order.c): events of other CPUs up to NS apart (default
 * SW_ORDER_WINDOW_NS) may be taken out of timestamp order for it.
 * timer_cancel carries no jiffies: a cancel takes those of the next event
 * in the trace that carries them (any CPU), or of the last one before it
 * at the end of the trace; so do a CPU's own events (its timer softirq,
 * its idle; an idle entry or exit, those of the event before it). Each
 * CPU's timer softirqs are predicted from its bases' next_expiry
 * (core/mirror/sw_sirq.c) and, where the trace
 * recorded them, compared with the recorded ones; where it did not, the
 * replay says so. --exact-next turns the model's stale-next_expiry rule
 * off, a model the differential must reject.
 * --phases prints on stderr, after the report, the wall time of each
 * step: reading the trace, the timers' index, the order, the mirror's
 * setup, the replay through it, the report.
 * --check tests the replay (docs/replay.rst) and
 * prints "replay: TRACE: P passed, F failed". --time times the replay into
 * each wheel and the heap alone (sw_replay_time.c), best of ROUNDS (10).
 * --tick-cost prints the cost of each tick processed by each of them at
 * the trace's HZ and at 1000, the least of ROUNDS (5), for plotting.
 * --wheel SPEC (repeatable) adds a wheel of that geometry (sw_geometry_parse(),
 * the trace's HZ unless the spec gives one) to the default ones; a bad
 * spec exits 2 with the parser's message. --sweep GRID replays the trace
 * through every geometry of GRID (a file of specs, or the range syntax of
 * sw_replay_grid.c), in passes of the mirror of the kernel's wheel and up
 * to 15 of them, on the events read once, and prints a row per geometry:
 * lateness p50/p99, the share later than a tenth of their timeout,
 * softirqs/s and the spurious share, idle wakeups/s, cascades/s, and the
 * wheel's own CPU time per second of trace; --json the same as JSON.
 *
 * Exit status: 0, 1 if a check failed, 2 for bad usage or input.
 *
 * This file reads the command line (sw_replay_options.c), reads and
 * orders the trace (sw_replay_run.c) and hands it to the mode: the
 * sweep (sw_replay_sweep.c), the timing (sw_replay_time.c), or the
 * replay (sw_replay_run.c), then its check (sw_replay_check.c) or its
 * report (sw_replay_report.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/kernel.h>

#include "sw_replay_check.h"
#include "sw_replay_exit.h"
#include "sw_replay_options.h"
#include "sw_replay_report.h"
#include "sw_replay_run.h"
#include "sw_replay_sweep.h"
#include "sw_replay_time.h"

/*
 * --phases: where the replay's wall time went, on stderr: @ph the clock at
 * the reading's start, after it, after the timers' index, after the order
 * (and the jiffies derived), after the mirror's setup, after the replay,
 * after the report
 */
static void sw_replay_phases(const double *ph, size_t nr)
{
	static const char * const names[] = {
		"read", "index", "order", "setup", "mirror", "report",
	};
	unsigned int i;

	fprintf(stderr, "phases events %zu", nr);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		fprintf(stderr, " %s_s %.3f", names[i], ph[i + 1] - ph[i]);
	fprintf(stderr, " total_s %.3f events_per_s %.0f\n", ph[6] - ph[0],
		nr / (ph[6] - ph[0]));
}

/*
 * --time or --tick-cost: the order timed again, then the wheels and the
 * heap on the timer events alone (sw_replay_time.c), best of @rounds
 */
static void sw_replay_timing(struct sw_replay *rp, unsigned int rounds, bool tick_cost)
{
	struct sw_replay_trace *t = &rp->in.t;
	struct sw_replay_order again = rp->order;
	size_t *timer_of = rp->in.timer_of;
	double best = rp->order.ns;
	size_t j, n = 0;

	/* The events in order already: each round merges the same streams again */
	for (j = 1; j < rounds; j++) {
		sw_replay_order(t, timer_of, rp->in.timers.nr, &again);
		best = again.ns < best ? again.ns : best;
	}
	printf("time order events %zu ns_per_event %.1f\n", t->nr, best / t->nr);
	/* The structures are timed on the timer events alone */
	for (j = 0; j < t->nr; j++) {
		if (!sw_ev_of_cpu(t->evs[j].type)) {
			timer_of[n] = timer_of[j];
			t->evs[n++] = t->evs[j];
		}
	}
	t->nr = n;
	if (tick_cost)
		sw_replay_tick_cost(t, timer_of, rp->in.timers.nr, rp->in.hz, rounds);
	else
		sw_replay_time(t, timer_of, rp->in.timers.nr, rp->in.hz, rounds);
}

int main(int argc, char **argv)
{
	struct sw_geometry wheel_geos[SW_MIRROR_MAX_WHEELS];
	struct sw_replay_options o;
	struct sw_replay rp = { 0 };
	struct sw_mirror_report *rep;
	char why[128];
	double ph[7];

	sw_replay_options_parse(&o, argc, argv);
	rp.order.window = o.window;
	rp.in.hz = o.hz;
	rp.hz_given = o.hz_given;
	rp.in.exact_next = o.exact_next;
	ph[0] = sw_replay_now_s();
	sw_replay_read(&rp, o.path, why, sizeof(why));
	ph[1] = sw_replay_now_s();
	sw_replay_index(&rp);
	ph[2] = sw_replay_now_s();
	sw_replay_prepare(&rp);
	ph[3] = sw_replay_now_s();
	if (o.sweep) {
		sw_replay_sweep(&rp, &o.grid, o.path, o.show == SW_SHOW_JSON);
		sw_grid_free(&o.grid);
		return 0;
	}
	sw_replay_options_wheels(&o, rp.in.hz, wheel_geos);
	rp.geos = wheel_geos;
	rp.nr_geos = o.nr_wheel_specs;
	sw_replay_setup(&rp);
	ph[4] = sw_replay_now_s();
	if (o.show != SW_SHOW_JSON)
		sw_replay_report_trace(&rp, o.path, why);
	if (o.time_rounds) {
		sw_replay_timing(&rp, o.time_rounds, o.tick_cost);
		return 0;
	}
	sw_replay_run(&rp);
	ph[5] = sw_replay_now_s();
	rep = sw_replay_calloc(1, sizeof(*rep));
	sw_replay_take(&rp, rep, true);
	if (o.check)
		return sw_replay_check(&rp, rep, o.path) ? 1 : 0;
	if (o.show == SW_SHOW_JSON)
		sw_replay_report_json(&rp, rep, o.path, why);
	else
		sw_replay_report(&rp, rep, o.show);
	if (o.phases) {
		fflush(stdout);
		ph[6] = sw_replay_now_s();
		sw_replay_phases(ph, rp.in.t.nr);
	}
	return 0;
}
