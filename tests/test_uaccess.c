// SPDX-License-Identifier: GPL-2.0
/*
 * uaccess: every variant against the copy_{from,to}_user contract of
 * include/linux/uaccess.h (v5.7): the return value is the number of bytes
 * not copied; the first n - N destination bytes equal the source; nothing
 * past them is written; copy_from_user zero-fills the uncopied tail.
 * Expected values come from that contract, not from the code.
 */
#include "km_test.h"
#include <errno.h>
#include <glib.h>
#include <limits.h>
#include <string.h>

#define RW (KM_PROT_READ | KM_PROT_WRITE)
#define RO KM_PROT_READ
#define GUARD 64

/* The variants every contract test runs on, one named row each. */
static const struct variant_row {
	const char *name;
	const struct km_uaccess_ops *ops;
} variants[] = {
	{ "direct", &km_uaccess_direct },
	{ "gup_kmap_rfc", &km_uaccess_gup_kmap_rfc },
	{ "gup_kmap_fixed", &km_uaccess_gup_kmap_fixed },
};

/* the variant of a row run on a fixture (km_row_setup() and the like) */
static const struct km_uaccess_ops *variant(void **state)
{
	return ((const struct variant_row *)km_row(state))->ops;
}

/* A sweep's fixture: a row's variant on a machine of the sweep's config. */
struct sweep {
	const struct km_uaccess_ops *ops;
	struct km_machine_config cfg;
	struct km_fixture f;
	unsigned long P, base;		/* 6 user pages at base */
	unsigned char *shadow;		/* what the user pages hold */
	unsigned char *kbuf;		/* GUARD | 3P | GUARD */
	unsigned char *src;		/* 3P kernel source bytes */
};

static void sweep_up(struct sweep *s, unsigned long P, const struct km_machine_config *cfg)
{
	GRand *r = g_rand_new_with_seed((guint32)P);

	s->P = P;
	km_fixture_up(&s->f, cfg);
	s->base = km_test_map(&s->f, 0, 6, RW);
	s->shadow = g_malloc(6 * P);
	s->kbuf = g_malloc(3 * P + 2 * GUARD);
	s->src = g_malloc(3 * P);
	for (unsigned long i = 0; i < 6 * P; i++)
		s->shadow[i] = (unsigned char)g_rand_int(r);
	for (unsigned long i = 0; i < 3 * P; i++)
		s->src[i] = (unsigned char)g_rand_int(r);
	memset(s->kbuf, 0xee, 3 * P + 2 * GUARD);
	assert_int_equal(km_user_access(s->f.t, s->base, s->shadow, 6 * P, true), (long)(6 * P));
	g_rand_free(r);
}

static void sweep_down(struct sweep *s)
{
	g_free(s->shadow);
	g_free(s->kbuf);
	g_free(s->src);
	km_fixture_down(&s->f);
}

static int sweep_setup(void **state, const struct km_machine_config *cfg)
{
	struct sweep *s = g_new0(struct sweep, 1);

	s->ops = ((const struct variant_row *)*state)->ops;
	s->cfg = *cfg;
	sweep_up(s, cfg->page_size, cfg);
	*state = s;
	return 0;
}

static int sweep_teardown(void **state)
{
	sweep_down(*state);
	g_free(*state);
	return 0;
}

static int setup_4k(void **state)
{
	return sweep_setup(state, &(struct km_machine_config){ .page_size = 4096,
							       .ram_size = 64ULL << 20 });
}

static int setup_16k(void **state)
{
	return sweep_setup(state, &(struct km_machine_config){ .page_size = 16384,
							       .ram_size = 64ULL << 20 });
}

static int setup_64k(void **state)
{
	return sweep_setup(state, &(struct km_machine_config){ .page_size = 65536,
							       .ram_size = 64ULL << 20 });
}

/* every user page in highmem: the gup variants' kmap takes a slot,
 * flushes and must pop it in order (kmap_debug BUG()s if not) */
static int setup_4k_highmem(void **state)
{
	return sweep_setup(state, &(struct km_machine_config){
		.page_size = 4096, .ram_size = 64ULL << 20, .lowmem_size = 32ULL << 20,
		.kmap_debug = true });
}

/* refcounts (1: the pte) and kmap/atomic state back to their start */
static void assert_state_restored(struct sweep *s)
{
	for (int i = 0; i < 6; i++) {
		struct km_page *p;

		assert_int_equal(km_follow_pte(s->f.mm, s->base + i * s->P, NULL, &p), 0);
		assert_int_equal(km_page_refcount(p), 1);
	}
	assert_int_equal(km_kmap_slots_held(s->f.m, 0), 0);
	assert_int_equal(km_preempt_count(s->f.t), 0);
	assert_int_equal(km_pagefault_disabled(s->f.t), 0);
}

/* The start offsets a sweep tries in a page of @P bytes: every one for
 * 4 KiB pages; for larger pages the first and last SWEEP_EDGE (where a
 * start, or an end at a length of P - 1, P, P + 1 or 3P, meets a page
 * boundary) and every 251st between them (a prime: every residue of the
 * small powers of two the copies work in). A sweep of every offset of a
 * 64 KiB page copied some 20 GB and took 95 % of the suite's time,
 * while the cases near the boundaries are the same at every page size. */
#define SWEEP_EDGE 64
static bool sweep_offset(unsigned long off, unsigned long P)
{
	return P <= 4096 || off < SWEEP_EDGE || off >= P - SWEEP_EDGE || off % 251 == 0;
}

