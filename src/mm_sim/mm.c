// SPDX-License-Identifier: GPL-2.0
/*
 * Address spaces: VMAs (a GTree keyed by start), a two-level page table
 * with O(1) lookup per page, demand-zero faults and COW breaking, modelled
 * on mm/mmap.c and mm/memory.c (v5.7): a read fault of an anonymous page
 * maps the shared zero page read-only (do_anonymous_page), a write fault
 * allocates a zeroed page preferring highmem (GFP_HIGHUSER_MOVABLE), and a
 * write to a present read-only pte of a writable mapping is do_wp_page():
 * reuse an anonymous page whose page_mapcount() is 1 (reuse_swap_page(),
 * v5.7; in the 5.9 mm era also page_count() 1, 09854ba94c6a), else copy.
 * handle_mm_fault() checks no permission (gup's FOLL_FORCE faults a
 * read-only vma for write: maybe_mkwrite() then leaves the pte dirty but
 * read-only); the arch's access_error() is km_handle_mm_fault()'s. A
 * PROT_NONE vma maps ptes that are not user-accessible. Files have dirty accounting (vma_wants_writenotify(), as
 * on ext4): a shared mapping maps pages read-only until a write fault marks
 * the pte writable and dirty and calls set_page_dirty() (wp_page_shared());
 * writeback (clear_page_dirty_for_io(), page_mkclean()) cleans and
 * write-protects them again and keeps a copy of each page it writes (what
 * km_file_read_disk() shows). fork() copies private ptes write-protected
 * (copy_one_pte(); in the 5.9 era a pinned page of an mm that has pinned
 * is copied at once, copy_present_page() of 70e806e4e645) and leaves
 * shared file ranges to fault in again. madvise(MADV_DONTNEED) zaps.
 * Simplifications: mmap_sem is a reader count (munmap, mprotect and fork
 * wait for readers; faults do not take it), no VMA merging, no swap, no
 * THP, no anon rmap (a file's i_mmap lists its vmas, which page_mkclean()
 * visits), fork copies the ptes of private file vmas without anon_vma too
 * (v5.7 leaves those to fault in again). Free areas: gaps.c; walks over
 * ptes skip page tables never allocated (km_next_pte_addr()).
 */
#include "mm_internal.h"
#include <string.h>

static gint vma_key_cmp(gconstpointer a, gconstpointer b, gpointer unused)
{
	unsigned long x = GPOINTER_TO_SIZE(a), y = GPOINTER_TO_SIZE(b);

	return x < y ? -1 : x > y;
}

int km_zap_page_range(struct km_mm *mm, unsigned long start, unsigned long size)
{
	if (!mm || start + size < start)
		return km_err(-EINVAL, "km_zap_page_range: %s", mm ? "range wraps" : "mm is NULL");
	km_zap_range(mm, start, start + size);
	return 0;
}

static void vma_free(gpointer data);

int km_mm_new(struct km_machine *m, struct km_mm **out)
{
	struct km_mm *mm;
	unsigned long span;

	if (!m || !out)
		return km_err(-EINVAL, "km_mm_new: machine or out is NULL");
	span = 1UL << (m->page_shift + KM_PTRS_BITS);
	mm = g_new0(struct km_mm, 1);
	mm->m = m;
	mm->users = 1;
	mm->vmas = g_tree_new_full(vma_key_cmp, NULL, NULL, vma_free);
	mm->pgd_entries = (m->task_size + span - 1) / span;
	mm->pgd = g_new0(km_pte_t *, mm->pgd_entries);
	km_gaps_init(&mm->gaps, 0, m->task_size);
	/* TASK_UNMAPPED_BASE: PAGE_ALIGN(TASK_SIZE / 3) (arch/arm) */
	mm->mmap_base = (m->task_size / 3 + m->page_size - 1) & ~(m->page_size - 1);
	mm->locks.mm = mm;
	g_hash_table_add(m->mms, mm);
	*out = mm;
	return 0;
}

void km_mm_get(struct km_mm *mm)
{
	if (mm)
		mm->users++;
}

/* the slow half of km_pte_lookup(addr, alloc = true): a new second-level
 * table (pte_alloc()) */
km_pte_t *km_pte_alloc(struct km_mm *mm, unsigned long addr)
{
	unsigned long vpn = addr >> mm->m->page_shift;
	km_pte_t *pt;

	if (addr >= mm->m->task_size)	/* no page table above TASK_SIZE */
		return NULL;
	pt = mm->pgd[vpn >> KM_PTRS_BITS];

	if (!pt)
		pt = mm->pgd[vpn >> KM_PTRS_BITS] = g_new0(km_pte_t, 1UL << KM_PTRS_BITS);
	return &pt[vpn & ((1UL << KM_PTRS_BITS) - 1)];
}

/* the slow half of km_find_vma(): the vma tree */
struct km_vma *km_find_vma_tree(struct km_mm *mm, unsigned long addr)
{
	struct km_vma *v;
	GTreeNode *n;

	/* the last vma starting at or below addr, if it contains addr */
	n = g_tree_upper_bound(mm->vmas, GSIZE_TO_POINTER(addr));
	n = n ? g_tree_node_previous(n) : g_tree_node_last(mm->vmas);
	if (!n)
		return NULL;
	v = g_tree_node_value(n);
	if (addr < v->start || addr >= v->end)
		return NULL;
	mm->vma_cache = v;
	return v;
}

