// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for the mirror (core/mirror/sw_mirror.c, core/mirror/sw_diff.c): the
 * kernel's timer events replayed into passive wheels.
 *
 * shadow_wheel_mirror_events states the classification table at the top
 * of sw_mirror.c case by case, with the event sequences kernel/time/timer.c
 * produces (6.1 and 6.12); shadow_wheel_mirror_diff the differential's
 * reasons, one kernel behaviour each. The long random streams are in
 * sw_mirror_model_test.c.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/slab.h>

#include "sw_mirror.h"
#include "sw_test_common.h"

#define SW_MT_RECS	8
#define SW_MT_CPUS	4

/* A mirror with a few records and four CPUs, started at @now; its last event's outcome */
struct sw_mt {
	struct kunit		*test;
	struct sw_mirror	m;
	struct sw_mirror_outcome out;
	struct sw_mirror_rec	recs[SW_MT_RECS];
	struct sw_mirror_rec	*slots[SW_MT_CPUS];
	unsigned long		timers[SW_MT_RECS + 4];	/* their addresses are the identities */
};

static struct sw_mt *sw_mt_new(struct kunit *test, unsigned int khz, unsigned long now,
			       unsigned int nr_recs)
{
	struct sw_mt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct sw_mirror_config cfg = { .khz = khz, .now = now, .nr_slots = SW_MT_CPUS,
					.nr_recs = nr_recs };

	KUNIT_ASSERT_NOT_NULL(test, t);
	cfg.slots = t->slots;
	cfg.recs = t->recs;
	KUNIT_ASSERT_EQ(test, sw_mirror_setup(&t->m, &cfg), 0);
	t->test = test;
	return t;
}

/*
 * One event, its outcome in @t->out: poisoned first, so that a field the
 * mirror leaves unset for this event shows
 */
static enum sw_mirror_class sw_mt_event(struct sw_mt *t, const struct sw_mirror_event *ev)
{
	enum sw_mirror_class class;

	memset(&t->out, 0x6b, sizeof(t->out));
	class = sw_mirror_handle_event(&t->m, ev, &t->out);
	KUNIT_EXPECT_EQ(t->test, t->out.class, class);
	return class;
}

/* The kernel's flags: the base's CPU and, as timer_start carries them, the bucket */
static u32 sw_mt_flags(unsigned int cpu, unsigned int idx)
{
	return cpu | idx << SW_KTIMER_ARRAYSHIFT;
}

/* The bucket mainline puts @expires in from clock @clk, as the kernel does */
static unsigned int sw_mt_kidx(struct sw_mt *t, unsigned long expires, unsigned long clk)
{
	struct sw_place place;

	sw_wheel_place(&t->m.wheels[t->m.kernel_wheel].base.geo, clk, expires, 0, &place);
	return place.idx;
}

/*
 * 6.1's timer_start on @cpu of a timer queued on @base's CPU: expires and
 * flags with the bucket, placed from jiffies
 */
static enum sw_mirror_class sw_mt_start_on(struct sw_mt *t, unsigned int i, unsigned int cpu,
					   unsigned int base, unsigned long now,
					   unsigned long expires)
{
	struct sw_mirror_event ev = {
		.type = SW_EV_START,
		.timer = &t->timers[i],
		.cpu = cpu,
		.now = now,
		.expires = expires,
		.tflags = sw_mt_flags(base, sw_mt_kidx(t, expires, now)),
		.have = SW_EVF_IDX,
	};

	return sw_mt_event(t, &ev);
}

/* The same, queued on the CPU's own base */
static enum sw_mirror_class sw_mt_start(struct sw_mt *t, unsigned int i, unsigned int cpu,
					unsigned long now, unsigned long expires)
{
	return sw_mt_start_on(t, i, cpu, cpu, now, expires);
}

static enum sw_mirror_class sw_mt_cancel(struct sw_mt *t, unsigned int i, unsigned int cpu,
					 unsigned long now)
{
	struct sw_mirror_event ev = {
		.type = SW_EV_CANCEL,
		.timer = &t->timers[i],
		.cpu = cpu,
		.now = now,
	};

	return sw_mt_event(t, &ev);
}

static enum sw_mirror_class sw_mt_expire(struct sw_mt *t, unsigned int i, unsigned int cpu,
					 unsigned long now, unsigned long baseclk)
{
	struct sw_mirror_event ev = {
		.type = SW_EV_EXPIRE,
		.timer = &t->timers[i],
		.cpu = cpu,
		.now = now,
		.baseclk = baseclk,
	};

	return sw_mt_event(t, &ev);
}

/* seen, cancelled, expired, pending, dropped; and the invariants */
static void sw_mt_expect(struct kunit *test, struct sw_mt *t, unsigned long seen,
			 unsigned long cancelled, unsigned long expired, unsigned long pending,
			 unsigned long dropped)
{
	KUNIT_EXPECT_EQ(test, t->m.counts.seen, seen);
	KUNIT_EXPECT_EQ(test, t->m.counts.cancelled, cancelled);
	KUNIT_EXPECT_EQ(test, t->m.counts.expired, expired);
	KUNIT_EXPECT_EQ(test, t->m.counts.pending, pending);
	KUNIT_EXPECT_EQ(test, t->m.counts.dropped, dropped);
	KUNIT_EXPECT_TRUE(test, sw_mirror_consistent(&t->m));
}

#define SW_MT_J0	100000UL

/*
 * Suite shadow_wheel_mirror_setup: which wheels a mirror runs
 */

static void sw_mirror_runs_every_kind_at_four_hz(struct kunit *test)
{
	static const unsigned int khz[] = { 100, 250, 300, 1000 };
	unsigned int i, w;

	for (i = 0; i < ARRAY_SIZE(khz); i++) {
		struct sw_mt *t = sw_mt_new(test, khz[i], SW_MT_J0, 0);
		unsigned int per_hz[SW_WHEEL_NR_KINDS] = { 0 };
		bool has[1001] = { false };

		/* The kernel's HZ, deduplicated with 100, 250, 1000 */
		KUNIT_EXPECT_EQ(test, t->m.nr_wheels, khz[i] == 300 ? 12U : 9U);
		KUNIT_EXPECT_EQ(test, sw_mirror_nr_default_wheels(khz[i]), t->m.nr_wheels);
		for (w = 0; w < t->m.nr_wheels; w++) {
			struct sw_mirror_wheel *wh = &t->m.wheels[w];

			per_hz[wh->base.geo.kind]++;
			has[wh->hz.vhz] = true;
			KUNIT_EXPECT_EQ(test, wh->hz.khz, khz[i]);
			KUNIT_EXPECT_EQ(test, wh->base.geo.hz, wh->hz.vhz);
			/* Its clock is jiffies in its HZ */
			KUNIT_EXPECT_EQ(test, wh->base.clk, sw_hz_clock(&wh->hz, SW_MT_J0));
		}
		KUNIT_EXPECT_TRUE(test, has[100] && has[250] && has[1000] && has[khz[i]]);
		KUNIT_EXPECT_EQ(test, per_hz[SW_WHEEL_SEED], per_hz[SW_WHEEL_MAINLINE]);
		KUNIT_EXPECT_EQ(test, per_hz[SW_WHEEL_SEED], per_hz[SW_WHEEL_CLASSIC]);
		/* The differential's wheel: mainline at the kernel's HZ, on jiffies itself */
		w = t->m.kernel_wheel;
		KUNIT_EXPECT_EQ(test, t->m.wheels[w].base.geo.kind, SW_WHEEL_MAINLINE);
		KUNIT_EXPECT_EQ(test, t->m.wheels[w].hz.vhz, khz[i]);
		KUNIT_EXPECT_EQ(test, t->m.wheels[w].base.clk, SW_MT_J0);
		KUNIT_EXPECT_TRUE(test, sw_mirror_consistent(&t->m));
	}
}

static void sw_mirror_rejects_unknown_hz(struct kunit *test)
{
	struct sw_mirror_rec *slots[1];
	struct sw_mirror *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	struct sw_mirror_config cfg = { .khz = SW_MAX_HZ + 1, .slots = slots, .nr_slots = 1 };

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_EQ(test, sw_mirror_setup(m, &cfg), -EINVAL);
	cfg.khz = 0;
	KUNIT_EXPECT_EQ(test, sw_mirror_setup(m, &cfg), -EINVAL);
}

/* A geometry from a spec, or the test fails */
static void sw_mt_geo(struct kunit *test, struct sw_geometry *geo, const char *spec)
{
	char err[SW_SPEC_ERR_MAX] = "";

	KUNIT_ASSERT_EQ_MSG(test, sw_geometry_parse(geo, spec, 250, err, sizeof(err)), 0,
			    "%s: %s", spec, err);
}

/* @t's mirror at @khz with the kernel's wheel alone, and no records */
static void sw_mt_kernel_wheel_only(struct sw_mt *t, unsigned int khz)
{
	struct sw_mirror_config cfg = {
		.khz = khz, .now = SW_MT_J0, .slots = t->slots, .nr_slots = SW_MT_CPUS,
		.kernel_wheel_only = true,
	};

	KUNIT_ASSERT_EQ(t->test, sw_mirror_setup(&t->m, &cfg), 0);
}

/* Without the defaults: the kernel's wheel alone, first, and room for 15 more */
static void sw_mirror_kernel_wheel_alone(struct kunit *test)
{
	struct sw_mt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct sw_geometry geo;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->test = test;
	sw_mt_kernel_wheel_only(t, 300);
	KUNIT_EXPECT_EQ(test, sw_mirror_nr_wheels(&t->m), 1U);
	KUNIT_EXPECT_EQ(test, t->m.kernel_wheel, 0U);
	KUNIT_EXPECT_EQ(test, t->m.wheels[0].base.geo.kind, SW_WHEEL_MAINLINE);
	KUNIT_EXPECT_EQ(test, t->m.wheels[0].hz.vhz, 300U);
	KUNIT_EXPECT_EQ(test, t->m.wheels[0].base.clk, SW_MT_J0);
	sw_mt_geo(test, &geo, "bits=5,shift=2,depth=8,hz=24,cascade");
	for (i = 1; i < SW_MIRROR_MAX_WHEELS; i++)
		KUNIT_EXPECT_EQ(test, sw_mirror_add_wheel(&t->m, &geo), 0);
	KUNIT_EXPECT_EQ(test, sw_mirror_nr_wheels(&t->m), (unsigned int)SW_MIRROR_MAX_WHEELS);
	KUNIT_EXPECT_EQ(test, sw_mirror_add_wheel(&t->m, &geo), -ENOSPC);
	KUNIT_EXPECT_TRUE(test, sw_mirror_consistent(&t->m));
}

