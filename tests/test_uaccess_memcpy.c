// SPDX-License-Identifier: GPL-2.0
/*
 * uaccess_with_memcpy (arch/arm/lib/uaccess_with_memcpy.c, v5.7) and the
 * mm_sim primitives under it: pgd..pmd folding, pte_offset_map_lock(),
 * spin_lock(), mmap_sem. Every expectation is from the v5.7 source:
 *  - pin_page_for_write() takes a pte only when present, young, writable
 *    and dirty; otherwise __put_user(0, to) faults the page in (in process
 *    context) and the walk retries; in atomic context the fault cannot be
 *    handled and the copy stops (ARM's young/dirty are software bits);
 *  - the pte lock is held across each page's memcpy/memset, no page
 *    reference is taken, mmap_sem is held unless faulthandler_disabled();
 *    __clear_user_memset() takes mmap_sem always;
 *  - below 64 bytes the assembler routines run (no walk, no mmap_sem);
 *  - the raw contract holds (kmodel-check's suite).
 */
#include "km_test.h"
#include <errno.h>
#include <glib.h>
#include <string.h>
#include <sys/mman.h>

#define P 4096UL
static const struct km_uaccess_ops *const wm = &km_uaccess_with_memcpy;

/* what the memcpy hook saw in the middle of each copy */
struct seen {
	struct km_fixture *f;
	unsigned long addr;		/* a page of the destination */
	int calls;
	int ptl_held, preempt, mmap_readers, refcount;
};

static void look(struct km_task *t, size_t n, void *arg)
{
	struct seen *s = arg;
	struct km_mm_locks *l = km_mm_locks(s->f->mm);
	struct km_page *pg;

	s->calls++;
	s->ptl_held = l->page_table_lock.owner == t;
	s->preempt = km_preempt_count(t);
	s->mmap_readers = l->mmap_sem.readers;
	assert_int_equal(km_follow_pte(s->f->mm, s->addr, NULL, &pg), 0);
	s->refcount = km_page_refcount(pg);
}

static unsigned char *pattern(unsigned long n)
{
	unsigned char *b = g_malloc(n);

	for (unsigned long i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 7 + 3);
	return b;
}

/* process context: the pte lock held across the memcpy (preempt_count 1),
 * mmap_sem held, the page's refcount is its pte's alone */
