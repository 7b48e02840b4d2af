// SPDX-License-Identifier: GPL-2.0
/*
 * iperf (kmodel/scenario.h km_iperf_run()): an iperf-like stream through
 * usbnet and each variant's tx_fixup to its device model, which parses
 * every frame back; each frame is compared byte for byte with what the
 * sender built.
 *
 * Per packet, timed in the thread's CPU time (CLOCK_THREAD_CPUTIME_ID, as
 * the sweep: load from other processes on the host does not count), best
 * of the runs: the
 * sender's alloc/reserve/put/header release/clone/pushes (and the tap's
 * clone), usbnet_start_xmit (tx_fixup, URB length rules, bulk-out
 * segmentation into maxpacket packets, device parse, frame compare,
 * dev_kfree_skb) and the ACK freeing the queued original. The sender's
 * write(2)s are counted as iperf 2 makes them: one per 8 KiB of TCP
 * payload (its default -l), one per UDP datagram. The receiver ACKs every
 * second full-sized TCP segment (RFC 1122 4.2.3.2, Linux's delayed ACK):
 * each ACK -- 66 bytes, Ethernet, IPv4 and a TCP header with timestamps --
 * comes back as one bulk-in transfer behind the AX88772's 4-byte header
 * (km_usbnet_rx(): on a v3.5 device, before's and after's alike, v3.5's
 * asix_rx_fixup(), which copies the frame into a new skb and has usbnet
 * free the URB's; on a mainline-era one the text before a9e0aca4b378, a
 * cost model of the one-frame transfer, whatever the variant).
 */
#include "scenario_internal.h"
#include "table.h"
#include <kmodel/scenario.h>
#include <kmodel/traffic.h>
#include <kmodel/usb.h>
#include <string.h>

/* LL_RESERVED_SPACE(dev) (include/linux/netdevice.h, v3.5): the headroom
 * the stack reserves for an skb it builds for @dev */
#define LL_RESERVED_SPACE_OF(dev) km_ll_reserved_space(dev)

struct iperf_traffic {
	const char *name;
	enum km_traffic_kind kind;
	bool tap;
	bool rx;	/* the segments come in (km_iperf_opts.rx) */
};

static const struct iperf_traffic traffics[] = {
	{ "tcp", KM_TRAFFIC_TCP, false, false },
	{ "tcp+tap", KM_TRAFFIC_TCP, true, false },
	{ "udp", KM_TRAFFIC_UDP, false, false },
	{ "tcp-rx", KM_TRAFFIC_TCP, false, true },
};

/* a built-in receive variant (km_usbnet_rx_variants(), not in
 * km_usbnet_variants()): its tx_fixup is another built-in's (ax88179's,
 * mainline asix's), whose transmit rows those would repeat */
static bool rx_twin(const struct km_usbnet_variant *v)
{
	return !km_usbnet_find(v->name) && km_usbnet_find_any(v->name) == v;
}

/* a tcp-rx row's bulk-in stream: the largest frame its URB takes */
#define IPERF_RX_STREAM 65536u

/* iperf 2's default TCP write length (-l): 8 KiB */
#define IPERF_TCP_WRITE_BYTES 8192u
/* a TCP ACK with timestamps: 14 + 20 + 32 bytes */
#define ACK_FRAME_BYTES 66u

struct iperf_run {
	const struct km_usbnet_variant *v;
	const struct iperf_traffic *tt;
	unsigned int payload;		/* TCP: the MSS */
	unsigned long long sent;	/* payload bytes, for the write(2)s */
	unsigned long segments;		/* TCP segments, for the ACKs */
	struct km_machine *m;
	struct km_task *t;
	struct km_usbnet_dev d;
	size_t tx_pad;			/* its device's documented trailing pad */
	struct km_usbnet *dev;
	struct km_traffic *tr;
	unsigned long frames_ok, frames;	/* verified, delivered in this pass */
	unsigned long packet;			/* the packet being sent in this pass */
	bool timed;				/* in a timed run */
	gchar *mismatch;			/* the first frame of the timed runs that
						 * did not verify, or NULL */
	/* of the best timed run */
	double best;
	GArray *runs;
	int insn_fd;			/* km_insn_open(): the host's instructions */
	uint64_t insn_best;		/* the fewest of a timed run (0: none) */
	struct km_events ev;
	unsigned long best_frames_ok, reports;
	unsigned long by_code[KM_R__COUNT];
	gchar *first_report;			/* "code: message" of its first report */
	struct km_skb_watch *watch;		/* plain stores into a shared buffer */
	uint64_t wire;				/* km_usbnet_dev_wire_bits_per_s() */
	bool acking;				/* tcp-rx: an ACK goes out, not a segment */
	uint8_t *stream;			/* tcp-rx: the device's transfer */
};

