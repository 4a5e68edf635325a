// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the mirror. Every event of the kernel's timer tracepoints
 * (timer_start, timer_cancel, timer_expire_entry) is replayed, as it
 * happens, into passive wheels: a list of geometries, each at its own HZ
 * (sw_hz.h converts). By default every kind (seed, mainline, classic),
 * each at the kernel's own HZ and at HZ 100, 250 and 1000: 9 wheels, or
 * 12 when the kernel's HZ is 300; wheels of any geometry are added by
 * sw_mirror_add_wheel() before the first event, up to
 * %SW_MIRROR_MAX_WHEELS, and a mirror may start with the kernel's wheel
 * alone (sw_mirror_init_wheels()).
 *
 * The wheels are passive: a timer is placed in every wheel when the
 * kernel starts it, moved when the kernel moves it, and taken out when
 * the kernel cancels or expires it. Each wheel's clock follows jiffies,
 * converted to its HZ: before an event at jiffies j it processes its
 * ticks before j (the real base's clock is j after forward_timer_base()),
 * and before an expiry with baseclk B, or the cancel of a timer whose
 * tick B has come (the detach of that expiry), its ticks up to B (the
 * real base has run tick B and its clock is B + 1). A due bucket is
 * processed as the wheel would (cascades included), its timers only
 * marked as run. The tick a wheel runs a timer at is known when it
 * places it, so the lateness of an expiry is that tick minus the
 * kernel's expiry in the wheel's HZ, whenever the kernel's expiry
 * comes. Catching up is bounded per event by a budget;
 * a wheel left behind places timers from its older clock (the
 * differential says so) and catches up on later events or
 * sw_mirror_advance().
 *
 * What the events mean (kernel/time/timer.c, 6.1 and 6.12): timer_cancel
 * is detach_timer()'s, and it fires for four reasons:
 *
 *  requeue	__mod_timer() of a pending timer to another bucket:
 *		detach_if_pending(), then enqueue_timer() fires timer_start,
 *		on the same CPU with interrupts off, so the start is that
 *		CPU's next event (also when the timer moves to another base)
 *  migration	timers_dead_cpu() moves an offline CPU's timers: cancel,
 *		then start on the new base, on the CPU doing it, adjacent
 *  expiry	expire_timers() detaches under the base lock, then drops
 *		it and calls call_timer_fn(), which fires
 *		timer_expire_entry: same CPU, next event unless an
 *		interrupt (or, on RT, a preemption) gets in between; by
 *		then the timer's bucket is due (baseclk >= its tick)
 *  cancel	del_timer() and friends: nothing follows
 *
 * so a cancel is held in its CPU's slot and decided by that CPU's next
 * event:
 *
 *  next event on the CPU		the cancel was	the event is
 *  start of the same timer		a requeue	SW_MC_REARM, or
 *							SW_MC_MIGRATE if the
 *							base's CPU changed
 *  expire_entry of the same timer	an expiry	SW_MC_EXPIRE
 *  anything else, timer not due	a cancel	classified itself
 *  anything else, timer due		undecided: DUE_DETACHED, waiting for
 *					its expire_entry (SW_MC_EXPIRE) for
 *					@grace jiffies, then a cancel
 *
 * A start of a timer whose due cancel is undecided (held, or
 * DUE_DETACHED) does not decide it: another CPU may re-arm a timer
 * between its detach and its callback (mod_timer() of a running timer
 * stays on its base), and a del_timer() from another CPU than the base's
 * may take a due timer the base has not run yet, then the timer be
 * armed again (a thread in schedule_timeout() that moved CPUs). The new
 * lifetime takes a record of its own; the old one is decided as any
 * cancel is, by its CPU's next event or the grace (a start of the timer
 * there is a lifetime newer still, not its requeue). Its expire_entry,
 * when it comes, is SW_MC_EXPIRE_REARMED. With no record free, the old
 * cancel is taken as a cancel and its record goes to the new lifetime.
 *
 * An expiry ran remotely (expired_remote) when its expire_entry ran on
 * another CPU than the base the timer was on: 6.12's timer migration
 * (timer_expire_remote()); 6.1 runs every base on its own CPU.
 *
 * One sequence looks like another and is counted one way: del_timer()
 * and a new start of the same timer on the same CPU with no timer event
 * between are a requeue (as mod_timer() would be).
 *
 * Lifetimes: a start of a timer the mirror holds no record of begins
 * one (seen) and takes a record, or counts it dropped when none is free;
 * it ends cancelled or expired. At every read,
 * seen = cancelled + expired + pending + dropped.
 */

#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>

#include "sw_mirror.h"

/* Every wheel of a mirror is one the CPUs' model can follow */
static_assert(SW_MIRROR_MAX_WHEELS <= SW_SIRQ_MAX_WHEELS);

static const unsigned int sw_mirror_vhz[SW_MIRROR_NR_HZ - 1] = { 100, 250, 1000 };

static const char * const sw_mirror_class_names[SW_MC_NR] = {
	[SW_MC_ARM]		= "arm",
	[SW_MC_REARM]		= "rearm",
	[SW_MC_MIGRATE]		= "migrate",
	[SW_MC_CANCEL]		= "cancel",
	[SW_MC_EXPIRE]		= "expire",
	[SW_MC_EXPIRE_REARMED]	= "expire_rearmed",
	[SW_MC_UNTRACKED]	= "untracked",
	[SW_MC_DROPPED]		= "dropped",
	[SW_MC_ANOMALY]		= "anomaly",
	[SW_MC_CPU]		= "cpu",
};

const char *sw_mirror_class_name(enum sw_mirror_class class)
{
	return class < SW_MC_NR ? sw_mirror_class_names[class] : "?";
}

/*
 * The one place a wheel is built: of @geo, at @geo->hz, its clock at the
 * mirror's jiffies in that HZ. The caller checked there is room.
 */
static void sw_mirror_build_wheel(struct sw_mirror *m, const struct sw_geometry *geo)
{
	struct sw_mirror_wheel *w = &m->wheels[m->nr_wheels++];
	unsigned int lvl, j;

	memset(w, 0, sizeof(*w));
	sw_hz_init(&w->hz, m->khz, geo->hz);
	sw_hz_rebase(&w->hz, m->now);
	w->clock_j = m->now;
	w->clock_v = sw_hz_clock(&w->hz, m->now);
	sw_base_init(&w->base, geo, w->clock_v);
	for (lvl = 0; lvl < SW_MAX_DEPTH; lvl++) {
		w->lat[lvl].min = LONG_MAX;
		w->lat[lvl].max = LONG_MIN;
	}
	/* Slot j holds ticks equal to j modulo its size: j + 1 is none */
	for (j = 0; j < SW_MIRROR_BUSY_RING; j++)
		w->busy[j] = j + 1;
	sw_sirq_set_wheels(&m->sirq, m->nr_wheels, m->kernel_wheel);
	m->sirq_clock_set = false;
}

