// SPDX-License-Identifier: GPL-2.0
/*
 * usbnet transmit path (drivers/net/usb/usbnet.c: usbnet_probe(),
 * usbnet_start_xmit(), tx_complete(), usbnet_bh(); v3.5 and current
 * mainline, one per variant's era), the endpoint checks of
 * drivers/usb/core/config.c usb_parse_endpoint(), and bulk-out packet
 * segmentation (what the host controller does with a bulk URB). See
 * include/kmodel/usb.h.
 *
 * Read: usbnet.c v3.5 reconstructed from the era's copies (the length rules
 * are the same from 2.6.37's FLAG_MULTI_PACKET to v3.5); mainline from
 * torvalds/linux at 002c6ca75289 (usbnet_start_xmit, usbnet_probe);
 * config.c from its v3.x and mainline texts.
 */
#include "skb_internal.h"
#include <inttypes.h>
#include "usbnet_internal.h"
#include <kmodel/usb.h>
#include "usbnet_state.h"
#include "asix_internal.h"

/* usbnet's state on a machine (m->usbnet) */

/* the endpoints of the model's device (kmodel/usb.h, struct km_usbnet: a
 * model policy): bulk in 0x81, bulk out 0x02, the address config.c's
 * warnings print */
#define EP_IN_NUM 1
#define EP_OUT_NUM 2
#define EP_OUT_ADDR EP_OUT_NUM
/* include/linux/usb.h (v3.5): __create_pipe(), usb_sndbulkpipe(),
 * usb_rcvbulkpipe(); PIPE_BULK 3, USB_DIR_IN 0x80 */
#define BULK_PIPE(devnum, ep, in) \
	((3u << 30) | ((unsigned int)(devnum) << 8) | ((unsigned int)(ep) << 15) | ((in) ? 0x80u : 0))
#define PIPE_ENDPOINT(pipe) (((pipe) >> 15) & 0xf)	/* usb_pipeendpoint() */

/* One bulk endpoint of @mp bytes into @udev's table, as usb_enable_endpoint()
 * after config.c's parse (ch9.h: bLength USB_DT_ENDPOINT_SIZE 7,
 * bDescriptorType USB_DT_ENDPOINT 5, bmAttributes USB_ENDPOINT_XFER_BULK 2) */
static void enable_bulk_ep(struct km_usb_device *udev, struct km_usb_host_endpoint *ep,
			   unsigned int num, bool in, unsigned int mp)
{
	ep->desc = (struct km_usb_endpoint_descriptor){
		.bLength = 7, .bDescriptorType = 5,
		.bEndpointAddress = (uint8_t)(num | (in ? 0x80 : 0)), .bmAttributes = 2,
		.wMaxPacketSize = GUINT16_TO_LE((uint16_t)mp),
	};
	(in ? udev->ep_in : udev->ep_out)[num] = ep;
}

_Static_assert(sizeof(((struct km_usbnet *)0)->netdev_v1) == KM_NET_DEVICE_MIN_SIZE,
	       "netdev_v1 keeps the first km_net_device's size");

/* sizeof(struct urb) on 32-bit ARM, v3.5 (include/linux/usb.h): kref,
 * hcpriv, use_count, reject, unlinked (20), urb_list and anchor_list (16),
 * 22 pointers and 32-bit fields from anchor to complete (88): 124 bytes,
 * kmalloc'ed by usb_alloc_urb(0, ...) -- kmalloc-128 there */
#define ARM_SIZEOF_URB 124u

/* usb_alloc_urb(0, GFP_ATOMIC) / usb_free_urb(): the URB as the kmalloc
 * object the target allocates; the model keeps nothing in it */
static void *alloc_urb(struct km_task *t)
{
	void *urb = km_kmalloc(t, ARM_SIZEOF_URB, KM_GFP_ATOMIC);

	if (urb)
		KM_EV_INC(t->m, urb_allocs);
	return urb;
}

