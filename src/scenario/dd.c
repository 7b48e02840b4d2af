// SPDX-License-Identifier: GPL-2.0
/*
 * The seed's benchmark: busybox `dd if=A of=B bs=N`, A and B on tmpfs
 * (kmodel/scenario.h km_dd_run()). Per block: read(2) of A into the user
 * buffer (shmem_file_read_iter() -> copy_page_to_iter()), then write(2) of
 * the buffer to B (generic_perform_write()), both through the variant
 * under test (kmodel/filemap.h). A timed run is a whole number of dd
 * invocations (dd_pass()), each as the seed's: open B with O_TRUNC, which
 * frees the pages the previous invocation wrote (once per invocation, not
 * per block), then every block of A from its start until read(2) returns 0.
 * busybox dd starts its clock (G.begin_time_us, before xopen(outfile,
 * O_TRUNC)) before the truncation, so the seed's MB/s pays for it, and so
 * does a timed run here. B's page-cache pages are allocated again as in a
 * real run while the host memory behind them stays warm. The total is
 * rounded up to whole passes over A, so every timed run does the same
 * work and a row's events per MiB do not depend on --repeat or on the
 * total (issue: they did when a run started mid-file). The timed runs
 * do not count events (km_events_set_counting(): the counter updates
 * would cost a 512-byte row several percent of its host time);
 * a row's events are those of one more run after them, counted, untimed.
 * The buffer is busybox dd's `ibuf = xmalloc(ibs)` (coreutils/dd.c,
 * right after its option loop, the first allocation of its own). Where
 * glibc puts it (malloc/malloc.c; the seed does not name the C library:
 * an assumption, and any allocator that keeps a header in front of the
 * block gives a non-zero offset too): a request of M_MMAP_THRESHOLD or more
 * (128 KiB, DEFAULT_MMAP_THRESHOLD_MIN, until a free raises it) is a chunk
 * of its own mmap'd pages, and the memory malloc returns is chunk2mem(),
 * 2 * SIZE_SZ = 8 bytes past the chunk's page-aligned start on 32-bit ARM
 * (SIZE_SZ 4, MALLOC_ALIGNMENT 8: no front misalignment to correct): the
 * 1M buffer starts 8 bytes into a page. A smaller one comes
 * from the heap: 8 bytes into the top chunk, which starts at the program
 * break -- page-aligned by the kernel (load_elf_binary()'s set_brk(), or
 * arch_randomize_brk() with ASLR) -- when nothing was malloc'ed before
 * (so 8 again), else wherever earlier allocations left it (a static
 * binary's TLS block, stdio, the locale). Any offset but 0 gives the same
 * page count to the 4K..64K blocks, N + 1 pages for a block of N (the RFC
 * pins them all); only 512 and 1K blocks would cross a page at another
 * offset, with probability about bs/4096 per block. DD_BUF_OFFSET is 8,
 * the value for an mmap'd buffer and for a first heap allocation; offset
 * 0, which malloc gives neither, pins a page less per block of 4K or
 * more. The RFC's author saw a non-zero offset: copies "of exact page size (but
 * not page aligned)" pinning two pages, "even w/ 'dd' 'bs=1M'" (busybox
 * dd; linux-kernel, 13 and 14 Jun 2020, the RFC's thread). GNU coreutils
 * dd gives 0: it page-aligns its buffer (src/dd.c, ptr_align(ibuf,
 * page_size)); km_dd_opts.buffer_page_aligned runs that.
 * Simplifications: no writeback, no dirty throttling.
 */
#include "scenario_internal.h"
#include "table.h"
#include <kmodel/scenario.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MiB (1024UL * 1024)
/* where busybox dd's buffer starts in its first page: glibc's chunk2mem()
 * of a page-aligned chunk on 32-bit ARM (see above) */
#define DD_BUF_OFFSET 8UL

static const struct km_dd_machine machines[] = {
	{ "bbw", "BeagleBone White, Cortex-A8: 256 MiB, all lowmem, no LPAE (no fast GUP)",
	  256 * MiB, 0, false, false },
	{ "bbw-config-highmem", "bbw with a CONFIG_HIGHMEM kernel (the RFC's default build), all 256 MiB lowmem",
	  256 * MiB, 0, false, true },
	{ "bbw-highmem", "bbw with lowmem capped at 128 MiB: user and page-cache pages are highmem",
	  256 * MiB, 128 * MiB, false, false },
	{ "a15", "Cortex-A15 with LPAE, 2 GiB (the seed's QEMU run): 768 MiB lowmem, fast GUP",
	  2048 * MiB, 0, true, false },
	{ "a15-nohighmem", "a15 with highmem disabled: only its 768 MiB of lowmem", 768 * MiB, 0,
	  true, false },
	{ 0 },
};

/* what km_dd_machines() hands out: pointers, a stride that never changes */
static const struct km_dd_machine *const machine_list[] = {
	&machines[0], &machines[1], &machines[2], &machines[3], &machines[4], NULL,
};
_Static_assert(G_N_ELEMENTS(machine_list) == G_N_ELEMENTS(machines),
	       "machine_list points at every machine");

const struct km_dd_machine *const *km_dd_machines(void)
{
	return machine_list;
}

const struct km_dd_machine *km_dd_machine_find(const char *name)
{
	for (const struct km_dd_machine *const *d = machine_list; name && *d; d++)
		if (!strcmp((*d)->name, name))
			return *d;
	return NULL;
}

bool km_dd_machine_highmem(const struct km_dd_machine *d)
{
	/* lowmem 0: all of RAM up to the 3G/1G lowmem limit of 768 MiB */
	if (d->config_highmem)
		return true;
	return d->lowmem_size ? d->lowmem_size < d->ram_size : d->ram_size > 768 * MiB;
}

static double clock_seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double km_scenario_now(void)
{
	return clock_seconds(CLOCK_MONOTONIC);
}

double km_scenario_cpu_now(void)
{
	return clock_seconds(CLOCK_THREAD_CPUTIME_ID);
}

