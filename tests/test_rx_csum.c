// SPDX-License-Identifier: GPL-2.0
/*
 * Checksum offload (kmodel/usb.h: km_csum_rx_verdict(),
 * km_framing_encode_csum(), km_usbnet_variant.csum, KM_R_RX_CSUM_UNVERIFIED,
 * KM_R_TX_CSUM_FEATURE): what a device checks, the AX88179's status bits,
 * ax88179_rx_checksum()'s path through the port, and the checkers tripped
 * and not.
 *
 * Expected values: the checksums from RFC 791/793/768 (a test-local
 * RFC 1071 sum, and the IPv4 header of the well-known example whose
 * checksum is 0xb861), the status bits and ip_summed from
 * drivers/net/usb/ax88179_178a.c (torvalds/linux 002bba562dd3:
 * AX_RXHDR_L4_TYPE_MASK 0x1c, _UDP 4, _TCP 16, AX_RXHDR_L3CSUM_ERR 2,
 * AX_RXHDR_L4CSUM_ERR 1; CHECKSUM_UNNECESSARY only for TCP or UDP without
 * an error bit), and asix.c v3.5 (asix_rx_fixup() leaves ip_summed alone:
 * CHECKSUM_NONE as allocated).
 */
#include "km_test.h"
#include <kmodel/usb.h>
#include <kmodel/registry.h>

#define MAX_FRAMES 8

struct fx {
	struct km_fixture k;
	struct km_usbnet *dev;
	const struct km_usbnet_variant *v;
	unsigned int n;
	size_t lens[MAX_FRAMES];
	unsigned char ip_summed[MAX_FRAMES];
};

static void on_skb(void *arg, const uint8_t *frame, size_t len, const struct km_skb *skb)
{
	struct fx *f = arg;

	(void)frame;
	if (f->n < MAX_FRAMES) {
		f->lens[f->n] = len;
		f->ip_summed[f->n] = skb->ip_summed;
	}
	f->n++;
}

static void up(struct fx *f, const struct km_usbnet_variant *v, enum km_usb_speed speed,
	       unsigned int mp)
{
	memset(f, 0, sizeof(*f));
	km_fixture_up(&f->k, NULL);
	f->v = v;
	assert_non_null(v);
	assert_int_equal(km_usbnet_probe(f->k.m, v, speed, mp, NULL, &f->dev), 0);
	km_usbnet_set_rx_skb_sink(f->dev, on_skb, f);
	km_reports_set_log_max(f->k.m, 64);
	km_printk_set_quiet(f->k.m, true);
}

static void down(struct fx *f)
{
	size_t skbs, bufs;

	km_usbnet_free(f->dev);
	km_skb_live(f->k.m, &skbs, &bufs);
	assert_int_equal(skbs, 0);
	assert_int_equal(bufs, 0);
	km_reports_clear(f->k.m);
	km_fixture_down(&f->k);
}

static unsigned long unverified(struct fx *f)
{
	return km_report_count(f->k.m, KM_R_RX_CSUM_UNVERIFIED);
}

/* ---- frames ----------------------------------------------------------------- */

/* RFC 1071, written out on its own: 16-bit big-endian words, odd byte
 * padded with zero, carries folded, complemented */
static uint16_t rfc1071(const uint8_t *p, size_t n, uint32_t sum)
{
	for (size_t i = 0; i < n; i++)
		sum += i & 1 ? p[i] : (uint32_t)p[i] << 8;
	while (sum > 0xffff)
		sum = (sum >> 16) + (sum & 0xffff);
	return (uint16_t)~sum;
}

/* the IPv4 header of the usual worked example: its checksum is 0xb861 */
static const uint8_t ip_example[20] = {
	0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
	0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
};

enum kind { TCP, UDP, UDP_NO_CSUM, ICMP };

/* an Ethernet frame of an IPv4 packet of @proto with @payload bytes, its
 * checksums right; returns its length (@pad: Ethernet pad bytes after) */
