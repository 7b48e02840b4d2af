// SPDX-License-Identifier: GPL-2.0
/*
 * The seed's benchmark: `dd if=/dev/zero of=<file on tmpfs> bs=N`.
 *
 * read(2) of /dev/zero: read_iter_zero() (drivers/char/mem.c, v5.7) clears
 * the user buffer a PAGE_SIZE chunk at a time with clear_user(), which the
 * RFC leaves as it is.
 * write(2) to tmpfs: generic_perform_write() (mm/filemap.c, v5.7) with
 * shmem_write_begin/end (mm/shmem.c): per page of the file,
 * iov_iter_fault_in_readable(), find or allocate the page-cache page
 * (GFP_HIGHUSER_MOVABLE: highmem first), then
 * iov_iter_copy_from_user_atomic(): kmap_atomic(page) and copyin() =
 * access_ok() + raw_copy_from_user() of the variant, in atomic context.
 * Once the file reaches --dd-file-mib it is dropped and dd starts a new
 * one, so page-cache pages are allocated as in a real run while the host
 * memory behind them stays warm.
 * Baseline ("memcpy"): the same dd loop on its own machine over the same
 * kind of frames, page-cache pages found and allocated alike, but the bytes
 * move with plain memset()/memcpy() between host addresses resolved once:
 * no clear_user, fault-in, kmap_atomic, access_ok or uaccess variant. The
 * ratio is thus what the modelled uaccess path costs over the bare copies.
 * Simplifications: no writeback, no balance_dirty_pages, no syscall entry.
 */
#include "bench.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MiB (1024UL * 1024)

struct dd_run {
	struct km_machine *m;
	struct km_task *t;
	const struct km_uaccess_ops *ops;	/* NULL: the memcpy baseline */
	unsigned char **uhost;	/* baseline: host address of each buffer page */
	unsigned long ubuf, bs, P;
	GPtrArray *file;	/* page cache: struct km_page *, NULL for holes */
	unsigned long pos, file_size;
	bool stalled;		/* an atomic copy made no progress: no row */
};

/* Drop the file's pages. Last index first: the page allocator's free list
 * is LIFO, so the next file gets the same frames in the same order and the
 * host sees the same access pattern on every pass. */
static void file_drop(struct dd_run *r)
{
	for (guint i = r->file->len; i-- > 0;) {
		if (g_ptr_array_index(r->file, i))
			km_put_page(r->m, g_ptr_array_index(r->file, i));
		g_ptr_array_index(r->file, i) = NULL;	/* the array keeps its size */
	}
	r->pos = 0;
}

/* The baseline calls the C library's memset/memcpy, as the simulated path
 * does; through volatile pointers so the compiler cannot inline its own. */
static void *(*volatile host_memcpy)(void *, const void *, size_t) = memcpy;
static void *(*volatile host_memset)(void *, int, size_t) = memset;

/* baseline: copy @len bytes at buffer offset @uoff to @dst (or clear them
 * when @dst is NULL), split at buffer page boundaries */
static void plain_user(struct dd_run *r, unsigned char *dst, unsigned long uoff,
		       unsigned long len)
{
	while (len) {
		unsigned long chunk = MIN(len, r->P - uoff % r->P);
		unsigned char *u = r->uhost[uoff / r->P] + uoff % r->P;

		if (dst) {
			host_memcpy(dst, u, chunk);
			dst += chunk;
		} else {
			host_memset(u, 0, chunk);
		}
		uoff += chunk;
		len -= chunk;
	}
}

/* read(/dev/zero, ubuf, bs) */
static int dd_read(struct dd_run *r)
{
	if (!r->ops) {
		plain_user(r, NULL, 0, r->bs);
		return 0;
	}
	for (unsigned long done = 0; done < r->bs;) {
		unsigned long chunk = MIN(r->bs - done, r->P);

		if (km_clear_user(r->t, r->ubuf + done, chunk))
			return -EFAULT;
		done += chunk;
	}
	return 0;
}

