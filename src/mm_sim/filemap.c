// SPDX-License-Identifier: GPL-2.0
/*
 * read(2)/write(2) of a tmpfs file through the page cache: kmodel/filemap.h.
 *
 * Sources: Linux v5.7 (torvalds/linux tag v5.7): lib/iov_iter.c --
 * iterate_iovec(), iterate_and_advance(),
 * copyin(), copyout(), copy_page_to_iter(), copy_page_to_iter_iovec(),
 * iov_iter_fault_in_readable(), iov_iter_copy_from_user_atomic(),
 * iov_iter_advance(), iov_iter_single_seg_count(); include/linux/pagemap.h
 * -- fault_in_pages_{readable,writeable}(); mm/filemap.c --
 * generic_perform_write(); mm/shmem.c -- shmem_write_begin/end(),
 * shmem_file_read_iter(). The iov_iter.c copy read was of v5.9/v5.10-rc,
 * which differs in these functions only by instrument_copy_*() (KCSAN
 * hooks, no-ops here). The code below keeps the kernel's structure and
 * variable names; it is the model's own code, not a verbatim port.
 */
#include "mm_internal.h"
#include <kmodel/filemap.h>
#include <string.h>

/* MAX_RW_COUNT: INT_MAX & PAGE_MASK (include/linux/fs.h) */
static size_t max_rw_count(const struct km_machine *m)
{
	return (size_t)0x7fffffff & ~(size_t)(m->page_size - 1);
}

long km_import_iovec(struct km_task *t, struct km_iovec *iov, unsigned long nr_segs,
		     struct km_iov_iter *i)
{
	size_t total = 0, max;

	if (!t || !i || (!iov && nr_segs))
		return km_err(-EINVAL, "km_import_iovec: NULL argument");
	if (nr_segs > KM_UIO_MAXIOV)
		return km_err(-EINVAL, "km_import_iovec: %lu segments, more than UIO_MAXIOV",
			      nr_segs);
	max = max_rw_count(t->m);
	for (unsigned long seg = 0; seg < nr_segs; seg++) {
		size_t len = iov[seg].iov_len;

		if ((ssize_t)len < 0)
			return km_err(-EINVAL, "km_import_iovec: segment %lu: length %zu is "
				      "negative as ssize_t", seg, len);
		if (!km_access_ok(t, iov[seg].iov_base, len))
			return km_err(-EFAULT, "km_import_iovec: segment %lu [%#lx, +%zu) fails "
				      "access_ok()", seg, iov[seg].iov_base, len);
		if (len > max - total)
			len = iov[seg].iov_len = max - total;
		total += len;
	}
	km_iov_iter_init(i, iov, nr_segs, total);
	return (long)total;
}

void km_iov_iter_init(struct km_iov_iter *i, const struct km_iovec *iov, unsigned long nr_segs,
		      size_t count)
{
	*i = (struct km_iov_iter){ .iov = iov, .nr_segs = nr_segs, .count = count };
}

/* iterate_and_advance() with an empty STEP */
void km_iov_iter_advance(struct km_iov_iter *i, size_t n)
{
	const struct km_iovec *iov;
	size_t skip, len;

	if (i->count < n)
		n = i->count;
	if (!i->count)
		return;
	skip = i->iov_offset;
	iov = i->iov;
	len = MIN(n, iov->iov_len - skip);
	skip += len;
	n -= len;
	i->count -= len;
	/* the kernel trusts count to match the segments; the model stops at
	 * the last one (a count larger than they hold: km_iov_iter_init()) */
	while (n && iov + 1 < i->iov + i->nr_segs) {
		iov++;
		len = MIN(n, iov->iov_len);
		if (!len)
			continue;
		skip = len;
		n -= len;
		i->count -= len;
	}
	if (skip == iov->iov_len) {
		iov++;
		skip = 0;
	}
	i->nr_segs -= (unsigned long)(iov - i->iov);
	i->iov = iov;
	i->iov_offset = skip;
}

