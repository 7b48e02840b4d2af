/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/etherdevice.h> */
#ifndef KM_COMPAT_LINUX_ETHERDEVICE_H
#define KM_COMPAT_LINUX_ETHERDEVICE_H

#include <linux/if_ether.h>
#include <linux/netdevice.h>

#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(3, 19, 0)
/* duplicate (include/linux/etherdevice.h, v3.19): pad a short frame with
 * zeros to ETH_ZLEN (60 bytes); frees the skb on error */
static inline int eth_skb_pad(struct sk_buff *skb)
{
	return skb_put_padto(skb, ETH_ZLEN);
}
#endif

#endif
