// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin for test_registry, built three ways (tests/CMakeLists.txt):
 * plugin_ok registers a uaccess and a usbnet variant; plugin_fail registers
 * one, then fails (its second add is a duplicate); plugin_fail_quiet fails
 * with -ENOMEM without a message (km_err()); plugin_abi claims another
 * KM_PLUGIN_ABI.
 */
#include <errno.h>
#include <kmodel/kmodel.h>

#ifdef PLUGIN_BAD_ABI
#undef KM_PLUGIN_ABI
#define KM_PLUGIN_ABI 999
#endif

static unsigned long from_user(void *to, unsigned long from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_from_user(to, from, n);
}

static unsigned long to_user(unsigned long to, const void *from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_to_user(to, from, n);
}

static const struct km_uaccess_ops plugin_ops = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "plugin_direct",
	.summary = "the direct variant, called through a plugin",
	.source = "tests/plugins/plugin.c",
	.claims_conformance = true,
	.raw_copy_from_user = from_user,
	.raw_copy_to_user = to_user,
};

KM_PLUGIN_INIT(reg)
{
#ifdef PLUGIN_FAIL_QUIET
	(void)reg;
	(void)plugin_ops;
	return -ENOMEM;
#else
	int err = km_registry_add_uaccess(reg, &plugin_ops);

	if (err)
		return err;
#ifdef PLUGIN_FAIL
	return km_registry_add_uaccess(reg, &plugin_ops);	/* -EEXIST */
#else
	static struct km_usbnet_variant plugin_usbnet;

	plugin_usbnet = *km_usbnet_find("after");
	plugin_usbnet.size = KM_USBNET_VARIANT_SIZE;	/* the library's may be larger (usb.h) */
	plugin_usbnet.name = "plugin_after";
	return km_registry_add_usbnet(reg, &plugin_usbnet);
#endif
#endif
}
