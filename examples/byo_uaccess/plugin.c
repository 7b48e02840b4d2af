// SPDX-License-Identifier: GPL-2.0
/*
 * The plugin around my_copy.c: an ops table for the model and the entry
 * point kmodel-check and kmodel-bench call when given --load.
 */
#include <kmodel/kmodel.h>

unsigned long my_raw_copy_from_user(void *to, unsigned long from, unsigned long n);
unsigned long my_raw_copy_to_user(unsigned long to, const void *from, unsigned long n);

static const struct km_uaccess_ops page_copy_ops = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "page_copy",
	.summary = "out-of-tree example: pin, kmap_atomic, memcpy a page at a time",
	.source = "examples/byo_uaccess/my_copy.c",
	.claims_conformance = true,
	.raw_copy_from_user = my_raw_copy_from_user,
	.raw_copy_to_user = my_raw_copy_to_user,
};

KM_PLUGIN_INIT(reg)
{
	return km_registry_add_uaccess(reg, &page_copy_ops);
}
