/* SPDX-License-Identifier: GPL-2.0 */
/* The system's errno values, which are the kernel's */
#include <asm/errno.h>
