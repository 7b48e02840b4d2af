// SPDX-License-Identifier: GPL-2.0
/*
 * Checks that callers' bugs need, each with the fix that answers it:
 * - the pinned-write checker (km_check_pinned_writes()): xen/gntdev's
 *   grant copy before 779055842da5 ("xen/gntdev.c: Mark pages as dirty",
 *   v5.9) put a page it pinned with FOLL_WRITE and the hypervisor wrote
 *   without set_page_dirty_lock(); writeback then dropped the write;
 * - a fault on a user address with a spinlock held or interrupts off:
 *   wl128x's RDS read before the v3.11 fix 5255e4d9dfe2 ("[media] wl128x:
 *   do not call copy_to_user() while holding spinlocks"), built at 3.10 (no
 *   might_fault() in ARM's copy_to_user() there);
 * - the interrupt state of the compatibility layer and the model
 *   (local_irq_save(), spin_lock_irqsave(), might_sleep());
 * - km_machine_check() sees a kmap_local slot a live task holds.
 * Expected values are the kernel's: what writeback writes, what the copy
 * returns, which context may sleep.
 */
#include "km_test.h"
#include "compat/gntdev.h"
#include "compat/wl128x.h"

/* @m logged @n reports, all of @code, the first saying @text; then none */
static void assert_reports(struct km_machine *m, enum km_report_code code, unsigned long n,
			   const char *text, const char *row)
{
	if (km_report_count(m, code) != n || km_report_count(m, KM_R_NONE) != n ||
	    (n && !strstr(km_report_get(m, 0)->message, text)))
		fail_msg("%s: %lu %s reports of %lu, want %lu%s%s", row, km_report_count(m, code),
			 km_report_code_name(code), km_report_count(m, KM_R_NONE), n,
			 n ? ": " : "", n ? km_report_get(m, 0)->message : "");
	km_reports_clear(m);
}

/* ---- xen/gntdev ------------------------------------------------------------ */

/*
 * A MAP_SHARED file page as a grant copy's destination: the user wrote
 * "old!" and writeback wrote it out; gntdev pins the page (FOLL_WRITE: a
 * write fault dirties it), writeback runs while it is pinned (the flusher
 * may run any time), the hypervisor writes "GNT!" into it, gntdev puts it.
 * The next writeback writes the page only if it is dirty again.
 */
static const struct gntdev_row {
	const char *name;
	bool fixed;
	const char *disk;	/* the file on disk at the end */
	unsigned long reports;	/* KM_R_PIN_NOT_DIRTIED */
} gntdev_rows[] = {
	{ "v5.8, put_page() clean: the write is lost", false, "old!", 1 },
	{ "v5.9, set_page_dirty_lock() first", true, "GNT!", 0 },
};

