/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel compatibility layer: <linux/skbuff.h> (v3.5 semantics; see
 * include/kmodel/skb.h for each function's contract).
 *
 * struct sk_buff is the model's struct km_skb (same field names for what is
 * modelled: head, data, tail, end, len, data_len, users, cloned, nohdr,
 * hdr_len). Everything acts on the calling thread's `current` task.
 */
#ifndef KM_COMPAT_LINUX_SKBUFF_H
#define KM_COMPAT_LINUX_SKBUFF_H

#include <errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/types.h>
#include <asm/byteorder.h>
#include <net/checksum.h>	/* as v3.6's <linux/skbuff.h> */
#include <kmodel/skb.h>
#include <kmodel/usb.h>	/* km_compat_rx_step() */

/* custom: the kernel's types are the model's */
#define sk_buff km_skb
#define skb_shared_info km_skb_shared_info

/* duplicate (include/linux/skbuff.h, v3.5) */
#define SKB_DATAREF_SHIFT KM_SKB_DATAREF_SHIFT
#define SKB_DATAREF_MASK KM_SKB_DATAREF_MASK
#define skb_shinfo(SKB) ((SKB)->shinfo)
/* duplicate (include/linux/skbuff.h, v3.6): skb->ip_summed. The model's
 * senders leave CHECKSUM_NONE; a test sets CHECKSUM_PARTIAL with
 * skb->csum_start and skb->csum_offset as the stack does for a device with
 * NETIF_F_IP_CSUM. skb_shinfo(skb)->nr_frags is always 0 (linear skbs) */
#define CHECKSUM_NONE KM_CHECKSUM_NONE
#define CHECKSUM_UNNECESSARY KM_CHECKSUM_UNNECESSARY
#define CHECKSUM_COMPLETE KM_CHECKSUM_COMPLETE
#define CHECKSUM_PARTIAL KM_CHECKSUM_PARTIAL

/* custom: memcpy()/memmove() of skb code count memcpy_bytes/memmove_bytes
 * and pass the sharing checker when they write into the buffer of the skb
 * the code is working on (the last one handed to an accessor below) */
#undef memcpy
#define memcpy(to, from, n) km_skb_compat_memcpy((to), (from), (n))
#define memmove(to, from, n) km_skb_compat_memmove((to), (from), (n))
#undef memset
#define memset(to, c, n) km_skb_compat_memset((to), (c), (n))

/* custom: SMP_CACHE_BYTES = L1_CACHE_BYTES (include/linux/cache.h) of the
 * current machine */
#define SMP_CACHE_BYTES (km_skb_smp_cache_bytes(km_task_machine(km_shim_current())))

/* duplicate (include/linux/skbuff.h, mainline) over the model's structs:
 * sizeof(struct sk_buff) and sizeof(struct skb_shared_info) are the host
 * sizes of struct km_skb and struct km_skb_shared_info, not an ARM
 * kernel's (aqc111_rx_fixup() sets truesize with it) */
#define SKB_DATA_ALIGN(X)	ALIGN(X, SMP_CACHE_BYTES)
/* return minimum truesize of one skb containing X bytes of data */
#define SKB_TRUESIZE(X) ((X) +						\
			 SKB_DATA_ALIGN(sizeof(struct sk_buff)) +	\
			 SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))

/* custom: NET_SKB_PAD = max(32, L1_CACHE_BYTES) of the current machine */
#define NET_SKB_PAD (km_skb_net_pad(km_task_machine(km_shim_current())))

