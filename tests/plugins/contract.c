// SPDX-License-Identifier: GPL-2.0
/*
 * copy_from_user contracts by era, for tests/harden_cli.sh and
 * tests/test_contracts.c. Before v4.12 an architecture's copy_from_user()
 * had to zero the bytes it could not copy ("If some data could not be
 * copied, this function will pad the copied data to the requested size
 * using zero bytes"); Al Viro's 2016 series for v4.8 fixed those that did
 * not; from v4.12 raw_copy_from_user() must not zero (the generic
 * _copy_from_user() does, d597580d3737). Each variant is direct's copy:
 * - "cfu_v4_8" (zeroing contract): then zeroes the tail, as the v4.8
 *   fixes made every architecture do: passes;
 * - "cfu_pre_v4_8" (zeroing contract): leaves the tail stale, the bug
 *   the v4.8 series fixed: fails;
 * - "cfu_v4_8_undeclared": cfu_v4_8's copy without the declaration, so
 *   held to the raw contract, which forbids the zeroing: fails.
 */
#include <kmodel/kmodel.h>
#include <string.h>

static unsigned long zeroing_from(void *to, unsigned long from, unsigned long n)
{
	unsigned long left = km_uaccess_direct.raw_copy_from_user(to, from, n);

	if (left && left <= n)
		memset((unsigned char *)to + (n - left), 0, left);
	return left;
}

static unsigned long stale_from(void *to, unsigned long from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_from_user(to, from, n);
}

static unsigned long direct_to(unsigned long to, const void *from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_to_user(to, from, n);
}

static const struct km_uaccess_ops cfu_v4_8 = {
	.size = KM_UACCESS_OPS_SIZE, .name = "cfu_v4_8", .claims_conformance = true,
	.summary = "an arch copy_from_user() of v4.8-v4.11: zeroes its tail",
	.source = "tests/plugins/contract.c", .contract = KM_UACCESS_CONTRACT_ZEROING,
	.raw_copy_from_user = zeroing_from, .raw_copy_to_user = direct_to,
};

static const struct km_uaccess_ops cfu_pre_v4_8 = {
	.size = KM_UACCESS_OPS_SIZE, .name = "cfu_pre_v4_8", .claims_conformance = true,
	.summary = "an arch copy_from_user() before v4.8 that left its tail stale",
	.source = "tests/plugins/contract.c", .contract = KM_UACCESS_CONTRACT_ZEROING,
	.raw_copy_from_user = stale_from, .raw_copy_to_user = direct_to,
};

static const struct km_uaccess_ops cfu_v4_8_undeclared = {
	.size = KM_UACCESS_OPS_SIZE, .name = "cfu_v4_8_undeclared", .claims_conformance = true,
	.summary = "cfu_v4_8 held to the raw contract", .source = "tests/plugins/contract.c",
	.raw_copy_from_user = zeroing_from, .raw_copy_to_user = direct_to,
};

KM_PLUGIN_INIT(reg)
{
	int err = km_registry_add_uaccess(reg, &cfu_v4_8);

	if (!err)
		err = km_registry_add_uaccess(reg, &cfu_pre_v4_8);
	if (!err)
		err = km_registry_add_uaccess(reg, &cfu_v4_8_undeclared);
	return err;
}
