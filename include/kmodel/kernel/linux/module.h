/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/module.h> */
#ifndef KM_COMPAT_LINUX_MODULE_H
#define KM_COMPAT_LINUX_MODULE_H

#include <linux/export.h>	/* as the kernel's <linux/module.h> brings it */
#include <linux/init.h>	/* v3.6's <linux/module.h> brings it (module_init()) */
#include <linux/kernel.h>

/* stub (include/linux/module.h, include/linux/moduleparam.h, v3.5 and
 * v5.7): a module's .modinfo strings; nothing is recorded. Each takes what
 * the kernel's takes -- a string literal, pasted after "tag=" -- and is a
 * declaration, written at file scope with a ';' */
#define MODULE_INFO(tag, info) _Static_assert(sizeof(#tag "=" info) > 1, "MODULE_INFO")
#define MODULE_LICENSE(_license) MODULE_INFO(license, _license)
#define MODULE_AUTHOR(_author) MODULE_INFO(author, _author)
#define MODULE_DESCRIPTION(_description) MODULE_INFO(description, _description)
#define MODULE_VERSION(_version) MODULE_INFO(version, _version)
#define MODULE_ALIAS(_alias) MODULE_INFO(alias, _alias)
#define MODULE_FIRMWARE(_firmware) MODULE_INFO(firmware, _firmware)
/* stub (v3.5 and v5.7 built in, !MODULE: nothing): no device table is
 * registered; the table itself needs struct usb_device_id, not here */
#define MODULE_DEVICE_TABLE(type, name) _Static_assert(1, "MODULE_DEVICE_TABLE")

#endif
