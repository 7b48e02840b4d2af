// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin whose variant claims conformance and copies correctly but
 * leaks a page reference on every copy_from_user that copied something
 * (get_user_pages_fast() without put_page()): every case passes the four
 * checks, and only the machines' teardown check sees the leak. kmodel-check
 * must fail it (tests/check_cli.sh).
 */
#include <kmodel/kmodel.h>

static unsigned long from_user(void *to, unsigned long from, unsigned long n)
{
	unsigned long left = km_uaccess_direct.raw_copy_from_user(to, from, n);
	struct km_page *page;

	if (left < n)	/* leaked: no km_put_page() */
		(void)km_get_user_pages_fast(km_current(), from, 1, 0, &page);
	return left;
}

static unsigned long to_user(unsigned long to, const void *from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_to_user(to, from, n);
}

static const struct km_uaccess_ops leaky = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "leaky",
	.summary = "direct, leaking a page reference per copy_from_user",
	.source = "tests/plugins/leaky.c",
	.claims_conformance = true,
	.raw_copy_from_user = from_user,
	.raw_copy_to_user = to_user,
};

KM_PLUGIN_INIT(reg)
{
	return km_registry_add_uaccess(reg, &leaky);
}
