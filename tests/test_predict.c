// SPDX-License-Identifier: GPL-2.0
/*
 * The store-aware cost model and its uncertainties (kmodel/cost.h, issue
 * 22): a profile pair that differs only in L1's allocation policy prices
 * clear_user() as that policy says; the kernel version, architecture and
 * CPU_USE_DOMAINS pick copy_to_user.S's stores as each era's source does
 * (f441882a5229, v5.0: stm without CPU_USE_DOMAINS); a core without L2;
 * the uncertainty lines and the draws made from them; the limit on
 * calibrated values; the shipped profiles stating every value's
 * uncertainty; the Feroceon profiles' direction for
 * CONFIG_UACCESS_WITH_MEMCPY, which follows from their mechanism.
 * Expected values are worked out from the contract in cost.h, by hand.
 */
#include "km_test.h"
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <inttypes.h>
#include <limits.h>
#include <unistd.h>

/* every priced event (kmodel/cost.h [cycles]) */
static const char *const events[] = {
	"syscalls", "page_faults", "cow_breaks", "pagecache_lookups", "pagecache_allocs",
	"pages_allocated", "pages_freed", "gup_calls", "gup_slow_calls", "gup_fast_pages",
	"gup_slow_pages", "follow_page_calls", "find_vma_calls", "mmap_sem_locks",
	"get_page_calls", "put_page_calls", "pt_walks", "kmap_high", "kmap_low", "kunmap_high",
	"kunmap_low", "tlb_flushes", "kmalloc_calls", "kfree_calls", "memcpy_calls",
	"memset_calls", "memmove_calls", "skb_allocs", "skb_clones", "skb_copies", "skb_frees",
	"urbs", "usb_packets", "eth_frames", "spin_locks", "pt_walks_sw", "urb_allocs",
	"usb_in_packets", "eth_rx_frames", "uaccess_pan_switches", "uaccess_range_masks",
	"gup_kmap_calls", "gup_kmap_pages", NULL
};

struct fixture {
	gchar *dir;	/* a temporary directory for the profiles and their paths table */
};

