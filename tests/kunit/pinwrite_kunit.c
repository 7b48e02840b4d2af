// SPDX-License-Identifier: GPL-2.0
/* A page pinned with FOLL_WRITE, written through kmap() and unpinned:
 * clean, as drivers/xen/gntdev.c left its grant copy's pages before
 * 779055842da5 ("xen/gntdev.c: Mark pages as dirty", v5.9), and after
 * set_page_dirty_lock() or unpin_user_pages_dirty_lock(..., true), as the
 * fix and mm/gup.c want. kmodel-kunit's machines check pinned writes, so
 * the first is a pin_not_dirtied BUG (tests/kunit_cli.sh). */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <kunit/test.h>

/* a resident page of a fresh mapping, pinned for write, written */
static struct page *pin_and_write(struct kunit *test)
{
	static const char src[8] = "granted";
	struct page *page;
	unsigned long u;
	void *p;

	u = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			  MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE(test, u, 0UL);
	KUNIT_ASSERT_EQ(test, clear_user((void __user *)u, PAGE_SIZE), 0UL);
	KUNIT_ASSERT_EQ(test, pin_user_pages_fast(u, 1, FOLL_WRITE, &page), 1);
	p = kmap(page);
	memcpy(p, src, sizeof(src));
	kunmap(page);
	return page;
}

static void pinwrite_clean(struct kunit *test)
{
	unpin_user_page(pin_and_write(test));
}

static void pinwrite_dirtied(struct kunit *test)
{
	struct page *page = pin_and_write(test);

	set_page_dirty_lock(page);
	unpin_user_page(page);
}

static void pinwrite_dirty_lock(struct kunit *test)
{
	struct page *page = pin_and_write(test);

	unpin_user_pages_dirty_lock(&page, 1, true);
}

static struct kunit_case pinwrite_cases[] = {
	KUNIT_CASE(pinwrite_clean),
	KUNIT_CASE(pinwrite_dirtied),
	KUNIT_CASE(pinwrite_dirty_lock),
	{}
};

static struct kunit_suite pinwrite_suite = {
	.name = "kunit_pinwrite",
	.test_cases = pinwrite_cases,
};
kunit_test_suites(&pinwrite_suite);
MODULE_LICENSE("GPL");
