// SPDX-License-Identifier: GPL-2.0
/* mm_sim: mappings, faults, get_user_pages_fast (mm/gup.c v5.7),
 * put_page refcounts, kmap_atomic (arch/arm/mm/highmem.c v5.7). */
#include "km_test.h"
#include <errno.h>
#include <limits.h>
#include <string.h>

#define RW (KM_PROT_READ | KM_PROT_WRITE)
#define RO KM_PROT_READ
#define MiB (1024ULL * 1024)

static struct km_page *pte_page(struct km_fixture *f, unsigned long addr)
{
	struct km_page *p = NULL;

	assert_int_equal(km_follow_pte(f->mm, addr, NULL, &p), 0);
	return p;
}

static const struct km_machine_config fast_gup_cfg = { .fast_gup = true };
static const struct km_machine_config vmsplit_1g_cfg = { .vmsplit = KM_VMSPLIT_1G };

static void test_mmap_validation(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	unsigned long a, b;

	assert_int_equal(km_mmap(f.mm, 0, 0, RW, &a), -EINVAL);
	assert_int_equal(km_mmap(f.mm, 0x10001, 4096, RW, &a), -EINVAL);
	assert_int_equal(km_mmap(f.mm, 0, 4096, KM_PROT_WRITE, &a), -EINVAL);
	assert_int_equal(km_mmap(f.mm, 0xbf000000UL - 4096, 8192, RW, &a), -EINVAL);
	assert_int_equal(km_mmap(f.mm, 0x10000, 3 * 4096, RW, &a), 0);
	assert_int_equal(a, 0x10000);
	assert_int_equal(km_mmap(f.mm, 0x12000, 4096, RW, &b), -EEXIST);
	assert_int_equal(km_mmap(f.mm, 0xf000, 8192, RW, &b), -EEXIST);
	/* touching is not overlapping (MAP_FIXED_NOREPLACE): just below, just above */
	assert_int_equal(km_mmap(f.mm, 0xf000, 4096, RW, &b), 0);
	assert_int_equal(km_mmap(f.mm, 0x13000, 4096, RW, &b), 0);
	assert_int_equal(km_munmap(f.mm, 0xf000, 4096), 0);
	assert_int_equal(km_munmap(f.mm, 0x13000, 4096), 0);
	assert_int_equal(km_munmap(f.mm, 0x10001, 4096), -EINVAL);
	assert_int_equal(km_munmap(f.mm, 0x10000, 0), -EINVAL);
	assert_int_equal(km_munmap(f.mm, 0x10000, 3 * 4096), 0);
	/* the allocator reuses gaps: it never runs out on an empty mm */
	for (int i = 0; i < 3000; i++) {
		assert_int_equal(km_mmap(f.mm, 0, 1 << 20, RW, &a), 0);
		assert_int_equal(km_munmap(f.mm, a, 1 << 20), 0);
	}
	assert_int_equal(km_mmap(f.mm, 0, 0xbf000000UL - 0x8000, RW, &a), 0);
	assert_int_equal(a, 0x8000);		/* mmap_min_addr */
	assert_int_equal(km_mmap(f.mm, 0, 4096, RW, &b), -ENOMEM);
}

/*
 * The fallback below TASK_UNMAPPED_BASE starts at mmap_min_addr rounded to
 * the page: 0x8000 (CONFIG_DEFAULT_MMAP_MIN_ADDR) is a 4 and 16 KiB page
 * boundary, 0x10000 the first 64 KiB one. With 64 KiB pages the model
 * handed out [0x8000, ...): its first pte covered [0, 0x10000), so a store
 * below the mapping succeeded and munmap of its own start failed. Found by
 * fuzzing op sequences; every page size, both ways into the fallback (a
 * length past the ~2 GiB above TASK_UNMAPPED_BASE, and that space taken).
 */
static void test_mmap_fallback_page_aligned(void **state)
{
	static const unsigned long sizes[] = { 4096, 16384, 65536 };

	for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
		unsigned long P = sizes[i], lo = P < 0x8000 ? 0x8000 : P, top, a, b;
		struct km_fixture f;
		char c = 1;

		km_fixture_up(&f, &(struct km_machine_config){ .page_size = P });
		top = km_task_size(f.m);
		/* longer than the space above TASK_UNMAPPED_BASE (TASK_SIZE / 3) */
		assert_int_equal(km_mmap(f.mm, 0, top - top / 3 + P, RW, &a), 0);
		assert_int_equal(a, lo);
		assert_int_equal(a % P, 0);
		assert_int_equal(km_user_access(f.t, a - 1, &c, 1, true), 0);	/* below: SIGSEGV */
		assert_int_equal(km_user_access(f.t, a, &c, 1, true), 1);
		assert_int_equal(km_munmap(f.mm, a, P), 0);			/* its own start */
		assert_int_equal(km_follow_pte(f.mm, a, NULL, NULL), -ENOENT);
		assert_int_equal(km_munmap(f.mm, a + P, top - top / 3), 0);
		/* the space above TASK_UNMAPPED_BASE taken: the next mmap falls back */
		assert_int_equal(km_mmap(f.mm, 0, top - (top / 3 + P - 1) / P * P, RW, &b), 0);
		assert_int_equal(km_mmap(f.mm, 0, P, RW, &a), 0);
		assert_int_equal(a, lo);
		assert_int_equal(km_munmap(f.mm, a, P), 0);
		assert_int_equal(km_munmap(f.mm, b, top - b), 0);
		km_fixture_down(&f);
	}
}

/* The lowest gap of @len bytes from @lo below @hi in the test's own model
 * of what is mapped (@map: one bit per page), or 0 */
static unsigned long model_first_fit(const unsigned char *map, unsigned long P, unsigned long lo,
				     unsigned long hi, unsigned long len)
{
	for (unsigned long a = lo; a + len <= hi; a += P) {
		unsigned long b = a;

		while (b < a + len && !map[b / P])
			b += P;
		if (b >= a + len)
			return a;
		a = b;		/* past the mapped page that ended the run */
	}
	return 0;
}

/*
 * get_unmapped_area() by the gap tree (gaps.c) places every mmap where the
 * kernel's bottom-up search does: the lowest gap from TASK_UNMAPPED_BASE,
 * else from mmap_min_addr. 3000 random mmaps (anywhere and fixed) and
 * munmaps of random ranges on a 1G/3G split, each placement checked against
 * a page-by-page first fit over the test's own record of what is mapped.
 */
static void test_mmap_first_fit_matches_walk(void **state)
{
	struct km_fixture *f = *state;
	const unsigned long P = 4096;
	unsigned long ts, base, pages;
	unsigned char *map;
	GRand *r = g_rand_new_with_seed(12);

	ts = km_task_size(f->m);
	pages = ts / P;
	base = (ts / 3 + P - 1) & ~(P - 1);
	map = g_malloc0(pages);
	for (int i = 0; i < 3000; i++) {
		unsigned int op = g_rand_int_range(r, 0, 10);
		unsigned long len = P * (op < 8 ? (unsigned long)g_rand_int_range(r, 1, 64)
						: (unsigned long)g_rand_int_range(r, 1, 90000)), a;
		unsigned long want;

		if (op < 6) {			/* anywhere */
			want = model_first_fit(map, P, base, ts, len);
			if (!want)
				want = model_first_fit(map, P, 0x8000, ts, len);
			if (km_mmap(f->mm, 0, len, RW, &a)) {
				assert_int_equal(want, 0);
				continue;
			}
			assert_int_equal(a, want);
		} else if (op < 7) {		/* fixed, if free */
			a = P * (unsigned long)g_rand_int_range(r, 8, (gint32)(pages - 64));
			if (model_first_fit(map, P, a, a + len, len) != a) {
				assert_int_not_equal(km_mmap(f->mm, a, len, RW, &a), 0);
				continue;
			}
			assert_int_equal(km_mmap(f->mm, a, len, RW, &a), 0);
		} else {			/* munmap of a random range */
			a = P * (unsigned long)g_rand_int_range(r, 8, (gint32)(pages - 1));
			len = MIN(len, ts - a);
			assert_int_equal(km_munmap(f->mm, a, len), 0);
			memset(map + a / P, 0, len / P);
			continue;
		}
		memset(map + a / P, 1, len / P);
	}
	g_free(map);
	g_rand_free(r);
}

/*
 * The free-area tree finds a gap wherever it sits in the tree: 200 one-page
 * gaps left between one-page mappings above TASK_UNMAPPED_BASE, then a
 * two-page mmap goes above them all (the first gap long enough), a
 * one-page one into the lowest hole -- as the page-by-page walk says.
 */
static void test_mmap_gap_above_many_holes(void **state)
{
	const unsigned long P = 4096;
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	unsigned long a, first = 0, last = 0;

	for (int i = 0; i < 401; i++) {
		assert_int_equal(km_mmap(f.mm, 0, P, RW, &a), 0);
		first = i ? first : a;
		last = a;
	}
	for (int i = 1; i < 400; i += 2)
		assert_int_equal(km_munmap(f.mm, first + (unsigned long)i * P, P), 0);
	assert_int_equal(km_mmap(f.mm, 0, 2 * P, RW, &a), 0);
	assert_int_equal(a, last + P);
	assert_int_equal(km_mmap(f.mm, 0, P, RW, &a), 0);
	assert_int_equal(a, first + P);
}

/*
 * Walks over ptes skip page tables never allocated and no more: a mapping
 * of 16 MiB whose first 4 MiB table was never touched and whose second
 * was: fork copies the touched page (COW: the child reads it), munmap
 * drops it (the page is free again, the teardown finds nothing).
 */
static void test_walk_after_missing_table(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_mm *child;
	struct km_page *p;
	unsigned long a, t;
	char buf[8];

	a = km_test_map(&f, 0x400000, 4096, RW);		/* 16 MiB from a table boundary */
	t = a + (4UL << 20) + 4096;			/* in the second table */
	km_user_access(f.t, t, "walk", 5, true);
	p = pte_page(&f, t);
	assert_int_equal(km_mm_fork(f.mm, &child), 0);
	assert_int_equal(km_follow_pte(child, t, NULL, NULL), 0);
	assert_int_equal(km_page_mapcount(p), 2);
	assert_int_equal(km_mm_peek(child, t, buf, 5), 0);
	assert_string_equal(buf, "walk");
	km_mm_put(child);
	assert_int_equal(km_page_mapcount(p), 1);
	assert_int_equal(km_munmap(f.mm, a, 4096UL * 4096), 0);
	assert_int_equal(km_page_refcount(p), 0);
}

/* do_anonymous_page(): a read maps the zero page read-only, a write then
 * breaks COW into a private zeroed page. */