/* Drop the ptes of [start, end): zap_pte_range() */
void km_zap_range(struct km_mm *mm, unsigned long start, unsigned long end)
{
	struct km_machine *m = mm->m;
	km_pte_t *pte;

	for (unsigned long a = start; a < end; a = km_next_pte_addr(m, a, pte)) {
		struct km_page *p;

		pte = km_pte_lookup(mm, a, false);

		if (!pte || !(*pte & KM_PTE_PRESENT))
			continue;
		p = &m->pages[*pte >> KM_PTE_PFN_SHIFT];
		if (!(*pte & KM_PTE_SPECIAL)) {
			if (*pte & KM_PTE_DIRTY)
				p->flags |= KM_PG_DIRTY;	/* set_page_dirty() */
			p->mapcount--;
			km_put_page(m, p);
		}
		*pte = 0;
	}
}

static void vma_free(gpointer data)
{
	struct km_vma *v = data;

	if (v->file)
		g_hash_table_remove(v->file->i_mmap, v);	/* vma_unlink_file() */
	km_file_put(v->file);
	g_free(v);
}

/* a file vma joins its file's i_mmap (vma_link_file()) */
static void vma_link_file(struct km_vma *v)
{
	if (v->file) {
		v->file->refs++;
		g_hash_table_add(v->file->i_mmap, v);
	}
}

/* a copy of @v in @mm (a split keeps the mm, fork gives the child's) */
static struct km_vma *vma_dup(const struct km_vma *v, struct km_mm *mm)
{
	struct km_vma *n = g_memdup2(v, sizeof(*v));

	n->mm = mm;
	vma_link_file(n);
	return n;
}

static void mm_free(struct km_mm *mm)
{
	if (mm->locks.mmap_sem.readers || mm->locks.page_table_lock.owner)
		km_report(mm->m, KM_BUG, KM_R_LEAK_MM,
			  "address space freed with mmap_sem readers %d, page_table_lock %s",
			  mm->locks.mmap_sem.readers,
			  mm->locks.page_table_lock.owner ? "held" : "free");
	for (GTreeNode *n = g_tree_node_first(mm->vmas); n; n = g_tree_node_next(n)) {
		struct km_vma *v = g_tree_node_value(n);

		km_zap_range(mm, v->start, v->end);
	}
	g_tree_destroy(mm->vmas);
	km_gaps_fini(&mm->gaps);
	for (unsigned long i = 0; i < mm->pgd_entries; i++)
		g_free(mm->pgd[i]);
	g_free(mm->pgd);
	g_hash_table_remove(mm->m->mms, mm);
	g_free(mm);
}

void km_mm_put(struct km_mm *mm)
{
	if (mm && --mm->users == 0)
		mm_free(mm);
}

int km_mm_init(struct km_machine *m)
{
	m->mms = g_hash_table_new(NULL, NULL);
	m->files = g_hash_table_new(NULL, NULL);
	return 0;
}

/* Teardown of leaked objects: drop each one's last reference. */
static void force_mm_put(gpointer p)
{
	struct km_mm *mm = p;

	mm->users = 1;
	km_mm_put(mm);
}

static void force_file_put(gpointer p)
{
	struct km_file *f = p;

	f->refs = 1;
	km_file_put(f);
}

/* address spaces, then files (an mm's file vmas hold file references) */
void km_mm_fini(struct km_machine *m)
{
	if (!m->mms)
		return;
	km_release_all(m->mms, force_mm_put);
	km_release_all(m->files, force_file_put);
	g_hash_table_destroy(m->mms);
	g_hash_table_destroy(m->files);
	m->mms = m->files = NULL;
}

int km_mm_check(struct km_machine *m)
{
	GHashTableIter it;
	gpointer key;
	int n = 0;

	g_hash_table_iter_init(&it, m->mms);
	while (g_hash_table_iter_next(&it, &key, NULL)) {
		km_report(m, KM_BUG, KM_R_LEAK_MM, "address space not released (users %d)",
			  ((struct km_mm *)key)->users);
		n++;
	}
	g_hash_table_iter_init(&it, m->files);
	while (g_hash_table_iter_next(&it, &key, NULL)) {
		km_report(m, KM_BUG, KM_R_LEAK_MM, "file not released (refs %d)",
			  ((struct km_file *)key)->refs);
		n++;
	}
	return n;
}

static bool overlaps(struct km_mm *mm, unsigned long start, unsigned long end)
{
	GTreeNode *n = g_tree_lower_bound(mm->vmas, GSIZE_TO_POINTER(start));

	if (n && ((struct km_vma *)g_tree_node_value(n))->start < end)
		return true;
	return km_find_vma(mm, start) != NULL;
}

static int check_range(struct km_mm *mm, const char *fn, unsigned long addr,
		       unsigned long len)
{
	struct km_machine *m = mm->m;

	if ((addr & (m->page_size - 1)) || len == 0 || len > m->task_size ||
	    addr > m->task_size - len)
		return km_err(-EINVAL, "%s: bad range [0x%lx, +%lu)", fn, addr, len);
	return 0;
}

