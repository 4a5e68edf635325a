// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: loading the shadow wheels with timers, in batches or as a
 * continuous run that looks like the kernel's own timer traffic:
 *
 *  net    retransmit timeouts of 200 ms .. 3 s; 98% are cancelled within
 *         50 ms (the ACK came), some after being pushed out a few times
 *  io     block I/O timeouts of 30 s; 99.9% cancelled within 20 ms
 *  poll   deferrable periodic polls of 1 s, re-armed when they expire
 *  mixed  70% net, 20% io, 10% poll
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "sw_cpu.h"
#include "sw_traffic.h"

static const struct {
	const char	*name;
	unsigned int	rate;
} sw_presets[SW_NR_PRESETS] = {
	[SW_PRESET_NET]		= { "net", 20000 },
	[SW_PRESET_IO]		= { "io", 5000 },
	[SW_PRESET_POLL]	= { "poll", 1000 },
	[SW_PRESET_MIXED]	= { "mixed", 20000 },
};

const char *sw_preset_name(enum sw_preset preset)
{
	return preset < SW_NR_PRESETS ? sw_presets[preset].name : NULL;
}

unsigned int sw_preset_default_rate(enum sw_preset preset)
{
	return sw_presets[preset].rate;
}

/* Uniform in [lo, hi] */
static unsigned long sw_rand_range(unsigned long lo, unsigned long hi)
{
	u64 r = get_random_u64();

	return hi - lo == ULONG_MAX ? r : lo + r % (hi - lo + 1);
}

/*
 * Timers a run arms at once: between two such batches CPU hotplug may go
 * ahead, and a long batch lets others run every so many timers
 */
#define SW_ARM_CHUNK	1024

/* The next online CPU after @cpu, round-robin */
static unsigned int sw_next_online(unsigned int cpu)
{
	cpu = cpumask_next(cpu, cpu_online_mask);
	return cpu < nr_cpu_ids ? cpu : cpumask_first(cpu_online_mask);
}

/*
 * Make @count shadow timers with @setup, then arm each on @cpu, or on the
 * online CPUs in turn if @cpu is negative. Nothing is armed unless all of
 * them could be made and the CPU is online.
 */
static int sw_arm_batch(unsigned long count, int cpu,
			unsigned long (*setup)(struct sw_shadow *shadow, const void *arg),
			const void *arg, unsigned int flags)
{
	static unsigned int sw_rr_cpu;
	struct sw_shadow **batch;
	unsigned long i, made = 0;
	unsigned int target;
	int ret = 0;

	if (!sw_shadows_reserve(count, SW_PENDING_MAX))
		return -E2BIG;
	batch = kvmalloc_array(count, sizeof(*batch), GFP_KERNEL);
	if (!batch) {
		sw_shadows_unreserve(count);
		return -ENOMEM;
	}
	for (made = 0; made < count; made++) {
		if (!(made % SW_ARM_CHUNK))
			cond_resched();
		batch[made] = sw_shadow_alloc(flags);
		if (!batch[made]) {
			ret = -ENOMEM;
			goto out;
		}
	}

	cpus_read_lock();
	if (cpu >= 0 && (cpu >= nr_cpu_ids || !cpu_online(cpu))) {
		ret = -ENODEV;
		goto unlock;
	}
	target = cpu >= 0 ? cpu : sw_next_online(READ_ONCE(sw_rr_cpu));
	for (i = 0; i < count; i++) {
		unsigned long delta = setup(batch[i], arg);

		/* Cannot fail: hotplug is held off and @target is online */
		WARN_ON_ONCE(sw_cpu_arm(target, batch[i], delta));
		if (cpu < 0)
			target = sw_next_online(target);
		/*
		 * A million timers take seconds under emulation: let others
		 * run (hotplug waits, the read side of its lock may sleep)
		 */
		if (!(i % SW_ARM_CHUNK))
			cond_resched();
	}
	WRITE_ONCE(sw_rr_cpu, target);
	cpus_read_unlock();
	kvfree(batch);
	return 0;

unlock:
	cpus_read_unlock();
out:
	/* Freeing gives back their reservations; the rest were never used */
	for (i = 0; i < made; i++)
		sw_shadow_free(batch[i]);
	sw_shadows_unreserve(count - made);
	kvfree(batch);
	return ret;
}

static unsigned long sw_setup_arm(struct sw_shadow *shadow, const void *arg)
{
	const struct sw_arm_req *req = arg;
	unsigned long delta = sw_rand_range(req->delta_min, req->delta_max);

	shadow->kind = SW_SHADOW_ONESHOT;
	/* Cancelled at a random time after arming and before expiry */
	if (delta >= 2 && get_random_u32_below(100) < req->cancel_pct)
		shadow->cancel_delay = sw_rand_range(1, delta - 1);
	return delta;
}

/**
 * sw_traffic_arm - arm a batch of timers, as the arm command asks
 * @req:	what to arm, already checked against the limits
 *
 * Return: 0, -E2BIG past the limit of timers alive, -ENODEV if the CPU
 * is not online, or -ENOMEM; nothing is armed on error.
 */
int sw_traffic_arm(const struct sw_arm_req *req)
{
	return sw_arm_batch(req->count, req->cpu, sw_setup_arm, req,
			    req->deferrable ? SW_TIMER_DEFERRABLE : 0);
}

