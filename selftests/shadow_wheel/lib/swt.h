/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel selftests: the library the tests share (lib/), by job:
 *
 *  sys.c	errors, time, CPUs, the kernel log
 *  module.c	loading and unloading the module; the start and end of a test
 *  debugfs.c	its debugfs files (docs/ABI/debugfs-shadow-wheel): geometry, lateness,
 *		cpuN/wheel
 *  stats.c	the stats file
 *  control.c	control and bench writes, arming timers, waiting for ticks
 *  trace.c	the module's tracepoints, in a tracefs instance of the test's own
 *
 * Plain C: every function returns 0 or -errno (or a value), and swt_error()
 * says what went wrong; the checks are in the tests (swt_test.h joins the
 * library to kselftest_harness.h).
 */
#ifndef _SWT_H
#define _SWT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SWT_MODULE_NAME		"shadow_wheel"
#define SWT_MODULE_DEFAULT	"/shadow_wheel.ko"		/* env SW_MODULE */
#define SWT_DEBUGFS_DEFAULT	"/sys/kernel/debug/shadow_wheel"	/* env SW_DEBUGFS */

#define SWT_MAX_CPUS		64	/* CPUs looked at; the guests have 2 */
#define SWT_MAX_LEVELS		16	/* more than any geometry has (9) */
#define SWT_CMD_MAX		256	/* longest control command accepted */
#define SWT_MAX_DELTA		1099511627776ULL	/* 2^40: largest delta of an arm */

/* swt_start(): the test cannot run here; the reason is in swt_error() */
#define SWT_SKIP			1

/* printf-like functions: the compiler checks their arguments */
#define swt_attribute(...)	__attribute__((__VA_ARGS__))
#ifndef __printf
#define __printf(a, b)		swt_attribute(format(printf, a, b))
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

typedef unsigned long long u64;
typedef long long s64;

/* sys.c */

/* What went wrong in the last helper that failed */
const char *swt_error(void);

/* Time */
u64 swt_now_ms(void);
void swt_sleep_ms(u64 ms);

/* CPUs */
bool swt_cpu_online(unsigned int cpu);
/* The online CPUs, listed in @cpus if not NULL; returns how many */
unsigned int swt_cpus_online(unsigned int cpus[SWT_MAX_CPUS]);
unsigned int swt_cpus_possible(void);
int swt_cpu_set_online(unsigned int cpu, bool online);
int swt_cpus_set_online(const unsigned int *cpus, unsigned int n, bool online);
int swt_pin_to_cpu(unsigned int cpu);

/* /proc/sys/@name set to @val; its old value first into @old (to free), if not NULL */
int swt_sysctl(const char *name, const char *val, char **old);

/* The kernel log: a reader at its end, and how many records came since */
int swt_kmsg_open(void);
int swt_kmsg_new(int fd, char *last, size_t size);

/* module.c */

/* Why no test can run here (not root, nothing to test), or NULL */
const char *swt_skip_reason(void);

const char *swt_module_path(void);
bool swt_module_file_present(void);
bool swt_module_loaded(void);
int swt_load(const char *params);
int swt_unload(void);
/* Unloads it if it is loaded */
int swt_unload_any(void);

/*
 * A test starts from a freshly loaded module (loaded with @params, after
 * unloading any previous instance). Without a module file, the instance
 * already loaded is used, emptied with cancel-all and reset, and @params
 * may only name the geometry it runs. Returns 0, SWT_SKIP or -errno.
 */
int swt_start(const char *params);
/* Unloads the module if swt_start() loaded it */
int swt_finish(void);

/* debugfs.c */

const char *swt_debugfs_dir(void);
bool swt_debugfs_present(void);
bool swt_debugfs_exists(const char *rel);

/* geometry */
struct swt_geo_level {
	u64 offset;
	u64 gran;
	u64 start;
	u64 end;
	double gran_ms;
	double start_ms;
	double end_ms;
};

/* Room for a wheel's canonical spec (SW_SPEC_MAX) */
#define SWT_SPEC_MAX		64

