// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay --json: the mirror's report (core/mirror/sw_mirror_report.h)
 * as one JSON object, built with json-c from the same snapshot and the
 * same list of figures (sw_mirror_figures_list.h) the text reports are
 * printed from:
 *
 *   figures	every head, log and mirror figure of the list by name (a log
 *		figure null: the replay has no log)
 *   events	the events by class
 *   softirq	the softirq differential's verdicts (docs/replay.rst)
 *   wheels	per wheel: name, kind, hz, its figures of the list, and its
 *		lateness per level with expiries (as mirror/lateness)
 *   diff	placement and expiry: the comparisons by reason, compared,
 *		match_ppm; the first mismatches
 *   top	per timer function, most events first, "(others)" last: events,
 *		by class, and per wheel level_max, lat_max, lat_mean
 *   figure_list the list itself: name, scope, unit, merge, stats, column
 */
#include <stdio.h>

#include <linux/kernel.h>

#include "sw_replay_json.h"

static const char * const sw_json_scopes[] = {
	[SW_FIG_HEAD] = "head", [SW_FIG_LOG] = "log",
	[SW_FIG_MIRROR] = "mirror", [SW_FIG_WHEEL] = "wheel",
};

static const char * const sw_json_stats[] = {
	[SW_FIG_STATS_NONE] = "none", [SW_FIG_STATS_LINE] = "line",
	[SW_FIG_STATS_WHEEL] = "wheel",
};

static void sw_json_add_u64(struct json_object *o, const char *key, u64 v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

static void sw_json_add_s64(struct json_object *o, const char *key, s64 v)
{
	json_object_object_add(o, key, json_object_new_int64(v));
}

/* The list's figures into @o: a wheel's (@w), or the others (head, log, mirror) */
static void sw_json_figures(struct json_object *o, const struct sw_mirror_report *rep,
			    bool wheel, unsigned int w)
{
	const struct sw_mirror_fig *f;

	for (f = sw_mirror_figs; f < sw_mirror_figs + SW_MIRROR_NR_FIGS; f++) {
		bool of_wheel = f->scope == SW_FIG_WHEEL;

		if (of_wheel != wheel)
			continue;
		if (f->scope == SW_FIG_LOG && !rep->head.has_log)
			json_object_object_add(o, f->name, NULL);
		else
			sw_json_add_u64(o, f->name, sw_mirror_fig_value(rep, f, w));
	}
}

static struct json_object *sw_json_lateness(const struct sw_mirror_report *rep, unsigned int w)
{
	const struct sw_mirror_wheel_figures *wf = &rep->fig.wheel[w];
	struct json_object *levels = json_object_new_array();
	unsigned int lvl, b;

	for (lvl = 0; lvl < wf->depth; lvl++) {
		const struct sw_mirror_lateness *lat = &wf->lat[lvl];
		struct json_object *o, *hist;
		long p50 = sw_mirror_lat_quantile(lat, 500);
		long p99 = sw_mirror_lat_quantile(lat, 990);

		if (!lat->count)
			continue;
		o = json_object_new_object();
		sw_json_add_u64(o, "level", lvl);
		sw_json_add_u64(o, "gran", wf->gran[lvl]);
		sw_json_add_u64(o, "count", lat->count);
		sw_json_add_s64(o, "min", lat->min);
		sw_json_add_s64(o, "max", lat->max);
		sw_json_add_s64(o, "p50", p50);
		sw_json_add_s64(o, "p99", p99);
		sw_json_add_u64(o, "p50_us", sw_mirror_report_ticks_us(p50, wf->vhz));
		sw_json_add_u64(o, "p99_us", sw_mirror_report_ticks_us(p99, wf->vhz));
		hist = json_object_new_array();
		for (b = 0; b < SW_MIRROR_LAT_BINS; b++)
			json_object_array_add(hist, json_object_new_uint64(lat->hist[b]));
		json_object_object_add(o, "hist", hist);
		json_object_array_add(levels, o);
	}
	return levels;
}

/**
 * sw_replay_json_wheel - one wheel of the report: its name, kind, HZ,
 *	figures and lateness, as in the report's "wheels"
 * @rep:	the report
 * @w:		the wheel
 *
 * Return: a new JSON object.
 */
struct json_object *sw_replay_json_wheel(const struct sw_mirror_report *rep, unsigned int w)
{
	struct json_object *o = json_object_new_object();
	const char *kind = sw_wheel_kind_name(rep->fig.wheel[w].kind);
	char name[SW_SPEC_MAX];

	sw_mirror_report_wheel_name(name, sizeof(name), rep, w);
	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "kind", json_object_new_string(kind));
	sw_json_add_u64(o, "hz", rep->fig.wheel[w].vhz);
	sw_json_figures(o, rep, true, w);
	json_object_object_add(o, "lateness", sw_json_lateness(rep, w));
	return o;
}

static struct json_object *sw_json_wheels(const struct sw_mirror_report *rep)
{
	struct json_object *wheels = json_object_new_array();
	unsigned int w;

	for (w = 0; w < rep->fig.wheels; w++)
		json_object_array_add(wheels, sw_replay_json_wheel(rep, w));
	return wheels;
}

static struct json_object *sw_json_diff(const struct sw_mirror_report *rep)
{
	const struct sw_diff *diff = &rep->fig.diff;
	struct json_object *o = json_object_new_object(), *kept = json_object_new_array();
	unsigned int what, r, i;

