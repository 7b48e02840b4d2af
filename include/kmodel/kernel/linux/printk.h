/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/printk.h>, <linux/kern_levels.h> */
#ifndef KM_COMPAT_LINUX_PRINTK_H
#define KM_COMPAT_LINUX_PRINTK_H

#include <linux/compiler.h>
#include <kmodel/current.h>

/* duplicate (include/linux/kern_levels.h, v3.6 on: a KERN_SOH byte and the
 * level, 04d2c8c83d0e; v3.5 wrote "<N>", include/linux/printk.h) */
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(3, 6, 0)
#define KERN_SOH	"\001"
#define KERN_SOH_ASCII	'\001'
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_CONT	KERN_SOH "c"
#else
#define KERN_EMERG	"<0>"
#define KERN_ALERT	"<1>"
#define KERN_CRIT	"<2>"
#define KERN_ERR	"<3>"
#define KERN_WARNING	"<4>"
#define KERN_NOTICE	"<5>"
#define KERN_INFO	"<6>"
#define KERN_DEBUG	"<7>"
#define KERN_CONT	"<c>"
#endif

/*
 * custom: printk() is km_printk() (kmodel/current.h): the message goes to
 * glib's log in the "kmodel" domain, where the library's own messages go
 * -- levels 0..4 as warnings, 5 as a message (both on stderr), 6 and 7 as
 * info and debug (printed with G_MESSAGES_DEBUG=kmodel); it returns the
 * message's length without level prefix and newline, as v5.7 does.
 */
#define printk km_printk

/* duplicate (include/linux/printk.h, v5.7; v3.5 had no_printk() as an
 * inline function of the same effect): the format is checked, nothing
 * printed, 0 */
#define no_printk(fmt, ...)				\
({							\
	if (0)						\
		printk(fmt, ##__VA_ARGS__);		\
	0;						\
})

/* duplicate (include/linux/printk.h, v3.5 and v5.7) */
/* custom: Kbuild's -DKBUILD_MODNAME (kmodel_kernel_sources() defines it
 * per file); without it the layer's name */
#ifndef KBUILD_MODNAME
#define KBUILD_MODNAME "kmodel"
#endif
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...) printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)
/* duplicate (v5.7 without CONFIG_DYNAMIC_DEBUG): pr_devel() and pr_debug()
 * print only where the file defines DEBUG, else they are no_printk() */
#ifdef DEBUG
#define pr_devel(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#else
#define pr_devel(fmt, ...) no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#endif

#endif
