// SPDX-License-Identifier: GPL-2.0
/*
 * uaccess_with_memcpy: ARM's CONFIG_UACCESS_WITH_MEMCPY,
 * arch/arm/lib/uaccess_with_memcpy.c (Lennert Buytenhek and Nicolas Pitre,
 * 2009) as of v5.7, ported VERBATIM between the BEGIN/END markers and
 * compiled against include/kmodel/kernel. Nicolas Pitre asked for it in
 * the RFC's thread, and the block-size table there has a column for it.
 *
 * The v5.7 text is reconstructed: the stored torvalds/linux copy (commit
 * 07c7b547, a later mainline) has p4d_offset() (ARM's folded p4d, v5.8)
 * and mmap_read_lock()/mmap_read_unlock() (the mmap locking API, v5.8).
 * Here they are undone to v5.7's pud_offset(pgd, addr) and
 * down_read()/up_read(&current->mm->mmap_sem), which the rppt/linux copy
 * (commit 1c3056c3, pre-5.8 apart from its own page-table-struct
 * experiment, whose mm_pgt()/pgt. changes are not taken) shows in place.
 * The region starts at the file's first line, its SPDX tag
 * "GPL-2.0-only" (line 1 of the rppt/linux copy), and runs to the end of
 * arm_clear_user(); left out after it: the file's `#if 0` threshold
 * self-test (test_size_treshold()). tests/test_seeds.c guards the region
 * against that text.
 *
 * What it does: copy_to_user and clear_user of 64 bytes or more walk the
 * page table for each page (pin_page_for_write(): the pte must be present,
 * young, writable and dirty), hold the pte lock across the memcpy/memset
 * of that page and take no page reference; a page that fails the walk is
 * faulted in by __put_user(0, to) and the walk retries (so a zero byte is
 * stored before the copy). mmap_sem is held unless faulthandler_disabled();
 * __clear_user_memset() takes it always -- a might_sleep() in atomic
 * context. Below 64 bytes, and for copy_from_user, the assembler routines
 * run: the model's direct variant.
 *
 * Model notes: the pte lock is the mm's page_table_lock (no split pte
 * locks); pmd_thp_or_huge() is 0 (no THP without LPAE, and the model has
 * none); the walk folds onto the model's two-level table
 * (include/kmodel/kernel/asm/pgtable.h). Host note: unsigned long is
 * 64-bit here; `tocopy` is an int as in the kernel (at most PAGE_SIZE).
 */
/* Keep the file's global names out of the library's namespace. */
#define arm_copy_to_user km_arm_copy_to_user
#define arm_clear_user km_arm_clear_user
#include "variant.h"

/* ---- BEGIN uaccess_with_memcpy.c v5.7 (verbatim) ---- */
// SPDX-License-Identifier: GPL-2.0-only
/*
 *  linux/arch/arm/lib/uaccess_with_memcpy.c
 *
 *  Written by: Lennert Buytenhek and Nicolas Pitre
 *  Copyright (C) 2009 Marvell Semiconductor
 */

#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/uaccess.h>
#include <linux/rwsem.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/hardirq.h> /* for in_atomic() */
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/hugetlb.h>
#include <asm/current.h>
#include <asm/page.h>

static int
pin_page_for_write(const void __user *_addr, pte_t **ptep, spinlock_t **ptlp)
{
	unsigned long addr = (unsigned long)_addr;
	pgd_t *pgd;
	pmd_t *pmd;
	pte_t *pte;
	pud_t *pud;
	spinlock_t *ptl;

	pgd = pgd_offset(current->mm, addr);
	if (unlikely(pgd_none(*pgd) || pgd_bad(*pgd)))
		return 0;

	pud = pud_offset(pgd, addr);
	if (unlikely(pud_none(*pud) || pud_bad(*pud)))
		return 0;

	pmd = pmd_offset(pud, addr);
	if (unlikely(pmd_none(*pmd)))
		return 0;

	/*
	 * A pmd can be bad if it refers to a HugeTLB or THP page.
	 *
	 * Both THP and HugeTLB pages have the same pmd layout
	 * and should not be manipulated by the pte functions.
	 *
	 * Lock the page table for the destination and check
	 * to see that it's still huge and whether or not we will
	 * need to fault on write.
	 */
	if (unlikely(pmd_thp_or_huge(*pmd))) {
		ptl = &current->mm->page_table_lock;
		spin_lock(ptl);
		if (unlikely(!pmd_thp_or_huge(*pmd)
			|| pmd_hugewillfault(*pmd))) {
			spin_unlock(ptl);
			return 0;
		}

		*ptep = NULL;
		*ptlp = ptl;
		return 1;
	}

	if (unlikely(pmd_bad(*pmd)))
		return 0;

	pte = pte_offset_map_lock(current->mm, pmd, addr, &ptl);
	if (unlikely(!pte_present(*pte) || !pte_young(*pte) ||
	    !pte_write(*pte) || !pte_dirty(*pte))) {
		pte_unmap_unlock(pte, ptl);
		return 0;
	}

	*ptep = pte;
	*ptlp = ptl;

	return 1;
}

