// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: programs of mm and uaccess operations on a machine the
 * input configures. Operations: mmap (anonymous, at a hint or anywhere),
 * munmap, mprotect, file maps (shared, private) and writeback, fork and a
 * second task, user loads and stores, gup and pin / put and unpin,
 * alloc_page, kmap_atomic and kunmap_atomic in any order,
 * preempt/pagefault toggles, every uaccess variant's copy_from_user,
 * copy_to_user (raw and through the contract wrapper) and clear_user, the
 * fault-injection knobs, peeks.
 *
 * Oracles (the library's own promises): the host never crashes (ASan,
 * UBSan); an mmap the model places is page aligned and below TASK_SIZE; a
 * copy returns at most n, the bytes it reports copied are the source's
 * (read back with km_mm_peek()), copy_from_user zero-fills the rest;
 * gup pins at most what was asked and every pinned page is referenced;
 * kmap_atomic raises the preempt and pagefault counts by one, kunmap
 * lowers them; no refcount, bad-page or bad-kfree report (the program
 * only passes pages it holds); after the program releases what it holds,
 * the teardown check finds nothing (no leaked page, slot, count, object).
 * The mm era (kmodel/machine.h, enum km_mm_era) comes from the input too,
 * and fork keeps each era's promise for every page the program got or
 * pinned: the parent keeps its page; the child maps the same page or none
 * -- but in 5.9 (70e806e4e645), a page of a private mapping that may be
 * DMA-pinned (page_count() >= GUP_PIN_COUNTING_BIAS) is copied to the
 * child: the child maps another page with the same bytes, or none. The
 * 4.8 era has no pin_user_pages(): there the program gets instead of
 * pinning (the refusal is tested in test_eras).
 */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <string.h>
#include "fuzz_input.h"

#define MAX_MAPS 8
#define MAX_PINS 32
#define MAX_KMAPS 24
#define MAX_FILES 2
#define MAX_MMAPS 96		/* every mmap of a program: at most one per op */
#define MAX_OPS 96
#define MAX_P 65536UL
#define BUF (3 * MAX_P + 64)

struct pin {
	struct km_page *page;
	bool pinned;		/* FOLL_PIN: unpin; else put_page */
	int task;		/* the task whose gup got it ... */
	unsigned long addr;	/* ... at this user address (page aligned) */
};

/* an mmap that succeeded: a present pte at an address is the latest
 * mapping's of its mm that covers it (a later one would have replaced it) */
struct mmap_rec {
	int mm;
	unsigned long addr, len;
	bool cow;		/* private (anonymous or file): fork's COW mapping */
};

struct kmap {
	void *addr;
	int task;
};

struct st {
	struct km_machine *m;
	struct km_mm *mm[2];
	struct km_task *t[2];
	int cur;
	unsigned long P, task_size;
	unsigned long map_addr[MAX_MAPS], map_len[MAX_MAPS];
	int nmaps;
	struct km_file *file[MAX_FILES];
	int nfiles;
	struct pin pins[MAX_PINS];
	int npins;
	struct kmap kmaps[MAX_KMAPS];
	int nkmaps;
	int preempt[2], pagefault[2];	/* what the program raised */
	enum km_mm_era era;
	struct mmap_rec mmaps[MAX_MMAPS];
	int nmmaps;
};

static unsigned char kbuf[BUF], ksrc[BUF], back[BUF];

static void setup(struct st *s, struct fuzz_in *in)
{
	static const unsigned long psz[] = { 4096, 16384, 65536 };
	uint8_t a = fuzz_u8(in), b = fuzz_u8(in), c = fuzz_u8(in);
	struct km_machine_config cfg = { 0 };

	cfg.page_size = psz[a % 3];
	cfg.ram_size = (uint64_t)(2 + (b & 7) * 2) << 20;		/* 2..16 MiB */
	if (b & 0x80)
		cfg.lowmem_size = cfg.ram_size / 2;			/* highmem user pages */
	cfg.fast_gup = c & 1;
	cfg.kmap_debug = (c >> 1) & 1;
	cfg.kmap = ((c >> 2) & 1) ? KM_KMAP_LOCAL : KM_KMAP_ATOMIC_PRE_5_11;
	cfg.kmap_strict = (enum km_kmap_strict)(((c >> 3) & 3) % 3);
	cfg.vmsplit = (enum km_vmsplit)((c >> 5) & 3);
	cfg.mm_era = (enum km_mm_era)((c >> 7) | ((b >> 2) & 2));	/* 5.7, 4.8, 5.8, 5.9 */
	s->era = cfg.mm_era;
	if (cfg.vmsplit != KM_VMSPLIT_3G && cfg.lowmem_size == 0)
		cfg.lowmem_size = 0;	/* the split's default */
	FUZZ_ASSERT(km_machine_new(&cfg, &s->m) == 0);
	FUZZ_ASSERT(km_mm_new(s->m, &s->mm[0]) == 0);
	FUZZ_ASSERT(km_task_new(s->m, s->mm[0], 0, &s->t[0]) == 0);
	km_mm_put(s->mm[0]);		/* the task holds it */
	s->P = km_page_size(s->m);
	s->task_size = km_task_size(s->m);
	km_task_switch(s->t[0]);
}

