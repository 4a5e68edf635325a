// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite shadow_wheel_mirror_model: the mirror fed long random
 * streams of the events a kernel's timer base produces, against the
 * truth the generator knows.
 *
 * The generator is a reference timer base written from kernel/time/timer.c
 * (6.1 and 6.12 alike): calc_wheel_index() as it is there, base->clk
 * forwarded to jiffies on each mod_timer(), left one ahead after running
 * a tick, a mod_timer() to the same bucket that only updates the expiry
 * and emits nothing, the detach (timer_cancel) of expire_timers() before
 * timer_expire_entry. Its softirq runs on every tick that has due timers
 * (a NO_HZ CPU is woken for its next timer), so no bucket waits past its
 * tick, and it recomputes the next expiry on every change where the
 * kernel may run an empty tick (next_expiry_recalc), which the
 * differential would call clk_ahead: on these streams the differential
 * must match every placement and every expiry, 100%.
 *
 * Events come from several CPUs: cancels from any, expiries run remotely
 * on 6.12 (timer_expire_remote()), an interrupt arming another timer
 * between an expiry's detach and its callback, and another CPU re-arming
 * a timer in that window. The mirror's classification must give the
 * generator's counts of lifetimes, requeues, cancels, expiries (remote
 * ones too), its invariants must hold after every event, and its kernel
 * wheel's lateness per level must be the kernel's (baseclk - expires).
 *
 * Every event's outcome is checked as it comes, against what the test
 * computes on its own: its class; the kernel wheel's placement is the
 * generator's; every wheel's is the one the wheel's contract gives
 * (sw_test_expect()) for the expiry and the clock converted to its HZ by
 * plain arithmetic; an expiry's lateness is the tick the wheel placed it
 * for minus that expiry; the differential's verdicts are matches.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "sw_mirror.h"
#include "sw_test_common.h"

#define MM_TIMERS	192
#define MM_RECS		(MM_TIMERS + 8)
#define MM_CPUS		4
#define MM_OPS		20000

/* Each wheel's placement of a timer, as its outcome said */
struct mm_placed {
	unsigned long	expires;
	unsigned long	tick;
	unsigned int	idx;
};

struct mm_timer {
	bool		pending;
	unsigned long	expires;
	unsigned long	seen_expires;	/* as the last timer_start said */
	unsigned int	idx;
	unsigned long	bucket;
	struct mm_placed placed[SW_MIRROR_MAX_WHEELS];
	/* A lifetime that a restart left undecided: its expiry and placements */
	unsigned long	prev_expires;
	struct mm_placed prev[SW_MIRROR_MAX_WHEELS];
};

/* The last event of a CPU, for the generator's own reading of a cancel */
struct mm_last {
	int		timer;		/* -1: none, or not a final cancel */
	unsigned long	at;
	bool		due;		/* the timer's tick had come */
};

struct mm_truth {
	unsigned long	seen, cancelled, expired, requeued, remote, starts, expiries;
	unsigned long	cancelled_due;
	unsigned long	lat_count[SW_MAX_DEPTH];
	long		lat_min[SW_MAX_DEPTH], lat_max[SW_MAX_DEPTH];
};

struct mm {
	struct kunit		*test;
	bool			v612;
	unsigned int		hz, depth;
	unsigned long		jiffies, clk;
	struct mm_timer		t[MM_TIMERS];
	unsigned int		lvl[MM_TIMERS];
	struct mm_last		last[MM_CPUS];
	struct mm_truth		truth;
	struct rnd_state	rnd;
	unsigned long		nr_events;
	unsigned long		nr_parked, nr_clamped;
	bool			restart;	/* the next start restarts a timer due */
	struct sw_mirror_outcome out;
	struct sw_mirror	*m;
	struct sw_mirror_rec	*recs;
	struct sw_mirror_rec	*slots[MM_CPUS];
};

/* kernel/time/timer.c */
#define MM_LVL_START(n)		((64UL - 1) << (((n) - 1) * 3))

static unsigned int mm_calc_index(unsigned long expires, unsigned int lvl,
				  unsigned long *bucket_expiry)
{
	expires = (expires >> (3 * lvl)) + 1;
	*bucket_expiry = expires << (3 * lvl);
	return lvl * 64 + (expires & 63);
}

