// SPDX-License-Identifier: GPL-2.0
/*
 * Two eras of kmap_atomic():
 *
 * pre-5.11 (KM_KMAP_ATOMIC_PRE_5_11): kmap_atomic()/__kunmap_atomic() of
 * arch/arm/mm/highmem.c and include/linux/highmem.h (v5.7), on non-VIVT
 * caches (Cortex-A8/A15: no kmap_high_get()). Per-CPU slot stack
 * __kmap_atomic_idx of KM_TYPE_NR; set_fixmap_pte() flushes the TLB entry
 * on map; unmap only pops the index unless CONFIG_DEBUG_HIGHMEM, which
 * BUG()s on an out-of-order unmap and clears (and flushes) the pte.
 *
 * 5.11+ (KM_KMAP_LOCAL): __kmap_local_pfn_prot()/kunmap_local_indexed() of
 * mm/highmem.c (v5.11) with ARM's arch_kmap_local_post_{map,unmap}() TLB
 * flushes. Per-task stack current->kmap_ctrl of KM_MAX_IDX (16);
 * kmap_local_idx_push() BUG()s on overflow, an out-of-order unmap is a
 * WARN_ON_ONCE() and then clears the top slot anyway.
 *
 * Simplification: the fixmap address is the frame's host storage, so a use
 * after kunmap is not caught.
 */
#include "mm_internal.h"

static bool local_era(const struct km_machine *m)
{
	return m->cfg.kmap == KM_KMAP_LOCAL;
}

static struct km_kmap_stack *kmap_stack(struct km_task *t)
{
	return local_era(t->m) ? &t->kmap : &t->m->cpu[t->cpu].kmap;
}

/* The pfn of @addr if it is the address of a highmem frame (a kmap slot's
 * address), else ~0UL: lowmem, or not a frame at all. */
static unsigned long highmem_addr_pfn(const struct km_machine *m, const void *addr)
{
	const unsigned char *a = addr;

	if (a < m->highmem_start || a >= m->ram_end)
		return ~0UL;
	return (unsigned long)(a - m->ram) >> m->page_shift;
}

/* Map highmem @page into the next slot: kmap_atomic_high_prot() /
 * __kmap_local_page_prot() */
static void *__attribute__((noinline)) kmap_high_slot(struct km_task *t, struct km_page *page)
{
	struct km_machine *m = t->m;
	struct km_kmap_stack *st = kmap_stack(t);
	unsigned long pfn = km_pfn(m, page);
	unsigned int type;

	type = st->idx++;	/* kmap_atomic_idx_push() / kmap_local_idx_push() */
	if (type >= m->kmap_slots) {
		km_report(m, KM_BUG, KM_R_KMAP_OVERFLOW,
			  "%s: slot %u >= %u usable of KM_TYPE_NR %d (cpu %u, pfn %lu)",
			  local_era(m) ? "kmap_local_idx_push" : "kmap_atomic_idx_push", type,
			  m->kmap_slots, KM_TYPE_NR, t->cpu, pfn);
	} else {
		if ((m->cfg.kmap_debug || local_era(m)) && st->pfn[type] != ~0UL)
			km_report(m, KM_BUG, KM_R_KMAP_ORDER,
				  "kmap: slot %u pte not none (pfn %lu): a missed unmap", type,
				  st->pfn[type]);
		st->pfn[type] = pfn;	/* set_fixmap_pte() / set_pte_at() */
	}
	m->ev.kmap_high++;
	m->ev.tlb_flushes++;		/* local_flush_tlb_kernel_page() */
	return km_frame(m, pfn);
}

static void *__attribute__((noinline, cold)) kmap_bad_page(struct km_machine *m,
							   struct km_page *page)
{
	km_report(m, KM_BUG, KM_R_BAD_PAGE, "kmap(%p): not a page of this machine", (void *)page);
	return NULL;
}

/* kmap_atomic()'s mapping step, for a valid @page: a lowmem page is its
 * direct-map address (page_address()), a highmem page takes a slot. */
static void *kmap_slot(struct km_task *t, struct km_page *page)
{
	struct km_machine *m = t->m;

	if (page->flags & KM_PG_HIGHMEM)
		return kmap_high_slot(t, page);
	m->ev.kmap_low++;
	return km_frame(m, km_pfn(m, page));
}

