// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay: the evidence in the trace for the differential's explanations
 * (core/mirror/sw_diff.c). The differential names, for a placement the mirror's
 * wheel did not make as the kernel did, a clock of the kernel's base that
 * would have made it; the replay checks here that the trace shows the
 * kernel's base at such a clock, by the behaviour the name stands for:
 *
 *  clk_behind	forward_timer_base() moves base->clk to jiffies only when
 *		base->next_expiry is later; otherwise to next_expiry, the tick
 *		of a timer queued on the base and not run yet (or detached
 *		since: detaching leaves next_expiry as it was). Shown if a
 *		tick of a timer queued on the same base since it last ran,
 *		before jiffies, places the timer where the kernel did.
 *  clk_ahead	__run_timers() leaves base->clk at jiffies + 1 once it has
 *		run the tick of jiffies. Shown if the base's last expiry was
 *		at the tick of jiffies.
 *
 * A base is a CPU's standard or deferrable base (6.1), or its local,
 * global or deferrable one (6.12: pinned timers go to the local base).
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "sw_replay_evidence.h"

/**
 * sw_evidence_base_of - the kernel's base a timer is queued on
 * @e:		the evidence
 * @tflags:	the timer's flags
 * @v612:	the trace has 6.12's bases (its timer_start says bucket_expiry)
 *
 * Return: the base's index in @e->bases.
 */
unsigned int sw_evidence_base_of(const struct sw_evidence *e, u32 tflags, bool v612)
{
	unsigned int cpu = sw_ktimer_cpu(tflags) % e->nr_cpus, kind = 0;

	if (tflags & SW_KTIMER_DEFERRABLE)
		kind = 2;
	else if (v612 && (tflags & SW_KTIMER_PINNED))
		kind = 1;
	return cpu * SW_EVIDENCE_KINDS + kind;
}

/* A timer was queued on @base to run at @tick; the oldest tick goes when full */
void sw_evidence_queued(struct sw_evidence *e, unsigned int base, unsigned long tick)
{
	struct sw_evidence_base *b = &e->bases[base];
	unsigned int i;

	/* A timer requeued again and again keeps its tick: once is enough */
	for (i = 0; i < b->nr; i++) {
		if (b->tick[i] == tick)
			return;
	}
	if (b->nr == SW_EVIDENCE_TICKS) {
		memmove(b->tick, b->tick + 1, (SW_EVIDENCE_TICKS - 1) * sizeof(b->tick[0]));
		b->nr--;
	}
	b->tick[b->nr++] = tick;
}

/* @base ran its tick @baseclk: no tick up to it can be its next_expiry now */
void sw_evidence_ran(struct sw_evidence *e, unsigned int base, unsigned long baseclk)
{
	struct sw_evidence_base *b = &e->bases[base];
	unsigned int i, n = 0;

	for (i = 0; i < b->nr; i++) {
		if (sw_time_after(b->tick[i], baseclk))
			b->tick[n++] = b->tick[i];
	}
	b->nr = n;
	b->ran = baseclk;
	b->has_ran = true;
}

/**
 * sw_evidence_placed - weigh a placement's explanation
 * @e:		the evidence
 * @base:	the base the timer went to
 * @reason:	the differential's reason
 * @expires:	the timer's expiry
 * @now:	jiffies
 * @k:		the kernel's placement
 *
 * Return: false for a clk_behind placement the trace does not show; the
 * caller notes it in @e->unshown.
 */
bool sw_evidence_placed(struct sw_evidence *e, unsigned int base, enum sw_diff_reason reason,
			unsigned long expires, unsigned long now,
			const struct sw_diff_kernel *k)
{
	struct sw_evidence_base *b = &e->bases[base];
	struct sw_place place;
	unsigned int i;

	if (reason == SW_DIFF_CLK_AHEAD) {
		e->ahead++;
		e->ahead_shown += b->has_ran && b->ran == now;
		return true;
	}
	if (reason != SW_DIFF_CLK_BEHIND)
		return true;
	e->behind++;
	for (i = 0; i < b->nr; i++) {
		if (!sw_time_before(b->tick[i], now))
			continue;
		sw_wheel_place(e->geo, b->tick[i], expires, 0, &place);
		if (sw_diff_same(&place, k)) {
			e->behind_shown++;
			return true;
		}
	}
	return false;
}

/**
 * sw_evidence_history - weigh the clk_behind placements no tick showed as
 *	they came, against the expiries of timers from before the trace
 * @e:		the evidence
 * @u:		the expire_entry events of timers never started in the
 *		trace, in the trace's order
 * @nr:		entries in @u
 */
void sw_evidence_history(struct sw_evidence *e, const struct sw_evidence_untracked *u,
			 size_t nr)
{
	struct sw_place place;
	size_t i, j;

	for (i = 0; i < e->nr_unshown; i++) {
		const struct sw_evidence_unshown *p = &e->unshown[i];

		for (j = 0; j < nr; j++) {
			if (u[j].seq < p->seq || u[j].cpu != p->cpu ||
			    !sw_time_before(u[j].baseclk, p->now))
				continue;
			sw_wheel_place(e->geo, u[j].baseclk, p->expires, 0, &place);
			if (sw_diff_same(&place, &p->k)) {
				e->behind_history++;
				break;
			}
		}
	}
}
