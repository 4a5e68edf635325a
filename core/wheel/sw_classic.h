/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the classic cascading wheel's own operations, called by
 * the core's operations when the base is a classic one (sw_classic.c).
 */
#ifndef _SHADOW_WHEEL_SW_CLASSIC_H
#define _SHADOW_WHEEL_SW_CLASSIC_H

#include "sw_wheel.h"

void sw_classic_geometry(struct sw_geometry *geo);
enum sw_modify_result sw_classic_modify(struct sw_base *base, struct sw_timer *timer,
					unsigned long expires);
unsigned int sw_classic_index(const struct sw_geometry *geo, unsigned long clk,
			      unsigned long expires, unsigned long *bucket_expiry,
			      unsigned int *how);
void sw_classic_collect(struct sw_base *base, struct sw_tick *tick);
bool sw_classic_next_expiry(const struct sw_base *base, unsigned long *next);
struct sw_timer *sw_classic_first(const struct sw_base *base);

#endif /* _SHADOW_WHEEL_SW_CLASSIC_H */
