// SPDX-License-Identifier: GPL-2.0
/*
 * The scenarios as library calls (kmodel/scenario.h): their tables' shape
 * and the event counts that follow from the kernel paths they model. The
 * host timings are not asserted (speed is the bench's business).
 */
#include "km_test.h"
#include <errno.h>
#include <math.h>
#include <string.h>

static const struct km_value *cell(const struct km_table *t, size_t r, const char *col)
{
	long c = km_table_column_index(t, col);

	assert_true(c >= 0);
	return km_table_value(t, r, (size_t)c);
}

static double num(const struct km_table *t, size_t r, const char *col)
{
	const struct km_value *v = cell(t, r, col);

	assert_int_equal(v->type, KM_VALUE_DOUBLE);
	return v->d;
}

/* direct under another name: a variant of "the program", not built in */
static struct km_uaccess_ops mine;

/* a variant whose atomic copy never copies (as gup_kmap_fixed's was on a
 * machine without fast GUP): generic_perform_write() would spin. Each
 * refused copy first reports a sleep in atomic context (as one that tried
 * the sleeping get_user_pages() there would). */
static unsigned long stall_from(void *to, unsigned long from, unsigned long n)
{
	struct km_task *t = km_current();

	if (km_preempt_count(t) || km_pagefault_disabled(t)) {
		km_task_sleep_in_atomic(t, "stall_from");
		return n;
	}
	return km_uaccess_direct.raw_copy_from_user(to, from, n);
}

static void test_dd_table(void **state)
{
	const struct km_dd_machine *bbw = km_dd_machine_find("bbw"), *a15 = km_dd_machine_find("a15");
	unsigned long bs = 4096;
	struct km_dd_opts o = { .block_sizes = &bs, .nblock_sizes = 1, .total_bytes = 1 << 20,
				.file_bytes = 1 << 20, .repeat = 1 };
	struct km_uaccess_ops stall = km_uaccess_direct;
	struct km_dd_case cases[5] = {
		{ &km_uaccess_direct, bbw, KM_KMAP_ATOMIC_PRE_5_11 },
		{ &km_uaccess_direct, a15, KM_KMAP_ATOMIC_PRE_5_11 },
		{ &km_uaccess_gup_kmap_fixed, bbw, KM_KMAP_ATOMIC_PRE_5_11 },
		{ &mine, bbw, KM_KMAP_ATOMIC_PRE_5_11 },
		{ &stall, bbw, KM_KMAP_ATOMIC_PRE_5_11 },
	};
	struct km_table *t;

	mine = km_uaccess_direct;
	mine.name = "mine";
	stall.name = "stall";
	stall.raw_copy_from_user = stall_from;
	assert_int_equal(km_dd_run(&o, cases, 5, &t), 0);
	assert_string_equal(km_table_name(t), "dd");
	assert_int_equal(km_table_nrows(t), 6);
	/* the baseline first, ratio 1 */
	assert_string_equal(cell(t, 0, "variant")->s, "memcpy");
	assert_true(fabs(num(t, 0, "ratio") - 1.0) < 1e-9);
	/* direct on bbw (no highmem, so no CONFIG_HIGHMEM): the read copies
	 * under kmap(), no kmap_atomic; the write kmap_atomic()s each of the
	 * 256 lowmem page-cache pages per MiB once */
	assert_string_equal(cell(t, 1, "variant")->s, "direct");
	assert_true(cell(t, 1, "builtin")->b);
	assert_false(cell(t, 1, "stalled")->b);
	assert_true(fabs(num(t, 1, "kmap_low_per_mib") - 256) < 1e-9);
	assert_true(fabs(num(t, 1, "kmap_high_per_mib")) < 1e-9);
	assert_true(fabs(num(t, 1, "reports_per_mib")) < 1e-9);
	/* the events are a counted pass's (the timed runs do not
	 * count): a read(2) and a write(2) per 4 KiB block, and the read(2)
	 * at the end of the 1 MiB file that returns 0 */
	assert_true(fabs(num(t, 1, "syscalls_per_mib") - (2 * 256 + 1)) < 1e-9);
	/* on a15 the page cache is highmem (GFP_HIGHUSER_MOVABLE): the read's
	 * kmap_atomic (CONFIG_HIGHMEM) and the write's each take a slot and
	 * flush a TLB entry: 512 per MiB */
	assert_true(cell(t, 2, "highmem")->b);
	assert_true(fabs(num(t, 2, "kmap_high_per_mib") - 512) < 1e-9);
	assert_true(fabs(num(t, 2, "tlb_flushes_per_mib") - 512) < 1e-9);
	/* gup_kmap_fixed without fast GUP: its pte-lock walk copies in the
	 * write path's atomic context (it used to stall there) */
	assert_false(cell(t, 3, "stalled")->b);
	assert_true(num(t, 3, "host_mb_s") > 0);
	/* the program's variant runs and says it is not built in */
	assert_string_equal(cell(t, 4, "variant")->s, "mine");
	assert_false(cell(t, 4, "builtin")->b);
	assert_true(num(t, 4, "host_mb_s") > 0);
	/* a variant whose atomic copy never copies: the write path would spin */
	assert_string_equal(cell(t, 5, "variant")->s, "stall");
	assert_true(cell(t, 5, "stalled")->b);
	assert_int_equal(cell(t, 5, "host_mb_s")->type, KM_VALUE_NONE);
	assert_int_equal(cell(t, 5, "ratio")->type, KM_VALUE_NONE);
	assert_int_equal(cell(t, 5, "reports_per_mib")->type, KM_VALUE_NONE);
	/* ... and keeps the reports it recorded until the stall, in all and by
	 * code (it had none: a stalled row printed no reports by code). It stalls in the warm-up pass, on the first
	 * block: generic_perform_write() copies nothing, faults in, copies
	 * nothing again at the same place and would go round for ever -- two
	 * atomic copies, two reports */
	assert_int_equal(cell(t, 5, "reports")->i, 2);
	assert_int_equal(cell(t, 5, "reports_sleep_in_atomic")->i, 2);
	/* names are unique and typed */
	for (size_t c = 0; c < km_table_ncolumns(t); c++)
		assert_int_equal(km_table_column_index(t, km_table_column(t, c)->name), (long)c);
	assert_null(km_table_column(t, km_table_ncolumns(t)));
	assert_int_equal(km_table_value(t, 99, 0)->type, KM_VALUE_NONE);
	km_table_free(t);
}

