/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <asm/byteorder.h> (little-endian ARM target) */
#ifndef KM_COMPAT_ASM_BYTEORDER_H
#define KM_COMPAT_ASM_BYTEORDER_H

#include <endian.h>
#include <linux/types.h>
#include <kmodel/usb.h>	/* km_compat_rx_step() */

/* custom: the target is little-endian (ARM EABI, as the BeagleBone); the
 * conversions use the host's <endian.h>, so they stay right on a
 * big-endian host (include/linux/byteorder/generic.h, v3.5, semantics) */
#define cpu_to_le32(x) ((__le32)htole32((u32)(x)))
#define le32_to_cpu(x) ((u32)le32toh((__le32)(x)))
#define cpu_to_le16(x) ((__le16)htole16((u16)(x)))
#define le16_to_cpu(x) ((u16)le16toh((__le16)(x)))
#define cpu_to_le64(x) ((__le64)htole64((u64)(x)))
#define le64_to_cpu(x) ((u64)le64toh((__le64)(x)))
#define cpu_to_le32s(p) do { *(p) = htole32(*(p)); } while (0)
/* custom: le32_to_cpus() reads (and stores back) 4 bytes: a step of a
 * receive loop and a read the KM_R_RX_READ_PAST checker sees (ax88179's
 * descriptors are converted in the URB's buffer) */
#define le32_to_cpus(p) do { km_compat_rx_step((p), 4); *(p) = le32toh(*(p)); } while (0)

/* custom: le64_to_cpup() (include/linux/byteorder/generic.h, v3.5; the
 * kernel's __le64_to_cpup() dereferences @p) reads 8 bytes: a step of a
 * receive loop and a read the KM_R_RX_READ_PAST checker sees (aqc111's
 * rx_fixup reads its descriptor header at the skb's tail and each packet
 * descriptor in the URB's buffer). Loaded byte by byte: a descriptor
 * there need not be 8-byte aligned on the host. */
static inline u64 le64_to_cpup(const __le64 *p)
{
	const u8 *b = (const u8 *)p;
	u64 v = 0;

	km_compat_rx_step(p, 8);
	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

#endif