struct swt_geometry {
	char wheel[16];
	char spec[SWT_SPEC_MAX];		/* the canonical spec */
	unsigned int hz;
	unsigned int levels;
	unsigned int buckets;
	u64 cutoff;
	struct swt_geo_level level[SWT_MAX_LEVELS];
};

int swt_geometry_read(struct swt_geometry *geo);
/* The level a timer goes to when its expiry is @delta ticks past the clock */
unsigned int swt_geo_level_of(const struct swt_geometry *geo, u64 delta);
u64 swt_ticks_to_ms(const struct swt_geometry *geo, u64 ticks);

/* lateness */
struct swt_late_level {
	bool present;
	u64 gran;
	u64 expired;
	u64 late_min;
	u64 late_max;
	char hist[256];
};

struct swt_lateness {
	unsigned int levels;
	struct swt_late_level level[SWT_MAX_LEVELS];
	u64 delivery_expired;
	u64 delay_min;
	u64 delay_max;
	char delivery_hist[256];
};

int swt_lateness_read(struct swt_lateness *lt);

/* cpuN/wheel */
struct swt_wheel_level {
	u64 normal_buckets;
	u64 normal_timers;
	u64 deferrable_buckets;
	u64 deferrable_timers;
};

struct swt_wheel {
	u64 clk;
	u64 jiffies;
	bool has_next;
	u64 next_expiry;
	u64 pending;
	unsigned int levels;
	struct swt_wheel_level level[SWT_MAX_LEVELS];
};

int swt_wheel_read(unsigned int cpu, struct swt_wheel *w);
u64 swt_wheel_normal(const struct swt_wheel *w);
u64 swt_wheel_deferrable(const struct swt_wheel *w);
/* Jiffies now, as the first online CPU's wheel file shows them */
int swt_jiffies(u64 *j);

/*
 * stats.c: the totals and the same keys per CPU. The counters are the
 * module's own list; migrated, alive and online are printed next to them
 * by module/sw_debugfs.c.
 */
struct swt_counts {
#define SW_STAT(name, merge, counts_timers)	u64 name
#include "../../../module/sw_stats_list.h"
#undef SW_STAT
	u64 migrated;		/* totals only: each move once */
	u64 alive;		/* totals only: allocated, not yet freed */
	u64 online;		/* per CPU only */
	u64 seen;		/* which keys were there, a bit each */
};

struct swt_stats {
	struct swt_counts total;
	bool has_cpu[SWT_MAX_CPUS];
	struct swt_counts cpu[SWT_MAX_CPUS];
};

int swt_stats_read(struct swt_stats *st);
/*
 * early is 0, armed = expired + cancelled + pending, and per CPU
 * armed + migrated_in = expired + cancelled + pending + migrated_out;
 * else false, and why
 */
bool swt_stats_sane(const struct swt_stats *st, char *why, size_t size);
/* A documented key missing from the totals (@cpu < 0) or a CPU's, or NULL */
const char *swt_stats_missing(const struct swt_stats *st, int cpu);
/* The keys that count timers are the same; else false, and which */
bool swt_stats_same_timers(const struct swt_stats *a, const struct swt_stats *b,
			   char *why, size_t size);
/* Sum of one per-CPU figure, by its offset in struct swt_counts */
u64 swt_stats_cpu_sum(const struct swt_stats *st, size_t field);
#define SWT_CPU_SUM(st, name)	swt_stats_cpu_sum(st, offsetof(struct swt_counts, name))

/* control.c */

/* control: one command per write(2); 0 or -errno */
int swt_control(const char *fmt, ...) __printf(1, 2);
int swt_control_raw(const char *buf, size_t len);

/* The bench file: write a run's words (0 or -errno), read the report (free it) */
int swt_bench_write(const char *words);
int swt_bench_read(char **report);

/*
 * One arm command and what can be known about its timers from the wheel
 * files read around it: deltas in ticks (converted from ms if asked, rounded
 * both ways), the levels they may have gone to given where the target
 * wheel's clock was, the first tick they may run on and the last.
 */
struct swt_arm {
	int cpu;			/* -1: spread over the online CPUs */
	u64 count;
	u64 lo;			/* delta, or range lo..hi */
	u64 hi;
	bool ms;			/* lo and hi are in ms */
	const char *extra;		/* appended: "deferrable", "cancel=P" */

