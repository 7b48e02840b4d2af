/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <asm/unaligned.h> (little-endian ARM target) */
#ifndef KM_COMPAT_ASM_UNALIGNED_H
#define KM_COMPAT_ASM_UNALIGNED_H

#include <string.h>
#include <linux/types.h>
#include <kmodel/skb.h>

/* custom: put_unaligned_le32() stores 4 little-endian bytes; the store goes
 * through km_skb_compat_memcpy(), so a store into an skb buffer passes the
 * sharing checker like any other write of ported skb code
 * (include/linux/unaligned/le_byteshift.h, v3.5 and mainline semantics) */
static inline void put_unaligned_le32(u32 val, void *p)
{
	unsigned char b[4] = { (unsigned char)val, (unsigned char)(val >> 8),
			       (unsigned char)(val >> 16), (unsigned char)(val >> 24) };

	km_skb_compat_memcpy(p, b, 4);
}

static inline void put_unaligned_le16(u16 val, void *p)
{
	unsigned char b[2] = { (unsigned char)val, (unsigned char)(val >> 8) };

	km_skb_compat_memcpy(p, b, 2);
}

/* duplicate: loads need no check */
static inline u32 get_unaligned_le32(const void *p)
{
	const unsigned char *b = p;

	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

#endif
