// SPDX-License-Identifier: GPL-2.0
/*
 * The receive side (kmodel/usb.h: km_usbnet_rx_urb(), km_framing_*()): each
 * ported rx_fixup on its framing's boundaries, each public fix flagged
 * before and silent after, each checker tripped and not.
 *
 * Expected values come from the drivers' and usbnet's sources: a frame
 * passed up is the frame the device sent (frames delivered byte for byte),
 * rx_packets counts them and rx_bytes their lengths less the 14 bytes
 * eth_type_trans() pulls (usbnet_skb_return(), v3.5 and mainline).
 */
#include "km_test.h"
#include <kmodel/usb.h>
#include <kmodel/registry.h>
#include "compat/rx_le64.h"
#include <inttypes.h>

#define MAX_FRAMES 64

struct fx {
	struct km_fixture k;
	struct km_usbnet *dev;
	const struct km_usbnet_variant *v;
	/* what usbnet passed up */
	unsigned int nframes;
	size_t lens[MAX_FRAMES];
	uint8_t frames[MAX_FRAMES][2048];
};

static void on_rx(void *arg, const uint8_t *frame, size_t len)
{
	struct fx *f = arg;

	if (f->nframes < MAX_FRAMES) {
		f->lens[f->nframes] = len;
		memcpy(f->frames[f->nframes], frame, MIN(len, sizeof(f->frames[0])));
	}
	f->nframes++;
}

static void up(struct fx *f, const char *variant, enum km_usb_speed speed, unsigned int mp)
{
	memset(f, 0, sizeof(*f));
	km_fixture_up(&f->k, NULL);
	f->v = km_usbnet_find_any(variant);
	assert_non_null(f->v);
	assert_int_equal(km_usbnet_probe(f->k.m, f->v, speed, mp, NULL, &f->dev), 0);
	km_usbnet_set_rx_sink(f->dev, on_rx, f);
	km_reports_set_log_max(f->k.m, 64);
	km_printk_set_quiet(f->k.m, true);	/* the drivers' "Bad RX Length" */
}

static void down(struct fx *f)
{
	size_t skbs, bufs;

	km_usbnet_free(f->dev);		/* the driver's unbind frees what it holds */
	km_skb_live(f->k.m, &skbs, &bufs);
	assert_int_equal(skbs, 0);	/* usbnet and the stack freed every skb */
	assert_int_equal(bufs, 0);
	km_reports_clear(f->k.m);
	km_fixture_down(&f->k);
}

/* A device under test (up()'s arguments): a test's initial state, which
 * fx_setup() replaces with its struct fx; fx_teardown() runs down(). */
struct rx_dev {
	const char *variant;
	enum km_usb_speed speed;
	unsigned int mp;
};

static int fx_setup(void **state)
{
	const struct rx_dev *d = *state;
	struct fx *f = g_new(struct fx, 1);

	up(f, d->variant, d->speed, d->mp);
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	down(*state);
	g_free(*state);
	return 0;
}

static const struct rx_dev before = { "before", KM_USB_SPEED_HIGH, 512 };
static const struct rx_dev asix_v4_14 = { "asix-v4.14", KM_USB_SPEED_HIGH, 512 };
static const struct rx_dev sr9800 = { "sr9800", KM_USB_SPEED_HIGH, 512 };
static const struct rx_dev ax88179 = { "ax88179", KM_USB_SPEED_SUPER, 1024 };
static const struct rx_dev ax88179_v5_7 = { "ax88179-v5.7", KM_USB_SPEED_SUPER, 1024 };
static const struct rx_dev ax88179_v5_16 = { "ax88179-v5.16", KM_USB_SPEED_SUPER, 1024 };
static const struct rx_dev ax88179_57bc = { "ax88179-57bc3d3ae8c1", KM_USB_SPEED_SUPER, 1024 };

static unsigned long reports(struct fx *f, enum km_report_code c)
{
	return km_report_count(f->k.m, c);
}

/* a frame of @len bytes whose bytes depend on @seed and their offset */
static void fill(uint8_t *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 7u + seed * 31u + (i >> 8) + 1u);
}

/* encode @n frames of @lens (contents by fill(seed i)) with the variant's
 * framing into @buf; returns the transfer's length */
static size_t encode(struct fx *f, const size_t *lens, size_t n, uint8_t *buf, size_t cap,
		     uint8_t (*frames)[2048])
{
	const uint8_t *ptrs[MAX_FRAMES];
	long len;

	for (size_t i = 0; i < n; i++) {
		fill(frames[i], lens[i], (unsigned int)i);
		ptrs[i] = frames[i];
	}
	len = km_framing_encode(f->v->framing, ptrs, lens, n, buf, cap);
	assert_true(len >= 0);
	return (size_t)len;
}

/* the frames passed up are @sent, in order, each allowing the framing's
 * documented trailing pad */
static void expect_frames(struct fx *f, uint8_t (*sent)[2048], const size_t *lens, size_t n)
{
	assert_int_equal(f->nframes, n);
	for (size_t i = 0; i < n; i++)
		if (!km_framing_frame_ok(f->v->framing, sent[i], lens[i], f->frames[i], f->lens[i]))
			fail_msg("frame %zu: %zu bytes passed up for %zu sent", i, f->lens[i], lens[i]);
}

static uint8_t sent[MAX_FRAMES][2048];
static uint8_t urb[32768];

/* ---- the framings ---------------------------------------------------------- */

/* AX88772: 4-byte header len | ~len << 16, frames padded to even length
 * (asix_rx_fixup(): (size + 1) & 0xfffe) */
static void test_framing_ax88772_layout(void **state)
{
	const uint8_t a[3] = { 1, 2, 3 }, *frames[1] = { a };
	const size_t lens[1] = { 3 };
	uint8_t out[16];

	(void)state;
	assert_int_equal(km_framing_encode(km_framing_ax88772(), frames, lens, 1, out, sizeof(out)),
			 8);
	assert_memory_equal(out, ((const uint8_t[]){ 3, 0, 0xfc, 0xff, 1, 2, 3, 0 }), 8);
	assert_int_equal(km_framing_encode(km_framing_ax88772(), frames, lens, 1, out, 7),
			 -ENOSPC);
	/* the pad the driver may hand up with the frame, and no more */
	assert_true(km_framing_frame_ok(km_framing_ax88772(), a, 3, out + 4, 4));
	assert_false(km_framing_frame_ok(km_framing_ax88772(), a, 3, out + 4, 5));
	assert_false(km_framing_frame_ok(km_framing_ax88772(), a, 3, out + 4, 2));
}

/* AX88179 (ax88179_rx_fixup()'s comment, 002bba562dd3): 2-byte pseudo
 * header, 8-byte alignment, a descriptor and a dummy per frame, padding2,
 * rx_hdr = count | offset << 16 */
static void test_framing_ax88179_layout(void **state)
{
	uint8_t a[60], out[128];
	const uint8_t *frames[1] = { a };
	const size_t lens[1] = { 60 };

	(void)state;
	fill(a, 60, 0);
	memset(out, 0xee, sizeof(out));	/* what the buffer held: no byte of it stays */
	assert_int_equal(km_framing_encode(km_framing_ax88179(), frames, lens, 1, out, sizeof(out)),
			 64 + 8 + 4 + 4);
	assert_memory_equal(out, ((const uint8_t[]){ 0, 0 }), 2);	/* the pseudo header */
	assert_memory_equal(out + 2, a, 60);
	assert_memory_equal(out + 62, ((const uint8_t[]){ 0, 0 }), 2);	/* the pad to 8 */
	assert_memory_equal(out + 64, ((const uint8_t[]){ 0, 0, 62, 0, 0, 0, 0, 0x80 }), 8);
	assert_memory_equal(out + 72, ((const uint8_t[]){ 0, 0, 0, 0 }), 4);	/* padding2 */
	assert_memory_equal(out + 76, ((const uint8_t[]){ 2, 0, 64, 0 }), 4);
	assert_false(km_framing_frame_ok(km_framing_ax88179(), a, 60, out + 2, 62));
}

/* where a sweep mutates the built-in framings (km_framing_encode_layout()):
 * the AX88772's first header's 11 length bits at 0; the AX88179's first
 * descriptor's pkt_len (bits 16-28) at hdr_off and rx_hdr's 16-bit count
 * in the transfer's last word (ax88179_rx_fixup()'s layout above) */
static void test_framing_builtin_layouts(void **state)
{
	uint8_t a[60], out[256];
	const uint8_t *frames[2] = { a, a };
	const size_t lens[2] = { 60, 60 };
	struct km_framing_layout l;

	(void)state;
	fill(a, 60, 0);
	assert_int_equal(km_framing_encode_layout(km_framing_ax88772(), frames, lens, 2, out,
						  sizeof(out), &l), 2 * 64);
	assert_int_equal(l.len_off, 0);
	assert_int_equal(l.len_shift, 0);
	assert_int_equal(l.len_bits, 11);
	assert_int_equal(l.count_bits, 0);
	assert_int_equal(km_framing_encode_layout(km_framing_ax88179(), frames, lens, 2, out,
						  sizeof(out), &l), 2 * 64 + 16 + 4 + 4);
	assert_int_equal(l.len_off, 128);
	assert_int_equal(l.len_shift, 16);
	assert_int_equal(l.len_bits, 13);
	assert_int_equal(l.count_off, 2 * 64 + 16 + 4);
	assert_int_equal(l.count_shift, 0);
	assert_int_equal(l.count_bits, 16);
}

/* where a sweep mutates a user's KM_FRAMING_LENGTH word (struct km_framing:
 * @hdr_bytes little-endian before the frame, or after it with @suffix):
 * one 60-byte frame; a word that fits 4 bytes of the stream from its
 * start is the low bits of the word there; a 2-byte suffix ends the
 * stream, so it is the high half of the stream's last 32-bit word */
