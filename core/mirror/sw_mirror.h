/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the mirror, the kernel's own timer traffic replayed into
 * passive wheels of every kind at every HZ (sw_mirror.c). Pure logic: the
 * caller serialises the events, supplies the records and the per-CPU
 * slots, and says what time it is; nothing here allocates or locks.
 */
#ifndef _SHADOW_WHEEL_SW_MIRROR_H
#define _SHADOW_WHEEL_SW_MIRROR_H

#include <linux/list.h>
#include <linux/types.h>

#include "sw_diff.h"
#include "sw_hz.h"
#include "sw_wheel.h"

/* The default wheels: the kernel's HZ and the three virtual ones, each for the three kinds */
#define SW_MIRROR_NR_HZ		4
#define SW_MIRROR_DEFAULT_WHEELS (SW_MIRROR_NR_HZ * SW_WHEEL_NR_KINDS)

/*
 * The most wheels a mirror runs: the default set (12 at HZ 300) and a few
 * more by spec, or the kernel's wheel and 15 by spec (a sweep's batch,
 * sw_mirror_init_wheels()). Every record carries a timer and a level per
 * wheel, every CPU's model and every outcome a slot per wheel, all of them
 * sized by this bound: it stays modest, and a sweep of more geometries
 * runs the events again in batches.
 */
#define SW_MIRROR_MAX_WHEELS	16

/*
 * The table of records in use, by timer, the mirror keeps of its own: a
 * caller with many more records gives it a larger one, sized to them
 * (sw_mirror_set_hash()), so that a lookup stays a few records long
 */
#define SW_MIRROR_HASH_BITS	10

/*
 * Ticks a wheel remembers having counted as busy: an expiry at a tick up to
 * this many ticks away from another one's is told apart from it
 */
#define SW_MIRROR_BUSY_RING	64

/* Lateness bins: early, 0, then [2^(b-2), 2^(b-1)) ticks; the last takes the rest */
#define SW_MIRROR_LAT_BINS	28

/* What a probe saw */
enum sw_mirror_ev_type {
	SW_EV_START,		/* timer_start */
	SW_EV_CANCEL,		/* timer_cancel */
	SW_EV_EXPIRE,		/* timer_expire_entry */
	SW_EV_SOFTIRQ_ENTRY,	/* softirq_entry of TIMER_SOFTIRQ: its timer softirq runs */
	SW_EV_SOFTIRQ_EXIT,	/* softirq_exit of TIMER_SOFTIRQ */
	SW_EV_IDLE_ENTER,	/* goes idle: cpu_idle with a state, timer_base_idle true */
	SW_EV_IDLE_EXIT,	/* leaves it: cpu_idle PWR_EVENT_EXIT, timer_base_idle false */
};

/* sw_mirror_event::have */
#define SW_EVF_IDX	0x1U	/* @tflags holds the kernel's bucket index (START) */
#define SW_EVF_BUCKET	0x2U	/* @bucket_expiry of a START is known (6.12) */
#define SW_EVF_EXPIRES	0x4U	/* @expires of an EXPIRE is timer->expires */
#define SW_EVF_EARLIEST	0x8U	/* @expires of a SOFTIRQ_ENTRY: the earliest jiffies it ran at */

/**
 * struct sw_mirror_event - one event of the kernel's timer tracepoints
 * @type:	enum sw_mirror_ev_type
 * @timer:	the struct timer_list, as an identity (never dereferenced)
 * @cpu:	the CPU the probe ran on
 * @now:	jiffies when it ran
 * @expires:	START: the expiry (6.1's argument, 6.12's timer->expires);
 *		EXPIRE: timer->expires if %SW_EVF_EXPIRES; SOFTIRQ_ENTRY: if
 *		%SW_EVF_EARLIEST, the earliest jiffies it can have run at,
 *		@now the latest (a trace's softirq_entry carries no jiffies)
 * @bucket_expiry: START: the tick the kernel will run it at, if
 *		%SW_EVF_BUCKET (6.12's timer_start)
 * @baseclk:	EXPIRE: the tick the kernel's base ran it at
 * @tflags:	timer->flags (6.1's timer_start: its flags argument)
 * @have:	SW_EVF_*
 */
