/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/mm.h - physical pages, address spaces, page tables,
 * get_user_pages_fast() and kmap_atomic() of a simulated 32-bit ARM machine.
 *
 * Addresses: a *user address* is a simulated virtual address of a km_mm
 * (unsigned long, below TASK_SIZE). A *kernel address* is a host pointer:
 * the direct map of a lowmem page, or a kmap_atomic() mapping.
 */
#ifndef KMODEL_MM_H
#define KMODEL_MM_H

#include <kmodel/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

/** struct page of the model: opaque, inspect with the km_page_* accessors. */
struct km_page;

/* kmap_atomic slots per CPU: ARM's arch/arm/include/asm/kmap_types.h, v5.7
 * (asm-generic/kmap_types.h, which other arches use, has 20) */
#define KM_TYPE_NR	16
#define KM_GUP_PIN_COUNTING_BIAS 1024 /* include/linux/mm.h */

/** Geometry of a machine: page size (bytes), PAGE_SHIFT, pages in each zone
 *  -- what a harness sizes its buffers and address ranges by. */
KM_API unsigned long km_page_size(const struct km_machine *m);
KM_API unsigned int km_page_shift(const struct km_machine *m);
KM_API unsigned long km_nr_pages(const struct km_machine *m);
KM_API unsigned long km_nr_lowmem_pages(const struct km_machine *m);
/** TASK_SIZE of the machine's vmsplit, in bytes (user addresses are below). */
KM_API unsigned long km_task_size(const struct km_machine *m);
/** Bytes of host memory the simulated RAM currently costs (resident pages
 *  of the RAM mapping, from mincore(2)): how a user sizes a big machine or
 *  many machines on one host (README, "What the model costs the host"). */
KM_API uint64_t km_ram_resident_bytes(const struct km_machine *m);

/* ---- pages (mm/page_alloc.c, include/linux/mm.h, page_ref.h) --------------- */

/** page_to_pfn(), page_mapcount(), PageHighMem(), PageDirty() and their
 *  kin below: the state a harness asserts on after its code ran (a pin
 *  taken and dropped, a COW broken, a highmem page kmapped). */
KM_API unsigned long km_page_to_pfn(const struct km_machine *m, const struct km_page *p);
/** NULL when @pfn is out of range. */
KM_API struct km_page *km_pfn_to_page(struct km_machine *m, unsigned long pfn);
/** page_ref_count(): the _refcount; pins (FOLL_PIN) add KM_GUP_PIN_COUNTING_BIAS. */
KM_API int km_page_refcount(const struct km_page *p);
/** page_mapcount(): number of user ptes mapping the page. */
KM_API int km_page_mapcount(const struct km_page *p);
KM_API bool km_page_highmem(const struct km_page *p);
KM_API bool km_page_dirty(const struct km_page *p);
/**
 * km_page_address() - page_address(): the direct-map (host) address of a
 * lowmem page; NULL for a highmem page, as on a kernel without
 * WANT_PAGE_VIRTUAL (highmem pages have no permanent mapping). A page that
 * is not @m's (NULL: a page from a gup that failed): the kernel oopses at
 * PageHighMem(page) with CONFIG_HIGHMEM, else at the caller's access; the
 * model records a KM_R_BAD_PAGE BUG and returns the bad-kmap page of
 * km_kmap_atomic() (zeroed, a page of host memory on each side), so the
 * caller's access does not crash the host. NULL for a NULL @m.
 */
KM_API void *km_page_address(struct km_machine *m, const struct km_page *p);

/**
 * km_alloc_page() - alloc_page(@gfp). KM_GFP_HIGHMEM prefers the highmem
 * zone and falls back to lowmem; without it only lowmem is used.
 * KM_GFP_ZERO zeroes the frame. Refcount 1, owned by the caller.
 * Return: the page, or NULL when the zones are exhausted (no OOM killer).
 */
KM_API struct km_page *km_alloc_page(struct km_machine *m, km_gfp_t gfp);
/** get_page(): refcount + 1. On a free page: KM_R_PAGE_REFCOUNT, no change. */
KM_API void km_get_page(struct km_machine *m, struct km_page *p);
/**
 * km_put_page() - put_page(): refcount - 1; the page returns to its zone's
 * free list at 0. On a page whose refcount is already 0 (a double
 * put_page), records KM_R_PAGE_REFCOUNT and changes nothing. A pointer that
 * is not a page of @m is KM_R_BAD_PAGE.
 */
