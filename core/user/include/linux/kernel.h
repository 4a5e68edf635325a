/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SW_SHIM_LINUX_KERNEL_H
#define _SW_SHIM_LINUX_KERNEL_H

#include <stdio.h>

#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/types.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

#endif
