// SPDX-License-Identifier: GPL-2.0
/*
 * The strict kmap mode (km_machine_config.kmap_strict): per-slot addresses
 * with guard pages, the kernel's pop-and-check on them in both kmap eras,
 * slot overflow with and without the era's debug option, and the config's
 * size versioning that brought the option.
 * Expected values follow arch/arm/mm/highmem.c + include/linux/highmem.h
 * (v5.7) and mm/highmem.c + asm-generic/kmap_size.h (v5.11); see
 * src/mm_sim/highmem.c.
 */
#include "km_test.h"
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

/* The caught accesses below are real faults on inaccessible host pages,
 * which memcheck reports before the host delivers SIGSEGV: under valgrind
 * the tests that make them on purpose are skipped. */
static bool faults_skipped(void)
{
	return RUNNING_ON_VALGRIND;
}

#define MiB (1024UL * 1024)

/* 64 MiB, the upper half highmem */
static struct km_machine_config cfg(enum km_kmap_flavour era, enum km_kmap_strict strict,
				    bool debug)
{
	return (struct km_machine_config){ .ram_size = 64 * MiB, .lowmem_size = 32 * MiB,
					   .kmap = era, .kmap_strict = strict,
					   .kmap_debug = debug };
}

static void up(struct km_fixture *f, struct km_machine_config c)
{
	km_fixture_up(f, &c);
}

/* A row's machine: the head of each table's rows (its name first, as
 * KM_TEST_ROWS() wants), built by setup_kmap_row() with cfg(). Only for
 * rows that make no faulting access: cmocka sets its own SIGSEGV handler
 * around each setup, test and teardown call, so the strict mode's
 * handler a setup installs is gone in the test's body; a test that
 * faults on purpose builds its machine in its body. */
struct kmap_row {
	const char *name;
	enum km_kmap_flavour era;
	enum km_kmap_strict strict;
	bool debug;
};

static int setup_kmap_row(void **state)
{
	const struct kmap_row *r = *state;
	struct km_machine_config c = cfg(r->era, r->strict, r->debug);

	return km_row_setup_cfg(state, &c);
}

/* kmap_atomic() or kmap_local_page() by era */
static void *kmap(struct km_fixture *f, struct km_page *p)
{
	struct km_machine_config c;

	km_machine_get_config(f->m, &c);
	return c.kmap == KM_KMAP_LOCAL ? km_kmap_local_page(f->t, p) : km_kmap_atomic(f->t, p);
}

static void kunmap(struct km_fixture *f, void *a)
{
	struct km_machine_config c;

	km_machine_get_config(f->m, &c);
	if (c.kmap == KM_KMAP_LOCAL)
		km_kunmap_local(f->t, a);
	else
		km_kunmap_atomic(f->t, a);
}

/* Two kmaps of one page are two slots at two addresses of one frame, in
 * both eras; without strict mode the model gives both the frame's address
 * (its documented simplification). */
static void test_two_kmaps_two_addresses(void **state)
{
	for (int era = 0; era < 2; era++) {
		struct km_fixture f;
		struct km_page *p;
		char *a, *b;

		up(&f, cfg(era, KM_KMAP_STRICT, false));
		p = km_alloc_page(f.m, KM_GFP_HIGHMEM | KM_GFP_ZERO);
		a = kmap(&f, p);
		b = kmap(&f, p);
		assert_ptr_not_equal(a, b);
		strcpy(a, "one frame");
		assert_string_equal(b, "one frame");	/* aliases of one frame */
		assert_int_equal(km_kmap_slots_held(f.m, 0), 2);
		kunmap(&f, b);
		kunmap(&f, a);
		assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
		km_put_page(f.m, p);
		km_fixture_down(&f);
	}
	{
		struct km_fixture f;
		struct km_page *p;
		void *a, *b;

		up(&f, cfg(KM_KMAP_ATOMIC_PRE_5_11, KM_KMAP_STRICT_OFF, false));
		p = km_alloc_page(f.m, KM_GFP_HIGHMEM);
		a = km_kmap_atomic(f.t, p);
		b = km_kmap_atomic(f.t, p);
		assert_ptr_equal(a, b);
		km_kunmap_atomic(f.t, b);
		km_kunmap_atomic(f.t, a);
		km_put_page(f.m, p);
		km_fixture_down(&f);
	}
}

/* a = kmap(p); b = kmap(p); kunmap(a) first: only strict mode can tell the
 * slots apart. Before 5.11 CONFIG_DEBUG_HIGHMEM's BUG_ON(vaddr !=
 * __fix_to_virt(idx)) fires twice (the second unmap meets the first
 * slot's address too), without it nothing; from 5.11 the WARN_ON_ONCE()
 * of kunmap_local_indexed(), recorded each time. */
