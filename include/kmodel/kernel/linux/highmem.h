/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/highmem.h> (pre-5.11 kmap_atomic) */
#ifndef KM_COMPAT_LINUX_HIGHMEM_H
#define KM_COMPAT_LINUX_HIGHMEM_H

#include <linux/mm.h>
#include <linux/uaccess.h>	/* as in the kernel, via <linux/hardirq.h> */

/* custom: arch/arm/mm/highmem.c kmap_atomic()/__kunmap_atomic() (v5.7) */
static inline void *kmap_atomic(struct page *page)
{
	return km_kmap_atomic(km_shim_current(), km_page_of(page));
}
/* duplicate in effect (include/linux/highmem.h, v5.7): refuses a struct page * */
#define kunmap_atomic(addr)                                          \
	do {                                                         \
		BUILD_BUG_ON(__same_type((addr), struct page *));    \
		km_kunmap_atomic(km_shim_current(), (void *)(addr));      \
	} while (0)
static inline void pagefault_disable(void) { km_pagefault_disable(km_shim_current()); }
static inline void pagefault_enable(void) { km_pagefault_enable(km_shim_current()); }
static inline void preempt_disable(void) { km_preempt_disable(km_shim_current()); }
static inline void preempt_enable(void) { km_preempt_enable(km_shim_current()); }

#endif
