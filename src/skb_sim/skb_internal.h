/* SPDX-License-Identifier: GPL-2.0 */
/* Private hooks of skb_sim for the machine's lifecycle (src/lifecycle/). */
#ifndef KMODEL_SKB_INTERNAL_H
#define KMODEL_SKB_INTERNAL_H

#include "internal.h"
#include <kmodel/skb.h>

/* skbuff.c: the teardown check files a report per live skb or data
 * buffer; fini frees the host structs (the kmalloc objects go with slab) */
int km_skb_init(struct km_machine *m);
int km_skb_check_leaks(struct km_machine *m);
void km_skb_fini(struct km_machine *m);

/* For modelled kernel code outside skb_sim (usbnet): run the sharing
 * checker on a write of @n bytes at @dst by @skb (reports what it breaks)
 * and say whether the write may be done: it may unless it would leave the
 * kmalloc object (the checker observes; only host memory is protected). */
bool km_skb_may_write(struct km_skb *skb, const void *dst, size_t n);

/* km_skb_push_copy(), km_skb_held(), km_skb_watch_*(): kmodel/skb.h */

/* struct km_skb_watch, opaque in kmodel/skb.h (km_skb_watch_new()): the
 * snapshot, and while a watch runs what it watches */
#define KM_SKB_WATCH_RANGES 8
struct km_skb_watch {
	unsigned char *snap;	/* the snapshot, snap_size bytes allocated */
	size_t snap_size;
	/* while a watch runs: */
	struct km_machine *m;
	const void *buf;	/* the buffer's record (never freed before teardown) */
	const unsigned char *obj;	/* its kmalloc object at the start */
	unsigned char *head, *lo, *hi;	/* the watched bytes [lo, hi) */
	const char *why;	/* the rule's words for them */
	int users, dataref;	/* the skb's at the start, for the message */
	unsigned int hdr_len;
	unsigned int ncovered;
	struct { uintptr_t lo, hi; } covered[KM_SKB_WATCH_RANGES];
};

/* NET_IP_ALIGN of the modelled ARM (include/linux/skbuff.h, v3.5: 2
 * unless the architecture sets it; ARM does not) */
#define KM_NET_IP_ALIGN 2u

/* usbnet's rx URB skb (src/asix/usbnet_rx.c): the geometry of
 * __netdev_alloc_skb_ip_align(dev, @size, GFP_ATOMIC) (end at
 * SKB_DATA_ALIGN(NET_SKB_PAD + NET_IP_ALIGN + @size), data reserved both),
 * in host memory @guard bytes longer, so a driver's read past the end
 * stays in host memory. @frag: v3.5's choice -- a page fragment
 * (netdev_alloc_frag()'s events) when it fits a page, else __alloc_skb()'s
 * kmalloc; false: the kmalloc always */
struct km_skb *km_skb_alloc_rx_urb(struct km_task *t, unsigned int size, unsigned int guard,
				   bool frag);

/* usbnet_rx.c: the receive path's read check (KM_R_RX_READ_PAST) of @n
 * bytes at @p, while a URB is being processed on @m (nothing otherwise) */
void km_rx_read_check(struct km_machine *m, const void *p, size_t n);

#endif
