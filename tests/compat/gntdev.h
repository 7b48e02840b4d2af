/* SPDX-License-Identifier: GPL-2.0 */
/* The grant-copy batch of drivers/xen/gntdev.c, ported for
 * tests/test_checkers.c (tests/compat/gntdev_5_8.c): the entry points the
 * test calls from outside the compatibility layer. */
#ifndef KM_TEST_GNTDEV_H
#define KM_TEST_GNTDEV_H

#include <stdbool.h>

struct km_page;
struct gntdev_copy_batch;

/* a batch (GNTDEV_COPY_BATCH pages); fixed: the v5.9 code of 779055842da5 */
struct gntdev_copy_batch *gntdev_test_batch_new(bool fixed);
void gntdev_test_batch_free(struct gntdev_copy_batch *batch);
/* gntdev_get_page() of the grant copy's destination (writeable): 0 or a
 * negative errno; *@page the pinned page the hypervisor then writes (the
 * gfn of the real code) */
int gntdev_test_get_dest_page(struct gntdev_copy_batch *batch, unsigned long virt,
			      struct km_page **page);
/* gntdev_put_pages() */
void gntdev_test_put_pages(struct gntdev_copy_batch *batch);

#endif
