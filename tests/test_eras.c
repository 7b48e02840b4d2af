// SPDX-License-Identifier: GPL-2.0
/*
 * mm eras (km_machine_config.mm_era): each bug reproduced in the era that
 * had it and gone in the one that fixed it, with the commits each era
 * follows (see enum km_mm_era):
 *  - CVE-2020-29374: fork, a read-only gup in the child, the child unmaps,
 *    the parent writes -- the child's pinned page shows the parent's write
 *    (4.8, 5.7); fixed by 17839856fd58 (5.8: the read gup breaks COW) and
 *    again by 09854ba94c6a (5.9: do_wp_page() copies a page with a
 *    reference);
 *  - a page pinned with FOLL_WRITE (FOLL_PIN) before fork leaves the parent
 *    at its next write, so the device's write reaches the child, not the
 *    parent (5.7, 5.8); fixed by 70e806e4e645 (5.9-rc7: copy at fork);
 *  - Dirty COW (CVE-2016-5195): a FOLL_FORCE write through /proc/self/mem
 *    to a read-only private file mapping, with MADV_DONTNEED at gup's
 *    retry, lands in the page cache (4.8); gone with 19be0eaffa3a's
 *    FOLL_COW (5.7 and the rest);
 * and the pieces they need: FOLL_FORCE, madvise(MADV_DONTNEED),
 * mprotect(PROT_NONE), a file's contents and what writeback wrote.
 */
#include "km_test.h"

#define MiB (1024UL * 1024)
#define RW (KM_PROT_READ | KM_PROT_WRITE)

/* a BeagleBone (no fast GUP) or a Cortex-A15 (fast GUP), in @era */
#define BBW(era) { .mm_era = KM_MM_ERA_##era }
#define A15(era) { .mm_era = KM_MM_ERA_##era, .ram_size = 64 * MiB, .lowmem_size = 32 * MiB, \
		   .fast_gup = true }

/*
 * A case on a machine of an era: the rows of each test's table (run as
 * named cases, KM_TEST_ROWS()) give the machine and what the era does.
 */
struct era_row {
	const char *name;
	struct km_machine_config c;
	int want;		/* the era's answer: the bug shows, the fix is in */
	/* Dirty COW's race: the attacker stops the @n-th time at @ip, and
	 * gets there when @reached is 1 (-1: not checked) */
	enum km_ipoint ip;
	unsigned int n;
	int reached;
};

/* the row's machine as the fixture: km_row(state) is the row */
static int era_setup(void **state)
{
	const struct era_row *row = *state;
	struct km_row_fixture *x = g_new0(struct km_row_fixture, 1);

	x->row = row;
	km_fixture_up(&x->f, &row->c);
	*state = x;
	return 0;
}

#define ERA_ROWS(tests, fn, rows) KM_TEST_ROWS(tests, fn, era_setup, km_fixture_teardown, rows)

/* the bytes of @p at @off (a device's or debugger's view of the frame) */
static void page_read(struct km_task *t, struct km_page *p, unsigned long off, void *buf,
		      size_t len)
{
	unsigned char *v = km_kmap_atomic(t, p);

	memcpy(buf, v + off, len);
	km_kunmap_atomic(t, v);
}

static void page_write(struct km_task *t, struct km_page *p, unsigned long off, const void *buf,
		       size_t len)
{
	unsigned char *v = km_kmap_atomic(t, p);

	memcpy(v + off, buf, len);
	km_kunmap_atomic(t, v);
}

/*
 * CVE-2020-29374 (Jann Horn, Project Zero issue 2045, the vmsplice case):
 * the parent writes "old" to an anonymous page and forks; the child takes
 * a read-only gup reference (vmsplice) and unmaps the page; the parent
 * writes "new". With v5.7's do_wp_page() the parent's page has mapcount 1
 * and is reused in place: the child's reference reads "new", the parent's
 * later data: the child's page shows "new".
 */
static const struct era_row cve_2020_29374_rows[] = {
	{ .name = "4.8, BeagleBone: leaked", .c = BBW(4_8), .want = 1 },
	{ .name = "4.8, Cortex-A15: leaked", .c = A15(4_8), .want = 1 },
	{ .name = "5.7, BeagleBone: leaked", .c = BBW(5_7), .want = 1 },
	{ .name = "5.7, Cortex-A15: leaked", .c = A15(5_7), .want = 1 },
	{ .name = "5.8, BeagleBone: 17839856fd58", .c = BBW(5_8), .want = 0 },
	{ .name = "5.8, Cortex-A15: 17839856fd58", .c = A15(5_8), .want = 0 },
	{ .name = "5.9, BeagleBone: 09854ba94c6a", .c = BBW(5_9), .want = 0 },
	{ .name = "5.9, Cortex-A15: 09854ba94c6a", .c = A15(5_9), .want = 0 },
};

