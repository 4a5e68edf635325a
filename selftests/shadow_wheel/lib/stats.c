// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel selftests: the stats file.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swt_lib.h"

/* stats */

/*
 * The keys of the README: @scope says where each must be. Those the tests
 * cannot do without make swt_stats_read() fail when missing from the totals;
 * swt_stats_missing() names any documented one that is missing.
 */
enum { SWT_BOTH, SWT_TOTAL, SWT_PER_CPU };

static const struct {
	const char *name;
	size_t off;
	int scope;
	bool needed;
} swt_count_keys[] = {
#define SWT_COUNT_KEY(name, scope, needed) \
	{ #name, offsetof(struct swt_counts, name), scope, needed }
	SWT_COUNT_KEY(armed, SWT_BOTH, true),
	SWT_COUNT_KEY(modified, SWT_BOTH, false),
	SWT_COUNT_KEY(cancelled, SWT_BOTH, true),
	SWT_COUNT_KEY(expired, SWT_BOTH, true),
	SWT_COUNT_KEY(pending, SWT_BOTH, true),
	SWT_COUNT_KEY(migrated_in, SWT_BOTH, false),
	SWT_COUNT_KEY(migrated_out, SWT_BOTH, false),
	SWT_COUNT_KEY(cascaded, SWT_BOTH, false),
	SWT_COUNT_KEY(clamped, SWT_BOTH, false),
	SWT_COUNT_KEY(early, SWT_BOTH, true),
	SWT_COUNT_KEY(wakeups, SWT_BOTH, false),
	SWT_COUNT_KEY(workload_wakeups, SWT_BOTH, false),
	SWT_COUNT_KEY(runs, SWT_BOTH, false),
	SWT_COUNT_KEY(catchup_max, SWT_BOTH, false),
	SWT_COUNT_KEY(catchup_runs, SWT_BOTH, false),
	SWT_COUNT_KEY(tick_ns_max, SWT_BOTH, false),
	SWT_COUNT_KEY(migrated, SWT_TOTAL, false),
	SWT_COUNT_KEY(alive, SWT_TOTAL, false),
	SWT_COUNT_KEY(online, SWT_PER_CPU, false),
#undef SWT_COUNT_KEY
};

#define SWT_NR_COUNT_KEYS	ARRAY_SIZE(swt_count_keys)

static int swt_count_key(const char *name)
{
	size_t i;

	for (i = 0; i < SWT_NR_COUNT_KEYS; i++)
		if (!strcmp(swt_count_keys[i].name, name))
			return i;
	return -1;
}

static u64 *swt_count_field(struct swt_counts *c, size_t off)
{
	return (u64 *)((char *)c + off);
}

static u64 swt_count_get(const struct swt_counts *c, size_t off)
{
	return *(const u64 *)((const char *)c + off);
}

int swt_stats_read(struct swt_stats *st)
{
	struct swt_kv kv;
	size_t i;
	int ret, k;

	memset(st, 0, sizeof(*st));
	ret = swt_kv_read(&kv, "stats");
	if (ret)
		return ret;
	for (i = 0; i < kv.nr; i++) {
		const char *key = kv.line[i].key, *val = kv.line[i].val;
		struct swt_counts *c = &st->total;
		unsigned long cpu = 0;
		char *end;
		u64 v;

		if (!strncmp(key, "cpu", 3) && isdigit((unsigned char)key[3])) {
			cpu = strtoul(key + 3, &end, 10);
			if (*end != '.' || cpu >= SWT_MAX_CPUS)
				continue;
			key = end + 1;
			c = &st->cpu[cpu];
			st->has_cpu[cpu] = true;
		}
		k = swt_count_key(key);
		if (k < 0)
			continue;
		if (swt_parse_u64(val, strlen(val), &v)) {
			swt_set_error("stats: '%s %s': not a number", kv.line[i].key, val);
			ret = -EINVAL;
			break;
		}
		*swt_count_field(c, swt_count_keys[k].off) = v;
		c->seen |= 1U << k;
	}
	for (k = 0; !ret && k < (int)SWT_NR_COUNT_KEYS; k++) {
		if (swt_count_keys[k].needed && !(st->total.seen & (1U << k))) {
			swt_set_error("stats: no '%s' line", swt_count_keys[k].name);
			ret = -ENOENT;
		}
	}
	swt_kv_free(&kv);
	return ret;
}

const char *swt_stats_missing(const struct swt_stats *st, int cpu)
{
	const struct swt_counts *c = cpu < 0 ? &st->total : &st->cpu[cpu];
	size_t k;

	for (k = 0; k < SWT_NR_COUNT_KEYS; k++) {
		if (swt_count_keys[k].scope == (cpu < 0 ? SWT_PER_CPU : SWT_TOTAL))
			continue;
		if (!(c->seen & (1U << k)))
			return swt_count_keys[k].name;
	}
	return NULL;
}

bool swt_stats_sane(const struct swt_stats *st, char *why, size_t size)
{
	const struct swt_counts *t = &st->total, *c;
	unsigned int cpu;

	if (t->early) {
		snprintf(why, size, "early %llu: timers ran before their expiry", t->early);
		return false;
	}
	if (t->armed != t->expired + t->cancelled + t->pending) {
		snprintf(why, size, "armed %llu != expired %llu + cancelled %llu + pending %llu",
			 t->armed, t->expired, t->cancelled, t->pending);
		return false;
	}
	/* Per CPU, with the timers moved in and out by hotplug */
	for (cpu = 0; cpu < SWT_MAX_CPUS; cpu++) {
		c = &st->cpu[cpu];
		if (!st->has_cpu[cpu] ||
		    c->armed + c->migrated_in == c->expired + c->cancelled + c->pending +
						 c->migrated_out)
			continue;
		snprintf(why, size,
			 "cpu%u: armed+in %llu+%llu != expired+cancelled+pending+out %llu+%llu+%llu+%llu",
			 cpu, c->armed, c->migrated_in, c->expired, c->cancelled, c->pending,
			 c->migrated_out);
		return false;
	}
	return true;
}

/* The figures that count timers; the others move on their own */
static const char * const swt_timer_keys[] = {
	"armed", "modified", "cancelled", "expired", "pending", "migrated_in", "migrated_out",
	"cascaded", "clamped", "early", "migrated", "alive",
};

static bool swt_same_counts(const struct swt_counts *a, const struct swt_counts *b,
			    const char *prefix, char *why, size_t size)
{
	u64 va, vb;
	size_t i, off;

	for (i = 0; i < ARRAY_SIZE(swt_timer_keys); i++) {
		off = swt_count_keys[swt_count_key(swt_timer_keys[i])].off;
		va = swt_count_get(a, off);
		vb = swt_count_get(b, off);
		if (va != vb) {
			snprintf(why, size, "%s%s went from %llu to %llu",
				 prefix, swt_timer_keys[i], va, vb);
			return false;
		}
	}
	return true;
}

bool swt_stats_same_timers(const struct swt_stats *a, const struct swt_stats *b,
			   char *why, size_t size)
{
	char prefix[32];
	unsigned int cpu;

	if (!swt_same_counts(&a->total, &b->total, "", why, size))
		return false;
	for (cpu = 0; cpu < SWT_MAX_CPUS; cpu++) {
		if (!a->has_cpu[cpu] && !b->has_cpu[cpu])
			continue;
		snprintf(prefix, sizeof(prefix), "cpu%u.", cpu);
		if (!swt_same_counts(&a->cpu[cpu], &b->cpu[cpu], prefix, why, size))
			return false;
	}
	return true;
}

u64 swt_stats_cpu_sum(const struct swt_stats *st, size_t field)
{
	u64 sum = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < SWT_MAX_CPUS; cpu++)
		if (st->has_cpu[cpu])
			sum += swt_count_get(&st->cpu[cpu], field);
	return sum;
}