static const struct order_row {
	struct kmap_row k;
	unsigned long orders;
	enum km_report_kind kind;
} order_rows[] = {
	{ { "pre-5.11, DEBUG_HIGHMEM", KM_KMAP_ATOMIC_PRE_5_11, KM_KMAP_STRICT, true }, 2, KM_BUG },
	{ { "pre-5.11", KM_KMAP_ATOMIC_PRE_5_11, KM_KMAP_STRICT, false }, 0, KM_BUG },
	{ { "kmap_local", KM_KMAP_LOCAL, KM_KMAP_STRICT, false }, 2, KM_WARN },
	{ { "kmap_local, DEBUG_KMAP_LOCAL", KM_KMAP_LOCAL, KM_KMAP_STRICT, true }, 2, KM_WARN },
};

static void test_out_of_order_same_page(void **state)
{
	const struct order_row *r = km_row(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_page *p;
	void *a, *b;

	p = km_alloc_page(f->m, KM_GFP_HIGHMEM);
	a = kmap(f, p);
	b = kmap(f, p);
	kunmap(f, a);
	kunmap(f, b);
	assert_int_equal(km_report_count(f->m, KM_R_KMAP_ORDER), r->orders);
	if (r->orders)
		assert_int_equal(km_report_get(f->m, 0)->kind, r->kind);
	assert_int_equal(km_kmap_slots_held(f->m, 0), 0);
	km_reports_clear(f->m);
	km_put_page(f->m, p);
}

/*
 * kunmap(kaddr + PAGE_SIZE) of CPU 0's first slot, the highest fixmap
 * address. From 5.11 the address is above __fix_to_virt(FIX_KMAP_BEGIN):
 * not a slot, so nothing is popped and (no FORCE_MAP, addr >= PAGE_OFFSET)
 * nothing warns. With CONFIG_DEBUG_KMAP_LOCAL the first slot is idx 1 and
 * kaddr + PAGE_SIZE is guard slot 0, inside the range: the WARN, and the
 * top slot is cleared and popped. Before 5.11 every address >=
 * FIXADDR_START is taken for the top slot: popped, and a BUG with
 * CONFIG_DEBUG_HIGHMEM.
 */
static const struct next_page_row {
	struct kmap_row k;
	unsigned int held;
	enum km_report_code code;
	enum km_report_kind kind;
} next_page_rows[] = {
	{ { "kmap_local", KM_KMAP_LOCAL, KM_KMAP_STRICT, false }, 1, KM_R_NONE, 0 },
	{ { "kmap_local, DEBUG_KMAP_LOCAL", KM_KMAP_LOCAL, KM_KMAP_STRICT, true }, 0,
	  KM_R_KMAP_ORDER, KM_WARN },
	{ { "pre-5.11", KM_KMAP_ATOMIC_PRE_5_11, KM_KMAP_STRICT, false }, 0, KM_R_NONE, 0 },
	{ { "pre-5.11, DEBUG_HIGHMEM", KM_KMAP_ATOMIC_PRE_5_11, KM_KMAP_STRICT, true }, 0,
	  KM_R_KMAP_ORDER, KM_BUG },
};

static void test_kunmap_next_page(void **state)
{
	const struct next_page_row *r = km_row(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_page *p;
	char *a;

	p = km_alloc_page(f->m, KM_GFP_HIGHMEM);
	a = kmap(f, p);
	kunmap(f, a + km_page_size(f->m));
	assert_int_equal(km_kmap_slots_held(f->m, 0), r->held);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), r->code ? 1 : 0);
	if (r->code) {
		assert_int_equal(km_report_count(f->m, r->code), 1);
		assert_int_equal(km_report_get(f->m, 0)->kind, r->kind);
	}
	if (r->held)
		kunmap(f, a);
	assert_int_equal(km_kmap_slots_held(f->m, 0), 0);
	km_reports_clear(f->m);
	km_put_page(f->m, p);
}

/* Under FORCE_MAP (which selects CONFIG_DEBUG_KMAP_LOCAL) an unmap of an
 * address outside the kmap range is WARN_ON_ONCE(1): here the direct-map
 * address of a lowmem page; nothing is popped. */
