// SPDX-License-Identifier: GPL-2.0
/*
 * The page-table walk and the locks that code walking it takes:
 * pgd/pmd_offset() onto the model's two-level table, pte_offset_map_lock()'s
 * page_table_lock (include/linux/mm.h, v5.7, without split pte locks:
 * pte_lockptr() is &mm->page_table_lock), spin_lock()/spin_unlock()
 * (include/linux/spinlock.h: preempt_disable() + the lock, with
 * CONFIG_DEBUG_SPINLOCK's owner checks, kernel/locking/spinlock_debug.c)
 * and down_read()/up_read() of mmap_sem (kernel/locking/rwsem.c:
 * might_sleep(), then a reader; CONFIG_DEBUG_RWSEMS's unbalanced-release
 * WARN). Simplification: one task runs at a time, so no lock is ever
 * contended; a lock found held by another task is reported, not waited on.
 */
#include "mm_internal.h"
#include <assert.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct km_mm_locks *km_mm_locks(struct km_mm *mm)
{
	return mm ? &mm->locks : NULL;
}

struct km_mm_locks *km_task_mm_locks(struct km_task *t)
{
	if (__builtin_expect(!t, 0)) {
		km_set_error("km_task_mm_locks: task is NULL");
		return NULL;
	}
	if (__builtin_expect(t->mm != NULL, 1))
		return &t->mm->locks;
	km_report(t->m, KM_BUG, KM_R_UNEXPECTED,
		  "current->mm is NULL: a kernel thread has no user address space");
	return &t->m->no_mm_locks;
}

km_pte_t **km_pmd_offset(struct km_mm *mm, unsigned long addr)
{
	static km_pte_t *const none;	/* read-only: always pmd_none() */

	if (mm)
		KM_EV_INC(mm->m, pt_walks_sw);
	if (!mm || addr >= mm->m->task_size)
		return (km_pte_t **)&none;
	return &mm->pgd[(addr >> mm->m->page_shift) >> KM_PTRS_BITS];
}

/* lock operations with no task or no lock: errors, nothing changes */
static bool __attribute__((noinline, cold)) lock_args_bad(const struct km_task *t,
							   const void *l, const char *fn)
{
	if (t && l)
		return false;
	km_set_error("%s: task or lock is NULL", fn);
	return true;
}

void km_spin_lock(struct km_task *t, struct km_spinlock *l)
{
	if (__builtin_expect(!t || !l, 0) && lock_args_bad(t, l, "km_spin_lock"))
		return;
	KM_EV_INC(t->m, spin_locks);
	km_preempt_count_inc(t);	/* preempt_disable() */
	t->spinlocks++;
	if (__builtin_expect(l->owner != NULL, 0))
		km_report(t->m, KM_BUG, KM_R_LOCK, "spin_lock(%p): %s", (void *)l,
			  l->owner == t ? "recursion (the task already holds it)"
					: "lockup (held by another task)");
	l->owner = t;
}

void km_spin_unlock(struct km_task *t, struct km_spinlock *l)
{
	if (__builtin_expect(!t || !l, 0) && lock_args_bad(t, l, "km_spin_unlock"))
		return;
	if (__builtin_expect(l->owner != t, 0))
		km_report(t->m, KM_BUG, KM_R_LOCK, "spin_unlock(%p): %s", (void *)l,
			  l->owner ? "wrong owner" : "already unlocked");
	l->owner = NULL;
	if (t->spinlocks > 0)
		t->spinlocks--;
	km_preempt_count_dec(t);	/* preempt_enable() */
}

void km_down_read(struct km_task *t, struct km_rwsem *sem)
{
	if (__builtin_expect(!t || !sem, 0) && lock_args_bad(t, sem, "km_down_read"))
		return;
	km_might_sleep(t, "down_read(&mm->mmap_sem)");
	KM_EV_INC(t->m, mmap_sem_locks);
	sem->readers++;
}

void km_up_read(struct km_task *t, struct km_rwsem *sem)
{
	if (__builtin_expect(!t || !sem, 0) && lock_args_bad(t, sem, "km_up_read"))
		return;
	if (__builtin_expect(sem->readers <= 0, 0)) {
		km_report(t->m, KM_WARN, KM_R_LOCK, "up_read(%p): no reader holds it", (void *)sem);
		return;
	}
	sem->readers--;
}

