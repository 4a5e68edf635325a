/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel selftests: what the tests share. Loading and unloading the
 * module, reading its debugfs files (README, "debugfs"), writing control
 * commands, CPUs, time. Plain C: every function returns 0 or -errno (or a
 * value), and sw_error() says what went wrong; the checks are in the tests.
 */
#ifndef _SW_HELPERS_H
#define _SW_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SW_MODULE_NAME		"shadow_wheel"
#define SW_MODULE_DEFAULT	"/shadow_wheel.ko"		/* env SW_MODULE */
#define SW_DEBUGFS_DEFAULT	"/sys/kernel/debug/shadow_wheel"	/* env SW_DEBUGFS */

#define SW_MAX_CPUS		64	/* CPUs looked at; the guests have 2 */
#define SW_MAX_LEVELS		16	/* more than any geometry has (9) */
#define SW_CMD_MAX		256	/* longest control command accepted */
#define SW_MAX_DELTA		1099511627776ULL	/* 2^40: largest delta of an arm */

/* sw_start(): the test cannot run here; the reason is in sw_error() */
#define SW_SKIP			1

/* printf-like functions: the compiler checks their arguments */
#define sw_attribute(...)	__attribute__((__VA_ARGS__))
#ifndef __printf
#define __printf(a, b)		sw_attribute(format(printf, a, b))
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

typedef unsigned long long u64;
typedef long long s64;

/* What went wrong in the last helper that failed */
const char *sw_error(void);

/* Why no test can run here (not root, nothing to test), or NULL */
const char *sw_skip_reason(void);

/* Module */
const char *sw_module_path(void);
bool sw_module_file_present(void);
bool sw_module_loaded(void);
int sw_load(const char *params);
int sw_unload(void);
/* Unloads it if it is loaded */
int sw_unload_any(void);

/*
 * A test starts from a freshly loaded module (loaded with @params, after
 * unloading any previous instance). Without a module file, the instance
 * already loaded is used, emptied with cancel-all and reset, and @params
 * may only name the geometry it runs. Returns 0, SW_SKIP or -errno.
 */
int sw_start(const char *params);
/* Unloads the module if sw_start() loaded it */
int sw_finish(void);

/* debugfs */
const char *sw_debugfs_dir(void);
bool sw_debugfs_present(void);
bool sw_debugfs_exists(const char *rel);

/* A "key value" file: lines split at the first blank, in file order */
struct sw_kv_line {
	const char *key;
	const char *val;
};

struct sw_kv {
	char *buf;
	size_t nr;
	struct sw_kv_line *line;
};

int sw_kv_read(struct sw_kv *kv, const char *rel);
void sw_kv_free(struct sw_kv *kv);
const char *sw_kv_str(const struct sw_kv *kv, const char *key);
int sw_kv_u64(const struct sw_kv *kv, const char *key, u64 *val);
/* In a line's value "N k1 v1 k2 v2 ...": the number after the word @key */
int sw_field_u64(const char *val, const char *key, u64 *out);
int sw_field_double(const char *val, const char *key, double *out);

/* geometry */
struct sw_geo_level {
	u64 offset;
	u64 gran;
	u64 start;
	u64 end;
	double gran_ms;
	double start_ms;
	double end_ms;
};

struct sw_geometry {
	char wheel[16];
	unsigned int hz;
	unsigned int levels;
	unsigned int buckets;
	u64 cutoff;
	struct sw_geo_level level[SW_MAX_LEVELS];
};

int sw_geometry_read(struct sw_geometry *geo);
/* The level a timer goes to when its expiry is @delta ticks past the clock */
unsigned int sw_geo_level_of(const struct sw_geometry *geo, u64 delta);
u64 sw_ticks_to_ms(const struct sw_geometry *geo, u64 ticks);
u64 sw_ms_to_ticks(const struct sw_geometry *geo, u64 ms);

/* stats: the totals and the same keys per CPU */
struct sw_counts {
	u64 armed;
	u64 modified;
	u64 cancelled;
	u64 expired;
	u64 pending;
	u64 migrated_in;
	u64 migrated_out;
	u64 cascaded;
	u64 clamped;
	u64 early;
	u64 wakeups;
	u64 workload_wakeups;
	u64 runs;
	u64 catchup_max;
	u64 catchup_runs;
	u64 tick_ns_max;
	u64 migrated;		/* totals only: each move once */
	u64 alive;		/* totals only: allocated, not yet freed */
	u64 online;		/* per CPU only */
	unsigned int seen;	/* which keys were there */
};

