// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the mirror on the running kernel (sw_live_*), started and
 * stopped. One struct sw_mirror (core/mirror/sw_mirror.c) replays every
 * real timer event into every kind of wheel at the kernel's HZ and at HZ
 * 100, 250 and 1000, side by side, with the differential against the
 * kernel's own wheel. Its parts: what it runs with (sw_live_config.c),
 * the probes that take the kernel's events (sw_live_probe.c), the logs
 * they fill and the thread that drains them into the wheels
 * (sw_live_feed.c), and the reads (sw_live_read.c). This file calls the
 * first three; none of them calls it.
 *
 * Starting registers the probes, the start probe last, so that every
 * timer the mirror sees armed is followed to its end; stopping
 * unregisters the start probe first and waits for the probes still
 * running (tracepoint_synchronize_unregister()) before the logs are
 * drained for the last time and anything is freed. Stopped, no probe is
 * registered and the mirror costs nothing; its figures stay readable
 * until it starts again or the module goes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "sw_compat.h"
#include "sw_live.h"
#include "sw_live_state.h"

/* The largest pool of records a start may ask for */
#define SW_LIVE_MAX_RECORDS	SZ_1M

/*
 * The live mirror's two locks, and what nests inside what (outermost
 * first; nothing here is ever taken the other way round):
 *
 *   kernel_param_lock		a write of mirror_wheels
 *   sw_live_mutex			start, stop, free; a read's snapshot;
 *					the wheels the next start adds
 *					(sw_live_config.c), the probes
 *					registered (sw_live_probe.c)
 *     cpu_hotplug_lock (read)		tracepoint_probe_register() and
 *					_unregister() switch static keys
 *     sw_live_lock			each batch drained into the mirror
 *					(sw_live_feed.c), each round of a
 *					read's catching up (sw_live_read.c)
 *
 *   the kernel's timer_base lock	timer_start, timer_cancel probes,
 *					timer_base_idle's on idle entry
 *     sw_live_lock			a probe that finds its log full
 *					drains a batch itself
 *
 * sw_live_mutex is a mutex because what it covers sleeps: starting and
 * stopping the thread, (un)registering the probes and waiting for them,
 * allocating. sw_live_lock serialises the log's one reader and the
 * mirror's wheels; it is a raw spinlock, taken with interrupts off,
 * because a probe takes it under the kernel's raw timer_base lock, with
 * interrupts off, on PREEMPT_RT too, where a spinlock_t would sleep. So
 * nothing is taken inside it, nothing under it sleeps or calls the timer
 * API (that would be timer_base inside sw_live_lock: the reverse of the
 * probes' order), and it is held for one batch at a time. The probes'
 * common path, appending to their CPU's log, takes no lock
 * (sw_live_log.h): interrupts off on the CPU and, for a timer's event,
 * an atomic increment of its counter, whose cache line only the CPUs
 * that use that timer (or another of its hash) share.
 * Callers of the sw_live_* API hold none of these: sw_bench_run.c holds
 * its own sw_kbench_mutex around sw_live_start_records(), outside both.
 * What each member of struct sw_live is protected by is said at the
 * member (sw_live_state.h).
 */
DEFINE_RAW_SPINLOCK(sw_live_lock);	/* the logs' reader, the wheels */
DEFINE_MUTEX(sw_live_mutex);		/* start, stop, free, snapshot */
struct sw_live sw_live_mirror;

static void sw_live_free(struct sw_live *live)
{
	kvfree(live->m);
	kvfree(live->recs);
	kvfree(live->hash);
	kfree(live->slots);
	kvfree(live->top);
	sw_live_logs_free(live);
	kvfree(live->cpus);
	memset(live, 0, sizeof(*live));
}

/* Out of range, said: -EINVAL; else 0 */
static int sw_live_check(unsigned long nr_records, unsigned long log_entries)
{
	if (!nr_records || nr_records > SW_LIVE_MAX_RECORDS) {
		pr_warn("mirror: %lu records is not in 1..%d\n", nr_records,
			SW_LIVE_MAX_RECORDS);
		return -EINVAL;
	}
	if (log_entries < SW_LIVE_LOG_MIN || log_entries > SW_LIVE_LOG_MAX) {
		pr_warn("mirror: a log of %lu events is not in %lu..%lu\n", log_entries,
			SW_LIVE_LOG_MIN, SW_LIVE_LOG_MAX);
		return -EINVAL;
	}
	return 0;
}

/*
 * A new mirror's memory: the mirror, its records, their hash table of
 * 2^@hash_bits lists, the per-CPU slots and models, the top table (empty)
 * and the logs. Returns 0, or -ENOMEM with what it got in @fresh.
 */
static int sw_live_alloc(struct sw_live *fresh, unsigned long nr_records,
			 unsigned int hash_bits, unsigned long log_entries)
{
	fresh->m = kvzalloc(sizeof(*fresh->m), GFP_KERNEL);
	fresh->recs = kvcalloc(nr_records, sizeof(*fresh->recs), GFP_KERNEL);
	fresh->hash = kvmalloc_array(1UL << hash_bits, sizeof(*fresh->hash), GFP_KERNEL);
	fresh->slots = kcalloc(nr_cpu_ids, sizeof(*fresh->slots), GFP_KERNEL);
	fresh->cpus = kvcalloc(nr_cpu_ids, sizeof(*fresh->cpus), GFP_KERNEL);
	fresh->top = kvzalloc(sizeof(*fresh->top), GFP_KERNEL);	/* empty */
	if (!fresh->m || !fresh->recs || !fresh->hash || !fresh->slots || !fresh->cpus ||
	    !fresh->top)
		return -ENOMEM;
	return sw_live_logs_init(fresh, log_entries);
}

