/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/uaccess.h - copy_{from,to}_user implementations as ops tables, and
 * the contract wrapper of include/linux/uaccess.h and lib/usercopy.c (v5.7).
 *
 * The raw contract (include/linux/uaccess.h): raw_copy_{from,to}_user(to,
 * from, n) returns the number of bytes NOT copied, N; the first n - N bytes
 * of the destination equal the source; nothing past them is written; N == n
 * only if nothing could be copied; raw functions never zero-pad; n == 0 has
 * no side effects.
 *
 * All functions act on the calling thread's `current` task (km_task_switch())
 * unless a task is passed. User addresses are simulated addresses of the
 * task's km_mm; kernel buffers are host pointers. Under KERNEL_DS a "user"
 * address is a host pointer (set_fs(KERNEL_DS) semantics).
 */
#ifndef KMODEL_UACCESS_H
#define KMODEL_UACCESS_H

#include <kmodel/mm.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct km_uaccess_ops - one implementation of raw user copies.
 * @size: sizeof(struct km_uaccess_ops) as the variant was compiled:
 *        initialise it with KM_UACCESS_OPS_SIZE. Members are only ever
 *        appended; the library reads a member past KM_UACCESS_OPS_MIN_SIZE
 *        only when @size covers it (km_uaccess_ops_has()), so a variant
 *        built against an older header keeps working. A @size below
 *        KM_UACCESS_OPS_MIN_SIZE is refused (-EINVAL) where ops are taken.
 * @name: short stable name ("direct", "gup_kmap_rfc", ...).
 * @summary: one line for --help and tables; optional (NULL: the tools
 *           show "-").
 * @source: the kernel file, function and version it follows.
 * @claims_conformance: true if it means to satisfy the raw contract fully
 *                      (the faithful RFC port does not: see its docs).
 * @raw_copy_from_user: copy @n bytes from user @from to kernel @to; returns
 *                      bytes not copied. Runs on `current`; with no current
 *                      task it copies nothing and returns @n (km_last_error()).
 * @raw_copy_to_user:   copy @n bytes from kernel @from to user @to.
 * @clear_user: (appended; read only where km_uaccess_ops_has(ops,
 *              clear_user)) __clear_user(): zero @n bytes at user @to,
 *              return the bytes not cleared; no access_ok() (the caller's,
 *              km_clear_user_with()). NULL: the kernel's default, the
 *              assembler __clear_user_std (km_clear_user()).
 * @contract: (appended; KM_UACCESS_CONTRACT_RAW where @size does not
 *              cover it) which copy_from_user contract @raw_copy_from_user
 *              implements: enum km_uaccess_contract.
 * @get_user: (appended) the single-value load of get_user()/__get_user():
 *            @size (1, 2, 4 or 8) bytes at user @from into @to; 0 or
 *            -EFAULT (and @to zeroed). No access_ok(), no might_fault()
 *            (the layer's macros do those). NULL: direct's.
 * @put_user: (appended) the store of put_user()/__put_user(); 0 or -EFAULT.
 * @strncpy_from_user: (appended) strncpy_from_user() (lib/strncpy_from_user.c,
 *            v5.7): the string's length if below @count, @count if no NUL
 *            came first, -EFAULT on a fault. NULL: direct's.
 * @strnlen_user: (appended) strnlen_user() (lib/strnlen_user.c, v5.7): the
 *            length including the NUL, a value above @n if longer, 0 on a
 *            fault. NULL: direct's.
 *
 * A variant may leave either raw copy NULL too: where a variant runs (a
 * task's, a machine's, a registry's: km_task_set_uaccess(),
 * km_registry_add_uaccess()) each NULL operation is direct's, and
 * km_uaccess_fallbacks() names them, so a port of copy_from_user alone
 * needs no stand-in for the other direction. At least one raw copy is
 * required.
 */
struct km_uaccess_ops {
	size_t size;
	const char *name;
	const char *summary;
	const char *source;
	bool claims_conformance;
	unsigned long (*raw_copy_from_user)(void *to, unsigned long from, unsigned long n);
	unsigned long (*raw_copy_to_user)(unsigned long to, const void *from, unsigned long n);
	unsigned long (*clear_user)(unsigned long to, unsigned long n);
	unsigned int contract;
	long (*get_user)(void *to, unsigned long from, unsigned long size);
	long (*put_user)(unsigned long to, const void *from, unsigned long size);
	long (*strncpy_from_user)(char *dst, unsigned long src, long count);
	long (*strnlen_user)(unsigned long src, long n);
};

/**
 * enum km_uaccess_contract - what a variant's raw_copy_from_user() does with
 * the N bytes it did not copy.
 * @KM_UACCESS_CONTRACT_RAW: raw_copy_from_user() of v4.12 on: leaves them
 *	untouched; the generic _copy_from_user() (include/linux/uaccess.h,
 *	d597580d3737 "generic ...copy_..._user primitives", Al Viro, 2017)
 *	zeroes them. The default (0).
 * @KM_UACCESS_CONTRACT_ZEROING: an architecture's own copy_from_user()
 *	before v4.12: zeroes them itself, as its kernel-doc required ("If some
 *	data could not be copied, this function will pad the copied data to
 *	the requested size using zero bytes"); Al Viro's 2016 series for v4.8
 *	fixed the architectures that did not (2545e5da080b "asm-generic: make
 *	copy_from_user() zero the destination properly", 8ae95ed4ae5f "metag:
 *	copy_from_user() should zero the destination on access_ok() failure",
 *	both Cc: stable). ARM's already did: the fault fixup of
 *	arch/arm/lib/copy_from_user.S (Nicolas Pitre's of 2005) __memzero()s
 *	the rest, and its copy_from_user() memset()s all of @to when
 *	access_ok() fails (v3.0, v3.6); 91344493b7da "arm: don't zero in
 *	__copy_from_user_inatomic()/__copy_from_user()" (Al Viro, committed
 *	2016-09-15) later moved that zeroing into copy_from_user() itself (the
 *	model's ARM below 4.12 is v3.5's). km_copy_from_user() then adds no
 *	zeroing of its own (access_ok() failing still zeroes all @n, as the
 *	arch wrappers did), and the conformance suite wants the tail zero.
 */
enum km_uaccess_contract {
	KM_UACCESS_CONTRACT_RAW = 0,
	KM_UACCESS_CONTRACT_ZEROING = 1,
};

/** The contract @ops declares (KM_UACCESS_CONTRACT_RAW when its @size
 *  predates the member). */
#define km_uaccess_ops_contract(ops) \
	(km_uaccess_ops_has(ops, contract) ? (ops)->contract : KM_UACCESS_CONTRACT_RAW)

/** Initialiser of km_uaccess_ops.size: `.size = KM_UACCESS_OPS_SIZE`. */
#define KM_UACCESS_OPS_SIZE sizeof(struct km_uaccess_ops)
/** The smallest valid @size: the members of the first version, up to
 *  raw_copy_to_user. */
#define KM_UACCESS_OPS_MIN_SIZE \
	(offsetof(struct km_uaccess_ops, raw_copy_to_user) + \
	 sizeof(((struct km_uaccess_ops *)0)->raw_copy_to_user))
/** Does @ops (its @size) include @member? */
#define km_uaccess_ops_has(ops, member) \
	((ops)->size >= offsetof(struct km_uaccess_ops, member) + sizeof((ops)->member))

/** The faithful port of the 2020 RFC "lib: copy_{from,to}_user using gup &
 *  kmap_atomic()" (lib/uaccess_gup_kmap_memcpy.c), flaws included. */
KM_API extern const struct km_uaccess_ops km_uaccess_gup_kmap_rfc;
/** The RFC with the review's fixes, same shape (gup + kmap_atomic + memcpy):
 *  copies the pinned prefix of a partial pin, a 64-entry on-stack page
 *  array (no kmalloc), unsigned long lengths, and with faults disabled
 *  (faulthandler_disabled()) no gup at all: each page is reached by the
 *  pte-lock walk of ARM's pin_page_for_write() (uaccess_with_memcpy.c,
 *  v5.7), so it never sleeps in atomic context, works with or without
 *  fast_gup, and stops at the first page that is not present and young
 *  (for a store, also writable and dirty) -- those bytes are not copied;
 *  set_page_dirty() on pages it wrote. Its source file says which fix
 *  answers which flaw. */
KM_API extern const struct km_uaccess_ops km_uaccess_gup_kmap_fixed;
/** The 3G/1G baseline: the MMU walks the page table, a fault is handled
 *  (or, with pagefaults disabled, fixed up) and the copy stops at the first
 *  page it cannot access, like arm_copy_{from,to}_user + the exception
 *  table (arch/arm/lib/copy_{from,to}_user.S, v5.7), at page granularity. */
KM_API extern const struct km_uaccess_ops km_uaccess_direct;
/** ARM's CONFIG_UACCESS_WITH_MEMCPY (arch/arm/lib/uaccess_with_memcpy.c,
 *  v5.7), ported verbatim: copy_to_user and clear_user of 64 bytes or more
 *  walk the page table, hold the pte lock across a memcpy/memset of each
 *  page (no page reference), fault a page in with __put_user(0) and retry;
 *  mmap_sem unless faulthandler_disabled() (clear_user: always);
 *  copy_from_user is the assembler path (direct's). */
KM_API extern const struct km_uaccess_ops km_uaccess_with_memcpy;

/**
 * km_uaccess_fallbacks() - the operations @ops leaves to direct's (NULL, or
 * beyond its @size): "raw_copy_to_user, clear_user, get_user, ...", a
 * string the caller frees with free() (g_free()), or NULL when @ops
 * implements every one. The tools print it as "... runs direct's for".
 */
KM_API char *km_uaccess_fallbacks(const struct km_uaccess_ops *ops);

/**
 * km_uaccess_complete() - @ops with each operation it lacks taken from
 * direct's (see km_uaccess_fallbacks()): a copy the caller frees with
 * free(), its @size the library's. NULL (km_last_error()) for NULL @ops,
 * an @ops->size below KM_UACCESS_OPS_MIN_SIZE, or neither raw copy.
 */
KM_API struct km_uaccess_ops *km_uaccess_complete(const struct km_uaccess_ops *ops);

/**
 * km_task_set_uaccess() - the variant through which the compatibility
 * layer's copy_{from,to}_user(), clear_user(), get_user()/put_user() (and
 * the __ forms), strncpy_from_user() and strnlen_user() copy when @t is
 * `current`: what a kernel built with that copy_from_user would run for
 * every caller. @ops is completed with direct's operations where it has
 * none (km_uaccess_complete(); the task keeps its own copy, @ops need not
 * outlive the call). NULL: the machine's (km_machine_set_uaccess()).
 * Return: 0, or -EINVAL (NULL @t, @ops refused by km_uaccess_complete()).
 */
KM_API int km_task_set_uaccess(struct km_task *t, const struct km_uaccess_ops *ops);
/** km_machine_set_uaccess() - the same for every task of @m that has none
 *  of its own; NULL: direct (the default). */
KM_API int km_machine_set_uaccess(struct km_machine *m, const struct km_uaccess_ops *ops);
/** km_task_uaccess() - the complete ops the layer copies through on @t: its
 *  own, else its machine's, else &km_uaccess_direct (NULL @t too). */
KM_API const struct km_uaccess_ops *km_task_uaccess(const struct km_task *t);

/**
 * km_get_user() / km_put_user() - the single-value load and store of the
 * layer's get_user()/put_user() through @ops (its get_user/put_user, else
 * direct's) on @t: @size bytes, no access_ok() or might_fault() (the
 * caller's). Return 0 or -EFAULT; a failed load zeroes @to.
 */
KM_API long km_get_user(struct km_task *t, const struct km_uaccess_ops *ops, void *to,
			unsigned long from, unsigned long size);
KM_API long km_put_user(struct km_task *t, const struct km_uaccess_ops *ops, unsigned long to,
			const void *from, unsigned long size);
/** km_strncpy_from_user() - strncpy_from_user() (lib/strncpy_from_user.c,
 *  v5.7: @count <= 0 gives 0; access_ok() of what lies below the limit)
 *  through @ops on @t. */
KM_API long km_strncpy_from_user(struct km_task *t, const struct km_uaccess_ops *ops, char *dst,
				 unsigned long src, long count);
/** km_strnlen_user() - strnlen_user() (lib/strnlen_user.c, v5.7) through
 *  @ops on @t. */
KM_API long km_strnlen_user(struct km_task *t, const struct km_uaccess_ops *ops,
			    unsigned long src, long n);

/** All registered variants, NULL-terminated, in a stable order. */
KM_API const struct km_uaccess_ops *const *km_uaccess_variants(void);
/** The variant called @name, or NULL: a program that takes variant names
 *  on its command line. */
KM_API const struct km_uaccess_ops *km_uaccess_find(const char *name);

/**
 * km_uaccess_access_ok() - access_ok() for @t: [@addr, @addr + @size) lies below
 * addr_limit (TASK_SIZE under USER_DS) without wrapping; always true under
 * KERNEL_DS.
 */
KM_API bool km_uaccess_access_ok(const struct km_task *t, unsigned long addr,
				 unsigned long size);

/**
 * km_copy_from_user() - copy_from_user() (include/linux/uaccess.h, lib/usercopy.c
 * _copy_from_user(), v5.7) through @ops on task @t (made `current` for the
 * call): check_copy_size() (n > INT_MAX: KM_R_COPY_SIZE WARN, return @n,
 * nothing copied or zeroed), might_fault(), access_ok() (fails: nothing
 * copied), raw copy, then zero-fill the @N uncopied tail bytes of @to.
 * Return: bytes not copied (0 on success).
 */
KM_API unsigned long km_copy_from_user(struct km_task *t, const struct km_uaccess_ops *ops,
				       void *to, unsigned long from, unsigned long n);
/** km_copy_to_user() - copy_to_user(): the same checks, no zero-fill. */
KM_API unsigned long km_copy_to_user(struct km_task *t, const struct km_uaccess_ops *ops,
				     unsigned long to, const void *from, unsigned long n);

/**
 * km_clear_user() - clear_user() of the 3G/1G kernel (__clear_user through
 * the user mapping, arch/arm/lib/clear_user.S): zero @n bytes at user @to,
 * faulting pages in; stops at the first page it cannot write. The RFC leaves
 * clear_user as it is: variants without their own clear_user share this
 * (see km_clear_user_with()). On KM_VMSPLIT_4G4G it
 * pins, kmaps and clears a page at a time instead (the user mapping is out
 * of reach there). A harness zeroes user memory with it the way the
 * kernel's read(2) of /dev/zero or a short read's tail does.
 * Return: bytes not cleared.
 */
KM_API unsigned long km_clear_user(struct km_task *t, unsigned long to, unsigned long n);

/**
 * km_copyin() - copyin() of lib/iov_iter.c (v5.7): access_ok(), then
 * @ops' raw_copy_from_user(), with no might_fault() and no zero-fill --
 * what copy_page_from_iter() and iov_iter_copy_from_user_atomic() call,
 * for scenarios that model those paths. Runs with @t as `current`.
 * Counts the uaccess_from_bytes event. Return: bytes not copied (@n when
 * @t or @ops is NULL or access_ok() fails).
 */
KM_API unsigned long km_copyin(struct km_task *t, const struct km_uaccess_ops *ops, void *to,
			       unsigned long from, unsigned long n);
/** km_copyout() - copyout() of lib/iov_iter.c (v5.7): access_ok(), then
 *  @ops' raw_copy_to_user() (copy_page_to_iter()); counts uaccess_to_bytes. */
KM_API unsigned long km_copyout(struct km_task *t, const struct km_uaccess_ops *ops,
				unsigned long to, const void *from, unsigned long n);

/**
 * km_clear_user_with() - clear_user() (arch/arm/include/asm/uaccess.h,
 * v5.7: access_ok(), then __clear_user(), no might_fault()) through @ops on
 * task @t (made `current` for the call): its clear_user where the ops table
 * has one (km_uaccess_ops_has()), else km_clear_user()'s default.
 * Return: bytes not cleared (@n when @t or @ops is NULL, or access_ok()
 * fails).
 */
KM_API unsigned long km_clear_user_with(struct km_task *t, const struct km_uaccess_ops *ops,
					unsigned long to, unsigned long n);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_UACCESS_H */
