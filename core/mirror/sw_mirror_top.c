// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the mirror's figures per real timer function. The first
 * %SW_MIRROR_TOP_FNS functions seen get an entry each, found again by a
 * hash of the function (linear probing in a table twice their number);
 * the events of every function seen after the table filled go to one
 * entry, "others". Pure logic: the caller serialises the calls.
 */
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "sw_mirror_top.h"

/**
 * sw_mirror_top_init - an empty table
 * @top:	the table
 */
void sw_mirror_top_init(struct sw_mirror_top *top)
{
	memset(top, 0, sizeof(*top));
}

/* The slot of @fn in the hash, or the free slot where it would go */
static u8 *sw_mirror_top_slot(struct sw_mirror_top *top, const void *fn)
{
	unsigned int h = hash_ptr(fn, SW_MIRROR_TOP_HASH_BITS);

	/* Never full: at most half the slots are taken */
	while (top->slot[h] && top->fns[top->slot[h] - 1].fn != fn)
		h = (h + 1) % ARRAY_SIZE(top->slot);
	return &top->slot[h];
}

/**
 * sw_mirror_top_entry - the entry of a function
 * @top:	the table
 * @fn:		the function; any value, NULL included, is an identity
 *
 * Return: @fn's entry, a new one if @fn is new and the table has room,
 * else the entry of the others.
 */
struct sw_mirror_fn *sw_mirror_top_entry(struct sw_mirror_top *top, const void *fn)
{
	u8 *slot = sw_mirror_top_slot(top, fn);
	struct sw_mirror_fn *f;

	if (*slot)
		return &top->fns[*slot - 1];
	if (top->nr == SW_MIRROR_TOP_FNS)
		return &top->others;
	f = &top->fns[top->nr++];
	f->fn = fn;
	*slot = top->nr;
	return f;
}

/**
 * sw_mirror_top_account - count one event of a timer of a function
 * @top:	the table
 * @fn:		the timer's function
 * @class:	what the mirror made of the event
 * @out:	what each wheel made of the event's timer
 * @nr_wheels:	the mirror's wheels
 */
void sw_mirror_top_account(struct sw_mirror_top *top, const void *fn,
			   enum sw_mirror_class class, const struct sw_mirror_outcome *out,
			   unsigned int nr_wheels)
{
	struct sw_mirror_fn *f = sw_mirror_top_entry(top, fn);
	unsigned int w;

	f->events[class]++;
	if (!out->placed && !out->expired)
		return;
	for (w = 0; w < nr_wheels; w++) {
		if (out->placed)
			f->lvl_max[w] = max(f->lvl_max[w], out->wheel[w].lvl);
		if (out->expired) {
			f->expired[w]++;
			f->lat_sum[w] += max(out->wheel[w].lateness, 0L);
			f->lat_max[w] = max(f->lat_max[w], out->wheel[w].lateness);
		}
	}
}

/**
 * sw_mirror_fn_events - all events of a function's timers
 * @f:		its entry
 *
 * Return: the sum over the classes.
 */
unsigned long sw_mirror_fn_events(const struct sw_mirror_fn *f)
{
	unsigned long n = 0;
	unsigned int c;

	for (c = 0; c < SW_MC_NR; c++)
		n += f->events[c];
	return n;
}

/**
 * sw_mirror_top_order - the entries by events, most first
 * @top:	the table, unchanged
 * @order:	gets the indices of its @nr entries in @fns, most events
 *		first, the first seen first among equals
 */
void sw_mirror_top_order(const struct sw_mirror_top *top, u8 *order)
{
	unsigned long events[SW_MIRROR_TOP_FNS];
	unsigned int i, j;

	/* Insertion sort: a few thousand steps at most, no swap of entries */
	for (i = 0; i < top->nr; i++) {
		events[i] = sw_mirror_fn_events(&top->fns[i]);
		for (j = i; j > 0 && events[order[j - 1]] < events[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}
