// SPDX-License-Identifier: GPL-2.0
/*
 * Address spaces: VMAs (a GTree keyed by start), a two-level page table
 * with O(1) lookup per page, demand-zero faults and COW breaking, modelled
 * on mm/mmap.c and mm/memory.c (v5.7): a read fault of an anonymous page
 * maps the shared zero page read-only (do_anonymous_page), a write fault
 * allocates a zeroed page preferring highmem (GFP_HIGHUSER_MOVABLE), and a
 * write to a present read-only pte of a writable mapping is do_wp_page():
 * reuse when page_mapcount() is 1 (reuse_swap_page(), v5.7), else copy.
 * Simplifications: no mmap_sem, no VMA merging, no swap, no THP.
 */
#include "internal.h"
#include <string.h>

static gint vma_key_cmp(gconstpointer a, gconstpointer b, gpointer unused)
{
	unsigned long x = GPOINTER_TO_SIZE(a), y = GPOINTER_TO_SIZE(b);

	return x < y ? -1 : x > y;
}

int km_mm_new(struct km_machine *m, struct km_mm **out)
{
	struct km_mm *mm;
	unsigned long span = 1UL << (m->page_shift + KM_PTRS_BITS);

	if (!m || !out)
		return km_err(-EINVAL, "km_mm_new: machine or out is NULL");
	mm = g_new0(struct km_mm, 1);
	mm->m = m;
	mm->users = 1;
	mm->vmas = g_tree_new_full(vma_key_cmp, NULL, NULL, g_free);
	mm->pgd_entries = (m->task_size + span - 1) / span;
	mm->pgd = g_new0(km_pte_t *, mm->pgd_entries);
	/* TASK_UNMAPPED_BASE: PAGE_ALIGN(TASK_SIZE / 3) (arch/arm) */
	mm->mmap_next = (m->task_size / 3 + m->page_size - 1) & ~(m->page_size - 1);
	g_hash_table_add(m->mms, mm);
	*out = mm;
	return 0;
}

void km_mm_get(struct km_mm *mm)
{
	mm->users++;
}

km_pte_t *km_pte_lookup(struct km_mm *mm, unsigned long addr, bool alloc)
{
	unsigned long vpn, i;
	km_pte_t *pt;

	if (addr >= mm->m->task_size)
		return NULL;
	vpn = addr >> mm->m->page_shift;
	i = vpn >> KM_PTRS_BITS;
	pt = mm->pgd[i];
	if (!pt) {
		if (!alloc)
			return NULL;
		pt = mm->pgd[i] = g_new0(km_pte_t, 1UL << KM_PTRS_BITS);
	}
	return &pt[vpn & ((1UL << KM_PTRS_BITS) - 1)];
}

/* The vma containing @addr, or NULL. A one-entry cache in front of the
 * tree plays the part of the kernel's vmacache (mm/vmacache.c, v5.7). */
struct km_vma *km_find_vma(struct km_mm *mm, unsigned long addr)
{
	struct km_vma *v = mm->vma_cache;
	GTreeNode *n;

