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

const char *swt_kv_str(const struct swt_kv *kv, const char *key)
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

int swt_kv_u64(const struct swt_kv *kv, const char *key, u64 *val)
{
	const char *s = swt_kv_str(kv, key);

	if (!s) {
		swt_set_error("no '%s' line", key);
		return -ENOENT;
	}
	if (swt_parse_u64(s, strlen(s), val)) {
		swt_set_error("'%s %s': not a number", key, s);
		return -EINVAL;
	}
	return 0;
}

/* The word after the word @key in @s, and its length */
static const char *swt_field(const char *s, const char *key, size_t *len)
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

/* In a line's value "N k1 v1 k2 v2 ...": the number after the word @key */
static int swt_field_u64(const char *val, const char *key, u64 *out)
{
	const char *s;
	size_t len;

	s = swt_field(val, key, &len);
	if (!s) {
		swt_set_error("no '%s' in '%s'", key, val);
		return -ENOENT;
	}
	if (swt_parse_u64(s, len, out)) {
		swt_set_error("'%s' in '%s': not a number", key, val);
		return -EINVAL;
	}
	return 0;
}

static int swt_field_double(const char *val, const char *key, double *out)
{
	char buf[32], *end;
	const char *s;
	size_t len;

	s = swt_field(val, key, &len);
	if (!s) {
		swt_set_error("no '%s' in '%s'", key, val);
		return -ENOENT;
	}
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*out = strtod(buf, &end);
	if (*end || end == buf) {
		swt_set_error("'%s' in '%s': not a number", key, val);
		return -EINVAL;
	}
	return 0;
}

/* The level number that starts a "level N ..." value */
static int swt_level_number(const char *val, unsigned int *lvl)
{
	u64 n;

	if (swt_parse_u64(val, strcspn(val, " \t"), &n) || n >= SWT_MAX_LEVELS) {
		swt_set_error("bad level line 'level %s'", val);
		return -EINVAL;
	}
	*lvl = n;
	return 0;
}

/* The rest of a "N word ..." value after @word, or NULL */
static const char *swt_after_word(const char *val, const char *word)
{
	size_t len = strlen(word);

	val += strcspn(val, " \t");
	val += strspn(val, " \t");
	if (strncmp(val, word, len) || (val[len] && !isspace((unsigned char)val[len])))
		return NULL;
	val += len;
	return val + strspn(val, " \t");
}

/* geometry */

