// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin whose variant copies to user through kmap_atomic() of each
 * destination page and, where a chunk ends at its page's end, writes 64
 * bytes on past the kmapped page, as a new user's variant did
 * (memcpy(kaddr + off, kbuf, chunk + 64)). Without a strict kmap mode the
 * bytes reach the next frame and kmodel-check sees only what they break;
 * with --kmap-strict force-map every kmap lies between guard pages and
 * each overrun is a kmap_guard report naming the slot (tests/check_cli.sh).
 * From the first page not resident and writable on: direct's copy.
 */
#include <kmodel/kmodel.h>
#include <string.h>

#define OVERRUN 64ul

static unsigned long kmap_overrun_from(void *to, unsigned long from, unsigned long n)
{
	return km_uaccess_direct.raw_copy_from_user(to, from, n);
}

static unsigned long kmap_overrun_to(unsigned long to, const void *from, unsigned long n)
{
	struct km_task *t = km_current();
	unsigned long ps = t ? km_page_size(km_task_machine(t)) : 0;
	const unsigned char *src = from;

	while (n) {
		unsigned long off = ps ? to & (ps - 1) : 0, chunk;
		struct km_page *page;
		unsigned int flags;
		unsigned char *v;

		if (!t || km_follow_pte(km_task_mm(t), to, &flags, &page) ||
		    !(flags & KM_PTE_WRITE))
			break;
		chunk = n < ps - off ? n : ps - off;
		v = km_kmap_atomic(t, page);
		memcpy(v + off, src, chunk);
		if (off + chunk == ps)
			memset(v + ps, 0x5a, OVERRUN);	/* past the kmapped page */
		km_kunmap_atomic(t, v);
		to += chunk;
		src += chunk;
		n -= chunk;
	}
	return n ? km_uaccess_direct.raw_copy_to_user(to, src, n) : 0;
}

static const struct km_uaccess_ops kmap_overrun = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "kmap_overrun",
	.summary = "copy_to_user through kmap_atomic() of each page, 64 bytes past a page's end",
	.source = "tests/plugins/kmap_overrun.c",
	.claims_conformance = true,
	.raw_copy_from_user = kmap_overrun_from,
	.raw_copy_to_user = kmap_overrun_to,
};

KM_PLUGIN_INIT(reg)
{
	return km_registry_add_uaccess(reg, &kmap_overrun);
}
