/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private state of mm_sim (not installed, not part of the API): struct page,
 * page tables, vmas, address spaces and files, and the inline walkers that
 * gup, the fault handler and the uaccess variants share. Above core
 * (internal.h); core never includes it.
 */
#ifndef KMODEL_MM_INTERNAL_H
#define KMODEL_MM_INTERNAL_H

#include "internal.h"
#include "physmem.h"	/* struct km_page, km_pfn(), km_frame() */

#define KM_PTRS_BITS		10	/* ptes per second-level table: 1 << 10 */

/* km_pte_t, KM_PTE_PFN_SHIFT: kmodel/mm.h */
_Static_assert(KM_PTRS_PER_PTE == 1 << KM_PTRS_BITS, "KM_PTRS_PER_PTE is 1 << KM_PTRS_BITS");

struct km_vma {
	unsigned long start, end;	/* [start, end) */
	unsigned int vm_flags;		/* KM_VM_* */
	struct km_file *file;		/* NULL: anonymous; else one reference */
	unsigned long pgoff;		/* file page of start */
	struct km_mm *mm;		/* the address space it belongs to */
};
#define KM_VM_READ	0x1u
#define KM_VM_WRITE	0x2u
#define KM_VM_SHARED	0x8u
#define KM_MMAP_MIN_ADDR 0x8000UL	/* CONFIG_DEFAULT_MMAP_MIN_ADDR on ARM */
/* Every address the model picks is page aligned: mmap_min_addr rounded
 * up to the machine's page (0x8000 is a boundary of 4 and 16 KiB pages,
 * not of 64 KiB ones: 0x10000 there) */
static inline unsigned long km_mmap_min_addr(const struct km_machine *m)
{
	return (KM_MMAP_MIN_ADDR + m->page_size - 1) & ~(m->page_size - 1);
}

/* A file with dirty accounting: its page cache, indexed by page. */
struct km_file {
	struct km_machine *m;
	int refs;
	unsigned long nr_pages;		/* size in pages */
	GPtrArray *cache;		/* struct km_page *, NULL: not cached */
	GPtrArray *disk;		/* page-sized copies writeback wrote, NULL: none */
	/* i_mmap: the vmas mapping the file (struct km_vma *), so that
	 * page_mkclean() visits those only, as the kernel's rmap does */
	GHashTable *i_mmap;
};

/* gaps.c: the free areas of an address space (rb_subtree_gap) */
struct km_gap;
struct km_gaps {
	struct km_gap *root;
	uint32_t seed;
};
void km_gaps_init(struct km_gaps *g, unsigned long lo, unsigned long hi);
void km_gaps_fini(struct km_gaps *g);
/* [start, end) is now mapped (it lies in one gap) / free again */
void km_gaps_take(struct km_gaps *g, unsigned long start, unsigned long end);
void km_gaps_give(struct km_gaps *g, unsigned long start, unsigned long end);
/* unmapped_area(): the lowest address >= @lo with @len free bytes ending
 * by @hi, or 0 */
unsigned long km_gaps_first_fit(const struct km_gaps *g, unsigned long lo, unsigned long hi,
				unsigned long len);

struct km_mm {
	struct km_machine *m;
	int users;
	GTree *vmas;			/* keyed by start; non-overlapping */
	struct km_gaps gaps;		/* what the vmas leave free, below TASK_SIZE */
	struct km_vma *vma_cache;	/* last km_find_vma() hit */
	km_pte_t **pgd;			/* [pgd_entries] -> [1 << KM_PTRS_BITS] */
	unsigned long pgd_entries;
	unsigned long mmap_base;	/* TASK_UNMAPPED_BASE: where mmap searches first */
	struct km_mm_locks locks;	/* mmap_sem, page_table_lock */
	bool has_pinned;		/* a FOLL_PIN gup ran on it (v5.9's mm->has_pinned) */
};

/* page_alloc.c */
int km_page_alloc_check(struct km_machine *m);
/* km_zero_page_check(): kmodel/mm.h */
int km_page_alloc_init(struct km_machine *m);
/* get_page() and put_page() of a non-NULL @m that leave their count to
 * the caller's path counter (struct km_path_events) */
void km_page_get_uncounted(struct km_machine *m, struct km_page *p);
void km_page_put_uncounted(struct km_machine *m, struct km_page *p);

/* A fault-and-retry loop's count of faults in a row at @addr: true (and a
 * KM_R_LIVELOCK report naming @loop) once it reaches KM_RETRY_LIMIT. Reset
 * *@tries to 0 where the loop gets on. */
void km_livelock_report(struct km_machine *m, const char *loop, unsigned long addr);
static inline bool km_retry_stuck(struct km_machine *m, unsigned int *tries, const char *loop,
				  unsigned long addr)
{
	if (__builtin_expect(++*tries < KM_RETRY_LIMIT, 1))
		return false;
	km_livelock_report(m, loop, addr);
	return true;
}

/* mm.c */
int km_mm_init(struct km_machine *m);
void km_mm_fini(struct km_machine *m);
int km_mm_check(struct km_machine *m);
struct km_vma *km_find_vma_tree(struct km_mm *mm, unsigned long addr);
km_pte_t *km_pte_alloc(struct km_mm *mm, unsigned long addr);
/* zap_pte_range(): drop the ptes of [start, end), their pages' mapcounts
 * and references; the vmas stay */