static unsigned int mm_calc_wheel_index(struct mm *mm, unsigned long expires, unsigned long clk,
					unsigned long *bucket_expiry)
{
	unsigned long delta = expires - clk;
	unsigned int lvl;

	for (lvl = 0; lvl + 1 < mm->depth; lvl++) {
		if (delta < MM_LVL_START(lvl + 1))
			return mm_calc_index(expires, lvl, bucket_expiry);
	}
	if ((long)delta < 0) {
		*bucket_expiry = clk;
		return clk & 63;
	}
	if (delta >= MM_LVL_START(mm->depth))
		expires = clk + MM_LVL_START(mm->depth) - (1UL << (3 * (mm->depth - 1)));
	return mm_calc_index(expires, mm->depth - 1, bucket_expiry);
}

static unsigned long mm_next_expiry(struct mm *mm, bool *any)
{
	unsigned long next = mm->clk + (ULONG_MAX >> 2);
	unsigned int i;

	*any = false;
	for (i = 0; i < MM_TIMERS; i++) {
		if (mm->t[i].pending && sw_time_before(mm->t[i].bucket, next)) {
			next = mm->t[i].bucket;
			*any = true;
		}
	}
	return next;
}

static void mm_check(struct mm *mm)
{
	if (mm->nr_events < 3000 || !(mm->nr_events % 16))
		KUNIT_ASSERT_TRUE_MSG(mm->test, sw_mirror_consistent(mm->m), "event %lu",
				      mm->nr_events);
}

/* The kernel's INITIAL_JIFFIES at @hz: five minutes before 32 bits wrap */
static unsigned long mm_initial_jiffies(unsigned int hz)
{
	return (unsigned long)(unsigned int)(-300 * (int)hz);
}

/*
 * Jiffy @j of the kernel's HZ as a tick of @hz since the same boot:
 * INITIAL_JIFFIES(@hz) + d * @hz / khz, d the jiffies since boot, rounded
 * up (an expiry) or down (a clock)
 */
static unsigned long mm_ticks_at(struct mm *mm, unsigned int hz, unsigned long j, bool up)
{
	long d = (long)(j - mm_initial_jiffies(mm->hz));
	u64 n = (u64)(d < 0 ? -d : d) * hz, q = div64_u64(n, mm->hz);
	bool exact = q * mm->hz == n;
	long v;

	if (d >= 0)
		v = q + (up && !exact);
	else
		v = -(long)(q + (!up && !exact));
	return mm_initial_jiffies(hz) + v;
}

/*
 * The kind and HZ of the mirror's wheel @w: the kernel's HZ, then 100,
 * 250 and 1000 but the kernel's, each as seed, mainline, classic
 */
static void mm_wheel(struct mm *mm, unsigned int w, struct sw_test_param *param)
{
	static const unsigned int vhz[] = { 100, 250, 1000 };
	unsigned int i = w / SW_WHEEL_NR_KINDS, j;

	memset(param, 0, sizeof(*param));
	param->kind = w % SW_WHEEL_NR_KINDS;
	param->hz = mm->hz;
	for (j = 0; i && j < ARRAY_SIZE(vhz); j++) {
		if (vhz[j] != mm->hz && !--i)
			param->hz = vhz[j];
	}
}

/* The kernel's wheel, mainline at the kernel's HZ: the second of them */
#define MM_KERNEL_WHEEL		1

/*
 * A start's placement in wheel @w, against the wheel's contract for the
 * expiry and clock in its HZ; @unmoved: a requeue the wheel may leave
 * where it was, its expiry unchanged in its HZ
 */
