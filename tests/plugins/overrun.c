// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin whose variant claims conformance and copies right, then writes
 * 1000 bytes past the end of the kernel buffer on every copy_from_user (each
 * byte flipped, so the extent is exact), as a new user's variant did
 * (memcpy(kbuf, kaddr + off, chunk + 4096)), which once crashed
 * kmodel-check or corrupted its heap. It must fail it on dst and say how
 * far the copy wrote (tests/check_cli.sh).
 */
#include <kmodel/kmodel.h>

#define OVERRUN 1000ul	/* past the 256-byte guard, not a multiple of a block */

static unsigned long from_user(void *to, unsigned long from, unsigned long n)
{
	unsigned long left = km_uaccess_direct.raw_copy_from_user(to, from, n);
	unsigned char *k = to;

	for (unsigned long i = 0; i < OVERRUN; i++)
		k[n + i] ^= 0x5a;
	return left;
}

static unsigned long to_user(unsigned long to, const void *from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_to_user(to, from, n);
}

static const struct km_uaccess_ops overrun = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "overrun",
	.summary = "direct, then writing 1000 bytes past the kernel buffer per copy_from_user",
	.source = "tests/plugins/overrun.c",
	.claims_conformance = true,
	.raw_copy_from_user = from_user,
	.raw_copy_to_user = to_user,
};

KM_PLUGIN_INIT(reg)
{
	return km_registry_add_uaccess(reg, &overrun);
}
