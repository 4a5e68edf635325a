/* SPDX-License-Identifier: GPL-2.0 */
/* min(), max() and min_t(), each argument evaluated once, as the kernel's */
#ifndef _SW_SHIM_LINUX_MINMAX_H
#define _SW_SHIM_LINUX_MINMAX_H

#define min_t(type, a, b)						\
	({ type __a = (a), __b = (b); __a < __b ? __a : __b; })
#define min(a, b)							\
	({ typeof(a) __x = (a); typeof(b) __y = (b); __x < __y ? __x : __y; })
#define max(a, b)							\
	({ typeof(a) __x = (a); typeof(b) __y = (b); __x > __y ? __x : __y; })

#endif
