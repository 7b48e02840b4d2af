// SPDX-License-Identifier: GPL-2.0
/* km_machine: configuration, lazy frames, reports, kmalloc, fault
 * injection, teardown checks, independent machines in parallel threads. */
#include "km_test.h"
#include <errno.h>
#include <glib.h>
#include <stdint.h>
#include <string.h>

#define MiB (1024ULL * 1024)

static void expect_einval(struct km_machine_config c, const char *field)
{
	struct km_machine *m = (void *)1;

	assert_int_equal(km_machine_new(&c, &m), -EINVAL);
	assert_null(m);
	if (!strstr(km_last_error(), field))
		fail_msg("error \"%s\" does not name field %s", km_last_error(), field);
}

static void test_config_rejects_each_bad_field(void **state)
{
	expect_einval((struct km_machine_config){ .page_size = 8192 }, "page_size");
	expect_einval((struct km_machine_config){ .page_size = 4095 }, "page_size");
	expect_einval((struct km_machine_config){ .vmsplit = 7 }, "vmsplit");
	expect_einval((struct km_machine_config){ .kmap = 3 }, "kmap");
	expect_einval((struct km_machine_config){ .report_policy = 9 }, "report_policy");
	expect_einval((struct km_machine_config){ .ram_size = 512 * 1024 }, "ram_size");
	expect_einval((struct km_machine_config){ .ram_size = 5ULL << 30 }, "ram_size");
	expect_einval((struct km_machine_config){ .page_size = 65536, .ram_size = MiB + 4096 },
		      "ram_size");
	expect_einval((struct km_machine_config){ .ram_size = 64 * MiB, .lowmem_size = 65 * MiB },
		      "lowmem_size");
	expect_einval((struct km_machine_config){ .lowmem_size = 512 * 1024 }, "lowmem_size");
	/* 3G/1G: arm_lowmem_limit is 0xf0000000 - 0xc0000000 = 768 MiB */
	expect_einval((struct km_machine_config){ .ram_size = 1ULL << 30,
						  .lowmem_size = 769 * MiB }, "lowmem_size");
	expect_einval((struct km_machine_config){ .lowmem_size = 2 * MiB + 4096, .page_size = 16384 },
		      "lowmem_size");
	expect_einval((struct km_machine_config){ .nr_cpus = 33 }, "nr_cpus");
	expect_einval((struct km_machine_config){ .l1_cache_bytes = 48 }, "l1_cache_bytes");
	expect_einval((struct km_machine_config){ .l1_cache_bytes = 512 }, "l1_cache_bytes");
	expect_einval((struct km_machine_config){ .kmalloc_min_size = 4 }, "kmalloc_min_size");
	expect_einval((struct km_machine_config){ .kmalloc_min_size = 24 }, "kmalloc_min_size");
	assert_int_equal(km_machine_new(NULL, NULL), -EINVAL);
}

static void test_config_defaults(void **state)
{
	struct km_machine_config c;
	struct km_machine *m;

	assert_int_equal(km_machine_new(NULL, &m), 0);
	km_machine_get_config(m, &c);
	assert_int_equal(c.page_size, 4096);
	assert_int_equal(c.ram_size, 256 * MiB);
	assert_int_equal(c.lowmem_size, 256 * MiB);	/* min(RAM, 768 MiB) */
	assert_int_equal(c.nr_cpus, 1);
	assert_int_equal(c.l1_cache_bytes, 64);
	assert_int_equal(c.kmalloc_min_size, 64);
	assert_int_equal(km_task_size(m), 0xbf000000UL);	/* PAGE_OFFSET - 16 MiB */
	assert_int_equal(km_nr_pages(m), 256 * MiB / 4096);
	assert_int_equal(km_machine_destroy(m), 0);

	/* 1 GiB on 3G/1G: 768 MiB lowmem, the rest highmem */
	assert_int_equal(km_machine_new(&(struct km_machine_config){ .ram_size = 1ULL << 30 },
					&m), 0);
	assert_int_equal(km_nr_lowmem_pages(m), 768 * MiB / 4096);
	assert_int_equal(km_machine_destroy(m), 0);

	assert_int_equal(km_machine_new(&(struct km_machine_config){ .vmsplit = KM_VMSPLIT_2G,
								      .page_size = 65536 }, &m), 0);
	assert_int_equal(km_task_size(m), 0x7f000000UL);
	assert_int_equal(km_page_shift(m), 16);
	assert_int_equal(km_machine_destroy(m), 0);
}

/* A 1 GiB machine that touches 16 MiB costs the host about 16 MiB. */
/* km_machine_destroy()'s teardown warnings, kept */
static void keep_teardown(const gchar *domain, GLogLevelFlags level, const gchar *message,
			  gpointer lines)
{
	(void)domain;
	(void)level;
	g_ptr_array_add(lines, g_strdup(message));
}

/* @nr leaked kmalloc objects: the teardown logs the first 8 one by one,
 * then "... and N more", even when the run filled the report log before
 * (2049 warnings that stopped at the log's end unsaid; a
 * full log showed none). 8 leaks are all logged with no "more" line, 9
 * are "... and 1 more" (mutants teardown-shown, teardown-more: the
 * boundary, which 20 alone does not see). */
static void teardown_leaks(int nr, bool log_full)
{
	GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
	struct km_fixture f;
	guint id, shown = MIN(nr, 8);

	km_fixture_up(&f, NULL);
	for (int i = 0; i < nr; i++)
		assert_non_null(km_kmalloc(f.t, 64, KM_GFP_KERNEL));
	for (int i = 0; log_full && i < 2000; i++)
		km_report(f.m, KM_WARN, KM_R_WARN_ON, "filler %d", i);
	assert_int_equal(km_report_log_len(f.m), log_full ? 1024 : 0);
	km_task_switch(NULL);
	km_task_free(f.t);
	id = g_log_set_handler("kmodel", G_LOG_LEVEL_WARNING, keep_teardown, lines);
	assert_int_equal(km_machine_destroy(f.m), nr);
	g_log_remove_handler("kmodel", id);
	assert_int_equal(lines->len, shown + (nr > 8));
	for (guint i = 0; i < shown; i++)
		assert_true(g_str_has_prefix(g_ptr_array_index(lines, i), "kmodel teardown: leak_kmalloc: "));
	if (nr > 8) {
		gchar *more = g_strdup_printf("kmodel teardown: ... and %d more (%d teardown "
					      "problems in all)", nr - 8, nr);

		assert_string_equal(g_ptr_array_index(lines, 8), more);
		g_free(more);
	}
	g_ptr_array_free(lines, TRUE);
}

