/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the live timer traffic: loading the shadow wheels with
 * timers, in batches or as a continuous run (not the benchmark's workload,
 * which is core/bench/sw_bench.c).
 */
#ifndef _SHADOW_WHEEL_SW_TRAFFIC_H
#define _SHADOW_WHEEL_SW_TRAFFIC_H

#include <linux/bits.h>
#include <linux/types.h>

#define SW_ARM_MAX		1000000UL	/* timers in one arm command */
#define SW_PENDING_MAX		4000000L	/* shadow timers alive at once */
#define SW_DELTA_MAX		BIT_ULL(40)	/* ticks */
#define SW_RATE_MAX		1000000U	/* timers a second in a run */
#define SW_DURATION_MAX		3600U		/* seconds */

/* One batch of timers: "arm count=N delta=A..B [cpu=C] [deferrable] [cancel=P]" */
struct sw_arm_req {
	unsigned long	count;
	unsigned long	delta_min;	/* ticks */
	unsigned long	delta_max;
	int		cpu;		/* -1: round-robin over the online CPUs */
	bool		deferrable;
	unsigned int	cancel_pct;
};

enum sw_preset {
	SW_PRESET_NET,
	SW_PRESET_IO,
	SW_PRESET_POLL,
	SW_PRESET_MIXED,
	SW_NR_PRESETS,
};

const char *sw_preset_name(enum sw_preset preset);
unsigned int sw_preset_default_rate(enum sw_preset preset);

int sw_traffic_arm(const struct sw_arm_req *req);
int sw_traffic_start(enum sw_preset preset, unsigned int rate, unsigned int seconds);
void sw_traffic_stop(void);

#endif /* _SHADOW_WHEEL_SW_TRAFFIC_H */
