// SPDX-License-Identifier: GPL-2.0
/*
 * get_user_pages_fast(), following internal_get_user_pages_fast(),
 * gup_pte_range() and __get_user_pages() of mm/gup.c (v5.7), and the
 * lockless-only __get_user_pages_fast() of the same file.
 * Simplifications: no THP/hugetlb/devmap, no FOLL_LONGTERM/FOLL_FORCE;
 * mmap_sem is not modelled beyond its might_sleep().
 */
#include "mm_internal.h"
#include <limits.h>

static void grab_page(struct km_machine *m, struct km_page *p, unsigned int gup_flags)
{
	m->ev.get_page_calls++;
	/* try_grab_page(): FOLL_PIN adds GUP_PIN_COUNTING_BIAS, FOLL_GET one */
	p->refcount += (gup_flags & KM_FOLL_PIN) ? KM_GUP_PIN_COUNTING_BIAS : 1;
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

		m->ev.pt_walks++;
		if (!ptep)
			break;
		pte = *ptep;
		/* pte_access_permitted(), then pte_special() */
		if (!(pte & KM_PTE_PRESENT) || !(pte & KM_PTE_USER) ||
		    (write && !(pte & KM_PTE_WRITE)) || (pte & KM_PTE_SPECIAL))
			break;
		pages[nr] = &m->pages[pte >> KM_PTE_PFN_SHIFT];
		grab_page(m, pages[nr], gup_flags);
	}
	m->ev.gup_fast_pages += (uint64_t)nr;
	return nr;
}

/* __get_user_pages() under mmap_sem: returns pages pinned or -errno */
static long gup_slow(struct km_task *t, unsigned long start, long nr_pages,
		     unsigned int gup_flags, struct km_page **pages)
{
	struct km_machine *m = t->m;
	bool write = gup_flags & KM_FOLL_WRITE;
	struct km_vma *vma = NULL;
	long i = 0;
	int ret = 0;

	m->ev.gup_slow_calls++;
	m->ev.mmap_sem_locks++;		/* down_read(&mm->mmap_sem) */
	t->mm->locks.mmap_sem.readers++;
	if (km_in_atomic(t))
		km_might_sleep(t, "down_read(&mm->mmap_sem)");
	else if (t->pagefault_disabled)
		km_report(m, KM_WARN, KM_R_INATOMIC_FAULT,
			  "get_user_pages slow path (mmap_sem, faults) with pagefault_disable(): "
			  "pagefault_disabled %d", t->pagefault_disabled);
	do {
		km_pte_t *pte;
		struct km_page *p;

		if (!vma || start >= vma->end) {
			vma = km_find_vma(t->mm, start);
			m->ev.find_vma_calls++;
			/* check_vma_flags() */
			if (!vma || (write ? !(vma->vm_flags & KM_VM_WRITE)
					   : !(vma->vm_flags & KM_VM_READ))) {
				ret = -EFAULT;
				goto out;
			}
		}
retry:
		/* follow_page_pte() */
		pte = km_pte_lookup(t->mm, start, false);
		m->ev.pt_walks++;
		m->ev.follow_page_calls++;
		if (!pte || !(*pte & KM_PTE_PRESENT) || (write && !(*pte & KM_PTE_WRITE))) {
			/* faultin_page() */
			ret = km_handle_mm_fault(t, vma, start, write);
			if (ret)
				goto out;
			/* `retry:` cond_resched() */
			km_ipoint(m, t, KM_IP_GUP_RETRY, start);
			goto retry;
		}
		p = &m->pages[*pte >> KM_PTE_PFN_SHIFT];
		grab_page(m, p, gup_flags);
		/* FOLL_TOUCH */
		if (write && !(*pte & KM_PTE_DIRTY))
			p->flags |= KM_PG_DIRTY;	/* set_page_dirty() */
		*pte |= KM_PTE_YOUNG;
		pages[i] = p;
		m->ev.gup_slow_pages++;
		i++;
		start += m->page_size;
		nr_pages--;
	} while (nr_pages);
out:
	t->mm->locks.mmap_sem.readers--;	/* up_read() */
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

	m->ev.gup_calls++;
	start &= ~(m->page_size - 1);
	first = start;
	/* a count whose byte length does not fit in unsigned long is a range
	 * beyond any address space: access_ok() would fail (64-bit host; the
	 * kernel's int nr_pages cannot get there). Checked before the shift
	 * wraps it into a small length. */
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
	if (m->cfg.fast_gup)
		ret = nr = gup_fast(t, start, nr_pages, gup_flags, pages);
	if (nr < nr_pages) {
		start += (unsigned long)nr << m->page_shift;
		ret = gup_slow(t, start, nr_pages - nr, gup_flags, pages + nr);
		if (nr > 0) {
			if (ret < 0)
				ret = nr;
			else
				ret += nr;
		}
	}
	if (ret > 0 && m->gup_hook)
		m->gup_hook(t, m->gup_hook_arg);
	if (ret > 0)
		km_ipoint(m, t, KM_IP_AFTER_PIN, first);
	return ret;
}