static gint cmp_double(gconstpointer a, gconstpointer b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double km_scenario_spread_pct(GArray *runs, double best)
{
	double median;

	g_array_sort(runs, cmp_double);
	median = runs->len % 2 ? g_array_index(runs, double, runs->len / 2)
			       : (g_array_index(runs, double, runs->len / 2 - 1) +
				  g_array_index(runs, double, runs->len / 2)) / 2;
	return (median - best) / best * 100;
}

unsigned long km_scenario_teardown(struct km_machine *m, struct km_task *t, const char *row,
				   GString *failed, gchar **codes)
{
	GString *list = g_string_new(NULL);
	unsigned long n;

	km_reports_clear(m);	/* count the teardown's reports from 0 */
	if (t)
		km_task_free(t);	/* the exit's checks (do_exit()) */
	km_machine_check(m);	/* counted here; km_machine_destroy() logs them */
	n = km_report_count(m, KM_R_NONE);
	for (int c = KM_R_NONE + 1; n && c < KM_R__COUNT; c++) {
		if (c == KM_R_SKB_SHARING || !km_report_count(m, (enum km_report_code)c))
			continue;
		g_string_append_printf(list, "%s%s %lu", list->len ? ", " : "",
				       km_report_code_name((enum km_report_code)c),
				       km_report_count(m, (enum km_report_code)c));
	}
	if (n)
		g_string_append_printf(failed, "; %s: teardown: %s", row, list->str);
	*codes = g_string_free(list, !n);
	km_machine_destroy(m);
	return n;
}

int km_scenario_fail(int err, const char *scenario, const char *what, const GString *failed)
{
	/* km_last_error() keeps 255 characters */
	const size_t room = 255 - strlen(scenario) - strlen(what) - 8;
	const char *rows = failed->len > 2 ? failed->str + 2 : "";
	gchar *cut = g_strndup(rows, room);

	if (strlen(rows) > room) {
		char *end = g_strrstr(cut, "; ");

		if (end)
			strcpy(end, "; ...");
	}
	err = km_err(err, "%s: %s: %s", scenario, what, cut);
	g_free(cut);
	return err;
}

/* ---- one dd process -------------------------------------------------------- */

struct dd_run {
	const struct km_dd_case *c;	/* NULL: the baseline */
	struct km_machine *m;
	struct km_page *zero;		/* km_zero_page() of m */
	struct km_task *t;
	const struct km_uaccess_ops *ops;
	bool config_highmem;
	unsigned long bs, P, ubuf;
	unsigned long buf_off;		/* where the buffer starts in its first page */
	unsigned char **uhost;		/* baseline: host address of each page of the buffer */
	struct km_shmem_file *in, *out;
	uint64_t in_pos, out_pos;
	bool stalled;			/* the write path would retry for ever: no numbers */
	gchar *error;			/* its dd failed (read(2), write(2), the copy
					 * checks): why; no numbers */
	bool check;			/* the counted run: check the buffer after
					 * each read(2) (dd_check_buffer()) */
	unsigned char ramp[512];	/* i % 256 at i: a run of A from its first byte */
	/* results */
	double best;			/* seconds of the best timed run */
	int insn_fd;			/* km_insn_open(): the host's instructions */
	uint64_t insn_best;		/* the fewest of a timed run (0: none) */
	GArray *runs;			/* seconds of each timed run */
	uint64_t copied;		/* bytes of a timed run */
	struct km_events ev;		/* of the counted pass (dd_counted()) */
	/* the report counters where the last timed run started (zero before
	 * the first: a new machine has counted none) */
	unsigned long reports0[KM_R__COUNT];
	/* BUG/WARN reports by code (KM_R_NONE: all) of the last timed run; of
	 * a stalled row, those until the stall (from the machine's start when
	 * it stalled in dd_setup()'s warm-up pass) */
	unsigned long by_code[KM_R__COUNT];
};

static const char *kmap_name(enum km_kmap_flavour k)
{
	return k == KM_KMAP_LOCAL ? "5.11" : "pre-5.11";
}

/* a case's variant column: its ops' name, or the baseline's */
static const char *variant_name(const struct km_dd_case *c)
{
	return c->ops ? c->ops->name : "memcpy";
}

/* "<variant> on <machine> (<kmap era>), bs <N>" of @r, for messages */
static const char *dd_row(const struct dd_run *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s on %s (%s), bs %lu", variant_name(r->c), r->c->machine->name,
		 kmap_name(r->c->kmap), r->bs);
	return buf;
}

/* -ENOMEM: no page for the output file's page cache at r->out_pos */
static int dd_no_memory(const struct dd_run *r)
{
	char row[128];

	return km_err(-ENOMEM, "dd: %s: write(2): no page for the output file's page cache at "
		      "byte %llu (%s has %lu MiB of RAM for the input and output files and the "
		      "buffer)", dd_row(r, row, sizeof(row)), (unsigned long long)r->out_pos,
		      r->c->machine->name, r->c->machine->ram_size / MiB);
}

/* The baseline calls the C library's memcpy, as the simulated path does;
 * through a volatile pointer so the compiler cannot inline its own. */
static void *(*volatile host_memcpy)(void *, const void *, size_t) = memcpy;

/* baseline: copy @len bytes between @k and the buffer at @uoff, split at the
 * buffer's page boundaries; @to_user: from @k into the buffer */
static void plain_user(struct dd_run *r, unsigned char *k, unsigned long uoff,
		       unsigned long len, bool to_user)
{
	uoff += r->buf_off;	/* offset from the buffer's first page */
	while (len) {
		unsigned long chunk = MIN(len, r->P - uoff % r->P);
		unsigned char *u = r->uhost[uoff / r->P] + uoff % r->P;

		if (to_user)
			host_memcpy(u, k, chunk);
		else
			host_memcpy(k, u, chunk);
		k += chunk;
		uoff += chunk;
		len -= chunk;
	}
}

/* baseline read(2): A's pages (holes: the zero page) into the buffer */
static long plain_read(struct dd_run *r)
{
	uint64_t size = km_shmem_file_size(r->in);
	unsigned long done = 0;

	while (done < r->bs && r->in_pos < size) {
		unsigned long off = (unsigned long)(r->in_pos % r->P);
		unsigned long n = (unsigned long)MIN((uint64_t)MIN(r->bs - done, r->P - off),
						     size - r->in_pos);
		struct km_page *p = km_shmem_file_page(r->in, (unsigned long)(r->in_pos / r->P));

		plain_user(r, (unsigned char *)km_page_address(r->m, p ? p : r->zero) + off,
			   done, n, true);
		r->in_pos += n;
		done += n;
	}
	return (long)done;
}

