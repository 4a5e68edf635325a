// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the mirror on the running kernel. Probes on the kernel's
 * timer tracepoints (timer_start, timer_cancel, timer_expire_entry) take
 * every real timer event as it happens; one struct sw_mirror
 * (core/mirror/sw_mirror.c) replays them into every kind of wheel at the
 * kernel's HZ and at HZ 100, 250 and 1000, side by side, with the
 * differential against the kernel's own wheel.
 *
 * Where the probes run: timer_start and timer_cancel under the real
 * base's raw lock with interrupts off; timer_expire_entry from the timer
 * softirq (the ktimers thread on PREEMPT_RT) without the base lock, with
 * interrupts on unless the timer is TIMER_IRQSAFE: expire_timers() drops
 * the lock around call_timer_fn(). A timer's events come from any CPU:
 * mod_timer() and del_timer() run where their caller runs, add_timer_on()
 * queues on another CPU, and 6.12 runs an idle CPU's global timers on
 * another one. So a probe does the least it can there: it appends the
 * event, with the CPU and jiffies, to the mirror's log (sw_mirror_log.h),
 * one ring for all CPUs whose order is the events' order. The mirror's
 * thread drains the log into the wheels, serialised by one raw spinlock
 * taken with interrupts off, a batch at a time; a read drains it first.
 * Only when the log is full does a probe drain a batch itself, so that
 * nothing is lost while the thread cannot keep up; an event that still
 * finds no room (its own CPU holds the oldest entry half written) is
 * counted as lost. No sleeping lock, no allocation (the log and the
 * records are allocated at start), no timer API in a probe, and bounded
 * work.
 *
 * Starting registers the cancel and expire probes before the start probe,
 * so that every timer the mirror sees armed is followed to its end;
 * stopping unregisters the start probe first and waits for the probes
 * still running (tracepoint_synchronize_unregister()) before the log is
 * drained for the last time and anything is freed. Stopped, no probe is
 * registered and the mirror costs nothing; its figures stay readable
 * until it starts again or the module goes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/tracepoint.h>

#include "sw_compat.h"
#include "sw_mirror_log.h"
#include "sw_mirror_run.h"
#include "sw_mirror_report.h"
#include "sw_mirror_top.h"

/* The largest pool of records a start may ask for */
#define SW_MIRROR_MAX_RECORDS	SZ_1M

static bool mirror;
module_param(mirror, bool, 0444);
MODULE_PARM_DESC(mirror, "mirror the kernel's timers from load on (default 0; mirror/enable)");

static unsigned int mirror_records = 4096;
module_param(mirror_records, uint, 0644);
MODULE_PARM_DESC(mirror_records,
		 "timers pending at once the mirror can follow, from its next start (1..1048576, default 4096)");

static unsigned long mirror_log = 8192;
module_param(mirror_log, ulong, 0644);
MODULE_PARM_DESC(mirror_log,
		 "events the mirror's log holds until its thread drains them, from its next start (64..1048576, rounded up to a power of two, default 8192)");

/* Events drained under one hold of the lock: about 10 us natively, interrupts off */
#define SW_MIRROR_DRAIN_BATCH	16
/* The thread's sleep between drains, by how much the last one found (us) */
#define SW_MIRROR_DRAIN_BUSY_US	1000
#define SW_MIRROR_DRAIN_US	10000
#define SW_MIRROR_DRAIN_IDLE_US	50000

/**
 * struct sw_mirror_live - the mirror and what feeds it
 * @m:		the mirror, NULL before the first start
 * @recs:	its records
 * @slots:	its per-CPU slots, nr_cpu_ids of them
 * @top:	per real timer function
 * @nr_recs:	records in the pool
 * @started:	jiffies at start
 * @stopped:	jiffies at stop, while stopped
 * @own_events: events of the module's own timers, left out
 * @log:	the events the probes logged, not drained yet
 * @drainer:	the thread that drains @log
 * @drained:	events drained from @log into the mirror
 * @drained_by_probes: of those, drained by a probe that found @log full
 * @lost:	events a probe found no room for in @log
 * @with_own:	the module's own timers are mirrored too (the bench's run)
 * @running:	the probes are registered
 */
struct sw_mirror_live {
	struct sw_mirror	*m;
	struct sw_mirror_rec	*recs;
	struct sw_mirror_rec	**slots;
	struct sw_mirror_top	*top;
	unsigned int		nr_recs;
	unsigned long		started;
	unsigned long		stopped;
	unsigned long		own_events;
	struct sw_mirror_log	log;
	struct task_struct	*drainer;
	unsigned long		drained;
	unsigned long		drained_by_probes;
	atomic_long_t		lost;
	bool			with_own;
	bool			running;
};

