/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/skb.h - a model of the linear sk_buff of include/linux/skbuff.h and
 * net/core/skbuff.c as of v3.5 (July 2012, the kernel the 2012 asix patch
 * "asix: avoid copies in tx path" was written against), on a 32-bit ARM
 * machine (sk_buff_data_t is a pointer; NET_SKBUFF_DATA_USES_OFFSET unset),
 * and the slice of struct net_device that decides headroom.
 *
 * Only linear skbs are modelled: data_len is always 0, there are no page
 * frags and no frag_list. Where v3.5 and current mainline differ, the v3.5
 * behaviour is modelled and the docstring says so; what was reconstructed
 * from memory of v3.5 rather than read is marked "(assumed v3.5)".
 *
 * Ownership: an skb returned by an allocating function belongs to the
 * caller, who passes it on (e.g. to a driver) or frees it with
 * km_kfree_skb()/km_consume_skb()/km_dev_kfree_skb_any(). Bad operations
 * never crash the host: they are recorded as BUG reports on the machine
 * (skb_under_panic, skb_over_panic, sharing violations, double frees) and
 * leave the skb as it was. A task of another machine than the skb (in
 * clone, copy, copy_expand, pskb_expand_head, cow_head) is a KM_R_UNEXPECTED
 * BUG on the skb's machine: NULL or -EINVAL, nothing changed on either
 * machine. A NULL skb, task or net_device (where one is required) gives
 * 0 / NULL / false / -EINVAL, or does nothing, with km_last_error() naming
 * the call (no machine to report on); the kfree family takes NULL as a
 * no-op, as the kernel. What the model cannot catch is a pointer that was
 * never an skb, or a stale one whose struct was reused (see
 * km_kfree_skb()). Teardown (km_machine_check()) reports every skb
 * or data buffer still alive as KM_R_LEAK_SKB.
 *
 * Kernel-named wrappers (alloc_skb, skb_push, ...) live only in the
 * compatibility layer, include/kmodel/kernel/linux/skbuff.h.
 */
#ifndef KMODEL_SKB_H
#define KMODEL_SKB_H

#include <kmodel/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

/** skb_shared_info.dataref: the low 16 bits count every reference to the
 *  data buffer, the high 16 bits the payload-only ones (skbs that called
 *  __skb_header_release()). include/linux/skbuff.h, v3.5. */
#define KM_SKB_DATAREF_SHIFT 16
#define KM_SKB_DATAREF_MASK ((1 << KM_SKB_DATAREF_SHIFT) - 1)

/**
 * KM_SKB_SHINFO_SIZE - bytes of sizeof(struct skb_shared_info) on 32-bit ARM
 * in v3.5 with 4 KiB pages; the value for any machine is
 * km_skb_shinfo_size(). The layout: nr_frags, tx_flags (1 + 1), gso_size,
 * gso_segs, gso_type (3 x 2) = 8; frag_list pointer 4 -> 12; hwtstamps (two
 * ktime_t, 8-byte aligned under EABI) at 16 -> 32; ip6_frag_id 4, dataref 4,
 * destructor_arg 4 -> 44; then frags[MAX_SKB_FRAGS], MAX_SKB_FRAGS =
 * 65536 / PAGE_SIZE + 2, at least 16 ("#if (65536/PAGE_SIZE + 2) < 16", the
 * form of the v3.x headers; later kernels use + 1), each a page pointer
 * plus __u16 page_offset and size (8 bytes; __u32 both, 12 bytes, when
 * PAGE_SIZE >= 65536); the total padded to the 8-byte alignment of ktime_t:
 *   4 KiB:  18 frags x 8  -> 44 + 144 = 188 -> 192
 *  16 KiB:  16 frags x 8  -> 44 + 128 = 172 -> 176
 *  64 KiB:  16 frags x 12 -> 44 + 192 = 236 -> 240
 * alloc_skb reserves SKB_DATA_ALIGN() of it after skb->end: with 64-byte
 * cache lines 192, 192 and 256 bytes. The model keeps the shared
 * info itself in host memory (struct km_skb_shared_info); the reserved
 * bytes are zeroed and otherwise unused.
 */
#define KM_SKB_SHINFO_SIZE 192u
/** sizeof(struct skb_shared_info) on @m's page size, bytes (see
 *  KM_SKB_SHINFO_SIZE): 192, 176 or 240. A harness sizes an skb with it as
 *  the kernel does (truesize, the room a driver's head allocation
 *  leaves) on the machine's page size rather than 4 KiB's. */
KM_API unsigned int km_skb_shinfo_size(const struct km_machine *m);

/** NET_SKB_PAD = max(32, L1_CACHE_BYTES) (include/linux/skbuff.h, v3.5):
 *  computed per machine by km_skb_net_pad(). */

