// SPDX-License-Identifier: GPL-2.0
/*
 * asix_tx_fixup before and after "asix: avoid copies in tx path" (2012),
 * usbnet's transmit rules, bulk-out segmentation and the device parser.
 * Expected values come from the driver's contract with the device: a 4-byte
 * LE header len | ~len << 16, the frame, and the pad word 0xffff0000 exactly
 * when (len + 4) is a multiple of maxpacket (padlen 4), so that the
 * transfer never ends on a packet boundary.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <kmodel/kmodel.h>
#include <glib.h>
#include "km_test.h"

#define MAXF 4096

/* A device under test: a variant's device model behind usbnet, probed at
 * a bulk-out maxpacket, on a machine with a current task (no mm). */
struct dev_row {
	const char *name;
	const struct km_usbnet_variant *v;
	unsigned int mp;
};

struct fx {
	const struct dev_row *row;	/* fx_setup()'s */
	struct km_machine *m;
	struct km_task *t;
	struct km_usbnet_dev d;
	struct km_usbnet *dev;
	uint8_t last[MAXF];
	size_t last_len;
	unsigned long frames;
};

static void on_frame(void *arg, const uint8_t *frame, size_t len)
{
	struct fx *f = arg;

	assert_true(len <= MAXF);
	memcpy(f->last, frame, len);
	f->last_len = len;
	f->frames++;
}

/* The speed at which a device presents a bulk @maxpacket (USB 2.0 spec
 * 5.8.3, USB 3.0 spec 9.6.6): 512 high speed, 1024 SuperSpeed, else full. */
static enum km_usb_speed speed_of(unsigned int maxpacket)
{
	return maxpacket == 512 ? KM_USB_SPEED_HIGH :
	       maxpacket == 1024 ? KM_USB_SPEED_SUPER : KM_USB_SPEED_FULL;
}

static void fx_up(struct fx *f, const struct km_usbnet_variant *v, unsigned int maxpacket)
{
	memset(f, 0, sizeof(*f));
	assert_int_equal(km_machine_new(NULL, &f->m), 0);
	assert_int_equal(km_task_new(f->m, NULL, 0, &f->t), 0);
	km_task_switch(f->t);
	assert_int_equal(v->dev_new(f->m, on_frame, f, &f->d), 0);
	assert_int_equal(km_usbnet_probe(f->m, v, speed_of(maxpacket), maxpacket, &f->d.sink,
					 &f->dev), 0);
}

static void fx_down(struct fx *f)
{
	km_usbnet_free(f->dev);
	km_usbnet_dev_free(&f->d);
	km_task_switch(NULL);
	km_task_free(f->t);
	assert_int_equal(km_machine_destroy(f->m), 0);
}

/* cmocka fixtures: *state is a struct dev_row (a row of a table, or a
 * test's initial state), replaced by its struct fx */
static int fx_setup(void **state)
{
	const struct dev_row *r = *state;
	struct fx *f = g_new0(struct fx, 1);

	fx_up(f, r->v, r->mp);
	f->row = r;
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	fx_down(*state);
	g_free(*state);
	return 0;
}

/* a bare machine (no task), *state; its teardown finds nothing */
static int setup_machine(void **state)
{
	struct km_machine *m;

	assert_int_equal(km_machine_new(NULL, &m), 0);
	*state = m;
	return 0;
}

static int teardown_machine(void **state)
{
	assert_int_equal(km_machine_destroy(*state), 0);
	return 0;
}

static const struct dev_row before_512 = { "before, 512", &km_asix_before, 512 };
static const struct dev_row after_512 = { "after, 512", &km_asix_after, 512 };
static const struct dev_row after_64 = { "after, 64", &km_asix_after, 64 };
static const struct dev_row mainline_512 = { "mainline, 512", &km_asix_mainline, 512 };
static const struct dev_row hardened_512 = { "hardened, 512", &km_asix_hardened, 512 };
static const struct dev_row hardened_64 = { "hardened, 64", &km_asix_hardened, 64 };
static const struct dev_row sr9800_512 = { "sr9800, 512", &km_sr9800, 512 };
static const struct dev_row sr9800_1 = { "sr9800, 1", &km_sr9800, 1 };
static const struct dev_row ax88179_512 = { "ax88179, 512", &km_ax88179, 512 };

/* the 2012 patch's two sides */
static const struct dev_row before_after_512[] = {
	{ "before, 512", &km_asix_before, 512 },
	{ "after, 512", &km_asix_after, 512 },
};

/* the length sweeps: both sides at full and high speed */
static const struct dev_row sweep_rows[] = {
	{ "before, 64", &km_asix_before, 64 },
	{ "before, 512", &km_asix_before, 512 },
	{ "after, 64", &km_asix_after, 64 },
	{ "after, 512", &km_asix_after, 512 },
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void pattern(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 31u + seed);
}

/* A private skb with @head bytes of headroom and @len bytes of data. */
static struct km_skb *mk(struct fx *f, unsigned int head, unsigned int len, unsigned int room,
			 uint8_t *data)
{
	struct km_skb *skb = km_alloc_skb(f->t, head + len + room, KM_GFP_KERNEL);

	km_skb_reserve(skb, (int)head);
	pattern(data, len, len);
	memcpy(km_skb_put(skb, len), data, len);
	return skb;
}

static struct km_skb *fixup(struct fx *f, struct km_skb *skb)
{
	return f->dev->driver_info->tx_fixup(f->dev, skb, KM_GFP_ATOMIC);
}

/* ---- probe and bind --------------------------------------------------------- */

/* binds that rewrite what usbnet_probe() reads after them (v3.5:
 * dev->maxpacket = usb_maxpacket(dev->udev, dev->out, 1)) */
static int bind_other_out(struct km_usbnet *dev, struct km_usb_interface *intf)
{
	(void)intf;
	dev->out = (dev->out & ~(0xfu << 15)) | (5u << 15);	/* endpoint 5: none */
	return 0;
}

static int bind_smaller_ep(struct km_usbnet *dev, struct km_usb_interface *intf)
{
	(void)intf;
	dev->udev->ep_out[(dev->out >> 15) & 0xf]->desc.wMaxPacketSize = GUINT16_TO_LE(64);
	return 0;
}

/* The maxpacket is what the bulk-out pipe's endpoint says after bind: a
 * bind's change is seen, a pipe to no endpoint is a broken device
 * (-ENODEV, as for maxpacket 0) */
static void test_probe_maxpacket_after_bind(void **state)
{
	struct km_machine *m = *state;
	struct km_usbnet_driver_info other = { "other out", 0, bind_other_out,
					       km_asix_after.info->tx_fixup, NULL, NULL };
	struct km_usbnet_driver_info smaller = { "smaller", 0, bind_smaller_ep,
						 km_asix_after.info->tx_fixup, NULL, NULL };
	struct km_usbnet_variant v = km_asix_after;
	struct km_usbnet *dev = NULL;

	v.info = &other;
	assert_int_equal(km_usbnet_probe(m, &v, KM_USB_SPEED_HIGH, 512, NULL, &dev), -ENODEV);
	assert_null(dev);
	v.info = &smaller;
	assert_int_equal(km_usbnet_probe(m, &v, KM_USB_SPEED_HIGH, 512, NULL, &dev), 0);
	assert_int_equal(dev->maxpacket, 64);
	assert_int_equal(dev->bulk_out.maxpacket, 64);
	assert_ptr_equal(dev->udev, &dev->usb_device);
	assert_int_equal(dev->udev->ep_in[1]->desc.bEndpointAddress, 0x81);
	assert_int_equal(dev->udev->ep_out[2]->desc.bEndpointAddress, 0x02);
	km_usbnet_free(dev);
}

static void test_probe_and_bind(void **state)
{
	struct km_machine *m = *state;
	struct km_usbnet *dev;

	assert_int_equal(km_usbnet_probe(m, &km_asix_after, KM_USB_SPEED_HIGH, 0, NULL, &dev),
			 -ENODEV);
	assert_null(dev);
	assert_int_equal(km_usbnet_probe(m, &km_asix_after, KM_USB_SPEED_HIGH, 2048, NULL, &dev),
			 -EINVAL);
	assert_int_equal(km_usbnet_probe(m, NULL, KM_USB_SPEED_HIGH, 512, NULL, &dev), -EINVAL);
	assert_int_equal(km_usbnet_probe(m, &km_asix_after, KM_USB_SPEED_UNKNOWN, 512, NULL, &dev),
			 -EINVAL);
	assert_int_equal(km_usbnet_probe(m, &km_asix_before, KM_USB_SPEED_HIGH, 512, NULL, &dev), 0);
	assert_ptr_equal(dev->variant, &km_asix_before);
	assert_int_equal(dev->era, KM_USBNET_V3_5);
	assert_int_equal(dev->speed, KM_USB_SPEED_HIGH);
	assert_int_equal(dev->net->needed_headroom, 0);
	assert_int_equal(dev->net->needed_tailroom, 0);
	assert_int_equal(dev->net->hard_header_len, 14);
	assert_int_equal(km_ll_reserved_space(dev->net), 16);
	km_usbnet_free(dev);
	assert_int_equal(km_usbnet_probe(m, &km_asix_after, KM_USB_SPEED_HIGH, 512, NULL, &dev), 0);
	assert_int_equal(dev->net->needed_headroom, 4);
	assert_int_equal(dev->net->needed_tailroom, 4);
	assert_int_equal(km_ll_reserved_space(dev->net), 32);
	assert_int_equal(km_usbnet_start_xmit(dev, NULL), -EINVAL);
	km_usbnet_free(dev);
	assert_ptr_equal(km_usbnet_find("before"), &km_asix_before);
	assert_ptr_equal(km_usbnet_find("after"), &km_asix_after);
	assert_null(km_usbnet_find("x"));
	assert_null(km_usbnet_find(NULL));
}

/* The variant table: every built-in passes the check; the check refuses
 * what probe could not run; endpoints follow the USB generation. */
static void test_variant_table(void **state)
{
	struct km_usbnet_variant bad = km_asix_after;
	static const struct km_usb_ep_cfg lowspeed[] = { { KM_USB_SPEED_FULL, 2048 }, { 0, 0 } };
	static const struct km_usbnet_driver_info nofixup = { .description = "none" };
	const struct km_usbnet_variant *const *vs = km_usbnet_variants();
	struct km_usbnet_dev_stats st;
	struct km_machine *m;
	struct km_usbnet *dev;
	size_t n = 0;

	for (; vs[n]; n++) {
		assert_int_equal(km_usbnet_variant_check(vs[n]), 0);
		assert_ptr_equal(km_usbnet_find(vs[n]->name), vs[n]);
	}
	assert_true(n >= 2);
	assert_ptr_equal(vs[0], &km_asix_before);
	assert_ptr_equal(vs[1], &km_asix_after);
	assert_true(km_usbnet_variant_allows(&km_asix_after, KM_USB_SPEED_HIGH, 512));
	assert_true(km_usbnet_variant_allows(&km_asix_after, KM_USB_SPEED_FULL, 8));
	assert_true(km_usbnet_variant_allows(&km_asix_after, KM_USB_SPEED_FULL, 64));
	assert_false(km_usbnet_variant_allows(&km_asix_after, KM_USB_SPEED_HIGH, 64));
	assert_false(km_usbnet_variant_allows(&km_asix_after, KM_USB_SPEED_SUPER, 1024));
	assert_false(km_usbnet_variant_allows(NULL, KM_USB_SPEED_HIGH, 512));
	assert_int_equal(km_usbnet_variant_check(NULL), -EINVAL);
	bad.size = KM_USBNET_VARIANT_MIN_SIZE - 1;
	assert_int_equal(km_usbnet_variant_check(&bad), -EINVAL);
	bad = km_asix_after;
	bad.name = "";
	assert_int_equal(km_usbnet_variant_check(&bad), -EINVAL);
	bad = km_asix_after;
	bad.info = &nofixup;	/* tx_fixup is optional (usbnet_start_xmit()) */
	assert_int_equal(km_usbnet_variant_check(&bad), 0);
	bad.info = NULL;
	assert_int_equal(km_usbnet_variant_check(&bad), -EINVAL);
	bad = km_asix_after;
	bad.era = (enum km_usbnet_era)7;
	assert_int_equal(km_usbnet_variant_check(&bad), -EINVAL);
	bad = km_asix_after;
	bad.dev_new = NULL;
	assert_int_equal(km_usbnet_variant_check(&bad), -EINVAL);
	bad = km_asix_after;
	bad.endpoints = lowspeed;
	assert_int_equal(km_usbnet_variant_check(&bad), -EINVAL);
	assert_string_equal(km_usb_speed_name(KM_USB_SPEED_SUPER), "super");
	assert_string_equal(km_usbnet_era_name(KM_USBNET_V3_5), "v3.5");
	assert_string_equal(km_usbnet_era_name(KM_USBNET_MAINLINE), "mainline");

	assert_int_equal(km_machine_new(NULL, &m), 0);
	assert_int_equal(km_usbnet_probe(m, &bad, KM_USB_SPEED_HIGH, 512, NULL, &dev), -EINVAL);
	km_usbnet_dev_get_stats(NULL, &st);
	assert_int_equal(st.frames, 0);
	km_usbnet_dev_free(NULL);
	assert_int_equal(km_machine_destroy(m), 0);
}

/* ---- the length sweep ------------------------------------------------------- */