static void test_demand_zero_and_cow(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	unsigned long a;
	unsigned int fl;
	unsigned char b = 0xff;
	struct km_page *zero, *p;
	struct km_events ev;

	a = km_test_map(&f, 0, 2, RW);
	assert_int_equal(km_follow_pte(f.mm, a, &fl, NULL), -ENOENT);
	assert_int_equal(km_user_access(f.t, a, &b, 1, false), 1);
	assert_int_equal(b, 0);
	assert_int_equal(km_follow_pte(f.mm, a, &fl, &zero), 0);
	assert_true(fl & KM_PTE_SPECIAL);
	assert_false(fl & KM_PTE_WRITE);
	b = 7;
	assert_int_equal(km_user_access(f.t, a, &b, 1, true), 1);
	assert_int_equal(km_follow_pte(f.mm, a, &fl, &p), 0);
	assert_ptr_not_equal(p, zero);
	assert_true((fl & (KM_PTE_WRITE | KM_PTE_DIRTY)) == (KM_PTE_WRITE | KM_PTE_DIRTY));
	assert_int_equal(km_page_refcount(p), 1);	/* the pte's reference */
	assert_int_equal(km_page_mapcount(p), 1);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.page_faults, 2);
	assert_int_equal(ev.cow_breaks, 1);
}

/* The walk events of accesses that fault: each page-table walk counts,
 * the one that faults and the one after the fault (the model counts a
 * walk that succeeds with its copy or pin, one that fails on its own),
 * and __get_user_pages() calls find_vma() again at each new vma. */
static void test_walk_events_on_faults(void **state)
{
	struct km_fixture f;
	struct km_page *pages[3];
	struct km_events ev;
	unsigned char buf[16] = { 0 };
	unsigned long a;
	char c = 1;

	(void)state;
	/* direct copy_to_user() to a page never touched: walk, fault, walk */
	km_fixture_up(&f, NULL);
	a = km_test_map(&f, 0, 2, RW);
	km_events_reset(f.m);
	assert_int_equal(km_copy_to_user(f.t, &km_uaccess_direct, a, buf, sizeof(buf)), 0);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.pt_walks, 2);
	assert_int_equal(ev.page_faults, 1);
	assert_int_equal(ev.find_vma_calls, 1);
	assert_int_equal(ev.memcpy_calls, 1);
	assert_int_equal(ev.memcpy_bytes, sizeof(buf));
	/* the slow path over two vmas (mprotect split them), both present */
	assert_int_equal(km_mprotect(f.mm, a + 4096, 4096, RO), 0);
	assert_int_equal(km_user_access(f.t, a + 4096, &c, 1, false), 1);
	km_events_reset(f.m);
	assert_int_equal(km_get_user_pages_fast(f.t, a, 2, 0, pages), 2);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.gup_slow_calls, 1);
	assert_int_equal(ev.mmap_sem_locks, 1);
	assert_int_equal(ev.find_vma_calls, 2);
	assert_int_equal(ev.follow_page_calls, 2);
	assert_int_equal(ev.pt_walks, 2);
	assert_int_equal(ev.gup_slow_pages, 2);
	assert_int_equal(ev.get_page_calls, 2);
	km_put_page(f.m, pages[0]);
	km_put_page(f.m, pages[1]);
	km_fixture_down(&f);

	/* fast gup pins two present pages and stops at the third's walk; the
	 * slow path follows it (not present), faults it in, follows again */
	km_fixture_up(&f, &(struct km_machine_config){ .fast_gup = true });
	a = km_test_map(&f, 0, 3, RW);
	km_user_access(f.t, a, &c, 1, true);
	km_user_access(f.t, a + 4096, &c, 1, true);
	km_events_reset(f.m);
	assert_int_equal(km_get_user_pages_fast(f.t, a, 3, KM_FOLL_WRITE, pages), 3);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.gup_fast_pages, 2);
	assert_int_equal(ev.gup_slow_pages, 1);
	assert_int_equal(ev.follow_page_calls, 2);
	assert_int_equal(ev.pt_walks, 3 + 2);
	assert_int_equal(ev.get_page_calls, 3);
	assert_int_equal(ev.page_faults, 1);
	for (int i = 0; i < 3; i++)
		km_put_page(f.m, pages[i]);
	km_fixture_down(&f);
}

static void test_gup_full_refcounts_back(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_page *pages[4], *before[4];
	unsigned long a;
	unsigned char x = 1;

	a = km_test_map(&f, 0, 4, RW);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(km_user_access(f.t, a + i * 4096UL, &x, 1, true), 1);
		before[i] = pte_page(&f, a + i * 4096UL);
	}
	assert_int_equal(km_get_user_pages_fast(f.t, a + 100, 4, 0, pages), 4);
	for (int i = 0; i < 4; i++) {
		assert_ptr_equal(pages[i], before[i]);
		assert_int_equal(km_page_refcount(pages[i]), 2);
	}
	for (int i = 0; i < 4; i++)
		km_put_page(f.m, pages[i]);
	for (int i = 0; i < 4; i++)
		assert_int_equal(km_page_refcount(before[i]), 1);
	assert_int_equal(km_get_user_pages_fast(f.t, a, 0, 0, pages), 0);
}

/* gup of never-touched memory: a read pins the shared zero page for every
 * page (follow_page_pte(), is_zero_pfn()); FOLL_WRITE allocates. */
static void test_gup_untouched_read_and_write(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_page *pages[3], *zero;
	unsigned long a;
	int zref;

	a = km_test_map(&f, 0, 3, RW);
	assert_int_equal(km_get_user_pages_fast(f.t, a, 3, 0, pages), 3);
	zero = pages[0];
	zref = km_page_refcount(zero);
	assert_ptr_equal(pages[1], zero);
	assert_ptr_equal(pages[2], zero);
	for (int i = 0; i < 3; i++)
		km_put_page(f.m, pages[i]);
	assert_int_equal(km_page_refcount(zero), zref - 3);
	assert_int_equal(km_get_user_pages_fast(f.t, a, 3, KM_FOLL_WRITE, pages), 3);
	for (int i = 0; i < 3; i++) {
		unsigned int fl;

		assert_ptr_not_equal(pages[i], zero);
		assert_int_equal(km_page_refcount(pages[i]), 2);
		/* the write fault made the pte dirty, so FOLL_TOUCH leaves
		 * PageDirty alone (follow_page_pte(): !pte_dirty(pte)) */
		assert_int_equal(km_follow_pte(f.mm, a + i * 4096UL, &fl, NULL), 0);
		assert_true(fl & KM_PTE_DIRTY);
		assert_false(km_page_dirty(pages[i]));
		km_put_page(f.m, pages[i]);
	}
}

static void test_gup_partial_and_none(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_page *pages[4];
	long n;

	km_test_map(&f, 0x100000, 2, RW);	/* 0x102000.. stays unmapped */
	n = km_get_user_pages_fast(f.t, 0x100000, 4, 0, pages);
	assert_int_equal(n, 2);			/* stops at the first it cannot pin */
	km_put_page(f.m, pages[0]);
	km_put_page(f.m, pages[1]);
	assert_int_equal(km_get_user_pages_fast(f.t, 0x102000, 2, 0, pages), -EFAULT);
	/* access_ok() of the whole range fails first */
	assert_int_equal(km_get_user_pages_fast(f.t, 0xbf000000UL - 4096, 2, 0, pages), -EFAULT);
}

/*
 * Overflow audit: a length computed from a count must not wrap into a
 * small one. gup of 2^52 + 1 pages (4 KiB): nr_pages << PAGE_SHIFT used
 * to wrap to one page, pass access_ok() and walk 2^52 + 1 entries into a
 * one-entry array (ASan: a stack overflow); such a range fits no address
 * space: -EFAULT (__get_user_pages_fast(): 0). A negative count is a
 * range that wraps: 0, as internal_get_user_pages_fast()'s end <= start
 * (mm/gup.c, v5.7). mmap of a file range whose last page wraps:
 * -EOVERFLOW (do_mmap(), v5.7).
 */
static void test_gup_and_mmap_counts_do_not_wrap(void **state)
{
	struct km_fixture *f = *state;
	struct km_page *pages[1];
	struct km_file *file;
	unsigned long a;

	a = km_test_map(f, 0x100000, 2, RW);
	km_user_access(f->t, a, "x", 1, true);
	assert_int_equal(km_get_user_pages_fast(f->t, a, (1L << 52) + 1, 0, pages), -EFAULT);
	assert_int_equal(km_pin_user_pages_fast(f->t, a, LONG_MAX, 0, pages), -EFAULT);
	assert_int_equal(km_get_user_pages_fast_only(f->t, a, (1L << 52) + 1, 0, pages), 0);
	assert_int_equal(km_get_user_pages_fast(f->t, a, -1, 0, pages), 0);
	assert_int_equal(km_get_user_pages_fast_only(f->t, a, -1, 0, pages), 0);
	assert_int_equal(km_file_new(f->m, 4096, &file), 0);
	assert_int_equal(km_mmap_file(f->mm, 0, 4096, RW, true, file, ~0UL, &a), -EOVERFLOW);
	assert_int_equal(km_mmap_file(f->mm, 0, 8192, RW, true, file, ~0UL - 1, &a), -EOVERFLOW);
	assert_int_equal(km_mmap_file(f->mm, 0, 4096, RW, true, file, ~0UL - 1, &a), 0);
	assert_int_equal(km_user_access(f->t, a, &(char){ 0 }, 1, false), 0);	/* SIGBUS */
	km_file_put(file);
}

static void test_gup_write_to_readonly(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_page *pages[2];

	km_test_map(&f, 0x200000, 1, RW);
	km_test_map(&f, 0x201000, 1, RO);
	assert_int_equal(km_get_user_pages_fast(f.t, 0x201000, 1, KM_FOLL_WRITE, pages), -EFAULT);
	assert_int_equal(km_get_user_pages_fast(f.t, 0x200000, 2, KM_FOLL_WRITE, pages), 1);
	km_put_page(f.m, pages[0]);
	assert_int_equal(km_get_user_pages_fast(f.t, 0x201000, 1, 0, pages), 1);
	km_put_page(f.m, pages[0]);
}

/*
 * get_user_pages_fast() and pin_user_pages_fast() take FOLL_FORCE
 * (mm/gup.c, v5.7, internal_get_user_pages_fast(): WARN_ON_ONCE() and
 * -EINVAL only for flags outside FOLL_WRITE | FOLL_LONGTERM | FOLL_FORCE |
 * FOLL_PIN | FOLL_GET). The lockless walk ignores it (a PROT_NONE or
 * read-only pte stops it); the slow path's check_vma_flags() lets a forced
 * read reach a PROT_NONE page and a forced write break COW in a read-only
 * private mapping -- the new page's pte stays read-only, followed through
 * FOLL_COW -- and refuses a forced write to a shared one (!is_cow_mapping()).
 * The model used to refuse FOLL_FORCE there with a WARN and -EINVAL.
 */
