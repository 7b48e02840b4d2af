/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-style text compiled once per kernel version by tests/compat/kver_*.c
 * (each sets KVER_OPS; CMake sets KMODEL_KERNEL_VERSION per file with
 * kmodel_kernel_sources()). It calls every name of the compatibility layer
 * the way code of that version does, and checks each versioned signature
 * at compile time: a wrong signature does not build.
 */
/* pr_fmt() before <linux/printk.h>, as a driver sets it */
#define pr_fmt(fmt) "kver: " fmt
#include <linux/bug.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/export.h>
#include <linux/highmem.h>
#include <linux/kernel.h>
#include <linux/mii.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/skbuff.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/usb.h>
#include <linux/usb/usbnet.h>
#include <linux/version.h>
#include <asm/unaligned.h>
#include "kver.h"

#define KV_V(a, b) (KMODEL_KERNEL_VERSION >= KERNEL_VERSION(a, b, 0))
#define KV_SIG(fn, type) _Static_assert(__builtin_types_compatible_p(typeof(&fn), type), \
					#fn " has the signature of this kernel version")

/* each of these is the layer's, not the build host's uapi header of the
 * same name (a usbnet driver's include list: user report 4) */
#if !defined(KM_COMPAT_LINUX_MODULE_H) || !defined(KM_COMPAT_LINUX_EXPORT_H) || \
    !defined(KM_COMPAT_LINUX_PRINTK_H) || !defined(KM_COMPAT_LINUX_ETHTOOL_H) || \
    !defined(KM_COMPAT_LINUX_MII_H)
#error "a kernel header came from the host, not the compatibility layer"
#endif
/* the module stubs take what the kernel's take, at file scope */
MODULE_AUTHOR("kmodel");
MODULE_DESCRIPTION("the compatibility layer at one kernel version");
MODULE_LICENSE("GPL");
MODULE_DEVICE_TABLE(usb, products);
/* the uapi integer types, and the types a usbnet driver's private data
 * embeds (include/linux/mii.h) */
_Static_assert(sizeof(__u8) == 1 && sizeof(__u16) == 2 && sizeof(__u32) == 4 &&
	       sizeof(__u64) == 8 && (__s8)-1 < 0 && (__s64)-1 < 0, "__u8 .. __s64");
_Static_assert(sizeof(struct mii_ioctl_data) == 8, "struct mii_ioctl_data: four __u16");
/* the FOLL_ values of include/linux/mm.h (v3.5 .. v5.7) */
_Static_assert(FOLL_WRITE == 0x01 && FOLL_FORCE == 0x10, "FOLL_WRITE, FOLL_FORCE");
/* u8 .. s64 are the __ types (asm-generic/int-ll64.h): u64 a long long,
 * which kernel code prints with %llu (kv_pr_u64() below) */
_Static_assert(__builtin_types_compatible_p(u64, unsigned long long) &&
	       __builtin_types_compatible_p(s64, long long) &&
	       __builtin_types_compatible_p(u32, unsigned int) &&
	       __builtin_types_compatible_p(u8, unsigned char), "u8 .. s64 of int-ll64.h");
struct kv_driver_priv {
	struct mii_if_info mii;
	const struct ethtool_ops *ethtool;
};
_Static_assert(sizeof(((struct kv_driver_priv *)0)->mii.dev) == sizeof(struct net_device *),
	       "mii_if_info.dev");
/* KERN_<LEVEL>: "<N>" up to v3.5, KERN_SOH "N" from v3.6 (04d2c8c83d0e) */
#if KV_V(3, 6)
_Static_assert(sizeof(KERN_INFO) == 3 && sizeof(KERN_SOH KERN_CONT) == 4, "KERN_SOH \"6\"");
#else
_Static_assert(sizeof(KERN_INFO) == 4 && sizeof(KERN_CONT) == 4, "\"<6>\"");
#endif
KV_SIG(printk, int (*)(const char *, ...));

