// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay --sweep: the trace replayed through every geometry of a grid
 * (sw_replay_grid.c), in passes of the mirror on the events read once,
 * and a row per geometry: lateness p50/p99, the share later than a tenth
 * of their timeout, softirqs/s and the spurious share, idle wakeups/s,
 * cascades/s, and the wheel's own CPU time per second of trace
 * (sw_replay_time.c); --json the same as JSON.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>

#include "sw_replay_exit.h"
#include "sw_replay_json.h"
#include "sw_replay_sweep.h"
#include "sw_replay_time.h"

/*
 * --sweep: the trace through every geometry of a grid, in passes of the
 * mirror, each the kernel's wheel (which the differentials need) and up
 * to SW_MIRROR_MAX_WHEELS - 1 of the grid's; the events read, ordered and
 * given their jiffies once, for every pass
 */
#define SW_SWEEP_BATCH	(SW_MIRROR_MAX_WHEELS - 1)

/* One geometry's row, from the pass's report */
struct sw_sweep_row {
	char		name[SW_SPEC_MAX];
	double		p50_ms;
	double		p99_ms;
	unsigned long	late_10pct_permille;
	unsigned long	softirqs_per_s;
	unsigned long	spurious_permille;
	unsigned long	idle_wakeups_per_s;
	unsigned long	cascaded_per_s;
	double		wheel_us_per_s;	/* the wheel alone, CPU per second of trace */
	struct json_object *wheel;	/* --json: the wheel as the report's JSON has it */
};

/* The row's figures in the JSON, by key */
static const struct sw_sweep_col {
	const char	*key;
	size_t		off;
	bool		dbl;
} sw_sweep_cols[] = {
#define SW_SWEEP_COL(m, dbl) { #m, offsetof(struct sw_sweep_row, m), dbl }
	SW_SWEEP_COL(p50_ms, true),
	SW_SWEEP_COL(p99_ms, true),
	SW_SWEEP_COL(late_10pct_permille, false),
	SW_SWEEP_COL(softirqs_per_s, false),
	SW_SWEEP_COL(spurious_permille, false),
	SW_SWEEP_COL(idle_wakeups_per_s, false),
	SW_SWEEP_COL(cascaded_per_s, false),
	SW_SWEEP_COL(wheel_us_per_s, true),
#undef SW_SWEEP_COL
};

static void sw_sweep_json_cols(struct json_object *r, const struct sw_sweep_row *row)
{
	const struct sw_sweep_col *c;

	for (c = sw_sweep_cols; c < sw_sweep_cols + ARRAY_SIZE(sw_sweep_cols); c++) {
		const void *v = (const char *)row + c->off;

		json_object_object_add(r, c->key, c->dbl ?
				       json_object_new_double(*(const double *)v) :
				       json_object_new_uint64(*(const unsigned long *)v));
	}
}

/* The lateness of every level of wheel @w, one histogram */
static void sw_sweep_lateness(const struct sw_mirror_wheel_figures *wf,
			      struct sw_mirror_lateness *all)
{
	unsigned int lvl, b;

	memset(all, 0, sizeof(*all));
	all->min = LONG_MAX;
	all->max = LONG_MIN;
	for (lvl = 0; lvl < wf->depth; lvl++) {
		const struct sw_mirror_lateness *lat = &wf->lat[lvl];

		if (!lat->count)
			continue;
		all->count += lat->count;
		all->min = min(all->min, lat->min);
		all->max = max(all->max, lat->max);
		for (b = 0; b < SW_MIRROR_LAT_BINS; b++)
			all->hist[b] += lat->hist[b];
	}
}

static unsigned long sw_sweep_fig(const struct sw_mirror_report *rep, unsigned int nr,
				  unsigned int w)
{
	return sw_mirror_fig_value(rep, &sw_mirror_figs[nr], w);
}

static void sw_sweep_row(struct sw_sweep_row *row, const struct sw_mirror_report *rep,
			 unsigned int w, bool json)
{
	const struct sw_mirror_wheel_figures *wf = &rep->fig.wheel[w];
	struct sw_mirror_lateness all;

	sw_mirror_report_wheel_name(row->name, sizeof(row->name), rep, w);
	sw_sweep_lateness(wf, &all);
	row->p50_ms = sw_mirror_report_ticks_us(sw_mirror_lat_quantile(&all, 500), wf->vhz) / 1e3;
	row->p99_ms = sw_mirror_report_ticks_us(sw_mirror_lat_quantile(&all, 990), wf->vhz) / 1e3;
	row->late_10pct_permille = sw_sweep_fig(rep, SW_MIRROR_FIG_NR_late_10pct_permille, w);
	row->softirqs_per_s = sw_sweep_fig(rep, SW_MIRROR_FIG_NR_softirqs_per_s, w);
	row->spurious_permille = sw_sweep_fig(rep, SW_MIRROR_FIG_NR_spurious_permille, w);
	row->idle_wakeups_per_s = sw_sweep_fig(rep, SW_MIRROR_FIG_NR_idle_wakeups_per_s, w);
	row->cascaded_per_s = sw_sweep_fig(rep, SW_MIRROR_FIG_NR_cascaded_per_s, w);
	row->wheel = json ? sw_replay_json_wheel(rep, w) : NULL;
}

