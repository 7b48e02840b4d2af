/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/bitops.h> (<linux/kernel.h> brings it,
 * as the kernel's does) */
#ifndef KM_COMPAT_LINUX_BITOPS_H
#define KM_COMPAT_LINUX_BITOPS_H

#include <linux/types.h>	/* as every kernel header brings it */

/* duplicate (include/linux/bitops.h, v3.6; include/linux/bits.h from
 * v4.19, which bitops.h includes): an unsigned long, so BIT(31) is
 * 0x80000000 as on 32-bit ARM (BIT(32) and up exist only on the 64-bit
 * host) */
#define BIT(nr) (1UL << (nr))
#define BITS_PER_BYTE 8

#endif