static void test_cve_2020_29374_child_reads_parents_write(void **state)
{
	const struct era_row *row = km_row(state);	/* era_setup() */
	struct km_fixture f = *(struct km_fixture *)*state;
	struct km_mm *cmm;
	struct km_task *child;
	struct km_page *pinned;
	unsigned long a;
	char buf[8];
	bool leaked;

	a = km_test_map(&f, 0, 1, RW);
	assert_int_equal(km_user_access(f.t, a, "old", 4, true), 4);
	assert_int_equal(km_mm_fork(f.mm, &cmm), 0);
	assert_int_equal(km_task_new(f.m, cmm, 0, &child), 0);
	km_mm_put(cmm);
	assert_int_equal(km_get_user_pages_fast(child, a, 1, 0, &pinned), 1);
	assert_int_equal(km_munmap(cmm, a, km_page_size(f.m)), 0);
	assert_int_equal(km_user_access(f.t, a, "new", 4, true), 4);
	page_read(f.t, pinned, 0, buf, 4);
	leaked = strcmp(buf, "new") == 0;
	if (!leaked)
		assert_string_equal(buf, "old");
	km_put_page(f.m, pinned);
	km_task_free(child);
	if (row->want)
		assert_true(leaked);
	else
		assert_false(leaked);
}

/*
 * pin_user_pages(FOLL_WRITE) of a buffer for a device's DMA, then fork,
 * then the parent writes to the buffer, then the device writes to the
 * pinned page. Before 70e806e4e645 fork shares the pinned page COW and
 * the parent's write copies it away: the device's data lands in the page
 * only the child still maps (the parent never sees it, the child does).
 * From 5.9 the child gets its copy at fork and the parent keeps the pinned
 * page: its write and the device's both land where it reads.
 */
static const struct era_row pin_fork_rows[] = {
	{ .name = "5.7, BeagleBone: lost", .c = BBW(5_7), .want = 0 },
	{ .name = "5.7, Cortex-A15: lost", .c = A15(5_7), .want = 0 },
	{ .name = "5.8, BeagleBone: lost", .c = BBW(5_8), .want = 0 },
	{ .name = "5.8, Cortex-A15: lost", .c = A15(5_8), .want = 0 },
	{ .name = "5.9, BeagleBone: copied at fork", .c = BBW(5_9), .want = 1 },
	{ .name = "5.9, Cortex-A15: copied at fork", .c = A15(5_9), .want = 1 },
};

static void test_pin_fork_parent_loses_dma_70e806e4e645(void **state)
{
	const struct era_row *row = km_row(state);	/* era_setup() */
	bool fixed = row->want;
	struct km_fixture f = *(struct km_fixture *)*state;
	struct km_mm *cmm;
	struct km_task *child;
	struct km_page *pinned;
	unsigned long a;
	char parent[8], kid[8];

	a = km_test_map(&f, 0, 1, RW);
	assert_int_equal(km_user_access(f.t, a, "buf", 4, true), 4);
	assert_int_equal(km_pin_user_pages_fast(f.t, a, 1, KM_FOLL_WRITE, &pinned), 1);
	assert_int_equal(km_mm_fork(f.mm, &cmm), 0);
	assert_int_equal(km_task_new(f.m, cmm, 0, &child), 0);
	km_mm_put(cmm);
	assert_int_equal(km_user_access(f.t, a, "cpu", 4, true), 4);	/* the parent */
	page_write(f.t, pinned, 64, "dma", 4);				/* the device */
	assert_int_equal(km_user_access(f.t, a + 64, parent, 4, false), 4);
	assert_int_equal(km_user_access(child, a + 64, kid, 4, false), 4);
	if (fixed) {
		assert_string_equal(parent, "dma");
		assert_int_equal(kid[0], 0);
	} else {
		assert_int_equal(parent[0], 0);		/* lost for the parent */
		assert_string_equal(kid, "dma");	/* and seen by the child */
	}
	km_unpin_user_page(f.m, pinned);
	km_task_free(child);
}

/* v5.9's copy at fork needs both: the mm has pinned, and the page may be
 * pinned (a plain gup reference is not a pin). */
static const struct km_machine_config bbw_5_9 = BBW(5_9);

static void test_fork_copies_only_pinned_pages(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup_cfg(bbw_5_9) */
	struct km_mm *cmm;
	struct km_page *got, *pinned, *p0, *p1, *c0, *c1;
	unsigned long a, P;

	P = km_page_size(f.m);
	a = km_test_map(&f, 0, 2, RW);
	assert_int_equal(km_user_access(f.t, a, "a", 2, true), 2);
	assert_int_equal(km_user_access(f.t, a + P, "b", 2, true), 2);
	assert_int_equal(km_get_user_pages_fast(f.t, a, 1, 0, &got), 1);
	assert_int_equal(km_pin_user_pages_fast(f.t, a + P, 1, 0, &pinned), 1);
	assert_int_equal(km_mm_fork(f.mm, &cmm), 0);
	km_follow_pte(f.mm, a, NULL, &p0);
	km_follow_pte(f.mm, a + P, NULL, &p1);
	km_follow_pte(cmm, a, NULL, &c0);
	km_follow_pte(cmm, a + P, NULL, &c1);
	assert_ptr_equal(p0, c0);	/* shared COW */
	assert_ptr_not_equal(p1, c1);	/* copied */
	assert_int_equal(km_page_mapcount(p1), 1);
	km_mm_put(cmm);
	km_put_page(f.m, got);
	km_unpin_user_page(f.m, pinned);
}