static int setup(void **state)
{
	struct fixture *f = g_new0(struct fixture, 1);

	f->dir = g_dir_make_tmp("kmpredict-XXXXXX", NULL);
	assert_non_null(f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	GDir *d = g_dir_open(f->dir, 0, NULL);
	const char *n;

	while (d && (n = g_dir_read_name(d))) {
		gchar *p = g_build_filename(f->dir, n, NULL);

		g_unlink(p);
		g_free(p);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(f->dir);
	g_free(f->dir);
	g_free(f);
	return 0;
}

/*
 * A profile with round numbers: 1000 Hz, 32-byte lines, a 16 KiB L1 and
 * no L2; the loops at 8 (stm copy and set) and 1 (one-word stores) bytes a
 * cycle; a DRAM line read in 64 cycles (2 a byte), written in 64 of which
 * 32 are a transaction's fixed part; a write buffer that does not merge
 * single stores; every event free. @kernel: the [kernel] group's version,
 * arch and cpu_use_domains lines (NULL: no [kernel] group), @extra:
 * further lines of [cache] (the allocation policy) and [memory].
 */
static gchar *write_profile(struct fixture *f, const char *name, const char *kernel,
			    const char *cache_extra, const char *l2)
{
	GString *s = g_string_new(NULL);
	gchar *path = g_strdup_printf("%s/%s.ini", f->dir, name);

	g_string_append_printf(s, "[profile]\nname=%s\nsummary=round numbers\n"
			       "[cpu]\n# a test value\nclock_hz=1000\n", name);
	if (kernel)
		g_string_append_printf(s, "[kernel]\n%s\n# a test value\npaths=kernel-paths\n"
				       "# a test value\ncycles_per_instruction=1\n", kernel);
	g_string_append_printf(s, "[cache]\n# a test value\nl1_bytes=16384\n# a test value\n"
			       "l2_bytes=%s\n# a test value\nline_bytes=32\n%s"
			       "[bandwidth]\n# a test value\ncopy_l1=8\n# a test value\nset_l1=8\n"
			       "# a test value\ncopy_word_l1=1\n# a test value\nset_word_l1=1\n"
			       "[memory]\n# a test value\nread_l2_cycles=0\n# a test value\n"
			       "read_mem_cycles=64\n# a test value\nwrite_mem_cycles=64\n"
			       "# a test value\nwrite_txn_cycles=32\n"
			       "[write_buffer]\n# a test value\nentries=4\n# a test value\n"
			       "entry_bytes=32\n# a test value\nmerge=0\n[cycles]\n",
			       l2 ? l2 : "0", cache_extra ? cache_extra : "");
	for (size_t i = 0; events[i]; i++)
		g_string_append_printf(s, "# a test value\n%s=0\n", events[i]);
	g_string_append(s, "[slab_debug]\n# a test value\nenabled=0\n# a test value\n"
			   "alloc_cycles_per_byte=0\n# a test value\nfree_cycles_per_byte=0\n"
			   "# a test value\nskb_head_bytes=0\n");
	assert_true(g_file_set_contents(path, s->str, -1, NULL));
	g_string_free(s, TRUE);
	return path;
}

/* @text with its first @find replaced by @repl (g_free) */
static gchar *replace_once(const char *text, const char *find, const char *repl)
{
	gchar **parts = g_strsplit(text, find, 2), *out;

	assert_non_null(parts[1]);
	out = g_strjoinv(repl, parts);
	g_strfreev(parts);
	return out;
}

/* the paths table: every version the tests name, every count 0 */
static void write_paths(struct fixture *f)
{
	static const char *const versions[] = { "v2.6.31", "v4.19", "v5.0", "v5.7", NULL };
	GString *s = g_string_new(NULL);
	gchar *path = g_strdup_printf("%s/kernel-paths.ini", f->dir);

	for (size_t v = 0; versions[v]; v++) {
		g_string_append_printf(s, "[%s]\n", versions[v]);
		for (size_t i = 0; events[i]; i++)
			g_string_append_printf(s, "# counted: a test value\n%s=0\n", events[i]);
	}
	assert_true(g_file_set_contents(path, s->str, -1, NULL));
	g_string_free(s, TRUE);
	g_free(path);
}

static struct km_cost_profile *load(const char *path)
{
	struct km_cost_profile *p = NULL;

	if (km_cost_profile_load(path, &p))
		fail_msg("%s: %s", path, km_last_error());
	return p;
}

static double item(const struct km_cost_result *r, const char *what)
{
	for (unsigned int i = 0; i < r->n_items; i++)
		if (!strcmp(r->items[i].what, what))
			return r->items[i].cycles;
	return -1;
}

/* clear_user() of a 4 KiB buffer nothing reads back, by __clear_user_std
 * (@asm: one word a store) or by memset(): its cycles */
static double clear_cycles(const struct km_cost_profile *p, bool asm_loop)
{
	struct km_events ev = { 0 };
	struct km_cost_workload w = { .working_set = 4096 };
	struct km_cost_result r;

	ev.uaccess_clear_bytes = ev.clear_bytes = 4096;
	ev.uaccess_asm_clear_bytes = asm_loop ? 4096 : 0;
	assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
	return item(&r, "clear user bytes");
}

/*
 * The pair differs only in [cache] l1_write_allocate. Read-allocate: the
 * buffer is never read, so never cached; each one-word store is its own
 * DRAM transaction: its 32 fixed cycles and 4 bytes of the line's other
 * 32 (write_mem_cycles 64 - 32, a 32-byte line): 36 cycles a word, 9 a
 * byte (the loop's 1 a byte hides behind the drain), 36864 for 4 KiB;
 * memset's 16-byte stm: 32 + 16 = 48 cycles a 16 bytes, 3 a byte, 12288. Write-allocate: the 4 KiB stay in the 16
 * KiB L1 after the first pass (nothing streams through it): the loops'
 * own rates, 4096 and 512 cycles.
 */
static void test_l1_allocation_policy(void **state)
{
	struct fixture *f = *state;
	gchar *ra = write_profile(f, "ra", NULL, "# a test value\nl1_write_allocate=0\n", NULL);
	gchar *wa = write_profile(f, "wa", NULL, "# a test value\nl1_write_allocate=1\n", NULL);
	struct km_cost_profile *pr = load(ra), *pw = load(wa);

	assert_float_equal(clear_cycles(pr, true), 36864, 1e-6);
	assert_float_equal(clear_cycles(pr, false), 12288, 1e-6);
	assert_float_equal(clear_cycles(pw, true), 4096, 1e-6);
	assert_float_equal(clear_cycles(pw, false), 512, 1e-6);
	/*
	 * A 64 KiB buffer in the 16 KiB L1: under random replacement the
	 * fraction m of its lines a reuse misses solves m = 1 - exp(-W m / C)
	 * (cost.h; W = 2048 lines, C = 512, nothing streams). Write-allocate:
	 * each missed line is filled from DRAM first (64 cycles, 2 a byte)
	 * and written back whole (64 cycles a line: 2 a byte, above memset's
	 * 1/8): 4 m a byte. Read-allocate: memset's 16-byte transactions, 3
	 * a byte, whatever m.
	 */
	{
		struct km_events ev = { 0 };
		struct km_cost_workload w = { .working_set = 65536 };
		struct km_cost_result r;
		double m = 1;

		for (int i = 0; i < 200; i++)
			m = 1 - exp(-2048 * m / 512);
		ev.uaccess_clear_bytes = ev.clear_bytes = 65536;
		assert_int_equal(km_cost_predict(pw, &ev, &w, &r), 0);
		assert_float_equal(item(&r, "clear user bytes"), 65536 * 4 * m, 1e-3);
		assert_int_equal(km_cost_predict(pr, &ev, &w, &r), 0);
		assert_float_equal(item(&r, "clear user bytes"), 65536 * 3.0, 1e-6);
	}
	km_cost_profile_free(pr);
	km_cost_profile_free(pw);
	g_free(ra);
	g_free(wa);
}

/* the fraction of a reused set of @w lines that misses a cache of @c lines
 * when each reuse also streams @s lines through it: the root of
 * m = 1 - exp(-(s + w m) / c) (cost.h, random replacement) */
static double misses(double w, double s, double c)
{
	double m = 1;

	for (int i = 0; i < 400; i++)
		m = 1 - exp(-(s + w * m) / c);
	return m;
}

/*
 * The round profile with a 64 KiB L2 (write transactions of 8 cycles) and
 * a read-allocate L1, the pair differing in [cache] l2_write_allocate.
 * clear_user() of a 4 KiB buffer nothing reads (one-word stores, 4 bytes a
 * transaction): a write-allocate L2 holds the buffer after the first pass,
 * so each store is an L2 transaction, 8 cycles a word, 2 a byte (above
 * the loop's 1); a read-allocate L2 never holds it, each store goes to
 * DRAM as in test_l1_allocation_policy, 9 a byte. dd between files
 * through a read-allocate L2: copy_from_user reads the 4 KiB buffer back,
 * so both caches hold what the reads left -- of its 128 lines a reuse
 * misses m1 in the 512-line L1 and m2 in the 2048-line L2, each reuse
 * streaming the 128 page-cache lines copy_to_user reads (copy_from_user's
 * stores do not allocate in a read-allocate L2). copy_to_user's memcpy()
 * stores 32 bytes a transaction: to L2 for the lines L2 holds (8 cycles),
 * to DRAM for the rest (32 + 32 cycles), above the stm loop's 1/8.
 */
static void test_l2_allocation_policy(void **state)
{
	struct fixture *f = *state;
	const char *l2_txn = "write_txn_cycles=32\n# a test value\nl2_write_txn_cycles=8\n";
	gchar *wa = write_profile(f, "l2wa", NULL, "# a test value\nl2_write_allocate=1\n", "65536");
	gchar *ra = write_profile(f, "l2ra", NULL, "# a test value\nl2_write_allocate=0\n", "65536");
	struct km_cost_profile *pw, *pr;
	gchar *text, *edited;

	for (gchar **path = (gchar *[]){ wa, ra, NULL }; *path; path++) {
		assert_true(g_file_get_contents(*path, &text, NULL, NULL));
		edited = replace_once(text, "write_txn_cycles=32\n", l2_txn);
		assert_true(g_file_set_contents(*path, edited, -1, NULL));
		g_free(edited);
		g_free(text);
	}
	pw = load(wa);
	pr = load(ra);
	assert_float_equal(clear_cycles(pw, true), 4096 * 2.0, 1e-6);
	assert_float_equal(clear_cycles(pr, true), 4096 * 9.0, 1e-6);
	{
		struct km_events ev = { 0 };
		struct km_cost_workload w = { .working_set = 4096 };
		struct km_cost_result r;
		double m1 = misses(128, 128, 512), m2 = misses(128, 128, 2048);

		ev.uaccess_to_bytes = ev.uaccess_from_bytes = 4096;
		ev.memcpy_bytes = 8192;
		assert_int_equal(km_cost_predict(pr, &ev, &w, &r), 0);
		assert_float_equal(item(&r, "copy to user bytes"),
				   4096 * (2 + MAX(0.125, (m1 - m2) * 8 / 32 + m2 * 64 / 32)), 1e-6);
	}
	km_cost_profile_free(pw);
	km_cost_profile_free(pr);
	g_free(wa);
	g_free(ra);
}

/*
 * copy_to_user() of 4 KiB by copy_to_user.S (uaccess_asm_to_bytes) into
 * a read-allocate, L2-less core: a source line from DRAM (2 cycles a
 * byte) plus the stores -- one word each (36 cycles a word, 9 a byte) or
 * an 8-register stm (32 + 32 cycles a 32-byte transaction, 2 a byte; the
 * loop 1/8) -- as each era builds the routine: strt with CPU_USE_DOMAINS
 * (arch/arm/mm/Kconfig: CPU_32v5 selects it), str before v5.0, stm from
 * f441882a5229 (v5.0) on without it.
 */
static void test_routine_by_era(void **state)
{
	static const struct {
		const char *name, *kernel;
		double per_byte, loop;	/* cycles a byte; bytes a cycle in L1 */
	} rows[] = {
		{ "armv5-2.6.31", "# a test value\nversion=v2.6.31\n# a test value\narch=5", 11, 1 },
		{ "armv5-5.7", "# a test value\nversion=v5.7\n# a test value\narch=5", 11, 1 },
		{ "armv6-domains-5.7", "# a test value\nversion=v5.7\n# a test value\narch=6\n"
		  "# a test value\ncpu_use_domains=1", 11, 1 },
		{ "armv6-5.7", "# a test value\nversion=v5.7\n# a test value\narch=6\n"
		  "# a test value\ncpu_use_domains=0", 4, 8 },
		{ "armv7-4.19", "# a test value\nversion=v4.19\n# a test value\narch=7", 11, 1 },
		{ "armv7-5.0", "# a test value\nversion=v5.0\n# a test value\narch=7", 4, 8 },
		{ "armv7-5.7", "# a test value\nversion=v5.7", 4, 8 },	/* arch 7 by default */
	};
	struct fixture *f = *state;

	write_paths(f);
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		gchar *path = write_profile(f, rows[i].name, rows[i].kernel, NULL, NULL);
		struct km_cost_profile *p = load(path);
		struct km_events ev = { 0 };
		struct km_cost_workload w = { .working_set = 4096 };
		struct km_cost_result r;

		ev.uaccess_to_bytes = ev.memcpy_bytes = ev.uaccess_asm_to_bytes = 4096;
		assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
		if (fabs(item(&r, "copy to user bytes") - 4096 * rows[i].per_byte) > 1e-6)
			fail_msg("%s: %.1f cycles, want %.1f", rows[i].name,
				 item(&r, "copy to user bytes"), 4096 * rows[i].per_byte);
		/* a buffer in L1 (no working set): the loop's own rate, the
		 * word loop's 1 byte a cycle (copy_word_l1) or the stm's 8 */
		w.working_set = 0;
		assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
		if (fabs(item(&r, "copy to user bytes") - 4096 / rows[i].loop) > 1e-6)
			fail_msg("%s in L1: %.1f cycles, want %.1f", rows[i].name,
				 item(&r, "copy to user bytes"), 4096 / rows[i].loop);
		w.working_set = 4096;
		/* through memcpy() (a variant that kmaps): stm on every era */
		ev.uaccess_asm_to_bytes = 0;
		assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
		assert_float_equal(item(&r, "copy to user bytes"), 4096 * 4.0, 1e-6);
		km_cost_profile_free(p);
		g_free(path);
	}
}

/* what the [kernel], [cache] and [write_buffer] rules refuse */
static void test_refused(void **state)
{
	static const struct {
		const char *kernel, *cache, *l2, *msg;
	} rows[] = {
		{ "# a test value\nversion=v5.7\n# a test value\narch=5\n"
		  "# a test value\ncpu_use_domains=0", NULL, NULL, "cpu_use_domains" },
		{ "# a test value\nversion=v5.7\n# a test value\narch=7\n"
		  "# a test value\ncpu_use_domains=1", NULL, NULL, "cpu_use_domains" },
		{ "# a test value\nversion=v5.7\n# a test value\narch=4", NULL, NULL, "arch" },
		{ "# a test value\nversion=linux", NULL, NULL, "is not vMAJOR" },
		{ NULL, "# a test value\nl2_write_allocate=1\n", NULL, "needs an L2" },
		{ NULL, "# a test value\nl1_write_allocate=2\n", NULL, "l1_write_allocate" },
		{ NULL, "# a test value\n# uncertainty: range 1 .. 2\nl1_write_allocate=0\n", NULL,
		  "does not hold the value 0" },
		{ NULL, "# a test value\n# uncertainty: roughly\nl1_write_allocate=0\n", NULL,
		  "is not \"exact\"" },
		{ NULL, "# a test value\n# uncertainty: exact\n# uncertainty: exact\n"
		  "l1_write_allocate=0\n", NULL, "two \"uncertainty:\" lines" },
	};
	struct fixture *f = *state;

	write_paths(f);
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		gchar *path = write_profile(f, "refused", rows[i].kernel, rows[i].cache, rows[i].l2);
		struct km_cost_profile *p = NULL;

		assert_int_equal(km_cost_profile_load(path, &p), -EINVAL);
		assert_null(p);
		if (!strstr(km_last_error(), rows[i].msg))
			fail_msg("row %zu: \"%s\" does not say \"%s\"", i, km_last_error(),
				 rows[i].msg);
		g_free(path);
	}
	/* a write buffer entry holds a line at most, 4 bytes at least */
	for (const char *const *e = (const char *const[]){ "entry_bytes=64", "entry_bytes=2",
							   NULL }; *e; e++) {
		gchar *path = write_profile(f, "refused", NULL, NULL, NULL), *text, *edited;
		struct km_cost_profile *p = NULL;

		assert_true(g_file_get_contents(path, &text, NULL, NULL));
		edited = replace_once(text, "entry_bytes=32", *e);
		assert_true(g_file_set_contents(path, edited, -1, NULL));
		assert_int_equal(km_cost_profile_load(path, &p), -EINVAL);
		assert_null(p);
		if (!strstr(km_last_error(), "[write_buffer]"))
			fail_msg("%s: \"%s\" does not name [write_buffer]", *e, km_last_error());
		g_free(edited);
		g_free(text);
		g_free(path);
	}
}

