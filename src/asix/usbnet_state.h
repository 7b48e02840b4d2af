/* SPDX-License-Identifier: GPL-2.0 */
/* Private to usbnet (asix/usbnet.c, asix/usbnet_rx.c): its state on a
 * machine, m->usbnet (km_usbnet_init(), km_usbnet_fini()). */
#ifndef KMODEL_USBNET_STATE_H
#define KMODEL_USBNET_STATE_H

#include <stdbool.h>
#include <stddef.h>

struct km_usbnet_rx;
struct km_usbnet;
struct km_task;

struct km_usbnet_state {
	/* usbnet_start_xmit()'s WARN_ON_ONCE() fired (its static __warned:
	 * once per boot) */
	bool warned_length;
	/* the receive path processing a URB on this machine (its read
	 * checks and step bound; usbnet_rx.c), or NULL */
	struct km_usbnet_rx *rx_active;
};

/* usbnet_rx.c: the receive URB rx_complete() resubmits, allocated when
 * the device has none; its usb_free_urb() */
void *km_usbnet_rx_urb_get(struct km_task *t, struct km_usbnet *dev);
void km_usbnet_rx_urb_free(struct km_usbnet *dev);
struct km_skb;
/* usbnet_rx.c: rx_submit() .. usbnet_bh() of one bulk-in transfer with an
 * rx_fixup and driver flags of the caller's choice (km_usbnet_rx_urb():
 * the variant's; km_usbnet_rx(): v3.5's ax88772_info), into an skb of
 * @urb_size; *@fixup_failed when rx_fixup returned 0. Returns the frames
 * passed up, or -EINVAL/-ENOMEM as km_usbnet_rx_urb(). */
int km_usbnet_rx_run(struct km_usbnet *dev, const void *buf, size_t len,
		     int (*rx_fixup)(struct km_usbnet *, struct km_skb *), int flags,
		     size_t urb_size, bool *fixup_failed);

#endif
