/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sw-replay: the replay timed, each wheel and the heap alone
 * (sw_replay_time.c)
 */
#ifndef _SW_REPLAY_TIME_H
#define _SW_REPLAY_TIME_H

#include "sw_replay_trace.h"
#include "sw_wheel.h"

void sw_replay_time(const struct sw_replay_trace *t, const size_t *timer_of, size_t nr_timers,
		    unsigned int khz, unsigned int rounds);
void sw_replay_tick_cost(const struct sw_replay_trace *t, const size_t *timer_of,
			 size_t nr_timers, unsigned int khz, unsigned int rounds);
double sw_replay_now_s(void);
double sw_replay_time_geometry(const struct sw_replay_trace *t, const size_t *timer_of,
			       size_t nr_timers, const struct sw_geometry *geo, unsigned int khz);

#endif /* _SW_REPLAY_TIME_H */