static void test_sweep(void **state)
{
	struct fx *f = *state;
	unsigned int mp = f->row->mp;
	static uint8_t data[2 * 1024 + 8];

	for (unsigned int len = 0; len <= 2 * mp + 8; len++) {
		unsigned int padlen = (len + 4) % mp == 0 ? 4 : 0;
		struct km_usbnet_dev_stats st0, st1;
		struct km_events ev;
		struct km_skb *skb = mk(f, 16, len, 8, data), *out;
		size_t total;

		km_events_reset(f->m);
		out = fixup(f, skb);
		assert_non_null(out);
		assert_ptr_equal(out, skb);		/* private with room: in place */
		km_events_get(f->m, &ev);
		assert_int_equal(ev.skb_copies, 0);
		assert_int_equal(ev.memmove_bytes, 0);
		total = len + 4 + padlen;
		assert_int_equal(out->len, total);
		assert_int_equal(le32(out->data), len | ((~len & 0xffffu) << 16));
		assert_memory_equal(out->data + 4, data, len);
		if (padlen)
			assert_int_equal(le32(out->data + 4 + len), 0xffff0000u);
		assert_int_not_equal(total % mp, 0);

		/* over the wire to the device */
		km_usbnet_dev_get_stats(&f->d, &st0);
		f->last_len = (size_t)-1;
		assert_true(km_usb_bulk_out(&f->dev->bulk_out, out->data, out->len, false) > 0);
		km_usbnet_dev_get_stats(&f->d, &st1);
		if (len == 0) {
			/* a zero-length frame's header is the pad word itself */
			assert_int_equal(st1.frames, st0.frames);
			assert_int_equal(st1.pad_words - st0.pad_words, 1 + padlen / 4);
		} else {
			assert_int_equal(st1.frames, st0.frames + 1);
			assert_int_equal(f->last_len, len);
			assert_memory_equal(f->last, data, len);
			assert_int_equal(st1.pad_words - st0.pad_words, padlen / 4);
		}
		assert_int_equal(st1.transfers, st0.transfers + 1);
		km_consume_skb(out);
	}
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}


/* The same lengths end to end through usbnet_start_xmit. */
static void test_xmit_sweep(void **state)
{
	struct fx *f = *state;
	unsigned int mp = f->row->mp;
	static uint8_t data[2 * 1024 + 8];

	for (unsigned int len = 1; len <= 2 * mp + 8; len++) {
		unsigned int padlen = (len + 4) % mp == 0 ? 4 : 0;

		f->last_len = 0;
		assert_int_equal(km_usbnet_start_xmit(f->dev, mk(f, 2, len, 0, data)), 0);
		assert_int_equal(f->dev->last_urb_len, len + 4 + padlen);
		assert_false(f->dev->last_urb_zero_packet);
		assert_int_equal(f->last_len, len);
		assert_memory_equal(f->last, data, len);
	}
	/* FLAG_MULTI_PACKET: usbnet counts no packets itself */
	assert_int_equal(f->dev->net->tx_packets, 0);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}


/* ---- the clone matrix ------------------------------------------------------- */

struct outcome {
	bool same;		/* the skb came back (in place) */
	uint64_t copies, memmoved;
	uint64_t memcpied;	/* memcpy_bytes: not the memmove's */
};

static struct outcome run(struct fx *f, struct km_skb *skb, unsigned int len, const uint8_t *data)
{
	struct km_events ev;
	struct km_skb *out;
	struct outcome o;

	km_events_reset(f->m);
	out = fixup(f, skb);
	assert_non_null(out);
	km_events_get(f->m, &ev);
	o.same = out == skb;
	o.copies = ev.skb_copies;
	o.memmoved = ev.memmove_bytes;
	o.memcpied = ev.memcpy_bytes;
	assert_int_equal(le32(out->data), len | ((~len & 0xffffu) << 16));
	assert_memory_equal(out->data + 4, data, len);
	km_consume_skb(out);
	return o;
}

static void test_matrix_private(void **state)
{
	struct fx *f = *state;
	uint8_t data[1600];

	struct outcome o;

	/* private, room: in place */
	o = run(f, mk(f, 4, 100, 0, data), 100, data);
	assert_true(o.same);
	assert_int_equal(o.copies, 0);
	assert_int_equal(o.memmoved, 0);
	/* headroom 2 < 4, tailroom enough: memmove to head + 4; the
	 * header's skb_copy_to_linear_data() is the one memcpy */
	o = run(f, mk(f, 2, 100, 0, data), 100, data);
	assert_true(o.same);
	assert_int_equal(o.copies, 0);
	assert_int_equal(o.memmoved, 100);
	assert_int_equal(o.memcpied, 4);
	/* headroom 0, padlen 4 (len 508): memmove, then the pad at the tail */
	o = run(f, mk(f, 0, 508, 0, data), 508, data);
	assert_true(o.same);
	assert_int_equal(o.memmoved, 508);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}

/* A clone pair: the driver gets @c; @keep stays with the caller. */
static struct km_skb *pair(struct fx *f, unsigned int head, unsigned int len, bool release,
			   uint8_t *data, struct km_skb **keep)
{
	struct km_skb *orig = mk(f, head, len, 0, data);

	if (release)
		km_skb_header_release(orig);
	*keep = orig;
	return km_skb_clone(f->t, orig, KM_GFP_ATOMIC);
}

static void test_matrix_clones(void **state)
{
	struct fx *f = *state;
	uint8_t data[1600];

	bool after = f->row->v == &km_asix_after;
	struct km_skb *keep;
	struct outcome o;

	/* header-cloned (plain clone): copy in both versions */
	o = run(f, pair(f, 64, 100, false, data, &keep), 100, data);
	assert_false(o.same);
	assert_int_equal(o.copies, 1);
	assert_int_equal(keep->shinfo->dataref, 1);	/* the clone was freed */
	km_kfree_skb(keep);

	/* header released (TCP), padlen 4: must copy in both */
	o = run(f, pair(f, 64, 508, true, data, &keep), 508, data);
	assert_false(o.same);
	assert_int_equal(o.copies, 1);
	km_kfree_skb(keep);

	/* TCP clone, padlen 0: in place after the patch, copied before */
	o = run(f, pair(f, 64, 1514, true, data, &keep), 1514, data);
	assert_int_equal(o.same, after);
	assert_int_equal(o.copies, after ? 0 : 1);
	assert_int_equal(o.memmoved, 0);
	/* the queued original's payload is intact either way */
	assert_memory_equal(keep->data, data, 1514);
	km_kfree_skb(keep);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}

/* The after-patch memmove fallback on a TCP clone with headroom < 4 moves
 * the payload it shares with the queued original: the checker reports it
 * and the original's bytes change (before the patch: a copy). */
static void test_after_memmove_on_clone(void **state)
{
	struct fx *f = *state;
	uint8_t data[200];

	bool after = f->row->v == &km_asix_after;
	struct km_skb *keep, *c;
	struct outcome o;

	c = pair(f, 2, 100, true, data, &keep);
	o = run(f, c, 100, data);
	assert_int_equal(o.same, after);
	assert_int_equal(o.memmoved, after ? 100 : 0);
	/* the memmove, then the 4-byte header over the 2 bytes of header the
	 * clone owns (hdr_len 2) and 2 of the shared payload */
	assert_int_equal(km_report_count(f->m, KM_R_SKB_SHARING), after ? 2 : 0);
	for (size_t r = 0; r < km_report_log_len(f->m); r++)
		assert_non_null(strstr(km_report_get(f->m, r)->message, "hdr_len"));
	if (after)
		assert_memory_not_equal(keep->data, data, 100);
	else
		assert_memory_equal(keep->data, data, 100);
	km_kfree_skb(keep);
	km_reports_clear(f->m);
}

static void test_copy_failure(void **state)
{
	struct fx *f = *state;
	uint8_t data[200];

	struct km_skb *keep, *c;

	/* a header-cloned skb must be copied; the copy's kmalloc fails */
	c = pair(f, 64, 100, false, data, &keep);
	km_fault_fail_kmalloc_nth(f->m, 1);
	assert_null(fixup(f, c));
	assert_int_equal(keep->shinfo->dataref, 1);	/* c was freed */
	km_kfree_skb(keep);
	/* through usbnet: dropped silently (msg_tx_err off) */
	c = pair(f, 64, 100, false, data, &keep);
	km_fault_fail_kmalloc_nth(f->m, 1);
	assert_int_equal(km_usbnet_start_xmit(f->dev, c), 0);
	assert_int_equal(f->dev->tx_fixup_null, 1);
	assert_int_equal(f->dev->net->tx_dropped, 0);
	f->dev->msg_tx_err = true;
	c = km_skb_clone(f->t, keep, KM_GFP_ATOMIC);
	km_fault_fail_kmalloc_nth(f->m, 1);
	assert_int_equal(km_usbnet_start_xmit(f->dev, c), 0);
	assert_int_equal(f->dev->net->tx_dropped, 1);
	km_kfree_skb(keep);
	assert_int_equal(f->frames, 0);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}

/* ---- usbnet length rules and the bus ------------------------------------- */

/* a driver whose tx_fixup sends the skb as it is */
static struct km_skb *pass(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t flags)
{
	return skb;
}

static void test_usbnet_length_rules(void **state)
{
	struct km_machine *m = *state;
	static const struct km_usbnet_driver_info plain = { .description = "plain",
							    .tx_fixup = pass };
	static const struct km_usbnet_driver_info zlp = { .description = "zlp",
							  .flags = KM_FLAG_SEND_ZLP,
							  .tx_fixup = pass };
	static const struct km_usbnet_driver_info multi = { .description = "multi",
							    .flags = KM_FLAG_MULTI_PACKET,
							    .tx_fixup = pass };
	struct km_usbnet_variant vplain = km_asix_before, vzlp = km_asix_before,
				 vmulti = km_asix_before;
	struct km_task *t;
	struct km_usbnet *dev;
	struct km_skb *skb;
	uint8_t data[1100];

	vplain.info = &plain;
	vzlp.info = &zlp;
	vmulti.info = &multi;
	assert_int_equal(km_task_new(m, NULL, 0, &t), 0);
	km_task_switch(t);
	pattern(data, sizeof(data), 1);

	/* no flag: a multiple of maxpacket grows by one zeroed byte */
	assert_int_equal(km_usbnet_probe(m, &vplain, KM_USB_SPEED_HIGH, 512, NULL, &dev), 0);
	skb = km_alloc_skb(t, 1024, KM_GFP_ATOMIC);
	memcpy(km_skb_put(skb, 1024), data, 1024);
	assert_int_equal(km_usbnet_start_xmit(dev, skb), 0);
	assert_int_equal(dev->last_urb_len, 1025);
	assert_false(dev->last_urb_zero_packet);
	assert_int_equal(dev->net->tx_packets, 1);
	assert_int_equal(dev->net->tx_bytes, 1024);
	/* no tailroom: the URB still grows, the byte after end goes out as
	 * it is (the skb keeps its length) */
	skb = km_alloc_skb(t, 1024, KM_GFP_ATOMIC);
	km_skb_reserve(skb, (int)(skb->end - skb->head) - 1024);
	km_skb_put(skb, 1024);
	assert_int_equal(km_skb_tailroom(skb), 0);
	assert_int_equal(km_usbnet_start_xmit(dev, skb), 0);
	assert_int_equal(dev->last_urb_len, 1025);
	assert_int_equal(dev->net->tx_bytes, 2048);
	/* not a multiple: unchanged */
	skb = km_alloc_skb(t, 1000, KM_GFP_ATOMIC);
	km_skb_put(skb, 1000);
	assert_int_equal(km_usbnet_start_xmit(dev, skb), 0);
	assert_int_equal(dev->last_urb_len, 1000);
	km_usbnet_free(dev);

	/* FLAG_SEND_ZLP: URB_ZERO_PACKET instead */
	assert_int_equal(km_usbnet_probe(m, &vzlp, KM_USB_SPEED_FULL, 64, NULL, &dev), 0);
	skb = km_alloc_skb(t, 128, KM_GFP_ATOMIC);
	km_skb_put(skb, 128);
	assert_int_equal(km_usbnet_start_xmit(dev, skb), 0);
	assert_int_equal(dev->last_urb_len, 128);
	assert_true(dev->last_urb_zero_packet);
	km_usbnet_free(dev);

	/* FLAG_MULTI_PACKET without ZLP: the bus reports the open transfer */
	assert_int_equal(km_usbnet_probe(m, &vmulti, KM_USB_SPEED_FULL, 64, NULL, &dev), 0);
	skb = km_alloc_skb(t, 128, KM_GFP_ATOMIC);
	km_skb_put(skb, 128);
	assert_int_equal(km_usbnet_start_xmit(dev, skb), 0);
	assert_int_equal(dev->last_urb_len, 128);
	assert_int_equal(km_report_count(m, KM_R_USB_NO_ZLP), 1);
	km_usbnet_free(dev);
	km_reports_clear(m);
	km_task_switch(NULL);
	km_task_free(t);
}

static unsigned long n_pkts, n_ends;

static void count_pkt(void *priv, const uint8_t *d, size_t len, bool end)
{
	n_pkts++;
	n_ends += end;
}