struct km_skb;
struct km_net_device;

/**
 * struct km_skb_shared_info - the part of skb_shared_info the model needs.
 * @dataref: see KM_SKB_DATAREF_SHIFT. Read it; do not write it.
 * @gso_size, @gso_segs: always 0: the model has no GSO/TSO (what a driver
 *           reads with TSO off).
 * @nr_frags: always 0: the model's skbs are linear (no paged frags), as a
 *           driver that does not advertise NETIF_F_SG gets them
 *           (`BUG_ON(skb_shinfo(skb)->nr_frags)` opens many tx_fixups).
 * Allocated by the library only: members are appended.
 */
struct km_skb_shared_info {
	int dataref;
	unsigned short gso_size, gso_segs;
	/* appended */
	unsigned char nr_frags;
};

/**
 * struct km_skb - a linear sk_buff (include/linux/skbuff.h, v3.5, 32-bit).
 * Fields may be read freely. Ported kernel code writes @data and (through
 * skb_set_tail_pointer) @tail as the kernel does; everything else changes
 * only through km_skb_* functions.
 * @head:    start of the data buffer (a kmalloc object of the machine)
 * @data:    start of the bytes in use
 * @tail:    end of the bytes in use
 * @end:     end of the usable buffer; the shared-info area follows it
 * @len:     bytes in use (tail - data for a linear skb)
 * @data_len: bytes in frags: always 0 in the model
 * @users:   references to this struct (skb_get()); 1 when private
 * @cloned:  set on both skbs by skb_clone()
 * @nohdr:   this skb references the payload only (__skb_header_release())
 * @hdr_len: writable header length of a clone (set by skb_clone from the
 *           original's headroom when the original had nohdr set)
 * @shinfo:  the shared info of the data buffer (skb_shinfo())
 * @m:       the machine
 * @usbnet_packets, @usbnet_length: struct skb_data's packets and length,
 *           which usbnet keeps in skb->cb (mainline
 *           usbnet_set_skb_tx_stats(); v3.5 keeps only length). Written by
 *           the driver and usbnet on transmit.
 * @protocol: the packet's protocol (__be16, ETH_P_*), as the sender set
 *           it; the model reads it nowhere (0 unless a caller sets it).
 * @ip_summed: KM_CHECKSUM_NONE (0), _UNNECESSARY (1), _COMPLETE (2) or
 *           _PARTIAL (3) (include/linux/skbuff.h, v3.5/v3.6): the model's
 *           senders produce CHECKSUM_NONE (0); a test or caller may set
 *           CHECKSUM_PARTIAL with @csum_start and @csum_offset, as the
 *           stack does for a device with NETIF_F_IP_CSUM.
 * @csum_start, @csum_offset: with CHECKSUM_PARTIAL, the checksum covers
 *           head + csum_start .. the end and goes at csum_start +
 *           csum_offset; a union with @csum (v3.6's layout).
 *           km_skb_clone() copies the three, km_skb_copy(),
 *           km_pskb_copy() and km_skb_copy_expand() too (copy_skb_header();
 *           csum_start moved by the change of headroom, net/core/skbuff.c
 *           v3.6 skb_copy_expand()), and km_pskb_expand_head() moves
 *           csum_start by nhead when CHECKSUM_PARTIAL (v3.6).
 * @truesize: what receive drivers set (ax88179_rx_fixup()); the model
 *           reads it nowhere.
 * The struct is allocated by the library only: members are appended.
 */
/** skb->ip_summed values (include/linux/skbuff.h, v3.5 .. v5.x). */
#define KM_CHECKSUM_NONE 0
#define KM_CHECKSUM_UNNECESSARY 1
#define KM_CHECKSUM_COMPLETE 2
#define KM_CHECKSUM_PARTIAL 3

struct km_skb {
	unsigned char *head, *data, *tail, *end;
	unsigned int len, data_len;
	int users;
	unsigned char cloned, nohdr;
	unsigned short hdr_len;
	struct km_skb_shared_info *shinfo;
	struct km_machine *m;
	unsigned long usbnet_packets;
	long usbnet_length;
	/* appended */
	uint16_t protocol;
	unsigned char ip_summed;
	union {
		uint32_t csum;
		struct {
			uint16_t csum_start;
			uint16_t csum_offset;
		};
	};
	/* appended */
	unsigned int truesize;
};

/* ---- allocation and freeing -------------------------------------------- */