static void test_gup_fast_foll_force_v5_7(void **state)
{
	for (int fast = 0; fast < 2; fast++) {
		struct km_fixture f;
		struct km_page *page, *old;
		struct km_file *file;
		struct km_mm *child;
		unsigned int fl;
		unsigned long a, s;

		km_fixture_up(&f, &(struct km_machine_config){ .fast_gup = fast });
		a = km_test_map(&f, 0, 2, RW);
		km_user_access(f.t, a, "x", 1, true);
		km_user_access(f.t, a + 4096, "y", 1, true);
		assert_int_equal(km_mprotect(f.mm, a + 4096, 4096, KM_PROT_NONE), 0);
		/* a forced read of a PROT_NONE page */
		assert_int_equal(km_get_user_pages_fast(f.t, a + 4096, 1, 0, &page), -EFAULT);
		assert_int_equal(km_get_user_pages_fast(f.t, a + 4096, 1, KM_FOLL_FORCE, &page), 1);
		assert_ptr_equal(page, pte_page(&f, a + 4096));
		km_put_page(f.m, page);
		/* a forced write to a read-only private page shared with a child */
		assert_int_equal(km_mprotect(f.mm, a, 4096, RO), 0);
		assert_int_equal(km_mm_fork(f.mm, &child), 0);
		old = pte_page(&f, a);
		assert_int_equal(km_get_user_pages_fast(f.t, a, 1, KM_FOLL_WRITE, &page), -EFAULT);
		assert_int_equal(km_pin_user_pages_fast(f.t, a, 1, KM_FOLL_WRITE | KM_FOLL_FORCE,
							&page), 1);
		assert_ptr_not_equal(page, old);
		assert_ptr_equal(page, pte_page(&f, a));
		assert_int_equal(km_page_refcount(page), 1 + KM_GUP_PIN_COUNTING_BIAS);
		assert_int_equal(km_follow_pte(f.mm, a, &fl, NULL), 0);
		assert_int_equal(fl & (KM_PTE_WRITE | KM_PTE_DIRTY), KM_PTE_DIRTY);
		km_unpin_user_page(f.m, page);
		assert_int_equal(km_follow_pte(child, a, NULL, &page), 0);
		assert_ptr_equal(page, old);
		km_mm_put(child);
		/* a forced write to a read-only shared mapping: not a COW mapping */
		assert_int_equal(km_file_new(f.m, 4096, &file), 0);
		assert_int_equal(km_mmap_file(f.mm, 0, 4096, RO, true, file, 0, &s), 0);
		assert_int_equal(km_get_user_pages_fast(f.t, s, 1, KM_FOLL_WRITE | KM_FOLL_FORCE,
							&page), -EFAULT);
		km_file_put(file);
		assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
		km_fixture_down(&f);
	}
}

/* HAVE_FAST_GUP: present ptes go through the lockless walk; the zero
 * page's special pte and absent ptes fall to the slow path. */
/*
 * get_user_pages_fast(FOLL_WRITE) of a present but read-only pte: the
 * lockless walk must refuse it (gup_pte_range(): pte_access_permitted()
 * with write, mm/gup.c v5.7) and leave it to the slow path, which breaks
 * COW after fork (a new page; the child keeps the old one) and fails
 * after mprotect(PROT_READ) (check_vma_flags(): -EFAULT). A fast walk
 * that pinned such a pte would hand out the page shared with the child.
 */
static void test_gup_fast_write_to_readonly_pte(void **state)
{
	struct km_fixture *f = *state;
	struct km_page *page, *old;
	struct km_events ev;
	struct km_mm *child;
	unsigned int fl;
	unsigned long a;
	char c = 7;

	a = km_test_map(f, 0, 2, RW);
	km_user_access(f->t, a, &c, 1, true);
	km_user_access(f->t, a + 4096, &c, 1, true);
	/* after fork: both ptes write-protected */
	assert_int_equal(km_mm_fork(f->mm, &child), 0);
	old = pte_page(f, a);
	km_events_reset(f->m);
	assert_int_equal(km_get_user_pages_fast(f->t, a, 1, KM_FOLL_WRITE, &page), 1);
	km_events_get(f->m, &ev);
	assert_int_equal(ev.gup_fast_pages, 0);
	assert_int_equal(ev.gup_slow_pages, 1);
	assert_int_equal(ev.cow_breaks, 1);
	assert_ptr_not_equal(page, old);
	assert_ptr_equal(page, pte_page(f, a));
	assert_int_equal(km_follow_pte(child, a, &fl, &page), 0);
	assert_ptr_equal(page, old);
	km_put_page(f->m, pte_page(f, a));
	/* read-only pte of a read-only vma (mprotect): the slow path refuses */
	km_mm_put(child);
	assert_int_equal(km_mprotect(f->mm, a + 4096, 4096, KM_PROT_READ), 0);
	km_events_reset(f->m);
	assert_int_equal(km_get_user_pages_fast(f->t, a + 4096, 1, KM_FOLL_WRITE, &page), -EFAULT);
	km_events_get(f->m, &ev);
	assert_int_equal(ev.gup_fast_pages, 0);
	/* a read pin of the same pte takes the lockless walk */
	assert_int_equal(km_get_user_pages_fast(f->t, a + 4096, 1, 0, &page), 1);
	km_events_get(f->m, &ev);
	assert_int_equal(ev.gup_fast_pages, 1);
	km_put_page(f->m, page);
}

/*
 * FOLL_TOUCH of the gup slow path (follow_page_pte(), mm/gup.c v5.7): a
 * FOLL_WRITE pin of a writable but clean pte calls set_page_dirty(); a
 * read pin does not.
 */
static void test_gup_write_touch_dirties(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_page *page;
	unsigned long a;

	a = km_test_map(&f, 0, 1, RW);
	km_user_access(f.t, a, "x", 1, true);
	assert_int_equal(km_pte_mkold_clean(f.mm, a, KM_PTE_DIRTY), 0);
	assert_false(km_page_dirty(pte_page(&f, a)));
	assert_int_equal(km_get_user_pages_fast(f.t, a, 1, 0, &page), 1);
	assert_false(km_page_dirty(page));
	km_put_page(f.m, page);
	assert_int_equal(km_get_user_pages_fast(f.t, a, 1, KM_FOLL_WRITE, &page), 1);
	assert_true(km_page_dirty(page));
	km_put_page(f.m, page);
}

static void test_gup_fast_path(void **state)
{
	struct km_fixture *f = *state;
	struct km_page *pages[3];
	struct km_events ev;
	unsigned long a;
	unsigned char x = 1;

	a = km_test_map(f, 0, 3, RW);
	km_user_access(f->t, a, &x, 1, true);
	km_user_access(f->t, a + 4096, &x, 1, false);	/* zero page */
	km_events_reset(f->m);
	assert_int_equal(km_get_user_pages_fast(f->t, a, 3, 0, pages), 3);
	km_events_get(f->m, &ev);
	assert_int_equal(ev.gup_fast_pages, 1);
	assert_int_equal(ev.gup_slow_pages, 2);
	for (int i = 0; i < 3; i++)
		km_put_page(f->m, pages[i]);
}

/*
 * __get_user_pages_fast() (km_get_user_pages_fast_only): the lockless walk
 * alone. Without HAVE_FAST_GUP it pins nothing; with it, it pins present
 * user ptes and stops at the first absent or special one (the zero page)
 * or, for FOLL_WRITE, read-only one -- never faulting, never sleeping, so
 * it is clean in atomic context.
 */
static void test_gup_fast_only(void **state)
{
	struct km_fixture f;
	struct km_page *pages[4];
	struct km_events ev;
	unsigned long a;
	unsigned char x = 1;

	/* default machine: no HAVE_FAST_GUP */
	km_fixture_up(&f, NULL);
	a = km_test_map(&f, 0, 2, RW);
	km_user_access(f.t, a, &x, 1, true);
	assert_int_equal(km_get_user_pages_fast_only(f.t, a, 1, 0, pages), 0);
	assert_int_equal(km_get_user_pages_fast_only(f.t, a, 1, 0, NULL), -EINVAL);
	assert_int_equal(km_get_user_pages_fast_only(NULL, a, 1, 0, pages), -EINVAL);
	/* a flag v5.9's internal_get_user_pages_fast() does not take: its
	 * WARN_ON_ONCE() and -EINVAL, which get_user_pages_fast_only() turns
	 * into 0 (it was -EINVAL here, without the WARN) */
	assert_int_equal(km_get_user_pages_fast_only(f.t, a, 1, 0x100, pages), 0);
	assert_int_equal(km_report_count(f.m, KM_R_UNEXPECTED), 1);
	km_reports_clear(f.m);
	km_fixture_down(&f);

	km_fixture_up(&f, &(struct km_machine_config){ .fast_gup = true });
	a = km_test_map(&f, 0, 4, RW);
	km_user_access(f.t, a, &x, 1, true);		/* page 0: present, writable */
	km_user_access(f.t, a + 4096, &x, 1, true);	/* page 1: present, writable */
	km_user_access(f.t, a + 8192, &x, 1, false);	/* page 2: zero page */
	km_preempt_disable(f.t);			/* atomic context */
	km_pagefault_disable(f.t);
	km_events_reset(f.m);
	assert_int_equal(km_get_user_pages_fast_only(f.t, a, 4, KM_FOLL_WRITE, pages), 2);
	assert_int_equal(km_page_refcount(pages[0]), 2);
	km_put_page(f.m, pages[0]);
	km_put_page(f.m, pages[1]);
	/* not present (page 3) and special (page 2): nothing, no fault */
	assert_int_equal(km_get_user_pages_fast_only(f.t, a + 12288, 1, 0, pages), 0);
	assert_int_equal(km_get_user_pages_fast_only(f.t, a + 8192, 1, 0, pages), 0);
	assert_int_equal(km_follow_pte(f.mm, a + 12288, NULL, NULL), -ENOENT);
	/* access_ok() fails: 0, not -EFAULT */
	assert_int_equal(km_get_user_pages_fast_only(f.t, km_task_size(f.m) - 4096, 2, 0, pages),
			 0);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.gup_fast_pages, 2);
	assert_int_equal(ev.gup_slow_pages, 0);
	assert_int_equal(ev.page_faults, 0);
	km_pagefault_enable(f.t);
	km_preempt_enable(f.t);
	/* FOLL_FORCE (v5.9 get_user_pages_fast_only(), dadbb612f6e5, into
	 * internal_get_user_pages_fast(), whose mask takes it:
	 * it was -EINVAL): the walk ignores it -- a writable pte is pinned, a
	 * read-only one still stops a write */
	assert_int_equal(km_get_user_pages_fast_only(f.t, a, 1, KM_FOLL_WRITE | KM_FOLL_FORCE,
						     pages), 1);
	assert_ptr_equal(pages[0], pte_page(&f, a));
	km_put_page(f.m, pages[0]);
	assert_int_equal(km_mprotect(f.mm, a + 4096, 4096, KM_PROT_READ), 0);
	assert_int_equal(km_get_user_pages_fast_only(f.t, a + 4096, 1,
						     KM_FOLL_WRITE | KM_FOLL_FORCE, pages), 0);
	assert_int_equal(km_get_user_pages_fast_only(f.t, a + 4096, 1, KM_FOLL_FORCE, pages), 1);
	km_put_page(f.m, pages[0]);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	km_fixture_down(&f);
}

static void test_foll_pin_bias(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_page *p;
	unsigned long a;

	a = km_test_map(&f, 0, 1, RW);
	assert_int_equal(km_pin_user_pages_fast(f.t, a, 1, KM_FOLL_WRITE, &p), 1);
	assert_int_equal(km_page_refcount(p), 1 + KM_GUP_PIN_COUNTING_BIAS);
	km_unpin_user_page(f.m, p);
	assert_int_equal(km_page_refcount(p), 1);
	km_unpin_user_page(f.m, p);		/* not pinned */
	assert_int_equal(km_report_count(f.m, KM_R_PAGE_REFCOUNT), 1);
	/* FOLL_PIN is for pin_user_pages_fast() only: WARN_ON_ONCE, -EINVAL */
	assert_int_equal(km_get_user_pages_fast(f.t, a, 1, KM_FOLL_PIN, &p), -EINVAL);
	assert_int_equal(km_report_count(f.m, KM_R_UNEXPECTED), 1);
	km_reports_clear(f.m);
}

