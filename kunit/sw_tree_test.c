// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the ordered set of timers by tick (core/tree/sw_tree.c),
 * checked against a plain reference: each timer's tick and whether it is
 * in the tree, and the first tick after t found by looking at every one.
 * Many random inserts, erases and lookups, on clocks either side of the
 * wrap, and after each the tree's links, priorities and order hold, it
 * holds the timers the reference does, and its lookups agree. Then ticks
 * inserted in order, the worst case of a plain search tree, which keeps
 * the tree's height logarithmic.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "sw_test_common.h"
#include "sw_tree.h"

#define SW_TT_TIMERS	64
#define SW_TT_OPS	20000
#define SW_TT_SORTED	4096

struct sw_tt {
	struct sw_tree		tree;
	struct sw_tree_node	node[SW_TT_TIMERS];
	unsigned long		tick[SW_TT_TIMERS];
	bool			in[SW_TT_TIMERS];
	unsigned int		nr;
};

/* The reference: the first tick after @tick of the timers in the tree */
static bool sw_tt_ref_after(const struct sw_tt *t, unsigned long tick, unsigned long *first)
{
	bool found = false;
	unsigned int id;

	for (id = 0; id < SW_TT_TIMERS; id++) {
		if (!t->in[id] || (long)(t->tick[id] - tick) <= 0)
			continue;
		if (!found || (long)(t->tick[id] - *first) < 0)
			*first = t->tick[id];
		found = true;
	}
	return found;
}

/* The tree's invariants hold, it has the reference's timers, and one lookup agrees */
static void sw_tt_expect_same(struct kunit *test, struct sw_tt *t, unsigned long tick)
{
	struct sw_tree_node *node = sw_tree_after(&t->tree, tick);
	unsigned long first = 0;
	unsigned int id, height;

	KUNIT_ASSERT_EQ(test, sw_tree_check(&t->tree, &height), (unsigned long)t->nr);
	for (id = 0; id < SW_TT_TIMERS; id++)
		KUNIT_ASSERT_EQ(test, sw_tree_linked(&t->node[id]), t->in[id]);
	if (!sw_tt_ref_after(t, tick, &first)) {
		KUNIT_ASSERT_NULL(test, node);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, node);
	KUNIT_ASSERT_TRUE(test, t->in[node - t->node]);
	/* Of timers at the same tick, any may be found */
	KUNIT_ASSERT_EQ(test, node->tick, first);
}

/* One random operation near @now: insert or move, erase, or look up */
static void sw_tt_step(struct kunit *test, struct sw_tt *t, struct rnd_state *rnd,
		       unsigned long now)
{
	u32 r = prandom_u32_state(rnd);
	unsigned int id = r % SW_TT_TIMERS;
	/* Near, often at the same tick as others, some before @now */
	unsigned long tick = now - 8 + (r >> 16) % 200;

	switch ((r >> 8) % 4) {
	case 0:
		if (t->in[id]) {
			sw_tree_erase(&t->tree, &t->node[id]);
			t->in[id] = false;
			t->nr--;
		}
		break;
	case 1:
		break;
	default:
		if (t->in[id])
			sw_tree_erase(&t->tree, &t->node[id]);
		else
			t->nr++;
		sw_tree_insert(&t->tree, &t->node[id], tick);
		t->tick[id] = tick;
		t->in[id] = true;
		break;
	}
	sw_tt_expect_same(test, t, now - 10 + prandom_u32_state(rnd) % 220);
}

static struct sw_tt *sw_tt_new(struct kunit *test)
{
	struct sw_tt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned int id;

	KUNIT_ASSERT_NOT_NULL(test, t);
	sw_tree_init(&t->tree);
	for (id = 0; id < SW_TT_TIMERS; id++)
		sw_tree_node_init(&t->node[id]);
	return t;
}

/* Many random operations, the tree against a look at every timer, across the wrap */
static void sw_tree_matches_a_plain_search(struct kunit *test)
{
	static const unsigned long starts[] = { 0, 1000, LONG_MAX - 5000, ULONG_MAX - 5000 };
	unsigned int s, n, id;

	for (s = 0; s < ARRAY_SIZE(starts); s++) {
		struct sw_tt *t = sw_tt_new(test);
		unsigned long now = starts[s];
		struct rnd_state rnd;

		prandom_seed_state(&rnd, 47 + s);
		sw_tt_expect_same(test, t, now);
		for (n = 0; n < SW_TT_OPS; n++) {
			sw_tt_step(test, t, &rnd, now);
			/* The clock moves on now and then, over the wrap for the last start */
			if (!(n % 4))
				now++;
		}
		for (id = 0; id < SW_TT_TIMERS; id++) {
			if (!t->in[id])
				continue;
			sw_tree_erase(&t->tree, &t->node[id]);
			t->in[id] = false;
			t->nr--;
			sw_tt_expect_same(test, t, now);
		}
		KUNIT_EXPECT_NULL(test, t->tree.root);
	}
}

/*
 * Ticks inserted in order, and erased in order: a plain search tree would
 * be a list of them, the treap's height stays within a few times log2 n
 * (about 3 log2 n expected)
 */
static void sw_tree_sorted_ticks_keep_it_shallow(struct kunit *test)
{
	struct sw_tree_node *node = kunit_kcalloc(test, SW_TT_SORTED, sizeof(*node), GFP_KERNEL);
	unsigned int i, height, most = 5 * ilog2(SW_TT_SORTED);
	struct sw_tree tree;

	KUNIT_ASSERT_NOT_NULL(test, node);
	sw_tree_init(&tree);
	for (i = 0; i < SW_TT_SORTED; i++) {
		sw_tree_node_init(&node[i]);
		sw_tree_insert(&tree, &node[i], ULONG_MAX - SW_TT_SORTED / 2 + i);
	}
	KUNIT_ASSERT_EQ(test, sw_tree_check(&tree, &height), (unsigned long)SW_TT_SORTED);
	KUNIT_EXPECT_LE(test, height, most);
	for (i = 0; i < SW_TT_SORTED; i++) {
		unsigned long before = ULONG_MAX - SW_TT_SORTED / 2 + i - 1;

		KUNIT_ASSERT_PTR_EQ(test, sw_tree_after(&tree, before), &node[i]);
	}
	for (i = 0; i < SW_TT_SORTED / 2; i++)
		sw_tree_erase(&tree, &node[i]);
	KUNIT_ASSERT_EQ(test, sw_tree_check(&tree, &height), (unsigned long)SW_TT_SORTED / 2);
	KUNIT_EXPECT_LE(test, height, most);
	KUNIT_EXPECT_PTR_EQ(test, sw_tree_after(&tree, ULONG_MAX), &node[SW_TT_SORTED / 2 + 1]);
}

SW_TEST_SUITE(sw_tree_suite, "shadow_wheel_tree",
	      KUNIT_CASE(sw_tree_matches_a_plain_search),
	      KUNIT_CASE(sw_tree_sorted_ticks_keep_it_shallow));

kunit_test_suites(&sw_tree_suite);

MODULE_DESCRIPTION("KUnit tests for the shadow-wheel ordered set of timers");
MODULE_LICENSE("GPL");
