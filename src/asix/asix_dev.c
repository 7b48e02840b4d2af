// SPDX-License-Identifier: GPL-2.0
/*
 * The AX88772 as seen from the bulk-out pipe: a streaming parser of the
 * transmit framing that asix_tx_fixup() produces (see include/kmodel/asix.h).
 * The device is the far end of the wire, not kernel code: nothing here is
 * ported; it checks what the driver sent.
 *
 * Model policy (no datasheet cited): the header's length is 11 bits and the
 * device checks the complement in those 11 bits only -- the driver's own rx
 * side reads the same framing that way (asix_rx_fixup(): header & 0x7ff
 * against (~header >> 16) & 0x7ff) -- so a length of 2048 or more cannot be
 * encoded: its upper bits are ignored (a 2048-byte frame reads as length 0)
 * and the bytes that follow are misparsed. A frame longer than
 * ASIX_MAX_FRAME (1518: ETH_FRAME_LEN + VLAN_HLEN, the longest the driver's
 * rx side takes: mtu + ETH_HLEN + VLAN_HLEN) is consumed and dropped. Both
 * count in `oversized` and are KM_R_USB_FRAME_DROPPED WARNs.
 */
#include "internal.h"
#include <kmodel/asix.h>
#include <string.h>

#define ASIX_LEN_MASK 0x7ffu	/* the length bits the device decodes */
#define ASIX_MAX_FRAME 1518u	/* see above */

enum { IN_HEADER, IN_FRAME, DISCARD };

struct km_asix_dev {
	struct km_machine *m;
	km_asix_frame_fn fn;
	void *arg;
	int state;
	uint8_t hdr[4];
	size_t hdr_have;
	size_t frame_len, frame_have;
	uint8_t *frame;		/* ASIX_MAX_FRAME bytes */
	struct km_usbnet_dev_stats st;
};

int km_asix_dev_new(struct km_machine *m, km_asix_frame_fn fn, void *arg,
		    struct km_asix_dev **out)
{
	struct km_asix_dev *d;

	if (!m || !out)
		return km_err(-EINVAL, "asix_dev_new: NULL machine or out");
	d = g_new0(struct km_asix_dev, 1);
	d->m = m;
	d->fn = fn;
	d->arg = arg;
	d->frame = g_malloc(ASIX_LEN_MASK + 1);
	*out = d;
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
	if (d->frame_len > ASIX_MAX_FRAME) {
		d->st.oversized++;
		km_report(d->m, KM_WARN, KM_R_USB_FRAME_DROPPED, "asix device: frame of %zu bytes "
			  "is longer than %u: dropped", d->frame_len, ASIX_MAX_FRAME);
	} else {
		d->st.frames++;
		d->st.frame_bytes += d->frame_len;
		if (d->fn)
			d->fn(d->arg, frame, d->frame_len);
	}
	d->state = IN_HEADER;
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
			  "asix device: packet of %zu bytes with a NULL buffer: ignored", len);
		return km_err(-EINVAL, "asix_dev_rx: NULL buffer of %zu bytes", len);
	}
	while (off < len && d->state != DISCARD) {
		if (d->state == IN_HEADER) {
			size_t n = MIN(4 - d->hdr_have, len - off);
			uint32_t h;

			if (n == 4)	/* the whole header: a constant size, copied inline */
				memcpy(d->hdr, buf + off, 4);
			else
				memcpy(d->hdr + d->hdr_have, buf + off, n);
			d->hdr_have += n;
			off += n;
			if (d->hdr_have < 4)
				break;
			d->hdr_have = 0;
			h = (uint32_t)d->hdr[0] | (uint32_t)d->hdr[1] << 8 |
			    (uint32_t)d->hdr[2] << 16 | (uint32_t)d->hdr[3] << 24;
			if ((h & ASIX_LEN_MASK) != ((~h >> 16) & ASIX_LEN_MASK)) {
				d->st.bad_headers++;
				km_report(d->m, KM_WARN, KM_R_USB_PROTOCOL,
					  "asix device: bad header %#010x (length %u, complement "
					  "%#06x): rest of the transfer discarded",
					  h, h & 0xffffu, h >> 16);
				d->state = DISCARD;
				ret = -EPROTO;
				break;
			}
			if ((h & 0xffffu) > ASIX_LEN_MASK) {	/* model-side: not encodable */
				d->st.oversized++;
				km_report(d->m, KM_WARN, KM_R_USB_FRAME_DROPPED,
					  "asix device: header %#010x: length %u does not fit the "
					  "11-bit field; the device reads %u", h, h & 0xffffu,
					  h & ASIX_LEN_MASK);
			}
			if ((h & ASIX_LEN_MASK) == 0) {	/* 0xffff0000: the pad word */
				d->st.pad_words++;
				continue;
			}
			d->frame_len = h & ASIX_LEN_MASK;
			d->frame_have = 0;
			d->state = IN_FRAME;
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
				  "asix device: transfer ended inside a %s (%zu of %zu bytes)",
				  d->state == IN_FRAME ? "frame" : "header",
				  d->state == IN_FRAME ? d->frame_have : d->hdr_have,
				  d->state == IN_FRAME ? d->frame_len : (size_t)4);
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
