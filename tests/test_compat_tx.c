// SPDX-License-Identifier: GPL-2.0
/*
 * compat_tx: usbnet tx_fixups of v3.6 (smsc95xx, dm9601, int51x1; New-B/Linux3.6
 * b5154d3e5bc2) ported unchanged through the compatibility layer
 * (tests/compat/tx_body.h at 3.6 and 5.7), and the names those
 * drivers need from the layer: ip_summed/csum_start/csum_offset,
 * csum_partial(), csum_fold(),
 * nr_frags, ALIGN(), roundup(), BIT(), skb_cow(), kmemdup(), netdev_*(),
 * dev_err(), hard_mtu, module_init(), request_module(). Expected values
 * come from the drivers' source, RFC 1071 and include/linux/kernel.h.
 */
#include "km_test.h"
#include "compat/tx.h"
#include <errno.h>
#include <string.h>

#define KV(a, b) (((a) << 16) + ((b) << 8))

/* Each case runs on both ports of the drivers: a row per kernel. */
static const struct tx_row {
	const char *name;
	const struct tx_ops *o;
} txs[] = {
	{ "3.6", &tx_v3_6 },
	{ "5.7", &tx_v5_7 },
};

/* a row of a table for each port, named "3.6, @name" and "5.7, @name" */
#define TX_ROWS(name, ...) { "3.6, " name, &tx_v3_6, __VA_ARGS__ }, \
			   { "5.7, " name, &tx_v5_7, __VA_ARGS__ }

/* RFC 1071 by the book: the ones' complement sum of big-endian 16-bit
 * words, complemented (an independent oracle for csum_fold(csum_partial())) */
