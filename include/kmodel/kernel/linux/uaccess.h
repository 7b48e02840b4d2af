/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/uaccess.h> */
#ifndef KM_COMPAT_LINUX_UACCESS_H
#define KM_COMPAT_LINUX_UACCESS_H

#include <linux/kernel.h>
#include <linux/preempt.h>
#include <kmodel/uaccess.h>
#include <asm/uaccess.h>

/* custom: set_fs() state of current */
static inline bool uaccess_kernel(void)
{
	return km_task_kernel_ds(km_shim_current());
}
/* custom: access_ok() of ARM (arch/arm/include/asm/uaccess.h): the range
 * lies below current's addr_limit. 96d4f267e40f (v5.0) removed its first
 * argument, VERIFY_READ or VERIFY_WRITE, which ARM ignored. */
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 0, 0)
static inline bool access_ok(const void *addr, unsigned long size)
{
	return km_uaccess_access_ok(km_shim_current(), (unsigned long)addr, size);
}
#else
#define VERIFY_READ 0
#define VERIFY_WRITE 1
static inline bool km_compat_access_ok(int type, const void *addr, unsigned long size)
{
	(void)type;
	return km_uaccess_access_ok(km_shim_current(), (unsigned long)addr, size);
}
#define access_ok(type, addr, size) km_compat_access_ok((type), (addr), (size))
#endif

/* custom: pagefault_disable()/pagefault_enable() on current (before v4.2
 * they raised preempt_count, which <linux/kernel.h>'s preempt_count()
 * accounts for) */
static inline void pagefault_disable(void) { km_pagefault_disable(km_shim_current()); }
static inline void pagefault_enable(void) { km_pagefault_enable(km_shim_current()); }
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(4, 2, 0)
/* custom: pagefault_disabled() (include/linux/uaccess.h, v4.2 .. v5.7) */
static inline bool pagefault_disabled(void) { return km_pagefault_disabled(km_shim_current()) != 0; }
/* duplicate (include/linux/uaccess.h, v5.7) */
#define faulthandler_disabled() (pagefault_disabled() || in_atomic())
#endif


/*
 * __copy_from_user_inatomic(): no access_ok(), no might_fault(): for a
 * caller that checked the range and may not sleep (pagefault_disable(),
 * atomic context), through current's uaccess variant. By
 * KMODEL_KERNEL_VERSION:
 * - >= 4.12: duplicate in effect (include/linux/uaccess.h, v5.7): the raw
 *   copy alone, no zero-fill ("Neither __copy_from_user() nor
 *   __copy_from_user_inatomic() zero anything at all"); kasan and
 *   check_object_size() not modelled;
 * - < 4.12: ARM's `#define __copy_from_user_inatomic __copy_from_user`
 *   (arch/arm/include/asm/uaccess.h), arm_copy_from_user, whose fixup
 *   (arch/arm/lib/copy_from_user.S before the v4.12 raw_copy_from_user()
 *   switch) zeroes the bytes not copied, as the layer's copy_from_user() of
 *   these versions does.
 * The bytes not copied.
 */
static inline unsigned long __must_check __copy_from_user_inatomic(void *to,
								   const void __user *from,
								   unsigned long n)
{
	unsigned long res = km_task_uaccess(km_shim_current())->raw_copy_from_user(
		to, (unsigned long)from, n);

#if KMODEL_KERNEL_VERSION < KERNEL_VERSION(4, 12, 0)
	if (res && res <= n && to)
		(memset)((unsigned char *)to + (n - res), 0, res);
#endif
	return res;
}
#define __copy_from_user_inatomic(to, from, n) \
	KM_SHIM_AT(__copy_from_user_inatomic((to), (from), (n)))

/* duplicate (include/linux/uaccess.h, v5.7: the generic forms, which ARM
 * takes: it defines no user_access_begin()) */
#define user_access_begin(ptr, len) access_ok(ptr, len)
#define user_access_end() do { } while (0)
#define unsafe_op_wrap(op, err) do { if (unlikely(op)) goto err; } while (0)
#define unsafe_get_user(x, p, e) unsafe_op_wrap(__get_user(x, p), e)
#define unsafe_put_user(x, p, e) unsafe_op_wrap(__put_user(x, p), e)
#define unsafe_copy_to_user(d, s, l, e) unsafe_op_wrap(copy_to_user(d, s, l), e)
static inline unsigned long user_access_save(void) { return 0UL; }
static inline void user_access_restore(unsigned long flags) { (void)flags; }

#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 4, 0)
/*
 * duplicate in effect (lib/usercopy.c check_zeroed_user(), v5.4 .. v5.7):
 * 1 if the @size bytes at user @from are all zero, 0 if not, -EFAULT.
 * ARM's unsigned long is 32 bits (the host's is 64): the words are u32, so
 * the loads are ARM's, each an aligned __get_user() of 4 bytes.
 */
static inline int check_zeroed_user(const void __user *from, size_t size)
{
	u32 val;
	uintptr_t align = (uintptr_t)from % sizeof(u32);

	if (unlikely(size == 0))
		return 1;

	from = (const char __user *)from - align;
	size += align;

	if (!user_access_begin(from, size))
		return -EFAULT;

	unsafe_get_user(val, (const u32 __user *)from, err_fault);
	if (align)
		val &= ~((1U << (8 * align)) - 1);	/* ~aligned_byte_mask(align), LE */

	while (size > sizeof(u32)) {
		if (unlikely(val))
			goto done;

		from = (const char __user *)from + sizeof(u32);
		size -= sizeof(u32);

		unsafe_get_user(val, (const u32 __user *)from, err_fault);
	}

	if (size < sizeof(u32))
		val &= (1U << (8 * size)) - 1;	/* aligned_byte_mask(size), LE */

done:
	user_access_end();
	return (val == 0);
err_fault:
	user_access_end();
	return -EFAULT;
}

/* duplicate (include/linux/uaccess.h, v5.4 .. v5.7) */
static __always_inline __must_check int
copy_struct_from_user(void *dst, size_t ksize, const void __user *src, size_t usize)
{
	size_t size = min(ksize, usize);
	size_t rest = max(ksize, usize) - size;

	/* Deal with trailing bytes. */
	if (usize < ksize) {
		memset((char *)dst + size, 0, rest);
	} else if (usize > ksize) {
		int ret = check_zeroed_user((const char __user *)src + size, rest);
		if (ret <= 0)
			return ret ?: -E2BIG;
	}
	/* Copy the interoperable parts of the struct. */
	if (copy_from_user(dst, src, size))
		return -EFAULT;
	return 0;
}
#endif

#endif