static size_t make(uint8_t *fr, enum kind k, size_t payload, size_t pad)
{
	static const uint8_t proto[] = { [TCP] = 6, [UDP] = 17, [UDP_NO_CSUM] = 17, [ICMP] = 1 };
	size_t l4hdr = k == TCP ? 20 : 8, l4len = l4hdr + payload, tot = 20 + l4len;
	uint8_t *ip = fr + 14, *l4 = ip + 20, ph[12];
	uint16_t c;

	memset(fr, 0, 14 + tot + pad);
	memset(fr, 0x02, 12);			/* the MAC addresses */
	fr[12] = 0x08;				/* ETH_P_IP */
	memcpy(ip, ip_example, 20);
	ip[2] = (uint8_t)(tot >> 8);
	ip[3] = (uint8_t)tot;
	ip[9] = proto[k];
	ip[10] = ip[11] = 0;
	c = rfc1071(ip, 20, 0);
	ip[10] = (uint8_t)(c >> 8);
	ip[11] = (uint8_t)c;
	for (size_t i = 0; i < payload; i++)
		l4[l4hdr + i] = (uint8_t)(i * 13 + 5);
	l4[0] = 0x30, l4[1] = 0x39, l4[2] = 0x00, l4[3] = 0x50;	/* ports */
	if (k == TCP)
		l4[12] = 0x50;			/* data offset 5 */
	else if (k != ICMP) {
		l4[4] = (uint8_t)(l4len >> 8);
		l4[5] = (uint8_t)l4len;
	}
	if (k == TCP || k == UDP) {
		memcpy(ph, ip + 12, 8);
		ph[8] = 0, ph[9] = proto[k];
		ph[10] = (uint8_t)(l4len >> 8), ph[11] = (uint8_t)l4len;
		c = rfc1071(l4, l4len, 0xffffu - rfc1071(ph, 12, 0));
		l4[k == TCP ? 16 : 6] = (uint8_t)(c >> 8);
		l4[k == TCP ? 17 : 7] = (uint8_t)c;
	}
	for (size_t i = 0; i < pad; i++)
		fr[14 + tot + i] = 0xa5;
	return 14 + tot + pad;
}

static void test_ip_example_header(void **state)
{
	uint8_t h[20];

	(void)state;
	/* the oracle reproduces the published checksum */
	memcpy(h, ip_example, 20);
	h[10] = h[11] = 0;
	assert_int_equal(rfc1071(h, 20, 0), 0xb861);
}

/* ---- km_csum_rx_verdict() ----------------------------------------------------- */

enum mut { NONE, FLIP_L4, FLIP_TTL, ETHERTYPE_ARP, ETHERTYPE_VLAN, ETHERTYPE_IPV6, MF, FRAG_OFF,
	   TOT_PAST, IHL4, L4_SHORT };

static size_t mutate(uint8_t *fr, size_t len, enum mut m)
{
	uint8_t *ip = fr + 14;

	switch (m) {
	case NONE: break;
	case FLIP_L4: fr[len - 1] ^= 0x01; break;	/* last payload byte */
	case FLIP_TTL: ip[8] ^= 0x01; break;
	case ETHERTYPE_ARP: fr[13] = 0x06; break;
	case ETHERTYPE_VLAN: fr[12] = 0x81; fr[13] = 0x00; break;
	case ETHERTYPE_IPV6: fr[12] = 0x86; fr[13] = 0xdd; break;
	case MF: ip[6] |= 0x20; break;		/* header checksum now wrong too: fixed below */
	case FRAG_OFF: ip[7] = 0x01; break;
	case TOT_PAST: ip[3] += 1; break;
	case IHL4: ip[0] = 0x44; break;
	case L4_SHORT: ip[3] = (uint8_t)(20 + 10); ip[2] = 0; break;	/* 10 bytes of TCP */
	}
	if (m == MF || m == FRAG_OFF || m == TOT_PAST || m == L4_SHORT) {
		uint16_t c;

		ip[10] = ip[11] = 0;		/* keep the header itself right */
		c = rfc1071(ip, 20, 0);
		ip[10] = (uint8_t)(c >> 8);
		ip[11] = (uint8_t)c;
	}
	return len;
}

