// SPDX-License-Identifier: GPL-2.0
/*
 * The exhaustive tx_fixup sweep (kmodel/sweep.h) on its quick space: each
 * variant's findings by rule, the space's size, shards that cover it
 * without overlap, and kmodel-sweep's JSON and merge.
 *
 * Expected findings follow from the drivers' code (see each port):
 *  - hardened answers every flaw: no finding;
 *  - after and mainline memmove the payload of a TCP clone whose original
 *    released its header (dataref 0x10002) when headroom < 4 ("following
 *    should not happen, but better be safe", asix: avoid copies in tx path):
 *    the original's bytes change; before copies every clone: no such finding;
 *  - every faithful variant changes a shared (users 2) skb in place;
 *  - sr9800 pads by % (maxpacket - 1): transfers on a packet boundary with
 *    no ZLP (FLAG_MULTI_PACKET).
 */
#include "km_test.h"
#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

static struct km_sweep_result *quick;	/* the whole quick space, once */

static int run_quick(void **state)
{
	struct km_sweep_config c = { .quick = true };

	return km_sweep_run(&c, &quick);
}

static int free_quick(void **state)
{
	km_sweep_result_free(quick);
	return 0;
}

static const struct km_sweep_variant_result *variant(const struct km_sweep_result *r,
						     const char *name)
{
	for (size_t i = 0; i < r->nvariants; i++)
		if (!strcmp(r->variants[i].name, name))
			return &r->variants[i];
	fail_msg("no variant %s", name);
	return NULL;
}

static void test_space_size(void **state)
{
	struct km_sweep_config c = { .quick = true };
	uint64_t rows;

	/* per endpoint 3 sharings x (2 mp + 9) lengths and tcp_clone's from
	 * 66 (none at mp 8: 2 x 8 + 8 < 66), 9 headrooms x 10 tailrooms (0..8
	 * and default); asix-framed variants at full/8, full/64, high/512;
	 * ax88179 at super/1024 too (1518 caps 2056) */
	rows = 3ull * ((2 * 8 + 9) + (2 * 64 + 9) + (2 * 512 + 9)) +
	       (0 + (2 * 64 + 8 - 66 + 1) + (2 * 512 + 8 - 66 + 1));
	assert_int_equal(km_sweep_space_size(&c),
			 (5 * rows + rows + 3 * 1519 + (1518 - 66 + 1)) * 90);
	assert_int_equal(quick->states, km_sweep_space_size(&c));
	assert_int_equal(quick->nvariants, 6);
	c.quick = false;
	rows = (3ull * 1519 + (1518 - 66 + 1)) * 3;
	assert_int_equal(km_sweep_space_size(&c),
			 (6 * rows + 3 * 1519 + (1518 - 66 + 1)) * 65 * 66);
}

static void test_hardened_has_no_findings(void **state)
{
	const struct km_sweep_variant_result *v = variant(quick, "hardened");

	assert_true(v->states > 0);
	for (size_t i = 0; i < v->nfindings; i++)
		printf("hardened: %s %llu\n", v->findings[i].rule,
		       (unsigned long long)v->findings[i].count);
	assert_int_equal(v->nfindings, 0);
}

/* after and mainline: the memmove over a TCP clone's payload; before: none
 * (the three on TCP clones alone: the whole space's smallest example of a
 * rule may be another sharing's, and before has findings on shared skbs) */
static void test_memmove_over_tcp_clone(void **state)
{
	const struct km_usbnet_variant *vs[] = { &km_asix_before, &km_asix_after, &km_asix_mainline,
						 NULL };
	struct km_sweep_config c = { .quick = true, .sharings = 1u << KM_SWEEP_TCP_CLONE,
				     .variants = vs };
	struct km_sweep_result *r;
	const struct km_sweep_finding *f;

	assert_int_equal(km_sweep_run(&c, &r), 0);
	assert_null(km_sweep_find(variant(r, "before"), "other_holder_corrupted"));
	assert_null(km_sweep_find(variant(r, "before"), "skb_write_cloned"));
	assert_int_equal(variant(r, "before")->nfindings, 0);
	for (int i = 0; i < 2; i++) {
		const char *name = i ? "mainline" : "after";

		f = km_sweep_find(variant(r, name), "other_holder_corrupted");
		assert_non_null(f);
		assert_true(f->count > 0);
		assert_int_equal(f->example.sharing, KM_SWEEP_TCP_CLONE);
		/* the smallest: 66 bytes of headers and one of payload, headroom
		 * 0 (< 4: the memmove), at the smallest maxpacket with room */
		assert_int_equal(f->example.len, 67);
		assert_int_equal(f->example.headroom, 0);
		/* ... but the write into the room the original shares comes
		 * one byte earlier: a clone of the headers alone (len 66, no
		 * payload to corrupt) memmoves them 4 bytes up, into the
		 * tailroom (the README said 67 for both) */
		f = km_sweep_find(variant(r, name), "skb_write_cloned");
		assert_non_null(f);
		assert_int_equal(f->example.sharing, KM_SWEEP_TCP_CLONE);
		assert_int_equal(f->example.len, 66);
		assert_int_equal(f->example.headroom, 0);
		assert_int_equal(f->example.tailroom, 4);
		assert_int_equal(f->example.maxpacket, 64);
	}
	/* the two share the rules: the same counts */
	assert_int_equal(km_sweep_find(variant(r, "after"), "other_holder_corrupted")->count,
			 km_sweep_find(variant(r, "mainline"), "other_holder_corrupted")->count);
	km_sweep_result_free(r);
}

/*
 * v3.6 dm9601_tx_fixup() (tests/plugins/dm9601_tx.c)
 * pushes its 2-byte header without testing skb_header_cloned() and writes
 * it with plain C stores (skb->data[0] = len), which no accessor sees: the
 * sweep compares the shared buffer around the call (skb_store_shared).
 * From the driver's code: in place iff headroom >= 2 (DM_TX_OVERHEAD),
 * else skb_copy_expand(); the header-cloned and the shared (users 2) skb
 * may write none of their buffer, a TCP clone its header
 * [head, head + hdr_len), where the header goes. At full/64, the variants'
 * one endpoint: len 0..136, headroom 2..8, 10 tailrooms, 2 sharings.
 * dm9601p writes the same bytes through put_unaligned_le16(): the checker
 * reports them, and the comparison must not report them again.
 */
extern const struct km_usbnet_variant km_test_dm9601, km_test_dm9601p;

