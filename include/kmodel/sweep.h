/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/sweep.h - the exhaustive tx_fixup sweep behind `kmodel-sweep asix`:
 * every state of a space of sk_buffs handed to every usbnet variant, each
 * run through the variant's tx_fixup, the usbnet URB rules of its era,
 * bulk-out segmentation and its device model, with every finding recorded
 * by rule and one minimal example state per rule.
 *
 * A state is (variant, endpoint, sharing, len, headroom, tailroom):
 *  - endpoint: (speed, maxpacket) of {(full, 8), (full, 64), (high, 512),
 *    (super, 1024)} that the variant allows (km_usbnet_variant_allows());
 *  - sharing: what else holds the skb the driver gets (enum km_sweep_sharing);
 *  - len 0..1518 (tcp_clone: 66..1518), headroom 0..64, tailroom 0..64
 *    exactly (km_build_skb()) and "default" (alloc_skb(headroom + len): the
 *    kmalloc-rounded room). The quick space: len up to 2 x maxpacket + 8,
 *    head- and tailroom 0..8 (and default).
 * Rules (a finding counts the states that broke the rule):
 *  - each report code of the machine by its name (km_report_code_name():
 *    "skb_write_cloned", "skb_change_shared", "usb_protocol", ...), except
 *    KM_R_USB_NO_ZLP, which is "zlp_stall" (the transfer ends on a packet
 *    boundary without a ZLP: the device waits); "skb_store_shared" is a
 *    plain C store the checker cannot see (not through an accessor) into
 *    bytes of a cloned or shared buffer it forbids the driver's skb to
 *    write, found by comparing them around usbnet's start_xmit
 *    (kmodel/skb.h, the checker section);
 *  - "frame_mismatch": the device did not deliver exactly the frame sent
 *    (for len 0: nothing, as the AX88772 whose zero length is its pad
 *    word, or one empty frame, as a device whose framing carries one);
 *  - "other_holder_corrupted": bytes or pointers another holder owns
 *    changed (the TCP original's payload, the tap clone's frame, the
 *    pktgen skb's data and len); a holder whose skb the driver freed (a
 *    reference it did not own: a double free) is not compared or freed
 *    again but counted as "skb_refcount", the double free its own
 *    kfree_skb() would be;
 *  - "leak": an sk_buff or data buffer left alive after the state.
 * The checker's report messages are never formatted (counted only).
 */
#ifndef KMODEL_SWEEP_H
#define KMODEL_SWEEP_H

