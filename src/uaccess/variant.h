/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the uaccess variants' files: private, not installed. */
#ifndef KM_UACCESS_VARIANT_H
#define KM_UACCESS_VARIANT_H

#include <stdbool.h>
#include <stddef.h>
#include <kmodel/machine.h>

/* kmalloc() of an object of @size host bytes that has @arm_size bytes on
 * 32-bit ARM (core/slab.c): KMALLOC_MAX_SIZE and the kmalloc_class events
 * follow ARM, the host object has @size bytes */
void *km_kmalloc_arm(struct km_task *t, size_t size, size_t arm_size, km_gfp_t flags);

/* The faithful RFC's own code (gup_kmap_memcpy.c): one call of
 * gup_kmap_copy_{from,to}_user() of @n bytes at user address @uaddr that
 * left @left not copied, @kernel_ds its uaccess_kernel() (a test and a
 * memcpy(): not counted). A call that copied (left 0, n > 0) ran
 * buffer_op()'s do_op_one_page() once per page the range spans; any other
 * ran none (uaccess.c) */
void km_uaccess_gup_kmap_count(struct km_task *t, unsigned long uaddr, unsigned long n,
			       unsigned long left, bool kernel_ds);

/* raw ops called with no current task: an error, n not copied (uaccess.c) */
unsigned long km_uaccess_no_task(const char *op, unsigned long n);

/*
 * A variant's raw_copy_{from,to}_user() entry. Every model call under it
 * (kmalloc, gup, kmap_atomic, put_page, ...) is inlined into it where the
 * body is visible: within the file always, and across the library where it
 * is built with LTO (the release preset with GCC; src/CMakeLists.txt).
 * Only noinline and variadic functions stay calls (kmap's slot work,
 * km_report()). The modelled work and its order are unchanged; what goes
 * is host call overhead: return addresses and register saves, stores that
 * queue behind the memcpy of the page before. Without it a variant pays
 * the host in proportion to how many model functions it calls, not to the
 * kernel work they model.
 */
#define KM_VARIANT_ENTRY __attribute__((flatten))

#endif
