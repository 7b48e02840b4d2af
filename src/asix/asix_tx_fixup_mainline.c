// SPDX-License-Identifier: GPL-2.0
/*
 * asix "mainline": asix_tx_fixup() of current mainline
 * drivers/net/usb/asix_common.c, ported VERBATIM between the BEGIN/END
 * markers and compiled against include/kmodel/kernel. Text: torvalds/linux
 * asix_common.c at 0c17cc5fc36a (stored copy, read), with the header and
 * pad stores as "net: usb: Merge cpu_to_le32s + memcpy to
 * put_unaligned_le32" (Chuhong Yuan, July 2019, v5.4) left them: the
 * function has read so since (current copies agree). Against the 2012
 * patch ("after") it differs in put_unaligned_le32() for the two stores and
 * usbnet_set_skb_tx_stats(skb, 1, 0) ("usbnet: Fix tx_packets stat for
 * FLAG_MULTI_FRAME drivers", v4.0): usbnet's mainline era then counts one
 * packet of the URB's length. The rules are the 2012 patch's, flaws
 * included:
 *  - the "following should not happen, but better be safe" memmove also
 *    runs for a TCP clone whose header was released (padlen 0, dataref
 *    0x10002) when headroom < 4: it moves the payload the queued original
 *    still owns (the sweep finds it; "hardened" answers it);
 *  - padlen masks with maxpacket - 1, right only for a power of two;
 *  - a shared skb (users > 1, pktgen with IFF_TX_SKB_SHARING) is changed
 *    in place.
 * The function is global in asix_common.c; a #define gives it a name of
 * the library's own, the text between the markers is unchanged. The bind
 * below is an excerpt of mainline ax88772_bind() (asix_devices.c) reduced
 * to the two lines the 2012 patch added, which it still has; ax88772_info
 * reduced to the fields usbnet's transmit path reads.
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/usb/usbnet.h>
#include <asm/unaligned.h>
#include "asix_internal.h"

#define asix_tx_fixup km_asix_mainline_tx_fixup

/* ---- BEGIN drivers/net/usb/asix_common.c, mainline (verbatim) ---- */
struct sk_buff *asix_tx_fixup(struct usbnet *dev, struct sk_buff *skb,
			      gfp_t flags)
{
	int padlen;
	int headroom = skb_headroom(skb);
	int tailroom = skb_tailroom(skb);
	u32 packet_len;
	u32 padbytes = 0xffff0000;
	void *ptr;

	padlen = ((skb->len + 4) & (dev->maxpacket - 1)) ? 0 : 4;

	/* We need to push 4 bytes in front of frame (packet_len)
	 * and maybe add 4 bytes after the end (if padlen is 4)
	 *
	 * Avoid skb_copy_expand() expensive call, using following rules :
	 * - We are allowed to push 4 bytes in headroom if skb_header_cloned()
	 *   is false (and if we have 4 bytes of headroom)
	 * - We are allowed to put 4 bytes at tail if skb_cloned()
	 *   is false (and if we have 4 bytes of tailroom)
	 *
	 * TCP packets for example are cloned, but __skb_header_release()
	 * was called in tcp stack, allowing us to use headroom for our needs.
	 */
	if (!skb_header_cloned(skb) &&
	    !(padlen && skb_cloned(skb)) &&
	    headroom + tailroom >= 4 + padlen) {
		/* following should not happen, but better be safe */
		if (headroom < 4 ||
		    tailroom < padlen) {
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
/* ---- END verbatim ---- */

/* excerpt of mainline ax88772_bind() (asix_devices.c): the tx room lines */
static int ax88772_bind(struct usbnet *dev, struct usb_interface *intf)
{
	dev->net->needed_headroom = 4; /* cf asix_tx_fixup() */
	dev->net->needed_tailroom = 4; /* cf asix_tx_fixup() */
	return 0;
}

const struct km_usbnet_driver_info km_asix_mainline_ax88772_info = {
	.description = "ASIX AX88772 USB 2.0 Ethernet",
	.bind = ax88772_bind,
	.flags = FLAG_ETHER | FLAG_FRAMING_AX | FLAG_LINK_INTR | FLAG_MULTI_PACKET,
	.tx_fixup = asix_tx_fixup,
};
