/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <asm/pgtable.h>. stub: ported code reaches
 * page tables only through get_user_pages_fast() and kmap_atomic(). */
#ifndef KM_COMPAT_ASM_PGTABLE_H
#define KM_COMPAT_ASM_PGTABLE_H
#include <asm/page.h>
#endif