/* baseline write(2): B's pages found or allocated as shmem_write_begin() does */
static long plain_write(struct dd_run *r, unsigned long len)
{
	unsigned long done = 0;

	while (done < len) {
		unsigned long off = (unsigned long)(r->out_pos % r->P);
		unsigned long n = MIN(len - done, r->P - off);
		bool fresh;
		struct km_page *p = km_shmem_write_begin(r->out, (unsigned long)(r->out_pos / r->P),
							 &fresh);

		if (!p)
			return dd_no_memory(r);
		plain_user(r, (unsigned char *)km_page_address(r->m, p) + off, done, n, false);
		km_shmem_write_end_plain(r->out, r->out_pos, n, p, fresh);
		r->out_pos += n;
		done += n;
	}
	return (long)done;
}

/* Byte @pos of file A: runs of 256 bytes that count up by one, each from
 * a start of its own (the run's index hashed), so that a copy from a wrong
 * offset, page or block of A -- or no copy at all, which leaves the
 * inverse dd_poison_buffer() put there -- does not give A's bytes
 * (dd_check_buffer(), dd_check_copy()). */
static unsigned char dd_pattern(uint64_t pos)
{
	return (unsigned char)(((uint32_t)(pos / 256) * 2654435761u >> 24) + pos % 256);
}

/* @n bytes of A from @pos: a run at a time, each @ramp + its first byte
 * (dd_pattern()) */
static void dd_fill(const unsigned char *ramp, unsigned char *buf, uint64_t pos, unsigned long n)
{
	for (unsigned long k = 0, run; k < n; k += run) {
		run = MIN(n - k, 256 - (unsigned long)((pos + k) % 256));
		memcpy(buf + k, ramp + dd_pattern(pos + k), run);
	}
}

/* The first of @n bytes at @b that is not A's from @pos; @n if none */
static unsigned long dd_mismatch(const unsigned char *ramp, const unsigned char *b, uint64_t pos,
				 unsigned long n)
{
	for (unsigned long k = 0, run; k < n; k += run) {
		const unsigned char *want = ramp + dd_pattern(pos + k);

		run = MIN(n - k, 256 - (unsigned long)((pos + k) % 256));
		if (memcmp(b + k, want, run))
			for (unsigned long j = 0;; j++)
				if (b[k + j] != want[j])
					return k + j;
	}
	return n;
}

/* dd's buffer at byte @done (of @n) on the host, through its pte, as
 * iperf's device reads each frame: no fault, no event (km_follow_pte()),
 * so the counted run's events stay those of dd. *@chunk: its bytes up to
 * @n within the page; NULL where no page is mapped */
static unsigned char *dd_buffer_at(struct dd_run *r, unsigned long done, unsigned long n,
				   unsigned long *chunk, struct km_page **page)
{
	unsigned long addr = r->ubuf + done;

	*chunk = MIN(n - done, r->P - addr % r->P);
	if (km_follow_pte(km_task_mm(r->t), addr, NULL, page) || !*page)
		return NULL;
	return (unsigned char *)km_page_host(r->m, *page) + addr % r->P;
}

/* Before a checked read(2): dd's buffer holds no byte of A where the read
 * must put one -- each the inverse of A's -- so that a read that copies
 * nothing fails dd_check_buffer() even when the buffer still holds that
 * block from the pass before (one block per pass, bs = the
 * file). The shared zero page (a buffer never written) is left alone. */
static void __attribute__((noinline, cold)) dd_poison_buffer(struct dd_run *r)
{
	for (unsigned long done = 0, k; done < r->bs; done += k) {
		struct km_page *p;
		unsigned char *b = dd_buffer_at(r, done, r->bs, &k, &p);

		if (!b || p == r->zero)
			continue;
		dd_fill(r->ramp, b, r->in_pos + done, k);
		for (unsigned long j = 0; j < k; j++)
			b[j] ^= 0xff;
	}
}

/* After a read(2) of @n bytes of A (ending at r->in_pos), does dd's buffer
 * hold them? (This and dd_poison_buffer() are cold and not inlined, so the
 * timed runs' dd_block() stays small enough to be inlined, and their two
 * flag tests are all the checking the timed runs pay for.) */
static int __attribute__((noinline, cold)) dd_check_buffer(struct dd_run *r, unsigned long n)
{
	uint64_t pos = r->in_pos - n;
	char row[128];

	for (unsigned long done = 0, k, chunk; done < n; done += chunk) {
		struct km_page *p;
		const unsigned char *b = dd_buffer_at(r, done, n, &chunk, &p);

		if (!b)
			return km_err(-EFAULT, "dd: %s: dd's buffer at byte %lu is not mapped after "
				      "read(2)", dd_row(r, row, sizeof(row)), done);
		if ((k = dd_mismatch(r->ramp, b, pos + done, chunk)) < chunk)
			return km_err(-EFAULT, "dd: %s: after read(2), dd's buffer differs from A at "
				      "byte %llu (want 0x%02x, got 0x%02x)", dd_row(r, row, sizeof(row)),
				      (unsigned long long)(pos + done + k), dd_pattern(pos + done + k),
				      b[k]);
	}
	return 0;
}

/* ... and after the counted run, does B, the copy of A its last dd made,
 * hold A? (B's page cache; a hole reads as the zero page) */
static int dd_check_copy(struct dd_run *r)
{
	uint64_t size = km_shmem_file_size(r->in), got = km_shmem_file_size(r->out);
	char row[128];

	if (got != size)
		return km_err(-EFAULT, "dd: %s: B has %llu bytes, A %llu", dd_row(r, row, sizeof(row)),
			      (unsigned long long)got, (unsigned long long)size);
	for (uint64_t pos = 0; pos < size; pos += r->P) {
		struct km_page *p = km_shmem_file_page(r->out, (unsigned long)(pos / r->P));
		const unsigned char *b = km_page_host(r->m, p ? p : r->zero);
		unsigned long n = (unsigned long)MIN((uint64_t)r->P, size - pos);
		unsigned long k = dd_mismatch(r->ramp, b, pos, n);

		if (k < n)
			return km_err(-EFAULT, "dd: %s: B differs from A at byte %llu (want 0x%02x, "
				      "got 0x%02x)", dd_row(r, row, sizeof(row)),
				      (unsigned long long)(pos + k), dd_pattern(pos + k), b[k]);
	}
	return 0;
}