/*
 * dd's buffer is busybox's xmalloc(bs): glibc puts it 8 bytes into a
 * page, so each 4 KiB chunk of a block spans two user pages -- the RFC
 * pins 4 per 4 KiB block (read and write), 1024 per MiB. At bs=512 each
 * new page of B gets the 3584 bytes around the first block zeroed by
 * shmem_write_end() (zero_user_segments()): 256 pages per MiB.
 */
static void test_dd_buffer_and_zeroing(void **state)
{
	const unsigned long bss[2] = { 4096, 512 };
	struct km_dd_opts o = { .block_sizes = bss, .nblock_sizes = 2, .total_bytes = 1 << 20,
				.file_bytes = 1 << 20, .repeat = 1 };
	struct km_dd_case c = { &km_uaccess_gup_kmap_rfc, km_dd_machine_find("bbw"),
				KM_KMAP_ATOMIC_PRE_5_11 };
	struct km_table *t;

	assert_int_equal(km_dd_run(&o, &c, 1, &t), 0);
	assert_int_equal(km_table_nrows(t), 4);	/* baseline and RFC per block size */
	assert_true(fabs(num(t, 1, "gup_slow_pages_per_mib") - 1024) < 1e-9);
	/* the RFC's page array: kmalloc_array(__GFP_ZERO) per call, kmalloc-64 */
	assert_true(fabs(num(t, 1, "clear_bytes_per_mib") - 512 * 64) < 1e-9);
	assert_true(fabs(num(t, 3, "gup_slow_pages_per_mib") - 4096) < 1e-9);	/* 1 a call */
	assert_true(fabs(num(t, 3, "clear_bytes_per_mib") - (256 * 3584 + 4096 * 64)) < 1e-9);
	km_table_free(t);
}

/*
 * A page-aligned buffer, as GNU coreutils dd's (src/dd.c: ptr_align(ibuf,
 * page_size)): each 4 KiB chunk lies in one user page, so the RFC pins 2
 * per 4 KiB block (read and write), 512 per MiB -- half the busybox
 * buffer's 1024 above -- and dd still copies A to B byte for byte (the
 * counted run checks the buffer after each read(2) and B at its end).
 */
static void test_dd_buffer_page_aligned(void **state)
{
	const unsigned long bs = 4096;
	struct km_dd_opts o = { .block_sizes = &bs, .nblock_sizes = 1, .total_bytes = 1 << 20,
				.file_bytes = 1 << 20, .repeat = 1, .buffer_page_aligned = true };
	struct km_dd_case c = { &km_uaccess_gup_kmap_rfc, km_dd_machine_find("bbw"),
				KM_KMAP_ATOMIC_PRE_5_11 };
	struct km_table *t;

	assert_int_equal(km_dd_run(&o, &c, 1, &t), 0);
	assert_int_equal(km_table_nrows(t), 2);
	assert_true(fabs(num(t, 1, "gup_slow_pages_per_mib") - 512) < 1e-9);
	assert_true(fabs(num(t, 1, "gup_slow_calls_per_mib") - 512) < 1e-9);	/* one a chunk */
	km_table_free(t);
}

/*
 * dd's machines check pinned writes (km_check_pinned_writes()). The RFC's
 * copy_to_user() pins the user pages it writes with FOLL_WRITE and
 * put_page()s them clean: each page a call writes is a pin_not_dirtied
 * report (the write is lost to writeback: xen/gntdev 779055842da5's
 * flaw); gup_kmap_fixed dirties them first (set_page_dirty_lock()), the
 * direct copy pins nothing. The read(2) of a block is a copy_to_user() per
 * page-cache page it covers (shmem_file_read_iter(), mm/shmem.c v5.7:
 * copy_page_to_iter() page by page), each writing the chunk's bytes at the
 * buffer's offset in its page: chunks of min(bs, 4 KiB), as many a block
 * as pages it covers, each spanning (offset + chunk - 1) / 4096 + 1 user
 * pages. Both machines: the slow gup (bbw) and the fast one with a
 * CONFIG_HIGHMEM kernel (a15).
 */
static const struct dd_pin_row {
	const char *name;
	unsigned long bs;
	bool page_aligned;
} dd_pin_rows[] = {
	{ "1K, busybox's buffer", 1024, false },
	{ "4K, busybox's buffer: 2 pages a chunk", 4096, false },
	{ "4K, page-aligned buffer", 4096, true },
	{ "64K, busybox's buffer", 65536, false },
	{ "64K, page-aligned buffer", 65536, true },
};

