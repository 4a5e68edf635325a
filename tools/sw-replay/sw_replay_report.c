// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay: the report of a run. By default the summary, every wheel side
 * by side (as mirror/summary); --raw the sections of the key-value report
 * (as the mirror/ files stats, lateness, diff, top), --only one of them,
 * each with what the replay adds (the wheels' contract, the softirq
 * differential per CPU); --json the same report as one JSON document
 * (sw_replay_json.c), with what the replay read. The mirror's own report
 * is core/mirror/sw_mirror_report.c's.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/kernel.h>

#include "sw_replay_json.h"
#include "sw_replay_report.h"

/* The report's sink: stdout, functions by the trace's names */
static __printf(2, 0) void sw_stdio_vprintf(struct sw_print *p, const char *fmt, va_list args)
{
	vfprintf(stdout, fmt, args);
}

/* The name of the timer function @fn: the trace's, else its address */
static void sw_replay_fn_name(void *ctx, const void *fn, char *buf, size_t size)
{
	const struct sw_replay *rp = ctx;
	const char *name = sw_replay_trace_fn_name(&rp->in.t, (uintptr_t)fn);

	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "0x%llx", (unsigned long long)(uintptr_t)fn);
}

static void sw_stdio_fn(struct sw_print *p, const void *fn)
{
	char name[128];

	sw_replay_fn_name(p->ctx, fn, name, sizeof(name));
	fputs(name, stdout);
}

/* The CPUs' ticks: observed, and their jiffies derived, or assumed */
static void sw_replay_ticks_note(const struct sw_replay *rp)
{
	const struct sw_replay_ticks *tk = &rp->in.ticks;

	if (sw_replay_softirq_missing(rp))
		return;
	if (rp->in.observed_ticks) {
		printf("replay ticks: %llu observed, jiffies their time / %llu ns + %lu",
		       (unsigned long long)rp->in.t.nr_ticks, tk->period, tk->offset);
		printf(" (%lu of the %lu ticks that ran a timer agree)\n", tk->offset_votes,
		       tk->votes);
		return;
	}
	printf("replay ticks: %s: %s\n", rp->in.t.nr_ticks ?
	       "recorded, but none ran a timer to tell their jiffies" :
	       "not recorded (the trace lacks the tick's timer:hrtimer_expire_entry)",
	       "every awake CPU taken to tick on every jiffy");
}

/* What the replay lacks or changed, said before the report */
static void sw_replay_notes(const struct sw_replay *rp)
{
	const char *why;

	why = sw_replay_softirq_missing(rp);
	if (why)
		printf("replay softirq differential: %s\n", why);
	why = sw_replay_idle_missing(rp);
	if (why)
		printf("replay idle: %s: %s\n", why,
		       "every CPU taken as awake, on every tick; idle_wakeups not measured");
	if (rp->in.exact_next)
		printf("replay next_expiry: exact (--exact-next: the stale rule off)\n");
	sw_replay_ticks_note(rp);
}

/* After mirror/stats' lines: the softirq differential per CPU */
static void sw_replay_softirq_cpus(struct sw_replay *rp, const struct sw_mirror_report *rep)
{
	unsigned int cpu, v;

	if (sw_replay_softirq_missing(rp))
		return;
	for (cpu = 0; cpu < rp->nr_cpus; cpu++) {
		struct sw_sirq_cpu_figures f;

		sw_mirror_read_cpu(rp->m, cpu, &f);
		if (!f.followed)
			continue;
		printf("softirq_cpu %u recorded %lu recorded_spurious %lu", cpu, f.recorded,
		       f.recorded_spurious);
		printf(" predicted %lu pending %lu", f.predicted, f.unmatched);
		for (v = 0; v < SW_SIRQ_NR_VERDICTS; v++)
			printf(" %s %lu", sw_sirq_verdict_name(v), f.verdict[v]);
		printf("\n");
	}
}

/* After mirror/stats' lines: each wheel's contract, as the replay checked it */
static void sw_replay_contracts(struct sw_replay *rp, const struct sw_mirror_report *rep)
{
	unsigned int w;

	for (w = 0; w < rep->fig.wheels; w++) {
		const struct sw_contract *c = &rp->contract[w];
		char name[SW_SPEC_MAX];

		sw_mirror_report_wheel_name(name, sizeof(name), rep, w);
		printf("contract %s checked %lu early %lu late %lu", name,
		       c->checked, c->early, c->late);
		printf(" clamped_early %lu worst_excess %ld\n", c->clamped_early,
		       c->worst_excess);
	}
	sw_replay_softirq_cpus(rp, rep);
}