static int mmap_region(struct km_mm *mm, unsigned long addr, unsigned long len, int prot,
		       unsigned int vm_flags, struct km_file *file, unsigned long pgoff,
		       unsigned long *out_addr)
{
	struct km_machine *m = mm->m;
	struct km_vma *v;

	if (len == 0 || len > m->task_size)
		return km_err(-EINVAL, "km_mmap: len %lu is 0 or larger than TASK_SIZE", len);
	if (!(prot & KM_PROT_READ) || (prot & ~(KM_PROT_READ | KM_PROT_WRITE)))
		return km_err(-EINVAL, "km_mmap: prot 0x%x: must be READ or READ|WRITE", prot);
	len = (len + m->page_size - 1) & ~(m->page_size - 1);
	if (addr) {
		if (addr & (m->page_size - 1))
			return km_err(-EINVAL, "km_mmap: addr 0x%lx is not page aligned", addr);
		if (addr > m->task_size - len)
			return km_err(-EINVAL, "km_mmap: [0x%lx, +%lu) is not below TASK_SIZE", addr,
				      len);
		if (overlaps(mm, addr, addr + len))
			return km_err(-EEXIST, "km_mmap: [0x%lx, +%lu) overlaps a mapping", addr,
				      len);
	} else {
		/* unmapped_area() (mm/mmap.c, legacy bottom-up): the lowest gap
		 * from TASK_UNMAPPED_BASE, then from mmap_min_addr (gaps.c) */
		addr = km_gaps_first_fit(&mm->gaps, mm->mmap_base, m->task_size, len);
		if (!addr)
			addr = km_gaps_first_fit(&mm->gaps, km_mmap_min_addr(m), m->task_size, len);
		if (!addr)
			return km_err(-ENOMEM, "km_mmap: no gap of %lu bytes", len);
	}
	v = g_new0(struct km_vma, 1);
	v->start = addr;
	v->end = addr + len;
	v->vm_flags = vm_flags | KM_VM_READ | ((prot & KM_PROT_WRITE) ? KM_VM_WRITE : 0);
	v->file = file;
	v->pgoff = pgoff;
	v->mm = mm;
	vma_link_file(v);
	g_tree_insert(mm->vmas, GSIZE_TO_POINTER(v->start), v);
	km_gaps_take(&mm->gaps, v->start, v->end);
	*out_addr = addr;
	return 0;
}

int km_mmap(struct km_mm *mm, unsigned long addr, unsigned long len, int prot,
	    unsigned long *out_addr)
{
	if (!mm || !out_addr)
		return km_err(-EINVAL, "km_mmap: mm or out_addr is NULL");
	return mmap_region(mm, addr, len, prot, 0, NULL, 0, out_addr);
}

int km_mmap_file(struct km_mm *mm, unsigned long addr, unsigned long len, int prot,
		 bool shared, struct km_file *file, unsigned long pgoff, unsigned long *out_addr)
{
	if (!mm || !out_addr || !file)
		return km_err(-EINVAL, "km_mmap_file: mm, file or out_addr is NULL");
	if (file->m != mm->m)
		return km_err(-EINVAL, "km_mmap_file: file belongs to another machine");
	/* do_mmap(): the file range's last page must not wrap (v5.7) */
	if (len <= mm->m->task_size &&
	    pgoff + ((len + mm->m->page_size - 1) >> mm->m->page_shift) < pgoff)
		return km_err(-EOVERFLOW, "km_mmap_file: pgoff %lu + %lu bytes wraps", pgoff, len);
	return mmap_region(mm, addr, len, prot, shared ? KM_VM_SHARED : 0, file, pgoff,
			   out_addr);
}

/* split_vma() at @start and @end: afterwards no vma straddles either;
 * returns the vmas inside [start, end) (owned by the tree) */
static GPtrArray *vma_isolate(struct km_mm *mm, unsigned long start, unsigned long end)
{
	GPtrArray *hit = g_ptr_array_new(), *in = g_ptr_array_new();
	unsigned int shift = mm->m->page_shift;

	mm->vma_cache = NULL;		/* vmacache_invalidate() */
	for (GTreeNode *n = g_tree_node_first(mm->vmas); n; n = g_tree_node_next(n)) {
		struct km_vma *v = g_tree_node_value(n);

		if (v->start < end && v->end > start)
			g_ptr_array_add(hit, v);
	}
	for (guint i = 0; i < hit->len; i++) {
		struct km_vma *v = g_ptr_array_index(hit, i);

		if (v->start < start) {		/* split off the head */
			struct km_vma *t = vma_dup(v, mm);

			g_tree_steal(mm->vmas, GSIZE_TO_POINTER(v->start));
			v->end = start;
			g_tree_insert(mm->vmas, GSIZE_TO_POINTER(v->start), v);
			t->pgoff += (start - t->start) >> shift;
			t->start = start;
			g_tree_insert(mm->vmas, GSIZE_TO_POINTER(t->start), t);
			v = t;
		}
		if (v->end > end) {		/* split off the tail */
			struct km_vma *t = vma_dup(v, mm);

			t->pgoff += (end - t->start) >> shift;
			t->start = end;
			v->end = end;
			g_tree_insert(mm->vmas, GSIZE_TO_POINTER(t->start), t);
		}
		g_ptr_array_add(in, v);
	}
	g_ptr_array_free(hit, TRUE);
	return in;
}

int km_munmap(struct km_mm *mm, unsigned long addr, unsigned long len)
{
	GPtrArray *in;
	int err;

	if (!mm)
		return km_err(-EINVAL, "km_munmap: mm is NULL");
	if ((err = check_range(mm, "km_munmap", addr, len)))
		return err;
	len = (len + mm->m->page_size - 1) & ~(mm->m->page_size - 1);
	km_mmap_write_lock(mm, "munmap");
	in = vma_isolate(mm, addr, addr + len);
	/* __do_munmap() (v5.7): detach_vmas_to_be_unmapped(), downgrade_write(),
	 * then unmap_region() zaps the ptes and the vmas are freed */
	for (guint i = 0; i < in->len; i++)
		g_tree_steal(mm->vmas, GSIZE_TO_POINTER(((struct km_vma *)g_ptr_array_index(in, i))->start));
	mm->vma_cache = NULL;
	mm->locks.mmap_sem.readers++;
	km_ipoint(mm->m, km_current_task, KM_IP_MUNMAP, addr);
	for (guint i = 0; i < in->len; i++) {
		struct km_vma *v = g_ptr_array_index(in, i);

		km_zap_range(mm, v->start, v->end);
		km_gaps_give(&mm->gaps, v->start, v->end);
		vma_free(v);
	}
	mm->locks.mmap_sem.readers--;		/* up_read() */
	g_ptr_array_free(in, TRUE);
	return 0;
}

