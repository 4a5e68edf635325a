// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures (docs/reliability.rst): the kernel's failslab makes
 * the module's allocations fail at rates from 1% to 100%, on a kernel with
 * CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS (the debug kernel).
 * Every command either succeeds or fails with -ENOMEM and changes nothing
 * (an arm arms all its timers or none), a run started while its batches
 * cannot be allocated arms fewer timers and says so in the kernel log,
 * the invariant holds after every command, and kmemleak finds nothing of
 * the module's after each rate. Run on request, on the debug kernel:
 *
 *   SW_VM_APPEND=slub_debug=A,sw_shadow SW_SELFTESTS=sw_failslab_test \
 *       SW_SELFTESTS_TIMEOUT=2400 scripts/selftests.sh debug
 *
 * Two ways of aiming the failures, each a variant:
 *
 *  writer  failslab's task filter: only the allocations of the task that
 *          writes the command fail (/proc/thread-self/make-it-fail set
 *          around its write(2) alone), whatever cache they come from: the
 *          command's copy, an arm's batch and its shadow timers, a bench
 *          run's memory, the mirror's records, slots and probes, a run's
 *          kernel thread. Nothing else in the guest is touched.
 *  cache   failslab's cache filter: only the caches with SLAB_FAILSLAB
 *          fail, in any task. A module cannot make its cache so in 6.1
 *          (kmem_cache_create() refuses the flag), but SLUB gives it to
 *          the caches named on the command line: slub_debug=A,sw_shadow,
 *          the module's cache of shadow timers: an arm's timers, and a
 *          run's, allocated in its kernel thread, where the task filter
 *          cannot reach. Skipped without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/swt_test.h"

#define FS_DIR		"/sys/kernel/debug/failslab"
#define FS_KMEMLEAK	"/sys/kernel/debug/kmemleak"
#define FS_CACHE	"/sys/kernel/slab/sw_shadow/failslab"
#define FS_RUN_RATE	2000		/* a run's timers a second */

static const unsigned int fs_rates[] = { 0, 1, 5, 25, 50, 100 };

enum fs_kind { FS_ARM, FS_BENCH, FS_MIRROR, FS_RUN, FS_SIMPLE };

struct fs_cmd {
	const char *file;		/* under the module's debugfs directory */
	const char *words;
	enum fs_kind kind;
	u64 count;			/* FS_ARM: its timers */
	unsigned int repeat;		/* times at each rate */
};

static const struct fs_cmd fs_writer_cmds[] = {
	{ "control", "arm count=10 delta=60000ms\n", FS_ARM, 10, 20 },
	{ "control", "arm count=2000 delta=1..500 cancel=50\n", FS_ARM, 2000, 10 },
	{ "bench", "wheel=seed timers=1000 ops=1000 ticks=50 gap=10 kernel=0\n", FS_BENCH, 0, 5 },
	{ "mirror/enable", "1\n", FS_MIRROR, 0, 10 },
	{ "control", "run preset=mixed rate=2000 duration=1\n", FS_RUN, 0, 3 },
	{ "control", "reset\n", FS_SIMPLE, 0, 10 },
	{ "control", "cancel-all\n", FS_SIMPLE, 0, 10 },
};

static const struct fs_cmd fs_cache_cmds[] = {
	{ "control", "arm count=10 delta=60000ms\n", FS_ARM, 10, 20 },
	{ "control", "arm count=2000 delta=1..500 cancel=50\n", FS_ARM, 2000, 10 },
	{ "control", "run preset=mixed rate=2000 duration=1\n", FS_RUN, 0, 3 },
	{ "control", "cancel-all\n", FS_SIMPLE, 0, 10 },
};

/* What the commands did at one rate */
struct fs_figures {
	unsigned int commands, ok, enomem, partial, bad;
	int leaks;			/* -1: kmemleak could not be read */
};

static int fs_write_path(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

static int fs_set(const char *knob, const char *value)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), FS_DIR "/%s", knob);
	return fs_write_path(path, value);
}

/* failslab aimed by @task (the writer) or by cache, at @percent */
static int fs_aim(bool task, unsigned int percent)
{
	char p[16];
	int ret;

	snprintf(p, sizeof(p), "%u", percent);
	ret = fs_set("probability", "0");
	ret = ret ?: fs_set("interval", "1");
	ret = ret ?: fs_set("times", "-1");
	ret = ret ?: fs_set("space", "0");
	ret = ret ?: fs_set("verbose", "0");
	/* The module allocates with GFP_KERNEL, which failslab leaves alone by default */
	ret = ret ?: fs_set("ignore-gfp-wait", "N");
	ret = ret ?: fs_set("task-filter", task ? "Y" : "N");
	ret = ret ?: fs_set("cache-filter", task ? "N" : "Y");
	return ret ?: fs_set("probability", p);
}

