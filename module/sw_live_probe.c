// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the mirror on the running kernel (sw_live_*), the side
 * that feeds it; sw_live_read.c reads it. Probes on the kernel's timer
 * tracepoints (timer_start, timer_cancel, timer_expire_entry) take
 * every real timer event as it happens; one struct sw_mirror
 * (core/mirror/sw_mirror.c) replays them into every kind of wheel at the
 * kernel's HZ and at HZ 100, 250 and 1000, side by side, with the
 * differential against the kernel's own wheel.
 *
 * Probes on the CPU's own events say when the kernel's timer work ran and
 * when the CPU slept: softirq_entry and softirq_exit of TIMER_SOFTIRQ, and
 * the CPU going idle and leaving it (timer_base_idle where the kernel has
 * it, 6.9 on: the timer base's own idle; cpu_idle before).
 *
 * Where the probes run: timer_start and timer_cancel under the real
 * base's raw lock with interrupts off; timer_expire_entry from the timer
 * softirq (the ktimers thread on PREEMPT_RT) without the base lock, with
 * interrupts on unless the timer is TIMER_IRQSAFE: expire_timers() drops
 * the lock around call_timer_fn(). softirq_entry and softirq_exit run in
 * __do_softirq() (handle_softirqs() in 6.12) with interrupts on, in
 * softirq context (a thread on PREEMPT_RT), for every vector: the probe
 * logs TIMER_SOFTIRQ's only. cpu_idle runs in the idle task with
 * preemption off, with interrupts off on entry and, in 6.12, on exit; in
 * 6.1 default_idle_call() and cpu_idle_poll() trace the exit with
 * interrupts on. timer_base_idle runs with interrupts off: on entry under
 * the CPU's local and global timer_base locks (__get_next_timer_interrupt()),
 * on exit without them (timer_clear_idle()). A timer's events come from any CPU:
 * mod_timer() and del_timer() run where their caller runs, add_timer_on()
 * queues on another CPU, and 6.12 runs an idle CPU's global timers on
 * another one. So a probe does the least it can there: it appends the
 * event, with the CPU and jiffies, to its CPU's log (sw_live_log.h), and
 * numbers a timer's event on a counter of the timer's (by a hash of its
 * address), so that the drain can merge the logs back into each timer's
 * real order (core/mirror/sw_logmerge.c says why that is right). The
 * mirror's thread drains the logs into the wheels, serialised by one raw
 * spinlock taken with interrupts off, a batch at a time; a read drains
 * them first. Only when its log is full does a probe drain itself, until
 * its log has room, so that nothing is lost while the thread cannot keep
 * up; an event that still finds no room (its log's oldest entries wait
 * for an event still being written) is counted as lost, and takes no
 * number. No sleeping lock, no allocation (the logs and the
 * records are allocated at start), no timer API in a probe, and bounded
 * work.
 *
 * Starting registers the cancel and expire probes, then the CPU's, before
 * the start probe, so that every timer the mirror sees armed is followed
 * to its end;
 * stopping unregisters the start probe first and waits for the probes
 * still running (tracepoint_synchronize_unregister()) before the logs are
 * drained for the last time and anything is freed. Stopped, no probe is
 * registered and the mirror costs nothing; its figures stay readable
 * until it starts again or the module goes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/tracepoint.h>
#include <trace/events/power.h>

#include "sw_compat.h"
#include "sw_live.h"
#include "sw_live_state.h"

/* The largest pool of records a start may ask for */
#define SW_LIVE_MAX_RECORDS	SZ_1M

static bool mirror;
module_param(mirror, bool, 0444);
MODULE_PARM_DESC(mirror, "mirror the kernel's timers from load on (default 0; mirror/enable)");

static unsigned int mirror_records = 4096;
module_param(mirror_records, uint, 0644);
MODULE_PARM_DESC(mirror_records,
		 "timers pending at once the mirror can follow, from its next start (1..1048576, default 4096)");

static unsigned long mirror_log = 4096;
module_param(mirror_log, ulong, 0644);
MODULE_PARM_DESC(mirror_log,
		 "events each CPU's log of the mirror holds until its thread drains them, from its next start (64..1048576, rounded up to a power of two, default 4096)");

/* Events drained under one hold of the lock: about 10 us natively, interrupts off */
#define SW_LIVE_DRAIN_BATCH	16
/* The thread's sleep between drains, by how much the last one found (us) */
#define SW_LIVE_DRAIN_BUSY_US	1000
#define SW_LIVE_DRAIN_US	10000
#define SW_LIVE_DRAIN_IDLE_US	50000

/*
 * The live mirror's two locks, and what nests inside what (outermost
 * first; nothing here is ever taken the other way round):
 *
 *   kernel_param_lock		a write of mirror_wheels
 *   sw_live_mutex			start, stop, free; a read's snapshot;
 *					the wheels the next start adds
 *     cpu_hotplug_lock (read)		tracepoint_probe_register() and
 *					_unregister() switch static keys
 *     sw_live_lock			each batch drained into the mirror,
 *					each round of a read's catching up
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
 */
DEFINE_RAW_SPINLOCK(sw_live_lock);	/* the logs' reader, the wheels */
DEFINE_MUTEX(sw_live_mutex);		/* start, stop, free, snapshot */
struct sw_live sw_live_mirror;

/*
 * The wheels the mirror adds to its defaults from its next start, each
 * parsed at the kernel's HZ: the mirror_wheels parameter and debugfs
 * mirror/wheels set them (sw_live_set_wheels()). Under sw_live_mutex.
 */
static struct sw_geometry sw_live_geos[SW_MIRROR_MAX_WHEELS];
static unsigned int sw_live_nr_geos;

/**
 * sw_live_set_wheels - the wheels the mirror adds from its next start
 * @list:	specs apart by ';' (sw_geometry_parse_list()), at the kernel's
 *		HZ when a spec gives none; empty: none
 * @who:	the parameter or file it came by, for the message
 *
 * At most %SW_MIRROR_MAX_WHEELS less the default wheels (7 at HZ 100,
 * 250 and 1000; 4 at any other). A running mirror keeps its wheels.
 *
 * Return: 0, or -EINVAL, with the message naming the spec at fault, the
 * parameter and its range; the wheels stay as they were.
 */
int sw_live_set_wheels(const char *list, const char *who)
{
	unsigned int room = SW_MIRROR_MAX_WHEELS - sw_mirror_nr_default_wheels(HZ);
	char err[SW_SPEC_ERR_MAX];
	int nr;

	mutex_lock(&sw_live_mutex);
	nr = sw_geometry_parse_list(sw_live_geos, room, list, HZ, err, sizeof(err));
	if (nr >= 0)
		sw_live_nr_geos = nr;
	mutex_unlock(&sw_live_mutex);
	if (nr < 0) {
		pr_warn("%s: %s\n", who, err);
		return nr;
	}
	return 0;
}

/**
 * sw_live_print_wheels - what sw_live_set_wheels() was last given
 * @buf:	gets the wheels' canonical specs apart by ';', and a newline
 * @size:	room at @buf
 *
 * Each spec is sw_geometry_format()'s, which sw_live_set_wheels() takes
 * back whatever the default HZ.
 *
 * Return: the length written, at most @size - 1.
 */
int sw_live_print_wheels(char *buf, size_t size)
{
	char spec[SW_SPEC_MAX];
	unsigned int i;
	int len = 0;

	mutex_lock(&sw_live_mutex);
	for (i = 0; i < sw_live_nr_geos; i++) {
		sw_geometry_format(&sw_live_geos[i], spec, sizeof(spec));
		len += scnprintf(buf + len, size - len, "%s%s", i ? ";" : "", spec);
	}
	mutex_unlock(&sw_live_mutex);
	return len + scnprintf(buf + len, size - len, "\n");
}

static int sw_live_wheels_param_set(const char *val, const struct kernel_param *kp)
{
	return sw_live_set_wheels(val, kp->name);
}

static int sw_live_wheels_param_get(char *buf, const struct kernel_param *kp)
{
	return sw_live_print_wheels(buf, PAGE_SIZE);
}

static const struct kernel_param_ops sw_live_wheels_param_ops = {
	.set	= sw_live_wheels_param_set,
	.get	= sw_live_wheels_param_get,
};
module_param_cb(mirror_wheels, &sw_live_wheels_param_ops, NULL, 0644);
MODULE_PARM_DESC(mirror_wheels,
		 "wheels the mirror runs beside its defaults, from its next start: specs apart by ';' (docs/design.rst, \"Any geometry: the spec\"), 16 wheels in all at most");

/* An event of the CPU itself (its timer softirq, its idle), not of a timer */
static bool sw_live_cpu_event(const struct sw_mirror_event *ev)
{
	switch (ev->type) {
	case SW_EV_SOFTIRQ_ENTRY:
	case SW_EV_SOFTIRQ_EXIT:
	case SW_EV_IDLE_ENTER:
	case SW_EV_IDLE_EXIT:
		return true;
	default:
		return false;
	}
}

/* One logged event into the mirror, with the lock held */
static void sw_live_feed(struct sw_live *live, const struct sw_live_logged *ent)
{
	struct sw_mirror_outcome out;
	enum sw_mirror_class class;

	lockdep_assert_held(&sw_live_lock);
	/* The CPU's own events go to its model: they have no timer to account */
	if (sw_live_cpu_event(&ent->ev)) {
		if (ent->ev.type == SW_EV_SOFTIRQ_ENTRY)
			live->softirqs++;
		sw_mirror_handle_event(live->m, &ent->ev, NULL);
		return;
	}
	/* The module's own timers (its traffic, its poll) are not the kernel's */
	if (!live->with_own && within_module((unsigned long)ent->fn, THIS_MODULE)) {
		live->own_events++;
		return;
	}
	class = sw_mirror_handle_event(live->m, &ent->ev, &out);
	sw_mirror_top_account(live->top, ent->fn, class, &out, sw_mirror_nr_wheels(live->m));
}

/* What the merge sees of CPU @cpu's log, with the lock held */
static void sw_live_head(struct sw_live *live, unsigned int cpu)
{
	const struct sw_live_log *log = per_cpu_ptr(live->logs, cpu);
	struct sw_logmerge_head *h = &live->heads[cpu];
	const struct sw_live_logged *ent = sw_live_log_peek(log);

	if (ent) {
		h->now = ent->ev.now;
		h->nr = ent->nr;
		h->backlog = sw_live_log_unread(log);
		h->counter = ent->counter;
		h->state = SW_LH_READY;
	} else {
		/* An entry reserved that sw_live_log_peek() does not give yet */
		h->state = sw_live_log_unread(log) ? SW_LH_WRITING : SW_LH_EMPTY;
	}
}

/* Read again the logs whose next event was not written yet */
static void sw_live_heads(struct sw_live *live)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		if (live->heads[cpu].state != SW_LH_READY)
			sw_live_head(live, cpu);
	}
}

