// SPDX-License-Identifier: GPL-2.0
/*
 * The receive sweep (kmodel/sweep.h km_sweep_rx_run(), kmodel-sweep rx) on
 * its quick space: the shards add up and merge to the whole; the findings
 * the ports' sources predict are there (and those they rule out are not);
 * --replay and --fail-on-findings.
 */
#include "km_test.h"
#include <kmodel/sweep.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <sys/wait.h>
#include <inttypes.h>

static struct km_sweep_rx_result *run(unsigned int shard, unsigned int shards)
{
	struct km_sweep_rx_config cfg = { .size = sizeof(cfg), .quick = true, .shard = shard,
					  .shards = shards };
	struct km_sweep_rx_result *res = NULL;

	assert_int_equal(km_sweep_rx_run(&cfg, &res), 0);
	return res;
}

static const struct km_sweep_rx_variant_result *variant(const struct km_sweep_rx_result *r,
							const char *name)
{
	for (size_t i = 0; i < r->nvariants; i++)
		if (!strcmp(r->variants[i].name, name))
			return &r->variants[i];
	fail_msg("no variant %s", name);
	return NULL;
}

static uint64_t count(const struct km_sweep_rx_result *r, const char *v, const char *rule)
{
	const struct km_sweep_rx_finding *f = km_sweep_rx_find(variant(r, v), rule);

	return f ? f->count : 0;
}

/* the space: per variant and endpoint, quick lens x 3 frames x 6 mutations
 * x the framing's splits (3 for a length prefix, 1 for the AX88179) */
static void test_space_size(void **state)
{
	struct km_sweep_rx_config cfg = { .size = sizeof(cfg), .quick = true };
	struct km_sweep_rx_config one = cfg;

	(void)state;
	one.variants = (const struct km_usbnet_variant *const[]){ km_usbnet_find("before"), NULL };
	/* before's endpoints full/64 and high/512: the quick bands, each */
	{
		unsigned int full = 0, high = 0;

		for (unsigned int l = 14; l <= 1518; l++) {
			bool band = l <= 20 || (l >= 58 && l <= 66) || l >= 1510;

			full += band || (l + 4 >= 64 && l <= 68);
			high += band || (l + 4 >= 512 && l <= 516);
		}
		/* and per endpoint a fill row: 6 mutations x 3 fills */
		assert_int_equal(km_sweep_rx_space_size(&one),
				 (uint64_t)(full + high) * 3 * 6 * 3 + 2 * 6 * 3);
	}
	assert_true(km_sweep_rx_space_size(&cfg) > km_sweep_rx_space_size(&one));
	/* a variant without a receive side is refused */
	one.variants = (const struct km_usbnet_variant *const[]){ km_usbnet_find("after"), NULL };
	{
		struct km_sweep_rx_result *res = NULL;

		assert_int_equal(km_sweep_rx_run(&one, &res), -EINVAL);
		assert_null(res);
	}
}

/* shards 1..3 of 3 cover the whole space once: states and counts add up */
static void test_shards_add_up(void **state)
{
	struct km_sweep_rx_result *whole = run(0, 1), *part[3];
	uint64_t states = 0;

	(void)state;
	for (unsigned int k = 0; k < 3; k++) {
		part[k] = run(k, 3);
		states += part[k]->states;
	}
	assert_int_equal(states, whole->states);
	for (size_t v = 0; v < whole->nvariants; v++)
		for (size_t f = 0; f < whole->variants[v].nfindings; f++) {
			const struct km_sweep_rx_finding *w = &whole->variants[v].findings[f];
			uint64_t sum = 0;

			for (unsigned int k = 0; k < 3; k++)
				sum += count(part[k], whole->variants[v].name, w->rule);
			assert_int_equal(sum, w->count);
		}
	for (unsigned int k = 0; k < 3; k++)
		km_sweep_rx_result_free(part[k]);
	km_sweep_rx_result_free(whole);
}

