// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the mirror's report. The module's debugfs files and the
 * replay of a recorded trace print the same lines, from the same snapshot
 * (struct sw_mirror_report), through a print sink (sw_print.h): the
 * key-value files for scripts (keys in docs/ABI/debugfs-shadow-wheel) and
 * the summary for people, the wheels side by side. The figures are
 * described once, in sw_mirror_figures_list.h; the printers walk that
 * list (sw_mirror_figs[]) and never change the snapshot.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "sw_mirror_report.h"

#define SW_REPORT_USEC_PER_SEC	1000000ULL
#define SW_REPORT_MSEC_PER_SEC	1000ULL
/* The functions the summary names */
#define SW_REPORT_SUMMARY_FNS	8

/*
 * What an entry of the list becomes in the table: per scope, whose it is,
 * the struct that holds it and the member of that struct it is in
 */
#define SW_MIRROR_FIG_AT_head	SW_FIG_HEAD, struct sw_mirror_head,
#define SW_MIRROR_FIG_AT_log	SW_FIG_LOG, struct sw_mirror_head,
#define SW_MIRROR_FIG_AT_mirror	SW_FIG_MIRROR, struct sw_mirror_figures,
#define SW_MIRROR_FIG_AT_mcount	SW_FIG_MIRROR, struct sw_mirror_figures, counts.
#define SW_MIRROR_FIG_AT_wheel	SW_FIG_WHEEL, struct sw_mirror_wheel_figures,
#define SW_MIRROR_FIG_AT_wcount	SW_FIG_WHEEL, struct sw_mirror_wheel_figures, counts.
#define SW_MIRROR_FIG_STATS_none	SW_FIG_STATS_NONE
#define SW_MIRROR_FIG_STATS_line	SW_FIG_STATS_LINE
#define SW_MIRROR_FIG_STATS_wheel	SW_FIG_STATS_WHEEL
#define SW_MIRROR_FIG_ENTRY(...)	SW_MIRROR_FIG_ENTRY_AT(__VA_ARGS__)
#define SW_MIRROR_FIG_ENTRY_AT(whose, type, in, name, unit, merge, stats, column, div)	\
	[SW_MIRROR_FIG_NR_##name] = {						\
		#name, unit, #merge, column, whose,				\
		SW_MIRROR_FIG_STATS_##stats, div, offsetof(type, in name)	\
	},

const struct sw_mirror_fig sw_mirror_figs[SW_MIRROR_NR_FIGS] = {
#define SW_MIRROR_FIG(scope, ...) SW_MIRROR_FIG_ENTRY(SW_MIRROR_FIG_AT_##scope, __VA_ARGS__)
#include "sw_mirror_figures_list.h"
#undef SW_MIRROR_FIG
};

/* @n per second over @ms milliseconds */
static unsigned long sw_report_per_s(unsigned long n, unsigned long ms)
{
	return ms ? div64_u64((u64)n * SW_REPORT_MSEC_PER_SEC, ms) : 0;
}

/* @n in thousandths of @of, rounded */
static unsigned long sw_report_milli(unsigned long n, unsigned long of)
{
	return of ? div64_u64((u64)n * 1000 + of / 2, of) : 0;
}

/*
 * The figures computed from others (merge "derive" in the list), once the
 * mirror's and the caller's are in
 */
static void sw_mirror_report_derive(struct sw_mirror_report *rep)
{
	struct sw_mirror_figures *fig = &rep->fig;
	unsigned long ms = rep->head.elapsed_ms;
	unsigned int w;

	unsigned long verdicts = 0;
	unsigned int v;

	for (v = 0; v < SW_SIRQ_NR_VERDICTS; v++)
		verdicts += fig->softirq[v];
	fig->softirq_agreement_permille = sw_report_milli(fig->softirq[SW_SIRQ_AGREE], verdicts);
	fig->softirq_paired_permille = sw_report_milli(fig->softirq[SW_SIRQ_AGREE] +
						       fig->softirq[SW_SIRQ_LATE], verdicts);
	fig->expired_permille = sw_report_milli(fig->counts.expired, fig->counts.seen);
	for (w = 0; w < fig->wheels; w++) {
		struct sw_mirror_wheel_figures *wf = &fig->wheel[w];

		wf->late_10pct_permille = sw_report_milli(wf->counts.late_10pct,
							  fig->counts.expired);
		wf->cascaded_per_s = sw_report_per_s(wf->counts.cascaded, ms);
		wf->due_ticks_per_s = sw_report_per_s(wf->counts.due_ticks, ms);
		wf->expired_per_due_tick_milli = sw_report_milli(fig->counts.expired,
								 wf->counts.due_ticks);
		wf->softirqs_per_s = sw_report_per_s(wf->softirqs, ms);
		wf->spurious_permille = sw_report_milli(wf->spurious_softirqs, wf->softirqs);
		wf->idle_wakeups_per_s = sw_report_per_s(wf->idle_wakeups, ms);
	}
}