/* Serialises the draining of the log into the mirror, and a read with it */
static DEFINE_RAW_SPINLOCK(sw_mirror_lock);
/* Serialises start, stop, free and the reads that copy the mirror out */
static DEFINE_MUTEX(sw_mirror_mutex);
static struct sw_mirror_live sw_live_mirror;

/* One logged event into the mirror, with the lock held */
static void sw_mirror_feed(struct sw_mirror_live *live, const struct sw_mirror_logged *ent)
{
	struct sw_mirror_outcome out;
	enum sw_mirror_class class;

	lockdep_assert_held(&sw_mirror_lock);
	/* The module's own timers (its traffic, its poll) are not the kernel's */
	if (!live->with_own && within_module((unsigned long)ent->fn, THIS_MODULE)) {
		live->own_events++;
		return;
	}
	class = sw_mirror_event_outcome(live->m, &ent->ev, &out);
	sw_mirror_top_account(live->top, ent->fn, class, &out, live->m->nr_wheels);
}

/* Up to @max events from the log into the mirror, with the lock held */
static unsigned long sw_mirror_drain_locked(struct sw_mirror_live *live, unsigned long max)
{
	const struct sw_mirror_logged *ent;
	unsigned long n = 0;

	lockdep_assert_held(&sw_mirror_lock);
	while (n < max && (ent = sw_mirror_log_peek(&live->log))) {
		sw_mirror_feed(live, ent);
		sw_mirror_log_pop(&live->log);
		n++;
	}
	live->drained += n;
	return n;
}

/*
 * The log was full: drain a batch here, under the lock, and log the event
 * after them. Still no room means the oldest entry is being written by
 * this CPU, interrupted: the event is lost, and counted.
 */
static noinline void sw_mirror_log_full(struct sw_mirror_live *live,
					const struct sw_mirror_event *ev, void *fn)
{
	struct sw_mirror_logged *ent;
	unsigned long flags, pos;

	raw_spin_lock_irqsave(&sw_mirror_lock, flags);
	live->drained_by_probes += sw_mirror_drain_locked(live, SW_MIRROR_DRAIN_BATCH);
	ent = sw_mirror_log_reserve(&live->log, &pos);
	if (ent) {
		ent->ev = *ev;
		ent->fn = fn;
		sw_mirror_log_publish(ent, pos);
	} else {
		atomic_long_inc(&live->lost);
	}
	raw_spin_unlock_irqrestore(&sw_mirror_lock, flags);
}

/* One event, from any probe, on any CPU: into the log */
static void sw_mirror_log_event(struct sw_mirror_event *ev, void *fn)
{
	struct sw_mirror_live *live = &sw_live_mirror;
	struct sw_mirror_logged *ent;
	unsigned long pos;

	ev->cpu = raw_smp_processor_id();
	ev->now = jiffies;
	ent = sw_mirror_log_reserve(&live->log, &pos);
	if (unlikely(!ent)) {
		sw_mirror_log_full(live, ev, fn);
		return;
	}
	ent->ev = *ev;
	ent->fn = fn;
	sw_mirror_log_publish(ent, pos);
}

/**
 * sw_mirror_drain - drain the log into the mirror, a batch per lock hold
 *
 * Return: the events drained. Not with the lock held; may sleep.
 */
unsigned long sw_mirror_drain(void)
{
	struct sw_mirror_live *live = &sw_live_mirror;
	unsigned long flags, n, total = 0;

	might_sleep();
	if (!live->log.ents)
		return 0;
	do {
		raw_spin_lock_irqsave(&sw_mirror_lock, flags);
		n = sw_mirror_drain_locked(live, SW_MIRROR_DRAIN_BATCH);
		raw_spin_unlock_irqrestore(&sw_mirror_lock, flags);
		total += n;
		cond_resched();
	} while (n == SW_MIRROR_DRAIN_BATCH);
	return total;
}

/*
 * The mirror's thread: drains the log, then sleeps the longer the less it
 * found, on an hrtimer (no timer_list of its own in the traffic it
 * mirrors), not counted in the load average, until kthread_stop()
 */
