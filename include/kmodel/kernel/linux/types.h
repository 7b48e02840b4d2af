/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/types.h> */
#ifndef KM_COMPAT_LINUX_TYPES_H
#define KM_COMPAT_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* duplicate in effect (include/linux/types.h, v5.7; v3.5 the same): bool
 * and size_t, which the kernel's <linux/types.h> typedefs itself */

/* duplicate in effect (include/uapi/asm-generic/int-ll64.h, linux/types.h):
 * fixed-width kernel integer types; the sparse-checked __le/__be types are
 * plain integers here (no sparse) */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
/* duplicate (include/uapi/asm-generic/int-ll64.h, v5.7; v3.5 the same):
 * the __-prefixed forms, which <linux/types.h> brings in the kernel too
 * (uapi structs such as struct mii_ioctl_data use them); the same types
 * as the host's <asm/types.h>, so both may meet in one file */
typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef signed short __s16;
typedef signed int __s32;
typedef signed long long __s64;
typedef uint16_t __le16;
typedef uint32_t __le32;
typedef uint16_t __be16;
typedef uint32_t __be32;

#endif