/* write(fd, ubuf, bs): generic_perform_write() */
static int dd_write(struct dd_run *r)
{
	unsigned long done = 0;

	while (done < r->bs) {
		unsigned long index = r->pos / r->P, offset = r->pos % r->P;
		unsigned long bytes = MIN(r->P - offset, r->bs - done);
		unsigned long ua = r->ubuf + done, left;
		struct km_page *page;
		unsigned char c;
		char *kaddr;

		if (!r->ops)
			goto write_begin;
		/* iov_iter_fault_in_readable() -> fault_in_pages_readable():
		 * __get_user() of the first byte of each page the range
		 * touches, then of its last byte if that spilled further */
		{
			unsigned long u = ua, end = ua + bytes - 1;

			do {
				if (km_user_access(r->t, u, &c, 1, false) != 1)
					return -EFAULT;
				u += r->P;
			} while (u <= end);
			if ((u & ~(r->P - 1)) == (end & ~(r->P - 1)) &&
			    km_user_access(r->t, end, &c, 1, false) != 1)
				return -EFAULT;
		}
write_begin:	/* shmem_write_begin(): find or allocate the page-cache page */
		if (index >= r->file->len)	/* a guard: dd_setup() sized it for the file */
			g_ptr_array_set_size(r->file, (guint)index + 1);
		page = g_ptr_array_index(r->file, index);
		if (!page) {
			page = km_alloc_page(r->m, KM_GFP_HIGHMEM);
			if (!page)
				return -ENOMEM;
			g_ptr_array_index(r->file, index) = page;
			if (bytes < r->P) {	/* shmem_write_end(): zero the rest */
				kaddr = km_kmap_atomic(r->t, page);
				memset(kaddr, 0, r->P);
				km_kunmap_atomic(r->t, kaddr);
			}
		}
		if (!r->ops) {
			kaddr = km_page_address(r->m, page);
			if (!kaddr)	/* highmem has no address: the bench's config has none */
				return -EINVAL;
			plain_user(r, (unsigned char *)kaddr + offset, done, bytes);
			goto next;
		}
		/* iov_iter_copy_from_user_atomic() */
		kaddr = km_kmap_atomic(r->t, page);
		left = km_uaccess_access_ok(r->t, ua, bytes)
			       ? r->ops->raw_copy_from_user(kaddr + offset, ua, bytes)
			       : bytes;
		km_kunmap_atomic(r->t, kaddr);
		/* nothing copied: generic_perform_write() faults the page in and
		 * retries -- forever when the variant cannot copy in atomic
		 * context at all (gup_kmap_fixed without fast_gup) */
		if (left == bytes)
			return -EDEADLK;
		if (left)	/* dd's buffer is resident: a short copy is a bug */
			return -EFAULT;
next:
		r->pos += bytes;
		done += bytes;
	}
	if (r->pos >= r->file_size)
		file_drop(r);
	return 0;
}

static int dd_pass(struct dd_run *r, unsigned long total)
{
	for (unsigned long n = 0; n < total; n += r->bs) {
		int err = dd_read(r);

		if (!err)
			err = dd_write(r);
		if (err)
			return err;
	}
	return 0;
}

struct dd_result {
	double secs;		/* best of the timed runs */
	GArray *runs;		/* seconds of each timed run (double) */
	struct km_events ev;	/* of the last timed run */
	unsigned long bugs;	/* BUG/WARN reports of the last timed run */
};

