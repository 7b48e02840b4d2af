/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/types.h> */
#ifndef KM_COMPAT_LINUX_TYPES_H
#define KM_COMPAT_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* duplicate in effect (include/linux/types.h, v5.7; v3.5 the same): bool
 * and size_t, which the kernel's <linux/types.h> typedefs itself */

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
/* duplicate (include/asm-generic/int-ll64.h, v5.7; v3.5 the same, ARM
 * included): the kernel integer types are the __ ones, so u64 and s64 are
 * long long on every architecture and print with %llu/%lld (uint64_t, a
 * long on a 64-bit host, made pr_info("%llu", u64) a -Wformat error) */
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;
/* the sparse-checked __le/__be types are plain integers here (no sparse) */
typedef uint16_t __le16;
typedef uint32_t __le32;
typedef __u64 __le64;	/* as the kernel: __u64 __bitwise */
typedef uint16_t __be16;
typedef uint32_t __be32;
/* duplicate (include/linux/types.h, v3.6; __bitwise a no-op): the
 * checksum types of <net/checksum.h> -- a 32-bit partial sum and a folded
 * 16-bit checksum */
typedef __u16 __sum16;
typedef __u32 __wsum;

/* duplicate (include/asm-generic/bitsperlong.h, v5.7): the modelled ARM
 * is 32-bit -- the kernel's long, not the host's (64 on this host, whose
 * sizeof(long) the code still sees: only what names BITS_PER_LONG follows
 * ARM) */
#define BITS_PER_LONG 32
#define BITS_PER_LONG_LONG 64

#endif
