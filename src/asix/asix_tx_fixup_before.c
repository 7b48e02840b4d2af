// SPDX-License-Identifier: GPL-2.0
/*
 * asix "before": asix_tx_fixup() of drivers/net/usb/asix.c as it stood in
 * net-next just before commit "asix: avoid copies in tx path" (July 2012,
 * v3.5: padlen already uses dev->maxpacket since "asix: Fix tx transfer
 * padding for full-speed USB", 3.4/3.3.6), ported VERBATIM between the
 * BEGIN/END markers and compiled against include/kmodel/kernel. The "-"
 * lines of the patch as posted to netdev (5 Jul 2012) are this text.
 *
 * Behaviour kept on purpose:
 *  - any cloned skb is copied with skb_copy_expand(), even a TCP clone whose
 *    header was released (skb_header_release()) and which could take the
 *    4-byte header in place: one copy per TCP segment;
 *  - a private skb with too little headroom or tailroom but enough of both
 *    together is memmoved to head + 4 (the UDP path of a device that sets no
 *    needed_headroom: LL_RESERVED_SPACE leaves 2 bytes);
 *  - padlen masks with maxpacket - 1, right only for a power-of-two maxpacket;
 *  - bind sets no needed_headroom/needed_tailroom (the patch adds them).
 * Includes trimmed to what the function needs; the bind below is an excerpt
 * of ax88772_bind() reduced to its net_device lines (none for tx room here),
 * and ax88772_info to the fields usbnet's transmit path reads.
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/usb/usbnet.h>
#include "asix_internal.h"

/* ---- BEGIN drivers/net/usb/asix.c, v3.5 (verbatim) ---- */
static struct sk_buff *asix_tx_fixup(struct usbnet *dev, struct sk_buff *skb,
					gfp_t flags)
{
	int padlen;
	int headroom = skb_headroom(skb);
	int tailroom = skb_tailroom(skb);
	u32 packet_len;
	u32 padbytes = 0xffff0000;

	padlen = ((skb->len + 4) & (dev->maxpacket - 1)) ? 0 : 4;

	if ((!skb_cloned(skb)) &&
	    ((headroom + tailroom) >= (4 + padlen))) {
		if ((headroom < 4) || (tailroom < padlen)) {
			skb->data = memmove(skb->head + 4, skb->data, skb->len);
			skb_set_tail_pointer(skb, skb->len);
		}
	} else {
		struct sk_buff *skb2;
		skb2 = skb_copy_expand(skb, 4, padlen, flags);
		dev_kfree_skb_any(skb);
		skb = skb2;
		if (!skb)
			return NULL;
	}

	skb_push(skb, 4);
	packet_len = (((skb->len - 4) ^ 0x0000ffff) << 16) + (skb->len - 4);
	cpu_to_le32s(&packet_len);
	skb_copy_to_linear_data(skb, &packet_len, sizeof(packet_len));

	if (padlen) {
		cpu_to_le32s(&padbytes);
		memcpy(skb_tail_pointer(skb), &padbytes, sizeof(padbytes));
		skb_put(skb, sizeof(padbytes));
	}
	return skb;
}
/* ---- END verbatim ---- */


/* excerpt of ax88772_bind() (v3.5): no needed_headroom/tailroom is set;
 * "if (dev->driver_info->flags & FLAG_FRAMING_AX) dev->rx_urb_size = 2048;" */
static int ax88772_bind(struct usbnet *dev, struct usb_interface *intf)
{
	if (dev->driver_info->flags & FLAG_FRAMING_AX)
		dev->rx_urb_size = 2048;
	return 0;
}

const struct km_usbnet_driver_info km_asix_v35_ax88772_info = {
	.description = "ASIX AX88772 USB 2.0 Ethernet",
	.bind = ax88772_bind,
	.flags = FLAG_ETHER | FLAG_FRAMING_AX | FLAG_LINK_INTR | FLAG_MULTI_PACKET,
	.tx_fixup = asix_tx_fixup,
	.rx_fixup = km_asix_v35_rx_fixup,	/* asix_rx_fixup_v3_5.c */
};