/* Why a copy failed when the variant broke the raw contract's bound (a
 * result above n: taken as nothing copied, a KM_R_UNEXPECTED report of
 * the uaccess wrappers): that report's message, else @otherwise */
static const char *dd_copy_why(const struct dd_run *r, const char *otherwise)
{
	for (size_t i = 0; km_report_count(r->m, KM_R_UNEXPECTED) && i < km_report_log_len(r->m); i++) {
		const struct km_report *rep = km_report_get(r->m, i);

		if (rep->code == KM_R_UNEXPECTED && strstr(rep->message, "more than asked"))
			return rep->message;
	}
	return otherwise;
}

/* one block: read(A), write(B); 0 with *@eof at the end of A */
static int dd_block(struct dd_run *r, uint64_t *copied, bool *eof)
{
	struct km_iovec iov = { r->ubuf, r->bs };
	struct km_iov_iter it;
	char row[128];
	long n, w;
	int err;

	if (r->check)
		dd_poison_buffer(r);
	if (r->ops) {
		km_syscall(r->t);	/* read(2) */
		km_iov_iter_init(&it, &iov, 1, r->bs);
		n = km_shmem_read_iter(r->t, r->ops, r->config_highmem, r->in, &r->in_pos, &it);
	} else {
		n = plain_read(r);
	}
	if ((*eof = n == 0))
		return 0;
	/* dd's buffer is resident and writable: a read that copies nothing
	 * is the variant's copy_to_user failing (busybox dd would exit with
	 * "read error: Bad address") */
	if (n < 0)
		return km_err((int)n, "dd: %s: read(2) of the input file at byte %llu failed "
			      "(%ld, %s)%s%s", dd_row(r, row, sizeof(row)),
			      (unsigned long long)r->in_pos, n, g_strerror((int)-n),
			      n == -EFAULT ? ": " : "",
			      n == -EFAULT ? dd_copy_why(r, "the variant's copy_to_user copied "
							 "nothing into dd's resident, writable buffer") : "");
	if (r->check && (err = dd_check_buffer(r, (unsigned long)n)))
		return err;
	if (r->ops) {
		iov.iov_len = (size_t)n;
		km_syscall(r->t);	/* write(2) */
		km_iov_iter_init(&it, &iov, 1, (size_t)n);
		w = km_shmem_write_iter(r->t, r->ops, r->out, &r->out_pos, &it);
	} else {
		w = plain_write(r, (unsigned long)n);
	}
	if (w == n) {
		*copied += (uint64_t)n;
		return 0;
	}
	/* a stall (-EDEADLK) keeps its message (dd_row_end()), unless the
	 * variant's copy broke its bound (taken as nothing copied, so the
	 * write path retried without progress): that fails the row; dd's
	 * buffer is resident and readable: a short write is a bug */
	if (w == -EDEADLK && *dd_copy_why(r, ""))
		return km_err(-EFAULT, "dd: %s: write(2) of the output file at byte %llu: %s",
			      dd_row(r, row, sizeof(row)), (unsigned long long)r->out_pos,
			      dd_copy_why(r, ""));
	if (w == -EDEADLK)
		return (int)w;
	if (w == -ENOMEM)
		return dd_no_memory(r);
	if (w < 0)
		return km_err((int)w, "dd: %s: write(2) of the output file at byte %llu "
			      "failed (%ld, %s)%s%s", dd_row(r, row, sizeof(row)),
			      (unsigned long long)r->out_pos, w, g_strerror((int)-w),
			      w == -EFAULT ? ": " : "",
			      w == -EFAULT ? dd_copy_why(r, "the fault-in of dd's resident buffer "
							 "failed") : "");
	return km_err(-EFAULT, "dd: %s: write(2) wrote %ld of %ld bytes%s%s",
		      dd_row(r, row, sizeof(row)), w, n, dd_copy_why(r, "")[0] ? ": " : "",
		      dd_copy_why(r, ""));
}

/* @passes dd invocations: each truncates B (of=B opens it with O_TRUNC)
 * and copies all of A, from its start to the read(2) that returns 0 */
static int dd_pass(struct dd_run *r, uint64_t passes, uint64_t *copied)
{
	int err = 0;

	*copied = 0;
	for (uint64_t i = 0; i < passes && !err; i++) {
		bool eof = false;

		r->in_pos = 0;
		km_shmem_file_truncate(r->out);
		r->out_pos = 0;
		while (!err && !eof)
			err = dd_block(r, copied, &eof);
		if (!err && !*copied)
			err = km_err(-EINVAL, "dd: the input file is empty");
	}
	return err;
}

/* a machine with a dd process: an mm, a task, the buffer, file A written
 * through it with dd_pattern() (the warm-up pass over A is the caller's) */
