// SPDX-License-Identifier: GPL-2.0
/*
 * An ioctl handler, the most common caller of copy_{from,to}_user(),
 * written as kernel code and compiled unchanged through the installed
 * compatibility layer (which once had no copy_to_user()). These three
 * includes are all it names: u32 comes with them as in the kernel. The
 * request is read from user memory at @arg, the reply (@len bytes of
 * @fill, from a kmalloc()ed buffer) written right after it.
 */
#include <linux/kernel.h>
#include <linux/uaccess.h>
#include <linux/slab.h>

#define PORTED_IOC_FILL 1
/* the request at arg: the reply's length in bytes and its byte
 * (ioctl_consumer.c has the same layout) */
struct ported_req {
	u32 len;
	u32 fill;
};

long ported_ioctl(unsigned int cmd, unsigned long arg);
long ported_ioctl(unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	struct ported_req req;
	long ret = 0;
	char *buf;

	if (cmd != PORTED_IOC_FILL)
		return -ENOTTY;
	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	buf = kmalloc(req.len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	memset(buf, req.fill, req.len);
	if (copy_to_user((char __user *)argp + sizeof(req), buf, req.len))
		ret = -EFAULT;
	kfree(buf);
	return ret;
}