	/* filled in by swt_arm() */
	u64 tmin, tmax;		/* the delta range in ticks */
	u64 j_before, j_after;	/* jiffies around the write */
	unsigned int lvl_lo, lvl_hi;	/* the levels the timers may be at */
	u64 first_tick;		/* none runs before this tick */
	u64 last_tick;		/* all have run by this tick (if awake) */
	char cmd[SWT_CMD_MAX];
};

int swt_arm(const struct swt_geometry *geo, struct swt_arm *a);
/* The tick by which the timers of @nr arms have all run, and how many in @count */
u64 swt_arms_last_tick(const struct swt_arm *arm, unsigned int nr, u64 *count);

/* Ticks compared as the kernel compares jiffies: the later of @a and @b */
u64 swt_later(u64 a, u64 b);

/* Sleep until jiffies reach @tick; 0, or -ETIME if jiffies stop moving */
int swt_wait_tick(const struct swt_geometry *geo, u64 tick);

/*
 * A poll for timers due by tick @due: after each look at them, with
 * jiffies at @j, swt_poll_again() sleeps @poll_ms and says to look again,
 * until jiffies have passed @due and @grace_ms more have gone by (for the
 * tasklet to run them)
 */
struct swt_poll {
	u64 due;
	unsigned int grace_ms;
	unsigned int poll_ms;
	u64 grace_end;		/* 0 until jiffies pass @due */
};

bool swt_poll_again(struct swt_poll *poll, u64 j);

/*
 * mirror.c: the mirror's files (docs/ABI/debugfs-shadow-wheel, mirror/)
 * and real kernel timer traffic for it
 */
/* The most wheels a mirror runs, and the longest name one has */
#define SWT_MIRROR_MAX_WHEELS	16
#define SWT_MIRROR_NAME_MAX	SWT_SPEC_MAX
#define SWT_MIRROR_MAX_LATE	(SWT_MIRROR_MAX_WHEELS * SWT_MAX_LEVELS)

/* mirror/enable: 0 or -errno */
int swt_mirror_enable(bool on);
int swt_mirror_enable_raw(const char *word);
/* The module's parameter @name (mirror_records, mirror_log) set to @value: 0 or -errno */
int swt_mirror_param(const char *name, const char *value);
/* The parameter @name read into @out (malloc()ed): 0 or -errno */
int swt_mirror_param_read(const char *name, char **out);
/* mirror/wheels: @len bytes of @list written: 0 or -errno */
int swt_mirror_wheels_write(const char *list, size_t len);
/* The file mirror/@name read whole into @out (malloc()ed): 0 or -errno */
int swt_mirror_file_read(const char *name, char **out);

/*
 * A wheel's line of mirror/stats: its name, and a member for every figure
 * the line carries, from the mirror's list of figures (its stats column
 * "wheel"); swt_mirror_read() fails when the line lacks one
 */
struct swt_mirror_wheel {
	char name[SWT_MIRROR_NAME_MAX];	/* seed.250, or a spec */
#define SW_MIRROR_FIG(scope, name, unit, merge, stats, ...)			\
	SW_MIRROR_FIG_IF(stats, wheel)(u64 name;)
#include "../../../core/mirror/sw_mirror_figures_list.h"
#undef SW_MIRROR_FIG
};

/*
 * mirror/stats: a member for every figure of the mirror's list on a line
 * of its own (its stats column "line": running, hz, log_lost,
 * expired_remote, softirq_recorded...; docs/ABI/debugfs-shadow-wheel says
 * what each counts), 0 when the file lacks it; the few keys of shapes of
 * their own that the tests read; and the wheels' lines
 */
struct swt_mirror {
#define SW_MIRROR_FIG(scope, name, unit, merge, stats, ...)			\
	SW_MIRROR_FIG_IF(stats, line)(u64 name;)
#include "../../../core/mirror/sw_mirror_figures_list.h"
#undef SW_MIRROR_FIG
	u64 anomalies;			/* events.anomaly */
	u64 softirq_agree;		/* softirq.agree, .unpredicted, .missed: */
	u64 softirq_unpredicted;	/* the runs and raises the differential */
	u64 softirq_missed;		/* paired at the run's tick, or not */
	u64 softirq_unmodelled;		/* softirq.unmodelled: on a CPU reset */
	unsigned int nr_wheels;
	struct swt_mirror_wheel wheel[SWT_MIRROR_MAX_WHEELS];
};

