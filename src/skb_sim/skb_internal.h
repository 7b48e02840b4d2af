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

/* For the traffic generators (traffic.c): km_skb_push(@skb, @len), then
 * km_skb_copy_to_linear_data_offset(@skb, 0, @from, @len) -- the same
 * checks, reports and events -- in one call. */
void km_skb_push_copy(struct km_skb *skb, const void *from, unsigned int len);

/* For a holder of @skb outside the modelled code (the sweep): is the struct
 * still alive with a reference and its data buffer too? False once others
 * dropped the holder's reference (a double free): its bytes are then the
 * kmalloc allocator's, and a free would be one more double free. Reads only
 * host records (kept until teardown); KM_SKB_QUARANTINE bounds how long a
 * freed struct is told from a live one. */
bool km_skb_held(const struct km_skb *skb);

#endif
