// SPDX-License-Identifier: GPL-2.0
/*
 * get_user_pages_fast(), following internal_get_user_pages_fast(),
 * gup_pte_range() and __get_user_pages() of mm/gup.c (v5.7), the
 * lockless-only __get_user_pages_fast() of the same file, and
 * __access_remote_vm() of mm/memory.c (get_user_pages_remote(), FOLL_FORCE).
 *
 * The mm era (km_machine_config.mm_era) changes what its commits changed:
 *  4.8 (before 19be0eaffa3a): faultin_page() drops FOLL_WRITE after a COW
 *      fault on a vma without VM_WRITE, and follow_page_pte() wants
 *      pte_write() for FOLL_WRITE -- no FOLL_COW (Dirty COW's window);
 *  5.7, 5.9: FOLL_COW instead, can_follow_write_pte() = pte_write() ||
 *      (FOLL_FORCE && FOLL_COW && pte_dirty());
 *  5.8 (17839856fd58, reverted by a308c71bf1e6): on a COW mapping
 *      FOLL_GET/FOLL_PIN turn FOLL_WRITE on (should_force_cow_break()),
 *      can_follow_write_pte() drops the FOLL_FORCE test, and the fast walk
 *      of get_user_pages_fast() (not __get_user_pages_fast()) asks for
 *      FOLL_WRITE;
 *  5.9: FOLL_PIN marks the mm has_pinned (008cfe4418b3), which fork reads.
 * Simplifications: no THP/hugetlb/devmap, no FOLL_LONGTERM; mmap_sem is a
 * reader count (kmodel/interleave.h).
 */
#include "mm_internal.h"
#include <limits.h>
#include <string.h>

/* km_fault_after_gup()'s hook: its state exists only while armed (NULL:
 * none), freed by disarming and by the machine's teardown (km_gup_fini()) */
struct km_gup_state {
	void (*fn)(struct km_task *t, void *arg);
	void *arg;
};

/* its get_page_calls event is in the callers' path counters */
static void grab_page(struct km_page *p, unsigned int gup_flags)
{
	/* try_grab_page(): FOLL_PIN adds GUP_PIN_COUNTING_BIAS, FOLL_GET one */
	p->refcount += (gup_flags & KM_FOLL_PIN) ? KM_GUP_PIN_COUNTING_BIAS : 1;
	p->flags |= (gup_flags & KM_FOLL_PIN) ? KM_PG_GUP_PIN : KM_PG_GUP_GET;
}

/* gup_pte_range(): the lockless walk; returns pages pinned */
static long gup_fast(struct km_task *t, unsigned long addr, long nr_pages,
		     unsigned int gup_flags, struct km_page **pages)
{
	struct km_machine *m = t->m;
	bool write = gup_flags & KM_FOLL_WRITE;
	long nr = 0;

	for (; nr < nr_pages; nr++, addr += m->page_size) {
		km_pte_t *ptep = km_pte_lookup(t->mm, addr, false);
		km_pte_t pte;

		if (!ptep)
			break;
		pte = *ptep;
		/* pte_access_permitted(), then pte_special() */
		if (!(pte & KM_PTE_PRESENT) || !(pte & KM_PTE_USER) ||
		    (write && !(pte & KM_PTE_WRITE)) || (pte & KM_PTE_SPECIAL))
			break;
		pages[nr] = &m->pages[pte >> KM_PTE_PFN_SHIFT];
		grab_page(pages[nr], gup_flags);
		if (__builtin_expect(m->check_pinned_writes, 0) && write)
			km_pin_write_track(m, pages[nr]);
		KM_PATH_INC(m, gup_fast_page);	/* the walk, the reference, the page */
	}
	if (nr < nr_pages)
		KM_EV_INC(m, pt_walks);		/* the walk that stopped it */
	return nr;
}

/* internal FOLL_ flags of mm/gup.c (include/linux/mm.h values) */
#define FOLL_TOUCH	0x02u
#define FOLL_GET	0x04u
#define FOLL_COW	0x4000u

/* check_vma_flags() (v5.7): what a gup may do to @vma. Every private vma
 * of the model is a COW mapping (VM_MAYWRITE), every vma VM_MAYREAD. */
static bool check_vma_flags(const struct km_vma *vma, unsigned int gup_flags)
{
	if (gup_flags & KM_FOLL_WRITE) {
		if (!(vma->vm_flags & KM_VM_WRITE) &&
		    (!(gup_flags & KM_FOLL_FORCE) || (vma->vm_flags & KM_VM_SHARED)))
			return false;	/* !FOLL_FORCE, or !is_cow_mapping() */
	} else if (!(vma->vm_flags & KM_VM_READ) && !(gup_flags & KM_FOLL_FORCE)) {
		return false;
	}
	return true;
}

