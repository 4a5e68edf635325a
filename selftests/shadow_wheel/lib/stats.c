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
 * The keys of the stats file, each with where it must be (@scope) and whether
 * it moves only when timers do (@counts_timers: swt_stats_same_timers()
 * compares those). Every key of the module's list is @required:
 * swt_stats_read() fails when one is missing from the totals;
 * swt_stats_missing() names any key missing where it should be.
 */
enum swt_scope { SWT_BOTH, SWT_TOTAL, SWT_PER_CPU };

struct swt_stats_key {
	const char *name;
	size_t off;
	enum swt_scope scope;
	bool counts_timers;
	bool required;
};

/* The module's counters and the keys printed next to them: one bit of seen each */
#define SWT_MAX_STATS_KEYS	(8 * sizeof(((struct swt_counts *)0)->seen))

static struct swt_stats_key swt_stats_keys[SWT_MAX_STATS_KEYS];
static size_t swt_nr_stats_keys;

static void swt_stats_key_add(const char *name, size_t off, enum swt_scope scope,
			      bool counts_timers, bool required)
{
	if (swt_nr_stats_keys == SWT_MAX_STATS_KEYS) {
		fprintf(stderr, "stats: more than %zu keys\n", SWT_MAX_STATS_KEYS);
		abort();
	}
	swt_stats_keys[swt_nr_stats_keys++] = (struct swt_stats_key){
		name, off, scope, counts_timers, required,
	};
}

/* The table, from the module's list of counters, filled in once */
static void swt_stats_keys_init(void)
{
	if (swt_nr_stats_keys)
		return;
#define SW_STAT(name, merge, counts_timers)	\
	swt_stats_key_add(#name, offsetof(struct swt_counts, name), SWT_BOTH, counts_timers, true)
#include "../../../module/sw_stats_list.h"
#undef SW_STAT
	/* Printed by module/sw_debugfs.c next to the counters */
	swt_stats_key_add("migrated", offsetof(struct swt_counts, migrated), SWT_TOTAL, true,
			  false);
	swt_stats_key_add("alive", offsetof(struct swt_counts, alive), SWT_TOTAL, true, false);
	swt_stats_key_add("online", offsetof(struct swt_counts, online), SWT_PER_CPU, false, false);
}

#define SWT_NR_STATS_KEYS	swt_nr_stats_keys

static int swt_stats_key(const char *name)
{
	size_t i;

	for (i = 0; i < SWT_NR_STATS_KEYS; i++)
		if (!strcmp(swt_stats_keys[i].name, name))
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

/* Line @i of stats: a total's, or "cpuN.<key>" a CPU's */
static int swt_stats_line(const struct swt_kv *kv, size_t i, void *arg)
{
	const char *key = kv->line[i].key, *val = kv->line[i].val;
	struct swt_stats *st = arg;
	struct swt_counts *c = &st->total;
	unsigned long cpu = 0;
	char *end;
	int k;
	u64 v;

	if (!strncmp(key, "cpu", 3) && isdigit((unsigned char)key[3])) {
		cpu = strtoul(key + 3, &end, 10);
		if (*end != '.' || cpu >= SWT_MAX_CPUS)
			return 0;
		key = end + 1;
		c = &st->cpu[cpu];
		st->has_cpu[cpu] = true;
	}
	k = swt_stats_key(key);
	if (k < 0)
		return 0;
	if (swt_parse_u64(val, strlen(val), &v)) {
		swt_set_error("stats: '%s %s': not a number", kv->line[i].key, val);
		return -EINVAL;
	}
	*swt_count_field(c, swt_stats_keys[k].off) = v;
	c->seen |= 1ULL << k;
	return 0;
}

int swt_stats_read(struct swt_stats *st)
{
	int ret, k;

	swt_stats_keys_init();
	memset(st, 0, sizeof(*st));
	ret = swt_kv_each("stats", swt_stats_line, st);
	for (k = 0; !ret && k < (int)SWT_NR_STATS_KEYS; k++) {
		if (swt_stats_keys[k].required && !(st->total.seen & (1ULL << k))) {
			swt_set_error("stats: no '%s' line", swt_stats_keys[k].name);
			ret = -ENOENT;
		}
	}
	return ret;
}

const char *swt_stats_missing(const struct swt_stats *st, int cpu)
{
	const struct swt_counts *c = cpu < 0 ? &st->total : &st->cpu[cpu];
	size_t k;

	swt_stats_keys_init();
	for (k = 0; k < SWT_NR_STATS_KEYS; k++) {
		if (swt_stats_keys[k].scope == (cpu < 0 ? SWT_PER_CPU : SWT_TOTAL))
			continue;
		if (!(c->seen & (1ULL << k)))
			return swt_stats_keys[k].name;
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

/* The keys that count timers are the same in @a and @b; else which is not */
static bool swt_same_counts(const struct swt_counts *a, const struct swt_counts *b,
			    const char *prefix, char *why, size_t size)
{
	const struct swt_stats_key *key;
	u64 va, vb;

	for (key = swt_stats_keys; key < swt_stats_keys + SWT_NR_STATS_KEYS; key++) {
		if (!key->counts_timers)
			continue;
		va = swt_count_get(a, key->off);
		vb = swt_count_get(b, key->off);
		if (va != vb) {
			snprintf(why, size, "%s%s went from %llu to %llu",
				 prefix, key->name, va, vb);
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

	swt_stats_keys_init();
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
