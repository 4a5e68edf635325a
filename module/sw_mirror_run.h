/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the mirror on the running kernel (sw_mirror_run.c)
 */
#ifndef _SHADOW_WHEEL_SW_MIRROR_RUN_H
#define _SHADOW_WHEEL_SW_MIRROR_RUN_H

#include <linux/types.h>

#include "../core/sw_mirror.h"

struct seq_file;

/* What the mirror shows of the real timer functions (mirror/top) */
#define SW_MIRROR_TOP_FNS	64

/**
 * struct sw_mirror_fn - the mirror's figures for one real timer function
 * @fn:		the timer's function (printed with %ps), NULL for the rest
 * @events:	events of its timers, by what the mirror made of them
 * @lvl_max:	per wheel, the highest level its timers were placed at
 * @lat_max:	per wheel, its timers' largest lateness, in that wheel's ticks
 * @lat_sum:	per wheel, the sum of its timers' lateness
 * @expired:	per wheel, its timers' expiries the lateness counts
 */
struct sw_mirror_fn {
	void		*fn;
	unsigned long	events[SW_MC_NR];
	u8		lvl_max[SW_MIRROR_MAX_WHEELS];
	long		lat_max[SW_MIRROR_MAX_WHEELS];
	unsigned long	lat_sum[SW_MIRROR_MAX_WHEELS];
	unsigned long	expired[SW_MIRROR_MAX_WHEELS];
};

int sw_mirror_start(void);
int sw_mirror_start_records(unsigned long nr_records, bool with_own);
unsigned long sw_mirror_drain(void);
void sw_mirror_stop(void);
bool sw_mirror_running(void);
int sw_mirror_load(void);
void sw_mirror_exit(void);

int sw_mirror_show_stats(struct seq_file *s);
int sw_mirror_show_lateness(struct seq_file *s);
int sw_mirror_show_diff(struct seq_file *s);
int sw_mirror_show_top(struct seq_file *s);

#endif /* _SHADOW_WHEEL_SW_MIRROR_RUN_H */