static void test_plain_stores_into_shared_buffer(void **state)
{
	const struct km_usbnet_variant *vs[3] = { &km_test_dm9601, &km_test_dm9601p, NULL };
	struct km_sweep_config c = { .quick = true, .variants = vs };
	struct km_sweep_result *r;
	const struct km_sweep_finding *f;
	const unsigned long long states = 137ull * 7 * 10;	/* per sharing */

	assert_int_equal(km_sweep_run(&c, &r), 0);

	f = km_sweep_find(variant(r, "dm9601"), "skb_store_shared");
	assert_non_null(f);
	assert_int_equal(f->count, 2 * states);
	assert_int_equal(f->example.sharing, KM_SWEEP_HDR_CLONED);
	assert_int_equal(f->example.len, 0);
	assert_int_equal(f->example.headroom, 2);
	assert_int_equal(f->example.tailroom, 0);
	assert_int_equal(f->example.maxpacket, 64);

	assert_null(km_sweep_find(variant(r, "dm9601p"), "skb_store_shared"));
	f = km_sweep_find(variant(r, "dm9601p"), "skb_write_shared");
	assert_non_null(f);
	assert_int_equal(f->count, states);
	assert_non_null(km_sweep_find(variant(r, "dm9601p"), "skb_write_cloned"));
	km_sweep_result_free(r);
	(void)state;
}

/* the built-in variants write through accessors only: no plain store */
static void test_builtins_store_through_accessors(void **state)
{
	for (size_t i = 0; i < quick->nvariants; i++)
		assert_null(km_sweep_find(&quick->variants[i], "skb_store_shared"));
	(void)state;
}

/* users 2 (pktgen): every variant but hardened changes the skb in place */
static void test_shared_changed_in_place(void **state)
{
	for (size_t i = 0; i < quick->nvariants; i++) {
		const struct km_sweep_variant_result *v = &quick->variants[i];
		const struct km_sweep_finding *f = km_sweep_find(v, "skb_change_shared");

		if (!strcmp(v->name, "hardened")) {
			assert_null(f);
			continue;
		}
		assert_non_null(f);
		assert_int_equal(f->example.sharing, KM_SWEEP_SHARED);
		assert_non_null(km_sweep_find(v, "other_holder_corrupted"));
	}
}

/* sr9800's pad modulus: a stall; the asix variants pad right and never stall */
static void test_sr9800_pad_modulus_finding(void **state)
{
	const struct km_sweep_finding *f = km_sweep_find(variant(quick, "sr9800"), "zlp_stall");

	assert_non_null(f);
	/* full/8: len 4 + header 4 = 8, and 8 % 7 != 0: no pad word */
	assert_int_equal(f->example.len, 4);
	assert_int_equal(f->example.maxpacket, 8);
	assert_int_equal(f->example.sharing, KM_SWEEP_PRIVATE);
	for (size_t i = 0; i < quick->nvariants; i++)
		if (strcmp(quick->variants[i].name, "sr9800"))
			assert_null(km_sweep_find(&quick->variants[i], "zlp_stall"));
}

/* ax88179, whatever its findings are, they are stable: the pad byte usbnet
 * writes into a TCP clone's shared tailroom, the BUG of pskb_expand_head()
 * on a shared skb (and the frame it then drops), the in-place push into a
 * shared skb with room; no stall, leak or device error. */
static void test_ax88179_findings(void **state)
{
	const struct km_sweep_variant_result *v = variant(quick, "ax88179");
	static const char *const rules[] = { "skb_write_cloned", "skb_expand_shared",
					     "other_holder_corrupted", "skb_write_shared",
					     "skb_change_shared", "frame_mismatch" };
	const struct km_sweep_finding *f;

	for (size_t i = 0; i < v->nfindings; i++)
		printf("ax88179: %s %llu\n", v->findings[i].rule,
		       (unsigned long long)v->findings[i].count);
	assert_int_equal(v->nfindings, G_N_ELEMENTS(rules));
	for (size_t i = 0; i < G_N_ELEMENTS(rules); i++)
		assert_non_null(km_sweep_find(v, rules[i]));
	f = km_sweep_find(v, "skb_write_cloned");
	assert_int_equal(f->example.sharing, KM_SWEEP_TCP_CLONE);
	assert_int_equal(f->example.headroom, 8);	/* room for the header: in place */
	/* every dropped frame is a shared skb whose expand BUG()ed */
	assert_int_equal(km_sweep_find(v, "frame_mismatch")->example.sharing, KM_SWEEP_SHARED);
	assert_true(km_sweep_find(v, "frame_mismatch")->count <=
		    km_sweep_find(v, "skb_expand_shared")->count);
}

/* no variant leaks or confuses its device on the quick space */
static void test_no_leaks_or_device_errors(void **state)
{
	for (size_t i = 0; i < quick->nvariants; i++) {
		assert_null(km_sweep_find(&quick->variants[i], "leak"));
		assert_null(km_sweep_find(&quick->variants[i], "usb_protocol"));
		assert_null(km_sweep_find(&quick->variants[i], "skb_invalid"));
	}
}

/* A device model that takes packets only (no .transfer), as an
 * out-of-tree one may be: the sweep splits each transfer into maxpacket
 * packets itself. It used to mark a full last packet as the transfer's
 * end and then send the ZLP after it: a second, empty transfer, which a
 * strict device (examples/byo_tx_fixup's) reports as a protocol error --
 * false usb_protocol findings at every transfer that is a multiple of
 * maxpacket (found by a new user's sweep of that example). The asix
 * drivers pad such transfers away, so the test's driver does not: the
 * AX88772 header before the frame, no pad, FLAG_SEND_ZLP (usbnet then
 * sets URB_ZERO_PACKET). The wrapper around the AX88772 model counts ZLPs
 * that come right after a packet that ended a transfer: every transfer
 * here holds a 4-byte header, so each is that bug. */
static struct km_skb *zlp_tx_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t gfp)
{
	uint8_t h[4];
	unsigned int len = skb->len;

	(void)dev;
	(void)gfp;
	if (km_skb_cow_head(km_current(), skb, 4)) {
		km_kfree_skb(skb);
		return NULL;
	}
	h[0] = (uint8_t)len;
	h[1] = (uint8_t)(len >> 8);
	h[2] = (uint8_t)~len;
	h[3] = (uint8_t)(~len >> 8);
	km_skb_push(skb, 4);
	km_skb_copy_to_linear_data_offset(skb, 0, h, 4);
	return skb;
}

static const struct km_usbnet_driver_info zlp_info = {
	.description = "AX88772 framing, no pad, FLAG_SEND_ZLP (test driver)",
	.flags = KM_FLAG_SEND_ZLP,
	.tx_fixup = zlp_tx_fixup,
};

static unsigned long empty_transfers;

static void packets_only_hook(struct km_test_asix_wrap *w, const uint8_t *data, size_t len,
			      bool end)
{
	(void)data;
	(void)end;
	if (!len && w->last_end)
		empty_transfers++;
}

static int packets_only_dev_new(struct km_machine *m, km_usbnet_frame_fn fn, void *arg,
				struct km_usbnet_dev *out)
{
	return km_test_asix_wrap_new(m, fn, arg, packets_only_hook, out);
}

