/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/scenario.h - the seeds' workloads as library calls: dd (the 2020
 * RFC's benchmark) on uaccess variants and iperf (the 2012 asix patch's)
 * on usbnet variants. They produce the rows kmodel-bench prints: a program
 * runs them on its own variants and gets the same table.
 *
 * Results come as a struct km_table: named, typed columns (with units)
 * and rows of values, one schema per table. Speeds are host timings and
 * ratios against a baseline measured in the same run; event counts are
 * the model's (kmodel/machine.h struct km_events), per unit of work.
 */
#ifndef KMODEL_SCENARIO_H
#define KMODEL_SCENARIO_H

#include <kmodel/uaccess.h>
#include <kmodel/usb.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- result tables ----------------------------------------------------------- */

/** Type of a column's values. */
enum km_value_type {
	KM_VALUE_NONE = 0,	/**< no value in this row (e.g. a stalled dd row's speed) */
	KM_VALUE_STRING,
	KM_VALUE_BOOL,
	KM_VALUE_INT,		/**< int64_t */
	KM_VALUE_DOUBLE,
};

/** One value of a row. */
struct km_value {
	enum km_value_type type;	/**< KM_VALUE_NONE or the column's type */
	union {
		const char *s;		/**< owned by the table */
		bool b;
		int64_t i;
		double d;
	};
};

/** Column flags. */
#define KM_COL_TEXT	0x1u	/**< shown in kmodel-bench's text table */
#define KM_COL_EVENT	0x2u	/**< an event counter per unit (JSON: under "events") */
#define KM_COL_KEY	0x4u	/**< identifies the row (variant, machine, ...) */
#define KM_COL_REPORT	0x8u	/**< reports of one code (its heading: the code's name,
				 *   km_report_code_name(); JSON: under "reports_by_code") */

/**
 * struct km_column - a column of a table.
 * @name: stable machine name (CSV header, JSON key), [a-z0-9_].
 * @heading: short text-table heading. @unit: e.g. "MB/s", "per MiB", ""
 * @type: of its values. @width, @precision: text-table format hints.
 * @flags: KM_COL_*. @doc: one line saying what it is.
 */
struct km_column {
	const char *name;
	const char *heading;
	const char *unit;
	enum km_value_type type;
	int width, precision;
	unsigned int flags;
	const char *doc;
};

/** A scenario's result: columns and rows. */
struct km_table;

/** The scenario's name ("dd", "iperf"). */
KM_API const char *km_table_name(const struct km_table *t);
/** One line describing the rows (for a text table's title). */
KM_API const char *km_table_title(const struct km_table *t);
/** Number of columns. */
KM_API size_t km_table_ncolumns(const struct km_table *t);
/** Column @c (< km_table_ncolumns()), owned by the table. NULL if out of range. */
KM_API const struct km_column *km_table_column(const struct km_table *t, size_t c);
/** Index of the column called @name, or -1. */
KM_API long km_table_column_index(const struct km_table *t, const char *name);
/** Number of rows. */
KM_API size_t km_table_nrows(const struct km_table *t);
/** Value of row @r, column @c; a KM_VALUE_NONE value when out of range.
 *  Owned by the table. */
KM_API const struct km_value *km_table_value(const struct km_table *t, size_t r, size_t c);
/** Free @t. NULL is a no-op. */
KM_API void km_table_free(struct km_table *t);

/*
 * Assembling a table from runs in other processes: a program that runs a
 * row it does not trust (a plugin's variant) in a forked child sends the
 * child's table back as bytes and puts its rows among its own
 * (kmodel-bench does). A row the child never finished can be added
 * empty and given the values that name it.
 */

/**
 * km_table_serialize() - @t as bytes (glib's GVariant serialised form of
 * its name, title, columns and rows) for km_table_deserialize().
 * @data: receives them (free with free()). @len: receives their number.
 * Return: 0; -EINVAL for a NULL argument; -ENOMEM.
 */
KM_API int km_table_serialize(const struct km_table *t, void **data, size_t *len);

/**
 * km_table_deserialize() - the table that km_table_serialize() wrote as
 * @data (@len bytes), e.g. in another process of the same program.
 * Bytes that are not such a table (truncated, wrong layout, a value
 * whose type is not its column's, an unknown type or flag) are refused;
 * they are never trusted for a size or an index.
 * @out: receives it (free with km_table_free()).
 * Return: 0; -EINVAL with km_last_error() saying why.
 */
KM_API int km_table_deserialize(const void *data, size_t len, struct km_table **out);

/**
 * km_table_new_like() - an empty table with @t's name, title and columns.
 * Return: the table (free with km_table_free()), or NULL for a NULL @t.
 */
KM_API struct km_table *km_table_new_like(const struct km_table *t);