struct sw_mirror_event {
	enum sw_mirror_ev_type	type;
	const void		*timer;
	unsigned int		cpu;
	unsigned long		now;
	unsigned long		expires;
	union {
		unsigned long	bucket_expiry;
		unsigned long	baseclk;
	};
	u32			tflags;
	unsigned int		have;
};

/* What sw_mirror_handle_event() made of an event */
enum sw_mirror_class {
	SW_MC_ARM,		/* start of a timer not pending: a new one */
	SW_MC_REARM,		/* start right after its cancel on the CPU: a requeue */
	SW_MC_MIGRATE,		/* the same, onto another CPU's base */
	SW_MC_CANCEL,		/* cancel of a pending timer, decided by what follows */
	SW_MC_EXPIRE,		/* expire_entry after its cancel: an expiry */
	SW_MC_EXPIRE_REARMED,	/* the same, of a timer started again since its cancel */
	SW_MC_UNTRACKED,	/* of a timer with no record: older than the mirror, or dropped */
	SW_MC_DROPPED,		/* start of a new timer with no record left */
	SW_MC_ANOMALY,		/* a sequence the kernel does not produce */
	SW_MC_CPU,		/* an event of the CPU itself: its timer softirq, its idle */
	SW_MC_NR,
};

/* Per-timer states */
enum sw_mirror_state {
	SW_REC_FREE,
	SW_REC_PENDING,		/* armed in the kernel */
	SW_REC_DETACHED,	/* cancelled; the CPU's next event tells why */
	SW_REC_DUE_DETACHED,	/* cancelled when due, not requeued: its expire_entry is awaited */
};

/**
 * struct sw_mirror_rec - the mirror's record of one real timer
 * @hash:	in the mirror's table while in use, on its free list otherwise
 * @detached:	on the mirror's list of cancels not yet decided, oldest first
 * @timer:	the timer_list it mirrors
 * @expires:	its expiry, as last seen
 * @armed_at:	jiffies of its last start: @expires minus this is the
 *		timeout it was given
 * @ktick:	the tick the kernel will run it at (6.12: said; 6.1: derived
 *		from the bucket index, else the mirror's own)
 * @detach_at:	jiffies of its cancel, while (DUE_)DETACHED
 * @tflags:	the kernel's flags at its last start
 * @state:	enum sw_mirror_state
 * @reason:	the differential's reason at its last placement
 * @due:	its bucket was due when it was cancelled
 * @cancel_cpu:	the CPU its cancel came from
 * @listed_cpu:	the CPU whose timer list @on_cpu is on, when on one
 * @on_cpu:	on the timer list of its base's CPU (&sw_mirror_cpu.timers),
 *		when the mirror models the CPUs (sw_mirror_set_cpus())
 * @lvl:	the level each wheel placed it at
 * @ent:	its timer in each wheel
 */
struct sw_mirror_rec {
	struct hlist_node	hash;
	struct list_head	detached;
	const void		*timer;
	unsigned long		expires;
	unsigned long		armed_at;
	unsigned long		ktick;
	unsigned long		detach_at;
	u32			tflags;
	u8			state;
	u8			reason;
	bool			due;
	unsigned int		cancel_cpu;
	unsigned int		listed_cpu;
	struct list_head	on_cpu;
	u8			lvl[SW_MIRROR_MAX_WHEELS];
	struct sw_timer		ent[SW_MIRROR_MAX_WHEELS];
};

/*
 * The timer bases a CPU keeps, whose next_expiry raise its timer softirq
 * (kernel/time/timer.c): 6.1 has BASE_STD and BASE_DEF; 6.12 splits the
 * first into BASE_LOCAL (pinned) and BASE_GLOBAL. Index 0 is BASE_STD or
 * BASE_LOCAL, 1 BASE_GLOBAL (6.12 only), 2 BASE_DEF.
 */
enum sw_mirror_bases {
	SW_BASES_STD_DEF,		/* 6.1 */
	SW_BASES_LOCAL_GLOBAL_DEF,	/* 6.12 */
};

#define SW_SIRQ_NR_BASES	3
#define SW_SIRQ_BASE_GLOBAL	1
#define SW_SIRQ_BASE_DEF	2

/* Expired timers a wheel has yet to run, per CPU: see &sw_sirq_wheel.ghost */
#define SW_SIRQ_GHOSTS		16

/* Recorded softirqs the differential waits on before it calls a prediction missed */
#define SW_SIRQ_WINDOW		4

