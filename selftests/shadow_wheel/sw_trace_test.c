// SPDX-License-Identifier: GPL-2.0
/*
 * The module's tracepoints (docs/design.rst, "Tracing") tell what its
 * counters tell, timer by timer. For each wheel, with every shadow_wheel
 * event enabled in a tracefs instance of the test's own:
 *
 *  - a workload through control: timers over the near levels, 30% of them
 *    cancelled; deferrable ones on this CPU; far ones and two beyond the
 *    range, left for cancel-all; a second of mixed traffic (timeouts
 *    re-armed while pending, polls re-armed when they expire); and on
 *    mainline, the last CPU taken offline with timers pending, and back;
 *  - per CPU, from a stats read before to one after, the events count what
 *    the stats count: sw_timer_start armed = armed and the others =
 *    modified, sw_timer_cancel = cancelled, sw_timer_expire = expired,
 *    sw_cascade's moved = cascaded, sw_timer_migrate = migrated_out and
 *    migrated_in, sw_tasklet_run (by its run number) = runs, their expired
 *    and cascaded adding up again and catchup_runs those of more than a
 *    tick; and by level, the expiries the lateness file counts, with the
 *    same least and most lateness;
 *  - timer by timer, in the order of the trace: armed once, then re-armed,
 *    cascaded or moved, then cancelled or expired once, and none left;
 *    each expires where it was last placed (on classic, where cascades
 *    took it, which the test works out from the classic table), its start
 *    runs where the contract says, and its lateness is the contract's:
 *    1 .. gran of its level, 0 on classic.
 *
 * Skipped (KSFT_SKIP) when there is no tracefs, or no events/shadow_wheel/
 * (a kernel or module built without tracepoints).
 */
#define _GNU_SOURCE
#include <sys/random.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/swt_test.h"

#define SWT_NEAR_MS		2400	/* the arms' longest delta: levels 0 .. 2 or 3 */
#define SWT_GRACE_MS		1000	/* for the tasklet to run once they are due */
#define SWT_BUFFER_KB		"4096"	/* per CPU: ten times what a run writes */
#define SWT_TABLE_SIZE		65536U	/* timers a run may name, and more; a power of 2 */
#define SWT_MAX_REPORTS		8	/* inconsistencies printed, of each check */

FIXTURE(trace) {
	struct swt_geometry geo;
	struct swt_trace tr;
};

FIXTURE_VARIANT(trace) {
	const char *params;
	bool offline;		/* take the last CPU offline half way */
};

FIXTURE_VARIANT_ADD(trace, seed) {
	.params = "geometry=seed",
};

FIXTURE_VARIANT_ADD(trace, mainline) {
	.params = "geometry=mainline",
	.offline = true,
};

FIXTURE_VARIANT_ADD(trace, classic) {
	.params = "geometry=classic",
};

static const struct swt_fixture_hooks swt_trace_no_hooks;

FIXTURE_SETUP(trace)
{
	char name[64];

	swt_fixture_setup(_metadata, &self->geo, variant->params, &swt_trace_no_hooks);
	if (_metadata->skip)
		return;
	if (!swt_tracefs_dir())
		SKIP(return, "%s", swt_error());
	snprintf(name, sizeof(name), "sw_trace_test.%d", getpid());
	ASSERT_EQ(0, swt_trace_create(&self->tr, name)) TH_LOG("%s", swt_error());
	if (!swt_trace_exists(&self->tr, "events/" SWT_TRACE_SYSTEM "/enable"))
		SKIP(return, "no events/%s in tracefs: no tracepoints in the kernel or module",
		     SWT_TRACE_SYSTEM);
}

FIXTURE_TEARDOWN(trace)
{
	_metadata->trigger = 0;
	if (self->tr.dir[0]) {
		swt_trace_write(&self->tr, "events/" SWT_TRACE_SYSTEM "/enable", "0");
		EXPECT_EQ(0, swt_trace_remove(&self->tr)) TH_LOG("%s", swt_error());
	}
	swt_fixture_teardown(_metadata, &swt_trace_no_hooks);
}

/*
 * The instance records our events only: a clock that orders them across
 * CPUs exactly (counter, else global), room enough, hashed pointers (the
 * default; on 6.1, with hash-ptr cleared, an event's %s fields print wrong)
 */