static void test_dd_pins_released_clean(void **state)
{
	const struct dd_pin_row *row = *state;
	const unsigned long P = 4096, off = row->page_aligned ? 0 : 8;	/* DD_BUF_OFFSET */
	const unsigned long chunk = MIN(row->bs, P), chunks = (row->bs + P - 1) / P;
	const int64_t per_mib = (int64_t)((1 << 20) / row->bs * chunks * ((off + chunk - 1) / P + 1));
	struct km_dd_opts o = { .block_sizes = &row->bs, .nblock_sizes = 1,
				.total_bytes = 1 << 20, .file_bytes = 1 << 20, .repeat = 1,
				.buffer_page_aligned = row->page_aligned };
	const struct km_dd_machine *bbw = km_dd_machine_find("bbw"), *a15 = km_dd_machine_find("a15");
	const struct km_dd_case cases[] = {
		{ &km_uaccess_gup_kmap_rfc, bbw, KM_KMAP_ATOMIC_PRE_5_11 },
		{ &km_uaccess_gup_kmap_rfc, a15, KM_KMAP_ATOMIC_PRE_5_11 },
		{ &km_uaccess_gup_kmap_fixed, bbw, KM_KMAP_ATOMIC_PRE_5_11 },
		{ &km_uaccess_gup_kmap_fixed, a15, KM_KMAP_ATOMIC_PRE_5_11 },
		{ &km_uaccess_direct, a15, KM_KMAP_ATOMIC_PRE_5_11 },
	};
	struct km_table *t;

	assert_int_equal(km_dd_run(&o, cases, G_N_ELEMENTS(cases), &t), 0);
	for (size_t r = 1; r <= G_N_ELEMENTS(cases); r++) {
		int64_t want = r <= 2 ? per_mib : 0,
			got = cell(t, r, "reports_pin_not_dirtied")->i;

		if (got != want)
			fail_msg("%s: %s on %s: %lld pin_not_dirtied reports, want %lld", row->name,
				 cell(t, r, "variant")->s, cell(t, r, "machine")->s,
				 (long long)got, (long long)want);
	}
	km_table_free(t);
}

/*
 * Every timed run is a whole number of dd invocations (the seed's busybox
 * dd opens B with O_TRUNC once per invocation), so a row's events per MiB
 * do not depend on --repeat or on the total. User report item 3: with a
 * total below the file size the first timed run alone truncated B, and
 * the row took its events from the last run (gup_kmap_rfc on bbw at 4K:
 * pages_freed_per_mib 4096 with -r 1, 0 with -r 3).
 */
static struct km_table *dd_rfc(uint64_t total, uint64_t file, unsigned int repeat)
{
	unsigned long bs = 4096;
	struct km_dd_opts o = { .block_sizes = &bs, .nblock_sizes = 1, .total_bytes = total,
				.file_bytes = file, .repeat = repeat };
	struct km_dd_case c = { &km_uaccess_gup_kmap_rfc, km_dd_machine_find("bbw"),
				KM_KMAP_ATOMIC_PRE_5_11 };
	struct km_table *t;

	assert_int_equal(km_dd_run(&o, &c, 1, &t), 0);
	return t;
}

static void test_dd_events_independent_of_repeat_and_total(void **state)
{
	struct km_table *t[4] = {
		dd_rfc(64 << 10, 256 << 10, 1), dd_rfc(64 << 10, 256 << 10, 2),
		dd_rfc(64 << 10, 256 << 10, 3), dd_rfc(512 << 10, 256 << 10, 2),
	};

	/* one truncation per pass frees every page of B: 256 per MiB */
	assert_true(fabs(num(t[0], 1, "pages_freed_per_mib") - 256) < 1e-9);
	/* the total rounded up to whole passes over A (78f41ac): 64 KiB of a
	 * 256 KiB file is one pass, 512 KiB two; the bytes of a timed run
	 * read back as its reports (the reports_<code> columns, counts of a
	 * timed run, c186fa1) over reports_per_mib (the RFC sleeps in atomic
	 * context on every copy) */
	for (size_t i = 0; i < G_N_ELEMENTS(t); i++) {
		double want = i == 3 ? 0.5 : 0.25, reports = 0;

		for (int code = KM_R_NONE + 1; code < KM_R__COUNT; code++) {
			gchar *col = g_strconcat("reports_", km_report_code_name(code), NULL);
			long c = km_table_column_index(t[i], col);	/* none for skb_sharing */
			const struct km_value *v = c >= 0 ? km_table_value(t[i], 1, (size_t)c) : NULL;

			if (v && v->type == KM_VALUE_INT)
				reports += (double)v->i;
			g_free(col);
		}
		assert_true(reports > 0);
		assert_true(fabs(reports / num(t[i], 1, "reports_per_mib") - want) < 1e-9);
		/* the row's reports are the same count: per timed run */
		assert_int_equal(cell(t[i], 1, "reports")->type, KM_VALUE_INT);
		assert_true(cell(t[i], 1, "reports")->i == (int64_t)reports);
	}
	for (size_t c = 0; c < km_table_ncolumns(t[0]); c++) {
		const struct km_column *col = km_table_column(t[0], c);

		if (!(col->flags & KM_COL_EVENT) && strcmp(col->name, "reports_per_mib"))
			continue;
		for (size_t i = 1; i < G_N_ELEMENTS(t); i++)
			if (fabs(num(t[i], 1, col->name) - num(t[0], 1, col->name)) > 1e-9)
				fail_msg("%s: %g in run set %zu, %g in the first", col->name,
					 num(t[i], 1, col->name), i, num(t[0], 1, col->name));
	}
	for (size_t i = 0; i < G_N_ELEMENTS(t); i++)
		km_table_free(t[i]);
}