/* do_wp_page(): v5.7 reuses an anonymous page whose mapcount is 1; v5.9
 * only when its refcount is 1 too, so a page with a gup reference is
 * copied at the owner's next write after a write-protect. */
static const struct era_row wp_reuse_rows[] = {
	{ .name = "5.7: mapcount 1, reused", .c = BBW(5_7), .want = 0 },
	{ .name = "5.9: refcount 2, copied", .c = BBW(5_9), .want = 1 },
};

static void test_do_wp_page_reuse_rule_09854ba94c6a(void **state)
{
	bool v5_9 = ((const struct era_row *)km_row(state))->want;	/* era_setup() */
	struct km_fixture *f = *state;
	struct km_page *got, *now;
	unsigned long a = km_test_map(f, 0, 1, RW);

	assert_int_equal(km_user_access(f->t, a, "x", 2, true), 2);
	assert_int_equal(km_get_user_pages_fast(f->t, a, 1, 0, &got), 1);
	assert_int_equal(km_mprotect(f->mm, a, 4096, KM_PROT_READ), 0);
	assert_int_equal(km_mprotect(f->mm, a, 4096, RW), 0);
	assert_int_equal(km_user_access(f->t, a, "y", 2, true), 2);
	km_follow_pte(f->mm, a, NULL, &now);
	if (v5_9)
		assert_ptr_not_equal(now, got);	/* copied: refcount 2 */
	else
		assert_ptr_equal(now, got);	/* reused: mapcount 1 */
	km_put_page(f->m, got);
}

/*
 * 5.8's forced COW break: a read-only gup of a COW-shared page (here the
 * parent's page after fork) breaks COW -- the lockless walk leaves the
 * read-only pte to the slow path, which turns FOLL_WRITE on -- so the gup
 * gets the parent's own new copy; v5.7 pins the shared page from the
 * lockless walk. The shared zero page is COW too: a read gup of a
 * never-written page allocates one in 5.8 and pins the zero page in 5.7.
 */
static const struct era_row read_gup_cow_rows[] = {
	{ .name = "5.7, Cortex-A15: pins the shared page", .c = A15(5_7), .want = 0 },
	{ .name = "5.8, Cortex-A15: breaks COW", .c = A15(5_8), .want = 1 },
};

static void test_5_8_read_gup_breaks_cow(void **state)
{
	bool v5_8 = ((const struct era_row *)km_row(state))->want;	/* era_setup() */
	struct km_fixture *f = *state;
	struct km_mm *cmm;
	struct km_page *p, *shared, *zero;
	struct km_events ev;
	unsigned long a = km_test_map(f, 0, 1, RW), z = km_test_map(f, 0, 1, RW);
	unsigned int flags;
	char byte;

	assert_int_equal(km_user_access(f->t, a, "x", 2, true), 2);
	assert_int_equal(km_mm_fork(f->mm, &cmm), 0);
	km_follow_pte(f->mm, a, NULL, &shared);
	km_events_reset(f->m);
	assert_int_equal(km_get_user_pages_fast(f->t, a, 1, 0, &p), 1);
	km_events_get(f->m, &ev);
	km_follow_pte(f->mm, a, &flags, NULL);
	if (v5_8) {
		assert_ptr_not_equal(p, shared);
		assert_int_equal(ev.gup_fast_pages, 0);
		assert_int_equal(ev.cow_breaks, 1);
		assert_true(flags & KM_PTE_WRITE);
	} else {
		assert_ptr_equal(p, shared);
		assert_int_equal(ev.gup_fast_pages, 1);
		assert_int_equal(ev.cow_breaks, 0);
		assert_false(flags & KM_PTE_WRITE);
	}
	km_put_page(f->m, p);
	km_mm_put(cmm);

	assert_int_equal(km_user_access(f->t, z, &byte, 1, false), 1);	/* the zero page */
	km_follow_pte(f->mm, z, &flags, &zero);
	assert_true(flags & KM_PTE_SPECIAL);
	assert_int_equal(km_get_user_pages_fast(f->t, z, 1, 0, &p), 1);
	if (v5_8)
		assert_ptr_not_equal(p, zero);
	else
		assert_ptr_equal(p, zero);
	km_put_page(f->m, p);
}

/* No pin_user_pages() before v5.6. */
static const struct km_machine_config a15_4_8 = A15(4_8);

static void test_4_8_has_no_pin(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup_cfg(a15_4_8) */
	struct km_page *p;
	unsigned long a;

	a = km_test_map(&f, 0, 1, RW);
	assert_int_equal(km_pin_user_pages_fast(f.t, a, 1, 0, &p), -EINVAL);
	assert_int_equal(km_get_user_pages_fast_only(f.t, a, 1, KM_FOLL_PIN, &p), -EINVAL);
	assert_int_equal(km_report_count(f.m, KM_R_UNEXPECTED), 2);
	km_reports_clear(f.m);
}

