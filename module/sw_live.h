/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the mirror on the running kernel: started, stopped and fed by
 * sw_live_probe.c, read by sw_live_read.c
 */
#ifndef _SHADOW_WHEEL_SW_LIVE_H
#define _SHADOW_WHEEL_SW_LIVE_H

#include <linux/types.h>

struct seq_file;

int sw_live_start(void);
int sw_live_start_records(unsigned long nr_records, bool with_own);
unsigned long sw_live_drain(void);
void sw_live_stop(void);
bool sw_live_running(void);
int sw_live_load(void);
void sw_live_exit(void);

int sw_live_show_stats(struct seq_file *s);
int sw_live_show_lateness(struct seq_file *s);
int sw_live_show_diff(struct seq_file *s);
int sw_live_show_top(struct seq_file *s);

#endif /* _SHADOW_WHEEL_SW_LIVE_H */
