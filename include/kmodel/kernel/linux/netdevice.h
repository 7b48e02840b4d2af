/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/netdevice.h> (v3.5) */
#ifndef KM_COMPAT_LINUX_NETDEVICE_H
#define KM_COMPAT_LINUX_NETDEVICE_H

#include <linux/device.h>
#include <linux/skbuff.h>
#include <linux/if_ether.h>	/* as v5.7's, through <uapi/linux/netdevice.h>: ETH_FRAME_LEN, ... */
#include <linux/string.h>
#include <kmodel/usb.h>	/* netdev_priv(): struct km_usbnet */

/* custom: struct net_device is the model's headroom slice */
#define net_device km_net_device

/* duplicate (include/linux/netdevice.h, v3.5) */
#define HH_DATA_MOD KM_HH_DATA_MOD
#define LL_RESERVED_SPACE(dev) \
	((((dev)->hard_header_len + (dev)->needed_headroom) & ~(HH_DATA_MOD - 1)) + HH_DATA_MOD)
#define NETDEV_TX_OK 0x00
/* duplicate (include/linux/netdev_features.h, mainline bit numbers of SG,
 * IP_CSUM, IPV6_CSUM, TSO); custom: RXCSUM's bit (no model code reads it) */
#define NETIF_F_SG (1ULL << 0)
#define NETIF_F_IP_CSUM (1ULL << 1)
#define NETIF_F_IPV6_CSUM (1ULL << 4)
#define NETIF_F_TSO (1ULL << 16)
#define NETIF_F_RXCSUM (1ULL << 32)
#define IFF_TX_SKB_SHARING KM_IFF_TX_SKB_SHARING

/* custom: all free the same way in the model (v3.5: dev_kfree_skb is
 * consume_skb; the _any variant picks the irq-safe one by context;
 * dev_kfree_skb_irq() (net/core/dev.c, v3.6) drops the reference at once
 * and queues the last one for the TX softirq, which frees it: the model
 * frees at once) */
static inline void dev_kfree_skb_any(struct sk_buff *skb) { km_dev_kfree_skb_any(skb); }
static inline void dev_kfree_skb(struct sk_buff *skb) { km_consume_skb(skb); }
static inline void dev_kfree_skb_irq(struct sk_buff *skb) { km_kfree_skb(skb); }
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(3, 19, 0)
/* custom (include/linux/netdevice.h, v3.19: e6247027e517): as
 * dev_kfree_skb_any(), counted as consumed rather than dropped in the
 * kernel (only the tracepoint differs) */
static inline void dev_consume_skb_any(struct sk_buff *skb) { km_consume_skb(skb); }
#endif

/* custom: the private area of a net_device is its usbnet's (usbnet_probe()
 * allocates the net_device with sizeof(struct usbnet) of private data, and
 * netdev_priv(net) is that struct usbnet). The model's only such device is
 * the one embedded in struct usbnet (dev->net): pass no other */
#define netdev_priv(dev) ((void *)((char *)(dev) - offsetof(struct km_usbnet, netdev)))

/* duplicate (include/linux/netdevice.h, v3.6): the msg_enable bits */
#define NETIF_MSG_DRV 0x0001
#define NETIF_MSG_PROBE 0x0002
#define NETIF_MSG_LINK 0x0004
#define NETIF_MSG_TIMER 0x0008
#define NETIF_MSG_IFDOWN 0x0010
#define NETIF_MSG_IFUP 0x0020
#define NETIF_MSG_RX_ERR 0x0040
#define NETIF_MSG_TX_ERR 0x0080
#define NETIF_MSG_TX_QUEUED 0x0100
#define NETIF_MSG_INTR 0x0200
#define NETIF_MSG_TX_DONE 0x0400
#define NETIF_MSG_RX_STATUS 0x0800
#define NETIF_MSG_PKTDATA 0x1000
#define NETIF_MSG_HW 0x2000
#define NETIF_MSG_WOL 0x4000

/* custom (net/core/dev.c, v3.6 __netdev_printk()): the message through
 * printk() at @level (a KERN_* literal), prefixed as the kernel prefixes
 * it for a net_device without parent that is not registered (the model's
 * net_device has no name and no parent): "(unregistered net_device): " */
