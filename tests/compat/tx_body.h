/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-style text compiled once per kernel version by tests/compat/tx_*.c
 * (each sets TX_OPS): two usbnet tx_fixups of v3.6 ported unchanged, and
 * the names of the compatibility layer they and their drivers need
 * (init.h, kmod.h, ip_summed and the csum helpers, nr_frags,
 * hard_mtu, netdev_*(), ...). Driver source: New-B/Linux3.6 b5154d3e5bc2
 * (a v3.6 tree), drivers/net/usb/smsc95xx.c, dm9601.c and int51x1.c. Their include
 * lists, but <linux/crc32.h> (not in the layer: no CRC-32 in the stack,
 * see include/kmodel/kernel/README.md) and dm9601's <linux/stddef.h> (the
 * host's uapi header; nothing here needs it).
 */
#include <linux/module.h>
#include <linux/kmod.h>
#include <linux/init.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/mii.h>
#include <linux/usb.h>
#include <linux/usb/usbnet.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/string.h>
#include "tx.h"

/* drivers/net/usb/smsc95xx.h and smsc95xx.c, v3.6 */
#define SMSC95XX_TX_OVERHEAD		(8)
#define SMSC95XX_TX_OVERHEAD_CSUM	(12)
#define TX_CMD_A_FIRST_SEG_		(0x00002000)
#define TX_CMD_A_LAST_SEG_		(0x00001000)
#define TX_CMD_B_CSUM_ENABLE		(0x00004000)

/* verbatim: drivers/net/usb/smsc95xx.c v3.6 smsc95xx_calc_csum_preamble(), smsc95xx_tx_fixup() */
static u32 smsc95xx_calc_csum_preamble(struct sk_buff *skb)
{
	u16 low_16 = (u16)skb_checksum_start_offset(skb);
	u16 high_16 = low_16 + skb->csum_offset;
	return (high_16 << 16) | low_16;
}

static struct sk_buff *smsc95xx_tx_fixup(struct usbnet *dev,
					 struct sk_buff *skb, gfp_t flags)
{
	bool csum = skb->ip_summed == CHECKSUM_PARTIAL;
	int overhead = csum ? SMSC95XX_TX_OVERHEAD_CSUM : SMSC95XX_TX_OVERHEAD;
	u32 tx_cmd_a, tx_cmd_b;

	/* We do not advertise SG, so skbs should be already linearized */
	BUG_ON(skb_shinfo(skb)->nr_frags);

	if (skb_headroom(skb) < overhead) {
		struct sk_buff *skb2 = skb_copy_expand(skb,
			overhead, 0, flags);
		dev_kfree_skb_any(skb);
		skb = skb2;
		if (!skb)
			return NULL;
	}

	if (csum) {
		if (skb->len <= 45) {
			/* workaround - hardware tx checksum does not work
			 * properly with extremely small packets */
			long csstart = skb_checksum_start_offset(skb);
			__wsum calc = csum_partial(skb->data + csstart,
				skb->len - csstart, 0);
			*((__sum16 *)(skb->data + csstart
				+ skb->csum_offset)) = csum_fold(calc);

			csum = false;
		} else {
			u32 csum_preamble = smsc95xx_calc_csum_preamble(skb);
			skb_push(skb, 4);
			memcpy(skb->data, &csum_preamble, 4);
		}
	}

	skb_push(skb, 4);
	tx_cmd_b = (u32)(skb->len - 4);
	if (csum)
		tx_cmd_b |= TX_CMD_B_CSUM_ENABLE;
	cpu_to_le32s(&tx_cmd_b);
	memcpy(skb->data, &tx_cmd_b, 4);

	skb_push(skb, 4);
	tx_cmd_a = (u32)(skb->len - 8) | TX_CMD_A_FIRST_SEG_ |
		TX_CMD_A_LAST_SEG_;
	cpu_to_le32s(&tx_cmd_a);
	memcpy(skb->data, &tx_cmd_a, 4);

	return skb;
}
/* end verbatim */

/* smsc95xx_bind() v3.6: its framing lines (the rest talks to the chip) */
static int smsc95xx_bind_framing(struct usbnet *dev)
{
	dev->net->hard_header_len += SMSC95XX_TX_OVERHEAD_CSUM;
	dev->hard_mtu = dev->net->mtu + dev->net->hard_header_len;
	return 0;
}

#define DM_TX_OVERHEAD	2	/* 2 byte header */

/* verbatim: drivers/net/usb/dm9601.c v3.6 dm9601_tx_fixup() */
static struct sk_buff *dm9601_tx_fixup(struct usbnet *dev, struct sk_buff *skb,
				       gfp_t flags)
{
	int len;

	/* format:
	   b1: packet length low
	   b2: packet length high
	   b3..n: packet data
	*/

	len = skb->len;

	if (skb_headroom(skb) < DM_TX_OVERHEAD) {
		struct sk_buff *skb2;

		skb2 = skb_copy_expand(skb, DM_TX_OVERHEAD, 0, flags);
		dev_kfree_skb_any(skb);
		skb = skb2;
		if (!skb)
			return NULL;
	}

	__skb_push(skb, DM_TX_OVERHEAD);

	/* usbnet adds padding if length is a multiple of packet size
	   if so, adjust length value in header */
	if ((skb->len % dev->maxpacket) == 0)
		len++;

	skb->data[0] = len;
	skb->data[1] = len >> 8;

	return skb;
}
/* end verbatim */

/* drivers/net/usb/int51x1.c, v3.6 */
#define INT51X1_HEADER_SIZE	2

