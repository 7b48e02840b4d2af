// SPDX-License-Identifier: GPL-2.0
/*
 * The generic framed device (see include/kmodel/usb.h, struct km_framing):
 * what a device sends on bulk-in, from a description instead of a device
 * model of its own. The device is the far end of the wire, not kernel code.
 *
 * The two built-in framings are the drivers' (no datasheet cited; a stated
 * model policy):
 *  - AX88772 (and SR9800): asix_rx_fixup() of v3.5 reads a 4-byte header,
 *    length in bits 0-10 and its complement in bits 16-26, and skips
 *    (size + 1) & 0xfffe bytes: frames padded to an even length;
 *  - AX88179: the layout ax88179_rx_fixup()'s comment gives (torvalds/linux
 *    002bba562dd3): each frame behind a 2-byte IP alignment pseudo header,
 *    padded to 8 bytes; then per frame its 4-byte descriptor (pkt_len =
 *    frame + 2 in bits 16-28) and a dummy one (length 0, AX_RXHDR_DROP_ERR
 *    0x80000000), 4 bytes of padding, and rx_hdr = count | offset << 16.
 * Any other framing is the user's: KM_FRAMING_ENCODER's hook lays it out
 * and says where its length and count fields lie, for the sweep's
 * malformed neighbours.
 */
#include "internal.h"
#include "asix_internal.h"
#include <kmodel/usb.h>
#include <string.h>

#define AX_RXHDR_DROP_ERR 0x80000000u
/* the status bits ax88179_rx_checksum() reads (torvalds/linux 002bba562dd3) */
#define AX_RXHDR_L4_TYPE_UDP 4u
#define AX_RXHDR_L4_TYPE_TCP 16u
#define AX_RXHDR_L3CSUM_ERR 2u
#define AX_RXHDR_L4CSUM_ERR 1u