/* follow_page_pte()'s test of a present pte for FOLL_WRITE:
 * 4.8: pte_write(); 5.8: can_follow_write_pte() without FOLL_FORCE;
 * otherwise can_follow_write_pte() of 19be0eaffa3a */
static bool can_follow_write_pte(const struct km_machine *m, km_pte_t pte, unsigned int flags)
{
	if (pte & KM_PTE_WRITE)
		return true;
	switch (km_mm_era(m)) {
	case 408:
		return false;
	case 508:
		return (flags & FOLL_COW) && (pte & KM_PTE_DIRTY);
	default:
		return (flags & KM_FOLL_FORCE) && (flags & FOLL_COW) && (pte & KM_PTE_DIRTY);
	}
}

/* faultin_page(): handle_mm_fault() with FAULT_FLAG_WRITE for FOLL_WRITE;
 * after VM_FAULT_WRITE on a vma without VM_WRITE, 4.8 drops FOLL_WRITE
 * ("we can thus safely do subsequent page lookups as if they were
 * reads"), later eras set FOLL_COW. 0 or -errno. */
static int faultin_page(struct km_task *t, struct km_mm *mm, struct km_vma *vma,
			unsigned long addr, unsigned int *flags)
{
	unsigned int vmf;
	int ret = km_fault_page(t, mm, vma, addr, *flags & KM_FOLL_WRITE, &vmf);

	if (ret)
		return ret;
	if ((vmf & KM_VM_FAULT_WRITE) && !(vma->vm_flags & KM_VM_WRITE)) {
		if (km_mm_era(mm->m) == 408)
			*flags &= ~KM_FOLL_WRITE;
		else
			*flags |= FOLL_COW;
	}
	return 0;
}

/* __get_user_pages() of @mm under its mmap_sem: returns pages pinned or
 * -errno. @gup_flags has FOLL_GET or FOLL_PIN. */
static long gup_slow(struct km_task *t, struct km_mm *mm, unsigned long start, long nr_pages,
		     unsigned int gup_flags, struct km_page **pages)
{
	struct km_machine *m = t->m;
	struct km_vma *vma = NULL;
	long i = 0;
	int ret = 0;

	/* with down_read(&mm->mmap_sem) and the first page's find_vma() */
	KM_PATH_INC(m, gup_slow_call);
	mm->locks.mmap_sem.readers++;
	if (km_in_atomic(t))
		km_might_sleep(t, "down_read(&mm->mmap_sem)");
	else if (t->pagefault_disabled)
		km_report(m, KM_WARN, KM_R_INATOMIC_FAULT,
			  "get_user_pages slow path (mmap_sem, faults) with pagefault_disable(): "
			  "pagefault_disabled %d", t->pagefault_disabled);
	do {
		unsigned int foll_flags = gup_flags;	/* per page, as the kernel's */
		unsigned int tries = 0;
		km_pte_t *pte;
		struct km_page *p;

		if (!vma || start >= vma->end) {
			if (vma)	/* not the first page's */
				KM_EV_INC(m, find_vma_calls);
			vma = km_find_vma(mm, start);
			if (!vma || !check_vma_flags(vma, gup_flags)) {
				ret = -EFAULT;
				goto out;
			}
		}
		/* 5.8: should_force_cow_break(): a COW mapping and FOLL_GET/PIN */
		if (km_mm_era(m) == 508 && !(vma->vm_flags & KM_VM_SHARED))
			foll_flags |= KM_FOLL_WRITE;
retry:
		/* follow_page_pte() */
		pte = km_pte_lookup(mm, start, false);
		if (!pte || !(*pte & KM_PTE_PRESENT) ||
		    ((foll_flags & KM_FOLL_WRITE) && !can_follow_write_pte(m, *pte, foll_flags))) {
			KM_EV_INC(m, pt_walks);	/* a follow_page_pte() that faults */
			KM_EV_INC(m, follow_page_calls);
			ret = faultin_page(t, mm, vma, start, &foll_flags);
			if (ret)
				goto out;
			/* the kernel leaves only on fatal_signal_pending()
			 * (-ERESTARTSYS); the model fails as for a bad address */
			if (km_retry_stuck(m, &tries, "__get_user_pages() retry", start)) {
				ret = -EFAULT;
				goto out;
			}
			/* `retry:` cond_resched() */
			km_ipoint(m, t, KM_IP_GUP_RETRY, start);
			goto retry;
		}
		p = &m->pages[*pte >> KM_PTE_PFN_SHIFT];
		grab_page(p, gup_flags);
		if (__builtin_expect(m->check_pinned_writes, 0) && (foll_flags & KM_FOLL_WRITE))
			km_pin_write_track(m, p);
		if (gup_flags & FOLL_TOUCH) {	/* set_page_dirty(), mark_page_accessed() */
			if ((foll_flags & KM_FOLL_WRITE) && !(*pte & KM_PTE_DIRTY))
				p->flags |= KM_PG_DIRTY;
			*pte |= KM_PTE_YOUNG;
		}
		pages[i] = p;
		KM_PATH_INC(m, gup_slow_page);	/* its walk and its reference */
		i++;
		start += m->page_size;
		nr_pages--;
	} while (nr_pages);
out:
	mm->locks.mmap_sem.readers--;	/* up_read() */
	return i ? i : ret;
}