int km_usb_bulk_out(struct km_usb_ep *ep, const void *buf, size_t len, bool zero_packet)
{
	const uint8_t *p = buf;
	size_t mp, rem, off = 0;
	int packets;
	bool zlp;

	if (!ep || !ep->m || !ep->maxpacket || ep->maxpacket > KM_USB_MAXPACKET_MAX ||
	    (len && !buf))
		return km_err(-EINVAL, "usb_bulk_out: bad endpoint or buffer");
	mp = ep->maxpacket;
	rem = len % mp;		/* one division: maxpacket need not be a power of 2 */
	zlp = len == 0 || (rem == 0 && zero_packet);
	packets = (int)(len / mp + (rem != 0)) + zlp;
	KM_EV_INC(ep->m, urbs);
	KM_EV_ADD(ep->m, usb_bytes, len);
	KM_EV_ADD(ep->m, usb_packets, (uint64_t)packets);
	KM_EV_ADD(ep->m, usb_zlps, zlp);
	if (ep->sink.transfer) {	/* the same stream in one call */
		ep->sink.transfer(ep->sink.priv, p, len, zlp || rem != 0);
	} else if (ep->sink.packet) {
		for (; off < len; off += mp) {
			size_t n = MIN(mp, len - off);

			/* a full last packet ends the transfer only with a ZLP */
			ep->sink.packet(ep->sink.priv, p + off, n, off + n == len && n < mp);
		}
		if (zlp)
			ep->sink.packet(ep->sink.priv, NULL, 0, true);
	}
	if (!zlp && rem == 0)
		km_report(ep->m, KM_WARN, KM_R_USB_NO_ZLP,
			  "bulk-out transfer of %zu bytes is a multiple of maxpacket %zu and "
			  "has no zero-length packet: the device waits for more", len, mp);
	return packets;
}

static bool pow2(unsigned int x)
{
	return x && !(x & (x - 1));
}

/*
 * usb_parse_endpoint() (drivers/usb/core/config.c) on the bulk-out endpoint
 * of a device at @speed: returns the maxpacket usbnet then reads, and
 * reports (KM_R_USB_MAXPACKET WARNs) what config.c warns about, in its
 * order, plus what the USB spec forbids that config.c lets through (full
 * speed: 8, 16, 32 or 64, USB 2.0 spec 5.8.3; SuperSpeed: 1024, USB 3.0
 * spec 9.6.6) and a maxpacket that is not a power of two.
 * v3.5 only warns (low speed: "is Bulk; changing to Interrupt"; high
 * speed: != 512). Mainline first clamps to the speed's maximum (full 64,
 * high and super 1024: "invalid maxpacket %d, setting to %d"), then runs
 * the same high-speed test on the clamped value: high speed 2047 is two
 * warnings, "setting to 1024" and "bulk endpoint ... has invalid maxpacket
 * 1024" (config.c's maxpacket_maxes[] comment: "Bulk should be 512, but
 * some devices use 1024: we will warn below"). Read: config.c of a v3.x
 * tree and of mainline (see usbnet.c's header).
 * Return: the maxpacket, or 0 when no bulk-out endpoint is left (low speed:
 * it became an interrupt endpoint, which usbnet_get_endpoints() skips).
 */
static unsigned int parse_endpoint(struct km_machine *m, enum km_usbnet_era era,
				   enum km_usb_speed speed, unsigned int mp)
{
	static const unsigned int maxes[] = { [KM_USB_SPEED_FULL] = 64,
					      [KM_USB_SPEED_HIGH] = 1024,
					      [KM_USB_SPEED_SUPER] = 1024 };
	const char *np2 = pow2(mp) ? "" : " (not a power of two)";

	if (speed == KM_USB_SPEED_LOW) {
		km_report(m, KM_WARN, KM_R_USB_MAXPACKET, "config 1 interface 0 altsetting 0 "
			  "endpoint 0x%X is Bulk; changing to Interrupt (maxpacket %u%s)",
			  EP_OUT_ADDR, mp, np2);
		return 0;
	}
	if (era == KM_USBNET_MAINLINE && mp > maxes[speed]) {
		km_report(m, KM_WARN, KM_R_USB_MAXPACKET, "config 1 interface 0 altsetting 0 "
			  "endpoint 0x%X has invalid maxpacket %u, setting to %u%s", EP_OUT_ADDR,
			  mp, maxes[speed], np2);
		mp = maxes[speed];
		np2 = "";
	}
	if (speed == KM_USB_SPEED_HIGH && mp != 512) {
		km_report(m, KM_WARN, KM_R_USB_MAXPACKET, "config 1 interface 0 altsetting 0 "
			  "bulk endpoint 0x%X has invalid maxpacket %u%s", EP_OUT_ADDR, mp, np2);
	} else if ((speed == KM_USB_SPEED_FULL && mp != 8 && mp != 16 && mp != 32 && mp != 64) ||
		   (speed == KM_USB_SPEED_SUPER && mp != 1024)) {
		km_report(m, KM_WARN, KM_R_USB_MAXPACKET, "bulk endpoint 0x%X: maxpacket %u%s "
			  "is not one the USB spec allows at %s speed (config.c does not check)",
			  EP_OUT_ADDR, mp, np2, km_usb_speed_name(speed));
	} else if (!pow2(mp)) {
		km_report(m, KM_WARN, KM_R_USB_MAXPACKET, "bulk endpoint 0x%X: maxpacket %u "
			  "is not a power of two", EP_OUT_ADDR, mp);
	}
	return mp;
}

