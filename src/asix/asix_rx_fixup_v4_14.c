// SPDX-License-Identifier: GPL-2.0
/*
 * asix's receive side that keeps state across URBs: asix_rx_fixup_internal()
 * and reset_asix_rx_fixup_info() of drivers/net/usb/asix_common.c, ported
 * VERBATIM between the markers from torvalds/linux 0c17cc5fc36a (the v4.14
 * text: the 2013 rework that takes a frame across URBs, with the 2017
 * series that resynchronises on the Data header, "Sometimes may fail to get
 * a netdev socket buffer"). Compiled against include/kmodel/kernel (v5.7
 * names: skb_put_data()). A variant for the receive side only
 * ("asix-v4.14"); its transmit side is "mainline"'s asix_tx_fixup().
 *
 * asix.h's struct asix_rx_fixup_info is duplicated below; asix_common_private
 * is reduced to it. The bind and unbind are excerpts: the private struct in
 * dev->driver_priv, asix_rx_fixup_common_free() at unbind (ax88772_unbind()).
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/usb/usbnet.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <asm/unaligned.h>
#include "asix_internal.h"

/* duplicate (drivers/net/usb/asix.h, 0c17cc5fc36a) */
struct asix_rx_fixup_info {
	struct sk_buff *ax_skb;
	u32 header;
	u16 remaining;
	bool split_head;
};

struct asix_common_private {
	struct asix_rx_fixup_info rx_fixup_info;
};

/* the library's names of asix_common.c's functions (kernel names stay out
 * of its symbols, as asix_tx_fixup_mainline.c does for asix_tx_fixup) */
#define asix_tx_fixup km_asix_mainline_tx_fixup
#define asix_rx_fixup_internal km_asix_rx_fixup_internal
#define asix_rx_fixup_common km_asix_rx_fixup_common
#define asix_rx_fixup_common_free km_asix_rx_fixup_common_free

/* duplicate (asix.h): the transmit side, asix_tx_fixup_mainline.c's */
struct sk_buff *asix_tx_fixup(struct usbnet *dev, struct sk_buff *skb,
			      gfp_t flags);
int asix_rx_fixup_internal(struct usbnet *dev, struct sk_buff *skb,
			   struct asix_rx_fixup_info *rx);
int asix_rx_fixup_common(struct usbnet *dev, struct sk_buff *skb);
void asix_rx_fixup_common_free(struct asix_common_private *dp);

/* ---- BEGIN drivers/net/usb/asix_common.c asix_rx_fixup_internal(), 0c17cc5fc36a (verbatim) ---- */
static void reset_asix_rx_fixup_info(struct asix_rx_fixup_info *rx)
{
	/* Reset the variables that have a lifetime outside of
	 * asix_rx_fixup_internal() so that future processing starts from a
	 * known set of initial conditions.
	 */

	if (rx->ax_skb) {
		/* Discard any incomplete Ethernet frame in the netdev buffer */
		kfree_skb(rx->ax_skb);
		rx->ax_skb = NULL;
	}

	/* Assume the Data header 32-bit word is at the start of the current
	 * or next URB socket buffer so reset all the state variables.
	 */
	rx->remaining = 0;
	rx->split_head = false;
	rx->header = 0;
}

int asix_rx_fixup_internal(struct usbnet *dev, struct sk_buff *skb,
			   struct asix_rx_fixup_info *rx)
{
	int offset = 0;
	u16 size;

	/* When an Ethernet frame spans multiple URB socket buffers,
	 * do a sanity test for the Data header synchronisation.
	 * Attempt to detect the situation of the previous socket buffer having
	 * been truncated or a socket buffer was missing. These situations
	 * cause a discontinuity in the data stream and therefore need to avoid
	 * appending bad data to the end of the current netdev socket buffer.
	 * Also avoid unnecessarily discarding a good current netdev socket
	 * buffer.
	 */
	if (rx->remaining && (rx->remaining + sizeof(u32) <= skb->len)) {
		offset = ((rx->remaining + 1) & 0xfffe);
		rx->header = get_unaligned_le32(skb->data + offset);
		offset = 0;

		size = (u16)(rx->header & 0x7ff);
		if (size != ((~rx->header >> 16) & 0x7ff)) {
			netdev_err(dev->net, "asix_rx_fixup() Data Header synchronisation was lost, remaining %d\n",
				   rx->remaining);
			reset_asix_rx_fixup_info(rx);
		}
	}