static void test_bulk_segmentation(void **state)
{
	struct km_machine *m = *state;
	struct km_usb_ep ep = { .maxpacket = 512, .sink = { .packet = count_pkt } };
	static uint8_t buf[2048];
	struct km_events ev;

	ep.m = m;
	n_pkts = n_ends = 0;
	assert_int_equal(km_usb_bulk_out(&ep, buf, 1514, false), 3);	/* 512 512 490 */
	assert_int_equal(n_ends, 1);
	assert_int_equal(km_usb_bulk_out(&ep, buf, 1024, false), 2);	/* no ZLP */
	assert_int_equal(km_report_count(m, KM_R_USB_NO_ZLP), 1);
	assert_int_equal(n_ends, 1);
	assert_int_equal(km_usb_bulk_out(&ep, buf, 1024, true), 3);	/* + ZLP */
	assert_int_equal(n_ends, 2);
	assert_int_equal(km_usb_bulk_out(&ep, buf, 0, false), 1);	/* one ZLP */
	assert_int_equal(km_usb_bulk_out(&ep, buf, 511, false), 1);
	assert_int_equal(km_usb_bulk_out(&ep, buf, 513, false), 2);
	km_events_get(m, &ev);
	assert_int_equal(ev.urbs, 6);
	assert_int_equal(ev.usb_packets, 12);
	assert_int_equal(ev.usb_bytes, 1514 + 1024 + 1024 + 511 + 513);
	ep.maxpacket = 0;
	assert_int_equal(km_usb_bulk_out(&ep, buf, 10, false), -EINVAL);
	km_reports_clear(m);
}

static void test_device_errors(void **state)
{
	struct km_machine *m = *state;
	struct km_asix_dev *d;
	struct km_usbnet_dev_stats st;
	const uint8_t bad[8] = { 0x10, 0x00, 0x00, 0x00, 1, 2, 3, 4 };	/* ~len missing */
	const uint8_t good[8] = { 0x04, 0x00, 0xfb, 0xff, 9, 8, 7, 6 };	/* len 4 */

	assert_int_equal(km_asix_dev_new(m, NULL, NULL, &d), 0);
	assert_int_equal(km_asix_dev_rx(d, bad, sizeof(bad), true), -EPROTO);
	assert_int_equal(km_report_count(m, KM_R_USB_PROTOCOL), 1);
	/* the next transfer parses again */
	assert_int_equal(km_asix_dev_rx(d, good, sizeof(good), true), 0);
	/* a transfer that ends inside a frame */
	assert_int_equal(km_asix_dev_rx(d, good, 6, true), -EPROTO);
	km_asix_dev_get_stats(d, &st);
	assert_int_equal(st.frames, 1);
	assert_int_equal(st.bad_headers, 1);
	assert_int_equal(st.truncated, 1);
	assert_int_equal(st.transfers, 3);
	assert_int_equal(km_report_count(m, KM_R_USB_PROTOCOL), 2);
	/* a header split across packets */
	assert_int_equal(km_asix_dev_rx(d, good, 3, false), 0);
	assert_int_equal(km_asix_dev_rx(d, good + 3, 5, true), 0);
	km_asix_dev_get_stats(d, &st);
	assert_int_equal(st.frames, 2);
	/* NULL device / buffer: -EINVAL, never a crash; the parser goes on */
	assert_int_equal(km_asix_dev_rx(NULL, good, sizeof(good), true), -EINVAL);
	assert_int_equal(km_asix_dev_rx(d, NULL, 8, true), -EINVAL);
	assert_int_equal(km_report_count(m, KM_R_USB_PROTOCOL), 3);
	assert_int_equal(km_asix_dev_rx(d, NULL, 0, false), 0);
	km_asix_dev_get_stats(NULL, &st);
	assert_int_equal(st.frames, 0);
	km_asix_dev_get_stats(d, NULL);
	km_asix_dev_get_stats(d, &st);
	assert_int_equal(st.frames, 2);
	assert_int_equal(st.transfers, 4);	/* the refused packet ends nothing */
	assert_int_equal(km_usbnet_start_xmit(NULL, NULL), -EINVAL);
	km_asix_dev_free(d);
	km_reports_clear(m);
}

/* ---- the traffic the patch was about ---------------------------------------- */

struct tfx {
	struct fx f;
	struct km_traffic *tr;
	unsigned long ok;
};

static void on_traffic_frame(void *arg, const uint8_t *frame, size_t len)
{
	struct tfx *x = arg;

	x->ok += km_traffic_verify(x->tr, frame, len);
}

static uint64_t traffic_copies(const struct km_usbnet_variant *v, enum km_traffic_kind kind,
			       bool tap, uint64_t *memmoved)
{
	struct tfx x;
	struct km_traffic_config cfg = { .kind = kind, .tap = tap };
	struct km_events ev;

	memset(&x, 0, sizeof(x));
	assert_int_equal(km_machine_new(NULL, &x.f.m), 0);
	assert_int_equal(km_task_new(x.f.m, NULL, 0, &x.f.t), 0);
	km_task_switch(x.f.t);
	assert_int_equal(v->dev_new(x.f.m, on_traffic_frame, &x, &x.f.d), 0);
	assert_int_equal(km_usbnet_probe(x.f.m, v, KM_USB_SPEED_HIGH, 512, &x.f.d.sink, &x.f.dev), 0);
	assert_int_equal(km_traffic_new(x.f.t, x.f.dev->net, &cfg, &x.tr), 0);
	for (int i = 0; i < 100; i++) {
		assert_int_equal(km_usbnet_start_xmit(x.f.dev, km_traffic_next(x.tr)), 0);
		km_traffic_complete(x.tr);
	}
	assert_int_equal(x.ok, 100);
	km_events_get(x.f.m, &ev);
	*memmoved = ev.memmove_bytes;
	assert_int_equal(km_report_count(x.f.m, KM_R_NONE), 0);
	km_traffic_free(x.tr);
	fx_down(&x.f);
	return ev.skb_copies;
}

static void test_traffic(void **state)
{
	uint64_t mm;

	/* TCP, no tap: the patch's point */
	assert_int_equal(traffic_copies(&km_asix_before, KM_TRAFFIC_TCP, false, &mm), 100);
	assert_int_equal(traffic_copies(&km_asix_after, KM_TRAFFIC_TCP, false, &mm), 0);
	assert_int_equal(mm, 0);
	/* a tap makes the header cloned: both copy */
	assert_int_equal(traffic_copies(&km_asix_before, KM_TRAFFIC_TCP, true, &mm), 100);
	assert_int_equal(traffic_copies(&km_asix_after, KM_TRAFFIC_TCP, true, &mm), 100);
	/* UDP: headroom 2 before (memmove each frame), 18 after */
	assert_int_equal(traffic_copies(&km_asix_before, KM_TRAFFIC_UDP, false, &mm), 0);
	assert_int_equal(mm, 100 * 1514);
	assert_int_equal(traffic_copies(&km_asix_after, KM_TRAFFIC_UDP, false, &mm), 0);
	assert_int_equal(mm, 0);
}

/* ---- traffic: retransmission, forwarding, pktgen ------------------------------ */

static void tfx_up(struct tfx *x, const struct km_usbnet_variant *v,
		   const struct km_traffic_config *cfg)
{
	memset(x, 0, sizeof(*x));
	assert_int_equal(km_machine_new(NULL, &x->f.m), 0);
	assert_int_equal(km_task_new(x->f.m, NULL, 0, &x->f.t), 0);
	km_task_switch(x->f.t);
	assert_int_equal(v->dev_new(x->f.m, on_traffic_frame, x, &x->f.d), 0);
	assert_int_equal(km_usbnet_probe(x->f.m, v, KM_USB_SPEED_HIGH, 512, &x->f.d.sink,
					 &x->f.dev), 0);
	assert_int_equal(km_traffic_new(x->f.t, x->f.dev->net, cfg, &x->tr), 0);
}

static void tfx_down(struct tfx *x)
{
	km_traffic_free(x->tr);
	km_reports_clear(x->f.m);
	fx_down(&x->f);
}

/* v3.5 tcp_transmit_skb(): a retransmit while the original is queued is a
 * new clone once the first clone is gone, and a pskb_copy() while it is
 * alive (skb_cloned()); both carry the same frame. */
static void test_tcp_retransmit(void **state)
{
	struct km_traffic_config cfg = { .kind = KM_TRAFFIC_TCP };
	struct km_skb *first, *re;
	struct km_events ev;
	struct tfx x;

	tfx_up(&x, &km_asix_after, &cfg);
	assert_int_equal(km_usbnet_start_xmit(x.f.dev, km_traffic_next(x.tr)), 0);
	km_events_reset(x.f.m);
	re = km_traffic_retransmit(x.tr);		/* the clone is gone: clone again */
	km_events_get(x.f.m, &ev);
	assert_int_equal(ev.skb_copies, 0);
	assert_int_equal(ev.skb_clones, 1);
	assert_int_equal(km_usbnet_start_xmit(x.f.dev, re), 0);
	assert_int_equal(x.ok, 2);
	km_traffic_complete(x.tr);

	first = km_traffic_next(x.tr);			/* still queued below */
	assert_true(km_skb_cloned(km_traffic_queued(x.tr)));
	km_events_reset(x.f.m);
	re = km_traffic_retransmit(x.tr);		/* pskb_copy() */
	km_events_get(x.f.m, &ev);
	assert_int_equal(ev.skb_copies, 1);
	assert_int_equal(ev.skb_copy_bytes, KM_TCP_MSS_DEFAULT);
	assert_false(km_skb_cloned(re));
	assert_int_equal(km_skb_headroom(re), KM_TCP_MAX_HEADER_DEFAULT - KM_TCP_HDRS);
	assert_int_equal(km_usbnet_start_xmit(x.f.dev, re), 0);
	assert_int_equal(km_usbnet_start_xmit(x.f.dev, first), 0);
	assert_int_equal(x.ok, 4);
	assert_int_equal(km_traffic_check_owned(x.tr), 0);
	assert_int_equal(km_report_count(x.f.m, KM_R_NONE), 0);
	tfx_down(&x);
}

/* The 2012 patch's memmove over a TCP clone end to end: with 66 bytes of
 * MAX_TCP_HEADER the clone has no headroom left, after's memmove shifts
 * the payload the queued original owns, and the retransmit sends the
 * shifted bytes; hardened copies and the retransmit is right. */
static void test_retransmit_after_memmove(void **state)
{
	struct km_traffic_config cfg = { .kind = KM_TRAFFIC_TCP, .max_tcp_header = KM_TCP_HDRS };
	struct tfx x;

	tfx_up(&x, &km_asix_after, &cfg);
	assert_int_equal(km_usbnet_start_xmit(x.f.dev, km_traffic_next(x.tr)), 0);
	assert_int_equal(x.ok, 1);			/* the frame itself went out right */
	assert_int_equal(km_traffic_check_owned(x.tr), 1);	/* the original's payload moved */
	assert_true(km_report_count(x.f.m, KM_R_SKB_WRITE_CLONED) > 0);
	assert_int_equal(km_usbnet_start_xmit(x.f.dev, km_traffic_retransmit(x.tr)), 0);
	assert_int_equal(x.ok, 1);			/* the retransmit is corrupt */
	tfx_down(&x);

	tfx_up(&x, &km_asix_hardened, &cfg);
	assert_int_equal(km_usbnet_start_xmit(x.f.dev, km_traffic_next(x.tr)), 0);
	assert_int_equal(km_traffic_check_owned(x.tr), 0);
	assert_int_equal(km_usbnet_start_xmit(x.f.dev, km_traffic_retransmit(x.tr)), 0);
	assert_int_equal(x.ok, 2);
	assert_int_equal(km_report_count(x.f.m, KM_R_NONE), 0);
	tfx_down(&x);
}

/* Forwarding: routed, the driver gets the received skb (private, the rx
 * driver's NET_SKB_PAD + NET_IP_ALIGN headroom: 66 left after the new
 * Ethernet header) and works in place; bridged and flooded, a clone whose
 * original the bridge still holds, copied by every version. */
static void test_forwarding(void **state)
{
	struct km_traffic_config routed = { .kind = KM_TRAFFIC_FORWARD };
	struct km_traffic_config flood = { .kind = KM_TRAFFIC_FORWARD, .bridge = true,
					   .flood = true };
	static const struct km_usbnet_variant *const vs[] = { &km_asix_before, &km_asix_after,
							      &km_asix_mainline, &km_sr9800 };
	struct km_events ev;
	struct km_skb *skb;
	struct tfx x;

	for (size_t i = 0; i < G_N_ELEMENTS(vs); i++) {
		tfx_up(&x, vs[i], &routed);
		for (int n = 0; n < 10; n++) {
			skb = km_traffic_next(x.tr);
			assert_int_equal(km_skb_headroom(skb), 64 + 2);
			assert_false(km_skb_cloned(skb));
			assert_int_equal(km_usbnet_start_xmit(x.f.dev, skb), 0);
		}
		km_events_get(x.f.m, &ev);
		assert_int_equal(ev.skb_copies, 0);
		assert_int_equal(x.ok, 10);
		tfx_down(&x);

		tfx_up(&x, vs[i], &flood);
		for (int n = 0; n < 10; n++) {
			skb = km_traffic_next(x.tr);
			assert_true(km_skb_header_cloned(skb));
			assert_int_equal(km_usbnet_start_xmit(x.f.dev, skb), 0);
			assert_int_equal(km_traffic_check_owned(x.tr), 0);
		}
		km_events_get(x.f.m, &ev);
		assert_int_equal(ev.skb_copies, 10);
		assert_int_equal(x.ok, 10);
		assert_int_equal(km_report_count(x.f.m, KM_R_NONE), 0);
		tfx_down(&x);
	}
}

