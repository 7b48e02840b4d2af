/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/gfp.h>: the gfp flags are in <linux/slab.h> */
#include <linux/slab.h>
