/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the mirror's event log. The probes only append the
 * kernel's timer events to it; the mirror's wheels take them from it
 * later, in the order they were appended (sw_live_probe.c).
 *
 * It is a ring of a power of two entries with any number of writers and
 * one reader. A writer reserves the next position with a cmpxchg on @head
 * (the order of the reservations is the order of the events: for one
 * timer, its base's lock or its expiry orders them already), fills the
 * entry and publishes it by writing its position, plus one, to its @seq
 * with release semantics. The reader takes entries from @tail while the
 * next one is published, in order: an entry reserved but not yet written
 * (its writer interrupted between the two) holds the later ones back
 * until it is. A full ring refuses the reservation; the writer decides.
 */
#ifndef _SHADOW_WHEEL_SW_LIVE_LOG_H
#define _SHADOW_WHEEL_SW_LIVE_LOG_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#include "sw_mirror.h"

/* The entries a log may have, at least and at most */
#define SW_LIVE_LOG_MIN	64UL
#define SW_LIVE_LOG_MAX	BIT(20)

/**
 * struct sw_live_logged - one event as its probe logged it
 * @ev:		the event, with the CPU and the jiffies it came at
 * @fn:		its timer's function
 * @seq:	its position plus one once written; older positions before
 */
struct sw_live_logged {
	struct sw_mirror_event	ev;
	void			*fn;
	unsigned long		seq;
};

/**
 * struct sw_live_log - the ring
 * @ents:	its entries, @mask + 1 of them
 * @mask:	entries minus one
 * @head:	the next position to reserve
 * @tail:	the next position to read; written by the reader only
 */
struct sw_live_log {
	struct sw_live_logged	*ents;
	unsigned long		mask;
	atomic_long_t		head;
	unsigned long		tail;
};

int sw_live_log_init(struct sw_live_log *log, unsigned long entries);
void sw_live_log_free(struct sw_live_log *log);

/**
 * sw_live_log_reserve - the next entry of @log, for a writer to fill
 * @log:	the log
 * @pos:	where its position is stored, for sw_live_log_publish()
 *
 * Return: the entry, or NULL if the log is full.
 */
static inline struct sw_live_logged *
sw_live_log_reserve(struct sw_live_log *log, unsigned long *pos)
{
	long head = atomic_long_read(&log->head);

	do {
		/*
		 * The reader is done with the entry before it is reused:
		 * pairs with sw_live_log_pop()
		 */
		if ((unsigned long)head - smp_load_acquire(&log->tail) > log->mask)
			return NULL;
	} while (!atomic_long_try_cmpxchg(&log->head, &head, head + 1));
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

/* Done with the entry sw_live_log_peek() gave: its writer may reuse it */
static inline void sw_live_log_pop(struct sw_live_log *log)
{
	/* The entry read before a writer may see it free: pairs with the reservation */
	smp_store_release(&log->tail, log->tail + 1);
}

#endif /* _SHADOW_WHEEL_SW_LIVE_LOG_H */