/* get_user_pages_fast(): `int write` before v5.2 (73b0140bf0fe) */
#if KV_V(5, 2)
KV_SIG(get_user_pages_fast, int (*)(unsigned long, int, unsigned int, struct page **));
#else
KV_SIG(get_user_pages_fast, int (*)(unsigned long, int, int, struct page **));
#endif
/* the lockless walk: __get_user_pages_fast(.., int write, ..) up to v5.8 */
#if KV_V(5, 9)
KV_SIG(get_user_pages_fast_only, int (*)(unsigned long, int, unsigned int, struct page **));
#else
KV_SIG(__get_user_pages_fast, int (*)(unsigned long, int, int, struct page **));
#endif
/* skb_push()/skb_put()/skb_pull(): void * from v4.13 */
#if KV_V(4, 13)
KV_SIG(skb_push, void *(*)(struct sk_buff *, unsigned int));
KV_SIG(skb_put, void *(*)(struct sk_buff *, unsigned int));
KV_SIG(skb_pull, void *(*)(struct sk_buff *, unsigned int));
KV_SIG(skb_put_zero, void *(*)(struct sk_buff *, unsigned int));
KV_SIG(__skb_put_zero, void *(*)(struct sk_buff *, unsigned int));
KV_SIG(__skb_put_data, void *(*)(struct sk_buff *, const void *, unsigned int));
#else
KV_SIG(skb_push, unsigned char *(*)(struct sk_buff *, unsigned int));
KV_SIG(skb_put, unsigned char *(*)(struct sk_buff *, unsigned int));
KV_SIG(skb_pull, unsigned char *(*)(struct sk_buff *, unsigned int));
#endif
/* usb_maxpacket(): lost is_out in v5.19 (0f08c2e7458e and its series) */
#if KV_V(5, 19)
KV_SIG(usb_maxpacket, u16 (*)(struct usb_device *, int));
#else
KV_SIG(usb_maxpacket, u16 (*)(struct usb_device *, int, int));
#endif
#if KV_V(5, 8)
KV_SIG(pin_user_pages_unlocked, long (*)(unsigned long, unsigned long, struct page **,
					  unsigned int));
#endif
#if KV_V(5, 6)
KV_SIG(pin_user_pages_fast, int (*)(unsigned long, int, unsigned int, struct page **));
KV_SIG(unpin_user_pages_dirty_lock, void (*)(struct page **, unsigned long, bool));
#endif
#if KV_V(5, 11)
KV_SIG(kmap_local_page, void *(*)(struct page *));
#endif
KV_SIG(skb_pad, int (*)(struct sk_buff *, int));
KV_SIG(skb_padto, int (*)(struct sk_buff *, unsigned int));
KV_SIG(skb_linearize, int (*)(struct sk_buff *));
KV_SIG(skb_cow_head, int (*)(struct sk_buff *, unsigned int));
KV_SIG(get_unaligned_le16, u16 (*)(const void *));
KV_SIG(put_unaligned_le32, void (*)(u32, void *));
#if KV_V(3, 19)
KV_SIG(skb_put_padto, int (*)(struct sk_buff *, unsigned int));
KV_SIG(eth_skb_pad, int (*)(struct sk_buff *));
#endif

static int kv_gup(unsigned long addr, bool write, struct km_page **page)
{
#if KV_V(5, 2)
	return get_user_pages_fast(addr, 1, write ? FOLL_WRITE : 0, (struct page **)page);
#else
	return get_user_pages_fast(addr, 1, write, (struct page **)page);
#endif
}

static int kv_gup_fast_only(unsigned long addr, bool write, struct km_page **page)
{
#if KV_V(5, 9)
	return get_user_pages_fast_only(addr, 1, write ? FOLL_WRITE : 0, (struct page **)page);
#else
	return __get_user_pages_fast(addr, 1, write, (struct page **)page);
#endif
}

