// SPDX-License-Identifier: GPL-2.0
/*
 * The glue that registers aqc111_rx.c's two rx_fixups as receive-only
 * usbnet variants, "aqc111" and "aqc111-afb8e2465275", for kmodel-sweep rx
 * --load. The AQC111's bulk-in framing is one none of libkmodel's framing
 * kinds describes -- its descriptors and header are at the END of the
 * transfer -- so the device is a KM_FRAMING_ENCODER: a hook that lays out
 * one transfer from the frames and says where the first frame's length
 * and the frame count lie, so the sweep can make the malformed neighbours
 * of each valid transfer.
 *
 * The layout is the one aqc111_rx_fixup() reads (drivers/net/usb/aqc111.c,
 * torvalds/linux 0203146646be; no datasheet): each frame behind the 2-byte
 * AQ_RX_HW_PAD, padded to 8 bytes; then per frame a little-endian 64-bit
 * descriptor, its length (pad included) in bits 16-30 and AQ_RX_PD_RX_OK
 * (bit 11) set; then a 64-bit header pkt_count | desc_offset << 13 that
 * ends the transfer, desc_offset being where the descriptors start.
 *
 * The AQC111 checks received checksums (aqc111.h AQ_SUPPORT_FEATURE has
 * NETIF_F_RXCSUM) and says so in each descriptor's bits 0-4, which
 * aqc111_rx_checksum() reads: AQ_RX_PD_L4_TYPE (TCP 0x10, UDP 0x04),
 * AQ_RX_PD_L3_ERR, AQ_RX_PD_L4_ERR. The hook sets them from libkmodel's
 * km_csum_rx_verdict(), and the variants say .csum = KM_USBNET_RX_CSUM:
 * usbnet_skb_return() then checks each CHECKSUM_UNNECESSARY the driver
 * passes up against what the device verified (rx_csum_unverified).
 */
#include <errno.h>
#include <string.h>
#include <kmodel/kmodel.h>

#define AQ_RX_HW_PAD 2u
#define AQ_RX_PD_RX_OK (1u << 11)
#define AQ_RX_PD_L4_ERR (1u << 0)
#define AQ_RX_PD_L3_ERR (1u << 1)
#define AQ_RX_PD_L4_UDP 0x04u
#define AQ_RX_PD_L4_TCP 0x10u

extern const struct km_usbnet_driver_info aqc111_info, aqc111_afb8_info;

static void put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* the descriptor's checksum bits for a frame, as the device checks it */
static uint64_t aqc111_csum_bits(const uint8_t *frame, size_t len)
{
	unsigned int proto;
	enum km_csum_verdict c = km_csum_rx_verdict(frame, len, &proto);

	return (proto == 6 ? AQ_RX_PD_L4_TCP : proto == 17 ? AQ_RX_PD_L4_UDP : 0) |
	       (c == KM_CSUM_BAD_L3 ? AQ_RX_PD_L3_ERR : 0) |
	       (c == KM_CSUM_BAD_L4 ? AQ_RX_PD_L4_ERR : 0);
}

static long aqc111_encode(const struct km_framing *f, const uint8_t *const *frames,
			  const size_t *lens, size_t n, uint8_t *out, size_t cap,
			  struct km_framing_layout *layout)
{
	size_t desc = 0, total;

	(void)f;
	for (size_t i = 0; i < n; i++)
		desc += (AQ_RX_HW_PAD + lens[i] + 7) & ~(size_t)7;
	if (n > 0x1fff || desc > 0x7ffff)	/* pkt_count 13 bits, desc_offset 19 */
		return -EINVAL;
	total = desc + 8 * n + 8;
	if (total > cap)
		return -ENOSPC;
	memset(out, 0, total);
	for (size_t i = 0, off = 0; i < n; i++) {
		memcpy(out + off + AQ_RX_HW_PAD, frames[i], lens[i]);
		put_le64(out + desc + 8 * i,
			 (uint64_t)(AQ_RX_HW_PAD + lens[i]) << 16 | AQ_RX_PD_RX_OK |
			 aqc111_csum_bits(frames[i], lens[i]));
		off += (AQ_RX_HW_PAD + lens[i] + 7) & ~(size_t)7;
	}
	put_le64(out + total - 8, (uint64_t)n | (uint64_t)desc << 13);
	*layout = (struct km_framing_layout){
		.len_off = desc, .len_shift = 16, .len_bits = 15,	/* first descriptor */
		.count_off = total - 8, .count_bits = 13,		/* the header's count */
	};
	return (long)total;
}

static const struct km_framing aqc111_framing = {
	.kind = KM_FRAMING_ENCODER,
	.max_frame = 1518,	/* ETH_FRAME_LEN + VLAN_HLEN */
	.encode = aqc111_encode,
};

/* the (speed, maxpacket) pairs of a USB 3 device's bulk endpoints */
static const struct km_usb_ep_cfg aqc111_endpoints[] = {
	{ KM_USB_SPEED_SUPER, 1024 }, { KM_USB_SPEED_HIGH, 512 }, { 0, 0 },
};

static const struct km_usbnet_variant aqc111 = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "aqc111",
	.summary = "out-of-tree example: aqc111_rx_fixup() before afb8e2465275",
	.source = "examples/byo_rx_framing/aqc111_rx.c",
	.info = &aqc111_info,
	.era = KM_USBNET_MAINLINE,
	.endpoints = aqc111_endpoints,
	.framing = &aqc111_framing,	/* no .dev_new: receive only */
	.rx_source = "drivers/net/usb/aqc111.c aqc111_rx_fixup(), torvalds/linux 0203146646be",
	.csum = KM_USBNET_RX_CSUM,	/* the device checks what it receives */
};

static const struct km_usbnet_variant aqc111_afb8 = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "aqc111-afb8e2465275",
	.summary = "out-of-tree example: aqc111_rx_fixup() with afb8e2465275",
	.source = "examples/byo_rx_framing/aqc111_rx.c",
	.info = &aqc111_afb8_info,
	.era = KM_USBNET_MAINLINE,
	.endpoints = aqc111_endpoints,
	.framing = &aqc111_framing,
	.rx_source = "aqc111_rx_fixup() with afb8e2465275 applied",
	.csum = KM_USBNET_RX_CSUM,
};

KM_PLUGIN_INIT(reg)
{
	int err = km_registry_add_usbnet(reg, &aqc111);

	return err ? err : km_registry_add_usbnet(reg, &aqc111_afb8);
}