static void test_gntdev_grant_copy(void **state)
{
	const struct gntdev_row *row = km_row(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_file *file;
	struct gntdev_copy_batch *batch;
	struct km_page *page = NULL;
	unsigned long u, P;
	char disk[5] = { 0 };

	km_check_pinned_writes(f->m, true);
	P = km_page_size(f->m);
	assert_int_equal(km_file_new(f->m, P, &file), 0);
	assert_int_equal(km_mmap_file(f->mm, 0, P, KM_PROT_READ | KM_PROT_WRITE, true, file,
				      0, &u), 0);
	assert_int_equal(km_copy_to_user(f->t, &km_uaccess_direct, u, "old!", 4), 0);
	assert_int_equal(km_file_writeback(file), 1);
	batch = gntdev_test_batch_new(row->fixed);
	assert_non_null(batch);
	assert_int_equal(gntdev_test_get_dest_page(batch, u, &page), 0);
	km_file_writeback(file);
	assert_int_equal(km_page_device_write(f->m, page, 0, "GNT!", 4), 0);
	gntdev_test_put_pages(batch);
	gntdev_test_batch_free(batch);
	km_file_writeback(file);
	assert_int_equal(km_file_read_disk(file, 0, disk, 4), 0);
	if (strcmp(disk, row->disk))
		fail_msg("%s: disk \"%s\"", row->name, disk);
	assert_reports(f->m, KM_R_PIN_NOT_DIRTIED, row->reports,
		       "written while pinned with FOLL_WRITE, released clean", row->name);
	km_munmap(f->mm, u, P);
	km_file_put(file);
}

/* the checker observes only: off, the same run loses the write silently;
 * a page pinned for write but not written, or written and dirty, is fine */
static const struct pin_row {
	const char *name;
	bool on, write, dirty, pin;
	unsigned long reports;
} pin_rows[] = {
	{ "checker off", false, true, false, false, 0 },
	{ "not written", true, false, false, false, 0 },
	{ "written, set_page_dirty()", true, true, true, false, 0 },
	{ "written, put clean", true, true, false, false, 1 },
	{ "pin_user_pages_fast(), written, unpinned clean", true, true, false, true, 1 },
	{ "pin_user_pages_fast(), written, dirtied", true, true, true, true, 0 },
};

/* on the default machine (no fast gup: the slow path) and, the same rows,
 * with the lockless walk (setup_fast_gup): both pin alike */
static void test_pinned_write_rules(void **state)
{
	const struct pin_row *row = km_row(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_page *p;
	unsigned long u;

	km_check_pinned_writes(f->m, row->on);
	assert_int_equal(km_mmap(f->mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &u), 0);
	assert_int_equal(km_copy_to_user(f->t, &km_uaccess_direct, u, "x", 1), 0);
	if (row->pin)
		assert_int_equal(km_pin_user_pages_fast(f->t, u, 1, KM_FOLL_WRITE, &p), 1);
	else
		assert_int_equal(km_get_user_pages_fast(f->t, u, 1, KM_FOLL_WRITE, &p), 1);
	if (row->write)
		assert_int_equal(km_page_device_write(f->m, p, 8, "dma", 3), 0);
	if (row->dirty)
		km_set_page_dirty(f->m, p);
	if (row->pin)
		km_unpin_user_page(f->m, p);
	else
		km_put_page(f->m, p);
	assert_reports(f->m, KM_R_PIN_NOT_DIRTIED, row->reports, "released clean",
		       row->name);
}

/* the check runs when the last FOLL_WRITE reference goes: a page pinned
 * three times, written, put twice, dirtied, put the last time is fine
 * (gntdev's set_page_dirty_lock() before its last put, 779055842da5) */
static void test_pinned_write_last_reference(void **state)
{
	struct km_fixture *f = *state;
	struct km_page *p[3];
	unsigned long u;

	km_check_pinned_writes(f->m, true);
	assert_int_equal(km_mmap(f->mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &u), 0);
	assert_int_equal(km_copy_to_user(f->t, &km_uaccess_direct, u, "x", 1), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(km_get_user_pages_fast(f->t, u, 1, KM_FOLL_WRITE, &p[i]), 1);
	assert_int_equal(km_page_device_write(f->m, p[0], 8, "dma", 3), 0);
	km_put_page(f->m, p[0]);
	km_put_page(f->m, p[1]);
	assert_int_equal(km_report_count(f->m, KM_R_PIN_NOT_DIRTIED), 0);
	km_set_page_dirty(f->m, p[2]);
	km_put_page(f->m, p[2]);
	assert_int_equal(km_report_count(f->m, KM_R_PIN_NOT_DIRTIED), 0);
}

/* a CPU write that ends where a pinned page begins does not write it:
 * the bytes of the page before, copied onto themselves (nothing changes) */
static void test_pinned_write_page_boundary(void **state)
{
	struct km_fixture *f = *state;
	unsigned long u, P = km_page_size(f->m), pfn;
	struct km_page *p;
	unsigned char *before, tail[8];

	km_check_pinned_writes(f->m, true);
	assert_int_equal(km_mmap(f->mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &u), 0);
	assert_int_equal(km_copy_to_user(f->t, &km_uaccess_direct, u, "x", 1), 0);
	assert_int_equal(km_get_user_pages_fast(f->t, u, 1, KM_FOLL_WRITE, &p), 1);
	pfn = km_page_to_pfn(f->m, p);
	assert_true(pfn > 0);
	before = km_page_address(f->m, km_pfn_to_page(f->m, pfn - 1));
	assert_non_null(before);
	assert_true(before + P == (unsigned char *)km_page_address(f->m, p));
	memcpy(tail, before + P - sizeof(tail), sizeof(tail));
	km_kernel_memcpy(before + P - sizeof(tail), tail, sizeof(tail));
	km_put_page(f->m, p);
	assert_int_equal(km_report_count(f->m, KM_R_PIN_NOT_DIRTIED), 0);
}

static int setup_fast_gup(void **state)
{
	return km_row_setup_cfg(state, &(struct km_machine_config){ .fast_gup = true });
}

static void test_pinned_write_rules_fast_gup(void **state)
{
	test_pinned_write_rules(state);
}

/*
 * A CPU write through any kernel mapping of the pinned frame is a write to
 * the page: the linear map (kmap_atomic() of a lowmem page is
 * page_address()), a highmem frame, and in strict kmap mode the slot's own
 * address -- the pre-5.11 fixmap slot (arch/arm/mm/highmem.c, v5.7), the
 * kmap_local slot (mm/highmem.c, v5.11), a lowmem page's slot under
 * CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP -- which aliases the frame at another
 * host address. A slot that maps another page writes that page, not the
 * pinned one.
 */
enum { K_ATOMIC, K_LOCAL, K_SLEEPING };

static const struct alias_row {
	const char *name;
	enum km_kmap_flavour era;
	enum km_kmap_strict strict;
	bool highmem;		/* the user page is highmem (lowmem is half the RAM) */
	int kmap;		/* K_ATOMIC, K_LOCAL, K_SLEEPING */
	bool other;		/* the write goes through a kmap of another page */
	bool dirty;		/* set_page_dirty() before the put */
	unsigned long reports;
} alias_rows[] = {
	{ "linear map: kmap_atomic() of lowmem", KM_KMAP_ATOMIC_PRE_5_11, KM_KMAP_STRICT_OFF,
	  false, K_ATOMIC, false, false, 1 },
	{ "highmem frame: kmap_atomic(), not strict", KM_KMAP_ATOMIC_PRE_5_11,
	  KM_KMAP_STRICT_OFF, true, K_ATOMIC, false, false, 1 },
	{ "strict: kmap_atomic() fixmap slot of highmem", KM_KMAP_ATOMIC_PRE_5_11,
	  KM_KMAP_STRICT, true, K_ATOMIC, false, false, 1 },
	{ "strict: kmap_local_page() slot of highmem", KM_KMAP_LOCAL, KM_KMAP_STRICT, true,
	  K_LOCAL, false, false, 1 },
	{ "force-map: kmap_atomic() slot of lowmem", KM_KMAP_ATOMIC_PRE_5_11,
	  KM_KMAP_STRICT_FORCE_MAP, false, K_ATOMIC, false, false, 1 },
	{ "force-map: kmap_local_page() slot of lowmem", KM_KMAP_LOCAL,
	  KM_KMAP_STRICT_FORCE_MAP, false, K_LOCAL, false, false, 1 },
	{ "strict: sleeping kmap() of highmem", KM_KMAP_LOCAL, KM_KMAP_STRICT, true, K_SLEEPING,
	  false, false, 1 },
	{ "strict: slot alias written, set_page_dirty()", KM_KMAP_LOCAL, KM_KMAP_STRICT, true,
	  K_LOCAL, false, true, 0 },
	{ "strict: a slot of another page written", KM_KMAP_LOCAL, KM_KMAP_STRICT, true,
	  K_LOCAL, true, false, 0 },
	{ "force-map: a fixmap slot of another page written", KM_KMAP_ATOMIC_PRE_5_11,
	  KM_KMAP_STRICT_FORCE_MAP, false, K_ATOMIC, true, false, 0 },
};

static int setup_alias_row(void **state)
{
	const struct alias_row *r = *state;
	struct km_machine_config c = { .ram_size = 64ULL << 20,
				       .lowmem_size = r->highmem ? 32ULL << 20 : 0,
				       .kmap = r->era, .kmap_strict = r->strict };

	return km_row_setup_cfg(state, &c);
}

static void test_pinned_write_through_kmap(void **state)
{
	const struct alias_row *row = km_row(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_page *p, *mapped;
	unsigned char *k;
	unsigned long u;

	km_check_pinned_writes(f->m, true);
	assert_int_equal(km_mmap(f->mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &u), 0);
	assert_int_equal(km_copy_to_user(f->t, &km_uaccess_direct, u, "x", 1), 0);
	assert_int_equal(km_get_user_pages_fast(f->t, u, 1, KM_FOLL_WRITE, &p), 1);
	if (km_page_highmem(p) != row->highmem)
		fail_msg("%s: the user page is %s", row->name, row->highmem ? "lowmem" : "highmem");
	mapped = row->other ? km_alloc_page(f->m, KM_GFP_KERNEL | KM_GFP_HIGHMEM) : p;
	assert_non_null(mapped);
	k = row->kmap == K_ATOMIC ? km_kmap_atomic(f->t, mapped) :
	    row->kmap == K_LOCAL ? km_kmap_local_page(f->t, mapped) : km_kmap(f->t, mapped);
	assert_non_null(k);
	/* where strict mode puts a slot, the write goes through an alias */
	if ((row->strict == KM_KMAP_STRICT_FORCE_MAP ||
	     (row->strict == KM_KMAP_STRICT && row->kmap != K_SLEEPING && row->highmem)) !=
	    (k != (unsigned char *)km_page_host(f->m, mapped)))
		fail_msg("%s: kmap address %p, frame %p", row->name, (void *)k,
			 km_page_host(f->m, mapped));
	km_kernel_memcpy(k + 100, "written", 7);
	if (row->kmap == K_ATOMIC)
		km_kunmap_atomic(f->t, k);
	else if (row->kmap == K_LOCAL)
		km_kunmap_local(f->t, k);
	else
		km_kunmap(f->t, mapped);
	if (row->other)
		km_put_page(f->m, mapped);
	if (row->dirty)
		km_set_page_dirty(f->m, p);
	km_put_page(f->m, p);
	assert_reports(f->m, KM_R_PIN_NOT_DIRTIED, row->reports, "released clean", row->name);
}

/* a device write past the page is refused */
static void test_device_write_past_page(void **state)
{
	struct km_fixture *f = *state;

	assert_int_equal(km_page_device_write(f->m, km_pfn_to_page(f->m, 1), 4095, "ab", 2),
			 -EINVAL);
}

/* ---- wl128x --------------------------------------------------------------- */

/* a read(2) of 6 bytes into a buffer never touched (its first store
 * faults): v3.10 copies under spin_lock_irqsave() -- the fault may sleep
 * holding the lock with interrupts off; with CONFIG_PREEMPT the fault is
 * fixed up instead and read() returns 0. v3.11 copies after unlocking
 * (5255e4d9dfe2). */
static const struct wl128x_row {
	const char *name;
	bool fixed;
	int ret;
	unsigned long reports;
} wl128x_rows[] = {
	{ "v3.10: copy_to_user() under the lock", false, 0, 1 },
	{ "v3.11: after spin_unlock_irqrestore()", true, 6, 0 },
};

static void test_wl128x_copy_under_spinlock(void **state)
{
	const struct wl128x_row *row = km_row(state);
	struct km_fixture *f = km_row_fixture(state);
	struct fmdev *fmdev;
	unsigned long u;
	unsigned char got[6], want[6] = { 0x10, 0x11, 0x12, 0x13, 0x14, 0x15 };
	int ret;

	assert_int_equal(km_mmap(f->mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &u), 0);
	fmdev = wl128x_test_fmdev_new(2);
	assert_non_null(fmdev);
	ret = wl128x_test_read(fmdev, row->fixed, u, sizeof(got));
	if (ret != row->ret)
		fail_msg("%s: read %d", row->name, ret);
	assert_reports(f->m, KM_R_SLEEP_IN_ATOMIC, row->reports,
		       "with a spinlock held and interrupts off", row->name);
	if (ret == 6) {
		assert_int_equal(km_copy_from_user(f->t, &km_uaccess_direct, got, u, 6), 0);
		assert_memory_equal(got, want, 6);
	}
	/* the lock and the interrupt state restored */
	assert_int_equal(km_preempt_count(f->t), 0);
	assert_false(km_irqs_disabled(f->t));
	wl128x_test_fmdev_free(fmdev);
}

/* ---- the fault path's atomic state -------------------------------------------- */

/* the context a row's copy runs in */
enum { IRQ = 1, SPIN = 2, PFDIS = 4, PREEMPT = 8, RESIDENT = 16 };

static const struct atomic_row {
	const char *name;
	unsigned int state;
	unsigned long reports, not_copied;
} atomic_rows[] = {
	{ "process context", 0, 0, 0 },
	{ "interrupts off: handled, but may sleep", IRQ, 1, 0 },
	{ "spinlock: fixed up, and may sleep", SPIN, 1, 8 },
	{ "spinlock and interrupts off", SPIN | IRQ, 1, 8 },
	{ "spinlock inside pagefault_disable()", SPIN | PFDIS, 0, 8 },
	{ "preempt_disable() alone", PREEMPT, 0, 8 },
	{ "spinlock, resident page: no fault", SPIN | RESIDENT, 0, 0 },
};

static void test_fault_in_atomic(void **state)
{
	const struct atomic_row *row = km_row(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_spinlock lock = { 0 };
	unsigned char k[8] = "abcdefg";
	unsigned long u, n;

	assert_int_equal(km_mmap(f->mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &u), 0);
	if (row->state & RESIDENT)
		assert_int_equal(km_copyout(f->t, &km_uaccess_direct, u, k, 8), 0);
	if (row->state & PFDIS)
		km_pagefault_disable(f->t);
	if (row->state & IRQ)
		km_local_irq_disable(f->t);
	if (row->state & SPIN)
		km_spin_lock(f->t, &lock);
	if (row->state & PREEMPT)
		km_preempt_disable(f->t);
	n = km_copyout(f->t, &km_uaccess_direct, u, k, 8);	/* no might_fault() */
	if (row->state & PREEMPT)
		km_preempt_enable(f->t);
	if (row->state & SPIN)
		km_spin_unlock(f->t, &lock);
	if (row->state & IRQ)
		km_local_irq_enable(f->t);
	if (row->state & PFDIS)
		km_pagefault_enable(f->t);
	if (n != row->not_copied ||
	    km_report_count(f->m, KM_R_SLEEP_IN_ATOMIC) != row->reports)
		fail_msg("%s: %lu not copied, %lu sleep_in_atomic reports", row->name, n,
			 km_report_count(f->m, KM_R_SLEEP_IN_ATOMIC));
	km_reports_clear(f->m);
}

/* might_sleep() with interrupts off (copy_to_user()'s might_fault() of
 * v5.7) is a report; a task that exits with them off leaks atomic state */
static void test_irqs_off_sleep_and_exit(void **state)
{
	struct km_fixture *f = *state;
	struct km_task *t2;
	unsigned long u;

	assert_int_equal(km_mmap(f->mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &u), 0);
	assert_int_equal(km_copy_to_user(f->t, &km_uaccess_direct, u, "x", 1), 0);
	km_local_irq_disable(f->t);
	assert_true(km_irqs_disabled(f->t));
	assert_int_equal(km_copy_to_user(f->t, &km_uaccess_direct, u, "y", 1), 0);	/* resident */
	assert_int_equal(km_report_count(f->m, KM_R_SLEEP_IN_ATOMIC), 1);		/* might_fault() */
	assert_non_null(strstr(km_report_get(f->m, 0)->message, "irqs_disabled(): 1"));
	km_local_irq_enable(f->t);
	km_reports_clear(f->m);
	assert_int_equal(km_task_new(f->m, f->mm, 0, &t2), 0);
	km_local_irq_disable(t2);
	km_task_free(t2);
	assert_int_equal(km_report_count(f->m, KM_R_LEAK_ATOMIC), 1);
	assert_non_null(strstr(km_report_get(f->m, 0)->message, "interrupts off"));
	km_reports_clear(f->m);
}

/* a task that exits inside pagefault_disable() (machine.h: "reports
 * KM_R_LEAK_ATOMIC if preempt/pagefault counts are still raised") or
 * holding a kmap_local slot (its kmap_ctrl, v5.11, goes with it): each a
 * leak, named */
static void test_task_exit_leaks(void **state)
{
	struct km_fixture *f = *state;
	struct km_task *t2;
	struct km_page *p;

	assert_int_equal(km_task_new(f->m, f->mm, 0, &t2), 0);
	km_pagefault_disable(t2);
	km_task_free(t2);
	assert_int_equal(km_report_count(f->m, KM_R_LEAK_ATOMIC), 1);
	assert_non_null(strstr(km_report_get(f->m, 0)->message, "pagefault_disabled 1"));
	km_reports_clear(f->m);
	p = km_alloc_page(f->m, KM_GFP_KERNEL | KM_GFP_HIGHMEM);	/* a lowmem page takes no slot */
	assert_non_null(p);
	assert_int_equal(km_task_new(f->m, f->mm, 0, &t2), 0);
	assert_non_null(km_kmap_local_page(t2, p));
	km_task_free(t2);
	assert_int_equal(km_report_count(f->m, KM_R_LEAK_KMAP), 1);
	assert_non_null(strstr(km_report_get(f->m, 0)->message,
			       "task exits holding 1 kmap_local slot"));
	km_reports_clear(f->m);
	km_put_page(f->m, p);
}

/* past a full log a sleep_in_atomic is still counted, by its code and in
 * all reports (km_report_count(KM_R_NONE)), as every other report is */
static void test_sleep_in_atomic_past_full_log(void **state)
{
	struct km_fixture *f = *state;

	km_reports_set_log_max(f->m, 1);
	for (int i = 0; i < 3; i++)
		km_task_sleep_in_atomic(f->t, "a test");
	assert_int_equal(km_report_log_len(f->m), 1);
	assert_int_equal(km_report_count(f->m, KM_R_SLEEP_IN_ATOMIC), 3);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 3);
	km_reports_clear(f->m);
}

/* ---- km_machine_check() and kmap_local --------------------------------------- */

static const struct km_machine_config kmap_local_cfg = {
	.kmap = KM_KMAP_LOCAL, .ram_size = 16ULL << 20, .lowmem_size = 4ULL << 20,
};

static void test_check_sees_live_kmap_local(void **state)
{
	struct km_fixture *f = *state;
	struct km_page *p;
	void *k;
	int held;

	p = km_alloc_page(f->m, KM_GFP_KERNEL | KM_GFP_HIGHMEM);	/* a lowmem page takes no slot */
	assert_non_null(p);
	k = km_kmap_local_page(f->t, p);
	assert_non_null(k);
	/* the live task, its address space and the page are leaks too at
	 * this point: the slot is one problem more */
	held = km_machine_check(f->m);
	assert_int_equal(km_report_count(f->m, KM_R_LEAK_KMAP), 1);
	for (size_t i = 0; i < km_report_log_len(f->m); i++)
		if (km_report_get(f->m, i)->code == KM_R_LEAK_KMAP)
			assert_non_null(strstr(km_report_get(f->m, i)->message,
					       "a live task on cpu 0 holds 1 kmap_local slot"));
	km_kunmap_local(f->t, k);
	km_reports_clear(f->m);
	assert_int_equal(km_machine_check(f->m), held - 1);
	assert_int_equal(km_report_count(f->m, KM_R_LEAK_KMAP), 0);
	km_reports_clear(f->m);
	km_put_page(f->m, p);
}

int main(void)
{
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test_setup_teardown(test_device_write_past_page, km_fixture_setup,
						km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_irqs_off_sleep_and_exit, km_fixture_setup,
						km_fixture_teardown),
		KM_TEST_CFG(test_check_sees_live_kmap_local, kmap_local_cfg),
		KM_TEST_CFG(test_task_exit_leaks, kmap_local_cfg),
		cmocka_unit_test_setup_teardown(test_sleep_in_atomic_past_full_log, km_fixture_setup,
						km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_pinned_write_last_reference, km_fixture_setup,
						km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_pinned_write_page_boundary, km_fixture_setup,
						km_fixture_teardown),
	};
	GArray *rows = km_test_new_group();

	KM_TEST_ROWS(rows, test_gntdev_grant_copy, km_row_setup, km_fixture_teardown,
		     gntdev_rows);
	KM_TEST_ROWS(rows, test_pinned_write_rules, km_row_setup, km_fixture_teardown, pin_rows);
	KM_TEST_ROWS(rows, test_pinned_write_rules_fast_gup, setup_fast_gup, km_fixture_teardown,
		     pin_rows);
	KM_TEST_ROWS(rows, test_pinned_write_through_kmap, setup_alias_row, km_fixture_teardown,
		     alias_rows);
	KM_TEST_ROWS(rows, test_wl128x_copy_under_spinlock, km_row_setup, km_fixture_teardown,
		     wl128x_rows);
	KM_TEST_ROWS(rows, test_fault_in_atomic, km_row_setup, km_fixture_teardown, atomic_rows);
	KM_TEST_CASES(tests, fixed, rows);

	return cmocka_run_group_tests_name("test_checkers", tests, NULL, NULL);
}
