/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Physical memory (private): the frames' metadata (mem_map, struct km_page)
 * and their host backing (one host mapping of all RAM, a memfd in strict
 * kmap mode), and the scratch page a kmap of a bad page returns. The room
 * below both the page allocator (page_alloc.c) and kmap (highmem.c): each
 * uses it, neither calls the other for it. physmem.c sets it up first and
 * tears it down last (lifecycle/lifecycle.c).
 */
#ifndef KMODEL_PHYSMEM_H
#define KMODEL_PHYSMEM_H

#include "internal.h"

/* page flags */
#define KM_PG_HIGHMEM	0x01u
#define KM_PG_DIRTY	0x02u
#define KM_PG_ANON	0x04u
#define KM_PG_RESERVED	0x08u	/* boot-time pages (the zero page) */
#define KM_PG_WPINNED	0x10u	/* the pinned-write checker follows its FOLL_WRITE refs */
#define KM_PG_PIN_WRITTEN 0x20u	/* ... and it was written since the first of them */
/* a gup took a reference of this kind since the page was allocated: the
 * teardown's leak report hints at the release that matches what the
 * caller used (unpin_user_page() for FOLL_PIN, put_page() for FOLL_GET) */
#define KM_PG_GUP_PIN	0x40u
#define KM_PG_GUP_GET	0x80u

/* pinwrite.c: the pinned-write checker's hooks (gup, put/unpin, the
 * layer's memcpy()/memset()); each caller tests m->check_pinned_writes or
 * KM_PG_WPINNED first */
struct km_page;
void km_pin_write_track(struct km_machine *m, struct km_page *p);
void km_pin_write_release(struct km_machine *m, struct km_page *p);
void km_pin_write_seen(struct km_task *t, const void *to, size_t n);

struct km_page {
	uint32_t flags;
	int32_t refcount;	/* _refcount */
	int32_t mapcount;	/* page_mapcount() (the kernel stores it - 1) */
	uint32_t free_next;	/* free: the next free frame's pfn + 1 on the
				 * zone's free list (page->lru), 0 at its end;
				 * 32 bits hold it: RAM is at most 4 GiB
				 * (machine.c), so pfn + 1 <= 2^20 */
};

/* physmem.c: map RAM (m->ram .. m->ram_end, m->highmem_start; in a memfd,
 * m->ram_fd, in strict kmap mode) and allocate mem_map (m->pages); unmap
 * and free them, and the bad-kmap page */
int km_physmem_init(struct km_machine *m);
void km_physmem_fini(struct km_machine *m);
/* mmap() for host memory the model hands to kernel code as kernel
 * addresses (RAM, the strict kmap windows, the bad-kmap page): above 4 GiB
 * where the host allows, so that no user address -- all lie below
 * TASK_SIZE -- can name it too. user_ptr() (ptlock.c) tells the two kinds
 * apart by value, RAM first: a user buffer whose address fell inside RAM's
 * host range was copied into RAM instead (kmodel-bench under valgrind,
 * whose client mappings sit low). A 64-bit host maps high anyway unless the
 * program's memory sits low; MAP_FAILED as mmap() */
void *km_host_map_kernel(size_t bytes, int prot, int flags, int fd, off_t off);
/* the machine's bad-kmap page, zeroed (see kmap_bad_page()): one
 * page-aligned page between inaccessible host pages; NULL only when the
 * host has no memory for it */
void *km_bad_page_scratch(struct km_machine *m);

static inline unsigned long km_pfn(const struct km_machine *m, const struct km_page *p)
{
	return (unsigned long)(p - m->pages);
}
static inline void *km_frame(const struct km_machine *m, unsigned long pfn)
{
	return m->ram + (pfn << m->page_shift);
}
static inline bool km_page_valid(const struct km_machine *m, const struct km_page *p)
{
	return p >= m->pages && p < m->pages + m->nr_pages;
}

#endif