size_t km_iov_iter_single_seg_count(const struct km_iov_iter *i)
{
	if (i->nr_segs == 1)
		return i->count;
	return MIN(i->count, i->iov->iov_len - i->iov_offset);
}

/* __get_user(c, uaddr) / __put_user(0, uaddr): a one-byte user access with
 * faults handled; 0 or -EFAULT. On ARM (arch/arm/include/asm/uaccess.h,
 * v5.7: __get_user_err(), __put_user_switch()) each runs inside
 * uaccess_save_and_enable()/uaccess_restore(), the CPU_SW_DOMAIN_PAN
 * switch raw_copy_{from,to}_user() makes around a copy: counted as one
 * more uaccess_pan_switches (on a kernel with the option: report.c) */
static int user_byte(struct km_task *t, unsigned long uaddr, bool write)
{
	unsigned char c = 0;

	KM_PATH_INC(t->m, fault_in_byte);
	return km_user_access(t, uaddr, &c, 1, write) == 1 ? 0 : -EFAULT;
}

/* fault_in_pages_readable() / fault_in_pages_writeable() (v5.7): the first
 * byte of each page, then the last byte if the range spilled into a page
 * the loop did not touch. @size is an int in the kernel; callers pass at
 * most a page. */
static int fault_in_pages(struct km_task *t, unsigned long uaddr, size_t size, bool write)
{
	unsigned long P = t->m->page_size, end = uaddr + size - 1;

	if (size == 0)
		return 0;
	if (uaddr > end)
		return -EFAULT;
	do {
		if (user_byte(t, uaddr, write))
			return -EFAULT;
		uaddr += P;
	} while (uaddr <= end);
	if ((uaddr & ~(P - 1)) == (end & ~(P - 1)))
		return user_byte(t, end, write);
	return 0;
}

int km_iov_iter_fault_in_readable(struct km_task *t, const struct km_iov_iter *i, size_t n)
{
	const struct km_iovec *iov = i->iov;
	size_t skip = i->iov_offset, len;
	struct km_task *prev;
	int err = 0;

	if (!t || !i)
		return km_err(-EINVAL, "km_iov_iter_fault_in_readable: task or iter is NULL");
	/* v5.7 walks @bytes without looking at count or nr_segs: past the
	 * iovec array when a caller asks for more than the iterator holds
	 * (generic_perform_write() never does). The model stops there. */
	if (n > i->count) {
		km_report(t->m, KM_WARN, KM_R_WARN_ON,
			  "iov_iter_fault_in_readable(%zu bytes) past iov_iter_count() %zu: "
			  "the kernel would read past the iovec array", n, i->count);
		n = i->count;
	}
	if (!n)
		return 0;
	prev = km_task_switch(t);
	/* iterate_iovec(): the first segment from iov_offset, skipped when
	 * empty, then whole segments, empty ones skipped, until n is done */
	len = MIN(n, iov->iov_len - skip);
	if (len) {
		err = fault_in_pages(t, iov->iov_base + skip, len, false);
		n -= len;
	}
	while (!err && n && iov + 1 < i->iov + i->nr_segs) {
		iov++;
		len = MIN(n, iov->iov_len);
		if (!len)
			continue;
		err = fault_in_pages(t, iov->iov_base, len, false);
		n -= len;
	}
	km_task_switch(prev);
	return err;
}

/* copyout()/copyin() (lib/iov_iter.c): access_ok(), then the raw copy;
 * bytes NOT copied (kmodel/uaccess.h km_copyout(), km_copyin()) */
#define copyout km_copyout
#define copyin km_copyin

/* page_copy_sane() for an order-0 page */
static bool page_copy_sane(const struct km_machine *m, size_t offset, size_t n)
{
	size_t v = n + offset;

	return n <= v && v <= m->page_size;
}