static void test_dd_bad_options(void **state)
{
	unsigned long bs = (64ul << 20) + 1;
	struct km_dd_opts o = { .block_sizes = &bs, .nblock_sizes = 1 };
	struct km_dd_case c = { &km_uaccess_direct, km_dd_machine_find("bbw"), 0 };
	struct km_table *t = (void *)1;

	assert_int_equal(km_dd_run(&o, &c, 1, &t), -EINVAL);
	assert_null(t);
	c.machine = NULL;
	assert_int_equal(km_dd_run(NULL, &c, 1, &t), -EINVAL);
	assert_int_equal(km_dd_run(NULL, NULL, 1, &t), -EINVAL);
	assert_null(km_dd_machine_find("nope"));
	assert_false(km_dd_machine_highmem(km_dd_machine_find("a15-nohighmem")));
	assert_true(km_dd_machine_highmem(km_dd_machine_find("bbw-highmem")));
}

/* The 2012 patch: before it, asix_tx_fixup() copied every cloned skb (TCP
 * keeps a clone of each segment): 1000 copies per 1000 TCP packets; after
 * it, none; with a packet tap both copy (the data itself is shared). */
static void test_iperf_table(void **state)
{
	const struct km_usbnet_variant *vs[2] = { km_usbnet_find("before"),
						  km_usbnet_find("after") };
	struct km_iperf_opts o = { .packets = 200, .repeat = 1 };
	struct km_table *t;

	assert_int_equal(km_iperf_run(&o, vs, 2, &t), 0);
	assert_int_equal(km_table_nrows(t), 6);
	for (size_t r = 0; r < 6; r++) {
		const char *v = cell(t, r, "variant")->s, *tr = cell(t, r, "traffic")->s;
		double copies = num(t, r, "copies_per_1000");

		assert_int_equal(cell(t, r, "frames_ok")->i, 200);
		assert_int_equal(cell(t, r, "maxpacket")->i, 512);
		assert_string_equal(cell(t, r, "speed")->s, "high");
		if (!strcmp(tr, "udp"))
			assert_int_equal(cell(t, r, "mss")->type, KM_VALUE_NONE);
		else
			assert_int_equal(cell(t, r, "mss")->i, 1448);
		if (!strcmp(tr, "tcp"))
			assert_true(fabs(copies - (strcmp(v, "before") ? 0 : 1000)) < 1e-9);
		if (!strcmp(tr, "tcp+tap"))
			assert_true(fabs(copies - 1000) < 1e-9);
		/* iperf 2's write(2)s: one per 8 KiB of TCP payload (200 x 1448
		 * bytes start 35 or 36 writes, by where the stream stands), one
		 * per UDP datagram; an ACK per two
		 * TCP segments comes back through bulk-in and rx_fixup; a URB
		 * per packet sent, none per ACK: rx_complete() resubmits the
		 * receive URB (usbnet.c, v3.5), allocated in the warm-up pass */
		if (!strcmp(tr, "udp")) {
			assert_true(fabs(num(t, r, "syscalls_per_packet") - 1) < 1e-9);
			assert_true(num(t, r, "eth_rx_frames_per_packet") == 0);
			assert_true(fabs(num(t, r, "urb_allocs_per_packet") - 1) < 1e-9);
		} else {
			double w = num(t, r, "syscalls_per_packet") * 200;

			assert_true(fabs(w - 35) < 1e-9 || fabs(w - 36) < 1e-9);
			assert_true(fabs(num(t, r, "eth_rx_frames_per_packet") - 0.5) < 1e-9);
			assert_true(fabs(num(t, r, "usb_in_bytes_per_packet") - 0.5 * 70) < 1e-9);
			assert_true(fabs(num(t, r, "urb_allocs_per_packet") - 1) < 1e-9);
		}
		/* the ACK on v3.5, before and after alike (asix_rx_fixup() of
		 * v3.5 with ax88772_info's FLAG_MULTI_PACKET; usbnet.c
		 * rx_process()): the URB's skb and the frame's copy
		 * (netdev_alloc_skb_ip_align(), memcpy() of 66 bytes), both
		 * freed, each a page fragment's reference taken and dropped,
		 * the fragment cache's page dropped once an ACK (2368 + 384
		 * bytes of fragments an ACK, two ACKs' more than a page). Per
		 * segment, with the sender's skb (its clone freed after the
		 * transmit, the original by the ACK) and before's copy of the
		 * clone (skb_copy_expand(), the clone freed): skb_allocs
		 * 1 + 0.5 x 2 (+ 1), skb_frees 2 + 0.5 x 2 (+ 1) */
		if (!strcmp(tr, "tcp")) {
			bool b = !strcmp(v, "before");

			assert_true(fabs(num(t, r, "skb_allocs_per_packet") - (b ? 3 : 2)) < 1e-9);
			assert_true(fabs(num(t, r, "skb_frees_per_packet") - (b ? 4 : 3)) < 1e-9);
			assert_true(fabs(num(t, r, "get_page_calls_per_packet") - 0.5 * 2) < 1e-9);
			assert_true(fabs(num(t, r, "put_page_calls_per_packet") - 0.5 * 3) < 1e-9);
			assert_true(fabs(num(t, r, "pages_allocated_per_packet") - 0.5) < 1e-9);
		}
	}
	km_table_free(t);
	/* an endpoint the variant does not meet */
	o.maxpacket = 1024;
	assert_int_equal(km_iperf_run(&o, vs, 2, &t), -EINVAL);
}