/* madvise(MADV_DONTNEED) (mm/madvise.c, v5.7): madvise_dontneed_free() ->
 * zap_page_range() of each vma's part of the range, under mmap_sem for
 * read; a hole in the range makes the result -ENOMEM, the rest is zapped */
int km_madvise(struct km_mm *mm, unsigned long addr, unsigned long len, int advice)
{
	unsigned long end, a;
	int err = 0;

	if (!mm)
		return km_err(-EINVAL, "km_madvise: mm is NULL");
	if (advice != KM_MADV_DONTNEED)
		return km_err(-EINVAL, "km_madvise: advice %d (only MADV_DONTNEED is modelled)",
			      advice);
	if (addr & (mm->m->page_size - 1))
		return km_err(-EINVAL, "km_madvise: addr 0x%lx is not page aligned", addr);
	if (len == 0)
		return 0;
	if (check_range(mm, "km_madvise", addr, len))
		return -EINVAL;
	end = addr + ((len + mm->m->page_size - 1) & ~(mm->m->page_size - 1));
	mm->locks.mmap_sem.readers++;		/* down_read() */
	for (a = addr; a < end;) {
		struct km_vma *v = km_find_vma(mm, a);

		if (!v) {	/* a hole: on to the next vma, if any */
			GTreeNode *n = g_tree_upper_bound(mm->vmas, GSIZE_TO_POINTER(a));

			err = km_err(-ENOMEM, "km_madvise: 0x%lx is not mapped", a);
			if (!n)
				break;
			a = ((struct km_vma *)g_tree_node_value(n))->start;
			continue;
		}
		km_zap_range(mm, a, MIN(end, v->end));
		a = v->end;
	}
	mm->locks.mmap_sem.readers--;		/* up_read() */
	return err;
}

int km_mprotect(struct km_mm *mm, unsigned long addr, unsigned long len, int prot)
{
	GPtrArray *in;
	unsigned long end;
	int err;

	if (!mm)
		return km_err(-EINVAL, "km_mprotect: mm is NULL");
	if ((err = check_range(mm, "km_mprotect", addr, len)))
		return err;
	if ((prot & ~(KM_PROT_READ | KM_PROT_WRITE)) || prot == KM_PROT_WRITE)
		return km_err(-EINVAL, "km_mprotect: prot 0x%x: must be NONE, READ or READ|WRITE",
			      prot);
	end = addr + ((len + mm->m->page_size - 1) & ~(mm->m->page_size - 1));
	km_mmap_write_lock(mm, "mprotect");
	/* the whole range must be mapped (else -ENOMEM, as mprotect(2)) */
	for (unsigned long a = addr; a < end;) {
		struct km_vma *v = km_find_vma(mm, a);

		if (!v)
			return km_err(-ENOMEM, "km_mprotect: 0x%lx is not mapped", a);
		a = v->end;
	}
	in = vma_isolate(mm, addr, end);
	for (guint i = 0; i < in->len; i++) {
		struct km_vma *v = g_ptr_array_index(in, i);

		v->vm_flags = (v->vm_flags & ~(KM_VM_READ | KM_VM_WRITE)) |
			      ((prot & KM_PROT_READ) ? KM_VM_READ : 0) |
			      ((prot & KM_PROT_WRITE) ? KM_VM_WRITE : 0);
		/* change_pte_range(): the new vm_page_prot on each present pte:
		 * user-accessible unless PROT_NONE; write access is only ever
		 * taken away here (ptes gain it on the next write fault) */
		km_pte_t *pte;

		for (unsigned long a = v->start; a < v->end; a = km_next_pte_addr(mm->m, a, pte)) {
			pte = km_pte_lookup(mm, a, false);
			if (!pte || !(*pte & KM_PTE_PRESENT))
				continue;
			if (!(prot & KM_PROT_WRITE))
				*pte &= ~(km_pte_t)KM_PTE_WRITE;
			if (prot & KM_PROT_READ)
				*pte |= KM_PTE_USER;
			else
				*pte &= ~(km_pte_t)KM_PTE_USER;
		}
	}
	g_ptr_array_free(in, TRUE);
	return 0;
}

static unsigned int vma_prot(const struct km_vma *v);
static unsigned int mkdirty_maybe_write(const struct km_vma *v);
static int map_private_copy(struct km_machine *m, km_pte_t *pte, struct km_page *src,
			    struct km_page *old, unsigned int bits);

/* copy_present_page() of 70e806e4e645 (v5.9-rc7): in a COW mapping (every
 * private one here), a page that may be DMA-pinned -- page_maybe_dma_pinned():
 * page_count() >= GUP_PIN_COUNTING_BIAS -- of an mm that has ever pinned is
 * copied to the child right away. Like the original, it does not ask
 * PageAnon() (a later stable fix did): a pinned page-cache page of a
 * private file mapping is copied too. */
static bool fork_copies_pinned(const struct km_mm *parent, const struct km_page *p)
{
	return km_mm_era(parent->m) >= 509 && parent->has_pinned &&
	       (unsigned int)p->refcount >= KM_GUP_PIN_COUNTING_BIAS;
}

