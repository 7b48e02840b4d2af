/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/uio.h>: the ITER_IOVEC iov_iter of
 * the model (kmodel/filemap.h) */
#ifndef KM_COMPAT_LINUX_UIO_H
#define KM_COMPAT_LINUX_UIO_H

#include <linux/kernel.h>
#include <kmodel/filemap.h>

/* custom: struct iov_iter is the model's (the members of v3.5's: iov,
 * nr_segs, iov_offset, count; user iovecs only). Its segments are struct
 * km_iovec, whose iov_base is an unsigned long user address. */
#define iov_iter km_iov_iter

/* duplicate (include/linux/uio.h, v5.7) */
static inline size_t iov_iter_count(const struct iov_iter *i) { return i->count; }
/* custom: lib/iov_iter.c v5.7 */
static inline void iov_iter_advance(struct iov_iter *i, size_t bytes)
{
	km_iov_iter_advance(i, bytes);
}
static inline size_t iov_iter_single_seg_count(const struct iov_iter *i)
{
	return km_iov_iter_single_seg_count(i);
}

#if KMODEL_KERNEL_VERSION < KERNEL_VERSION(5, 16, 0)
/*
 * custom: iov_iter_fault_in_readable(), fault_in_pages_readable() of user
 * segments, 0 or -EFAULT. From v4.8 (d4690f1e1cda "fix
 * iov_iter_fault_in_readable()", Al Viro, 16 Sep 2016) every segment within
 * @bytes, empty ones skipped (lib/iov_iter.c, v5.7:
 * km_iov_iter_fault_in_readable()); before, only the current segment from
 * iov_offset (mm/filemap.c, v3.5), so a writev() whose first segment is
 * empty faulted nothing in. v5.16 (a6294593e8a1) replaced it by
 * fault_in_iov_iter_readable(), which returns the bytes not faulted in.
 */
static inline int iov_iter_fault_in_readable(struct iov_iter *i, size_t bytes)
{
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(4, 8, 0)
	return km_iov_iter_fault_in_readable(km_shim_current(), i, bytes);
#else
	struct iov_iter first = *i;

	bytes = min(bytes, i->iov->iov_len - i->iov_offset);
	first.nr_segs = 1;
	first.count = bytes;
	return km_iov_iter_fault_in_readable(km_shim_current(), &first, bytes);
#endif
}
#endif

#endif