/* No FOLL_FORCE through the lockless gup entries in 4.8: v4.8's
 * get_user_pages_fast(start, nr_pages, int write, pages) and
 * __get_user_pages_fast(.., int write, ..) (mm/gup.c) could not be asked
 * for it (get_user_pages_fast() takes it from v5.6, f4000fdf435b). It was
 * taken silently: a forced write to a read-only private mapping through
 * gup_fast reached the 4.8 slow path's Dirty COW retry. Refused as pin_user_pages_fast() is there: a
 * KM_R_UNEXPECTED WARN and -EINVAL, nothing pinned or faulted; in 5.7
 * the same call pins the page its pte then maps. */
static const struct era_row gup_fast_force_rows[] = {
	{ .name = "4.8, BeagleBone: refused", .c = BBW(4_8), .want = 1 },
	{ .name = "4.8, Cortex-A15: refused", .c = A15(4_8), .want = 1 },
	{ .name = "5.7, BeagleBone: pinned", .c = BBW(5_7), .want = 0 },
	{ .name = "5.7, Cortex-A15: pinned", .c = A15(5_7), .want = 0 },
};

static void test_4_8_gup_fast_has_no_foll_force(void **state)
{
	const struct era_row *row = km_row(state);	/* era_setup() */
	const bool v5_7 = !row->want;
	struct km_fixture f = *(struct km_fixture *)*state;
	struct km_events ev;
	struct km_page *p, *old;
	unsigned long a;

	a = km_test_map(&f, 0, 1, RW);
	km_user_access(f.t, a, "x", 1, true);
	assert_int_equal(km_mprotect(f.mm, a, 4096, KM_PROT_READ), 0);
	km_follow_pte(f.mm, a, NULL, &old);
	km_events_reset(f.m);
	if (v5_7) {
		assert_int_equal(km_get_user_pages_fast(f.t, a, 1, KM_FOLL_WRITE | KM_FOLL_FORCE,
							&p), 1);
		km_follow_pte(f.mm, a, NULL, &old);
		assert_ptr_equal(p, old);
		km_put_page(f.m, p);
		assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
		return;
	}
	assert_int_equal(km_get_user_pages_fast(f.t, a, 1, KM_FOLL_WRITE | KM_FOLL_FORCE, &p),
			 -EINVAL);
	assert_int_equal(km_get_user_pages_fast(f.t, a, 1, KM_FOLL_FORCE, &p), -EINVAL);
	assert_int_equal(km_get_user_pages_fast_only(f.t, a, 1, KM_FOLL_FORCE, &p), -EINVAL);
	assert_int_equal(km_report_count(f.m, KM_R_UNEXPECTED), 3);
	km_reports_clear(f.m);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.gup_fast_pages + ev.gup_slow_pages + ev.cow_breaks + ev.page_faults, 0);
	km_follow_pte(f.mm, a, NULL, &p);
	assert_ptr_equal(p, old);
	/* without FOLL_FORCE, as before */
	assert_int_equal(km_get_user_pages_fast(f.t, a, 1, 0, &p), 1);
	assert_ptr_equal(p, old);
	km_put_page(f.m, p);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
}

/* ---- Dirty COW ------------------------------------------------------------- */

struct dirtycow {
	struct km_machine *m;
	struct km_mm *mm;
	struct km_task *attacker, *madviser;
	struct km_file *file;
	struct km_sched *s;
	unsigned long ro, P;
	long written;
	int madvised;
	const struct era_row *row;	/* the test's row, when a fixture */
};

/* write(/proc/self/mem) at the read-only mapping: mem_rw() ->
 * access_remote_vm(FOLL_FORCE | FOLL_WRITE) */
static void proc_self_mem_write(struct km_task *t, void *arg)
{
	struct dirtycow *d = arg;

	d->written = km_access_remote_vm(t, km_task_mm(t), d->ro, "EVIL", 4,
					 KM_FOLL_FORCE | KM_FOLL_WRITE);
}

static void madvise_dontneed(struct km_task *t, void *arg)
{
	struct dirtycow *d = arg;

	d->madvised = km_madvise(km_task_mm(t), d->ro, d->P, KM_MADV_DONTNEED);
}

/* A file "ORIGINAL..." on disk and in the page cache; the attacker's read-only
 * MAP_PRIVATE mapping of it; a madviser thread of the same process. */
