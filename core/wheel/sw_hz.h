/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the kernel's jiffies as the ticks of another HZ.
 *
 * The mirror (sw_mirror.c) runs wheels at HZ 100, 250 and 1000 whatever
 * the kernel's own HZ, on the kernel's jiffies. A virtual clock at vhz
 * counts the ticks a kernel built with HZ=vhz would have counted since
 * the same boot: it starts at that kernel's INITIAL_JIFFIES when jiffies
 * is at this one's, and a second (khz jiffies) is vhz virtual ticks.
 * With d the jiffies since boot (jiffies - INITIAL_JIFFIES(khz)):
 *
 *	virtual clock at jiffies j	INITIAL_JIFFIES(vhz) + floor(d * vhz / khz)
 *	virtual expiry of expiry E	INITIAL_JIFFIES(vhz) + ceil(d * vhz / khz)
 *
 * The clock is the virtual tick in progress at the start of jiffy j; an
 * expiry is rounded up to the first virtual tick that does not begin
 * before E does, so a virtual timer never runs before the real one could.
 * At vhz == khz both are the identity.
 *
 * Wrap-safe on unsigned long: d is taken from an origin (@j0, @v0) that
 * sw_hz_rebase() moves forward in whole seconds, where both clocks are
 * exact, and split into seconds and a remainder, so that nothing larger
 * than khz * vhz is ever multiplied. Jiffies wrap (after five minutes on
 * 32-bit) and the virtual ticks wrap with them, consistently; the only
 * condition is that the origin is rebased at least once every LONG_MAX
 * jiffies (24 days at HZ=1000 on 32-bit), which the mirror does on every
 * event.
 */
#ifndef _SHADOW_WHEEL_SW_HZ_H
#define _SHADOW_WHEEL_SW_HZ_H

#include <linux/limits.h>
#include <linux/types.h>

/**
 * struct sw_hz - jiffies at one HZ as ticks of another
 * @khz:	the kernel's HZ (the real jiffies)
 * @vhz:	the virtual HZ
 * @j0:		the origin in jiffies: INITIAL_JIFFIES at @khz plus a whole
 *		number of seconds
 * @v0:		the same instant in virtual ticks: INITIAL_JIFFIES at @vhz
 *		plus as many seconds
 * @max_delta:	sw_hz_max_delta(), worked out once: a division
 */
struct sw_hz {
	unsigned int	khz;
	unsigned int	vhz;
	unsigned long	j0;
	unsigned long	v0;
	unsigned long	max_delta;
};

/* The kernel's INITIAL_JIFFIES at @hz: five minutes before 32 bits wrap */
static inline unsigned long sw_hz_initial_jiffies(unsigned int hz)
{
	return (unsigned long)(unsigned int)(-300 * (int)hz);
}

/*
 * The farthest real delta converted: its virtual delta stays within
 * LONG_MAX / 2, as the kernel's MAX_JIFFY_OFFSET does for its own
 * timeouts. Reached only on 32-bit (12 days at 250 for a virtual HZ of
 * 1000); the wheels clamp long before that anyway.
 */
static inline unsigned long sw_hz_max_delta(const struct sw_hz *h)
{
	return h->max_delta;
}

/* Start at the origin of both clocks: boot */
static inline void sw_hz_init(struct sw_hz *h, unsigned int khz, unsigned int vhz)
{
	h->khz = khz;
	h->vhz = vhz;
	h->j0 = sw_hz_initial_jiffies(khz);
	h->v0 = sw_hz_initial_jiffies(vhz);
	h->max_delta = (LONG_MAX >> 1) / (vhz > khz ? vhz : khz) * khz;
}

/*
 * (long)(@j - @h->j0) as whole seconds (floor, may be negative) and the
 * jiffies left over, 0 .. khz - 1. The mirror rebases its clocks as
 * jiffies move on (once a jiffy), so they are mostly within the second
 * after the origin: no division.
 */
static inline long sw_hz_split(const struct sw_hz *h, unsigned long j, unsigned long *rem)
{
	long d = (long)(j - h->j0);
	long sec, r;

	if ((unsigned long)d < h->khz) {
		*rem = d;
		return 0;
	}
	sec = d / (long)h->khz;
	r = d % (long)h->khz;
	if (r < 0) {
		r += h->khz;
		sec--;
	}
	*rem = r;
	return sec;
}

/*
 * Jiffy @j in virtual ticks: the tick in progress (floor), or with @up the
 * first that does not begin before it (ceil); at the same HZ, the same tick
 */
static inline unsigned long sw_hz_convert(const struct sw_hz *h, unsigned long j, bool up)
{
	unsigned long rem, part;
	long sec;

	if (h->vhz == h->khz)
		return h->v0 + (j - h->j0);
	sec = sw_hz_split(h, j, &rem);
	part = (rem * h->vhz + (up ? h->khz - 1 : 0)) / h->khz;
	return h->v0 + (unsigned long)sec * h->vhz + part;
}

/* The virtual tick in progress at jiffy @j */
static inline unsigned long sw_hz_clock(const struct sw_hz *h, unsigned long j)
{
	return sw_hz_convert(h, j, false);
}

/* The first virtual tick that does not begin before jiffy @expires */
static inline unsigned long sw_hz_expiry(const struct sw_hz *h, unsigned long expires)
{
	return sw_hz_convert(h, expires, true);
}

/* sw_hz_expiry() of an expiry seen at jiffy @now, clamped as above */
static inline unsigned long sw_hz_expiry_at(const struct sw_hz *h, unsigned long expires,
					    unsigned long now)
{
	unsigned long most = sw_hz_max_delta(h);

	if ((long)(expires - now) > (long)most)
		expires = now + most;
	return sw_hz_expiry(h, expires);
}

/*
 * Move the origin forward to the last whole second at or before @now:
 * every result stays the same, and the differences stay small.
 */
static inline void sw_hz_rebase(struct sw_hz *h, unsigned long now)
{
	long d = (long)(now - h->j0);
	unsigned long sec;

	if (d < (long)h->khz)
		return;
	sec = d / h->khz;
	h->j0 += sec * h->khz;
	h->v0 += sec * h->vhz;
}

#endif /* _SHADOW_WHEEL_SW_HZ_H */