static gint cmp_double(gconstpointer a, gconstpointer b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* How much slower the median timed run was than the best, in percent: the
 * row's noise. (Sorts @res->runs.) */
static double spread_pct(const struct dd_result *res)
{
	GArray *r = res->runs;
	double median;

	g_array_sort(r, cmp_double);
	median = r->len % 2 ? g_array_index(r, double, r->len / 2)
			    : (g_array_index(r, double, r->len / 2 - 1) +
			       g_array_index(r, double, r->len / 2)) / 2;
	return (median - res->secs) / res->secs * 100;
}

/* A machine with a dd process: an mm, a task, a bs-byte buffer, warmed up
 * by writing one file's worth. */
/* The machines of the seed's measurements, and two variations. */
struct dd_machine {
	const char *name, *summary;
	uint64_t ram, lowmem;		/* bytes; lowmem 0: all of RAM */
	bool fast_gup;			/* CONFIG_HAVE_FAST_GUP (ARM_LPAE) */
};

static const struct dd_machine dd_machines[] = {
	{ "bbw", "BeagleBone White, Cortex-A8: 256 MiB, all lowmem, no LPAE (no fast GUP)",
	  256 * MiB, 0, false },
	{ "bbw-highmem", "bbw with lowmem capped at 128 MiB: user and page-cache pages are highmem",
	  256 * MiB, 128 * MiB, false },
	{ "a15", "Cortex-A15 with LPAE, 2 GiB (the seed's QEMU run): 768 MiB lowmem, fast GUP",
	  2048 * MiB, 0, true },
	{ "a15-nohighmem", "a15 with highmem disabled: only its 768 MiB of lowmem", 768 * MiB, 0,
	  true },
};

/* One row's machine: a variant (NULL: the memcpy baseline), a machine and
 * a kmap era. */
struct dd_case {
	const struct km_uaccess_ops *ops;
	const struct dd_machine *mach;
	enum km_kmap_flavour kmap;
};

static bool dd_highmem(const struct dd_machine *d)
{
	return d->lowmem ? d->lowmem < d->ram : d->ram > 768 * MiB;
}

static const char *kmap_name(enum km_kmap_flavour k)
{
	return k == KM_KMAP_LOCAL ? "5.11" : "pre-5.11";
}

static int dd_setup(const struct kb_opts *o, const struct dd_case *c, unsigned long bs,
		    struct dd_run *r)
{
	struct km_machine_config cfg = { .kmap = c->kmap, .ram_size = c->mach->ram,
					 .lowmem_size = c->mach->lowmem,
					 .fast_gup = c->mach->fast_gup };
	const struct km_uaccess_ops *ops = c->ops;
	struct km_mm *mm;
	int err;

	*r = (struct dd_run){ .ops = ops, .bs = bs, .file = g_ptr_array_new() };
	err = km_machine_new(&cfg, &r->m);
	if (err)
		return err;
	r->P = km_page_size(r->m);
	r->file_size = (unsigned long)o->dd_file_mib * MiB;
	/* the page cache's index, sized once: all holes (NULL) */
	g_ptr_array_set_size(r->file, (guint)((r->file_size + bs) / r->P + 1));
	if ((err = km_mm_new(r->m, &mm)))
		return err;
	err = km_task_new(r->m, mm, 0, &r->t);
	km_mm_put(mm);
	if (!err)
		err = km_mmap(mm, 0, bs, KM_PROT_READ | KM_PROT_WRITE, &r->ubuf);
	if (!err && !ops) {	/* baseline: fault the buffer in, resolve its frames */
		unsigned long pages = (bs + r->P - 1) / r->P;

		r->uhost = g_new0(unsigned char *, pages);
		for (unsigned long i = 0; i < pages && !err; i++) {
			struct km_page *p;
			unsigned char c = 0;

			if (km_user_access(r->t, r->ubuf + i * r->P, &c, 1, true) != 1 ||
			    km_follow_pte(mm, r->ubuf + i * r->P, NULL, &p) ||
			    !(r->uhost[i] = km_page_address(r->m, p)))
				err = -EFAULT;
		}
	}
	if (!err) {
		km_task_switch(r->t);
		err = dd_pass(r, r->file_size);
		km_task_switch(NULL);
	}
	return err;
}

/* One timed pass. Reports are counted per pass (a difference of the
 * counters). The report log is not cleared: it keeps the first 1024
 * messages (with the default --dd-file-mib the setup pass writes them all),
 * and once it is full a pass pays for counting a BUG/WARN, not for
 * formatting it -- as the kernel's ___might_sleep() prints at most once a
 * second. dd_teardown() clears it, so teardown leaks are logged in full. */
static int dd_timed(struct dd_run *r, unsigned long total, struct dd_result *res)
{
	unsigned long bugs0 = km_report_count(r->m, KM_R_NONE);
	double t0;
	int err;

	km_task_switch(r->t);
	km_events_reset(r->m);
	t0 = kb_now();
	err = dd_pass(r, total);
	t0 = kb_now() - t0;
	res->secs = MIN(res->secs, t0);
	g_array_append_val(res->runs, t0);
	km_task_switch(NULL);
	km_events_get(r->m, &res->ev);
	res->bugs = km_report_count(r->m, KM_R_NONE) - bugs0;
	return err;
}

/* -EDEADLK (an atomic copy that never progresses) ends the row, not the run. */
static int dd_stall(struct dd_run *r, int err)
{
	if (err != -EDEADLK)
		return err;
	r->stalled = true;
	return 0;
}

/* Tear down; a teardown problem (a leak) fails the row. */
static int dd_teardown(struct dd_run *r)
{
	int err = 0;

	if (r->m) {
		file_drop(r);
		if (r->t)
			km_task_free(r->t);
		km_reports_clear(r->m);	/* room in the log for the teardown checks */
		if (km_machine_destroy(r->m))
			err = -EFAULT;
	}
	if (r->file)
		g_ptr_array_free(r->file, TRUE);
	g_free(r->uhost);
	return err;
}

static void print_header(const struct kb_out *out)
{
	if (out->opts->csv)
		printf("name,variant,machine,kmap,highmem,fast_gup,block_size,host_mb_s,memcpy_mb_s,ratio,gup_calls_per_mib,"
		       "pages_pinned_per_mib,kmaps_per_mib,tlb_flushes_per_mib,"
		       "kmalloc_calls_per_mib,reports_per_mib,spread_pct\n");
	else if (!out->opts->json)
		printf("dd if=/dev/zero of=tmpfs: host MB/s (10^6 bytes/s), ratio to memcpy, "
		       "events per MiB written\n"
		       "%-14s %-13s %-8s %-4s %8s %10s %6s %8s %8s %8s %8s %8s %8s %7s\n", "variant",
		       "machine", "kmap", "hmem", "bs", "MB/s", "ratio", "gup", "pinned", "kmaps", "tlbflush", "kmalloc",
		       "reports", "spread%");
}

/* {"name": "dd", "variant", "kmap", "machine", "highmem", "fast_gup", "block_size", ... */
static void json_row_begin(JsonBuilder *b, const struct dd_case *c, unsigned long bs)
{
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "name");
	json_builder_add_string_value(b, "dd");
	json_builder_set_member_name(b, "variant");
	json_builder_add_string_value(b, c->ops ? c->ops->name : "memcpy");
	json_builder_set_member_name(b, "kmap");
	json_builder_add_string_value(b, kmap_name(c->kmap));
	json_builder_set_member_name(b, "machine");
	json_builder_add_string_value(b, c->mach->name);
	json_builder_set_member_name(b, "highmem");
	json_builder_add_boolean_value(b, dd_highmem(c->mach));
	json_builder_set_member_name(b, "fast_gup");
	json_builder_add_boolean_value(b, c->mach->fast_gup);
	json_builder_set_member_name(b, "block_size");
	json_builder_add_int_value(b, (gint64)bs);
}