static int dd_setup(struct dd_run *r, const struct km_dd_machine *mach, enum km_kmap_flavour kmap,
		    enum km_kmap_strict strict, unsigned long bs, uint64_t file_bytes,
		    unsigned long buf_off)
{
	struct km_machine_config cfg = { .kmap = kmap, .ram_size = mach->ram_size,
					 .lowmem_size = mach->lowmem_size,
					 .fast_gup = mach->fast_gup, .kmap_strict = strict };
	unsigned long pages;
	unsigned char *pat;
	struct km_mm *mm;
	char row[128];
	int err;

	r->bs = bs;
	r->buf_off = buf_off;
	for (unsigned int i = 0; i < sizeof(r->ramp); i++)
		r->ramp[i] = (unsigned char)i;
	r->config_highmem = km_dd_machine_highmem(mach);
	r->runs = g_array_new(FALSE, FALSE, sizeof(double));
	r->best = G_MAXDOUBLE;
	if ((err = km_machine_new(&cfg, &r->m)))
		return err;
	/* a copy_to_user() that writes the pages of dd's buffer through a
	 * FOLL_WRITE pin and puts them clean (the RFC's) loses the data to
	 * writeback: a report per page (km_check_pinned_writes()) */
	km_check_pinned_writes(r->m, true);
	r->P = km_page_size(r->m);
	r->zero = km_zero_page(r->m);
	if ((err = km_mm_new(r->m, &mm)))
		return err;
	err = km_task_new(r->m, mm, 0, &r->t);
	km_mm_put(mm);
	if (!err)
		err = km_mmap(mm, 0, bs + buf_off, KM_PROT_READ | KM_PROT_WRITE, &r->ubuf);
	if (!err)
		err = km_shmem_file_new(r->m, &r->in);
	if (!err)
		err = km_shmem_file_new(r->m, &r->out);
	pages = (bs + buf_off + r->P - 1) / r->P;
	if (!err && !r->ops)
		r->uhost = g_new0(unsigned char *, pages);
	/* resolve the buffer's frames for the baseline (faulting them in),
	 * then write A from it, block by block, with the direct variant */
	for (unsigned long i = 0; i < pages && !err; i++) {
		struct km_page *p;

		if (km_user_access(r->t, r->ubuf + i * r->P, &(unsigned char){ 0 }, 1, true) < 0)
			err = km_err(-EFAULT, "dd: %s: faulting in page %lu of dd's buffer failed",
				     dd_row(r, row, sizeof(row)), i);
		else if (r->uhost && (km_follow_pte(mm, r->ubuf + i * r->P, NULL, &p) ||
				      !(r->uhost[i] = km_page_address(r->m, p))))
			err = km_err(-EINVAL, "dd: the baseline needs a lowmem buffer");
	}
	r->ubuf += buf_off;
	pat = g_malloc(bs);
	while (!err && km_shmem_file_size(r->in) < file_bytes) {
		uint64_t pos = km_shmem_file_size(r->in);
		struct km_iovec iov = { r->ubuf, (size_t)MIN((uint64_t)bs, file_bytes - pos) };
		struct km_iov_iter it;
		long w;

		dd_fill(r->ramp, pat, pos, iov.iov_len);
		if (km_user_access(r->t, r->ubuf, pat, iov.iov_len, true) < 0) {
			err = km_err(-EFAULT, "dd: %s: filling dd's buffer failed",
				     dd_row(r, row, sizeof(row)));
			break;
		}
		km_iov_iter_init(&it, &iov, 1, iov.iov_len);
		w = km_shmem_write_iter(r->t, &km_uaccess_direct, r->in, &pos, &it);
		if (w != (long)iov.iov_len)
			err = km_err(w < 0 ? (int)w : -EFAULT, "dd: %s: writing the input file at byte "
				     "%llu (through the direct variant) returned %ld of %zu",
				     dd_row(r, row, sizeof(row)), (unsigned long long)pos, w,
				     iov.iov_len);
	}
	g_free(pat);
	return err;
}

/* r->by_code: the reports since r->reports0 */
static void dd_count_reports(struct dd_run *r)
{
	for (int c = 0; c < KM_R__COUNT; c++)
		r->by_code[c] = km_report_count(r->m, (enum km_report_code)c) - r->reports0[c];
}

/* An error of the row's dd ends the row, not the run: -EDEADLK (an atomic
 * copy that never progresses: the kernel would retry for ever) stalls it;
 * any other -- its read(2) or write(2) failed, where busybox dd exits with
 * "read error: Bad address" (the run ended, every row lost) --
 * fails it. The row keeps the reports recorded until then. */
static int dd_row_end(struct dd_run *r, int err)
{
	char row[128];
	gchar *prefix;

	if (!err)
		return 0;
	if (err == -EDEADLK) {
		r->stalled = true;
	} else {
		/* the cause, without the "dd: <row>: " the message starts with */
		prefix = g_strdup_printf("dd: %s: ", dd_row(r, row, sizeof(row)));
		r->error = g_strdup(km_last_error() +
				    (g_str_has_prefix(km_last_error(), prefix) ? strlen(prefix) : 0));
		g_free(prefix);
	}
	dd_count_reports(r);
	return 0;
}

/* One timed run of @passes dd invocations, not counting events (a counter
 * update costs host time: docs/bench.md, "Counting the events"; dd_counted() counts
 * them). Reports are counted per run (a difference of the counters, which
 * count on or off); the report log keeps its first 1024 messages, and once
 * it is full a run pays for counting a BUG/WARN, not for formatting it.
 * Not inlined: a callgrind boundary for a timed run's instructions
 * (docs/bench.md, "Counting the events": --dump-before/--dump-after). */
static int __attribute__((noinline)) dd_timed(struct dd_run *r, uint64_t passes)
{
	double t0;
	int err;

	for (int c = 0; c < KM_R__COUNT; c++)
		r->reports0[c] = km_report_count(r->m, (enum km_report_code)c);
	uint64_t insn;

	km_events_set_counting(r->m, false);
	insn = km_insn_read(r->insn_fd);
	t0 = km_scenario_now();
	err = dd_pass(r, passes, &r->copied);
	t0 = km_scenario_now() - t0;
	insn = km_insn_read(r->insn_fd) - insn;
	km_events_set_counting(r->m, true);
	if (r->insn_fd >= 0 && (!r->insn_best || insn < r->insn_best))
		r->insn_best = insn;
	r->best = MIN(r->best, t0);
	g_array_append_val(r->runs, t0);
	dd_count_reports(r);
	return err;
}

/* The row's events: one more, untimed run of @passes dd invocations after
 * the timed ones, counted (the machine in the state a timed run starts
 * from); its reports are not the row's (those of the last timed run are).
 * It checks the copy, outside the timed runs and without an event: dd's
 * buffer after each read(2), then B (dd_check_buffer(), dd_check_copy();
 * a variant that copied the wrong bytes got a normal row and
 * exit 0). A wrong byte fails the row.
 * Not inlined: the callgrind boundary of a counted run, as dd_timed(). */
static int __attribute__((noinline)) dd_counted(struct dd_run *r, uint64_t passes)
{
	uint64_t copied;
	int err;

	km_events_reset(r->m);
	r->check = true;
	err = dd_pass(r, passes, &copied);
	r->check = false;
	km_events_get(r->m, &r->ev);
	return err ? err : dd_check_copy(r);
}

