/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: what each CPU's shadow wheel counts.
 *
 * Updated under the CPU's lock; read by taking each lock in turn with CPU
 * hotplug held off, so that the totals are consistent:
 * armed + migrated_in = expired + cancelled + pending + migrated_out on
 * every CPU, and armed = expired + cancelled + pending in all.
 */
#ifndef _SHADOW_WHEEL_SW_STATS_H
#define _SHADOW_WHEEL_SW_STATS_H

#include <linux/seq_file.h>
#include <linux/types.h>

#include "sw_wheel.h"

/* Log2 ranges: 0, 1, 2-3, 4-7, ... up to 2^(SW_HIST_BUCKETS - 2) and more */
#define SW_HIST_BUCKETS		34

/* A distribution of tick counts: lateness, or delivery delay */
struct sw_hist {
	u64		count;
	unsigned long	min;
	unsigned long	max;
	u64		bucket[SW_HIST_BUCKETS];
};

/* The counters of sw_stats_list.h, each a u64, then the distributions */
struct sw_stats {
#define SW_STAT(name, merge, counts_timers)	u64 name
#include "sw_stats_list.h"
#undef SW_STAT
	/* Lateness per level, and the delay from tick to callback */
	struct sw_hist	lateness[SW_MAX_DEPTH];
	struct sw_hist	delivery;
};

void sw_hist_add(struct sw_hist *hist, unsigned long value);
void sw_stats_reset(struct sw_stats *stats);
void sw_stats_add(struct sw_stats *sum, const struct sw_stats *stats);
void sw_stats_show_counters(struct seq_file *m, const char *prefix, const struct sw_stats *stats);
void sw_stats_show_lateness(struct seq_file *m, const struct sw_stats *stats,
			    const struct sw_geometry *geo);

#endif /* _SHADOW_WHEEL_SW_STATS_H */