static void test_teardown_says_how_many_more(void **state)
{
	teardown_leaks(20, false);
	teardown_leaks(20, true);
	teardown_leaks(8, false);
	teardown_leaks(9, true);
}

static void test_frames_are_lazy(void **state)
{
	struct km_fixture f;
	unsigned long a, len = 16 * MiB;
	unsigned char *buf = g_malloc(len);

	km_fixture_up(&f, &(struct km_machine_config){ .ram_size = 1ULL << 30 });
	assert_true(km_ram_resident_bytes(f.m) <= 64 * 1024);	/* the zero page */
	a = km_test_map(&f, 0, len / 4096, KM_PROT_READ | KM_PROT_WRITE);
	memset(buf, 0x5a, len);
	assert_int_equal(km_user_access(f.t, a, buf, len, true), (long)len);
	assert_true(km_ram_resident_bytes(f.m) >= len);
	assert_true(km_ram_resident_bytes(f.m) <= len + 1 * MiB);
	g_free(buf);
	km_fixture_down(&f);
}

/*
 * The model tells a user address from a kernel one by value: below
 * TASK_SIZE, a pointer into RAM or a strict kmap window is a kernel one.
 * So no frame's host bytes, no kmap window and no bad-page scratch page
 * may lie below TASK_SIZE, however low the host maps (valgrind maps its
 * client's memory from low addresses up: there, three machines' RAM
 * reached dd's buffer and a memcpy() to the buffer landed in RAM). 70
 * machines alive at once, lowmem and highmem each, strict kmap with forced
 * slots on every other one: more than a hundred host mappings. Natively a
 * 64-bit host maps high anyway; tests/valgrind_cli.sh runs this
 * executable under valgrind, where the test has teeth.
 */
#define N_ALIVE 70
static void test_kernel_memory_above_task_size(void **state)
{
	struct km_fixture *f = g_new0(struct km_fixture, N_ALIVE);

	(void)state;
	if (UINTPTR_MAX <= 0xffffffffu)
		skip();		/* a 32-bit host has no room above it */
	for (int i = 0; i < N_ALIVE; i++) {
		struct km_machine_config c = { .ram_size = 16 * MiB, .lowmem_size = 8 * MiB,
					       .kmap_strict = i % 2 ? KM_KMAP_STRICT_FORCE_MAP
								    : KM_KMAP_STRICT_OFF };

		km_fixture_up(&f[i], &c);
	}
	for (int i = 0; i < N_ALIVE; i++) {
		uintptr_t ts = km_machine_task_size(f[i].m);

		km_task_switch(f[i].t);
		for (int hi = 0; hi < 2; hi++) {
			struct km_page *p = km_alloc_page(f[i].m, hi ? KM_GFP_HIGHMEM : KM_GFP_KERNEL);
			void *k;

			assert_non_null(p);
			if ((uintptr_t)km_page_host(f[i].m, p) < ts)
				fail_msg("machine %d: a %s frame at %p, below TASK_SIZE", i,
					 hi ? "highmem" : "lowmem", km_page_host(f[i].m, p));
			k = km_kmap_atomic(f[i].t, p);
			if ((uintptr_t)k < ts)
				fail_msg("machine %d: a kmap at %p, below TASK_SIZE", i, k);
			km_kunmap_atomic(f[i].t, k);
			km_put_page(f[i].m, p);
		}
		/* page_address(NULL): a BUG, and the access goes to the scratch page */
		if ((uintptr_t)km_page_address(f[i].m, NULL) < ts)
			fail_msg("machine %d: the bad-page scratch page below TASK_SIZE", i);
		assert_int_equal(km_report_count(f[i].m, KM_R_BAD_PAGE), 1);
	}
	for (int i = N_ALIVE - 1; i >= 0; i--) {
		km_task_switch(f[i].t);
		km_fixture_down(&f[i]);
	}
	g_free(f);
}

static void test_kmalloc_buckets(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_machine *m8;
	/* include/linux/slab.h kmalloc_index(), KMALLOC_MIN_SIZE 64 (ARMv7):
	 * no kmalloc-96 (needs MIN <= 32), kmalloc-192 kept (MIN <= 64);
	 * caches up to 2 pages, then page-order rounding */
	static const size_t in64[][2] = { { 1, 64 }, { 64, 64 }, { 65, 128 }, { 96, 128 },
					  { 128, 128 }, { 129, 192 }, { 192, 192 },
					  { 193, 256 }, { 4096, 4096 }, { 8192, 8192 },
					  { 8193, 16384 }, { 20000, 32768 } };
	static const size_t in8[][2] = { { 1, 8 }, { 9, 16 }, { 33, 64 }, { 65, 96 },
					 { 96, 96 }, { 97, 128 }, { 129, 192 } };

	for (size_t i = 0; i < G_N_ELEMENTS(in64); i++) {
		void *p = km_kmalloc(f.t, in64[i][0], KM_GFP_KERNEL);

		assert_int_equal(km_kmalloc_size_roundup(f.m, in64[i][0]), in64[i][1]);
		assert_non_null(p);
		assert_int_equal(km_ksize(f.m, p), in64[i][1]);
		km_kfree(f.t, p);
	}
	assert_int_equal(km_machine_new(&(struct km_machine_config){ .kmalloc_min_size = 8 },
					&m8), 0);
	for (size_t i = 0; i < G_N_ELEMENTS(in8); i++)
		assert_int_equal(km_kmalloc_size_roundup(m8, in8[i][0]), in8[i][1]);
	assert_int_equal(km_machine_destroy(m8), 0);

	/* kmalloc(0) is ZERO_SIZE_PTR, which kfree accepts */
	assert_ptr_equal(km_kmalloc(f.t, 0, KM_GFP_KERNEL), (void *)16);
	km_kfree(f.t, (void *)16);
	km_kfree(f.t, NULL);
	/* KMALLOC_MAX_SIZE: 1024 pages (1 << (MAX_ORDER - 1 + PAGE_SHIFT));
	 * one byte more is order 11 >= MAX_ORDER: __alloc_pages_nodemask()
	 * WARN_ON_ONCE()s and returns NULL (mm/page_alloc.c, v5.7) */
	assert_int_equal(km_kmalloc_size_roundup(f.m, 4096 * 1024), 4096 * 1024);
	assert_null(km_kmalloc(f.t, 4096 * 1024 + 1, KM_GFP_KERNEL));
	assert_int_equal(km_report_count(f.m, KM_R_ALLOC_TOO_LARGE), 1);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 1);
	km_reports_clear(f.m);
}

