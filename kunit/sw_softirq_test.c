// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite shadow_wheel_softirq: the CPUs' timer softirqs as the mirror
 * models them (core/mirror/sw_sirq.c), against the rules of
 * kernel/time/timer.c for a base's next_expiry: an enqueue lowers it, a
 * delete leaves it stale, a run recomputes the bases that were due, idle
 * entry recomputes the non-deferrable ones (6.1: BASE_STD; 6.12:
 * BASE_LOCAL and BASE_GLOBAL). What the model raised is read from its
 * figures: the softirqs each CPU raised in the kernel wheel, the spurious
 * ones and the idle wakeups, and the differential's verdict on a recorded
 * run. Every timer here is on level 0 (expiry less than 63 ticks away),
 * whose bucket_expiry is the tick after its expiry (calc_index() rounds up
 * so that no timer runs early).
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/slab.h>

#include "sw_mirror.h"
#include "sw_test_common.h"

#define SS_RECS		64
#define SS_CPUS		2
#define SS_HZ		250
#define SS_T0		1000UL

/* kernel/time/timer.c's flags */
#define SS_PINNED	SW_KTIMER_PINNED
#define SS_DEFERRABLE	SW_KTIMER_DEFERRABLE

struct ss {
	struct kunit		*test;
	struct sw_mirror	m;
	struct sw_mirror_rec	recs[SS_RECS];
	struct sw_mirror_rec	*slots[SS_CPUS];
	struct sw_sirq_cpu	cpus[SS_CPUS];
	unsigned long		timers[SS_RECS];	/* their addresses are the identities */
	bool			observed_ticks;		/* the CPUs' ticks come as events */
};

/* @t's mirror, its CPUs' model on the first @nr_cpus (none: off) */
static void ss_setup(struct ss *t, unsigned int nr_cpus, enum sw_sirq_bases bases, bool exact)
{
	struct sw_mirror_config cfg = {
		.khz = SS_HZ, .now = SS_T0, .slots = t->slots, .nr_slots = SS_CPUS,
		.recs = t->recs, .nr_recs = SS_RECS,
		.cpus = nr_cpus ? t->cpus : NULL, .nr_cpus = nr_cpus, .bases = bases,
		.exact_next = exact, .observed_ticks = t->observed_ticks,
	};

	KUNIT_ASSERT_EQ(t->test, sw_mirror_setup(&t->m, &cfg), 0);
}

static struct ss *ss_new(struct kunit *test, enum sw_sirq_bases bases, bool exact)
{
	struct ss *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->test = test;
	ss_setup(t, SS_CPUS, bases, exact);
	return t;
}

/* An event on CPU 0 at SS_T0 + @at; a timer's @flags name CPU 0's base */
static enum sw_mirror_class ss_ev(struct ss *t, enum sw_ev_type type, int timer,
				  unsigned long at, unsigned long expires, u32 flags)
{
	struct sw_mirror_event ev = {
		.type = type,
		.timer = timer < 0 ? NULL : &t->timers[timer],
		.now = SS_T0 + at,
		.expires = SS_T0 + expires,
		.baseclk = SS_T0 + expires,
		.tflags = flags,
	};

	return sw_mirror_handle_event(&t->m, &ev, NULL);
}

static void ss_start(struct ss *t, int timer, unsigned long at, unsigned long expires, u32 flags)
{
	KUNIT_EXPECT_EQ(t->test, ss_ev(t, SW_EV_START, timer, at, expires, flags), SW_MC_ARM);
}

static void ss_cancel(struct ss *t, int timer, unsigned long at)
{
	KUNIT_EXPECT_EQ(t->test, ss_ev(t, SW_EV_CANCEL, timer, at, 0, 0), SW_MC_CANCEL);
}

static void ss_cpu(struct ss *t, enum sw_ev_type type, unsigned long at)
{
	KUNIT_EXPECT_EQ(t->test, ss_ev(t, type, -1, at, 0, 0), SW_MC_CPU);
}

/* A timer softirq on CPU 0 at SS_T0 + @at that runs @timer, its baseclk SS_T0 + @baseclk */
static void ss_run_timer(struct ss *t, int timer, unsigned long at, unsigned long baseclk)
{
	ss_cpu(t, SW_EV_SOFTIRQ_ENTRY, at);
	KUNIT_EXPECT_EQ(t->test, ss_ev(t, SW_EV_CANCEL, timer, at, 0, 0), SW_MC_CANCEL);
	KUNIT_EXPECT_EQ(t->test, ss_ev(t, SW_EV_EXPIRE, timer, at, baseclk, 0), SW_MC_EXPIRE);
	ss_cpu(t, SW_EV_SOFTIRQ_EXIT, at);
}