/* custom: thin wrappers over the model (names and types of v3.5) */
static inline struct sk_buff *alloc_skb(unsigned int size, gfp_t priority)
{
	return km_alloc_skb(km_shim_current(), size, priority);
}
static inline void kfree_skb(struct sk_buff *skb) { km_kfree_skb(skb); }
static inline void consume_skb(struct sk_buff *skb) { km_consume_skb(skb); }
static inline struct sk_buff *skb_get(struct sk_buff *skb) { return km_skb_get(skb); }
static inline unsigned int skb_headroom(const struct sk_buff *skb)
{
	return km_skb_headroom(skb);
}
static inline int skb_tailroom(const struct sk_buff *skb) { return km_skb_tailroom(skb); }
static inline unsigned char *skb_tail_pointer(const struct sk_buff *skb)
{
	return km_skb_tail_pointer(skb);
}
static inline void skb_set_tail_pointer(struct sk_buff *skb, const int offset)
{
	km_skb_set_tail_pointer(skb, offset);
}
static inline void skb_reset_tail_pointer(struct sk_buff *skb)
{
	km_skb_set_tail_pointer(skb, 0);
}
static inline void skb_reserve(struct sk_buff *skb, int len) { km_skb_reserve(skb, len); }
/*
 * custom: skb_push(), skb_put(), skb_pull() and the unchecked __ forms
 * (the model checks them anyway: an under/overrun is a BUG report). They
 * returned unsigned char * up to v4.12 and void * from v4.13: Johannes
 * Berg's series of 2017-06-16 (d58ff35122847a skb_push, 4df864c1d9afb4
 * skb_put, and skb_pull with them).
 */
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(4, 13, 0)
typedef void km_skb_data_ptr;
#else
typedef unsigned char km_skb_data_ptr;
#endif
static inline km_skb_data_ptr *skb_push(struct sk_buff *skb, unsigned int len)
{
	return km_skb_push(skb, len);
}
static inline km_skb_data_ptr *__skb_push(struct sk_buff *skb, unsigned int len)
{
	return km_skb_push(skb, len);
}
static inline km_skb_data_ptr *skb_put(struct sk_buff *skb, unsigned int len)
{
	return km_skb_put(skb, len);
}
static inline km_skb_data_ptr *__skb_put(struct sk_buff *skb, unsigned int len)
{
	return km_skb_put(skb, len);
}
static inline km_skb_data_ptr *skb_pull(struct sk_buff *skb, unsigned int len)
{
	km_compat_rx_step(NULL, 0);	/* a step of a receive loop */
	return km_skb_pull(skb, len);
}
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(4, 13, 0)
/* duplicate (include/linux/skbuff.h, v4.13): the write goes through the
 * sharing checker; after an overrun (reported, skb unchanged) nothing is
 * written */
static inline void *skb_put_zero(struct sk_buff *skb, unsigned int len)
{
	void *tmp;

	if (len > (unsigned int)skb_tailroom(skb))
		return skb_put(skb, len);
	tmp = skb_put(skb, len);
	memset(tmp, 0, len);
	return tmp;
}
static inline void *skb_put_data(struct sk_buff *skb, const void *data, unsigned int len)
{
	void *tmp;

	if (len > (unsigned int)skb_tailroom(skb))
		return skb_put(skb, len);
	tmp = skb_put(skb, len);
	memcpy(tmp, data, len);
	return tmp;
}
/* duplicate in effect (include/linux/skbuff.h, v4.13, the same series:
 * `*(u8 *)skb_put(skb, 1) = val`): one byte at the tail, stored with the
 * layer's memset() so the sharing checker sees it; after an overrun
 * (reported, skb unchanged) nothing is written */
static inline void skb_put_u8(struct sk_buff *skb, u8 val)
{
	if (skb_tailroom(skb) < 1) {
		skb_put(skb, 1);
		return;
	}
	memset(skb_put(skb, 1), val, 1);
}
/* duplicate (include/linux/skbuff.h, v4.13: de77b966ce8a, the same series):
 * the unchecked __skb_put() forms; as above after an overrun */
static inline void *__skb_put_zero(struct sk_buff *skb, unsigned int len)
{
	void *tmp;

	if (len > (unsigned int)skb_tailroom(skb))
		return __skb_put(skb, len);
	tmp = __skb_put(skb, len);
	memset(tmp, 0, len);
	return tmp;
}
static inline void *__skb_put_data(struct sk_buff *skb, const void *data, unsigned int len)
{
	void *tmp;

	if (len > (unsigned int)skb_tailroom(skb))
		return __skb_put(skb, len);
	tmp = __skb_put(skb, len);
	memcpy(tmp, data, len);
	return tmp;
}
#endif
static inline void skb_trim(struct sk_buff *skb, unsigned int len) { km_skb_trim(skb, len); }
static inline int skb_cloned(const struct sk_buff *skb) { return km_skb_cloned(skb); }
static inline int skb_header_cloned(const struct sk_buff *skb)
{
	return km_skb_header_cloned(skb);
}
static inline int skb_shared(const struct sk_buff *skb) { return km_skb_shared(skb); }
/* v3.5 name, and the later one (same semantics for an uncloned skb) */
static inline void skb_header_release(struct sk_buff *skb) { km_skb_header_release(skb); }
static inline void __skb_header_release(struct sk_buff *skb) { km_skb_header_release(skb); }
static inline struct sk_buff *skb_clone(struct sk_buff *skb, gfp_t gfp_mask)
{
	km_compat_rx_step(NULL, 0);	/* a step of a receive loop */
	return km_skb_clone(km_shim_current(), skb, gfp_mask);
}
static inline struct sk_buff *skb_copy(const struct sk_buff *skb, gfp_t gfp_mask)
{
	return km_skb_copy(km_shim_current(), skb, gfp_mask);
}
static inline struct sk_buff *skb_copy_expand(const struct sk_buff *skb, int newheadroom,
					      int newtailroom, gfp_t priority)
{
	return km_skb_copy_expand(km_shim_current(), skb, newheadroom, newtailroom, priority);
}
static inline int pskb_expand_head(struct sk_buff *skb, int nhead, int ntail, gfp_t gfp_mask)
{
	return km_pskb_expand_head(km_shim_current(), skb, nhead, ntail, gfp_mask);
}
static inline int skb_cow_head(struct sk_buff *skb, unsigned int headroom)
{
	return km_skb_cow_head(km_shim_current(), skb, headroom);
}
/* duplicate (include/linux/skbuff.h, v3.6; since v2.6.39): where the
 * checksum starts, from skb->data (negative when it starts before) */
