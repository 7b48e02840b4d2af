// SPDX-License-Identifier: GPL-2.0
/* TCP/UDP senders, TCP retransmission, forwarding, pktgen and a packet tap:
 * see include/kmodel/traffic.h. */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <glib.h>
#include <stddef.h>
#include <string.h>
#include <kmodel/traffic.h>
#include <string.h>

#define PATTERN_LEN (65536u + 256u)
#define MAX_HDRS 66u
#define NET_IP_ALIGN 2u		/* include/linux/skbuff.h: ARM keeps the default */

struct km_traffic {
	struct km_task *t;
	const struct km_net_device *dev;
	struct km_traffic_config cfg;
	uint32_t seq;
	/* what the stack still holds: the TCP original until ACKed, the
	 * bridge's original for the other port, pktgen's skb until its last
	 * send; its data and len as the stack left them, and where its bytes
	 * start in the frame */
	struct km_skb *queued;
	unsigned char *queued_data;
	unsigned int queued_len, queued_off;
	struct km_skb *tapped;	/* the tap's clone */
	unsigned int sends_left;	/* pktgen: sends of the held skb to come */
	unsigned long retransmits;
	uint8_t hdr[MAX_HDRS];	/* headers of the last frame */
	unsigned int hdr_len;
	bool tcp_hdr_built;	/* hdr holds a TCP frame's: patch the per-segment fields */
	const uint8_t *payload;	/* payload of the last frame (in pattern) */
	uint8_t *pattern;
};

int km_traffic_new_sized(struct km_task *t, const struct km_net_device *dev, size_t dev_size,
			 const struct km_traffic_config *cfg, size_t cfg_size,
			 struct km_traffic **out)
{
	struct km_traffic_config c = { 0 };
	struct km_traffic *tr;
	unsigned int hdrs;

	if (!t || !dev || !out)
		return km_err(-EINVAL, "traffic_new: NULL task, device or out");
	if (dev_size < KM_NET_DEVICE_MIN_SIZE || (cfg && cfg_size < KM_TRAFFIC_CONFIG_MIN_SIZE))
		return km_err(-EINVAL, "traffic_new: net_device size %zu (< %zu) or config size "
			      "%zu (< %zu)", dev_size, (size_t)KM_NET_DEVICE_MIN_SIZE, cfg_size,
			      (size_t)KM_TRAFFIC_CONFIG_MIN_SIZE);
	if (cfg)
		km_struct_read(&c, sizeof(c), cfg, cfg_size);
	if ((unsigned int)c.kind > KM_TRAFFIC_PKTGEN)
		return km_err(-EINVAL, "traffic_new: kind %d unknown", (int)c.kind);
	/* pktgen_if_write() "clone_skb" (net/core/pktgen.c, v3.5): a shared
	 * skb goes only to a device that says it can take one */
	if (c.kind == KM_TRAFFIC_PKTGEN && c.clone_skb &&
	    !(dev->priv_flags & KM_IFF_TX_SKB_SHARING))
		return km_err(-EOPNOTSUPP, "traffic_new: clone_skb %u on a device without "
			      "IFF_TX_SKB_SHARING (pktgen refuses: -ENOTSUPP)", c.clone_skb);
	hdrs = c.kind == KM_TRAFFIC_TCP ? KM_TCP_HDRS : KM_UDP_HDRS;
	if (!c.payload)
		c.payload = c.kind == KM_TRAFFIC_TCP ? KM_TCP_MSS_DEFAULT : KM_UDP_PAYLOAD_DEFAULT;
	if (c.payload > 65535u - hdrs)
		return km_err(-EINVAL, "traffic_new: payload %u bytes > %u", c.payload,
			      65535u - hdrs);
	if (!c.max_tcp_header)
		c.max_tcp_header = KM_TCP_MAX_HEADER_DEFAULT;
	if (c.max_tcp_header < KM_TCP_HDRS || c.max_tcp_header > 65535u)
		return km_err(-EINVAL, "traffic_new: max_tcp_header %u outside %u..65535",
			      c.max_tcp_header, KM_TCP_HDRS);
	tr = g_new0(struct km_traffic, 1);
	tr->t = t;
	tr->dev = dev;
	tr->cfg = c;
	tr->pattern = g_malloc(PATTERN_LEN);
	for (unsigned int i = 0; i < PATTERN_LEN; i++)
		tr->pattern[i] = (uint8_t)(i * 7u + (i >> 8));
	*out = tr;
	return 0;
}

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffffu);
}

