// SPDX-License-Identifier: GPL-2.0
/* A suite whose second case dereferences NULL: kmodel-kunit runs each
 * machine x variant in a process of its own, so the crash ends that run
 * only, reported failed with the signal (tests/kunit_cli.sh). */
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

static struct kunit_case crash_cases[] = {
	KUNIT_CASE(crash_first),
	KUNIT_CASE(crash_null),
	{}
};

static struct kunit_suite crash_suite = {
	.name = "kunit_crash",
	.test_cases = crash_cases,
};
kunit_test_suite(crash_suite);
MODULE_LICENSE("GPL");
