/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the differential between a mainline wheel at the kernel's
 * own HZ and the kernel's wheel, timer by timer (sw_diff.c).
 */
#ifndef _SHADOW_WHEEL_SW_DIFF_H
#define _SHADOW_WHEEL_SW_DIFF_H

#include "sw_wheel.h"

/*
 * The kernel's struct timer_list flags, as include/linux/timer.h has them
 * in 6.1 and 6.12: the CPU of the base, the deferrable bit and, from
 * bit 22, the bucket index the timer was last enqueued at.
 */
#define SW_KTIMER_CPUMASK	0x0003FFFFU
#define SW_KTIMER_DEFERRABLE	0x00080000U
#define SW_KTIMER_PINNED	0x00100000U
#define SW_KTIMER_ARRAYSHIFT	22

static inline unsigned int sw_ktimer_cpu(u32 tflags)
{
	return tflags & SW_KTIMER_CPUMASK;
}

static inline unsigned int sw_ktimer_idx(u32 tflags)
{
	return tflags >> SW_KTIMER_ARRAYSHIFT;
}

/* Why the mirror and the kernel put a timer in other buckets, or ran it at other ticks */
enum sw_diff_reason {
	SW_DIFF_MATCH,		/* same bucket, same tick */
	SW_DIFF_MIRROR_BEHIND,	/* the mirror's wheel had not caught up with jiffies */
	SW_DIFF_CLK_AT_JIFFIES,	/* the real base was at jiffies, the mirror's wheel ahead */
	SW_DIFF_CLK_AHEAD,	/* the real base was at jiffies + 1: it had run this tick */
	SW_DIFF_CLK_BEHIND,	/* the real base lagged jiffies: a due bucket not yet run */
	SW_DIFF_PLACED_APART,	/* expiry: ran apart because the placements already differed */
	SW_DIFF_UNEXPLAINED,
	SW_DIFF_NR_REASONS,
};

enum sw_diff_what {
	SW_DIFF_PLACEMENT,	/* timer_start: bucket index and bucket_expiry */
	SW_DIFF_EXPIRY,		/* timer_expire_entry: baseclk */
	SW_DIFF_NR_WHAT,
};

/**
 * struct sw_diff_kernel - what the kernel said about one placement
 * @idx:	bucket index, from the timer's flags (6.1's timer_start flags;
 *		timer->flags read in the probe on 6.12)
 * @bucket_expiry: the tick it will run at (6.12's timer_start)
 * @has_idx:	@idx is known
 * @has_bucket:	@bucket_expiry is known
 */
struct sw_diff_kernel {
	unsigned int	idx;
	unsigned long	bucket_expiry;
	bool		has_idx;
	bool		has_bucket;
};

/**
 * struct sw_diff_entry - a mismatch, kept with its data
 * @timer:	the timer_list, as an identity only
 * @what:	%SW_DIFF_PLACEMENT or %SW_DIFF_EXPIRY
 * @reason:	enum sw_diff_reason
 * @now:	jiffies at the event
 * @expires:	the timer's expiry
 * @mclk:	the mirror wheel's clock at the placement
 * @kidx:	the kernel's bucket (placement), or UINT_MAX
 * @midx:	the mirror's bucket
 * @ktick:	the kernel's bucket_expiry (placement, 0 if unknown) or baseclk
 * @mtick:	the mirror's bucket_expiry
 * @armed_at:	jiffies at the timer's placement (the start compared, or
 *		the last before the expiry)
 * @cpu:	the CPU of the event
 * @kcpu:	the CPU of the timer's base, from its flags
 * @lives:	the mirror's records of the timer at the event: more than one
 *		while an older lifetime's cancel waits to be told apart
 */
struct sw_diff_entry {
	const void	*timer;
	u8		what;
	u8		reason;
	unsigned long	now;
	unsigned long	expires;
	unsigned long	mclk;
	unsigned int	kidx;
	unsigned int	midx;
	unsigned long	ktick;
	unsigned long	mtick;
	unsigned long	armed_at;
	unsigned int	cpu;
	unsigned int	kcpu;
	unsigned int	lives;
};

#define SW_DIFF_KEEP		16

/**
 * struct sw_diff - the differential's figures
 * @count:	comparisons by what was compared and the reason found
 * @nr_kept:	mismatches kept in @kept
 * @kept:	the first %SW_DIFF_KEEP mismatches, the unexplained ones
 *		kept before the others (sw_diff_record())
 */
struct sw_diff {
	unsigned long		count[SW_DIFF_NR_WHAT][SW_DIFF_NR_REASONS];
	unsigned int		nr_kept;
	struct sw_diff_entry	kept[SW_DIFF_KEEP];
};

const char *sw_diff_reason_name(enum sw_diff_reason reason);

bool sw_diff_same(const struct sw_place *place, const struct sw_diff_kernel *k);
enum sw_diff_reason sw_diff_placement(const struct sw_geometry *geo, unsigned long expires,
				      unsigned int flags, unsigned long now, unsigned long mclk,
				      const struct sw_diff_kernel *k);
enum sw_diff_reason sw_diff_expiry(unsigned long mtick, unsigned long baseclk,
				   enum sw_diff_reason placed);
void sw_diff_record(struct sw_diff *diff, const struct sw_diff_entry *e);
bool sw_diff_kernel_tick(const struct sw_geometry *geo, const struct sw_diff_kernel *k,
			 unsigned long expires, unsigned long now, unsigned long *tick);

#endif /* _SHADOW_WHEEL_SW_DIFF_H */
