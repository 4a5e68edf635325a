// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: one shadow wheel per CPU, on the kernel's jiffies.
 *
 * Each CPU has a wheel (the one under study) and a cancel queue (a second
 * wheel of the traffic's own, holding the times at which the traffic
 * cancels or re-arms its timers, as a driver would on I/O completion),
 * under one irq-safe lock. A tasklet on the CPU brings both up to jiffies
 * and runs what is due, in softirq context. What schedules it:
 *
 *  - a pinned hrtimer set for the next non-deferrable expiry of either,
 *    found from their bitmaps. Nothing else of ours wakes an idle CPU;
 *    when the hrtimer finds its CPU idle, that is a wakeup;
 *  - a pinned deferrable kernel timer re-armed every tick while the wheel
 *    has timers pending (sw_cpu_poll_arm()), which runs only while the
 *    CPU is awake anyway, as do deferrable shadow timers;
 *  - a kernel timer added on the CPU (add_timer_on(), which also makes an
 *    idle CPU notice it) when a timer armed from another CPU is due before
 *    the hrtimer was set for; from the CPU itself, the tasklet directly.
 *
 * The hrtimer runs in hard interrupt context, on PREEMPT_RT too
 * (HRTIMER_MODE_*_HARD): there only can it see that it interrupted the
 * idle task, which is what makes a wakeup. So it takes no lock: it counts
 * into counters of its own, which nothing else writes, and schedules the
 * tasklet. The tasklet and the kernel timers may run in threads (RT); all
 * of them take the CPU's lock, a spinlock_t, with nothing else held.
 *
 * A CPU going offline hands its timers to an online CPU; one coming
 * online starts with a fresh clock at jiffies.
 *
 * What a timer does when its time comes (re-arm, or go) is its kind's
 * (sw_cpu.h); the traffic (sw_traffic.c) makes the timers, arms them here
 * and says while re-arming is allowed (sw_cpus_set_rearming()); it is
 * never called from here. What the wheels hold is shown by debugfs
 * (sw_debugfs.c) from sw_cpu_view_wheel().
 *
 * The tracepoints (sw_trace.h) fire under the CPU's lock, where the wheel
 * changes: a timer placed (arm, re-arm), cancelled, expired or moved off
 * an offline CPU, a bucket cascaded, the tasklet's run.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timer.h>

#include "sw_compat.h"
#include "sw_cpu.h"
#include "sw_trace.h"

/*
 * Wakeups seen by the hrtimer: for the wheel (0) or the cancel queue (1).
 * Written only by the hrtimer's callback, which never runs twice at once,
 * read with READ_ONCE(); a reset of the stats moves the base instead.
 */
enum { SW_WAKE_WHEEL, SW_WAKE_CANCELS, SW_WAKE_NR };

/*
 * One CPU's wheel, cancel queue and figures, under @lock: everything in
 * struct sw_cpu but @woken. What nests inside what (outermost first):
 *
 *   cpu_hotplug_lock			held (read) by sw_cpus_stats() and
 *					a batch armed (sw_traffic.c), and
 *					by the hotplug core around
 *					sw_cpu_online() and _offline()
 *     sw_cpu.lock			the one CPU's
 *       sw_cpu.lock			a second CPU's: sw_cpu_offline()
 *					only, the lower-numbered CPU's lock
 *					first (spin_lock_nested())
 *         the hrtimer_cpu_base lock	hrtimer_start(), _try_to_cancel()
 *         the kernel's timer_base lock	add_timer_on() of @kick, and
 *					mod_timer() or add_timer_on() of
 *					@poll (sw_cpu_poll_arm())
 *           sw_live_lock		(sw_live.c) the mirror's
 *					timer_start probe, if it runs and
 *					finds its log full
 *
 * @lock is a spinlock_t, taken with interrupts off: from the tasklet,
 * the kernel timers (threads on PREEMPT_RT, where it sleeps) and process
 * context, never from hard interrupt context: the hrtimer's callback
 * takes no lock. It is dropped around a shadow timer's function, and
 * while it is held nothing waits for a timer or the tasklet to finish
 * (sw_cpu_stop() takes it only to mark the CPU offline first).
 */
