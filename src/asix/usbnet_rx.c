// SPDX-License-Identifier: GPL-2.0
/*
 * usbnet's receive path (drivers/net/usb/usbnet.c: rx_submit(),
 * rx_complete(), rx_process(), usbnet_skb_return(), usbnet_bh()'s
 * rx_cleanup), of v3.5 and of mainline, one per variant's era, with the
 * receive-side checkers (see include/kmodel/usb.h, km_usbnet_rx_urb()).
 *
 * Read: v3.5's rx_complete()/rx_process() from usbnet.c of a linux-3.5
 * tree (the hard_header_len check in rx_complete(), `if (skb->len)` in
 * rx_process()); mainline's from usbnet.c at torvalds/linux 002bba562dd3
 * (rx_complete() without the check, rx_process() with `skb->len <
 * ETH_HLEN`). The check left rx_complete() with "usbnet: remove generic
 * hard_header_len check" (Emil Goode, 2014-02-17; minidrivers got their
 * own, "This check is no longer done by usbnet"; its id not verified
 * here). 81e0ce79f291 "usbnet: allow mini-drivers to consume L2 headers"
 * (v4.5) did not move it: it only makes usbnet_skb_return() leave a
 * skb->protocol the minidriver set, which asix never does. fb59bf28cd63
 * "usbnet: optimize usbnet_bh() to reduce CPU load" (v6.3) only turned
 * rx_process()'s cleanup into return values.
 */
#include "skb_internal.h"
#include "asix_internal.h"
#include <kmodel/usb.h>
#include "usbnet_state.h"
#include <setjmp.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The stop out of a driver's rx_fixup (a loop without progress, a read
 * past the guard): GCC's and clang's __builtin_setjmp(), which saves the
 * frame and stack pointers (libc's setjmp() costs a call chain on every
 * URB); libc's under ASan, whose longjmp() interceptor unpoisons the
 * stack the jump leaves. ASan: GCC defines __SANITIZE_ADDRESS__, clang
 * answers __has_feature(address_sanitizer) */
#if defined(__SANITIZE_ADDRESS__)
#define RX_LIBC_SETJMP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RX_LIBC_SETJMP 1
#endif
#endif
#ifdef RX_LIBC_SETJMP
typedef jmp_buf rx_jmp_buf;
#define rx_setjmp(b) setjmp(b)
#define rx_longjmp(b) longjmp((b), 1)
#else
typedef void *rx_jmp_buf[5];
#define rx_setjmp(b) __builtin_setjmp(b)
#define rx_longjmp(b) __builtin_longjmp((b), 1)
#endif

#define ETH_HLEN 14u
/* how far past the URB's end a driver may read and stay in the model's
 * host memory: ax88179_rx_fixup() before 57bc3d3ae8c1 reads at data + a
 * 16-bit hdr_off, then up to 65535 descriptors of 4 bytes, and clones a
 * 13-bit pkt_len from there */
#define RX_GUARD (0x10000u + 4u * 0x10000u + 0x2000u + 64u)
/* how far past the URB's data a driver's pointer reaches with a 32-bit
 * offset (aqc111_rx_fixup()'s desc_offset, skb->len): the span behind
 * the guard the model reserves, so a read that starts anywhere in it is
 * the URB's, never another object's */
#define RX_REACH ((size_t)1 << 32)
#define POISON_FREE 0x6b	/* include/linux/poison.h: stale bytes */

struct km_usbnet_rx {
	struct km_usbnet *dev;
	km_usbnet_rx_fn fn;
	void *arg;
	km_usbnet_rx_skb_fn skb_fn;
	void *skb_arg;
	struct km_usbnet_rx_stats st;
	/* the URB being processed */
	const unsigned char *lo, *hi;	/* its bytes: [lo, hi) */
	const unsigned char *obj_hi;	/* the end of its buffer's guard */
	const unsigned char *far_hi;	/* the end of the reserved span behind it */
	/* the buffer's bytes as the driver sees them: @area_rw bytes of
	 * buffer and guard, then RX_REACH reserved (PROT_NONE); NULL when the
	 * host refused it (the kmalloc object and its guard, then) */
	unsigned char *area;
	size_t area_rw;
	const unsigned char *head;	/* its buffer */
	const unsigned char *poisoned;	/* buffer whose guard was filled */
	size_t dirty;			/* bytes after data written since */
	unsigned long steps, max_steps;
	bool read_reported;
	rx_jmp_buf stop;
	/* the bind's private struct the last unbind gave back (host memory,
	 * kept for the next bind of its size: a sweep rebinds every state) */
	void *priv_spare;
	size_t priv_spare_size;
	/* the bulk-in URB rx_complete() resubmits (the model's one of rxq):
	 * kmalloc'ed once, freed where the kernel frees it (usbnet.c) */
	void *urb;
};