static void test_copy_locks_process_context(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_events ev;
	struct seen s = { .f = &f };
	unsigned char *src = pattern(P), out[P];
	unsigned long a;

	a = km_test_map(&f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	assert_int_equal(km_user_access(f.t, a, out, 1, true), 1);	/* resident, dirty */
	s.addr = a;
	km_fault_on_memcpy(f.m, look, &s);
	km_events_reset(f.m);
	assert_int_equal(km_copy_to_user(f.t, wm, a, src, P), 0);
	km_fault_on_memcpy(f.m, NULL, NULL);
	km_events_get(f.m, &ev);
	assert_int_equal(s.calls, 1);
	assert_true(s.ptl_held);
	assert_int_equal(s.preempt, 1);
	assert_int_equal(s.mmap_readers, 1);
	assert_int_equal(s.refcount, 1);	/* no get_page() */
	assert_int_equal(ev.mmap_sem_locks, 1);
	assert_int_equal(ev.page_faults, 0);
	assert_int_equal(ev.gup_calls, 0);
	assert_int_equal(km_mm_locks(f.mm)->mmap_sem.readers, 0);
	assert_null(km_mm_locks(f.mm)->page_table_lock.owner);
	assert_int_equal(km_preempt_count(f.t), 0);
	assert_int_equal(km_mm_peek(f.mm, a, out, P), 0);
	assert_memory_equal(out, src, P);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	g_free(src);
}

/* atomic context (under kmap_atomic, as copy_page_to_iter() copies):
 * faulthandler_disabled(), so no mmap_sem; the pte lock still held */
static void test_copy_atomic_no_mmap_sem(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_events ev;
	struct seen s = { .f = &f };
	unsigned char *src = pattern(3 * P), out[3 * P];
	unsigned long a;
	struct km_page *pc;
	void *k;

	a = km_test_map(&f, 0, 3, KM_PROT_READ | KM_PROT_WRITE);
	for (int i = 0; i < 3; i++)
		assert_int_equal(km_user_access(f.t, a + i * P, out, 1, true), 1);
	pc = km_alloc_page(f.m, 0);
	s.addr = a + P;
	km_fault_on_memcpy(f.m, look, &s);
	km_events_reset(f.m);
	k = km_kmap_atomic(f.t, pc);
	assert_int_equal(km_copy_to_user(f.t, wm, a + 100, src, 2 * P), 0);
	km_kunmap_atomic(f.t, k);
	km_fault_on_memcpy(f.m, NULL, NULL);
	km_events_get(f.m, &ev);
	assert_int_equal(s.calls, 3);		/* P - 100, P, 100 bytes */
	assert_true(s.ptl_held);
	assert_int_equal(s.preempt, 2);		/* kmap_atomic + spin_lock */
	assert_int_equal(s.mmap_readers, 0);
	assert_int_equal(s.refcount, 1);
	assert_int_equal(ev.mmap_sem_locks, 0);
	assert_int_equal(ev.memcpy_bytes, 2 * P);
	assert_int_equal(km_mm_peek(f.mm, a + 100, out, 2 * P), 0);
	assert_memory_equal(out, src, 2 * P);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	km_put_page(f.m, pc);
	g_free(src);
}

/* The ptes pin_page_for_write() refuses: never touched (so not present),
 * or present with young or dirty cleared (km_pte_mkold_clean()). */
static const struct refusal {
	const char *name;
	unsigned int clear_bits;	/* 0: never touched */
} refusals[] = {
	{ "not present", 0 },
	{ "old", KM_PTE_YOUNG },
	{ "clean", KM_PTE_DIRTY },
};

/* Each way pin_page_for_write() refuses a pte: not present (never
 * touched), old, clean. In process context __put_user(0, to) faults it
 * in (one handle_mm_fault()), the retry pins it and the copy completes;
 * the fault leaves the pte young and dirty. */
static void test_pin_refused_then_faulted(void **state)
{
	const struct refusal *row = km_row(state);	/* km_row_setup() */
	unsigned int clear_bits = row->clear_bits;
	struct km_fixture f = *(struct km_fixture *)*state;
	struct km_events ev;
	unsigned char *src = pattern(256), out[256];
	unsigned int fl;
	unsigned long a;

	a = km_test_map(&f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	if (clear_bits) {
		assert_int_equal(km_user_access(f.t, a, out, 1, true), 1);
		assert_int_equal(km_pte_mkold_clean(f.mm, a, clear_bits), 0);
	}
	km_events_reset(f.m);
	assert_int_equal(km_copy_to_user(f.t, wm, a + 8, src, 256), 0);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.page_faults, 1);
	assert_int_equal(ev.mmap_sem_locks, 2);	/* dropped around __put_user */
	assert_int_equal(km_follow_pte(f.mm, a, &fl, NULL), 0);
	assert_true(fl & KM_PTE_YOUNG);
	assert_true(fl & KM_PTE_DIRTY);
	assert_int_equal(km_mm_peek(f.mm, a + 8, out, 256), 0);
	assert_memory_equal(out, src, 256);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	g_free(src);
}

/* In atomic context the same refusals end the copy: the fault of
 * __put_user() cannot be handled (exception-table fixup, -EFAULT), so
 * nothing is copied and n is returned -- for an old or clean pte too,
 * as ARM's young/dirty bits are emulated by faults. */
static void test_pin_refused_atomic(void **state)
{
	const struct refusal *row = km_row(state);	/* km_row_setup() */
	unsigned int clear_bits = row->clear_bits;
	struct km_fixture f = *(struct km_fixture *)*state;
	unsigned char *src = pattern(128), out[128], zero[128] = { 0 };
	unsigned long a;

	a = km_test_map(&f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	if (clear_bits) {
		assert_int_equal(km_user_access(f.t, a, zero, 128, true), 128);
		assert_int_equal(km_pte_mkold_clean(f.mm, a, clear_bits), 0);
	}
	km_pagefault_disable(f.t);
	assert_int_equal(km_copy_to_user(f.t, wm, a, src, 128), 128);
	km_pagefault_enable(f.t);
	assert_int_equal(km_mm_peek(f.mm, a, out, 128), 0);
	assert_memory_equal(out, zero, 128);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	g_free(src);
}

/* A read-only page: the pte is not writable and __put_user() cannot write
 * it either, so the copy stops at that page: the writable pages before
 * it are copied, the rest returned (bytes not copied, page granular). */
static void test_readonly_stops_at_page(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	unsigned char *src = pattern(2 * P), out[P];
	unsigned long a;

	a = km_test_map(&f, 0, 2, KM_PROT_READ | KM_PROT_WRITE);
	assert_int_equal(km_mprotect(f.mm, a + P, P, KM_PROT_READ), 0);
	assert_int_equal(km_copy_to_user(f.t, wm, a + P - 64, src, 128), 64);
	assert_int_equal(km_mm_peek(f.mm, a + P - 64, out, 64), 0);
	assert_memory_equal(out, src, 64);
	assert_int_equal(km_mm_peek(f.mm, a + P, out, 64), 0);
	for (int i = 0; i < 64; i++)
		assert_int_equal(out[i], 0);
	assert_int_equal(km_mm_locks(f.mm)->mmap_sem.readers, 0);	/* dropped on the way out */
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	g_free(src);
}

/* Below 64 bytes the assembler routine runs: no page-table walk, no
 * mmap_sem, no compat memcpy; at 64 the walk starts. */
static void test_threshold_64(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_events ev;
	struct seen s = { .f = &f };
	unsigned char src[64] = { 1 };
	unsigned long a;

	a = km_test_map(&f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	assert_int_equal(km_user_access(f.t, a, src, 1, true), 1);
	s.addr = a;
	km_fault_on_memcpy(f.m, look, &s);
	km_events_reset(f.m);
	assert_int_equal(km_copy_to_user(f.t, wm, a, src, 63), 0);
	assert_int_equal(km_clear_user_with(f.t, wm, a, 63), 0);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.mmap_sem_locks, 0);
	assert_int_equal(s.calls, 0);
	assert_int_equal(km_copy_to_user(f.t, wm, a, src, 64), 0);
	assert_int_equal(km_clear_user_with(f.t, wm, a, 64), 0);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.mmap_sem_locks, 2);
	assert_int_equal(s.calls, 2);
	km_fault_on_memcpy(f.m, NULL, NULL);
}

/* __clear_user_memset() takes mmap_sem even in atomic context: a
 * might_sleep() BUG there (v5.7 has no faulthandler_disabled() test in
 * it, unlike __copy_to_user_memcpy()). The memset still clears, with the
 * pte lock held. */
static void test_clear_user_sleeps_in_atomic(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct seen s = { .f = &f };
	unsigned char buf[256];
	unsigned long a;
	struct km_page *pc;
	void *k;

	a = km_test_map(&f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(km_user_access(f.t, a, buf, 256, true), 256);
	pc = km_alloc_page(f.m, 0);
	s.addr = a;
	km_fault_on_memcpy(f.m, look, &s);
	k = km_kmap_atomic(f.t, pc);
	assert_int_equal(km_clear_user_with(f.t, wm, a, 200), 0);
	km_kunmap_atomic(f.t, k);
	km_fault_on_memcpy(f.m, NULL, NULL);
	assert_int_equal(km_report_count(f.m, KM_R_SLEEP_IN_ATOMIC), 1);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 1);
	assert_int_equal(s.calls, 1);
	assert_true(s.ptl_held);
	assert_int_equal(s.mmap_readers, 1);
	assert_int_equal(km_mm_peek(f.mm, a, buf, 256), 0);
	for (int i = 0; i < 256; i++)
		assert_int_equal(buf[i], i < 200 ? 0 : 0xaa);
	km_put_page(f.m, pc);
	km_reports_clear(f.m);
}

/* clear_user in process context faults a never-touched page in with
 * __put_user and clears it; the events count the bytes set. */
static void test_clear_user_process(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_events ev;
	unsigned char buf[P];
	unsigned long a;

	a = km_test_map(&f, 0, 2, KM_PROT_READ | KM_PROT_WRITE);
	km_events_reset(f.m);
	assert_int_equal(km_clear_user_with(f.t, wm, a + 10, P), 0);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.page_faults, 2);
	assert_int_equal(ev.clear_bytes, P + 2 * P);	/* + the two new zeroed pages */
	assert_int_equal(km_mm_peek(f.mm, a, buf, P), 0);
	for (unsigned long i = 0; i < P; i++)
		assert_int_equal(buf[i], 0);
	/* past TASK_SIZE: access_ok() fails first */
	assert_int_equal(km_clear_user_with(f.t, wm, km_task_size(f.m) - 64, 128), 128);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
}