/* Read every log's backlog again: once a batch, as the others write on */
static void sw_live_backlogs(struct sw_live *live)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		live->heads[cpu].backlog = sw_live_log_unread(per_cpu_ptr(live->logs, cpu));
}

/*
 * The CPU whose logged event comes next, or < 0 if none may come yet. A
 * gap is certain only if the logs read after the heads still show
 * nothing being written (sw_logmerge.c): then it is forced through.
 */
static int sw_live_pick(struct sw_live *live)
{
	int cpu;

	sw_live_heads(live);
	cpu = sw_logmerge_pick(&live->merge, live->heads);
	if (cpu == SW_LOGMERGE_GAP) {
		sw_live_heads(live);
		cpu = sw_logmerge_force(&live->merge, live->heads);
	}
	return cpu;
}

/* Up to @max events from the logs into the mirror, merged, with the lock held */
static unsigned long sw_live_drain_locked(struct sw_live *live, unsigned long max)
{
	struct sw_live_log *log;
	unsigned long n = 0;
	int cpu;

	lockdep_assert_held(&sw_live_lock);
	sw_live_backlogs(live);
	while (n < max && (cpu = sw_live_pick(live)) >= 0) {
		log = per_cpu_ptr(live->logs, cpu);
		sw_live_feed(live, sw_live_log_peek(log));
		sw_live_log_pop(log);
		sw_live_head(live, cpu);
		n++;
	}
	live->drained += n;
	return n;
}