/**
 * sw_mirror_init_wheels - set up a mirror with no records, with the
 *	default wheels or the kernel's wheel alone
 * @m:		the mirror
 * @khz:	the kernel's HZ (%SW_MIN_HZ to %SW_MAX_HZ; a kernel's is 100,
 *		250, 300 or 1000)
 * @now:	jiffies; the wheels' clocks start there
 * @slots:	one per CPU, for the cancel each CPU's next event decides
 * @nr_slots:	CPUs; events from others are classified without a slot
 * @defaults:	true: the default wheels, seed, mainline and classic at
 *		@khz and at 100, 250 and 1000 (9, or 12 at HZ 300), as
 *		sw_mirror_setup() sets up by default; false: only the kernel's wheel,
 *		mainline at @khz, which the differential and the softirq
 *		differential need, and room for %SW_MIRROR_MAX_WHEELS - 1
 *		more (a sweep of geometries)
 *
 * Either way the kernel's wheel comes first among its HZ's, and more
 * wheels may be added, sw_mirror_add_wheel(), before the first event.
 *
 * Return: 0, or -EINVAL for a HZ the core has no geometry for.
 */
int sw_mirror_init_wheels(struct sw_mirror *m, unsigned int khz, unsigned long now,
			  struct sw_mirror_rec **slots, unsigned int nr_slots, bool defaults)
{
	unsigned int hz[SW_MIRROR_NR_HZ], nr_hz = 0, i, kind;
	struct sw_geometry geo;

	if (sw_geometry_init(&geo, SW_WHEEL_MAINLINE, khz))
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	m->khz = khz;
	m->grace = SW_MIRROR_GRACE;
	m->now = now;
	m->caught_j = now;
	sw_mirror_set_hash(m, m->own_hash, SW_MIRROR_HASH_BITS);
	sw_mirror_set_budget(m, SW_MIRROR_BUDGET);
	sw_sirq_init(&m->sirq);
	hz[nr_hz++] = khz;
	for (i = 0; defaults && i < ARRAY_SIZE(sw_mirror_vhz); i++) {
		if (sw_mirror_vhz[i] != khz)
			hz[nr_hz++] = sw_mirror_vhz[i];
	}
	for (i = 0; i < nr_hz; i++) {
		for (kind = 0; kind < SW_WHEEL_NR_KINDS; kind++) {
			if (!defaults && kind != SW_WHEEL_MAINLINE)
				continue;
			if (hz[i] == khz && kind == SW_WHEEL_MAINLINE)
				m->kernel_wheel = m->nr_wheels;
			sw_geometry_init(&geo, kind, hz[i]);
			sw_mirror_build_wheel(m, &geo);
		}
	}
	INIT_LIST_HEAD(&m->detached);
	m->slots = slots;
	m->nr_slots = nr_slots;
	for (i = 0; i < nr_slots; i++)
		slots[i] = NULL;
	return 0;
}

/**
 * sw_mirror_setup - build a mirror, all of it, in one call
 * @m:		the mirror
 * @cfg:	what it is built of; see &struct sw_mirror_config
 *
 * The wheels (the defaults or the kernel's alone, then @cfg->geos), the
 * records and their table, the budgets, the CPUs' model, in the order
 * they depend on one another. The mirror is then ready for its first
 * event.
 *
 * Return: 0; -EINVAL for a HZ the core has no geometry for, or a geometry
 * sw_mirror_add_wheel() does not take; -ENOSPC for more wheels than
 * %SW_MIRROR_MAX_WHEELS.
 */
int sw_mirror_setup(struct sw_mirror *m, const struct sw_mirror_config *cfg)
{
	unsigned int i;
	int ret;

	ret = sw_mirror_init_wheels(m, cfg->khz, cfg->now, cfg->slots, cfg->nr_slots,
				    !cfg->kernel_wheel_only);
	for (i = 0; !ret && i < cfg->nr_geos; i++)
		ret = sw_mirror_add_wheel(m, &cfg->geos[i]);
	if (ret)
		return ret;
	if (cfg->hash)
		sw_mirror_set_hash(m, cfg->hash, cfg->hash_bits);
	sw_mirror_add_records(m, cfg->recs, cfg->nr_recs);
	if (cfg->budget)
		sw_mirror_set_budget(m, cfg->budget);
	if (cfg->cpus)
		sw_mirror_set_cpus(m, cfg->cpus, cfg->nr_cpus, cfg->bases);
	if (cfg->cpu_budget)
		sw_mirror_set_cpu_budget(m, cfg->cpu_budget);
	sw_mirror_set_exact_next(m, cfg->exact_next);
	sw_sirq_set_observed_ticks(&m->sirq, cfg->observed_ticks);
	return 0;
}

/**
 * sw_mirror_nr_default_wheels - how many default wheels sw_mirror_setup() sets up
 * @khz:	the kernel's HZ
 *
 * Return: 9, seed, mainline and classic at 100, 250 and 1000; 12 when
 * @khz is none of those. %SW_MIRROR_MAX_WHEELS less that is the room
 * left for sw_mirror_add_wheel().
 */
unsigned int sw_mirror_nr_default_wheels(unsigned int khz)
{
	unsigned int nr_hz = 1, i;

	for (i = 0; i < ARRAY_SIZE(sw_mirror_vhz); i++)
		nr_hz += sw_mirror_vhz[i] != khz;
	return nr_hz * SW_WHEEL_NR_KINDS;
}

/**
 * sw_mirror_add_wheel - one more wheel, of any geometry, at its HZ
 * @m:		the mirror, set up, before its first event
 * @geo:	the wheel, from sw_geometry_init() or sw_geometry_parse();
 *		it runs at @geo->hz (%SW_MIN_HZ to %SW_MAX_HZ), a virtual HZ
 *		on the kernel's jiffies (sw_hz.h)
 *
 * The wheel comes after the others: its figures and its part of every
 * outcome are at index sw_mirror_nr_wheels() - 1, under the name
 * sw_mirror_wheel_name() gives it. The CPUs' model (sw_mirror_set_cpus())
 * covers it too. A wheel equal to another runs the same. Nothing changes
 * on error.
 *
 * Return: 0; -ENOSPC when the mirror runs %SW_MIRROR_MAX_WHEELS already;
 * -EBUSY once it handled an event or advanced; -EINVAL for a geometry
 * that is not one sw_geometry_parse() makes (a tick rate out of range, a
 * shape beyond the core's limits, a struct not filled in by the core).
 */