	while (offset + sizeof(u16) <= skb->len) {
		u16 copy_length;

		if (!rx->remaining) {
			if (skb->len - offset == sizeof(u16)) {
				rx->header = get_unaligned_le16(
						skb->data + offset);
				rx->split_head = true;
				offset += sizeof(u16);
				break;
			}

			if (rx->split_head == true) {
				rx->header |= (get_unaligned_le16(
						skb->data + offset) << 16);
				rx->split_head = false;
				offset += sizeof(u16);
			} else {
				rx->header = get_unaligned_le32(skb->data +
								offset);
				offset += sizeof(u32);
			}

			/* take frame length from Data header 32-bit word */
			size = (u16)(rx->header & 0x7ff);
			if (size != ((~rx->header >> 16) & 0x7ff)) {
				netdev_err(dev->net, "asix_rx_fixup() Bad Header Length 0x%x, offset %d\n",
					   rx->header, offset);
				reset_asix_rx_fixup_info(rx);
				return 0;
			}
			if (size > dev->net->mtu + ETH_HLEN + VLAN_HLEN) {
				netdev_dbg(dev->net, "asix_rx_fixup() Bad RX Length %d\n",
					   size);
				reset_asix_rx_fixup_info(rx);
				return 0;
			}

			/* Sometimes may fail to get a netdev socket buffer but
			 * continue to process the URB socket buffer so that
			 * synchronisation of the Ethernet frame Data header
			 * word is maintained.
			 */
			rx->ax_skb = netdev_alloc_skb_ip_align(dev->net, size);

			rx->remaining = size;
		}

		if (rx->remaining > skb->len - offset) {
			copy_length = skb->len - offset;
			rx->remaining -= copy_length;
		} else {
			copy_length = rx->remaining;
			rx->remaining = 0;
		}

		if (rx->ax_skb) {
			skb_put_data(rx->ax_skb, skb->data + offset,
				     copy_length);
			if (!rx->remaining) {
				usbnet_skb_return(dev, rx->ax_skb);
				rx->ax_skb = NULL;
			}
		}

		offset += (copy_length + 1) & 0xfffe;
	}

	if (skb->len != offset) {
		netdev_err(dev->net, "asix_rx_fixup() Bad SKB Length %d, %d\n",
			   skb->len, offset);
		reset_asix_rx_fixup_info(rx);
		return 0;
	}

	return 1;
}

int asix_rx_fixup_common(struct usbnet *dev, struct sk_buff *skb)
{
	struct asix_common_private *dp = dev->driver_priv;
	struct asix_rx_fixup_info *rx = &dp->rx_fixup_info;

	return asix_rx_fixup_internal(dev, skb, rx);
}

void asix_rx_fixup_common_free(struct asix_common_private *dp)
{
	struct asix_rx_fixup_info *rx;

	if (!dp)
		return;

	rx = &dp->rx_fixup_info;

	if (rx->ax_skb) {
		kfree_skb(rx->ax_skb);
		rx->ax_skb = NULL;
	}
}
/* ---- END verbatim ---- */

int km_asix_v4_14_rx_fixup(struct usbnet *dev, struct sk_buff *skb)
{
	return asix_rx_fixup_common(dev, skb);
}

/* excerpt of ax88772_bind() (v4.14): the private struct (kzalloc'ed there;
 * host memory here) and rx_urb_size 2048 for FLAG_FRAMING_AX */
int km_asix_v4_14_bind(struct usbnet *dev, struct usb_interface *intf)
{
	dev->driver_priv = km_usbnet_priv_alloc(dev, sizeof(struct asix_common_private));
	if (!dev->driver_priv)
		return -ENOMEM;
	if (dev->driver_info->flags & FLAG_FRAMING_AX)
		dev->rx_urb_size = 2048;
	return 0;
}

/* excerpt of ax88772_unbind() (v4.14): asix_rx_fixup_common_free() and
 * kfree(dev->driver_priv) */
void km_asix_v4_14_unbind(struct usbnet *dev, struct usb_interface *intf)
{
	asix_rx_fixup_common_free(dev->driver_priv);
	km_usbnet_priv_free(dev, dev->driver_priv, sizeof(struct asix_common_private));
	dev->driver_priv = NULL;
}

const struct km_usbnet_driver_info km_asix_v4_14_info = {
	.description = "ASIX AX88772 USB 2.0 Ethernet",
	.bind = km_asix_v4_14_bind,
	.flags = FLAG_ETHER | FLAG_FRAMING_AX | FLAG_LINK_INTR | FLAG_MULTI_PACKET,
	.tx_fixup = asix_tx_fixup,
	.rx_fixup = km_asix_v4_14_rx_fixup,
	.unbind = km_asix_v4_14_unbind,
};
