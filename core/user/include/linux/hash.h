/* SPDX-License-Identifier: GPL-2.0 */
/* hash_long() and hash_ptr() of the kernel's <linux/hash.h>, same constants */
#ifndef _SW_SHIM_LINUX_HASH_H
#define _SW_SHIM_LINUX_HASH_H

#include <linux/types.h>

#define GOLDEN_RATIO_32 0x61C88647
#define GOLDEN_RATIO_64 0x61C8864680B583EBull

static inline u32 hash_32(u32 val, unsigned int bits)
{
	return (u32)(val * GOLDEN_RATIO_32) >> (32 - bits);
}

static inline u32 hash_64(u64 val, unsigned int bits)
{
	return val * GOLDEN_RATIO_64 >> (64 - bits);
}

#define hash_long(val, bits) (BITS_PER_LONG == 64 ? hash_64(val, bits) : hash_32(val, bits))

static inline u32 hash_ptr(const void *ptr, unsigned int bits)
{
	return hash_long((unsigned long)ptr, bits);
}

#endif
