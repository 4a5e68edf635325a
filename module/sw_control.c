// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the control file's commands (docs/ABI/debugfs-shadow-wheel
 * has the grammar).
 *
 *   arm count=N delta=D|Dms|A..B|Ams..Bms [cpu=C] [deferrable] [cancel=P]
 *   run preset=net|io|poll|mixed [rate=R] [duration=S]
 *   stop | reset | cancel-all
 *
 * and the bench file's runs (sw_control_bench()):
 *
 *   [wheel=seed|mainline|classic|all] [timers=N] [ops=N] [ticks=N] [gap=N]
 *   [mean=N] [cancel=P] [cpu=C] [seed=S] [kernel=0|1]
 *
 * A command is checked whole before anything is done; a bad one gets
 * -EINVAL, -E2BIG or -ENODEV and one line in the kernel log.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sw_bench.h"
#include "sw_bench_run.h"
#include "sw_control.h"
#include "sw_cpu.h"
#include "sw_traffic.h"

/* Where parsing got to, for the error message */
struct sw_parse {
	const char	*cmd;		/* the command as written */
	char		*rest;		/* the words not yet read */
};

/*
 * The command and its words are the writer's bytes: printed escaped (%*pE),
 * so that no control character of theirs reaches the log as it is
 */
static int sw_reject(const struct sw_parse *p, int err, const char *why, const char *word)
{
	pr_warn("control: %s%s%*pE (%pe): '%*pE'\n", why, word ? " " : "",
		word ? (int)strlen(word) : 0, word ?: "", ERR_PTR(err),
		(int)strlen(p->cmd), p->cmd);
	return err;
}

/* The next word, or NULL at the end */
static char *sw_next_word(struct sw_parse *p)
{
	char *word;

	do {
		word = strsep(&p->rest, " \t\n");
	} while (word && !*word);
	return word;
}

/*
 * An unsigned decimal number, all of @s, digits alone: kstrtoul() would
 * also take a leading '+'
 */
static int sw_parse_ulong(const char *s, unsigned long *val)
{
	if (!isdigit(*s))
		return -EINVAL;
	return kstrtoul(s, 10, val) ? -EINVAL : 0;
}

/* "D" ticks or "Dms" milliseconds, in ticks (ms rounded up to whole ticks) */
static int sw_parse_ticks(char *s, unsigned long *ticks, bool *ms)
{
	size_t len = strlen(s);
	unsigned long val;

	*ms = len > 2 && !strcmp(s + len - 2, "ms");
	if (*ms)
		s[len - 2] = '\0';
	if (sw_parse_ulong(s, &val))
		return -EINVAL;
	if (*ms) {
		if (val > SW_DELTA_MAX * MSEC_PER_SEC / HZ)
			return -EINVAL;
		val = DIV_ROUND_UP_ULL((u64)val * HZ, MSEC_PER_SEC);
	}
	if (val > SW_DELTA_MAX)
		return -EINVAL;
	*ticks = val;
	return 0;
}

/* "D", "Dms", "A..B" or "Ams..Bms" */
static int sw_parse_delta(char *s, struct sw_arm_req *req)
{
	char *hi = strstr(s, "..");
	bool ms_lo, ms_hi;

	if (!hi) {
		if (sw_parse_ticks(s, &req->delta_min, &ms_lo))
			return -EINVAL;
		req->delta_max = req->delta_min;
		return 0;
	}
	*hi = '\0';
	hi += 2;
	if (sw_parse_ticks(s, &req->delta_min, &ms_lo) ||
	    sw_parse_ticks(hi, &req->delta_max, &ms_hi) ||
	    ms_lo != ms_hi || req->delta_min > req->delta_max)
		return -EINVAL;
	return 0;
}

/* Split "key=value"; @value is NULL for a bare word */
static char *sw_split(char *word, char **value)
{
	char *eq = strchr(word, '=');

	*value = NULL;
	if (eq) {
		*eq = '\0';
		*value = eq + 1;
	}
	return word;
}