/* A variant whose tx_fixup leaks the skb it was given, as
 * tests/plugins/broken.c's leak_tx: the run returns -EFAULT,
 * as kmodel/scenario.h says for a row whose teardown found problems, not
 * -EIO (frames that did not verify), the table kept and the row named
 * (mutant iperf-leak-efault returned -EIO) */
static struct km_skb *leak_tx_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t flags)
{
	struct km_skb *copy = km_skb_copy(km_current(), skb, flags);	/* skb never freed */

	return copy ? km_asix_after.info->tx_fixup(dev, copy, flags) : NULL;
}

/* the teardown's warnings (kmodel/machine.h km_machine_destroy()), expected */
static void drop_warning(const gchar *domain, GLogLevelFlags level, const gchar *message,
			 gpointer data)
{
	(void)domain;
	(void)level;
	(void)message;
	(void)data;
}

static void test_iperf_leak_is_efault(void **state)
{
	struct km_usbnet_variant mine = km_asix_after;
	struct km_usbnet_driver_info info = *km_asix_after.info;
	const struct km_usbnet_variant *vs[1] = { &mine };
	struct km_iperf_opts o = { .packets = 20, .repeat = 1 };
	struct km_table *t = NULL;
	guint id;

	info.tx_fixup = leak_tx_fixup;
	mine.name = "leak_tx";
	mine.info = &info;
	id = g_log_set_handler("kmodel", G_LOG_LEVEL_WARNING, drop_warning, NULL);
	assert_int_equal(km_iperf_run(&o, vs, 1, &t), -EFAULT);
	g_log_remove_handler("kmodel", id);
	assert_non_null(t);
	assert_int_equal(km_table_nrows(t), 3);
	assert_non_null(strstr(km_last_error(), "leak_tx tcp: teardown: "));
	km_table_free(t);
	(void)state;
}

/* iperf's machines check pinned writes too: a variant whose tx_fixup also
 * writes the start of each frame into a user page it pinned for write and
 * puts it clean (km_test_pinned_write_clean()) loses that write to
 * writeback: a pin_not_dirtied report per packet sent */
static struct km_skb *pin_tx_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t flags)
{
	km_test_pinned_write_clean(skb->data, 8);
	return km_asix_after.info->tx_fixup(dev, skb, flags);
}

static void test_iperf_pinned_write_checked(void **state)
{
	struct km_usbnet_variant mine = km_asix_after;
	struct km_usbnet_driver_info info = *km_asix_after.info;
	const struct km_usbnet_variant *vs[1] = { &mine };
	struct km_iperf_opts o = { .packets = 20, .repeat = 1 };
	struct km_table *t;

	info.tx_fixup = pin_tx_fixup;
	mine.name = "pin_tx";
	mine.info = &info;
	assert_int_equal(km_iperf_run(&o, vs, 1, &t), 0);
	assert_int_equal(km_table_nrows(t), 3);
	for (size_t r = 0; r < 3; r++)
		if (cell(t, r, "reports_pin_not_dirtied")->i != cell(t, r, "packets")->i)
			fail_msg("%s: %lld pin_not_dirtied reports for %lld packets",
				 cell(t, r, "traffic")->s,
				 (long long)cell(t, r, "reports_pin_not_dirtied")->i,
				 (long long)cell(t, r, "packets")->i);
	km_table_free(t);
	(void)state;
}

/* A variant of one's own on the built-in AX88772 device model: its
 * tx_fixup here is the 2012 patch's (km_asix_after's driver_info), its
 * device km_asix_usbnet_dev_new(), public for plugins: every frame parses
 * back, and the copies are the patch's (none for plain TCP). */
static void test_iperf_own_variant_asix_dev(void **state)
{
	struct km_usbnet_variant mine = km_asix_after;
	const struct km_usbnet_variant *vs[1] = { &mine };
	struct km_iperf_opts o = { .packets = 200, .repeat = 1 };
	struct km_usbnet_dev d;
	struct km_machine *m;
	struct km_table *t;

	mine.name = "mine";
	mine.dev_new = km_asix_usbnet_dev_new;
	assert_int_equal(km_iperf_run(&o, vs, 1, &t), 0);
	assert_int_equal(km_table_nrows(t), 3);
	for (size_t r = 0; r < 3; r++) {
		assert_string_equal(cell(t, r, "variant")->s, "mine");
		assert_int_equal(cell(t, r, "frames_ok")->i, 200);
		if (!strcmp(cell(t, r, "traffic")->s, "tcp"))
			assert_true(num(t, r, "copies_per_1000") == 0);
	}
	km_table_free(t);
	assert_int_equal(km_machine_new(NULL, &m), 0);
	assert_int_equal(km_asix_usbnet_dev_new(m, NULL, NULL, NULL), -EINVAL);
	assert_int_equal(km_asix_usbnet_dev_new(NULL, NULL, NULL, &d), -EINVAL);
	assert_int_equal(km_asix_usbnet_dev_new(m, NULL, NULL, &d), 0);
	km_usbnet_dev_free(&d);
	assert_int_equal(km_machine_destroy(m), 0);
}

/* A row's first_report is "code: message" of the first report of its best
 * timed run (58bdc22): a device model that files two reports at the end of
 * every transfer, of two codes, shows the first of them (the AX88772 model
 * behind it: the frames still parse) */
