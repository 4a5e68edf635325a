/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the control file's commands.
 */
#ifndef _SHADOW_WHEEL_SW_CONTROL_H
#define _SHADOW_WHEEL_SW_CONTROL_H

#include <linux/types.h>

#define SW_CONTROL_MAX	256	/* bytes in one command */

int sw_control(const char *cmd);
int sw_control_bench(const char *cmd);

#endif /* _SHADOW_WHEEL_SW_CONTROL_H */
