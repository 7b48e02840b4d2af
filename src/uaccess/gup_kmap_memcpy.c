// SPDX-License-Identifier: GPL-2.0
/*
 * gup_kmap_rfc: lib/uaccess_gup_kmap_memcpy.c of the RFC
 * "[RFC 1/3] lib: copy_{from,to}_user using gup & kmap_atomic()"
 * (afzal mohammed, 12 Jun 2020, on v5.7/v5.8-rc), ported VERBATIM between
 * the BEGIN/END markers and compiled against include/kmodel/kernel.
 *
 * Known flaws, kept on purpose (tests/test_uaccess.c shows each):
 *  - a partial pin (get_user_pages_fast() returns fewer than num_pages)
 *    copies nothing and returns n, although a prefix was accessible: the
 *    raw contract asks for the accessible prefix to be copied;
 *  - lengths are int: n > INT_MAX is truncated in buffer_op();
 *  - kmalloc_array(GFP_KERNEL) and the gup slow path may sleep, which is a
 *    bug in atomic context (copies under kmap_atomic, as
 *    iov_iter_copy_from_user_atomic() makes them);
 *  - an unaligned n == 0 still pins (and may fault in) one page;
 *  - put_page() without set_page_dirty() after writing a user page.
 * Host notes (64-bit host, 32-bit ARM target):
 *  - unsigned long is 64-bit here and 32-bit on ARM; the two differ only
 *    for ranges that access_ok() rejects;
 *  - sizeof(struct page *) is 8 here and 4 on ARM, so the page array the
 *    RFC kmalloc_array()s is twice ARM's: a 9-page copy asks for 72 bytes
 *    (kmalloc-128) where ARM asks for 36 (kmalloc-64, KMALLOC_MIN_SIZE 64),
 *    and KMALLOC_MAX_SIZE (4 MiB with 4 KiB pages) would be reached at
 *    524,288 pages instead of 1,048,576. The text cannot change, so the
 *    kmalloc_array() it calls is told the ARM size below: the limit and
 *    the kmalloc_class events follow ARM (kmalloc_bytes stays the host
 *    object's bucket), and the copies the RFC can make are ARM's.
 */
/* Keep the RFC's global names out of the library's exported namespace. */
#define gup_kmap_copy_from_user km_rfc_gup_kmap_copy_from_user
#define gup_kmap_copy_to_user km_rfc_gup_kmap_copy_to_user
#include "variant.h"

/* The RFC's only kmalloc_array() allocates its struct page * array: the
 * compatibility layer's, with the ARM size of the elements (4-byte
 * pointers). <linux/slab.h> is included here first, so its include inside
 * the markers adds nothing. */
#include <linux/slab.h>
static inline void *km_rfc_kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	/* check_mul_overflow(), on the host's and on ARM's 32-bit size_t */
	if (unlikely(__builtin_mul_overflow(n, size, &bytes) || n > UINT32_MAX / 4))
		return NULL;
	return km_kmalloc_arm(km_shim_current(), bytes, n * 4, flags);
}
#define kmalloc_array(n, size, flags) km_rfc_kmalloc_array((n), (size), (flags))

/* ---- BEGIN RFC (verbatim) ---- */
// Started from arch/um/kernel/skas/uaccess.c

#include <linux/err.h>
#include <linux/slab.h>
#include <linux/highmem.h>
#include <linux/mm.h>

#include <asm/page.h>
#include <asm/pgtable.h>

static int do_op_one_page(unsigned long addr, int len,
		 int (*op)(unsigned long addr, int len, void *arg), void *arg,
		 struct page *page)
{
	int n;

	addr = (unsigned long) kmap_atomic(page) + (addr & ~PAGE_MASK);
	n = (*op)(addr, len, arg);
	kunmap_atomic((void *)addr);

	return n;
}

static long buffer_op(unsigned long addr, int len,
		      int (*op)(unsigned long, int, void *), void *arg,
		      struct page **pages)
{
	long size, remain, n;

	size = min(PAGE_ALIGN(addr) - addr, (unsigned long) len);
	remain = len;
	if (size == 0)
		goto page_boundary;

	n = do_op_one_page(addr, size, op, arg, *pages);
	if (n != 0) {
		remain = (n < 0 ? remain : 0);
		goto out;
	}

	pages++;
	addr += size;
	remain -= size;

page_boundary:
	if (remain == 0)
		goto out;
	while (addr < ((addr + remain) & PAGE_MASK)) {
		n = do_op_one_page(addr, PAGE_SIZE, op, arg, *pages);
		if (n != 0) {
			remain = (n < 0 ? remain : 0);
			goto out;
		}

		pages++;
		addr += PAGE_SIZE;
		remain -= PAGE_SIZE;
	}
	if (remain == 0)
		goto out;