/* Unmap highmem frame @pfn: kunmap_atomic_high() / kunmap_local_indexed() */
static void __attribute__((noinline)) kunmap_high_slot(struct km_task *t, unsigned long pfn)
{
	struct km_machine *m = t->m;
	struct km_kmap_stack *st = kmap_stack(t);
	unsigned int type;

	if (st->idx == 0) {
		km_report(m, KM_BUG, KM_R_KMAP_UNBALANCED,
			  "kunmap(pfn %lu): no kmap slot held (cpu %u)", pfn, t->cpu);
		return;
	}
	type = st->idx - 1;	/* kmap_atomic_idx() / kmap_local_idx() */
	if (type < KM_TYPE_NR) {
		bool ordered = st->pfn[type] == pfn;

		if (local_era(m)) {
			if (!ordered)	/* WARN_ON_ONCE(addr != __fix_to_virt(...)) */
				km_report(m, KM_WARN, KM_R_KMAP_ORDER,
					  "kunmap_local(pfn %lu): top slot %u maps pfn %lu", pfn, type,
					  st->pfn[type]);
			st->pfn[type] = ~0UL;	/* pte_clear() */
			m->ev.tlb_flushes++;	/* arch_kmap_local_post_unmap() */
		} else if (m->cfg.kmap_debug) {
			if (!ordered)	/* BUG_ON(vaddr != __fix_to_virt(idx)) */
				km_report(m, KM_BUG, KM_R_KMAP_ORDER,
					  "kunmap_atomic(pfn %lu): cpu %u top slot %u maps pfn %lu",
					  pfn, t->cpu, type, st->pfn[type]);
			st->pfn[type] = ~0UL;	/* set_fixmap_pte(idx, __pte(0)) */
			m->ev.tlb_flushes++;
		}
		/* pre-5.11 without debug: the pte stays, the next map flushes */
	}
	st->idx--;		/* kmap_atomic_idx_pop() / kmap_local_idx_pop() */
}

/* kunmap_atomic()'s unmapping step: only a highmem (slot) address has a
 * slot to release; a lowmem address, or one that is no frame, has none. */
static void kunmap_slot(struct km_task *t, void *addr)
{
	unsigned long pfn = highmem_addr_pfn(t->m, addr);

	if (pfn != ~0UL) {
		t->m->ev.kunmap_high++;
		kunmap_high_slot(t, pfn);
	} else {
		t->m->ev.kunmap_low++;
	}
}

/* kmap_atomic() of a page that is not one of @t's machine: a BUG and NULL,
 * with preempt and pagefault counts untouched (the caller gets nothing to
 * kunmap_atomic()) */
void *km_kmap_atomic(struct km_task *t, struct km_page *page)
{
	if (__builtin_expect(!t, 0)) {
		km_set_error("km_kmap_atomic: task is NULL");
		return NULL;
	}
	if (__builtin_expect(!km_page_valid(t->m, page), 0))
		return kmap_bad_page(t->m, page);
	km_preempt_count_inc(t);
	km_pagefault_disabled_inc(t);
	return kmap_slot(t, page);
}

void km_kunmap_atomic(struct km_task *t, void *addr)
{
	if (__builtin_expect(!t, 0)) {
		km_set_error("km_kunmap_atomic: task is NULL");
		return;
	}
	kunmap_slot(t, addr);
	km_pagefault_disabled_dec(t);
	km_preempt_count_dec(t);
}

void *km_kmap_local_page(struct km_task *t, struct km_page *page)
{
	if (!t) {
		km_set_error("km_kmap_local_page: task is NULL");
		return NULL;
	}
	if (!local_era(t->m)) {
		km_report(t->m, KM_BUG, KM_R_UNEXPECTED,
			  "kmap_local_page() on a machine of the pre-5.11 kmap era");
		return NULL;
	}
	if (!km_page_valid(t->m, page))
		return kmap_bad_page(t->m, page);
	return kmap_slot(t, page);
}

void km_kunmap_local(struct km_task *t, void *addr)
{
	if (!t) {
		km_set_error("km_kunmap_local: task is NULL");
		return;
	}
	if (!local_era(t->m)) {
		km_report(t->m, KM_BUG, KM_R_UNEXPECTED,
			  "kunmap_local() on a machine of the pre-5.11 kmap era");
		return;
	}
	kunmap_slot(t, addr);
}

unsigned int km_kmap_slots_held(const struct km_machine *m, unsigned int cpu)
{
	GHashTableIter it;
	gpointer key;
	unsigned int n = 0;

	if (!m || cpu >= m->cfg.nr_cpus)
		return 0;
	if (!local_era(m))
		return m->cpu[cpu].kmap.idx;
	/* kmap_local: the slots of the tasks on @cpu (its fixmap range) */
	g_hash_table_iter_init(&it, m->tasks);
	while (g_hash_table_iter_next(&it, &key, NULL))
		if (((struct km_task *)key)->cpu == cpu)
			n += ((struct km_task *)key)->kmap.idx;
	return n;
}

void km_fault_kmap_slots(struct km_machine *m, unsigned int slots)
{
	if (m)
		m->kmap_slots = MIN(slots, (unsigned int)KM_TYPE_NR);
}

int km_kmap_check(struct km_machine *m)
{
	int n = 0;

	for (unsigned int cpu = 0; cpu < m->cfg.nr_cpus; cpu++) {
		if (!m->cpu[cpu].kmap.idx)
			continue;
		km_report(m, KM_BUG, KM_R_LEAK_KMAP, "cpu %u still holds %u kmap_atomic slot(s)",
			  cpu, m->cpu[cpu].kmap.idx);
		n++;
	}
	return n;
}
