/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: the merge of per-CPU logs whose events carry order numbers
 * (sw_logmerge.c): the live mirror's drain. Pure logic: the caller reads
 * its logs' next events and keeps the numbers; nothing here allocates or
 * locks.
 */
#ifndef _SHADOW_WHEEL_SW_LOGMERGE_H
#define _SHADOW_WHEEL_SW_LOGMERGE_H

#include <linux/types.h>

/* sw_logmerge_head::state */
enum sw_logmerge_state {
	SW_LH_EMPTY,		/* nothing logged after the events taken */
	SW_LH_READY,		/* the next event is written: @now, @nr, @of hold */
	SW_LH_WRITING,		/* the next event is reserved, not written yet */
};

/**
 * struct sw_logmerge_head - the next event of one CPU's log
 * @now:	its jiffies
 * @nr:		its number on its counter
 * @counter:	its counter, one of its timer's (hashed); @nr_counters or
 *		more for none: an event of the CPU alone, ordered by its log
 * @backlog:	events in its log, itself included: of two events with the
 *		same jiffies, the one of the fuller log is taken first
 * @state:	enum sw_logmerge_state
 */
struct sw_logmerge_head {
	unsigned long	now;
	unsigned long	nr;
	unsigned long	backlog;
	unsigned int	counter;
	u8		state;
};

/**
 * struct sw_logmerge - the merge
 * @next:	per counter, the number of its event to take next
 * @nr_counters: counters
 * @nr_logs:	logs: one per CPU
 * @taken:	events taken
 * @forced:	of those, taken out of their counter's order: the numbers
 *		before it can never come (an event lost, which the logs
 *		never do)
 */
struct sw_logmerge {
	unsigned long	*next;
	unsigned int	nr_counters;
	unsigned int	nr_logs;
	unsigned long	taken;
	unsigned long	forced;
};

/* sw_logmerge_pick() found no event it may take */
/* One may come: nothing logged, or an event being written */
#define SW_LOGMERGE_WAIT	(-1)
/* None will: written events wait for a number no log holds or is writing */
#define SW_LOGMERGE_GAP		(-2)

void sw_logmerge_init(struct sw_logmerge *m, unsigned long *next, unsigned int nr_counters,
		      unsigned int nr_logs);
int sw_logmerge_pick(struct sw_logmerge *m, const struct sw_logmerge_head *heads);
int sw_logmerge_force(struct sw_logmerge *m, const struct sw_logmerge_head *heads);

#endif /* _SHADOW_WHEEL_SW_LOGMERGE_H */