/*
 * What the sources say the quick space holds:
 *  - no port loops without progress, none leaks, none panics (asix v4.14's
 *    asix_rx_fixup_internal() too);
 *  - asix v3.5 and sr9800 lose a valid frame split across transfers (both
 *    take "size + offset > skb->len" for "Bad RX Length"), and pass up
 *    whatever length a malformed header claims within the transfer;
 *  - ax88179 mainline (002bba562dd3) passes every frame but the last up
 *    with 2 extra bytes: frame_mismatch in valid states of 2 or 3 frames,
 *    never of 1;
 *  - v5.7 (before e869e7a17798): every frame 2 bytes long, 1 frame too;
 *  - 57bc3d3ae8c1 ("net: usb: ax88179_178a: Fix out-of-bounds accesses in
 *    RX fixup"): before it (v5.7, v5.16) an rx_hdr whose hdr_off points
 *    past the transfer (offset_past_end) makes the loop read descriptors
 *    there, 1 frame or 3; after it ("pkt_cnt * 4 + hdr_off > skb->len":
 *    return 0) and in mainline no state reads past the URB.
 */
static void test_findings(void **state)
{
	struct km_sweep_rx_result *r = run(0, 1);
	static const char *const names[] = { "before", "sr9800", "ax88179", "ax88179-v5.7",
					     "ax88179-v5.16", "ax88179-57bc3d3ae8c1",
					     "asix-v4.14" };

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		assert_int_equal(count(r, names[i], "rx_no_progress"), 0);
		assert_int_equal(count(r, names[i], "leak"), 0);
		assert_int_equal(count(r, names[i], "skb_over_panic"), 0);
	}
	assert_true(count(r, "before", "frame_lost") > 0);
	assert_true(count(r, "sr9800", "frame_lost") > 0);
	assert_true(count(r, "before", "malformed_frame_passed_up") > 0);
	{
		const struct km_sweep_rx_finding *f =
			km_sweep_rx_find(variant(r, "ax88179"), "frame_mismatch");

		assert_non_null(f);
		assert_int_equal(f->example.frames, 2);
		assert_int_equal(f->example.mutation, KM_SWEEP_RX_VALID);
		f = km_sweep_rx_find(variant(r, "ax88179-v5.7"), "frame_mismatch");
		assert_non_null(f);
		assert_int_equal(f->example.frames, 1);
		/* after e869e7a17798 a lone frame is exact */
		f = km_sweep_rx_find(variant(r, "ax88179-v5.16"), "frame_mismatch");
		assert_non_null(f);
		assert_int_equal(f->example.frames, 2);
		/* 57bc3d3ae8c1's out-of-bounds read, flagged before, silent after */
		for (size_t i = 0; i < 2; i++) {
			f = km_sweep_rx_find(variant(r, i ? "ax88179-v5.7" : "ax88179-v5.16"),
					     "rx_read_past_urb");
			assert_non_null(f);
			assert_int_equal(f->example.frames, 1);
			assert_int_equal(f->example.mutation, KM_SWEEP_RX_OFFSET_PAST_END);
		}
		assert_int_equal(count(r, "ax88179-57bc3d3ae8c1", "rx_read_past_urb"), 0);
		assert_int_equal(count(r, "ax88179", "rx_read_past_urb"), 0);
	}
	km_sweep_rx_result_free(r);
}

/*
 * The fill runs (enum km_sweep_rx_split): max-size frames and a last one
 * ending the stream at rx_urb_size - 1, at it and just past it, worked
 * out from the framings:
 *  - AX88772 (asix_rx_fixup() of v3.5: 4-byte header, frames padded to
 *    even; ax88772_bind() rx_urb_size 2048): 1522 + ((4 + L + 1) & ~1),
 *    one 1518-byte frame and L = 520 (2046), 522 (2048), 523 (2050: the
 *    device cuts its byte stream at 2048, 2 bytes follow);
 *  - AX88179 (ax88179_rx_fixup()'s layout: 2-byte pseudo header, frames
 *    padded to 8, two 4-byte descriptors each, 8 bytes of rx_hdr and pad;
 *    rx_urb_size 1024 * 20): 13 * 1528 + align8(2 + L) + 16, L = 590
 *    (20472), 598 (20480), 599 (20488 > 20480: the device sends the 13
 *    frames that fit, 13 * 1528 + 8 = 19872, and the last, 608 + 16 = 624,
 *    in a transfer of its own).
 * v3.5 loses the frame that straddles two URBs ("size + offset >
 * skb->len"); asix_rx_fixup_internal() (v4.14) carries it over; the
 * AX88179 after 57bc3d3ae8c1 passes all 14 up in each.
 */