static void two_reports_hook(struct km_test_asix_wrap *w, const uint8_t *data, size_t len,
			     bool end)
{
	(void)data;
	(void)len;
	if (end) {
		km_report(w->m, KM_WARN, KM_R_USB_PROTOCOL, "test device: the first");
		km_report(w->m, KM_WARN, KM_R_UNEXPECTED, "test device: the second");
	}
}

static int two_reports_dev_new(struct km_machine *m, km_usbnet_frame_fn fn, void *arg,
			       struct km_usbnet_dev *out)
{
	return km_test_asix_wrap_new(m, fn, arg, two_reports_hook, out);
}

static void test_iperf_first_report(void **state)
{
	struct km_usbnet_variant v = km_asix_after;
	const struct km_usbnet_variant *vs[2] = { &v, &km_asix_after };
	struct km_iperf_opts o = { .packets = 20, .repeat = 2 };
	struct km_table *t;

	v.name = "two_reports";
	v.dev_new = two_reports_dev_new;
	assert_int_equal(km_iperf_run(&o, vs, 2, &t), 0);
	for (size_t r = 0; r < km_table_nrows(t); r++) {
		const struct km_value *f = cell(t, r, "first_report");

		if (strcmp(cell(t, r, "variant")->s, "two_reports")) {
			assert_int_equal(f->type, KM_VALUE_NONE);	/* no reports */
			continue;
		}
		assert_int_equal(cell(t, r, "frames_ok")->i, 20);
		assert_int_equal(f->type, KM_VALUE_STRING);
		assert_string_equal(f->s, "usb_protocol: test device: the first");
	}
	km_table_free(t);
	(void)state;
}

/* A plain-store bug in iperf: v3.6 dm9601 (tests/plugins/dm9601_tx.c)
 * stores its header with plain C into the tcp+tap row's header-cloned skb
 * every packet (headroom >= 2: in place), which the row's comparison of
 * the shared buffer reports (skb_store_shared); dm9601p's
 * put_unaligned_le16() of the same bytes is the checker's skb_write_cloned,
 * not reported twice. The tcp row's clone writes its own header: nothing.
 * The comparison runs on the first 64 packets of a pass and every 64th
 * after (the accessors' checker on every packet): of 200, packets 0..63,
 * 64, 128 and 192 -- 67. */
extern const struct km_usbnet_variant km_test_dm9601, km_test_dm9601p;

static void test_iperf_plain_stores(void **state)
{
	const struct km_usbnet_variant *vs[2] = { &km_test_dm9601, &km_test_dm9601p };
	struct km_iperf_opts o = { .packets = 200, .repeat = 1, .maxpacket = 64 };
	struct km_table *t;

	assert_int_equal(km_iperf_run(&o, vs, 2, &t), 0);
	for (size_t r = 0; r < km_table_nrows(t); r++) {
		bool plain = !strcmp(cell(t, r, "variant")->s, "dm9601");
		bool tap = !strcmp(cell(t, r, "traffic")->s, "tcp+tap");
		long store = km_table_column_index(t, "reports_skb_store_shared");
		long cloned = km_table_column_index(t, "reports_skb_write_cloned");
		const struct km_value *v;

		assert_true(store >= 0);
		v = km_table_value(t, r, (size_t)store);
		if (plain && tap)
			assert_true(v->type == KM_VALUE_INT && v->i == 67);
		else
			assert_true(v->type == KM_VALUE_NONE || v->i == 0);
		if (!plain && tap) {
			assert_true(cloned >= 0);
			v = km_table_value(t, r, (size_t)cloned);
			assert_true(v->type == KM_VALUE_INT && v->i == 200);
		}
	}
	km_table_free(t);
	(void)state;
}

/* The same in the payload: "after" with a plain store into the last
 * byte of the frame it returns -- in the tcp row the clone's payload, which
 * the queued original shares: each packet is one skb_store_shared, and its
 * frame does not verify (-EIO). The tcp+tap row's copy and udp's private
 * skbs are the driver's own. */
static const struct km_usbnet_variant *store_after;

static struct km_skb *store_last_tx_fixup(struct km_usbnet *dev, struct km_skb *skb,
					  km_gfp_t flags)
{
	skb = store_after->info->tx_fixup(dev, skb, flags);
	if (skb && skb->len)
		skb->data[skb->len - 1] ^= 0xff;	/* no accessor */
	return skb;
}

static void test_iperf_plain_store_in_payload(void **state)
{
	struct km_usbnet_driver_info info = *km_asix_after.info;
	struct km_usbnet_variant v = km_asix_after;
	const struct km_usbnet_variant *vs[1] = { &v };
	struct km_iperf_opts o = { .packets = 40, .repeat = 1 };
	struct km_table *t = NULL;

	store_after = &km_asix_after;
	info.tx_fixup = store_last_tx_fixup;
	v.name = "store_last";
	v.info = &info;
	assert_int_equal(km_iperf_run(&o, vs, 1, &t), -EIO);
	assert_non_null(t);
	for (size_t r = 0; r < km_table_nrows(t); r++) {
		bool tcp = !strcmp(cell(t, r, "traffic")->s, "tcp");

		assert_int_equal(cell(t, r, "reports_skb_store_shared")->i, tcp ? 40 : 0);
	}
	km_table_free(t);
	(void)state;
}