/* RFC 1071 checksum of the IPv4 header at @h */
static void ip_csum(uint8_t *h)
{
	uint32_t sum = 0;

	put16(h + 10, 0);
	for (int i = 0; i < 20; i += 2)
		sum += (uint32_t)h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffffu) + (sum >> 16);
	put16(h + 10, ~sum & 0xffffu);
}

/* Ethernet (14) + IPv4 (20) headers of the frame into tr->hdr. */
static void eth_ip(struct km_traffic *tr, unsigned int ip_len, uint8_t proto)
{
	static const uint8_t macs[12] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
					  0x00, 0x05, 0x1b, 0x00, 0x77, 0x2c };
	uint8_t *h = tr->hdr;

	memcpy(h, macs, 12);
	put16(h + 12, 0x0800);
	h += 14;
	memset(h, 0, 20);
	h[0] = 0x45;
	put16(h + 2, ip_len);
	put16(h + 4, tr->seq & 0xffffu);
	put16(h + 6, 0x4000);		/* DF */
	h[8] = 64;
	h[9] = proto;
	put32(h + 12, 0xc0a80066);	/* 192.168.0.102 */
	put32(h + 16, 0xc0a80067);	/* 192.168.0.103 */
	/* the checksum stays 0 (offloaded, as the frames' bytes are all the
	 * model checks), but for forwarding, which rewrites it */
}

/* ... and a UDP header of @len payload bytes */
static void eth_ip_udp(struct km_traffic *tr, unsigned int len)
{
	uint8_t *uh = tr->hdr + 34;

	eth_ip(tr, 28 + len, 17);
	put16(uh, 40000);
	put16(uh + 2, 5001);
	put16(uh + 4, 8 + len);
	put16(uh + 6, 0);
	tr->hdr_len = KM_UDP_HDRS;
}

static void push_hdr(struct km_skb *skb, const uint8_t *hdr, unsigned int len)
{
	km_skb_push_copy(skb, hdr, len);	/* skb_push(), then the copy */
}

/* the stack holds @skb, whose bytes are the frame's from @off on */
static void hold(struct km_traffic *tr, struct km_skb *skb, unsigned int off)
{
	tr->queued = skb;
	tr->queued_data = skb->data;
	tr->queued_len = skb->len;
	tr->queued_off = off;
}

/* tcp_transmit_skb() (net/ipv4/tcp_output.c, v3.5) after its clone or
 * copy: push the TCP header; ip_queue_xmit() the IP header; the
 * neighbour's output the Ethernet header (the bytes of tr->hdr) */
static struct km_skb *tcp_headers(struct km_traffic *tr, struct km_skb *skb)
{
	if (!skb)
		return NULL;
	push_hdr(skb, tr->hdr + 34, 32);
	push_hdr(skb, tr->hdr + 14, 20);
	push_hdr(skb, tr->hdr, 14);
	return skb;
}

static struct km_skb *tcp_next(struct km_traffic *tr)
{
	unsigned int mss = tr->cfg.payload, mh = tr->cfg.max_tcp_header;
	struct km_skb *skb;
	uint8_t *th = tr->hdr + 34;

	/* sk_stream_alloc_skb(): alloc_skb_fclone(size + max_header) */
	skb = km_alloc_skb(tr->t, mss + mh, KM_GFP_KERNEL);
	if (!skb)
		return NULL;
	km_skb_reserve(skb, (int)mh);
	km_skb_put(skb, mss);		/* skb_add_data: copy from user */
	km_skb_copy_to_linear_data_offset(skb, 0, tr->payload, mss);
	km_skb_header_release(skb);	/* skb_entail() */
	hold(tr, skb, KM_TCP_HDRS);