/* Start offsets (sweep_offset()) x lengths {0, 1, P-1, P, P+1, 3P}, both
 * directions, in process context or with preemption and page faults
 * disabled (@atomic, as under kmap_atomic()): data byte-exact, 0
 * returned, GUARD bytes either side untouched, refcounts and kmap slots
 * back to their start, no report -- except the faithful RFC's sleeping in
 * atomic context (its kmalloc_array(GFP_KERNEL), the gup slow path). */
static void sweep_run(struct sweep *sp, bool atomic)
{
	const struct km_uaccess_ops *ops = sp->ops;
	const struct km_machine_config *cfg = &sp->cfg;
	unsigned long P = cfg->page_size;
	struct sweep s = *sp;
	const unsigned long lens[] = { 0, 1, P - 1, P, P + 1, 3 * P };
	unsigned char *user = g_malloc(3 * P + 2 * GUARD);
	unsigned long offsets = 0;

	{	/* the machine puts user pages where the sweep means them to be */
		struct km_page *pg;

		assert_int_equal(km_follow_pte(s.f.mm, s.base, NULL, &pg), 0);
		assert_int_equal(km_page_highmem(pg), cfg->lowmem_size != 0);
	}
	for (unsigned long off = 0; off < P; off++) {
		if (!sweep_offset(off, P))
			continue;
		offsets++;
		if (atomic) {
			km_preempt_disable(s.f.t);
			km_pagefault_disable(s.f.t);
		}
		for (size_t li = 0; li < G_N_ELEMENTS(lens); li++) {
			unsigned long n = lens[li];
			unsigned long ua = s.base + P + off;	/* in page 1 */
			unsigned char *k = s.kbuf + GUARD;

			/* copy_from_user */
			if (km_copy_from_user(s.f.t, ops, k, ua, n) != 0)
				fail_msg("%s from_user P=%lu off=%lu n=%lu: not 0", ops->name, P, off, n);
			if (memcmp(k, s.shadow + P + off, n))
				fail_msg("%s from_user P=%lu off=%lu n=%lu: data", ops->name, P, off, n);
			for (int g = 0; g < GUARD; g++)
				if (k[n + g] != 0xee || s.kbuf[g] != 0xee)
					fail_msg("%s from_user P=%lu off=%lu n=%lu: wrote past", ops->name,
						 P, off, n);
			memset(k, 0xee, n);

			/* copy_to_user */
			if (km_copy_to_user(s.f.t, ops, ua, s.src, n) != 0)
				fail_msg("%s to_user P=%lu off=%lu n=%lu: not 0", ops->name, P, off, n);
			assert_int_equal(km_mm_peek(s.f.mm, ua - GUARD, user, n + 2 * GUARD), 0);
			if (memcmp(user + GUARD, s.src, n))
				fail_msg("%s to_user P=%lu off=%lu n=%lu: data", ops->name, P, off, n);
			if (memcmp(user, s.shadow + P + off - GUARD, GUARD) ||
			    memcmp(user + GUARD + n, s.shadow + P + off + n, GUARD))
				fail_msg("%s to_user P=%lu off=%lu n=%lu: wrote outside", ops->name, P,
					 off, n);
			km_user_access(s.f.t, ua, s.shadow + P + off, n, true);
		}
		if (atomic) {
			km_pagefault_enable(s.f.t);
			km_preempt_enable(s.f.t);
		}
		assert_state_restored(&s);
	}
	/* 4 KiB: all; else 2 x 64 edge offsets and the multiples of 251 between */
	assert_int_equal(offsets, P <= 4096 ? P : 2 * SWEEP_EDGE +
			 (P - SWEEP_EDGE - 1) / 251 - (SWEEP_EDGE - 1) / 251);
	if (atomic && ops == &km_uaccess_gup_kmap_rfc)
		assert_true(km_report_count(s.f.m, KM_R_SLEEP_IN_ATOMIC) > 0);
	else
		assert_int_equal(km_report_count(s.f.m, KM_R_NONE), 0);
	km_reports_clear(s.f.m);
	g_free(user);
}

/* the page size is the fixture's: setup_4k, setup_16k, setup_64k,
 * setup_4k_highmem */
static void test_sweep_4k(void **state) { sweep_run(*state, false); }
static void test_sweep_16k(void **state) { sweep_run(*state, false); }
static void test_sweep_64k(void **state) { sweep_run(*state, false); }
static void test_sweep_4k_highmem(void **state) { sweep_run(*state, false); }

/* The 4 KiB sweep under kmap_atomic()'s context: every variant copies
 * resident pages whole there (gup_kmap_fixed by its pte-lock walk). */
static void test_sweep_4k_atomic(void **state) { sweep_run(*state, true); }

/*
 * A range running from a mapped page into an unmapped one: 10 bytes are
 * accessible. The contract: raw returns 20 with those 10 copied and no
 * byte past them written; copy_from_user zero-fills the 20.
 * FLAW of the faithful RFC (gup_kmap_rfc): get_user_pages_fast() pins 1 of
 * 2 pages, the "ret != num_pages" path puts it and returns n untouched:
 * nothing is copied although 10 bytes were accessible. gup_kmap_fixed
 * copies the pinned prefix (its FIX(1)), as the contract asks.
 */
