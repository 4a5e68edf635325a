// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: a CPU's log of the mirror's events, made and freed (the
 * ring itself is in sw_live_log.h, inline for the probes)
 */
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "sw_live_log.h"

/**
 * sw_live_log_init - allocate an empty log
 * @log:	the log
 * @entries:	how many events it holds, rounded up to a power of two;
 *		%SW_LIVE_LOG_MIN .. %SW_LIVE_LOG_MAX
 *
 * Return: 0, -EINVAL for @entries out of range, or -ENOMEM.
 */
int sw_live_log_init(struct sw_live_log *log, unsigned long entries)
{
	if (entries < SW_LIVE_LOG_MIN || entries > SW_LIVE_LOG_MAX)
		return -EINVAL;
	entries = roundup_pow_of_two(entries);
	log->ents = kvcalloc(entries, sizeof(*log->ents), GFP_KERNEL);
	if (!log->ents)
		return -ENOMEM;
	log->mask = entries - 1;
	local_set(&log->head, 0);
	log->tail = 0;
	local_set(&log->full, 0);
	local_set(&log->lost, 0);
	return 0;
}

void sw_live_log_free(struct sw_live_log *log)
{
	kvfree(log->ents);
	log->ents = NULL;
}
