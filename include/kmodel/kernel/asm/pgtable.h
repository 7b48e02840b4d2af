/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <asm/pgtable.h>, <asm/pgtable-2level.h>,
 * <asm-generic/pgtable-nopud.h> (v5.7): the page-table walk of ARM without
 * LPAE, on the model's two-level table (kmodel/mm.h km_pmd_offset()). */
#ifndef KM_COMPAT_ASM_PGTABLE_H
#define KM_COMPAT_ASM_PGTABLE_H

#include <asm/page.h>
#include <kmodel/mm.h>

/* custom: a pte is the model's km_pte_t; a pmd entry is the model's slot
 * holding the address of a second-level table of KM_PTRS_PER_PTE ptes.
 * pgd and pud fold onto the pmd, as ARM's 2-level tables fold pud and pmd
 * into the pgd (the model's table geometry is its own: see
 * KM_PTRS_PER_PTE). p4d folds too, for code of v5.8 and later. */
typedef km_pte_t pte_t;
typedef struct { km_pte_t *table; } pmd_t;
typedef pmd_t pud_t;
typedef pmd_t p4d_t;
typedef pmd_t pgd_t;

#define pgd_offset(mmp, addr) ((pgd_t *)km_pmd_offset((mmp)->mm, (addr)))
/* duplicate in effect (asm-generic/pgtable-nop4d.h, pgtable-nopud.h,
 * arch/arm/include/asm/pgtable-2level.h, v5.7): the folded levels are
 * never none nor bad; (void) marks the unused parameters, so the headers
 * stay clean under -Wextra */
static inline p4d_t *p4d_offset(pgd_t *pgd, unsigned long addr) { (void)addr; return pgd; }
static inline int pgd_none(pgd_t pgd) { (void)pgd; return 0; }
static inline int pgd_bad(pgd_t pgd) { (void)pgd; return 0; }
static inline int p4d_none(p4d_t p4d) { (void)p4d; return 0; }
static inline int p4d_bad(p4d_t p4d) { (void)p4d; return 0; }
/* v5.7 (no p4d on ARM yet): pud_offset() of a pgd; v5.8+: of a p4d, the
 * same type here */
static inline pud_t *pud_offset(pgd_t *pgd, unsigned long addr) { (void)addr; return pgd; }
#define pud_none(pud) (0)
#define pud_bad(pud) (0)
static inline pmd_t *pmd_offset(pud_t *pud, unsigned long addr) { (void)addr; return pud; }
/* custom: pmd_none(): no second-level table; pmd_bad() is a section
 * mapping on ARM (pmd_val & 2), which user space never has in the model */
#define pmd_none(pmd) ((pmd).table == NULL)
#define pmd_bad(pmd) (0)
/* duplicate (pgtable-2level.h, v5.7): no THP or huge pages without LPAE;
 * the model has none on any machine */
#define pmd_thp_or_huge(pmd) (0)
#define pmd_hugewillfault(pmd) (0)

/* custom: pte_offset_map() without CONFIG_HIGHPTE: the pte in the table */
static inline pte_t *pte_offset_map(pmd_t *pmd, unsigned long addr)
{
	return pmd->table + ((addr >> PAGE_SHIFT) & (KM_PTRS_PER_PTE - 1));
}
#define pte_unmap(pte) ((void)(pte))

/* custom: the pte bits of the model (kmodel/mm.h KM_PTE_*) */
static inline int pte_present(pte_t pte) { return (pte & KM_PTE_PRESENT) != 0; }
static inline int pte_young(pte_t pte) { return (pte & KM_PTE_YOUNG) != 0; }
static inline int pte_write(pte_t pte) { return (pte & KM_PTE_WRITE) != 0; }
static inline int pte_dirty(pte_t pte) { return (pte & KM_PTE_DIRTY) != 0; }
/* custom: the pfn field of the model's pte */
static inline unsigned long pte_pfn(pte_t pte) { return (unsigned long)(pte >> KM_PTE_PFN_SHIFT); }

#endif
