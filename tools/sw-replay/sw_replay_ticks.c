// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay: the jiffies each of the CPUs' recorded ticks saw.
 *
 * A tick's event (hrtimer_expire_entry of the tick's hrtimer, %SW_EV_TICK)
 * carries the time it ran at, ns of CLOCK_MONOTONIC, not jiffies. Jiffies
 * count whole tick periods of that clock: tick_do_update_jiffies64() moves
 * them by TICK_NSEC at a time from a start that tick_init_jiffy_update()
 * aligns to one, so in tick period k (time / TICK_NSEC) jiffies are k plus
 * an offset that holds for the whole trace, once the period's update is
 * done. The offset is the one most ticks agree on: for each tick whose
 * softirq ran a timer before the CPU's next tick, the jiffies of that
 * expire_entry less the tick's period.
 *
 * The update is done by one CPU's tick (tick_do_timer_cpu): another CPU's
 * tick of the same period whose run_local_timers() comes before that
 * update still sees the jiffies of the period before. The ticks are taken
 * as if none did: on a 6.18 guest of two vCPUs under KVM, the ticks that
 * saw the old jiffies ran 0.6 us or more before the keeper's, but as many
 * that ran that far before it saw the new ones (docs/replay.rst).
 */
#include <stdlib.h>
#include <string.h>

#include "sw_replay_exit.h"
#include "sw_replay_ticks.h"

/* Offsets told apart */
#define SW_TICK_OFFSETS	8

/* The offset of jiffies from the period number most ticks agree on; false if none ran a timer */
static bool sw_ticks_offset(const struct sw_replay_trace *t, struct sw_replay_ticks *tk)
{
	unsigned long long *last = sw_replay_calloc(t->nr_cpus + 1, sizeof(*last));
	unsigned long offset[SW_TICK_OFFSETS], count[SW_TICK_OFFSETS] = { 0 };
	bool *open = sw_replay_calloc(t->nr_cpus + 1, sizeof(*open));
	unsigned int i, best = 0;
	size_t k;

	for (k = 0; k < t->nr; k++) {
		const struct sw_replay_ev *ev = &t->evs[k];
		unsigned int cpu = ev->cpu < t->nr_cpus ? ev->cpu : t->nr_cpus;
		unsigned long o;

		if (ev->type == SW_EV_TICK) {
			last[cpu] = ev->kclk / tk->period;
			open[cpu] = true;
		}
		if (ev->type != SW_EV_EXPIRE || !open[cpu] || !(ev->have & SW_RE_NOW))
			continue;
		open[cpu] = false;
		tk->votes++;
		o = ev->now - (unsigned long)last[cpu];
		for (i = 0; i < SW_TICK_OFFSETS && count[i] && offset[i] != o; i++)
			;
		if (i < SW_TICK_OFFSETS) {
			offset[i] = o;
			count[i]++;
		}
	}
	free(last);
	free(open);
	for (i = 1; i < SW_TICK_OFFSETS; i++) {
		if (count[i] > count[best])
			best = i;
	}
	tk->offset = offset[best];
	tk->offset_votes = count[best];
	return count[best];
}

/* Each tick's jiffies: its period's */
static void sw_ticks_assign(struct sw_replay_trace *t, const struct sw_replay_ticks *tk)
{
	size_t k;

	for (k = 0; k < t->nr; k++) {
		struct sw_replay_ev *ev = &t->evs[k];

		if (ev->type != SW_EV_TICK)
			continue;
		ev->now = ev->kclk / tk->period + tk->offset;
		ev->have |= SW_RE_NOW;
	}
}

/**
 * sw_replay_tick_jiffies - the jiffies each recorded tick saw
 * @t:		the trace, its events in the kernel's order, jiffies derived
 *		for the others
 * @hz:		the trace's HZ
 * @tk:		gets how they were derived
 *
 * Return: true, each %SW_EV_TICK with its jiffies in @now (%SW_RE_NOW);
 * false, and none, if no tick's softirq ran a timer to tell the offset.
 */
bool sw_replay_tick_jiffies(struct sw_replay_trace *t, unsigned int hz,
			    struct sw_replay_ticks *tk)
{
	memset(tk, 0, sizeof(*tk));
	tk->period = (1000000000ULL + hz / 2) / hz;
	if (!t->nr_ticks || !sw_ticks_offset(t, tk))
		return false;
	sw_ticks_assign(t, tk);
	return true;
}