struct sw_cpu {
	spinlock_t		lock;		/* all but @woken, see above */
	struct sw_base		wheel;
	struct sw_base		cancels;
	struct sw_tick		tick;		/* being expired by the tasklet */
	struct sw_stats		stats;
	bool			online;
	bool			kick_pending;
	bool			wakeup_set;
	bool			wakeup_for_wheel; /* or for the cancel queue */
	unsigned long		wakeup_at;	/* jiffies the hrtimer is set for */
	unsigned long		woken_base[SW_WAKE_NR];	/* @woken at the last reset */
	unsigned int		cpu;
	unsigned long		offlined;	/* times the CPU went offline */
	unsigned long		woken[SW_WAKE_NR];
	struct tasklet_struct	tasklet;
	struct hrtimer		wakeup;
	struct timer_list	poll;
	struct timer_list	kick;
};

static struct sw_cpu **sw_cpus;
static struct sw_geometry sw_geo;
static struct sw_geometry sw_cancel_geo;
static struct kmem_cache *sw_shadow_cache;
static atomic_long_t sw_nr_shadows = ATOMIC_LONG_INIT(0);
static int sw_hp_state;

const struct sw_geometry *sw_cpus_geometry(void)
{
	return &sw_geo;
}

/**
 * sw_shadows_reserve - count @n shadow timers against a limit
 * @n:		how many are about to be allocated
 * @max:	the most there may be at once
 *
 * Each sw_shadow_alloc() uses one reservation and sw_shadow_free() gives
 * it back; reservations not used go back with sw_shadows_unreserve().
 *
 * Return: false, reserving nothing, if that would make more than @max.
 */
bool sw_shadows_reserve(long n, long max)
{
	if (atomic_long_add_return(n, &sw_nr_shadows) > max) {
		atomic_long_sub(n, &sw_nr_shadows);
		return false;
	}
	return true;
}

void sw_shadows_unreserve(long n)
{
	atomic_long_sub(n, &sw_nr_shadows);
}

struct sw_shadow *sw_shadow_alloc(unsigned int flags)
{
	struct sw_shadow *shadow = kmem_cache_zalloc(sw_shadow_cache, GFP_KERNEL);

	/* A deferrable timer's cancel time does not wake the CPU either */
	if (shadow) {
		sw_timer_init(&shadow->timer, flags);
		sw_timer_init(&shadow->cancel, flags);
	}
	return shadow;
}

void sw_shadow_free(struct sw_shadow *shadow)
{
	kmem_cache_free(sw_shadow_cache, shadow);
	atomic_long_dec(&sw_nr_shadows);
}

/* Shadow timers reserved or alive */
long sw_shadows_alive(void)
{
	return atomic_long_read(&sw_nr_shadows);
}

/*
 * Set the cancel time of @shadow, @shadow->cancel_delay after now, making
 * sure the cancel queue runs it before the wheel expires the timer.
 */
static void sw_cpu_arm_cancel(struct sw_cpu *c, struct sw_shadow *shadow, unsigned long now)
{
	unsigned long delay = shadow->cancel_delay;

	if (!delay) {
		sw_cancel(&c->cancels, &shadow->cancel);
		return;
	}
	sw_forward_clock(&c->cancels, now);
	for (;;) {
		sw_modify(&c->cancels, &shadow->cancel, now + delay);
		if (sw_time_before(shadow->cancel.bucket_expiry, shadow->timer.bucket_expiry) ||
		    !delay)
			break;
		delay /= 2;
	}
}

/*
 * Make sure the tasklet runs in time for @shadow, armed on @c from any CPU:
 * if it is due before the hrtimer is set for, run the tasklet now (it sets
 * the hrtimer again), from a kernel timer on @c's CPU if that is not this
 * one. Called with @c's lock held (and so no migration).
 */
