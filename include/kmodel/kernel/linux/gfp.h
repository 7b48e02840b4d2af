/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/gfp.h>: the gfp flags are in
 * <linux/slab.h>; alloc_page() and __free_page() */
#ifndef KM_COMPAT_LINUX_GFP_H
#define KM_COMPAT_LINUX_GFP_H

#include <linux/slab.h>
#include <kmodel/mm.h>

struct page;

/*
 * custom: alloc_page() (include/linux/gfp.h, v5.7: alloc_pages(gfp, 0))
 * from current's machine's zones (km_alloc_page()): __GFP_HIGHMEM takes
 * ZONE_HIGHMEM first, so on a machine with highmem the page has no
 * permanent mapping (kmap() it); __GFP_ZERO zeroes it. With
 * __GFP_DIRECT_RECLAIM it may sleep: prepare_alloc_pages()'s
 * might_sleep_if() (mm/page_alloc.c, v5.7), a BUG in atomic context.
 * NULL when the zones are exhausted. Order 0 only.
 */
static inline struct page *km_compat_alloc_page(gfp_t gfp, const char *file, int line)
{
	if (gfp & __GFP_DIRECT_RECLAIM)
		km_compat_might_sleep(file, line);
	return (struct page *)km_alloc_page(km_task_machine(km_shim_current()), gfp);
}
#define alloc_page(gfp_mask) km_compat_alloc_page((gfp_mask), __FILE__, __LINE__)
/* custom: __free_page() (include/linux/gfp.h, v5.7: __free_pages(page, 0),
 * mm/page_alloc.c: put_page_testzero(), freed at 0): km_put_page(); a
 * second free is a KM_R_PAGE_REFCOUNT BUG */
static inline void __free_page(struct page *page)
{
	km_put_page(km_task_machine(km_shim_current()), (struct km_page *)page);
}
#define __free_page(page) KM_SHIM_AT_VOID(__free_page(page))

#endif