/*
 * "uncertainty:" lines: listed with their kind and bounds (exact values
 * are not); the draws: seed 0 the stated values, another seed each value
 * within its range, the same seed the same draw, a prediction that moves
 * with them.
 */
static void test_uncertainty_draws(void **state)
{
	struct fixture *f = *state;
	gchar *path = write_profile(f, "unc", NULL,
				    "# a test value\n# uncertainty: exact\nl1_write_allocate=0\n",
				    NULL);
	gchar *text, *edited;
	struct km_cost_profile *p, *s0, *s1, *s1b, *s2;
	const char *g, *k;
	char kind;
	double lo, hi;

	/* two values with a range: clock_hz +-10 %, write_txn_cycles 16 .. 32 */
	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	edited = replace_once(text, "clock_hz=1000", "# uncertainty: assumed +-10 %\nclock_hz=1000");
	g_free(text);
	text = replace_once(edited, "write_txn_cycles=32",
			    "# uncertainty: range 16 .. 32 (two sources)\nwrite_txn_cycles=32");
	assert_true(g_file_set_contents(path, text, -1, NULL));
	p = load(path);
	assert_true(km_cost_profile_uncertainty(p, 0, &g, &k, &kind, &lo, &hi));
	assert_string_equal(g, "cpu");
	assert_string_equal(k, "clock_hz");
	assert_int_equal(kind, 'a');
	assert_float_equal(lo, 900, 1e-9);
	assert_float_equal(hi, 1100, 1e-9);
	assert_true(km_cost_profile_uncertainty(p, 1, &g, &k, &kind, &lo, &hi));
	assert_string_equal(k, "write_txn_cycles");
	assert_int_equal(kind, 'r');
	assert_float_equal(lo, 16, 1e-9);
	assert_float_equal(hi, 32, 1e-9);
	assert_false(km_cost_profile_uncertainty(p, 2, &g, &k, &kind, &lo, &hi));

	assert_int_equal(km_cost_profile_sample(p, 0, &s0), 0);
	assert_int_equal(km_cost_profile_sample(p, 1, &s1), 0);
	assert_int_equal(km_cost_profile_sample(p, 1, &s1b), 0);
	assert_int_equal(km_cost_profile_sample(p, 2, &s2), 0);
	assert_float_equal(km_cost_profile_value(s0, "cpu", "clock_hz"), 1000, 1e-9);
	assert_float_equal(km_cost_profile_value(s1, "cpu", "clock_hz"),
			   km_cost_profile_value(s1b, "cpu", "clock_hz"), 0);
	assert_true(km_cost_profile_value(s1, "cpu", "clock_hz") !=
		    km_cost_profile_value(s2, "cpu", "clock_hz"));
	for (int i = 0; i < 2; i++) {
		const struct km_cost_profile *s = i ? s2 : s1;
		double c = km_cost_profile_value(s, "cpu", "clock_hz");
		double t = km_cost_profile_value(s, "memory", "write_txn_cycles");
		/* a one-word clear, read-allocate: t + (64 - t) x 4 / 32 a word */
		double expect = 4096 * (t + (64 - t) * 4 / 32) / 4;

		assert_true(c >= 900 && c <= 1100 && t >= 16 && t <= 32);
		assert_float_equal(clear_cycles(s, true), expect, 1e-6);
		/* the prediction's seconds follow the drawn clock */
		{
			struct km_events ev = { 0 };
			struct km_cost_workload w = { 0 };
			struct km_cost_result r;

			ev.syscalls = 0;
			ev.uaccess_clear_bytes = ev.clear_bytes = 1000;	/* 125 cycles at set_l1 */
			assert_int_equal(km_cost_predict(s, &ev, &w, &r), 0);
			assert_float_equal(r.seconds, 125 / c, 1e-12);
		}
	}
	km_cost_profile_free(s0);
	km_cost_profile_free(s1);
	km_cost_profile_free(s1b);
	km_cost_profile_free(s2);
	km_cost_profile_free(p);
	g_free(text);
	g_free(edited);
	g_free(path);
}

