/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <asm/uaccess.h> of ARM (v5.7) */
#ifndef KM_COMPAT_ASM_UACCESS_H
#define KM_COMPAT_ASM_UACCESS_H

#include <errno.h>
#include <linux/kernel.h>
#include <kmodel/uaccess.h>

/* custom: the window in which kernel memcpy()/memset() reach the user
 * mapping (CONFIG_CPU_SW_DOMAIN_PAN's domain switch, km_kernel_memcpy()) */
static inline unsigned int uaccess_save_and_enable(void) { return km_uaccess_save_and_enable(); }
static inline void uaccess_restore(unsigned int flags) { km_uaccess_restore(flags); }

/* custom: __uaccess_mask_range_ptr() (v5.7): NULL when [ptr, ptr + size)
 * passes addr_limit; under KERNEL_DS (limit 0, "all") the pointer as is */
#define uaccess_mask_range_ptr(ptr, size) \
	((__typeof__(ptr))(km_uaccess_access_ok(km_shim_current(), (unsigned long)(ptr), (size)) \
				   ? (unsigned long)(ptr) : 0UL))

/* custom: the assembler routines of arch/arm/lib/copy_to_user.S and
 * clear_user.S: the model's direct variant, which accesses the user
 * mapping through the MMU and its fault handling */
static inline unsigned long __copy_to_user_std(void __user *to, const void *from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_to_user((unsigned long)to, from, n);
}
static inline unsigned long __clear_user_std(void __user *addr, unsigned long n)
{
	return km_uaccess_direct.clear_user((unsigned long)addr, n);
}

/*
 * custom: the single-value transfers of ARM: get_user(), put_user(),
 * __get_user(), __put_user() (arch/arm/include/asm/uaccess.h and
 * arch/arm/lib/{get,put}user.S; read in a v4.14..v4.20 tree, whose
 * single-value code v5.7 still has). Each is one access through the user
 * mapping through current's uaccess variant (km_task_uaccess(): its
 * get_user/put_user, else direct's -- the MMU, a fault handled or, if it
 * cannot be, -EFAULT by the exception table), and returns 0 or -EFAULT:
 * - from v3.6 all four call might_fault() first (get_user() and put_user()
 *   directly, the __ forms in __get_user_err() and __put_user_err(), later
 *   __put_user_switch()), as "ARM: 7528/1: uaccess: annotate
 *   [__]{get,put}_user functions with might_fault()" (2012) made them: the
 *   v3.6 header has the calls, v3.0's has none (v3.1 .. v3.5 not read: the
 *   layer takes v3.6 as the first). Under preempt_disable() with page
 *   faults enabled that is a sleep-in-atomic report, as
 *   CONFIG_DEBUG_ATOMIC_SLEEP prints it (__might_fault() returns early only
 *   for KERNEL_DS and pagefault_disable()); before v3.6 only a fault that
 *   sleeps is seen (the model's fault path). One consequence:
 *   uaccess_with_memcpy's fault-in __put_user(0, to) of a non-resident
 *   page reports it in preempt_off context (kmodel-check);
 * - get_user()/put_user() then check the range against addr_limit as
 *   {get,put}user.S's check_uaccess does (access_ok()); the __ forms do not;
 * - the get forms set x to 0 on -EFAULT (getuser.S's __get_user_bad, the
 *   fixup's `mov %1, #0`): no kernel data leaks to a caller that ignores
 *   the error.
 * Sizes 1, 2, 4 and 8, except: __get_user() has no 8 (tglx's "ARM: uaccess:
 * Implement missing __get_user_asm_dword()" added it in 2025, after every
 * version here); get_user() has 8 since "ARM: 8091/2: add get_user()
 * support for 8 byte types" (v3.17), and an 8-byte *ptr into a smaller x
 * reads the first 4 bytes only (__get_user_x_32t on little-endian). Where
 * ARM would call the undefined __get_user_bad()/__put_user_bad() (a link
 * error), this does not compile.
 */