static void mm_check_placed(struct mm *mm, struct mm_timer *t, unsigned int w, bool unmoved)
{
	const struct sw_mirror_wheel_outcome *o = &mm->out.wheel[w];
	struct mm_placed *p = &t->placed[w];
	struct sw_test_param param;
	struct sw_test_expect exp;
	unsigned long clk, nb;
	unsigned int how = 0;

	mm_wheel(mm, w, &param);
	KUNIT_ASSERT_EQ_MSG(mm->test, o->expires, mm_ticks_at(mm, param.hz, t->expires, true),
			    "wheel %u, event %lu", w, mm->nr_events);
	/*
	 * Its clock is at jiffies, or one past if it ran a tick for an
	 * expiry; or behind, out of budget (classic runs every tick), but
	 * never on the kernel's wheel here
	 */
	clk = mm_ticks_at(mm, param.hz, mm->jiffies, false);
	KUNIT_ASSERT_TRUE_MSG(mm->test, o->clk == clk || o->clk == clk + 1 ||
			      (w != MM_KERNEL_WHEEL && sw_time_before(o->clk, clk)),
			      "wheel %u clk %lu, expected %lu, event %lu", w, o->clk, clk,
			      mm->nr_events);
	if (unmoved && o->expires == p->expires && o->tick == p->tick && o->idx == p->idx)
		return;

	sw_test_expect(&param, o->clk, o->expires, &exp);
	if ((long)(o->expires - o->clk) < 0)
		how = SW_TIMER_OVERDUE;
	else if (exp.clamped)
		how = SW_TIMER_CLAMPED;
	else if (exp.parked)
		how = SW_TIMER_PARKED;
	mm->nr_clamped += exp.clamped;
	mm->nr_parked += exp.parked;
	KUNIT_ASSERT_EQ_MSG(mm->test, o->lvl, exp.level, "wheel %u, event %lu", w, mm->nr_events);
	KUNIT_ASSERT_EQ_MSG(mm->test, o->tick, exp.run_at, "wheel %u, event %lu", w,
			    mm->nr_events);
	KUNIT_ASSERT_EQ_MSG(mm->test, o->how, how, "wheel %u, event %lu", w, mm->nr_events);
	KUNIT_ASSERT_EQ(mm->test, o->overdue, how == SW_TIMER_OVERDUE ? o->clk - o->expires : 0);
	KUNIT_ASSERT_EQ(mm->test, (unsigned long)o->gran,
			param.kind == SW_WHEEL_CLASSIC ? 1 : sw_test_gran(&param, exp.level));
	/* The bucket of that level that comes due at that tick */
	if (param.kind != SW_WHEEL_CLASSIC) {
		nb = param.kind == SW_WHEEL_SEED ? 32 : 64;
		KUNIT_ASSERT_EQ_MSG(mm->test, (unsigned long)o->idx,
				    exp.level * nb + ((exp.run_at >> (3 * exp.level)) & (nb - 1)),
				    "wheel %u, event %lu", w, mm->nr_events);
	}
}

/* The outcome of the event just given for timer @t, and the placements it remembers */
static void mm_check_outcome(struct mm *mm, struct mm_timer *t, enum sw_ev_type type,
			     enum sw_mirror_class class, unsigned long baseclk)
{
	const struct sw_mirror_outcome *out = &mm->out;
	unsigned int w, nr = sw_mirror_nr_wheels(mm->m);
	bool expired = class == SW_MC_EXPIRE || class == SW_MC_EXPIRE_REARMED;
	/* The expire_entry of a re-armed timer decides its previous lifetime */
	const struct mm_placed *placed = class == SW_MC_EXPIRE_REARMED ? t->prev : t->placed;

	KUNIT_ASSERT_EQ(mm->test, out->class, class);
	KUNIT_ASSERT_EQ(mm->test, nr, mm->hz == 300 ? 12U : 9U);
	KUNIT_ASSERT_EQ(mm->test, out->expired, expired);
	KUNIT_ASSERT_EQ(mm->test, out->placed, type == SW_EV_START);
	KUNIT_ASSERT_EQ(mm->test, out->diff[SW_DIFF_PLACEMENT].compared, type == SW_EV_START);
	KUNIT_ASSERT_EQ(mm->test, out->diff[SW_DIFF_EXPIRY].compared, type == SW_EV_EXPIRE);
	if (type == SW_EV_EXPIRE)
		KUNIT_ASSERT_EQ(mm->test, out->diff[SW_DIFF_EXPIRY].reason, SW_DIFF_MATCH);

