// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel selftests: loading and unloading the module, and the start
 * and end of a test.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "swt_lib.h"

static bool swt_loaded_here;

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
