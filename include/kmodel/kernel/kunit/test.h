/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel compatibility layer: <kunit/test.h> (include/kunit/test.h and
 * include/kunit/assert.h, mainline; lib/kunit/assert.c's messages). The
 * structs are kmodel/kunit.h's, under the kernel's names; the runtime is
 * libkmodel's (km_kunit_*), the runner kmodel-kunit. A suite file
 * compiles unchanged: kunit_test_suites() puts its suites in the plugin's
 * km_kunit_suites section, where kmodel-kunit finds them.
 *
 * A failed KUNIT_ASSERT_*() or kunit_skip() ends the case as the kernel's
 * kunit_try_catch_throw() ends its thread: here a longjmp() back to the
 * runner (no cleanup of the case's frames, as in the kernel).
 */
#ifndef KM_COMPAT_KUNIT_TEST_H
#define KM_COMPAT_KUNIT_TEST_H

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/err.h>
#include <linux/string.h>
#include <kmodel/kunit.h>

/* custom: the kernel's KUnit types are kmodel/kunit.h's */
#define kunit km_kunit
#define kunit_case km_kunit_case
#define kunit_suite km_kunit_suite
#define kunit_status km_kunit_status
#define KUNIT_SUCCESS KM_KUNIT_SUCCESS
#define KUNIT_FAILURE KM_KUNIT_FAILURE
#define KUNIT_SKIPPED KM_KUNIT_SKIPPED
#define KUNIT_PARAM_DESC_SIZE KM_KUNIT_PARAM_DESC_SIZE
#define KUNIT_EXPECTATION KM_KUNIT_EXPECTATION
#define KUNIT_ASSERTION KM_KUNIT_ASSERTION

/* duplicate (include/linux/kernel.h, v5.7, without its __must_be_array()) */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#endif

/* duplicate (include/kunit/test.h, mainline) */
#define KUNIT_CASE(test_name) \
	{ .run_case = test_name, .name = #test_name, .module_name = KBUILD_MODNAME }
#define KUNIT_CASE_PARAM(test_name, gen_params) \
	{ .run_case = test_name, .name = #test_name, .generate_params = gen_params, \
	  .module_name = KBUILD_MODNAME }
#define KUNIT_ARRAY_PARAM(name, array, get_desc)						\
	static const void *name##_gen_params(const void *prev, char *desc)			\
	{											\
		typeof((array)[0]) *__next = prev ? ((typeof(__next)) prev) + 1 : (array);	\
		if (__next - (array) < (long)ARRAY_SIZE((array))) {				\
			void (*__get_desc)(typeof(__next), char *) = get_desc;			\
			if (__get_desc)								\
				__get_desc(__next, desc);					\
			return __next;								\
		}										\
		return NULL;									\
	}

/* duplicate in effect (include/kunit/test.h, mainline; strscpy() as
 * snprintf()): the parameters of @array, each described by its member
 * @desc_member, a string */
#define KUNIT_ARRAY_PARAM_DESC(name, array, desc_member)					\
	static const void *name##_gen_params(const void *prev, char *desc)			\
	{											\
		typeof((array)[0]) *__next = prev ? ((typeof(__next)) prev) + 1 : (array);	\
		if (__next - (array) < (long)ARRAY_SIZE((array))) {				\
			snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", __next->desc_member);	\
			return __next;								\
		}										\
		return NULL;									\
	}

/* custom: kunit_test_suites() puts the suites in the km_kunit_suites
 * section of the plugin (the kernel's .kunit_test_suites section) */
#define KM_KUNIT_CAT_(a, b) a##b
#define KM_KUNIT_CAT(a, b) KM_KUNIT_CAT_(a, b)
#define kunit_test_suites(__suites...)							\
	static struct kunit_suite *const KM_KUNIT_CAT(__km_kunit_suites_, __COUNTER__)[]	\
	__attribute__((used, section("km_kunit_suites"), aligned(sizeof(void *)))) = { __suites }
#define kunit_test_suite(suite) kunit_test_suites(&suite)
#define kunit_test_init_section_suites(__suites...) kunit_test_suites(__suites)

/* custom: the runtime calls (kmodel/kunit.h) */
#define kunit_kmalloc(test, size, gfp) km_kunit_kmalloc((test), (size), (gfp))
#define kunit_kzalloc(test, size, gfp) km_kunit_kmalloc((test), (size), (gfp) | __GFP_ZERO)
#define kunit_kmalloc_array(test, n, size, gfp) \
	((n) && (size) > SIZE_MAX / (n) ? NULL : km_kunit_kmalloc((test), (n) * (size), (gfp)))
#define kunit_kcalloc(test, n, size, gfp) kunit_kmalloc_array((test), (n), (size), (gfp) | __GFP_ZERO)
#define kunit_kfree(test, ptr) km_kunit_kfree((test), (ptr))
#define kunit_vm_mmap(test, file, addr, len, prot, flag, offset) \
	km_kunit_vm_mmap((test), (addr), (len), (prot), (flag), (offset))
#define kunit_mark_skipped(test, fmt, ...) km_kunit_mark_skipped((test), fmt, ##__VA_ARGS__)
#define kunit_skip(test, fmt, ...) do {						\
		km_kunit_mark_skipped((test), fmt, ##__VA_ARGS__);		\
		km_kunit_abort(test);						\
	} while (0)
/* duplicate in effect: kunit_printk() prints "    # <case>: " and the text */
#define kunit_log(lvl, test, fmt, ...) km_kunit_log((test), fmt, ##__VA_ARGS__)
#define kunit_printk(lvl, test, fmt, ...) km_kunit_log((test), fmt, ##__VA_ARGS__)
#define kunit_info(test, fmt, ...) km_kunit_log((test), fmt, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...) km_kunit_log((test), fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...) km_kunit_log((test), fmt, ##__VA_ARGS__)

/*
 * The assertions (include/kunit/test.h, mainline): each evaluates its
 * operands once; on failure the text of lib/kunit/assert.c's format
 * (km_kunit_text_*()) and the optional message go to the case's log, and
 * an assertion ends the case.
 */
#define KM_KUNIT_FAILED(test, type, text, fmt, ...) \
	km_kunit_fail((test), (type), __FILE__, __LINE__, (text), fmt, ##__VA_ARGS__)

#define KUNIT_SUCCEED(test) do { } while (0)
#define KUNIT_FAIL(test, fmt, ...) \
	KM_KUNIT_FAILED(test, KUNIT_EXPECTATION, km_kunit_text_fail(), fmt, ##__VA_ARGS__)
#define KUNIT_FAIL_AND_ABORT(test, fmt, ...) \
	KM_KUNIT_FAILED(test, KUNIT_ASSERTION, km_kunit_text_fail(), fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_FAILURE(test, fmt, ...) KUNIT_FAIL_AND_ABORT(test, fmt, ##__VA_ARGS__)

#define KM_KUNIT_UNARY(test, type, cond, expect_true, fmt, ...) do {			\
		if (likely(!!(cond) == !!(expect_true)))				\
			break;								\
		KM_KUNIT_FAILED(test, type, km_kunit_text_unary(#cond, expect_true),	\
				fmt, ##__VA_ARGS__);					\
	} while (0)
#define KM_KUNIT_BINARY_INT(test, type, left, op, right, fmt, ...) do {		\
		const typeof(left) __left = (left);					\
		const typeof(right) __right = (right);					\
		if (likely(__left op __right))						\
			break;								\
		KM_KUNIT_FAILED(test, type,						\
				km_kunit_text_binary_int(#left, #op, #right,		\
							 (long long)__left,		\
							 (long long)__right),		\
				fmt, ##__VA_ARGS__);					\
	} while (0)
#define KM_KUNIT_BINARY_PTR(test, type, left, op, right, fmt, ...) do {		\
		const typeof(left) __left = (left);					\
		const typeof(right) __right = (right);					\
		if (likely(__left op __right))						\
			break;								\
		KM_KUNIT_FAILED(test, type,						\
				km_kunit_text_binary_ptr(#left, #op, #right,		\
							 (const void *)__left,		\
							 (const void *)__right),	\
				fmt, ##__VA_ARGS__);					\
	} while (0)
#define KM_KUNIT_BINARY_STR(test, type, left, op, right, fmt, ...) do {		\
		const char *__left = (left);						\
		const char *__right = (right);						\
		if (likely(strcmp(__left, __right) op 0))				\
			break;								\
		KM_KUNIT_FAILED(test, type,						\
				km_kunit_text_binary_str(#left, #op, #right, __left, __right), \
				fmt, ##__VA_ARGS__);					\
	} while (0)
#define KM_KUNIT_MEM(test, type, left, op, right, size_, fmt, ...) do {		\
		const void *__left = (left);						\
		const void *__right = (right);						\
		const size_t __size = (size_);						\
		if (likely(__left && __right))						\
			if (likely(memcmp(__left, __right, __size) op 0))		\
				break;							\
		KM_KUNIT_FAILED(test, type,						\
				km_kunit_text_mem(#left, #op, #right, __left, __right,	\
						  __size), fmt, ##__VA_ARGS__);		\
	} while (0)
#define KM_KUNIT_PTR_NOT_ERR_OR_NULL(test, type, ptr, fmt, ...) do {			\
		const typeof(ptr) __ptr = (ptr);					\
		if (!IS_ERR_OR_NULL(__ptr))						\
			break;								\
		KM_KUNIT_FAILED(test, type, km_kunit_text_ptr_not_err(#ptr, __ptr),	\
				fmt, ##__VA_ARGS__);					\
	} while (0)

/* KUNIT_EXPECT_*() and KUNIT_ASSERT_*() of include/kunit/test.h */
#define KUNIT_EXPECT_TRUE(test, c) KUNIT_EXPECT_TRUE_MSG(test, c, NULL)
#define KUNIT_EXPECT_TRUE_MSG(test, c, fmt, ...) \
	KM_KUNIT_UNARY(test, KUNIT_EXPECTATION, c, true, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE(test, c) KUNIT_EXPECT_FALSE_MSG(test, c, NULL)
#define KUNIT_EXPECT_FALSE_MSG(test, c, fmt, ...) \
	KM_KUNIT_UNARY(test, KUNIT_EXPECTATION, c, false, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_TRUE(test, c) KUNIT_ASSERT_TRUE_MSG(test, c, NULL)
#define KUNIT_ASSERT_TRUE_MSG(test, c, fmt, ...) \
	KM_KUNIT_UNARY(test, KUNIT_ASSERTION, c, true, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_FALSE(test, c) KUNIT_ASSERT_FALSE_MSG(test, c, NULL)
#define KUNIT_ASSERT_FALSE_MSG(test, c, fmt, ...) \
	KM_KUNIT_UNARY(test, KUNIT_ASSERTION, c, false, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_EQ(test, l, r) KUNIT_EXPECT_EQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_EQ_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_INT(test, KUNIT_EXPECTATION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NE(test, l, r) KUNIT_EXPECT_NE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_NE_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_INT(test, KUNIT_EXPECTATION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LT(test, l, r) KUNIT_EXPECT_LT_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_LT_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_INT(test, KUNIT_EXPECTATION, l, <, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LE(test, l, r) KUNIT_EXPECT_LE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_LE_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_INT(test, KUNIT_EXPECTATION, l, <=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GT(test, l, r) KUNIT_EXPECT_GT_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_GT_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_INT(test, KUNIT_EXPECTATION, l, >, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GE(test, l, r) KUNIT_EXPECT_GE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_GE_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_INT(test, KUNIT_EXPECTATION, l, >=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_EQ(test, l, r) KUNIT_ASSERT_EQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_EQ_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_INT(test, KUNIT_ASSERTION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NE(test, l, r) KUNIT_ASSERT_NE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_NE_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_INT(test, KUNIT_ASSERTION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LT(test, l, r) KUNIT_ASSERT_LT_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_LT_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_INT(test, KUNIT_ASSERTION, l, <, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LE(test, l, r) KUNIT_ASSERT_LE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_LE_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_INT(test, KUNIT_ASSERTION, l, <=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GT(test, l, r) KUNIT_ASSERT_GT_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_GT_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_INT(test, KUNIT_ASSERTION, l, >, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GE(test, l, r) KUNIT_ASSERT_GE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_GE_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_INT(test, KUNIT_ASSERTION, l, >=, r, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_PTR_EQ(test, l, r) KUNIT_EXPECT_PTR_EQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_PTR_EQ_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_PTR(test, KUNIT_EXPECTATION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_NE(test, l, r) KUNIT_EXPECT_PTR_NE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_PTR_NE_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_PTR(test, KUNIT_EXPECTATION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_EQ(test, l, r) KUNIT_ASSERT_PTR_EQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_PTR_EQ_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_PTR(test, KUNIT_ASSERTION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_NE(test, l, r) KUNIT_ASSERT_PTR_NE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_PTR_NE_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_PTR(test, KUNIT_ASSERTION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NULL(test, p) KUNIT_EXPECT_NULL_MSG(test, p, NULL)
#define KUNIT_EXPECT_NULL_MSG(test, p, fmt, ...) \
	KM_KUNIT_BINARY_PTR(test, KUNIT_EXPECTATION, p, ==, NULL, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL(test, p) KUNIT_EXPECT_NOT_NULL_MSG(test, p, NULL)
#define KUNIT_EXPECT_NOT_NULL_MSG(test, p, fmt, ...) \
	KM_KUNIT_BINARY_PTR(test, KUNIT_EXPECTATION, p, !=, NULL, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NULL(test, p) KUNIT_ASSERT_NULL_MSG(test, p, NULL)
#define KUNIT_ASSERT_NULL_MSG(test, p, fmt, ...) \
	KM_KUNIT_BINARY_PTR(test, KUNIT_ASSERTION, p, ==, NULL, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL(test, p) KUNIT_ASSERT_NOT_NULL_MSG(test, p, NULL)
#define KUNIT_ASSERT_NOT_NULL_MSG(test, p, fmt, ...) \
	KM_KUNIT_BINARY_PTR(test, KUNIT_ASSERTION, p, !=, NULL, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL(test, p) KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, p, NULL)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, p, fmt, ...) \
	KM_KUNIT_PTR_NOT_ERR_OR_NULL(test, KUNIT_EXPECTATION, p, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p) KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, p, NULL)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, p, fmt, ...) \
	KM_KUNIT_PTR_NOT_ERR_OR_NULL(test, KUNIT_ASSERTION, p, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_STREQ(test, l, r) KUNIT_EXPECT_STREQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_STREQ_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_STR(test, KUNIT_EXPECTATION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_STRNEQ(test, l, r) KUNIT_EXPECT_STRNEQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_STRNEQ_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_STR(test, KUNIT_EXPECTATION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_STREQ(test, l, r) KUNIT_ASSERT_STREQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_STREQ_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_STR(test, KUNIT_ASSERTION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_STRNEQ(test, l, r) KUNIT_ASSERT_STRNEQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_STRNEQ_MSG(test, l, r, fmt, ...) \
	KM_KUNIT_BINARY_STR(test, KUNIT_ASSERTION, l, !=, r, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_MEMEQ(test, l, r, size) KUNIT_EXPECT_MEMEQ_MSG(test, l, r, size, NULL)
#define KUNIT_EXPECT_MEMEQ_MSG(test, l, r, size, fmt, ...) \
	KM_KUNIT_MEM(test, KUNIT_EXPECTATION, l, ==, r, size, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_MEMNEQ(test, l, r, size) KUNIT_EXPECT_MEMNEQ_MSG(test, l, r, size, NULL)
#define KUNIT_EXPECT_MEMNEQ_MSG(test, l, r, size, fmt, ...) \
	KM_KUNIT_MEM(test, KUNIT_EXPECTATION, l, !=, r, size, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_MEMEQ(test, l, r, size) KUNIT_ASSERT_MEMEQ_MSG(test, l, r, size, NULL)
#define KUNIT_ASSERT_MEMEQ_MSG(test, l, r, size, fmt, ...) \
	KM_KUNIT_MEM(test, KUNIT_ASSERTION, l, ==, r, size, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_MEMNEQ(test, l, r, size) KUNIT_ASSERT_MEMNEQ_MSG(test, l, r, size, NULL)
#define KUNIT_ASSERT_MEMNEQ_MSG(test, l, r, size, fmt, ...) \
	KM_KUNIT_MEM(test, KUNIT_ASSERTION, l, !=, r, size, fmt, ##__VA_ARGS__)

/* as the kernel's include/kunit/test.h ends (mainline) */
#include <kunit/resource.h>

#endif