static void swt_trace_start(struct __test_metadata *_metadata, struct swt_trace *tr)
{
	char seed;

	/* Pointers hash once the RNG is ready, (ptrval) before */
	EXPECT_EQ(1, getrandom(&seed, 1, 0));
	if (swt_trace_write(tr, "trace_clock", "counter"))
		ASSERT_EQ(0, swt_trace_write(tr, "trace_clock", "global"))
			TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_trace_write(tr, "buffer_size_kb", SWT_BUFFER_KB))
		TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_trace_write(tr, "events/" SWT_TRACE_SYSTEM "/enable", "1"))
		TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_trace_write(tr, "tracing_on", "1")) TH_LOG("%s", swt_error());
}

/* Take CPU @cpu offline and back, with timers pending on it; false if it cannot go */
static bool swt_cpu_out_and_back(struct __test_metadata *_metadata, unsigned int cpu)
{
	if (swt_cpu_set_online(cpu, false)) {
		swt_msg("cpu%u stays online (%s): no migration", cpu, swt_error());
		return false;
	}
	swt_sleep_ms(100);
	EXPECT_EQ(0, swt_cpu_set_online(cpu, true)) TH_LOG("%s", swt_error());
	return true;
}

/*
 * The workload, between the stats and lateness reads @s1, @l1 and @s2, @l2:
 * everything it arms is expired or cancelled by the end
 */
static void swt_trace_workload(struct __test_metadata *_metadata, const struct swt_geometry *g,
			       bool offline, struct swt_stats *s1, struct swt_lateness *l1,
			       struct swt_stats *s2, struct swt_lateness *l2)
{
	unsigned int online[SWT_MAX_CPUS], ncpu = swt_cpus_online(online);
	struct swt_arm near = { .cpu = -1, .count = 300, .lo = 4, .hi = SWT_NEAR_MS,
				.ms = true, .extra = "cancel=30" };
	struct swt_arm dfr = { .cpu = online[0], .count = 30, .lo = 1, .hi = 50,
			       .extra = "deferrable" };
	struct swt_arm far = { .cpu = -1, .count = 10, .lo = 100000, .hi = 200000 };
	struct swt_arm beyond = { .cpu = -1, .count = 2, .lo = SWT_MAX_DELTA,
				  .hi = SWT_MAX_DELTA };
	char why[256];

