// SPDX-License-Identifier: GPL-2.0
/*
 * The usbnet variants: each a ported driver_info, the usbnet era it runs
 * under, its device model and the endpoints it meets (see
 * include/kmodel/usb.h, struct km_usbnet_variant).
 */
#include "internal.h"
#include "asix_internal.h"
#include <kmodel/asix.h>
#include <string.h>

/* ---- device models as km_usbnet_dev -------------------------------------- */

/* The devices' Ethernet line rates. The AX88772 is a 10/100 controller
 * (ASIX datasheet "AX88772 USB 2.0 to 10/100M Fast Ethernet Controller";
 * drivers/net/usb/Kconfig, USB_NET_AX8817X: "ASIX AX88xxx based USB 2.0
 * 10/100 Ethernet adapters"), so is the SR9800 that speaks its framing
 * (USB_NET_SR9800: "CoreChip-sz SR9800 based USB 2.0 10/100 ethernet
 * devices"); the AX88179 a gigabit one (ASIX datasheet "AX88179 USB 3.0 to
 * 10/100/1000M Gigabit Ethernet Controller"; USB_NET_AX88179_178A: "ASIX
 * AX88179/178A USB 3.0/2.0 to Gigabit Ethernet"). Kconfig read at
 * torvalds/linux 009f77383651. */
#define FAST_ETHERNET 100000000ULL
#define GIGABIT_ETHERNET 1000000000ULL

static void asix_dev_stats(const void *priv, struct km_usbnet_dev_stats *out, size_t size)
{
	km_asix_dev_get_stats_sized(priv, out, size);
}

static void asix_dev_free(void *priv)
{
	km_asix_dev_free(priv);
}

int km_asix_usbnet_dev_new(struct km_machine *m, km_usbnet_frame_fn fn, void *arg,
			   struct km_usbnet_dev *out)
{
	struct km_asix_dev *d;
	int err;

	if (!out)
		return km_err(-EINVAL, "km_asix_usbnet_dev_new: NULL out");
	err = km_asix_dev_new(m, fn, arg, &d);
	if (err)
		return err;
	*out = (struct km_usbnet_dev){ .priv = d, .sink = km_asix_dev_sink(d),
				       .get_stats = asix_dev_stats, .free = asix_dev_free };
	return 0;
}

void km_usbnet_dev_get_stats_sized(const struct km_usbnet_dev *d, struct km_usbnet_dev_stats *out,
				   size_t size)
{
	struct km_usbnet_dev_stats st = { 0 };

	if (!out || size < KM_USBNET_DEV_STATS_MIN_SIZE) {
		km_set_error("usbnet_dev_get_stats: NULL out or size %zu < %zu", size,
			     (size_t)KM_USBNET_DEV_STATS_MIN_SIZE);
		return;
	}
	if (!d || !d->get_stats)
		km_set_error("usbnet_dev_get_stats: NULL device");
	else
		d->get_stats(d->priv, &st, sizeof(st));
	km_struct_write(out, size, &st, sizeof(st));
}

uint64_t km_usbnet_dev_wire_bits_per_s(const struct km_usbnet_dev *d)
{
	if (!d || !d->get_stats)
		return 0;
	if (d->get_stats == asix_dev_stats)
		return FAST_ETHERNET;
	if (km_ax88179_dev_is(d))
		return GIGABIT_ETHERNET;
	return 0;
}

void km_usbnet_dev_free(struct km_usbnet_dev *d)
{
	if (!d || !d->free)
		return;
	d->free(d->priv);
	d->priv = NULL;
}

/* ---- endpoints ------------------------------------------------------------ */

/* A USB 2.0 device: every full-speed bulk maxpacket the spec allows (USB 2.0
 * spec 5.8.3: 8, 16, 32 or 64) and high speed's 512. */
static const struct km_usb_ep_cfg usb2_endpoints[] = {
	{ KM_USB_SPEED_FULL, 8 }, { KM_USB_SPEED_FULL, 16 }, { KM_USB_SPEED_FULL, 32 },
	{ KM_USB_SPEED_FULL, 64 }, { KM_USB_SPEED_HIGH, 512 }, { 0, 0 },
};

const char *km_usb_speed_name(enum km_usb_speed speed)
{
	switch (speed) {
	case KM_USB_SPEED_LOW: return "low";
	case KM_USB_SPEED_FULL: return "full";
	case KM_USB_SPEED_HIGH: return "high";
	case KM_USB_SPEED_SUPER: return "super";
	default: return "unknown";
	}
}

const char *km_usbnet_era_name(enum km_usbnet_era era)
{
	switch (era) {
	case KM_USBNET_V3_5: return "v3.5";
	case KM_USBNET_MAINLINE: return "mainline";
	default: return "unknown";
	}
}

/* ---- the variants ----------------------------------------------------------- */