static void on_frame(void *arg, const uint8_t *frame, size_t len)
{
	struct iperf_run *r = arg;
	int want, got;
	long at;

	if (r->acking)		/* tcp-rx: the device parsed our ACK */
		return;
	r->frames++;
	if (km_traffic_verify(r->tr, frame, len) ||
	    (r->tx_pad && len > km_traffic_frame_len(r->tr) &&	/* the device's pad */
	     len - km_traffic_frame_len(r->tr) <= r->tx_pad &&
	     km_traffic_verify(r->tr, frame, km_traffic_frame_len(r->tr)))) {
		r->frames_ok++;
		return;
	}
	if (!r->timed || r->mismatch)
		return;
	at = km_traffic_mismatch(r->tr, frame, len, &want, &got);
	if (got < 0)
		r->mismatch = g_strdup_printf("packet %lu: a frame of %zu bytes, expected %zu: it "
					      "ends at byte %ld", r->packet, len,
					      km_traffic_frame_len(r->tr), at);
	else if (want < 0)
		r->mismatch = g_strdup_printf("packet %lu: a frame of %zu bytes, expected %zu: "
					      "byte %ld (0x%02x) is past the frame's end", r->packet,
					      len, km_traffic_frame_len(r->tr), at, got);
	else
		r->mismatch = g_strdup_printf("packet %lu: a frame of %zu bytes, expected %zu: "
					      "byte %ld is 0x%02x, expected 0x%02x", r->packet, len,
					      km_traffic_frame_len(r->tr), at, got, want);
}

static int iperf_setup(struct iperf_run *r, const struct iperf_traffic *tt, unsigned int mss,
		       enum km_usb_speed speed, unsigned int mp, bool no_checker)
{
	struct km_traffic_config cfg = { .kind = tt->kind, .tap = tt->tap,
					 .payload = tt->kind == KM_TRAFFIC_TCP ? mss : 0 };
	int err;

	r->best = G_MAXDOUBLE;
	r->runs = g_array_new(FALSE, FALSE, sizeof(double));
	r->tt = tt;
	r->payload = tt->kind == KM_TRAFFIC_TCP ? mss : 0;
	km_set_error("%s", "");	/* a message from what fails, not a stale one */
	err = km_machine_new(NULL, &r->m);
	if (!err)
		err = km_task_new(r->m, NULL, 0, &r->t);
	if (!err && !(r->watch = km_skb_watch_new()))
		err = km_err(-ENOMEM, "iperf: no host memory for the plain-store watch");
	if (!err)
		err = km_usbnet_variant_dev_new(r->v, r->m, on_frame, r, &r->d);
	if (km_usbnet_variant_tx_framing(r->v))
		r->tx_pad = km_usbnet_variant_tx_framing(r->v)->trailing_pad;
	if (!err) {
		r->wire = km_usbnet_dev_wire_bits_per_s(&r->d);
		err = km_usbnet_probe(r->m, r->v, speed, mp, &r->d.sink, &r->dev);
	}
	if (!err)
		err = km_traffic_new(r->t, r->dev->net, &cfg, &r->tr);
	if (!err && tt->rx) {	/* the segments come through rx_fixup */
		r->stream = g_malloc(IPERF_RX_STREAM);
		km_usbnet_set_rx_sink(r->dev, on_frame, r);
		km_printk_set_quiet(r->m, true);
	}
	if (r->m) {
		km_skb_set_checker(r->m, !no_checker);
		/* a variant's driver that writes a page it pinned for write
		 * and releases it clean (km_check_pinned_writes()) */
		km_check_pinned_writes(r->m, true);
	}
	if (err) {	/* say which row (a plugin's dev_new may say nothing) */
		gchar *why = g_strdup(*km_last_error() ? km_last_error() : g_strerror(-err));

		km_err(err, "iperf: %s %s: setting up its machine failed (%d): %s", r->v->name,
		       tt->name, err, why);
		g_free(why);
	}
	return err;
}

/* the receiver's ACK as the AX88772 hands it over: a 4-byte header (the
 * length and its complement, little-endian), then the frame */
