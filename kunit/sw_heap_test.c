// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the binary min-heap of timers (core/heap/sw_heap.c),
 * checked against a plain reference: the pending timers in an array kept
 * sorted by expiry. Many random arms, moves, cancels and pops, on clocks
 * either side of the wrap, and after each the heap and the array agree:
 * which timers are pending, how many, which comes first and what is due.
 * Then a full heap, which refuses a new timer and still moves its own.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "sw_heap.h"
#include "sw_test_common.h"

#define SW_HT_TIMERS	48
#define SW_HT_OPS	20000

/* The reference: the pending timers, in expiry order */
struct sw_ht_ref {
	unsigned int	id[SW_HT_TIMERS];
	unsigned long	expires[SW_HT_TIMERS];
	unsigned int	nr;
};

struct sw_ht {
	struct sw_heap		heap;
	struct sw_heap_timer	*slots[SW_HT_TIMERS];
	struct sw_heap_timer	timer[SW_HT_TIMERS];
	struct sw_ht_ref	ref;
};

/* Where timer @id is in the reference; ref->nr when not pending */
static unsigned int sw_ht_ref_find(const struct sw_ht_ref *ref, unsigned int id)
{
	unsigned int i;

	for (i = 0; i < ref->nr && ref->id[i] != id; i++)
		;
	return i;
}

static void sw_ht_ref_del(struct sw_ht_ref *ref, unsigned int i)
{
	memmove(ref->id + i, ref->id + i + 1, (ref->nr - i - 1) * sizeof(ref->id[0]));
	memmove(ref->expires + i, ref->expires + i + 1,
		(ref->nr - i - 1) * sizeof(ref->expires[0]));
	ref->nr--;
}

/* Timer @id runs at @expires: out of its old place, into its sorted one */
static void sw_ht_ref_set(struct sw_ht_ref *ref, unsigned int id, unsigned long expires)
{
	unsigned int i = sw_ht_ref_find(ref, id);

	if (i < ref->nr)
		sw_ht_ref_del(ref, i);
	for (i = ref->nr; i && (long)(expires - ref->expires[i - 1]) < 0; i--) {
		ref->id[i] = ref->id[i - 1];
		ref->expires[i] = ref->expires[i - 1];
	}
	ref->id[i] = id;
	ref->expires[i] = expires;
	ref->nr++;
}

/* The heap and the reference hold the same timers, the same one first */
static void sw_ht_expect_same(struct kunit *test, struct sw_ht *t)
{
	struct sw_heap_timer *first = sw_heap_peek(&t->heap);
	unsigned int id;

	KUNIT_ASSERT_EQ(test, t->heap.nr, (unsigned long)t->ref.nr);
	for (id = 0; id < SW_HT_TIMERS; id++) {
		unsigned int i = sw_ht_ref_find(&t->ref, id);
		bool pending = i < t->ref.nr;

		KUNIT_ASSERT_EQ(test, sw_heap_timer_pending(&t->timer[id]), pending);
		if (pending)
			KUNIT_ASSERT_EQ(test, t->timer[id].expires, t->ref.expires[i]);
	}
	if (!t->ref.nr) {
		KUNIT_ASSERT_NULL(test, first);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, first);
	/* Of timers due at the same tick, any may come first */
	KUNIT_ASSERT_EQ(test, first->expires, t->ref.expires[0]);
}

/* Everything due at @now out of the heap, as out of the reference */
static void sw_ht_pop_due(struct kunit *test, struct sw_ht *t, unsigned long now)
{
	struct sw_heap_timer *timer;

	while ((timer = sw_heap_pop_due(&t->heap, now))) {
		unsigned int id = timer - t->timer;
		unsigned int i = sw_ht_ref_find(&t->ref, id);

		KUNIT_ASSERT_LT(test, i, t->ref.nr);
		KUNIT_ASSERT_EQ(test, t->ref.expires[i], t->ref.expires[0]);
		KUNIT_ASSERT_LE(test, (long)(timer->expires - now), 0L);
		KUNIT_ASSERT_FALSE(test, sw_heap_timer_pending(timer));
		sw_ht_ref_del(&t->ref, i);
	}
	/* Nothing due left behind */
	if (t->ref.nr)
		KUNIT_ASSERT_GT(test, (long)(t->ref.expires[0] - now), 0L);
}

