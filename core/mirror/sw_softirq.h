/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the CPUs' timer softirqs as the kernel raises them, from
 * its bases' next_expiry, modelled per CPU for every wheel of the mirror
 * (sw_softirq.c). Called by the mirror alone (sw_mirror.c); what it
 * shows goes out through sw_mirror_read_figures() and sw_mirror_read_cpu().
 */
#ifndef _SHADOW_WHEEL_SW_SOFTIRQ_H
#define _SHADOW_WHEEL_SW_SOFTIRQ_H

#include "sw_mirror.h"

void sw_sirq_catch_up(struct sw_mirror *m, unsigned int cpu, unsigned long j, bool own);
void sw_sirq_catch_up_all(struct sw_mirror *m, unsigned long j);
void sw_sirq_enqueue(struct sw_mirror *m, struct sw_mirror_rec *r);
void sw_sirq_delete(struct sw_mirror *m, struct sw_mirror_rec *r);
void sw_sirq_release(struct sw_mirror *m, struct sw_mirror_rec *r);
void sw_sirq_expired(struct sw_mirror *m, const struct sw_mirror_rec *r);
void sw_sirq_expiry(struct sw_mirror *m, const struct sw_mirror_event *ev,
		    const struct sw_mirror_rec *r);
void sw_sirq_cpu_event(struct sw_mirror *m, const struct sw_mirror_event *ev);
void sw_sirq_read_wheel(const struct sw_mirror *m, unsigned int w, unsigned long *softirqs,
			unsigned long *spurious, unsigned long *wakeups);

#endif /* _SHADOW_WHEEL_SW_SOFTIRQ_H */