#include <kmodel/usb.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum km_sweep_sharing - what else holds the skb the driver gets.
 * @KM_SWEEP_PRIVATE: nothing ("private").
 * @KM_SWEEP_TCP_CLONE: a TCP clone whose original released its header
 *   and stays queued (dataref 0x10002): the original owns the payload, the
 *   clone its headers ("tcp_clone"; the headers are 66 bytes: Ethernet,
 *   IPv4, TCP with timestamps). Its states start at len 66 (no payload: a
 *   FIN); a shorter frame is no TCP segment, so the quick space at
 *   maxpacket 8 (len up to 24) has no tcp_clone state.
 * @KM_SWEEP_HDR_CLONED: a plain clone (a packet tap's) holds the whole
 *   frame (dataref 2: "header_cloned").
 * @KM_SWEEP_SHARED: the same struct is held twice (users 2, pktgen with
 *   IFF_TX_SKB_SHARING): its data pointer, len and bytes belong to the
 *   other holder too ("shared").
 */
enum km_sweep_sharing {
	KM_SWEEP_PRIVATE = 0,
	KM_SWEEP_TCP_CLONE,
	KM_SWEEP_HDR_CLONED,
	KM_SWEEP_SHARED,
	KM_SWEEP_SHARING_COUNT
};

/** "private", "tcp_clone", "header_cloned", "shared"; NULL otherwise. */
KM_API const char *km_sweep_sharing_name(enum km_sweep_sharing s);

/** Tailroom value of a state that takes alloc_skb()'s rounded room. */
#define KM_SWEEP_TAIL_DEFAULT (-1)

/**
 * struct km_sweep_state - one state of the space.
 * @tailroom: bytes, or KM_SWEEP_TAIL_DEFAULT.
 * @tail_bytes: the tailroom the skb had (== @tailroom unless default).
 */
struct km_sweep_state {
	enum km_usb_speed speed;
	unsigned int maxpacket;
	enum km_sweep_sharing sharing;
	unsigned int len;
	unsigned int headroom;
	int tailroom;
	unsigned int tail_bytes;
};

/** The order minimal examples follow: len, headroom, tailroom (default
 *  last), sharing, maxpacket. Negative, 0 or positive as strcmp(). */
KM_API int km_sweep_state_cmp(const struct km_sweep_state *a, const struct km_sweep_state *b);

/** The order km_sweep_run() runs one variant's states in, whatever the
 *  shard (each shard's states in this order): endpoint (full/8, full/64,
 *  high/512, super/1024; another after them), sharing, len, headroom,
 *  tailroom (default first). The first state of a crash among shards. */
KM_API int km_sweep_state_run_cmp(const struct km_sweep_state *a,
				  const struct km_sweep_state *b);

/** Most rules a variant can have findings for. */
#define KM_SWEEP_RULES_MAX 48

/** One rule broken: @count states, the smallest (km_sweep_state_cmp()) in
 *  @example. @rule is a static string. Frozen, as struct
 *  km_sweep_variant_result and struct km_sweep_state (a result holds
 *  arrays of them). */
struct km_sweep_finding {
	const char *rule;
	uint64_t count;
	struct km_sweep_state example;
};

/** The findings of one variant, in the order of the rules. */
struct km_sweep_variant_result {
	const char *name;
	uint64_t states;
	size_t nfindings;
	struct km_sweep_finding findings[KM_SWEEP_RULES_MAX];
};

/**
 * struct km_sweep_config - zero means default.
 * @quick: the reduced space (see above).
 * @shard, @shards: cover the @shard-th (0-based) of @shards disjoint parts
 *   (0 shards: all). The parts interleave rows of headroom x tailroom
 *   states, so every part gets a share of every variant and length.
 * @variants: NULL-terminated; NULL: km_usbnet_variants().
 * @sharings: bit (1 << enum km_sweep_sharing) per sharing to run; 0: all.
 * @progress: called every few hundred thousand states with the states done
 *   and the shard's total (may be NULL); @progress_arg is passed back.
 * @on_state, @on_state_arg: (appended) NULL, or called before each state
 *   with its variant and the state (@tail_bytes not yet set): where a tool
 *   that runs a plugin's variant in a child tells which state it crashed
 *   in, as struct km_sweep_rx_config's.
 */
struct km_sweep_config {
	bool quick;
	unsigned int shard, shards;
	const struct km_usbnet_variant *const *variants;
	unsigned int sharings;
	void (*progress)(void *arg, uint64_t done, uint64_t total);
	void *progress_arg;
	/* appended members (versioning: km_sweep_run_sized()) */
	void (*on_state)(void *arg, const struct km_usbnet_variant *v,
			 const struct km_sweep_state *st);
	void *on_state_arg;
};
/** The smallest config size km_sweep_run_sized() takes: the members of
 *  the first version. */
#define KM_SWEEP_CONFIG_MIN_SIZE \
	(offsetof(struct km_sweep_config, progress_arg) + sizeof(void *))

/**
 * struct km_sweep_result - what km_sweep_run() found.
 * @states: states run (this shard's).
 * @seconds: host time they took (CLOCK_MONOTONIC).
 * @variants: @nvariants results, in the order of the variants.
 * @cpu_seconds: the calling thread's CPU time over the same run
 *   (CLOCK_THREAD_CPUTIME_ID): states per core-second on a busy host.
 */
struct km_sweep_result {
	uint64_t states;
	double seconds;
	size_t nvariants;
	struct km_sweep_variant_result *variants;
	double cpu_seconds;
};

/**
 * km_sweep_run() - run the sweep (one thread; machines of its own, one per
 * variant and endpoint, so sweeps may run in parallel threads).
 * Return: 0 and *@out (free with km_sweep_result_free()), or -EINVAL (a
 * NULL @out, @shard >= @shards, a variant that fails
 * km_usbnet_variant_check()) or the first setup error (km_last_error()).
 */
KM_API int km_sweep_run_sized(const struct km_sweep_config *cfg, size_t cfg_size,
			      struct km_sweep_result **out);
/** km_sweep_run() - km_sweep_run_sized() with the caller's config size
 *  (members past it take their defaults; below KM_SWEEP_CONFIG_MIN_SIZE:
 *  -EINVAL). */
static inline int km_sweep_run(const struct km_sweep_config *cfg, struct km_sweep_result **out)
{
	return km_sweep_run_sized(cfg, sizeof(struct km_sweep_config), out);
}
KM_API void km_sweep_result_free(struct km_sweep_result *r);
/** States of the whole space of @cfg (@cfg_size bytes of it; all shards),
 *  or 0 for a bad @cfg. Use km_sweep_space_size(). */
KM_API uint64_t km_sweep_space_size_sized(const struct km_sweep_config *cfg, size_t cfg_size);
static inline uint64_t km_sweep_space_size(const struct km_sweep_config *cfg)
{
	return km_sweep_space_size_sized(cfg, sizeof(struct km_sweep_config));
}
/** The finding of @r for @rule, or NULL. A program that drives the sweep
 *  checks one rule with it (kmodel-sweep --fail-on-findings checks all). */
KM_API const struct km_sweep_finding *km_sweep_find(const struct km_sweep_variant_result *r,
						    const char *rule);

/**
 * km_sweep_replay() - run the one state @st of variant @v as km_sweep_run()
 * does and write to @out what happened: the frame the device got, the URB
 * (length, URB_ZERO_PACKET), usbnet's tx counters, every report with its
 * message, and the findings the sweep counts for it. Return: the number of
 * findings (>= 0), or -EINVAL (@st not a state of the space).
 */
KM_API int km_sweep_replay(const struct km_usbnet_variant *v, const struct km_sweep_state *st,
			   FILE *out);

/* ---- the receive sweep: kmodel-sweep rx ------------------------------------ */

/**
 * enum km_sweep_rx_mutation - what a state does to a valid transfer: the
 * malformed neighbours one byte (or a little more) away from it. On the
 * first frame's length word (KM_FRAMING_LENGTH) or descriptor
 * (KM_FRAMING_AX88179), or the fields a KM_FRAMING_ENCODER's hook names
 * (struct km_framing_layout: its length; its count, one too many, for
 * copy_disagrees; a field it leaves out: that state is the valid stream):
 * @KM_SWEEP_RX_VALID: nothing;
 * @KM_SWEEP_RX_LEN_PLUS1, @KM_SWEEP_RX_LEN_MINUS1, @KM_SWEEP_RX_LEN_PLUS8:
 *   the length off by +1, -1, +8 (an inverted copy follows it: only the
 *   length is wrong);
 * @KM_SWEEP_RX_COPY_DISAGREES: the AX88772's inverted copy off by one bit
 *   (a KM_FRAMING_LENGTH framing without @inverted_copy has no such
 *   state: the space leaves it out); the AX88179's packet count (rx_hdr)
 *   one too many;
 * @KM_SWEEP_RX_TRUNCATED: the transfer 2 bytes short (it ends inside the
 *   last header, or inside rx_hdr);
 * @KM_SWEEP_RX_OFFSET_PAST_END: (appended) KM_FRAMING_AX88179 only (the
 *   other framings have no such state): rx_hdr's hdr_off is the
 *   transfer's length, its descriptors begin just past the data (what
 *   57bc3d3ae8c1's "pkt_cnt * 4 + hdr_off > skb->len" refuses).
 */
enum km_sweep_rx_mutation {
	KM_SWEEP_RX_VALID = 0,
	KM_SWEEP_RX_LEN_PLUS1,
	KM_SWEEP_RX_LEN_MINUS1,
	KM_SWEEP_RX_LEN_PLUS8,
	KM_SWEEP_RX_COPY_DISAGREES,
	KM_SWEEP_RX_TRUNCATED,
	KM_SWEEP_RX_OFFSET_PAST_END,
	KM_SWEEP_RX_MUTATION_COUNT
};

/**
 * enum km_sweep_rx_split - where the device ends a bulk-in transfer inside
 * its stream of frames (KM_FRAMING_LENGTH only; the AX88179 and a
 * KM_FRAMING_ENCODER's device bundle whole frames per transfer): beyond these, every transfer ends at rx_urb_size.
 * @KM_SWEEP_RX_WHOLE: the stream in as few transfers as rx_urb_size allows;
 * @KM_SWEEP_RX_SPLIT_HEADER: a transfer ends half way into the last
 *   frame's length word (2 bytes of 4, 1 of 2; a suffix's word follows its
 *   frame), the rest follows in the next;
 * @KM_SWEEP_RX_SPLIT_FRAME: a transfer ends in the middle of the last frame.
 * @KM_SWEEP_RX_FILL_UNDER, @KM_SWEEP_RX_FILL_EXACT, @KM_SWEEP_RX_FILL_OVER
 *   (every framing, one row per endpoint): @frames - 1 frames of @len 1518
 *   and a last one whose length ends the stream at rx_urb_size - 1, at
 *   rx_urb_size, or just past it (as near as the framing's pad allows).
 *   Past it, a KM_FRAMING_LENGTH stream is cut at rx_urb_size; the other
 *   framings' devices send as many whole frames as fit one transfer, the
 *   rest in the next. A mutation changes the first frame's length word
 *   (KM_FRAMING_LENGTH) or the last transfer's fields.
 */
enum km_sweep_rx_split {
	KM_SWEEP_RX_WHOLE = 0,
	KM_SWEEP_RX_SPLIT_HEADER,
	KM_SWEEP_RX_SPLIT_FRAME,
	KM_SWEEP_RX_FILL_UNDER,
	KM_SWEEP_RX_FILL_EXACT,
	KM_SWEEP_RX_FILL_OVER,
	KM_SWEEP_RX_SPLIT_COUNT
};

/** "valid", "len+1", "len-1", "len+8", "copy_disagrees", "truncated",
 *  "offset_past_end"; NULL otherwise. */
KM_API const char *km_sweep_rx_mutation_name(unsigned int m);
/** "whole", "split_header", "split_frame", "urb_fill-1", "urb_fill",
 *  "urb_fill+1"; NULL otherwise. */
KM_API const char *km_sweep_rx_split_name(unsigned int s);

/**
 * struct km_sweep_rx_state - one state of the receive sweep: @frames
 * frames of @len bytes each (their bytes a pattern by offset and frame),
 * framed by the variant's device (kmodel/usb.h, struct km_framing), the
 * @mutation applied, cut into bulk-in transfers by @split and rx_urb_size,
 * received on an endpoint of @speed/@maxpacket.
 */
struct km_sweep_rx_state {
	enum km_usb_speed speed;
	unsigned int maxpacket;
	unsigned int len;
	unsigned int frames;
	unsigned int mutation;
	unsigned int split;
};

/** The order minimal examples follow: len, frames, mutation, split,
 *  maxpacket. */
KM_API int km_sweep_rx_state_cmp(const struct km_sweep_rx_state *a,
				 const struct km_sweep_rx_state *b);
/** The order km_sweep_rx_run() runs one variant's states in, whatever the
 *  shard: endpoint (full/64, high/512, super/1024; another after them);
 *  its rows of lengths (len, frames, mutation, split) before its fill row
 *  (mutation, split: a fill's frames follow from its split). */
KM_API int km_sweep_rx_state_run_cmp(const struct km_sweep_rx_state *a,
				     const struct km_sweep_rx_state *b);

struct km_sweep_rx_finding {
	const char *rule;
	uint64_t count;
	struct km_sweep_rx_state example;
};

struct km_sweep_rx_variant_result {
	const char *name;
	uint64_t states;
	size_t nfindings;
	struct km_sweep_rx_finding findings[KM_SWEEP_RULES_MAX];
};

/**
 * struct km_sweep_rx_result - what km_sweep_rx_run() found: as struct
 * km_sweep_result, with receive states.
 */
struct km_sweep_rx_result {
	uint64_t states;
	double seconds, cpu_seconds;
	size_t nvariants;
	struct km_sweep_rx_variant_result *variants;
};

/**
 * struct km_sweep_rx_config - the receive sweep's space and this run's part.
 * @size: sizeof(struct km_sweep_rx_config) as the caller was compiled.
 * @quick: the reduced space: len 14..20, 58..66, maxpacket - 4 .. + 4 and
 *         1510..1518 instead of 14..1518.
 * @shard, @shards: this run covers the rows (variant, endpoint, len) whose
 *         index % @shards is @shard (0: one shard).
 * @variants: NULL-terminated; NULL: km_usbnet_rx_variants(). A variant
 *         without a framing (no receive side) is refused (-EINVAL).
 * @progress, @progress_arg: as struct km_sweep_config's.
 * @on_state, @on_state_arg: (appended) NULL, or called before each state
 *         with its variant and the state: where a tool that runs a plugin's
 *         variant in a child tells which state it crashed in.
 *
 * The space, per variant: each endpoint of full/64, high/512 and
 * super/1024 it allows; len as above; 1..3 frames back to back; each
 * mutation; each split its framing has. Per state the transfers go through
 * km_usbnet_rx_urb() on a machine of their own, and the findings are: each
 * report code the state raised (rx_read_past_urb, rx_no_progress,
 * skb_over_panic, ...); frame_mismatch (in a valid state, a frame passed up
 * that is not the next sent frame, allowing the framing's trailing pad);
 * malformed_frame_passed_up (the same in a malformed state: bytes the device
 * did not send as a frame went up the stack); frame_lost (a valid state,
 * but fewer sent frames passed up than sent); leak (skbs alive after).
 */
struct km_sweep_rx_config {
	size_t size;
	bool quick;
	unsigned int shard, shards;
	const struct km_usbnet_variant *const *variants;
	void (*progress)(void *arg, uint64_t done, uint64_t total);
	void *progress_arg;
	/* appended */
	void (*on_state)(void *arg, const struct km_usbnet_variant *v,
			 const struct km_sweep_rx_state *st);
	void *on_state_arg;
};

/** Run (this shard of) the receive sweep; *@out (km_sweep_rx_result_free()).
 *  Return: 0, -EINVAL (bad config, a variant without a receive side). */
KM_API int km_sweep_rx_run(const struct km_sweep_rx_config *cfg, struct km_sweep_rx_result **out);
KM_API void km_sweep_rx_result_free(struct km_sweep_rx_result *r);
/** States of the whole space of @cfg (all shards). */
KM_API uint64_t km_sweep_rx_space_size(const struct km_sweep_rx_config *cfg);
/** The finding of @r for @rule, or NULL. A program that drives the sweep
 *  checks one rule with it (kmodel-sweep --fail-on-findings checks all). */
KM_API const struct km_sweep_rx_finding *km_sweep_rx_find(
	const struct km_sweep_rx_variant_result *r, const char *rule);

/**
 * km_sweep_rx_replay() - run the one state @st of variant @v as the sweep
 * does and write to @out what happened: each transfer's bytes (length),
 * each frame passed up (length, whether it is the sent frame), usbnet's
 * counters, every report with its message, and the findings the sweep
 * would count for it. Return: the number of findings (>= 0), or -EINVAL.
 */
KM_API int km_sweep_rx_replay(const struct km_usbnet_variant *v, const struct km_sweep_rx_state *st,
			      FILE *out);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_SWEEP_H */