static void test_force_map_unmap_outside_warns(void **state)
{
	struct km_fixture f;
	struct km_machine_config c;
	struct km_page *p;
	void *a;

	up(&f, cfg(KM_KMAP_LOCAL, KM_KMAP_STRICT_FORCE_MAP, false));
	km_machine_get_config(f.m, &c);
	assert_true(c.kmap_debug);	/* selected */
	p = km_alloc_page(f.m, 0);	/* lowmem: a slot all the same */
	a = km_kmap_local_page(f.t, p);
	assert_ptr_not_equal(a, km_page_address(f.m, p));
	km_kunmap_local(f.t, km_page_address(f.m, p));
	assert_int_equal(km_report_count(f.m, KM_R_KMAP_ORDER), 1);
	assert_int_equal(km_report_get(f.m, 0)->kind, KM_WARN);
	assert_int_equal(km_kmap_slots_held(f.m, 0), 1);
	km_kunmap_local(f.t, a);
	assert_int_equal(km_kmap_slots_held(f.m, 0), 0);
	km_reports_clear(f.m);
	km_put_page(f.m, p);
	km_fixture_down(&f);
}

/*
 * The class of c749d9b7ebbc ("iov_iter: fix copy_page_from_iter_atomic()
 * if KMAP_LOCAL_FORCE_MAP"): a copy through one kmap that runs past the
 * page it maps. On an all-lowmem machine (the BeagleBone default) the
 * kmap is the direct map and the copy silently writes the next frame; with
 * FORCE_MAP it stops at the guard page after the slot, which is reported
 * with the slot's address, the pfn and how far past the page it went.
 */
static void copy_past_kmapped_page(enum km_kmap_flavour era, enum km_kmap_strict strict)
{
	struct km_machine_config c = { .kmap = era, .kmap_strict = strict };
	struct km_fixture f;
	struct km_page *p, *next;
	unsigned long P;
	unsigned char *a, *src;
	char pfn[32];

	if (strict && faults_skipped())
		return;
	km_fixture_up(&f, &c);
	P = km_page_size(f.m);
	p = km_alloc_page(f.m, KM_GFP_ZERO);
	next = km_alloc_page(f.m, KM_GFP_ZERO);	/* the next frame of the bump allocator */
	assert_int_equal(km_page_to_pfn(f.m, next), km_page_to_pfn(f.m, p) + 1);
	src = g_malloc(P + 64);
	memset(src, 0xab, P + 64);
	a = kmap(&f, p);
	memcpy(a, src, P + 64);		/* 64 bytes too many */
	assert_int_equal(((unsigned char *)km_page_address(f.m, p))[P - 1], 0xab);
	if (strict) {
		const struct km_report *r;

		assert_int_equal(km_report_count(f.m, KM_R_KMAP_GUARD), 1);
		r = km_report_get(f.m, 0);
		assert_int_equal(r->kind, KM_BUG);
		snprintf(pfn, sizeof(pfn), "pfn %lu", km_page_to_pfn(f.m, p));
		assert_non_null(strstr(r->message, pfn));
		assert_non_null(strstr(r->message, "access 1 byte past"));
		/* the next frame is untouched */
		assert_int_equal(((unsigned char *)km_page_address(f.m, next))[0], 0);
	} else {
		assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
		assert_int_equal(((unsigned char *)km_page_address(f.m, next))[63], 0xab);
	}
	kunmap(&f, a);
	km_reports_clear(f.m);
	g_free(src);
	km_put_page(f.m, p);
	km_put_page(f.m, next);
	km_fixture_down(&f);
}

static void test_copy_past_kmapped_page_c749d9b7ebbc(void **state)
{
	copy_past_kmapped_page(KM_KMAP_ATOMIC_PRE_5_11, KM_KMAP_STRICT_OFF);
	copy_past_kmapped_page(KM_KMAP_ATOMIC_PRE_5_11, KM_KMAP_STRICT_FORCE_MAP);
	copy_past_kmapped_page(KM_KMAP_LOCAL, KM_KMAP_STRICT_OFF);
	copy_past_kmapped_page(KM_KMAP_LOCAL, KM_KMAP_STRICT_FORCE_MAP);
}

/* Strict mode without FORCE_MAP leaves lowmem kmaps at the direct map, as
 * the kernel does: no slot, no guard. */
static void test_strict_lowmem_is_direct_map(void **state)
{
	struct km_fixture f;
	struct km_page *p;

	up(&f, cfg(KM_KMAP_ATOMIC_PRE_5_11, KM_KMAP_STRICT, false));
	p = km_alloc_page(f.m, 0);
	assert_ptr_equal(km_kmap_atomic(f.t, p), km_page_address(f.m, p));
	assert_int_equal(km_kmap_slots_held(f.m, 0), 0);
	km_kunmap_atomic(f.t, km_page_address(f.m, p));
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	km_put_page(f.m, p);
	km_fixture_down(&f);
}