/*
 * This CPU's log was full: drain here, under the lock, a batch at a time,
 * until it has room. The merge takes the logs' events in their order, so
 * every event older than this log's oldest goes first: at most what all
 * the logs hold. Still no room means this log's oldest entries wait for
 * an event another CPU is writing, or one this CPU was interrupted
 * writing (an event of no timer, in a probe this one interrupted): the
 * event is lost, and counted.
 */
static noinline struct sw_live_logged *
sw_live_reserve_full(struct sw_live *live, struct sw_live_log *log, unsigned long *pos)
{
	unsigned long n, flags, budget = nr_cpu_ids * live->log_size;
	struct sw_live_logged *ent;

	local_inc(&log->full);
	do {
		raw_spin_lock_irqsave(&sw_live_lock, flags);
		n = sw_live_drain_locked(live, min_t(unsigned long, budget, SW_LIVE_DRAIN_BATCH));
		live->drained_by_probes += n;
		raw_spin_unlock_irqrestore(&sw_live_lock, flags);
		budget -= n;
		ent = sw_live_log_reserve(log, pos);
	} while (!ent && n && budget);
	if (!ent)
		local_inc(&log->lost);
	return ent;
}

/*
 * One event, from any probe, on any CPU: into its CPU's log, numbered on
 * counter @counter if it is one (%SW_LIVE_ORDERS: none). A numbered event
 * takes its entry and its number with interrupts off, at one moment of
 * the CPU's (sw_logmerge.c): start and cancel come so, expire_entry is
 * made so; an event of no timer may be interrupted by another probe.
 */
