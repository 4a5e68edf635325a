/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SW_SHIM_LINUX_SORT_H
#define _SW_SHIM_LINUX_SORT_H

#include <stdlib.h>

/* The kernel's sort() without its swap callback: qsort() */
static inline void sort(void *base, size_t num, size_t size,
			int (*cmp)(const void *, const void *), void *swap)
{
	qsort(base, num, size, cmp);
}

#endif
