// SPDX-License-Identifier: GPL-2.0
/*
 * sw-replay: bad usage or input, and memory it cannot have, end the
 * program with a message on stderr and exit status 2
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "sw_replay_exit.h"

const char *sw_replay_prog = "sw-replay";

void sw_replay_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", sw_replay_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* calloc(), never NULL: at least one element, or the program ends */
void *sw_replay_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		sw_replay_die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}