static void test_packet_sink_device_same_findings(void **state)
{
	struct km_usbnet_variant tr = km_asix_after, pk;
	const struct km_usbnet_variant *vs[] = { &tr, &pk, NULL };
	struct km_sweep_config c = { .quick = true, .variants = vs };
	struct km_sweep_result *r;

	tr.name = "zlp_transfers";
	tr.info = &zlp_info;
	tr.era = KM_USBNET_MAINLINE;
	pk = tr;
	pk.name = "zlp_packets";
	pk.dev_new = packets_only_dev_new;
	empty_transfers = 0;
	assert_int_equal(km_sweep_run(&c, &r), 0);
	assert_int_equal(r->nvariants, 2);
	assert_int_equal(empty_transfers, 0);
	assert_null(km_sweep_find(&r->variants[1], "usb_protocol"));
	assert_int_equal(r->variants[1].states, r->variants[0].states);
	assert_int_equal(r->variants[1].nfindings, r->variants[0].nfindings);
	for (size_t i = 0; i < r->variants[0].nfindings; i++) {
		const struct km_sweep_finding *a = &r->variants[0].findings[i];
		const struct km_sweep_finding *b = &r->variants[1].findings[i];

		assert_string_equal(a->rule, b->rule);
		assert_int_equal(a->count, b->count);
		assert_int_equal(km_sweep_state_cmp(&a->example, &b->example), 0);
	}
	km_sweep_result_free(r);
}

/* A device whose framing carries an empty frame: zlp_tx_fixup()'s 4-byte
 * header (length, its complement) before each frame, checked against the
 * transfer, and the frame handed on even when it is empty (BYO-1 does the
 * same with its 2-byte length). For an empty skb the sweep takes one empty
 * frame as well as none (b437def: the AX88772 reads a zero length as its
 * pad word; such a device delivers it): no frame_mismatch finding. */
struct hdr_dev {
	km_usbnet_frame_fn fn;
	void *arg;
	uint8_t buf[4096];
	size_t have;
};

static void hdr_dev_packet(void *priv, const uint8_t *data, size_t len, bool end)
{
	struct hdr_dev *d = priv;
	size_t flen;

	assert_true(d->have + len <= sizeof(d->buf));
	if (len)	/* a ZLP's data is NULL */
		memcpy(d->buf + d->have, data, len);
	d->have += len;
	if (!end)
		return;
	flen = d->have >= 4 ? (size_t)(d->buf[0] | d->buf[1] << 8) : 0;
	if (d->have >= 4 && flen == d->have - 4 && (size_t)(d->buf[2] | d->buf[3] << 8) == (~flen & 0xffff))
		d->fn(d->arg, d->buf + 4, flen);
	d->have = 0;
}

static int hdr_dev_new(struct km_machine *m, km_usbnet_frame_fn fn, void *arg,
		       struct km_usbnet_dev *out)
{
	struct hdr_dev *d = g_new0(struct hdr_dev, 1);

	(void)m;
	d->fn = fn;
	d->arg = arg;
	*out = (struct km_usbnet_dev){ .priv = d, .sink = { .packet = hdr_dev_packet, .priv = d }, .free = g_free };
	return 0;
}

static void test_empty_frame_for_empty_skb(void **state)
{
	struct km_usbnet_variant v = km_asix_after;
	const struct km_usbnet_variant *vs[] = { &v, NULL };
	/* the private skbs: the test driver writes its header into shared
	 * ones (and so has the sharing rules' findings there) */
	struct km_sweep_config c = { .quick = true, .variants = vs,
				     .sharings = 1u << KM_SWEEP_PRIVATE };
	struct km_sweep_result *r;

	v.name = "empty_frames";
	v.info = &zlp_info;
	v.era = KM_USBNET_MAINLINE;
	v.dev_new = hdr_dev_new;
	assert_int_equal(km_sweep_run(&c, &r), 0);
	assert_int_equal(r->nvariants, 1);
	assert_true(r->variants[0].states > 0);
	assert_int_equal(r->variants[0].nfindings, 0);
	km_sweep_result_free(r);
	(void)state;
}

/* a tx_fixup that frees the skb it got twice (its copy sent
 * in its place). On a shared skb (users 2) the second free drops the
 * other holder's reference: the skb and its buffer are gone. The sweep
 * used to compare the holder's bytes in the freed kmalloc object (ASan:
 * use-after-poison) and free the skb again. Now a dead holder is an
 * skb_refcount finding (the holder's own kfree_skb() would be the double
 * free) in every shared state, never other_holder_corrupted, never freed
 * again. The driver then reuses the freed object (kzalloc of its bucket,
 * the slab's LIFO free list hands it back) so that a sweep that still
 * compares finds zeros there: other_holder_corrupted without ASan too. */
static struct km_skb *double_free_tx_fixup(struct km_usbnet *dev, struct km_skb *skb,
					   km_gfp_t gfp)
{
	struct km_skb *copy = km_skb_copy_expand(km_current(), skb, 4, 4, gfp);
	struct km_machine *m = km_task_machine(km_current());
	size_t bucket = km_ksize(m, skb->head);
	unsigned int len;
	void *reuse;

	(void)dev;
	km_dev_kfree_skb_any(skb);
	km_dev_kfree_skb_any(skb);
	reuse = km_kmalloc(km_current(), bucket, gfp | KM_GFP_ZERO);
	km_kfree(km_current(), reuse);
	if (!copy)
		return NULL;
	len = copy->len;
	km_skb_push(copy, 4);
	copy->data[0] = (uint8_t)len;
	copy->data[1] = (uint8_t)(len >> 8);
	copy->data[2] = (uint8_t)~len;
	copy->data[3] = (uint8_t)(~len >> 8);
	return copy;
}

static const struct km_usbnet_driver_info double_free_info = {
	.description = "AX88772 framing after a double free of the skb (test driver)",
	.flags = KM_FLAG_SEND_ZLP,
	.tx_fixup = double_free_tx_fixup,
};

static void test_double_free_of_shared_skb(void **state)
{
	struct km_usbnet_variant v = km_asix_after;
	const struct km_usbnet_variant *vs[] = { &v, NULL };
	struct km_sweep_config c = { .quick = true, .variants = vs,
				     .sharings = 1u << KM_SWEEP_SHARED };
	struct km_sweep_result *r;
	const struct km_sweep_finding *f;

	v.name = "double_free";
	v.info = &double_free_info;
	v.era = KM_USBNET_MAINLINE;
	assert_int_equal(km_sweep_run(&c, &r), 0);
	assert_true(r->variants[0].states > 0);
	f = km_sweep_find(&r->variants[0], "skb_refcount");
	assert_non_null(f);
	assert_int_equal(f->count, r->variants[0].states);	/* once per state */
	assert_null(km_sweep_find(&r->variants[0], "other_holder_corrupted"));
	assert_null(km_sweep_find(&r->variants[0], "leak"));
	km_sweep_result_free(r);
	(void)state;
}

/* shards cover the space without overlap: their counts add up to the
 * whole's (the quick space's run of every variant), and each finding's
 * count and smallest example agree */
