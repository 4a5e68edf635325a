// SPDX-License-Identifier: GPL-2.0
/*
 * What the shadow-wheel KUnit suites share; see sw_test_common.h.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "sw_test_common.h"

static const struct sw_test_param sw_test_named[] = {
	{ SW_WHEEL_SEED, 100 },
	{ SW_WHEEL_SEED, 250 },
	{ SW_WHEEL_SEED, 1000 },
	{ SW_WHEEL_MAINLINE, 100 },
	{ SW_WHEEL_MAINLINE, 250 },
	{ SW_WHEEL_MAINLINE, 1000 },
	/* Only with classic: HZ changes nothing for it */
	{ SW_WHEEL_CLASSIC, 250 },
};

/*
 * The grid: the named wheels at the other HZ, then every shape of bits 4
 * to 6, shift 2 to 4 and depth 6 to 9, with either rule; the HZ goes
 * round its five values with the shape (only the start clock,
 * INITIAL_JIFFIES, depends on it). Filled in by sw_test_grid_fill().
 */
static const unsigned int sw_test_grid_hz[] = { 24, 100, 300, 1000, 1200 };

#define SW_TEST_GRID_NAMED	6
#define SW_TEST_GRID_SHAPES	(2 * 3 * 3 * 4)

static struct sw_test_param sw_test_grid[SW_TEST_GRID_NAMED + SW_TEST_GRID_SHAPES];

/* Fill in the grid, the same every time: before a generator's first parameter */
static void sw_test_grid_fill(void)
{
	static const unsigned int named_hz[] = { 24, 300, 1200 };
	struct sw_test_param *p = sw_test_grid;
	unsigned int kind, bits, shift, depth, i, turn;

	for (kind = SW_WHEEL_SEED; kind <= SW_WHEEL_MAINLINE; kind++) {
		for (i = 0; i < ARRAY_SIZE(named_hz); i++)
			*p++ = (struct sw_test_param){ .kind = kind, .hz = named_hz[i] };
	}
	for (kind = SW_WHEEL_SEED; kind <= SW_WHEEL_MAINLINE; kind++)
		for (bits = 4; bits <= 6; bits++)
			for (shift = 2; shift <= 4; shift++)
				for (depth = 6; depth <= 9; depth++) {
					turn = kind + bits + shift + depth;
					*p++ = (struct sw_test_param){
						.kind = kind,
						.hz = sw_test_grid_hz[turn %
								      ARRAY_SIZE(sw_test_grid_hz)],
						.bits = bits,
						.shift = shift,
						.depth = depth,
					};
				}
}

/* The grid's sample: every SW_TEST_GRID_STEP-th entry */
#define SW_TEST_GRID_STEP	11

/**
 * sw_test_spec - the spec of a grid shape, for sw_geometry_parse()
 * @param:	a shape of the grid
 * @buf:	gets it
 * @size:	room at @buf
 *
 * Written here from the parameters, not by sw_geometry_format().
 *
 * Return: its length, as snprintf() returns it.
 */
int sw_test_spec(const struct sw_test_param *param, char *buf, size_t size)
{
	return snprintf(buf, size, "bits=%u,shift=%u,depth=%u,hz=%u,%s", param->bits,
			param->shift, param->depth, param->hz,
			param->kind == SW_WHEEL_SEED ? "cascade" : "clamp");
}

static void sw_test_param_desc(const struct sw_test_param *param, char *desc)
{
	if (param->bits)
		sw_test_spec(param, desc, KUNIT_PARAM_DESC_SIZE);
	else
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s-hz%u",
			 sw_wheel_kind_name(param->kind), param->hz);
}

/*
 * The parameters of a generator, one after the other: the named wheels,
 * classic last and only if @classic, then every @step-th shape of the
 * grid (0: none). The @n-th of them, or NULL past the last:
 */
static const struct sw_test_param *sw_test_nth(size_t n, bool classic, unsigned int step)
{
	size_t nr_named = ARRAY_SIZE(sw_test_named) - !classic;

	if (n < nr_named)
		return &sw_test_named[n];
	n = (n - nr_named) * step;
	return step && n < ARRAY_SIZE(sw_test_grid) ? &sw_test_grid[n] : NULL;
}