static void ack_transfer(uint8_t buf[4 + ACK_FRAME_BYTES])
{
	uint32_t h = ACK_FRAME_BYTES | (uint32_t)(~ACK_FRAME_BYTES & 0x07ff) << 16;

	memset(buf, 0, 4 + ACK_FRAME_BYTES);
	for (int i = 0; i < 4; i++)
		buf[i] = (uint8_t)(h >> (8 * i));
	buf[4 + 12] = 0x08;	/* EtherType IPv4 */
	buf[4 + 14] = 0x45;	/* IPv4, 20-byte header */
	buf[4 + 23] = 6;	/* TCP */
	buf[4 + 46] = 0x80;	/* TCP data offset: 32 bytes */
	buf[4 + 47] = 0x10;	/* ACK */
}

/* the packets of a pass whose shared buffer is watched for plain stores */
#define IPERF_WATCH_ALL 64ul
static inline bool watched(unsigned long packet)
{
	return packet < IPERF_WATCH_ALL || packet % IPERF_WATCH_ALL == 0;
}

/*
 * tcp-rx: the remote host sends the segments km_traffic builds; the device
 * frames each (the variant's km_framing) into one bulk-in transfer, which
 * usbnet's receive path and the driver's rx_fixup pass up (verified by
 * on_frame, the rx sink); the receiving application reads 8 KiB per
 * read(2); every second segment is acknowledged with a 66-byte ACK out
 * through usbnet_start_xmit() and the driver's tx_fixup.
 */
static int iperf_rx_pass(struct iperf_run *r, unsigned long packets)
{
	uint8_t ack[4 + ACK_FRAME_BYTES];
	unsigned int room = LL_RESERVED_SPACE_OF(r->dev->net);

	ack_transfer(ack);
	for (r->packet = 0; r->packet < packets; r->packet++) {
		unsigned long frames = r->frames;
		unsigned long long reads =
			(r->sent + r->payload + IPERF_TCP_WRITE_BYTES - 1) / IPERF_TCP_WRITE_BYTES -
			(r->sent + IPERF_TCP_WRITE_BYTES - 1) / IPERF_TCP_WRITE_BYTES;
		struct km_skb *skb = km_traffic_next(r->tr), *a;
		const uint8_t *frame;
		size_t flen;
		long len;

		if (!skb)
			return km_err(-ENOMEM, "iperf: the sender found no memory");
		frame = skb->data;
		flen = skb->len;
		len = km_framing_encode(r->v->framing, &frame, &flen, 1, r->stream,
					IPERF_RX_STREAM);
		km_kfree_skb(skb);	/* the remote host's: only its bytes travel */
		if (len < 0 || km_usbnet_rx_urb(r->dev, r->stream, (size_t)len) < 0)
			return km_err(-EINVAL, "iperf: tcp-rx: a %zu-byte frame does not make a "
				      "bulk-in transfer of %s (rx_urb_size %zu)", flen, r->v->name,
				      r->dev->rx_urb_size);
		if (r->timed && !r->mismatch && r->frames == frames)
			r->mismatch = g_strdup_printf("packet %lu: no frame passed up", r->packet);
		km_traffic_complete(r->tr);
		while (reads--)
			km_syscall(r->t);
		r->sent += r->payload;
		if (++r->segments % 2)
			continue;
		/* the ACK: tcp_send_ack()'s skb, headers pushed, to the driver */
		a = km_alloc_skb(r->t, room + ACK_FRAME_BYTES, KM_GFP_ATOMIC);
		if (!a)
			return km_err(-ENOMEM, "iperf: no memory for an ACK");
		km_skb_reserve(a, (int)room);
		km_skb_put(a, ACK_FRAME_BYTES);
		memcpy(a->data, ack + 4, ACK_FRAME_BYTES);
		r->acking = true;
		km_usbnet_start_xmit(r->dev, a);
		r->acking = false;
	}
	return 0;
}