/* One random operation at @now: arm or move, cancel, or run what is due */
static void sw_ht_step(struct kunit *test, struct sw_ht *t, struct rnd_state *rnd,
		       unsigned long now)
{
	u32 r = prandom_u32_state(rnd);
	unsigned int id = r % SW_HT_TIMERS;
	unsigned int i = sw_ht_ref_find(&t->ref, id);
	bool pending = i < t->ref.nr;
	unsigned long expires;

	switch ((r >> 8) % 8) {
	case 0:
		sw_ht_pop_due(test, t, now);
		break;
	case 1:
	case 2:
		KUNIT_ASSERT_EQ(test, sw_heap_cancel(&t->heap, &t->timer[id]), pending);
		if (pending)
			sw_ht_ref_del(&t->ref, i);
		break;
	default:
		/* Due soon, often at the same tick as others, some in the past */
		expires = now - 8 + prandom_u32_state(rnd) % 200;
		KUNIT_ASSERT_EQ(test, sw_heap_modify(&t->heap, &t->timer[id], expires), 0);
		sw_ht_ref_set(&t->ref, id, expires);
		break;
	}
	sw_ht_expect_same(test, t);
}

static struct sw_ht *sw_ht_new(struct kunit *test, unsigned long size)
{
	struct sw_ht *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	sw_heap_init(&t->heap, t->slots, size);
	return t;
}

/* Many random operations, the heap against the sorted array, across the wrap */
static void sw_heap_matches_a_sorted_array(struct kunit *test)
{
	static const unsigned long starts[] = { 0, 1000, LONG_MAX - 5000, ULONG_MAX - 5000 };
	unsigned int s, n;

	for (s = 0; s < ARRAY_SIZE(starts); s++) {
		struct sw_ht *t = sw_ht_new(test, SW_HT_TIMERS);
		unsigned long now = starts[s];
		struct rnd_state rnd;

		prandom_seed_state(&rnd, 31 + s);
		sw_ht_expect_same(test, t);
		for (n = 0; n < SW_HT_OPS; n++) {
			sw_ht_step(test, t, &rnd, now);
			/* The clock moves on now and then, over the wrap for the last start */
			if (!(n % 4))
				now++;
		}
		sw_ht_pop_due(test, t, now + 1000);
		sw_ht_expect_same(test, t);
		KUNIT_EXPECT_EQ(test, t->heap.nr, 0UL);
	}
}

/* A full heap refuses a timer not pending, and changes nothing; its own still move */
static void sw_heap_full_refuses_a_new_timer(struct kunit *test)
{
	struct sw_ht *t = sw_ht_new(test, 4);
	unsigned int id;

	for (id = 0; id < 4; id++) {
		KUNIT_ASSERT_EQ(test, sw_heap_modify(&t->heap, &t->timer[id], 100 - id), 0);
		sw_ht_ref_set(&t->ref, id, 100 - id);
	}
	KUNIT_EXPECT_EQ(test, sw_heap_modify(&t->heap, &t->timer[4], 1), -ENOSPC);
	KUNIT_EXPECT_FALSE(test, sw_heap_timer_pending(&t->timer[4]));
	sw_ht_expect_same(test, t);
	KUNIT_EXPECT_EQ(test, sw_heap_modify(&t->heap, &t->timer[0], 5), 0);
	sw_ht_ref_set(&t->ref, 0, 5);
	sw_ht_expect_same(test, t);
	KUNIT_EXPECT_TRUE(test, sw_heap_cancel(&t->heap, &t->timer[2]));
	sw_ht_ref_del(&t->ref, sw_ht_ref_find(&t->ref, 2));
	KUNIT_EXPECT_FALSE(test, sw_heap_cancel(&t->heap, &t->timer[2]));
	KUNIT_EXPECT_EQ(test, sw_heap_modify(&t->heap, &t->timer[4], 1), 0);
	sw_ht_ref_set(&t->ref, 4, 1);
	sw_ht_expect_same(test, t);
}

SW_TEST_SUITE(sw_heap_suite, "shadow_wheel_heap",
	      KUNIT_CASE(sw_heap_matches_a_sorted_array),
	      KUNIT_CASE(sw_heap_full_refuses_a_new_timer));

kunit_test_suites(&sw_heap_suite);

MODULE_DESCRIPTION("KUnit tests for the shadow-wheel timer heap");
MODULE_LICENSE("GPL");