/* CPU 0's figures in the kernel wheel, up to SS_T0 + @at */
struct ss_fig {
	unsigned long	softirqs, spurious, wakeups;
	struct sw_sirq_cpu_figures cpu;
};

static struct ss_fig ss_read(struct ss *t, unsigned long at)
{
	struct sw_mirror_figures *fig = kunit_kzalloc(t->test, sizeof(*fig), GFP_KERNEL);
	struct ss_fig f;

	KUNIT_ASSERT_NOT_NULL(t->test, fig);
	sw_mirror_advance(&t->m, SS_T0 + at);
	sw_mirror_read_figures(&t->m, fig);
	f.softirqs = fig->wheel[t->m.kernel_wheel].softirqs;
	f.spurious = fig->wheel[t->m.kernel_wheel].spurious_softirqs;
	f.wakeups = fig->wheel[t->m.kernel_wheel].idle_wakeups;
	sw_mirror_read_cpu(&t->m, 0, &f.cpu);
	KUNIT_EXPECT_TRUE(t->test, sw_mirror_consistent(&t->m));
	return f;
}

/*
 * CPU 0's differential up to SS_T0 + @at: @recorded runs, @predicted
 * raises, and every verdict as @want has it (those it leaves out: none)
 */
static void ss_expect_verdicts(struct ss *t, unsigned long at, unsigned long recorded,
			       unsigned long predicted, const unsigned long *want)
{
	struct ss_fig f = ss_read(t, at);
	unsigned int v;

	KUNIT_EXPECT_EQ(t->test, f.cpu.recorded, recorded);
	KUNIT_EXPECT_EQ(t->test, f.cpu.predicted, predicted);
	for (v = 0; v < SW_SIRQ_NR_VERDICTS; v++)
		KUNIT_EXPECT_EQ_MSG(t->test, f.cpu.verdict[v], want[v], "%s at +%lu",
				    sw_sirq_verdict_name(v), at);
}

/* CPU 0's softirqs in the kernel wheel up to SS_T0 + @at: raised, spurious, idle wakeups */
static void ss_expect(struct ss *t, unsigned long at, unsigned long softirqs,
		      unsigned long spurious, unsigned long wakeups)
{
	struct ss_fig f = ss_read(t, at);

	KUNIT_EXPECT_EQ_MSG(t->test, f.softirqs, softirqs, "softirqs by +%lu", at);
	KUNIT_EXPECT_EQ_MSG(t->test, f.spurious, spurious, "spurious by +%lu", at);
	KUNIT_EXPECT_EQ_MSG(t->test, f.wakeups, wakeups, "wakeups by +%lu", at);
}

/* enqueue_timer(): a timer before next_expiry lowers it; the raise is at its tick */
static void sw_softirq_enqueue_lowers_next_expiry(struct kunit *test)
{
	struct ss *t = ss_new(test, SW_BASES_STD_DEF, false);
	struct ss_fig f;

	ss_start(t, 0, 0, 20, 0);
	ss_start(t, 1, 1, 10, 0);
	/* The recorded run at +11 agrees: the model raised at that very tick */
	ss_run_timer(t, 1, 11, 11);
	f = ss_read(t, 30);
	KUNIT_EXPECT_EQ(test, f.cpu.verdict[SW_SIRQ_AGREE], 1UL);
	KUNIT_EXPECT_EQ(test, f.cpu.recorded, 1UL);
	KUNIT_EXPECT_EQ(test, f.softirqs, 2UL);
	KUNIT_EXPECT_EQ(test, f.spurious, 0UL);
	KUNIT_EXPECT_EQ(test, f.cpu.predicted, f.softirqs);
}

