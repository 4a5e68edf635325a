// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel selftests: the shared helpers, see sw_helpers.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sw_helpers.h"

#define SWT_SYSFS_CPU		"/sys/devices/system/cpu"

static __thread char swt_err[512];	/* per thread: writers run in threads */
static bool swt_loaded_here;

static void swt_online_mask(bool mask[SWT_MAX_CPUS]);

static void __printf(1, 2) swt_set_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(swt_err, sizeof(swt_err), fmt, ap);
	va_end(ap);
}

const char *swt_error(void)
{
	return swt_err[0] ? swt_err : "no error recorded";
}

/* Time */

u64 swt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void swt_sleep_ms(u64 ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (ms % 1000) * 1000000,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Files */

static int swt_read_file(const char *path, char **out)
{
	size_t size = 4096, len = 0;
	char *buf, *tmp;
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		swt_set_error("open %s: %s", path, strerror(err));
		return -err;
	}
	buf = malloc(size);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		if (len + 1 >= size) {
			size *= 2;
			tmp = realloc(buf, size);
			if (!tmp) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = tmp;
		}
		n = read(fd, buf + len, size - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			swt_set_error("read %s: %s", path, strerror(err));
			free(buf);
			close(fd);
			return -err;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	return 0;
}

static int swt_write_file(const char *path, const char *buf, size_t len)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		swt_set_error("open %s: %s", path, strerror(err));
		return -err;
	}
	n = write(fd, buf, len);
	err = n < 0 ? errno : 0;
	close(fd);
	if (n < 0) {
		swt_set_error("write '%.*s' to %s: %s", (int)strcspn(buf, "\n"), buf, path,
			      strerror(err));
		return -err;
	}
	if ((size_t)n != len) {
		swt_set_error("write to %s: %zd of %zu bytes taken", path, n, len);
		return -EIO;
	}
	return 0;
}

static bool swt_path_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* Module */

const char *swt_module_path(void)
{
	const char *path = getenv("SW_MODULE");

	return path && *path ? path : SWT_MODULE_DEFAULT;
}

bool swt_module_file_present(void)
{
	return !access(swt_module_path(), R_OK);
}

bool swt_module_loaded(void)
{
	return swt_path_exists("/sys/module/" SWT_MODULE_NAME);
}

int swt_load(const char *params)
{
	int fd, err = 0;

	fd = open(swt_module_path(), O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		swt_set_error("open %s: %s", swt_module_path(), strerror(err));
		return -err;
	}
	if (syscall(SYS_finit_module, fd, params ? params : "", 0)) {
		err = errno;
		swt_set_error("insmod %s %s: %s", swt_module_path(), params ? params : "",
			      strerror(err));
	} else {
		swt_loaded_here = true;
	}
	close(fd);
	return -err;
}

int swt_unload(void)
{
	int tries, err = 0;

	/* As rmmod does; a reference just dropped may take a moment */
	for (tries = 0; tries < 40; tries++) {
		if (!syscall(SYS_delete_module, SWT_MODULE_NAME, O_NONBLOCK)) {
			swt_loaded_here = false;
			return 0;
		}
		err = errno;
		if (err != EAGAIN && err != EBUSY)
			break;
		swt_sleep_ms(25);
	}
	swt_set_error("rmmod %s: %s", SWT_MODULE_NAME, strerror(err));
	return -err;
}

int swt_unload_any(void)
{
	return swt_module_loaded() ? swt_unload() : 0;
}

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

static void swt_debugfs_path(char *path, size_t size, const char *rel)
{
	snprintf(path, size, "%s/%s", swt_debugfs_dir(), rel);
}

bool swt_debugfs_exists(const char *rel)
{
	char path[PATH_MAX];

	swt_debugfs_path(path, sizeof(path), rel);
	return swt_path_exists(path);
}

const char *swt_skip_reason(void)
{
	static char reason[PATH_MAX + 128];

	if (geteuid()) {
		snprintf(reason, sizeof(reason), "must be run as root");
		return reason;
	}
	if (!swt_module_file_present() && !swt_debugfs_present()) {
		snprintf(reason, sizeof(reason), "no module at %s (SW_MODULE) and no %s",
			 swt_module_path(), swt_debugfs_dir());
		return reason;
	}
	return NULL;
}

int swt_start(const char *params)
{
	struct swt_geometry geo;
	const char *reason;
	int ret;

	reason = swt_skip_reason();
	if (reason) {
		swt_set_error("%s", reason);
		return SWT_SKIP;
	}
	if (swt_module_file_present()) {
		ret = swt_unload_any();
		if (ret)
			return ret;
		ret = swt_load(params);
		if (ret)
			return ret;
		if (!swt_debugfs_present()) {
			swt_set_error("loaded, but there is no %s", swt_debugfs_dir());
			return -ENOENT;
		}
		return 0;
	}

	/* Only the instance already loaded: it must run the geometry asked for */
	if (params && *params) {
		if (strncmp(params, "geometry=", 9)) {
			swt_set_error("needs to load %s with '%s'", SWT_MODULE_NAME, params);
			return SWT_SKIP;
		}
		ret = swt_geometry_read(&geo);
		if (ret)
			return ret;
		if (strcmp(geo.wheel, params + 9)) {
			swt_set_error("the %s wheel is loaded, not %s", geo.wheel, params + 9);
			return SWT_SKIP;
		}
	}
	swt_control("stop");	/* fails if nothing runs: that is fine */
	ret = swt_control("cancel-all");
	if (!ret)
		ret = swt_control("reset");
	return ret;
}