/**
 * km_alloc_skb() - __alloc_skb() (net/core/skbuff.c, v3.5): a new skb with
 * a data buffer of at least @size bytes, data == tail == head, len 0.
 * Rounding, as the kernel: size = SKB_DATA_ALIGN(@size) (the machine's
 * l1_cache_bytes), plus SKB_DATA_ALIGN(km_skb_shinfo_size()), then kmalloc
 * bucket rounding; end = head + ksize - SKB_DATA_ALIGN(km_skb_shinfo_size()),
 * so skb_tailroom() is usually larger than @size.
 * @t: the allocating task (GFP_KERNEL in atomic context is reported).
 * @size: bytes of data wanted.
 * @gfp: KM_GFP_ATOMIC or KM_GFP_KERNEL.
 * Return: the skb (caller owns it), or NULL when the data kmalloc fails
 * (fault injection, or a size above KMALLOC_MAX_SIZE); the sk_buff struct
 * itself (skbuff_head_cache) is host memory and does not fail.
 * Events: skb_allocs, kmalloc_*.
 */
KM_API struct km_skb *km_alloc_skb(struct km_task *t, unsigned int size, km_gfp_t gfp);

/**
 * km_build_skb() - an skb whose buffer ends exactly @size bytes after head,
 * as build_skb(data, size + SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))
 * (net/core/skbuff.c, v3.5) leaves one: build_skb() takes end from the
 * caller's frag_size, not from ksize(). The buffer is a kmalloc object of
 * the alloc_skb(@size) rounding (the model never uses page frags), so
 * tailroom is exactly @size - headroom - len: how the tests and the sweep
 * lay out an skb of any geometry.
 * Return: the skb (caller owns it), or NULL as km_alloc_skb().
 */
KM_API struct km_skb *km_build_skb(struct km_task *t, unsigned int size, km_gfp_t gfp);

/**
 * km_netdev_alloc_skb() - __netdev_alloc_skb(dev, @len, @gfp) (net/core/
 * skbuff.c, v3.5): an skb of @len bytes plus NET_SKB_PAD, reserved
 * NET_SKB_PAD (the headroom every received skb starts with). As v3.5:
 * when fragsz = SKB_DATA_ALIGN(@len + NET_SKB_PAD) +
 * SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) fits a page and @gfp
 * may not sleep (no KM_GFP_DIRECT_RECLAIM, the kernel's __GFP_WAIT), the
 * buffer is a page fragment of netdev_alloc_frag() (build_skb(): end at
 * SKB_DATA_ALIGN(len + NET_SKB_PAD)): the machine's one fragment cache
 * carves a page front to back, get_page() per fragment, a new page
 * (alloc_page(), put_page() of the last) when one does not fit, put_page()
 * when the skb's data goes; no kmalloc. Otherwise __alloc_skb()'s kmalloc.
 * Every era's driver gets v3.5's: mainline's page_frag_alloc() (32 KiB
 * compound pages) is not modelled. The cache's own page reference is
 * dropped by the machine's teardown check (km_machine_check()).
 * km_fault_fail_kmalloc_nth() fails only the kmalloc path: the model has
 * no page allocation fault injection, so a fragment fails only when the
 * machine has no free page.
 * @dev is not read (the model has no per-device state here; may be NULL).
 * Return: the skb (caller owns it) or NULL as km_alloc_skb(), or when no
 * page can be had.
 */
KM_API struct km_skb *km_netdev_alloc_skb(struct km_task *t, const struct km_net_device *dev,
					  unsigned int len, km_gfp_t gfp);

/**
 * KM_SKB_QUARANTINE - freed sk_buff structs (and data-buffer records) wait
 * in a FIFO and are reused only after this many others were freed after
 * them. A stale pointer freed (or cloned) again within that window is a
 * KM_R_SKB_REFCOUNT BUG and touches nothing. Residual limit: after more
 * than KM_SKB_QUARANTINE later frees the struct may be a live skb again,
 * and a stale pointer to it is indistinguishable from the live one (the
 * kernel's skbuff_head_cache without slab debugging is no better).
 */
#define KM_SKB_QUARANTINE 64u

/** kfree_skb(): drop one @users reference; at the last one release the
 *  data reference (skb_release_data(), v3.5: an skb that is not cloned
 *  frees the buffer at once; a cloned one subtracts 1, or (1 << 16) + 1
 *  when nohdr, and frees at 0) and the struct. NULL is a no-op. An skb
 *  with no reference left, or not alive, is a KM_R_SKB_REFCOUNT BUG (see
 *  KM_SKB_QUARANTINE for how long a freed struct stays detectably dead).
 *  Events: skb_frees (when the struct goes), kfree_calls. */
KM_API void km_kfree_skb(struct km_skb *skb);
/** consume_skb(): as km_kfree_skb() (only the drop tracepoint differs). */
KM_API void km_consume_skb(struct km_skb *skb);
/** dev_kfree_skb_any() (include/linux/netdevice.h, v3.5): as km_kfree_skb()
 *  in any context. */
