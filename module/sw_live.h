/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the mirror on the running kernel: started and stopped by
 * sw_live.c, configured by sw_live_config.c, fed by sw_live_probe.c and
 * sw_live_feed.c, read by sw_live_read.c
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
int sw_live_set_wheels(const char *list, const char *who);
int sw_live_print_wheels(char *buf, size_t size);
unsigned int sw_live_nr_wheels(void);
int sw_live_load(void);
void sw_live_exit(void);

/* The sections of the mirror's report, each a file of debugfs mirror/ */
enum sw_live_section {
	SW_LIVE_STATS,
	SW_LIVE_LATENESS,
	SW_LIVE_DIFF,
	SW_LIVE_TOP,
	SW_LIVE_SUMMARY,
	SW_LIVE_LOGS,		/* not of the report: each CPU's log */
};

int sw_live_show(struct seq_file *s, enum sw_live_section section);

#endif /* _SHADOW_WHEEL_SW_LIVE_H */
