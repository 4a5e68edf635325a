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
#include "sw_event.h"
#include "sw_hz.h"
#include "sw_sirq.h"
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

/**
 * struct sw_mirror_event - one event of the kernel's timer tracepoints
 * @type:	enum sw_ev_type
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
	enum sw_ev_type		type;
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
 * @sirq:	its part in the CPUs' model, when the mirror models them
 *		(sw_mirror_set_cpus())
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
	struct sw_sirq_timer	sirq;
	u8			lvl[SW_MIRROR_MAX_WHEELS];
	struct sw_timer		ent[SW_MIRROR_MAX_WHEELS];
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
 * @sirq:	the CPUs' model: their bases and softirqs per wheel
 *		(sw_mirror_set_cpus()), and the softirq differential
 * @sirq_clock:	each wheel's tick at jiffy @sirq_clock_j, for the model
 * @sirq_clock_j: the jiffy of @sirq_clock, if @sirq_clock_set
 * @sirq_clock_set: @sirq_clock holds the ticks of every wheel
 * @caught_j:	the jiffy every wheel was last caught up to, whole
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
	struct sw_sirq		sirq;
	unsigned long		sirq_clock[SW_MIRROR_MAX_WHEELS];
	unsigned long		sirq_clock_j;
	bool			sirq_clock_set;
	unsigned long		caught_j;
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

/**
 * struct sw_mirror_config - all a mirror is built of, sw_mirror_setup()
 * @khz:	the kernel's HZ (%SW_MIN_HZ to %SW_MAX_HZ; a kernel's is 100,
 *		250, 300 or 1000)
 * @now:	jiffies; the wheels' clocks start there
 * @slots:	one per CPU, for the cancel each CPU's next event decides
 * @nr_slots:	CPUs; events from others are classified without a slot
 * @kernel_wheel_only: the kernel's wheel alone (mainline at @khz), not the
 *		default wheels (sw_mirror_init_wheels())
 * @geos:	wheels added after those, in order (sw_mirror_add_wheel())
 * @nr_geos:	in @geos
 * @recs:	the records (sw_mirror_add_records())
 * @nr_recs:	in @recs
 * @hash:	a table of records in use sized to them (sw_mirror_set_hash()),
 *		or NULL for the mirror's own
 * @hash_bits:	its size, sw_mirror_hash_bits() of @nr_recs or more
 * @budget:	work each wheel may do per event (sw_mirror_set_budget()),
 *		0 for %SW_MIRROR_BUDGET
 * @cpus:	one per CPU for the CPUs' model (sw_mirror_set_cpus()), or
 *		NULL for none
 * @nr_cpus:	in @cpus
 * @bases:	the kernel's bases per CPU
 * @cpu_budget:	work the CPUs' model may do per event
 *		(sw_mirror_set_cpu_budget()), 0 for %SW_SIRQ_BUDGET
 * @exact_next:	the stale-next_expiry rule off (sw_mirror_set_exact_next())
 * @observed_ticks: the CPUs' ticks come as events (%SW_EV_TICK): the
 *		kernel wheel's model raises at them alone
 *		(sw_sirq_set_observed_ticks())
 *
 * The caller keeps @slots, @recs, @hash and @cpus until it stops the
 * mirror; @geos only for the call.
 */
struct sw_mirror_config {
	unsigned int			khz;
	unsigned long			now;
	struct sw_mirror_rec		**slots;
	unsigned int			nr_slots;
	bool				kernel_wheel_only;
	const struct sw_geometry	*geos;
	unsigned int			nr_geos;
	struct sw_mirror_rec		*recs;
	unsigned int			nr_recs;
	struct hlist_head		*hash;
	unsigned int			hash_bits;
	unsigned int			budget;
	struct sw_sirq_cpu		*cpus;
	unsigned int			nr_cpus;
	enum sw_sirq_bases		bases;
	unsigned long			cpu_budget;
	bool				exact_next;
	bool				observed_ticks;
};

int sw_mirror_setup(struct sw_mirror *m, const struct sw_mirror_config *cfg);
int sw_mirror_init_wheels(struct sw_mirror *m, unsigned int khz, unsigned long now,
			  struct sw_mirror_rec **slots, unsigned int nr_slots, bool defaults);
int sw_mirror_add_wheel(struct sw_mirror *m, const struct sw_geometry *geo);
unsigned int sw_mirror_nr_default_wheels(unsigned int khz);
int sw_mirror_wheel_name(const struct sw_geometry *geo, char *buf, size_t size);
void sw_mirror_add_records(struct sw_mirror *m, struct sw_mirror_rec *recs, unsigned int n);
void sw_mirror_set_hash(struct sw_mirror *m, struct hlist_head *table, unsigned int bits);
unsigned int sw_mirror_hash_bits(unsigned long nr_records);
void sw_mirror_set_budget(struct sw_mirror *m, unsigned int budget);
void sw_mirror_set_cpus(struct sw_mirror *m, struct sw_sirq_cpu *cpus, unsigned int nr_cpus,
			enum sw_sirq_bases bases);
void sw_mirror_set_exact_next(struct sw_mirror *m, bool exact);
void sw_mirror_set_cpu_budget(struct sw_mirror *m, unsigned long budget);
unsigned int sw_mirror_nr_wheels(const struct sw_mirror *m);
enum sw_mirror_class sw_mirror_handle_event(struct sw_mirror *m, const struct sw_mirror_event *ev,
					    struct sw_mirror_outcome *out);
bool sw_mirror_advance(struct sw_mirror *m, unsigned long now);
void sw_mirror_read_figures(const struct sw_mirror *m, struct sw_mirror_figures *fig);
bool sw_mirror_consistent(const struct sw_mirror *m);
const char *sw_mirror_class_name(enum sw_mirror_class class);

void sw_mirror_read_cpu(const struct sw_mirror *m, unsigned int cpu,
			struct sw_sirq_cpu_figures *fig);
unsigned int sw_mirror_lat_bin(long lateness);
long sw_mirror_lat_bin_top(unsigned int bin);

#endif /* _SHADOW_WHEEL_SW_MIRROR_H */
