/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/uaccess.h> */
#ifndef KM_COMPAT_LINUX_UACCESS_H
#define KM_COMPAT_LINUX_UACCESS_H

#include <linux/kernel.h>
#include <kmodel/uaccess.h>
#include <asm/uaccess.h>

/* custom: set_fs() state of current */
static inline bool uaccess_kernel(void)
{
	return km_task_kernel_ds(km_shim_current());
}
static inline bool access_ok(const void *addr, unsigned long size)
{
	return km_uaccess_access_ok(km_shim_current(), (unsigned long)addr, size);
}
/* custom: include/linux/preempt.h in_atomic() and include/linux/uaccess.h
 * pagefault_disabled() on current (v5.7) */
static inline int preempt_count(void) { return km_preempt_count(km_shim_current()); }
#define in_atomic() (preempt_count() != 0)
static inline bool pagefault_disabled(void) { return km_pagefault_disabled(km_shim_current()) != 0; }
/* duplicate (include/linux/uaccess.h, v5.7) */
#define faulthandler_disabled() (pagefault_disabled() || in_atomic())

#endif
