/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sw-replay: the trace read, ordered and replayed through the mirror
 * (sw_replay_run.c)
 */
#ifndef _SW_REPLAY_RUN_H
#define _SW_REPLAY_RUN_H

#include "sw_mirror.h"
#include "sw_mirror_report.h"
#include "sw_mirror_top.h"
#include "sw_replay_evidence.h"
#include "sw_replay_order.h"
#include "sw_replay_ticks.h"
#include "sw_replay_trace.h"

/* Timers by address: the index of each distinct one, for per-timer state */
struct sw_replay_timers {
	u64	*addr;		/* the distinct addresses, ascending */
	size_t		nr;
};

/*
 * The wheels' contract, checked at every expiry: a timer runs no earlier
 * than its expiry (unless the wheel clamped it: mainline's last level) and
 * no later than its level's granularity after it, or after the wheel's
 * clock if the expiry had passed when it was placed (overdue). What the
 * placement's outcome said, per timer and wheel, until its expiry:
 */
struct sw_replay_place {
	unsigned long	most;		/* granularity + overdue: the latest it may run */
	bool		clamped;
};

struct sw_contract {
	unsigned long	checked;
	unsigned long	early;
	unsigned long	late;
	unsigned long	clamped_early;
	long		worst_excess;
};

/*
 * What the trace gives every replay of it, read and ordered once: a sweep,
 * or --check's replay with the stale-next_expiry rule flipped, copies it
 * whole (sw_replay_again())
 */
struct sw_replay_input {
	struct sw_replay_trace	t;
	struct sw_replay_timers	timers;
	size_t			*timer_of;	/* per event, its timer's index in @timers */
	unsigned int		hz;
	bool			exact_next;	/* --exact-next */
	bool			observed_ticks;	/* ticks read, their jiffies derived */
	struct sw_replay_ticks	ticks;		/* how */
	unsigned long		first_now;
	unsigned long		last_now;
};

/* The replay's state */
struct sw_replay {
	struct sw_replay_input	in;
	struct sw_replay_order	order;
	struct sw_mirror	*m;
	unsigned int		nr_wheels;
	struct sw_mirror_rec	*recs;
	struct hlist_head	*hash;		/* the records' table, a list per record */
	struct sw_mirror_rec	**slots;
	struct sw_sirq_cpu	*cpus;
	unsigned int		nr_cpus;
	bool			kernel_only;	/* the kernel's wheel, no default ones */
	const struct sw_geometry *geos;		/* wheels added: --wheel, a sweep's batch */
	unsigned int		nr_geos;
	struct sw_mirror_top	*top;
	u64		*fn_of;		/* per timer, its function as last seen */
	struct sw_replay_place	*place;		/* per timer and wheel */
	unsigned int		*base_of;	/* per timer, its base (evidence), +1 */
	struct sw_geometry	kgeo;		/* mainline at the trace's HZ: the kernel's */
	struct sw_evidence	evidence;
	struct sw_evidence_untracked *untracked; /* see sw_evidence_history() */
	size_t			nr_untracked;
	struct sw_contract	contract[SW_MIRROR_MAX_WHEELS];
	bool			hz_given;
	bool			v612;
};

bool sw_replay_softirq_ran_timer(const struct sw_replay_trace *t, size_t i);
void sw_replay_read(struct sw_replay *rp, const char *path, char *why, size_t len);
void sw_replay_index(struct sw_replay *rp);
void sw_replay_prepare(struct sw_replay *rp);
void sw_replay_setup(struct sw_replay *rp);
struct sw_replay *sw_replay_again(const struct sw_replay *rp);
void sw_replay_teardown(struct sw_replay *rp);
void sw_replay_run(struct sw_replay *rp);
void sw_replay_take(const struct sw_replay *rp, struct sw_mirror_report *rep, bool top);
const char *sw_replay_softirq_missing(const struct sw_replay *rp);
const char *sw_replay_idle_missing(const struct sw_replay *rp);

#endif /* _SW_REPLAY_RUN_H */
