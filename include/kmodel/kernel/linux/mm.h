/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/mm.h> */
#ifndef KM_COMPAT_LINUX_MM_H
#define KM_COMPAT_LINUX_MM_H

#include <linux/kernel.h>
#include <asm/page.h>
#include <kmodel/mm.h>
#include <asm/pgtable.h>
#include <linux/sched.h>

/* custom: struct page is the model's struct km_page, kept incomplete */
struct page;
#define km_page_of(p) ((struct km_page *)(p))

#define FOLL_WRITE KM_FOLL_WRITE
#define FOLL_PIN KM_FOLL_PIN
#define GUP_PIN_COUNTING_BIAS KM_GUP_PIN_COUNTING_BIAS

/* custom: mm/gup.c get_user_pages_fast() (v5.7 signature) on current->mm */
static inline int get_user_pages_fast(unsigned long start, int nr_pages,
				      unsigned int gup_flags, struct page **pages)
{
	return (int)km_get_user_pages_fast(km_shim_current(), start, nr_pages, gup_flags,
					   (struct km_page **)pages);
}
/* custom: mm/gup.c __get_user_pages_fast() (v5.7 signature): lockless only */
static inline int __get_user_pages_fast(unsigned long start, int nr_pages, int write,
					struct page **pages)
{
	return (int)km_get_user_pages_fast_only(km_shim_current(), start, nr_pages,
						write ? FOLL_WRITE : 0, (struct km_page **)pages);
}
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
static inline void unpin_user_page(struct page *page)
{
	km_unpin_user_page(km_task_machine(km_shim_current()), km_page_of(page));
}
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