/* their devices' bulk-in framings (see framing.c for where they come from) */
static const struct km_framing km_framing_ax88772_v = {
	.kind = KM_FRAMING_LENGTH, .hdr_bytes = 4, .len_bits = 11, .inverted_copy = true,
	.align = 2, .trailing_pad = 1, .max_frame = 1518,
};
static const struct km_framing km_framing_ax88179_v = {
	.kind = KM_FRAMING_AX88179, .align = 8, .pseudo_hdr = 2, .max_frame = 1518,
	.descriptors_per_frame = 2,
};
/* the AX88179's checksum offload: ax88179_reset() sets AX_RXCOE_CTL and
 * AX_TXCOE_CTL (IP, TCP, UDP, TCPV6, UDPV6), ax88179_bind() NETIF_F_IP_CSUM
 * | NETIF_F_IPV6_CSUM | NETIF_F_RXCSUM (torvalds/linux 002bba562dd3, whose
 * bind the older rx_fixup texts' variants run too) */
#define AX88179_CSUM (KM_USBNET_RX_CSUM | KM_USBNET_TX_CSUM)

const struct km_usbnet_variant km_asix_before = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "before",
	.summary = "v3.5: copy every cloned skb (!skb_cloned rule), no needed_headroom",
	.source = "drivers/net/usb/asix.c asix_tx_fixup(), ax88772_bind(), v3.5",
	.info = &km_asix_v35_ax88772_info,
	.era = KM_USBNET_V3_5,
	.dev_new = km_asix_usbnet_dev_new,
	.endpoints = usb2_endpoints,
	.framing = &km_framing_ax88772_v,
	.rx_source = "drivers/net/usb/asix.c asix_rx_fixup(), v3.5",
};

const struct km_usbnet_variant km_asix_after = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "after",
	.summary = "2012 patch: skb_header_cloned for the header, skb_cloned only with a pad; "
		   "needed_headroom/tailroom 4",
	.source = "drivers/net/usb/asix.c asix_tx_fixup(), ax88772_bind(), "
		  "\"asix: avoid copies in tx path\" (v3.6)",
	.info = &km_asix_v36_ax88772_info,
	/* the patch went into net-next on top of v3.5's usbnet */
	.era = KM_USBNET_V3_5,
	.dev_new = km_asix_usbnet_dev_new,
	.endpoints = usb2_endpoints,
};

const struct km_usbnet_variant km_asix_mainline = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "mainline",
	.summary = "current mainline asix_tx_fixup: the 2012 rules, put_unaligned_le32, "
		   "tx stats",
	.source = "drivers/net/usb/asix_common.c asix_tx_fixup(), mainline (v5.4+ text)",
	.info = &km_asix_mainline_ax88772_info,
	.era = KM_USBNET_MAINLINE,
	.dev_new = km_asix_usbnet_dev_new,
	.endpoints = usb2_endpoints,
};

const struct km_usbnet_variant km_asix_hardened = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "hardened",
	.summary = "mainline with memmove only in an uncloned skb, a shared skb copied, "
		   "padlen by modulo",
	.source = "src/asix/asix_tx_fixup_hardened.patch (the project's; on mainline "
		  "asix_common.c asix_tx_fixup(), asix_tx_fixup_mainline.c)",
	.info = &km_asix_hardened_info,
	.era = KM_USBNET_MAINLINE,
	.dev_new = km_asix_usbnet_dev_new,
	.endpoints = usb2_endpoints,
};

/* the SR9800 speaks the AX88772's framing (the driver's rx side is
 * asix_rx_fixup()'s): the same device model */
const struct km_usbnet_variant km_sr9800 = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "sr9800",
	.summary = "CoreChip SR9800 (v5.4+ mainline text; driver of v3.13): pad test "
		   "% (maxpacket - 1), !skb_cloned rule",
	.source = "drivers/net/usb/sr9800.c sr_tx_fixup(), mainline at torvalds/linux "
		  "010e85f9e47c (v5.4+ text)",
	.info = &km_sr9800_info,
	.era = KM_USBNET_MAINLINE,
	.dev_new = km_asix_usbnet_dev_new,
	.endpoints = usb2_endpoints,
	.framing = &km_framing_ax88772_v,
	.rx_source = "drivers/net/usb/sr9800.c sr_rx_fixup(), torvalds/linux 010e85f9e47c",
};

/* a USB 3.0 device: SuperSpeed 1024 and the USB 2.0 speeds */
static const struct km_usb_ep_cfg usb3_endpoints[] = {
	{ KM_USB_SPEED_FULL, 8 }, { KM_USB_SPEED_FULL, 16 }, { KM_USB_SPEED_FULL, 32 },
	{ KM_USB_SPEED_FULL, 64 }, { KM_USB_SPEED_HIGH, 512 }, { KM_USB_SPEED_SUPER, 1024 },
	{ 0, 0 },
};