static inline bool nr_pages_too_many(const struct km_machine *m, long nr_pages)
{
	return nr_pages > 0 && (unsigned long)nr_pages > ULONG_MAX >> m->page_shift;
}

static long internal_get_user_pages_fast(struct km_task *t, unsigned long start,
					 long nr_pages, unsigned int gup_flags,
					 struct km_page **pages)
{
	struct km_machine *m = t->m;
	unsigned long len, end;
	long nr = 0, ret = 0;
	unsigned long first;

	KM_EV_INC(m, gup_calls);
	start &= ~(m->page_size - 1);
	first = start;
	/* a count whose byte length does not fit in unsigned long is a range
	 * beyond any address space: access_ok() would fail. Checked before
	 * the shift wraps it into a small length. The modelled 32-bit kernel
	 * differs from 2^20 pages of 4 KiB on (its int nr_pages goes to
	 * 2^31 - 1, its len is 32 bits): 2^20 pages make len 0 and it returns
	 * 0; 2^20 + k have access_ok() check only k pages, and the walk then
	 * pins on as far as the vmas go. The model's 64-bit len fails
	 * access_ok() for all of them instead: -EFAULT. */
	if (nr_pages_too_many(m, nr_pages))
		return -EFAULT;
	len = (unsigned long)nr_pages << m->page_shift;
	end = start + len;
	if (end <= start)
		return 0;
	if (!km_access_ok(t, start, len))
		return -EFAULT;
	if (m->gup_limit >= 0 && nr_pages > m->gup_limit) {	/* fault injection */
		if (m->gup_limit == 0)
			return -EFAULT;
		nr_pages = m->gup_limit;
	}
	if (gup_flags & KM_FOLL_PIN)	/* v5.9: atomic_set(&current->mm->has_pinned, 1) */
		t->mm->has_pinned = true;
	/* 5.8: "The FAST_GUP case requires FOLL_WRITE even for pure reads" */
	if (m->cfg.fast_gup)
		ret = nr = gup_fast(t, start, nr_pages,
				   gup_flags | (km_mm_era(m) == 508 ? KM_FOLL_WRITE : 0), pages);
	if (nr < nr_pages) {
		start += (unsigned long)nr << m->page_shift;
		/* __gup_longterm_unlocked() -> get_user_pages_unlocked() */
		ret = gup_slow(t, t->mm, start, nr_pages - nr,
			       gup_flags | FOLL_TOUCH | ((gup_flags & KM_FOLL_PIN) ? 0 : FOLL_GET),
			       pages + nr);
		if (nr > 0) {
			if (ret < 0)
				ret = nr;
			else
				ret += nr;
		}
	}
	if (ret > 0 && m->gup)
		m->gup->fn(t, m->gup->arg);
	if (ret > 0)
		km_ipoint(m, t, KM_IP_AFTER_PIN, first);
	return ret;
}

/* The entry points' checks: FOLL_PIN is set only by pin_user_pages_fast()
 * (a WARN_ON_ONCE() and -EINVAL in get_user_pages_fast(), v5.7); of the
 * flags internal_get_user_pages_fast() takes, the model has FOLL_WRITE
 * and FOLL_FORCE (no FOLL_LONGTERM). */
static inline bool gup_args_ok(const struct km_task *t, unsigned int gup_flags,
			       struct km_page **pages)
{
	return t && t->mm && pages && !(gup_flags & ~(KM_FOLL_WRITE | KM_FOLL_FORCE));
}