static void test_shards_cover_the_space(void **state)
{
	const struct km_usbnet_variant *vs[] = { &km_sr9800, &km_asix_after, NULL };
	struct km_sweep_config c = { .quick = true, .variants = vs, .shards = 3 };
	struct km_sweep_result *part[3];
	uint64_t states = 0;

	for (unsigned int k = 0; k < 3; k++) {
		c.shard = k;
		assert_int_equal(km_sweep_run(&c, &part[k]), 0);
		assert_int_equal(part[k]->nvariants, 2);
	}
	for (size_t v = 0; v < 2; v++) {
		const struct km_sweep_variant_result *w = variant(quick, vs[v]->name);

		assert_true(w->states > 0);
		states += w->states;
		for (unsigned int k = 0; k < 3; k++)
			assert_string_equal(part[k]->variants[v].name, w->name);
		assert_int_equal(part[0]->variants[v].states + part[1]->variants[v].states +
					 part[2]->variants[v].states,
				 w->states);
		for (size_t i = 0; i < w->nfindings; i++) {
			const struct km_sweep_finding *f = &w->findings[i], *min = NULL;
			uint64_t sum = 0;

			for (unsigned int k = 0; k < 3; k++) {
				const struct km_sweep_finding *g =
					km_sweep_find(&part[k]->variants[v], f->rule);

				if (!g)
					continue;
				sum += g->count;
				if (!min || km_sweep_state_cmp(&g->example, &min->example) < 0)
					min = g;
			}
			assert_int_equal(sum, f->count);
			assert_int_equal(km_sweep_state_cmp(&min->example, &f->example), 0);
		}
	}
	assert_int_equal(part[0]->states + part[1]->states + part[2]->states, states);
	for (unsigned int k = 0; k < 3; k++)
		km_sweep_result_free(part[k]);
	c.shard = 3;
	assert_int_equal(km_sweep_run(&c, &part[0]), -EINVAL);
	assert_null(part[0]);
	assert_int_equal(km_sweep_run(NULL, NULL), -EINVAL);
}

/* kmodel-sweep with @args; its stdout; *@ok: it exited 0 (NULL: it must);
 * its stderr into *@err when not NULL */
static gchar *run_tool_status(const char *args, bool *ok, gchar **err)
{
	gchar *cmd = g_strdup_printf("%s %s", KMODEL_SWEEP_PATH, args), *out = NULL;
	gint status = -1;

	assert_true(g_spawn_command_line_sync(cmd, &out, err, &status, NULL));
	if (ok)
		*ok = g_spawn_check_wait_status(status, NULL);
	else
		assert_true(g_spawn_check_wait_status(status, NULL));
	g_free(cmd);
	return out;
}

/* kmodel-sweep: --json in the schema, --shard K/N, merge */
static gchar *run_tool(const char *args)
{
	return run_tool_status(args, NULL, NULL);
}

/* merge must refuse @files (in the directory @dir): exit status not 0 and
 * @why in its message */
static void merge_refuses(const char *dir, const char *files, const char *why)
{
	gchar **names = g_strsplit(files, " ", -1), *err = NULL;
	GString *args = g_string_new("merge --json");
	bool ok = true;

	for (gchar **n = names; *n; n++)
		g_string_append_printf(args, " %s/%s", dir, *n);
	g_free(run_tool_status(args->str, &ok, &err));
	if (ok || !strstr(err, why))
		fail_msg("kmodel-sweep %s: %s (want \"%s\")", args->str, ok ? "merged" : err, why);
	g_free(err);
	g_string_free(args, TRUE);
	g_strfreev(names);
}

/* kmodel-sweep: --json, --shard K/N and merge, on sr9800's private and
 * shared skbs (a quarter of its quick space each: four rules found, the
 * stall among them); the default sharings in a 64th of the space */