struct fill_row {
	const char *variant;
	unsigned int split, frames, last;
	unsigned int xfer[2];	/* the transfers' bytes (0: none) */
	int findings;
};

static const struct fill_row fill_rows[] = {
	{ "before", KM_SWEEP_RX_FILL_UNDER, 2, 520, { 2046, 0 }, 0 },
	{ "before", KM_SWEEP_RX_FILL_EXACT, 2, 522, { 2048, 0 }, 0 },
	{ "before", KM_SWEEP_RX_FILL_OVER, 2, 523, { 2048, 2 }, 1 },
	{ "asix-v4.14", KM_SWEEP_RX_FILL_OVER, 2, 523, { 2048, 2 }, 0 },
	{ "ax88179-57bc3d3ae8c1", KM_SWEEP_RX_FILL_UNDER, 14, 590, { 20472, 0 }, 0 },
	{ "ax88179-57bc3d3ae8c1", KM_SWEEP_RX_FILL_EXACT, 14, 598, { 20480, 0 }, 0 },
	{ "ax88179-57bc3d3ae8c1", KM_SWEEP_RX_FILL_OVER, 14, 599, { 19872, 624 }, 0 },
};

static char *replay_str(const char *variant, const struct km_sweep_rx_state *st, int *found)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	*found = km_sweep_rx_replay(km_usbnet_find_any(variant), st, f);
	fclose(f);
	return buf;
}

static void test_urb_fill(void **state)
{
	struct km_logged l = { 0 };
	/* the drivers' netdev_err()s, captured */
	guint id = g_log_set_handler("kmodel", G_LOG_LEVEL_MASK, km_log_capture, &l);

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(fill_rows); i++) {
		const struct fill_row *row = &fill_rows[i];
		struct km_sweep_rx_state st = { .speed = KM_USB_SPEED_HIGH, .maxpacket = 512,
						.len = 1518, .frames = row->frames,
						.split = row->split };
		gchar *want = g_strdup_printf("the last frame fills the URB: %u bytes", row->last);
		char *out;
		int found, xfers = 0;

		out = replay_str(row->variant, &st, &found);
		assert_int_equal(found, row->findings);
		assert_non_null(strstr(out, want));
		for (const char *p = out; (p = strstr(p, " transfer of ")) != NULL; p++) {
			assert_true(xfers < 2 && row->xfer[xfers]);
			assert_int_equal(strtoul(p + strlen(" transfer of "), NULL, 10),
					 row->xfer[xfers]);
			xfers++;
		}
		assert_int_equal(xfers, row->xfer[1] ? 2 : 1);
		if (!strcmp(row->variant, "before") && row->split == KM_SWEEP_RX_FILL_OVER)
			assert_non_null(strstr(l.text, "asix_rx_fixup() Bad RX Length 523"));
		g_free(want);
		free(out);
		/* a fill of another frame count is not a state of the space */
		st.frames++;
		out = replay_str(row->variant, &st, &found);
		assert_int_equal(found, -EINVAL);
		free(out);
	}
	g_log_remove_handler("kmodel", id);
}

/* The sweep's skb checkers, each tripped and not (kmodel/sweep.h: leak,
 * and the skb model's report of a free of a freed skb), by drivers of the
 * AX88772's framing that clone the URB's skb (skb_clone(): users 1, its
 * own struct) and then free the clone once (tidy), never (leaky) or
 * twice (the second kfree_skb() of a freed skb, as
 * net/core/skbuff.c would use after free). rx_fixup returns 0 after the
 * clone, usbnet frees the URB's skb (rx_cleanup), so nothing goes up. */
static int clone_fixup(struct km_usbnet *dev, struct km_skb *skb, int frees)
{
	struct km_skb *c = km_skb_clone(km_current(), skb, KM_GFP_ATOMIC);

	(void)dev;
	for (int i = 0; i < frees && c; i++)
		km_kfree_skb(c);
	return 0;
}

