// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: module entry.
 *
 * Picks the wheel geometry from the module parameter and the running
 * kernel's HZ and reports its levels.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "sw_wheel.h"

static char *geometry = "seed";
module_param(geometry, charp, 0444);
MODULE_PARM_DESC(geometry, "wheel geometry: seed (default) or mainline");

static struct sw_geometry sw_geo;

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
	enum sw_wheel_kind kind;
	unsigned int lvl;
	int ret;

	ret = sw_parse_geometry(geometry, &kind);
	if (ret) {
		pr_err("unknown geometry '%s' (seed or mainline)\n", geometry);
		return ret;
	}
	ret = sw_geometry_init(&sw_geo, kind, HZ);
	if (ret) {
		pr_err("HZ=%d is not supported\n", HZ);
		return ret;
	}

	pr_info("%s wheel, HZ=%d, %u levels of %u buckets\n", geometry, HZ, sw_geo.depth,
		sw_lvl_size(&sw_geo));
	for (lvl = 0; lvl < sw_geo.depth; lvl++)
		pr_info("level %u gran %lu range %lu..%lu ticks\n", lvl, sw_lvl_gran(lvl),
			sw_geo.lvl_start[lvl], sw_geo.lvl_start[lvl + 1] - 1);
	return 0;
}

static void __exit sw_exit(void)
{
}

module_init(sw_init);
module_exit(sw_exit);

MODULE_DESCRIPTION("A shadow per-CPU timer wheel beside the kernel's own");
MODULE_LICENSE("GPL");