KM_API void km_put_page(struct km_machine *m, struct km_page *p);
/** unpin_user_page(): refcount - KM_GUP_PIN_COUNTING_BIAS (mm/gup.c, v5.7). */
KM_API void km_unpin_user_page(struct km_machine *m, struct km_page *p);

/* ---- address spaces (mm/mmap.c, mm/memory.c) --------------------------------- */

#define KM_PROT_NONE	0x0	/**< km_mprotect() only */
#define KM_PROT_READ	0x1
#define KM_PROT_WRITE	0x2

/** pte bits as km_follow_pte() reports them (the model's own encoding). */
#define KM_PTE_PRESENT	0x01u
#define KM_PTE_WRITE	0x02u
#define KM_PTE_USER	0x04u
#define KM_PTE_YOUNG	0x08u
#define KM_PTE_DIRTY	0x10u
#define KM_PTE_SPECIAL	0x20u	/**< the shared zero page (pte_special) */

/** A new, empty address space (mm_struct), one user reference. */
KM_API int km_mm_new(struct km_machine *m, struct km_mm **out);
/** mmget()/mmput(): the last put unmaps everything and frees the mm. A
 *  harness that shares an mm between tasks (fork, threads) holds its own
 *  reference with km_mm_get(). */
KM_API void km_mm_get(struct km_mm *mm);
KM_API void km_mm_put(struct km_mm *mm);

/**
 * km_mmap() - an anonymous private mapping of @len bytes (rounded up to
 * pages) with @prot (KM_PROT_READ, optionally KM_PROT_WRITE).
 * @addr: 0 to let the model choose, or a page-aligned address at which the
 *        mapping must go (MAP_FIXED_NOREPLACE: -EEXIST if it overlaps).
 * @out_addr: receives the start.
 * Pages are not populated: the first access faults them in (a read maps the
 * shared zero page read-only, a write allocates a zeroed page, preferring
 * highmem like GFP_HIGHUSER_MOVABLE).
 * Return: 0, -EINVAL (len 0, unaligned addr, bad prot, range not below
 * TASK_SIZE), -EEXIST, -ENOMEM.
 */
KM_API int km_mmap(struct km_mm *mm, unsigned long addr, unsigned long len,
		   int prot, unsigned long *out_addr);
/**
 * km_munmap() - unmap [@addr, @addr + @len) (rounded to pages), splitting
 * mappings as needed; each present page loses its pte reference.
 * Return: 0, -EINVAL (unaligned @addr, @len 0, range past TASK_SIZE).
 */
KM_API int km_munmap(struct km_mm *mm, unsigned long addr, unsigned long len);

#define KM_MADV_DONTNEED 4	/**< include/uapi/asm-generic/mman-common.h */
/**
 * km_madvise() - madvise(2) (mm/madvise.c, v5.7) with MADV_DONTNEED, the
 * only advice modelled: zap_page_range() of every vma in [@addr, @addr +
 * @len) (@len rounded up to pages): their ptes are dropped, so the next
 * access faults in again -- zeroes for anonymous memory, the page-cache
 * page for a file (a private file mapping's COW copies are gone). Runs
 * under mmap_sem for read. Return: 0 (also for @len 0), -EINVAL (unaligned
 * @addr, a range that wraps or passes TASK_SIZE, another advice), -ENOMEM
 * when part of the range is not mapped (the mapped parts are still
 * zapped, as the kernel does). A harness drops ptes with it to make the
 * next access fault again: between a COW fault and gup's retry
 * (KM_IP_GUP_RETRY), or to measure a cold path.
 */
KM_API int km_madvise(struct km_mm *mm, unsigned long addr, unsigned long len, int advice);

/**
 * km_mprotect() - mprotect(2): set @prot (KM_PROT_NONE, KM_PROT_READ, or
 * KM_PROT_READ | KM_PROT_WRITE) on [@addr, @addr + @len), splitting
 * mappings as needed. change_pte_range() applies the new protection to the
 * present ptes: removing write access write-protects them, PROT_NONE makes
 * them inaccessible to the user (a user access faults and, the vma having
 * no VM_READ, stops: SIGSEGV; only FOLL_FORCE gup still reaches the page,
 * as ptrace does), PROT_READ makes them readable again; adding write access
 * leaves them read-only until the next write fault upgrades them. Waits
 * for mmap_sem's readers (kmodel/interleave.h). Return: 0, -EINVAL (bad
 * range or prot), -ENOMEM (part of the range is not mapped).
 */