/* free_pages_check() -> bad_page(): a page still mapped, or the reserved
 * zero page, is reported and never returns to the free lists. */
static void test_bad_page_is_not_freed(void **state)
{
	struct km_fixture f;
	struct km_page *zero, *mapped, *q;
	unsigned long a;
	unsigned char x = 1, y = 0xff;

	km_fixture_up(&f, NULL);
	a = km_test_map(&f, 0, 2, RW);
	km_user_access(f.t, a, &y, 1, false);			/* zero page */
	km_user_access(f.t, a + 4096, &x, 1, true);
	assert_int_equal(km_follow_pte(f.mm, a, NULL, &zero), 0);
	assert_int_equal(km_follow_pte(f.mm, a + 4096, NULL, &mapped), 0);
	km_put_page(f.m, zero);		/* its only reference is the machine's */
	km_put_page(f.m, mapped);	/* the pte's reference */
	assert_int_equal(km_report_count(f.m, KM_R_BAD_PAGE), 2);
	for (int i = 0; i < 64; i++) {	/* neither comes back from the allocator */
		q = km_alloc_page(f.m, 0);
		assert_ptr_not_equal(q, zero);
		assert_ptr_not_equal(q, mapped);
		km_put_page(f.m, q);
	}
	km_user_access(f.t, a, &y, 1, false);
	assert_int_equal(y, 0);
	km_task_switch(NULL);
	km_task_free(f.t);
	/* the zero page stays at refcount 0: the one teardown problem */
	km_test_destroy_expecting(f.m, 1);
}

/* A read gup of untouched memory pins the zero page; not putting it is a
 * leak the teardown names. */
static void test_teardown_zero_page_leak(void **state)
{
	struct km_machine *m;
	struct km_mm *mm;
	struct km_task *t;
	struct km_page *p;
	unsigned long a;

	assert_int_equal(km_machine_new(NULL, &m), 0);
	km_mm_new(m, &mm);
	km_task_new(m, mm, 0, &t);
	km_mm_put(mm);
	km_mmap(mm, 0, 4096, RW, &a);
	assert_int_equal(km_get_user_pages_fast(t, a, 1, 0, &p), 1);
	km_task_free(t);
	assert_int_equal(km_machine_check(m), 1);
	assert_int_equal(km_report_count(m, KM_R_LEAK_PAGE), 1);
	assert_non_null(strstr(km_report_get(m, 0)->message, "zero page"));
	km_put_page(m, p);
	km_reports_clear(m);
	assert_int_equal(km_machine_destroy(m), 0);
}

/* The page allocator (mm/page_alloc.c, v5.7, without buddy orders): a
 * freed frame is the next one its zone hands out (last freed, first
 * reused: the hot page); GFP_HIGHMEM prefers ZONE_HIGHMEM and falls back to
 * ZONE_NORMAL; without it only ZONE_NORMAL serves; empty zones give NULL. */
static void test_page_alloc_lifo_zones_exhaustion(void **state)
{
	struct km_machine_config cfg = { .ram_size = 2 * MiB, .lowmem_size = 1 * MiB };
	struct km_machine *m;
	struct km_page *held[512], *a, *b, *c, *x, *y, *p;
	unsigned long nr, low, n = 0, nhigh = 0;

	assert_int_equal(km_machine_new(&cfg, &m), 0);
	nr = km_nr_pages(m);
	low = km_nr_lowmem_pages(m);
	assert_int_equal(nr, 512);
	assert_int_equal(low, 256);

	/* per zone: freed B then A come back A, B, then a never-used frame */
	a = km_alloc_page(m, KM_GFP_HIGHMEM);
	b = km_alloc_page(m, KM_GFP_HIGHMEM);
	c = km_alloc_page(m, KM_GFP_HIGHMEM);
	assert_true(km_page_to_pfn(m, a) >= low && km_page_to_pfn(m, b) >= low &&
		    km_page_to_pfn(m, c) >= low);
	km_put_page(m, b);
	km_put_page(m, a);
	assert_ptr_equal(km_alloc_page(m, KM_GFP_HIGHMEM), a);
	assert_ptr_equal(km_alloc_page(m, KM_GFP_HIGHMEM), b);
	p = km_alloc_page(m, KM_GFP_HIGHMEM);
	assert_true(p != a && p != b && p != c && km_page_to_pfn(m, p) >= low);
	x = km_alloc_page(m, 0);
	y = km_alloc_page(m, 0);
	assert_true(km_page_to_pfn(m, x) < low && km_page_to_pfn(m, y) < low);
	km_put_page(m, x);
	km_put_page(m, y);
	assert_ptr_equal(km_alloc_page(m, 0), y);
	assert_ptr_equal(km_alloc_page(m, 0), x);
	/* a freed highmem frame does not serve a lowmem request */
	km_put_page(m, p);
	p = km_alloc_page(m, 0);
	assert_true(km_page_to_pfn(m, p) < low);

	/* exhaust: GFP_HIGHMEM takes every free highmem frame, then lowmem */
	held[n++] = a, held[n++] = b, held[n++] = c, held[n++] = x, held[n++] = y,
	held[n++] = p;
	while ((p = km_alloc_page(m, KM_GFP_HIGHMEM))) {
		assert_true(n < nr);
		if (km_page_to_pfn(m, p) >= low) {
			assert_int_equal(nhigh, n - 6);	/* highmem first, all of it */
			nhigh++;
		}
		held[n++] = p;
	}
	assert_int_equal(nhigh + 3, nr - low);	/* a, b, c were the other three */
	assert_int_equal(n, nr - 1);		/* all but the zero page */
	assert_null(km_alloc_page(m, 0));
	/* one frame back: it is the one handed out next, then NULL again */
	km_put_page(m, held[n - 1]);
	assert_ptr_equal(km_alloc_page(m, KM_GFP_HIGHMEM), held[n - 1]);
	assert_null(km_alloc_page(m, KM_GFP_HIGHMEM));
	for (unsigned long i = 0; i < n; i++)
		km_put_page(m, held[i]);
	assert_int_equal(km_report_count(m, KM_R_NONE), 0);
	assert_int_equal(km_machine_destroy(m), 0);
}

static void test_double_put_page_is_reported(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_page *p;

	p = km_alloc_page(f.m, 0);
	km_put_page(f.m, p);
	assert_int_equal(km_page_refcount(p), 0);
	km_put_page(f.m, p);
	assert_int_equal(km_page_refcount(p), 0);
	assert_int_equal(km_report_count(f.m, KM_R_PAGE_REFCOUNT), 1);
	km_put_page(f.m, (struct km_page *)&f);
	assert_int_equal(km_report_count(f.m, KM_R_BAD_PAGE), 1);
	km_reports_clear(f.m);
}

/* munmap drops the pte reference; a gup reference keeps the page alive. */
static void test_munmap_split_and_pinned_page(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_page *p;
	unsigned long a;
	unsigned char x = 9, y = 0;

	a = km_test_map(&f, 0x300000, 3, RW);
	for (int i = 0; i < 3; i++)
		km_user_access(f.t, a + i * 4096UL, &x, 1, true);
	assert_int_equal(km_get_user_pages_fast(f.t, a + 4096, 1, 0, &p), 1);
	assert_int_equal(km_munmap(f.mm, a + 4096, 4096), 0);
	assert_int_equal(km_page_refcount(p), 1);
	assert_int_equal(km_page_mapcount(p), 0);
	assert_int_equal(km_user_access(f.t, a, &y, 1, false), 1);	/* head kept */
	assert_int_equal(y, 9);
	assert_int_equal(km_user_access(f.t, a + 4096, &y, 1, false), 0);	/* hole */
	assert_int_equal(km_user_access(f.t, a + 8192, &y, 1, false), 1);	/* tail kept */
	km_put_page(f.m, p);
	assert_int_equal(km_page_refcount(p), 0);	/* freed with the last reference */
}

static void test_user_access_readonly_stops(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	unsigned char buf[8192] = {0};

	km_test_map(&f, 0x400000, 1, RW);
	km_test_map(&f, 0x401000, 1, RO);
	assert_int_equal(km_user_access(f.t, 0x400000, buf, sizeof(buf), true), 4096);
	assert_int_equal(km_user_access(f.t, 0x400000, buf, sizeof(buf), false), 8192);
}

static const struct km_machine_config highmem_cfg = {
	.ram_size = 64 * MiB, .lowmem_size = 32 * MiB,
};
static const struct km_machine_config highmem_debug_cfg = {
	.ram_size = 64 * MiB, .lowmem_size = 32 * MiB, .kmap_debug = true,
};
static const struct km_machine_config highmem_local_cfg = {
	.ram_size = 64 * MiB, .lowmem_size = 32 * MiB, .kmap = KM_KMAP_LOCAL,
};

static void test_kmap_lowmem_takes_no_slot(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_page *p;
	struct km_events ev;
	void *v;

	p = km_alloc_page(f.m, KM_GFP_HIGHMEM);		/* no highmem: falls back */
	assert_false(km_page_highmem(p));
	v = km_kmap_atomic(f.t, p);
	assert_ptr_equal(v, km_page_address(f.m, p));
	assert_int_equal(km_kmap_slots_held(f.m, 0), 0);
	assert_int_equal(km_preempt_count(f.t), 1);
	assert_int_equal(km_pagefault_disabled(f.t), 1);
	km_kunmap_atomic(f.t, (char *)v + 123);
	assert_int_equal(km_preempt_count(f.t), 0);
	assert_int_equal(km_pagefault_disabled(f.t), 0);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.kmap_low, 1);
	assert_int_equal(ev.kmap_high, 0);
	assert_int_equal(ev.tlb_flushes, 0);
	km_put_page(f.m, p);
}

static void test_kmap_highmem_slot_and_flush(void **state)
{
	struct km_fixture f;
	struct km_page *p;
	struct km_events ev;
	char *v;

	km_fixture_up(&f, &highmem_cfg);
	p = km_alloc_page(f.m, KM_GFP_HIGHMEM);
	assert_true(km_page_highmem(p));
	assert_true(km_page_to_pfn(f.m, p) >= km_nr_lowmem_pages(f.m));
	assert_null(km_page_address(f.m, p));
	v = km_kmap_atomic(f.t, p);
	assert_non_null(v);
	assert_int_equal(km_kmap_slots_held(f.m, 0), 1);
	memcpy(v, "kmap", 5);
	km_kunmap_atomic(f.t, v + 4095);
	assert_int_equal(km_kmap_slots_held(f.m, 0), 0);
	v = km_kmap_atomic(f.t, p);
	assert_string_equal(v, "kmap");
	km_kunmap_atomic(f.t, v);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.kmap_high, 2);
	assert_int_equal(ev.tlb_flushes, 2);	/* one per map, none on unmap */
	km_put_page(f.m, p);
	km_fixture_down(&f);
}

/* Slots 0..15 fit; the 17th overflows. kmap_atomic_idx_push() (v5.7)
 * BUG()s only with CONFIG_DEBUG_HIGHMEM; without it kmap_atomic maps
 * fixmap index FIX_KMAP_BEGIN + 16, on one CPU FIX_TEXT_POKE0. */
