// SPDX-License-Identifier: GPL-2.0
/*
 * The raw uaccess contract (include/linux/uaccess.h, v5.7) as a suite for
 * any struct km_uaccess_ops: see include/kmodel/conformance.h for the
 * layout, the cases and the checks. Expected values come from the layout
 * alone (which bytes are accessible), never from running a variant.
 * The suite reads and restores user bytes through the frames (host
 * memory) of the present ptes, and puts the never-touched page back to no
 * pte after a case that faulted it in (zap_pte_range()).
 */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <glib.h>
#include <stddef.h>
#include <string.h>
#include <kmodel/conformance.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CONF_DEFAULT_MAX_SIZE	128
#define CONF_LIMIT_MAX_SIZE	1024
#define CONF_DEFAULT_GUARD	256
#define CONF_LIMIT_GUARD	(1UL << 20)
#define CONF_PAGES		16	/* the layout of conformance.h */
#define CONF_COW_PAGE		12	/* C: in the COW edge's address spaces only */
#define CONF_FILE_PAGE		14	/* F: the file page of the writeback edge */
#define CONF_RAM_SIZE		(8ULL << 20)
#define CONF_RZ			KM_CONFORMANCE_REDZONE
#define CONF_RZ_BLOCK		256	/* a red zone is followed out in these */

/*
 * A kernel buffer of the suite: @len bytes between red zones of CONF_RZ
 * bytes, each beyond an inaccessible host page, in a mapping of its own
 * (a variant that copied 4 KiB past the 640-byte buffer
 * wrote over the host's heap: a segfault, or silent corruption). A write
 * past the buffer lands in a red zone, where the case finds it (a dst
 * failure: the guard is checked on every case) and measures it; one past
 * a red zone faults on the PROT_NONE page (the limit: the host process
 * dies at once, not later on a corrupt heap).
 */
struct kzone {
	unsigned char *map;	/* PROT_NONE page | red zone | buffer | red zone | PROT_NONE */
	size_t map_len;
	unsigned char *p;	/* the buffer */
	unsigned char *ref;	/* what the red zones and the buffer hold: ref + CONF_RZ is p's */
};

static size_t host_page(void)
{
	long hp = sysconf(_SC_PAGESIZE);

	return hp > 0 ? (size_t)hp : 4096;
}

