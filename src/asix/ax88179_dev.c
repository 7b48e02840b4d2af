// SPDX-License-Identifier: GPL-2.0
/*
 * The AX88179 as seen from the bulk-out pipe: a streaming parser of the
 * transmit framing ax88179_tx_fixup() produces. The device is the far end
 * of the wire, not kernel code: nothing here is ported.
 *
 * Framing (from the driver; no datasheet cited, so the device's side is a
 * stated model policy): an 8-byte header of two little-endian words,
 * tx_hdr1 = frame length, tx_hdr2 = TSO MSS (bits 0-13) with 0x80008000
 * "Enable padding" when (len + 8) is a multiple of maxpacket; then the
 * frame. Policy:
 *  - with the padding bits set, whatever follows the frame up to the end of
 *    the transfer is padding and discarded (usbnet's 1-byte pad: pad_words
 *    counts the transfers that ended in padding);
 *  - without them, bytes after the frame start the next header;
 *  - a header with other bits in tx_hdr2 than the MSS and the padding bits,
 *    or with an MSS (TSO, which the model does not do), is refused
 *    (bad_headers, KM_R_USB_PROTOCOL, the rest of the transfer discarded);
 *  - a frame longer than 4106 bytes (the driver's max_mtu 4088 + ETH_HLEN +
 *    VLAN_HLEN) is consumed and dropped (oversized, KM_R_USB_FRAME_DROPPED);
 *  - a zero length is an empty frame: nothing delivered;
 *  - a transfer that ends inside a header or a frame is truncated
 *    (KM_R_USB_PROTOCOL).
 */
#include "internal.h"
#include "asix_internal.h"
#include <string.h>

#define AX_HDR 8u
#define AX_PAD_BITS 0x80008000u
#define AX_MSS_MASK 0x3fffu
#define AX_MAX_FRAME 4106u

enum { IN_HEADER, IN_FRAME, PADDING, DISCARD };

struct ax_dev {
	struct km_machine *m;
	km_usbnet_frame_fn fn;
	void *arg;
	int state;
	bool padded;		/* this frame's header set the padding bits */
	size_t pad_seen;	/* padding bytes discarded in this transfer */
	uint8_t hdr[AX_HDR];
	size_t hdr_have;
	size_t frame_len, frame_have;
	uint8_t *frame;		/* AX_MAX_FRAME bytes */
	struct km_usbnet_dev_stats st;
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* a header is complete: 0, or -EPROTO when refused */
static int header(struct ax_dev *d)
{
	uint32_t h1 = le32(d->hdr), h2 = le32(d->hdr + 4);

	if ((h2 & ~(AX_PAD_BITS | AX_MSS_MASK)) || (h2 & AX_MSS_MASK) ||
	    ((h2 & AX_PAD_BITS) && (h2 & AX_PAD_BITS) != AX_PAD_BITS)) {
		d->st.bad_headers++;
		km_report(d->m, KM_WARN, KM_R_USB_PROTOCOL, "ax88179 device: bad header %#010x "
			  "%#010x: rest of the transfer discarded", h1, h2);
		d->state = DISCARD;
		return -EPROTO;
	}
	d->padded = (h2 & AX_PAD_BITS) != 0;
	d->frame_len = h1;
	d->frame_have = 0;
	d->state = IN_FRAME;
	return 0;
}

static void frame_done(struct ax_dev *d, const uint8_t *frame)
{
	if (d->frame_len > AX_MAX_FRAME) {
		d->st.oversized++;
		km_report(d->m, KM_WARN, KM_R_USB_FRAME_DROPPED, "ax88179 device: frame of %zu "
			  "bytes is longer than %u: dropped", d->frame_len, AX_MAX_FRAME);
	} else if (d->frame_len) {
		d->st.frames++;
		d->st.frame_bytes += d->frame_len;
		if (d->fn)
			d->fn(d->arg, frame, d->frame_len);
	}
	d->state = d->padded ? PADDING : IN_HEADER;
}

static void ax_rx(void *priv, const uint8_t *buf, size_t len, bool end)
{
	struct ax_dev *d = priv;
	size_t off = 0;

	if (len && !buf) {
		km_report(d->m, KM_WARN, KM_R_USB_PROTOCOL,
			  "ax88179 device: packet of %zu bytes with a NULL buffer: ignored", len);
		return;
	}
	while (off < len && d->state != DISCARD && d->state != PADDING) {
		if (d->state == IN_HEADER) {
			size_t n = MIN(AX_HDR - d->hdr_have, len - off);

			if (n == AX_HDR)	/* the whole header: a constant size, copied inline */
				memcpy(d->hdr, buf + off, AX_HDR);
			else
				memcpy(d->hdr + d->hdr_have, buf + off, n);
			d->hdr_have += n;
			off += n;
			if (d->hdr_have < AX_HDR)
				break;
			d->hdr_have = 0;
			if (header(d) == 0 && d->frame_len == 0)
				frame_done(d, d->frame);
		} else if (!d->frame_have && len - off >= d->frame_len) {
			/* the whole frame is in this buffer: no copy */
			frame_done(d, buf + off);
			off += d->frame_len;
		} else {
			size_t n = MIN(d->frame_len - d->frame_have, len - off);

			if (d->frame_have + n <= AX_MAX_FRAME)
				memcpy(d->frame + d->frame_have, buf + off, n);
			d->frame_have += n;
			off += n;
			if (d->frame_have == d->frame_len)
				frame_done(d, d->frame);
		}
	}
	if (d->state == PADDING)
		d->pad_seen += len - off;
	if (end) {
		d->st.transfers++;
		if (d->state == PADDING && d->pad_seen)
			d->st.pad_words++;	/* a transfer that ended in padding */
		d->pad_seen = 0;
		if (d->state == IN_FRAME || d->hdr_have) {
			d->st.truncated++;
			km_report(d->m, KM_WARN, KM_R_USB_PROTOCOL,
				  "ax88179 device: transfer ended inside a %s (%zu of %zu bytes)",
				  d->state == IN_FRAME ? "frame" : "header",
				  d->state == IN_FRAME ? d->frame_have : d->hdr_have,
				  d->state == IN_FRAME ? d->frame_len : (size_t)AX_HDR);
		}
		d->state = IN_HEADER;
		d->hdr_have = 0;
	}
}

static void ax_stats(const void *priv, struct km_usbnet_dev_stats *out, size_t size)
{
	km_usbnet_dev_stats_put(out, size, &((const struct ax_dev *)priv)->st);
}

static void ax_free(void *priv)
{
	struct ax_dev *d = priv;

	g_free(d->frame);
	g_free(d);
}

bool km_ax88179_dev_is(const struct km_usbnet_dev *d)
{
	return d->get_stats == ax_stats;
}

int km_ax88179_dev_new(struct km_machine *m, km_usbnet_frame_fn fn, void *arg,
		       struct km_usbnet_dev *out)
{
	struct ax_dev *d;

	if (!m || !out)
		return km_err(-EINVAL, "ax88179 dev_new: NULL machine or out");
	d = g_new0(struct ax_dev, 1);
	d->m = m;
	d->fn = fn;
	d->arg = arg;
	d->frame = g_malloc(AX_MAX_FRAME);
	*out = (struct km_usbnet_dev){ .priv = d, .sink = { ax_rx, d, ax_rx },
				       .get_stats = ax_stats, .free = ax_free };
	return 0;
}
