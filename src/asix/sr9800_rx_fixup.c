// SPDX-License-Identifier: GPL-2.0
/*
 * sr9800's receive side: sr_rx_fixup() of drivers/net/usb/sr9800.c at the
 * pinned torvalds/linux 010e85f9e47c of its transmit side
 * (sr9800_tx_fixup.c, whose driver_info runs it), compiled against
 * include/kmodel/kernel.
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/usb/usbnet.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <asm/unaligned.h>
#include "asix_internal.h"

/*
 * The receive side at the same pinned version: sr_rx_fixup(), the copy of
 * each frame of asix_rx_fixup() (v3.5's text) with the hard_header_len
 * check drivers took over when usbnet's rx_complete() dropped it, and
 * VLAN_HLEN in the length bound. With FLAG_MULTI_PACKET (DRIVER_FLAG)
 * usbnet frees the URB's skb after it: every frame goes up as a copy.
 */
/* ---- BEGIN drivers/net/usb/sr9800.c sr_rx_fixup(), torvalds/linux 010e85f9e47c (verbatim) ---- */
static int sr_rx_fixup(struct usbnet *dev, struct sk_buff *skb)
{
	int offset = 0;

	/* This check is no longer done by usbnet */
	if (skb->len < dev->net->hard_header_len)
		return 0;

	while (offset + sizeof(u32) < skb->len) {
		struct sk_buff *sr_skb;
		u16 size;
		u32 header = get_unaligned_le32(skb->data + offset);

		offset += sizeof(u32);
		/* get the packet length */
		size = (u16) (header & 0x7ff);
		if (size != ((~header >> 16) & 0x07ff)) {
			netdev_err(dev->net, "%s : Bad Header Length\n",
				   __func__);
			return 0;
		}

		if ((size > dev->net->mtu + ETH_HLEN + VLAN_HLEN) ||
		    (size + offset > skb->len)) {
			netdev_err(dev->net, "%s : Bad RX Length %d\n",
				   __func__, size);
			return 0;
		}
		sr_skb = netdev_alloc_skb_ip_align(dev->net, size);
		if (!sr_skb)
			return 0;

		skb_put(sr_skb, size);
		memcpy(sr_skb->data, skb->data + offset, size);
		usbnet_skb_return(dev, sr_skb);

		offset += (size + 1) & 0xfffe;
	}

	if (skb->len != offset) {
		netdev_err(dev->net, "%s : Bad SKB Length %d\n", __func__,
			   skb->len);
		return 0;
	}

	return 1;
}
/* ---- END verbatim ---- */

int km_sr9800_rx_fixup(struct usbnet *dev, struct sk_buff *skb)
{
	return sr_rx_fixup(dev, skb);
}