/*
 * Work the CPUs' model may do for one event, in visits of a timer by a
 * wheel (a recompute of a base visits each of the CPU's timers): the
 * live mirror runs it with interrupts off, see sw_mirror_set_cpu_budget()
 */
#define SW_SIRQ_BUDGET		8192

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
};

/* The differential's verdicts on a CPU's softirqs, see sw_softirq.c */
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
 * struct sw_mirror_cpu - what the mirror models of one CPU: its timer
 *	bases' next_expiry per wheel, its idleness, its softirqs
 * @timers:	the records of the timers on its bases (&sw_mirror_rec.on_cpu)
 * @nr_timers:	on @timers: a walk of them is charged to the event's budget
 *		whole, before it starts
 * @seen:	an event on it came: its ticks are followed from then on;
 *		cleared when its model ran out of an event's budget, and
 *		set again by the next own event whose recompute fits in one
 * @idle:	it is idle (IDLE_ENTER seen, IDLE_EXIT not yet)
 * @caught_j:	while @seen, the jiffy its ticks were last caught up to:
 *		every wheel's tick is there or beyond
 * @idle_unsure: 6.1: idle since @idle_at, its tick perhaps kept and its
 *		bases not recomputed (sw_softirq.c)
 * @idle_at:	jiffies of that idle entry
 * @resets:	times its model ran out of an event's budget
 * @diff:	the softirq differential (the kernel wheel's model against
 *		its recorded softirqs)
 * @wheel:	per wheel, its bases and softirqs
 *
 * The caller supplies one per CPU, sw_mirror_set_cpus().
 */
struct sw_mirror_cpu {
	struct list_head	timers;
	unsigned long		nr_timers;
	bool			seen;
	bool			idle;
	unsigned long		caught_j;
	bool			idle_unsure;
	unsigned long		idle_at;
	unsigned long		resets;
	struct sw_sirq_diff	diff;
	struct sw_sirq_wheel	wheel[SW_MIRROR_MAX_WHEELS];
};

/**
 * struct sw_mirror_lateness - lateness of the expired timers placed at one level
 * @count:	timers
 * @min:	least lateness, in the wheel's ticks
 * @max:	most
 * @hist:	by bin, see %SW_MIRROR_LAT_BINS
 */
struct sw_mirror_lateness {
	unsigned long	count;
	long		min;
	long		max;
	unsigned long	hist[SW_MIRROR_LAT_BINS];
};

/*
 * struct sw_mirror_counts - what the mirror counts of itself: a member for
 * each figure of scope "mcount" in sw_mirror_figures_list.h (what each
 * counts: mirror/stats in docs/ABI/debugfs-shadow-wheel), and the events
 * by class; its figures copy it whole
 */
struct sw_mirror_counts {
#define SW_MIRROR_FIG(scope, name, ...) SW_MIRROR_FIG_IF(scope, mcount)(unsigned long name;)
#include "sw_mirror_figures_list.h"
#undef SW_MIRROR_FIG
	unsigned long	events[SW_MC_NR];
};

/*
 * struct sw_mirror_wheel_counts - what a wheel of the mirror counts of
 * itself: a member for each figure of scope "wcount" in
 * sw_mirror_figures_list.h (what each counts: the wheel's line of
 * mirror/stats in docs/ABI/debugfs-shadow-wheel); its figures copy it whole
 */
struct sw_mirror_wheel_counts {
#define SW_MIRROR_FIG(scope, name, ...) SW_MIRROR_FIG_IF(scope, wcount)(unsigned long name;)
#include "sw_mirror_figures_list.h"
#undef SW_MIRROR_FIG
};

/**
 * struct sw_mirror_wheel - one passive wheel of the mirror
 * @base:	the wheel
 * @hz:		its HZ as seen from the kernel's jiffies
 * @busy:	the ticks counted in counts.due_ticks last, each in the slot
 *		of its value modulo %SW_MIRROR_BUSY_RING
 * @ran_pending: timers its clock ran before the kernel's event for them
 *		came (counts.ran_ahead) whose record is still in use
 * @lat:	lateness of expired timers per level of placement: its tick
 *		minus the kernel's expiry converted to its HZ
 * @counts:	what it counts of itself, the figures of scope "wcount"
 * @clock_j:	the jiffy whose tick in @hz was asked for last
 * @clock_v:	that tick, sw_mirror_clock()
 */
