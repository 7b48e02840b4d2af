// SPDX-License-Identifier: GPL-2.0
/*
 * km_cost_calibrate_host(): a cost profile of this host for the model's own
 * operations, each timed here (kmodel/cost.h). With it, km_cost_predict()
 * of a bench run's events predicts the bench's own host time -- the cost
 * model checked against a machine it can measure.
 */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <glib.h>
#include <stddef.h>
#include <string.h>
#include <kmodel/cost.h>
#include <kmodel/uaccess.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct bench {
	struct km_machine *m;
	struct km_mm *mm;
	struct km_task *t;
	unsigned long ubuf;
	struct km_page *page[64];
	unsigned char *src, *dst;
	unsigned long copy_size;	/* op_copy, op_set */
	uintptr_t sink;			/* op_chase's last pointer, kept */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ns per op of @fn(@b, @n) run @n times: the median of 7 timings (one
 * run's preemption or a neighbour's burst moves it less than a mean, and
 * less often than the best of a few) */
static double time_op(void (*fn)(struct bench *, unsigned long), struct bench *b, unsigned long n)
{
	double t[7];

	fn(b, n / 10 + 1);	/* warm */
	for (int r = 0; r < 7; r++) {
		double t0 = now();

		fn(b, n);
		t[r] = now() - t0;
	}
	qsort(t, G_N_ELEMENTS(t), sizeof(t[0]), cmp_double);
	return t[G_N_ELEMENTS(t) / 2] / (double)n * 1e9;
}

static void op_kmalloc(struct bench *b, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		km_kfree(b->t, km_kmalloc(b->t, 100, KM_GFP_KERNEL));
}

static void op_get_put(struct bench *b, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		km_get_page(b->m, b->page[0]);
		km_put_page(b->m, b->page[0]);
	}
}

static void op_kmap(struct bench *b, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		km_kunmap_atomic(b->t, km_kmap_atomic(b->t, b->page[0]));
}

static void op_gup1(struct bench *b, unsigned long n)
{
	struct km_page *p;

	for (unsigned long i = 0; i < n; i++)
		if (km_get_user_pages_fast(b->t, b->ubuf, 1, KM_FOLL_WRITE, &p) == 1)
			km_put_page(b->m, p);
}

static void op_gup16(struct bench *b, unsigned long n)
{
	struct km_page *p[16];

	for (unsigned long i = 0; i < n; i++)
		if (km_get_user_pages_fast(b->t, b->ubuf, 16, KM_FOLL_WRITE, p) == 16)
			for (int j = 0; j < 16; j++)
				km_put_page(b->m, p[j]);
}

static void op_page(struct bench *b, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		km_put_page(b->m, km_alloc_page(b->m, 0));
}

static void op_copy(struct bench *b, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		km_kernel_memcpy(b->dst, b->src, b->copy_size);
}

/* a byte other than 0: a memset of zeros over 128 MiB ran at 22 to 75
 * GB/s on an AMD EPYC guest, of 0x5a at 15 (zero stores are not what
 * memory takes of a copy's lines) */
static void op_set(struct bench *b, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		km_kernel_memset(b->dst, 0x5a, b->copy_size);
}

static void op_syscall(struct bench *b, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		km_syscall(b->t);
}

/* a dependent load per step through the lines of b->src, in the random
 * cycle chase_setup() laid out: no prefetcher follows it */
static void op_chase(struct bench *b, unsigned long n)
{
	void *const *p = (void *const *)b->src;

	for (unsigned long i = 0; i < n; i++)
		p = *p;
	b->sink = (uintptr_t)p;	/* keep the loads */
}

/* link the first pointer of each @line-byte line of the first @bytes of
 * b->src into one random cycle */
static void chase_setup(struct bench *b, size_t bytes, size_t line)
{
	size_t n = MAX(bytes / line, (size_t)2);
	size_t *order = g_new(size_t, n);
	GRand *r = g_rand_new_with_seed(1);

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)g_rand_int_range(r, 0, (gint32)(i + 1)), x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(b->src + order[i] * line) = b->src + order[(i + 1) % n] * line;
	g_rand_free(r);
	g_free(order);
}

static long cache_size(int name, long fallback)
{
	long v = sysconf(name);

	return v > 0 ? v : fallback;
}

/*
 * The size of the last-level cache that cpu0 uses, bytes: the data or
 * unified cache of the highest level in /sys/devices/system/cpu/cpu0/cache
 * (the one cache cpu0 shares, as lscpu counts it), else sysconf's L3 (glibc
 * may report several caches summed there: 320 MiB for a 32 MiB L3 seen on
 * an AMD EPYC guest), else L2; 0 when none is known.
 */