static void sw_live_record(struct sw_mirror_event *ev, void *fn, unsigned int counter)
{
	bool irq_off = counter < SW_LIVE_ORDERS && !irqs_disabled();
	struct sw_live *live = &sw_live_mirror;
	unsigned long flags = 0, pos;
	struct sw_live_logged *ent;
	struct sw_live_log *log;

	if (irq_off)
		local_irq_save(flags);
	log = this_cpu_ptr(live->logs);
	ent = sw_live_log_reserve(log, &pos);
	if (unlikely(!ent))
		ent = sw_live_reserve_full(live, log, &pos);
	if (likely(ent)) {
		ent->nr = counter < SW_LIVE_ORDERS ?
			  atomic_long_inc_return(&live->orders[counter].next) - 1 : 0;
		ent->counter = counter;
		ev->cpu = smp_processor_id();
		ev->now = jiffies;
		ent->ev = *ev;
		ent->fn = fn;
		sw_live_log_publish(ent, pos);
	}
	if (irq_off)
		local_irq_restore(flags);
}

/* A timer's event: numbered on its timer's counter */
static void sw_live_record_timer(struct sw_mirror_event *ev, const struct timer_list *timer)
{
	sw_live_record(ev, timer->function, hash_ptr(timer, SW_LIVE_ORDER_BITS));
}

