// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile input to every writable debugfs file of the module: control,
 * bench and mirror/enable (docs/ABI/debugfs-shadow-wheel).
 *
 * A grammar-aware fuzzer: commands are made of the documented words, with
 * numbers at, below and past their limits and past 2^64, keys repeated,
 * missing and unknown, separators of every kind, then mutated: a byte
 * changed, a NUL put in, a prefix written alone (a partial write), padding
 * to 256 bytes and past it up to 1 MiB, a buffer that runs into an
 * unmapped page, or random bytes. Before each write a model of the
 * documented grammar, written apart from the module's parser, says which
 * results the write may have; any other is a failure. At checkpoints the
 * state must be what the accepted writes say: armed went up by exactly the
 * counts of the accepted arms (while no run can have armed), the invariant
 * armed = expired + cancelled + pending holds, mirror/enable reads what was
 * last accepted. Then writers in several processes at once, and the files
 * refused to an unprivileged user.
 *
 * Seeded and reproducible: the seed is printed; SWT_FUZZ_SEED=N repeats a
 * run, SWT_FUZZ_WRITES=N sets the number of writes (default 3000; the full
 * run takes 100000, docs/reliability.rst), SWT_FUZZ_TOGGLES=N lets N of
 * them start or stop the mirror (default none: see FZ_TOGGLES_DEFAULT).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/swt_test.h"

#define FZ_WRITES_DEFAULT	3000
#define FZ_HUGE_MAX		1048576		/* the largest write */
#define FZ_CHECK_EVERY		50		/* writes between state checks */
#define FZ_BIG_ARM		10000		/* accepted arms of more are sent rarely */
#define FZ_BIG_ONE_IN		200
#define FZ_FAST_RUN		50000		/* a run faster than this is stopped next */
#define FZ_ARM_MAX		1000000ULL
#define FZ_ALIVE_MAX		4000000ULL
#define FZ_RATE_MAX		1000000ULL
#define FZ_DURATION_MAX		3600ULL
/*
 * Mirror starts and stops made, at most (SWT_FUZZ_TOGGLES; writes that
 * change nothing are not counted): each patches the kernel's timer code,
 * which under multi-threaded TCG can wedge a guest or crash it with an
 * int3 the kernel no longer expects (docs/testing.rst,
 * sw_mirror_toggle_test; docs/reliability.rst). None by default.
 */
#define FZ_TOGGLES_DEFAULT	0
#define FZ_PROCS		4		/* concurrent writers */
#define FZ_MAX_REPORTS		8		/* mismatches printed */
#define FZ_MAX_WORDS		(SWT_CMD_MAX / 2 + 1)
#define FZ_MAX_ERRS		6

enum fz_file { FZ_CONTROL, FZ_BENCH, FZ_ENABLE, FZ_NR_FILES };

static const char * const fz_file_name[FZ_NR_FILES] = { "control", "bench", "mirror/enable" };

/* What the model says a write may do */
enum fz_kind { FZ_K_NONE, FZ_K_ARM, FZ_K_RUN, FZ_K_STOP, FZ_K_RESET, FZ_K_CANCEL_ALL,
	       FZ_K_BENCH, FZ_K_ENABLE };

struct fz_expect {
	int err[FZ_MAX_ERRS];		/* the results allowed: 0 or -errno */
	unsigned int nr;
	enum fz_kind kind;
	u64 count;			/* arm: timers */
	u64 rate;			/* run: timers a second */
	u64 duration;			/* run: seconds */
	bool on;			/* enable: 1 or 0 */
	bool skip;			/* valid but too costly: not sent */
};

/* What the model knows of the module, and what the writes did to it */
struct fz_state {
	unsigned int hz;
	unsigned int nr_cpu_ids;
	bool online[SWT_MAX_CPUS];
	bool concurrent;		/* others write too: less is known */

	bool run_maybe;			/* a run may be going on */
	u64 run_end_ms;			/* when the last run ends by itself */
	bool must_stop;			/* a fast run: stop it next */
	bool exact;			/* armed is known exactly */
	u64 base_armed;			/* armed at the last baseline */
	u64 arms_since;			/* accepted arm counts since then */
	u64 alive_bound;		/* most timers alive now, if !run_maybe */
	bool mirror_on;
	u64 toggles, toggles_max;

	u64 writes, sent, accepted, skipped, checks;
	u64 by_err[5];			/* 0, EINVAL, E2BIG, ENODEV, other */
	u64 mismatches;
	char first[FZ_MAX_REPORTS][512];
};

