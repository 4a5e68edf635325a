/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sw-replay: the jiffies each of the CPUs' recorded ticks saw
 * (sw_replay_ticks.c)
 */
#ifndef _SW_REPLAY_TICKS_H
#define _SW_REPLAY_TICKS_H

#include <stdbool.h>

#include "sw_replay_trace.h"

/**
 * struct sw_replay_ticks - how the ticks' jiffies were derived
 * @period:	TICK_NSEC at the trace's HZ
 * @offset:	jiffies less the tick period number of the tick's time
 * @offset_votes: ticks whose softirq's first timer agreed on @offset
 * @votes:	ticks whose softirq ran a timer
 */
struct sw_replay_ticks {
	unsigned long long	period;
	unsigned long		offset;
	unsigned long		offset_votes;
	unsigned long		votes;
};

bool sw_replay_tick_jiffies(struct sw_replay_trace *t, unsigned int hz,
			    struct sw_replay_ticks *tk);

#endif /* _SW_REPLAY_TICKS_H */