/* detach_if_pending(): next_expiry stays; the softirq comes and runs nothing */
static void sw_softirq_delete_leaves_it_stale(struct kunit *test)
{
	struct ss *t = ss_new(test, SW_BASES_STD_DEF, false);

	ss_start(t, 0, 0, 10, 0);
	ss_cancel(t, 0, 2);
	ss_expect(t, 20, 1, 1, 0);

	/* With the rule off, the delete recomputes: no softirq at all */
	t = ss_new(test, SW_BASES_STD_DEF, true);
	ss_start(t, 0, 0, 10, 0);
	ss_cancel(t, 0, 2);
	ss_expect(t, 20, 0, 0, 0);
}

/* Timers at +10 and +20, the first deleted: next_expiry left at +11 */
static struct ss *ss_stale_first_on(struct kunit *test, enum sw_sirq_bases bases)
{
	struct ss *t = ss_new(test, bases, false);

	ss_start(t, 0, 0, 10, 0);
	ss_start(t, 1, 0, 20, 0);
	ss_cancel(t, 0, 2);
	return t;
}

/* The same on 6.1's bases */
static struct ss *ss_stale_first(struct kunit *test)
{
	return ss_stale_first_on(test, SW_BASES_STD_DEF);
}

/* __run_timers(): a run recomputes, so one stale tick costs one softirq, not one a tick */
static void sw_softirq_run_recomputes(struct kunit *test)
{
	struct ss *t = ss_stale_first(test);

	/* +11 (stale, runs nothing), then +21 */
	ss_expect(t, 30, 2, 1, 0);
	ss_expect(t, 60, 2, 1, 0);
}

/* 6.1's get_next_timer_interrupt(): idle entry recomputes BASE_STD; the CPU wakes once */
static void sw_softirq_idle_entry_recomputes(struct kunit *test)
{
	struct ss *t = ss_stale_first(test);

	ss_cpu(t, SW_EV_IDLE_ENTER, 3);
	ss_expect(t, 30, 1, 0, 1);
	KUNIT_EXPECT_TRUE(test, ss_read(t, 30).cpu.idle);
}

/*
 * 6.1's cpu_idle comes on every pass of the idle loop, the tick stopped or
 * kept: tick_nohz_next_event() keeps it without a recompute while RCU
 * needs the CPU. Idle within %SW_SIRQ_WINDOW ticks, the CPU ticks as an
 * awake one: the stale next_expiry raises at +11, a softirq that runs
 * nothing and no idle wakeup. An idle period that ends there leaves it
 * at that; one that goes on past the window stopped the tick, and the
 * raise for timer 1 at +21 is the wakeup. 6.12's idle entry is
 * timer_base_idle, the tick stopped: recomputed, no raise at +11.
 */
static void sw_softirq_61_idle_may_keep_the_tick(struct kunit *test)
{
	static const struct {
		enum sw_sirq_bases	bases;
		unsigned long		exit;		/* the idle exit, 0: none */
		unsigned long		by12[3];	/* softirqs, spurious, wakeups */
		unsigned long		by30[3];
	} cases[] = {
		{ SW_BASES_STD_DEF, 9, { 1, 1, 0 }, { 2, 1, 0 } },
		{ SW_BASES_LOCAL_GLOBAL_DEF, 9, { 0, 0, 0 }, { 1, 0, 0 } },
		{ SW_BASES_STD_DEF, 0, { 1, 1, 0 }, { 2, 1, 1 } },
		{ SW_BASES_LOCAL_GLOBAL_DEF, 0, { 0, 0, 0 }, { 1, 0, 1 } },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ss *t = ss_stale_first_on(test, cases[i].bases);

		ss_cpu(t, SW_EV_IDLE_ENTER, 8);
		if (cases[i].exit)
			ss_cpu(t, SW_EV_IDLE_EXIT, cases[i].exit);
		ss_expect(t, 12, cases[i].by12[0], cases[i].by12[1], cases[i].by12[2]);
		ss_expect(t, 30, cases[i].by30[0], cases[i].by30[1], cases[i].by30[2]);
	}
}

/*
 * BASE_DEF is not recomputed on the way to idle, and never wakes the CPU:
 * a deferrable timer, stale or not, rides along with the next wakeup
 */
static void sw_softirq_deferrable_rides_along(struct kunit *test)
{
	unsigned int idle;

	for (idle = 0; idle < 2; idle++) {
		struct ss *t = ss_new(test, SW_BASES_STD_DEF, false);

		ss_start(t, 0, 0, 10, SS_DEFERRABLE);
		ss_start(t, 1, 0, 12, SS_DEFERRABLE);
		ss_start(t, 2, 0, 30, 0);
		ss_cancel(t, 0, 2);
		if (idle) {
			ss_cpu(t, SW_EV_IDLE_ENTER, 3);
			ss_expect(t, 40, 1, 0, 1);
		} else {
			/* Awake: a softirq at +11 (stale), +13 and +31 */
			ss_expect(t, 40, 3, 1, 0);
		}
	}
}