KM_API void km_dev_kfree_skb_any(struct km_skb *skb);
/** skb_get(): take one more @users reference; returns @skb. */
KM_API struct km_skb *km_skb_get(struct km_skb *skb);

/* ---- pointer arithmetic (include/linux/skbuff.h, v3.5) ----------------- */

/** skb_headroom(): data - head, bytes. */
KM_API unsigned int km_skb_headroom(const struct km_skb *skb);
/** skb_tailroom(): end - tail, bytes (0 for a non-linear skb). */
KM_API int km_skb_tailroom(const struct km_skb *skb);
/** skb_tail_pointer(). */
KM_API unsigned char *km_skb_tail_pointer(const struct km_skb *skb);
/** skb_set_tail_pointer(): tail = data + @offset, len untouched, no check
 *  (include/linux/skbuff.h, v3.5: the kernel does not panic here). A tail
 *  left outside [head, end] is caught where it is used: km_skb_put()'s
 *  skb_over_panic, the KM_R_SKB_INVALID checks of the copies. */
KM_API void km_skb_set_tail_pointer(struct km_skb *skb, int offset);
/** skb_reserve(): data and tail move by @len bytes (empty skb). The kernel
 *  does not check; the model reports a tail past end as KM_R_SKB_OVER and
 *  leaves the skb unchanged. */
KM_API void km_skb_reserve(struct km_skb *skb, int len);
/**
 * km_skb_push() - skb_push(): data -= @len, len += @len; returns the new
 * data. data < head is skb_under_panic: a KM_R_SKB_UNDER BUG, the skb is
 * left unchanged and its current data is returned (the kernel would halt).
 */
KM_API unsigned char *km_skb_push(struct km_skb *skb, unsigned int len);
/**
 * km_skb_put() - skb_put(): tail += @len, len += @len; returns the old tail
 * (where the caller writes). tail > end is skb_over_panic: a KM_R_SKB_OVER
 * BUG, skb unchanged, the current tail returned. A tail already outside
 * [head, end] (left there by km_skb_set_tail_pointer()) is the same BUG
 * whatever @len, and end is returned instead of the wild tail.
 */
KM_API unsigned char *km_skb_put(struct km_skb *skb, unsigned int len);
/** skb_pull(): NULL if @len > len, else data += @len, len -= @len and the
 *  new data is returned. */
KM_API unsigned char *km_skb_pull(struct km_skb *skb, unsigned int len);
/** skb_trim(): if len > @len, len = @len and tail = data + @len. */
KM_API void km_skb_trim(struct km_skb *skb, unsigned int len);

/* ---- sharing (include/linux/skbuff.h, v3.5) ----------------------------- */

/** skb_cloned(): cloned && (dataref & 0xffff) != 1. */
KM_API bool km_skb_cloned(const struct km_skb *skb);
/** skb_header_cloned(): cloned && (dataref & 0xffff) - (dataref >> 16) != 1. */
KM_API bool km_skb_header_cloned(const struct km_skb *skb);
/** skb_shared(): users != 1. */
KM_API bool km_skb_shared(const struct km_skb *skb);
/**
 * km_skb_header_release() - skb_header_release() (v3.5; __skb_header_release
 * in later kernels): this skb gives up the header: nohdr = 1, dataref +=
 * 1 << 16. v3.5 BUG_ON(skb->nohdr): calling it twice is a
 * KM_R_SKB_HDR_RELEASED BUG (counted in KM_R_SKB_SHARING too) and changes
 * nothing.
 */
KM_API void km_skb_header_release(struct km_skb *skb);
/**
 * km_skb_clone() - skb_clone() / __skb_clone() (net/core/skbuff.c, v3.5): a
 * new sk_buff sharing @skb's data buffer: dataref + 1, cloned = 1 on both,
 * the clone has nohdr 0, users 1 and hdr_len = nohdr ? headroom : hdr_len of
 * @skb. Return: the clone (caller owns it); NULL only for an @skb that is
 * not alive (a KM_R_SKB_REFCOUNT BUG): the struct is host memory and its
 * allocation does not fail. Events: skb_clones.
 */
KM_API struct km_skb *km_skb_clone(struct km_task *t, struct km_skb *skb, km_gfp_t gfp);
/**
 * km_skb_copy() - skb_copy() (net/core/skbuff.c, v3.5): a private skb from
 * alloc_skb(skb_end_offset(@skb) + data_len), i.e. a buffer as large as
 * @skb's (end - head bytes), reserved the old headroom, len bytes put; the
 * headroom and data are copied (headroom + len bytes). The copy's headroom
 * is @skb's and its tailroom at least @skb's (equal when the kmalloc
 * bucket is the same). NULL on allocation failure (@skb untouched), and
 * for an skb whose len or tail runs past its buffer (data + len > end, or
 * tail != data + len: the kernel would copy past either buffer): a
 * KM_R_SKB_INVALID BUG, nothing copied.
 * Events: skb_copies, skb_copy_bytes (headroom + len).
 */