static void test_csum_verdict(void **state)
{
	static const struct {
		const char *name;
		enum kind k;
		size_t payload, pad;
		enum mut m;
		enum km_csum_verdict want;
		unsigned int proto;
	} rows[] = {
		{ "tcp", TCP, 100, 0, NONE, KM_CSUM_GOOD, 6 },
		{ "tcp_odd_payload", TCP, 101, 0, NONE, KM_CSUM_GOOD, 6 },
		{ "tcp_no_payload", TCP, 0, 0, NONE, KM_CSUM_GOOD, 6 },
		{ "tcp_eth_pad", TCP, 2, 4, NONE, KM_CSUM_GOOD, 6 },	/* 60-byte minimum */
		{ "udp", UDP, 64, 0, NONE, KM_CSUM_GOOD, 17 },
		{ "udp_no_checksum", UDP_NO_CSUM, 64, 0, NONE, KM_CSUM_GOOD, 17 },
		{ "tcp_l4_flipped", TCP, 100, 0, FLIP_L4, KM_CSUM_BAD_L4, 6 },
		{ "udp_l4_flipped", UDP, 33, 0, FLIP_L4, KM_CSUM_BAD_L4, 17 },
		{ "tcp_header_flipped", TCP, 100, 0, FLIP_TTL, KM_CSUM_BAD_L3, 0 },
		{ "icmp_header_flipped", ICMP, 20, 0, FLIP_TTL, KM_CSUM_BAD_L3, 0 },
		{ "icmp", ICMP, 20, 0, NONE, KM_CSUM_UNCHECKED, 0 },
		{ "arp", TCP, 100, 0, ETHERTYPE_ARP, KM_CSUM_UNCHECKED, 0 },
		{ "vlan", TCP, 100, 0, ETHERTYPE_VLAN, KM_CSUM_UNCHECKED, 0 },
		{ "ipv6", TCP, 100, 0, ETHERTYPE_IPV6, KM_CSUM_UNCHECKED, 0 },
		{ "more_fragments", TCP, 100, 0, MF, KM_CSUM_UNCHECKED, 0 },
		{ "fragment_offset", UDP, 100, 0, FRAG_OFF, KM_CSUM_UNCHECKED, 0 },
		{ "tot_len_past_frame", TCP, 100, 0, TOT_PAST, KM_CSUM_UNCHECKED, 0 },
		{ "ihl_4", TCP, 100, 0, IHL4, KM_CSUM_UNCHECKED, 0 },
		{ "tcp_shorter_than_header", TCP, 100, 0, L4_SHORT, KM_CSUM_BAD_L4, 6 },
	};
	uint8_t fr[1600];

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		size_t len = mutate(fr, make(fr, rows[r].k, rows[r].payload, rows[r].pad), rows[r].m);
		unsigned int proto = 99;

		if (km_csum_rx_verdict(fr, len, &proto) != rows[r].want || proto != rows[r].proto)
			fail_msg("%s: verdict %d proto %u, want %d %u", rows[r].name,
				 km_csum_rx_verdict(fr, len, NULL), proto, rows[r].want,
				 rows[r].proto);
	}
	/* a frame one byte short of its IPv4 total length is not checked */
	assert_int_equal(km_csum_rx_verdict(fr, make(fr, TCP, 10, 0) - 1, NULL),
			 KM_CSUM_UNCHECKED);
	assert_int_equal(km_csum_rx_verdict(NULL, 100, NULL), KM_CSUM_UNCHECKED);
	assert_int_equal(km_csum_rx_verdict(fr, 33, NULL), KM_CSUM_UNCHECKED);
}

/* ---- the AX88179's descriptor bits ------------------------------------------- */

/* descriptor i's low 16 bits, of a stream laid out by km_framing_ax88179() */
static uint32_t desc(const uint8_t *s, long len, unsigned int i)
{
	uint32_t rx_hdr = (uint32_t)s[len - 4] | (uint32_t)s[len - 3] << 8 |
			  (uint32_t)s[len - 2] << 16 | (uint32_t)s[len - 1] << 24;
	const uint8_t *d = s + (rx_hdr >> 16) + 8 * i;	/* two descriptors per frame */

	return (uint32_t)d[0] | (uint32_t)d[1] << 8;
}