int km_mm_fork(struct km_mm *parent, struct km_mm **out)
{
	struct km_machine *m;
	struct km_mm *child;
	int err;

	if (!parent || !out)
		return km_err(-EINVAL, "km_mm_fork: parent or out is NULL");
	m = parent->m;
	km_mmap_write_lock(parent, "fork");	/* dup_mmap() */
	if ((err = km_mm_new(m, &child)))
		return err;
	for (GTreeNode *n = g_tree_node_first(parent->vmas); n; n = g_tree_node_next(n)) {
		struct km_vma *v = g_tree_node_value(n), *c = vma_dup(v, child);

		g_tree_insert(child->vmas, GSIZE_TO_POINTER(c->start), c);
		km_gaps_take(&child->gaps, c->start, c->end);
		if (v->vm_flags & KM_VM_SHARED)
			continue;	/* copy_page_range(): shared ranges fault in again */
		km_pte_t *pte;

		for (unsigned long a = v->start; a < v->end; a = km_next_pte_addr(m, a, pte)) {
			pte = km_pte_lookup(parent, a, false);
			if (!pte || !(*pte & KM_PTE_PRESENT))
				continue;
			if (!(*pte & KM_PTE_SPECIAL) &&
			    fork_copies_pinned(parent, &m->pages[*pte >> KM_PTE_PFN_SHIFT])) {
				if ((err = map_private_copy(m, km_pte_lookup(child, a, true),
							    &m->pages[*pte >> KM_PTE_PFN_SHIFT], NULL,
							    vma_prot(v) | mkdirty_maybe_write(v)))) {
					km_mm_put(child);
					return err;
				}
				continue;	/* the parent's pte stays as it was */
			}
			/* copy_one_pte(): COW: write-protect both */
			*pte &= ~(km_pte_t)KM_PTE_WRITE;
			*km_pte_lookup(child, a, true) = *pte;
			if (!(*pte & KM_PTE_SPECIAL)) {
				struct km_page *p = &m->pages[*pte >> KM_PTE_PFN_SHIFT];

				p->refcount++;
				p->mapcount++;
			}
		}
	}
	*out = child;
	return 0;
}

static km_pte_t mk_pte(unsigned long pfn, unsigned int bits)
{
	return ((km_pte_t)pfn << KM_PTE_PFN_SHIFT) | bits;
}

/* vma->vm_page_prot: present and young (ARM's PAGE_* protections carry
 * L_PTE_YOUNG), user-accessible unless PROT_NONE; never writable (a
 * private mapping's is COW, a shared one's write-notify) */
static unsigned int vma_prot(const struct km_vma *v)
{
	return KM_PTE_PRESENT | KM_PTE_YOUNG | ((v->vm_flags & KM_VM_READ) ? KM_PTE_USER : 0);
}

/* maybe_mkwrite(pte_mkdirty(pte), vma): writable only if the vma is */
static unsigned int mkdirty_maybe_write(const struct km_vma *v)
{
	return KM_PTE_DIRTY | ((v->vm_flags & KM_VM_WRITE) ? KM_PTE_WRITE : 0);
}

/* wp_page_copy()/do_anonymous_page()/do_cow_fault(): map a private copy
 * of @src (zeroed when NULL) with pte @bits; drop @old's mapping when it
 * was mapped */
static int map_private_copy(struct km_machine *m, km_pte_t *pte, struct km_page *src,
			    struct km_page *old, unsigned int bits)
{
	struct km_page *p = km_alloc_page(m, KM_GFP_HIGHMEM | (src ? 0 : KM_GFP_ZERO));

	if (!p)
		return -ENOMEM;
	if (src) {
		memcpy(km_frame(m, km_pfn(m, p)), km_frame(m, km_pfn(m, src)), m->page_size);
		KM_EV_MEMCPY(m, m->page_size);
		KM_EV_INC(m, memcpy_calls);
	}
	if (old) {
		old->mapcount--;
		km_put_page(m, old);
	}
	p->flags |= KM_PG_ANON;
	p->mapcount = 1;
	*pte = mk_pte(km_pfn(m, p), bits);
	return 0;
}

/* find_get_page() or add a zeroed page to the cache (shmem_getpage) */
static struct km_page *file_page(struct km_file *f, unsigned long index)
{
	struct km_page *p;

	KM_EV_INC(f->m, pagecache_lookups);
	if (index >= f->nr_pages)
		return NULL;
	if (index >= f->cache->len)
		g_ptr_array_set_size(f->cache, (guint)index + 1);
	p = g_ptr_array_index(f->cache, index);
	if (!p) {
		p = km_alloc_page(f->m, KM_GFP_HIGHMEM | KM_GFP_ZERO);
		g_ptr_array_index(f->cache, index) = p;
		KM_EV_ADD(f->m, pagecache_allocs, p != NULL);
	}
	return p;
}

/* __do_fault() and its three ends: do_read_fault(), do_cow_fault() (whose
 * alloc_set_pte() makes the copy's pte dirty, writable only if the vma is;
 * no VM_FAULT_WRITE), do_shared_fault() */
static int file_fault(struct km_machine *m, struct km_vma *vma, km_pte_t *pte,
		      unsigned long addr, bool write)
{
	struct km_page *p = file_page(vma->file, vma->pgoff + ((addr - vma->start) >> m->page_shift));

	if (!p)
		return -EFAULT;		/* beyond the file (SIGBUS) or no memory */
	if (write && !(vma->vm_flags & KM_VM_SHARED))
		return map_private_copy(m, pte, p, NULL, vma_prot(vma) | mkdirty_maybe_write(vma));
	p->refcount++;
	p->mapcount++;
	if (write) {			/* do_shared_fault(): fault_dirty_shared_page() */
		p->flags |= KM_PG_DIRTY;
		*pte = mk_pte(km_pfn(m, p), vma_prot(vma) | mkdirty_maybe_write(vma));
	} else {			/* do_read_fault(): write-notify keeps it read-only */
		*pte = mk_pte(km_pfn(m, p), vma_prot(vma));
	}
	return 0;
}