static int tidy_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	return clone_fixup(dev, skb, 1);
}

static int leaky_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	return clone_fixup(dev, skb, 0);
}

static int twice_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	return clone_fixup(dev, skb, 2);
}

static void test_skb_checkers(void **state)
{
	static const struct {
		const char *name;
		int (*fixup)(struct km_usbnet *, struct km_skb *);
		bool leak, twice;
	} rows[] = {
		{ "tidy", tidy_fixup, false, false },
		{ "leaky", leaky_fixup, true, false },
		{ "twice", twice_fixup, false, true },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		struct km_usbnet_driver_info info = *km_usbnet_find("before")->info;
		struct km_usbnet_variant v = *km_usbnet_find("before");
		const struct km_usbnet_variant *const vs[] = { &v, NULL };
		struct km_sweep_rx_config cfg = { .size = sizeof(cfg), .quick = true,
						  .variants = vs };
		struct km_sweep_rx_result *r = NULL;
		const struct km_sweep_rx_variant_result *vr;
		uint64_t bad = 0;
		int warned = 0;
		guint id;

		info.rx_fixup = rows[i].fixup;
		v.size = KM_USBNET_VARIANT_SIZE;
		v.name = rows[i].name;
		v.info = &info;
		/* the machines' teardown finds what leaked:
		 * counted, not printed */
		id = g_log_set_handler("kmodel", G_LOG_LEVEL_WARNING, km_test_count_teardown, &warned);
		assert_int_equal(km_sweep_rx_run(&cfg, &r), 0);
		g_log_remove_handler("kmodel", id);
		if ((warned > 0) != rows[i].leak)
			fail_msg("%s: %d teardown warnings", rows[i].name, warned);
		vr = variant(r, rows[i].name);
		if ((count(r, rows[i].name, "leak") > 0) != rows[i].leak)
			fail_msg("%s: leak in %" PRIu64 " of %" PRIu64 " states", rows[i].name,
				 count(r, rows[i].name, "leak"), vr->states);
		for (size_t f = 0; f < vr->nfindings; f++)
			if (strcmp(vr->findings[f].rule, "leak") &&
			    strcmp(vr->findings[f].rule, "frame_lost"))
				bad += vr->findings[f].count;
		/* the double free: the skb model's skb_refcount, nothing else */
		if ((bad > 0) != rows[i].twice || bad != count(r, rows[i].name, "skb_refcount"))
			fail_msg("%s: %" PRIu64 " skb reports in %" PRIu64 " states", rows[i].name,
				 bad, vr->states);
		km_sweep_rx_result_free(r);
	}
}

/*
 * The malformed neighbours of a user's KM_FRAMING_LENGTH framing, made in
 * the first frame's word where struct km_framing's definition puts it
 * (kmodel/usb.h): before the frame, or after it (@suffix), @hdr_bytes
 * little-endian bytes, the length; with @inverted_copy its complement in
 * bits 16-31. Frames of 60 bytes (0x3c): the valid word is 3c 00 (00 00),
 * or 3c 00 c3 ff with the copy. len+1/len-1/len+8 write 0x3d/0x3b/0x44
 * (the copy following), copy_disagrees flips the copy's bit 0 (0xffc2),
 * and a framing without a copy has no copy_disagrees state. The splits cut
 * the last frame's word in half, or its frame at an even offset (a suffix
 * word lies after its frame: 2 frames of span 62 or 64 put it at 122 or
 * 124). The driver below keeps the first transfer as usbnet hands it to
 * rx_fixup and drops it.
 */
static struct {
	uint8_t buf[256];
	size_t len;
	unsigned int calls;
} first_xfer;

static int keep_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)dev;
	if (!first_xfer.calls++) {
		first_xfer.len = MIN(skb->len, sizeof(first_xfer.buf));
		memcpy(first_xfer.buf, skb->data, first_xfer.len);
	}
	return 0;
}

struct lenword_row {
	const char *name;
	bool suffix, inverted_copy;
	unsigned int hdr_bytes, frames, mutation, split;
	size_t xfer;		/* the first transfer's bytes; 0: not a state */
	size_t at;		/* the first frame's word */
	uint8_t word[4];
};