static void test_ax88179_status_bits(void **state)
{
	static uint8_t fr[6][1600], out[16384], plain[16384];
	const uint8_t *frames[6];
	size_t lens[6];
	/* AX_RXHDR_L4_TYPE_TCP 16, _UDP 4; L4CSUM_ERR 1, L3CSUM_ERR 2 (a bad
	 * header: no L4 type, the protocol field not trusted) */
	static const uint32_t want[6] = { 16, 4, 16 | 1, 2, 0, 0 };
	long n, p;

	(void)state;
	lens[0] = make(fr[0], TCP, 100, 0);
	lens[1] = make(fr[1], UDP, 50, 0);
	lens[2] = mutate(fr[2], make(fr[2], TCP, 100, 0), FLIP_L4);
	lens[3] = mutate(fr[3], make(fr[3], TCP, 100, 0), FLIP_TTL);
	lens[4] = make(fr[4], ICMP, 20, 0);
	lens[5] = mutate(fr[5], make(fr[5], UDP, 20, 0), ETHERTYPE_ARP);
	for (int i = 0; i < 6; i++)
		frames[i] = fr[i];
	n = km_framing_encode_csum(km_framing_ax88179(), KM_USBNET_RX_CSUM, frames, lens, 6, out,
				   sizeof(out), NULL);
	assert_true(n > 0);
	for (unsigned int i = 0; i < 6; i++)
		if (desc(out, n, i) != want[i])
			fail_msg("frame %u: status bits %#x, want %#x", i, desc(out, n, i), want[i]);
	/* RXCOE off: no status bits, the stream km_framing_encode() lays out */
	p = km_framing_encode(km_framing_ax88179(), frames, lens, 6, plain, sizeof(plain));
	assert_int_equal(p, n);
	for (unsigned int i = 0; i < 6; i++)
		assert_int_equal(desc(plain, p, i), 0);
	assert_int_equal(km_framing_encode_csum(km_framing_ax88179(), 0, frames, lens, 6, out,
						sizeof(out), NULL), n);
	assert_memory_equal(out, plain, (size_t)n);
	/* a length-prefixed device has no status bits: the same stream */
	n = km_framing_encode_csum(km_framing_ax88772(), KM_USBNET_RX_CSUM, frames, lens, 1, out,
				   sizeof(out), NULL);
	p = km_framing_encode(km_framing_ax88772(), frames, lens, 1, plain, sizeof(plain));
	assert_int_equal(n, p);
	assert_memory_equal(out, plain, (size_t)n);
	/* an unknown offload bit */
	assert_int_equal(km_framing_encode_csum(km_framing_ax88179(), 0x4, frames, lens, 1, out,
						sizeof(out), NULL), -EINVAL);
}

/* ---- ax88179_rx_checksum() through the port ----------------------------------- */

/* A port on a transfer of frames @fr[0..n) laid out by its device with
 * RXCOE on. In mainline every frame but the last goes up as a copy
 * (netdev_alloc_skb_ip_align(), ax88179_rx_checksum(ax_skb, ...)), the
 * last as the URB's skb (ax88179_rx_checksum(skb, ...)); the older texts
 * clone. Each calls ax88179_rx_checksum() on every frame it passes up. */
static void run_ax88179(struct fx *f, uint8_t (*fr)[1600], const size_t *lens, size_t n)
{
	static uint8_t out[20480];
	const uint8_t *frames[MAX_FRAMES];
	long len;

	for (size_t i = 0; i < n; i++)
		frames[i] = fr[i];
	len = km_framing_encode_csum(f->v->framing, f->v->csum, frames, lens, n, out, sizeof(out),
				     NULL);
	assert_true(len > 0);
	f->n = 0;
	/* v5.7 and v5.16 pass the rest of a transfer up as one frame more
	 * (docs/receive.md): the frames sent come first */
	assert_true(km_usbnet_rx_urb(f->dev, out, (size_t)len) >= (int)n);
	assert_true(f->n >= n);
}

/* each frame kind as a transfer's second frame (mainline: the URB's
 * skb), then as its first (a copy): ip_summed as ax88179_rx_checksum()
 * sets it, and no claim the device did not make */