static void print_row(const struct kb_out *out, const struct dd_case *c, unsigned long bs,
		      double mbs, double memcpy_mbs, const struct dd_result *res, double mib)
{
	const char *variant = c->ops ? c->ops->name : "memcpy";
	const struct km_events *ev = &res->ev;
	double pinned = (double)(ev->gup_fast_pages + ev->gup_slow_pages) / mib;
	double kmaps = (double)(ev->kmap_high + ev->kmap_low) / mib;
	double spread = spread_pct(res);

	if (out->json) {
		JsonBuilder *b = out->json;

		json_row_begin(b, c, bs);
		json_builder_set_member_name(b, "host_mb_s");
		json_builder_add_double_value(b, mbs);
		json_builder_set_member_name(b, "memcpy_mb_s");
		json_builder_add_double_value(b, memcpy_mbs);
		json_builder_set_member_name(b, "ratio");
		json_builder_add_double_value(b, mbs / memcpy_mbs);
		json_builder_set_member_name(b, "reports_per_mib");
		json_builder_add_double_value(b, (double)res->bugs / mib);
		json_builder_set_member_name(b, "spread_pct");
		json_builder_add_double_value(b, spread);
		json_builder_set_member_name(b, "events_per");
		json_builder_add_string_value(b, "MiB");
		json_builder_set_member_name(b, "events");
		kb_json_events(b, ev, mib);
		json_builder_end_object(b);
	} else if (out->opts->csv) {
		printf("dd,%s,%s,%s,%s,%s,%lu,%.1f,%.1f,%.3f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.1f\n",
		       variant, c->mach->name, kmap_name(c->kmap), dd_highmem(c->mach) ? "on" : "off",
		       c->mach->fast_gup ? "on" : "off", bs, mbs,
		       memcpy_mbs, mbs / memcpy_mbs, (double)ev->gup_calls / mib, pinned, kmaps,
		       (double)ev->tlb_flushes / mib, (double)ev->kmalloc_calls / mib,
		       (double)res->bugs / mib, spread);
	} else {
		printf("%-14s %-13s %-8s %-4s %8lu %10.1f %6.3f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %7.1f\n",
		       variant, c->mach->name, kmap_name(c->kmap), dd_highmem(c->mach) ? "on" : "off",
		       bs, mbs, mbs / memcpy_mbs, (double)ev->gup_calls / mib, pinned, kmaps,
		       (double)ev->tlb_flushes / mib, (double)ev->kmalloc_calls / mib,
		       (double)res->bugs / mib, spread);
	}
}

