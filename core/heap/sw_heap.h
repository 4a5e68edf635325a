/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: a binary min-heap of timers, the other classic way to keep
 * timeouts: O(log n) to arm, move and cancel, O(1) to find the next
 * expiry. Pure logic over an array the caller supplies (sw_heap_init()):
 * nothing here allocates or locks; the caller owns the array and the
 * timers and serialises access. The benchmark's second baseline, beside
 * the cascading wheel, and the replay's.
 */
#ifndef _SHADOW_WHEEL_SW_HEAP_H
#define _SHADOW_WHEEL_SW_HEAP_H

#include <linux/types.h>

/**
 * struct sw_heap_timer - a timer in the heap, the handle of its operations
 * @expires:	the tick it runs at
 * @pos:	its index in the heap plus one; 0 when not pending
 *
 * The caller's to initialise: zeroed (not pending) before the first
 * sw_heap_modify(), which reads both fields.
 */
struct sw_heap_timer {
	unsigned long	expires;
	unsigned long	pos;
};

/**
 * struct sw_heap - the heap
 * @v:		the caller's array of @size slots; @v[0 .. @nr) are the
 *		pending timers, each before its two children
 * @nr:		timers pending
 * @size:	the most it holds
 */
struct sw_heap {
	struct sw_heap_timer	**v;
	unsigned long		nr;
	unsigned long		size;
};

void sw_heap_init(struct sw_heap *heap, struct sw_heap_timer **v, unsigned long size);
int sw_heap_modify(struct sw_heap *heap, struct sw_heap_timer *timer, unsigned long expires);
bool sw_heap_cancel(struct sw_heap *heap, struct sw_heap_timer *timer);
struct sw_heap_timer *sw_heap_pop_due(struct sw_heap *heap, unsigned long now);

static inline bool sw_heap_timer_pending(const struct sw_heap_timer *timer)
{
	return timer->pos;
}

/* The timer that runs first, left in place; NULL when none is pending */
static inline struct sw_heap_timer *sw_heap_peek(const struct sw_heap *heap)
{
	return heap->nr ? heap->v[0] : NULL;
}

#endif /* _SHADOW_WHEEL_SW_HEAP_H */