/*
 * The mirror of @fresh, its storage allocated, over @nr_records records in
 * a table of 2^@hash_bits lists: the kernel's HZ and bases, the wheels of
 * the configuration. Under sw_live_mutex.
 */
static int sw_live_setup(struct sw_live *fresh, unsigned long nr_records,
			 unsigned int hash_bits)
{
	struct sw_mirror_config cfg = {
		.khz = HZ, .now = jiffies, .bases = SW_KERNEL_TIMER_BASES,
		.slots = fresh->slots, .nr_slots = nr_cpu_ids,
		.recs = fresh->recs, .nr_recs = nr_records,
		.hash = fresh->hash, .hash_bits = hash_bits,
		.cpus = fresh->cpus, .nr_cpus = nr_cpu_ids,
	};

	cfg.geos = sw_live_config_wheels(&cfg.nr_geos);
	return sw_mirror_setup(fresh->m, &cfg);
}

/**
 * sw_live_start_records - mirror the kernel's timers from now on
 * @nr_records:	records in the pool: the timers pending at once it can follow
 * @with_own:	the module's own timers too (for the bench), not only the kernel's
 *
 * Figures of a previous run are dropped. Starting a running mirror does
 * nothing.
 *
 * Return: 0, -EINVAL if @nr_records is out of 1 .. 2^20 or the mirror_log
 * parameter out of its range, -ENOMEM, an error starting the thread, or
 * -ENODEV if the kernel lacks a tracepoint that is not optional.
 */
int sw_live_start_records(unsigned long nr_records, bool with_own)
{
	struct sw_live *live = &sw_live_mirror, fresh = {}, old;
	unsigned long log_entries = sw_live_config_log();
	unsigned int hash_bits = sw_mirror_hash_bits(nr_records);
	struct task_struct *drainer;
	int ret;

	ret = sw_live_check(nr_records, log_entries);
	if (ret)
		return ret;
	mutex_lock(&sw_live_mutex);
	if (live->running) {
		mutex_unlock(&sw_live_mutex);
		return 0;
	}
	ret = sw_live_alloc(&fresh, nr_records, hash_bits, log_entries);
	if (ret)
		goto fail;
	ret = sw_live_setup(&fresh, nr_records, hash_bits);
	if (ret)
		goto fail;
	fresh.nr_recs = nr_records;
	fresh.with_own = with_own;
	fresh.started = jiffies;

	/*
	 * No probe runs now: the new mirror takes the old one's place, which
	 * comes back if the start fails (nothing changes on an error)
	 */
	old = *live;
	*live = fresh;
	drainer = kthread_run(sw_live_drainer, NULL, "shadow_wheel_mirror");
	if (IS_ERR(drainer)) {
		ret = PTR_ERR(drainer);
		goto restore;
	}
	live->drainer = drainer;
	/* On failure it has unregistered what it registered and waited */
	ret = sw_live_register();
	if (ret) {
		kthread_stop(live->drainer);
		goto restore;
	}
	WRITE_ONCE(live->running, true);
	sw_live_free(&old);
	mutex_unlock(&sw_live_mutex);
	pr_info("mirror: started, %lu records, a log of %lu events per CPU, %u wheels\n",
		nr_records, live->log_size, sw_mirror_nr_wheels(live->m));
	return 0;
restore:
	live->drainer = NULL;
	sw_live_free(live);
	*live = old;
	mutex_unlock(&sw_live_mutex);
	return ret;
fail:
	sw_live_free(&fresh);
	mutex_unlock(&sw_live_mutex);
	return ret;
}

/* Stop with the mutex held */
static void sw_live_stop_locked(struct sw_live *live)
{
	if (!live->running)
		return;
	sw_live_unregister();
	/* No probe runs: what they logged is all there, written */
	kthread_stop(live->drainer);
	live->drainer = NULL;
	sw_live_drain();
	WRITE_ONCE(live->running, false);
	live->stopped = jiffies;
}

/**
 * sw_live_stop - stop mirroring; the figures stay
 *
 * No probe runs once it returns. Stopping a stopped mirror does nothing.
 */
void sw_live_stop(void)
{
	mutex_lock(&sw_live_mutex);
	sw_live_stop_locked(&sw_live_mirror);
	mutex_unlock(&sw_live_mutex);
}

bool sw_live_running(void)
{
	return READ_ONCE(sw_live_mirror.running);
}

/**
 * sw_live_nr_wheels - the wheels the mirror runs, or ran when it stopped
 *
 * Return: sw_mirror_nr_wheels() of the last mirror started, 0 before the
 * first start.
 */
unsigned int sw_live_nr_wheels(void)
{
	unsigned int n;

	mutex_lock(&sw_live_mutex);
	n = sw_live_mirror.m ? sw_mirror_nr_wheels(sw_live_mirror.m) : 0;
	mutex_unlock(&sw_live_mutex);
	return n;
}

/**
 * sw_live_start - start the mirror with mirror_records records
 *
 * Return: as sw_live_start_records().
 */
int sw_live_start(void)
{
	return sw_live_start_records(sw_live_config_records(), false);
}

/* On load: start if asked to */
int sw_live_load(void)
{
	return sw_live_config_on_load() ? sw_live_start() : 0;
}

/* On unload: stop and free */
void sw_live_exit(void)
{
	mutex_lock(&sw_live_mutex);
	sw_live_stop_locked(&sw_live_mirror);
	sw_live_free(&sw_live_mirror);
	mutex_unlock(&sw_live_mutex);
}
