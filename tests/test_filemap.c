// SPDX-License-Identifier: GPL-2.0
/*
 * read(2)/write(2) of a tmpfs file through the page cache (kmodel/filemap.h):
 * iov_iter semantics of lib/iov_iter.c, generic_perform_write() and
 * shmem_file_read_iter() of v5.7. Expected values come from those sources
 * and from LTP's regression tests of the two fixes cited.
 */
#include "km_test.h"
#include <errno.h>
#include <string.h>

#define P 4096UL

/* the variants of the sweeps: a registry of the built-ins (every one
 * copies in atomic context on a fast-GUP machine), the group's */
static struct km_registry *reg;

static int registry_up(void **state)
{
	return km_registry_new(KM_REGISTRY_DEFAULT, &reg);
}

static int registry_down(void **state)
{
	km_registry_free(reg);
	return 0;
}

static const struct km_uaccess_ops *const *variants(void)
{
	return km_registry_uaccess(reg);
}

static void up(struct km_fixture *f, bool fast_gup)
{
	struct km_machine_config c = { .fast_gup = fast_gup, .ram_size = 64 << 20 };

	km_fixture_up(f, &c);
}

/* cmocka fixtures: up()'s machine without fast gup (the BeagleBone's),
 * and with it */
static int setup_up(void **state, bool fast_gup)
{
	struct km_fixture *f = g_new0(struct km_fixture, 1);

	up(f, fast_gup);
	*state = f;
	return 0;
}

static int setup_slow(void **state) { return setup_up(state, false); }
static int setup_fast(void **state) { return setup_up(state, true); }

/* user memory at @a, filled with a pattern seeded by @seed */
static void fill_user(struct km_fixture *f, unsigned long a, size_t n, unsigned char seed)
{
	for (size_t k = 0; k < n; k++) {
		unsigned char c = (unsigned char)(seed + k * 7);

		assert_int_equal(km_user_access(f->t, a + k, &c, 1, true), 1);
	}
}

static void peek(struct km_fixture *f, unsigned long a, void *buf, size_t n)
{
	assert_int_equal(km_mm_peek(f->mm, a, buf, n), 0);
}

/* the file's bytes [pos, pos + n) from its pages (holes: zeros) */
static void file_bytes(struct km_fixture *f, struct km_shmem_file *file, uint64_t pos,
		       unsigned char *out, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		struct km_page *pg = km_shmem_file_page(file, (unsigned long)((pos + k) / P));

		if (!pg) {
			out[k] = 0;
			continue;
		}
		{
			void *ka = km_kmap_atomic(f->t, pg);

			out[k] = ((unsigned char *)ka)[(pos + k) % P];
			km_kunmap_atomic(f->t, ka);
		}
	}
}

/* writev({NULL, 0}, {buf, 64}) on tmpfs writes 64 bytes, with buf mapped but
 * never touched: iov_iter_fault_in_readable() faults in every segment, not
 * only the (empty) first one -- d4690f1e1cda "fix iov_iter_fault_in_readable()",
 * LTP writev03. The atomic copy then succeeds at once: no round copies
 * nothing. */