/**
 * sw_live_drain - drain the log into the mirror, a batch per lock hold
 *
 * Return: the events drained. Not with the lock held; may sleep.
 */
unsigned long sw_live_drain(void)
{
	struct sw_live *live = &sw_live_mirror;
	unsigned long flags, n, total = 0;

	might_sleep();
	if (!live->logs)
		return 0;
	do {
		raw_spin_lock_irqsave(&sw_live_lock, flags);
		n = sw_live_drain_locked(live, SW_LIVE_DRAIN_BATCH);
		raw_spin_unlock_irqrestore(&sw_live_lock, flags);
		total += n;
		cond_resched();
	} while (n == SW_LIVE_DRAIN_BATCH);
	return total;
}

/*
 * The mirror's thread: drains the log, then sleeps the longer the less it
 * found, on an hrtimer (no timer_list of its own in the traffic it
 * mirrors), not counted in the load average, until kthread_stop()
 */
static int sw_live_drainer(void *unused)
{
	const unsigned long busy = sw_live_mirror.log_size / 8;

	while (!kthread_should_stop()) {
		unsigned long n = sw_live_drain();
		ktime_t sleep;

		sleep = (n >= busy ? SW_LIVE_DRAIN_BUSY_US :
			 n ? SW_LIVE_DRAIN_US : SW_LIVE_DRAIN_IDLE_US) * NSEC_PER_USEC;
		set_current_state(TASK_IDLE);
		if (!kthread_should_stop())
			schedule_hrtimeout_range(&sleep, sleep / 4, HRTIMER_MODE_REL);
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* timer_start, whichever form the kernel gives it (see sw_compat.h) */
static void sw_live_on_start(struct timer_list *timer, unsigned long expires,
			     unsigned int flags, bool has_bucket_expiry,
			     unsigned long bucket_expiry)
{
	struct sw_mirror_event ev = {
		.type = SW_EV_START,
		.timer = timer,
		.expires = expires,
		.tflags = flags,
		.bucket_expiry = bucket_expiry,
		.have = SW_EVF_IDX | (has_bucket_expiry ? SW_EVF_BUCKET : 0),
	};

	sw_live_record_timer(&ev, timer);
}

SW_DEFINE_TIMER_START_PROBE(sw_live_probe_timer_start, sw_live_on_start);

static void sw_live_probe_timer_cancel(void *data, struct timer_list *timer)
{
	struct sw_mirror_event ev = {
		.type = SW_EV_CANCEL,
		.timer = timer,
		.tflags = READ_ONCE(timer->flags),
	};

	sw_live_record_timer(&ev, timer);
}

static void sw_live_probe_timer_expire_entry(void *data, struct timer_list *timer,
					     unsigned long baseclk)
{
	struct sw_mirror_event ev = {
		.type = SW_EV_EXPIRE,
		.timer = timer,
		.expires = READ_ONCE(timer->expires),
		.baseclk = baseclk,
		.tflags = READ_ONCE(timer->flags),
		.have = SW_EVF_EXPIRES,
	};

	sw_live_record_timer(&ev, timer);
}

/* An event of the CPU it runs on, from any of its probes */
static void sw_live_on_cpu(enum sw_mirror_ev_type type)
{
	struct sw_mirror_event ev = { .type = type };

	sw_live_record(&ev, NULL, SW_LIVE_ORDERS);
}

/* Every softirq vector's: the timer softirq's only are logged */
static void sw_live_probe_softirq_entry(void *data, unsigned int vec_nr)
{
	if (vec_nr == TIMER_SOFTIRQ)
		sw_live_on_cpu(SW_EV_SOFTIRQ_ENTRY);
}

static void sw_live_probe_softirq_exit(void *data, unsigned int vec_nr)
{
	if (vec_nr == TIMER_SOFTIRQ)
		sw_live_on_cpu(SW_EV_SOFTIRQ_EXIT);
}

/* @cpu_id is the CPU the probe runs on */
static void sw_live_probe_cpu_idle(void *data, unsigned int state, unsigned int cpu_id)
{
	sw_live_on_cpu(state == (unsigned int)PWR_EVENT_EXIT ? SW_EV_IDLE_EXIT : SW_EV_IDLE_ENTER);
}

/* @cpu is the CPU the probe runs on: its timer bases go idle or leave it */
static void sw_live_probe_timer_base_idle(void *data, bool is_idle, unsigned int cpu)
{
	sw_live_on_cpu(is_idle ? SW_EV_IDLE_ENTER : SW_EV_IDLE_EXIT);
}

/**
 * struct sw_live_tp - a tracepoint the mirror probes
 * @name:	the tracepoint's
 * @probe:	the probe
 * @optional:	a kernel without it is mirrored all the same
 * @unless:	NULL, or a tracepoint that takes this one's place where the
 *		kernel has it
 */
struct sw_live_tp {
	const char	*name;
	void		*probe;
	bool		optional;
	const char	*unless;
};

/* The probes, in the order they are registered */
static const struct sw_live_tp sw_live_tps_wanted[] = {
	{ "timer_cancel",	sw_live_probe_timer_cancel },
	{ "timer_expire_entry",	sw_live_probe_timer_expire_entry },
	{ "softirq_exit",	sw_live_probe_softirq_exit },
	{ "softirq_entry",	sw_live_probe_softirq_entry },
	{ "timer_base_idle",	sw_live_probe_timer_base_idle, .optional = true },
	{ "cpu_idle",		sw_live_probe_cpu_idle, .optional = true,
	  .unless = "timer_base_idle" },
	{ "timer_start",	sw_live_probe_timer_start },
};

/* The kernel's tracepoint of each, NULL where the kernel lacks it */
static struct tracepoint *sw_live_tps[ARRAY_SIZE(sw_live_tps_wanted)];
/* Those registered */
static bool sw_live_tps_on[ARRAY_SIZE(sw_live_tps_wanted)];

static void sw_live_find_tp(struct tracepoint *tp, void *unused)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sw_live_tps_wanted); i++) {
		if (!strcmp(tp->name, sw_live_tps_wanted[i].name))
			sw_live_tps[i] = tp;
	}
}

