// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: what the live mirror runs with, from its next start: the
 * module's parameters mirror, mirror_records, mirror_log and
 * mirror_wheels (the last also written through debugfs mirror/wheels).
 * sw_live.c reads them when it starts the mirror; this file calls none of
 * the mirror's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "sw_live.h"
#include "sw_live_state.h"

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

/* Start the mirror on load */
bool sw_live_config_on_load(void)
{
	return mirror;
}

/* The records of a start that names none (sw_live_start()) */
unsigned long sw_live_config_records(void)
{
	return READ_ONCE(mirror_records);
}

/* The events of each CPU's log, unchecked: sw_live.c checks the range */
unsigned long sw_live_config_log(void)
{
	return READ_ONCE(mirror_log);
}

/**
 * sw_live_config_wheels - the wheels a start adds to the defaults
 * @nr:		gets how many
 *
 * With sw_live_mutex held, which keeps them as they are.
 *
 * Return: the wheels' geometries, *@nr of them.
 */
const struct sw_geometry *sw_live_config_wheels(unsigned int *nr)
{
	lockdep_assert_held(&sw_live_mutex);
	*nr = sw_live_nr_geos;
	return sw_live_geos;
}
