/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the shadow-wheel KUnit suites share: the parameters (geometry x HZ),
 * the clocks each test starts from, and the contract of the wheel written
 * down independently of the core: for the named wheels from the tables in
 * core/wheel/sw_wheel.c, for the grid of other shapes from their
 * parameters.
 */
#ifndef _SHADOW_WHEEL_SW_TEST_COMMON_H
#define _SHADOW_WHEEL_SW_TEST_COMMON_H

#include <kunit/test.h>

#include "sw_wheel.h"

/*
 * Define @suite, the suite named @suite_name of the cases given (KUNIT_CASE()
 * and KUNIT_CASE_PARAM() entries), for kunit_test_suites(): the cases'
 * array, its end and the suite written once.
 */
#define SW_TEST_SUITE(suite, suite_name, ...)				\
	static struct kunit_case suite##_cases[] = { __VA_ARGS__, {} };	\
	static struct kunit_suite suite = {				\
		.name = suite_name,					\
		.test_cases = suite##_cases,				\
	}

/**
 * struct sw_test_param - a wheel a case runs for
 * @kind:	a named wheel; for a shape of the grid, the wheel whose rule
 *		beyond the last level it follows (seed: cascade, mainline:
 *		clamp)
 * @hz:		its tick rate
 * @bits:	a shape of the grid: buckets per level (log2); 0 for a named
 *		wheel, whose shape is tabled
 * @shift:	a shape of the grid: the level clock shift
 * @depth:	a shape of the grid: levels
 */
struct sw_test_param {
	enum sw_wheel_kind	kind;
	unsigned int		hz;
	unsigned int		bits;
	unsigned int		shift;
	unsigned int		depth;
};

/*
 * Seed and mainline at HZ 100, 250 and 1000; with classic too (all); with
 * the grid too (grid): seed and mainline at HZ 24, 300 and 1200, and the
 * other shapes, bits 4 to 6 x shift 2 to 4 x depth 6 to 9 x either rule,
 * each at one of HZ 24, 100, 300, 1000 and 1200 in turn; grid_sample:
 * every 11th entry of the grid.
 */
const void *sw_test_gen_params(const void *prev, char *desc);
const void *sw_test_gen_all_params(const void *prev, char *desc);
const void *sw_test_gen_grid_params(const void *prev, char *desc);
const void *sw_test_gen_grid_all_params(const void *prev, char *desc);
const void *sw_test_gen_grid_sample_params(const void *prev, char *desc);
int sw_test_spec(const struct sw_test_param *param, char *buf, size_t size);

/*
 * The random-operation suites (shadow_wheel_model, shadow_wheel_next_cache,
 * shadow_wheel_mirror_model) run all their operations everywhere but on a
 * kernel built with KASAN, the debug kernel: there they run one in
 * %SW_TEST_KASAN_SHARE, the same paths checked for memory errors and lock
 * misuse, where each operation costs some ten times more under QEMU. The
 * full count runs on every other kernel of the matrix and in user space,
 * under the sanitizers and valgrind (docs/testing.rst).
 */
#ifdef CONFIG_KASAN
#define SW_TEST_KASAN_SHARE	8
#else
#define SW_TEST_KASAN_SHARE	1
#endif

/* How many of @n operations a random-operation suite runs on this kernel */
static inline unsigned long sw_test_ops(unsigned long n)
{
	return n / SW_TEST_KASAN_SHARE;
}

/* The clocks a wheel is started at: 0, INITIAL_JIFFIES, and at the wrap */
#define SW_TEST_NR_CLOCKS	4
unsigned long sw_test_clock(const struct sw_test_param *param, unsigned int i);

struct sw_base *sw_test_new_base(struct kunit *test, unsigned long clk);
struct sw_base *sw_test_new_base_of(struct kunit *test, const struct sw_test_param *param,
				    unsigned long clk);

/**
 * struct sw_test_timer - a timer that records when it ran, sw_test_record()
 * @timer:	the wheel's
 * @expires:	where a test keeps what it armed the timer for
 * @expired_at:	the tick it last ran at
 * @expired:	how many times it ran
 */
struct sw_test_timer {
	struct sw_timer	timer;
	unsigned long	expires;
	unsigned long	expired_at;
	unsigned int	expired;
};

struct sw_test_timer *sw_test_timers(struct kunit *test, unsigned int n);
void sw_test_record(struct sw_timer *timer, unsigned long clk, void *arg);
unsigned long sw_test_run_tick_by_tick(struct sw_base *base, unsigned long end,
				       void (*seen)(const struct sw_tick *tick, void *arg),
				       void *arg);
bool sw_test_brute_next(const struct sw_test_timer *t, unsigned int n, unsigned long clk,
			unsigned long *next);

/* The expected geometry, as tabled, or from the grid's parameters */
unsigned int sw_test_bits(const struct sw_test_param *param);
unsigned int sw_test_shift(const struct sw_test_param *param);
unsigned int sw_test_depth(const struct sw_test_param *param);
unsigned long sw_test_lvl_start(const struct sw_test_param *param, unsigned int lvl);
unsigned long sw_test_gran(const struct sw_test_param *param, unsigned int lvl);
unsigned long sw_test_revolution(const struct sw_test_param *param);
unsigned long sw_test_cutoff(const struct sw_test_param *param);
unsigned long sw_test_timeout_max(const struct sw_test_param *param);
unsigned int sw_test_level(const struct sw_test_param *param, unsigned long delta);

/**
 * struct sw_test_expect - where the contract puts a timer
 * @level:	level it is placed at
 * @clamped:	mainline only: expiry was beyond the range and clamped
 * @parked:	seed only: expiry was beyond the range, the timer waits in
 *		the last level
 * @run_at:	the tick at which the wheel runs it (classic: exactly the
 *		expiry, and @level is only where it starts)
 */
struct sw_test_expect {
	unsigned int	level;
	bool		clamped;
	bool		parked;
	unsigned long	run_at;
};

void sw_test_expect(const struct sw_test_param *param, unsigned long clk,
		    unsigned long expires, struct sw_test_expect *exp);
unsigned long sw_test_look_at(const struct sw_test_param *param, unsigned long clk,
			      const struct sw_test_expect *exp);
unsigned int sw_test_bucket(const struct sw_test_param *param, unsigned long clk,
			    const struct sw_test_expect *exp, bool deferrable);
unsigned int sw_test_classic_bucket(unsigned int lvl, unsigned long at);

#endif