static void test_framing_length_layouts(void **state)
{
	static const struct {
		const char *name;
		bool suffix;
		unsigned int hdr_bytes;
		long total;
		size_t off;
		unsigned int shift;
	} rows[] = {
		{ "prefix2", false, 2, 62, 0, 0 },
		{ "prefix4", false, 4, 64, 0, 0 },
		{ "suffix4", true, 4, 64, 60, 0 },
		{ "suffix2", true, 2, 62, 58, 16 },
	};
	uint8_t a[60], out[128];
	const uint8_t *frames[1] = { a };
	const size_t lens[1] = { 60 };

	(void)state;
	fill(a, 60, 0);
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		struct km_framing f = { .kind = KM_FRAMING_LENGTH, .hdr_bytes = rows[i].hdr_bytes,
					.suffix = rows[i].suffix, .len_bits = 16,
					.max_frame = 1518 };
		struct km_framing_layout l;
		long n = km_framing_encode_layout(&f, frames, lens, 1, out, sizeof(out), &l);

		if (n != rows[i].total || l.len_off != rows[i].off ||
		    l.len_shift != rows[i].shift || l.len_bits != 16)
			fail_msg("%s: %ld bytes, length at %zu bits %u+%u; want %ld, %zu, %u+16",
				 rows[i].name, n, l.len_off, l.len_shift, l.len_bits,
				 rows[i].total, rows[i].off, rows[i].shift);
	}
}

/* A user's framing of a shape no kind describes (KM_FRAMING_ENCODER): the
 * frames back to back, then a 2-byte length per frame and a 2-byte count
 * at the transfer's end. @hook_mode makes the hook misbehave one way. */
static int hook_mode, hook_calls;

static long trailer_encode(const struct km_framing *f, const uint8_t *const *frames,
			   const size_t *lens, size_t n, uint8_t *out, size_t cap,
			   struct km_framing_layout *layout)
{
	size_t off = 0, total = 2 * n + 2;

	(void)f;
	hook_calls++;
	for (size_t i = 0; i < n; i++)
		total += lens[i];
	if (total > cap)
		return -ENOSPC;
	for (size_t i = 0; i < n; i++, off += lens[i - 1])
		memcpy(out + off, frames[i], lens[i]);
	for (size_t i = 0; i < n; i++, off += 2) {
		out[off] = (uint8_t)lens[i];
		out[off + 1] = (uint8_t)(lens[i] >> 8);
	}
	out[off] = (uint8_t)n;
	out[off + 1] = 0;
	layout->len_off = total - 2 * n - 2;
	layout->len_bits = 16;
	layout->count_off = total - 4;	/* the last word: the count's 2 bytes */
	layout->count_shift = 16;
	layout->count_bits = 16;
	switch (hook_mode) {
	case 1: return (long)cap + 1;			/* more than it may write */
	case 2: layout->count_off = total - 3; break;	/* the word past the end */
	case 3: layout->len_shift = 20; break;		/* bits 20..36 */
	case 4: return -((long)1 << 40);			/* not an errno */
	}
	return (long)total;
}

static const struct km_framing trailer = {
	.kind = KM_FRAMING_ENCODER, .max_frame = 1518, .encode = trailer_encode,
};

static void test_framing_encoder_hook(void **state)
{
	static const struct {
		const char *name;
		int mode;
		long want;
	} rows[] = {
		{ "valid", 0, 60 + 60 + 2 + 2 + 2 },
		{ "past cap", 1, -EINVAL },
		{ "field past the stream", 2, -EINVAL },
		{ "field past 32 bits", 3, -EINVAL },
		{ "not an errno", 4, -EINVAL },
	};
	uint8_t a[60], out[256];
	const uint8_t *frames[2] = { a, a };
	size_t lens[2] = { 60, 60 };
	struct km_framing_layout l;
	struct km_framing nohook = trailer;

	(void)state;
	fill(a, 60, 0);
	for (size_t r = 0; r < G_N_ELEMENTS(rows); r++) {
		hook_mode = rows[r].mode;
		if (km_framing_encode_layout(&trailer, frames, lens, 2, out, sizeof(out), &l) !=
		    rows[r].want)
			fail_msg("%s: not %ld", rows[r].name, rows[r].want);
	}
	hook_mode = 0;
	assert_int_equal(km_framing_encode_layout(&trailer, frames, lens, 2, out, sizeof(out), &l),
			 126);
	assert_memory_equal(out + 60, a, 60);
	assert_memory_equal(out + 120, ((const uint8_t[]){ 60, 0, 60, 0, 2, 0 }), 6);
	assert_int_equal(l.len_off, 120);
	assert_int_equal(l.count_off, 122);
	/* the hook's own errno passes; km_framing_encode() is the same */
	assert_int_equal(km_framing_encode(&trailer, frames, lens, 2, out, 100), -ENOSPC);
	assert_int_equal(km_framing_encode(&trailer, frames, lens, 2, out, sizeof(out)), 126);
	/* a frame past max_frame is refused before the hook runs */
	hook_calls = 0;
	lens[1] = 1519;
	assert_int_equal(km_framing_encode(&trailer, frames, lens, 2, out, sizeof(out)), -EINVAL);
	assert_int_equal(hook_calls, 0);
	/* an encoder without a hook */
	nohook.encode = NULL;
	lens[1] = 60;
	assert_int_equal(km_framing_encode(&nohook, frames, lens, 2, out, sizeof(out)), -EINVAL);	/* ... which no variant may name: its every state would be lost */
	{
		struct km_usbnet_variant v = *km_usbnet_find_any("before");

		v.size = KM_USBNET_VARIANT_SIZE;
		v.framing = &trailer;
		assert_int_equal(km_usbnet_variant_check(&v), 0);
		v.framing = &nohook;
		assert_int_equal(km_usbnet_variant_check(&v), -EINVAL);
		assert_non_null(strstr(km_last_error(), "without an encode hook"));
	}
}

/* The bulk-out side of an encoder framing (km_framing_dev_new() with a
 * decode hook): here the layout aqc111_tx_fixup() writes
 * (drivers/net/usb/aqc111.c, torvalds/linux 0203146646be): a 64-bit
 * descriptor, the frame's length in bits 0-20 (AQ_TX_DESC_LEN_MASK), the
 * frame, zeros up to a multiple of 8 -- and 8 more with
 * AQ_TX_DESC_DROP_PADD (bit 28) when the whole would fill its last USB
 * packet. The hook walks a transfer as the device would. */
#define AQ_TX_DESC_LEN_MASK 0x1fffffu
#define AQ_TX_DESC_DROP_PADD (1u << 28)

static int aqtx_emit_off;	/* the hook emits a frame that starts past its
				 * transfer (1) or runs past it (2) */

static int aqtx_decode(const struct km_framing *f, const uint8_t *buf, size_t len,
		       km_framing_emit_fn emit, void *ctx)
{
	size_t off = 0;

	(void)f;
	while (off < len) {
		uint32_t desc, flen;
		size_t pad;

		if (len - off < 8)
			return -EPROTO;
		desc = (uint32_t)buf[off] | (uint32_t)buf[off + 1] << 8 |
		       (uint32_t)buf[off + 2] << 16 | (uint32_t)buf[off + 3] << 24;
		flen = desc & AQ_TX_DESC_LEN_MASK;
		pad = (8 - (flen + 8) % 8) % 8 + (desc & AQ_TX_DESC_DROP_PADD ? 8 : 0);
		if (flen + pad > len - off - 8)
			return -EPROTO;
		if (emit(ctx, buf + off + 8 + (aqtx_emit_off == 1 ? len : 0),
			 flen + (aqtx_emit_off == 2 ? len : 0)) < 0)
			return -EINVAL;
		off += 8 + flen + pad;
	}
	return 0;
}

/* aqc111_tx_fixup()'s bytes for a frame of @flen (fill(seed)), packets of
 * @mp: its length */
static size_t aqtx_frame(uint8_t *out, size_t flen, unsigned int seed, size_t mp)
{
	uint32_t desc = (uint32_t)flen & AQ_TX_DESC_LEN_MASK;
	size_t pad = (flen + 8) % 8 ? 8 - (flen + 8) % 8 : 0;

	if ((flen + 8 + pad) % mp == 0) {
		pad += 8;
		desc |= AQ_TX_DESC_DROP_PADD;
	}
	memset(out, 0, 8 + flen + pad);
	for (int i = 0; i < 4; i++)
		out[i] = (uint8_t)(desc >> (8 * i));
	fill(out + 8, flen, seed);
	return 8 + flen + pad;
}

static void test_framing_decode_hook(void **state)
{
	static const struct km_framing aqtx = {
		.kind = KM_FRAMING_ENCODER, .max_frame = 1518, .encode = trailer_encode,
		.decode = aqtx_decode,
	};
	static const size_t lens[] = { 60, 1016, 1514 };	/* pad 4; 0 + 8 at 1024; 6 */
	struct km_framing nodecode = aqtx;
	struct km_usbnet_dev d;
	struct km_usbnet_dev_stats st;
	struct fx *f = g_new0(struct fx, 1);
	size_t n = 0;

	(void)state;
	km_fixture_up(&f->k, NULL);
	km_reports_set_log_max(f->k.m, 16);
	assert_int_equal(km_framing_dev_new(f->k.m, &aqtx, on_rx, f, &d), 0);
	/* one transfer of three frames, in 1024-byte packets: the device
	 * gathers them up to the short one */
	for (size_t i = 0; i < G_N_ELEMENTS(lens); i++) {
		n += aqtx_frame(urb + n, lens[i], (unsigned int)i, 1024);
		fill(sent[i], lens[i], (unsigned int)i);
	}
	/* 1016's descriptor, after 60's 72 bytes: 8 + 1016 fills a packet */
	assert_int_equal(urb[72] | urb[73] << 8, 1016);
	assert_int_equal(urb[75], AQ_TX_DESC_DROP_PADD >> 24);
	for (size_t off = 0; off < n; off += 1024)
		d.sink.packet(d.sink.priv, urb + off, MIN((size_t)1024, n - off), n - off < 1024);
	km_usbnet_dev_get_stats(&d, &st);
	assert_int_equal(st.transfers, 1);
	assert_int_equal(st.frames, 3);
	assert_int_equal(st.frame_bytes, 60 + 1016 + 1514);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(f->lens[i], lens[i]);
		assert_memory_equal(f->frames[i], sent[i], lens[i]);
	}
	/* a descriptor claiming more than the transfer holds: a bad header,
	 * the frame before it delivered */
	n = aqtx_frame(urb, 60, 0, 1024);
	urb[n] = 0xff;	/* the next descriptor: 255 bytes, 8 bytes sent */
	memset(urb + n + 1, 0, 7);
	d.sink.transfer(d.sink.priv, urb, n + 8, true);
	km_usbnet_dev_get_stats(&d, &st);
	assert_int_equal(st.frames, 4);
	assert_int_equal(st.bad_headers, 1);
	assert_int_equal(km_report_count(f->k.m, KM_R_USB_PROTOCOL), 1);
	/* a frame past max_frame: dropped */
	n = aqtx_frame(urb, 1600, 0, 1024);
	d.sink.transfer(d.sink.priv, urb, n, true);
	km_usbnet_dev_get_stats(&d, &st);
	assert_int_equal(st.oversized, 1);
	assert_int_equal(st.frames, 4);
	assert_int_equal(km_report_count(f->k.m, KM_R_USB_FRAME_DROPPED), 1);
	/* a hook that emits bytes outside its transfer: nothing delivered */
	for (aqtx_emit_off = 1; aqtx_emit_off <= 2; aqtx_emit_off++) {
		n = aqtx_frame(urb, 60, 0, 1024);
		d.sink.transfer(d.sink.priv, urb, n, true);
	}
	aqtx_emit_off = 0;
	km_usbnet_dev_get_stats(&d, &st);
	assert_int_equal(st.frames, 4);
	assert_int_equal(f->nframes, 4);
	assert_int_equal(st.bad_headers, 3);
	km_usbnet_dev_free(&d);
	/* an encoder without a decode hook parses no bulk-out */
	nodecode.decode = NULL;
	assert_int_equal(km_framing_dev_new(f->k.m, &nodecode, on_rx, f, &d), -EINVAL);
	km_reports_clear(f->k.m);
	km_fixture_down(&f->k);
	g_free(f);
}

