// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay: the run. The trace read, its HZ inferred unless given, its
 * timers indexed, its events ordered (sw_replay_order.c) and given their
 * jiffies, then replayed through the mirror's core: every event into the
 * mirror, what it did into the wheels' contract and the differential's
 * evidence (sw_replay_evidence.c). The modes (sw-replay.c, the report,
 * --check, --sweep) run it and read what it left; it calls none of them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/kernel.h>

#include "sw_replay_exit.h"
#include "sw_replay_run.h"

/* The HZ a kernel can have, and how close the inferred rate must come */
static const unsigned int sw_replay_hz_choices[] = { 100, 250, 300, 1000 };
#define SW_REPLAY_HZ_TOLERANCE_PCT	5
/* The least a trace must span to infer its HZ */
#define SW_REPLAY_HZ_MIN_NS		200000000ULL
#define SW_REPLAY_HZ_MIN_JIFFIES	20

/*
 * The trace's HZ: jiffies over seconds between the first and the last event
 * carrying jiffies, to the nearest HZ a kernel can have. Returns 0 (and says
 * why in @why) if the trace is too short or the rate is no HZ.
 */
static unsigned int sw_replay_infer_hz(const struct sw_replay_trace *t, char *why, size_t len)
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
	if (dt < SW_REPLAY_HZ_MIN_NS || dj < SW_REPLAY_HZ_MIN_JIFFIES)
		return 0;
	for (i = 0; i < ARRAY_SIZE(sw_replay_hz_choices); i++) {
		double err = rate / sw_replay_hz_choices[i] - 1;

		err = err < 0 ? -err : err;
		if (err < best_err) {
			best_err = err;
			best = sw_replay_hz_choices[i];
		}
	}
	return best_err * 100 <= SW_REPLAY_HZ_TOLERANCE_PCT ? best : 0;
}

static int sw_u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* A slot of the timers' hash table: an address and its index, +1 (0: free) */
struct sw_replay_timer_slot {
	u64	addr;
	size_t		idx;
};

