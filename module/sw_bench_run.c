// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the benchmark, run in the kernel behind the bench file.
 *
 * A run happens in a kernel thread bound to one CPU, each timed stretch
 * with preemption off (but for the locked one, see sw_locked_env): the
 * workloads of sw_bench.c on every wheel asked for, and then the same
 * arm / modify / cancel workload through the kernel's own timer API
 * (timer_setup(), mod_timer(), timer_delete() on pinned timers), beside
 * the seed wheel with and without the spinlock the driver takes around
 * it. In that comparison the timers are the run's exponential timeouts
 * pushed out by SW_CMP_FLOOR, over a background population pushed out by
 * SW_CMP_BACKGROUND, on the kernel's timers and the seed wheel alike, so
 * none of the kernel's fire while the run lasts.
 * The report is kept for reading; one run at a time. What is named for
 * the bench here is sw_kbench_* (the bench in the kernel): sw_bench_* are
 * core/bench's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/timekeeping.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>

#include "sw_bench.h"
#include "sw_bench_run.h"
#include "sw_compat.h"
#include "sw_cpu.h"
#include "sw_live.h"

#define SW_REPORT_SIZE		8192
#define SW_CMP_FLOOR		(600UL * HZ)	/* the compared timers: 10 minutes out */
#define SW_CMP_BACKGROUND	(3600UL * HZ)	/* their background: an hour */
/* The mirror's records for the kernel's run with it on, and what it may add a pair */
#define SW_KBENCH_MIRROR_RECORDS	65536UL
#define SW_KBENCH_MIRROR_TARGET_NS	100

/*
 * sw_kbench_mutex: one run at a time; guards the report. Held for a whole
 * run, which takes cpu_hotplug_lock (read) only briefly and waits for the
 * run's thread, which starts and stops the mirror (sw_live_mutex and what
 * nests in it, see sw_live.c) and takes no lock around the timed
 * operations but the local one of struct sw_kbench_locked_wheel. So it
 * nests outside sw_live_mutex; the mirror never takes it.
 */
static DEFINE_MUTEX(sw_kbench_mutex);
static char *sw_report;			/* the last run's, or NULL */

/* The monotonic clock's fast read: fine-grained on UML too, unlike sched_clock */
static u64 sw_kbench_now(void)
{
	return ktime_get_mono_fast_ns();
}

static void sw_kbench_begin(void)
{
	preempt_disable();
}

static void sw_kbench_end(void)
{
	preempt_enable();
	cond_resched();
}

static const struct sw_bench_env sw_kernel_env = {
	.now_ns = sw_kbench_now, .begin = sw_kbench_begin, .end = sw_kbench_end,
};

/*
 * With the mirror on: its logs drained between the timed stretches, so
 * that they time what the probes add to the kernel's calls, and the drains
 * timed apart, as what the mirror's thread does later for each event. The
 * all-CPU run drains from every CPU's thread at once: the sums are atomic.
 */
static atomic64_t sw_kbench_drain_ns;
static atomic_long_t sw_kbench_drained;

static void sw_kbench_end_drain(void)
{
	u64 t0;

	preempt_enable();
	t0 = sw_kbench_now();
	atomic_long_add(sw_live_drain(), &sw_kbench_drained);
	atomic64_add(sw_kbench_now() - t0, &sw_kbench_drain_ns);
	cond_resched();
}

static const struct sw_bench_env sw_kernel_mirror_env = {
	.now_ns = sw_kbench_now, .begin = sw_kbench_begin, .end = sw_kbench_end_drain,
};

static void sw_kbench_begin_locked(void)
{
}

static void sw_kbench_end_locked(void)
{
	cond_resched();
}

/*
 * For the stretches that take a spinlock_t: it must not be taken with
 * preemption off, as on PREEMPT_RT it sleeps. The thread is bound to its
 * CPU anyway, and each operation is as the driver's, under the lock with
 * whatever the lock turns off on this kernel (interrupts, or nothing).
 */
static const struct sw_bench_env sw_locked_env = {
	.now_ns = sw_kbench_now, .begin = sw_kbench_begin_locked, .end = sw_kbench_end_locked,
};

