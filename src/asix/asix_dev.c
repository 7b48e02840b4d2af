// SPDX-License-Identifier: GPL-2.0
/*
 * A framed device as seen from the bulk-out pipe: a streaming parser of a
 * length-prefixed framing (struct km_framing, KM_FRAMING_LENGTH), the
 * AX88772's that asix_tx_fixup() produces among them (see
 * include/kmodel/asix.h and usb.h, km_framing_dev_new()). The device is
 * the far end of the wire, not kernel code: nothing here is ported; it
 * checks what the driver sent.
 *
 * Model policy for the AX88772 (no datasheet cited): the header's length
 * is 11 bits and the device checks the complement in those 11 bits only --
 * the driver's own rx side reads the same framing that way
 * (asix_rx_fixup(): header & 0x7ff against (~header >> 16) & 0x7ff) -- so a
 * length of 2048 or more cannot be encoded: its upper bits are ignored (a
 * 2048-byte frame reads as length 0) and the bytes that follow are
 * misparsed. A frame longer than max_frame (1518: ETH_FRAME_LEN +
 * VLAN_HLEN, the longest the driver's rx side takes: mtu + ETH_HLEN +
 * VLAN_HLEN) is consumed and dropped. Both count in `oversized` and are
 * KM_R_USB_FRAME_DROPPED WARNs. A zero length is the pad word 0xffff0000
 * asix_tx_fixup() appends (pad_words); on tx the AX88772 frames are not
 * aligned (asix_tx_fixup() pads none). A device of another framing takes a
 * zero length as an empty frame, and skips the pad its align asks for.
 */
#include "internal.h"
#include "asix_internal.h"
#include <kmodel/asix.h>
#include <string.h>

enum { IN_HEADER, IN_FRAME, IN_PAD, DISCARD };

/* the AX88772 on bulk-out: asix_tx_fixup()'s header, no alignment */
static const struct km_framing asix_tx_framing = {
	.kind = KM_FRAMING_LENGTH, .hdr_bytes = 4, .len_bits = 11, .inverted_copy = true,
	.max_frame = 1518,
};

/* struct km_asix_dev is the parser of any length-prefixed framing */
struct km_asix_dev {
	struct km_machine *m;
	km_asix_frame_fn fn;
	void *arg;
	const struct km_framing *f;
	const char *name;	/* "asix device: ..." */
	uint32_t mask;		/* the length bits the device decodes */
	bool zero_is_pad;	/* a zero length: the AX88772's pad word */
	int state;
	uint8_t hdr[4];
	size_t hdr_have;
	size_t frame_len, frame_have, pad_left;
	uint8_t *frame;		/* mask + 1 bytes */
	struct km_usbnet_dev_stats st;
};

/* a parser of framing @f (checked by the caller) */
static struct km_asix_dev *framed_new(struct km_machine *m, const struct km_framing *f,
				      const char *name, bool zero_is_pad, km_asix_frame_fn fn,
				      void *arg)
{
	struct km_asix_dev *d = g_new0(struct km_asix_dev, 1);

	d->m = m;
	d->fn = fn;
	d->arg = arg;
	d->f = f;
	d->name = name;
	d->mask = (uint32_t)((1ul << f->len_bits) - 1);
	d->zero_is_pad = zero_is_pad;
	d->frame = g_malloc((size_t)d->mask + 1);
	return d;
}

int km_asix_dev_new(struct km_machine *m, km_asix_frame_fn fn, void *arg,
		    struct km_asix_dev **out)
{
	if (!m || !out)
		return km_err(-EINVAL, "asix_dev_new: NULL machine or out");
	*out = framed_new(m, &asix_tx_framing, "asix", true, fn, arg);
	return 0;
}

void km_asix_dev_free(struct km_asix_dev *d)
{
	if (!d)
		return;
	g_free(d->frame);
	g_free(d);
}


static void sink_packet(void *priv, const uint8_t *data, size_t len, bool end);

/* the parser does not care where packets split: whole transfers at once */
struct km_usb_sink km_asix_dev_sink(struct km_asix_dev *d)
{
	return (struct km_usb_sink){ .packet = sink_packet, .priv = d, .transfer = sink_packet };
}