KM_API int km_mprotect(struct km_mm *mm, unsigned long addr, unsigned long len, int prot);

/**
 * km_mm_fork() - dup_mmap() of fork(2): a new address space with the same
 * mappings. Private ptes are copied write-protected in both (copy_one_pte():
 * each page gains a reference and a mapcount, so a later write breaks COW);
 * in the KM_MM_ERA_5_9 era a page that may be pinned (page_count() >=
 * KM_GUP_PIN_COUNTING_BIAS) of a parent that has pinned (FOLL_PIN) is
 * copied to the child at once instead, the parent's pte left as it was
 * (copy_present_page(), 70e806e4e645). Shared file ranges are not copied
 * and fault in again. Return: 0, -EINVAL, -ENOMEM; *@out gets one user
 * reference (km_mm_put()).
 */
KM_API int km_mm_fork(struct km_mm *parent, struct km_mm **out);

/* ---- files (page cache with dirty accounting) ------------------------------ */

/** A simulated file. Its pages are cached on first touch (zeroed), prefer
 *  highmem, and carry PG_dirty; like ext4 it accounts dirty pages, so a
 *  shared mapping is mapped read-only until a write fault dirties it. */
struct km_file;

/** A file of @size bytes (rounded up to pages), one reference.
 *  Return: 0, -EINVAL (size 0 or above TASK_SIZE). */
KM_API int km_file_new(struct km_machine *m, uint64_t size, struct km_file **out);
/** Drop a reference; the last one truncates the page cache. NULL: no-op. */
KM_API void km_file_put(struct km_file *f);
/** The cached page at page @index, or NULL if not cached. No reference
 *  taken: what a harness inspects after writeback or truncation. */
KM_API struct km_page *km_file_page(struct km_file *f, unsigned long index);
/**
 * km_file_writeback() - write the file's dirty pages back: for each cached
 * page, clear_page_dirty_for_io(): page_mkclean() cleans and write-protects
 * its shared ptes, and the page is written if it or one of them was dirty
 * (its bytes then are what km_file_read_disk() returns); PG_dirty is
 * cleared. Return: pages written, or -EINVAL.
 */
KM_API long km_file_writeback(struct km_file *f);
/**
 * km_file_read() - the file's contents as a read(2) would see them: @len
 * bytes from byte @pos, from the page cache, zeroes for pages never cached
 * (a new file is zeroes). Touches nothing (no page is cached, no event):
 * a harness reads back what its code wrote through a mapping or the
 * write path without disturbing the state or the counts it measures.
 * Return: 0, -EINVAL (NULL argument, or a range past the file's size).
 */
KM_API int km_file_read(const struct km_file *f, uint64_t pos, void *buf, size_t len);
/**
 * km_file_read_disk() - what writeback has written of the file: @len bytes
 * from byte @pos as the last km_file_writeback() that wrote each page left
 * them, zeroes for pages never written back. Return: as km_file_read().
 */
KM_API int km_file_read_disk(const struct km_file *f, uint64_t pos, void *buf, size_t len);
/** set_page_dirty() (what a gup user must call after writing a page). */
KM_API void km_set_page_dirty(struct km_machine *m, struct km_page *p);
/**
 * km_check_pinned_writes() - the pinned-write checker of @m on or off (a
 * new machine: off; the conformance suite and the tools turn it on): a
 * page pinned with FOLL_WRITE (get_user_pages*(), pin_user_pages*()),
 * written while pinned -- through any kernel mapping of its frame (the
 * linear map, a highmem frame, a strict-mode kmap slot's alias) by the
 * compatibility layer's memcpy()/memset(), or by km_page_device_write() --
 * and released (the last such reference put or unpinned) while !PageDirty
 * is a KM_R_PIN_NOT_DIRTIED BUG: writeback would drop the write
 * (drivers/xen/gntdev.c before 779055842da5, v5.9). A plain C store
 * through a kmap pointer is not seen. It costs a hash lookup per
 * FOLL_WRITE page pinned and released.
 */
KM_API void km_check_pinned_writes(struct km_machine *m, bool on);
/**
 * km_page_device_write() - a device, or the hypervisor, writes @len bytes
 * of @src at byte @off of @p (DMA; Xen's grant copy into a gntdev page):
 * the frame changes and nothing marks the page dirty, as in the kernel.
 * Return: 0; -EINVAL for a NULL argument, a page not of @m, or a range
 * past the page.
 */