/* NETIF_F_* transmit checksum bits (include/linux/netdev_features.h,
 * mainline bit numbers, as the compatibility layer's) */
#define NETIF_F_IP_CSUM (1ULL << 1)
#define NETIF_F_HW_CSUM (1ULL << 3)
#define NETIF_F_IPV6_CSUM (1ULL << 4)

/* A bind that advertises transmit checksumming has the stack hand the
 * driver CHECKSUM_PARTIAL skbs (the core resolves them with
 * skb_checksum_help() only for a device without the feature: v3.5
 * dev_hard_start_xmit(), mainline validate_xmit_skb()); a device that
 * does not compute the checksum sends them unfinished. Only a variant
 * that says what its device does (its @csum) is held to it. */
static void tx_csum_check(struct km_usbnet *dev, const struct km_usbnet_variant *v)
{
	uint64_t f = dev->net->features & (NETIF_F_IP_CSUM | NETIF_F_HW_CSUM | NETIF_F_IPV6_CSUM);

	if (f && km_usbnet_variant_has(v, csum) && !(v->csum & KM_USBNET_TX_CSUM))
		km_report(dev->m, KM_WARN, KM_R_TX_CSUM_FEATURE, "usbnet_probe: %s's bind sets "
			  "features %#" PRIx64 " (NETIF_F_IP_CSUM, _HW_CSUM, _IPV6_CSUM) on a device "
			  "without transmit checksum offload: CHECKSUM_PARTIAL skbs go out with "
			  "their checksums unfinished", v->name, f);
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
		return km_err(-EINVAL, "usbnet_probe: maxpacket %u does not fit the 11 bits of "
			      "a bulk wMaxPacketSize", maxpacket);
	/* usb_maxpacket() of 0: a broken device. v3.5 had no check and
	 * would divide by zero in usbnet_start_xmit(); later kernels'
	 * usbnet_probe() return -ENODEV (and config.c skips the endpoint) */
	if (maxpacket == 0)
		return km_err(-ENODEV, "usbnet_probe: bulk-out maxpacket is 0: a broken device");
	/* enumeration (config.c) comes before the driver's probe */
	maxpacket = parse_endpoint(m, v->era, speed, maxpacket);
	if (maxpacket == 0)
		return km_err(-ENODEV, "usbnet_probe: no bulk-out endpoint at low speed");
	dev = g_new0(struct km_usbnet, 1);
	dev->m = m;
	dev->driver_info = info;
	dev->variant = v;
	dev->era = v->era;
	dev->speed = speed;
	dev->net = &dev->netdev;	/* the appended one (see netdev_v1) */
	km_net_device_init_ether(dev->net);	/* alloc_etherdev() */
	/* usbnet_probe() (v3.6): msg_level -1 gives DRV | PROBE | LINK;
	 * hard_mtu before bind */
	dev->msg_enable = 0x0001 | 0x0002 | 0x0004;
	dev->hard_mtu = dev->net->mtu + dev->net->hard_header_len;
	/* dev->udev = xdev before bind; the pipes usbnet_get_endpoints()
	 * would find (a bind that sets its own keeps them) */
	dev->udev = &dev->usb_device;
	dev->udev->devnum = 2;	/* the first device behind the root hub */
	dev->udev->speed = speed;
	enable_bulk_ep(dev->udev, &dev->ep_bulk_in, EP_IN_NUM, true, maxpacket);
	enable_bulk_ep(dev->udev, &dev->ep_bulk_out, EP_OUT_NUM, false, maxpacket);
	dev->in = BULK_PIPE(dev->udev->devnum, EP_IN_NUM, true);
	dev->out = BULK_PIPE(dev->udev->devnum, EP_OUT_NUM, false);
	if (info->bind) {
		status = info->bind(dev, NULL);
		if (status < 0) {
			g_free(dev);
			return km_err(status, "usbnet_probe: bind failed: %d", status);
		}
	}
	/* usb_maxpacket(dev->udev, dev->out, 1) (include/linux/usb.h, v3.5:
	 * the whole wMaxPacketSize of the out table's endpoint, 0 if none) */
	{
		const struct km_usb_host_endpoint *ep =
			dev->udev ? dev->udev->ep_out[PIPE_ENDPOINT(dev->out)] : NULL;

		dev->maxpacket = ep ? GUINT16_FROM_LE(ep->desc.wMaxPacketSize) : 0;
	}
	/* only a bind that rewrites udev, the pipes or a descriptor gets here:
	 * 0 is a broken device as above; above 11 bits the model has no
	 * bulk-out pipe for it */
	if (dev->maxpacket == 0 || dev->maxpacket > KM_USB_MAXPACKET_MAX) {
		status = km_err(-ENODEV, "usbnet_probe: after bind, usb_maxpacket(udev, out, 1) "
				"is %u: no bulk-out endpoint the model can use", dev->maxpacket);
		g_free(dev);
		return status;
	}
	tx_csum_check(dev, v);
	/* v3.5 usbnet_probe(): "if (dev->rx_urb_size == 0) dev->rx_urb_size
	 * = dev->hard_mtu;" after bind */
	if (!dev->rx_urb_size)
		dev->rx_urb_size = dev->hard_mtu;
	dev->bulk_out.m = m;
	dev->bulk_out.maxpacket = dev->maxpacket;
	if (sink)
		dev->bulk_out.sink = *sink;
	*out = dev;
	return 0;
}