/*
 * A few timers over four CPUs, started, requeued, cancelled and expired at
 * the kernel wheel's ticks, with the CPUs' softirqs and idle
 */
static void sw_mt_traffic(struct sw_mt *t)
{
	struct sw_mirror_event cpu_ev = { .cpu = 1 };
	unsigned long j = SW_MT_J0, tick;
	unsigned int i, round;

	for (round = 0; round < 3; round++) {
		for (i = 0; i < 6; i++)
			sw_mt_start(t, i, i % SW_MT_CPUS, j + i, j + 3 + 37 * i * (round + 1));
		/* Timer 5 requeued, timer 4 cancelled */
		sw_mt_cancel(t, 5, 1, j + 6);
		sw_mt_start(t, 5, 1, j + 6, j + 900);
		sw_mt_cancel(t, 4, 0, j + 7);
		for (i = 0; i < 4; i++) {
			sw_mt_start(t, i, i, j + 8, j + 9 + 5 * i);
			tick = t->out.wheel[t->m.kernel_wheel].tick;
			cpu_ev.cpu = i;
			cpu_ev.now = tick;
			cpu_ev.type = SW_EV_SOFTIRQ_ENTRY;
			sw_mt_event(t, &cpu_ev);
			sw_mt_cancel(t, i, i, tick);
			sw_mt_expire(t, i, i, tick, tick);
			cpu_ev.type = SW_EV_SOFTIRQ_EXIT;
			sw_mt_event(t, &cpu_ev);
			cpu_ev.type = SW_EV_IDLE_ENTER;
			sw_mt_event(t, &cpu_ev);
			cpu_ev.now = tick + 30;
			cpu_ev.type = SW_EV_IDLE_EXIT;
			sw_mt_event(t, &cpu_ev);
		}
		j += 400;
	}
	sw_mirror_advance(&t->m, j + 5000);
}

/*
 * A wheel added equal to a default one is placed, run and counted as that
 * one, softirqs and idle wakeups included: the same figures
 */
static void sw_mirror_added_wheel_runs_as_a_default_one(struct kunit *test)
{
	static const char * const specs[] = { "mainline,hz=1000", "seed,hz=100", "classic,hz=250" };
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	struct sw_sirq_cpu *cpus = kunit_kcalloc(test, SW_MT_CPUS, sizeof(*cpus), GFP_KERNEL);
	struct sw_mirror_figures *fig = kunit_kzalloc(test, sizeof(*fig), GFP_KERNEL);
	unsigned int nr = sw_mirror_nr_wheels(&t->m), i, w;
	struct sw_geometry geo;

	KUNIT_ASSERT_NOT_NULL(test, cpus);
	KUNIT_ASSERT_NOT_NULL(test, fig);
	sw_mirror_set_cpus(&t->m, cpus, SW_MT_CPUS, SW_BASES_STD_DEF);
	for (i = 0; i < ARRAY_SIZE(specs); i++) {
		sw_mt_geo(test, &geo, specs[i]);
		KUNIT_EXPECT_EQ(test, sw_mirror_add_wheel(&t->m, &geo), 0);
	}
	KUNIT_ASSERT_EQ(test, sw_mirror_nr_wheels(&t->m), nr + 3);
	sw_mt_traffic(t);
	KUNIT_EXPECT_TRUE(test, sw_mirror_consistent(&t->m));
	sw_mirror_read_figures(&t->m, fig);
	KUNIT_EXPECT_EQ(test, fig->wheels, (unsigned long)nr + 3);
	KUNIT_EXPECT_GT(test, fig->counts.expired, 0UL);
	for (i = 0; i < ARRAY_SIZE(specs); i++) {
		const struct sw_mirror_wheel_figures *added = &fig->wheel[nr + i];

		for (w = 0; w < nr; w++) {
			if (!strcmp(fig->wheel[w].name, added->name))
				break;
		}
		KUNIT_ASSERT_LT_MSG(test, w, nr, "%s: no default wheel of that name", added->name);
		KUNIT_EXPECT_GT_MSG(test, added->softirqs, 0UL, "%s", added->name);
		KUNIT_EXPECT_GT_MSG(test, added->counts.due_ticks, 0UL, "%s", added->name);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(added, &fig->wheel[w], sizeof(*added)), 0,
				    "%s: figures differ from the default wheel's", added->name);
	}
}

/* -ENOSPC, -EBUSY, -EINVAL: the mirror as it was, byte for byte */
static void sw_mirror_add_wheel_errors_change_nothing(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 300, SW_MT_J0, SW_MT_RECS);
	struct sw_mirror *before = kunit_kzalloc(test, sizeof(*before), GFP_KERNEL);
	struct sw_geometry geo, bad;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, before);
	sw_mt_geo(test, &geo, "bits=4,shift=3,depth=6,hz=500,clamp");
	/* Not a geometry the parser makes: HZ out of range, a shape changed by hand */
	bad = geo;
	bad.hz = SW_MAX_HZ + 1;
	*before = t->m;
	KUNIT_EXPECT_EQ(test, sw_mirror_add_wheel(&t->m, &bad), -EINVAL);
	bad = geo;
	bad.hz = 0;
	KUNIT_EXPECT_EQ(test, sw_mirror_add_wheel(&t->m, &bad), -EINVAL);
	bad = geo;
	bad.depth = SW_MAX_DEPTH + 1;
	KUNIT_EXPECT_EQ(test, sw_mirror_add_wheel(&t->m, &bad), -EINVAL);
	bad = geo;
	bad.lvl_start[2]++;
	KUNIT_EXPECT_EQ(test, sw_mirror_add_wheel(&t->m, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, sw_mirror_add_wheel(&t->m, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(before, &t->m, sizeof(*before)), 0);

	/* 12 at HZ 300: four more fit */
	for (i = sw_mirror_nr_wheels(&t->m); i < SW_MIRROR_MAX_WHEELS; i++)
		KUNIT_EXPECT_EQ(test, sw_mirror_add_wheel(&t->m, &geo), 0);
	*before = t->m;
	KUNIT_EXPECT_EQ(test, sw_mirror_add_wheel(&t->m, &geo), -ENOSPC);
	KUNIT_EXPECT_EQ(test, memcmp(before, &t->m, sizeof(*before)), 0);

	t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	sw_mt_start(t, 0, 0, SW_MT_J0, SW_MT_J0 + 10);
	*before = t->m;
	KUNIT_EXPECT_EQ(test, sw_mirror_add_wheel(&t->m, &geo), -EBUSY);
	KUNIT_EXPECT_EQ(test, memcmp(before, &t->m, sizeof(*before)), 0);
	/* Advancing starts the clocks as an event does */
	t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	sw_mirror_advance(&t->m, SW_MT_J0 + 1);
	KUNIT_EXPECT_EQ(test, sw_mirror_add_wheel(&t->m, &geo), -EBUSY);
	KUNIT_EXPECT_EQ(test, sw_mirror_nr_wheels(&t->m), 9U);
}

/*
 * A wheel's name: "kind.hz" for a named wheel at a HZ, as the defaults'
 * always were; any other shape its canonical spec, in the figures too
 */
static void sw_mirror_wheel_names(struct kunit *test)
{
	static const struct {
		const char *spec;
		const char *name;
	} cases[] = {
		{ "mainline", "mainline.250" },
		{ "seed,hz=300", "seed.300" },
		{ "classic,hz=24", "classic.24" },
		{ "mainline,hz=100,depth=8", "mainline.100" },
		/* Mainline's shape at 100 has 8 levels: 9 is another shape */
		{ "mainline,hz=100,depth=9", "bits=6,shift=3,depth=9,hz=100,clamp" },
		{ "seed,shift=2", "bits=5,shift=2,depth=8,hz=250,cascade" },
		{ "bits=6,shift=3,depth=9,hz=300,clamp", "mainline.300" },
		{ "bits=5,shift=3,depth=8,hz=1000,clamp", "bits=5,shift=3,depth=8,hz=1000,clamp" },
	};
	struct sw_mt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct sw_mirror_figures *fig = kunit_kzalloc(test, sizeof(*fig), GFP_KERNEL);
	char name[SW_SPEC_MAX];
	struct sw_geometry geo;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, fig);
	t->test = test;
	sw_mt_kernel_wheel_only(t, 250);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		sw_mt_geo(test, &geo, cases[i].spec);
		KUNIT_EXPECT_EQ(test, sw_mirror_wheel_name(&geo, name, sizeof(name)),
				(int)strlen(cases[i].name));
		KUNIT_EXPECT_STREQ(test, name, cases[i].name);
		KUNIT_EXPECT_EQ(test, sw_mirror_add_wheel(&t->m, &geo), 0);
	}
	sw_mirror_read_figures(&t->m, fig);
	KUNIT_EXPECT_STREQ(test, fig->wheel[0].name, "mainline.250");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_EXPECT_STREQ(test, fig->wheel[1 + i].name, cases[i].name);
		KUNIT_EXPECT_EQ(test, fig->wheel[1 + i].vhz, t->m.wheels[1 + i].base.geo.hz);
	}
}

/*
 * late_10pct: an expiry later than a tenth of its timeout, in each wheel's
 * HZ; the coarse HZ are late on a short timeout, the kernel's is not
 */