/* two tables with the same columns hold the same values, row by row */
static void assert_tables_equal(const struct km_table *a, const struct km_table *b)
{
	assert_string_equal(km_table_name(a), km_table_name(b));
	assert_string_equal(km_table_title(a), km_table_title(b));
	assert_int_equal(km_table_ncolumns(a), km_table_ncolumns(b));
	assert_int_equal(km_table_nrows(a), km_table_nrows(b));
	for (size_t c = 0; c < km_table_ncolumns(a); c++) {
		const struct km_column *x = km_table_column(a, c), *y = km_table_column(b, c);

		assert_string_equal(x->name, y->name);
		assert_string_equal(x->heading, y->heading);
		assert_string_equal(x->unit, y->unit);
		assert_string_equal(x->doc, y->doc);
		assert_int_equal(x->type, y->type);
		assert_int_equal(x->width, y->width);
		assert_int_equal(x->precision, y->precision);
		assert_int_equal(x->flags, y->flags);
		for (size_t r = 0; r < km_table_nrows(a); r++) {
			const struct km_value *v = km_table_value(a, r, c), *w = km_table_value(b, r, c);

			assert_int_equal(v->type, w->type);
			if (v->type == KM_VALUE_STRING)
				assert_string_equal(v->s, w->s);
			else if (v->type == KM_VALUE_BOOL)
				assert_int_equal(v->b, w->b);
			else if (v->type == KM_VALUE_INT)
				assert_true(v->i == w->i);
			else if (v->type == KM_VALUE_DOUBLE)
				assert_memory_equal(&v->d, &w->d, sizeof(v->d));	/* exact */
		}
	}
}

/* km_table_deserialize() of a table "t" with one column @name of @type and
 * one row holding @value (floating; "()" is no value), laid out as
 * km_table_serialize() writes it */
static int one_column_table(const char *name, guint32 type, GVariant *value, struct km_table **out)
{
	GVariantBuilder cols, rows;
	GVariant *all;
	int rc;

	g_variant_builder_init(&cols, G_VARIANT_TYPE("a(sssuiius)"));
	g_variant_builder_add(&cols, "(sssuiius)", name, name, "", type, 0, 0, 0u, "");
	g_variant_builder_init(&rows, G_VARIANT_TYPE("aav"));
	g_variant_builder_open(&rows, G_VARIANT_TYPE("av"));
	g_variant_builder_add(&rows, "v", value);
	g_variant_builder_close(&rows);
	all = g_variant_ref_sink(g_variant_new("(ssa(sssuiius)aav)", "t", "t", &cols, &rows));
	rc = km_table_deserialize(g_variant_get_data(all), g_variant_get_size(all), out);
	g_variant_unref(all);
	return rc;
}

/* A table across a process boundary (kmodel-bench's isolated plugin
 * rows): km_table_serialize() then km_table_deserialize() gives every
 * column and value back exactly; bytes that are not a table, or a table
 * whose values do not fit its columns, are refused; rows move between
 * tables of the same columns only; a row without values takes values of
 * its columns' types only. */
static void test_table_across_processes(void **state)
{
	const struct km_usbnet_variant *vs[1] = { km_usbnet_find("after") };
	struct km_iperf_opts o = { .packets = 20, .repeat = 1 };
	struct km_dd_opts d = { .total_bytes = 1 << 20, .file_bytes = 1 << 20, .repeat = 1 };
	struct km_table *t, *back, *like, *dd;
	struct km_value v;
	void *data;
	size_t len;
	long r;

	(void)state;
	assert_int_equal(km_iperf_run(&o, vs, 1, &t), 0);
	assert_int_equal(km_table_serialize(t, &data, &len), 0);
	assert_int_equal(km_table_deserialize(data, len, &back), 0);
	assert_tables_equal(t, back);
	km_table_free(back);
	/* truncated, or no table at all: refused, nothing out */
	back = (struct km_table *)&back;
	assert_int_equal(km_table_deserialize(data, len / 2, &back), -EINVAL);
	assert_null(back);
	assert_int_equal(km_table_deserialize("not a table", 11, &back), -EINVAL);
	assert_int_equal(km_table_deserialize(NULL, 0, &back), -EINVAL);
	assert_int_equal(km_table_serialize(NULL, &data, &len), -EINVAL);
	free(data);
	/* an empty table of the same columns takes the rows, strings copied */
	like = km_table_new_like(t);
	assert_int_equal(km_table_nrows(like), 0);
	assert_int_equal(km_table_append_row(like, t, 2), 0);
	assert_int_equal(km_table_append_row(like, t, 0), 1);
	assert_string_equal(cell(like, 0, "traffic")->s, cell(t, 2, "traffic")->s);
	assert_ptr_not_equal(cell(like, 0, "traffic")->s, cell(t, 2, "traffic")->s);
	assert_int_equal(km_table_append_row(like, t, km_table_nrows(t)), -EINVAL);
	/* a row without values, then the values that name it */
	r = km_table_append_row(like, NULL, 0);
	assert_int_equal(r, 2);
	assert_int_equal(cell(like, 2, "variant")->type, KM_VALUE_NONE);
	v = (struct km_value){ .type = KM_VALUE_STRING, .s = "lost" };
	assert_int_equal(km_table_set_value(like, 2, "variant", &v), 0);
	assert_string_equal(cell(like, 2, "variant")->s, "lost");
	assert_int_equal(km_table_set_value(like, 2, "packets", &v), -EINVAL);	/* an int */
	assert_int_equal(km_table_set_value(like, 2, "nosuch", &v), -EINVAL);
	assert_int_equal(km_table_set_value(like, 3, "variant", &v), -EINVAL);
	v = (struct km_value){ .type = KM_VALUE_INT, .i = 7 };
	assert_int_equal(km_table_set_value(like, 2, "packets", &v), 0);
	assert_int_equal(cell(like, 2, "packets")->i, 7);
	/* ... and back through bytes, the row without values too */
	assert_int_equal(km_table_serialize(like, &data, &len), 0);
	assert_int_equal(km_table_deserialize(data, len, &back), 0);
	assert_tables_equal(like, back);
	free(data);
	km_table_free(back);
	/* bytes in the table's layout whose value is not of its column's
	 * type, or whose column has no type of a table: refused */
	back = (struct km_table *)&back;
	assert_int_equal(one_column_table("n", KM_VALUE_INT, g_variant_new_string("x"), &back),
			 -EINVAL);
	assert_null(back);
	assert_int_equal(one_column_table("n", 9, g_variant_new_tuple(NULL, 0), &back), -EINVAL);
	assert_int_equal(one_column_table("n", KM_VALUE_INT, g_variant_new_int64(3), &back), 0);
	assert_int_equal(cell(back, 0, "n")->i, 3);
	/* rows move between tables of the same columns only: a column of
	 * another name, or of another type, is refused */
	{
		struct km_table *name, *type;

		assert_int_equal(one_column_table("m", KM_VALUE_INT, g_variant_new_int64(4), &name), 0);
		assert_int_equal(one_column_table("n", KM_VALUE_DOUBLE, g_variant_new_double(4),
						  &type), 0);
		assert_int_equal(km_table_append_row(back, name, 0), -EINVAL);
		assert_int_equal(km_table_append_row(back, type, 0), -EINVAL);
		assert_int_equal(km_table_append_row(back, back, 0), 1);
		assert_int_equal(km_table_nrows(back), 2);
		km_table_free(name);
		km_table_free(type);
	}
	km_table_free(back);
	/* another table's rows: other columns */
	assert_int_equal(km_dd_run(&d, NULL, 0, &dd), 0);
	assert_int_equal(km_table_append_row(like, dd, 0), -EINVAL);
	assert_int_equal(km_table_nrows(like), 3);
	km_table_free(dd);
	km_table_free(like);
	km_table_free(t);
}

