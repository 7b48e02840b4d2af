// SPDX-License-Identifier: GPL-2.0
/*
 * The glue that registers the driver (byo_fixup.c) as the usbnet variant
 * "byo1" for kmodel-bench --load: the BYO-1 device is described, not
 * written. Its framing -- a 2-byte little-endian length before each frame
 * -- is a struct km_framing, and with no .dev_new libkmodel's parser of
 * that framing is the device at the far end of the bulk-out pipe
 * (km_framing_dev_new(): it checks each length against what arrived and
 * hands the frame on).
 */
#include <kmodel/kmodel.h>

extern const struct km_usbnet_driver_info byo_driver_info;

static const struct km_framing byo_framing = {
	.kind = KM_FRAMING_LENGTH, .hdr_bytes = 2, .len_bits = 16,
	.max_frame = 1518,	/* ETH_FRAME_LEN + VLAN_HLEN */
};

/* the (speed, maxpacket) pairs a USB 2.0 device offers for bulk */
static const struct km_usb_ep_cfg byo_endpoints[] = {
	{ KM_USB_SPEED_HIGH, 512 }, { KM_USB_SPEED_FULL, 64 }, { 0, 0 },
};

static const struct km_usbnet_variant byo1 = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "byo1",
	.summary = "out-of-tree example: BYO-1, a 2-byte length before each frame",
	.source = "examples/byo_tx_fixup/byo_fixup.c",
	.info = &byo_driver_info,
	.era = KM_USBNET_MAINLINE,
	.endpoints = byo_endpoints,
	.framing = &byo_framing,	/* and no .dev_new: the library's parser of it */
};

KM_PLUGIN_INIT(reg)
{
	return km_registry_add_usbnet(reg, &byo1);
}