KM_API int km_page_device_write(struct km_machine *m, struct km_page *p, unsigned long off,
				const void *src, size_t len);
/**
 * km_mmap_file() - map @len bytes of @file from page @pgoff, MAP_SHARED
 * (@shared: writes go to the page cache and dirty it) or MAP_PRIVATE (a
 * write copies the page, do_cow_fault()). @addr and the errors as
 * km_mmap(), and -EOVERFLOW when @pgoff plus the length in pages wraps
 * (do_mmap(), v5.7). A fault past the end of the file fails (SIGBUS). The
 * mapping holds a reference on @file.
 */
KM_API int km_mmap_file(struct km_mm *mm, unsigned long addr, unsigned long len, int prot,
			bool shared, struct km_file *file, unsigned long pgoff,
			unsigned long *out_addr);

/**
 * km_follow_pte() - inspect the pte for @addr without side effects (no
 * fault, no event). @flags receives KM_PTE_* bits, @page the mapped page
 * (either may be NULL). Return: 0 if a pte is present, -ENOENT if not
 * (mapped but not yet faulted, or unmapped), -EINVAL for a NULL @mm.
 */
KM_API int km_follow_pte(struct km_mm *mm, unsigned long addr, unsigned int *flags,
			 struct km_page **page);

/**
 * km_page_host() - the host bytes of @p's frame, lowmem or highmem: what
 * a harness reads or writes to inspect or prepare memory without modelling
 * an access (no kmap, no fault, no event, no report). Modelled code uses
 * km_page_address() or a kmap instead. Return: page_size bytes, or NULL for
 * a NULL @m or a page that is not @m's (km_last_error()).
 */
KM_API void *km_page_host(struct km_machine *m, const struct km_page *p);
/**
 * km_zero_page() - ZERO_PAGE(0): the shared zero page that read faults of
 * anonymous memory and holes of a file map, so that a harness can tell it
 * from a page of its own. NULL for a NULL @m.
 */
KM_API struct km_page *km_zero_page(struct km_machine *m);
/**
 * km_zero_page_check() - is the shared zero page still all zeroes? A
 * harness that may have let a variant write it (through a pin without
 * FOLL_WRITE, a kmap of ZERO_PAGE(0)) asks at once rather than at teardown
 * (km_machine_check() asks too). Return: 0 when clean; 1 and a
 * KM_R_ZERO_PAGE BUG naming the first nonzero byte otherwise; -EINVAL for
 * a NULL @m.
 */
KM_API int km_zero_page_check(struct km_machine *m);
/**
 * km_zap_page_range() - zap_page_range() (mm/memory.c, v5.7), as
 * madvise(MADV_DONTNEED) uses it: drop the ptes of [@start, @start +
 * @size) of @mm, their pages' mapcounts and references (a dirty pte
 * dirties its page); the vmas stay, and the next access faults again.
 * Return: 0, or -EINVAL for a NULL @mm or a range that wraps.
 */
KM_API int km_zap_page_range(struct km_mm *mm, unsigned long start, unsigned long size);

/**
 * km_user_access() - the task itself loads (@write false) or stores
 * (@write true) @len bytes at user address @addr, as user-mode code would:
 * faults are handled, a store to a read-only mapping or an access outside
 * any mapping stops there (SIGSEGV).
 * Return: bytes transferred (< @len when it stopped), or -EINVAL.
 */
KM_API long km_user_access(struct km_task *t, unsigned long addr, void *buf,
			   unsigned long len, bool write);

/**
 * km_mm_peek() - read @len bytes of @mm at @addr for inspection, without
 * faulting or touching anything (no pte, page-cache or event change):
 * present pages are read; a mapped page with no pte reads as a read fault
 * would map it: anonymous memory as zeros (the zero page), a file mapping
 * (shared or private) as the file's page-cache page, zeros where the file
 * has no page cached yet (a fault would add a zeroed one).
 * Return: 0, -EINVAL (NULL @mm, NULL @buf with @len), or -EFAULT if part of
 * the range is not mapped or lies past the end of a mapped file (where a
 * fault would SIGBUS); @buf then holds the bytes before it.
 */
KM_API int km_mm_peek(struct km_mm *mm, unsigned long addr, void *buf, unsigned long len);

