/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/hugetlb.h>. stub: the model has no
 * huge pages (pmd_thp_or_huge() is 0 in <asm/pgtable.h>) */
#include <asm/pgtable.h>
