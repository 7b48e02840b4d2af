// SPDX-License-Identifier: GPL-2.0
/*
 * A DM9601 as the test plugin's far end (tests/plugins/dm9601_tx.c): each
 * bulk-out transfer is a 2-byte little-endian length and that many bytes of
 * frame. The driver counts usbnet's pad byte in the length (len++ when the
 * transfer fills its last packet), so the device hands on frame + pad byte
 * there, which the sweep counts as frame_mismatch: the tests look at the
 * sharing findings only. The variants km_test_dm9601 and km_test_dm9601p
 * (full speed, maxpacket 64: a USB 1.1 device), compiled into test_sweep
 * and test_scenario (a plugin would bring a second libkmodel into those
 * statically linked tests).
 */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DM_MAX 2048

extern const struct km_usbnet_driver_info dm9601_info, dm9601p_info;
extern const struct km_usbnet_variant km_test_dm9601, km_test_dm9601p;

struct dm_dev {
	struct km_machine *m;
	km_usbnet_frame_fn fn;
	void *arg;
	uint8_t buf[DM_MAX];
	size_t have;
	bool overflow;
	struct km_usbnet_dev_stats st;
};

static void dm_packet(void *priv, const uint8_t *data, size_t len, bool end)
{
	struct dm_dev *d = priv;
	size_t flen;

	if (d->have + len > DM_MAX)
		d->overflow = true;
	else
		memcpy(d->buf + d->have, data, len);
	d->have += len;
	if (!end)
		return;
	d->st.transfers++;
	flen = d->have >= 2 ? (size_t)(d->buf[0] | d->buf[1] << 8) : 0;
	if (d->overflow || d->have < 2 || flen > d->have - 2) {
		d->st.bad_headers++;
		km_report(d->m, KM_WARN, KM_R_USB_PROTOCOL,
			  "dm9601: a %zu-byte transfer whose header says %zu", d->have, flen);
	} else {
		d->st.frames++;
		d->st.frame_bytes += flen;
		d->fn(d->arg, d->buf + 2, flen);
	}
	d->have = 0;
	d->overflow = false;
}

static void dm_stats(const void *priv, struct km_usbnet_dev_stats *out, size_t size)
{
	km_usbnet_dev_stats_put(out, size, &((const struct dm_dev *)priv)->st);
}

static int dm_dev_new(struct km_machine *m, km_usbnet_frame_fn fn, void *arg,
		      struct km_usbnet_dev *out)
{
	struct dm_dev *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	d->m = m;
	d->fn = fn;
	d->arg = arg;
	*out = (struct km_usbnet_dev){ .priv = d, .sink = { .packet = dm_packet, .priv = d },
				       .get_stats = dm_stats, .free = free };
	return 0;
}

static const struct km_usb_ep_cfg dm_endpoints[] = { { KM_USB_SPEED_FULL, 64 }, { 0, 0 } };

const struct km_usbnet_variant km_test_dm9601 = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "dm9601",
	.summary = "dm9601_tx_fixup() of v3.6: the header by plain stores",
	.source = "tests/plugins/dm9601_tx.c",
	.info = &dm9601_info,
	.era = KM_USBNET_V3_5,
	.dev_new = dm_dev_new,
	.endpoints = dm_endpoints,
};

const struct km_usbnet_variant km_test_dm9601p = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "dm9601p",
	.summary = "dm9601 with its header by put_unaligned_le16()",
	.source = "tests/plugins/dm9601_tx.c",
	.info = &dm9601p_info,
	.era = KM_USBNET_V3_5,
	.dev_new = dm_dev_new,
	.endpoints = dm_endpoints,
};