#if KV_V(5, 2)
static int kv_gup_flags(unsigned long addr, unsigned int gup_flags, struct km_page **page)
{
	return get_user_pages_fast(addr, 1, gup_flags, (struct page **)page);
}
#endif
#if KV_V(5, 9)
static int kv_gup_fast_only_flags(unsigned long addr, unsigned int gup_flags,
				  struct km_page **page)
{
	return get_user_pages_fast_only(addr, 1, gup_flags, (struct page **)page);
}
#endif

static void kv_put_page(struct km_page *page) { put_page((struct page *)page); }

static bool kv_access_ok(unsigned long addr, unsigned long size)
{
#if KV_V(5, 0)
	return access_ok((void __user *)addr, size);
#else
	return access_ok(VERIFY_WRITE, (void __user *)addr, size);
#endif
}

static void kv_might_fault(void) { might_fault(); }
static void kv_might_sleep(void) { might_sleep(); }
static int kv_in_atomic(void) { return in_atomic(); }
static void kv_pagefault_disable(void) { pagefault_disable(); }
static void kv_pagefault_enable(void) { pagefault_enable(); }
static unsigned long kv_offset_in_page(unsigned long addr) { return offset_in_page(addr); }
static long kv_min_t_u8(long x, long y) { return min_t(u8, x, y); }
static long kv_max_t_u8(long x, long y) { return max_t(u8, x, y); }
static int kv_min_t_evals(void)
{
	int i = 0, j = 10;

	(void)min_t(int, i++, j++);
	return i + (j - 10);
}
static void kv_put_le16(void *p, unsigned int v) { put_unaligned_le16(v, p); }
static void kv_put_le32(void *p, unsigned int v) { put_unaligned_le32(v, p); }
static unsigned int kv_get_le16(const void *p) { return get_unaligned_le16(p); }
static unsigned int kv_get_le32(const void *p) { return get_unaligned_le32(p); }
static int kv_warn_on(int cond) { return WARN_ON(cond); }
static void kv_bug_on(int cond) { BUG_ON(cond); }
static int kv_set_page_dirty_lock(struct km_page *page)
{
	return set_page_dirty_lock((struct page *)page);
}

/* the single-value transfers at each size: x is a uN preset to *val */
#define KV_GET(fn, T, addr, val) ({ T x = *(val); long e = fn(x, (T __user *)(addr)); *(val) = x; e; })
static long kv_get_user(unsigned long addr, unsigned int size, unsigned long long *val)
{
	switch (size) {
	case 1: return KV_GET(get_user, u8, addr, val);
	case 2: return KV_GET(get_user, u16, addr, val);
	case 4: return KV_GET(get_user, u32, addr, val);
#if KV_V(3, 17)	/* get_user() of 8 bytes: ARM 8091/2 */
	case 8: return KV_GET(get_user, u64, addr, val);
#endif
	}
	return -ENOSYS;
}
static long kv___get_user(unsigned long addr, unsigned int size, unsigned long long *val)
{
	switch (size) {
	case 1: return KV_GET(__get_user, u8, addr, val);
	case 2: return KV_GET(__get_user, u16, addr, val);
	case 4: return KV_GET(__get_user, u32, addr, val);
	}
	return -ENOSYS;
}
#define KV_PUT(fn, addr, size, val) ({                                         \
	long __e = -ENOSYS;                                                    \
	switch (size) {                                                        \
	case 1: __e = fn((u8)(val), (u8 __user *)(addr)); break;               \
	case 2: __e = fn((u16)(val), (u16 __user *)(addr)); break;             \
	case 4: __e = fn((u32)(val), (u32 __user *)(addr)); break;             \
	case 8: __e = fn((u64)(val), (u64 __user *)(addr)); break;             \
	}                                                                      \
	__e;                                                                   \
})
static long kv_put_user(unsigned long addr, unsigned int size, unsigned long long val)
{
	return KV_PUT(put_user, addr, size, val);
}
static long kv___put_user(unsigned long addr, unsigned int size, unsigned long long val)
{
	return KV_PUT(__put_user, addr, size, val);
}
#if KV_V(3, 17)
static long kv_get_user_64_32(unsigned long addr, unsigned int *val)
{
	u32 x = *val;
	long e = get_user(x, (u64 __user *)addr);

	*val = x;
	return e;
}
#endif
static unsigned long kv_clear_user(unsigned long addr, unsigned long n)
{
	return clear_user((void __user *)addr, n);
}
/* copy_{from,to}_user(): one signature in every version */
KV_SIG(copy_from_user, unsigned long (*)(void *, const void __user *, unsigned long));
KV_SIG(copy_to_user, unsigned long (*)(void __user *, const void *, unsigned long));
static unsigned long kv_copy_from_user(void *to, unsigned long from, unsigned long n)
{
	return copy_from_user(to, (const void __user *)from, n);
}
static unsigned long kv_copy_to_user(unsigned long to, const void *from, unsigned long n)
{
	return copy_to_user((void __user *)to, from, n);
}