#define P2 false, false, 2
#define S4 true, false, 4
#define S4I true, true, 4
#define S2 true, false, 2
static const struct lenword_row lenword_rows[] = {
	{ "prefix2 valid", P2, 1, KM_SWEEP_RX_VALID, 0, 62, 0, { 0x3c, 0x00 } },
	{ "prefix2 len+1", P2, 1, KM_SWEEP_RX_LEN_PLUS1, 0, 62, 0, { 0x3d, 0x00 } },
	{ "prefix2 len-1", P2, 1, KM_SWEEP_RX_LEN_MINUS1, 0, 62, 0, { 0x3b, 0x00 } },
	{ "prefix2 len+8", P2, 1, KM_SWEEP_RX_LEN_PLUS8, 0, 62, 0, { 0x44, 0x00 } },
	{ "prefix2 truncated", P2, 1, KM_SWEEP_RX_TRUNCATED, 0, 60, 0, { 0x3c, 0x00 } },
	{ "prefix2 copy_disagrees", P2, 1, KM_SWEEP_RX_COPY_DISAGREES, 0, 0, 0, { 0 } },
	{ "prefix2 split_header", P2, 2, KM_SWEEP_RX_VALID, 1, 62 + 1, 0, { 0x3c, 0x00 } },
	{ "prefix2 split_frame", P2, 2, KM_SWEEP_RX_VALID, 2, 62 + 2 + 30, 0, { 0x3c, 0x00 } },
	{ "suffix4 valid", S4, 1, KM_SWEEP_RX_VALID, 0, 64, 60, { 0x3c, 0, 0, 0 } },
	{ "suffix4 len+1", S4, 1, KM_SWEEP_RX_LEN_PLUS1, 0, 64, 60, { 0x3d, 0, 0, 0 } },
	{ "suffix4 len-1", S4, 1, KM_SWEEP_RX_LEN_MINUS1, 0, 64, 60, { 0x3b, 0, 0, 0 } },
	{ "suffix4 len+8", S4, 1, KM_SWEEP_RX_LEN_PLUS8, 0, 64, 60, { 0x44, 0, 0, 0 } },
	{ "suffix4 copy_disagrees", S4, 1, KM_SWEEP_RX_COPY_DISAGREES, 0, 0, 60, { 0 } },
	{ "suffix4 split_header", S4, 2, KM_SWEEP_RX_VALID, 1, 124 + 2, 60, { 0x3c, 0, 0, 0 } },
	{ "suffix4 split_frame", S4, 2, KM_SWEEP_RX_VALID, 2, 64 + 30, 60, { 0x3c, 0, 0, 0 } },
	{ "suffix4+copy valid", S4I, 1, KM_SWEEP_RX_VALID, 0, 64, 60, { 0x3c, 0, 0xc3, 0xff } },
	{ "suffix4+copy len+1", S4I, 1, KM_SWEEP_RX_LEN_PLUS1, 0, 64, 60,
	  { 0x3d, 0, 0xc2, 0xff } },
	{ "suffix4+copy copy_disagrees", S4I, 1, KM_SWEEP_RX_COPY_DISAGREES, 0, 64, 60,
	  { 0x3c, 0, 0xc2, 0xff } },
	{ "suffix2 len+1", S2, 1, KM_SWEEP_RX_LEN_PLUS1, 0, 62, 60, { 0x3d, 0x00 } },
	{ "suffix2 len-1", S2, 1, KM_SWEEP_RX_LEN_MINUS1, 0, 62, 60, { 0x3b, 0x00 } },
};
#undef P2
#undef S4
#undef S4I
#undef S2

