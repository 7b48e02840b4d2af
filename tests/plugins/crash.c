// SPDX-License-Identifier: GPL-2.0
/*
 * A user's variants that take the host down, for tests/harden_cli.sh: the
 * tools run a plugin's variant isolated (a forked child, --timeout), so
 * each is a failing row naming the variant, machine and case, and the
 * rows before it still print.
 * - "segv" (uaccess): its copies dereference NULL once past the first
 *   @SEGV_AFTER calls (a row prints a few cases, then dies: SIGSEGV).
 * - "segv_late" (uaccess): the same past @SEGV_LATE_AFTER calls: a dd row
 *   of a 1 MiB file (512 copies a pass) lives through a warm-up, one timed
 *   and the counted pass (a trial of the row), and dies in the run proper
 *   of -r 9.
 * - "segv_1k" (uaccess): direct, but a copy of exactly 1024 bytes
 *   dereferences NULL: a dd row at bs 1K dies, one at 4K (copies of 4096)
 *   lives.
 * - "spin" (uaccess): its copies never return (a loop: --timeout).
 * - "quit" (uaccess): its first copy calls exit(0): the process ends with
 *   status 0 and no result, which is no pass.
 * - "overcount" (uaccess): direct, but its copy_from_user returns n + 1
 *   bytes not copied (more than it was asked): the kernel's callers
 *   compute n - N and run past their buffers (generic_perform_write():
 *   dd's write(2) ran shmem_write_end() past its page).
 * - "segv_tx", "spin_tx" (usbnet): after's tx_fixup, then a NULL
 *   dereference (on the first packet) or a loop.
 * - "segv_tx_late" (usbnet): after's tx_fixup, but a NULL dereference
 *   on its call past @SEGV_TX_LATE_AFTER: kmodel-bench iperf with
 *   --iperf-packets 500 -r 3 sends tcp's warm-up (500) and timed runs
 *   (3 x 500), tcp+tap's warm-up (500): it dies in tcp+tap's first timed
 *   run.
 * - "segv_tx_at" (usbnet): after's tx_fixup, but a NULL dereference on
 *   an skb of 20 bytes with a headroom of 3 and a tailroom of 4 (the
 *   transmit sweep's state 20,3,4,private,full/8 in kmodel-sweep asix
 *   --quick's order, the first endpoint's: many states live before it).
 * - "segv_rx", "spin_rx" (usbnet, the receive side): before's rx_fixup,
 *   but a NULL dereference on a transfer of 68 bytes or more (in
 *   kmodel-sweep rx --quick's order the first is 3 frames of 19 bytes,
 *   each behind its 4-byte header and padded to even: 3 x 24 = 72 at
 *   full/64; 3 x 22 = 66 for 18 bytes), or a loop that makes no call
 *   into the model (so no step bound stops it: --timeout does).
 */
#include <errno.h>
#include <stdlib.h>
#include <kmodel/kmodel.h>

#define SEGV_AFTER 1000
#define SEGV_LATE_AFTER 4000
#define SEGV_TX_LATE_AFTER 2700

static _Thread_local unsigned long calls;

static unsigned long crash_after(unsigned long n, unsigned long after)
{
	if (++calls > after)
		*(volatile unsigned char *)0 = (unsigned char)n;	/* SIGSEGV */
	return n;
}

static unsigned long crash(unsigned long n)
{
	return crash_after(n, SEGV_AFTER);
}

static unsigned long late_from(void *to, unsigned long from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_from_user(to, from, crash_after(n, SEGV_LATE_AFTER));
}

static unsigned long late_to(unsigned long to, const void *from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_to_user(to, from, crash_after(n, SEGV_LATE_AFTER));
}

static unsigned long segv_from(void *to, unsigned long from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_from_user(to, from, crash(n));
}

static unsigned long segv_to(unsigned long to, const void *from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_to_user(to, from, crash(n));
}

static unsigned long spin(void)
{
	for (volatile int forever = 1; forever;)
		;
	return 0;
}