int sw_mirror_add_wheel(struct sw_mirror *m, const struct sw_geometry *geo)
{
	struct sw_geometry again;
	char spec[SW_SPEC_MAX];

	if (m->started)
		return -EBUSY;
	if (m->nr_wheels >= SW_MIRROR_MAX_WHEELS)
		return -ENOSPC;
	/* Only what the parser makes: its canonical spec makes it again */
	if (!geo || geo->hz < SW_MIN_HZ || geo->hz > SW_MAX_HZ ||
	    sw_geometry_format(geo, spec, sizeof(spec)) >= (int)sizeof(spec) ||
	    sw_geometry_parse(&again, spec, geo->hz, NULL, 0) ||
	    memcmp(&again, geo, sizeof(again)))
		return -EINVAL;
	sw_mirror_build_wheel(m, geo);
	return 0;
}

/**
 * sw_mirror_wheel_name - the name a wheel goes by in every report
 * @geo:	its geometry, at its own HZ
 * @buf:	gets the name (%SW_SPEC_MAX holds any)
 * @size:	room at @buf
 *
 * A named wheel at a HZ is "kind.hz" ("mainline.250"), as the default
 * wheels always were; any other its canonical spec, sw_geometry_format()
 * ("bits=6,shift=2,depth=9,hz=300,clamp"), which sw_geometry_parse()
 * takes back.
 *
 * Return: the length of the name, as snprintf() returns it.
 */
int sw_mirror_wheel_name(const struct sw_geometry *geo, char *buf, size_t size)
{
	if (sw_geometry_named(geo))
		return snprintf(buf, size, "%s.%u", sw_wheel_kind_name(geo->kind), geo->hz);
	return sw_geometry_format(geo, buf, size);
}

/**
 * sw_mirror_set_budget - how much work each wheel may do per event to catch up
 * @m:		the mirror
 * @budget:	ticks, timers run or cascaded (%SW_MIRROR_BUDGET by default);
 *		UINT_MAX never leaves a wheel behind
 */
void sw_mirror_set_budget(struct sw_mirror *m, unsigned int budget)
{
	m->budget = budget;
}

/**
 * sw_mirror_set_cpus - model the CPUs' timer bases and softirqs
 * @m:		the mirror, before its first event
 * @cpus:	one per CPU; the caller keeps them until it stops the mirror
 * @nr_cpus:	CPUs; timers on others' bases and their events are left out
 * @bases:	the kernel's bases per CPU: 6.1's or 6.12's
 */
void sw_mirror_set_cpus(struct sw_mirror *m, struct sw_sirq_cpu *cpus, unsigned int nr_cpus,
			enum sw_sirq_bases bases)
{
	sw_sirq_set_cpus(&m->sirq, cpus, nr_cpus, bases);
}

/**
 * sw_mirror_set_exact_next - turn the stale-next_expiry rule off, or on
 * @m:		the mirror
 * @exact:	see sw_sirq_set_exact_next()
 */
void sw_mirror_set_exact_next(struct sw_mirror *m, bool exact)
{
	sw_sirq_set_exact_next(&m->sirq, exact);
}

/**
 * sw_mirror_set_cpu_budget - how much work the CPUs' model may do per event
 * @m:		the mirror
 * @budget:	see sw_sirq_set_budget()
 */
void sw_mirror_set_cpu_budget(struct sw_mirror *m, unsigned long budget)
{
	sw_sirq_set_budget(&m->sirq, budget);
}

/**
 * sw_mirror_nr_wheels - the wheels a mirror runs, and an outcome reports
 * @m:		the mirror
 *
 * Return: by default 9, or 12 when the kernel's HZ is 300; 1 without the
 * defaults; and as many more as were added.
 */
unsigned int sw_mirror_nr_wheels(const struct sw_mirror *m)
{
	return m->nr_wheels;
}

/**
 * sw_mirror_add_records - give the mirror records to use
 * @m:		the mirror
 * @recs:	an array of them; the caller keeps it until it stops the mirror
 * @n:		how many
 */
void sw_mirror_add_records(struct sw_mirror *m, struct sw_mirror_rec *recs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		recs[i].state = SW_REC_FREE;
		hlist_add_head(&recs[i].hash, &m->free);
	}
}

/**
 * sw_mirror_hash_bits - the size of a table for so many records
 * @nr_records:	the records the caller gives the mirror
 *
 * Return: the bits of a table of at least as many lists as records, and
 * never fewer than the mirror's own table has (%SW_MIRROR_HASH_BITS).
 */
unsigned int sw_mirror_hash_bits(unsigned long nr_records)
{
	unsigned int bits = SW_MIRROR_HASH_BITS;

	while (bits < 30 && (1UL << bits) < nr_records)
		bits++;
	return bits;
}

/**
 * sw_mirror_set_hash - a table of records in use sized to the records
 * @m:		the mirror, before its first event
 * @table:	2^@bits lists; the caller keeps it until it stops the mirror
 * @bits:	sw_mirror_hash_bits() of the records given it, or more
 *
 * The mirror's own table has 2^%SW_MIRROR_HASH_BITS lists: with many more
 * records in use than that, every event's lookup walks a long list of
 * them. A table with a list per record keeps that to a few, as
 * alloc_large_system_hash() sizes the kernel's tables to memory.
 */
void sw_mirror_set_hash(struct sw_mirror *m, struct hlist_head *table, unsigned int bits)
{
	unsigned long i;

	for (i = 0; i < 1UL << bits; i++)
		INIT_HLIST_HEAD(&table[i]);
	m->hash = table;
	m->hash_bits = bits;
}

static struct hlist_head *sw_mirror_bucket(struct sw_mirror *m, const void *timer)
{
	return &m->hash[hash_ptr(timer, m->hash_bits)];
}

/*
 * The record of @timer's latest lifetime (a new record goes to the head
 * of its bucket), or with @detached, preferably of one whose cancel is
 * undecided: the one an expire_entry may end
 */