/**
 * sw_mirror_report_take - take a snapshot of the mirror for a report
 * @rep:	gets it; owns everything it holds
 * @head:	the caller's figures (running, records, elapsed_ms...)
 * @m:		the mirror
 * @top:	its table per timer function, or NULL: the report has none
 *
 * The caller serialises it with the mirror's events. Printing the report
 * needs neither the mirror nor @top any more.
 */
void sw_mirror_report_take(struct sw_mirror_report *rep, const struct sw_mirror_head *head,
			   const struct sw_mirror *m, const struct sw_mirror_top *top)
{
	rep->head = *head;
	sw_mirror_read_figures(m, &rep->fig);
	rep->has_top = !!top;
	if (top) {
		rep->top = *top;
		sw_mirror_top_order(&rep->top, rep->top_order);
	} else {
		sw_mirror_top_init(&rep->top);
	}
	sw_mirror_report_derive(rep);
}

/**
 * sw_mirror_fig_value - a figure of the report
 * @rep:	the report
 * @f:		the figure, an entry of sw_mirror_figs[]
 * @w:		the wheel, for a wheel figure
 *
 * Return: its value.
 */
unsigned long sw_mirror_fig_value(const struct sw_mirror_report *rep,
				  const struct sw_mirror_fig *f, unsigned int w)
{
	const void *base;

	switch (f->scope) {
	case SW_FIG_HEAD:
	case SW_FIG_LOG:
		base = &rep->head;
		break;
	case SW_FIG_MIRROR:
		base = &rep->fig;
		break;
	default:
		base = &rep->fig.wheel[w];
		break;
	}
	return *(const unsigned long *)((const char *)base + f->off);
}

/**
 * sw_mirror_report_wheel_name - "seed.250" and the like: a wheel's name,
 *	as sw_mirror_wheel_name() gave it
 * @buf:	gets it (%SW_SPEC_MAX holds any)
 * @size:	of @buf
 * @rep:	the report
 * @w:		the wheel
 */
void sw_mirror_report_wheel_name(char *buf, size_t size, const struct sw_mirror_report *rep,
				 unsigned int w)
{
	snprintf(buf, size, "%s", rep->fig.wheel[w].name);
}

/**
 * sw_mirror_report_ticks_us - a lateness in microseconds
 * @ticks:	of a wheel, negative counted as 0
 * @hz:		the wheel's HZ
 *
 * Return: @ticks in microseconds, rounded down.
 */
unsigned long long sw_mirror_report_ticks_us(long ticks, unsigned int hz)
{
	return div64_u64((u64)max(ticks, 0L) * SW_REPORT_USEC_PER_SEC, hz);
}

/* Whether mirror/stats prints @f, on a line of its own (@where LINE) or in a wheel's */
static bool sw_report_prints(const struct sw_mirror_report *rep, const struct sw_mirror_fig *f,
			     enum sw_mirror_fig_stats where)
{
	return f->stats == where && (f->scope != SW_FIG_LOG || rep->head.has_log);
}

/**
 * sw_mirror_report_stats - mirror/stats: the figures' lines, the events by
 *	class, then a line per wheel
 * @p:		the sink
 * @rep:	the report
 */
