// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: the differential between the mirror's mainline wheel at
 * the kernel's own HZ and the kernel's wheel.
 *
 * Both compute the same function of the expiry and the base's clock
 * (calc_wheel_index() in kernel/time/timer.c, sw_wheel_place() here), so
 * for every timer they must agree on the bucket (6.1: the index the
 * timer_start event carries in its flags; 6.12: that index, read from
 * the timer, and bucket_expiry) and on the tick it runs at (the baseclk
 * of timer_expire_entry). They can only differ where the two clocks do,
 * and each way they can differ is a named behaviour of the kernel or of
 * the mirror, tried in this order:
 *
 *  match		placed at the mirror wheel's clock, the kernel agrees
 *  mirror_behind	the mirror's wheel lagged jiffies (its work budget ran
 *			out); placed at jiffies, it would agree
 *  clk_at_jiffies	the mirror's wheel was ahead of jiffies (it had run
 *			tick jiffies for an expiry on another base); the real
 *			base was at jiffies
 *  clk_ahead		the real base was at jiffies + 1: it had run this
 *			tick's timers, and __run_timers() leaves base->clk one
 *			ahead of jiffies for the rest of the tick (a timer
 *			re-armed from its callback, or armed on that base later
 *			in the same tick)
 *  clk_behind		the real base lagged jiffies: forward_timer_base() does
 *			not move base->clk past base->next_expiry, so while a
 *			due bucket waits for the softirq (an idle CPU just
 *			woken, a NO_HZ CPU, 6.12's global base handed to the
 *			timer migration hierarchy) timers are placed from an
 *			older clock
 *  placed_apart	expiry only: the two ran the timer at other ticks
 *			because they had placed it apart (the reason of that
 *			placement is counted with the placement)
 *  unexplained		anything else
 *
 * The kernel never runs a bucket at another tick than the one it was
 * placed for (collect_expired_timers() sets base->clk to next_expiry, a
 * bucket's own tick), and a mod_timer() that stays in the same bucket
 * emits no event but keeps that tick, so equal placements give equal
 * ticks.
 */

#include <linux/kernel.h>
#include <linux/string.h>

#include "sw_diff.h"

static const char * const sw_diff_reason_names[SW_DIFF_NR_REASONS] = {
	[SW_DIFF_MATCH]		 = "match",
	[SW_DIFF_MIRROR_BEHIND]	 = "mirror_behind",
	[SW_DIFF_CLK_AT_JIFFIES] = "clk_at_jiffies",
	[SW_DIFF_CLK_AHEAD]	 = "clk_ahead",
	[SW_DIFF_CLK_BEHIND]	 = "clk_behind",
	[SW_DIFF_PLACED_APART]	 = "placed_apart",
	[SW_DIFF_UNEXPLAINED]	 = "unexplained",
};

const char *sw_diff_reason_name(enum sw_diff_reason reason)
{
	return reason < SW_DIFF_NR_REASONS ? sw_diff_reason_names[reason] : "?";
}

/**
 * sw_diff_same - whether a placement is the kernel's
 * @place:	the placement
 * @k:		what the kernel said; only what it said is compared
 *
 * Return: true if the bucket (either half) and the tick are the kernel's.
 */
bool sw_diff_same(const struct sw_place *place, const struct sw_diff_kernel *k)
{
	if (k->has_idx && place->idx % SW_DEFERRABLE_OFFSET != k->idx)
		return false;
	return !k->has_bucket || place->bucket_expiry == k->bucket_expiry;
}

static bool sw_diff_same_at(const struct sw_geometry *geo, unsigned long clk,
			    unsigned long expires, unsigned int flags,
			    const struct sw_diff_kernel *k)
{
	struct sw_place place;

	sw_wheel_place(geo, clk, expires, flags, &place);
	return sw_diff_same(&place, k);
}

/*
 * Whether some clock before @now places the timer where the kernel did.
 * A placement only changes with the clock where the delta crosses a
 * level's start, or while the timer is overdue (its bucket is the
 * clock's), so one clock per level is tried: the latest before @now at
 * that level; and for an overdue placement, the clock its bucket names.
 */
static bool sw_diff_behind(const struct sw_geometry *geo, unsigned long expires,
			   unsigned int flags, unsigned long now, const struct sw_diff_kernel *k)
{
	unsigned int lvl, mask = sw_lvl_size(geo) - 1;
	unsigned long clk;

	for (lvl = 0; lvl < geo->depth; lvl++) {
		unsigned long delta;

		clk = expires - geo->lvl_start[lvl];
		if (!sw_time_before(clk, now))
			clk = now - 1;
		delta = expires - clk;
		if ((long)delta < 0 || delta < geo->lvl_start[lvl])
			continue;
		if (lvl + 1 < geo->depth && delta >= geo->lvl_start[lvl + 1])
			continue;
		if (sw_diff_same_at(geo, clk, expires, flags, k))
			return true;
	}

	/* Overdue at a clock behind: bucket_expiry is that clock, the index its low bits */
	if (k->has_bucket)
		clk = k->bucket_expiry;
	else if (k->has_idx && k->idx <= mask)
		clk = now - 1 - ((now - 1 - k->idx) & mask);
	else
		return false;
	return sw_time_before(clk, now) && sw_time_after(clk, expires) &&
	       sw_diff_same_at(geo, clk, expires, flags, k);
}

/**
 * sw_diff_placement - compare the mirror's placement of a timer with the kernel's
 * @geo:	the mirror wheel's geometry (mainline at the kernel's HZ)
 * @expires:	the timer's expiry
 * @flags:	SW_TIMER_DEFERRABLE or 0
 * @now:	jiffies when the kernel placed it
 * @mclk:	the mirror wheel's clock when it placed it
 * @k:		the kernel's placement
 *
 * Return: the first reason, in the order of the table at the top of this
 * file, that explains the kernel's placement.
 */
enum sw_diff_reason sw_diff_placement(const struct sw_geometry *geo, unsigned long expires,
				      unsigned int flags, unsigned long now, unsigned long mclk,
				      const struct sw_diff_kernel *k)
{
	if (sw_diff_same_at(geo, mclk, expires, flags, k))
		return SW_DIFF_MATCH;
	if (mclk != now && sw_diff_same_at(geo, now, expires, flags, k))
		return sw_time_before(mclk, now) ? SW_DIFF_MIRROR_BEHIND : SW_DIFF_CLK_AT_JIFFIES;
	if (sw_diff_same_at(geo, now + 1, expires, flags, k))
		return SW_DIFF_CLK_AHEAD;
	if (sw_diff_behind(geo, expires, flags, now, k))
		return SW_DIFF_CLK_BEHIND;
	return SW_DIFF_UNEXPLAINED;
}

/**
 * sw_diff_expiry - compare the tick the mirror runs a timer at with the kernel's
 * @mtick:	the mirror wheel's bucket_expiry for the timer
 * @baseclk:	timer_expire_entry's baseclk
 * @placed:	the reason found when the timer was placed
 *
 * Return: the reason.
 */
enum sw_diff_reason sw_diff_expiry(unsigned long mtick, unsigned long baseclk,
				   enum sw_diff_reason placed)
{
	if (mtick == baseclk)
		return SW_DIFF_MATCH;
	return placed == SW_DIFF_MATCH ? SW_DIFF_UNEXPLAINED : SW_DIFF_PLACED_APART;
}

/**
 * sw_diff_record - count a comparison, and keep it if it is an early mismatch
 * @diff:	the figures
 * @e:		the comparison
 *
 * The first %SW_DIFF_KEEP mismatches are kept, in the order they came.
 * Once that is full, an unexplained one still is: it takes the place of
 * the latest explained one, so the mismatches nothing explains, the ones
 * worth reading, are never crowded out by the common explained kinds.
 */
void sw_diff_record(struct sw_diff *diff, const struct sw_diff_entry *e)
{
	unsigned int i;

	diff->count[e->what][e->reason]++;
	if (e->reason == SW_DIFF_MATCH)
		return;
	if (diff->nr_kept < SW_DIFF_KEEP) {
		diff->kept[diff->nr_kept++] = *e;
		return;
	}
	if (e->reason != SW_DIFF_UNEXPLAINED)
		return;
	for (i = SW_DIFF_KEEP; i-- > 0;) {
		if (diff->kept[i].reason == SW_DIFF_UNEXPLAINED)
			continue;
		memmove(&diff->kept[i], &diff->kept[i + 1],
			(SW_DIFF_KEEP - 1 - i) * sizeof(diff->kept[0]));
		diff->kept[SW_DIFF_KEEP - 1] = *e;
		return;
	}
}

/**
 * sw_diff_kernel_tick - the tick the kernel will run a timer at
 * @geo:	mainline at the kernel's HZ
 * @k:		the kernel's placement
 * @expires:	the timer's expiry
 * @now:	jiffies at the placement
 * @tick:	gets the tick
 *
 * 6.12 says (bucket_expiry); on 6.1 the bucket index and the expiry tell:
 * the index names the level, and calc_index() at that level gives the
 * tick, unless the timer was overdue (a level-0 bucket named by the
 * base's clock, no later than @now + 1) or clamped (not derived).
 *
 * Return: false if the tick cannot be told.
 */
bool sw_diff_kernel_tick(const struct sw_geometry *geo, const struct sw_diff_kernel *k,
			 unsigned long expires, unsigned long now, unsigned long *tick)
{
	unsigned int lvl, mask = sw_lvl_size(geo) - 1;
	struct sw_place place;

	if (k->has_bucket) {
		*tick = k->bucket_expiry;
		return true;
	}
	if (!k->has_idx || k->idx >= sw_lvl_first_bucket(geo, geo->depth))
		return false;
	lvl = sw_idx_level(geo, k->idx);
	/* Placed from the clock that puts it at the start of that level */
	sw_wheel_place(geo, expires - geo->lvl_start[lvl], expires, 0, &place);
	if (place.idx == k->idx) {
		*tick = place.bucket_expiry;
		return true;
	}
	if (lvl)
		return false;
	*tick = now + 1 - ((now + 1 - k->idx) & mask);
	return true;
}
