// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay: the command line read and checked before the trace is, a
 * bad option or spec the usage or the parser's message and exit status 2
 * (docs/replay.rst tells the options)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>

#include "sw_order.h"
#include "sw_replay_exit.h"
#include "sw_replay_options.h"
#include "sw_replay_report.h"

static void sw_replay_usage(void)
{
	fprintf(stderr,
		"%s: %s [--hz HZ] [--window NS] [--exact-next] [--wheel SPEC]... [--raw | --only %s | --json | --check | --time [ROUNDS] | --tick-cost [ROUNDS]] [--phases] TRACE.dat\n"
		"       %s [--hz HZ] [--window NS] --sweep GRID [--json] TRACE.dat\n"
		"  SPEC: seed, mainline, classic or bits=B,shift=S,depth=D,hz=H,clamp|cascade\n"
		"  GRID: a file of specs, one a line, or KEY=A:B[:STEP],V,.../WORD,.../... (docs/replay.rst)\n",
		"usage", sw_replay_prog, "stats|lateness|diff|top", sw_replay_prog);
	exit(2);
}

/* --wheel SPEC: checked now, at any HZ; made again at the trace's */
static void sw_replay_option_wheel(struct sw_replay_options *o, const char *spec)
{
	struct sw_geometry geo;
	char err[512];

	if (sw_geometry_parse(&geo, spec, 250, err, sizeof(err)))
		sw_replay_die("--wheel %s: %s", spec, err);
	if (o->nr_wheel_specs == SW_MIRROR_MAX_WHEELS)
		sw_replay_die("--wheel %s: the mirror runs at most %u wheels; %s",
			      spec, SW_MIRROR_MAX_WHEELS, "more with --sweep");
	o->wheel_specs[o->nr_wheel_specs++] = spec;
}

/* --only SECTION */
static void sw_replay_option_only(struct sw_replay_options *o, const char *section)
{
	static const char * const names[] = { "stats", "lateness", "diff", "top" };
	unsigned int i;

	for (i = 0; i < 4 && strcmp(section, names[i]); i++)
		;
	if (i == 4)
		sw_replay_usage();
	o->show = 1U << i;
}

/*
 * The option at @argv[@a] that takes a value, with the value after it:
 * returns where the next option is, or 0 if it is none of them
 */
static int sw_replay_option_valued(struct sw_replay_options *o, int argc, char **argv, int a)
{
	const char *opt = argv[a], *val = argv[a + 1];
	char *end;

	if (a + 1 >= argc)
		return 0;
	if (!strcmp(opt, "--hz")) {
		o->hz = strtoul(val, &end, 10);
		if (*end || !o->hz)
			sw_replay_die("--hz %s: not a HZ", val);
		o->hz_given = true;
	} else if (!strcmp(opt, "--window")) {
		errno = 0;
		o->window = strtoull(val, &end, 10);
		if (*end || errno || val[0] == '-' || !val[0])
			sw_replay_die("--window %s: not a number of ns", val);
	} else if (!strcmp(opt, "--wheel")) {
		sw_replay_option_wheel(o, val);
	} else if (!strcmp(opt, "--sweep")) {
		o->sweep = val;
	} else if (!strcmp(opt, "--only")) {
		sw_replay_option_only(o, val);
	} else {
		return 0;
	}
	return a + 1;
}

/*
 * --time [ROUNDS] or --tick-cost [ROUNDS] at @argv[@a]: ROUNDS if an
 * argument follows it besides the trace. Returns where the option ends.
 */
static int sw_replay_option_time(struct sw_replay_options *o, int argc, char **argv, int a)
{
	char *end;

	o->tick_cost = !strcmp(argv[a], "--tick-cost");
	o->time_rounds = o->tick_cost ? 5 : 10;
	if (a + 2 < argc) {
		o->time_rounds = strtoul(argv[++a], &end, 10);
		if (*end || !o->time_rounds || o->time_rounds > 10000)
			sw_replay_die("%s %s: not in 1..10000", argv[a - 1], argv[a]);
	}
	return a;
}

/* --sweep GRID: every spec checked before the trace is read, a bad one changes nothing */
static void sw_replay_option_grid(struct sw_replay_options *o)
{
	struct sw_geometry geo;
	char err[512], why[128];
	size_t k;

	if (sw_grid_expand(o->sweep, &o->grid, err, sizeof(err)))
		sw_replay_die("--sweep %s: %s", o->sweep, err);
	for (k = 0; k < o->grid.nr; k++) {
		if (sw_geometry_parse(&geo, o->grid.spec[k], 250, why, sizeof(why)))
			sw_replay_die("--sweep: %s: %s", o->grid.spec[k], why);
	}
}

/* The command line into @o; bad usage ends the program */
void sw_replay_options_parse(struct sw_replay_options *o, int argc, char **argv)
{
	int a, next;

	memset(o, 0, sizeof(*o));
	o->window = SW_ORDER_WINDOW_NS;
	o->show = SW_SHOW_SUMMARY;
	for (a = 1; a < argc; a++) {
		next = sw_replay_option_valued(o, argc, argv, a);
		if (next)
			a = next;
		else if (!strcmp(argv[a], "--exact-next"))
			o->exact_next = true;
		else if (!strcmp(argv[a], "--raw"))
			o->show = SW_SHOW_RAW;
		else if (!strcmp(argv[a], "--json"))
			o->show = SW_SHOW_JSON;
		else if (!strcmp(argv[a], "--check"))
			o->check = true;
		else if (!strcmp(argv[a], "--phases"))
			o->phases = true;
		else if (!strcmp(argv[a], "--time") || !strcmp(argv[a], "--tick-cost"))
			a = sw_replay_option_time(o, argc, argv, a);
		else if (argv[a][0] == '-' || o->path)
			sw_replay_usage();
		else
			o->path = argv[a];
	}
	if (!o->path || (o->sweep && (o->check || o->time_rounds || o->nr_wheel_specs ||
				      o->exact_next || (o->show != SW_SHOW_SUMMARY &&
							o->show != SW_SHOW_JSON))))
		sw_replay_usage();
	if (o->sweep)
		sw_replay_option_grid(o);
}

/* --wheel's specs at the trace's HZ @hz, where a spec gives none, into @geos */
void sw_replay_options_wheels(const struct sw_replay_options *o, unsigned int hz,
			      struct sw_geometry *geos)
{
	char err[512];
	unsigned int i;

	for (i = 0; i < o->nr_wheel_specs; i++) {
		if (sw_geometry_parse(&geos[i], o->wheel_specs[i], hz, err, sizeof(err)))
			sw_replay_die("--wheel %s: %s", o->wheel_specs[i], err);
	}
}
