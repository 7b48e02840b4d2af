// SPDX-License-Identifier: GPL-2.0
/*
 * Physical memory: the frames' host backing and mem_map (physmem.h). Frame
 * data is one host mapping (MAP_NORESERVE, above 4 GiB:
 * km_host_map_kernel()) that the host backs on first touch, so boot
 * touches no frame data; mem_map is an anonymous mapping, backed lazily by
 * the host too. In strict kmap mode the frame mapping is of a memfd, which
 * highmem.c maps again under each kmap slot's window.
 */
#define _GNU_SOURCE	/* memfd_create() */
#include "physmem.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void *km_host_map_kernel(size_t bytes, int prot, int flags, int fd, off_t off)
{
#if UINTPTR_MAX > 0xffffffffu
	/* One mapping per 4 GiB slot from 4 GiB up (RAM is at most 4 GiB):
	 * a hint is taken where its range is free. Where it is not, Linux
	 * falls back to the top-down search from mmap_base, high up
	 * (arch_get_unmapped_area_topdown(): arch/x86/kernel/sys_x86_64.c,
	 * mm/mmap.c's on most others), and the answer is kept; valgrind
	 * answers from low down, so try the next slot: the k-th mapping
	 * alive under valgrind costs k tries. Past 64 TiB (a 47-bit user
	 * half has 128) give up and map where the host likes. */
	const uintptr_t slot = (uintptr_t)1 << 32, end = (uintptr_t)1 << 46;
	const uintptr_t step = (bytes + slot - 1) & ~(slot - 1);

	for (uintptr_t hint = slot; step && hint < end; hint += step) {
		void *p = mmap((void *)hint, bytes, prot, flags, fd, off);

		if (p == MAP_FAILED || (uintptr_t)p >= slot)
			return p;
		munmap(p, bytes);
	}
#endif
	return mmap(NULL, bytes, prot, flags, fd, off);
}

/* strict kmap mode: RAM of @bytes in a memfd (m->ram_fd), mapped shared,
 * so that highmem.c maps its slot windows over the frames; MAP_FAILED (and
 * km_last_error()) on failure */
static void *strict_ram(struct km_machine *m, size_t bytes)
{
	int fd = memfd_create("kmodel-ram", MFD_CLOEXEC);
	void *p;

	if (fd < 0 || ftruncate(fd, (off_t)bytes)) {
		km_set_error("strict kmap: memfd for %zu bytes of RAM: %s", bytes, g_strerror(errno));
		if (fd >= 0)
			close(fd);
		return MAP_FAILED;
	}
	p = km_host_map_kernel(bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
	if (p == MAP_FAILED)
		close(fd);
	else
		m->ram_fd = fd;
	return p;
}

static size_t mem_map_bytes(const struct km_machine *m)
{
	return (size_t)m->nr_pages * sizeof(struct km_page);
}

int km_physmem_init(struct km_machine *m)
{
	size_t bytes = (size_t)m->nr_pages << m->page_shift;

	if (m->cfg.kmap_strict)		/* kmap slots alias frames: RAM in a memfd */
		m->ram = strict_ram(m, bytes);
	else
		m->ram = km_host_map_kernel(bytes, PROT_READ | PROT_WRITE,
					    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m->ram == MAP_FAILED) {
		m->ram = NULL;
		return km_err(-ENOMEM, "cannot reserve %zu bytes of host address space", bytes);
	}
	m->highmem_start = m->ram + ((size_t)m->nr_lowmem << m->page_shift);
	m->ram_end = m->ram + bytes;
	/* mem_map: zero pages of the host's, backed as they are touched. Not
	 * calloc(): once a machine's mem_map is freed, glibc raises its mmap
	 * threshold past the size, and the next machine's comes from the
	 * heap, cleared by a memset() of all of it */
	m->pages = mmap(NULL, mem_map_bytes(m), PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m->pages == MAP_FAILED) {
		m->pages = NULL;
		return km_err(-ENOMEM, "cannot allocate mem_map for %lu pages", m->nr_pages);
	}
	return 0;
}

/* the bad-kmap page's host mapping, in machine pages: the page, a page
 * on each side and the slack of aligning it */
#define BAD_KMAP_PAGES 4

void *km_bad_page_scratch(struct km_machine *m)
{
	size_t P = m->page_size;

	if (!m->bad_kmap) {
		/* BAD_KMAP_PAGES pages: a page-aligned one with at least a
		 * page on each side (the host's pages may be smaller than
		 * the machine's, so the mapping need not be aligned to P) */
		unsigned char *map = km_host_map_kernel(BAD_KMAP_PAGES * P, PROT_READ | PROT_WRITE,
							MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
							-1, 0);

		if (map == MAP_FAILED)
			return NULL;
		m->bad_kmap_map = map;
		m->bad_kmap = (unsigned char *)(((uintptr_t)map + 2 * P - 1) & ~(uintptr_t)(P - 1));
	}
	memset(m->bad_kmap, 0, P);
	return m->bad_kmap;
}

void km_physmem_fini(struct km_machine *m)
{
	if (m->ram)
		munmap(m->ram, (size_t)m->nr_pages << m->page_shift);
	if (m->ram_fd >= 0)
		close(m->ram_fd);
	m->ram_fd = -1;
	if (m->pages)
		munmap(m->pages, mem_map_bytes(m));
	m->ram = m->highmem_start = m->ram_end = NULL;
	m->pages = NULL;
	if (m->bad_kmap_map)
		munmap(m->bad_kmap_map, BAD_KMAP_PAGES * m->page_size);
	m->bad_kmap = m->bad_kmap_map = NULL;
}

void *km_page_host(struct km_machine *m, const struct km_page *p)
{
	if (!m || !km_page_valid(m, p)) {
		km_set_error("km_page_host: %s", m ? "not a page of this machine" : "machine is NULL");
		return NULL;
	}
	return km_frame(m, km_pfn(m, p));
}

uint64_t km_ram_resident_bytes(const struct km_machine *m)
{
	size_t host_page = (size_t)sysconf(_SC_PAGESIZE);
	size_t bytes, n;
	unsigned char *vec;
	uint64_t resident = 0;

	if (!m)
		return 0;
	bytes = (size_t)m->nr_pages << m->page_shift;
	n = bytes / host_page;
	vec = g_malloc(n);

	if (mincore(m->ram, bytes, vec) == 0)
		for (size_t i = 0; i < n; i++)
			resident += vec[i] & 1;
	g_free(vec);
	return resident * host_page;
}