struct sw_mirror_wheel {
	struct sw_base			base;
	struct sw_hz			hz;
	unsigned long			clock_j;
	unsigned long			clock_v;
	unsigned long			busy[SW_MIRROR_BUSY_RING];
	unsigned long			ran_pending;
	struct sw_mirror_lateness	lat[SW_MAX_DEPTH];
	struct sw_mirror_wheel_counts	counts;
};

/*
 * The tick of wheel @wh in progress at jiffy @j, sw_hz_clock(): an event
 * asks for its jiffy's once for the wheels and once for each CPU whose
 * model it catches up, and the events of a jiffy come together. The last
 * one is kept; a rebase of @wh->hz changes no tick.
 */
static inline unsigned long sw_mirror_clock(struct sw_mirror_wheel *wh, unsigned long j)
{
	if (j != wh->clock_j) {
		wh->clock_j = j;
		wh->clock_v = sw_hz_clock(&wh->hz, j);
	}
	return wh->clock_v;
}

/**
 * struct sw_mirror_wheel_outcome - one wheel's part of an event's outcome
 * @clk:	placed: the wheel's clock (the next tick it processes)
 * @expires:	placed: the timer's expiry in the wheel's ticks
 * @tick:	placed: the tick the wheel will run it at (its bucket_expiry)
 * @overdue:	placed: ticks @expires was before @clk, or 0
 * @lateness:	expired: the tick it ran at minus the kernel's expiry in the
 *		wheel's ticks
 * @gran:	placed: the most ticks after @expires (or after @clk, when
 *		overdue) its level runs it: the level's granularity, 1 on an
 *		exact wheel
 * @idx:	placed: its bucket (from %SW_DEFERRABLE_OFFSET on if deferrable)
 * @lvl:	placed: the level of that bucket
 * @how:	placed: SW_TIMER_OVERDUE, SW_TIMER_CLAMPED, SW_TIMER_PARKED or 0
 */
struct sw_mirror_wheel_outcome {
	unsigned long	clk;
	unsigned long	expires;
	unsigned long	tick;
	unsigned long	overdue;
	long		lateness;
	u32		gran;
	u16		idx;
	u8		lvl;
	u8		how;
};

/**
 * struct sw_mirror_verdict - the differential on one comparison of an event
 * @compared:	the event was compared (the kernel said enough for it)
 * @reason:	enum sw_diff_reason, when @compared
 */
struct sw_mirror_verdict {
	bool	compared;
	u8	reason;
};

/**
 * struct sw_mirror_outcome - all one event did, see sw_mirror_handle_event()
 * @class:	what the event was
 * @placed:	it placed its timer in every wheel: @kernel, @ktick and each
 *		@wheel's placement hold what came of it
 * @expired:	it counted its timer's expiry: each @wheel's @lateness holds
 *		how late. A start of a timer whose expiry is pending counts
 *		that expiry, then places the timer: both are set.
 * @has_ktick:	@ktick is known
 * @ktick:	placed: the tick the kernel will run it at (6.12: said; 6.1:
 *		derived from the bucket index)
 * @kernel:	placed: what the kernel said of its placement
 * @diff:	the differential's verdict, per &enum sw_diff_what: of the
 *		placement, of the expiry tick
 * @wheel:	per wheel, 0 .. sw_mirror_nr_wheels() - 1
 *
 * Only the event's own timer is reported: other timers whose held cancel
 * the event settles are not.
 */
struct sw_mirror_outcome {
	enum sw_mirror_class		class;
	bool				placed;
	bool				expired;
	bool				has_ktick;
	unsigned long			ktick;
	struct sw_diff_kernel		kernel;
	struct sw_mirror_verdict	diff[SW_DIFF_NR_WHAT];
	struct sw_mirror_wheel_outcome	wheel[SW_MIRROR_MAX_WHEELS];
};

