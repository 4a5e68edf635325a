// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the softirq differential of one CPU.
 *
 * The kernel wheel's predicted softirqs against the
 * softirq_entry events of TIMER_SOFTIRQ the CPU recorded. A recorded run
 * at jiffy j takes the predictions up to j: the one at j agrees; failing
 * that, the latest one ran late (the softirq went to ksoftirqd, or waited
 * for interrupts to come back on, or the CPU's tick itself came late);
 * the others were raised again while a raise was pending (coalesced). A
 * trace's run that ran no timer is known only to lie between the events
 * around it, jiffies lo to j: it takes the predictions up to lo, failing
 * those the first one up to j, which agrees; a later one is the next
 * run's. A prediction that no run took within %SW_SIRQ_WINDOW ticks was
 * missed, unless the next run's first timer was due by then (its baseclk,
 * the base's clock __run_timers() had caught up from): under emulation a
 * CPU's tick comes many ticks late, jiffies having advanced by several
 * at once (tick_do_update_jiffies64()), and that run is the raise, late,
 * the ones before it coalesced into it.
 * A missed one on an idle 6.12 CPU whose only due base was BASE_GLOBAL
 * was the timer migration hierarchy's (tmigr): another CPU ran those
 * timers. A recorded run nothing predicted ran a timer from before the
 * trace (history, whose base the model could not know), or on 6.12
 * another CPU's global timers (tmigr, tmigr_handle_remote()), or ran
 * none and came at the jiffies of the CPU's previous run (rerun:
 * TIMER_SOFTIRQ raised again while that run was pending or running, and
 * run again by handle_softirqs()'s restart or by ksoftirqd, the bases
 * recomputed by then; under emulation a late tick's successor comes
 * early, tick_sched_timer() forwarding it to the next period, and can
 * land inside the run), or came while the model had the CPU idle
 * (idle_tick: the tick was not stopped, tick_nohz_idle_stop_tick() keeps
 * it when the next event is a tick away or RCU needs the CPU); else it is
 * unpredicted.
 *
 * The CPUs' model (sw_sirq.c) feeds it: sw_sirq_diff_predict() for each
 * raise the kernel wheel's model makes, sw_sirq_diff_run_begin() and
 * sw_sirq_diff_run_end() for a recorded softirq_entry and softirq_exit,
 * sw_sirq_diff_expiry() for each expire_entry in between.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "sw_sirq_diff.h"

/**
 * sw_sirq_verdict_name - the name of a verdict of the softirq differential
 * @v:		the verdict
 *
 * Return: its name, as mirror/stats prints it (softirq.NAME).
 */
const char *sw_sirq_verdict_name(enum sw_sirq_verdict v)
{
/* In the order of the enum: the same list */
#define SW_EM(sym, name)	name,
#define SW_EM_LAST(sym, name)	name
	static const char * const names[SW_SIRQ_NR_VERDICTS] = { SW_SIRQ_VERDICTS };
#undef SW_EM
#undef SW_EM_LAST

	return v < SW_SIRQ_NR_VERDICTS ? names[v] : "?";
}

/* A prediction no run took: missed, or on 6.12 taken over by the hierarchy */
static void sw_sirq_unmatched(struct sw_sirq_diff *d, const struct sw_sirq_pred *p)
{
	bool tmigr = (p->why & SW_SIRQ_WHY_IDLE) && (p->why & SW_SIRQ_WHY_GLOBAL);

	d->verdict[tmigr ? SW_SIRQ_TMIGR : SW_SIRQ_MISSED]++;
}

/* Drop @n predictions from the @at-th on */
static void sw_sirq_drop(struct sw_sirq_diff *d, unsigned int at, unsigned int n)
{
	memmove(d->pred + at, d->pred + at + n, (d->nr_pred - at - n) * sizeof(*d->pred));
	d->nr_pred -= n;
}

/*
 * The run in progress takes the @n predictions from the @at-th on: the
 * last is its raise, verdict @v, the others were raised again while it was
 * pending; all of them, if the run had its raise already
 */
static void sw_sirq_take(struct sw_sirq_diff *d, unsigned int at, unsigned int n,
			 enum sw_sirq_verdict v)
{
	unsigned int i;

	for (i = 0; i + 1 < n; i++)
		d->verdict[SW_SIRQ_COALESCED]++;
	d->verdict[d->run_matched ? SW_SIRQ_COALESCED : v]++;
	d->run_matched = true;
	sw_sirq_drop(d, at, n);
}

/*
 * The first expire_entry of a run that came more than %SW_SIRQ_WINDOW
 * ticks after predictions it did not take: a timer due at @baseclk, the
 * tick its base's clock had when it ran it. The CPU's tick came late (an
 * emulated CPU that did not run; jiffies had advanced by several ticks,
 * tick_do_update_jiffies64()) and __run_timers() caught the base's clock
 * up from there: if a prediction held was at @baseclk or after, the run
 * was that raise, late, and the older ones, which no run took in between,
 * were raised by ticks that did not come either: coalesced into it. If
 * all were before @baseclk, they were missed (sw_sirq_run_old()).
 */
static void sw_sirq_late_tick(struct sw_sirq_diff *d, unsigned long baseclk)
{
	if (!d->run_old || sw_time_before(d->pred[d->run_old - 1].tick, baseclk))
		return;
	sw_sirq_take(d, 0, d->run_old, SW_SIRQ_LATE);
	d->run_old = 0;
}

