/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/conformance.h - the raw uaccess contract of include/linux/uaccess.h
 * (v5.7) as a suite that any struct km_uaccess_ops can be run against.
 *
 * The contract: raw_copy_{from,to}_user(to, from, n) returns N, the bytes
 * not copied; the first n - N destination bytes equal the source; nothing
 * past them is written; "not storing anything at all (i.e. returning size)
 * should happen only when nothing could be copied" -- a copy may stop
 * early, but when a prefix is accessible at least one byte of it is copied.
 *
 * The suite boots one machine per page size with this user layout (P is
 * the page size):
 *
 *   base+0P  unmapped
 *   base+1P  M1: read/write, resident, random bytes
 *   base+2P  unmapped
 *   base+3P  M2: read/write, resident, random bytes
 *   base+4P  RO: read-only, resident (the shared zero page, mapped by a read)
 *   base+5P  unmapped
 *   base+6P  M3: read/write, resident, random bytes   } one mapping
 *   base+7P  U:  read/write, never touched (no pte)   }
 *   base+8P  unmapped
 *   base+9P  A1: read/write, resident, random bytes   } one mapping
 *   base+10P A2: read/write, resident, random bytes   }
 *   base+11P unmapped
 *   base+12P C:  (in the COW edge's address spaces only) read/write,
 *                resident, random bytes, shared copy-on-write between an
 *                address space and its km_mm_fork(), whose task copies
 *   base+13P unmapped
 *   base+14P F:  MAP_SHARED read/write page 0 of a file, zero bytes,
 *                dirty behind a writable pte before each case; writeback
 *                runs at every gup's KM_IP_AFTER_PIN during its cases
 *                (km_fault_after_gup())
 *   base+15P unmapped
 *
 * and runs, in every context (enum km_conformance_context), for every edge
 * (enum km_conformance_edge) and both directions, every size n in
 * 0..max_size and every start offset off in -max_size..+max_size relative
 * to the edge's boundary B, the raw copy of [B + off, B + off + n) -- at
 * the COW and writeback edges, whose cases fork an address space or write
 * a page back, only the offsets -max_size, -n - 1, -n, -n + 1, -1, 0 and 1
 * that lie in -max_size..+max_size (each once: 7 max_size - 2 cases per
 * direction for max_size >= 4).
 * A byte that is not zero in the shared zero page (the read-only page, or
 * what a read fault maps at U) after a case is a KM_R_ZERO_PAGE report.
 *
 * What is accessible depends on the context: where page faults are
 * handled (process context) every mapped byte with the access's
 * permission is, U included (a read maps the zero page, a write a new
 * page); where they are not (preemption or page faults disabled:
 * faulthandler_disabled(), include/linux/uaccess.h, v5.7) only bytes
 * whose pte is present with that permission are, as for the MMU under
 * the exception table: U is not, RO is for reads. After each case U is
 * returned to having no pte.
 */
#ifndef KMODEL_CONFORMANCE_H
#define KMODEL_CONFORMANCE_H

#include <kmodel/uaccess.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Direction of a case. */
enum km_conformance_dir {
	KM_CONF_FROM_USER = 0,	/**< raw_copy_from_user(kernel dst, user src, n) */
	KM_CONF_TO_USER,	/**< raw_copy_to_user(user dst, kernel src, n) */
	/** (appended) the whole copy_from_user() (km_copy_from_user(): the
	 *  raw copy and the zeroing of its contract), run only with
	 *  km_conformance_opts.whole_copy, and not with preemption alone
	 *  disabled (copy_from_user() may sleep: might_fault()) */
	KM_CONF_COPY_FROM_USER,
	KM_CONF_DIR__COUNT
};

/** The page boundary B a case is placed against. */
enum km_conformance_edge {
	KM_CONF_LEADING = 0,	/**< B = start of M1: unmapped before, mapped after */
	KM_CONF_TRAILING,	/**< B = end of M1: mapped before, unmapped after */
	KM_CONF_READONLY,	/**< B = end of M2: writable before, read-only (the
				 *   zero page, readable) after */
	KM_CONF_UNTOUCHED,	/**< B = end of M3: resident before, never touched
				 *   after (accessible only where faults are handled) */
	KM_CONF_ADJACENT,	/**< B = end of A1: two resident read/write pages,
				 *   accessible in every context and direction: a
				 *   copy across B takes (pins, maps) a second page */
	/** (appended) B = end of C, a page shared copy-on-write with the
	 *  address space the copying one was forked from (km_mm_fork()),
	 *  then a hole: readable in every context, writable only where
	 *  faults are handled (the store breaks COW). The parent's page
	 *  must keep its bytes: a copy_to_user that pins without FOLL_WRITE
	 *  writes into the shared page, a dst failure. */
	KM_CONF_COW,
	/** (appended) B = end of F, a MAP_SHARED file page, then a hole:
	 *  accessible in every context and direction; writeback runs between
	 *  a gup's pin and the copy through it. After a copy_to_user the file
	 *  is written back and the bytes it wrote must be the source's: a
	 *  variant that writes through a pin without set_page_dirty() loses
	 *  them, a copy failure. */
	KM_CONF_WRITEBACK,
	KM_CONF_EDGE__COUNT
};

/** The context a case runs in, as real callers make it. */
enum km_conformance_context {
	KM_CONF_CTX_PROCESS = 0,	/**< preemption and page faults enabled */
	KM_CONF_CTX_PREEMPT_OFF,	/**< preempt_disable() (in_atomic()) */
	KM_CONF_CTX_PAGEFAULT_OFF,	/**< pagefault_disable() alone (an _inatomic copy) */
	KM_CONF_CTX_ATOMIC,		/**< both, as under kmap_atomic() around the copy
					 *   of generic_perform_write() (mm/filemap.c) */
	KM_CONF_CTX__COUNT
};

/** The four checks of a case, from the raw contract. */
enum km_conformance_check {
	/** (1) N in [0, n]; N == 0 when the range lies wholly in accessible
	 *  bytes; N == n when it starts in an inaccessible page; when it
	 *  straddles, n - available <= N < n (at least one byte copied, no
	 *  more than are available). n == 0: N == 0. */
	KM_CONF_CHECK_SIZE = 0,
	/** (2) the source is untouched (user pages for copy_from_user, the
	 *  kernel buffer for copy_to_user, with the guard after it) */
	KM_CONF_CHECK_SRC,
	/** (3) nothing is written before the destination or past
	 *  dst + n - N (within the guard; the read-only and M pages included) */
	KM_CONF_CHECK_DST,
	/** (4) the n - N copied bytes equal the source's */
	KM_CONF_CHECK_COPY,
	KM_CONF_CHECK__COUNT
};

#define KM_CONF_MAX_PAGE_SIZES 3

/**
 * struct km_conformance_opts - what to run. A zero-initialised struct (or a
 * NULL pointer) means all defaults. Members are only appended: the suite's
 * functions pass its size, and members past it take their defaults.
 * @machine: template for the machines the suite boots (fast_gup, kmap_debug,
 *           highmem split, ...); NULL: defaults. Its page_size is replaced
 *           by each page size in turn; a zero ram_size becomes 8 MiB.
 *           Borrowed for the call only.
 * @page_sizes: bytes, each 4096, 16384 or 65536, zero-terminated (unused
 *           slots 0); all zero: 4096, 16384 and 65536.
 * @max_size: largest n, bytes, 1..1024; 0: 128. Offsets run from
 *           -max_size to +max_size.
 * @guard: bytes compared on either side of the destination and source
 *           ranges on every case, 1..1048576; 0: 256. Bytes further away
 *           are not checked (a full-page compare per case would make the
 *           64 KiB run take seconds).
 * @max_listed: at most this many entries in result->list (the counts stay
 *           exact); 0: list every failure.
 * @whole_copy: (appended) also run every from_user case through the whole
 *           copy_from_user() (direction KM_CONF_COPY_FROM_USER): the
 *           copied bytes, then zeroes to n, nothing past n.
 * @on_case, @on_case_arg: (appended) NULL, or called before each case with
 *           where it runs (a struct km_conformance_failure whose dir, edge,
 *           context, page_size, offset and size are set, the rest 0): a
 *           harness that runs the suite in a child process records the
 *           last, so that a crash or a hang names its case.
 *
 * The raw from_user cases check the tail -- the N bytes of the destination
 * past the copied ones -- by the variant's contract (km_uaccess_ops.contract):
 * untouched for KM_UACCESS_CONTRACT_RAW (v4.12+ raw_copy_from_user()),
 * zero for KM_UACCESS_CONTRACT_ZEROING (an arch copy_from_user() before
 * v4.12); a wrong tail byte is a dst failure.
 */
struct km_conformance_failure;

struct km_conformance_opts {
	const struct km_machine_config *machine;
	unsigned long page_sizes[KM_CONF_MAX_PAGE_SIZES];
	unsigned long max_size;
	unsigned long guard;
	size_t max_listed;
	bool whole_copy;
	void (*on_case)(void *arg, const struct km_conformance_failure *where);
	void *on_case_arg;
};

/**
 * struct km_conformance_failure - one failing check of one case. Frozen:
 * the library hands out arrays of it (km_conformance_result.list), whose
 * stride a program compiled against this header assumes, so its size and
 * layout never change (new data about a failure would come through a new
 * function).
 * @dir, @edge, @context, @page_size (bytes): where the case ran.
 * @offset: start of the user range relative to the edge's boundary, bytes
 *          (negative: before it).
 * @size: n, bytes. @returned: N, what the raw copy returned.
 * @check: which check failed.
 * @at: for the byte checks, the first wrong byte's position relative to
 *      the start of the range it belongs to (the destination for dst and
 *      copy, the source for src; negative: before it); 0 for size.
 * @expected_min, @expected_max: size: the allowed N, inclusive; byte
 *      checks: the byte value expected (both equal).
 * @got: size: N; byte checks: the byte value found.
 */
struct km_conformance_failure {
	enum km_conformance_dir dir;
	enum km_conformance_edge edge;
	enum km_conformance_check check;
	/** appended in the padding after @check: size and layout unchanged */
	enum km_conformance_context context;
	unsigned long page_size;
	long offset;
	unsigned long size;
	unsigned long returned;
	long at;
	unsigned long expected_min, expected_max;
	unsigned long got;
};

/**
 * struct km_conformance_result - what a run found. Filled by
 * km_uaccess_conformance(); the caller owns it and must release @list with
 * km_conformance_result_clear(). Members are only appended: the suite's
 * functions pass its size; members the library does not know are zeroed.
 * @cases: cases run. @failures: cases with at least one failing check.
 * @by_check: cases failing each check (a case may fail several checks;
 *           each counts once per case, at its first wrong byte).
 * @reports: BUG/WARN reports recorded on the suite's machines, teardown
 *           problems included (leaked pins, held kmap slots, ...): not one
 *           of the four checks, but a conforming variant has none.
 * @seconds: host wall-clock time of the run (monotonic clock).
 * @list, @list_len: the failing checks in the order found, one entry per
 *           failing check of a case (so at most four per case), at most
 *           opts->max_listed in all; owned by the result (g_free()d by
 *           km_conformance_result_clear()).
 * @first_reports, @first_reports_len: (appended) the first report of each
 *           code that the suite's machines logged (kind, code, message),
 *           in the order found, at most one per code; a code whose every
 *           report came past a machine's log (its first 1024) is counted
 *           in @reports but has none here. Owned by the result, as @list.
 * @kbuf_overrun, @kbuf_underrun: (appended) bytes, the farthest a copy
 *           wrote past the end (dst + n) of the suite's kernel destination,
 *           or before its start, over the run's from_user cases; 0 when
 *           none did. Such a write is a dst failure within @guard; the
 *           kernel buffers lie between red zones of
 *           KM_CONFORMANCE_REDZONE bytes past the guard, so a longer one is
 *           measured too, up to the red zone's end (contiguous writes: the
 *           red zone is followed out block by block while changed),
 *           instead of writing over the host's heap. A write past a red zone
 *           hits an inaccessible host page: the process dies (SIGSEGV).
 */
struct km_conformance_result {
	unsigned long cases;
	unsigned long failures;
	unsigned long by_check[KM_CONF_CHECK__COUNT];
	unsigned long reports;
	double seconds;
	struct km_conformance_failure *list;
	size_t list_len;
	struct km_report *first_reports;
	size_t first_reports_len;
	unsigned long kbuf_overrun;
	unsigned long kbuf_underrun;
};

/** Bytes of red zone past the guard on either side of the suite's kernel
 *  buffers, each then followed by an inaccessible host page. */
#define KM_CONFORMANCE_REDZONE 65536ul

/** The members of the first versioned km_conformance_opts and
 *  km_conformance_result (SONAME 2). */
#define KM_CONFORMANCE_OPTS_MIN_SIZE \
	(offsetof(struct km_conformance_opts, max_listed) + sizeof(size_t))
#define KM_CONFORMANCE_RESULT_MIN_SIZE \
	(offsetof(struct km_conformance_result, list_len) + sizeof(size_t))
/** km_uaccess_conformance_sized()'s @ctx for every context, summed. */
#define KM_CONF_CTX_ALL (-1)

/**
 * km_uaccess_conformance_sized() - run the suite (see the top of this
 * header) against @ops on machines of its own, in context @ctx (enum
 * km_conformance_context) or in every context (KM_CONF_CTX_ALL: the
 * result's counts summed over them, @cases 4 times a context's). Use the
 * wrappers below.
 * The calling thread's `current` is used during the run and restored
 * afterwards; nothing else of the caller is touched, so runs on different
 * threads are independent.
 * @ops: the variant; both raw functions must be set.
 * @opts, @opts_size: NULL or zeroed for defaults (struct
 *       km_conformance_opts); its sizeof as the caller was compiled, at
 *       least KM_CONFORMANCE_OPTS_MIN_SIZE.
 * @res, @res_size: receives the result (overwritten, not freed: clear it
 *       first if it holds a previous result); its sizeof as the caller was
 *       compiled, at least KM_CONFORMANCE_RESULT_MIN_SIZE.
 * @by_code: NULL, or @ncodes counters (pass KM_R__COUNT as compiled: a
 *       library with more codes fills only those, one with fewer zeroes
 *       the rest): @by_code[c] receives the number of reports of code c
 *       (enum km_report_code) on the suite's machines, the teardown checks'
 *       included (KM_R_LEAK_*: leaked pins, held kmap slots, ...);
 *       @by_code[KM_R_NONE] their total, which is also @res->reports.
 * Return: 0 when the suite ran (the result says whether @ops conforms),
 * -EINVAL for a NULL @ops/@res, a missing raw function, an @ops->size
 * below KM_UACCESS_OPS_MIN_SIZE, a size below its minimum, an unknown
 * @ctx or a bad option, or the error of km_machine_new()/km_mmap()
 * (km_last_error() says why); on error @res is zeroed and owns nothing.
 */
KM_API int km_uaccess_conformance_sized(const struct km_uaccess_ops *ops,
					const struct km_conformance_opts *opts, size_t opts_size,
					int ctx, struct km_conformance_result *res,
					size_t res_size, unsigned long *by_code, size_t ncodes);

/** km_uaccess_conformance() - the suite in every context. Return: as
 *  km_uaccess_conformance_sized(). */
static inline int km_uaccess_conformance(const struct km_uaccess_ops *ops,
					 const struct km_conformance_opts *opts,
					 struct km_conformance_result *res)
{
	return km_uaccess_conformance_sized(ops, opts, sizeof(struct km_conformance_opts),
					    KM_CONF_CTX_ALL, res,
					    sizeof(struct km_conformance_result), NULL, 0);
}

/** km_uaccess_conformance_reports() - km_uaccess_conformance() and its
 *  reports by code (@by_code, @ncodes as km_uaccess_conformance_sized()). */
static inline int km_uaccess_conformance_reports(const struct km_uaccess_ops *ops,
						 const struct km_conformance_opts *opts,
						 struct km_conformance_result *res,
						 unsigned long *by_code, size_t ncodes)
{
	return km_uaccess_conformance_sized(ops, opts, sizeof(struct km_conformance_opts),
					    KM_CONF_CTX_ALL, res,
					    sizeof(struct km_conformance_result), by_code, ncodes);
}

/** km_uaccess_conformance_in() - the suite in context @ctx only (@by_code
 *  may be NULL). Return: as km_uaccess_conformance_sized(), -EINVAL for
 *  an unknown @ctx. */
static inline int km_uaccess_conformance_in(const struct km_uaccess_ops *ops,
					    const struct km_conformance_opts *opts,
					    enum km_conformance_context ctx,
					    struct km_conformance_result *res,
					    unsigned long *by_code, size_t ncodes)
{
	return km_uaccess_conformance_sized(ops, opts, sizeof(struct km_conformance_opts),
					    (int)ctx, res, sizeof(struct km_conformance_result),
					    by_code, ncodes);
}

/** Free @res->list and zero @res, @size bytes of it (the caller's sizeof).
 *  NULL is a no-op. Use km_conformance_result_clear(). */
KM_API void km_conformance_result_clear_sized(struct km_conformance_result *res, size_t size);
/** km_conformance_result_clear() - with this header's size. */
static inline void km_conformance_result_clear(struct km_conformance_result *res)
{
	km_conformance_result_clear_sized(res, sizeof(struct km_conformance_result));
}

/** "size", "src", "dst", "copy"; "?" for an unknown value. Never NULL. */
KM_API const char *km_conformance_check_name(enum km_conformance_check check);
/** "from_user", "to_user", "copy_from_user"; "?" otherwise. */
KM_API const char *km_conformance_dir_name(enum km_conformance_dir dir);
/** "leading", "trailing", "readonly", "untouched", "adjacent", "cow",
 *  "writeback"; "?" otherwise. */
KM_API const char *km_conformance_edge_name(enum km_conformance_edge edge);
/** "process", "preempt_off", "pagefault_off", "atomic"; "?" otherwise. */
KM_API const char *km_conformance_context_name(enum km_conformance_context ctx);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_CONFORMANCE_H */
