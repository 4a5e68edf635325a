/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sw-replay: how it gives up on bad usage or input, and on memory
 * (sw_replay_exit.c)
 */
#ifndef _SW_REPLAY_EXIT_H
#define _SW_REPLAY_EXIT_H

#include <stddef.h>

#include <linux/compiler.h>

/* The program's name, as its messages start */
extern const char *sw_replay_prog;

__printf(1, 2) void sw_replay_die(const char *fmt, ...);
void *sw_replay_calloc(size_t n, size_t size);

#endif /* _SW_REPLAY_EXIT_H */
