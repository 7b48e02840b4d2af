/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel compatibility layer: <linux/usb.h>, <linux/usb/ch9.h> - the slice
 * a driver uses to ask an endpoint's maxpacket: struct usb_device's
 * endpoint tables, pipes and usb_maxpacket().
 *
 * custom: struct usb_device, usb_host_endpoint and usb_endpoint_descriptor
 * are the model's (kmodel/usb.h: the kernel's members that anything here
 * reads, with the kernel's names), so that a driver's
 * usb_maxpacket(dev->udev, dev->out[, 1]) reads the device the model's
 * usbnet probed; a program may also fill one as the USB core would from
 * the descriptors. The rest are the kernel's own definitions.
 */
#ifndef KM_COMPAT_LINUX_USB_H
#define KM_COMPAT_LINUX_USB_H

#include <linux/kernel.h>
#include <linux/types.h>
#include <asm/byteorder.h>
#include <kmodel/usb.h>

/* duplicate (include/uapi/linux/usb/ch9.h, v5.7; v3.5 the same) */
#define USB_DIR_OUT			0
#define USB_DIR_IN			0x80
#define USB_ENDPOINT_NUMBER_MASK	0x0f
#define USB_ENDPOINT_XFER_BULK		2
/* custom: enum usb_device_speed is enum km_usb_speed (the same numbers) */
#define usb_device_speed	km_usb_speed
#define USB_SPEED_UNKNOWN	KM_USB_SPEED_UNKNOWN
#define USB_SPEED_LOW		KM_USB_SPEED_LOW
#define USB_SPEED_FULL		KM_USB_SPEED_FULL
#define USB_SPEED_HIGH		KM_USB_SPEED_HIGH
#define USB_SPEED_WIRELESS	KM_USB_SPEED_WIRELESS
#define USB_SPEED_SUPER		KM_USB_SPEED_SUPER
/* custom: the model's structs (kmodel/usb.h) under the kernel's names */
#define usb_endpoint_descriptor	km_usb_endpoint_descriptor
#define usb_host_endpoint	km_usb_host_endpoint
#define usb_device		km_usb_device

/* duplicate (include/uapi/linux/usb/ch9.h, v3.5): the whole wMaxPacketSize.
 * Later kernels mask bits 10:0 (USB_ENDPOINT_MAXP_MASK); bits 12:11 count
 * extra transactions of high-bandwidth periodic endpoints and are 0 for
 * bulk ones, so the two agree on every bulk endpoint. */
static inline int usb_endpoint_maxp(const struct usb_endpoint_descriptor *epd)
{
	return le16_to_cpu(epd->wMaxPacketSize);
}

/* duplicate (include/linux/usb.h, v3.5; v5.7 the same) */
#define PIPE_ISOCHRONOUS		0
#define PIPE_INTERRUPT			1
#define PIPE_CONTROL			2
#define PIPE_BULK			3
#define usb_pipein(pipe)	((pipe) & USB_DIR_IN)
#define usb_pipeout(pipe)	(!usb_pipein(pipe))
#define usb_pipedevice(pipe)	(((pipe) >> 8) & 0x7f)
#define usb_pipeendpoint(pipe)	(((pipe) >> 15) & 0xf)
#define usb_pipetype(pipe)	(((pipe) >> 30) & 3)
static inline unsigned int __create_pipe(struct usb_device *dev, unsigned int endpoint)
{
	return (dev->devnum << 8) | (endpoint << 15);
}
/* (unsigned int) before the shift: the kernel shifts the int 3 into the
 * sign bit, defined by GCC but not by C11 (UBSan stops there); same value */
#define usb_sndbulkpipe(dev, endpoint)	\
	(((unsigned int)PIPE_BULK << 30) | __create_pipe(dev, endpoint))
#define usb_rcvbulkpipe(dev, endpoint)	\
	(((unsigned int)PIPE_BULK << 30) | __create_pipe(dev, endpoint) | USB_DIR_IN)
static inline struct usb_host_endpoint *
usb_pipe_endpoint(struct usb_device *dev, unsigned int pipe)
{
	struct usb_host_endpoint **eps;

	eps = usb_pipein(pipe) ? dev->ep_in : dev->ep_out;
	return eps[usb_pipeendpoint(pipe)];
}

#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 19, 0)
/* duplicate (include/linux/usb.h after 0f08c2e7458e and the series that
 * removed the third argument, v5.19): the direction comes from the pipe */
static inline u16 usb_maxpacket(struct usb_device *udev, int pipe)
{
	struct usb_host_endpoint *ep = usb_pipe_endpoint(udev, pipe);

	if (!ep)
		return 0;
	/* NOTE:  only 0x07ff bits are for packet size... */
	return usb_endpoint_maxp(&ep->desc);
}
#else
/* duplicate (include/linux/usb.h, v3.5 .. v5.18): @is_out picks the table;
 * a pipe of the other direction is a WARN (a KM_R_WARN_ON report here) and
 * the table of @is_out is read anyway */
static inline u16 usb_maxpacket(struct usb_device *udev, int pipe, int is_out)
{
	struct usb_host_endpoint	*ep;
	unsigned			epnum = usb_pipeendpoint(pipe);

	if (is_out) {
		WARN_ON(usb_pipein(pipe));
		ep = udev->ep_out[epnum];
	} else {
		WARN_ON(usb_pipeout(pipe));
		ep = udev->ep_in[epnum];
	}
	if (!ep)
		return 0;

	/* NOTE:  only 0x07ff bits are for packet size... */
	return usb_endpoint_maxp(&ep->desc);
}
#endif

#endif
