// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin whose variant ports copy_from_user alone (direct's raw copy
 * stands for the port): no raw_copy_to_user. The registry completes it with
 * direct's, and the tools say so on stderr (tests/kunit_cli.sh).
 */
#include <kmodel/kmodel.h>

static unsigned long from_only_from(void *to, unsigned long from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_from_user(to, from, n);
}

static const struct km_uaccess_ops from_only = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "from_only",
	.summary = "copy_from_user only: copy_to_user is direct's",
	.source = "tests/plugins/from_only.c",
	.claims_conformance = true,
	.raw_copy_from_user = from_only_from,
};

KM_PLUGIN_INIT(reg)
{
	return km_registry_add_uaccess(reg, &from_only);
}