/* what is wrong with arguments that gup_args_ok() refused: -EINVAL */
static long __attribute__((noinline, cold)) gup_bad_args(struct km_task *t, unsigned int gup_flags,
							 struct km_page **pages, const char *fn)
{
	if (!t || !t->mm || !pages)
		return km_err(-EINVAL, "%s: no task, mm or pages array", fn);
	km_report(t->m, KM_WARN, KM_R_UNEXPECTED, "%s: gup_flags 0x%x", fn, gup_flags);
	return km_err(-EINVAL, "%s: gup_flags 0x%x: only KM_FOLL_WRITE | KM_FOLL_FORCE", fn,
		      gup_flags);
}

/* What the 4.8 mm era's lockless entry points could not be asked: FOLL_PIN
 * (pin_user_pages*() came in v5.6, eddb1c228f79) and FOLL_FORCE (v4.8's
 * get_user_pages_fast() and __get_user_pages_fast() took `int write`;
 * get_user_pages_fast() takes FOLL_FORCE from v5.6, f4000fdf435b, and
 * get_user_pages_fast_only() from v5.9): a KM_R_UNEXPECTED
 * WARN and -EINVAL. */
static long __attribute__((noinline, cold)) not_in_era(struct km_task *t, const char *fn,
						       unsigned int gup_flags)
{
	if (gup_flags & KM_FOLL_PIN) {
		km_report(t->m, KM_WARN, KM_R_UNEXPECTED,
			  "%s: no pin_user_pages() in the 4.8 mm era", fn);
		return km_err(-EINVAL, "%s: no FOLL_PIN before v5.6 (mm era 4.8)", fn);
	}
	km_report(t->m, KM_WARN, KM_R_UNEXPECTED, "%s: no FOLL_FORCE in the 4.8 mm era", fn);
	return km_err(-EINVAL, "%s: no FOLL_FORCE before v5.6 (f4000fdf435b; mm era 4.8: "
		      "`int write`)", fn);
}

long km_get_user_pages_fast(struct km_task *t, unsigned long start, long nr_pages,
			    unsigned int gup_flags, struct km_page **pages)
{
	if (__builtin_expect(!gup_args_ok(t, gup_flags, pages), 0))
		return gup_bad_args(t, gup_flags, pages, "get_user_pages_fast");
	if (__builtin_expect((gup_flags & KM_FOLL_FORCE) && km_mm_era(t->m) == 408, 0))
		return not_in_era(t, "get_user_pages_fast", gup_flags);
	return internal_get_user_pages_fast(t, start, nr_pages, gup_flags, pages);
}

long km_pin_user_pages_fast(struct km_task *t, unsigned long start, long nr_pages,
			    unsigned int gup_flags, struct km_page **pages)
{
	if (__builtin_expect(!gup_args_ok(t, gup_flags, pages), 0))
		return gup_bad_args(t, gup_flags, pages, "pin_user_pages_fast");
	if (km_mm_era(t->m) == 408)
		return not_in_era(t, "pin_user_pages_fast", KM_FOLL_PIN);
	return internal_get_user_pages_fast(t, start, nr_pages, gup_flags | KM_FOLL_PIN, pages);
}

void km_fault_after_gup(struct km_machine *m, void (*fn)(struct km_task *, void *), void *arg)
{
	if (!m)
		return;
	if (!fn) {
		km_gup_fini(m);
		return;
	}
	if (!m->gup)
		m->gup = g_new0(struct km_gup_state, 1);
	m->gup->fn = fn;
	m->gup->arg = arg;
}

void km_gup_fini(struct km_machine *m)
{
	g_free(m->gup);
	m->gup = NULL;
}

void km_fault_gup_limit(struct km_machine *m, long max_pages)
{
	if (m)
		m->gup_limit = max_pages < 0 ? -1 : max_pages;
}

/* __get_user_pages_fast() (mm/gup.c, v5.7): the lockless walk only, for
 * atomic context. Never sleeps, never faults; 0 where the kernel says 0.
 * Its flags are those of get_user_pages_fast_only() (v5.9, dadbb612f6e5:
 * gup_flags | FOLL_GET | FOLL_FAST_ONLY into internal_get_user_pages_fast(),
 * whose WARN_ON_ONCE() mask takes FOLL_WRITE, FOLL_FORCE and FOLL_PIN --
 * the walk ignores FOLL_FORCE, as gup_fast() does -- and whose -EINVAL
 * the caller turns into 0: "this routine is not allowed to return negative
 * values"). The gup fault-injection knobs apply as to
 * get_user_pages_fast(). */
