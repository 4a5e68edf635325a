/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A binary min-heap of timers: the other classic way to keep timeouts,
 * O(log n) to arm, move and cancel, O(1) to find the next expiry. The
 * benchmark's second baseline, beside the cascading wheel.
 */
#ifndef _SW_BENCH_SW_HEAP_H
#define _SW_BENCH_SW_HEAP_H

#include <stdbool.h>

/**
 * struct sw_heap_timer - a timer in the heap
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

struct sw_heap {
	struct sw_heap_timer	**v;
	unsigned long		nr;
	unsigned long		size;
};

int sw_heap_init(struct sw_heap *heap, unsigned long size);
void sw_heap_free(struct sw_heap *heap);
void sw_heap_modify(struct sw_heap *heap, struct sw_heap_timer *timer, unsigned long expires);
bool sw_heap_cancel(struct sw_heap *heap, struct sw_heap_timer *timer);
bool sw_heap_next_expiry(const struct sw_heap *heap, unsigned long *next);
struct sw_heap_timer *sw_heap_pop_due(struct sw_heap *heap, unsigned long now);

#endif
