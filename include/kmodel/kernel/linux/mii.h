/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/mii.h> -- types only */
#ifndef KM_COMPAT_LINUX_MII_H
#define KM_COMPAT_LINUX_MII_H

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/types.h>

/* duplicate (include/linux/mii.h, v3.5; v5.7 the same members): the types
 * a usbnet driver's private data embeds. The MII registers' constants and
 * the mii_*() helpers (drivers/net/mii.c) are not here: no PHY is
 * modelled. */
struct mii_ioctl_data {
	__u16		phy_id;
	__u16		reg_num;
	__u16		val_in;
	__u16		val_out;
};

struct mii_if_info {
	int phy_id;
	int advertising;
	int phy_id_mask;
	int reg_num_mask;

	unsigned int full_duplex : 1;	/* is full duplex? */
	unsigned int force_media : 1;	/* is autoneg. disabled? */
	unsigned int supports_gmii : 1; /* are GMII registers supported? */

	struct net_device *dev;
	int (*mdio_read) (struct net_device *dev, int phy_id, int location);
	void (*mdio_write) (struct net_device *dev, int phy_id, int location, int val);
};

#endif