static int iperf_pass(struct iperf_run *r, unsigned long packets)
{
	uint8_t ack[4 + ACK_FRAME_BYTES];
	bool tcp = r->tt->kind == KM_TRAFFIC_TCP;

	if (r->tt->rx)
		return iperf_rx_pass(r, packets);
	ack_transfer(ack);
	for (r->packet = 0; r->packet < packets; r->packet++) {
		unsigned long frames = r->frames;
		struct km_skb *skb;
		/* write(2): one per UDP datagram; for TCP one per write of
		 * 8 KiB starting within this segment's payload */
		unsigned long long writes = !tcp ? 1 :
			(r->sent + r->payload + IPERF_TCP_WRITE_BYTES - 1) / IPERF_TCP_WRITE_BYTES -
			(r->sent + IPERF_TCP_WRITE_BYTES - 1) / IPERF_TCP_WRITE_BYTES;

		while (writes--)
			km_syscall(r->t);
		r->sent += r->payload;
		skb = km_traffic_next(r->tr);
		if (!skb)
			return km_err(-ENOMEM, "iperf: the sender found no memory");
		/* the checker sees writes through calls only: the bytes of a
		 * clone's shared buffer it forbids the driver to write are
		 * compared around the call too (skb_store_shared), for the
		 * first IPERF_WATCH_ALL packets of a pass and every
		 * IPERF_WATCH_ALL-th after: a row's packets all take the
		 * driver's same path, and the copy and compare of about
		 * 1.6 KiB per packet cost the tcp rows a quarter of their
		 * rate */
		if (watched(r->packet) && km_skb_watch_begin(r->watch, skb)) {
			km_usbnet_start_xmit(r->dev, skb);
			km_skb_watch_end(r->watch);
		} else {
			km_usbnet_start_xmit(r->dev, skb);
		}
		/* a device model hands a frame on as soon as it is complete */
		if (r->timed && !r->mismatch && r->frames == frames)
			r->mismatch = g_strdup_printf("packet %lu: no frame delivered", r->packet);
		km_traffic_complete(r->tr);
		if (tcp && ++r->segments % 2 == 0 &&
		    km_usbnet_rx(r->dev, ack, sizeof(ack)) != 1)
			return km_err(-EIO, "iperf: the ACK did not pass asix_rx_fixup()");
	}
	return 0;
}

static int iperf_timed(struct iperf_run *r, unsigned long packets)
{
	uint64_t insn;
	double t0, secs;
	int err;

	km_task_switch(r->t);
	km_events_reset(r->m);
	km_reports_clear(r->m);
	r->frames_ok = r->frames = 0;
	r->timed = true;
	insn = km_insn_read(r->insn_fd);
	t0 = km_scenario_cpu_now();
	err = iperf_pass(r, packets);
	secs = km_scenario_cpu_now() - t0;
	insn = km_insn_read(r->insn_fd) - insn;
	r->timed = false;
	if (r->insn_fd >= 0 && (!r->insn_best || insn < r->insn_best))
		r->insn_best = insn;
	km_task_switch(NULL);
	g_array_append_val(r->runs, secs);
	if (secs < r->best) {
		r->best = secs;
		km_events_get(r->m, &r->ev);
		r->best_frames_ok = r->frames_ok;
		r->reports = km_report_count(r->m, KM_R_NONE);
		for (int c = 0; c < KM_R__COUNT; c++)
			r->by_code[c] = km_report_count(r->m, (enum km_report_code)c);
		g_clear_pointer(&r->first_report, g_free);
		if (km_report_log_len(r->m))
			r->first_report = g_strdup_printf(
				"%s: %s", km_report_code_name(km_report_get(r->m, 0)->code),
				km_report_get(r->m, 0)->message);
	}
	return err;
}

/* Tear the row's machine down; what the teardown finds (leaks) fails the
 * row: said in @failed and in *@codes, its `teardown` column, with the
 * counts, so that a leaking row says so */
static unsigned long iperf_teardown(struct iperf_run *r, GString *failed, gchar **codes)
{
	unsigned long n = 0;

	*codes = NULL;
	if (r->m) {
		gchar *row = g_strdup_printf("%s %s", r->v->name, r->tt->name);

		km_traffic_free(r->tr);
		km_usbnet_free(r->dev);
		km_usbnet_dev_free(&r->d);
		n = km_scenario_teardown(r->m, r->t, row, failed, codes);
		r->m = NULL;
		g_free(row);
	}
	return n;
}

/* ... and free what is left of it, the row made */
static void iperf_free(struct iperf_run *r)
{
	if (r->runs)
		g_array_free(r->runs, TRUE);
	g_free(r->mismatch);
	g_free(r->first_report);
	g_free(r->stream);
	km_skb_watch_free(r->watch);
}

