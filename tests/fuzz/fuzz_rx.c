// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the receive path (km_usbnet_rx_urb(), kmodel/usb.h)
 * of every variant with a receive side, fed bulk-in transfers: raw bytes,
 * or frames framed by the variant's device (km_framing_encode()) with
 * input-chosen bytes flipped, cut into transfers where the input says.
 *
 * Oracles (the same as kmodel-sweep rx's, as promises of the model): the
 * host never crashes, whatever a driver reads (ASan: the URB's read guard
 * holds); a transfer no longer than rx_urb_size is taken (>= 0), a longer
 * one refused (-EINVAL); no built-in port loops without progress
 * (KM_R_RX_NO_PROGRESS) or leaks (every skb freed once the transfer is
 * done, but the one frame a driver keeps across URBs, freed at unbind); the only reports are the receive checkers' and the skb model's
 * (rx_read_past_urb, skb_invalid, skb_over_panic, skb_under_panic;
 * rx_csum_unverified too: flipped bytes make status bits the model's
 * device never sets, and a driver that believes a forged "TCP, checksum
 * good" claims CHECKSUM_UNNECESSARY for bytes nothing verified);
 * usbnet's counters agree with the frames the sink saw; and v3.5 asix and
 * sr9800 pass up each frame of an unflipped, unsplit stream byte for byte.
 *
 * KMODEL_FUZZ_PLUGIN=A.so[:B.so...] (libFuzzer's argv is its own) fuzzes
 * the receive-side variants those plugins register instead, with the same
 * oracles: a plugin's loop, leak or stray report is a crash input.
 */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_input.h"

/* the variants fuzzed: km_usbnet_rx_variants(), or KMODEL_FUZZ_PLUGIN's
 * (their registry lives as long as the process) */
static const struct km_usbnet_variant **plugin_variants;
static struct km_registry *plugin_reg;

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *env = getenv("KMODEL_FUZZ_PLUGIN");
	const struct km_usbnet_variant *const *all;
	struct km_registry *reg;
	GPtrArray *mine;
	gchar **paths;

	(void)argc;
	(void)argv;
	if (!env || !*env)
		return 0;
	if (km_registry_new(KM_REGISTRY_EMPTY, &plugin_reg)) {
		fprintf(stderr, "fuzz_rx: %s\n", km_last_error());
		exit(1);
	}
	reg = plugin_reg;
	paths = g_strsplit(env, ":", -1);
	for (gchar **p = paths; *p; p++) {
		if (**p && km_registry_load(reg, *p)) {
			fprintf(stderr, "fuzz_rx: KMODEL_FUZZ_PLUGIN %s: %s\n", *p, km_last_error());
			exit(1);
		}
	}
	g_strfreev(paths);
	mine = g_ptr_array_new();
	for (all = km_registry_usbnet(reg); *all; all++)
		if (km_usbnet_variant_has(*all, framing) && (*all)->framing)
			g_ptr_array_add(mine, (gpointer)*all);
	if (!mine->len) {
		fprintf(stderr, "fuzz_rx: KMODEL_FUZZ_PLUGIN %s registers no variant with a "
			"receive side (a framing)\n", env);
		exit(1);
	}
	fprintf(stderr, "fuzz_rx: %u variant(s) of KMODEL_FUZZ_PLUGIN\n", mine->len);
	g_ptr_array_add(mine, NULL);
	plugin_variants = (const struct km_usbnet_variant **)g_ptr_array_free(mine, FALSE);
	return 0;
}

struct seen {
	unsigned long frames;
	const uint8_t *sent[8];
	size_t lens[8], nsent, next;
	bool exact;		/* the stream is valid: frames must match */
	bool mismatch;
};

static void on_frame(void *arg, const uint8_t *frame, size_t len)
{
	struct seen *s = arg;

	s->frames++;
	if (s->next < s->nsent && len >= s->lens[s->next] &&
	    !memcmp(frame, s->sent[s->next], s->lens[s->next]))
		s->next++;
	else
		s->mismatch = true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct km_usb_ep_cfg eps[] = { { KM_USB_SPEED_FULL, 64 },
						    { KM_USB_SPEED_HIGH, 512 },
						    { KM_USB_SPEED_SUPER, 1024 } };
	static uint8_t pat[8 * 1518], stream[16384];
	const struct km_usbnet_variant *const *vs = plugin_variants ?
		(const struct km_usbnet_variant *const *)plugin_variants : km_usbnet_rx_variants();
	const struct km_usbnet_variant *v;
	struct fuzz_in in = { data, size };
	struct km_usbnet_rx_stats rs;
	struct km_usbnet *dev;
	struct km_machine *m;
	struct km_task *t;
	struct seen seen = { 0 };
	size_t nv = 0, skbs, bufs;
	unsigned int e;

	for (size_t i = 0; i < sizeof(pat); i++)
		pat[i] = (uint8_t)(i * 7u + (i >> 8) * 13u + 1u);
	while (vs[nv])
		nv++;
	FUZZ_ASSERT(km_machine_new(NULL, &m) == 0);
	FUZZ_ASSERT(km_task_new(m, NULL, 0, &t) == 0);
	km_task_switch(t);
	km_printk_set_quiet(m, true);
	km_reports_set_log_max(m, 0);
	v = vs[fuzz_u8(&in) % nv];
	e = fuzz_u8(&in) % 3;
	while (!km_usbnet_variant_allows(v, eps[e].speed, eps[e].maxpacket))
		e = (e + 1) % 3;
	FUZZ_ASSERT(km_usbnet_probe(m, v, eps[e].speed, eps[e].maxpacket, NULL, &dev) == 0);
	km_usbnet_set_rx_sink(dev, on_frame, &seen);
	while (fuzz_more(&in)) {
		uint8_t op = fuzz_u8(&in);
		size_t len;
		int rc;

		if (op & 1) {	/* framed frames, some bytes flipped, cut */
			unsigned int n = 1 + (op >> 1) % 3, flips = (op >> 3) & 7;
			size_t cut;
			long sl;

			seen.nsent = seen.next = 0;
			for (unsigned int i = 0; i < n; i++) {
				seen.lens[i] = 14 + fuzz_u16(&in) % (1518 - 14 + 1);
				seen.sent[i] = pat + i * 1518;
			}
			seen.nsent = n;
			sl = km_framing_encode(v->framing, seen.sent, seen.lens, n, stream,
					       sizeof(stream));
			FUZZ_ASSERT(sl > 0);
			for (unsigned int i = 0; i < flips; i++) {
				uint16_t at = fuzz_u16(&in);

				stream[at % (size_t)sl] ^= fuzz_u8(&in) | 1;
			}
			cut = op & 0x40 ? fuzz_u16(&in) % (size_t)sl : (size_t)sl;
			seen.exact = !flips && cut == (size_t)sl && (size_t)sl <= dev->rx_urb_size &&
				     (!strcmp(v->name, "before") || !strcmp(v->name, "sr9800"));
			seen.mismatch = false;
			for (size_t off = 0; off < (size_t)sl;) {
				size_t end = off < cut ? cut : (size_t)sl;

				if (end - off > dev->rx_urb_size)
					end = off + dev->rx_urb_size;
				FUZZ_ASSERT(km_usbnet_rx_urb(dev, stream + off, end - off) >= 0);
				off = end;
			}
			if (seen.exact)
				FUZZ_ASSERT(!seen.mismatch && seen.next == n);
		} else {	/* raw bytes from the input */
			len = fuzz_u16(&in) % (dev->rx_urb_size + 2);
			if (len > in.n)
				len = in.n;
			seen.nsent = seen.next = 0;
			seen.exact = false;
			rc = km_usbnet_rx_urb(dev, in.p, len);
			FUZZ_ASSERT(len > dev->rx_urb_size ? rc == -EINVAL : rc >= 0);
			in.p += len;
			in.n -= len;
		}
		/* every skb freed, but the frame a driver keeps across URBs
		 * (asix_rx_fixup_internal(): one, freed at unbind) */
		km_skb_live(m, &skbs, &bufs);
		FUZZ_ASSERT(skbs <= (v->info->unbind ? 1u : 0u) && bufs == skbs);
	}
	km_usbnet_rx_get_stats(dev, &rs);
	FUZZ_ASSERT(rs.frames == seen.frames);
	FUZZ_ASSERT(dev->net->stats.rx_packets == seen.frames);
	FUZZ_ASSERT(km_report_count(m, KM_R_RX_NO_PROGRESS) == 0);
	FUZZ_ASSERT(km_report_count(m, KM_R_NONE) ==
		    km_report_count(m, KM_R_RX_READ_PAST) + km_report_count(m, KM_R_SKB_INVALID) +
		    km_report_count(m, KM_R_SKB_OVER) + km_report_count(m, KM_R_SKB_UNDER) +
		    km_report_count(m, KM_R_RX_CSUM_UNVERIFIED));
	km_usbnet_free(dev);
	km_skb_live(m, &skbs, &bufs);
	FUZZ_ASSERT(skbs == 0 && bufs == 0);
	km_task_switch(NULL);
	km_task_free(t);
	km_reports_clear(m);
	FUZZ_ASSERT(km_machine_destroy(m) == 0);
	return 0;
}
