/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/device.h>: the dev_*() messages only */
#ifndef KM_COMPAT_LINUX_DEVICE_H
#define KM_COMPAT_LINUX_DEVICE_H

#include <linux/kernel.h>
#include <linux/printk.h>

/*
 * stub: struct device is declared and not defined. No model struct embeds
 * one (struct usb_device and struct usb_interface have no `dev`), so
 * dev_err(&intf->dev, ...) does not build; a driver's own pointer, or NULL,
 * does.
 */
struct device;

/* custom (drivers/base/core.c, v3.6 __dev_printk()): the message through
 * printk() at @level (a KERN_* literal); the kernel's prefix is "<driver> <device name>: ",
 * which the model has not: "(NULL device *): " for NULL, as the kernel's,
 * else "(device): " */
#define dev_printk(level, dev, fmt, ...) \
	printk(level "%s" fmt, (dev) ? "(device): " : "(NULL device *): ", ##__VA_ARGS__)
#define dev_emerg(dev, fmt, ...) dev_printk(KERN_EMERG, dev, fmt, ##__VA_ARGS__)
#define dev_alert(dev, fmt, ...) dev_printk(KERN_ALERT, dev, fmt, ##__VA_ARGS__)
#define dev_crit(dev, fmt, ...) dev_printk(KERN_CRIT, dev, fmt, ##__VA_ARGS__)
#define dev_err(dev, fmt, ...) dev_printk(KERN_ERR, dev, fmt, ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...) dev_printk(KERN_WARNING, dev, fmt, ##__VA_ARGS__)
#define dev_notice(dev, fmt, ...) dev_printk(KERN_NOTICE, dev, fmt, ##__VA_ARGS__)
#define dev_info(dev, fmt, ...) dev_printk(KERN_INFO, dev, fmt, ##__VA_ARGS__)
/* v3.6 without CONFIG_DYNAMIC_DEBUG: printed where the file defines DEBUG,
 * else checked and not printed (0), as pr_debug() */
#ifdef DEBUG
#define dev_dbg(dev, fmt, ...) dev_printk(KERN_DEBUG, dev, fmt, ##__VA_ARGS__)
#else
#define dev_dbg(dev, fmt, ...) \
	({ if (0) dev_printk(KERN_DEBUG, dev, fmt, ##__VA_ARGS__); 0; })
#endif

#endif