/*
 * do_wp_page(): a write fault on a present pte that is not writable. The
 * zero page (no vm_normal_page()) is copied; an anonymous page is reused
 * when it is the only user -- v5.7 (and before): reuse_swap_page(), its
 * page_mapcount() (no swap) is 1; v5.9 (09854ba94c6a): page_count() is 1
 * and page_mapcount() is 1, so a page with a gup reference is copied; a
 * writable shared mapping's page is dirtied in place (wp_page_shared());
 * anything else is copied (wp_page_copy()). Every way returns
 * VM_FAULT_WRITE.
 */
static int do_wp_page(struct km_machine *m, struct km_vma *vma, km_pte_t *pte, unsigned int *vmf)
{
	struct km_page *p;
	bool reuse;

	*vmf |= KM_VM_FAULT_WRITE;
	if (*pte & KM_PTE_SPECIAL) {
		KM_EV_INC(m, cow_breaks);
		return map_private_copy(m, pte, NULL, NULL, vma_prot(vma) | mkdirty_maybe_write(vma));
	}
	p = &m->pages[*pte >> KM_PTE_PFN_SHIFT];
	if (p->flags & KM_PG_ANON) {
		reuse = km_mm_era(m) >= 509 ? p->refcount == 1 && p->mapcount == 1
					    : p->mapcount == 1;
		if (reuse) {	/* wp_page_reuse() */
			*pte |= KM_PTE_YOUNG | mkdirty_maybe_write(vma);
			return 0;
		}
	} else if ((vma->vm_flags & (KM_VM_WRITE | KM_VM_SHARED)) == (KM_VM_WRITE | KM_VM_SHARED)) {
		p->flags |= KM_PG_DIRTY;	/* wp_page_shared() */
		*pte |= KM_PTE_YOUNG | KM_PTE_DIRTY | KM_PTE_WRITE;
		return 0;
	}
	KM_EV_INC(m, cow_breaks);
	return map_private_copy(m, pte, p, p, vma_prot(vma) | mkdirty_maybe_write(vma));
}

/* handle_mm_fault() -> handle_pte_fault() (mm/memory.c, v5.7) */
static int handle_mm_fault(struct km_mm *mm, struct km_vma *vma, unsigned long addr, bool write,
			   unsigned int *vmf)
{
	struct km_machine *m = mm->m;
	km_pte_t *pte;

	KM_EV_INC(m, page_faults);
	pte = km_pte_lookup(mm, addr, true);
	if (!pte)
		return -EFAULT;
	if (!(*pte & KM_PTE_PRESENT)) {
		if (vma->file)
			return file_fault(m, vma, pte, addr, write);
		if (!write) {		/* do_anonymous_page(): the zero page */
			*pte = mk_pte(km_pfn(m, m->zero_page), vma_prot(vma) | KM_PTE_SPECIAL);
			return 0;
		}
		/* do_anonymous_page(): pte_mkwrite(pte_mkdirty()) only if VM_WRITE */
		return map_private_copy(m, pte, NULL, NULL, vma_prot(vma) |
					((vma->vm_flags & KM_VM_WRITE) ? KM_PTE_DIRTY | KM_PTE_WRITE : 0));
	}
	if (write && !(*pte & KM_PTE_WRITE))
		return do_wp_page(m, vma, pte, vmf);
	*pte |= KM_PTE_YOUNG | (write ? KM_PTE_DIRTY : 0);
	return 0;
}

int km_fault_page(struct km_task *t, struct km_mm *mm, struct km_vma *vma, unsigned long addr,
		  bool write, unsigned int *vmf)
{
	int ret;

	*vmf = 0;
	ret = handle_mm_fault(mm, vma, addr, write, vmf);
	if (!ret)
		km_ipoint(mm->m, t, KM_IP_AFTER_FAULT, addr);
	return ret;
}

int km_handle_mm_fault(struct km_task *t, struct km_vma *vma, unsigned long addr, bool write)
{
	unsigned int vmf;

	/* access_error() (arch/arm/mm/fault.c): bad_area, SIGSEGV */
	if (write ? !(vma->vm_flags & KM_VM_WRITE) : !(vma->vm_flags & KM_VM_READ)) {
		KM_EV_INC(t->m, page_faults);
		return -EFAULT;
	}
	return km_fault_page(t, t->mm, vma, addr, write, &vmf);
}

/* ---- files ---------------------------------------------------------------- */

int km_file_new(struct km_machine *m, uint64_t size, struct km_file **out)
{
	struct km_file *f;

	if (!m || !out)
		return km_err(-EINVAL, "km_file_new: machine or out is NULL");
	if (size == 0 || size > (uint64_t)m->task_size)
		return km_err(-EINVAL, "km_file_new: size %llu is 0 or above TASK_SIZE",
			      (unsigned long long)size);
	f = g_new0(struct km_file, 1);
	f->m = m;
	f->refs = 1;
	f->nr_pages = (unsigned long)((size + m->page_size - 1) >> m->page_shift);
	f->cache = g_ptr_array_new();
	f->i_mmap = g_hash_table_new(NULL, NULL);
	g_hash_table_add(m->files, f);
	*out = f;
	return 0;
}

void km_file_put(struct km_file *f)
{
	if (!f || --f->refs > 0)
		return;
	for (guint i = 0; i < f->cache->len; i++)	/* truncate_inode_pages() */
		if (g_ptr_array_index(f->cache, i))
			km_put_page(f->m, g_ptr_array_index(f->cache, i));
	g_ptr_array_free(f->cache, TRUE);
	g_hash_table_destroy(f->i_mmap);
	if (f->disk)
		g_ptr_array_free(f->disk, TRUE);
	g_hash_table_remove(f->m->files, f);
	g_free(f);
}

