// SPDX-License-Identifier: GPL-2.0
/* A suite whose two cases pass and whose suite_exit dereferences NULL:
 * the crash is the suite_exit's, listed after the cases, and the next
 * suite did not run (tests/kunit_cli.sh). */
#include <linux/module.h>
#include <kunit/test.h>

static void exitcrash_a(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1, 1);
}

static void exitcrash_exit(struct kunit_suite *suite)
{
	int *volatile p = NULL;

	*p = 1;
}

static struct kunit_case exitcrash_cases[] = {
	KUNIT_CASE(exitcrash_a),
	KUNIT_CASE(exitcrash_a),
	{}
};

static struct kunit_suite exitcrash_suite = {
	.name = "kunit_exitcrash",
	.suite_exit = exitcrash_exit,
	.test_cases = exitcrash_cases,
};

static struct kunit_suite exitcrash_next = {
	.name = "kunit_exitcrash_next",
	.test_cases = exitcrash_cases,
};
kunit_test_suites(&exitcrash_suite, &exitcrash_next);
MODULE_LICENSE("GPL");