long km_get_user_pages_fast_only(struct km_task *t, unsigned long start, long nr_pages,
				 unsigned int gup_flags, struct km_page **pages)
{
	struct km_machine *m;
	unsigned long len;
	long ret;

	if (!t || !t->mm || !pages)
		return km_err(-EINVAL, "get_user_pages_fast_only: no task, mm or pages array");
	m = t->m;
	if (gup_flags & ~(KM_FOLL_WRITE | KM_FOLL_FORCE | KM_FOLL_PIN)) {
		km_report(m, KM_WARN, KM_R_UNEXPECTED, "get_user_pages_fast_only: gup_flags 0x%x",
			  gup_flags);
		km_err(-EINVAL, "get_user_pages_fast_only: gup_flags 0x%x: only KM_FOLL_WRITE | "
		       "KM_FOLL_FORCE | KM_FOLL_PIN (0 pages, as v5.9)", gup_flags);
		return 0;
	}
	if ((gup_flags & (KM_FOLL_PIN | KM_FOLL_FORCE)) && km_mm_era(m) == 408)
		return not_in_era(t, (gup_flags & KM_FOLL_PIN) ? "pin_user_pages_fast_only" :
				  "get_user_pages_fast_only", gup_flags);
	if (gup_flags & KM_FOLL_PIN)
		t->mm->has_pinned = true;
	KM_EV_INC(m, gup_calls);
	start &= ~(m->page_size - 1);
	if (nr_pages_too_many(m, nr_pages))
		return 0;
	len = (unsigned long)nr_pages << m->page_shift;
	/* end <= start, !access_ok(), !IS_ENABLED(CONFIG_HAVE_FAST_GUP): 0 */
	if (start + len <= start || !km_access_ok(t, start, len) || !m->cfg.fast_gup)
		return 0;
	if (m->gup_limit >= 0)		/* fault injection */
		nr_pages = MIN(nr_pages, m->gup_limit);
	ret = gup_fast(t, start, nr_pages, gup_flags, pages);
	if (ret > 0 && m->gup)
		m->gup->fn(t, m->gup->arg);
	if (ret > 0)
		km_ipoint(m, t, KM_IP_AFTER_PIN, start);
	return ret;
}

long km_access_remote_vm(struct km_task *t, struct km_mm *mm, unsigned long addr, void *buf,
			 unsigned long len, unsigned int gup_flags)
{
	struct km_machine *m;
	unsigned char *b = buf;
	unsigned long done = 0;

	if (!t || !mm || (!buf && len))
		return km_err(-EINVAL, "km_access_remote_vm: task, mm or buffer is NULL");
	if (gup_flags & ~(KM_FOLL_WRITE | KM_FOLL_FORCE))
		return km_err(-EINVAL, "km_access_remote_vm: gup_flags 0x%x: only KM_FOLL_WRITE | "
				       "KM_FOLL_FORCE", gup_flags);
	m = t->m;
	if (mm->m != m)
		return km_err(-EINVAL, "km_access_remote_vm: mm of another machine");
	km_might_sleep(t, "down_read_killable(&mm->mmap_sem)");
	mm->locks.mmap_sem.readers++;
	while (done < len) {
		unsigned long off = (addr + done) & (m->page_size - 1);
		unsigned long bytes = MIN(len - done, m->page_size - off);
		unsigned char *maddr;
		struct km_page *page;

		/* get_user_pages_remote(): FOLL_TOUCH | FOLL_REMOTE, and FOLL_GET
		 * for the page array (__get_user_pages_locked()) */
		if (addr + done < addr ||
		    gup_slow(t, mm, (addr + done) & ~(m->page_size - 1), 1,
			     gup_flags | FOLL_TOUCH | FOLL_GET, &page) <= 0)
			break;
		maddr = km_frame(m, km_pfn(m, page));	/* kmap() */
		if (gup_flags & KM_FOLL_WRITE) {	/* copy_to_user_page() */
			memcpy(maddr + off, b + done, bytes);
			page->flags |= KM_PG_DIRTY;	/* set_page_dirty_lock() */
		} else {				/* copy_from_user_page() */
			memcpy(b + done, maddr + off, bytes);
		}
		KM_EV_MEMCPY(m, bytes);
		KM_EV_INC(m, memcpy_calls);
		km_put_page(m, page);
		done += bytes;
	}
	mm->locks.mmap_sem.readers--;
	return (long)done;
}