/*
 * A use after kunmap: from 5.11 (and before it with CONFIG_DEBUG_HIGHMEM)
 * kunmap clears the slot's pte, so the access is an oops; before 5.11
 * without it the pte stays and the stale address still reads the page.
 */
static void use_after_kunmap(enum km_kmap_flavour era, bool debug, bool caught)
{
	struct km_fixture f;
	struct km_page *p;
	volatile char *a;
	char c;

	if (caught && faults_skipped())
		return;
	up(&f, cfg(era, KM_KMAP_STRICT, debug));
	p = km_alloc_page(f.m, KM_GFP_HIGHMEM | KM_GFP_ZERO);
	a = kmap(&f, p);
	a[0] = 'x';
	kunmap(&f, (void *)a);
	c = a[0];
	assert_int_equal(km_report_count(f.m, KM_R_KMAP_UNMAPPED), caught ? 1 : 0);
	assert_int_equal(c, caught ? 0 : 'x');	/* a scratch page stands in */
	/* the slot works again afterwards */
	a = kmap(&f, p);
	assert_int_equal(a[0], 'x');
	kunmap(&f, (void *)a);
	km_reports_clear(f.m);
	km_put_page(f.m, p);
	km_fixture_down(&f);
}

static void test_use_after_kunmap(void **state)
{
	use_after_kunmap(KM_KMAP_LOCAL, false, true);
	use_after_kunmap(KM_KMAP_ATOMIC_PRE_5_11, true, true);
	use_after_kunmap(KM_KMAP_ATOMIC_PRE_5_11, false, false);
}

/*
 * Slot overflow before 5.11 without CONFIG_DEBUG_HIGHMEM: CPU 0's 17th
 * kmap_atomic maps fixmap index FIX_KMAP_BEGIN + 16, CPU 1's slot 0. A
 * task on CPU 1 holding that slot then reads CPU 0's page through its own
 * address -- the corruption the kernel would suffer, reported as
 * KM_R_KMAP_CLOBBER with what was overwritten. With debug: the BUG.
 */
static void overflow_into_next_cpu(bool debug)
{
	struct km_machine_config c = cfg(KM_KMAP_ATOMIC_PRE_5_11, KM_KMAP_STRICT, debug);
	struct km_fixture f;
	struct km_task *t1;
	struct km_page *p[KM_TYPE_NR + 1], *q;
	char *v[KM_TYPE_NR + 1], *w, want[64];

	c.nr_cpus = 2;
	up(&f, c);
	assert_int_equal(km_task_new(f.m, f.mm, 1, &t1), 0);
	q = km_alloc_page(f.m, KM_GFP_HIGHMEM | KM_GFP_ZERO);
	w = km_kmap_atomic(t1, q);
	strcpy(w, "cpu 1's page");
	for (int i = 0; i <= KM_TYPE_NR; i++) {
		p[i] = km_alloc_page(f.m, KM_GFP_HIGHMEM | KM_GFP_ZERO);
		v[i] = km_kmap_atomic(f.t, p[i]);
	}
	strcpy(v[KM_TYPE_NR], "cpu 0's 17th page");
	if (debug) {
		assert_int_equal(km_report_count(f.m, KM_R_KMAP_OVERFLOW), 1);
		assert_int_equal(km_report_count(f.m, KM_R_KMAP_CLOBBER), 0);
	} else {
		assert_int_equal(km_report_count(f.m, KM_R_KMAP_OVERFLOW), 0);
		assert_int_equal(km_report_count(f.m, KM_R_KMAP_CLOBBER), 1);
		snprintf(want, sizeof(want), "cpu 1's slot 0 (maps pfn %lu)", km_page_to_pfn(f.m, q));
		assert_non_null(strstr(km_report_get(f.m, 0)->message, want));
	}
	/* one fixmap pte, two CPUs' addresses: CPU 1 now sees CPU 0's page */
	assert_string_equal(w, "cpu 0's 17th page");
	for (int i = KM_TYPE_NR; i >= 0; i--)
		km_kunmap_atomic(f.t, v[i]);
	km_kunmap_atomic(t1, w);
	km_reports_clear(f.m);
	for (int i = 0; i <= KM_TYPE_NR; i++)
		km_put_page(f.m, p[i]);
	km_put_page(f.m, q);
	km_task_free(t1);
	km_fixture_down(&f);
}

static void test_overflow_into_next_cpu(void **state)
{
	overflow_into_next_cpu(false);
	overflow_into_next_cpu(true);
}