static void sw_mirror_counts_late_over_a_tenth(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 1000, SW_MT_J0, SW_MT_RECS);
	unsigned long tick;
	unsigned int w, late = 0;

	sw_mt_start(t, 0, 0, SW_MT_J0 + 3, SW_MT_J0 + 3 + 20);
	tick = t->out.wheel[t->m.kernel_wheel].tick;
	sw_mt_cancel(t, 0, 0, tick);
	sw_mt_expire(t, 0, 0, tick, tick);
	KUNIT_ASSERT_TRUE(test, t->out.expired);
	for (w = 0; w < t->m.nr_wheels; w++) {
		long lat = t->out.wheel[w].lateness;
		bool over = lat > 0 && lat * 10 * 1000 > 20L * t->m.wheels[w].hz.vhz;

		KUNIT_EXPECT_EQ_MSG(test, t->m.wheels[w].counts.late_10pct, (unsigned long)over,
				    "wheel %u lateness %ld", w, lat);
		late += over;
	}
	KUNIT_EXPECT_EQ(test, t->m.wheels[t->m.kernel_wheel].counts.late_10pct, 0UL);
	KUNIT_EXPECT_GT(test, late, 0U);
}

/*
 * sw_mirror_setup() builds the mirror the setters build one by one: the
 * same figures after the same traffic, with every part of the config
 * used; more wheels than the mirror runs are -ENOSPC
 */
static void sw_mirror_setup_is_the_setters(struct kunit *test)
{
	struct sw_mt *t[2] = { kunit_kzalloc(test, sizeof(*t[0]), GFP_KERNEL),
			       kunit_kzalloc(test, sizeof(*t[1]), GFP_KERNEL) };
	struct sw_mirror_figures *fig[2] = { kunit_kzalloc(test, sizeof(*fig[0]), GFP_KERNEL),
					     kunit_kzalloc(test, sizeof(*fig[1]), GFP_KERNEL) };
	struct sw_sirq_cpu *cpus = kunit_kcalloc(test, 2 * SW_MT_CPUS, sizeof(*cpus),
						   GFP_KERNEL);
	unsigned int bits = sw_mirror_hash_bits(SW_MT_RECS) + 1, i;
	struct hlist_head *hash = kunit_kcalloc(test, 2UL << bits, sizeof(*hash), GFP_KERNEL);
	struct sw_geometry *geos = kunit_kcalloc(test, SW_MIRROR_MAX_WHEELS, sizeof(*geos),
						 GFP_KERNEL);
	struct sw_mirror_config cfg = {
		.khz = 250, .now = SW_MT_J0, .nr_slots = SW_MT_CPUS, .kernel_wheel_only = true,
		.geos = geos, .nr_geos = 2, .nr_recs = SW_MT_RECS, .hash_bits = bits,
		.budget = 3, .nr_cpus = SW_MT_CPUS, .bases = SW_BASES_LOCAL_GLOBAL_DEF,
		.cpu_budget = 100, .exact_next = true,
	};

	KUNIT_ASSERT_TRUE(test, t[0] && t[1] && fig[0] && fig[1] && cpus && hash && geos);
	for (i = 0; i < SW_MIRROR_MAX_WHEELS; i++)
		sw_mt_geo(test, &geos[i], i % 2 ? "seed,hz=100" : "classic,hz=1000");
	t[0]->test = test;
	t[1]->test = test;
	cfg.slots = t[0]->slots;
	cfg.recs = t[0]->recs;
	cfg.hash = hash;
	cfg.cpus = cpus;
	KUNIT_ASSERT_EQ(test, sw_mirror_setup(&t[0]->m, &cfg), 0);
	KUNIT_ASSERT_EQ(test, sw_mirror_init_wheels(&t[1]->m, 250, SW_MT_J0, t[1]->slots,
						    SW_MT_CPUS, false), 0);
	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_EQ(test, sw_mirror_add_wheel(&t[1]->m, &geos[i]), 0);
	sw_mirror_add_records(&t[1]->m, t[1]->recs, SW_MT_RECS);
	sw_mirror_set_hash(&t[1]->m, hash + (1UL << bits), bits);
	sw_mirror_set_budget(&t[1]->m, 3);
	sw_mirror_set_cpus(&t[1]->m, cpus + SW_MT_CPUS, SW_MT_CPUS, SW_BASES_LOCAL_GLOBAL_DEF);
	sw_mirror_set_cpu_budget(&t[1]->m, 100);
	sw_mirror_set_exact_next(&t[1]->m, true);
	for (i = 0; i < 2; i++) {
		sw_mt_traffic(t[i]);
		KUNIT_EXPECT_TRUE(test, sw_mirror_consistent(&t[i]->m));
		sw_mirror_read_figures(&t[i]->m, fig[i]);
		/* The mismatches kept name each mirror's own timers */
		memset(fig[i]->diff.kept, 0, sizeof(fig[i]->diff.kept));
	}
	KUNIT_EXPECT_EQ(test, fig[0]->wheels, 3UL);
	KUNIT_EXPECT_GT(test, fig[0]->softirq_predicted, 0UL);
	KUNIT_EXPECT_EQ(test, memcmp(fig[0], fig[1], sizeof(*fig[0])), 0);

	cfg.kernel_wheel_only = false;
	cfg.nr_geos = SW_MIRROR_MAX_WHEELS - sw_mirror_nr_default_wheels(250) + 1;
	KUNIT_EXPECT_EQ(test, sw_mirror_setup(&t[0]->m, &cfg), -ENOSPC);
}

SW_TEST_SUITE(sw_mirror_setup_suite, "shadow_wheel_mirror_setup",
	      KUNIT_CASE(sw_mirror_runs_every_kind_at_four_hz),
	      KUNIT_CASE(sw_mirror_rejects_unknown_hz),
	      KUNIT_CASE(sw_mirror_setup_is_the_setters),
	      KUNIT_CASE(sw_mirror_kernel_wheel_alone),
	      KUNIT_CASE(sw_mirror_added_wheel_runs_as_a_default_one),
	      KUNIT_CASE(sw_mirror_add_wheel_errors_change_nothing),
	      KUNIT_CASE(sw_mirror_wheel_names),
	      KUNIT_CASE(sw_mirror_counts_late_over_a_tenth));

/*
 * Suite shadow_wheel_mirror_events: the classification, one sequence of
 * kernel/time/timer.c each (HZ=250 kernel).
 */

/* A start of a timer the mirror has not seen begins a lifetime, in every wheel */
static void sw_mirror_start_arms_in_every_wheel(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	unsigned int w;

	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 0, 0, SW_MT_J0, SW_MT_J0 + 250), SW_MC_ARM);
	sw_mt_expect(test, t, 1, 0, 0, 1, 0);
	for (w = 0; w < t->m.nr_wheels; w++) {
		struct sw_mirror_wheel *wh = &t->m.wheels[w];

		KUNIT_EXPECT_EQ(test, wh->base.nr_pending, 1UL);
		/* A second later, in each HZ */
		KUNIT_EXPECT_EQ(test, t->recs[SW_MT_RECS - 1].ent[w].expires,
				sw_hz_expiry(&wh->hz, SW_MT_J0 + 250));
		KUNIT_EXPECT_LE(test, t->recs[SW_MT_RECS - 1].ent[w].expires - wh->base.clk,
				wh->hz.vhz + 1UL);
	}
	KUNIT_EXPECT_EQ(test, t->m.diff.count[SW_DIFF_PLACEMENT][SW_DIFF_MATCH], 1UL);
}

/* mod_timer() of a pending timer: cancel, then start on the same CPU */
static void sw_mirror_cancel_then_start_is_a_requeue(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);

	sw_mt_start(t, 0, 1, SW_MT_J0, SW_MT_J0 + 100);
	KUNIT_EXPECT_EQ(test, sw_mt_cancel(t, 0, 1, SW_MT_J0 + 5), SW_MC_CANCEL);
	/* Undecided: still pending */
	sw_mt_expect(test, t, 1, 0, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 0, 1, SW_MT_J0 + 5, SW_MT_J0 + 900), SW_MC_REARM);
	sw_mt_expect(test, t, 1, 0, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, t->recs[SW_MT_RECS - 1].ent[t->m.kernel_wheel].expires,
			SW_MT_J0 + 900);
	KUNIT_EXPECT_EQ(test, t->m.counts.events[SW_MC_REARM], 1UL);
}

/* The same onto another CPU's base (6.1's get_nohz_timer_target, hotplug) */
static void sw_mirror_requeue_onto_another_base_is_a_migration(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	struct sw_mirror_event ev = {
		.type = SW_EV_START,
		.timer = &t->timers[0],
		.cpu = 1,
		.now = SW_MT_J0 + 1,
		.expires = SW_MT_J0 + 30,
		.have = SW_EVF_IDX,
	};

	sw_mt_start(t, 0, 1, SW_MT_J0, SW_MT_J0 + 20);
	sw_mt_cancel(t, 0, 1, SW_MT_J0 + 1);
	/* Enqueued on CPU 3's base by CPU 1 */
	ev.tflags = sw_mt_flags(3, sw_mt_kidx(t, ev.expires, ev.now));
	KUNIT_EXPECT_EQ(test, sw_mt_event(t, &ev), SW_MC_MIGRATE);
	sw_mt_expect(test, t, 1, 0, 0, 1, 0);
}

/* del_timer(): a cancel that the CPU's next event does not explain */
static void sw_mirror_cancel_then_anything_else_is_a_cancel(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	unsigned int w;

	sw_mt_start(t, 0, 0, SW_MT_J0, SW_MT_J0 + 100);
	sw_mt_cancel(t, 0, 2, SW_MT_J0 + 10);
	/* Another CPU's events decide nothing */
	sw_mt_start(t, 1, 0, SW_MT_J0 + 10, SW_MT_J0 + 20);
	sw_mt_expect(test, t, 2, 0, 0, 2, 0);
	/* CPU 2's next event does */
	sw_mt_start(t, 2, 2, SW_MT_J0 + 10, SW_MT_J0 + 20);
	sw_mt_expect(test, t, 3, 1, 0, 2, 0);
	KUNIT_EXPECT_EQ(test, t->m.counts.cancelled_due, 0UL);
	for (w = 0; w < t->m.nr_wheels; w++)
		KUNIT_EXPECT_EQ(test, t->m.wheels[w].base.nr_pending, 2UL);
	/* A later start of the same timer is a new lifetime */
	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 0, 2, SW_MT_J0 + 11, SW_MT_J0 + 40), SW_MC_ARM);
	sw_mt_expect(test, t, 4, 1, 0, 3, 0);
}

