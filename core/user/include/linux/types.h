/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-ins for the few kernel helpers the wheel core uses, so
 * core/ builds unchanged in user space: the benchmark and kunit/user build
 * it against these alone, nothing else of the kernel's.
 */
#ifndef _SW_SHIM_LINUX_TYPES_H
#define _SW_SHIM_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef long long s64;		/* as the kernel's, for printk formats */

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_head {
	struct hlist_node *first;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]

#define noinline	__attribute__((__noinline__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#endif