static void checksum_path(const char *port)
{
	static const struct {
		const char *name;
		enum kind k;
		enum mut m;
		unsigned char want;
	} rows[] = {
		{ "tcp", TCP, NONE, KM_CHECKSUM_UNNECESSARY },
		{ "udp", UDP, NONE, KM_CHECKSUM_UNNECESSARY },
		{ "udp_no_checksum", UDP_NO_CSUM, NONE, KM_CHECKSUM_UNNECESSARY },
		{ "tcp_l4_bad", TCP, FLIP_L4, KM_CHECKSUM_NONE },
		{ "tcp_l3_bad", TCP, FLIP_TTL, KM_CHECKSUM_NONE },
		{ "icmp", ICMP, NONE, KM_CHECKSUM_NONE },
		{ "arp", UDP, ETHERTYPE_ARP, KM_CHECKSUM_NONE },
		{ "ipv6", TCP, ETHERTYPE_IPV6, KM_CHECKSUM_NONE },
	};
	static uint8_t fr[2][1600];
	size_t lens[2];
	struct fx f;

	up(&f, km_usbnet_find_any(port), KM_USB_SPEED_SUPER, 1024);
	assert_true(f.v->csum & KM_USBNET_RX_CSUM);
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		lens[0] = make(fr[0], TCP, 60, 0);
		lens[1] = mutate(fr[1], make(fr[1], rows[r].k, 77, 0), rows[r].m);
		run_ax88179(&f, fr, lens, 2);
		if (f.ip_summed[1] != rows[r].want || f.ip_summed[0] != KM_CHECKSUM_UNNECESSARY)
			fail_msg("%s, %s second: ip_summed %u (first %u), want %u", port,
				 rows[r].name, f.ip_summed[1], f.ip_summed[0], rows[r].want);
		memcpy(fr[1], fr[0], lens[0]);
		lens[1] = lens[0];
		lens[0] = mutate(fr[0], make(fr[0], rows[r].k, 77, 0), rows[r].m);
		run_ax88179(&f, fr, lens, 2);
		if (f.ip_summed[0] != rows[r].want)
			fail_msg("%s, %s first: ip_summed %u, want %u", port, rows[r].name,
				 f.ip_summed[0], rows[r].want);
	}
	assert_int_equal(unverified(&f), 0);
	down(&f);
}

static void test_ax88179_checksum_path(void **state)
{
	(void)state;
	checksum_path("ax88179");
	checksum_path("ax88179-v5.7");
	checksum_path("ax88179-v5.16");
	checksum_path("ax88179-57bc3d3ae8c1");
}

/* a good TCP frame of 100 bytes of payload, laid out by @f's device with
 * offload @csum into @out */
static size_t tcp_transfer(struct fx *f, unsigned int csum, uint8_t *out, size_t cap)
{
	static uint8_t fr[1600];
	const uint8_t *frames[1] = { fr };
	size_t lens[1] = { make(fr, TCP, 100, 0) };
	long len = km_framing_encode_csum(f->v->framing, csum, frames, lens, 1, out, cap, NULL);

	assert_true(len > 0);
	return (size_t)len;
}

/* ax88179_rx_checksum() on its boundaries: each L4 type (bits 2-4) and
 * error bit in the descriptor of a good TCP frame, the device's bits
 * replaced by hand */
static void test_ax88179_checksum_bits(void **state)
{
	static uint8_t out[4096];
	struct fx f;

	(void)state;
	up(&f, km_usbnet_find_any("ax88179"), KM_USB_SPEED_SUPER, 1024);
	for (uint32_t bits = 0; bits < 0x20; bits++) {
		uint32_t type = bits & 0x1c;
		bool err = bits & 3;
		unsigned char want = !err && (type == 16 || type == 4) ? KM_CHECKSUM_UNNECESSARY :
									 KM_CHECKSUM_NONE;
		size_t len = tcp_transfer(&f, 0, out, sizeof(out));
		uint32_t hdr_off = (uint32_t)out[len - 2] | (uint32_t)out[len - 1] << 8;

		out[hdr_off] = (uint8_t)bits;
		f.n = 0;
		assert_int_equal(km_usbnet_rx_urb(f.dev, out, len), 1);
		if (f.ip_summed[0] != want)
			fail_msg("status bits %#x: ip_summed %u, want %u", bits, f.ip_summed[0], want);
	}
	/* a good TCP frame: a claim the model's device would make too */
	assert_int_equal(unverified(&f), 0);
	down(&f);
}

/* the AX88772 has no receive checksum offload: asix_rx_fixup() (v3.5)
 * leaves CHECKSUM_NONE, and nothing is reported */
static void test_asix_v35_no_offload(void **state)
{
	static uint8_t out[2048];
	struct fx f;

	(void)state;
	up(&f, km_usbnet_find_any("before"), KM_USB_SPEED_HIGH, 512);
	assert_int_equal(f.v->csum, 0);
	assert_int_equal(km_usbnet_rx_urb(f.dev, out, tcp_transfer(&f, KM_USBNET_RX_CSUM, out,
								   sizeof(out))), 1);
	assert_int_equal(f.ip_summed[0], KM_CHECKSUM_NONE);
	assert_int_equal(unverified(&f), 0);
	down(&f);
}