size_t km_iov_iter_copy_from_user_atomic(struct km_task *t, const struct km_uaccess_ops *ops,
					 struct km_page *page, struct km_iov_iter *i,
					 unsigned long offset, size_t bytes)
{
	struct km_task *prev = km_task_switch(t);
	char *kaddr = km_kmap_atomic(t, page), *p;
	const struct km_iovec *iov = i->iov;
	size_t skip = i->iov_offset, n = bytes, len, left = 0;

	if (!kaddr || !page_copy_sane(t->m, offset, bytes)) {
		if (kaddr)
			km_kunmap_atomic(t, kaddr);
		km_task_switch(prev);
		return 0;
	}
	p = kaddr + offset;
	/* iterate_all_kinds() -> iterate_iovec() with STEP = copyin() */
	if (n > i->count)	/* the kernel's callers never ask for more */
		n = i->count;
	len = MIN(n, iov->iov_len - skip);
	if (len) {
		left = copyin(t, ops, p, iov->iov_base + skip, len);
		p += len - left;
		n -= len - left;
	}
	while (!left && n) {
		iov++;
		len = MIN(n, iov->iov_len);
		if (!len)
			continue;
		left = copyin(t, ops, p, iov->iov_base, len);
		p += len - left;
		n -= len - left;
	}
	km_kunmap_atomic(t, kaddr);
	km_task_switch(prev);
	return (size_t)(p - (kaddr + offset));
}

/* kmap(): may sleep; a lowmem page's direct-map address. A highmem page
 * would take a pkmap slot (kmap_high()): the model uses its host address
 * and models no slot. */
static char *kmap_sleeping(struct km_task *t, struct km_page *page)
{
	km_might_sleep(t, "kmap()");
	return km_frame(t->m, km_pfn(t->m, page));
}

size_t km_copy_page_to_iter(struct km_task *t, const struct km_uaccess_ops *ops,
			    bool config_highmem, struct km_page *page, size_t offset,
			    size_t bytes, struct km_iov_iter *i)
{
	struct km_task *prev;
	size_t skip, copy, left, wanted;
	const struct km_iovec *iov;
	unsigned long buf;
	char *kaddr, *from;

	if (!km_page_valid(t->m, page) || !page_copy_sane(t->m, offset, bytes))
		return 0;
	if (bytes > i->count)
		bytes = i->count;
	if (!bytes)
		return 0;
	prev = km_task_switch(t);
	km_might_sleep(t, "copy_page_to_iter()");	/* might_fault() */
	wanted = bytes;
	iov = i->iov;
	skip = i->iov_offset;
	buf = iov->iov_base + skip;
	copy = MIN(bytes, iov->iov_len - skip);

	if (config_highmem && !fault_in_pages(t, buf, copy, true)) {
		kaddr = km_kmap_atomic(t, page);
		from = kaddr + offset;

		/* first chunk, usually the only one */
		left = copyout(t, ops, buf, from, copy);
		copy -= left;
		skip += copy;
		from += copy;
		bytes -= copy;

		while (!left && bytes) {
			iov++;
			buf = iov->iov_base;
			copy = MIN(bytes, iov->iov_len);
			left = copyout(t, ops, buf, from, copy);
			copy -= left;
			skip = copy;
			from += copy;
			bytes -= copy;
		}
		if (!bytes) {
			km_kunmap_atomic(t, kaddr);
			goto done;
		}
		offset = (size_t)(from - kaddr);
		buf += copy;
		km_kunmap_atomic(t, kaddr);
		copy = MIN(bytes, iov->iov_len - skip);
	}
	/* Too bad - revert to non-atomic kmap */

	kaddr = kmap_sleeping(t, page);
	from = kaddr + offset;
	left = copyout(t, ops, buf, from, copy);
	copy -= left;
	skip += copy;
	from += copy;
	bytes -= copy;
	while (!left && bytes) {
		iov++;
		buf = iov->iov_base;
		copy = MIN(bytes, iov->iov_len);
		left = copyout(t, ops, buf, from, copy);
		copy -= left;
		skip = copy;
		from += copy;
		bytes -= copy;
	}
	/* kunmap(page): nothing to undo in the model */

done:
	if (skip == iov->iov_len) {
		iov++;
		skip = 0;
	}
	i->count -= wanted - bytes;
	i->nr_segs -= (unsigned long)(iov - i->iov);
	i->iov = iov;
	i->iov_offset = skip;
	km_task_switch(prev);
	return wanted - bytes;
}