static void test_tool_json_shards_merge(void **state)
{
	gchar *whole, *merged, *dir = g_dir_make_tmp("kmsweepXXXXXX", NULL);
	gchar *args, *paths[3];
	JsonParser *p = json_parser_new();
	JsonObject *top, *v;
	JsonArray *vs;

	whole = run_tool("asix --quick --variant sr9800 -s private,shared --json");
	{	/* a shard of another sweep: another variant */
		gchar *out = run_tool("asix --quick --variant after -s private,shared --json --shard 2/3");
		gchar *path = g_strdup_printf("%s/other-2.json", dir);

		assert_true(g_file_set_contents(path, out, -1, NULL));
		g_free(path);
		g_free(out);
	}
	for (int k = 0; k < 3; k++) {
		gchar *out;

		args = g_strdup_printf("asix --quick --variant sr9800 -s private,shared --json --shard %d/3",
				       k + 1);
		out = run_tool(args);
		paths[k] = g_strdup_printf("%s/shard-%d.json", dir, k + 1);
		assert_true(g_file_set_contents(paths[k], out, -1, NULL));
		g_free(out);
		g_free(args);
	}
	args = g_strdup_printf("merge --json %s %s %s", paths[0], paths[1], paths[2]);
	merged = run_tool(args);
	g_free(args);
	/* merge checks what it adds up: a shard twice (merging shard 1 with
	 * itself used to double its states), one missing, one of another
	 * sweep, a report of the whole space with one of a part */
	merge_refuses(dir, "shard-1.json shard-1.json shard-2.json shard-3.json", "is also in");
	merge_refuses(dir, "shard-1.json shard-2.json", "missing shard 3/3");
	merge_refuses(dir, "shard-1.json other-2.json shard-3.json", "another sweep");
	{	/* one shard of 200: the missing ones named up to five, then
		 * counted (user report item 16: it listed all 199) */
		gchar *out = run_tool("asix --quick --variant sr9800 -s private --json --shard 1/200");
		gchar *path = g_strdup_printf("%s/one-1.json", dir), *err = NULL;
		bool ok = true;

		assert_true(g_file_set_contents(path, out, -1, NULL));
		g_free(out);
		args = g_strdup_printf("merge %s", path);
		g_free(run_tool_status(args, &ok, &err));
		assert_false(ok);
		assert_non_null(strstr(err, "missing shards 2/200, 3/200, 4/200, 5/200, 6/200 and "
					    "194 more (199 of 200 missing)\n"));
		g_free(err);
		g_free(args);
		g_unlink(path);
		g_free(path);
	}
	{	/* an unknown name: the tools' one style */
		gchar *err = NULL;
		bool ok = true;

		g_free(run_tool_status("asix --quick --variant nosuch", &ok, &err));
		assert_false(ok);
		assert_non_null(strstr(err, "kmodel-sweep: unknown usbnet variant \"nosuch\"; known: "
					    "before after"));
		g_free(err);
		g_free(run_tool_status("asix --quick --sharing nosuch", &ok, &err));
		assert_false(ok);
		assert_non_null(strstr(err, "kmodel-sweep: unknown sharing \"nosuch\"; known: private"));
		g_free(err);
		/* and in a --replay STATE */
		g_free(run_tool_status("asix --variant before --replay 60,0,0,nosuch", &ok, &err));
		assert_false(ok);
		assert_non_null(strstr(err, "kmodel-sweep: unknown SHARING \"nosuch\"; known: "
					    "private tcp_clone header_cloned shared"));
		g_free(err);
		/* each example the report prints replays to its finding */
		assert_true(km_test_examples_replay(KMODEL_SWEEP_PATH, "asix", "--quick -s shared",
						    "before") >= 3);
		/* the usage line names every option; an unknown command is
		 * named */
		g_free(run_tool_status("nosuch", &ok, &err));
		assert_non_null(strstr(err, "--sharing NAME"));
		assert_non_null(strstr(err, "--load PATH.so"));
		assert_non_null(strstr(err, "kmodel-sweep: unknown command 'nosuch'; commands: "
					    "asix, rx, merge\n"));
		g_free(err);
		/* an empty list or name (it swept everything) */
		for (int i = 0; i < 4; i++) {
			static const char *const args[] = {
				"asix --quick --variant ''", "asix --quick --sharing ''",
				"asix --quick --variant sr9800,", "asix --quick -s ' , shared'",
			};

			g_free(run_tool_status(args[i], &ok, &err));
			assert_false(ok);
			if (!strstr(err, "an empty name (want NAME[,NAME]...)"))
				fail_msg("%s: %s", args[i], err);
			g_free(err);
		}
		/* --shard: digits only, a space before as after (" 1/2"
		 * was taken, "1/2 " refused), N at most 1000000, which the
		 * message says */
		for (int i = 0; i < 5; i++) {
			static const char *const shards[] = { "' 1/2'", "'1/2 '", "+1/2", "'1/ 2'",
							      "1/1000001" };
			gchar *a = g_strdup_printf("asix --quick --variant sr9800 --shard %s",
						   shards[i]);

			g_free(run_tool_status(a, &ok, &err));
			assert_false(ok);
			if (!strstr(err, "want K/N, digits, 1 <= K <= N <= 1000000\n"))
				fail_msg("%s: %s", a, err);
			g_free(err);
			g_free(a);
		}
	}
	{
		gchar *path = g_strdup_printf("%s/whole.json", dir);

		assert_true(g_file_set_contents(path, whole, -1, NULL));
		merge_refuses(dir, "whole.json shard-2.json", "another sweep");
		g_unlink(path);
		g_free(path);
	}
	/* the schema: {"states", "seconds", "shard": {"k", "n"}, "space":
	 * {"quick", "variants", "sharings", "states"}, "variants": [{"name",
	 * "states", "findings": [{"rule", "count", "example": {...}}]}]} */
	assert_true(json_parser_load_from_data(p, whole, -1, NULL));
	top = json_node_get_object(json_parser_get_root(p));
	assert_true(json_object_has_member(top, "states"));
	assert_true(json_object_has_member(top, "seconds"));
	assert_int_equal(json_object_get_int_member(json_object_get_object_member(top, "shard"),
						    "n"), 1);
	{
		JsonObject *sp = json_object_get_object_member(top, "space");

		assert_true(json_object_get_boolean_member(sp, "quick"));
		assert_int_equal(json_object_get_int_member(sp, "states"),
				 json_object_get_int_member(top, "states"));
		assert_string_equal(json_array_get_string_element(
			json_object_get_array_member(sp, "variants"), 0), "sr9800");
		assert_int_equal(json_array_get_length(json_object_get_array_member(sp, "sharings")),
				 2);
		assert_string_equal(json_array_get_string_element(
			json_object_get_array_member(sp, "sharings"), 1), "shared");
	}
	{	/* without -s: every sharing */
		gchar *out = run_tool("asix --quick --variant sr9800 --json --shard 64/64");
		JsonParser *q = json_parser_new();
		JsonArray *sh;

		assert_true(json_parser_load_from_data(q, out, -1, NULL));
		sh = json_object_get_array_member(json_object_get_object_member(
			json_node_get_object(json_parser_get_root(q)), "space"), "sharings");
		assert_int_equal(json_array_get_length(sh), 4);
		for (guint i = 0; i < 4; i++)
			assert_string_equal(json_array_get_string_element(sh, i),
					    km_sweep_sharing_name(i));
		g_object_unref(q);
		g_free(out);
	}
	vs = json_object_get_array_member(top, "variants");
	assert_int_equal(json_array_get_length(vs), 1);
	v = json_array_get_object_element(vs, 0);
	assert_string_equal(json_object_get_string_member(v, "name"), "sr9800");
	assert_int_equal(json_object_get_int_member(v, "states"),
			 json_object_get_int_member(top, "states"));
	{
		JsonArray *fs = json_object_get_array_member(v, "findings");
		gchar *a, *b;
		JsonParser *q = json_parser_new();
		JsonObject *mtop;

		assert_true(json_array_get_length(fs) > 0);
		assert_true(json_object_has_member(json_array_get_object_element(fs, 0),
						   "example"));
		/* merged == whole, but for the seconds */
		assert_true(json_parser_load_from_data(q, merged, -1, NULL));
		mtop = json_node_get_object(json_parser_get_root(q));
		assert_int_equal(json_object_get_int_member(mtop, "states"),
				 json_object_get_int_member(top, "states"));
		a = json_to_string(json_object_get_member(top, "variants"), FALSE);
		b = json_to_string(json_object_get_member(mtop, "variants"), FALSE);
		assert_string_equal(a, b);
		g_free(a);
		g_free(b);
		g_object_unref(q);
	}
	for (int k = 0; k < 3; k++) {
		g_unlink(paths[k]);
		g_free(paths[k]);
	}
	args = g_strdup_printf("%s/other-2.json", dir);
	g_unlink(args);
	g_free(args);
	g_rmdir(dir);
	g_free(dir);
	g_free(whole);
	g_free(merged);
	g_object_unref(p);
}

/* merge refuses @path with exit status 2, @why in its message and no glib
 * CRITICAL on the way */
static void merge_refuses_2(const char *path, const char *why)
{
	gchar *cmd = g_strdup_printf("%s merge %s", KMODEL_SWEEP_PATH, path), *err = NULL;
	gint status = -1;

	assert_true(g_spawn_command_line_sync(cmd, NULL, &err, &status, NULL));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 2 || !strstr(err, why) ||
	    strstr(err, "CRITICAL"))
		fail_msg("%s: status %d: %s (want 2 and \"%s\")", cmd, status, err, why);
	g_free(err);
	g_free(cmd);
}

/* @json (a report) changed by @edit into @dir/@name; the path (g_free) */
static gchar *edited_report(const char *dir, const char *name, const char *json,
			    void (*edit)(JsonObject *top))
{
	JsonParser *p = json_parser_new();
	JsonGenerator *g = json_generator_new();
	gchar *path = g_build_filename(dir, name, NULL);

	assert_true(json_parser_load_from_data(p, json, -1, NULL));
	edit(json_node_get_object(json_parser_get_root(p)));
	json_generator_set_root(g, json_parser_get_root(p));
	assert_true(json_generator_to_file(g, path, NULL));
	g_object_unref(g);
	g_object_unref(p);
	return path;
}

