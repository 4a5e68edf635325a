/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's <linux/prefetch.h>: a hint, never a fault, NULL included */
#ifndef _SW_SHIM_LINUX_PREFETCH_H
#define _SW_SHIM_LINUX_PREFETCH_H

#define prefetch(x)	__builtin_prefetch(x)
#define prefetchw(x)	__builtin_prefetch(x, 1)

#endif
