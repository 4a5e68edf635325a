// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite shadow_wheel_model: the wheel against a plain reference.
 *
 * The reference keeps its pending timers in a list sorted by the tick the
 * contract says each one runs at, and runs them by walking that list. A
 * fixed-seed random sequence of arm, modify, cancel and run operations is
 * applied to both; every timer must run on exactly the tick the reference
 * runs it on, every modify and cancel must report what the reference
 * expects, and the wheel's next expiry, found from its bitmap (or by the
 * classic wheel's scan), must be the reference's minimum over the
 * non-deferrable timers.
 *
 * The classic wheel processes every tick while it holds timers, so its
 * timers and runs reach less far: 2^25 and 2^16 ticks instead of 2^34
 * and 2^28; its far levels are covered by shadow_wheel_classic.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "sw_test_common.h"

#define SW_MODEL_TIMERS		512
#define SW_MODEL_OPS		100000
#define SW_MODEL_MAX_REARMS	3
#define SW_MODEL_LOG		(SW_MODEL_TIMERS * (SW_MODEL_MAX_REARMS + 1))

struct sw_model_timer {
	struct sw_timer		timer;		/* the wheel's */
	/* The reference's view of the same timer */
	struct list_head	node;
	bool			pending;
	bool			deferrable;
	unsigned long		expires;
	struct sw_test_expect	exp;		/* its level and run tick */
	unsigned int		rearms;		/* re-arms left, as the reference counts */
	unsigned int		wheel_rearms;	/* the same, as the callback counts */
	unsigned int		id;
};

struct sw_model_fired {
	unsigned long	clk;
	unsigned int	id;
};

struct sw_model {
	struct kunit			*test;
	const struct sw_test_param	*param;
	struct sw_base			*base;
	struct sw_model_timer		*timers;
	struct list_head		pending;	/* by run_at, then id */
	unsigned long			clk;		/* next tick the reference runs */
	unsigned long			origin;		/* run_at - origin orders the list */
	struct sw_model_fired		*log;		/* what the wheel ran */
	unsigned int			nr_log;
	struct rnd_state		rnd;
};

/* The delta a timer re-arms itself with from its callback run at @clk */
static unsigned long sw_model_rearm_delta(unsigned int id, unsigned long clk)
{
	return (id * 2654435761UL + clk) % 300;
}

static bool sw_model_before(struct sw_model *m, struct sw_model_timer *a,
			    struct sw_model_timer *b)
{
	if (a->exp.run_at != b->exp.run_at)
		return a->exp.run_at - m->origin < b->exp.run_at - m->origin;
	return a->id < b->id;
}

/* The reference: arm @mt for @expires relative to its own clock */
static void sw_model_arm(struct sw_model *m, struct sw_model_timer *mt, unsigned long expires)
{
	struct sw_model_timer *pos;

	if (mt->pending)
		list_del(&mt->node);
	sw_test_expect(m->param, m->clk, expires, &mt->exp);
	mt->pending = true;
	mt->expires = expires;

	list_for_each_entry(pos, &m->pending, node) {
		if (sw_model_before(m, mt, pos)) {
			list_add_tail(&mt->node, &pos->node);
			return;
		}
	}
	list_add_tail(&mt->node, &m->pending);
}

static void sw_model_expired(struct sw_timer *timer, unsigned long clk, void *arg)
{
	struct sw_model_timer *mt = container_of(timer, struct sw_model_timer, timer);
	struct sw_model *m = arg;

	KUNIT_ASSERT_LT(m->test, m->nr_log, SW_MODEL_LOG);
	m->log[m->nr_log].clk = clk;
	m->log[m->nr_log].id = mt->id;
	m->nr_log++;
	/* The reference re-arms it the same way when it replays this tick */
	if (mt->wheel_rearms) {
		mt->wheel_rearms--;
		sw_modify(m->base, timer, clk + 1 + sw_model_rearm_delta(mt->id, clk));
	}
}

