/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the mirror's figures per real timer function (mirror/top
 * in the module, the replay's top table), sw_mirror_top.c
 */
#ifndef _SHADOW_WHEEL_SW_MIRROR_TOP_H
#define _SHADOW_WHEEL_SW_MIRROR_TOP_H

#include <linux/types.h>

#include "sw_mirror.h"

/* Functions the table tells apart; the events of any other go to "others" */
#define SW_MIRROR_TOP_FNS	64
/* Its hash: twice as many slots as functions, so a probe stays short */
#define SW_MIRROR_TOP_HASH_BITS	7

/**
 * struct sw_mirror_fn - the mirror's figures for one real timer function
 * @fn:		the timer's function (an identity, printed by name)
 * @events:	events of its timers, by what the mirror made of them
 * @lvl_max:	per wheel, the highest level its timers were placed at
 * @lat_max:	per wheel, its timers' largest lateness, in that wheel's ticks
 * @lat_sum:	per wheel, the sum of its timers' lateness
 * @expired:	per wheel, its timers' expiries the lateness counts
 */
struct sw_mirror_fn {
	const void	*fn;
	unsigned long	events[SW_MC_NR];
	u8		lvl_max[SW_MIRROR_MAX_WHEELS];
	long		lat_max[SW_MIRROR_MAX_WHEELS];
	unsigned long	lat_sum[SW_MIRROR_MAX_WHEELS];
	unsigned long	expired[SW_MIRROR_MAX_WHEELS];
};

/**
 * struct sw_mirror_top - the figures of the first %SW_MIRROR_TOP_FNS
 *	functions seen, and of all others together
 * @nr:		functions in @fns
 * @slot:	open-addressed hash of @fns by function: 1 + the index, 0 free
 * @fns:	the functions, in the order first seen
 * @others:	the functions that found the table full
 */
struct sw_mirror_top {
	unsigned int		nr;
	u8			slot[1 << SW_MIRROR_TOP_HASH_BITS];
	struct sw_mirror_fn	fns[SW_MIRROR_TOP_FNS];
	struct sw_mirror_fn	others;
};

void sw_mirror_top_init(struct sw_mirror_top *top);
struct sw_mirror_fn *sw_mirror_top_entry(struct sw_mirror_top *top, const void *fn);
void sw_mirror_top_account(struct sw_mirror_top *top, const void *fn,
			   enum sw_mirror_class class, const struct sw_mirror_outcome *out,
			   unsigned int nr_wheels);
unsigned long sw_mirror_fn_events(const struct sw_mirror_fn *f);
void sw_mirror_top_order(const struct sw_mirror_top *top, u8 *order);

#endif /* _SHADOW_WHEEL_SW_MIRROR_TOP_H */