/* a user address: mostly within or next to a mapping, sometimes anywhere */
static unsigned long user_addr(struct st *s, struct fuzz_in *in)
{
	uint8_t how = fuzz_u8(in);
	uint16_t off = fuzz_u16(in);

	if (s->nmaps && (how & 3)) {
		int i = how % s->nmaps;

		return s->map_addr[i] + off - 64;
	}
	if ((how & 3) == 1)
		return s->task_size - (off & 0xfff);
	return (unsigned long)fuzz_u32(in);
}

static unsigned long length(struct st *s, struct fuzz_in *in)
{
	uint16_t v = fuzz_u16(in);

	switch (v >> 14) {
	case 0:
		return v & 0xff;
	case 1:
		return (v & 0x3fff) % (s->P + 1);
	default:
		return (unsigned long)v * 7 % (3 * s->P + 1);
	}
}

static const struct km_uaccess_ops *variant(struct fuzz_in *in)
{
	const struct km_uaccess_ops *const *v = km_uaccess_variants();
	size_t n = 0;

	while (v[n])
		n++;
	return v[fuzz_u8(in) % n];
}

/* Reports of a path where the kernel would oops or silently corrupt
 * memory (a kernel access to an unreachable user mapping on 4G/4G, a kmap
 * slot overflow, a guard page or a clobbered slot in strict kmap mode):
 * after one the model has reported the kernel's failure, and the bytes
 * are not promised. */
static unsigned long oops_reports(struct st *s)
{
	static const enum km_report_code codes[] = {
		KM_R_UNEXPECTED, KM_R_KMAP_OVERFLOW, KM_R_KMAP_CLOBBER, KM_R_KMAP_GUARD,
		KM_R_KMAP_UNMAPPED,
	};
	unsigned long n = 0;

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		n += km_report_count(s->m, codes[i]);
	return n;
}

/* The n - N bytes reported copied from user @addr hold @k -- unless the
 * operation brought an oops report (@oops: the count before it). */
static void check_prefix(struct st *s, unsigned long addr, const unsigned char *k,
			 unsigned long done, unsigned long oops)
{
	struct km_mm *mm = km_task_mm(s->t[s->cur]);

	if (!done || oops_reports(s) != oops)
		return;
	FUZZ_ASSERT(km_mm_peek(mm, addr, back, done) == 0);
	FUZZ_ASSERT(memcmp(back, k, done) == 0);
}

static void op_mmap(struct st *s, struct fuzz_in *in, bool file)
{
	unsigned long pages = 1 + fuzz_u8(in) % 8, hint = 0, a = 0;
	uint8_t f = fuzz_u8(in);
	int prot = KM_PROT_READ | ((f & 1) ? KM_PROT_WRITE : 0), err;
	struct km_mm *mm = km_task_mm(s->t[s->cur]);

	if (f & 2)
		hint = (1UL << 20) + (unsigned long)(f >> 2) * s->P;
	if (file) {
		int fi = f % MAX_FILES;

		if (!s->file[fi]) {
			FUZZ_ASSERT(km_file_new(s->m, (1 + fuzz_u8(in) % 6) * s->P, &s->file[fi]) == 0);
			s->nfiles++;
		}
		err = km_mmap_file(mm, hint, pages * s->P, prot, (f >> 4) & 1, s->file[fi],
				   fuzz_u8(in) % 4, &a);
	} else {
		err = km_mmap(mm, hint, pages * s->P, prot, &a);
	}
	if (err)
		return;
	if (s->nmmaps < MAX_MMAPS)
		s->mmaps[s->nmmaps++] = (struct mmap_rec){ s->cur, a, pages * s->P,
							   !file || !((f >> 4) & 1) };
	FUZZ_ASSERT(a % s->P == 0);
	FUZZ_ASSERT(a >= 0x8000 && a < s->task_size && a + pages * s->P <= s->task_size);
	if (hint)
		FUZZ_ASSERT(a == hint);
	if (s->nmaps < MAX_MAPS) {
		s->map_addr[s->nmaps] = a;
		s->map_len[s->nmaps++] = pages * s->P;
	} else {
		s->map_addr[f % MAX_MAPS] = a;
		s->map_len[f % MAX_MAPS] = pages * s->P;
	}
}

