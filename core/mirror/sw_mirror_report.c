// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the mirror's report. The module's debugfs files and the
 * replay of a recorded trace print the same lines, from the same figures
 * (struct sw_mirror_report), through a print sink (sw_print.h); the keys
 * are documented in docs/ABI/debugfs-shadow-wheel.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "sw_mirror_report.h"

#define SW_REPORT_USEC_PER_SEC	1000000ULL

/**
 * sw_mirror_report_take - copy a mirror's figures
 * @rep:	filled in, but for the caller's @elapsed, @caught_up and
 *		@own_events, which are left as they are
 * @m:		the mirror
 */
void sw_mirror_report_take(struct sw_mirror_report *rep, const struct sw_mirror *m)
{
	unsigned int w;

	rep->khz = m->khz;
	rep->consistent = sw_mirror_consistent(m);
	rep->nr_wheels = m->nr_wheels;
	for (w = 0; w < m->nr_wheels; w++) {
		const struct sw_geometry *geo = &m->wheels[w].base.geo;
		unsigned int lvl;

		sw_mirror_figures(m, w, &rep->fig[w]);
		rep->depth[w] = geo->depth;
		for (lvl = 0; lvl < geo->depth; lvl++)
			rep->gran[w][lvl] = sw_lvl_expiry_gran(geo, lvl);
		memcpy(rep->lat[w], rep->fig[w].lat, sizeof(rep->lat[w]));
		rep->fig[w].lat = rep->lat[w];
	}
	memcpy(rep->m_events, m->events, sizeof(rep->m_events));
	rep->expired_remote = m->expired_remote;
	rep->cancelled_due = m->cancelled_due;
	rep->silently_modified = m->silently_modified;
	rep->diff = m->diff;
}

/**
 * sw_mirror_report_wheel_name - "seed.250" and the like: a wheel's name
 * @buf:	gets it
 * @size:	of @buf
 * @fig:	the wheel's figures
 */
void sw_mirror_report_wheel_name(char *buf, size_t size, const struct sw_mirror_figures *fig)
{
	snprintf(buf, size, "%s.%u", sw_wheel_kind_name(fig->kind), fig->hz);
}

/* @n per second over @elapsed jiffies at @khz */
static unsigned long sw_report_per_s(unsigned long n, unsigned long elapsed, unsigned int khz)
{
	return elapsed ? div64_u64((u64)n * khz, elapsed) : 0;
}

/* @ticks of a wheel at @hz in microseconds */
static unsigned long long sw_report_ticks_us(long ticks, unsigned int hz)
{
	return div64_u64((u64)max(ticks, 0L) * SW_REPORT_USEC_PER_SEC, hz);
}

/**
 * sw_mirror_report_stats - mirror/stats from "consistent" on
 * @p:		the sink
 * @rep:	the figures
 *
 * The caller writes the lines before it (running, records, elapsed_ms,
 * hz, wheels), which are its own.
 */
