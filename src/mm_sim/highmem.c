// SPDX-License-Identifier: GPL-2.0
/*
 * kmap_atomic()/__kunmap_atomic() of arch/arm/mm/highmem.c and
 * include/linux/highmem.h (v5.7), on non-VIVT caches (Cortex-A8/A15: no
 * kmap_high_get()). Per-CPU slot stack __kmap_atomic_idx of KM_TYPE_NR.
 * Simplification: the fixmap address is the frame's host storage.
 */
#include "internal.h"

static bool highmem_addr(const struct km_machine *m, const void *addr, unsigned long *pfn)
{
	const unsigned char *a = addr;

	if (a < m->ram || a >= m->ram + ((size_t)m->nr_pages << m->page_shift))
		return false;
	*pfn = (unsigned long)(a - m->ram) >> m->page_shift;
	return *pfn >= m->nr_lowmem;
}

void *km_kmap_atomic(struct km_task *t, struct km_page *page)
{
	struct km_machine *m = t->m;
	struct km_cpu *c = &m->cpu[t->cpu];
	unsigned long pfn;
	unsigned int type;

	km_preempt_disable(t);
	km_pagefault_disable(t);
	if (!km_page_valid(m, page)) {
		km_report(m, KM_BUG, KM_R_BAD_PAGE, "kmap_atomic(%p): not a page of this machine",
			  (void *)page);
		return NULL;
	}
	pfn = km_pfn(m, page);
	if (!(page->flags & KM_PG_HIGHMEM)) {
		m->ev.kmap_low++;
		return km_frame(m, pfn);
	}
	type = c->kmap_idx++;		/* kmap_atomic_idx_push() */
	if (type >= KM_TYPE_NR) {
		km_report(m, KM_BUG, KM_R_KMAP_OVERFLOW,
			  "kmap_atomic: cpu %u slot %u >= KM_TYPE_NR (%d) for pfn %lu", t->cpu,
			  type, KM_TYPE_NR, pfn);
	} else {
		if (m->cfg.kmap_debug && c->kmap_pfn[type] != ~0UL)
			km_report(m, KM_BUG, KM_R_KMAP_ORDER,
				  "kmap_atomic: cpu %u slot %u pte not none (pfn %lu)", t->cpu,
				  type, c->kmap_pfn[type]);
		c->kmap_pfn[type] = pfn;	/* set_fixmap_pte() */
	}
	m->ev.kmap_high++;
	m->ev.tlb_flushes++;		/* local_flush_tlb_kernel_page() */
	return km_frame(m, pfn);
}

void km_kunmap_atomic(struct km_task *t, void *addr)
{
	struct km_machine *m = t->m;
	struct km_cpu *c = &m->cpu[t->cpu];
	unsigned long pfn;

	if (highmem_addr(m, addr, &pfn)) {
		if (c->kmap_idx == 0) {
			km_report(m, KM_BUG, KM_R_KMAP_UNBALANCED,
				  "kunmap_atomic(pfn %lu): cpu %u holds no kmap_atomic slot", pfn,
				  t->cpu);
		} else {
			unsigned int type = c->kmap_idx - 1;	/* kmap_atomic_idx() */

			if (type < KM_TYPE_NR) {
				if (m->cfg.kmap_debug) {
					if (c->kmap_pfn[type] != pfn)
						km_report(m, KM_BUG, KM_R_KMAP_ORDER,
							  "kunmap_atomic(pfn %lu): cpu %u top slot %u maps pfn %lu",
							  pfn, t->cpu, type, c->kmap_pfn[type]);
					c->kmap_pfn[type] = ~0UL; /* set_fixmap_pte(idx, 0) */
					m->ev.tlb_flushes++;
				}
				/* without debug the pte stays: the next map flushes */
			}
			c->kmap_idx--;		/* kmap_atomic_idx_pop() */
		}
	}
	km_pagefault_enable(t);
	km_preempt_enable(t);
}

unsigned int km_kmap_slots_held(const struct km_machine *m, unsigned int cpu)
{
	if (cpu >= m->cfg.nr_cpus)
		return 0;
	return m->cpu[cpu].kmap_idx;
}

int km_kmap_check(struct km_machine *m)
{
	int n = 0;

	for (unsigned int cpu = 0; cpu < m->cfg.nr_cpus; cpu++) {
		if (!m->cpu[cpu].kmap_idx)
			continue;
		km_report(m, KM_BUG, KM_R_LEAK_KMAP, "cpu %u still holds %u kmap_atomic slot(s)",
			  cpu, m->cpu[cpu].kmap_idx);
		n++;
	}
	return n;
}