int km_pte_mkold_clean(struct km_mm *mm, unsigned long addr, unsigned int bits)
{
	km_pte_t *pte;

	if (!mm || !bits || (bits & ~(KM_PTE_YOUNG | KM_PTE_DIRTY)))
		return km_err(-EINVAL, "km_pte_mkold_clean: no mm, or bits 0x%x are not "
				       "KM_PTE_YOUNG | KM_PTE_DIRTY", bits);
	pte = km_pte_lookup(mm, addr, false);
	if (!pte || !(*pte & KM_PTE_PRESENT))
		return km_err(-ENOENT, "km_pte_mkold_clean: no present pte at 0x%lx", addr);
	*pte &= ~(km_pte_t)bits;
	return 0;
}


/* ---- the kernel's view of the user mapping (3G/1G) ------------------------ */

unsigned int km_uaccess_save_and_enable(void)
{
	struct km_task *t = km_current_task;

	if (!t)
		return 0;
	return t->uaccess_open++;
}

void km_uaccess_restore(unsigned int flags)
{
	struct km_task *t = km_current_task;

	if (t)
		t->uaccess_open = flags;
}

/* Is the host page of @p mapped in this process? mincore() fails with
 * ENOMEM on an unmapped range. */
static bool host_mapped(const void *p)
{
	static_assert(sizeof(uintptr_t) >= sizeof(void *), "uintptr_t");
	uintptr_t page = (uintptr_t)p & ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1);
	unsigned char vec;

	return mincore((void *)page, 1, &vec) == 0 || errno != ENOMEM;
}

/* user_ptr() for a host pointer below TASK_SIZE: a kernel pointer when it
 * lies in the machine's RAM or a strict kmap window; else a user address
 * when it lies in a vma of current's mm; else a kernel pointer when the host
 * has it mapped (the caller's buffer: a host heap or stack that sits low,
 * as under valgrind or in a non-PIE program), and a user address -- which
 * then faults as the kernel's access would -- when it does not. RAM and
 * the windows are mapped above 4 GiB on a 64-bit host
 * (km_host_map_kernel()), so the first test takes no user address; a host
 * heap buffer inside one of current's vmas is still taken for user memory
 * (on a 64-bit PIE host run natively none lies below TASK_SIZE). */
static bool __attribute__((noinline)) user_ptr_low(struct km_task *t, const void *p)
{
	const unsigned char *a = p;
	int saved = errno;
	bool user;

	if ((a >= t->m->ram && a < t->m->ram_end) || km_kmap_window(t, p))
		return false;
	if (t->mm && km_find_vma(t->mm, (unsigned long)(uintptr_t)p))
		return true;
	user = !host_mapped(p);
	errno = saved;
	return user;
}

/* Is @p a user address to reach through the user mapping? Every host
 * pointer at or above TASK_SIZE is a kernel one (the only kind on a 64-bit
 * PIE host); below it, user_ptr_low() tells them apart. */
static inline bool user_ptr(struct km_task *t, const void *p)
{
	if (__builtin_expect((uintptr_t)p >= t->m->task_size, 1))
		return false;
	return user_ptr_low(t, p);
}

/* The host address of user byte @addr for a kernel access (@write: a
 * store): the MMU's walk, handle_mm_fault() where the fault handler may
 * run; NULL (and a BUG) where the kernel would oops. *@room: bytes to the
 * end of the page. */
static unsigned char *user_host(struct km_task *t, unsigned long addr, bool write,
				size_t *room)
{
	struct km_machine *m = t->m;
	unsigned int tries = 0;

	*room = m->page_size - (addr & (m->page_size - 1));
	if (m->cfg.vmsplit == KM_VMSPLIT_4G4G || !t->mm) {
		km_report(m, KM_BUG, KM_R_UNEXPECTED,
			  "kernel memcpy/memset at user address 0x%lx: %s", addr,
			  t->mm ? "the user mapping is out of reach on a 4G/4G split"
				: "no user address space");
		return NULL;
	}
	for (;;) {
		km_pte_t *pte = km_pte_lookup(t->mm, addr, false);
		struct km_vma *vma;

		if (pte && (*pte & KM_PTE_PRESENT) && (*pte & KM_PTE_YOUNG) && (*pte & KM_PTE_USER) &&
		    (!write || (*pte & (KM_PTE_WRITE | KM_PTE_DIRTY)) ==
				       (KM_PTE_WRITE | KM_PTE_DIRTY)))
			return (unsigned char *)km_frame(m, (unsigned long)(*pte >> KM_PTE_PFN_SHIFT)) +
			       (addr & (m->page_size - 1));
		km_fault_in_atomic_check(t, addr, write);
		if (!km_faulthandler_disabled(t))
			KM_EV_INC(m, find_vma_calls);
		if (km_faulthandler_disabled(t) || !(vma = km_find_vma(t->mm, addr)) ||
		    km_handle_mm_fault(t, vma, addr, write)) {
			km_report(m, KM_BUG, KM_R_UNEXPECTED,
				  "unable to handle kernel paging request at user address 0x%lx "
				  "(%s in memcpy/memset: no exception-table entry)", addr,
				  km_faulthandler_disabled(t) ? "faults disabled" : "bad area");
			return NULL;
		}
		if (km_retry_stuck(m, &tries, "kernel memcpy/memset through the user mapping", addr))
			return NULL;
	}
}

