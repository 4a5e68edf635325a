/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the tracepoints of the shadow wheels, in the trace system
 * shadow_wheel, for reading beside the kernel's own timer events
 * (docs/design.rst, "Tracing"). They are defined in sw_trace.c and fired
 * from sw_cpu.c, under the CPU's lock; what they print of a timer is read
 * in TP_fast_assign(), so a disabled event costs its static branch only.
 *
 * Of the wheel under study only: the traffic's cancel queue is not traced.
 * A timer is named by the address of its struct sw_timer.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM shadow_wheel

#if !defined(_SHADOW_WHEEL_SW_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SHADOW_WHEEL_SW_TRACE_H

#include <linux/tracepoint.h>

#include "sw_cpu.h"

/* The enums' values, for user space to read the formats with */
#define SW_EM(sym, name)	TRACE_DEFINE_ENUM(sym);
#define SW_EM_LAST(sym, name)	TRACE_DEFINE_ENUM(sym);

SW_WHEEL_KINDS
SW_MODIFY_RESULTS
SW_SHADOW_KINDS

#undef SW_EM
#undef SW_EM_LAST

/* ... and their names, in the events' TP_printk() */
#define SW_EM(sym, name)	{ sym, name },
#define SW_EM_LAST(sym, name)	{ sym, name }

#define sw_trace_wheel(kind)	__print_symbolic(kind, SW_WHEEL_KINDS)
#define sw_trace_result(how)	__print_symbolic(how, SW_MODIFY_RESULTS)
#define sw_trace_kind(kind)	__print_symbolic(kind, SW_SHADOW_KINDS)
#define sw_trace_flags(flags)	__print_flags(flags, "|", SW_TIMER_FLAGS)

/*
 * No two events have the same fields, so there is no event class to
 * share (DECLARE_EVENT_CLASS): what they share is how they name a timer
 * and where it is, written once here for their TP_STRUCT__entry() and
 * TP_fast_assign(), each event keeping its fields in its own order.
 */

/* The timer, its expiry and the expiry of its bucket */
#define SW_TRACE_TIMER_FIELDS						\
	__field(const void *,	timer)					\
	__field(unsigned long,	expires)				\
	__field(unsigned long,	bucket_expiry)

#define SW_TRACE_TIMER_ASSIGN(t)					\
	do {								\
		__entry->timer		= (t);				\
		__entry->expires	= (t)->expires;			\
		__entry->bucket_expiry	= (t)->bucket_expiry;		\
	} while (0)

/* Its place in @base: level, bucket, and its flags */
#define SW_TRACE_PLACE_FIELDS						\
	__field(unsigned int,	level)					\
	__field(unsigned int,	bucket)					\
	__field(unsigned int,	flags)

#define SW_TRACE_PLACE_ASSIGN(base, t)					\
	do {								\
		__entry->level		= sw_timer_level(base, t);	\
		__entry->bucket		= sw_timer_bucket(base, t);	\
		__entry->flags		= (t)->flags;			\
	} while (0)

/**
 * sw_timer_start - a timer was put into a CPU's wheel, or moved in it
 * @cpu:	the wheel's CPU
 * @base:	the wheel
 * @shadow:	the timer, placed
 * @now:	jiffies when it was placed
 * @how:	what sw_modify() did: armed; or, re-armed while pending
 *		(stats: modified), unchanged, same_bucket or requeued
 *
 * Its level and bucket are where it is now; on the classic wheel,
 * cascades move it down (sw_cascade) before it expires.
 */