static struct sw_mirror_rec *sw_mirror_lookup(struct sw_mirror *m, const void *timer,
					      bool detached)
{
	struct sw_mirror_rec *r, *found = NULL;

	hlist_for_each_entry(r, sw_mirror_bucket(m, timer), hash) {
		if (r->timer != timer)
			continue;
		if (!detached || r->state != SW_REC_PENDING)
			return r;
		if (!found)
			found = r;
	}
	return found;
}

/* The records of @timer in the table: its lifetimes the mirror follows */
static unsigned int sw_mirror_lives(struct sw_mirror *m, const void *timer)
{
	struct sw_mirror_rec *r;
	unsigned int n = 0;

	hlist_for_each_entry(r, sw_mirror_bucket(m, timer), hash)
		n += r->timer == timer;
	return n;
}

/* A comparison of @r's timer into the differential, with what a mismatch keeps */
static void sw_mirror_diff_record(struct sw_mirror *m, struct sw_mirror_rec *r,
				  const struct sw_mirror_event *ev, struct sw_diff_entry *e)
{
	e->timer = r->timer;
	e->now = m->now;
	e->mclk = m->wheels[m->kernel_wheel].base.clk;
	e->midx = r->ent[m->kernel_wheel].idx;
	e->armed_at = r->armed_at;
	e->cpu = ev->cpu;
	e->kcpu = sw_ktimer_cpu(r->tflags);
	if (e->reason != SW_DIFF_MATCH)
		e->lives = sw_mirror_lives(m, r->timer);
	sw_diff_record(&m->diff, e);
}

/* A free record for @timer, its wheel timers fresh, or NULL */
static struct sw_mirror_rec *sw_mirror_alloc(struct sw_mirror *m, const void *timer, u32 tflags)
{
	unsigned int flags = tflags & SW_KTIMER_DEFERRABLE ? SW_TIMER_DEFERRABLE : 0;
	struct sw_mirror_rec *r;
	unsigned int w;

	if (hlist_empty(&m->free))
		return NULL;
	r = hlist_entry(m->free.first, struct sw_mirror_rec, hash);
	hlist_del_init(&r->hash);
	memset(r, 0, sizeof(*r));
	INIT_LIST_HEAD(&r->detached);
	sw_sirq_timer_init(&r->sirq, r->ent);
	r->timer = timer;
	r->tflags = tflags;
	r->state = SW_REC_PENDING;
	for (w = 0; w < m->nr_wheels; w++)
		sw_timer_init(&r->ent[w], flags);
	hlist_add_head(&r->hash, sw_mirror_bucket(m, timer));
	return r;
}

/* Take a record's timers out of the wheels (or forget that a wheel ran them) */
static void sw_mirror_unplace(struct sw_mirror *m, struct sw_mirror_rec *r)
{
	unsigned int w;

	for (w = 0; w < m->nr_wheels; w++) {
		if (!sw_cancel(&m->wheels[w].base, &r->ent[w]))
			m->wheels[w].ran_pending--;
	}
}

/* No longer waiting for the event that decides its cancel */
static void sw_mirror_undetach(struct sw_mirror *m, struct sw_mirror_rec *r)
{
	list_del_init(&r->detached);
	if (r->cancel_cpu < m->nr_slots && m->slots[r->cancel_cpu] == r)
		m->slots[r->cancel_cpu] = NULL;
	r->state = SW_REC_PENDING;
}

/* The end of a lifetime: the record out of the wheels and the table, free again */
static void sw_mirror_release(struct sw_mirror *m, struct sw_mirror_rec *r)
{
	sw_mirror_undetach(m, r);
	sw_mirror_unplace(m, r);
	sw_sirq_release(&m->sirq, &r->sirq);
	hlist_del_init(&r->hash);
	r->state = SW_REC_FREE;
	hlist_add_head(&r->hash, &m->free);
	m->counts.pending--;
}

/* The cancel was final */
static void sw_mirror_cancelled(struct sw_mirror *m, struct sw_mirror_rec *r)
{
	if (r->due)
		m->counts.cancelled_due++;
	m->counts.cancelled++;
	sw_mirror_release(m, r);
}

/**
 * sw_mirror_lat_bin - the histogram bin of a lateness
 * @lateness:	in ticks
 *
 * Return: 0 for early, 1 for on time, b for 2^(b-2) .. 2^(b-1) - 1 ticks.
 */
unsigned int sw_mirror_lat_bin(long lateness)
{
	if (lateness <= 0)
		return !lateness;
	return min_t(unsigned int, fls_long(lateness) + 1, SW_MIRROR_LAT_BINS - 1);
}

/**
 * sw_mirror_lat_bin_top - the largest lateness a histogram bin holds
 * @bin:	0 .. %SW_MIRROR_LAT_BINS - 1
 *
 * Return: -1 for early, 0 for on time, 2^(bin-1) - 1 ticks, LONG_MAX for
 * the last bin, which takes the rest.
 */
long sw_mirror_lat_bin_top(unsigned int bin)
{
	if (bin >= SW_MIRROR_LAT_BINS - 1)
		return LONG_MAX;
	return bin ? (1L << (bin - 1)) - 1 : -1;
}

/*
 * The wheel @wh runs a timer at its tick @tick: count the tick busy, once.
 * The ring holds the ticks counted last by their value modulo its size;
 * sw_mirror_build_wheel() fills it with values no tick of their slot has.
 */
static void sw_mirror_busy(struct sw_mirror_wheel *wh, unsigned long tick)
{
	unsigned long *slot = &wh->busy[tick % SW_MIRROR_BUSY_RING];

	if (*slot == tick)
		return;
	*slot = tick;
	wh->counts.due_ticks++;
}

static void sw_mirror_lat_add(struct sw_mirror_lateness *lat, long lateness)
{
	lat->count++;
	lat->min = min(lat->min, lateness);
	lat->max = max(lat->max, lateness);
	lat->hist[sw_mirror_lat_bin(lateness)]++;
}

/*
 * An expiry of the timer @r mirrors, whose expiry was @expires: each
 * wheel's lateness, its tick minus @expires in its HZ, into its
 * histograms and @out
 */
static void sw_mirror_measure_lateness(struct sw_mirror *m, struct sw_mirror_rec *r,
				       unsigned long expires, struct sw_mirror_outcome *out)
{
	long timeout = max(0L, (long)(expires - r->armed_at));
	unsigned int w;

	for (w = 0; w < m->nr_wheels; w++) {
		struct sw_mirror_wheel *wh = &m->wheels[w];
		unsigned long v = sw_hz_expiry_at(&wh->hz, expires, m->now);
		long lateness = (long)(r->ent[w].bucket_expiry - v);

		sw_mirror_lat_add(&wh->lat[r->lvl[w]], lateness);
		/* Later than a tenth of its timeout: lateness / vhz > timeout / khz / 10 */
		if (lateness > 0 && (u64)lateness * 10 * m->khz > (u64)timeout * wh->hz.vhz)
			wh->counts.late_10pct++;
		/* Its clock ran it already, and counted the tick, or the kernel came first */
		if (sw_timer_pending(&r->ent[w]))
			sw_mirror_busy(wh, r->ent[w].bucket_expiry);
		if (out)
			out->wheel[w].lateness = lateness;
	}
	if (out)
		out->expired = true;
}