/* splitmix64: the one source of randomness, from the seed */
static u64 fz_rand(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u64 fz_below(u64 *s, u64 n)
{
	return n ? fz_rand(s) % n : 0;
}

static bool fz_chance(u64 *s, unsigned int percent)
{
	return fz_below(s, 100) < percent;
}

/* A command being made */
struct fz_buf {
	char *p;
	size_t len;
	size_t cap;
};

static void fz_put(struct fz_buf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->len + n > b->cap)
		n = b->cap - b->len;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void __printf(2, 3) fz_putf(struct fz_buf *b, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	fz_put(b, tmp);
}

/* The generator: words of the grammar, then mutations */

static const char * const fz_garbage[] = {
	"", "x", "=", "==", "..", "ms", "-1", "+5", "0x10", "1e3", "1.5", "NaN", "count",
	"delta", "arm", "run", "\xff\xfe", "\xa0", "\r", "\v", "%s%n", "\\0", "00", "\x01",
};

/* A number for a key whose values are lo..hi: at, around and past the limits */
static void fz_number(u64 *s, struct fz_buf *b, u64 lo, u64 hi)
{
	switch (fz_below(s, 18)) {
	case 0:
		fz_putf(b, "%llu", lo);
		break;
	case 1:
		fz_putf(b, "%llu", hi);
		break;
	case 2:
		fz_putf(b, "%llu", hi + 1);
		break;
	case 3:
		fz_putf(b, "%llu", lo ? lo - 1 : 0);
		break;
	case 4:
		fz_put(b, "18446744073709551615");	/* 2^64 - 1 */
		break;
	case 5:
		fz_put(b, "18446744073709551616");	/* 2^64 */
		break;
	case 6:
		fz_put(b, "99999999999999999999999999999999999999");
		break;
	case 7:
		fz_putf(b, "%llu", 1ULL << (fz_below(s, 64)));
		break;
	case 8:
		fz_putf(b, "+%llu", lo + fz_below(s, 10));
		break;
	case 9:
		fz_putf(b, "0%llu", lo + fz_below(s, 10));
		break;
	case 10:
		fz_put(b, fz_garbage[fz_below(s, ARRAY_SIZE(fz_garbage))]);
		break;
	case 11:
		fz_putf(b, "-%llu", fz_below(s, 3));
		break;
	default:
		/* Mostly valid, and small where the range allows */
		fz_putf(b, "%llu", lo + fz_below(s, hi - lo < 100 ? hi - lo + 1 : 100));
		break;
	}
}

static void fz_ticks(u64 *s, struct fz_state *st, struct fz_buf *b, bool ms)
{
	if (ms) {
		fz_number(s, b, 0, (1ULL << 40) * 1000 / st->hz);
		fz_put(b, "ms");
	} else {
		fz_number(s, b, 0, 1ULL << 40);
	}
}

static void fz_delta(u64 *s, struct fz_state *st, struct fz_buf *b)
{
	bool ms = fz_chance(s, 40);

	fz_ticks(s, st, b, ms);
	if (fz_chance(s, 40)) {
		fz_put(b, "..");
		fz_ticks(s, st, b, fz_chance(s, 10) ? !ms : ms);
	}
	if (fz_chance(s, 3))
		fz_put(b, fz_garbage[fz_below(s, ARRAY_SIZE(fz_garbage))]);
}

static void fz_sep(u64 *s, struct fz_buf *b)
{
	static const char * const seps[] = { " ", " ", " ", " ", "\t", "  ", " \t ", "\n",
					     "\r", "\v", "\xa0", "" };

	fz_put(b, seps[fz_below(s, ARRAY_SIZE(seps))]);
}

/* key=value words in a random order, each maybe repeated or left out */
struct fz_word_gen {
	const char *key;		/* NULL: a bare word */
	unsigned int percent;		/* how often it is there */
	void (*value)(u64 *s, struct fz_state *st, struct fz_buf *b, const void *arg);
	const void *arg;
};

struct fz_range {
	u64 lo, hi;
};

static void fz_value_range(u64 *s, struct fz_state *st, struct fz_buf *b, const void *arg)
{
	const struct fz_range *r = arg;

	fz_number(s, b, r->lo, r->hi);
}

static void fz_value_delta(u64 *s, struct fz_state *st, struct fz_buf *b, const void *arg)
{
	fz_delta(s, st, b);
}

static void fz_value_cpu(u64 *s, struct fz_state *st, struct fz_buf *b, const void *arg)
{
	fz_number(s, b, 0, st->nr_cpu_ids - 1);
}

static void fz_value_name(u64 *s, struct fz_state *st, struct fz_buf *b, const void *arg)
{
	const char * const *names = arg;
	unsigned int n = 0;

	while (names[n])
		n++;
	if (fz_chance(s, 85))
		fz_put(b, names[fz_below(s, n)]);
	else
		fz_put(b, fz_garbage[fz_below(s, ARRAY_SIZE(fz_garbage))]);
}

static void fz_words(u64 *s, struct fz_state *st, struct fz_buf *b,
		     const struct fz_word_gen *gen, size_t nr)
{
	unsigned int order[16], n = 0, i, j, t;

	for (i = 0; i < nr && n < ARRAY_SIZE(order) - 1; i++) {
		if (!fz_chance(s, gen[i].percent))
			continue;
		order[n++] = i;
		if (fz_chance(s, 4))
			order[n++] = i;		/* repeated */
	}
	for (i = n; i > 1; i--) {
		j = fz_below(s, i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (i = 0; i < n; i++) {
		const struct fz_word_gen *g = &gen[order[i]];

		fz_sep(s, b);
		fz_put(b, g->key);
		if (!g->value)
			continue;
		if (fz_chance(s, 3))
			continue;		/* the value left out */
		fz_put(b, "=");
		g->value(s, st, b, g->arg);
	}
	if (fz_chance(s, 4)) {
		fz_sep(s, b);
		fz_put(b, fz_chance(s, 50) ? "bogus=1" : "bogus");
	}
}

static const struct fz_range fz_count_range = { 1, FZ_ARM_MAX };
static const struct fz_range fz_pct_range = { 0, 100 };
static const struct fz_range fz_rate_range = { 1, FZ_RATE_MAX };
static const struct fz_range fz_duration_range = { 1, FZ_DURATION_MAX };
static const char * const fz_presets[] = { "net", "io", "poll", "mixed", NULL };

static const struct fz_word_gen fz_arm_words[] = {
	{ "count", 90, fz_value_range, &fz_count_range },
	{ "delta", 90, fz_value_delta, NULL },
	{ "cpu", 25, fz_value_cpu, NULL },
	{ "cancel", 25, fz_value_range, &fz_pct_range },
	{ "deferrable", 20, NULL, NULL },
};

static const struct fz_word_gen fz_run_words[] = {
	{ "preset", 92, fz_value_name, fz_presets },
	{ "rate", 40, fz_value_range, &fz_rate_range },
	{ "duration", 40, fz_value_range, &fz_duration_range },
};

static void fz_gen_control(u64 *s, struct fz_state *st, struct fz_buf *b)
{
	static const char * const simple[] = { "stop", "reset", "cancel-all" };
	unsigned int r = fz_below(s, 100);

	if (st->must_stop) {
		fz_put(b, "stop\n");
		return;
	}
	if (r < 55) {
		fz_put(b, "arm");
		fz_words(s, st, b, fz_arm_words, ARRAY_SIZE(fz_arm_words));
	} else if (r < 65) {
		fz_put(b, "run");
		fz_words(s, st, b, fz_run_words, ARRAY_SIZE(fz_run_words));
	} else if (r < 90) {
		fz_put(b, simple[fz_below(s, ARRAY_SIZE(simple))]);
		if (fz_chance(s, 10)) {
			fz_sep(s, b);
			fz_put(b, fz_garbage[fz_below(s, ARRAY_SIZE(fz_garbage))]);
		}
	} else {
		fz_put(b, fz_garbage[fz_below(s, ARRAY_SIZE(fz_garbage))]);
		fz_words(s, st, b, fz_arm_words, ARRAY_SIZE(fz_arm_words));
	}
}

static const char * const fz_wheels[] = { "seed", "mainline", "classic", "all", NULL };
static const struct fz_range fz_bench_timers = { 1, 1000000 };
static const struct fz_range fz_bench_ops = { 1, 1048576 };
static const struct fz_range fz_bench_ticks = { 1, 1000000 };
static const struct fz_range fz_bench_pct = { 0, 99 };
static const struct fz_range fz_bench_seed = { 0, ULLONG_MAX - 1 };
static const struct fz_range fz_bench_bool = { 0, 1 };

static void fz_value_hz(u64 *s, struct fz_state *st, struct fz_buf *b, const void *arg)
{
	fz_number(s, b, 1, (u64)(unsigned long)arg * st->hz);
}

static const struct fz_word_gen fz_bench_words[] = {
	{ "wheel", 40, fz_value_name, fz_wheels },
	{ "timers", 60, fz_value_range, &fz_bench_timers },
	{ "ops", 60, fz_value_range, &fz_bench_ops },
	{ "ticks", 60, fz_value_range, &fz_bench_ticks },
	{ "gap", 50, fz_value_hz, (const void *)600UL },
	{ "mean", 40, fz_value_hz, (const void *)3600UL },
	{ "cancel", 30, fz_value_range, &fz_bench_pct },
	{ "cpu", 20, fz_value_cpu, NULL },
	{ "seed", 30, fz_value_range, &fz_bench_seed },
	{ "kernel", 60, fz_value_range, &fz_bench_bool },
};

static void fz_gen_bench(u64 *s, struct fz_state *st, struct fz_buf *b)
{
	/* Now and then a small run, to mutate */
	if (fz_chance(s, 20))
		fz_put(b, "wheel=seed timers=100 ops=100 ticks=10 gap=10 kernel=0");
	fz_words(s, st, b, fz_bench_words, ARRAY_SIZE(fz_bench_words));
}

static void fz_gen_enable(u64 *s, struct fz_state *st, struct fz_buf *b)
{
	static const char * const words[] = {
		"1", "0", "1\n", "0\n", "1", "0", "01", "+1", " 1", "1 ", "2", "-0", "10",
		"1\n\n", "0x1", "00000000000000000000000000000000001junk", "true", "\n",
	};

	fz_put(b, words[fz_below(s, ARRAY_SIZE(words))]);
}

/*
 * Mutations of a command made of words: a byte changed, a NUL, a prefix,
 * padding to the limit and past it, random bytes; @bad: the buffer runs
 * into an unmapped page
 */
static void fz_mutate(u64 *s, struct fz_buf *b, bool *bad)
{
	unsigned int r = fz_below(s, 100);
	size_t i, n;

	if (r < 5) {
		b->len = fz_below(s, SWT_CMD_MAX + 40);
		for (i = 0; i < b->len; i++)
			b->p[i] = fz_rand(s);
		return;
	}
	if (fz_chance(s, 70))
		fz_put(b, "\n");
	if (r < 10 && b->len) {
		b->p[fz_below(s, b->len)] = fz_rand(s);
	} else if (r < 13 && b->len) {
		b->p[fz_below(s, b->len)] = '\0';
	} else if (r < 18) {
		b->len = fz_below(s, b->len + 1);	/* a prefix alone */
	} else if (r < 21) {
		/* Padded to the limit, or one past it */
		n = SWT_CMD_MAX + fz_below(s, 2);
		for (i = b->len; i < n && i < b->cap; i++)
			b->p[i] = fz_chance(s, 80) ? ' ' : '\n';
		b->len = i;
	} else if (r < 23) {
		n = SWT_CMD_MAX + 1 + fz_below(s, FZ_HUGE_MAX - SWT_CMD_MAX);
		memset(b->p + b->len, fz_chance(s, 50) ? ' ' : 'a', n - b->len);
		b->len = n;
	} else if (r < 25) {
		*bad = true;
	}
}

/* The model: the documented grammar, on its own */

struct fz_words {
	char text[SWT_CMD_MAX + 1];
	char *w[FZ_MAX_WORDS];
	unsigned int nr;
};

/* The kernel's isspace(): 9..13, space and 0xa0 */
static bool fz_isspace(unsigned char c)
{
	return (c >= 9 && c <= 13) || c == ' ' || c == 0xa0;
}

/* Trimmed as strim() trims, split at spaces, tabs and newlines */
static void fz_split(const char *buf, size_t len, struct fz_words *w)
{
	char *p = w->text, *end, *save = NULL, *word;

	memcpy(w->text, buf, len);
	w->text[len] = '\0';
	while (*p && fz_isspace(*p))
		p++;
	end = p + strlen(p);
	while (end > p && fz_isspace(end[-1]))
		*--end = '\0';
	w->nr = 0;
	for (word = strtok_r(p, " \t\n", &save); word && w->nr < FZ_MAX_WORDS;
	     word = strtok_r(NULL, " \t\n", &save))
		w->w[w->nr++] = word;
}

/* A decimal number, digits only: 0, -EINVAL, or -ERANGE past 2^64 - 1 (malformed too) */
static int fz_num(const char *s, u64 *val)
{
	u64 v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v > (ULLONG_MAX - (*s - '0')) / 10) {
			for (s++; *s; s++)
				if (*s < '0' || *s > '9')
					return -EINVAL;
			return -ERANGE;
		}
		v = v * 10 + (*s - '0');
	}
	*val = v;
	return 0;
}

static char *fz_key(char *word, char **value)
{
	char *eq = strchr(word, '=');

	*value = NULL;
	if (eq) {
		*eq = '\0';
		*value = eq + 1;
	}
	return word;
}

static void fz_allow(struct fz_expect *e, int err)
{
	unsigned int i;

	for (i = 0; i < e->nr; i++)
		if (e->err[i] == err)
			return;
	if (e->nr < FZ_MAX_ERRS)
		e->err[e->nr++] = err;
}

static int fz_ticks_of(const struct fz_state *st, char *s, u64 *ticks, bool *ms)
{
	size_t len = strlen(s);
	u64 v;

	*ms = len > 2 && !strcmp(s + len - 2, "ms");
	if (*ms)
		s[len - 2] = '\0';
	if (fz_num(s, &v))
		return -EINVAL;
	if (*ms) {
		if (v > (1ULL << 40) * 1000 / st->hz)
			return -EINVAL;
		v = (v * st->hz + 999) / 1000;
	}
	if (v > 1ULL << 40)
		return -EINVAL;
	*ticks = v;
	return 0;
}

static int fz_delta_ok(const struct fz_state *st, char *s)
{
	char *hi = strstr(s, "..");
	u64 lo_t, hi_t;
	bool ms_lo, ms_hi;

	if (!hi)
		return fz_ticks_of(st, s, &lo_t, &ms_lo);
	*hi = '\0';
	hi += 2;
	if (fz_ticks_of(st, s, &lo_t, &ms_lo) || fz_ticks_of(st, hi, &hi_t, &ms_hi) ||
	    ms_lo != ms_hi || lo_t > hi_t)
		return -EINVAL;
	return 0;
}

static int fz_model_arm(const struct fz_state *st, struct fz_words *w, struct fz_expect *e)
{
	bool count = false, delta = false, cpu = false, cancel = false, deferrable = false;
	char *key, *value;
	unsigned int i;
	u64 v;

	for (i = 1; i < w->nr; i++) {
		key = fz_key(w->w[i], &value);
		if (!strcmp(key, "deferrable") && !value) {
			if (deferrable)
				return -EINVAL;
			deferrable = true;
			continue;
		}
		if (!value || !*value)
			return -EINVAL;
		if (!strcmp(key, "count") && !count) {
			count = true;
			if (fz_num(value, &e->count) || !e->count)
				return -EINVAL;
			if (e->count > FZ_ARM_MAX)
				return -E2BIG;
		} else if (!strcmp(key, "delta") && !delta) {
			delta = true;
			if (fz_delta_ok(st, value))
				return -EINVAL;
		} else if (!strcmp(key, "cpu") && !cpu) {
			cpu = true;
			if (fz_num(value, &v))
				return -EINVAL;
			if (v >= st->nr_cpu_ids || v >= SWT_MAX_CPUS || !st->online[v])
				return -ENODEV;
		} else if (!strcmp(key, "cancel") && !cancel) {
			cancel = true;
			if (fz_num(value, &v) || v > 100)
				return -EINVAL;
		} else {
			return -EINVAL;
		}
	}
	if (!count || !delta)
		return -EINVAL;
	e->kind = FZ_K_ARM;
	return 0;
}

static int fz_model_run(const struct fz_state *st, struct fz_words *w, struct fz_expect *e)
{
	static const u64 rates[] = { 20000, 5000, 1000, 20000 };
	bool rate = false, duration = false;
	int preset = -1, p;
	char *key, *value;
	unsigned int i;

	e->duration = 10;
	for (i = 1; i < w->nr; i++) {
		key = fz_key(w->w[i], &value);
		if (!value || !*value)
			return -EINVAL;
		if (!strcmp(key, "preset") && preset < 0) {
			for (p = 0; fz_presets[p] && strcmp(value, fz_presets[p]); p++)
				;
			if (!fz_presets[p])
				return -EINVAL;
			preset = p;
		} else if (!strcmp(key, "rate") && !rate) {
			rate = true;
			if (fz_num(value, &e->rate) || !e->rate || e->rate > FZ_RATE_MAX)
				return -EINVAL;
		} else if (!strcmp(key, "duration") && !duration) {
			duration = true;
			if (fz_num(value, &e->duration) || !e->duration ||
			    e->duration > FZ_DURATION_MAX)
				return -EINVAL;
		} else {
			return -EINVAL;
		}
	}
	if (preset < 0)
		return -EINVAL;
	if (!rate)
		e->rate = rates[preset];
	e->kind = FZ_K_RUN;
	return 0;
}

/*
 * What a command file does with a write of @len bytes at @buf before it reads
 * the words: the length, the copy from user space, no NUL. 0 and the words in
 * @w, or the error.
 */
static int fz_model_words(const char *buf, size_t len, bool bad, struct fz_words *w)
{
	if (len > SWT_CMD_MAX)
		return -EINVAL;
	if (bad)
		return -EFAULT;
	if (memchr(buf, '\0', len))
		return -EINVAL;
	fz_split(buf, len, w);
	return 0;
}

/* The first result the grammar gives for a write of @len bytes at @buf */
static int fz_model_control(const struct fz_state *st, const char *buf, size_t len, bool bad,
			    struct fz_expect *e)
{
	struct fz_words w;
	const char *cmd;
	int err;

	err = fz_model_words(buf, len, bad, &w);
	if (err)
		return err;
	if (!w.nr)
		return -EINVAL;
	cmd = w.w[0];
	if (!strcmp(cmd, "arm"))
		return fz_model_arm(st, &w, e);
	if (!strcmp(cmd, "run"))
		return fz_model_run(st, &w, e);
	if (strcmp(cmd, "stop") && strcmp(cmd, "reset") && strcmp(cmd, "cancel-all"))
		return -EINVAL;
	if (w.nr > 1)
		return -EINVAL;
	e->kind = !strcmp(cmd, "stop") ? FZ_K_STOP : !strcmp(cmd, "reset") ? FZ_K_RESET :
		  FZ_K_CANCEL_ALL;
	return 0;
}

static int fz_model_bench(const struct fz_state *st, const char *buf, size_t len, bool bad,
			  struct fz_expect *e)
{
	static const char * const keys[] = {
		"wheel", "timers", "ops", "ticks", "gap", "mean", "cancel", "cpu", "seed",
		"kernel",
	};
	u64 lo[] = { 0, 1, 1, 1, 1, 1, 0, 0, 0, 0 };
	u64 hi[] = { 0, 1000000, 1048576, 1000000, 600ULL * st->hz, 3600ULL * st->hz, 99,
		     st->nr_cpu_ids - 1, ULLONG_MAX, 1 };
	u64 val[] = { 0, 100000, 100000, 10000, 3ULL * st->hz, 2ULL * st->hz, 95, 0, 1, 1 };
	unsigned int seen = 0, i, k;
	struct fz_words w;
	char *key, *value;
	int err;

	err = fz_model_words(buf, len, bad, &w);
	if (err)
		return err;
	for (i = 0; i < w.nr; i++) {
		key = fz_key(w.w[i], &value);
		for (k = 0; k < ARRAY_SIZE(keys) && strcmp(key, keys[k]); k++)
			;
		if (k == ARRAY_SIZE(keys) || !value || !*value || (seen & (1U << k)))
			return -EINVAL;
		seen |= 1U << k;
		if (k == 0) {
			for (k = 0; fz_wheels[k] && strcmp(value, fz_wheels[k]); k++)
				;
			if (!fz_wheels[k])
				return -EINVAL;
			continue;
		}
		if (fz_num(value, &val[k]) || val[k] < lo[k] || val[k] > hi[k])
			return -EINVAL;
		if (k == 7 && (val[k] >= SWT_MAX_CPUS || !st->online[val[k]]))
			return -ENODEV;
	}
	e->kind = FZ_K_BENCH;
	/* A run that takes more than a moment is not sent */
	e->skip = val[1] > 2000 || val[2] > 2000 || val[3] > 200 || val[4] > 200 || val[9];
	return 0;
}

static int fz_model_enable(const char *buf, size_t len, bool bad, struct fz_expect *e)
{
	if (len < 1 || len > 2)
		return -EINVAL;
	if (bad)
		return -EFAULT;
	if ((buf[0] != '0' && buf[0] != '1') || (len == 2 && buf[1] != '\n'))
		return -EINVAL;
	e->kind = FZ_K_ENABLE;
	e->on = buf[0] == '1';
	return 0;
}

/* Every result the write may have, from the first the grammar gives */
static void fz_expect(struct fz_state *st, u64 *s, enum fz_file f, const char *buf, size_t len,
		      bool bad, struct fz_expect *e)
{
	u64 now = swt_now_ms();
	int err;

	memset(e, 0, sizeof(*e));
	if (f == FZ_CONTROL)
		err = fz_model_control(st, buf, len, bad, e);
	else if (f == FZ_BENCH)
		err = fz_model_bench(st, buf, len, bad, e);
	else
		err = fz_model_enable(buf, len, bad, e);
	fz_allow(e, err);
	if (err)
		return;
	switch (e->kind) {
	case FZ_K_ARM:
		/* Past the timers alive, when others arm too or a run may be on */
		if (st->concurrent || st->run_maybe ||
		    st->alive_bound + e->count > FZ_ALIVE_MAX)
			fz_allow(e, -E2BIG);
		/* Big ones now and then, alone */
		if (e->count > FZ_BIG_ARM)
			e->skip = st->concurrent || fz_below(s, FZ_BIG_ONE_IN);
		if (e->count > FZ_BIG_ARM * 10)
			fz_allow(e, -ENOMEM);
		break;
	case FZ_K_RUN:
		/* Concurrent writers run nothing: armed stays exact */
		e->skip = st->concurrent;
		/* A run ends by itself after its duration */
		if (st->run_maybe && now + 1000 < st->run_end_ms)
			e->nr = 0;
		if (st->run_maybe)
			fz_allow(e, -EBUSY);
		break;
	case FZ_K_RESET:
		e->skip = st->concurrent;
		break;
	case FZ_K_ENABLE:
		/* Sent while the budget lasts, or when it changes nothing */
		e->skip = (st->concurrent || e->on != st->mirror_on) &&
			  st->toggles >= st->toggles_max / (st->concurrent ? FZ_PROCS : 1);
		if (!e->skip && (st->concurrent || e->on != st->mirror_on))
			st->toggles++;
		break;
	case FZ_K_BENCH:
		fz_allow(e, -ERANGE);		/* a timer within the idle gap */
		if (st->concurrent)
			fz_allow(e, -EBUSY);
		break;
	default:
		break;
	}
}

/* One write as write(2) does it: 0 or -errno, -EIO for a short one */
static int fz_write(int fd, const char *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

static void fz_note(struct fz_state *st, u64 seed, enum fz_file f, const char *buf, size_t len,
		    bool bad, const struct fz_expect *e, int ret)
{
	char shown[200], *o = shown;
	size_t i;

	if (st->mismatches++ >= FZ_MAX_REPORTS)
		return;
	for (i = 0; i < len && i < 40 && !bad; i++) {
		unsigned char c = buf[i];

		o += sprintf(o, c >= 32 && c < 127 && c != '\\' ? "%c" : "\\x%02x", c);
	}
	*o = '\0';
	snprintf(st->first[st->mismatches - 1], sizeof(st->first[0]),
		 "write %llu (seed %llu) to %s, %zu bytes%s '%s%s': got %s, expected %s%s",
		 st->writes, seed, fz_file_name[f], len, bad ? " from a bad buffer" : "", shown,
		 len > 40 ? "..." : "", ret ? strerror(-ret) : "success",
		 e->err[0] ? strerror(-e->err[0]) : "success", e->nr > 1 ? " or another" : "");
	swt_msg("mismatch: %s", st->first[st->mismatches - 1]);
}

static void fz_count_err(struct fz_state *st, int ret)
{
	unsigned int i = ret == 0 ? 0 : ret == -EINVAL ? 1 : ret == -E2BIG ? 2 :
			 ret == -ENODEV ? 3 : 4;

	st->by_err[i]++;
}

static bool fz_allowed(const struct fz_expect *e, int ret)
{
	unsigned int i;

	for (i = 0; i < e->nr; i++)
		if (e->err[i] == ret)
			return true;
	return false;
}

/* The files kept open, and a page that ends where an unmapped one starts */
struct fz_io {
	int fd[FZ_NR_FILES];
	char *edge;			/* the last 8 bytes before the hole */
	struct fz_buf b;
};

static int fz_io_open(struct fz_io *io)
{
	long page = sysconf(_SC_PAGESIZE);
	char path[PATH_MAX];
	char *map;
	int f;

	for (f = 0; f < FZ_NR_FILES; f++) {
		snprintf(path, sizeof(path), "%s/%s", swt_debugfs_dir(), fz_file_name[f]);
		io->fd[f] = open(path, O_WRONLY | O_CLOEXEC);
		if (io->fd[f] < 0)
			return -errno;
	}
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return -errno;
	munmap(map + page, page);
	memcpy(map + page - 8, "arm coun", 8);
	io->edge = map + page - 8;
	io->b.cap = FZ_HUGE_MAX;
	io->b.p = malloc(io->b.cap + 1);
	return io->b.p ? 0 : -ENOMEM;
}

static void fz_io_close(struct fz_io *io)
{
	int f;

	for (f = 0; f < FZ_NR_FILES; f++)
		close(io->fd[f]);
	free(io->b.p);
}

static void fz_check(struct __test_metadata *_metadata, struct fz_state *st, bool baseline);

/*
 * Make one write to a file the generator picks, check its result against
 * the model; returns 1 when the state needs a new baseline (a reset, a
 * stop). @_metadata: checks the state before a reset (NULL: not)
 */
static int fz_one(struct __test_metadata *_metadata, struct fz_state *st, struct fz_io *io,
		  u64 *s, u64 seed)
{
	unsigned int r = fz_below(s, 100);
	enum fz_file f = st->must_stop || r < 75 ? FZ_CONTROL : r < 88 ? FZ_BENCH : FZ_ENABLE;
	struct fz_expect e;
	bool bad = false;
	const char *buf;
	u64 start;
	int ret;

	io->b.len = 0;
	if (f == FZ_CONTROL)
		fz_gen_control(s, st, &io->b);
	else if (f == FZ_BENCH)
		fz_gen_bench(s, st, &io->b);
	else
		fz_gen_enable(s, st, &io->b);
	if (!st->must_stop)
		fz_mutate(s, &io->b, &bad);
	buf = io->b.p;
	if (bad) {
		/* Its first bytes readable, the rest unmapped */
		buf = io->edge;
		io->b.len = 9 + fz_below(s, f == FZ_ENABLE ? 0 : SWT_CMD_MAX - 8);
		if (f == FZ_ENABLE) {
			buf = io->edge + 8;
			io->b.len = 1 + fz_below(s, 2);
		}
	}
	st->writes++;
	fz_expect(st, s, f, buf, io->b.len, bad, &e);
	start = swt_now_ms();
	if (e.skip) {
		st->skipped++;
		return 0;
	}
	/* A reset sets armed to pending: what came before is checked first */
	if (_metadata && e.kind == FZ_K_RESET && fz_allowed(&e, 0))
		fz_check(_metadata, st, false);
	ret = fz_write(io->fd[f], buf, io->b.len);
	st->sent++;
	fz_count_err(st, ret);
	if (!fz_allowed(&e, ret))
		fz_note(st, seed, f, buf, io->b.len, bad, &e, ret);
	if (ret)
		return 0;
	st->accepted++;
	switch (e.kind) {
	case FZ_K_ARM:
		st->arms_since += e.count;
		st->alive_bound += e.count;
		break;
	case FZ_K_RUN:
		st->run_maybe = true;
		st->exact = false;
		st->run_end_ms = start + e.duration * 1000;
		st->must_stop = e.rate > FZ_FAST_RUN || fz_chance(s, 50);
		break;
	case FZ_K_STOP:
		st->run_maybe = false;
		st->must_stop = false;
		return 1;		/* a new baseline */
	case FZ_K_RESET:
		return 1;
	case FZ_K_ENABLE:
		st->mirror_on = e.on;
		break;
	default:
		break;
	}
	return 0;
}

static int fz_read_enable(bool *on)
{
	char path[PATH_MAX], buf[8] = "";
	int fd, n;

	snprintf(path, sizeof(path), "%s/mirror/enable", swt_debugfs_dir());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 1)
		return -EIO;
	*on = buf[0] == '1';
	return 0;
}

/*
 * The state against the writes: a new baseline if @baseline (after a reset
 * or a stop), else armed went up by what was accepted, when that is known
 */
static void fz_check(struct __test_metadata *_metadata, struct fz_state *st, bool baseline)
{
	struct swt_stats stats;
	char why[256];
	bool on = false;

	st->checks++;
	ASSERT_EQ(0, swt_stats_read(&stats)) TH_LOG("%s", swt_error());
	EXPECT_TRUE(swt_stats_sane(&stats, why, sizeof(why)))
		TH_LOG("after write %llu: %s", st->writes, why);
	if (st->exact && !st->concurrent && !baseline)
		EXPECT_EQ(st->base_armed + st->arms_since, stats.total.armed)
			TH_LOG("after write %llu: armed %llu, expected %llu + %llu accepted",
			       st->writes, stats.total.armed, st->base_armed, st->arms_since);
	if ((baseline || !st->exact) && !st->run_maybe) {
		st->exact = true;
		st->base_armed = stats.total.armed;
		st->arms_since = 0;
	}
	st->alive_bound = stats.total.alive;
	if (!st->concurrent) {
		ASSERT_EQ(0, fz_read_enable(&on));
		EXPECT_EQ(st->mirror_on, on) TH_LOG("after write %llu: mirror/enable", st->writes);
	}
}

static u64 fz_env(const char *name, u64 def)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : def;
}