static int sw_model_cmp_fired(const void *a, const void *b)
{
	const struct sw_model_fired *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Run the wheel to @now, then replay the reference tick by tick and compare:
 * the same timers on the same ticks, none missing, none extra.
 */
static void sw_model_run(struct sw_model *m, unsigned long now)
{
	struct kunit *test = m->test;
	unsigned int i = 0, first, j;

	/* A long suite under KASAN and TCG: the soft lockup detector's thread runs */
	cond_resched();
	m->nr_log = 0;
	sw_run(m->base, now, sw_model_expired, m);
	KUNIT_ASSERT_EQ(test, m->base->clk, now + 1);

	while (i < m->nr_log) {
		unsigned long clk = m->log[i].clk;

		for (first = i; i < m->nr_log && m->log[i].clk == clk; i++)
			;
		sort(m->log + first, i - first, sizeof(*m->log), sw_model_cmp_fired, NULL);

		for (j = first; j < i; j++) {
			struct sw_model_timer *mt;

			KUNIT_ASSERT_FALSE_MSG(test, list_empty(&m->pending),
					       "wheel ran timer %u at %lu, reference has none",
					       m->log[j].id, clk);
			mt = list_first_entry(&m->pending, struct sw_model_timer, node);
			KUNIT_ASSERT_EQ_MSG(test, mt->exp.run_at, clk, "timer %u", mt->id);
			KUNIT_ASSERT_EQ_MSG(test, mt->id, m->log[j].id, "at tick %lu", clk);
			list_del(&mt->node);
			mt->pending = false;
		}
		/* The tick is over; its callbacks re-armed relative to the next one */
		m->clk = clk + 1;
		for (j = first; j < i; j++) {
			struct sw_model_timer *mt = &m->timers[m->log[j].id];

			if (mt->rearms) {
				mt->rearms--;
				sw_model_arm(m, mt, clk + 1 + sw_model_rearm_delta(mt->id, clk));
			}
		}
	}
	if (!list_empty(&m->pending)) {
		struct sw_model_timer *mt = list_first_entry(&m->pending, struct sw_model_timer,
							     node);

		KUNIT_ASSERT_GT_MSG(test, mt->exp.run_at - m->origin, now - m->origin,
				    "timer %u due at %lu not run by %lu", mt->id, mt->exp.run_at,
				    now);
	}
	m->clk = now + 1;
}

/* When the reference says the wheel must next look at a non-deferrable timer */
static bool sw_model_next_expiry(struct sw_model *m, unsigned long *next)
{
	struct sw_model_timer *mt;
	bool found = false;

	list_for_each_entry(mt, &m->pending, node) {
		/* A seed timer parked beyond the range is looked at once a revolution */
		unsigned long touch = sw_test_look_at(m->param, m->clk, &mt->exp);

		if (mt->deferrable)
			continue;
		if (!found || touch - m->clk < *next - m->clk)
			*next = touch;
		found = true;
	}
	return found;
}

static void sw_model_check_next_expiry(struct sw_model *m)
{
	unsigned long next = 0, ref = 0;
	bool found = sw_next_expiry(m->base, &next);

	KUNIT_ASSERT_EQ(m->test, found, sw_model_next_expiry(m, &ref));
	if (found)
		KUNIT_ASSERT_EQ(m->test, next, ref);
}

static bool sw_model_classic(struct sw_model *m)
{
	return m->param->kind == SW_WHEEL_CLASSIC;
}

static unsigned long sw_model_delta(struct sw_model *m)
{
	u32 r = prandom_u32_state(&m->rnd), v = prandom_u32_state(&m->rnd);
	unsigned int far_bits = sw_model_classic(m) ? 25 : 34;

	/* A cascading wheel of the grid: 2^4 revolutions at most, as in the sweeps */
	if (m->param->bits && m->param->kind == SW_WHEEL_SEED)
		far_bits = min_t(unsigned int, far_bits, ilog2(sw_test_revolution(m->param)) + 4);

	switch (r % 20) {
	case 0 ... 9:			/* near: level 0 and 1 */
		return v % 64;
	case 10 ... 14:
		return v % 4096;
	case 15 ... 17:			/* anywhere in the range, log-uniform */
		return v % (2UL << (r / 20 % 26));
	case 18:			/* beyond the range: cascaded or clamped */
		return (v | (u64)r << 32) % (1UL << far_bits);
	default:			/* already in the past */
		return -(unsigned long)(v % 100) - 1;
	}
}

static void sw_model_modify(struct sw_model *m, struct sw_model_timer *mt)
{
	unsigned long expires = m->clk + sw_model_delta(m);
	enum sw_modify_result expect, got;
	struct sw_test_expect exp;

	if (!mt->pending) {
		expect = SW_MOD_ARMED;
	} else if (mt->expires == expires) {
		expect = SW_MOD_UNCHANGED;
	} else {
		sw_test_expect(m->param, m->clk, expires, &exp);
		expect = exp.run_at == mt->exp.run_at && exp.level == mt->exp.level &&
			 !sw_model_classic(m) ? SW_MOD_SAME_BUCKET : SW_MOD_REQUEUED;
	}

	got = sw_modify(m->base, &mt->timer, expires);
	KUNIT_ASSERT_EQ_MSG(m->test, got, expect, "timer %u", mt->id);
	if (expect == SW_MOD_ARMED) {
		mt->rearms = prandom_u32_state(&m->rnd) % (SW_MODEL_MAX_REARMS + 1);
		mt->wheel_rearms = mt->rearms;
	}
	if (expect != SW_MOD_UNCHANGED)
		sw_model_arm(m, mt, expires);
}

static void sw_model_cancel(struct sw_model *m, struct sw_model_timer *mt)
{
	KUNIT_ASSERT_EQ_MSG(m->test, sw_cancel(m->base, &mt->timer), mt->pending,
			    "timer %u", mt->id);
	if (mt->pending) {
		list_del(&mt->node);
		mt->pending = false;
	}
}

static void sw_model_random_ops_match_reference(struct kunit *test)
{
	const struct sw_test_param *param = test->param_value;
	unsigned int jump_bits = param->kind == SW_WHEEL_CLASSIC ? 16 : 28;
	unsigned int c, op, i;

	/* From INITIAL_JIFFIES, and from just before the wrap of unsigned long */
	for (c = 1; c <= 2; c++) {
		struct sw_model m = {
			.test = test,
			.param = param,
			.clk = sw_test_clock(param, c),
			.origin = sw_test_clock(param, c),
		};

		prandom_seed_state(&m.rnd, 0x5eed + c);
		INIT_LIST_HEAD(&m.pending);
		m.base = sw_test_new_base(test, m.clk);
		m.timers = kunit_kcalloc(test, SW_MODEL_TIMERS, sizeof(*m.timers), GFP_KERNEL);
		m.log = kunit_kcalloc(test, SW_MODEL_LOG, sizeof(*m.log), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, m.timers);
		KUNIT_ASSERT_NOT_NULL(test, m.log);
		for (i = 0; i < SW_MODEL_TIMERS; i++) {
			m.timers[i].id = i;
			m.timers[i].deferrable = !(i % 4);
			sw_timer_init(&m.timers[i].timer, i % 4 ? 0 : SW_TIMER_DEFERRABLE);
		}

		for (op = 0; op < sw_test_ops(SW_MODEL_OPS); op++) {
			u32 r = prandom_u32_state(&m.rnd);
			struct sw_model_timer *mt = &m.timers[(r >> 8) % SW_MODEL_TIMERS];

			switch (r % 100) {
			case 0 ... 44:
				sw_model_modify(&m, mt);
				break;
			case 45 ... 64:
				sw_model_cancel(&m, mt);
				break;
			case 65 ... 94:
				sw_model_run(&m, m.clk + (r >> 20) % 9);
				break;
			case 95 ... 98:
				sw_model_run(&m, m.clk + (r >> 12) % 5000);
				break;
			default:
				sw_model_run(&m, m.clk + (r >> 4) % (1UL << jump_bits));
				break;
			}
			sw_model_check_next_expiry(&m);
		}
		/* Drain: everything left runs, each exactly when the reference says */
		while (!list_empty(&m.pending))
			sw_model_run(&m, list_last_entry(&m.pending, struct sw_model_timer,
							 node)->exp.run_at);
		KUNIT_EXPECT_EQ(test, m.base->nr_pending, 0UL);
	}
}

SW_TEST_SUITE(sw_model_suite, "shadow_wheel_model",
	      KUNIT_CASE_PARAM(sw_model_random_ops_match_reference,
			       sw_test_gen_grid_sample_params));

kunit_test_suites(&sw_model_suite);