static struct km_usbnet_rx *rx_of(struct km_usbnet *dev)
{
	if (!dev->rx) {
		dev->rx = g_new0(struct km_usbnet_rx, 1);
		dev->rx->dev = dev;
	}
	return dev->rx;
}

void km_usbnet_rx_free_state(struct km_usbnet *dev);
static void area_free(struct km_usbnet_rx *rx)
{
	if (rx->area)
		munmap(rx->area, rx->area_rw + RX_REACH);
	rx->area = NULL;
	rx->area_rw = 0;
	rx->poisoned = NULL;
}

void km_usbnet_rx_free_state(struct km_usbnet *dev)
{
	if (dev && dev->rx) {
		/* usbnet_stop(): usbnet_terminate_urbs() unlinks rxq; the
		 * completion (-ECONNRESET, rx_cleanup) frees the URB */
		km_usbnet_rx_urb_free(dev);
		area_free(dev->rx);
		g_free(dev->rx->priv_spare);
		g_free(dev->rx);
		dev->rx = NULL;
	}
}

/* asix_internal.h: a ported driver's private struct in host memory */
void *km_usbnet_priv_alloc(struct km_usbnet *dev, size_t size)
{
	struct km_usbnet_rx *rx = rx_of(dev);
	void *p = rx->priv_spare;

	if (!p || rx->priv_spare_size != size)
		return g_malloc0(size);
	rx->priv_spare = NULL;
	return memset(p, 0, size);
}

void km_usbnet_priv_free(struct km_usbnet *dev, void *p, size_t size)
{
	struct km_usbnet_rx *rx = rx_of(dev);

	if (!p)
		return;
	g_free(rx->priv_spare);
	rx->priv_spare = p;
	rx->priv_spare_size = size;
}

/*
 * The receive URB (drivers/net/usb/usbnet.c, v3.5 and mainline): usbnet_bh()
 * (mainline: rx_alloc_submit()) usb_alloc_urb()s one only while rxq is
 * short, and rx_submit() gives it a fresh skb; rx_complete() of a
 * transfer with status 0 resubmits the same URB (`if (urb) { if
 * (netif_running(dev->net) && !test_bit(EVENT_RX_HALT, ...)) {
 * rx_submit(dev, urb, GFP_ATOMIC); ... return; } usb_free_urb(urb); }`).
 * So a transfer takes the URB the last one completed on; a new one only
 * for the first transfer, or after rx_submit() found no skb and freed it
 * ("no rx skb": usb_free_urb(), EVENT_RX_MEMORY, whose kevent allocates
 * the next). The model keeps the one URB its transfers complete on.
 */
void *km_usbnet_rx_urb_get(struct km_task *t, struct km_usbnet *dev)
{
	struct km_usbnet_rx *rx = rx_of(dev);

	if (!rx->urb) {
		/* the ARM struct urb (usbnet.c: ARM_SIZEOF_URB) */
		rx->urb = km_kmalloc(t, 124u, KM_GFP_ATOMIC);
		if (rx->urb)
			KM_EV_INC(t->m, urb_allocs);
	}
	return rx->urb;
}

/* usb_free_urb() of the receive URB: rx_submit() without an skb, or
 * teardown */
void km_usbnet_rx_urb_free(struct km_usbnet *dev)
{
	if (dev && dev->rx && dev->rx->urb) {
		km_kfree_obj(dev->m, dev->rx->urb);	/* kmalloc's pointer: no lookup */
		dev->rx->urb = NULL;
	}
}

/* @dev's receive state for a sink setter @what, or NULL (no device) */
static struct km_usbnet_rx *sink_of(struct km_usbnet *dev, const char *what)
{
	if (!dev) {
		km_set_error("%s: NULL device", what);
		return NULL;
	}
	return rx_of(dev);
}

void km_usbnet_set_rx_sink(struct km_usbnet *dev, km_usbnet_rx_fn fn, void *arg)
{
	struct km_usbnet_rx *rx = sink_of(dev, "usbnet_set_rx_sink");

	if (rx)
		rx->fn = fn, rx->arg = arg;
}