int swt_geometry_read(struct swt_geometry *geo)
{
	u64 hz, levels, buckets, seen = 0;
	const char *wheel;
	struct swt_kv kv;
	unsigned int lvl;
	size_t i;
	int ret;

	memset(geo, 0, sizeof(*geo));
	ret = swt_kv_read(&kv, "geometry");
	if (ret)
		return ret;
	wheel = swt_kv_str(&kv, "wheel");
	ret = -ENOENT;
	if (!wheel) {
		swt_set_error("geometry: no 'wheel' line");
		goto out;
	}
	snprintf(geo->wheel, sizeof(geo->wheel), "%s", wheel);
	ret = swt_kv_u64(&kv, "hz", &hz);
	if (!ret)
		ret = swt_kv_u64(&kv, "levels", &levels);
	if (!ret)
		ret = swt_kv_u64(&kv, "buckets", &buckets);
	if (!ret)
		ret = swt_kv_u64(&kv, "cutoff", &geo->cutoff);
	if (ret)
		goto out;
	ret = -EINVAL;
	if (!hz || !levels || levels > SWT_MAX_LEVELS || !buckets) {
		swt_set_error("geometry: hz %llu levels %llu buckets %llu",
			      hz, levels, buckets);
		goto out;
	}
	geo->hz = hz;
	geo->levels = levels;
	geo->buckets = buckets;

	for (i = 0; i < kv.nr; i++) {
		struct swt_geo_level *l;
		const char *v = kv.line[i].val;

		if (strcmp(kv.line[i].key, "level"))
			continue;
		ret = swt_level_number(v, &lvl);
		if (ret)
			goto out;
		l = &geo->level[lvl];
		ret = swt_field_u64(v, "offset", &l->offset);
		if (!ret)
			ret = swt_field_u64(v, "gran_ticks", &l->gran);
		if (!ret)
			ret = swt_field_u64(v, "start_ticks", &l->start);
		if (!ret)
			ret = swt_field_u64(v, "end_ticks", &l->end);
		if (!ret)
			ret = swt_field_double(v, "gran_ms", &l->gran_ms);
		if (!ret)
			ret = swt_field_double(v, "start_ms", &l->start_ms);
		if (!ret)
			ret = swt_field_double(v, "end_ms", &l->end_ms);
		if (ret)
			goto out;
		seen |= 1ULL << lvl;
	}
	ret = 0;
	if (seen != (1ULL << geo->levels) - 1) {
		swt_set_error("geometry: %u levels, level lines for 0x%llx", geo->levels, seen);
		ret = -EINVAL;
	}
out:
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

int swt_lateness_read(struct swt_lateness *lt)
{
	struct swt_kv kv;
	unsigned int lvl;
	const char *rest;
	size_t i;
	int ret = 0;

	memset(lt, 0, sizeof(*lt));
	ret = swt_kv_read(&kv, "lateness");
	if (ret)
		return ret;
	for (i = 0; !ret && i < kv.nr; i++) {
		const char *key = kv.line[i].key, *v = kv.line[i].val;

		if (!strcmp(key, "level")) {
			struct swt_late_level *l;

			ret = swt_level_number(v, &lvl);
			if (ret)
				break;
			l = &lt->level[lvl];
			if (lvl >= lt->levels)
				lt->levels = lvl + 1;
			rest = swt_after_word(v, "hist");
			if (rest) {
				snprintf(l->hist, sizeof(l->hist), "%s", rest);
				continue;
			}
			l->present = true;
			ret = swt_field_u64(v, "gran", &l->gran);
			if (!ret)
				ret = swt_field_u64(v, "expired", &l->expired);
			if (!ret && l->expired)
				ret = swt_field_u64(v, "late_min", &l->late_min);
			if (!ret && l->expired)
				ret = swt_field_u64(v, "late_max", &l->late_max);
		} else if (!strcmp(key, "delivery")) {
			if (!strncmp(v, "hist", 4) && (!v[4] || isspace((unsigned char)v[4]))) {
				rest = v + 4 + strspn(v + 4, " \t");
				snprintf(lt->delivery_hist, sizeof(lt->delivery_hist), "%s", rest);
				continue;
			}
			ret = swt_field_u64(v, "expired", &lt->delivery_expired);
			if (!ret && lt->delivery_expired)
				ret = swt_field_u64(v, "delay_min", &lt->delay_min);
			if (!ret && lt->delivery_expired)
				ret = swt_field_u64(v, "delay_max", &lt->delay_max);
		}
	}
	if (ret)
		swt_set_error("lateness: %s", swt_error());
	swt_kv_free(&kv);
	return ret;
}

/* cpuN/wheel */

int swt_wheel_read(unsigned int cpu, struct swt_wheel *w)
{
	char rel[64];
	const char *next;
	struct swt_kv kv;
	unsigned int lvl;
	size_t i;
	int ret;

	memset(w, 0, sizeof(*w));
	snprintf(rel, sizeof(rel), "cpu%u/wheel", cpu);
	ret = swt_kv_read(&kv, rel);
	if (ret)
		return ret;
	ret = swt_kv_u64(&kv, "clk", &w->clk);
	if (!ret)
		ret = swt_kv_u64(&kv, "jiffies", &w->jiffies);
	if (!ret)
		ret = swt_kv_u64(&kv, "pending", &w->pending);
	if (!ret) {
		next = swt_kv_str(&kv, "next_expiry");
		if (!next) {
			swt_set_error("no 'next_expiry' line");
			ret = -ENOENT;
		} else if (strcmp(next, "none")) {
			ret = swt_kv_u64(&kv, "next_expiry", &w->next_expiry);
			w->has_next = true;
		}
	}
	for (i = 0; !ret && i < kv.nr; i++) {
		struct swt_wheel_level *l;
		const char *v = kv.line[i].val;

		if (strcmp(kv.line[i].key, "level"))
			continue;
		ret = swt_level_number(v, &lvl);
		if (ret)
			break;
		l = &w->level[lvl];
		if (lvl >= w->levels)
			w->levels = lvl + 1;
		ret = swt_field_u64(v, "normal_buckets", &l->normal_buckets);
		if (!ret)
			ret = swt_field_u64(v, "normal_timers", &l->normal_timers);
		if (!ret)
			ret = swt_field_u64(v, "deferrable_buckets", &l->deferrable_buckets);
		if (!ret)
			ret = swt_field_u64(v, "deferrable_timers", &l->deferrable_timers);
	}
	if (ret)
		swt_set_error("%s: %s", rel, swt_error());
	swt_kv_free(&kv);
	return ret;
}

u64 swt_wheel_normal(const struct swt_wheel *w)
{
	u64 sum = 0;
	unsigned int lvl;

	for (lvl = 0; lvl < w->levels; lvl++)
		sum += w->level[lvl].normal_timers;
	return sum;
}

u64 swt_wheel_deferrable(const struct swt_wheel *w)
{
	u64 sum = 0;
	unsigned int lvl;

	for (lvl = 0; lvl < w->levels; lvl++)
		sum += w->level[lvl].deferrable_timers;
	return sum;
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
