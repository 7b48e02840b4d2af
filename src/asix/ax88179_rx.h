/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every ax88179_rx_fixup() port needs: the AX_RXHDR_* bits and
 * ax88179_rx_checksum() of drivers/net/usb/ax88179_178a.c (the same text
 * from 2013 to torvalds/linux 002bba562dd3, where it was read), included
 * by ax88179_tx_fixup.c (mainline), ax88179_rx_v5_16.c and
 * ax88179_rx_57bc.c. Compiled against include/kmodel/kernel.
 */
#ifndef KMODEL_AX88179_RX_H
#define KMODEL_AX88179_RX_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/if_ether.h>
#include <linux/usb/usbnet.h>
#include <asm/unaligned.h>

/* duplicate (drivers/net/usb/ax88179_178a.c, 002bba562dd3) */
#define AX_RXHDR_L4_TYPE_MASK			0x1c
#define AX_RXHDR_L4_TYPE_UDP			4
#define AX_RXHDR_L4_TYPE_TCP			16
#define AX_RXHDR_L3CSUM_ERR			2
#define AX_RXHDR_L4CSUM_ERR			1
#define AX_RXHDR_CRC_ERR			((u32)BIT(29))
#define AX_RXHDR_DROP_ERR			((u32)BIT(31))

/* rx_urb_size ax88179_reset() sets (dev->rx_urb_size = 1024 * 20;
 * ax88179_link_reset() keeps 20 KiB on a SuperSpeed gigabit link,
 * AX88179_BULKIN_SIZE[0].size 0x12: 1024 * (0x12 + 2)) */
#define AX88179_RX_URB_SIZE (1024 * 20)

/* the driver's transmit side and bind (ax88179_tx_fixup.c), for the
 * receive-only variants of older rx_fixup versions */
struct sk_buff *km_ax88179_tx(struct usbnet *dev, struct sk_buff *skb, gfp_t flags);
int km_ax88179_bind(struct usbnet *dev, struct usb_interface *intf);

/* ---- BEGIN drivers/net/usb/ax88179_178a.c ax88179_rx_checksum(), 002bba562dd3 (verbatim) ---- */
static void
ax88179_rx_checksum(struct sk_buff *skb, u32 *pkt_hdr)
{
	skb->ip_summed = CHECKSUM_NONE;

	/* checksum error bit is set */
	if ((*pkt_hdr & AX_RXHDR_L3CSUM_ERR) ||
	    (*pkt_hdr & AX_RXHDR_L4CSUM_ERR))
		return;

	/* It must be a TCP or UDP packet with a valid checksum */
	if (((*pkt_hdr & AX_RXHDR_L4_TYPE_MASK) == AX_RXHDR_L4_TYPE_TCP) ||
	    ((*pkt_hdr & AX_RXHDR_L4_TYPE_MASK) == AX_RXHDR_L4_TYPE_UDP))
		skb->ip_summed = CHECKSUM_UNNECESSARY;
}
/* ---- END verbatim ---- */

#endif
