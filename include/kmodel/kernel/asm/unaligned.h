/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel compatibility layer: <asm/unaligned.h> (v3.5 .. v6.11; v6.12 moved
 * it to <linux/unaligned.h>, which includes this file).
 *
 * duplicate in effect (include/linux/unaligned/le_byteshift.h and
 * be_byteshift.h, v3.5; v5.7's __get_unaligned_t() loads the same bytes):
 * little- and big-endian loads and stores at any alignment.
 * custom: each store goes through km_skb_compat_memcpy(), so the skb
 * sharing checker sees a driver's put_unaligned_le32() into an skb buffer
 * as it sees a memcpy() there, and it counts in memcpy_bytes as the
 * skb_copy_to_linear_data() that drivers of v3.5 used for the same header.
 */
#ifndef KM_COMPAT_ASM_UNALIGNED_H
#define KM_COMPAT_ASM_UNALIGNED_H

#include <linux/types.h>
#include <kmodel/skb.h>
#include <kmodel/usb.h>	/* km_compat_rx_step() */

/* custom: a load is a step of a receive loop and a read the receive
 * path's KM_R_RX_READ_PAST checker sees (km_compat_rx_step(): nothing
 * outside a driver's rx_fixup) */
static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = p;

	km_compat_rx_step(p, 2);
	return (u16)(b[0] | b[1] << 8);
}
static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	km_compat_rx_step(p, 4);
	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}
static inline u64 get_unaligned_le64(const void *p)
{
	const u8 *b = p;

	return (u64)get_unaligned_le32(b + 4) << 32 | get_unaligned_le32(b);
}
static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] << 8 | b[1]);
}
static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | (u32)b[3];
}

static inline void put_unaligned_le16(u16 val, void *p)
{
	u8 b[2] = { (u8)val, (u8)(val >> 8) };

	km_skb_compat_memcpy(p, b, sizeof(b));
}
static inline void put_unaligned_le32(u32 val, void *p)
{
	u8 b[4] = { (u8)val, (u8)(val >> 8), (u8)(val >> 16), (u8)(val >> 24) };

	km_skb_compat_memcpy(p, b, sizeof(b));
}
static inline void put_unaligned_le64(u64 val, void *p)
{
	u8 b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (u8)(val >> (8 * i));
	km_skb_compat_memcpy(p, b, sizeof(b));
}
static inline void put_unaligned_be16(u16 val, void *p)
{
	u8 b[2] = { (u8)(val >> 8), (u8)val };

	km_skb_compat_memcpy(p, b, sizeof(b));
}
static inline void put_unaligned_be32(u32 val, void *p)
{
	u8 b[4] = { (u8)(val >> 24), (u8)(val >> 16), (u8)(val >> 8), (u8)val };

	km_skb_compat_memcpy(p, b, sizeof(b));
}

#endif