/* examples/byo_rx_framing (compiled in, as in test_rx): a user's device
 * whose encode hook sets its own status bits from km_csum_rx_verdict(),
 * and aqc111_rx_checksum() reading them (the same bit values as the
 * AX88179's: AQ_RX_PD_L4_TYPE_MASK 0x1c, TCP 0x10, UDP 0x04, L3_ERR 2,
 * L4_ERR 1; drivers/net/usb/aqc111.h) */
int kmodel_plugin_init(struct km_registry *reg);

static void test_aqc111_example_checksum(void **state)
{
	static uint8_t fr[4][1600], out[8192];
	static const unsigned char want[4] = { KM_CHECKSUM_UNNECESSARY, KM_CHECKSUM_UNNECESSARY,
					       KM_CHECKSUM_NONE, KM_CHECKSUM_NONE };
	const uint8_t *frames[4];
	size_t lens[4];
	struct km_registry *reg;
	struct fx f;
	long len;

	(void)state;
	assert_int_equal(km_registry_new(KM_REGISTRY_DEFAULT, &reg), 0);
	assert_int_equal(kmodel_plugin_init(reg), 0);
	up(&f, km_registry_find_usbnet(reg, "aqc111-afb8e2465275"), KM_USB_SPEED_SUPER, 1024);
	assert_int_equal(f.v->csum, KM_USBNET_RX_CSUM);
	lens[0] = make(fr[0], TCP, 300, 0);
	lens[1] = make(fr[1], UDP, 31, 0);
	lens[2] = mutate(fr[2], make(fr[2], UDP, 31, 0), FLIP_L4);
	lens[3] = make(fr[3], ICMP, 40, 0);
	for (int i = 0; i < 4; i++)
		frames[i] = fr[i];
	len = km_framing_encode(f.v->framing, frames, lens, 4, out, sizeof(out));
	assert_true(len > 0);
	assert_int_equal(km_usbnet_rx_urb(f.dev, out, (size_t)len), 4);
	for (int i = 0; i < 4; i++)
		if (f.ip_summed[i] != want[i])
			fail_msg("frame %d: ip_summed %u, want %u", i, f.ip_summed[i], want[i]);
	assert_int_equal(unverified(&f), 0);
	down(&f);
	km_registry_free(reg);
}

/* ---- the checker --------------------------------------------------------------- */

/* a user's driver that trusts nobody but itself: the whole transfer is one
 * frame, CHECKSUM_UNNECESSARY */
static int claim_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)dev;
	skb->ip_summed = KM_CHECKSUM_UNNECESSARY;
	return 1;
}

/* ... and its honest twin */
static int none_fixup(struct km_usbnet *dev, struct km_skb *skb)
{
	(void)dev;
	skb->ip_summed = KM_CHECKSUM_NONE;
	return 1;
}

static void test_checker_csum_unverified(void **state)
{
	static struct km_usbnet_driver_info info = { .description = "claims" };
	static const struct {
		const char *name;
		unsigned int csum;
		size_t size;		/* the variant's, 0: the header's */
		enum kind k;
		enum mut m;
		int (*fixup)(struct km_usbnet *, struct km_skb *);
		unsigned long reports;
	} rows[] = {
		{ "no_offload", 0, 0, TCP, NONE, claim_fixup, 1 },
		{ "offload_good_tcp", KM_USBNET_RX_CSUM, 0, TCP, NONE, claim_fixup, 0 },
		{ "offload_good_udp", KM_USBNET_RX_CSUM, 0, UDP, NONE, claim_fixup, 0 },
		{ "offload_bad_l4", KM_USBNET_RX_CSUM, 0, TCP, FLIP_L4, claim_fixup, 1 },
		{ "offload_bad_l3", KM_USBNET_RX_CSUM, 0, UDP, FLIP_TTL, claim_fixup, 1 },
		{ "offload_unchecked", KM_USBNET_RX_CSUM, 0, ICMP, NONE, claim_fixup, 1 },
		{ "tx_offload_only", KM_USBNET_TX_CSUM, 0, TCP, NONE, claim_fixup, 1 },
		{ "honest_no_offload", 0, 0, TCP, FLIP_L4, none_fixup, 0 },
		/* a variant compiled before @csum: its bytes there are not read */
		{ "old_variant", KM_USBNET_RX_CSUM,
		  offsetof(struct km_usbnet_variant, csum), TCP, NONE, claim_fixup, 1 },
	};
	static uint8_t fr[1600];
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		size_t len;

		v = *km_usbnet_find_any("before");
		v.size = rows[r].size ? rows[r].size : KM_USBNET_VARIANT_SIZE;
		v.csum = rows[r].csum;
		info.rx_fixup = rows[r].fixup;
		info.tx_fixup = km_usbnet_find("before")->info->tx_fixup;
		v.info = &info;
		up(&f, &v, KM_USB_SPEED_HIGH, 512);
		len = mutate(fr, make(fr, rows[r].k, 200, 0), rows[r].m);
		assert_int_equal(km_usbnet_rx_urb(f.dev, fr, len), 1);
		if (unverified(&f) != rows[r].reports)
			fail_msg("%s: %lu reports, want %lu", rows[r].name, unverified(&f),
				 rows[r].reports);
		/* the frame goes up as the kernel sends it, ip_summed as set */
		assert_int_equal(f.n, 1);
		assert_int_equal(f.lens[0], len);
		assert_int_equal(f.ip_summed[0], rows[r].fixup == claim_fixup ?
				 KM_CHECKSUM_UNNECESSARY : KM_CHECKSUM_NONE);
		if (rows[r].reports) {
			const struct km_report *rep = km_report_get(f.k.m, 0);

			assert_non_null(rep);
			assert_int_equal(rep->kind, KM_BUG);
			assert_non_null(strstr(rep->message, "CHECKSUM_UNNECESSARY"));
		}
		down(&f);
	}
	assert_string_equal(km_report_code_name(KM_R_RX_CSUM_UNVERIFIED), "rx_csum_unverified");
}

