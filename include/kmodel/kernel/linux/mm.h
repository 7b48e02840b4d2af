/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/mm.h> */
#ifndef KM_COMPAT_LINUX_MM_H
#define KM_COMPAT_LINUX_MM_H

#include <errno.h>
#include <linux/kernel.h>
#include <asm/page.h>
#include <kmodel/mm.h>
#include <asm/pgtable.h>
#include <linux/sched.h>

/* custom: struct page is the model's struct km_page, kept incomplete */
struct page;
#define km_page_of(p) ((struct km_page *)(p))
#include <linux/gfp.h>	/* as the kernel's <linux/mm.h> brings it */

#define FOLL_WRITE KM_FOLL_WRITE
#define FOLL_FORCE KM_FOLL_FORCE
#define FOLL_PIN KM_FOLL_PIN
#define GUP_PIN_COUNTING_BIAS KM_GUP_PIN_COUNTING_BIAS
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 8, 0)
/* duplicate (include/linux/mm.h, v5.8): a pin held for an indefinite time
 * (RDMA, vfio, io_uring). The kernel first migrates such pages out of
 * ZONE_MOVABLE and CMA; the model has neither, so a long-term pin is the
 * pin itself, and the layer's gup calls take the flag off before the
 * model's. Defined from 5.8, with pin_user_pages_unlocked(): before, the
 * layer's get_user_pages_fast() of 5.3 .. 5.5 would refuse it. */
#define FOLL_LONGTERM 0x10000
#define km_compat_foll(gup_flags) ((gup_flags) & ~(unsigned int)FOLL_LONGTERM)
#else
#define km_compat_foll(gup_flags) (gup_flags)
#endif

/* duplicate (include/linux/mm.h, v5.7; v3.5 the same) */
#define offset_in_page(p) ((unsigned long)(p) & ~PAGE_MASK)

/* custom: TASK_SIZE of ARM (arch/arm/include/asm/memory.h, v5.7) is
 * PAGE_OFFSET - 16 MiB of the machine's split (km_machine_task_size()) */
#define TASK_SIZE km_machine_task_size(km_task_machine(km_shim_current()))

/*
 * custom: get_user_pages_fast() on current->mm, the model's
 * internal_get_user_pages_fast() (mm/gup.c, v5.7). 73b0140bf0fe (v5.2)
 * replaced its `int write` by `unsigned int gup_flags` (FOLL_WRITE ...),
 * passed on unchecked; 817be129e6f2 (v5.3) took only FOLL_WRITE |
 * FOLL_LONGTERM (not modelled) and refused the rest -- FOLL_FORCE too --
 * with a WARN and -EINVAL, until f4000fdf435b (v5.6; stable 5.4.24) let
 * FOLL_FORCE through again.
 */
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 2, 0)
static inline int get_user_pages_fast(unsigned long start, int nr_pages,
				      unsigned int gup_flags, struct page **pages)
{
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 3, 0) && \
    KMODEL_KERNEL_VERSION < KERNEL_VERSION(5, 6, 0)
	if (WARN_ON_ONCE(gup_flags & ~FOLL_WRITE))
		return -EINVAL;
#endif
	return (int)km_get_user_pages_fast(km_shim_current(), start, nr_pages,
					   km_compat_foll(gup_flags), (struct km_page **)pages);
}
#else
static inline int get_user_pages_fast(unsigned long start, int nr_pages, int write,
				      struct page **pages)
{
	return (int)km_get_user_pages_fast(km_shim_current(), start, nr_pages,
					   write ? FOLL_WRITE : 0, (struct km_page **)pages);
}
#endif
/* custom: the lockless walk alone, km_get_user_pages_fast_only(): named
 * __get_user_pages_fast(start, nr_pages, int write, pages) up to v5.8,
 * get_user_pages_fast_only(start, nr_pages, gup_flags, pages) from v5.9
 * (dadbb612f6e5), which takes FOLL_FORCE and, "not allowed to return
 * negative values", turns an error into 0 */
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 9, 0)
static inline int get_user_pages_fast_only(unsigned long start, int nr_pages,
					   unsigned int gup_flags, struct page **pages)
{
	int nr_pinned = (int)km_get_user_pages_fast_only(km_shim_current(), start, nr_pages,
							 gup_flags, (struct km_page **)pages);

	if (nr_pinned < 0)
		nr_pinned = 0;
	return nr_pinned;
}
#else
static inline int __get_user_pages_fast(unsigned long start, int nr_pages, int write,
					struct page **pages)
{
	return (int)km_get_user_pages_fast_only(km_shim_current(), start, nr_pages,
						write ? FOLL_WRITE : 0, (struct km_page **)pages);
}
#endif
/* custom: set_page_dirty() (mm/page-writeback.c, v5.7) on the model's page;
 * returns 1 (the model does not say whether the page was clean before) */