void sw_kbench_req_defaults(struct sw_kbench_req *req)
{
	*req = (struct sw_kbench_req){
		.wheels = BIT(SW_WHEEL_SEED) | BIT(SW_WHEEL_MAINLINE) | BIT(SW_WHEEL_CLASSIC),
		.params = {
			.hz = HZ, .timers = 100000, .ops = 100000, .ticks = 10000, .gap = 3 * HZ,
			.traffic = { .mean = 2 * HZ, .cancel_pct = 95 }, .seed = 1,
		},
		.cpu = 0, .kernel = true,
	};
}

/* A run's state, shared with its thread */
struct sw_kbench_state {
	const struct sw_kbench_req	*req;
	struct sw_bench_params		params;
	struct sw_bench_mem		mem;
	struct sw_bench_report		reports[SW_WHEEL_NR_KINDS];
	struct sw_bench_report		kernel, kernel_mirror, seed_bare, seed_locked;
	struct timer_list		*ktimers;	/* timers + ops, or NULL */
	atomic_t			fired;
	char				*out;
	size_t				len;
	struct completion		done;
	int				ret;
};

static __printf(2, 3) void sw_out(struct sw_kbench_state *s, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	s->len += vscnprintf(s->out + s->len, SW_REPORT_SIZE - s->len, fmt, args);
	va_end(args);
}

/* One of the kernel's timers, and the run it belongs to */
struct sw_ktimer {
	struct timer_list	timer;
	struct sw_kbench_state	*state;
};

/* Counts the kernel's timers that ran after all: they should not */
static void sw_kbench_fired(struct timer_list *t)
{
	struct sw_ktimer *kt = timer_container_of(kt, t, timer);

	atomic_inc(&kt->state->fired);
}

/* The kernel's timer API for sw_bench_time_ops() */
struct sw_kbench_kernel_timers {
	struct sw_ktimer	*timers;
	const unsigned long	*expiry;
	unsigned long		mean;
	struct sw_bench_rng	*rng;
};

static unsigned long sw_kbench_kernel_timeout(void *ctx)
{
	struct sw_kbench_kernel_timers *k = ctx;

	return jiffies + SW_CMP_FLOOR + sw_bench_exp(k->rng, k->mean);
}

static void sw_kbench_kernel_arm(void *ctx, unsigned long i)
{
	struct sw_kbench_kernel_timers *k = ctx;

	mod_timer(&k->timers[i].timer, k->expiry[i]);
}

static void sw_kbench_kernel_near(void *ctx, unsigned long i)
{
	struct sw_kbench_kernel_timers *k = ctx;
	struct timer_list *timer = &k->timers[i].timer;

	mod_timer(timer, timer->expires + 1);
}

static void sw_kbench_kernel_cancel(void *ctx, unsigned long i)
{
	struct sw_kbench_kernel_timers *k = ctx;

	timer_delete(&k->timers[i].timer);
}

static const struct sw_bench_api sw_kbench_kernel_api = {
	.timeout	= sw_kbench_kernel_timeout,
	.arm		= sw_kbench_kernel_arm,
	.near		= sw_kbench_kernel_near,
	.cancel		= sw_kbench_kernel_cancel,
};

/*
 * The kernel's timer API on the workload, into @o; with @mirror, the
 * mirror runs (its own records, the module's timers included) while the
 * operations are timed, the background armed before it starts
 */
static int sw_kbench_kernel_ops(struct sw_kbench_state *s, struct sw_ktimer *kt,
				struct sw_bench_op_cost *o, bool mirror)
{
	const struct sw_bench_params *p = &s->params;
	struct sw_ktimer *kx = kt + p->timers;
	unsigned long *expiry = s->mem.expiry, i;
	struct sw_kbench_kernel_timers k;
	struct sw_bench_rng rng;
	int ret = 0;

	sw_bench_seed(&rng, p->seed + 3);
	for (i = 0; i < p->timers + p->ops; i++) {
		timer_setup(&kt[i].timer, sw_kbench_fired, TIMER_PINNED);
		kt[i].state = s;
	}
	for (i = 0; i < p->timers; i++)
		mod_timer(&kt[i].timer,
			  jiffies + SW_CMP_BACKGROUND + sw_bench_exp(&rng, p->traffic.mean));