static unsigned long spin_from(void *to, unsigned long from, unsigned long n)
{
	(void)to;
	(void)from;
	return n + spin();
}

static unsigned long spin_to(unsigned long to, const void *from, unsigned long n)
{
	(void)to;
	(void)from;
	return n + spin();
}

static unsigned long over_from(void *to, unsigned long from, unsigned long n)
{
	(void)km_uaccess_direct.raw_copy_from_user(to, from, n);
	return n + 1;
}

static unsigned long direct_to(unsigned long to, const void *from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_to_user(to, from, n);
}

static unsigned long over_to(unsigned long to, const void *from, unsigned long n)
{
	(void)km_uaccess_direct.raw_copy_to_user(to, from, n);
	return n + 1;
}

static const struct km_uaccess_ops segv = {
	.size = KM_UACCESS_OPS_SIZE, .name = "segv", .claims_conformance = true,
	.summary = "direct, then a NULL dereference", .source = "tests/plugins/crash.c",
	.raw_copy_from_user = segv_from, .raw_copy_to_user = segv_to,
};

static unsigned long crash_1k(unsigned long n)
{
	if (n == 1024)
		*(volatile unsigned char *)0 = 0;	/* SIGSEGV */
	return n;
}

static unsigned long segv_1k_from(void *to, unsigned long from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_from_user(to, from, crash_1k(n));
}

static unsigned long segv_1k_to(unsigned long to, const void *from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_to_user(to, from, crash_1k(n));
}

static const struct km_uaccess_ops segv_1k = {
	.size = KM_UACCESS_OPS_SIZE, .name = "segv_1k", .claims_conformance = true,
	.summary = "direct, but a copy of 1024 bytes dereferences NULL",
	.source = "tests/plugins/crash.c",
	.raw_copy_from_user = segv_1k_from, .raw_copy_to_user = segv_1k_to,
};

static const struct km_uaccess_ops segv_late = {
	.size = KM_UACCESS_OPS_SIZE, .name = "segv_late", .claims_conformance = true,
	.summary = "direct, then a NULL dereference, later", .source = "tests/plugins/crash.c",
	.raw_copy_from_user = late_from, .raw_copy_to_user = late_to,
};

static const struct km_uaccess_ops spinning = {
	.size = KM_UACCESS_OPS_SIZE, .name = "spin", .claims_conformance = true,
	.summary = "copies that never return", .source = "tests/plugins/crash.c",
	.raw_copy_from_user = spin_from, .raw_copy_to_user = spin_to,
};

static unsigned long quit_from(void *to, unsigned long from, unsigned long n)
{
	(void)to;
	(void)from;
	exit(0);
	return n;
}

static const struct km_uaccess_ops quitting = {
	.size = KM_UACCESS_OPS_SIZE, .name = "quit", .claims_conformance = true,
	.summary = "calls exit(0)", .source = "tests/plugins/crash.c",
	.raw_copy_from_user = quit_from, .raw_copy_to_user = over_to,
};

static const struct km_uaccess_ops overcount = {
	.size = KM_UACCESS_OPS_SIZE, .name = "overcount", .claims_conformance = true,
	.summary = "direct, returning n + 1 bytes not copied", .source = "tests/plugins/crash.c",
	.raw_copy_from_user = over_from, .raw_copy_to_user = direct_to,
};

static const struct km_usbnet_variant *after;

static struct km_skb *segv_tx_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t flags)
{
	skb = after->info->tx_fixup(dev, skb, flags);
	*(volatile unsigned char *)0 = 0;	/* SIGSEGV at once */
	return skb;
}

static struct km_skb *spin_tx_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t flags)
{
	(void)dev;
	(void)skb;
	(void)flags;
	return (struct km_skb *)spin();
}