/*
 * 6.12's run_timer_base(): a run recomputes only a base that was due, so
 * BASE_GLOBAL's stale next_expiry survives a run of BASE_LOCAL; in 6.1 the
 * same timers share BASE_STD and the run clears it
 */
static void sw_softirq_612_runs_only_the_due_base(struct kunit *test)
{
	static const struct {
		enum sw_sirq_bases	bases;
		unsigned long		softirqs, spurious;
	} cases[] = {
		{ SW_BASES_LOCAL_GLOBAL_DEF, 2, 1 },
		{ SW_BASES_STD_DEF, 1, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ss *t = ss_new(test, cases[i].bases, false);

		ss_start(t, 0, 0, 10, SS_PINNED);
		ss_start(t, 1, 0, 12, 0);
		ss_cancel(t, 1, 2);
		ss_expect(t, 20, cases[i].softirqs, cases[i].spurious, 0);
	}
}

/* 6.12's next_timer_interrupt(): idle entry recomputes BASE_LOCAL and BASE_GLOBAL */
static void sw_softirq_612_idle_recomputes_both(struct kunit *test)
{
	struct ss *t = ss_new(test, SW_BASES_LOCAL_GLOBAL_DEF, false);

	ss_start(t, 0, 0, 10, 0);
	ss_start(t, 1, 0, 11, SS_PINNED);
	ss_start(t, 2, 0, 20, SS_PINNED);
	ss_cancel(t, 0, 2);
	ss_cancel(t, 1, 2);
	ss_cpu(t, SW_EV_IDLE_ENTER, 3);
	ss_expect(t, 30, 1, 0, 1);
}

/*
 * The differential: a recorded run that ran nothing is the kernel's stale
 * next_expiry; the model with the rule off cannot predict it
 */
static void sw_softirq_differential_needs_the_stale_rule(struct kunit *test)
{
	static const struct {
		bool		exact;
		enum sw_sirq_verdict verdict;
	} cases[] = {
		{ false, SW_SIRQ_AGREE },
		{ true, SW_SIRQ_UNPREDICTED },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ss *t = ss_new(test, SW_BASES_STD_DEF, cases[i].exact);
		struct ss_fig f;

		ss_start(t, 0, 0, 10, 0);
		ss_cancel(t, 0, 2);
		ss_cpu(t, SW_EV_SOFTIRQ_ENTRY, 11);
		ss_cpu(t, SW_EV_SOFTIRQ_EXIT, 11);
		f = ss_read(t, 12);
		KUNIT_EXPECT_EQ(test, f.cpu.recorded, 1UL);
		KUNIT_EXPECT_EQ(test, f.cpu.recorded_spurious, 1UL);
		KUNIT_EXPECT_EQ_MSG(test, f.cpu.verdict[cases[i].verdict], 1UL, "exact %d",
				    cases[i].exact);
	}
}

/*
 * A trace's run that ran no timer is known only to have come between the
 * events around it: jiffies +11 to +13 here. It takes the stale raise at
 * +11, and leaves the one at +13 to the run that ran timer 1 there, rather
 * than taking both and leaving that run unpredicted.
 */
static void sw_softirq_run_between_events(struct kunit *test)
{
	struct ss *t = ss_new(test, SW_BASES_STD_DEF, false);
	struct sw_mirror_event ev = {
		.type = SW_EV_SOFTIRQ_ENTRY,
		.now = SS_T0 + 13,
		.expires = SS_T0 + 11,
		.have = SW_EVF_EARLIEST,
	};

	ss_start(t, 0, 0, 10, 0);
	ss_start(t, 1, 0, 12, 0);
	ss_cancel(t, 0, 2);
	KUNIT_EXPECT_EQ(test, sw_mirror_handle_event(&t->m, &ev, NULL), SW_MC_CPU);
	ss_cpu(t, SW_EV_SOFTIRQ_EXIT, 13);
	ss_run_timer(t, 1, 13, 13);
	ss_expect_verdicts(t, 20, 2, 2, (const unsigned long [SW_SIRQ_NR_VERDICTS]) {
		[SW_SIRQ_AGREE] = 2 });
}

/*
 * A second run at the jiffies of the one before, that runs nothing:
 * TIMER_SOFTIRQ raised again while the first was pending or running, run
 * again (handle_softirqs()'s restart, ksoftirqd) with nothing left. A run
 * that runs nothing at a later jiffy, nothing predicted, stays
 * unpredicted.
 */
static void sw_softirq_rerun_at_the_same_jiffies(struct kunit *test)
{
	struct ss *t = ss_new(test, SW_BASES_STD_DEF, false);

	ss_start(t, 0, 0, 10, 0);
	ss_run_timer(t, 0, 11, 11);
	ss_cpu(t, SW_EV_SOFTIRQ_ENTRY, 11);
	ss_cpu(t, SW_EV_SOFTIRQ_EXIT, 11);
	ss_cpu(t, SW_EV_SOFTIRQ_ENTRY, 15);
	ss_cpu(t, SW_EV_SOFTIRQ_EXIT, 15);
	ss_expect_verdicts(t, 20, 3, 1, (const unsigned long [SW_SIRQ_NR_VERDICTS]) {
		[SW_SIRQ_AGREE] = 1, [SW_SIRQ_RERUN] = 1, [SW_SIRQ_UNPREDICTED] = 1 });
}

/*
 * A tick that came late: the raise predicted at +11 runs at +20, more than
 * %SW_SIRQ_WINDOW ticks on, its timer's baseclk +11 (__run_timers() caught
 * the base's clock up). The run takes that raise, late; the stale raise
 * at +6 before it (timer 0 deleted), which no run took either, was a tick
 * that did not come: coalesced. A run whose first timer is due after all
 * the raises it held (timer 2 at +33, the stale raise at +23) leaves them
 * missed.
 */
static void sw_softirq_late_tick_runs_the_old_raise(struct kunit *test)
{
	struct ss *t = ss_new(test, SW_BASES_STD_DEF, false);

	ss_start(t, 0, 0, 5, 0);
	ss_start(t, 1, 0, 10, 0);
	ss_cancel(t, 0, 2);
	ss_run_timer(t, 1, 20, 11);
	ss_expect_verdicts(t, 21, 1, 2, (const unsigned long [SW_SIRQ_NR_VERDICTS]) {
		[SW_SIRQ_LATE] = 1, [SW_SIRQ_COALESCED] = 1 });

	/* Stale raise at +23 (timer 3 deleted), then timer 2's run at +35 */
	ss_start(t, 2, 21, 32, 0);
	ss_start(t, 3, 21, 22, 0);
	ss_cancel(t, 3, 21);
	ss_run_timer(t, 2, 35, 33);
	ss_expect_verdicts(t, 36, 2, 4, (const unsigned long [SW_SIRQ_NR_VERDICTS]) {
		[SW_SIRQ_LATE] = 2, [SW_SIRQ_COALESCED] = 1, [SW_SIRQ_MISSED] = 1 });
}

/*
 * With the CPUs' ticks observed (a trace's hrtimer_expire_entry of the
 * tick's hrtimer, jiffies derived), the kernel wheel raises at a tick the
 * CPU took, at the jiffies it saw, not at every jiffy: a tick that came
 * late raises late, and the run it raised agrees with it; a jiffy with no
 * tick raises nothing. Without them the same late run is late.
 */
static void sw_softirq_observed_ticks_raise_at_them(struct kunit *test)
{
	static const unsigned long want[2][SW_SIRQ_NR_VERDICTS] = {
		{ [SW_SIRQ_LATE] = 1 },
		{ [SW_SIRQ_AGREE] = 1 },
	};
	unsigned int observed;

	for (observed = 0; observed < 2; observed++) {
		struct ss *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, t);
		t->test = test;
		t->observed_ticks = observed;
		ss_setup(t, SS_CPUS, SW_BASES_STD_DEF, false);
		/* Timer 0 due at +11; the CPU's ticks at +1 and +2, then not until +13 */
		ss_start(t, 0, 0, 10, 0);
		ss_cpu(t, SW_EV_TICK, 1);
		ss_cpu(t, SW_EV_TICK, 2);
		ss_cpu(t, SW_EV_TICK, 13);
		ss_run_timer(t, 0, 13, 11);
		ss_expect_verdicts(t, 14, 1, 1, want[observed]);
		/* Timer 1 due at +21, no tick after +13: raised only with the ticks assumed */
		ss_start(t, 1, 14, 20, 0);
		KUNIT_EXPECT_EQ(test, ss_read(t, 40).cpu.predicted, 2UL - observed);
		KUNIT_EXPECT_EQ(test, ss_read(t, 40).cpu.ticks, 3UL);
	}
}

