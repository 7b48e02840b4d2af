// SPDX-License-Identifier: GPL-2.0
/*
 * An rx_fixup's first lines through the compatibility layer at 5.17:
 * aqc111_rx_fixup() (drivers/net/usb/aqc111.c, v5.17) reads its 64-bit
 * descriptor header at the transfer's end with le64_to_cpup() after
 * skb_trim(skb, skb->len - 8), and its driver_info sets
 * FLAG_AVOID_UNLINK_URBS, and sets each frame's truesize with
 * SKB_TRUESIZE(). Not the kernel's text: the names it needs.
 */
#include <linux/netdevice.h>
#include <linux/usb/usbnet.h>
#include <asm/byteorder.h>

#include "rx_le64.h"

/* include/linux/usb/usbnet.h: "don't unlink urbs at usbnet_stop()" */
_Static_assert(FLAG_AVOID_UNLINK_URBS == 0x0100, "FLAG_AVOID_UNLINK_URBS");

/* 1 when the header is RX_LE64_HDR; data[0] == 1 reads it 4 bytes later,
 * its last 4 bytes past the transfer */
static int le64_tail_fixup(struct usbnet *dev, struct sk_buff *skb)
{
	u64 desc_hdr;

	skb_trim(skb, skb->len - sizeof(desc_hdr));
	desc_hdr = le64_to_cpup((u64 *)(skb_tail_pointer(skb) + (skb->data[0] == 1 ? 4 : 0)));
	return desc_hdr == RX_LE64_HDR;
}

const struct driver_info km_test_le64_info = {
	.description	= "le64 tail",
	.flags		= FLAG_ETHER | FLAG_AVOID_UNLINK_URBS | FLAG_MULTI_PACKET,
	.rx_fixup	= le64_tail_fixup,
};

/* aqc111_rx_fixup(): "new_skb->truesize = SKB_TRUESIZE(new_skb->len);" */
unsigned int km_test_skb_truesize(unsigned int len)
{
	return SKB_TRUESIZE(len);
}