/*
 * 120 nested kmaps, then 120 kunmaps in order. Before 5.11 without
 * CONFIG_DEBUG_HIGHMEM the kernel survives this: each push past KM_TYPE_NR
 * maps a fixmap pte further down (all 120 stay above FIXADDR_START with 4
 * KiB pages) and each kunmap_atomic() of an address >= FIXADDR_START pops
 * one. From 5.11 (and with the debug option) the pushes past the last slot
 * BUG, after which the model runs on. Either way the stack ends empty, as
 * without strict mode (once, slots beyond the first 35 or 40 windows took
 * the frame's address, which kunmap took for lowmem: 85 and 103 slots
 * stayed held).
 */
static void deep_overflow(enum km_kmap_flavour era, enum km_kmap_strict strict, bool debug)
{
	enum { N = 120 };
	struct km_fixture f;
	struct km_page *p;
	void *v[N];

	up(&f, cfg(era, strict, debug));
	p = km_alloc_page(f.m, KM_GFP_HIGHMEM);
	for (int i = 0; i < N; i++)
		v[i] = kmap(&f, p);
	assert_int_equal(km_kmap_slots_held(f.m, 0), N);
	for (int i = N - 1; i >= 0; i--)
		kunmap(&f, v[i]);
	assert_int_equal(km_kmap_slots_held(f.m, 0), 0);
	assert_int_equal(km_report_count(f.m, KM_R_UNEXPECTED), 0);
	assert_int_equal(km_report_count(f.m, KM_R_KMAP_UNBALANCED), 0);
	if (strict)
		assert_int_equal(km_report_count(f.m, KM_R_KMAP_ORDER), 0);
	if (era == KM_KMAP_ATOMIC_PRE_5_11 && !debug)
		assert_int_equal(km_report_count(f.m, KM_R_KMAP_CLOBBER), N - KM_TYPE_NR);
	km_reports_clear(f.m);
	km_put_page(f.m, p);
	km_fixture_down(&f);
}

/* The windows reach FIXADDR_START: with 4 KiB pages fixmap indices 1..767
 * (0xfff00000 - 768 pages), so the 768th nested kmap_atomic() lies below
 * it: a BUG of the model, and kunmap_atomic() of that address pops
 * nothing, as the kernel's would not. */
static void test_deep_overflow_fixaddr_start(void **state)
{
	enum { N = 768 };
	struct km_fixture f;
	struct km_page *p;
	void **v = g_new(void *, N);

	up(&f, cfg(KM_KMAP_ATOMIC_PRE_5_11, KM_KMAP_STRICT, false));
	p = km_alloc_page(f.m, KM_GFP_HIGHMEM);
	for (int i = 0; i < N; i++) {
		v[i] = km_kmap_atomic(f.t, p);
		assert_int_equal(km_report_count(f.m, KM_R_UNEXPECTED), i < N - 1 ? 0 : 1);
	}
	assert_non_null(strstr(km_report_get(f.m, km_report_log_len(f.m) - 1)->message,
			       "below FIXADDR_START"));
	for (int i = N - 1; i >= 0; i--)
		km_kunmap_atomic(f.t, v[i]);
	assert_int_equal(km_kmap_slots_held(f.m, 0), 1);	/* the 768th's */
	km_kunmap_atomic(f.t, v[0]);	/* any address >= FIXADDR_START pops the top */
	assert_int_equal(km_kmap_slots_held(f.m, 0), 0);
	km_reports_clear(f.m);
	km_put_page(f.m, p);
	km_fixture_down(&f);
	g_free(v);
}

static void test_deep_overflow_ends_balanced(void **state)
{
	for (int era = 0; era < 2; era++)
		for (int debug = 0; debug < 2; debug++)
			for (int strict = 0; strict < 2; strict++)
				deep_overflow(era, strict ? KM_KMAP_STRICT : KM_KMAP_STRICT_OFF, debug);
}

/*
 * An access just below a kmapped page is an underrun of that page, not an
 * overrun of the slot below it in host memory: each slot window has a guard
 * page on either side (the first slot too). The kernel's address below a
 * slot is the next fixmap index: the next slot, or with
 * CONFIG_DEBUG_KMAP_LOCAL a guard slot.
 */