/* ---- get_user_pages_fast (mm/gup.c, v5.7) --------------------------------- */

#define KM_FOLL_WRITE	0x01u	/* check pte is writable; break COW */
#define KM_FOLL_FORCE	0x10u	/* get_user_pages even if inaccessible (ptrace,
				 * /proc/pid/mem; gup_fast takes it from v5.6) */
#define KM_FOLL_PIN	0x40000u /* pin_user_pages*(): GUP_PIN_COUNTING_BIAS */

/**
 * km_get_user_pages_fast() - get_user_pages_fast() on @t's mm.
 * @start: user address (rounded down to a page); @nr_pages: pages wanted;
 * @gup_flags: 0, KM_FOLL_WRITE, KM_FOLL_FORCE or both; @pages: receives
 * the pages.
 *
 * Follows internal_get_user_pages_fast(): access_ok() of the range (else
 * -EFAULT); with fast_gup, the lockless walk pins present, user, non-special
 * ptes (writable ones for FOLL_WRITE) and stops at the first that is not;
 * the rest goes to the slow path (mmap_sem: may sleep), which faults pages
 * in, breaks COW for FOLL_WRITE and stops at the first page it cannot pin.
 * KM_FOLL_FORCE (check_vma_flags()): a read may pin a PROT_NONE page, a
 * write may break COW in a read-only private mapping (its pte stays
 * read-only); a write to a read-only shared mapping still fails.
 * Each pinned page gets one reference that km_put_page() drops. The mm era
 * (enum km_mm_era) applies: in KM_MM_ERA_5_8 the lockless walk takes only
 * writable ptes and the slow path breaks COW even for a read; in
 * KM_MM_ERA_4_8 KM_FOLL_FORCE is refused (v4.8's get_user_pages_fast()
 * took `int write`; FOLL_FORCE from v5.6, f4000fdf435b): a KM_R_UNEXPECTED
 * WARN and -EINVAL.
 * Return: pages pinned (possibly fewer than @nr_pages), 0 when @nr_pages is
 * 0 (or negative, or the range wraps), -EFAULT when none could be pinned
 * (or @nr_pages pages do not fit in the address space), -EINVAL for other
 * flags (KM_FOLL_PIN included: a KM_R_UNEXPECTED WARN, as v5.7's
 * WARN_ON_ONCE()).
 */
KM_API long km_get_user_pages_fast(struct km_task *t, unsigned long start, long nr_pages,
				   unsigned int gup_flags, struct km_page **pages);
/** pin_user_pages_fast() (mm/gup.c, v5.7): as km_get_user_pages_fast() with
 *  FOLL_PIN: each page gains KM_GUP_PIN_COUNTING_BIAS, dropped by
 *  km_unpin_user_page(); the mm is marked as having pinned (mm->has_pinned
 *  of v5.9, which fork then looks at). In KM_MM_ERA_4_8 there is no
 *  pin_user_pages() (v5.6): a KM_R_UNEXPECTED WARN and -EINVAL. */
KM_API long km_pin_user_pages_fast(struct km_task *t, unsigned long start, long nr_pages,
				   unsigned int gup_flags, struct km_page **pages);

/**
 * km_get_user_pages_fast_only() - __get_user_pages_fast() (mm/gup.c, v5.7;
 * renamed get_user_pages_fast_only() in v5.9): the lockless walk alone,
 * safe in atomic context. It never takes mmap_sem, never faults a page in
 * and never sleeps: it pins present, user, non-special ptes (writable ones
 * for KM_FOLL_WRITE) from @start and stops at the first that is not.
 * Without fast_gup in the machine config (!CONFIG_HAVE_FAST_GUP, the
 * BeagleBone) it pins nothing, as the kernel's does. Counts in gup_calls;
 * km_fault_gup_limit() and km_fault_after_gup() apply as to
 * km_get_user_pages_fast() (a limit of 0 pins nothing: 0). @gup_flags:
 * KM_FOLL_WRITE, KM_FOLL_FORCE (v5.9's get_user_pages_fast_only() takes
 * it; the walk ignores it: a read-only pte still stops a write) and
 * KM_FOLL_PIN (pin_user_pages_fast_only()); any other flag is a
 * KM_R_UNEXPECTED WARN and pins nothing (v5.9: internal_get_user_pages_fast()'s
 * WARN_ON_ONCE() and -EINVAL, which the function turns into 0).
 * Return: pages pinned, 0 .. @nr_pages (0 also when the range fails
 * access_ok() or wraps, or for a bad flag; the kernel function has no
 * error return), or -EINVAL for a NULL task, mm or @pages (model misuse;
 * km_last_error() says which) and, with a KM_R_UNEXPECTED WARN, for
 * KM_FOLL_PIN or KM_FOLL_FORCE in KM_MM_ERA_4_8 (v4.8's
 * __get_user_pages_fast() took `int write`).
 */
