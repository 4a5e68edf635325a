/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SW_SHIM_LINUX_BITMAP_H
#define _SW_SHIM_LINUX_BITMAP_H

#include <string.h>
#include <linux/bitops.h>

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

#endif