	k = (struct sw_kbench_kernel_timers){
		.timers = kx, .expiry = expiry, .mean = p->traffic.mean, .rng = &rng,
	};
	if (mirror) {
		atomic64_set(&sw_kbench_drain_ns, 0);
		atomic_long_set(&sw_kbench_drained, 0);
		ret = sw_live_start_records(min_t(unsigned long, p->ops, SW_KBENCH_MIRROR_RECORDS),
					    true);
	}
	if (!ret)
		sw_bench_time_ops(o, mirror ? &sw_kernel_mirror_env : &sw_kernel_env, p->ops,
				  expiry, &sw_kbench_kernel_api, &k);
	if (mirror && !ret)
		sw_live_stop();

	for (i = 0; i < p->timers + p->ops; i++)
		timer_delete_sync(&kt[i].timer);
	return ret;
}

/* The seed wheel's operations as the driver does them: under its lock */
struct sw_kbench_locked_wheel {
	spinlock_t		lock;	/* as the driver's around its wheel */
	struct sw_base		*base;
	struct sw_timer		*timers;
	const unsigned long	*expiry;
	unsigned long		mean;
	struct sw_bench_rng	*rng;
};

static void sw_kbench_locked_modify(struct sw_kbench_locked_wheel *l, struct sw_timer *timer,
				    unsigned long expires)
{
	unsigned long flags;

	spin_lock_irqsave(&l->lock, flags);
	sw_modify(l->base, timer, expires);
	spin_unlock_irqrestore(&l->lock, flags);
}

static unsigned long sw_kbench_locked_timeout(void *ctx)
{
	struct sw_kbench_locked_wheel *l = ctx;

	return l->base->clk + SW_CMP_FLOOR + sw_bench_exp(l->rng, l->mean);
}

static void sw_kbench_locked_arm(void *ctx, unsigned long i)
{
	struct sw_kbench_locked_wheel *l = ctx;

	sw_kbench_locked_modify(l, &l->timers[i], l->expiry[i]);
}

static void sw_kbench_locked_near(void *ctx, unsigned long i)
{
	struct sw_kbench_locked_wheel *l = ctx;

	sw_kbench_locked_modify(l, &l->timers[i], l->timers[i].expires + 1);
}

static void sw_kbench_locked_cancel(void *ctx, unsigned long i)
{
	struct sw_kbench_locked_wheel *l = ctx;
	unsigned long flags;

	spin_lock_irqsave(&l->lock, flags);
	sw_cancel(l->base, &l->timers[i]);
	spin_unlock_irqrestore(&l->lock, flags);
}

static const struct sw_bench_api sw_kbench_locked_api = {
	.timeout	= sw_kbench_locked_timeout,
	.arm		= sw_kbench_locked_arm,
	.near		= sw_kbench_locked_near,
	.cancel		= sw_kbench_locked_cancel,
};

/*
 * The seed wheel on the workload the kernel's timers ran: the same
 * background an hour out, bare and under an irq-safe spinlock.
 */
static void sw_kbench_seed_ops(struct sw_kbench_state *s, struct sw_bench_op_cost *o, bool locked)
{
	const struct sw_bench_params *p = &s->params;
	struct sw_bench_traffic traffic = p->traffic;
	struct sw_timer *extra = s->mem.extra;
	unsigned long *expiry = s->mem.expiry, i;
	struct sw_base *base = s->mem.base;
	struct sw_kbench_locked_wheel l;
	struct sw_bench_rng rng;
	struct sw_geometry geo;

	sw_geometry_init(&geo, SW_WHEEL_SEED, HZ);
	sw_base_init(base, &geo, jiffies);
	sw_bench_seed(&rng, p->seed + 3);
	traffic.floor = SW_CMP_BACKGROUND;
	sw_bench_populate(base, s->mem.timers, p->timers, &traffic, &rng);
	if (!locked) {
		traffic.floor = SW_CMP_FLOOR;
		sw_bench_ops(base, extra, expiry, p->ops, &traffic, &rng, &sw_kernel_env, o);
		return;
	}

	for (i = 0; i < p->ops; i++)
		sw_timer_init(&extra[i], 0);
	o->same_bucket = 0;
	spin_lock_init(&l.lock);
	l.base = base;
	l.timers = extra;
	l.expiry = expiry;
	l.mean = traffic.mean;
	l.rng = &rng;
	sw_bench_time_ops(o, &sw_locked_env, p->ops, expiry, &sw_kbench_locked_api, &l);
}