/*
 * The tick is an interrupt: it can come between an expiry's detach (its
 * timer_cancel) and its callback (timer_expire_entry). It settles the
 * cancel the CPU holds as any event of the CPU does, as the cancel of a
 * due timer, whose expire_entry is awaited: the expiry is still one, and
 * nothing was cancelled.
 */
static void sw_softirq_tick_leaves_an_expiry_whole(struct kunit *test)
{
	struct ss *t = ss_new(test, SW_BASES_STD_DEF, false);
	struct sw_mirror_figures *fig = kunit_kzalloc(test, sizeof(*fig), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fig);
	ss_start(t, 0, 0, 10, 0);
	ss_cpu(t, SW_EV_SOFTIRQ_ENTRY, 11);
	KUNIT_EXPECT_EQ(test, ss_ev(t, SW_EV_CANCEL, 0, 11, 0, 0), SW_MC_CANCEL);
	ss_cpu(t, SW_EV_TICK, 11);
	KUNIT_EXPECT_EQ(test, ss_ev(t, SW_EV_EXPIRE, 0, 11, 11, 0), SW_MC_EXPIRE);
	ss_cpu(t, SW_EV_SOFTIRQ_EXIT, 11);
	sw_mirror_read_figures(&t->m, fig);
	KUNIT_EXPECT_EQ(test, fig->counts.expired, 1UL);
	KUNIT_EXPECT_EQ(test, fig->counts.cancelled, 0UL);
	KUNIT_EXPECT_EQ(test, fig->counts.events[SW_MC_ANOMALY], 0UL);
	KUNIT_EXPECT_TRUE(test, sw_mirror_consistent(&t->m));
}

