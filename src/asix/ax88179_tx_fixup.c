// SPDX-License-Identifier: GPL-2.0
/*
 * ax88179_178a: ax88179_tx_fixup() of drivers/net/usb/ax88179_178a.c (ASIX
 * AX88179 USB 3.0 / AX88178A USB 2.0 gigabit Ethernet), ported VERBATIM
 * between the BEGIN/END markers from the pinned version torvalds/linux
 * 002bba562dd371d9ead03f8a309bfdedd6b51230, compiled against
 * include/kmodel/kernel; it runs under mainline usbnet.
 *
 * Configuration without what the model lacks: the driver sets NETIF_F_SG
 * and NETIF_F_TSO in bind; the model has no page frags and no GSO, so the
 * device is modelled as after `ethtool -K <dev> sg off tso off`: features
 * without NETIF_F_SG (no skb_linearize() call), gso_size 0 (tx_hdr2 holds
 * no MSS) and gso_segs 0 (one packet counted). The bind excerpt below sets
 * needed_headroom 8 as the driver does and leaves SG out.
 *
 * Behaviour kept on purpose:
 *  - the header goes into headroom with pskb_expand_head() only when the
 *    header is cloned or headroom < 8: a TCP clone whose header was
 *    released is pushed into in place (allowed), and a shared skb (users >
 *    1) is pushed into in place, or BUG()s in pskb_expand_head() when its
 *    headroom is short;
 *  - when (len + 8) is a multiple of maxpacket the driver sets the header's
 *    padding bits (0x80008000) instead of adding bytes; FLAG_FRAMING_AX
 *    without FLAG_MULTI_PACKET or FLAG_SEND_ZLP then has usbnet add its
 *    1-byte pad, written into the skb's tailroom -- the tailroom of a
 *    buffer a TCP clone shares with the queued original.
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/usb/usbnet.h>
#include <asm/unaligned.h>
#include "asix_internal.h"

/* ax88179_rx.h: the rx_urb_size ax88179_reset() sets */
#define AX88179_RX_URB_SIZE (1024 * 20)
struct sk_buff *km_ax88179_tx(struct usbnet *dev, struct sk_buff *skb, gfp_t flags);
int km_ax88179_bind(struct usbnet *dev, struct usb_interface *intf);

/* ---- BEGIN drivers/net/usb/ax88179_178a.c, torvalds/linux 002bba562dd3 (verbatim) ---- */
static struct sk_buff *
ax88179_tx_fixup(struct usbnet *dev, struct sk_buff *skb, gfp_t flags)
{
	u32 tx_hdr1, tx_hdr2;
	int frame_size = dev->maxpacket;
	int headroom;
	void *ptr;

	tx_hdr1 = skb->len;
	tx_hdr2 = skb_shinfo(skb)->gso_size; /* Set TSO mss */
	if (((skb->len + 8) % frame_size) == 0)
		tx_hdr2 |= 0x80008000;	/* Enable padding */

	headroom = skb_headroom(skb) - 8;

	if ((dev->net->features & NETIF_F_SG) && skb_linearize(skb))
		return NULL;

	if ((skb_header_cloned(skb) || headroom < 0) &&
	    pskb_expand_head(skb, headroom < 0 ? 8 : 0, 0, GFP_ATOMIC)) {
		dev_kfree_skb_any(skb);
		return NULL;
	}

	ptr = skb_push(skb, 8);
	put_unaligned_le32(tx_hdr1, ptr);
	put_unaligned_le32(tx_hdr2, ptr + 4);

	usbnet_set_skb_tx_stats(skb, (skb_shinfo(skb)->gso_segs ?: 1), 0);

	return skb;
}
/* ---- END verbatim ---- */


/* excerpt of ax88179_bind(): the net_device lines the transmit path reads;
 * the features line without NETIF_F_SG and NETIF_F_TSO (see above); and
 * the rx_urb_size of ax88179_reset(), which bind calls */
static int ax88179_bind(struct usbnet *dev, struct usb_interface *intf)
{
	dev->net->needed_headroom = 8;
	dev->net->features |= NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM | NETIF_F_RXCSUM;
	dev->rx_urb_size = AX88179_RX_URB_SIZE;
	return 0;
}

struct sk_buff *km_ax88179_tx(struct usbnet *dev, struct sk_buff *skb, gfp_t flags)
{
	return ax88179_tx_fixup(dev, skb, flags);
}

int km_ax88179_bind(struct usbnet *dev, struct usb_interface *intf)
{
	return ax88179_bind(dev, intf);
}

const struct km_usbnet_driver_info km_ax88179_info = {
	.description = "ASIX AX88179 USB 3.0 Gigabit Ethernet",
	.bind = ax88179_bind,
	.flags = FLAG_ETHER | FLAG_FRAMING_AX,
	.tx_fixup = ax88179_tx_fixup,
	.rx_fixup = km_ax88179_rx_fixup,	/* ax88179_rx_fixup.c */
};
