/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/export.h> */
#ifndef KM_COMPAT_LINUX_EXPORT_H
#define KM_COMPAT_LINUX_EXPORT_H

#include <linux/compiler.h>

/* stub (include/linux/export.h, v3.5 and v5.7): there is no module loader,
 * so nothing is exported. What the kernel's CONFIG_MODULES form starts
 * with stays: `extern typeof(sym) sym;`, so exporting a name that is not
 * declared does not build. */
#define EXPORT_SYMBOL(sym) extern typeof(sym) sym
#define EXPORT_SYMBOL_GPL(sym) extern typeof(sym) sym

#endif