KM_API struct km_skb *km_skb_copy(struct km_task *t, const struct km_skb *skb, km_gfp_t gfp);
/**
 * km_pskb_copy() - pskb_copy() (include/linux/skbuff.h, v3.5:
 * __pskb_copy(skb, skb_headroom(skb), gfp)): a private skb from
 * alloc_skb(headroom + len), reserved the same headroom, with a copy of
 * the linear data (not of the headroom: its bytes are whatever the new
 * buffer holds). What v3.5 tcp_transmit_skb() sends when the queued skb is
 * still cloned. NULL on allocation failure or for an invalid skb (a
 * KM_R_SKB_INVALID BUG). Events: skb_copies, skb_copy_bytes (len).
 */
KM_API struct km_skb *km_pskb_copy(struct km_task *t, const struct km_skb *skb, km_gfp_t gfp);

/**
 * km_skb_copy_expand() - skb_copy_expand() (net/core/skbuff.c, v3.5): a
 * private skb from alloc_skb(@newheadroom + len + @newtailroom), reserved
 * @newheadroom, with len bytes; copies min(old headroom, @newheadroom) bytes
 * of headroom (right-aligned against data) and the data. The new tailroom
 * is at least @newtailroom (rounding may give more). NULL on allocation
 * failure, @skb untouched (the caller still owns it). A negative
 * @newtailroom is legal while the new buffer still holds len bytes (else
 * skb_put()'s skb_over_panic: a KM_R_SKB_OVER BUG, NULL); a negative
 * @newheadroom would put data before head (a KM_R_SKB_UNDER BUG, NULL).
 * The sum is taken in 64 bits: where v3.5's unsigned int sum wraps past 4
 * GiB (and the copy would overrun the small buffer), or is negative (a
 * ~4 GiB request), the model returns NULL (km_last_error()). An @skb whose
 * len runs past its buffer is a KM_R_SKB_INVALID BUG (NULL), as for
 * km_skb_copy().
 * Events: skb_copies, skb_copy_bytes (headroom copied + len).
 */
KM_API struct km_skb *km_skb_copy_expand(struct km_task *t, const struct km_skb *skb,
					 int newheadroom, int newtailroom, km_gfp_t gfp);
/**
 * km_pskb_expand_head() - pskb_expand_head() (net/core/skbuff.c, v3.5): give
 * @skb a private buffer with @nhead more bytes of headroom and @ntail more
 * of tailroom; the pointers move, the skb stays the same struct. v3.5
 * always kmallocs a new buffer: SKB_DATA_ALIGN(nhead + end - head + ntail)
 * plus SKB_DATA_ALIGN(km_skb_shinfo_size()), end = ksize of it less the
 * latter (so the kmalloc bucket may give more room than asked); head..tail
 * is copied to data + @nhead, the shared info copied, and the old buffer's
 * reference dropped: skb_release_data() when skb_cloned(), else the buffer
 * is freed (skb_free_head()). (v3.4 and earlier memmoved in place when
 * ksize(head) had room; not modelled.) After: cloned = 0, nohdr = 0,
 * hdr_len = 0, dataref = 1. A negative @ntail is legal (v3.5 skb_pad()
 * passes one to unshare a clone that has spare tailroom) and follows the
 * same arithmetic, ksize rounding included; only where the copy of
 * head..tail would run past the new buffer (a size of 0: kmalloc(0)) does
 * the model refuse: a KM_R_SKB_OVER BUG, -EINVAL. A sum below zero is a
 * ~4 GiB kmalloc on 32-bit ARM: -ENOMEM (and kmalloc's KM_R_ALLOC_TOO_LARGE
 * WARN).
 * Return: 0, -ENOMEM (skb unchanged), -EINVAL when @nhead < 0
 * (BUG_ON(nhead < 0): a KM_R_SKB_UNDER BUG) or @skb is shared (BUG(): a
 * KM_R_SKB_EXPAND_SHARED BUG), or for an invalid skb (KM_R_SKB_INVALID);
 * nothing changed on error. The report's message is formatted only when
 * the report is logged.
 * Events: kmalloc_*, kfree_* (the old buffer when it goes), skb_copies and
 * skb_copy_bytes (tail - head).
 */
KM_API int km_pskb_expand_head(struct km_task *t, struct km_skb *skb, int nhead, int ntail,
			       km_gfp_t gfp);
