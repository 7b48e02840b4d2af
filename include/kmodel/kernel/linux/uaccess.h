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

#endif
