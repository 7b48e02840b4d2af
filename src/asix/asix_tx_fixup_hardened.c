// SPDX-License-Identifier: GPL-2.0
/*
 * asix "hardened": mainline asix_tx_fixup() (asix_tx_fixup_mainline.c) with
 * the flaws the sweep finds in it fixed. Not a port: a variant of the
 * project's own, in the kernel's style, compiled against the compatibility
 * layer like the ports. Each change answers a flaw of the faithful ones:
 *
 *  - The 2012 patch (kept in mainline) falls back to memmove(skb->head + 4,
 *    skb->data, skb->len) "when it should not happen": with headroom < 4 on
 *    an skb whose header is not cloned. A TCP clone whose header was
 *    released (dataref 0x10002) is such an skb, and the memmove shifts the
 *    payload the queued original still owns: a retransmit of the original
 *    sends corrupted bytes. Here data moves only in an skb that is not
 *    cloned at all; a cloned one is copied.
 *  - A shared skb (users > 1: pktgen sends one skb several times on a device
 *    with IFF_TX_SKB_SHARING, which ether_setup() sets and usbnet keeps) is
 *    changed in place by every faithful version: the next send of the same
 *    skb carries the previous header in its data. Here a shared skb is never
 *    worked on in place: it is copied and our reference dropped.
 *  - padlen masks with maxpacket - 1, wrong for a maxpacket that is not a
 *    power of two (a spec violation the kernel accepts): here the modulo.
 * Everything else (header layout, pad word, tx stats) is mainline's; it
 * runs under mainline usbnet.
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/usb/usbnet.h>
#include <asm/unaligned.h>
#include "asix_internal.h"

static struct sk_buff *asix_tx_fixup_hardened(struct usbnet *dev, struct sk_buff *skb,
					      gfp_t flags)
{
	int padlen;
	int headroom = skb_headroom(skb);
	int tailroom = skb_tailroom(skb);
	u32 packet_len;
	u32 padbytes = 0xffff0000;
	bool in_place;
	void *ptr;

	padlen = ((skb->len + 4) % dev->maxpacket) ? 0 : 4;

	/* Work in place only on an skb we own alone (not shared), pushing
	 * into headroom only when the header is ours (not header-cloned), adding
	 * the pad word only when the tail is ours (not cloned), and moving data
	 * only when nobody else sees it (not cloned). */
	in_place = !skb_shared(skb) && !skb_header_cloned(skb) &&
		   !(padlen && skb_cloned(skb));
	if (in_place && (headroom < 4 || tailroom < padlen))
		in_place = !skb_cloned(skb) && headroom + tailroom >= 4 + padlen;

	if (in_place) {
		if (headroom < 4 || tailroom < padlen) {
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

	packet_len = ((skb->len ^ 0x0000ffff) << 16) + skb->len;
	ptr = skb_push(skb, 4);
	put_unaligned_le32(packet_len, ptr);

	if (padlen) {
		put_unaligned_le32(padbytes, skb_tail_pointer(skb));
		skb_put(skb, sizeof(padbytes));
	}

	usbnet_set_skb_tx_stats(skb, 1, 0);
	return skb;
}

/* as mainline ax88772_bind(): the tx room lines */
static int ax88772_bind(struct usbnet *dev, struct usb_interface *intf)
{
	dev->net->needed_headroom = 4;
	dev->net->needed_tailroom = 4;
	return 0;
}

const struct km_usbnet_driver_info km_asix_hardened_info = {
	.description = "ASIX AX88772 USB 2.0 Ethernet (hardened tx_fixup)",
	.bind = ax88772_bind,
	.flags = FLAG_ETHER | FLAG_FRAMING_AX | FLAG_LINK_INTR | FLAG_MULTI_PACKET,
	.tx_fixup = asix_tx_fixup_hardened,
};
