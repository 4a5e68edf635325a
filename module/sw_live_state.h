/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the live mirror's state and its files' calls to each
 * other, shared by the mirror's files only: sw_live.c starts and stops
 * it, calling the other three; sw_live_probe.c's probes log the kernel's
 * events, calling the feed; sw_live_feed.c drains the logs into the
 * mirror; sw_live_config.c holds what a start runs with; sw_live_read.c
 * copies the figures out. Everyone else calls sw_live.h.
 */
#ifndef _SHADOW_WHEEL_SW_LIVE_STATE_H
#define _SHADOW_WHEEL_SW_LIVE_STATE_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "sw_live_log.h"
#include "sw_logmerge.h"
#include "sw_mirror.h"
#include "sw_mirror_top.h"

/* The counters that number timers' events, by a hash of the timer (sw_logmerge.c) */
#define SW_LIVE_ORDER_BITS	10
#define SW_LIVE_ORDERS		BIT(SW_LIVE_ORDER_BITS)

/* One counter, alone in its cache line: only its timers' CPUs share it */
struct sw_live_order {
	atomic_long_t	next;
} ____cacheline_aligned_in_smp;

/**
 * struct sw_live - the mirror and what feeds it
 *
 * Each member says what protects it; sw_live.c says how the locks nest.
 * "Set at start": written under sw_live_mutex while the mirror is
 * stopped, before its thread runs and its probes register, then only
 * read while it runs (kthread_run() and tracepoint_probe_register()
 * order the writes before the thread's and the probes' reads); only the
 * next start or the module's exit, under sw_live_mutex with the probes
 * unregistered and the thread stopped, writes it again or frees what it
 * points to. What a pointer set at start points to is protected as its
 * member says.
 *
 * @m:		the mirror, NULL before the first start: the pointer set at
 *		start, the mirror under sw_live_lock
 * @recs:	its records: set at start, then the mirror's (sw_live_lock)
 * @hash:	its table of records in use, a list per record: likewise
 * @slots:	its per-CPU slots, nr_cpu_ids of them: likewise
 * @cpus:	its per-CPU models, nr_cpu_ids of them: likewise
 * @top:	per real timer function: the pointer set at start, the table
 *		under sw_live_lock
 * @nr_recs:	records in the pool: set at start
 * @started:	jiffies at start: set at start
 * @stopped:	jiffies at stop, while stopped: sw_live_mutex
 * @own_events: events of the module's own timers, left out: sw_live_lock
 * @logs:	each CPU's log, NULL before the first start: the pointer set
 *		at start; in each log, what its CPU writes is per-CPU (local_t,
 *		its probes with interrupts off, or one interrupting another),
 *		what its reader writes is under sw_live_lock (sw_live_log.h)
 * @log_size:	entries of each CPU's log: set at start
 * @orders:	the counters, %SW_LIVE_ORDERS of them: the pointer set at
 *		start, each counter atomic (the probes of any CPU)
 * @merge:	the drain's merge of the logs: sw_live_lock
 * @merge_next:	its numbers, one per counter: the pointer set at start, the
 *		numbers under sw_live_lock
 * @heads:	each log's next event as the merge sees it, nr_cpu_ids: the
 *		pointer set at start, the heads under sw_live_lock
 * @drainer:	the thread that drains the logs: sw_live_mutex
 * @drained:	events drained from the logs into the mirror: sw_live_lock
 * @drained_by_probes: of those, drained by a probe that found its log
 *		full: sw_live_lock
 * @softirqs:	TIMER_SOFTIRQ runs drained (softirq_entry): sw_live_lock
 * @with_own:	the module's own timers are mirrored too (the bench's run):
 *		set at start
 * @running:	the probes are registered: written under sw_live_mutex, read
 *		under it or alone (sw_live_running(), READ_ONCE())
 */
struct sw_live {
	struct sw_mirror	*m;
	struct sw_mirror_rec	*recs;
	struct hlist_head	*hash;
	struct sw_mirror_rec	**slots;
	struct sw_sirq_cpu	*cpus;
	struct sw_mirror_top	*top;
	unsigned int		nr_recs;
	unsigned long		started;
	unsigned long		stopped;
	unsigned long		own_events;
	struct sw_live_log __percpu *logs;
	unsigned long		log_size;
	struct sw_live_order	*orders;
	struct sw_logmerge	merge;
	unsigned long		*merge_next;
	struct sw_logmerge_head	*heads;
	struct task_struct	*drainer;
	unsigned long		drained;
	unsigned long		drained_by_probes;
	unsigned long		softirqs;
	bool			with_own;
	bool			running;
};

/* Defined in sw_live.c, which says how they nest */
extern raw_spinlock_t sw_live_lock;
extern struct mutex sw_live_mutex;
extern struct sw_live sw_live_mirror;

/* sw_live_config.c: what a start runs with */
bool sw_live_config_on_load(void);
unsigned long sw_live_config_records(void);
unsigned long sw_live_config_log(void);
const struct sw_geometry *sw_live_config_wheels(unsigned int *nr);

/* sw_live_feed.c: the logs, and their drain into the mirror */
int sw_live_logs_init(struct sw_live *live, unsigned long entries);
void sw_live_logs_free(struct sw_live *live);
int sw_live_drainer(void *unused);
struct sw_live_logged *sw_live_reserve_full(struct sw_live *live, struct sw_live_log *log,
					    unsigned long *pos);

/* sw_live_probe.c: the probes on the kernel's tracepoints, all or none */
int sw_live_register(void);
void sw_live_unregister(void);

#endif /* _SHADOW_WHEEL_SW_LIVE_STATE_H */