static void dirtycow_up(struct dirtycow *d, const struct km_machine_config *c)
{
	struct km_task *setup;
	unsigned long w;

	memset(d, 0, sizeof(*d));
	assert_int_equal(km_machine_new(c, &d->m), 0);
	d->P = km_page_size(d->m);
	assert_int_equal(km_mm_new(d->m, &d->mm), 0);
	assert_int_equal(km_task_new(d->m, d->mm, 0, &setup), 0);
	assert_int_equal(km_task_new(d->m, d->mm, 0, &d->attacker), 0);
	assert_int_equal(km_task_new(d->m, d->mm, 0, &d->madviser), 0);
	km_mm_put(d->mm);
	assert_int_equal(km_file_new(d->m, d->P, &d->file), 0);
	assert_int_equal(km_mmap_file(d->mm, 0, d->P, RW, true, d->file, 0, &w), 0);
	assert_int_equal(km_user_access(setup, w, "ORIGINAL", 9, true), 9);
	assert_int_equal(km_munmap(d->mm, w, d->P), 0);
	assert_int_equal(km_file_writeback(d->file), 1);
	km_task_free(setup);
	assert_int_equal(km_mmap_file(d->mm, 0, d->P, KM_PROT_READ, false, d->file, 0, &d->ro), 0);
	assert_int_equal(km_sched_new(d->m, &d->s), 0);
	assert_int_equal(km_sched_add(d->s, d->attacker, "attacker", proc_self_mem_write, d), 0);
	assert_int_equal(km_sched_add(d->s, d->madviser, "madviser", madvise_dontneed, d), 0);
}

/* did the write reach the file (its page cache, then the disk)? */
static bool dirtycow_file_written(struct dirtycow *d)
{
	char cache[9], disk[9];
	bool hit;

	assert_int_equal(km_file_read(d->file, 0, cache, 9), 0);
	hit = memcmp(cache, "EVIL", 4) == 0;
	assert_string_equal(cache + 4, "INAL");	/* the rest as it was */
	km_file_writeback(d->file);
	assert_int_equal(km_file_read_disk(d->file, 0, disk, 9), 0);
	assert_memory_equal(disk, hit ? "EVILINAL" : "ORIGINAL", 9);
	return hit;
}

static void dirtycow_down(struct dirtycow *d)
{
	assert_int_equal(km_sched_free(d->s), 0);
	km_task_free(d->attacker);
	km_task_free(d->madviser);
	km_file_put(d->file);
	assert_int_equal(km_machine_destroy(d->m), 0);
}

/* the race on the row's machine: *state is an era_row before, the struct
 * dirtycow after */
static int dirtycow_setup(void **state)
{
	const struct era_row *row = *state;
	struct dirtycow *d = g_new(struct dirtycow, 1);

	dirtycow_up(d, &row->c);
	d->row = row;
	*state = d;
	return 0;
}

static int dirtycow_teardown(void **state)
{
	dirtycow_down(*state);
	g_free(*state);
	return 0;
}

/* The race: the attacker stops at the @n-th time it reaches @ip, the
 * madviser drops the mapping's pages there, the attacker goes on. */
static bool dirty_cow_race(struct dirtycow *d, enum km_ipoint ip, unsigned int n, bool *reached)
{
	char view[9];
	bool hit;

	*reached = km_sched_run_until(d->s, d->attacker, ip, n) == KM_SCHED_AT_POINT;
	assert_int_equal(km_sched_finish(d->s, d->madviser), KM_SCHED_DONE);
	assert_int_equal(km_sched_finish(d->s, d->attacker), KM_SCHED_DONE);
	assert_int_equal(d->written, 4);
	assert_int_equal(d->madvised, 0);
	hit = dirtycow_file_written(d);
	/* the attacker's own view: its write, unless the madvise came after it
	 * and dropped its private copy */
	assert_int_equal(km_access_remote_vm(d->attacker, d->mm, d->ro, view, 9, KM_FOLL_FORCE), 9);
	assert_memory_equal(view, *reached ? "EVILINAL" : "ORIGINAL", 9);
	return hit;
}

/* the race on a machine of its own */
static bool dirty_cow(const struct km_machine_config *c, enum km_ipoint ip, unsigned int n,
		      bool *reached)
{
	struct dirtycow d;
	bool hit;

	dirtycow_up(&d, c);
	hit = dirty_cow_race(&d, ip, n, reached);
	dirtycow_down(&d);
	return hit;
}

/* 4.8: MADV_DONTNEED at the retry after the COW fault -- FOLL_WRITE was
 * dropped, the retry faults the page-cache page in for reading and the
 * forced write lands in the file. Gone with FOLL_COW: the retry stays a
 * write and COWs again. */
static const struct era_row dirty_cow_rows[] = {
	{ .name = "4.8, at gup's retry #2: written", .c = BBW(4_8), .want = 1, .ip = KM_IP_GUP_RETRY, .n = 2, .reached = 1 },
	{ .name = "4.8, after the fault #2: written", .c = BBW(4_8), .want = 1, .ip = KM_IP_AFTER_FAULT, .n = 2, .reached = -1 },
	{ .name = "5.7, at gup's retry #2: COWs again", .c = BBW(5_7), .want = 0, .ip = KM_IP_GUP_RETRY, .n = 2, .reached = 1 },
	{ .name = "5.7, after the fault #2: COWs again", .c = BBW(5_7), .want = 0, .ip = KM_IP_AFTER_FAULT, .n = 2, .reached = -1 },
	{ .name = "5.8, at gup's retry #2: COWs again", .c = BBW(5_8), .want = 0, .ip = KM_IP_GUP_RETRY, .n = 2, .reached = 1 },
	{ .name = "5.8, after the fault #2: COWs again", .c = BBW(5_8), .want = 0, .ip = KM_IP_AFTER_FAULT, .n = 2, .reached = -1 },
	{ .name = "5.9, at gup's retry #2: COWs again", .c = BBW(5_9), .want = 0, .ip = KM_IP_GUP_RETRY, .n = 2, .reached = 1 },
	{ .name = "5.9, after the fault #2: COWs again", .c = BBW(5_9), .want = 0, .ip = KM_IP_AFTER_FAULT, .n = 2, .reached = -1 },
};

