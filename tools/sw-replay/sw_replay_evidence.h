/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sw-replay: the evidence in the trace for the differential's explanations
 * (sw_replay_evidence.c)
 */
#ifndef _SW_REPLAY_EVIDENCE_H
#define _SW_REPLAY_EVIDENCE_H

#include <linux/types.h>

#include "sw_diff.h"

/* Distinct ticks a base remembers as its possible next_expiry */
#define SW_EVIDENCE_TICKS	256
/* The kernel's timer bases per CPU: 6.1 standard and deferrable; 6.12 local, global, deferrable */
#define SW_EVIDENCE_KINDS	3

/**
 * struct sw_evidence_base - what the trace tells of one of the kernel's bases
 * @tick:	ticks of timers queued on it since it last ran them: what its
 *		next_expiry may be (detaching a timer leaves next_expiry as it was)
 * @nr:		ticks in @tick
 * @ran:	the last tick it was seen to run (an expire_entry's baseclk)
 * @has_ran:	@ran is known
 */
struct sw_evidence_base {
	unsigned long	tick[SW_EVIDENCE_TICKS];
	unsigned int	nr;
	unsigned long	ran;
	bool		has_ran;
};

/* A clk_behind placement no tick of the trace showed as it came */
struct sw_evidence_unshown {
	unsigned int		cpu;
	size_t			seq;
	unsigned long		expires;
	unsigned long		now;
	struct sw_diff_kernel	k;
};

/* An expire_entry of a timer the trace never saw started */
struct sw_evidence_untracked {
	unsigned int	cpu;
	size_t		seq;
	unsigned long	baseclk;
};

/**
 * struct sw_evidence - the trace's evidence, base by base
 * @geo:	mainline at the kernel's HZ
 * @nr_cpus:	CPUs
 * @bases:	@nr_cpus * %SW_EVIDENCE_KINDS
 * @behind:	clk_behind placements, and of them @behind_shown shown by a
 *		tick of the base's that was due: forward_timer_base() stops
 *		base->clk at base->next_expiry
 * @behind_shown: see @behind
 * @behind_history: of the rest, those shown by a timer from before the trace
 *		began: a later expire_entry on the same CPU, of a timer never
 *		started in the trace, whose baseclk, before jiffies, places the
 *		timer where the kernel did
 * @unshown:	the clk_behind placements no tick showed as they came, until
 *		sw_evidence_history() weighs them
 * @nr_unshown:	entries in @unshown
 * @ahead:	clk_ahead placements, and of them @ahead_shown shown by the
 *		base having run the tick of jiffies: __run_timers() leaves
 *		base->clk at jiffies + 1
 * @ahead_shown: see @ahead
 */
struct sw_evidence {
	const struct sw_geometry	*geo;
	unsigned int			nr_cpus;
	struct sw_evidence_base		*bases;
	unsigned long			behind;
	unsigned long			behind_shown;
	unsigned long			behind_history;
	struct sw_evidence_unshown	*unshown;
	size_t				nr_unshown;
	unsigned long			ahead;
	unsigned long			ahead_shown;
};

unsigned int sw_evidence_base_of(const struct sw_evidence *e, u32 tflags, bool v612);
void sw_evidence_queued(struct sw_evidence *e, unsigned int base, unsigned long tick);
void sw_evidence_ran(struct sw_evidence *e, unsigned int base, unsigned long baseclk);
bool sw_evidence_placed(struct sw_evidence *e, unsigned int base, enum sw_diff_reason reason,
			unsigned long expires, unsigned long now,
			const struct sw_diff_kernel *k);
void sw_evidence_history(struct sw_evidence *e, const struct sw_evidence_untracked *u,
			 size_t nr);

#endif /* _SW_REPLAY_EVIDENCE_H */