#define netdev_printk(level, dev, fmt, ...) \
	({ (void)(dev); printk(level "(unregistered net_device): " fmt, ##__VA_ARGS__); })
#define netdev_emerg(dev, fmt, ...) netdev_printk(KERN_EMERG, dev, fmt, ##__VA_ARGS__)
#define netdev_alert(dev, fmt, ...) netdev_printk(KERN_ALERT, dev, fmt, ##__VA_ARGS__)
#define netdev_crit(dev, fmt, ...) netdev_printk(KERN_CRIT, dev, fmt, ##__VA_ARGS__)
#define netdev_err(dev, fmt, ...) netdev_printk(KERN_ERR, dev, fmt, ##__VA_ARGS__)
#define netdev_warn(dev, fmt, ...) netdev_printk(KERN_WARNING, dev, fmt, ##__VA_ARGS__)
#define netdev_notice(dev, fmt, ...) netdev_printk(KERN_NOTICE, dev, fmt, ##__VA_ARGS__)
#define netdev_info(dev, fmt, ...) netdev_printk(KERN_INFO, dev, fmt, ##__VA_ARGS__)
/* duplicate (v3.6 without CONFIG_DYNAMIC_DEBUG): printed where the file
 * defines DEBUG, else checked and not printed (0) */
#ifdef DEBUG
#define netdev_dbg(dev, fmt, ...) netdev_printk(KERN_DEBUG, dev, fmt, ##__VA_ARGS__)
#else
#define netdev_dbg(dev, fmt, ...) \
	({ if (0) netdev_printk(KERN_DEBUG, dev, fmt, ##__VA_ARGS__); 0; })
#endif
/* duplicate (include/linux/netdevice.h, v3.6): netif_msg_TYPE(priv) reads
 * priv->msg_enable (struct usbnet's, <linux/usb/usbnet.h>) */
#define netif_msg_drv(p) ((p)->msg_enable & NETIF_MSG_DRV)
#define netif_msg_probe(p) ((p)->msg_enable & NETIF_MSG_PROBE)
#define netif_msg_link(p) ((p)->msg_enable & NETIF_MSG_LINK)
#define netif_msg_timer(p) ((p)->msg_enable & NETIF_MSG_TIMER)
#define netif_msg_ifdown(p) ((p)->msg_enable & NETIF_MSG_IFDOWN)
#define netif_msg_ifup(p) ((p)->msg_enable & NETIF_MSG_IFUP)
#define netif_msg_rx_err(p) ((p)->msg_enable & NETIF_MSG_RX_ERR)
#define netif_msg_tx_err(p) ((p)->msg_enable & NETIF_MSG_TX_ERR)
#define netif_msg_tx_queued(p) ((p)->msg_enable & NETIF_MSG_TX_QUEUED)
#define netif_msg_intr(p) ((p)->msg_enable & NETIF_MSG_INTR)
#define netif_msg_tx_done(p) ((p)->msg_enable & NETIF_MSG_TX_DONE)
#define netif_msg_rx_status(p) ((p)->msg_enable & NETIF_MSG_RX_STATUS)
#define netif_msg_pktdata(p) ((p)->msg_enable & NETIF_MSG_PKTDATA)
#define netif_msg_hw(p) ((p)->msg_enable & NETIF_MSG_HW)
#define netif_msg_wol(p) ((p)->msg_enable & NETIF_MSG_WOL)
#define netif_printk(priv, type, level, dev, fmt, ...) \
	do { \
		if (netif_msg_##type(priv)) \
			netdev_printk(level, (dev), fmt, ##__VA_ARGS__); \
	} while (0)
#define netif_err(priv, type, dev, fmt, ...) \
	netif_printk(priv, type, KERN_ERR, dev, fmt, ##__VA_ARGS__)
#define netif_warn(priv, type, dev, fmt, ...) \
	netif_printk(priv, type, KERN_WARNING, dev, fmt, ##__VA_ARGS__)
#define netif_info(priv, type, dev, fmt, ...) \
	netif_printk(priv, type, KERN_INFO, dev, fmt, ##__VA_ARGS__)
#ifdef DEBUG
#define netif_dbg(priv, type, dev, fmt, ...) \
	netif_printk(priv, type, KERN_DEBUG, dev, fmt, ##__VA_ARGS__)
#else
#define netif_dbg(priv, type, dev, fmt, ...) \
	({ if (0) netif_printk(priv, type, KERN_DEBUG, dev, fmt, ##__VA_ARGS__); 0; })
#endif

#endif
