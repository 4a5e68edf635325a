/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow-wheel: an ordered set of timers by tick, for the question a timer
 * base's next_expiry asks: which pending timer runs first after tick t.
 * A treap: a binary search tree by tick that is also a heap by a priority
 * each node takes from a hash of its address, so its shape is that of a
 * tree built in random order, whatever order the ticks come in: O(log n)
 * expected to insert, erase and look up, with no rebalancing state in the
 * node. Pure logic over nodes the caller embeds in its timers: nothing here
 * allocates or locks; the caller serialises access.
 *
 * Ticks compare as the wheels' do, by difference, so clocks may wrap: the
 * ticks in one tree must lie within LONG_MAX of one another.
 */
#ifndef _SHADOW_WHEEL_SW_TREE_H
#define _SHADOW_WHEEL_SW_TREE_H

#include <linux/types.h>

/**
 * struct sw_tree_node - a timer in a tree, the handle of its operations
 * @child:	its subtrees: [0] earlier ticks, [1] the same or later
 * @parent:	NULL at the root; itself when in no tree
 * @tick:	the tick it is ordered by
 */
struct sw_tree_node {
	struct sw_tree_node	*child[2];
	struct sw_tree_node	*parent;
	unsigned long		tick;
};

/**
 * struct sw_tree - the tree
 * @root:	NULL when empty
 */
struct sw_tree {
	struct sw_tree_node	*root;
};

static inline void sw_tree_init(struct sw_tree *tree)
{
	tree->root = NULL;
}

/* A node in no tree: the caller's to call before its first insert */
static inline void sw_tree_node_init(struct sw_tree_node *node)
{
	node->parent = node;
}

static inline bool sw_tree_linked(const struct sw_tree_node *node)
{
	return node->parent != node;
}

void sw_tree_insert(struct sw_tree *tree, struct sw_tree_node *node, unsigned long tick);
void sw_tree_erase(struct sw_tree *tree, struct sw_tree_node *node);
struct sw_tree_node *sw_tree_after(const struct sw_tree *tree, unsigned long tick);
unsigned long sw_tree_check(const struct sw_tree *tree, unsigned int *height);

#endif /* _SHADOW_WHEEL_SW_TREE_H */
