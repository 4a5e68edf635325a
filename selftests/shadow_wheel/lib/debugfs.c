// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel selftests: the module's debugfs files, read as key-value
 * files: geometry, lateness and cpuN/wheel.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swt_lib.h"

/* debugfs */

const char *swt_debugfs_dir(void)
{
	const char *dir = getenv("SW_DEBUGFS");

	return dir && *dir ? dir : SWT_DEBUGFS_DEFAULT;
}

bool swt_debugfs_present(void)
{
	return swt_path_exists(swt_debugfs_dir());
}

void swt_debugfs_path(char *path, size_t size, const char *rel)
{
	snprintf(path, size, "%s/%s", swt_debugfs_dir(), rel);
}

bool swt_debugfs_exists(const char *rel)
{
	char path[PATH_MAX];

	swt_debugfs_path(path, sizeof(path), rel);
	return swt_path_exists(path);
}

/* Key value files */

int swt_kv_read(struct swt_kv *kv, const char *rel)
{
	char path[PATH_MAX], *p, *next, *end;
	size_t cap = 0;
	int ret;

	memset(kv, 0, sizeof(*kv));
	kv->rel = rel;
	swt_debugfs_path(path, sizeof(path), rel);
	ret = swt_read_file(path, &kv->buf);
	if (ret)
		return ret;
	for (p = kv->buf; *p; p = next) {
		struct swt_kv_line *line;

		next = p + strcspn(p, "\n");
		if (*next)
			*next++ = '\0';
		end = p + strlen(p);
		while (end > p && isspace((unsigned char)end[-1]))
			*--end = '\0';
		p += strspn(p, " \t");
		if (!*p)
			continue;
		if (kv->nr == cap) {
			cap = cap ? 2 * cap : 64;
			line = realloc(kv->line, cap * sizeof(*line));
			if (!line) {
				swt_kv_free(kv);
				return -ENOMEM;
			}
			kv->line = line;
		}
		line = &kv->line[kv->nr++];
		line->key = p;
		p += strcspn(p, " \t");
		if (*p)
			*p++ = '\0';
		line->val = p + strspn(p, " \t");
	}
	return 0;
}

void swt_kv_free(struct swt_kv *kv)
{
	free(kv->line);
	free(kv->buf);
	memset(kv, 0, sizeof(*kv));
}

int swt_kv_each(const char *rel, int (*line)(const struct swt_kv *kv, size_t i, void *arg),
		void *arg)
{
	struct swt_kv kv;
	size_t i;
	int ret;

	ret = swt_kv_read(&kv, rel);
	for (i = 0; !ret && i < kv.nr; i++)
		ret = line(&kv, i, arg);
	swt_kv_free(&kv);
	return ret;
}

static const char *swt_kv_str(const struct swt_kv *kv, const char *key)
{
	size_t i;

	for (i = 0; i < kv->nr; i++)
		if (!strcmp(kv->line[i].key, key))
			return kv->line[i].val;
	return NULL;
}

