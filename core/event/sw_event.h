/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the events of the kernel's tracepoints that the project
 * reads, one vocabulary for all who read them: the module's probes, the
 * replay's trace reader, the mirror and the merges. Needs nothing but the
 * types; a tracepoint read anew is added here first.
 */
#ifndef _SHADOW_WHEEL_SW_EVENT_H
#define _SHADOW_WHEEL_SW_EVENT_H

#include <linux/types.h>

/* What a probe saw, or a trace recorded: the events of a timer first */
enum sw_ev_type {
	SW_EV_START,		/* timer_start */
	SW_EV_CANCEL,		/* timer_cancel */
	SW_EV_EXPIRE,		/* timer_expire_entry */
	/* The CPU's own, of no timer: from here to the end */
	SW_EV_SOFTIRQ_ENTRY,	/* softirq_entry of TIMER_SOFTIRQ: its timer softirq runs */
	SW_EV_SOFTIRQ_EXIT,	/* softirq_exit of TIMER_SOFTIRQ */
	SW_EV_IDLE_ENTER,	/* goes idle: cpu_idle with a state, timer_base_idle true */
	SW_EV_IDLE_EXIT,	/* leaves it: cpu_idle PWR_EVENT_EXIT, timer_base_idle false */
	/*
	 * Its tick, at the jiffies it saw: hrtimer_expire_entry of
	 * tick_sched_timer (6.1), tick_nohz_handler (6.12 on)
	 */
	SW_EV_TICK,
};

/*
 * What an event carries beyond its type, where the tracepoint or the
 * kernel's version decides it: an event's have, of these flags
 */
#define SW_EVF_IDX	0x1U	/* START: its timer's flags hold the kernel's bucket index */
#define SW_EVF_BUCKET	0x2U	/* START: its bucket_expiry is known (6.8 on) */
#define SW_EVF_EXPIRES	0x4U	/* EXPIRE: its expires is timer->expires */
#define SW_EVF_EARLIEST	0x8U	/* SOFTIRQ_ENTRY: its expires is the earliest jiffies it ran at */
#define SW_EVF_ALL	0xfU
/* The lowest flag a reader of events may take for its own */
#define SW_EVF_OWN	0x10U

/* An event of the CPU itself (its timer softirq, its idle, its tick), of no timer */
static inline bool sw_ev_of_cpu(unsigned int type)
{
	return type >= SW_EV_SOFTIRQ_ENTRY;
}

#endif /* _SHADOW_WHEEL_SW_EVENT_H */