/* the limit on calibrated values: a file given twice counts once; two
 * profiles with one each are refused at 1, naming both; the shipped set
 * of the seeds' runs holds 2 today (issue 22's goal: 1, QEMU's speed --
 * lower this as a residual is counted), and the dd board's profile none:
 * its read(2)/write(2) path is counted (kernel-paths.ini [v5.7] syscalls) */
static void test_calibrated_limit(void **state)
{
	struct fixture *f = *state;
	gchar *a = write_profile(f, "cal-a", NULL, NULL, NULL), *b, *text, *t2;
	struct km_cost_profile *pa, *pb, *shipped[3];
	const char *names[3] = { "beaglebone-white", "cortex-a15-qemu", "beagleboard-xm-debug-slab" };

	assert_true(g_file_get_contents(a, &text, NULL, NULL));
	t2 = replace_once(text, "# a test value\nclock_hz=1000",
			  "# calibrated: fig-a (a made-up figure)\nclock_hz=1000");
	assert_true(g_file_set_contents(a, t2, -1, NULL));
	b = g_strdup_printf("%s/cal-b.ini", f->dir);
	g_free(text);
	text = replace_once(t2, "name=cal-a", "name=cal-b");
	assert_true(g_file_set_contents(b, text, -1, NULL));
	pa = load(a);
	pb = load(b);
	{
		const struct km_cost_profile *twice[2] = { pa, pa }, *both[2] = { pa, pb };

		assert_int_equal(km_cost_profiles_check_calibrated(twice, 2, KM_COST_CALIBRATED_MAX),
				 1);
		assert_int_equal(km_cost_profiles_check_calibrated(both, 2, KM_COST_CALIBRATED_MAX),
				 -EINVAL);
		assert_non_null(strstr(km_last_error(), "2 calibrated values"));
		assert_non_null(strstr(km_last_error(), "cal-a [cpu] clock_hz (fig-a"));
		assert_non_null(strstr(km_last_error(), "cal-b [cpu] clock_hz (fig-a"));
		assert_int_equal(km_cost_profiles_check_calibrated(both, 2, 2), 2);
	}
	for (int i = 0; i < 3; i++) {
		gchar *file = g_strdup_printf("%s/%s.ini", KM_PROFILES_DIR, names[i]);

		shipped[i] = load(file);
		g_free(file);
	}
	assert_int_equal(km_cost_profiles_check_calibrated((const struct km_cost_profile *const *)
							   shipped, 3, UINT_MAX), 2);
	assert_int_equal(km_cost_profiles_check_calibrated((const struct km_cost_profile *const *)
							   shipped, 1, 0), 0);
	for (int i = 0; i < 3; i++)
		km_cost_profile_free(shipped[i]);
	km_cost_profile_free(pa);
	km_cost_profile_free(pb);
	g_free(a);
	g_free(b);
	g_free(text);
	g_free(t2);
}