/* ---- asix v3.5 ----------------------------------------------------------- */

/* frames of the AX88772's boundaries, one URB each and back to back: the
 * shortest Ethernet header, odd (padded) and even lengths, the longest
 * frame asix_rx_fixup() takes (mtu + ETH_HLEN + VLAN_HLEN = 1518) */
static void test_asix_v35_boundaries(void **state)
{
	struct fx *f = *state;
	static const size_t rows[] = { 14, 15, 60, 61, 1514, 1517, 1518 };
	unsigned long bytes = 0;

	assert_int_equal(f->dev->rx_urb_size, 2048);	/* ax88772_bind() */
	for (size_t r = 0; r < G_N_ELEMENTS(rows); r++) {
		size_t len = encode(f, &rows[r], 1, urb, sizeof(urb), sent);

		f->nframes = 0;
		assert_int_equal(km_usbnet_rx_urb(f->dev, urb, len), 1);
		expect_frames(f, sent, &rows[r], 1);
		bytes += rows[r] - 14;
	}
	/* back to back in one URB */
	{
		static const size_t three[] = { 61, 1000, 60 };
		size_t len = encode(f, three, 3, urb, sizeof(urb), sent);

		f->nframes = 0;
		assert_int_equal(km_usbnet_rx_urb(f->dev, urb, len), 3);
		expect_frames(f, sent, three, 3);
		bytes += 61 + 1000 + 60 - 3 * 14;
	}
	assert_int_equal(f->dev->net->stats.rx_packets, G_N_ELEMENTS(rows) + 3);
	assert_int_equal(f->dev->net->stats.rx_bytes, bytes);
	assert_int_equal(f->dev->net->stats.rx_errors, 0);
	assert_int_equal(reports(f, KM_R_NONE), 0);
}

/* the malformed neighbours: one byte past the longest frame, an inverted
 * copy that disagrees, a truncated header, a length one past the transfer:
 * asix_rx_fixup() returns 0 (rx_errors), the frames before go up, nothing
 * is read past the URB */
static void test_asix_v35_malformed(void **state)
{
	struct fx *f = *state;
	static const size_t two[] = { 100, 200 };
	size_t len;

	/* 1519 bytes: "Bad RX Length" (encoded by hand: the framing's
	 * max_frame is 1518) */
	urb[0] = 0xef; urb[1] = 0x05; urb[2] = 0x10; urb[3] = 0xfa;	/* 0x5ef, ~ */
	fill(urb + 4, 1520, 0);
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, 4 + 1520), 0);
	assert_int_equal(f->dev->net->stats.rx_errors, 1);
	/* the second header's copy off by one bit */
	len = encode(f, two, 2, urb, sizeof(urb), sent);
	urb[104 + 2] ^= 1;
	f->nframes = 0;
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, len), 1);
	expect_frames(f, sent, two, 1);
	assert_int_equal(f->dev->net->stats.rx_errors, 2);
	/* a truncated header at the end: "Bad SKB Length", after the frames */
	len = encode(f, two, 2, urb, sizeof(urb), sent);
	urb[len] = 0x10; urb[len + 1] = 0x00;
	f->nframes = 0;
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, len + 2), 2);
	assert_int_equal(f->dev->net->stats.rx_errors, 3);
	/* a length one byte past the transfer: "Bad RX Length" */
	len = encode(f, two, 1, urb, sizeof(urb), sent);
	urb[0] = 101; urb[2] = (uint8_t)~101;
	f->nframes = 0;
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, len), 0);
	assert_int_equal(f->dev->net->stats.rx_errors, 4);
	assert_int_equal(reports(f, KM_R_RX_READ_PAST), 0);
	assert_int_equal(reports(f, KM_R_NONE), 0);
}

/* a frame the device split across two URBs: v3.5 loses it (each half is
 * "Bad RX Length" / a bad header), asix_rx_fixup_internal() (v3.10) keeps
 * state across URBs for it -- the model's finding for the v3.5 port */
static void test_asix_v35_frame_split_across_urbs(void **state)
{
	struct fx *f = *state;
	static const size_t two[] = { 1000, 1000 };
	size_t len;

	len = encode(f, two, 2, urb, sizeof(urb), sent);
	assert_int_equal(len, 2008);
	f->nframes = 0;
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, 1500), 1);
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb + 1500, len - 1500), 0);
	assert_int_equal(f->nframes, 1);	/* the second frame is lost */
	assert_int_equal(f->dev->net->stats.rx_errors, 2);
}

/* asix_rx_fixup_internal() (v4.14 text) keeps the frame across the two
 * transfers, its header split too (2 bytes in each), and frees a frame
 * still held at unbind */
static void test_asix_v4_14_across_urbs(void **state)
{
	struct fx *f = *state;
	static const size_t two[] = { 1000, 1000 };
	size_t len;

	len = encode(f, two, 2, urb, sizeof(urb), sent);
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, 1500), 1);
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb + 1500, len - 1500), 1);
	expect_frames(f, sent, two, 2);
	/* the second frame's header split 2 + 2 */
	f->nframes = 0;
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, 1006), 1);
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb + 1006, len - 1006), 1);
	expect_frames(f, sent, two, 2);
	assert_int_equal(f->dev->net->stats.rx_errors, 0);
	/* half a frame held when the device goes: unbind frees it */
	f->nframes = 0;
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, 1500), 1);
	assert_int_equal(reports(f, KM_R_NONE), 0);
}

/* unbind then bind (a reconnect) starts the driver afresh: ax88772_bind()
 * kzalloc()s asix_common_private, so nothing of a frame the device had
 * begun before survives into the next transfer (asix_rx_fixup_internal():
 * remaining 0, a header is read first) */
static void test_asix_v4_14_rebind_starts_afresh(void **state)
{
	struct fx *f = *state;
	static const size_t one[] = { 100 }, small[] = { 14 };
	size_t len;

	len = encode(f, one, 1, urb, sizeof(urb), sent);
	assert_int_equal(len, 104);
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, 54), 0);	/* header and 50 bytes */
	f->dev->driver_info->unbind(f->dev, NULL);
	assert_int_equal(f->dev->driver_info->bind(f->dev, NULL), 0);
	len = encode(f, small, 1, urb, sizeof(urb), sent);
	assert_int_equal(len, 18);
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, len), 1);
	expect_frames(f, sent, small, 1);
	assert_int_equal(f->dev->net->stats.rx_errors, 0);
}

/* v3.5 usbnet: a transfer shorter than hard_header_len never reaches
 * rx_fixup (rx_complete(): rx_errors and rx_length_errors) */
static void test_v35_short_transfer(void **state)
{
	struct fx *f = *state;

	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, 13), 0);
	assert_int_equal(f->dev->net->stats.rx_errors, 1);
	assert_int_equal(f->dev->net->stats.rx_length_errors, 1);
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, 2049), -EINVAL);	/* > rx_urb_size */
}

/* ---- sr9800 --------------------------------------------------------------- */

static void test_sr9800_boundaries(void **state)
{
	struct fx *f = *state;
	static const size_t three[] = { 14, 1517, 1518 };
	size_t len;

	assert_int_equal(f->dev->rx_urb_size, 4096);	/* sr9800_bind(), high speed */
	len = encode(f, three, 3, urb, sizeof(urb), sent);
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, len), 3);
	expect_frames(f, sent, three, 3);
	/* "This check is no longer done by usbnet": sr_rx_fixup()'s own */
	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, 13), 0);
	assert_int_equal(f->dev->net->stats.rx_errors, 1);
	assert_int_equal(f->dev->net->stats.rx_length_errors, 0);
	assert_int_equal(reports(f, KM_R_NONE), 0);
	km_usbnet_free(f->dev);
	assert_int_equal(km_usbnet_probe(f->k.m, f->v, KM_USB_SPEED_FULL, 64, NULL, &f->dev), 0);
	assert_int_equal(f->dev->rx_urb_size, 2048);	/* full speed: 2K */
}

/* ---- ax88179 ---------------------------------------------------------------- */

/*
 * Mainline (002bba562dd3) copies each frame but the last into a fresh skb:
 * memcpy(ax_skb->data, skb->data + 2, pkt_len) with pkt_len counting the
 * 2-byte pseudo header (e869e7a17798: "that length field *includes* the
 * 2-byte header"), so those frames go up with the 2 bytes that follow
 * them in the URB; the last one is trimmed to pkt_len, then pulled by 2:
 * exact. The model's finding on the pinned text, asserted as it is.
 */