static inline int set_page_dirty(struct page *page)
{
	km_set_page_dirty(km_task_machine(km_shim_current()), km_page_of(page));
	return 1;
}
static inline void get_page(struct page *page)
{
	km_get_page(km_task_machine(km_shim_current()), km_page_of(page));
}
static inline void put_page(struct page *page)
{
	km_put_page(km_task_machine(km_shim_current()), km_page_of(page));
}
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 6, 0)
/* custom: pin_user_pages_fast() (mm/gup.c, v5.6 eddb1c228f79 .. v5.7): as
 * get_user_pages_fast() with FOLL_PIN, each page gains
 * GUP_PIN_COUNTING_BIAS; unpin_user_page() drops it */
static inline int pin_user_pages_fast(unsigned long start, int nr_pages,
				      unsigned int gup_flags, struct page **pages)
{
	return (int)km_pin_user_pages_fast(km_shim_current(), start, nr_pages,
					   km_compat_foll(gup_flags), (struct km_page **)pages);
}
#endif
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 8, 0)
/*
 * custom: pin_user_pages_unlocked() (mm/gup.c; "mm/gup: introduce
 * pin_user_pages_unlocked", John Hubbard, posted on v5.7-rc7 through the
 * -mm tree: v5.8): FOLL_PIN on get_user_pages_unlocked(), which faults the
 * pages in under mmap_lock (the model's slow path: km_pin_user_pages_fast()
 * pins the same pages; the lockless walk's counters differ). Up to v6.1
 * get_user_pages_unlocked() refuses FOLL_LONGTERM with WARN_ON_ONCE() and
 * -EINVAL ("Current FOLL_LONGTERM behavior is incompatible with
 * FAULT_FLAG_ALLOW_RETRY"); 53b2d09bdd12 ("mm/gup: remove the restriction
 * on locked with FOLL_LONGTERM", Jason Gunthorpe; in mm-stable-2022-12-13,
 * merged as e2ca6ba6ba01 for v6.2) removed the refusal.
 */
static inline long pin_user_pages_unlocked(unsigned long start, unsigned long nr_pages,
					   struct page **pages, unsigned int gup_flags)
{
#if KMODEL_KERNEL_VERSION < KERNEL_VERSION(6, 2, 0)
	if (WARN_ON_ONCE(gup_flags & FOLL_LONGTERM))
		return -EINVAL;
#endif
	return km_pin_user_pages_fast(km_shim_current(), start, (long)nr_pages,
				      km_compat_foll(gup_flags), (struct km_page **)pages);
}
#endif
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 6, 0)
static inline void unpin_user_page(struct page *page)
{
	km_unpin_user_page(km_task_machine(km_shim_current()), km_page_of(page));
}
/* duplicate (mm/gup.c, v5.7) */
static inline void unpin_user_pages(struct page **pages, unsigned long npages)
{
	unsigned long index;

	for (index = 0; index < npages; index++)
		unpin_user_page(pages[index]);
}
#endif
/* custom: PageDirty() of the model's page */
static inline int PageDirty(const struct page *page)
{
	return km_page_dirty((const struct km_page *)page);
}
/* duplicate in effect (mm/page-writeback.c, v5.7): lock_page() may sleep
 * (might_sleep()); the page lock itself is not modelled */
static inline int set_page_dirty_lock(struct page *page)
{
	might_sleep();
	return set_page_dirty(page);
}
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 6, 0)
/* duplicate (mm/gup.c, v5.7; compound_head() is the page itself: the model
 * has no compound pages) */
static inline void unpin_user_pages_dirty_lock(struct page **pages, unsigned long npages,
					       bool make_dirty)
{
	unsigned long index;

	if (!make_dirty) {
		unpin_user_pages(pages, npages);
		return;
	}
	for (index = 0; index < npages; index++) {
		struct page *page = pages[index];

		if (!PageDirty(page))
			set_page_dirty_lock(page);
		unpin_user_page(page);
	}
}
#endif
/* custom: pfn_to_page() of current's machine (NULL past its RAM) */
static inline struct page *pfn_to_page(unsigned long pfn)
{
	return (struct page *)km_pfn_to_page(km_task_machine(km_shim_current()), pfn);
}
/* duplicate (arch/arm/include/asm/pgtable.h, v5.7) */
#define pte_page(pte) pfn_to_page(pte_pfn(pte))
static inline void *page_address(const struct page *page)
{
	return km_page_address(km_task_machine(km_shim_current()), (const struct km_page *)page);
}

/* duplicate (include/linux/mm.h, v5.7), with pte_lockptr() of
 * !USE_SPLIT_PTE_PTLOCKS: &mm->page_table_lock */
#define pte_lockptr(mm, pmd) (&(mm)->page_table_lock)
#define pte_offset_map_lock(mm, pmd, address, ptlp)	\
({							\
	spinlock_t *__ptl = pte_lockptr(mm, pmd);	\
	pte_t *__pte = pte_offset_map(pmd, address);	\
	*(ptlp) = __ptl;				\
	spin_lock(__ptl);				\
	__pte;						\
})
#define pte_unmap_unlock(pte, ptl)	do {		\
	spin_unlock(ptl);				\
	pte_unmap(pte);					\
} while (0)

#endif