/* The geometries of the grid's specs at the trace's HZ, each once */
static struct sw_geometry *sw_sweep_geometries(const struct sw_grid *g, unsigned int hz,
					       unsigned int *nr)
{
	struct sw_geometry *geos = sw_replay_calloc(g->nr, sizeof(*geos));
	char err[SW_SPEC_ERR_MAX], name[SW_SPEC_MAX], other[SW_SPEC_MAX];
	unsigned int n = 0, k;
	size_t i;

	for (i = 0; i < g->nr; i++) {
		if (sw_geometry_parse(&geos[n], g->spec[i], hz, err, sizeof(err)))
			sw_replay_die("--sweep: %s: %s", g->spec[i], err);
		sw_mirror_wheel_name(&geos[n], name, sizeof(name));
		for (k = 0; k < n; k++) {
			sw_mirror_wheel_name(&geos[k], other, sizeof(other));
			if (!strcmp(name, other))
				break;
		}
		n += k == n;
	}
	*nr = n;
	return geos;
}

/* What the sweep did, and the wall time it took */
struct sw_sweep_totals {
	unsigned int	passes;
	unsigned int	wheels_run;	/* in all passes, the kernel's wheel counted */
	double		secs;		/* of trace */
	double		pass_s;		/* the mirror's passes */
	double		wheels_s;	/* each wheel alone */
	double		wall;
};

/*
 * The pass of the geometries from @b on: its wheels into @batch, the
 * kernel's own geometry (@kgeo) as the pass's first wheel, whose softirqs
 * follow the kernel's ticks: its row is that wheel's, as in the ordinary
 * replay, not a copy's. Returns where the next pass starts; each
 * geometry's wheel in the pass in @wheel_of, the pass's size in @n.
 */
static unsigned int sw_sweep_batch(const struct sw_geometry *geos, unsigned int b,
				   unsigned int nr, const struct sw_geometry *kgeo,
				   struct sw_geometry *batch, unsigned int *wheel_of,
				   unsigned int *n)
{
	unsigned int e;

	*n = 0;
	for (e = b; e < nr; e++) {
		if (!memcmp(&geos[e], kgeo, sizeof(*kgeo))) {
			wheel_of[e] = 0;
			continue;
		}
		if (*n == SW_SWEEP_BATCH)
			break;
		batch[*n] = geos[e];
		wheel_of[e] = 1 + (*n)++;
	}
	return e;
}

/*
 * A pass per batch, each a replay as the ordinary one is, on the same
 * events; its rows from the pass's report
 */
static void sw_sweep_passes(const struct sw_replay *rp, const struct sw_geometry *geos,
			    unsigned int nr, struct sw_sweep_row *rows, bool json,
			    struct sw_sweep_totals *tot)
{
	unsigned int *wheel_of = sw_replay_calloc(nr, sizeof(*wheel_of));
	struct sw_mirror_report *rep = sw_replay_calloc(1, sizeof(*rep));
	struct sw_geometry batch[SW_SWEEP_BATCH], kgeo;
	unsigned int b, e, i, n;
	double t0;

	sw_geometry_init(&kgeo, SW_WHEEL_MAINLINE, rp->in.hz);
	for (b = 0; b < nr; b = e) {
		struct sw_replay *p = sw_replay_again(rp);

		e = sw_sweep_batch(geos, b, nr, &kgeo, batch, wheel_of, &n);
		p->kernel_only = true;
		p->geos = batch;
		p->nr_geos = n;
		t0 = sw_replay_now_s();
		sw_replay_setup(p);
		sw_replay_run(p);
		tot->pass_s += sw_replay_now_s() - t0;
		tot->passes++;
		tot->wheels_run += 1 + n;
		sw_replay_take(p, rep, false);
		for (i = b; i < e; i++)
			sw_sweep_row(&rows[i], rep, wheel_of[i], json);
		sw_replay_teardown(p);
		free(p);
	}
	free(wheel_of);
	free(rep);
}

/*
 * Each wheel timed alone (sw_replay_time_geometry()): the mirror's passes
 * are timed whole, their cost shared by the batch's wheels, not told apart
 */
static void sw_sweep_alone(const struct sw_replay *rp, const struct sw_geometry *geos,
			   unsigned int nr, struct sw_sweep_row *rows,
			   struct sw_sweep_totals *tot)
{
	unsigned int i;
	double ns, t0;

