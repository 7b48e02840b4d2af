/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <net/checksum.h> (v3.6 brings
 * <asm/checksum.h>; <linux/skbuff.h> brings this) */
#ifndef KM_COMPAT_NET_CHECKSUM_H
#define KM_COMPAT_NET_CHECKSUM_H

#include <linux/types.h>
#include <asm/checksum.h>

#endif