/* Copy bytes [@pos, @pos + @len) of file @f: each page from @page(@f, index)
 * or zeroes where that is NULL */
static int file_copy(const struct km_file *f, uint64_t pos, void *buf, size_t len,
		     const void *(*page)(const struct km_file *f, unsigned long index),
		     const char *fn)
{
	unsigned long P;
	unsigned char *out = buf;

	if (!f || (!buf && len))
		return km_err(-EINVAL, "%s: file or buffer is NULL", fn);
	P = f->m->page_size;
	if (pos > (uint64_t)f->nr_pages * P || len > (uint64_t)f->nr_pages * P - pos)
		return km_err(-EINVAL, "%s: [%llu, +%zu) is past the file's %lu pages", fn,
			      (unsigned long long)pos, len, f->nr_pages);
	while (len) {
		unsigned long index = (unsigned long)(pos / P), off = (unsigned long)(pos % P);
		size_t chunk = MIN(len, P - off);
		const unsigned char *src = page(f, index);

		if (src)
			memcpy(out, src + off, chunk);
		else
			memset(out, 0, chunk);
		out += chunk;
		pos += chunk;
		len -= chunk;
	}
	return 0;
}

static const void *cached_page(const struct km_file *f, unsigned long index)
{
	struct km_page *p = index < f->cache->len ? g_ptr_array_index(f->cache, index) : NULL;

	return p ? km_frame(f->m, km_pfn(f->m, p)) : NULL;
}

static const void *disk_page(const struct km_file *f, unsigned long index)
{
	return f->disk && index < f->disk->len ? g_ptr_array_index(f->disk, index) : NULL;
}

int km_file_read(const struct km_file *f, uint64_t pos, void *buf, size_t len)
{
	return file_copy(f, pos, buf, len, cached_page, "km_file_read");
}

int km_file_read_disk(const struct km_file *f, uint64_t pos, void *buf, size_t len)
{
	return file_copy(f, pos, buf, len, disk_page, "km_file_read_disk");
}

/* the write of writeback: the page's bytes as they are now */
static void disk_write(struct km_file *f, unsigned long index, const struct km_page *p)
{
	if (!f->disk)
		f->disk = g_ptr_array_new_with_free_func(g_free);
	if (index >= f->disk->len)
		g_ptr_array_set_size(f->disk, (guint)index + 1);
	if (!g_ptr_array_index(f->disk, index))
		g_ptr_array_index(f->disk, index) = g_malloc(f->m->page_size);
	memcpy(g_ptr_array_index(f->disk, index), km_frame(f->m, km_pfn(f->m, p)),
	       f->m->page_size);
}

struct km_page *km_file_page(struct km_file *f, unsigned long index)
{
	if (!f || index >= f->cache->len)
		return NULL;
	return g_ptr_array_index(f->cache, index);
}

/* page_mkclean(): clean and write-protect every shared pte of @p; true if
 * one of them was dirty */
static bool page_mkclean(struct km_file *f, unsigned long index)
{
	struct km_machine *m = f->m;
	struct km_page *p = g_ptr_array_index(f->cache, index);
	GHashTableIter it;
	gpointer key;
	bool dirty = false;

	/* rmap_walk_file(): the vmas of the file's i_mmap that map @index */
	g_hash_table_iter_init(&it, f->i_mmap);
	while (g_hash_table_iter_next(&it, &key, NULL)) {
		struct km_vma *v = key;
		unsigned long a;
		km_pte_t *pte;

		if (!(v->vm_flags & KM_VM_SHARED) || index < v->pgoff ||
		    index - v->pgoff >= (v->end - v->start) >> m->page_shift)
			continue;
		a = v->start + ((index - v->pgoff) << m->page_shift);
		pte = km_pte_lookup(v->mm, a, false);
		if (!pte || !(*pte & KM_PTE_PRESENT) || (*pte >> KM_PTE_PFN_SHIFT) != km_pfn(m, p))
			continue;
		dirty |= (*pte & KM_PTE_DIRTY) != 0;
		*pte &= ~(km_pte_t)(KM_PTE_DIRTY | KM_PTE_WRITE);
	}
	return dirty;
}

long km_file_writeback(struct km_file *f)
{
	long written = 0;

	if (!f)
		return km_err(-EINVAL, "km_file_writeback: file is NULL");
	for (guint i = 0; i < f->cache->len; i++) {
		struct km_page *p = g_ptr_array_index(f->cache, i);

		if (!p)
			continue;
		/* clear_page_dirty_for_io(): page_mkclean(), TestClearPageDirty() */
		if (page_mkclean(f, i) || (p->flags & KM_PG_DIRTY)) {
			p->flags &= ~KM_PG_DIRTY;
			disk_write(f, i, p);
			written++;
		}
	}
	return written;
}

void km_set_page_dirty(struct km_machine *m, struct km_page *p)
{
	if (!m)
		km_set_error("km_set_page_dirty: machine is NULL");
	else if (km_page_valid(m, p))
		p->flags |= KM_PG_DIRTY;
	else
		km_report(m, KM_BUG, KM_R_BAD_PAGE, "set_page_dirty(%p): not a page of this machine",
			  (void *)p);
}

int km_follow_pte(struct km_mm *mm, unsigned long addr, unsigned int *flags,
		  struct km_page **page)
{
	km_pte_t *pte;