/* uaccess_mask_range_ptr(): a raw copy whose end passes TASK_SIZE gets a
 * NULL destination, whose walk finds nothing and whose __put_user faults:
 * nothing copied. */
static void test_mask_range_ptr(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	unsigned char src[128] = { 0 };
	unsigned long ts;

	ts = km_task_size(f.m);
	km_test_map(&f, ts - P, 1, KM_PROT_READ | KM_PROT_WRITE);
	assert_int_equal(wm->raw_copy_to_user(ts - 64, src, 128), 128);
	assert_int_equal(wm->raw_copy_to_user(ts - 128, src, 128), 0);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
}

/* set_fs(KERNEL_DS): the "user" address is a kernel pointer: memcpy. */
static void test_kernel_ds(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	unsigned char src[100], dst[100] = { 0 };

	memset(src, 0x5a, sizeof(src));
	km_task_set_kernel_ds(f.t, true);
	assert_int_equal(km_copy_to_user(f.t, wm, (unsigned long)dst, src, 100), 0);
	assert_memory_equal(dst, src, 100);
	assert_int_equal(km_clear_user_with(f.t, wm, (unsigned long)dst, 100), 0);
	for (int i = 0; i < 100; i++)
		assert_int_equal(dst[i], 0);
	km_task_set_kernel_ds(f.t, false);
}