static const void *sw_test_gen(const void *prev, char *desc, bool classic, unsigned int step)
{
	size_t nr_named = ARRAY_SIZE(sw_test_named) - !classic, n = 0;
	const struct sw_test_param *next;

	if (!prev)
		sw_test_grid_fill();
	/* Where @prev is, by equality: pointers into two arrays do not compare */
	if (prev) {
		while (n < nr_named && prev != &sw_test_named[n])
			n++;
		if (n == nr_named)
			n += ((const struct sw_test_param *)prev - sw_test_grid) / step;
		n++;
	}
	next = sw_test_nth(n, classic, step);
	if (next)
		sw_test_param_desc(next, desc);
	return next;
}

const void *sw_test_gen_params(const void *prev, char *desc)
{
	return sw_test_gen(prev, desc, false, 0);
}

const void *sw_test_gen_all_params(const void *prev, char *desc)
{
	return sw_test_gen(prev, desc, true, 0);
}

const void *sw_test_gen_grid_params(const void *prev, char *desc)
{
	return sw_test_gen(prev, desc, false, 1);
}

const void *sw_test_gen_grid_all_params(const void *prev, char *desc)
{
	return sw_test_gen(prev, desc, true, 1);
}

const void *sw_test_gen_grid_sample_params(const void *prev, char *desc)
{
	return sw_test_gen(prev, desc, true, SW_TEST_GRID_STEP);
}

unsigned long sw_test_clock(const struct sw_test_param *param, unsigned int i)
{
	switch (i) {
	case 0:
		return 0;
	case 1:
		/* The kernel's INITIAL_JIFFIES at this HZ: 5 minutes before the wrap of 32 bits */
		return (unsigned long)(unsigned int)(-300 * (int)param->hz);
	case 2:
		return ULONG_MAX - 100;
	default:
		/* Misaligned for every level, far enough from the wrap to cross it mid-level */
		return ULONG_MAX - (1UL << 20) + 3;
	}
}

/* A new wheel of @param's geometry, its clock at @clk, freed with the test */
struct sw_base *sw_test_new_base_of(struct kunit *test, const struct sw_test_param *param,
				    unsigned long clk)
{
	char spec[SW_SPEC_MAX], err[SW_SPEC_ERR_MAX] = "";
	struct sw_geometry geo;
	struct sw_base *base;

	if (param->bits) {
		sw_test_spec(param, spec, sizeof(spec));
		KUNIT_ASSERT_EQ_MSG(test, sw_geometry_parse(&geo, spec, 250, err, sizeof(err)), 0,
				    "%s: %s", spec, err);
	} else {
		KUNIT_ASSERT_EQ(test, sw_geometry_init(&geo, param->kind, param->hz), 0);
	}
	base = kunit_kzalloc(test, sizeof(*base), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, base);
	sw_base_init(base, &geo, clk);
	return base;
}

/* The same, of the geometry the test case runs for */
struct sw_base *sw_test_new_base(struct kunit *test, unsigned long clk)
{
	return sw_test_new_base_of(test, test->param_value, clk);
}

/* @n timers, not deferrable, that have not run */
struct sw_test_timer *sw_test_timers(struct kunit *test, unsigned int n)
{
	struct sw_test_timer *t = kunit_kcalloc(test, n, sizeof(*t), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < n; i++)
		sw_timer_init(&t[i].timer, 0);
	return t;
}

/*
 * What a &struct sw_test_timer does when it runs: note the tick; @arg, if
 * not NULL, counts the non-deferrable timers run
 */
void sw_test_record(struct sw_timer *timer, unsigned long clk, void *arg)
{
	unsigned int *non_deferrable = arg;
	struct sw_test_timer *t = container_of(timer, struct sw_test_timer, timer);

	t->expired_at = clk;
	t->expired++;
	if (non_deferrable && !(timer->flags & SW_TIMER_DEFERRABLE))
		(*non_deferrable)++;
}