static inline long km_compat_user_read(unsigned char *val, unsigned long size,
				       unsigned long addr, unsigned long n, bool check)
{
	struct km_task *t = km_shim_current();

	for (unsigned long i = 0; i < size; i++)
		val[i] = 0;
	if ((check && !km_uaccess_access_ok(t, addr, n)) ||
	    km_get_user(t, km_task_uaccess(t), val, addr, n)) {
		for (unsigned long i = 0; i < size; i++)
			val[i] = 0;
		return -EFAULT;
	}
	return 0;
}
static inline long km_compat_user_write(const void *val, unsigned long addr, unsigned long n,
					bool check)
{
	struct km_task *t = km_shim_current();

	if (check && !km_uaccess_access_ok(t, addr, n))
		return -EFAULT;
	return km_put_user(t, km_task_uaccess(t), addr, val, n) ? -EFAULT : 0;
}
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(3, 6, 0)
#define km_compat_uaccess_might_fault() might_fault()
#else
#define km_compat_uaccess_might_fault() do { } while (0)
#endif
#define KM_COMPAT_UACCESS_SIZE(ptr, eight) \
	(sizeof(*(ptr)) == 1 || sizeof(*(ptr)) == 2 || sizeof(*(ptr)) == 4 || \
	 ((eight) && sizeof(*(ptr)) == 8))
#define km_compat_get_user(x, ptr, check, eight, what) ({                             \
	union { __typeof__(*(ptr)) v; unsigned char b[sizeof(*(ptr))]; } __gu;         \
	long __gu_err;                                                                  \
	_Static_assert(KM_COMPAT_UACCESS_SIZE(ptr, eight),                              \
		       what "(): ARM has no access of this size (__get_user_bad)");     \
	km_compat_uaccess_might_fault();                                                \
	__gu_err = KM_SHIM_AT(km_compat_user_read(__gu.b, sizeof(__gu.b), (unsigned long)(ptr), \
				       sizeof(*(ptr)) == 8 && sizeof(x) < 8 ? 4 : sizeof(*(ptr)), \
				       (check)));                                       \
	(x) = __gu.v;                                                                   \
	__gu_err;                                                                       \
})
#define km_compat_put_user(x, ptr, check, what) ({                                    \
	__typeof__(*(ptr)) __pu_x = (x);                                               \
	_Static_assert(KM_COMPAT_UACCESS_SIZE(ptr, 1),                                  \
		       what "(): ARM has no access of this size (__put_user_bad)");     \
	km_compat_uaccess_might_fault();                                                \
	KM_SHIM_AT(km_compat_user_write(&__pu_x, (unsigned long)(ptr), sizeof(__pu_x), (check))); \
})
#define get_user(x, ptr) \
	km_compat_get_user(x, ptr, true, KMODEL_KERNEL_VERSION >= KERNEL_VERSION(3, 17, 0), "get_user")
#define __get_user(x, ptr) km_compat_get_user(x, ptr, false, false, "__get_user")
#define put_user(x, ptr) km_compat_put_user(x, ptr, true, "put_user")
#define __put_user(x, ptr) km_compat_put_user(x, ptr, false, "__put_user")

/*
 * custom: copy_from_user(), copy_to_user() -- include/linux/uaccess.h and
 * lib/usercopy.c _copy_{from,to}_user() from v4.12 (ARM's RAW_COPY_USER
 * switch; v5.7 text), arch/arm/include/asm/uaccess.h before. Return the
 * bytes not copied; copy_from_user() zeroes the uncopied tail of @to (v3.5:
 * arm_copy_from_user's fixup, or memset() when access_ok() fails).
 * The copy is current's uaccess variant (km_task_uaccess(): the task's,
 * else its machine's, else direct; km_task_set_uaccess()), as in a kernel
 * built with that copy_from_user every caller runs it. By
 * KMODEL_KERNEL_VERSION:
 * - >= 5.5: check_copy_size() (n > INT_MAX: a KM_R_COPY_SIZE WARN,
 *   nothing copied or zeroed, n returned; 6d13de1489b6), might_fault(),
 *   access_ok(), the raw copy (km_copy_{from,to}_user());
 * - 4.12 .. 5.4: the same without the INT_MAX check;
 * - < 4.12: access_ok(), the copy; no might_fault() (ARM v3.5).
 * Below 5.5 an n > INT_MAX fails access_ok() and the kernel zeroes n bytes
 * at @to: here a KM_R_UNEXPECTED BUG instead, @to untouched.
 * check_copy_size()'s compile-time object size check and
 * CONFIG_HARDENED_USERCOPY are not modelled.
 */