KM_API long km_get_user_pages_fast_only(struct km_task *t, unsigned long start, long nr_pages,
					unsigned int gup_flags, struct km_page **pages);

/**
 * km_access_remote_vm() - __access_remote_vm() (mm/memory.c, v5.7), what
 * ptrace's PEEK/POKE and /proc/pid/mem do: task @t reads (or, with
 * KM_FOLL_WRITE, writes) @len bytes at @addr of address space @mm (@t's
 * own or another) a page at a time: get_user_pages_remote() of one page
 * (the slow path, under @mm's mmap_sem, with FOLL_TOUCH and, in @gup_flags,
 * KM_FOLL_FORCE: a write to a read-only private mapping breaks COW and
 * lands in the private copy, a read of a PROT_NONE mapping works), then
 * kmap() (the frame's host storage) and a copy; set_page_dirty_lock()
 * after a write; put_page(). Stops at the first page gup cannot get.
 * The gup follows the machine's mm era (enum km_mm_era): in KM_MM_ERA_4_8
 * a MADV_DONTNEED between the COW fault and gup's retry (KM_IP_GUP_RETRY)
 * lets a forced write reach the page cache -- Dirty COW.
 * A harness calls it as a debugger or /proc/pid/mem writer would: to
 * reproduce a forced write (Dirty COW) or to look into another task's
 * address space through the kernel's own path.
 * Return: bytes transferred (0 .. @len), -EINVAL (NULL argument, flags
 * other than KM_FOLL_WRITE | KM_FOLL_FORCE, @mm of another machine).
 */
KM_API long km_access_remote_vm(struct km_task *t, struct km_mm *mm, unsigned long addr,
				void *buf, unsigned long len, unsigned int gup_flags);

/**
 * km_fault_after_gup() - fault injection: call @fn(@t, @arg) at the end of
 * every lockless-gup entry point that got at least one page (a return > 0),
 * i.e. between the pin and the caller's use of the pages (e.g. to run
 * writeback there): km_get_user_pages_fast() (get_user_pages_fast()),
 * km_pin_user_pages_fast() (pin_user_pages_fast(): FOLL_PIN counts the same)
 * and km_get_user_pages_fast_only() (__get_user_pages_fast(),
 * get_user_pages_fast_only(); pin_user_pages_fast_only() with
 * KM_FOLL_PIN), whether the
 * pages came from the lockless walk or its slow-path fallback -- in the
 * compatibility layer every gup and pin entry point that ends in one of
 * these. Not km_access_remote_vm() (get_user_pages_remote()), nor the pte
 * walks of the uaccess variants (pin_page_for_write()). @fn runs before
 * the point KM_IP_AFTER_PIN of kmodel/interleave.h, whose scheduler can
 * run another task there. NULL disarms; km_fault_inject_reset() disarms too.
 */
KM_API void km_fault_after_gup(struct km_machine *m,
			       void (*fn)(struct km_task *t, void *arg), void *arg);

/* ---- page-table walk and locks (include/linux/mm.h, mm/memory.c, v5.7) ---- */

/** A pte of the model: pfn << KM_PTE_PFN_SHIFT | KM_PTE_* bits. */
typedef uint64_t km_pte_t;
#define KM_PTE_PFN_SHIFT 12
/** ptes in one second-level table of the model (its "pmd" covers
 *  KM_PTRS_PER_PTE pages: 4 MiB with 4 KiB pages; ARM without LPAE covers
 *  2 MiB per pgd entry, folded pud and pmd: the model's own geometry). */
#define KM_PTRS_PER_PTE 1024

/**
 * struct km_spinlock - spinlock_t of the model. spin_lock() raises the
 * task's preempt_count (preempt_disable()) and records the owner;
 * recursion, unlock by another task and unlock of a free lock are
 * KM_R_LOCK BUGs (CONFIG_DEBUG_SPINLOCK's spin_bug()). One machine runs one
 * task at a time, so a lock held by another task is also a KM_R_LOCK BUG
 * (the kernel would spin forever there on one CPU).
 */
