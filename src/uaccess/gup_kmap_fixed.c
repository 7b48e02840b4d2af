// SPDX-License-Identifier: GPL-2.0
/*
 * gup_kmap_fixed: the RFC's lib/uaccess_gup_kmap_memcpy.c (the faithful
 * port is src/uaccess/gup_kmap_memcpy.c) with the fixes its review asked
 * for. It keeps the RFC's shape -- pin the user pages with gup,
 * kmap_atomic() each, memcpy(), put_page() -- and its helper names
 * (do_op_one_page, buffer_op, copy_chunk_*), so the two read side by side.
 * Kernel-style code, compiled against include/kmodel/kernel like the port.
 *
 * Which fix answers which flaw of the RFC (marked FIX(n) in the code):
 *  FIX(1) partial pin. The RFC, when get_user_pages_fast() pins fewer than
 *         num_pages, puts them and returns n: nothing is copied although a
 *         prefix was accessible. The raw contract (include/linux/uaccess.h,
 *         v5.7: "not storing anything at all (i.e. returning size) should
 *         happen only when nothing could be copied") asks for that prefix.
 *         Here the bytes in the pinned pages are copied and the rest is
 *         returned as not copied.
 *  FIX(2) page array. The RFC kmalloc_array()s it on every copy. Here
 *         GUP_KMAP_BATCH (64) struct page pointers live on the stack (256
 *         bytes on 32-bit ARM); a copy over more than 64 pages pins, copies
 *         and puts them 64 at a time. There is no kmalloc at all, hence no
 *         allocation failure path and no allocation in atomic context.
 *  FIX(3) lengths. The RFC's int len/num_pages/ret truncate n > INT_MAX
 *         (check_copy_size() stops such n in copy_{from,to}_user(), but
 *         the raw functions are also reached directly). Here every length
 *         and count is unsigned long; gup gets at most 64 pages per call,
 *         so its int nr_pages never truncates.
 *  FIX(4) atomic context. The RFC's kmalloc_array(GFP_KERNEL) and the gup
 *         slow path's down_read(&mm->mmap_sem) may sleep, a bug when the
 *         copy runs with page faults disabled -- as
 *         iov_iter_copy_from_user_atomic() runs it, under kmap_atomic().
 *         The lockless __get_user_pages_fast() is no answer on the RFC's
 *         own machines: 32-bit ARM without LPAE has no
 *         CONFIG_HAVE_FAST_GUP (it pins nothing there) and no
 *         pte_special (the zero page a read fault maps would be refused
 *         even with it). Here, when faulthandler_disabled()
 *         (include/linux/uaccess.h: pagefault_disabled() || in_atomic()),
 *         each page is reached by the kernel's own precedent for atomic
 *         context, the pte-lock walk of pin_page_for_write() in
 *         arch/arm/lib/uaccess_with_memcpy.c (v5.7): pgd_offset() ..
 *         pte_offset_map_lock(), the pte must be present and young (ARM's
 *         software bits: an old pte faults) and, for a store, writable
 *         and dirty; the pte lock is held across kmap_atomic(), memcpy()
 *         and kunmap_atomic() of that page, so it can be neither unmapped
 *         nor freed meanwhile, and no reference is taken. The copy stops
 *         at the first page that fails: those bytes are returned as not
 *         copied -- what a faulting access with pagefault_disable() does;
 *         the caller faults the page in and retries (generic_perform_write()).
 *         The walk never sleeps (a spinlock) and works on every machine,
 *         with or without fast GUP, and reads the zero page.
 *  FIX(5) n == 0. The RFC computes num_pages = 1 for an unaligned n == 0
 *         and pins (faulting in) that page; here n == 0 does nothing.
 *  FIX(6) dirtying. The RFC put_page()s a page it wrote through the pin
 *         without set_page_dirty(): if writeback cleaned the page between
 *         the pin and the memcpy, the write is never written back. Here
 *         copy_to_user marks each written page dirty before putting it,
 *         as unpin_user_pages_dirty_lock() (mm/gup.c, v5.7) does. It calls
 *         set_page_dirty(), not set_page_dirty_lock(): lock_page() may
 *         sleep and the copy may run in atomic context; the truncate race
 *         that leaves for file pages (see set_page_dirty_lock() in
 *         mm/page-writeback.c) is not modelled (no page lock, no truncate).
 */
