// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel selftests: the module's tracepoints (events/shadow_wheel/,
 * docs/design.rst "Tracing"), recorded in a tracefs instance of the test's
 * own, so that no other tracer is disturbed, and read back from its trace
 * file as events with their fields.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "swt_lib.h"

static const char * const swt_tracefs_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

const char *swt_tracefs_dir(void)
{
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(swt_tracefs_dirs); i++) {
		snprintf(path, sizeof(path), "%s/instances", swt_tracefs_dirs[i]);
		if (swt_path_exists(path))
			return swt_tracefs_dirs[i];
	}
	/* Not mounted yet: where the kernel makes room for it */
	if (swt_path_exists(swt_tracefs_dirs[0]) &&
	    !mount("tracefs", swt_tracefs_dirs[0], "tracefs", 0, NULL))
		return swt_tracefs_dirs[0];
	swt_set_error("no tracefs with instances at %s or %s", swt_tracefs_dirs[0],
		      swt_tracefs_dirs[1]);
	return NULL;
}

static void swt_trace_path(const struct swt_trace *tr, char *path, size_t size, const char *rel)
{
	snprintf(path, size, "%s/%s", tr->dir, rel);
}

int swt_trace_create(struct swt_trace *tr, const char *name)
{
	const char *tracefs = swt_tracefs_dir();
	int err;

	memset(tr, 0, sizeof(*tr));
	if (!tracefs)
		return -ENOENT;
	snprintf(tr->dir, sizeof(tr->dir), "%s/instances/%s", tracefs, name);
	/* Left over by a run that was killed */
	rmdir(tr->dir);
	if (mkdir(tr->dir, 0755)) {
		err = errno;
		swt_set_error("mkdir %s: %s", tr->dir, strerror(err));
		tr->dir[0] = '\0';
		return -err;
	}
	return 0;
}

bool swt_trace_exists(const struct swt_trace *tr, const char *rel)
{
	char path[PATH_MAX];

	swt_trace_path(tr, path, sizeof(path), rel);
	return swt_path_exists(path);
}

int swt_trace_write(const struct swt_trace *tr, const char *rel, const char *value)
{
	char path[PATH_MAX];

	swt_trace_path(tr, path, sizeof(path), rel);
	return swt_write_file(path, value, strlen(value));
}

/* The number after "@key: " in @text, or 0 */
static u64 swt_stat_line(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

s64 swt_trace_lost(const struct swt_trace *tr)
{
	char path[PATH_MAX], *text;
	struct dirent *d;
	s64 lost = 0;
	DIR *dir;
	int ret;

	swt_trace_path(tr, path, sizeof(path), "per_cpu");
	dir = opendir(path);
	if (!dir) {
		ret = errno;
		swt_set_error("opendir %s: %s", path, strerror(ret));
		return -ret;
	}
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, "cpu", 3))
			continue;
		snprintf(path, sizeof(path), "%s/per_cpu/%s/stats", tr->dir, d->d_name);
		ret = swt_read_file(path, &text);
		if (ret) {
			closedir(dir);
			return ret;
		}
		lost += swt_stat_line(text, "overrun: ") + swt_stat_line(text, "dropped events: ");
		free(text);
	}
	closedir(dir);
	return lost;
}

/*
 * One line of the trace file, "TASK-PID [CPU] FLAGS STAMP: EVENT: FIELDS",
 * into @e; the line is cut up in place. False for the header's comments
 * and lines that are not events.
 */
static bool swt_trace_line(char *line, struct swt_event *e)
{
	char *p, *name, *tok, *save, *eq, *end;

	if (line[0] == '#')
		return false;
	p = strstr(line, "] ");
	if (!p)
		return false;
	/* The flags, then the time stamp */
	p += 2 + strspn(p + 2, " ");
	p += strcspn(p, " ");
	p += strspn(p, " ");
	e->ts = strtoull(p, &end, 10);
	p = strstr(end, ": ");
	if (!p)
		return false;
	name = p + 2;
	p = strstr(name, ": ");
	if (!p)
		return false;
	*p = '\0';
	e->name = name;
	e->nr = 0;
	for (tok = strtok_r(p + 2, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		/* [timeout=N]: a value worked out in the format */
		if (*tok == '[')
			tok++;
		end = tok + strlen(tok);
		if (end > tok && end[-1] == ']')
			end[-1] = '\0';
		eq = strchr(tok, '=');
		if (!eq || e->nr == SWT_TRACE_MAX_FIELDS)
			continue;
		*eq = '\0';
		e->field[e->nr].key = tok;
		e->field[e->nr].val = eq + 1;
		e->nr++;
	}
	return true;
}

int swt_trace_read(struct swt_trace *tr)
{
	char path[PATH_MAX], *line, *next;
	struct swt_event *ev;
	size_t cap = 0;
	int ret;

	free(tr->event);
	free(tr->text);
	tr->event = NULL;
	tr->text = NULL;
	tr->nr = 0;
	swt_trace_path(tr, path, sizeof(path), "trace");
	ret = swt_read_file(path, &tr->text);
	if (ret)
		return ret;
	for (line = tr->text; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (tr->nr == cap) {
			cap = cap ? 2 * cap : 1024;
			ev = realloc(tr->event, cap * sizeof(*ev));
			if (!ev)
				return -ENOMEM;
			tr->event = ev;
		}
		if (swt_trace_line(line, &tr->event[tr->nr]))
			tr->nr++;
	}
	return 0;
}

int swt_trace_remove(struct swt_trace *tr)
{
	int err = 0;

	free(tr->event);
	free(tr->text);
	tr->event = NULL;
	tr->text = NULL;
	tr->nr = 0;
	if (tr->dir[0] && rmdir(tr->dir)) {
		err = errno;
		swt_set_error("rmdir %s: %s", tr->dir, strerror(err));
	}
	tr->dir[0] = '\0';
	return -err;
}

/* Events and their fields */

const char *swt_event_str(const struct swt_event *e, const char *key)
{
	unsigned int i;

	for (i = 0; i < e->nr; i++)
		if (!strcmp(e->field[i].key, key))
			return e->field[i].val;
	return NULL;
}

static int swt_event_num(const struct swt_event *e, const char *key, int base, bool sign,
			 u64 *val)
{
	const char *s = swt_event_str(e, key);
	char *end;

	if (!s) {
		swt_set_error("%s: no field %s", e->name, key);
		return -ENOENT;
	}
	errno = 0;
	*val = sign ? (u64)strtoll(s, &end, base) : strtoull(s, &end, base);
	if (errno || end == s || *end) {
		swt_set_error("%s: %s=%s is not a number", e->name, key, s);
		return -EINVAL;
	}
	return 0;
}

int swt_event_u64(const struct swt_event *e, const char *key, u64 *val)
{
	return swt_event_num(e, key, 10, false, val);
}

int swt_event_s64(const struct swt_event *e, const char *key, s64 *val)
{
	return swt_event_num(e, key, 10, true, (u64 *)val);
}

int swt_event_hex(const struct swt_event *e, const char *key, u64 *val)
{
	return swt_event_num(e, key, 16, false, val);
}