struct sw_stats {
	struct sw_counts total;
	bool has_cpu[SW_MAX_CPUS];
	struct sw_counts cpu[SW_MAX_CPUS];
};

int sw_stats_read(struct sw_stats *st);
/*
 * early is 0, armed = expired + cancelled + pending, and per CPU
 * armed + migrated_in = expired + cancelled + pending + migrated_out;
 * else false, and why
 */
bool sw_stats_sane(const struct sw_stats *st, char *why, size_t size);
/* A documented key missing from the totals (@cpu < 0) or a CPU's, or NULL */
const char *sw_stats_missing(const struct sw_stats *st, int cpu);
/* The timer counts (armed ... early) are the same; else false, which */
bool sw_stats_same_timers(const struct sw_stats *a, const struct sw_stats *b,
			  char *why, size_t size);
/* Sum of one per-CPU figure, by its offset in struct sw_counts */
u64 sw_stats_cpu_sum(const struct sw_stats *st, size_t field);
#define SW_CPU_SUM(st, name)	sw_stats_cpu_sum(st, offsetof(struct sw_counts, name))

/* lateness */
struct sw_late_level {
	bool present;
	u64 gran;
	u64 expired;
	u64 late_min;
	u64 late_max;
	char hist[256];
};

struct sw_lateness {
	unsigned int levels;
	struct sw_late_level level[SW_MAX_LEVELS];
	u64 delivery_expired;
	u64 delay_min;
	u64 delay_max;
	char delivery_hist[256];
};

int sw_lateness_read(struct sw_lateness *lt);

/* cpuN/wheel */
struct sw_wheel_level {
	u64 normal_buckets;
	u64 normal_timers;
	u64 deferrable_buckets;
	u64 deferrable_timers;
};

struct sw_wheel {
	u64 clk;
	u64 jiffies;
	bool has_next;
	u64 next_expiry;
	u64 pending;
	unsigned int levels;
	struct sw_wheel_level level[SW_MAX_LEVELS];
};

int sw_wheel_read(unsigned int cpu, struct sw_wheel *w);
u64 sw_wheel_normal(const struct sw_wheel *w);
u64 sw_wheel_deferrable(const struct sw_wheel *w);
/* Jiffies now, as the first online CPU's wheel file shows them */
int sw_jiffies(u64 *j);

/* control: one command per write(2); 0 or -errno */
int sw_control(const char *fmt, ...) __printf(1, 2);
int sw_control_raw(const char *buf, size_t len);

/* The bench file: write a run's words (0 or -errno), read the report (free it) */
int sw_bench_write(const char *words);
int sw_bench_read(char **report);

/*
 * One arm command and what can be known about its timers from the wheel
 * files read around it: deltas in ticks (converted from ms if asked, rounded
 * both ways), the levels they may have gone to given where the target
 * wheel's clock was, the first tick they may run on and the last.
 */
struct sw_arm {
	int cpu;			/* -1: spread over the online CPUs */
	u64 count;
	u64 lo;			/* delta, or range lo..hi */
	u64 hi;
	bool ms;			/* lo and hi are in ms */
	const char *extra;		/* appended: "deferrable", "cancel=P" */

	/* filled in by sw_arm() */
	u64 tmin, tmax;		/* the delta range in ticks */
	u64 j_before, j_after;	/* jiffies around the write */
	unsigned int lvl_lo, lvl_hi;	/* the levels the timers may be at */
	u64 first_tick;		/* none runs before this tick */
	u64 last_tick;		/* all have run by this tick (if awake) */
	char cmd[SW_CMD_MAX];
};

int sw_arm(const struct sw_geometry *geo, struct sw_arm *a);

/* Sleep until jiffies reach @tick; 0, or -ETIME if jiffies stop moving */
int sw_wait_tick(const struct sw_geometry *geo, u64 tick);

/* CPUs */
bool sw_cpu_online(unsigned int cpu);
/* The online CPUs, listed in @cpus if not NULL; returns how many */
unsigned int sw_cpus_online(unsigned int cpus[SW_MAX_CPUS]);
unsigned int sw_cpus_possible(void);
int sw_cpu_set_online(unsigned int cpu, bool online);
int sw_pin_to_cpu(unsigned int cpu);

/* Time */
u64 sw_now_ms(void);
void sw_sleep_ms(u64 ms);

/* The kernel log: a reader at its end, and how many records came since */
int sw_kmsg_open(void);
int sw_kmsg_new(int fd, char *last, size_t size);

#endif /* _SW_HELPERS_H */