#include <linux/err.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

#include <asm/page.h>
#include <asm/pgtable.h>
#include "variant.h"

#define GUP_KMAP_BATCH 64	/* FIX(2): pages pinned per gup call, on the stack */

typedef void (*gup_kmap_op)(unsigned long addr, unsigned long len, void *arg);

/* FIX(3): unsigned long len; memcpy() cannot fail, so no return value */
static void do_op_one_page(unsigned long addr, unsigned long len, gup_kmap_op op, void *arg,
			   struct page *page)
{
	void *kaddr = kmap_atomic(page);

	(*op)((unsigned long)kaddr + (addr & ~PAGE_MASK), len, arg);
	kunmap_atomic(kaddr);
}

/* The bytes of [addr, addr + len) that lie in the @nr pinned @pages, a page
 * at a time. Return: bytes done. */
static unsigned long buffer_op(unsigned long addr, unsigned long len, gup_kmap_op op,
			       void *arg, struct page **pages, unsigned long nr)
{
	unsigned long done = 0;

	for (; done < len && nr; nr--, pages++) {
		unsigned long size = min(PAGE_SIZE - (addr & ~PAGE_MASK), len - done);

		do_op_one_page(addr, size, op, arg, *pages);
		addr += size;
		done += size;
	}
	return done;
}

static void copy_chunk_from_user(unsigned long from, unsigned long len, void *arg)
{
	unsigned long *to_ptr = arg, to = *to_ptr;

	memcpy((void *)to, (void *)from, len);
	*to_ptr += len;
}

static void copy_chunk_to_user(unsigned long to, unsigned long len, void *arg)
{
	unsigned long *from_ptr = arg, from = *from_ptr;

	memcpy((void *)to, (void *)from, len);
	*from_ptr += len;
}

/* FIX(4): pin_page_for_write() (arch/arm/lib/uaccess_with_memcpy.c, v5.7)
 * for loads and stores: the page of a present, young pte -- writable and
 * dirty for a store (@write) -- with its pte lock held in *@ptlp, or NULL
 * (nothing held). pmd_thp_or_huge() is always 0 here (no THP without
 * LPAE), so the walk has no huge-page branch. */
static struct page *lock_user_page(unsigned long addr, bool write, pte_t **ptep,
				   spinlock_t **ptlp)
{
	pgd_t *pgd;
	pud_t *pud;
	pmd_t *pmd;
	pte_t *pte;
	spinlock_t *ptl;

	pgd = pgd_offset(current->mm, addr);
	if (unlikely(pgd_none(*pgd) || pgd_bad(*pgd)))
		return NULL;
	pud = pud_offset(pgd, addr);
	if (unlikely(pud_none(*pud) || pud_bad(*pud)))
		return NULL;
	pmd = pmd_offset(pud, addr);
	if (unlikely(pmd_none(*pmd) || pmd_bad(*pmd)))
		return NULL;
	pte = pte_offset_map_lock(current->mm, pmd, addr, &ptl);
	if (unlikely(!pte_present(*pte) || !pte_young(*pte) ||
		     (write && (!pte_write(*pte) || !pte_dirty(*pte))))) {
		pte_unmap_unlock(pte, ptl);
		return NULL;
	}
	*ptep = pte;
	*ptlp = ptl;
	return pte_page(*pte);
}

/* FIX(4): in atomic context, a page at a time under its pte lock. Return:
 * bytes not done. */