static void test_ax88179_mainline_frames(void **state)
{
	struct fx *f = *state;
	static const size_t rows[][3] = { { 14, 0, 0 }, { 15, 0, 0 }, { 60, 61, 62 },
					  { 1514, 1518, 63 } };

	assert_int_equal(f->dev->rx_urb_size, 20480);
	for (size_t r = 0; r < G_N_ELEMENTS(rows); r++) {
		size_t n = rows[r][1] ? 3 : 1, len = encode(f, rows[r], n, urb, sizeof(urb), sent);

		f->nframes = 0;
		assert_int_equal(km_usbnet_rx_urb(f->dev, urb, len), (int)n);
		assert_int_equal(f->nframes, n);
		for (size_t i = 0; i < n; i++) {
			size_t extra = i + 1 < n ? 2 : 0;

			assert_int_equal(f->lens[i], rows[r][i] + extra);
			assert_memory_equal(f->frames[i], sent[i], rows[r][i]);
		}
	}
	assert_int_equal(reports(f, KM_R_NONE), 0);
}

/*
 * 57bc3d3ae8c1 ("net: usb: ax88179_178a: Fix out-of-bounds accesses in RX
 * fixup"): a descriptor claiming a 1000-byte packet in a URB of 152 bytes.
 * v5.16 clones it with len 1000 and passes it up: a frame past the URB's
 * data; after the fix, "pkt_len > skb->len" returns 0.
 */
static size_t claim_1000(struct fx *f)
{
	static const size_t two[] = { 60, 60 };
	size_t len = encode(f, two, 2, urb, sizeof(urb), sent);

	/* the first descriptor (at offset 128) now says 1000 */
	urb[128 + 2] = 1000 & 0xff;
	urb[128 + 3] = 1000 >> 8;
	return len;
}

static void test_fix_57bc3d3ae8c1(void **state)
{
	struct fx *f = *state;	/* ax88179-v5.16 */

	km_usbnet_rx_urb(f->dev, urb, claim_1000(f));
	assert_int_equal(reports(f, KM_R_RX_READ_PAST), 1);
}

static void test_fix_57bc3d3ae8c1_fixed(void **state)
{
	struct fx *f = *state;	/* ax88179-57bc3d3ae8c1 */

	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, claim_1000(f)), 0);
	assert_int_equal(reports(f, KM_R_RX_READ_PAST), 0);
	assert_int_equal(f->dev->net->stats.rx_errors, 1);
}

static void test_fix_57bc3d3ae8c1_mainline(void **state)
{
	struct fx *f = *state;	/* ax88179 */

	km_usbnet_rx_urb(f->dev, urb, claim_1000(f));
	assert_int_equal(reports(f, KM_R_RX_READ_PAST), 0);
}

/*
 * f8ebb3ac881b ("net: usb: ax88179_178a: Fix packet receiving"): after
 * 57bc3d3ae8c1 the metadata bound is pkt_cnt * 2 and the loop runs one
 * entry past pkt_cnt; an 8-byte transfer -- one zero descriptor at offset
 * 0 and rx_hdr = 1 | 0 << 16 -- passes the bound, and the loop reads the
 * descriptor, rx_hdr, then past the URB. The fix (pkt_cnt * 4, `pkt_cnt >
 * 0`) reads the one descriptor and stops.
 */
static const uint8_t f8ebb_urb[8] = { 0, 0, 0, 0, 1, 0, 0, 0 };

static void test_fix_f8ebb3ac881b(void **state)
{
	struct fx *f = *state;	/* ax88179-57bc3d3ae8c1 */

	assert_int_equal(km_usbnet_rx_urb(f->dev, f8ebb_urb, sizeof(f8ebb_urb)), 0);
	assert_int_equal(reports(f, KM_R_RX_READ_PAST), 1);
}

static void test_fix_f8ebb3ac881b_fixed(void **state)
{
	struct fx *f = *state;	/* ax88179 */

	assert_int_equal(km_usbnet_rx_urb(f->dev, f8ebb_urb, sizeof(f8ebb_urb)), 0);
	assert_int_equal(reports(f, KM_R_RX_READ_PAST), 0);
}

/*
 * e869e7a17798 ("net: usb: ax88179_178a: fix packet alignment padding"):
 * pkt_len counts the 2-byte pseudo header; before the fix every frame
 * passed up is 2 bytes too long ("two bytes of appended data on every RX
 * packet"), after it each is the frame sent. A transfer of one frame and
 * old firmware's single descriptor (the v5.7 loop meets no dummy).
 */
static size_t one_frame_old_firmware(struct fx *f, size_t flen)
{
	struct km_framing one = *f->v->framing;
	const uint8_t *ptrs[1] = { sent[0] };
	long len;

	one.descriptors_per_frame = 1;
	fill(sent[0], flen, 0);
	len = km_framing_encode(&one, ptrs, &flen, 1, urb, sizeof(urb));
	assert_true(len > 0);
	return (size_t)len;
}

static void test_fix_e869e7a17798(void **state)
{
	struct fx *f = *state;	/* ax88179-v5.7 */
	const size_t flen = 60;
	size_t len = one_frame_old_firmware(f, flen);

	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, len), 1);
	assert_int_equal(f->nframes, 1);
	assert_int_equal(f->lens[0], flen + 2);
	assert_false(km_framing_frame_ok(f->v->framing, sent[0], flen, f->frames[0], f->lens[0]));
}

static void test_fix_e869e7a17798_fixed(void **state)
{
	struct fx *f = *state;	/* ax88179-v5.16 */
	const size_t flen = 60;
	size_t len = one_frame_old_firmware(f, flen);

	assert_int_equal(km_usbnet_rx_urb(f->dev, urb, len), 1);
	assert_int_equal(f->nframes, 1);
	assert_true(km_framing_frame_ok(f->v->framing, sent[0], flen, f->frames[0], f->lens[0]));
}

/* ---- the checkers ---------------------------------------------------------- */

/* a user's driver of a few lines, through the layer's names, whose loop
 * forgets to pull what it read: the step bound stops it */
static int spin_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)dev;
	while (skb->len)
		km_compat_rx_step(skb->data, 4);	/* get_unaligned_le32(skb->data) */
	return 1;
}

static int pull_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)dev;
	while (skb->len >= 4) {
		km_compat_rx_step(skb->data, 4);
		km_skb_pull(skb, 4);
	}
	return 0;
}

/* a user's driver: "before"'s framing and tx_fixup, @info's rx_fixup and
 * flags, no bind (rx_urb_size is hard_mtu) */
static void up_user(struct fx *f, struct km_usbnet_variant *v,
		    struct km_usbnet_driver_info *info)
{
	*v = *km_usbnet_find_any("before");
	v->size = KM_USBNET_VARIANT_SIZE;
	v->info = info;
	info->tx_fixup = km_usbnet_find("before")->info->tx_fixup;
	memset(f, 0, sizeof(*f));
	km_fixture_up(&f->k, NULL);
	f->v = v;
	assert_int_equal(km_usbnet_probe(f->k.m, v, KM_USB_SPEED_HIGH, 512, NULL, &f->dev), 0);
	km_reports_set_log_max(f->k.m, 64);
}

static void test_checker_no_progress(void **state)
{
	static struct km_usbnet_driver_info info = { .description = "spin",
						     .flags = KM_FLAG_MULTI_PACKET };
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	up_user(&f, &v, &info);
	/* trips: the loop never pulls */
	info.rx_fixup = spin_fixup;
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 64), 0);
	assert_int_equal(reports(&f, KM_R_RX_NO_PROGRESS), 1);
	assert_int_equal(f.dev->net->stats.rx_errors, 1);
	/* does not: the same loop that pulls */
	info.rx_fixup = pull_fixup;
	assert_int_equal(f.dev->rx_urb_size, 1514);	/* no bind: hard_mtu */
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 1514), 0);
	assert_int_equal(reports(&f, KM_R_RX_NO_PROGRESS), 1);
	assert_int_equal(reports(&f, KM_R_RX_READ_PAST), 0);
	down(&f);
}

/* the read check: a read of the URB's last 4 bytes is fine, one byte
 * further is past its data (not past its buffer) */
static int edge_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)dev;
	km_compat_rx_step(skb->data + skb->len - 4, 4);
	if (skb->data[0] == 1)
		km_compat_rx_step(skb->data + skb->len - 3, 4);
	return 0;
}

static void test_checker_read_past(void **state)
{
	static struct km_usbnet_driver_info info = { .description = "edge",
						     .rx_fixup = edge_fixup };
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	up_user(&f, &v, &info);
	urb[0] = 0;
	km_usbnet_rx_urb(f.dev, urb, 100);
	assert_int_equal(reports(&f, KM_R_RX_READ_PAST), 0);
	urb[0] = 1;
	km_usbnet_rx_urb(f.dev, urb, 100);
	assert_int_equal(reports(&f, KM_R_RX_READ_PAST), 1);
	/* one report a URB: the next URB's read past is its own */
	km_usbnet_rx_urb(f.dev, urb, 100);
	assert_int_equal(reports(&f, KM_R_RX_READ_PAST), 2);
	urb[0] = 0;
	down(&f);
}

/* a read from the URB's buffer longer than the model's guard behind it
 * (a memcpy() source of a length the device claims): reported and not
 * done -- the driver is stopped there, as for a loop without progress --
 * even after an earlier read past the data was this URB's report; one
 * inside the guard goes on */
static bool guard_went_on;

static int guard_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)dev;
	uint8_t to[64];

	km_compat_rx_step(skb->data + skb->len, 4);	/* inside the guard */
	if (skb->data[0] == 2)	/* the layer's memcpy() of such a length */
		km_skb_compat_memcpy(to, skb->data + skb->len, (size_t)1 << 30);
	km_compat_rx_step(skb->data + skb->len, skb->data[0] == 1 ? (size_t)1 << 30 : 64);
	guard_went_on = true;
	return 1;
}