void km_usbnet_rx_free_state(struct km_usbnet *dev);	/* usbnet_rx.c */

void km_usbnet_free(struct km_usbnet *dev)
{
	/* usbnet_disconnect(): the driver's unbind (a driver_info of a
	 * variant with a receive side has the member) */
	if (dev && km_usbnet_variant_has(dev->variant, framing) && dev->variant->framing &&
	    dev->driver_info->unbind)
		dev->driver_info->unbind(dev, NULL);
	km_usbnet_rx_free_state(dev);
	g_free(dev);
}

int km_usbnet_start_xmit(struct km_usbnet *dev, struct km_skb *skb)
{
	const struct km_usbnet_driver_info *info;
	struct km_task *t = km_current();
	size_t length, urb_len, room;
	bool zero_packet = false;
	bool mainline;
	void *urb;

	if (!skb)	/* cdc_ncm's timer flush (tx_fixup of NULL) is not modelled */
		return km_err(-EINVAL, "usbnet_start_xmit: NULL skb");
	if (!dev) {	/* nothing done: the skb stays its caller's */
		km_report(skb->m, KM_BUG, KM_R_UNEXPECTED, "usbnet_start_xmit: NULL device");
		return km_err(-EINVAL, "usbnet_start_xmit: NULL device");
	}
	info = dev->driver_info;
	mainline = dev->era == KM_USBNET_MAINLINE;
	if (skb->m != dev->m) {	/* nothing done: the skb stays its caller's */
		km_report(skb->m, KM_BUG, KM_R_UNEXPECTED,
			  "usbnet_start_xmit: skb of another machine than the device");
		return km_err(-EINVAL, "usbnet_start_xmit: skb and device of different machines");
	}
	if (!t || t->m != dev->m) {
		km_kfree_skb(skb);
		return km_err(-EINVAL, "usbnet_start_xmit: no current task on this machine");
	}
	KM_EV_INC(dev->m, eth_frames);
	KM_EV_ADD(dev->m, eth_bytes, skb->len);
	if (info->tx_fixup) {
		skb = info->tx_fixup(dev, skb, KM_GFP_ATOMIC);
		if (!skb) {
			dev->tx_fixup_null++;
			/* v3.5: drop only with netif_msg_tx_err(), else "cdc_ncm
			 * collected packet; waits for more"; mainline: "packet
			 * collected; minidriver waiting for more" only with
			 * FLAG_MULTI_PACKET, else drop */
			if (mainline ? !(info->flags & KM_FLAG_MULTI_PACKET) : dev->msg_tx_err)
				dev->net->tx_dropped++;	/* drop: */
			return 0;			/* not_drop: */
		}
	}
	/* v3.5: entry->length = length = skb->len, before the pad byte;
	 * mainline: length = urb->transfer_buffer_length, counted after it */
	length = skb->len;

	/* usb_alloc_urb(0, GFP_ATOMIC) after the fixup (both eras); none:
	 * "no urb", drop */
	urb = alloc_urb(t);
	if (!urb) {
		dev->net->tx_dropped++;
		km_dev_kfree_skb_any(skb);
		return 0;			/* NETDEV_TX_OK */
	}

	/* usb_fill_bulk_urb(urb, ..., skb->data, skb->len, ...); the length
	 * rules are the same in v3.5 and mainline (mainline's scatter-gather
	 * branch needs dev->can_dma_sg, which no modelled driver sets) */
	urb_len = skb->len;
	if (urb_len % dev->maxpacket == 0) {
		if (!(info->flags & KM_FLAG_SEND_ZLP)) {
			if (!(info->flags & KM_FLAG_MULTI_PACKET)) {
				urb_len++;
				if (km_skb_tailroom(skb)) {
					/* the checker reports a write into a
					 * shared buffer; the byte is written */
					if (km_skb_may_write(skb, skb->data + skb->len, 1))
						skb->data[skb->len] = 0;
					km_skb_put(skb, 1);	/* __skb_put */
				}
			}
		} else {
			zero_packet = true;		/* URB_ZERO_PACKET */
		}
	}
	if (mainline) {
		length = urb_len;
		if (info->flags & KM_FLAG_MULTI_PACKET) {
			/* the driver set packets and a length delta
			 * (usbnet_set_skb_tx_stats()) */
			skb->usbnet_length += (long)length;
			if (skb->usbnet_length <= 0) {
				/* WARN_ON_ONCE(): once per boot of the machine */
				if (!dev->m->usbnet->warned_length)
					km_report(dev->m, KM_WARN, KM_R_WARN_ON, "usbnet_start_xmit: "
						  "WARN_ON_ONCE(entry->length %ld <= 0)",
						  skb->usbnet_length);
				dev->m->usbnet->warned_length = true;
				skb->usbnet_length = (long)length;
			}
		} else {
			skb->usbnet_packets = 1;	/* usbnet_set_skb_tx_stats(skb, 1, length) */
			skb->usbnet_length = (long)length;
		}
	} else {
		skb->usbnet_length = (long)length;	/* entry->length */
	}
	dev->last_urb_len = urb_len;
	dev->last_urb_zero_packet = zero_packet;

	/* the host controller reads [data, data + urb_len): it must lie in the
	 * kmalloc object (the byte after a full buffer is in the shinfo area) */
	room = skb->data >= skb->head && skb->data <= skb->end ?
	       (size_t)(skb->end - skb->data) + km_skb_shinfo_size(dev->m) : 0;
	if (urb_len > room) {
		km_report(dev->m, KM_BUG, KM_R_SKB_INVALID,
			  "usbnet_start_xmit: URB of %zu bytes at head%+td runs past the skb "
			  "buffer (end at head%+td)", urb_len, skb->data - skb->head,
			  skb->end - skb->head);
		km_kfree_skb(skb);
		km_kfree(t, urb);
		return -EINVAL;
	}
	km_usb_bulk_out(&dev->bulk_out, skb->data, urb_len, zero_packet);
	/* usbnet_bh(): tx_done frees the URB */
	km_kfree(t, urb);

	/* tx_complete() with urb->status 0, then usbnet_bh(): tx_done */
	if (mainline) {
		dev->net->tx_packets += skb->usbnet_packets;
		dev->net->tx_bytes += (unsigned long)skb->usbnet_length;
	} else {
		if (!(info->flags & KM_FLAG_MULTI_PACKET))
			dev->net->tx_packets++;
		dev->net->tx_bytes += (unsigned long)skb->usbnet_length;
	}
	km_consume_skb(skb);	/* dev_kfree_skb() */
	return 0;			/* NETDEV_TX_OK */
}

