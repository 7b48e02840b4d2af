// SPDX-License-Identifier: GPL-2.0
/*
 * A KUnit suite of the raw contract at a hole (include/linux/uaccess.h,
 * v5.7: copy_{from,to}_user return the bytes not copied; a copy that
 * reaches an inaccessible page copies what lies before it): a mapped page
 * with an unmapped page after it and one before it, every size 0..128 at
 * every offset -128..+128 around each edge, both directions, through the
 * layer's copy_from_user() and copy_to_user() -- the variant of the run.
 * The expected count comes from the layout alone: the bytes that lie in
 * the mapped page are copied, up to the first inaccessible byte.
 * The 2020 RFC's partial pin returns n (nothing copied) where a copy
 * straddles the hole: it fails the straddling cases; the others pass.
 */
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <kunit/test.h>

struct boundary_priv {
	unsigned long page;	/* the mapped page; holes before and after it */
	char *kbuf;
};

static int boundary_init(struct kunit *test)
{
	struct boundary_priv *priv = kunit_kzalloc(test, sizeof(*priv), GFP_KERNEL);
	unsigned long u;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, priv);
	/* three pages, the outer two unmapped again: hole, page, hole */
	u = vm_mmap(NULL, 0, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_LT(test, u, (unsigned long)TASK_SIZE);
	KUNIT_ASSERT_EQ(test, vm_munmap(u, PAGE_SIZE), 0);
	KUNIT_ASSERT_EQ(test, vm_munmap(u + 2 * PAGE_SIZE, PAGE_SIZE), 0);
	priv->page = u + PAGE_SIZE;
	priv->kbuf = kunit_kzalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, priv->kbuf);
	test->priv = priv;
	return 0;
}

/* bytes not copied of [start, start + n) when only [page, page + PAGE_SIZE)
 * is accessible: all if it starts outside, else what runs past its end */
static unsigned long expected_left(unsigned long page, unsigned long start, unsigned long n)
{
	if (!n)
		return 0;
	if (start < page || start >= page + PAGE_SIZE)
		return n;
	return start + n > page + PAGE_SIZE ? start + n - (page + PAGE_SIZE) : 0;
}

static void boundary_sweep(struct kunit *test, bool to_user, unsigned long edge)
{
	struct boundary_priv *priv = test->priv;
	unsigned int failures = 0;

	for (long off = -128; off <= 128; off++) {
		for (unsigned long n = 0; n <= 128; n++) {
			unsigned long start = edge + off, left;

			if (to_user)
				left = copy_to_user((void __user *)start, priv->kbuf, n);
			else
				left = copy_from_user(priv->kbuf, (const void __user *)start, n);
			if (left != expected_left(priv->page, start, n) && failures++ < 3)
				KUNIT_FAIL(test, "%s at edge%+ld, n %lu: %lu bytes not copied, want %lu",
					   to_user ? "copy_to_user" : "copy_from_user", off, n,
					   left, expected_left(priv->page, start, n));
		}
	}
	if (failures > 3)
		KUNIT_FAIL(test, "... %u failing cases in all", failures);
}

static void boundary_from_user_leading(struct kunit *test)
{
	boundary_sweep(test, false, ((struct boundary_priv *)test->priv)->page);
}

static void boundary_from_user_trailing(struct kunit *test)
{
	boundary_sweep(test, false, ((struct boundary_priv *)test->priv)->page + PAGE_SIZE);
}

static void boundary_to_user_leading(struct kunit *test)
{
	boundary_sweep(test, true, ((struct boundary_priv *)test->priv)->page);
}

static void boundary_to_user_trailing(struct kunit *test)
{
	boundary_sweep(test, true, ((struct boundary_priv *)test->priv)->page + PAGE_SIZE);
}

static struct kunit_case boundary_cases[] = {
	KUNIT_CASE(boundary_from_user_leading),
	KUNIT_CASE(boundary_from_user_trailing),
	KUNIT_CASE(boundary_to_user_leading),
	KUNIT_CASE(boundary_to_user_trailing),
	{}
};

static struct kunit_suite boundary_suite = {
	.name = "uaccess_boundary",
	.init = boundary_init,
	.test_cases = boundary_cases,
};

kunit_test_suite(boundary_suite);
MODULE_LICENSE("GPL");
