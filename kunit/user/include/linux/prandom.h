/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's prandom_u32_state() generator (L'Ecuyer's LFSR113, as in
 * lib/random32.c) and prandom_seed_state(), so that a suite's fixed seed
 * gives the same sequence of operations here as in the kernel.
 */
#ifndef _SW_UKUNIT_LINUX_PRANDOM_H
#define _SW_UKUNIT_LINUX_PRANDOM_H

#include <linux/types.h>

struct rnd_state {
	u32 s1, s2, s3, s4;
};

static inline u32 prandom_seed_at_least(u32 x, u32 m)
{
	return x < m ? x + m : x;
}

static inline void prandom_seed_state(struct rnd_state *state, u64 seed)
{
	u32 i = ((seed >> 32) ^ (seed << 10) ^ seed) & 0xffffffffUL;

	state->s1 = prandom_seed_at_least(i, 2U);
	state->s2 = prandom_seed_at_least(i, 8U);
	state->s3 = prandom_seed_at_least(i, 16U);
	state->s4 = prandom_seed_at_least(i, 128U);
}

/* One component: ((s & c) << d) ^ (((s << a) ^ s) >> b) */
static inline u32 prandom_lfsr(u32 s, unsigned int a, unsigned int b, u32 c, unsigned int d)
{
	return ((s & c) << d) ^ (((s << a) ^ s) >> b);
}

static inline u32 prandom_u32_state(struct rnd_state *state)
{
	state->s1 = prandom_lfsr(state->s1, 6, 13, 4294967294U, 18);
	state->s2 = prandom_lfsr(state->s2, 2, 27, 4294967288U, 2);
	state->s3 = prandom_lfsr(state->s3, 13, 21, 4294967280U, 7);
	state->s4 = prandom_lfsr(state->s4, 3, 12, 4294967168U, 13);
	return state->s1 ^ state->s2 ^ state->s3 ^ state->s4;
}

#endif