/* pktgen sends one skb clone_skb times holding its own reference (users
 * 2); ether_setup()'s IFF_TX_SKB_SHARING lets it. Every faithful asix
 * version pushes its header into that skb in place: the next send carries
 * the previous header in its data. hardened copies: every send is right. */
static void test_pktgen_shared(void **state)
{
	struct km_traffic_config cfg = { .kind = KM_TRAFFIC_PKTGEN, .clone_skb = 3 };
	struct km_net_device nosharing;
	struct km_traffic *tr;
	struct km_skb *skb;
	struct tfx x;

	tfx_up(&x, &km_asix_after, &cfg);
	assert_true(x.f.dev->net->priv_flags & KM_IFF_TX_SKB_SHARING);
	skb = km_traffic_next(x.tr);
	assert_int_equal(skb->users, 2);
	assert_int_equal(km_usbnet_start_xmit(x.f.dev, skb), 0);
	assert_int_equal(x.ok, 1);
	assert_int_equal(km_traffic_check_owned(x.tr), 1);	/* pktgen's skb changed */
	assert_int_equal(km_report_count(x.f.m, KM_R_SKB_CHANGE_SHARED), 1);
	assert_int_equal(km_usbnet_start_xmit(x.f.dev, km_traffic_next(x.tr)), 0);
	assert_int_equal(km_usbnet_start_xmit(x.f.dev, km_traffic_next(x.tr)), 0);
	assert_int_equal(x.ok, 1);				/* sends 2 and 3 wrong */
	assert_int_equal(km_usbnet_start_xmit(x.f.dev, km_traffic_next(x.tr)), 0);
	assert_int_equal(x.ok, 2);				/* a new skb */
	tfx_down(&x);

	tfx_up(&x, &km_asix_hardened, &cfg);
	for (int n = 0; n < 9; n++) {
		assert_int_equal(km_usbnet_start_xmit(x.f.dev, km_traffic_next(x.tr)), 0);
		assert_int_equal(km_traffic_check_owned(x.tr), 0);
	}
	assert_int_equal(x.ok, 9);
	assert_int_equal(km_report_count(x.f.m, KM_R_NONE), 0);
	nosharing = *x.f.dev->net;
	nosharing.priv_flags &= ~KM_IFF_TX_SKB_SHARING;
	assert_int_equal(km_traffic_new(x.f.t, &nosharing, &cfg, &tr), -EOPNOTSUPP);
	cfg.clone_skb = 0;					/* a fresh skb each time */
	assert_int_equal(km_traffic_new(x.f.t, &nosharing, &cfg, &tr), 0);
	km_traffic_free(tr);
	tfx_down(&x);
}

/* An skb of another machine handed to usbnet_start_xmit: a KM_R_UNEXPECTED
 * BUG on the skb's machine, -EINVAL, the skb untouched and still the
 * caller's; nothing is sent. */
static void test_xmit_foreign_skb(void **state)
{
	struct fx *f = *state;
	struct km_machine *m2;
	struct km_task *t2;
	struct km_skb *skb;
	uint8_t data[64];

	pattern(data, sizeof(data), 7);
	assert_int_equal(km_machine_new(NULL, &m2), 0);
	assert_int_equal(km_task_new(m2, NULL, 0, &t2), 0);
	skb = km_alloc_skb(t2, 200, KM_GFP_KERNEL);
	km_skb_reserve(skb, 16);
	memcpy(km_skb_put(skb, sizeof(data)), data, sizeof(data));
	assert_int_equal(km_usbnet_start_xmit(f->dev, skb), -EINVAL);
	assert_int_equal(km_report_count(m2, KM_R_UNEXPECTED), 1);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
	assert_int_equal(skb->len, sizeof(data));
	assert_int_equal(km_skb_headroom(skb), 16);
	assert_int_equal(skb->users, 1);
	assert_int_equal(f->frames, 0);
	assert_int_equal(f->dev->net->tx_packets, 0);
	km_kfree_skb(skb);
	km_reports_clear(m2);
	km_task_free(t2);
	assert_int_equal(km_machine_destroy(m2), 0);
}

/* ---- usbnet's pad byte on a clone, the device's 11-bit length and size limit,
 * the fixups' room boundaries, maxpackets and per-speed probe rules: defects
 * an outside review found, a test each ---------------------------------------- */

/* A sink that keeps the bytes of the last transfer. */
struct wire {
	uint8_t buf[4096];
	size_t len;
	bool ended;
};

static void wire_packet(void *priv, const uint8_t *d, size_t len, bool end)
{
	struct wire *w = priv;

	if (w->ended) {
		w->len = 0;
		w->ended = false;
	}
	if (len && w->len + len <= sizeof(w->buf)) {
		memcpy(w->buf + w->len, d, len);
		w->len += len;
	}
	w->ended = end;
}

static struct km_skb *keep_fixup_skb;

/* a driver without framing that keeps a reference to what it sends */
static struct km_skb *keep_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t flags)
{
	keep_fixup_skb = km_skb_get(skb);
	return skb;
}

/* Defect 2: v3.5 usbnet pads a transfer that is a multiple of maxpacket
 * with one zero byte (skb->data[skb->len] = 0; __skb_put(skb, 1)) when the
 * driver sets neither FLAG_SEND_ZLP nor FLAG_MULTI_PACKET (dm9601 is one)
 * and there is tailroom. On a cloned skb the checker reports the write into
 * the shared buffer, and the byte is written all the same: the wire carries
 * 0, not the old byte. */
static void test_usbnet_pad_byte_on_clone(void **state)
{
	struct km_machine *m = *state;
	static const struct km_usbnet_driver_info dm = { .description = "dm9601-like",
							 .flags = KM_FLAG_ETHER, .tx_fixup = pass };
	static const struct km_usbnet_driver_info keep = { .description = "keeps a ref",
							   .tx_fixup = keep_fixup };
	struct km_usbnet_variant v = km_asix_before, vm, vk;
	struct km_usb_sink sink;
	struct km_task *t;
	struct km_usbnet *dev;
	struct km_skb *orig, *c;
	struct wire w = { .len = 0 };

	v.info = &dm;
	vm = v;
	vm.era = KM_USBNET_MAINLINE;
	vk = v;
	vk.info = &keep;
	sink = (struct km_usb_sink){ .packet = wire_packet, .priv = &w };
	assert_int_equal(km_task_new(m, NULL, 0, &t), 0);
	km_task_switch(t);
	assert_int_equal(km_usbnet_probe(m, &v, KM_USB_SPEED_FULL, 64, &sink, &dev), 0);
	orig = km_alloc_skb(t, 200, KM_GFP_ATOMIC);
	memset(km_skb_put(orig, 128), 0x11, 128);
	orig->data[128] = 0xaa;			/* the byte after the data */
	c = km_skb_clone(t, orig, KM_GFP_ATOMIC);
	assert_int_equal(km_usbnet_start_xmit(dev, c), 0);
	assert_int_equal(dev->last_urb_len, 129);
	assert_int_equal(w.len, 129);
	assert_int_equal(w.buf[128], 0);		/* the kernel's zero */
	assert_int_equal(orig->data[128], 0);		/* written into the shared buffer */
	assert_int_equal(km_report_count(m, KM_R_SKB_WRITE_CLONED), 1);
	assert_int_equal(dev->net->tx_packets, 1);
	assert_int_equal(dev->net->tx_bytes, 128);	/* v3.5: entry->length before the pad */
	km_kfree_skb(orig);
	km_usbnet_free(dev);
	km_reports_clear(m);

	/* mainline counts the URB length, pad included */
	assert_int_equal(km_usbnet_probe(m, &vm, KM_USB_SPEED_FULL, 64, &sink, &dev), 0);
	orig = km_alloc_skb(t, 200, KM_GFP_ATOMIC);
	km_skb_put(orig, 128);
	assert_int_equal(km_usbnet_start_xmit(dev, orig), 0);
	assert_int_equal(dev->net->tx_bytes, 129);
	assert_int_equal(dev->net->tx_packets, 1);
	km_usbnet_free(dev);

	/* the __skb_put(skb, 1): seen on an skb the driver still holds */
	assert_int_equal(km_usbnet_probe(m, &vk, KM_USB_SPEED_FULL, 64, &sink, &dev), 0);
	orig = km_alloc_skb(t, 200, KM_GFP_ATOMIC);
	km_skb_put(orig, 64);
	assert_int_equal(km_usbnet_start_xmit(dev, orig), 0);
	assert_ptr_equal(keep_fixup_skb, orig);
	assert_int_equal(orig->len, 65);
	assert_int_equal(orig->data[64], 0);
	assert_int_equal(orig->users, 1);
	assert_int_equal(km_report_count(m, KM_R_SKB_WRITE_SHARED), 1);
	assert_int_equal(km_report_count(m, KM_R_SKB_CHANGE_SHARED), 1);
	km_kfree_skb(orig);
	km_usbnet_free(dev);
	km_reports_clear(m);
	km_task_switch(NULL);
	km_task_free(t);
}

/* An skb with exactly @head bytes of headroom, @len of data, @tail of tailroom. */
static struct km_skb *exact(struct fx *f, unsigned int head, unsigned int len,
			    unsigned int tail, uint8_t *data)
{
	struct km_skb *skb = km_build_skb(f->t, head + len + tail, KM_GFP_KERNEL);

	km_skb_reserve(skb, (int)head);
	pattern(data, len, len);
	memcpy(km_skb_put(skb, len), data, len);
	assert_int_equal(km_skb_tailroom(skb), tail);
	return skb;
}

/* Defect 4: an AX88772 header carries 11 bits of length (the driver's rx
 * side masks with 0x7ff); the model's device takes frames up to 1518 bytes
 * (ETH_FRAME_LEN + VLAN_HLEN) and drops longer ones; 2048 cannot be
 * encoded at all. Both are counted and reported. */
static void test_device_oversized(void **state)
{
	struct fx *f = *state;
	static uint8_t data[2100];
	struct km_usbnet_dev_stats st;

	assert_int_equal(km_usbnet_start_xmit(f->dev, exact(f, 4, 1518, 8, data)), 0);
	assert_int_equal(f->last_len, 1518);
	assert_int_equal(km_usbnet_start_xmit(f->dev, exact(f, 4, 2000, 8, data)), 0);
	km_usbnet_dev_get_stats(&f->d, &st);
	assert_int_equal(st.frames, 1);
	assert_int_equal(st.oversized, 1);
	assert_int_equal(km_report_count(f->m, KM_R_USB_FRAME_DROPPED), 1);
	assert_int_equal(km_report_count(f->m, KM_R_USB_PROTOCOL), 0);
	/* 2048: 0xf7ff0800 reads as length 0 (a pad word); the frame's bytes
	 * are then parsed as headers */
	assert_int_equal(km_usbnet_start_xmit(f->dev, exact(f, 4, 2048, 8, data)), 0);
	km_usbnet_dev_get_stats(&f->d, &st);
	assert_int_equal(st.frames, 1);
	assert_int_equal(st.oversized, 2);
	assert_int_equal(km_report_count(f->m, KM_R_USB_FRAME_DROPPED), 2);
	assert_true(km_report_count(f->m, KM_R_USB_PROTOCOL) >= 1);
	km_reports_clear(f->m);
}

/* Defect 8: the device accepts a header whose complement matches only in
 * the 11 bits it decodes; a transfer that ends inside a header is
 * truncated. */
static void test_device_11bit_header(void **state)
{
	struct km_machine *m = *state;
	struct km_asix_dev *d;
	struct km_usbnet_dev_stats st;
	/* length 4, high half 0x07fb: ~4 in the low 11 bits only */
	const uint8_t h11[8] = { 0x04, 0x00, 0xfb, 0x07, 9, 8, 7, 6 };

	assert_int_equal(km_asix_dev_new(m, NULL, NULL, &d), 0);
	assert_int_equal(km_asix_dev_rx(d, h11, sizeof(h11), true), 0);
	assert_int_equal(km_asix_dev_rx(d, h11, 2, true), -EPROTO);
	km_asix_dev_get_stats(d, &st);
	assert_int_equal(st.frames, 1);
	assert_int_equal(st.bad_headers, 0);
	assert_int_equal(st.truncated, 1);
	assert_int_equal(km_report_count(m, KM_R_USB_PROTOCOL), 1);
	assert_non_null(strstr(km_report_get(m, 0)->message, "header (2 of 4"));
	km_asix_dev_free(d);
	km_reports_clear(m);
}

/* Defect 8: the after-version's memmove fallback when headroom >= 4 but
 * tailroom < padlen (len 508 at maxpacket 512: padlen 4); the
 * before-version in place when headroom + tailroom is exactly 4 + padlen
 * and copying at one byte less. */
static void test_fixup_room_boundaries(void **state)
{
	static uint8_t data[600];
	struct fx *f = *state;	/* after, 512 */
	struct outcome o;

	for (unsigned int tail = 0; tail < 4; tail++) {
		o = run(f, exact(f, 8, 508, tail, data), 508, data);
		assert_true(o.same);
		assert_int_equal(o.copies, 0);
		assert_int_equal(o.memmoved, 508);
	}
	o = run(f, exact(f, 8, 508, 4, data), 508, data);
	assert_int_equal(o.memmoved, 0);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}