	/* Each wheel ran it at the tick it placed it for */
	for (w = 0; expired && w < nr; w++)
		KUNIT_ASSERT_EQ_MSG(mm->test, out->wheel[w].lateness,
				    (long)(placed[w].tick - placed[w].expires),
				    "wheel %u, event %lu", w, mm->nr_events);
	if (expired)
		KUNIT_ASSERT_EQ(mm->test, out->wheel[MM_KERNEL_WHEEL].lateness,
				(long)(baseclk - (class == SW_MC_EXPIRE_REARMED ? t->prev_expires :
						  t->seen_expires)));
	if (type != SW_EV_START)
		return;

	if (mm->restart) {
		memcpy(t->prev, t->placed, sizeof(t->prev));
		t->prev_expires = t->seen_expires;
	}

	for (w = 0; w < nr; w++) {
		mm_check_placed(mm, t, w, class == SW_MC_REARM);
		t->placed[w].expires = out->wheel[w].expires;
		t->placed[w].tick = out->wheel[w].tick;
		t->placed[w].idx = out->wheel[w].idx;
	}
	/* The kernel's placement, said and matched; 6.1 says no tick of a clamped one */
	KUNIT_ASSERT_EQ(mm->test, out->diff[SW_DIFF_PLACEMENT].reason, SW_DIFF_MATCH);
	KUNIT_ASSERT_EQ(mm->test, out->kernel.idx, t->idx);
	KUNIT_ASSERT_EQ(mm->test, out->wheel[MM_KERNEL_WHEEL].idx, t->idx);
	KUNIT_ASSERT_EQ(mm->test, out->wheel[MM_KERNEL_WHEEL].tick, t->bucket);
	KUNIT_ASSERT_EQ(mm->test, out->has_ktick,
			mm->v612 || out->wheel[MM_KERNEL_WHEEL].how != SW_TIMER_CLAMPED);
	if (out->has_ktick)
		KUNIT_ASSERT_EQ(mm->test, out->ktick, t->bucket);
}

static enum sw_mirror_class mm_event(struct mm *mm, enum sw_ev_type type, int i,
				     unsigned int cpu, unsigned long baseclk)
{
	struct mm_timer *t = &mm->t[i];
	struct sw_mirror_event ev = {
		.type = type,
		.timer = t,
		.cpu = cpu,
		.now = mm->jiffies,
		.baseclk = baseclk,
	};
	enum sw_mirror_class class;

	/* Base 0, CPU 0; the bucket index in the flags of a start */
	mm->last[cpu].timer = -1;
	if (type == SW_EV_START) {
		ev.tflags = t->idx << SW_KTIMER_ARRAYSHIFT;
		ev.expires = t->expires;
		ev.have = SW_EVF_IDX | (mm->v612 ? SW_EVF_BUCKET : 0);
		ev.bucket_expiry = t->bucket;
		mm->truth.starts++;
	} else if (type == SW_EV_EXPIRE) {
		ev.expires = t->expires;
		ev.have = SW_EVF_EXPIRES;
		mm->truth.expiries++;
	}
	memset(&mm->out, 0x6b, sizeof(mm->out));
	class = sw_mirror_handle_event(mm->m, &ev, &mm->out);
	mm->nr_events++;
	mm_check_outcome(mm, t, type, class, baseclk);
	if (type == SW_EV_START)
		t->seen_expires = t->expires;
	mm_check(mm);
	return class;
}

/*
 * A start on @cpu: a new lifetime, or a requeue; del_timer() and a start
 * of the same timer as the CPU's next event within the grace read as a
 * requeue too (sw_mirror.c says why)
 */
static void mm_start(struct mm *mm, int i, unsigned int cpu, bool requeue)
{
	struct mm_last *last = &mm->last[cpu];
	enum sw_mirror_class class;

	unsigned int c;

	if (!requeue && last->timer == i && mm->jiffies - last->at < mm->m->grace) {
		mm->truth.cancelled--;
		mm->truth.cancelled_due -= last->due;
		requeue = true;
	}
	/* A del_timer() on another CPU was of an earlier lifetime: a cancel */
	for (c = 0; c < MM_CPUS; c++) {
		if (mm->last[c].timer == i)
			mm->last[c].timer = -1;
	}
	if (requeue)
		mm->truth.requeued++;
	else
		mm->truth.seen++;
	class = mm_event(mm, SW_EV_START, i, cpu, 0);
	KUNIT_ASSERT_EQ_MSG(mm->test, class, requeue ? SW_MC_REARM : SW_MC_ARM,
			    "timer %d, event %lu", i, mm->nr_events);
}