static void op_range(struct st *s, struct fuzz_in *in, bool unmap)
{
	struct km_mm *mm = km_task_mm(s->t[s->cur]);
	unsigned long a = s->nmaps ? s->map_addr[fuzz_u8(in) % s->nmaps] : 0x100000;
	unsigned long off = (fuzz_u8(in) % 4) * s->P, len = (1 + fuzz_u8(in) % 4) * s->P;
	int err;

	if (unmap) {
		err = km_munmap(mm, a + off, len);
		FUZZ_ASSERT(err == 0 || err == -EINVAL);
	} else {
		err = km_mprotect(mm, a + off, len,
				  KM_PROT_READ | ((fuzz_u8(in) & 1) ? KM_PROT_WRITE : 0));
		FUZZ_ASSERT(err == 0 || err == -EINVAL || err == -ENOMEM);
	}
}

static void op_gup(struct st *s, struct fuzz_in *in)
{
	struct km_page *pages[4];
	uint8_t f = fuzz_u8(in);
	long nr = 1 + f % 4, got;
	unsigned long a = user_addr(s, in);
	bool pin = (f & 4) && s->era != KM_MM_ERA_4_8, fast_only = f & 8;
	unsigned int flags = (f & 16) ? KM_FOLL_WRITE : 0;

	if (s->npins + nr > MAX_PINS)
		return;
	if (fast_only)
		got = km_get_user_pages_fast_only(s->t[s->cur], a, nr, flags | (pin ? KM_FOLL_PIN : 0),
						  pages);
	else if (pin)
		got = km_pin_user_pages_fast(s->t[s->cur], a, nr, flags, pages);
	else
		got = km_get_user_pages_fast(s->t[s->cur], a, nr, flags, pages);
	FUZZ_ASSERT(got <= nr);
	for (long i = 0; i < got; i++) {
		FUZZ_ASSERT(km_page_refcount(pages[i]) >= (pin ? KM_GUP_PIN_COUNTING_BIAS : 1));
		s->pins[s->npins++] = (struct pin){ pages[i], pin, s->cur,
						    (a & ~(s->P - 1)) + (unsigned long)i * s->P };
	}
}

static void op_put(struct st *s, struct fuzz_in *in)
{
	int i;

	if (!s->npins)
		return;
	i = fuzz_u8(in) % s->npins;
	if (s->pins[i].pinned)
		km_unpin_user_page(s->m, s->pins[i].page);
	else
		km_put_page(s->m, s->pins[i].page);
	s->pins[i] = s->pins[--s->npins];
}

static void op_kmap(struct st *s, struct fuzz_in *in)
{
	struct km_task *t = s->t[s->cur];
	int pc = km_preempt_count(t), pf = km_pagefault_disabled(t);
	void *v;

	if (!s->npins || s->nkmaps == MAX_KMAPS)
		return;
	v = km_kmap_atomic(t, s->pins[fuzz_u8(in) % s->npins].page);
	FUZZ_ASSERT(v != NULL);
	FUZZ_ASSERT(km_preempt_count(t) == pc + 1 && km_pagefault_disabled(t) == pf + 1);
	s->kmaps[s->nkmaps++] = (struct kmap){ v, s->cur };
}

static void op_kunmap(struct st *s, struct fuzz_in *in)
{
	struct km_task *t;
	int i, pc, pf;

	if (!s->nkmaps)
		return;
	i = fuzz_u8(in) % s->nkmaps;		/* any order */
	t = s->t[s->kmaps[i].task];
	pc = km_preempt_count(t);
	pf = km_pagefault_disabled(t);
	km_kunmap_atomic(t, s->kmaps[i].addr);
	FUZZ_ASSERT(km_preempt_count(t) == pc - 1 && km_pagefault_disabled(t) == pf - 1);
	s->kmaps[i] = s->kmaps[--s->nkmaps];
}

static void op_toggle(struct st *s, struct fuzz_in *in)
{
	uint8_t f = fuzz_u8(in);
	struct km_task *t = s->t[s->cur];
	int *count = (f & 1) ? &s->preempt[s->cur] : &s->pagefault[s->cur];

	if ((f & 2) && *count > 0) {
		if (f & 1)
			km_preempt_enable(t);
		else
			km_pagefault_enable(t);
		--*count;
	} else if (*count < 8) {
		if (f & 1)
			km_preempt_disable(t);
		else
			km_pagefault_disable(t);
		++*count;
	}
}