static void test_writev_empty_first_segment_d4690f1e1cda(void **state)
{
	for (const struct km_uaccess_ops *const *v = variants(); *v; v++) {
		struct km_fixture f;
		struct km_shmem_file *file;
		struct km_perform_write_stats st;
		struct km_iov_iter it;
		unsigned long u;
		unsigned char want[64], got[64];
		long n;

		up(&f, true);
		u = km_test_map(&f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
		assert_int_equal(km_shmem_file_new(f.m, &file), 0);
		{
			struct km_iovec iov[2] = { { 0, 0 }, { u, 64 } };

			assert_int_equal(km_import_iovec(f.t, iov, 2, &it), 64);
			n = km_generic_perform_write(f.t, *v, file, 0, &it, &st);
		}
		assert_int_equal(n, 64);
		assert_int_equal(km_shmem_file_size(file), 64);
		assert_int_equal(st.zero_copies, 0);
		assert_int_equal(st.rounds, 1);
		assert_int_equal(it.count, 0);
		peek(&f, u, want, 64);
		file_bytes(&f, file, 0, got, 64);
		assert_memory_equal(got, want, 64);
		km_shmem_file_free(file);
		km_reports_clear(f.m);	/* the RFC sleeps in atomic context: not this test's */
		km_fixture_down(&f);
	}
}

/* readv({NULL, 0}, {buf, 64}) of a 64-byte file reads 64 bytes -- LTP
 * readv01 "readv() with zero-len buffer" (tagged 19f18459330f), with and
 * without CONFIG_HIGHMEM */
static void test_readv_empty_first_segment_19f18459330f(void **state)
{
	for (int highmem = 0; highmem < 2; highmem++) {
		for (const struct km_uaccess_ops *const *v = variants(); *v; v++) {
			struct km_fixture f;
			struct km_shmem_file *file;
			struct km_iov_iter it;
			unsigned long u;
			uint64_t pos = 0;
			unsigned char want[64], got[64];

			up(&f, true);
			u = km_test_map(&f, 0, 2, KM_PROT_READ | KM_PROT_WRITE);
			fill_user(&f, u + P, 64, 5);
			assert_int_equal(km_shmem_file_new(f.m, &file), 0);
			{
				struct km_iovec w = { u + P, 64 };

				km_iov_iter_init(&it, &w, 1, 64);
				assert_int_equal(km_shmem_write_iter(f.t, &km_uaccess_direct, file,
								     &pos, &it), 64);
			}
			pos = 0;
			{
				struct km_iovec iov[2] = { { 0, 0 }, { u, 64 } };

				km_iov_iter_init(&it, iov, 2, 64);
				assert_int_equal(km_shmem_read_iter(f.t, *v, highmem, file, &pos,
								    &it), 64);
			}
			assert_int_equal(pos, 64);
			peek(&f, u + P, want, 64);
			peek(&f, u, got, 64);
			assert_memory_equal(got, want, 64);
			/* at end of file: 0 */
			{
				struct km_iovec iov = { u, 64 };

				km_iov_iter_init(&it, &iov, 1, 64);
				assert_int_equal(km_shmem_read_iter(f.t, *v, highmem, file, &pos,
								    &it), 0);
			}
			km_shmem_file_free(file);
			km_reports_clear(f.m);
			km_fixture_down(&f);
		}
	}
}

/* Segments of 3, 0, 5000, 0 and 1 bytes written at 4090 (across two page
 * boundaries), read back with another segmentation: the file holds the
 * concatenation, i_size is 4090 + 5004, the pages before are a hole that
 * reads as zeros. */
static void test_segments_round_trip(void **state)
{
	struct km_fixture *f = *state;
	struct km_shmem_file *file;
	struct km_iov_iter it;
	unsigned long u, r;
	uint64_t pos = 4090;
	static unsigned char src[5004], back[4090 + 5004];
	unsigned char *exp = g_malloc0(4090 + 5004);

	u = km_test_map(f, 0, 4, KM_PROT_READ | KM_PROT_WRITE);
	r = km_test_map(f, 0, 4, KM_PROT_READ | KM_PROT_WRITE);
	fill_user(f, u, 3 * P, 1);
	assert_int_equal(km_shmem_file_new(f->m, &file), 0);
	{
		struct km_iovec iov[5] = { { u, 3 }, { 0, 0 }, { u + 100, 5000 }, { u + 9000, 0 },
					   { u + 7, 1 } };

		peek(f, u, src, 3);
		peek(f, u + 100, src + 3, 5000);
		peek(f, u + 7, src + 5003, 1);
		assert_int_equal(km_import_iovec(f->t, iov, 5, &it), 5004);
		assert_int_equal(km_shmem_write_iter(f->t, &km_uaccess_direct, file, &pos, &it),
				 5004);
	}
	assert_int_equal(pos, 4090 + 5004);
	assert_int_equal(km_shmem_file_size(file), 4090 + 5004);
	assert_null(km_shmem_file_page(file, 3));
	memcpy(exp + 4090, src, 5004);
	/* read it all back: 1000, 0, rest */
	pos = 0;
	{
		struct km_iovec iov[3] = { { r, 1000 }, { 0, 0 }, { r + 1000, 4090 + 5004 - 1000 } };

		km_iov_iter_init(&it, iov, 3, 4090 + 5004);
		assert_int_equal(km_shmem_read_iter(f->t, &km_uaccess_gup_kmap_fixed, false, file,
						    &pos, &it), 4090 + 5004);
	}
	peek(f, r, back, sizeof(back));
	assert_memory_equal(back, exp, sizeof(back));
	g_free(exp);
	km_shmem_file_free(file);
}

/* writev({good, 10}, {unmapped, 10}): the fault-in of the page's bytes
 * fails, nothing is written: -EFAULT (v5.7 generic_perform_write) */
static void test_writev_bad_segment_efault(void **state)
{
	struct km_fixture *f = *state;
	struct km_shmem_file *file;
	struct km_iov_iter it;
	unsigned long u;
	uint64_t pos = 0;

	u = km_test_map(f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	assert_int_equal(km_shmem_file_new(f->m, &file), 0);
	{
		struct km_iovec iov[2] = { { u, 10 }, { u + 64 * P, 10 } };

		assert_int_equal(km_import_iovec(f->t, iov, 2, &it), 20);
		assert_int_equal(km_shmem_write_iter(f->t, &km_uaccess_direct, file, &pos, &it),
				 -EFAULT);
	}
	assert_int_equal(pos, 0);
	assert_int_equal(km_shmem_file_size(file), 0);
	km_shmem_file_free(file);
}

/* iov_iter_fault_in_readable() asked for more than the iterator holds:
 * v5.7's iterate_iovec() trusts its caller and would walk past the iovec
 * array; the model warns and faults in only the segments it has. A count
 * larger than the segments hold (km_iov_iter_init() does not check, as
 * iov_iter_init()) never moves iteration past nr_segs either. */
static void test_fault_in_past_count_stays_in_segments(void **state)
{
	struct km_fixture *f = *state;
	struct km_iov_iter it;
	unsigned long u;
	/* iov[2] lies past nr_segs: an unmapped range that must never be read */
	struct km_iovec iov[3] = { { 0, 0 }, { 0, 64 }, { 0x100000, 10 } };

	u = km_test_map(f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	iov[1].iov_base = u;
	km_iov_iter_init(&it, iov, 2, 64);
	assert_int_equal(km_iov_iter_fault_in_readable(f->t, &it, 64 + P), 0);
	assert_int_equal(km_report_count(f->m, KM_R_WARN_ON), 1);
	assert_int_equal(km_follow_pte(f->mm, u, NULL, NULL), 0);	/* faulted in */
	assert_int_equal(km_iov_iter_fault_in_readable(f->t, &it, 64), 0);
	assert_int_equal(km_report_count(f->m, KM_R_WARN_ON), 1);	/* within count: silent */
	assert_int_equal(km_iov_iter_fault_in_readable(NULL, &it, 1), -EINVAL);
	/* count 1000 over 64 bytes of segments: fault-in stops at the last
	 * one, advance after it (no segments left, as after a full advance) */
	km_iov_iter_init(&it, iov, 2, 1000);
	assert_int_equal(km_iov_iter_fault_in_readable(f->t, &it, 1000), 0);
	km_iov_iter_advance(&it, 1000);
	assert_ptr_equal(it.iov, &iov[2]);
	assert_int_equal(it.nr_segs, 0);
	km_reports_clear(f->m);
}

/* gup_kmap_fixed without fast GUP: its atomic copy takes the pte-lock walk
 * of pin_page_for_write() (FIX(4)) and copies at once. With the lockless
 * __get_user_pages_fast() it used before it copied nothing there: the
 * write retried one segment's bytes after a fault-in, copied nothing
 * again, and the kernel would spin (-EDEADLK after two such rounds). The
 * read path copies too. */
static void test_fixed_without_fast_gup_writes(void **state)
{
	struct km_fixture *f = *state;
	struct km_shmem_file *file;
	struct km_perform_write_stats st;
	struct km_iov_iter it;
	unsigned long u;
	uint64_t pos = 0;

	u = km_test_map(f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	fill_user(f, u, 100, 3);
	assert_int_equal(km_shmem_file_new(f->m, &file), 0);
	{
		struct km_iovec iov = { u, 100 };

		km_iov_iter_init(&it, &iov, 1, 100);
		assert_int_equal(km_generic_perform_write(f->t, &km_uaccess_gup_kmap_fixed, file, 0,
							  &it, &st), 100);
	}
	assert_int_equal(st.zero_copies, 0);
	assert_int_equal(st.rounds, 1);
	assert_int_equal(km_shmem_file_size(file), 100);
	/* the read side: write with direct, read with fixed under CONFIG_HIGHMEM */
	{
		struct km_iovec iov = { u, 100 };

		km_iov_iter_init(&it, &iov, 1, 100);
		assert_int_equal(km_shmem_write_iter(f->t, &km_uaccess_direct, file, &pos, &it), 100);
		assert_int_equal(km_shmem_file_size(file), 100);
		pos = 0;
		km_iov_iter_init(&it, &iov, 1, 100);
		assert_int_equal(km_shmem_read_iter(f->t, &km_uaccess_gup_kmap_fixed, true, file,
						    &pos, &it), 100);
	}
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
	km_shmem_file_free(file);
}

/* A buffer that was only read is mapped to the shared zero page, whose pte
 * is special (do_anonymous_page(): pte_mkspecial): the lockless
 * __get_user_pages_fast() refuses it (gup_pte_range(), v5.7), and with
 * faults disabled that was all gup_kmap_fixed used, so writev() from such
 * a buffer made generic_perform_write() spin even with fast GUP -- a flaw
 * the model found. Its pte-lock walk (FIX(4)) reads the zero page. */
static void test_fixed_zero_page_source_writes(void **state)
{
	struct km_fixture *f = *state;
	struct km_shmem_file *file;
	struct km_perform_write_stats st;
	struct km_iov_iter it;
	struct km_iovec iov;
	unsigned long u;
	unsigned char c;

	u = km_test_map(f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	assert_int_equal(km_user_access(f->t, u, &c, 1, false), 1);	/* read: zero page */
	assert_int_equal(km_shmem_file_new(f->m, &file), 0);
	iov = (struct km_iovec){ u, 64 };
	km_iov_iter_init(&it, &iov, 1, 64);
	assert_int_equal(km_generic_perform_write(f->t, &km_uaccess_gup_kmap_fixed, file, 0, &it,
						  &st), 64);
	assert_int_equal(st.zero_copies, 0);
	/* and once the buffer is written (its own page) */
	c = 1;
	assert_int_equal(km_user_access(f->t, u, &c, 1, true), 1);
	km_iov_iter_init(&it, &iov, 1, 64);
	assert_int_equal(km_generic_perform_write(f->t, &km_uaccess_gup_kmap_fixed, file, 0, &it,
						  &st), 64);
	assert_int_equal(st.zero_copies, 0);
	km_shmem_file_free(file);
}

/* iov_iter_advance() leaves consumed segments behind, an empty one only
 * when it reaches it; iov_iter_single_seg_count() is then 0 */
static void test_iov_iter_advance(void **state)
{
	struct km_iovec iov[3] = { { 0x10000, 3 }, { 0, 0 }, { 0x20000, 5 } };
	struct km_iov_iter it;

	km_iov_iter_init(&it, iov, 3, 8);
	assert_int_equal(km_iov_iter_single_seg_count(&it), 3);
	km_iov_iter_advance(&it, 2);
	assert_ptr_equal(it.iov, &iov[0]);
	assert_int_equal(it.iov_offset, 2);
	km_iov_iter_advance(&it, 1);
	assert_ptr_equal(it.iov, &iov[1]);	/* at the empty segment */
	assert_int_equal(it.nr_segs, 2);
	assert_int_equal(km_iov_iter_single_seg_count(&it), 0);
	km_iov_iter_advance(&it, 0);		/* passes it */
	assert_ptr_equal(it.iov, &iov[2]);
	assert_int_equal(km_iov_iter_single_seg_count(&it), 5);
	km_iov_iter_advance(&it, 100);		/* clamped */
	assert_int_equal(it.count, 0);
	assert_int_equal(it.nr_segs, 0);
}

/* import_iovec(): UIO_MAXIOV, negative lengths, access_ok, MAX_RW_COUNT */
static void test_import_iovec(void **state)
{
	struct km_fixture *f = *state;
	struct km_iov_iter it;
	static struct km_iovec many[KM_UIO_MAXIOV + 1];

	assert_int_equal(km_import_iovec(f->t, many, KM_UIO_MAXIOV + 1, &it), -EINVAL);
	assert_int_equal(km_import_iovec(f->t, many, KM_UIO_MAXIOV, &it), 0);
	{
		struct km_iovec neg = { 0x10000, (size_t)-1 };

		assert_int_equal(km_import_iovec(f->t, &neg, 1, &it), -EINVAL);
	}
	{
		struct km_iovec high = { km_task_size(f->m) - 10, 11 };

		assert_int_equal(km_import_iovec(f->t, &high, 1, &it), -EFAULT);
	}
	{
		/* 0x7ffff000 (MAX_RW_COUNT with 4 KiB pages) in all: the second shrinks */
		struct km_iovec two[2] = { { 0x1000, 0x70000000 }, { 0x1000, 0x10000000 } };

		assert_int_equal(km_import_iovec(f->t, two, 2, &it), 0x7ffff000);
		assert_int_equal(two[1].iov_len, 0x7ffff000 - 0x70000000);
	}
}

/* A new page-cache page is not zeroed by write_begin: write_end zeroes the
 * bytes around the copy (shmem_write_end()); O_TRUNC frees the pages */
static void test_partial_page_zeroed_and_truncate(void **state)
{
	struct km_fixture *f = *state;
	struct km_shmem_file *file;
	struct km_iov_iter it;
	unsigned long u;
	uint64_t pos = 100;
	static unsigned char got[P];
	struct km_events ev;

	u = km_test_map(f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	fill_user(f, u, P, 0x80);
	assert_int_equal(km_shmem_file_new(f->m, &file), 0);
	/* a page of pattern, freed: the allocator hands that frame out next */
	{
		struct km_iovec iov = { u, P };
		uint64_t p0 = 0;

		km_iov_iter_init(&it, &iov, 1, P);
		assert_int_equal(km_shmem_write_iter(f->t, &km_uaccess_direct, file, &p0, &it), P);
		km_shmem_file_truncate(file);
	}
	{
		struct km_iovec iov = { u, 10 };

		km_iov_iter_init(&it, &iov, 1, 10);
		assert_int_equal(km_shmem_write_iter(f->t, &km_uaccess_direct, file, &pos, &it), 10);
	}
	file_bytes(f, file, 0, got, P);
	for (size_t k = 0; k < P; k++)
		if (k < 100 || k >= 110)
			assert_int_equal(got[k], 0);
	assert_true(km_page_dirty(km_shmem_file_page(file, 0)));
	km_events_reset(f->m);
	km_shmem_file_truncate(file);
	km_events_get(f->m, &ev);
	assert_int_equal(ev.pages_freed, 1);
	assert_int_equal(km_shmem_file_size(file), 0);
	assert_null(km_shmem_file_page(file, 0));
	km_shmem_file_free(file);
}

/* The one-byte user accesses of the fault-in helpers run inside the
 * CONFIG_CPU_SW_DOMAIN_PAN switch as the copies do: on ARM (v5.7
 * arch/arm/include/asm/uaccess.h) __get_user_err() and __put_user_switch()
 * wrap the access in uaccess_save_and_enable()/uaccess_restore(). write(2)
 * faults in its source with fault_in_pages_readable() (one __get_user() a
 * page it starts in, and one at the last byte when the range spills into a
 * page the loop skipped: include/linux/pagemap.h), read(2) on a
 * CONFIG_HIGHMEM kernel its destination with fault_in_pages_writeable()
 * (copy_page_to_iter_iovec(), lib/iov_iter.c); each copy is one
 * raw_copy_{from,to}_user() switch. The option depends on !ARM_LPAE, so a
 * fast-GUP (LPAE) machine makes none. dd's buffer starts 8 bytes into a page. */
static void fault_in_pan_switches(void **state, bool lpae)
{
	static const struct {
		const char *name;
		bool read, config_highmem;
		size_t len;
		uint64_t pan;	/* without fast GUP */
	} rows[] = {
		{ "write 512: one __get_user, one copy", false, false, 512, 2 },
		{ "write 4096 over two pages: __get_user at both ends, one copy", false, false, 4096, 3 },
		{ "read 512, CONFIG_HIGHMEM: one __put_user, one copy", true, true, 512, 2 },
		{ "read 4096 over two pages, CONFIG_HIGHMEM: two __put_user, one copy", true, true,
		  4096, 3 },
		{ "read 512, no CONFIG_HIGHMEM: the copy only", true, false, 512, 1 },
	};
	struct km_fixture *f = *state;
	unsigned long u = km_test_map(f, 0, 2, KM_PROT_READ | KM_PROT_WRITE) + 8;
	struct km_shmem_file *file;
	struct km_iov_iter it;
	struct km_events ev;

	fill_user(f, u, P, 0x11);
	for (size_t r = 0; r < G_N_ELEMENTS(rows); r++) {
		struct km_iovec iov = { u, rows[r].len };
		uint64_t pos = 0;
		long n;

		assert_int_equal(km_shmem_file_new(f->m, &file), 0);
		if (rows[r].read) {
			km_iov_iter_init(&it, &iov, 1, rows[r].len);
			assert_int_equal(km_shmem_write_iter(f->t, &km_uaccess_direct, file, &pos, &it),
					 (long)rows[r].len);
			pos = 0;
		}
		km_iov_iter_init(&it, &iov, 1, rows[r].len);
		km_events_reset(f->m);
		n = rows[r].read ? km_shmem_read_iter(f->t, &km_uaccess_direct, rows[r].config_highmem,
						      file, &pos, &it)
				 : km_shmem_write_iter(f->t, &km_uaccess_direct, file, &pos, &it);
		km_events_get(f->m, &ev);
		if (n != (long)rows[r].len || ev.uaccess_pan_switches != (lpae ? 0 : rows[r].pan))
			fail_msg("%s (%s): %ld bytes, %llu PAN switches, expected %llu", rows[r].name,
				 lpae ? "LPAE" : "no LPAE", n,
				 (unsigned long long)ev.uaccess_pan_switches,
				 (unsigned long long)(lpae ? 0 : rows[r].pan));
		km_shmem_file_free(file);
	}
}

static void test_fault_in_pan_switches(void **state) { fault_in_pan_switches(state, false); }
static void test_fault_in_no_pan_with_lpae(void **state) { fault_in_pan_switches(state, true); }

#define SLOW(fn) cmocka_unit_test_setup_teardown(fn, setup_slow, km_fixture_teardown)
#define FAST(fn) cmocka_unit_test_setup_teardown(fn, setup_fast, km_fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writev_empty_first_segment_d4690f1e1cda),
		cmocka_unit_test(test_readv_empty_first_segment_19f18459330f),
		SLOW(test_segments_round_trip),
		SLOW(test_writev_bad_segment_efault),
		SLOW(test_fixed_without_fast_gup_writes),
		FAST(test_fixed_zero_page_source_writes),
		cmocka_unit_test(test_iov_iter_advance),
		SLOW(test_fault_in_past_count_stays_in_segments),
		SLOW(test_import_iovec),
		SLOW(test_partial_page_zeroed_and_truncate),
		SLOW(test_fault_in_pan_switches),
		FAST(test_fault_in_no_pan_with_lpae),
	};

	return cmocka_run_group_tests_name("test_filemap", tests, registry_up, registry_down);
}