/* The kernel has the tracepoint named @name, of those wanted */
static bool sw_live_have_tp(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sw_live_tps_wanted); i++) {
		if (!strcmp(sw_live_tps_wanted[i].name, name))
			return sw_live_tps[i];
	}
	return false;
}

/* Unregister the probes registered, from the last one */
static void sw_live_unregister(void)
{
	unsigned int n = ARRAY_SIZE(sw_live_tps_wanted);

	while (n--) {
		if (!sw_live_tps_on[n])
			continue;
		tracepoint_probe_unregister(sw_live_tps[n], sw_live_tps_wanted[n].probe, NULL);
		sw_live_tps_on[n] = false;
	}
	tracepoint_synchronize_unregister();
}

static int sw_live_register(void)
{
	const struct sw_live_tp *want;
	unsigned int i;
	int ret;

	for_each_kernel_tracepoint(sw_live_find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(sw_live_tps_wanted); i++) {
		want = &sw_live_tps_wanted[i];
		if (want->unless && sw_live_have_tp(want->unless))
			continue;
		if (!sw_live_tps[i]) {
			if (want->optional)
				continue;
			pr_warn("mirror: the kernel has no %s tracepoint\n", want->name);
			sw_live_unregister();
			return -ENODEV;
		}
		ret = tracepoint_probe_register(sw_live_tps[i], want->probe, NULL);
		if (ret) {
			pr_warn("mirror: cannot probe %s (%pe)\n", want->name, ERR_PTR(ret));
			sw_live_unregister();
			return ret;
		}
		sw_live_tps_on[i] = true;
	}
	return 0;
}