/* The differential of @ev, the expiry of @r: the kernel wheel's tick against baseclk */
static void sw_mirror_diff_expiry(struct sw_mirror *m, struct sw_mirror_rec *r,
				  const struct sw_mirror_event *ev, struct sw_mirror_outcome *out)
{
	unsigned long mtick = r->ent[m->kernel_wheel].bucket_expiry;
	struct sw_diff_entry e = {
		.what = SW_DIFF_EXPIRY,
		.reason = sw_diff_expiry(mtick, ev->baseclk, r->reason),
		.expires = r->expires,
		.kidx = UINT_MAX,
		.ktick = ev->baseclk,
		.mtick = mtick,
	};

	sw_mirror_diff_record(m, r, ev, &e);
	if (out)
		out->diff[SW_DIFF_EXPIRY] = (struct sw_mirror_verdict){ true, e.reason };
}

/* What the kernel said of a start's placement: the one place it is read from an event */
static void sw_mirror_kernel_view(const struct sw_mirror_event *ev, struct sw_diff_kernel *k)
{
	k->idx = sw_ktimer_idx(ev->tflags);
	k->has_idx = ev->have & SW_EVF_IDX;
	k->bucket_expiry = ev->bucket_expiry;
	k->has_bucket = ev->have & SW_EVF_BUCKET;
}

/* Wheel @wh placed a timer as @ent, at level @lvl, for its expiry @v */
static void sw_mirror_placed(struct sw_mirror_wheel_outcome *o, const struct sw_mirror_wheel *wh,
			     const struct sw_timer *ent, unsigned int lvl, unsigned long v)
{
	long overdue = (long)(wh->base.clk - v);

	o->clk = wh->base.clk;
	o->expires = v;
	o->tick = ent->bucket_expiry;
	o->overdue = overdue > 0 ? overdue : 0;
	o->gran = sw_lvl_expiry_gran(&wh->base.geo, lvl);
	o->idx = ent->idx;
	o->lvl = lvl;
	o->how = ent->flags & SW_TIMER_PLACEMENT;
}

/*
 * Place (or move) @r's timer in every wheel for @ev's expiry, and compare
 * the kernel wheel's placement with the kernel's
 */
static void sw_mirror_place(struct sw_mirror *m, struct sw_mirror_rec *r,
			    const struct sw_mirror_event *ev, bool fresh,
			    struct sw_mirror_outcome *out)
{
	struct sw_mirror_wheel *kw = &m->wheels[m->kernel_wheel];
	struct sw_timer *kent = &r->ent[m->kernel_wheel];
	struct sw_diff_kernel k;
	bool has_ktick;
	unsigned int w;

	sw_mirror_kernel_view(ev, &k);
	r->expires = ev->expires;
	r->armed_at = ev->now;
	r->tflags = ev->tflags;
	for (w = 0; w < m->nr_wheels; w++) {
		struct sw_mirror_wheel *wh = &m->wheels[w];
		unsigned long v = sw_hz_expiry_at(&wh->hz, ev->expires, m->now);

		if (!fresh && !sw_timer_pending(&r->ent[w]))
			wh->ran_pending--;
		/*
		 * The kernel's cancel and start took the timer out and placed
		 * it again from its base's clock, and so does every wheel:
		 * sw_modify() alone leaves a timer whose expiry did not change
		 * where an older clock placed it (timers_dead_cpu() moves the
		 * timers of a CPU gone offline with their expiries)
		 */
		sw_cancel(&wh->base, &r->ent[w]);
		sw_modify(&wh->base, &r->ent[w], v);
		r->lvl[w] = sw_timer_level(&wh->base, &r->ent[w]);
		if (r->ent[w].flags & SW_TIMER_CLAMPED)
			wh->counts.clamped++;
		if (r->ent[w].flags & SW_TIMER_PARKED)
			wh->counts.parked++;
		if (out)
			sw_mirror_placed(&out->wheel[w], wh, &r->ent[w], r->lvl[w], v);
	}

	r->reason = SW_DIFF_MATCH;
	if (k.has_idx || k.has_bucket) {
		struct sw_diff_entry e = {
			.what = SW_DIFF_PLACEMENT,
			.expires = ev->expires,
			.kidx = k.has_idx ? k.idx : UINT_MAX,
			.ktick = k.has_bucket ? k.bucket_expiry : 0,
			.mtick = kent->bucket_expiry,
		};
		struct sw_place held = { .idx = kent->idx, .bucket_expiry = kent->bucket_expiry };

		e.reason = sw_diff_placement(&kw->base.geo, ev->expires,
					     kent->flags & SW_TIMER_DEFERRABLE, m->now,
					     kw->base.clk, &k);
		/* A match is of the bucket the wheel holds it in, not only of its clock's */
		if (e.reason == SW_DIFF_MATCH && !sw_diff_same(&held, &k))
			e.reason = SW_DIFF_UNEXPLAINED;
		sw_mirror_diff_record(m, r, ev, &e);
		r->reason = e.reason;
		if (out)
			out->diff[SW_DIFF_PLACEMENT] = (struct sw_mirror_verdict){ true, e.reason };
	}
	has_ktick = sw_diff_kernel_tick(&kw->base.geo, &k, ev->expires, m->now, &r->ktick);
	if (!has_ktick)
		r->ktick = kent->bucket_expiry;
	sw_sirq_enqueue(&m->sirq, &r->sirq, r->tflags, r->ktick);
	if (out) {
		out->placed = true;
		out->kernel = k;
		out->has_ktick = has_ktick;
		out->ktick = r->ktick;
	}
}

/*
 * A new lifetime for @ev's timer: in @r, whose timers are out of every
 * wheel, if it has a record, else in a free one
 */