static void mm_enqueue(struct mm *mm, int i, unsigned long expires)
{
	struct mm_timer *t = &mm->t[i];

	t->pending = true;
	t->expires = expires;
	t->idx = mm_calc_wheel_index(mm, expires, mm->clk, &t->bucket);
	mm->lvl[i] = t->idx / 64;
}

static void mm_forward(struct mm *mm)
{
	bool any;
	unsigned long next = mm_next_expiry(mm, &any);

	if ((long)(mm->jiffies - mm->clk) < 1)
		return;
	mm->clk = sw_time_after(next, mm->jiffies) || !any ? mm->jiffies : next;
}

/* mod_timer(), process context on CPU 0 (the base's) */
static void mm_mod_timer(struct mm *mm, int i, unsigned long expires, unsigned int cpu)
{
	struct mm_timer *t = &mm->t[i];
	unsigned long bucket;

	if (t->pending && t->expires == expires)
		return;
	mm_forward(mm);
	if (t->pending) {
		if (mm_calc_wheel_index(mm, expires, mm->clk, &bucket) == t->idx) {
			/* Same bucket: the expiry changes, no event */
			t->expires = expires;
			return;
		}
		mm_event(mm, SW_EV_CANCEL, i, cpu, 0);
		mm_enqueue(mm, i, expires);
		mm_start(mm, i, cpu, true);
		return;
	}
	mm_enqueue(mm, i, expires);
	mm_start(mm, i, cpu, false);
}

static void mm_del_timer(struct mm *mm, int i, unsigned int cpu)
{
	if (!mm->t[i].pending)
		return;
	mm->t[i].pending = false;
	mm_event(mm, SW_EV_CANCEL, i, cpu, 0);
	mm->truth.cancelled++;
	mm->last[cpu].timer = i;
	mm->last[cpu].at = mm->jiffies;
	mm->last[cpu].due = !sw_time_before(mm->jiffies, mm->t[i].bucket);
	mm->truth.cancelled_due += mm->last[cpu].due;
}

/*
 * A due timer's tick came and its softirq has not run yet: another CPU's
 * del_timer() takes it (a thread in schedule_timeout() woken early, on
 * another CPU than the base's), and half the time a third CPU arms it
 * again before the cancelling CPU's next event. Only a timer that shares
 * its tick with another, so that the softirq runs the tick all the same
 * (the mirror runs it for a due cancel); armed again at level 0, where
 * the clock before the tick and the one after place alike.
 */
static void mm_del_due_timer(struct mm *mm)
{
	u32 r = prandom_u32_state(&mm->rnd);
	unsigned int cpu = 1 + r / 8 % (MM_CPUS - 1);
	unsigned int other = 1 + (cpu + r / 32 % (MM_CPUS - 2)) % (MM_CPUS - 1);
	int i, due = -1;

	if (r % 8)
		return;
	for (i = 0; i < MM_TIMERS; i++) {
		if (!mm->t[i].pending || sw_time_after(mm->t[i].bucket, mm->jiffies))
			continue;
		if (due >= 0)
			break;
		due = i;
	}
	if (i == MM_TIMERS)
		return;
	mm_del_timer(mm, i, cpu);
	if (r / 256 % 2)
		mm_mod_timer(mm, i, mm->jiffies + 2 + r / 512 % 58, other);
}

static unsigned long mm_delta(struct mm *mm)
{
	u32 r = prandom_u32_state(&mm->rnd), v = prandom_u32_state(&mm->rnd);

	switch (r % 16) {
	case 0 ... 7:
		return v % 70;
	case 8 ... 11:
		return v % 1000;
	case 12:
		return v % (2UL << (r / 16 % 24));
	case 13:
		/* Rarely beyond the seed wheel's range, or mainline's (clamped) */
		if (r / 16 % 8)
			return v % (2UL << (r / 128 % 24));
		return (r / 128 % 2 ? 1UL << 30 : 1UL << 26) + v % (1UL << 26);
	case 14:
		return v % 600 - 300;	/* maybe in the past */
	default:
		return MM_LVL_START(1) * (1 + v % 4) - 1 + r / 16 % 3;	/* at a boundary */
	}
}

