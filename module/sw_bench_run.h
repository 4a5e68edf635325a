/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the benchmark, run in the kernel behind the bench file
 * (sw_kbench_*: core/bench's sw_bench_* are the workloads it runs).
 */
#ifndef _SHADOW_WHEEL_SW_BENCH_RUN_H
#define _SHADOW_WHEEL_SW_BENCH_RUN_H

#include <linux/seq_file.h>
#include <linux/types.h>

#include "sw_bench.h"

#define SW_KBENCH_TIMERS_MAX	1000000UL
#define SW_KBENCH_TICKS_MAX	1000000UL

/**
 * struct sw_kbench_req - one run, as written to the bench file
 * @wheels:	bit per enum sw_wheel_kind to run
 * @params:	the run, the same for every wheel (its @hz is HZ)
 * @cpu:	where it runs
 * @kernel:	also time the kernel's own timers on the same workload
 */
struct sw_kbench_req {
	unsigned long		wheels;
	struct sw_bench_params	params;
	unsigned int		cpu;
	bool			kernel;
};

void sw_kbench_req_defaults(struct sw_kbench_req *req);
int sw_kbench_run(const struct sw_kbench_req *req);
void sw_kbench_show(struct seq_file *m);
void sw_kbench_exit(void);

#endif /* _SHADOW_WHEEL_SW_BENCH_RUN_H */
