/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of the KUnit API subset the driver's tests use: cases
 * run in order, an ASSERT ends its case, an EXPECT marks it failed; the
 * output is KTAP, as the kernel's.
 */
#ifndef UNIT_SHIM_KUNIT_TEST_H
#define UNIT_SHIM_KUNIT_TEST_H
#include <setjmp.h>
#include <stdio.h>
#include <linux/types.h>

struct kunit {
	const char *name;
	bool failed;
	jmp_buf abort;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(f)	{ .run_case = f, .name = #f }

extern struct kunit_suite *kunit_shim_suites[];

#define kunit_test_suite(s) \
	struct kunit_suite *kunit_shim_suites[] = { &(s), NULL }

#define kunit_info(test, fmt, ...)	printf("    # " fmt, ##__VA_ARGS__)

static inline void kunit_shim_fail(struct kunit *test, bool assert,
				   const char *file, int line, const char *cond,
				   long long l, long long r, const char *msg)
{
	printf("    # %s:%d: %s failed (%lld, %lld)%s%s\n", file, line, cond,
	       l, r, msg ? ": " : "", msg ? msg : "");
	test->failed = true;
	if (assert)
		longjmp(test->abort, 1);
}

#define KUNIT_SHIM_CMP(test, assert, l, op, r, ...) do { \
	long long __l = (long long)(l), __r = (long long)(r); \
	if (!(__l op __r)) { \
		char __m[128] = ""; \
		snprintf(__m, sizeof(__m), "" __VA_ARGS__); \
		kunit_shim_fail(test, assert, __FILE__, __LINE__, \
				#l " " #op " " #r, __l, __r, \
				__m[0] ? __m : NULL); \
	} \
} while (0)

#define KUNIT_EXPECT_EQ(t, l, r)	KUNIT_SHIM_CMP(t, false, l, ==, r)
#define KUNIT_EXPECT_LE(t, l, r)	KUNIT_SHIM_CMP(t, false, l, <=, r)
#define KUNIT_EXPECT_LT(t, l, r)	KUNIT_SHIM_CMP(t, false, l, <, r)
#define KUNIT_EXPECT_GE(t, l, r)	KUNIT_SHIM_CMP(t, false, l, >=, r)
#define KUNIT_EXPECT_TRUE(t, c)		KUNIT_SHIM_CMP(t, false, !!(c), ==, 1)
#define KUNIT_EXPECT_FALSE(t, c)	KUNIT_SHIM_CMP(t, false, !!(c), ==, 0)
#define KUNIT_EXPECT_EQ_MSG(t, l, r, ...) \
	KUNIT_SHIM_CMP(t, false, l, ==, r, __VA_ARGS__)
#define KUNIT_ASSERT_EQ(t, l, r)	KUNIT_SHIM_CMP(t, true, l, ==, r)
#define KUNIT_ASSERT_LE(t, l, r)	KUNIT_SHIM_CMP(t, true, l, <=, r)
#define KUNIT_ASSERT_LT(t, l, r)	KUNIT_SHIM_CMP(t, true, l, <, r)
#define KUNIT_ASSERT_GE(t, l, r)	KUNIT_SHIM_CMP(t, true, l, >=, r)
#define KUNIT_ASSERT_TRUE(t, c)		KUNIT_SHIM_CMP(t, true, !!(c), ==, 1)
#define KUNIT_ASSERT_TRUE_MSG(t, c, ...) \
	KUNIT_SHIM_CMP(t, true, !!(c), ==, 1, __VA_ARGS__)
#define KUNIT_SUCCEED(t)		((void)(t))

#endif
