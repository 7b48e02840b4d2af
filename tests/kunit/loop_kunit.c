// SPDX-License-Identifier: GPL-2.0
/* A suite whose case never ends: kmodel-kunit kills its run at --timeout
 * and reports it failed (tests/kunit_cli.sh). */
#include <linux/module.h>
#include <kunit/test.h>

static void loop_forever(struct kunit *test)
{
	volatile unsigned long spins = 0;

	for (;;)
		spins++;
}

static struct kunit_case loop_cases[] = {
	KUNIT_CASE(loop_forever),
	{}
};

static struct kunit_suite loop_suite = {
	.name = "kunit_loop",
	.test_cases = loop_cases,
};
kunit_test_suite(loop_suite);
MODULE_LICENSE("GPL");
