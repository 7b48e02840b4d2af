// SPDX-License-Identifier: GPL-2.0
/*
 * km_uaccess_conformance(): every expectation here is derived from the raw
 * contract of include/linux/uaccess.h (v5.7) and the suite's documented
 * layout (include/kmodel/conformance.h), never copied from a run:
 *  - direct and gup_kmap_fixed pass every case;
 *  - gup_kmap_rfc fails exactly the cases that start in an accessible page
 *    and run into an inaccessible one (its partial-pin flaw returns n),
 *    and the writes to the writeback edge's file that its missing
 *    set_page_dirty() loses;
 *  - deliberately broken variants make exactly the check they break fail;
 *  - kmodel-check prints the same numbers as JSON.
 */
#include "km_test.h"
#include <errno.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#define LEAK_SECOND_NO_PLUGIN	/* its ops only, registered by no one */
#include "plugins/leak_second.c"

#define MAX_N 128	/* the suite's default max_size */
#define RFC_N 64	/* max_size of the RFC's exact-failure run */

static const unsigned long page_sizes[] = { 4096, 16384, 65536 };

/* The offsets of the cases of size @n at edge @e (conformance.h): every
 * one in -M..M; at the COW and writeback edges only -M, -n - 1, -n,
 * -n + 1, -1, 0 and 1 that lie in -M..M, each once. Return: how many, in
 * @off (room for 2M + 1). */
static size_t offsets(enum km_conformance_edge e, long n, long M, long *off)
{
	size_t k = 0;

	for (long o = -M; o <= M; o++)
		if (e < KM_CONF_COW || o == -M || o == -n - 1 || o == -n || o == -n + 1 ||
		    o == -1 || o == 0 || o == 1)
			off[k++] = o;
	return k;
}

/* Cases of one page size in one context: 5 edges x 2 directions, every n
 * in 0..M, every offset in -M..M; the 2 sparse edges x 2 directions: for
 * M >= 4, n = 0: 4 offsets (-M, -1, 0, 1), n = 1: 5, n = 2: 6, n = 3..M-2:
 * 7, n = M - 1: 6, n = M: 5 -- 7M - 2 in all. */
static unsigned long cases_per_context(unsigned long M)
{
	return 2 * (KM_CONF_EDGE__COUNT - 2) * (2 * M + 1) * (M + 1) + 2 * 2 * (7 * M - 2);
}

/* Accessible bytes of [B + off, B + off + n) from its start, from the
 * layout of conformance.h and what a context allows: the leading edge is
 * a hole then a mapped page; the read-only zero page is readable; the
 * never-touched page is accessible where faults are handled (process
 * context: do_anonymous_page()) and not where faulthandler_disabled()
 * (include/linux/uaccess.h, v5.7); the adjacent edge's two resident
 * read/write pages are accessible in every context and direction; a store
 * to the COW edge's page only where faults are handled (its pte is
 * write-protected until the fault breaks COW: do_wp_page());
 * everything else stops at B (a hole, or a store to the read-only page;
 * the writeback edge's file page is dirty behind a writable pte). */
static unsigned long accessible(enum km_conformance_context ctx, int dir,
				enum km_conformance_edge e, long off, unsigned long n)
{
	if (e == KM_CONF_LEADING)
		return off >= 0 ? n : 0;
	if (e == KM_CONF_COW && dir == KM_CONF_TO_USER && ctx != KM_CONF_CTX_PROCESS)
		return 0;
	if (e == KM_CONF_ADJACENT || (e == KM_CONF_READONLY && dir == KM_CONF_FROM_USER) ||
	    (e == KM_CONF_UNTOUCHED && ctx == KM_CONF_CTX_PROCESS))
		return n;
	return off >= 0 ? 0 : MIN(n, (unsigned long)-off);
}

static void assert_clean(const struct km_uaccess_ops *ops, struct km_conformance_result *r,
			 unsigned long cases)
{
	assert_int_equal(r->cases, cases);
	for (size_t i = 0; i < r->list_len && i < 5; i++)
		print_message("%s: %s P=%lu %s %s off=%ld n=%lu N=%lu check %s\n", ops->name,
			      km_conformance_context_name(r->list[i].context),
			      r->list[i].page_size, km_conformance_dir_name(r->list[i].dir),
			      km_conformance_edge_name(r->list[i].edge), r->list[i].offset,
			      r->list[i].size, r->list[i].returned,
			      km_conformance_check_name(r->list[i].check));
	assert_int_equal(r->failures, 0);
	for (int c = 0; c < KM_CONF_CHECK__COUNT; c++)
		assert_int_equal(r->by_check[c], 0);
	assert_int_equal(r->reports, 0);
	assert_int_equal(r->list_len, 0);
	assert_null(r->list);
	km_conformance_result_clear(r);
}

/* every context (km_uaccess_conformance()) and each alone (_in()) */
static void assert_conforms(const struct km_uaccess_ops *ops, const struct km_conformance_opts *o,
			    unsigned long nr_page_sizes, unsigned long M)
{
	struct km_conformance_result r;

	assert_int_equal(km_uaccess_conformance(ops, o, &r), 0);
	assert_clean(ops, &r, nr_page_sizes * KM_CONF_CTX__COUNT * cases_per_context(M));
}

static void test_direct_conforms(void **state)
{
	assert_conforms(&km_uaccess_direct, NULL, 3, MAX_N);
}

/* gup_kmap_fixed in every context on the default machine, which has no
 * fast GUP: its pte-lock walk in atomic context (FIX(4)) where the
 * lockless __get_user_pages_fast() used before copied nothing (443,520
 * failing cases of the 3,182,688 the suite had before its adjacent edge) */
static void test_fixed_conforms(void **state)
{
	assert_conforms(&km_uaccess_gup_kmap_fixed, NULL, 3, MAX_N);
}

/* Highmem user pages (kmap slots taken), the lockless gup walk and the
 * kmap debug checks: the two conforming variants still conform, each
 * context run alone on its own machine, as kmodel-check runs them
 * (km_uaccess_conformance(), all contexts in one call on one machine per
 * page size, is the default machine's tests above: the same cases). */