/* the last byte of a frame is in: deliver @frame, or drop it */
static void frame_done(struct km_asix_dev *d, const uint8_t *frame)
{
	unsigned int a = d->f->align;

	if (d->frame_len > d->f->max_frame) {
		d->st.oversized++;
		km_report(d->m, KM_WARN, KM_R_USB_FRAME_DROPPED, "%s device: frame of %zu bytes "
			  "is longer than %u: dropped", d->name, d->frame_len, d->f->max_frame);
	} else {
		d->st.frames++;
		d->st.frame_bytes += d->frame_len;
		if (d->fn)
			d->fn(d->arg, frame, d->frame_len);
	}
	/* the span (word and frame) padded to the framing's alignment */
	d->pad_left = a > 1 ? (a - (d->f->hdr_bytes + d->frame_len) % a) % a : 0;
	d->state = d->pad_left ? IN_PAD : IN_HEADER;
}

/* km_asix_dev_rx() (inline: the sink's per-transfer call too) */
static inline int dev_rx(struct km_asix_dev *d, const uint8_t *buf, size_t len, bool end)
{
	size_t off = 0;
	int ret = 0;

	if (!d)
		return km_err(-EINVAL, "asix_dev_rx: NULL device");
	if (len && !buf) {
		km_report(d->m, KM_WARN, KM_R_USB_PROTOCOL,
			  "%s device: packet of %zu bytes with a NULL buffer: ignored", d->name, len);
		return km_err(-EINVAL, "asix_dev_rx: NULL buffer of %zu bytes", len);
	}
	while (off < len && d->state != DISCARD) {
		if (d->state == IN_HEADER) {
			size_t hb = d->f->hdr_bytes, n = MIN(hb - d->hdr_have, len - off);
			uint32_t h;

			if (n == 4)	/* the whole header: a constant size, copied inline */
				memcpy(d->hdr, buf + off, 4);
			else
				memcpy(d->hdr + d->hdr_have, buf + off, n);
			d->hdr_have += n;
			off += n;
			if (d->hdr_have < hb)
				break;
			d->hdr_have = 0;
			h = (uint32_t)d->hdr[0] | (uint32_t)d->hdr[1] << 8;
			if (hb == 4)
				h |= (uint32_t)d->hdr[2] << 16 | (uint32_t)d->hdr[3] << 24;
			if (d->f->inverted_copy && (h & d->mask) != ((~h >> 16) & d->mask)) {
				d->st.bad_headers++;
				km_report(d->m, KM_WARN, KM_R_USB_PROTOCOL,
					  "%s device: bad header %#010x (length %u, complement "
					  "%#06x): rest of the transfer discarded",
					  d->name, h, h & 0xffffu, h >> 16);
				d->state = DISCARD;
				ret = -EPROTO;
				break;
			}
			if ((h & 0xffffu) > d->mask) {	/* model-side: not encodable */
				d->st.oversized++;
				km_report(d->m, KM_WARN, KM_R_USB_FRAME_DROPPED,
					  "%s device: header %#010x: length %u does not fit the "
					  "%u-bit field; the device reads %u", d->name, h, h & 0xffffu,
					  d->f->len_bits, h & d->mask);
			}
			if ((h & d->mask) == 0 && d->zero_is_pad) {	/* 0xffff0000 */
				d->st.pad_words++;
				continue;
			}
			d->frame_len = h & d->mask;
			d->frame_have = 0;
			d->state = IN_FRAME;
			if (!d->frame_len)	/* an empty frame */
				frame_done(d, buf + off);
		} else if (d->state == IN_PAD) {
			size_t n = MIN(d->pad_left, len - off);

			off += n;
			d->pad_left -= n;
			if (!d->pad_left)
				d->state = IN_HEADER;
		} else if (!d->frame_have && len - off >= d->frame_len) {
			/* the whole frame is in this buffer: no copy */
			frame_done(d, buf + off);
			off += d->frame_len;
		} else {
			size_t n = MIN(d->frame_len - d->frame_have, len - off);

			memcpy(d->frame + d->frame_have, buf + off, n);
			d->frame_have += n;
			off += n;
			if (d->frame_have == d->frame_len)
				frame_done(d, d->frame);
		}
	}
	if (end) {
		d->st.transfers++;
		if (d->state == IN_FRAME || d->hdr_have) {
			d->st.truncated++;
			km_report(d->m, KM_WARN, KM_R_USB_PROTOCOL,
				  "%s device: transfer ended inside a %s (%zu of %zu bytes)", d->name,
				  d->state == IN_FRAME ? "frame" : "header",
				  d->state == IN_FRAME ? d->frame_have : d->hdr_have,
				  d->state == IN_FRAME ? d->frame_len : (size_t)d->f->hdr_bytes);
			ret = -EPROTO;
		}
		d->state = IN_HEADER;
		d->hdr_have = 0;
	}
	return ret;
}