/* @z: @len bytes, buffer and red zones filled from @rnd. -ENOMEM. */
static int kzone_new(struct kzone *z, size_t len, GRand *rnd)
{
	size_t hp = host_page(), body = (2 * CONF_RZ + len + hp - 1) / hp * hp;

	z->map_len = body + 2 * hp;
	z->map = mmap(NULL, z->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (z->map == MAP_FAILED) {
		z->map = NULL;
		return km_err(-ENOMEM, "km_uaccess_conformance: mmap of %zu bytes failed", z->map_len);
	}
	if (mprotect(z->map, hp, PROT_NONE) ||
	    mprotect(z->map + hp + body, hp, PROT_NONE))
		return km_err(-ENOMEM, "km_uaccess_conformance: mprotect of a guard page failed");
	/* the buffer's end next to the last red zone's: that is where
	 * overruns go (the page rounding goes before the first) */
	z->p = z->map + hp + body - CONF_RZ - len;
	z->ref = g_malloc(2 * CONF_RZ + len);
	for (size_t i = 0; i < 2 * CONF_RZ + len; i++)
		z->ref[i] = (unsigned char)g_rand_int(rnd);
	memcpy(z->p - CONF_RZ, z->ref, 2 * CONF_RZ + len);
	return 0;
}

static void kzone_free(struct kzone *z)
{
	if (z->map)
		munmap(z->map, z->map_len);
	g_free(z->ref);
	memset(z, 0, sizeof(*z));
}

/* Bytes of @z from its buffer's offset @from on (forward, @dir 1) or
 * before it (back, @dir -1) that differ from the fill, followed out
 * CONF_RZ_BLOCK bytes at a time while a block differs, up to the red
 * zone's end: how far from @from the last changed byte lies (0: none);
 * the changed blocks are filled back. */
static unsigned long kzone_extent(struct kzone *z, long from, int dir, long len)
{
	long lo_lim = -(long)CONF_RZ, hi_lim = len + (long)CONF_RZ;
	unsigned long extent = 0;

	for (long a = from;; a += dir * CONF_RZ_BLOCK) {
		long lo = dir > 0 ? a : MAX(a - CONF_RZ_BLOCK, lo_lim);
		long hi = dir > 0 ? MIN(a + CONF_RZ_BLOCK, hi_lim) : a;
		unsigned char *p = z->p + lo, *ref = z->ref + CONF_RZ + lo;

		if (lo >= hi || !memcmp(p, ref, (size_t)(hi - lo)))
			return extent;
		for (long i = lo; i < hi; i++)
			if (p[i - lo] != ref[i - lo])
				extent = MAX(extent, (unsigned long)(dir > 0 ? i - from + 1 : from - i));
		memcpy(p, ref, (size_t)(hi - lo));
	}
}

/* One run on one machine (one page size). */
struct conf_run {
	const struct km_uaccess_ops *ops;
	struct km_conformance_result *res;
	unsigned long *by_code;		/* NULL, or reports per code [ncodes] */
	size_t ncodes;
	GArray *list;			/* struct km_conformance_failure */
	GArray *first_reports;		/* struct km_report: the first of each code */
	size_t max_listed;
	unsigned long max_size, guard;
	bool whole_copy;		/* opts->whole_copy */
	void (*on_case)(void *arg, const struct km_conformance_failure *where);
	void *on_case_arg;
	bool zeroing;			/* the variant's contract zeroes the tail */
	struct km_machine *m;
	struct km_task *t;
	struct km_mm *cow_parent;	/* the COW edge: the address space forked ... */
	struct km_task *cow_task;	/* ... and a task of the fork, which copies */
	struct km_file *file;		/* the writeback edge's file, mapped at F */
	unsigned long P, base;
	unsigned char *shadow;		/* CONF_PAGES * P: what the user pages hold */
	struct kzone kz, kzsrc;		/* the two kernel buffers and their red zones */
	unsigned char *kfill;		/* what the kernel buffer holds between cases */
	unsigned char *kbuf;		/* guard | max_size | guard */
	unsigned char *ksrc, *ksrc_ref;	/* copy_to_user source (| guard) and its pristine copy */
	/* the case being checked */
	enum km_conformance_context ctx;
	enum km_conformance_dir dir;
	enum km_conformance_edge edge;
	long off;
	unsigned long n, N;
	unsigned int failed;		/* bit per check failed in this case */
};

static const unsigned long default_page_sizes[] = { 4096, 16384, 65536 };

const char *km_conformance_check_name(enum km_conformance_check check)
{
	static const char *const names[KM_CONF_CHECK__COUNT] = { "size", "src", "dst", "copy" };

	return (unsigned int)check < KM_CONF_CHECK__COUNT ? names[check] : "?";
}

const char *km_conformance_dir_name(enum km_conformance_dir dir)
{
	static const char *const names[KM_CONF_DIR__COUNT] = { "from_user", "to_user",
								"copy_from_user" };

	return (unsigned int)dir < KM_CONF_DIR__COUNT ? names[dir] : "?";
}

const char *km_conformance_edge_name(enum km_conformance_edge edge)
{
	static const char *const names[KM_CONF_EDGE__COUNT] = { "leading", "trailing",
								 "readonly", "untouched",
								 "adjacent", "cow",
								 "writeback" };

	return (unsigned int)edge < KM_CONF_EDGE__COUNT ? names[edge] : "?";
}

const char *km_conformance_context_name(enum km_conformance_context ctx)
{
	static const char *const names[KM_CONF_CTX__COUNT] = { "process", "preempt_off",
								"pagefault_off", "atomic" };

	return (unsigned int)ctx < KM_CONF_CTX__COUNT ? names[ctx] : "?";
}

/* struct km_conformance_failure gained @context in the padding after
 * @check: the size and the offsets of the members after it are those of
 * the first version (LP64), so the ABI is unchanged */
_Static_assert(offsetof(struct km_conformance_failure, context) == 12 &&
		       offsetof(struct km_conformance_failure, page_size) == 16 &&
		       sizeof(struct km_conformance_failure) == 80,
	       "struct km_conformance_failure keeps its first version's layout");

void km_conformance_result_clear_sized(struct km_conformance_result *res, size_t size)
{
	if (!res || size < KM_CONFORMANCE_RESULT_MIN_SIZE)
		return;
	g_free(res->list);
	if (size >= offsetof(struct km_conformance_result, first_reports_len) + sizeof(size_t))
		g_free(res->first_reports);
	memset(res, 0, size);
}

static void fail(struct conf_run *r, enum km_conformance_check check, long at,
		 unsigned long exp_min, unsigned long exp_max, unsigned long got)
{
	struct km_conformance_failure f = {
		.dir = r->dir, .edge = r->edge, .check = check, .context = r->ctx, .page_size = r->P,
		.offset = r->off, .size = r->n, .returned = r->N, .at = at,
		.expected_min = exp_min, .expected_max = exp_max, .got = got,
	};

	if (r->failed & (1u << check))	/* one failure per check and case */
		return;
	r->res->by_check[check]++;
	r->failed |= 1u << check;
	if (!r->max_listed || r->list->len < r->max_listed)
		g_array_append_val(r->list, f);
}

/* The boundary of an edge, a user address. */
static unsigned long edge_boundary(const struct conf_run *r, enum km_conformance_edge e)
{
	switch (e) {
	case KM_CONF_LEADING:
		return r->base + 1 * r->P;
	case KM_CONF_TRAILING:
		return r->base + 2 * r->P;
	case KM_CONF_READONLY:
		return r->base + 4 * r->P;
	case KM_CONF_UNTOUCHED:
		return r->base + 7 * r->P;
	case KM_CONF_ADJACENT:
		return r->base + 10 * r->P;
	case KM_CONF_COW:
		return r->base + (CONF_COW_PAGE + 1) * r->P;
	default:
		return r->base + (CONF_FILE_PAGE + 1) * r->P;
	}
}

/* Bytes of [s, s + n) accessible from s on (max_size < P keeps every range
 * within the two pages around B): the leading edge's range when it starts
 * at or after B; the read-only page is readable, the never-touched page
 * accessible where faults are handled (process context), the two resident
 * pages of the adjacent edge always; the COW page for a store only where
 * faults are handled (its pte is write-protected: a store breaks COW in
 * the fault); otherwise up to B (the writeback edge's page, dirty with a
 * writable pte before each case, included). */
static unsigned long available(const struct conf_run *r, unsigned long B, unsigned long s)
{
	if (r->edge == KM_CONF_LEADING)
		return s >= B ? r->n : 0;
	if (r->edge == KM_CONF_COW && r->dir == KM_CONF_TO_USER && r->ctx != KM_CONF_CTX_PROCESS)
		return 0;
	if (r->edge == KM_CONF_ADJACENT ||
	    (r->edge == KM_CONF_READONLY && r->dir != KM_CONF_TO_USER) ||
	    (r->edge == KM_CONF_UNTOUCHED && r->ctx == KM_CONF_CTX_PROCESS))
		return r->n;
	return s >= B ? 0 : MIN(r->n, B - s);
}

/* Host address of user byte @a if its page is present, else NULL. */
static unsigned char *user_byte(struct conf_run *r, unsigned long a)
{
	struct km_page *p;

	if (km_follow_pte(km_task_mm(r->t), a, NULL, &p))
		return NULL;
	return (unsigned char *)km_page_host(r->m, p) + (a & (r->P - 1));
}

/* The first byte of @u[0, len) that differs from @exp: its index, or -1 */
static long first_difference(const unsigned char *u, const unsigned char *exp, unsigned long len)
{
	if (!memcmp(u, exp, len))
		return -1;
	for (unsigned long i = 0;; i++)
		if (u[i] != exp[i])
			return (long)i;
}

/*
 * Check the user bytes [s - guard, s + n + guard) (clipped to the layout),
 * page by page, skipping pages with no present pte (the holes):
 * [s, s + copied) must hold @want (else @in_check fails), the rest the
 * shadow (else @out_check fails), at the first wrong byte (in address
 * order: the pieces follow each other). Then put the shadow back where
 * anything may have changed: the whole window of a page with a wrong byte,
 * else the copied bytes. One page table walk per page.
 */
static void check_user(struct conf_run *r, unsigned long s, unsigned long copied,
		       const unsigned char *want, enum km_conformance_check in_check,
		       enum km_conformance_check out_check)
{
	unsigned long lo = MAX(s - MIN(r->guard, s), r->base);
	unsigned long hi = MIN(s + r->n + r->guard, r->base + CONF_PAGES * r->P);
	const struct {
		unsigned long a, b;
		const unsigned char *exp;
		enum km_conformance_check check;
	} piece[3] = {
		{ lo, s, r->shadow + (lo - r->base), out_check },
		{ s, s + copied, want, in_check },
		{ s + copied, hi, r->shadow + (s + copied - r->base), out_check },
	};

	const unsigned char *zero = km_page_host(r->m, km_zero_page(r->m));

	for (unsigned long a = lo, stop; a < hi; a = stop) {
		unsigned char *u = user_byte(r, a);
		bool any = false;

		stop = MIN(hi, (a | (r->P - 1)) + 1);
		if (!u)
			continue;
		/* the shared zero page (a read fault's, RO's), written
		 * reported; the fill back below zeroes it
		 * again (the shadow of every page it may stand for is zero),
		 * so that each case that writes it is seen */
		if (u - (a & (r->P - 1)) == zero &&
		    memcmp(u, r->shadow + 4 * r->P, stop - a))
			km_zero_page_check(r->m);
		for (int i = 0; i < 3; i++) {
			unsigned long pa = MAX(a, piece[i].a), pb = MIN(stop, piece[i].b);
			const unsigned char *exp;
			long bad;

			if (pa >= pb)	/* an empty piece: its exp may be NULL (nothing copied) */
				continue;
			exp = piece[i].exp + (pa - piece[i].a);
			if ((bad = first_difference(u + (pa - a), exp, pb - pa)) < 0)
				continue;
			any = true;
			fail(r, piece[i].check, (long)(pa + (unsigned long)bad - s), exp[bad], exp[bad],
			     u[pa - a + (unsigned long)bad]);
		}
		if (any)
			memcpy(u, r->shadow + (a - r->base), stop - a);
		else if (MAX(a, s) < MIN(stop, s + copied))
			memcpy(u + (MAX(a, s) - a), r->shadow + (MAX(a, s) - r->base),
			       MIN(stop, s + copied) - MAX(a, s));
	}
}

/* Compare kernel bytes @k[0, len) with @want; fail @check at the first
 * difference, reported at position @at0 + i. Return: true if they differ. */
static bool check_kernel(struct conf_run *r, const unsigned char *k, const unsigned char *want,
			 unsigned long len, long at0, enum km_conformance_check check)
{
	long i = first_difference(k, want, len);

	if (i < 0)
		return false;
	fail(r, check, at0 + i, want[i], want[i], k[i]);
	return true;
}

/* ---- the COW and writeback edges ------------------------------------------- */

static void context_switch(struct conf_run *r, enum km_conformance_context ctx, bool on);

/* A fresh fork of the COW edge's address space, and a task on it in the
 * suite's context. -ENOMEM. */
static int cow_fork(struct conf_run *r)
{
	struct km_mm *child;
	int err;

	if (r->cow_task)
		km_task_free(r->cow_task);
	r->cow_task = NULL;
	if ((err = km_mm_fork(r->cow_parent, &child)))
		return err;
	err = km_task_new(r->m, child, 0, &r->cow_task);
	km_mm_put(child);
	return err;
}

/* Before a COW case: C shared with the parent again (the last case's store
 * may have broken COW: fork anew), and the fork's task running in the
 * case's context. Returns the suite's task. */
static struct km_task *cow_enter(struct conf_run *r)
{
	unsigned long C = r->base + CONF_COW_PAGE * r->P;
	struct km_task *main = r->t;
	struct km_page *mine = NULL, *parents = NULL;

	if (!r->cow_task || km_follow_pte(km_task_mm(r->cow_task), C, NULL, &mine) ||
	    km_follow_pte(r->cow_parent, C, NULL, &parents) || mine != parents)
		cow_fork(r);
	if (!r->cow_task)	/* no host memory: the case runs on the suite's task */
		return main;
	r->t = r->cow_task;
	context_switch(r, r->ctx, true);
	km_task_switch(r->t);
	return main;
}

/* The parent's C (host address), NULL if it has none */
static unsigned char *cow_parent_page(struct conf_run *r)
{
	struct km_page *p;

	if (km_follow_pte(r->cow_parent, r->base + CONF_COW_PAGE * r->P, NULL, &p))
		return NULL;
	return km_page_host(r->m, p);
}

/* The window of C that a case from @s may have written: the range and
 * its guard either side, within the page: [*lo, *hi) as offsets in C */
static void cow_window(const struct conf_run *r, unsigned long s, unsigned long *lo,
		       unsigned long *hi)
{
	unsigned long C = r->base + CONF_COW_PAGE * r->P;
	unsigned long a = MAX(s - MIN(r->guard, s), C), b = MIN(s + r->n + r->guard, C + r->P);

	*lo = a < b ? a - C : 0;
	*hi = a < b ? b - C : 0;
}

/* After a COW copy, before check_user() puts the copying side's bytes
 * back (into the very frame, if COW was not broken): the parent's C must
 * hold what it held -- a store that did not break COW wrote into the page
 * the parent shares. Else a dst failure at the first changed byte
 * (relative to the destination; in the parent's address space). Within
 * the window the other byte checks compare. */
static void cow_check_parent(struct conf_run *r, unsigned long s)
{
	const unsigned char *u = cow_parent_page(r), *want = r->shadow + CONF_COW_PAGE * r->P;
	unsigned long lo, hi;
	long bad;

	cow_window(r, s, &lo, &hi);
	if (u && (bad = first_difference(u + lo, want + lo, hi - lo)) >= 0)
		fail(r, KM_CONF_CHECK_DST,
		     (long)(r->base + CONF_COW_PAGE * r->P + lo + (unsigned long)bad - s),
		     want[lo + bad], want[lo + bad], u[lo + bad]);
}

/* After a COW case: back to the suite's task; the parent's C filled back
 * where anything may still be changed. */
static void cow_leave(struct conf_run *r, struct km_task *main, unsigned long s)
{
	unsigned char *u = cow_parent_page(r);
	const unsigned char *want = r->shadow + CONF_COW_PAGE * r->P;
	unsigned long lo, hi;

	if (r->t != main) {
		context_switch(r, r->ctx, false);
		r->t = main;
		km_task_switch(main);
	}
	cow_window(r, s, &lo, &hi);
	if (u && memcmp(u + lo, want + lo, hi - lo))
		memcpy(u + lo, want + lo, hi - lo);
}

static void writeback_hook(struct km_task *t, void *file)
{
	(void)t;
	km_file_writeback(file);
}

/* Before a writeback case: F dirty behind a writable pte, as a store
 * leaves it (a write fault: page_mkwrite() and the dirty pte), and
 * writeback armed at the gup's KM_IP_AFTER_PIN: between a pin and the
 * copy through it, page_mkclean() cleans and write-protects the page
 * (test_mm_fidelity's copy_with_writeback_after_pin()). */
static void wb_enter(struct conf_run *r)
{
	unsigned long F = r->base + CONF_FILE_PAGE * r->P;
	unsigned int fl = 0;

	if (km_follow_pte(km_task_mm(r->t), F, &fl, NULL) ||
	    (fl & (KM_PTE_WRITE | KM_PTE_DIRTY)) != (KM_PTE_WRITE | KM_PTE_DIRTY))
		km_user_access(r->t, F, r->shadow + CONF_FILE_PAGE * r->P, 1, true);
	km_fault_after_gup(r->m, writeback_hook, r->file);
}

/* After a writeback copy_to_user that copied @copied bytes from @s: the
 * file written back, what it wrote of [s, B) must be the source (else a
 * copy failure: the write is in the page but was lost).
 * Before check_user() puts the page's bytes back. F's bytes are zero and
 * the source's never are (conformance()), so a lost byte always differs. */
static void wb_check_disk(struct conf_run *r, unsigned long B, unsigned long s,
			  unsigned long copied)
{
	unsigned long F = r->base + CONF_FILE_PAGE * r->P, len = s < B ? MIN(copied, B - s) : 0;
	unsigned char disk[CONF_LIMIT_MAX_SIZE];
	long bad;

	km_fault_after_gup(r->m, NULL, NULL);
	if (!len)
		return;
	km_file_writeback(r->file);
	if (km_file_read_disk(r->file, s - F, disk, len))
		return;
	if ((bad = first_difference(disk, r->ksrc_ref, len)) >= 0)
		fail(r, KM_CONF_CHECK_COPY, bad, r->ksrc_ref[bad], r->ksrc_ref[bad], disk[bad]);
}

static void run_case(struct conf_run *r, unsigned long B)
{
	unsigned long s = B + (unsigned long)r->off, n = r->n, avail = available(r, B, s);
	unsigned long lo = n - avail, hi = avail ? (avail == n ? 0 : n - 1) : n, copied;
	unsigned char *kdst = r->kbuf + r->guard;
	struct km_task *main = r->t;

	r->failed = 0;
	if (r->on_case) {
		struct km_conformance_failure where = {
			.dir = r->dir, .edge = r->edge, .context = r->ctx, .page_size = r->P,
			.offset = r->off, .size = r->n,
		};

		r->on_case(r->on_case_arg, &where);
	}
	if (r->edge == KM_CONF_COW)
		main = cow_enter(r);
	else if (r->edge == KM_CONF_WRITEBACK)
		wb_enter(r);
	if (r->dir == KM_CONF_FROM_USER)
		r->N = r->ops->raw_copy_from_user(kdst, s, n);
	else if (r->dir == KM_CONF_COPY_FROM_USER)
		r->N = km_copy_from_user(r->t, r->ops, kdst, s, n);
	else
		r->N = r->ops->raw_copy_to_user(s, r->ksrc, n);
	r->res->cases++;
	/* (1) size */
	if (r->N < lo || r->N > hi)
		fail(r, KM_CONF_CHECK_SIZE, 0, lo, hi, r->N);
	copied = r->N <= n ? n - r->N : 0;
	if (r->dir != KM_CONF_TO_USER) {
		/* the tail [copied, n): zeroes where the contract (or the
		 * whole copy_from_user()) zeroes it, else untouched */
		static const unsigned char zeroes[CONF_LIMIT_MAX_SIZE];
		bool zero_tail = r->zeroing || r->dir == KM_CONF_COPY_FROM_USER;

		/* (2) the user source, with its guard, is as it was */
		check_user(r, s, 0, NULL, KM_CONF_CHECK_SRC, KM_CONF_CHECK_SRC);
		/* (4) the copied bytes; (3) the guard before, and from the copied
		 * end to the guard after the n bytes */
		check_kernel(r, kdst, r->shadow + (s - r->base), copied, 0, KM_CONF_CHECK_COPY);
		/* then the fill back: where a wrong byte was, all of it;
		 * else only the copied bytes changed (both checks run: each
		 * counts its own failure) */
		bool before = check_kernel(r, r->kbuf, r->kfill, r->guard, -(long)r->guard,
					   KM_CONF_CHECK_DST);
		bool tail = check_kernel(r, kdst + copied, zero_tail ? zeroes :
					 r->kfill + r->guard + copied, n - copied, (long)copied,
					 KM_CONF_CHECK_DST);
		bool after = check_kernel(r, kdst + n, r->kfill + r->guard + n, r->guard, (long)n,
					  KM_CONF_CHECK_DST) || tail;

		if (before || after) {
			long d = (long)(kdst - r->kbuf), len = (long)(r->max_size + 2 * r->guard);

			/* past the guard: how far (into the red zones),
			 * then the fill back */
			unsigned long over = after ? kzone_extent(&r->kz, d + (long)n, 1, len) : 0;
			unsigned long under = before ? kzone_extent(&r->kz, d, -1, len) : 0;

			r->res->kbuf_overrun = MAX(r->res->kbuf_overrun, over);
			r->res->kbuf_underrun = MAX(r->res->kbuf_underrun, under);
			memcpy(r->kbuf, r->kfill, r->max_size + 2 * r->guard);
		} else {
			memcpy(kdst, r->kfill + r->guard, n);	/* a zeroed tail too */
		}
	} else {
		/* (2) the kernel source, and the guard after it (a write there
		 * is one past the source: its red zone keeps it off the host) */
		if (check_kernel(r, r->ksrc, r->ksrc_ref, n + r->guard, 0, KM_CONF_CHECK_SRC)) {
			kzone_extent(&r->kzsrc, (long)(n + r->guard), 1,
				     (long)(r->max_size + r->guard));
			memcpy(r->ksrc, r->ksrc_ref, r->max_size + r->guard);
		}
		if (r->edge == KM_CONF_WRITEBACK)
			wb_check_disk(r, B, s, copied);
		else if (r->edge == KM_CONF_COW)
			cow_check_parent(r, s);
		/* (4) the copied bytes and (3) everything around them */
		check_user(r, s, copied, r->ksrc_ref, KM_CONF_CHECK_COPY, KM_CONF_CHECK_DST);
	}
	if (r->edge == KM_CONF_COW)
		cow_leave(r, main, s);
	else if (r->edge == KM_CONF_WRITEBACK)
		km_fault_after_gup(r->m, NULL, NULL);
	if (r->failed)
		r->res->failures++;
	/* the never-touched page stays never-touched for the next case */
	if (r->edge == KM_CONF_UNTOUCHED && user_byte(r, r->base + 7 * r->P))
		km_zap_page_range(km_task_mm(r->t), r->base + 7 * r->P, r->P);
}

/* Enter (@on) or leave context @ctx on the suite's task, as callers do:
 * preempt_disable() (a spinlock, an atomic section), pagefault_disable()
 * (an _inatomic copy), both (kmap_atomic(), as around the copy in
 * generic_perform_write()). */
static void context_switch(struct conf_run *r, enum km_conformance_context ctx, bool on)
{
	bool preempt = ctx == KM_CONF_CTX_PREEMPT_OFF || ctx == KM_CONF_CTX_ATOMIC;
	bool pagefault = ctx == KM_CONF_CTX_PAGEFAULT_OFF || ctx == KM_CONF_CTX_ATOMIC;

	if (on) {
		if (preempt)
			km_preempt_disable(r->t);
		if (pagefault)
			km_pagefault_disable(r->t);
	} else {
		if (pagefault)
			km_pagefault_enable(r->t);
		if (preempt)
			km_preempt_enable(r->t);
	}
}

/* The offsets of the cases of size @n (0..@M) at the COW and writeback
 * edges, whose cases fork or write back a page (costly): -M, -n - 1, -n,
 * -n + 1, -1, 0 and 1, those in -M..M, ascending, each once
 * (conformance.h). Return: how many, in @off. */
static size_t sparse_offsets(long n, long M, long off[7])
{
	const long cand[] = { -M, -n - 1, -n, -n + 1, -1, 0, 1 };
	size_t k = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(cand); i++) {
		size_t j = 0;

		if (cand[i] < -M || cand[i] > M)
			continue;
		while (j < k && off[j] < cand[i])
			j++;
		if (j < k && off[j] == cand[i])
			continue;
		memmove(off + j + 1, off + j, (k - j) * sizeof(*off));
		off[j] = cand[i];
		k++;
	}
	return k;
}

