/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: a print sink, so that the same code writes a report into
 * a seq_file in the module and onto a stdio stream in user space.
 */
#ifndef _SHADOW_WHEEL_SW_PRINT_H
#define _SHADOW_WHEEL_SW_PRINT_H

#include <linux/compiler.h>
#include <linux/stdarg.h>

/**
 * struct sw_print - where a report goes
 * @vprintf:	writes @fmt with @args (printf's conversions, no kernel
 *		extension)
 * @fn:		writes the name of the timer function at @fn
 * @ctx:	the sink's own (a seq_file, a FILE, ...)
 */
struct sw_print {
	__printf(2, 0) void (*vprintf)(struct sw_print *p, const char *fmt, va_list args);
	void	(*fn)(struct sw_print *p, const void *fn);
	void	*ctx;
};

__printf(2, 3) void sw_printf(struct sw_print *p, const char *fmt, ...);

#endif /* _SHADOW_WHEEL_SW_PRINT_H */