/**
 * km_table_append_row() - append a row to @t: a copy of row @r of @src
 * (its strings copied), or, with @src NULL, a row without values.
 * @src's columns must be @t's: the same names and types in the same order.
 * Return: the new row's index; -EINVAL (NULL @t, @r out of range, other
 * columns: km_last_error() names the first that differs).
 */
KM_API long km_table_append_row(struct km_table *t, const struct km_table *src, size_t r);

/**
 * km_table_set_value() - set the value of row @r in the column called
 * @col to *@v: of the column's type, or KM_VALUE_NONE (no value); a
 * string is copied.
 * Return: 0; -EINVAL (NULL argument, no such row or column, another type).
 */
KM_API int km_table_set_value(struct km_table *t, size_t r, const char *col,
			      const struct km_value *v);

/* ---- dd ------------------------------------------------------------------------ */

/** A machine the dd scenario runs on. The library's own (km_dd_machines()):
 *  members are only appended, so a program reads them through pointers. */
struct km_dd_machine {
	const char *name;
	const char *summary;
	uint64_t ram_size, lowmem_size;	/**< bytes; lowmem 0: all of RAM */
	bool fast_gup;			/**< CONFIG_HAVE_FAST_GUP (ARM_LPAE) */
	/** its kernel has CONFIG_HIGHMEM although all its RAM is lowmem (the
	 *  BeagleBone's omap2plus/multi_v7 builds, the RFC's default); a
	 *  machine with highmem always has it */
	bool config_highmem;
};

/** The built-in machine profiles (bbw, bbw-config-highmem, bbw-highmem,
 *  a15, a15-nohighmem), NULL-terminated: an array of pointers, whose
 *  stride does not change when struct km_dd_machine grows. */
KM_API const struct km_dd_machine *const *km_dd_machines(void);
/** The profile called @name, or NULL. */
KM_API const struct km_dd_machine *km_dd_machine_find(const char *name);
/** Is @d's kernel built with CONFIG_HIGHMEM? When it has highmem, or
 *  says so (config_highmem); a machine without highmem otherwise runs a
 *  kernel built without it (a15-nohighmem is "highmem disabled"). A
 *  caller laying out its own dd table labels its rows with it, as the
 *  seeds' figures name CONFIG_HIGHMEM. */
KM_API bool km_dd_machine_highmem(const struct km_dd_machine *d);

/** One row to measure: a variant on a machine in a kmap era. Members are
 *  only appended: km_dd_run() passes its size (the array's stride). */
struct km_dd_case {
	const struct km_uaccess_ops *ops;	/**< the variant (not NULL) */
	const struct km_dd_machine *machine;
	enum km_kmap_flavour kmap;
};

/**
 * struct km_dd_opts - what dd does. Zero fields take the defaults. Members
 * are only appended: km_dd_run() passes its size, and members past it take
 * their defaults.
 * @block_sizes, @nblock_sizes: bs= values to run, bytes, each 1 .. 64 MiB;
 *              none: 512 (dd's default, the seed's run). Borrowed.
 * @total_bytes: copied per timed run, rounded up to whole passes over the
 *              input file; 0: 64 MiB.
 * @file_bytes: size of the input file, at least one block; 0: 16 MiB.
 *              A pass is one dd invocation: the output file opened with
 *              O_TRUNC (its pages freed), then the whole input file
 *              copied, so page-cache pages are allocated as in a real run
 *              while the host memory stays warm, and every timed run does
 *              the same work (events per MiB independent of @repeat).
 * @repeat: timed runs per row, 1 .. 100, interleaved across rows so drift
 *          hits all alike; the best is reported; 0: 9.
 * @progress: NULL, or called before each timed run (@run counts from 1).
 * @kmap_strict: (appended) every case's machine in this strict kmap mode
 *          (enum km_kmap_strict), the baseline never: what the mode costs.
 * @buffer_page_aligned: (appended) dd's buffer starts on a page boundary,
 *          as GNU coreutils dd aligns it (src/dd.c: ptr_align(ibuf,
 *          page_size)), so a block of N pages spans N; false: busybox
 *          dd's xmalloc(bs) with glibc, 8 bytes into a page (N + 1).
 */
struct km_dd_opts {
	const unsigned long *block_sizes;
	size_t nblock_sizes;
	uint64_t total_bytes;
	uint64_t file_bytes;
	unsigned int repeat;
	void (*progress)(void *arg, unsigned long block_size, unsigned int run,
			 unsigned int runs);
	void *progress_arg;
	enum km_kmap_strict kmap_strict;
	bool buffer_page_aligned;
};

