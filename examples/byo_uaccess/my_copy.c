// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel code as you would write it for v5.7: copy_{from,to}_user a page at
 * a time -- pin the user page, kmap_atomic() it, memcpy(), unpin. Compiled
 * through libkmodel's compatibility layer (kmodel_kernel_sources() in
 * CMakeLists.txt): these are the kernel's headers and names.
 *
 * In atomic context (faulthandler_disabled(): under kmap_atomic or with
 * page faults disabled, as generic_perform_write() copies) it may not
 * sleep, so it pins with the lockless __get_user_pages_fast() only; there a
 * page it cannot pin ends the copy, and the caller retries after faulting
 * the page in. `kmodel-check uaccess --load ... --context atomic` shows
 * where that falls short on ARM: without LPAE (no fast GUP) it pins
 * nothing, and the zero page is refused (pte_special) -- so it passes in
 * process context only; libkmodel's gup_kmap_fixed walks the page table
 * under the pte lock there instead (src/uaccess/gup_kmap_fixed.c).
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/uaccess.h>
#include <asm/page.h>

static unsigned long page_copy(unsigned long uaddr, void *kbuf, unsigned long n, int write)
{
	while (n) {
		unsigned long off = offset_in_page(uaddr);
		unsigned long chunk = min(n, PAGE_SIZE - off);
		struct page *page;
		char *kaddr;
		int pinned;

		if (faulthandler_disabled())
			pinned = __get_user_pages_fast(uaddr, 1, write, &page);
		else
			pinned = get_user_pages_fast(uaddr, 1, write ? FOLL_WRITE : 0, &page);
		if (pinned != 1)
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
	return n;	/* bytes not copied */
}

unsigned long my_raw_copy_from_user(void *to, unsigned long from, unsigned long n)
{
	return page_copy(from, to, n, 0);
}

unsigned long my_raw_copy_to_user(unsigned long to, const void *from, unsigned long n)
{
	return page_copy(to, (void *)from, n, 1);
}