static unsigned long noinline
__copy_to_user_memcpy(void __user *to, const void *from, unsigned long n)
{
	unsigned long ua_flags;
	int atomic;

	if (uaccess_kernel()) {
		memcpy((void *)to, from, n);
		return 0;
	}

	/* the mmap semaphore is taken only if not in an atomic context */
	atomic = faulthandler_disabled();

	if (!atomic)
		down_read(&current->mm->mmap_sem);
	while (n) {
		pte_t *pte;
		spinlock_t *ptl;
		int tocopy;

		while (!pin_page_for_write(to, &pte, &ptl)) {
			if (!atomic)
				up_read(&current->mm->mmap_sem);
			if (__put_user(0, (char __user *)to))
				goto out;
			if (!atomic)
				down_read(&current->mm->mmap_sem);
		}

		tocopy = (~(unsigned long)to & ~PAGE_MASK) + 1;
		if (tocopy > n)
			tocopy = n;

		ua_flags = uaccess_save_and_enable();
		memcpy((void *)to, from, tocopy);
		uaccess_restore(ua_flags);
		to += tocopy;
		from += tocopy;
		n -= tocopy;

		if (pte)
			pte_unmap_unlock(pte, ptl);
		else
			spin_unlock(ptl);
	}
	if (!atomic)
		up_read(&current->mm->mmap_sem);

out:
	return n;
}

unsigned long
arm_copy_to_user(void __user *to, const void *from, unsigned long n)
{
	/*
	 * This test is stubbed out of the main function above to keep
	 * the overhead for small copies low by avoiding a large
	 * register dump on the stack just to reload them right away.
	 * With frame pointer disabled, tail call optimization kicks in
	 * as well making this test almost invisible.
	 */
	if (n < 64) {
		unsigned long ua_flags = uaccess_save_and_enable();
		n = __copy_to_user_std(to, from, n);
		uaccess_restore(ua_flags);
	} else {
		n = __copy_to_user_memcpy(uaccess_mask_range_ptr(to, n),
					  from, n);
	}
	return n;
}
	
static unsigned long noinline
__clear_user_memset(void __user *addr, unsigned long n)
{
	unsigned long ua_flags;

	if (uaccess_kernel()) {
		memset((void *)addr, 0, n);
		return 0;
	}

	down_read(&current->mm->mmap_sem);
	while (n) {
		pte_t *pte;
		spinlock_t *ptl;
		int tocopy;

		while (!pin_page_for_write(addr, &pte, &ptl)) {
			up_read(&current->mm->mmap_sem);
			if (__put_user(0, (char __user *)addr))
				goto out;
			down_read(&current->mm->mmap_sem);
		}

		tocopy = (~(unsigned long)addr & ~PAGE_MASK) + 1;
		if (tocopy > n)
			tocopy = n;

		ua_flags = uaccess_save_and_enable();
		memset((void *)addr, 0, tocopy);
		uaccess_restore(ua_flags);
		addr += tocopy;
		n -= tocopy;

		if (pte)
			pte_unmap_unlock(pte, ptl);
		else
			spin_unlock(ptl);
	}
	up_read(&current->mm->mmap_sem);

out:
	return n;
}

unsigned long arm_clear_user(void __user *addr, unsigned long n)
{
	/* See rational for this in __copy_to_user() above. */
	if (n < 64) {
		unsigned long ua_flags = uaccess_save_and_enable();
		n = __clear_user_std(addr, n);
		uaccess_restore(ua_flags);
	} else {
		n = __clear_user_memset(addr, n);
	}
	return n;
}
/* ---- END uaccess_with_memcpy.c ---- */

unsigned long arm_copy_to_user(void __user *to, const void *from, unsigned long n);
unsigned long arm_clear_user(void __user *addr, unsigned long n);

static unsigned long KM_VARIANT_ENTRY with_memcpy_to(unsigned long to, const void *from,
						     unsigned long n)
{
	if (!km_current_task)
		return km_uaccess_no_task("uaccess_with_memcpy raw_copy_to_user", n);
	return arm_copy_to_user((void __user *)to, from, n);
}

static unsigned long KM_VARIANT_ENTRY with_memcpy_clear(unsigned long to, unsigned long n)
{
	if (!km_current_task)
		return km_uaccess_no_task("uaccess_with_memcpy clear_user", n);
	return arm_clear_user((void __user *)to, n);
}

/* copy_from_user stays arm_copy_from_user (copy_from_user.S): direct's */
static unsigned long KM_VARIANT_ENTRY with_memcpy_from(void *to, unsigned long from,
						       unsigned long n)
{
	return km_uaccess_direct.raw_copy_from_user(to, from, n);
}

const struct km_uaccess_ops km_uaccess_with_memcpy = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "uaccess_with_memcpy",
	.summary = "ARM CONFIG_UACCESS_WITH_MEMCPY: pte walk + lock, memcpy/memset per page (>= 64 B)",
	.source = "arch/arm/lib/uaccess_with_memcpy.c, v5.7 (reconstructed from later text)",
	.claims_conformance = true,
	.raw_copy_from_user = with_memcpy_from,
	.raw_copy_to_user = with_memcpy_to,
	.clear_user = with_memcpy_clear,
};
