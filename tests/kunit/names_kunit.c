// SPDX-License-Identifier: GPL-2.0
/*
 * The KUnit and kernel names real suites use, through the layer as a user
 * compiles them, each against the kernel's semantics (tests/kunit_cli.sh
 * checks the KTAP lines):
 * - KUNIT_ARRAY_PARAM_DESC() (include/kunit/test.h, mainline): each
 *   parameter described by a member of its array element;
 * - kunit_add_action(), kunit_add_action_or_reset(), kunit_remove_action(),
 *   kunit_release_action(), KUNIT_DEFINE_ACTION_WRAPPER()
 *   (include/kunit/resource.h, lib/kunit/resource.c, mainline): deferred
 *   actions run after the exit hook, the last added first, also after a
 *   failed assertion; a removed one never, a released one at once and
 *   not again, the most recent of a repeated pair only;
 * - alloc_page() and __free_page() (include/linux/gfp.h, mm/page_alloc.c,
 *   v5.7): __GFP_ZERO, __GFP_HIGHMEM (a page without a permanent mapping
 *   on a machine with highmem), GFP_ATOMIC in atomic context; GFP_KERNEL
 *   there is might_sleep()'s BUG;
 * - __copy_from_user_inatomic() (include/linux/uaccess.h): no fault-in
 *   under pagefault_disable(), a short count at a hole; from v4.12 the
 *   tail is left as it was, before it ARM's fixup zeroes it
 *   (names_pre412_kunit.c builds this file at 4.11).
 */
#include <linux/highmem.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <kunit/test.h>

struct names_param {
	int n;
	const char *name;
};

static const struct names_param names_params[] = { { 1, "one" }, { 2, "two" } };

KUNIT_ARRAY_PARAM_DESC(names_params, names_params, name);

static void names_param_desc(struct kunit *test)
{
	const struct names_param *p = test->param_value;

	KUNIT_EXPECT_EQ(test, p->n, (int)(p - names_params) + 1);
}

/* an action's record: it logs its number on the case it belongs to */
struct names_note {
	struct kunit *test;
	int n;
};

static void names_note_log(struct names_note *note)
{
	kunit_info(note->test, "action %d", note->n);
}

KUNIT_DEFINE_ACTION_WRAPPER(names_note_action, names_note_log, struct names_note *);

/* kunit_kcalloc() before the actions: freed after them (one LIFO list) */
static struct names_note *names_notes(struct kunit *test, int n)
{
	struct names_note *notes = kunit_kcalloc(test, n, sizeof(*notes), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, notes);
	for (int i = 0; i < n; i++)
		notes[i] = (struct names_note){ test, i + 1 };
	return notes;
}

static void names_exit(struct kunit *test)
{
	kunit_info(test, "exit");
}

static void names_actions(struct kunit *test)
{
	struct names_note *notes = names_notes(test, 4);

	KUNIT_EXPECT_EQ(test, kunit_add_action(test, names_note_action, &notes[0]), 0);
	KUNIT_EXPECT_EQ(test, kunit_add_action_or_reset(test, names_note_action, &notes[1]), 0);
	KUNIT_EXPECT_EQ(test, kunit_add_action(test, names_note_action, &notes[2]), 0);
	KUNIT_EXPECT_EQ(test, kunit_add_action(test, names_note_action, &notes[2]), 0);
	KUNIT_EXPECT_EQ(test, kunit_add_action(test, names_note_action, &notes[3]), 0);
	kunit_remove_action(test, names_note_action, &notes[3]);
	kunit_release_action(test, names_note_action, &notes[2]);
	kunit_info(test, "case ends");
}

static void names_action_after_assert(struct kunit *test)
{
	struct names_note *notes = names_notes(test, 1);

	kunit_add_action(test, names_note_action, &notes[0]);
	KUNIT_ASSERT_EQ(test, 1, 2);
	kunit_info(test, "never printed");
}

static void names_alloc_page(struct kunit *test)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	unsigned char *v;

	/* without __GFP_HIGHMEM: ZONE_NORMAL, in the direct map */
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_NOT_NULL(test, page_address(page));
	KUNIT_EXPECT_NULL(test, memchr_inv(page_address(page), 0, PAGE_SIZE));
	__free_page(page);

	page = alloc_page(GFP_KERNEL | __GFP_HIGHMEM);
	KUNIT_ASSERT_NOT_NULL(test, page);
	kunit_info(test, "__GFP_HIGHMEM: %s", page_address(page) ? "lowmem" : "highmem");
	v = kmap(page);
	v[0] = 0x5a;
	KUNIT_EXPECT_EQ(test, v[0], 0x5a);
	kunmap(page);
	__free_page(page);

	/* GFP_ATOMIC does not sleep: no report in atomic context */
	preempt_disable();
	page = alloc_page(GFP_ATOMIC);
	preempt_enable();
	KUNIT_ASSERT_NOT_NULL(test, page);
	__free_page(page);
}

static void names_alloc_page_sleeps(struct kunit *test)
{
	struct page *page;

	preempt_disable();
	page = alloc_page(GFP_KERNEL);
	preempt_enable();
	if (page)
		__free_page(page);
}

static void names_copy_inatomic(struct kunit *test)
{
	static const char src[16] = "0123456789abcdef";
	unsigned char buf[16], stale[8];
	unsigned long u, left;

	u = kunit_vm_mmap(test, NULL, 0, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE,
			  MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE(test, u, 0UL);
	KUNIT_ASSERT_EQ(test, vm_munmap(u + PAGE_SIZE, PAGE_SIZE), 0);
	/* the last 8 bytes of the first page, resident; a hole after them */
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)(u + PAGE_SIZE - 8), src, 8), 0UL);

	memset(buf, 0xaa, sizeof(buf));
	memset(stale, 0xaa, sizeof(stale));
	pagefault_disable();
	left = __copy_from_user_inatomic(buf, (const void __user *)(u + PAGE_SIZE - 8), 16);
	pagefault_enable();
	KUNIT_EXPECT_EQ(test, left, 8UL);
	KUNIT_EXPECT_MEMEQ(test, buf, src, 8);
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(4, 12, 0)
	KUNIT_EXPECT_MEMEQ(test, buf + 8, stale, 8);
#else
	KUNIT_EXPECT_NULL(test, memchr_inv(buf + 8, 0, 8));
#endif

	/* the third page was never touched: no fault-in with page faults off */
	pagefault_disable();
	left = __copy_from_user_inatomic(buf, (const void __user *)(u + 2 * PAGE_SIZE), 16);
	pagefault_enable();
	KUNIT_EXPECT_EQ(test, left, 16UL);
}

static struct kunit_case names_cases[] = {
	KUNIT_CASE_PARAM(names_param_desc, names_params_gen_params),
	KUNIT_CASE(names_actions),
	KUNIT_CASE(names_action_after_assert),
	KUNIT_CASE(names_alloc_page),
	KUNIT_CASE(names_alloc_page_sleeps),
	KUNIT_CASE(names_copy_inatomic),
	{}
};

static struct kunit_suite names_suite = {
	.name = "kunit_names",
	.exit = names_exit,
	.test_cases = names_cases,
};
kunit_test_suite(names_suite);
MODULE_LICENSE("GPL");
