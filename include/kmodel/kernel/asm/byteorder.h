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
#define cpu_to_le32s(p) do { *(p) = htole32(*(p)); } while (0)
/* custom: le32_to_cpus() reads (and stores back) 4 bytes: a step of a
 * receive loop and a read the KM_R_RX_READ_PAST checker sees (ax88179's
 * descriptors are converted in the URB's buffer) */
#define le32_to_cpus(p) do { km_compat_rx_step((p), 4); *(p) = le32toh(*(p)); } while (0)

#endif
