/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <asm/page.h> */
#ifndef KM_COMPAT_ASM_PAGE_H
#define KM_COMPAT_ASM_PAGE_H

#include <linux/kernel.h>

/* custom: the page size is the current machine's (4, 16 or 64 KiB), so
 * these are run-time values rather than constants */
KM_API unsigned long km_current_page_size(void);
KM_API unsigned int km_current_page_shift(void);
#define PAGE_SIZE (km_current_page_size())
#define PAGE_SHIFT (km_current_page_shift())
/* duplicate (include/asm-generic/page.h, include/linux/mm.h, v5.7) */
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_ALIGN(addr) (((addr) + PAGE_SIZE - 1) & PAGE_MASK)

#endif