struct km_spinlock {
	struct km_task *owner;	/**< NULL: free */
};
/** struct km_rwsem - the mmap_sem (struct rw_semaphore, v5.7): readers. */
struct km_rwsem {
	int readers;
};
/**
 * struct km_mm_locks - the locks of an address space that ported code
 * names through the compatibility layer's struct mm_struct: mmap_sem and
 * page_table_lock. The model has no split pte locks (USE_SPLIT_PTE_PTLOCKS
 * off: pte_lockptr() is &mm->page_table_lock, v5.7). Lives as long as @mm.
 */
struct km_mm_locks {
	struct km_mm *mm;		/**< back pointer; NULL: no mm (kernel thread) */
	struct km_rwsem mmap_sem;
	struct km_spinlock page_table_lock;
};

/** The locks of @mm (NULL for a NULL @mm). */
KM_API struct km_mm_locks *km_mm_locks(struct km_mm *mm);
/** current->mm's locks for task @t; a task with no mm (a kernel thread,
 *  where the kernel would oops) is a KM_R_UNEXPECTED BUG and gets the
 *  machine's stand-in, whose mm is NULL (every walk of it finds none). */
KM_API struct km_mm_locks *km_task_mm_locks(struct km_task *t);
/**
 * km_pmd_offset() - the model's pmd entry of @addr in @mm: the slot that
 * holds the address of the second-level table covering @addr (NULL in it:
 * pmd_none(), no table yet). pgd_offset()/pud_offset()/pmd_offset() of
 * the compatibility layer fold onto it as ARM's 2-level tables do. Never
 * allocates, never NULL: for @addr at or above TASK_SIZE (or a NULL @mm)
 * it returns a slot that is always none.
 */
KM_API km_pte_t **km_pmd_offset(struct km_mm *mm, unsigned long addr);
/** spin_lock()/spin_unlock() by task @t (see struct km_spinlock). */
KM_API void km_spin_lock(struct km_task *t, struct km_spinlock *l);
KM_API void km_spin_unlock(struct km_task *t, struct km_spinlock *l);
/**
 * km_down_read() - down_read(&mm->mmap_sem) by @t: might_sleep() (a
 * KM_R_SLEEP_IN_ATOMIC BUG in atomic context), then one more reader; counts
 * the mmap_sem_locks event. km_up_read() drops a reader; with none held it
 * is a KM_R_LOCK WARN (CONFIG_DEBUG_RWSEMS) and changes nothing.
 */
KM_API void km_down_read(struct km_task *t, struct km_rwsem *sem);
KM_API void km_up_read(struct km_task *t, struct km_rwsem *sem);
/**
 * km_pte_mkold_clean() - clear KM_PTE_YOUNG and/or KM_PTE_DIRTY (@bits, no
 * others) of the present pte of @addr, as reclaim's
 * ptep_test_and_clear_young() (mm/rmap.c page_referenced_one(), v5.7)
 * leaves a pte old, and as a writable shared mapping without write-notify
 * (shmem) maps a page clean. On ARM (2-level, v5.7) young and dirty are
 * software bits: an access to an old pte, or a store to a clean one,
 * faults, and the fault handler sets them (handle_pte_fault()); the
 * model's MMU does the same. A harness ages a pte with it to reach the
 * paths an old or clean pte takes, as the pte walk of
 * pin_page_for_write() that stops there. Return: 0, -ENOENT (no present
 * pte), -EINVAL (other bits, NULL @mm).
 */
KM_API int km_pte_mkold_clean(struct km_mm *mm, unsigned long addr, unsigned int bits);

/* ---- kmap_atomic / kmap_local (include/linux/highmem.h, mm/highmem.c) ------ */

