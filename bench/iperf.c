// SPDX-License-Identifier: GPL-2.0
/*
 * kmodel-bench iperf: an iperf-like stream through usbnet and each version
 * of asix_tx_fixup (before/after "asix: avoid copies in tx path", 2012) to
 * the simulated AX88772, which parses every frame back; each frame is
 * compared byte for byte with what the sender built.
 *
 * Per packet, timed on the host (CLOCK_MONOTONIC, best of --repeat runs):
 * the sender's alloc/reserve/put/header release/clone/pushes (and the tap's
 * clone), usbnet_start_xmit (tx_fixup, URB length rules, bulk-out
 * segmentation into maxpacket packets, device parse, frame compare,
 * dev_kfree_skb) and the ACK freeing the queued original.
 */
#include "bench.h"
#include <errno.h>
#include <stdio.h>

struct iperf_traffic {
	const char *name;
	enum km_traffic_kind kind;
	bool tap;
};

static const struct iperf_traffic traffics[] = {
	{ "tcp", KM_TRAFFIC_TCP, false },
	{ "tcp+tap", KM_TRAFFIC_TCP, true },
	{ "udp", KM_TRAFFIC_UDP, false },
};

struct iperf_run {
	struct km_machine *m;
	struct km_task *t;
	struct km_usbnet_dev d;
	struct km_usbnet *dev;
	struct km_traffic *tr;
	unsigned long frames_ok;
};

struct iperf_result {
	double secs;			/* best timed run */
	struct km_events ev;		/* of one timed run */
	unsigned long frames_ok, reports;
};

static void on_frame(void *arg, const uint8_t *frame, size_t len)
{
	struct iperf_run *r = arg;

	r->frames_ok += km_traffic_verify(r->tr, frame, len);
}

/* the speed whose bulk maxpacket this is (512 high, 1024 super, else full) */
static enum km_usb_speed speed_of(unsigned int mp)
{
	return mp == 512 ? KM_USB_SPEED_HIGH : mp == 1024 ? KM_USB_SPEED_SUPER : KM_USB_SPEED_FULL;
}

static int iperf_setup(const struct kb_opts *o, const struct km_usbnet_variant *v,
		       const struct iperf_traffic *tt, struct iperf_run *r)
{
	struct km_traffic_config cfg = { .kind = tt->kind, .tap = tt->tap,
					 .payload = tt->kind == KM_TRAFFIC_TCP ?
						    (unsigned int)o->iperf_mss : 0 };
	unsigned int mp = (unsigned int)o->iperf_maxpacket;
	enum km_usb_speed speed = speed_of(mp);
	int err;

	err = km_machine_new(NULL, &r->m);
	if (!err)
		err = km_task_new(r->m, NULL, 0, &r->t);
	if (!err)
		err = v->dev_new(r->m, on_frame, r, &r->d);
	if (err)
		return err;
	err = km_usbnet_probe(r->m, v, speed, mp, &r->d.sink, &r->dev);
	if (!err)
		err = km_traffic_new(r->t, r->dev->net, &cfg, &r->tr);
	return err;
}

static int iperf_pass(struct iperf_run *r, unsigned long packets)
{
	for (unsigned long i = 0; i < packets; i++) {
		struct km_skb *skb = km_traffic_next(r->tr);

		if (!skb)
			return -ENOMEM;
		km_usbnet_start_xmit(r->dev, skb);
		km_traffic_complete(r->tr);
	}
	return 0;
}

static int iperf_timed(struct iperf_run *r, unsigned long packets, struct iperf_result *res)
{
	double t0, secs;
	int err;

	km_task_switch(r->t);
	km_events_reset(r->m);
	km_reports_clear(r->m);
	r->frames_ok = 0;
	t0 = kb_now();
	err = iperf_pass(r, packets);
	secs = kb_now() - t0;
	km_task_switch(NULL);
	if (secs < res->secs) {
		res->secs = secs;
		km_events_get(r->m, &res->ev);
		res->frames_ok = r->frames_ok;
		res->reports = km_report_count(r->m, KM_R_NONE);
	}
	return err;
}

static int iperf_teardown(struct iperf_run *r)
{
	int err = 0;

	if (!r->m)
		return 0;
	km_traffic_free(r->tr);
	km_usbnet_free(r->dev);
	km_usbnet_dev_free(&r->d);
	if (r->t)
		km_task_free(r->t);
	if (km_machine_destroy(r->m))
		err = -EFAULT;
	return err;
}

static void print_header(const struct kb_out *out)
{
	const struct kb_opts *o = out->opts;

	if (o->csv)
		printf("name,variant,traffic,copies_per_1000,copy_bytes_per_packet,"
		       "memmove_bytes_per_packet,host_ns_per_packet,mpps,frames_ok,frames_sent,"
		       "reports\n");
	else if (!o->json)
		printf("iperf: %d packets, MSS %d, maxpacket %d; skb_copy_expand calls per 1000 "
		       "packets, bytes copied/memmoved per packet, host ns per packet (whole tx "
		       "pipeline)\n%-8s %-8s %8s %8s %8s %8s %6s %9s %9s %7s\n",
		       o->iperf_packets, o->iperf_mss, o->iperf_maxpacket, "variant", "traffic",
		       "copies/k", "copyB/p", "moveB/p", "ns/pkt", "Mpps", "frames_ok",
		       "sent", "reports");
}