/* on_traffic: each traffic kind named before its setup and warm-up, and
 * before its timed runs' progress: where a tool's child died */
static void note_traffic(void *arg, const char *traffic)
{
	g_string_append_printf(arg, " setup %s", traffic);
}

static void note_run(void *arg, const char *traffic, unsigned int run, unsigned int runs)
{
	g_string_append_printf(arg, " %s %u/%u", traffic, run, runs);
}

static void test_iperf_on_traffic(void **state)
{
	const struct km_usbnet_variant *vs[2] = { km_usbnet_find("before"),
						  km_usbnet_find("after") };
	GString *seen = g_string_new(NULL);
	struct km_iperf_opts o = { .packets = 20, .repeat = 2, .progress = note_run,
				   .progress_arg = seen, .on_traffic = note_traffic,
				   .on_traffic_arg = seen, .rx = true };
	struct km_table *t;

	(void)state;
	assert_int_equal(km_iperf_run(&o, vs, 2, &t), 0);
	/* both variants have a receive side: tcp-rx too */
	assert_string_equal(seen->str, " setup tcp tcp 1/2 tcp 2/2 setup tcp+tap tcp+tap 1/2 "
			    "tcp+tap 2/2 setup udp udp 1/2 udp 2/2 setup tcp-rx tcp-rx 1/2 "
			    "tcp-rx 2/2");
	km_table_free(t);
	g_string_free(seen, TRUE);
}

/* traffic: one kind's rows only; a kind iperf has not is refused */
static void test_iperf_one_traffic(void **state)
{
	const struct km_usbnet_variant *vs[2] = { km_usbnet_find("before"),
						  km_usbnet_find("after") };
	struct km_iperf_opts o = { .packets = 20, .repeat = 1, .traffic = "tcp+tap" };
	struct km_table *t;

	(void)state;
	assert_int_equal(km_iperf_run(&o, vs, 2, &t), 0);
	assert_int_equal(km_table_nrows(t), 2);
	for (size_t r = 0; r < 2; r++)
		assert_string_equal(cell(t, r, "traffic")->s, "tcp+tap");
	km_table_free(t);
	o.traffic = "tcp+udp";
	assert_int_equal(km_iperf_run(&o, vs, 2, &t), -EINVAL);
	assert_null(t);
}

int main(void)
{
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_dd_table),
		cmocka_unit_test(test_dd_buffer_and_zeroing),
		cmocka_unit_test(test_dd_buffer_page_aligned),
		cmocka_unit_test(test_dd_events_independent_of_repeat_and_total),
		cmocka_unit_test(test_dd_bad_options),
		cmocka_unit_test(test_iperf_table),
		cmocka_unit_test(test_iperf_own_variant_asix_dev),
		cmocka_unit_test(test_iperf_leak_is_efault),
		cmocka_unit_test(test_iperf_pinned_write_checked),
		cmocka_unit_test(test_iperf_first_report),
		cmocka_unit_test(test_iperf_plain_stores),
		cmocka_unit_test(test_iperf_plain_store_in_payload),
		cmocka_unit_test(test_table_across_processes),
		cmocka_unit_test(test_iperf_on_traffic),
		cmocka_unit_test(test_iperf_one_traffic),
	};
	GArray *rows = km_test_new_group();

	KM_TEST_ROWS(rows, test_dd_pins_released_clean, NULL, NULL, dd_pin_rows);
	KM_TEST_CASES(tests, fixed, rows);

	return cmocka_run_group_tests_name("test_scenario", tests, NULL, NULL);
}