static void test_checker_read_past_guard(void **state)
{
	static struct km_usbnet_driver_info info = { .description = "guard",
						     .rx_fixup = guard_fixup };
	struct km_usbnet_variant v;
	struct km_usbnet_rx_stats st;
	struct fx f;

	(void)state;
	up_user(&f, &v, &info);
	km_usbnet_set_rx_sink(f.dev, on_rx, &f);
	urb[0] = 0;
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 1);
	assert_true(guard_went_on);
	assert_int_equal(reports(&f, KM_R_RX_READ_PAST), 1);
	guard_went_on = false;
	urb[0] = 1;
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
	assert_false(guard_went_on);
	assert_int_equal(reports(&f, KM_R_RX_READ_PAST), 3);
	km_usbnet_rx_get_stats(f.dev, &st);
	assert_int_equal(st.fixup_errors, 1);	/* stopped: as a 0 return */
	urb[0] = 2;
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
	assert_false(guard_went_on);
	assert_int_equal(reports(&f, KM_R_RX_READ_PAST), 5);
	urb[0] = 0;
	down(&f);
}

/* the step bound is KM_USBNET_RX_STEPS(len) steps (kmodel/usb.h): a loop
 * of that many goes on, one step more is stopped */
static int steps_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	unsigned int n = KM_USBNET_RX_STEPS(skb->len) + (skb->data[0] == 1);

	(void)dev;
	for (unsigned int i = 0; i < n; i++)
		km_compat_rx_step(NULL, 0);
	return 0;
}

static void test_checker_step_bound(void **state)
{
	static struct km_usbnet_driver_info info = { .description = "steps",
						     .rx_fixup = steps_fixup };
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	up_user(&f, &v, &info);
	urb[0] = 0;
	km_usbnet_rx_urb(f.dev, urb, 64);
	assert_int_equal(reports(&f, KM_R_RX_NO_PROGRESS), 0);
	urb[0] = 1;
	km_usbnet_rx_urb(f.dev, urb, 64);
	assert_int_equal(reports(&f, KM_R_RX_NO_PROGRESS), 1);
	urb[0] = 0;
	down(&f);
}

/* a URB given from inside rx_fixup while the machine processes one: refused
 * (usbnet's bh processes the done queue one skb at a time) */
static int nested_rc;

static int nested_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)skb;
	nested_rc = km_usbnet_rx_urb(dev, urb, 16);
	return 0;
}

static void test_rx_urb_nested(void **state)
{
	static struct km_usbnet_driver_info info = { .description = "nested",
						     .rx_fixup = nested_fixup };
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	up_user(&f, &v, &info);
	km_printk_set_quiet(f.k.m, true);
	nested_rc = 1;
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 64), 0);
	assert_int_equal(nested_rc, -EINVAL);
	down(&f);
}

/* the byte after a transfer is the model's poison (POISON_FREE 0x6b,
 * include/linux/poison.h), not what a longer transfer left in the buffer
 * before: a driver reading past the data sees no stale frame */
static int past_byte = -1;

static int peek_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)dev;
	past_byte = skb->data[skb->len];
	return 0;
}

static void test_rx_stale_bytes_poisoned(void **state)
{
	static struct km_usbnet_driver_info info = { .description = "peek",
						     .rx_fixup = peek_fixup };
	struct km_usbnet_variant v;
	uint8_t saved[100];
	struct fx f;

	(void)state;
	up_user(&f, &v, &info);
	memcpy(saved, urb, sizeof(saved));
	memset(urb, 0xaa, sizeof(saved));
	km_usbnet_rx_urb(f.dev, urb, 100);
	assert_int_equal(past_byte, 0x6b);
	km_usbnet_rx_urb(f.dev, urb, 20);
	assert_int_equal(past_byte, 0x6b);
	memcpy(urb, saved, sizeof(saved));
	down(&f);
}

/* a driver that drops every transfer (rx_fixup() returns 0) */
static int fail_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)dev;
	(void)skb;
	return 0;
}

static struct km_usbnet_driver_info fail_info = { .description = "fail",
						  .rx_fixup = fail_fixup };

/* Each transfer's kmalloc()s and kfree()s counted as the target's objects,
 * mainline: rx_submit() gives the URB __netdev_alloc_skb_ip_align(
 * rx_urb_size), here usbnet_probe()'s hard_mtu 1514 (a bind that sets
 * none), counted as __alloc_skb()'s kmalloc (the model leaves mainline's
 * page_frag_alloc() out: docs/receive.md): SKB_DATA_ALIGN(1514 +
 * NET_SKB_PAD 64 + NET_IP_ALIGN 2) + SKB_DATA_ALIGN(192 bytes of
 * skb_shared_info) = 1792 bytes, kmalloc-2048,
 * which rx_cleanup frees. The URB, a struct urb of 124 bytes on 32-bit ARM
 * (kmalloc-128), is usb_alloc_urb()'d for the first transfer only:
 * rx_complete() of a transfer with status 0 resubmits it with the next
 * skb (`rx_submit(dev, urb, GFP_ATOMIC)`, usbnet.c v3.5 and mainline), and
 * nothing frees it while the device runs. */
static void test_rx_urb_kmalloc_events(void **state)
{
	struct km_events a, b;
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	up_user(&f, &v, &fail_info);
	f.dev->era = KM_USBNET_MAINLINE;
	assert_int_equal(f.dev->rx_urb_size, 1514);
	memset(urb, 0, 100);
	for (int i = 0; i < 3; i++) {
		int urbs = i == 0;	/* the URB: the first transfer's */

		km_events_get(f.k.m, &a);
		assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
		km_events_get(f.k.m, &b);
		assert_int_equal(b.urb_allocs - a.urb_allocs, urbs);
		assert_int_equal(b.kmalloc_calls - a.kmalloc_calls, urbs + 1);
		assert_int_equal(b.kmalloc_arm_bytes - a.kmalloc_arm_bytes, 128 * urbs + 2048);
		assert_int_equal(b.kmalloc_class[7] - a.kmalloc_class[7], urbs);
		assert_int_equal(b.kmalloc_class[11] - a.kmalloc_class[11], 1);
		assert_int_equal(b.kfree_calls - a.kfree_calls, 1);
		assert_int_equal(b.kfree_arm_bytes - a.kfree_arm_bytes, 2048);
		assert_int_equal(b.kfree_class[7] - a.kfree_class[7], 0);
		assert_int_equal(b.kfree_class[11] - a.kfree_class[11], 1);
	}
	down(&f);
}

/* v3.5: rx_submit()'s __netdev_alloc_skb_ip_align(dev->net, size,
 * GFP_ATOMIC) (usbnet.c, linux-3.5) takes netdev_alloc_frag() when
 * `fragsz <= PAGE_SIZE && !(gfp_mask & __GFP_WAIT)` (net/core/skbuff.c,
 * v3.5), fragsz = SKB_DATA_ALIGN(1514 + 64 + 2) + 192 = 1792: no kmalloc
 * for the skb. The CPU's cache carves a page: two 1792-byte fragments fit
 * in 4096, the third does not (put_page() of the cache's page, which the
 * freed fragments left at 0, and alloc_page() of the next). Per transfer:
 * a get_page() for the fragment and a put_page() when rx_cleanup frees
 * it. */
static void test_rx_urb_frag_events(void **state)
{
	static const struct {
		uint64_t alloc, get, put, freed;
	} want[] = {
		{ 1, 1, 1, 0 },	/* a new page; the cache keeps it */
		{ 0, 1, 1, 0 },	/* 3584 <= 4096: the same page */
		{ 1, 1, 2, 1 },	/* 5376 > 4096: the old one goes */
		{ 0, 1, 1, 0 },
	};
	struct km_events a, b;
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	up_user(&f, &v, &fail_info);
	assert_int_equal(f.dev->era, KM_USBNET_V3_5);
	assert_int_equal(f.dev->rx_urb_size, 1514);
	memset(urb, 0, 100);
	for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
		km_events_get(f.k.m, &a);
		assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
		km_events_get(f.k.m, &b);
		/* the URB's kmalloc-128 the first time, nothing else */
		assert_int_equal(b.kmalloc_calls - a.kmalloc_calls, i == 0);
		assert_int_equal(b.kmalloc_class[11] - a.kmalloc_class[11], 0);
		assert_int_equal(b.kfree_calls - a.kfree_calls, 0);
		assert_int_equal(b.skb_allocs - a.skb_allocs, 1);
		assert_int_equal(b.skb_frees - a.skb_frees, 1);
		assert_int_equal(b.pages_allocated - a.pages_allocated, want[i].alloc);
		assert_int_equal(b.get_page_calls - a.get_page_calls, want[i].get);
		assert_int_equal(b.put_page_calls - a.put_page_calls, want[i].put);
		assert_int_equal(b.pages_freed - a.pages_freed, want[i].freed);
	}
	down(&f);
}

/* __netdev_alloc_skb()'s page test at its edge (v3.5): rx_urb_size 3838
 * makes SKB_DATA_ALIGN(3838 + 66) + 192 = 4096, a fragment; 3839 makes
 * 3968 + 192 = 4160, __alloc_skb(): kmalloc-8192. And netdev_alloc_skb()
 * with __GFP_WAIT (GFP_KERNEL) is __alloc_skb()'s at any size. */
static void test_rx_netdev_frag_edge(void **state)
{
	static const struct {
		const char *name;
		size_t rx_urb_size;
		uint64_t pages, kmalloc8192;
	} rows[] = {
		{ "fragsz 4096: a fragment", 3838, 1, 0 },
		{ "fragsz 4160: kmalloc", 3839, 0, 1 },
	};
	struct km_events a, b;
	struct km_usbnet_variant v;
	struct km_skb *skb;
	struct fx f;

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		up_user(&f, &v, &fail_info);
		f.dev->rx_urb_size = rows[i].rx_urb_size;
		km_events_get(f.k.m, &a);
		assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
		km_events_get(f.k.m, &b);
		print_message("%s\n", rows[i].name);
		assert_int_equal(b.pages_allocated - a.pages_allocated, rows[i].pages);
		assert_int_equal(b.kmalloc_class[13] - a.kmalloc_class[13], rows[i].kmalloc8192);
		down(&f);
	}
	/* GFP_ATOMIC: SKB_DATA_ALIGN(60 + 64) + 192 = 320, a fragment;
	 * GFP_KERNEL: kmalloc(320), kmalloc-512 */
	up_user(&f, &v, &fail_info);
	km_events_get(f.k.m, &a);
	skb = km_netdev_alloc_skb(f.k.t, f.dev->net, 60, KM_GFP_ATOMIC);
	assert_non_null(skb);
	km_kfree_skb(skb);
	km_events_get(f.k.m, &b);
	assert_int_equal(b.pages_allocated - a.pages_allocated, 1);
	assert_int_equal(b.kmalloc_calls - a.kmalloc_calls, 0);
	skb = km_netdev_alloc_skb(f.k.t, f.dev->net, 60, KM_GFP_KERNEL);
	assert_non_null(skb);
	km_kfree_skb(skb);
	km_events_get(f.k.m, &a);
	assert_int_equal(a.pages_allocated - b.pages_allocated, 0);
	assert_int_equal(a.kmalloc_class[9] - b.kmalloc_class[9], 1);
	down(&f);
}