/* verbatim: drivers/net/usb/int51x1.c v3.6 int51x1_tx_fixup() */
static struct sk_buff *int51x1_tx_fixup(struct usbnet *dev,
		struct sk_buff *skb, gfp_t flags)
{
	int pack_len = skb->len;
	int pack_with_header_len = pack_len + INT51X1_HEADER_SIZE;
	int headroom = skb_headroom(skb);
	int tailroom = skb_tailroom(skb);
	int need_tail = 0;
	__le16 *len;

	/* if packet and our header is smaler than 64 pad to 64 (+ ZLP) */
	if ((pack_with_header_len) < dev->maxpacket)
		need_tail = dev->maxpacket - pack_with_header_len + 1;
	/*
	 * usbnet would send a ZLP if packetlength mod urbsize == 0 for us,
	 * but we need to know ourself, because this would add to the length
	 * we send down to the device...
	 */
	else if (!(pack_with_header_len % dev->maxpacket))
		need_tail = 1;

	if (!skb_cloned(skb) &&
			(headroom + tailroom >= need_tail + INT51X1_HEADER_SIZE)) {
		if (headroom < INT51X1_HEADER_SIZE || tailroom < need_tail) {
			skb->data = memmove(skb->head + INT51X1_HEADER_SIZE,
					skb->data, skb->len);
			skb_set_tail_pointer(skb, skb->len);
		}
	} else {
		struct sk_buff *skb2;

		skb2 = skb_copy_expand(skb,
				INT51X1_HEADER_SIZE,
				need_tail,
				flags);
		dev_kfree_skb_any(skb);
		if (!skb2)
			return NULL;
		skb = skb2;
	}

	pack_len += need_tail;
	pack_len &= 0x07ff;

	len = (__le16 *) __skb_push(skb, INT51X1_HEADER_SIZE);
	*len = cpu_to_le16(pack_len);

	if(need_tail)
		memset(__skb_put(skb, need_tail), 0, need_tail);

	return skb;
}
/* end verbatim */

/* the driver's module boilerplate builds (init.h, module.h) */
static int __init tx_init(void)
{
	return 42;
}
static void __exit tx_exit(void)
{
}
module_init(tx_init);
module_exit(tx_exit);
MODULE_LICENSE("GPL");

static int tx_init_called(void) { return __inittest()(); }

static uint32_t tx_csum_partial(const void *buf, int len, uint32_t sum)
{
	return csum_partial(buf, len, sum);
}
static uint16_t tx_csum_fold(uint32_t sum) { return csum_fold(sum); }
static unsigned long tx_align(unsigned long x, unsigned long a) { return ALIGN(x, a); }
static bool tx_is_aligned(unsigned long x, unsigned long a) { return IS_ALIGNED(x, a); }
static unsigned long tx_roundup(unsigned long x, unsigned long y) { return roundup(x, y); }
static unsigned long tx_bit(int nr) { return BIT(nr); }
static int tx_checksum_start_offset(const struct sk_buff *skb)
{
	return skb_checksum_start_offset(skb);
}
static bool tx_is_gso(const struct sk_buff *skb) { return skb_is_gso(skb); }
static unsigned int tx_nr_frags(const struct sk_buff *skb) { return skb_shinfo(skb)->nr_frags; }
static int tx_cow(struct sk_buff *skb, unsigned int headroom) { return skb_cow(skb, headroom); }
static void *tx_kmemdup(const void *src, size_t len) { return kmemdup(src, len, GFP_KERNEL); }
static void *tx_netdev_priv(struct net_device *net) { return netdev_priv(net); }
static int tx_netdev_err(struct net_device *net, const char *s)
{
	return netdev_err(net, "%s\n", s);
}
static int tx_netdev_dbg(struct net_device *net, const char *s)
{
	return netdev_dbg(net, "%s\n", s);
}
static int tx_netif_dbg(struct usbnet *dev, const char *s)
{
	return netif_dbg(dev, ifdown, dev->net, "%s\n", s);
}
static int tx_dev_err(const char *s) { return dev_err(NULL, "%s\n", s); }
static void tx_dev_kfree_skb_irq(struct sk_buff *skb) { dev_kfree_skb_irq(skb); }
static int tx_request_module(const char *name) { return request_module("%s", name); }
#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 19, 0)
static void tx_dev_consume_skb_any(struct sk_buff *skb) { dev_consume_skb_any(skb); }
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(4, 13, 0)
static void tx_skb_put_u8(struct sk_buff *skb, u8 val) { skb_put_u8(skb, val); }
#endif

const struct tx_ops TX_OPS = {
	.version = LINUX_VERSION_CODE,
	.smsc95xx_tx_fixup = smsc95xx_tx_fixup,
	.smsc95xx_bind = smsc95xx_bind_framing,
	.dm9601_tx_fixup = dm9601_tx_fixup,
	.int51x1_tx_fixup = int51x1_tx_fixup,
	.csum_partial = tx_csum_partial,
	.csum_fold = tx_csum_fold,
	.align = tx_align,
	.is_aligned = tx_is_aligned,
	.roundup = tx_roundup,
	.bit = tx_bit,
	.checksum_start_offset = tx_checksum_start_offset,
	.is_gso = tx_is_gso,
	.nr_frags = tx_nr_frags,
	.cow = tx_cow,
	.kmemdup = tx_kmemdup,
	.netdev_priv = tx_netdev_priv,
	.netdev_err = tx_netdev_err,
	.netdev_dbg = tx_netdev_dbg,
	.netif_dbg = tx_netif_dbg,
	.dev_err = tx_dev_err,
	.dev_kfree_skb_irq = tx_dev_kfree_skb_irq,
	.request_module = tx_request_module,
	.init_called = tx_init_called,
#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 19, 0)
	.dev_consume_skb_any = tx_dev_consume_skb_any,
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(4, 13, 0)
	.skb_put_u8 = tx_skb_put_u8,
#endif
};