/* ---- tmpfs ----------------------------------------------------------------- */

struct km_shmem_file {
	struct km_machine *m;
	uint64_t i_size;
	GPtrArray *pages;	/* struct km_page *, NULL: a hole; one reference each */
	/* the last new page shmem_write_end() zeroed around its copy, for the
	 * clear_refilled_bytes event (NULL: none; a page stays at its index
	 * while in the cache, and truncation forgets it), the zeroed
	 * [0, zero_head) and [zero_tail, P) not yet written again, and
	 * km_traffic_bytes() after the zeroing */
	struct km_page *zeroed;
	unsigned long zero_head, zero_tail;
	uint64_t zeroed_at;
};

int km_shmem_file_new(struct km_machine *m, struct km_shmem_file **out)
{
	if (!m || !out)
		return km_err(-EINVAL, "km_shmem_file_new: machine or out is NULL");
	*out = g_new0(struct km_shmem_file, 1);
	(*out)->m = m;
	(*out)->pages = g_ptr_array_new();
	return 0;
}

void km_shmem_file_truncate(struct km_shmem_file *f)
{
	for (guint i = f->pages->len; i-- > 0;) {
		if (g_ptr_array_index(f->pages, i))
			km_put_page(f->m, g_ptr_array_index(f->pages, i));
		g_ptr_array_index(f->pages, i) = NULL;	/* the array keeps its size */
	}
	f->i_size = 0;
	f->zeroed = NULL;
}

void km_shmem_file_free(struct km_shmem_file *f)
{
	if (!f)
		return;
	km_shmem_file_truncate(f);
	g_ptr_array_free(f->pages, TRUE);
	g_free(f);
}

uint64_t km_shmem_file_size(const struct km_shmem_file *f)
{
	return f->i_size;
}

struct km_page *km_shmem_file_page(const struct km_shmem_file *f, unsigned long index)
{
	return index < f->pages->len ? g_ptr_array_index(f->pages, index) : NULL;
}

long km_shmem_read_iter(struct km_task *t, const struct km_uaccess_ops *ops,
			bool config_highmem, struct km_shmem_file *f, uint64_t *ppos,
			struct km_iov_iter *to)
{
	struct km_machine *m;
	unsigned long index, offset, shift;
	long retval = 0;
	int error = 0;

	if (!t || !ops || !f || !ppos || !to)
		return km_err(-EINVAL, "km_shmem_read_iter: NULL argument");
	m = f->m;
	shift = m->page_shift;
	index = (unsigned long)(*ppos >> shift);
	offset = (unsigned long)(*ppos & (m->page_size - 1));

	for (;;) {
		struct km_page *page;
		unsigned long end_index, nr, ret;
		uint64_t i_size = f->i_size;

		end_index = (unsigned long)(i_size >> shift);
		if (index > end_index)
			break;
		nr = m->page_size;
		if (index == end_index) {
			nr = (unsigned long)(i_size & (m->page_size - 1));
			if (nr <= offset)
				break;
		}
		/* shmem_getpage(SGP_READ): the cached page, or none (a hole);
		 * its lookup, get_page() and put_page() counted at once */
		KM_PATH_INC(m, shmem_read_page);
		page = km_shmem_file_page(f, index);
		nr -= offset;
		if (page) {
			km_page_get_uncounted(m, page);
		} else {
			page = m->zero_page;	/* ZERO_PAGE(0) */
			km_page_get_uncounted(m, page);
		}
		ret = km_copy_page_to_iter(t, ops, config_highmem, page, offset, nr, to);
		retval += (long)ret;
		offset += ret;
		index += offset >> shift;
		offset &= m->page_size - 1;

		km_page_put_uncounted(m, page);
		if (!to->count)
			break;
		if (ret < nr) {
			error = -EFAULT;
			break;
		}
	}
	*ppos = ((uint64_t)index << shift) + offset;
	return retval ? retval : error;
}