/* The receive URB's life (usbnet.c, v3.5 and mainline): two consecutive
 * transfers take one usb_alloc_urb() -- rx_complete() resubmits the URB
 * (`if (urb) { if (netif_running(dev->net) && !test_bit(EVENT_RX_HALT,
 * ...)) { rx_submit(dev, urb, GFP_ATOMIC); ... return; }`), in either
 * era; rx_submit() without an skb ("no rx skb") usb_free_urb()s it, so
 * the transfer after that allocates one again (EVENT_RX_MEMORY's kevent:
 * usb_alloc_urb(0, GFP_KERNEL), rx_submit()); usbnet_stop() at
 * disconnect unlinks rxq and the completion frees it (rx_cleanup). */
static void test_rx_urb_resubmitted(void **state)
{
	static const enum km_usbnet_era eras[] = { KM_USBNET_V3_5, KM_USBNET_MAINLINE };
	struct km_events a, b;
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	for (size_t e = 0; e < G_N_ELEMENTS(eras); e++) {
		up_user(&f, &v, &fail_info);
		f.dev->era = eras[e];
		/* past a page: __alloc_skb()'s kmalloc in either era, which the
		 * fault injection fails */
		f.dev->rx_urb_size = 4096;
		memset(urb, 0, 100);
		km_events_get(f.k.m, &a);
		assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
		assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
		km_events_get(f.k.m, &b);
		assert_int_equal(b.urb_allocs - a.urb_allocs, 1);
		assert_int_equal(b.urbs - a.urbs, 2);
		assert_int_equal(b.kfree_class[7] - a.kfree_class[7], 0);
		/* the next skb fails: the URB is freed with it */
		km_fault_fail_kmalloc_nth(f.k.m, 1);
		assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), -ENOMEM);
		km_events_get(f.k.m, &a);
		assert_int_equal(a.kfree_class[7] - b.kfree_class[7], 1);
		assert_int_equal(a.urb_allocs, b.urb_allocs);
		assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
		assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
		km_events_get(f.k.m, &b);
		assert_int_equal(b.urb_allocs - a.urb_allocs, 1);
		/* disconnect frees it */
		km_usbnet_free(f.dev);
		f.dev = NULL;
		km_events_get(f.k.m, &a);
		assert_int_equal(a.kfree_class[7] - b.kfree_class[7], 1);
		down(&f);
	}
}

/* Past its rx_fixup, a URB's step bound and read checks are gone: the
 * layer's steps count nowhere and read nothing (km_compat_rx_step():
 * nothing outside km_usbnet_rx_urb()'s rx_fixup call) */
static void test_rx_step_after_fixup(void **state)
{
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	up_user(&f, &v, &fail_info);
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
	for (unsigned int i = 0; i <= KM_USBNET_RX_STEPS(100); i++)
		km_compat_rx_step(urb, 4);
	assert_int_equal(reports(&f, KM_R_NONE), 0);
	down(&f);
}

/* le64_to_cpup() through the layer (tests/compat/rx_le64.c, aqc111's
 * header read): the transfer's last 8 bytes decode little-endian and are
 * no read past; 4 bytes further, 4 of them lie past the transfer */
static void test_checker_read_past_le64(void **state)
{
	struct km_usbnet_driver_info info = km_test_le64_info;
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	up_user(&f, &v, &info);
	memset(urb, 0, 100);
	for (int i = 0; i < 8; i++)
		urb[92 + i] = (uint8_t)(i + 1);
	km_usbnet_rx_urb(f.dev, urb, 100);
	assert_int_equal(reports(&f, KM_R_RX_READ_PAST), 0);
	assert_int_equal(f.dev->net->stats.rx_errors, 0);	/* RX_LE64_HDR read */
	urb[0] = 1;
	km_usbnet_rx_urb(f.dev, urb, 100);
	assert_int_equal(reports(&f, KM_R_RX_READ_PAST), 1);
	assert_int_equal(f.dev->net->stats.rx_errors, 1);
	down(&f);
}

/* a runt passed up at the transfer's end: eth_type_trans() reads 14 bytes
 * from its data, past the URB's (v3.5 rx_process() passes any non-empty
 * skb up); the same runt 14 bytes before the end reads nothing past */
static int runt_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)dev;
	km_skb_pull(skb, skb->len - 4 - (skb->data[0] == 1 ? 14 : 0));
	km_skb_trim(skb, 4);
	return 1;
}

static void test_checker_runt_reads_eth_header(void **state)
{
	static struct km_usbnet_driver_info info = { .description = "runt",
						     .rx_fixup = runt_fixup };
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	up_user(&f, &v, &info);
	km_usbnet_set_rx_sink(f.dev, on_rx, &f);
	urb[0] = 1;
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 1);
	assert_int_equal(reports(&f, KM_R_RX_READ_PAST), 0);
	urb[0] = 0;
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 1);
	assert_int_equal(reports(&f, KM_R_RX_READ_PAST), 1);
	assert_int_equal(f.dev->net->stats.rx_bytes, 8);	/* no pull of a runt */
	down(&f);
}

/*
 * A frame of the driver's own skb whose len runs past its buffer (the
 * documented calls of test_skb's test_len_past_buffer: alloc_skb(1000),
 * skb_put(1856), skb_set_tail_pointer(skb, 0), skb_put(1856): len 3712 in
 * a 2048-byte object) passed up: a KM_R_SKB_INVALID BUG, and the stack is
 * shown only the buffer's bytes.
 */
static int overlong_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	struct km_skb *own = km_alloc_skb(km_current(), 1000, KM_GFP_ATOMIC);

	(void)skb;
	assert_non_null(own);
	km_skb_put(own, 1856);
	km_skb_set_tail_pointer(own, 0);
	km_skb_put(own, 1856);
	km_usbnet_skb_return(dev, own);
	return 0;
}

static void test_rx_own_skb_past_buffer(void **state)
{
	static struct km_usbnet_driver_info info = { .description = "overlong",
						     .rx_fixup = overlong_fixup };
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	up_user(&f, &v, &info);
	km_usbnet_set_rx_sink(f.dev, on_rx, &f);
	km_usbnet_rx_urb(f.dev, urb, 64);
	assert_int_equal(reports(&f, KM_R_SKB_INVALID), 1);
	assert_int_equal(f.nframes, 1);
	assert_true(f.lens[0] <= 2048);
	down(&f);
}

/*
 * FLAG_MULTI_PACKET on v3.5: rx_process() tests `if (skb->len)` first --
 * a non-empty skb is freed (the driver cloned its frames), an empty one
 * is a "drop", rx_errors++ (drivers/net/usb/usbnet.c, v3.5). The fixup
 * clones nothing and leaves the skb as its first byte says.
 */
static int multi_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)dev;
	if (skb->data[0] == 1)
		km_skb_pull(skb, skb->len);
	return 1;
}

static void test_multi_packet_v35_empty(void **state)
{
	static struct km_usbnet_driver_info info = { .description = "multi",
						     .rx_fixup = multi_fixup,
						     .flags = KM_FLAG_MULTI_PACKET };
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	up_user(&f, &v, &info);
	km_usbnet_set_rx_sink(f.dev, on_rx, &f);
	urb[0] = 0;
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
	assert_int_equal(f.dev->net->stats.rx_errors, 0);
	urb[0] = 1;
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
	assert_int_equal(f.dev->net->stats.rx_errors, 1);
	assert_int_equal(f.nframes, 0);
	urb[0] = 0;
	down(&f);
}

/* FLAG_RX_ASSEMBLE: "rx_fixup() must update counters" (usbnet.c v3.5
 * rx_process()): a 0 return is no rx_errors of usbnet's then */
static void test_rx_assemble_counts(void **state)
{
	static struct km_usbnet_driver_info info = { .description = "fail",
						     .rx_fixup = fail_fixup };
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	info.flags = KM_FLAG_RX_ASSEMBLE;
	up_user(&f, &v, &info);
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
	assert_int_equal(f.dev->net->stats.rx_errors, 0);
	info.flags = 0;
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 0);
	assert_int_equal(f.dev->net->stats.rx_errors, 1);
	down(&f);
}

/* iperf's tcp-rx row (km_iperf_opts.rx): every segment in through
 * usbnet's receive path and asix_rx_fixup() of v3.5, byte for byte, one
 * frame passed up per packet (eth_rx_frames), an ACK out per two; a
 * variant without a receive side has no such row */
static const struct km_value *cell(const struct km_table *t, size_t r, const char *col)
{
	long c = km_table_column_index(t, col);

	assert_true(c >= 0);
	return km_table_value(t, r, (size_t)c);
}