#if KV_V(5, 6)
static int kv_pin(unsigned long addr, int nr, struct km_page **pages)
{
	return pin_user_pages_fast(addr, nr, FOLL_WRITE, (struct page **)pages);
}
static void kv_unpin(struct km_page **pages, unsigned long nr)
{
	unpin_user_pages((struct page **)pages, nr);
}
static void kv_unpin_dirty_lock(struct km_page **pages, unsigned long nr, bool dirty)
{
	unpin_user_pages_dirty_lock((struct page **)pages, nr, dirty);
}
#if KV_V(5, 8)
/* pin_user_pages_unlocked() of @nr pages for writing, long-term or not */
static long kv_pin_unlocked(unsigned long addr, unsigned long nr, struct km_page **pages,
			    bool longterm)
{
	return pin_user_pages_unlocked(addr, nr, (struct page **)pages,
				       FOLL_WRITE | (longterm ? FOLL_LONGTERM : 0));
}
#endif
/* a ported copy_to_user() with the classic flaw -- "if
 * (pinned == 0)" lets pin_user_pages_fast()'s -EFAULT through -- kmaps
 * pages[0], NULL, and writes at its offset; with @local kmap_local_page()
 * (5.11+), else kmap_atomic() */
static unsigned long kv_negerr_copy_to_user(unsigned long to, const void *from, unsigned long n,
					    bool local)
{
	struct page *pages[1] = { NULL };
	unsigned long off = offset_in_page(to);
	int pinned = pin_user_pages_fast(to, 1, FOLL_WRITE, pages);
	char *kaddr;

	if (pinned == 0)
		return n;
#if KV_V(5, 11)
	if (local) {
		kaddr = kmap_local_page(pages[0]);
		memcpy(kaddr + off, from, n);
		kunmap_local(kaddr);
	} else
#endif
	{
		kaddr = kmap_atomic(pages[0]);
		memcpy(kaddr + off, from, n);
		kunmap_atomic(kaddr);
	}
	(void)local;
	if (pinned > 0)
		unpin_user_page(pages[0]);
	return 0;
}
#endif
#if KV_V(5, 11)
static void *kv_kmap_local_page(struct km_page *page)
{
	return kmap_local_page((struct page *)page);
}
static void kv_kunmap_local(void *addr) { kunmap_local(addr); }
#endif