/* the smallest kmalloc cache of @size > 0 bytes with KMALLOC_MIN_SIZE @min,
 * below the page-order sizes: the caches of create_kmalloc_caches()
 * (mm/slab_common.c, v5.7) are kmalloc-2^i from KMALLOC_MIN_SIZE up, with
 * kmalloc-96 when KMALLOC_MIN_SIZE <= 32 and kmalloc-192 when it is <= 64 */
static size_t kmalloc_cache_of(size_t min, size_t size)
{
	size_t best = SIZE_MAX;

	for (size_t c = min; c <= 8192; c *= 2)
		best = c >= size && c < best ? c : best;
	if (min <= 32 && 96 >= size && 96 < best)
		best = 96;
	if (min <= 64 && 192 >= size && 192 < best)
		best = 192;
	return best;
}

/*
 * Every size up to past the 4 KiB of slab.c's size table (kmalloc looks
 * small sizes up there, made at boot from the kernel's rounding), with each
 * KMALLOC_MIN_SIZE: the object's bucket (ksize), the bytes counted and the
 * size class of the kmalloc and of its kfree ([i]: 2^(i-1) < bucket <= 2^i).
 */
static void test_kmalloc_every_small_size(void **state)
{
	for (size_t min = 8; min <= 256; min *= 2) {
		struct km_machine *m;
		struct km_task *t;

		assert_int_equal(km_machine_new(&(struct km_machine_config){
						.kmalloc_min_size = (unsigned int)min }, &m), 0);
		assert_int_equal(km_task_new(m, NULL, 0, &t), 0);
		for (size_t size = 1; size <= 4096 + 520; size++) {
			size_t want = kmalloc_cache_of(min, size);
			unsigned int cls = 0;
			struct km_events a, b, c;
			void *p;

			while (((size_t)1 << cls) < want)
				cls++;
			km_events_get(m, &a);
			p = km_kmalloc(t, size, KM_GFP_ATOMIC);
			km_events_get(m, &b);
			assert_non_null(p);
			if (km_ksize(m, p) != want)
				fail_msg("min %zu: kmalloc(%zu) has ksize %zu, want %zu", min, size,
					 km_ksize(m, p), want);
			assert_int_equal(b.kmalloc_bytes - a.kmalloc_bytes, want);
			assert_int_equal(b.kmalloc_arm_bytes - a.kmalloc_arm_bytes, want);
			assert_int_equal(b.kmalloc_class[cls] - a.kmalloc_class[cls], 1);
			km_kfree(t, p);
			km_events_get(m, &c);
			assert_int_equal(c.kfree_bytes - b.kfree_bytes, want);
			assert_int_equal(c.kfree_class[cls] - b.kfree_class[cls], 1);
		}
		km_task_free(t);
		assert_int_equal(km_machine_destroy(m), 0);
	}
}

/*
 * km_kmalloc_size_roundup() returns for every size: the page-order
 * doubling used to overflow to 0 and loop forever above 2^63. The largest
 * power of two, 2^63, still fits; above it the result saturates at
 * SIZE_MAX, as kmalloc_size_roundup() (mm/slab_common.c, v6.1) returns
 * SIZE_MAX for SIZE_MAX.
 */
static void test_kmalloc_size_roundup_saturates(void **state)
{
	struct km_machine *m;
	const size_t top = (size_t)1 << 63;

	assert_int_equal(km_machine_new(NULL, &m), 0);
	assert_int_equal(km_kmalloc_size_roundup(m, top - 1), top);
	assert_int_equal(km_kmalloc_size_roundup(m, top), top);
	assert_int_equal(km_kmalloc_size_roundup(m, top + 1), SIZE_MAX);
	assert_int_equal(km_kmalloc_size_roundup(m, SIZE_MAX), SIZE_MAX);
	assert_int_equal(km_kmalloc_size_roundup(NULL, 100), 0);
	assert_int_equal(km_machine_destroy(m), 0);
}

/*
 * kmalloc(0) in v5.7 SLUB: kmalloc_slab() returns ZERO_SIZE_PTR before
 * slab_alloc()'s hooks, so neither might_sleep_if() (no sleep-in-atomic
 * report, as the RFC's aligned n == 0 copy under kmap_atomic used to
 * raise) nor should_failslab() (the armed failure is not consumed) runs.
 * An oversized kmalloc fails before them too.
 */
