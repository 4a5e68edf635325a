/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: /sys/kernel/debug/shadow_wheel/
 */
#ifndef _SHADOW_WHEEL_SW_DEBUGFS_H
#define _SHADOW_WHEEL_SW_DEBUGFS_H

int sw_debugfs_init(void);
void sw_debugfs_exit(void);

#endif /* _SHADOW_WHEEL_SW_DEBUGFS_H */
