// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the mirror's event log, made and freed (the ring itself is
 * in sw_mirror_log.h, inline for the probes)
 */
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "sw_mirror_log.h"

/**
 * sw_mirror_log_init - allocate an empty log
 * @log:	the log
 * @entries:	how many events it holds, rounded up to a power of two;
 *		%SW_MIRROR_LOG_MIN .. %SW_MIRROR_LOG_MAX
 *
 * Return: 0, -EINVAL for @entries out of range, or -ENOMEM.
 */
int sw_mirror_log_init(struct sw_mirror_log *log, unsigned long entries)
{
	if (entries < SW_MIRROR_LOG_MIN || entries > SW_MIRROR_LOG_MAX)
		return -EINVAL;
	entries = roundup_pow_of_two(entries);
	log->ents = kvcalloc(entries, sizeof(*log->ents), GFP_KERNEL);
	if (!log->ents)
		return -ENOMEM;
	log->mask = entries - 1;
	atomic_long_set(&log->head, 0);
	log->tail = 0;
	return 0;
}

void sw_mirror_log_free(struct sw_mirror_log *log)
{
	kvfree(log->ents);
	log->ents = NULL;
}