static void test_iperf_rx_row(void **state)
{
	const struct km_usbnet_variant *vs[] = { km_usbnet_find("before"),
						 km_usbnet_find("after") };
	struct km_iperf_opts o = { .packets = 200, .repeat = 1, .rx = true };
	struct km_table *t = NULL;
	unsigned int rows = 0;

	(void)state;
	assert_int_equal(km_iperf_run(&o, vs, 2, &t), 0);
	for (size_t r = 0; r < km_table_nrows(t); r++) {
		if (strcmp(cell(t, r, "traffic")->s, "tcp-rx"))
			continue;
		rows++;
		assert_string_equal(cell(t, r, "variant")->s, "before");
		assert_int_equal(cell(t, r, "frames_ok")->i, 200);
		assert_true(cell(t, r, "eth_rx_frames_per_packet")->d == 1.0);
		/* the ACKs: one 66-byte frame out per two segments in */
		assert_true(cell(t, r, "eth_frames_per_packet")->d == 0.5);
		/* v3.5, net/core/skbuff.c: the URB's skb a fragment of
		 * SKB_DATA_ALIGN(2048 + 64 + 2) + 192 = 2368 bytes, the frame's
		 * copy (asix_rx_fixup()'s netdev_alloc_skb_ip_align()) one of
		 * SKB_DATA_ALIGN(1514 + 2 + 64) + 192 = 1792: they do not share
		 * a page (4160 > 4096), so each takes a new one (alloc_page(),
		 * the cache's put_page() of the last) and holds it (get_page(),
		 * put_page() at its free): no kmalloc-4096, no kmalloc-2048
		 * for them */
		assert_true(cell(t, r, "pages_allocated_per_packet")->d == 2.0);
		assert_true(cell(t, r, "get_page_calls_per_packet")->d == 2.0);
		assert_true(cell(t, r, "put_page_calls_per_packet")->d == 4.0);
		assert_true(cell(t, r, "pages_freed_per_packet")->d == 2.0);
		assert_true(cell(t, r, "kmalloc_class_12_per_packet")->d == 0.0);
	}
	assert_int_equal(rows, 1);
	km_table_free(t);
	/* without @rx: no tcp-rx row */
	o.rx = false;
	assert_int_equal(km_iperf_run(&o, vs, 2, &t), 0);
	for (size_t r = 0; r < km_table_nrows(t); r++)
		assert_string_not_equal(cell(t, r, "traffic")->s, "tcp-rx");
	km_table_free(t);
}

/* A built-in receive variant (km_usbnet_rx_variants(), not in
 * km_usbnet_variants()) has mainline asix's or ax88179's transmit side: its
 * one iperf row is tcp-rx, a built-in's; without @rx it has none, and
 * km_iperf_run() says so */
static void test_iperf_rx_twin(void **state)
{
	const struct km_usbnet_variant *vs[] = { km_usbnet_find_any("asix-v4.14") };
	struct km_iperf_opts o = { .packets = 100, .repeat = 1, .rx = true };
	struct km_table *t = NULL;

	(void)state;
	assert_non_null(vs[0]);
	assert_null(km_usbnet_find("asix-v4.14"));
	assert_int_equal(km_iperf_run(&o, vs, 1, &t), 0);
	assert_int_equal(km_table_nrows(t), 1);
	assert_string_equal(cell(t, 0, "traffic")->s, "tcp-rx");
	assert_true(cell(t, 0, "builtin")->b);
	assert_int_equal(cell(t, 0, "frames_ok")->i, 100);
	km_table_free(t);
	o.rx = false;
	t = NULL;
	assert_int_equal(km_iperf_run(&o, vs, 1, &t), -EINVAL);
	assert_null(t);
	assert_non_null(strstr(km_last_error(), "only row is tcp-rx"));
}

/* A receive-only driver, as aqc111's rx_fixup is ported first: no
 * tx_fixup, no device model, a framing without a length word. usbnet has
 * tx_fixup optional (usbnet_start_xmit(): "if (info->tx_fixup)",
 * drivers/net/usb/usbnet.c, v3.5 and mainline): it probes, receives, and
 * its transmit sends the skb unchanged; the tx sweep and iperf, which need
 * a device parsing the bulk-out, refuse it by name. */
static int pass_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)dev;
	(void)skb;
	return 1;	/* usbnet passes the whole transfer up */
}

static void test_rx_only_variant(void **state)
{
	static const struct km_usbnet_driver_info info = { .description = "rx only",
							   .rx_fixup = pass_fixup };
	struct km_usbnet_variant v = *km_usbnet_find_any("ax88179");
	const struct km_usbnet_variant *vs[] = { &v, NULL };
	struct km_sweep_config c = { .variants = vs };
	struct km_iperf_opts o = { .packets = 10, .repeat = 1, .maxpacket = 1024 };
	struct km_sweep_result *res = NULL;
	struct km_table *t = NULL;
	struct km_skb *skb;
	struct fx f;

	(void)state;
	v.size = KM_USBNET_VARIANT_SIZE;
	v.name = "rx-only";
	v.info = &info;
	v.dev_new = NULL;
	assert_false(km_usbnet_variant_has_tx_dev(&v));
	assert_int_equal(km_usbnet_variant_check(&v), 0);
	memset(&f, 0, sizeof(f));
	km_fixture_up(&f.k, NULL);
	assert_int_equal(km_usbnet_probe(f.k.m, &v, KM_USB_SPEED_SUPER, 1024, NULL, &f.dev), 0);
	km_usbnet_set_rx_sink(f.dev, on_rx, &f);
	memset(urb, 0x5a, 60);
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 60), 1);	/* frames passed up */
	assert_int_equal(f.nframes, 1);
	assert_int_equal(f.lens[0], 60);
	/* transmit: the skb as it is, one 60-byte URB */
	skb = km_alloc_skb(f.k.t, 60, KM_GFP_KERNEL);
	assert_non_null(skb);
	km_skb_put(skb, 60);
	assert_int_equal(km_usbnet_start_xmit(f.dev, skb), 0);
	assert_int_equal(f.dev->last_urb_len, 60);
	assert_int_equal(f.dev->net->tx_packets, 1);
	down(&f);
	/* no device parses its bulk-out: refused with its name, no crash */
	assert_int_equal(km_sweep_run(&c, &res), -EINVAL);
	assert_null(res);
	assert_non_null(strstr(km_last_error(), "rx-only has a receive side only"));
	assert_int_equal(km_iperf_run(&o, vs, 1, &t), -EINVAL);
	assert_null(t);
	assert_non_null(strstr(km_last_error(), "rx-only has a receive side only"));
	/* neither a device nor a receive side: still refused */
	v.framing = NULL;
	assert_int_equal(km_usbnet_variant_check(&v), -EINVAL);
}

/* km_usbnet_rx_urb() on a `current` of another machine: -EINVAL with a
 * message naming the fix, not a silent error */
static void test_rx_urb_wrong_current(void **state)
{
	struct fx f;
	struct km_fixture other;

	(void)state;
	up(&f, "before", KM_USB_SPEED_HIGH, 512);
	km_fixture_up(&other, NULL);	/* switches current to its task */
	km_set_error("%s", "");
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 64), -EINVAL);
	assert_non_null(strstr(km_last_error(), "another machine"));
	assert_non_null(strstr(km_last_error(), "km_task_switch()"));
	km_task_switch(NULL);
	km_set_error("%s", "");
	assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 64), -EINVAL);
	assert_non_null(strstr(km_last_error(), "km_task_switch()"));
	km_fixture_down(&other);
	km_task_switch(f.k.t);
	down(&f);
}

/* SKB_TRUESIZE() (include/linux/skbuff.h, mainline): X plus sizeof(struct
 * sk_buff) and sizeof(struct skb_shared_info), each rounded up to
 * SMP_CACHE_BYTES -- the layer's structs are the model's, the cache line
 * the machine's (L1_CACHE_BYTES) */
static size_t up_to(size_t x, size_t a)
{
	return (x + a - 1) / a * a;
}

static void test_skb_truesize(void **state)
{
	static const unsigned int lines[] = { 64, 32, 128 };

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(lines); i++) {
		struct km_machine_config cfg = { .l1_cache_bytes = lines[i] };
		struct km_fixture k;

		km_fixture_up(&k, &cfg);
		for (unsigned int len = 0; len <= 1514; len += 1514) {
			size_t want = len + up_to(sizeof(struct km_skb), lines[i]) +
				      up_to(sizeof(struct km_skb_shared_info), lines[i]);

			assert_int_equal(km_test_skb_truesize(len), want);
		}
		km_fixture_down(&k);
	}
}

/* skb_set_tail_pointer() past end is no panic (v3.5 include/linux/skbuff.h);
 * the skb_put() after it is */
static void test_set_tail_pointer_then_put(void **state)
{
	struct km_fixture *k = *state;
	struct km_skb *skb;

	km_reports_set_log_max(k->m, 8);
	skb = km_alloc_skb(k->t, 100, KM_GFP_ATOMIC);
	km_skb_set_tail_pointer(skb, (int)(skb->end - skb->data) + 8);
	assert_ptr_equal(skb->tail, skb->end + 8);
	assert_int_equal(km_report_count(k->m, KM_R_NONE), 0);
	km_skb_put(skb, 1);
	assert_int_equal(km_report_count(k->m, KM_R_SKB_OVER), 1);
	km_skb_set_tail_pointer(skb, 0);
	km_kfree_skb(skb);
	km_reports_clear(k->m);
}

/* A read that STARTS past the URB's data, at any offset a 32-bit field
 * puts it (aqc111_rx_fixup()'s desc_offset is 19 bits, skb->len 32): one
 * in the guard right behind the data is reported and goes on (it reads
 * stale bytes, POISON_FREE); one that starts beyond the guard is reported
 * with the offset and stopped, never done -- the layer's memcpy() below
 * would fault if it ran, the span behind the guard being the model's and
 * inaccessible. The driver's own memory (its stack, a kmalloc object) and
 * the transfer's bytes are no read past. */
static const struct beyond_row {
	const char *name;
	uint64_t off;		/* from skb->data; the transfer is 100 bytes */
	size_t n;
	bool past, stopped;
} beyond_rows[] = {
	{ "the transfer's last word", 96, 4, false, false },
	{ "the guard's first word", 100, 4, true, false },
	{ "1 MiB past", 1u << 20, 4, true, true },
	{ "1 GiB past", 1u << 30, 8, true, true },
	{ "the last word a 32-bit offset reaches", 0xfffffff8u, 8, true, true },
};
static const struct beyond_row *beyond;
static bool beyond_went_on;

static int beyond_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	uint8_t own[8] = { 0 }, to[8];
	void *obj = km_kmalloc(km_current(), 64, KM_GFP_ATOMIC);

	(void)dev;
	km_skb_compat_memcpy(to, own, sizeof(own));
	km_skb_compat_memcpy(to, obj, 8);
	km_kfree(km_current(), obj);
	km_skb_compat_memcpy(to, (const void *)((uintptr_t)skb->data + beyond->off), beyond->n);
	beyond_went_on = true;
	return 1;
}

