// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin with a receive-only usbnet variant for tests/rx_only_cli.sh:
 * "rx_only" is ax88179 (its rx_fixup and framing) with no tx_fixup and no
 * device model, as a new user's port of an rx_fixup starts out. usbnet has
 * tx_fixup optional (usbnet_start_xmit(), drivers/net/usb/usbnet.c), so it
 * registers; kmodel-sweep rx runs it, the tx sweep and iperf leave it out.
 */
#include <errno.h>
#include <kmodel/kmodel.h>

static struct km_usbnet_driver_info rx_info;
static struct km_usbnet_variant rx_only;

KM_PLUGIN_INIT(reg)
{
	const struct km_usbnet_variant *ax = km_usbnet_find("ax88179");

	if (!ax)
		return -ENOENT;
	rx_info = *ax->info;
	rx_info.tx_fixup = NULL;
	rx_only = *ax;
	rx_only.size = KM_USBNET_VARIANT_SIZE;	/* the library's may be larger (usb.h) */
	rx_only.name = "rx_only";
	rx_only.summary = "ax88179's rx_fixup, no tx_fixup, no device model";
	rx_only.source = "tests/plugins/rx_only.c";
	rx_only.rx_source = NULL;	/* a new port's: not said yet */
	rx_only.info = &rx_info;
	rx_only.dev_new = NULL;
	return km_registry_add_usbnet(reg, &rx_only);
}
