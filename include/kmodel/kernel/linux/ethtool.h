/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/ethtool.h> -- types only */
#ifndef KM_COMPAT_LINUX_ETHTOOL_H
#define KM_COMPAT_LINUX_ETHTOOL_H

#include <linux/types.h>

/* stub (include/linux/ethtool.h, v3.5; v5.7 has the same tags): the
 * structs a usbnet driver's ethtool code names, declared and never
 * defined. The header is here so that a driver's include list builds and
 * its transmit path compiles; its ethtool code does not (an ethtool_ops
 * table: "incomplete type"), which the model has no use for -- port the
 * transmit path only. */
struct ethtool_ops;
struct ethtool_cmd;
struct ethtool_drvinfo;

#endif
