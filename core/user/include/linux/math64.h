/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SW_SHIM_LINUX_MATH64_H
#define _SW_SHIM_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

#endif