	if (!tr->tcp_hdr_built) {	/* the fields every segment shares, once */
		eth_ip(tr, 20 + 32 + mss, 6);
		memset(th, 0, 32);
		put16(th, 57888);
		put16(th + 2, 5001);
		put32(th + 8, 1);
		th[12] = 8 << 4;		/* doff: 32 bytes */
		th[13] = 0x18;			/* ACK | PSH */
		put16(th + 14, 4096);
		th[20] = 1; th[21] = 1; th[22] = 8; th[23] = 10;	/* NOP NOP TS */
		tr->hdr_len = KM_TCP_HDRS;
		tr->tcp_hdr_built = true;
	}
	put16(tr->hdr + 14 + 4, tr->seq & 0xffffu);	/* IP id, as eth_ip() */
	put32(th + 4, tr->seq * mss);
	put32(th + 24, tr->seq);
	/* tcp_transmit_skb(..., clone_it 1): the original is not cloned yet */
	return tcp_headers(tr, km_skb_clone(tr->t, skb, KM_GFP_ATOMIC));
}

static struct km_skb *udp_next(struct km_traffic *tr)
{
	unsigned int len = tr->cfg.payload, hh_len = km_ll_reserved_space(tr->dev);
	struct km_skb *skb;

	skb = km_alloc_skb(tr->t, len + 28 + hh_len + 15, KM_GFP_KERNEL);
	if (!skb)
		return NULL;
	km_skb_reserve(skb, (int)hh_len);
	eth_ip_udp(tr, len);
	km_skb_put(skb, 28 + len);
	km_skb_copy_to_linear_data_offset(skb, 0, tr->hdr + 14, 28);
	km_skb_copy_to_linear_data_offset(skb, 28, tr->payload, len);
	push_hdr(skb, tr->hdr, 14);
	return skb;
}

/*
 * A frame received by another driver: netdev_alloc_skb_ip_align()
 * (v3.5 __netdev_alloc_skb(): a buffer whose end follows the frag size,
 * SKB_DATA_ALIGN(len + NET_SKB_PAD); skb_reserve(NET_SKB_PAD), then
 * NET_IP_ALIGN), the frame put, eth_type_trans() pulling the Ethernet
 * header. Then either ip_forward(): skb_cow(LL_RESERVED_SPACE(out)) (a new
 * head only when cloned or short: neither here), ip_decrease_ttl() with
 * its checksum, and the output device's Ethernet header pushed; or the
 * bridge (br_forward(), br_flood()): the received Ethernet header pushed
 * back and, flooding to another port as well, a clone for this port while
 * the original goes to the other (held until complete).
 */
static struct km_skb *forward_next(struct km_traffic *tr)
{
	static const uint8_t rx_macs[12] = { 0x00, 0x05, 0x1b, 0x00, 0x77, 0x2c,
					     0x00, 0x0a, 0x95, 0x9d, 0x68, 0x16 };
	unsigned int len = tr->cfg.payload, frame = KM_UDP_HDRS + len;
	unsigned int pad = km_skb_net_pad(km_task_machine(tr->t));
	unsigned int size = (frame + NET_IP_ALIGN + pad + 63u) & ~63u;
	uint8_t rx_eth[14];
	struct km_skb *skb, *c;

	skb = km_build_skb(tr->t, size, KM_GFP_ATOMIC);
	if (!skb)
		return NULL;
	km_skb_reserve(skb, (int)(pad + NET_IP_ALIGN));
	eth_ip_udp(tr, len);
	ip_csum(tr->hdr + 14);		/* as received */
	memcpy(rx_eth, tr->hdr, 14);
	if (!tr->cfg.bridge)
		memcpy(rx_eth, rx_macs, 12);	/* addressed to the router */
	km_skb_put(skb, frame);		/* the rx driver's copy */
	km_skb_copy_to_linear_data_offset(skb, 0, rx_eth, 14);
	km_skb_copy_to_linear_data_offset(skb, 14, tr->hdr + 14, 28);
	km_skb_copy_to_linear_data_offset(skb, 42, tr->payload, len);
	km_skb_pull(skb, 14);		/* eth_type_trans() */
	if (tr->cfg.bridge) {
		km_skb_push(skb, 14);	/* br_dev_queue_push_xmit(): the same header */
		if (!tr->cfg.flood)
			return skb;
		c = km_skb_clone(tr->t, skb, KM_GFP_ATOMIC);	/* deliver_clone() */
		hold(tr, skb, 0);
		return c;
	}
	/* ip_forward(): skb_cow(skb, LL_RESERVED_SPACE(rt->dst.dev)) */
	if (km_skb_headroom(skb) < km_ll_reserved_space(tr->dev) || km_skb_cloned(skb)) {
		unsigned int delta = km_ll_reserved_space(tr->dev) - km_skb_headroom(skb);

		if (km_pskb_expand_head(tr->t, skb, (int)((delta + pad - 1) & ~(pad - 1)), 0,
					KM_GFP_ATOMIC)) {
			km_kfree_skb(skb);
			return NULL;
		}
	}
	/* ip_decrease_ttl(): ttl and checksum, written into the skb */
	tr->hdr[14 + 8]--;
	ip_csum(tr->hdr + 14);
	km_skb_copy_to_linear_data_offset(skb, 8, tr->hdr + 14 + 8, 1);
	km_skb_copy_to_linear_data_offset(skb, 10, tr->hdr + 14 + 10, 2);
	push_hdr(skb, tr->hdr, 14);	/* neigh_resolve_output(): the header */
	return skb;
}