TRACE_EVENT(sw_timer_start,

	TP_PROTO(unsigned int cpu, const struct sw_base *base, const struct sw_shadow *shadow,
		 unsigned long now, enum sw_modify_result how),

	TP_ARGS(cpu, base, shadow, now, how),

	TP_STRUCT__entry(
		SW_TRACE_TIMER_FIELDS
		__field(unsigned long,	now)
		__field(unsigned int,	cpu)
		SW_TRACE_PLACE_FIELDS
		__field(u8,		wheel)
		__field(u8,		kind)
		__field(u8,		how)
	),

	TP_fast_assign(
		SW_TRACE_TIMER_ASSIGN(&shadow->timer);
		__entry->now		= now;
		__entry->cpu		= cpu;
		SW_TRACE_PLACE_ASSIGN(base, &shadow->timer);
		__entry->wheel		= base->geo.kind;
		__entry->kind		= shadow->kind;
		__entry->how		= how;
	),

	TP_printk("timer=%p cpu=%u wheel=%s kind=%s expires=%lu [timeout=%ld] bucket_expiry=%lu level=%u bucket=%u flags=%s result=%s",
		  __entry->timer, __entry->cpu, sw_trace_wheel(__entry->wheel),
		  sw_trace_kind(__entry->kind), __entry->expires,
		  (long)(__entry->expires - __entry->now), __entry->bucket_expiry,
		  __entry->level, __entry->bucket, sw_trace_flags(__entry->flags),
		  sw_trace_result(__entry->how))
);

/**
 * sw_timer_cancel - a pending timer was taken out of a CPU's wheel
 * @cpu:	the wheel's CPU
 * @base:	the wheel
 * @timer:	the timer, no longer pending
 *
 * By the traffic before it expired, by cancel-all or on unload; also a
 * timer the tasklet had collected and not run yet.
 */
TRACE_EVENT(sw_timer_cancel,

	TP_PROTO(unsigned int cpu, const struct sw_base *base, const struct sw_timer *timer),

	TP_ARGS(cpu, base, timer),

	TP_STRUCT__entry(
		SW_TRACE_TIMER_FIELDS
		__field(unsigned int,	cpu)
		SW_TRACE_PLACE_FIELDS
	),

	TP_fast_assign(
		SW_TRACE_TIMER_ASSIGN(timer);
		__entry->cpu		= cpu;
		SW_TRACE_PLACE_ASSIGN(base, timer);
	),

	TP_printk("timer=%p cpu=%u expires=%lu bucket_expiry=%lu level=%u bucket=%u flags=%s",
		  __entry->timer, __entry->cpu, __entry->expires, __entry->bucket_expiry,
		  __entry->level, __entry->bucket, sw_trace_flags(__entry->flags))
);

/**
 * sw_timer_expire - the tasklet runs an expired timer
 * @cpu:	the wheel's CPU
 * @base:	the wheel
 * @timer:	the timer, popped from its tick, about to run
 * @clk:	the wheel's tick that expired it
 *
 * late is @clk minus the expiry asked for: 1 .. the level's granularity
 * on seed and mainline, 0 on classic (docs/design.rst, "The contract"),
 * unless the timer was clamped (C) or placed overdue (O).
 */
TRACE_EVENT(sw_timer_expire,

	TP_PROTO(unsigned int cpu, const struct sw_base *base, const struct sw_timer *timer,
		 unsigned long clk),

	TP_ARGS(cpu, base, timer, clk),

	TP_STRUCT__entry(
		__field(const void *,	timer)
		__field(unsigned long,	expires)
		__field(unsigned long,	clk)
		__field(unsigned long,	now)
		__field(long,		late)
		__field(unsigned int,	cpu)
		SW_TRACE_PLACE_FIELDS
	),

	TP_fast_assign(
		__entry->timer		= timer;
		__entry->expires	= timer->expires;
		__entry->clk		= clk;
		__entry->now		= jiffies;
		__entry->late		= (long)(clk - timer->expires);
		__entry->cpu		= cpu;
		SW_TRACE_PLACE_ASSIGN(base, timer);
	),

	TP_printk("timer=%p cpu=%u expires=%lu clk=%lu now=%lu late=%ld level=%u bucket=%u flags=%s",
		  __entry->timer, __entry->cpu, __entry->expires, __entry->clk, __entry->now,
		  __entry->late, __entry->level, __entry->bucket, sw_trace_flags(__entry->flags))
);

/**
 * sw_cascade - a tick emptied a bucket and placed its timers again
 * @cpu:	the wheel's CPU
 * @base:	the wheel
 * @clk:	the tick
 * @cascade:	the bucket and the timers it moved (none: no event)
 *
 * Only the cascading wheels: classic, into lower levels; seed, timers
 * beyond its range back into the same bucket of its last level.
 */