void sw_mirror_report_stats(struct sw_print *p, const struct sw_mirror_report *rep)
{
	const struct sw_mirror_fig *f;
	unsigned int w, c;
	char name[SW_SPEC_MAX];

	for (f = sw_mirror_figs; f < sw_mirror_figs + SW_MIRROR_NR_FIGS; f++) {
		if (sw_report_prints(rep, f, SW_FIG_STATS_LINE))
			sw_printf(p, "%s %lu\n", f->name, sw_mirror_fig_value(rep, f, 0));
	}
	for (c = 0; c < SW_MC_NR; c++)
		sw_printf(p, "events.%s %lu\n", sw_mirror_class_name(c), rep->fig.counts.events[c]);
	for (c = 0; c < SW_SIRQ_NR_VERDICTS; c++)
		sw_printf(p, "softirq.%s %lu\n", sw_sirq_verdict_name(c), rep->fig.softirq[c]);
	for (w = 0; w < rep->fig.wheels; w++) {
		sw_mirror_report_wheel_name(name, sizeof(name), rep, w);
		sw_printf(p, "wheel %s", name);
		for (f = sw_mirror_figs; f < sw_mirror_figs + SW_MIRROR_NR_FIGS; f++) {
			if (sw_report_prints(rep, f, SW_FIG_STATS_WHEEL))
				sw_printf(p, " %s %lu", f->name, sw_mirror_fig_value(rep, f, w));
		}
		sw_printf(p, "\n");
	}
}

/**
 * sw_mirror_lat_quantile - a quantile of a lateness histogram
 * @lat:	the lateness of one level of one wheel
 * @q:		per mille
 *
 * Return: the least lateness, in ticks, that @q per mille of the timers
 * do not exceed, to the histogram's resolution: the top of the bin it
 * falls in, capped at the largest seen.
 */
long sw_mirror_lat_quantile(const struct sw_mirror_lateness *lat, unsigned int q)
{
	unsigned long want = div64_u64((u64)lat->count * q + 999, 1000), seen = 0;
	unsigned int b;

	for (b = 0; b < SW_MIRROR_LAT_BINS; b++) {
		seen += lat->hist[b];
		if (seen >= want && want)
			return min_t(long, sw_mirror_lat_bin_top(b), lat->max);
	}
	return lat->max;
}

/**
 * sw_mirror_report_lateness - mirror/lateness: a line per wheel and level
 *	with expiries
 * @p:		the sink
 * @rep:	the report
 */
void sw_mirror_report_lateness(struct sw_print *p, const struct sw_mirror_report *rep)
{
	unsigned int w, lvl, b;
	char name[SW_SPEC_MAX];

	for (w = 0; w < rep->fig.wheels; w++) {
		const struct sw_mirror_wheel_figures *wf = &rep->fig.wheel[w];

		sw_mirror_report_wheel_name(name, sizeof(name), rep, w);
		for (lvl = 0; lvl < wf->depth; lvl++) {
			const struct sw_mirror_lateness *lat = &wf->lat[lvl];
			long p50 = sw_mirror_lat_quantile(lat, 500);
			long p99 = sw_mirror_lat_quantile(lat, 990);

			if (!lat->count)
				continue;
			sw_printf(p,
				  "wheel %s level %u gran %lu count %lu min %ld max %ld p50 %ld p99 %ld min_us %llu max_us %llu p50_us %llu p99_us %llu hist",
				  name, lvl, wf->gran[lvl], lat->count, lat->min, lat->max,
				  p50, p99,
				  sw_mirror_report_ticks_us(lat->min, wf->vhz),
				  sw_mirror_report_ticks_us(lat->max, wf->vhz),
				  sw_mirror_report_ticks_us(p50, wf->vhz),
				  sw_mirror_report_ticks_us(p99, wf->vhz));
			for (b = 0; b < SW_MIRROR_LAT_BINS; b++)
				sw_printf(p, "%c%lu", b ? ',' : ' ', lat->hist[b]);
			sw_printf(p, "\n");
		}
	}
}

static const char * const sw_diff_what_names[SW_DIFF_NR_WHAT] = {
	[SW_DIFF_PLACEMENT]	= "placement",
	[SW_DIFF_EXPIRY]	= "expiry",
};

/**
 * sw_mirror_report_what_name - what the differential compares, by name
 * @what:	enum sw_diff_what
 *
 * Return: "placement" or "expiry".
 */
const char *sw_mirror_report_what_name(enum sw_diff_what what)
{
	return sw_diff_what_names[what];
}