/**
 * km_kmap_atomic() - kmap_atomic(): preempt_disable(), pagefault_disable(),
 * then a lowmem page returns its direct-map address (no slot, no flush) and
 * a highmem page takes the next kmap slot and costs a TLB flush. The slot
 * stack is per CPU in the pre-5.11 era (arch/arm/mm/highmem.c, v5.7) and
 * per task with KM_KMAP_LOCAL (mm/highmem.c, v5.11). Overflow: before 5.11
 * a KM_R_KMAP_OVERFLOW BUG only with kmap_debug (CONFIG_DEBUG_HIGHMEM),
 * else the map goes over the next fixmap pte (a KM_R_KMAP_CLOBBER report);
 * with KM_KMAP_LOCAL always the BUG, at the 16th nested map (the 17th with
 * kmap_debug); also past km_fault_kmap_slots(). The address is returned
 * all the same. A page that is not @t's machine's (NULL, another
 * machine's): the kernel oopses at PageHighMem(page) with CONFIG_HIGHMEM
 * (else at the access through page_address(page); v5.11's
 * CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP maps a wild pfn) with the counts raised;
 * the model records a KM_R_BAD_PAGE BUG, raises the counts and returns its
 * bad-kmap page: one page of host memory of the machine,
 * page-aligned, zeroed at each such kmap, that takes the caller's accesses
 * (and an access up to a page before or past it: host memory on each side
 * takes it, unreported; further would crash the host), no slot; kunmap of an address in it
 * drops the counts and pops nothing. Valid until the machine is destroyed.
 * NULL only for a NULL task (or when the host cannot map that page).
 * The address: with km_machine_config.kmap_strict, the slot's own host
 * address (valid until the slot is mapped again; see enum km_kmap_strict),
 * under KM_KMAP_STRICT_FORCE_MAP for lowmem pages too; otherwise the
 * frame's host storage, so two kmaps of one page share it and neither a use
 * after kunmap nor an access past the page is caught.
 */
KM_API void *km_kmap_atomic(struct km_task *t, struct km_page *page);
/**
 * km_kunmap_atomic() - kunmap_atomic(), then pagefault_enable(),
 * preempt_enable(). Pops the top slot if @addr is a slot's (none held:
 * KM_R_KMAP_UNBALANCED). Not strict, a slot's address is one inside a
 * highmem frame and order is checked by frame; strict, by the kernel's
 * address: before 5.11 any fixmap address pops, and with kmap_debug one
 * that is not the top slot's is a KM_R_KMAP_ORDER BUG and the top pte is
 * cleared with a TLB flush; with KM_KMAP_LOCAL only addresses in the kmap
 * fixmap range pop (others are left alone; under FORCE_MAP they WARN), a
 * KM_R_KMAP_ORDER WARN if not the top's, and every unmap clears the pte and
 * flushes. Lowmem (and non-kmap) addresses take no slot.
 */
KM_API void km_kunmap_atomic(struct km_task *t, void *addr);
/** kmap_local_page()/kunmap_local() (v5.11+): the same slots without
 *  disabling preemption or pagefaults. For KM_KMAP_LOCAL machines; on a
 *  pre-5.11 machine kmap_local_page() is a KM_R_KMAP_ERA BUG (the code
 *  is of a later kernel than the machine) and then maps from the CPU's
 *  kmap_atomic() slots without touching the preempt and pagefault counts,
 *  so the caller runs on; kunmap_local() pops that slot. A NULL page or
 *  one of another machine: a KM_R_BAD_PAGE BUG and the bad-kmap page, as
 *  km_kmap_atomic() (no counts raised). NULL only for a NULL task. */
KM_API void *km_kmap_local_page(struct km_task *t, struct km_page *page);
/**
 * km_kmap() / km_kunmap() - the sleeping kmap()/kunmap() (arch/arm/mm/
 * highmem.c, mm/highmem.c kmap_high(), v5.7): might_sleep() (a
 * KM_R_SLEEP_IN_ATOMIC BUG in atomic context); a lowmem page is its
 * page_address(), a highmem one takes one of the 512 pkmap entries
 * (LAST_PKMAP) until km_kunmap() -- all held: a KM_R_KMAP_OVERFLOW BUG,
 * where kmap_high() would sleep; km_kunmap() with none held: a
 * KM_R_KMAP_UNBALANCED BUG. Entries still held at km_machine_check() are a
 * KM_R_LEAK_KMAP report. A page not of the machine: km_page_address()'s.
 */
KM_API void *km_kmap(struct km_task *t, struct km_page *page);
KM_API void km_kunmap(struct km_task *t, struct km_page *page);
KM_API void km_kunmap_local(struct km_task *t, void *addr);
/** kmap slots held on @cpu: the CPU's stack before 5.11; with
 *  KM_KMAP_LOCAL the sum over the tasks on @cpu. 0 for a bad @cpu. What a
 *  harness asserts between calls of its code, before teardown would. */
KM_API unsigned int km_kmap_slots_held(const struct km_machine *m, unsigned int cpu);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_MM_H */