static void test_dirty_cow_19be0eaffa3a(void **state)
{
	struct dirtycow *d = *state;	/* dirtycow_setup() */
	const struct era_row *row = d->row;
	bool reached, hit = dirty_cow_race(d, row->ip, row->n, &reached);

	if (row->want)
		assert_true(hit);
	else
		assert_false(hit);
	if (row->reached >= 0)
		assert_true(reached);
}

/* The madviser also reads the mapping back in after dropping it: the page
 * cache page is mapped again, read-only and clean, before the attacker's
 * retry. FOLL_COW alone would let the forced write follow it; the
 * pte_dirty() check of can_follow_write_pte() (19be0eaffa3a: "use the pte
 * dirty flag to validate that the FOLL_COW flag is still valid") sends it
 * to COW again. */
static void madvise_and_read(struct km_task *t, void *arg)
{
	struct dirtycow *d = arg;
	char byte;

	madvise_dontneed(t, arg);
	km_user_access(t, d->ro, &byte, 1, false);
}

/* in each era: the write lands in the file (4.8) or not (the rest) */
static const struct era_row era_rows[] = {
	{ .name = "4.8: the write reaches the file", .c = BBW(4_8), .want = 1 },
	{ .name = "5.7: the file kept", .c = BBW(5_7), .want = 0 },
	{ .name = "5.8: the file kept", .c = BBW(5_8), .want = 0 },
	{ .name = "5.9: the file kept", .c = BBW(5_9), .want = 0 },
};

static void test_dirty_cow_pte_dirty_check(void **state)
{
	struct dirtycow *d = *state;	/* dirtycow_setup() */

	assert_int_equal(km_sched_free(d->s), 0);	/* a program of our own */
	assert_int_equal(km_sched_new(d->m, &d->s), 0);
	assert_int_equal(km_sched_add(d->s, d->attacker, "attacker", proc_self_mem_write, d), 0);
	assert_int_equal(km_sched_add(d->s, d->madviser, "madviser", madvise_and_read, d), 0);
	assert_int_equal(km_sched_run_until(d->s, d->attacker, KM_IP_GUP_RETRY, 2),
			 KM_SCHED_AT_POINT);
	assert_int_equal(km_sched_finish(d->s, d->madviser), KM_SCHED_DONE);
	assert_int_equal(km_sched_finish(d->s, d->attacker), KM_SCHED_DONE);
	assert_int_equal(dirtycow_file_written(d), d->row->want);
}

/* 5.8: a read gup of a read-only private file mapping is forced to write
 * without FOLL_FORCE; can_follow_write_pte() accepts the COW copy on
 * FOLL_COW and pte_dirty() alone (17839856fd58 dropped the FOLL_FORCE test,
 * else the lookup would fault for ever): the gup gets a private copy, the
 * page cache keeps the file. */
static const struct era_row read_gup_file_rows[] = {
	{ .name = "5.7: the page cache page", .c = BBW(5_7), .want = 0 },
	{ .name = "5.8: a private copy", .c = BBW(5_8), .want = 1 },
};

static void test_5_8_read_gup_of_readonly_file(void **state)
{
	bool v5_8 = ((const struct era_row *)km_row(state))->want;	/* era_setup() */
	struct km_fixture *f = *state;
	struct km_file *file;
	struct km_page *p;
	unsigned long ro;

	assert_int_equal(km_file_new(f->m, 4096, &file), 0);
	assert_int_equal(km_mmap_file(f->mm, 0, 4096, KM_PROT_READ, false, file, 0, &ro), 0);
	assert_int_equal(km_get_user_pages_fast(f->t, ro, 1, 0, &p), 1);
	if (v5_8)
		assert_ptr_not_equal(p, km_file_page(file, 0));
	else
		assert_ptr_equal(p, km_file_page(file, 0));
	km_put_page(f->m, p);
	km_file_put(file);
}

/* Every point and time the attacker reaches: in 4.8 only the window after
 * the second fault (the reused COW copy, FOLL_WRITE dropped) lets the
 * write through; in the other eras none does. Without the race the write
 * lands in the private copy in every era. */