/*
 * expire_timers(): detach_timer() fires timer_cancel under the base lock,
 * call_timer_fn() then timer_expire_entry on the same CPU
 */
static void sw_mirror_cancel_then_expire_entry_is_an_expiry(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	struct sw_mirror_wheel *kw = &t->m.wheels[t->m.kernel_wheel];
	unsigned long expires = SW_MT_J0 + 10;

	sw_mt_start(t, 0, 0, SW_MT_J0, expires);
	/* Level 0 runs it on the next tick after its expiry */
	KUNIT_EXPECT_EQ(test, sw_mt_cancel(t, 0, 0, expires + 1), SW_MC_CANCEL);
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 0, 0, expires + 1, expires + 1), SW_MC_EXPIRE);
	sw_mt_expect(test, t, 1, 0, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, kw->lat[0].count, 1UL);
	KUNIT_EXPECT_EQ(test, kw->lat[0].min, 1L);
	KUNIT_EXPECT_EQ(test, kw->lat[0].max, 1L);
	KUNIT_EXPECT_EQ(test, kw->lat[0].hist[sw_mirror_lat_bin(1)], 1UL);
	/* The wheel's clock went through the tick the kernel ran */
	KUNIT_EXPECT_EQ(test, kw->base.clk, expires + 2);
	KUNIT_EXPECT_EQ(test, t->m.diff.count[SW_DIFF_EXPIRY][SW_DIFF_MATCH], 1UL);
	KUNIT_EXPECT_EQ(test, t->m.counts.expired_remote, 0UL);
}

/*
 * An interrupt between the detach and the callback (interrupts are on in
 * call_timer_fn()) arms another timer on that CPU: the expiry is awaited
 */
static void sw_mirror_expiry_survives_an_interrupt_between(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	unsigned long expires = SW_MT_J0 + 10;

	sw_mt_start(t, 0, 0, SW_MT_J0, expires);
	sw_mt_cancel(t, 0, 0, expires + 1);
	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 1, 0, expires + 1, expires + 50), SW_MC_ARM);
	KUNIT_EXPECT_EQ(test, t->recs[SW_MT_RECS - 1].state, (u8)SW_REC_DUE_DETACHED);
	sw_mt_expect(test, t, 2, 0, 0, 2, 0);
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 0, 0, expires + 1, expires + 1), SW_MC_EXPIRE);
	sw_mt_expect(test, t, 2, 0, 1, 1, 0);
}

/* A due timer cancelled (del_timer() racing the softirq): after the grace, a cancel */
static void sw_mirror_due_cancel_without_expiry_is_a_cancel(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	unsigned long expires = SW_MT_J0 + 10;

	sw_mt_start(t, 0, 0, SW_MT_J0, expires);
	sw_mt_cancel(t, 0, 0, expires + 3);
	sw_mt_start(t, 1, 0, expires + 3, expires + 50);
	KUNIT_EXPECT_TRUE(test, sw_mirror_advance(&t->m, expires + 3 + t->m.grace - 1));
	sw_mt_expect(test, t, 2, 0, 0, 2, 0);
	KUNIT_EXPECT_TRUE(test, sw_mirror_advance(&t->m, expires + 3 + t->m.grace));
	sw_mt_expect(test, t, 2, 1, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, t->m.counts.cancelled_due, 1UL);
	/* A cancel whose CPU goes quiet is settled by the grace as well */
	sw_mt_cancel(t, 1, 3, expires + 10);
	sw_mirror_advance(&t->m, expires + 10 + t->m.grace);
	sw_mt_expect(test, t, 2, 2, 0, 0, 0);
	KUNIT_EXPECT_NULL(test, t->slots[3]);
}

/*
 * Another CPU re-arms the timer between its detach and its callback
 * (mod_timer() of a running timer stays on its base): the new lifetime
 * takes a record of its own, and the expire_entry, the detaching CPU's
 * next event, ends the old one
 */
static void sw_mirror_rearm_before_expire_entry_keeps_both(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	unsigned long expires = SW_MT_J0 + 10, b = expires + 1;

	sw_mt_start(t, 0, 0, SW_MT_J0, expires);
	sw_mt_cancel(t, 0, 0, b);
	KUNIT_EXPECT_EQ(test, sw_mt_start_on(t, 0, 2, 0, b, b + 20), SW_MC_ARM);
	/* Two lifetimes of one timer: the old one is not decided yet */
	sw_mt_expect(test, t, 2, 0, 0, 2, 0);
	KUNIT_EXPECT_FALSE(test, t->out.expired);
	KUNIT_EXPECT_TRUE(test, t->out.placed);
	KUNIT_EXPECT_EQ(test, t->out.wheel[t->m.kernel_wheel].expires, b + 20);
	KUNIT_EXPECT_FALSE(test, t->out.diff[SW_DIFF_EXPIRY].compared);
	/* Its expire_entry decides the old lifetime: an expiry */
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 0, 0, b, b), SW_MC_EXPIRE_REARMED);
	sw_mt_expect(test, t, 2, 0, 1, 1, 0);
	KUNIT_EXPECT_TRUE(test, t->out.expired);
	KUNIT_EXPECT_EQ(test, t->out.wheel[t->m.kernel_wheel].lateness, 1L);
	KUNIT_EXPECT_FALSE(test, t->out.placed);
	KUNIT_EXPECT_TRUE(test, t->out.diff[SW_DIFF_EXPIRY].compared);
	KUNIT_EXPECT_EQ(test, t->out.diff[SW_DIFF_EXPIRY].reason, SW_DIFF_MATCH);
	KUNIT_EXPECT_EQ(test, t->m.diff.count[SW_DIFF_EXPIRY][SW_DIFF_MATCH], 1UL);
	KUNIT_EXPECT_EQ(test, t->m.counts.expired_remote, 0UL);
	/* The new lifetime's own expiry */
	sw_mt_cancel(t, 0, 0, b + 21);
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 0, 0, b + 21, b + 21), SW_MC_EXPIRE);
	sw_mt_expect(test, t, 2, 0, 2, 0, 0);
	KUNIT_EXPECT_EQ(test, t->m.diff.count[SW_DIFF_EXPIRY][SW_DIFF_MATCH], 2UL);
	KUNIT_EXPECT_EQ(test, t->m.wheels[t->m.kernel_wheel].lat[0].count, 2UL);
	KUNIT_EXPECT_EQ(test, t->m.counts.expired_remote, 0UL);
}

/*
 * The same after an interrupt on the detaching CPU: the expire_entry
 * finds the lifetime that waits for it, not the newer one
 */
static void sw_mirror_rearm_and_interrupt_before_expire_entry(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	unsigned long expires = SW_MT_J0 + 10, b = expires + 1;

	sw_mt_start(t, 0, 0, SW_MT_J0, expires);
	sw_mt_cancel(t, 0, 0, b);
	sw_mt_start(t, 1, 0, b, b + 50);
	KUNIT_EXPECT_EQ(test, sw_mt_start_on(t, 0, 2, 0, b, b + 20), SW_MC_ARM);
	sw_mt_expect(test, t, 3, 0, 0, 3, 0);
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 0, 0, b, b), SW_MC_EXPIRE_REARMED);
	sw_mt_expect(test, t, 3, 0, 1, 2, 0);
	/* The new lifetime is the one a cancel and a start act on */
	KUNIT_EXPECT_EQ(test, sw_mt_cancel(t, 0, 2, b + 1), SW_MC_CANCEL);
	KUNIT_EXPECT_EQ(test, sw_mt_start_on(t, 0, 2, 0, b + 1, b + 30), SW_MC_REARM);
	sw_mt_expect(test, t, 3, 0, 1, 2, 0);
}

/*
 * debian-6.1-disk.dat, a thread in schedule_timeout(1) that moves between
 * CPUs (process_timeout): CPU 0 takes the timer off CPU 1's base with
 * del_timer() after its tick came, before CPU 1's softirq ran it, and
 * the thread arms it again on CPU 1 before CPU 0's next timer event. 6.1
 * runs a base only on its own CPU: no expiry, let alone a remote one.
 */
static void sw_mirror_del_timer_of_another_base_is_a_cancel(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	unsigned long j = SW_MT_J0;

	sw_mt_start(t, 0, 1, j, j + 1);
	KUNIT_EXPECT_EQ(test, sw_mt_cancel(t, 0, 0, j + 3), SW_MC_CANCEL);
	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 0, 1, j + 3, j + 4), SW_MC_ARM);
	/* CPU 0's next event, not the timer's expire_entry (jbd2's commit timer) */
	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 1, 0, j + 3, j + 1319), SW_MC_ARM);
	sw_mt_cancel(t, 0, 0, j + 4);
	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 0, 0, j + 4, j + 5), SW_MC_MIGRATE);
	/* No expire_entry within the grace: a cancel of a due timer */
	sw_mirror_advance(&t->m, j + 3 + t->m.grace);
	sw_mt_expect(test, t, 3, 1, 0, 2, 0);
	KUNIT_EXPECT_EQ(test, t->m.counts.cancelled_due, 1UL);
	KUNIT_EXPECT_EQ(test, t->m.counts.expired_remote, 0UL);
}

/*
 * timers_dead_cpu() moves the timers of a CPU gone offline onto the
 * current CPU's base with their expiries: a cancel and a start of the
 * same expiry, which the kernel places again from the new base's clock.
 * A timer placed at level 1 well before moves to level 0 when it is near;
 * the mirror's wheels place it again too, and the kernel's wheel runs it
 * on the kernel's tick.
 */