static void sw_kbench_out_ops(struct sw_kbench_state *s, const char *name,
			      const struct sw_bench_op_cost *o)
{
	sw_out(s,
	       "bench wheel=%s hz=%u timers=%lu ops=%lu arm=%u.%u mod_near=%u.%u mod_far=%u.%u cancel=%u.%u\n",
	       name, HZ, s->params.timers, o->nr, o->arm / 1000, o->arm % 1000 / 100,
	       o->mod_near / 1000, o->mod_near % 1000 / 100, o->mod_far / 1000,
	       o->mod_far % 1000 / 100, o->cancel / 1000, o->cancel % 1000 / 100);
}

/*
 * The kernel's mod_timer() and del_timer() again, with the mirror on: what
 * its probes add to each (the target: 100 ns a pair). Not when the
 * mirror is on already, which the first run then measured too.
 */
static void sw_kbench_kernel_mirrored(struct sw_kbench_state *s, struct sw_ktimer *kt)
{
	const struct sw_bench_op_cost *off = &s->kernel.ops, *on = &s->kernel_mirror.ops;
	unsigned long drained;
	unsigned int wheels;
	u64 ns, per;
	long added;
	int ret;

	if (sw_live_running()) {
		sw_out(s, "bench wheel=kernel-mirror skipped: the mirror was on already\n");
		return;
	}
	memset(kt, 0, (s->params.timers + s->params.ops) * sizeof(*kt));
	ret = sw_kbench_kernel_ops(s, kt, &s->kernel_mirror.ops, true);
	if (ret) {
		sw_out(s, "bench wheel=kernel-mirror skipped: no mirror (%d)\n", ret);
		return;
	}
	sw_kbench_out_ops(s, "kernel-mirror", on);
	added = ((long)on->arm + on->cancel - off->arm - off->cancel) / 1000;
	sw_out(s, "bench mirror_added_ns.arm_cancel=%ld target=%d %s\n", added,
	       SW_KBENCH_MIRROR_TARGET_NS, added <= SW_KBENCH_MIRROR_TARGET_NS ? "met" : "missed");
	drained = atomic_long_read(&sw_kbench_drained);
	ns = atomic64_read(&sw_kbench_drain_ns);
	sw_out(s, "bench mirror_drained_ns.event=%llu events=%lu\n",
	       drained ? div64_u64(ns, drained) : 0, drained);
	/* Shared by the wheels, in tenths: beside sw-replay's ns per wheel-event */
	wheels = sw_live_nr_wheels();
	per = drained && wheels ? div64_u64(ns * 10, (u64)drained * wheels) : 0;
	sw_out(s, "bench mirror_drained_ns.wheel_event=%llu.%llu wheels=%u\n", per / 10, per % 10,
	       wheels);
}

/* The pairs each CPU times at once, at most: a log's worth between drains */
#define SW_KBENCH_ALL_OPS	2048UL

/**
 * struct sw_kbench_all - the kernel's arm and cancel on every online CPU at once
 * @s:		the run
 * @mirror:	the mirror is on
 * @nr:		timers of each CPU
 * @waiting:	threads not at the start line yet: all start together
 * @left:	threads not done yet
 * @done:	the last one is
 * @cpu:	per CPU: its timers, their expiries and what it timed
 */
struct sw_kbench_all {
	struct sw_kbench_state	*s;
	bool			mirror;
	unsigned long		nr;
	atomic_t		waiting;
	atomic_t		left;
	struct completion	done;
	struct sw_kbench_all_cpu {
		struct sw_kbench_all	*all;
		struct sw_ktimer	*kt;
		unsigned long		*expiry;
		struct sw_bench_op_cost	ops;
		struct sw_bench_rng	rng;
	} *cpu;
};