static void test_conforms_highmem_fast_gup(void **state)
{
	struct km_machine_config cfg = { .ram_size = 16ULL << 20, .lowmem_size = 4ULL << 20,
					 .fast_gup = true, .kmap_debug = true };
	struct km_conformance_opts o = { .machine = &cfg, .max_size = 48 };
	const struct km_uaccess_ops *ops[] = { &km_uaccess_direct, &km_uaccess_gup_kmap_fixed };

	for (size_t i = 0; i < G_N_ELEMENTS(ops); i++) {
		for (int c = 0; c < KM_CONF_CTX__COUNT; c++) {
			struct km_conformance_result r;

			assert_int_equal(km_uaccess_conformance_in(ops[i], &o, c, &r, NULL, 0), 0);
			assert_clean(ops[i], &r, 3 * cases_per_context(48));
		}
	}
}

/* One key per (context, dir, edge, page size, offset, n, check). */
static gint64 case_key(int ctx, int dir, int edge, unsigned long P, long off, unsigned long n,
		       int check)
{
	return (((((((gint64)ctx * 2 + dir) * KM_CONF_EDGE__COUNT + edge) * 131072 + (gint64)P) * 4096 +
		  (off + 2048)) * 2048 + (gint64)n) * 4) + check;
}

/* What the faithful RFC returns, from its source: get_user_pages_fast()
 * pins every page of a range that is accessible in process context (its
 * slow path faults pages in whatever the context: the might_sleep() in
 * atomic context is a report, not a stop) and then buffer_op() copies it
 * all: 0; a partial pin puts the pages and returns n. */
static unsigned long rfc_returns(int dir, enum km_conformance_edge e, long off, unsigned long n)
{
	return accessible(KM_CONF_CTX_PROCESS, dir, e, off, n) == n ? 0 : n;
}

/* How many cases gup_kmap_rfc fails on the size check in context @ctx, on
 * the 3 page sizes, with max_size @M (see test_rfc_fails_exactly()): per
 * (page size, direction, edge) of a straddle, the sum over n of (n - 1);
 * per direction starting in the untouched page, n x (M + 1) offsets; a
 * range wholly in the COW page, sum over n >= 1 of (M - n + 1). In process
 * context 7 straddling (dir, edge) pairs: trailing and writeback both
 * ways, readonly to_user, cow both ways. Without faults the COW page takes
 * no store, so cow to_user's straddles are right (n) and its ranges within
 * the page wrong (the RFC faults COW broken and copies): 6 pairs, the
 * within-COW ranges, and 2 x (the untouched straddles and starts). The
 * COW and writeback edges at their sparse offsets (offsets()). */
static unsigned long rfc_failures(enum km_conformance_context ctx, unsigned long M)
{
	unsigned long straddles = M * (M - 1) / 2, starts = M * (M + 1);
	/* the sparse edges (M >= 4): straddling offsets -n + 1 and -1 (one
	 * for n = 2, none below); within the page -M, -n - 1 and -n (n = 1 ..
	 * M - 2; two for M - 1, one for M) */
	unsigned long sp_straddles = 2 * M - 3, sp_within = 3 * M - 3;

	return 3 * (ctx == KM_CONF_CTX_PROCESS ? 3 * straddles + 4 * sp_straddles
					       : 3 * straddles + 2 * (straddles + starts) +
							 3 * sp_straddles + sp_within);
}

/* The RFC's lost writes: put_page() without
 * set_page_dirty() after writing through its pin, with writeback between
 * the pin and the copy (the writeback edge): every to_user range wholly in
 * the file page (the RFC copies only those: a straddle is a partial pin,
 * nothing copied), n >= 1, in every context (its gup faults wherever):
 * a copy failure each, on the 3 page sizes, at the sparse offsets. */
static unsigned long rfc_lost(unsigned long M)
{
	return 3 * (3 * M - 3);	/* offsets -M, -n - 1, -n within (M >= 4) */
}

static bool rfc_loses(int dir, enum km_conformance_edge e, long off, unsigned long n)
{
	return e == KM_CONF_WRITEBACK && dir == KM_CONF_TO_USER && n >= 1 && off + (long)n <= 0;
}

/*
 * gup_kmap_rfc fails exactly the cases whose RFC return (rfc_returns())
 * lies outside what the contract allows in the context: N in
 * [n - avail, n - 1] for a range that straddles into the inaccessible
 * (0 when all is accessible, n when nothing is). In process context these
 * are the straddles of the trailing edge (both directions) and of the
 * read-only edge (copy_to_user): n >= 2, offsets -(n-1)..-1, where its
 * partial pin returns n. Where faults are not handled, also the
 * never-touched page's cases: the RFC faults it in and copies what it may
 * not (both directions, the straddles and every n >= 1 starting in it).
 * The adjacent edge adds none: the RFC pins both resident pages and
 * copies all, in every context. Where faults are not handled the COW
 * page takes no store: the RFC's slow path breaks COW and copies.
 * Besides the size check, only the copy check fails: the writeback edge's
 * lost writes (rfc_loses()), each a byte the file reads back as zero.
 * Nothing is written out of place. The RFC sleeps in atomic context and
 * runs the gup slow path with page faults disabled: reports in every
 * context but process.
 */
