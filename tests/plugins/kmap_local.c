// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin whose variant is code of the kmap_local era (v5.11 and later):
 * its copy_to_user maps the destination's first page with
 * kmap_local_page() (mm/highmem.c, v5.11) around direct's copy when the
 * page is resident, as a port of 5.11 code would. On a machine of that era
 * (kmodel-check --kmap 5.11) it conforms; on the default pre-5.11 machines
 * each map is a BUG report (the code is of a later kernel than the
 * machine), which fails it -- and the mapping is still usable, so the run
 * goes on (tests/check_cli.sh).
 */
#include <kmodel/kmodel.h>

static unsigned long kmap_local_from(void *to, unsigned long from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_from_user(to, from, n);
}

static unsigned long kmap_local_to(unsigned long to, const void *from, unsigned long n)
{
	struct km_task *t = km_current();
	struct km_page *page;
	unsigned long left;
	void *v;

	if (!t || !n || km_follow_pte(km_task_mm(t), to, NULL, &page))
		return km_uaccess_direct.raw_copy_to_user(to, from, n);
	v = km_kmap_local_page(t, page);
	left = km_uaccess_direct.raw_copy_to_user(to, from, n);
	km_kunmap_local(t, v);
	return left;
}

static const struct km_uaccess_ops kmap_local = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "kmap_local",
	.summary = "direct inside kmap_local_page() of the first destination page (5.11 code)",
	.source = "tests/plugins/kmap_local.c",
	.claims_conformance = true,
	.raw_copy_from_user = kmap_local_from,
	.raw_copy_to_user = kmap_local_to,
};

/* a port with the classic flaw -- kmap_local_page() of the
 * NULL pages[0] that a failed gup left -- where the destination page is
 * not resident, writing at the offset: the host crashed (SIGSEGV, no
 * output); now a bad_page BUG per copy, and kmodel-check prints its row */
static unsigned long kmap_null_to(unsigned long to, const void *from, unsigned long n)
{
	struct km_task *t = km_current();
	unsigned char *v;

	if (!t || !n || !km_follow_pte(km_task_mm(t), to, NULL, NULL))
		return kmap_local_to(to, from, n);
	v = km_kmap_local_page(t, NULL);
	v[to & (km_page_size(km_task_machine(t)) - 1)] = *(const unsigned char *)from;
	km_kunmap_local(t, v);
	return km_uaccess_direct.raw_copy_to_user(to, from, n);
}

static const struct km_uaccess_ops kmap_null = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "kmap_null",
	.summary = "kmap_local_page(NULL) and a write there when the destination is not resident",
	.source = "tests/plugins/kmap_local.c",
	.claims_conformance = true,
	.raw_copy_from_user = kmap_local_from,
	.raw_copy_to_user = kmap_null_to,
};

KM_PLUGIN_INIT(reg)
{
	int err = km_registry_add_uaccess(reg, &kmap_local);

	return err ? err : km_registry_add_uaccess(reg, &kmap_null);
}