static void test_fixup_room_boundaries_before(void **state)
{
	static uint8_t data[600];
	struct fx *f = *state;	/* before, 512 */
	struct outcome o;

	o = run(f, exact(f, 2, 508, 6, data), 508, data);	/* 2 + 6 == 4 + 4 */
	assert_true(o.same);
	assert_int_equal(o.copies, 0);
	assert_int_equal(o.memmoved, 508);
	o = run(f, exact(f, 2, 508, 5, data), 508, data);	/* one short: copy */
	assert_false(o.same);
	assert_int_equal(o.copies, 1);
	o = run(f, exact(f, 0, 100, 4, data), 100, data);	/* padlen 0: 0 + 4 */
	assert_true(o.same);
	assert_int_equal(o.memmoved, 100);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}

/* Defect 8 and the spec: a maxpacket that is not a power of two is
 * accepted, as the kernel does, and reported; asix's padlen masks with
 * maxpacket - 1, so at 60 a 56-byte frame (60 bytes with the header) gets
 * no pad word and, with FLAG_MULTI_PACKET, no ZLP: the device waits. */
static void test_non_power_of_two_maxpacket(void **state)
{
	struct fx *f = *state;
	static uint8_t data[100];
	struct km_usbnet *dev;

	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
	assert_int_equal(km_usbnet_probe(f->m, &km_asix_after, KM_USB_SPEED_FULL, 60, &f->d.sink,
					 &dev), 0);
	assert_int_equal(km_report_count(f->m, KM_R_USB_MAXPACKET), 1);
	assert_non_null(strstr(km_report_get(f->m, 0)->message, "not a power of two"));
	assert_int_equal(dev->maxpacket, 60);
	assert_int_equal(km_usbnet_start_xmit(dev, exact(f, 4, 56, 8, data)), 0);
	assert_int_equal(dev->last_urb_len, 60);
	assert_int_equal(km_report_count(f->m, KM_R_USB_NO_ZLP), 1);
	km_usbnet_free(dev);
	km_reports_clear(f->m);
}

/* Probe: the bulk maxpacket the spec forbids at the device's speed is
 * reported as drivers/usb/core/config.c usb_parse_endpoint() warns (v3.5:
 * high speed != 512, low speed bulk turned into interrupt; mainline first
 * clamps to maxpacket_maxes[] -- 64 at full, 1024 at high and super speed
 * -- then warns about high speed != 512 on the clamped value: high/2047 is
 * "setting to 1024" and "invalid maxpacket 1024", two warnings). */
static void test_probe_speed_rules(void **state)
{
	struct km_machine *m = *state;
	struct km_usbnet_variant vm = km_asix_after;
	struct km_usbnet *dev;
	static const struct { enum km_usb_speed s; unsigned int mp; bool mainline;
			      int ret; unsigned int reports, got; } cases[] = {
		{ KM_USB_SPEED_FULL, 8, false, 0, 0, 8 },
		{ KM_USB_SPEED_FULL, 16, false, 0, 0, 16 },
		{ KM_USB_SPEED_FULL, 32, false, 0, 0, 32 },
		{ KM_USB_SPEED_FULL, 64, false, 0, 0, 64 },
		{ KM_USB_SPEED_FULL, 48, false, 0, 1, 48 },
		{ KM_USB_SPEED_FULL, 512, false, 0, 1, 512 },
		{ KM_USB_SPEED_FULL, 512, true, 0, 1, 64 },
		{ KM_USB_SPEED_HIGH, 512, false, 0, 0, 512 },
		{ KM_USB_SPEED_HIGH, 64, false, 0, 1, 64 },
		{ KM_USB_SPEED_HIGH, 1024, true, 0, 1, 1024 },
		{ KM_USB_SPEED_HIGH, 2047, false, 0, 1, 2047 },
		{ KM_USB_SPEED_HIGH, 2047, true, 0, 2, 1024 },
		{ KM_USB_SPEED_SUPER, 2047, true, 0, 1, 1024 },
		{ KM_USB_SPEED_SUPER, 1024, true, 0, 0, 1024 },
		{ KM_USB_SPEED_SUPER, 512, true, 0, 1, 512 },
		{ KM_USB_SPEED_LOW, 8, false, -ENODEV, 1, 0 },
	};

	vm.era = KM_USBNET_MAINLINE;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		km_reports_clear(m);
		assert_int_equal(km_usbnet_probe(m, cases[i].mainline ? &vm : &km_asix_after,
						 cases[i].s, cases[i].mp, NULL, &dev), cases[i].ret);
		assert_int_equal(km_report_count(m, KM_R_USB_MAXPACKET), cases[i].reports);
		assert_int_equal(km_report_count(m, KM_R_NONE), cases[i].reports);
		if (cases[i].ret == 0) {
			assert_int_equal(dev->maxpacket, cases[i].got);
			km_usbnet_free(dev);
		}
		if (cases[i].s == KM_USB_SPEED_HIGH && cases[i].mp == 2047 && cases[i].mainline) {
			assert_non_null(strstr(km_report_get(m, 0)->message, "setting to 1024"));
			assert_non_null(strstr(km_report_get(m, 1)->message,
					       "has invalid maxpacket 1024"));
		}
	}
	km_reports_clear(m);
	assert_int_equal(km_usbnet_probe(m, &km_asix_after, KM_USB_SPEED_HIGH, 2048, NULL, &dev),
			 -EINVAL);
}

/* A device model takes a whole transfer in one call (km_usb_sink.transfer)
 * or packet by packet: the same stream, so the same frames and counters. */
static unsigned long frames_a, frames_b;

static void count_a(void *arg, const uint8_t *frame, size_t len) { frames_a++; }
static void count_b(void *arg, const uint8_t *frame, size_t len) { frames_b++; }

/* sr9800 with a full-speed bulk-out maxpacket of 1 (usb_parse_endpoint()
 * warns but keeps it): sr_tx_fixup()'s (skb->len + 4) % (maxpacket - 1)
 * divides by zero. On ARM that is __div0() (arch/arm/kernel/traps.c,
 * arch/arm/lib/lib1funcs.S): a warning, quotient 0, remainder the
 * dividend, so padlen 0 and the frame goes out with its header only. The
 * model reports KM_R_DIV0 and does the same; the host must not trap
 * (found by fuzz_skb). */
static void test_sr9800_maxpacket_1_div0(void **state)
{
	struct fx *f = *state;
	static uint8_t data[60];
	struct km_skb *skb;

	pattern(data, sizeof(data), 7);
	assert_int_equal(f->dev->maxpacket, 1);
	skb = fixup(f, mk(f, 16, sizeof(data), 16, data));
	assert_non_null(skb);
	assert_int_equal(km_report_count(f->m, KM_R_DIV0), 1);
	assert_int_equal(f->dev->maxpacket, 1);		/* restored */
	assert_int_equal(skb->len, 4 + sizeof(data));	/* header, no pad word */
	assert_int_equal(le32(skb->data), (uint32_t)sizeof(data) | (uint32_t)(~sizeof(data) & 0xffff) << 16);
	assert_memory_equal(skb->data + 4, data, sizeof(data));
	km_consume_skb(skb);
	km_reports_clear(f->m);
}

static const struct dev_row transfer_rows[] = {
	{ "after, 64", &km_asix_after, 64 }, { "after, 512", &km_asix_after, 512 },
	{ "sr9800, 64", &km_sr9800, 64 }, { "sr9800, 512", &km_sr9800, 512 },
	{ "ax88179, 64", &km_ax88179, 64 }, { "ax88179, 512", &km_ax88179, 512 },
};

static void test_transfer_equals_packets(void **state)
{
	struct fx *f = *state;
	const struct km_usbnet_variant *v = f->row->v;
	unsigned int mp = f->row->mp;
	static uint8_t data[1200];
	struct km_usbnet_dev a, b;
	struct km_usbnet_dev_stats sa, sb;
	struct km_usb_ep ea, eb;

	assert_int_equal(v->dev_new(f->m, count_a, NULL, &a), 0);
	assert_int_equal(v->dev_new(f->m, count_b, NULL, &b), 0);
	assert_non_null(a.sink.transfer);
	ea = (struct km_usb_ep){ .m = f->m, .maxpacket = mp, .sink = a.sink };
	eb = (struct km_usb_ep){ .m = f->m, .maxpacket = mp,
				 .sink = { .packet = b.sink.packet,
					   .priv = b.sink.priv } };
	frames_a = frames_b = 0;
	for (unsigned int len = 1; len <= 2 * mp + 8; len++) {
		struct km_skb *skb = fixup(f, exact(f, 16, len, 16, data));

		assert_int_equal(km_usb_bulk_out(&ea, skb->data, skb->len, false),
				 km_usb_bulk_out(&eb, skb->data, skb->len, false));
		km_consume_skb(skb);
	}
	km_usbnet_dev_get_stats(&a, &sa);
	km_usbnet_dev_get_stats(&b, &sb);
	assert_memory_equal(&sa, &sb, sizeof(sa));
	assert_int_equal(frames_a, frames_b);
	/* all but what follows a stall (no usbnet here: no pad byte) */
	assert_int_equal(frames_a, sa.frames);
	assert_true(sa.frames >= 2 * mp + 8 - 2);
	km_usbnet_dev_free(&a);
	km_usbnet_dev_free(&b);
	km_reports_clear(f->m);
}

static struct km_skb *multi_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t flags)
{
	/* usbnet_set_skb_tx_stats(skb, 3, -10): three packets, 10 bytes less */
	skb->usbnet_packets = 3;
	skb->usbnet_length = skb->len == 100 ? -1000 : -10;
	return skb;
}

/* a minidriver that collects the skb for a later transfer (cdc_ncm's
 * way): it keeps nothing here, the skb goes at once */
static struct km_skb *collect_fixup(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t flags)
{
	km_dev_kfree_skb_any(skb);
	return NULL;
}

static void count_frame(void *arg, const uint8_t *frame, size_t len)
{
	(*(size_t *)arg)++;
}

/* one AX88179 header (tx_hdr1, tx_hdr2, little-endian) at @p */
static void ax_hdr(uint8_t *p, uint32_t h1, uint32_t h2)
{
	for (int i = 0; i < 4; i++) {
		p[i] = (uint8_t)(h1 >> (8 * i));
		p[4 + i] = (uint8_t)(h2 >> (8 * i));
	}
}

/*
 * The AX88179 parser's stated policy (src/asix/ax88179_dev.c): the
 * padding bits are both of 0x80008000 or none (half is a bad header);
 * frames up to 4106 bytes (max_mtu 4088 + ETH_HLEN + VLAN_HLEN) are
 * delivered, longer ones dropped; a zero length is an empty frame,
 * nothing delivered; pad_words counts the transfers that ended in padding
 * (a padded frame that ends its transfer leaves none); a transfer that
 * ends inside a header is truncated.
 */
static void test_ax88179_parser_policy(void **state)
{
	struct km_machine *m = *state;
	static uint8_t buf[8 + 4107];
	struct km_usbnet_dev_stats st;
	struct km_usbnet_dev d;
	size_t frames = 0;

	assert_int_equal(km_ax88179.dev_new(m, count_frame, &frames, &d), 0);
	/* half the padding bits, either half: refused */
	ax_hdr(buf, 60, 0x8000);
	d.sink.packet(d.sink.priv, buf, 8 + 60, true);
	ax_hdr(buf, 60, 0x80000000u);
	d.sink.packet(d.sink.priv, buf, 8 + 60, true);
	km_usbnet_dev_get_stats(&d, &st);
	assert_int_equal(st.bad_headers, 2);
	assert_int_equal(km_report_count(m, KM_R_USB_PROTOCOL), 2);
	/* 4106 bytes delivered, 4107 dropped */
	ax_hdr(buf, 4106, 0);
	d.sink.packet(d.sink.priv, buf, 8 + 4106, true);
	ax_hdr(buf, 4107, 0);
	d.sink.packet(d.sink.priv, buf, 8 + 4107, true);
	km_usbnet_dev_get_stats(&d, &st);
	assert_int_equal(st.frames, 1);
	assert_int_equal(st.oversized, 1);
	assert_int_equal(frames, 1);
	/* an empty frame: nothing delivered */
	ax_hdr(buf, 0, 0);
	d.sink.packet(d.sink.priv, buf, 8, true);
	km_usbnet_dev_get_stats(&d, &st);
	assert_int_equal(st.frames, 1);
	assert_int_equal(frames, 1);
	/* padded, the frame ending the transfer: no padding seen; with
	 * usbnet's pad byte after it: one pad word */
	ax_hdr(buf, 60, 0x80008000u);
	d.sink.packet(d.sink.priv, buf, 8 + 60, true);
	km_usbnet_dev_get_stats(&d, &st);
	assert_int_equal(st.pad_words, 0);
	d.sink.packet(d.sink.priv, buf, 8 + 60 + 1, true);
	km_usbnet_dev_get_stats(&d, &st);
	assert_int_equal(st.pad_words, 1);
	assert_int_equal(st.frames, 3);
	/* a transfer that ends 5 bytes into a header */
	assert_int_equal(st.truncated, 0);
	d.sink.packet(d.sink.priv, buf, 5, true);
	km_usbnet_dev_get_stats(&d, &st);
	assert_int_equal(st.truncated, 1);
	assert_int_equal(st.transfers, 8);
	km_usbnet_dev_free(&d);
	km_reports_clear(m);
}

/* mainline usbnet's stats (usbnet_start_xmit(), tx_complete()): with
 * FLAG_MULTI_PACKET the driver's packets and length delta plus the URB's
 * length; a total <= 0 is WARN_ON_ONCE'd (a KM_R_WARN_ON WARN, once per
 * machine as the kernel's per-site static flag is once per boot) and
 * replaced by the URB length. */