/* What a caller's stack may hold before a struct is filled in */
#define SW_TEST_POISON		0x6b

/**
 * sw_test_run_tick_by_tick - run a wheel a tick at a time
 * @base:	the wheel, its timers &struct sw_test_timer
 * @end:	the last tick to process
 * @seen:	if not NULL, shown each tick before its timers run
 * @arg:	passed to @seen
 *
 * Each tick is collected into a fresh sw_tick filled with garbage, as a
 * stack that is not zeroed leaves it: the core must not read it.
 *
 * Return: the timers the ticks placed again (cascaded).
 */
unsigned long sw_test_run_tick_by_tick(struct sw_base *base, unsigned long end,
				       void (*seen)(const struct sw_tick *tick, void *arg),
				       void *arg)
{
	unsigned long cascaded = 0;

	for (;;) {
		struct sw_tick tick;
		struct sw_timer *timer;

		memset(&tick, SW_TEST_POISON, sizeof(tick));
		if (!sw_collect_tick(base, end, &tick))
			break;
		if (seen)
			seen(&tick, arg);
		cascaded += tick.cascaded;
		while ((timer = sw_tick_pop(&tick)))
			sw_test_record(timer, tick.clk, NULL);
	}
	return cascaded;
}

/*
 * The brute force: the first tick a pending non-deferrable timer of @t
 * runs at, from @clk, by the tick the wheel keeps for each (which the
 * callers hold to the contract when they arm them)
 */
bool sw_test_brute_next(const struct sw_test_timer *t, unsigned int n, unsigned long clk,
			unsigned long *next)
{
	bool found = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		unsigned long run_at = t[i].timer.bucket_expiry;

		if (!sw_timer_pending(&t[i].timer) || (t[i].timer.flags & SW_TIMER_DEFERRABLE))
			continue;
		if (!found || run_at - clk < *next - clk)
			*next = run_at;
		found = true;
	}
	return found;
}

/* LVL_START(n) of each geometry, from the tables; the last entry is the cutoff */
static const unsigned long sw_test_seed_start[] = {
	0, 31, 248, 1984, 15872, 126976, 1015808, 8126464, 65011712,
};

static const unsigned long sw_test_mainline_start[] = {
	0, 63, 504, 4032, 32256, 258048, 2064384, 16515072, 132120576, 1056964608,
};

static const unsigned long sw_test_classic_start[] = {
	0, 256, 16384, 1048576, 67108864, 4294967296UL,
};

unsigned int sw_test_bits(const struct sw_test_param *param)
{
	if (param->bits)
		return param->bits;
	return param->kind == SW_WHEEL_SEED ? 5 : 6;
}

unsigned int sw_test_shift(const struct sw_test_param *param)
{
	return param->bits ? param->shift : 3;
}

unsigned int sw_test_depth(const struct sw_test_param *param)
{
	if (param->bits)
		return param->depth;
	if (param->kind == SW_WHEEL_SEED)
		return 8;
	if (param->kind == SW_WHEEL_CLASSIC)
		return 5;
	return param->hz > 100 ? 9 : 8;
}

unsigned long sw_test_lvl_start(const struct sw_test_param *param, unsigned int lvl)
{
	/* A grid shape: a level takes LVL_SIZE - 1 buckets' worth of the one below's */
	if (param->bits)
		return lvl ? ((1UL << param->bits) - 1) << (param->shift * (lvl - 1)) : 0;
	if (param->kind == SW_WHEEL_SEED)
		return sw_test_seed_start[lvl];
	if (param->kind == SW_WHEEL_CLASSIC)
		return sw_test_classic_start[lvl];
	return sw_test_mainline_start[lvl];
}

unsigned long sw_test_gran(const struct sw_test_param *param, unsigned int lvl)
{
	static const unsigned long gran[] = {
		1, 8, 64, 512, 4096, 32768, 262144, 2097152, 16777216,
	};

	if (param->bits)
		return 1UL << (param->shift * lvl);
	return gran[lvl];
}

