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

/*
 * A harness's watch for plain C stores (the sweep, iperf): the checker sees
 * only writes through a call, so around a call of modelled code (usbnet's
 * start_xmit with the driver's tx_fixup) on an skb whose buffer is shared,
 * the harness snapshots the bytes the checker's rules forbid that skb to
 * write, and afterwards reports each changed run of them that no checker
 * report covered -- a store not through an accessor -- as a
 * KM_R_SKB_STORE_SHARED BUG. The stores stay (the checker observes).
 *
 * km_skb_watch_begin(): asks the rules (reporting nothing) which bytes of
 * [head, end) @skb may not write: none for a private skb (no watch, no
 * cost), [head + hdr_len, end) for a clone whose writable header is
 * [head, head + hdr_len), all of [head, end) for a shared (users > 1) or
 * header-cloned skb or a nohdr owner. Those outside [data, tail) (headroom
 * and tailroom, undefined in the kernel; no other holder's data in the
 * harnesses' skbs, whose holders' data lies within the driver's) get the
 * complement of their value, so a store of the value they held is seen
 * too. Copies them into @w's snapshot
 * (grown as needed, kept for the next watch: no allocation per packet
 * once grown). Nothing when the checker is off or a watch is already
 * running on the machine. Return: whether the watch runs (then
 * km_skb_watch_end() must follow before the machine's next watch).
 *
 * km_skb_watch_end(): compares; the checker's reports during the watch
 * marked the bytes they covered (up to KM_SKB_WATCH_RANGES ranges; past
 * that the last range grows to take the new one in, so a store between
 * two reported writes may go unreported then). Nothing when the buffer was
 * freed meanwhile (a shared buffer is not, unless the code dropped a
 * reference it did not own: a KM_R_SKB_REFCOUNT case of its own). Return:
 * the number of reports made.
 *
 * km_skb_watch_fini(): frees the snapshot (no watch may be running).
 */
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
bool km_skb_watch_begin(struct km_skb_watch *w, struct km_skb *skb);
unsigned int km_skb_watch_end(struct km_skb_watch *w);
void km_skb_watch_fini(struct km_skb_watch *w);

#endif
