// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel selftests: the mirror's files (mirror/ in debugfs) and real
 * kernel timer traffic to feed it: TCP over loopback.
 */
#define _GNU_SOURCE		/* SCHED_IDLE */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "swt_lib.h"

int swt_mirror_enable(bool on)
{
	char path[PATH_MAX];

	swt_debugfs_path(path, sizeof(path), "mirror/enable");
	return swt_write_file(path, on ? "1" : "0", 1);
}

int swt_mirror_enable_raw(const char *word)
{
	char path[PATH_MAX];

	swt_debugfs_path(path, sizeof(path), "mirror/enable");
	return swt_write_file(path, word, strlen(word));
}

int swt_mirror_param(const char *name, const char *value)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", SWT_MODULE_NAME, name);
	return swt_write_file(path, value, strlen(value));
}

int swt_mirror_param_read(const char *name, char **out)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", SWT_MODULE_NAME, name);
	return swt_read_file(path, out);
}

int swt_mirror_wheels_write(const char *list, size_t len)
{
	char path[PATH_MAX];

	swt_debugfs_path(path, sizeof(path), "mirror/wheels");
	return swt_write_file(path, list, len);
}

int swt_mirror_file_read(const char *name, char **out)
{
	char path[PATH_MAX], rel[64];

	snprintf(rel, sizeof(rel), "mirror/%s", name);
	swt_debugfs_path(path, sizeof(path), rel);
	return swt_read_file(path, out);
}

static int swt_words_u64(const char *val, const char *key, u64 *out)
{
	size_t len;
	const char *v = swt_field(val, key, &len);

	return v ? swt_parse_u64(v, len, out) : -ENOENT;
}

/* As swt_words_u64(), for a value that may be negative */
static int swt_words_s64(const char *val, const char *key, s64 *out)
{
	char word[64], *e;
	size_t len;
	const char *v = swt_field(val, key, &len);

	if (!v)
		return -ENOENT;
	snprintf(word, sizeof(word), "%.*s", (int)len, v);
	errno = 0;
	*out = strtoll(word, &e, 10);
	return errno || *e || e == word ? -EINVAL : 0;
}

/* A key of mirror/stats and the member of the struct its value goes to, a u64 */
struct swt_mirror_key {
	const char *key;
	size_t off;
};

#define SWT_MIRROR_KEY(type, name)	{ #name, offsetof(type, name) },

/* The keys of a wheel's line, from the mirror's list (its stats column "wheel") */
static const struct swt_mirror_key swt_mirror_wheel_keys[] = {
#define SW_MIRROR_FIG(scope, name, unit, merge, stats, ...)			\
	SW_MIRROR_FIG_IF(stats, wheel)(SWT_MIRROR_KEY(struct swt_mirror_wheel, name))
#include "../../../core/mirror/sw_mirror_figures_list.h"
#undef SW_MIRROR_FIG
};

/*
 * The other lines of mirror/stats: the figures of the list on a line of
 * their own (stats "line"), and those of shapes of their own that the
 * tests read (events.CLASS, softirq.VERDICT)
 */
static const struct swt_mirror_key swt_mirror_keys[] = {
#define SW_MIRROR_FIG(scope, name, unit, merge, stats, ...)			\
	SW_MIRROR_FIG_IF(stats, line)(SWT_MIRROR_KEY(struct swt_mirror, name))
#include "../../../core/mirror/sw_mirror_figures_list.h"
#undef SW_MIRROR_FIG
	{ "events.anomaly", offsetof(struct swt_mirror, anomalies) },
	{ "softirq.agree", offsetof(struct swt_mirror, softirq_agree) },
	{ "softirq.unpredicted", offsetof(struct swt_mirror, softirq_unpredicted) },
	{ "softirq.missed", offsetof(struct swt_mirror, softirq_missed) },
	{ "softirq.unmodelled", offsetof(struct swt_mirror, softirq_unmodelled) },
};

/* A line of mirror/stats other than a wheel's: one figure, if the tests read it */
static void swt_mirror_figure(struct swt_mirror *mr, const char *key, const char *val)
{
	size_t k;
	u64 v;

	if (swt_parse_u64(val, strlen(val), &v))
		return;
	for (k = 0; k < ARRAY_SIZE(swt_mirror_keys); k++) {
		if (!strcmp(key, swt_mirror_keys[k].key))
			*(u64 *)((char *)mr + swt_mirror_keys[k].off) = v;
	}
}