static void test_length_word_mutations(void **state)
{
	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(lenword_rows); i++) {
		const struct lenword_row *row = &lenword_rows[i];
		struct km_framing f = { .kind = KM_FRAMING_LENGTH, .hdr_bytes = row->hdr_bytes,
					.suffix = row->suffix, .len_bits = 16,
					.inverted_copy = row->inverted_copy, .max_frame = 1518 };
		struct km_usbnet_driver_info info = *km_usbnet_find("before")->info;
		struct km_usbnet_variant v = *km_usbnet_find("before");
		struct km_sweep_rx_state st = { .speed = KM_USB_SPEED_HIGH, .maxpacket = 512,
						.len = 60, .frames = row->frames,
						.mutation = row->mutation, .split = row->split };
		uint8_t valid[256];
		size_t valid_len;
		FILE *null = fopen("/dev/null", "w");
		int rc;

		if (row->inverted_copy)
			f.len_bits = 11;
		info.rx_fixup = keep_fixup;
		info.unbind = NULL;
		v.size = KM_USBNET_VARIANT_SIZE;
		v.name = "lenword";
		v.info = &info;
		v.framing = &f;
		assert_non_null(null);
		/* the valid stream of the row's frames, as the reference */
		first_xfer.calls = 0;
		st.mutation = KM_SWEEP_RX_VALID;
		st.split = KM_SWEEP_RX_WHOLE;
		assert_true(km_sweep_rx_replay(&v, &st, null) >= 0);
		memcpy(valid, first_xfer.buf, first_xfer.len);
		valid_len = first_xfer.len;
		st.mutation = row->mutation;
		st.split = row->split;
		first_xfer.calls = 0;
		first_xfer.len = 0;
		rc = km_sweep_rx_replay(&v, &st, null);
		fclose(null);
		if (!row->xfer) {
			if (rc != -EINVAL)
				fail_msg("%s: replay %d, want -EINVAL (not a state)", row->name, rc);
			continue;
		}
		if (rc < 0 || first_xfer.len != row->xfer)
			fail_msg("%s: replay %d, first transfer %zu bytes, want %zu", row->name, rc,
				 first_xfer.len, row->xfer);
		if (memcmp(first_xfer.buf + row->at, row->word, row->hdr_bytes))
			fail_msg("%s: the word at %zu is %02x %02x..., want %02x %02x...",
				 row->name, row->at, first_xfer.buf[row->at],
				 first_xfer.buf[row->at + 1], row->word[0], row->word[1]);
		/* nothing else changed: the frame's bytes are the valid stream's */
		for (size_t b = 0; b < first_xfer.len && b < valid_len; b++)
			if ((b < row->at || b >= row->at + row->hdr_bytes) &&
			    first_xfer.buf[b] != valid[b])
				fail_msg("%s: byte %zu changed", row->name, b);
		if (row->mutation != KM_SWEEP_RX_VALID && row->mutation != KM_SWEEP_RX_TRUNCATED &&
		    !memcmp(first_xfer.buf + row->at, valid + row->at, row->hdr_bytes))
			fail_msg("%s: the valid stream, labelled malformed", row->name);
	}
}

/* kmodel-sweep @args: its stdout, exit status, stderr (*@err: NULL,
 * dropped) */
static gchar *tool_err(const char *args, int *exit_status, gchar **err)
{
	gchar *cmd = g_strdup_printf("%s %s", KMODEL_SWEEP_PATH, args), *out = NULL, *e = NULL;
	int status;

	assert_true(g_spawn_command_line_sync(cmd, &out, &e, &status, NULL));
	*exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (err)
		*err = e;
	else
		g_free(e);
	g_free(cmd);
	return out;
}

static gchar *tool(const char *args, int *exit_status)
{
	return tool_err(args, exit_status, NULL);
}

static gint64 json_states(const gchar *text)
{
	JsonParser *p = json_parser_new();
	gint64 n;

	assert_true(json_parser_load_from_data(p, text, -1, NULL));
	n = json_object_get_int_member(json_node_get_object(json_parser_get_root(p)), "states");
	g_object_unref(p);
	return n;
}

