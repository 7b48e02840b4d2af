/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/uaccess.h> */
#ifndef KM_COMPAT_LINUX_UACCESS_H
#define KM_COMPAT_LINUX_UACCESS_H

#include <linux/kernel.h>
#include <kmodel/uaccess.h>

/* custom: set_fs() state of current */
static inline bool uaccess_kernel(void)
{
	return km_task_kernel_ds(km_current());
}
static inline bool access_ok(const void *addr, unsigned long size)
{
	return km_uaccess_access_ok(km_current(), (unsigned long)addr, size);
}

#endif