static int sw_kbench_all_thread(void *arg)
{
	struct sw_kbench_all_cpu *c = arg;
	struct sw_kbench_all *a = c->all;
	struct sw_kbench_kernel_timers k = {
		.timers = c->kt, .expiry = c->expiry, .mean = a->s->params.traffic.mean,
		.rng = &c->rng,
	};
	unsigned long i;

	for (i = 0; i < a->nr; i++) {
		timer_setup(&c->kt[i].timer, sw_kbench_fired, TIMER_PINNED);
		c->kt[i].state = a->s;
	}
	atomic_dec(&a->waiting);
	while (atomic_read(&a->waiting))
		cond_resched();
	sw_bench_time_ops(&c->ops, a->mirror ? &sw_kernel_mirror_env : &sw_kernel_env, a->nr,
			  c->expiry, &sw_kbench_kernel_api, &k);
	for (i = 0; i < a->nr; i++)
		timer_delete_sync(&c->kt[i].timer);
	if (atomic_dec_and_test(&a->left))
		complete(&a->done);
	return 0;
}

/*
 * One round on every online CPU at once, a thread bound to each, CPU
 * hotplug held off; the mean arm + cancel over the CPUs, in ps, into
 * @pair, and how many CPUs into @cpus. Returns 0 or -errno.
 */
static int sw_kbench_all_round(struct sw_kbench_all *a, u64 *pair, unsigned int *cpus)
{
	unsigned int cpu, n = 0, total;
	struct task_struct *t;
	int ret = 0;
	u64 sum = 0;

	cpus_read_lock();
	total = num_online_cpus();
	atomic_set(&a->waiting, total);
	atomic_set(&a->left, total);
	init_completion(&a->done);
	for_each_online_cpu(cpu) {
		a->cpu[cpu].all = a;
		sw_bench_seed(&a->cpu[cpu].rng, a->s->params.seed + 5 + cpu);
		t = kthread_create(sw_kbench_all_thread, &a->cpu[cpu], "sw_bench_all/%u", cpu);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			break;
		}
		kthread_bind(t, cpu);
		wake_up_process(t);
		n++;
	}
	/* Those not started are done; then the started ones may go */
	if (n < total && atomic_sub_and_test(total - n, &a->left))
		complete(&a->done);
	atomic_sub(total - n, &a->waiting);
	/* Minutes under emulation with many vCPUs: not a hung task */
	while (!wait_for_completion_timeout(&a->done, 10 * HZ))
		;
	for_each_online_cpu(cpu)
		sum += (u64)a->cpu[cpu].ops.arm + a->cpu[cpu].ops.cancel;
	cpus_read_unlock();
	*pair = div_u64(sum, max(total, 1U));
	*cpus = total;
	return ret;
}

/*
 * The kernel's mod_timer() and del_timer() on every online CPU at once,
 * with the mirror off and then on: what the probes add when every CPU
 * logs (what one log shared by all would make grow with the CPUs)
 */
static void sw_kbench_kernel_all(struct sw_kbench_state *s)
{
	struct sw_kbench_all a = { .s = s };
	unsigned long nr = min(s->params.ops, SW_KBENCH_ALL_OPS);
	unsigned int cpu, n = 0;
	u64 off = 0, on = 0;
	int ret = -ENOMEM;

	a.cpu = kvcalloc(nr_cpu_ids, sizeof(*a.cpu), GFP_KERNEL);
	if (!a.cpu)
		goto out;
	for_each_possible_cpu(cpu) {
		a.cpu[cpu].kt = kvcalloc(nr, sizeof(*a.cpu[cpu].kt), GFP_KERNEL);
		a.cpu[cpu].expiry = kvcalloc(nr, sizeof(*a.cpu[cpu].expiry), GFP_KERNEL);
		if (!a.cpu[cpu].kt || !a.cpu[cpu].expiry)
			goto out;
	}
	a.nr = nr;
	/* A first round untimed: the timers' memory touched, and TCG's code translated */
	ret = sw_kbench_all_round(&a, &off, &n) ?: sw_kbench_all_round(&a, &off, &n);
	if (ret)
		goto out;
	ret = sw_live_start_records(min_t(unsigned long, nr * nr_cpu_ids,
					  SW_KBENCH_MIRROR_RECORDS), true);
	if (ret)
		goto out;
	a.mirror = true;
	ret = sw_kbench_all_round(&a, &on, &n);
	sw_live_stop();
out:
	if (ret)
		sw_out(s, "bench wheel=kernel-all skipped: %d\n", ret);
	else
		sw_out(s,
		       "bench mirror_added_ns.arm_cancel_all_cpus=%lld cpus=%u ops=%lu kernel=%llu.%llu kernel_mirror=%llu.%llu\n",
		       div_s64((s64)on - (s64)off, 1000), n, nr, div_u64(off, 1000),
		       div_u64(off, 100) % 10, div_u64(on, 1000), div_u64(on, 100) % 10);
	if (a.cpu) {
		for_each_possible_cpu(cpu) {
			kvfree(a.cpu[cpu].kt);
			kvfree(a.cpu[cpu].expiry);
		}
	}
	kvfree(a.cpu);
}