static void kmap_overflow(bool debug, enum km_report_code code)
{
	struct km_machine_config c = highmem_cfg;
	struct km_fixture f;
	struct km_page *p[KM_TYPE_NR + 1];
	void *v[KM_TYPE_NR + 1];

	c.kmap_debug = debug;
	km_fixture_up(&f, &c);
	for (int i = 0; i <= KM_TYPE_NR; i++) {
		p[i] = km_alloc_page(f.m, KM_GFP_HIGHMEM);
		v[i] = km_kmap_atomic(f.t, p[i]);
		assert_int_equal(km_report_count(f.m, code), i < KM_TYPE_NR ? 0 : 1);
	}
	assert_int_equal(km_report_get(f.m, 0)->kind, KM_BUG);
	if (!debug)
		assert_non_null(strstr(km_report_get(f.m, 0)->message, "FIX_TEXT_POKE0"));
	for (int i = KM_TYPE_NR; i >= 0; i--)
		km_kunmap_atomic(f.t, v[i]);
	assert_int_equal(km_kmap_slots_held(f.m, 0), 0);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 1);
	for (int i = 0; i <= KM_TYPE_NR; i++)
		km_put_page(f.m, p[i]);
	km_reports_clear(f.m);
	km_fixture_down(&f);
}

static void test_kmap_overflow(void **state)
{
	kmap_overflow(true, KM_R_KMAP_OVERFLOW);	/* BUG_ON(idx >= KM_TYPE_NR) */
	kmap_overflow(false, KM_R_KMAP_CLOBBER);	/* maps over the next fixmap pte */
}

/* Out-of-order unmap: with CONFIG_DEBUG_HIGHMEM, BUG_ON(vaddr !=
 * __fix_to_virt(idx)); without it, the top slot is popped silently. */
static void lifo_violation(bool debug, unsigned long expect)
{
	struct km_machine_config c = highmem_cfg;
	struct km_fixture f;
	struct km_page *a, *b;
	void *va, *vb;

	c.kmap_debug = debug;
	km_fixture_up(&f, &c);
	a = km_alloc_page(f.m, KM_GFP_HIGHMEM);
	b = km_alloc_page(f.m, KM_GFP_HIGHMEM);
	va = km_kmap_atomic(f.t, a);
	vb = km_kmap_atomic(f.t, b);
	km_kunmap_atomic(f.t, va);	/* top slot maps b */
	km_kunmap_atomic(f.t, vb);	/* top slot now maps a */
	assert_int_equal(km_report_count(f.m, KM_R_KMAP_ORDER), expect);
	assert_int_equal(km_kmap_slots_held(f.m, 0), 0);
	km_put_page(f.m, a);
	km_put_page(f.m, b);
	km_reports_clear(f.m);
	km_fixture_down(&f);
}

static void test_kmap_lifo_violation_debug(void **state)
{
	lifo_violation(true, 2);
}

static void test_kmap_lifo_violation_silent(void **state)
{
	lifo_violation(false, 0);
}

/* A kunmap_atomic() under CONFIG_DEBUG_HIGHMEM whose top slot lies past
 * the modelled fixmap ptes (35 nested maps: 16 slots, FIX_TEXT_POKE0/1 and
 * the 16 indices after them): the kmap_order report says the slot maps
 * nothing, not "pfn 18446744073709551615" */
static void test_kmap_order_names_no_page(void **state)
{
	struct km_fixture *f = *state;
	enum { N = KM_TYPE_NR + 2 + KM_TYPE_NR + 1 };
	struct km_page *p[N];
	void *v[N];
	bool said = false;

	for (int i = 0; i < N; i++) {
		p[i] = km_alloc_page(f->m, KM_GFP_HIGHMEM);
		v[i] = km_kmap_atomic(f->t, p[i]);
	}
	for (int i = N - 1; i >= 0; i--)
		km_kunmap_atomic(f->t, v[i]);
	assert_true(km_report_count(f->m, KM_R_KMAP_ORDER) > 0);
	for (size_t i = 0; i < km_report_log_len(f->m); i++) {
		const struct km_report *r = km_report_get(f->m, i);

		assert_null(strstr(r->message, "18446744073709551615"));
		said |= r->code == KM_R_KMAP_ORDER && strstr(r->message, "maps nothing") != NULL;
	}
	assert_true(said);
	for (int i = 0; i < N; i++)
		km_put_page(f->m, p[i]);
	km_reports_clear(f->m);
}

/* Does a logged report of @code say @text? */
static bool report_says(struct km_machine *m, enum km_report_code code, const char *text)
{
	for (size_t i = 0; i < km_report_log_len(m); i++) {
		const struct km_report *r = km_report_get(m, i);

		if (r->code == code && strstr(r->message, text))
			return true;
	}
	return false;
}

static void test_kunmap_unbalanced(void **state)
{
	struct km_fixture *f = *state;
	struct km_page *p;

	p = km_alloc_page(f->m, KM_GFP_HIGHMEM);
	km_kunmap_atomic(f->t, km_kmap_atomic(f->t, p));
	km_kunmap_atomic(f->t, (char *)km_kmap_atomic(f->t, p));
	/* a second unmap of the same address with no slot held */
	{
		void *v = km_kmap_atomic(f->t, p);

		km_kunmap_atomic(f->t, v);
		km_kunmap_atomic(f->t, v);
	}
	assert_int_equal(km_report_count(f->m, KM_R_KMAP_UNBALANCED), 1);
	/* named as the call the code made, not "kunmap(...)";
	 * without CONFIG_DEBUG_HIGHMEM (kmap_debug) v5.7 does not BUG: the
	 * message says so */
	assert_true(report_says(f->m, KM_R_KMAP_UNBALANCED, "kunmap_atomic("));
	assert_true(report_says(f->m, KM_R_KMAP_UNBALANCED, "without CONFIG_DEBUG_HIGHMEM"));
	assert_int_equal(km_report_count(f->m, KM_R_ATOMIC_UNBALANCED), 2);	/* pf + preempt */
	assert_int_equal(km_preempt_count(f->t), 0);
	km_put_page(f->m, p);
	km_reports_clear(f->m);
}

/* On a 5.11 machine the second kunmap_local() is named as that, with the
 * pop that BUGs (84bad80; mutant kunmap-unbalanced-era named every era's
 * kunmap_atomic()) */
static void test_kunmap_local_unbalanced(void **state)
{
	struct km_fixture *f = *state;
	struct km_page *p;
	void *v;

	p = km_alloc_page(f->m, KM_GFP_HIGHMEM);
	v = km_kmap_local_page(f->t, p);
	km_kunmap_local(f->t, v);
	km_kunmap_local(f->t, v);
	assert_int_equal(km_report_count(f->m, KM_R_KMAP_UNBALANCED), 1);
	assert_true(report_says(f->m, KM_R_KMAP_UNBALANCED, "kunmap_local("));
	assert_true(report_says(f->m, KM_R_KMAP_UNBALANCED, "kmap_local_idx_pop() BUGs"));
	km_put_page(f->m, p);
	km_reports_clear(f->m);
}

/* with CONFIG_DEBUG_HIGHMEM (kmap_debug) v5.7's kmap_atomic_idx_pop()
 * BUGs on idx < 0, and the report says that */
static void test_kunmap_unbalanced_debug(void **state)
{
	struct km_fixture *f = *state;
	struct km_page *p;
	void *v;

	p = km_alloc_page(f->m, KM_GFP_HIGHMEM);
	v = km_kmap_atomic(f->t, p);
	km_kunmap_atomic(f->t, v);
	km_kunmap_atomic(f->t, v);
	assert_int_equal(km_report_count(f->m, KM_R_KMAP_UNBALANCED), 1);
	assert_true(report_says(f->m, KM_R_KMAP_UNBALANCED,
				"kmap_atomic_idx_pop() BUGs on idx < 0 (CONFIG_DEBUG_HIGHMEM)"));
	km_put_page(f->m, p);
	km_reports_clear(f->m);
}

static void test_teardown_pinned_page_and_kmap(void **state)
{
	struct km_fixture f;
	struct km_page *p, *h;
	unsigned long a;
	void *v;

	km_fixture_up(&f, &highmem_cfg);
	a = km_test_map(&f, 0, 1, RW);
	assert_int_equal(km_pin_user_pages_fast(f.t, a, 1, KM_FOLL_WRITE, &p), 1);
	h = km_alloc_page(f.m, KM_GFP_HIGHMEM);
	v = km_kmap_atomic(f.t, h);
	km_mm_get(f.mm);
	km_task_switch(NULL);
	km_task_free(f.t);	/* exits inside kmap_atomic: LEAK_ATOMIC */
	km_mm_put(f.mm);	/* unmaps: the pinned page stays referenced */
	assert_int_equal(km_report_count(f.m, KM_R_LEAK_ATOMIC), 1);
	assert_int_equal(km_machine_check(f.m), 3);
	assert_int_equal(km_report_count(f.m, KM_R_LEAK_KMAP), 1);
	assert_int_equal(km_report_count(f.m, KM_R_LEAK_PAGE), 2);	/* pinned + h */
	/* the refcount decoded: the pin left, the mapping's
	 * reference gone with the mm; h's one reference */
	assert_true(report_says(f.m, KM_R_LEAK_PAGE,
				"still referenced (pin_user_pages*(): no unpin_user_page()?): "
				"refcount 1024: as FOLL_PIN counts them 1 pin "
				"(GUP_PIN_COUNTING_BIAS 1024 each) and 0 other "
				"references, or 1024 plain references (page_maybe_dma_pinned()), "
				"mapcount 0"));
	assert_true(report_says(f.m, KM_R_LEAK_PAGE, "still referenced: refcount 1, mapcount 0"));
	(void)v;
	km_test_destroy_expecting(f.m, 3);
}

/*
 * 1024 plain references are no pin, though page_maybe_dma_pinned() (v5.7
 * include/linux/mm.h) cannot tell them apart: "possibly a false positive
 * due to having at least GUP_PIN_COUNTING_BIAS worth of normal page
 * references". The leak report says both readings (it said
 * "1 FOLL_PIN pin" for a page no gup had seen).
 */
static void test_leak_plain_references_not_only_pins(void **state)
{
	struct km_fixture *f = *state;
	struct km_page *p;

	p = km_alloc_page(f->m, 0);
	for (int i = 1; i < 1024; i++)
		km_get_page(f->m, p);
	km_machine_check(f->m);
	assert_int_equal(km_report_count(f->m, KM_R_LEAK_PAGE), 1);
	assert_true(report_says(f->m, KM_R_LEAK_PAGE,
				"refcount 1024: as FOLL_PIN counts them 1 pin (GUP_PIN_COUNTING_BIAS "
				"1024 each) and 0 other references, "
				"or 1024 plain references (page_maybe_dma_pinned()), "
				"mapcount 0"));
	/* no gup took them: no hint at a release */
	assert_false(report_says(f->m, KM_R_LEAK_PAGE, "unpin_user_page"));
	for (int i = 0; i < 1024; i++)
		km_put_page(f->m, p);
	km_reports_clear(f->m);
}

