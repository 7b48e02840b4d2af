/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/if_ether.h> */
#ifndef KM_COMPAT_LINUX_IF_ETHER_H
#define KM_COMPAT_LINUX_IF_ETHER_H

#include <linux/types.h>	/* as v3.5's (v5.7's through its uapi header) */

/* duplicate (include/uapi/linux/if_ether.h, v5.7; include/linux/if_ether.h,
 * v3.5): Ethernet lengths in bytes */
#define ETH_ALEN	6
#define ETH_HLEN	14
#define ETH_ZLEN	60
#define ETH_DATA_LEN	1500
#define ETH_FRAME_LEN	1514
#define ETH_FCS_LEN	4

#endif