	for (what = 0; what < SW_DIFF_NR_WHAT; what++) {
		struct json_object *d = json_object_new_object();
		unsigned long all = 0;

		for (r = 0; r < SW_DIFF_NR_REASONS; r++) {
			sw_json_add_u64(d, sw_diff_reason_name(r), diff->count[what][r]);
			all += diff->count[what][r];
		}
		sw_json_add_u64(d, "compared", all);
		sw_json_add_u64(d, "match_ppm",
				all ? diff->count[what][SW_DIFF_MATCH] * 1000000ULL / all : 0);
		json_object_object_add(o, sw_mirror_report_what_name(what), d);
	}
	for (i = 0; i < diff->nr_kept; i++) {
		const struct sw_diff_entry *e = &diff->kept[i];
		struct json_object *m = json_object_new_object();
		char timer[32];

		snprintf(timer, sizeof(timer), "%p", e->timer);
		json_object_object_add(m, "what",
				       json_object_new_string(sw_mirror_report_what_name(e->what)));
		json_object_object_add(m, "reason",
				       json_object_new_string(sw_diff_reason_name(e->reason)));
		json_object_object_add(m, "timer", json_object_new_string(timer));
		sw_json_add_u64(m, "now", e->now);
		sw_json_add_u64(m, "expires", e->expires);
		sw_json_add_u64(m, "mclk", e->mclk);
		sw_json_add_s64(m, "kidx", e->kidx == UINT_MAX ? -1 : (s64)e->kidx);
		sw_json_add_u64(m, "midx", e->midx);
		sw_json_add_u64(m, "ktick", e->ktick);
		sw_json_add_u64(m, "mtick", e->mtick);
		sw_json_add_u64(m, "armed_at", e->armed_at);
		sw_json_add_u64(m, "cpu", e->cpu);
		sw_json_add_u64(m, "kcpu", e->kcpu);
		sw_json_add_u64(m, "lives", e->lives);
		json_object_array_add(kept, m);
	}
	json_object_object_add(o, "mismatches", kept);
	return o;
}

static struct json_object *sw_json_fn(const struct sw_mirror_report *rep,
				      const struct sw_mirror_fn *f, const char *name)
{
	struct json_object *o = json_object_new_object();
	struct json_object *classes = json_object_new_object(), *wheels = json_object_new_array();
	unsigned int c, w;

	json_object_object_add(o, "fn", json_object_new_string(name));
	sw_json_add_u64(o, "events", sw_mirror_fn_events(f));
	for (c = 0; c < SW_MC_NR; c++)
		sw_json_add_u64(classes, sw_mirror_class_name(c), f->events[c]);
	json_object_object_add(o, "by_class", classes);
	for (w = 0; w < rep->fig.wheels; w++) {
		struct json_object *x = json_object_new_object();

		sw_json_add_u64(x, "level_max", f->lvl_max[w]);
		sw_json_add_s64(x, "lat_max", f->lat_max[w]);
		sw_json_add_u64(x, "lat_mean", f->expired[w] ? f->lat_sum[w] / f->expired[w] : 0);
		json_object_array_add(wheels, x);
	}
	json_object_object_add(o, "wheels", wheels);
	return o;
}

static struct json_object *sw_json_top(const struct sw_mirror_report *rep,
				       sw_replay_fn_name_t fn_name, void *ctx)
{
	struct json_object *top = json_object_new_array();
	unsigned int i;
	char name[128];

	for (i = 0; i < rep->top.nr; i++) {
		const struct sw_mirror_fn *f = &rep->top.fns[rep->top_order[i]];

		fn_name(ctx, f->fn, name, sizeof(name));
		json_object_array_add(top, sw_json_fn(rep, f, name));
	}
	if (sw_mirror_fn_events(&rep->top.others))
		json_object_array_add(top, sw_json_fn(rep, &rep->top.others, "(others)"));
	return top;
}

static struct json_object *sw_json_figure_list(void)
{
	struct json_object *list = json_object_new_array();
	const struct sw_mirror_fig *f;

	for (f = sw_mirror_figs; f < sw_mirror_figs + SW_MIRROR_NR_FIGS; f++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(f->name));
		json_object_object_add(o, "scope",
				       json_object_new_string(sw_json_scopes[f->scope]));
		json_object_object_add(o, "unit", json_object_new_string(f->unit));
		json_object_object_add(o, "merge", json_object_new_string(f->merge));
		json_object_object_add(o, "stats", json_object_new_string(sw_json_stats[f->stats]));
		json_object_object_add(o, "column", json_object_new_string(f->column));
		json_object_array_add(list, o);
	}
	return list;
}

/**
 * sw_replay_json_report - the report as a JSON object
 * @rep:	the report
 * @fn_name:	names a timer function
 * @ctx:	@fn_name's
 *
 * Return: a new object, the caller's to put.
 */
struct json_object *sw_replay_json_report(const struct sw_mirror_report *rep,
					  sw_replay_fn_name_t fn_name, void *ctx)
{
	struct json_object *o = json_object_new_object();
	struct json_object *figures = json_object_new_object(), *events = json_object_new_object();
	struct json_object *softirq = json_object_new_object();
	unsigned int c;

	sw_json_figures(figures, rep, false, 0);
	json_object_object_add(o, "figures", figures);
	for (c = 0; c < SW_MC_NR; c++)
		sw_json_add_u64(events, sw_mirror_class_name(c), rep->fig.counts.events[c]);
	json_object_object_add(o, "events", events);
	for (c = 0; c < SW_SIRQ_NR_VERDICTS; c++)
		sw_json_add_u64(softirq, sw_sirq_verdict_name(c), rep->fig.softirq[c]);
	json_object_object_add(o, "softirq", softirq);
	json_object_object_add(o, "wheels", sw_json_wheels(rep));
	json_object_object_add(o, "diff", sw_json_diff(rep));
	if (rep->has_top)
		json_object_object_add(o, "top", sw_json_top(rep, fn_name, ctx));
	json_object_object_add(o, "figure_list", sw_json_figure_list());
	return o;
}