/* All comparisons of @what */
static unsigned long sw_report_compared(const struct sw_diff *diff, unsigned int what)
{
	unsigned long all = 0;
	unsigned int r;

	for (r = 0; r < SW_DIFF_NR_REASONS; r++)
		all += diff->count[what][r];
	return all;
}

/**
 * sw_mirror_report_diff - mirror/diff: the comparisons by reason, and the
 *	first mismatches
 * @p:		the sink
 * @rep:	the report
 */
void sw_mirror_report_diff(struct sw_print *p, const struct sw_mirror_report *rep)
{
	const struct sw_diff *diff = &rep->fig.diff;
	unsigned int what, r, i;

	for (what = 0; what < SW_DIFF_NR_WHAT; what++) {
		unsigned long all = sw_report_compared(diff, what);
		unsigned long match = diff->count[what][SW_DIFF_MATCH];

		for (r = 0; r < SW_DIFF_NR_REASONS; r++)
			sw_printf(p, "%s.%s %lu\n", sw_diff_what_names[what],
				  sw_diff_reason_name(r), diff->count[what][r]);
		sw_printf(p, "%s.compared %lu\n%s.match_ppm %llu\n", sw_diff_what_names[what],
			  all, sw_diff_what_names[what],
			  all ? (unsigned long long)div64_u64((u64)match * 1000000, all) : 0);
	}
	for (i = 0; i < diff->nr_kept; i++) {
		const struct sw_diff_entry *e = &diff->kept[i];

		sw_printf(p,
			  "mismatch %s reason %s timer %p now %lu expires %lu mclk %lu kidx %d midx %u ktick %lu mtick %lu armed_at %lu cpu %u kcpu %u lives %u\n",
			  sw_diff_what_names[e->what], sw_diff_reason_name(e->reason), e->timer,
			  e->now, e->expires, e->mclk, e->kidx == UINT_MAX ? -1 : (int)e->kidx,
			  e->midx, e->ktick, e->mtick, e->armed_at, e->cpu, e->kcpu, e->lives);
	}
}

/* The entry of the report's table @i places down, the others last */
static const struct sw_mirror_fn *sw_report_fn_at(const struct sw_mirror_report *rep,
						  unsigned int i)
{
	return i < rep->top.nr ? &rep->top.fns[rep->top_order[i]] : &rep->top.others;
}

static void sw_report_fn(struct sw_print *p, const struct sw_mirror_report *rep, unsigned int i)
{
	const struct sw_mirror_fn *f = sw_report_fn_at(rep, i);
	unsigned int c, w;
	char name[SW_SPEC_MAX];

	sw_printf(p, "fn ");
	if (i < rep->top.nr)
		p->fn(p, f->fn);
	else
		sw_printf(p, "(others)");
	sw_printf(p, " events %lu", sw_mirror_fn_events(f));
	for (c = 0; c < SW_MC_NR; c++)
		sw_printf(p, " %s %lu", sw_mirror_class_name(c), f->events[c]);
	for (w = 0; w < rep->fig.wheels; w++) {
		sw_mirror_report_wheel_name(name, sizeof(name), rep, w);
		sw_printf(p, " %s.level_max %u %s.lat_max %ld %s.lat_mean %lu", name,
			  f->lvl_max[w], name, f->lat_max[w], name,
			  f->expired[w] ? f->lat_sum[w] / f->expired[w] : 0);
	}
	sw_printf(p, "\n");
}

/* The functions the table prints: those it tells apart, and the others if they had events */
static unsigned int sw_report_nr_fns(const struct sw_mirror_report *rep)
{
	return rep->top.nr + !!sw_mirror_fn_events(&rep->top.others);
}

/**
 * sw_mirror_report_top - mirror/top: a line per timer function, most
 *	events first, the others last if they had any
 * @p:		the sink
 * @rep:	the report
 */
void sw_mirror_report_top(struct sw_print *p, const struct sw_mirror_report *rep)
{
	unsigned int i;

	for (i = 0; i < sw_report_nr_fns(rep); i++)
		sw_report_fn(p, rep, i);
}

