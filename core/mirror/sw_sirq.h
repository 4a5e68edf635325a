/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the CPUs' timer softirqs as the kernel raises them, from
 * its bases' next_expiry, modelled per CPU for every wheel of a mirror
 * (sw_sirq.c), and their differential (sw_sirq_diff.h).
 *
 * The model sees the wheels only through what its caller, the mirror,
 * passes in: how many wheels there are and which is the kernel's
 * (sw_sirq_set_wheels()), each wheel's tick at the jiffy of an event
 * (sw_sirq_catch_up()), and of each timer its flags, the tick the kernel
 * runs it at and the wheels' timers, whose bucket_expiry is the tick each
 * wheel placed it for (struct sw_sirq_timer, which the mirror's record
 * embeds). What it counts goes out through sw_sirq_read() and
 * sw_sirq_read_cpu().
 */
#ifndef _SHADOW_WHEEL_SW_SIRQ_H
#define _SHADOW_WHEEL_SW_SIRQ_H

#include <linux/list.h>
#include <linux/types.h>

#include "sw_sirq_diff.h"
#include "sw_tree.h"
#include "sw_wheel.h"

/* The most wheels the model follows: a mirror's (%SW_MIRROR_MAX_WHEELS) */
#define SW_SIRQ_MAX_WHEELS	16

/*
 * The timer bases a CPU keeps, whose next_expiry raise its timer softirq
 * (kernel/time/timer.c): 6.1 has BASE_STD and BASE_DEF; 6.12 splits the
 * first into BASE_LOCAL (pinned) and BASE_GLOBAL. Index 0 is BASE_STD or
 * BASE_LOCAL, 1 BASE_GLOBAL (6.12 only), 2 BASE_DEF.
 */
enum sw_sirq_bases {
	SW_BASES_STD_DEF,		/* 6.1 */
	SW_BASES_LOCAL_GLOBAL_DEF,	/* 6.12 */
};

#define SW_SIRQ_NR_BASES	3
#define SW_SIRQ_BASE_GLOBAL	1
#define SW_SIRQ_BASE_DEF	2

/* Expired timers a wheel has yet to run, per CPU: see &sw_sirq_wheel.ghost */
#define SW_SIRQ_GHOSTS		16

/*
 * Work the CPUs' model may do for one event, in looks at a CPU's bases in
 * one wheel (each a lookup in a tree of its timers per base, whatever it
 * holds): the live mirror runs it with interrupts off, see
 * sw_sirq_set_budget()
 */
#define SW_SIRQ_BUDGET		256

/**
 * struct sw_sirq_wheel - one CPU's timer softirq as one wheel would raise it
 * @next:	per base, its next_expiry in the wheel's ticks, as the
 *		kernel keeps it: lowered by an enqueue, left by a delete,
 *		recomputed by a run of the base and by idle entry
 * @stale:	per base (bit), next_expiry_recalc: a delete may have left
 *		@next below the first pending timer's tick
 * @none:	per base (bit), no timer pending: @next means nothing
 * @tick:	the last of the CPU's ticks looked at, in the wheel's ticks
 * @ran:	the tick of its last timer softirq
 * @softirqs:	timer softirqs raised
 * @spurious:	of those, the ones that ran no timer
 * @wakeups:	idle wakeups: ticks an idle CPU took for its next
 *		non-deferrable expiry
 * @ghost:	ticks of timers the kernel expired before this wheel's tick
 *		for them came (a coarser HZ runs a timer later): the wheel
 *		still runs them there; the earliest are forgotten first
 * @ghost_base:	the base of each
 * @nr_ghosts:	in @ghost
 * @timers:	per base, its pending timers by the tick this wheel runs
 *		them at (&sw_sirq_timer.node)
 */
struct sw_sirq_wheel {
	unsigned long	next[SW_SIRQ_NR_BASES];
	u8		stale;
	u8		none;
	unsigned long	tick;
	unsigned long	ran;
	unsigned long	softirqs;
	unsigned long	spurious;
	unsigned long	wakeups;
	unsigned long	ghost[SW_SIRQ_GHOSTS];
	u8		ghost_base[SW_SIRQ_GHOSTS];
	u8		nr_ghosts;
	struct sw_tree	timers[SW_SIRQ_NR_BASES];
};

