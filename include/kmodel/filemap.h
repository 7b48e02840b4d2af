/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/filemap.h - read(2)/readv(2) and write(2)/writev(2) of a tmpfs file
 * through the page cache, v5.7: the user buffer is an iov_iter of one or
 * more segments (zero-length ones included), and every user copy goes
 * through a uaccess variant (struct km_uaccess_ops) -- the copy loops the
 * seed's dd exercises.
 *
 *   read:  shmem_file_read_iter() (mm/shmem.c) -> copy_page_to_iter() ->
 *          copy_page_to_iter_iovec() (lib/iov_iter.c). With CONFIG_HIGHMEM
 *          it first faults the segment in (fault_in_pages_writeable()) and
 *          copies under kmap_atomic() of the page-cache page, in atomic
 *          context; what that leaves it copies under kmap(). Without
 *          CONFIG_HIGHMEM it copies under kmap() (the page's address).
 *   write: generic_perform_write() (mm/filemap.c) with shmem_write_begin/
 *          end: per page, iov_iter_fault_in_readable() of every segment up
 *          to the page's bytes, find or allocate the page-cache page
 *          (GFP_HIGHUSER_MOVABLE: highmem first), then
 *          iov_iter_copy_from_user_atomic(): kmap_atomic() and the raw copy
 *          of each segment in atomic context; a copy of nothing falls back
 *          to one segment's bytes and retries.
 *
 * The copies are copyout()/copyin() of lib/iov_iter.c: access_ok(), then the
 * variant's raw_copy_{to,from}_user(). Every function runs on task @t, made
 * `current` for the call. The functions follow the v5.7 sources line by line
 * (read from copies of that era: see src/mm_sim/filemap.c) but are the
 * model's own code, not verbatim ports.
 *
 * Simplifications: one file per km_shmem_file (no inode, no locks, no
 * seals, no size limit), no writeback or dirty throttling, no
 * fatal_signal_pending(); kmap() of a highmem page uses the frame's host
 * address without a pkmap slot (it only sleeps: might_sleep()).
 */
#ifndef KMODEL_FILEMAP_H
#define KMODEL_FILEMAP_H

#include <kmodel/uaccess.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** struct iovec: a user buffer segment. */
struct km_iovec {
	unsigned long iov_base;		/**< user address */
	size_t iov_len;			/**< bytes; 0 is allowed anywhere */
};

/**
 * struct km_iov_iter - an ITER_IOVEC iov_iter (include/linux/uio.h, v5.7).
 * @iov: the current segment; @nr_segs: segments from @iov on;
 * @iov_offset: bytes of *@iov already consumed; @count: bytes left in all.
 * The segments are borrowed: they must outlive the iterator.
 */
struct km_iov_iter {
	const struct km_iovec *iov;
	unsigned long nr_segs;
	size_t iov_offset;
	size_t count;
};

/** UIO_MAXIOV: at most this many segments (include/uapi/linux/uio.h). */
#define KM_UIO_MAXIOV 1024

/**
 * km_import_iovec() - import_iovec() (lib/iov_iter.c with
 * rw_copy_check_uvector(), fs/read_write.c, v5.7) of a vector already in
 * kernel memory: checks each segment, caps the total at MAX_RW_COUNT
 * (INT_MAX rounded down to a page) by shortening segments, and starts @i.
 * @t: whose addr_limit access_ok() checks (USER_DS: TASK_SIZE).
 * Return: total bytes (>= 0), -EINVAL for NULL arguments, more than
 * KM_UIO_MAXIOV segments or a length that is negative as ssize_t, -EFAULT
 * when a segment fails access_ok(). @iov is modified only when capped.
 * A harness builds with it the iterator that km_shmem_read_iter(),
 * km_shmem_write_iter() and km_generic_perform_write() take, as readv(2)
 * and writev(2) do.
 */
KM_API long km_import_iovec(struct km_task *t, struct km_iovec *iov, unsigned long nr_segs,
			    struct km_iov_iter *i);
/** iov_iter_init(): @count bytes in @nr_segs segments at @iov, no checks
 *  (as the kernel). A @count larger than the segments hold is the
 *  caller's bug; the model's iteration still never passes @nr_segs. */
KM_API void km_iov_iter_init(struct km_iov_iter *i, const struct km_iovec *iov,
			     unsigned long nr_segs, size_t count);
/** iov_iter_advance() (iterate_and_advance, v5.7): consume @bytes (at most
 *  what is left); a segment consumed to its end, zero-length ones
 *  included, is left behind. */
KM_API void km_iov_iter_advance(struct km_iov_iter *i, size_t bytes);
/** iov_iter_single_seg_count(): bytes left in the current segment (all of
 *  @count when it is the only one). */
KM_API size_t km_iov_iter_single_seg_count(const struct km_iov_iter *i);

/**
 * km_iov_iter_fault_in_readable() - iov_iter_fault_in_readable() (v5.7,
 * after d4690f1e1cda "fix iov_iter_fault_in_readable()"): for every
 * non-empty segment within the first @bytes, fault_in_pages_readable(): a
 * user load of the first byte of each page it covers (and of its last byte
 * when the range spills over), faulting pages in. Process context.
 * @bytes beyond iov_iter_count(): v5.7 would walk past the iovec array;
 * the model records a KM_R_WARN_ON WARN and faults in only what @i holds.
 * Return: 0, or -EFAULT at the first byte that cannot be loaded, -EINVAL
 * for a NULL @t or @i.
 */
KM_API int km_iov_iter_fault_in_readable(struct km_task *t, const struct km_iov_iter *i,
					 size_t bytes);

/**
 * km_iov_iter_copy_from_user_atomic() - iov_iter_copy_from_user_atomic():
 * kmap_atomic(@page), then copyin() of each segment within @bytes into the
 * page at @offset until one comes up short, kunmap_atomic(). @i is not
 * advanced. @page must belong to @t's machine.
 * Return: bytes copied (0 for an @offset + @bytes past the page, as
 * page_copy_sane() refuses).
 */
KM_API size_t km_iov_iter_copy_from_user_atomic(struct km_task *t,
						const struct km_uaccess_ops *ops,
						struct km_page *page, struct km_iov_iter *i,
						unsigned long offset, size_t bytes);

/**
 * km_copy_page_to_iter() - copy_page_to_iter() of an ITER_IOVEC
 * (copy_page_to_iter_iovec(), v5.7): copy @bytes of @page from @offset to
 * the user segments of @i, through @ops->raw_copy_to_user, and advance @i.
 * With @config_highmem the atomic attempt described at the top of this
 * header comes first. Return: bytes copied (short when a copyout failed).
 */
KM_API size_t km_copy_page_to_iter(struct km_task *t, const struct km_uaccess_ops *ops,
				   bool config_highmem, struct km_page *page, size_t offset,
				   size_t bytes, struct km_iov_iter *i);

/* ---- a tmpfs file ---------------------------------------------------------- */

/** A file on tmpfs: its page cache and i_size. */
struct km_shmem_file;

/** An empty file on @m. The caller owns it (km_shmem_file_free()).
 *  Return: 0, -EINVAL (NULL argument). */
KM_API int km_shmem_file_new(struct km_machine *m, struct km_shmem_file **out);
/** Truncate and free @f (its page-cache pages go back to the machine).
 *  NULL is a no-op. Free files before their machine. */
KM_API void km_shmem_file_free(struct km_shmem_file *f);
/** i_size, bytes. */
KM_API uint64_t km_shmem_file_size(const struct km_shmem_file *f);
/** open(O_TRUNC): i_size 0, every page-cache page dropped (the highest
 *  index first, so the page allocator hands the same frames out again in
 *  the same order). */
KM_API void km_shmem_file_truncate(struct km_shmem_file *f);
/** The page-cache page at page @index, or NULL (a hole). No reference. */
KM_API struct km_page *km_shmem_file_page(const struct km_shmem_file *f, unsigned long index);

/**
 * km_shmem_write_begin() - shmem_write_begin() (mm/shmem.c, v5.7):
 * shmem_getpage(SGP_WRITE), the page-cache page of @index with a
 * reference for the caller; *@fresh when it was just allocated (not
 * zeroed, not uptodate). Counts as the kernel's does. Return: the page,
 * or NULL when out of memory or for a NULL argument (km_last_error()).
 *
 * With km_shmem_write_end_plain(), what a harness uses to write a file's
 * page cache through host stores instead of a modelled copy (the dd
 * scenario's plain-memcpy baseline, kmodel/scenario.h).
 */
KM_API struct km_page *km_shmem_write_begin(struct km_shmem_file *f, unsigned long index,
					    bool *fresh);
/**
 * km_shmem_write_end_plain() - shmem_write_end() (v5.7) after a host store
 * of @copied bytes at file offset @pos into @page (from
 * km_shmem_write_begin(), which said *@fresh): the bytes around them of a
 * fresh page are zeroed through its host address, i_size grows, the page is
 * dirtied and its reference dropped. Nothing for a NULL @f or @page.
 */
KM_API void km_shmem_write_end_plain(struct km_shmem_file *f, uint64_t pos, unsigned long copied,
				     struct km_page *page, bool fresh);

/**
 * km_shmem_read_iter() - read(2) of @f at *@pos into @to: shmem_file_read_iter()
 * (v5.7): page by page up to i_size, holes read from the shared zero page,
 * each through km_copy_page_to_iter(); *@pos advances by what was copied.
 * @config_highmem: the kernel was built with CONFIG_HIGHMEM (see the top).
 * Return: bytes read (0 at end of file), or -EFAULT when nothing could be
 * copied (a short copy after some bytes returns those bytes), -EINVAL for
 * NULL arguments.
 */
KM_API long km_shmem_read_iter(struct km_task *t, const struct km_uaccess_ops *ops,
			       bool config_highmem, struct km_shmem_file *f, uint64_t *pos,
			       struct km_iov_iter *to);

/** What one generic_perform_write() did, for tests and the curious.
 *  Members are only appended: km_generic_perform_write() passes its size. */
struct km_perform_write_stats {
	unsigned long rounds;		/**< times round the loop (write_begin calls) */
	unsigned long zero_copies;	/**< rounds whose atomic copy copied nothing */
};

/**
 * km_generic_perform_write() - generic_perform_write() (mm/filemap.c, v5.7)
 * on @f at @pos from @i, with shmem_write_begin/end (mm/shmem.c): see the
 * top of this header. @i is advanced by what was written; i_size grows.
 * A round whose atomic copy copies nothing retries with one segment's
 * bytes, after faulting them in again, as the kernel does; when that
 * retry copies nothing either, the kernel would spin for ever: the model
 * stops there with -EDEADLK (km_last_error() says so) -- a variant whose
 * atomic copy cannot copy faulted-in user memory.
 * @st: NULL, or receives the counts of this call, @st_size bytes of it
 *      (sizeof(struct km_perform_write_stats) as the caller was compiled:
 *      use km_generic_perform_write(); members the library has not, zeroed).
 * Return: bytes written, or (nothing written) -EFAULT (fault-in failed),
 * -ENOMEM (no page for the page cache), -EDEADLK, -EINVAL (NULL argument,
 * or @st_size below the first version's).
 */
KM_API long km_generic_perform_write_sized(struct km_task *t, const struct km_uaccess_ops *ops,
					   struct km_shmem_file *f, uint64_t pos,
					   struct km_iov_iter *i, struct km_perform_write_stats *st,
					   size_t st_size);
/** The members of the first versioned km_perform_write_stats (SONAME 2). */
#define KM_PERFORM_WRITE_STATS_MIN_SIZE \
	(offsetof(struct km_perform_write_stats, zero_copies) + sizeof(unsigned long))
/** km_generic_perform_write() - with this header's size of *@st. */
static inline long km_generic_perform_write(struct km_task *t, const struct km_uaccess_ops *ops,
					    struct km_shmem_file *f, uint64_t pos,
					    struct km_iov_iter *i, struct km_perform_write_stats *st)
{
	return km_generic_perform_write_sized(t, ops, f, pos, i, st,
					      sizeof(struct km_perform_write_stats));
}

/** write(2)/writev(2) of @f at *@pos: generic_file_write_iter() --
 *  nothing to write returns 0 -- then km_generic_perform_write(); *@pos
 *  advances by what was written. Return: as km_generic_perform_write(). */
KM_API long km_shmem_write_iter(struct km_task *t, const struct km_uaccess_ops *ops,
				struct km_shmem_file *f, uint64_t *pos, struct km_iov_iter *from);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_FILEMAP_H */