/**
 * struct sw_mirror - every kind of wheel at every HZ, fed the kernel's events
 * @khz:	the kernel's HZ
 * @nr_wheels:	wheels in use: by default 9, or 12 when the kernel's HZ
 *		is 300; and those added (sw_mirror_add_wheel())
 * @kernel_wheel: the mainline wheel at @khz, the differential's
 * @budget:	work each wheel may do per event to catch up (ticks, timers
 *		run or cascaded); the tick in progress is always finished
 * @grace:	jiffies a cancel may wait for the event that explains it
 * @now:	the latest jiffies seen
 * @wheels:	the wheels: by default for each HZ (the kernel's first, then
 *		100, 250, 1000 but the kernel's), seed, mainline, classic;
 *		without the defaults, the kernel's wheel alone; then those
 *		added, in the order they were
 * @started:	an event was handled, or the clocks advanced: no wheel can
 *		be added any more
 * @hash:	records in use, by timer: @own_hash or the caller's
 * @hash_bits:	its size, 2^@hash_bits lists
 * @own_hash:	the table the mirror keeps of its own
 * @free:	records not in use
 * @detached:	records (DUE_)DETACHED, oldest cancel first
 * @slots:	per CPU, the record whose cancel was that CPU's last event
 * @nr_slots:	CPUs in @slots
 * @counts:	what it counts of itself, the figures of scope "mcount" and
 *		the events by class: counts.seen timers armed while it ran,
 *		of which counts.cancelled, counts.expired, counts.pending
 *		(records in use) and counts.dropped (no record was free)
 * @diff:	the differential
 * @cpus:	per CPU, its bases and softirqs (sw_mirror_set_cpus()), or NULL
 * @nr_cpus:	CPUs in @cpus
 * @bases:	the kernel's bases per CPU: which rules @cpus follow
 * @cpu_budget:	work the CPUs' model may do per event (%SW_SIRQ_BUDGET)
 * @cpu_work:	work it did for the event in hand
 * @exact_next:	the stale-next_expiry rule off: a delete recomputes the
 *		base's next_expiry (a model the kernel does not follow, for
 *		the test that the differential tells them apart)
 * @caught_j:	the jiffy every wheel was last caught up to, whole
 * @cpu_events:	events of the CPUs themselves (SW_MC_CPU)
 * @idle_events: of those, idle entries and exits
 */
struct sw_mirror {
	unsigned int		khz;
	unsigned int		nr_wheels;
	unsigned int		kernel_wheel;
	bool			started;
	unsigned int		budget;
	unsigned int		grace;
	unsigned long		now;
	struct sw_mirror_wheel	wheels[SW_MIRROR_MAX_WHEELS];
	struct hlist_head	*hash;
	unsigned int		hash_bits;
	struct hlist_head	own_hash[1 << SW_MIRROR_HASH_BITS];
	struct hlist_head	free;
	struct list_head	detached;
	struct sw_mirror_rec	**slots;
	unsigned int		nr_slots;
	struct sw_mirror_counts	counts;
	struct sw_diff		diff;
	struct sw_mirror_cpu	*cpus;
	unsigned int		nr_cpus;
	enum sw_mirror_bases	bases;
	unsigned long		cpu_budget;
	unsigned long		cpu_work;
	bool			exact_next;
	unsigned long		caught_j;
	unsigned long		cpu_events;
	unsigned long		idle_events;
};

#define SW_MIRROR_BUDGET	256
#define SW_MIRROR_GRACE		4

/**
 * struct sw_mirror_wheel_figures - what one wheel of the mirror shows
 * @name:	its name, sw_mirror_wheel_name()
 * @kind:	the wheel's kind
 * @vhz:	its HZ
 * @depth:	its levels
 * @gran:	per level, the expiry granularity in its ticks
 * @lat:	per level, the lateness of the expired timers placed there
 *
 * @counts:	what the wheel counts itself, its own copied whole
 *
 * and a member for each other wheel figure of sw_mirror_figures_list.h.
 */
struct sw_mirror_wheel_figures {
	char				name[SW_SPEC_MAX];
	enum sw_wheel_kind		kind;
	unsigned int			vhz;
	unsigned int			depth;
	unsigned long			gran[SW_MAX_DEPTH];
	struct sw_mirror_lateness	lat[SW_MAX_DEPTH];
	struct sw_mirror_wheel_counts	counts;
#define SW_MIRROR_FIG(scope, name, ...) SW_MIRROR_FIG_IF(scope, wheel)(unsigned long name;)
#include "sw_mirror_figures_list.h"
#undef SW_MIRROR_FIG
};

