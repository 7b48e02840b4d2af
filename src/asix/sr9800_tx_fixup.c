// SPDX-License-Identifier: GPL-2.0
/*
 * sr9800: sr_tx_fixup() of drivers/net/usb/sr9800.c (CoreChip SR9800, a
 * USB 2.0 AX88772 clone, "Based on asix_common.c, asix_devices.c"; the
 * driver was merged for v3.13, DRIVER_VERSION "11-Nov-2013"), ported
 * VERBATIM between the BEGIN/END markers from mainline: the pinned version
 * torvalds/linux 010e85f9e47c6a92740b7d73e0fca8f792573582 (sr9800.h at
 * 2cc2c3cb54de for DRIVER_FLAG), whose function is the v5.4+ text (v4.0's
 * usbnet_set_skb_tx_stats(), "usbnet: Fix tx_packets stat for
 * FLAG_MULTI_FRAME drivers"; v5.4's put_unaligned_le32(), "net: usb: Merge
 * cpu_to_le32s + memcpy to put_unaligned_le32", July 2019), compiled
 * against include/kmodel/kernel (the 2013 text itself was not read); it
 * runs under mainline usbnet.
 *
 * Behaviour kept on purpose (the flaws the sweep finds):
 *  - padlen tests (skb->len + 4) % (dev->maxpacket - 1), not % maxpacket:
 *    at maxpacket 512 a 508-byte frame (512 bytes with its header) gets no
 *    pad word, and FLAG_MULTI_PACKET keeps usbnet from adding a byte or a
 *    ZLP: the transfer ends on a packet boundary and the device waits
 *    (KM_R_USB_NO_ZLP); a 507-byte frame gets a pad word it does not need;
 *  - the v3.5 asix rule !skb_cloned(): every clone is copied, and a shared
 *    skb (users > 1) is changed in place.
 * Includes trimmed to what the function needs; sr9800_bind() reduced to
 * its net_device lines (none for tx room), sr9800_driver_info to the fields
 * usbnet's transmit path reads.
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/usb/usbnet.h>
#include <asm/unaligned.h>
#include "asix_internal.h"

/* sr9800.h */
#define	DRIVER_FLAG		\
	(FLAG_ETHER | FLAG_FRAMING_AX | FLAG_LINK_INTR |  FLAG_MULTI_PACKET)

/* ---- BEGIN drivers/net/usb/sr9800.c, torvalds/linux 010e85f9e47c (verbatim) ---- */
static struct sk_buff *sr_tx_fixup(struct usbnet *dev, struct sk_buff *skb,
					gfp_t flags)
{
	int headroom = skb_headroom(skb);
	int tailroom = skb_tailroom(skb);
	u32 padbytes = 0xffff0000;
	u32 packet_len;
	int padlen;
	void *ptr;

	padlen = ((skb->len + 4) % (dev->maxpacket - 1)) ? 0 : 4;

	if ((!skb_cloned(skb)) && ((headroom + tailroom) >= (4 + padlen))) {
		if ((headroom < 4) || (tailroom < padlen)) {
			skb->data = memmove(skb->head + 4, skb->data,
					    skb->len);
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

	ptr = skb_push(skb, 4);
	packet_len = (((skb->len - 4) ^ 0x0000ffff) << 16) + (skb->len - 4);
	put_unaligned_le32(packet_len, ptr);

	if (padlen) {
		put_unaligned_le32(padbytes, skb_tail_pointer(skb));
		skb_put(skb, sizeof(padbytes));
	}

	usbnet_set_skb_tx_stats(skb, 1, 0);
	return skb;
}
/* ---- END verbatim ---- */

/*
 * sr_tx_fixup() divides by dev->maxpacket - 1, which is 0 for a bulk-out
 * maxpacket of 1: usb_parse_endpoint() lets that through at full speed
 * (it warns, the spec allows only 8, 16, 32, 64). On the modelled ARM the
 * % is __aeabi_uidivmod (arch/arm/lib/lib1funcs.S): a zero divisor calls
 * __div0() (arch/arm/kernel/traps.c, "Division by zero in kernel." and a
 * stack dump), the quotient is 0, so the remainder is the dividend
 * skb->len + 4, never 0: padlen 0, and the driver goes on. (A kernel
 * patched to the UDIV instruction, CONFIG_ARM_PATCH_IDIV, gets the same
 * values without the message.) The host would trap instead, so this
 * wrapper records a KM_R_DIV0 WARN and runs the verbatim function with a
 * maxpacket whose "maxpacket - 1" leaves the same remainder, skb->len + 4
 * (the function reads maxpacket nowhere else), then restores it.
 */
static struct sk_buff *sr_tx_fixup_arm(struct usbnet *dev, struct sk_buff *skb, gfp_t flags)
{
	struct sk_buff *ret;

	if (dev->maxpacket != 1)
		return sr_tx_fixup(dev, skb, flags);
	km_report(dev->m, KM_WARN, KM_R_DIV0,
		  "Division by zero in kernel: sr_tx_fixup() computes (skb->len + 4) %% "
		  "(dev->maxpacket - 1) with maxpacket 1 (ARM __div0(): remainder %u, padlen 0)",
		  skb->len + 4);
	dev->maxpacket = skb->len + 4 + 2;
	ret = sr_tx_fixup(dev, skb, flags);
	dev->maxpacket = 1;
	return ret;
}


/* sr9800.h: SR9800_BULKIN_SIZE[SR9800_MAX_BULKIN_4K].size and _2K's */
#define SR9800_BULKIN_4K 4096
#define SR9800_BULKIN_2K 2048

/* excerpt of sr9800_bind(): no needed_headroom/tailroom is set; the
 * rx_urb_size it sets by speed (4K at high speed, else 2K) */
static int sr9800_bind(struct usbnet *dev, struct usb_interface *intf)
{
	if (dev->udev->speed == KM_USB_SPEED_HIGH)
		dev->rx_urb_size = SR9800_BULKIN_4K;
	else
		dev->rx_urb_size = SR9800_BULKIN_2K;
	return 0;
}

const struct km_usbnet_driver_info km_sr9800_info = {
	.description = "CoreChip SR9800 USB 2.0 Ethernet",
	.bind = sr9800_bind,
	.flags = DRIVER_FLAG,
	.tx_fixup = sr_tx_fixup_arm,
	.rx_fixup = km_sr9800_rx_fixup,	/* sr9800_rx_fixup.c */
};