int swt_parse_u64(const char *s, size_t len, u64 *out)
{
	char buf[32], *end;
	unsigned long long v;

	if (!len || len >= sizeof(buf) || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* The rest of @s after its first word and the blanks that follow */
const char *swt_skip_word(const char *s)
{
	s += strcspn(s, " \t");
	return s + strspn(s, " \t");
}

/* The rest of @s after the word @word it starts with, or NULL */
static const char *swt_after_word(const char *s, const char *word)
{
	size_t len = strlen(word);

	if (strncmp(s, word, len) || (s[len] && !isspace((unsigned char)s[len])))
		return NULL;
	return swt_skip_word(s);
}

const char *swt_field(const char *s, const char *key, size_t *len)
{
	size_t klen = strlen(key), n;

	for (;;) {
		s += strspn(s, " \t");
		n = strcspn(s, " \t");
		if (!n)
			return NULL;
		if (n == klen && !strncmp(s, key, n)) {
			s += n;
			s += strspn(s, " \t");
			*len = strcspn(s, " \t");
			return *len ? s : NULL;
		}
		s += n;
	}
}

/*
 * The numbers of the debugfs files, read by tables: each number's key, how
 * it is stored and where, in the struct the table is for. A count says
 * whether the numbers after it that need one are there: a range such as
 * late_min and late_max is only printed when it counted timers.
 */
enum swt_num_type {
	SWT_U64,
	SWT_UINT,	/* an unsigned int */
	SWT_DOUBLE,
	SWT_COUNT,	/* a u64: the next SWT_IF_COUNT ones are there if it is not 0 */
	SWT_IF_COUNT,	/* a u64, there if the count before it is not 0 */
};

struct swt_num {
	const char *key;
	enum swt_num_type type;
	size_t off;
};

#define SWT_NUM(type, key, st, member)	{ key, type, offsetof(st, member) }

/* The @len characters at @s as the number @num of the struct at @base */
static int swt_num_store(const struct swt_num *num, const char *s, size_t len, void *base)
{
	void *to = (char *)base + num->off;
	char buf[32], *end;
	u64 v;

	if (num->type == SWT_DOUBLE) {
		if (!len || len >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, s, len);
		buf[len] = '\0';
		*(double *)to = strtod(buf, &end);
		return *end || end == buf ? -EINVAL : 0;
	}
	if (swt_parse_u64(s, len, &v))
		return -EINVAL;
	if (num->type != SWT_UINT)
		*(u64 *)to = v;
	else if (v <= UINT_MAX)
		*(unsigned int *)to = v;
	else
		return -EINVAL;
	return 0;
}

/*
 * The numbers @nums of a table into the struct at @base: each the value of
 * its own line of @kv ("key value") if @val is NULL, else the word after
 * its key in @val, the value of one line ("k1 v1 k2 v2 ...")
 */
static int swt_read_nums(const struct swt_kv *kv, const char *val, const struct swt_num *nums,
			 size_t nr, void *base)
{
	const struct swt_num *num;
	bool counted = true;
	const char *s;
	size_t len;

	for (num = nums; num < nums + nr; num++) {
		if (num->type == SWT_IF_COUNT && !counted)
			continue;
		s = val ? swt_field(val, num->key, &len) : swt_kv_str(kv, num->key);
		if (!s && val) {
			swt_set_error("%s: no '%s' in '%s'", kv->rel, num->key, val);
			return -ENOENT;
		}
		if (!s) {
			swt_set_error("%s: no '%s' line", kv->rel, num->key);
			return -ENOENT;
		}
		if (!val)
			len = strlen(s);
		if (swt_num_store(num, s, len, base)) {
			swt_set_error("%s: '%s %.*s': not a number", kv->rel, num->key,
				      (int)len, s);
			return -EINVAL;
		}
		if (num->type == SWT_COUNT)
			counted = *(u64 *)((char *)base + num->off);
	}
	return 0;
}

/* Whether line @i of @kv is a "level N ..." line: 1 with N in @lvl, else 0, or -EINVAL */
static int swt_level_line(const struct swt_kv *kv, size_t i, unsigned int *lvl)
{
	const char *val = kv->line[i].val;
	u64 n;

	if (strcmp(kv->line[i].key, "level"))
		return 0;
	if (swt_parse_u64(val, strcspn(val, " \t"), &n) || n >= SWT_MAX_LEVELS) {
		swt_set_error("%s: bad level line 'level %s'", kv->rel, val);
		return -EINVAL;
	}
	*lvl = n;
	return 1;
}

/*
 * The numbers @nums of each "level N k1 v1 ..." line of @kv into the N-th
 * of the structs of @size bytes at @level; a bit for each N in @seen
 */
static int swt_read_levels(const struct swt_kv *kv, const struct swt_num *nums, size_t nr,
			   void *level, size_t size, u64 *seen)
{
	unsigned int lvl;
	size_t i;
	int ret = 0;

	*seen = 0;
	for (i = 0; !ret && i < kv->nr; i++) {
		ret = swt_level_line(kv, i, &lvl);
		if (ret <= 0)
			continue;
		ret = swt_read_nums(kv, kv->line[i].val, nums, nr, (char *)level + lvl * size);
		*seen |= 1ULL << lvl;
	}
	return ret;
}

/* geometry */

static const struct swt_num swt_geometry_nums[] = {
	SWT_NUM(SWT_UINT, "hz", struct swt_geometry, hz),
	SWT_NUM(SWT_UINT, "levels", struct swt_geometry, levels),
	SWT_NUM(SWT_UINT, "buckets", struct swt_geometry, buckets),
	SWT_NUM(SWT_U64, "cutoff", struct swt_geometry, cutoff),
};

static const struct swt_num swt_geo_level_nums[] = {
	SWT_NUM(SWT_U64, "offset", struct swt_geo_level, offset),
	SWT_NUM(SWT_U64, "gran_ticks", struct swt_geo_level, gran),
	SWT_NUM(SWT_U64, "start_ticks", struct swt_geo_level, start),
	SWT_NUM(SWT_U64, "end_ticks", struct swt_geo_level, end),
	SWT_NUM(SWT_DOUBLE, "gran_ms", struct swt_geo_level, gran_ms),
	SWT_NUM(SWT_DOUBLE, "start_ms", struct swt_geo_level, start_ms),
	SWT_NUM(SWT_DOUBLE, "end_ms", struct swt_geo_level, end_ms),
};

/* The lines before the levels: the wheel's name, HZ and its shape */
static int swt_geometry_head(const struct swt_kv *kv, struct swt_geometry *geo)
{
	const char *wheel = swt_kv_str(kv, "wheel");
	int ret;

	if (!wheel) {
		swt_set_error("geometry: no 'wheel' line");
		return -ENOENT;
	}
	snprintf(geo->wheel, sizeof(geo->wheel), "%s", wheel);
	snprintf(geo->spec, sizeof(geo->spec), "%s", swt_kv_str(kv, "spec") ?: "");
	ret = swt_read_nums(kv, NULL, swt_geometry_nums, ARRAY_SIZE(swt_geometry_nums), geo);
	if (ret)
		return ret;
	if (!geo->hz || !geo->levels || geo->levels > SWT_MAX_LEVELS || !geo->buckets) {
		swt_set_error("geometry: hz %u levels %u buckets %u",
			      geo->hz, geo->levels, geo->buckets);
		return -EINVAL;
	}
	return 0;
}

int swt_geometry_read(struct swt_geometry *geo)
{
	struct swt_kv kv;
	u64 seen;
	int ret;

	memset(geo, 0, sizeof(*geo));
	ret = swt_kv_read(&kv, "geometry");
	if (ret)
		return ret;
	ret = swt_geometry_head(&kv, geo);
	if (!ret)
		ret = swt_read_levels(&kv, swt_geo_level_nums, ARRAY_SIZE(swt_geo_level_nums),
				      geo->level, sizeof(geo->level[0]), &seen);
	if (!ret && seen != (1ULL << geo->levels) - 1) {
		swt_set_error("geometry: %u levels, level lines for 0x%llx", geo->levels, seen);
		ret = -EINVAL;
	}
	swt_kv_free(&kv);
	return ret;
}

unsigned int swt_geo_level_of(const struct swt_geometry *geo, u64 delta)
{
	unsigned int lvl;

	for (lvl = geo->levels - 1; lvl > 0; lvl--)
		if (delta >= geo->level[lvl].start)
			return lvl;
	return 0;
}

u64 swt_ticks_to_ms(const struct swt_geometry *geo, u64 ticks)
{
	return (ticks * 1000 + geo->hz - 1) / geo->hz;
}

/* lateness */

static const struct swt_num swt_late_level_nums[] = {
	SWT_NUM(SWT_U64, "gran", struct swt_late_level, gran),
	SWT_NUM(SWT_COUNT, "expired", struct swt_late_level, expired),
	SWT_NUM(SWT_IF_COUNT, "late_min", struct swt_late_level, late_min),
	SWT_NUM(SWT_IF_COUNT, "late_max", struct swt_late_level, late_max),
};

static const struct swt_num swt_delivery_nums[] = {
	SWT_NUM(SWT_COUNT, "expired", struct swt_lateness, delivery_expired),
	SWT_NUM(SWT_IF_COUNT, "delay_min", struct swt_lateness, delay_min),
	SWT_NUM(SWT_IF_COUNT, "delay_max", struct swt_lateness, delay_max),
};

/*
 * A lateness value @val: "hist ..." into @hist (returns 1), or the numbers
 * @nums into the struct at @base (returns 0)
 */
static int swt_late_line(const struct swt_kv *kv, const char *val, const struct swt_num *nums,
			 size_t nr, void *base, char *hist, size_t size)
{
	const char *rest = swt_after_word(val, "hist");

	if (rest) {
		snprintf(hist, size, "%s", rest);
		return 1;
	}
	return swt_read_nums(kv, val, nums, nr, base);
}

/* Line @i of lateness if it is a "level N ..." line */
static int swt_late_level(const struct swt_kv *kv, size_t i, struct swt_lateness *lt)
{
	struct swt_late_level *l;
	unsigned int lvl;
	int ret;

	ret = swt_level_line(kv, i, &lvl);
	if (ret <= 0)
		return ret;
	l = &lt->level[lvl];
	if (lvl >= lt->levels)
		lt->levels = lvl + 1;
	ret = swt_late_line(kv, swt_skip_word(kv->line[i].val), swt_late_level_nums,
			    ARRAY_SIZE(swt_late_level_nums), l, l->hist, sizeof(l->hist));
	if (!ret)
		l->present = true;
	return ret;
}

/* Line @i of lateness: the delivery line or a level's */
static int swt_lateness_line(const struct swt_kv *kv, size_t i, void *arg)
{
	struct swt_lateness *lt = arg;
	int ret;

	if (strcmp(kv->line[i].key, "delivery"))
		ret = swt_late_level(kv, i, lt);
	else
		ret = swt_late_line(kv, kv->line[i].val, swt_delivery_nums,
				    ARRAY_SIZE(swt_delivery_nums), lt, lt->delivery_hist,
				    sizeof(lt->delivery_hist));
	return ret > 0 ? 0 : ret;
}

int swt_lateness_read(struct swt_lateness *lt)
{
	memset(lt, 0, sizeof(*lt));
	return swt_kv_each("lateness", swt_lateness_line, lt);
}

/* cpuN/wheel */

static const struct swt_num swt_wheel_nums[] = {
	SWT_NUM(SWT_U64, "clk", struct swt_wheel, clk),
	SWT_NUM(SWT_U64, "jiffies", struct swt_wheel, jiffies),
	SWT_NUM(SWT_U64, "pending", struct swt_wheel, pending),
};

static const struct swt_num swt_wheel_next_nums[] = {
	SWT_NUM(SWT_U64, "next_expiry", struct swt_wheel, next_expiry),
};

static const struct swt_num swt_wheel_level_nums[] = {
	SWT_NUM(SWT_U64, "normal_buckets", struct swt_wheel_level, normal_buckets),
	SWT_NUM(SWT_U64, "normal_timers", struct swt_wheel_level, normal_timers),
	SWT_NUM(SWT_U64, "deferrable_buckets", struct swt_wheel_level, deferrable_buckets),
	SWT_NUM(SWT_U64, "deferrable_timers", struct swt_wheel_level, deferrable_timers),
};

/* next_expiry: a tick, or none */
static int swt_wheel_next(const struct swt_kv *kv, struct swt_wheel *w)
{
	const char *next = swt_kv_str(kv, "next_expiry");

	w->has_next = next && strcmp(next, "none");
	if (next && !w->has_next)
		return 0;
	return swt_read_nums(kv, NULL, swt_wheel_next_nums, ARRAY_SIZE(swt_wheel_next_nums), w);
}

int swt_wheel_read(unsigned int cpu, struct swt_wheel *w)
{
	struct swt_kv kv;
	char rel[64];
	u64 seen = 0;
	int ret;

	memset(w, 0, sizeof(*w));
	snprintf(rel, sizeof(rel), "cpu%u/wheel", cpu);
	ret = swt_kv_read(&kv, rel);
	if (ret)
		return ret;
	ret = swt_read_nums(&kv, NULL, swt_wheel_nums, ARRAY_SIZE(swt_wheel_nums), w);
	if (!ret)
		ret = swt_wheel_next(&kv, w);
	if (!ret)
		ret = swt_read_levels(&kv, swt_wheel_level_nums, ARRAY_SIZE(swt_wheel_level_nums),
				      w->level, sizeof(w->level[0]), &seen);
	/* As many levels as the highest it has a line for */
	while (seen >> w->levels)
		w->levels++;
	swt_kv_free(&kv);
	return ret;
}

/* Sum of one per-level figure, by its offset in struct swt_wheel_level */
static u64 swt_wheel_sum(const struct swt_wheel *w, size_t off)
{
	unsigned int lvl;
	u64 sum = 0;

	for (lvl = 0; lvl < w->levels; lvl++)
		sum += *(const u64 *)((const char *)&w->level[lvl] + off);
	return sum;
}

u64 swt_wheel_normal(const struct swt_wheel *w)
{
	return swt_wheel_sum(w, offsetof(struct swt_wheel_level, normal_timers));
}

u64 swt_wheel_deferrable(const struct swt_wheel *w)
{
	return swt_wheel_sum(w, offsetof(struct swt_wheel_level, deferrable_timers));
}

int swt_jiffies(u64 *j)
{
	bool online[SWT_MAX_CPUS];
	struct swt_wheel w;
	unsigned int cpu;
	int ret;

	swt_online_mask(online);
	for (cpu = 0; cpu < SWT_MAX_CPUS; cpu++) {
		if (!online[cpu])
			continue;
		ret = swt_wheel_read(cpu, &w);
		if (!ret)
			*j = w.jiffies;
		return ret;
	}
	swt_set_error("no online CPU");
	return -ENODEV;
}