static void test_rfc_fails_exactly(void **state)
{
	const struct km_conformance_opts o = { .max_size = RFC_N };

	for (int ctx = 0; ctx < KM_CONF_CTX__COUNT; ctx++) {
		GHashTable *want = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
		struct km_conformance_result r;
		unsigned long expected = 0, lost = 0;
		long offs[2 * RFC_N + 1];

		for (size_t p = 0; p < G_N_ELEMENTS(page_sizes); p++)
			for (int d = 0; d <= KM_CONF_TO_USER; d++)	/* the raw directions */
				for (int e = 0; e < KM_CONF_EDGE__COUNT; e++)
					for (unsigned long n = 0; n <= RFC_N; n++)
						for (size_t i = 0, k = offsets(e, (long)n, RFC_N, offs);
						     i < k; i++) {
							long off = offs[i];
							unsigned long avail = accessible(ctx, d, e, off, n);
							unsigned long lo = n - avail, N = rfc_returns(d, e, off, n);
							unsigned long hi = avail ? (avail == n ? 0 : n - 1) : n;
							gint64 k = case_key(ctx, d, e, page_sizes[p], off,
									    n, KM_CONF_CHECK_SIZE);

							if (rfc_loses(d, e, off, n)) {
								gint64 kc = k - KM_CONF_CHECK_SIZE +
									    KM_CONF_CHECK_COPY;

								g_hash_table_add(want, g_memdup2(&kc, sizeof(kc)));
								lost++;
							}
							if (N >= lo && N <= hi)
								continue;
							g_hash_table_add(want, g_memdup2(&k, sizeof(k)));
							expected++;
						}
		assert_int_equal(expected, rfc_failures(ctx, RFC_N));
		assert_int_equal(lost, rfc_lost(RFC_N));
		assert_int_equal(km_uaccess_conformance_in(&km_uaccess_gup_kmap_rfc, &o, ctx, &r, NULL, 0), 0);
		assert_int_equal(r.cases, 3 * cases_per_context(RFC_N));
		assert_int_equal(r.failures, expected + lost);	/* no case fails both */
		assert_int_equal(r.by_check[KM_CONF_CHECK_SIZE], expected);
		assert_int_equal(r.by_check[KM_CONF_CHECK_SRC], 0);
		assert_int_equal(r.by_check[KM_CONF_CHECK_DST], 0);
		assert_int_equal(r.by_check[KM_CONF_CHECK_COPY], lost);
		/* in every context: it puts the pages it wrote clean
		 * (pin_not_dirtied); in the atomic ones it also sleeps */
		assert_true(r.reports > 0);
		assert_int_equal(r.list_len, expected + lost);
		for (size_t i = 0; i < r.list_len; i++) {
			const struct km_conformance_failure *f = &r.list[i];
			gint64 k = case_key(f->context, f->dir, f->edge, f->page_size, f->offset,
					    f->size, f->check);
			unsigned long avail = accessible(ctx, f->dir, f->edge, f->offset, f->size);

			assert_int_equal(f->context, ctx);
			if (!g_hash_table_remove(want, &k))
				fail_msg("unexpected failure: %s %s P=%lu %s off=%ld n=%lu check %s",
					 km_conformance_context_name(f->context),
					 km_conformance_dir_name(f->dir), f->page_size,
					 km_conformance_edge_name(f->edge), f->offset, f->size,
					 km_conformance_check_name(f->check));
			if (f->check == KM_CONF_CHECK_COPY) {	/* lost: the file reads zero */
				assert_int_equal(f->returned, 0);
				assert_int_equal(f->at, 0);
				assert_int_equal(f->got, 0);
				assert_true(f->expected_min != 0);
				continue;
			}
			assert_int_equal(f->returned, rfc_returns(f->dir, f->edge, f->offset, f->size));
			assert_int_equal(f->got, f->returned);
			assert_int_equal(f->expected_min, f->size - avail);
			assert_int_equal(f->expected_max,
					 avail ? (avail == f->size ? 0 : f->size - 1) : f->size);
		}
		assert_int_equal(g_hash_table_size(want), 0);
		km_conformance_result_clear(&r);
		assert_null(r.list);
		assert_int_equal(r.cases, 0);
		g_hash_table_destroy(want);
	}
}

/* max_listed caps the list, not the counts. */
static void test_max_listed(void **state)
{
	struct km_conformance_opts o = { .page_sizes = { 4096 }, .max_size = 16, .max_listed = 7 };
	struct km_conformance_result r;

	assert_int_equal(km_uaccess_conformance_in(&km_uaccess_gup_kmap_rfc, &o,
						   KM_CONF_CTX_PROCESS, &r, NULL, 0), 0);
	assert_int_equal(r.cases, cases_per_context(16));
	/* 3 (dir, edge) pairs x sum_{n=1..16} (n - 1), 4 sparse ones x
	 * (2 x 16 - 3), and the lost writes: 3 x 16 - 3 */
	assert_int_equal(r.failures, 3 * 16 * 15 / 2 + 4 * (2 * 16 - 3) + 3 * 16 - 3);
	assert_int_equal(r.list_len, 7);
	km_conformance_result_clear(&r);
}

/* ---- broken variants: each check catches what it is for ----------------- */

/* direct, then flip the first byte after the copied ones in the kernel
 * destination (raw copies must not zero-pad or touch the tail) */
static unsigned long tail_writer_from(void *to, unsigned long from, unsigned long n)
{
	unsigned long N = km_uaccess_direct.raw_copy_from_user(to, from, n);

	if (N)
		((unsigned char *)to)[n - N] ^= 0x5a;
	return N;
}

/* direct, then flip the byte just before the kernel destination, and the
 * first one after the copied bytes when some are left: two wrong places in
 * one case */
static unsigned long head_tail_writer_from(void *to, unsigned long from, unsigned long n)
{
	unsigned long N = km_uaccess_direct.raw_copy_from_user(to, from, n);

	((unsigned char *)to)[-1] ^= 0x5a;
	if (N)
		((unsigned char *)to)[n - N] ^= 0x5a;
	return N;
}

/* direct, then flip the first copied byte */
static unsigned long bad_data_from(void *to, unsigned long from, unsigned long n)
{
	unsigned long N = km_uaccess_direct.raw_copy_from_user(to, from, n);

	if (N < n)
		((unsigned char *)to)[0] ^= 0x5a;
	return N;
}

/* direct, then scribble on the kernel source */
static unsigned long src_writer_to(unsigned long to, const void *from, unsigned long n)
{
	unsigned long N = km_uaccess_direct.raw_copy_to_user(to, from, n);

	if (n)
		((unsigned char *)(void *)from)[0] ^= 0x5a;
	return N;
}

/* direct, then scribble on the byte past the kernel source: one past the
 * object it was given, which the suite's guard after the source sees */
static unsigned long src_past_writer_to(unsigned long to, const void *from, unsigned long n)
{
	unsigned long N = km_uaccess_direct.raw_copy_to_user(to, from, n);

	((unsigned char *)(void *)from)[n] ^= 0x5a;
	return N;
}