static uint16_t rfc1071(const uint8_t *p, size_t n)
{
	uint32_t s = 0;

	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_shims(void **state)
{
	/* the IPv4 header of RFC 791's example as Wikipedia's "IPv4 header
	 * checksum" gives it: checksum b861 */
	static const uint8_t ip[20] = { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
					0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7 };
	/* RFC 1071 section 3's example bytes: sum ddf2, checksum 220d */
	static const uint8_t rfc[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
	const struct tx_ops *o = ((const struct tx_row *)*state)->o;	/* a row of txs[] */
	uint8_t buf[64] __attribute__((aligned(8)));
	uint16_t c;

	c = o->csum_fold(o->csum_partial(ip, sizeof(ip), 0));
	assert_memory_equal(&c, "\xb8\x61", 2);	/* stored as the wire has it */
	c = o->csum_fold(o->csum_partial(rfc, sizeof(rfc), 0));
	assert_memory_equal(&c, "\x22\x0d", 2);
	/* every alignment and odd length (the odd-address byte swap) */
	for (size_t off = 0; off < 4; off++)
		for (size_t n = 0; n <= 41; n++) {
			uint8_t want[2];
			uint16_t r = rfc1071(ip, n < 20 ? n : 20);

			memset(buf, 0, sizeof(buf));
			memcpy(buf + off, ip, n < 20 ? n : 20);
			c = o->csum_fold(o->csum_partial(buf + off, (int)(n < 20 ? n : 20), 0));
			want[0] = r >> 8;
			want[1] = r & 0xff;
			assert_memory_equal(&c, want, 2);
		}
	/* csum_fold(): 0x5678 + 0x1234 = 0x68ac, complemented; a carry
	 * out of the first fold is folded again */
	assert_int_equal(o->csum_fold(0x12345678), 0x9753);
	assert_int_equal(o->csum_fold(0xffffffff), 0x0000);
	assert_int_equal(o->csum_fold(0x0001ffff), 0xfffe);
	/* csum_partial() adds the old sum with end-around carry:
	 * 0xffffffff is ones' complement -0, adding it changes nothing */
	assert_int_equal(o->csum_partial(buf, 0, 0xffffffff), 0xffffffff);
	assert_int_equal(o->csum_partial(ip, sizeof(ip), 0xffffffff),
			 o->csum_partial(ip, sizeof(ip), 0));
	/* ALIGN(), IS_ALIGNED(), roundup(), BIT() */
	assert_int_equal(o->align(13, 8), 16);
	assert_int_equal(o->align(16, 8), 16);
	assert_int_equal(o->align(0, 64), 0);
	assert_true(o->is_aligned(16, 8));
	assert_false(o->is_aligned(13, 4));
	assert_int_equal(o->roundup(13, 5), 15);
	assert_int_equal(o->roundup(15, 5), 15);
	assert_int_equal(o->roundup(0, 3), 0);
	assert_int_equal(o->bit(0), 1);
	assert_int_equal(o->bit(31), 0x80000000ul);
	/* request_module(): no module loader, -ENOSYS (!CONFIG_MODULES);
	 * module_init()'s function is the driver's */
	assert_int_equal(o->request_module("smsc95xx"), -ENOSYS);
	assert_int_equal(o->init_called(), 42);
	assert_true(o->version >= KV(3, 6));
}

/* the names of later kernels only */
static void test_later_names(void **state)
{
	assert_null(tx_v3_6.dev_consume_skb_any);
	assert_null(tx_v3_6.skb_put_u8);
	assert_non_null(tx_v5_7.dev_consume_skb_any);
	assert_non_null(tx_v5_7.skb_put_u8);
}

/* an skb of @len payload bytes (0, 1, 2, ...) after @headroom bytes, in a
 * buffer of at least @extra bytes more */
static struct km_skb *frame_room(struct km_fixture *f, unsigned int headroom, unsigned int len,
				 unsigned int extra)
{
	struct km_skb *skb = km_alloc_skb(f->t, headroom + len + extra, KM_GFP_ATOMIC);

	assert_non_null(skb);
	km_skb_reserve(skb, (int)headroom);
	for (unsigned int i = 0; i < len; i++)
		km_skb_put(skb, 1)[0] = (unsigned char)i;
	return skb;
}

static struct km_skb *frame(struct km_fixture *f, unsigned int headroom, unsigned int len)
{
	return frame_room(f, headroom, len, 0);
}

static void payload_intact(const unsigned char *p, unsigned int len, unsigned int skip_from,
			   unsigned int skip_len)
{
	for (unsigned int i = 0; i < len; i++)
		if (i < skip_from || i >= skip_from + skip_len)
			assert_int_equal(p[i], (unsigned char)i);
}

/* a CHECKSUM_PARTIAL frame: the checksum from byte 34 (after Ethernet and
 * IPv4 headers), stored at 34 + @csum_offset */
static struct km_skb *partial(struct km_fixture *f, unsigned int headroom, unsigned int len,
			      uint16_t csum_offset)
{
	struct km_skb *skb = frame(f, headroom, len);

	skb->ip_summed = KM_CHECKSUM_PARTIAL;
	skb->csum_start = (uint16_t)(headroom + 34);
	skb->csum_offset = csum_offset;
	return skb;
}

static struct km_usbnet *probe(struct km_fixture *f)
{
	struct km_usbnet *dev;

	assert_int_equal(km_usbnet_probe(f->m, &km_asix_after, KM_USB_SPEED_HIGH, 512, NULL, &dev),
			 0);
	return dev;
}

/* no BUG report, no skb left, then the usbnet goes (the machine with
 * the fixture's teardown) */
static void done(struct km_fixture *f, struct km_usbnet *dev)
{
	size_t skbs, bufs;

	assert_int_equal(km_report_count(f->m, KM_R_BUG_ON), 0);
	km_skb_live(f->m, &skbs, &bufs);
	assert_int_equal(skbs, 0);
	assert_int_equal(bufs, 0);
	km_usbnet_free(dev);
}

/*
 * smsc95xx_tx_fixup() (v3.6): TX_CMD_A = (len | FIRST_SEG | LAST_SEG) and
 * TX_CMD_B = len, little-endian, before the frame; with CHECKSUM_PARTIAL a
 * 4-byte preamble (csum start and csum start + offset from skb->data)
 * and TX_CMD_B_CSUM_ENABLE, or, for a frame of 45 bytes or less, the
 * checksum filled in by software and no offload. A frame with too little
 * headroom is copied by skb_copy_expand(), which must carry ip_summed and
 * move csum_start (net/core/skbuff.c v3.6).
 */
static const struct smsc_row {
	const char *name;
	const struct tx_ops *o;
	unsigned int headroom;
} smsc_rows[] = {
	TX_ROWS("headroom 2", 2),
	TX_ROWS("headroom 16", 16),
};

static void test_smsc95xx_tx_fixup(void **state)
{
	const struct smsc_row *row = km_row(state);	/* km_row_setup() */
	const struct tx_ops *o = row->o;
	unsigned int headroom = row->headroom;
	struct km_fixture f = *(struct km_fixture *)*state;
	struct km_usbnet *dev = probe(&f);
	struct km_skb *skb, *out;

	/* CHECKSUM_NONE, what the model's senders produce */
	skb = frame(&f, headroom, 60);
	assert_int_equal(skb->ip_summed, KM_CHECKSUM_NONE);
	assert_int_equal(o->nr_frags(skb), 0);
	assert_false(o->is_gso(skb));
	out = o->smsc95xx_tx_fixup(dev, skb, KM_GFP_ATOMIC);
	assert_non_null(out);
	assert_int_equal(out->len, 68);
	assert_int_equal(le32(out->data), 60 | 0x3000);
	assert_int_equal(le32(out->data + 4), 60);
	payload_intact(out->data + 8, 60, 0, 0);
	km_kfree_skb(out);

	/* CHECKSUM_PARTIAL, 100 bytes: the preamble; start 34
	 * (Ethernet + IPv4), offset 16 (TCP's check field) */
	skb = partial(&f, headroom, 100, 16);
	assert_int_equal(o->checksum_start_offset(skb), 34);
	out = o->smsc95xx_tx_fixup(dev, skb, KM_GFP_ATOMIC);
	assert_non_null(out);
	assert_int_equal(out->len, 112);
	assert_int_equal(le32(out->data), 104 | 0x3000);
	assert_int_equal(le32(out->data + 4), 104 | 0x4000);
	assert_int_equal(le32(out->data + 8), (34 + 16) << 16 | 34);
	assert_int_equal(o->checksum_start_offset(out), 34 + 12);
	payload_intact(out->data + 12, 100, 0, 0);
	km_kfree_skb(out);

	/* CHECKSUM_PARTIAL, 42 bytes (a UDP frame, check at
	 * 34 + 6): software checksum, no offload */
	skb = partial(&f, headroom, 42, 6);
	{
		uint8_t want[8];
		uint16_t r;

		memcpy(want, skb->data + 34, 8);
		r = rfc1071(want, 8);
		out = o->smsc95xx_tx_fixup(dev, skb, KM_GFP_ATOMIC);
		assert_non_null(out);
		assert_int_equal(out->len, 50);
		assert_int_equal(le32(out->data), 42 | 0x3000);
		assert_int_equal(le32(out->data + 4), 42);
		assert_int_equal(out->data[8 + 40], r >> 8);
		assert_int_equal(out->data[8 + 41], r & 0xff);
		payload_intact(out->data + 8, 42, 40, 2);
	}
	km_kfree_skb(out);
	done(&f, dev);
}

/* dm9601_tx_fixup() (v3.6): a 2-byte little-endian length before the
 * frame, one more when the pushed frame is a multiple of maxpacket
 * (usbnet's pad byte) */
static const struct dm9601_row {
	const char *name;
	const struct tx_ops *o;
	unsigned int headroom, len, want;
} dm9601_rows[] = {
	TX_ROWS("60 bytes after 2", 2, 60, 60),
	TX_ROWS("60 bytes after 0", 0, 60, 60),
	TX_ROWS("510 bytes after 2: 512, the pad byte", 2, 510, 511),
	TX_ROWS("510 bytes after 0: 512, the pad byte", 0, 510, 511),
	TX_ROWS("511 bytes after 8", 8, 511, 511),
	TX_ROWS("1022 bytes after 2: 1024, the pad byte", 2, 1022, 1023),
};

static void test_dm9601_tx_fixup(void **state)
{
	const struct dm9601_row *row = km_row(state);	/* km_row_setup() */
	const struct tx_ops *o = row->o;
	struct km_fixture f = *(struct km_fixture *)*state;
	struct km_usbnet *dev = probe(&f);
	struct km_skb *skb = frame(&f, row->headroom, row->len);
	struct km_skb *out = o->dm9601_tx_fixup(dev, skb, KM_GFP_ATOMIC);

	assert_non_null(out);
	assert_int_equal(out->len, row->len + 2);
	assert_int_equal(out->data[0] | out->data[1] << 8, row->want);
	payload_intact(out->data + 2, row->len, 0, 0);
	km_kfree_skb(out);
	km_usbnet_free(dev);
}

/* int51x1_tx_fixup() (v3.6): a 2-byte little-endian length, and a frame
 * shorter than maxpacket padded with zeros to maxpacket + 1 (one more
 * byte on an exact multiple: the driver's own ZLP avoidance); the length
 * counts the padding. With room it moves the data in place (memmove())
 * or pushes; a cloned skb or one without room is copied
 * (skb_copy_expand()) and the original left intact */
static const struct int51x1_row {
	const char *name;
	const struct tx_ops *o;
	unsigned int headroom, len, tail, clone, extra;
} int51x1_rows[] = {
	TX_ROWS("62 < 64: pad to 65", 2, 60, 3, 0, 0),
	TX_ROWS("62 < 64: pad to 65 in place", 2, 60, 3, 0, 8),
	TX_ROWS("no headroom: memmove", 0, 60, 3, 0, 8),
	TX_ROWS("no headroom, no padding", 0, 200, 0, 0, 0),
	TX_ROWS("64 % 64 == 0: one byte", 2, 62, 1, 0, 0),
	TX_ROWS("102 bytes: no padding", 2, 100, 0, 0, 0),
	TX_ROWS("cloned: copied", 2, 60, 3, 1, 8),
};

static void test_int51x1_tx_fixup(void **state)
{
	const struct int51x1_row *row = km_row(state);	/* km_row_setup() */
	const struct tx_ops *o = row->o;
	struct km_fixture f = *(struct km_fixture *)*state;
	struct km_usbnet *dev;
	struct km_skb *skb, *clone = NULL, *out;
	bool in_place;

	assert_int_equal(km_usbnet_probe(f.m, &km_asix_after, KM_USB_SPEED_FULL, 64,
					 NULL, &dev), 0);
	skb = frame_room(&f, row->headroom, row->len, row->extra);
	/* the driver's rule: in place when not cloned and head
	 * and tail room hold the header and the padding */
	in_place = !row->clone &&
		   row->headroom + (unsigned int)km_skb_tailroom(skb) >=
		   row->tail + 2;
	if (row->clone)
		clone = km_skb_clone(f.t, skb, KM_GFP_ATOMIC);
	out = o->int51x1_tx_fixup(dev, skb, KM_GFP_ATOMIC);
	assert_non_null(out);
	if (row->extra)	/* room enough by construction */
		assert_true(in_place || row->clone);
	if (in_place) {
		assert_ptr_equal(out, skb);
		if (row->headroom < 2)	/* moved to head + 2, pushed */
			assert_ptr_equal(out->data, out->head);
	} else {
		assert_ptr_not_equal(out, skb);
	}
	assert_int_equal(out->len, 2 + row->len + row->tail);
	assert_int_equal(out->data[0] | out->data[1] << 8,
			 row->len + row->tail);
	payload_intact(out->data + 2, row->len, 0, 0);
	for (unsigned int t = 0; t < row->tail; t++)
		assert_int_equal(out->data[2 + row->len + t], 0);
	km_kfree_skb(out);
	if (clone) {
		payload_intact(clone->data, row->len, 0, 0);
		km_kfree_skb(clone);
	}
	done(&f, dev);
}

/* skb_cow() (v3.6 __skb_cow()): a private head, headroom grown by
 * ALIGN(delta, NET_SKB_PAD); csum_start moves with the head
 * (pskb_expand_head(), v3.6); skb_put_u8() (v4.13); the frees */
static void test_skb_names(void **state)
{
	const struct tx_ops *o = ((const struct tx_row *)km_row(state))->o;	/* km_row_setup() */
	struct km_fixture f = *(struct km_fixture *)*state;
	struct km_skb *skb, *clone;
	unsigned int pad, hr;
	size_t skbs, bufs;
	char *p;

	pad = km_skb_net_pad(f.m);
	skb = frame(&f, 4, 20);
	skb->ip_summed = KM_CHECKSUM_PARTIAL;
	skb->csum_start = 4 + 10;
	skb->csum_offset = 2;
	assert_int_equal(o->cow(skb, 4), 0);		/* nothing to do */
	assert_int_equal(km_skb_headroom(skb), 4);
	assert_int_equal(o->cow(skb, 5), 0);
	hr = km_skb_headroom(skb);
	assert_int_equal(hr, 4 + pad);			/* ALIGN(1, NET_SKB_PAD) */
	assert_int_equal(o->checksum_start_offset(skb), 10);
	assert_int_equal(skb->csum_offset, 2);
	clone = km_skb_clone(f.t, skb, KM_GFP_ATOMIC);
	assert_int_equal(clone->ip_summed, KM_CHECKSUM_PARTIAL);
	assert_int_equal(o->cow(skb, 0), 0);		/* cloned: copied */
	assert_false(km_skb_cloned(skb));
	assert_int_equal(km_skb_headroom(skb), hr);
	assert_int_equal(o->checksum_start_offset(skb), 10);
	payload_intact(skb->data, 20, 0, 0);
	o->dev_kfree_skb_irq(clone);
	if (o->skb_put_u8) {
		o->skb_put_u8(skb, 0xa5);
		assert_int_equal(skb->len, 21);
		assert_int_equal(skb->data[20], 0xa5);
		o->dev_consume_skb_any(skb);
	} else {
		o->dev_kfree_skb_irq(skb);
	}
	km_skb_live(f.m, &skbs, &bufs);
	assert_int_equal(skbs, 0);
	assert_int_equal(bufs, 0);
	p = o->kmemdup("abc", 4);
	assert_string_equal(p, "abc");
	km_kfree(f.t, p);
	assert_int_equal(km_report_count(f.m, KM_R_BUG_ON), 0);
}

/* struct usbnet's hard_mtu (mtu + hard_header_len before bind, as
 * usbnet_probe() v3.6; smsc95xx_bind() adds its 12 bytes) and msg_enable
 * (DRV | PROBE | LINK); netdev_priv(dev->net) is the usbnet; the
 * messages */
static void test_usbnet_names(void **state)
{
	const struct tx_ops *o = ((const struct tx_row *)km_row(state))->o;	/* km_row_setup() */
	struct km_fixture f = *(struct km_fixture *)*state;
	static struct km_logged l;	/* outlives a failed row's handler */
	guint id = g_log_set_handler("kmodel", G_LOG_LEVEL_MASK, km_log_capture, &l);
	struct km_usbnet *dev = probe(&f);

	assert_int_equal(dev->hard_mtu, 1500 + 14);
	assert_int_equal(dev->msg_enable, 0x7);
	assert_ptr_equal(o->netdev_priv(dev->net), dev);
	assert_int_equal(o->smsc95xx_bind(dev), 0);
	assert_int_equal(dev->net->hard_header_len, 14 + 12);
	assert_int_equal(dev->hard_mtu, 1500 + 26);
	memset(&l, 0, sizeof(l));
	assert_int_equal(o->netdev_dbg(dev->net, "quiet"), 0);
	assert_int_equal(o->netif_dbg(dev, "quiet"), 0);
	assert_int_equal(l.n, 0);
	o->netdev_err(dev->net, "bad");
	assert_int_equal(l.n, 1);
	assert_int_equal(l.level, G_LOG_LEVEL_WARNING);
	assert_string_equal(l.text, "(unregistered net_device): bad");
	o->dev_err("worse");
	assert_int_equal(l.n, 2);
	assert_string_equal(l.text, "(NULL device *): worse");
	km_usbnet_free(dev);
	g_log_remove_handler("kmodel", id);
}

int main(void)
{
	GArray *rows = km_test_new_group();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_later_names),
	};

	KM_TEST_ROWS(rows, test_shims, NULL, NULL, txs);
	KM_TEST_ROWS(rows, test_smsc95xx_tx_fixup, km_row_setup, km_fixture_teardown, smsc_rows);
	KM_TEST_ROWS(rows, test_dm9601_tx_fixup, km_row_setup, km_fixture_teardown, dm9601_rows);
	KM_TEST_ROWS(rows, test_int51x1_tx_fixup, km_row_setup, km_fixture_teardown, int51x1_rows);
	KM_TEST_ROWS(rows, test_skb_names, km_row_setup, km_fixture_teardown, txs);
	KM_TEST_ROWS(rows, test_usbnet_names, km_row_setup, km_fixture_teardown, txs);
	KM_TEST_CASES(all, tests, rows);
	return cmocka_run_group_tests_name("test_compat_tx", all, NULL, NULL);
}
