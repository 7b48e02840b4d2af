/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface between tests/test_compat.c (plain C, the public API) and
 * the kernel-style files tests/compat/kver_*.c (the compatibility layer at
 * one KMODEL_KERNEL_VERSION each; kver_body.h is their common text). Each
 * member calls the kernel-named function of the same name with the
 * signature of its version; NULL where the version has no such name.
 */
#ifndef KVER_H
#define KVER_H

#include <stdbool.h>
#include <kmodel/kmodel.h>

struct kver_ops {
	const char *name;
	unsigned int version;			/* KMODEL_KERNEL_VERSION */
	/* mm and uaccess */
	int (*gup)(unsigned long addr, bool write, struct km_page **page);
	int (*gup_fast_only)(unsigned long addr, bool write, struct km_page **page);
	/* the same with @gup_flags as given: get_user_pages_fast() since
	 * v5.2, get_user_pages_fast_only() since v5.9 */
	int (*gup_flags)(unsigned long addr, unsigned int gup_flags, struct km_page **page);
	int (*gup_fast_only_flags)(unsigned long addr, unsigned int gup_flags,
				   struct km_page **page);
	void (*put_page)(struct km_page *page);
	bool (*access_ok)(unsigned long addr, unsigned long size);
	void (*might_fault)(void);
	void (*might_sleep)(void);
	int (*in_atomic)(void);
	void (*pagefault_disable)(void);
	void (*pagefault_enable)(void);
	unsigned long (*offset_in_page)(unsigned long addr);
	long (*min_t_u8)(long x, long y);	/* min_t(u8, x, y) */
	long (*max_t_u8)(long x, long y);
	int (*min_t_evals)(void);		/* evaluations of min_t(int, i++, j++) */
	void (*put_le16)(void *p, unsigned int v);
	void (*put_le32)(void *p, unsigned int v);
	unsigned int (*get_le16)(const void *p);
	unsigned int (*get_le32)(const void *p);
	int (*warn_on)(int cond);		/* WARN_ON(cond)'s value */
	void (*bug_on)(int cond);
	int (*set_page_dirty_lock)(struct km_page *page);
	/* get_user(x, (uN __user *)addr) and the others on a uN of @size
	 * bytes (1, 2, 4, 8; __get_user: 1, 2, 4); @val in and out, x preset
	 * to *@val; get_user_64_32: get_user() of a u64 into a u32 */
	long (*get_user)(unsigned long addr, unsigned int size, unsigned long long *val);
	long (*__get_user)(unsigned long addr, unsigned int size, unsigned long long *val);
	long (*put_user)(unsigned long addr, unsigned int size, unsigned long long val);
	long (*__put_user)(unsigned long addr, unsigned int size, unsigned long long val);
	long (*get_user_64_32)(unsigned long addr, unsigned int *val);	/* since v3.17 */
	unsigned long (*clear_user)(unsigned long addr, unsigned long n);
	/* copy_from_user(to, (void __user *)from, n), copy_to_user() */
	unsigned long (*copy_from_user)(void *to, unsigned long from, unsigned long n);
	unsigned long (*copy_to_user)(unsigned long to, const void *from, unsigned long n);
	/* since v5.6 */
	int (*pin)(unsigned long addr, int nr, struct km_page **pages);
	void (*unpin)(struct km_page **pages, unsigned long nr);
	void (*unpin_dirty_lock)(struct km_page **pages, unsigned long nr, bool dirty);
	/* pin_user_pages_unlocked(FOLL_WRITE[| FOLL_LONGTERM]) (>= 5.8) */
	long (*pin_unlocked)(unsigned long addr, unsigned long nr, struct km_page **pages,
			     bool longterm);
	/* a ported copy_to_user() that kmaps pages[0] after a failed pin
	 * @local: kmap_local_page() (5.11+), else kmap_atomic() */
	unsigned long (*negerr_copy_to_user)(unsigned long to, const void *from, unsigned long n,
					     bool local);
	/* since v5.11 */
	void *(*kmap_local_page)(struct km_page *page);
	void (*kunmap_local)(void *addr);
	/* skb */
	void *(*skb_push)(struct km_skb *skb, unsigned int len);
	int (*skb_pad)(struct km_skb *skb, int pad);
	int (*skb_padto)(struct km_skb *skb, unsigned int len);
	int (*skb_linearize)(struct km_skb *skb);
	int (*skb_cow_head)(struct km_skb *skb, unsigned int headroom);
	void (*put_unaligned_le32_skb)(struct km_skb *skb, unsigned int v); /* at skb->data */
	int (*skb_put_padto)(struct km_skb *skb, unsigned int len);	/* since v3.19 */
	int (*eth_skb_pad)(struct km_skb *skb);				/* since v3.19 */
	void *(*skb_put_zero)(struct km_skb *skb, unsigned int len);	/* since v4.13 */
	void *(*__skb_put_zero)(struct km_skb *skb, unsigned int len);	/* since v4.13 */
	void *(*__skb_put_data)(struct km_skb *skb, const void *data, unsigned int len);
	/* printk: pr_info("%s\n", s), pr_err(..), pr_debug(..) (no DEBUG),
	 * printk("%s\n", s) (no level), pr_cont("%s", s); pr_fmt is "kver: " */
	int (*pr_info)(const char *s);
	int (*pr_err)(const char *s);
	int (*pr_debug)(const char *s);
	int (*printk)(const char *s);
	int (*pr_cont)(const char *s);
	/* usb: a device whose bulk endpoints are out 1 (maxpacket 512) and in
	 * 1 (64); usb_maxpacket(udev, pipe of @ep, @in[, @is_out]) */
	int (*usb_maxpacket)(unsigned int ep, bool in, int is_out);
	/* what v3.5 usbnet_probe() and drivers' binds ask of a probed usbnet:
	 * usb_maxpacket(dev->udev, dev->out[, 1]); usb_pipeout(dev->out) and
	 * usb_pipein(dev->in) into @out_dir_ok */
	int (*usbnet_maxpacket)(struct km_usbnet *dev, bool *out_dir_ok);
	/* uio: iov_iter_fault_in_readable() of an iov_iter over @iov (< 5.16) */
	int (*fault_in_readable)(const struct km_iovec *iov, unsigned long nr_segs,
				 size_t count, size_t bytes);
};

extern const struct kver_ops kver_v3_5, kver_v3_6, kver_v4_12, kver_v5_4, kver_v5_7, kver_v5_11,
	kver_v5_19, kver_v6_1, kver_v6_2;

#endif
