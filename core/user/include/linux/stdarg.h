/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SW_SHIM_LINUX_STDARG_H
#define _SW_SHIM_LINUX_STDARG_H

#include <stdarg.h>

#endif