void km_usbnet_set_rx_skb_sink(struct km_usbnet *dev, km_usbnet_rx_skb_fn fn, void *arg)
{
	struct km_usbnet_rx *rx = sink_of(dev, "usbnet_set_rx_skb_sink");

	if (rx)
		rx->skb_fn = fn, rx->skb_arg = arg;
}

void km_usbnet_rx_get_stats(const struct km_usbnet *dev, struct km_usbnet_rx_stats *out)
{
	static const struct km_usbnet_rx_stats zero;

	if (!out)
		return;
	*out = dev && dev->rx ? dev->rx->st : zero;
}

/* ---- the checkers -------------------------------------------------------- */

/* Does [p, p + n) reach past the URB's bytes into its buffer (or guard)? */
static bool past_urb(const struct km_usbnet_rx *rx, uintptr_t p, size_t n)
{
	uintptr_t lo = (uintptr_t)rx->head, hi = (uintptr_t)rx->hi;

	return n && p + n > hi && p < (uintptr_t)rx->far_hi && p + n > lo;
}

static void read_past(struct km_usbnet_rx *rx, uintptr_t p, size_t n, const char *what)
{
	if (rx->read_reported)	/* one per URB: the first says where */
		return;
	rx->read_reported = true;
	km_report(rx->dev->m, KM_BUG, KM_R_RX_READ_PAST,
		  "%s: %zu bytes at URB offset %td read past its %td bytes of data (rx_urb_size "
		  "%zu)", what, n, (ptrdiff_t)(p - (uintptr_t)rx->lo),
		  rx->hi - rx->lo, rx->dev->rx_urb_size);
}

/* [p, p + n) starts in the URB's buffer, guard or the span reserved
 * behind them, and does not end in the guard: bytes that are not the
 * buffer's (reserved, or host memory that is not the model's) */
static bool past_guard(const struct km_usbnet_rx *rx, uintptr_t p, size_t n)
{
	uintptr_t end = (uintptr_t)rx->obj_hi;

	return p >= (uintptr_t)rx->head && p < (uintptr_t)rx->far_hi && (p >= end || n > end - p);
}

/* a read past the URB that would also leave the guard: reported (even
 * after this URB's first report) and not done -- out of rx_fixup, as
 * for a loop that makes no progress */
static void __attribute__((noreturn)) stop_past_guard(struct km_usbnet_rx *rx, uintptr_t p,
						       size_t n)
{
	km_report(rx->dev->m, KM_BUG, KM_R_RX_READ_PAST, "rx_fixup read: %zu bytes at URB "
		  "offset %td read past its %td bytes of data and past the model's guard "
		  "(%td bytes of buffer and guard): stopped", n, (ptrdiff_t)(p - (uintptr_t)rx->lo),
		  rx->hi - rx->lo, rx->obj_hi - rx->lo);
	rx_longjmp(rx->stop);
}

void km_rx_read_check(struct km_machine *m, const void *p, size_t n)
{
	struct km_usbnet_rx *rx = m->usbnet->rx_active;

	if (rx && past_urb(rx, (uintptr_t)p, n)) {
		if (past_guard(rx, (uintptr_t)p, n))
			stop_past_guard(rx, (uintptr_t)p, n);
		read_past(rx, (uintptr_t)p, n, "rx_fixup read");
	}
}

/* km_compat_rx_step()'s read past the URB (rare: out of line, so the
 * step itself saves no registers) */
static void __attribute__((noinline, cold)) step_read_past(struct km_usbnet_rx *rx,
							   const void *p, size_t n)
{
	if (past_guard(rx, (uintptr_t)p, n))
		stop_past_guard(rx, (uintptr_t)p, n);
	read_past(rx, (uintptr_t)p, n, "rx_fixup read");
}

static void __attribute__((noinline, cold, noreturn)) step_no_progress(struct km_usbnet_rx *rx)
{
	km_report(rx->dev->m, KM_BUG, KM_R_RX_NO_PROGRESS, "rx_fixup: %lu steps on a "
		  "%td-byte URB without getting through it: stopped", rx->steps,
		  rx->hi - rx->lo);
	rx_longjmp(rx->stop);
}

/* the compatibility layer's step of a receive loop (and read of @n bytes at
 * @p, if any): past the bound, KM_R_RX_NO_PROGRESS and out of rx_fixup */