/* every numeric value of every shipped profile and of the paths table
 * states its uncertainty (issue 22), and the new boards carry no
 * calibrated value */
static void test_shipped_state_uncertainty(void **state)
{
	GDir *d = g_dir_open(KM_PROFILES_DIR, 0, NULL);
	const char *n;
	unsigned int files = 0;

	(void)state;
	assert_non_null(d);
	while ((n = g_dir_read_name(d))) {
		gchar *path = g_build_filename(KM_PROFILES_DIR, n, NULL);
		GKeyFile *kf = g_key_file_new();
		gchar **groups;

		if (!g_str_has_suffix(n, ".ini")) {
			g_free(path);
			g_key_file_free(kf);
			continue;
		}
		files++;
		assert_true(g_key_file_load_from_file(kf, path, G_KEY_FILE_KEEP_COMMENTS, NULL));
		groups = g_key_file_get_groups(kf, NULL);
		for (gchar **g = groups; *g; g++) {
			gchar **keys = g_key_file_get_keys(kf, *g, NULL, NULL);

			for (gchar **k = keys; keys && *k; k++) {
				gchar *v = g_key_file_get_value(kf, *g, *k, NULL), *end;
				gchar *c = g_key_file_get_comment(kf, *g, *k, NULL);

				g_ascii_strtod(v, &end);
				if (end != v && !*end && (!c || !strstr(c, "uncertainty:")))
					fail_msg("%s: [%s] %s states no uncertainty", n, *g, *k);
				if (c && g_str_has_prefix(g_strchug(c), "calibrated:") &&
				    (g_str_has_prefix(n, "feroceon") || g_str_has_prefix(n, "arm1176") ||
				     g_str_has_prefix(n, "cortex-a9")))
					fail_msg("%s: [%s] %s is calibrated", n, *g, *k);
				g_free(v);
				g_free(c);
			}
			g_strfreev(keys);
		}
		g_strfreev(groups);
		g_key_file_free(kf);
		g_free(path);
	}
	g_dir_close(d);
	assert_true(files >= 8);
}

