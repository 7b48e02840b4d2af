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
 */
#ifndef KMODEL_TRAFFIC_H
#define KMODEL_TRAFFIC_H

#include <kmodel/skb.h>

#ifdef __cplusplus
extern "C" {
#endif

enum km_traffic_kind { KM_TRAFFIC_TCP = 0, KM_TRAFFIC_UDP };

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
 * @payload: bytes per packet: TCP MSS (default 1448, at most 65535 - 66),
 *           UDP payload (default 1472, same limit).
 * @max_tcp_header: TCP headroom reserved (default KM_TCP_MAX_HEADER_DEFAULT),
 *           at least 66.
 * @tap: a packet tap holds a clone while the driver transmits.
 */
struct km_traffic_config {
	enum km_traffic_kind kind;
	unsigned int payload;
	unsigned int max_tcp_header;
	bool tap;
};

struct km_traffic;

/**
 * km_traffic_new() - a sender on @t's machine for the device @dev (its
 * LL_RESERVED_SPACE decides UDP headroom; read at each packet).
 * Return: 0, -EINVAL (bad config: see km_last_error()). Caller owns *@out.
 */
KM_API int km_traffic_new(struct km_task *t, const struct km_net_device *dev,
			  const struct km_traffic_config *cfg, struct km_traffic **out);
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
/** The tap's clone is freed, and for TCP the ACK frees the queued original. */
KM_API void km_traffic_complete(struct km_traffic *tr);
/** Does @frame (@len bytes, as the device parsed it) equal the Ethernet
 *  frame of the last packet built, byte for byte? */
KM_API bool km_traffic_verify(const struct km_traffic *tr, const uint8_t *frame, size_t len);
/** Length of the frame of the last packet, bytes. */
KM_API size_t km_traffic_frame_len(const struct km_traffic *tr);
/** Completes what is pending and frees the sender. NULL is a no-op. */
KM_API void km_traffic_free(struct km_traffic *tr);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_TRAFFIC_H */