/* Tear the row's machine down; a problem the teardown finds -- the dd
 * process exiting with preempt_count or pagefault_disabled raised or a
 * kmap_local slot held, a leak -- fails the row: said in @failed and in
 * *@codes, its `teardown` column (the task's exit reports
 * were cleared unseen: the row did not say so). */
static void dd_teardown(struct dd_run *r, GString *failed, gchar **codes)
{
	char row[128];

	*codes = NULL;
	if (r->m) {
		km_shmem_file_free(r->in);
		km_shmem_file_free(r->out);
		km_scenario_teardown(r->m, r->t, dd_row(r, row, sizeof(row)), failed, codes);
		r->m = NULL;
	}
}

/* ... and free what is left of it, the row made */
static void dd_free(struct dd_run *r)
{
	if (r->runs)
		g_array_free(r->runs, TRUE);
	g_free(r->uhost);
	g_free(r->error);
}

/* ---- the table ----------------------------------------------------------------- */

static const struct km_column columns[] = {
	{ "variant", "variant", "", KM_VALUE_STRING, -19, 0, KM_COL_TEXT | KM_COL_KEY,
	  "uaccess variant; memcpy: the baseline" },
	{ "builtin", "", "", KM_VALUE_BOOL, 0, 0, KM_COL_KEY,
	  "compiled into libkmodel (flattened with the model); else built outside, not inlined" },
	{ "machine", "machine", "", KM_VALUE_STRING, -13, 0, KM_COL_TEXT | KM_COL_KEY,
	  "machine profile" },
	{ "kmap", "kmap", "", KM_VALUE_STRING, -8, 0, KM_COL_TEXT | KM_COL_KEY,
	  "kmap era: pre-5.11 (kmap_atomic) or 5.11 (kmap_local)" },
	{ "kmap_strict", "strict", "", KM_VALUE_STRING, -9, 0, KM_COL_TEXT | KM_COL_KEY,
	  "strict kmap mode: off, strict (highmem slots with guard pages), force-map (every kmap)" },
	{ "highmem", "hmem", "", KM_VALUE_BOOL, -4, 0, KM_COL_TEXT | KM_COL_KEY,
	  "the machine has highmem (and its kernel CONFIG_HIGHMEM)" },
	{ "fast_gup", "", "", KM_VALUE_BOOL, 0, 0, KM_COL_KEY, "CONFIG_HAVE_FAST_GUP" },
	{ "block_size", "bs", "bytes", KM_VALUE_INT, 8, 0, KM_COL_TEXT | KM_COL_KEY, "dd bs=" },
	{ "stalled", "", "", KM_VALUE_BOOL, 0, 0, 0,
	  "the write path's atomic copy never progresses: the kernel would retry for ever" },
	{ "error", "", "", KM_VALUE_STRING, 0, 0, 0,
	  "why the row failed: its dd's read(2) or write(2) returned an error (where busybox "
	  "dd exits, e.g. \"read error: Bad address\"), or the counted run found a wrong "
	  "byte in dd's buffer after a read(2) or in B (\"B differs from A at byte X (want "
	  "0x.., got 0x..)\"), or the process that ran the row isolated died (kmodel-bench: "
	  "a plugin's variant that crashed or timed out): no numbers, the run exits 1; none "
	  "when it completed" },
	{ "teardown", "", "", KM_VALUE_STRING, 0, 0, 0,
	  "what the row's teardown found, by code with counts (\"leak_atomic 1\": the dd "
	  "process exited with pagefault_disabled or preempt_count raised; leaks): the run "
	  "exits 1; none when clean" },
	{ "host_mb_s", "MB/s", "MB/s", KM_VALUE_DOUBLE, 10, 1, KM_COL_TEXT,
	  "host throughput, 10^6 bytes/s, best timed run" },
	{ "memcpy_mb_s", "", "MB/s", KM_VALUE_DOUBLE, 0, 1, 0,
	  "the baseline's host throughput in the same run" },
	{ "ratio", "ratio", "", KM_VALUE_DOUBLE, 6, 3, KM_COL_TEXT,
	  "host_mb_s / memcpy_mb_s" },
	{ "spread_pct", "spread%", "%", KM_VALUE_DOUBLE, 7, 1, KM_COL_TEXT,
	  "median timed run over the best, percent: the row's noise" },
	{ "host_minsn_per_mib", "Minsn/MiB", "10^6 instructions per MiB", KM_VALUE_DOUBLE, 9, 2,
	  KM_COL_TEXT, "the host's retired user-mode instructions per MiB copied, fewest of the "
	  "timed runs (perf_event_open(2)): the simulator's cost, which load on the host "
	  "barely moves; none where the host counts none (km_scenario_host_insn())" },
	{ "reports", "reports", "per timed run", KM_VALUE_INT, 8, 0, KM_COL_TEXT,
	  "BUG/WARN reports in the last timed run (by code: the reports_<code> columns); "
	  "a stalled row's until its stall" },
	{ "reports_per_mib", "", "per MiB", KM_VALUE_DOUBLE, 0, 1, 0,
	  "BUG/WARN reports per MiB copied in the last timed run" },
};

/* the counters the text table shows */
static const char *const text_events[] = {
	"gup_calls", "gup_slow_pages", "page_faults", "kmap_high", "tlb_flushes", "kmalloc_calls",
	NULL
};

static const char *strict_name(enum km_kmap_strict s)
{
	return s == KM_KMAP_STRICT_FORCE_MAP ? "force-map" : s == KM_KMAP_STRICT ? "strict" : "off";
}

static bool builtin_uaccess(const struct km_uaccess_ops *ops)
{
	for (const struct km_uaccess_ops *const *v = km_uaccess_variants(); *v; v++)
		if (*v == ops)
			return true;
	return false;
}

static void add_row(struct km_table *t, const struct dd_run *r, const struct km_dd_case *c,
		    enum km_kmap_strict strict, double memcpy_mb_s, const char *teardown)
{
	size_t row = km_table_add_row(t);
	double mib = (double)r->copied / MiB, mbs;

