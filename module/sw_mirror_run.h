/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the mirror on the running kernel (sw_mirror_run.c)
 */
#ifndef _SHADOW_WHEEL_SW_MIRROR_RUN_H
#define _SHADOW_WHEEL_SW_MIRROR_RUN_H

#include <linux/types.h>

#include "sw_mirror.h"

struct seq_file;

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
int sw_mirror_show_summary(struct seq_file *s);

#endif /* _SHADOW_WHEEL_SW_MIRROR_RUN_H */