/** skb_cow_head() / __skb_cow() (v3.5): when @headroom > skb_headroom()
 *  or the header is cloned, pskb_expand_head(ALIGN(delta, NET_SKB_PAD), 0);
 *  otherwise nothing (a TCP clone whose header was released and whose
 *  headroom suffices is not reallocated). ALIGN is taken in 64 bits: a
 *  delta whose ALIGN exceeds INT_MAX (the kernel's unsigned int ALIGN wraps
 *  to 0 and returns 0 with the headroom unchanged) is -ENOMEM, no kmalloc
 *  being that large.
 *  Return: 0, -ENOMEM, or -EINVAL when it reaches pskb_expand_head() with a
 *  shared skb (users > 1): the kernel BUG()s there; the model records the
 *  KM_R_SKB_EXPAND_SHARED BUG and leaves the skb as it was. */
KM_API int km_skb_cow_head(struct km_task *t, struct km_skb *skb, unsigned int headroom);
/** NET_SKB_PAD of the machine: max(32, l1_cache_bytes), bytes. */
KM_API unsigned int km_skb_net_pad(const struct km_machine *m);
/** SMP_CACHE_BYTES of the machine (L1_CACHE_BYTES, include/linux/cache.h):
 *  its l1_cache_bytes, what SKB_DATA_ALIGN() rounds to; 64 for a NULL
 *  @m (km_last_error() says so). */
KM_API unsigned int km_skb_smp_cache_bytes(const struct km_machine *m);
/**
 * km_skb_pad() - skb_pad() (net/core/skbuff.c, v3.5): zero @pad bytes after
 * the data (len is unchanged). A private skb with the tailroom is padded in
 * place; otherwise pskb_expand_head(0, data_len + pad - tailroom) first,
 * which unshares a cloned skb even when that ntail is negative.
 * Return: 0, or the expand's error, in which case @skb has been FREED (as
 * the kernel's skb_pad() frees it); -EINVAL for a negative @pad (a
 * KM_R_SKB_OVER BUG: the kernel would memset ~4 GiB; @skb kept) or an
 * invalid skb (KM_R_SKB_INVALID; kept).
 */
KM_API int km_skb_pad(struct km_task *t, struct km_skb *skb, int pad);
/** skb_padto() (v3.5): km_skb_pad() up to @len bytes when len is shorter;
 *  0 when it is not. Same errors (and freeing). */
KM_API int km_skb_padto(struct km_task *t, struct km_skb *skb, unsigned int len);

/* ---- writes and the sharing checker ------------------------------------- */

/*
 * What the sharing checker sees: only writes that reach it through a call --
 * the accessors of this header, km_skb_check_write(), the compatibility
 * layer's skb_* functions, put_unaligned_*() and its memcpy()/memmove()/
 * memset(). A plain C store through a pointer into the buffer
 * (`skb->data[0] = len;` as v3.6 dm9601_tx_fixup() writes its header,
 * `*len = cpu_to_le16(..)` as int51x1's does, a struct member assignment)
 * never reaches it and is not reported here: in code of your own, no
 * report is no proof that no forbidden byte was written. The same code
 * through put_unaligned_le16() is reported. The harnesses that run a
 * driver's tx_fixup -- km_sweep_run() (kmodel-sweep, every state) and
 * km_iperf_run() (kmodel-bench -s iperf: the first 64 packets of a pass and
 * every 64th after) -- catch such stores into a shared buffer: for a
 * cloned or shared skb they copy the bytes these rules forbid it to write
 * (all of [head, end), or from head + hdr_len on for a clone with a
 * writable header) before usbnet's start_xmit and compare after it; each
 * changed run no report of the checker covered is a KM_R_SKB_STORE_SHARED
 * BUG ("skb_store_shared"). The stores stay done. The watched bytes
 * outside the skb's data (headroom, tailroom: undefined contents in the
 * kernel) are first set to the complement of what they held, so a header
 * stored again with the previous packet's value is seen; a store of the
 * value a byte of the data already holds is not (no holder sees a change).
 */

/**
 * km_skb_check_write() - the sharing checker: may @skb's owner write @n
 * bytes at @dst? Reports a BUG (with the skb state) and returns false when:
 * [dst, dst + n) is not inside [head, end] (KM_R_SKB_WRITE_OUTSIDE); the
 * skb is shared, users > 1 (KM_R_SKB_WRITE_SHARED); or the buffer is cloned
 * and the write is not a header write this skb may make: the nohdr owner
 * may write nothing, a header-cloned skb nothing, any other clone only
 * [head, head + hdr_len) (KM_R_SKB_WRITE_CLONED). With the checker off
 * (km_skb_set_checker()) only a write that would leave the kmalloc object
 * is reported (KM_R_SKB_WRITE_OUTSIDE).
 * The checker observes: modelled code that writes anyway still writes (the
 * model only refuses a write that would leave the kmalloc object).
 * Return: true when the write is allowed.
 */