static void mm_lateness(struct mm *mm, int i, unsigned long baseclk, unsigned long expires)
{
	unsigned int lvl = mm->lvl[i];
	long late = (long)(baseclk - expires);

	mm->truth.lat_count[lvl]++;
	mm->truth.lat_min[lvl] = min(mm->truth.lat_min[lvl], late);
	mm->truth.lat_max[lvl] = max(mm->truth.lat_max[lvl], late);
}

/* expire_timers(): one timer, on @cpu */
static void mm_expire_one(struct mm *mm, int i, unsigned int cpu, unsigned long baseclk)
{
	struct mm_timer *t = &mm->t[i];
	u32 r = prandom_u32_state(&mm->rnd);
	enum sw_mirror_class class;
	bool rearmed = false;

	t->pending = false;
	mm_event(mm, SW_EV_CANCEL, i, cpu, 0);
	mm->truth.expired++;
	mm->truth.remote += cpu != 0;

	/* Interrupts are on before call_timer_fn(): one arms another timer here */
	if (r % 16 == 0) {
		int u = (i + 1 + r / 16 % (MM_TIMERS - 1)) % MM_TIMERS;

		mm_mod_timer(mm, u, mm->jiffies + mm_delta(mm), cpu);
	}
	/* Another CPU re-arms the running timer: it stays on this base */
	if (r % 16 == 1) {
		unsigned int other = (cpu + 1 + r / 16 % (MM_CPUS - 1)) % MM_CPUS;

		mm_lateness(mm, i, baseclk, t->seen_expires);
		rearmed = true;
		mm_enqueue(mm, i, mm->jiffies + mm_delta(mm));
		/* A new lifetime: its expire_entry decides the old one */
		mm->restart = true;
		mm_start(mm, i, other, false);
		mm->restart = false;
	} else {
		mm_lateness(mm, i, baseclk, t->expires);
	}
	class = mm_event(mm, SW_EV_EXPIRE, i, cpu, baseclk);
	KUNIT_ASSERT_EQ_MSG(mm->test, class, rearmed ? SW_MC_EXPIRE_REARMED : SW_MC_EXPIRE,
			    "timer %d, event %lu", i, mm->nr_events);

	/* The callback re-arms it half the time */
	if (r % 4 == 2)
		mm_mod_timer(mm, i, mm->jiffies + mm_delta(mm), cpu);
}

/* __run_timers() at jiffies, on the base's CPU or (6.12) another */
static void mm_run_timers(struct mm *mm)
{
	unsigned int cpu = mm->v612 && !(prandom_u32_state(&mm->rnd) % 4) ?
			   1 + prandom_u32_state(&mm->rnd) % (MM_CPUS - 1) : 0;
	bool any;

	for (;;) {
		unsigned long next = mm_next_expiry(mm, &any);
		int due[MM_TIMERS], nr = 0, i;

		if (!any || sw_time_after(next, mm->jiffies) || sw_time_after(mm->clk, mm->jiffies))
			return;
		mm->clk = next;
		for (i = 0; i < MM_TIMERS; i++) {
			if (mm->t[i].pending && mm->t[i].bucket == next)
				due[nr++] = i;
		}
		mm->clk++;
		for (i = 0; i < nr; i++) {
			/* A callback may have re-armed a later one of this tick: still pending */
			if (mm->t[due[i]].pending && mm->t[due[i]].bucket == next)
				mm_expire_one(mm, due[i], cpu, next);
		}
	}
}

/* Jiffies move on: the CPU wakes for every tick with due timers (NO_HZ) */
static void mm_advance(struct mm *mm, unsigned long ticks)
{
	unsigned long target = mm->jiffies + ticks;
	bool any;

	while (sw_time_before(mm->jiffies, target)) {
		unsigned long next = mm_next_expiry(mm, &any);

		/* Nothing is left due: the softirq ran after every operation */
		KUNIT_ASSERT_TRUE(mm->test, !any || sw_time_after(next, mm->jiffies));
		mm->jiffies = any && sw_time_before(next, target) ? next : target;
		mm_del_due_timer(mm);
		mm_run_timers(mm);
	}
}