static void test_kmalloc_zero_before_hooks(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	void *p;

	km_fault_fail_kmalloc_nth(f.m, 1);
	km_preempt_disable(f.t);
	assert_ptr_equal(km_kmalloc(f.t, 0, KM_GFP_KERNEL), (void *)16);
	assert_null(km_kmalloc(f.t, (4096 << 10) + 1, KM_GFP_KERNEL));
	assert_int_equal(km_report_count(f.m, KM_R_SLEEP_IN_ATOMIC), 0);
	km_preempt_enable(f.t);
	assert_null(km_kmalloc(f.t, 8, KM_GFP_KERNEL));		/* still armed: fails now */
	p = km_kmalloc(f.t, 8, KM_GFP_KERNEL);
	assert_non_null(p);
	km_kfree(f.t, p);
	/* the RFC's aligned n == 0 copy in atomic context: kmalloc_array(0)
	 * is ZERO_SIZE_PTR, gup of 0 pages, nothing copied, no report */
	{
		unsigned long a = km_test_map(&f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
		unsigned char x;

		km_preempt_disable(f.t);
		km_pagefault_disable(f.t);
		assert_int_equal(km_uaccess_gup_kmap_rfc.raw_copy_from_user(&x, a, 0), 0);
		km_pagefault_enable(f.t);
		km_preempt_enable(f.t);
	}
	assert_int_equal(km_report_count(f.m, KM_R_SLEEP_IN_ATOMIC), 0);
	km_reports_clear(f.m);
}

/*
 * __GFP_ZERO zeroes the whole object (slab_alloc() -> memset(), v5.7),
 * also one that comes back from the free list dirty; without it the
 * object keeps what was there. And alloc_page(__GFP_ZERO) zeroes a reused
 * frame (clear_highpage()).
 */
static void test_gfp_zero(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	unsigned char *p, *q;
	struct km_page *pg;

	p = km_kmalloc(f.t, 100, KM_GFP_KERNEL);
	memset(p, 0xaa, 128);
	km_kfree(f.t, p);
	q = km_kmalloc(f.t, 100, KM_GFP_KERNEL | KM_GFP_ZERO);
	assert_ptr_equal(q, p);		/* the free list gives it back */
	for (int i = 0; i < 128; i++)
		assert_int_equal(q[i], 0);
	memset(q, 0x55, 128);
	km_kfree(f.t, q);
	q = km_kmalloc(f.t, 100, KM_GFP_KERNEL);
	assert_ptr_equal(q, p);
	assert_int_equal(q[0], 0x55);	/* no zeroing without __GFP_ZERO */
	km_kfree(f.t, q);
	pg = km_alloc_page(f.m, 0);
	memset(km_page_address(f.m, pg), 0xaa, 4096);
	km_put_page(f.m, pg);
	pg = km_alloc_page(f.m, KM_GFP_ZERO);	/* last freed, first reused */
	for (int i = 0; i < 4096; i++)
		assert_int_equal(((unsigned char *)km_page_address(f.m, pg))[i], 0);
	km_put_page(f.m, pg);
}

void *kernel_kmalloc_array(size_t n, size_t size);
void kernel_kfree(const void *p);

/* kmalloc_array() of the compatibility layer: n * size overflowing is NULL
 * before any allocation (check_mul_overflow(), include/linux/slab.h,
 * v5.7); a product that fits is kmalloc(n * size). */
static void test_kmalloc_array_overflow(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_events ev;
	void *p;

	assert_null(kernel_kmalloc_array(SIZE_MAX / 2 + 1, 2));
	assert_null(kernel_kmalloc_array(2, SIZE_MAX / 2 + 1));
	km_events_get(f.m, &ev);
	assert_int_equal(ev.kmalloc_calls, 0);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	p = kernel_kmalloc_array(SIZE_MAX / 2, 0);	/* 0 bytes: ZERO_SIZE_PTR */
	assert_ptr_equal(p, (void *)16);
	p = kernel_kmalloc_array(3, 40);
	assert_int_equal(km_ksize(f.m, p), 128);
	kernel_kfree(p);
}

#if defined(__SANITIZE_ADDRESS__)
#define KM_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KM_TEST_ASAN 1
#endif
#endif
#ifdef KM_TEST_ASAN
#include <sanitizer/asan_interface.h>
#endif

/* Under ASan (GCC's or clang's: the asan and asan-clang presets) a freed
 * kmalloc object is poisoned, so a use after kfree() is caught; a live one
 * is not. slab.c used to test only GCC's __SANITIZE_ADDRESS__, and under
 * clang nothing was poisoned. Skipped without ASan. */
static void test_kfree_poisons_under_asan(void **state)
{
#ifdef KM_TEST_ASAN
	struct km_fixture f;
	unsigned char *p;

	km_fixture_up(&f, NULL);
	p = km_kmalloc(f.t, 100, KM_GFP_KERNEL);
	assert_false(__asan_address_is_poisoned(p));
	assert_false(__asan_address_is_poisoned(p + 127));
	km_kfree(f.t, p);
	assert_true(__asan_address_is_poisoned(p));
	assert_true(__asan_address_is_poisoned(p + 127));
	km_fixture_down(&f);
#else
	skip();
#endif
}

static void test_kfree_misuse_is_reported(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	void *p;

	p = km_kmalloc(f.t, 100, KM_GFP_KERNEL);
	km_kfree(f.t, p);
	km_kfree(f.t, p);
	assert_int_equal(km_report_count(f.m, KM_R_BAD_KFREE), 1);
	assert_int_equal(km_report_get(f.m, 0)->kind, KM_BUG);
	assert_non_null(strstr(km_report_get(f.m, 0)->message, "double free"));
	km_reports_clear(f.m);
	{	/* foreign pointers are looked up, never dereferenced */
		struct km_machine *other;
		struct km_task *ot;
		int local;
		char *q;

		assert_int_equal(km_machine_new(NULL, &other), 0);
		assert_int_equal(km_task_new(other, NULL, 0, &ot), 0);
		q = km_kmalloc(ot, 40, KM_GFP_KERNEL);
		km_kfree(f.t, q);			/* another machine's object */
		km_kfree(f.t, (void *)0x1000);		/* unmapped host address */
		km_kfree(f.t, &local);			/* a stack address */
		p = km_kmalloc(f.t, 100, KM_GFP_KERNEL);
		km_kfree(f.t, (char *)p + 8);		/* an interior pointer */
		assert_int_equal(km_report_count(f.m, KM_R_BAD_KFREE), 4);
		assert_int_equal(km_ksize(f.m, q), 0);
		assert_int_equal(km_ksize(other, q), 64);
		km_kfree(f.t, p);
		km_kfree(ot, q);
		km_task_free(ot);
		assert_int_equal(km_machine_destroy(other), 0);
	}
	km_reports_clear(f.m);
	{	/* an interior pointer into the slab kfree looked up last: b was
		 * handed out last, so kfree(a) searched and found a's slab */
		void *a = km_kmalloc(f.t, 100, KM_GFP_KERNEL), *b = km_kmalloc(f.t, 100, KM_GFP_KERNEL);

		km_kfree(f.t, a);
		km_kfree(f.t, (char *)b + 8);
		assert_int_equal(km_report_count(f.m, KM_R_BAD_KFREE), 1);
		assert_non_null(strstr(km_report_get(f.m, 0)->message, "not a kmalloc object"));
		km_kfree(f.t, b);
		assert_int_equal(km_report_count(f.m, KM_R_BAD_KFREE), 1);
	}
	km_reports_clear(f.m);
}

/* kfree() and ksize() of an address below the object header's size (1,
 * ZERO_SIZE_PTR + 1, ...): not an object, a KM_R_BAD_KFREE BUG like any
 * foreign pointer (kmodel/machine.h). slab.c found the header by pointer
 * arithmetic, obj - sizeof(header), which overflows there: under UBSan
 * (the asan preset) the host aborted with "pointer index expression ...
 * overflowed" (at d2e5c2b and after 38dfc9c/e43bc4c alike) instead. */
static void test_kfree_of_a_small_address(void **state)
{
	static const uintptr_t addr[] = { 1, 8, 15, 17, 24, 31, 32, 33, 63 };
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	void *p;

	p = km_kmalloc(f.t, 32, KM_GFP_KERNEL);	/* a slab, and a last object */
	for (size_t i = 0; i < sizeof(addr) / sizeof(addr[0]); i++) {
		assert_int_equal(km_ksize(f.m, (void *)addr[i]), 0);
		km_kfree(f.t, (void *)addr[i]);
		assert_int_equal(km_report_count(f.m, KM_R_BAD_KFREE), i + 1);
	}
	assert_int_equal(km_ksize(f.m, p), 64);	/* the default KMALLOC_MIN_SIZE */
	km_kfree(f.t, p);
	assert_int_equal(km_report_count(f.m, KM_R_BAD_KFREE), sizeof(addr) / sizeof(addr[0]));
	km_reports_clear(f.m);
}

/*
 * Counters that km_events_get() derives (internal path counters of kmalloc,
 * __GFP_ZERO and kfree by size class, the rare object whose ARM bucket is
 * not its host bucket counted apart; memcpy_bytes from the warm clock,
 * which counts every byte copied, set or moved) read exactly, and
 * km_events_reset() resets them too: a read right after it is all zeros,
 * and counting starts again from there. The warm clock runs across the
 * reset: the objects reused after it (SLUB's LIFO freelist) were freed
 * just before it, and their __GFP_ZERO is warm.
 */
static void test_events_derived_reset(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_events ev, zero = { 0 };
	unsigned char *big = g_malloc0(17 * 4096);
	unsigned long u;
	void *a, *b;

	u = km_test_map(&f, 0, 17, KM_PROT_READ | KM_PROT_WRITE);
	for (int i = 0; i < 17; i++)	/* fault the pages in: each zeroed */
		assert_int_equal(km_copyout(f.t, &km_uaccess_direct, u + i * 4096UL, big, 1), 0);
	assert_int_equal(km_clear_user(f.t, u, 17 * 4096), 0);
	/* the RFC's page array of a 17-page copy: 136 bytes (kmalloc-192)
	 * here, 68 (kmalloc-128) on 32-bit ARM */
	assert_int_equal(km_copyout(f.t, &km_uaccess_gup_kmap_rfc, u, big, 17 * 4096), 0);
	a = km_kmalloc(f.t, 10, KM_GFP_KERNEL);
	b = km_kmalloc(f.t, 100, KM_GFP_KERNEL | KM_GFP_ZERO);
	km_kfree(f.t, a);
	km_kfree(f.t, b);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.kmalloc_calls, 3);
	assert_int_equal(ev.kmalloc_bytes, 192 + 64 + 128);
	assert_int_equal(ev.kmalloc_arm_bytes, 128 + 64 + 128);
	assert_int_equal(ev.kmalloc_class[6], 1);
	assert_int_equal(ev.kmalloc_class[7], 2);
	assert_int_equal(ev.kfree_calls, 3);
	assert_int_equal(ev.kfree_bytes, 192 + 64 + 128);
	assert_int_equal(ev.kfree_arm_bytes, 128 + 64 + 128);
	assert_int_equal(ev.kfree_class[6], 1);
	assert_int_equal(ev.kfree_class[7], 2);
	assert_int_equal(ev.memcpy_bytes, 17 + 17 * 4096);
	/* ZERO_PAGE at boot, the faults' zeroing, clear_user, the two
	 * __GFP_ZERO */
	assert_int_equal(ev.clear_bytes, 4096 + 17 * 4096 * 2 + 128 + 128);
	assert_int_equal(ev.memset_calls, 1 + 17 + 1 + 1 + 1);
	assert_int_equal(ev.clear_slab_warm_bytes, 0);		/* new slabs' objects */

	km_events_reset(f.m);
	km_events_get(f.m, &ev);
	assert_memory_equal(&ev, &zero, sizeof(ev));

	b = km_kmalloc(f.t, 100, KM_GFP_KERNEL | KM_GFP_ZERO);	/* b's object again */
	assert_int_equal(km_copyout(f.t, &km_uaccess_gup_kmap_rfc, u, big, 17 * 4096), 0);
	assert_int_equal(km_copyout(f.t, &km_uaccess_direct, u, big, 64), 0);
	km_kfree(f.t, b);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.kmalloc_calls, 2);
	assert_int_equal(ev.kmalloc_bytes, 128 + 192);
	assert_int_equal(ev.kmalloc_arm_bytes, 128 + 128);
	assert_int_equal(ev.kmalloc_class[7], 2);
	assert_int_equal(ev.kfree_calls, 2);
	assert_int_equal(ev.kfree_bytes, 128 + 192);
	assert_int_equal(ev.kfree_arm_bytes, 128 + 128);
	assert_int_equal(ev.kfree_class[7], 2);
	assert_int_equal(ev.clear_bytes, 128 + 128);
	assert_int_equal(ev.memset_calls, 2);
	assert_int_equal(ev.clear_slab_warm_bytes, 128 + 128);
	assert_int_equal(ev.memcpy_bytes, 17 * 4096 + 64);
	g_free(big);
}