static int sw_mirror_drainer(void *unused)
{
	const unsigned long busy = (sw_live_mirror.log.mask + 1) / 8;

	while (!kthread_should_stop()) {
		unsigned long n = sw_mirror_drain();
		ktime_t sleep;

		sleep = (n >= busy ? SW_MIRROR_DRAIN_BUSY_US :
			 n ? SW_MIRROR_DRAIN_US : SW_MIRROR_DRAIN_IDLE_US) * NSEC_PER_USEC;
		set_current_state(TASK_IDLE);
		if (!kthread_should_stop())
			schedule_hrtimeout_range(&sleep, sleep / 4, HRTIMER_MODE_REL);
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* timer_start, whichever form the kernel gives it (see sw_compat.h) */
static void sw_mirror_on_start(struct timer_list *timer, unsigned long expires,
			       unsigned int flags, bool has_bucket_expiry,
			       unsigned long bucket_expiry)
{
	struct sw_mirror_event ev = {
		.type = SW_EV_START,
		.timer = timer,
		.expires = expires,
		.tflags = flags,
		.kclk = bucket_expiry,
		.have = SW_EVF_IDX | (has_bucket_expiry ? SW_EVF_BUCKET : 0),
	};

	sw_mirror_log_event(&ev, timer->function);
}

SW_DEFINE_TIMER_START_PROBE(sw_probe_timer_start, sw_mirror_on_start);

static void sw_probe_timer_cancel(void *data, struct timer_list *timer)
{
	struct sw_mirror_event ev = {
		.type = SW_EV_CANCEL,
		.timer = timer,
		.tflags = READ_ONCE(timer->flags),
	};

	sw_mirror_log_event(&ev, timer->function);
}

static void sw_probe_timer_expire_entry(void *data, struct timer_list *timer,
					unsigned long baseclk)
{
	struct sw_mirror_event ev = {
		.type = SW_EV_EXPIRE,
		.timer = timer,
		.expires = READ_ONCE(timer->expires),
		.kclk = baseclk,
		.tflags = READ_ONCE(timer->flags),
		.have = SW_EVF_EXPIRES,
	};

	sw_mirror_log_event(&ev, timer->function);
}

/* The probes, in the order they are registered */
static const struct sw_mirror_probe {
	const char		*name;
	void			*probe;
} sw_mirror_probes[] = {
	{ "timer_cancel",	sw_probe_timer_cancel },
	{ "timer_expire_entry",	sw_probe_timer_expire_entry },
	{ "timer_start",	sw_probe_timer_start },
};

static struct tracepoint *sw_mirror_tps[ARRAY_SIZE(sw_mirror_probes)];

static void sw_mirror_find_tp(struct tracepoint *tp, void *unused)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sw_mirror_probes); i++) {
		if (!strcmp(tp->name, sw_mirror_probes[i].name))
			sw_mirror_tps[i] = tp;
	}
}

/* Unregister the probes from the last registered, @n of them */
static void sw_mirror_unregister(unsigned int n)
{
	while (n--)
		tracepoint_probe_unregister(sw_mirror_tps[n], sw_mirror_probes[n].probe, NULL);
	tracepoint_synchronize_unregister();
}

static int sw_mirror_register(void)
{
	unsigned int i;
	int ret;

	for_each_kernel_tracepoint(sw_mirror_find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(sw_mirror_probes); i++) {
		if (!sw_mirror_tps[i]) {
			pr_warn("mirror: the kernel has no %s tracepoint\n",
				sw_mirror_probes[i].name);
			sw_mirror_unregister(i);
			return -ENODEV;
		}
		ret = tracepoint_probe_register(sw_mirror_tps[i], sw_mirror_probes[i].probe, NULL);
		if (ret) {
			pr_warn("mirror: cannot probe %s (%pe)\n", sw_mirror_probes[i].name,
				ERR_PTR(ret));
			sw_mirror_unregister(i);
			return ret;
		}
	}
	return 0;
}

static void sw_mirror_free(struct sw_mirror_live *live)
{
	kvfree(live->m);
	kvfree(live->recs);
	kfree(live->slots);
	kvfree(live->top);
	sw_mirror_log_free(&live->log);
	memset(live, 0, sizeof(*live));
}

/**
 * sw_mirror_start_records - mirror the kernel's timers from now on
 * @nr_records:	records in the pool: the timers pending at once it can follow
 * @with_own:	the module's own timers too (for the bench), not only the kernel's
 *
 * Figures of a previous run are dropped. Starting a running mirror does
 * nothing.
 *
 * Return: 0, -EINVAL if @nr_records is out of 1 .. 2^20 or the mirror_log
 * parameter out of its range, -ENOMEM, an error starting the thread, or
 * -ENODEV if the kernel lacks the timer tracepoints.
 */