/*
 * pktgen (net/core/pktgen.c, v3.5, reconstructed): fill_packet_ipv4()
 * builds a UDP frame in __netdev_alloc_skb(odev, size + 64 + datalen) with
 * datalen = (hard_header_len + 16) & ~0xf reserved and the Ethernet header
 * pushed; pktgen_xmit() takes a reference (atomic_inc(&skb->users)) before
 * each ndo_start_xmit and sends the same skb again until clone_skb sends
 * (at least one) are done, then frees its own and builds a new one.
 */
static struct km_skb *pktgen_next(struct km_traffic *tr)
{
	unsigned int len = tr->cfg.payload, frame = KM_UDP_HDRS + len;
	unsigned int pad = km_skb_net_pad(km_task_machine(tr->t));
	unsigned int datalen = (tr->dev->hard_header_len + 16u) & ~0xfu;
	struct km_skb *skb;

	if (!tr->queued || !tr->sends_left) {
		if (tr->queued)
			km_kfree_skb(tr->queued);
		tr->queued = NULL;
		skb = km_alloc_skb(tr->t, pad + frame + 64 + datalen, KM_GFP_ATOMIC);
		if (!skb)
			return NULL;
		km_skb_reserve(skb, (int)(pad + datalen));
		eth_ip_udp(tr, len);
		km_skb_put(skb, 28 + len);
		km_skb_copy_to_linear_data_offset(skb, 0, tr->hdr + 14, 28);
		km_skb_copy_to_linear_data_offset(skb, 28, tr->payload, len);
		push_hdr(skb, tr->hdr, 14);
		hold(tr, skb, 0);
		tr->sends_left = MAX(1u, tr->cfg.clone_skb);
	}
	tr->sends_left--;
	return km_skb_get(tr->queued);	/* the driver's reference */
}

struct km_skb *km_traffic_next(struct km_traffic *tr)
{
	struct km_skb *skb;

	if (!tr) {
		km_set_error("traffic_next: NULL traffic");
		return NULL;
	}
	if (tr->cfg.kind == KM_TRAFFIC_PKTGEN && tr->queued && tr->sends_left) {
		skb = pktgen_next(tr);	/* the same packet again */
	} else {
		km_traffic_complete(tr);
		tr->seq++;
		tr->payload = tr->pattern + (tr->seq & 0xffu);
		switch (tr->cfg.kind) {
		case KM_TRAFFIC_TCP: skb = tcp_next(tr); break;
		case KM_TRAFFIC_UDP: skb = udp_next(tr); break;
		case KM_TRAFFIC_FORWARD: skb = forward_next(tr); break;
		default: skb = pktgen_next(tr); break;
		}
	}
	if (skb && tr->cfg.tap) {
		if (tr->tapped)
			km_kfree_skb(tr->tapped);
		tr->tapped = km_skb_clone(tr->t, skb, KM_GFP_ATOMIC);	/* dev_queue_xmit_nit */
	}
	return skb;
}

struct km_skb *km_traffic_retransmit(struct km_traffic *tr)
{
	struct km_skb *skb;