/**
 * struct sw_sirq_timer - the model's part of a timer, in the caller's record
 * @on_cpu:	on the timer list of its base's CPU (&sw_sirq_cpu.timers),
 *		when the model has that CPU
 * @ent:	its timer in each wheel: the tick wheel w placed it for is
 *		@ent[w].bucket_expiry (the kernel wheel's excepted)
 * @ktick:	the tick the kernel will run it at, the kernel wheel's
 * @tflags:	the kernel's flags: its CPU and base
 * @listed_cpu:	the CPU whose list @on_cpu is on, when on one
 * @pending:	armed in the kernel: a delete (a cancel) clears it
 * @node:	while it is pending on a CPU the model has, its node in each
 *		wheel's tree of its base (&sw_sirq_wheel.timers)
 */
struct sw_sirq_timer {
	struct list_head	on_cpu;
	const struct sw_timer	*ent;
	unsigned long		ktick;
	u32			tflags;
	unsigned int		listed_cpu;
	bool			pending;
	struct sw_tree_node	node[SW_SIRQ_MAX_WHEELS];
};

/**
 * struct sw_sirq_cpu - what the model keeps of one CPU: its timer bases'
 *	next_expiry per wheel, its idleness, its softirqs
 * @timers:	the timers on its bases (&sw_sirq_timer.on_cpu)
 * @nr_timers:	on @timers
 * @followed:	its ticks are followed: set by its first own event, cleared
 *		when its model ran out of an event's budget, and set again
 *		by the next own event whose recompute fits in one
 * @idle:	it is idle (IDLE_ENTER seen, IDLE_EXIT not yet)
 * @caught_j:	while @followed, the jiffy its ticks were last caught up
 *		to: every wheel's tick is there or beyond
 * @idle_unsure: 6.1: idle since @idle_at, its tick perhaps kept and its
 *		bases not recomputed (sw_sirq.c)
 * @idle_at:	jiffies of that idle entry
 * @resets:	times its model ran out of an event's budget
 * @ticks:	its ticks observed (sw_sirq_tick())
 * @diff:	the softirq differential (the kernel wheel's model against
 *		its recorded softirqs)
 * @wheel:	per wheel, its bases and softirqs
 *
 * The caller supplies one per CPU, sw_sirq_set_cpus().
 */
struct sw_sirq_cpu {
	struct list_head	timers;
	unsigned long		nr_timers;
	bool			followed;
	bool			idle;
	unsigned long		caught_j;
	bool			idle_unsure;
	unsigned long		idle_at;
	unsigned long		resets;
	unsigned long		ticks;
	struct sw_sirq_diff	diff;
	struct sw_sirq_wheel	wheel[SW_SIRQ_MAX_WHEELS];
};

/**
 * struct sw_sirq - the CPUs' model
 * @cpus:	per CPU, its bases and softirqs (sw_sirq_set_cpus()), or NULL
 * @nr_cpus:	CPUs in @cpus
 * @bases:	the kernel's bases per CPU: which rules @cpus follow
 * @nr_wheels:	the wheels followed
 * @kernel_wheel: the one whose raises the differential takes, each timer
 *		at its &sw_sirq_timer.ktick
 * @budget:	work the model may do per event (%SW_SIRQ_BUDGET)
 * @work:	work it did for the event in hand
 * @exact_next:	the stale-next_expiry rule off: a delete recomputes the
 *		base's next_expiry (a model the kernel does not follow, for
 *		the test that the differential tells them apart)
 * @observed_ticks: the CPUs' ticks come as events (sw_sirq_tick()): the
 *		kernel wheel raises at those alone, not at every jiffy
 * @cpu_events:	events of the CPUs themselves: softirq runs, idle
 * @idle_events: of those, idle entries and exits
 */
struct sw_sirq {
	struct sw_sirq_cpu	*cpus;
	unsigned int		nr_cpus;
	enum sw_sirq_bases	bases;
	unsigned int		nr_wheels;
	unsigned int		kernel_wheel;
	unsigned long		budget;
	unsigned long		work;
	bool			exact_next;
	bool			observed_ticks;
	unsigned long		cpu_events;
	unsigned long		idle_events;
};