static void run_page_size(struct conf_run *r, unsigned int ctx_mask)
{
	long max = (long)r->max_size;

	for (int c = 0; c < KM_CONF_CTX__COUNT; c++) {
		if (!(ctx_mask & (1u << c)))
			continue;
		r->ctx = c;
		context_switch(r, c, true);
		for (int d = 0; d < KM_CONF_DIR__COUNT; d++) {
			if (d == KM_CONF_COPY_FROM_USER &&
			    (!r->whole_copy || c == KM_CONF_CTX_PREEMPT_OFF))
				continue;
			for (int e = 0; e < KM_CONF_EDGE__COUNT; e++) {
				unsigned long B = edge_boundary(r, e);

				r->dir = d;
				r->edge = e;
				for (r->n = 0; r->n <= r->max_size; r->n++) {
					long off[7];
					size_t k;

					if (e < KM_CONF_COW) {
						for (r->off = -max; r->off <= max; r->off++)
							run_case(r, B);
						continue;
					}
					k = sparse_offsets((long)r->n, max, off);
					for (size_t i = 0; i < k; i++) {
						r->off = off[i];
						run_case(r, B);
					}
				}
			}
		}
		context_switch(r, c, false);
	}
}

/* The writeback edge's F: page 0 of a file, MAP_SHARED read/write, cached
 * and dirty behind a writable pte; the COW edge's C: an address space of
 * its own with C resident (random bytes), forked (cow_fork()). */
