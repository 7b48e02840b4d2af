// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin whose variant claims conformance, copies correctly, and leaks a
 * page reference only on the second page of a copy_to_user: the shape of a
 * fast path that looks the ptes up first (as pin_page_for_write() does,
 * arch/arm/lib/uaccess_with_memcpy.c), takes a reference on each page whose
 * pte is present and writable, copies, and forgets the put_page() of the
 * second. Copies whose pages are not all resident and writable take the
 * plain path (direct's, which faults them in). The conformance suite sees
 * the leak only if a copy_to_user crosses from one resident writable page
 * into another: its "adjacent" edge (tests/check_cli.sh, and
 * test_conformance.c, which includes this file with LEAK_SECOND_NO_PLUGIN).
 */
#include <kmodel/kmodel.h>

static unsigned long leak_second_from(void *to, unsigned long from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_from_user(to, from, n);
}

static unsigned long leak_second_to(unsigned long to, const void *from, unsigned long n)
{
	struct km_task *t = km_current();
	struct km_machine *m = t ? km_task_machine(t) : NULL;
	unsigned long P = m ? km_page_size(m) : 0, first, last;
	struct km_page *pages[2];
	unsigned long nr = 0, left;

	if (!m || !n || to + n < to)
		return km_uaccess_direct.raw_copy_to_user(to, from, n);
	first = to & ~(P - 1);
	last = (to + n - 1) & ~(P - 1);
	if (last - first > P)		/* more than two pages: the plain path */
		return km_uaccess_direct.raw_copy_to_user(to, from, n);
	for (unsigned long a = first; a <= last; a += P, nr++) {
		unsigned int flags;

		if (km_follow_pte(km_task_mm(t), a, &flags, &pages[nr]) || !(flags & KM_PTE_WRITE))
			break;
	}
	if (nr != (last - first) / P + 1)	/* not all resident and writable */
		return km_uaccess_direct.raw_copy_to_user(to, from, n);
	for (unsigned long i = 0; i < nr; i++)
		km_get_page(m, pages[i]);
	left = km_uaccess_direct.raw_copy_to_user(to, from, n);
	km_put_page(m, pages[0]);	/* pages[1]: leaked */
	return left;
}

static const struct km_uaccess_ops leak_second = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "leak_second",
	.summary = "direct, leaking a reference on the second resident page of a copy_to_user",
	.source = "tests/plugins/leak_second.c",
	.claims_conformance = true,
	.raw_copy_from_user = leak_second_from,
	.raw_copy_to_user = leak_second_to,
};

#ifndef LEAK_SECOND_NO_PLUGIN
KM_PLUGIN_INIT(reg)
{
	return km_registry_add_uaccess(reg, &leak_second);
}
#endif