const struct km_usbnet_variant km_ax88179 = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "ax88179",
	.summary = "ASIX AX88179 (USB 3.0): 8-byte header, padding bit, pskb_expand_head; "
		   "SG/TSO off",
	.source = "drivers/net/usb/ax88179_178a.c ax88179_tx_fixup(), torvalds/linux "
		  "002bba562dd3",
	.info = &km_ax88179_info,
	.era = KM_USBNET_MAINLINE,
	.dev_new = km_ax88179_dev_new,
	.endpoints = usb3_endpoints,
	.framing = &km_framing_ax88179_v,
	.rx_source = "drivers/net/usb/ax88179_178a.c ax88179_rx_fixup(), torvalds/linux "
		     "002bba562dd3 (after 57bc3d3ae8c1 and f8ebb3ac881b)",
	.csum = AX88179_CSUM,
};

/* the receive side only: asix_rx_fixup_internal(), frames across URBs */
const struct km_usbnet_variant km_asix_v4_14 = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "asix-v4.14",
	.summary = "AX88772 rx_fixup keeping a frame across URBs (asix_rx_fixup_internal())",
	.source = "drivers/net/usb/asix_common.c asix_tx_fixup(), mainline (v5.4+ text)",
	.info = &km_asix_v4_14_info,
	.era = KM_USBNET_MAINLINE,
	.dev_new = km_asix_usbnet_dev_new,
	.endpoints = usb2_endpoints,
	.framing = &km_framing_ax88772_v,
	.rx_source = "drivers/net/usb/asix_common.c asix_rx_fixup_internal(), torvalds/linux "
		     "0c17cc5fc36a (v4.14 text)",
};

/* the receive side only: ax88179_rx_fixup() around its public fixes */
const struct km_usbnet_variant km_ax88179_v5_7 = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "ax88179-v5.7",
	.summary = "AX88179 rx_fixup before e869e7a17798: frames 2 bytes too long",
	.source = "drivers/net/usb/ax88179_178a.c ax88179_tx_fixup(), torvalds/linux "
		  "002bba562dd3",
	.info = &km_ax88179_v5_7_info,
	.era = KM_USBNET_MAINLINE,
	.dev_new = km_ax88179_dev_new,
	.endpoints = usb3_endpoints,
	.framing = &km_framing_ax88179_v,
	.rx_source = "drivers/net/usb/ax88179_178a.c ax88179_rx_fixup(), v5.7 "
		     "(before e869e7a17798)",
	.csum = AX88179_CSUM,
};

const struct km_usbnet_variant km_ax88179_v5_16 = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "ax88179-v5.16",
	.summary = "AX88179 rx_fixup before 57bc3d3ae8c1: metadata and lengths unchecked",
	.source = "drivers/net/usb/ax88179_178a.c ax88179_tx_fixup(), torvalds/linux "
		  "002bba562dd3",
	.info = &km_ax88179_v5_16_info,
	.era = KM_USBNET_MAINLINE,
	.dev_new = km_ax88179_dev_new,
	.endpoints = usb3_endpoints,
	.framing = &km_framing_ax88179_v,
	.rx_source = "drivers/net/usb/ax88179_178a.c ax88179_rx_fixup(), v5.8 .. v5.16 "
		     "(before 57bc3d3ae8c1)",
	.csum = AX88179_CSUM,
};

const struct km_usbnet_variant km_ax88179_57bc = {
	.size = KM_USBNET_VARIANT_SIZE,
	.name = "ax88179-57bc3d3ae8c1",
	.summary = "AX88179 rx_fixup after 57bc3d3ae8c1, before f8ebb3ac881b: "
		   "pkt_cnt * 2 bound, one entry too many",
	.source = "drivers/net/usb/ax88179_178a.c ax88179_tx_fixup(), torvalds/linux "
		  "002bba562dd3",
	.info = &km_ax88179_57bc_info,
	.era = KM_USBNET_MAINLINE,
	.dev_new = km_ax88179_dev_new,
	.endpoints = usb3_endpoints,
	.framing = &km_framing_ax88179_v,
	.rx_source = "drivers/net/usb/ax88179_178a.c ax88179_rx_fixup(), 57bc3d3ae8c1",
	.csum = AX88179_CSUM,
};

static const struct km_usbnet_variant *const variants[] = {
	&km_asix_before, &km_asix_after, &km_asix_mainline, &km_asix_hardened, &km_sr9800,
	&km_ax88179, NULL
};

static const struct km_usbnet_variant *const rx_variants[] = {
	&km_asix_before, &km_sr9800, &km_ax88179, &km_ax88179_v5_7, &km_ax88179_v5_16,
	&km_ax88179_57bc, &km_asix_v4_14, NULL
};