static inline int skb_checksum_start_offset(const struct sk_buff *skb)
{
	return skb->csum_start - skb_headroom(skb);
}
/* duplicate (include/linux/skbuff.h, v3.6): gso_size is always 0 in the
 * model (no GSO/TSO), so this is false */
static inline bool skb_is_gso(const struct sk_buff *skb)
{
	return skb_shinfo(skb)->gso_size;
}
/* duplicate (include/linux/skbuff.h, v3.6 __skb_cow() and skb_cow()): a
 * private head with at least @headroom bytes before data; the model's
 * pskb_expand_head() does the copy (freeing nothing on error) */
static inline int __skb_cow(struct sk_buff *skb, unsigned int headroom,
			    int cloned)
{
	int delta = 0;

	if (headroom > skb_headroom(skb))
		delta = headroom - skb_headroom(skb);

	if (delta || cloned)
		return pskb_expand_head(skb, ALIGN(delta, NET_SKB_PAD), 0,
					GFP_ATOMIC);
	return 0;
}
static inline int skb_cow(struct sk_buff *skb, unsigned int headroom)
{
	return __skb_cow(skb, headroom, skb_cloned(skb));
}
/* duplicate (include/linux/skbuff.h, v3.5): the model's skbs are linear,
 * data_len is 0 */
static inline bool skb_is_nonlinear(const struct sk_buff *skb) { return skb->data_len; }
static inline unsigned int skb_headlen(const struct sk_buff *skb)
{
	return skb->len - skb->data_len;
}
/* custom: the model has no paged skbs; reaching this is a BUG report */
static inline int __skb_linearize(struct sk_buff *skb)
{
	km_report(skb->m, KM_BUG, KM_R_UNEXPECTED, "__skb_linearize: the model has no paged skbs");
	return -ENOMEM;
}
/* duplicate (include/linux/skbuff.h, v3.5) */
static inline int skb_linearize(struct sk_buff *skb)
{
	return skb_is_nonlinear(skb) ? __skb_linearize(skb) : 0;
}
/* custom: skb_pad() and skb_padto() (net/core/skbuff.c, include/linux/
 * skbuff.h, v3.5) are the model's: zero bytes past the data, expanding (and
 * unsharing) the buffer when needed; they free the skb on error */
static inline int skb_pad(struct sk_buff *skb, int pad)
{
	return km_skb_pad(km_shim_current(), skb, pad);
}
static inline int skb_padto(struct sk_buff *skb, unsigned int len)
{
	return km_skb_padto(km_shim_current(), skb, len);
}
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(3, 19, 0)
/* duplicate (include/linux/skbuff.h, v3.19; later kernels route it through
 * __skb_put_padto(skb, len, true), the same): pad to @len and put the
 * bytes; frees the skb on error */
static inline int skb_put_padto(struct sk_buff *skb, unsigned int len)
{
	unsigned int size = skb->len;

	if (unlikely(size < len)) {
		len -= size;
		if (skb_pad(skb, len))
			return -ENOMEM;
		__skb_put(skb, len);
	}
	return 0;
}
#endif
/* duplicate (include/linux/skbuff.h, v3.5): NET_IP_ALIGN of ARM (the
 * generic 2) and the receive allocators; custom: a step of a receive loop */
#define NET_IP_ALIGN 2
static inline struct sk_buff *netdev_alloc_skb(struct km_net_device *dev, unsigned int length)
{
	km_compat_rx_step(NULL, 0);
	return km_netdev_alloc_skb(km_shim_current(), dev, length, GFP_ATOMIC);
}
static inline struct sk_buff *netdev_alloc_skb_ip_align(struct km_net_device *dev,
							 unsigned int length)
{
	struct sk_buff *skb = netdev_alloc_skb(dev, length + NET_IP_ALIGN);

	if (NET_IP_ALIGN && skb)
		skb_reserve(skb, NET_IP_ALIGN);
	return skb;
}
static inline void skb_copy_to_linear_data(struct sk_buff *skb, const void *from,
					   const unsigned int len)
{
	km_skb_copy_to_linear_data_offset(skb, 0, from, len);
}
static inline void skb_copy_to_linear_data_offset(struct sk_buff *skb, const int offset,
						  const void *from, const unsigned int len)
{
	km_skb_copy_to_linear_data_offset(skb, offset, from, len);
}

#endif