static enum sw_mirror_class sw_mirror_arm(struct sw_mirror *m, struct sw_mirror_rec *r,
					  const struct sw_mirror_event *ev,
					  struct sw_mirror_outcome *out)
{
	m->counts.seen++;
	if (!r)
		r = sw_mirror_alloc(m, ev->timer, ev->tflags);
	if (!r) {
		m->counts.dropped++;
		return SW_MC_DROPPED;
	}
	m->counts.pending++;
	sw_mirror_place(m, r, ev, true, out);
	return SW_MC_ARM;
}

/*
 * The expiry of @r's timer: lateness, the differential if @baseclk is
 * known, free. It ran remotely if its expire_entry ran on another CPU
 * than the timer's base.
 */
static void sw_mirror_expired(struct sw_mirror *m, struct sw_mirror_rec *r,
			      const struct sw_mirror_event *ev, struct sw_mirror_outcome *out)
{
	/*
	 * A mod_timer() that keeps the kernel's bucket emits no event but may
	 * change the expiry: the wheels were told the old one, and their
	 * lateness is against what they were told
	 */
	if ((ev->have & SW_EVF_EXPIRES) && ev->expires != r->expires)
		m->counts.silently_modified++;
	sw_mirror_measure_lateness(m, r, r->expires, out);
	sw_mirror_diff_expiry(m, r, ev, out);
	if (sw_ktimer_cpu(r->tflags) != ev->cpu)
		m->counts.expired_remote++;
	m->counts.expired++;
	sw_sirq_expired(&m->sirq, &r->sirq);
	sw_mirror_release(m, r);
}

/*
 * A start of a timer whose due cancel @r is undecided: an expiry whose
 * callback has not run yet, or a del_timer(). @r waits on for what
 * decides it; the new lifetime takes a record of its own, or @r's if
 * none is free (the cancel is then taken as a cancel).
 */
static enum sw_mirror_class sw_mirror_restart(struct sw_mirror *m, struct sw_mirror_rec *r,
					      const struct sw_mirror_event *ev,
					      struct sw_mirror_outcome *out)
{
	if (hlist_empty(&m->free))
		sw_mirror_cancelled(m, r);
	return sw_mirror_arm(m, NULL, ev, out);
}

/* The cancel held for @r was not followed by its requeue or expiry */
static void sw_mirror_settle_held(struct sw_mirror *m, struct sw_mirror_rec *r)
{
	if (r->cancel_cpu < m->nr_slots && m->slots[r->cancel_cpu] == r)
		m->slots[r->cancel_cpu] = NULL;
	if (r->state != SW_REC_DETACHED)
		return;
	if (r->due)
		r->state = SW_REC_DUE_DETACHED;
	else
		sw_mirror_cancelled(m, r);
}

/* Cancels that waited @grace jiffies for an explanation were cancels: final now */
static void sw_mirror_settle_cancels(struct sw_mirror *m)
{
	unsigned int n = 0;

	while (!list_empty(&m->detached) && n++ < m->budget) {
		struct sw_mirror_rec *r = list_first_entry(&m->detached, struct sw_mirror_rec,
							   detached);

		if ((long)(m->now - r->detach_at) < (long)m->grace)
			break;
		sw_mirror_cancelled(m, r);
	}
}

/* Run wheel @wh's ticks before @clk, within the budget */
static bool sw_mirror_catch_up_wheel(struct sw_mirror *m, struct sw_mirror_wheel *wh,
				     unsigned long clk)
{
	unsigned int work = 0;
	struct sw_tick tick;

	while (sw_time_before(wh->base.clk, clk)) {
		struct sw_timer *timer;

		if (work >= m->budget)
			return false;
		sw_collect_tick(&wh->base, clk - 1, &tick);
		work++;
		wh->counts.cascaded += tick.cascaded;
		work += tick.cascaded;
		while ((timer = sw_tick_pop(&tick))) {
			/* Marked run only: it stays the record's until the kernel's event */
			wh->counts.ran_ahead++;
			wh->ran_pending++;
			work++;
			sw_mirror_busy(wh, tick.clk);
		}
	}
	return true;
}

/*
 * Bring every wheel's clock to jiffies @j in its HZ (@through: past the
 * tick @j too); false if a wheel ran out of budget
 */
static bool sw_mirror_catch_up(struct sw_mirror *m, unsigned long j, bool through)
{
	bool caught_up = true;
	unsigned int w;

	/*
	 * Every wheel caught up to this jiffy already, as most events of a
	 * jiffy find them: a wheel's clock never goes back, so there is no
	 * tick to run (the clocks' rebase changes no tick, and waits)
	 */
	if (!through && j == m->caught_j)
		return true;
	for (w = 0; w < m->nr_wheels; w++) {
		struct sw_mirror_wheel *wh = &m->wheels[w];

		sw_hz_rebase(&wh->hz, m->now);
		if (!sw_mirror_catch_up_wheel(m, wh, sw_mirror_clock(wh, j) + through)) {
			wh->counts.behind++;
			caught_up = false;
		}
	}
	if (!through && caught_up)
		m->caught_j = j;
	return caught_up;
}

static void sw_mirror_set_now(struct sw_mirror *m, unsigned long now)
{
	if (sw_time_after(now, m->now))
		m->now = now;
}

/* A timer_start: a new lifetime, a requeue, or a restart of a timer due */
static enum sw_mirror_class sw_mirror_handle_start(struct sw_mirror *m, struct sw_mirror_rec *r,
						   const struct sw_mirror_event *ev, bool adjacent,
						   struct sw_mirror_outcome *out)
{
	u32 old = r ? r->tflags : 0;

	if (!r)
		return sw_mirror_arm(m, r, ev, out);
	if (r->state == SW_REC_DETACHED && adjacent) {
		sw_mirror_undetach(m, r);
		sw_mirror_place(m, r, ev, false, out);
		return sw_ktimer_cpu(old) == sw_ktimer_cpu(ev->tflags) ? SW_MC_REARM :
									SW_MC_MIGRATE;
	}
	/* Its cancel came from another CPU, whose next event has not come */
	if (r->state == SW_REC_DETACHED && !r->due) {
		sw_mirror_cancelled(m, r);
		return sw_mirror_arm(m, NULL, ev, out);
	}
	if (r->state != SW_REC_PENDING)
		return sw_mirror_restart(m, r, ev, out);
	/* Pending: the kernel never starts a pending timer without a cancel */
	sw_mirror_place(m, r, ev, false, out);
	return SW_MC_ANOMALY;
}

