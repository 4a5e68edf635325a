/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of the kernel's <kunit/test.h> the shadow-wheel suites use, for
 * running the very same suites in user space (kunit/user/kunit-user.c),
 * where AddressSanitizer, UndefinedBehaviorSanitizer and valgrind can watch
 * the core. Expectations and assertions compare as the kernel's do (each
 * operand evaluated once); a failed assertion ends the test case.
 */
#ifndef _SW_UKUNIT_TEST_H
#define _SW_UKUNIT_TEST_H

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/types.h>

#define KUNIT_PARAM_DESC_SIZE	128

struct kunit_resource;

/* One run of a test case (one parameter of a parameterised case) */
struct kunit {
	const char		*name;
	void			*param_value;
	bool			failed;
	jmp_buf			abort;
	struct kunit_resource	*resources;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
};

struct kunit_suite {
	const char name[256];
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(test_name)	{ .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_PARAM(test_name, gen_params)					\
	{ .run_case = test_name, .name = #test_name, .generate_params = gen_params }

void kunit_register_suites(struct kunit_suite **suites, size_t nr);

/* One per file, as in the kernel: registered before main() runs */
#define kunit_test_suites(...)							\
	static struct kunit_suite *sw_ukunit_file_suites[] = { __VA_ARGS__ };	\
	static void __attribute__((constructor)) sw_ukunit_file_register(void)	\
	{									\
		kunit_register_suites(sw_ukunit_file_suites,			\
				      ARRAY_SIZE(sw_ukunit_file_suites));	\
	}

/* What <kunit/test.h> brings in from <linux/module.h> */
#define MODULE_LICENSE(license)
#define MODULE_DESCRIPTION(description)
#define MODULE_AUTHOR(author)

/* Memory freed when the test case ends, pass or fail */
void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size, gfp_t gfp);

static inline void *kunit_kcalloc(struct kunit *test, size_t n, size_t size, gfp_t gfp)
{
	return kunit_kmalloc_array(test, n, size, gfp | __GFP_ZERO);
}

static inline void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	return kunit_kcalloc(test, 1, size, gfp);
}

void __attribute__((format(printf, 7, 8)))
kunit_report(struct kunit *test, bool assert, const char *file, int line,
	     const char *what, const char *values, const char *fmt, ...);
void __attribute__((noreturn)) kunit_abort(struct kunit *test);

/*
 * The check behind every macro: @values is printed with the operands'
 * values, the message (fmt, ...) after it; an assertion ends the case.
 */
#define KUNIT_CHECK(test, assert, cond, what, values, fmt, ...)			\
	do {									\
		if (!(cond)) {							\
			kunit_report(test, assert, __FILE__, __LINE__, what,	\
				     values, fmt, ##__VA_ARGS__);		\
			if (assert)						\
				kunit_abort(test);				\
		}								\
	} while (0)

#define KUNIT_BINARY(test, assert, left, op, right, fmt, ...)			\
	do {									\
		typeof(left) __left = (left);					\
		typeof(right) __right = (right);				\
		char __vals[96];						\
		bool __ok = __left op __right;					\
										\
		if (!__ok)							\
			snprintf(__vals, sizeof(__vals), "%lld (0x%llx) vs %lld (0x%llx)", \
				 (long long)__left, (unsigned long long)__left,	\
				 (long long)__right, (unsigned long long)__right); \
		KUNIT_CHECK(test, assert, __ok, #left " " #op " " #right,	\
			    __vals, fmt, ##__VA_ARGS__);			\
	} while (0)

#define KUNIT_PTR(test, assert, left, op, right, fmt, ...)			\
	do {									\
		const void *__left = (left), *__right = (right);		\
		char __vals[64];						\
		bool __ok = __left op __right;					\
										\
		if (!__ok)							\
			snprintf(__vals, sizeof(__vals), "%p vs %p", __left, __right); \
		KUNIT_CHECK(test, assert, __ok, #left " " #op " " #right,	\
			    __vals, fmt, ##__VA_ARGS__);			\
	} while (0)

#define KUNIT_BOOL(test, assert, cond, expect, fmt, ...)			\
	KUNIT_CHECK(test, assert, (!!(cond)) == (expect),				\
		    (expect) ? #cond " is true" : #cond " is false", "", fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_EQ_MSG(t, l, r, fmt, ...)	KUNIT_BINARY(t, false, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, l, r, fmt, ...)	KUNIT_BINARY(t, false, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, fmt, ...)	KUNIT_BINARY(t, false, l, <, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, l, r, fmt, ...)	KUNIT_BINARY(t, false, l, <=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, l, r, fmt, ...)	KUNIT_BINARY(t, false, l, >, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, fmt, ...)	KUNIT_BINARY(t, false, l, >=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_TRUE_MSG(t, c, fmt, ...)	KUNIT_BOOL(t, false, c, true, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, fmt, ...)	KUNIT_BOOL(t, false, c, false, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_EQ_MSG(t, l, r, fmt, ...) KUNIT_PTR(t, false, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_NE_MSG(t, l, r, fmt, ...) KUNIT_PTR(t, false, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NULL_MSG(t, p, fmt, ...)	KUNIT_PTR(t, false, p, ==, NULL, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL_MSG(t, p, fmt, ...) KUNIT_PTR(t, false, p, !=, NULL, fmt, ##__VA_ARGS__)

#define KUNIT_ASSERT_EQ_MSG(t, l, r, fmt, ...)	KUNIT_BINARY(t, true, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NE_MSG(t, l, r, fmt, ...)	KUNIT_BINARY(t, true, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(t, l, r, fmt, ...)	KUNIT_BINARY(t, true, l, <, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(t, l, r, fmt, ...)	KUNIT_BINARY(t, true, l, <=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GT_MSG(t, l, r, fmt, ...)	KUNIT_BINARY(t, true, l, >, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(t, l, r, fmt, ...)	KUNIT_BINARY(t, true, l, >=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(t, c, fmt, ...)	KUNIT_BOOL(t, true, c, true, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_FALSE_MSG(t, c, fmt, ...)	KUNIT_BOOL(t, true, c, false, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_EQ_MSG(t, l, r, fmt, ...) KUNIT_PTR(t, true, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NULL_MSG(t, p, fmt, ...)	KUNIT_PTR(t, true, p, ==, NULL, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL_MSG(t, p, fmt, ...) KUNIT_PTR(t, true, p, !=, NULL, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_STREQ_MSG(t, l, r, fmt, ...)				\
	KUNIT_CHECK(t, false, !strcmp(l, r), #l " == " #r, "", fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_EQ(t, l, r)	KUNIT_EXPECT_EQ_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_NE(t, l, r)	KUNIT_EXPECT_NE_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_LT(t, l, r)	KUNIT_EXPECT_LT_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_LE(t, l, r)	KUNIT_EXPECT_LE_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_GT(t, l, r)	KUNIT_EXPECT_GT_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_GE(t, l, r)	KUNIT_EXPECT_GE_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_TRUE(t, c)		KUNIT_EXPECT_TRUE_MSG(t, c, NULL)
#define KUNIT_EXPECT_FALSE(t, c)	KUNIT_EXPECT_FALSE_MSG(t, c, NULL)
#define KUNIT_EXPECT_PTR_EQ(t, l, r)	KUNIT_EXPECT_PTR_EQ_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_PTR_NE(t, l, r)	KUNIT_EXPECT_PTR_NE_MSG(t, l, r, NULL)
#define KUNIT_EXPECT_NULL(t, p)		KUNIT_EXPECT_NULL_MSG(t, p, NULL)
#define KUNIT_EXPECT_NOT_NULL(t, p)	KUNIT_EXPECT_NOT_NULL_MSG(t, p, NULL)
#define KUNIT_EXPECT_STREQ(t, l, r)	KUNIT_EXPECT_STREQ_MSG(t, l, r, NULL)

#define KUNIT_ASSERT_EQ(t, l, r)	KUNIT_ASSERT_EQ_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_NE(t, l, r)	KUNIT_ASSERT_NE_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_LT(t, l, r)	KUNIT_ASSERT_LT_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_LE(t, l, r)	KUNIT_ASSERT_LE_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_GT(t, l, r)	KUNIT_ASSERT_GT_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_GE(t, l, r)	KUNIT_ASSERT_GE_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_TRUE(t, c)		KUNIT_ASSERT_TRUE_MSG(t, c, NULL)
#define KUNIT_ASSERT_FALSE(t, c)	KUNIT_ASSERT_FALSE_MSG(t, c, NULL)
#define KUNIT_ASSERT_PTR_EQ(t, l, r)	KUNIT_ASSERT_PTR_EQ_MSG(t, l, r, NULL)
#define KUNIT_ASSERT_NULL(t, p)		KUNIT_ASSERT_NULL_MSG(t, p, NULL)
#define KUNIT_ASSERT_NOT_NULL(t, p)	KUNIT_ASSERT_NOT_NULL_MSG(t, p, NULL)

#endif