static void sw_cpu_kick_for(struct sw_cpu *c, struct sw_shadow *shadow)
{
	unsigned long due = shadow->timer.bucket_expiry;

	if (shadow->timer.flags & SW_TIMER_DEFERRABLE)
		return;
	if (shadow->cancel_delay && sw_time_before(shadow->cancel.bucket_expiry, due))
		due = shadow->cancel.bucket_expiry;
	if (c->wakeup_set && !sw_time_before(due, c->wakeup_at))
		return;
	/* Until the tasklet sets the hrtimer, this is the earliest known */
	c->wakeup_set = true;
	WRITE_ONCE(c->wakeup_for_wheel, due == shadow->timer.bucket_expiry);
	c->wakeup_at = due;
	if (c->cpu == smp_processor_id()) {
		tasklet_schedule(&c->tasklet);
	} else if (!c->kick_pending) {
		c->kick_pending = true;
		c->kick.expires = jiffies;
		add_timer_on(&c->kick, c->cpu);
	}
}

/*
 * The poll runs the tasklet on every tick @c's CPU is awake, for its
 * deferrable timers, while the wheel has timers pending; with none it is
 * off, so an empty shadow wheel raises no timer softirq of the kernel's
 * (the mirror counts those). Armed with the lock held, where it is not
 * pending: on @c's CPU by mod_timer() (it is pinned), from another by
 * add_timer_on(); the poll re-arms itself under the lock too.
 */
static void sw_cpu_poll_arm(struct sw_cpu *c)
{
	if (!c->online || !c->stats.pending || timer_pending(&c->poll))
		return;
	if (c->cpu == smp_processor_id()) {
		mod_timer(&c->poll, jiffies + 1);
	} else {
		c->poll.expires = jiffies + 1;
		add_timer_on(&c->poll, c->cpu);
	}
}

/* Put @shadow into @c's wheel @delta ticks from now; called with the lock held */
static void sw_cpu_enqueue(struct sw_cpu *c, struct sw_shadow *shadow, unsigned long delta)
{
	unsigned long now = jiffies;
	enum sw_modify_result how;

	sw_forward_clock(&c->wheel, now);
	how = sw_modify(&c->wheel, &shadow->timer, now + delta);
	trace_sw_timer_start(c->cpu, &c->wheel, shadow, now, how);
	sw_cpu_arm_cancel(c, shadow, now);
}

/**
 * sw_cpu_arm - arm a shadow timer on a CPU
 * @cpu:	the CPU
 * @shadow:	from sw_shadow_alloc(), not pending, kind and delays set
 * @delta:	ticks from now
 *
 * Return: 0, or -ENODEV if @cpu is not online (@shadow is left alone).
 */
int sw_cpu_arm(unsigned int cpu, struct sw_shadow *shadow, unsigned long delta)
{
	struct sw_cpu *c;
	unsigned long flags;

	if (cpu >= nr_cpu_ids || !sw_cpus[cpu])
		return -ENODEV;
	c = sw_cpus[cpu];
	spin_lock_irqsave(&c->lock, flags);
	if (!c->online) {
		spin_unlock_irqrestore(&c->lock, flags);
		return -ENODEV;
	}
	sw_cpu_enqueue(c, shadow, delta);
	c->stats.armed++;
	c->stats.pending++;
	sw_cpu_poll_arm(c);
	sw_cpu_kick_for(c, shadow);
	spin_unlock_irqrestore(&c->lock, flags);
	return 0;
}

/*
 * Account for an expired timer: its level's lateness, or early. A clamped
 * one is not held to the contract, nor is one placed more than a tick
 * after its expiry (moved off an offline CPU, or armed for the past): it
 * ran on the next tick, which says nothing of its level. One placed just
 * a tick late (armed for the current jiffy on a wheel that has run it)
 * is level 0's, one tick late, like any timer armed for the next tick.
 */
