// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: /sys/kernel/debug/shadow_wheel/, described in
 * docs/ABI/debugfs-shadow-wheel.
 * Figures are "key value" lines, so scripts can read them. Each file's
 * functions are sw_debugfs_<file>_*: the prefixes of what they show
 * (sw_geometry_*, sw_stats_*, sw_live_*...) are those libraries' own.
 */
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "sw_bench_run.h"
#include "sw_control.h"
#include "sw_cpu.h"
#include "sw_debugfs.h"
#include "sw_live.h"

static struct dentry *sw_dir;

static u64 sw_ticks_to_ms(unsigned long ticks)
{
	return div_u64((u64)ticks * MSEC_PER_SEC, HZ);
}

static int sw_debugfs_geometry_show(struct seq_file *m, void *unused)
{
	const struct sw_geometry *geo = sw_cpus_geometry();
	char spec[SW_SPEC_MAX];
	unsigned int lvl;

	seq_printf(m, "wheel %s\nhz %u\nlevels %u\nbuckets %u\ncutoff %lu\ncascade %d\n",
		   sw_wheel_kind_name(geo->kind), geo->hz, geo->depth, sw_lvl_size(geo),
		   geo->lvl_start[geo->depth], geo->cascade);
	if (!geo->cascade)
		seq_printf(m, "timeout_max %lu\n", geo->timeout_max);
	sw_geometry_format(geo, spec, sizeof(spec));
	seq_printf(m, "spec %s\n", spec);
	for (lvl = 0; lvl < geo->depth; lvl++) {
		unsigned long start = geo->lvl_start[lvl], end = geo->lvl_start[lvl + 1] - 1;

		seq_printf(m,
			   "level %u offset %u buckets %u gran_ticks %lu gran_ms %llu start_ticks %lu end_ticks %lu start_ms %llu end_ms %llu\n",
			   lvl, sw_lvl_first_bucket(geo, lvl), sw_lvl_nr_buckets(geo, lvl),
			   sw_lvl_expiry_gran(geo, lvl),
			   sw_ticks_to_ms(sw_lvl_expiry_gran(geo, lvl)), start, end,
			   sw_ticks_to_ms(start), sw_ticks_to_ms(end));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sw_debugfs_geometry);

static int sw_debugfs_stats_show(struct seq_file *m, void *unused)
{
	struct sw_stats *stats, *total = kmalloc(sizeof(*total), GFP_KERNEL);
	unsigned int cpu;
	char prefix[16];

	if (!total)
		return -ENOMEM;
	stats = sw_cpus_stats(total);
	if (!stats) {
		kfree(total);
		return -ENOMEM;
	}
	sw_stats_show_counters(m, "", total);
	seq_printf(m, "migrated %llu\nalive %ld\n", total->migrated_out, sw_shadows_alive());
	for_each_possible_cpu(cpu) {
		snprintf(prefix, sizeof(prefix), "cpu%u.", cpu);
		seq_printf(m, "%sonline %d\n", prefix, cpu_online(cpu));
		sw_stats_show_counters(m, prefix, &stats[cpu]);
	}
	kfree(stats);
	kfree(total);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sw_debugfs_stats);

static int sw_debugfs_lateness_show(struct seq_file *m, void *unused)
{
	struct sw_stats *stats, *total = kmalloc(sizeof(*total), GFP_KERNEL);

	if (!total)
		return -ENOMEM;
	stats = sw_cpus_stats(total);
	if (stats)
		sw_stats_show_lateness(m, total, sw_cpus_geometry());
	kfree(stats);
	kfree(total);
	return stats ? 0 : -ENOMEM;
}
DEFINE_SHOW_ATTRIBUTE(sw_debugfs_lateness);

static int sw_debugfs_bench_show(struct seq_file *m, void *unused)
{
	sw_kbench_show(m);
	return 0;
}

/* cpuN/wheel: the wheel's clock, next expiry and the occupancy of its levels */
static int sw_debugfs_wheel_show(struct seq_file *m, void *unused)
{
	struct sw_cpu_wheel_view v;
	unsigned int lvl;

	sw_cpu_view_wheel((unsigned long)m->private, &v);
	seq_printf(m, "online %d\nclk %lu\njiffies %lu\n", v.online, v.clk, jiffies);
	if (v.has_next)
		seq_printf(m, "next_expiry %lu\n", v.next);
	else
		seq_puts(m, "next_expiry none\n");
	seq_printf(m, "pending %llu\n", v.pending);
	for (lvl = 0; lvl < v.depth; lvl++)
		seq_printf(m,
			   "level %u normal_buckets %u normal_timers %u deferrable_buckets %u deferrable_timers %u\n",
			   lvl, v.buckets[lvl][0], v.timers[lvl][0], v.buckets[lvl][1],
			   v.timers[lvl][1]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sw_debugfs_wheel);

/* A file that takes commands: its name, and what carries them out */
struct sw_command_file {
	const char	*name;
	int		(*run)(const char *cmd);
};

static struct sw_command_file sw_debugfs_control_file = { "control", sw_control };
static struct sw_command_file sw_debugfs_bench_file = { "bench", sw_control_bench };

/* A command written to a file of struct sw_command_file, carried out */
static ssize_t sw_command_write(struct file *file, const char __user *ubuf, size_t len,
				loff_t *ppos)
{
	const struct sw_command_file *cf = file_inode(file)->i_private;
	const char *what = cf->name;
	char *cmd;
	int ret;

	if (len > SW_CONTROL_MAX) {
		pr_warn("shadow_wheel: %s: command over %d bytes (%pe)\n", what, SW_CONTROL_MAX,
			ERR_PTR(-EINVAL));
		return -EINVAL;
	}
	cmd = memdup_user_nul(ubuf, len);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	/* A NUL would end the command early and hide what follows it */
	if (strlen(cmd) != len) {
		pr_warn("shadow_wheel: %s: command holds a NUL byte (%pe)\n", what,
			ERR_PTR(-EINVAL));
		kfree(cmd);
		return -EINVAL;
	}
	/* "echo cmd > control" writes a newline too */
	ret = cf->run(strim(cmd));
	kfree(cmd);
	return ret ? ret : len;
}

static const struct file_operations sw_debugfs_control_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= sw_command_write,
	.llseek	= noop_llseek,
};

static int sw_debugfs_bench_open(struct inode *inode, struct file *file)
{
	return single_open(file, sw_debugfs_bench_show, NULL);
}

/* bench: write a run (its words, or nothing for the defaults), read the report */
static const struct file_operations sw_debugfs_bench_fops = {
	.owner		= THIS_MODULE,
	.open		= sw_debugfs_bench_open,
	.read		= seq_read,
	.write		= sw_command_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* The file_operations of a mirror/ file read and written whole: NAME_read(), NAME_write() */
#define SW_DEBUGFS_READ_WRITE(name)					\
static const struct file_operations name##_fops = {			\
	.owner	= THIS_MODULE,						\
	.open	= simple_open,						\
	.read	= name##_read,						\
	.write	= name##_write,						\
	.llseek	= default_llseek,					\
}

/* mirror/: the files that show the mirror, each a section of its report */
static const struct {
	const char		*name;
	enum sw_live_section	section;
} sw_debugfs_mirror_files[] = {
	{ "stats",	SW_LIVE_STATS },
	{ "lateness",	SW_LIVE_LATENESS },
	{ "diff",	SW_LIVE_DIFF },
	{ "top",	SW_LIVE_TOP },
	{ "summary",	SW_LIVE_SUMMARY },
	{ "logs",	SW_LIVE_LOGS },
};

static int sw_debugfs_mirror_show(struct seq_file *m, void *unused)
{
	return sw_live_show(m, (unsigned long)m->private);
}
DEFINE_SHOW_ATTRIBUTE(sw_debugfs_mirror);

/*
 * mirror/enable: 1 starts the mirror, 0 stops it; reads whether it runs.
 * The write is "1" or "0" and at most a newline: not a number parsed from
 * the first bytes, which would take "01", "+1" or a digit and junk.
 */
static ssize_t sw_debugfs_mirror_enable_write(struct file *file, const char __user *ubuf,
					      size_t len, loff_t *ppos)
{
	char buf[2];
	bool on;
	int ret = -EINVAL;

	if (len >= 1 && len <= sizeof(buf)) {
		ret = copy_from_user(buf, ubuf, len) ? -EFAULT : 0;
		if (!ret && ((buf[0] != '0' && buf[0] != '1') || (len == 2 && buf[1] != '\n')))
			ret = -EINVAL;
	}
	if (ret) {
		pr_warn("shadow_wheel: mirror/enable takes 1 or 0 (%pe)\n", ERR_PTR(ret));
		return ret;
	}
	on = buf[0] == '1';
	if (on) {
		ret = sw_live_start();
		if (ret)
			return ret;
	} else {
		sw_live_stop();
	}
	return len;
}

static ssize_t sw_debugfs_mirror_enable_read(struct file *file, char __user *ubuf, size_t len,
					     loff_t *ppos)
{
	char buf[3] = { sw_live_running() ? '1' : '0', '\n', 0 };

	return simple_read_from_buffer(ubuf, len, ppos, buf, 2);
}

SW_DEBUGFS_READ_WRITE(sw_debugfs_mirror_enable);

/*
 * mirror/wheels: the wheels the mirror adds from its next start, as the
 * mirror_wheels parameter: a write sets them (specs apart by ';', at most
 * a page), a read gives them back in canonical form
 */
static ssize_t sw_debugfs_mirror_wheels_write(struct file *file, const char __user *ubuf,
					      size_t len, loff_t *ppos)
{
	char *list;
	int ret;

	if (len >= PAGE_SIZE) {
		pr_warn("shadow_wheel: mirror/wheels takes at most %lu bytes\n", PAGE_SIZE - 1);
		return -EINVAL;
	}
	list = memdup_user_nul(ubuf, len);
	if (IS_ERR(list))
		return PTR_ERR(list);
	/* A NUL in the write would hide the rest of it */
	if (strlen(list) != len) {
		pr_warn("shadow_wheel: mirror/wheels: a NUL byte in the write\n");
		ret = -EINVAL;
	} else {
		ret = sw_live_set_wheels(list, "mirror/wheels");
	}
	kfree(list);
	return ret ? ret : len;
}

static ssize_t sw_debugfs_mirror_wheels_read(struct file *file, char __user *ubuf, size_t len,
					     loff_t *ppos)
{
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	ssize_t ret;

	if (!buf)
		return -ENOMEM;
	ret = simple_read_from_buffer(ubuf, len, ppos, buf, sw_live_print_wheels(buf, PAGE_SIZE));
	kfree(buf);
	return ret;
}

SW_DEBUGFS_READ_WRITE(sw_debugfs_mirror_wheels);

static void sw_debugfs_mirror_init(struct dentry *parent)
{
	struct dentry *dir = debugfs_create_dir("mirror", parent);
	unsigned int i;

	debugfs_create_file("enable", 0600, dir, NULL, &sw_debugfs_mirror_enable_fops);
	debugfs_create_file("wheels", 0600, dir, NULL, &sw_debugfs_mirror_wheels_fops);
	for (i = 0; i < ARRAY_SIZE(sw_debugfs_mirror_files); i++) {
		void *section = (void *)(unsigned long)sw_debugfs_mirror_files[i].section;

		debugfs_create_file(sw_debugfs_mirror_files[i].name, 0444, dir, section,
				    &sw_debugfs_mirror_fops);
	}
}

int sw_debugfs_init(void)
{
	unsigned int cpu;
	char name[16];

	sw_dir = debugfs_create_dir("shadow_wheel", NULL);
	if (IS_ERR(sw_dir))
		return PTR_ERR(sw_dir);
	debugfs_create_file("geometry", 0444, sw_dir, NULL, &sw_debugfs_geometry_fops);
	debugfs_create_file("stats", 0444, sw_dir, NULL, &sw_debugfs_stats_fops);
	debugfs_create_file("lateness", 0444, sw_dir, NULL, &sw_debugfs_lateness_fops);
	debugfs_create_file("control", 0200, sw_dir, &sw_debugfs_control_file,
			    &sw_debugfs_control_fops);
	debugfs_create_file("bench", 0600, sw_dir, &sw_debugfs_bench_file,
			    &sw_debugfs_bench_fops);
	sw_debugfs_mirror_init(sw_dir);
	for_each_possible_cpu(cpu) {
		struct dentry *dir;

		snprintf(name, sizeof(name), "cpu%u", cpu);
		dir = debugfs_create_dir(name, sw_dir);
		debugfs_create_file("wheel", 0444, dir, (void *)(unsigned long)cpu,
				    &sw_debugfs_wheel_fops);
	}
	return 0;
}

/* Also waits for every reader and writer to leave */
void sw_debugfs_exit(void)
{
	debugfs_remove(sw_dir);
}