/* The lateness header: the largest lateness each histogram bin holds, the last: the rest */
static void sw_replay_hist_tops(void)
{
	unsigned int b;

	printf(" hist_tops");
	for (b = 0; b + 1 < SW_MIRROR_LAT_BINS; b++)
		printf("%c%ld", b ? ',' : ' ', sw_mirror_lat_bin_top(b));
	printf(",max");
}

/*
 * The sections of the report, in the order they print: each under a line
 * "# title" (the summary after a blank line), with what the replay adds
 * to the header line and after the section
 */
static const struct sw_replay_section {
	unsigned int	show;
	const char	*title;
	void		(*print)(struct sw_print *p, const struct sw_mirror_report *rep);
	void		(*head)(void);
	void		(*more)(struct sw_replay *rp, const struct sw_mirror_report *rep);
} sw_replay_sections[] = {
	{ SW_SHOW_SUMMARY, NULL, sw_mirror_report_summary, NULL, NULL },
	{ SW_SHOW_STATS, "stats", sw_mirror_report_stats, NULL, sw_replay_contracts },
	{ SW_SHOW_LATENESS, "lateness", sw_mirror_report_lateness, sw_replay_hist_tops, NULL },
	{ SW_SHOW_DIFF, "diff", sw_mirror_report_diff, NULL, NULL },
	{ SW_SHOW_TOP, "top", sw_mirror_report_top, NULL, NULL },
};

void sw_replay_report(struct sw_replay *rp, const struct sw_mirror_report *rep,
		      unsigned int show)
{
	struct sw_print p = { .vprintf = sw_stdio_vprintf, .fn = sw_stdio_fn, .ctx = rp };
	const struct sw_replay_section *s;

	for (s = sw_replay_sections; s < sw_replay_sections + ARRAY_SIZE(sw_replay_sections); s++) {
		if (!(show & s->show))
			continue;
		if (s->title)
			printf("# %s", s->title);
		if (s->head)
			s->head();
		printf("\n");
		s->print(&p, rep);
		if (s->more)
			s->more(rp, rep);
	}
}

/* --json: the report, and what the replay read, as one JSON document */
void sw_replay_report_json(struct sw_replay *rp, const struct sw_mirror_report *rep,
			   const char *path, const char *why)
{
	struct json_object *o = sw_replay_json_report(rep, sw_replay_fn_name, rp);
	struct json_object *t = json_object_new_object();

	json_object_object_add(t, "path", json_object_new_string(path));
	json_object_object_add(t, "events", json_object_new_uint64(rp->in.t.nr));
	json_object_object_add(t, "timers", json_object_new_uint64(rp->in.timers.nr));
	json_object_object_add(t, "cpus", json_object_new_uint64(rp->in.t.nr_cpus));
	json_object_object_add(t, "other_events", json_object_new_uint64(rp->in.t.other));
	json_object_object_add(t, "missed", json_object_new_int64(rp->in.t.missed));
	json_object_object_add(t, "hz", json_object_new_uint64(rp->in.hz));
	json_object_object_add(t, "hz_from", json_object_new_string(why));
	json_object_object_add(t, "order_window_ns", json_object_new_uint64(rp->order.window));
	json_object_object_add(t, "order_ties", json_object_new_uint64(rp->order.ties));
	json_object_object_add(t, "order_moved", json_object_new_uint64(rp->order.moved));
	json_object_object_add(t, "order_broken", json_object_new_uint64(rp->order.broken));
	json_object_object_add(t, "ticks", json_object_new_uint64(rp->in.t.nr_ticks));
	json_object_object_add(t, "ticks_observed", json_object_new_boolean(rp->in.observed_ticks));
	json_object_object_add(o, "trace", t);
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* The report's first lines: what the replay read, and what it lacks */
void sw_replay_report_trace(const struct sw_replay *rp, const char *path, const char *why)
{
	printf("replay trace %s events %zu timers %zu cpus %u",
	       path, rp->in.t.nr, rp->in.timers.nr, rp->in.t.nr_cpus);
	printf(" other_events %llu missed %lld\n", (unsigned long long)rp->in.t.other,
	       rp->in.t.missed);
	printf("replay hz %u (%s)\n", rp->in.hz, why);
	printf("replay order window_ns %llu ties %lu moved %lu broken %lu\n",
	       (unsigned long long)rp->order.window, rp->order.ties, rp->order.moved,
	       rp->order.broken);
	sw_replay_notes(rp);
}
