/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cond_resched(): in the kernel a long test gives the CPU up now and then
 * (the debug kernel's soft lockup detector panics on a CPU that schedules
 * nothing for 60 s); a user-space process is preempted anyway.
 */
#ifndef _SW_UKUNIT_LINUX_SCHED_H
#define _SW_UKUNIT_LINUX_SCHED_H

static inline int cond_resched(void)
{
	return 0;
}

#endif /* _SW_UKUNIT_LINUX_SCHED_H */