int sw_mirror_start_records(unsigned long nr_records, bool with_own)
{
	struct sw_mirror_live *live = &sw_live_mirror, fresh = {}, old;
	unsigned long log_entries = READ_ONCE(mirror_log);
	struct task_struct *drainer;
	int ret;

	if (!nr_records || nr_records > SW_MIRROR_MAX_RECORDS) {
		pr_warn("mirror: %lu records is not in 1..%d\n", nr_records,
			SW_MIRROR_MAX_RECORDS);
		return -EINVAL;
	}
	if (log_entries < SW_MIRROR_LOG_MIN || log_entries > SW_MIRROR_LOG_MAX) {
		pr_warn("mirror: a log of %lu events is not in %lu..%lu\n", log_entries,
			SW_MIRROR_LOG_MIN, SW_MIRROR_LOG_MAX);
		return -EINVAL;
	}
	mutex_lock(&sw_mirror_mutex);
	if (live->running) {
		mutex_unlock(&sw_mirror_mutex);
		return 0;
	}
	ret = -ENOMEM;
	fresh.m = kvzalloc(sizeof(*fresh.m), GFP_KERNEL);
	fresh.recs = kvcalloc(nr_records, sizeof(*fresh.recs), GFP_KERNEL);
	fresh.slots = kcalloc(nr_cpu_ids, sizeof(*fresh.slots), GFP_KERNEL);
	fresh.top = kvzalloc(sizeof(*fresh.top), GFP_KERNEL);	/* empty */
	if (!fresh.m || !fresh.recs || !fresh.slots || !fresh.top)
		goto fail;
	ret = sw_mirror_log_init(&fresh.log, log_entries);
	if (ret)
		goto fail;
	ret = sw_mirror_init(fresh.m, HZ, jiffies, fresh.slots, nr_cpu_ids);
	if (ret)
		goto fail;
	sw_mirror_add_records(fresh.m, fresh.recs, nr_records);
	fresh.nr_recs = nr_records;
	fresh.with_own = with_own;
	fresh.started = jiffies;

	/*
	 * No probe runs now: the new mirror takes the old one's place, which
	 * comes back if the start fails (nothing changes on an error)
	 */
	old = *live;
	*live = fresh;
	drainer = kthread_run(sw_mirror_drainer, NULL, "shadow_wheel_mirror");
	if (IS_ERR(drainer)) {
		ret = PTR_ERR(drainer);
		goto restore;
	}
	live->drainer = drainer;
	/* On failure it has unregistered what it registered and waited */
	ret = sw_mirror_register();
	if (ret) {
		kthread_stop(live->drainer);
		goto restore;
	}
	live->running = true;
	sw_mirror_free(&old);
	mutex_unlock(&sw_mirror_mutex);
	pr_info("mirror: started, %lu records, a log of %lu events, %u wheels\n", nr_records,
		live->log.mask + 1, live->m->nr_wheels);
	return 0;
restore:
	live->drainer = NULL;
	sw_mirror_free(live);
	*live = old;
	mutex_unlock(&sw_mirror_mutex);
	return ret;
fail:
	sw_mirror_free(&fresh);
	mutex_unlock(&sw_mirror_mutex);
	return ret;
}

/* Stop with the mutex held */
static void sw_mirror_stop_locked(struct sw_mirror_live *live)
{
	if (!live->running)
		return;
	sw_mirror_unregister(ARRAY_SIZE(sw_mirror_probes));
	/* No probe runs: what they logged is all there, written */
	kthread_stop(live->drainer);
	live->drainer = NULL;
	sw_mirror_drain();
	live->running = false;
	live->stopped = jiffies;
}

/**
 * sw_mirror_stop - stop mirroring; the figures stay
 *
 * No probe runs once it returns. Stopping a stopped mirror does nothing.
 */
void sw_mirror_stop(void)
{
	mutex_lock(&sw_mirror_mutex);
	sw_mirror_stop_locked(&sw_live_mirror);
	mutex_unlock(&sw_mirror_mutex);
}

bool sw_mirror_running(void)
{
	return READ_ONCE(sw_live_mirror.running);
}

/**
 * sw_mirror_start - start the mirror with mirror_records records
 *
 * Return: as sw_mirror_start_records().
 */
int sw_mirror_start(void)
{
	return sw_mirror_start_records(READ_ONCE(mirror_records), false);
}

/* On load: start if asked to */
int sw_mirror_load(void)
{
	return mirror ? sw_mirror_start() : 0;
}

/* On unload: stop and free */
void sw_mirror_exit(void)
{
	mutex_lock(&sw_mirror_mutex);
	sw_mirror_stop_locked(&sw_live_mirror);
	sw_mirror_free(&sw_live_mirror);
	mutex_unlock(&sw_mirror_mutex);
}