static void test_dirty_cow_every_point(void **state)
{
	struct dirtycow *d = *state;	/* dirtycow_setup(): the race left out */
	const struct era_row *row = d->row;

	for (int ip = KM_IP_AFTER_FAULT; ip <= KM_IP_GUP_RETRY; ip++)
		for (unsigned int n = 1; n <= 4; n++) {	/* each on a machine of its own */
			bool reached, hit = dirty_cow(&row->c, ip, n, &reached);

			/* the COW fault and the COW reuse, each retried */
			if (n <= 2 && !reached)
				fail_msg("%s: the attacker never reached %s #%u", row->name,
					 km_ipoint_name(ip), n);
			if (hit != (row->want && n == 2))
				fail_msg("%s, madvise at %s #%u: the file %s", row->name,
					 km_ipoint_name(ip), n, hit ? "written" : "not written");
		}
	assert_int_equal(km_sched_finish(d->s, d->attacker), KM_SCHED_DONE);
	assert_false(dirtycow_file_written(d));
}

/* ---- the pieces ------------------------------------------------------------ */

/* FOLL_FORCE: ptrace writes a read-only private mapping (COW: the file is
 * untouched) and reads a PROT_NONE one; a shared read-only mapping it may
 * not write (not a COW mapping). Without FOLL_FORCE both are refused. */
static void test_foll_force(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_file *file;
	unsigned long priv, shared, none;
	char buf[8];

	assert_int_equal(km_file_new(f.m, 4096, &file), 0);
	assert_int_equal(km_mmap_file(f.mm, 0, 4096, KM_PROT_READ, false, file, 0, &priv), 0);
	assert_int_equal(km_mmap_file(f.mm, 0, 4096, KM_PROT_READ, true, file, 0, &shared), 0);
	none = km_test_map(&f, 0, 1, RW);
	assert_int_equal(km_user_access(f.t, none, "none", 5, true), 5);
	assert_int_equal(km_mprotect(f.mm, none, 4096, KM_PROT_NONE), 0);
	assert_int_equal(km_access_remote_vm(f.t, f.mm, priv, "bp", 3, KM_FOLL_WRITE), 0);
	assert_int_equal(km_access_remote_vm(f.t, f.mm, priv, "bp", 3,
					     KM_FOLL_WRITE | KM_FOLL_FORCE), 3);
	assert_int_equal(km_user_access(f.t, priv, buf, 3, false), 3);
	assert_string_equal(buf, "bp");
	assert_int_equal(km_file_read(file, 0, buf, 3), 0);
	assert_int_equal(buf[0], 0);		/* the file is untouched */
	assert_int_equal(km_access_remote_vm(f.t, f.mm, shared, "bp", 3,
					     KM_FOLL_WRITE | KM_FOLL_FORCE), 0);
	assert_int_equal(km_access_remote_vm(f.t, f.mm, none, buf, 5, 0), 0);
	assert_int_equal(km_access_remote_vm(f.t, f.mm, none, buf, 5, KM_FOLL_FORCE), 5);
	assert_string_equal(buf, "none");
	assert_int_equal(km_access_remote_vm(f.t, f.mm, none, buf, 5, 0x4), -EINVAL);
	km_file_put(file);
}

/* mprotect(PROT_NONE): the ptes stay but the user cannot reach them;
 * gup without FOLL_FORCE cannot either; PROT_READ gives them back. */
static const struct era_row prot_none_rows[] = {
	{ .name = "5.7, BeagleBone", .c = BBW(5_7) },
	{ .name = "5.7, Cortex-A15", .c = A15(5_7) },
};

static void test_mprotect_prot_none(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* era_setup() */
	struct km_page *p;
	unsigned int flags;
	unsigned long a;
	char buf[4];

	a = km_test_map(&f, 0, 1, RW);
	assert_int_equal(km_user_access(f.t, a, "abc", 4, true), 4);
	assert_int_equal(km_mprotect(f.mm, a, 4096, KM_PROT_NONE), 0);
	assert_int_equal(km_follow_pte(f.mm, a, &flags, NULL), 0);
	assert_false(flags & (KM_PTE_USER | KM_PTE_WRITE));
	assert_int_equal(km_user_access(f.t, a, buf, 4, false), 0);	/* SIGSEGV */
	assert_int_equal(km_get_user_pages_fast(f.t, a, 1, 0, &p), -EFAULT);
	assert_int_equal(km_copy_from_user(f.t, &km_uaccess_direct, buf, a, 4), 4);
	assert_int_equal(km_mprotect(f.mm, a, 4096, KM_PROT_READ), 0);
	assert_int_equal(km_user_access(f.t, a, buf, 4, false), 4);
	assert_string_equal(buf, "abc");
	assert_int_equal(km_user_access(f.t, a, "x", 1, true), 0);	/* read-only */
	assert_int_equal(km_mprotect(f.mm, a, 4096, KM_PROT_WRITE), -EINVAL);
}

/* madvise(MADV_DONTNEED): anonymous memory reads zeroes again, a private
 * file mapping the file again (its COW copy is gone); a hole makes it
 * -ENOMEM but the mapped parts are still zapped. */