/* A kernel of @hz jiffies from @start, its timers' ops drawn from @seed, and its mirror */
static struct mm *mm_new(struct kunit *test, bool v612, unsigned int hz, unsigned long start,
			 u64 seed)
{
	struct mm *mm = kunit_kzalloc(test, sizeof(*mm), GFP_KERNEL);
	struct sw_mirror_config cfg = { .khz = hz, .now = start, .nr_slots = MM_CPUS,
					.nr_recs = MM_RECS };
	unsigned int lvl;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, mm);
	mm->m = kunit_kzalloc(test, sizeof(*mm->m), GFP_KERNEL);
	mm->recs = kunit_kcalloc(test, MM_RECS, sizeof(*mm->recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mm->m);
	KUNIT_ASSERT_NOT_NULL(test, mm->recs);
	mm->test = test;
	mm->v612 = v612;
	mm->hz = hz;
	mm->depth = hz > 100 ? 9 : 8;
	mm->jiffies = start;
	mm->clk = start;
	for (i = 0; i < MM_CPUS; i++)
		mm->last[i].timer = -1;
	for (lvl = 0; lvl < SW_MAX_DEPTH; lvl++) {
		mm->truth.lat_min[lvl] = LONG_MAX;
		mm->truth.lat_max[lvl] = LONG_MIN;
	}
	prandom_seed_state(&mm->rnd, seed);
	cfg.slots = mm->slots;
	cfg.recs = mm->recs;
	KUNIT_ASSERT_EQ(test, sw_mirror_setup(mm->m, &cfg), 0);
	return mm;
}

/* The kernel's timers through %MM_OPS random ops, each event into the mirror */
static void mm_ops(struct mm *mm)
{
	unsigned int op;

	for (op = 0; op < sw_test_ops(MM_OPS); op++) {
		u32 r = prandom_u32_state(&mm->rnd);
		int t = r / 128 % MM_TIMERS;

		/* Long under KASAN and TCG: the soft lockup detector's thread runs */
		cond_resched();

		switch (r % 128) {
		case 0 ... 59:
			mm_mod_timer(mm, t, mm->jiffies + mm_delta(mm), 0);
			break;
		case 60 ... 84:
			mm_del_timer(mm, t, r / 64 % MM_CPUS);
			break;
		case 85 ... 124:
			mm_advance(mm, 1 + r / 128 % 8);
			break;
		default:
			mm_advance(mm, 1 + r / 128 % 20000);
			break;
		}
		/* A timer armed in the past runs in this tick's softirq */
		mm_run_timers(mm);
	}
}