/**
 * km_dd_run() - the seed's dd: `dd if=A of=B bs=N` between two tmpfs files
 * through a user buffer of N bytes, on each case, interleaved with a
 * baseline. Every block is a read(2) of A (km_shmem_read_iter():
 * copy_page_to_iter() through the variant's copy_to_user, under
 * kmap_atomic() of the page-cache page with CONFIG_HIGHMEM) and a write(2)
 * of B (km_generic_perform_write(): fault-in, kmap_atomic(), atomic
 * copy_from_user through the variant); kmodel/filemap.h.
 *
 * The baseline ("memcpy") runs the same loop on the bbw profile (all
 * lowmem), finding and allocating page-cache pages alike, but moves the
 * bytes with plain memcpy() between host addresses resolved once: no
 * fault-in, kmap, access_ok or variant. A row's ratio is its MB/s over the
 * baseline's: what the modelled uaccess path costs over the bare copies.
 *
 * The table ("dd") has, for each block size in turn, the baseline's row
 * and then one row per case in order. Columns: variant, builtin (a variant compiled into
 * libkmodel: flattened with the model calls under it -- one of yours is
 * not, so its MB/s is not comparable one to one), machine, kmap,
 * kmap_strict (off, strict, force-map), highmem,
 * fast_gup, block_size, stalled, error, host_mb_s, memcpy_mb_s, ratio,
 * spread_pct (median over best timed run), reports (BUG/WARN reports in
 * the last timed run), reports_per_mib, then every event counter per MiB
 * copied, then the last timed run's reports by code (KM_COL_REPORT,
 * "reports_<code>", as km_iperf_run()'s). A stalled row -- the atomic copy
 * of the write path copies nothing even after a fault-in, so the kernel
 * would retry for ever (gup_kmap_fixed without fast GUP) -- has no speeds
 * and nothing per MiB; its reports and reports_<code> count those
 * recorded until the stall (in the timed run that stalled, or from the
 * machine's start when the warm-up pass before the timed runs did). A
 * failed row -- its read(2) or write(2) returned an error, where busybox
 * dd exits ("read error: Bad address": a variant whose copy_to_user copies
 * nothing), or the counted run found a wrong byte in dd's buffer after a
 * read(2) or in B ("B differs from A at byte X (want 0x.., got 0x..)"),
 * checked on the host without an event -- has the same, and says why in
 * its error column.
 *
 * Use km_dd_run(); km_dd_run_sized() takes @opts_size and @case_size,
 * sizeof(struct km_dd_opts) and sizeof(struct km_dd_case) as the caller was
 * compiled (at least KM_DD_OPTS_MIN_SIZE and KM_DD_CASE_MIN_SIZE; @cases is
 * an array of @n elements of @case_size bytes).
 *
 * Return: 0 and *@out (free with km_table_free()); -EINVAL for a bad
 * option or size, a NULL case field or argument, or input and output files
 * and buffer that do not fit in a machine's RAM (the baseline's bbw too:
 * km_last_error() says which and names the largest file that fits);
 * -ENOMEM when a machine runs out of simulated memory; -EFAULT when the
 * baseline's dd fails. Also -EFAULT, with *@out set (every row; free it),
 * when rows failed (error column) or their teardown found problems: the
 * task exited with preempt_count or pagefault_disabled raised or a
 * kmap_local slot held, or the machine leaked; km_last_error() names each
 * such row with its cause or its teardown's reports by code (the rows'
 * error and teardown columns too). On every other error *@out is NULL: a
 * caller tells the two -EFAULTs apart by it (and frees *@out whenever set).
 */
KM_API int km_dd_run_sized(const struct km_dd_opts *opts, size_t opts_size,
			   const struct km_dd_case *cases, size_t case_size, size_t n,
			   struct km_table **out);
/** The members of the first versioned km_dd_opts and km_dd_case (SONAME 2). */
#define KM_DD_OPTS_MIN_SIZE (offsetof(struct km_dd_opts, progress_arg) + sizeof(void *))
#define KM_DD_CASE_MIN_SIZE \
	(offsetof(struct km_dd_case, kmap) + sizeof(enum km_kmap_flavour))
/** km_dd_run() - km_dd_run_sized() with this header's sizes. */
static inline int km_dd_run(const struct km_dd_opts *opts, const struct km_dd_case *cases,
			    size_t n, struct km_table **out)
{
	return km_dd_run_sized(opts, sizeof(struct km_dd_opts), cases, sizeof(struct km_dd_case),
			       n, out);
}

/* ---- iperf ----------------------------------------------------------------------- */