/* copy_from_user is the assembler path (direct's): no walk, no mmap_sem,
 * no compat memcpy, and a fault is handled by the MMU path */
static void test_from_user_is_direct(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_events ev;
	struct seen s = { .f = &f };
	unsigned char *src = pattern(P), dst[P];
	unsigned long a;

	a = km_test_map(&f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	assert_int_equal(km_user_access(f.t, a, src, P, true), (long)P);
	s.addr = a;
	km_fault_on_memcpy(f.m, look, &s);
	km_events_reset(f.m);
	assert_int_equal(km_copy_from_user(f.t, wm, dst, a, P), 0);
	km_fault_on_memcpy(f.m, NULL, NULL);
	km_events_get(f.m, &ev);
	assert_memory_equal(dst, src, P);
	assert_int_equal(s.calls, 0);
	assert_int_equal(ev.mmap_sem_locks, 0);
	assert_int_equal(ev.pt_walks, 1);
	g_free(src);
}

/*
 * Inside uaccess_save_and_enable() the kernel buffer of the memcpy is a
 * host pointer, which need not lie above TASK_SIZE: under valgrind the
 * heap sits at 0x4e00000, in a non-PIE program after .bss. A host buffer
 * mapped below TASK_SIZE, outside every vma, is the kernel side of the
 * copy (it was once taken for a user address: an "unable to handle kernel
 * paging request" BUG per page, nothing copied).
 */
static void test_kernel_buffer_below_task_size(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	unsigned char *low, *back;
	unsigned long a, n = 3 * P;

	low = mmap((void *)0x20000000UL, n, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (low == MAP_FAILED || (uintptr_t)low + n > 0x3f000000UL) {
		if (low != MAP_FAILED)
			munmap(low, n);
		skip();
	}
	back = g_malloc(n);
	for (unsigned long i = 0; i < n; i++)
		low[i] = (unsigned char)(i * 13 + 1);
	a = km_test_map(&f, 0, 4, KM_PROT_READ | KM_PROT_WRITE);
	assert_true(a > (uintptr_t)low + n);	/* TASK_UNMAPPED_BASE is above it */
	assert_int_equal(km_copy_to_user(f.t, wm, a + 100, low, n), 0);	/* memcpy path */
	assert_int_equal(km_user_access(f.t, a + 100, back, n, false), (long)n);
	assert_memory_equal(back, low, n);
	memset(low, 0, n);
	/* the direction back: the low buffer is the destination */
	assert_int_equal(km_copy_from_user(f.t, wm, low, a + 100, n), 0);
	assert_memory_equal(back, low, n);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	g_free(back);
	munmap(low, n);
}

/* In the window a user address still goes through the user mapping: one
 * in a vma is faulted in and written, one in no vma (and no host mapping:
 * below mmap_min_addr) is the oops the kernel would have. */
static void test_uaccess_window_user_addresses(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	unsigned char src[64], back[64];
	unsigned long a;
	unsigned int fl;

	memset(src, 0x3c, sizeof(src));
	a = km_test_map(&f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	fl = km_uaccess_save_and_enable();
	km_kernel_memcpy((void *)(uintptr_t)a, src, sizeof(src));
	km_kernel_memcpy((void *)(uintptr_t)0x2000, src, sizeof(src));
	km_uaccess_restore(fl);
	assert_int_equal(km_user_access(f.t, a, back, sizeof(back), false), (long)sizeof(back));
	assert_memory_equal(back, src, sizeof(src));
	assert_int_equal(km_report_count(f.m, KM_R_UNEXPECTED), 1);
	assert_non_null(strstr(km_report_get(f.m, 0)->message, "user address 0x2000"));
	km_reports_clear(f.m);
	/* an old pte is not in the hardware table (ARM's young bit is a
	 * software one, set_pte_ext() writes no hardware pte for it): the
	 * access faults, handle_mm_fault() (after find_vma()) makes it young;
	 * with faults disabled there is no handler to run: the oops, and no
	 * find_vma() */
	{
		struct km_events ev0, ev1;
		unsigned int flags;

		assert_int_equal(km_pte_mkold_clean(f.mm, a, KM_PTE_YOUNG), 0);
		km_events_get(f.m, &ev0);
		fl = km_uaccess_save_and_enable();
		km_kernel_memcpy((void *)(uintptr_t)a, src, sizeof(src));
		km_uaccess_restore(fl);
		km_events_get(f.m, &ev1);
		assert_int_equal(ev1.find_vma_calls - ev0.find_vma_calls, 1);
		assert_int_equal(km_follow_pte(f.mm, a, &flags, NULL), 0);
		assert_true(flags & KM_PTE_YOUNG);
		assert_int_equal(km_pte_mkold_clean(f.mm, a, KM_PTE_YOUNG), 0);
		km_pagefault_disable(f.t);
		fl = km_uaccess_save_and_enable();
		km_kernel_memcpy((void *)(uintptr_t)a, src, sizeof(src));
		km_uaccess_restore(fl);
		km_pagefault_enable(f.t);
		km_events_get(f.m, &ev0);
		assert_int_equal(ev0.find_vma_calls, ev1.find_vma_calls);
		assert_int_equal(km_report_count(f.m, KM_R_UNEXPECTED), 1);
		assert_non_null(strstr(km_report_get(f.m, 0)->message, "faults disabled"));
		km_reports_clear(f.m);
	}
}

static int clear_calls;
static unsigned long counting_clear(unsigned long to, unsigned long n)
{
	clear_calls++;
	return n;
}

/* km_clear_user_with(): the variant's clear_user only where the ops table
 * has the member (.size) and sets it; else the default clear_user. */
static void test_clear_user_versioned(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_uaccess_ops old = *wm, nulled = *wm;
	unsigned long a;

	old.size = KM_UACCESS_OPS_MIN_SIZE;	/* built against the first header */
	old.clear_user = counting_clear;	/* past its size: never read */
	nulled.clear_user = NULL;
	a = km_test_map(&f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	assert_int_equal(km_clear_user_with(f.t, &old, a, 128), 0);
	assert_int_equal(km_clear_user_with(f.t, &nulled, a, 128), 0);
	assert_int_equal(km_clear_user_with(f.t, &km_uaccess_gup_kmap_rfc, a, 128), 0);
	assert_int_equal(clear_calls, 0);
	old.size = KM_UACCESS_OPS_SIZE;
	assert_int_equal(km_clear_user_with(f.t, &old, a, 128), 128);
	assert_int_equal(clear_calls, 1);
	assert_int_equal(km_clear_user_with(NULL, wm, a, 128), 128);
}

/* The locks' own checks: spinlock recursion and bad unlocks are BUGs,
 * an unbalanced up_read a WARN; the counters stay sane. */
static void test_lock_checks(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_mm_locks *l;

	l = km_mm_locks(f.mm);
	assert_ptr_equal(l->mm, f.mm);
	km_spin_lock(f.t, &l->page_table_lock);
	km_spin_lock(f.t, &l->page_table_lock);
	assert_int_equal(km_report_count(f.m, KM_R_LOCK), 1);
	km_spin_unlock(f.t, &l->page_table_lock);
	km_spin_unlock(f.t, &l->page_table_lock);
	assert_int_equal(km_report_count(f.m, KM_R_LOCK), 2);
	km_up_read(f.t, &l->mmap_sem);
	assert_int_equal(km_report_count(f.m, KM_R_LOCK), 3);
	assert_int_equal(l->mmap_sem.readers, 0);
	/* spin_unlock() by another task than the owner:
	 * CONFIG_DEBUG_SPINLOCK's debug_spin_unlock() "wrong owner" */
	{
		struct km_task *other;
		const struct km_report *r;

		assert_int_equal(km_task_new(f.m, f.mm, 0, &other), 0);
		km_spin_lock(f.t, &l->page_table_lock);
		km_preempt_disable(other);	/* its spin_lock()'s count, to drop */
		km_spin_unlock(other, &l->page_table_lock);
		assert_int_equal(km_report_count(f.m, KM_R_LOCK), 4);
		r = km_report_get(f.m, km_report_count(f.m, KM_R_NONE) - 1);
		assert_non_null(r);
		assert_non_null(strstr(r->message, "wrong owner"));
		km_preempt_enable(f.t);		/* f.t's spin_lock() */
		km_task_free(other);
	}
	km_preempt_disable(f.t);
	km_down_read(f.t, &l->mmap_sem);	/* might_sleep() */
	assert_int_equal(km_report_count(f.m, KM_R_SLEEP_IN_ATOMIC), 1);
	km_up_read(f.t, &l->mmap_sem);
	km_preempt_enable(f.t);
	assert_int_equal(km_preempt_count(f.t), 0);
	/* the walk: above TASK_SIZE always none, below none until a fault;
	 * each is a walk by kernel code (struct km_events pt_walks_sw) */
	{
		struct km_events ev0, ev1;

		km_events_get(f.m, &ev0);
		assert_null(*km_pmd_offset(f.mm, km_task_size(f.m)));
		assert_null(*km_pmd_offset(f.mm, 0x10000));
		km_events_get(f.m, &ev1);
		assert_int_equal(ev1.pt_walks_sw - ev0.pt_walks_sw, 2);
	}
	assert_int_equal(km_pte_mkold_clean(f.mm, 0x10000, KM_PTE_YOUNG), -ENOENT);
	assert_int_equal(km_pte_mkold_clean(f.mm, 0x10000, KM_PTE_WRITE), -EINVAL);
	km_reports_clear(f.m);
}

/* The raw contract over kmodel-check's whole suite (4, 16, 64 KiB pages,
 * both edges, both directions): no failure in any context, and no report
 * but one kind in one context. Under preempt_disable() alone
 * faulthandler_disabled() is true, so __copy_to_user_memcpy() takes no
 * mmap_sem, but page faults are enabled: its fault-in __put_user(0, to)
 * of a page pin_page_for_write() refuses calls might_fault()
 * (__put_user_switch(), arch/arm/include/asm/uaccess.h), and
 * __might_fault() (mm/memory.c, v5.7) returns early only for KERNEL_DS
 * or pagefault_disable(): a sleep in atomic context, as
 * CONFIG_DEBUG_ATOMIC_SLEEP reports it. copy_from_user is the assembler
 * path: no report. */
static void test_conformance(void **state)
{
	/* the port means to satisfy the raw contract (its registry entry
	 * claims it): the preempt-off reports below are then a claim that
	 * fails -- kmodel-check's FAIL, not its "no-claim" */
	assert_true(wm->claims_conformance);
	for (int c = 0; c < KM_CONF_CTX__COUNT; c++) {
		struct km_conformance_result r;
		unsigned long by_code[KM_R__COUNT];

		assert_int_equal(km_uaccess_conformance_in(wm, NULL, c, &r, by_code, KM_R__COUNT), 0);
		assert_true(r.cases > 0);
		assert_int_equal(r.failures, 0);
		if (c == KM_CONF_CTX_PREEMPT_OFF) {
			assert_true(r.reports > 0);
			assert_int_equal(by_code[KM_R_SLEEP_IN_ATOMIC], r.reports);
		} else {
			assert_int_equal(r.reports, 0);
		}
		km_conformance_result_clear(&r);
	}
	(void)state;
}

int main(void)
{
	GArray *rows = km_test_new_group();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_copy_locks_process_context, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_copy_atomic_no_mmap_sem, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_readonly_stops_at_page, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_threshold_64, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_clear_user_sleeps_in_atomic, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_clear_user_process, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_mask_range_ptr, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_kernel_ds, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_from_user_is_direct, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_kernel_buffer_below_task_size, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_uaccess_window_user_addresses, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_clear_user_versioned, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_lock_checks, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test(test_conformance),
	};

	KM_TEST_ROWS(rows, test_pin_refused_then_faulted, km_row_setup, km_fixture_teardown,
		     refusals);
	KM_TEST_ROWS(rows, test_pin_refused_atomic, km_row_setup, km_fixture_teardown, refusals);
	KM_TEST_CASES(all, tests, rows);
	return cmocka_run_group_tests_name("test_uaccess_memcpy", all, NULL, NULL);
}