/* A timer of @preset's traffic; returns its delta */
static unsigned long sw_setup_preset(struct sw_shadow *shadow, const void *arg)
{
	enum sw_preset preset = *(const enum sw_preset *)arg;
	unsigned long delta;

	if (preset == SW_PRESET_MIXED) {
		u32 r = get_random_u32_below(100);

		preset = r < 70 ? SW_PRESET_NET : r < 90 ? SW_PRESET_IO : SW_PRESET_POLL;
	}
	switch (preset) {
	case SW_PRESET_NET:
		delta = sw_rand_range(msecs_to_jiffies(200), msecs_to_jiffies(3000));
		shadow->kind = SW_SHADOW_TIMEOUT;
		shadow->period = delta;
		shadow->rearms = get_random_u32_below(4);
		if (get_random_u32_below(100) < 98)
			shadow->cancel_delay = sw_rand_range(1, msecs_to_jiffies(50));
		break;
	case SW_PRESET_IO:
		delta = msecs_to_jiffies(30000);
		shadow->kind = SW_SHADOW_ONESHOT;
		if (get_random_u32_below(1000) < 999)
			shadow->cancel_delay = sw_rand_range(1, msecs_to_jiffies(20));
		break;
	default:
		delta = msecs_to_jiffies(1000);
		shadow->kind = SW_SHADOW_PERIODIC;
		shadow->period = delta;
		shadow->rearms = 5;
		shadow->timer.flags |= SW_TIMER_DEFERRABLE;
		shadow->cancel.flags |= SW_TIMER_DEFERRABLE;
		break;
	}
	return delta;
}

/*
 * sw_run_mutex guards sw_run_task. It is held across kthread_stop(),
 * waiting for the run's thread, which takes cpu_hotplug_lock (read) and
 * the CPUs' locks (sw_cpu.c) but never this mutex: so it nests outside
 * both, and nothing holding them may take it.
 */
static DEFINE_MUTEX(sw_run_mutex);
static struct task_struct *sw_run_task;
static enum sw_preset sw_run_preset;
static unsigned int sw_run_rate;
static unsigned long sw_run_end;
static bool sw_run_done;

static int sw_run_thread(void *unused)
{
	unsigned long last = jiffies;
	u64 carry = 0;

	sw_cpus_set_rearming(true);
	while (!kthread_should_stop() && time_before(last, sw_run_end)) {
		unsigned long now, count;

		schedule_timeout_interruptible(1);
		/* Woken late, it catches up, but never past the end of the run */
		now = time_before(jiffies, sw_run_end) ? jiffies : sw_run_end;
		/* rate timers a second: carry the fraction from tick to tick */
		carry += (u64)sw_run_rate * (now - last);
		last = now;
		count = div_u64(carry, HZ);
		carry -= (u64)count * HZ;
		/*
		 * Fallen behind by more than a second's worth (the CPUs cannot
		 * keep up): the rest is dropped, or each catch-up would take
		 * longer than the last and the run would never arm again
		 */
		if (count > sw_run_rate) {
			pr_warn_ratelimited("run: behind, %lu timers not armed\n",
					    count - sw_run_rate);
			count = sw_run_rate;
		}
		/* In batches, so that a CPU can go offline in between */
		while (count && !kthread_should_stop()) {
			unsigned long n = min_t(unsigned long, count, SW_ARM_CHUNK);

			if (sw_arm_batch(n, -1, sw_setup_preset, &sw_run_preset, 0)) {
				pr_warn_ratelimited("run: could not arm %lu timers\n", count);
				break;
			}
			count -= n;
		}
	}
	sw_cpus_set_rearming(false);
	WRITE_ONCE(sw_run_done, true);
	/* Wait to be reaped by the next run, stop or unload */
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

/**
 * sw_traffic_start - start a continuous run
 * @preset:	the traffic
 * @rate:	timers armed a second, over all CPUs
 * @seconds:	how long
 *
 * Return: 0, -EBUSY if a run is going on, or an error from kthread_run().
 */
int sw_traffic_start(enum sw_preset preset, unsigned int rate, unsigned int seconds)
{
	struct task_struct *task;
	int ret = 0;

	mutex_lock(&sw_run_mutex);
	if (sw_run_task && !READ_ONCE(sw_run_done)) {
		ret = -EBUSY;
		goto out;
	}
	if (sw_run_task)
		kthread_stop(sw_run_task);
	sw_run_task = NULL;
	sw_run_preset = preset;
	sw_run_rate = rate;
	sw_run_end = jiffies + (unsigned long)seconds * HZ;
	sw_run_done = false;
	task = kthread_run(sw_run_thread, NULL, "shadow_wheel_run");
	if (IS_ERR(task))
		ret = PTR_ERR(task);
	else
		sw_run_task = task;
out:
	mutex_unlock(&sw_run_mutex);
	return ret;
}

/* End the continuous run, if any */
void sw_traffic_stop(void)
{
	mutex_lock(&sw_run_mutex);
	if (sw_run_task)
		kthread_stop(sw_run_task);
	sw_run_task = NULL;
	mutex_unlock(&sw_run_mutex);
}
