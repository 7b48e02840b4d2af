/* SPDX-License-Identifier: GPL-2.0 */
/* Private to src/asix: the ported driver tables. */
#ifndef KMODEL_ASIX_INTERNAL_H
#define KMODEL_ASIX_INTERNAL_H

#include <kmodel/usb.h>

extern const struct km_usbnet_driver_info km_asix_v35_ax88772_info;
extern const struct km_usbnet_driver_info km_asix_v36_ax88772_info;
extern const struct km_usbnet_driver_info km_asix_mainline_ax88772_info;
extern const struct km_usbnet_driver_info km_asix_hardened_info;
extern const struct km_usbnet_driver_info km_sr9800_info;
extern const struct km_usbnet_driver_info km_ax88179_info;
extern const struct km_usbnet_driver_info km_ax88179_v5_7_info;
extern const struct km_usbnet_driver_info km_ax88179_v5_16_info;
extern const struct km_usbnet_driver_info km_ax88179_57bc_info;

/* the rx_fixup ports' entries (each file's verbatim function is static) */
int km_asix_v35_rx_fixup(struct km_usbnet *dev, struct km_skb *skb);
int km_sr9800_rx_fixup(struct km_usbnet *dev, struct km_skb *skb);
int km_ax88179_rx_fixup(struct km_usbnet *dev, struct km_skb *skb);

/* a ported bind's private struct (dev->driver_priv), zeroed: host memory,
 * not the machine's kmalloc (the model counts no allocation of a bind), so
 * an unbind frees it without a current task (usbnet.c) */
void *km_usbnet_priv_alloc(struct km_usbnet *dev, size_t size);
void km_usbnet_priv_free(struct km_usbnet *dev, void *p, size_t size);
int km_asix_v4_14_rx_fixup(struct km_usbnet *dev, struct km_skb *skb);
void km_asix_v4_14_unbind(struct km_usbnet *dev, struct km_usb_interface *intf);
int km_asix_v4_14_bind(struct km_usbnet *dev, struct km_usb_interface *intf);
extern const struct km_usbnet_driver_info km_asix_v4_14_info;

/* ax88179_dev.c: the AX88179's bulk-out parser as a km_usbnet_dev */
int km_ax88179_dev_new(struct km_machine *m, km_usbnet_frame_fn fn, void *arg,
		       struct km_usbnet_dev *out);
/* is @d (non-NULL) an instance of it? */
bool km_ax88179_dev_is(const struct km_usbnet_dev *d);

/* framing.c: a KM_FRAMING_ENCODER's decode hook (checked by the caller)
 * as a bulk-out device, for km_framing_dev_new() */
int km_framing_hook_dev_new(struct km_machine *m, const struct km_framing *f,
			    km_usbnet_frame_fn fn, void *arg, struct km_usbnet_dev *out);

#endif