static int setup_cow_file(struct conf_run *r)
{
	unsigned long P = r->P, C = r->base + CONF_COW_PAGE * P, F = r->base + CONF_FILE_PAGE * P;
	struct km_task *pt;
	long done;
	int err;

	if ((err = km_file_new(r->m, P, &r->file)) ||
	    (err = km_mmap_file(km_task_mm(r->t), F, P, KM_PROT_READ | KM_PROT_WRITE, true, r->file, 0,
				&(unsigned long){0})) ||
	    (err = km_mm_new(r->m, &r->cow_parent)) ||
	    (err = km_mmap(r->cow_parent, C, P, KM_PROT_READ | KM_PROT_WRITE, &(unsigned long){0})) ||
	    (err = km_task_new(r->m, r->cow_parent, 0, &pt)))
		return err;
	done = km_user_access(pt, C, r->shadow + CONF_COW_PAGE * P, P, true);
	km_task_free(pt);
	if (done != (long)P ||
	    km_user_access(r->t, F, r->shadow + CONF_FILE_PAGE * P, P, true) != (long)P)
		return km_err(-EFAULT, "km_uaccess_conformance: populating the user pages failed");
	return cow_fork(r);
}

/* Boot a machine of page size @P and lay out the user pages. */
static int setup(struct conf_run *r, const struct km_machine_config *tmpl, unsigned long P,
		 GRand *rnd)
{
	struct km_machine_config cfg = { 0 };
	struct km_mm *mm;
	unsigned char c;
	int err;

	if (tmpl)
		cfg = *tmpl;
	cfg.page_size = P;
	if (!cfg.ram_size)
		cfg.ram_size = CONF_RAM_SIZE;
	err = km_machine_new(&cfg, &r->m);
	if (err)
		return err;
	/* a copy_to_user that writes a pinned page and puts it clean loses
	 * the write to writeback (km_check_pinned_writes()) */
	km_check_pinned_writes(r->m, true);
	r->P = P;
	/* 1 MiB: page-aligned for every page size, below every TASK_SIZE */
	r->base = 1UL << 20;
	if ((err = km_mm_new(r->m, &mm)))
		return err;
	err = km_task_new(r->m, mm, 0, &r->t);
	km_mm_put(mm);
	if (err)
		return err;
	r->shadow = g_malloc0(CONF_PAGES * P);
	for (unsigned long i = 0; i < CONF_PAGES * P; i++)
		r->shadow[i] = (unsigned char)g_rand_int(rnd);
	memset(r->shadow + 4 * P, 0, P);		/* RO: the zero page */
	memset(r->shadow + 7 * P, 0, P);		/* U: what a fault gives */
	memset(r->shadow + CONF_FILE_PAGE * P, 0, P);	/* F: a new file's page */
	if ((err = km_mmap(mm, r->base + 1 * P, P, KM_PROT_READ | KM_PROT_WRITE, &(unsigned long){0})) ||
	    (err = km_mmap(mm, r->base + 3 * P, P, KM_PROT_READ | KM_PROT_WRITE, &(unsigned long){0})) ||
	    (err = km_mmap(mm, r->base + 4 * P, P, KM_PROT_READ, &(unsigned long){0})) ||
	    (err = km_mmap(mm, r->base + 6 * P, 2 * P, KM_PROT_READ | KM_PROT_WRITE,
			   &(unsigned long){0})) ||
	    (err = km_mmap(mm, r->base + 9 * P, 2 * P, KM_PROT_READ | KM_PROT_WRITE,
			   &(unsigned long){0})))
		return err;
	if (km_user_access(r->t, r->base + 1 * P, r->shadow + 1 * P, P, true) != (long)P ||
	    km_user_access(r->t, r->base + 3 * P, r->shadow + 3 * P, P, true) != (long)P ||
	    km_user_access(r->t, r->base + 4 * P, &c, 1, false) != 1 ||
	    km_user_access(r->t, r->base + 6 * P, r->shadow + 6 * P, P, true) != (long)P ||
	    km_user_access(r->t, r->base + 9 * P, r->shadow + 9 * P, 2 * P, true) != (long)(2 * P))
		return km_err(-EFAULT, "km_uaccess_conformance: populating the user pages failed");
	return setup_cow_file(r);
}