static JsonObject *first_variant(JsonObject *top)
{
	return json_array_get_object_element(json_object_get_array_member(top, "variants"), 0);
}

/* the first variant once more (its states, not the report's, then too many) */
static void dup_variant(JsonObject *top)
{
	json_array_add_element(json_object_get_array_member(top, "variants"),
			       json_node_copy(json_array_get_element(
				       json_object_get_array_member(top, "variants"), 0)));
}

static void dup_finding(JsonObject *top)
{
	JsonArray *fs = json_object_get_array_member(first_variant(top), "findings");

	json_array_add_element(fs, json_node_copy(json_array_get_element(fs, 0)));
}

static void count_past_states(JsonObject *top)
{
	JsonObject *v = first_variant(top);
	JsonObject *f = json_array_get_object_element(json_object_get_array_member(v, "findings"), 0);

	json_object_set_int_member(f, "count", json_object_get_int_member(v, "states") + 1);
}

static void variant_states_off(JsonObject *top)
{
	JsonObject *v = first_variant(top);

	json_object_set_int_member(v, "states", json_object_get_int_member(v, "states") + 90);
}

static void foreign_variant(JsonObject *top)
{
	json_object_set_string_member(first_variant(top), "name", "hardened");
}

/* a crash whose state is none of the sweep's: its order is unknown (a
 * state without its endpoint is the variant's first one's, which a
 * merge cannot know) */
static void crashed_no_endpoint(JsonObject *top)
{
	json_object_set_string_member(first_variant(top), "crashed", "crashed: killed by signal 11");
	json_object_set_string_member(first_variant(top), "crashed_state", "20,3,4,private");
}

static void crashed_no_state(JsonObject *top)
{
	json_object_set_string_member(first_variant(top), "crashed", "crashed: killed by signal 11");
	json_object_set_string_member(first_variant(top), "crashed_state", "20,3,4,nosuch,full/8");
}

/* more states than its variants hold (mutant merge-vsum-short: only more in
 * the variants than in the report was refused) */
static void report_states_over(JsonObject *top)
{
	json_object_set_int_member(top, "states", json_object_get_int_member(top, "states") + 1);
}

/* a rule on every state of its variant, in a report made the one shard of
 * its sweep (its space that shard's states): merge takes it (mutant merge-count-equal refused count ==
 * states) */
/* a shard of N = 1000001, one more than --shard takes */
static void shards_over(JsonObject *top)
{
	json_object_set_int_member(json_object_get_object_member(top, "shard"), "n", 1000001);
}

static void count_all_states(JsonObject *top)
{
	JsonObject *v = first_variant(top);
	JsonObject *f = json_array_get_object_element(json_object_get_array_member(v, "findings"), 0);

	json_object_set_int_member(f, "count", json_object_get_int_member(v, "states"));
	json_object_set_int_member(json_object_get_object_member(top, "shard"), "n", 1);
	json_object_set_int_member(json_object_get_object_member(top, "space"), "states",
				   json_object_get_int_member(top, "states"));
}

/* merge refuses what no kmodel-sweep --json writes: an empty file
 * (a json-glib CRITICAL, SIGTRAP under G_DEBUG=fatal-criticals)
 * and a report holding a variant or a rule twice, a count past its
 * variant's states, variants whose states are not the report's, a variant
 * not in its space (one variant twice in a file merged to
 * more states than the variant's space) */
static void test_merge_refuses_bad_reports(void **state)
{
	gchar *dir = g_dir_make_tmp("kmsweepXXXXXX", NULL);
	gchar *out = run_tool("asix --quick --variant sr9800 -s shared --json --shard 1/2");
	gchar *path = g_build_filename(dir, "blank.json", NULL);
	struct {
		const char *name;
		void (*edit)(JsonObject *top);
		const char *why;
	} bad[] = {
		{ "dupvar.json", dup_variant, "variant sr9800 is in the report twice" },
		{ "dupfind.json", dup_finding, "is in the report twice" },
		{ "count.json", count_past_states, "states of the variant's" },
		{ "vstates.json", variant_states_off, "its variants hold" },
		{ "states.json", report_states_over, "its variants hold" },
		{ "foreign.json", foreign_variant, "variant hardened is not in the report's space" },
		{ "shards.json", shards_over, "no shard and space (K/N with 1 <= K <= N <= 1000000," },
		{ "crashep.json", crashed_no_endpoint, "not a state of the sweep" },
		{ "crashst.json", crashed_no_state, "not a state of the sweep" },
	};

	assert_true(g_file_set_contents(path, "", 0, NULL));
	merge_refuses_2(path, "empty, not a kmodel-sweep report");
	assert_true(g_file_set_contents(path, "\n", 1, NULL));
	merge_refuses_2(path, "empty, not a kmodel-sweep report");
	g_unlink(path);
	g_free(path);
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		path = edited_report(dir, bad[i].name, out, bad[i].edit);
		merge_refuses_2(path, bad[i].why);
		g_unlink(path);
		g_free(path);
	}
	{
		gchar *args, *err = NULL;
		bool ok = false;

		path = edited_report(dir, "all.json", out, count_all_states);
		args = g_strdup_printf("merge %s", path);
		g_free(run_tool_status(args, &ok, &err));
		if (!ok)
			fail_msg("kmodel-sweep %s: %s (want it merged)", args, err);
		g_free(err);
		g_free(args);
		g_unlink(path);
		g_free(path);
	}
	g_free(out);
	g_rmdir(dir);
	g_free(dir);
	(void)state;
}

/* A device whose length word counts a documented trailing pad: pad_tx_fixup()
 * rounds each frame up to an even length with a zero byte and writes that
 * length before it, and the variant's framing (no device of its own: the
 * library's parser, km_framing_dev_new()) says trailing_pad 1. The device
 * hands on the frame with its pad; the sweep takes it as the skb's frame
 * (km_framing_frame_ok()), no frame_mismatch. Without the documented pad
 * the same frames are a frame_mismatch, in the odd-length states. */
static struct km_skb *pad_tx_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t gfp)
{
	struct km_skb *skb2 = km_skb_copy_expand(km_current(), skb, 2, 1, gfp);
	unsigned int len = (skb->len + 1) & ~1u;

	(void)dev;
	km_kfree_skb(skb);
	if (!skb2)
		return NULL;
	if (skb2->len & 1)
		*km_skb_put(skb2, 1) = 0;
	km_skb_push(skb2, 2);
	skb2->data[0] = (uint8_t)len;
	skb2->data[1] = (uint8_t)(len >> 8);
	return skb2;
}

static const struct km_usbnet_driver_info pad_info = {
	.description = "2-byte length, frames padded to even (test driver)",
	.flags = KM_FLAG_SEND_ZLP,
	.tx_fixup = pad_tx_fixup,
};

