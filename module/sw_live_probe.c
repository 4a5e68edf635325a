// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the live mirror's probes, and their registration. Probes
 * on the kernel's timer tracepoints (timer_start, timer_cancel,
 * timer_expire_entry) take every real timer event as it happens; probes
 * on the CPU's own events say when the kernel's timer work ran and when
 * the CPU slept: softirq_entry and softirq_exit of TIMER_SOFTIRQ, and the
 * CPU going idle and leaving it (timer_base_idle where the kernel has
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
 * address), so that the drain (sw_live_feed.c) can merge the logs back
 * into each timer's real order. Only a full log makes a probe drain
 * (sw_live_reserve_full()). No sleeping lock, no allocation (the logs
 * and the records are allocated at start), no timer API in a probe, and
 * bounded work.
 *
 * sw_live.c registers the probes when the mirror starts and unregisters
 * them when it stops (sw_live_register(), sw_live_unregister()); this
 * file calls only the feed's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/tracepoint.h>
#include <trace/events/power.h>

#include "sw_compat.h"
#include "sw_event.h"
#include "sw_live_state.h"

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
static void sw_live_on_cpu(enum sw_ev_type type)
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

/*
 * The probes, in the order they are registered: the cancel and expire
 * probes, then the CPU's, before the start probe, so that every timer
 * the mirror sees armed is followed to its end; unregistered from the
 * last, the start probe first
 */
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

/* The kernel's tracepoint of each, NULL where the kernel lacks it; under sw_live_mutex */
static struct tracepoint *sw_live_tps[ARRAY_SIZE(sw_live_tps_wanted)];
/* Those registered; under sw_live_mutex */
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

/*
 * Unregister the probes registered, from the last one, and wait for those
 * still running; with sw_live_mutex held
 */
void sw_live_unregister(void)
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

/**
 * sw_live_register - register the probes, in their order
 *
 * With sw_live_mutex held. A probe on a tracepoint the kernel lacks is
 * left out if it is optional, or where the tracepoint that takes its
 * place is there.
 *
 * Return: 0, or -ENODEV if the kernel lacks a tracepoint that is not
 * optional, or tracepoint_probe_register()'s error; on an error no probe
 * stays registered, nor runs.
 */
int sw_live_register(void)
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