static void sw_cpu_account_expiry(struct sw_cpu *c, struct sw_shadow *shadow, unsigned long clk)
{
	struct sw_timer *timer = &shadow->timer;
	long late = clk - timer->expires;

	c->stats.expired++;
	c->stats.pending--;
	if (timer->flags & SW_TIMER_CLAMPED)
		c->stats.clamped++;
	else if ((timer->flags & SW_TIMER_OVERDUE) && late > 1)
		c->stats.overdue++;
	else if (late < 0)
		c->stats.early++;
	else
		sw_hist_add(&c->stats.lateness[sw_timer_level(&c->wheel, timer)], late);
}

/*
 * The shadow timer's function, run in softirq context without the lock, as
 * the kernel runs a timer's: all it does is note when it ran.
 */
static unsigned long sw_shadow_fn(struct sw_shadow *shadow)
{
	return jiffies;
}

/* Periodic and timeout timers re-arm only while a continuous run goes on */
static bool sw_rearming;

/**
 * sw_cpus_set_rearming - let periodic and timeout timers re-arm, or not
 * @on:		a continuous run of the traffic (sw_traffic.c) goes on
 *
 * While @on, a periodic timer that expired is armed again by its period,
 * and a timeout at its cancel time is pushed out by its period instead of
 * cancelled (as on each ACK), each while it has re-arms left.
 */
void sw_cpus_set_rearming(bool on)
{
	WRITE_ONCE(sw_rearming, on);
}

/* A timer of @kind with re-arms left, in a run, uses one */
static bool sw_shadow_rearm(struct sw_shadow *shadow, enum sw_shadow_kind kind)
{
	if (shadow->kind != kind || !shadow->rearms || !READ_ONCE(sw_rearming))
		return false;
	shadow->rearms--;
	return true;
}

/*
 * After its function ran at @ran, for the tick @clk: record, then re-arm it
 * if it is periodic and may, or free it
 */
static void sw_cpu_expired(struct sw_cpu *c, struct sw_shadow *shadow, unsigned long clk,
			   unsigned long ran)
{
	sw_hist_add(&c->stats.delivery, ran - clk);
	if (sw_shadow_rearm(shadow, SW_SHADOW_PERIODIC)) {
		sw_cpu_enqueue(c, shadow, shadow->period);
		c->stats.armed++;
		c->stats.pending++;
		sw_cpu_poll_arm(c);
		return;
	}
	sw_shadow_free(shadow);
}

/* The traffic's cancel time for @shadow has come: cancel it, or push out a timeout that may */
static void sw_cpu_cancel_due(struct sw_cpu *c, struct sw_shadow *shadow)
{
	if (sw_shadow_rearm(shadow, SW_SHADOW_TIMEOUT)) {
		sw_cpu_enqueue(c, shadow, shadow->period);
		c->stats.modified++;
		return;
	}
	if (sw_cancel(&c->wheel, &shadow->timer)) {
		trace_sw_timer_cancel(c->cpu, &c->wheel, &shadow->timer);
		c->stats.cancelled++;
		c->stats.pending--;
		sw_shadow_free(shadow);
	}
}

