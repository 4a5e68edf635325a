// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel selftests: control and bench writes, arming timers, waiting
 * for ticks.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "swt_lib.h"

/* control */

int swt_control_raw(const char *buf, size_t len)
{
	char path[PATH_MAX];

	swt_debugfs_path(path, sizeof(path), "control");
	return swt_write_file(path, buf, len);
}

int swt_bench_write(const char *words)
{
	char path[PATH_MAX];

	swt_debugfs_path(path, sizeof(path), "bench");
	return swt_write_file(path, words, strlen(words));
}

int swt_bench_read(char **report)
{
	char path[PATH_MAX];

	swt_debugfs_path(path, sizeof(path), "bench");
	return swt_read_file(path, report);
}

int swt_control(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(cmd, sizeof(cmd) - 1, fmt, ap);
	va_end(ap);
	if (len < 0 || len >= (int)sizeof(cmd) - 1)
		return -E2BIG;
	/* As echo(1) writes it */
	cmd[len++] = '\n';
	cmd[len] = '\0';
	return swt_control_raw(cmd, len);
}

static u64 swt_ms_to_ticks(const struct swt_geometry *geo, u64 ms)
{
	return (ms * geo->hz + 999) / 1000;
}

u64 swt_later(u64 a, u64 b)
{
	return (s64)(a - b) > 0 ? a : b;
}

static u64 swt_earlier(u64 a, u64 b)
{
	return (s64)(a - b) < 0 ? a : b;
}

/* The delta range in ticks, and the command */
static void swt_arm_command(const struct swt_geometry *geo, struct swt_arm *a)
{
	const char *unit = a->ms ? "ms" : "";
	char delta[64], cpu[32];

	if (a->hi < a->lo)
		a->hi = a->lo;
	if (a->ms) {
		a->tmin = a->lo * geo->hz / 1000;
		a->tmax = swt_ms_to_ticks(geo, a->hi);
	} else {
		a->tmin = a->lo;
		a->tmax = a->hi;
	}
	if (a->hi != a->lo)
		snprintf(delta, sizeof(delta), "%llu%s..%llu%s", a->lo, unit, a->hi, unit);
	else
		snprintf(delta, sizeof(delta), "%llu%s", a->lo, unit);
	cpu[0] = '\0';
	if (a->cpu >= 0)
		snprintf(cpu, sizeof(cpu), " cpu=%d", a->cpu);
	snprintf(a->cmd, sizeof(a->cmd), "arm count=%llu delta=%s%s%s%s", a->count,
		 delta, cpu, a->extra ? " " : "", a->extra ? a->extra : "");
}

/* The clocks of the @target CPUs' wheels, and jiffies as the first of them shows them */
static int swt_read_clocks(const bool target[SWT_MAX_CPUS], u64 clk[SWT_MAX_CPUS], u64 *j)
{
	struct swt_wheel w;
	bool first = true;
	unsigned int c;
	int ret;

	for (c = 0; c < SWT_MAX_CPUS; c++) {
		if (!target[c])
			continue;
		ret = swt_wheel_read(c, &w);
		if (ret)
			return ret;
		clk[c] = w.clk;
		if (first)
			*j = w.jiffies;
		first = false;
	}
	return 0;
}

/*
 * A timer armed with delta D goes to the level of E - C, E being its
 * expiry and C the target wheel's clock then, known only to lie between
 * the reads before and after the write. E is jiffies + D; should the
 * module count D from the wheel's clock instead (E = C + D), these
 * bounds still hold: that adds level_of(D) and an earlier first tick.
 */
static void swt_arm_bounds(const struct swt_geometry *geo, struct swt_arm *a,
			   const bool target[SWT_MAX_CPUS], const u64 clk_before[SWT_MAX_CPUS],
			   const u64 clk_after[SWT_MAX_CPUS])
{
	u64 e_max = a->j_after;
	unsigned int c, lvl;

	a->first_tick = a->j_before + a->tmin + 1;
	a->lvl_lo = swt_geo_level_of(geo, a->tmin);
	a->lvl_hi = swt_geo_level_of(geo, a->tmax);
	for (c = 0; c < SWT_MAX_CPUS; c++) {
		s64 dmin;
		u64 dmax;

		if (!target[c])
			continue;
		a->first_tick = swt_earlier(a->first_tick, clk_before[c] + a->tmin + 1);
		dmin = (s64)(a->j_before + a->tmin - clk_after[c]);
		lvl = swt_geo_level_of(geo, dmin > 0 ? dmin : 0);
		if (lvl < a->lvl_lo)
			a->lvl_lo = lvl;
		dmax = a->tmax;
		if ((s64)(a->j_after - clk_before[c]) > 0)
			dmax += a->j_after - clk_before[c];
		lvl = swt_geo_level_of(geo, dmax);
		if (lvl > a->lvl_hi)
			a->lvl_hi = lvl;
		/* An expiry behind the clock runs on the clock's next tick */
		e_max = swt_later(e_max, clk_after[c]);
	}
	a->last_tick = e_max + a->tmax + geo->level[a->lvl_hi].gran;
}

int swt_arm(const struct swt_geometry *geo, struct swt_arm *a)
{
	u64 clk_before[SWT_MAX_CPUS], clk_after[SWT_MAX_CPUS];
	bool target[SWT_MAX_CPUS] = { false };
	int ret;

	swt_arm_command(geo, a);
	if (a->cpu < 0)
		swt_online_mask(target);
	else if (a->cpu < SWT_MAX_CPUS)
		target[a->cpu] = true;
	ret = swt_read_clocks(target, clk_before, &a->j_before);
	if (!ret)
		ret = swt_control("%s", a->cmd);
	if (!ret)
		ret = swt_read_clocks(target, clk_after, &a->j_after);
	if (!ret)
		swt_arm_bounds(geo, a, target, clk_before, clk_after);
	return ret;
}

u64 swt_arms_last_tick(const struct swt_arm *arm, unsigned int nr, u64 *count)
{
	u64 last = 0;
	unsigned int i;

	*count = 0;
	for (i = 0; i < nr; i++) {
		*count += arm[i].count;
		last = swt_later(last, arm[i].last_tick);
	}
	return last;
}

int swt_wait_tick(const struct swt_geometry *geo, u64 tick)
{
	u64 j, last = 0, moved = swt_now_ms(), ms;
	int ret;

	for (;;) {
		ret = swt_jiffies(&j);
		if (ret)
			return ret;
		if ((s64)(j - tick) >= 0)
			return 0;
		if (j != last) {
			last = j;
			moved = swt_now_ms();
		} else if (swt_now_ms() - moved > 5000) {
			swt_set_error("jiffies stuck at %llu for 5 s", j);
			return -ETIME;
		}
		ms = swt_ticks_to_ms(geo, tick - j);
		swt_sleep_ms(ms < 1 ? 1 : ms > 200 ? 200 : ms);
	}
}

bool swt_poll_again(struct swt_poll *poll, u64 j)
{
	if ((s64)(j - poll->due) > 0 && !poll->grace_end)
		poll->grace_end = swt_now_ms() + poll->grace_ms;
	if (poll->grace_end && swt_now_ms() > poll->grace_end)
		return false;
	swt_sleep_ms(poll->poll_ms);
	return true;
}