/* shmem_write_begin(): shmem_getpage(SGP_WRITE) -- the cached page, or a new
 * one, not zeroed and not yet uptodate; with a reference for the caller */
struct km_page *km_shmem_write_begin(struct km_shmem_file *f, unsigned long index, bool *fresh)
{
	struct km_page *page;

	if (!f || !fresh) {
		km_set_error("km_shmem_write_begin: NULL argument");
		return NULL;
	}
	if (index >= f->pages->len)
		g_ptr_array_set_size(f->pages, (guint)index + 1);
	page = g_ptr_array_index(f->pages, index);
	*fresh = !page;
	if (!page) {
		page = km_alloc_page(f->m, KM_GFP_HIGHMEM);	/* GFP_HIGHUSER_MOVABLE */
		if (!page) {
			KM_EV_INC(f->m, pagecache_lookups);
			return NULL;
		}
		KM_EV_INC(f->m, pagecache_allocs);
		g_ptr_array_index(f->pages, index) = page;	/* the cache's reference */
	}
	KM_PATH_INC(f->m, shmem_write_begin);	/* the lookup and the get_page() */
	km_page_get_uncounted(f->m, page);
	return page;
}

/* A write of [@from, @to) of @page, which shmem_write_end() zeroed
 * around an earlier copy: the zeroed bytes it copies over, counted as
 * clear_refilled_bytes while their lines are warm; each zeroed range
 * shrinks from its inner edge (a write inside a range ends its following,
 * so that no byte counts twice). */
static void count_refill(struct km_shmem_file *f, struct km_page *page, unsigned long from,
			 unsigned long to)
{
	unsigned long head = f->zero_head, tail = f->zero_tail, n = 0;

	if (page != f->zeroed)
		return;
	if (from == tail) {
		/* right after the copy that zeroed or the last refill (dd's
		 * blocks): the tail range's start (head <= tail) */
		n = to - from;
		f->zero_tail = to;
	} else {
		/* from < to <= P: [from, to) meets [0, head) iff from < head,
		 * and [tail, P) iff to > tail */
		if (from < head) {
			n += MIN(to, head) - from;
			f->zero_head = to >= head ? from : 0;
		}
		if (to > tail) {
			n += to - MAX(from, tail);
			f->zero_tail = from <= tail ? to : f->m->page_size;
		}
	}
	if (n && km_traffic_bytes(f->m) - f->zeroed_at <= KM_EVENTS_WARM_BYTES)
		KM_EV_ADD(f->m, clear_refilled_bytes, n);
}

/* shmem_write_end(): i_size; a new page gets the bytes around the copy
 * zeroed (zero_user_segments() under kmap_atomic; with no task, the dd
 * baseline's, through the lowmem page's host address) and becomes
 * uptodate; set_page_dirty(), unlock_page(), put_page() */
static unsigned long shmem_write_end(struct km_task *t, struct km_shmem_file *f, uint64_t pos,
				     unsigned long copied, struct km_page *page, bool fresh)
{
	unsigned long P = f->m->page_size;
	unsigned long from = (unsigned long)(pos & (P - 1));

	if (pos + copied > f->i_size)
		f->i_size = pos + copied;
	if (fresh && copied < P) {
		char *kaddr = t ? km_kmap_atomic(t, page) : km_frame(f->m, km_pfn(f->m, page));

		/* zero_user_segments(): a memset per non-empty segment */
		memset(kaddr, 0, from);
		memset(kaddr + from + copied, 0, P - from - copied);
		KM_EV_TRAFFIC(f->m, clear_bytes, P - copied);
		KM_EV_ADD(f->m, memset_calls, (from > 0) + (P - from - copied > 0));
		if (t)
			km_kunmap_atomic(t, kaddr);
		if (KMODEL_COUNT_EVENTS) {	/* for clear_refilled_bytes */
			f->zeroed = page;
			f->zero_head = from;
			f->zero_tail = from + copied;
			f->zeroed_at = km_traffic_bytes(f->m);
		}
	} else if (KMODEL_COUNT_EVENTS && !fresh && copied) {
		count_refill(f, page, from, from + copied);
	}
	km_set_page_dirty(f->m, page);
	km_put_page(f->m, page);
	return copied;
}