void sw_mirror_report_stats(struct sw_print *p, const struct sw_mirror_report *rep)
{
	unsigned int w, c;
	char name[24];

	sw_printf(p, "consistent %d\ncaught_up %d\n", rep->consistent, rep->caught_up);
	sw_printf(p, "expired_remote %lu\ncancelled_due %lu\n", rep->expired_remote,
		  rep->cancelled_due);
	sw_printf(p, "silently_modified %lu\nown_events %lu\n", rep->silently_modified,
		  rep->own_events);
	for (c = 0; c < SW_MC_NR; c++)
		sw_printf(p, "events.%s %lu\n", sw_mirror_class_name(c), rep->m_events[c]);
	for (w = 0; w < rep->nr_wheels; w++) {
		const struct sw_mirror_figures *fig = &rep->fig[w];

		sw_mirror_report_wheel_name(name, sizeof(name), fig);
		sw_printf(p,
			  "wheel %s seen %lu cancelled %lu expired %lu pending %lu dropped %lu cascaded %lu cascaded_per_s %lu due_ticks %lu due_ticks_per_s %lu clamped %lu parked %lu ran_ahead %lu behind %lu\n",
			  name, fig->seen, fig->cancelled, fig->expired, fig->pending,
			  fig->dropped, fig->cascaded,
			  sw_report_per_s(fig->cascaded, rep->elapsed, rep->khz), fig->due_ticks,
			  sw_report_per_s(fig->due_ticks, rep->elapsed, rep->khz), fig->clamped,
			  fig->parked, fig->ran, fig->behind);
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
 * @rep:	the figures
 */
void sw_mirror_report_lateness(struct sw_print *p, const struct sw_mirror_report *rep)
{
	unsigned int w, lvl, b;
	char name[24];

	for (w = 0; w < rep->nr_wheels; w++) {
		const struct sw_mirror_figures *fig = &rep->fig[w];

		sw_mirror_report_wheel_name(name, sizeof(name), fig);
		for (lvl = 0; lvl < rep->depth[w]; lvl++) {
			const struct sw_mirror_lateness *lat = &fig->lat[lvl];
			long p50 = sw_mirror_lat_quantile(lat, 500);
			long p99 = sw_mirror_lat_quantile(lat, 990);

			if (!lat->count)
				continue;
			sw_printf(p,
				  "wheel %s level %u gran %lu count %lu min %ld max %ld p50 %ld p99 %ld min_us %llu max_us %llu p50_us %llu p99_us %llu hist",
				  name, lvl, rep->gran[w][lvl], lat->count, lat->min, lat->max,
				  p50, p99,
				  sw_report_ticks_us(lat->min, fig->hz),
				  sw_report_ticks_us(lat->max, fig->hz),
				  sw_report_ticks_us(p50, fig->hz),
				  sw_report_ticks_us(p99, fig->hz));
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
 * sw_mirror_report_diff - mirror/diff: the comparisons by reason, and the
 *	first mismatches
 * @p:		the sink
 * @rep:	the figures
 */
void sw_mirror_report_diff(struct sw_print *p, const struct sw_mirror_report *rep)
{
	const struct sw_diff *diff = &rep->diff;
	unsigned int what, r, i;

	for (what = 0; what < SW_DIFF_NR_WHAT; what++) {
		unsigned long all = 0, match;

		for (r = 0; r < SW_DIFF_NR_REASONS; r++) {
			all += diff->count[what][r];
			sw_printf(p, "%s.%s %lu\n", sw_diff_what_names[what],
				  sw_diff_reason_name(r), diff->count[what][r]);
		}
		match = diff->count[what][SW_DIFF_MATCH];
		sw_printf(p, "%s.compared %lu\n%s.match_ppm %llu\n", sw_diff_what_names[what],
			  all, sw_diff_what_names[what],
			  all ? (unsigned long long)div64_u64((u64)match * 1000000, all) : 0);
	}
	for (i = 0; i < diff->nr_kept; i++) {
		const struct sw_diff_entry *e = &diff->kept[i];

		sw_printf(p,
			  "mismatch %s reason %s timer %p now %lu expires %lu mclk %lu kidx %d midx %u ktick %lu mtick %lu\n",
			  sw_diff_what_names[e->what], sw_diff_reason_name(e->reason), e->timer,
			  e->now, e->expires, e->mclk, e->kidx == UINT_MAX ? -1 : (int)e->kidx,
			  e->midx, e->ktick, e->mtick);
	}
}

static void sw_report_fn(struct sw_print *p, const struct sw_mirror_report *rep,
			 const struct sw_mirror_fn *f, bool others)
{
	unsigned int c, w;
	char name[24];

	sw_printf(p, "fn ");
	if (others)
		sw_printf(p, "(others)");
	else
		p->fn(p, f->fn);
	sw_printf(p, " events %lu", sw_mirror_fn_events(f));
	for (c = 0; c < SW_MC_NR; c++)
		sw_printf(p, " %s %lu", sw_mirror_class_name(c), f->events[c]);
	for (w = 0; w < rep->nr_wheels; w++) {
		sw_mirror_report_wheel_name(name, sizeof(name), &rep->fig[w]);
		sw_printf(p, " %s.level_max %u %s.lat_max %ld %s.lat_mean %lu", name,
			  f->lvl_max[w], name, f->lat_max[w], name,
			  f->expired[w] ? f->lat_sum[w] / f->expired[w] : 0);
	}
	sw_printf(p, "\n");
}

/**
 * sw_mirror_report_top - mirror/top: a line per timer function, most
 *	events first, the others last if they had any
 * @p:		the sink
 * @rep:	the figures (for the wheels' names)
 * @top:	the table, sorted here
 */
void sw_mirror_report_top(struct sw_print *p, const struct sw_mirror_report *rep,
			  struct sw_mirror_top *top)
{
	unsigned int i;

	sw_mirror_top_sort(top);
	for (i = 0; i < top->nr; i++)
		sw_report_fn(p, rep, &top->fns[i], false);
	if (sw_mirror_fn_events(&top->others))
		sw_report_fn(p, rep, &top->others, true);
}
