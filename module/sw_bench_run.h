/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the benchmark, run in the kernel behind the bench file.
 */
#ifndef _SHADOW_WHEEL_SW_BENCH_RUN_H
#define _SHADOW_WHEEL_SW_BENCH_RUN_H

#include <linux/seq_file.h>
#include <linux/types.h>

#define SW_BENCH_TIMERS_MAX	1000000UL
#define SW_BENCH_TICKS_MAX	1000000UL

/**
 * struct sw_bench_req - one run, as written to the bench file
 * @wheels:	bit per enum sw_wheel_kind to run
 * @timers:	population
 * @ops:	operations of each kind
 * @ticks:	ticks under traffic
 * @gap:	idle ticks to catch up after
 * @mean:	mean timeout, in ticks
 * @cancel_pct:	share of timeouts cancelled before they expire
 * @cpu:	where it runs
 * @seed:	for the generator
 * @kernel:	also time the kernel's own timers on the same workload
 */
struct sw_bench_req {
	unsigned long	wheels;
	unsigned long	timers;
	unsigned long	ops;
	unsigned long	ticks;
	unsigned long	gap;
	unsigned long	mean;
	unsigned int	cancel_pct;
	unsigned int	cpu;
	u64		seed;
	bool		kernel;
};

void sw_bench_req_defaults(struct sw_bench_req *req);
int sw_bench_run(const struct sw_bench_req *req);
void sw_bench_show(struct seq_file *m);
void sw_bench_exit(void);

#endif /* _SHADOW_WHEEL_SW_BENCH_RUN_H */