/* direct, but always claims N == 0 */
static unsigned long liar_from(void *to, unsigned long from, unsigned long n)
{
	km_uaccess_direct.raw_copy_from_user(to, from, n);
	return 0;
}

static unsigned long liar_to(unsigned long to, const void *from, unsigned long n)
{
	km_uaccess_direct.raw_copy_to_user(to, from, n);
	return 0;
}

#define M 16	/* max_size of the broken-variant runs: 4 KiB pages only */

/* Cases of one page size, every context, with a predicate on (dir,
 * avail, n). */
static unsigned long count_cases(bool (*pred)(int dir, unsigned long avail, unsigned long n))
{
	unsigned long c = 0;
	long offs[2 * M + 1];

	for (int ctx = 0; ctx < KM_CONF_CTX__COUNT; ctx++)
		for (int d = 0; d <= KM_CONF_TO_USER; d++)	/* the raw directions */
			for (int e = 0; e < KM_CONF_EDGE__COUNT; e++)
				for (unsigned long n = 0; n <= M; n++)
					for (size_t i = 0, k = offsets(e, (long)n, M, offs); i < k; i++)
						c += pred(d, accessible(ctx, d, e, offs[i], n), n);
	return c;
}

/* from_user cases where bytes are left (N > 0): the flipped tail byte */
static bool from_short(int d, unsigned long avail, unsigned long n)
{
	return d == KM_CONF_FROM_USER && avail < n;
}

/* every from_user case */
static bool from_any(int d, unsigned long avail, unsigned long n)
{
	return d == KM_CONF_FROM_USER;
}

/* from_user cases with a copied byte */
static bool from_copies(int d, unsigned long avail, unsigned long n)
{
	return d == KM_CONF_FROM_USER && avail > 0;
}

/* to_user cases with n > 0 */
static bool to_nonempty(int d, unsigned long avail, unsigned long n)
{
	return d == KM_CONF_TO_USER && n > 0;
}

/* every to_user case */
static bool to_any(int d, unsigned long avail, unsigned long n)
{
	return d == KM_CONF_TO_USER;
}

/* cases where N == 0 is wrong: not everything accessible */
static bool any_short(int d, unsigned long avail, unsigned long n)
{
	return avail < n;
}

static void expect_only(const char *name,
			unsigned long (*from)(void *, unsigned long, unsigned long),
			unsigned long (*to)(unsigned long, const void *, unsigned long),
			enum km_conformance_check check,
			bool (*pred)(int, unsigned long, unsigned long), bool others_zero)
{
	const struct km_uaccess_ops ops = {
		.size = KM_UACCESS_OPS_SIZE,
		.name = name,
		.raw_copy_from_user = from ? from : km_uaccess_direct.raw_copy_from_user,
		.raw_copy_to_user = to ? to : km_uaccess_direct.raw_copy_to_user,
	};
	struct km_conformance_opts o = { .page_sizes = { 4096 }, .max_size = M };
	struct km_conformance_result r;
	unsigned long want = count_cases(pred);

	assert_true(want > 0);
	assert_int_equal(km_uaccess_conformance(&ops, &o, &r), 0);
	assert_int_equal(r.cases, KM_CONF_CTX__COUNT * cases_per_context(M));
	assert_int_equal(r.by_check[check], want);
	for (size_t i = 0; i < r.list_len; i++)
		if (r.list[i].check == check && check != KM_CONF_CHECK_SIZE)
			assert_int_equal(r.list[i].got, r.list[i].expected_min ^ 0x5a);
	for (int c = 0; c < KM_CONF_CHECK__COUNT && others_zero; c++)
		if (c != (int)check)
			assert_int_equal(r.by_check[c], 0);
	if (others_zero)
		assert_int_equal(r.failures, want);
	km_conformance_result_clear(&r);
}

/* Variants broken on purpose, one named row each: the check each breaks
 * fails in exactly the cases @pred counts and, with @others_zero, no
 * other check fails. */
static const struct broken_row {
	const char *name;
	unsigned long (*from)(void *, unsigned long, unsigned long);
	unsigned long (*to)(unsigned long, const void *, unsigned long);
	enum km_conformance_check check;
	bool (*pred)(int, unsigned long, unsigned long);
	bool others_zero;
} broken_rows[] = {
	{ "tail_writer", tail_writer_from, NULL, KM_CONF_CHECK_DST, from_short, true },
	/* a write before the destination fails the dst check too, and a
	 * case with two wrong places counts once per check */
	{ "head_tail_writer", head_tail_writer_from, NULL, KM_CONF_CHECK_DST, from_any, true },
	{ "bad_data", bad_data_from, NULL, KM_CONF_CHECK_COPY, from_copies, true },
	{ "src_writer", NULL, src_writer_to, KM_CONF_CHECK_SRC, to_nonempty, true },
	/* a write just past the source (the guard after it) too, n == 0
	 * included (mutant conf-src-guard: only the n bytes were compared) */
	{ "src_past_writer", NULL, src_past_writer_to, KM_CONF_CHECK_SRC, to_any, true },
	/* claiming N == 0 when not all was accessible breaks the size check
	 * (the byte checks may fail too: what they see past the hole is not
	 * defined) */
	{ "liar", liar_from, liar_to, KM_CONF_CHECK_SIZE, any_short, false },
};

static void test_catches(void **state)
{
	const struct broken_row *r = *state;

	expect_only(r->name, r->from, r->to, r->check, r->pred, r->others_zero);
}

/* a variant that writes far past (or before) the suite's
 * kernel buffer used to write over the host's heap (kmodel-check
 * segfaulted, or went on with a corrupt heap). The buffers now lie between
 * red zones: each such case is a dst failure and the run measures how far
 * the writes went. Every byte written is flipped (^ 0x5a) so that the
 * extent is exact: @over bytes past dst + n, @under before dst. */
static unsigned long over_bytes, under_bytes;