/* A timer_cancel: held, for the CPU's next event to decide */
static enum sw_mirror_class sw_mirror_handle_cancel(struct sw_mirror *m, struct sw_mirror_rec *r,
						    const struct sw_mirror_event *ev)
{
	if (!r)
		return SW_MC_UNTRACKED;
	if (r->state != SW_REC_PENDING)
		return SW_MC_ANOMALY;
	r->state = SW_REC_DETACHED;
	r->detach_at = m->now;
	r->cancel_cpu = ev->cpu;
	/* An expiry detaches a timer whose bucket's tick has come */
	r->due = !sw_time_before(ev->now, r->ktick);
	list_add_tail(&r->detached, &m->detached);
	if (ev->cpu < m->nr_slots)
		m->slots[ev->cpu] = r;
	sw_sirq_delete(&m->sirq, &r->sirq);
	return SW_MC_CANCEL;
}

/* A timer_expire_entry: an expiry, of a timer started again since or not */
static enum sw_mirror_class sw_mirror_handle_expire(struct sw_mirror *m, struct sw_mirror_rec *r,
						    const struct sw_mirror_event *ev,
						    struct sw_mirror_outcome *out)
{
	bool rearmed;

	sw_sirq_expiry(&m->sirq, ev->cpu, ev->baseclk, r ? &r->sirq : NULL);
	if (!r)
		return SW_MC_UNTRACKED;
	if (r->state != SW_REC_PENDING) {
		/* A later lifetime's record comes first in the table */
		rearmed = sw_mirror_lookup(m, r->timer, false) != r;
		sw_mirror_expired(m, r, ev, out);
		return rearmed ? SW_MC_EXPIRE_REARMED : SW_MC_EXPIRE;
	}
	/* No cancel before it: an event was lost */
	sw_mirror_expired(m, r, ev, out);
	return SW_MC_ANOMALY;
}

/*
 * Each wheel's tick at jiffy @j, for the CPUs' model: the events of a
 * jiffy come together, and the last jiffy's are kept
 */
static const unsigned long *sw_mirror_sirq_clock(struct sw_mirror *m, unsigned long j)
{
	unsigned int w;

	if (!m->sirq_clock_set || j != m->sirq_clock_j) {
		for (w = 0; w < m->nr_wheels; w++)
			m->sirq_clock[w] = sw_mirror_clock(&m->wheels[w], j);
		m->sirq_clock_j = j;
		m->sirq_clock_set = true;
	}
	return m->sirq_clock;
}

/*
 * The ticks taken before @ev by the CPUs whose bases it touches, if the
 * mirror models the CPUs: its own CPU's, that of @r's timer (NULL: none),
 * and a start's new one
 */
static void sw_mirror_sirq_catch_up(struct sw_mirror *m, const struct sw_mirror_event *ev,
				    const struct sw_mirror_rec *r)
{
	const unsigned long *clock;

	if (!sw_sirq_modelled(&m->sirq))
		return;
	clock = sw_mirror_sirq_clock(m, ev->now);
	sw_sirq_catch_up(&m->sirq, ev->cpu, ev->now, clock, true);
	if (r)
		sw_sirq_catch_up(&m->sirq, sw_ktimer_cpu(r->tflags), ev->now, clock, false);
	if (ev->type == SW_EV_START)
		sw_sirq_catch_up(&m->sirq, sw_ktimer_cpu(ev->tflags), ev->now, clock, false);
}

/* An event of the CPU itself, for the CPUs' model: its ticks first */
static void sw_mirror_cpu_event(struct sw_mirror *m, const struct sw_mirror_event *ev)
{
	struct sw_sirq *s = &m->sirq;

	sw_mirror_sirq_catch_up(m, ev, NULL);
	switch (ev->type) {
	case SW_EV_SOFTIRQ_ENTRY:
		/* A trace's run: known only to lie between the events around it */
		sw_sirq_softirq_entry(s, ev->cpu,
				      ev->have & SW_EVF_EARLIEST ? ev->expires : ev->now, ev->now);
		break;
	case SW_EV_SOFTIRQ_EXIT:
		sw_sirq_softirq_exit(s, ev->cpu);
		break;
	case SW_EV_IDLE_ENTER:
		sw_sirq_idle_enter(s, ev->cpu, ev->now);
		break;
	case SW_EV_TICK:
		sw_sirq_tick(s, ev->cpu, ev->now);
		break;
	default:
		sw_sirq_idle_exit(s, ev->cpu);
		break;
	}
}

/**
 * sw_mirror_handle_event - replay one event of the kernel's timers
 * @m:		the mirror
 * @ev:		the event
 * @out:	NULL, or filled in with all the event did to its own timer:
 *		its class, each wheel's placement, the lateness of an expiry
 *		it counted, the differential's verdicts
 *
 * The caller serialises the events of all CPUs; they need not come in
 * jiffies order (6.1's timer_expire_entry runs without the base's lock).
 * The events of a CPU itself (sw_ev_of_cpu(): SW_EV_SOFTIRQ_*,
 * SW_EV_IDLE_*) have no timer: they are SW_MC_CPU, and change only the CPUs' model
 * (sw_sirq.c), if there is one (sw_mirror_set_cpus()); like any event
 * of the CPU, they settle a cancel it held.
 *
 * Return: what the event was, see the table at the top of this file.
 */
enum sw_mirror_class sw_mirror_handle_event(struct sw_mirror *m, const struct sw_mirror_event *ev,
					    struct sw_mirror_outcome *out)
{
	struct sw_mirror_rec *r, *held = NULL;
	enum sw_mirror_class class;
	bool adjacent = false;

	if (out) {
		out->placed = false;
		out->expired = false;
		out->has_ktick = false;
		out->diff[SW_DIFF_PLACEMENT].compared = false;
		out->diff[SW_DIFF_EXPIRY].compared = false;
	}
	m->started = true;
	sw_mirror_set_now(m, ev->now);
	sw_mirror_settle_cancels(m);
	sw_sirq_begin_event(&m->sirq);

	/* The CPU's previous event was a cancel: this one may explain it */
	if (ev->cpu < m->nr_slots) {
		held = m->slots[ev->cpu];
		m->slots[ev->cpu] = NULL;
	}
	if (sw_ev_of_cpu(ev->type)) {
		if (held)
			sw_mirror_settle_held(m, held);
		sw_mirror_catch_up(m, ev->now, false);
		sw_mirror_cpu_event(m, ev);
		class = SW_MC_CPU;
		goto done;
	}
	/* A start explains only the cancel of the timer's latest lifetime */
	if (held && ev->type != SW_EV_CANCEL && held->timer == ev->timer &&
	    (ev->type == SW_EV_EXPIRE || held == sw_mirror_lookup(m, ev->timer, false)))
		adjacent = true;
	else if (held)
		sw_mirror_settle_held(m, held);
	r = adjacent ? held : sw_mirror_lookup(m, ev->timer, ev->type == SW_EV_EXPIRE);

