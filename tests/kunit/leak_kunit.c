// SPDX-License-Identifier: GPL-2.0
/* A case that leaks a page reference (get_user_pages_fast() without
 * put_page()) and a case that does nothing wrong after it, on the one
 * machine a suite's cases share: the leak is the first case's BUG only
 * (tests/kunit_cli.sh). */
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/uaccess.h>
#include <kunit/test.h>

static void leak_gupf(struct kunit *test)
{
	static const char src[8] = "leaked!";
	struct page *page;
	unsigned long u;

	u = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			  MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE(test, u, 0UL);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)u, src, sizeof(src)), 0UL);
	KUNIT_ASSERT_EQ(test, get_user_pages_fast(u, 1, FOLL_WRITE, &page), 1);
	/* no put_page(page) */
}

static void fine(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1, 1);
}

static struct kunit_case leak_cases[] = {
	KUNIT_CASE(leak_gupf),
	KUNIT_CASE(fine),
	{}
};

static struct kunit_suite leak_suite = {
	.name = "kunit_leak",
	.test_cases = leak_cases,
};
kunit_test_suites(&leak_suite);
MODULE_LICENSE("GPL");