int swt_finish(void)
{
	if (!swt_loaded_here || !swt_module_loaded())
		return 0;
	return swt_unload();
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

static int swt_parse_u64(const char *s, size_t len, u64 *out)
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

int swt_field_u64(const char *val, const char *key, u64 *out)
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

int swt_field_double(const char *val, const char *key, double *out)
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

u64 swt_ms_to_ticks(const struct swt_geometry *geo, u64 ms)
{
	return (ms * geo->hz + 999) / 1000;
}

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

/* Ticks compared as the kernel compares jiffies */
static u64 swt_later(u64 a, u64 b)
{
	return (s64)(a - b) > 0 ? a : b;
}

static u64 swt_earlier(u64 a, u64 b)
{
	return (s64)(a - b) < 0 ? a : b;
}

int swt_arm(const struct swt_geometry *geo, struct swt_arm *a)
{
	u64 clk_before[SWT_MAX_CPUS], clk_after[SWT_MAX_CPUS], e_max;
	const char *unit = a->ms ? "ms" : "";
	bool target[SWT_MAX_CPUS] = { false };
	bool first = true;
	char delta[64], cpu[32];
	struct swt_wheel w;
	unsigned int c, lvl;
	int ret;

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

	if (a->cpu < 0)
		swt_online_mask(target);
	else if (a->cpu < SWT_MAX_CPUS)
		target[a->cpu] = true;
	for (c = 0; c < SWT_MAX_CPUS; c++) {
		if (!target[c])
			continue;
		ret = swt_wheel_read(c, &w);
		if (ret)
			return ret;
		clk_before[c] = w.clk;
		if (first)
			a->j_before = w.jiffies;
		first = false;
	}
	ret = swt_control("%s", a->cmd);
	if (ret)
		return ret;
	first = true;
	for (c = 0; c < SWT_MAX_CPUS; c++) {
		if (!target[c])
			continue;
		ret = swt_wheel_read(c, &w);
		if (ret)
			return ret;
		clk_after[c] = w.clk;
		if (first)
			a->j_after = w.jiffies;
		first = false;
	}

	/*
	 * A timer armed with delta D goes to the level of E - C, E being its
	 * expiry and C the target wheel's clock then, known only to lie between
	 * the reads before and after the write. E is jiffies + D; should the
	 * module count D from the wheel's clock instead (E = C + D), these
	 * bounds still hold: that adds level_of(D) and an earlier first tick.
	 */
	e_max = a->j_after;
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
	return 0;
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

/* CPUs */

/* The CPUs of a cpulist file such as "0-3,5"; returns the highest + 1 */
static unsigned int swt_cpulist(const char *path, bool mask[SWT_MAX_CPUS])
{
	unsigned long lo, hi, cpu, nr = 0;
	char *buf, *p, *end;

	memset(mask, 0, SWT_MAX_CPUS * sizeof(mask[0]));
	if (swt_read_file(path, &buf))
		return 0;
	for (p = buf; isdigit((unsigned char)*p); p = end) {
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		for (cpu = lo; cpu <= hi && cpu < SWT_MAX_CPUS; cpu++)
			mask[cpu] = true;
		if (hi + 1 > nr)
			nr = hi + 1;
		if (*end == ',')
			end++;
	}
	free(buf);
	return nr;
}

static void swt_online_mask(bool mask[SWT_MAX_CPUS])
{
	swt_cpulist(SWT_SYSFS_CPU "/online", mask);
}

bool swt_cpu_online(unsigned int cpu)
{
	bool mask[SWT_MAX_CPUS];

	swt_online_mask(mask);
	return cpu < SWT_MAX_CPUS && mask[cpu];
}

unsigned int swt_cpus_online(unsigned int cpus[SWT_MAX_CPUS])
{
	bool mask[SWT_MAX_CPUS];
	unsigned int cpu, n = 0;

	swt_online_mask(mask);
	for (cpu = 0; cpu < SWT_MAX_CPUS; cpu++) {
		if (!mask[cpu])
			continue;
		if (cpus)
			cpus[n] = cpu;
		n++;
	}
	return n;
}

unsigned int swt_cpus_possible(void)
{
	bool mask[SWT_MAX_CPUS];

	return swt_cpulist(SWT_SYSFS_CPU "/possible", mask);
}

int swt_cpu_set_online(unsigned int cpu, bool online)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), SWT_SYSFS_CPU "/cpu%u/online", cpu);
	return swt_write_file(path, online ? "1" : "0", 1);
}

int swt_pin_to_cpu(unsigned int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		swt_set_error("pin to CPU %u: %s", cpu, strerror(errno));
		return -errno;
	}
	return 0;
}

/* The kernel log */

int swt_kmsg_open(void)
{
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	lseek(fd, 0, SEEK_END);
	return fd;
}

int swt_kmsg_new(int fd, char *last, size_t size)
{
	char rec[8192];
	const char *msg;
	ssize_t n;
	int count = 0;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue;
		if (n <= 0)
			return count;
		rec[n] = '\0';
		count++;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (last && size)
			snprintf(last, size, "%.*s", (int)strcspn(msg, "\n"), msg);
	}
}