static void sw_kbench_compare_kernel(struct sw_kbench_state *s)
{
	struct sw_ktimer *kt;
	char line[128];

	kt = kvcalloc(s->params.timers + s->params.ops, sizeof(*kt), GFP_KERNEL);
	if (!kt) {
		sw_out(s, "bench wheel=kernel skipped: no memory for %lu timers\n",
		       s->params.timers + s->params.ops);
		return;
	}
	atomic_set(&s->fired, 0);
	sw_kbench_kernel_ops(s, kt, &s->kernel.ops, false);
	sw_kbench_kernel_mirrored(s, kt);
	kvfree(kt);
	if (!sw_live_running())
		sw_kbench_kernel_all(s);
	sw_kbench_seed_ops(s, &s->seed_bare.ops, false);
	sw_kbench_seed_ops(s, &s->seed_locked.ops, true);

	sw_kbench_out_ops(s, "kernel", &s->kernel.ops);
	sw_kbench_out_ops(s, "seed-bare", &s->seed_bare.ops);
	sw_kbench_out_ops(s, "seed-locked", &s->seed_locked.ops);
	sw_out(s, "bench kernel_timers_fired=%d\n", atomic_read(&s->fired));
	sw_bench_format_ratio(line, sizeof(line), "seed-bare/kernel.arm_cancel",
			      (u64)s->seed_bare.ops.arm + s->seed_bare.ops.cancel,
			      (u64)s->kernel.ops.arm + s->kernel.ops.cancel, 100, true);
	sw_out(s, "%s", line);
	sw_bench_format_ratio(line, sizeof(line), "seed-locked/kernel.arm_cancel",
			      (u64)s->seed_locked.ops.arm + s->seed_locked.ops.cancel,
			      (u64)s->kernel.ops.arm + s->kernel.ops.cancel, 100, true);
	sw_out(s, "%s", line);
}

static int sw_kbench_thread(void *arg)
{
	struct sw_kbench_state *s = arg;
	enum sw_wheel_kind kind;
	int ret;

	sw_out(s,
	       "bench cpu=%u hz=%u timers=%lu ops=%lu ticks=%lu gap=%lu mean=%lu cancel_pct=%u seed=%llu clock_ns=%llu\n",
	       s->req->cpu, HZ, s->params.timers, s->params.ops, s->params.ticks,
	       s->params.gap, s->params.traffic.mean, s->params.traffic.cancel_pct,
	       s->params.seed, sw_bench_clock_cost(&sw_kernel_env));
	for (kind = 0; kind < SW_WHEEL_NR_KINDS; kind++) {
		if (!(s->req->wheels & BIT(kind)))
			continue;
		s->reports[kind].name = sw_wheel_kind_name(kind);
		ret = sw_bench_wheel(&s->params, kind, &s->mem, &sw_kernel_env, &s->reports[kind]);
		if (ret) {
			s->ret = ret;
			break;
		}
		s->len += sw_bench_format(s->out + s->len, SW_REPORT_SIZE - s->len, &s->params,
					  &s->reports[kind]);
		s->len = min_t(size_t, s->len, SW_REPORT_SIZE - 1);
	}
	if (!s->ret && (s->req->wheels & BIT(SW_WHEEL_SEED)) &&
	    (s->req->wheels & BIT(SW_WHEEL_CLASSIC))) {
		s->len += sw_bench_format_targets(s->out + s->len, SW_REPORT_SIZE - s->len,
						  &s->reports[SW_WHEEL_SEED],
						  &s->reports[SW_WHEEL_CLASSIC]);
		s->len = min_t(size_t, s->len, SW_REPORT_SIZE - 1);
	}
	if (!s->ret && s->req->kernel)
		sw_kbench_compare_kernel(s);
	complete(&s->done);
	return 0;
}