static void sw_mirror_migrated_timer_is_placed_again(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	unsigned long expires = SW_MT_J0 + 125, now = expires - 13;
	unsigned int kernel_lvl;

	sw_mt_start(t, 0, 2, SW_MT_J0, expires);
	KUNIT_EXPECT_EQ(test, t->out.wheel[t->m.kernel_wheel].lvl, 1);
	sw_mt_cancel(t, 0, 0, now);
	KUNIT_EXPECT_EQ(test, sw_mt_start_on(t, 0, 0, 0, now, expires), SW_MC_MIGRATE);
	kernel_lvl = sw_idx_level(&t->m.wheels[t->m.kernel_wheel].base.geo,
				  sw_mt_kidx(t, expires, now));
	KUNIT_EXPECT_EQ(test, kernel_lvl, 0U);
	KUNIT_EXPECT_EQ(test, t->out.wheel[t->m.kernel_wheel].lvl, kernel_lvl);
	KUNIT_EXPECT_EQ(test, t->out.diff[SW_DIFF_PLACEMENT].reason, SW_DIFF_MATCH);
	/* The kernel runs level 0's bucket on the tick after the expiry */
	sw_mt_cancel(t, 0, 0, expires + 1);
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 0, 0, expires + 1, expires + 1), SW_MC_EXPIRE);
	KUNIT_EXPECT_EQ(test, t->out.diff[SW_DIFF_EXPIRY].reason, SW_DIFF_MATCH);
	KUNIT_EXPECT_EQ(test, t->m.diff.count[SW_DIFF_EXPIRY][SW_DIFF_UNEXPLAINED], 0UL);
	sw_mt_expect(test, t, 1, 0, 1, 0, 0);
}

/* 6.12: a global timer of an idle CPU run by another (timer_expire_remote()) */
static void sw_mirror_remote_expiry_is_counted(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);

	sw_mt_start(t, 0, 2, SW_MT_J0, SW_MT_J0 + 10);
	sw_mt_cancel(t, 0, 1, SW_MT_J0 + 11);
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 0, 1, SW_MT_J0 + 11, SW_MT_J0 + 11), SW_MC_EXPIRE);
	sw_mt_expect(test, t, 1, 0, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, t->m.counts.expired_remote, 1UL);
}

/*
 * A remote expiry re-armed before its callback ran is remote, told by its
 * expire_entry: a del_timer() of a due timer from another CPU, followed
 * there by a start, is no expiry at all
 */
static void sw_mirror_remote_expiry_is_told_by_its_expire_entry(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	unsigned long expires = SW_MT_J0 + 10, b = expires + 1;

	/* 6.1: the cancel from CPU 1 was a del_timer() */
	sw_mt_start(t, 0, 0, SW_MT_J0, expires);
	sw_mt_cancel(t, 0, 1, b);
	sw_mt_start(t, 1, 1, b, b + 50);
	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 0, 1, b, b + 20), SW_MC_ARM);
	sw_mt_expect(test, t, 3, 0, 0, 3, 0);
	sw_mirror_advance(&t->m, b + t->m.grace);
	sw_mt_expect(test, t, 3, 1, 0, 2, 0);
	KUNIT_EXPECT_EQ(test, t->m.counts.expired_remote, 0UL);

	/* 6.12: CPU 1 runs CPU 0's timer, CPU 2 re-arms it (on base 0) meanwhile */
	b += t->m.grace;
	sw_mt_start(t, 2, 0, b, b + 10);
	sw_mt_cancel(t, 2, 1, b + 11);
	KUNIT_EXPECT_EQ(test, sw_mt_start_on(t, 2, 2, 0, b + 11, b + 40), SW_MC_ARM);
	KUNIT_EXPECT_EQ(test, t->m.counts.expired_remote, 0UL);
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 2, 1, b + 11, b + 11), SW_MC_EXPIRE_REARMED);
	KUNIT_EXPECT_EQ(test, t->m.counts.expired_remote, 1UL);
	KUNIT_EXPECT_EQ(test, t->m.counts.events[SW_MC_EXPIRE_REARMED], 1UL);
}

/* Events of timers armed before the mirror started are not counted in its lifetimes */
static void sw_mirror_unknown_timers_are_untracked(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);

	KUNIT_EXPECT_EQ(test, sw_mt_cancel(t, 5, 0, SW_MT_J0), SW_MC_UNTRACKED);
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 5, 0, SW_MT_J0, SW_MT_J0), SW_MC_UNTRACKED);
	/* A requeue of one: its cancel is untracked, its start a new lifetime */
	sw_mt_cancel(t, 6, 1, SW_MT_J0);
	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 6, 1, SW_MT_J0, SW_MT_J0 + 5), SW_MC_ARM);
	sw_mt_expect(test, t, 1, 0, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, t->m.counts.events[SW_MC_UNTRACKED], 3UL);
}

/* With no record left a start is dropped, counted, and the mirror stays consistent */
static void sw_mirror_drops_when_out_of_records(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, 2);
	unsigned int w;

	sw_mt_start(t, 0, 0, SW_MT_J0, SW_MT_J0 + 10);
	sw_mt_start(t, 1, 0, SW_MT_J0, SW_MT_J0 + 10);
	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 2, 0, SW_MT_J0, SW_MT_J0 + 10), SW_MC_DROPPED);
	sw_mt_expect(test, t, 3, 0, 0, 2, 1);
	for (w = 0; w < t->m.nr_wheels; w++)
		KUNIT_EXPECT_EQ(test, t->m.wheels[w].base.nr_pending, 2UL);
	/* Its later events are untracked; a freed record serves the next start */
	KUNIT_EXPECT_EQ(test, sw_mt_cancel(t, 2, 0, SW_MT_J0 + 1), SW_MC_UNTRACKED);
	sw_mt_cancel(t, 0, 0, SW_MT_J0 + 1);
	sw_mt_cancel(t, 1, 1, SW_MT_J0 + 1);
	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 3, 0, SW_MT_J0 + 1, SW_MT_J0 + 10), SW_MC_ARM);
	sw_mt_expect(test, t, 4, 1, 0, 2, 1);
}

/*
 * A caller with many records gives the mirror a table sized to them: a
 * list per record, never fewer than the mirror's own has. The records in
 * use are looked up there, and only there, through every kind of event.
 */
static void sw_mirror_hash_sized_to_its_records(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	unsigned int bits = sw_mirror_hash_bits(2000), i, in_table = 0;
	struct hlist_head *table;
	struct sw_mirror_rec *r;

	KUNIT_EXPECT_EQ(test, sw_mirror_hash_bits(1), (unsigned int)SW_MIRROR_HASH_BITS);
	KUNIT_EXPECT_EQ(test, sw_mirror_hash_bits(1UL << SW_MIRROR_HASH_BITS),
			(unsigned int)SW_MIRROR_HASH_BITS);
	KUNIT_EXPECT_EQ(test, sw_mirror_hash_bits((1UL << SW_MIRROR_HASH_BITS) + 1),
			SW_MIRROR_HASH_BITS + 1U);
	KUNIT_EXPECT_EQ(test, sw_mirror_hash_bits(1UL << 20), 20U);
	KUNIT_EXPECT_EQ(test, bits, 11U);

	table = kunit_kcalloc(test, 1UL << bits, sizeof(*table), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, table);
	sw_mirror_set_hash(&t->m, table, bits);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, sw_mt_start(t, i, 0, SW_MT_J0, SW_MT_J0 + (i ? 30 : 10)),
				SW_MC_ARM);
	/* Timer 0 runs, timer 1 is requeued, timer 2 cancelled */
	sw_mt_cancel(t, 0, 0, SW_MT_J0 + 11);
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 0, 0, SW_MT_J0 + 11, SW_MT_J0 + 11), SW_MC_EXPIRE);
	sw_mt_cancel(t, 1, 1, SW_MT_J0 + 11);
	KUNIT_EXPECT_EQ(test, sw_mt_start_on(t, 1, 1, 0, SW_MT_J0 + 11, SW_MT_J0 + 20),
			SW_MC_REARM);
	sw_mt_cancel(t, 2, 2, SW_MT_J0 + 11);
	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 4, 2, SW_MT_J0 + 11, SW_MT_J0 + 20), SW_MC_ARM);
	sw_mt_expect(test, t, 5, 1, 1, 3, 0);
	for (i = 0; i < 1U << bits; i++) {
		hlist_for_each_entry(r, &table[i], hash)
			in_table++;
	}
	KUNIT_EXPECT_EQ(test, in_table, 3U);
	for (i = 0; i < ARRAY_SIZE(t->m.own_hash); i++)
		KUNIT_EXPECT_TRUE(test, hlist_empty(&t->m.own_hash[i]));
}

/*
 * Passive wheels run their ticks as jiffies pass and mark the timers
 * they would have run; the kernel's expiry still closes the lifetime,
 * and the lateness is the wheel's tick against the kernel's expiry
 */
static void sw_mirror_wheels_run_as_jiffies_pass(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 1000, SW_MT_J0, SW_MT_RECS);
	unsigned long expires = SW_MT_J0 + 3000;	/* 3 s, level 2 at HZ=1000 */
	unsigned int w;

	sw_mt_start(t, 0, 0, SW_MT_J0, expires);
	/* Past the last granule of every wheel; the classic ones tick one by one */
	while (!sw_mirror_advance(&t->m, expires + 1000))
		KUNIT_ASSERT_TRUE(test, sw_mirror_consistent(&t->m));
	KUNIT_EXPECT_TRUE(test, sw_mirror_consistent(&t->m));
	for (w = 0; w < t->m.nr_wheels; w++) {
		struct sw_mirror_wheel *wh = &t->m.wheels[w];

		/* Every wheel's tick for it has passed: run, once, at one due tick */
		KUNIT_EXPECT_EQ_MSG(test, wh->counts.ran_ahead, 1UL, "wheel %u", w);
		KUNIT_EXPECT_EQ(test, wh->counts.due_ticks, 1UL);
		KUNIT_EXPECT_EQ(test, wh->base.nr_pending, 0UL);
		KUNIT_EXPECT_EQ(test, wh->base.clk, sw_hz_clock(&wh->hz, expires + 1000));
	}
	sw_mt_cancel(t, 0, 0, expires + 1000);
	sw_mt_expire(t, 0, 0, expires + 1000, (expires | 63) + 1);
	sw_mt_expect(test, t, 1, 0, 1, 0, 0);
	for (w = 0; w < t->m.nr_wheels; w++) {
		struct sw_mirror_wheel *wh = &t->m.wheels[w];
		const struct sw_mirror_lateness *lat = &wh->lat[t->recs[SW_MT_RECS - 1].lvl[w]];
		long gran = wh->base.geo.exact ? 0 :
			    sw_lvl_gran(&wh->base.geo, t->recs[SW_MT_RECS - 1].lvl[w]);

		KUNIT_EXPECT_EQ(test, lat->count, 1UL);
		/* Never early; late by up to the level's granularity (classic: on time) */
		KUNIT_EXPECT_GE_MSG(test, lat->min, gran ? 1L : 0L, "wheel %u", w);
		KUNIT_EXPECT_LE_MSG(test, lat->max, gran, "wheel %u", w);
	}
}