static void underrun(enum km_kmap_flavour era, bool debug, const char *below)
{
	struct km_fixture f;
	struct km_page *p, *q;
	volatile unsigned char *a, *b;
	const struct km_report *r;
	char pfn[32];
	unsigned char c;

	if (faults_skipped())
		return;
	up(&f, cfg(era, KM_KMAP_STRICT, debug));
	p = km_alloc_page(f.m, KM_GFP_HIGHMEM | KM_GFP_ZERO);
	q = km_alloc_page(f.m, KM_GFP_HIGHMEM | KM_GFP_ZERO);
	a = kmap(&f, p);		/* the first slot */
	c = a[-1];
	assert_int_equal(c, 0);
	assert_int_equal(km_report_count(f.m, KM_R_KMAP_GUARD), 1);
	r = km_report_get(f.m, 0);
	assert_non_null(strstr(r->message, "access 1 byte before the kmapped page"));
	snprintf(pfn, sizeof(pfn), "pfn %lu", km_page_to_pfn(f.m, p));
	assert_non_null(strstr(r->message, pfn));
	assert_non_null(strstr(r->message, below));
	b = kmap(&f, q);		/* the second: its underrun is its own */
	b[-16] = 1;
	assert_int_equal(km_report_count(f.m, KM_R_KMAP_GUARD), 2);
	r = km_report_get(f.m, 1);
	assert_non_null(strstr(r->message, "access 16 bytes before"));
	snprintf(pfn, sizeof(pfn), "pfn %lu", km_page_to_pfn(f.m, q));
	assert_non_null(strstr(r->message, pfn));
	a[km_page_size(f.m)] = 1;	/* and the first's overrun */
	r = km_report_get(f.m, 2);
	assert_non_null(strstr(r->message, "access 1 byte past"));
	snprintf(pfn, sizeof(pfn), "pfn %lu", km_page_to_pfn(f.m, p));
	assert_non_null(strstr(r->message, pfn));
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 3);
	kunmap(&f, (void *)b);
	kunmap(&f, (void *)a);
	assert_int_equal(km_kmap_slots_held(f.m, 0), 0);
	km_reports_clear(f.m);
	km_put_page(f.m, p);
	km_put_page(f.m, q);
	km_fixture_down(&f);
}

static void test_underrun_is_underrun(void **state)
{
	underrun(KM_KMAP_ATOMIC_PRE_5_11, false, "cpu 0's slot 1");
	underrun(KM_KMAP_LOCAL, false, "kmap_local slot 1 of cpu 0");
	underrun(KM_KMAP_LOCAL, true, "a guard slot of CONFIG_DEBUG_KMAP_LOCAL");
}

/*
 * The SIGSEGV handler looks for the machine of a fault through the
 * thread's current task and the last strict machine that kmapped on the
 * thread. Here that machine was handed to another thread and destroyed
 * there: the handler must not look at it (once it read the freed machine:
 * ASan's heap-use-after-free, which fails the child). The fault, in a
 * window of a machine this thread does not drive, goes on to the previous
 * handler: the child's own, which jumps back. In a child process, so that
 * the handler chain of the test process stays as it was.
 */
static sigjmp_buf segv_jump;

static void segv_catch(int sig, siginfo_t *si, void *uc)
{
	siglongjmp(segv_jump, 1);
}

static gpointer destroy_machine(gpointer m)
{
	return GINT_TO_POINTER(km_machine_destroy(m));
}

struct kmap_there {
	struct km_task *t;
	struct km_page *p;
	void *addr;
};

static gpointer kmap_on_thread(gpointer arg)
{
	struct kmap_there *k = arg;

	k->addr = km_kmap_atomic(k->t, k->p);
	return NULL;
}

/* the child's part: 0 when all went as it should, else the failed step */
static int stale_machine_child(void)
{
	struct km_machine_config c = cfg(KM_KMAP_ATOMIC_PRE_5_11, KM_KMAP_STRICT, false);
	struct sigaction sa = { .sa_sigaction = segv_catch, .sa_flags = SA_SIGINFO };
	struct km_machine *m1, *m2;
	struct km_task *t1;
	struct km_mm *mm;
	struct km_page *p;
	struct kmap_there k;
	void *a;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL))
		return 1;
	/* m1: this thread's last strict kmap; then another thread destroys it */
	if (km_machine_new(&c, &m1) || km_mm_new(m1, &mm) || km_task_new(m1, mm, 0, &t1))
		return 2;
	km_mm_put(mm);
	p = km_alloc_page(m1, KM_GFP_HIGHMEM);
	a = km_kmap_atomic(t1, p);
	km_kunmap_atomic(t1, a);
	km_put_page(m1, p);
	km_task_free(t1);
	if (g_thread_join(g_thread_new("destroy", destroy_machine, m1)))
		return 3;
	/* m2, its kmap made on a thread of its own; this thread touches the
	 * guard after it with no current task */
	if (km_machine_new(&c, &m2) || km_mm_new(m2, &mm) || km_task_new(m2, mm, 0, &k.t))
		return 4;
	km_mm_put(mm);
	k.p = km_alloc_page(m2, KM_GFP_HIGHMEM);
	g_thread_join(g_thread_new("kmap", kmap_on_thread, &k));
	km_task_switch(NULL);
	if (!sigsetjmp(segv_jump, 1)) {
		((volatile char *)k.addr)[km_page_size(m2)] = 1;
		return 5;	/* the guard did not fault */
	}
	if (km_report_count(m2, KM_R_NONE))
		return 6;	/* not this thread's machine: not caught */
	km_kunmap_atomic(k.t, k.addr);
	km_put_page(m2, k.p);
	km_task_free(k.t);
	return km_machine_destroy(m2) ? 7 : 0;
}

