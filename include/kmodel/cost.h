/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/cost.h - predict time on a target board from counted events.
 *
 * A cost profile (a GKeyFile .ini, data/profiles/ in the source tree,
 * share/kmodel/profiles/ once installed) gives, for one target, the CPU
 * clock, the cost of each event kind of struct km_events, the bandwidth of
 * copies and sets by working set (against its L1 and L2 sizes), the
 * slab-debug charges and, optionally, the USB host side of the link that
 * bounds a network stream (the wire is the device's:
 * km_usbnet_dev_wire_bits_per_s()). Every value carries its source as the comment line above its key
 * -- a datasheet, a published measurement, a kernel comment, a derivation
 * from them -- or, at the start of that comment, `calibrated: <figure>`: a
 * value fitted to that published figure, which then no longer counts as
 * predicted.
 *
 * An event's cost in cycles is the instructions of its kernel path times
 * the target CPU's cycles per instruction, plus the profile's own [cycles]
 * value for it (what the target pays beyond those instructions: a DRAM
 * line, QEMU's TLB refills, a fitted residual). The instruction counts are
 * one table shared by every profile (data/profiles/kernel-paths.ini, a
 * group per kernel version): the same kernel path has one count whatever
 * CPU runs it.
 *
 * km_cost_predict() turns a snapshot of events into cycles and seconds,
 * with the share of each event kind. Units: cycles of the profile's CPU
 * clock ([cpu] clock_hz); [bandwidth] in bytes per cycle; [memory] in
 * cycles per cache line; seconds; bytes.
 *
 * Groups and keys (every one listed here required unless said otherwise,
 * no other group or key accepted, none given twice; a number is decimal --
 * digits, an optional fraction and exponent -- and >= 0):
 *  [profile]   name (A-Z a-z 0-9 . _ + -, not empty: it goes into
 *              plots and tables), summary (strings, no comment needed)
 *  [cpu]       clock_hz (> 0)
 *  [kernel]    (optional, all three or none) version: the group of the
 *              paths table for the kernel the target runs (e.g. v5.7);
 *              paths: that table, a name looked up next to the profile
 *              and then as profiles are ("kernel-paths"), or a path
 *              (relative: to the profile's directory);
 *              cycles_per_instruction: the CPU's rate on kernel code.
 *              Without it no instruction is charged (a profile that prices
 *              whole events in [cycles], as the host's does).
 *  [cache]     l1_bytes (> 0), l2_bytes (>= 0: 0 for a core without
 *              L2), line_bytes (a power of two in 16 .. 256, a machine's
 *              rule for L1_CACHE_BYTES): the data caches, taken to replace
 *              a random line on each allocation, L1 allocating on read
 *              misses only and L2 on read and write misses unless the
 *              optional keys below say otherwise
 *  [bandwidth] copy_l1, set_l1 (> 0): bytes per cycle of the copy loop
 *              (memcpy, the uaccess copies, skb copies) and of memset with
 *              every line in L1 -- the CPU's own rate
 *  [memory]    read_l2_cycles: the stall of a load whose line misses L1 and
 *              hits L2; read_mem_cycles: of one whose line comes from DRAM;
 *              write_mem_cycles: the DRAM's time to take one line of
 *              streaming stores (they drain behind the copy loop, so a
 *              copy costs the slower of the two) -- all per line
 *  [cycles]    one key per priced event of struct km_events (syscalls,
 *              page_faults, ..., eth_rx_frames: see data/profiles/): the
 *              cycles beyond the path's instructions
 *  [slab_debug] enabled (0 or 1), alloc_cycles_per_byte (kmalloc under
 *              DEBUG_SLAB: check_poison_obj() and the POISON_INUSE fill),
 *              free_cycles_per_byte (kfree: the POISON_FREE fill),
 *              skb_head_bytes (a struct sk_buff of skbuff_head_cache;
 *              a clone adds a head and fclone_ref's 4 bytes: a fast
 *              clone's companion is poisoned with its original)
 *  [link]      (optional) usb_bytes_per_s (> 0): the most the board's
 *              USB host carries of bulk-out, bytes per second. The wire
 *              is not the board's: wire_bits_per_s and
 *              frame_overhead_bytes (this group's keys up to 0.3.0, > 0)
 *              are still read, with a warning on stderr; the predictions
 *              ignore them (the rate is the device's, kmodel/usb.h; the
 *              overhead KM_COST_ETH_WIRE_OVERHEAD), only
 *              km_cost_link_seconds() prices them
 *  [cache] (optional keys) l1_write_allocate, l2_write_allocate (0 or 1;
 *              without them L1 allocates on reads only and L2, when there
 *              is one, on reads and writes); l2_bytes 0: no L2 (its
 *              read_l2_cycles unused)
 *  [bandwidth] (optional) copy_word_l1, set_word_l1 (> 0): bytes per
 *              cycle of the loops that store one word an instruction
 *              (copy_to_user.S before f441882a5229 or with
 *              CPU_USE_DOMAINS, clear_user.S); without them copy_l1, set_l1
 *  [memory]    (optional) write_txn_cycles: DRAM's fixed cycles of one
 *              write transaction whatever its size (<= write_mem_cycles:
 *              a transaction of B bytes costs write_txn_cycles +
 *              (write_mem_cycles - write_txn_cycles) x B / line_bytes);
 *              l2_write_txn_cycles: the L2's cycles of one write
 *              transaction from the write buffer (both 0 without them)
 *  [write_buffer] (optional, all or none) entries (>= 1), entry_bytes (4
 *              .. line_bytes), merge (0 or 1: whether consecutive stores
 *              to an entry's bytes merge into one transaction); without
 *              it stores drain as whole merged lines (0.4.0's pricing).
 *              The pricing takes steady streams: entries is recorded
 *  [kernel]    (optional keys) arch (5, 6 or 7; 7 without it) and
 *              cpu_use_domains (0 or 1; 1 on ARMv5, where
 *              arch/arm/mm/Kconfig's CPU_32v5 selects it, 0 on ARMv7;
 *              without it 1 on ARMv5, else 0); c_cycles_per_instruction
 *              (>= 0): the rate of straight-line kernel C. With it, an
 *              event's "drain" part (below) costs cycles_per_instruction
 *              -- a rate measured over a path that holds an exception
 *              entry and return, which drain the pipeline -- and its
 *              other instructions this rate; without it every
 *              instruction costs cycles_per_instruction
 * Every numeric value may state its uncertainty on a line of its comment:
 * "uncertainty: exact", "uncertainty: range LO .. HI" (two sources that
 * disagree), "uncertainty: assumed LO .. HI" (no source bounds it), or
 * either with "+-P %" for LO .. HI; the range must hold the value. A value
 * without the line is exact. km_cost_profile_sample() draws from them.
 * The paths table: a group per kernel version, in each a key per priced
 * event (its path's instruction count, a decimal number with its source
 * comment); it holds no calibrated value. A group may say based_on=VERSION
 * (with its source comment: why those paths are the same): the events it
 * does not list take that group's counts. An event may instead be given
 * by parts, one key per function, "<event>.<function>" (each with its
 * source comment and uncertainty line; not with the event's own key): it
 * costs their sum, and a sample draws each part on its own
 * (km_cost_profile_part() lists them). The part "<event>.drain" holds
 * the instructions that drain the pipeline (an exception's entry and
 * return, a CP15 write with its isb) or were timed with such a drain
 * (the null syscall's whole path; a measured time in instructions at
 * cycles_per_instruction).
 *
 * The routine that moved a uaccess byte (struct km_events
 * uaccess_asm_to_bytes, ..._from_bytes, ..._clear_bytes: the assembler
 * routines; the rest went through memcpy() and memset()) sets its stores:
 * copy_template.S's memcpy an 8-register stm (32 bytes), memset.S a
 * 4-register stm (16), clear_user.S one word a store (strt or str),
 * copy_to_user.S one word a store with CPU_USE_DOMAINS or before v5.0 and
 * an 8-register stm after f441882a5229 (v5.0) without CPU_USE_DOMAINS.
 * A store to a line not in L1 fills it first when L1 allocates on writes;
 * else it goes to the write buffer as a transaction of its bytes (merged
 * up to an entry's bytes when the buffer merges) to L2 or, for a line no
 * cache holds, to DRAM. The write buffer lets the core run on: a stream
 * costs the slower of the core's loop and the drain. A user buffer that
 * is only written (no copy_from_user reads it back) is never allocated by
 * a cache that allocates on reads only.
 *
 * Copies and sets of a workload with a working set (km_cost_workload):
 * the user side of copy_to_user/copy_from_user/clear_user is the working
 * set, reused; the kernel side streams -- copy_to_user reads a page-cache
 * line from DRAM (allocated in L1 and L2), copy_from_user writes one to
 * DRAM (allocated in L2 only). The working set's lines then miss L1 and L2
 * at the rate random replacement gives when each reuse allocates that many
 * streamed lines: m = 1 - exp(-(streamed + W m) / C) per cache of C lines.
 * Other copies and sets: with a working set, kernel-side memsets (page
 * zeroing) stream to DRAM, except those in lines written moments before
 * (struct km_events clear_slab_warm_bytes and clear_refilled_bytes: a
 * line goes to DRAM once, and that write is charged elsewhere -- to the
 * copy that fills a zeroed page-cache line, or long ago to the slab
 * object), which run at the L1 rate; without a working set (0) every
 * copy and set is in L1.
 */
#ifndef KMODEL_COST_H
#define KMODEL_COST_H

#include <kmodel/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

struct km_cost_profile;

/**
 * km_cost_profile_load() - load and check a cost profile.
 * @name_or_path: a path (it contains a '/' or ends in ".ini"), or a name
 *                looked up as NAME.ini in $KMODEL_PROFILE_DIR, then in the
 *                share/kmodel/profiles of the install libkmodel runs from
 *                (found relative to libkmodel.so, or to the program for the
 *                static library: a relocated prefix finds its own), then in
 *                the datadir configured at build time, then -- only while
 *                libkmodel runs from its build tree -- in the source tree's
 *                data/profiles. km_last_error() lists the directories
 *                searched; km_cost_profile_file() says which file it was.
 * @out: receives the profile; free it with km_cost_profile_free().
 *
 * Refused (-EINVAL, km_last_error() names the file, group and key): a
 * required key missing, a group or key the format does not have, a key
 * given twice in a group (GKeyFile would keep the last; the message gives
 * both lines), a value that is not a decimal number (e.g. "0x10", "inf")
 * or is negative, a value outside its key's rule above (line_bytes,
 * enabled, the "> 0" ones), a key without a comment line above it, or with
 * one that gives no source (empty); in [kernel], a paths table that cannot
 * be found or read, has a count given twice, has no group for the version,
 * or misses a count, or has a calibrated one. A
 * comment whose first line starts with "calibrated:" marks the key as
 * fitted to the figure named after it ("calibrated:" later in a comment
 * is just text).
 * Return: 0, -ENOENT (no such profile), -EINVAL, -ENOMEM.
 */
KM_API int km_cost_profile_load(const char *name_or_path, struct km_cost_profile **out);
/** Free a profile (NULL: no-op). */
KM_API void km_cost_profile_free(struct km_cost_profile *p);
/** The profile's [profile] name and summary, and the file it came from
 *  (as realpath(3) names it at load time: absolute, without "." or ".."
 *  parts, symbolic links resolved; a relative path is taken from the
 *  working directory). Strings live as long as the profile. */
KM_API const char *km_cost_profile_name(const struct km_cost_profile *p);
KM_API const char *km_cost_profile_summary(const struct km_cost_profile *p);
KM_API const char *km_cost_profile_file(const struct km_cost_profile *p);
/** A numeric value of the profile, or a negative number when the group or
 *  key does not exist (every valid value is >= 0). The group
 *  "instructions" holds the paths table's counts for the profile's kernel
 *  (none without a [kernel] group). For a user's own pricing of counted
 *  events, or a report of what a prediction rests on, as
 *  `kmodel-bench reproduce --explain` prints it. */
KM_API double km_cost_profile_value(const struct km_cost_profile *p, const char *group,
				    const char *key);
/**
 * km_cost_profile_calibrated() - the @i-th calibrated value of @p (0 ..):
 * its group, key and the figure it was fitted to (the text after
 * "calibrated:"). Strings live as long as the profile.
 * Return: true, or false when there are no more.
 */
KM_API bool km_cost_profile_calibrated(const struct km_cost_profile *p, unsigned int i,
				       const char **group, const char **key,
				       const char **figure);

/**
 * km_cost_profile_uncertainty() - the @i-th value of @p (0 ..) that
 * states a range: its group (for a paths-table count, the table's version
 * group), key, kind ('r' a range from two sources, 'a' assumed) and
 * bounds. Exact values are not listed. A user checking a profile of their
 * own board lists with it which values its intervals rest on, and which
 * of them are only assumed. Return: true, or false when there are no more.
 */
KM_API bool km_cost_profile_uncertainty(const struct km_cost_profile *p, unsigned int i,
					const char **group, const char **key, char *kind,
					double *lo, double *hi);
/**
 * km_cost_profile_part() - the @i-th part (0 ..) of the kernel paths that
 * @p's paths table gives by function: the event, the function (the key
 * after "<event>.") and its instructions (on a sample, its draw). Strings
 * live as long as the profile. Return: true, or false when there are no
 * more.
 */
KM_API bool km_cost_profile_part(const struct km_cost_profile *p, unsigned int i,
				 const char **event, const char **function, double *instructions);
/**
 * km_cost_profile_part_rate() - the cycles an instruction of the part
 * @function (km_cost_profile_part()) costs on @p: [kernel]
 * cycles_per_instruction for the "drain" part or when the profile
 * gives no c_cycles_per_instruction, else that. 0 for a NULL @p.
 */
KM_API double km_cost_profile_part_rate(const struct km_cost_profile *p, const char *function);
/**
 * km_cost_profile_sample() - a copy of @p whose uncertain values are each
 * drawn uniformly from its range, from a generator seeded with @seed
 * (GLib's Mersenne Twister: the same draws on every host); @seed 0: the
 * stated values. Prediction intervals come from predicting with samples
 * 1 .. N. Free with km_cost_profile_free().
 * Return: 0, -EINVAL (NULL argument).
 */
KM_API int km_cost_profile_sample(const struct km_cost_profile *p, uint64_t seed,
				  struct km_cost_profile **out);
/** The most calibrated values a set of profiles may hold: one, the QEMU
 *  host's speed, which no datasheet gives. */
#define KM_COST_CALIBRATED_MAX 1
/**
 * km_cost_profiles_check_calibrated() - count the calibrated values of
 * @n profiles (one file given twice counts once).
 * Return: the count, or -EINVAL when it is above @max (km_last_error()
 * lists each: profile, group, key, figure).
 */
KM_API int km_cost_profiles_check_calibrated(const struct km_cost_profile *const *profiles,
					     size_t n, unsigned int max);

/** What the scenario knows that the counters do not. */
struct km_cost_workload {
	/** bytes of user buffer that each copy_to_user() writes and the next
	 *  copy_from_user() reads again (dd: its buffer, the block size),
	 *  while the kernel side of those copies streams (dd: page-cache pages
	 *  of files larger than the caches); 0: every copy's lines stay in L1
	 *  (iperf: a frame at a time). */
	uint64_t working_set;
	/* appended members (versioning: km_cost_predict_sized()) */
};
/** The smallest workload size km_cost_predict_sized() takes. */
#define KM_COST_WORKLOAD_MIN_SIZE sizeof(uint64_t)

/** One event kind's share of a prediction. */
struct km_cost_item {
	/** event name, or "copy to user bytes", "copy from user bytes",
	 *  "copy bytes" (the other copies), "clear user bytes", "set bytes"
	 *  (the other sets), "warm set bytes" (the sets in lines written moments
 *  before), "slab debug" */
	const char *what;
	double count;		/**< events (or bytes) */
	double cycles;		/**< total cycles charged for them */
};

#define KM_COST_MAX_ITEMS 64

/** A prediction. */
struct km_cost_result {
	double cycles;		/**< total, at the profile's clock */
	double seconds;		/**< cycles / clock */
	unsigned int n_items;
	struct km_cost_item items[KM_COST_MAX_ITEMS];	/**< the non-zero shares, largest first */
	/* appended members (versioning: km_cost_predict_sized()) */
};
/** The smallest result size the library writes: the first version (struct
 *  km_cost_item and KM_COST_MAX_ITEMS are frozen). */
#define KM_COST_RESULT_MIN_SIZE \
	(offsetof(struct km_cost_result, items) + KM_COST_MAX_ITEMS * sizeof(struct km_cost_item))

/**
 * km_cost_predict_sized() - the time the events @ev (@ev_size bytes of it:
 * the caller's sizeof(struct km_events); members past it count as 0)
 * would take on @p's target: each event kind's count times its [cycles]
 * value; the uaccess copies and sets at the cost of their lines' places
 * for @w's working set (see above), the other copies (memcpy_bytes beyond
 * the uaccess bytes, memmove_bytes, skb_copy_bytes) and sets at the L1
 * rate; with [slab_debug] enabled, its per-byte charges on the bytes
 * kmalloc'ed and kfree'd as 32-bit ARM has them (kmalloc_arm_bytes,
 * kfree_arm_bytes) and on the skb heads allocated, cloned and freed.
 * @w_size and @out_size are the caller's sizes of @w (read up to it;
 * members past it take their defaults) and @out (written up to it; a tail
 * the library does not know is zeroed). Use km_cost_predict(), which
 * passes them.
 * Return: 0, -EINVAL (NULL argument, @w_size below
 * KM_COST_WORKLOAD_MIN_SIZE, @out_size below KM_COST_RESULT_MIN_SIZE).
 */
KM_API int km_cost_predict_sized(const struct km_cost_profile *p, const struct km_events *ev,
				 size_t ev_size, const struct km_cost_workload *w, size_t w_size,
				 struct km_cost_result *out, size_t out_size);
#define km_cost_predict(p, ev, w, out) \
	km_cost_predict_sized((p), (ev), sizeof(*(ev)), (w), sizeof(*(w)), (out), sizeof(*(out)))

/**
 * km_cost_link_seconds() - the link as 0.3.0 priced it: the larger of
 * the wire time of @frames Ethernet frames of @frame_bytes bytes in all
 * (headers and payload, no FCS; each frame adds [link]
 * frame_overhead_bytes, else KM_COST_ETH_WIRE_OVERHEAD) at [link]
 * wire_bits_per_s (else 100000000, the AX88772's 100BASE-TX that 0.3.0's
 * profiles gave) and km_cost_usb_seconds() of @usb_bytes. The predictions
 * price the device's wire instead (km_cost_wire_seconds() and
 * km_cost_usb_seconds()).
 * Kept public for programs written against 0.3.0, which priced the link
 * this way: removing it would break them without a soname change.
 * Return: seconds, or a negative number when @p is NULL or has no [link]
 * group.
 */
KM_API double km_cost_link_seconds(const struct km_cost_profile *p, double frames,
				   double frame_bytes, double usb_bytes);
/**
 * km_cost_usb_seconds() - the time the USB host of @p's [link] group needs
 * for @usb_bytes bytes of bulk-out transfers, at usb_bytes_per_s.
 * Return: seconds, or a negative number when @p is NULL or has no [link]
 * group.
 */
KM_API double km_cost_usb_seconds(const struct km_cost_profile *p, double usb_bytes);
/**
 * km_cost_pipe_bytes_per_s() - the most a bulk-out pipe at @speed ("full",
 * "high", as km_usb_speed_name() names them) with @maxpacket carries,
 * bytes per second, as km_cost_predict_row() prices an iperf row's pipe:
 * the USB 2.0 specification's transactions a (micro)frame (5.8.4, tables
 * 5-9 and 5-10), no faster than @p's [link] usb_bytes_per_s when @p has
 * that group; for another speed the host's rate, or 0 (no pipe bound
 * known; with a host no faster than high speed: the row has no
 * prediction). @p may be NULL (no host cap).
 */
KM_API double km_cost_pipe_bytes_per_s(const struct km_cost_profile *p, const char *speed,
				       unsigned int maxpacket);
/** Bytes each Ethernet frame takes on the wire besides those the driver
 *  hands over: FCS 4, preamble and SFD 8, inter-frame gap 12 byte times
 *  (IEEE 802.3 clauses 3 and 4). */
#define KM_COST_ETH_WIRE_OVERHEAD 24
/**
 * km_cost_wire_seconds() - the time an Ethernet wire of @wire_bits_per_s
 * (a device's: km_usbnet_dev_wire_bits_per_s()) needs for
 * @frames frames of @frame_bytes bytes in all (headers and payload, no
 * FCS), each adding KM_COST_ETH_WIRE_OVERHEAD bytes.
 * Return: seconds, or a negative number when @wire_bits_per_s is not > 0.
 */
KM_API double km_cost_wire_seconds(double wire_bits_per_s, double frames, double frame_bytes);

struct km_table;

/** The profile mapped to a dd machine of kmodel/scenario.h (a name that
 *  starts with "bbw": "beaglebone-white"; with "a15": "cortex-a15-qemu")
 *  or, for NULL, to the iperf run ("beagleboard-xm-debug-slab"). A static
 *  string; NULL, with km_last_error() naming it, for any other machine
 *  (a machine of one's own has no profile mapped: name one). */
KM_API const char *km_cost_profile_for(const char *machine);
/**
 * km_cost_predict_row_sized() - the target throughput the row @row of a dd or
 * iperf table (kmodel/scenario.h) predicts on @p: dd MB/s (10^6 bytes per
 * second) from its events per MiB with the block size as the working set;
 * iperf Mbit/s of payload (TCP: the MSS; UDP: the frame less its 42 bytes
 * of Ethernet, IPv4 and UDP headers) from its events per packet, the slower
 * of the CPU and the link (*@bound: "cpu" or "link"; NULL for dd). The
 * link is the slower of the device's wire (the row's wire_bits_per_s, its
 * device model's: km_cost_wire_seconds(); no wire bound when the row has none)
 * and the bulk-out pipe at the row's speed and maxpacket (USB 2.0 spec
 * 5.8.4, tables 5-9 and 5-10: full speed 19 x 64 bytes a 1 ms frame, high
 * speed 13 x 512 a 125 us microframe; with or without a [link] group),
 * capped by the profile's USB host, [link] usb_bytes_per_s.
 * @res: NULL, or receives the prediction's breakdown (for dd per GiB, for
 * iperf per 100000 packets).
 * @res_size: the caller's sizeof(*@res) (km_cost_predict_row() passes it).
 * Return: the throughput; 0 for a stalled dd row, for an iperf row whose
 * frames did not all verify (frames_ok < packets: e.g. an MSS whose frames
 * the device drops), and for an iperf row
 * above high speed on a profile whose host is no faster (usb_bytes_per_s
 * at most high speed's 53,248,000: a USB 2.0 host runs a SuperSpeed device
 * at high speed, maxpacket 512); a negative errno for a
 * NULL or foreign table, a row out of range or a @res_size below
 * KM_COST_RESULT_MIN_SIZE.
 */
KM_API double km_cost_predict_row_sized(const struct km_cost_profile *p, const struct km_table *t,
					size_t row, const char **bound, struct km_cost_result *res,
					size_t res_size);
static inline double km_cost_predict_row(const struct km_cost_profile *p,
					 const struct km_table *t, size_t row, const char **bound,
					 struct km_cost_result *res)
{
	return km_cost_predict_row_sized(p, t, row, bound, res, sizeof(struct km_cost_result));
}
/** The draws of a prediction interval: profiles km_cost_profile_sample()
 *  seeds 1 .. KM_COST_DRAWS. */
#define KM_COST_DRAWS 256
/**
 * km_cost_predict_row_interval() - the interval of km_cost_predict_row()
 * of @row: the 2.5th and 97.5th percentiles of its prediction on
 * KM_COST_DRAWS draws of @p (km_cost_profile_sample(), seeds 1 ..
 * KM_COST_DRAWS: the same on every host), widened to hold the stated
 * values' prediction; both that prediction when it is 0 (no prediction).
 * Return: 0, or km_cost_predict_row()'s negative errno, -ENOMEM.
 */
KM_API int km_cost_predict_row_interval(const struct km_cost_profile *p, const struct km_table *t,
					size_t row, double *low, double *high);
/**
 * km_cost_table_predict() - append the prediction to a dd table
 * ("predicted_mb_s" and its interval "predicted_low_mb_s",
 * "predicted_high_mb_s") or an iperf table ("predicted_mbit_s",
 * "predicted_low_mbit_s", "predicted_high_mbit_s", "bound"),
 * each row priced with @profile (a name or path; NULL: the profile mapped
 * to the row's machine, km_cost_profile_for(): -EINVAL when a row's
 * machine has none). The memcpy baseline,
 * stalled rows and the iperf rows km_cost_predict_row_sized() returns 0
 * for get no value. Return: 0; -EINVAL (not a dd or iperf table)
 * or a km_cost_profile_load() error, and then no column is added.
 */
KM_API int km_cost_table_predict(struct km_table *t, const char *profile);

/**
 * km_cost_calibrate_host() - write to @path a cost profile named "host"
 * of this machine for the model's own operations: each priced event kind
 * whose model function can be timed alone (kmalloc/kfree, get/put_page,
 * kmap/kunmap of lowmem, gup per call and per page, page allocation) in
 * ns; memcpy and memset within a quarter of L1 (copy_l1, set_l1); the
 * stall of a load from L2 and from memory (a random pointer chase over a
 * quarter of L2 and over the memory size, less one within L1) and the time
 * memory takes a line of stores (memset of the memory size), per line --
 * the memory size 4 x the last-level cache (the highest level of
 * /sys/devices/system/cpu/cpu0/cache, else sysconf's L3, else L2), at
 * least 64 MiB, at most 512 MiB, asked for in transparent huge pages;
 * each value the median of 7 timings; clock_hz 1e9 (a cycle is a
 * nanosecond); what cannot be timed alone costs 0, said in its comment.
 * Numbers are written with a decimal point whatever the process's locale
 * (LC_NUMERIC), so km_cost_profile_load() reads them back anywhere. Takes
 * two or three seconds. @path is opened (created or truncated) before
 * anything is measured, so a path that cannot be written fails at once;
 * when the measuring fails, or its results cannot be (a load from L2 no
 * slower than from L1, or from memory no slower than from L2; a line of
 * memset to memory under twice one in L1: a test that stayed in a cache),
 * @path is removed.
 * Return: 0, -EINVAL, -ENOMEM, -EAGAIN (implausible results: a busy host
 * may do better on another run), or a negative errno of writing @path.
 */
KM_API int km_cost_calibrate_host(const char *path);
/**
 * km_cost_calibrate_host_attempts() - km_cost_calibrate_host(@path),
 * measured again after an implausible result (-EAGAIN: another process
 * took the caches or the memory bus), up to @attempts times in all; each
 * failed attempt but the last is said on stderr, one line with
 * km_last_error(). What kmodel-bench calibrate runs (3 attempts).
 * Return: as km_cost_calibrate_host() of the last attempt; -EINVAL for
 * @attempts 0.
 */
KM_API int km_cost_calibrate_host_attempts(const char *path, unsigned int attempts);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_COST_H */