static long llc_size(void)
{
	long best = 0;
	int level = 0;

	for (int i = 0; i < 16; i++) {
		gchar *dir = g_strdup_printf("/sys/devices/system/cpu/cpu0/cache/index%d", i);
		gchar *path, *lvl = NULL, *type = NULL, *size = NULL;

		path = g_build_filename(dir, "level", NULL);
		g_file_get_contents(path, &lvl, NULL, NULL);
		g_free(path);
		path = g_build_filename(dir, "type", NULL);
		g_file_get_contents(path, &type, NULL, NULL);
		g_free(path);
		path = g_build_filename(dir, "size", NULL);
		g_file_get_contents(path, &size, NULL, NULL);
		g_free(path);
		g_free(dir);
		if (lvl && type && size && !g_str_has_prefix(type, "Instruction")) {
			char *end;
			long l = strtol(lvl, NULL, 10), v = strtol(size, &end, 10);

			v *= *end == 'K' ? 1024 : *end == 'M' ? 1024 * 1024 : 1;
			if (l > level && v > 0) {
				level = (int)l;
				best = v;
			}
		}
		g_free(lvl);
		g_free(type);
		g_free(size);
		if (!lvl)
			break;
	}
	if (!best)
		best = cache_size(_SC_LEVEL3_CACHE_SIZE, cache_size(_SC_LEVEL2_CACHE_SIZE, 0));
	return best;
}

/* @bytes for the timings, 2 MiB-aligned and, where the kernel has
 * transparent huge pages, asked to be backed by them: a load of the
 * memory chase then costs its line, not a TLB refill too */
static unsigned char *big_alloc(size_t bytes)
{
	void *p = NULL;

	if (posix_memalign(&p, 2UL << 20, bytes))
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE);	/* advice: fine if refused */
#endif
	return p;
}

int km_cost_calibrate_host(const char *path)
{
	struct km_machine_config cfg = { .ram_size = 64ULL << 20 };
	struct bench b = { 0 };
	long l1 = cache_size(_SC_LEVEL1_DCACHE_SIZE, 32768), l2 = cache_size(_SC_LEVEL2_CACHE_SIZE, 1 << 20);
	long line = cache_size(_SC_LEVEL1_DCACHE_LINESIZE, 64), llc = llc_size();
	double kmalloc_ns, getput_ns, kmap_ns, gup1_ns, gup16_ns, page_ns, nop_ns, per_page;
	double copy_l1, set_l1, chase[3], write_line;
	/* memory: 4 x the last-level cache (a line of a random cycle through
	 * it is still cached with odds of a quarter at most), 64 MiB without
	 * one known, 512 MiB at most */
	const unsigned long mem = (unsigned long)CLAMP(4 * (unsigned long long)MAX(llc, 0),
						       64ULL << 20, 512ULL << 20);
	const unsigned long sizes[3] = { (unsigned long)l1 / 4, (unsigned long)l2 / 4, mem };
	char host[64] = "this host", date[32];
	char num[G_ASCII_DTOSTR_BUF_SIZE];	/* numbers in the C locale: the profile is a file */
	time_t tt = time(NULL);
	FILE *f;
	int err;

	if (!path)
		return km_err(-EINVAL, "km_cost_calibrate_host: path is NULL");
	/* a path that cannot be written fails before the measuring */
	f = fopen(path, "w");
	if (!f)
		return km_err(-errno, "%s: %s", path, g_strerror(errno));
	if ((err = km_machine_new(&cfg, &b.m)) || (err = km_mm_new(b.m, &b.mm)))
		goto out;
	if ((err = km_task_new(b.m, b.mm, 0, &b.t)) ||
	    (err = km_mmap(b.mm, 0, 16 * km_page_size(b.m), KM_PROT_READ | KM_PROT_WRITE, &b.ubuf)))
		goto out;
	km_task_switch(b.t);
	b.page[0] = km_alloc_page(b.m, 0);
	b.src = big_alloc(sizes[2]);
	b.dst = big_alloc(sizes[2]);
	if (!b.src || !b.dst) {
		err = km_err(-ENOMEM, "km_cost_calibrate_host: no %lu bytes for the memory tests",
			     sizes[2]);
		goto out;
	}
	memset(b.src, 1, sizes[2]);
	memset(b.dst, 2, sizes[2]);
	op_gup16(&b, 1);	/* fault the buffer in */
	kmalloc_ns = time_op(op_kmalloc, &b, 200000);
	getput_ns = time_op(op_get_put, &b, 1000000);
	kmap_ns = time_op(op_kmap, &b, 1000000);
	gup1_ns = time_op(op_gup1, &b, 200000);
	gup16_ns = time_op(op_gup16, &b, 20000);
	page_ns = time_op(op_page, &b, 200000);
	nop_ns = time_op(op_syscall, &b, 1000000);
	b.copy_size = sizes[0];
	copy_l1 = (double)b.copy_size / time_op(op_copy, &b, (64UL << 20) / b.copy_size);
	set_l1 = (double)b.copy_size / time_op(op_set, &b, (64UL << 20) / b.copy_size);
	b.copy_size = sizes[2];
	write_line = time_op(op_set, &b, 1) / (double)(b.copy_size / (unsigned long)line);
	for (int i = 0; i < 3; i++) {
		chase_setup(&b, sizes[i], (size_t)line);
		chase[i] = time_op(op_chase, &b, 1000000);
	}
	km_task_switch(NULL);
	/* what cannot be: the caches no slower than what they cache, memory
	 * stores at the L1 rate (a test that stayed in a cache), then no
	 * profile (write_mem came out at L1's memset rate, and
	 * read_mem varied eightfold, from an 8 MiB test inside a 32 MiB L3) */
	if (!(chase[0] < chase[1] && chase[1] < chase[2]))
		err = km_err(-EAGAIN, "km_cost_calibrate_host: implausible: a load takes %.2f ns "
				      "from L1 (%lu bytes), %.2f from L2 (%lu), %.2f from memory (%lu): "
				      "each should be slower than the one before; no profile written "
				      "(a busy machine? run it again)",
			     chase[0], sizes[0], chase[1], sizes[1], chase[2], sizes[2]);
	else if (write_line < 2 * (double)line / set_l1)
		err = km_err(-EAGAIN, "km_cost_calibrate_host: implausible: memset to memory "
				      "(%lu bytes) takes %.2f ns a line, less than twice the %.2f of a "
				      "line in L1; no profile written (a busy machine? run it again)",
			     sizes[2], write_line, (double)line / set_l1);
	if (err)
		goto out;
	/* a gup call's cost beyond its pages, and per page (with the put) */
	per_page = MAX(0.0, (gup16_ns - gup1_ns) / 15);
	gethostname(host, sizeof(host) - 1);
	strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&tt));