static unsigned long overrun_from(void *to, unsigned long from, unsigned long n)
{
	unsigned long left = km_uaccess_direct.raw_copy_from_user(to, from, n);
	unsigned char *k = to;

	for (unsigned long i = 0; i < over_bytes; i++)
		k[n + i] ^= 0x5a;
	for (unsigned long i = 1; i <= under_bytes; i++)
		*(k - i) ^= 0x5a;
	return left;
}

static void expect_overrun(unsigned long over, unsigned long under)
{
	const struct km_uaccess_ops ops = {
		.size = KM_UACCESS_OPS_SIZE,
		.name = "overrun",
		.raw_copy_from_user = overrun_from,
		.raw_copy_to_user = km_uaccess_direct.raw_copy_to_user,
	};
	struct km_conformance_opts o = { .page_sizes = { 4096 }, .max_size = M };
	struct km_conformance_result r;

	over_bytes = over;
	under_bytes = under;
	assert_int_equal(km_uaccess_conformance(&ops, &o, &r), 0);
	assert_int_equal(r.by_check[KM_CONF_CHECK_DST], count_cases(from_any));
	assert_int_equal(r.by_check[KM_CONF_CHECK_SRC], 0);
	assert_int_equal(r.by_check[KM_CONF_CHECK_COPY], 0);
	assert_int_equal(r.kbuf_overrun, over);
	assert_int_equal(r.kbuf_underrun, under);
	km_conformance_result_clear(&r);
}

static void test_catches_kbuf_overrun(void **state)
{
	expect_overrun(4096 + M, 0);			/* ub2's: a page past the chunk */
	expect_overrun(1, 300);				/* before, past the 256-byte guard */
	expect_overrun(KM_CONFORMANCE_REDZONE, KM_CONFORMANCE_REDZONE);	/* the limit */
	(void)state;
}

/* copy_to_user through get_user_pages_fast() of each page and a
 * kmap_atomic() memcpy, then put_page(): with @gup_flags, and
 * set_page_dirty() before the put if @dirty (gup_kmap_fixed's shape) */
static unsigned long gup_copy_to(unsigned long to, const void *from, unsigned long n,
				 unsigned int gup_flags, bool dirty)
{
	struct km_task *t = km_current();
	struct km_machine *m = km_task_machine(t);
	unsigned long P = km_page_size(m);

	while (n) {
		unsigned long off = to & (P - 1), chunk = MIN(n, P - off);
		struct km_page *page;
		unsigned char *v;

		if (km_get_user_pages_fast(t, to, 1, gup_flags, &page) != 1)
			break;
		v = km_kmap_atomic(t, page);
		memcpy(v + off, from, chunk);
		km_kunmap_atomic(t, v);
		if (dirty)
			km_set_page_dirty(m, page);
		km_put_page(m, page);
		to += chunk;
		from = (const unsigned char *)from + chunk;
		n -= chunk;
	}
	return n;
}

/* kl_nowrite: copy_to_user pins without FOLL_WRITE */
static unsigned long nowrite_to(unsigned long to, const void *from, unsigned long n)
{
	return gup_copy_to(to, from, n, 0, true);
}

/* kl_nodirty: FOLL_WRITE, but no set_page_dirty() */
static unsigned long nodirty_to(unsigned long to, const void *from, unsigned long n)
{
	return gup_copy_to(to, from, n, KM_FOLL_WRITE, false);
}

/* to_user cases of the sparse edge @e that copy a byte into its page
 * (n >= 1, off < 0), of one page size */
static unsigned long sparse_writes(enum km_conformance_edge e)
{
	unsigned long c = 0;
	long offs[2 * M + 1];

	for (long n = 1; n <= M; n++)
		for (size_t i = 0, k = offsets(e, n, M, offs); i < k; i++)
			c += offs[i] < 0;
	return c;
}

/*
 * a copy_to_user that pins without FOLL_WRITE passed every
 * check but the size of the read-only edge, while it wrote into the page a
 * forked parent still shares and into the shared zero page, with no
 * report anywhere. Now (process context, where its pins fault): the COW
 * edge's parent sees its page changed -- a dst failure, on to_user COW
 * cases only (a case whose bytes happen to equal the parent's is not
 * one) -- and every write into the zero page (the read-only edge, the
 * untouched page a read fault maps) is a zero_page report.
 */
static void test_catches_write_without_foll_write(void **state)
{
	const struct km_uaccess_ops ops = {
		.size = KM_UACCESS_OPS_SIZE, .name = "nowrite",
		.raw_copy_from_user = km_uaccess_direct.raw_copy_from_user,
		.raw_copy_to_user = nowrite_to,
	};
	struct km_conformance_opts o = { .page_sizes = { 4096 }, .max_size = M };
	unsigned long by_code[KM_R__COUNT], dst = 0;
	struct km_conformance_result r;

	assert_int_equal(km_uaccess_conformance_in(&ops, &o, KM_CONF_CTX_PROCESS, &r, by_code,
						   KM_R__COUNT), 0);
	for (size_t i = 0; i < r.list_len; i++) {
		const struct km_conformance_failure *f = &r.list[i];

		if (f->check != KM_CONF_CHECK_DST)
			continue;
		assert_int_equal(f->edge, KM_CONF_COW);
		assert_int_equal(f->dir, KM_CONF_TO_USER);
		assert_true(f->offset < 0);
		dst++;
	}
	assert_int_equal(dst, r.by_check[KM_CONF_CHECK_DST]);
	assert_true(dst > sparse_writes(KM_CONF_COW) / 2 && dst <= sparse_writes(KM_CONF_COW));
	assert_int_equal(r.by_check[KM_CONF_CHECK_COPY], 0);
	assert_true(by_code[KM_R_ZERO_PAGE] > 0);
	assert_int_equal(by_code[KM_R_ZERO_PAGE], r.reports);
	for (size_t i = 0; i < r.first_reports_len; i++)
		assert_non_null(strstr(r.first_reports[i].message,
				       "the shared zero page (pfn 0) was written"));
	km_conformance_result_clear(&r);
}

