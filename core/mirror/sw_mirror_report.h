/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the mirror's report, a snapshot that owns its data, and
 * what prints it: the lines of mirror/stats, mirror/lateness, mirror/diff
 * and mirror/top (docs/ABI/debugfs-shadow-wheel) and the table for people,
 * mirror/summary, written through a print sink by the module and by the
 * replay alike (sw_mirror_report.c). No print function changes the report.
 */
#ifndef _SHADOW_WHEEL_SW_MIRROR_REPORT_H
#define _SHADOW_WHEEL_SW_MIRROR_REPORT_H

#include <linux/types.h>

#include "sw_mirror.h"
#include "sw_mirror_top.h"
#include "sw_print.h"

/**
 * struct sw_mirror_head - the caller's figures, which the report prints
 *	with the mirror's
 * @has_log:	the caller has a log of events (the module): the log
 *		figures are printed
 *
 * and a member for each head and log figure of sw_mirror_figures_list.h:
 * whether the mirror runs, its records, the time its figures cover...
 */
struct sw_mirror_head {
	bool		has_log;
#define SW_MIRROR_FIG(scope, name, ...) SW_MIRROR_FIG_IF(scope, head)(unsigned long name;)
#include "sw_mirror_figures_list.h"
#undef SW_MIRROR_FIG
#define SW_MIRROR_FIG(scope, name, ...) SW_MIRROR_FIG_IF(scope, log)(unsigned long name;)
#include "sw_mirror_figures_list.h"
#undef SW_MIRROR_FIG
};

/**
 * struct sw_mirror_report - a snapshot of the mirror, all a report prints
 * @head:	the caller's figures
 * @fig:	the mirror's
 * @has_top:	@top holds the table per timer function
 * @top:	the table per timer function
 * @top_order:	@top's entries, most events first
 */
struct sw_mirror_report {
	struct sw_mirror_head		head;
	struct sw_mirror_figures	fig;
	bool				has_top;
	struct sw_mirror_top		top;
	u8				top_order[SW_MIRROR_TOP_FNS];
};

/* Whose a figure is, and where mirror/stats prints it: see sw_mirror_figures_list.h */
enum sw_mirror_fig_scope { SW_FIG_HEAD, SW_FIG_LOG, SW_FIG_MIRROR, SW_FIG_WHEEL };
enum sw_mirror_fig_stats { SW_FIG_STATS_NONE, SW_FIG_STATS_LINE, SW_FIG_STATS_WHEEL };

/**
 * struct sw_mirror_fig - one entry of sw_mirror_figures_list.h
 * @name:	its key
 * @unit:	what it counts
 * @merge:	how two runs' figures make one
 * @column:	its heading in the summary, "" if it has no column
 * @scope:	whose it is
 * @stats:	where mirror/stats prints it
 * @div:	the summary shows it divided by this
 * @off:	where it is in the struct of its scope
 */
struct sw_mirror_fig {
	const char			*name;
	const char			*unit;
	const char			*merge;
	const char			*column;
	enum sw_mirror_fig_scope	scope;
	enum sw_mirror_fig_stats	stats;
	unsigned int			div;
	size_t				off;
};

enum {
#define SW_MIRROR_FIG(scope, name, ...) SW_MIRROR_FIG_NR_##name,
#include "sw_mirror_figures_list.h"
#undef SW_MIRROR_FIG
	SW_MIRROR_NR_FIGS
};

extern const struct sw_mirror_fig sw_mirror_figs[SW_MIRROR_NR_FIGS];

void sw_mirror_report_take(struct sw_mirror_report *rep, const struct sw_mirror_head *head,
			   const struct sw_mirror *m, const struct sw_mirror_top *top);
unsigned long sw_mirror_fig_value(const struct sw_mirror_report *rep,
				  const struct sw_mirror_fig *f, unsigned int w);
void sw_mirror_report_wheel_name(char *buf, size_t size, const struct sw_mirror_report *rep,
				 unsigned int w);
const char *sw_mirror_report_what_name(enum sw_diff_what what);
long sw_mirror_lat_quantile(const struct sw_mirror_lateness *lat, unsigned int q);
unsigned long long sw_mirror_report_ticks_us(long ticks, unsigned int hz);
void sw_mirror_report_stats(struct sw_print *p, const struct sw_mirror_report *rep);
void sw_mirror_report_lateness(struct sw_print *p, const struct sw_mirror_report *rep);
void sw_mirror_report_diff(struct sw_print *p, const struct sw_mirror_report *rep);
void sw_mirror_report_top(struct sw_print *p, const struct sw_mirror_report *rep);
void sw_mirror_report_summary(struct sw_print *p, const struct sw_mirror_report *rep);

#endif /* _SHADOW_WHEEL_SW_MIRROR_REPORT_H */