/* A row for a variant whose atomic copy_from_user never copies anything on
 * this machine: generic_perform_write() would fault in and retry forever. */
static void print_stall(const struct kb_out *out, const struct dd_case *c, unsigned long bs)
{
	const char *variant = c->ops->name;

	if (out->json) {
		JsonBuilder *b = out->json;

		json_row_begin(b, c, bs);
		json_builder_set_member_name(b, "stalled");
		json_builder_add_boolean_value(b, TRUE);
		json_builder_end_object(b);
	} else if (out->opts->csv) {
		printf("dd,%s,%s,%s,%s,%s,%lu,stalled,,,,,,,,,\n", variant, c->mach->name,
		       kmap_name(c->kmap), dd_highmem(c->mach) ? "on" : "off",
		       c->mach->fast_gup ? "on" : "off", bs);
	} else {
		printf("%-14s %-13s %-8s %-4s %8lu %10s   (atomic copy_from_user copies nothing: "
		       "generic_perform_write() would retry forever)\n", variant, c->mach->name,
		       kmap_name(c->kmap), dd_highmem(c->mach) ? "on" : "off", bs, "stalls");
	}
}

/* "a,b" where each is @first or @second: sets on[0], on[1] */
static bool parse_choice(const char *list, const char *opt, const char *first,
			 const char *second, bool on[2])
{
	gchar **parts = g_strsplit(list, ",", -1);
	bool ok = parts[0] != NULL;

	on[0] = on[1] = false;
	for (gchar **p = parts; *p && ok; p++) {
		const char *w = g_strstrip(*p);

		if (!strcmp(w, first))
			on[0] = true;
		else if (!strcmp(w, second))
			on[1] = true;
		else
			ok = false;
	}
	if (!ok)
		fprintf(stderr, "kmodel-bench: %s: want %s and/or %s, got \"%s\"\n", opt, first,
			second, list);
	g_strfreev(parts);
	return ok;
}