/*
 * The sleeping kmap()/kunmap() (arch/arm/mm/highmem.c, mm/highmem.c
 * kmap_high(), v5.7): might_sleep() first; a highmem page holds a pkmap
 * entry until kunmap(), one still held is a leak at teardown, a kunmap()
 * with none held is kunmap_high()'s BUG(); the mapping reaches the frame.
 */
static void test_kmap_sleeping(void **state)
{
	struct km_fixture *f = *state;
	struct km_page *h, *low;
	unsigned char *v;

	h = km_alloc_page(f->m, KM_GFP_HIGHMEM);
	low = km_alloc_page(f->m, 0);
	assert_true(km_page_highmem(h));
	v = km_kmap(f->t, h);
	assert_non_null(v);
	v[5] = 0x5a;
	{
		unsigned char *a = km_kmap_atomic(f->t, h);

		assert_int_equal(a[5], 0x5a);	/* the same frame */
		km_kunmap_atomic(f->t, a);
	}
	km_machine_check(f->m);
	assert_int_equal(km_report_count(f->m, KM_R_LEAK_KMAP), 1);
	assert_true(report_says(f->m, KM_R_LEAK_KMAP, "1 kmap() pkmap entry still held"));
	km_reports_clear(f->m);
	km_kunmap(f->t, h);
	km_machine_check(f->m);
	assert_int_equal(km_report_count(f->m, KM_R_LEAK_KMAP), 0);
	km_reports_clear(f->m);
	assert_ptr_equal(km_kmap(f->t, low), km_page_address(f->m, low));
	km_kunmap(f->t, low);
	km_kunmap(f->t, h);
	assert_int_equal(km_report_count(f->m, KM_R_KMAP_UNBALANCED), 1);
	km_preempt_disable(f->t);
	km_kunmap(f->t, (km_kmap(f->t, h), h));
	assert_int_equal(km_report_count(f->m, KM_R_SLEEP_IN_ATOMIC), 1);
	km_preempt_enable(f->t);
	km_reports_clear(f->m);
	km_put_page(f->m, h);
	km_put_page(f->m, low);
}

/*
 * The leak report's hint follows the gup the caller used: references that
 * get_user_pages_fast() (FOLL_GET) took want put_page(), not
 * unpin_user_page() (include/linux/mm.h, v5.7: "FOLL_PIN ... must be
 * released by unpin_user_page()"; FOLL_GET by put_page()), even at 1024 of
 * them, which page_maybe_dma_pinned() cannot tell from a pin.
 */
static void test_leak_hint_follows_the_gup(void **state)
{
	struct km_fixture *f = *state;
	struct km_page *p = NULL;
	unsigned long a;

	a = km_test_map(f, 0, 1, RW);
	for (int i = 0; i < 1024; i++)
		assert_int_equal(km_get_user_pages_fast(f->t, a, 1, KM_FOLL_WRITE, &p), 1);
	km_machine_check(f->m);
	assert_int_equal(km_report_count(f->m, KM_R_LEAK_PAGE), 1);
	assert_true(report_says(f->m, KM_R_LEAK_PAGE,
				"still referenced (get_user_pages*(): no put_page()?): refcount 1025: "
				"as FOLL_PIN counts them 1 pin (GUP_PIN_COUNTING_BIAS 1024 each) and 1 "
				"other reference, or 1025 plain references"));
	assert_false(report_says(f->m, KM_R_LEAK_PAGE, "unpin_user_page"));
	for (int i = 0; i < 1024; i++)
		km_put_page(f->m, p);
	km_reports_clear(f->m);
}

/*
 * kmap_atomic() and kmap_local_page() of another machine's page or of NULL
 * (the NULL that kmap returned crashed the host in the
 * caller's memcpy() at NULL + off). The kernel oopses at PageHighMem(page)
 * with CONFIG_HIGHMEM (else at the access through page_address(page); under
 * v5.11's FORCE_MAP it maps a wild pfn) with kmap_atomic()'s preempt and
 * pagefault counts raised
 * (arch/arm/mm/highmem.c, v5.7; include/linux/highmem-internal.h, v5.11).
 * The model: one KM_R_BAD_PAGE BUG per kmap and the machine's scratch
 * page, zeroed, page-aligned, writable over its whole page; no slot; the
 * kunmap takes it back (kmap_atomic's counts dropped, nothing popped, no
 * report). Both eras, strict and not.
 */
static void test_kmap_foreign_page(void **state)
{
	static const enum km_kmap_strict stricts[] = {
		KM_KMAP_STRICT_OFF, KM_KMAP_STRICT, KM_KMAP_STRICT_FORCE_MAP,
	};
	struct km_fixture f, g;
	struct km_page *p;

	km_fixture_up(&g, NULL);
	p = km_alloc_page(g.m, 0);
	for (size_t s = 0; s < G_N_ELEMENTS(stricts); s++)
		for (int era = 0; era < 2; era++) {
			struct km_page *bad[] = { p, NULL };
			unsigned char *v, *w;

			km_fixture_up(&f, &(struct km_machine_config){
				.ram_size = 64 << 20, .lowmem_size = 32 << 20,
				.kmap = era ? KM_KMAP_LOCAL : KM_KMAP_ATOMIC_PRE_5_11,
				.kmap_strict = stricts[s] });
			for (size_t b = 0; b < 2; b++) {
				v = km_kmap_atomic(f.t, bad[b]);
				assert_non_null(v);
				assert_int_equal((uintptr_t)v % 4096, 0);
				assert_int_equal(km_preempt_count(f.t), 1);
				assert_int_equal(km_pagefault_disabled(f.t), 1);
				assert_int_equal(km_kmap_slots_held(f.m, 0), 0);
				for (int i = 0; i < 4096; i++)
					assert_int_equal(v[i], 0);
				memset(v, 0xa5, 4096);		/* absorbed */
				/* a copy that also runs past it (or starts before
				 * it) by up to a page: absorbed too, no host crash */
				memset(v - 4096, 0x11, 4096);
				memset(v + 4096, 0x22, 4096);
				km_kunmap_atomic(f.t, v + 8);	/* any address in it */
				assert_int_equal(km_preempt_count(f.t), 0);
				assert_int_equal(km_pagefault_disabled(f.t), 0);
				if (!era)
					continue;
				w = km_kmap_local_page(f.t, bad[b]);
				assert_ptr_equal(w, v);		/* zeroed again */
				assert_int_equal(w[0], 0);
				assert_int_equal(w[4095], 0);
				memset(w, 0x5a, 4096);
				assert_int_equal(km_preempt_count(f.t), 0);
				km_kunmap_local(f.t, w);
			}
			assert_int_equal(km_report_count(f.m, KM_R_BAD_PAGE), era ? 4 : 2);
			assert_int_equal(km_report_count(f.m, KM_R_NONE), era ? 4 : 2);
			/* the oops where the kernel has it: at
			 * PageHighMem() with CONFIG_HIGHMEM, else at the access
			 * through page_address(); FORCE_MAP maps a wild pfn */
			assert_non_null(strstr(km_report_get(f.m, era ? 2 : 1)->message,
					       era && stricts[s] == KM_KMAP_STRICT_FORCE_MAP
					       ? "kmap_atomic(NULL): CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP "
						 "maps page_to_pfn(page), a wild pfn, without PageHighMem()"
					       : "kmap_atomic(NULL): NULL pointer dereference at "
						 "PageHighMem(page) with CONFIG_HIGHMEM, else at the caller's "
						 "access through page_address(NULL): a kernel oops"));
			assert_int_equal(km_kmap_slots_held(f.m, 0), 0);
			km_reports_clear(f.m);
			km_fixture_down(&f);
		}
	km_fixture_up(&f, NULL);
	assert_null(km_kmap_atomic(NULL, p));		/* no task: an error, no crash */
	assert_null(km_kmap_local_page(NULL, p));
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	km_fixture_down(&f);
	km_task_switch(g.t);
	km_put_page(g.m, p);
	km_fixture_down(&g);
}

/*
 * page_address() of NULL or of another machine's page (NULL
 * came back and ported code's memcpy(page_address(page) + 8, ...) through
 * the compatibility layer crashed the host). The kernel oopses (at
 * PageHighMem(page) with CONFIG_HIGHMEM, else at the access); the model:
 * a KM_R_BAD_PAGE BUG each and the bad-kmap page, zeroed, a page on each
 * side absorbing an overrun. A highmem page still gives NULL, as the
 * kernel's page_address() does, without a report; a lowmem page its frame.
 */
static void test_page_address_bad_page(void **state)
{
	struct km_fixture f, g;
	struct km_page *foreign, *high, *low;
	unsigned char *v;

	km_fixture_up(&g, NULL);
	km_fixture_up(&f, &highmem_cfg);
	foreign = km_alloc_page(g.m, 0);
	for (int i = 0; i < 2; i++) {
		v = km_page_address(f.m, i ? foreign : NULL);
		assert_non_null(v);
		assert_int_equal((uintptr_t)v % 4096, 0);
		assert_int_equal(v[0], 0);
		assert_int_equal(v[4095], 0);
		memset(v + 8, 0x5a, 4096);	/* runs past it: absorbed */
	}
	assert_int_equal(km_report_count(f.m, KM_R_BAD_PAGE), 2);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 2);
	assert_true(report_says(f.m, KM_R_BAD_PAGE, "page_address(NULL): NULL pointer dereference"));
	assert_true(report_says(f.m, KM_R_BAD_PAGE, "not a page of this machine"));
	assert_null(km_page_address(NULL, NULL));
	high = km_alloc_page(f.m, KM_GFP_HIGHMEM);
	low = km_alloc_page(f.m, 0);
	assert_true(km_page_highmem(high) && !km_page_highmem(low));
	assert_null(km_page_address(f.m, high));
	assert_non_null(km_page_address(f.m, low));
	assert_int_equal(km_report_count(f.m, KM_R_BAD_PAGE), 2);
	km_put_page(f.m, high);
	km_put_page(f.m, low);
	km_reports_clear(f.m);
	km_fixture_down(&f);
	km_task_switch(g.t);
	km_put_page(g.m, foreign);
	km_fixture_down(&g);
}

/*
 * the shared zero page must stay all zero (a machine
 * invariant, KM_R_ZERO_PAGE, checked by km_machine_check() and so at
 * teardown). get_user_pages_fast() without FOLL_WRITE of a page a read
 * fault mapped returns ZERO_PAGE(0) (follow_page_pte(), mm/gup.c v5.7);
 * writing through it -- a ported copy_to_user that forgot FOLL_WRITE --
 * changes what every untouched anonymous page reads, in every address
 * space, as it would in the kernel: the model lets that happen and the
 * check names it. Nothing was reported before.
 */