	ASSERT_LT(0U, ncpu);
	ASSERT_EQ(0, swt_pin_to_cpu(online[0])) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_stats_read(s1)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_lateness_read(l1)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0U, s1->total.pending);

	ASSERT_EQ(0, swt_arm(g, &near)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_arm(g, &dfr)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_arm(g, &far)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_arm(g, &beyond)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_control("run preset=mixed rate=400 duration=1"))
		TH_LOG("%s", swt_error());
	if (offline && ncpu > 1)
		swt_cpu_out_and_back(_metadata, online[ncpu - 1]);

	/* All the near ones run or are cancelled; the rest go with cancel-all */
	ASSERT_EQ(0, swt_wait_tick(g, near.last_tick + 1)) TH_LOG("%s", swt_error());
	swt_sleep_ms(SWT_GRACE_MS);
	swt_control("stop");
	ASSERT_EQ(0, swt_control("cancel-all")) TH_LOG("%s", swt_error());

	ASSERT_EQ(0, swt_stats_read(s2)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_lateness_read(l2)) TH_LOG("%s", swt_error());
	EXPECT_TRUE(swt_stats_sane(s2, why, sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(0U, s2->total.pending);
	swt_msg("%s: %llu armed, %llu modified, %llu cancelled, %llu expired", g->wheel,
		s2->total.armed - s1->total.armed, s2->total.modified - s1->total.modified,
		s2->total.cancelled - s1->total.cancelled, s2->total.expired - s1->total.expired);
	swt_msg("%s: %llu cascaded, %llu migrated, %llu tasklet runs", g->wheel,
		s2->total.cascaded - s1->total.cascaded, s2->total.migrated - s1->total.migrated,
		s2->total.runs - s1->total.runs);
}

/* What the events of one CPU add up to */
struct swt_tally {
	u64 armed;
	u64 modified;
	u64 cancelled;
	u64 expired;
	u64 cascaded;
	u64 migrated_in;
	u64 migrated_out;
	/* sw_tasklet_run with a run number between the two stats reads */
	u64 runs;
	u64 run_expired;
	u64 run_cascaded;
	u64 catchup_runs;
	u64 catchup_max;
	unsigned char *run_seen;	/* one byte per run number of the window */
};

/* A timer, as its events so far place it */
struct swt_timer {
	u64 id;			/* its hashed pointer */
	bool used;
	bool live;
	unsigned int cpu;
	unsigned int level;
	unsigned int bucket;
	unsigned int flags;
	u64 expires;
	u64 bucket_expiry;
};

/* Everything the check carries from event to event */
struct swt_check {
	const struct swt_geometry *g;
	bool classic;
	bool mainline;
	const struct swt_stats *s1;
	const struct swt_stats *s2;
	struct swt_tally cpu[SWT_MAX_CPUS];
	struct swt_timer *timers;		/* open addressing, by id */
	u64 late_count[SWT_MAX_LEVELS];	/* as the lateness file counts them */
	s64 late_min[SWT_MAX_LEVELS];
	s64 late_max[SWT_MAX_LEVELS];
	u64 bad;				/* events that do not fit */
	u64 events;
};

static void __printf(3, 4) swt_bad(struct swt_check *ck, const struct swt_event *e,
				   const char *fmt, ...)
{
	char why[512];
	va_list ap;

	if (ck->bad++ >= SWT_MAX_REPORTS)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	swt_msg("event %llu (%s, stamp %llu): %s", ck->events, e ? e->name : "-",
		e ? e->ts : 0, why);
}

static unsigned int swt_flag_bits(const char *flags)
{
	return (strchr(flags, 'D') ? 1 : 0) | (strchr(flags, 'C') ? 2 : 0) |
	       (strchr(flags, 'O') ? 4 : 0);
}

#define SWT_F_CLAMPED	2U
#define SWT_F_OVERDUE	4U

/* The timer named by @e's timer field: found, or a free slot for it */
static struct swt_timer *swt_timer_of(struct swt_check *ck, const struct swt_event *e)
{
	const char *s = swt_event_str(e, "timer");
	unsigned int i, n;
	u64 id;

	if (!s || strchr(s, '(') || swt_event_hex(e, "timer", &id)) {
		swt_bad(ck, e, "timer=%s: no pointer to name it by", s ? s : "?");
		return NULL;
	}
	i = (unsigned int)(id ^ (id >> 17) ^ (id >> 31)) & (SWT_TABLE_SIZE - 1);
	for (n = 0; n < SWT_TABLE_SIZE; n++, i = (i + 1) & (SWT_TABLE_SIZE - 1)) {
		struct swt_timer *t = &ck->timers[i];

		if (!t->used) {
			t->used = true;
			t->id = id;
			return t;
		}
		if (t->id == id)
			return t;
	}
	swt_bad(ck, e, "more than %u timers", SWT_TABLE_SIZE);
	return NULL;
}

/* Buckets of level @lvl, from the geometry file */
static unsigned int swt_level_buckets(const struct swt_geometry *g, unsigned int lvl)
{
	return lvl ? g->buckets : g->level[1].offset;
}

/* Read the fields every timer event has into @t's placement; false if one is missing */
static bool swt_read_place(struct swt_check *ck, const struct swt_event *e,
			   struct swt_timer *t, const char *cpu_key)
{
	const char *flags = swt_event_str(e, "flags");
	u64 cpu, lvl, bucket;

	if (swt_event_u64(e, cpu_key, &cpu) || swt_event_u64(e, "expires", &t->expires) ||
	    swt_event_u64(e, "level", &lvl) || swt_event_u64(e, "bucket", &bucket) || !flags) {
		swt_bad(ck, e, "%s", swt_error());
		return false;
	}
	t->cpu = cpu;
	t->level = lvl;
	t->bucket = bucket;
	t->flags = swt_flag_bits(flags);
	if (cpu >= SWT_MAX_CPUS || lvl >= ck->g->levels ||
	    bucket >= swt_level_buckets(ck->g, lvl)) {
		swt_bad(ck, e, "cpu %llu level %llu bucket %llu: not in the wheel", cpu, lvl,
			bucket);
		return false;
	}
	return true;
}

/* The tick the contract runs a timer placed at @t's level on */
static u64 swt_contract_tick(const struct swt_check *ck, const struct swt_timer *t)
{
	unsigned int shift = 3 * t->level;

	return ck->classic ? t->expires : ((t->expires >> shift) + 1) << shift;
}

static void swt_on_start(struct swt_check *ck, const struct swt_event *e)
{
	const char *result = swt_event_str(e, "result");
	const char *wheel = swt_event_str(e, "wheel");
	struct swt_timer *t = swt_timer_of(ck, e), was;
	bool armed = result && !strcmp(result, "armed");
	s64 timeout;

	if (!t)
		return;
	was = *t;
	if (!result || !wheel || swt_event_s64(e, "timeout", &timeout) ||
	    swt_event_u64(e, "bucket_expiry", &t->bucket_expiry)) {
		swt_bad(ck, e, "a field is missing");
		return;
	}
	if (strcmp(wheel, ck->g->wheel))
		swt_bad(ck, e, "wheel=%s on the %s wheel", wheel, ck->g->wheel);
	if (!swt_read_place(ck, e, t, "cpu"))
		return;
	if (armed == was.live)
		swt_bad(ck, e, "result=%s for a timer %s", result,
			was.live ? "already pending" : "not pending");
	if (!armed && was.live && t->cpu != was.cpu)
		swt_bad(ck, e, "re-armed on cpu %u, pending on cpu %u", t->cpu, was.cpu);
	if (!strcmp(result, "unchanged") &&
	    (t->expires != was.expires || t->level != was.level || t->bucket != was.bucket))
		swt_bad(ck, e, "result=unchanged, but the timer moved");
	if (!strcmp(result, "same_bucket") && (t->level != was.level || t->bucket != was.bucket))
		swt_bad(ck, e, "result=same_bucket, but level %u bucket %u became %u %u",
			was.level, was.bucket, t->level, t->bucket);
	t->live = true;
	if (armed)
		ck->cpu[t->cpu].armed++;
	else
		ck->cpu[t->cpu].modified++;
	if (t->flags & (SWT_F_CLAMPED | SWT_F_OVERDUE))
		return;
	/* The wheel's clock is jiffies, or one past when it has run this tick, or behind */
	if (timeout < 0)
		swt_bad(ck, e, "timeout=%lld: armed for the past, not marked overdue", timeout);
	else if (timeout && t->level < swt_geo_level_of(ck->g, timeout - 1))
		swt_bad(ck, e, "level %u for a timeout of %lld ticks", t->level, timeout);
	if (t->bucket_expiry != swt_contract_tick(ck, t))
		swt_bad(ck, e, "runs at %llu, the contract says %llu", t->bucket_expiry,
			swt_contract_tick(ck, t));
}

/* A pending timer @e names, on the CPU and in the place its events put it */
static struct swt_timer *swt_live_timer(struct swt_check *ck, const struct swt_event *e,
					const char *cpu_key)
{
	struct swt_timer *t = swt_timer_of(ck, e), now;

	if (!t)
		return NULL;
	if (!t->live) {
		swt_bad(ck, e, "a timer not pending");
		return NULL;
	}
	now = *t;
	if (!swt_read_place(ck, e, &now, cpu_key))
		return NULL;
	if (now.cpu != t->cpu || now.expires != t->expires || now.level != t->level ||
	    now.bucket != t->bucket)
		swt_bad(ck, e,
			"cpu %u expires %llu level %u bucket %u, placed on cpu %u at %llu level %u bucket %u",
			now.cpu, now.expires, now.level, now.bucket, t->cpu, t->expires,
			t->level, t->bucket);
	return t;
}

static void swt_on_cancel(struct swt_check *ck, const struct swt_event *e)
{
	struct swt_timer *t = swt_live_timer(ck, e, "cpu");

	if (!t)
		return;
	t->live = false;
	ck->cpu[t->cpu].cancelled++;
}

/* Lateness as the lateness file counts it, by level */
static void swt_count_late(struct swt_check *ck, const struct swt_timer *t, s64 late)
{
	unsigned int lvl = t->level;

	if ((t->flags & SWT_F_CLAMPED) || ((t->flags & SWT_F_OVERDUE) && late > 1) || late < 0)
		return;
	if (!ck->late_count[lvl]++ || late < ck->late_min[lvl])
		ck->late_min[lvl] = late;
	if (late > ck->late_max[lvl])
		ck->late_max[lvl] = late;
}

static void swt_on_expire(struct swt_check *ck, const struct swt_event *e)
{
	struct swt_timer *t = swt_live_timer(ck, e, "cpu");
	u64 clk, now, gran;
	s64 late;

	if (!t)
		return;
	t->live = false;
	ck->cpu[t->cpu].expired++;
	if (swt_event_u64(e, "clk", &clk) || swt_event_u64(e, "now", &now) ||
	    swt_event_s64(e, "late", &late)) {
		swt_bad(ck, e, "%s", swt_error());
		return;
	}
	if (late != (s64)(clk - t->expires))
		swt_bad(ck, e, "late=%lld for clk %llu and expires %llu", late, clk, t->expires);
	if ((s64)(now - clk) < 0)
		swt_bad(ck, e, "run at tick %llu before jiffies reached it (%llu)", clk, now);
	swt_count_late(ck, t, late);
	if (t->flags & SWT_F_CLAMPED)
		return;
	if (t->flags & SWT_F_OVERDUE) {
		if (late < 0)
			swt_bad(ck, e, "overdue, but %lld ticks early", -late);
		return;
	}
	gran = ck->g->level[t->level].gran;
	if (ck->classic ? late != 0 : late < 1 || (u64)late > gran)
		swt_bad(ck, e, "%lld ticks late at level %u (gran %llu)", late, t->level, gran);
	if (clk != t->bucket_expiry)
		swt_bad(ck, e, "run at tick %llu, placed for %llu", clk, t->bucket_expiry);
}

/* Where the classic wheel puts a timer again when a tick @clk cascades it */
static void swt_classic_place(const struct swt_geometry *g, u64 clk, struct swt_timer *t)
{
	u64 delta = t->expires - clk, expires = t->expires, width;

	if (delta >= g->cutoff)
		expires = clk + g->cutoff - 1;
	t->level = swt_geo_level_of(g, delta);
	width = t->level ? g->level[t->level].start : 1;
	t->bucket = (expires / width) & (swt_level_buckets(g, t->level) - 1);
}

static void swt_on_cascade(struct swt_check *ck, const struct swt_event *e)
{
	u64 cpu, clk, lvl, bucket, moved, found = 0;
	unsigned int i;

	if (swt_event_u64(e, "cpu", &cpu) || swt_event_u64(e, "clk", &clk) ||
	    swt_event_u64(e, "level", &lvl) || swt_event_u64(e, "bucket", &bucket) ||
	    swt_event_u64(e, "moved", &moved) || cpu >= SWT_MAX_CPUS) {
		swt_bad(ck, e, "%s", swt_error());
		return;
	}
	if (ck->mainline)
		swt_bad(ck, e, "mainline never cascades");
	ck->cpu[cpu].cascaded += moved;
	/* The timers in that bucket but those whose tick this is move */
	for (i = 0; i < SWT_TABLE_SIZE; i++) {
		struct swt_timer *t = &ck->timers[i];

		if (!t->live || t->cpu != cpu || t->level != lvl || t->bucket != bucket ||
		    (!ck->classic && t->bucket_expiry == clk))
			continue;
		found++;
		if (ck->classic)
			swt_classic_place(ck->g, clk, t);
	}
	if (found != moved)
		swt_bad(ck, e, "moved=%llu out of a bucket that held %llu to move", moved, found);
}

static void swt_on_migrate(struct swt_check *ck, const struct swt_event *e)
{
	struct swt_timer *t = swt_timer_of(ck, e), now;
	u64 from;

	if (!t)
		return;
	if (!t->live) {
		swt_bad(ck, e, "a timer not pending");
		return;
	}
	now = *t;
	if (swt_event_u64(e, "from", &from) || !swt_read_place(ck, e, &now, "to") ||
	    swt_event_u64(e, "bucket_expiry", &now.bucket_expiry))
		return;
	if (from != t->cpu || now.expires != t->expires)
		swt_bad(ck, e, "from cpu %llu at %llu, pending on cpu %u at %llu", from,
			now.expires, t->cpu, t->expires);
	if (!(now.flags & (SWT_F_CLAMPED | SWT_F_OVERDUE)) &&
	    now.bucket_expiry != swt_contract_tick(ck, &now))
		swt_bad(ck, e, "runs at %llu, the contract says %llu", now.bucket_expiry,
			swt_contract_tick(ck, &now));
	ck->cpu[t->cpu].migrated_out++;
	ck->cpu[now.cpu].migrated_in++;
	*t = now;
}

static void swt_on_run(struct swt_check *ck, const struct swt_event *e)
{
	u64 cpu, run, ticks, expired, cascaded, first, last;
	struct swt_tally *ct;

	if (swt_event_u64(e, "cpu", &cpu) || swt_event_u64(e, "run", &run) ||
	    swt_event_u64(e, "ticks", &ticks) || swt_event_u64(e, "expired", &expired) ||
	    swt_event_u64(e, "cascaded", &cascaded) || cpu >= SWT_MAX_CPUS) {
		swt_bad(ck, e, "%s", swt_error());
		return;
	}
	/* The runs the stats counted between the reads */
	first = ck->s1->cpu[cpu].runs;
	last = ck->s2->cpu[cpu].runs;
	if (run <= first || run > last)
		return;
	ct = &ck->cpu[cpu];
	if (ct->run_seen[run - first - 1]++)
		swt_bad(ck, e, "cpu %llu run %llu seen twice", cpu, run);
	ct->runs++;
	ct->run_expired += expired;
	ct->run_cascaded += cascaded;
	ct->catchup_runs += ticks > 1;
	if (ticks > ct->catchup_max)
		ct->catchup_max = ticks;
}

static const struct {
	const char *name;
	void (*fn)(struct swt_check *ck, const struct swt_event *e);
} swt_event_checks[] = {
	{ "sw_timer_start", swt_on_start },
	{ "sw_timer_cancel", swt_on_cancel },
	{ "sw_timer_expire", swt_on_expire },
	{ "sw_cascade", swt_on_cascade },
	{ "sw_timer_migrate", swt_on_migrate },
	{ "sw_tasklet_run", swt_on_run },
};

/* Go through the trace in order; false if it could not be done at all */
static bool swt_check_events(struct swt_check *ck, const struct swt_trace *tr)
{
	unsigned int cpu, k;
	size_t i;

	ck->timers = calloc(SWT_TABLE_SIZE, sizeof(*ck->timers));
	if (!ck->timers)
		return false;
	for (cpu = 0; cpu < SWT_MAX_CPUS; cpu++) {
		u64 window = ck->s2->cpu[cpu].runs - ck->s1->cpu[cpu].runs;

		ck->cpu[cpu].run_seen = calloc(window + 1, 1);
		if (!ck->cpu[cpu].run_seen)
			return false;
	}
	for (i = 0; i < tr->nr; i++) {
		const struct swt_event *e = &tr->event[i];

		ck->events = i;
		for (k = 0; k < ARRAY_SIZE(swt_event_checks); k++)
			if (!strcmp(e->name, swt_event_checks[k].name))
				break;
		if (k == ARRAY_SIZE(swt_event_checks))
			swt_bad(ck, e, "an event of no shadow_wheel kind");
		else
			swt_event_checks[k].fn(ck, e);
	}
	for (i = 0; i < SWT_TABLE_SIZE; i++)
		if (ck->timers[i].live)
			swt_bad(ck, NULL, "timer %llx still pending at the end (cpu %u)",
				ck->timers[i].id, ck->timers[i].cpu);
	return true;
}

static void swt_check_free(struct swt_check *ck)
{
	unsigned int cpu;

	for (cpu = 0; cpu < SWT_MAX_CPUS; cpu++)
		free(ck->cpu[cpu].run_seen);
	free(ck->timers);
}

/* A counter of the stats, and what the events count of it */
#define SWT_TALLY(stat, tally)							\
	{ #stat, offsetof(struct swt_counts, stat), offsetof(struct swt_tally, tally) }

static const struct {
	const char *stat;
	size_t stat_off;
	size_t tally_off;
} swt_tallies[] = {
	SWT_TALLY(armed, armed),
	SWT_TALLY(modified, modified),
	SWT_TALLY(cancelled, cancelled),
	SWT_TALLY(expired, expired),
	SWT_TALLY(cascaded, cascaded),
	SWT_TALLY(migrated_in, migrated_in),
	SWT_TALLY(migrated_out, migrated_out),
	SWT_TALLY(runs, runs),
	SWT_TALLY(expired, run_expired),
	SWT_TALLY(cascaded, run_cascaded),
	SWT_TALLY(catchup_runs, catchup_runs),
};

static u64 swt_u64_at(const void *base, size_t off)
{
	return *(const u64 *)((const char *)base + off);
}

/* The events of each CPU count what its stats counted */
static void swt_expect_tallies(struct __test_metadata *_metadata, const struct swt_check *ck)
{
	unsigned int cpu, i;

	for (cpu = 0; cpu < SWT_MAX_CPUS; cpu++) {
		const struct swt_tally *t = &ck->cpu[cpu];

		if (!ck->s2->has_cpu[cpu])
			continue;
		for (i = 0; i < ARRAY_SIZE(swt_tallies); i++) {
			u64 stat = swt_u64_at(&ck->s2->cpu[cpu], swt_tallies[i].stat_off) -
				   swt_u64_at(&ck->s1->cpu[cpu], swt_tallies[i].stat_off);
			u64 events = swt_u64_at(t, swt_tallies[i].tally_off);

			EXPECT_EQ(stat, events)
				TH_LOG("cpu%u: %s went up by %llu, the events count %llu", cpu,
				       swt_tallies[i].stat, stat, events);
		}
		EXPECT_GE(ck->s2->cpu[cpu].catchup_max, t->catchup_max) TH_LOG("cpu%u", cpu);
	}
}

/* Expiries by level: the lateness file's count, least and most */
static void swt_expect_lateness(struct __test_metadata *_metadata, const struct swt_check *ck,
				const struct swt_lateness *l1, const struct swt_lateness *l2)
{
	unsigned int lvl;

	ASSERT_EQ(ck->g->levels, l2->levels);
	for (lvl = 0; lvl < l2->levels; lvl++) {
		const struct swt_late_level *b = &l1->level[lvl], *a = &l2->level[lvl];

		EXPECT_EQ(a->expired - b->expired, ck->late_count[lvl]) TH_LOG("level %u", lvl);
		if (!ck->late_count[lvl])
			continue;
		swt_msg("level %u: %llu expired, %lld .. %lld ticks late", lvl,
			ck->late_count[lvl], ck->late_min[lvl], ck->late_max[lvl]);
		/* Read before any timer expired: the file's extremes are this run's */
		if (b->expired)
			continue;
		EXPECT_EQ(a->late_min, (u64)ck->late_min[lvl]) TH_LOG("level %u", lvl);
		EXPECT_EQ(a->late_max, (u64)ck->late_max[lvl]) TH_LOG("level %u", lvl);
	}
}

/* Read the trace back; a pointer not yet hashable reads (ptrval): read again */
static void swt_trace_read_all(struct __test_metadata *_metadata, struct swt_trace *tr)
{
	s64 lost;
	int tries;

	ASSERT_EQ(0, swt_trace_write(tr, "tracing_on", "0")) TH_LOG("%s", swt_error());
	lost = swt_trace_lost(tr);
	ASSERT_LE(0, lost) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, lost) TH_LOG("the trace lost %lld events: a buffer of %s kB is too small",
				  lost, SWT_BUFFER_KB);
	for (tries = 0; tries < 3; tries++) {
		ASSERT_EQ(0, swt_trace_read(tr)) TH_LOG("%s", swt_error());
		if (!strstr(tr->text ? tr->text : "", "ptrval"))
			return;
		swt_sleep_ms(500);
	}
}

TEST_F_TIMEOUT(trace, events_match_counters, 180)
{
	struct swt_check ck = { .g = &self->geo };
	struct swt_lateness l1, l2;
	struct swt_stats s1, s2;

	if (_metadata->skip)
		return;
	ck.classic = !strcmp(self->geo.wheel, "classic");
	ck.mainline = !strcmp(self->geo.wheel, "mainline");
	ck.s1 = &s1;
	ck.s2 = &s2;

	swt_trace_start(_metadata, &self->tr);
	swt_trace_workload(_metadata, &self->geo, variant->offline, &s1, &l1, &s2, &l2);
	swt_trace_read_all(_metadata, &self->tr);
	swt_msg("%zu events in the trace", self->tr.nr);

	ASSERT_TRUE(swt_check_events(&ck, &self->tr)) TH_LOG("no memory");
	EXPECT_EQ(0U, ck.bad) TH_LOG("%llu events do not fit (the first %u above)", ck.bad,
				     SWT_MAX_REPORTS);
	swt_expect_tallies(_metadata, &ck);
	swt_expect_lateness(_metadata, &ck, &l1, &l2);
	swt_check_free(&ck);
}

TEST_HARNESS_MAIN
