// SPDX-License-Identifier: GPL-2.0
/*
 * The dm9601 drivers of tests/test_sweep.c and test_scenario.c, compiled
 * through the compatibility layer (v3.5 era).
 * dm9601: v3.6 dm9601_tx_fixup() (drivers/net/usb/dm9601.c, New-B/Linux3.6
 * b5154d3e5bc2), the faithful port of tests/compat/tx_body.h (tx_v3_6):
 * it pushes its 2-byte length header without testing skb_cloned()/
 * skb_header_cloned() and writes it with two plain C stores -- into a
 * header-cloned or shared skb with headroom >= 2, a write into a buffer
 * another holder shares, which no accessor sees; the harnesses' watch
 * catches it (skb_store_shared).
 * dm9601p: the same code with its two stores made one put_unaligned_le16(),
 * which the checker sees (skb_write_cloned, skb_write_shared): the watch
 * must not report those bytes again.
 * Only the transmit side: dm9601_bind() keeps its hard_header_len line
 * (the rest reads the device's registers, not modelled).
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/usb.h>
#include <linux/usb/usbnet.h>
#include <asm/unaligned.h>
#include "../compat/tx.h"

#define DM_TX_OVERHEAD	2	/* 2 byte header */


static struct sk_buff *dm9601_tx_fixup(struct usbnet *dev, struct sk_buff *skb,
				       gfp_t flags)
{
	return tx_v3_6.dm9601_tx_fixup(dev, skb, flags);
}

/* the test's variant: the header through put_unaligned_le16(), which the
 * checker sees; otherwise dm9601_tx_fixup() */
static struct sk_buff *dm9601p_tx_fixup(struct usbnet *dev, struct sk_buff *skb,
					gfp_t flags)
{
	int len = skb->len;

	if (skb_headroom(skb) < DM_TX_OVERHEAD) {
		struct sk_buff *skb2 = skb_copy_expand(skb, DM_TX_OVERHEAD, 0, flags);

		dev_kfree_skb_any(skb);
		skb = skb2;
		if (!skb)
			return NULL;
	}
	__skb_push(skb, DM_TX_OVERHEAD);
	if ((skb->len % dev->maxpacket) == 0)
		len++;
	put_unaligned_le16(len, skb->data);
	return skb;
}

static int dm9601_bind(struct usbnet *dev, struct usb_interface *intf)
{
	dev->net->hard_header_len += DM_TX_OVERHEAD;
	return 0;
}

/* v3.6 dm9601_info: no FLAG_SEND_ZLP, so usbnet pads a transfer that
 * fills its last packet with one byte (which the header's len++ counts) */
const struct driver_info dm9601_info = {
	.description	= "Davicom DM9601 USB Ethernet",
	.flags		= FLAG_ETHER | FLAG_LINK_INTR,
	.bind		= dm9601_bind,
	.tx_fixup	= dm9601_tx_fixup,
};

const struct driver_info dm9601p_info = {
	.description	= "Davicom DM9601 USB Ethernet (put_unaligned_le16 header)",
	.flags		= FLAG_ETHER | FLAG_LINK_INTR,
	.bind		= dm9601_bind,
	.tx_fixup	= dm9601p_tx_fixup,
};
