/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: what differs between the kernels the module builds for,
 * and nowhere else. The module calls today's names; where the kernel's
 * headers lack one, it is defined here from what they have. Which are
 * there is found by Kbuild in the headers themselves (SW_HAVE_*, see
 * Kbuild), not from version numbers, which stable backports make wrong:
 * 6.1.192 has timer_delete() and timer_shutdown_sync() from 6.2.
 *
 *  timer_delete(), timer_delete_sync()	6.2, and 6.1.84 on; del_timer*() go in 6.15
 *  timer_shutdown_sync()			6.2, and 6.1.84 on
 *  timer_container_of()			6.16; from_timer() before
 *  hrtimer_setup()			6.13; hrtimer_init() goes in 6.15
 *  the timer_start tracepoint		(timer, expires, flags) until 6.7,
 *					(timer, bucket_expiry) from 6.8
 *  the timer_base_idle tracepoint	6.9 on; before, the CPU's idle is
 *					cpu_idle's (found by name when the
 *					mirror starts, sw_live_probe.c)
 *  the global timer base		6.9 on, with timer_base_idle: the
 *					bases the mirror models per CPU
 */
#ifndef _SHADOW_WHEEL_SW_COMPAT_H
#define _SHADOW_WHEEL_SW_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/timer.h>

#ifndef SW_HAVE_TIMER_DELETE
#define timer_delete(timer)		del_timer(timer)
#define timer_delete_sync(timer)	del_timer_sync(timer)
#endif

#ifndef SW_HAVE_TIMER_SHUTDOWN
/* Without it, a timer deleted may be re-armed by its own function: callers stop that first */
#define timer_shutdown_sync(timer)	del_timer_sync(timer)
#endif

#ifndef SW_HAVE_TIMER_CONTAINER_OF
#define timer_container_of(var, timer, field)	from_timer(var, timer, field)
#endif

#ifndef SW_HAVE_HRTIMER_SETUP
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/*
 * A probe on the kernel's timer_start tracepoint, named @name, that calls
 * @fn(timer, expires, flags, has_bucket_expiry, bucket_expiry) whatever
 * the tracepoint's form: until 6.7 it passes the expiry and the flags
 * (with the bucket index the timer was just given); from 6.8 it passes
 * the tick the timer's bucket runs at, and the expiry and the flags are
 * the timer's own (the probe runs under the base lock, where they were
 * just set).
 */
#ifdef SW_HAVE_TIMER_START_BUCKET_EXPIRY
#define SW_DEFINE_TIMER_START_PROBE(name, fn)					\
static void name(void *data, struct timer_list *timer, unsigned long bucket_expiry) \
{										\
	fn(timer, READ_ONCE(timer->expires), READ_ONCE(timer->flags), true,	\
	   bucket_expiry);							\
}
#else
#define SW_DEFINE_TIMER_START_PROBE(name, fn)					\
static void name(void *data, struct timer_list *timer, unsigned long expires,	\
		 unsigned int flags)						\
{										\
	fn(timer, expires, flags, false, 0);					\
}
#endif

/*
 * The kernel's timer bases, as the mirror models them per CPU (an enum
 * sw_sirq_bases): 6.9 split the standard base into a local and a global
 * one, and added the timer_base_idle tracepoint with them
 */
#ifdef SW_HAVE_TIMER_BASE_IDLE
#define SW_KERNEL_TIMER_BASES	SW_BASES_LOCAL_GLOBAL_DEF
#else
#define SW_KERNEL_TIMER_BASES	SW_BASES_STD_DEF
#endif

#endif /* _SHADOW_WHEEL_SW_COMPAT_H */
