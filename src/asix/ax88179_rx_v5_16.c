// SPDX-License-Identifier: GPL-2.0
/*
 * ax88179_rx_fixup() of drivers/net/usb/ax88179_178a.c as it stood before
 * 57bc3d3ae8c1 ("net: usb: ax88179_178a: Fix out-of-bounds accesses in RX
 * fixup", Jann Horn, 2022; v5.17-rc), ported VERBATIM between the markers:
 * the "-" side of that commit (blob 1a627ba4b850), the text of v5.8 .. v5.16
 * (after e869e7a17798's 2-byte pseudo header fix and get_unaligned_le32()).
 * Compiled against include/kmodel/kernel; mainline usbnet. A variant for the
 * receive side only (km_usbnet_rx_variants(): "ax88179-v5.16"); its
 * transmit side is ax88179's.
 *
 * The flaws 57bc3d3ae8c1 names, kept on purpose: the metadata array at
 * hdr_off + 4 * pkt_cnt is read without a bound (reads past the URB); a
 * packet may overlap the metadata; a clone or the last skb takes
 * skb->len = pkt_len unchecked, so its tail lies past the URB's data.
 */
#include "ax88179_rx.h"
#include "asix_internal.h"

/* ---- BEGIN drivers/net/usb/ax88179_178a.c ax88179_rx_fixup() before 57bc3d3ae8c1 (verbatim) ---- */
static int ax88179_rx_fixup(struct usbnet *dev, struct sk_buff *skb)
{
	struct sk_buff *ax_skb;
	int pkt_cnt;
	u32 rx_hdr;
	u16 hdr_off;
	u32 *pkt_hdr;

	/* This check is no longer done by usbnet */
	if (skb->len < dev->net->hard_header_len)
		return 0;

	skb_trim(skb, skb->len - 4);
	rx_hdr = get_unaligned_le32(skb_tail_pointer(skb));

	pkt_cnt = (u16)rx_hdr;
	hdr_off = (u16)(rx_hdr >> 16);
	pkt_hdr = (u32 *)(skb->data + hdr_off);

	while (pkt_cnt--) {
		u16 pkt_len;

		le32_to_cpus(pkt_hdr);
		pkt_len = (*pkt_hdr >> 16) & 0x1fff;

		/* Check CRC or runt packet */
		if ((*pkt_hdr & AX_RXHDR_CRC_ERR) ||
		    (*pkt_hdr & AX_RXHDR_DROP_ERR)) {
			skb_pull(skb, (pkt_len + 7) & 0xFFF8);
			pkt_hdr++;
			continue;
		}

		if (pkt_cnt == 0) {
			skb->len = pkt_len;
			/* Skip IP alignment pseudo header */
			skb_pull(skb, 2);
			skb_set_tail_pointer(skb, skb->len);
			skb->truesize = pkt_len + sizeof(struct sk_buff);
			ax88179_rx_checksum(skb, pkt_hdr);
			return 1;
		}

		ax_skb = skb_clone(skb, GFP_ATOMIC);
		if (ax_skb) {
			ax_skb->len = pkt_len;
			/* Skip IP alignment pseudo header */
			skb_pull(ax_skb, 2);
			skb_set_tail_pointer(ax_skb, ax_skb->len);
			ax_skb->truesize = pkt_len + sizeof(struct sk_buff);
			ax88179_rx_checksum(ax_skb, pkt_hdr);
			usbnet_skb_return(dev, ax_skb);
		} else {
			return 0;
		}

		skb_pull(skb, (pkt_len + 7) & 0xFFF8);
		pkt_hdr++;
	}
	return 1;
}
/* ---- END verbatim ---- */

const struct km_usbnet_driver_info km_ax88179_v5_16_info = {
	.description = "ASIX AX88179 USB 3.0 Gigabit Ethernet",
	.bind = km_ax88179_bind,
	.flags = FLAG_ETHER | FLAG_FRAMING_AX,
	.tx_fixup = km_ax88179_tx,
	.rx_fixup = ax88179_rx_fixup,
};