/*
 * The Feroceons read-allocate and do not merge single stores (their
 * profiles' sources): a 4 KiB buffer nothing reads back stays uncached,
 * and CONFIG_UACCESS_WITH_MEMCPY's stm bursts must then cost less than
 * copy_to_user.S's strt words and clear_user.S's word loop -- the
 * direction the mechanism gives, whatever the drawn values (every draw).
 * The write-allocate Cortex-A9 keeps the buffer in L1: there the stores'
 * drain plays no part.
 */
static void test_feroceon_direction(void **state)
{
	static const char *const boards[] = { "feroceon-kirkwood", "feroceon-orion5x" };

	(void)state;
	for (size_t b = 0; b < G_N_ELEMENTS(boards); b++) {
		struct km_cost_profile *p;

		assert_int_equal(km_cost_profile_load(boards[b], &p), 0);
		for (uint64_t seed = 0; seed < 16; seed++) {
			struct km_cost_profile *s;
			struct km_events ev = { 0 };
			struct km_cost_workload w = { .working_set = 4096 };
			struct km_cost_result r;
			double words, bursts;

			assert_int_equal(km_cost_profile_sample(p, seed, &s), 0);
			assert_true(clear_cycles(s, false) < clear_cycles(s, true));
			ev.uaccess_to_bytes = ev.memcpy_bytes = ev.uaccess_asm_to_bytes = 4096;
			assert_int_equal(km_cost_predict(s, &ev, &w, &r), 0);
			words = item(&r, "copy to user bytes");
			ev.uaccess_asm_to_bytes = 0;
			assert_int_equal(km_cost_predict(s, &ev, &w, &r), 0);
			bursts = item(&r, "copy to user bytes");
			if (!(bursts < words))
				fail_msg("%s draw %" PRIu64 ": memcpy %.0f cycles, strt %.0f", boards[b],
					 seed, bursts, words);
			km_cost_profile_free(s);
		}
		km_cost_profile_free(p);
	}
}

