/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/unaligned.h> (v6.12 and later; the
 * same functions as <asm/unaligned.h>) */
#include <asm/unaligned.h>
