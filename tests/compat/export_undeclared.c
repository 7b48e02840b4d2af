// SPDX-License-Identifier: GPL-2.0
/*
 * EXPORT_SYMBOL() of a name nothing declares: the layer's <linux/export.h>
 * begins as the kernel's CONFIG_MODULES form, `extern typeof(sym) sym;`
 * (include/linux/export.h, v3.5 and v5.7), so this must not compile
 * (tests/CMakeLists.txt expects the compiler to name it undeclared; d7d0dcd).
 */
#include <linux/export.h>

EXPORT_SYMBOL(km_never_declared);
