/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/string.h> (the C library's string
 * functions come through <linux/kernel.h>; memcpy() and memset() are the
 * layer's macros) */
#ifndef KM_COMPAT_LINUX_STRING_H
#define KM_COMPAT_LINUX_STRING_H

#include <linux/kernel.h>
#include <linux/slab.h>

/* duplicate (mm/util.c, v3.6; declared in include/linux/string.h): a
 * kmalloc copy of @len bytes, NULL when the kmalloc fails. The copy is the
 * layer's memcpy() (counted in memcpy_bytes) */
static inline void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p;

	p = kmalloc(len, gfp);
	if (p)
		memcpy(p, src, len);
	return p;
}

#endif