KM_API bool km_skb_check_write(struct km_skb *skb, const void *dst, size_t n);
/** skb_copy_to_linear_data_offset(): check the write, then memcpy @len
 *  bytes of @from to data + @offset (memcpy_bytes counted). The write is
 *  done whatever the checker reports, unless it would leave the kmalloc
 *  object. */
KM_API void km_skb_copy_to_linear_data_offset(struct km_skb *skb, int offset,
					      const void *from, unsigned int len);
/**
 * km_skb_note() - tell the checker that modelled kernel code is working on
 * @skb, so that raw memcpy()/memmove() calls of a ported file into @skb's
 * buffer are checked. The compatibility layer's skb accessors call it.
 */
KM_API void km_skb_note(struct km_skb *skb);
/** memcpy()/memmove()/memset() of ported skb code (the compatibility
 *  layer): counts memcpy_bytes, memmove_bytes or clear_bytes (and their calls) on `current`'s machine and
 *  checks a write into any live skb buffer of it: as the last noted skb's
 *  write when @to lies in that skb's buffer, otherwise as a write by no
 *  particular skb (any write into a cloned buffer is then
 *  KM_R_SKB_WRITE_CLONED). The write is done unless it would leave the
 *  kmalloc object (with the checker off too: see km_skb_set_checker()).
 *  Finding a buffer other than the noted skb's walks the machine's buffer
 *  records and sk_buff structs (linear in their number). Return: @to. */
KM_API void *km_skb_compat_memcpy(void *to, const void *from, size_t n);
KM_API void *km_skb_compat_memmove(void *to, const void *from, size_t n);
KM_API void *km_skb_compat_memset(void *to, int c, size_t n);

/** Turn @m's sharing checker on (the default) or off. Off, the rules of
 *  km_skb_check_write() and the shared-skb change rule report nothing
 *  (BUG paths of the kernel, skb_over/under_panic and the like, still
 *  do); what the simulated kernel does is the same either way. Bounds are
 *  checked either way: a write into an skb buffer (an accessor's or the
 *  compatibility layer's memcpy/memmove/memset, with or without a noted
 *  skb) that would leave its kmalloc object is not done and is reported
 *  (KM_R_SKB_WRITE_OUTSIDE), so bad code never corrupts the host. */
KM_API void km_skb_set_checker(struct km_machine *m, bool on);
/** Live sk_buff structs and data buffers of @m (NULL pointers are
 *  skipped): a leak check between operations. */
KM_API void km_skb_live(const struct km_machine *m, size_t *skbs, size_t *buffers);
/** For a holder of @skb outside the modelled code (a harness that keeps a
 *  reference across a driver call, as the sweep does): is the struct still
 *  alive with a reference, and its data buffer too? False once others
 *  dropped the holder's reference (a double free): its bytes are then the
 *  kmalloc allocator's, and a free would be one more double free. Reads
 *  only host records (kept until teardown), so it never reports;
 *  KM_SKB_QUARANTINE bounds how long a freed struct is told from a live
 *  one. False for NULL. */
KM_API bool km_skb_held(const struct km_skb *skb);
/** km_skb_push_copy() - km_skb_push(@skb, @len), then
 *  km_skb_copy_to_linear_data_offset(@skb, 0, @from, @len) -- the same
 *  checks, reports and events -- in one call: a traffic generator's
 *  per-packet header (kmodel/traffic.h). */
KM_API void km_skb_push_copy(struct km_skb *skb, const void *from, unsigned int len);

/*
 * A harness's watch for plain C stores (the sweep, iperf): the checker sees
 * only writes through a call, so around a call of modelled code (usbnet's
 * start_xmit with the driver's tx_fixup) on an skb whose buffer is shared,
 * the harness snapshots the bytes the checker's rules forbid that skb to
 * write, and afterwards reports each changed run of them that no checker
 * report covered -- a store not through an accessor -- as a
 * KM_R_SKB_STORE_SHARED BUG. The stores stay (the checker observes).
 *
 * km_skb_watch_new() / km_skb_watch_free(): a watch (NULL: no host
 * memory), freed with its snapshot; no watch may be running on it.
 *
 * km_skb_watch_begin(): asks the rules (reporting nothing) which bytes of
 * [head, end) @skb may not write: none for a private skb (no watch, no
 * cost), [head + hdr_len, end) for a clone whose writable header is
 * [head, head + hdr_len), all of [head, end) for a shared (users > 1) or
 * header-cloned skb or a nohdr owner. Those outside [data, tail) (headroom
 * and tailroom, undefined in the kernel) get the complement of their
 * value, so a store of the value they held is seen too. Copies them into
 * @w's snapshot (grown as needed, kept for the next watch: no allocation
 * per packet once grown). Nothing when the checker is off, a watch is
 * already running on the machine, or @w or @skb is NULL. Return: whether
 * the watch runs (then km_skb_watch_end() must follow before the machine's
 * next watch).
 *
 * km_skb_watch_end(): compares; the checker's reports during the watch
 * marked the bytes they covered (up to 8 ranges; past that the last range
 * grows to take the new one in, so a store between two reported writes may
 * go unreported then). Nothing when the buffer was freed meanwhile.
 * Return: the number of reports made.
 */