/* @v / @div into @buf, with a decimal per zero of @div (1, 10, 100, 1000) */
static void sw_report_fixed(char *buf, size_t size, unsigned long v, unsigned int div)
{
	int decimals = div >= 1000 ? 3 : div >= 100 ? 2 : div >= 10 ? 1 : 0;

	if (decimals)
		snprintf(buf, size, "%lu.%0*lu", v / div, decimals, v % div);
	else
		snprintf(buf, size, "%lu", v);
}

/* The lateness @lat does not exceed for @q per mille of its timers, in ms, rounded */
static unsigned long long sw_report_lat_ms(const struct sw_mirror_lateness *lat, unsigned int q,
					   unsigned int hz)
{
	return div64_u64(sw_mirror_report_ticks_us(sw_mirror_lat_quantile(lat, q), hz) + 500,
			 1000);
}

/* The levels with expiries in any wheel: 1 + the highest */
static unsigned int sw_report_levels(const struct sw_mirror_report *rep)
{
	unsigned int w, lvl, n = 0;

	for (w = 0; w < rep->fig.wheels; w++) {
		for (lvl = 0; lvl < rep->fig.wheel[w].depth; lvl++) {
			if (rep->fig.wheel[w].lat[lvl].count)
				n = max(n, lvl + 1);
		}
	}
	return n;
}

/* The summary's table: a row per wheel, its columns from the list, then lateness per level */
static unsigned int sw_report_summary_wheels(struct sw_print *p,
					     const struct sw_mirror_report *rep)
{
	unsigned int w, lvl, levels = sw_report_levels(rep), early = 0;
	const struct sw_mirror_fig *f;
	char cell[SW_SPEC_MAX];
	int names = 14, len;

	/* The names' column: as wide as the widest, a spec's too */
	for (w = 0; w < rep->fig.wheels; w++) {
		len = strlen(rep->fig.wheel[w].name);
		if (len > names)
			names = len;
	}
	sw_printf(p, "%-*s", names, "wheel");
	for (f = sw_mirror_figs; f < sw_mirror_figs + SW_MIRROR_NR_FIGS; f++) {
		if (*f->column)
			sw_printf(p, " %8s", f->column);
	}
	for (lvl = 0; lvl < levels; lvl++) {
		snprintf(cell, sizeof(cell), "L%u p50/p99", lvl);
		sw_printf(p, " %12s", cell);
	}
	sw_printf(p, "\n");
	for (w = 0; w < rep->fig.wheels; w++) {
		const struct sw_mirror_wheel_figures *wf = &rep->fig.wheel[w];

		sw_mirror_report_wheel_name(cell, sizeof(cell), rep, w);
		sw_printf(p, "%-*s", names, cell);
		for (f = sw_mirror_figs; f < sw_mirror_figs + SW_MIRROR_NR_FIGS; f++) {
			int width = strlen(f->column);

			if (!width)
				continue;
			sw_report_fixed(cell, sizeof(cell), sw_mirror_fig_value(rep, f, w), f->div);
			sw_printf(p, " %*s", max(width, 8), cell);
		}
		for (lvl = 0; lvl < levels; lvl++) {
			const struct sw_mirror_lateness *lat = &wf->lat[lvl];

			if (lvl < wf->depth && lat->count) {
				snprintf(cell, sizeof(cell), "%llu/%llu ms",
					 sw_report_lat_ms(lat, 500, wf->vhz),
					 sw_report_lat_ms(lat, 990, wf->vhz));
				early += !!lat->hist[0];
			} else {
				snprintf(cell, sizeof(cell), "-");
			}
			sw_printf(p, " %12s", cell);
		}
		sw_printf(p, "\n");
	}
	return early;
}

/* The differential's line for @what: matches, and the other reasons found */
static void sw_report_summary_diff(struct sw_print *p, const struct sw_mirror_report *rep,
				   enum sw_diff_what what)
{
	const unsigned long *n = rep->fig.diff.count[what];
	unsigned long all = sw_report_compared(&rep->fig.diff, what);
	/* Thousandths of a percent */
	u64 pct = all ? div64_u64((u64)n[SW_DIFF_MATCH] * 100000 + all / 2, all) : 100000;
	unsigned int r;

