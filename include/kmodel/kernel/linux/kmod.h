/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/kmod.h> */
#ifndef KM_COMPAT_LINUX_KMOD_H
#define KM_COMPAT_LINUX_KMOD_H

#include <errno.h>
#include <linux/kernel.h>

/* duplicate (include/linux/kmod.h, v3.6, !CONFIG_MODULES): the model has
 * no module loader, so a request fails as on a kernel without modules */
static inline int request_module(const char *name, ...)
{
	(void)name;
	return -ENOSYS;
}
static inline int request_module_nowait(const char *name, ...)
{
	(void)name;
	return -ENOSYS;
}
#define try_then_request_module(x, mod...) (x)

#endif