static void *kv_skb_push(struct km_skb *skb, unsigned int len) { return skb_push(skb, len); }
static int kv_skb_pad(struct km_skb *skb, int pad) { return skb_pad(skb, pad); }
static int kv_skb_padto(struct km_skb *skb, unsigned int len) { return skb_padto(skb, len); }
static int kv_skb_linearize(struct km_skb *skb) { return skb_linearize(skb); }
static int kv_skb_cow_head(struct km_skb *skb, unsigned int headroom)
{
	return skb_cow_head(skb, headroom);
}
static void kv_put_unaligned_le32_skb(struct km_skb *skb, unsigned int v)
{
	put_unaligned_le32(v, skb->data);
}
#if KV_V(3, 19)
static int kv_skb_put_padto(struct km_skb *skb, unsigned int len)
{
	return skb_put_padto(skb, len);
}
static int kv_eth_skb_pad(struct km_skb *skb) { return eth_skb_pad(skb); }
#endif
#if KV_V(4, 13)
static void *kv_skb_put_zero(struct km_skb *skb, unsigned int len)
{
	return skb_put_zero(skb, len);
}
static void *kv___skb_put_zero(struct km_skb *skb, unsigned int len)
{
	return __skb_put_zero(skb, len);
}
static void *kv___skb_put_data(struct km_skb *skb, const void *data, unsigned int len)
{
	return __skb_put_data(skb, data, len);
}
#endif

/* printk(): pr_info() and pr_err() through pr_fmt(), pr_debug() without
 * DEBUG, a printk() without a level, and a pr_cont() fragment */
static int kv_pr_info(const char *s) { return pr_info("%s\n", s); }
static int kv_pr_err(const char *s) { return pr_err("%s\n", s); }
static int kv_pr_debug(const char *s) { return pr_debug("%s\n", s); }
static int kv_printk(const char *s) { return printk("%s\n", s); }
static int kv_pr_cont(const char *s) { return pr_cont("%s", s); }
/* u64 and s64 with the kernel's formats (-Wformat under the dev preset) */
static int __attribute__((unused)) kv_pr_u64(u64 u, s64 s)
{
	return pr_debug("%llu %lld\n", u, s);
}

/* struct driver_info: a driver's table under the kernel's name, read back
 * through dev->driver_info (a type check: it does not build otherwise) */
static struct sk_buff *kv_tx_fixup(struct usbnet *dev, struct sk_buff *skb, gfp_t flags)
{
	return dev->driver_info->flags & FLAG_SEND_ZLP ? skb : NULL;
}

static const struct driver_info kv_driver_info __attribute__((unused)) = {
	.description = "kver", .flags = FLAG_ETHER | FLAG_SEND_ZLP, .tx_fixup = kv_tx_fixup,
};
KV_SIG(kv_driver_info.tx_fixup, struct sk_buff *(*const *)(struct usbnet *, struct sk_buff *, gfp_t));

static int kv_usb_maxpacket(unsigned int ep, bool in, int is_out)
{
	struct usb_host_endpoint out1 = { .desc = { .bEndpointAddress = USB_DIR_OUT | 1,
						    .bmAttributes = USB_ENDPOINT_XFER_BULK,
						    .wMaxPacketSize = cpu_to_le16(512) } };
	struct usb_host_endpoint in1 = { .desc = { .bEndpointAddress = USB_DIR_IN | 1,
						   .bmAttributes = USB_ENDPOINT_XFER_BULK,
						   .wMaxPacketSize = cpu_to_le16(64) } };
	struct usb_device udev = { .devnum = 2, .speed = USB_SPEED_HIGH };
	int pipe;

	udev.ep_out[1] = &out1;
	udev.ep_in[1] = &in1;
	pipe = in ? usb_rcvbulkpipe(&udev, ep) : usb_sndbulkpipe(&udev, ep);
#if KV_V(5, 19)
	(void)is_out;
	return usb_maxpacket(&udev, pipe);
#else
	return usb_maxpacket(&udev, pipe, is_out);
#endif
}

static int kv_usbnet_maxpacket(struct usbnet *dev, bool *out_dir_ok)
{
	*out_dir_ok = usb_pipeout(dev->out) && usb_pipein(dev->in) &&
		      usb_pipetype(dev->out) == PIPE_BULK && usb_pipetype(dev->in) == PIPE_BULK &&
		      usb_pipedevice(dev->out) == (unsigned int)dev->udev->devnum;
#if KV_V(5, 19)
	return usb_maxpacket(dev->udev, dev->out);
#else
	return usb_maxpacket(dev->udev, dev->out, 1);
#endif
}

