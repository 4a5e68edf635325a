/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sw-replay: the trace's events in an order the kernel can have produced
 * (sw_replay_order.c)
 */
#ifndef _SW_REPLAY_ORDER_H
#define _SW_REPLAY_ORDER_H

#include "sw_replay_trace.h"

/**
 * struct sw_replay_order - what the merge did
 * @window:	ns: events of other CPUs this close may be out of order
 * @ties:	decisions between events of several CPUs within @window
 * @moved:	of those, decided against the timestamps by a kernel's rule
 * @broken:	events merged against a rule: no order kept them all
 * @ns:		the merge's time, ns
 */
struct sw_replay_order {
	u64	window;
	unsigned long	ties;
	unsigned long	moved;
	unsigned long	broken;
	double		ns;
};

void sw_replay_order(struct sw_replay_trace *t, size_t *timer_of, size_t nr_timers,
		     struct sw_replay_order *ro);

#endif /* _SW_REPLAY_ORDER_H */
