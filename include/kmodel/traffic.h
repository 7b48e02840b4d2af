/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/traffic.h - senders that hand a driver the sk_buffs the v3.5 stack
 * would: a TCP bulk sender (tcp_sendmsg + tcp_transmit_skb + ip_queue_xmit +
 * neigh output), a UDP sender (ip_append_data + ip_push_pending_frames),
 * each optionally with a packet tap (dev_queue_xmit_nit(): one more clone,
 * held while the driver transmits).
 *
 * TCP (net/ipv4/tcp.c sk_stream_alloc_skb/skb_entail, tcp_output.c
 * tcp_transmit_skb, v3.5): alloc_skb(mss + MAX_TCP_HEADER), reserve
 * MAX_TCP_HEADER, put mss bytes of payload; skb_header_release() on the
 * queued original; skb_clone(); push TCP (32 bytes: 20 + timestamps), IP
 * (20) and Ethernet (14) headers on the clone: 66 bytes, so a full segment
 * is a 1514-byte frame and the driver sees dataref 0x10002 (cloned, header
 * not cloned). The original stays queued until km_traffic_complete() (the
 * ACK) frees it.
 *
 * UDP (net/ipv4/ip_output.c __ip_append_data, v3.5, one datagram per
 * packet): hh_len = LL_RESERVED_SPACE(dev); alloc_skb(payload + 28 + hh_len
 * + 15); reserve hh_len; put IP + UDP headers and payload; push the 14-byte
 * Ethernet header: a private skb with hh_len - 14 bytes of headroom.
 *
 * Tap: skb_clone() of what the driver gets, freed by km_traffic_complete():
 * the driver's skb is then header-cloned.
 *
 * TCP retransmission (km_traffic_retransmit(), v3.5 tcp_retransmit_skb() ->
 * tcp_transmit_skb(sk, skb, 1, GFP_ATOMIC)): while the original is still
 * queued, a new clone -- or, when the original is still cloned because the
 * previous transmission's clone is alive (held by a tap, or still in the
 * host queue), pskb_copy() of it (v3.5: "if (unlikely(skb_cloned(skb))) skb
 * = pskb_copy(skb, gfp_mask); else skb = skb_clone(skb, gfp_mask);").
 * Later kernels (v3.17, "tcp: avoid retransmits of TCP packets hanging in
 * host queues") skip a retransmit whose clone is still queued; the model
 * follows v3.5.
 *
 * Forwarding (KM_TRAFFIC_FORWARD): a UDP frame received by another driver
 * (netdev_alloc_skb_ip_align(): NET_SKB_PAD + NET_IP_ALIGN of headroom, the
 * buffer ending at SKB_DATA_ALIGN(len + NET_IP_ALIGN + NET_SKB_PAD) as
 * v3.5's page-frag __netdev_alloc_skb() leaves it; eth_type_trans()), then
 * routed (ip_forward(): skb_cow() to LL_RESERVED_SPACE of this device,
 * the TTL decreased and the checksum fixed in the skb, a new Ethernet
 * header pushed) or, with @bridge, bridged (the received Ethernet header
 * pushed back) -- and with @flood, flooded to another port too: this
 * device gets a clone (header-cloned) while the bridge holds the original
 * for the other port until km_traffic_complete().
 *
 * pktgen (KM_TRAFFIC_PKTGEN, net/core/pktgen.c v3.5): one UDP skb sent
 * max(1, @clone_skb) times, pktgen holding its own reference each time
 * (the driver gets users 2); @clone_skb > 0 needs the device's
 * IFF_TX_SKB_SHARING (ether_setup() sets it: km_net_device_init_ether()).
 *
 * What the stack still owns -- the queued TCP original, the bridge's
 * original, pktgen's skb, the tap's clone -- is reachable
 * (km_traffic_queued(), km_traffic_tapped()) and checked byte for byte
 * (km_traffic_check_owned()).
 */
#ifndef KMODEL_TRAFFIC_H
#define KMODEL_TRAFFIC_H

#include <kmodel/skb.h>

#ifdef __cplusplus
extern "C" {
#endif

enum km_traffic_kind {
	KM_TRAFFIC_TCP = 0,
	KM_TRAFFIC_UDP,
	KM_TRAFFIC_FORWARD,	/**< a received UDP frame, routed or bridged */
	KM_TRAFFIC_PKTGEN,	/**< one skb sent clone_skb times (users 2) */
};

/** MAX_TCP_HEADER default: 128 + MAX_HEADER, MAX_HEADER = LL_MAX_HEADER =
 *  96 with CONFIG_WLAN and no IP tunnels (include/linux/netdevice.h, v3.5;
 *  omap2plus_defconfig has CONFIG_WLAN), bytes. */
#define KM_TCP_MAX_HEADER_DEFAULT 224u
#define KM_TCP_MSS_DEFAULT 1448u
#define KM_UDP_PAYLOAD_DEFAULT 1472u
/** TCP header with timestamps + IPv4 header + Ethernet header, bytes. */
#define KM_TCP_HDRS 66u
#define KM_UDP_HDRS 42u

/**
 * struct km_traffic_config - zero means default.
 * @kind: TCP or UDP.
 * @payload: bytes per packet: TCP MSS (default 1448, at most 65535 - 66:
 *           Ethernet 14, IPv4 20 and TCP with timestamps 32), UDP payload
 *           (default 1472, at most 65535 - 42: Ethernet 14, IPv4 20, UDP
 *           8; the forwarding and pktgen kinds too): the frame at most
 *           65535 bytes.
 * @max_tcp_header: TCP headroom reserved (default KM_TCP_MAX_HEADER_DEFAULT),
 *           at least 66.
 * @tap: a packet tap holds a clone while the driver transmits.
 * @bridge: FORWARD: bridged (the received Ethernet header) instead of routed.
 * @flood: FORWARD with @bridge: flooded to another port as well (the driver
 *         gets a clone; the bridge holds the original).
 * @clone_skb: PKTGEN: sends per skb (0 and 1: one); > 0 needs the device's
 *         IFF_TX_SKB_SHARING (else km_traffic_new() fails: -EOPNOTSUPP).
 * Members are only appended: km_traffic_new() passes its size.
 */
struct km_traffic_config {
	enum km_traffic_kind kind;
	unsigned int payload;
	unsigned int max_tcp_header;
	bool tap;
	bool bridge, flood;
	unsigned int clone_skb;
};

struct km_traffic;

/**
 * km_traffic_new_sized() - a sender on @t's machine for the device @dev
 * (its LL_RESERVED_SPACE decides UDP headroom; read at each packet, so
 * @dev must outlive the sender); use km_traffic_new().
 * @dev_size, @cfg_size: sizeof(struct km_net_device) and
 * sizeof(struct km_traffic_config) as the caller was compiled (at least
 * KM_NET_DEVICE_MIN_SIZE and KM_TRAFFIC_CONFIG_MIN_SIZE); config members
 * past @cfg_size take their defaults. @cfg NULL: all defaults.
 * Return: 0, -EINVAL (bad config or size: see km_last_error()),
 * -EOPNOTSUPP (see @clone_skb). Caller owns *@out.
 */
KM_API int km_traffic_new_sized(struct km_task *t, const struct km_net_device *dev,
				size_t dev_size, const struct km_traffic_config *cfg,
				size_t cfg_size, struct km_traffic **out);
/** The members of the first versioned km_traffic_config (SONAME 2). */
#define KM_TRAFFIC_CONFIG_MIN_SIZE \
	(offsetof(struct km_traffic_config, clone_skb) + sizeof(unsigned int))
/** km_traffic_new() - km_traffic_new_sized() with this header's sizes. */
static inline int km_traffic_new(struct km_task *t, const struct km_net_device *dev,
				 const struct km_traffic_config *cfg, struct km_traffic **out)
{
	return km_traffic_new_sized(t, dev, sizeof(struct km_net_device), cfg,
				    sizeof(struct km_traffic_config), out);
}
/**
 * km_traffic_next() - build the next packet and return the skb to hand to
 * the driver (ndo_start_xmit consumes it). Call km_traffic_complete()
 * after the driver returns, before the next packet.
 * Return: the skb, or NULL when an allocation failed (nothing held) or
 * @tr is NULL (km_last_error()). A NULL @tr is a no-op for
 * km_traffic_complete(), 0 for km_traffic_frame_len(), false for
 * km_traffic_verify() (as is a NULL @frame).
 */
KM_API struct km_skb *km_traffic_next(struct km_traffic *tr);
/** The tap's clone is freed, and for TCP the ACK frees the queued original
 *  (the bridge's transmit its original; pktgen keeps its skb until its
 *  last send). */
KM_API void km_traffic_complete(struct km_traffic *tr);
/**
 * km_traffic_retransmit() - retransmit the last TCP segment, still queued
 * (call before km_traffic_complete()): a clone of the original with the
 * same headers, or a pskb_copy() of it while it is still cloned (see
 * above). The frame is the same: km_traffic_verify() holds for it.
 * Return: the skb for the driver, or NULL (not TCP, nothing queued, or an
 * allocation failed; km_last_error()).
 */
KM_API struct km_skb *km_traffic_retransmit(struct km_traffic *tr);
/** What the stack holds now (the queued TCP original, the bridge's
 *  original, pktgen's skb), or NULL; valid until the next call on @tr.
 *  Look, do not free. */
KM_API struct km_skb *km_traffic_queued(const struct km_traffic *tr);
/** The packet tap's clone of the last skb handed out, or NULL; as above. */
KM_API struct km_skb *km_traffic_tapped(const struct km_traffic *tr);
/**
 * km_traffic_check_owned() - compare what the stack still owns with what it
 * put there, byte for byte: the queued skb's data pointer, len and bytes
 * (the TCP original's payload, the bridge's or pktgen's frame), and the
 * tap clone's frame. A driver's test asserts 0 after each send: a
 * tx_fixup that writes into what the stack still owns corrupts the next
 * retransmit or the tap's copy. Return: how many of them changed (0:
 * intact).
 */
KM_API unsigned int km_traffic_check_owned(const struct km_traffic *tr);
/** Does @frame (@len bytes, as the device parsed it) equal the Ethernet
 *  frame of the last packet built, byte for byte? */
KM_API bool km_traffic_verify(const struct km_traffic *tr, const uint8_t *frame, size_t len);
/**
 * km_traffic_mismatch() - where @frame (@len bytes, as the device parsed
 * it) first differs from the Ethernet frame of the last packet built: the
 * offset of the first differing byte, or the shorter length when one is a
 * prefix of the other. @want, @got (may be NULL) receive the expected and
 * the found byte there, -1 past the end of either.
 * Return: that offset (>= 0); -1 when they are equal (km_traffic_verify()
 * holds); -EINVAL for a NULL @tr, no frame built yet, or a NULL @frame with
 * @len.
 */
KM_API long km_traffic_mismatch(const struct km_traffic *tr, const uint8_t *frame, size_t len,
				int *want, int *got);
/** Length of the frame of the last packet, bytes. */
KM_API size_t km_traffic_frame_len(const struct km_traffic *tr);
/** Completes what is pending and frees the sender. NULL is a no-op. */
KM_API void km_traffic_free(struct km_traffic *tr);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_TRAFFIC_H */
