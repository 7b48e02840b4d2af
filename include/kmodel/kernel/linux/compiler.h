/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/compiler.h> */
#ifndef KM_COMPAT_LINUX_COMPILER_H
#define KM_COMPAT_LINUX_COMPILER_H

#include <linux/version.h>	/* KMODEL_KERNEL_VERSION, for every header */
#include <linux/kconfig.h>	/* the configuration, for every header */
/* as v5.7's <linux/compiler.h> brings <uapi/linux/types.h> (for
 * READ_ONCE()), whose <asm/types.h> is, in a kernel build,
 * include/asm-generic/int-ll64.h with u8 .. s64: so every layer header
 * that reaches this one has the kernel's types. v3.5's
 * compiler.h did not; its headers reached <linux/types.h> other ways. */
#include <linux/types.h>

/* stub: sparse annotations */
#define __user
#define __force
#define __must_check __attribute__((warn_unused_result))
/* duplicate (include/linux/compiler_attributes.h, v5.7) */
#define noinline __attribute__((__noinline__))
#undef __always_inline	/* glibc's <sys/cdefs.h> has one of the same meaning */
#define __always_inline inline __attribute__((__always_inline__))
#define __maybe_unused __attribute__((__unused__))
#define __always_unused __attribute__((__unused__))
#define __used __attribute__((__used__))
/* duplicate (include/linux/compiler.h, v5.7) */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __same_type(a, b) __builtin_types_compatible_p(typeof(a), typeof(b))
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), "BUILD_BUG_ON: " #cond)

#endif
