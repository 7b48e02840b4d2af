/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/usb/usbnet.h> (v3.5) */
#ifndef KM_COMPAT_LINUX_USB_USBNET_H
#define KM_COMPAT_LINUX_USB_USBNET_H

#include <linux/netdevice.h>
#include <kmodel/usb.h>

/* custom: struct usbnet is the model's (net, driver_info, maxpacket, udev, in
 * and out as in the kernel: udev and the pipes set before bind);
 * struct usb_interface stays incomplete (stub) */
#define usbnet km_usbnet
#define usb_interface km_usb_interface
/* custom: struct driver_info is the model's struct km_usbnet_driver_info,
 * the slice of the kernel's (v3.5) the model runs: description, flags,
 * bind, tx_fixup and rx_fixup. A driver file defines its table with the
 * kernel's name; members the model has not (status, unbind, data, ...) are
 * left out of it. dev->driver_info reads it back (struct km_usbnet names the member
 * both ways). */
#define driver_info km_usbnet_driver_info

/* duplicate (include/linux/usb/usbnet.h, v3.5): driver_info flags */
#define FLAG_ETHER KM_FLAG_ETHER
#define FLAG_FRAMING_AX KM_FLAG_FRAMING_AX
#define FLAG_SEND_ZLP KM_FLAG_SEND_ZLP
#define FLAG_LINK_INTR KM_FLAG_LINK_INTR
#define FLAG_MULTI_PACKET KM_FLAG_MULTI_PACKET
#define FLAG_RX_ASSEMBLE KM_FLAG_RX_ASSEMBLE
/* duplicate (include/linux/usb/usbnet.h, v3.5): "don't unlink urbs at
 * usbnet_stop()"; the model's usbnet has no usbnet_stop(), so a driver
 * that sets it (aqc111) runs as without it */
#define FLAG_AVOID_UNLINK_URBS 0x0100

/* custom: usbnet_skb_return() is the model's (kmodel/usb.h), a step of the
 * receive loop that calls it */
static inline void usbnet_skb_return(struct usbnet *dev, struct sk_buff *skb)
{
	km_compat_rx_step(NULL, 0);
	km_usbnet_skb_return(dev, skb);
}

/* custom: struct skb_data's packets and length live in the model's skb
 * (include/linux/usb/usbnet.h, mainline since v4.0) */
static inline void usbnet_set_skb_tx_stats(struct sk_buff *skb, unsigned long packets,
					   long bytes_delta)
{
	skb->usbnet_packets = packets;
	skb->usbnet_length = bytes_delta;
}

#endif