static void op_copy(struct st *s, struct fuzz_in *in, int kind)
{
	const struct km_uaccess_ops *ops = variant(in);
	struct km_task *t = s->t[s->cur];
	unsigned long a = user_addr(s, in), n = length(s, in), N, oops = oops_reports(s);
	bool raw = fuzz_u8(in) & 1;

	switch (kind) {
	case 0:		/* copy_from_user */
		memset(kbuf, 0xee, n + 64);
		if (raw)
			N = km_copyin(t, ops, kbuf, a, n);
		else
			N = km_copy_from_user(t, ops, kbuf, a, n);
		FUZZ_ASSERT(N <= n);
		check_prefix(s, a, kbuf, n - N, oops);
		/* raw: nothing past the copied bytes written; the wrapper
		 * zero-fills them */
		for (unsigned long i = n - N; i < n && oops_reports(s) == oops; i++)
			FUZZ_ASSERT(kbuf[i] == (raw ? 0xee : 0));
		for (int i = 0; i < 64; i++)
			FUZZ_ASSERT(kbuf[n + i] == 0xee);	/* nothing past n */
		break;
	case 1:		/* copy_to_user */
		for (unsigned long i = 0; i < n; i++)
			ksrc[i] = (unsigned char)(i * 13 + n);
		N = raw ? km_copyout(t, ops, a, ksrc, n) : km_copy_to_user(t, ops, a, ksrc, n);
		FUZZ_ASSERT(N <= n);
		check_prefix(s, a, ksrc, n - N, oops);
		break;
	default:	/* clear_user */
		N = km_clear_user_with(t, ops, a, n);
		FUZZ_ASSERT(N <= n);
		memset(ksrc, 0, n - N);
		check_prefix(s, a, ksrc, n - N, oops);
		break;
	}
}

static void op_user(struct st *s, struct fuzz_in *in)
{
	unsigned long a = user_addr(s, in), n = length(s, in), oops = oops_reports(s);
	bool write = fuzz_u8(in) & 1;
	long done;

	memset(kbuf, 0x5a, n);
	done = km_user_access(s->t[s->cur], a, kbuf, n, write);
	FUZZ_ASSERT(done >= 0 && (unsigned long)done <= n);
	check_prefix(s, a, kbuf, (unsigned long)done, oops);
}

/* Is @addr of mm 0 in a private (COW) mapping? The latest mmap covering it */
static bool cow_at(const struct st *s, unsigned long addr)
{
	for (int i = s->nmmaps; i-- > 0;)
		if (s->mmaps[i].mm == 0 && addr - s->mmaps[i].addr < s->mmaps[i].len)
			return s->mmaps[i].cow;
	return false;
}

/* fork, the only one (task 0's mm): each era's promise for the pages the
 * program holds from its parent's mappings (see the header comment) */
static void op_fork(struct st *s)
{
	struct km_page *before[MAX_PINS], *p;
	unsigned int fl;
	bool copy[MAX_PINS];
	unsigned char *pb = back, *cb = back + MAX_P;

	if (s->t[1] || s->nmmaps == MAX_MMAPS)	/* the log full: cow_at() unsure */
		return;
	for (int i = 0; i < s->npins; i++) {
		before[i] = NULL;
		if (s->pins[i].task != 0 ||
		    km_follow_pte(s->mm[0], s->pins[i].addr, &fl, &before[i]) || (fl & KM_PTE_SPECIAL))
			before[i] = NULL;	/* no longer mapped there, or the zero page */
		copy[i] = before[i] && s->era == KM_MM_ERA_5_9 && cow_at(s, s->pins[i].addr) &&
			  km_page_refcount(before[i]) >= KM_GUP_PIN_COUNTING_BIAS;
	}
	FUZZ_ASSERT(km_mm_fork(s->mm[0], &s->mm[1]) == 0);
	FUZZ_ASSERT(km_task_new(s->m, s->mm[1], 0, &s->t[1]) == 0);
	km_mm_put(s->mm[1]);
	for (int i = 0; i < s->npins; i++) {
		unsigned long a = s->pins[i].addr;

		if (!before[i])
			continue;
		FUZZ_ASSERT(km_follow_pte(s->mm[0], a, NULL, &p) == 0 && p == before[i]);
		if (km_follow_pte(s->mm[1], a, NULL, &p))
			continue;		/* the child faults it in later */
		FUZZ_ASSERT((p != before[i]) == copy[i]);
		if (copy[i]) {			/* copy_user_highpage() */
			FUZZ_ASSERT(km_mm_peek(s->mm[0], a, pb, s->P) == 0);
			FUZZ_ASSERT(km_mm_peek(s->mm[1], a, cb, s->P) == 0);
			FUZZ_ASSERT(memcmp(pb, cb, s->P) == 0);
		}
	}
}

