// SPDX-License-Identifier: GPL-2.0
/*
 * asix "before"'s receive side: asix_rx_fixup() of drivers/net/usb/asix.c,
 * v3.5, compiled against include/kmodel/kernel at 3.5 beside the transmit
 * side (asix_tx_fixup_before.c, whose driver_info runs it).
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/usb/usbnet.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <asm/unaligned.h>
#include "asix_internal.h"

/*
 * The receive side of v3.5's asix.c: asix_rx_fixup() of v3.5, which copies
 * each frame into a fresh skb (netdev_alloc_skb_ip_align()) and bounds its
 * length by the transfer; with FLAG_MULTI_PACKET usbnet then frees the
 * URB's skb. The body as asix.c carried it in v3.5 and asix_common.c kept
 * it until asix_rx_fixup_internal() (v3.10) took frames across URBs: a
 * frame the device split over two transfers is "Bad RX Length" here and
 * lost, with the rest of both transfers.
 */
/* ---- BEGIN drivers/net/usb/asix.c asix_rx_fixup(), v3.5 (verbatim) ---- */
static int asix_rx_fixup(struct usbnet *dev, struct sk_buff *skb)
{
	int offset = 0;

	while (offset + sizeof(u32) < skb->len) {
		struct sk_buff *ax_skb;
		u16 size;
		u32 header = get_unaligned_le32(skb->data + offset);

		offset += sizeof(u32);

		/* get the packet length */
		size = (u16) (header & 0x7ff);
		if (size != ((~header >> 16) & 0x07ff)) {
			netdev_err(dev->net, "asix_rx_fixup() Bad Header Length\n");
			return 0;
		}

		if ((size > dev->net->mtu + ETH_HLEN + VLAN_HLEN) ||
		    (size + offset > skb->len)) {
			netdev_err(dev->net, "asix_rx_fixup() Bad RX Length %d\n",
				   size);
			return 0;
		}
		ax_skb = netdev_alloc_skb_ip_align(dev->net, size);
		if (!ax_skb)
			return 0;

		skb_put(ax_skb, size);
		memcpy(ax_skb->data, skb->data + offset, size);
		usbnet_skb_return(dev, ax_skb);

		offset += (size + 1) & 0xfffe;
	}

	if (skb->len != offset) {
		netdev_err(dev->net, "asix_rx_fixup() Bad SKB Length %d\n",
			   skb->len);
		return 0;
	}
	return 1;
}
/* ---- END verbatim ---- */

int km_asix_v35_rx_fixup(struct usbnet *dev, struct sk_buff *skb)
{
	return asix_rx_fixup(dev, skb);
}
