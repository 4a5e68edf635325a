/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SW_UKUNIT_LINUX_LOG2_H
#define _SW_UKUNIT_LINUX_LOG2_H

#include <linux/bitops.h>

/* The kernel's ilog2() for a non-zero value: the index of its top bit */
#define ilog2(n)	((int)fls_long(n) - 1)

#endif
