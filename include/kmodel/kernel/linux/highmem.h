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
#define kmap_atomic(page) KM_SHIM_AT(kmap_atomic(page))
/* custom: kmap()/kunmap() (arch/arm/mm/highmem.c, v5.7): might sleep;
 * a highmem page takes a pkmap entry until kunmap() (km_kmap()) */
static inline void *kmap(struct page *page)
{
	return km_kmap(km_shim_current(), km_page_of(page));
}
#define kmap(page) KM_SHIM_AT(kmap(page))
static inline void kunmap(struct page *page)
{
	km_kunmap(km_shim_current(), km_page_of(page));
}
#define kunmap(page) KM_SHIM_AT_VOID(kunmap(page))

/* duplicate in effect (include/linux/highmem.h, v5.7): refuses a struct page * */
#define kunmap_atomic(addr)                                          \
	do {                                                         \
		BUILD_BUG_ON(__same_type((addr), struct page *));    \
		KM_SHIM_AT_VOID(km_kunmap_atomic(km_shim_current(), (void *)(addr))); \
	} while (0)

#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 11, 0)
/* custom: kmap_local_page() (mm/highmem.c, v5.11, f3ba3c710ac5): a slot of
 * the task's own stack, preemption and pagefaults left on. The model gives
 * it on machines of the kmap_local era (KM_KMAP_LOCAL), and reports a BUG
 * elsewhere (km_kmap_local_page()). */
static inline void *kmap_local_page(struct page *page)
{
	return km_kmap_local_page(km_shim_current(), km_page_of(page));
}
#define kmap_local_page(page) KM_SHIM_AT(kmap_local_page(page))
/* duplicate in effect (include/linux/highmem.h, v5.11): refuses a struct page * */
#define kunmap_local(addr)                                           \
	do {                                                         \
		BUILD_BUG_ON(__same_type((addr), struct page *));    \
		KM_SHIM_AT_VOID(km_kunmap_local(km_shim_current(), (void *)(addr))); \
	} while (0)
#endif

#endif
