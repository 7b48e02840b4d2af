/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/asix.h - the ASIX AX88772 USB Ethernet adapter: asix_tx_fixup()
 * of drivers/net/usb/asix.c before and after the 2012 patch "asix: avoid
 * copies in tx path" (Eric Dumazet, 5 Jul 2012, net-next for v3.6), each
 * ported verbatim and run through usbnet, and a model of the device that
 * parses the bulk-out byte stream back into Ethernet frames.
 *
 * Wire format (host to device, one frame per URB as asix_tx_fixup makes
 * them): a 4-byte little-endian header, frame length in bits 0-15 and its
 * one's complement in bits 16-31, then the frame; when (len + 4) is a
 * multiple of maxpacket, the pad word 0xffff0000 follows so that the
 * transfer never ends on a packet boundary (the header of an empty frame).
 * The device model decodes 11 length bits and takes frames up to 1518
 * bytes (a stated model policy: see km_asix_dev_rx()).
 */
#ifndef KMODEL_ASIX_H
#define KMODEL_ASIX_H

#include <kmodel/usb.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * km_asix_before - asix_tx_fixup() and ax88772_info of v3.5 (the
 * !skb_cloned() rule, no needed_headroom), usbnet v3.5, the AX88772 parser;
 * endpoints: full speed 8/16/32/64, high speed 512 (a USB 2.0 device).
 * km_asix_after - the same with the 2012 patch (skb_header_cloned() for the
 * header, skb_cloned() only with a pad, needed_headroom/tailroom 4).
 * Both are in km_usbnet_variants().
 */
KM_API extern const struct km_usbnet_variant km_asix_before;
KM_API extern const struct km_usbnet_variant km_asix_after;
/**
 * km_asix_mainline - asix_tx_fixup() of current mainline asix_common.c
 * (the 2012 rules, put_unaligned_le32 stores, usbnet_set_skb_tx_stats),
 * mainline usbnet. km_asix_hardened - the project's variant of it: data
 * moves only in an skb that is not cloned, a shared skb is copied, padlen
 * by modulo (its source says which flaw each change answers).
 * km_sr9800 - the CoreChip SR9800 (AX88772 framing, the same device
 * model): sr_tx_fixup() pinned at torvalds/linux 010e85f9e47c, padlen by
 * % (maxpacket - 1). km_ax88179 - the ASIX AX88179 (USB 3.0: SuperSpeed
 * 1024 too): ax88179_tx_fixup() pinned at torvalds/linux 002bba562dd3,
 * configured without SG/TSO, with its own device model (an 8-byte header
 * and a padding bit). All in km_usbnet_variants(), in this order after
 * before and after.
 */
KM_API extern const struct km_usbnet_variant km_asix_mainline;
KM_API extern const struct km_usbnet_variant km_asix_hardened;
KM_API extern const struct km_usbnet_variant km_sr9800;
KM_API extern const struct km_usbnet_variant km_ax88179;

/* ---- the device --------------------------------------------------------- */

struct km_asix_dev;

/** Called for each frame the device parsed (see km_usbnet_frame_fn). */
typedef km_usbnet_frame_fn km_asix_frame_fn;

/**
 * km_asix_dev_new() - an AX88772 bulk-out parser on @m (reports go there).
 * A harness feeds it the bytes its own tx_fixup produced (km_asix_dev_rx())
 * to see what the device makes of them, without usbnet in between.
 * @fn, @arg: frame callback (may be NULL: frames are only counted).
 * Return: 0, -EINVAL (NULL @m or @out). Free with km_asix_dev_free().
 */
KM_API int km_asix_dev_new(struct km_machine *m, km_asix_frame_fn fn, void *arg,
			   struct km_asix_dev **out);
KM_API void km_asix_dev_free(struct km_asix_dev *d);
/**
 * km_asix_usbnet_dev_new() - the AX88772 parser as a usbnet device model:
 * the @dev_new of the built-in AX88772-framed variants (before, after,
 * mainline, hardened, sr9800), for a variant of your own whose tx_fixup
 * writes the same framing (`.dev_new = km_asix_usbnet_dev_new`).
 * @m, @fn, @arg: as km_asix_dev_new(). @out: filled with the device (its
 * sink, stats for km_usbnet_dev_get_stats()); the caller owns it and frees
 * it with km_usbnet_dev_free(@out).
 * Return: 0, -EINVAL (NULL @m or @out).
 */
KM_API int km_asix_usbnet_dev_new(struct km_machine *m, km_usbnet_frame_fn fn, void *arg,
				  struct km_usbnet_dev *out);
/** The sink to give km_usbnet_probe(): for a harness that builds its own
 *  usbnet (its own driver, maxpacket or speed) on the ASIX device model. */
KM_API struct km_usb_sink km_asix_dev_sink(struct km_asix_dev *d);
/**
 * km_asix_dev_rx() - feed @len bytes of one USB packet; @end_of_transfer
 * for a short packet. Headers are parsed as they complete; a frame is
 * delivered as soon as its last byte arrives. The device decodes the low
 * 11 bits of the length and checks its complement in those 11 bits (as
 * the driver's rx side, asix_rx_fixup(), reads the framing: model policy,
 * no datasheet cited); a header that fails is a KM_R_USB_PROTOCOL WARN:
 * the rest of the transfer is discarded. A length of 2048 or more cannot
 * be encoded: it is a KM_R_USB_FRAME_DROPPED WARN (oversized++) and the
 * device goes on with the 11 bits it reads. A frame longer than 1518 bytes
 * (ETH_FRAME_LEN + VLAN_HLEN) is consumed and dropped: oversized++, a
 * KM_R_USB_FRAME_DROPPED WARN. A transfer that ends inside a header or a
 * frame is a KM_R_USB_PROTOCOL WARN too (the partial frame is dropped).
 * A NULL @d, or a NULL @buf with @len > 0 (also a KM_R_USB_PROTOCOL WARN:
 * the packet is ignored and ends no transfer), is -EINVAL.
 * Return: 0, or -EPROTO when this packet hit a bad header or truncation,
 * -EINVAL as above.
 */
KM_API int km_asix_dev_rx(struct km_asix_dev *d, const uint8_t *buf, size_t len,
			  bool end_of_transfer);
/** Copy the counters of @d to @out, @size bytes of it (the caller's
 *  sizeof(struct km_usbnet_dev_stats), at least
 *  KM_USBNET_DEV_STATS_MIN_SIZE; members the library has not, zeroed):
 *  zeros for a NULL @d; a NULL @out or smaller @size is ignored; both set
 *  km_last_error(). pad_words counts 0xffff0000 words, bad_headers headers
 *  whose complement did not match. Use km_asix_dev_get_stats(). */
KM_API void km_asix_dev_get_stats_sized(const struct km_asix_dev *d,
					struct km_usbnet_dev_stats *out, size_t size);
/** km_asix_dev_get_stats() - km_asix_dev_get_stats_sized() with this
 *  header's size. */
static inline void km_asix_dev_get_stats(const struct km_asix_dev *d,
					 struct km_usbnet_dev_stats *out)
{
	km_asix_dev_get_stats_sized(d, out, sizeof(struct km_usbnet_dev_stats));
}

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_ASIX_H */