/*
 * a copy_to_user that writes through its pin without
 * set_page_dirty() passed kmodel-check, though writeback between the pin
 * and the copy loses the write (test_mm_fidelity's
 * test_rfc_put_page_without_set_page_dirty). The writeback edge: exactly
 * its to_user cases that copy into the file page fail, on the copy check
 * (the file reads back zero where the source has none), in every context
 * where the pin succeeds -- process here; nothing else fails.
 */
static void test_catches_missing_set_page_dirty(void **state)
{
	const struct km_uaccess_ops ops = {
		.size = KM_UACCESS_OPS_SIZE, .name = "nodirty",
		.raw_copy_from_user = km_uaccess_direct.raw_copy_from_user,
		.raw_copy_to_user = nodirty_to,
	};
	struct km_conformance_opts o = { .page_sizes = { 4096 }, .max_size = M };
	struct km_conformance_result r;

	assert_int_equal(km_uaccess_conformance_in(&ops, &o, KM_CONF_CTX_PROCESS, &r, NULL, 0), 0);
	assert_int_equal(r.by_check[KM_CONF_CHECK_COPY], sparse_writes(KM_CONF_WRITEBACK));
	assert_int_equal(r.failures, sparse_writes(KM_CONF_WRITEBACK));
	for (size_t i = 0; i < r.list_len; i++) {
		assert_int_equal(r.list[i].edge, KM_CONF_WRITEBACK);
		assert_int_equal(r.list[i].dir, KM_CONF_TO_USER);
		assert_int_equal(r.list[i].got, 0);
	}
	assert_int_equal(r.reports, 0);
	km_conformance_result_clear(&r);
}

/* the teardown warnings of a run, kept instead of printed */
static void keep_warning(const gchar *domain, GLogLevelFlags level, const gchar *message,
			 gpointer list)
{
	g_ptr_array_add(list, g_strdup(message));
}

/* A variant that copies right but leaks a reference on the second page of
 * a copy_to_user whose two pages are resident and writable
 * (tests/plugins/leak_second.c). Only the adjacent edge has such copies:
 * every check passes, and the teardown of each context's machine finds
 * A2's frame still referenced once per to_user case straddling its start
 * (n >= 2, offsets -(n-1)..-1: M(M-1)/2 cases) -- one leak_page report,
 * nothing else. Before the adjacent edge this variant passed. */
static void test_catches_second_page_leak(void **state)
{
	struct km_conformance_opts o = { .page_sizes = { 4096 }, .max_size = M };
	gchar *want = g_strdup_printf("refcount %d,", M * (M - 1) / 2);

	for (int ctx = 0; ctx < KM_CONF_CTX__COUNT; ctx++) {
		GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
		guint id = g_log_set_handler("kmodel", G_LOG_LEVEL_WARNING, keep_warning, warnings);
		unsigned long by_code[KM_R__COUNT];
		struct km_conformance_result r;
		int err = km_uaccess_conformance_in(&leak_second, &o, ctx, &r, by_code, KM_R__COUNT);

		g_log_remove_handler("kmodel", id);
		assert_int_equal(err, 0);
		assert_int_equal(r.cases, cases_per_context(M));
		assert_int_equal(r.failures, 0);
		assert_int_equal(r.reports, 1);
		assert_int_equal(by_code[KM_R_LEAK_PAGE], 1);
		/* the result keeps the report's message (user report item 5:
		 * kmodel-check showed codes, never their messages) */
		assert_int_equal(r.first_reports_len, 1);
		assert_int_equal(r.first_reports[0].code, KM_R_LEAK_PAGE);
		assert_non_null(strstr(r.first_reports[0].message, want));
		assert_int_equal(warnings->len, 1);
		assert_non_null(strstr(g_ptr_array_index(warnings, 0), "leak_page"));
		assert_non_null(strstr(g_ptr_array_index(warnings, 0), want));
		g_ptr_array_free(warnings, TRUE);
		km_conformance_result_clear(&r);
	}
	g_free(want);
}

/* first_reports holds a run's first report of each code, once per code
 * however often it recurs (4216c04): the RFC sleeps in atomic context on
 * every copy of the atomic contexts, many reports of a few codes */
static void test_first_report_per_code(void **state)
{
	struct km_conformance_opts o = { .page_sizes = { 4096 }, .max_size = M };
	unsigned long by_code[KM_R__COUNT];
	struct km_conformance_result r;
	size_t codes = 0;

	assert_int_equal(km_uaccess_conformance_in(&km_uaccess_gup_kmap_rfc, &o, KM_CONF_CTX_ATOMIC,
						   &r, by_code, KM_R__COUNT), 0);
	assert_true(by_code[KM_R_SLEEP_IN_ATOMIC] > 1);
	for (int c = KM_R_NONE + 1; c < KM_R__COUNT; c++)
		codes += by_code[c] > 0;
	/* a code whose every report came past the machine's log (its
	 * pin_not_dirtied, after the sleeps) has no first report */
	assert_true(r.first_reports_len >= 1 && r.first_reports_len <= codes);
	assert_int_equal(r.first_reports[0].code, KM_R_SLEEP_IN_ATOMIC);
	for (size_t j = 0; j < r.first_reports_len; j++) {
		assert_true(by_code[r.first_reports[j].code] > 0);
		for (size_t k = 0; k < j; k++)
			assert_int_not_equal(r.first_reports[k].code, r.first_reports[j].code);
	}
	km_conformance_result_clear(&r);
	(void)state;
}

/* ---- arguments ----------------------------------------------------------- */

