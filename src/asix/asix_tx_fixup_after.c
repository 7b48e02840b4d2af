// SPDX-License-Identifier: GPL-2.0
/*
 * asix "after": asix_tx_fixup() of drivers/net/usb/asix.c with commit
 * "asix: avoid copies in tx path" (Eric Dumazet, 5 Jul 2012, applied to
 * net-next, released in v3.6) applied, ported VERBATIM between the
 * BEGIN/END markers from the patch as posted to netdev (5 Jul 2012: its
 * context and "+" lines) and compiled against include/kmodel/kernel.
 *
 * Rules (the patch's comment): push 4 bytes in front if the header is not
 * cloned (skb_header_cloned()); put 4 bytes at the tail only if the skb is
 * not cloned at all (skb_cloned()). Behaviour kept on purpose:
 *  - "following should not happen, but better be safe": the memmove
 *    fallback also runs for a cloned skb (padlen 0) whose header is not
 *    cloned but whose headroom is < 4; it moves the payload, which is
 *    shared with the queued original - the sharing checker reports it
 *    (tests/test_asix.c shows it);
 *  - padlen masks with maxpacket - 1, right only for a power-of-two maxpacket.
 * Later mainline (asix_common.c) replaced cpu_to_le32s + memcpy by
 * put_unaligned_le32 and added tx stats; not modelled here.
 * Includes trimmed to what the function needs; the bind below is an excerpt
 * of ax88772_bind() reduced to the two lines the patch adds, and
 * ax88772_info to the fields usbnet's transmit path reads.
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/usb/usbnet.h>
#include "asix_internal.h"

/* ---- BEGIN drivers/net/usb/asix.c, v3.5 + "asix: avoid copies in tx path" (verbatim) ---- */
static struct sk_buff *asix_tx_fixup(struct usbnet *dev, struct sk_buff *skb,
					gfp_t flags)
{
	int padlen;
	int headroom = skb_headroom(skb);
	int tailroom = skb_tailroom(skb);
	u32 packet_len;
	u32 padbytes = 0xffff0000;

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
	 * TCP packets for example are cloned, but skb_header_release()
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
	skb_push(skb, 4);
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

/* excerpt of ax88772_bind(): the two lines the patch adds (verbatim lines
 * of the patch; the function around them is shortened, not verbatim) */
static int ax88772_bind(struct usbnet *dev, struct usb_interface *intf)
{
	dev->net->needed_headroom = 4; /* cf asix_tx_fixup() */
	dev->net->needed_tailroom = 4; /* cf asix_tx_fixup() */
	return 0;
}

const struct km_usbnet_driver_info km_asix_v36_ax88772_info = {
	.description = "ASIX AX88772 USB 2.0 Ethernet",
	.bind = ax88772_bind,
	.flags = FLAG_ETHER | FLAG_FRAMING_AX | FLAG_LINK_INTR | FLAG_MULTI_PACKET,
	.tx_fixup = asix_tx_fixup,
};