/* kmodel-sweep rx --json per shard, then merge: the whole's states */
static void test_tool_shards_merge(void **state)
{
	gchar *dir = g_dir_make_tmp("sweeprx-XXXXXX", NULL), *whole, *merged, *args;
	GString *files = g_string_new(NULL);
	int rc;

	(void)state;
	whole = tool("rx --quick --json", &rc);
	assert_int_equal(rc, 0);
	for (int k = 1; k <= 3; k++) {
		gchar *path = g_strdup_printf("%s/s%d.json", dir, k), *out;

		args = g_strdup_printf("rx --quick --json --shard %d/3", k);
		out = tool(args, &rc);
		assert_int_equal(rc, 0);
		assert_true(g_file_set_contents(path, out, -1, NULL));
		g_string_append_printf(files, " %s", path);
		g_free(out);
		g_free(args);
		g_free(path);
	}
	args = g_strdup_printf("merge --json%s", files->str);
	merged = tool(args, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(json_states(merged), json_states(whole));
	assert_non_null(strstr(merged, "\"sweep\" : \"rx\""));
	assert_non_null(strstr(merged, "malformed_frame_passed_up"));
	g_free(args);
	{	/* an asix shard among rx ones: refused, named */
		gchar *path = g_strdup_printf("%s/asix.json", dir), *out, *err = NULL;

		out = tool("asix --quick --variant before --sharing private --json --shard 1/100",
			   &rc);
		assert_int_equal(rc, 0);
		assert_true(g_file_set_contents(path, out, -1, NULL));
		g_free(out);
		args = g_strdup_printf("merge --json%s %s", files->str, path);
		out = tool_err(args, &rc, &err);
		if (rc != 2 || !strstr(err, "asix.json: an asix report among rx ones"))
			fail_msg("%s: exit %d, %s", args, rc, err);
		g_free(out);
		g_free(err);
		g_free(args);
		g_unlink(path);
		g_free(path);
	}
	g_free(merged);
	g_free(whole);
	for (int k = 1; k <= 3; k++) {
		gchar *path = g_strdup_printf("%s/s%d.json", dir, k);

		g_unlink(path);
		g_free(path);
	}
	g_rmdir(dir);
	g_free(dir);
	g_string_free(files, TRUE);
}

/* --fail-on-findings: exit 1 with a finding; --replay prints one state */
static void test_tool_replay_and_fail(void **state)
{
	gchar *out;
	int rc;

	(void)state;
	out = tool("rx --quick --variant ax88179 --fail-on-findings", &rc);
	assert_int_equal(rc, 1);
	g_free(out);
	/* one valid frame: nothing to find (exit 0 even with the flag) */
	out = tool("rx --variant ax88179 --replay 60,1,valid,whole,super/1024 --fail-on-findings",
		   &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "frame passed up: 60 bytes, a sent frame"));
	assert_non_null(strstr(out, "0 findings"));
	g_free(out);
	/* two: the first 2 bytes long (the mainline finding) */
	out = tool("rx --variant ax88179 --replay 60,2,valid,whole,super/1024 --fail-on-findings",
		   &rc);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(out, "frame passed up: 62 bytes, not a sent frame"));
	assert_non_null(strstr(out, "finding: frame_mismatch"));
	g_free(out);
	/* a bad MUTATION or SPLIT: exit 2, the valid names said */
	{
		static const struct {
			const char *state, *known;
		} bad[] = {
			{ "60,2,nonsense,whole", "known: valid len+1 len-1 len+8 copy_disagrees "
						 "truncated" },
			{ "60,2,valid,halfway", "known: whole split_header split_frame urb_fill-1 "
						"urb_fill urb_fill+1" },
		};

		for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
			gchar *args = g_strdup_printf("rx --variant ax88179 --replay %s",
						      bad[i].state), *err = NULL;

			out = tool_err(args, &rc, &err);
			if (rc != 2 || !strstr(err, bad[i].known))
				fail_msg("%s: exit %d, %s", args, rc, err);
			g_free(err);
			g_free(out);
			g_free(args);
		}
	}
	/* --sharing is the asix sweep's: refused, not ignored */
	out = tool("rx --quick --variant before --sharing private", &rc);
	assert_int_equal(rc, 2);
	g_free(out);
	/* each example the report prints replays to its finding */
	assert_true(km_test_examples_replay(KMODEL_SWEEP_PATH, "rx", "--quick", "before") >= 2);
	assert_true(km_test_examples_replay(KMODEL_SWEEP_PATH, "rx", "--quick", "ax88179") >= 3);
}