/* the log's first report of each code not yet in r->first_reports */
static void first_reports(struct conf_run *r)
{
	for (size_t i = 0; i < km_report_log_len(r->m); i++) {
		const struct km_report *rep = km_report_get(r->m, i);
		bool seen = false;

		for (guint j = 0; j < r->first_reports->len && !seen; j++)
			seen = g_array_index(r->first_reports, struct km_report, j).code == rep->code;
		if (!seen)
			g_array_append_val(r->first_reports, *rep);
	}
}

static void teardown(struct conf_run *r)
{
	if (r->cow_task)
		km_task_free(r->cow_task);
	if (r->cow_parent)
		km_mm_put(r->cow_parent);
	if (r->t)
		km_task_free(r->t);
	if (r->file)
		km_file_put(r->file);
	if (r->m) {
		/* the teardown check files its leak reports; count them all by
		 * code, then destroy (whose check finds the same again) */
		km_machine_check(r->m);
		first_reports(r);
		r->res->reports += km_report_count(r->m, KM_R_NONE);
		for (size_t c = 0; r->by_code && c < r->ncodes && c < KM_R__COUNT; c++)
			r->by_code[c] += km_report_count(r->m, (enum km_report_code)c);
		km_machine_destroy(r->m);
	}
	g_free(r->shadow);
	r->m = NULL;
	r->t = NULL;
	r->cow_task = NULL;
	r->cow_parent = NULL;
	r->file = NULL;
	r->shadow = NULL;
}

