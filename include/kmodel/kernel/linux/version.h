/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel compatibility layer: <linux/version.h>, and the layer's kernel
 * version selector.
 *
 * KMODEL_KERNEL_VERSION picks the kernel whose API the layer offers where
 * it changed: which signature a function has (get_user_pages_fast() took
 * `int write` before v5.2, skb_push() returned unsigned char * before
 * v4.13, usb_maxpacket() had three arguments before v5.19, ...) and which
 * names exist (kmap_local_page() only from v5.11). Define it before the
 * first kernel header, as KERNEL_VERSION(a, b, c) or its value:
 * kmodel_kernel_sources(KERNEL_VERSION a.b ...) of the CMake package does,
 * per source file. Default: KERNEL_VERSION(5, 7, 0), the kernel the 2020
 * RFC was written against; the built-in v3.5 ports (asix) select 3.5.
 * It changes what the ported code sees, not how the model behaves (that is
 * the machine's configuration and the usbnet variant's era). README.md
 * lists every name with the versions it follows.
 */
#ifndef KM_COMPAT_LINUX_VERSION_H
#define KM_COMPAT_LINUX_VERSION_H

/* duplicate (include/generated/uapi/linux/version.h, v5.7) */
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))

#ifndef KMODEL_KERNEL_VERSION
#define KMODEL_KERNEL_VERSION KERNEL_VERSION(5, 7, 0)
#endif
#define LINUX_VERSION_CODE KMODEL_KERNEL_VERSION

/* an identifier is 0 in #if, and so is an empty value with the + 0: both
 * are told apart from a version too old (foo was "v3.5 and
 * later") */
#if (KMODEL_KERNEL_VERSION + 0) == 0
#error "KMODEL_KERNEL_VERSION is empty, 0 or not a number: want KERNEL_VERSION(a, b, c) or its value, e.g. KERNEL_VERSION(5, 7, 0)"
#elif KMODEL_KERNEL_VERSION < KERNEL_VERSION(3, 5, 0)
#error "KMODEL_KERNEL_VERSION: the compatibility layer follows v3.5 and later"
#endif

/* custom: the version a plugin was compiled at, for the tools (a plugin of
 * 5.11 or later gets a kmap_local machine unless --kmap says otherwise:
 * km_kunit_module_kernel_version(), km_registry_kernel_version()). Weak:
 * the files of one plugin share one definition, the first linked. */
__attribute__((weak, visibility("default"))) const unsigned int kmodel_kernel_version =
	KMODEL_KERNEL_VERSION;

#endif