/* The entry points' checks: FOLL_PIN is set only by pin_user_pages_fast()
 * (a WARN_ON_ONCE() and -EINVAL in get_user_pages_fast(), v5.7). */
static inline bool gup_args_ok(const struct km_task *t, unsigned int gup_flags,
			       struct km_page **pages)
{
	return t && t->mm && pages && !(gup_flags & ~KM_FOLL_WRITE);
}

/* what is wrong with arguments that gup_args_ok() refused: -EINVAL */
static long __attribute__((noinline, cold)) gup_bad_args(struct km_task *t, unsigned int gup_flags,
							 struct km_page **pages, const char *fn)
{
	if (!t || !t->mm || !pages)
		return km_err(-EINVAL, "%s: no task, mm or pages array", fn);
	km_report(t->m, KM_WARN, KM_R_UNEXPECTED, "%s: gup_flags 0x%x", fn, gup_flags);
	return km_err(-EINVAL, "%s: gup_flags 0x%x: only KM_FOLL_WRITE", fn, gup_flags);
}

long km_get_user_pages_fast(struct km_task *t, unsigned long start, long nr_pages,
			    unsigned int gup_flags, struct km_page **pages)
{
	if (__builtin_expect(!gup_args_ok(t, gup_flags, pages), 0))
		return gup_bad_args(t, gup_flags, pages, "get_user_pages_fast");
	return internal_get_user_pages_fast(t, start, nr_pages, gup_flags, pages);
}

long km_pin_user_pages_fast(struct km_task *t, unsigned long start, long nr_pages,
			    unsigned int gup_flags, struct km_page **pages)
{
	if (__builtin_expect(!gup_args_ok(t, gup_flags, pages), 0))
		return gup_bad_args(t, gup_flags, pages, "pin_user_pages_fast");
	return internal_get_user_pages_fast(t, start, nr_pages, gup_flags | KM_FOLL_PIN, pages);
}

void km_fault_after_gup(struct km_machine *m, void (*fn)(struct km_task *, void *), void *arg)
{
	if (!m)
		return;
	m->gup_hook = fn;
	m->gup_hook_arg = arg;
}

void km_fault_gup_limit(struct km_machine *m, long max_pages)
{
	if (m)
		m->gup_limit = max_pages < 0 ? -1 : max_pages;
}

/* __get_user_pages_fast() (mm/gup.c, v5.7): the lockless walk only, for
 * atomic context. Never sleeps, never faults; 0 where the kernel says 0.
 * The gup fault-injection knobs apply as to get_user_pages_fast(). */
long km_get_user_pages_fast_only(struct km_task *t, unsigned long start, long nr_pages,
				 unsigned int gup_flags, struct km_page **pages)
{
	struct km_machine *m;
	unsigned long len;
	long ret;

	if (!t || !t->mm || !pages || (gup_flags & ~(KM_FOLL_WRITE | KM_FOLL_PIN)))
		return km_err(-EINVAL, "__get_user_pages_fast: no task, mm or pages, "
				       "or gup_flags 0x%x", gup_flags);
	m = t->m;
	m->ev.gup_calls++;
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
	if (ret > 0 && m->gup_hook)
		m->gup_hook(t, m->gup_hook_arg);
	if (ret > 0)
		km_ipoint(m, t, KM_IP_AFTER_PIN, start);
	return ret;
}
