// SPDX-License-Identifier: GPL-2.0
/* TCP/UDP senders and a packet tap: see include/kmodel/traffic.h. */
#include "internal.h"
#include <kmodel/traffic.h>
#include <string.h>

#define PATTERN_LEN (65536u + 256u)
#define MAX_HDRS 66u

struct km_traffic {
	struct km_task *t;
	const struct km_net_device *dev;
	struct km_traffic_config cfg;
	uint32_t seq;
	struct km_skb *queued;	/* TCP: the original, until ACKed */
	struct km_skb *tapped;	/* the tap's clone */
	uint8_t hdr[MAX_HDRS];	/* headers of the last frame */
	unsigned int hdr_len;
	const uint8_t *payload;	/* payload of the last frame (in pattern) */
	uint8_t *pattern;
};

int km_traffic_new(struct km_task *t, const struct km_net_device *dev,
		   const struct km_traffic_config *cfg, struct km_traffic **out)
{
	struct km_traffic_config c = cfg ? *cfg : (struct km_traffic_config){0};
	struct km_traffic *tr;
	unsigned int hdrs;

	if (!t || !dev || !out)
		return km_err(-EINVAL, "traffic_new: NULL task, device or out");
	if ((unsigned int)c.kind > KM_TRAFFIC_UDP)
		return km_err(-EINVAL, "traffic_new: kind %d unknown", (int)c.kind);
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
}

static void push_hdr(struct km_skb *skb, const uint8_t *hdr, unsigned int len)
{
	km_skb_push(skb, len);
	km_skb_copy_to_linear_data_offset(skb, 0, hdr, len);
}

static struct km_skb *tcp_next(struct km_traffic *tr)
{
	unsigned int mss = tr->cfg.payload, mh = tr->cfg.max_tcp_header;
	struct km_skb *skb, *clone;
	uint8_t *th = tr->hdr + 34;

	/* sk_stream_alloc_skb(): alloc_skb_fclone(size + max_header) */
	skb = km_alloc_skb(tr->t, mss + mh, KM_GFP_KERNEL);
	if (!skb)
		return NULL;
	km_skb_reserve(skb, (int)mh);
	km_skb_put(skb, mss);		/* skb_add_data: copy from user */
	km_skb_copy_to_linear_data_offset(skb, 0, tr->payload, mss);
	km_skb_header_release(skb);	/* skb_entail() */
	tr->queued = skb;

	/* tcp_transmit_skb(): clone, push TCP header; ip_queue_xmit; neigh */
	clone = km_skb_clone(tr->t, skb, KM_GFP_ATOMIC);
	eth_ip(tr, 20 + 32 + mss, 6);
	memset(th, 0, 32);
	put16(th, 57888);
	put16(th + 2, 5001);
	put32(th + 4, tr->seq * mss);
	put32(th + 8, 1);
	th[12] = 8 << 4;		/* doff: 32 bytes */
	th[13] = 0x18;			/* ACK | PSH */
	put16(th + 14, 4096);
	th[20] = 1; th[21] = 1; th[22] = 8; th[23] = 10;	/* NOP NOP TS */
	put32(th + 24, tr->seq);
	push_hdr(clone, th, 32);
	push_hdr(clone, tr->hdr + 14, 20);
	push_hdr(clone, tr->hdr, 14);
	tr->hdr_len = KM_TCP_HDRS;
	return clone;
}

static struct km_skb *udp_next(struct km_traffic *tr)
{
	unsigned int len = tr->cfg.payload, hh_len = km_ll_reserved_space(tr->dev);
	struct km_skb *skb;
	uint8_t *uh = tr->hdr + 34;

	skb = km_alloc_skb(tr->t, len + 28 + hh_len + 15, KM_GFP_KERNEL);
	if (!skb)
		return NULL;
	km_skb_reserve(skb, (int)hh_len);
	eth_ip(tr, 28 + len, 17);
	put16(uh, 40000);
	put16(uh + 2, 5001);
	put16(uh + 4, 8 + len);
	put16(uh + 6, 0);
	km_skb_put(skb, 28 + len);
	km_skb_copy_to_linear_data_offset(skb, 0, tr->hdr + 14, 28);
	km_skb_copy_to_linear_data_offset(skb, 28, tr->payload, len);
	push_hdr(skb, tr->hdr, 14);
	tr->hdr_len = KM_UDP_HDRS;
	return skb;
}

struct km_skb *km_traffic_next(struct km_traffic *tr)
{
	struct km_skb *skb;

	if (!tr) {
		km_set_error("traffic_next: NULL traffic");
		return NULL;
	}
	km_traffic_complete(tr);
	tr->seq++;
	tr->payload = tr->pattern + (tr->seq & 0xffu);
	skb = tr->cfg.kind == KM_TRAFFIC_TCP ? tcp_next(tr) : udp_next(tr);
	if (skb && tr->cfg.tap)
		tr->tapped = km_skb_clone(tr->t, skb, KM_GFP_ATOMIC);	/* dev_queue_xmit_nit */
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
	if (tr->queued) {
		km_kfree_skb(tr->queued);
		tr->queued = NULL;
	}
}

size_t km_traffic_frame_len(const struct km_traffic *tr)
{
	if (!tr)
		return 0;
	return tr->hdr_len + tr->cfg.payload;
}

bool km_traffic_verify(const struct km_traffic *tr, const uint8_t *frame, size_t len)
{
	return tr && frame && tr->payload && len == km_traffic_frame_len(tr) &&
	       !memcmp(frame, tr->hdr, tr->hdr_len) &&
	       !memcmp(frame + tr->hdr_len, tr->payload, tr->cfg.payload);
}

void km_traffic_free(struct km_traffic *tr)
{
	if (!tr)
		return;
	km_traffic_complete(tr);
	g_free(tr->pattern);
	g_free(tr);
}
