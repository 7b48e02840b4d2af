// SPDX-License-Identifier: GPL-2.0
/* A usbnet driver's include list (mainline int51x1.c's, user report 4;
 * init.h and kmod.h of v3.6 smsc95xx.c)
 * plus one header the layer does not have: host_headers.sh expects the
 * README's kmodel_host_headers() to name that one alone. */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/kmod.h>
#include <linux/ctype.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/slab.h>
#include <linux/mii.h>
#include <linux/usb.h>
#include <linux/usb/usbnet.h>
#include <linux/export.h>
#include <linux/printk.h>
#include <linux/netlink.h>	/* not in the layer: the host's */