/*
 * The model's work for one event is bounded: a budget too small for a
 * recompute (a look at the CPU's bases in each wheel) resets the CPU's
 * model. The softirq it runs while its model cannot be started again is
 * unmodelled; an own event whose recompute fits follows it again, from the
 * next_expiry computed afresh.
 */
static void sw_softirq_over_budget_resets_the_cpu(struct kunit *test)
{
	struct ss *t = ss_stale_first(test);
	struct ss_fig f;

	sw_mirror_set_cpu_budget(&t->m, 1);
	ss_cpu(t, SW_EV_IDLE_ENTER, 3);
	ss_cpu(t, SW_EV_SOFTIRQ_ENTRY, 11);
	ss_cpu(t, SW_EV_SOFTIRQ_EXIT, 11);
	f = ss_read(t, 12);
	KUNIT_EXPECT_EQ(test, f.cpu.resets, 1UL);
	KUNIT_EXPECT_FALSE(test, f.cpu.followed);
	KUNIT_EXPECT_EQ(test, f.cpu.recorded, 1UL);
	KUNIT_EXPECT_EQ(test, f.cpu.verdict[SW_SIRQ_UNMODELLED], 1UL);
	KUNIT_EXPECT_EQ(test, f.cpu.predicted, 0UL);

	/* Followed again from +15: timer 1 raises at +21, and nothing else */
	sw_mirror_set_cpu_budget(&t->m, ULONG_MAX);
	ss_cpu(t, SW_EV_IDLE_EXIT, 15);
	f = ss_read(t, 30);
	KUNIT_EXPECT_TRUE(test, f.cpu.followed);
	KUNIT_EXPECT_EQ(test, f.cpu.resets, 1UL);
	KUNIT_EXPECT_EQ(test, f.cpu.predicted, 1UL);
	KUNIT_EXPECT_EQ(test, f.softirqs, 1UL);
	KUNIT_EXPECT_EQ(test, f.spurious, 0UL);
}

/*
 * A look at a CPU's bases in a wheel costs one lookup per base, however
 * many timers they hold: a CPU counts the timers on its list (the count
 * follows a timer's arm, its move onto another CPU's base and its end),
 * and with dozens of them pending a recompute in every wheel fits in a
 * budget of one per wheel, not one fewer
 */
