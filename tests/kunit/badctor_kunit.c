// SPDX-License-Identifier: GPL-2.0
/*
 * A KUnit suite whose load takes the host down, for tests/harden_cli.sh:
 * built twice, with BADCTOR_SEGV (a constructor dereferences NULL) and
 * BADCTOR_SPIN (it never returns). A constructor runs at dlopen(), before
 * any case and outside kmodel-kunit's runs: the tool tries the suite's
 * load in a forked child first, names it and exits 2, never killed by
 * SIGSEGV or hung.
 */
#include <linux/module.h>
#include <kunit/test.h>

static void badctor_never(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1, 1);
}

static struct kunit_case badctor_cases[] = {
	KUNIT_CASE(badctor_never),
	{}
};

static struct kunit_suite badctor_suite = {
	.name = "kunit_badctor",
	.test_cases = badctor_cases,
};
kunit_test_suites(&badctor_suite);

__attribute__((constructor)) static void badctor(void)
{
#ifdef BADCTOR_SEGV
	/* (through a volatile pointer: a constant NULL store let GCC 12 drop
	 * the constructor as unreachable) */
	int *volatile p = NULL;

	*p = 0;		/* SIGSEGV */
#endif
#ifdef BADCTOR_SPIN
	for (volatile int forever = 1; forever;)
		;
#endif
}
MODULE_LICENSE("GPL");