/**
 * struct sw_sirq_figures - what the model shows, summed over the CPUs
 * @cpus_modelled: CPUs in the model's storage
 * @cpu_events:	events of the CPUs themselves
 * @idle_events: of those, idle entries and exits
 * @recorded:	recorded timer softirqs
 * @recorded_spurious: of those, with no expire_entry
 * @spurious_paired: of those, paired with a predicted raise
 * @predicted:	the kernel wheel's model's raises
 * @resets:	times a CPU's model ran out of an event's budget
 * @ticks:	the CPUs' ticks observed, events of their own
 * @verdict:	per &enum sw_sirq_verdict
 * @softirqs:	per wheel, timer softirqs raised
 * @spurious:	per wheel, of those, the ones that ran no timer
 * @wakeups:	per wheel, idle wakeups
 */
struct sw_sirq_figures {
	unsigned long	cpus_modelled;
	unsigned long	cpu_events;
	unsigned long	idle_events;
	unsigned long	recorded;
	unsigned long	recorded_spurious;
	unsigned long	spurious_paired;
	unsigned long	predicted;
	unsigned long	resets;
	unsigned long	ticks;
	unsigned long	verdict[SW_SIRQ_NR_VERDICTS];
	unsigned long	softirqs[SW_SIRQ_MAX_WHEELS];
	unsigned long	spurious[SW_SIRQ_MAX_WHEELS];
	unsigned long	wakeups[SW_SIRQ_MAX_WHEELS];
};

/* A new event: the model's budget is whole again */
static inline void sw_sirq_begin_event(struct sw_sirq *s)
{
	s->work = 0;
}

/* The model has CPUs: it wants the wheels' ticks at an event's jiffy */
static inline bool sw_sirq_modelled(const struct sw_sirq *s)
{
	return s->nr_cpus;
}

/* Whether @t is on a CPU's list of the model (the caller checks its books) */
static inline bool sw_sirq_listed(const struct sw_sirq_timer *t)
{
	return !list_empty(&t->on_cpu);
}

void sw_sirq_init(struct sw_sirq *s);
void sw_sirq_set_wheels(struct sw_sirq *s, unsigned int nr_wheels, unsigned int kernel_wheel);
void sw_sirq_set_cpus(struct sw_sirq *s, struct sw_sirq_cpu *cpus, unsigned int nr_cpus,
		      enum sw_sirq_bases bases);
void sw_sirq_set_exact_next(struct sw_sirq *s, bool exact);
void sw_sirq_set_budget(struct sw_sirq *s, unsigned long budget);
void sw_sirq_set_observed_ticks(struct sw_sirq *s, bool observed);
void sw_sirq_timer_init(struct sw_sirq_timer *t, const struct sw_timer *ent);
void sw_sirq_catch_up(struct sw_sirq *s, unsigned int cpu, unsigned long j,
		      const unsigned long *clock, bool own);
void sw_sirq_catch_up_all(struct sw_sirq *s, unsigned long j, const unsigned long *clock);
void sw_sirq_enqueue(struct sw_sirq *s, struct sw_sirq_timer *t, u32 tflags, unsigned long ktick);
void sw_sirq_delete(struct sw_sirq *s, struct sw_sirq_timer *t);
void sw_sirq_release(struct sw_sirq *s, struct sw_sirq_timer *t);
void sw_sirq_expired(struct sw_sirq *s, const struct sw_sirq_timer *t);
void sw_sirq_expiry(struct sw_sirq *s, unsigned int cpu, unsigned long baseclk,
		    const struct sw_sirq_timer *t);
void sw_sirq_softirq_entry(struct sw_sirq *s, unsigned int cpu, unsigned long lo,
			   unsigned long j);
void sw_sirq_softirq_exit(struct sw_sirq *s, unsigned int cpu);
void sw_sirq_idle_enter(struct sw_sirq *s, unsigned int cpu, unsigned long j);
void sw_sirq_idle_exit(struct sw_sirq *s, unsigned int cpu);
void sw_sirq_tick(struct sw_sirq *s, unsigned int cpu, unsigned long j);
void sw_sirq_read(const struct sw_sirq *s, struct sw_sirq_figures *fig);
void sw_sirq_read_cpu(const struct sw_sirq *s, unsigned int cpu,
		      struct sw_sirq_cpu_figures *fig);
bool sw_sirq_consistent(const struct sw_sirq *s, unsigned long listed);

#endif /* _SHADOW_WHEEL_SW_SIRQ_H */