static size_t align_up(size_t x, unsigned int a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

static void put_le(uint8_t *p, uint32_t v, unsigned int bytes)
{
	for (unsigned int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* KM_FRAMING_LENGTH: the length word of a frame of @len bytes */
static uint32_t length_word(const struct km_framing *f, size_t len)
{
	uint32_t w = (uint32_t)len;

	if (f->inverted_copy)
		w |= (~(uint32_t)len & 0xffffu) << 16;
	return w;
}

/* a field @off/@shift/@bits the hook named for a stream of @len bytes */
static bool field_ok(size_t off, unsigned int shift, unsigned int bits, size_t len)
{
	return !bits || (bits <= 32 && shift <= 32 - bits && len >= 4 && off <= len - 4);
}

/* KM_FRAMING_ENCODER: the user's hook, its answer checked (a plugin's
 * mistake is an error naming it, never a write or read outside @out) */
static long encode_hook(const struct km_framing *f, const uint8_t *const *frames,
			const size_t *lens, size_t n, uint8_t *out, size_t cap,
			struct km_framing_layout *lay)
{
	long r;

	if (!f->encode)
		return km_err(-EINVAL, "framing_encode: KM_FRAMING_ENCODER without an encode hook");
	r = f->encode(f, frames, lens, n, out, cap, lay);
	if (r < 0)
		return r < -4095 ? km_err(-EINVAL, "framing_encode: the encode hook returned %ld",
					  r) : r;
	if ((size_t)r > cap)
		return km_err(-EINVAL, "framing_encode: the encode hook laid out %ld bytes in %zu",
			      r, cap);
	if (!field_ok(lay->len_off, lay->len_shift, lay->len_bits, (size_t)r) ||
	    !field_ok(lay->count_off, lay->count_shift, lay->count_bits, (size_t)r))
		return km_err(-EINVAL, "framing_encode: the encode hook's layout names a field "
			      "outside its %ld-byte stream (len at %zu, bits %u..%u; count at %zu, "
			      "bits %u..%u)", r, lay->len_off, lay->len_shift,
			      lay->len_shift + lay->len_bits, lay->count_off, lay->count_shift,
			      lay->count_shift + lay->count_bits);
	return r;
}

/* ---- what a receive checksum offload finds ------------------------------- */

static uint32_t sum16(const uint8_t *p, size_t n, uint32_t sum)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

/* RFC 1071: the one's complement sum folded; 0xffff when the data with
 * its checksum in place is right */
static uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffffu) + (sum >> 16);
	return (uint16_t)sum;
}

enum km_csum_verdict km_csum_rx_verdict(const uint8_t *frame, size_t len, unsigned int *l4proto)
{
	const uint8_t *ip, *l4;
	size_t ihl, tot, l4len;
	uint32_t sum;
	unsigned int proto;

	if (l4proto)
		*l4proto = 0;
	/* untagged Ethernet II, ETH_P_IP, version 4, IHL >= 5 */
	if (!frame || len < 14 + 20 || frame[12] != 0x08 || frame[13] != 0x00)
		return KM_CSUM_UNCHECKED;
	ip = frame + 14;
	ihl = (size_t)(ip[0] & 0x0f) * 4;
	tot = (size_t)ip[2] << 8 | ip[3];
	if (ip[0] >> 4 != 4 || ihl < 20 || tot < ihl || tot > len - 14)
		return KM_CSUM_UNCHECKED;
	if (fold(sum16(ip, ihl, 0)) != 0xffff)
		return KM_CSUM_BAD_L3;
	proto = ip[9];
	/* a fragment (MF, or an offset): its L4 checksum spans the packet */
	if ((proto != 6 && proto != 17) || ((ip[6] & 0x3f) | ip[7]))
		return KM_CSUM_UNCHECKED;
	if (l4proto)
		*l4proto = proto;
	l4 = ip + ihl;
	l4len = tot - ihl;
	if (l4len < (proto == 6 ? 20u : 8u))
		return KM_CSUM_BAD_L4;
	if (proto == 17 && !l4[6] && !l4[7])
		return KM_CSUM_GOOD;		/* RFC 768: no checksum */
	/* the pseudo header: saddr, daddr, protocol, L4 length */
	sum = sum16(ip + 12, 8, proto + (uint32_t)l4len);
	return fold(sum16(l4, l4len, sum)) == 0xffff ? KM_CSUM_GOOD : KM_CSUM_BAD_L4;
}

/* an AX88179 descriptor's status bits for @frame, by a device with RXCOE on */
static uint32_t ax88179_csum_bits(const uint8_t *frame, size_t len)
{
	unsigned int proto;
	enum km_csum_verdict c = km_csum_rx_verdict(frame, len, &proto);
	uint32_t bits = proto == 6 ? AX_RXHDR_L4_TYPE_TCP : proto == 17 ? AX_RXHDR_L4_TYPE_UDP : 0;

	if (c == KM_CSUM_BAD_L3)
		bits |= AX_RXHDR_L3CSUM_ERR;
	else if (c == KM_CSUM_BAD_L4)
		bits |= AX_RXHDR_L4CSUM_ERR;
	return bits;
}

long km_framing_encode(const struct km_framing *f, const uint8_t *const *frames,
		       const size_t *lens, size_t n, uint8_t *out, size_t cap)
{
	return km_framing_encode_csum(f, 0, frames, lens, n, out, cap, NULL);
}

long km_framing_encode_layout(const struct km_framing *f, const uint8_t *const *frames,
			      const size_t *lens, size_t n, uint8_t *out, size_t cap,
			      struct km_framing_layout *layout)
{
	return km_framing_encode_csum(f, 0, frames, lens, n, out, cap, layout);
}

long km_framing_encode_csum(const struct km_framing *f, unsigned int csum,
			    const uint8_t *const *frames, const size_t *lens, size_t n,
			    uint8_t *out, size_t cap, struct km_framing_layout *layout)
{
	struct km_framing_layout none;
	struct km_framing_layout *lay = layout ? layout : &none;
	size_t off = 0, total = 0, desc;

	memset(lay, 0, sizeof(*lay));
	if (!f || (n && (!frames || !lens)) || (!out && cap))
		return km_err(-EINVAL, "framing_encode: NULL argument");
	if (csum & ~(KM_USBNET_RX_CSUM | KM_USBNET_TX_CSUM))
		return km_err(-EINVAL, "framing_encode: checksum offload bits %#x", csum);
	for (size_t i = 0; i < n; i++) {
		if (lens[i] && !frames[i])
			return km_err(-EINVAL, "framing_encode: frame %zu is NULL", i);
		if (lens[i] > f->max_frame)
			return km_err(-EINVAL, "framing_encode: frame %zu of %zu bytes > %u", i,
				      lens[i], f->max_frame);
	}
	switch (f->kind) {
	case KM_FRAMING_NONE:
		for (size_t i = 0; i < n; i++)
			total += lens[i];
		break;
	case KM_FRAMING_LENGTH:
		if ((f->hdr_bytes != 2 && f->hdr_bytes != 4) || (f->inverted_copy && f->hdr_bytes != 4) ||
		    !f->len_bits || f->len_bits > 16)
			return km_err(-EINVAL, "framing_encode: bad length word");
		for (size_t i = 0; i < n; i++) {
			if (lens[i] >> f->len_bits)
				return km_err(-EINVAL, "framing_encode: %zu does not fit %u bits",
					      lens[i], f->len_bits);
			total += align_up(f->hdr_bytes + lens[i], f->align);
		}
		break;
	case KM_FRAMING_AX88179:
		if (f->descriptors_per_frame < 1 || f->descriptors_per_frame > 2)
			return km_err(-EINVAL, "framing_encode: descriptors per frame %u",
				      f->descriptors_per_frame);
		for (size_t i = 0; i < n; i++)
			total += align_up(f->pseudo_hdr + lens[i], f->align);
		if (total > 0xffff)	/* hdr_off is 16 bits */
			return km_err(-EINVAL, "framing_encode: frames of %zu bytes put the "
				      "descriptors past a 16-bit offset", total);
		total += 4 * f->descriptors_per_frame * n + 4 + 4;
		break;
	case KM_FRAMING_ENCODER:
		return encode_hook(f, frames, lens, n, out, cap, lay);
	default:
		return km_err(-EINVAL, "framing_encode: unknown kind %d", (int)f->kind);
	}
	if (total > cap)
		return km_err(-ENOSPC, "framing_encode: %zu bytes do not fit %zu", total, cap);
	switch (f->kind) {
	case KM_FRAMING_ENCODER:	/* returned above */
		break;
	case KM_FRAMING_NONE:
		for (size_t i = 0; i < n; i++, off += lens[i - 1])
			memcpy(out + off, frames[i], lens[i]);
		break;
	case KM_FRAMING_LENGTH:
		for (size_t i = 0; i < n; i++) {
			size_t span = align_up(f->hdr_bytes + lens[i], f->align);

			if (f->suffix) {
				memcpy(out + off, frames[i], lens[i]);
				put_le(out + off + lens[i], length_word(f, lens[i]), f->hdr_bytes);
			} else {
				put_le(out + off, length_word(f, lens[i]), f->hdr_bytes);
				memcpy(out + off + f->hdr_bytes, frames[i], lens[i]);
			}
			/* the pad after the frame (and its word): zero */
			memset(out + off + f->hdr_bytes + lens[i], 0, span - f->hdr_bytes - lens[i]);
			off += span;
		}
		break;
	case KM_FRAMING_AX88179:
		for (size_t i = 0; i < n; i++) {
			size_t span = align_up(f->pseudo_hdr + lens[i], f->align);

			/* the pseudo header and the pad after the frame: zero */
			memset(out + off, 0, f->pseudo_hdr);
			memcpy(out + off + f->pseudo_hdr, frames[i], lens[i]);
			memset(out + off + f->pseudo_hdr + lens[i], 0, span - f->pseudo_hdr - lens[i]);
			off += span;
		}
		desc = off;
		for (size_t i = 0; i < n; i++) {
			uint32_t w = (uint32_t)(f->pseudo_hdr + lens[i]) << 16;

			if (csum & KM_USBNET_RX_CSUM)
				w |= ax88179_csum_bits(frames[i], lens[i]);
			put_le(out + off, w, 4);
			off += 4;
			if (f->descriptors_per_frame == 2) {
				put_le(out + off, AX_RXHDR_DROP_ERR, 4);
				off += 4;
			}
		}
		put_le(out + off, 0, 4);	/* <padding2>: zero */
		off += 4;
		put_le(out + off, (uint32_t)(f->descriptors_per_frame * n) | (uint32_t)desc << 16,
		       4);
		if (n) {	/* pkt_len in bits 16-28; rx_hdr's count in 0-15 */
			*lay = (struct km_framing_layout){ .len_off = desc, .len_shift = 16,
							   .len_bits = 13, .count_off = off,
							   .count_bits = 16 };
		}
		break;
	}
	if (f->kind == KM_FRAMING_LENGTH && n && total >= 4) {	/* the first frame's word */
		size_t at = f->suffix ? lens[0] : 0;

		/* a word shorter than 4 bytes at the stream's end (a 2-byte
		 * suffix): the high bytes of the 32-bit word that ends there */
		lay->len_off = at + 4 <= total ? at : total - 4;
		lay->len_shift = 8 * (unsigned int)(at - lay->len_off);
		lay->len_bits = f->len_bits;
	}
	return (long)total;
}

bool km_framing_frame_ok(const struct km_framing *f, const uint8_t *sent, size_t sent_len,
			 const uint8_t *got, size_t got_len)
{
	size_t pad = f ? f->trailing_pad : 0;

	if (got_len < sent_len || got_len - sent_len > pad)
		return false;
	return !sent_len || (sent && got && !memcmp(sent, got, sent_len));
}

/* ---- KM_FRAMING_ENCODER on bulk-out: the user's decode hook as a device --- */

/* the device: a transfer's bytes gathered up to its short packet (the
 * device sees no other boundary), then handed to the hook */
struct hook_dev {
	struct km_machine *m;
	const struct km_framing *f;
	km_usbnet_frame_fn fn;
	void *arg;
	GByteArray *buf;
	struct km_usbnet_dev_stats st;
};

static int hook_emit(void *ctx, const uint8_t *frame, size_t len)
{
	struct hook_dev *d = ctx;
	const uint8_t *lo = d->buf->data;

	/* a frame outside the transfer: the hook's mistake, not delivered */
	if (len && (!frame || frame < lo || frame > lo + d->buf->len ||
		    len > (size_t)(lo + d->buf->len - frame)))
		return km_err(-EINVAL, "framed device: the decode hook emitted %zu bytes outside "
			      "its %u-byte transfer", len, d->buf->len);
	if (len > d->f->max_frame) {
		d->st.oversized++;
		km_report(d->m, KM_WARN, KM_R_USB_FRAME_DROPPED, "framed device: frame of %zu "
			  "bytes is longer than %u: dropped", len, d->f->max_frame);
		return 0;
	}
	d->st.frames++;
	d->st.frame_bytes += len;
	if (d->fn)
		d->fn(d->arg, frame, len);
	return 0;
}

static void hook_transfer(void *priv, const uint8_t *data, size_t len, bool ended)
{
	struct hook_dev *d = priv;
	int err;

	g_byte_array_append(d->buf, data, (guint)len);
	if (!ended)
		return;
	d->st.transfers++;
	err = d->f->decode(d->f, d->buf->data, d->buf->len, hook_emit, d);
	if (err < 0) {
		d->st.bad_headers++;
		km_report(d->m, KM_WARN, KM_R_USB_PROTOCOL, "framed device: the decode hook "
			  "refused a %u-byte transfer (%d)", d->buf->len, err);
	}
	g_byte_array_set_size(d->buf, 0);
}

static void hook_stats(const void *priv, struct km_usbnet_dev_stats *out, size_t size)
{
	km_usbnet_dev_stats_put(out, size, &((const struct hook_dev *)priv)->st);
}

static void hook_free(void *priv)
{
	struct hook_dev *d = priv;

	g_byte_array_free(d->buf, TRUE);
	g_free(d);
}

int km_framing_hook_dev_new(struct km_machine *m, const struct km_framing *f,
			    km_usbnet_frame_fn fn, void *arg, struct km_usbnet_dev *out)
{
	struct hook_dev *d = g_new0(struct hook_dev, 1);

	d->m = m;
	d->f = f;
	d->fn = fn;
	d->arg = arg;
	d->buf = g_byte_array_new();
	*out = (struct km_usbnet_dev){
		.priv = d,
		.sink = { .packet = hook_transfer, .priv = d, .transfer = hook_transfer },
		.get_stats = hook_stats, .free = hook_free,
	};
	return 0;
}
