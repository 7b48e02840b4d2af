// SPDX-License-Identifier: GPL-2.0
/* A KUnit suite of your own: a strncpy_from_user() caller, tested on every
 * uaccess variant by kmodel-kunit (see docs/kunit.md). */
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/uaccess.h>
#include <kunit/test.h>

/* the code under test: a name copied in from user space */
static long get_name(char *buf, long size, const char __user *uname)
{
	long n = strncpy_from_user(buf, uname, size);

	if (n < 0)
		return n;
	return n == size ? -ENAMETOOLONG : n;
}

static void my_get_name(struct kunit *test)
{
	unsigned long u = vm_mmap(NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
				  MAP_ANONYMOUS | MAP_PRIVATE, 0);
	char buf[16];

	KUNIT_ASSERT_LT(test, u, (unsigned long)TASK_SIZE);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)u, "eth0", 5), 0);
	KUNIT_EXPECT_EQ(test, get_name(buf, sizeof(buf), (const char __user *)u), 4);
	KUNIT_EXPECT_STREQ(test, buf, "eth0");
	/* the last bytes of the page: no NUL before the hole */
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)(u + PAGE_SIZE - 2), "ab", 2), 0);
	KUNIT_EXPECT_EQ(test, get_name(buf, sizeof(buf), (const char __user *)(u + PAGE_SIZE - 2)),
			-EFAULT);
}

/* a table of inputs, each described by its desc member; the user buffer
 * of each is unmapped by a deferred action when the case ends */
struct my_name {
	const char *name;
	long want;
	const char *desc;
};

static const struct my_name my_names[] = {
	{ "eth0", 4, "short" },
	{ "fifteen_chars_a", 15, "fits" },
	{ "sixteen_chars_ab", -ENAMETOOLONG, "too long" },
};

KUNIT_ARRAY_PARAM_DESC(my_names, my_names, desc);

static void my_unmap(void *u)
{
	vm_munmap((unsigned long)u, PAGE_SIZE);
}

static void my_get_name_table(struct kunit *test)
{
	const struct my_name *p = test->param_value;
	unsigned long u = vm_mmap(NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
				  MAP_ANONYMOUS | MAP_PRIVATE, 0);
	char buf[16];

	KUNIT_ASSERT_LT(test, u, (unsigned long)TASK_SIZE);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, my_unmap, (void *)u), 0);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)u, p->name, strlen(p->name) + 1), 0);
	KUNIT_EXPECT_EQ(test, get_name(buf, sizeof(buf), (const char __user *)u), p->want);
}

static struct kunit_case my_cases[] = {
	KUNIT_CASE(my_get_name),
	KUNIT_CASE_PARAM(my_get_name_table, my_names_gen_params),
	{}
};

static struct kunit_suite my_suite = {
	.name = "my_get_name",
	.test_cases = my_cases,
};
kunit_test_suite(my_suite);
MODULE_LICENSE("GPL");