/* Every CPU's log, the counters, and the merge's state over them */
static int sw_live_logs_init(struct sw_live *live, unsigned long entries)
{
	unsigned int cpu;
	int ret;

	live->logs = alloc_percpu(struct sw_live_log);
	live->orders = kvcalloc(SW_LIVE_ORDERS, sizeof(*live->orders), GFP_KERNEL);
	live->merge_next = kvcalloc(SW_LIVE_ORDERS, sizeof(*live->merge_next), GFP_KERNEL);
	live->heads = kcalloc(nr_cpu_ids, sizeof(*live->heads), GFP_KERNEL);	/* empty */
	if (!live->logs || !live->orders || !live->merge_next || !live->heads)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		ret = sw_live_log_init(per_cpu_ptr(live->logs, cpu), entries);
		if (ret)
			return ret;
	}
	live->log_size = roundup_pow_of_two(entries);
	sw_logmerge_init(&live->merge, live->merge_next, SW_LIVE_ORDERS, nr_cpu_ids);
	return 0;
}

static void sw_live_logs_free(struct sw_live *live)
{
	unsigned int cpu;

	if (live->logs) {
		for_each_possible_cpu(cpu)
			sw_live_log_free(per_cpu_ptr(live->logs, cpu));
	}
	free_percpu(live->logs);
	kvfree(live->orders);
	kvfree(live->merge_next);
	kfree(live->heads);
}

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
	unsigned long log_entries = READ_ONCE(mirror_log);
	unsigned int hash_bits = sw_mirror_hash_bits(nr_records);
	struct task_struct *drainer;
	unsigned int i;
	int ret;

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
	mutex_lock(&sw_live_mutex);
	if (live->running) {
		mutex_unlock(&sw_live_mutex);
		return 0;
	}
	ret = -ENOMEM;
	fresh.m = kvzalloc(sizeof(*fresh.m), GFP_KERNEL);
	fresh.recs = kvcalloc(nr_records, sizeof(*fresh.recs), GFP_KERNEL);
	fresh.hash = kvmalloc_array(1UL << hash_bits, sizeof(*fresh.hash), GFP_KERNEL);
	fresh.slots = kcalloc(nr_cpu_ids, sizeof(*fresh.slots), GFP_KERNEL);
	fresh.cpus = kvcalloc(nr_cpu_ids, sizeof(*fresh.cpus), GFP_KERNEL);
	fresh.top = kvzalloc(sizeof(*fresh.top), GFP_KERNEL);	/* empty */
	if (!fresh.m || !fresh.recs || !fresh.hash || !fresh.slots || !fresh.cpus || !fresh.top)
		goto fail;
	ret = sw_live_logs_init(&fresh, log_entries);
	if (ret)
		goto fail;
	ret = sw_mirror_init(fresh.m, HZ, jiffies, fresh.slots, nr_cpu_ids);
	for (i = 0; !ret && i < sw_live_nr_geos; i++)
		ret = sw_mirror_add_wheel(fresh.m, &sw_live_geos[i]);
	if (ret)
		goto fail;
	sw_mirror_add_records(fresh.m, fresh.recs, nr_records);
	sw_mirror_set_hash(fresh.m, fresh.hash, hash_bits);
	sw_mirror_set_cpus(fresh.m, fresh.cpus, nr_cpu_ids, SW_KERNEL_TIMER_BASES);
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
	live->running = true;
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
	live->running = false;
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
	return sw_live_start_records(READ_ONCE(mirror_records), false);
}

/* On load: start if asked to */
int sw_live_load(void)
{
	return mirror ? sw_live_start() : 0;
}

/* On unload: stop and free */
void sw_live_exit(void)
{
	mutex_lock(&sw_live_mutex);
	sw_live_stop_locked(&sw_live_mirror);
	sw_live_free(&sw_live_mirror);
	mutex_unlock(&sw_live_mutex);
}
