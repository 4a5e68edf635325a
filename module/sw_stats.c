// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: counters and distributions of the shadow wheels, and how
 * debugfs prints them.
 */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "sw_stats.h"

static unsigned int sw_hist_bucket(unsigned long value)
{
	return value ? min_t(unsigned int, ilog2(value) + 1, SW_HIST_BUCKETS - 1) : 0;
}

void sw_hist_add(struct sw_hist *hist, unsigned long value)
{
	if (!hist->count || value < hist->min)
		hist->min = value;
	if (!hist->count || value > hist->max)
		hist->max = value;
	hist->count++;
	hist->bucket[sw_hist_bucket(value)]++;
}

static void sw_hist_merge(struct sw_hist *sum, const struct sw_hist *hist)
{
	unsigned int i;

	if (!hist->count)
		return;
	if (!sum->count || hist->min < sum->min)
		sum->min = hist->min;
	if (!sum->count || hist->max > sum->max)
		sum->max = hist->max;
	sum->count += hist->count;
	for (i = 0; i < SW_HIST_BUCKETS; i++)
		sum->bucket[i] += hist->bucket[i];
}

/* Clear the figures; what is pending stays, and counts as armed */
void sw_stats_reset(struct sw_stats *stats)
{
	u64 pending = stats->pending;

	memset(stats, 0, sizeof(*stats));
	stats->pending = pending;
	stats->armed = pending;
}

/* The counter at @offset of @stats (an offset into struct sw_stats) */
static u64 sw_stats_counter(const struct sw_stats *stats, size_t offset)
{
	return *(const u64 *)((const char *)stats + offset);
}

static u64 *sw_stats_counter_ptr(struct sw_stats *stats, size_t offset)
{
	return (u64 *)((char *)stats + offset);
}

/* How a counter of sw_stats_list.h is merged into the total */
static void sw_stats_merge_sum(struct sw_stats *sum, const struct sw_stats *stats,
			       size_t offset)
{
	*sw_stats_counter_ptr(sum, offset) += sw_stats_counter(stats, offset);
}

static void sw_stats_merge_max(struct sw_stats *sum, const struct sw_stats *stats,
			       size_t offset)
{
	u64 *total = sw_stats_counter_ptr(sum, offset);

	*total = max(*total, sw_stats_counter(stats, offset));
}

void sw_stats_add(struct sw_stats *sum, const struct sw_stats *stats)
{
	unsigned int lvl;

#define SW_STAT(name, merge, counts_timers)	\
	sw_stats_merge_##merge(sum, stats, offsetof(struct sw_stats, name))
#include "sw_stats_list.h"
#undef SW_STAT
	for (lvl = 0; lvl < SW_MAX_DEPTH; lvl++)
		sw_hist_merge(&sum->lateness[lvl], &stats->lateness[lvl]);
	sw_hist_merge(&sum->delivery, &stats->delivery);
}

/* "key value" lines, keys prefixed with @prefix (e.g. "cpu1.") */
void sw_stats_show_counters(struct seq_file *m, const char *prefix, const struct sw_stats *stats)
{
#define SW_STAT(name, merge, counts_timers)	\
	seq_printf(m, "%s%s %llu\n", prefix, #name,	\
		   sw_stats_counter(stats, offsetof(struct sw_stats, name)))
#include "sw_stats_list.h"
#undef SW_STAT
}

/* " 0:C 1:C 2-3:C ..." for the non-empty ranges */
static void sw_hist_show_buckets(struct seq_file *m, const struct sw_hist *hist)
{
	unsigned int i;

	for (i = 0; i < SW_HIST_BUCKETS; i++) {
		unsigned long lo = i ? 1UL << (i - 1) : 0;
		unsigned long hi = i ? (1UL << i) - 1 : 0;

		if (!hist->bucket[i])
			continue;
		if (i == SW_HIST_BUCKETS - 1)
			seq_printf(m, " %lu-:%llu", lo, hist->bucket[i]);
		else if (lo == hi)
			seq_printf(m, " %lu:%llu", lo, hist->bucket[i]);
		else
			seq_printf(m, " %lu-%lu:%llu", lo, hi, hist->bucket[i]);
	}
	seq_putc(m, '\n');
}

void sw_stats_show_lateness(struct seq_file *m, const struct sw_stats *stats,
			    const struct sw_geometry *geo)
{
	unsigned int lvl;

	for (lvl = 0; lvl < geo->depth; lvl++) {
		const struct sw_hist *h = &stats->lateness[lvl];

		seq_printf(m, "level %u gran %lu expired %llu late_min %lu late_max %lu\n", lvl,
			   sw_lvl_expiry_gran(geo, lvl), h->count, h->min, h->max);
	}
	for (lvl = 0; lvl < geo->depth; lvl++) {
		seq_printf(m, "level %u hist", lvl);
		sw_hist_show_buckets(m, &stats->lateness[lvl]);
	}
	seq_printf(m, "delivery expired %llu delay_min %lu delay_max %lu\n", stats->delivery.count,
		   stats->delivery.min, stats->delivery.max);
	seq_puts(m, "delivery hist");
	sw_hist_show_buckets(m, &stats->delivery);
}