static int sw_cmd_arm(struct sw_parse *p)
{
	struct sw_arm_req req = { .cpu = -1 };
	bool have_count = false, have_delta = false, have_cpu = false, have_cancel = false;
	char *word, *key, *value;
	unsigned long val;
	int ret;

	while ((word = sw_next_word(p))) {
		key = sw_split(word, &value);
		if (!strcmp(key, "deferrable") && !value) {
			if (req.deferrable)
				return sw_reject(p, -EINVAL, "repeated", key);
			req.deferrable = true;
			continue;
		}
		if (!value || !*value)
			return sw_reject(p, -EINVAL, "missing value or unknown word", key);
		if (!strcmp(key, "count") && !have_count) {
			have_count = true;
			if (sw_parse_ulong(value, &req.count) || !req.count)
				return sw_reject(p, -EINVAL, "count must be 1..", "1000000");
			if (req.count > SW_ARM_MAX)
				return sw_reject(p, -E2BIG, "count over", "1000000");
		} else if (!strcmp(key, "delta") && !have_delta) {
			have_delta = true;
			if (sw_parse_delta(value, &req))
				return sw_reject(p, -EINVAL, "bad delta", value);
		} else if (!strcmp(key, "cpu") && !have_cpu) {
			have_cpu = true;
			if (sw_parse_ulong(value, &val))
				return sw_reject(p, -EINVAL, "bad cpu", value);
			if (val >= nr_cpu_ids || !cpu_online(val))
				return sw_reject(p, -ENODEV, "no such cpu online", value);
			req.cpu = val;
		} else if (!strcmp(key, "cancel") && !have_cancel) {
			have_cancel = true;
			if (sw_parse_ulong(value, &val) || val > 100)
				return sw_reject(p, -EINVAL, "cancel must be 0..100", NULL);
			req.cancel_pct = val;
		} else {
			return sw_reject(p, -EINVAL, "unknown or repeated word", key);
		}
	}
	if (!have_count || !have_delta)
		return sw_reject(p, -EINVAL, "arm needs count= and delta=", NULL);
	ret = sw_traffic_arm(&req);
	if (ret == -E2BIG)
		return sw_reject(p, ret, "too many timers alive", NULL);
	if (ret)
		return sw_reject(p, ret, "cannot arm", NULL);
	return 0;
}

static int sw_cmd_run(struct sw_parse *p)
{
	unsigned long rate = 0, seconds = 10;
	enum sw_preset preset = SW_NR_PRESETS;
	bool have_rate = false, have_duration = false;
	char *word, *key, *value;
	int ret;

	while ((word = sw_next_word(p))) {
		key = sw_split(word, &value);
		if (!value || !*value)
			return sw_reject(p, -EINVAL, "missing value or unknown word", key);
		if (!strcmp(key, "preset") && preset == SW_NR_PRESETS) {
			for (preset = 0; preset < SW_NR_PRESETS; preset++)
				if (!strcmp(value, sw_preset_name(preset)))
					break;
			if (preset == SW_NR_PRESETS)
				return sw_reject(p, -EINVAL, "unknown preset", value);
		} else if (!strcmp(key, "rate") && !have_rate) {
			have_rate = true;
			if (sw_parse_ulong(value, &rate) || !rate || rate > SW_RATE_MAX)
				return sw_reject(p, -EINVAL, "rate must be 1..", "1000000");
		} else if (!strcmp(key, "duration") && !have_duration) {
			have_duration = true;
			if (sw_parse_ulong(value, &seconds) || !seconds ||
			    seconds > SW_DURATION_MAX)
				return sw_reject(p, -EINVAL, "duration must be 1..", "3600");
		} else {
			return sw_reject(p, -EINVAL, "unknown or repeated word", key);
		}
	}
	if (preset == SW_NR_PRESETS)
		return sw_reject(p, -EINVAL, "run needs preset=", NULL);
	if (!have_rate)
		rate = sw_preset_default_rate(preset);
	ret = sw_traffic_start(preset, rate, seconds);
	if (ret)
		return sw_reject(p, ret, ret == -EBUSY ? "a run is going on" : "cannot start",
				 NULL);
	return 0;
}

/* "key=N" with lo <= N <= hi */
static int sw_kbench_number(struct sw_parse *p, const char *key, const char *value,
			    unsigned long lo, unsigned long hi, unsigned long *val)
{
	if (sw_parse_ulong(value, val) || *val < lo || *val > hi) {
		pr_warn("bench: %s must be %lu..%lu (%pe): '%*pE'\n", key, lo, hi,
			ERR_PTR(-EINVAL), (int)strlen(p->cmd), p->cmd);
		return -EINVAL;
	}
	return 0;
}