void km_shmem_write_end_plain(struct km_shmem_file *f, uint64_t pos, unsigned long copied,
			      struct km_page *page, bool fresh)
{
	if (!f || !page)
		return;
	shmem_write_end(NULL, f, pos, copied, page, fresh);
}

long km_generic_perform_write_sized(struct km_task *t, const struct km_uaccess_ops *ops,
				    struct km_shmem_file *f, uint64_t pos, struct km_iov_iter *i,
				    struct km_perform_write_stats *st, size_t st_size)
{
	struct km_perform_write_stats s = {0};
	struct km_task *prev;
	unsigned long P;
	long written = 0;
	int status = 0;

	if (!t || !ops || !f || !i || (st && st_size < KM_PERFORM_WRITE_STATS_MIN_SIZE))
		return km_err(-EINVAL, "km_generic_perform_write: NULL argument, or stats size "
			      "%zu < %zu", st_size, (size_t)KM_PERFORM_WRITE_STATS_MIN_SIZE);
	P = f->m->page_size;
	prev = km_task_switch(t);
	do {
		struct km_page *page;
		unsigned long offset;	/* Offset into pagecache page */
		unsigned long bytes;	/* Bytes to write to page */
		size_t copied;		/* Bytes copied from user */
		bool fresh;
		/* the iterator and bytes of the last round that copied nothing */
		const struct km_iovec *zero_iov = NULL;
		size_t zero_off = 0;
		unsigned long zero_bytes = 0;

		offset = (unsigned long)(pos & (P - 1));
		bytes = MIN(P - offset, i->count);
again:
		/* Bring in the user page that we will copy from _first_. */
		if (km_iov_iter_fault_in_readable(t, i, bytes)) {
			status = -EFAULT;
			break;
		}
		page = km_shmem_write_begin(f, (unsigned long)(pos / P), &fresh);
		if (!page) {
			status = km_err(-ENOMEM, "generic_perform_write(): no page for the page cache");
			break;
		}
		s.rounds++;
		copied = km_iov_iter_copy_from_user_atomic(t, ops, page, i, offset, bytes);
		copied = shmem_write_end(t, f, pos, copied, page, fresh);

		km_iov_iter_advance(i, copied);
		if (copied == 0) {
			s.zero_copies++;
			/*
			 * If we were unable to copy any data at all, we must
			 * fall back to a single segment length write. The
			 * kernel goes round again for as long as that copies
			 * nothing. The model stops when a round that copied
			 * nothing left the iterator where the previous such
			 * round did, with the same bytes: the next round would
			 * be the same again (the fault-in has nothing more to
			 * fault), for ever.
			 */
			bytes = MIN(P - offset, km_iov_iter_single_seg_count(i));
			if (zero_iov == i->iov && zero_off == i->iov_offset && zero_bytes == bytes) {
				status = km_err(-EDEADLK, "generic_perform_write(): the atomic copy "
						"of %lu faulted-in bytes copies nothing: the kernel "
						"would retry for ever", bytes);
				break;
			}
			zero_iov = i->iov;
			zero_off = i->iov_offset;
			zero_bytes = bytes;
			goto again;
		}
		pos += copied;
		written += (long)copied;
	} while (i->count);
	km_task_switch(prev);
	if (st)
		km_struct_write(st, st_size, &s, sizeof(s));
	return written ? written : status;
}

long km_shmem_write_iter(struct km_task *t, const struct km_uaccess_ops *ops,
			 struct km_shmem_file *f, uint64_t *ppos, struct km_iov_iter *from)
{
	long ret;

	if (!ppos || !from)
		return km_err(-EINVAL, "km_shmem_write_iter: NULL argument");
	if (!from->count)	/* generic_write_checks() */
		return 0;
	ret = km_generic_perform_write(t, ops, f, *ppos, from, NULL);
	if (ret > 0)
		*ppos += (uint64_t)ret;
	return ret;
}