void km_zap_range(struct km_mm *mm, unsigned long start, unsigned long end);

/* The vma containing @addr, or NULL. A one-entry cache in front of the
 * tree plays the part of the kernel's vmacache (mm/vmacache.c, v5.7). */
static inline struct km_vma *km_find_vma(struct km_mm *mm, unsigned long addr)
{
	struct km_vma *v = mm->vma_cache;

	if (v && addr >= v->start && addr < v->end)
		return v;
	return km_find_vma_tree(mm, addr);
}

/* The pte of user address @addr in @mm's two-level table, NULL above
 * TASK_SIZE or where no second-level table exists (unless @alloc). */
static inline km_pte_t *km_pte_lookup(struct km_mm *mm, unsigned long addr, bool alloc)
{
	unsigned long vpn;
	km_pte_t *pt;

	if (addr >= mm->m->task_size)
		return NULL;
	vpn = addr >> mm->m->page_shift;
	pt = mm->pgd[vpn >> KM_PTRS_BITS];
	if (!pt)
		return alloc ? km_pte_alloc(mm, addr) : NULL;
	return &pt[vpn & ((1UL << KM_PTRS_BITS) - 1)];
}
/* A user or kernel access by @t to its own mm at @addr in @vma faulted:
 * access_error() of the arch's fault handler (the vma's VM_READ/VM_WRITE;
 * -EFAULT: SIGSEGV or the exception fixup), then km_fault_page(). */
int km_handle_mm_fault(struct km_task *t, struct km_vma *vma, unsigned long addr, bool write);

/* The next user address a walk over ptes looks at after @a, whose pte is
 * @pte: the next page, or, where no second-level table exists (@pte
 * NULL), the start of the next table -- so walks of fork, munmap,
 * mprotect and teardown follow the tables in use, not the mapped size. */
static inline unsigned long km_next_pte_addr(const struct km_machine *m, unsigned long a,
					     const km_pte_t *pte)
{
	unsigned int shift = m->page_shift + KM_PTRS_BITS;

	return pte ? a + m->page_size : ((a >> shift) + 1) << shift;
}
#define KM_VM_FAULT_WRITE 0x1u	/* do_wp_page() broke COW or reused the page */
/* handle_mm_fault() of @mm at @addr in @vma, @write: FAULT_FLAG_WRITE, with
 * no access check (what gup's faultin_page() calls; @t reaches the point
 * KM_IP_AFTER_FAULT after a success). *@vmf gets KM_VM_FAULT_* bits.
 * 0, or -EFAULT (SIGBUS: past the file) / -ENOMEM. */
int km_fault_page(struct km_task *t, struct km_mm *mm, struct km_vma *vma, unsigned long addr,
		  bool write, unsigned int *vmf);

/* The machine's mm era as a kernel version: 408, 507, 508 or 509 */
static inline unsigned int km_mm_era(const struct km_machine *m)
{
	switch (m->cfg.mm_era) {
	case KM_MM_ERA_4_8:
		return 408;
	case KM_MM_ERA_5_8:
		return 508;
	case KM_MM_ERA_5_9:
		return 509;
	default:
		return 507;
	}
}

/* interleave.c: its state (m->interleave); busy while a scheduler drives
 * @m (km_machine_destroy() refuses then) */
int km_interleave_init(struct km_machine *m);
void km_interleave_fini(struct km_machine *m);
bool km_interleave_busy(const struct km_machine *m);
/* interleave.c: a point reached by @t (current, may be NULL) on @m */
void km_ipoint_fire(struct km_machine *m, struct km_task *t, enum km_ipoint ip,
		    unsigned long addr);
static inline void km_ipoint(struct km_machine *m, struct km_task *t, enum km_ipoint ip,
			     unsigned long addr)
{
	if (__builtin_expect(m->ip_armed, 0))
		km_ipoint_fire(m, t, ip, addr);
}
/* down_write(&mm->mmap_sem) by current for @what (munmap, mprotect, ...):
 * waits while readers hold it -- a task of a scheduler blocks until they
 * leave; anywhere else that is a KM_R_LOCK BUG, and the caller goes on */
void km_mmap_write_lock(struct km_mm *mm, const char *what);

/* gup.c, ptlock.c: the fault-injection hooks' state (m->gup, m->copy),
 * allocated when armed; the fini frees it */
void km_gup_fini(struct km_machine *m);
void km_copy_fini(struct km_machine *m);

/* highmem.c */
int km_kmap_init(struct km_machine *m);
int km_kmap_check(struct km_machine *m);
void km_kmap_fini(struct km_machine *m);
/* kmap_local maps @t holds (its kmap_ctrl.idx over KM_INCR) */
unsigned int km_kmap_task_slots(const struct km_task *t);
/* release @t's strict-mode windows (task exit) */
void km_kmap_task_fini(struct km_task *t);
/* strict kmap mode: is host address @p in a slot window (a kmap address)
 * of @t's machine? */
bool km_kmap_window(struct km_task *t, const void *p);
/* strict kmap mode: the frame that the slot page at host address @p
 * aliases while its pte maps it, else ~0UL (a guard page, a slot page with
 * no pte, no window at all); *@room: the bytes from @p to the end of its
 * window page, 0 when @p is in no window */
unsigned long km_kmap_alias_pfn(struct km_task *t, const void *p, size_t *room);

#endif