	sw_mirror_catch_up(m, ev->now, false);
	sw_mirror_sirq_catch_up(m, ev, r);
	/*
	 * The real base has run the tick of an expiry, and most likely of a
	 * due cancel (which an expiry is): timers it places from now on are
	 * placed from the next tick, even before the expire_entry comes
	 */
	if (ev->type == SW_EV_EXPIRE)
		sw_mirror_catch_up(m, ev->baseclk, true);
	else if (ev->type == SW_EV_CANCEL && r && r->state == SW_REC_PENDING &&
		 !sw_time_before(ev->now, r->ktick))
		sw_mirror_catch_up(m, r->ktick, true);

	switch (ev->type) {
	case SW_EV_START:
		class = sw_mirror_handle_start(m, r, ev, adjacent, out);
		break;
	case SW_EV_CANCEL:
		class = sw_mirror_handle_cancel(m, r, ev);
		break;
	default:
		class = sw_mirror_handle_expire(m, r, ev, out);
		break;
	}
done:
	m->counts.events[class]++;
	if (out)
		out->class = class;
	return class;
}

/**
 * sw_mirror_advance - catch up without an event
 * @m:		the mirror
 * @now:	jiffies
 *
 * Settles cancels past their grace and brings the wheels' clocks to
 * @now, within the budget.
 *
 * Return: true if every wheel caught up.
 */
bool sw_mirror_advance(struct sw_mirror *m, unsigned long now)
{
	bool caught_up;

	m->started = true;
	sw_mirror_set_now(m, now);
	sw_mirror_settle_cancels(m);
	caught_up = sw_mirror_catch_up(m, m->now, false);
	sw_sirq_begin_event(&m->sirq);
	if (sw_sirq_modelled(&m->sirq))
		sw_sirq_catch_up_all(&m->sirq, m->now, sw_mirror_sirq_clock(m, m->now));
	return caught_up;
}

/**
 * sw_mirror_read_figures - what the mirror shows, copied out
 * @m:		the mirror
 * @fig:	gets the figures the mirror counts (the report derives the
 *		rest, sw_mirror_report_derive())
 */
void sw_mirror_read_figures(const struct sw_mirror *m, struct sw_mirror_figures *fig)
{
	struct sw_sirq_figures sf;
	unsigned int w, lvl;

	memset(fig, 0, sizeof(*fig));
	fig->hz = m->khz;
	fig->wheels = m->nr_wheels;
	fig->consistent = sw_mirror_consistent(m);
	fig->counts = m->counts;
	fig->diff = m->diff;
	sw_sirq_read(&m->sirq, &sf);
	fig->cpu_events = sf.cpu_events;
	fig->idle_events = sf.idle_events;
	fig->tick_events = sf.ticks;
	fig->cpus_modelled = sf.cpus_modelled;
	fig->softirq_recorded = sf.recorded;
	fig->softirq_recorded_spurious = sf.recorded_spurious;
	fig->softirq_spurious_paired = sf.spurious_paired;
	fig->softirq_predicted = sf.predicted;
	fig->softirq_model_resets = sf.resets;
	memcpy(fig->softirq, sf.verdict, sizeof(fig->softirq));
	for (w = 0; w < m->nr_wheels; w++) {
		const struct sw_mirror_wheel *wh = &m->wheels[w];
		struct sw_mirror_wheel_figures *wf = &fig->wheel[w];

		sw_mirror_wheel_name(&wh->base.geo, wf->name, sizeof(wf->name));
		wf->kind = wh->base.geo.kind;
		wf->vhz = wh->hz.vhz;
		wf->depth = wh->base.geo.depth;
		for (lvl = 0; lvl < wf->depth; lvl++)
			wf->gran[lvl] = sw_lvl_expiry_gran(&wh->base.geo, lvl);
		memcpy(wf->lat, wh->lat, sizeof(wf->lat));
		wf->counts = wh->counts;
		wf->softirqs = sf.softirqs[w];
		wf->spurious_softirqs = sf.spurious[w];
		wf->idle_wakeups = sf.wakeups[w];
	}
}

/**
 * sw_mirror_consistent - check the mirror's invariants
 * @m:		the mirror
 *
 * seen = cancelled + expired + pending + dropped; pending is the number
 * of records in use; each wheel holds the timer of every record in use
 * but those its clock ran; the cancels held are records detached; the
 * CPUs' model lists records in use only, each under the CPU that counts
 * it (sw_sirq_consistent()).
 * Walks every record in use: for a read, not for every event.
 *
 * Return: true if they hold.
 */
bool sw_mirror_consistent(const struct sw_mirror *m)
{
	const struct sw_mirror_rec *r;
	const struct sw_mirror_counts *n = &m->counts;
	unsigned long in_use = 0, detached = 0, listed = 0;
	unsigned int i;

	if (n->seen != n->cancelled + n->expired + n->pending + n->dropped)
		return false;
	for (i = 0; i < 1UL << m->hash_bits; i++) {
		hlist_for_each_entry(r, &m->hash[i], hash) {
			in_use++;
			if (r->state == SW_REC_FREE)
				return false;
			detached += r->state != SW_REC_PENDING;
			listed += sw_sirq_listed(&r->sirq);
		}
	}
	if (in_use != m->counts.pending)
		return false;
	list_for_each_entry(r, &m->detached, detached) {
		if (r->state == SW_REC_PENDING || r->state == SW_REC_FREE)
			return false;
		detached--;
	}
	if (detached)
		return false;
	for (i = 0; i < m->nr_slots; i++) {
		if (m->slots[i] && m->slots[i]->state != SW_REC_DETACHED)
			return false;
	}
	for (i = 0; i < m->nr_wheels; i++) {
		if (m->wheels[i].base.nr_pending + m->wheels[i].ran_pending != m->counts.pending)
			return false;
	}
	return sw_sirq_consistent(&m->sirq, listed);
}

/**
 * sw_mirror_read_cpu - one CPU's softirq differential, copied out
 * @m:		the mirror
 * @cpu:	the CPU
 * @fig:	gets it; all zero if the CPU is not modelled
 */
void sw_mirror_read_cpu(const struct sw_mirror *m, unsigned int cpu,
			struct sw_sirq_cpu_figures *fig)
{
	sw_sirq_read_cpu(&m->sirq, cpu, fig);
}