/**
 * struct km_iperf_opts - Zero fields take the defaults.
 * @packets: per timed run; 0: 100000.
 * @mss: TCP payload bytes, 1 .. 65469; 0: 1448 (1514-byte frames).
 * @maxpacket: bulk-out wMaxPacketSize; 0: 512. The speed is the one with
 *             that bulk maxpacket (512 high, 1024 super, else full); the
 *             variant must allow the pair (km_usbnet_variant_allows()).
 * @repeat: timed runs, best kept; 0: 9. @progress as for dd (@block_size 0).
 * @no_checker: run with the skb sharing checker off (km_skb_set_checker()):
 *             what it costs; the simulated kernel does the same either way.
 * @rx: (appended) also a "tcp-rx" row per variant with a receive side (a
 *             framing; the others have none): the remote host's TCP
 *             segments, framed by the device, come in through usbnet's
 *             receive path of the variant's era and its rx_fixup
 *             (km_usbnet_rx_urb()), every second one acknowledged by a
 *             66-byte ACK out through its tx_fixup; frames_ok counts the
 *             segments passed up byte for byte, and the receive path's
 *             work is in the row's events (urbs, skb_allocs, eth_rx_*,
 *             memcpy_bytes, ...). The MSS's frame must fit one URB.
 * @on_traffic, @on_traffic_arg: (appended) NULL, or called with a traffic
 *             kind's name before its rows' setup and warm-up (@progress
 *             comes before each timed run after): where a tool that runs
 *             a plugin's variant in a child tells which traffic kind it
 *             died in.
 * @traffic: (appended) NULL for every traffic kind, or the name of one
 *             ("tcp", "tcp+tap", "udp", "tcp-rx" -- the last with @rx):
 *             only its rows (another name: -EINVAL). A tool whose child
 *             died in one kind runs the kinds before it again, one each.
 * Members are only appended: km_iperf_run() passes its size, and members
 * past it take their defaults.
 */
struct km_iperf_opts {
	unsigned long packets;
	unsigned int mss;
	unsigned int maxpacket;
	unsigned int repeat;
	void (*progress)(void *arg, const char *traffic, unsigned int run, unsigned int runs);
	void *progress_arg;
	bool no_checker;
	/* appended */
	bool rx;
	void (*on_traffic)(void *arg, const char *traffic);
	void *on_traffic_arg;
	const char *traffic;
};

/**
 * km_iperf_run() - an iperf-like stream (TCP, TCP with a packet tap, UDP)
 * through usbnet and each variant's tx_fixup to its device model, which
 * parses every frame back; each frame is compared with what was sent.
 * Variants run interleaved per traffic kind. The table ("iperf") has one
 * row per traffic kind and variant: variant, builtin, traffic, mss,
 * maxpacket, speed, packets, frames_ok, copies_per_1000 (skb copies),
 * host_ns_per_packet, mpps, spread_pct, reports, first_mismatch (the first
 * frame of the timed runs that did not verify: packet, lengths and first
 * differing byte, or that no frame came; none when all verified), then
 * every event counter per packet (skb_copy_bytes_per_packet: bytes the
 * copies copied), then the best run's reports by code (KM_COL_REPORT,
 * "reports_<code>": every code but the aggregate KM_R_SKB_SHARING, each
 * sharing report counting under its rule's code).
 * Use km_iperf_run(); km_iperf_run_sized() takes @opts_size,
 * sizeof(struct km_iperf_opts) as the caller was compiled (at least
 * KM_IPERF_OPTS_MIN_SIZE).
 * Return: 0 and *@out; -EINVAL (bad option or size, NULL argument, a
 * variant that does not allow the endpoint); -EIO when frames did not
 * verify; -EFAULT when a row's teardown finds problems (leaks: the row's
 * teardown column); with either the table is still returned and
 * km_last_error() names every such row (with its counts); a probe's
 * error. On every other error *@out is NULL.
 */
KM_API int km_iperf_run_sized(const struct km_iperf_opts *opts, size_t opts_size,
			      const struct km_usbnet_variant *const *variants, size_t n,
			      struct km_table **out);
/** The members of the first versioned km_iperf_opts (SONAME 2). */
#define KM_IPERF_OPTS_MIN_SIZE (offsetof(struct km_iperf_opts, no_checker) + sizeof(bool))
/** km_iperf_run() - km_iperf_run_sized() with this header's size. */
static inline int km_iperf_run(const struct km_iperf_opts *opts,
			       const struct km_usbnet_variant *const *variants, size_t n,
			       struct km_table **out)
{
	return km_iperf_run_sized(opts, sizeof(struct km_iperf_opts), variants, n, out);
}

/**
 * km_scenario_host_insn() - does this host count the scenarios' instructions?
 *
 * 0 when km_dd_run() and km_iperf_run() fill their columns of the host's
 * retired user-mode instructions (host_minsn_per_mib, host_insn_per_packet:
 * perf_event_open(2), PERF_COUNT_HW_INSTRUCTIONS, exclude_kernel), else the
 * negative errno perf_event_open(2) gave (-ENOENT: no hardware counter, as
 * in a VM without a virtual PMU; -EACCES: perf_event_paranoid) and the
 * columns stay empty.
 */
KM_API int km_scenario_host_insn(void);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_SCENARIO_H */
