// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel selftests: errors, time, files, CPUs and the kernel log.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "swt_lib.h"

#define SWT_SYSFS_CPU		"/sys/devices/system/cpu"

static __thread char swt_err[512];	/* per thread: writers run in threads */

void __printf(1, 2) swt_set_error(const char *fmt, ...)
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

/* @path opened with @flags: a descriptor, or -errno with the error said */
static int swt_open(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0) {
		fd = -errno;
		swt_set_error("open %s: %s", path, strerror(-fd));
	}
	return fd;
}

int swt_read_file(const char *path, char **out)
{
	size_t size = 4096, len = 0;
	char *buf, *tmp;
	ssize_t n;
	int fd, err;

	fd = swt_open(path, O_RDONLY);
	if (fd < 0)
		return fd;
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

int swt_write_file(const char *path, const char *buf, size_t len)
{
	ssize_t n;
	int fd, err;

	fd = swt_open(path, O_WRONLY);
	if (fd < 0)
		return fd;
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

int swt_sysctl(const char *name, const char *val, char **old)
{
	char path[128];
	int ret;

	snprintf(path, sizeof(path), "/proc/sys/%s", name);
	if (old) {
		ret = swt_read_file(path, old);
		if (ret)
			return ret;
	}
	return swt_write_file(path, val, strlen(val));
}

bool swt_path_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
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

void swt_online_mask(bool mask[SWT_MAX_CPUS])
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

struct swt_hotplug {
	pthread_t	thread;
	unsigned int	cpu;
	bool		online;
	bool		started;	/* in a thread of its own, to join */
	int		ret;
};

static void *swt_hotplug_one(void *arg)
{
	struct swt_hotplug *h = arg;

	h->ret = swt_cpu_set_online(h->cpu, h->online);
	return NULL;
}

/* The @n CPUs of @cpus taken online or offline at once, a thread each: 0 or the first error */
int swt_cpus_set_online(const unsigned int *cpus, unsigned int n, bool online)
{
	struct swt_hotplug h[SWT_MAX_CPUS];
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n; i++) {
		h[i] = (struct swt_hotplug){ .cpu = cpus[i], .online = online };
		h[i].started = !pthread_create(&h[i].thread, NULL, swt_hotplug_one, &h[i]);
		if (!h[i].started)
			swt_hotplug_one(&h[i]);
	}
	for (i = 0; i < n; i++) {
		if (h[i].started)
			pthread_join(h[i].thread, NULL);
		if (h[i].ret && !ret) {
			ret = h[i].ret;
			swt_set_error("cpu%u %s: %s", h[i].cpu, online ? "online" : "offline",
				      strerror(-ret));
		}
	}
	return ret;
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
