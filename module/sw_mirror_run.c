// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the mirror on the running kernel. Probes on the kernel's
 * timer tracepoints (timer_start, timer_cancel, timer_expire_entry) feed
 * every real timer event, as it happens, into one struct sw_mirror
 * (core/sw_mirror.c): every kind of wheel at the kernel's HZ and at HZ
 * 100, 250 and 1000, side by side, with the differential against the
 * kernel's own wheel.
 *
 * Where the probes run: timer_start and timer_cancel under the real
 * base's raw lock with interrupts off; timer_expire_entry from the timer
 * softirq (the ktimers thread on PREEMPT_RT) without the base lock, with
 * interrupts on unless the timer is TIMER_IRQSAFE: expire_timers() drops
 * the lock around call_timer_fn(). A timer's events come from any CPU:
 * mod_timer() and del_timer() run where their caller runs, add_timer_on()
 * queues on another CPU, and 6.12 runs an idle CPU's global timers on
 * another one. So one mirror takes them all, serialised by one raw
 * spinlock taken with interrupts off: no sleeping lock, no allocation
 * (the records come from a pool allocated at start), no timer API, and
 * work bounded by the mirror's budget.
 *
 * Starting registers the cancel and expire probes before the start probe,
 * so that every timer the mirror sees armed is followed to its end;
 * stopping unregisters the start probe first and waits for the probes
 * still running (tracepoint_synchronize_unregister()) before anything is
 * freed. Stopped, no probe is registered and the mirror costs nothing;
 * its figures stay readable until it starts again or the module goes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
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
#include "sw_mirror_run.h"
#include "../core/sw_mirror_report.h"
#include "../core/sw_mirror_top.h"

/* The largest pool of records a start may ask for */
#define SW_MIRROR_MAX_RECORDS	SZ_1M

static bool mirror;
module_param(mirror, bool, 0444);
MODULE_PARM_DESC(mirror, "mirror the kernel's timers from load on (default 0; mirror/enable)");

static unsigned int mirror_records = 4096;
module_param(mirror_records, uint, 0644);
MODULE_PARM_DESC(mirror_records,
		 "timers pending at once the mirror can follow, from its next start (1..1048576, default 4096)");

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
	bool			with_own;
	bool			running;
};

/* Serialises the events into the mirror, and a read with them */
static DEFINE_RAW_SPINLOCK(sw_mirror_lock);
/* Serialises start, stop, free and the reads that copy the mirror out */
static DEFINE_MUTEX(sw_mirror_mutex);
static struct sw_mirror_live sw_live_mirror;

/* One event, from any probe, on any CPU */
static void sw_mirror_feed(struct sw_mirror_event *ev, void *fn)
{
	struct sw_mirror_live *live = &sw_live_mirror;
	struct sw_mirror_outcome out;
	enum sw_mirror_class class;
	unsigned long flags;

	raw_spin_lock_irqsave(&sw_mirror_lock, flags);
	/* The module's own timers (its traffic, its poll) are not the kernel's */
	if (!live->with_own && within_module((unsigned long)fn, THIS_MODULE)) {
		live->own_events++;
		raw_spin_unlock_irqrestore(&sw_mirror_lock, flags);
		return;
	}
	ev->cpu = smp_processor_id();
	ev->now = jiffies;
	class = sw_mirror_event_outcome(live->m, ev, &out);
	sw_mirror_top_account(live->top, fn, class, &out, live->m->nr_wheels);
	raw_spin_unlock_irqrestore(&sw_mirror_lock, flags);
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

	sw_mirror_feed(&ev, timer->function);
}

SW_DEFINE_TIMER_START_PROBE(sw_probe_timer_start, sw_mirror_on_start);