/* Rounds of catching up a read may do, each under the lock */
#define SW_MIRROR_READ_ROUNDS	64

/*
 * Take the mirror's report into @rep (with its top table if @with_top),
 * having brought its wheels up to jiffies first, a budget at a time with
 * the lock dropped in between. Returns false if it never ran.
 */
static bool sw_mirror_snapshot(struct sw_mirror_report *rep, bool with_top)
{
	struct sw_mirror_live *live = &sw_live_mirror;
	struct sw_mirror_head head = { .has_log = true, .caught_up = true };
	struct sw_mirror *m = live->m;
	unsigned long flags;
	unsigned int round;

	lockdep_assert_held(&sw_mirror_mutex);
	if (!m)
		return false;
	sw_mirror_drain();
	for (round = 0; live->running && round < SW_MIRROR_READ_ROUNDS; round++) {
		raw_spin_lock_irqsave(&sw_mirror_lock, flags);
		head.caught_up = sw_mirror_advance(m, jiffies);
		raw_spin_unlock_irqrestore(&sw_mirror_lock, flags);
		if (head.caught_up)
			break;
		cond_resched();
	}
	raw_spin_lock_irqsave(&sw_mirror_lock, flags);
	head.running = live->running;
	head.records = live->nr_recs;
	head.elapsed_ms = jiffies_to_msecs((live->running ? jiffies : live->stopped) -
					   live->started);
	head.own_events = live->own_events;
	head.log_size = live->log.mask + 1;
	head.log_drained = live->drained;
	head.log_drained_by_probes = live->drained_by_probes;
	head.log_lost = atomic_long_read(&live->lost);
	sw_mirror_report_take(rep, &head, m, with_top ? live->top : NULL);
	raw_spin_unlock_irqrestore(&sw_mirror_lock, flags);
	return true;
}

/*
 * A read: the report in *@repp, or NULL and a line saying the mirror
 * never ran. Returns 0 or -ENOMEM.
 */
static int sw_mirror_read(struct seq_file *s, bool with_top, struct sw_mirror_report **repp)
{
	struct sw_mirror_report *rep = kvzalloc(sizeof(*rep), GFP_KERNEL);

	*repp = NULL;
	if (!rep)
		return -ENOMEM;
	mutex_lock(&sw_mirror_mutex);
	if (!sw_mirror_snapshot(rep, with_top)) {
		mutex_unlock(&sw_mirror_mutex);
		seq_puts(s, "running 0\n");
		kvfree(rep);
		return 0;
	}
	mutex_unlock(&sw_mirror_mutex);
	*repp = rep;
	return 0;
}

static __printf(2, 0) void sw_mirror_seq_vprintf(struct sw_print *p, const char *fmt, va_list args)
{
	seq_vprintf(p->ctx, fmt, args);
}

static void sw_mirror_seq_fn(struct sw_print *p, const void *fn)
{
	seq_printf(p->ctx, "%ps", fn);
}

/* The report's sink: the seq_file of the read */
#define SW_MIRROR_SEQ_PRINT(s) {				\
	.vprintf = sw_mirror_seq_vprintf,			\
	.fn = sw_mirror_seq_fn,					\
	.ctx = (s),						\
}

/* A mirror/ file: the report, @print'ed into the read */
static int sw_mirror_show(struct seq_file *s, bool with_top,
			  void (*print)(struct sw_print *p, const struct sw_mirror_report *rep))
{
	struct sw_print p = SW_MIRROR_SEQ_PRINT(s);
	struct sw_mirror_report *rep;
	int ret;

	ret = sw_mirror_read(s, with_top, &rep);
	if (ret || !rep)
		return ret;
	print(&p, rep);
	kvfree(rep);
	return 0;
}

int sw_mirror_show_stats(struct seq_file *s)
{
	return sw_mirror_show(s, false, sw_mirror_report_stats);
}

int sw_mirror_show_lateness(struct seq_file *s)
{
	return sw_mirror_show(s, false, sw_mirror_report_lateness);
}

int sw_mirror_show_diff(struct seq_file *s)
{
	return sw_mirror_show(s, false, sw_mirror_report_diff);
}

int sw_mirror_show_top(struct seq_file *s)
{
	return sw_mirror_show(s, true, sw_mirror_report_top);
}

int sw_mirror_show_summary(struct seq_file *s)
{
	return sw_mirror_show(s, true, sw_mirror_report_summary);
}
