/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface between tests/test_compat_tx.c (plain C, the public API)
 * and tests/compat/tx_3_6.c and tx_5_7.c: tx_body.h (usbnet tx_fixups of
 * v3.6 ported between markers, and the names they need) compiled through
 * the compatibility layer at one kernel version each.
 */
#ifndef TX_H
#define TX_H

#include <stdbool.h>
#include <kmodel/kmodel.h>

struct tx_ops {
	unsigned int version;
	/* the drivers (drivers/net/usb/{smsc95xx,dm9601,int51x1}.c, v3.6) */
	struct km_skb *(*smsc95xx_tx_fixup)(struct km_usbnet *dev, struct km_skb *skb,
					    km_gfp_t flags);
	int (*smsc95xx_bind)(struct km_usbnet *dev);	/* its framing lines */
	struct km_skb *(*dm9601_tx_fixup)(struct km_usbnet *dev, struct km_skb *skb,
					  km_gfp_t flags);
	struct km_skb *(*int51x1_tx_fixup)(struct km_usbnet *dev, struct km_skb *skb,
					   km_gfp_t flags);
	/* the names */
	uint32_t (*csum_partial)(const void *buf, int len, uint32_t sum);
	uint16_t (*csum_fold)(uint32_t sum);
	unsigned long (*align)(unsigned long x, unsigned long a);
	bool (*is_aligned)(unsigned long x, unsigned long a);
	unsigned long (*roundup)(unsigned long x, unsigned long y);
	unsigned long (*bit)(int nr);
	int (*checksum_start_offset)(const struct km_skb *skb);
	bool (*is_gso)(const struct km_skb *skb);
	unsigned int (*nr_frags)(const struct km_skb *skb);
	int (*cow)(struct km_skb *skb, unsigned int headroom);
	void *(*kmemdup)(const void *src, size_t len);
	void *(*netdev_priv)(struct km_net_device *net);
	int (*netdev_err)(struct km_net_device *net, const char *s);
	int (*netdev_dbg)(struct km_net_device *net, const char *s);
	int (*netif_dbg)(struct km_usbnet *dev, const char *s);
	int (*dev_err)(const char *s);	/* dev_err(NULL, "%s", s) */
	void (*dev_kfree_skb_irq)(struct km_skb *skb);
	int (*request_module)(const char *name);
	int (*init_called)(void);	/* the module_init() function, called */
	/* since v3.19 */
	void (*dev_consume_skb_any)(struct km_skb *skb);
	/* since v4.13 */
	void (*skb_put_u8)(struct km_skb *skb, uint8_t val);
};

extern const struct tx_ops tx_v3_6, tx_v5_7;

#endif