#if !KV_V(5, 16)
KV_SIG(iov_iter_fault_in_readable, int (*)(struct iov_iter *, size_t));
static int kv_fault_in_readable(const struct km_iovec *iov, unsigned long nr_segs,
				size_t count, size_t bytes)
{
	struct iov_iter i;

	km_iov_iter_init(&i, iov, nr_segs, count);
	return iov_iter_fault_in_readable(&i, bytes);
}
#endif

const struct kver_ops KVER_OPS = {
	.name = KVER_NAME,
	.version = KMODEL_KERNEL_VERSION,
	.gup = kv_gup,
	.gup_fast_only = kv_gup_fast_only,
#if KV_V(5, 2)
	.gup_flags = kv_gup_flags,
#endif
#if KV_V(5, 9)
	.gup_fast_only_flags = kv_gup_fast_only_flags,
#endif
	.put_page = kv_put_page,
	.access_ok = kv_access_ok,
	.might_fault = kv_might_fault,
	.might_sleep = kv_might_sleep,
	.in_atomic = kv_in_atomic,
	.pagefault_disable = kv_pagefault_disable,
	.pagefault_enable = kv_pagefault_enable,
	.offset_in_page = kv_offset_in_page,
	.min_t_u8 = kv_min_t_u8,
	.max_t_u8 = kv_max_t_u8,
	.min_t_evals = kv_min_t_evals,
	.put_le16 = kv_put_le16,
	.put_le32 = kv_put_le32,
	.get_le16 = kv_get_le16,
	.get_le32 = kv_get_le32,
	.warn_on = kv_warn_on,
	.bug_on = kv_bug_on,
	.set_page_dirty_lock = kv_set_page_dirty_lock,
	.get_user = kv_get_user,
	.__get_user = kv___get_user,
	.put_user = kv_put_user,
	.__put_user = kv___put_user,
#if KV_V(3, 17)
	.get_user_64_32 = kv_get_user_64_32,
#endif
	.clear_user = kv_clear_user,
	.copy_from_user = kv_copy_from_user,
	.copy_to_user = kv_copy_to_user,
#if KV_V(5, 6)
	.pin = kv_pin,
	.unpin = kv_unpin,
#if KV_V(5, 8)
	.pin_unlocked = kv_pin_unlocked,
#endif
	.unpin_dirty_lock = kv_unpin_dirty_lock,
	.negerr_copy_to_user = kv_negerr_copy_to_user,
#endif
#if KV_V(5, 11)
	.kmap_local_page = kv_kmap_local_page,
	.kunmap_local = kv_kunmap_local,
#endif
	.skb_push = kv_skb_push,
	.skb_pad = kv_skb_pad,
	.skb_padto = kv_skb_padto,
	.skb_linearize = kv_skb_linearize,
	.skb_cow_head = kv_skb_cow_head,
	.put_unaligned_le32_skb = kv_put_unaligned_le32_skb,
#if KV_V(3, 19)
	.skb_put_padto = kv_skb_put_padto,
	.eth_skb_pad = kv_eth_skb_pad,
#endif
#if KV_V(4, 13)
	.skb_put_zero = kv_skb_put_zero,
	.__skb_put_zero = kv___skb_put_zero,
	.__skb_put_data = kv___skb_put_data,
#endif
	.pr_info = kv_pr_info,
	.pr_err = kv_pr_err,
	.pr_debug = kv_pr_debug,
	.printk = kv_printk,
	.pr_cont = kv_pr_cont,
	.usb_maxpacket = kv_usb_maxpacket,
	.usbnet_maxpacket = kv_usbnet_maxpacket,
#if !KV_V(5, 16)
	.fault_in_readable = kv_fault_in_readable,
#endif
};
EXPORT_SYMBOL_GPL(KVER_OPS);

/* a lock defined at file scope, as drivers do (compile check) */
__maybe_unused static DEFINE_SPINLOCK(kv_lock);
