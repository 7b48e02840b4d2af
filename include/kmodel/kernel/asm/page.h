/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <asm/page.h> */
#ifndef KM_COMPAT_ASM_PAGE_H
#define KM_COMPAT_ASM_PAGE_H

#include <linux/kernel.h>

/* custom: the page size is the current machine's (4, 16 or 64 KiB), so
 * PAGE_SHIFT is a run-time value: the thread-local page shift of current
 * (0 with no current task; the ops adapters check for one first).
 * PAGE_SIZE is spelt as a shift so that x / PAGE_SIZE compiles to a shift,
 * as it does with the kernel's constant, not to a division.
 * PAGE_ALIGN(): the kernel's ALIGN(addr, PAGE_SIZE), written out. */
#define PAGE_SHIFT (km_current_page_shift_v)
#define PAGE_SIZE (1UL << PAGE_SHIFT)
/* duplicate (include/asm-generic/page.h, include/linux/mm.h, v5.7) */
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_ALIGN(addr) (((addr) + PAGE_SIZE - 1) & PAGE_MASK)

#endif