static void sw_cpu_set_wakeup(struct sw_cpu *c, unsigned long now)
{
	unsigned long next, next_cancel;
	bool found = sw_next_expiry(&c->wheel, &next);
	bool for_wheel = found;

	if (sw_next_expiry(&c->cancels, &next_cancel)) {
		if (!found || sw_time_before(next_cancel, next)) {
			next = next_cancel;
			for_wheel = false;
		}
		found = true;
	}
	WRITE_ONCE(c->wakeup_for_wheel, for_wheel);
	c->wakeup_set = found;
	if (!found) {
		hrtimer_try_to_cancel(&c->wakeup);
		return;
	}
	c->wakeup_at = next;
	/*
	 * Relative to the current jiffy, whatever part of it has gone: the
	 * hrtimer cannot fire before jiffies reaches @next.
	 */
	next = sw_time_after(next, now) ? next - now : 0;
	hrtimer_start(&c->wakeup, ns_to_ktime((u64)next * TICK_NSEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/* The buckets @tick cascaded, one event each */
static void sw_cpu_trace_cascades(const struct sw_cpu *c, const struct sw_tick *tick)
{
	unsigned int i;

	for (i = 0; i < tick->nr_cascades; i++)
		trace_sw_cascade(c->cpu, &c->wheel, tick->clk, &tick->cascades[i]);
}

static void sw_cpu_run(struct tasklet_struct *t)
{
	struct sw_cpu *c = from_tasklet(c, t, tasklet);
	unsigned int expired = 0, cascaded = 0;
	u64 start = ktime_get_ns(), ns;
	unsigned long now, ticks = 0;
	struct sw_timer *timer;
	struct sw_tick tick;

	spin_lock_irq(&c->lock);
	/* Stopped, or run elsewhere after its CPU went away: leave it */
	if (!c->online || c->cpu != smp_processor_id())
		goto out;
	now = jiffies;
	c->stats.runs++;
	if (!sw_time_after(c->wheel.clk, now)) {
		ticks = now - c->wheel.clk + 1;
		if (ticks > 1)
			c->stats.catchup_runs++;
		c->stats.catchup_max = max_t(u64, c->stats.catchup_max, ticks);
	}

	/* Cancel times come before expiry: a catch-up handles them first */
	while (sw_collect_tick(&c->cancels, now, &tick)) {
		while ((timer = sw_tick_pop(&tick)))
			sw_cpu_cancel_due(c, container_of(timer, struct sw_shadow, cancel));
	}
	/*
	 * The tick's timers stay pending until popped; while the lock is
	 * dropped for one's function, cancel-all may take the rest.
	 */
	while (sw_collect_tick(&c->wheel, now, &c->tick)) {
		unsigned long clk = c->tick.clk;

		c->stats.cascaded += c->tick.cascaded;
		cascaded += c->tick.cascaded;
		if (trace_sw_cascade_enabled())
			sw_cpu_trace_cascades(c, &c->tick);
		while ((timer = sw_tick_pop(&c->tick))) {
			struct sw_shadow *shadow = container_of(timer, struct sw_shadow, timer);
			unsigned long ran;

			trace_sw_timer_expire(c->cpu, &c->wheel, timer, clk);
			expired++;
			sw_cpu_account_expiry(c, shadow, clk);
			sw_cancel(&c->cancels, &shadow->cancel);
			/* Popped: nothing else touches @shadow meanwhile */
			spin_unlock_irq(&c->lock);
			ran = sw_shadow_fn(shadow);
			spin_lock_irq(&c->lock);
			sw_cpu_expired(c, shadow, clk, ran);
		}
	}
	sw_cpu_set_wakeup(c, now);
	ns = ktime_get_ns() - start;
	c->stats.tick_ns_max = max(c->stats.tick_ns_max, ns);
	trace_sw_tasklet_run(c->cpu, c->stats.runs, now, ticks, expired, cascaded, ns);
out:
	spin_unlock_irq(&c->lock);
}

static enum hrtimer_restart sw_cpu_wakeup(struct hrtimer *hrtimer)
{
	struct sw_cpu *c = container_of(hrtimer, struct sw_cpu, wakeup);

	/*
	 * The hrtimer interrupt came in while the CPU idled: the shadow wheel
	 * woke it, or the traffic's cancel queue did. Hard irq context: no
	 * spinlock_t here (it sleeps on PREEMPT_RT), only our own counters.
	 */
	if (is_idle_task(current)) {
		unsigned int i = READ_ONCE(c->wakeup_for_wheel) ? SW_WAKE_WHEEL : SW_WAKE_CANCELS;

		WRITE_ONCE(c->woken[i], c->woken[i] + 1);
	}
	tasklet_schedule(&c->tasklet);
	return HRTIMER_NORESTART;
}

static void sw_cpu_poll(struct timer_list *timer)
{
	struct sw_cpu *c = timer_container_of(c, timer, poll);

	tasklet_schedule(&c->tasklet);
	spin_lock_irq(&c->lock);
	sw_cpu_poll_arm(c);
	spin_unlock_irq(&c->lock);
}

static void sw_cpu_kick(struct timer_list *timer)
{
	struct sw_cpu *c = timer_container_of(c, timer, kick);

	spin_lock_irq(&c->lock);
	c->kick_pending = false;
	spin_unlock_irq(&c->lock);
	tasklet_schedule(&c->tasklet);
}

/* Stop everything that would run @c's tasklet, then the tasklet itself */
static void sw_cpu_stop(struct sw_cpu *c)
{
	spin_lock_irq(&c->lock);
	c->online = false;
	spin_unlock_irq(&c->lock);
	timer_delete_sync(&c->poll);
	timer_delete_sync(&c->kick);
	hrtimer_cancel(&c->wakeup);
	tasklet_kill(&c->tasklet);
}

static int sw_cpu_online(unsigned int cpu)
{
	struct sw_cpu *c = sw_cpus[cpu];

	spin_lock_irq(&c->lock);
	WARN_ON_ONCE(c->stats.pending);
	sw_base_init(&c->wheel, &sw_geo, jiffies);
	sw_base_init(&c->cancels, &sw_cancel_geo, jiffies);
	c->wakeup_set = false;
	c->kick_pending = false;
	c->online = true;
	/* No timer pending: the poll waits for the first one armed */
	spin_unlock_irq(&c->lock);
	return 0;
}

/* Move every timer of @from to @to, both locked */
static u64 sw_cpu_move_timers(struct sw_cpu *from, struct sw_cpu *to)
{
	unsigned long now = jiffies;
	struct sw_timer *timer;
	u64 moved = 0;

	sw_forward_clock(&to->wheel, now);
	sw_forward_clock(&to->cancels, now);
	while ((timer = sw_take_any(&from->wheel))) {
		sw_modify(&to->wheel, timer, timer->expires);
		trace_sw_timer_migrate(from->cpu, to->cpu, &to->wheel, timer);
		moved++;
	}
	while ((timer = sw_take_any(&from->cancels)))
		sw_modify(&to->cancels, timer, timer->expires);
	return moved;
}

static int sw_cpu_offline(unsigned int cpu)
{
	struct sw_cpu *c = sw_cpus[cpu], *to;
	unsigned int target;
	u64 moved;

	sw_cpu_stop(c);
	WRITE_ONCE(c->offlined, c->offlined + 1);
	target = cpumask_any_but(cpu_online_mask, cpu);
	if (WARN_ON_ONCE(target >= nr_cpu_ids))
		return 0;
	to = sw_cpus[target];

	/* Lock in CPU order, as anyone taking two of these locks must */
	if (cpu < target) {
		spin_lock_irq(&c->lock);
		spin_lock_nested(&to->lock, SINGLE_DEPTH_NESTING);
	} else {
		spin_lock_irq(&to->lock);
		spin_lock_nested(&c->lock, SINGLE_DEPTH_NESTING);
	}
	moved = sw_cpu_move_timers(c, to);
	c->stats.pending -= moved;
	c->stats.migrated_out += moved;
	to->stats.pending += moved;
	to->stats.migrated_in += moved;
	/* Whatever the hrtimer of @to is set for, these may be due earlier */
	to->wakeup_set = false;
	sw_cpu_poll_arm(to);
	if (!to->kick_pending) {
		to->kick_pending = true;
		to->kick.expires = jiffies;
		add_timer_on(&to->kick, target);
	}
	spin_unlock(cpu < target ? &to->lock : &c->lock);
	spin_unlock_irq(cpu < target ? &c->lock : &to->lock);

	if (moved)
		pr_debug("cpu%u offline: %llu timers moved to cpu%u\n", cpu, moved, target);
	return 0;
}

/**
 * sw_cpu_offlined - how many times a CPU went offline since the load
 * @cpu:	a possible CPU
 *
 * A change between two reads tells that @cpu went offline in between,
 * whether or not it came back.
 */
unsigned long sw_cpu_offlined(unsigned int cpu)
{
	return READ_ONCE(sw_cpus[cpu]->offlined);
}

static void sw_cpu_cancel_timer(struct sw_cpu *c, struct sw_timer *timer)
{
	trace_sw_timer_cancel(c->cpu, &c->wheel, timer);
	sw_shadow_free(container_of(timer, struct sw_shadow, timer));
	c->stats.cancelled++;
	c->stats.pending--;
}

/*
 * Cancel and free every timer of @c, in its wheel or collected by the
 * tasklet and not yet run; called with its lock held.
 */
static void sw_cpu_cancel_all(struct sw_cpu *c)
{
	struct sw_timer *timer;

	while ((timer = sw_take_any(&c->cancels)))
		;
	while ((timer = sw_tick_pop(&c->tick)))
		sw_cpu_cancel_timer(c, timer);
	while ((timer = sw_take_any(&c->wheel)))
		sw_cpu_cancel_timer(c, timer);
}

void sw_cpus_cancel_all(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct sw_cpu *c = sw_cpus[cpu];

		spin_lock_irq(&c->lock);
		sw_cpu_cancel_all(c);
		c->wakeup_set = false;
		spin_unlock_irq(&c->lock);
	}
}

void sw_cpus_reset_stats(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct sw_cpu *c = sw_cpus[cpu];

		spin_lock_irq(&c->lock);
		sw_stats_reset(&c->stats);
		c->woken_base[SW_WAKE_WHEEL] = READ_ONCE(c->woken[SW_WAKE_WHEEL]);
		c->woken_base[SW_WAKE_CANCELS] = READ_ONCE(c->woken[SW_WAKE_CANCELS]);
		spin_unlock_irq(&c->lock);
	}
}

/**
 * sw_cpus_stats - a consistent copy of every CPU's figures
 * @total:	set to their sum
 *
 * Return: an array of nr_cpu_ids copies to kfree(), or NULL (no memory).
 */
struct sw_stats *sw_cpus_stats(struct sw_stats *total)
{
	struct sw_stats *stats = kcalloc(nr_cpu_ids, sizeof(*stats), GFP_KERNEL);
	unsigned int cpu;

	if (!stats)
		return NULL;
	memset(total, 0, sizeof(*total));
	/* Timers move between CPUs only on hotplug */
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		struct sw_cpu *c = sw_cpus[cpu];

		spin_lock_irq(&c->lock);
		stats[cpu] = c->stats;
		stats[cpu].wakeups = READ_ONCE(c->woken[SW_WAKE_WHEEL]) -
				     c->woken_base[SW_WAKE_WHEEL];
		stats[cpu].workload_wakeups = READ_ONCE(c->woken[SW_WAKE_CANCELS]) -
					      c->woken_base[SW_WAKE_CANCELS];
		spin_unlock_irq(&c->lock);
		sw_stats_add(total, &stats[cpu]);
	}
	cpus_read_unlock();
	return stats;
}