static void test_tx_trailing_pad_is_no_mismatch(void **state)
{
	static const struct km_usb_ep_cfg eps[] = { { KM_USB_SPEED_HIGH, 512 }, { 0, 0 } };
	struct km_framing padded = { .kind = KM_FRAMING_LENGTH, .hdr_bytes = 2, .len_bits = 16,
				     .trailing_pad = 1, .max_frame = 1520 };
	struct km_framing exact = padded;
	struct km_usbnet_variant v = { .size = KM_USBNET_VARIANT_SIZE, .name = "pad_documented",
				       .info = &pad_info, .era = KM_USBNET_MAINLINE,
				       .endpoints = eps, .framing = &padded };
	struct km_usbnet_variant w = v;
	const struct km_usbnet_variant *vs[] = { &v, &w, NULL };
	struct km_sweep_config c = { .quick = true, .variants = vs,
				     .sharings = 1u << KM_SWEEP_PRIVATE };
	const struct km_sweep_finding *f;
	struct km_sweep_result *r;

	(void)state;
	exact.trailing_pad = 0;
	w.name = "pad_undocumented";
	w.framing = &exact;
	assert_int_equal(km_sweep_run(&c, &r), 0);
	assert_null(km_sweep_find(&r->variants[0], "frame_mismatch"));
	assert_null(km_sweep_find(&r->variants[0], "usb_protocol"));
	f = km_sweep_find(&r->variants[1], "frame_mismatch");
	assert_non_null(f);
	assert_int_equal(f->example.len, 1);	/* the first odd length */
	km_sweep_result_free(r);
	{	/* iperf's check of each frame the same way: an odd MSS makes
		 * odd TCP frames; every frame verifies with the documented pad,
		 * none of them without it (the run fails) */
		struct km_iperf_opts o = { .packets = 50, .repeat = 1, .mss = 1447 };
		const struct km_usbnet_variant *one[1] = { &v };
		struct km_table *t = NULL;

		assert_int_equal(km_iperf_run(&o, one, 1, &t), 0);
		assert_true(km_table_nrows(t) > 0);
		for (size_t i = 0; i < km_table_nrows(t); i++)
			assert_int_equal(km_table_value(t, i, (size_t)km_table_column_index(t,
							"frames_ok"))->i, 50);
		km_table_free(t);
		t = NULL;
		one[0] = &w;
		assert_int_not_equal(km_iperf_run(&o, one, 1, &t), 0);
		km_table_free(t);
	}
}

/* A tx_fixup that leaks a clone of each skb of len 100 it sends (after's
 * driver, then a clone kept by no one), and frees them at its next skb of
 * another len (so the machines end clean): the sweep's leak rule is a
 * change of the skbs alive over a state, so each state of len 100 is a
 * leak finding, and the smallest example is one of them; after's driver
 * alone leaks nothing. */
static GPtrArray *leaked;

static struct km_skb *leak_tx_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t gfp)
{
	bool leak = skb->len == 100;

	if (!leak && leaked->len)
		g_ptr_array_set_size(leaked, 0);	/* km_kfree_skb() each */
	skb = km_asix_after.info->tx_fixup(dev, skb, gfp);
	if (skb && leak)
		g_ptr_array_add(leaked, km_skb_clone(km_current(), skb, gfp));
	return skb;
}

static const struct km_usbnet_driver_info leak_info = {
	.description = "after's tx_fixup, leaking a clone (test driver)",
	.flags = KM_FLAG_SEND_ZLP,
	.tx_fixup = leak_tx_fixup,
};

static void test_leak_is_a_finding(void **state)
{
	static const struct km_usb_ep_cfg eps[] = { { KM_USB_SPEED_HIGH, 512 }, { 0, 0 } };
	struct km_usbnet_variant leaky = km_asix_after, plain = km_asix_after;
	const struct km_usbnet_variant *vs[] = { &plain, &leaky, NULL };
	struct km_sweep_config c = { .quick = true, .variants = vs,
				     .sharings = 1u << KM_SWEEP_PRIVATE };
	const struct km_sweep_finding *f;
	struct km_sweep_result *r;

	(void)state;
	plain.endpoints = leaky.endpoints = eps;
	leaky.name = "leaky";
	leaky.info = &leak_info;
	leaked = g_ptr_array_new_with_free_func((GDestroyNotify)km_kfree_skb);
	assert_int_equal(km_sweep_run(&c, &r), 0);
	assert_int_equal(leaked->len, 0);
	g_ptr_array_free(leaked, TRUE);
	assert_null(km_sweep_find(&r->variants[0], "leak"));
	f = km_sweep_find(&r->variants[1], "leak");
	assert_non_null(f);
	/* the 9 x 10 (headroom 0..8, tailroom default and 0..8) states of
	 * len 100, and the one after them that frees their clones */
	assert_int_equal(f->count, 9 * 10 + 1);
	assert_int_equal(f->example.len, 100);
	km_sweep_result_free(r);
}

/* on_state: called once before each state, with its variant: a tool that
 * sweeps a plugin's variant in a child names the state it crashed in */
struct seen_states {
	const struct km_usbnet_variant *v;
	uint64_t calls;
	struct km_sweep_state first, last;
};

static void count_state(void *arg, const struct km_usbnet_variant *v,
			const struct km_sweep_state *st)
{
	struct seen_states *s = arg;

	assert_ptr_equal(v, s->v);
	if (!s->calls++)
		s->first = *st;
	s->last = *st;
}

static void test_on_state_names_each_state(void **state)
{
	const struct km_usbnet_variant *vs[] = { &km_asix_after, NULL };
	struct seen_states seen = { .v = &km_asix_after };
	struct km_sweep_config c = { .quick = true, .variants = vs,
				     .sharings = 1u << KM_SWEEP_PRIVATE,
				     .on_state = count_state, .on_state_arg = &seen };
	struct km_sweep_result *r;

	(void)state;
	assert_int_equal(km_sweep_run(&c, &r), 0);
	/* full/8, full/64, high/512: lengths 0 .. 2 x maxpacket + 8, each
	 * with headroom 0..8 x tailroom default and 0..8 */
	assert_int_equal(r->states, 90ull * ((2 * 8 + 9) + (2 * 64 + 9) + (2 * 512 + 9)));
	assert_int_equal(seen.calls, r->states);
	assert_int_equal(seen.first.speed, KM_USB_SPEED_FULL);
	assert_int_equal(seen.first.maxpacket, 8);
	assert_int_equal(seen.first.len, 0);
	assert_int_equal(seen.first.headroom, 0);
	assert_int_equal(seen.first.tailroom, KM_SWEEP_TAIL_DEFAULT);
	assert_int_equal(seen.last.speed, KM_USB_SPEED_HIGH);
	assert_int_equal(seen.last.maxpacket, 512);
	assert_int_equal(seen.last.sharing, KM_SWEEP_PRIVATE);
	assert_int_equal(seen.last.len, 2 * 512 + 8);
	assert_int_equal(seen.last.headroom, 8);
	assert_int_equal(seen.last.tailroom, 8);
	km_sweep_result_free(r);
}