static size_t sw_replay_timer_hash(u64 addr, size_t mask)
{
	return (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* The slot of @addr in the table of @mask + 1 slots: its own, or the free one it would take */
static struct sw_replay_timer_slot *sw_replay_timer_find(struct sw_replay_timer_slot *tab,
							 size_t mask, u64 addr)
{
	size_t h = sw_replay_timer_hash(addr, mask);

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
static void sw_replay_timers_build(struct sw_replay_timers *tm, const struct sw_replay_trace *t,
				   size_t *timer_of)
{
	size_t i, n = 0, size = 64, mask;
	struct sw_replay_timer_slot *tab, *s;

	tm->addr = NULL;
	tab = sw_replay_calloc(size, sizeof(*tab));
	mask = size - 1;
	for (i = 0; i < t->nr; i++) {
		if (sw_ev_of_cpu(t->evs[i].type))
			continue;
		s = sw_replay_timer_find(tab, mask, t->evs[i].timer);
		if (s->idx)
			continue;
		s->addr = t->evs[i].timer;
		s->idx = ++n;
		/* At most half full: grown, every address put again */
		if (2 * n > size) {
			struct sw_replay_timer_slot *old = tab;
			size_t j;

			tab = sw_replay_calloc(2 * size, sizeof(*tab));
			mask = 2 * size - 1;
			for (j = 0; j < size; j++) {
				if (old[j].idx)
					*sw_replay_timer_find(tab, mask, old[j].addr) = old[j];
			}
			size *= 2;
			free(old);
		}
	}
	tm->addr = sw_replay_calloc(n + 1, sizeof(*tm->addr));
	for (i = 0; i < size; i++) {
		if (tab[i].idx)
			tm->addr[tab[i].idx - 1] = tab[i].addr;
	}
	qsort(tm->addr, n, sizeof(*tm->addr), sw_u64_cmp);
	tm->nr = n;
	/* Each slot's index its address's place in the order */
	for (i = 0; i < n; i++)
		sw_replay_timer_find(tab, mask, tm->addr[i])->idx = i + 1;
	for (i = 0; i < t->nr; i++) {
		if (!sw_ev_of_cpu(t->evs[i].type))
			timer_of[i] = sw_replay_timer_find(tab, mask, t->evs[i].timer)->idx - 1;
	}
	free(tab);
}

static void sw_contract_expired(struct sw_replay *rp, size_t ti,
				const struct sw_mirror_outcome *out)
{
	unsigned int w;

	for (w = 0; w < rp->nr_wheels; w++) {
		const struct sw_replay_place *ps = &rp->place[ti * rp->nr_wheels + w];
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
		struct sw_replay_place *ps = &rp->place[ti * rp->nr_wheels + w];

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

	if (re->type == SW_EV_EXPIRE && rp->base_of[ti])
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
bool sw_replay_softirq_ran_timer(const struct sw_replay_trace *t, size_t i)
{
	size_t k;

	for (k = i + 1; k < t->nr; k++) {
		if (t->evs[k].cpu != t->evs[i].cpu)
			continue;
		if (t->evs[k].type == SW_EV_EXPIRE)
			return true;
		if (t->evs[k].type == SW_EV_SOFTIRQ_ENTRY || t->evs[k].type == SW_EV_SOFTIRQ_EXIT)
			return false;
	}
	return false;
}

/*
 * The jiffies of each event: its own, or for a cancel or a CPU's own event
 * (softirq, idle) the next event's. A timer softirq that ran a timer gets
 * the jiffies of its first expire_entry, exactly; one that ran none gets
 * those of whatever event comes next, no earlier than its own, and as the
 * earliest it can have run at (%SW_EVF_EARLIEST) those of the event before
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
		} else if ((ev->type == SW_EV_IDLE_ENTER || ev->type == SW_EV_IDLE_EXIT) &&
			   rp->in.first_now) {
			ev->now = last;
			ev->have |= SW_RE_NOW;
		} else if (ev->type == SW_EV_SOFTIRQ_ENTRY && rp->in.first_now &&
			   !sw_replay_softirq_ran_timer(t, i)) {
			ev->expires = last;
			ev->have |= SW_EVF_EARLIEST;
		}
	}
	rp->in.last_now = last;
	for (i = t->nr; i-- > 0;) {
		struct sw_replay_ev *ev = &t->evs[i];

		if (ev->have & SW_RE_NOW) {
			if (!sw_ev_of_cpu(ev->type)) {
				next = ev->now;
				have_next = true;
			}
		} else {
			ev->now = have_next ? next : last;
		}
	}
}

/*
 * @rp's mirror over @nr_cpus CPUs: every timer has a record, no wheel is
 * ever left behind, and timer_start with bucket_expiry (6.8 on) is taken
 * for 6.12's bases
 */
static void sw_replay_setup_mirror(struct sw_replay *rp, unsigned int nr_cpus)
{
	unsigned int hash_bits = sw_mirror_hash_bits(rp->in.timers.nr), base;
	struct sw_mirror_config cfg = {
		.khz = rp->in.hz, .now = rp->in.first_now, .exact_next = rp->in.exact_next,
		.observed_ticks = rp->in.observed_ticks,
		.bases = rp->v612 ? SW_BASES_LOCAL_GLOBAL_DEF : SW_BASES_STD_DEF,
		.kernel_wheel_only = rp->kernel_only, .geos = rp->geos, .nr_geos = rp->nr_geos,
		.slots = sw_replay_calloc(nr_cpus, sizeof(*cfg.slots)), .nr_slots = nr_cpus,
		.recs = sw_replay_calloc(rp->in.timers.nr, sizeof(*cfg.recs)),
		.nr_recs = rp->in.timers.nr,
		.hash = sw_replay_calloc(1UL << hash_bits, sizeof(*cfg.hash)),
		.hash_bits = hash_bits,
		.cpus = sw_replay_calloc(nr_cpus, sizeof(*cfg.cpus)), .nr_cpus = nr_cpus,
		.budget = UINT_MAX, .cpu_budget = ULONG_MAX,
	};
	int ret;

	rp->m = sw_replay_calloc(1, sizeof(*rp->m));
	rp->slots = cfg.slots;
	rp->recs = cfg.recs;
	rp->hash = cfg.hash;
	rp->cpus = cfg.cpus;
	rp->nr_cpus = nr_cpus;
	ret = sw_mirror_setup(rp->m, &cfg);
	base = rp->kernel_only ? 1 : sw_mirror_nr_default_wheels(rp->in.hz);
	if (ret == -ENOSPC)
		sw_replay_die("%u wheels: the mirror runs at most %u, %u by default; %s",
			      base + rp->nr_geos, SW_MIRROR_MAX_WHEELS, base,
			      "more with --sweep");
	if (ret)
		sw_replay_die("no wheel geometry at HZ %u", rp->in.hz);
}

/*
 * The mirror of @rp's wheels, its records and CPUs, and the replay's own
 * state beside it, for the events read and ordered
 */
void sw_replay_setup(struct sw_replay *rp)
{
	unsigned int nr_cpus;
	size_t i;

	nr_cpus = rp->in.t.nr_cpus;
	for (i = 0; i < rp->in.t.nr; i++) {
		if (rp->in.t.evs[i].cpu + 1U > nr_cpus)
			nr_cpus = rp->in.t.evs[i].cpu + 1U;
		rp->v612 |= rp->in.t.evs[i].have & SW_EVF_BUCKET;
	}
	rp->top = sw_replay_calloc(1, sizeof(*rp->top));
	rp->fn_of = sw_replay_calloc(rp->in.timers.nr, sizeof(*rp->fn_of));
	sw_replay_setup_mirror(rp, nr_cpus);
	rp->nr_wheels = sw_mirror_nr_wheels(rp->m);
	rp->place = sw_replay_calloc(rp->in.timers.nr * rp->nr_wheels, sizeof(*rp->place));
	rp->base_of = sw_replay_calloc(rp->in.timers.nr, sizeof(*rp->base_of));
	sw_geometry_init(&rp->kgeo, SW_WHEEL_MAINLINE, rp->in.hz);
	rp->evidence.geo = &rp->kgeo;
	rp->evidence.nr_cpus = nr_cpus;
	rp->evidence.bases = sw_replay_calloc(nr_cpus * SW_EVIDENCE_KINDS,
					      sizeof(*rp->evidence.bases));
	rp->evidence.unshown = sw_replay_calloc(rp->in.t.nr, sizeof(*rp->evidence.unshown));
	rp->untracked = sw_replay_calloc(rp->in.t.nr, sizeof(*rp->untracked));
	sw_mirror_top_init(rp->top);
}

/* Another replay of @rp's events, read and ordered once: for sw_replay_setup() */
struct sw_replay *sw_replay_again(const struct sw_replay *rp)
{
	struct sw_replay *again = sw_replay_calloc(1, sizeof(*again));

	again->in = rp->in;
	return again;
}

/* What sw_replay_setup() allocated, freed: a sweep sets up a replay per pass */
void sw_replay_teardown(struct sw_replay *rp)
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
void sw_replay_run(struct sw_replay *rp)
{
	struct sw_mirror_outcome out;
	size_t i, ti;

	for (i = 0; i < rp->in.t.nr; i++) {
		const struct sw_replay_ev *re = &rp->in.t.evs[i];
		struct sw_mirror_event ev = {
			.type = re->type,
			.timer = (const void *)(uintptr_t)re->timer,
			.cpu = re->cpu,
			.now = re->now,
			.expires = re->expires,
			.tflags = re->flags,
			.have = re->have & SW_EVF_ALL,
		};

		if (sw_ev_of_cpu(re->type)) {
			ev.timer = NULL;
			sw_mirror_handle_event(rp->m, &ev, NULL);
			continue;
		}
		ti = rp->in.timer_of[i];
		if (re->type == SW_EV_EXPIRE)
			ev.baseclk = re->kclk;
		else
			ev.bucket_expiry = re->kclk;
		if (re->type != SW_EV_CANCEL)
			rp->fn_of[ti] = re->fn;
		sw_mirror_handle_event(rp->m, &ev, &out);
		sw_replay_evidence(rp, ti, re, &out);
		if (out.class == SW_MC_UNTRACKED && re->type == SW_EV_EXPIRE)
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

/*
 * The trace at @path read into @rp, and its HZ: the one given, or the one
 * inferred; @why says which, or how it was inferred
 */
void sw_replay_read(struct sw_replay *rp, const char *path, char *why, size_t len)
{
	char err[512];

	if (sw_replay_trace_read(path, &rp->in.t, err, sizeof(err)))
		sw_replay_die("%s: %s", path, err);
	if (!rp->in.t.nr)
		sw_replay_die("%s: no timer events in the trace (%llu other events)", path,
			      (unsigned long long)rp->in.t.other);
	if (!rp->hz_given) {
		rp->in.hz = sw_replay_infer_hz(&rp->in.t, why, len);
		if (!rp->in.hz)
			sw_replay_die("%s: cannot infer the kernel's HZ (%s); give it with --hz",
				      path, why);
	} else {
		snprintf(why, len, "given");
	}
}

/* The trace's timers, and each event's */
void sw_replay_index(struct sw_replay *rp)
{
	rp->in.timer_of = sw_replay_calloc(rp->in.t.nr, sizeof(*rp->in.timer_of));
	sw_replay_timers_build(&rp->in.timers, &rp->in.t, rp->in.timer_of);
}

/* The events in an order the kernel can have produced, each with its jiffies */
void sw_replay_prepare(struct sw_replay *rp)
{
	sw_replay_order(&rp->in.t, rp->in.timer_of, rp->in.timers.nr, &rp->order);
	sw_derive_now(rp);
	rp->in.observed_ticks = sw_replay_tick_jiffies(&rp->in.t, rp->in.hz, &rp->in.ticks);
}

/* The report of the replay's mirror, the top functions' too if @top */
void sw_replay_take(const struct sw_replay *rp, struct sw_mirror_report *rep, bool top)
{
	struct sw_mirror_head head = { .caught_up = 1 };

	head.records = rp->in.timers.nr;
	head.elapsed_ms = (unsigned long long)(rp->in.last_now - rp->in.first_now) * 1000 /
			  rp->in.hz;
	sw_mirror_report_take(rep, &head, rp->m, top ? rp->top : NULL);
}

/*
 * What the trace lacks of the CPUs' own events, said rather than shown as
 * zeros: NULL if it has them all
 */
const char *sw_replay_softirq_missing(const struct sw_replay *rp)
{
	if (!rp->in.t.has_softirq)
		return "not recorded (the trace lacks irq:softirq_entry and irq:softirq_exit)";
	return NULL;
}

const char *sw_replay_idle_missing(const struct sw_replay *rp)
{
	if (!rp->in.t.has_idle)
		return "not recorded (the trace lacks power:cpu_idle and timer:timer_base_idle)";
	return NULL;
}