/*
 * The model names the routine that moved a uaccess byte (struct km_events
 * uaccess_asm_*): the direct variant is the assembler routines
 * (copy_to_user.S, copy_from_user.S, clear_user.S); uaccess_with_memcpy
 * calls them below 64 bytes (__copy_to_user_std(), __clear_user_std():
 * arch/arm/lib/uaccess_with_memcpy.c, "if (n < 64)") and memcpy()/memset()
 * from 64 bytes on; its copy_from_user is the assembler's.
 */
static const struct routine_row {
	const char *name;
	const struct km_uaccess_ops *ops;
	unsigned long n;
	bool asm_to;	/* and clear */
} routine_rows[] = {
	{ "direct, 4096", &km_uaccess_direct, 4096, true },
	{ "direct, 32", &km_uaccess_direct, 32, true },
	{ "uaccess_with_memcpy, 4096", &km_uaccess_with_memcpy, 4096, false },
	{ "uaccess_with_memcpy, 64", &km_uaccess_with_memcpy, 64, false },
	{ "uaccess_with_memcpy, 63", &km_uaccess_with_memcpy, 63, true },
};

static void test_events_name_the_routine(void **state)
{
	const struct routine_row *r = km_row(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_page *src;
	struct km_events ev;
	unsigned long buf;
	char kbuf[4096];

	assert_int_equal(km_mmap(f->mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &buf), 0);
	src = km_alloc_page(f->m, 0);
	assert_non_null(src);
	assert_int_equal(km_clear_user_with(f->t, r->ops, buf, 4096), 0);	/* fault in */
	km_events_reset(f->m);
	assert_int_equal(km_copy_to_user(f->t, r->ops, buf, km_page_address(f->m, src), r->n), 0);
	assert_int_equal(km_clear_user_with(f->t, r->ops, buf, r->n), 0);
	assert_int_equal(km_copy_from_user(f->t, r->ops, kbuf, buf, r->n), 0);
	km_events_get(f->m, &ev);
	assert_int_equal(ev.uaccess_to_bytes, r->n);
	assert_int_equal(ev.uaccess_asm_to_bytes, r->asm_to ? r->n : 0);
	assert_int_equal(ev.uaccess_asm_clear_bytes, r->asm_to ? r->n : 0);
	assert_int_equal(ev.uaccess_asm_from_bytes, r->n);
	assert_string_equal(km_events_field_name(KM_EVENTS_NFIELDS - 3), "uaccess_asm_clear_bytes");
	km_put_page(f->m, src);
}

int main(void)
{
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test_setup_teardown(test_l1_allocation_policy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_l2_allocation_policy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_routine_by_era, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uncertainty_draws, setup, teardown),
		cmocka_unit_test_setup_teardown(test_calibrated_limit, setup, teardown),
		cmocka_unit_test(test_shipped_state_uncertainty),
		cmocka_unit_test(test_feroceon_direction),
	};
	GArray *rows = km_test_new_group();

	KM_TEST_ROWS(rows, test_events_name_the_routine, km_row_setup, km_fixture_teardown,
		     routine_rows);
	KM_TEST_CASES(tests, fixed, rows);

	return cmocka_run_group_tests_name("test_predict", tests, NULL, NULL);
}
