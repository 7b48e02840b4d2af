// SPDX-License-Identifier: GPL-2.0
/*
 * usbnet transmit path (drivers/net/usb/usbnet.c, v3.5: usbnet_probe(),
 * usbnet_start_xmit(), tx_complete(), usbnet_bh()) and bulk-out packet
 * segmentation (what the host controller does with a bulk URB). See
 * include/kmodel/usb.h.
 */
#include "internal.h"
#include <kmodel/usb.h>

int km_usb_bulk_out(struct km_usb_ep *ep, const void *buf, size_t len, bool zero_packet)
{
	const uint8_t *p = buf;
	size_t mp, off = 0;
	int packets = 0;

	if (!ep || !ep->m || !ep->maxpacket || ep->maxpacket > KM_USB_MAXPACKET_MAX ||
	    (len && !buf))
		return km_err(-EINVAL, "usb_bulk_out: bad endpoint or buffer");
	mp = ep->maxpacket;
	ep->m->ev.urbs++;
	ep->m->ev.usb_bytes += len;
	while (off < len) {
		size_t n = MIN(mp, len - off);
		bool last = off + n == len;

		/* a full last packet ends the transfer only with a ZLP after it */
		if (ep->sink.packet)
			ep->sink.packet(ep->sink.priv, p + off, n, last && n < mp);
		off += n;
		packets++;
	}
	if (len == 0 || (len % mp == 0 && zero_packet)) {
		if (ep->sink.packet)
			ep->sink.packet(ep->sink.priv, NULL, 0, true);
		packets++;
		ep->m->ev.usb_zlps++;
	} else if (len % mp == 0) {
		km_report(ep->m, KM_WARN, KM_R_USB_NO_ZLP,
			  "bulk-out transfer of %zu bytes is a multiple of maxpacket %zu and "
			  "has no zero-length packet: the device waits for more", len, mp);
	}
	ep->m->ev.usb_packets += (uint64_t)packets;
	return packets;
}

int km_usbnet_probe(struct km_machine *m, const struct km_usbnet_variant *v,
		    enum km_usb_speed speed, unsigned int maxpacket,
		    const struct km_usb_sink *sink, struct km_usbnet **out)
{
	const struct km_usbnet_driver_info *info;
	struct km_usbnet *dev;
	int status;

	if (!m || !v || !out)
		return km_err(-EINVAL, "usbnet_probe: NULL machine, variant or out");
	*out = NULL;
	status = km_usbnet_variant_check(v);
	if (status)
		return status;
	info = v->info;
	if (speed != KM_USB_SPEED_LOW && speed != KM_USB_SPEED_FULL &&
	    speed != KM_USB_SPEED_HIGH && speed != KM_USB_SPEED_SUPER)
		return km_err(-EINVAL, "usbnet_probe: unknown speed %d", (int)speed);
	if (maxpacket > KM_USB_MAXPACKET_MAX)
		return km_err(-EINVAL, "usbnet_probe: maxpacket %u > %u", maxpacket,
			      KM_USB_MAXPACKET_MAX);
	dev = g_new0(struct km_usbnet, 1);
	dev->m = m;
	dev->driver_info = info;
	dev->variant = v;
	dev->era = v->era;
	dev->speed = speed;
	dev->net = &dev->netdev;
	km_net_device_init_ether(dev->net);	/* alloc_etherdev() */
	if (info->bind) {
		status = info->bind(dev, NULL);
		if (status < 0) {
			g_free(dev);
			return km_err(status, "usbnet_probe: bind failed: %d", status);
		}
	}
	/* usb_maxpacket(); the -ENODEV check is of later kernels (see usb.h) */
	dev->maxpacket = maxpacket;
	if (dev->maxpacket == 0) {
		g_free(dev);
		return km_err(-ENODEV, "usbnet_probe: bulk-out maxpacket is 0: a broken device");
	}
	dev->out.m = m;
	dev->out.maxpacket = maxpacket;
	if (sink)
		dev->out.sink = *sink;
	*out = dev;
	return 0;
}

void km_usbnet_free(struct km_usbnet *dev)
{
	g_free(dev);
}

int km_usbnet_start_xmit(struct km_usbnet *dev, struct km_skb *skb)
{
	const struct km_usbnet_driver_info *info;
	struct km_task *t = km_current();
	size_t length, urb_len, room;
	bool zero_packet = false;

	if (!skb)	/* cdc_ncm's timer flush (tx_fixup of NULL) is not modelled */
		return km_err(-EINVAL, "usbnet_start_xmit: NULL skb");
	if (!dev) {	/* nothing done: the skb stays its caller's */
		km_report(skb->m, KM_BUG, KM_R_UNEXPECTED, "usbnet_start_xmit: NULL device");
		return km_err(-EINVAL, "usbnet_start_xmit: NULL device");
	}
	info = dev->driver_info;
	if (skb->m != dev->m) {	/* nothing done: the skb stays its caller's */
		km_report(skb->m, KM_BUG, KM_R_UNEXPECTED,
			  "usbnet_start_xmit: skb of another machine than the device");
		return km_err(-EINVAL, "usbnet_start_xmit: skb and device of different machines");
	}
	if (!t || t->m != dev->m) {
		km_kfree_skb(skb);
		return km_err(-EINVAL, "usbnet_start_xmit: no current task on this machine");
	}
	dev->m->ev.eth_frames++;
	dev->m->ev.eth_bytes += skb->len;
	if (info->tx_fixup) {
		skb = info->tx_fixup(dev, skb, KM_GFP_ATOMIC);
		if (!skb) {
			dev->tx_fixup_null++;
			if (dev->msg_tx_err)
				dev->net->tx_dropped++;	/* drop: */
			return 0;			/* not_drop: */
		}
	}
	length = skb->len;

	/* usb_fill_bulk_urb(urb, ..., skb->data, skb->len, ...) */
	urb_len = skb->len;
	if (length % dev->maxpacket == 0) {
		if (!(info->flags & KM_FLAG_SEND_ZLP)) {
			if (!(info->flags & KM_FLAG_MULTI_PACKET)) {
				urb_len++;
				if (km_skb_tailroom(skb)) {
					if (km_skb_check_write(skb, skb->data + skb->len, 1))
						skb->data[skb->len] = 0;
					km_skb_put(skb, 1);	/* __skb_put */
				}
			}
		} else {
			zero_packet = true;		/* URB_ZERO_PACKET */
		}
	}
	dev->last_urb_len = urb_len;
	dev->last_urb_zero_packet = zero_packet;

	/* the host controller reads [data, data + urb_len): it must lie in the
	 * kmalloc object (the byte after a full buffer is in the shinfo area) */
	room = skb->data >= skb->head && skb->data <= skb->end ?
	       (size_t)(skb->end - skb->data) + km_skb_shinfo_size(dev->m) : 0;
	if (urb_len > room) {
		km_report(dev->m, KM_BUG, KM_R_SKB_OVER,
			  "usbnet_start_xmit: URB of %zu bytes at head%+td runs past the skb "
			  "buffer (end at head%+td)", urb_len, skb->data - skb->head,
			  skb->end - skb->head);
		km_kfree_skb(skb);
		return -EINVAL;
	}
	km_usb_bulk_out(&dev->out, skb->data, urb_len, zero_packet);

	/* tx_complete() with urb->status 0, then usbnet_bh(): tx_done */
	if (!(info->flags & KM_FLAG_MULTI_PACKET))
		dev->net->tx_packets++;
	dev->net->tx_bytes += length;
	km_consume_skb(skb);	/* dev_kfree_skb() */
	return 0;			/* NETDEV_TX_OK */
}