static void test_fault_into_unmapped(void **state)
{
	struct km_fixture *f = km_row_fixture(state);
	const struct km_uaccess_ops *ops = variant(state);
	bool rfc = ops == &km_uaccess_gup_kmap_rfc;
	unsigned char src[30], dst[30], back[10];
	unsigned long a, ret;

	a = km_test_map(f, 0x100000, 1, RW);	/* 0x101000 is unmapped */
	for (int i = 0; i < 30; i++)
		src[i] = (unsigned char)(i + 1);
	assert_int_equal(km_user_access(f->t, a + 4086, src, 10, true), 10);

	/* raw copy_from_user */
	memset(dst, 0xee, sizeof(dst));
	km_task_switch(f->t);
	ret = ops->raw_copy_from_user(dst, a + 4086, 30);
	assert_int_equal(ret, rfc ? 30 : 20);
	if (!rfc)
		assert_memory_equal(dst, src, 10);
	for (unsigned long i = 30 - ret; i < 30; i++)
		assert_int_equal(dst[i], 0xee);	/* raw never zero-pads */

	/* copy_from_user zero-fills the uncopied tail */
	memset(dst, 0xee, sizeof(dst));
	ret = km_copy_from_user(f->t, ops, dst, a + 4086, 30);
	assert_int_equal(ret, rfc ? 30 : 20);
	for (unsigned long i = 30 - ret; i < 30; i++)
		assert_int_equal(dst[i], 0);

	/* copy_to_user running into the hole */
	memset(src, 0x77, sizeof(src));
	ret = km_copy_to_user(f->t, ops, a + 4086, src, 30);
	assert_int_equal(ret, rfc ? 30 : 20);
	assert_int_equal(km_mm_peek(f->mm, a + 4086, back, 10), 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal(back[i], rfc ? i + 1 : 0x77);

	/* wholly unmapped: nothing copied, N == n */
	assert_int_equal(km_copy_from_user(f->t, ops, dst, 0x101000, 30), 30);
}

/* copy_to_user into a read-only page: nothing lands there. Straddling a
 * writable and a read-only page: the contract wants the writable prefix
 * written (direct, gup_kmap_fixed); the faithful RFC (same partial-pin
 * flaw) writes nothing and returns n. */
static void test_to_user_readonly(void **state)
{
	struct km_fixture *f = km_row_fixture(state);
	const struct km_uaccess_ops *ops = variant(state);
	bool rfc = ops == &km_uaccess_gup_kmap_rfc;
	unsigned char src[30], back[30];
	unsigned long ret;

	km_test_map(f, 0x200000, 1, RW);
	km_test_map(f, 0x201000, 1, RO);
	memset(src, 0x55, sizeof(src));
	assert_int_equal(km_copy_to_user(f->t, ops, 0x201000, src, 30), 30);
	assert_int_equal(km_mm_peek(f->mm, 0x201000, back, 30), 0);
	for (int i = 0; i < 30; i++)
		assert_int_equal(back[i], 0);
	ret = km_copy_to_user(f->t, ops, 0x201000 - 10, src, 30);
	assert_int_equal(ret, rfc ? 30 : 20);
	assert_int_equal(km_mm_peek(f->mm, 0x201000 - 10, back, 30), 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal(back[i], rfc ? 0 : 0x55);
	for (int i = 10; i < 30; i++)
		assert_int_equal(back[i], 0);
}

/* n == 0: returns 0, writes nothing. */
static void test_zero_length(void **state)
{
	struct km_fixture *f = km_row_fixture(state);
	const struct km_uaccess_ops *ops = variant(state);
	unsigned char dst[4] = { 1, 2, 3, 4 };
	unsigned long a;

	a = km_test_map(f, 0, 2, RW);
	assert_int_equal(km_copy_from_user(f->t, ops, dst, a, 0), 0);
	assert_int_equal(km_copy_to_user(f->t, ops, a + 4096, dst, 0), 0);
	assert_int_equal(km_copy_from_user(f->t, ops, dst, 0x10, 0), 0);	/* unmapped */
	assert_int_equal(dst[0] + dst[1] + dst[2] + dst[3], 10);
	assert_int_equal(km_follow_pte(f->mm, a, NULL, NULL), -ENOENT);
}

/*
 * FLAW of the faithful RFC: an unaligned n == 0 computes num_pages = 1
 * (DIV_ROUND_UP(from + 0, PAGE_SIZE) - from / PAGE_SIZE) and pins that
 * page, faulting it in: a side effect the contract forbids. The direct
 * baseline touches nothing.
 */
static void test_rfc_zero_length_unaligned_faults_in(void **state)
{
	struct km_fixture *f = *state;
	unsigned char dst[1];
	unsigned long a;
	struct km_events ev;

	a = km_test_map(f, 0, 2, RW);
	assert_int_equal(km_copy_from_user(f->t, &km_uaccess_direct, dst, a + 1, 0), 0);
	assert_int_equal(km_follow_pte(f->mm, a, NULL, NULL), -ENOENT);
	assert_int_equal(km_copy_from_user(f->t, &km_uaccess_gup_kmap_rfc, dst, a + 1, 0), 0);
	assert_int_equal(km_follow_pte(f->mm, a, NULL, NULL), 0);	/* faulted in */
	km_events_get(f->m, &ev);
	assert_int_equal(ev.gup_calls, 1);
	assert_int_equal(ev.kmalloc_calls, 1);
}

/* access_ok() against TASK_SIZE, wrap-safe: nothing is copied, all zeroed. */
static void test_access_ok(void **state)
{
	struct km_fixture *f = km_row_fixture(state);
	const struct km_uaccess_ops *ops = variant(state);
	unsigned char dst[8];
	unsigned long ts;

	ts = km_task_size(f->m);
	assert_true(km_uaccess_access_ok(f->t, ts - 8, 8));
	assert_false(km_uaccess_access_ok(f->t, ts - 4, 8));
	assert_false(km_uaccess_access_ok(f->t, ~0UL - 3, 8));	/* wraps */
	assert_false(km_uaccess_access_ok(f->t, 0, ts + 1));
	/* the last user page is mapped and holds data: a copy across
	 * TASK_SIZE must still copy nothing (access_ok() fails first) */
	km_test_map(f, ts - 4096, 1, RW);
	km_user_access(f->t, ts - 4, "data", 4, true);
	memset(dst, 0xee, sizeof(dst));
	assert_int_equal(km_copy_from_user(f->t, ops, dst, ts - 4, 8), 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(dst[i], 0);
	assert_int_equal(km_copy_to_user(f->t, ops, ts - 4, "XXXXXXXX", 8), 8);
	assert_int_equal(km_mm_peek(f->mm, ts - 4, dst, 4), 0);
	assert_memory_equal(dst, "data", 4);
	assert_int_equal(km_copy_to_user(f->t, ops, ~0UL - 3, dst, 8), 8);
}

/* KERNEL_DS: uaccess_kernel() makes both directions copy kernel memory
 * directly (the RFC's and the fixed variant's memcpy() branch; direct's
 * kernel-pointer access), with no gup and no fault. */
static void test_kernel_ds(void **state)
{
	struct km_fixture *f = km_row_fixture(state);
	const struct km_uaccess_ops *ops = variant(state);
	struct km_events ev;
	char a[16] = "kernel buffer", b[16] = {0}, c[16] = "other buffer";

	km_task_set_kernel_ds(f->t, true);
	assert_int_equal(km_copy_from_user(f->t, ops, b, (unsigned long)a, sizeof(a)), 0);
	assert_string_equal(b, "kernel buffer");
	assert_int_equal(km_copy_to_user(f->t, ops, (unsigned long)b, c, sizeof(c)), 0);
	assert_string_equal(b, "other buffer");
	km_events_get(f->m, &ev);
	assert_int_equal(ev.gup_calls, 0);
	assert_int_equal(ev.page_faults, 0);
	km_task_set_kernel_ds(f->t, false);
}

/*
 * copy_from_user in atomic context (preempt and page faults disabled, as
 * under kmap_atomic in iov_iter_copy_from_user_atomic()) of a resident
 * page, on a machine without (@fast_gup false, the default) and with
 * HAVE_FAST_GUP. The contract in atomic context: nothing may sleep; a raw
 * copy may come back short when it would have to fault (the caller faults
 * in and retries). So:
 *  - direct: the MMU finds the pte, copies all, never sleeps;
 *  - gup_kmap_rfc: kmalloc_array(GFP_KERNEL) sleeps (one report) and,
 *    without fast gup, so does the slow path's mmap_sem (a second); with
 *    fast gup the lockless walk pins the resident page;
 *  - gup_kmap_fixed (FIX(4)): the pte-lock walk of pin_page_for_write()
 *    (arch/arm/lib/uaccess_with_memcpy.c, v5.7), never a report, copies
 *    all on both machines. (It used __get_user_pages_fast(), which pins
 *    nothing without HAVE_FAST_GUP: it copied nothing on the BeagleBone.)
 */
static void atomic_copy(const struct km_uaccess_ops *ops, struct km_fixture *fp, bool fast_gup)
{
	bool rfc = ops == &km_uaccess_gup_kmap_rfc;
	unsigned long short_by = 0;
	struct km_fixture f = *fp;
	unsigned char x[16], y[16];
	unsigned long a;

	a = km_test_map(&f, 0, 1, RW);
	for (int i = 0; i < 16; i++)
		x[i] = (unsigned char)(0x40 + i);
	km_user_access(f.t, a, x, sizeof(x), true);	/* resident */
	memset(y, 0xee, sizeof(y));
	km_preempt_disable(f.t);
	km_pagefault_disable(f.t);
	assert_int_equal(km_copy_from_user(f.t, ops, y, a, sizeof(y)), short_by);
	km_pagefault_enable(f.t);
	km_preempt_enable(f.t);
	for (unsigned long i = 0; i < 16; i++)
		assert_int_equal(y[i], i < 16 - short_by ? x[i] : 0);
	assert_int_equal(km_report_count(f.m, KM_R_SLEEP_IN_ATOMIC),
			 rfc ? (fast_gup ? 1 : 2) : 0);
	km_reports_clear(f.m);
}

static int setup_fast_gup(void **state)
{
	return km_row_setup_cfg(state, &(struct km_machine_config){ .fast_gup = true });
}

/* on the default machine (no fast gup), and on one with it (setup_fast_gup) */
static void test_atomic_context(void **state)
{
	atomic_copy(variant(state), km_row_fixture(state), false);
}

static void test_atomic_context_fast_gup(void **state)
{
	atomic_copy(variant(state), km_row_fixture(state), true);
}

/* The pte-lock walk's state in the middle of gup_kmap_fixed's memcpy:
 * the mm's page_table_lock held by the task (its preempt_count raised),
 * the user page's refcount unchanged (no reference taken). */
struct locked_probe {
	struct km_mm *mm;
	struct km_page *page;
	int refcount, calls, held;
};

static void probe_locked(struct km_task *t, size_t n, void *arg)
{
	struct locked_probe *p = arg;

	p->calls++;
	p->held += km_mm_locks(p->mm)->page_table_lock.owner == t;
	p->refcount = km_page_refcount(p->page);
}

/* An outside report's input: on a machine without
 * fast GUP, a page mapped and written at 0x10000000, preemption and page
 * faults disabled, raw_copy_from_user(dst, 0x10000FEE, 1) copied nothing
 * (returned 1) although the byte is resident; the contract allows n only
 * when nothing could be copied. With the pte-lock walk it returns 0 and
 * the byte. */
static void test_fixed_atomic_resident_byte(void **state)
{
	struct km_fixture *f = *state;
	unsigned char b = 0x42, got = 0;
	unsigned long a;

	a = km_test_map(f, 0x10000000, 1, RW);
	assert_int_equal(a, 0x10000000);
	assert_int_equal(km_user_access(f->t, 0x10000FEE, &b, 1, true), 1);
	km_pagefault_disable(f->t);
	km_preempt_disable(f->t);
	assert_int_equal(km_uaccess_gup_kmap_fixed.raw_copy_from_user(&got, 0x10000FEE, 1), 0);
	km_preempt_enable(f->t);
	km_pagefault_enable(f->t);
	assert_int_equal(got, 0x42);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}

/*
 * gup_kmap_fixed FIX(4): with faulthandler_disabled() each page is reached
 * by the pte-lock walk of pin_page_for_write() (arch/arm/lib/
 * uaccess_with_memcpy.c, v5.7) on every machine: a load needs a present,
 * young pte -- the zero page a read fault maps included (the lockless
 * __get_user_pages_fast() refuses it: pte_special) -- a store a writable,
 * dirty one; the lock is held across the memcpy and no reference taken;
 * an old pte, a clean one for a store, a read-only or a missing one stops
 * the copy there (the bytes before are copied), with no fault and no
 * report. Each context that disables faults: preempt_disable() alone,
 * pagefault_disable() alone, both.
 */
static const struct pte_walk_row {
	const char *name;
	bool fast;		/* the machine's fast_gup */
	int ctx;		/* 1: preempt_disable(), 2: pagefault_disable(), 3: both */
} pte_walk_rows[] = {
	{ "preempt", false, 1 },
	{ "pagefault", false, 2 },
	{ "both", false, 3 },
	{ "fast gup, preempt", true, 1 },
	{ "fast gup, pagefault", true, 2 },
	{ "fast gup, both", true, 3 },
};

static int setup_pte_walk(void **state)
{
	const struct pte_walk_row *r = *state;

	return km_row_setup_cfg(state, &(struct km_machine_config){
		.fast_gup = r->fast, .ram_size = 64ULL << 20, .lowmem_size = 32ULL << 20,
		.kmap_debug = true });
}

static void test_fixed_atomic_pte_lock_walk(void **state)
{
	const struct km_uaccess_ops *ops = &km_uaccess_gup_kmap_fixed;
	const struct pte_walk_row *r = km_row(state);
	struct km_fixture f = *km_row_fixture(state);
	struct locked_probe probe = { 0 };
	unsigned char x[64], y[64];
	unsigned long a, P;

	P = km_page_size(f.m);
	a = km_test_map(&f, 0, 4, RW);
	memset(x, 0x5a, sizeof(x));
	km_user_access(f.t, a + P - 64, x, sizeof(x), true);	/* page 0: written */
	km_user_access(f.t, a + P, y, 1, false);	/* page 1: the zero page */
	probe.mm = f.mm;
	assert_int_equal(km_follow_pte(f.mm, a, NULL, &probe.page), 0);
	km_fault_on_memcpy(f.m, probe_locked, &probe);
	if (r->ctx & 1)
		km_preempt_disable(f.t);
	if (r->ctx & 2)
		km_pagefault_disable(f.t);
	/* page 0 to page 1 (zeros) to page 2 (no pte): 32 + P copied */
	memset(y, 0xee, sizeof(y));
	assert_int_equal(ops->raw_copy_from_user(y, a + P - 32, 64), 0);
	assert_memory_equal(y, x, 32);
	for (int k = 32; k < 64; k++)
		assert_int_equal(y[k], 0);
	assert_int_equal(ops->raw_copy_from_user(y, a + 2 * P - 16, 32), 16);
	assert_true(probe.calls >= 3 && probe.held == probe.calls);
	assert_int_equal(probe.refcount, 1);	/* the pte's own reference */
	/* a store: page 0 is writable and dirty, page 1 the read-only zero page */
	assert_int_equal(ops->raw_copy_to_user(a + P - 8, x, 16), 8);
	/* an old pte stops a load, a clean one a store */
	assert_int_equal(km_pte_mkold_clean(f.mm, a, KM_PTE_YOUNG), 0);
	assert_int_equal(ops->raw_copy_from_user(y, a, 8), 8);
	assert_int_equal(km_user_access(f.t, a, y, 1, false), 1);	/* young again */
	assert_int_equal(km_pte_mkold_clean(f.mm, a, KM_PTE_DIRTY), 0);
	assert_int_equal(ops->raw_copy_to_user(a, x, 8), 8);
	assert_int_equal(ops->raw_copy_from_user(y, a, 8), 0);
	if (r->ctx & 2)
		km_pagefault_enable(f.t);
	if (r->ctx & 1)
		km_preempt_enable(f.t);
	assert_int_equal(km_follow_pte(f.mm, a + 2 * P, NULL, NULL), -ENOENT);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	assert_null(km_mm_locks(f.mm)->page_table_lock.owner);
	km_fault_on_memcpy(f.m, NULL, NULL);
}

/*
 * faulthandler_disabled() is pagefault_disabled() *or* in_atomic()
 * (include/linux/uaccess.h, v5.7): with either alone no variant may fault
 * a page in. A copy from a mapped, never-touched page: direct
 * (do_page_fault() goes to no_context) and gup_kmap_fixed (its pte-lock
 * walk finds no pte) copy nothing and return n. The RFC's gup slow path
 * takes mmap_sem and faults the page in: under pagefault_disable() alone
 * a KM_R_INATOMIC_FAULT WARN (might_sleep() is silent: preempt_count is
 * 0), under preempt_disable() alone a sleep in atomic context.
 */
static void fault_disabled_copy(void **state, bool preempt)
{
	const struct km_uaccess_ops *ops = variant(state);
	bool rfc = ops == &km_uaccess_gup_kmap_rfc;
	struct km_fixture f = *km_row_fixture(state);
	unsigned char x[16];
	unsigned long a, ret;

	a = km_test_map(&f, 0, 1, RW);			/* never touched */
	if (preempt)
		km_preempt_disable(f.t);
	else
		km_pagefault_disable(f.t);
	km_task_switch(f.t);
	ret = ops->raw_copy_from_user(x, a, sizeof(x));
	if (preempt)
		km_preempt_enable(f.t);
	else
		km_pagefault_enable(f.t);
	assert_int_equal(ret, rfc ? 0 : sizeof(x));
	assert_int_equal(km_report_count(f.m, KM_R_INATOMIC_FAULT), rfc && !preempt ? 1 : 0);
	assert_int_equal(km_report_count(f.m, KM_R_SLEEP_IN_ATOMIC) > 0, rfc && preempt);
	assert_int_equal(km_follow_pte(f.mm, a, NULL, NULL), rfc ? 0 : -ENOENT);
	km_reports_clear(f.m);
}

static void test_pagefault_disabled_only(void **state) { fault_disabled_copy(state, false); }
static void test_preempt_disabled_only(void **state) { fault_disabled_copy(state, true); }

/* The raw ops with no current task: nothing copied, n, an error message. */
static void test_no_current_task(void **state)
{
	const struct km_uaccess_ops *ops = ((const struct variant_row *)*state)->ops;	/* no machine */
	unsigned char x[8] = { 0 };

	km_task_switch(NULL);
	assert_int_equal(ops->raw_copy_from_user(x, 0x10000, sizeof(x)), sizeof(x));
	assert_int_equal(ops->raw_copy_to_user(0x10000, x, sizeof(x)), sizeof(x));
	assert_non_null(strstr(km_last_error(), "no current task"));
}

/* check_copy_size(): n > INT_MAX is a WARN, returns n, touches nothing;
 * n == INT_MAX itself passes (WARN_ON_ONCE(bytes > INT_MAX), v5.7): a
 * copy_to_user of INT_MAX bytes to an unmapped address goes on to the raw
 * copy, which copies nothing, with no report. */
static void test_check_copy_size(void **state)
{
	struct km_fixture *f = km_row_fixture(state);
	const struct km_uaccess_ops *ops = variant(state);
	unsigned char dst[4] = { 9, 9, 9, 9 };
	struct km_events ev;

	assert_int_equal(km_copy_from_user(f->t, ops, dst, 0x1000, (unsigned long)INT_MAX + 1),
			 (unsigned long)INT_MAX + 1);
	assert_int_equal(dst[0], 9);
	assert_int_equal(km_report_count(f->m, KM_R_COPY_SIZE), 1);
	assert_int_equal(km_copy_to_user(f->t, ops, 0x1000, dst, (unsigned long)INT_MAX + 1),
			 (unsigned long)INT_MAX + 1);
	assert_int_equal(km_report_count(f->m, KM_R_COPY_SIZE), 2);
	km_events_get(f->m, &ev);
	assert_int_equal(ev.uaccess_to_bytes, 0);	/* stopped before the copy */
	km_reports_clear(f->m);
	assert_int_equal(km_copy_to_user(f->t, ops, 0x1000, dst, INT_MAX), INT_MAX);
	assert_int_equal(km_report_count(f->m, KM_R_COPY_SIZE), 0);
	km_events_get(f->m, &ev);
	assert_int_equal(ev.uaccess_to_bytes, INT_MAX);
	km_reports_clear(f->m);
}

/*
 * gup_kmap_fixed FIX(2): the page array lives on the stack, 64 entries; a
 * copy over more pages pins them 64 at a time. No kmalloc at all: 64 pages
 * take one gup call, 65 pages two; the data arrives whole either way.
 */
static void test_fixed_stack_batches(void **state)
{
	struct km_fixture *f = *state;
	const struct km_uaccess_ops *ops = &km_uaccess_gup_kmap_fixed;
	struct km_events ev;
	unsigned long a, P, len[] = { 64, 65 };
	unsigned char *src, *dst;

	P = km_page_size(f->m);
	a = km_test_map(f, 0, 66, RW);
	src = g_malloc(66 * P);
	dst = g_malloc(66 * P);
	for (unsigned long i = 0; i < 66 * P; i++)
		src[i] = (unsigned char)(i * 7 + 3);
	assert_int_equal(km_user_access(f->t, a, src, 66 * P, true), (long)(66 * P));
	for (size_t k = 0; k < G_N_ELEMENTS(len); k++) {
		km_events_reset(f->m);
		memset(dst, 0, 66 * P);
		assert_int_equal(km_copy_from_user(f->t, ops, dst, a, len[k] * P), 0);
		assert_memory_equal(dst, src, len[k] * P);
		km_events_get(f->m, &ev);
		assert_int_equal(ev.kmalloc_calls, 0);
		assert_int_equal(ev.gup_calls, len[k] <= 64 ? 1 : 2);
		assert_int_equal(km_copy_to_user(f->t, ops, a + 1, src, len[k] * P), 0);
		assert_int_equal(km_mm_peek(f->mm, a + 1, dst, len[k] * P), 0);
		assert_memory_equal(dst, src, len[k] * P);
		km_user_access(f->t, a, src, 66 * P, true);	/* put it back */
	}
	g_free(src);
	g_free(dst);
}

/*
 * gup_kmap_fixed FIX(3): lengths are unsigned long. A raw copy of
 * n = 2^32 + 16 (check_copy_size() would stop it in copy_from_user, so
 * the raw function is called) over 2 mapped pages followed by a hole
 * copies those 2 pages and returns exactly n - 2P: nothing truncated.
 * FIX(5): an unaligned n == 0 pins nothing and faults nothing in.
 */
static void test_fixed_long_lengths_and_zero(void **state)
{
	struct km_fixture *f = *state;
	const struct km_uaccess_ops *ops = &km_uaccess_gup_kmap_fixed;
	const unsigned long n = (1UL << 32) + 16;
	struct km_events ev;
	unsigned long a, P;
	unsigned char *src, *dst;

	P = km_page_size(f->m);
	a = km_test_map(f, 0x100000, 3, RW);
	assert_int_equal(km_munmap(f->mm, a + 2 * P, P), 0);
	src = g_malloc(2 * P);
	dst = g_malloc0(2 * P);
	for (unsigned long i = 0; i < 2 * P; i++)
		src[i] = (unsigned char)(i + 1);
	km_user_access(f->t, a, src, 2 * P, true);
	assert_int_equal(ops->raw_copy_from_user(dst, a, n), n - 2 * P);
	assert_memory_equal(dst, src, 2 * P);

	assert_int_equal(km_munmap(f->mm, a, 2 * P), 0);
	a = km_test_map(f, 0x100000, 1, RW);		/* fresh, not faulted in */
	km_events_reset(f->m);
	assert_int_equal(ops->raw_copy_from_user(dst, a + 1, 0), 0);
	assert_int_equal(ops->raw_copy_to_user(a + 1, src, 0), 0);
	km_events_get(f->m, &ev);
	assert_int_equal(ev.gup_calls, 0);
	assert_int_equal(km_follow_pte(f->mm, a, NULL, NULL), -ENOENT);
	g_free(src);
	g_free(dst);
}

/* A failed kmalloc_array() in the RFC: nothing copied, n returned. */
static void test_rfc_kmalloc_failure(void **state)
{
	struct km_fixture *f = *state;
	unsigned char x[16];
	unsigned long a;

	a = km_test_map(f, 0, 1, RW);
	km_fault_fail_kmalloc_nth(f->m, 1);
	memset(x, 0xee, sizeof(x));
	assert_int_equal(km_copy_from_user(f->t, &km_uaccess_gup_kmap_rfc, x, a, 16), 16);
	assert_int_equal(x[0], 0);	/* zero-filled by the wrapper */
}


/*
 * The variant the compatibility layer copies through: the task's, else
 * the machine's, else direct (km_task_uaccess()); a variant of one raw
 * copy is completed with direct's other operations, which
 * km_uaccess_fallbacks() names.
 */
static void test_task_and_machine_variant(void **state)
{
	struct km_fixture *f = *state;
	struct km_uaccess_ops from_only = {
		.size = KM_UACCESS_OPS_SIZE, .name = "from_only",
		.raw_copy_from_user = km_uaccess_gup_kmap_rfc.raw_copy_from_user,
	};
	const struct km_uaccess_ops *u;
	char *fb;

	assert_ptr_equal(km_task_uaccess(f->t), &km_uaccess_direct);
	assert_ptr_equal(km_task_uaccess(NULL), &km_uaccess_direct);
	assert_int_equal(km_machine_set_uaccess(f->m, &km_uaccess_with_memcpy), 0);
	u = km_task_uaccess(f->t);
	assert_string_equal(u->name, "uaccess_with_memcpy");
	assert_ptr_equal(u->clear_user, km_uaccess_with_memcpy.clear_user);
	assert_ptr_equal(u->get_user, km_uaccess_direct.get_user);
	assert_int_equal(km_task_set_uaccess(f->t, &from_only), 0);
	u = km_task_uaccess(f->t);
	assert_string_equal(u->name, "from_only");
	assert_ptr_equal(u->raw_copy_from_user, km_uaccess_gup_kmap_rfc.raw_copy_from_user);
	assert_ptr_equal(u->raw_copy_to_user, km_uaccess_direct.raw_copy_to_user);
	fb = km_uaccess_fallbacks(&from_only);
	assert_string_equal(fb, "raw_copy_to_user, clear_user, get_user, put_user, "
				"strncpy_from_user, strnlen_user");
	free(fb);
	assert_null(km_uaccess_fallbacks(&km_uaccess_direct));
	{	/* a variant of an older size has no member past its size, set or
		 * not: one whose size ends where strnlen_user begins lacks it */
		struct km_uaccess_ops older = km_uaccess_direct;

		older.size = offsetof(struct km_uaccess_ops, strnlen_user);
		fb = km_uaccess_fallbacks(&older);
		assert_string_equal(fb, "strnlen_user");
		free(fb);
	}
	/* the task's own back to none: the machine's again */
	assert_int_equal(km_task_set_uaccess(f->t, NULL), 0);
	assert_string_equal(km_task_uaccess(f->t)->name, "uaccess_with_memcpy");
	from_only.raw_copy_from_user = NULL;
	assert_int_equal(km_task_set_uaccess(f->t, &from_only), -EINVAL);
	assert_int_equal(km_task_set_uaccess(NULL, NULL), -EINVAL);
	assert_int_equal(km_machine_set_uaccess(f->m, NULL), 0);
	assert_ptr_equal(km_task_uaccess(f->t), &km_uaccess_direct);
}

/*
 * strncpy_from_user() (lib/strncpy_from_user.c, v5.7): the length below
 * count, count when no NUL came first, -EFAULT at a fault before the NUL;
 * strnlen_user() (lib/strnlen_user.c, v5.7): the length with its NUL,
 * count + 1 when longer, 0 at a fault. A string that runs into the hole
 * after its page faults.
 */
static void test_strncpy_strnlen_user(void **state)
{
	struct km_fixture *f = *state;
	unsigned long a;
	char buf[16];

	a = km_test_map(f, 0, 1, RW);
	assert_int_equal(km_copy_to_user(f->t, &km_uaccess_direct, a, "eth0", 5), 0);
	assert_int_equal(km_strncpy_from_user(f->t, NULL, buf, a, sizeof(buf)), 4);
	assert_string_equal(buf, "eth0");
	assert_int_equal(km_strncpy_from_user(f->t, NULL, buf, a, 4), 4);	/* no NUL in 4 */
	assert_int_equal(km_strncpy_from_user(f->t, NULL, buf, a, 0), 0);
	assert_int_equal(km_strnlen_user(f->t, NULL, a, 16), 5);
	assert_int_equal(km_strnlen_user(f->t, NULL, a, 3), 4);	/* count + 1 */
	assert_int_equal(km_strnlen_user(f->t, NULL, a, 0), 0);
	/* "ab" at the page's end, the hole after it */
	assert_int_equal(km_copy_to_user(f->t, &km_uaccess_direct, a + 4094, "ab", 2), 0);
	assert_int_equal(km_strncpy_from_user(f->t, NULL, buf, a + 4094, 16), -EFAULT);
	assert_int_equal(km_strncpy_from_user(f->t, NULL, buf, a + 4094, 2), 2);
	assert_int_equal(km_strnlen_user(f->t, NULL, a + 4094, 16), 0);
	assert_int_equal(km_strnlen_user(f->t, NULL, a + 4094, 2), 3);
	/* past addr_limit */
	assert_int_equal(km_strncpy_from_user(f->t, NULL, buf, km_task_size(f->m), 4), -EFAULT);
	assert_int_equal(km_strnlen_user(f->t, NULL, km_task_size(f->m), 4), 0);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}

int main(void)
{
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test_setup_teardown(test_rfc_zero_length_unaligned_faults_in,
						km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_rfc_kmalloc_failure, km_fixture_setup,
						km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_fixed_stack_batches, km_fixture_setup,
						km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_fixed_atomic_resident_byte, km_fixture_setup,
						km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_fixed_long_lengths_and_zero, km_fixture_setup,
						km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_task_and_machine_variant, km_fixture_setup,
						km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_strncpy_strnlen_user, km_fixture_setup,
						km_fixture_teardown),
	};
	GArray *rows = km_test_new_group();

	KM_TEST_ROWS(rows, test_sweep_4k, setup_4k, sweep_teardown, variants);
	KM_TEST_ROWS(rows, test_sweep_16k, setup_16k, sweep_teardown, variants);
	KM_TEST_ROWS(rows, test_sweep_64k, setup_64k, sweep_teardown, variants);
	KM_TEST_ROWS(rows, test_sweep_4k_highmem, setup_4k_highmem, sweep_teardown, variants);
	KM_TEST_ROWS(rows, test_sweep_4k_atomic, setup_4k, sweep_teardown, variants);
	KM_TEST_ROWS(rows, test_fault_into_unmapped, km_row_setup, km_fixture_teardown, variants);
	KM_TEST_ROWS(rows, test_to_user_readonly, km_row_setup, km_fixture_teardown, variants);
	KM_TEST_ROWS(rows, test_zero_length, km_row_setup, km_fixture_teardown, variants);
	KM_TEST_ROWS(rows, test_access_ok, km_row_setup, km_fixture_teardown, variants);
	KM_TEST_ROWS(rows, test_kernel_ds, km_row_setup, km_fixture_teardown, variants);
	KM_TEST_ROWS(rows, test_atomic_context, km_row_setup, km_fixture_teardown, variants);
	KM_TEST_ROWS(rows, test_atomic_context_fast_gup, setup_fast_gup, km_fixture_teardown,
		     variants);
	KM_TEST_ROWS(rows, test_check_copy_size, km_row_setup, km_fixture_teardown, variants);
	KM_TEST_ROWS(rows, test_pagefault_disabled_only, km_row_setup, km_fixture_teardown,
		     variants);
	KM_TEST_ROWS(rows, test_preempt_disabled_only, km_row_setup, km_fixture_teardown,
		     variants);
	KM_TEST_ROWS(rows, test_no_current_task, NULL, NULL, variants);
	KM_TEST_ROWS(rows, test_fixed_atomic_pte_lock_walk, setup_pte_walk, km_fixture_teardown,
		     pte_walk_rows);
	KM_TEST_CASES(tests, fixed, rows);

	return cmocka_run_group_tests_name("test_uaccess", tests, NULL, NULL);
}