/*
 * Occupied buckets and timers of one level, normal ones in [0] and
 * deferrable ones in [1]: in their own half of the arrays, or (classic)
 * beside the others, told apart by their flag.
 */
static void sw_cpu_count_level(const struct sw_base *base, unsigned int lvl,
			       unsigned int buckets[2], unsigned int timers[2])
{
	const struct sw_geometry *geo = &base->geo;
	unsigned int i, half, first = sw_lvl_first_bucket(geo, lvl);
	unsigned int end = first + sw_lvl_nr_buckets(geo, lvl);
	struct sw_timer *timer;

	memset(buckets, 0, 2 * sizeof(*buckets));
	memset(timers, 0, 2 * sizeof(*timers));
	for (half = 0; half < SW_TOTAL_BUCKETS; half += SW_DEFERRABLE_OFFSET) {
		for (i = half + first; i < half + end; i++) {
			bool seen[2] = { false, false };

			hlist_for_each_entry(timer, &base->vectors[i], entry) {
				unsigned int d = !!(timer->flags & SW_TIMER_DEFERRABLE);

				timers[d]++;
				seen[d] = true;
			}
			buckets[0] += seen[0];
			buckets[1] += seen[1];
		}
	}
}

/**
 * sw_cpu_view_wheel - what a CPU's wheel holds now, for the cpuN/wheel file
 * @cpu:	a possible CPU
 * @view:	filled in, under the CPU's lock
 */