static void sw_kbench_free_mem(struct sw_bench_mem *mem)
{
	kvfree(mem->samples);
	kvfree(mem->expiry);
	kvfree(mem->extra);
	kvfree(mem->timers);
	kfree(mem->base);
}

static int sw_kbench_alloc_mem(struct sw_bench_mem *mem, const struct sw_bench_params *p)
{
	mem->base = kzalloc(sizeof(*mem->base), GFP_KERNEL);
	mem->timers = kvcalloc(p->timers, sizeof(*mem->timers), GFP_KERNEL);
	mem->extra = kvcalloc(p->ops, sizeof(*mem->extra), GFP_KERNEL);
	mem->expiry = kvcalloc(p->ops, sizeof(*mem->expiry), GFP_KERNEL);
	mem->samples = kvcalloc(p->ticks, sizeof(*mem->samples), GFP_KERNEL);
	mem->trace = NULL;
	if (mem->base && mem->timers && mem->extra && mem->expiry && mem->samples)
		return 0;
	sw_kbench_free_mem(mem);
	return -ENOMEM;
}

/**
 * sw_kbench_run - run a benchmark and keep its report
 * @req:	what to run; checked by the caller (sw_control.c)
 *
 * Return: 0, -EBUSY if a run is going on, -ENOMEM, -ENODEV if the CPU
 * is offline or went offline during the run, -ERANGE if timers expired
 * in the idle gap.
 */
int sw_kbench_run(const struct sw_kbench_req *req)
{
	struct sw_kbench_state *s;
	struct task_struct *task;
	unsigned long offlined;
	int ret;

	if (!mutex_trylock(&sw_kbench_mutex))
		return -EBUSY;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	ret = -ENOMEM;
	if (!s)
		goto out_unlock;
	s->req = req;
	s->params = req->params;
	init_completion(&s->done);
	s->out = kvzalloc(SW_REPORT_SIZE, GFP_KERNEL);
	if (!s->out || sw_kbench_alloc_mem(&s->mem, &s->params))
		goto out_free;

	cpus_read_lock();
	ret = -ENODEV;
	if (!cpu_online(req->cpu)) {
		cpus_read_unlock();
		goto out_free_mem;
	}
	task = kthread_create(sw_kbench_thread, s, "sw_bench/%u", req->cpu);
	if (IS_ERR(task)) {
		cpus_read_unlock();
		ret = PTR_ERR(task);
		goto out_free_mem;
	}
	offlined = sw_cpu_offlined(req->cpu);
	kthread_bind(task, req->cpu);
	wake_up_process(task);
	/*
	 * Hotplug is not held off for the run: the run takes the hotplug
	 * lock itself (starting the mirror enables static keys), and a
	 * read of it behind a writer that waits for ours never returns. A
	 * CPU that went offline during the run (its thread moved off it)
	 * makes the run void instead.
	 */
	cpus_read_unlock();
	/* Wake now and then, so a long run under emulation is not a hung task */
	while (!wait_for_completion_timeout(&s->done, 10 * HZ))
		;

	ret = s->ret;
	if (!ret && sw_cpu_offlined(req->cpu) != offlined)
		ret = -ENODEV;
	if (!ret) {
		kvfree(sw_report);
		sw_report = s->out;
		s->out = NULL;
	}
out_free_mem:
	sw_kbench_free_mem(&s->mem);
out_free:
	kvfree(s->out);
	kfree(s);
out_unlock:
	mutex_unlock(&sw_kbench_mutex);
	return ret;
}

/* The bench file: the last report */
void sw_kbench_show(struct seq_file *m)
{
	mutex_lock(&sw_kbench_mutex);
	seq_puts(m, sw_report ?: "bench none: write a run to this file first\n");
	mutex_unlock(&sw_kbench_mutex);
}

void sw_kbench_exit(void)
{
	mutex_lock(&sw_kbench_mutex);
	kvfree(sw_report);
	sw_report = NULL;
	mutex_unlock(&sw_kbench_mutex);
}