static void sw_softirq_budget_does_not_grow_with_the_timers(struct kunit *test)
{
	struct ss *t = ss_new(test, SW_BASES_STD_DEF, false);
	struct sw_sirq_cpu_figures other;
	unsigned int fewer, i;
	struct ss_fig f;

	ss_start(t, 0, 0, 10, 0);
	ss_start(t, 1, 0, 20, 0);
	ss_start(t, 2, 0, 30, 1);
	KUNIT_EXPECT_EQ(test, ss_read(t, 0).cpu.timers, 2UL);
	sw_mirror_read_cpu(&t->m, 1, &other);
	KUNIT_EXPECT_EQ(test, other.timers, 1UL);

	/* Timer 1 requeued onto CPU 1's base, timer 0 run */
	ss_cancel(t, 1, 1);
	KUNIT_EXPECT_EQ(test, ss_ev(t, SW_EV_START, 1, 1, 20, 1), SW_MC_MIGRATE);
	ss_cancel(t, 0, 11);
	KUNIT_EXPECT_EQ(test, ss_ev(t, SW_EV_EXPIRE, 0, 11, 11, 0), SW_MC_EXPIRE);
	KUNIT_EXPECT_EQ(test, ss_read(t, 12).cpu.timers, 0UL);
	sw_mirror_read_cpu(&t->m, 1, &other);
	KUNIT_EXPECT_EQ(test, other.timers, 2UL);

	/*
	 * Idle (6.1: past the window a kept tick can be late by) recomputes
	 * BASE_STD in every wheel, from timer 1 and the 62 started after
	 * it, whose first start decided timer 0's cancel
	 */
	for (fewer = 0; fewer < 2; fewer++) {
		t = ss_stale_first(test);
		for (i = 2; i < SS_RECS; i++)
			ss_start(t, i, 2, 40 + i, 0);
		KUNIT_EXPECT_EQ(test, ss_read(t, 2).cpu.timers, SS_RECS - 1UL);
		sw_mirror_set_cpu_budget(&t->m, t->m.nr_wheels - fewer);
		ss_cpu(t, SW_EV_IDLE_ENTER, 3);
		f = ss_read(t, 4 + SW_SIRQ_WINDOW);
		KUNIT_EXPECT_EQ(test, f.cpu.timers, SS_RECS - 1UL);
		KUNIT_EXPECT_EQ_MSG(test, f.cpu.resets, (unsigned long)fewer, "%u fewer", fewer);
		KUNIT_EXPECT_EQ_MSG(test, f.cpu.followed, !fewer, "%u fewer", fewer);
	}

	/* Reset: followed again by an own event whose recompute fits, not one fewer */
	ss_cpu(t, SW_EV_IDLE_EXIT, 5 + SW_SIRQ_WINDOW);
	KUNIT_EXPECT_FALSE(test, ss_read(t, 6 + SW_SIRQ_WINDOW).cpu.followed);
	sw_mirror_set_cpu_budget(&t->m, t->m.nr_wheels);
	ss_cpu(t, SW_EV_IDLE_ENTER, 7 + SW_SIRQ_WINDOW);
	f = ss_read(t, 8 + SW_SIRQ_WINDOW);
	KUNIT_EXPECT_TRUE(test, f.cpu.followed);
	KUNIT_EXPECT_EQ(test, f.cpu.resets, 1UL);
	KUNIT_EXPECT_EQ(test, f.cpu.timers, SS_RECS - 1UL);
}

/*
 * The CPU's own events, with or without the CPUs modelled, from a CPU out
 * of range, out of order: class cpu, no timer lost, the books balance
 */