static int check_opts(const struct km_conformance_opts *o)
{
	if (o->max_size > CONF_LIMIT_MAX_SIZE)
		return km_err(-EINVAL, "km_uaccess_conformance: max_size %lu > %d", o->max_size,
			      CONF_LIMIT_MAX_SIZE);
	if (o->guard > CONF_LIMIT_GUARD)
		return km_err(-EINVAL, "km_uaccess_conformance: guard %lu > %lu", o->guard,
			      CONF_LIMIT_GUARD);
	for (int i = 0; i < KM_CONF_MAX_PAGE_SIZES && o->page_sizes[i]; i++)
		if (o->page_sizes[i] != 4096 && o->page_sizes[i] != 16384 &&
		    o->page_sizes[i] != 65536)
			return km_err(-EINVAL,
				      "km_uaccess_conformance: page_sizes[%d] %lu is not 4096, 16384 or 65536",
				      i, o->page_sizes[i]);
	return 0;
}

/* The suite in the contexts of @ctx_mask (bit per enum
 * km_conformance_context), the counts summed over them. */
static int conformance(const struct km_uaccess_ops *ops, const struct km_conformance_opts *opts,
		       unsigned int ctx_mask, struct km_conformance_result *res,
		       unsigned long *by_code, size_t ncodes)
{
	const struct km_conformance_opts defaults = { 0 };
	const struct km_conformance_opts *o = opts ? opts : &defaults;
	struct conf_run r = { .ops = ops, .res = res, .by_code = by_code, .ncodes = ncodes };
	const unsigned long *sizes = o->page_sizes[0] ? o->page_sizes : default_page_sizes;
	size_t nr_sizes = o->page_sizes[0] ? KM_CONF_MAX_PAGE_SIZES : G_N_ELEMENTS(default_page_sizes);
	gint64 t0 = g_get_monotonic_time();
	struct km_task *prev;
	GRand *rnd;
	int err;

	if (res)
		memset(res, 0, sizeof(*res));
	if (by_code)
		memset(by_code, 0, ncodes * sizeof(*by_code));
	if (!ops || !res || !ops->raw_copy_from_user || !ops->raw_copy_to_user)
		return km_err(-EINVAL, "km_uaccess_conformance: ops, a raw function or res is NULL");
	if (ops->size < KM_UACCESS_OPS_MIN_SIZE)
		return km_err(-EINVAL, "km_uaccess_conformance: %s: ops.size %zu is below %zu "
			      "(initialise it with KM_UACCESS_OPS_SIZE)", ops->name ? ops->name : "?",
			      ops->size, (size_t)KM_UACCESS_OPS_MIN_SIZE);
	if ((err = check_opts(o)))
		return err;
	r.max_size = o->max_size ? o->max_size : CONF_DEFAULT_MAX_SIZE;
	r.guard = o->guard ? o->guard : CONF_DEFAULT_GUARD;
	r.max_listed = o->max_listed;
	r.whole_copy = o->whole_copy;
	r.on_case = o->on_case;
	r.on_case_arg = o->on_case_arg;
	r.zeroing = km_uaccess_ops_contract(ops) == KM_UACCESS_CONTRACT_ZEROING;
	r.list = g_array_new(FALSE, FALSE, sizeof(struct km_conformance_failure));
	r.first_reports = g_array_new(FALSE, FALSE, sizeof(struct km_report));
	rnd = g_rand_new_with_seed(0x6b6d6f64);		/* "kmod": same bytes every run */
	err = kzone_new(&r.kz, r.max_size + 2 * r.guard, rnd);
	if (!err)
		err = kzone_new(&r.kzsrc, r.max_size + r.guard, rnd);
	if (!err) {	/* no pointer made from a zone that failed */
		/* no zero byte in copy_to_user's source: a byte the
		 * writeback edge's file lost (zero) always differs */
		for (size_t i = 0; i < 2 * CONF_RZ + r.max_size + r.guard; i++)
			if (!r.kzsrc.ref[i])
				r.kzsrc.ref[i] = r.kzsrc.p[(long)i - (long)CONF_RZ] = 0x5a;
		r.kbuf = r.kz.p;
		r.kfill = r.kz.ref + CONF_RZ;
		r.ksrc = r.kzsrc.p;
		r.ksrc_ref = r.kzsrc.ref + CONF_RZ;
	}
	prev = km_current();
	for (size_t i = 0; i < nr_sizes && sizes[i] && !err; i++) {
		err = setup(&r, o->machine, sizes[i], rnd);
		if (!err) {
			km_task_switch(r.t);
			run_page_size(&r, ctx_mask);
			km_task_switch(prev);
		}
		teardown(&r);
	}
	km_task_switch(prev);
	g_rand_free(rnd);
	kzone_free(&r.kz);
	kzone_free(&r.kzsrc);
	if (err) {
		g_array_free(r.list, TRUE);
		g_array_free(r.first_reports, TRUE);
		memset(res, 0, sizeof(*res));
		if (by_code)
			memset(by_code, 0, ncodes * sizeof(*by_code));
		return err;
	}
	res->list = (struct km_conformance_failure *)g_array_steal(r.list, &res->list_len);
	g_array_free(r.list, TRUE);
	res->first_reports = (struct km_report *)g_array_steal(r.first_reports,
							       &res->first_reports_len);
	g_array_free(r.first_reports, TRUE);
	res->seconds = (double)(g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
	return 0;
}

int km_uaccess_conformance_sized(const struct km_uaccess_ops *ops,
				 const struct km_conformance_opts *opts, size_t opts_size, int ctx,
				 struct km_conformance_result *res, size_t res_size,
				 unsigned long *by_code, size_t ncodes)
{
	struct km_conformance_opts o = { 0 };
	struct km_conformance_result r;
	int err;

	if (res && res_size >= KM_CONFORMANCE_RESULT_MIN_SIZE)
		memset(res, 0, res_size);
	if (by_code)
		memset(by_code, 0, ncodes * sizeof(*by_code));
	if (!res || res_size < KM_CONFORMANCE_RESULT_MIN_SIZE ||
	    (opts && opts_size < KM_CONFORMANCE_OPTS_MIN_SIZE))
		return km_err(-EINVAL, "km_uaccess_conformance: NULL result, or result size %zu "
			      "(< %zu) or opts size %zu (< %zu)", res_size,
			      (size_t)KM_CONFORMANCE_RESULT_MIN_SIZE, opts_size,
			      (size_t)KM_CONFORMANCE_OPTS_MIN_SIZE);
	if (ctx != KM_CONF_CTX_ALL && (ctx < 0 || ctx >= KM_CONF_CTX__COUNT))
		return km_err(-EINVAL, "km_uaccess_conformance_in: context %d is not one of "
			      "enum km_conformance_context", ctx);
	if (opts)
		km_struct_read(&o, sizeof(o), opts, opts_size);
	err = conformance(ops, &o, ctx == KM_CONF_CTX_ALL ? (1u << KM_CONF_CTX__COUNT) - 1
							   : 1u << ctx, &r, by_code, ncodes);
	km_struct_write(res, res_size, &r, sizeof(r));
	/* a caller built before @first_reports does not free it */
	if (res_size < offsetof(struct km_conformance_result, first_reports_len) + sizeof(size_t))
		g_free(r.first_reports);
	return err;
}
