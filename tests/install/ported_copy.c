// SPDX-License-Identifier: GPL-2.0
/*
 * A uaccess variant written as kernel code and compiled through the
 * installed compatibility layer (include/kmodel/kernel), the way a user
 * ports their own: raw copies a page at a time with get_user_pages_fast(),
 * kmap_atomic(), memcpy() and put_page(). It stops at the first page it
 * cannot pin and returns the bytes not copied.
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <asm/page.h>

/* written for v5.7: get_user_pages_fast() takes gup_flags */
#if LINUX_VERSION_CODE != KERNEL_VERSION(5, 7, 0)
#error "the build did not select KMODEL_KERNEL_VERSION 5.7 for this file"
#endif

static unsigned long page_op(unsigned long uaddr, void *kbuf, unsigned long n, int write)
{
	while (n) {
		unsigned long off = uaddr & ~PAGE_MASK;
		unsigned long chunk = min(n, PAGE_SIZE - off);
		struct page *page;
		char *kaddr;

		if (get_user_pages_fast(uaddr, 1, write ? FOLL_WRITE : 0, &page) != 1)
			break;
		kaddr = kmap_atomic(page);
		if (write)
			memcpy(kaddr + off, kbuf, chunk);
		else
			memcpy(kbuf, kaddr + off, chunk);
		kunmap_atomic(kaddr);
		if (write)
			set_page_dirty(page);
		put_page(page);
		uaddr += chunk;
		kbuf = (char *)kbuf + chunk;
		n -= chunk;
	}
	return n;
}

unsigned long ported_copy_from_user(void *to, unsigned long from, unsigned long n)
{
	return page_op(from, to, n, 0);
}

unsigned long ported_copy_to_user(unsigned long to, const void *from, unsigned long n)
{
	return page_op(to, (void *)from, n, 1);
}
