/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/ctype.h>. stub: nothing ported uses it */
