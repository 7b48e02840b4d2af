// SPDX-License-Identifier: GPL-2.0
/*
 * A variant written as 6.8 kernel code, compiled through the layer at
 * KERNEL_VERSION 6.8: its copy_to_user maps the destination's first page
 * with kmap_local_page() (mm/highmem.c, v5.11 and later) around direct's
 * copy when the page is resident. kmodel-check takes the kmap era from
 * the plugin's KMODEL_KERNEL_VERSION (kmodel_kernel_version, exported by
 * the layer's <linux/version.h>): it runs on kmap_local machines without
 * --kmap 5.11 and passes; --kmap pre-5.11 fails it on the era's BUG
 * reports (tests/kunit_cli.sh).
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <kmodel/registry.h>

static unsigned long from68(void *to, unsigned long from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_from_user(to, from, n);
}

static unsigned long to68(unsigned long to, const void *from, unsigned long n)
{
	struct km_page *page;
	unsigned long left;
	void *v;

	if (!n || km_follow_pte(km_task_mm(km_current()), to, NULL, &page))
		return km_uaccess_direct.raw_copy_to_user(to, from, n);
	v = kmap_local_page((struct page *)page);
	left = km_uaccess_direct.raw_copy_to_user(to, from, n);
	kunmap_local(v);
	return left;
}

static const struct km_uaccess_ops kmap_local_68 = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "kmap_local_68",
	.summary = "direct inside kmap_local_page() of the first destination page (6.8 code)",
	.source = "tests/plugins/kmap_local_68.c",
	.claims_conformance = true,
	.raw_copy_from_user = from68,
	.raw_copy_to_user = to68,
};

KM_PLUGIN_INIT(reg)
{
	return km_registry_add_uaccess(reg, &kmap_local_68);
}