static void test_bad_arguments(void **state)
{
	const struct km_uaccess_ops half = { .size = KM_UACCESS_OPS_SIZE, .name = "half",
					     .raw_copy_from_user = liar_from };
	struct km_conformance_result r = { .cases = 99 };
	struct km_conformance_opts o = { .page_sizes = { 4096, 8192 } };

	assert_int_equal(km_uaccess_conformance(NULL, NULL, &r), -EINVAL);
	assert_int_equal(r.cases, 0);
	assert_int_equal(km_uaccess_conformance(&km_uaccess_direct, NULL, NULL), -EINVAL);
	assert_int_equal(km_uaccess_conformance(&half, NULL, &r), -EINVAL);
	/* an ops table without its size (built before .size existed, or
	 * not initialised): refused, and the message says what to do */
	{
		struct km_uaccess_ops nosize = km_uaccess_direct;

		nosize.size = 0;
		assert_int_equal(km_uaccess_conformance(&nosize, NULL, &r), -EINVAL);
		assert_non_null(strstr(km_last_error(), "KM_UACCESS_OPS_SIZE"));
		nosize.size = KM_UACCESS_OPS_MIN_SIZE;	/* the first version: accepted */
		o = (struct km_conformance_opts){ .page_sizes = { 4096 }, .max_size = 2 };
		assert_int_equal(km_uaccess_conformance(&nosize, &o, &r), 0);
		km_conformance_result_clear(&r);
		o = (struct km_conformance_opts){ .page_sizes = { 4096, 8192 } };
	}
	assert_int_equal(km_uaccess_conformance(&km_uaccess_direct, &o, &r), -EINVAL);
	assert_non_null(strstr(km_last_error(), "8192"));
	o = (struct km_conformance_opts){ .max_size = 1025 };
	assert_int_equal(km_uaccess_conformance(&km_uaccess_direct, &o, &r), -EINVAL);
	o = (struct km_conformance_opts){ .guard = (1UL << 20) + 1 };
	assert_int_equal(km_uaccess_conformance(&km_uaccess_direct, &o, &r), -EINVAL);
	/* a bad machine template: km_machine_new()'s error */
	o = (struct km_conformance_opts){ .machine = &(struct km_machine_config){ .nr_cpus = 99 } };
	assert_int_equal(km_uaccess_conformance(&km_uaccess_direct, &o, &r), -EINVAL);
	assert_null(r.list);
	assert_int_equal(r.cases, 0);
	km_conformance_result_clear(NULL);
	assert_string_equal(km_conformance_check_name(KM_CONF_CHECK__COUNT), "?");
	assert_string_equal(km_conformance_check_name(KM_CONF_CHECK_DST), "dst");
	assert_string_equal(km_conformance_edge_name(KM_CONF_UNTOUCHED), "untouched");
	assert_string_equal(km_conformance_context_name(KM_CONF_CTX_ATOMIC), "atomic");
	assert_string_equal(km_conformance_context_name(KM_CONF_CTX__COUNT), "?");
	r.cases = 99;
	assert_int_equal(km_uaccess_conformance_in(&km_uaccess_direct, NULL, KM_CONF_CTX__COUNT,
						   &r, NULL, 0), -EINVAL);
	assert_int_equal(r.cases, 0);
}

/* the caller's current task is left as it was */
static void test_current_task_kept(void **state)
{
	struct km_fixture *f = *state;
	struct km_conformance_opts o = { .page_sizes = { 4096 }, .max_size = 4 };
	struct km_conformance_result r;

	assert_int_equal(km_uaccess_conformance(&km_uaccess_direct, &o, &r), 0);
	assert_ptr_equal(km_current(), f->t);
	km_conformance_result_clear(&r);
}

/* ---- kmodel-check --json carries the library's numbers ------------------- */

#ifdef KMODEL_CHECK_PATH
static gint64 member_int(JsonObject *o, const char *name)
{
	assert_true(json_object_has_member(o, name));
	return json_object_get_int_member(o, name);
}

/* kmodel-check's JSON: per variant the totals and one run per machine and
 * context, each with the numbers of the contract (the default max_size
 * and page sizes: direct fails nothing, gup_kmap_rfc what rfc_failures()
 * counts, in the size check only; no reports in process context) and, for
 * what the contract leaves open -- gup_kmap_rfc's reports in atomic
 * context -- those km_uaccess_conformance_in() gives on the machine --help
 * describes (bbw: the default machine, kmap_debug on). */
