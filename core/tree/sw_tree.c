// SPDX-License-Identifier: GPL-2.0
/*
 * shadow-wheel: an ordered set of timers by tick, a treap, see sw_tree.h.
 *
 * Every node is below its parent by tick order (earlier ticks to the left)
 * and by priority (a parent's is no lower than its children's). An insert
 * places the node as a leaf by its tick, then rotates it up past each
 * parent of lower priority; an erase rotates the node down, each time
 * under its child of higher priority, until it has at most one child, and
 * splices it out. A rotation keeps the tick order, so the tree is the one
 * its nodes would build inserted in the order of their priorities: random
 * order, depth O(log n) expected.
 */
#include <linux/kernel.h>

#include "sw_tree.h"

static inline bool sw_tree_before(unsigned long a, unsigned long b)
{
	return (long)(a - b) < 0;
}

/* The node's priority: its address mixed (the finaliser of MurmurHash3) */
static u32 sw_tree_prio(const struct sw_tree_node *node)
{
	u64 x = (unsigned long)node;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return (u32)x;
}

/* Where @parent holds @old, @new now: the root if @parent is NULL */
static void sw_tree_replace(struct sw_tree *tree, struct sw_tree_node *parent,
			    struct sw_tree_node *old, struct sw_tree_node *new)
{
	if (!parent)
		tree->root = new;
	else
		parent->child[parent->child[1] == old] = new;
	if (new)
		new->parent = parent;
}

/*
 * @node takes its parent's place, the parent becoming its child on the
 * other side, which takes @node's inner subtree: the tick order holds
 */
static void sw_tree_rotate_up(struct sw_tree *tree, struct sw_tree_node *node)
{
	struct sw_tree_node *p = node->parent, *inner;
	unsigned int d = p->child[1] == node;

	sw_tree_replace(tree, p->parent, p, node);
	inner = node->child[!d];
	p->child[d] = inner;
	if (inner)
		inner->parent = p;
	node->child[!d] = p;
	p->parent = node;
}

/**
 * sw_tree_insert - add @node, in no tree, at @tick
 * @tree:	the tree
 * @node:	the node, sw_tree_node_init() or erased since
 * @tick:	the tick it is ordered by; after the ticks equal to it
 */
void sw_tree_insert(struct sw_tree *tree, struct sw_tree_node *node, unsigned long tick)
{
	struct sw_tree_node **link = &tree->root, *parent = NULL;
	u32 prio = sw_tree_prio(node);

	while (*link) {
		parent = *link;
		link = &parent->child[!sw_tree_before(tick, parent->tick)];
	}
	node->tick = tick;
	node->child[0] = NULL;
	node->child[1] = NULL;
	node->parent = parent;
	*link = node;
	while (node->parent && sw_tree_prio(node->parent) < prio)
		sw_tree_rotate_up(tree, node);
}

/**
 * sw_tree_erase - take @node out of @tree
 * @tree:	the tree it is in
 * @node:	the node; in no tree afterwards
 */
void sw_tree_erase(struct sw_tree *tree, struct sw_tree_node *node)
{
	struct sw_tree_node *l, *r;

	while ((l = node->child[0]) && (r = node->child[1]))
		sw_tree_rotate_up(tree, sw_tree_prio(l) < sw_tree_prio(r) ? r : l);
	sw_tree_replace(tree, node->parent, node, node->child[0] ?: node->child[1]);
	sw_tree_node_init(node);
}

/**
 * sw_tree_after - the node of the first tick after @tick
 * @tree:	the tree
 * @tick:	the tick
 *
 * Return: of the nodes whose tick is after @tick, one whose tick is the
 * earliest; NULL if there is none.
 */
struct sw_tree_node *sw_tree_after(const struct sw_tree *tree, unsigned long tick)
{
	struct sw_tree_node *node = tree->root, *found = NULL;

	while (node) {
		if (sw_tree_before(tick, node->tick)) {
			found = node;
			node = node->child[0];
		} else {
			node = node->child[1];
		}
	}
	return found;
}

/* The first node at or below @node by tick, checking the links on the way */
static const struct sw_tree_node *sw_tree_first(const struct sw_tree_node *node, bool *ok)
{
	while (node->child[0]) {
		*ok &= node->child[0]->parent == node;
		node = node->child[0];
	}
	return node;
}

/* The node after @node by tick, or NULL; *@ok cleared on a broken link */
static const struct sw_tree_node *sw_tree_next(const struct sw_tree_node *node, bool *ok)
{
	const struct sw_tree_node *p;

	if (node->child[1]) {
		*ok &= node->child[1]->parent == node;
		return sw_tree_first(node->child[1], ok);
	}
	while ((p = node->parent) && p->child[1] == node)
		node = p;
	return p;
}

/* The nodes from @node up to the root */
static unsigned int sw_tree_depth(const struct sw_tree_node *node)
{
	unsigned int depth = 0;

	for (; node; node = node->parent)
		depth++;
	return depth;
}

/**
 * sw_tree_check - check the tree's invariants, for a test or a read
 * @tree:	the tree
 * @height:	gets the nodes on its longest path from the root, if not
 *		NULL (a walk up from every node: for a test)
 *
 * Each child links back to its parent and has no higher priority, and
 * the nodes taken in order have ticks that never go back. Walks the whole
 * tree: for a check, not for every event.
 *
 * Return: the nodes in it, or ULONG_MAX if an invariant is broken.
 */
unsigned long sw_tree_check(const struct sw_tree *tree, unsigned int *height)
{
	const struct sw_tree_node *node, *prev = NULL;
	unsigned long n = 0;
	bool ok = true;

	if (height)
		*height = 0;
	if (!tree->root)
		return 0;
	ok = !tree->root->parent;
	for (node = sw_tree_first(tree->root, &ok); node && ok; node = sw_tree_next(node, &ok)) {
		unsigned int d;

		for (d = 0; d < 2; d++)
			ok &= !node->child[d] || sw_tree_prio(node->child[d]) <= sw_tree_prio(node);
		ok &= !prev || !sw_tree_before(node->tick, prev->tick);
		if (height)
			*height = max(*height, sw_tree_depth(node));
		prev = node;
		n++;
	}
	return ok ? n : ULONG_MAX;
}
