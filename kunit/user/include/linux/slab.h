/* SPDX-License-Identifier: GPL-2.0 */
/* The allocation flags the suites pass; memory comes from kunit_kmalloc_array() */
#ifndef _SW_UKUNIT_LINUX_SLAB_H
#define _SW_UKUNIT_LINUX_SLAB_H

typedef unsigned int gfp_t;

#define GFP_KERNEL	0U
#define __GFP_ZERO	1U

#endif