int swt_mirror_read(struct swt_mirror *mr);

/* mirror/logs: each CPU's log */
struct swt_mirror_log {
	unsigned int cpu;
	u64 logged, unread, full, lost;
};

struct swt_mirror_logs {
	bool running;
	u64 log_size;
	unsigned int nr_cpus;
	struct swt_mirror_log cpu[SWT_MAX_CPUS];
};

int swt_mirror_logs_read(struct swt_mirror_logs *lg);
int swt_mirror_drainer_idle(void);

/* A line of mirror/lateness */
struct swt_mirror_late {
	char name[SWT_MIRROR_NAME_MAX];
	unsigned int level;
	u64 gran;
	u64 count;
	s64 min, max;
	u64 early;			/* the histogram's first bin */
};

int swt_mirror_lateness_read(struct swt_mirror_late *lt, size_t max, size_t *nr);

/* mirror/diff: by what was compared, placement (0) and expiry (1) */
/* mirror/diff: the comparisons, and the unexplained mismatches it kept */
#define SWT_DIFF_LINES		16
#define SWT_DIFF_LINE_MAX	192

struct swt_mirror_diff {
	u64 compared[2], match[2], unexplained[2];
	unsigned int nr_lines;
	char line[SWT_DIFF_LINES][SWT_DIFF_LINE_MAX];
};

int swt_mirror_diff_read(struct swt_mirror_diff *d);

/* TCP over loopback: a listener and short connections to it, for @ms */
#define SWT_TRAFFIC_PROCS	4

struct swt_traffic {
	int pid[SWT_TRAFFIC_PROCS];
};

int swt_tcp_traffic_start(struct swt_traffic *t, u64 ms);
/* Waits for the connections to end, then stops the listener */
void swt_tcp_traffic_stop(struct swt_traffic *t);

/*
 * trace.c: a tracefs instance (instances/NAME) and the events its trace
 * file holds, each with the key=value fields of its format
 */
#define SWT_TRACE_SYSTEM	"shadow_wheel"
#define SWT_TRACE_MAX_FIELDS	16

struct swt_event {
	const char *name;		/* sw_timer_start, ...: without the system */
	u64 ts;				/* the trace clock's stamp (whole part) */
	unsigned int nr;
	struct {
		const char *key;
		const char *val;
	} field[SWT_TRACE_MAX_FIELDS];
};

struct swt_trace {
	char dir[256];			/* the instance's directory */
	char *text;			/* its trace file, cut up into @event */
	size_t nr;
	struct swt_event *event;	/* in the order of the trace file */
};

/* Where tracefs is (mounted if need be), or NULL */
const char *swt_tracefs_dir(void);
/* Make the instance @name, anew if it was there; 0 or -errno */
int swt_trace_create(struct swt_trace *tr, const char *name);
bool swt_trace_exists(const struct swt_trace *tr, const char *rel);
int swt_trace_write(const struct swt_trace *tr, const char *rel, const char *value);
/* Read the instance's trace file into @tr->event; 0 or -errno */
int swt_trace_read(struct swt_trace *tr);
/* Events its buffers lost (overrun or dropped), or -errno */
s64 swt_trace_lost(const struct swt_trace *tr);
/* Remove the instance and free what was read; 0 or -errno */
int swt_trace_remove(struct swt_trace *tr);

/* A field's text, or NULL */
const char *swt_event_str(const struct swt_event *e, const char *key);
/* A field as a number, decimal or (swt_event_hex()) hex; 0 or -errno */
int swt_event_u64(const struct swt_event *e, const char *key, u64 *val);
int swt_event_s64(const struct swt_event *e, const char *key, s64 *val);
int swt_event_hex(const struct swt_event *e, const char *key, u64 *val);

#endif /* _SWT_H */