static void test_mainline_tx_stats(void **state)
{
	struct fx *f = *state;	/* mainline, 512 */
	static const struct km_usbnet_driver_info mp = { .description = "multi",
							 .flags = KM_FLAG_MULTI_PACKET,
							 .tx_fixup = multi_fixup };
	static const struct km_usbnet_driver_info collector = { .description = "collector",
								.flags = KM_FLAG_MULTI_PACKET,
								.tx_fixup = collect_fixup };
	struct km_usbnet_variant v = km_asix_mainline;
	struct km_usbnet *dev;
	struct km_skb *skb;

	v.info = &mp;
	assert_int_equal(km_usbnet_probe(f->m, &v, KM_USB_SPEED_HIGH, 512, NULL, &dev), 0);
	skb = km_alloc_skb(f->t, 300, KM_GFP_ATOMIC);
	km_skb_put(skb, 200);
	assert_int_equal(km_usbnet_start_xmit(dev, skb), 0);
	assert_int_equal(dev->net->tx_packets, 3);
	assert_int_equal(dev->net->tx_bytes, 190);
	skb = km_alloc_skb(f->t, 300, KM_GFP_ATOMIC);
	km_skb_put(skb, 100);
	assert_int_equal(km_usbnet_start_xmit(dev, skb), 0);
	assert_int_equal(km_report_count(f->m, KM_R_WARN_ON), 1);	/* WARN_ON_ONCE */
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 1);
	assert_int_equal(dev->net->tx_bytes, 290);
	assert_int_equal(dev->net->tx_packets, 6);
	/* once per site and boot (its static __warned): the same machine,
	 * even through another device, does not warn again; the length is
	 * still replaced */
	km_usbnet_free(dev);
	assert_int_equal(km_usbnet_probe(f->m, &v, KM_USB_SPEED_HIGH, 512, NULL, &dev), 0);
	skb = km_alloc_skb(f->t, 300, KM_GFP_ATOMIC);
	km_skb_put(skb, 100);
	assert_int_equal(km_usbnet_start_xmit(dev, skb), 0);
	assert_int_equal(km_report_count(f->m, KM_R_WARN_ON), 1);
	assert_int_equal(dev->net->tx_bytes, 100);
	km_usbnet_free(dev);
	/* a tx_fixup() of NULL: mainline's "packet collected; minidriver
	 * waiting for more" (goto not_drop) with FLAG_MULTI_PACKET, not a drop */
	v.info = &collector;
	assert_int_equal(km_usbnet_probe(f->m, &v, KM_USB_SPEED_HIGH, 512, NULL, &dev), 0);
	skb = km_alloc_skb(f->t, 300, KM_GFP_ATOMIC);
	km_skb_put(skb, 100);
	assert_int_equal(km_usbnet_start_xmit(dev, skb), 0);
	assert_int_equal(dev->tx_fixup_null, 1);
	assert_int_equal(dev->net->tx_dropped, 0);
	assert_int_equal(dev->net->tx_packets, 0);
	km_usbnet_free(dev);
	km_reports_clear(f->m);
}

/* the AX88179 model refuses a TSO header (an MSS): no GSO in the model */
static void test_ax88179_no_tso(void **state)
{
	const uint8_t mss[16] = { 4, 0, 0, 0, 0x40, 0x05, 0, 0 };	/* len 4, MSS 1344 */
	struct fx *f = *state;	/* ax88179, 512 */
	struct km_usbnet_dev_stats st;

	f->d.sink.packet(f->d.sink.priv, mss, 12, true);
	km_usbnet_dev_get_stats(&f->d, &st);
	assert_int_equal(st.bad_headers, 1);
	assert_int_equal(st.frames, 0);
	assert_int_equal(km_report_count(f->m, KM_R_USB_PROTOCOL), 1);
	km_reports_clear(f->m);
}

/* Only the ported function is verbatim: in each ported file the END marker
 * closes the function, before the shortened bind. */
static void check_markers(const char *file, const char *begin_s, const char *fn_s,
			  const char *bind_s)
{
	gchar *path = g_build_filename(KM_ASIX_SRC_DIR, file, NULL);
	gchar *text = NULL;
	const char *begin, *fixup, *end, *bind;

	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	begin = strstr(text, begin_s);
	fixup = strstr(text, fn_s);
	end = strstr(text, "/* ---- END verbatim ---- */");
	bind = strstr(text, bind_s);
	assert_non_null(begin);
	assert_non_null(fixup);
	assert_non_null(end);
	assert_non_null(bind);
	assert_true(begin < fixup && fixup < end && end < bind);
	assert_null(strstr(end + strlen("/* ---- END"), "END verbatim"));
	g_free(text);
	g_free(path);
}

static void test_verbatim_markers(void **state)
{
	check_markers("asix_tx_fixup_before.c", "/* ---- BEGIN drivers/net/usb/asix.c",
		      "static struct sk_buff *asix_tx_fixup(", "static int ax88772_bind(");
	check_markers("asix_tx_fixup_after.c", "/* ---- BEGIN drivers/net/usb/asix.c",
		      "static struct sk_buff *asix_tx_fixup(", "static int ax88772_bind(");
	check_markers("asix_tx_fixup_mainline.c",
		      "/* ---- BEGIN drivers/net/usb/asix_common.c, mainline",
		      "struct sk_buff *asix_tx_fixup(", "static int ax88772_bind(");
	check_markers("sr9800_tx_fixup.c", "/* ---- BEGIN drivers/net/usb/sr9800.c",
		      "static struct sk_buff *sr_tx_fixup(", "static int sr9800_bind(");
	check_markers("ax88179_tx_fixup.c", "/* ---- BEGIN drivers/net/usb/ax88179_178a.c",
		      "ax88179_tx_fixup(struct usbnet *dev", "static int ax88179_bind(");
}

/* ---- the variants of the table ---------------------------------------------- */

/* What each variant puts on the wire for a private skb with room: the
 * frame comes back byte for byte; the only report is sr9800's missing ZLP
 * when (len + 4) is a multiple of maxpacket (its pad test uses
 * maxpacket - 1: drivers/net/usb/sr9800.c). ax88179's 8-byte header sets
 * the padding bits exactly when (len + 8) % maxpacket == 0, and usbnet
 * then adds its byte. */
static void wire_sweep(const struct km_usbnet_variant *v, unsigned int mp)
{
	static uint8_t data[2 * 1024 + 8];
	bool sr = v == &km_sr9800, ax = v == &km_ax88179;
	unsigned long stalls = 0;
	struct fx f;

	fx_up(&f, v, mp);
	for (unsigned int len = 1; len <= 2 * mp + 8; len++) {
		unsigned int hdr = ax ? 8 : 4, padlen, urb;

		padlen = ax ? 0 : sr ? ((len + 4) % (mp - 1) ? 0 : 4) : ((len + 4) % mp ? 0 : 4);
		urb = len + hdr + padlen;
		if (ax && urb % mp == 0)
			urb++;			/* usbnet's byte */
		stalls += urb % mp == 0;
		f.last_len = 0;
		assert_int_equal(km_usbnet_start_xmit(f.dev, exact(&f, 32, len, 32, data)), 0);
		assert_int_equal(f.dev->last_urb_len, urb);
		if (urb % mp) {		/* a stalled transfer never completes */
			assert_int_equal(f.last_len, len);
			assert_memory_equal(f.last, data, len);
		}
	}
	assert_int_equal(km_report_count(f.m, KM_R_USB_NO_ZLP), stalls);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), stalls);
	/* sr9800: len + 4 == mp, 2 mp; at 8 also 3 mp, and 28 + 4 padded to 32 */
	assert_int_equal(stalls, sr ? (mp == 8 ? 4 : 2) : 0);
	/* mainline usbnet: tx stats from usbnet_set_skb_tx_stats() */
	if (v->era == KM_USBNET_MAINLINE)
		assert_int_equal(f.dev->net->tx_packets, 2 * mp + 8);
	km_reports_clear(f.m);
	fx_down(&f);
}

static void test_wire_all_variants(void **state)
{
	struct km_registry *reg = km_test_registry();
	const struct km_usbnet_variant *const *vs = km_registry_usbnet(reg);
	static const struct km_usb_ep_cfg eps[] = {
		{ KM_USB_SPEED_FULL, 8 }, { KM_USB_SPEED_FULL, 64 }, { KM_USB_SPEED_HIGH, 512 },
		{ KM_USB_SPEED_SUPER, 1024 },
	};
	unsigned int runs = 0;

	for (size_t i = 0; vs[i]; i++)
		for (size_t e = 0; e < G_N_ELEMENTS(eps); e++)
			if (km_usbnet_variant_allows(vs[i], eps[e].speed, eps[e].maxpacket)) {
				wire_sweep(vs[i], eps[e].maxpacket);
				runs++;
			}
	assert_int_equal(runs, 6 * 3 + 1);	/* ax88179 also at SuperSpeed */
	km_registry_free(reg);
}

/* mainline asix behaves as the 2012 patch on the clone matrix (the same
 * rules), and keeps its flaw: the memmove over a TCP clone's payload. */
static void test_mainline_keeps_the_flaw(void **state)
{
	struct fx *f = *state;
	uint8_t data[1600];
	struct km_skb *keep;
	struct outcome o;

	o = run(f, pair(f, 2, 100, true, data, &keep), 100, data);
	assert_true(o.same);
	assert_int_equal(o.memmoved, 100);
	assert_int_equal(km_report_count(f->m, KM_R_SKB_WRITE_CLONED), 2);	/* memmove, header */
	assert_memory_not_equal(keep->data, data, 100);
	km_kfree_skb(keep);
	km_reports_clear(f->m);
	/* TCP clone with room: in place, no copy, no report */
	o = run(f, pair(f, 64, 1514, true, data, &keep), 1514, data);
	assert_true(o.same);
	assert_int_equal(o.copies, 0);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
	km_kfree_skb(keep);
}

/* hardened: the same TCP clone is copied, the original intact, nothing
 * reported; a shared skb is copied and the other holder's skb untouched. */
static void test_hardened(void **state)
{
	uint8_t data[2000];
	struct km_skb *keep, *skb;
	unsigned char *old_data;
	struct outcome o;
	struct fx *f = *state;	/* hardened, 512 */

	o = run(f, pair(f, 2, 100, true, data, &keep), 100, data);
	assert_false(o.same);
	assert_int_equal(o.copies, 1);
	assert_int_equal(o.memmoved, 0);
	assert_memory_equal(keep->data, data, 100);
	km_kfree_skb(keep);
	/* private with headroom 2: memmoved in place, as mainline */
	o = run(f, exact(f, 2, 100, 8, data), 100, data);
	assert_true(o.same);
	assert_int_equal(o.memmoved, 100);
	/* shared (users 2, pktgen): copied; our reference dropped */
	skb = exact(f, 16, 1000, 16, data);
	km_skb_get(skb);
	old_data = skb->data;
	o = run(f, skb, 1000, data);
	assert_false(o.same);
	assert_int_equal(skb->users, 1);
	assert_ptr_equal(skb->data, old_data);
	assert_int_equal(skb->len, 1000);
	assert_memory_equal(skb->data, data, 1000);
	km_kfree_skb(skb);
	/* a TCP clone that needs the pad word: copied (the tail is shared) */
	o = run(f, pair(f, 64, 508, true, data, &keep), 508, data);
	assert_false(o.same);
	km_kfree_skb(keep);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}

/* hardened's modulo: at maxpacket 60 a 56-byte frame gets its pad word */
static void test_hardened_modulo(void **state)
{
	uint8_t data[100];
	struct fx *f = *state;	/* hardened, 64 */

	km_usbnet_free(f->dev);
	assert_int_equal(km_usbnet_probe(f->m, &km_asix_hardened, KM_USB_SPEED_FULL, 60,
					 &f->d.sink, &f->dev), 0);
	km_reports_clear(f->m);
	assert_int_equal(km_usbnet_start_xmit(f->dev, exact(f, 4, 56, 8, data)), 0);
	assert_int_equal(f->dev->last_urb_len, 64);
	assert_int_equal(f->last_len, 56);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}

/* sr9800's pad modulus: drivers/net/usb/sr9800.c pads when (len + 4) %
 * (maxpacket - 1) == 0. At 512: len 507 gets a pad word it does not need,
 * len 508 none: 512 bytes, FLAG_MULTI_PACKET, no ZLP, the device waits. */
static void test_sr9800_pad_modulus(void **state)
{
	struct fx *f = *state;
	uint8_t data[600];
	struct km_usbnet_dev_stats st;

	assert_int_equal(km_usbnet_start_xmit(f->dev, exact(f, 8, 507, 8, data)), 0);
	assert_int_equal(f->dev->last_urb_len, 515);
	assert_int_equal(f->last_len, 507);
	f->last_len = 0;
	assert_int_equal(km_usbnet_start_xmit(f->dev, exact(f, 8, 508, 8, data)), 0);
	assert_int_equal(f->dev->last_urb_len, 512);
	assert_false(f->dev->last_urb_zero_packet);
	assert_int_equal(km_report_count(f->m, KM_R_USB_NO_ZLP), 1);
	/* the frame's bytes are in, the transfer never ended */
	km_usbnet_dev_get_stats(&f->d, &st);
	assert_int_equal(st.frames, 2);
	assert_int_equal(st.transfers, 1);
	km_reports_clear(f->m);
}