struct km_skb_watch;
KM_API struct km_skb_watch *km_skb_watch_new(void);
KM_API void km_skb_watch_free(struct km_skb_watch *w);
KM_API bool km_skb_watch_begin(struct km_skb_watch *w, struct km_skb *skb);
KM_API unsigned int km_skb_watch_end(struct km_skb_watch *w);

/* ---- net_device (include/linux/netdevice.h, v3.5) ------------------------ */

/**
 * struct km_net_device - the headroom slice of struct net_device. Members
 * are only appended: the functions that take a caller's km_net_device are
 * inline wrappers passing its size (km_net_device_init_ether(),
 * km_traffic_new()).
 * @hard_header_len: bytes of link-layer header (ETH_HLEN 14 after
 *                   ether_setup()).
 * @needed_headroom: extra headroom the driver wants (bytes).
 * @needed_tailroom: extra tailroom the driver wants (bytes).
 * @mtu: bytes (1500 after ether_setup()).
 * @tx_packets, @tx_bytes, @tx_dropped: net_device_stats.
 * @priv_flags: KM_IFF_* (net_device.priv_flags).
 * @features: NETIF_F_* bits (netdev_features_t) the driver set; the model
 *            reads none of them (it has no frags, GSO or checksum offload),
 *            ported drivers may.
 * @stats: receive counters (usbnet's receive path and the drivers').
 */
/** The receive counters of struct net_device_stats (include/linux/
 *  netdevice.h, v3.5), under the name ported code reads them by
 *  (dev->net->stats.rx_errors++); the transmit ones stay where the first
 *  version put them (tx_packets, ... in struct km_net_device itself). */
struct km_net_device_stats {
	unsigned long rx_packets, rx_bytes, rx_errors, rx_dropped, rx_length_errors;
};

struct km_net_device {
	unsigned short hard_header_len;
	unsigned short needed_headroom;
	unsigned short needed_tailroom;
	unsigned int mtu;
	unsigned long tx_packets, tx_bytes, tx_dropped;
	unsigned int priv_flags;
	uint64_t features;
	/* appended */
	struct km_net_device_stats stats;
};

/** IFF_TX_SKB_SHARING (include/linux/if.h, v3.5: 0x10000): the device's
 *  transmit path can take an skb that others hold too (users > 1), as
 *  pktgen sends one skb several times (clone_skb > 0 needs it). ether_setup()
 *  sets it ("90% of the drivers calling ether_setup touch real hardware and
 *  can handle shared skbs", the commit that added it); a driver that cannot
 *  must clear it. */
#define KM_IFF_TX_SKB_SHARING 0x10000u

/** HH_DATA_MOD (include/linux/netdevice.h, v3.5): 16. */
#define KM_HH_DATA_MOD 16
/** LL_RESERVED_SPACE(dev): ((hard_header_len + needed_headroom) &
 *  ~(HH_DATA_MOD - 1)) + HH_DATA_MOD, bytes. */
KM_API unsigned int km_ll_reserved_space(const struct km_net_device *dev);
/**
 * km_net_device_init_ether_sized() - an Ethernet device as
 * alloc_etherdev()/ether_setup() leave it: hard_header_len 14, mtu 1500,
 * no needed head/tailroom, priv_flags IFF_TX_SKB_SHARING, the rest 0; use
 * km_net_device_init_ether().
 * @size: sizeof(struct km_net_device) as the caller was compiled: @size
 *        bytes of *@dev are written (members the library does not know,
 *        zeroed). At least KM_NET_DEVICE_MIN_SIZE.
 * A NULL @dev or a smaller @size: nothing written, km_last_error() says why.
 */
KM_API void km_net_device_init_ether_sized(struct km_net_device *dev, size_t size);
/** The members of the first versioned km_net_device (SONAME 2). */
#define KM_NET_DEVICE_MIN_SIZE \
	(offsetof(struct km_net_device, features) + sizeof(uint64_t))
/** km_net_device_init_ether() - km_net_device_init_ether_sized() of *@dev
 *  with this header's size. */
static inline void km_net_device_init_ether(struct km_net_device *dev)
{
	km_net_device_init_ether_sized(dev, sizeof(struct km_net_device));
}

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_SKB_H */