static int dd_run_all(struct kb_out *out)
{
	const struct kb_opts *o = out->opts;
	GArray *sizes = g_array_new(FALSE, FALSE, sizeof(unsigned long));
	GPtrArray *variants = g_ptr_array_new();
	GArray *cases = g_array_new(FALSE, FALSE, sizeof(struct dd_case));
	bool kmaps[2];
	GPtrArray *machs = g_ptr_array_new();
	unsigned long total = (unsigned long)o->dd_total_mib * MiB;
	GError *err = NULL;
	int rc = 0;

	if (!kb_parse_sizes(o->dd_block_sizes, sizes, &err)) {
		fprintf(stderr, "kmodel-bench: --dd-block-sizes: %s\n", err->message);
		g_error_free(err);
		rc = -EINVAL;
		goto out;
	}
	for (const struct km_uaccess_ops *const *v = km_registry_uaccess(out->reg); *v; v++)
		if (!o->dd_variants)
			g_ptr_array_add(variants, (gpointer)*v);
	if (o->dd_variants) {
		gchar **names = g_strsplit(o->dd_variants, ",", -1);

		for (gchar **n = names; *n; n++) {
			const struct km_uaccess_ops *v = km_registry_find_uaccess(out->reg,
										   g_strstrip(*n));

			if (!v) {
				fprintf(stderr, "kmodel-bench: unknown uaccess variant \"%s\" (see --list)\n",
					*n);
				rc = -EINVAL;
			}
			g_ptr_array_add(variants, (gpointer)v);
		}
		g_strfreev(names);
	}
	if (!rc && !parse_choice(o->dd_kmap, "--dd-kmap", "pre-5.11", "5.11", kmaps))
		rc = -EINVAL;
	if (!rc) {
		gchar **names = g_strsplit(o->dd_machines, ",", -1);

		for (gchar **n = names; *n; n++) {
			const struct dd_machine *d = NULL;

			for (size_t i = 0; i < G_N_ELEMENTS(dd_machines); i++)
				if (!strcmp(g_strstrip(*n), dd_machines[i].name))
					d = &dd_machines[i];
			if (!d) {
				fprintf(stderr, "kmodel-bench: unknown dd machine \"%s\" (see --list)\n",
					*n);
				rc = -EINVAL;
			}
			g_ptr_array_add(machs, (gpointer)d);
		}
		g_strfreev(names);
	}
	if (rc)
		goto out;
	/* the baseline first: cases[0], on the first machine */
	g_array_append_val(cases, ((struct dd_case){ NULL, &dd_machines[0],
						     KM_KMAP_ATOMIC_PRE_5_11 }));
	for (guint v = 0; v < variants->len; v++)
		for (guint d = 0; d < machs->len; d++)
			for (int k = 0; k < 2; k++)
				if (kmaps[k])
					g_array_append_val(cases, ((struct dd_case){
						g_ptr_array_index(variants, v),
						g_ptr_array_index(machs, d),
						k ? KM_KMAP_LOCAL : KM_KMAP_ATOMIC_PRE_5_11 }));
	print_header(out);
	for (guint s = 0; s < sizes->len && !rc; s++) {
		unsigned long bs = g_array_index(sizes, unsigned long, s);
		/* dd_pass() writes whole blocks: ceil(total / bs) of them */
		unsigned long written = (total + bs - 1) / bs * bs;
		struct dd_run *runs = g_new0(struct dd_run, cases->len);
		struct dd_result *res = g_new0(struct dd_result, cases->len);

		kb_progress(out, "dd bs=%lu: setting up", bs);
		for (guint v = 0; v < cases->len && !rc; v++) {
			res[v].secs = G_MAXDOUBLE;
			res[v].runs = g_array_new(FALSE, FALSE, sizeof(double));
			rc = dd_stall(&runs[v],
				      dd_setup(o, &g_array_index(cases, struct dd_case, v), bs,
					       &runs[v]));
		}
		/* interleave baseline and variants so drift hits all alike */
		for (int i = 0; i < o->repeat && !rc; i++) {
			kb_progress(out, "dd bs=%lu: run %d/%d", bs, i + 1, o->repeat);
			for (guint v = 0; v < cases->len && !rc; v++)
				if (!runs[v].stalled)
					rc = dd_stall(&runs[v], dd_timed(&runs[v], total, &res[v]));
		}
		kb_progress(out, "%s", "");
		for (guint v = 0; v < cases->len; v++) {
			const struct dd_case *c = &g_array_index(cases, struct dd_case, v);
			const char *name = c->ops ? c->ops->name : "memcpy";
			int err = dd_teardown(&runs[v]);

			if (rc || err) {
				fprintf(stderr, "kmodel-bench: dd %s bs=%lu failed: %s\n", name, bs,
					rc == -ENOMEM ? "out of simulated memory (256 MiB RAM): "
							"lower --dd-file-mib"
					: rc ? g_strerror(-rc) : "teardown found leaks");
				rc = rc ? rc : err;
				continue;
			}
			if (runs[v].stalled) {
				print_stall(out, c, bs);
				continue;
			}
			print_row(out, c, bs, (double)written / res[v].secs / 1e6,
				  (double)written / res[0].secs / 1e6, &res[v], (double)written / MiB);
		}
		for (guint v = 0; v < cases->len; v++)
			if (res[v].runs)
				g_array_free(res[v].runs, TRUE);
		g_free(runs);
		g_free(res);
	}
out:
	g_array_free(sizes, TRUE);
	g_ptr_array_free(variants, TRUE);
	g_array_free(cases, TRUE);
	g_ptr_array_free(machs, TRUE);
	return rc;
}

const struct kb_scenario kb_dd_scenario = {
	.name = "dd",
	.summary = "dd if=/dev/zero of=tmpfs file through each uaccess variant vs memcpy",
	.run = dd_run_all,
};

void kb_dd_list_machines(void)
{
	for (size_t i = 0; i < G_N_ELEMENTS(dd_machines); i++)
		printf("machine  %-14s %s\n", dd_machines[i].name, dd_machines[i].summary);
}