static void test_handler_after_machine_destroyed_elsewhere(void **state)
{
	int status;
	pid_t pid;

	if (faults_skipped())
		return;
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(stale_machine_child());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* 5.11 with CONFIG_DEBUG_KMAP_LOCAL: KM_INCR 2 and KM_MAX_IDX 33, so 16
 * maps nest and the 17th is the BUG; without it the 16th already is. */
static void test_kmap_local_debug_depth(void **state)
{
	for (int debug = 0; debug < 2; debug++) {
		struct km_fixture f;
		struct km_page *p;
		void *v[KM_TYPE_NR + 1];
		int fit = debug ? KM_TYPE_NR : KM_TYPE_NR - 1;

		up(&f, cfg(KM_KMAP_LOCAL, KM_KMAP_STRICT, debug));
		p = km_alloc_page(f.m, KM_GFP_HIGHMEM);
		for (int i = 0; i <= fit; i++) {
			v[i] = km_kmap_local_page(f.t, p);
			assert_int_equal(km_report_count(f.m, KM_R_KMAP_OVERFLOW), i < fit ? 0 : 1);
		}
		for (int i = fit; i >= 0; i--)
			km_kunmap_local(f.t, v[i]);
		assert_int_equal(km_kmap_slots_held(f.m, 0), 0);
		assert_int_equal(km_report_count(f.m, KM_R_NONE), 1);
		km_reports_clear(f.m);
		km_put_page(f.m, p);
		km_fixture_down(&f);
	}
}

/* The copies of every built-in uaccess variant stay inside the pages they
 * kmap: no guard is hit on a FORCE_MAP machine, and the bytes arrive. */
static void test_variants_inside_their_kmaps(void **state)
{
	struct km_machine_config c = { .kmap_strict = KM_KMAP_STRICT_FORCE_MAP };
	struct km_registry *reg = km_test_registry();
	const struct km_uaccess_ops *const *ops = km_registry_uaccess(reg);
	struct km_fixture f;
	unsigned long a, P;
	unsigned char in[9000], out[9000];

	km_fixture_up(&f, &c);
	P = km_page_size(f.m);
	a = km_test_map(&f, 0, 4, KM_PROT_READ | KM_PROT_WRITE);
	for (unsigned int i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(i * 7);
	for (int v = 0; ops[v]; v++) {
		for (unsigned long off = 0; off < P; off += P / 4 - 1) {
			unsigned long n = sizeof(in) - off;

			memset(out, 0, sizeof(out));
			assert_int_equal(km_copy_to_user(f.t, ops[v], a + off, in, n), 0);
			assert_int_equal(km_copy_from_user(f.t, ops[v], out, a + off, n), 0);
			assert_memory_equal(in, out, n);
		}
	}
	assert_int_equal(km_report_count(f.m, KM_R_KMAP_GUARD), 0);
	assert_int_equal(km_report_count(f.m, KM_R_KMAP_UNMAPPED), 0);
	km_fixture_down(&f);
	km_registry_free(reg);
}

static const struct km_value *cell(const struct km_table *t, size_t r, const char *col)
{
	return km_table_value(t, r, (size_t)km_table_column_index(t, col));
}

/* The seed's dd (kmodel/scenario.h) through every built-in variant, its
 * kmaps in slots with guard pages (force-map on the BeagleBone, where all
 * is lowmem; highmem slots on the Cortex-A15): the rows say their mode and
 * the strict machines report exactly what the plain ones do -- no copy of
 * the read or write path leaves the page it kmaps -- and none of the
 * writes through a slot is missed: the RFC's copy_to_user() writes dd's
 * buffer through a kmap_atomic() slot, an alias of the frame in strict
 * mode, and puts the pages clean, as many pin_not_dirtied reports (all
 * its pages: the checker is on in dd's machines) as on the plain machine. */
static void test_dd_strict_adds_no_reports(void **state)
{
	const struct km_dd_machine *bbw = km_dd_machine_find("bbw"), *a15 = km_dd_machine_find("a15");
	const struct km_uaccess_ops *const *ops = km_uaccess_variants();
	unsigned long bs = 6000;	/* blocks straddle pages */
	struct km_dd_opts o = { .block_sizes = &bs, .nblock_sizes = 1, .total_bytes = 1 << 20,
				.file_bytes = 1 << 20, .repeat = 1 };
	struct km_dd_case cases[16];
	struct km_table *t[2];
	size_t n = 0;

	for (int v = 0; ops[v] && n + 2 <= G_N_ELEMENTS(cases); v++) {
		cases[n++] = (struct km_dd_case){ ops[v], bbw, KM_KMAP_ATOMIC_PRE_5_11 };
		cases[n++] = (struct km_dd_case){ ops[v], a15, KM_KMAP_LOCAL };
	}
	assert_int_equal(km_dd_run(&o, cases, n, &t[0]), 0);
	o.kmap_strict = KM_KMAP_STRICT_FORCE_MAP;
	assert_int_equal(km_dd_run(&o, cases, n, &t[1]), 0);
	assert_string_equal(cell(t[1], 0, "kmap_strict")->s, "off");	/* the baseline */
	for (size_t r = 1; r <= n; r++) {
		assert_string_equal(cell(t[0], r, "kmap_strict")->s, "off");
		assert_string_equal(cell(t[1], r, "kmap_strict")->s, "force-map");
		assert_true(cell(t[1], r, "reports_per_mib")->d == cell(t[0], r, "reports_per_mib")->d);
		assert_int_equal(cell(t[1], r, "reports_pin_not_dirtied")->i,
				 cell(t[0], r, "reports_pin_not_dirtied")->i);
		if (!strcmp(cell(t[0], r, "variant")->s, km_uaccess_gup_kmap_rfc.name))
			assert_true(cell(t[0], r, "reports_pin_not_dirtied")->i > 0);
	}
	km_table_free(t[0]);
	km_table_free(t[1]);
}

static void test_config(void **state)
{
	struct km_machine *m;
	struct km_machine_config c = { .kmap_strict = 3 };

	assert_int_equal(km_machine_new(&c, &m), -EINVAL);
	assert_non_null(strstr(km_last_error(), "kmap_strict"));
}

/* A program built against the first config (no kmap_strict) passes its
 * size: members past it take their defaults, and get_config writes no
 * more than it asked for. */
static void test_config_size_versioning(void **state)
{
	struct km_machine_config c = { .kmap_strict = KM_KMAP_STRICT_FORCE_MAP }, got;
	size_t v1 = offsetof(struct km_machine_config, kmap_strict);
	struct km_machine *m;

	assert_int_equal(km_machine_new_sized(&c, v1, &m), 0);
	memset(&got, 0x5a, sizeof(got));
	km_machine_get_config_sized(m, &got, v1);
	assert_int_equal(got.page_size, 4096);
	assert_int_equal((int)got.kmap_strict, 0x5a5a5a5a);	/* not written */
	km_machine_get_config(m, &got);
	assert_int_equal(got.kmap_strict, KM_KMAP_STRICT_OFF);
	assert_int_equal(km_machine_destroy(m), 0);
}

int main(void)
{
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_two_kmaps_two_addresses),
		cmocka_unit_test(test_force_map_unmap_outside_warns),
		cmocka_unit_test(test_copy_past_kmapped_page_c749d9b7ebbc),
		cmocka_unit_test(test_strict_lowmem_is_direct_map),
		cmocka_unit_test(test_use_after_kunmap),
		cmocka_unit_test(test_overflow_into_next_cpu),
		cmocka_unit_test(test_kmap_local_debug_depth),
		cmocka_unit_test(test_deep_overflow_ends_balanced),
		cmocka_unit_test(test_deep_overflow_fixaddr_start),
		cmocka_unit_test(test_underrun_is_underrun),
		cmocka_unit_test(test_handler_after_machine_destroyed_elsewhere),
		cmocka_unit_test(test_variants_inside_their_kmaps),
		cmocka_unit_test(test_dd_strict_adds_no_reports),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_config_size_versioning),
	};
	GArray *rows = km_test_new_group();

	KM_TEST_ROWS(rows, test_out_of_order_same_page, setup_kmap_row, km_fixture_teardown,
		     order_rows);
	KM_TEST_ROWS(rows, test_kunmap_next_page, setup_kmap_row, km_fixture_teardown,
		     next_page_rows);
	KM_TEST_CASES(tests, fixed, rows);

	return cmocka_run_group_tests_name("test_kmap_strict", tests, NULL, NULL);
}