	if (v && addr >= v->start && addr < v->end)
		return v;
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
static void zap_range(struct km_mm *mm, unsigned long start, unsigned long end)
{
	struct km_machine *m = mm->m;

	for (unsigned long a = start; a < end; a += m->page_size) {
		km_pte_t *pte = km_pte_lookup(mm, a, false);
		struct km_page *p;

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

static void mm_free(struct km_mm *mm)
{
	GTreeNode *n;

	for (n = g_tree_node_first(mm->vmas); n; n = g_tree_node_next(n)) {
		struct km_vma *v = g_tree_node_value(n);

		zap_range(mm, v->start, v->end);
	}
	g_tree_destroy(mm->vmas);
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
	return n;
}

static bool overlaps(struct km_mm *mm, unsigned long start, unsigned long end)
{
	GTreeNode *n = g_tree_lower_bound(mm->vmas, GSIZE_TO_POINTER(start));

	if (n && ((struct km_vma *)g_tree_node_value(n))->start < end)
		return true;
	return km_find_vma(mm, start) != NULL;
}

int km_mmap(struct km_mm *mm, unsigned long addr, unsigned long len, int prot,
	    unsigned long *out_addr)
{
	struct km_machine *m;
	struct km_vma *v;

	if (!mm || !out_addr)
		return km_err(-EINVAL, "km_mmap: mm or out_addr is NULL");
	m = mm->m;
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
		addr = mm->mmap_next;
		while (addr <= m->task_size - len && overlaps(mm, addr, addr + len))
			addr += m->page_size;
		if (addr > m->task_size - len)
			return km_err(-ENOMEM, "km_mmap: no room for %lu bytes", len);
		mm->mmap_next = addr + len;
	}
	v = g_new0(struct km_vma, 1);
	v->start = addr;
	v->end = addr + len;
	v->vm_flags = KM_VM_READ | ((prot & KM_PROT_WRITE) ? KM_VM_WRITE : 0);
	g_tree_insert(mm->vmas, GSIZE_TO_POINTER(v->start), v);
	*out_addr = addr;
	return 0;
}

int km_munmap(struct km_mm *mm, unsigned long addr, unsigned long len)
{
	struct km_machine *m;
	unsigned long end;
	GPtrArray *hit;

	if (!mm)
		return km_err(-EINVAL, "km_munmap: mm is NULL");
	m = mm->m;
	if ((addr & (m->page_size - 1)) || len == 0 || len > m->task_size ||
	    addr > m->task_size - len)
		return km_err(-EINVAL, "km_munmap: bad range [0x%lx, +%lu)", addr, len);
	end = addr + ((len + m->page_size - 1) & ~(m->page_size - 1));
	mm->vma_cache = NULL;		/* vmacache_invalidate() */
	hit = g_ptr_array_new();
	for (GTreeNode *n = g_tree_node_first(mm->vmas); n; n = g_tree_node_next(n)) {
		struct km_vma *v = g_tree_node_value(n);

		if (v->start < end && v->end > addr)
			g_ptr_array_add(hit, v);
	}
	for (guint i = 0; i < hit->len; i++) {
		struct km_vma v = *(struct km_vma *)g_ptr_array_index(hit, i);

		zap_range(mm, MAX(v.start, addr), MIN(v.end, end));
		g_tree_remove(mm->vmas, GSIZE_TO_POINTER(v.start));
		if (v.start < addr) {		/* keep the head */
			struct km_vma *h = g_memdup2(&v, sizeof(v));

			h->end = addr;
			g_tree_insert(mm->vmas, GSIZE_TO_POINTER(h->start), h);
		}
		if (v.end > end) {		/* keep the tail */
			struct km_vma *t = g_memdup2(&v, sizeof(v));

			t->start = end;
			g_tree_insert(mm->vmas, GSIZE_TO_POINTER(t->start), t);
		}
	}
	g_ptr_array_free(hit, TRUE);
	return 0;
}

static km_pte_t mk_pte(unsigned long pfn, unsigned int bits)
{
	return ((km_pte_t)pfn << KM_PTE_PFN_SHIFT) | bits;
}

/* wp_page_copy(): give this mapping its own copy of the page */
static int wp_page_copy(struct km_machine *m, km_pte_t *pte, struct km_page *old, bool zero)
{
	struct km_page *p = km_alloc_page(m, KM_GFP_HIGHMEM | (zero ? KM_GFP_ZERO : 0));

	if (!p)
		return -ENOMEM;
	if (!zero) {
		memcpy(km_frame(m, km_pfn(m, p)), km_frame(m, km_pfn(m, old)), m->page_size);
		m->ev.memcpy_bytes += m->page_size;
		old->mapcount--;
		km_put_page(m, old);
	}
	p->flags |= KM_PG_ANON;
	p->mapcount = 1;
	m->ev.cow_breaks++;
	*pte = mk_pte(km_pfn(m, p), KM_PTE_PRESENT | KM_PTE_USER | KM_PTE_YOUNG | KM_PTE_DIRTY |
					    KM_PTE_WRITE);
	return 0;
}

int km_handle_mm_fault(struct km_task *t, struct km_vma *vma, unsigned long addr, bool write)
{
	struct km_machine *m = t->m;
	km_pte_t *pte;
	struct km_page *p;

	m->ev.page_faults++;
	if (write ? !(vma->vm_flags & KM_VM_WRITE) : !(vma->vm_flags & KM_VM_READ))
		return -EFAULT;		/* bad_area: SIGSEGV */
	pte = km_pte_lookup(t->mm, addr, true);
	if (!(*pte & KM_PTE_PRESENT)) {		/* do_anonymous_page() */
		if (!write) {
			*pte = mk_pte(km_pfn(m, m->zero_page),
				      KM_PTE_PRESENT | KM_PTE_USER | KM_PTE_YOUNG | KM_PTE_SPECIAL);
			return 0;
		}
		return wp_page_copy(m, pte, NULL, true);
	}
	if (write && !(*pte & KM_PTE_WRITE)) {	/* do_wp_page() */
		if (*pte & KM_PTE_SPECIAL)
			return wp_page_copy(m, pte, NULL, true);
		p = &m->pages[*pte >> KM_PTE_PFN_SHIFT];
		if (p->mapcount == 1) {		/* reuse_swap_page() */
			*pte |= KM_PTE_WRITE | KM_PTE_DIRTY | KM_PTE_YOUNG;
			return 0;
		}
		return wp_page_copy(m, pte, p, false);
	}
	*pte |= KM_PTE_YOUNG | (write ? KM_PTE_DIRTY : 0);
	return 0;
}

int km_follow_pte(struct km_mm *mm, unsigned long addr, unsigned int *flags,
		  struct km_page **page)
{
	km_pte_t *pte = km_pte_lookup(mm, addr, false);

	if (!pte || !(*pte & KM_PTE_PRESENT))
		return -ENOENT;
	if (flags)
		*flags = (unsigned int)(*pte & ((1u << KM_PTE_PFN_SHIFT) - 1));
	if (page)
		*page = &mm->m->pages[*pte >> KM_PTE_PFN_SHIFT];
	return 0;
}

long km_user_access(struct km_task *t, unsigned long addr, void *buf, unsigned long len,
		    bool write)
{
	struct km_machine *m;
	unsigned long done = 0;

	if (!t || !t->mm || (!buf && len))
		return km_err(-EINVAL, "km_user_access: no task, mm or buffer");
	m = t->m;
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
		if (!pte || !(*pte & KM_PTE_PRESENT) || (write && !(*pte & KM_PTE_WRITE))) {
			struct km_vma *vma = km_find_vma(t->mm, a);

			if (!vma || km_handle_mm_fault(t, vma, a, write))
				break;
			pte = km_pte_lookup(t->mm, a, false);
		}
		frame = km_frame(m, (unsigned long)(*pte >> KM_PTE_PFN_SHIFT));
		if (write) {
			memcpy(frame + off, (unsigned char *)buf + done, chunk);
			*pte |= KM_PTE_DIRTY;
		} else {
			memcpy((unsigned char *)buf + done, frame + off, chunk);
		}
		*pte |= KM_PTE_YOUNG;
		done += chunk;
	}
	return (long)done;
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
		km_pte_t *pte;

		if (a < addr || !km_find_vma(mm, a))
			return km_err(-EFAULT, "km_mm_peek: 0x%lx is not mapped", a);
		pte = km_pte_lookup(mm, a, false);
		if (pte && (*pte & KM_PTE_PRESENT))
			memcpy((unsigned char *)buf + done,
			       (unsigned char *)km_frame(m, (unsigned long)(*pte >> KM_PTE_PFN_SHIFT)) +
				       off, chunk);
		else
			memset((unsigned char *)buf + done, 0, chunk);
		done += chunk;
	}
	return 0;
}