static void test_madvise_dontneed(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_file *file;
	unsigned long anon, priv, P;
	char buf[4];

	P = km_page_size(f.m);
	assert_int_equal(km_file_new(f.m, P, &file), 0);
	anon = km_test_map(&f, 0, 1, RW);
	assert_int_equal(km_mmap_file(f.mm, anon + 2 * P, P, RW, false, file, 0, &priv), 0);
	assert_int_equal(km_user_access(f.t, anon, "ab", 3, true), 3);
	assert_int_equal(km_user_access(f.t, priv, "cd", 3, true), 3);
	assert_int_equal(km_madvise(f.mm, anon, P, KM_MADV_DONTNEED), 0);
	assert_int_equal(km_follow_pte(f.mm, anon, NULL, NULL), -ENOENT);
	assert_int_equal(km_user_access(f.t, anon, buf, 3, false), 3);
	assert_int_equal(buf[0], 0);
	/* anon, a hole, priv: -ENOMEM, priv zapped all the same */
	assert_int_equal(km_madvise(f.mm, anon, 3 * P, KM_MADV_DONTNEED), -ENOMEM);
	assert_int_equal(km_follow_pte(f.mm, priv, NULL, NULL), -ENOENT);
	assert_int_equal(km_user_access(f.t, priv, buf, 3, false), 3);
	assert_int_equal(buf[0], 0);		/* the file's bytes: zeroes */
	assert_int_equal(km_madvise(f.mm, anon, 0, KM_MADV_DONTNEED), 0);
	assert_int_equal(km_madvise(f.mm, anon + 1, P, KM_MADV_DONTNEED), -EINVAL);
	assert_int_equal(km_madvise(f.mm, anon, P, 3), -EINVAL);
	km_file_put(file);
}

/* A file's contents now and what writeback wrote. */
static void test_file_read_and_disk(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_file *file;
	unsigned long a, P;
	char buf[8];

	P = km_page_size(f.m);
	assert_int_equal(km_file_new(f.m, 2 * P, &file), 0);
	assert_int_equal(km_mmap_file(f.mm, 0, 2 * P, RW, true, file, 0, &a), 0);
	assert_int_equal(km_user_access(f.t, a + P - 2, "span", 5, true), 5);
	assert_int_equal(km_file_read(file, P - 2, buf, 5), 0);
	assert_string_equal(buf, "span");
	assert_int_equal(km_file_read_disk(file, P - 2, buf, 5), 0);
	assert_memory_equal(buf, "\0\0\0\0\0", 5);
	assert_int_equal(km_file_writeback(file), 2);
	assert_int_equal(km_file_read_disk(file, P - 2, buf, 5), 0);
	assert_string_equal(buf, "span");
	assert_int_equal(km_user_access(f.t, a + P, "X", 1, true), 1);
	assert_int_equal(km_file_read_disk(file, P, buf, 1), 0);
	assert_int_equal(buf[0], 'a');		/* written back before the store */
	assert_int_equal(km_file_read(file, 2 * P - 1, buf, 2), -EINVAL);
	assert_int_equal(km_file_read(file, 2 * P, buf, 0), 0);
	km_file_put(file);
}

static void test_era_config(void **state)
{
	struct km_machine *m;
	struct km_machine_config c = { .mm_era = 4 };

	assert_int_equal(km_machine_new(&c, &m), -EINVAL);
	assert_non_null(strstr(km_last_error(), "mm_era"));
}

int main(void)
{
	GArray *rows = km_test_new_group();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate_setup_teardown(test_fork_copies_only_pinned_pages,
							 km_fixture_setup_cfg, km_fixture_teardown,
							 (void *)&bbw_5_9),
		cmocka_unit_test_prestate_setup_teardown(test_4_8_has_no_pin, km_fixture_setup_cfg,
							 km_fixture_teardown, (void *)&a15_4_8),
		cmocka_unit_test_setup_teardown(test_foll_force, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_madvise_dontneed, km_fixture_setup,
						km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_file_read_and_disk, km_fixture_setup,
						km_fixture_teardown),
		cmocka_unit_test(test_era_config),
	};

	ERA_ROWS(rows, test_cve_2020_29374_child_reads_parents_write, cve_2020_29374_rows);
	ERA_ROWS(rows, test_pin_fork_parent_loses_dma_70e806e4e645, pin_fork_rows);
	ERA_ROWS(rows, test_do_wp_page_reuse_rule_09854ba94c6a, wp_reuse_rows);
	ERA_ROWS(rows, test_5_8_read_gup_breaks_cow, read_gup_cow_rows);
	ERA_ROWS(rows, test_4_8_gup_fast_has_no_foll_force, gup_fast_force_rows);
	KM_TEST_ROWS(rows, test_dirty_cow_19be0eaffa3a, dirtycow_setup, dirtycow_teardown,
		     dirty_cow_rows);
	KM_TEST_ROWS(rows, test_dirty_cow_every_point, dirtycow_setup, dirtycow_teardown, era_rows);
	KM_TEST_ROWS(rows, test_dirty_cow_pte_dirty_check, dirtycow_setup, dirtycow_teardown,
		     era_rows);
	ERA_ROWS(rows, test_5_8_read_gup_of_readonly_file, read_gup_file_rows);
	ERA_ROWS(rows, test_mprotect_prot_none, prot_none_rows);
	KM_TEST_CASES(all, tests, rows);
	return cmocka_run_group_tests_name("test_eras", all, NULL, NULL);
}
