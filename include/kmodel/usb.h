/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/usb.h - a USB bulk-out pipe split into maxpacket-sized packets, and
 * the transmit path of usbnet (drivers/net/usb/usbnet.c, v3.5:
 * usbnet_start_xmit(), tx_complete(), usbnet_bh()) in front of it.
 *
 * Data flows one way: usbnet_start_xmit() calls the minidriver's tx_fixup,
 * builds the URB from skb->data/skb->len, applies the 2012 length rules and
 * submits it to the bulk-out endpoint, which hands the device model one
 * packet at a time; the URB then completes at once and the skb is freed as
 * usbnet_bh() does. One machine, one host thread (see machine.h).
 */
#ifndef KMODEL_USB_H
#define KMODEL_USB_H

#include <kmodel/skb.h>

#ifdef __cplusplus
extern "C" {
#endif

/* driver_info.flags (include/linux/usb/usbnet.h, v3.5) */
#define KM_FLAG_ETHER		0x0020	/**< maybe use "eth%d" names */
#define KM_FLAG_FRAMING_AX	0x0040	/**< AX88772/178 packets */
#define KM_FLAG_SEND_ZLP	0x0200	/**< hw requires ZLPs are sent */
#define KM_FLAG_LINK_INTR	0x0800	/**< updates link (carrier) status */
#define KM_FLAG_MULTI_PACKET	0x2000	/**< driver handles short packets itself */

/** Largest bulk maxpacket the model accepts (SuperSpeed), bytes. */
#define KM_USB_MAXPACKET_MAX 1024u

struct km_usbnet;
struct km_usb_interface;	/* stub: never dereferenced */

/**
 * struct km_usb_sink - the function on the far end of a bulk-out pipe.
 * @packet: called for each USB packet of @len bytes (0 for a zero-length
 *          packet); @end_of_transfer is true for a short packet (len <
 *          maxpacket, ZLP included), which ends the transfer.
 * @priv: passed back to @packet.
 */
struct km_usb_sink {
	void (*packet)(void *priv, const uint8_t *data, size_t len, bool end_of_transfer);
	void *priv;
};

/** A bulk-out endpoint: @maxpacket bytes per packet, @sink receives them. */
struct km_usb_ep {
	struct km_machine *m;
	unsigned int maxpacket;
	struct km_usb_sink sink;
};

/**
 * km_usb_bulk_out() - send one bulk transfer of @len bytes from @buf over
 * @ep: ceil(len / maxpacket) packets, the last one short unless len is a
 * multiple of maxpacket; then, with @zero_packet (URB_ZERO_PACKET), a
 * zero-length packet ends the transfer. A non-empty transfer that is a
 * multiple of maxpacket without a ZLP is reported (KM_R_USB_NO_ZLP WARN:
 * the device keeps waiting for the rest of it). A zero-length transfer is
 * one ZLP. Events: urbs, usb_packets, usb_bytes.
 * Return: number of packets sent, or -EINVAL (bad endpoint).
 */
KM_API int km_usb_bulk_out(struct km_usb_ep *ep, const void *buf, size_t len, bool zero_packet);

/**
 * struct km_usbnet_driver_info - the slice of struct driver_info used on
 * transmit (include/linux/usb/usbnet.h, v3.5).
 * @bind: called by km_usbnet_probe() (may set net->needed_headroom...);
 *        returns 0 or -errno.
 * @tx_fixup: may return the same skb, a new one (having freed the old), or
 *            NULL (having freed it).
 */
struct km_usbnet_driver_info {
	const char *description;
	int flags;
	int (*bind)(struct km_usbnet *dev, struct km_usb_interface *intf);
	struct km_skb *(*tx_fixup)(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t flags);
};

/**
 * struct km_usbnet - the transmit slice of struct usbnet.
 * @net: the net_device (embedded here as @netdev).
 * @maxpacket: of the bulk-out endpoint, bytes.
 * @msg_tx_err: netif_msg_tx_err(dev); off by default as in usbnet_probe()
 *              (msg_level NETIF_MSG_DRV | PROBE | LINK): then a NULL from
 *              tx_fixup takes the not_drop path and tx_dropped stays put.
 * @out: the bulk-out endpoint.
 * @tx_fixup_null: times tx_fixup returned NULL.
 * @last_urb_len: transfer_buffer_length of the last URB, bytes.
 * @last_urb_zero_packet: URB_ZERO_PACKET of the last URB.
 */
struct km_usbnet {
	struct km_machine *m;
	struct km_net_device *net;
	struct km_net_device netdev;
	const struct km_usbnet_driver_info *driver_info;
	unsigned int maxpacket;
	bool msg_tx_err;
	struct km_usb_ep out;
	unsigned long tx_fixup_null;
	size_t last_urb_len;
	bool last_urb_zero_packet;
};

/**
 * km_usbnet_probe() - the transmit part of usbnet_probe(): an Ethernet
 * net_device (ether_setup), the driver's bind, then the bulk-out maxpacket.
 * @maxpacket: wMaxPacketSize of the bulk-out endpoint, 0..1024; 0 is a
 *             broken device: -ENODEV, as the check later kernels added to
 *             usbnet_probe() (v3.5 had none and would divide by zero in
 *             usbnet_start_xmit()). A value that is not a power of two is
 *             accepted (drivers that mask with maxpacket - 1 then misbehave).
 * @sink: the device model that receives the bulk-out packets.
 * @out: receives the usbnet (caller owns it: km_usbnet_free()).
 * Return: 0, -EINVAL (NULL argument, maxpacket > 1024), -ENODEV, or the
 * bind's error.
 */
KM_API int km_usbnet_probe(struct km_machine *m, const struct km_usbnet_driver_info *info,
			   unsigned int maxpacket, const struct km_usb_sink *sink,
			   struct km_usbnet **out);
KM_API void km_usbnet_free(struct km_usbnet *dev);

/**
 * km_usbnet_start_xmit() - usbnet_start_xmit() (v3.5) on `current`, with
 * the URB completing at once (tx_complete + usbnet_bh): tx_fixup(GFP_ATOMIC);
 * on NULL, drop (tx_dropped++ only with @msg_tx_err). URB of skb->data,
 * skb->len; when len % maxpacket == 0: FLAG_SEND_ZLP sets URB_ZERO_PACKET,
 * else without FLAG_MULTI_PACKET the URB grows by one byte, which is zeroed
 * and skb_put() only when skb_tailroom() allows (otherwise the byte after
 * the data goes out as it is). Completion: tx_packets++ unless
 * FLAG_MULTI_PACKET, tx_bytes += len, dev_kfree_skb(). Consumes @skb.
 * Return: NETDEV_TX_OK (0) as the kernel; -EINVAL for a NULL @skb, without
 * `current` (skb freed) or for an skb whose data lies outside its buffer
 * (reported, skb freed); -EINVAL for an skb of another machine than @dev
 * (a KM_R_UNEXPECTED BUG on the skb's machine; the skb is not touched and
 * stays the caller's) and likewise for a NULL @dev.
 */
KM_API int km_usbnet_start_xmit(struct km_usbnet *dev, struct km_skb *skb);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_USB_H */
