// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: a binary min-heap of timers, see sw_heap.h. Expiries
 * compare as the wheels' do, by difference, so clocks may wrap: the
 * pending timers' expiries must lie within LONG_MAX ticks of one another.
 */
#include <linux/errno.h>

#include "sw_heap.h"

static inline bool sw_heap_before(const struct sw_heap_timer *a, const struct sw_heap_timer *b)
{
	return (long)(a->expires - b->expires) < 0;
}

static inline void sw_heap_set(struct sw_heap *heap, unsigned long i, struct sw_heap_timer *t)
{
	heap->v[i] = t;
	t->pos = i + 1;
}

static void sw_heap_up(struct sw_heap *heap, unsigned long i)
{
	struct sw_heap_timer *t = heap->v[i];

	while (i) {
		unsigned long parent = (i - 1) / 2;

		if (!sw_heap_before(t, heap->v[parent]))
			break;
		sw_heap_set(heap, i, heap->v[parent]);
		i = parent;
	}
	sw_heap_set(heap, i, t);
}

static void sw_heap_down(struct sw_heap *heap, unsigned long i)
{
	struct sw_heap_timer *t = heap->v[i];

	for (;;) {
		unsigned long child = 2 * i + 1;

		if (child >= heap->nr)
			break;
		if (child + 1 < heap->nr && sw_heap_before(heap->v[child + 1], heap->v[child]))
			child++;
		if (!sw_heap_before(heap->v[child], t))
			break;
		sw_heap_set(heap, i, heap->v[child]);
		i = child;
	}
	sw_heap_set(heap, i, t);
}

/**
 * sw_heap_init - set up an empty heap over the caller's array
 * @heap:	the heap
 * @v:		room for @size timers, owned by the caller for the heap's life
 * @size:	the most timers it holds
 */
void sw_heap_init(struct sw_heap *heap, struct sw_heap_timer **v, unsigned long size)
{
	heap->v = v;
	heap->nr = 0;
	heap->size = size;
}

/**
 * sw_heap_modify - arm a timer, or move it if pending
 * @heap:	the heap
 * @timer:	the timer
 * @expires:	the tick it is to run at
 *
 * Return: 0, or -ENOSPC if @timer is not pending and the heap is full
 * (nothing done).
 */
int sw_heap_modify(struct sw_heap *heap, struct sw_heap_timer *timer, unsigned long expires)
{
	unsigned long old = timer->expires;

	if (!timer->pos) {
		if (heap->nr == heap->size)
			return -ENOSPC;
		timer->expires = expires;
		heap->v[heap->nr] = timer;
		sw_heap_up(heap, heap->nr++);
		return 0;
	}
	timer->expires = expires;
	if ((long)(expires - old) < 0)
		sw_heap_up(heap, timer->pos - 1);
	else
		sw_heap_down(heap, timer->pos - 1);
	return 0;
}

/**
 * sw_heap_cancel - take a timer out of the heap, by its handle
 * @heap:	the heap
 * @timer:	the timer
 *
 * Return: whether it was pending.
 */
bool sw_heap_cancel(struct sw_heap *heap, struct sw_heap_timer *timer)
{
	unsigned long i = timer->pos - 1;
	struct sw_heap_timer *last;

	if (!timer->pos)
		return false;
	timer->pos = 0;
	last = heap->v[--heap->nr];
	if (last != timer) {
		sw_heap_set(heap, i, last);
		if (i && sw_heap_before(last, heap->v[(i - 1) / 2]))
			sw_heap_up(heap, i);
		else
			sw_heap_down(heap, i);
	}
	return true;
}

/**
 * sw_heap_pop_due - take out the first timer if it is due
 * @heap:	the heap
 * @now:	the current tick
 *
 * Return: the timer that runs first, no longer pending, if it runs at
 * @now or before; else NULL.
 */
struct sw_heap_timer *sw_heap_pop_due(struct sw_heap *heap, unsigned long now)
{
	struct sw_heap_timer *t;

	if (!heap->nr || (long)(heap->v[0]->expires - now) > 0)
		return NULL;
	t = heap->v[0];
	sw_heap_cancel(heap, t);
	return t;
}
