/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sw-replay: its command line (sw_replay_options.c)
 */
#ifndef _SW_REPLAY_OPTIONS_H
#define _SW_REPLAY_OPTIONS_H

#include <linux/types.h>

#include "sw_mirror.h"
#include "sw_replay_grid.h"

/**
 * struct sw_replay_options - what the command line asks for
 * @path:	the trace
 * @hz:		--hz, if @hz_given
 * @hz_given:	--hz given: the trace's HZ is not inferred
 * @exact_next:	--exact-next
 * @window:	--window, ns
 * @wheel_specs: --wheel's specs, checked at any HZ
 * @nr_wheel_specs: how many
 * @sweep:	--sweep's grid as given, NULL without it
 * @grid:	--sweep's grid expanded, every spec checked
 * @show:	the report's sections (SW_SHOW_*)
 * @check:	--check
 * @time_rounds: --time or --tick-cost: the rounds, 0 without them
 * @tick_cost:	--tick-cost rather than --time
 * @phases:	--phases
 */
struct sw_replay_options {
	const char	*path;
	unsigned int	hz;
	bool		hz_given;
	bool		exact_next;
	u64		window;
	const char	*wheel_specs[SW_MIRROR_MAX_WHEELS];
	unsigned int	nr_wheel_specs;
	const char	*sweep;
	struct sw_grid	grid;
	unsigned int	show;
	bool		check;
	unsigned int	time_rounds;
	bool		tick_cost;
	bool		phases;
};

void sw_replay_options_parse(struct sw_replay_options *o, int argc, char **argv);
void sw_replay_options_wheels(const struct sw_replay_options *o, unsigned int hz,
			      struct sw_geometry *geos);

#endif /* _SW_REPLAY_OPTIONS_H */