void sw_cpu_view_wheel(unsigned int cpu, struct sw_cpu_wheel_view *view)
{
	struct sw_cpu *c = sw_cpus[cpu];
	unsigned int lvl;

	spin_lock_irq(&c->lock);
	view->clk = c->wheel.clk;
	view->online = c->online;
	view->pending = c->stats.pending;
	view->has_next = sw_next_expiry(&c->wheel, &view->next);
	view->depth = sw_geo.depth;
	for (lvl = 0; lvl < sw_geo.depth; lvl++)
		sw_cpu_count_level(&c->wheel, lvl, view->buckets[lvl], view->timers[lvl]);
	spin_unlock_irq(&c->lock);
}

static void sw_cpus_free(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		kfree(sw_cpus[cpu]);
	kfree(sw_cpus);
	sw_cpus = NULL;
}

/**
 * sw_cpus_init - set up a shadow wheel on every CPU
 * @geo:	the geometry of the wheels under study, at the kernel's HZ
 *		(sw_geometry_parse())
 *
 * Return: 0 or a negative error.
 */
int sw_cpus_init(const struct sw_geometry *geo)
{
	unsigned int cpu;
	int ret;

	sw_geo = *geo;
	/* The traffic's own queue always uses mainline's shape */
	ret = sw_geometry_init(&sw_cancel_geo, SW_WHEEL_MAINLINE, HZ);
	if (ret)
		return ret;

	sw_shadow_cache = KMEM_CACHE(sw_shadow, 0);
	if (!sw_shadow_cache)
		return -ENOMEM;
	sw_cpus = kcalloc(nr_cpu_ids, sizeof(*sw_cpus), GFP_KERNEL);
	if (!sw_cpus)
		goto nomem;
	for_each_possible_cpu(cpu) {
		struct sw_cpu *c = kzalloc_node(sizeof(*c), GFP_KERNEL, cpu_to_node(cpu));

		if (!c)
			goto nomem;
		sw_cpus[cpu] = c;
		c->cpu = cpu;
		spin_lock_init(&c->lock);
		sw_base_init(&c->wheel, &sw_geo, jiffies);
		sw_base_init(&c->cancels, &sw_cancel_geo, jiffies);
		tasklet_setup(&c->tasklet, sw_cpu_run);
		hrtimer_setup(&c->wakeup, sw_cpu_wakeup, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_PINNED_HARD);
		timer_setup(&c->poll, sw_cpu_poll, TIMER_PINNED | TIMER_DEFERRABLE);
		timer_setup(&c->kick, sw_cpu_kick, TIMER_PINNED);
	}

	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "shadow_wheel:online", sw_cpu_online,
				sw_cpu_offline);
	if (ret < 0)
		goto fail;
	sw_hp_state = ret;
	return 0;

nomem:
	ret = -ENOMEM;
fail:
	if (sw_cpus)
		sw_cpus_free();
	kmem_cache_destroy(sw_shadow_cache);
	return ret;
}

/* Stop every CPU's wheel, then cancel and free every timer */
void sw_cpus_exit(void)
{
	unsigned int cpu;

	cpuhp_remove_state_nocalls(sw_hp_state);
	for_each_possible_cpu(cpu)
		sw_cpu_stop(sw_cpus[cpu]);
	for_each_possible_cpu(cpu) {
		timer_shutdown_sync(&sw_cpus[cpu]->poll);
		timer_shutdown_sync(&sw_cpus[cpu]->kick);
		spin_lock_irq(&sw_cpus[cpu]->lock);
		sw_cpu_cancel_all(sw_cpus[cpu]);
		spin_unlock_irq(&sw_cpus[cpu]->lock);
	}
	WARN_ON_ONCE(sw_shadows_alive());
	sw_cpus_free();
	kmem_cache_destroy(sw_shadow_cache);
}
