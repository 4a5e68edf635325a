// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay: the kernel's timer events recorded by trace-cmd, replayed in
 * user space through the mirror's core (core/mirror/sw_mirror.c, unchanged): seed,
 * mainline and classic wheels at the trace's HZ and at 100, 250 and 1000,
 * and any wheel given by a spec (--wheel), with the differential against
 * the kernel's recorded placement and expiry tick, and the same report as
 * the module's mirror/ files (core/mirror/sw_mirror_report.c). docs/replay.rst tells how to use it.
 *
 *   sw-replay [--hz HZ] [--window NS] [--wheel SPEC]... [--raw | --only stats|lateness|diff|top |
 *             --json] [--phases] TRACE.dat
 *   sw-replay [--hz HZ] [--window NS] --sweep GRID [--json] TRACE.dat
 *   sw-replay [--hz HZ] [--window NS] [--exact-next] --check TRACE.dat
 *   sw-replay [--hz HZ] [--window NS] --time [ROUNDS] TRACE.dat
 *   sw-replay [--hz HZ] [--window NS] --tick-cost [ROUNDS] TRACE.dat
 *
 * By default it prints the summary, every wheel side by side (as
 * mirror/summary); --raw the sections of the key-value report (as the
 * mirror/ files stats, lateness, diff, top), --only one of them; --json
 * the same report as one JSON document (sw_replay_json.c).
 * HZ is inferred from the trace (jiffies against timestamps) unless given.
 * The CPUs' events are put in an order the kernel can have produced
 * (sw_replay_order.c): events of other CPUs up to NS apart (default
 * SW_ORDER_WINDOW_NS) may be taken out of timestamp order for it.
 * timer_cancel carries no jiffies: a cancel takes those of the next event
 * in the trace that carries them (any CPU), or of the last one before it
 * at the end of the trace; so do a CPU's own events (its timer softirq,
 * its idle; an idle entry or exit, those of the event before it). Each
 * CPU's timer softirqs are predicted from its bases' next_expiry
 * (core/mirror/sw_softirq.c) and, where the trace
 * recorded them, compared with the recorded ones; where it did not, the
 * replay says so. --exact-next turns the model's stale-next_expiry rule
 * off, a model the differential must reject.
 * --phases prints on stderr, after the report, the wall time of each
 * step: reading the trace, the timers' index, the order, the mirror's
 * setup, the replay through it, the report.
 * --check tests the replay (docs/replay.rst) and
 * prints "replay: TRACE: P passed, F failed". --time times the replay into
 * each wheel and the heap alone (sw_replay_time.c), best of ROUNDS (10).
 * --tick-cost prints the cost of each tick processed by each of them at
 * the trace's HZ and at 1000, the least of ROUNDS (5), for plotting.
 * --wheel SPEC (repeatable) adds a wheel of that geometry (sw_geometry_parse(),
 * the trace's HZ unless the spec gives one) to the default ones; a bad
 * spec exits 2 with the parser's message. --sweep GRID replays the trace
 * through every geometry of GRID (a file of specs, or the range syntax of
 * sw_replay_grid.c), in passes of the mirror of the kernel's wheel and up
 * to 15 of them, on the events read once, and prints a row per geometry:
 * lateness p50/p99, the share later than a tenth of their timeout,
 * softirqs/s and the spurious share, idle wakeups/s, cascades/s, and the
 * wheel's own CPU time per second of trace; --json the same as JSON.
 *
 * Exit status: 0, 1 if a check failed, 2 for bad usage or input.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/kernel.h>

#include "sw_mirror.h"
#include "sw_mirror_report.h"
#include "sw_mirror_top.h"
#include "sw_order.h"
#include "sw_replay_evidence.h"
#include "sw_replay_grid.h"
#include "sw_replay_json.h"
#include "sw_replay_order.h"
#include "sw_replay_time.h"
#include "sw_replay_trace.h"

/* The HZ a kernel can have, and how close the inferred rate must come */
static const unsigned int sw_hz_choices[] = { 100, 250, 300, 1000 };
#define SW_HZ_TOLERANCE_PCT	5
/* The least a trace must span to infer its HZ */
#define SW_HZ_MIN_NS		200000000ULL
#define SW_HZ_MIN_JIFFIES	20

static const char *prog = "sw-replay";

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

/*
 * The trace's HZ: jiffies over seconds between the first and the last event
 * carrying jiffies, to the nearest HZ a kernel can have. Returns 0 (and says
 * why in @why) if the trace is too short or the rate is no HZ.
 */
static unsigned int sw_infer_hz(const struct sw_replay_trace *t, char *why, size_t len)
{
	const struct sw_replay_ev *first = NULL, *last = NULL;
	double rate, best_err = 1e9;
	unsigned int best = 0;
	u64 dj, dt;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		if (!(t->evs[i].have & SW_RE_NOW))
			continue;
		if (!first)
			first = &t->evs[i];
		last = &t->evs[i];
	}
	if (!first || last->ts <= first->ts || (long)(last->now - first->now) <= 0) {
		snprintf(why, len, "no two events with jiffies apart in time");
		return 0;
	}
	dj = last->now - first->now;
	dt = last->ts - first->ts;
	rate = dj * 1e9 / dt;
	snprintf(why, len, "%llu jiffies in %.3f s: %.1f per second",
		 (unsigned long long)dj, dt / 1e9, rate);
	if (dt < SW_HZ_MIN_NS || dj < SW_HZ_MIN_JIFFIES)
		return 0;
	for (i = 0; i < ARRAY_SIZE(sw_hz_choices); i++) {
		double err = rate / sw_hz_choices[i] - 1;

		err = err < 0 ? -err : err;
		if (err < best_err) {
			best_err = err;
			best = sw_hz_choices[i];
		}
	}
	return best_err * 100 <= SW_HZ_TOLERANCE_PCT ? best : 0;
}

/* Timers by address: the index of each distinct one, for per-timer state */
struct sw_timers {
	u64	*addr;		/* the distinct addresses, ascending */
	size_t		nr;
};

static int sw_u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* A slot of the timers' hash table: an address and its index, +1 (0: free) */
struct sw_timer_slot {
	u64	addr;
	size_t		idx;
};