#define SRC(what) fprintf(f, "# measured by kmodel-bench calibrate on %s, %s: %s\n", host, date, what)
	fprintf(f, "# This host, for the model's own operations (kmodel-bench calibrate).\n"
		   "# clock_hz is 1e9, so a cycle is a nanosecond of this host; operations the\n"
		   "# model does not run on the host (syscall entry, the network stack) cost 0.\n\n"
		   "[profile]\nname=host\nsummary=%s, %s: timings of libkmodel's operations\n\n", host, date);
	fprintf(f, "[cpu]\n# a nanosecond per cycle: every value below is in ns\nclock_hz=1000000000\n\n");
	fprintf(f, "[cache]\n# sysconf(_SC_LEVEL1_DCACHE_SIZE) of this host\nl1_bytes=%ld\n"
		   "# sysconf(_SC_LEVEL2_CACHE_SIZE) of this host\nl2_bytes=%ld\n"
		   "# sysconf(_SC_LEVEL1_DCACHE_LINESIZE) of this host\nline_bytes=%ld\n\n",
		l1, l2, line);
	fprintf(f, "[bandwidth]\n");
	{
		char what[200];

		snprintf(what, sizeof(what), "km_kernel_memcpy() of %lu bytes, bytes per ns", sizes[0]);
		SRC(what);
		fprintf(f, "copy_l1=%s\n", g_ascii_formatd(num, sizeof(num), "%.4f", copy_l1));
		snprintf(what, sizeof(what), "km_kernel_memset() of %lu bytes, bytes per ns", sizes[0]);
		SRC(what);
		fprintf(f, "set_l1=%s\n\n[memory]\n", g_ascii_formatd(num, sizeof(num), "%.4f", set_l1));
		snprintf(what, sizeof(what), "a random pointer chase over %lu bytes less one over %lu, "
			 "ns per line", sizes[1], sizes[0]);
		SRC(what);
		fprintf(f, "read_l2_cycles=%s\n",
			g_ascii_formatd(num, sizeof(num), "%.2f", MAX(0.0, chase[1] - chase[0])));
		snprintf(what, sizeof(what), "a random pointer chase over %lu bytes (the last-level "
			 "cache: %ld) less one over %lu, ns per line, median of 7", sizes[2], llc, sizes[0]);
		SRC(what);
		fprintf(f, "read_mem_cycles=%s\n",
			g_ascii_formatd(num, sizeof(num), "%.2f", MAX(0.0, chase[2] - chase[0])));
		snprintf(what, sizeof(what), "km_kernel_memset() of %lu bytes (the last-level cache: "
			 "%ld), ns per line, median of 7", sizes[2], llc);
		SRC(what);
		fprintf(f, "write_mem_cycles=%s\n", g_ascii_formatd(num, sizeof(num), "%.2f", write_line));
	}
	fprintf(f, "\n[cycles]\n");
	{
		const struct { const char *key; double v; const char *what; } rows[] = {
			{ "syscalls", nop_ns, "km_syscall(), a counter" },
			{ "page_faults", 0, "not timed (inside gup's and the MMU's costs)" },
			{ "cow_breaks", 0, "not timed: its copy is in copy bytes" },
			{ "pagecache_lookups", 0, "not timed" },
			{ "pagecache_allocs", 0, "not timed: charged as pages_allocated" },
			{ "pages_allocated", page_ns / 2, "km_alloc_page() + km_put_page() of a page, half each" },
			{ "pages_freed", page_ns / 2, "km_alloc_page() + km_put_page() of a page, half each" },
			{ "gup_calls", MAX(0.0, gup1_ns - per_page), "km_get_user_pages_fast() of 1 page less a page's share" },
			{ "gup_slow_calls", 0, "inside gup_calls" },
			{ "gup_fast_pages", per_page, "a page of km_get_user_pages_fast() (16 pages less 1, over 15) with its put" },
			{ "gup_slow_pages", per_page, "as gup_fast_pages" },
			{ "follow_page_calls", 0, "inside gup_slow_pages" },
			{ "find_vma_calls", 0, "inside gup_calls" },
			{ "mmap_sem_locks", 0, "inside gup_calls" },
			{ "get_page_calls", getput_ns / 2, "km_get_page() + km_put_page(), half each" },
			{ "put_page_calls", getput_ns / 2, "km_get_page() + km_put_page(), half each" },
			{ "pt_walks", 0, "inside the copies" },
			{ "kmap_high", 0, "not timed: this calibration maps lowmem" },
			{ "kmap_low", kmap_ns / 2, "km_kmap_atomic() + km_kunmap_atomic() of a lowmem page, half each" },
			{ "kunmap_high", 0, "not timed: this calibration maps lowmem" },
			{ "kunmap_low", kmap_ns / 2, "km_kmap_atomic() + km_kunmap_atomic() of a lowmem page, half each" },
			{ "tlb_flushes", 0, "a counter on the host" },
			{ "kmalloc_calls", kmalloc_ns / 2, "km_kmalloc(100) + km_kfree(), half each" },
			{ "kfree_calls", kmalloc_ns / 2, "km_kmalloc(100) + km_kfree(), half each" },
			{ "memcpy_calls", 0, "inside the bandwidth" },
			{ "memset_calls", 0, "inside the bandwidth" },
			{ "memmove_calls", 0, "inside the bandwidth" },
			{ "skb_allocs", 0, "not timed" }, { "skb_clones", 0, "not timed" },
			{ "skb_copies", 0, "not timed" }, { "skb_frees", 0, "not timed" },
			{ "urbs", 0, "not timed" }, { "usb_packets", 0, "not timed" },
			{ "eth_frames", 0, "not timed" },
			{ "spin_locks", 0, "not timed" },
			{ "pt_walks_sw", 0, "not timed" },
			{ "urb_allocs", 0, "not timed" }, { "usb_in_packets", 0, "not timed" },
			{ "eth_rx_frames", 0, "not timed" },
			{ "uaccess_pan_switches", 0, "no domains on the host" },
			{ "uaccess_range_masks", 0, "inside the copies" },
			{ "gup_kmap_calls", 0, "not timed" }, { "gup_kmap_pages", 0, "not timed" },
		};

		for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
			SRC(rows[i].what);
			fprintf(f, "%s=%s\n", rows[i].key,
				g_ascii_formatd(num, sizeof(num), "%.2f", rows[i].v));
		}
	}
	fprintf(f, "\n[slab_debug]\n# the model has no slab debugging\nenabled=0\n"
		   "# not charged\nalloc_cycles_per_byte=0\n# not charged\nfree_cycles_per_byte=0\n"
		   "# not charged\nskb_head_bytes=0\n");
#undef SRC
	if (fclose(f))
		err = km_err(-EIO, "%s: write failed", path);
	f = NULL;
out:
	if (f) {		/* nothing measured: no profile */
		fclose(f);
		remove(path);
	}
	km_task_switch(NULL);
	if (b.page[0])
		km_put_page(b.m, b.page[0]);
	if (b.t)
		km_task_free(b.t);
	if (b.mm)
		km_mm_put(b.mm);
	if (b.m)
		km_machine_destroy(b.m);
	free(b.src);
	free(b.dst);
	return err;
}

int km_cost_calibrate_host_attempts(const char *path, unsigned int attempts)
{
	int err = km_err(-EINVAL, "km_cost_calibrate_host_attempts: 0 attempts");

	for (unsigned int i = 1; i <= attempts; i++) {
		err = km_cost_calibrate_host(path);
		if (err != -EAGAIN || i == attempts)
			break;
		fprintf(stderr, "kmodel: calibrate: attempt %u of %u: %s; measuring again\n", i,
			attempts, km_last_error());
	}
	return err;
}
