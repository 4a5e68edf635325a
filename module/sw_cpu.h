/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the per-CPU shadow wheels on the kernel's jiffies.
 */
#ifndef _SHADOW_WHEEL_SW_CPU_H
#define _SHADOW_WHEEL_SW_CPU_H

#include <linux/types.h>

#include "sw_stats.h"
#include "sw_wheel.h"

/*
 * What a shadow timer does when its time comes: listed once, for the enum
 * and the tracepoints (see SW_LIST() in core/wheel/sw_geometry.h)
 */
#define SW_SHADOW_KINDS SW_LIST(						\
	/* expires, or is cancelled, once */					\
	SW_EM(SW_SHADOW_ONESHOT, "oneshot")					\
	/* re-armed (modified) at its cancel times, then cancelled */		\
	SW_EM(SW_SHADOW_TIMEOUT, "timeout")					\
	/* re-armed by its period when it expires */				\
	SW_EM_LAST(SW_SHADOW_PERIODIC, "periodic"))

#define SW_EM(sym, name)	sym,
#define SW_EM_LAST(sym, name)	sym,

enum sw_shadow_kind {
	SW_SHADOW_KINDS
};

#undef SW_EM
#undef SW_EM_LAST

/**
 * struct sw_shadow - a timer of the shadow wheel and of the traffic that armed it
 * @timer:	its place in the CPU's shadow wheel
 * @cancel:	its place in the CPU's cancel queue, when the traffic will
 *		cancel (or, for %SW_SHADOW_TIMEOUT, re-arm) it before it expires
 * @kind:	what happens at expiry and at the cancel time
 * @rearms:	re-arms left (%SW_SHADOW_TIMEOUT, %SW_SHADOW_PERIODIC)
 * @period:	ticks to re-arm by
 * @cancel_delay: ticks from (re-)arming to the cancel time, 0 for none
 */
struct sw_shadow {
	struct sw_timer		timer;
	struct sw_timer		cancel;
	enum sw_shadow_kind	kind;
	unsigned int		rearms;
	unsigned long		period;
	unsigned long		cancel_delay;
};

int sw_cpus_init(const struct sw_geometry *geo);
void sw_cpus_exit(void);
const struct sw_geometry *sw_cpus_geometry(void);

bool sw_shadows_reserve(long n, long max);
void sw_shadows_unreserve(long n);
struct sw_shadow *sw_shadow_alloc(unsigned int flags);
void sw_shadow_free(struct sw_shadow *shadow);
long sw_shadows_alive(void);

int sw_cpu_arm(unsigned int cpu, struct sw_shadow *shadow, unsigned long delta);
void sw_cpus_cancel_all(void);
void sw_cpus_reset_stats(void);
void sw_cpus_set_rearming(bool on);
unsigned long sw_cpu_offlined(unsigned int cpu);

/**
 * struct sw_cpu_wheel_view - a CPU's wheel as it was at one moment
 * @clk:	the wheel's clock
 * @next:	its next expiry, if @has_next
 * @pending:	timers in it
 * @online:	the CPU runs its wheel
 * @has_next:	a timer is pending
 * @depth:	levels
 * @buckets:	occupied buckets per level, normal ones in [0], deferrable in [1]
 * @timers:	timers per level, likewise
 */
struct sw_cpu_wheel_view {
	unsigned long	clk;
	unsigned long	next;
	u64		pending;
	bool		online;
	bool		has_next;
	unsigned int	depth;
	unsigned int	buckets[SW_MAX_DEPTH][2];
	unsigned int	timers[SW_MAX_DEPTH][2];
};

struct sw_stats *sw_cpus_stats(struct sw_stats *total);
void sw_cpu_view_wheel(unsigned int cpu, struct sw_cpu_wheel_view *view);

#endif /* _SHADOW_WHEEL_SW_CPU_H */