static u64 fz_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return fz_env("SWT_FUZZ_SEED", (u64)ts.tv_sec * 1000003 + ts.tv_nsec);
}

static void fz_state_init(struct fz_state *st, const struct swt_geometry *geo, bool concurrent)
{
	unsigned int online[SWT_MAX_CPUS], n, i;

	memset(st, 0, sizeof(*st));
	st->hz = geo->hz;
	st->nr_cpu_ids = swt_cpus_possible();
	n = swt_cpus_online(online);
	for (i = 0; i < n; i++)
		st->online[online[i]] = true;
	st->concurrent = concurrent;
	st->toggles_max = fz_env("SWT_FUZZ_TOGGLES", FZ_TOGGLES_DEFAULT);
}

static void fz_report(struct fz_state *st, const char *what)
{
	unsigned int i;

	swt_msg("%s: %llu writes, %llu sent, %llu not sent (costly), %llu checks, %llu toggles",
		what, st->writes, st->sent, st->skipped, st->checks, st->toggles);
	swt_msg("%s: %llu accepted, %llu EINVAL, %llu E2BIG, %llu ENODEV, %llu other, %llu wrong",
		what, st->accepted, st->by_err[1], st->by_err[2], st->by_err[3], st->by_err[4],
		st->mismatches);
	/* The concurrent writers' went to their own output: again here */
	for (i = 0; st->concurrent && i < st->mismatches && i < FZ_MAX_REPORTS; i++)
		swt_msg("mismatch: %s", st->first[i]);
}

