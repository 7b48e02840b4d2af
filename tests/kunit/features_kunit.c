// SPDX-License-Identifier: GPL-2.0
/*
 * The layer's <kunit/test.h> against include/kunit/test.h and
 * lib/kunit/assert.c (mainline): a suite whose cases pass, fail, skip and
 * take parameters on purpose; tests/kunit_cli.sh checks kmodel-kunit's
 * KTAP lines and the failure texts against the kernel's formats.
 */
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <kunit/test.h>

struct features_priv {
	int inited;
	char *buf;
};

static int features_init(struct kunit *test)
{
	struct features_priv *priv = kunit_kzalloc(test, sizeof(*priv), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, priv);
	priv->inited = 42;
	priv->buf = kunit_kmalloc(test, 16, GFP_KERNEL);	/* freed after the case */
	test->priv = priv;
	return 0;
}

static void features_exit(struct kunit *test)
{
	struct features_priv *priv = test->priv;

	priv->inited = 0;
}

/* passes: init ran, its memory is there, kunit_kzalloc() zeroed */
static void features_priv(struct kunit *test)
{
	struct features_priv *priv = test->priv;

	KUNIT_EXPECT_EQ(test, priv->inited, 42);
	KUNIT_EXPECT_NOT_NULL(test, priv->buf);
	KUNIT_EXPECT_PTR_NE(test, priv, NULL);
	KUNIT_EXPECT_STREQ(test, "abc", "abc");
	KUNIT_EXPECT_MEMEQ(test, "abc", "abc", 3);
	KUNIT_EXPECT_TRUE(test, priv->inited > 0);
	KUNIT_EXPECT_FALSE(test, priv->inited < 0);
	KUNIT_SUCCEED(test);
}

/* fails: lib/kunit/assert.c's texts (the kernel documentation's example
 * "Expected 1 + 1 == 3, but / 1 + 1 == 2 (0x2)") */
static void features_expect_fails(struct kunit *test)
{
	const char *s = "abd";

	KUNIT_EXPECT_EQ(test, 1 + 1, 3);
	KUNIT_EXPECT_STREQ_MSG(test, s, "abc", "strings %d", 7);
}

/* fails once: an assertion ends the case, the rest does not run */
static void features_assert_ends(struct kunit *test)
{
	int x = 1;

	KUNIT_ASSERT_TRUE(test, x == 2);
	KUNIT_FAIL(test, "after the assertion: never printed");
}

/* skipped, with its reason */
static void features_skip(struct kunit *test)
{
	kunit_skip(test, "not on this machine");
	KUNIT_FAIL(test, "after kunit_skip(): never printed");
}

/* fails on a BUG report: preemption left disabled when the case's task exits */
static void features_bug(struct kunit *test)
{
	preempt_disable();
}

/* parameters: "n=1", "n=2", "n=3"; n=2 fails */
static const int features_values[] = { 1, 2, 3 };

static void features_desc(const int *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "n=%d", *v);
}

KUNIT_ARRAY_PARAM(features_values, features_values, features_desc);

static void features_param(struct kunit *test)
{
	const int *v = test->param_value;

	KUNIT_EXPECT_NE(test, *v, 2);
}

static struct kunit_case features_cases[] = {
	KUNIT_CASE(features_priv),
	KUNIT_CASE(features_expect_fails),
	KUNIT_CASE(features_assert_ends),
	KUNIT_CASE(features_skip),
	KUNIT_CASE(features_bug),
	KUNIT_CASE_PARAM(features_param, features_values_gen_params),
	{}
};

static struct kunit_suite features_suite = {
	.name = "kunit_features",
	.init = features_init,
	.exit = features_exit,
	.test_cases = features_cases,
};

kunit_test_suite(features_suite);
MODULE_LICENSE("GPL");