static const struct km_column columns[] = {
	{ "variant", "variant", "", KM_VALUE_STRING, -8, 0, KM_COL_TEXT | KM_COL_KEY,
	  "usbnet variant" },
	{ "builtin", "", "", KM_VALUE_BOOL, 0, 0, KM_COL_KEY,
	  "compiled into libkmodel; else built outside it, not inlined" },
	{ "traffic", "traffic", "", KM_VALUE_STRING, -8, 0, KM_COL_TEXT | KM_COL_KEY,
	  "tcp, tcp+tap (a packet tap clones each skb) or udp" },
	{ "mss", "", "bytes", KM_VALUE_INT, 0, 0, KM_COL_KEY, "TCP payload bytes per segment" },
	{ "maxpacket", "", "bytes", KM_VALUE_INT, 0, 0, KM_COL_KEY, "bulk-out wMaxPacketSize" },
	{ "speed", "", "", KM_VALUE_STRING, 0, 0, KM_COL_KEY, "USB speed of that maxpacket" },
	{ "wire_bits_per_s", "", "bit/s", KM_VALUE_INT, 0, 0, 0,
	  "the device's Ethernet line rate (km_usbnet_dev_wire_bits_per_s() of its "
	  "device model); none for a device model built outside libkmodel" },
	{ "packets", "packets", "", KM_VALUE_INT, 9, 0, KM_COL_TEXT, "packets per timed run" },
	{ "frames_ok", "frames_ok", "", KM_VALUE_INT, 9, 0, KM_COL_TEXT,
	  "frames the device parsed back equal to what was sent (best run)" },
	{ "copies_per_1000", "copies/k", "per 1000 packets", KM_VALUE_DOUBLE, 8, 1, KM_COL_TEXT,
	  "skb_copy_expand and friends per 1000 packets" },
	{ "host_ns_per_packet", "ns/pkt", "ns", KM_VALUE_DOUBLE, 8, 1, KM_COL_TEXT,
	  "host thread CPU time per packet, whole tx pipeline, best timed run" },
	{ "mpps", "Mpps", "10^6 packets/s", KM_VALUE_DOUBLE, 6, 2, KM_COL_TEXT,
	  "host packets per CPU-second of the thread" },
	{ "spread_pct", "spread%", "%", KM_VALUE_DOUBLE, 7, 1, KM_COL_TEXT,
	  "median timed run over the best, percent: the row's noise" },
	{ "host_insn_per_packet", "insn/pkt", "instructions", KM_VALUE_DOUBLE, 8, 0, KM_COL_TEXT,
	  "the host's retired user-mode instructions per packet, whole tx pipeline, fewest of "
	  "the timed runs (perf_event_open(2)): the simulator's cost, which load on the host "
	  "barely moves; none where the host counts none (km_scenario_host_insn())" },
	{ "reports", "reports", "per timed run", KM_VALUE_INT, 7, 0, KM_COL_TEXT,
	  "BUG/WARN reports in the best timed run (by code: the reports_<code> columns)" },
	{ "first_mismatch", "", "", KM_VALUE_STRING, 0, 0, 0,
	  "the first frame of the timed runs that did not verify (packet, lengths, first "
	  "differing byte); none when every frame verified" },
	{ "first_report", "", "", KM_VALUE_STRING, 0, 0, 0,
	  "the first BUG/WARN report of the best timed run, \"code: message\" (e.g. the "
	  "device's reason for dropping a frame); none without reports" },
	{ "teardown", "", "", KM_VALUE_STRING, 0, 0, 0,
	  "what the row's teardown found, by code with counts (\"leak_kmalloc 2, leak_skb 1\": "
	  "what the variant leaked): the run exits 1; none when clean" },
	{ "error", "", "", KM_VALUE_STRING, 0, 0, 0,
	  "why the row has no numbers: the process that ran it isolated died (kmodel-bench: "
	  "a plugin's variant that crashed or timed out; km_iperf_run() itself never sets "
	  "it); none when it completed" },
};

/* the counters the text table shows: bytes copied and memmoved per packet */
static const char *const text_events[] = { "skb_copy_bytes", "memmove_bytes", NULL };

static bool builtin_usbnet(const struct km_usbnet_variant *v)
{
	return km_usbnet_find_any(v->name) == v;	/* the tx table's or rx_twin() */
}