FIXTURE(fuzz) {
	struct swt_geometry geo;
};

SWT_FIXTURE_SETUP(fuzz, NULL, NULL)

static void fz_teardown(struct __test_metadata *_metadata)
{
	swt_control("stop");
	swt_control("cancel-all");
	swt_mirror_enable(false);
}

SWT_FIXTURE_TEARDOWN(fuzz, fz_teardown)

/* Everything quiet again: no run, no timer, the mirror off; the figures add up */
static void fz_quiesce(struct __test_metadata *_metadata)
{
	struct swt_stats stats;
	char why[256];

	EXPECT_EQ(0, swt_control("stop")) TH_LOG("%s", swt_error());
	EXPECT_EQ(0, swt_control("cancel-all")) TH_LOG("%s", swt_error());
	EXPECT_EQ(0, swt_mirror_enable(false)) TH_LOG("%s", swt_error());
	ASSERT_EQ(0, swt_stats_read(&stats)) TH_LOG("%s", swt_error());
	EXPECT_TRUE(swt_stats_sane(&stats, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(0ULL, stats.total.pending);
	EXPECT_EQ(0ULL, stats.total.alive);
}

/* The full run takes minutes on the debug kernel */
#define FZ_TIMEOUT_S		7200

TEST_F_TIMEOUT(fuzz, every_write_as_documented, FZ_TIMEOUT_S)
{
	u64 seed = fz_seed(), s = seed, writes = fz_env("SWT_FUZZ_WRITES", FZ_WRITES_DEFAULT);
	struct fz_state *st;
	struct fz_io io;
	u64 i;

	if (_metadata->skip)
		return;
	swt_msg("seed %llu, %llu writes: SWT_FUZZ_SEED=%llu repeats this run", seed, writes,
		seed);
	st = calloc(1, sizeof(*st));
	ASSERT_NE(NULL, st);
	fz_state_init(st, &self->geo, false);
	ASSERT_EQ(0, fz_io_open(&io)) TH_LOG("opening the files");
	fz_check(_metadata, st, true);
	for (i = 0; i < writes; i++) {
		bool baseline = fz_one(_metadata, st, &io, &s, seed);

		if (baseline || (i + 1) % FZ_CHECK_EVERY == 0)
			fz_check(_metadata, st, baseline);
	}
	fz_check(_metadata, st, false);
	fz_io_close(&io);
	fz_report(st, "sequential");
	EXPECT_EQ(0ULL, st->mismatches);
	fz_quiesce(_metadata);
	free(st);
}

/* Writers in FZ_PROCS processes at once; no reset, no run, so armed stays exact */
TEST_F_TIMEOUT(fuzz, concurrent_writers, FZ_TIMEOUT_S)
{
	u64 seed = fz_seed() + 1, writes = fz_env("SWT_FUZZ_WRITES", FZ_WRITES_DEFAULT);
	struct swt_stats before, after;
	struct fz_state *shared;
	u64 arms = 0, mismatches = 0;
	int pid[FZ_PROCS], status;
	unsigned int p;

	if (_metadata->skip)
		return;
	swt_msg("seed %llu, %u writers of %llu writes each", seed, FZ_PROCS, writes / FZ_PROCS);
	shared = mmap(NULL, FZ_PROCS * sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, shared);
	ASSERT_EQ(0, swt_stats_read(&before)) TH_LOG("%s", swt_error());
	for (p = 0; p < FZ_PROCS; p++) {
		pid[p] = fork();
		ASSERT_LE(0, pid[p]);
		if (!pid[p]) {
			struct fz_state *st = &shared[p];
			u64 s = seed + p, i;
			struct fz_io io;

			fz_state_init(st, &self->geo, true);
			if (fz_io_open(&io))
				_exit(2);
			for (i = 0; i < writes / FZ_PROCS; i++)
				fz_one(NULL, st, &io, &s, seed + p);
			fz_io_close(&io);
			_exit(0);
		}
	}
	for (p = 0; p < FZ_PROCS; p++) {
		ASSERT_EQ(pid[p], waitpid(pid[p], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) TH_LOG("writer %u", p);
	}
	ASSERT_EQ(0, swt_stats_read(&after)) TH_LOG("%s", swt_error());
	for (p = 0; p < FZ_PROCS; p++) {
		char what[32];

		snprintf(what, sizeof(what), "writer %u", p);
		fz_report(&shared[p], what);
		arms += shared[p].arms_since;
		mismatches += shared[p].mismatches;
	}
	EXPECT_EQ(0ULL, mismatches);
	/* No reset, no run: armed went up by the accepted arms alone */
	EXPECT_EQ(before.total.armed + arms, after.total.armed)
		TH_LOG("armed %llu, expected %llu + %llu accepted", after.total.armed,
		       before.total.armed, arms);
	fz_quiesce(_metadata);
	munmap(shared, FZ_PROCS * sizeof(*shared));
}

/* An unprivileged user opens none of the files for writing */
TEST_F(fuzz, non_root_refused)
{
	static const char * const files[] = { "control", "bench", "mirror/enable", "stats" };
	struct swt_stats before, after;
	char why[256];
	int pid, status;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, swt_stats_read(&before)) TH_LOG("%s", swt_error());
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char path[PATH_MAX];
		unsigned int i, bad = 0;
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(100);
		for (i = 0; i < ARRAY_SIZE(files); i++) {
			snprintf(path, sizeof(path), "%s/%s", swt_debugfs_dir(), files[i]);
			fd = open(path, O_WRONLY | O_CLOEXEC);
			if (fd >= 0) {
				printf("# %s opened for writing as uid 65534\n", files[i]);
				bad++;
				close(fd);
			} else if (errno != EACCES && errno != EPERM) {
				printf("# %s: %s as uid 65534\n", files[i], strerror(errno));
				bad++;
			}
		}
		fflush(stdout);
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_NE(100, WEXITSTATUS(status)) TH_LOG("cannot become uid 65534");
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, swt_stats_read(&after)) TH_LOG("%s", swt_error());
	EXPECT_TRUE(swt_stats_same_timers(&before, &after, why, sizeof(why))) TH_LOG("%s", why);
}

TEST_HARNESS_MAIN