/*
 * km_events_set_counting(): while off, no counter moves --
 * path counters, plain ones, the rare ARM-bucket kmalloc counted one by
 * one, memcpy_bytes from the clock -- and the model does the same: the
 * data copied, the objects handed out and the reports (km_report_count()
 * counts on). On again, counting resumes from the counts it stopped at;
 * the warm clock ran on, so an object freed while off is cold after
 * 68 KiB copied and warm after none.
 */
static void counting_sequence(struct km_fixture *f, unsigned long u, unsigned char *big,
			      void **obj)
{
	unsigned char back[64];

	km_syscall(f->t);
	assert_int_equal(km_copyout(f->t, &km_uaccess_gup_kmap_rfc, u, big, 17 * 4096), 0);
	assert_int_equal(km_copyout(f->t, &km_uaccess_direct, u + 4096, big + 1, 64), 0);
	assert_int_equal(km_clear_user(f->t, u + 8192, 100), 0);
	assert_int_equal(km_copyin(f->t, &km_uaccess_direct, back, u + 4096, 64), 0);
	assert_memory_equal(back, big + 1, 64);
	obj[0] = km_kmalloc(f->t, 10, KM_GFP_KERNEL);
	obj[1] = km_kmalloc(f->t, 100, KM_GFP_KERNEL | KM_GFP_ZERO);
	km_preempt_disable(f->t);	/* a sleeping kmalloc in atomic context */
	obj[2] = km_kmalloc(f->t, 10, KM_GFP_KERNEL);
	km_preempt_enable(f->t);
	km_kfree(f->t, obj[0]);
	km_kfree(f->t, obj[2]);
}