int km_asix_dev_rx(struct km_asix_dev *d, const uint8_t *buf, size_t len, bool end)
{
	return dev_rx(d, buf, len, end);
}

static void sink_packet(void *priv, const uint8_t *data, size_t len, bool end)
{
	dev_rx(priv, data, len, end);
}

void km_asix_dev_get_stats_sized(const struct km_asix_dev *d, struct km_usbnet_dev_stats *out,
				 size_t size)
{
	static const struct km_usbnet_dev_stats zero;

	if (!out || size < KM_USBNET_DEV_STATS_MIN_SIZE) {
		km_set_error("asix_dev_get_stats: NULL out or size %zu < %zu", size,
			     (size_t)KM_USBNET_DEV_STATS_MIN_SIZE);
		return;
	}
	if (!d)
		km_set_error("asix_dev_get_stats: NULL device");
	km_struct_write(out, size, d ? &d->st : &zero, sizeof(zero));
}

/* ---- the parser of a user's framing as a usbnet device model ------------- */

static void framed_stats(const void *priv, struct km_usbnet_dev_stats *out, size_t size)
{
	km_asix_dev_get_stats_sized(priv, out, size);
}

static void framed_free(void *priv)
{
	km_asix_dev_free(priv);
}

/* can the bulk-out parser read @f? 0, or -EINVAL saying why */
static int framed_check(const struct km_framing *f, const char *who)
{
	if (!f)
		return km_err(-EINVAL, "%s: NULL framing", who);
	if (f->kind == KM_FRAMING_ENCODER)	/* the user's device, if it has one */
		return f->decode ? 0 : km_err(-EINVAL, "%s: a KM_FRAMING_ENCODER framing "
					      "without a decode hook parses no bulk-out", who);
	if (f->kind != KM_FRAMING_LENGTH || f->suffix)
		return km_err(-EINVAL, "%s: the bulk-out parser reads a length before each frame "
			      "(KM_FRAMING_LENGTH, no suffix)", who);
	if ((f->hdr_bytes != 2 && f->hdr_bytes != 4) || (f->inverted_copy && f->hdr_bytes != 4) ||
	    !f->len_bits || f->len_bits > 16)
		return km_err(-EINVAL, "%s: bad length word (%u bytes, %u bits%s)", who,
			      f->hdr_bytes, f->len_bits, f->inverted_copy ? ", inverted copy" : "");
	return 0;
}

int km_framing_dev_new(struct km_machine *m, const struct km_framing *f, km_usbnet_frame_fn fn,
		       void *arg, struct km_usbnet_dev *out)
{
	struct km_asix_dev *d;
	int err;

	if (!m || !out)
		return km_err(-EINVAL, "framing_dev_new: NULL machine or out");
	if ((err = framed_check(f, "framing_dev_new")) != 0)
		return err;
	if (f->kind == KM_FRAMING_ENCODER)
		return km_framing_hook_dev_new(m, f, fn, arg, out);
	d = framed_new(m, f, "framed", false, fn, arg);
	*out = (struct km_usbnet_dev){ .priv = d, .sink = km_asix_dev_sink(d),
				       .get_stats = framed_stats, .free = framed_free };
	return 0;
}

const struct km_framing *km_usbnet_variant_tx_framing(const struct km_usbnet_variant *v)
{
	if (!v || v->dev_new || !km_usbnet_variant_has(v, framing) || framed_check(v->framing, "-"))
		return NULL;
	return v->framing;
}

bool km_usbnet_variant_has_tx_dev(const struct km_usbnet_variant *v)
{
	return v && (v->dev_new || km_usbnet_variant_tx_framing(v));
}

int km_usbnet_variant_dev_new(const struct km_usbnet_variant *v, struct km_machine *m,
			      km_usbnet_frame_fn fn, void *arg, struct km_usbnet_dev *out)
{
	if (!v)
		return km_err(-EINVAL, "usbnet_variant_dev_new: NULL variant");
	if (v->dev_new)
		return v->dev_new(m, fn, arg, out);
	if (!km_usbnet_variant_tx_framing(v))
		return km_err(-EINVAL, "usbnet variant %s: no device model (a dev_new, or a "
			      "framing of a length before each frame, or a decode hook)", v->name);
	return km_framing_dev_new(m, v->framing, fn, arg, out);
}
