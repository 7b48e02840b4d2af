// SPDX-License-Identifier: GPL-2.0
/* A suite whose case never ends at its third parameter: kmodel-kunit kills
 * its run at --timeout and reports it failed; the two parameters before it
 * are still listed, the case after it as not run (tests/kunit_cli.sh). */
#include <linux/module.h>
#include <kunit/test.h>

static const int loop_values[] = { 1, 2, 3 };

static void loop_desc(const int *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "n=%d", *v);
}

KUNIT_ARRAY_PARAM(loop_values, loop_values, loop_desc);

static void loop_forever(struct kunit *test)
{
	const int *v = test->param_value;
	volatile unsigned long spins = 0;

	while (*v == 3)
		spins++;
	KUNIT_EXPECT_NE(test, *v, 3);
}

static void loop_after(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1, 1);
}

static struct kunit_case loop_cases[] = {
	KUNIT_CASE_PARAM(loop_forever, loop_values_gen_params),
	KUNIT_CASE(loop_after),
	{}
};

static struct kunit_suite loop_suite = {
	.name = "kunit_loop",
	.test_cases = loop_cases,
};
kunit_test_suite(loop_suite);
MODULE_LICENSE("GPL");