	sw_printf(p, "  %-9s %lu of %lu match (%llu.%03llu%%)", sw_diff_what_names[what],
		  n[SW_DIFF_MATCH], all, (unsigned long long)div64_u64(pct, 1000),
		  (unsigned long long)(pct - div64_u64(pct, 1000) * 1000));
	for (r = 0; r < SW_DIFF_NR_REASONS; r++) {
		if (r != SW_DIFF_MATCH && n[r])
			sw_printf(p, ", %lu %s", n[r], sw_diff_reason_name(r));
	}
	sw_printf(p, "\n");
}

/*
 * The summary's line on the kernel's timer softirqs: recorded, those that
 * ran no timer, predicted by the kernel wheel's model of next_expiry, and
 * the share of the recorded ones the model paired (at their tick, or
 * raised at an earlier one)
 */
static void sw_report_summary_softirqs(struct sw_print *p, const struct sw_mirror_figures *fig)
{
	if (!fig->cpus_modelled || !fig->softirq_recorded) {
		sw_printf(p, "  softirqs  %s\n", fig->cpus_modelled ?
			  "none recorded: no timer softirq event came" : "not modelled");
		return;
	}
	sw_printf(p,
		  "  softirqs  %lu recorded (%lu ran no timer), %lu predicted: paired %lu.%lu%%, at the tick %lu.%lu%%\n",
		  fig->softirq_recorded, fig->softirq_recorded_spurious, fig->softirq_predicted,
		  fig->softirq_paired_permille / 10, fig->softirq_paired_permille % 10,
		  fig->softirq_agreement_permille / 10, fig->softirq_agreement_permille % 10);
	if (fig->softirq_model_resets)
		sw_printf(p,
			  "  softirqs  a CPU's model reset %lu times, over its work per event: %lu runs unmodelled\n",
			  fig->softirq_model_resets, fig->softirq[SW_SIRQ_UNMODELLED]);
}

/**
 * sw_mirror_report_summary - mirror/summary: the report for people
 * @p:		the sink
 * @rep:	the report
 *
 * What the mirror saw; every wheel side by side (the list's columns:
 * expired share, cascades and busy ticks per second...; the lateness
 * p50/p99 per level in ms); the differential against the kernel's wheel
 * with the reasons of its mismatches; the timer functions with the most
 * events; whether the invariant held and no wheel ran a timer early.
 */
void sw_mirror_report_summary(struct sw_print *p, const struct sw_mirror_report *rep)
{
	const struct sw_mirror_figures *fig = &rep->fig;
	const struct sw_mirror_counts *n = &fig->counts;
	unsigned long ds = (rep->head.elapsed_ms + 50) / 100;	/* tenths of a second */
	unsigned int i, early, fns = min_t(unsigned int, sw_report_nr_fns(rep),
					   SW_REPORT_SUMMARY_FNS);

	sw_printf(p,
		  "mirror: %lu.%lu s of the kernel's own timers, HZ=%lu: %lu armed, %lu expired, %lu cancelled, %lu pending, %lu dropped, %lu run remotely\n\n",
		  ds / 10, ds % 10, fig->hz, n->seen, n->expired, n->cancelled, n->pending,
		  n->dropped, n->expired_remote);
	early = sw_report_summary_wheels(p, rep);
	sw_printf(p, "\ndifferential, mainline at HZ=%lu against the kernel's wheel:\n", fig->hz);
	sw_report_summary_diff(p, rep, SW_DIFF_PLACEMENT);
	sw_report_summary_diff(p, rep, SW_DIFF_EXPIRY);
	sw_report_summary_softirqs(p, fig);
	if (rep->has_top) {
		sw_printf(p, "\ntimer functions, most events first:\n");
		for (i = 0; i < fns; i++) {
			const struct sw_mirror_fn *f = sw_report_fn_at(rep, i);

			sw_printf(p, "  %8lu events  ", sw_mirror_fn_events(f));
			if (i < rep->top.nr)
				p->fn(p, f->fn);
			else
				sw_printf(p, "(others)");
			sw_printf(p, "\n");
		}
	}
	sw_printf(p, "\ninvariant %s\n", fig->consistent ? "held" : "BROKEN");
	if (early)
		sw_printf(p, "EARLY expiries at %u wheel levels\n", early);
}
