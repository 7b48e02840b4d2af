// SPDX-License-Identifier: GPL-2.0
/* A suite whose second case dereferences NULL: kmodel-kunit runs each
 * machine x variant in a process of its own, so the crash ends that run
 * only, reported failed with the signal; the case before it is still
 * listed, the case after it and the next suite as not run
 * (tests/kunit_cli.sh). */
#include <linux/module.h>
#include <kunit/test.h>

static void crash_first(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1, 1);
}

static void crash_null(struct kunit *test)
{
	int *volatile p = NULL;

	KUNIT_EXPECT_EQ(test, *p, 0);
}

static void crash_after(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 2, 2);
}

static struct kunit_case crash_cases[] = {
	KUNIT_CASE(crash_first),
	KUNIT_CASE(crash_null),
	KUNIT_CASE(crash_after),
	{}
};

static struct kunit_suite crash_suite = {
	.name = "kunit_crash",
	.test_cases = crash_cases,
};

static struct kunit_case later_cases[] = {
	KUNIT_CASE(crash_after),
	{}
};

static struct kunit_suite later_suite = {
	.name = "kunit_crash_later",
	.test_cases = later_cases,
};
kunit_test_suites(&crash_suite, &later_suite);
MODULE_LICENSE("GPL");