static unsigned long locked_op_user(unsigned long uaddr, unsigned long n, bool write,
				    gup_kmap_op op, void *arg)
{
	unsigned long left = n;

	while (left) {
		unsigned long size = min(PAGE_SIZE - (uaddr & ~PAGE_MASK), left);
		struct page *page;
		spinlock_t *ptl;
		pte_t *pte;

		page = lock_user_page(uaddr, write, &pte, &ptl);
		if (!page)
			break;		/* not accessible without a fault */
		do_op_one_page(uaddr, size, op, arg, page);
		pte_unmap_unlock(pte, ptl);
		uaddr += size;
		left -= size;
	}
	return left;
}

/* Pin, copy, put, GUP_KMAP_BATCH pages at a time; in atomic context the
 * pte-lock walk instead (FIX(4)). Return: bytes not done. */
static unsigned long gup_kmap_op_user(unsigned long uaddr, unsigned long n,
				      unsigned int gup_flags, gup_kmap_op op, void *arg)
{
	struct page *pages[GUP_KMAP_BATCH];	/* FIX(2) */
	unsigned long left = n;			/* FIX(5): n == 0 skips the loop */

	if (faulthandler_disabled())		/* FIX(4) */
		return locked_op_user(uaddr, n, gup_flags & FOLL_WRITE, op, arg);
	while (left) {
		unsigned long off = uaddr & ~PAGE_MASK, nr, done, i;
		long pinned;

		nr = left > GUP_KMAP_BATCH * PAGE_SIZE ? GUP_KMAP_BATCH
						       : DIV_ROUND_UP(off + left, PAGE_SIZE);
		nr = min(nr, (unsigned long)GUP_KMAP_BATCH);
		pinned = get_user_pages_fast(uaddr, (int)nr, gup_flags, pages);
		if (pinned <= 0)
			break;
		/* FIX(1): copy what lies in the pinned pages */
		done = buffer_op(uaddr, left, op, arg, pages, (unsigned long)pinned);
		for (i = 0; i < (unsigned long)pinned; i++) {
			if (gup_flags & FOLL_WRITE)	/* FIX(6) */
				set_page_dirty(pages[i]);
			put_page(pages[i]);
		}
		uaddr += done;
		left -= done;
		if ((unsigned long)pinned < nr)
			break;		/* the next page is not accessible now */
	}
	return left;
}

static unsigned long fixed_copy_from_user(void *to, const void __user *from, unsigned long n)
{
	unsigned long to_ptr = (unsigned long)to;

	if (uaccess_kernel()) {
		memcpy(to, (__force void *)from, n);
		return 0;
	}
	return gup_kmap_op_user((unsigned long)from, n, 0, copy_chunk_from_user, &to_ptr);
}

static unsigned long fixed_copy_to_user(void __user *to, const void *from, unsigned long n)
{
	unsigned long from_ptr = (unsigned long)from;

	if (uaccess_kernel()) {
		memcpy((__force void *)to, from, n);
		return 0;
	}
	return gup_kmap_op_user((unsigned long)to, n, FOLL_WRITE, copy_chunk_to_user, &from_ptr);
}

static unsigned long KM_VARIANT_ENTRY fixed_from(void *to, unsigned long from, unsigned long n)
{
	if (!km_current_task)
		return km_uaccess_no_task("gup_kmap_fixed raw_copy_from_user", n);
	return fixed_copy_from_user(to, (const void __user *)from, n);
}

static unsigned long KM_VARIANT_ENTRY fixed_to(unsigned long to, const void *from, unsigned long n)
{
	if (!km_current_task)
		return km_uaccess_no_task("gup_kmap_fixed raw_copy_to_user", n);
	return fixed_copy_to_user((void __user *)to, from, n);
}

const struct km_uaccess_ops km_uaccess_gup_kmap_fixed = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "gup_kmap_fixed",
	.summary = "the RFC with the review's fixes: partial pins, stack page array, pte-lock walk in atomic",
	.source = "lib/uaccess_gup_kmap_memcpy.c (RFC 1/3, 12 Jun 2020) + review fixes, v5.7 mm/gup.c, "
		  "arch/arm/lib/uaccess_with_memcpy.c pin_page_for_write()",
	.claims_conformance = true,
	.raw_copy_from_user = fixed_from,
	.raw_copy_to_user = fixed_to,
};