/* A v3.5 device's transfer: v3.5's own asix text, asix_rx_fixup() of
 * drivers/net/usb/asix.c (asix_rx_fixup_v3_5.c) under ax88772_info's
 * flags -- FLAG_MULTI_PACKET, so rx_process() frees the URB's skb once
 * every frame went up as a copy (netdev_alloc_skb_ip_align(), memcpy(),
 * usbnet_skb_return()) -- in an AX88772's URB of 2048 bytes */
static int rx_v3_5(struct km_usbnet *dev, const void *buf, size_t len)
{
	const struct km_usbnet_driver_info *info = &km_asix_v35_ax88772_info;
	size_t mp = dev->maxpacket;
	bool failed;
	int n;

	n = km_usbnet_rx_run(dev, buf, len, info->rx_fixup, info->flags, KM_USBNET_RX_URB_SIZE,
			     &failed);
	if (n < 0)
		return n;
	/* the device's transfer: a short packet or a ZLP ends it */
	KM_EV_ADD(dev->m, usb_in_packets, (len + mp - 1) / mp + (len % mp == 0));
	KM_EV_ADD(dev->m, usb_in_zlps, len % mp == 0);
	if (failed)
		return km_err(-EPROTO, "asix_rx_fixup() (v3.5) returned 0 after %d frame%s: a bad "
			      "header or length, or no memory for a frame's copy", n,
			      n == 1 ? "" : "s");
	return n;
}

