/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the mirror's report, the lines of mirror/stats,
 * mirror/lateness, mirror/diff and mirror/top (docs/ABI/debugfs-shadow-wheel),
 * written through a print sink by the module and by the replay alike
 * (sw_mirror_report.c)
 */
#ifndef _SHADOW_WHEEL_SW_MIRROR_REPORT_H
#define _SHADOW_WHEEL_SW_MIRROR_REPORT_H

#include <linux/types.h>

#include "sw_mirror.h"
#include "sw_mirror_top.h"
#include "sw_print.h"

/**
 * struct sw_mirror_report - the mirror's figures, copied out for a report
 * @khz:	the kernel's HZ
 * @elapsed:	jiffies the figures cover (the caller's)
 * @consistent:	sw_mirror_consistent() held
 * @caught_up:	every wheel's clock had caught up (the caller's)
 * @own_events:	events the caller left out (the module's own timers)
 * @nr_wheels:	wheels
 * @fig:	per wheel; its @lat points into @lat
 * @depth:	per wheel, its levels
 * @gran:	per wheel and level, the expiry granularity in its ticks
 * @lat:	per wheel and level, the lateness
 * @m_events:	events by class
 * @expired_remote: expiries on another CPU than the timer's base's
 * @cancelled_due: cancels of due timers no expiry followed
 * @silently_modified: expiries whose expiry changed without an event
 * @diff:	the differential
 */
struct sw_mirror_report {
	unsigned int			khz;
	unsigned long			elapsed;
	bool				consistent;
	bool				caught_up;
	unsigned long			own_events;
	unsigned int			nr_wheels;
	struct sw_mirror_figures	fig[SW_MIRROR_MAX_WHEELS];
	unsigned int			depth[SW_MIRROR_MAX_WHEELS];
	unsigned long			gran[SW_MIRROR_MAX_WHEELS][SW_MAX_DEPTH];
	struct sw_mirror_lateness	lat[SW_MIRROR_MAX_WHEELS][SW_MAX_DEPTH];
	unsigned long			m_events[SW_MC_NR];
	unsigned long			expired_remote;
	unsigned long			cancelled_due;
	unsigned long			silently_modified;
	struct sw_diff			diff;
};

void sw_mirror_report_take(struct sw_mirror_report *rep, const struct sw_mirror *m);
void sw_mirror_report_wheel_name(char *buf, size_t size, const struct sw_mirror_figures *fig);
long sw_mirror_lat_quantile(const struct sw_mirror_lateness *lat, unsigned int q);
void sw_mirror_report_stats(struct sw_print *p, const struct sw_mirror_report *rep);
void sw_mirror_report_lateness(struct sw_print *p, const struct sw_mirror_report *rep);
void sw_mirror_report_diff(struct sw_print *p, const struct sw_mirror_report *rep);
void sw_mirror_report_top(struct sw_print *p, const struct sw_mirror_report *rep,
			  struct sw_mirror_top *top);

#endif /* _SHADOW_WHEEL_SW_MIRROR_REPORT_H */