static void print_row(const struct kb_out *out, const char *variant, const char *traffic,
		      unsigned long sent, const struct iperf_result *res)
{
	const struct km_events *ev = &res->ev;
	double n = (double)sent;
	double copies = (double)ev->skb_copies * 1000.0 / n;
	double copyb = (double)ev->skb_copy_bytes / n, moveb = (double)ev->memmove_bytes / n;
	double ns = res->secs * 1e9 / n, mpps = n / res->secs / 1e6;

	if (out->json) {
		JsonBuilder *b = out->json;

		json_builder_begin_object(b);
		json_builder_set_member_name(b, "name");
		json_builder_add_string_value(b, "iperf");
		json_builder_set_member_name(b, "variant");
		json_builder_add_string_value(b, variant);
		json_builder_set_member_name(b, "traffic");
		json_builder_add_string_value(b, traffic);
		json_builder_set_member_name(b, "copies_per_1000");
		json_builder_add_double_value(b, copies);
		json_builder_set_member_name(b, "copy_bytes_per_packet");
		json_builder_add_double_value(b, copyb);
		json_builder_set_member_name(b, "memmove_bytes_per_packet");
		json_builder_add_double_value(b, moveb);
		json_builder_set_member_name(b, "host_ns_per_packet");
		json_builder_add_double_value(b, ns);
		json_builder_set_member_name(b, "mpps");
		json_builder_add_double_value(b, mpps);
		json_builder_set_member_name(b, "frames_ok");
		json_builder_add_int_value(b, (gint64)res->frames_ok);
		json_builder_set_member_name(b, "frames_sent");
		json_builder_add_int_value(b, (gint64)sent);
		json_builder_set_member_name(b, "reports");
		json_builder_add_int_value(b, (gint64)res->reports);
		json_builder_set_member_name(b, "events_per");
		json_builder_add_string_value(b, "packet");
		json_builder_set_member_name(b, "events");
		kb_json_events(b, ev, n);
		json_builder_end_object(b);
	} else if (out->opts->csv) {
		printf("iperf,%s,%s,%.1f,%.1f,%.1f,%.1f,%.3f,%lu,%lu,%lu\n", variant, traffic,
		       copies, copyb, moveb, ns, mpps, res->frames_ok, sent, res->reports);
	} else {
		printf("%-8s %-8s %8.1f %8.1f %8.1f %8.1f %6.2f %9lu %9lu %7lu\n", variant, traffic,
		       copies, copyb, moveb, ns, mpps, res->frames_ok, sent, res->reports);
	}
}

static int iperf_run_all(struct kb_out *out)
{
	const struct kb_opts *o = out->opts;
	unsigned int mp = (unsigned int)o->iperf_maxpacket;
	enum km_usb_speed speed = speed_of(mp);
	const struct km_usbnet_variant *vs[64];
	unsigned long packets = (unsigned long)o->iperf_packets;
	size_t nv = 0;
	int rc = 0;

	/* every registered variant that meets this (speed, maxpacket) */
	for (const struct km_usbnet_variant *const *v = km_registry_usbnet(out->reg);
	     *v && nv < G_N_ELEMENTS(vs); v++)
		if (km_usbnet_variant_allows(*v, speed, mp))
			vs[nv++] = *v;
	print_header(out);
	for (size_t ti = 0; ti < G_N_ELEMENTS(traffics) && !rc; ti++) {
		const struct iperf_traffic *tt = &traffics[ti];
		struct iperf_run runs[G_N_ELEMENTS(vs)] = { 0 };
		struct iperf_result res[G_N_ELEMENTS(vs)] = { 0 };

		for (size_t v = 0; v < nv && !rc; v++) {
			res[v].secs = G_MAXDOUBLE;
			rc = iperf_setup(o, vs[v], tt, &runs[v]);
			if (!rc) {	/* warm the caches and the skb/kmalloc free lists */
				km_task_switch(runs[v].t);
				rc = iperf_pass(&runs[v], MIN(packets, 1000ul));
				km_task_switch(NULL);
			}
		}
		/* interleave the versions so drift hits all alike */
		for (int i = 0; i < o->repeat && !rc; i++) {
			kb_progress(out, "iperf %s: run %d/%d", tt->name, i + 1, o->repeat);
			for (size_t v = 0; v < nv && !rc; v++)
				rc = iperf_timed(&runs[v], packets, &res[v]);
		}
		kb_progress(out, "%s", "");
		for (size_t v = 0; v < nv; v++) {
			int err = iperf_teardown(&runs[v]);

			if (rc || err) {
				fprintf(stderr, "kmodel-bench: iperf %s %s failed: %s\n", vs[v]->name,
					tt->name, rc ? g_strerror(-rc) : "teardown found leaks");
				rc = rc ? rc : err;
				continue;
			}
			print_row(out, vs[v]->name, tt->name, packets, &res[v]);
			if (res[v].frames_ok != packets)
				rc = -EIO;
		}
	}
	if (rc == -EIO)
		fprintf(stderr, "kmodel-bench: iperf: some frames did not verify\n");
	return rc;
}

const struct kb_scenario kb_iperf_scenario = {
	.name = "iperf",
	.summary = "TCP/UDP stream through usbnet and every usbnet variant to its device model",
	.run = iperf_run_all,
};
