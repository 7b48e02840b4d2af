/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/if_vlan.h> */
#ifndef KM_COMPAT_LINUX_IF_VLAN_H
#define KM_COMPAT_LINUX_IF_VLAN_H

#include <linux/netdevice.h>

/* duplicate (include/linux/if_vlan.h, v3.5): bytes of the 802.1Q tag */
#define VLAN_HLEN	4

#endif
