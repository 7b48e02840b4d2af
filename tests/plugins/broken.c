// SPDX-License-Identifier: GPL-2.0
/*
 * Broken variants, as a new user wrote them, for
 * tests/bench_cli.sh:
 * - "nocopy" (uaccess, no summary): both copies copy nothing; dd's read(2)
 *   fails with -EFAULT, --list shows "-" for its summary.
 * - "atomic_leak" (uaccess): direct, but its first copy_to_user on a task
 *   leaves preempt_count and pagefault_disabled raised, as an extra
 *   kmap_atomic() of a lowmem page never unmapped would; the task exits
 *   with them raised (dd once hid the leak_atomic report).
 * - "flip_to", "flip_from" (uaccess): direct, but the first byte of each
 *   copy_to_user (flip_to) or copy_from_user (flip_from) inverted: dd's
 *   counted run fails the row on dd's buffer after read(2), or on B
 *   (a variant that copied the wrong bytes passed dd).
 * - "skip_to" (uaccess): direct, but copy_to_user copies nothing and says
 *   it copied all: dd's buffer must still fail the check when it holds
 *   the right block from the pass before (bs = the file).
 * - "leak_tx" (usbnet): after's tx_fixup on a copy of the skb whose
 *   original is never freed: one leak_skb per packet at teardown.
 * - "nodev" (usbnet): after, whose device constructor fails with -ENOMEM
 *   without a message (km_err()), as a plugin entry point may.
 */
#include <errno.h>
#include <kmodel/kmodel.h>

static unsigned long nocopy_from(void *to, unsigned long from, unsigned long n)
{
	(void)to;
	(void)from;
	return n;
}

static unsigned long nocopy_to(unsigned long to, const void *from, unsigned long n)
{
	(void)to;
	(void)from;
	return n;
}

static const struct km_uaccess_ops nocopy = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "nocopy",
	.raw_copy_from_user = nocopy_from,
	.raw_copy_to_user = nocopy_to,
};

/* direct's copies, for the variants that change only one of them */
static unsigned long direct_from(void *to, unsigned long from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_from_user(to, from, n);
}

static unsigned long direct_to(unsigned long to, const void *from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_to_user(to, from, n);
}

static unsigned long leak_to(unsigned long to, const void *from, unsigned long n)
{
	struct km_task *t = km_current();

	if (t && !km_pagefault_disabled(t)) {	/* kmap_atomic() of a lowmem page */
		km_preempt_disable(t);
		km_pagefault_disable(t);
	}
	return km_uaccess_direct.raw_copy_to_user(to, from, n);
}

static const struct km_uaccess_ops atomic_leak = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "atomic_leak",
	.summary = "direct, leaving preempt_count and pagefault_disabled raised once per task",
	.source = "tests/plugins/broken.c",
	.raw_copy_from_user = direct_from,
	.raw_copy_to_user = leak_to,
};

static unsigned long flip_from(void *to, unsigned long from, unsigned long n)
{
	unsigned long left = km_uaccess_direct.raw_copy_from_user(to, from, n);

	if (n && !left)
		*(unsigned char *)to ^= 0xff;
	return left;
}

static unsigned long flip_to(unsigned long to, const void *from, unsigned long n)
{
	unsigned char first = n ? *(const unsigned char *)from ^ 0xff : 0;

	if (!n || km_uaccess_direct.raw_copy_to_user(to, &first, 1))
		return n;
	return km_uaccess_direct.raw_copy_to_user(to + 1, (const unsigned char *)from + 1, n - 1);
}

static unsigned long skip_to(unsigned long to, const void *from, unsigned long n)
{
	(void)to;
	(void)from;
	(void)n;
	return 0;
}

static const struct km_uaccess_ops flip_to_ops = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "flip_to",
	.summary = "direct, the first byte of each copy_to_user inverted",
	.source = "tests/plugins/broken.c",
	.raw_copy_from_user = direct_from,
	.raw_copy_to_user = flip_to,
}, flip_from_ops = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "flip_from",
	.summary = "direct, the first byte of each copy_from_user inverted",
	.source = "tests/plugins/broken.c",
	.raw_copy_from_user = flip_from,
	.raw_copy_to_user = direct_to,
}, skip_to_ops = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "skip_to",
	.summary = "direct, but copy_to_user copies nothing and returns 0",
	.source = "tests/plugins/broken.c",
	.raw_copy_from_user = direct_from,
	.raw_copy_to_user = skip_to,
};

static const struct km_usbnet_variant *after;

static struct km_skb *leak_tx_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t flags)
{
	struct km_skb *copy = km_skb_copy(km_current(), skb, flags);	/* skb never freed */

	return copy ? after->info->tx_fixup(dev, copy, flags) : NULL;
}

static struct km_usbnet_driver_info leak_info;
static struct km_usbnet_variant leak_tx, nodev;

static int nodev_new(struct km_machine *m, km_usbnet_frame_fn on_frame, void *arg,
		     struct km_usbnet_dev *out)
{
	(void)m;
	(void)on_frame;
	(void)arg;
	(void)out;
	return -ENOMEM;
}

KM_PLUGIN_INIT(reg)
{
	int err;

	after = km_usbnet_find("after");
	if (!after)
		return -ENOENT;
	leak_info = *after->info;
	leak_info.tx_fixup = leak_tx_fixup;
	leak_tx = *after;
	leak_tx.size = KM_USBNET_VARIANT_SIZE;	/* the library's may be larger (usb.h) */
	leak_tx.name = "leak_tx";
	leak_tx.summary = "after on a copy of the skb, the original never freed";
	leak_tx.source = "tests/plugins/broken.c";
	leak_tx.info = &leak_info;
	nodev = *after;
	nodev.size = KM_USBNET_VARIANT_SIZE;
	nodev.name = "nodev";
	nodev.summary = "after, whose device constructor fails without a message";
	nodev.source = "tests/plugins/broken.c";
	nodev.dev_new = nodev_new;
	err = km_registry_add_uaccess(reg, &nocopy);
	if (!err)
		err = km_registry_add_uaccess(reg, &atomic_leak);
	if (!err)
		err = km_registry_add_uaccess(reg, &flip_to_ops);
	if (!err)
		err = km_registry_add_uaccess(reg, &flip_from_ops);
	if (!err)
		err = km_registry_add_uaccess(reg, &skip_to_ops);
	if (!err)
		err = km_registry_add_usbnet(reg, &leak_tx);
	if (!err)
		err = km_registry_add_usbnet(reg, &nodev);
	return err;
}
