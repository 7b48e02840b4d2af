/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/netdevice.h> (v3.5) */
#ifndef KM_COMPAT_LINUX_NETDEVICE_H
#define KM_COMPAT_LINUX_NETDEVICE_H

#include <linux/skbuff.h>

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

/* custom: all three free the same way in the model (v3.5: dev_kfree_skb is
 * consume_skb; the _any variant picks the irq-safe one by context) */
static inline void dev_kfree_skb_any(struct sk_buff *skb) { km_dev_kfree_skb_any(skb); }
static inline void dev_kfree_skb(struct sk_buff *skb) { km_consume_skb(skb); }

#endif
