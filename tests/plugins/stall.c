// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin whose variant copies nothing in atomic context: its
 * copy_from_user returns n when faulthandler_disabled(), as gup_kmap_fixed
 * did without fast GUP before its pte-lock walk (__get_user_pages_fast()
 * pins nothing there). generic_perform_write() would retry for ever on it:
 * kmodel-bench shows its dd rows as stalled (tests/bench_cli.sh). Each
 * refused copy first records a sleep in atomic context, as a variant
 * that tried the sleeping get_user_pages() there would: a stalled row
 * still shows the reports recorded until its stall.
 */
#include <kmodel/kmodel.h>

static unsigned long from_user(void *to, unsigned long from, unsigned long n)
{
	struct km_task *t = km_current();

	if (km_preempt_count(t) || km_pagefault_disabled(t)) {
		km_task_sleep_in_atomic(t, "tests/plugins/stall.c");
		return n;
	}
	return km_uaccess_direct.raw_copy_from_user(to, from, n);
}

static unsigned long to_user(unsigned long to, const void *from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_to_user(to, from, n);
}

static const struct km_uaccess_ops stall = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "stall",
	.summary = "direct, but copy_from_user copies nothing with page faults disabled "
		   "(and reports a sleep in atomic context)",
	.source = "tests/plugins/stall.c",
	.claims_conformance = false,
	.raw_copy_from_user = from_user,
	.raw_copy_to_user = to_user,
};

KM_PLUGIN_INIT(reg)
{
	return km_registry_add_uaccess(reg, &stall);
}