static void sw_softirq_cpu_events_lose_no_timer(struct kunit *test)
{
	static const enum sw_ev_type types[] = {
		SW_EV_SOFTIRQ_EXIT, SW_EV_IDLE_EXIT, SW_EV_SOFTIRQ_ENTRY, SW_EV_SOFTIRQ_ENTRY,
		SW_EV_IDLE_ENTER, SW_EV_IDLE_ENTER, SW_EV_SOFTIRQ_EXIT, SW_EV_IDLE_EXIT,
	};
	unsigned int modelled, cpu, i;

	for (modelled = 0; modelled < 2; modelled++) {
		struct ss *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, t);
		t->test = test;
		ss_setup(t, modelled, SW_BASES_STD_DEF, false);
		ss_start(t, 0, 0, 5, 0);
		for (cpu = 0; cpu < 3; cpu++) {
			for (i = 0; i < ARRAY_SIZE(types); i++) {
				struct sw_mirror_event ev = {
					.type = types[i], .cpu = cpu == 2 ? 1000 : cpu,
					.now = SS_T0 + 1 + i,
				};

				KUNIT_EXPECT_EQ(test, sw_mirror_handle_event(&t->m, &ev, NULL),
						SW_MC_CPU);
				KUNIT_EXPECT_TRUE(test, sw_mirror_consistent(&t->m));
			}
		}
		KUNIT_EXPECT_EQ(test, t->m.counts.pending, 1UL);
		KUNIT_EXPECT_EQ(test, ss_ev(t, SW_EV_CANCEL, 0, 10, 0, 0), SW_MC_CANCEL);
		KUNIT_EXPECT_EQ(test, ss_ev(t, SW_EV_EXPIRE, 0, 10, 5, 0), SW_MC_EXPIRE);
		KUNIT_EXPECT_EQ(test, t->m.counts.expired, 1UL);
		KUNIT_EXPECT_EQ(test, t->m.counts.events[SW_MC_CPU], 3UL * ARRAY_SIZE(types));
		KUNIT_EXPECT_TRUE(test, sw_mirror_consistent(&t->m));
	}
}

/*
 * A wheel at a coarser HZ runs a timer later than the kernel did: the
 * kernel's expiry does not make that wheel's softirq spurious
 */
static void sw_softirq_coarser_wheel_runs_it_later(struct kunit *test)
{
	struct sw_mirror_figures *fig = kunit_kzalloc(test, sizeof(*fig), GFP_KERNEL);
	struct ss *t = ss_new(test, SW_BASES_STD_DEF, false);
	unsigned int w, checked = 0;

	KUNIT_ASSERT_NOT_NULL(test, fig);
	ss_start(t, 0, 0, 10, 0);
	ss_run_timer(t, 0, 11, 11);
	sw_mirror_advance(&t->m, SS_T0 + 40);
	sw_mirror_read_figures(&t->m, fig);
	for (w = 0; w < fig->wheels; w++) {
		if (fig->wheel[w].kind != SW_WHEEL_MAINLINE)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, fig->wheel[w].softirqs, 1UL, "HZ %u", fig->wheel[w].vhz);
		KUNIT_EXPECT_EQ_MSG(test, fig->wheel[w].spurious_softirqs, 0UL, "HZ %u",
				    fig->wheel[w].vhz);
		checked++;
	}
	KUNIT_EXPECT_EQ(test, checked, 3U);
}

SW_TEST_SUITE(sw_softirq_suite, "shadow_wheel_softirq",
	      KUNIT_CASE(sw_softirq_enqueue_lowers_next_expiry),
	      KUNIT_CASE(sw_softirq_delete_leaves_it_stale),
	      KUNIT_CASE(sw_softirq_run_recomputes),
	      KUNIT_CASE(sw_softirq_idle_entry_recomputes),
	      KUNIT_CASE(sw_softirq_61_idle_may_keep_the_tick),
	      KUNIT_CASE(sw_softirq_deferrable_rides_along),
	      KUNIT_CASE(sw_softirq_612_runs_only_the_due_base),
	      KUNIT_CASE(sw_softirq_612_idle_recomputes_both),
	      KUNIT_CASE(sw_softirq_differential_needs_the_stale_rule),
	      KUNIT_CASE(sw_softirq_run_between_events),
	      KUNIT_CASE(sw_softirq_late_tick_runs_the_old_raise),
	      KUNIT_CASE(sw_softirq_rerun_at_the_same_jiffies),
	      KUNIT_CASE(sw_softirq_coarser_wheel_runs_it_later),
	      KUNIT_CASE(sw_softirq_over_budget_resets_the_cpu),
	      KUNIT_CASE(sw_softirq_budget_does_not_grow_with_the_timers),
	      KUNIT_CASE(sw_softirq_observed_ticks_raise_at_them),
	      KUNIT_CASE(sw_softirq_tick_leaves_an_expiry_whole),
	      KUNIT_CASE(sw_softirq_cpu_events_lose_no_timer));

kunit_test_suites(&sw_softirq_suite);
