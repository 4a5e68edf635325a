/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the softirq differential of one CPU, the kernel wheel's
 * predicted timer softirqs paired with the recorded ones (sw_sirq_diff.c).
 * Fed by the CPUs' model alone (sw_sirq.c): the raises it predicts, the
 * runs and expire_entry events the CPU recorded.
 */
#ifndef _SHADOW_WHEEL_SW_SIRQ_DIFF_H
#define _SHADOW_WHEEL_SW_SIRQ_DIFF_H

#include <linux/types.h>

#include "sw_wheel.h"

/* Recorded softirqs the differential waits on before it calls a prediction missed */
#define SW_SIRQ_WINDOW		4

/* The differential's verdicts on a CPU's softirqs, see sw_sirq_diff.c */
#define SW_SIRQ_VERDICTS SW_LIST(						\
	SW_EM(SW_SIRQ_AGREE, "agree")		/* raised at the tick predicted */ \
	SW_EM(SW_SIRQ_LATE, "late")		/* ran ticks after its raise */	\
	SW_EM(SW_SIRQ_COALESCED, "coalesced")	/* raised again before it ran */ \
	SW_EM(SW_SIRQ_HISTORY, "history")	/* ran a timer from before the trace */ \
	SW_EM(SW_SIRQ_TMIGR, "tmigr")		/* 6.12: global timers taken over */ \
	SW_EM(SW_SIRQ_IDLE_TICK, "idle_tick")	/* the tick kept running in idle */ \
	SW_EM(SW_SIRQ_RERUN, "rerun")		/* raised again while a run was on */ \
	SW_EM(SW_SIRQ_UNMODELLED, "unmodelled")	/* its CPU's model was over budget */ \
	SW_EM(SW_SIRQ_UNPREDICTED, "unpredicted") /* recorded, unexplained */	\
	SW_EM_LAST(SW_SIRQ_MISSED, "missed")	/* predicted, unexplained */)

#define SW_EM(sym, name)	sym,
#define SW_EM_LAST(sym, name)	sym,

enum sw_sirq_verdict {
	SW_SIRQ_VERDICTS
	SW_SIRQ_NR_VERDICTS,
};

#undef SW_EM
#undef SW_EM_LAST

/* sw_sirq_pred::why */
#define SW_SIRQ_WHY_IDLE	0x1U	/* the CPU was idle: a wakeup */
#define SW_SIRQ_WHY_GLOBAL	0x2U	/* only BASE_GLOBAL was due (6.12) */

/**
 * struct sw_sirq_pred - a predicted timer softirq not yet matched
 * @tick:	jiffies of its raise
 * @why:	SW_SIRQ_WHY_*
 */
struct sw_sirq_pred {
	unsigned long	tick;
	unsigned int	why;
};

/**
 * struct sw_sirq_diff - the softirq differential of one CPU
 * @recorded:	softirq_entry events of TIMER_SOFTIRQ
 * @recorded_spurious: of those, the ones whose run had no expire_entry
 * @spurious_paired: of those, the ones paired with a predicted raise
 *		(agree or late): the stale next_expiry the model kept
 * @predicted:	softirqs the kernel wheel's model raised
 * @verdict:	per &enum sw_sirq_verdict
 * @pred:	predictions not yet matched, oldest first
 * @nr_pred:	in @pred
 * @in_run:	between a softirq_entry and its exit
 * @run_matched: that run matched a prediction
 * @run_expiries: expire_entry events in it
 * @run_history: of those, of timers the mirror has no record of
 * @run_remote:	of those, of timers on another CPU's base
 * @run_idle:	the CPU was idle, as modelled, when it began
 * @run_unmodelled: the CPU's model was reset when it began (over budget)
 * @run_rerun:	it began at the jiffies its CPU's previous run began at or
 *		before: if it runs no timer, TIMER_SOFTIRQ was raised
 *		again while that run was pending or running
 * @last_j:	jiffies of the CPU's previous run (the latest it can have
 *		come at), if @have_last
 * @have_last:	a run came before
 * @run_old:	predictions too old for the run when it began, held at the
 *		front of @pred for its first expire_entry: if that ran a
 *		timer due by then (baseclk), the run is theirs, raised by a
 *		tick that came late; else they were missed
 */
struct sw_sirq_diff {
	unsigned long		recorded;
	unsigned long		recorded_spurious;
	unsigned long		spurious_paired;
	unsigned long		predicted;
	unsigned long		verdict[SW_SIRQ_NR_VERDICTS];
	struct sw_sirq_pred	pred[SW_SIRQ_WINDOW];
	unsigned int		nr_pred;
	bool			in_run;
	bool			run_matched;
	unsigned int		run_expiries;
	unsigned int		run_history;
	unsigned int		run_remote;
	bool			run_idle;
	bool			run_unmodelled;
	bool			run_rerun;
	bool			have_last;
	unsigned long		last_j;
	unsigned int		run_old;
};

/**
 * struct sw_sirq_cpu_figures - one CPU's softirq differential, copied out
 * @modelled:	the CPU is in the model's per-CPU storage
 * @followed:	the model follows its ticks (an own event came, and its
 *		model has not run out of an event's budget since)
 * @idle:	it is idle now, as modelled
 * @recorded:	its recorded timer softirqs
 * @recorded_spurious: of those, with no expire_entry
 * @spurious_paired: of those, paired with a predicted raise
 * @predicted:	the kernel wheel's model's
 * @unmatched:	of those, not yet matched nor given up on (the last few)
 * @timers:	the records on its bases, pending or cancelled and undecided
 * @resets:	times its model ran out of an event's budget
 * @ticks:	its ticks observed
 * @verdict:	per &enum sw_sirq_verdict
 */
struct sw_sirq_cpu_figures {
	bool		modelled;
	bool		followed;
	bool		idle;
	unsigned long	recorded;
	unsigned long	recorded_spurious;
	unsigned long	spurious_paired;
	unsigned long	predicted;
	unsigned long	unmatched;
	unsigned long	timers;
	unsigned long	resets;
	unsigned long	ticks;
	unsigned long	verdict[SW_SIRQ_NR_VERDICTS];
};

const char *sw_sirq_verdict_name(enum sw_sirq_verdict v);
void sw_sirq_diff_predict(struct sw_sirq_diff *d, unsigned long tick, unsigned int why);
void sw_sirq_diff_run_begin(struct sw_sirq_diff *d, unsigned long lo, unsigned long j,
			    bool idle, bool modelled);
void sw_sirq_diff_run_end(struct sw_sirq_diff *d);
void sw_sirq_diff_expiry(struct sw_sirq_diff *d, unsigned long baseclk, bool history,
			 bool remote);
void sw_sirq_diff_read(const struct sw_sirq_diff *d, struct sw_sirq_cpu_figures *fig);

#endif /* _SHADOW_WHEEL_SW_SIRQ_DIFF_H */