static void add_row(struct km_table *t, const struct iperf_run *r, const char *traffic,
		    unsigned int mss, unsigned int mp, enum km_usb_speed speed,
		    unsigned long packets, const char *teardown)
{
	size_t row = km_table_add_row(t);
	double n = (double)packets;

	km_table_set_str(t, row, "variant", r->v->name);
	km_table_set_bool(t, row, "builtin", builtin_usbnet(r->v));
	km_table_set_str(t, row, "traffic", traffic);
	if (strcmp(traffic, "udp"))
		km_table_set_int(t, row, "mss", mss);
	km_table_set_int(t, row, "maxpacket", mp);
	km_table_set_str(t, row, "speed", km_usb_speed_name(speed));
	if (r->wire)
		km_table_set_int(t, row, "wire_bits_per_s", (int64_t)r->wire);
	km_table_set_int(t, row, "packets", (int64_t)packets);
	km_table_set_int(t, row, "frames_ok", (int64_t)r->best_frames_ok);
	km_table_set_double(t, row, "copies_per_1000", (double)r->ev.skb_copies * 1000.0 / n);
	km_table_set_double(t, row, "host_ns_per_packet", r->best * 1e9 / n);
	km_table_set_double(t, row, "mpps", n / r->best / 1e6);
	km_table_set_double(t, row, "spread_pct", km_scenario_spread_pct(r->runs, r->best));
	if (r->insn_best)
		km_table_set_double(t, row, "host_insn_per_packet", (double)r->insn_best / n);
	km_table_set_int(t, row, "reports", (int64_t)r->reports);
	if (r->mismatch)
		km_table_set_str(t, row, "first_mismatch", r->mismatch);
	if (r->first_report)
		km_table_set_str(t, row, "first_report", r->first_report);
	if (teardown)
		km_table_set_str(t, row, "teardown", teardown);
	km_table_set_events(t, row, &r->ev, n);
	km_table_set_reports(t, row, r->by_code);
}

