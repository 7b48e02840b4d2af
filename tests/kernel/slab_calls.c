// SPDX-License-Identifier: GPL-2.0
/* Kernel-style calls of the compatibility layer's <linux/slab.h>, for
 * test_machine (which links this file): they run on `current`. */
#include <linux/slab.h>

void *kernel_kmalloc_array(size_t n, size_t size);
void kernel_kfree(const void *p);

void *kernel_kmalloc_array(size_t n, size_t size)
{
	return kmalloc_array(n, size, GFP_KERNEL);
}

void kernel_kfree(const void *p)
{
	kfree(p);
}