static void test_events_counting_switch(void **state)
{
	struct km_fixture f[2];
	struct km_events ev, ev0;
	unsigned char *big = g_malloc0(17 * 4096);
	unsigned long u[2];
	void *obj[2][3], *b;

	for (int i = 0; i < 17 * 4096; i++)
		big[i] = (unsigned char)(i * 7 + 1);
	for (int k = 0; k < 2; k++) {
		km_fixture_up(&f[k], NULL);
		u[k] = km_test_map(&f[k], 0, 17, KM_PROT_READ | KM_PROT_WRITE);
		assert_true(km_events_counting(f[k].m));	/* a new machine counts */
	}
	/* the same sequence counted on f[0], not counted on f[1] */
	km_events_get(f[1].m, &ev0);
	km_events_set_counting(f[1].m, false);
	assert_false(km_events_counting(f[1].m));
	counting_sequence(&f[0], u[0], big, obj[0]);
	counting_sequence(&f[1], u[1], big, obj[1]);
	km_events_get(f[1].m, &ev);
	assert_memory_equal(&ev, &ev0, sizeof(ev));
	km_events_get(f[0].m, &ev);
	assert_int_equal(ev.syscalls, 1);
	assert_int_equal(ev.kmalloc_calls, 1 + 3);	/* the RFC's page array, then ours */
	assert_int_equal(ev.memcpy_bytes, 17 * 4096 + 64 + 64);
	/* the model itself the same: reports, the objects handed out, the data */
	for (int k = 0; k < 2; k++) {
		unsigned char back[17 * 4096];

		assert_int_equal(km_report_count(f[k].m, KM_R_SLEEP_IN_ATOMIC), 1);
		assert_int_equal(km_copyin(f[k].t, &km_uaccess_direct, back, u[k], sizeof(back)), 0);
		assert_memory_equal(back, big, 4096);
		assert_memory_equal(back + 4096, big + 1, 64);
		assert_memory_equal(back + 4096 + 64, big + 4096 + 64, 4096 - 64);
		assert_true(back[8192] == 0 && back[8192 + 99] == 0 && back[8192 + 100] != 0);
	}
	/* (slabs are host allocations: only offsets within one compare) */
	assert_true((char *)obj[0][2] - (char *)obj[0][0] == (char *)obj[1][2] - (char *)obj[1][0]);
	assert_int_equal(km_ksize(f[0].m, obj[0][1]), 128);
	assert_int_equal(km_ksize(f[1].m, obj[1][1]), 128);
	km_reports_clear(f[0].m);
	km_reports_clear(f[1].m);

	/* on again: the counts resume, and the clock ran while off: obj[1]
	 * freed before 68 KiB copied is cold, then freed again just before
	 * counting resumes warm */
	km_kfree(f[1].t, obj[1][1]);
	assert_int_equal(km_copyout(f[1].t, &km_uaccess_direct, u[1], big, 17 * 4096), 0);
	km_events_set_counting(f[1].m, true);
	km_events_set_counting(f[1].m, true);	/* already on: nothing changes */
	assert_true(km_events_counting(f[1].m));
	b = km_kmalloc(f[1].t, 100, KM_GFP_KERNEL | KM_GFP_ZERO);
	assert_ptr_equal(b, obj[1][1]);
	assert_int_equal(km_copyout(f[1].t, &km_uaccess_direct, u[1], big, 32), 0);
	km_events_get(f[1].m, &ev);
	assert_int_equal(ev.kmalloc_calls, ev0.kmalloc_calls + 1);
	assert_int_equal(ev.memset_calls, ev0.memset_calls + 1);
	assert_int_equal(ev.clear_bytes, ev0.clear_bytes + 128);
	assert_int_equal(ev.clear_slab_warm_bytes, ev0.clear_slab_warm_bytes);
	assert_int_equal(ev.memcpy_bytes, ev0.memcpy_bytes + 32);
	km_events_set_counting(f[1].m, false);
	km_kfree(f[1].t, b);
	km_events_set_counting(f[1].m, true);
	b = km_kmalloc(f[1].t, 100, KM_GFP_KERNEL | KM_GFP_ZERO);
	km_events_get(f[1].m, &ev);
	assert_int_equal(ev.kfree_calls, ev0.kfree_calls);
	assert_int_equal(ev.clear_slab_warm_bytes, ev0.clear_slab_warm_bytes + 128);
	km_kfree(f[1].t, b);

	/* a reset while off zeroes the counts, and nothing counts until on */
	km_events_set_counting(f[1].m, false);
	assert_int_equal(km_copyout(f[1].t, &km_uaccess_direct, u[1], big, 16), 0);
	km_events_reset(f[1].m);
	assert_int_equal(km_copyout(f[1].t, &km_uaccess_direct, u[1], big, 16), 0);
	km_events_get(f[1].m, &ev);
	assert_int_equal(ev.memcpy_bytes, 0);
	assert_int_equal(ev.memcpy_calls, 0);
	km_events_set_counting(f[1].m, true);
	assert_int_equal(km_copyout(f[1].t, &km_uaccess_direct, u[1], big, 8), 0);
	km_events_get(f[1].m, &ev);
	assert_int_equal(ev.memcpy_bytes, 8);
	assert_int_equal(ev.memcpy_calls, 1);

	km_events_set_counting(NULL, false);
	assert_false(km_events_counting(NULL));
	km_kfree(f[0].t, obj[0][1]);
	for (int k = 0; k < 2; k++)
		km_fixture_down(&f[k]);
	g_free(big);
}

