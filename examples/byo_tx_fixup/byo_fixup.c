// SPDX-License-Identifier: GPL-2.0
/*
 * A usbnet minidriver's transmit side written as v5.7 kernel code, for a
 * made-up device, the "BYO-1": on its bulk-out pipe every transfer carries
 * one Ethernet frame behind a 2-byte little-endian length. Compiled through
 * libkmodel's compatibility layer (kmodel_kernel_sources() in
 * CMakeLists.txt).
 *
 * The header goes into the headroom when the skb's header is not shared
 * (a TCP segment is a clone whose header the stack released, so it may be
 * written: the rule of "asix: avoid copies in tx path", 2012); otherwise
 * the skb is copied with room for it.
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/usb.h>
#include <linux/usb/usbnet.h>
#include <asm/unaligned.h>

static struct sk_buff *byo_tx_fixup(struct usbnet *dev, struct sk_buff *skb, gfp_t flags)
{
	u16 len = skb->len;	/* before skb_push() adds the header's 2 bytes */

	if (skb_header_cloned(skb) || skb_headroom(skb) < 2) {
		struct sk_buff *skb2 = skb_copy_expand(skb, 2, 0, flags);

		dev_kfree_skb_any(skb);
		skb = skb2;
		if (!skb)
			return NULL;
	}
	put_unaligned_le16(len, skb_push(skb, 2));
	return skb;
}

static int byo_bind(struct usbnet *dev, struct usb_interface *intf)
{
	/* the device's bulk-out endpoint, as a bind asks it (rndis_host's
	 * does): none is a broken device */
	if (!usb_maxpacket(dev->udev, dev->out, 1))
		return -ENODEV;
	dev->net->needed_headroom = 2;	/* cf byo_tx_fixup() */
	return 0;
}

/* FLAG_SEND_ZLP: a transfer that fills its last packet ends with a ZLP */
const struct driver_info byo_driver_info = {
	.description = "BYO-1 example USB Ethernet",
	.flags = FLAG_ETHER | FLAG_SEND_ZLP,
	.bind = byo_bind,
	.tx_fixup = byo_tx_fixup,
};
