/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SW_SHIM_LINUX_COMPILER_H
#define _SW_SHIM_LINUX_COMPILER_H

#define __printf(a, b)	__attribute__((format(printf, a, b)))

#endif
