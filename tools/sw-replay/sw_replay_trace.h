/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sw-replay: the kernel's timer events read from a trace.dat
 * (sw_replay_trace.c)
 */
#ifndef _SW_REPLAY_TRACE_H
#define _SW_REPLAY_TRACE_H

#include <stddef.h>
#include <linux/types.h>

#include "sw_event.h"

/*
 * sw_replay_ev::have: the events' SW_EVF_* (%SW_EVF_BUCKET: @kclk is the
 * bucket_expiry), and the reader's own: %SW_RE_NOW, @now holds jiffies
 * from the event's own field; %SW_RE_BASE_IDLE, an idle event from 6.12's
 * timer_base_idle, not cpu_idle
 */
#define SW_RE_NOW	SW_EVF_OWN
#define SW_RE_BASE_IDLE	(SW_EVF_OWN << 1)

/**
 * struct sw_replay_ev - one timer event of the trace, fields by name
 * @ts:		the trace's timestamp, ns
 * @timer:	timer_list address, an identity
 * @fn:		the timer's function (start, expire_entry)
 * @expires:	start: the expiry; softirq_entry: the earliest jiffies it ran
 *		at, if %SW_EVF_EARLIEST
 * @kclk:	start: bucket_expiry if %SW_EVF_BUCKET; expire_entry: baseclk;
 *		tick: the time it ran at, ns of the hrtimer base's clock
 * @now:	jiffies if %SW_RE_NOW
 * @flags:	start: the timer's flags, with the bucket index if %SW_EVF_IDX
 * @cpu:	the CPU the event was recorded on; of an idle event, the CPU
 *		it names
 * @type:	enum sw_ev_type
 * @have:	SW_EVF_*, SW_RE_*
 */
struct sw_replay_ev {
	u64	ts;
	u64	timer;
	u64	fn;
	u64	expires;
	u64	kclk;
	u64	now;
	u32	flags;
	u16	cpu;
	u8		type;
	u8		have;
};

/* A function's address and its name */
struct sw_replay_name {
	u64	fn;
	char		name[56];
};

/**
 * struct sw_replay_trace - what was read
 * @evs:	the timer events, in the trace's order (all CPUs merged by time)
 * @nr:		events in @evs
 * @other:	records of other events, skipped
 * @has_softirq: the trace carries irq:softirq_entry and softirq_exit
 * @has_idle:	it carries power:cpu_idle or timer:timer_base_idle
 * @missed:	events the ring buffer lost, as the trace says (-1: it lost
 *		some, how many unknown)
 * @nr_cpus:	CPUs in the trace
 * @nr_ticks:	the CPUs' ticks in @evs (%SW_EV_TICK), if the trace has
 *		timer:hrtimer_expire_entry
 * @names:	the timer functions' names, from the trace's symbol table
 * @nr_names:	entries in @names
 */
struct sw_replay_trace {
	struct sw_replay_ev	*evs;
	size_t			nr;
	u64		other;
	bool			has_softirq;
	bool			has_idle;
	long long		missed;
	unsigned int		nr_cpus;
	u64			nr_ticks;
	struct sw_replay_name	*names;
	size_t			nr_names;
};

int sw_replay_trace_read(const char *path, struct sw_replay_trace *t, char *err, size_t errlen);
const char *sw_replay_trace_fn_name(const struct sw_replay_trace *t, u64 fn);
void sw_replay_trace_free(struct sw_replay_trace *t);

void *sw_replay_grow(void *arr, size_t *cap, size_t nr, size_t size, size_t first);

#endif /* _SW_REPLAY_TRACE_H */
