// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin with a flawed usbnet variant for tests/bench_cli.sh: "flip_last"
 * is the "after" driver (asix_tx_fixup() of v3.6) whose tx_fixup then
 * inverts the frame's last byte in place. The device gets a frame that does
 * not verify (its last byte differs); where that byte lies in a buffer the
 * driver may not write -- a TCP segment is a clone whose payload the queued
 * original shares -- the sharing checker reports skb_write_cloned too (the
 * write is still done: the checker observes).
 */
#include <errno.h>
#include <kmodel/kmodel.h>

static const struct km_usbnet_variant *after;

static struct km_skb *flip_tx_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t flags)
{
	skb = after->info->tx_fixup(dev, skb, flags);
	if (skb && skb->len) {
		unsigned char *last = skb->data + skb->len - 1;

		km_skb_check_write(skb, last, 1);
		*last ^= 0xff;
	}
	return skb;
}

static struct km_usbnet_driver_info flip_info;
static struct km_usbnet_variant flip_last;

KM_PLUGIN_INIT(reg)
{
	after = km_usbnet_find("after");
	if (!after)
		return -ENOENT;
	flip_info = *after->info;
	flip_info.tx_fixup = flip_tx_fixup;
	flip_last = *after;
	flip_last.size = KM_USBNET_VARIANT_SIZE;	/* the library's may be larger (usb.h) */
	flip_last.name = "flip_last";
	flip_last.summary = "after, then the frame's last byte inverted in place";
	flip_last.source = "tests/plugins/flip_tx.c";
	flip_last.info = &flip_info;
	return km_registry_add_usbnet(reg, &flip_last);
}