	n = do_op_one_page(addr, remain, op, arg, *pages);
	if (n != 0) {
		remain = (n < 0 ? remain : 0);
		goto out;
	}

	return 0;
out:
	return remain;
}

static int copy_chunk_from_user(unsigned long from, int len, void *arg)
{
	unsigned long *to_ptr = arg, to = *to_ptr;

	memcpy((void *) to, (void *) from, len);
	*to_ptr += len;
	return 0;
}

static int copy_chunk_to_user(unsigned long to, int len, void *arg)
{
	unsigned long *from_ptr = arg, from = *from_ptr;

	memcpy((void *) to, (void *) from, len);
	*from_ptr += len;
	return 0;
}

unsigned long gup_kmap_copy_from_user(void *to, const void __user *from, unsigned long n)
{
	struct page **pages;
	int num_pages, ret, i;

	if (uaccess_kernel()) {
		memcpy(to, (__force void *)from, n);
		return 0;
	}

	num_pages = DIV_ROUND_UP((unsigned long)from + n, PAGE_SIZE) -
				 (unsigned long)from / PAGE_SIZE;
	pages = kmalloc_array(num_pages, sizeof(*pages), GFP_KERNEL | __GFP_ZERO);
	if (!pages)
		goto end;

	ret = get_user_pages_fast((unsigned long)from, num_pages, 0, pages);
	if (ret < 0)
		goto free_pages;

	if (ret != num_pages) {
		num_pages = ret;
		goto put_pages;
	}

	n = buffer_op((unsigned long) from, n, copy_chunk_from_user, &to, pages);

put_pages:
	for (i = 0; i < num_pages; i++)
		put_page(pages[i]);
free_pages:
	kfree(pages);
end:
	return n;
}

unsigned long gup_kmap_copy_to_user(void __user *to, const void *from, unsigned long n)
{
	struct page **pages;
	int num_pages, ret, i;

	if (uaccess_kernel()) {
		memcpy((__force void *) to, from, n);
		return 0;
	}

	num_pages = DIV_ROUND_UP((unsigned long)to + n, PAGE_SIZE) - (unsigned long)to / PAGE_SIZE;
	pages = kmalloc_array(num_pages, sizeof(*pages), GFP_KERNEL | __GFP_ZERO);
	if (!pages)
		goto end;

	ret = get_user_pages_fast((unsigned long)to, num_pages, FOLL_WRITE, pages);
	if (ret < 0)
		goto free_pages;

	if (ret != num_pages) {
		num_pages = ret;
		goto put_pages;
	}


	n = buffer_op((unsigned long) to, n, copy_chunk_to_user, &from, pages);

put_pages:
	for (i = 0; i < num_pages; i++)
		put_page(pages[i]);
free_pages:
	kfree(pages);
end:
	return n;
}
/* ---- END RFC ---- */

unsigned long gup_kmap_copy_from_user(void *to, const void __user *from, unsigned long n);
unsigned long gup_kmap_copy_to_user(void __user *to, const void *from, unsigned long n);

/* The entries count the RFC's own code (kmodel/machine.h gup_kmap_calls,
 * gup_kmap_pages): the calls it makes count as their own events. */
static unsigned long KM_VARIANT_ENTRY rfc_from(void *to, unsigned long from, unsigned long n)
{
	unsigned long left;
	bool kernel_ds;

	if (!km_current_task)
		return km_uaccess_no_task("gup_kmap_rfc raw_copy_from_user", n);
	kernel_ds = uaccess_kernel();
	left = gup_kmap_copy_from_user(to, (const void __user *)from, n);
	km_uaccess_gup_kmap_count(km_current_task, from, n, left, kernel_ds);
	return left;
}

static unsigned long KM_VARIANT_ENTRY rfc_to(unsigned long to, const void *from, unsigned long n)
{
	unsigned long left;
	bool kernel_ds;

	if (!km_current_task)
		return km_uaccess_no_task("gup_kmap_rfc raw_copy_to_user", n);
	kernel_ds = uaccess_kernel();
	left = gup_kmap_copy_to_user((void __user *)to, from, n);
	km_uaccess_gup_kmap_count(km_current_task, to, n, left, kernel_ds);
	return left;
}

const struct km_uaccess_ops km_uaccess_gup_kmap_rfc = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "gup_kmap_rfc",
	.summary = "2020 RFC: pin with gup, kmap_atomic, memcpy (faithful, flaws kept)",
	.source = "lib/uaccess_gup_kmap_memcpy.c, RFC 1/3 of 12 Jun 2020 on v5.7",
	.claims_conformance = false,
	.raw_copy_from_user = rfc_from,
	.raw_copy_to_user = rfc_to,
};