	km_table_set_str(t, row, "variant", variant_name(c));
	km_table_set_bool(t, row, "builtin", !c->ops || builtin_uaccess(c->ops));
	km_table_set_str(t, row, "machine", c->machine->name);
	km_table_set_str(t, row, "kmap", kmap_name(c->kmap));
	km_table_set_str(t, row, "kmap_strict", strict_name(strict));
	km_table_set_bool(t, row, "highmem", km_dd_machine_highmem(c->machine));
	km_table_set_bool(t, row, "fast_gup", c->machine->fast_gup);
	km_table_set_int(t, row, "block_size", (int64_t)r->bs);
	km_table_set_bool(t, row, "stalled", r->stalled);
	km_table_set_int(t, row, "reports", (int64_t)r->by_code[KM_R_NONE]);
	km_table_set_reports(t, row, r->by_code);
	if (r->error)
		km_table_set_str(t, row, "error", r->error);
	if (teardown)
		km_table_set_str(t, row, "teardown", teardown);
	if (r->stalled || r->error)
		return;
	mbs = (double)r->copied / r->best / 1e6;
	km_table_set_double(t, row, "host_mb_s", mbs);
	km_table_set_double(t, row, "memcpy_mb_s", memcpy_mb_s);
	km_table_set_double(t, row, "ratio", mbs / memcpy_mb_s);
	km_table_set_double(t, row, "spread_pct", km_scenario_spread_pct(r->runs, r->best));
	if (r->insn_best)
		km_table_set_double(t, row, "host_minsn_per_mib", (double)r->insn_best / mib / 1e6);
	km_table_set_double(t, row, "reports_per_mib", (double)r->by_code[KM_R_NONE] / mib);
	km_table_set_events(t, row, &r->ev, mib);
}

static int check_opts(const struct km_dd_opts *o, const struct km_dd_case *cases, size_t n)
{
	if (o->nblock_sizes && !o->block_sizes)
		return km_err(-EINVAL, "dd: %zu block sizes in a NULL array", o->nblock_sizes);
	for (size_t i = 0; i < o->nblock_sizes; i++)
		if (o->block_sizes[i] < 1 || o->block_sizes[i] > 64 * MiB)
			return km_err(-EINVAL, "dd: block size %lu is outside 1 .. 64 MiB",
				      o->block_sizes[i]);
	if (o->repeat > 100)
		return km_err(-EINVAL, "dd: repeat %u is above 100", o->repeat);
	if ((unsigned int)o->kmap_strict > KM_KMAP_STRICT_FORCE_MAP)
		return km_err(-EINVAL, "dd: kmap_strict %d is not a strict kmap mode",
			      (int)o->kmap_strict);
	for (size_t i = 0; i < n; i++) {
		if (!cases[i].ops || !cases[i].machine)
			return km_err(-EINVAL, "dd: case %zu has no variant or machine", i);
		if (cases[i].ops->size < KM_UACCESS_OPS_MIN_SIZE || !cases[i].ops->name ||
		    !cases[i].ops->raw_copy_from_user || !cases[i].ops->raw_copy_to_user)
			return km_err(-EINVAL, "dd: case %zu: the variant is incomplete", i);
	}
	return 0;
}

/* The largest input file, in pages, that @mach holds with the output file
 * of the same size and a buffer of @bs: both files live in its page cache
 * (tmpfs) and the buffer in its RAM; the zero page takes one page more
 * (the machines have 4 KiB pages). The buffer is counted at its offset
 * into a page, DD_BUF_OFFSET: a page-aligned one takes no more pages. */
static uint64_t dd_max_file_pages(const struct km_dd_machine *mach, unsigned long bs)
{
	uint64_t ram = mach->ram_size / 4096, buf = (bs + DD_BUF_OFFSET + 4095) / 4096;

	return ram < 1 + buf ? 0 : (ram - 1 - buf) / 2;
}

/* Do the files fit in @mach's RAM at @bs? (a file too large
 * ran out of pages half-way, with an empty message) */
static int dd_check_fit(const struct km_dd_machine *mach, unsigned long bs, uint64_t file_bytes,
			bool baseline)
{
	uint64_t max = dd_max_file_pages(mach, bs);

	if ((file_bytes + 4095) / 4096 <= max)
		return 0;
	return km_err(-EINVAL, "dd: %s (%lu MiB of RAM%s) cannot hold the input and output "
		      "files of %llu bytes each and a buffer of %lu: at most %llu MiB per file "
		      "at this block size", mach->name, mach->ram_size / MiB,
		      baseline ? ", where the memcpy baseline runs" : "",
		      (unsigned long long)file_bytes, bs, (unsigned long long)(max * 4096 / MiB));
}

/* @run (dd_timed() or dd_counted()) on each row of @runs[0..n] that has
 * neither stalled nor failed, as its task (dd_row_end()) */
static int run_each(struct dd_run *runs, size_t n, int (*run)(struct dd_run *, uint64_t),
		    uint64_t passes)
{
	int rc = 0;

	for (size_t v = 0; v <= n && !rc; v++) {
		if (runs[v].stalled || runs[v].error)
			continue;
		km_task_switch(runs[v].t);
		rc = dd_row_end(&runs[v], run(&runs[v], passes));
		km_task_switch(NULL);
	}
	return rc;
}