static void test_cli_json(void **state)
{
	const char *argv[] = { KMODEL_CHECK_PATH, "uaccess", "--json", "--variant",
			       "gup_kmap_rfc,direct", "--machine", "bbw", "--context",
			       "process,atomic", "--raw-only", NULL };
	const struct km_machine_config bbw = { .kmap_debug = true };
	const struct km_conformance_opts o = { .machine = &bbw };
	static const enum km_conformance_context ctx[] = { KM_CONF_CTX_PROCESS,
							   KM_CONF_CTX_ATOMIC };
	gchar *out = NULL;
	gint status;
	GError *err = NULL;
	JsonParser *p = json_parser_new();
	JsonObject *root;
	JsonArray *vs;
	struct km_conformance_result r;

	assert_true(g_spawn_sync(NULL, (gchar **)argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
				 &out, NULL, &status, &err));
	assert_true(g_spawn_check_wait_status(status, NULL));	/* exit 0: rfc claims nothing */
	assert_true(json_parser_load_from_data(p, out, -1, NULL));
	root = json_node_get_object(json_parser_get_root(p));
	assert_int_equal(json_object_get_size(root), 3);	/* metadata, options, variants */
	assert_true(json_object_has_member(root, "metadata"));
	{	/* the options as asked, lists as given */
		JsonObject *opt = json_object_get_object_member(root, "options");

		assert_string_equal(json_object_get_string_member(opt, "variants"),
				    "gup_kmap_rfc,direct");
		assert_string_equal(json_object_get_string_member(opt, "machines"), "bbw");
		assert_string_equal(json_object_get_string_member(opt, "contexts"), "process,atomic");
		assert_int_equal(json_object_get_int_member(opt, "show"), 5);
		assert_int_equal(json_array_get_length(json_object_get_array_member(opt, "load")), 0);
	}
	{	/* the compiler flags, each once */
		JsonObject *md = json_object_get_object_member(root, "metadata");
		gchar **flags = g_strsplit(json_object_get_string_member(md, "cflags"), " ", -1);

		for (gchar **f = flags; *f; f++)
			for (gchar **g = f + 1; **f && *g; g++)
				if (!strcmp(*f, *g))
					fail_msg("cflags: %s twice", *f);
		g_strfreev(flags);
	}
	vs = json_object_get_array_member(root, "variants");
	assert_int_equal(json_array_get_length(vs), 2);
	for (guint i = 0; i < 2; i++) {
		JsonObject *v = json_array_get_object_element(vs, i);
		/* registry order: direct first */
		const struct km_uaccess_ops *ops = i ? &km_uaccess_gup_kmap_rfc : &km_uaccess_direct;
		JsonArray *runs = json_object_get_array_member(v, "runs");
		unsigned long cases = 0, failures = 0, reports = 0;

		/* name, origin, claims_conformance, contract, verdict, cases,
		 * failures, by_check, reports, kbuf_overrun, kbuf_underrun,
		 * reports_by_code, leak_checks, seconds, runs */
		assert_int_equal(json_object_get_size(v), 15);
		assert_string_equal(json_object_get_string_member(v, "contract"), "raw");
		assert_int_equal(member_int(v, "kbuf_overrun"), 0);
		assert_int_equal(member_int(v, "kbuf_underrun"), 0);
		assert_string_equal(json_object_get_string_member(v, "origin"), "builtin");
		assert_string_equal(json_object_get_string_member(v, "verdict"),
				    ops->claims_conformance ? "pass" : "no-claim");
		assert_int_equal(json_object_get_size(json_object_get_object_member(v, "leak_checks")),
				 6);
		assert_string_equal(json_object_get_string_member(v, "name"), ops->name);
		assert_int_equal(json_object_get_boolean_member(v, "claims_conformance"),
				 ops->claims_conformance);
		assert_true(json_object_get_double_member(v, "seconds") >= 0);
		assert_int_equal(json_array_get_length(runs), G_N_ELEMENTS(ctx));
		for (guint k = 0; k < G_N_ELEMENTS(ctx); k++) {
			JsonObject *run = json_array_get_object_element(runs, k);
			JsonObject *by = json_object_get_object_member(run, "by_check");

			JsonArray *first = json_object_get_array_member(run, "first_reports");

			/* machine, context, verdict, cases, failures, by_check,
			 * reports, kbuf_overrun, kbuf_underrun, reports_by_code,
			 * first_reports, leak_checks, seconds */
			assert_int_equal(json_object_get_size(run), 13);
			assert_string_equal(json_object_get_string_member(run, "machine"), "bbw");
			assert_string_equal(json_object_get_string_member(run, "context"),
					    km_conformance_context_name(ctx[k]));
			assert_int_equal(json_object_get_size(by), 4);
			memset(&r, 0, sizeof(r));
			r.cases = 3 * cases_per_context(MAX_N);
			if (ops == &km_uaccess_gup_kmap_rfc) {
				r.by_check[KM_CONF_CHECK_SIZE] = rfc_failures(ctx[k], MAX_N);
				r.by_check[KM_CONF_CHECK_COPY] = rfc_lost(MAX_N);
				r.failures = r.by_check[KM_CONF_CHECK_SIZE] + rfc_lost(MAX_N);
			}
			if (ops == &km_uaccess_gup_kmap_rfc) {	/* pin_not_dirtied: every context */
				struct km_conformance_result lib;

				assert_int_equal(km_uaccess_conformance_in(ops, &o, ctx[k], &lib,
									   NULL, 0), 0);
				assert_int_equal(lib.cases, r.cases);
				assert_int_equal(lib.failures, r.failures);
				assert_true(lib.reports > 0);
				r.reports = lib.reports;
				km_conformance_result_clear(&lib);
			}
			assert_int_equal(member_int(run, "cases"), r.cases);
			assert_int_equal(member_int(run, "failures"), r.failures);
			assert_int_equal(member_int(run, "reports"), r.reports);
			/* each code's first report, with its message */
			assert_int_equal(json_array_get_length(first) > 0, r.reports > 0);
			for (guint j = 0; j < json_array_get_length(first); j++) {
				JsonObject *f = json_array_get_object_element(first, j);

				assert_true(json_object_has_member(
					json_object_get_object_member(run, "reports_by_code"),
					json_object_get_string_member(f, "code")));
				assert_true(*json_object_get_string_member(f, "message"));
			}
			for (int c = 0; c < KM_CONF_CHECK__COUNT; c++)
				assert_int_equal(member_int(by, km_conformance_check_name(c)),
						 r.by_check[c]);
			cases += r.cases;
			failures += r.failures;
			reports += r.reports;
		}
		assert_int_equal(member_int(v, "cases"), cases);
		assert_int_equal(member_int(v, "failures"), failures);
		assert_int_equal(member_int(v, "reports"), reports);
	}
	g_object_unref(p);
	g_free(out);

	/* an unknown variant, machine or context is a usage error: exit 2 */
	for (int k = 4; k <= 8; k += 2) {
		const char *keep = argv[k];

		argv[k] = "nosuch";
		assert_true(g_spawn_sync(NULL, (gchar **)argv, NULL,
					 G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
					 NULL, NULL, NULL, &status, &err));
		assert_false(g_spawn_check_wait_status(status, &err));
		assert_true(g_error_matches(err, G_SPAWN_EXIT_ERROR, 2));
		g_clear_error(&err);
		argv[k] = keep;
	}
}
#endif

int main(void)
{
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_direct_conforms),
		cmocka_unit_test(test_fixed_conforms),
		cmocka_unit_test(test_conforms_highmem_fast_gup),
		cmocka_unit_test(test_rfc_fails_exactly),
		cmocka_unit_test(test_max_listed),
		cmocka_unit_test(test_catches_kbuf_overrun),
		cmocka_unit_test(test_catches_second_page_leak),
		cmocka_unit_test(test_catches_write_without_foll_write),
		cmocka_unit_test(test_catches_missing_set_page_dirty),
		cmocka_unit_test(test_first_report_per_code),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test_setup_teardown(test_current_task_kept, km_fixture_setup,
						km_fixture_teardown),
#ifdef KMODEL_CHECK_PATH
		cmocka_unit_test(test_cli_json),
#endif
	};
	GArray *rows = km_test_new_group();

	KM_TEST_ROWS(rows, test_catches, NULL, NULL, broken_rows);
	KM_TEST_CASES(tests, fixed, rows);

	return cmocka_run_group_tests_name("test_conformance", tests, NULL, NULL);
}