/* memcpy()/memset() (@from NULL: set to @c) with either side a user
 * address, page by page */
static void user_move(struct km_task *t, unsigned char *to, const unsigned char *from, int c,
		      size_t n)
{
	while (n) {
		size_t chunk = n, room;
		unsigned char *d = to;
		const unsigned char *s = from;

		if (user_ptr(t, to)) {
			d = user_host(t, (unsigned long)(uintptr_t)to, true, &room);
			chunk = MIN(chunk, room);
		}
		if (from && user_ptr(t, from)) {
			s = user_host(t, (unsigned long)(uintptr_t)from, false, &room);
			chunk = MIN(chunk, room);
		}
		if (d && (s || !from)) {
			if (from)
				memcpy(d, s, chunk);
			else
				memset(d, c, chunk);
		}
		to += chunk;
		if (from)
			from += chunk;
		n -= chunk;
	}
}

/*
 * km_fault_on_memcpy()'s hook. Its state exists only while armed, so that
 * the test on every copy is one load of m->copy, as a hook pointer in the
 * machine was; disarming frees it, and so does the machine's teardown
 * (km_copy_fini()).
 */
struct km_copy_state {
	void (*fn)(struct km_task *t, size_t n, void *arg);
	void *arg;
};

void km_fault_on_memcpy(struct km_machine *m, void (*fn)(struct km_task *, size_t, void *),
			void *arg)
{
	if (!m)
		return;
	if (!fn) {
		km_copy_fini(m);
		return;
	}
	if (!m->copy)
		m->copy = g_new0(struct km_copy_state, 1);
	m->copy->fn = fn;
	m->copy->arg = arg;
}

void km_copy_fini(struct km_machine *m)
{
	g_free(m->copy);
	m->copy = NULL;
}

void km_event_memcpy(size_t n)
{
	struct km_task *t = km_current_task;

	if (!t)
		return;
	KM_EV_MEMCPY(t->m, n);
	KM_EV_INC(t->m, memcpy_calls);
	if (__builtin_expect(t->m->copy != NULL, 0))
		t->m->copy->fn(t, n, t->m->copy->arg);
}

void *km_kernel_memcpy(void *to, const void *from, size_t n)
{
	struct km_task *t = km_current_task;

	if (!t)
		return memcpy(to, from, n);
	KM_EV_MEMCPY(t->m, n);
	KM_EV_INC(t->m, memcpy_calls);
	if (__builtin_expect(t->m->copy != NULL, 0))
		t->m->copy->fn(t, n, t->m->copy->arg);
	if (__builtin_expect(t->m->check_pinned_writes, 0))
		km_pin_write_seen(t, to, n);
	if (__builtin_expect(t->uaccess_open && !t->kernel_ds, 0) &&
	    (user_ptr(t, to) || user_ptr(t, from)))
		user_move(t, to, from, 0, n);
	else
		memcpy(to, from, n);
	return to;
}

void *km_kernel_memset(void *s, int c, size_t n)
{
	struct km_task *t = km_current_task;

	if (!t)
		return memset(s, c, n);
	KM_EV_TRAFFIC(t->m, clear_bytes, n);
	KM_EV_INC(t->m, memset_calls);
	if (__builtin_expect(t->m->copy != NULL, 0))
		t->m->copy->fn(t, n, t->m->copy->arg);
	if (__builtin_expect(t->m->check_pinned_writes, 0))
		km_pin_write_seen(t, s, n);
	if (__builtin_expect(t->uaccess_open && !t->kernel_ds, 0) && user_ptr(t, s))
		user_move(t, s, NULL, c, n);
	else
		memset(s, c, n);
	return s;
}