/* The sweep's machines check pinned writes: a tx_fixup that, for an skb
 * of len 100, writes a user page it pinned for write and puts it clean
 * (km_test_pinned_write_clean()) has a pin_not_dirtied finding in that
 * state (its replay: a state's machine is the sweep's), and none in a
 * state it sends as after's driver does */
static struct km_skb *pin_tx_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t gfp)
{
	if (skb->len == 100)
		km_test_pinned_write_clean(skb->data, 8);
	return km_asix_after.info->tx_fixup(dev, skb, gfp);
}

static const struct km_usbnet_driver_info pin_info = {
	.description = "after's tx_fixup, writing a pinned user page (test driver)",
	.flags = KM_FLAG_SEND_ZLP,
	.tx_fixup = pin_tx_fixup,
};

static void test_pinned_write_is_a_finding(void **state)
{
	struct km_usbnet_variant pin = km_asix_after;
	struct km_sweep_state st = { .speed = KM_USB_SPEED_HIGH, .maxpacket = 512,
				     .sharing = KM_SWEEP_PRIVATE, .len = 100,
				     .tailroom = KM_SWEEP_TAIL_DEFAULT };
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	pin.name = "pin";
	pin.info = &pin_info;
	for (unsigned int l = 99; l <= 100; l++) {
		st.len = l;
		out = open_memstream(&text, &len);
		assert_non_null(out);
		assert_int_equal(km_sweep_replay(&pin, &st, out), l == 100);
		fclose(out);
		if ((strstr(text, " finding: pin_not_dirtied\n") != NULL) != (l == 100))
			fail_msg("len %u: %s", l, text);
		free(text);
	}
}

/* km_sweep_state_run_cmp(): the order of the states km_sweep_run() runs,
 * as on_state sees them, in any shard: each after the one before. A
 * third of the rows (shard 2 of 3: each endpoint, each sharing) */
struct run_order {
	uint64_t calls;
	struct km_sweep_state last;
	unsigned int eps, sharings;	/* bits of those seen */
};

static void check_order(void *arg, const struct km_usbnet_variant *v,
			const struct km_sweep_state *st)
{
	struct run_order *o = arg;

	(void)v;
	if (o->calls++) {
		assert_true(km_sweep_state_run_cmp(&o->last, st) < 0);
		assert_true(km_sweep_state_run_cmp(st, &o->last) > 0);
	}
	assert_int_equal(km_sweep_state_run_cmp(st, st), 0);
	o->eps |= 1u << (st->maxpacket == 8 ? 0 : st->maxpacket == 64 ? 1 : 2);
	o->sharings |= 1u << st->sharing;
	o->last = *st;
}

static void test_run_cmp_is_the_sweeps_order(void **state)
{
	const struct km_usbnet_variant *vs[] = { &km_asix_after, NULL };
	struct run_order o = { 0 };
	struct km_sweep_config c = { .quick = true, .variants = vs, .shard = 1, .shards = 3,
				     .on_state = check_order, .on_state_arg = &o };
	struct km_sweep_result *r;
	/* where the loops disagree with the examples' order (len first) */
	static const struct {
		const char *name;
		struct km_sweep_state a, b;	/* a runs first */
	} rows[] = {
		{ "an endpoint before every state of the next",
		  { KM_USB_SPEED_FULL, 8, KM_SWEEP_SHARED, 24, 8, 8, 0 },
		  { KM_USB_SPEED_FULL, 64, KM_SWEEP_PRIVATE, 0, 0, -1, 0 } },
		{ "full speed before high",
		  { KM_USB_SPEED_FULL, 64, KM_SWEEP_PRIVATE, 20, 3, 4, 0 },
		  { KM_USB_SPEED_HIGH, 512, KM_SWEEP_PRIVATE, 0, 0, 0, 0 } },
		{ "a sharing before every len of the next",
		  { KM_USB_SPEED_FULL, 8, KM_SWEEP_PRIVATE, 24, 0, 0, 0 },
		  { KM_USB_SPEED_FULL, 8, KM_SWEEP_SHARED, 0, 0, 0, 0 } },
		{ "the default tailroom first",
		  { KM_USB_SPEED_FULL, 8, KM_SWEEP_PRIVATE, 4, 2, KM_SWEEP_TAIL_DEFAULT, 0 },
		  { KM_USB_SPEED_FULL, 8, KM_SWEEP_PRIVATE, 4, 2, 0, 0 } },
		{ "an endpoint the sweep lacks after those it has",
		  { KM_USB_SPEED_SUPER, 1024, KM_SWEEP_SHARED, 0, 0, 0, 0 },
		  { KM_USB_SPEED_FULL, 32, KM_SWEEP_PRIVATE, 0, 0, 0, 0 } },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		if (km_sweep_state_run_cmp(&rows[i].a, &rows[i].b) >= 0 ||
		    km_sweep_state_run_cmp(&rows[i].b, &rows[i].a) <= 0)
			fail_msg("%s: not in the sweep's order", rows[i].name);
	}
	assert_int_equal(km_sweep_run(&c, &r), 0);
	assert_int_equal(o.calls, r->states);
	assert_int_equal(o.eps, 7);	/* full/8, full/64, high/512 */
	assert_int_equal(o.sharings, (1u << KM_SWEEP_SHARING_COUNT) - 1);
	km_sweep_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_space_size),
		cmocka_unit_test(test_hardened_has_no_findings),
		cmocka_unit_test(test_memmove_over_tcp_clone),
		cmocka_unit_test(test_shared_changed_in_place),
		cmocka_unit_test(test_plain_stores_into_shared_buffer),
		cmocka_unit_test(test_builtins_store_through_accessors),
		cmocka_unit_test(test_sr9800_pad_modulus_finding),
		cmocka_unit_test(test_ax88179_findings),
		cmocka_unit_test(test_no_leaks_or_device_errors),
		cmocka_unit_test(test_packet_sink_device_same_findings),
		cmocka_unit_test(test_empty_frame_for_empty_skb),
		cmocka_unit_test(test_double_free_of_shared_skb),
		cmocka_unit_test(test_shards_cover_the_space),
		cmocka_unit_test(test_tool_json_shards_merge),
		cmocka_unit_test(test_merge_refuses_bad_reports),
		cmocka_unit_test(test_tx_trailing_pad_is_no_mismatch),
		cmocka_unit_test(test_leak_is_a_finding),
		cmocka_unit_test(test_on_state_names_each_state),
		cmocka_unit_test(test_pinned_write_is_a_finding),
		cmocka_unit_test(test_run_cmp_is_the_sweeps_order),
	};

	return cmocka_run_group_tests_name("test_sweep", tests, run_quick, free_quick);
}
