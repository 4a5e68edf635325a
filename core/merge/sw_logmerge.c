// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: one order for the events of per-CPU logs, the live
 * mirror's, in which every timer's events come as the kernel made them.
 *
 * Each CPU appends its own events to its own log, so a log is in its
 * CPU's order. A timer's event also takes a number from a counter of the
 * timer's own (one of a table, by a hash of the timer's address: two
 * timers may share one). The number is taken right after the log's entry
 * is reserved, with interrupts off on the CPU, and only once the
 * reservation succeeded: so
 *
 *  - an event's number and its place in its log are taken at one moment
 *    of its CPU's, with nothing of that CPU's in between;
 *  - a counter's numbers run in the order of those moments, and none is
 *    skipped: an event with number n + 1 means one with n is logged, or
 *    reserved and about to be.
 *
 * A timer's events are ordered by the kernel: starts and cancels under
 * its base's lock, a move to another base under both (lock_timer_base()
 * waits out TIMER_MIGRATING), its expire_entry after its detach on the
 * CPU running the base (kernel/time/timer.c). So their numbers, taken
 * within those sections, are in the kernel's order, whatever CPU logs
 * them: a del_timer() where its caller runs, add_timer_on(), a start on
 * another CPU's base, 6.12's global base run by another CPU in
 * timer_expire_remote(), a timer started on a new base once its callback
 * is done (its old base's lock orders the two, and no event marks it on
 * that base: a counter per base would not). Only the expire_entry, which
 * runs after the lock is dropped, races with a start on another CPU; the
 * mirror takes either order (SW_MC_EXPIRE_REARMED).
 *
 * The merge takes an event when it is the next of its log and the next
 * number of its counter. Both orders are the order of the moments above,
 * so the real order of the events is one that keeps both: whatever is
 * written, some log's next event is takeable or waits for an event being
 * written, and the merge never ends up waiting on itself. Among the events
 * it may take, it takes the one with the earliest jiffies (then the one of
 * the fuller log, then the lower CPU): along both orders jiffies never go
 * back, so an event it cannot take yet has a takeable one before it with
 * no later jiffies. Events
 * with no timer (a CPU's softirq and idle) are ordered by their log and
 * their jiffies alone. An event still being written (its CPU
 * interrupted, or a vCPU not running) holds back only what comes after
 * it in its log or its counter.
 *
 * A written event waiting for a number that no log holds, nor is being
 * written anywhere, cannot happen while no event is lost; the caller
 * confirms it by reading the logs again and takes the earliest with
 * sw_logmerge_force(), counted, so that the merge never stops.
 */

#include <linux/kernel.h>
#include <linux/string.h>

#include "sw_logmerge.h"
#include "sw_wheel.h"

/**
 * sw_logmerge_init - a merge of @nr_logs logs
 * @m:		the merge
 * @next:	@nr_counters numbers, the first each counter gives (zero)
 * @nr_counters: how many counters
 * @nr_logs:	how many logs
 */
void sw_logmerge_init(struct sw_logmerge *m, unsigned long *next, unsigned int nr_counters,
		      unsigned int nr_logs)
{
	memset(m, 0, sizeof(*m));
	m->next = next;
	m->nr_counters = nr_counters;
	m->nr_logs = nr_logs;
}

/*
 * Whether @h's event is to be taken before @best's (NULL: none yet): the
 * earlier jiffies, then the fuller log (a full log makes its probes drain,
 * and the heads of the others would come first on every tie), then the
 * lower CPU (the caller's order)
 */
static bool sw_logmerge_before(const struct sw_logmerge_head *h,
			       const struct sw_logmerge_head *best)
{
	if (!best || sw_time_before(h->now, best->now))
		return true;
	return h->now == best->now && h->backlog > best->backlog;
}

/* Take @c's event: its counter, if it has one, moves past it */
static int sw_logmerge_take(struct sw_logmerge *m, const struct sw_logmerge_head *heads, int c)
{
	if (heads[c].counter < m->nr_counters)
		m->next[heads[c].counter] = heads[c].nr + 1;
	m->taken++;
	return c;
}

/**
 * sw_logmerge_pick - the log whose next event comes next
 * @m:		the merge
 * @heads:	each log's next event, @m->nr_logs of them
 *
 * Return: the CPU whose event to take (its counter moves past it; the
 * caller moves its log on), %SW_LOGMERGE_WAIT if none may be taken until
 * more is written, or %SW_LOGMERGE_GAP if written events wait for
 * numbers that no log holds or is being written (which the caller
 * confirms with a fresh read before sw_logmerge_force()).
 */
int sw_logmerge_pick(struct sw_logmerge *m, const struct sw_logmerge_head *heads)
{
	const struct sw_logmerge_head *h, *best = NULL;
	bool ready = false, writing = false;
	unsigned int c;
	int found = -1;

	for (c = 0; c < m->nr_logs; c++) {
		h = &heads[c];
		writing |= h->state == SW_LH_WRITING;
		if (h->state != SW_LH_READY)
			continue;
		ready = true;
		if (h->counter < m->nr_counters && h->nr != m->next[h->counter])
			continue;
		if (sw_logmerge_before(h, best)) {
			best = h;
			found = c;
		}
	}
	if (found >= 0)
		return sw_logmerge_take(m, heads, found);
	return ready && !writing ? SW_LOGMERGE_GAP : SW_LOGMERGE_WAIT;
}

/**
 * sw_logmerge_force - take the earliest written event, whatever its number
 * @m:		the merge
 * @heads:	each log's next event, read after sw_logmerge_pick() said
 *		%SW_LOGMERGE_GAP
 *
 * Counted in @m->forced. Its counter goes on from its number.
 *
 * Return: the CPU whose event to take, or %SW_LOGMERGE_WAIT if there is
 * none, or one may be taken in order after all (call sw_logmerge_pick()).
 */
int sw_logmerge_force(struct sw_logmerge *m, const struct sw_logmerge_head *heads)
{
	const struct sw_logmerge_head *best = NULL;
	unsigned int c;
	int found = -1;

	for (c = 0; c < m->nr_logs; c++) {
		if (heads[c].state == SW_LH_WRITING)
			return SW_LOGMERGE_WAIT;
		if (heads[c].state != SW_LH_READY)
			continue;
		if (heads[c].counter >= m->nr_counters ||
		    heads[c].nr == m->next[heads[c].counter])
			return SW_LOGMERGE_WAIT;
		/* Of a counter's events with the same jiffies, its lowest number */
		if (sw_logmerge_before(&heads[c], best) ||
		    (best->now == heads[c].now && best->counter == heads[c].counter &&
		     heads[c].nr < best->nr)) {
			best = &heads[c];
			found = c;
		}
	}
	if (found < 0)
		return SW_LOGMERGE_WAIT;
	m->forced++;
	return sw_logmerge_take(m, heads, found);
}