/* ax88179: a TCP clone is pushed into in place (its header is not
 * cloned); when (len + 8) % maxpacket == 0 usbnet's pad byte then goes into
 * the tailroom of the buffer the queued original shares: reported, and
 * written (the original's payload is untouched). A shared skb with short
 * headroom reaches pskb_expand_head(), which BUG()s: NULL, dropped. */
static void test_ax88179(void **state)
{
	struct fx *f = *state;
	uint8_t data[600];
	struct km_skb *keep, *skb;

	assert_int_equal(f->dev->net->needed_headroom, 8);
	keep = NULL;
	skb = pair(f, 64, 504, true, data, &keep);
	assert_int_equal(km_usbnet_start_xmit(f->dev, skb), 0);
	assert_int_equal(f->dev->last_urb_len, 513);
	assert_int_equal(f->last_len, 504);
	assert_memory_equal(f->last, data, 504);
	assert_int_equal(km_report_count(f->m, KM_R_SKB_WRITE_CLONED), 1);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 1);
	assert_memory_equal(keep->data, data, 504);
	km_kfree_skb(keep);
	km_reports_clear(f->m);
	/* shared, headroom 4 < 8 */
	skb = exact(f, 4, 100, 16, data);
	km_skb_get(skb);
	assert_int_equal(km_usbnet_start_xmit(f->dev, skb), 0);
	assert_int_equal(km_report_count(f->m, KM_R_SKB_EXPAND_SHARED), 1);
	assert_int_equal(f->dev->tx_fixup_null, 1);
	assert_int_equal(f->dev->net->tx_dropped, 1);	/* mainline: not MULTI_PACKET */
	assert_int_equal(skb->users, 1);
	km_kfree_skb(skb);
	km_reports_clear(f->m);
}

struct split_rx {
	unsigned int frames;
	size_t len;
	uint8_t frame[64];
};

static void split_rx_frame(void *arg, const uint8_t *frame, size_t len)
{
	struct split_rx *r = arg;

	r->frames++;
	r->len = len;
	memcpy(r->frame, frame, MIN(len, sizeof(r->frame)));
}

/* The device models parse a stream that may split anywhere (the model's
 * policy: kmodel/usb.h): the AX88179A's 8-byte header (tx_hdr1 the length,
 * tx_hdr2 no MSS and no padding bits) and the AX88772's 4-byte one (length
 * and complement), each arriving 3 bytes per packet, then the 60-byte frame
 * in one: the frame is delivered once, whole. */
static void test_dev_header_split(void **state)
{
	static const struct km_usbnet_variant *const vs[] = { &km_ax88179, &km_asix_after };

	for (size_t i = 0; i < G_N_ELEMENTS(vs); i++) {
		size_t hl = vs[i] == &km_ax88179 ? 8 : 4;
		uint8_t buf[8 + 60];
		struct split_rx r = { 0 };
		struct km_usbnet_dev d;
		struct km_machine *m;

		assert_int_equal(km_machine_new(NULL, &m), 0);
		assert_int_equal(vs[i]->dev_new(m, split_rx_frame, &r, &d), 0);
		memset(buf, 0, sizeof(buf));
		buf[0] = 60;				/* length 60, little-endian */
		if (hl == 4) {
			buf[2] = (uint8_t)~60u;		/* its complement in 11 bits */
			buf[3] = 0x07;
		}
		pattern(buf + hl, 60, 60);
		for (size_t off = 0; off < hl; off += 3)
			d.sink.packet(d.sink.priv, buf + off, MIN((size_t)3, hl - off), false);
		assert_int_equal(r.frames, 0);
		d.sink.packet(d.sink.priv, buf + hl, 60, true);
		if (r.frames != 1 || r.len != 60)
			fail_msg("%s: %u frames, the last of %zu bytes", vs[i]->name, r.frames, r.len);
		assert_memory_equal(r.frame, buf + hl, 60);
		km_usbnet_dev_free(&d);
		assert_int_equal(km_machine_destroy(m), 0);
	}
}

/* one AX88772 bulk-in frame: the 4-byte header (length, its complement),
 * the frame, a pad byte to an even length */
static size_t ax_frame(uint8_t *p, size_t size, bool good_complement)
{
	uint32_t h = (uint32_t)size | (uint32_t)((good_complement ? ~size : size) & 0x07ff) << 16;

	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(h >> (8 * i));
	pattern(p + 4, size, (unsigned int)size);
	if (size & 1)
		p[4 + size] = 0;
	return 4 + ((size + 1) & ~(size_t)1);
}

/* One bulk-in transfer through km_usbnet_rx(), named, of the frames
 * @sizes (0-terminated; a negative size: a wrong complement), cut @cut
 * bytes short: what it returns and the events it makes, -1 where not
 * checked */
struct rx_row {
	const char *name;
	int sizes[3];
	size_t cut;
	int rc;
	long skb_allocs, skb_clones, skb_frees, memcpy_calls, memcpy_bytes;
	long pages_allocated, get_page_calls, put_page_calls, pages_freed;
	long usb_in_packets, usb_in_zlps, eth_rx_frames;
};

static const char *const rx_row_events[] = {
	"skb_allocs", "skb_clones", "skb_frees", "memcpy_calls", "memcpy_bytes",
	"pages_allocated", "get_page_calls", "put_page_calls", "pages_freed",
	"usb_in_packets", "usb_in_zlps", "eth_rx_frames",
};

static void rx_rows(struct fx *f, const struct rx_row *rows, size_t n_rows)
{
	uint8_t buf[KM_USBNET_RX_URB_SIZE];
	struct km_events ev;

	/* netdev_err()'s lines of the bad transfers, expected */
	km_printk_set_quiet(f->m, true);
	for (size_t i = 0; i < n_rows; i++) {
		const struct rx_row *r = &rows[i];
		const long want[] = { r->skb_allocs, r->skb_clones, r->skb_frees, r->memcpy_calls,
				      r->memcpy_bytes, r->pages_allocated, r->get_page_calls,
				      r->put_page_calls, r->pages_freed, r->usb_in_packets,
				      r->usb_in_zlps, r->eth_rx_frames };
		size_t n = 0;
		int rc;

		for (int k = 0; k < 3 && r->sizes[k]; k++)
			n += ax_frame(buf + n, (size_t)abs(r->sizes[k]), r->sizes[k] > 0);
		km_events_reset(f->m);
		rc = km_usbnet_rx(f->dev, buf, n - r->cut);
		if (rc != r->rc)
			fail_msg("%s: returned %d, expected %d", r->name, rc, r->rc);
		km_events_get(f->m, &ev);
		{
			const uint64_t got[] = { ev.skb_allocs, ev.skb_clones, ev.skb_frees,
						 ev.memcpy_calls, ev.memcpy_bytes, ev.pages_allocated,
						 ev.get_page_calls, ev.put_page_calls, ev.pages_freed,
						 ev.usb_in_packets, ev.usb_in_zlps, ev.eth_rx_frames };

			for (size_t k = 0; k < G_N_ELEMENTS(want); k++)
				if (want[k] >= 0 && got[k] != (uint64_t)want[k])
					fail_msg("%s: %s is %" PRIu64 ", expected %ld", r->name,
						 rx_row_events[k], got[k], want[k]);
		}
		assert_int_equal(ev.urb_allocs, 0);	/* the URB resubmitted */
	}
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}

/* the device's first transfer: no URB to be had fails and leaks
 * nothing; then usb_alloc_urb() (the 124-byte ARM struct urb,
 * kmalloc-128), which rx_complete() resubmits with the next skb */
static void rx_first_urb(struct fx *f)
{
	uint8_t buf[KM_USBNET_RX_URB_SIZE];
	size_t n = ax_frame(buf, 66, true);
	struct km_events ev;

	km_fault_fail_kmalloc_nth(f->m, 1);
	assert_int_equal(km_usbnet_rx(f->dev, buf, n), -ENOMEM);
	km_fault_fail_kmalloc_nth(f->m, 0);
	km_events_reset(f->m);
	assert_int_equal(km_usbnet_rx(f->dev, buf, n), 1);
	km_events_get(f->m, &ev);
	assert_int_equal(ev.urb_allocs, 1);
	assert_int_equal(ev.urbs, 1);
	assert_int_equal(ev.kmalloc_calls, 1);
	assert_int_equal(ev.kmalloc_class[7], 1);	/* 124 bytes: kmalloc-128 */
	assert_int_equal(ev.kfree_calls, 0);		/* resubmitted, not freed */
	assert_int_equal(ev.usb_in_bytes, 70);
	assert_int_equal(ev.eth_rx_bytes, 66);
	assert_int_equal(km_usbnet_rx(f->dev, buf, KM_USBNET_RX_URB_SIZE + 1), -EINVAL);
	assert_int_equal(km_usbnet_rx(NULL, buf, 70), -EINVAL);
}

/*
 * The receive path the ACKs take on a v3.5 device (usbnet.c rx_submit(),
 * rx_complete(), rx_process() of v3.5, as KFire-Android/kernel_omap_otter-
 * common 2ac15b22 has them, and asix_rx_fixup() of v3.5 with ax88772_info's
 * FLAG_MULTI_PACKET, as New-B/Linux3.6 b5154d3e5bc2 keeps them): per
 * bulk-in transfer one skb on a page fragment (v3.5 netdev_alloc_frag(): a
 * fragment of SKB_DATA_ALIGN(2048 + 64 + 2) + 192 = 2368 bytes, no
 * kmalloc), then per frame a copy: netdev_alloc_skb_ip_align(size), a
 * fragment of SKB_DATA_ALIGN(size + 2 + 64) + 192 from the same page cache
 * (a head from skbuff_head_cache: build_skb()), memcpy() of the frame,
 * usbnet_skb_return(); rx_process() then frees the URB's skb
 * (dev_kfree_skb_any() under FLAG_MULTI_PACKET), the stack the copies;
 * each skb's free drops its fragment's page reference, the fragment cache
 * its own when the next fragment does not fit. The packets a transfer
 * takes (a short one or a ZLP ends it).
 */
static const struct rx_row v3_5_rows[] = {
	/* the cache's page from the first transfer: 2752 + 2368 > 4096, so
	 * the URB's fragment takes a new page (the old one's last reference
	 * dropped: freed); 2368 + SKB_DATA_ALIGN(66 + 2 + 64) + 192 = 2752 */
	{ "ACK", { 66 }, 0, 1, 2, 0, 2, 1, 66, 1, 2, 3, 1, 1, 0, 1 },
	/* two frames, the odd one padded: each copied, 2368 + 320 + 320 */
	{ "two frames", { 60, 61 }, 0, 2, 3, 0, 3, 2, 121, 1, 3, 4, 1, 1, 0, 2 },
	/* v3.5 returns 0 on a wrong complement ("Bad Header Length"):
	 * nothing up, the URB's skb freed */
	{ "bad header", { -66 }, 0, -EPROTO, 1, 0, 1, 0, 0, -1, -1, -1, -1, 1, 0, 0 },
	/* a transfer of exactly maxpacket bytes ends with a ZLP */
	{ "ZLP", { 508 }, 0, 1, 2, 0, 2, 1, 508, -1, -1, -1, -1, 2, 1, 1 },
	/* the bound is mtu + ETH_HLEN + VLAN_HLEN: 1518 passes, 1519 is
	 * "Bad RX Length" after the frames before it went up */
	{ "1518", { 1518 }, 0, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1 },
	{ "1519 second", { 66, 1519 }, 0, -EPROTO, 2, 0, 2, 1, 66, -1, -1, -1, -1, -1, -1, 1 },
	/* a frame running past the transfer */
	{ "cut", { 100 }, 10, -EPROTO, 1, 0, 1, 0, 0, -1, -1, -1, -1, -1, -1, 0 },
};

static void test_usbnet_rx(void **state)
{
	struct fx *f = *state;

	km_printk_set_quiet(f->m, true);
	rx_first_urb(f);
	rx_rows(f, v3_5_rows, G_N_ELEMENTS(v3_5_rows));
}

/* A v3.5 variant without a receive side of its own (after: its
 * driver_info has no rx_fixup) takes the same v3.5 text: the patch changed
 * asix_tx_fixup() only */
static void test_usbnet_rx_v3_5_tx_only(void **state)
{
	struct fx *f = *state;

	assert_null(f->dev->driver_info->rx_fixup);
	km_printk_set_quiet(f->m, true);
	rx_first_urb(f);
	rx_rows(f, v3_5_rows, G_N_ELEMENTS(v3_5_rows));
}

/*
 * A mainline-era device keeps the cost model of the asix rx text before
 * a9e0aca4b378: all frames but the last cloned, the last the URB's skb
 * passed up; a header whose complement is wrong only logged; a frame
 * bounded by mtu + 14. Its URB's skb is a fragment of 2368 bytes, a page
 * each (2368 + 2368 > 4096).
 */
static const struct rx_row mainline_rows[] = {
	{ "ACK", { 66 }, 0, 1, 1, 0, 1, 0, 0, 1, 1, 2, 1, 1, 0, 1 },
	{ "two frames", { 60, 61 }, 0, 2, 1, 1, 2, 0, 0, 1, 1, 2, 1, 1, 0, 2 },
	{ "bad header", { -66 }, 0, 1, 1, 0, 1, 0, 0, -1, -1, -1, -1, -1, -1, 1 },
	{ "ZLP", { 508 }, 0, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 1, 1 },
	{ "1515 first", { 1515, 10 }, 0, -EPROTO, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0 },
	{ "cut", { 100 }, 10, -EPROTO, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0 },
};

