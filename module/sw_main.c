// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: a shadow timer wheel per CPU beside the kernel's own, on
 * the running kernel's jiffies, with debugfs to load it and watch it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "sw_cpu.h"
#include "sw_debugfs.h"
#include "sw_live.h"
#include "sw_wheel.h"
#include "sw_bench_run.h"
#include "sw_traffic.h"

static char *geometry = "seed";
module_param(geometry, charp, 0444);
MODULE_PARM_DESC(geometry, "wheel geometry: seed (default), mainline or classic");

static int sw_parse_geometry(const char *name, enum sw_wheel_kind *kind)
{
	enum sw_wheel_kind k;

	for (k = 0; k < SW_WHEEL_NR_KINDS; k++) {
		if (!strcmp(name, sw_wheel_kind_name(k))) {
			*kind = k;
			return 0;
		}
	}
	return -EINVAL;
}

static int __init sw_init(void)
{
	const struct sw_geometry *geo;
	enum sw_wheel_kind kind;
	int ret;

	ret = sw_parse_geometry(geometry, &kind);
	if (ret) {
		pr_err("unknown geometry '%s' (seed, mainline or classic)\n", geometry);
		return ret;
	}
	ret = sw_cpus_init(kind);
	if (ret) {
		pr_err("cannot set up the shadow wheels at HZ=%d (%pe)\n", HZ, ERR_PTR(ret));
		return ret;
	}
	ret = sw_debugfs_init();
	if (ret) {
		sw_cpus_exit();
		return ret;
	}
	ret = sw_live_load();
	if (ret) {
		pr_err("cannot start the mirror (%pe)\n", ERR_PTR(ret));
		sw_debugfs_exit();
		sw_live_exit();
		sw_cpus_exit();
		return ret;
	}
	geo = sw_cpus_geometry();
	pr_info("%s wheel, HZ=%d, %u levels, %u buckets\n", geometry, HZ, geo->depth,
		sw_lvl_first_bucket(geo, geo->depth));
	return 0;
}

static void __exit sw_exit(void)
{
	sw_debugfs_exit();
	sw_live_exit();
	sw_bench_exit();
	sw_traffic_stop();
	sw_cpus_exit();
}

module_init(sw_init);
module_exit(sw_exit);

MODULE_DESCRIPTION("A shadow per-CPU timer wheel beside the kernel's own");
MODULE_LICENSE("GPL");