static void test_checker_read_beyond_guard(void **state)
{
	static struct km_usbnet_driver_info info = { .description = "beyond",
						     .flags = KM_FLAG_MULTI_PACKET,
						     .rx_fixup = beyond_fixup };
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	up_user(&f, &v, &info);
	memset(urb, 0, 100);
	for (size_t r = 0; r < G_N_ELEMENTS(beyond_rows); r++) {
		const struct km_report *rep;
		char off[32];

		beyond = &beyond_rows[r];
		beyond_went_on = false;
		km_reports_clear(f.k.m);
		km_usbnet_rx_urb(f.dev, urb, 100);
		if (reports(&f, KM_R_RX_READ_PAST) != beyond->past || beyond_went_on == beyond->stopped)
			fail_msg("%s: %lu reports, %s", beyond->name,
				 reports(&f, KM_R_RX_READ_PAST), beyond_went_on ? "went on" : "stopped");
		if (!beyond->past)
			continue;
		rep = km_report_get(f.k.m, 0);
		snprintf(off, sizeof(off), "at URB offset %" PRIu64 " ", beyond->off);
		if (!strstr(rep->message, off) || !strstr(rep->message, "its 100 bytes of data"))
			fail_msg("%s: the report does not give the state: %s", beyond->name,
				 rep->message);
	}
	down(&f);
}

/* a frame passed up whose data a driver put 1 MiB past the transfer (as
 * aqc111_rx_fixup() sets new_skb->len, a driver may set data): reported,
 * and the sink is handed none of its bytes */
static int far_frame_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	struct km_skb *c = km_skb_clone(km_current(), skb, KM_GFP_ATOMIC);

	if (!c)
		return 0;
	c->data = (unsigned char *)((uintptr_t)c->data + (skb->data[0] ? 1u << 20 : 0));
	c->len = 14;
	c->tail = c->data + 14;
	km_usbnet_skb_return(dev, c);
	return 1;
}


/* examples/byo_rx_framing's aqc111_rx_fixup() (compiled into this test),
 * before and after afb8e2465275, on a transfer shorter than its 8-byte
 * header: mainline
 * usbnet's rx_complete() has no length check, so the skb comes to
 * rx_fixup; skb_trim(skb, skb->len - sizeof(desc_hdr)) is no trim there
 * (the length wraps, and skb_trim() only shortens), and le64_to_cpup()
 * reads the header at skb_tail_pointer(): 8 bytes from the transfer's
 * end, past it. Both versions (the fix bounds the descriptors, not this
 * read); at 8 bytes nothing is read past. The start_of_descs check then
 * fails: rx_fixup returns 0. */
int kmodel_plugin_init(struct km_registry *reg);	/* examples/byo_rx_framing */

static void test_aqc111_short_transfer(void **state)
{
	static const char *const names[] = { "aqc111", "aqc111-afb8e2465275" };
	struct km_registry *reg;

	(void)state;
	assert_int_equal(km_registry_new(KM_REGISTRY_DEFAULT, &reg), 0);
	assert_int_equal(kmodel_plugin_init(reg), 0);	/* the example, compiled in */
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
		for (size_t len = 1; len <= 8; len++) {
			const struct km_usbnet_variant *v = km_registry_find_usbnet(reg, names[i]);
			struct fx f;

			assert_non_null(v);
			memset(&f, 0, sizeof(f));
			km_fixture_up(&f.k, NULL);
			km_printk_set_quiet(f.k.m, true);
			assert_int_equal(km_usbnet_probe(f.k.m, v, KM_USB_SPEED_SUPER, 1024, NULL,
							 &f.dev), 0);
			memset(urb, 0, len);
			assert_int_equal(km_usbnet_rx_urb(f.dev, urb, len), 0);
			if (reports(&f, KM_R_RX_READ_PAST) != (len < 8))
				fail_msg("%s, %zu bytes: %lu reads past", names[i], len,
					 reports(&f, KM_R_RX_READ_PAST));
			assert_int_equal(f.dev->net->stats.rx_errors, 1);
			down(&f);
		}
	km_registry_free(reg);
}

/* A frame passed up whose tail, not its len, lies past the transfer: the
 * checker reads "the skb's len/tail". Kernel contract (v3.5
 * include/linux/skbuff.h, net/core/skbuff.c): skb_trim(skb, 14) of a
 * longer skb sets len 14 and tail = data + 14 (__skb_trim());
 * skb_set_tail_pointer(skb, off) sets tail = data + off and leaves len;
 * a clone shares the buffer (data, tail as the original's). The driver
 * (as aqc111_rx_fixup() builds its frames) clones the URB's skb, trims
 * the clone to 14 bytes and sets its tail @urb[0] bytes from data. */
static int tail_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	struct km_skb *c = km_skb_clone(km_current(), skb, KM_GFP_ATOMIC);
	int off = skb->data[0];

	if (!c)
		return 0;
	assert_ptr_equal(c->data, skb->data);
	assert_ptr_equal(c->tail, skb->data + skb->len);
	km_skb_trim(c, 14);
	assert_int_equal(c->len, 14);
	assert_ptr_equal(c->tail, c->data + 14);
	km_skb_trim(c, 20);		/* not shorter: nothing changes */
	assert_int_equal(c->len, 14);
	assert_ptr_equal(c->tail, c->data + 14);
	km_skb_set_tail_pointer(c, off);
	assert_int_equal(c->len, 14);
	assert_ptr_equal(c->tail, c->data + off);
	km_usbnet_skb_return(dev, c);
	return 1;
}

/* a frame passed up that lies past the transfer by its tail only, or by
 * its data 1 MiB past: urb[0] @ok is no report, @bad one that names the
 * frame; the sink gets @bad_len bytes of the bad one */
static void test_checker_frame_past(void **state)
{
	static struct km_usbnet_driver_info infos[] = {
		{ .description = "tail", .flags = KM_FLAG_MULTI_PACKET, .rx_fixup = tail_fixup },
		{ .description = "far frame", .flags = KM_FLAG_MULTI_PACKET,
		  .rx_fixup = far_frame_fixup },
	};
	static const struct {
		uint8_t ok, bad;
		size_t bad_len;
	} rows[] = {
		{ 100, 101, 14 },	/* tail at the transfer's end, then one past */
		{ 0, 1, 0 },		/* data in the transfer, then beyond the guard */
	};

	(void)state;
	for (size_t r = 0; r < G_N_ELEMENTS(rows); r++) {
		struct km_usbnet_variant v;
		struct fx f;

		up_user(&f, &v, &infos[r]);
		km_usbnet_set_rx_sink(f.dev, on_rx, &f);
		memset(urb, 0, 100);
		urb[0] = rows[r].ok;
		assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 1);
		assert_int_equal(reports(&f, KM_R_RX_READ_PAST), 0);
		assert_int_equal(f.lens[0], 14);
		urb[0] = rows[r].bad;
		assert_int_equal(km_usbnet_rx_urb(f.dev, urb, 100), 1);
		assert_int_equal(reports(&f, KM_R_RX_READ_PAST), 1);
		assert_int_equal(km_report_get(f.k.m, 0)->code, KM_R_RX_READ_PAST);
		assert_non_null(strstr(km_report_get(f.k.m, 0)->message, "frame passed up"));
		assert_int_equal(f.lens[1], rows[r].bad_len);
		assert_int_equal(f.dev->net->stats.rx_packets, 2);
		urb[0] = 0;
		down(&f);
	}
}

#define FX(fn, dev) cmocka_unit_test_prestate_setup_teardown(fn, fx_setup, fx_teardown, \
							       (void *)&(dev))

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_framing_ax88772_layout),
		cmocka_unit_test(test_framing_ax88179_layout),
		cmocka_unit_test(test_framing_builtin_layouts),
		cmocka_unit_test(test_framing_length_layouts),
		cmocka_unit_test(test_framing_encoder_hook),
		cmocka_unit_test(test_framing_decode_hook),
		FX(test_asix_v35_boundaries, before),
		FX(test_asix_v35_malformed, before),
		FX(test_asix_v35_frame_split_across_urbs, before),
		FX(test_asix_v4_14_across_urbs, asix_v4_14),
		FX(test_asix_v4_14_rebind_starts_afresh, asix_v4_14),
		FX(test_v35_short_transfer, before),
		FX(test_sr9800_boundaries, sr9800),
		FX(test_ax88179_mainline_frames, ax88179),
		FX(test_fix_57bc3d3ae8c1, ax88179_v5_16),
		FX(test_fix_57bc3d3ae8c1_fixed, ax88179_57bc),
		FX(test_fix_57bc3d3ae8c1_mainline, ax88179),
		FX(test_fix_f8ebb3ac881b, ax88179_57bc),
		FX(test_fix_f8ebb3ac881b_fixed, ax88179),
		FX(test_fix_e869e7a17798, ax88179_v5_7),
		FX(test_fix_e869e7a17798_fixed, ax88179_v5_16),
		cmocka_unit_test(test_checker_no_progress),
		cmocka_unit_test(test_checker_read_past),
		cmocka_unit_test(test_checker_read_past_guard),
		cmocka_unit_test(test_checker_frame_past),
		cmocka_unit_test(test_aqc111_short_transfer),
		cmocka_unit_test(test_checker_read_beyond_guard),
		cmocka_unit_test(test_checker_step_bound),
		cmocka_unit_test(test_rx_urb_nested),
		cmocka_unit_test(test_rx_stale_bytes_poisoned),
		cmocka_unit_test(test_rx_urb_kmalloc_events),
		cmocka_unit_test(test_rx_urb_frag_events),
		cmocka_unit_test(test_rx_netdev_frag_edge),
		cmocka_unit_test(test_rx_urb_resubmitted),
		cmocka_unit_test(test_rx_step_after_fixup),
		cmocka_unit_test(test_checker_read_past_le64),
		cmocka_unit_test(test_checker_runt_reads_eth_header),
		cmocka_unit_test(test_rx_assemble_counts),
		cmocka_unit_test(test_multi_packet_v35_empty),
		cmocka_unit_test(test_rx_own_skb_past_buffer),
		cmocka_unit_test(test_iperf_rx_row),
		cmocka_unit_test(test_iperf_rx_twin),
		cmocka_unit_test(test_rx_only_variant),
		cmocka_unit_test(test_rx_urb_wrong_current),
		cmocka_unit_test(test_skb_truesize),
		cmocka_unit_test_setup_teardown(test_set_tail_pointer_then_put, km_fixture_setup,
						km_fixture_teardown),
	};

	return cmocka_run_group_tests_name("test_rx", tests, NULL, NULL);
}
