// SPDX-License-Identifier: GPL-2.0
/*
 * direct: the 3G/1G baseline. With user pages mapped in the kernel's
 * address space, arm_copy_{from,to}_user (arch/arm/lib/copy_{from,to}_user.S,
 * v5.7) loads/stores through the user mapping; the MMU walks the page table,
 * a miss enters do_page_fault() (arch/arm/mm/fault.c), which handles the
 * fault unless faulthandler_disabled() (then, and on a bad area, the
 * exception table's fixup returns the bytes not copied).
 * Simplification: the copy proceeds a page at a time, so the bytes not
 * copied are exact at page granularity (the assembly stops within a word);
 * its events are the kernel's: one call of the routine, however many
 * pages it spans.
 */
#include "mm_internal.h"
#include "variant.h"
#include <kmodel/uaccess.h>
#include <string.h>

/* do_page_fault() for a user access from kernel mode: false when the fault
 * cannot be handled (faults disabled, no vma, or handle_mm_fault() fails) */
static bool __attribute__((noinline)) mmu_fault(struct km_task *t, unsigned long addr, bool write)
{
	struct km_vma *vma;

	km_fault_in_atomic_check(t, addr, write);
	if (km_faulthandler_disabled(t) || !t->mm)
		return false;
	vma = km_find_vma(t->mm, addr);
	KM_EV_INC(t->m, find_vma_calls);
	return vma && !km_handle_mm_fault(t, vma, addr, write);
}

/* One MMU access to user page @addr for a store (@write) or a load: returns
 * the host address, or NULL when the access faults and cannot be handled.
 * Each walk is a pt_walks event: the caller counts the one that succeeds
 * (in its path counter), this counts those that fault. */
static inline unsigned char *mmu_access(struct km_task *t, unsigned long addr, bool write)
{
	struct km_machine *m = t->m;
	unsigned int tries = 0;

	for (;;) {
		km_pte_t *pte = t->mm ? km_pte_lookup(t->mm, addr, false) : NULL;

		/* ARM 2-level (v5.7): young and dirty are software bits, an
		 * old pte or a store to a clean one faults (handle_pte_fault()
		 * sets them) */
		if (__builtin_expect(pte && (*pte & KM_PTE_PRESENT) && (*pte & KM_PTE_USER) &&
				     (*pte & KM_PTE_YOUNG) &&
				     (!write || (*pte & (KM_PTE_WRITE | KM_PTE_DIRTY)) ==
						(KM_PTE_WRITE | KM_PTE_DIRTY)), 1)) {
			return (unsigned char *)km_frame(m, (unsigned long)(*pte >> KM_PTE_PFN_SHIFT)) +
			       (addr & (m->page_size - 1));
		}
		KM_EV_INC(m, pt_walks);
		if (!mmu_fault(t, addr, write) ||
		    km_retry_stuck(m, &tries, "direct user access", addr))
			return NULL;
	}
}

/* Copy between user @uaddr and kernel @kbuf (to user when @to_user, else
 * from user; @kbuf NULL with @to_user: clear). Returns bytes not done.
 * Inlined with constant @to_user and @kbuf-ness into the three entry
 * points below, as the kernel has three routines. */
static inline __attribute__((always_inline)) unsigned long
direct_user_copy(struct km_task *t, unsigned long uaddr, void *kbuf, unsigned long n,
		 bool to_user)
{
	struct km_machine *m = t->m;
	unsigned char *k = kbuf;

	if (__builtin_expect(m->cfg.vmsplit == KM_VMSPLIT_4G4G && !t->kernel_ds, 0)) {
		km_report(m, KM_BUG, KM_R_UNEXPECTED,
			  "direct uaccess on a 4G/4G split: user pages are not mapped in "
			  "the kernel's address space");
		return n;
	}
	if (__builtin_expect(t->kernel_ds, 0)) {	/* "user" addresses are kernel pointers */
		void *u = (void *)uaddr;

		if (!to_user)
			memcpy(k, u, n);
		else if (k)
			memcpy(u, k, n);
		else
			memset(u, 0, n);
		return 0;
	}
	/* raw_copy_{from,to}_user(), __clear_user() (arch/arm/include/asm/
	 * uaccess.h, v5.7): one call of the routine inside
	 * uaccess_save_and_enable()/uaccess_restore() -- CPU_SW_DOMAIN_PAN
	 * depends on !ARM_LPAE (arch/arm/mm/Kconfig), and ARM selects
	 * HAVE_FAST_GUP exactly with ARM_LPAE (arch/arm/Kconfig); the copies
	 * open with the CPU_SPECTRE range mask (copy_{from,to}_user.S) */
	if (k)	/* memcpy_calls (copy_template.S's entry and tail), the mask, PAN */
		KM_PATH_INC(m, direct_copy);
	else	/* memset_calls, PAN */
		KM_PATH_INC(m, direct_clear);
	while (n) {
		unsigned long chunk = MIN(n, m->page_size - (uaddr & (m->page_size - 1)));
		unsigned char *u;

		if (uaddr + chunk < uaddr)
			break;
		u = mmu_access(t, uaddr, to_user);
		if (!u)
			break;
		if (!to_user)
			memcpy(k, u, chunk);
		else if (k)
			memcpy(u, k, chunk);
		else
			memset(u, 0, chunk);
		/* the bytes the assembler routine moved, by routine: their
		 * stores are priced by the kernel's era (kmodel/cost.h) */
		if (k) {
			KM_EV_MEMCPY(m, chunk);
			if (to_user)
				KM_EV_ADD(m, uaccess_asm_to_bytes, chunk);
			else
				KM_EV_ADD(m, uaccess_asm_from_bytes, chunk);
			k += chunk;
		} else {
			KM_EV_TRAFFIC(m, clear_bytes, chunk);
			KM_EV_ADD(m, uaccess_asm_clear_bytes, chunk);
		}
		KM_EV_INC(m, pt_walks);	/* the walk that found the page */
		uaddr += chunk;
		n -= chunk;
	}
	return n;
}