static void test_kmalloc_fault_injection_and_events(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_events ev;
	void *a, *b, *c;

	km_fault_fail_kmalloc_nth(f.m, 2);
	a = km_kmalloc(f.t, 10, KM_GFP_KERNEL);
	b = km_kmalloc(f.t, 10, KM_GFP_KERNEL);
	c = km_kmalloc(f.t, 10, KM_GFP_KERNEL);
	assert_non_null(a);
	assert_null(b);
	assert_non_null(c);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.kmalloc_calls, 3);
	assert_int_equal(ev.kmalloc_bytes, 2 * 64);
	km_kfree(f.t, a);
	km_kfree(f.t, c);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.kfree_calls, 2);
}

static void test_sleeping_kmalloc_in_atomic(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */

	km_preempt_disable(f.t);
	km_kfree(f.t, km_kmalloc(f.t, 10, KM_GFP_ATOMIC));
	assert_int_equal(km_report_count(f.m, KM_R_SLEEP_IN_ATOMIC), 0);
	km_kfree(f.t, km_kmalloc(f.t, 10, KM_GFP_KERNEL));
	assert_int_equal(km_report_count(f.m, KM_R_SLEEP_IN_ATOMIC), 1);
	km_preempt_enable(f.t);
	km_preempt_enable(f.t);		/* one too many */
	assert_int_equal(km_report_count(f.m, KM_R_ATOMIC_UNBALANCED), 1);
	assert_int_equal(km_preempt_count(f.t), 0);
	km_reports_clear(f.m);
}

static void test_teardown_reports_leaks(void **state)
{
	struct km_machine *m;
	struct km_mm *mm;
	struct km_task *t;
	void *p;

	assert_int_equal(km_machine_new(NULL, &m), 0);
	assert_int_equal(km_mm_new(m, &mm), 0);
	assert_int_equal(km_task_new(m, mm, 0, &t), 0);
	p = km_kmalloc(t, 32, KM_GFP_KERNEL);
	km_preempt_disable(t);
	/* leaked: the kmalloc object, the mm reference, the task, its raised
	 * preempt_count */
	assert_int_equal(km_machine_check(m), 4);
	assert_int_equal(km_report_count(m, KM_R_LEAK_ATOMIC), 1);
	assert_int_equal(km_report_count(m, KM_R_LEAK_KMALLOC), 1);
	assert_int_equal(km_report_count(m, KM_R_LEAK_MM), 2);	/* the task and the mm */
	km_kfree(t, p);
	km_preempt_enable(t);
	km_mm_put(mm);
	km_task_free(t);
	km_reports_clear(m);
	assert_int_equal(km_machine_check(m), 0);
	assert_int_equal(km_machine_destroy(m), 0);
}

/*
 * km_report_get()'s pointer stays valid while more reports arrive (the log
 * used to be a GArray that moved on reallocation: after 1 report and 100
 * more, the first pointer read freed memory; ASan and valgrind see that).
 * Up to the log's capacity and past it (only the counters move there).
 */
static void test_report_pointer_survives_more_reports(void **state)
{
	struct km_machine *m;
	const struct km_report *first, *last;

	assert_int_equal(km_machine_new(NULL, &m), 0);
	km_report(m, KM_BUG, KM_R_UNEXPECTED, "report %d", 0);
	first = km_report_get(m, 0);
	assert_non_null(first);
	for (int i = 1; i <= 100; i++)
		km_report(m, KM_WARN, KM_R_COPY_SIZE, "report %d", i);
	assert_ptr_equal(km_report_get(m, 0), first);
	assert_int_equal(first->kind, KM_BUG);
	assert_int_equal(first->code, KM_R_UNEXPECTED);
	assert_string_equal(first->message, "report 0");
	for (int i = 101; i < 1100; i++)
		km_report(m, KM_WARN, KM_R_COPY_SIZE, "report %d", i);
	assert_int_equal(km_report_log_len(m), 1024);	/* the log's capacity */
	assert_int_equal(km_report_count(m, KM_R_NONE), 1100);
	last = km_report_get(m, 1023);
	assert_string_equal(last->message, "report 1023");
	assert_string_equal(first->message, "report 0");
	assert_null(km_report_get(m, 1024));
	km_reports_clear(m);
	assert_null(km_report_get(m, 0));
	assert_int_equal(km_report_log_len(m), 0);
	km_report(m, KM_WARN, KM_R_COPY_SIZE, "after clear");
	assert_string_equal(km_report_get(m, 0)->message, "after clear");
	km_reports_clear(m);
	assert_int_equal(km_machine_destroy(m), 0);
}