/* The held predictions no expire_entry of the run took: missed */
static void sw_sirq_run_old(struct sw_sirq_diff *d)
{
	unsigned int i;

	for (i = 0; i < d->run_old; i++)
		sw_sirq_unmatched(d, &d->pred[i]);
	sw_sirq_drop(d, 0, d->run_old);
	d->run_old = 0;
}

/**
 * sw_sirq_diff_predict - the kernel wheel's model raised a softirq
 * @d:		the CPU's differential
 * @tick:	jiffies of the raise
 * @why:	SW_SIRQ_WHY_*
 */
void sw_sirq_diff_predict(struct sw_sirq_diff *d, unsigned long tick, unsigned int why)
{
	d->predicted++;
	if (d->nr_pred == SW_SIRQ_WINDOW) {
		sw_sirq_unmatched(d, &d->pred[0]);
		sw_sirq_drop(d, 0, 1);
		if (d->run_old)
			d->run_old--;
	}
	d->pred[d->nr_pred++] = (struct sw_sirq_pred){ .tick = tick, .why = why };
}

/**
 * sw_sirq_diff_run_begin - a softirq_entry of TIMER_SOFTIRQ
 * @d:		the CPU's differential
 * @lo:		the earliest jiffies it can have come at (a trace's run that
 *		ran no timer is known only to have come between the events
 *		around it)
 * @j:		the latest
 * @idle:	the CPU was idle, as modelled
 * @modelled:	the model followed the CPU: its predictions hold
 *
 * The run takes the predictions up to @lo, failing those the first one up
 * to @j. The ones more than %SW_SIRQ_WINDOW ticks before @lo are held for
 * its first expire_entry (sw_sirq_late_tick()).
 */
void sw_sirq_diff_run_begin(struct sw_sirq_diff *d, unsigned long lo, unsigned long j,
			    bool idle, bool modelled)
{
	unsigned int n = 0, k;

	d->recorded++;
	d->in_run = true;
	d->run_expiries = 0;
	d->run_history = 0;
	d->run_remote = 0;
	d->run_idle = idle;
	d->run_matched = false;
	d->run_old = 0;
	d->run_rerun = d->have_last && !sw_time_after(lo, d->last_j);
	d->have_last = true;
	d->last_j = j;
	d->run_unmodelled = !modelled;
	if (d->run_unmodelled)
		return;
	while (n < d->nr_pred && sw_time_before(d->pred[n].tick, lo - SW_SIRQ_WINDOW))
		n++;
	d->run_old = n;
	for (k = n; k < d->nr_pred && !sw_time_after(d->pred[k].tick, lo); k++)
		;
	if (k == n && k < d->nr_pred && !sw_time_after(d->pred[k].tick, j))
		k++;
	/* Raised at a tick it can have run at, or before */
	if (k > n)
		sw_sirq_take(d, n, k - n, sw_time_before(d->pred[k - 1].tick, lo) ?
			     SW_SIRQ_LATE : SW_SIRQ_AGREE);
}

/**
 * sw_sirq_diff_run_end - the run's softirq_exit, or the next softirq_entry
 *	(its exit lost): a run nothing predicted is told by what it ran
 * @d:		the CPU's differential
 */
void sw_sirq_diff_run_end(struct sw_sirq_diff *d)
{
	if (!d->in_run)
		return;
	d->in_run = false;
	sw_sirq_run_old(d);
	if (!d->run_expiries) {
		d->recorded_spurious++;
		d->spurious_paired += d->run_matched;
	}
	if (d->run_matched)
		return;
	if (d->run_unmodelled)
		d->verdict[SW_SIRQ_UNMODELLED]++;
	else if (d->run_history)
		d->verdict[SW_SIRQ_HISTORY]++;
	else if (d->run_remote)
		d->verdict[SW_SIRQ_TMIGR]++;
	else if (d->run_rerun && !d->run_expiries)
		d->verdict[SW_SIRQ_RERUN]++;
	else if (d->run_idle)
		d->verdict[SW_SIRQ_IDLE_TICK]++;
	else
		d->verdict[SW_SIRQ_UNPREDICTED]++;
}

/**
 * sw_sirq_diff_expiry - an expire_entry: counted in the CPU's run, if one is on
 * @d:		the CPU's differential
 * @baseclk:	the tick its base ran it at
 * @history:	the mirror has no record of its timer
 * @remote:	its timer was on another CPU's base
 */
void sw_sirq_diff_expiry(struct sw_sirq_diff *d, unsigned long baseclk, bool history,
			 bool remote)
{
	if (!d->in_run)
		return;
	if (!d->run_expiries++ && d->run_old)
		sw_sirq_late_tick(d, baseclk);
	if (history)
		d->run_history++;
	else if (remote)
		d->run_remote++;
}

/**
 * sw_sirq_diff_read - the differential's part of a CPU's figures
 * @d:		the CPU's differential
 * @fig:	gets its counts and verdicts; the rest is left as it is
 */
void sw_sirq_diff_read(const struct sw_sirq_diff *d, struct sw_sirq_cpu_figures *fig)
{
	fig->recorded = d->recorded;
	fig->recorded_spurious = d->recorded_spurious;
	fig->spurious_paired = d->spurious_paired;
	fig->predicted = d->predicted;
	fig->unmatched = d->nr_pred;
	memcpy(fig->verdict, d->verdict, sizeof(fig->verdict));
}