unsigned long km_direct_user_copy(struct km_task *t, unsigned long uaddr, void *kbuf,
				  unsigned long n, bool to_user)
{
	if (!to_user)
		return direct_user_copy(t, uaddr, kbuf, n, false);
	if (kbuf)
		return direct_user_copy(t, uaddr, kbuf, n, true);
	return direct_user_copy(t, uaddr, NULL, n, true);
}

static unsigned long KM_VARIANT_ENTRY direct_from(void *to, unsigned long from, unsigned long n)
{
	if (!km_current_task)
		return km_uaccess_no_task("direct raw_copy_from_user", n);
	return direct_user_copy(km_current_task, from, to, n, false);
}

static unsigned long KM_VARIANT_ENTRY direct_to(unsigned long to, const void *from, unsigned long n)
{
	if (!km_current_task)
		return km_uaccess_no_task("direct raw_copy_to_user", n);
	return direct_user_copy(km_current_task, to, (void *)from, n, true);
}

static unsigned long KM_VARIANT_ENTRY direct_clear(unsigned long to, unsigned long n)
{
	if (!km_current_task)
		return km_uaccess_no_task("direct clear_user", n);
	return direct_user_copy(km_current_task, to, NULL, n, true);
}

/* direct's single-value transfers and string walks: one access through the
 * user mapping each (the layer's get_user() family, arch/arm/lib/getuser.S
 * and putuser.S: the fixup zeroes the value) */
static long direct_get_user(void *to, unsigned long from, unsigned long size)
{
	if (direct_from(to, from, size)) {
		memset(to, 0, size);
		return -EFAULT;
	}
	return 0;
}

static long direct_put_user(unsigned long to, const void *from, unsigned long size)
{
	return direct_to(to, from, size) ? -EFAULT : 0;
}

/* lib/strncpy_from_user.c (v5.7) do_strncpy_from_user() byte by byte: a
 * word-at-a-time load never crosses a page, so the result is the same */
static long direct_strncpy_from_user(char *dst, unsigned long src, long count)
{
	const struct km_task *t = km_current_task;
	unsigned long max = t && t->kernel_ds ? ULONG_MAX : (t ? t->m->task_size : 0);

	for (long i = 0;; i++) {
		char c;

		if (i >= count)
			return count;
		if (src + i >= max || src + i < src ||
		    direct_from(&c, src + i, 1))
			return -EFAULT;
		dst[i] = c;
		if (!c)
			return i;
	}
}

/* lib/strnlen_user.c (v5.7): the length with its NUL, count + 1 when
 * longer, 0 on a fault or at the address limit */
static long direct_strnlen_user(unsigned long src, long count)
{
	const struct km_task *t = km_current_task;
	unsigned long max = t && t->kernel_ds ? ULONG_MAX : (t ? t->m->task_size : 0);

	for (long i = 0;; i++) {
		char c;

		if (i >= count)
			return count + 1;
		if (src + i >= max || src + i < src ||
		    direct_from(&c, src + i, 1))
			return 0;
		if (!c)
			return i + 1;
	}
}


const struct km_uaccess_ops km_uaccess_direct = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "direct",
	.summary = "3G/1G baseline: copy through the user mapping, stop at the first fault",
	.source = "arch/arm/lib/copy_{from,to}_user.S, clear_user.S + arch/arm/mm/fault.c, v5.7",
	.claims_conformance = true,
	.raw_copy_from_user = direct_from,
	.raw_copy_to_user = direct_to,
	.clear_user = direct_clear,
	.get_user = direct_get_user,
	.put_user = direct_put_user,
	.strncpy_from_user = direct_strncpy_from_user,
	.strnlen_user = direct_strnlen_user,
};