/* Two machines in two threads: each sees only its own events and data. */
static gpointer worker(gpointer arg)
{
	const struct km_uaccess_ops *ops = arg;
	struct km_machine *m;
	struct km_mm *mm;
	struct km_task *t;
	unsigned long a;
	unsigned char src[3000], dst[3000];
	struct km_events ev;
	gboolean ok = TRUE;

	if (km_machine_new(NULL, &m) || km_mm_new(m, &mm) || km_task_new(m, mm, 0, &t))
		return GINT_TO_POINTER(FALSE);
	km_mm_put(mm);
	km_mmap(mm, 0, 2 * 4096, KM_PROT_READ | KM_PROT_WRITE, &a);
	for (int i = 0; i < 2000; i++) {
		memset(src, i & 0xff, sizeof(src));
		ok &= km_copy_to_user(t, ops, a + 2000, src, sizeof(src)) == 0;
		ok &= km_copy_from_user(t, ops, dst, a + 2000, sizeof(dst)) == 0;
		ok &= memcmp(src, dst, sizeof(src)) == 0;
	}
	km_events_get(m, &ev);
	/* exactly this thread's work: 2 x 2000 copies of 3000 bytes */
	ok &= ev.memcpy_bytes == 2ULL * 2000 * 3000;
	ok &= km_report_count(m, KM_R_NONE) == 0;
	km_task_free(t);
	ok &= km_machine_destroy(m) == 0;
	return GINT_TO_POINTER(ok);
}

static void test_machines_in_parallel_threads(void **state)
{
	GThread *a = g_thread_new("a", worker, (gpointer)&km_uaccess_gup_kmap_rfc);
	GThread *b = g_thread_new("b", worker, (gpointer)&km_uaccess_direct);

	assert_true(GPOINTER_TO_INT(g_thread_join(a)));
	assert_true(GPOINTER_TO_INT(g_thread_join(b)));
}

int kernel_use_foreign_mm(void);

/*
 * A kernel thread (a task without an mm) that allocates an address space,
 * adopts it with kthread_use_mm() (kernel/kthread.c, v5.8), maps and copies
 * through it, then drops it (mmput(): the last user frees it): no report,
 * and the task is without an mm again. kthread_use_mm() by a task that has
 * one is the kernel's WARN_ON_ONCE(tsk->mm).
 */
static void test_kthread_use_mm(void **state)
{
	struct km_machine *m;
	struct km_task *t;
	struct km_mm *mm;

	assert_int_equal(km_machine_new(NULL, &m), 0);
	assert_int_equal(km_task_new(m, NULL, 0, &t), 0);
	km_task_switch(t);
	assert_int_equal(kernel_use_foreign_mm(), 0);
	assert_null(km_task_mm(t));
	assert_int_equal(km_report_count(m, KM_R_NONE), 0);
	assert_int_equal(km_mm_new(m, &mm), 0);
	assert_int_equal(km_task_use_mm(t, mm), 0);
	assert_int_equal(km_task_use_mm(t, mm), -EBUSY);
	assert_int_equal(km_report_count(m, KM_R_UNEXPECTED), 1);
	km_task_unuse_mm(t);
	km_mm_put(mm);
	km_reports_clear(m);
	km_task_switch(NULL);
	km_task_free(t);
	assert_int_equal(km_machine_destroy(m), 0);
}

/* kfree() of objects of several classes in turn finds each slab among the
 * last ones it searched (slab.c obj_search()): the same answers as the
 * binary search -- an object start is freed, an interior pointer into one
 * of those slabs is no object, a second kfree is a double free. */
static void test_kfree_in_recent_slabs(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	char *a1 = km_kmalloc(f.t, 100, KM_GFP_KERNEL), *b1 = km_kmalloc(f.t, 1000, KM_GFP_KERNEL);
	char *c1 = km_kmalloc(f.t, 40, KM_GFP_KERNEL), *a2, *a3;

	km_kfree(f.t, a1);	/* searched: kmalloc-128's slab */
	km_kfree(f.t, b1);	/* searched: kmalloc-1024's; the last one found */
	a2 = km_kmalloc(f.t, 100, KM_GFP_KERNEL);
	a3 = km_kmalloc(f.t, 100, KM_GFP_KERNEL);	/* handed out last */
	assert_int_equal(km_report_count(f.m, KM_R_BAD_KFREE), 0);
	km_kfree(f.t, a2 + 8);	/* in kmalloc-128's slab, no object start */
	assert_int_equal(km_report_count(f.m, KM_R_BAD_KFREE), 1);
	assert_non_null(strstr(km_report_get(f.m, 0)->message, "not a kmalloc object"));
	assert_int_equal(km_ksize(f.m, a2), 128);
	km_kfree(f.t, b1 + 16);	/* kmalloc-1024's, interior */
	assert_int_equal(km_report_count(f.m, KM_R_BAD_KFREE), 2);
	km_kfree(f.t, c1);
	km_kfree(f.t, a2);
	km_kfree(f.t, a3);
	assert_int_equal(km_report_count(f.m, KM_R_BAD_KFREE), 2);
	km_kfree(f.t, b1);	/* freed at the start: its slab is a recent one */
	assert_int_equal(km_report_count(f.m, KM_R_BAD_KFREE), 3);
	assert_non_null(strstr(km_report_get(f.m, 2)->message, "double free"));
	km_reports_clear(f.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_rejects_each_bad_field),
		cmocka_unit_test(test_config_defaults),
		cmocka_unit_test(test_teardown_says_how_many_more),
		cmocka_unit_test(test_frames_are_lazy),
		cmocka_unit_test(test_kernel_memory_above_task_size),
		cmocka_unit_test_setup_teardown(test_kmalloc_buckets, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test(test_kmalloc_every_small_size),
		cmocka_unit_test(test_kmalloc_size_roundup_saturates),
		cmocka_unit_test_setup_teardown(test_kmalloc_zero_before_hooks, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test(test_kfree_poisons_under_asan),
		cmocka_unit_test_setup_teardown(test_gfp_zero, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_kmalloc_array_overflow, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_kfree_misuse_is_reported, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_kfree_of_a_small_address, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_kmalloc_fault_injection_and_events, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_events_derived_reset, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test(test_events_counting_switch),
		cmocka_unit_test_setup_teardown(test_sleeping_kmalloc_in_atomic, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test(test_teardown_reports_leaks),
		cmocka_unit_test(test_report_pointer_survives_more_reports),
		cmocka_unit_test(test_machines_in_parallel_threads),
		cmocka_unit_test(test_kthread_use_mm),
		cmocka_unit_test_setup_teardown(test_kfree_in_recent_slabs, km_fixture_setup, km_fixture_teardown),
	};

	return cmocka_run_group_tests_name("test_machine", tests, NULL, NULL);
}