static void test_usbnet_rx_mainline(void **state)
{
	struct fx *f = *state;
	uint8_t buf[KM_USBNET_RX_URB_SIZE];
	size_t n = ax_frame(buf, 66, true);
	struct km_events ev;

	rx_first_urb(f);
	rx_rows(f, mainline_rows, G_N_ELEMENTS(mainline_rows));
	/* the URB resubmitted, the skb a page fragment: no kmalloc to fail */
	km_events_reset(f->m);
	km_fault_fail_kmalloc_nth(f->m, 1);
	assert_int_equal(km_usbnet_rx(f->dev, buf, n), 1);
	km_fault_fail_kmalloc_nth(f->m, 0);
	km_events_get(f->m, &ev);
	assert_int_equal(ev.urb_allocs, 0);
}

/* usbnet_start_xmit() allocates an URB per packet after the fixup (the ARM
 * struct urb) and frees it at completion; without one the packet drops */
static void test_usbnet_tx_urb(void **state)
{
	struct fx *f = *state;
	uint8_t data[100];
	struct km_events ev;
	struct km_skb *skb;

	skb = mk(f, 8, 100, 8, data);
	km_events_reset(f->m);
	assert_int_equal(km_usbnet_start_xmit(f->dev, skb), 0);
	km_events_get(f->m, &ev);
	assert_int_equal(ev.urb_allocs, 1);
	assert_int_equal(ev.urbs, 1);
	assert_int_equal(ev.kmalloc_class[7], 1);
	assert_int_equal(ev.kfree_calls, 2);		/* the URB and the skb's data */
	assert_int_equal(f->frames, 1);
	skb = mk(f, 8, 100, 8, data);
	km_fault_fail_kmalloc_nth(f->m, 1);		/* the fixup allocates nothing */
	assert_int_equal(km_usbnet_start_xmit(f->dev, skb), 0);
	assert_int_equal(f->dev->net->tx_dropped, 1);
	assert_int_equal(f->frames, 1);
}

/* ---- a device described by its framing (km_framing_dev_new()) -------------- */

struct framed_got {
	size_t n;
	size_t len[8];
	uint8_t first[8];
};

static void on_framed(void *arg, const uint8_t *frame, size_t len)
{
	struct framed_got *g = arg;

	if (g->n < 8) {
		g->len[g->n] = len;
		g->first[g->n] = len ? frame[0] : 0;
	}
	g->n++;
}

/* A 2-byte length before each frame, spans padded to 4: what the parser
 * delivers, skips and reports, transfer by transfer (the rules
 * km_framing_dev_new() documents). */
static void test_framing_dev(void **state)
{
	static const struct km_framing f2 = {
		.kind = KM_FRAMING_LENGTH, .hdr_bytes = 2, .len_bits = 16, .align = 4,
		.max_frame = 1518,
	};
	static const struct {
		const char *name;
		uint8_t bytes[16];
		size_t len;
		size_t frames, truncated, oversized;	/* after this transfer, in all */
	} rows[] = {
		/* len 3 (span 5, padded to 8), then len 1 (span 3, pad 1 at the end) */
		{ "two frames, pads skipped", { 3, 0, 0xa, 0xb, 0xc, 0xee, 0xee, 0xee, 1, 0, 0xd, 0xee },
		  12, 2, 0, 0 },
		{ "a zero length is an empty frame", { 0, 0, 0xee, 0xee }, 4, 3, 0, 0 },
		{ "the last pad may be left out", { 1, 0, 0xe }, 3, 4, 0, 0 },
		{ "an empty frame ends the transfer", { 0, 0 }, 2, 5, 0, 0 },
		{ "ends inside a frame", { 5, 0, 1, 2 }, 4, 5, 1, 0 },
		{ "ends inside the word", { 1, 0, 0xf, 0xee, 7 }, 5, 6, 2, 0 },
	};
	struct km_machine *m = *state;	/* setup_machine() */
	struct km_usbnet_dev d;
	struct km_usbnet_dev_stats st;
	struct framed_got got = { 0 };

	assert_int_equal(km_framing_dev_new(m, &f2, on_framed, &got, &d), 0);
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		km_usbnet_dev_get_stats(&d, &st);
		d.sink.packet(d.sink.priv, rows[i].bytes, rows[i].len, true);
		km_usbnet_dev_get_stats(&d, &st);
		if (st.frames != rows[i].frames || st.truncated != rows[i].truncated ||
		    st.oversized != rows[i].oversized)
			fail_msg("%s: frames %" PRIu64 " truncated %" PRIu64 " oversized %" PRIu64,
				 rows[i].name, st.frames, st.truncated, st.oversized);
	}
	{	/* longer than max_frame: consumed and dropped */
		uint8_t big[2 + 1520] = { 1520 & 0xff, 1520 >> 8 };

		d.sink.packet(d.sink.priv, big, sizeof(big), true);
		km_usbnet_dev_get_stats(&d, &st);
		assert_int_equal(st.oversized, 1);
		assert_int_equal(st.frames, 6);
		assert_int_equal(st.truncated, 2);
	}
	assert_int_equal(got.n, 6);
	assert_int_equal(got.len[0], 3);
	assert_int_equal(got.first[0], 0xa);
	assert_int_equal(got.len[1], 1);
	assert_int_equal(got.first[1], 0xd);
	assert_int_equal(got.len[2], 0);
	assert_int_equal(got.len[3], 1);
	assert_int_equal(got.first[3], 0xe);
	assert_int_equal(got.len[4], 0);
	assert_int_equal(got.first[5], 0xf);
	assert_int_equal(st.transfers, G_N_ELEMENTS(rows) + 1);
	assert_int_equal(km_report_count(m, KM_R_USB_PROTOCOL), 2);
	assert_int_equal(km_report_count(m, KM_R_USB_FRAME_DROPPED), 1);
	assert_int_equal(km_usbnet_dev_wire_bits_per_s(&d), 0);	/* not known */
	km_usbnet_dev_free(&d);
	km_reports_clear(m);
}

/* The same parser with an inverted copy (the AX88772's word, no alignment):
 * a word whose copy disagrees is a protocol error and the rest of the
 * transfer is discarded; a zero length is an empty frame, not a pad word
 * (only the AX88772's own device, km_asix_dev_new(), skips 0xffff0000);
 * and what the parser cannot read is -EINVAL. */
static void test_framing_dev_inverted(void **state)
{
	struct km_framing f = *km_framing_ax88772();
	const uint8_t bytes[] = { 0x00, 0x00, 0xff, 0xff,		/* len 0 */
				  0x02, 0x00, 0xfd, 0xff, 7, 8,		/* len 2 */
				  0x02, 0x00, 0xfc, 0xff, 7, 8 };	/* copy off */
	struct km_machine *m = *state;	/* setup_machine() */
	struct km_usbnet_dev d;
	struct km_usbnet_dev_stats st;
	struct framed_got got = { 0 };

	f.align = 0;
	assert_int_equal(km_framing_dev_new(m, &f, on_framed, &got, &d), 0);
	d.sink.packet(d.sink.priv, bytes, sizeof(bytes), true);
	km_usbnet_dev_get_stats(&d, &st);
	assert_int_equal(st.frames, 2);
	assert_int_equal(st.pad_words, 0);
	assert_int_equal(st.bad_headers, 1);
	assert_int_equal(got.len[0], 0);
	assert_int_equal(got.len[1], 2);
	assert_int_equal(km_report_count(m, KM_R_USB_PROTOCOL), 1);
	km_usbnet_dev_free(&d);
	{	/* what the bulk-out parser cannot read */
		struct km_framing bad[4] = { *km_framing_ax88179(), f, f, f };

		bad[1].suffix = true;
		bad[2].hdr_bytes = 2;		/* an inverted copy needs 4 */
		bad[3].len_bits = 17;
		for (size_t i = 0; i < G_N_ELEMENTS(bad); i++)
			assert_int_equal(km_framing_dev_new(m, &bad[i], NULL, NULL, &d), -EINVAL);
		assert_int_equal(km_framing_dev_new(m, NULL, NULL, NULL, &d), -EINVAL);
		assert_int_equal(km_framing_dev_new(NULL, &f, NULL, NULL, &d), -EINVAL);
	}
	km_reports_clear(m);
}

/* A variant with a framing and no dev_new is complete: its device is the
 * framing's parser, and its tx frames are compared allowing the framing's
 * trailing pad. A variant with neither is refused. */
static void test_variant_of_a_framing(void **state)
{
	static const struct km_framing f2 = {
		.kind = KM_FRAMING_LENGTH, .hdr_bytes = 2, .len_bits = 16, .trailing_pad = 1,
		.max_frame = 1518,
	};
	struct km_usbnet_variant v = *km_usbnet_find("before");	/* framed, a device of its own */
	struct km_machine *m = *state;	/* setup_machine() */
	struct km_usbnet_dev d;
	const uint8_t xfer[] = { 1, 0, 0x42 };
	struct framed_got got = { 0 };

	v.size = KM_USBNET_VARIANT_SIZE;
	assert_ptr_equal(km_usbnet_variant_tx_framing(&v), NULL);	/* its own device */
	v.dev_new = NULL;
	v.framing = &f2;
	assert_int_equal(km_usbnet_variant_check(&v), 0);
	assert_ptr_equal(km_usbnet_variant_tx_framing(&v), &f2);
	assert_int_equal(km_usbnet_variant_dev_new(&v, m, on_framed, &got, &d), 0);
	d.sink.packet(d.sink.priv, xfer, sizeof(xfer), true);
	assert_int_equal(got.n, 1);
	assert_int_equal(got.first[0], 0x42);
	km_usbnet_dev_free(&d);
	v.framing = km_framing_ax88179();	/* no length before each frame */
	assert_int_equal(km_usbnet_variant_check(&v), 0);	/* a receive side only */
	assert_false(km_usbnet_variant_has_tx_dev(&v));
	assert_int_equal(km_usbnet_variant_dev_new(&v, m, on_framed, &got, &d), -EINVAL);
	v.framing = NULL;
	assert_int_equal(km_usbnet_variant_check(&v), -EINVAL);
	assert_int_equal(km_usbnet_variant_dev_new(NULL, m, on_framed, &got, &d), -EINVAL);
}

#define FX(fn, row) cmocka_unit_test_prestate_setup_teardown(fn, fx_setup, fx_teardown, \
							       (void *)&(row))
#define MACHINE(fn) cmocka_unit_test_setup_teardown(fn, setup_machine, teardown_machine)

int main(void)
{
	const struct CMUnitTest fixed[] = {
		MACHINE(test_probe_and_bind),
		MACHINE(test_probe_maxpacket_after_bind),
		cmocka_unit_test(test_variant_table),
		MACHINE(test_usbnet_length_rules),
		MACHINE(test_bulk_segmentation),
		MACHINE(test_device_errors),
		cmocka_unit_test(test_traffic),
		FX(test_xmit_foreign_skb, after_512),
		cmocka_unit_test(test_verbatim_markers),
		MACHINE(test_usbnet_pad_byte_on_clone),
		FX(test_device_oversized, after_512),
		MACHINE(test_device_11bit_header),
		FX(test_fixup_room_boundaries, after_512),
		FX(test_fixup_room_boundaries_before, before_512),
		FX(test_non_power_of_two_maxpacket, after_64),
		MACHINE(test_probe_speed_rules),
		cmocka_unit_test(test_wire_all_variants),
		FX(test_mainline_keeps_the_flaw, mainline_512),
		FX(test_hardened, hardened_512),
		FX(test_hardened_modulo, hardened_64),
		FX(test_sr9800_pad_modulus, sr9800_512),
		FX(test_ax88179, ax88179_512),
		cmocka_unit_test(test_dev_header_split),
		FX(test_mainline_tx_stats, mainline_512),
		FX(test_ax88179_no_tso, ax88179_512),
		MACHINE(test_ax88179_parser_policy),
		FX(test_sr9800_maxpacket_1_div0, sr9800_1),
		cmocka_unit_test(test_tcp_retransmit),
		cmocka_unit_test(test_retransmit_after_memmove),
		cmocka_unit_test(test_forwarding),
		cmocka_unit_test(test_pktgen_shared),
		FX(test_usbnet_rx, before_512),
		FX(test_usbnet_rx_v3_5_tx_only, after_512),
		FX(test_usbnet_rx_mainline, mainline_512),
		FX(test_usbnet_tx_urb, after_512),
		MACHINE(test_framing_dev),
		MACHINE(test_framing_dev_inverted),
		MACHINE(test_variant_of_a_framing),
	};
	GArray *rows = km_test_new_group();

	KM_TEST_ROWS(rows, test_sweep, fx_setup, fx_teardown, sweep_rows);
	KM_TEST_ROWS(rows, test_xmit_sweep, fx_setup, fx_teardown, sweep_rows);
	KM_TEST_ROWS(rows, test_matrix_private, fx_setup, fx_teardown, before_after_512);
	KM_TEST_ROWS(rows, test_matrix_clones, fx_setup, fx_teardown, before_after_512);
	KM_TEST_ROWS(rows, test_after_memmove_on_clone, fx_setup, fx_teardown, before_after_512);
	KM_TEST_ROWS(rows, test_copy_failure, fx_setup, fx_teardown, before_after_512);
	KM_TEST_ROWS(rows, test_transfer_equals_packets, fx_setup, fx_teardown, transfer_rows);
	KM_TEST_CASES(tests, fixed, rows);

	return cmocka_run_group_tests_name("test_asix", tests, NULL, NULL);
}
