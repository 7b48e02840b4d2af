/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/types.h> */
#ifndef KM_COMPAT_LINUX_TYPES_H
#define KM_COMPAT_LINUX_TYPES_H

#include <stdint.h>

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
typedef uint16_t __le16;
typedef uint32_t __le32;
typedef uint16_t __be16;
typedef uint32_t __be32;

#endif