/**
 * struct sw_mirror_figures - what the mirror shows, a copy of its own
 * @counts:	what the mirror counts itself, its own copied whole: the
 *		figures of scope "mcount" and the events by class
 * @softirq:	the softirq differential's verdicts, per &enum sw_sirq_verdict,
 *		summed over the CPUs
 * @diff:	the differential
 * @wheel:	per wheel, @wheels of them
 *
 * and a member for each mirror figure of sw_mirror_figures_list.h.
 */
struct sw_mirror_figures {
#define SW_MIRROR_FIG(scope, name, ...) SW_MIRROR_FIG_IF(scope, mirror)(unsigned long name;)
#include "sw_mirror_figures_list.h"
#undef SW_MIRROR_FIG
	struct sw_mirror_counts		counts;
	unsigned long			softirq[SW_SIRQ_NR_VERDICTS];
	struct sw_diff			diff;
	struct sw_mirror_wheel_figures	wheel[SW_MIRROR_MAX_WHEELS];
};

int sw_mirror_init(struct sw_mirror *m, unsigned int khz, unsigned long now,
		   struct sw_mirror_rec **slots, unsigned int nr_slots);
int sw_mirror_init_wheels(struct sw_mirror *m, unsigned int khz, unsigned long now,
			  struct sw_mirror_rec **slots, unsigned int nr_slots, bool defaults);
int sw_mirror_add_wheel(struct sw_mirror *m, const struct sw_geometry *geo);
unsigned int sw_mirror_nr_default_wheels(unsigned int khz);
int sw_mirror_wheel_name(const struct sw_geometry *geo, char *buf, size_t size);
void sw_mirror_add_records(struct sw_mirror *m, struct sw_mirror_rec *recs, unsigned int n);
void sw_mirror_set_hash(struct sw_mirror *m, struct hlist_head *table, unsigned int bits);
unsigned int sw_mirror_hash_bits(unsigned long nr_records);
void sw_mirror_set_budget(struct sw_mirror *m, unsigned int budget);
void sw_mirror_set_cpus(struct sw_mirror *m, struct sw_mirror_cpu *cpus, unsigned int nr_cpus,
			enum sw_mirror_bases bases);
void sw_mirror_set_exact_next(struct sw_mirror *m, bool exact);
void sw_mirror_set_cpu_budget(struct sw_mirror *m, unsigned long budget);
unsigned int sw_mirror_nr_wheels(const struct sw_mirror *m);
enum sw_mirror_class sw_mirror_handle_event(struct sw_mirror *m, const struct sw_mirror_event *ev,
					    struct sw_mirror_outcome *out);
bool sw_mirror_advance(struct sw_mirror *m, unsigned long now);
void sw_mirror_read_figures(const struct sw_mirror *m, struct sw_mirror_figures *fig);
bool sw_mirror_consistent(const struct sw_mirror *m);
const char *sw_mirror_class_name(enum sw_mirror_class class);
const char *sw_sirq_verdict_name(enum sw_sirq_verdict v);

/**
 * struct sw_sirq_cpu_figures - one CPU's softirq differential, copied out
 * @modelled:	the CPU is in the mirror's per-CPU storage
 * @seen:	an event on it came
 * @idle:	it is idle now, as modelled
 * @recorded:	its recorded timer softirqs
 * @recorded_spurious: of those, with no expire_entry
 * @spurious_paired: of those, paired with a predicted raise
 * @predicted:	the kernel wheel's model's
 * @pending:	of those, not yet matched nor given up on (the last few)
 * @timers:	the records on its bases, pending or cancelled and undecided
 * @verdict:	per &enum sw_sirq_verdict
 */
struct sw_sirq_cpu_figures {
	bool		modelled;
	bool		seen;
	bool		idle;
	unsigned long	recorded;
	unsigned long	recorded_spurious;
	unsigned long	spurious_paired;
	unsigned long	predicted;
	unsigned long	pending;
	unsigned long	timers;
	unsigned long	resets;
	unsigned long	verdict[SW_SIRQ_NR_VERDICTS];
};

void sw_mirror_read_cpu(const struct sw_mirror *m, unsigned int cpu,
			struct sw_sirq_cpu_figures *fig);
unsigned int sw_mirror_lat_bin(long lateness);
long sw_mirror_lat_bin_top(unsigned int bin);

#endif /* _SHADOW_WHEEL_SW_MIRROR_H */
