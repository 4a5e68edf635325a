/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sw-replay --sweep: a grid of wheel specs, from a file or a range syntax
 * (sw_replay_grid.c)
 */
#ifndef _SW_REPLAY_GRID_H
#define _SW_REPLAY_GRID_H

#include <stddef.h>

/* The most specs a grid expands to */
#define SW_GRID_MAX	100000

/**
 * struct sw_grid - the specs a grid expands to, in order, each a string
 *	sw_geometry_parse() takes
 * @spec:	the specs
 * @nr:		how many
 * @size:	room in @spec
 */
struct sw_grid {
	char	**spec;
	size_t	nr;
	size_t	size;
};

int sw_grid_expand(const char *grid, struct sw_grid *g, char *err, size_t err_size);
void sw_grid_free(struct sw_grid *g);

#endif /* _SW_REPLAY_GRID_H */