	for (i = 0; i < nr; i++) {
		t0 = sw_replay_now_s();
		ns = sw_replay_time_geometry(&rp->in.t, rp->in.timer_of, rp->in.timers.nr,
					     &geos[i], rp->in.hz);
		rows[i].wheel_us_per_s = ns / 1e3 / (tot->secs > 0 ? tot->secs : 1);
		tot->wheels_s += sw_replay_now_s() - t0;
	}
}

static void sw_sweep_json(const struct sw_replay *rp, const struct sw_sweep_row *rows,
			  unsigned int nr, const char *path, const struct sw_sweep_totals *tot)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	struct json_object *t = json_object_new_object();
	unsigned int i;

	json_object_object_add(t, "path", json_object_new_string(path));
	json_object_object_add(t, "events", json_object_new_uint64(rp->in.t.nr));
	json_object_object_add(t, "hz", json_object_new_uint64(rp->in.hz));
	json_object_object_add(t, "seconds", json_object_new_double(tot->secs));
	json_object_object_add(o, "trace", t);
	json_object_object_add(o, "geometries", json_object_new_uint64(nr));
	json_object_object_add(o, "passes", json_object_new_uint64(tot->passes));
	json_object_object_add(o, "wheels_run", json_object_new_uint64(tot->wheels_run));
	json_object_object_add(o, "pass_s", json_object_new_double(tot->pass_s));
	json_object_object_add(o, "wheels_alone_s", json_object_new_double(tot->wheels_s));
	json_object_object_add(o, "wall_s", json_object_new_double(tot->wall));
	for (i = 0; i < nr; i++) {
		struct json_object *r = json_object_new_object();
		const struct sw_sweep_row *row = &rows[i];

		json_object_object_add(r, "spec", json_object_new_string(row->name));
		sw_sweep_json_cols(r, row);
		json_object_object_add(r, "wheel", row->wheel);
		json_object_array_add(a, r);
	}
	json_object_object_add(o, "rows", a);
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static void sw_sweep_table(const struct sw_replay *rp, const struct sw_sweep_row *rows,
			   unsigned int nr, const struct sw_sweep_totals *tot)
{
	unsigned int i;
	int width = 12;

	for (i = 0; i < nr; i++) {
		if ((int)strlen(rows[i].name) > width)
			width = strlen(rows[i].name);
	}
	printf("%-*s %8s %8s %8s %10s %9s %10s %10s %10s\n", width, "spec", "p50 ms",
	       "p99 ms", "late>10%", "softirq/s", "spurious%", "wakeups/s", "cascades/s",
	       "wheel us/s");
	for (i = 0; i < nr; i++) {
		const struct sw_sweep_row *row = &rows[i];

		printf("%-*s %8.2f %8.2f %7lu.%lu %10lu %7lu.%lu %10lu %10lu %10.1f\n",
		       width, row->name, row->p50_ms, row->p99_ms,
		       row->late_10pct_permille / 10, row->late_10pct_permille % 10,
		       row->softirqs_per_s,
		       row->spurious_permille / 10, row->spurious_permille % 10,
		       row->idle_wakeups_per_s, row->cascaded_per_s, row->wheel_us_per_s);
	}
	printf("sweep: %u geometries over %zu events (%.1f s of trace at HZ %u):", nr,
	       rp->in.t.nr, tot->secs, rp->in.hz);
	printf(" %u passes of the mirror %.2f s (%.1f ns per wheel-event,", tot->passes,
	       tot->pass_s, tot->pass_s * 1e9 / ((double)rp->in.t.nr * tot->wheels_run));
	printf(" the kernel's wheel counted), the wheels alone %.2f s, %.2f s in all\n",
	       tot->wheels_s, tot->wall);
}

/* --sweep: the trace @rp read through every geometry of @grid, a row each */
void sw_replay_sweep(const struct sw_replay *rp, const struct sw_grid *grid, const char *path,
		     bool json)
{
	unsigned int nr;
	struct sw_geometry *geos = sw_sweep_geometries(grid, rp->in.hz, &nr);
	struct sw_sweep_row *rows = sw_replay_calloc(nr, sizeof(*rows));
	struct sw_sweep_totals tot = { .wall = sw_replay_now_s() };

	tot.secs = (double)(rp->in.last_now - rp->in.first_now) / rp->in.hz;
	sw_sweep_passes(rp, geos, nr, rows, json, &tot);
	sw_sweep_alone(rp, geos, nr, rows, &tot);
	tot.wall = sw_replay_now_s() - tot.wall;
	if (json)
		sw_sweep_json(rp, rows, nr, path, &tot);
	else
		sw_sweep_table(rp, rows, nr, &tot);
	free(rows);
	free(geos);
}