/* the transmit side: ax88179_bind() sets NETIF_F_IP_CSUM |
 * NETIF_F_IPV6_CSUM; its device computes them (AX_TXCOE_CTL), a copy of
 * the variant that says its device does not is reported at probe, one
 * compiled before @csum is not held to it */
static void test_tx_csum_feature(void **state)
{
	static const struct {
		const char *name;
		unsigned int csum;
		size_t size;
		unsigned long reports;
	} rows[] = {
		{ "tx_offload", KM_USBNET_RX_CSUM | KM_USBNET_TX_CSUM, 0, 0 },
		{ "tx_offload_only", KM_USBNET_TX_CSUM, 0, 0 },
		{ "rx_offload_only", KM_USBNET_RX_CSUM, 0, 1 },
		{ "none", 0, 0, 1 },
		{ "old_variant", 0, offsetof(struct km_usbnet_variant, csum), 0 },
	};
	struct km_usbnet_variant v;
	struct fx f;

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		v = *km_usbnet_find("ax88179");
		v.size = rows[r].size ? rows[r].size : KM_USBNET_VARIANT_SIZE;
		v.csum = rows[r].csum;
		up(&f, &v, KM_USB_SPEED_SUPER, 1024);
		if (km_report_count(f.k.m, KM_R_TX_CSUM_FEATURE) != rows[r].reports)
			fail_msg("%s: %lu reports, want %lu", rows[r].name,
				 km_report_count(f.k.m, KM_R_TX_CSUM_FEATURE), rows[r].reports);
		down(&f);
	}
	/* an offload bit the library does not know: the variant is refused */
	v = *km_usbnet_find("ax88179");
	v.size = KM_USBNET_VARIANT_SIZE;
	v.csum = KM_USBNET_RX_CSUM | 0x80;
	assert_int_equal(km_usbnet_variant_check(&v), -EINVAL);
	assert_non_null(strstr(km_last_error(), "checksum offload bits 0x81"));
	/* a driver that advertises nothing (asix v3.5) on a device without */
	up(&f, km_usbnet_find("before"), KM_USB_SPEED_HIGH, 512);
	assert_int_equal(km_report_count(f.k.m, KM_R_TX_CSUM_FEATURE), 0);
	down(&f);
	assert_string_equal(km_report_code_name(KM_R_TX_CSUM_FEATURE), "tx_csum_feature");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ip_example_header),
		cmocka_unit_test(test_csum_verdict),
		cmocka_unit_test(test_ax88179_status_bits),
		cmocka_unit_test(test_ax88179_checksum_path),
		cmocka_unit_test(test_ax88179_checksum_bits),
		cmocka_unit_test(test_asix_v35_no_offload),
		cmocka_unit_test(test_aqc111_example_checksum),
		cmocka_unit_test(test_checker_csum_unverified),
		cmocka_unit_test(test_tx_csum_feature),
	};

	return cmocka_run_group_tests_name("test_rx_csum", tests, NULL, NULL);
}