int km_iperf_run_sized(const struct km_iperf_opts *opts, size_t opts_size,
		       const struct km_usbnet_variant *const *variants, size_t n, struct km_table **out)
{
	struct km_iperf_opts o = { 0 };
	enum km_usb_speed speed;
	struct km_table *t;
	GString *failed;	/* rows whose frames did not verify, or whose teardown found problems */
	bool leaked = false;
	int rc = 0, insn_fd;

	if (!out || (n && !variants))
		return km_err(-EINVAL, "km_iperf_run: NULL argument");
	*out = NULL;
	if (opts && opts_size < KM_IPERF_OPTS_MIN_SIZE)
		return km_err(-EINVAL, "km_iperf_run: opts size %zu < %zu", opts_size,
			      (size_t)KM_IPERF_OPTS_MIN_SIZE);
	if (opts)
		km_struct_read(&o, sizeof(o), opts, opts_size);
	if (!o.packets)
		o.packets = 100000;
	if (!o.mss)
		o.mss = 1448;
	if (!o.maxpacket)
		o.maxpacket = 512;
	if (!o.repeat)
		o.repeat = 9;
	if (o.mss > 65535 - 66 || o.repeat > 100)
		return km_err(-EINVAL, "iperf: mss %u (1 .. %d) or repeat %u (1 .. 100) out of range",
			      o.mss, 65535 - 66, o.repeat);
	if (o.traffic) {
		size_t ti = 0;

		while (ti < G_N_ELEMENTS(traffics) && strcmp(traffics[ti].name, o.traffic))
			ti++;
		if (ti == G_N_ELEMENTS(traffics))
			return km_err(-EINVAL, "iperf: no traffic kind \"%s\" (tcp, tcp+tap, udp, "
				      "tcp-rx)", o.traffic);
	}
	/* the speed that has this bulk maxpacket (512 high, 1024 super) */
	speed = o.maxpacket == 512 ? KM_USB_SPEED_HIGH :
		o.maxpacket == 1024 ? KM_USB_SPEED_SUPER : KM_USB_SPEED_FULL;
	for (size_t v = 0; v < n; v++) {
		if ((rc = km_usbnet_variant_check(variants[v])))
			return rc;
		/* every row sends (tcp-rx its ACKs) to the variant's device */
		if (!km_usbnet_variant_has_tx_dev(variants[v]))
			return km_err(-EINVAL, "iperf: %s has a receive side only (no dev_new, and "
				      "its framing has neither a length before each frame nor a decode "
				      "hook): no device "
				      "takes its bulk-out; leave it out of iperf", variants[v]->name);
		if (rx_twin(variants[v]) && !o.rx)
			return km_err(-EINVAL, "iperf: %s is a built-in receive variant: its only row "
				      "is tcp-rx (km_iperf_opts.rx); its transmit rows are those of "
				      "the variant whose tx_fixup it has", variants[v]->name);
		if (!km_usbnet_variant_allows(variants[v], speed, o.maxpacket))
			return km_err(-EINVAL, "iperf: %s does not meet a %s-speed device with "
				      "maxpacket %u", variants[v]->name, km_usb_speed_name(speed),
				      o.maxpacket);
	}
	{
		gchar *title = g_strdup_printf("iperf: MSS %u, maxpacket %u (%s speed); skb copies "
					       "per 1000 packets, host ns per packet (whole tx "
					       "pipeline, thread CPU time), bytes memmoved and copied per packet",
					       o.mss, o.maxpacket, km_usb_speed_name(speed));

		t = km_table_new("iperf", title, columns, G_N_ELEMENTS(columns));
		g_free(title);
	}
	km_table_add_event_columns(t, "packet", text_events);
	km_table_add_report_columns(t, "per timed run", "BUG/WARN reports of this code "
				    "(kmodel/machine.h) in the best timed run");
	failed = g_string_new(NULL);
	insn_fd = km_insn_open();
	for (size_t ti = 0; ti < G_N_ELEMENTS(traffics) && !rc; ti++) {
		const struct iperf_traffic *tt = &traffics[ti];
		struct iperf_run *runs = g_new0(struct iperf_run, n);
		const struct km_usbnet_variant **vs = g_new0(const struct km_usbnet_variant *, n + 1);
		const struct km_usbnet_variant *const *variants_all = variants;
		size_t n_all = n;
		int err = 0;

		if (o.traffic && strcmp(o.traffic, tt->name)) {
			g_free(runs);
			g_free(vs);
			continue;
		}

		/* tcp-rx: only with @rx, for the variants with a receive side;
		 * the transmit rows: not for a built-in receive variant */
		{
			size_t k = 0;

			for (size_t v = 0; v < n_all; v++)
				if (tt->rx ? o.rx && km_usbnet_variant_has(variants_all[v], framing) &&
					     variants_all[v]->framing
					   : !rx_twin(variants_all[v]))
					vs[k++] = variants_all[v];
			variants = vs;
			n = k;
		}
		if (o.on_traffic && n)
			o.on_traffic(o.on_traffic_arg, tt->name);
		for (size_t v = 0; v < n && !err; v++) {
			runs[v].v = variants[v];
			runs[v].insn_fd = insn_fd;
			err = iperf_setup(&runs[v], tt, o.mss, speed, o.maxpacket, o.no_checker);
			if (!err) {	/* warm the caches and the skb/kmalloc free lists */
				km_task_switch(runs[v].t);
				err = iperf_pass(&runs[v], MIN(o.packets, 1000ul));
				km_task_switch(NULL);
			}
		}
		/* interleave the variants so drift hits all alike */
		for (unsigned int i = 0; i < o.repeat && !err; i++) {
			if (o.progress)
				o.progress(o.progress_arg, tt->name, i + 1, o.repeat);
			for (size_t v = 0; v < n && !err; v++)
				err = iperf_timed(&runs[v], o.packets);
		}
		for (size_t v = 0; v < n; v++) {
			gchar *teardown;

			if (!err && runs[v].best_frames_ok != o.packets)
				g_string_append_printf(failed, "; %s %s: %lu of %lu frames verified",
						       variants[v]->name, tt->name,
						       runs[v].best_frames_ok, o.packets);
			leaked |= iperf_teardown(&runs[v], failed, &teardown) > 0;
			if (!err)
				add_row(t, &runs[v], tt->name, o.mss, o.maxpacket, speed, o.packets,
					teardown);
			g_free(teardown);
			iperf_free(&runs[v]);
		}
		if (err)
			rc = err;
		g_free(runs);
		variants = variants_all;
		n = n_all;
		g_free(vs);
	}
	km_insn_close(insn_fd);
	/* frames that did not verify, leaks: the table is kept, every such
	 * row named (only the last was) */
	if (rc) {
		km_table_free(t);
		t = NULL;
	} else if (failed->len) {
		rc = km_scenario_fail(leaked ? -EFAULT : -EIO, "iperf", "rows that failed", failed);
	}
	g_string_free(failed, TRUE);
	*out = t;
	return rc;
}