static int sw_kbench_parse(struct sw_parse *p, struct sw_kbench_req *req)
{
	struct sw_bench_params *run = &req->params;
	unsigned long seen = 0, val;
	char *word, *key, *value;
	enum sw_wheel_kind kind;
	int ret = 0;

	while (!ret && (word = sw_next_word(p))) {
		static const char * const keys[] = {
			"wheel", "timers", "ops", "ticks", "gap", "mean", "cancel", "cpu",
			"seed", "kernel",
		};
		unsigned int k;

		key = sw_split(word, &value);
		for (k = 0; k < ARRAY_SIZE(keys) && strcmp(key, keys[k]); k++)
			;
		if (k == ARRAY_SIZE(keys) || !value || !*value || (seen & BIT(k)))
			return sw_reject(p, -EINVAL, "unknown, repeated or empty word", key);
		seen |= BIT(k);
		switch (k) {
		case 0:
			req->wheels = 0;
			for (kind = 0; kind < SW_WHEEL_NR_KINDS; kind++) {
				const char *name = sw_wheel_kind_name(kind);

				if (!strcmp(value, "all") || !strcmp(value, name))
					req->wheels |= BIT(kind);
			}
			if (!req->wheels)
				return sw_reject(p, -EINVAL, "unknown wheel", value);
			break;
		case 1:
			ret = sw_kbench_number(p, key, value, 1, SW_KBENCH_TIMERS_MAX,
					       &run->timers);
			break;
		case 2:
			ret = sw_kbench_number(p, key, value, 1, SW_BENCH_MAX_OPS, &run->ops);
			break;
		case 3:
			ret = sw_kbench_number(p, key, value, 1, SW_KBENCH_TICKS_MAX, &run->ticks);
			break;
		case 4:
			ret = sw_kbench_number(p, key, value, 1, 600UL * HZ, &run->gap);
			break;
		case 5:
			ret = sw_kbench_number(p, key, value, 1, 3600UL * HZ, &run->traffic.mean);
			break;
		case 6:
			ret = sw_kbench_number(p, key, value, 0, 99, &val);
			run->traffic.cancel_pct = val;
			break;
		case 7:
			ret = sw_kbench_number(p, key, value, 0, nr_cpu_ids - 1, &val);
			if (!ret && !cpu_online(val))
				return sw_reject(p, -ENODEV, "no such cpu online", value);
			req->cpu = val;
			break;
		case 8:
			ret = sw_kbench_number(p, key, value, 0, ULONG_MAX, &val);
			run->seed = val;
			break;
		default:
			ret = sw_kbench_number(p, key, value, 0, 1, &val);
			req->kernel = val;
			break;
		}
	}
	return ret;
}

/**
 * sw_control_bench - carry out one run written to the bench file
 * @cmd:	its words, NUL-terminated, at most %SW_CONTROL_MAX bytes
 *
 * Return: 0 or a negative error; a bad run is refused before anything
 * is done.
 */
int sw_control_bench(const char *cmd)
{
	struct sw_parse p = { .cmd = cmd };
	struct sw_kbench_req req;
	char *buf;
	int ret;

	buf = kstrdup(cmd, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	p.rest = buf;
	sw_kbench_req_defaults(&req);
	req.cpu = raw_smp_processor_id();
	ret = sw_kbench_parse(&p, &req);
	if (!ret) {
		ret = sw_kbench_run(&req);
		if (ret)
			pr_warn("bench: run failed (%pe): '%*pE'\n", ERR_PTR(ret),
				(int)strlen(cmd), cmd);
	}
	kfree(buf);
	return ret;
}

/* Commands without arguments */
static int sw_cmd_simple(struct sw_parse *p, void (*fn)(void))
{
	char *word = sw_next_word(p);

	if (word)
		return sw_reject(p, -EINVAL, "unexpected word", word);
	fn();
	return 0;
}

/**
 * sw_control - carry out one command written to the control file
 * @cmd:	the command, NUL-terminated, at most %SW_CONTROL_MAX bytes
 *
 * Return: 0 or a negative error; on error nothing was changed.
 */
int sw_control(const char *cmd)
{
	struct sw_parse p = { .cmd = cmd };
	char *buf, *word;
	int ret;

	buf = kstrdup(cmd, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	p.rest = buf;
	word = sw_next_word(&p);
	if (!word)
		ret = sw_reject(&p, -EINVAL, "empty command", NULL);
	else if (!strcmp(word, "arm"))
		ret = sw_cmd_arm(&p);
	else if (!strcmp(word, "run"))
		ret = sw_cmd_run(&p);
	else if (!strcmp(word, "stop"))
		ret = sw_cmd_simple(&p, sw_traffic_stop);
	else if (!strcmp(word, "reset"))
		ret = sw_cmd_simple(&p, sw_cpus_reset_stats);
	else if (!strcmp(word, "cancel-all"))
		ret = sw_cmd_simple(&p, sw_cpus_cancel_all);
	else
		ret = sw_reject(&p, -EINVAL, "unknown command", word);
	kfree(buf);
	return ret;
}