	if (!tr || tr->cfg.kind != KM_TRAFFIC_TCP || !tr->queued) {
		km_set_error("traffic_retransmit: no TCP segment queued");
		return NULL;
	}
	/* tcp_retransmit_skb() -> tcp_transmit_skb(sk, skb, 1, GFP_ATOMIC), v3.5:
	 * "if (unlikely(skb_cloned(skb))) skb = pskb_copy(skb, gfp_mask);
	 *  else skb = skb_clone(skb, gfp_mask);" -- a copy while the previous
	 * clone is alive (still queued below), else a new clone */
	if (km_skb_cloned(tr->queued))
		skb = km_pskb_copy(tr->t, tr->queued, KM_GFP_ATOMIC);
	else
		skb = km_skb_clone(tr->t, tr->queued, KM_GFP_ATOMIC);
	skb = tcp_headers(tr, skb);
	if (skb) {
		tr->retransmits++;
		if (tr->cfg.tap) {
			if (tr->tapped)
				km_kfree_skb(tr->tapped);
			tr->tapped = km_skb_clone(tr->t, skb, KM_GFP_ATOMIC);
		}
	}
	return skb;
}

void km_traffic_complete(struct km_traffic *tr)
{
	if (!tr)
		return;
	if (tr->tapped) {
		km_kfree_skb(tr->tapped);
		tr->tapped = NULL;
	}
	/* pktgen keeps its skb for the sends to come */
	if (tr->queued && !(tr->cfg.kind == KM_TRAFFIC_PKTGEN && tr->sends_left)) {
		km_kfree_skb(tr->queued);
		tr->queued = NULL;
	}
}

struct km_skb *km_traffic_queued(const struct km_traffic *tr)
{
	return tr ? tr->queued : NULL;
}

struct km_skb *km_traffic_tapped(const struct km_traffic *tr)
{
	return tr ? tr->tapped : NULL;
}

size_t km_traffic_frame_len(const struct km_traffic *tr)
{
	if (!tr)
		return 0;
	return tr->hdr_len + tr->cfg.payload;
}

/* do @n bytes at @p equal the frame's bytes from @off on? */
static inline bool frame_bytes(const struct km_traffic *tr, const uint8_t *p, size_t off,
			       size_t n)
{
	size_t h = off < tr->hdr_len ? MIN(n, tr->hdr_len - off) : 0;

	if (off + n > km_traffic_frame_len(tr))
		return false;
	if (h && memcmp(p, tr->hdr + off, h))
		return false;
	off += h;
	return !memcmp(p + h, tr->payload + (off - tr->hdr_len), n - h);
}

bool km_traffic_verify(const struct km_traffic *tr, const uint8_t *frame, size_t len)
{
	return tr && frame && tr->payload && len == km_traffic_frame_len(tr) &&
	       frame_bytes(tr, frame, 0, len);
}

/* byte @i of the last frame built, -1 past its end */
static int frame_byte(const struct km_traffic *tr, size_t i)
{
	if (i >= km_traffic_frame_len(tr))
		return -1;
	return i < tr->hdr_len ? tr->hdr[i] : tr->payload[i - tr->hdr_len];
}

long km_traffic_mismatch(const struct km_traffic *tr, const uint8_t *frame, size_t len, int *want,
			int *got)
{
	size_t flen = km_traffic_frame_len(tr), i;

	if (!tr || !tr->payload || (!frame && len))
		return km_err(-EINVAL, "km_traffic_mismatch: no sender, no frame built, or NULL frame");
	for (i = 0; i < MIN(len, flen) && frame[i] == frame_byte(tr, i); i++)
		;
	if (i == len && len == flen)
		return -1;
	if (want)
		*want = frame_byte(tr, i);
	if (got)
		*got = i < len ? frame[i] : -1;
	return (long)i;
}

unsigned int km_traffic_check_owned(const struct km_traffic *tr)
{
	unsigned int bad = 0;

	if (!tr || !tr->payload)
		return 0;
	if (tr->queued)
		bad += tr->queued->data != tr->queued_data || tr->queued->len != tr->queued_len ||
		       !frame_bytes(tr, tr->queued_data, tr->queued_off, tr->queued_len);
	if (tr->tapped)
		bad += !km_traffic_verify(tr, tr->tapped->data, tr->tapped->len);
	return bad;
}

void km_traffic_free(struct km_traffic *tr)
{
	if (!tr)
		return;
	tr->sends_left = 0;
	km_traffic_complete(tr);
	g_free(tr->pattern);
	g_free(tr);
}