static void sw_probe_timer_cancel(void *data, struct timer_list *timer)
{
	struct sw_mirror_event ev = {
		.type = SW_EV_CANCEL,
		.timer = timer,
		.tflags = READ_ONCE(timer->flags),
	};

	sw_mirror_feed(&ev, timer->function);
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

	sw_mirror_feed(&ev, timer->function);
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
 * Return: 0, -EINVAL if @nr_records is out of 1 .. 2^20, -ENOMEM, or
 * -ENODEV if the kernel lacks the timer tracepoints.
 */
int sw_mirror_start_records(unsigned long nr_records, bool with_own)
{
	struct sw_mirror_live *live = &sw_live_mirror, fresh = {};
	int ret;

	if (!nr_records || nr_records > SW_MIRROR_MAX_RECORDS) {
		pr_warn("mirror: %lu records is not in 1..%d\n", nr_records,
			SW_MIRROR_MAX_RECORDS);
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
	ret = sw_mirror_init(fresh.m, HZ, jiffies, fresh.slots, nr_cpu_ids);
	if (ret)
		goto fail;
	sw_mirror_add_records(fresh.m, fresh.recs, nr_records);
	fresh.nr_recs = nr_records;
	fresh.with_own = with_own;
	fresh.started = jiffies;

	/* No probe runs now: the old mirror can go and the new one take its place */
	sw_mirror_free(live);
	*live = fresh;
	ret = sw_mirror_register();
	if (ret) {
		live->stopped = jiffies;
		mutex_unlock(&sw_mirror_mutex);
		return ret;
	}
	live->running = true;
	mutex_unlock(&sw_mirror_mutex);
	pr_info("mirror: started, %lu records, %u wheels\n", nr_records, live->m->nr_wheels);
	return 0;
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

/**
 * struct sw_mirror_snap - the mirror's figures, copied out for a read
 * @running:	the probes were registered
 * @nr_recs:	records in the pool
 * @rep:	the figures the report prints
 */
struct sw_mirror_snap {
	bool				running;
	unsigned int			nr_recs;
	struct sw_mirror_report		rep;
};

/* Rounds of catching up a read may do, each under the lock */
#define SW_MIRROR_READ_ROUNDS	64

/*
 * Copy the mirror's figures into @snap (and, if @top, its top table),
 * having brought its wheels up to jiffies first, a budget at a time with
 * the lock dropped in between. Returns false if it never ran.
 */
static bool sw_mirror_snapshot(struct sw_mirror_snap *snap, struct sw_mirror_top *top)
{
	struct sw_mirror_live *live = &sw_live_mirror;
	struct sw_mirror *m = live->m;
	unsigned long flags;
	unsigned int round;

	lockdep_assert_held(&sw_mirror_mutex);
	if (!m)
		return false;
	for (round = 0; round < SW_MIRROR_READ_ROUNDS; round++) {
		raw_spin_lock_irqsave(&sw_mirror_lock, flags);
		snap->rep.caught_up = live->running ? sw_mirror_advance(m, jiffies) : true;
		raw_spin_unlock_irqrestore(&sw_mirror_lock, flags);
		if (snap->rep.caught_up)
			break;
		cond_resched();
	}
	raw_spin_lock_irqsave(&sw_mirror_lock, flags);
	snap->running = live->running;
	snap->nr_recs = live->nr_recs;
	sw_mirror_report_take(&snap->rep, m);
	snap->rep.elapsed = (live->running ? jiffies : live->stopped) - live->started;
	snap->rep.own_events = live->own_events;
	if (top)
		*top = *live->top;
	raw_spin_unlock_irqrestore(&sw_mirror_lock, flags);
	return true;
}

/*
 * A read: the snapshot in *@snapp, or NULL and a line saying the mirror
 * never ran. Returns 0 or -ENOMEM.
 */
static int sw_mirror_read(struct seq_file *s, struct sw_mirror_top *top,
			  struct sw_mirror_snap **snapp)
{
	struct sw_mirror_snap *snap = kvzalloc(sizeof(*snap), GFP_KERNEL);

	*snapp = NULL;
	if (!snap)
		return -ENOMEM;
	mutex_lock(&sw_mirror_mutex);
	if (!sw_mirror_snapshot(snap, top)) {
		mutex_unlock(&sw_mirror_mutex);
		seq_puts(s, "running 0\n");
		kvfree(snap);
		return 0;
	}
	mutex_unlock(&sw_mirror_mutex);
	*snapp = snap;
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

int sw_mirror_show_stats(struct seq_file *s)
{
	struct sw_print p = SW_MIRROR_SEQ_PRINT(s);
	struct sw_mirror_snap *snap;
	int ret;

	ret = sw_mirror_read(s, NULL, &snap);
	if (ret || !snap)
		return ret;
	seq_printf(s, "running %d\nrecords %u\nelapsed_ms %u\nhz %d\nwheels %u\n",
		   snap->running, snap->nr_recs, jiffies_to_msecs(snap->rep.elapsed), HZ,
		   snap->rep.nr_wheels);
	sw_mirror_report_stats(&p, &snap->rep);
	kvfree(snap);
	return 0;
}

int sw_mirror_show_lateness(struct seq_file *s)
{
	struct sw_print p = SW_MIRROR_SEQ_PRINT(s);
	struct sw_mirror_snap *snap;
	int ret;

	ret = sw_mirror_read(s, NULL, &snap);
	if (ret || !snap)
		return ret;
	sw_mirror_report_lateness(&p, &snap->rep);
	kvfree(snap);
	return 0;
}

int sw_mirror_show_diff(struct seq_file *s)
{
	struct sw_print p = SW_MIRROR_SEQ_PRINT(s);
	struct sw_mirror_snap *snap;
	int ret;

	ret = sw_mirror_read(s, NULL, &snap);
	if (ret || !snap)
		return ret;
	sw_mirror_report_diff(&p, &snap->rep);
	kvfree(snap);
	return 0;
}

int sw_mirror_show_top(struct seq_file *s)
{
	struct sw_mirror_top *top = kvzalloc(sizeof(*top), GFP_KERNEL);
	struct sw_print p = SW_MIRROR_SEQ_PRINT(s);
	struct sw_mirror_snap *snap;
	int ret;

	if (!top)
		return -ENOMEM;
	ret = sw_mirror_read(s, top, &snap);
	if (ret || !snap) {
		kvfree(top);
		return ret;
	}
	sw_mirror_report_top(&p, &snap->rep, top);
	kvfree(snap);
	kvfree(top);
	return 0;
}
