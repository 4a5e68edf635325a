// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the print sink (sw_print.h)
 */
#include "sw_print.h"

void sw_printf(struct sw_print *p, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	p->vprintf(p, fmt, args);
	va_end(args);
}
