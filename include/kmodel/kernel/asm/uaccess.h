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

/* custom: __put_user() of the kernel (no access_ok(), no might_fault()):
 * one store through the user mapping; a fault that cannot be handled is
 * -EFAULT via the exception table */
#define __put_user(x, ptr) ({                                                   \
	__typeof__(*(ptr)) __pu_x = (x);                                         \
	km_uaccess_direct.raw_copy_to_user((unsigned long)(ptr), &__pu_x,        \
					   sizeof(__pu_x)) ? -EFAULT : 0;        \
})

#endif
