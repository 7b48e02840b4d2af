/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel compatibility layer: <linux/vmalloc.h>. The model has no vmalloc
 * area: vmalloc() is the model's kmalloc() (counted as one, up to
 * KMALLOC_MAX_SIZE), which is enough for the buffers ported tests take.
 */
#ifndef KM_COMPAT_LINUX_VMALLOC_H
#define KM_COMPAT_LINUX_VMALLOC_H

#include <linux/slab.h>

/* custom: a kmalloc() stands in (no vmalloc area in the model) */
static inline void *vmalloc(unsigned long size) { return kmalloc(size, GFP_KERNEL); }
static inline void *vzalloc(unsigned long size) { return kzalloc(size, GFP_KERNEL); }
static inline void vfree(const void *addr) { kfree(addr); }

#endif