static void op_knob(struct st *s, struct fuzz_in *in)
{
	uint8_t f = fuzz_u8(in), v = fuzz_u8(in);

	switch (f % 4) {
	case 0:
		km_fault_fail_kmalloc_nth(s->m, v % 4);
		break;
	case 1:
		km_fault_gup_limit(s->m, (long)(v % 5) - 1);
		break;
	case 2:
		km_fault_kmap_slots(s->m, v % (KM_TYPE_NR + 1));
		break;
	default:
		km_fault_inject_reset(s->m);
	}
}

static void op_alloc_page(struct st *s, struct fuzz_in *in)
{
	struct km_page *p;

	if (s->npins == MAX_PINS)
		return;
	p = km_alloc_page(s->m, (fuzz_u8(in) & 1) ? KM_GFP_HIGHMEM : 0);
	if (p)
		s->pins[s->npins++] = (struct pin){ p, false, -1, 0 };	/* no task, no address */
}

static void teardown(struct st *s)
{
	while (s->nkmaps) {		/* last mapped first */
		struct kmap *k = &s->kmaps[--s->nkmaps];

		km_kunmap_atomic(s->t[k->task], k->addr);
	}
	for (int i = 0; i < 2; i++) {
		for (; s->preempt[i]; s->preempt[i]--)
			km_preempt_enable(s->t[i]);
		for (; s->pagefault[i]; s->pagefault[i]--)
			km_pagefault_enable(s->t[i]);
	}
	km_fault_inject_reset(s->m);
	while (s->npins) {
		struct pin *p = &s->pins[--s->npins];

		if (p->pinned)
			km_unpin_user_page(s->m, p->page);
		else
			km_put_page(s->m, p->page);
	}
	for (int i = 0; i < MAX_FILES; i++)
		km_file_put(s->file[i]);
	km_task_switch(NULL);
	for (int i = 0; i < 2; i++)
		km_task_free(s->t[i]);
	/* the program passed only pages it held: no misuse of them */
	FUZZ_ASSERT(km_report_count(s->m, KM_R_PAGE_REFCOUNT) == 0);
	FUZZ_ASSERT(km_report_count(s->m, KM_R_BAD_PAGE) == 0);
	FUZZ_ASSERT(km_report_count(s->m, KM_R_BAD_KFREE) == 0);
	FUZZ_ASSERT(km_report_count(s->m, KM_R_LEAK_ATOMIC) == 0);
	/* everything released: the teardown check finds nothing */
	FUZZ_ASSERT(km_machine_check(s->m) == 0);
	km_reports_clear(s->m);
	FUZZ_ASSERT(km_machine_destroy(s->m) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct st s;

	memset(&s, 0, sizeof(s));
	setup(&s, &in);
	for (int ops = 0; fuzz_more(&in) && ops < MAX_OPS; ops++) {
		switch (fuzz_u8(&in) % 20) {
		case 0: case 1: op_mmap(&s, &in, false); break;
		case 2: op_range(&s, &in, true); break;
		case 3: op_range(&s, &in, false); break;
		case 4: op_mmap(&s, &in, true); break;
		case 5: if (s.file[0]) FUZZ_ASSERT(km_file_writeback(s.file[0]) >= 0); break;
		case 6: op_fork(&s); break;
		case 7: if (s.t[1]) { s.cur = !s.cur; km_task_switch(s.t[s.cur]); } break;
		case 8: op_user(&s, &in); break;
		case 9: op_gup(&s, &in); break;
		case 10: op_put(&s, &in); break;
		case 11: op_kmap(&s, &in); break;
		case 12: op_kunmap(&s, &in); break;
		case 13: op_toggle(&s, &in); break;
		case 14: case 15: op_copy(&s, &in, 0); break;
		case 16: op_copy(&s, &in, 1); break;
		case 17: op_copy(&s, &in, 2); break;
		case 18: op_knob(&s, &in); break;
		default: op_alloc_page(&s, &in); break;
		}
	}
	teardown(&s);
	return 0;
}