void km_compat_rx_step(const void *p, size_t n)
{
	struct km_task *t = km_current();
	struct km_usbnet_rx *rx;

	if (!t)
		return;
	/* the URB of the task's rx_fixup; else (outside it, or another task
	 * of the machine runs the loop) the machine's */
	rx = t->rx_fixup;
	if (!rx && !(rx = t->m->usbnet->rx_active))
		return;
	if (__builtin_expect(past_urb(rx, (uintptr_t)p, n), 0))
		step_read_past(rx, p, n);
	if (__builtin_expect(++rx->steps > rx->max_steps, 0))
		step_no_progress(rx);
}

/* ---- usbnet_skb_return() ------------------------------------------------- */

/* CHECKSUM_UNNECESSARY tells the stack the device verified the TCP/UDP
 * checksum (include/linux/skbuff.h): tcp_v4_rcv()/udp_rcv() then skip
 * theirs. Right only where the device did verify these bytes (cold: a
 * driver that sets it at all is rare on the model's frames) */
static void __attribute__((noinline, cold)) csum_check(struct km_usbnet *dev,
						       const uint8_t *d, size_t n)
{
	static const char *const why[] = {
		[KM_CSUM_UNCHECKED] = "that the device does not check (not an IPv4 TCP/UDP frame)",
		[KM_CSUM_BAD_L3] = "whose IPv4 header checksum the device flagged bad",
		[KM_CSUM_BAD_L4] = "whose TCP/UDP checksum the device flagged bad",
	};
	const struct km_usbnet_variant *v = dev->variant;
	enum km_csum_verdict c;

	if (!km_usbnet_variant_has(v, csum) || !(v->csum & KM_USBNET_RX_CSUM)) {
		km_report(dev->m, KM_BUG, KM_R_RX_CSUM_UNVERIFIED, "usbnet_skb_return: ip_summed "
			  "CHECKSUM_UNNECESSARY on a %zu-byte frame of a device without receive "
			  "checksum offload (variant %s): nothing verified it", n, v->name);
		return;
	}
	c = km_csum_rx_verdict(d, n, NULL);
	if (c != KM_CSUM_GOOD)
		km_report(dev->m, KM_BUG, KM_R_RX_CSUM_UNVERIFIED, "usbnet_skb_return: ip_summed "
			  "CHECKSUM_UNNECESSARY on a %zu-byte frame %s (variant %s)", n, why[c],
			  v->name);
}

void km_usbnet_skb_return(struct km_usbnet *dev, struct km_skb *skb)
{
	struct km_usbnet_rx *rx;
	const unsigned char *d, *e;
	size_t n;

	if (!skb)
		return;
	if (!dev || skb->m != dev->m) {
		km_report(skb->m, KM_BUG, KM_R_UNEXPECTED,
			  "usbnet_skb_return: NULL device or skb of another machine");
		return;
	}
	rx = rx_of(dev);
	d = skb->data;
	n = skb->len;
	/* the bytes the stack reads: len, and eth_type_trans()'s header */
	e = (const unsigned char *)((uintptr_t)d + MAX(n, (size_t)ETH_HLEN));
	if (skb->tail > e)
		e = skb->tail;
	if (rx->head && skb->head == rx->head) {
		/* a frame in the URB's buffer (the skb, or a clone of it) */
		if (past_urb(rx, (uintptr_t)d, (size_t)(e - d)))
			read_past(rx, (uintptr_t)d, (size_t)(e - d), "frame passed up");
		/* what is host memory of the buffer and its guard */
		if (d < skb->head || d > rx->obj_hi)
			n = 0;
		else
			n = MIN(n, (size_t)(rx->obj_hi - d));
	} else if (d < skb->head || d > skb->end || n > (size_t)(skb->end - d)) {
		km_report(dev->m, KM_BUG, KM_R_SKB_INVALID, "usbnet_skb_return: frame of %u "
			  "bytes at head%+td runs past its buffer (end at head%+td)", skb->len,
			  d - skb->head, skb->end - skb->head);
		n = d >= skb->head && d <= skb->end ? (size_t)(skb->end - d) : 0;
	}
	n = MIN(n, (size_t)0x10000);
	KM_EV_INC(dev->m, eth_rx_frames);
	KM_EV_ADD(dev->m, eth_rx_bytes, skb->len);
	rx->st.frames++;
	if (__builtin_expect(skb->ip_summed == KM_CHECKSUM_UNNECESSARY, 0))
		csum_check(dev, d, n);
	if (rx->fn)	/* the bytes as they are, valid during the call */
		rx->fn(rx->arg, d, n);
	if (rx->skb_fn)
		rx->skb_fn(rx->skb_arg, d, n, skb);
	/* eth_type_trans(): skb_pull_inline(skb, ETH_HLEN) when it can */
	if (skb->len >= ETH_HLEN && skb->data >= skb->head) {
		skb->data += ETH_HLEN;
		skb->len -= ETH_HLEN;
	}
	dev->net->stats.rx_packets++;
	dev->net->stats.rx_bytes += skb->len;
	/* netif_rx(): the stack consumes it */
	km_consume_skb(skb);
}

