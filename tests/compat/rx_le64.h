/* SPDX-License-Identifier: GPL-2.0 */
/* tests/compat/rx_le64.c, for tests/test_rx.c */
#ifndef KM_TEST_RX_LE64_H
#define KM_TEST_RX_LE64_H

/* the header as the transfer's last 8 bytes hold it: 01 02 .. 08,
 * little-endian */
#define RX_LE64_HDR 0x0807060504030201ULL

extern const struct km_usbnet_driver_info km_test_le64_info;
/* SKB_TRUESIZE(@len) through the layer, on current's machine */
unsigned int km_test_skb_truesize(unsigned int len);

#endif
