// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a usbnet variant's device model (the AX88772 parser,
 * the AX88179's) fed arbitrary bytes as bulk-out packets and transfers of
 * input-chosen lengths, ends and maxpacket.
 *
 * Oracles: the host never crashes; the device reports bad streams
 * (KM_R_USB_PROTOCOL, KM_R_USB_FRAME_DROPPED), never a model BUG; its
 * counters agree with what it delivered (frames, frame bytes) and never
 * exceed what it was given; no frame is longer than the device takes (the
 * AX88772's 11-bit length: 2047 bytes; the AX88179's 4106, its driver's
 * max_mtu with headers); freeing the device leaves nothing behind.
 */
#include <kmodel/kmodel.h>
#include <string.h>
#include "fuzz_input.h"

struct seen {
	unsigned long frames, bytes;
	size_t max;		/* the longest frame the device may deliver */
};

static void on_frame(void *arg, const uint8_t *frame, size_t len)
{
	struct seen *s = arg;

	FUZZ_ASSERT(len <= s->max);
	if (len)
		FUZZ_ASSERT(frame[0] == frame[0] && frame[len - 1] == frame[len - 1]);
	s->frames++;
	s->bytes += len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct km_usbnet_variant *const *vs = km_usbnet_variants(), *v;
	struct fuzz_in in = { data, size };
	struct km_usbnet_dev_stats st;
	struct km_usbnet_dev dev;
	struct km_machine *m;
	struct seen seen = { 0 };
	size_t nv = 0, fed = 0;

	while (vs[nv])
		nv++;
	FUZZ_ASSERT(km_machine_new(&(struct km_machine_config){ .ram_size = 1 << 20 }, &m) == 0);
	v = vs[fuzz_u8(&in) % nv];
	seen.max = strcmp(v->name, "ax88179") ? 2047 : 4106;
	FUZZ_ASSERT(v->dev_new(m, on_frame, &seen, &dev) == 0);
	while (fuzz_more(&in)) {
		uint8_t f = fuzz_u8(&in);
		size_t len = fuzz_u8(&in) | (size_t)(f & 7) << 8;	/* 0..2047 */
		bool end = f & 8;

		len = len < in.n ? len : in.n;
		if ((f & 16) && dev.sink.transfer)
			dev.sink.transfer(dev.sink.priv, in.p, len, end);
		else
			dev.sink.packet(dev.sink.priv, in.p, len, end);
		in.p += len;
		in.n -= len;
		fed += len;
	}
	km_usbnet_dev_get_stats(&dev, &st);
	FUZZ_ASSERT(st.frames == seen.frames && st.frame_bytes == seen.bytes);
	FUZZ_ASSERT(seen.bytes <= fed);
	FUZZ_ASSERT(km_report_count(m, KM_R_NONE) == km_report_count(m, KM_R_USB_PROTOCOL) +
							   km_report_count(m, KM_R_USB_FRAME_DROPPED));
	km_usbnet_dev_free(&dev);
	km_reports_clear(m);
	FUZZ_ASSERT(km_machine_destroy(m) == 0);
	return 0;
}