/* The ticks the last level takes to come round to a bucket again */
unsigned long sw_test_revolution(const struct sw_test_param *param)
{
	return sw_test_gran(param, sw_test_depth(param) - 1) << sw_test_bits(param);
}

unsigned long sw_test_cutoff(const struct sw_test_param *param)
{
	return sw_test_lvl_start(param, sw_test_depth(param));
}

unsigned long sw_test_timeout_max(const struct sw_test_param *param)
{
	return sw_test_cutoff(param) - sw_test_gran(param, sw_test_depth(param) - 1);
}

unsigned int sw_test_level(const struct sw_test_param *param, unsigned long delta)
{
	unsigned int lvl = sw_test_depth(param) - 1;

	while (delta < sw_test_lvl_start(param, lvl))
		lvl--;
	return lvl;
}

void sw_test_expect(const struct sw_test_param *param, unsigned long clk,
		    unsigned long expires, struct sw_test_expect *exp)
{
	unsigned long delta = expires - clk;
	unsigned long gran;

	exp->clamped = false;
	exp->parked = false;
	if ((long)delta < 0) {
		exp->level = 0;
		exp->run_at = clk;
		return;
	}
	if (param->kind == SW_WHEEL_CLASSIC) {
		/* Exact, also beyond the range: such timers cascade until in it */
		exp->level = sw_test_level(param, delta);
		exp->run_at = expires;
		return;
	}
	exp->level = sw_test_level(param, delta);
	if (param->kind == SW_WHEEL_MAINLINE && delta >= sw_test_cutoff(param)) {
		exp->clamped = true;
		expires = clk + sw_test_timeout_max(param);
	}
	exp->parked = param->kind == SW_WHEEL_SEED && delta >= sw_test_cutoff(param);
	/* The first multiple of the granularity strictly after the expiry */
	gran = sw_test_gran(param, exp->level);
	exp->run_at = expires - expires % gran + gran;
}

/*
 * The tick a wheel whose clock is @clk must next look at a timer the
 * contract runs at @exp->run_at: that tick, or for a seed timer parked
 * beyond the range (at the last level), the first tick from @clk on that
 * is a whole number of the last level's revolutions before it.
 */
unsigned long sw_test_look_at(const struct sw_test_param *param, unsigned long clk,
			      const struct sw_test_expect *exp)
{
	if (param->kind != SW_WHEEL_SEED || exp->level != sw_test_depth(param) - 1)
		return exp->run_at;
	return clk + (exp->run_at - clk) % sw_test_revolution(param);
}

/* The classic wheel's table: each level's first bucket, and the log2 of its width */
static const unsigned int sw_test_classic_first[] = { 0, 256, 320, 384, 448 };
static const unsigned int sw_test_classic_shift[] = { 0, 8, 14, 20, 26 };

/* The bucket of level @lvl of the classic wheel whose span holds tick @at */
unsigned int sw_test_classic_bucket(unsigned int lvl, unsigned long at)
{
	return sw_test_classic_first[lvl] +
	       ((at >> sw_test_classic_shift[lvl]) & (lvl ? 63 : 255));
}

/*
 * The bucket the contract puts a timer in, as &sw_timer.idx. On the
 * non-cascading wheels the one of its level that comes due at its run
 * tick, in the deferrable half of the arrays if @deferrable; on the
 * classic wheel the one whose span holds its expiry (placed as if
 * 2^32 - 1 ticks away when farther), deferrable or not.
 */
unsigned int sw_test_bucket(const struct sw_test_param *param, unsigned long clk,
			    const struct sw_test_expect *exp, bool deferrable)
{
	unsigned long at = exp->run_at, max;
	unsigned int lvl = exp->level, bits;

	if (param->kind == SW_WHEEL_CLASSIC) {
		max = sw_test_cutoff(param) - 1;
		if (at - clk > max)
			at = clk + max;
		return sw_test_classic_bucket(lvl, at);
	}
	bits = sw_test_bits(param);
	return (deferrable ? SW_DEFERRABLE_OFFSET : 0) + (lvl << bits) +
	       ((at / sw_test_gran(param, lvl)) & ((1U << bits) - 1));
}