static void mm_run(struct kunit *test, bool v612, unsigned int hz, unsigned long start, u64 seed)
{
	struct mm *mm = mm_new(test, v612, hz, start, seed);
	const struct sw_mirror_wheel *kw;
	const struct sw_diff_entry *e;
	unsigned int op, lvl;
	int i;

	mm_ops(mm);
	/* Past the grace, so that every cancel is settled */
	mm_advance(mm, mm->m->grace + 1);
	sw_mirror_advance(mm->m, mm->jiffies);
	while (!sw_mirror_advance(mm->m, mm->jiffies))
		;
	KUNIT_ASSERT_TRUE(test, sw_mirror_consistent(mm->m));

	KUNIT_EXPECT_EQ(test, mm->m->counts.seen, mm->truth.seen);
	KUNIT_EXPECT_EQ(test, mm->m->counts.cancelled, mm->truth.cancelled);
	KUNIT_EXPECT_EQ(test, mm->m->counts.expired, mm->truth.expired);
	KUNIT_EXPECT_EQ(test, mm->m->counts.dropped, 0UL);
	KUNIT_EXPECT_EQ(test, mm->m->counts.events[SW_MC_REARM], mm->truth.requeued);
	KUNIT_EXPECT_EQ(test, mm->m->counts.events[SW_MC_ANOMALY], 0UL);
	KUNIT_EXPECT_EQ(test, mm->m->counts.events[SW_MC_UNTRACKED], 0UL);
	KUNIT_EXPECT_EQ(test, mm->m->counts.expired_remote, mm->truth.remote);
	KUNIT_EXPECT_EQ(test, mm->m->counts.cancelled_due, mm->truth.cancelled_due);
	for (i = 0, op = 0; i < MM_TIMERS; i++)
		op += mm->t[i].pending;
	KUNIT_EXPECT_EQ(test, mm->m->counts.pending, (unsigned long)op);

	/* The differential: every placement and every expiry the kernel's */
	KUNIT_EXPECT_EQ(test, mm->m->diff.count[SW_DIFF_PLACEMENT][SW_DIFF_MATCH],
			mm->truth.starts);
	KUNIT_EXPECT_EQ(test, mm->m->diff.count[SW_DIFF_EXPIRY][SW_DIFF_MATCH],
			mm->truth.expiries);
	e = &mm->m->diff.kept[0];
	KUNIT_EXPECT_EQ_MSG(test, mm->m->diff.nr_kept, 0U,
			    "first: %s %s now %lu expires %lu mclk %lu k %u/%lu m %u/%lu",
			    e->what ? "expiry" : "placement", sw_diff_reason_name(e->reason),
			    e->now, e->expires, e->mclk, e->kidx, e->ktick, e->midx, e->mtick);

	/* The kernel wheel's lateness is the kernel's */
	kw = &mm->m->wheels[mm->m->kernel_wheel];
	for (lvl = 0; lvl < SW_MAX_DEPTH; lvl++) {
		KUNIT_EXPECT_EQ_MSG(test, kw->lat[lvl].count, mm->truth.lat_count[lvl],
				    "level %u", lvl);
		if (!mm->truth.lat_count[lvl])
			continue;
		KUNIT_EXPECT_EQ_MSG(test, kw->lat[lvl].min, mm->truth.lat_min[lvl], "lvl %u", lvl);
		KUNIT_EXPECT_EQ_MSG(test, kw->lat[lvl].max, mm->truth.lat_max[lvl], "lvl %u", lvl);
	}
	/*
	 * Enough of every kind of event to mean something: over 1000
	 * expiries and requeues in %MM_OPS ops, or in their share
	 */
	KUNIT_EXPECT_GT(test, mm->truth.expired, sw_test_ops(1000));
	KUNIT_EXPECT_GT(test, mm->truth.requeued, sw_test_ops(1000));
	KUNIT_EXPECT_GT(test, mm->m->counts.events[SW_MC_EXPIRE_REARMED], 10UL);
	KUNIT_EXPECT_GT(test, mm->truth.cancelled_due, 10UL);
	KUNIT_EXPECT_EQ(test, !!mm->truth.remote, v612);
	/* Placements beyond the range were checked too */
	KUNIT_EXPECT_GT(test, mm->nr_parked, 10UL);
	KUNIT_EXPECT_GT(test, mm->nr_clamped, 10UL);
}

struct mm_param {
	bool		v612;
	unsigned int	hz;
	unsigned int	clock;
};

static const struct mm_param mm_params[] = {
	{ false, 250, 0 }, { false, 100, 1 }, { false, 1000, 2 },
	{ true, 250, 1 }, { true, 1000, 0 }, { true, 300, 2 },
};

static const void *mm_gen_params(const void *prev, char *desc)
{
	const struct mm_param *next = prev ? (const struct mm_param *)prev + 1 : mm_params;
	static const char * const clocks[] = { "boot", "wrap32", "wrap" };

	if (next >= mm_params + ARRAY_SIZE(mm_params))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s-hz%u-%s", next->v612 ? "6.12" : "6.1",
		 next->hz, clocks[next->clock]);
	return next;
}

static void sw_mirror_model_streams_match_the_kernel(struct kunit *test)
{
	const struct mm_param *p = test->param_value;
	unsigned long start;

	if (p->clock == 0)
		start = sw_hz_initial_jiffies(p->hz);
	else if (p->clock == 1)
		start = (unsigned long)U32_MAX - 5000;
	else
		start = ULONG_MAX - 5000;
	mm_run(test, p->v612, p->hz, start, 0x3177 + p->hz + p->v612);
}

static struct kunit_case sw_mirror_model_cases[] = {
	KUNIT_CASE_PARAM(sw_mirror_model_streams_match_the_kernel, mm_gen_params),
	{}
};

static struct kunit_suite sw_mirror_model_suite = {
	.name = "shadow_wheel_mirror_model",
	.test_cases = sw_mirror_model_cases,
};

kunit_test_suites(&sw_mirror_model_suite);
