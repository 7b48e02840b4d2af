// SPDX-License-Identifier: GPL-2.0
/* A suite whose case table names its second case with a pointer at which
 * no string is: kmodel-kunit reads the tables in the run's child process
 * only, so the run fails and the tool does not crash (tests/kunit_cli.sh). */
#include <linux/module.h>
#include <kunit/test.h>

static void badtable_ok(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1, 1);
}

static struct kunit_case badtable_cases[] = {
	KUNIT_CASE(badtable_ok),
	{ .run_case = badtable_ok, .name = (const char *)8 },
	{}
};

static struct kunit_suite badtable_suite = {
	.name = "kunit_badtable",
	.test_cases = badtable_cases,
};
kunit_test_suite(badtable_suite);
MODULE_LICENSE("GPL");
