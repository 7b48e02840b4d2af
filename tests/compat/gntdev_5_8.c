// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/xen/gntdev.c's grant-copy batch, ported at v5.8 (before the fix)
 * and v5.9 (779055842da5 "xen/gntdev.c: Mark pages as dirty"): the
 * destination page of a grant copy is pinned with FOLL_WRITE, written by
 * the hypervisor (the test's km_page_device_write()) and put. Before the
 * fix gntdev_put_pages() put it without set_page_dirty_lock(): writeback
 * then drops the write. Between the markers the two functions as the
 * fix's diff gives them at v5.8 (its context and "-" lines) and v5.9 (its
 * context and "+" lines), each name suffixed with its version so both
 * live in one file, and the Xen frame lookup (page_to_xen_pfn(),
 * pfn_to_gfn(): the test writes the page itself) replaced where marked.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "gntdev.h"

#define GNTDEV_COPY_BATCH 16

struct gntdev_copy_batch {
	struct page *pages[GNTDEV_COPY_BATCH];
	unsigned int nr_ops;
	unsigned int nr_pages;
	bool writeable;		/* v5.9 */
	bool fixed;		/* test: which version runs */
};

/* BEGIN drivers/xen/gntdev.c v5.8 gntdev_get_page(), gntdev_put_pages() */
static int gntdev_get_page_v5_8(struct gntdev_copy_batch *batch, void __user *virt,
			   bool writeable, unsigned long *gfn)
{
	unsigned long addr = (unsigned long)virt;
	struct page *page;
	int ret;

	ret = get_user_pages_fast(addr, 1, writeable ? FOLL_WRITE : 0, &page);
	if (ret < 0)
		return ret;

	batch->pages[batch->nr_pages++] = page;

	/* kmodel: the Xen pfn and gfn of the page, not modelled */
	*gfn = (unsigned long)page;

	return 0;
}

static void gntdev_put_pages_v5_8(struct gntdev_copy_batch *batch)
{
	unsigned int i;

	for (i = 0; i < batch->nr_pages; i++)
		put_page(batch->pages[i]);
	batch->nr_pages = 0;
}
/* END drivers/xen/gntdev.c v5.8 */

/* BEGIN drivers/xen/gntdev.c v5.9 gntdev_get_page(), gntdev_put_pages() */
static int gntdev_get_page_v5_9(struct gntdev_copy_batch *batch, void __user *virt,
				unsigned long *gfn)
{
	unsigned long addr = (unsigned long)virt;
	struct page *page;
	int ret;

	ret = get_user_pages_fast(addr, 1, batch->writeable ? FOLL_WRITE : 0, &page);
	if (ret < 0)
		return ret;

	batch->pages[batch->nr_pages++] = page;

	/* kmodel: the Xen pfn and gfn of the page, not modelled */
	*gfn = (unsigned long)page;

	return 0;
}

static void gntdev_put_pages_v5_9(struct gntdev_copy_batch *batch)
{
	unsigned int i;

	for (i = 0; i < batch->nr_pages; i++) {
		if (batch->writeable && !PageDirty(batch->pages[i]))
			set_page_dirty_lock(batch->pages[i]);
		put_page(batch->pages[i]);
	}
	batch->nr_pages = 0;
	batch->writeable = false;
}
/* END drivers/xen/gntdev.c v5.9 */

struct gntdev_copy_batch *gntdev_test_batch_new(bool fixed)
{
	struct gntdev_copy_batch *batch = kzalloc(sizeof(*batch), GFP_KERNEL);

	if (batch)
		batch->fixed = fixed;
	return batch;
}

void gntdev_test_batch_free(struct gntdev_copy_batch *batch)
{
	kfree(batch);
}

/* the destination side of gntdev_grant_copy_seg() (GNTCOPY_dest_gref
 * clear: a user address), as each version calls gntdev_get_page() */
int gntdev_test_get_dest_page(struct gntdev_copy_batch *batch, unsigned long virt,
			      struct km_page **page)
{
	unsigned long gfn;
	int ret;

	if (batch->fixed) {
		batch->writeable = true;
		ret = gntdev_get_page_v5_9(batch, (void __user *)virt, &gfn);
	} else {
		ret = gntdev_get_page_v5_8(batch, (void __user *)virt, true, &gfn);
	}
	*page = (struct km_page *)gfn;
	return ret;
}

void gntdev_test_put_pages(struct gntdev_copy_batch *batch)
{
	if (batch->fixed)
		gntdev_put_pages_v5_9(batch);
	else
		gntdev_put_pages_v5_8(batch);
}