	if (!mm)
		return km_err(-EINVAL, "km_follow_pte: mm is NULL");
	pte = km_pte_lookup(mm, addr, false);
	if (!pte || !(*pte & KM_PTE_PRESENT))
		return -ENOENT;
	if (flags)
		*flags = (unsigned int)(*pte & ((1u << KM_PTE_PFN_SHIFT) - 1));
	if (page)
		*page = &mm->m->pages[*pte >> KM_PTE_PFN_SHIFT];
	return 0;
}

/* A user access faulted on @a: handle_mm_fault() through its vma; the pte
 * afterwards, or NULL when the fault cannot be handled. */
static km_pte_t *__attribute__((noinline)) user_access_fault(struct km_task *t, unsigned long a,
							       bool write)
{
	struct km_vma *vma = km_find_vma(t->mm, a);

	KM_EV_INC(t->m, find_vma_calls);
	if (!vma || km_handle_mm_fault(t, vma, a, write))
		return NULL;
	return km_pte_lookup(t->mm, a, false);
}

/* copy a few bytes inline (a __get_user()/__put_user()-sized access), else
 * call memcpy() */
static inline void user_copy_bytes(unsigned char *to, const unsigned char *from,
				   unsigned long n)
{
	if (n <= 8) {
		while (n--)
			*to++ = *from++;
	} else {
		memcpy(to, from, n);
	}
}

void km_livelock_report(struct km_machine *m, const char *loop, unsigned long addr)
{
	km_report(m, KM_WARN, KM_R_LIVELOCK,
		  "%s: %u faults in a row at 0x%lx, each undone before the retry: the kernel "
		  "would spin until a fatal signal; the model gives up", loop, KM_RETRY_LIMIT, addr);
}

static inline __attribute__((always_inline)) long
user_access(struct km_task *t, unsigned long addr, unsigned char *buf, unsigned long len,
	    bool write)
{
	struct km_machine *m = t->m;
	unsigned long done = 0;
	unsigned int tries = 0;

	while (done < len) {
		unsigned long a = addr + done;
		unsigned long off = a & (m->page_size - 1);
		unsigned long chunk = MIN(len - done, m->page_size - off);
		km_pte_t *pte;
		unsigned char *frame;

		if (a < addr)
			break;
		/* the MMU reads the pte; only a fault looks at the vma */
		pte = km_pte_lookup(t->mm, a, false);
		if (__builtin_expect(!pte || !(*pte & KM_PTE_PRESENT) || !(*pte & KM_PTE_YOUNG) ||
				     !(*pte & KM_PTE_USER) ||
				     (write && (*pte & (KM_PTE_WRITE | KM_PTE_DIRTY)) !=
						       (KM_PTE_WRITE | KM_PTE_DIRTY)), 0)) {
			if (!user_access_fault(t, a, write) ||
			    km_retry_stuck(m, &tries, "user access", a))
				break;
			continue;	/* the access is retried: the MMU reads the pte again */
		}
		frame = km_frame(m, (unsigned long)(*pte >> KM_PTE_PFN_SHIFT));
		if (write) {
			user_copy_bytes(frame + off, buf + done, chunk);
			*pte |= KM_PTE_DIRTY;
		} else {
			user_copy_bytes(buf + done, frame + off, chunk);
		}
		*pte |= KM_PTE_YOUNG;
		done += chunk;
		tries = 0;
	}
	return (long)done;
}

long km_user_access(struct km_task *t, unsigned long addr, void *buf, unsigned long len,
		    bool write)
{
	if (!t || !t->mm || (!buf && len))
		return km_err(-EINVAL, "km_user_access: no task, mm or buffer");
	return write ? user_access(t, addr, buf, len, true) : user_access(t, addr, buf, len, false);
}

/* What a read fault at @a of @vma (no pte there) would map, for
 * km_mm_peek(): the file's page-cache page (NULL: not cached yet, so a
 * fault would add a zeroed one), or NULL for anonymous memory (the zero
 * page). False when the fault would fail: past the end of the file. */
static bool peek_unfaulted(struct km_mm *mm, const struct km_vma *vma, unsigned long a,
			   const struct km_page **page)
{
	unsigned long index;

	*page = NULL;
	if (!vma->file)
		return true;
	index = vma->pgoff + ((a - vma->start) >> mm->m->page_shift);
	if (index >= vma->file->nr_pages)
		return false;		/* SIGBUS */
	if (index < vma->file->cache->len)
		*page = g_ptr_array_index(vma->file->cache, index);
	return true;
}

int km_mm_peek(struct km_mm *mm, unsigned long addr, void *buf, unsigned long len)
{
	struct km_machine *m;
	unsigned long done = 0;

	if (!mm || (!buf && len))
		return km_err(-EINVAL, "km_mm_peek: no mm or buffer");
	m = mm->m;
	while (done < len) {
		unsigned long a = addr + done;
		unsigned long off = a & (m->page_size - 1);
		unsigned long chunk = MIN(len - done, m->page_size - off);
		const struct km_page *page = NULL;
		struct km_vma *vma;
		km_pte_t *pte;

		if (a < addr || !(vma = km_find_vma(mm, a)))
			return km_err(-EFAULT, "km_mm_peek: 0x%lx is not mapped", a);
		pte = km_pte_lookup(mm, a, false);
		if (pte && (*pte & KM_PTE_PRESENT))
			page = &m->pages[*pte >> KM_PTE_PFN_SHIFT];
		else if (!peek_unfaulted(mm, vma, a, &page))
			return km_err(-EFAULT, "km_mm_peek: 0x%lx is past the end of the mapped file", a);
		if (page)
			memcpy((unsigned char *)buf + done,
			       (unsigned char *)km_frame(m, km_pfn(m, page)) + off, chunk);
		else
			memset((unsigned char *)buf + done, 0, chunk);
		done += chunk;
	}
	return 0;
}
