/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the mirror's event logs, one per CPU. The probes only
 * append the kernel's timer events to their CPU's log; the mirror's
 * wheels take them from all the logs later, merged (sw_live_feed.c,
 * core/merge/sw_logmerge.c).
 *
 * A log is a ring of a power of two entries with one writer, its CPU, in
 * any context (a probe interrupted by another's), and one reader. The
 * writer reserves the next position with a local cmpxchg on @head (no
 * other CPU writes it: no shared cache line), fills the entry and
 * publishes it by writing its position, plus one, to its @seq with
 * release semantics. The reader takes entries from @tail while the next
 * one is published, in order: an entry reserved but not yet written (its
 * writer interrupted between the two) holds the later ones back until it
 * is, and the reader can tell it from an empty log (@head ahead of
 * @tail). A full ring refuses the reservation; the writer decides.
 */
#ifndef _SHADOW_WHEEL_SW_LIVE_LOG_H
#define _SHADOW_WHEEL_SW_LIVE_LOG_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <asm/local.h>

#include "sw_mirror.h"

/* The entries a log may have, at least and at most */
#define SW_LIVE_LOG_MIN	64UL
#define SW_LIVE_LOG_MAX	BIT(20)

/**
 * struct sw_live_logged - one event as its probe logged it
 * @ev:		the event, with the CPU and the jiffies it came at
 * @fn:		its timer's function
 * @nr:		its number on its counter (sw_logmerge.c)
 * @counter:	its counter: its timer's, or none for a CPU's own event
 * @seq:	its position plus one once written; older positions before
 */
struct sw_live_logged {
	struct sw_mirror_event	ev;
	void			*fn;
	unsigned long		nr;
	unsigned int		counter;
	unsigned long		seq;
};

/**
 * struct sw_live_log - one CPU's ring
 * @ents:	its entries, @mask + 1 of them
 * @mask:	entries minus one
 * @head:	the next position to reserve; written by its CPU only
 * @tail:	the next position to read; written by the reader only
 * @full:	reservations its CPU found no room for (written by its CPU)
 * @lost:	of those, events dropped: still no room after draining
 */
struct sw_live_log {
	struct sw_live_logged	*ents;
	unsigned long		mask;
	local_t			head;
	unsigned long		tail;
	local_t			full;
	local_t			lost;
};

int sw_live_log_init(struct sw_live_log *log, unsigned long entries);
void sw_live_log_free(struct sw_live_log *log);

/**
 * sw_live_log_reserve - the next entry of @log, for its CPU to fill
 * @log:	the log of the CPU this runs on, with preemption off
 * @pos:	where its position is stored, for sw_live_log_publish()
 *
 * Return: the entry, or NULL if the log is full.
 */
static inline struct sw_live_logged *
sw_live_log_reserve(struct sw_live_log *log, unsigned long *pos)
{
	long head, old = local_read(&log->head);

	do {
		head = old;
		/*
		 * The reader is done with the entry before it is reused:
		 * pairs with sw_live_log_pop()
		 */
		if ((unsigned long)head - smp_load_acquire(&log->tail) > log->mask)
			return NULL;
		/* A probe that interrupted this one took the position: the next */
		old = local_cmpxchg(&log->head, head, head + 1);
	} while (old != head);
	*pos = head;
	return &log->ents[head & log->mask];
}

/* Hand the entry filled at @pos to the reader */
static inline void sw_live_log_publish(struct sw_live_logged *ent, unsigned long pos)
{
	/* The entry's contents before its seq: pairs with sw_live_log_peek() */
	smp_store_release(&ent->seq, pos + 1);
}

/**
 * sw_live_log_peek - the oldest entry not read yet, if it is written
 * @log:	the log; its one reader calls this
 *
 * Return: the entry, valid until sw_live_log_pop(), or NULL.
 */
static inline const struct sw_live_logged *sw_live_log_peek(const struct sw_live_log *log)
{
	const struct sw_live_logged *ent = &log->ents[log->tail & log->mask];

	/* Its seq before its contents: pairs with sw_live_log_publish() */
	return smp_load_acquire(&ent->seq) == log->tail + 1 ? ent : NULL;
}

/* Entries reserved and not read yet, written or not: what @log holds */
static inline unsigned long sw_live_log_unread(const struct sw_live_log *log)
{
	return (unsigned long)local_read(&log->head) - READ_ONCE(log->tail);
}

/* Done with the entry sw_live_log_peek() gave: its writer may reuse it */
static inline void sw_live_log_pop(struct sw_live_log *log)
{
	/* The entry read before a writer may see it free: pairs with the reservation */
	smp_store_release(&log->tail, log->tail + 1);
}

#endif /* _SHADOW_WHEEL_SW_LIVE_LOG_H */