int km_usbnet_rx(struct km_usbnet *dev, const void *buf, size_t len)
{
	struct km_task *t = km_current();
	const uint8_t *p = buf;
	struct km_machine *m;
	struct km_skb *skb;
	size_t off = 0, mp;
	int frames = 0, clones = 0, rc = 0;

	if (!dev || (len && !buf) || len > KM_USBNET_RX_URB_SIZE)
		return km_err(-EINVAL, "usbnet_rx: NULL device or buffer, or %zu bytes past the "
			      "%u-byte URB", len, KM_USBNET_RX_URB_SIZE);
	m = dev->m;
	if (!t || t->m != m)
		return km_err(-EINVAL, "usbnet_rx: no current task on the device's machine");
	if (dev->era == KM_USBNET_V3_5)
		return rx_v3_5(dev, buf, len);
	/* a mainline-era device: the text before a9e0aca4b378, a cost model */
	/* the URB the last transfer completed on (usbnet_rx.c), then
	 * rx_submit()'s skb: v3.5's __netdev_alloc_skb_ip_align(), a page
	 * fragment at this size (skbuff.c, as km_usbnet_rx_urb() of v3.5) */
	if (!km_usbnet_rx_urb_get(t, dev))
		return km_err(-ENOMEM, "usbnet_rx: no URB");
	skb = km_skb_alloc_rx_urb(t, KM_USBNET_RX_URB_SIZE, 0, true);
	if (!skb) {	/* "no rx skb": rx_submit() frees the URB */
		km_usbnet_rx_urb_free(dev);
		return km_err(-ENOMEM, "usbnet_rx: no page for the fragment");
	}
	KM_EV_INC(m, urbs);			/* usb_submit_urb() */
	/* the device's transfer: a short packet or a ZLP ends it */
	mp = dev->maxpacket;
	KM_EV_ADD(m, usb_in_bytes, len);
	KM_EV_ADD(m, usb_in_packets, (len + mp - 1) / mp + (len % mp == 0));
	KM_EV_ADD(m, usb_in_zlps, len % mp == 0);
	/* rx_process() -> asix_rx_fixup() (v3.5) */
	while (len - off >= 4) {
		uint32_t header = (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 |
				  (uint32_t)p[off + 2] << 16 | (uint32_t)p[off + 3] << 24;
		size_t size = header & 0x07ff, padded = (size + 1) & 0xfffe;

		off += 4;
		if (len - off == padded)
			off = len;	/* the last frame: the URB's skb goes up */
		else if (size > dev->net->mtu + 14u) {
			rc = km_err(-EPROTO, "asix_rx_fixup(): Bad RX Length %zu", size);
			break;
		} else if (padded > len - off) {
			rc = km_err(-EPROTO, "asix_rx_fixup(): a %zu-byte frame runs past the "
				    "%zu-byte transfer", size, len);
			break;
		} else {
			KM_EV_INC(m, skb_clones);	/* skb_clone() for this frame */
			clones++;
			off += padded;
		}
		KM_EV_INC(m, eth_rx_frames);
		KM_EV_ADD(m, eth_rx_bytes, size);
		frames++;
	}
	/* the stack consumes each frame; the URB's own skb, passed up or not
	 * (usbnet's rx_cleanup), is freed too: every skb once, the fragment's
	 * page reference with the last */
	KM_EV_ADD(m, skb_frees, (uint64_t)clones);
	km_kfree_skb(skb);
	/* rx_complete() resubmitted the URB with the next skb: kept */
	return rc ? rc : frames;
}

int km_usbnet_init(struct km_machine *m)
{
	m->usbnet = g_try_new0(struct km_usbnet_state, 1);
	return m->usbnet ? 0 : km_err(-ENOMEM, "usbnet: no host memory for its state");
}

void km_usbnet_fini(struct km_machine *m)
{
	g_free(m->usbnet);
	m->usbnet = NULL;
}