static void test_zero_page_written(void **state)
{
	struct km_fixture f;
	struct km_mm *mm2;
	struct km_task *t2;
	struct km_page *p;
	unsigned long a, b;
	char buf[5] = "";
	unsigned char *v;

	km_fixture_up(&f, NULL);
	a = km_test_map(&f, 0, 1, RW);
	assert_int_equal(km_user_access(f.t, a, buf, 1, false), 1);	/* the zero page */
	assert_int_equal(km_get_user_pages_fast(f.t, a, 1, 0, &p), 1);
	assert_int_equal(km_page_to_pfn(f.m, p), 0);
	v = km_kmap_atomic(f.t, p);
	memcpy(v + 8, "ZERO", 4);
	km_kunmap_atomic(f.t, v);
	km_put_page(f.m, p);
	/* another address space's fresh read-only mapping reads it */
	assert_int_equal(km_mm_new(f.m, &mm2), 0);
	assert_int_equal(km_task_new(f.m, mm2, 0, &t2), 0);
	km_mm_put(mm2);
	assert_int_equal(km_mmap(mm2, 0, 4096, RO, &b), 0);
	assert_int_equal(km_user_access(t2, b + 8, buf, 4, false), 4);
	assert_string_equal(buf, "ZERO");
	km_task_free(t2);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);	/* nothing said so far */
	km_task_switch(NULL);
	km_task_free(f.t);
	assert_int_equal(km_machine_check(f.m), 1);
	assert_int_equal(km_report_count(f.m, KM_R_ZERO_PAGE), 1);
	assert_true(report_says(f.m, KM_R_ZERO_PAGE,
				"the shared zero page (pfn 0) was written: 4 bytes not zero, the "
				"first at offset 8 (0x5a)"));
	assert_string_equal(km_report_code_name(KM_R_ZERO_PAGE), "zero_page");
	km_test_destroy_expecting(f.m, 1);
}

static void count_hook(struct km_task *t, void *arg)
{
	(void)t;
	++*(int *)arg;
}

/*
 * km_fault_after_gup() fires at the end of every lockless-gup
 * entry point that got pages -- get_user_pages_fast(), pin_user_pages_fast()
 * (its docstring said only the first), __get_user_pages_fast() with and
 * without FOLL_PIN -- with fast_gup or not (the slow-path fallback), and
 * not when nothing was got, nor for get_user_pages_remote()
 * (km_access_remote_vm()).
 */
static void test_fault_after_gup_entry_points(void **state)
{
	for (int fast = 0; fast < 2; fast++) {
		struct km_fixture f;
		struct km_page *p[2];
		unsigned long a;
		int fired = 0;
		char c;

		km_fixture_up(&f, &(struct km_machine_config){ .fast_gup = fast });
		a = km_test_map(&f, 0, 1, RW);
		km_fault_after_gup(f.m, count_hook, &fired);
		assert_int_equal(km_get_user_pages_fast(f.t, a, 1, KM_FOLL_WRITE, p), 1);
		assert_int_equal(fired, 1);
		assert_int_equal(km_pin_user_pages_fast(f.t, a, 1, KM_FOLL_WRITE, p + 1), 1);
		assert_int_equal(fired, 2);
		km_put_page(f.m, p[0]);
		km_unpin_user_page(f.m, p[1]);
		/* the page is resident now: the lockless walk alone gets it */
		assert_int_equal(km_get_user_pages_fast_only(f.t, a, 1, 0, p), fast);
		assert_int_equal(km_get_user_pages_fast_only(f.t, a, 1, KM_FOLL_PIN, p + 1), fast);
		assert_int_equal(fired, 2 + 2 * fast);
		if (fast) {
			km_put_page(f.m, p[0]);
			km_unpin_user_page(f.m, p[1]);
		}
		/* nothing got: no call */
		assert_int_equal(km_pin_user_pages_fast(f.t, a + 4096, 1, 0, p), -EFAULT);
		assert_int_equal(km_access_remote_vm(f.t, f.mm, a, &c, 1, 0), 1);
		assert_int_equal(fired, 2 + 2 * fast);
		km_fixture_down(&f);
	}
}

static void count_copy_hook(struct km_task *t, size_t n, void *arg)
{
	(void)t;
	*(size_t *)arg += n;
}

/*
 * The hooks of km_fault_after_gup() and km_fault_on_memcpy() stay off once
 * disarmed, by a NULL @fn or by km_fault_inject_reset() (machine.h: "NULL
 * disarms; km_fault_inject_reset() disarms too"), and arming again replaces
 * the argument.
 */
static void test_fault_hooks_disarm(void **state)
{
	struct km_fixture *f = *state;
	unsigned long a = km_test_map(f, 0, 1, RW);
	int fired = 0, fired2 = 0;
	size_t copied = 0, copied2 = 0;
	struct km_page *p;

	for (int how = 0; how < 2; how++) {
		km_fault_after_gup(f->m, count_hook, &fired);
		km_fault_after_gup(f->m, count_hook, &fired2);	/* replaces &fired */
		km_fault_on_memcpy(f->m, count_copy_hook, &copied);
		km_fault_on_memcpy(f->m, count_copy_hook, &copied2);
		assert_int_equal(km_get_user_pages_fast(f->t, a, 1, 0, &p), 1);
		km_put_page(f->m, p);
		km_event_memcpy(3);
		assert_int_equal(fired2, how + 1);
		assert_int_equal(copied2, 3 * (how + 1));
		if (how == 0) {
			km_fault_after_gup(f->m, NULL, NULL);
			km_fault_on_memcpy(f->m, NULL, NULL);
		} else {
			km_fault_inject_reset(f->m);
		}
		assert_int_equal(km_get_user_pages_fast(f->t, a, 1, 0, &p), 1);
		km_put_page(f->m, p);
		km_event_memcpy(5);
		assert_int_equal(fired2, how + 1);
		assert_int_equal(copied2, 3 * (how + 1));
	}
	assert_int_equal(fired, 0);
	assert_int_equal(copied, 0);
}

/*
 * km_fault_on_memcpy()'s hook runs from each copy it names (machine.h):
 * the compatibility layer's memcpy() and memset() and km_event_memcpy(),
 * with each one's byte count.
 */
static void test_copy_hook_sites(void **state)
{
	struct km_fixture *f = *state;
	char buf[16] = "0123456789", dst[16];
	size_t copied = 0;

	km_fault_on_memcpy(f->m, count_copy_hook, &copied);
	km_kernel_memcpy(dst, buf, 7);
	assert_int_equal(copied, 7);
	km_kernel_memset(dst, 0, 5);
	assert_int_equal(copied, 12);
	km_event_memcpy(3);
	assert_int_equal(copied, 15);
	km_fault_on_memcpy(f->m, NULL, NULL);
}

/*
 * km_fault_inject_reset() disarms the kmalloc failure (machine.h: "kmalloc
 * and gup succeed"), armed for the next call: the next kmalloc succeeds.
 */
static void test_fault_inject_reset_kmalloc(void **state)
{
	struct km_fixture *f = *state;
	void *obj;

	km_fault_fail_kmalloc_nth(f->m, 1);
	km_fault_inject_reset(f->m);
	obj = km_kmalloc(f->t, 32, KM_GFP_KERNEL);
	assert_non_null(obj);
	km_kfree(f->t, obj);
}

/*
 * Argument checks come before any use of the arguments, in every public
 * function of machine.h, mm.h, uaccess.h and current.h: a NULL machine,
 * task, mm, file, page or buffer is an error return (or a no-op, or 0),
 * never a host crash (km_mm_new(NULL, &mm) dereferenced the machine before
 * its own NULL check; found by fuzzing). Pages of another machine are
 * reported, not dereferenced.
 */