/*
 * A busy tick is one a wheel would run timers at, whoever gets there
 * first: two real timers the kernel at HZ=1000 runs a jiffy apart fall on
 * one tick of the HZ=100 wheels, which have not reached it when the
 * kernel's expiries come; that tick counts once
 */
static void sw_mirror_busy_ticks_count_the_kernels_expiries_too(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 1000, SW_MT_J0, SW_MT_RECS);
	unsigned int w, nr_100 = 0;

	sw_mt_start(t, 0, 0, SW_MT_J0, SW_MT_J0 + 11);
	sw_mt_start(t, 1, 0, SW_MT_J0, SW_MT_J0 + 12);
	sw_mt_cancel(t, 0, 0, SW_MT_J0 + 12);
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 0, 0, SW_MT_J0 + 12, SW_MT_J0 + 12), SW_MC_EXPIRE);
	sw_mt_cancel(t, 1, 0, SW_MT_J0 + 13);
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 1, 0, SW_MT_J0 + 13, SW_MT_J0 + 13), SW_MC_EXPIRE);
	sw_mt_expect(test, t, 2, 0, 2, 0, 0);
	for (w = 0; w < t->m.nr_wheels; w++) {
		struct sw_mirror_wheel *wh = &t->m.wheels[w];

		if (wh->hz.vhz != 100)
			continue;
		nr_100++;
		KUNIT_EXPECT_EQ_MSG(test, wh->counts.ran_ahead, 0UL, "wheel %u", w);
		KUNIT_EXPECT_EQ_MSG(test, wh->counts.due_ticks, 1UL, "wheel %u", w);
	}
	KUNIT_EXPECT_EQ(test, nr_100, 3U);
	/* The kernel's own wheel: two ticks, J0 + 12 and J0 + 13 */
	KUNIT_EXPECT_EQ(test, t->m.wheels[t->m.kernel_wheel].counts.due_ticks, 2UL);
}

/* A work budget per event: a wheel left behind catches up later */
static void sw_mirror_catches_up_within_a_budget(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 100, SW_MT_J0, SW_MT_RECS);
	unsigned int w, rounds = 0;

	t->m.budget = 4;
	/* A far timer keeps the classic wheels ticking one tick at a time */
	sw_mt_start(t, 0, 0, SW_MT_J0, SW_MT_J0 + 5000);
	KUNIT_EXPECT_FALSE(test, sw_mirror_advance(&t->m, SW_MT_J0 + 1000));
	for (w = 0; w < t->m.nr_wheels; w++) {
		if (t->m.wheels[w].base.geo.kind == SW_WHEEL_CLASSIC)
			KUNIT_EXPECT_EQ(test, t->m.wheels[w].counts.behind, 1UL);
	}
	KUNIT_EXPECT_TRUE(test, sw_mirror_consistent(&t->m));
	while (!sw_mirror_advance(&t->m, SW_MT_J0 + 1000))
		KUNIT_ASSERT_LT(test, ++rounds, 10000U);
	/* 1000 ticks at HZ 100 and 10000 at HZ 1000, four a call */
	KUNIT_EXPECT_GE(test, rounds, 2000U);
	for (w = 0; w < t->m.nr_wheels; w++)
		KUNIT_EXPECT_EQ(test, t->m.wheels[w].base.clk,
				sw_hz_clock(&t->m.wheels[w].hz, SW_MT_J0 + 1000));
}

/* Clamped (mainline) and parked (seed) placements are counted per wheel */
static void sw_mirror_counts_clamped_and_parked(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 1000, SW_MT_J0, SW_MT_RECS);
	unsigned int w;

	/* 20 days: beyond mainline's range at 1000, beyond seed's everywhere */
	sw_mt_start(t, 0, 0, SW_MT_J0, SW_MT_J0 + 20UL * 86400 * 1000);
	for (w = 0; w < t->m.nr_wheels; w++) {
		struct sw_mirror_wheel *wh = &t->m.wheels[w];
		enum sw_wheel_kind kind = wh->base.geo.kind;
		/* Mainline's range is 12 days at 1000, 49 at 250, 15 at 100 */
		bool clamp = kind == SW_WHEEL_MAINLINE && wh->hz.vhz != 250;

		KUNIT_EXPECT_EQ_MSG(test, wh->counts.clamped, (unsigned long)clamp, "wheel %u", w);
		KUNIT_EXPECT_EQ_MSG(test, wh->counts.parked, (unsigned long)(kind == SW_WHEEL_SEED),
				    "wheel %u", w);
		/* The outcome says it of the event, as the wheel marked it */
		KUNIT_EXPECT_EQ_MSG(test, t->out.wheel[w].how,
				    clamp ? SW_TIMER_CLAMPED :
				    kind == SW_WHEEL_SEED ? SW_TIMER_PARKED : 0, "wheel %u", w);
		KUNIT_EXPECT_EQ_MSG(test, t->out.wheel[w].lvl, wh->base.geo.depth - 1,
				    "wheel %u", w);
	}
}

/* The clocks wrap: 32-bit jiffies wrap five minutes after boot */
static void sw_mirror_events_across_the_wrap(struct kunit *test)
{
	unsigned long j = ULONG_MAX - 20, tick = ((j + 700) | 63) + 1;
	struct sw_mt *t = sw_mt_new(test, 250, j, SW_MT_RECS);
	struct sw_mirror_wheel *kw = &t->m.wheels[t->m.kernel_wheel];

	sw_mt_start(t, 0, 0, j, j + 30);
	sw_mt_start(t, 1, 0, j, j + 700);
	sw_mt_cancel(t, 0, 0, j + 31);
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 0, 0, j + 31, j + 31), SW_MC_EXPIRE);
	KUNIT_EXPECT_EQ(test, kw->lat[0].max, 1L);
	/* Level 2: the next multiple of 64 after the expiry, past the wrap */
	KUNIT_EXPECT_LT(test, tick, 1000UL);
	sw_mt_cancel(t, 1, 0, tick);
	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 1, 0, tick, tick), SW_MC_EXPIRE);
	sw_mt_expect(test, t, 2, 0, 2, 0, 0);
	KUNIT_EXPECT_EQ(test, t->m.diff.count[SW_DIFF_PLACEMENT][SW_DIFF_MATCH], 2UL);
	KUNIT_EXPECT_EQ(test, t->m.diff.count[SW_DIFF_EXPIRY][SW_DIFF_MATCH], 2UL);
	KUNIT_EXPECT_EQ(test, kw->lat[2].count, 1UL);
	KUNIT_EXPECT_EQ(test, kw->base.clk, tick + 1);
}