static inline unsigned long __must_check copy_from_user(void *to, const void __user *from,
							unsigned long n)
{
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 5, 0)
	struct km_task *t = km_shim_current();

	return km_copy_from_user(t, km_task_uaccess(t), to, (unsigned long)from, n);
#else
	struct km_task *t = km_shim_current();
	unsigned long res;

#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(4, 12, 0)
	might_fault();
#endif
	res = km_copyin(t, km_task_uaccess(t), to, (unsigned long)from, n);
	if (unlikely(res > INT_MAX))	/* the kernel's zero-fill overruns any object */
		km_report(km_task_machine(t), KM_BUG, KM_R_UNEXPECTED,
			  "copy_from_user(n %lu): zeroing the %lu bytes not copied overruns @to "
			  "(no INT_MAX check before v5.5): not done", n, res);
	else if (res && to)	/* the zero-fill, uncounted as km_copy_from_user()'s */
		(memset)((unsigned char *)to + (n - res), 0, res);
	return res;
#endif
}
#define copy_from_user(to, from, n) KM_SHIM_AT(copy_from_user((to), (from), (n)))
static inline unsigned long __must_check copy_to_user(void __user *to, const void *from,
						      unsigned long n)
{
	struct km_task *t = km_shim_current();

#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 5, 0)
	return km_copy_to_user(t, km_task_uaccess(t), (unsigned long)to, from, n);
#else
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(4, 12, 0)
	might_fault();
#endif
	return km_copyout(t, km_task_uaccess(t), (unsigned long)to, from, n);
#endif
}
#define copy_to_user(to, from, n) KM_SHIM_AT(copy_to_user((to), (from), (n)))

/* custom: clear_user() of ARM (v5.7): access_ok(), then __clear_user()
 * (arch/arm/lib/clear_user.S through the user mapping, or the variant's
 * own: CONFIG_UACCESS_WITH_MEMCPY's); no might_fault(). Current's uaccess
 * variant (km_clear_user_with()). Returns the bytes not cleared. */
static inline unsigned long clear_user(void __user *to, unsigned long n)
{
	struct km_task *t = km_shim_current();

	return km_clear_user_with(t, km_task_uaccess(t), (unsigned long)to, n);
}
#define clear_user(to, n) KM_SHIM_AT(clear_user((to), (n)))

/* custom: raw_copy_{from,to}_user() (arch/arm/include/asm/uaccess.h, v4.12
 * and later: arm_copy_{from,to}_user, or __copy_to_user_memcpy with
 * CONFIG_UACCESS_WITH_MEMCPY): current's variant's raw copies, no checks,
 * no zero-fill. The bytes not copied. */
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(4, 12, 0)
static inline unsigned long raw_copy_from_user(void *to, const void __user *from, unsigned long n)
{
	return km_task_uaccess(km_shim_current())->raw_copy_from_user(to, (unsigned long)from, n);
}
static inline unsigned long raw_copy_to_user(void __user *to, const void *from, unsigned long n)
{
	return km_task_uaccess(km_shim_current())->raw_copy_to_user((unsigned long)to, from, n);
}
#endif

/* custom: strncpy_from_user() and strnlen_user() (lib/strncpy_from_user.c,
 * lib/strnlen_user.c, v5.7) through current's variant (its own, else
 * direct's byte walk: the result of the word-at-a-time loop, which never
 * loads across a page) */
static inline long strncpy_from_user(char *dst, const char __user *src, long count)
{
	struct km_task *t = km_shim_current();

	return km_strncpy_from_user(t, km_task_uaccess(t), dst, (unsigned long)src, count);
}
#define strncpy_from_user(dst, src, count) KM_SHIM_AT(strncpy_from_user((dst), (src), (count)))
static inline long strnlen_user(const char __user *str, long n)
{
	struct km_task *t = km_shim_current();

	return km_strnlen_user(t, km_task_uaccess(t), (unsigned long)str, n);
}
#define strnlen_user(str, n) KM_SHIM_AT(strnlen_user((str), (n)))

#endif