static void test_null_arguments(void **state)
{
	struct km_fixture f, g;
	struct km_machine_config c;
	struct km_events ev;
	struct km_mm *mm = (void *)1;
	struct km_file *file = (void *)1;
	struct km_page *p, *pages[1];
	unsigned long a = 7;
	char buf[8];

	km_fixture_up(&g, NULL);
	p = km_alloc_page(g.m, 0);		/* another machine's page */
	km_fixture_up(&f, NULL);
	/* machine.h */
	memset(&c, 0x5a, sizeof(c));
	km_machine_get_config(NULL, &c);
	km_machine_get_config(f.m, NULL);
	assert_int_equal(km_machine_check(NULL), 0);
	assert_int_equal(km_task_new(NULL, NULL, 0, NULL), -EINVAL);
	assert_null(km_task_machine(NULL));
	assert_null(km_task_mm(NULL));
	km_task_set_kernel_ds(NULL, true);
	assert_false(km_task_kernel_ds(NULL));
	km_preempt_disable(NULL);
	km_preempt_enable(NULL);
	km_pagefault_disable(NULL);
	km_pagefault_enable(NULL);
	assert_int_equal(km_preempt_count(NULL), 0);
	assert_int_equal(km_pagefault_disabled(NULL), 0);
	km_report(NULL, KM_BUG, KM_R_UNEXPECTED, "no machine");
	memset(&ev, 0x5a, sizeof(ev));
	km_events_get(NULL, &ev);
	assert_int_equal(ev.gup_calls, 0);
	km_events_get_sized(f.m, NULL, sizeof(ev));
	km_events_reset(NULL);
	assert_null(km_kmalloc(NULL, 8, 0));
	km_kfree(NULL, buf);
	assert_int_equal(km_ksize(NULL, buf), 0);
	km_fault_fail_kmalloc_nth(NULL, 1);
	km_fault_gup_limit(NULL, 1);
	km_fault_kmap_slots(NULL, 1);
	km_fault_inject_reset(NULL);
	km_fault_after_gup(NULL, NULL, NULL);
	km_fault_on_memcpy(NULL, NULL, NULL);
	/* mm.h: geometry and pages */
	assert_int_equal(km_page_size(NULL), 0);
	assert_int_equal(km_page_shift(NULL), 0);
	assert_int_equal(km_nr_pages(NULL), 0);
	assert_int_equal(km_nr_lowmem_pages(NULL), 0);
	assert_int_equal(km_task_size(NULL), 0);
	assert_int_equal(km_ram_resident_bytes(NULL), 0);
	assert_null(km_pfn_to_page(NULL, 0));
	assert_int_equal(km_page_to_pfn(NULL, p), ~0UL);
	assert_int_equal(km_page_to_pfn(f.m, p), ~0UL);	/* not of f.m */
	assert_int_equal(km_page_refcount(NULL), 0);
	assert_int_equal(km_page_mapcount(NULL), 0);
	assert_false(km_page_highmem(NULL));
	assert_false(km_page_dirty(NULL));
	assert_null(km_page_address(NULL, p));
	/* not f.m's pages: a bad_page BUG each and the scratch page */
	assert_ptr_equal(km_page_address(f.m, NULL), km_page_address(f.m, p));
	assert_null(km_alloc_page(NULL, 0));
	km_get_page(NULL, p);
	km_put_page(NULL, p);
	km_unpin_user_page(NULL, p);
	km_set_page_dirty(NULL, p);
	km_get_page(f.m, NULL);
	km_put_page(f.m, NULL);
	km_unpin_user_page(f.m, NULL);
	km_set_page_dirty(f.m, NULL);
	assert_int_equal(km_report_count(f.m, KM_R_BAD_PAGE), 6);
	km_reports_clear(f.m);
	/* address spaces and files */
	assert_int_equal(km_mm_new(NULL, &mm), -EINVAL);
	assert_int_equal(km_mm_new(f.m, NULL), -EINVAL);
	km_mm_get(NULL);
	km_mm_put(NULL);
	assert_int_equal(km_mmap(NULL, 0, 4096, RW, &a), -EINVAL);
	assert_int_equal(km_mmap(f.mm, 0, 4096, RW, NULL), -EINVAL);
	assert_int_equal(km_munmap(NULL, 0x10000, 4096), -EINVAL);
	assert_int_equal(km_mprotect(NULL, 0x10000, 4096, RW), -EINVAL);
	assert_int_equal(km_mm_fork(NULL, &mm), -EINVAL);
	assert_int_equal(km_mm_fork(f.mm, NULL), -EINVAL);
	assert_int_equal(km_file_new(NULL, 4096, &file), -EINVAL);
	assert_int_equal(km_file_new(f.m, 4096, NULL), -EINVAL);
	km_file_put(NULL);
	assert_null(km_file_page(NULL, 0));
	assert_int_equal(km_file_writeback(NULL), -EINVAL);
	assert_int_equal(km_mmap_file(f.mm, 0, 4096, RW, true, NULL, 0, &a), -EINVAL);
	assert_int_equal(km_follow_pte(NULL, 0x10000, NULL, NULL), -EINVAL);
	assert_int_equal(km_user_access(NULL, 0x10000, buf, 1, false), -EINVAL);
	assert_int_equal(km_user_access(f.t, 0x10000, NULL, 1, false), -EINVAL);
	assert_int_equal(km_mm_peek(NULL, 0x10000, buf, 1), -EINVAL);
	assert_int_equal(km_mm_peek(f.mm, 0x10000, NULL, 1), -EINVAL);
	/* gup and kmap */
	assert_int_equal(km_get_user_pages_fast(NULL, 0x10000, 1, 0, pages), -EINVAL);
	assert_int_equal(km_get_user_pages_fast(f.t, 0x10000, 1, 0, NULL), -EINVAL);
	assert_int_equal(km_pin_user_pages_fast(NULL, 0x10000, 1, 0, pages), -EINVAL);
	assert_int_equal(km_get_user_pages_fast_only(NULL, 0x10000, 1, 0, pages), -EINVAL);
	assert_null(km_kmap_atomic(NULL, p));
	km_kunmap_atomic(NULL, buf);
	assert_null(km_kmap_local_page(NULL, p));
	km_kunmap_local(NULL, buf);
	assert_int_equal(km_kmap_slots_held(NULL, 0), 0);
	/* page-table walk and locks */
	assert_null(km_mm_locks(NULL));
	assert_null(km_task_mm_locks(NULL));
	assert_non_null(km_pmd_offset(NULL, 0));
	km_spin_lock(NULL, &km_mm_locks(f.mm)->page_table_lock);
	km_spin_lock(f.t, NULL);
	km_spin_unlock(NULL, &km_mm_locks(f.mm)->page_table_lock);
	km_spin_unlock(f.t, NULL);
	km_down_read(NULL, &km_mm_locks(f.mm)->mmap_sem);
	km_down_read(f.t, NULL);
	km_up_read(NULL, &km_mm_locks(f.mm)->mmap_sem);
	km_up_read(f.t, NULL);
	assert_int_equal(km_pte_mkold_clean(NULL, 0x10000, KM_PTE_YOUNG), -EINVAL);
	/* uaccess.h */
	assert_int_equal(km_copy_from_user(NULL, &km_uaccess_direct, buf, 0x10000, 8), 8);
	assert_int_equal(km_copy_from_user(f.t, NULL, buf, 0x10000, 8), 8);
	assert_int_equal(km_copy_from_user(f.t, &km_uaccess_direct, NULL, 0x10000, 8), 8);
	assert_int_equal(km_copy_to_user(NULL, &km_uaccess_direct, 0x10000, buf, 8), 8);
	assert_int_equal(km_copy_to_user(f.t, &km_uaccess_direct, 0x10000, NULL, 8), 8);
	assert_int_equal(km_copyin(NULL, &km_uaccess_direct, buf, 0x10000, 8), 8);
	assert_int_equal(km_copyin(f.t, &km_uaccess_direct, NULL, 0x10000, 8), 8);
	assert_int_equal(km_copyout(NULL, &km_uaccess_direct, 0x10000, buf, 8), 8);
	assert_int_equal(km_copyout(f.t, &km_uaccess_direct, 0x10000, NULL, 8), 8);
	assert_int_equal(km_clear_user(NULL, 0x10000, 8), 8);
	assert_int_equal(km_clear_user_with(NULL, &km_uaccess_direct, 0x10000, 8), 8);
	assert_false(km_uaccess_access_ok(NULL, 0, 1));
	assert_null(km_uaccess_find(NULL));
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	assert_int_equal(km_preempt_count(f.t), 0);
	km_fixture_down(&f);
	km_task_switch(g.t);
	km_put_page(g.m, p);
	km_fixture_down(&g);
}

static void test_other_page_sizes(void **state)
{
	static const unsigned long sizes[] = { 16384, 65536 };

	for (size_t s = 0; s < 2; s++) {
		struct km_fixture f;
		struct km_page *pages[3];
		unsigned long a;

		km_fixture_up(&f, &(struct km_machine_config){ .page_size = sizes[s] });
		a = km_test_map(&f, 0, 3, RW);
		assert_int_equal(a % sizes[s], 0);
		assert_int_equal(km_get_user_pages_fast(f.t, a + sizes[s] - 1, 2, KM_FOLL_WRITE,
							pages), 2);
		assert_ptr_equal(pages[0], pte_page(&f, a));
		assert_ptr_equal(pages[1], pte_page(&f, a + sizes[s]));
		km_put_page(f.m, pages[0]);
		km_put_page(f.m, pages[1]);
		km_fixture_down(&f);
	}
}

/* What a harness reads of the model without modelling an access
 * (kmodel/mm.h): a read fault of anonymous memory maps ZERO_PAGE(0)
 * (do_anonymous_page(), mm/memory.c v5.7), a store lands in the frame the
 * pte maps, and zap_page_range() drops the pte so the next access faults. */
static void test_harness_reads(void **state)
{
	struct km_fixture *f = *state;
	unsigned long P = km_page_size(f->m), addr;
	struct km_page *p;
	unsigned char byte, *host;
	const unsigned char *z;

	assert_int_equal(km_mmap(f->mm, 0, 2 * P, KM_PROT_READ | KM_PROT_WRITE, &addr), 0);
	assert_int_equal(km_user_access(f->t, addr, &byte, 1, false), 1);
	assert_int_equal(km_follow_pte(f->mm, addr, NULL, &p), 0);
	assert_ptr_equal(p, km_zero_page(f->m));
	z = km_page_host(f->m, p);
	assert_non_null(z);
	for (unsigned long i = 0; i < P; i++)
		assert_int_equal(z[i], 0);
	assert_int_equal(km_zero_page_check(f->m), 0);

	assert_int_equal(km_user_access(f->t, addr + P + 5, "abc", 3, true), 3);
	assert_int_equal(km_follow_pte(f->mm, addr + P, NULL, &p), 0);
	assert_ptr_not_equal(p, km_zero_page(f->m));
	host = km_page_host(f->m, p);
	assert_memory_equal(host + 5, "abc", 3);

	assert_int_equal(km_zap_page_range(f->mm, addr + P, P), 0);
	assert_int_equal(km_follow_pte(f->mm, addr + P, NULL, &p), -ENOENT);
	assert_int_equal(km_follow_pte(f->mm, addr, NULL, &p), 0);	/* the vma and page 0 stay */
	assert_int_equal(km_user_access(f->t, addr + P + 5, &byte, 1, false), 1);
	assert_int_equal(byte, 0);	/* faulted in again: the zero page */

	assert_null(km_zero_page(NULL));
	assert_null(km_page_host(NULL, p));
	assert_null(km_page_host(f->m, NULL));
	assert_int_equal(km_zero_page_check(NULL), -EINVAL);
	assert_int_equal(km_zap_page_range(NULL, addr, P), -EINVAL);
	assert_int_equal(km_zap_page_range(f->mm, addr, ~0UL), -EINVAL);	/* wraps */
	assert_int_equal(km_err(-EDOM, "from %s", "a harness"), -EDOM);
	assert_string_equal(km_last_error(), "from a harness");
	km_set_error("%d", 7);
	assert_string_equal(km_last_error(), "7");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mmap_validation, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_harness_reads, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test(test_mmap_fallback_page_aligned),
		KM_TEST_CFG(test_mmap_first_fit_matches_walk, vmsplit_1g_cfg),
		cmocka_unit_test_setup_teardown(test_mmap_gap_above_many_holes, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_walk_after_missing_table, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_demand_zero_and_cow, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_gup_full_refcounts_back, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_gup_untouched_read_and_write, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_gup_partial_and_none, km_fixture_setup, km_fixture_teardown),
		KM_TEST_CFG(test_gup_and_mmap_counts_do_not_wrap, fast_gup_cfg),
		cmocka_unit_test_setup_teardown(test_gup_write_to_readonly, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test(test_gup_fast_foll_force_v5_7),
		KM_TEST_CFG(test_gup_fast_path, fast_gup_cfg),
		cmocka_unit_test_setup_teardown(test_gup_write_touch_dirties, km_fixture_setup, km_fixture_teardown),
		KM_TEST_CFG(test_gup_fast_write_to_readonly_pte, fast_gup_cfg),
		cmocka_unit_test(test_gup_fast_only),
		cmocka_unit_test_setup_teardown(test_foll_pin_bias, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test(test_page_alloc_lifo_zones_exhaustion),
		cmocka_unit_test_setup_teardown(test_double_put_page_is_reported, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test(test_bad_page_is_not_freed),
		cmocka_unit_test(test_teardown_zero_page_leak),
		cmocka_unit_test_setup_teardown(test_munmap_split_and_pinned_page, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_user_access_readonly_stops, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_kmap_lowmem_takes_no_slot, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test(test_kmap_highmem_slot_and_flush),
		cmocka_unit_test(test_kmap_overflow),
		cmocka_unit_test(test_kmap_lifo_violation_debug),
		cmocka_unit_test(test_kmap_lifo_violation_silent),
		KM_TEST_CFG(test_kmap_order_names_no_page, highmem_debug_cfg),
		KM_TEST_CFG(test_kunmap_unbalanced, highmem_cfg),
		KM_TEST_CFG(test_kunmap_unbalanced_debug, highmem_debug_cfg),
		KM_TEST_CFG(test_kunmap_local_unbalanced, highmem_local_cfg),
		cmocka_unit_test(test_teardown_pinned_page_and_kmap),
		KM_TEST_CFG(test_leak_plain_references_not_only_pins, highmem_cfg),
		KM_TEST_CFG(test_leak_hint_follows_the_gup, highmem_cfg),
		KM_TEST_CFG(test_kmap_sleeping, highmem_cfg),
		cmocka_unit_test(test_kmap_foreign_page),
		cmocka_unit_test(test_page_address_bad_page),
		cmocka_unit_test(test_fault_after_gup_entry_points),
		cmocka_unit_test_setup_teardown(test_fault_hooks_disarm, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_copy_hook_sites, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_fault_inject_reset_kmalloc, km_fixture_setup,
						km_fixture_teardown),
		cmocka_unit_test(test_zero_page_written),
		cmocka_unit_test(test_null_arguments),
		cmocka_unit_test(test_other_page_sizes),
		cmocka_unit_test(test_walk_events_on_faults),
	};

	return cmocka_run_group_tests_name("test_mm", tests, NULL, NULL);
}