const struct km_usbnet_variant *const *km_usbnet_variants(void)
{
	return variants;
}

const struct km_usbnet_variant *const *km_usbnet_rx_variants(void)
{
	return rx_variants;
}

static const struct km_usbnet_variant *find_in(const struct km_usbnet_variant *const *vs,
					       const char *name)
{
	for (size_t i = 0; name && vs[i]; i++)
		if (!strcmp(vs[i]->name, name))
			return vs[i];
	return NULL;
}

const struct km_usbnet_variant *km_usbnet_find(const char *name)
{
	return find_in(variants, name);
}

const struct km_usbnet_variant *km_usbnet_find_any(const char *name)
{
	const struct km_usbnet_variant *v = find_in(variants, name);

	return v ? v : find_in(rx_variants, name);
}

static bool speed_known(enum km_usb_speed s)
{
	return s == KM_USB_SPEED_LOW || s == KM_USB_SPEED_FULL || s == KM_USB_SPEED_HIGH ||
	       s == KM_USB_SPEED_SUPER;
}

int km_usbnet_variant_check(const struct km_usbnet_variant *v)
{
	if (!v)
		return km_err(-EINVAL, "usbnet variant: NULL");
	if (v->size < KM_USBNET_VARIANT_MIN_SIZE)
		return km_err(-EINVAL, "usbnet variant: size %zu < %zu (initialise .size with "
			      "KM_USBNET_VARIANT_SIZE)", v->size, (size_t)KM_USBNET_VARIANT_MIN_SIZE);
	if (!v->name || !*v->name)
		return km_err(-EINVAL, "usbnet variant: no name");
	/* tx_fixup is optional: usbnet_start_xmit() calls it only "if
	 * (info->tx_fixup)" (drivers/net/usb/usbnet.c, v3.5 and mainline) and
	 * sends the skb unchanged without one (cdc_subset's drivers have none) */
	if (!v->info)
		return km_err(-EINVAL, "usbnet variant %s: no driver_info", v->name);
	if (v->era != KM_USBNET_V3_5 && v->era != KM_USBNET_MAINLINE)
		return km_err(-EINVAL, "usbnet variant %s: unknown usbnet era %d", v->name,
			      (int)v->era);
	/* a receive side alone needs no device model: the rx path takes the
	 * bulk-in transfers from the caller (km_usbnet_rx_urb()) */
	if (!v->dev_new && !km_usbnet_variant_tx_framing(v) &&
	    !(km_usbnet_variant_has(v, framing) && v->framing))
		return km_err(-EINVAL, "usbnet variant %s: no device model (a dev_new, or a "
			      "framing with a length before each frame or a decode hook) and no "
			      "receive side (a framing)", v->name);
	/* a framing the library cannot lay out would make every valid state
	 * of the receive sweep a frame_lost: said here, by name */
	if (km_usbnet_variant_has(v, framing) && v->framing &&
	    ((unsigned int)v->framing->kind > KM_FRAMING_ENCODER ||
	     (v->framing->kind == KM_FRAMING_ENCODER && !v->framing->encode)))
		return km_err(-EINVAL, "usbnet variant %s: framing of kind %d%s", v->name,
			      (int)v->framing->kind, v->framing->kind == KM_FRAMING_ENCODER ?
			      " (KM_FRAMING_ENCODER) without an encode hook" : ", unknown");
	if (km_usbnet_variant_has(v, csum) && (v->csum & ~(KM_USBNET_RX_CSUM | KM_USBNET_TX_CSUM)))
		return km_err(-EINVAL, "usbnet variant %s: checksum offload bits %#x unknown "
			      "(KM_USBNET_RX_CSUM, KM_USBNET_TX_CSUM)", v->name, v->csum);
	if (!v->endpoints || !v->endpoints[0].maxpacket)
		return km_err(-EINVAL, "usbnet variant %s: no endpoints", v->name);
	for (const struct km_usb_ep_cfg *e = v->endpoints; e->maxpacket; e++)
		if (!speed_known(e->speed) || e->maxpacket > 1024)
			return km_err(-EINVAL, "usbnet variant %s: endpoint (%d, %u) invalid",
				      v->name, (int)e->speed, e->maxpacket);
	return 0;
}

bool km_usbnet_variant_allows(const struct km_usbnet_variant *v, enum km_usb_speed speed,
			      unsigned int maxpacket)
{
	if (!v || !v->endpoints)
		return false;
	for (const struct km_usb_ep_cfg *e = v->endpoints; e->maxpacket; e++)
		if (e->speed == speed && e->maxpacket == maxpacket)
			return true;
	return false;
}

const struct km_framing *km_framing_ax88772(void)
{
	return &km_framing_ax88772_v;
}

const struct km_framing *km_framing_ax88179(void)
{
	return &km_framing_ax88179_v;
}