/* A wheel's line of mirror/stats: every key of swt_mirror_wheel_keys */
static int swt_mirror_wheel_line(struct swt_mirror *mr, const char *val)
{
	struct swt_mirror_wheel *w;
	size_t k;
	int ret = 0;

	if (mr->nr_wheels == SWT_MIRROR_MAX_WHEELS)
		return -E2BIG;
	w = &mr->wheel[mr->nr_wheels++];
	snprintf(w->name, sizeof(w->name), "%.*s", (int)strcspn(val, " "), val);
	val = swt_skip_word(val);
	for (k = 0; k < ARRAY_SIZE(swt_mirror_wheel_keys) && !ret; k++)
		ret = swt_words_u64(val, swt_mirror_wheel_keys[k].key,
				    (u64 *)((char *)w + swt_mirror_wheel_keys[k].off));
	return ret;
}

static int swt_mirror_line(const struct swt_kv *kv, size_t i, void *arg)
{
	const char *key = kv->line[i].key, *val = kv->line[i].val;
	int ret;

	if (strcmp(key, "wheel")) {
		swt_mirror_figure(arg, key, val);
		return 0;
	}
	ret = swt_mirror_wheel_line(arg, val);
	if (ret)
		swt_set_error("mirror/stats: a wheel line lacks a key (%s)", strerror(-ret));
	return ret;
}

int swt_mirror_read(struct swt_mirror *mr)
{
	memset(mr, 0, sizeof(*mr));
	return swt_kv_each("mirror/stats", swt_mirror_line, mr);
}

/* Where swt_mirror_lateness_read() puts the wheel lines it reads */
struct swt_mirror_late_out {
	struct swt_mirror_late *lt;
	size_t max, *nr;
};

/* A wheel's line of mirror/lateness */
static int swt_mirror_late_wheel(struct swt_mirror_late_out *out, const char *val)
{
	struct swt_mirror_late *l;
	const char *rest, *hist;
	u64 lvl;
	int ret;

	if (*out->nr == out->max)
		return -E2BIG;
	l = &out->lt[(*out->nr)++];
	snprintf(l->name, sizeof(l->name), "%.*s", (int)strcspn(val, " "), val);
	rest = swt_skip_word(val);
	ret = swt_words_u64(rest, "level", &lvl) ?:
	      swt_words_u64(rest, "gran", &l->gran) ?:
	      swt_words_u64(rest, "count", &l->count) ?:
	      swt_words_s64(rest, "min", &l->min) ?:
	      swt_words_s64(rest, "max", &l->max);
	l->level = lvl;
	hist = strstr(val, " hist ");
	if (!ret && hist)
		l->early = strtoull(hist + 6, NULL, 10);
	else if (!ret)
		ret = -ENOENT;
	return ret;
}

static int swt_mirror_late_line(const struct swt_kv *kv, size_t i, void *arg)
{
	int ret;

	if (strcmp(kv->line[i].key, "wheel"))
		return 0;
	ret = swt_mirror_late_wheel(arg, kv->line[i].val);
	if (ret)
		swt_set_error("mirror/lateness: a malformed line (%s)", strerror(-ret));
	return ret;
}

int swt_mirror_lateness_read(struct swt_mirror_late *lt, size_t max, size_t *nr)
{
	struct swt_mirror_late_out out = { .lt = lt, .max = max, .nr = nr };

	*nr = 0;
	return swt_kv_each("mirror/lateness", swt_mirror_late_line, &out);
}

/*
 * A line of mirror/diff: "expiry.<reason> N" for the expiries, else the
 * placements; "mismatch <what> reason unexplained ..." kept whole
 */
static int swt_mirror_diff_line(const struct swt_kv *kv, size_t i, void *arg)
{
	const char *key = kv->line[i].key, *val = kv->line[i].val;
	unsigned int what = !strncmp(key, "expiry.", 7);
	const char *reason = strchr(key, '.');
	struct swt_mirror_diff *d = arg;
	u64 v;

	if (!strcmp(key, "mismatch") && strstr(val, " reason unexplained ") &&
	    d->nr_lines < SWT_DIFF_LINES) {
		snprintf(d->line[d->nr_lines++], SWT_DIFF_LINE_MAX, "%s", val);
		return 0;
	}
	if (!reason || swt_parse_u64(val, strlen(val), &v))
		return 0;
	reason++;
	if (!strcmp(reason, "compared"))
		d->compared[what] = v;
	else if (!strcmp(reason, "match"))
		d->match[what] = v;
	else if (!strcmp(reason, "unexplained"))
		d->unexplained[what] = v;
	return 0;
}

int swt_mirror_diff_read(struct swt_mirror_diff *d)
{
	memset(d, 0, sizeof(*d));
	return swt_kv_each("mirror/diff", swt_mirror_diff_line, d);
}

/*
 * The mirror's thread (shadow_wheel_mirror) to SCHED_IDLE: under load it
 * falls behind, and the probes drain their full logs themselves. Its next
 * start makes a new thread, as it was.
 */
