/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/slab.h>, <linux/gfp.h> */
#ifndef KM_COMPAT_LINUX_SLAB_H
#define KM_COMPAT_LINUX_SLAB_H

#include <linux/kernel.h>
#include <kmodel/machine.h>

typedef km_gfp_t gfp_t;
#define __GFP_ZERO KM_GFP_ZERO
#define __GFP_HIGHMEM KM_GFP_HIGHMEM
#define __GFP_DIRECT_RECLAIM KM_GFP_DIRECT_RECLAIM
#define GFP_ATOMIC KM_GFP_ATOMIC
#define GFP_KERNEL KM_GFP_KERNEL

#define ZERO_SIZE_PTR ((void *)16)

/* custom: the machine's kmalloc caches */
static inline void *kmalloc(size_t size, gfp_t flags)
{
	return km_kmalloc(km_shim_current(), size, flags);
}
static inline void *kzalloc(size_t size, gfp_t flags)
{
	return km_kmalloc(km_shim_current(), size, flags | __GFP_ZERO);
}
static inline void kfree(const void *obj)
{
	km_kfree(km_shim_current(), obj);
}
/* duplicate (include/linux/slab.h, v5.7; check_mul_overflow) */
static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (unlikely(__builtin_mul_overflow(n, size, &bytes)))
		return NULL;
	return kmalloc(bytes, flags);
}

#endif
