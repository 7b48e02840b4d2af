// SPDX-License-Identifier: GPL-2.0
/*
 * The BYO-1 device as libkmodel runs it at the far end of the bulk-out
 * pipe: it collects each transfer's packets, checks the 2-byte length
 * against what arrived and hands the frame on. And the plugin that
 * registers the driver (byo_fixup.c) with this device as the usbnet
 * variant "byo1" for kmodel-bench --load.
 */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BYO_MAX 2048	/* a transfer: 2 + at most 1514 bytes, with room to spare */

extern const struct km_usbnet_driver_info byo_driver_info;

struct byo_dev {
	struct km_machine *m;
	km_usbnet_frame_fn fn;
	void *arg;
	uint8_t buf[BYO_MAX];
	size_t have;		/* bytes of the current transfer */
	bool overflow;
	struct km_usbnet_dev_stats st;
};

/* one USB packet; a short one (or a ZLP) ends the transfer */
static void byo_packet(void *priv, const uint8_t *data, size_t len, bool end_of_transfer)
{
	struct byo_dev *d = priv;
	size_t flen;

	if (d->have + len > BYO_MAX)
		d->overflow = true;
	else
		memcpy(d->buf + d->have, data, len);
	d->have += len;
	if (!end_of_transfer)
		return;
	d->st.transfers++;
	flen = d->have >= 2 ? (size_t)(d->buf[0] | d->buf[1] << 8) : 0;
	if (d->overflow || d->have < 2 || flen != d->have - 2) {
		d->st.bad_headers++;
		km_report(d->m, KM_WARN, KM_R_USB_PROTOCOL,
			  "BYO-1: a %zu-byte transfer whose header says %zu", d->have, flen);
	} else {
		d->st.frames++;
		d->st.frame_bytes += flen;
		d->fn(d->arg, d->buf + 2, flen);
	}
	d->have = 0;
	d->overflow = false;
}

/* @size: the library's sizeof(struct km_usbnet_dev_stats), which may differ
 * from this file's: km_usbnet_dev_stats_put() copies what both know */
static void byo_stats(const void *priv, struct km_usbnet_dev_stats *out, size_t size)
{
	km_usbnet_dev_stats_put(out, size, &((const struct byo_dev *)priv)->st);
}

static int byo_dev_new(struct km_machine *m, km_usbnet_frame_fn fn, void *arg,
		       struct km_usbnet_dev *out)
{
	struct byo_dev *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	d->m = m;
	d->fn = fn;
	d->arg = arg;
	*out = (struct km_usbnet_dev){ .priv = d, .sink = { .packet = byo_packet, .priv = d },
				       .get_stats = byo_stats, .free = free };
	return 0;
}

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
	.dev_new = byo_dev_new,
	.endpoints = byo_endpoints,
};

KM_PLUGIN_INIT(reg)
{
	return km_registry_add_usbnet(reg, &byo1);
}
