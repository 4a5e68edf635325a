// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay --check: the replay tested (docs/replay.rst), a line per check,
 * "replay: TRACE: ok|FAILED WHAT", and the totals, "replay: TRACE: P
 * passed, F failed". What the trace recorded must be complete and in an
 * order the kernel can produce, the mirror's books must balance, the
 * kernel's wheel must explain every placement and expiry tick the kernel
 * recorded, every wheel must keep its contract, and the kernel's
 * stale-next_expiry rule must pair more of the timer softirqs that ran no
 * timer than the exact rule does in a second replay of the same events,
 * unless the trace cannot tell the two apart ("skipped", counted neither
 * passed nor failed).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/kernel.h>

#include "sw_replay_check.h"
#include "sw_replay_exit.h"

/* --check: one line per check, and the totals */
struct sw_checks {
	const char	*trace;
	unsigned int	passed;
	unsigned int	failed;
};

static __printf(3, 4) void sw_check(struct sw_checks *c, bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("replay: %s: %s ", c->trace, ok ? "ok" : "FAILED");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (ok)
		c->passed++;
	else
		c->failed++;
}

/* A check this trace cannot decide: said, counted neither passed nor failed */
static __printf(2, 3) void sw_check_skipped(struct sw_checks *c, const char *fmt, ...)
{
	va_list ap;

	printf("replay: %s: skipped ", c->trace);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Of the softirq differential's verdicts, the share (per mille) of @v's */
static unsigned long sw_replay_check_share(const struct sw_mirror_report *rep, unsigned long v)
{
	unsigned long all = 0;
	unsigned int i;

	for (i = 0; i < SW_SIRQ_NR_VERDICTS; i++)
		all += rep->fig.softirq[i];
	return all ? v * 1000 / all : 1000;
}

/*
 * Why this trace cannot decide between the kernel's stale next_expiry and
 * the exact one, or NULL if it can: of the @runs recorded runs of the timer
 * softirq that ran no timer, each model paired @sp and @sp_alt with a
 * raise. Where the counts are equal and are none or all of the runs, no
 * run is paired by one model alone: nothing tells the two apart. Equal
 * counts of some of the runs may be different runs: undecided, not
 * undecidable.
 */
static const char *sw_replay_check_undecidable(unsigned long runs, unsigned long sp,
					       unsigned long sp_alt)
{
	if (sp != sp_alt)
		return NULL;
	if (!runs)
		return "every recorded run of the timer softirq ran a timer";
	if (!sp)
		return "neither model pairs any run that ran no timer with a raise";
	if (sp == runs)
		return "both models pair every run that ran no timer with a raise";
	return NULL;
}

/*
 * What the stale-next_expiry rule is about: of the recorded runs that ran
 * no timer, the kernel's rules must pair more with a predicted raise than
 * the same model with that rule flipped (@alt, replayed alongside). An
 * equal count fails, undecided, unless the trace cannot decide it
 * (sw_replay_check_undecidable()): then the check is skipped, and the
 * docs name the trace (docs/replay.rst). With --exact-next the model the
 * kernel does not follow is the one checked, and it fails on every trace
 * that decides.
 */
static void sw_replay_check_stale(struct sw_replay *rp, const struct sw_mirror_report *rep,
				  const struct sw_mirror_report *alt, struct sw_checks *c)
{
	const unsigned long *v = rep->fig.softirq, *va = alt ? alt->fig.softirq : v;
	unsigned long runs = rep->fig.softirq_recorded_spurious;
	unsigned long un, un_alt, sp, sp_alt;
	const char *cannot;
	char text[320];

	un = sw_replay_check_share(rep, v[SW_SIRQ_UNPREDICTED] + v[SW_SIRQ_MISSED]);
	un_alt = sw_replay_check_share(alt, va[SW_SIRQ_UNPREDICTED] + va[SW_SIRQ_MISSED]);
	sp = rep->fig.softirq_spurious_paired;
	sp_alt = alt ? alt->fig.softirq_spurious_paired : sp;
	cannot = alt ? sw_replay_check_undecidable(runs, sp, sp_alt) : NULL;
	snprintf(text, sizeof(text),
		 "softirq differential: of %lu runs that ran no timer, %s next_expiry pairs %lu with a raise, %s %lu%s; unexplained %lu.%lu%%, %lu.%lu%%",
		 runs, rp->in.exact_next ? "exact" : "the kernel's stale", sp,
		 rp->in.exact_next ? "the kernel's stale" : "exact", sp_alt,
		 sp == sp_alt && !cannot ? " (undecided by this trace)" : "",
		 un / 10, un % 10, un_alt / 10, un_alt % 10);
	if (cannot)
		sw_check_skipped(c, "%s (this trace cannot decide it: %s)", text, cannot);
	else
		sw_check(c, alt && sp > sp_alt, "%s", text);
}

/*
 * The kernel's timer wakeups, as PowerTOP tells them: idle periods whose
 * first work on the CPU (its tick aside, the interrupt itself) is a timer
 * softirq that runs a timer. The interrupt's softirq runs before the idle
 * loop resumes and says so (cpu_idle's exit), so the first work after the
 * idle entry is the wakeup's.
 */
static unsigned long sw_replay_timer_wakeups(const struct sw_replay *rp)
{
	const struct sw_replay_trace *t = &rp->in.t;
	bool *woke = sw_replay_calloc(t->nr_cpus + 1, sizeof(*woke));
	unsigned long n = 0;
	size_t k;

	for (k = 0; k < t->nr; k++) {
		const struct sw_replay_ev *ev = &t->evs[k];
		unsigned int cpu = ev->cpu < t->nr_cpus ? ev->cpu : t->nr_cpus;

		if (ev->type == SW_EV_IDLE_ENTER || ev->type == SW_EV_IDLE_EXIT) {
			woke[cpu] = ev->type == SW_EV_IDLE_ENTER;
			continue;
		}
		if (!woke[cpu] || ev->type == SW_EV_TICK)
			continue;
		woke[cpu] = false;
		n += ev->type == SW_EV_SOFTIRQ_ENTRY && sw_replay_softirq_ran_timer(t, k);
	}
	free(woke);
	return n;
}

/*
 * The softirq differential, on a trace that recorded the timer softirq:
 * the kernel wheel's predicted softirqs against the recorded ones, every
 * CPU, printed; then the stale-next_expiry rule checked
 * (sw_replay_check_stale())
 */
static void sw_replay_check_softirq(struct sw_replay *rp, const struct sw_mirror_report *rep,
				    const struct sw_mirror_report *alt, struct sw_checks *c)
{
	const unsigned long *v = rep->fig.softirq;
	const char *why = sw_replay_softirq_missing(rp);
	unsigned int kw;

	if (why) {
		sw_check_skipped(c, "softirq differential: %s", why);
		return;
	}
	for (kw = 0; kw < rep->fig.wheels; kw++) {
		if (rep->fig.wheel[kw].kind == SW_WHEEL_MAINLINE &&
		    rep->fig.wheel[kw].vhz == rp->in.hz)
			break;
	}
	sw_check(c, rep->fig.softirq_recorded && rep->fig.softirq_predicted,
		 "timer softirqs recorded %lu (%lu ran no timer), predicted %lu (%lu would run none)",
		 rep->fig.softirq_recorded, rep->fig.softirq_recorded_spurious,
		 rep->fig.softirq_predicted, rep->fig.wheel[kw].spurious_softirqs);
	printf("replay: %s: softirq differential: ", c->trace);
	printf("agree %lu, late %lu (paired %lu.%lu%%; at the tick %lu.%lu%%, target 99%%);",
	       v[SW_SIRQ_AGREE], v[SW_SIRQ_LATE],
	       rep->fig.softirq_paired_permille / 10, rep->fig.softirq_paired_permille % 10,
	       rep->fig.softirq_agreement_permille / 10, rep->fig.softirq_agreement_permille % 10);
	printf(" coalesced %lu history %lu tmigr %lu rerun %lu idle_tick %lu;",
	       v[SW_SIRQ_COALESCED], v[SW_SIRQ_HISTORY], v[SW_SIRQ_TMIGR], v[SW_SIRQ_RERUN],
	       v[SW_SIRQ_IDLE_TICK]);
	printf(" unexplained: unpredicted %lu missed %lu\n", v[SW_SIRQ_UNPREDICTED],
	       v[SW_SIRQ_MISSED]);
	if (!sw_replay_idle_missing(rp)) {
		printf("replay: %s: idle wakeups: the kernel's timer wakeups %lu", c->trace,
		       sw_replay_timer_wakeups(rp));
		printf(" (idle periods whose first work ran a timer), %s's %lu",
		       rep->fig.wheel[kw].name, rep->fig.wheel[kw].idle_wakeups);
		printf(" (target: within 2%%)\n");
	}
	sw_replay_check_stale(rp, rep, alt, c);
}

static void sw_replay_check_all(struct sw_replay *rp, const struct sw_mirror_report *rep,
				const struct sw_mirror_report *alt, struct sw_checks *c)
{
	const unsigned long (*n)[SW_DIFF_NR_REASONS] = rep->fig.diff.count;
	unsigned long placed = 0, expired = 0;
	unsigned int r, w;

	for (r = 0; r < SW_DIFF_NR_REASONS; r++) {
		placed += n[SW_DIFF_PLACEMENT][r];
		expired += n[SW_DIFF_EXPIRY][r];
	}
	sw_check(c, !rp->in.t.missed, "no event lost in recording (%lld)", rp->in.t.missed);
	sw_check(c, !rp->order.broken,
		 "every timer's events in an order the kernel can produce: %lu ties within %llu ns, %lu decided against the timestamps, %lu against the rules",
		 rp->order.ties, (unsigned long long)rp->order.window, rp->order.moved,
		 rp->order.broken);
	sw_check(c, placed && expired, "placements compared %lu, expiries compared %lu",
		 placed, expired);
	sw_check(c, rep->fig.consistent, "the mirror's books balance");
	sw_check(c, !rep->fig.counts.events[SW_MC_ANOMALY] &&
		 !rep->fig.counts.events[SW_MC_DROPPED],
		 "no anomalous sequence (%lu) or dropped timer (%lu)",
		 rep->fig.counts.events[SW_MC_ANOMALY], rep->fig.counts.events[SW_MC_DROPPED]);
	sw_check(c, !n[SW_DIFF_PLACEMENT][SW_DIFF_MIRROR_BEHIND],
		 "mainline.%u never placed from behind (%lu)", rp->in.hz,
		 n[SW_DIFF_PLACEMENT][SW_DIFF_MIRROR_BEHIND]);
	sw_check(c, !n[SW_DIFF_PLACEMENT][SW_DIFF_UNEXPLAINED],
		 "mainline.%u placements: match %lu clk_at_jiffies %lu clk_ahead %lu clk_behind %lu unexplained %lu",
		 rp->in.hz, n[SW_DIFF_PLACEMENT][SW_DIFF_MATCH],
		 n[SW_DIFF_PLACEMENT][SW_DIFF_CLK_AT_JIFFIES],
		 n[SW_DIFF_PLACEMENT][SW_DIFF_CLK_AHEAD], n[SW_DIFF_PLACEMENT][SW_DIFF_CLK_BEHIND],
		 n[SW_DIFF_PLACEMENT][SW_DIFF_UNEXPLAINED]);
	sw_check(c, rp->evidence.behind == rp->evidence.behind_shown + rp->evidence.behind_history,
		 "mainline.%u clk_behind %lu: shown by a due tick of the base %lu, by a timer from before the trace %lu",
		 rp->in.hz, rp->evidence.behind, rp->evidence.behind_shown,
		 rp->evidence.behind_history);
	sw_check(c, rp->evidence.ahead == rp->evidence.ahead_shown,
		 "mainline.%u clk_ahead %lu, shown by the base's run of that tick %lu", rp->in.hz,
		 rp->evidence.ahead, rp->evidence.ahead_shown);
	sw_check(c, !n[SW_DIFF_EXPIRY][SW_DIFF_UNEXPLAINED],
		 "mainline.%u expiry ticks: match %lu placed_apart %lu unexplained %lu",
		 rp->in.hz, n[SW_DIFF_EXPIRY][SW_DIFF_MATCH],
		 n[SW_DIFF_EXPIRY][SW_DIFF_PLACED_APART], n[SW_DIFF_EXPIRY][SW_DIFF_UNEXPLAINED]);
	for (w = 0; w < rep->fig.wheels; w++) {
		const struct sw_contract *k = &rp->contract[w];
		char name[SW_SPEC_MAX];

		sw_mirror_report_wheel_name(name, sizeof(name), rep, w);
		sw_check(c, k->checked && !k->early && !k->late,
			 "%s contract: %lu expiries, early %lu, late beyond the granularity %lu (clamped early %lu)",
			 name, k->checked, k->early, k->late, k->clamped_early);
	}
	sw_replay_check_softirq(rp, rep, alt, c);
	printf("replay: %s: %u passed, %u failed\n", c->trace, c->passed, c->failed);
}

/*
 * --check on the run @rp and its report @rep: the same events replayed
 * again with the stale-next_expiry rule flipped, for the softirq
 * differential, then every check. Returns how many failed.
 */
unsigned int sw_replay_check(struct sw_replay *rp, const struct sw_mirror_report *rep,
			     const char *path)
{
	struct sw_checks c = { .trace = path };
	struct sw_mirror_report *alt = NULL;

	if (!sw_replay_softirq_missing(rp)) {
		/* The same trace, the stale-next_expiry rule flipped */
		struct sw_replay *flip = sw_replay_again(rp);

		flip->in.exact_next = !rp->in.exact_next;
		sw_replay_setup(flip);
		sw_replay_run(flip);
		alt = sw_replay_calloc(1, sizeof(*alt));
		sw_replay_take(flip, alt, false);
		sw_replay_teardown(flip);
		free(flip);
	}
	sw_replay_check_all(rp, rep, alt, &c);
	free(alt);
	return c.failed;
}