/* What an event did to its own timer, for the caller's accounting by timer */
static void sw_mirror_outcome_is_the_events_own_timer(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	struct sw_mirror_rec *rec = &t->recs[SW_MT_RECS - 1];
	unsigned long expires = SW_MT_J0 + 10;
	unsigned int w, kw = t->m.kernel_wheel;
	struct sw_mirror_outcome *out = &t->out;

	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 0, 0, SW_MT_J0, expires), SW_MC_ARM);
	KUNIT_EXPECT_TRUE(test, out->placed);
	KUNIT_EXPECT_FALSE(test, out->expired);
	/* Each wheel's placement, as the wheel holds it */
	for (w = 0; w < sw_mirror_nr_wheels(&t->m); w++) {
		const struct sw_mirror_wheel *wh = &t->m.wheels[w];

		KUNIT_EXPECT_EQ(test, out->wheel[w].lvl, rec->lvl[w]);
		KUNIT_EXPECT_EQ(test, out->wheel[w].idx, rec->ent[w].idx);
		KUNIT_EXPECT_EQ(test, out->wheel[w].tick, rec->ent[w].bucket_expiry);
		KUNIT_EXPECT_EQ(test, out->wheel[w].expires, rec->ent[w].expires);
		KUNIT_EXPECT_EQ(test, out->wheel[w].clk, wh->base.clk);
		KUNIT_EXPECT_EQ(test, out->wheel[w].how, 0U);
		KUNIT_EXPECT_EQ(test, out->wheel[w].overdue, 0UL);
		KUNIT_EXPECT_EQ(test, out->wheel[w].gran,
				(u32)sw_lvl_expiry_gran(&wh->base.geo, rec->lvl[w]));
	}
	/* Level 0 of mainline at 250: the kernel's tick, its bucket, a match */
	KUNIT_EXPECT_EQ(test, out->wheel[kw].tick, expires + 1);
	KUNIT_EXPECT_TRUE(test, out->kernel.has_idx);
	KUNIT_EXPECT_FALSE(test, out->kernel.has_bucket);
	KUNIT_EXPECT_EQ(test, out->kernel.idx, sw_mt_kidx(t, expires, SW_MT_J0));
	KUNIT_EXPECT_TRUE(test, out->has_ktick);
	KUNIT_EXPECT_EQ(test, out->ktick, expires + 1);
	KUNIT_EXPECT_TRUE(test, out->diff[SW_DIFF_PLACEMENT].compared);
	KUNIT_EXPECT_EQ(test, out->diff[SW_DIFF_PLACEMENT].reason, SW_DIFF_MATCH);
	KUNIT_EXPECT_FALSE(test, out->diff[SW_DIFF_EXPIRY].compared);

	KUNIT_EXPECT_EQ(test, sw_mt_cancel(t, 0, 0, expires + 1), SW_MC_CANCEL);
	KUNIT_EXPECT_FALSE(test, out->placed);
	KUNIT_EXPECT_FALSE(test, out->expired);
	KUNIT_EXPECT_FALSE(test, out->diff[SW_DIFF_PLACEMENT].compared);
	KUNIT_EXPECT_FALSE(test, out->diff[SW_DIFF_EXPIRY].compared);

	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 0, 0, expires + 1, expires + 1), SW_MC_EXPIRE);
	KUNIT_EXPECT_FALSE(test, out->placed);
	KUNIT_EXPECT_TRUE(test, out->expired);
	KUNIT_EXPECT_EQ(test, out->wheel[kw].lateness, 1L);
	KUNIT_EXPECT_TRUE(test, out->diff[SW_DIFF_EXPIRY].compared);
	KUNIT_EXPECT_EQ(test, out->diff[SW_DIFF_EXPIRY].reason, SW_DIFF_MATCH);
	/* One timer in all: each wheel's lateness is the one it recorded */
	for (w = 0; w < t->m.nr_wheels; w++) {
		const struct sw_mirror_lateness *lat = &t->m.wheels[w].lat[rec->lvl[w]];

		KUNIT_EXPECT_EQ(test, lat->count, 1UL);
		KUNIT_EXPECT_EQ(test, out->wheel[w].lateness, lat->max);
	}

	/* Timer 1's held cancel, settled by timer 2's start, is not timer 2's outcome */
	sw_mt_start(t, 1, 1, expires + 2, expires + 100);
	sw_mt_cancel(t, 1, 1, expires + 3);
	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 2, 1, expires + 4, expires + 40), SW_MC_ARM);
	KUNIT_EXPECT_TRUE(test, out->placed);
	KUNIT_EXPECT_FALSE(test, out->expired);
	KUNIT_EXPECT_EQ(test, out->wheel[kw].expires, expires + 40);
	sw_mt_expect(test, t, 3, 1, 1, 1, 0);

	/* An expiry already past: each wheel runs it at its next tick */
	KUNIT_EXPECT_EQ(test, sw_mt_start(t, 3, 0, expires + 50, expires + 45), SW_MC_ARM);
	for (w = 0; w < t->m.nr_wheels; w++) {
		const struct sw_mirror_wheel_outcome *o = &out->wheel[w];

		KUNIT_EXPECT_EQ(test, o->how, SW_TIMER_OVERDUE);
		KUNIT_EXPECT_EQ(test, o->tick, o->clk);
		KUNIT_EXPECT_EQ(test, o->overdue, o->clk - o->expires);
		KUNIT_EXPECT_GT(test, o->overdue, 0UL);
	}
	KUNIT_EXPECT_EQ(test, out->wheel[kw].overdue, 5UL);
}

/* Nothing the mirror knows of: a class and nothing else */
static void sw_mirror_outcome_of_an_untracked_event_is_its_class(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);

	KUNIT_EXPECT_EQ(test, sw_mt_expire(t, 0, 0, SW_MT_J0 + 3, SW_MT_J0 + 3), SW_MC_UNTRACKED);
	KUNIT_EXPECT_FALSE(test, t->out.placed);
	KUNIT_EXPECT_FALSE(test, t->out.expired);
	KUNIT_EXPECT_FALSE(test, t->out.has_ktick);
	KUNIT_EXPECT_FALSE(test, t->out.diff[SW_DIFF_PLACEMENT].compared);
	KUNIT_EXPECT_FALSE(test, t->out.diff[SW_DIFF_EXPIRY].compared);
	/* A caller that does not want the outcome passes none */
	KUNIT_EXPECT_EQ(test, sw_mirror_handle_event(&t->m, &(struct sw_mirror_event){
				.type = SW_EV_CANCEL, .timer = &t->timers[0],
				.now = SW_MT_J0 + 3 }, NULL), SW_MC_UNTRACKED);
}

/*
 * mod_timer() to another expiry in the same bucket emits no event: the
 * expire_entry shows the new expiry. The wheels were told the old one;
 * the expiry is counted as silently modified and each wheel's lateness
 * stays against what it was told, so within its contract
 */
static void sw_mirror_silent_modify_is_counted(struct kunit *test)
{
	struct sw_mt *t = sw_mt_new(test, 250, SW_MT_J0, SW_MT_RECS);
	struct sw_mirror_wheel *kw = &t->m.wheels[t->m.kernel_wheel];
	unsigned long expires = SW_MT_J0 + 100;	/* level 1 at HZ=250: 8 ticks a bucket */
	unsigned long tick = (expires | 7) + 1;
	struct sw_mirror_event ev = {
		.type = SW_EV_EXPIRE,
		.timer = &t->timers[0],
		.now = tick,
		.baseclk = tick,
		.expires = expires - 3,
		.have = SW_EVF_EXPIRES,
	};
	unsigned int w;

	sw_mt_start(t, 0, 0, SW_MT_J0, expires);
	KUNIT_EXPECT_EQ(test, t->recs[SW_MT_RECS - 1].lvl[t->m.kernel_wheel], 1);
	sw_mt_cancel(t, 0, 0, tick);
	KUNIT_EXPECT_EQ(test, sw_mt_event(t, &ev), SW_MC_EXPIRE);
	sw_mt_expect(test, t, 1, 0, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, t->m.counts.silently_modified, 1UL);
	KUNIT_EXPECT_EQ(test, kw->lat[1].max, (long)(tick - expires));
	for (w = 0; w < t->m.nr_wheels; w++) {
		const struct sw_mirror_wheel *wh = &t->m.wheels[w];
		unsigned int lvl = t->recs[SW_MT_RECS - 1].lvl[w];

		KUNIT_EXPECT_EQ_MSG(test, wh->lat[lvl].hist[0], 0UL, "wheel %u early", w);
		KUNIT_EXPECT_LE_MSG(test, wh->lat[lvl].max,
				    (long)sw_lvl_expiry_gran(&wh->base.geo, lvl), "wheel %u", w);
	}
}

/* A bin's top bounds what it holds, and the bin below holds less */
static void sw_mirror_lat_bin_top_bounds_its_bin(struct kunit *test)
{
	long lateness;

	for (lateness = -5; lateness < 100000; lateness++) {
		unsigned int bin = sw_mirror_lat_bin(lateness);

		KUNIT_ASSERT_GE(test, sw_mirror_lat_bin_top(bin), lateness);
		if (bin)
			KUNIT_ASSERT_LT(test, sw_mirror_lat_bin_top(bin - 1), lateness);
	}
	KUNIT_EXPECT_EQ(test, sw_mirror_lat_bin_top(SW_MIRROR_LAT_BINS - 1), LONG_MAX);
	KUNIT_EXPECT_EQ(test, sw_mirror_lat_bin(LONG_MAX), SW_MIRROR_LAT_BINS - 1);
}

SW_TEST_SUITE(sw_mirror_events_suite, "shadow_wheel_mirror_events",
	      KUNIT_CASE(sw_mirror_start_arms_in_every_wheel),
	      KUNIT_CASE(sw_mirror_cancel_then_start_is_a_requeue),
	      KUNIT_CASE(sw_mirror_requeue_onto_another_base_is_a_migration),
	      KUNIT_CASE(sw_mirror_cancel_then_anything_else_is_a_cancel),
	      KUNIT_CASE(sw_mirror_cancel_then_expire_entry_is_an_expiry),
	      KUNIT_CASE(sw_mirror_expiry_survives_an_interrupt_between),
	      KUNIT_CASE(sw_mirror_due_cancel_without_expiry_is_a_cancel),
	      KUNIT_CASE(sw_mirror_rearm_before_expire_entry_keeps_both),
	      KUNIT_CASE(sw_mirror_rearm_and_interrupt_before_expire_entry),
	      KUNIT_CASE(sw_mirror_del_timer_of_another_base_is_a_cancel),
	      KUNIT_CASE(sw_mirror_migrated_timer_is_placed_again),
	      KUNIT_CASE(sw_mirror_remote_expiry_is_told_by_its_expire_entry),
	      KUNIT_CASE(sw_mirror_remote_expiry_is_counted),
	      KUNIT_CASE(sw_mirror_unknown_timers_are_untracked),
	      KUNIT_CASE(sw_mirror_drops_when_out_of_records),
	      KUNIT_CASE(sw_mirror_hash_sized_to_its_records),
	      KUNIT_CASE(sw_mirror_wheels_run_as_jiffies_pass),
	      KUNIT_CASE(sw_mirror_busy_ticks_count_the_kernels_expiries_too),
	      KUNIT_CASE(sw_mirror_catches_up_within_a_budget),
	      KUNIT_CASE(sw_mirror_counts_clamped_and_parked),
	      KUNIT_CASE(sw_mirror_events_across_the_wrap),
	      KUNIT_CASE(sw_mirror_outcome_is_the_events_own_timer),
	      KUNIT_CASE(sw_mirror_outcome_of_an_untracked_event_is_its_class),
	      KUNIT_CASE(sw_mirror_silent_modify_is_counted),
	      KUNIT_CASE(sw_mirror_lat_bin_top_bounds_its_bin));

/*
 * Suite shadow_wheel_mirror_diff: each reason is a kernel behaviour,
 * shown by the clock the kernel placed the timer from
 */

static struct sw_geometry *sw_md_geo(struct kunit *test, unsigned int hz)
{
	struct sw_geometry *geo = kunit_kzalloc(test, sizeof(*geo), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, geo);
	KUNIT_ASSERT_EQ(test, sw_geometry_init(geo, SW_WHEEL_MAINLINE, hz), 0);
	return geo;
}