/*
 * One write to the already open @fd, with this thread's allocations made
 * to fail around it if @fail (the fd of /proc/thread-self/make-it-fail)
 */
static int fs_write(int fd, const char *words, int fail)
{
	ssize_t n;
	int err;

	if (fail >= 0 && pwrite(fail, "1", 1, 0) != 1)
		return -EIO;
	n = write(fd, words, strlen(words));
	err = n < 0 ? errno : 0;
	if (fail >= 0 && pwrite(fail, "0", 1, 0) != 1)
		return -EIO;
	return n < 0 ? -err : 0;
}

static int fs_open(const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", swt_debugfs_dir(), rel);
	return open(path, O_WRONLY | O_CLOEXEC);
}

/* kmemleak's reports that name the module, after a scan; then forgets them */
static int fs_leaks(void)
{
	char *text = NULL, *p;
	int fd, n = 0;
	size_t size = 0, len = 0;
	ssize_t r;

	if (access(FS_KMEMLEAK, F_OK))
		return 0;
	/* An object must be a few seconds old to be reported */
	swt_sleep_ms(6000);
	if (fs_write_path(FS_KMEMLEAK, "scan"))
		return -1;
	fd = open(FS_KMEMLEAK, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	do {
		if (len + 4096 + 1 > size) {
			size = 2 * size + 8192;
			text = realloc(text, size);
			if (!text) {
				close(fd);
				return -1;
			}
		}
		r = read(fd, text + len, size - len - 1);
		if (r > 0)
			len += r;
	} while (r > 0);
	close(fd);
	if (!text)
		return 0;
	text[len] = '\0';
	/* Each report starts "unreferenced object"; count those with our frames */
	for (p = strstr(text, "unreferenced object"); p; ) {
		char *next = strstr(p + 1, "unreferenced object");

		if (next)
			*next = '\0';
		if (strstr(p, "[" SWT_MODULE_NAME "]")) {
			n++;
			printf("# kmemleak: %.300s\n", p);
		}
		if (next)
			*next = 'u';
		p = next;
	}
	free(text);
	fs_write_path(FS_KMEMLEAK, "clear");
	return n;
}

FIXTURE(failslab) {
	struct swt_geometry geo;
};

FIXTURE_VARIANT(failslab) {
	bool task;
	const struct fs_cmd *cmds;
	size_t nr;
};

FIXTURE_VARIANT_ADD(failslab, writer) {
	.task = true,
	.cmds = fs_writer_cmds,
	.nr = ARRAY_SIZE(fs_writer_cmds),
};

FIXTURE_VARIANT_ADD(failslab, cache) {
	.task = false,
	.cmds = fs_cache_cmds,
	.nr = ARRAY_SIZE(fs_cache_cmds),
};

/* Whether the shadow timers' cache has SLAB_FAILSLAB */
static bool fs_cache_aimed(void)
{
	char buf[4] = "";
	int fd = open(FS_CACHE, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (read(fd, buf, sizeof(buf) - 1) < 1)
		buf[0] = '0';
	close(fd);
	return buf[0] == '1';
}

static void fs_setup(struct __test_metadata *_metadata)
{
	if (access(FS_DIR, F_OK))
		SKIP(return, "no %s: no CONFIG_FAILSLAB, FAULT_INJECTION_DEBUG_FS", FS_DIR);
}

FIXTURE_SETUP(failslab)
{
	static const struct swt_fixture_hooks hooks = { .setup = fs_setup };

	swt_fixture_setup(_metadata, &self->geo, NULL, &hooks);
	if (!_metadata->skip && !variant->task && !fs_cache_aimed())
		SKIP(return, "%s is not 1: boot with slub_debug=A,sw_shadow", FS_CACHE);
}

static void fs_teardown(struct __test_metadata *_metadata)
{
	fs_set("probability", "0");
	fs_set("task-filter", "N");
	fs_set("cache-filter", "N");
	swt_control("stop");
	swt_control("cancel-all");
	swt_mirror_enable(false);
}

SWT_FIXTURE_TEARDOWN(failslab, fs_teardown)

/* One command at the rate set; its outcome into @fig */
static void fs_one(struct __test_metadata *_metadata, const struct fs_cmd *cmd, int fd,
		   int fail, struct fs_figures *fig)
{
	struct swt_stats before, after;
	struct swt_mirror mr;
	char why[256];
	int ret;

	ASSERT_EQ(0, swt_stats_read(&before)) TH_LOG("%s", swt_error());
	ret = fs_write(fd, cmd->words, fail);
	fig->commands++;
	if (cmd->kind == FS_RUN && !ret) {
		/* Its timers come from its own thread: a second of them */
		swt_sleep_ms(1500);
		EXPECT_EQ(0, swt_control("stop")) TH_LOG("%s", swt_error());
	}
	ASSERT_EQ(0, swt_stats_read(&after)) TH_LOG("%s", swt_error());
	EXPECT_TRUE(swt_stats_sane(&after, why, sizeof(why)))
		TH_LOG("after '%.*s': %s", (int)strcspn(cmd->words, "\n"), cmd->words, why);
	if (ret == -ENOMEM) {
		fig->enomem++;
		/* Refused: nothing armed, the mirror not started */
		if (cmd->kind == FS_ARM || cmd->kind == FS_RUN)
			EXPECT_EQ(before.total.armed, after.total.armed)
				TH_LOG("'%.*s' failed but armed %llu",
				       (int)strcspn(cmd->words, "\n"), cmd->words,
				       after.total.armed - before.total.armed);
		if (cmd->kind == FS_MIRROR) {
			ASSERT_EQ(0, swt_mirror_read(&mr)) TH_LOG("%s", swt_error());
			EXPECT_EQ(0U, mr.running) TH_LOG("the mirror runs after -ENOMEM");
		}
		return;
	}
	if (ret && !(cmd->kind == FS_BENCH && ret == -ERANGE)) {
		fig->bad++;
		EXPECT_EQ(0, ret) TH_LOG("'%.*s': %s", (int)strcspn(cmd->words, "\n"),
					 cmd->words, strerror(-ret));
		return;
	}
	fig->ok++;
	switch (cmd->kind) {
	case FS_ARM:
		EXPECT_EQ(before.total.armed + cmd->count, after.total.armed)
			TH_LOG("'%.*s' armed %llu", (int)strcspn(cmd->words, "\n"), cmd->words,
			       after.total.armed - before.total.armed);
		break;
	case FS_RUN:
		/* Half the second's timers or fewer: its batches failed */
		if (after.total.armed - before.total.armed < FS_RUN_RATE / 2)
			fig->partial++;
		break;
	case FS_MIRROR:
		EXPECT_EQ(0, swt_mirror_enable(false)) TH_LOG("%s", swt_error());
		break;
	default:
		break;
	}
}

TEST_F_TIMEOUT(failslab, every_command_fails_cleanly, 3600)
{
	struct fs_figures fig[ARRAY_SIZE(fs_rates)] = {};
	int fd[8], fail = -1;
	unsigned int r, c, i;

	if (_metadata->skip)
		return;
	ASSERT_GE(ARRAY_SIZE(fd), variant->nr);
	for (c = 0; c < variant->nr; c++) {
		fd[c] = fs_open(variant->cmds[c].file);
		ASSERT_LE(0, fd[c]) TH_LOG("%s: %s", variant->cmds[c].file, strerror(errno));
	}
	if (variant->task) {
		fail = open("/proc/thread-self/make-it-fail", O_WRONLY | O_CLOEXEC);
		ASSERT_LE(0, fail) TH_LOG("make-it-fail: %s", strerror(errno));
	}
	/* What kmemleak suspected before is not ours to count */
	fig[0].leaks = fs_leaks();
	for (r = 0; r < ARRAY_SIZE(fs_rates); r++) {
		ASSERT_EQ(0, fs_aim(variant->task, fs_rates[r])) TH_LOG("failslab's knobs");
		for (i = 0; i < 20; i++)
			for (c = 0; c < variant->nr; c++)
				if (i < variant->cmds[c].repeat)
					fs_one(_metadata, &variant->cmds[c], fd[c], fail, &fig[r]);
		ASSERT_EQ(0, fs_aim(variant->task, 0));
		EXPECT_EQ(0, swt_control("cancel-all")) TH_LOG("%s", swt_error());
		fig[r].leaks = fs_leaks();
		EXPECT_EQ(0, fig[r].leaks) TH_LOG("kmemleak at %u%%", fs_rates[r]);
		swt_msg("%s %3u%%: %u commands, %u ok, %u ENOMEM, %u partial, %u other, %d leaks",
			variant->task ? "writer" : "cache", fs_rates[r], fig[r].commands,
			fig[r].ok, fig[r].enomem, fig[r].partial, fig[r].bad, fig[r].leaks);
	}
	/* At 100% every command that allocates is refused, with the task filter */
	if (variant->task)
		EXPECT_EQ(0U, fig[ARRAY_SIZE(fs_rates) - 1].ok);
	for (c = 0; c < variant->nr; c++)
		close(fd[c]);
	if (fail >= 0)
		close(fail);
}

TEST_HARNESS_MAIN