/* all cases (and the baseline first) at one block size */
static int run_block_size(const struct km_dd_opts *o, const struct km_dd_case *cases, size_t n,
			  unsigned long bs, uint64_t passes, uint64_t file_bytes, unsigned int repeat,
			  int insn_fd, struct km_table *t, GString *failed)
{
	struct km_dd_case base = { NULL, &machines[0], KM_KMAP_ATOMIC_PRE_5_11 };
	struct dd_run *runs;
	uint64_t copied;
	int rc = dd_check_fit(base.machine, bs, file_bytes, true);

	for (size_t v = 0; v < n && !rc; v++)
		rc = dd_check_fit(cases[v].machine, bs, file_bytes, false);
	if (rc)
		return rc;
	runs = g_new0(struct dd_run, n + 1);
	for (size_t v = 0; v <= n && !rc; v++) {
		const struct km_dd_case *c = v ? &cases[v - 1] : &base;

		runs[v].c = c;
		runs[v].insn_fd = insn_fd;
		runs[v].ops = c->ops;
		km_set_error("%s", "");	/* a message from what fails, not a stale one */
		rc = dd_setup(&runs[v], c->machine, c->kmap, v ? o->kmap_strict : KM_KMAP_STRICT_OFF,
			      bs, file_bytes, o->buffer_page_aligned ? 0 : DD_BUF_OFFSET);
		if (rc && !g_str_has_prefix(km_last_error(), "dd: ")) {	/* say which row */
			gchar *why = g_strdup(*km_last_error() ? km_last_error() : g_strerror(-rc));
			char row[128];

			km_err(rc, "dd: %s: setting up its machine failed (%d): %s",
			       dd_row(&runs[v], row, sizeof(row)), rc, why);
			g_free(why);
		}
		if (!rc)	/* one warm-up pass over A */
			rc = dd_row_end(&runs[v], dd_pass(&runs[v], 1, &copied));
	}
	if (!rc && runs[0].stalled)
		rc = km_err(-EFAULT, "dd: the baseline stalled");
	if (!rc && runs[0].error)
		rc = km_err(-EFAULT, "dd: the memcpy baseline failed: %s", runs[0].error);
	/* interleave baseline and variants so drift hits all alike */
	for (unsigned int i = 0; i < repeat && !rc; i++) {
		if (o->progress)
			o->progress(o->progress_arg, bs, i + 1, repeat);
		rc = run_each(runs, n, dd_timed, passes);
	}
	if (!rc)
		rc = run_each(runs, n, dd_counted, passes);
	for (size_t v = 0; v <= n; v++) {
		const struct km_dd_case *c = v ? &cases[v - 1] : &base;
		gchar *teardown;

		if (!rc && runs[v].error) {	/* the cause up to its ": ": the row has it all */
			char row[128];
			const char *end = strstr(runs[v].error, ": ");

			g_string_append_printf(failed, "; %s: %.*s", dd_row(&runs[v], row, sizeof(row)),
					       end ? (int)(end - runs[v].error) : (int)strlen(runs[v].error),
					       runs[v].error);
		}
		dd_teardown(&runs[v], failed, &teardown);	/* the row says what it found */
		if (!rc)
			add_row(t, &runs[v], c, v ? o->kmap_strict : KM_KMAP_STRICT_OFF,
				(double)runs[0].copied / runs[0].best / 1e6, teardown);
		g_free(teardown);
		dd_free(&runs[v]);
	}
	g_free(runs);
	return rc;
}

/* km_dd_run() on the library's copies of the options and cases */
static int dd_run(struct km_dd_opts o, const struct km_dd_case *cases, size_t n,
		  struct km_table **out)
{
	static const unsigned long dd_default_bs = 512;
	uint64_t total, file_bytes, passes;
	unsigned int repeat;
	struct km_table *t;
	GString *failed;
	int rc, insn_fd;

	if (!o.nblock_sizes) {
		o.block_sizes = &dd_default_bs;
		o.nblock_sizes = 1;
	}
	if ((rc = check_opts(&o, cases, n)))
		return rc;
	total = o.total_bytes ? o.total_bytes : 64 * MiB;
	file_bytes = o.file_bytes ? o.file_bytes : 16 * MiB;
	repeat = o.repeat ? o.repeat : 9;
	/* whole dd invocations per timed run (see the top of this file) */
	passes = (total - 1) / file_bytes + 1;
	failed = g_string_new(NULL);
	t = km_table_new("dd", "dd if=<tmpfs file> of=<tmpfs file>: host MB/s (10^6 bytes/s), "
			 "ratio to memcpy, reports per timed run, events per MiB copied",
			 columns, G_N_ELEMENTS(columns));
	km_table_add_event_columns(t, "mib", text_events);
	km_table_add_report_columns(t, "per timed run", "BUG/WARN reports of this code "
				    "(kmodel/machine.h) in the last timed run; a stalled row's "
				    "until its stall");
	insn_fd = km_insn_open();
	for (size_t s = 0; s < o.nblock_sizes && !rc; s++) {
		unsigned long bs = o.block_sizes[s];

		if (file_bytes < bs)
			rc = km_err(-EINVAL, "dd: the input file (%llu bytes) is smaller than "
				    "a block (%lu)", (unsigned long long)file_bytes, bs);
		else
			rc = run_block_size(&o, cases, n, bs, passes, file_bytes, repeat, insn_fd,
					    t, failed);
	}
	km_insn_close(insn_fd);
	if (rc) {
		g_string_free(failed, TRUE);
		km_table_free(t);
		return rc;
	}
	/* the table is kept: the rows that did not fail are good */
	if (failed->len)
		rc = km_scenario_fail(-EFAULT, "dd", "rows that failed", failed);
	g_string_free(failed, TRUE);
	*out = t;
	return rc;
}

int km_dd_run_sized(const struct km_dd_opts *opts, size_t opts_size, const struct km_dd_case *cases,
		    size_t case_size, size_t n, struct km_table **out)
{
	struct km_dd_opts o = { 0 };
	struct km_dd_case *lib_cases;
	int rc;

	if (!out || (n && !cases))
		return km_err(-EINVAL, "km_dd_run: NULL argument");
	*out = NULL;
	if ((opts && opts_size < KM_DD_OPTS_MIN_SIZE) || (n && case_size < KM_DD_CASE_MIN_SIZE))
		return km_err(-EINVAL, "km_dd_run: opts size %zu (< %zu) or case size %zu (< %zu)",
			      opts_size, (size_t)KM_DD_OPTS_MIN_SIZE, case_size,
			      (size_t)KM_DD_CASE_MIN_SIZE);
	if (opts)
		km_struct_read(&o, sizeof(o), opts, opts_size);
	/* the caller's cases, at its stride, as the library's */
	lib_cases = g_new0(struct km_dd_case, n ? n : 1);
	for (size_t i = 0; i < n; i++)
		km_struct_read(&lib_cases[i], sizeof(lib_cases[i]),
			       (const char *)cases + i * case_size, case_size);
	rc = dd_run(o, lib_cases, n, out);
	g_free(lib_cases);
	return rc;
}