TRACE_EVENT(sw_cascade,

	TP_PROTO(unsigned int cpu, const struct sw_base *base, unsigned long clk,
		 const struct sw_cascade *cascade),

	TP_ARGS(cpu, base, clk, cascade),

	TP_STRUCT__entry(
		__field(unsigned long,	clk)
		__field(unsigned int,	cpu)
		__field(unsigned int,	level)
		__field(unsigned int,	bucket)
		__field(unsigned int,	moved)
	),

	TP_fast_assign(
		__entry->clk		= clk;
		__entry->cpu		= cpu;
		__entry->level		= sw_idx_level(&base->geo, cascade->idx);
		__entry->bucket		= sw_idx_bucket(&base->geo, cascade->idx);
		__entry->moved		= cascade->moved;
	),

	TP_printk("cpu=%u clk=%lu level=%u bucket=%u moved=%u",
		  __entry->cpu, __entry->clk, __entry->level, __entry->bucket, __entry->moved)
);

/**
 * sw_tasklet_run - a CPU's tasklet brought its wheel up to jiffies
 * @cpu:	the CPU
 * @run:	the CPU's count of runs, this one included (stats: runs)
 * @now:	jiffies it ran to
 * @ticks:	ticks it caught up (now - clock + 1), 0 if the wheel was
 *		already past @now
 * @expired:	timers it ran
 * @cascaded:	timers its ticks cascaded
 * @ns:		how long it took
 */
TRACE_EVENT(sw_tasklet_run,

	TP_PROTO(unsigned int cpu, u64 run, unsigned long now, unsigned long ticks,
		 unsigned int expired, unsigned int cascaded, u64 ns),

	TP_ARGS(cpu, run, now, ticks, expired, cascaded, ns),

	TP_STRUCT__entry(
		__field(u64,		run)
		__field(u64,		ns)
		__field(unsigned long,	now)
		__field(unsigned long,	ticks)
		__field(unsigned int,	cpu)
		__field(unsigned int,	expired)
		__field(unsigned int,	cascaded)
	),

	TP_fast_assign(
		__entry->run		= run;
		__entry->ns		= ns;
		__entry->now		= now;
		__entry->ticks		= ticks;
		__entry->cpu		= cpu;
		__entry->expired	= expired;
		__entry->cascaded	= cascaded;
	),

	TP_printk("cpu=%u run=%llu now=%lu ticks=%lu expired=%u cascaded=%u ns=%llu",
		  __entry->cpu, __entry->run, __entry->now, __entry->ticks, __entry->expired,
		  __entry->cascaded, __entry->ns)
);

/**
 * sw_timer_migrate - a pending timer moved to another CPU's wheel
 * @from:	the CPU going offline
 * @to:		the CPU it moved to
 * @base:	@to's wheel
 * @timer:	the timer, placed there
 *
 * In place of a cancel and a start, which would count as neither
 * (stats: migrated_out, migrated_in).
 */
TRACE_EVENT(sw_timer_migrate,

	TP_PROTO(unsigned int from, unsigned int to, const struct sw_base *base,
		 const struct sw_timer *timer),

	TP_ARGS(from, to, base, timer),

	TP_STRUCT__entry(
		SW_TRACE_TIMER_FIELDS
		__field(unsigned int,	from)
		__field(unsigned int,	to)
		SW_TRACE_PLACE_FIELDS
	),

	TP_fast_assign(
		SW_TRACE_TIMER_ASSIGN(timer);
		__entry->from		= from;
		__entry->to		= to;
		SW_TRACE_PLACE_ASSIGN(base, timer);
	),

	TP_printk("timer=%p from=%u to=%u expires=%lu bucket_expiry=%lu level=%u bucket=%u flags=%s",
		  __entry->timer, __entry->from, __entry->to, __entry->expires,
		  __entry->bucket_expiry, __entry->level, __entry->bucket,
		  sw_trace_flags(__entry->flags))
);

#undef SW_EM
#undef SW_EM_LAST

#endif /* _SHADOW_WHEEL_SW_TRACE_H */

/* Out of the kernel's tree: define_trace.h finds this file by -I (Kbuild) */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE sw_trace
#include <trace/define_trace.h>