int swt_mirror_drainer_idle(void)
{
	struct sched_param sp = { 0 };
	char path[PATH_MAX], comm[32];
	struct dirent *d;
	int ret = -ESRCH;
	DIR *dir;
	FILE *f;

	dir = opendir("/proc");
	if (!dir)
		return -errno;
	while (ret == -ESRCH && (d = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, "shadow_wheel_mirror\n"))
			ret = sched_setscheduler(atoi(d->d_name), SCHED_IDLE, &sp) ? -errno : 0;
		fclose(f);
	}
	closedir(dir);
	if (ret)
		swt_set_error("the mirror's thread to SCHED_IDLE: %s", strerror(-ret));
	return ret;
}

/* A line of mirror/logs: running, log_size, or a CPU's */
static int swt_mirror_logs_line(const struct swt_kv *kv, size_t i, void *arg)
{
	const char *key = kv->line[i].key, *val = kv->line[i].val;
	struct swt_mirror_logs *lg = arg;
	struct swt_mirror_log *c;
	u64 cpu;

	if (!strcmp(key, "running"))
		return swt_parse_u64(val, strlen(val), &cpu) ? -EINVAL : (lg->running = cpu, 0);
	if (!strcmp(key, "log_size"))
		return swt_parse_u64(val, strlen(val), &lg->log_size) ? -EINVAL : 0;
	if (strcmp(key, "cpu"))
		return 0;
	if (swt_parse_u64(val, strcspn(val, " "), &cpu) || cpu >= SWT_MAX_CPUS) {
		swt_set_error("mirror/logs: a CPU line that names no CPU below %d", SWT_MAX_CPUS);
		return -EINVAL;
	}
	c = &lg->cpu[lg->nr_cpus++];
	c->cpu = cpu;
	if (swt_words_u64(val, "logged", &c->logged) || swt_words_u64(val, "unread", &c->unread) ||
	    swt_words_u64(val, "full", &c->full) || swt_words_u64(val, "lost", &c->lost)) {
		swt_set_error("mirror/logs: CPU %llu's line lacks a key", cpu);
		return -EINVAL;
	}
	return lg->nr_cpus < SWT_MAX_CPUS ? 0 : -E2BIG;
}

int swt_mirror_logs_read(struct swt_mirror_logs *lg)
{
	memset(lg, 0, sizeof(*lg));
	return swt_kv_each("mirror/logs", swt_mirror_logs_line, lg);
}

/* Accept and drain connections until killed */
static void swt_tcp_server(int lfd)
{
	char buf[4096];

	for (;;) {
		int fd = accept(lfd, NULL, NULL);

		if (fd < 0)
			continue;
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
	}
}

/* Short connections, each sending a little, until @end_ms */
static void swt_tcp_client(unsigned short port, u64 end_ms)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	/* A connect the listener's backlog drops gives up instead of retrying for minutes */
	struct timeval tv = { .tv_sec = 1 };
	char buf[1024] = { 0 };

	while (swt_now_ms() < end_ms) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0)
			_exit(1);
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			(void)!write(fd, buf, sizeof(buf));
		close(fd);
		/* Each close leaves a TIME_WAIT timer for a minute: a few hundred a second */
		usleep(5000);
	}
	_exit(0);
}

int swt_tcp_traffic_start(struct swt_traffic *t, u64 ms)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	socklen_t len = sizeof(sa);
	u64 end = swt_now_ms() + ms;
	unsigned int i;
	int lfd, one = 1;

	memset(t, 0, sizeof(*t));
	/* The loopback interface may still be down in a bare guest */
	(void)!system("ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up");
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 128) ||
	    getsockname(lfd, (struct sockaddr *)&sa, &len)) {
		swt_set_error("loopback listener: %s", strerror(errno));
		if (lfd >= 0)
			close(lfd);
		return -errno;
	}
	t->pid[0] = fork();
	if (!t->pid[0])
		swt_tcp_server(lfd);
	for (i = 1; i < SWT_TRAFFIC_PROCS; i++) {
		t->pid[i] = fork();
		if (!t->pid[i])
			swt_tcp_client(ntohs(sa.sin_port), end);
	}
	close(lfd);
	return 0;
}

void swt_tcp_traffic_stop(struct swt_traffic *t)
{
	unsigned int i;

	for (i = 1; i < SWT_TRAFFIC_PROCS; i++) {
		if (t->pid[i] > 0)
			waitpid(t->pid[i], NULL, 0);
	}
	if (t->pid[0] > 0) {
		kill(t->pid[0], SIGKILL);
		waitpid(t->pid[0], NULL, 0);
	}
	memset(t, 0, sizeof(*t));
}
