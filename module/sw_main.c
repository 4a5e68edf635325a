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
MODULE_PARM_DESC(geometry,
		 "shape of the shadow wheels: seed (default), mainline, classic or any spec at the kernel's HZ (docs/design.rst, \"Any geometry: the spec\")");

/*
 * The shadow wheels' geometry from its spec. They tick with jiffies: a
 * spec may leave hz out or give the kernel's, no other.
 */
static int sw_parse_geometry(const char *spec, struct sw_geometry *geo)
{
	char err[SW_SPEC_ERR_MAX];

	if (sw_geometry_parse(geo, spec, HZ, err, sizeof(err))) {
		pr_err("geometry=%s: %s\n", spec, err);
		return -EINVAL;
	}
	if (geo->hz != HZ) {
		pr_err("geometry=%s: hz=%u: the shadow wheels tick with jiffies, hz=%u only\n",
		       spec, geo->hz, HZ);
		return -EINVAL;
	}
	return 0;
}

static int __init sw_init(void)
{
	struct sw_geometry geo;
	int ret;

	ret = sw_parse_geometry(geometry, &geo);
	if (ret)
		return ret;
	ret = sw_cpus_init(&geo);
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
	pr_info("%s wheel, HZ=%d, %u levels, %u buckets\n", geometry, HZ, geo.depth,
		sw_lvl_first_bucket(&geo, geo.depth));
	return 0;
}

static void __exit sw_exit(void)
{
	sw_debugfs_exit();
	sw_live_exit();
	sw_kbench_exit();
	sw_traffic_stop();
	sw_cpus_exit();
}

module_init(sw_init);
module_exit(sw_exit);

MODULE_DESCRIPTION("A shadow per-CPU timer wheel beside the kernel's own");
MODULE_LICENSE("GPL");