/* km_sweep_rx_state_run_cmp(): the order of the states km_sweep_rx_run()
 * runs, as on_state sees them, in any shard: each after the one before.
 * A third of before's rows (shard 1 of 3: both its endpoints, rows of
 * lengths and fill rows) */
struct run_order {
	uint64_t calls, fills;
	struct km_sweep_rx_state last;
	unsigned int eps;	/* bits of those seen */
};

static void check_order(void *arg, const struct km_usbnet_variant *v,
			const struct km_sweep_rx_state *st)
{
	struct run_order *o = arg;

	(void)v;
	if (o->calls++) {
		assert_true(km_sweep_rx_state_run_cmp(&o->last, st) < 0);
		assert_true(km_sweep_rx_state_run_cmp(st, &o->last) > 0);
	}
	assert_int_equal(km_sweep_rx_state_run_cmp(st, st), 0);
	o->eps |= 1u << (st->maxpacket == 64 ? 0 : 1);
	o->fills += st->split >= KM_SWEEP_RX_FILL_UNDER;
	o->last = *st;
}

static void test_run_cmp_is_the_sweeps_order(void **state)
{
	struct run_order o = { 0 };
	struct km_sweep_rx_config cfg = {
		.size = sizeof(cfg), .quick = true, .shard = 0, .shards = 3,
		.variants = (const struct km_usbnet_variant *const[]){ km_usbnet_find("before"),
									NULL },
		.on_state = check_order, .on_state_arg = &o };
	struct km_sweep_rx_result *r = NULL;
	/* where the loops disagree with the examples' order (len first) */
	static const struct {
		const char *name;
		struct km_sweep_rx_state a, b;	/* a runs first */
	} rows[] = {
		{ "an endpoint before every state of the next",
		  { KM_USB_SPEED_FULL, 64, 1518, 3, KM_SWEEP_RX_MUTATION_COUNT - 1,
		    KM_SWEEP_RX_FILL_OVER },
		  { KM_USB_SPEED_HIGH, 512, 14, 1, 0, KM_SWEEP_RX_WHOLE } },
		{ "the rows of lengths before the fill row",
		  { KM_USB_SPEED_FULL, 64, 1518, 3, KM_SWEEP_RX_MUTATION_COUNT - 1,
		    KM_SWEEP_RX_SPLIT_FRAME },
		  { KM_USB_SPEED_FULL, 64, 1518, 1, 0, KM_SWEEP_RX_FILL_UNDER } },
		{ "a fill row by mutation, not by its frames",
		  { KM_USB_SPEED_FULL, 64, 1518, 40, 0, KM_SWEEP_RX_FILL_OVER },
		  { KM_USB_SPEED_FULL, 64, 1518, 2, 1, KM_SWEEP_RX_FILL_UNDER } },
		{ "frames before mutation",
		  { KM_USB_SPEED_FULL, 64, 20, 1, KM_SWEEP_RX_MUTATION_COUNT - 1,
		    KM_SWEEP_RX_WHOLE },
		  { KM_USB_SPEED_FULL, 64, 20, 2, 0, KM_SWEEP_RX_WHOLE } },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		if (km_sweep_rx_state_run_cmp(&rows[i].a, &rows[i].b) >= 0 ||
		    km_sweep_rx_state_run_cmp(&rows[i].b, &rows[i].a) <= 0)
			fail_msg("%s: not in the sweep's order", rows[i].name);
	}
	assert_int_equal(km_sweep_rx_run(&cfg, &r), 0);
	assert_int_equal(o.calls, r->states);
	assert_int_equal(o.eps, 3);	/* full/64, high/512 */
	assert_true(o.fills > 0);
	km_sweep_rx_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_space_size),
		cmocka_unit_test(test_shards_add_up),
		cmocka_unit_test(test_findings),
		cmocka_unit_test(test_urb_fill),
		cmocka_unit_test(test_skb_checkers),
		cmocka_unit_test(test_length_word_mutations),
		cmocka_unit_test(test_tool_shards_merge),
		cmocka_unit_test(test_tool_replay_and_fail),
		cmocka_unit_test(test_run_cmp_is_the_sweeps_order),
	};

	return cmocka_run_group_tests_name("test_sweep_rx", tests, NULL, NULL);
}