/* ---- rx_submit(), rx_complete(), rx_process(), usbnet_bh() --------------- */

/* the URB's skb on the model's reserved span (area_rw bytes of buffer and
 * guard, then RX_REACH no access): its head, data, tail and end moved
 * there, the kmalloc object it was built on still its own (kfree_skb()
 * frees that). With no span, the object and its guard as they are. */
static void on_area(struct km_usbnet_rx *rx, struct km_skb *skb)
{
	size_t page, rw = (size_t)(skb->end - skb->head) + RX_GUARD;
	void *a;

	if (!rx->area || rx->area_rw < rw) {	/* once per device, or a larger URB */
		page = (size_t)sysconf(_SC_PAGESIZE);
		rw = (rw + page - 1) / page * page;
		area_free(rx);
		a = mmap(NULL, rw + RX_REACH, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (a == MAP_FAILED)
			return;
		if (mprotect(a, rw, PROT_READ | PROT_WRITE)) {
			munmap(a, rw + RX_REACH);
			return;
		}
		rx->area = a;
		rx->area_rw = rw;
	}
	skb->data = rx->area + (skb->data - skb->head);
	skb->tail = rx->area + (skb->tail - skb->head);
	skb->end = rx->area + (skb->end - skb->head);
	skb->head = rx->area;
}

/* the URB's buffer: poison what the previous transfer left, the first time
 * the guard too */
static void prepare(struct km_usbnet_rx *rx, struct km_skb *skb, size_t len)
{
	unsigned char *d = skb->data;
	size_t room = (size_t)(skb->end - d), guard_end = room + RX_GUARD;

	if (rx->poisoned != skb->head) {
		memset(d, POISON_FREE, guard_end);
		rx->poisoned = skb->head;
		rx->dirty = 0;
	} else if (rx->dirty > len) {
		memset(d + len, POISON_FREE, rx->dirty - len);
	}
	rx->dirty = len;
	rx->head = skb->head;
	rx->lo = d;
	rx->hi = d + len;
	rx->obj_hi = d + guard_end;
	rx->far_hi = rx->area && skb->head == rx->area ? rx->area + rx->area_rw + RX_REACH :
							  rx->obj_hi;
}

/* the driver's rx_fixup() under the step bound: km_compat_rx_step()
 * longjmp()s here past it (0: stopped, as a 0 return). A function of its
 * own, so no local of the caller lives across the setjmp() */
static int __attribute__((noinline)) call_fixup(struct km_usbnet_rx *rx,
						int (*fixup)(struct km_usbnet *, struct km_skb *),
						struct km_usbnet *dev, struct km_skb *skb)
{
	if (rx_setjmp(rx->stop))
		return 0;
	return fixup(dev, skb);
}

/*
 * rx_submit() .. usbnet_bh() for one transfer of @len bytes into an skb of
 * @urb_size with @rx_fixup and @flags (the driver_info's), @dev checked by
 * the caller. *@fixup_failed: rx_fixup returned 0 (or was stopped).
 */
int km_usbnet_rx_run(struct km_usbnet *dev, const void *buf, size_t len,
		     int (*rx_fixup)(struct km_usbnet *, struct km_skb *), int flags,
		     size_t urb_size, bool *fixup_failed)
{
	struct km_task *t = km_current();
	struct km_usbnet_rx *rx;
	struct km_machine *m = dev->m;
	struct km_skb *skb;
	uint64_t frames0;
	bool mainline, cleanup = false;

	*fixup_failed = false;
	if (m->usbnet->rx_active)
		return km_err(-EINVAL, "usbnet_rx_urb: a URB is being processed on this machine");
	mainline = dev->era == KM_USBNET_MAINLINE;
	rx = rx_of(dev);
	/* the URB the last transfer completed on (usbnet_bh()'s refill's
	 * the first time), then rx_submit()'s skb */
	if (!rx->urb && !km_usbnet_rx_urb_get(t, dev))
		return km_err(-ENOMEM, "usbnet_rx_urb: no urb");
	/* __netdev_alloc_skb_ip_align(dev->net, size, GFP_ATOMIC): v3.5's a
	 * page fragment up to a page, mainline's counted as __alloc_skb()'s
	 * kmalloc (its page_frag_alloc() is not modelled: docs/receive.md) */
	skb = km_skb_alloc_rx_urb(t, (unsigned int)urb_size, RX_GUARD, !mainline);
	if (!skb) {	/* "no rx skb": EVENT_RX_MEMORY, the URB freed */
		km_usbnet_rx_urb_free(dev);
		return km_err(-ENOMEM, "usbnet_rx_urb: no rx skb");
	}
	KM_EV_INC(m, urbs);			/* usb_submit_urb() */
	KM_EV_ADD(m, usb_in_bytes, len);
	/* the host controller writes the transfer at skb->data */
	on_area(rx, skb);
	prepare(rx, skb, len);
	memcpy(skb->data, buf, len);
	rx->st.urbs++;
	frames0 = rx->st.frames;

	/* rx_complete(): skb_put(skb, urb->actual_length); status 0 */
	km_skb_put(skb, (unsigned int)len);
	if (!mainline && skb->len < dev->net->hard_header_len) {
		dev->net->stats.rx_errors++;	/* rx_cleanup */
		dev->net->stats.rx_length_errors++;
		cleanup = true;
	}
	/* usbnet_bh(): rx_done -> rx_process() */
	if (!cleanup) {
		int ok = 1;

		if (rx_fixup) {
			rx->steps = 0;
			rx->max_steps = KM_USBNET_RX_STEPS(len);
			rx->read_reported = false;
			m->usbnet->rx_active = rx;
			t->rx_fixup = rx;
			ok = call_fixup(rx, rx_fixup, dev, skb);
			t->rx_fixup = NULL;
			m->usbnet->rx_active = NULL;
		}
		if (!ok) {
			*fixup_failed = true;
			rx->st.fixup_errors++;
			if (!(flags & KM_FLAG_RX_ASSEMBLE))
				dev->net->stats.rx_errors++;
			cleanup = true;
		} else if ((flags & KM_FLAG_MULTI_PACKET) && (mainline || skb->len)) {
			/* all data was already cloned; v3.5 tests `if (skb->len)`
			 * first, so an empty skb of such a driver is its "drop" */
			cleanup = true;
		} else if (mainline ? skb->len < ETH_HLEN : !skb->len) {
			dev->net->stats.rx_errors++;
			if (mainline)
				dev->net->stats.rx_length_errors++;
			cleanup = true;
		} else {
			m->usbnet->rx_active = NULL;
			km_usbnet_skb_return(dev, skb);
		}
	}
	/* rx_cleanup (or done): dev_kfree_skb(); the URB was resubmitted
	 * with the next skb (rx_complete(): status 0 keeps it) */
	if (cleanup)
		km_kfree_skb(skb);
	rx->head = NULL;
	return (int)(rx->st.frames - frames0);
}

int km_usbnet_rx_urb(struct km_usbnet *dev, const void *buf, size_t len)
{
	struct km_task *t = km_current();
	bool failed;

	if (!dev || (len && !buf))
		return km_err(-EINVAL, "usbnet_rx_urb: NULL device or buffer");
	if (!t)
		return km_err(-EINVAL, "usbnet_rx_urb: no current task: km_task_switch() to a "
			      "task of the device's machine first");
	if (t->m != dev->m)
		return km_err(-EINVAL, "usbnet_rx_urb: current is a task of another machine than "
			      "the device's: km_task_switch() to a task of the device's machine "
			      "first");
	if (!km_usbnet_variant_has(dev->variant, framing) || !dev->variant->framing)
		return km_err(-EINVAL, "usbnet_rx_urb: variant %s has no receive side",
			      dev->variant->name);
	if (len > dev->rx_urb_size)
		return km_err(-EINVAL, "usbnet_rx_urb: %zu bytes in a %zu-byte URB", len,
			      dev->rx_urb_size);
	return km_usbnet_rx_run(dev, buf, len, dev->driver_info->rx_fixup,
				dev->driver_info->flags, dev->rx_urb_size, &failed);
}