/* The kernel's placement of @expires from base clock @clk, as 6.1 (idx) or 6.12 also says */
static void sw_md_kernel(const struct sw_geometry *geo, unsigned long clk, unsigned long expires,
			 bool v612, struct sw_diff_kernel *k)
{
	struct sw_place place;

	sw_wheel_place(geo, clk, expires, 0, &place);
	k->idx = place.idx;
	k->has_idx = true;
	k->bucket_expiry = place.bucket_expiry;
	k->has_bucket = v612;
}

static void sw_diff_reasons_name_the_clock(struct kunit *test)
{
	struct sw_geometry *geo = sw_md_geo(test, 250);
	const unsigned long j = 1000000;
	struct sw_diff_kernel k;
	unsigned int v612;

	for (v612 = 0; v612 <= 1; v612++) {
		/* Delta 63 from jiffies: level 1; from one tick later, level 0 */
		unsigned long e = j + 63;

		sw_md_kernel(geo, j, e, v612, &k);
		KUNIT_EXPECT_EQ(test, sw_diff_placement(geo, e, 0, j, j, &k), SW_DIFF_MATCH);
		/* The mirror's wheel had run tick j for another base */
		KUNIT_EXPECT_EQ(test, sw_diff_placement(geo, e, 0, j, j + 1, &k),
				SW_DIFF_CLK_AT_JIFFIES);
		/* The real base had run tick j: base->clk is j + 1 */
		sw_md_kernel(geo, j + 1, e, v612, &k);
		KUNIT_EXPECT_EQ(test, sw_diff_placement(geo, e, 0, j, j, &k), SW_DIFF_CLK_AHEAD);
		/* The mirror's wheel had not caught up: 504 from j - 1 is level 2 */
		e = j + 503;
		sw_md_kernel(geo, j, e, v612, &k);
		KUNIT_EXPECT_EQ(test, sw_diff_placement(geo, e, 0, j, j - 1, &k),
				SW_DIFF_MIRROR_BEHIND);
		/* The real base lagged: 40 ticks behind puts it a level up */
		e = j + 480;
		sw_md_kernel(geo, j - 40, e, v612, &k);
		KUNIT_EXPECT_EQ(test, sw_diff_placement(geo, e, 0, j, j, &k), SW_DIFF_CLK_BEHIND);
		/* Overdue from a lagging base: its bucket is named by that base's clock */
		sw_md_kernel(geo, j - 7, j - 20, v612, &k);
		KUNIT_EXPECT_EQ(test, sw_diff_placement(geo, j - 20, 0, j, j, &k),
				SW_DIFF_CLK_BEHIND);
		/* Nothing any clock explains: a level-2 bucket for an expiry in the past */
		k.idx = 130;
		k.bucket_expiry = j + 12345;
		KUNIT_EXPECT_EQ(test, sw_diff_placement(geo, j - 20, 0, j, j, &k),
				SW_DIFF_UNEXPLAINED);
	}
}

/* Deferrable timers: the kernel's own base numbers its buckets from 0 */
static void sw_diff_deferrable_compares_within_its_half(struct kunit *test)
{
	struct sw_geometry *geo = sw_md_geo(test, 1000);
	struct sw_diff_kernel k;

	sw_md_kernel(geo, 500, 900, true, &k);
	KUNIT_EXPECT_EQ(test, sw_diff_placement(geo, 900, SW_TIMER_DEFERRABLE, 500, 500, &k),
			SW_DIFF_MATCH);
}

static void sw_diff_expiry_follows_placement(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sw_diff_expiry(100, 100, SW_DIFF_CLK_BEHIND), SW_DIFF_MATCH);
	KUNIT_EXPECT_EQ(test, sw_diff_expiry(100, 104, SW_DIFF_CLK_BEHIND), SW_DIFF_PLACED_APART);
	KUNIT_EXPECT_EQ(test, sw_diff_expiry(100, 104, SW_DIFF_MATCH), SW_DIFF_UNEXPLAINED);
}

/* The kernel's tick: said by 6.12, derived from 6.1's bucket index */
static void sw_diff_kernel_tick_from_the_index(struct kunit *test)
{
	struct sw_geometry *geo = sw_md_geo(test, 250);
	static const long deltas[] = { 0, 1, 62, 63, 500, 4031, 4032, 100000, 132120575 };
	unsigned long j = ULONG_MAX - 5000, tick;
	struct sw_diff_kernel k;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(deltas); i++) {
		sw_md_kernel(geo, j, j + deltas[i], false, &k);
		KUNIT_EXPECT_TRUE(test, sw_diff_kernel_tick(geo, &k, j + deltas[i], j, &tick));
		KUNIT_EXPECT_EQ_MSG(test, tick, k.bucket_expiry, "delta %ld", deltas[i]);
	}
	/* Overdue: the tick is the clock it was placed from, at most jiffies + 1 */
	sw_md_kernel(geo, j + 1, j - 300, false, &k);
	KUNIT_EXPECT_TRUE(test, sw_diff_kernel_tick(geo, &k, j - 300, j, &tick));
	KUNIT_EXPECT_EQ(test, tick, j + 1);
	k.has_idx = false;
	KUNIT_EXPECT_FALSE(test, sw_diff_kernel_tick(geo, &k, j - 300, j, &tick));
}

/* Every comparison is counted; the first mismatches are kept with their data */
static void sw_diff_keeps_the_first_mismatches(struct kunit *test)
{
	struct sw_diff *diff = kunit_kzalloc(test, sizeof(*diff), GFP_KERNEL);
	struct sw_diff_entry e = { .what = SW_DIFF_PLACEMENT };
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, diff);
	for (i = 0; i < 3 * SW_DIFF_KEEP; i++) {
		e.reason = i % 3 ? SW_DIFF_MATCH : SW_DIFF_CLK_AHEAD;
		e.expires = i;
		sw_diff_record(diff, &e);
	}
	KUNIT_EXPECT_EQ(test, diff->count[SW_DIFF_PLACEMENT][SW_DIFF_MATCH], 2UL * SW_DIFF_KEEP);
	KUNIT_EXPECT_EQ(test, diff->count[SW_DIFF_PLACEMENT][SW_DIFF_CLK_AHEAD],
			(unsigned long)SW_DIFF_KEEP);
	KUNIT_EXPECT_EQ(test, diff->nr_kept, (unsigned int)SW_DIFF_KEEP);
	for (i = 0; i < SW_DIFF_KEEP; i++)
		KUNIT_EXPECT_EQ(test, diff->kept[i].expires, 3UL * i);
	KUNIT_EXPECT_STREQ(test, sw_diff_reason_name(SW_DIFF_CLK_AHEAD), "clk_ahead");
}

/*
 * Past the first mismatches, an unexplained one takes the place of the
 * latest explained one: every unexplained mismatch up to the limit is
 * kept, in order, whatever came before it
 */
static void sw_diff_keeps_the_unexplained_before_the_explained(struct kunit *test)
{
	struct sw_diff *diff = kunit_kzalloc(test, sizeof(*diff), GFP_KERNEL);
	struct sw_diff_entry e = { .what = SW_DIFF_EXPIRY };
	unsigned int i, nr_unexplained = SW_DIFF_KEEP / 2;

	KUNIT_ASSERT_NOT_NULL(test, diff);
	for (i = 0; i < 4 * SW_DIFF_KEEP; i++) {
		e.reason = SW_DIFF_CLK_BEHIND;
		e.expires = i;
		sw_diff_record(diff, &e);
	}
	for (i = 0; i < 2 * SW_DIFF_KEEP; i++) {
		e.reason = i % 4 ? SW_DIFF_CLK_AHEAD : SW_DIFF_UNEXPLAINED;
		e.expires = 1000 + i;
		sw_diff_record(diff, &e);
	}
	KUNIT_EXPECT_EQ(test, diff->count[SW_DIFF_EXPIRY][SW_DIFF_UNEXPLAINED],
			(unsigned long)nr_unexplained);
	KUNIT_ASSERT_EQ(test, diff->nr_kept, (unsigned int)SW_DIFF_KEEP);
	/* The earliest explained ones stay, then every unexplained one in order */
	for (i = 0; i < SW_DIFF_KEEP - nr_unexplained; i++) {
		KUNIT_EXPECT_EQ(test, diff->kept[i].reason, (u8)SW_DIFF_CLK_BEHIND);
		KUNIT_EXPECT_EQ(test, diff->kept[i].expires, (unsigned long)i);
	}
	for (; i < SW_DIFF_KEEP; i++) {
		unsigned int nth = i - (SW_DIFF_KEEP - nr_unexplained);

		KUNIT_EXPECT_EQ(test, diff->kept[i].reason, (u8)SW_DIFF_UNEXPLAINED);
		KUNIT_EXPECT_EQ(test, diff->kept[i].expires, 1000UL + 4 * nth);
	}
	/* Full of unexplained ones: the first are kept, the later counted only */
	e.reason = SW_DIFF_UNEXPLAINED;
	e.expires = 5000;
	for (i = 0; i < SW_DIFF_KEEP; i++)
		sw_diff_record(diff, &e);
	KUNIT_EXPECT_EQ(test, diff->kept[0].reason, (u8)SW_DIFF_UNEXPLAINED);
	KUNIT_EXPECT_EQ(test, diff->kept[0].expires, 1000UL);
	KUNIT_EXPECT_EQ(test, diff->kept[SW_DIFF_KEEP - 1].expires, 5000UL);
}

SW_TEST_SUITE(sw_mirror_diff_suite, "shadow_wheel_mirror_diff",
	      KUNIT_CASE(sw_diff_reasons_name_the_clock),
	      KUNIT_CASE(sw_diff_deferrable_compares_within_its_half),
	      KUNIT_CASE(sw_diff_expiry_follows_placement),
	      KUNIT_CASE(sw_diff_kernel_tick_from_the_index),
	      KUNIT_CASE(sw_diff_keeps_the_first_mismatches),
	      KUNIT_CASE(sw_diff_keeps_the_unexplained_before_the_explained));

kunit_test_suites(&sw_mirror_setup_suite, &sw_mirror_events_suite, &sw_mirror_diff_suite);