static struct km_skb *segv_at_tx_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t flags)
{
	if (skb->len == 20 && km_skb_headroom(skb) == 3 && km_skb_tailroom(skb) == 4)
		*(volatile unsigned char *)0 = 0;	/* SIGSEGV */
	return after->info->tx_fixup(dev, skb, flags);
}

static unsigned long tx_calls;	/* a process per variant: the tool's child */

static struct km_skb *segv_late_tx_fixup(struct km_usbnet *dev, struct km_skb *skb,
					 km_gfp_t flags)
{
	if (++tx_calls > SEGV_TX_LATE_AFTER)
		*(volatile unsigned char *)0 = 0;	/* SIGSEGV */
	return after->info->tx_fixup(dev, skb, flags);
}

static struct km_usbnet_driver_info segv_info, spin_info, segv_at_info, segv_late_info;
static struct km_usbnet_variant segv_tx, spin_tx, segv_tx_at, segv_tx_late;

static int add_tx(struct km_registry *reg, struct km_usbnet_variant *v,
		  struct km_usbnet_driver_info *info, const char *name,
		  struct km_skb *(*fixup)(struct km_usbnet *, struct km_skb *, km_gfp_t))
{
	*info = *after->info;
	info->tx_fixup = fixup;
	*v = *after;
	v->size = KM_USBNET_VARIANT_SIZE;
	v->name = name;
	v->summary = "after's tx_fixup, then a crash or a loop";
	v->source = "tests/plugins/crash.c";
	v->info = info;
	return km_registry_add_usbnet(reg, v);
}

static const struct km_usbnet_variant *before;

static int segv_rx_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	if (skb->len >= 68)
		*(volatile unsigned char *)0 = 0;	/* SIGSEGV */
	return before->info->rx_fixup(dev, skb);
}

static int spin_rx_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)dev;
	(void)skb;
	return (int)spin();
}

static struct km_usbnet_driver_info segv_rx_info, spin_rx_info;
static struct km_usbnet_variant segv_rx, spin_rx;

static int add_rx(struct km_registry *reg, struct km_usbnet_variant *v,
		  struct km_usbnet_driver_info *info, const char *name,
		  int (*fixup)(struct km_usbnet *, struct km_skb *))
{
	*info = *before->info;
	info->rx_fixup = fixup;
	*v = *before;
	v->size = KM_USBNET_VARIANT_SIZE;
	v->name = name;
	v->summary = "before's rx_fixup, then a crash, or a loop";
	v->source = "tests/plugins/crash.c";
	v->rx_source = "tests/plugins/crash.c";
	v->info = info;
	return km_registry_add_usbnet(reg, v);
}

KM_PLUGIN_INIT(reg)
{
	int err;

	after = km_usbnet_find("after");
	if (!after)
		return -ENOENT;
	if ((err = km_registry_add_uaccess(reg, &segv)) ||
	    (err = km_registry_add_uaccess(reg, &segv_late)) ||
	    (err = km_registry_add_uaccess(reg, &segv_1k)) ||
	    (err = km_registry_add_uaccess(reg, &spinning)) ||
	    (err = km_registry_add_uaccess(reg, &overcount)) ||
	    (err = km_registry_add_uaccess(reg, &quitting)))
		return err;
	before = km_usbnet_find("before");
	if (!before)
		return -ENOENT;
	if ((err = add_tx(reg, &segv_tx, &segv_info, "segv_tx", segv_tx_fixup)) ||
	    (err = add_tx(reg, &spin_tx, &spin_info, "spin_tx", spin_tx_fixup)) ||
	    (err = add_tx(reg, &segv_tx_at, &segv_at_info, "segv_tx_at", segv_at_tx_fixup)) ||
	    (err = add_tx(reg, &segv_tx_late, &segv_late_info, "segv_tx_late",
			  segv_late_tx_fixup)) ||
	    (err = add_rx(reg, &segv_rx, &segv_rx_info, "segv_rx", segv_rx_fixup)))
		return err;
	return add_rx(reg, &spin_rx, &spin_rx_info, "spin_rx", spin_rx_fixup);
}
