// SPDX-License-Identifier: GPL-2.0
/*
 * EXPORT (EXPORT_SYMBOL or EXPORT_SYMBOL_GPL, tests/CMakeLists.txt) of a
 * name nothing declares: the layer's <linux/export.h> begins as the
 * kernel's CONFIG_MODULES form, `extern typeof(sym) sym;`
 * (include/linux/export.h, v3.5 and v5.7), so this must not compile (the
 * compiler names it undeclared; d7d0dcd).
 */
#include <linux/export.h>

EXPORT(km_never_declared);