static size_t sw_timer_hash(u64 addr, size_t mask)
{
	return (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* The slot of @addr in the table of @mask + 1 slots: its own, or the free one it would take */
static struct sw_timer_slot *sw_timer_slot(struct sw_timer_slot *tab, size_t mask, u64 addr)
{
	size_t h = sw_timer_hash(addr, mask);

	while (tab[h].idx && tab[h].addr != addr)
		h = (h + 1) & mask;
	return &tab[h];
}

/*
 * The distinct timers of the trace's timer events, ascending by address,
 * and @timer_of, per event, its timer's index there. A hash table finds
 * each event's timer: the events are many (a million in an hour of a busy
 * machine), the timers few; only those are sorted.
 */
static void sw_timers_build(struct sw_timers *tm, const struct sw_replay_trace *t,
			    size_t *timer_of)
{
	size_t i, n = 0, size = 64, mask;
	struct sw_timer_slot *tab, *s;

	tm->addr = NULL;
	tab = xcalloc(size, sizeof(*tab));
	mask = size - 1;
	for (i = 0; i < t->nr; i++) {
		if (t->evs[i].type > SW_RE_EXPIRE)
			continue;
		s = sw_timer_slot(tab, mask, t->evs[i].timer);
		if (s->idx)
			continue;
		s->addr = t->evs[i].timer;
		s->idx = ++n;
		/* At most half full: grown, every address put again */
		if (2 * n > size) {
			struct sw_timer_slot *old = tab;
			size_t j;

			tab = xcalloc(2 * size, sizeof(*tab));
			mask = 2 * size - 1;
			for (j = 0; j < size; j++) {
				if (old[j].idx)
					*sw_timer_slot(tab, mask, old[j].addr) = old[j];
			}
			size *= 2;
			free(old);
		}
	}
	tm->addr = xcalloc(n + 1, sizeof(*tm->addr));
	for (i = 0; i < size; i++) {
		if (tab[i].idx)
			tm->addr[tab[i].idx - 1] = tab[i].addr;
	}
	qsort(tm->addr, n, sizeof(*tm->addr), sw_u64_cmp);
	tm->nr = n;
	/* Each slot's index its address's place in the order */
	for (i = 0; i < n; i++)
		sw_timer_slot(tab, mask, tm->addr[i])->idx = i + 1;
	for (i = 0; i < t->nr; i++) {
		if (t->evs[i].type <= SW_RE_EXPIRE)
			timer_of[i] = sw_timer_slot(tab, mask, t->evs[i].timer)->idx - 1;
	}
	free(tab);
}

/*
 * The wheels' contract, checked at every expiry: a timer runs no earlier
 * than its expiry (unless the wheel clamped it: mainline's last level) and
 * no later than its level's granularity after it, or after the wheel's
 * clock if the expiry had passed when it was placed (overdue). What the
 * placement's outcome said, per timer and wheel, until its expiry:
 */
struct sw_place_state {
	unsigned long	most;		/* granularity + overdue: the latest it may run */
	bool		clamped;
};

struct sw_contract {
	unsigned long	checked;
	unsigned long	early;
	unsigned long	late;
	unsigned long	clamped_early;
	long		worst_excess;
};

/*
 * What the trace gives every replay of it, read and ordered once: a sweep,
 * or --check's replay with the stale-next_expiry rule flipped, copies it
 * whole (sw_replay_again())
 */
struct sw_replay_input {
	struct sw_replay_trace	t;
	struct sw_timers	timers;
	const size_t		*timer_of;	/* per event, its timer's index in @timers */
	unsigned int		hz;
	bool			exact_next;	/* --exact-next */
	unsigned long		first_now;
	unsigned long		last_now;
};

/* The replay's state */
struct sw_replay {
	struct sw_replay_input	in;
	struct sw_replay_order	order;
	struct sw_mirror	*m;
	unsigned int		nr_wheels;
	struct sw_mirror_rec	*recs;
	struct hlist_head	*hash;		/* the records' table, a list per record */
	struct sw_mirror_rec	**slots;
	struct sw_mirror_cpu	*cpus;
	unsigned int		nr_cpus;
	bool			kernel_only;	/* the kernel's wheel, no default ones */
	const struct sw_geometry *geos;		/* wheels added: --wheel, a sweep's batch */
	unsigned int		nr_geos;
	struct sw_mirror_top	*top;
	u64		*fn_of;		/* per timer, its function as last seen */
	struct sw_place_state	*place;		/* per timer and wheel */
	unsigned int		*base_of;	/* per timer, its base (evidence), +1 */
	struct sw_geometry	kgeo;		/* mainline at the trace's HZ: the kernel's */
	struct sw_evidence	evidence;
	struct sw_evidence_untracked *untracked; /* see sw_evidence_history() */
	size_t			nr_untracked;
	struct sw_contract	contract[SW_MIRROR_MAX_WHEELS];
	bool			hz_given;
	bool			v612;
};

static void sw_contract_expired(struct sw_replay *rp, size_t ti,
				const struct sw_mirror_outcome *out)
{
	unsigned int w;

	for (w = 0; w < rp->nr_wheels; w++) {
		const struct sw_place_state *ps = &rp->place[ti * rp->nr_wheels + w];
		struct sw_contract *c = &rp->contract[w];
		long lat = out->wheel[w].lateness, most = ps->most;

		c->checked++;
		if (lat < 0 && ps->clamped)
			c->clamped_early++;
		else if (lat < 0)
			c->early++;
		else if (lat > most)
			c->late++;
		if (lat > most && lat - most > c->worst_excess)
			c->worst_excess = lat - most;
	}
}

static void sw_contract_placed(struct sw_replay *rp, size_t ti,
			       const struct sw_mirror_outcome *out)
{
	unsigned int w;

	for (w = 0; w < rp->nr_wheels; w++) {
		const struct sw_mirror_wheel_outcome *o = &out->wheel[w];
		struct sw_place_state *ps = &rp->place[ti * rp->nr_wheels + w];

		ps->most = o->gran + o->overdue;
		ps->clamped = o->how & SW_TIMER_CLAMPED;
	}
}

/*
 * What the trace shows for the differential's explanation of a placement,
 * then what it tells of the kernel's base: a start queues a timer there,
 * an expire_entry says the base ran that tick
 */
static void sw_replay_evidence(struct sw_replay *rp, size_t ti, const struct sw_replay_ev *re,
			       const struct sw_mirror_outcome *out)
{
	const struct sw_mirror_verdict *v = &out->diff[SW_DIFF_PLACEMENT];
	unsigned int base;

	if (re->type == SW_RE_EXPIRE && rp->base_of[ti])
		sw_evidence_ran(&rp->evidence, rp->base_of[ti] - 1, re->kclk);
	if (!out->placed)
		return;
	base = sw_evidence_base_of(&rp->evidence, re->flags, rp->v612);
	if (v->compared && !sw_evidence_placed(&rp->evidence, base, v->reason, re->expires,
					       re->now, &out->kernel)) {
		struct sw_evidence *e = &rp->evidence;

		/* At most one a start: room for all of them */
		e->unshown[e->nr_unshown++] = (struct sw_evidence_unshown){
			.cpu = re->cpu,
			.seq = re - rp->in.t.evs,
			.expires = re->expires,
			.now = re->now,
			.k = out->kernel,
		};
	}
	if (out->has_ktick)
		sw_evidence_queued(&rp->evidence, base, out->ktick);
	rp->base_of[ti] = base + 1;
}

/* Whether the timer softirq whose softirq_entry is the @i-th event ran a timer */
static bool sw_run_expires(const struct sw_replay_trace *t, size_t i)
{
	size_t k;

	for (k = i + 1; k < t->nr; k++) {
		if (t->evs[k].cpu != t->evs[i].cpu)
			continue;
		if (t->evs[k].type == SW_RE_EXPIRE)
			return true;
		if (t->evs[k].type == SW_RE_SOFTIRQ_ENTRY || t->evs[k].type == SW_RE_SOFTIRQ_EXIT)
			return false;
	}
	return false;
}

/*
 * The jiffies of each event: its own, or for a cancel or a CPU's own event
 * (softirq, idle) the next event's. A timer softirq that ran a timer gets
 * the jiffies of its first expire_entry, exactly; one that ran none gets
 * those of whatever event comes next, no earlier than its own, and as the
 * earliest it can have run at (%SW_RE_EARLIEST) those of the event before
 * it: under an emulated CPU the trace clock does not place it in a jiffy
 * any better, ticks come late and jiffies advances by several at once. An
 * idle entry takes the jiffies of the event before it instead: a CPU goes
 * idle when it has nothing left to do, and the next event may come long
 * after. So does an idle exit: the interrupt that woke the CPU brought
 * jiffies up to date (tick_nohz_restart_sched_tick() calls
 * tick_do_update_jiffies64() before timer_clear_idle()), and its tick
 * restarts at the next tick (tick_nohz_restart()), whose softirq may come
 * before any event that carries jiffies; with the next event's, the CPU
 * would seem to have been idle for that tick.
 */
static void sw_derive_now(struct sw_replay *rp)
{
	struct sw_replay_trace *t = &rp->in.t;
	u64 next = 0, last = 0;
	bool have_next = false;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		struct sw_replay_ev *ev = &t->evs[i];

		if (ev->have & SW_RE_NOW) {
			last = ev->now;
			if (!rp->in.first_now)
				rp->in.first_now = last;
		} else if ((ev->type == SW_RE_IDLE_ENTER || ev->type == SW_RE_IDLE_EXIT) &&
			   rp->in.first_now) {
			ev->now = last;
			ev->have |= SW_RE_NOW;
		} else if (ev->type == SW_RE_SOFTIRQ_ENTRY && rp->in.first_now &&
			   !sw_run_expires(t, i)) {
			ev->expires = last;
			ev->have |= SW_RE_EARLIEST;
		}
	}
	rp->in.last_now = last;
	for (i = t->nr; i-- > 0;) {
		struct sw_replay_ev *ev = &t->evs[i];

		if (ev->have & SW_RE_NOW) {
			if (ev->type <= SW_RE_EXPIRE) {
				next = ev->now;
				have_next = true;
			}
		} else {
			ev->now = have_next ? next : last;
		}
	}
}

static void sw_replay_setup(struct sw_replay *rp)
{
	unsigned int nr_cpus = 0, g, hash_bits;
	size_t i;

	nr_cpus = rp->in.t.nr_cpus;
	for (i = 0; i < rp->in.t.nr; i++) {
		if (rp->in.t.evs[i].cpu + 1U > nr_cpus)
			nr_cpus = rp->in.t.evs[i].cpu + 1U;
		rp->v612 |= rp->in.t.evs[i].have & SW_RE_BUCKET;
	}
	rp->m = xcalloc(1, sizeof(*rp->m));
	rp->slots = xcalloc(nr_cpus, sizeof(*rp->slots));
	rp->recs = xcalloc(rp->in.timers.nr, sizeof(*rp->recs));
	rp->top = xcalloc(1, sizeof(*rp->top));
	rp->fn_of = xcalloc(rp->in.timers.nr, sizeof(*rp->fn_of));
	if (sw_mirror_init_wheels(rp->m, rp->in.hz, rp->in.first_now, rp->slots, nr_cpus,
				  !rp->kernel_only))
		die("no wheel geometry at HZ %u", rp->in.hz);
	for (g = 0; g < rp->nr_geos; g++) {
		if (sw_mirror_add_wheel(rp->m, &rp->geos[g]))
			die("%u wheels: the mirror runs at most %u, %u by default; %s",
			    sw_mirror_nr_wheels(rp->m) + rp->nr_geos - g, SW_MIRROR_MAX_WHEELS,
			    sw_mirror_nr_wheels(rp->m) - g, "more with --sweep");
	}
	/* timer_start with bucket_expiry (6.8 on): taken as 6.12's bases */
	rp->cpus = xcalloc(nr_cpus, sizeof(*rp->cpus));
	rp->nr_cpus = nr_cpus;
	sw_mirror_set_cpus(rp->m, rp->cpus, nr_cpus,
			   rp->v612 ? SW_BASES_LOCAL_GLOBAL_DEF : SW_BASES_STD_DEF);
	sw_mirror_set_exact_next(rp->m, rp->in.exact_next);
	/* Every timer has a record, and no wheel is ever left behind */
	sw_mirror_add_records(rp->m, rp->recs, rp->in.timers.nr);
	hash_bits = sw_mirror_hash_bits(rp->in.timers.nr);
	rp->hash = xcalloc(1UL << hash_bits, sizeof(*rp->hash));
	sw_mirror_set_hash(rp->m, rp->hash, hash_bits);
	sw_mirror_set_budget(rp->m, UINT_MAX);
	sw_mirror_set_cpu_budget(rp->m, ULONG_MAX);
	rp->nr_wheels = sw_mirror_nr_wheels(rp->m);
	rp->place = xcalloc(rp->in.timers.nr * rp->nr_wheels, sizeof(*rp->place));
	rp->base_of = xcalloc(rp->in.timers.nr, sizeof(*rp->base_of));
	sw_geometry_init(&rp->kgeo, SW_WHEEL_MAINLINE, rp->in.hz);
	rp->evidence.geo = &rp->kgeo;
	rp->evidence.nr_cpus = nr_cpus;
	rp->evidence.bases = xcalloc(nr_cpus * SW_EVIDENCE_KINDS, sizeof(*rp->evidence.bases));
	rp->evidence.unshown = xcalloc(rp->in.t.nr, sizeof(*rp->evidence.unshown));
	rp->untracked = xcalloc(rp->in.t.nr, sizeof(*rp->untracked));
	sw_mirror_top_init(rp->top);
}

/* Another replay of @rp's events, read and ordered once: for sw_replay_setup() */
static struct sw_replay *sw_replay_again(const struct sw_replay *rp)
{
	struct sw_replay *again = xcalloc(1, sizeof(*again));

	again->in = rp->in;
	return again;
}

/* What sw_replay_setup() allocated, freed: a sweep sets up a replay per pass */
static void sw_replay_teardown(struct sw_replay *rp)
{
	free(rp->m);
	free(rp->slots);
	free(rp->recs);
	free(rp->hash);
	free(rp->top);
	free(rp->fn_of);
	free(rp->cpus);
	free(rp->place);
	free(rp->base_of);
	free(rp->evidence.bases);
	free(rp->evidence.unshown);
	free(rp->untracked);
}

/* Each event of the trace into the mirror; what it did, into the replay's checks */
static void sw_replay_run(struct sw_replay *rp)
{
	static const enum sw_mirror_ev_type types[] = {
		[SW_RE_START] = SW_EV_START,
		[SW_RE_CANCEL] = SW_EV_CANCEL,
		[SW_RE_EXPIRE] = SW_EV_EXPIRE,
		[SW_RE_SOFTIRQ_ENTRY] = SW_EV_SOFTIRQ_ENTRY,
		[SW_RE_SOFTIRQ_EXIT] = SW_EV_SOFTIRQ_EXIT,
		[SW_RE_IDLE_ENTER] = SW_EV_IDLE_ENTER,
		[SW_RE_IDLE_EXIT] = SW_EV_IDLE_EXIT,
	};
	struct sw_mirror_outcome out;
	size_t i, ti;

	for (i = 0; i < rp->in.t.nr; i++) {
		const struct sw_replay_ev *re = &rp->in.t.evs[i];
		struct sw_mirror_event ev = {
			.type = types[re->type],
			.timer = (const void *)(uintptr_t)re->timer,
			.cpu = re->cpu,
			.now = re->now,
			.expires = re->expires,
			.tflags = re->flags,
			.have = (re->have & SW_RE_FLAGS ? SW_EVF_IDX : 0) |
				(re->have & SW_RE_BUCKET ? SW_EVF_BUCKET : 0) |
				(re->have & SW_RE_EARLIEST ? SW_EVF_EARLIEST : 0),
		};

		if (re->type > SW_RE_EXPIRE) {
			ev.timer = NULL;
			sw_mirror_handle_event(rp->m, &ev, NULL);
			continue;
		}
		ti = rp->in.timer_of[i];
		if (re->type == SW_RE_EXPIRE)
			ev.baseclk = re->kclk;
		else
			ev.bucket_expiry = re->kclk;
		if (re->type != SW_RE_CANCEL)
			rp->fn_of[ti] = re->fn;
		sw_mirror_handle_event(rp->m, &ev, &out);
		sw_replay_evidence(rp, ti, re, &out);
		if (out.class == SW_MC_UNTRACKED && re->type == SW_RE_EXPIRE)
			rp->untracked[rp->nr_untracked++] = (struct sw_evidence_untracked){
				.cpu = re->cpu,
				.seq = i,
				.baseclk = re->kclk,
			};
		/* A restart counts the old lifetime's expiry, then places the new one */
		if (out.expired)
			sw_contract_expired(rp, ti, &out);
		if (out.placed)
			sw_contract_placed(rp, ti, &out);
		sw_mirror_top_account(rp->top, (const void *)(uintptr_t)rp->fn_of[ti], out.class,
				      &out, rp->nr_wheels);
	}
	sw_mirror_advance(rp->m, rp->in.last_now);
	sw_evidence_history(&rp->evidence, rp->untracked, rp->nr_untracked);
}

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

enum {
	SW_SHOW_STATS = 1, SW_SHOW_LATENESS = 2, SW_SHOW_DIFF = 4, SW_SHOW_TOP = 8,
	SW_SHOW_RAW = 15, SW_SHOW_SUMMARY = 16, SW_SHOW_JSON = 32,
};

/*
 * What the trace lacks of the CPUs' own events, said rather than shown as
 * zeros: NULL if it has them all
 */
static const char *sw_replay_softirq_missing(const struct sw_replay *rp)
{
	if (!rp->in.t.has_softirq)
		return "not recorded (the trace lacks irq:softirq_entry and irq:softirq_exit)";
	return NULL;
}

static const char *sw_replay_idle_missing(const struct sw_replay *rp)
{
	if (!rp->in.t.has_idle)
		return "not recorded (the trace lacks power:cpu_idle and timer:timer_base_idle)";
	return NULL;
}

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
		if (!f.seen)
			continue;
		printf("softirq_cpu %u recorded %lu recorded_spurious %lu", cpu, f.recorded,
		       f.recorded_spurious);
		printf(" predicted %lu pending %lu", f.predicted, f.pending);
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

static void sw_replay_report(struct sw_replay *rp, const struct sw_mirror_report *rep,
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
static void sw_replay_json(struct sw_replay *rp, const struct sw_mirror_report *rep,
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
	json_object_object_add(o, "trace", t);
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* --check: one line per check, and the totals */
struct sw_checks {
	const char	*trace;
	unsigned int	passed;
	unsigned int	failed;
};

static __printf(3, 4) void sw_check(struct sw_checks *c, bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("replay: %s: %s ", c->trace, ok ? "ok" : "FAILED");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (ok)
		c->passed++;
	else
		c->failed++;
}

/* Of the softirq differential's verdicts, the share (per mille) of @v's */
static unsigned long sw_sirq_share(const struct sw_mirror_report *rep, unsigned long v)
{
	unsigned long all = 0;
	unsigned int i;

	for (i = 0; i < SW_SIRQ_NR_VERDICTS; i++)
		all += rep->fig.softirq[i];
	return all ? v * 1000 / all : 1000;
}

/*
 * The softirq differential, on a trace that recorded the timer softirq:
 * the kernel wheel's predicted softirqs against the recorded ones, every
 * CPU, printed. What is checked is what the stale-next_expiry rule is
 * about: of the recorded runs that ran no timer, the kernel's rules must
 * pair no fewer with a predicted raise than the same model with that rule
 * flipped (@alt, replayed alongside); an equal count is said to leave the
 * question undecided by that trace. With --exact-next the model the
 * kernel does not follow is the one checked, and it fails on every trace
 * that decides.
 */
static void sw_replay_check_softirq(struct sw_replay *rp, const struct sw_mirror_report *rep,
				    const struct sw_mirror_report *alt, struct sw_checks *c)
{
	const unsigned long *v = rep->fig.softirq, *va = alt ? alt->fig.softirq : v;
	const char *why = sw_replay_softirq_missing(rp);
	unsigned long un, un_alt, sp, sp_alt;
	unsigned int kw;

	if (why) {
		printf("replay: %s: skipped softirq differential: %s\n", c->trace, why);
		return;
	}
	for (kw = 0; kw < rep->fig.wheels; kw++) {
		if (rep->fig.wheel[kw].kind == SW_WHEEL_MAINLINE &&
		    rep->fig.wheel[kw].vhz == rp->in.hz)
			break;
	}
	un = sw_sirq_share(rep, v[SW_SIRQ_UNPREDICTED] + v[SW_SIRQ_MISSED]);
	un_alt = sw_sirq_share(alt, va[SW_SIRQ_UNPREDICTED] + va[SW_SIRQ_MISSED]);
	sw_check(c, rep->fig.softirq_recorded && rep->fig.softirq_predicted,
		 "timer softirqs recorded %lu (%lu ran no timer), predicted %lu (%lu would run none)",
		 rep->fig.softirq_recorded, rep->fig.softirq_recorded_spurious,
		 rep->fig.softirq_predicted, rep->fig.wheel[kw].spurious_softirqs);
	printf("replay: %s: softirq differential: ", c->trace);
	printf("agree %lu, late %lu (paired %lu.%lu%%; at the tick %lu.%lu%%, target 99%%);",
	       v[SW_SIRQ_AGREE], v[SW_SIRQ_LATE],
	       rep->fig.softirq_paired_permille / 10, rep->fig.softirq_paired_permille % 10,
	       rep->fig.softirq_agreement_permille / 10, rep->fig.softirq_agreement_permille % 10);
	printf(" coalesced %lu history %lu tmigr %lu rerun %lu idle_tick %lu;",
	       v[SW_SIRQ_COALESCED], v[SW_SIRQ_HISTORY], v[SW_SIRQ_TMIGR], v[SW_SIRQ_RERUN],
	       v[SW_SIRQ_IDLE_TICK]);
	printf(" unexplained: unpredicted %lu missed %lu\n", v[SW_SIRQ_UNPREDICTED],
	       v[SW_SIRQ_MISSED]);
	sp = rep->fig.softirq_spurious_paired;
	sp_alt = alt ? alt->fig.softirq_spurious_paired : sp;
	/*
	 * Where both pair the same runs (none ran nothing, or the stale
	 * next_expiry never came due alone), the trace does not decide
	 */
	sw_check(c, alt && sp >= sp_alt,
		 "softirq differential: of %lu runs that ran no timer, %s next_expiry pairs %lu with a raise, %s %lu%s; unexplained %lu.%lu%%, %lu.%lu%%",
		 rep->fig.softirq_recorded_spurious,
		 rp->in.exact_next ? "exact" : "the kernel's stale", sp,
		 rp->in.exact_next ? "the kernel's stale" : "exact", sp_alt,
		 sp == sp_alt ? " (undecided by this trace)" : "", un / 10, un % 10,
		 un_alt / 10, un_alt % 10);
}

static void sw_replay_check(struct sw_replay *rp, const struct sw_mirror_report *rep,
			    const struct sw_mirror_report *alt, struct sw_checks *c)
{
	const unsigned long (*n)[SW_DIFF_NR_REASONS] = rep->fig.diff.count;
	unsigned long placed = 0, expired = 0;
	unsigned int r, w;

	for (r = 0; r < SW_DIFF_NR_REASONS; r++) {
		placed += n[SW_DIFF_PLACEMENT][r];
		expired += n[SW_DIFF_EXPIRY][r];
	}
	sw_check(c, !rp->in.t.missed, "no event lost in recording (%lld)", rp->in.t.missed);
	sw_check(c, !rp->order.broken,
		 "every timer's events in an order the kernel can produce: %lu ties within %llu ns, %lu decided against the timestamps, %lu against the rules",
		 rp->order.ties, (unsigned long long)rp->order.window, rp->order.moved,
		 rp->order.broken);
	sw_check(c, placed && expired, "placements compared %lu, expiries compared %lu",
		 placed, expired);
	sw_check(c, rep->fig.consistent, "the mirror's books balance");
	sw_check(c, !rep->fig.counts.events[SW_MC_ANOMALY] &&
		 !rep->fig.counts.events[SW_MC_DROPPED],
		 "no anomalous sequence (%lu) or dropped timer (%lu)",
		 rep->fig.counts.events[SW_MC_ANOMALY], rep->fig.counts.events[SW_MC_DROPPED]);
	sw_check(c, !n[SW_DIFF_PLACEMENT][SW_DIFF_MIRROR_BEHIND],
		 "mainline.%u never placed from behind (%lu)", rp->in.hz,
		 n[SW_DIFF_PLACEMENT][SW_DIFF_MIRROR_BEHIND]);
	sw_check(c, !n[SW_DIFF_PLACEMENT][SW_DIFF_UNEXPLAINED],
		 "mainline.%u placements: match %lu clk_at_jiffies %lu clk_ahead %lu clk_behind %lu unexplained %lu",
		 rp->in.hz, n[SW_DIFF_PLACEMENT][SW_DIFF_MATCH],
		 n[SW_DIFF_PLACEMENT][SW_DIFF_CLK_AT_JIFFIES],
		 n[SW_DIFF_PLACEMENT][SW_DIFF_CLK_AHEAD], n[SW_DIFF_PLACEMENT][SW_DIFF_CLK_BEHIND],
		 n[SW_DIFF_PLACEMENT][SW_DIFF_UNEXPLAINED]);
	sw_check(c, rp->evidence.behind == rp->evidence.behind_shown + rp->evidence.behind_history,
		 "mainline.%u clk_behind %lu: shown by a due tick of the base %lu, by a timer from before the trace %lu",
		 rp->in.hz, rp->evidence.behind, rp->evidence.behind_shown,
		 rp->evidence.behind_history);
	sw_check(c, rp->evidence.ahead == rp->evidence.ahead_shown,
		 "mainline.%u clk_ahead %lu, shown by the base's run of that tick %lu", rp->in.hz,
		 rp->evidence.ahead, rp->evidence.ahead_shown);
	sw_check(c, !n[SW_DIFF_EXPIRY][SW_DIFF_UNEXPLAINED],
		 "mainline.%u expiry ticks: match %lu placed_apart %lu unexplained %lu",
		 rp->in.hz, n[SW_DIFF_EXPIRY][SW_DIFF_MATCH],
		 n[SW_DIFF_EXPIRY][SW_DIFF_PLACED_APART], n[SW_DIFF_EXPIRY][SW_DIFF_UNEXPLAINED]);
	for (w = 0; w < rep->fig.wheels; w++) {
		const struct sw_contract *k = &rp->contract[w];
		char name[SW_SPEC_MAX];

		sw_mirror_report_wheel_name(name, sizeof(name), rep, w);
		sw_check(c, k->checked && !k->early && !k->late,
			 "%s contract: %lu expiries, early %lu, late beyond the granularity %lu (clamped early %lu)",
			 name, k->checked, k->early, k->late, k->clamped_early);
	}
	sw_replay_check_softirq(rp, rep, alt, c);
	printf("replay: %s: %u passed, %u failed\n", c->trace, c->passed, c->failed);
}

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

static double sw_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * --phases: where the replay's wall time went, on stderr: @ph the clock at
 * the reading's start, after it, after the timers' index, after the order
 * (and the jiffies derived), after the mirror's setup, after the replay,
 * after the report
 */
static void sw_replay_phases(const double *ph, size_t nr)
{
	static const char * const names[] = {
		"read", "index", "order", "setup", "mirror", "report",
	};
	unsigned int i;

	fprintf(stderr, "phases events %zu", nr);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		fprintf(stderr, " %s_s %.3f", names[i], ph[i + 1] - ph[i]);
	fprintf(stderr, " total_s %.3f events_per_s %.0f\n", ph[6] - ph[0],
		nr / (ph[6] - ph[0]));
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
	struct sw_geometry *geos = xcalloc(g->nr, sizeof(*geos));
	char err[SW_SPEC_ERR_MAX], name[SW_SPEC_MAX], other[SW_SPEC_MAX];
	unsigned int n = 0, k;
	size_t i;

	for (i = 0; i < g->nr; i++) {
		if (sw_geometry_parse(&geos[n], g->spec[i], hz, err, sizeof(err)))
			die("--sweep: %s: %s", g->spec[i], err);
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

/*
 * The sweep: a pass per batch, each a replay as the ordinary one is, on
 * the same events; its rows from the pass's report. Each wheel is timed
 * alone too (sw_replay_time_geometry()): the mirror's passes are timed
 * whole, their cost shared by the batch's wheels, not told apart.
 */
static void sw_sweep(struct sw_replay *rp, const struct sw_grid *grid, const char *path,
		     bool json)
{
	unsigned int nr, b, e, i, passes = 0, wheels_run = 0;
	struct sw_geometry *geos = sw_sweep_geometries(grid, rp->in.hz, &nr);
	struct sw_sweep_row *rows = xcalloc(nr, sizeof(*rows));
	unsigned int *wheel_of = xcalloc(nr, sizeof(*wheel_of));
	struct sw_geometry batch[SW_SWEEP_BATCH], kgeo;
	struct sw_mirror_head head = { .caught_up = 1 };
	struct sw_mirror_report *rep = xcalloc(1, sizeof(*rep));
	double secs = (double)(rp->in.last_now - rp->in.first_now) / rp->in.hz;
	double pass_s = 0, wheels_s = 0, t0, t1, wall = sw_now_s();

	head.records = rp->in.timers.nr;
	head.elapsed_ms = (unsigned long long)(rp->in.last_now - rp->in.first_now) * 1000 /
			  rp->in.hz;
	sw_geometry_init(&kgeo, SW_WHEEL_MAINLINE, rp->in.hz);
	for (b = 0; b < nr; b = e) {
		struct sw_replay *p = sw_replay_again(rp);
		unsigned int n = 0;

		/*
		 * The kernel's own geometry is the pass's first wheel, whose
		 * softirqs follow the kernel's ticks: its row is that wheel's,
		 * as in the ordinary replay, not a copy's
		 */
		for (e = b; e < nr; e++) {
			if (!memcmp(&geos[e], &kgeo, sizeof(kgeo))) {
				wheel_of[e] = 0;
				continue;
			}
			if (n == SW_SWEEP_BATCH)
				break;
			batch[n] = geos[e];
			wheel_of[e] = 1 + n++;
		}

		p->kernel_only = true;
		p->geos = batch;
		p->nr_geos = n;
		t0 = sw_now_s();
		sw_replay_setup(p);
		sw_replay_run(p);
		t1 = sw_now_s();
		pass_s += t1 - t0;
		passes++;
		wheels_run += 1 + n;
		sw_mirror_report_take(rep, &head, p->m, NULL);
		for (i = b; i < e; i++)
			sw_sweep_row(&rows[i], rep, wheel_of[i], json);
		sw_replay_teardown(p);
		free(p);
	}
	for (i = 0; i < nr; i++) {
		double ns;

		t0 = sw_now_s();
		ns = sw_replay_time_geometry(&rp->in.t, rp->in.timer_of, rp->in.timers.nr,
					     &geos[i], rp->in.hz);
		rows[i].wheel_us_per_s = ns / 1e3 / (secs > 0 ? secs : 1);
		wheels_s += sw_now_s() - t0;
	}
	wall = sw_now_s() - wall;
	if (json) {
		struct json_object *o = json_object_new_object(), *a = json_object_new_array();
		struct json_object *t = json_object_new_object();

		json_object_object_add(t, "path", json_object_new_string(path));
		json_object_object_add(t, "events", json_object_new_uint64(rp->in.t.nr));
		json_object_object_add(t, "hz", json_object_new_uint64(rp->in.hz));
		json_object_object_add(t, "seconds", json_object_new_double(secs));
		json_object_object_add(o, "trace", t);
		json_object_object_add(o, "geometries", json_object_new_uint64(nr));
		json_object_object_add(o, "passes", json_object_new_uint64(passes));
		json_object_object_add(o, "wheels_run", json_object_new_uint64(wheels_run));
		json_object_object_add(o, "pass_s", json_object_new_double(pass_s));
		json_object_object_add(o, "wheels_alone_s", json_object_new_double(wheels_s));
		json_object_object_add(o, "wall_s", json_object_new_double(wall));
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
	} else {
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
		       rp->in.t.nr, secs, rp->in.hz);
		printf(" %u passes of the mirror %.2f s (%.1f ns per wheel-event,", passes, pass_s,
		       pass_s * 1e9 / ((double)rp->in.t.nr * wheels_run));
		printf(" the kernel's wheel counted), the wheels alone %.2f s, %.2f s in all\n",
		       wheels_s, wall);
	}
	free(wheel_of);
	free(rows);
	free(rep);
	free(geos);
}

static void usage(void)
{
	fprintf(stderr,
		"%s: %s [--hz HZ] [--window NS] [--exact-next] [--wheel SPEC]... [--raw | --only %s | --json | --check | --time [ROUNDS] | --tick-cost [ROUNDS]] [--phases] TRACE.dat\n"
		"       %s [--hz HZ] [--window NS] --sweep GRID [--json] TRACE.dat\n"
		"  SPEC: seed, mainline, classic or bits=B,shift=S,depth=D,hz=H,clamp|cascade\n"
		"  GRID: a file of specs, one a line, or KEY=A:B[:STEP],V,.../WORD,.../... (docs/replay.rst)\n",
		"usage", prog, "stats|lateness|diff|top", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	struct sw_replay rp = { .order.window = SW_ORDER_WINDOW_NS };
	struct sw_mirror_head head = { .caught_up = 1 };
	struct sw_mirror_report *rep;
	unsigned int show = SW_SHOW_SUMMARY, i;
	const char *path = NULL;
	unsigned int time_rounds = 0;
	bool check = false, tick_cost = false, phases = false;
	double ph[8];
	const char *wheel_specs[SW_MIRROR_MAX_WHEELS], *sweep = NULL;
	struct sw_geometry wheel_geos[SW_MIRROR_MAX_WHEELS];
	unsigned int nr_wheel_specs = 0;
	struct sw_grid grid = { 0 };
	char err[512], why[128];
	size_t *timer_of, j;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--hz") && a + 1 < argc) {
			char *end;

			rp.in.hz = strtoul(argv[++a], &end, 10);
			if (*end || !rp.in.hz)
				die("--hz %s: not a HZ", argv[a]);
			rp.hz_given = true;
		} else if (!strcmp(argv[a], "--exact-next")) {
			rp.in.exact_next = true;
		} else if (!strcmp(argv[a], "--window") && a + 1 < argc) {
			char *end;

			errno = 0;
			rp.order.window = strtoull(argv[++a], &end, 10);
			if (*end || errno || argv[a][0] == '-' || !argv[a][0])
				die("--window %s: not a number of ns", argv[a]);
		} else if (!strcmp(argv[a], "--wheel") && a + 1 < argc) {
			struct sw_geometry geo;

			/* Checked now, at any HZ: made again at the trace's */
			a++;
			if (sw_geometry_parse(&geo, argv[a], 250, err, sizeof(err)))
				die("--wheel %s: %s", argv[a], err);
			if (nr_wheel_specs == SW_MIRROR_MAX_WHEELS)
				die("--wheel %s: the mirror runs at most %u wheels; %s",
				    argv[a], SW_MIRROR_MAX_WHEELS, "more with --sweep");
			wheel_specs[nr_wheel_specs++] = argv[a];
		} else if (!strcmp(argv[a], "--sweep") && a + 1 < argc) {
			sweep = argv[++a];
		} else if (!strcmp(argv[a], "--raw")) {
			show = SW_SHOW_RAW;
		} else if (!strcmp(argv[a], "--json")) {
			show = SW_SHOW_JSON;
		} else if (!strcmp(argv[a], "--check")) {
			check = true;
		} else if (!strcmp(argv[a], "--phases")) {
			phases = true;
		} else if (!strcmp(argv[a], "--time") || !strcmp(argv[a], "--tick-cost")) {
			char *end;

			tick_cost = !strcmp(argv[a], "--tick-cost");
			time_rounds = tick_cost ? 5 : 10;
			if (a + 2 < argc) {
				time_rounds = strtoul(argv[++a], &end, 10);
				if (*end || !time_rounds || time_rounds > 10000)
					die("%s %s: not in 1..10000", argv[a - 1], argv[a]);
			}
		} else if (!strcmp(argv[a], "--only") && a + 1 < argc) {
			static const char * const names[] = { "stats", "lateness", "diff", "top" };

			a++;
			for (i = 0; i < 4 && strcmp(argv[a], names[i]); i++)
				;
			if (i == 4)
				usage();
			show = 1U << i;
		} else if (argv[a][0] == '-' || path) {
			usage();
		} else {
			path = argv[a];
		}
	}
	if (!path || (sweep && (check || time_rounds || nr_wheel_specs || rp.in.exact_next ||
				(show != SW_SHOW_SUMMARY && show != SW_SHOW_JSON))))
		usage();
	if (sweep) {
		struct sw_geometry geo;
		size_t k;

		/* Every spec checked before the trace is read: a bad one changes nothing */
		if (sw_grid_expand(sweep, &grid, err, sizeof(err)))
			die("--sweep %s: %s", sweep, err);
		for (k = 0; k < grid.nr; k++) {
			if (sw_geometry_parse(&geo, grid.spec[k], 250, why, sizeof(why)))
				die("--sweep: %s: %s", grid.spec[k], why);
		}
	}
	ph[0] = sw_now_s();
	if (sw_replay_trace_read(path, &rp.in.t, err, sizeof(err)))
		die("%s: %s", path, err);
	if (!rp.in.t.nr)
		die("%s: no timer events in the trace (%llu other events)", path,
		    (unsigned long long)rp.in.t.other);
	if (!rp.hz_given) {
		rp.in.hz = sw_infer_hz(&rp.in.t, why, sizeof(why));
		if (!rp.in.hz)
			die("%s: cannot infer the kernel's HZ (%s); give it with --hz", path, why);
	} else {
		snprintf(why, sizeof(why), "given");
	}
	ph[1] = sw_now_s();
	timer_of = xcalloc(rp.in.t.nr, sizeof(*timer_of));
	sw_timers_build(&rp.in.timers, &rp.in.t, timer_of);
	ph[2] = sw_now_s();
	sw_replay_order(&rp.in.t, timer_of, rp.in.timers.nr, &rp.order);
	rp.in.timer_of = timer_of;
	sw_derive_now(&rp);
	ph[3] = sw_now_s();
	if (sweep) {
		sw_sweep(&rp, &grid, path, show == SW_SHOW_JSON);
		sw_grid_free(&grid);
		return 0;
	}
	for (i = 0; i < nr_wheel_specs; i++) {
		/* At the trace's HZ when the spec gives none */
		if (sw_geometry_parse(&wheel_geos[i], wheel_specs[i], rp.in.hz, err, sizeof(err)))
			die("--wheel %s: %s", wheel_specs[i], err);
	}
	rp.geos = wheel_geos;
	rp.nr_geos = nr_wheel_specs;
	sw_replay_setup(&rp);
	ph[4] = sw_now_s();
	if (show != SW_SHOW_JSON) {
		printf("replay trace %s events %zu timers %zu cpus %u",
		       path, rp.in.t.nr, rp.in.timers.nr, rp.in.t.nr_cpus);
		printf(" other_events %llu missed %lld\n", (unsigned long long)rp.in.t.other,
		       rp.in.t.missed);
		printf("replay hz %u (%s)\n", rp.in.hz, why);
		printf("replay order window_ns %llu ties %lu moved %lu broken %lu\n",
		       (unsigned long long)rp.order.window, rp.order.ties, rp.order.moved,
		       rp.order.broken);
		sw_replay_notes(&rp);
	}
	if (time_rounds) {
		struct sw_replay_order again = rp.order;
		double best = rp.order.ns;
		size_t n = 0;

		/* The events in order already: each round merges the same streams again */
		for (j = 1; j < time_rounds; j++) {
			sw_replay_order(&rp.in.t, timer_of, rp.in.timers.nr, &again);
			best = again.ns < best ? again.ns : best;
		}
		printf("time order events %zu ns_per_event %.1f\n", rp.in.t.nr, best / rp.in.t.nr);
		/* The structures are timed on the timer events alone */
		for (j = 0; j < rp.in.t.nr; j++) {
			if (rp.in.t.evs[j].type <= SW_RE_EXPIRE) {
				timer_of[n] = timer_of[j];
				rp.in.t.evs[n++] = rp.in.t.evs[j];
			}
		}
		rp.in.t.nr = n;
		if (tick_cost)
			sw_replay_tick_cost(&rp.in.t, timer_of, rp.in.timers.nr, rp.in.hz,
					    time_rounds);
		else
			sw_replay_time(&rp.in.t, timer_of, rp.in.timers.nr, rp.in.hz, time_rounds);
		return 0;
	}
	sw_replay_run(&rp);
	ph[5] = sw_now_s();

	rep = xcalloc(1, sizeof(*rep));
	head.records = rp.in.timers.nr;
	head.elapsed_ms = (unsigned long long)(rp.in.last_now - rp.in.first_now) * 1000 / rp.in.hz;
	sw_mirror_report_take(rep, &head, rp.m, rp.top);
	if (check) {
		struct sw_checks c = { .trace = path };

		struct sw_mirror_report *alt = NULL;

		if (!sw_replay_softirq_missing(&rp)) {
			/* The same trace, the stale-next_expiry rule flipped */
			struct sw_replay *flip = sw_replay_again(&rp);

			flip->in.exact_next = !rp.in.exact_next;
			sw_replay_setup(flip);
			sw_replay_run(flip);
			alt = xcalloc(1, sizeof(*alt));
			sw_mirror_report_take(alt, &head, flip->m, NULL);
		}
		sw_replay_check(&rp, rep, alt, &c);
		return c.failed ? 1 : 0;
	}
	if (show == SW_SHOW_JSON)
		sw_replay_json(&rp, rep, path, why);
	else
		sw_replay_report(&rp, rep, show);
	if (phases) {
		fflush(stdout);
		ph[6] = sw_now_s();
		sw_replay_phases(ph, rp.in.t.nr);
	}
	return 0;
}
