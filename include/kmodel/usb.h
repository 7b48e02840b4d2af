/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/usb.h - a USB bulk-out pipe split into maxpacket-sized packets, and
 * the transmit path of usbnet (drivers/net/usb/usbnet.c, v3.5:
 * usbnet_start_xmit(), tx_complete(), usbnet_bh()) in front of it.
 *
 * Data flows one way: usbnet_start_xmit() calls the minidriver's tx_fixup,
 * builds the URB from skb->data/skb->len, applies the 2012 length rules and
 * submits it to the bulk-out endpoint, which hands the device model one
 * packet at a time; the URB then completes at once and the skb is freed as
 * usbnet_bh() does. One machine, one host thread (see machine.h).
 */
#ifndef KMODEL_USB_H
#define KMODEL_USB_H

#include <kmodel/skb.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* driver_info.flags (include/linux/usb/usbnet.h, v3.5) */
#define KM_FLAG_ETHER		0x0020	/**< maybe use "eth%d" names */
#define KM_FLAG_FRAMING_AX	0x0040	/**< AX88772/178 packets */
#define KM_FLAG_SEND_ZLP	0x0200	/**< hw requires ZLPs are sent */
#define KM_FLAG_LINK_INTR	0x0800	/**< updates link (carrier) status */
#define KM_FLAG_MULTI_PACKET	0x2000	/**< driver handles short packets itself */
#define KM_FLAG_RX_ASSEMBLE	0x4000	/**< rx_fixup() keeps the rx error counters */

/** Largest wMaxPacketSize of a bulk endpoint descriptor (its 11 size
 *  bits), bytes: what km_usbnet_probe() and km_usb_bulk_out() accept. The
 *  spec's per-speed limits are checked by km_usbnet_probe(). */
#define KM_USB_MAXPACKET_MAX 2047u

/** Device speeds, numbered as enum usb_device_speed
 *  (include/linux/usb/ch9.h). Low speed has no bulk endpoints. */
enum km_usb_speed {
	KM_USB_SPEED_UNKNOWN = 0,
	KM_USB_SPEED_LOW = 1,	/**< USB 1.1, 1.5 Mbit/s */
	KM_USB_SPEED_FULL = 2,	/**< USB 1.1, 12 Mbit/s: bulk maxpacket 8, 16, 32 or 64 */
	KM_USB_SPEED_HIGH = 3,	/**< USB 2.0, 480 Mbit/s: bulk maxpacket 512 */
	KM_USB_SPEED_WIRELESS = 4, /**< Wireless USB: not modelled (km_usbnet_probe() refuses it) */
	KM_USB_SPEED_SUPER = 5,	/**< USB 3.0, 5 Gbit/s: bulk maxpacket 1024 */
};

/** Short name of @speed ("full", "high", ...; "unknown" otherwise). */
KM_API const char *km_usb_speed_name(enum km_usb_speed speed);

/** A bulk-out endpoint as a device presents it: speed and wMaxPacketSize.
 *  Frozen (a variant hands an array of them: its stride is ABI). */
struct km_usb_ep_cfg {
	enum km_usb_speed speed;
	unsigned int maxpacket;
};

/**
 * struct km_usb_endpoint_descriptor - an endpoint descriptor as it comes
 * from the device (include/uapi/linux/usb/ch9.h, v3.5 .. v5.7: struct
 * usb_endpoint_descriptor without the audio members). @wMaxPacketSize is
 * little-endian, as on the wire.
 */
struct km_usb_endpoint_descriptor {
	uint8_t bLength;
	uint8_t bDescriptorType;
	uint8_t bEndpointAddress;	/**< number in bits 3:0, 0x80 = IN */
	uint8_t bmAttributes;		/**< transfer type in bits 1:0 (2 = bulk) */
	uint16_t wMaxPacketSize;	/**< little-endian; size in bits 10:0 */
	uint8_t bInterval;
} __attribute__((packed));

/** The slice of struct usb_host_endpoint (include/linux/usb.h) a driver
 *  reads: its descriptor. */
struct km_usb_host_endpoint {
	struct km_usb_endpoint_descriptor desc;
};

/**
 * struct km_usb_device - the slice of struct usb_device (include/linux/usb.h,
 * v3.5 .. v5.7) that usb_maxpacket() and the pipe macros read: the device
 * number, its speed and the endpoint tables by endpoint number, as the USB
 * core fills them from the descriptors (usb_enable_endpoint()). The
 * compatibility layer's <linux/usb.h> names it struct usb_device; a program
 * may fill one itself. Frozen, as its endpoint structs (struct km_usbnet
 * embeds them).
 */
struct km_usb_device {
	int devnum;
	enum km_usb_speed speed;
	struct km_usb_host_endpoint *ep_in[16];
	struct km_usb_host_endpoint *ep_out[16];
};

struct km_usbnet;
struct km_usb_interface;	/* stub: never dereferenced */

/**
 * struct km_usb_sink - the function on the far end of a bulk-out pipe.
 * @packet: called for each USB packet of @len bytes (0 for a zero-length
 *          packet); @end_of_transfer is true for a short packet (len <
 *          maxpacket, ZLP included), which ends the transfer.
 * @priv: passed back to @packet (and @transfer).
 * @transfer: optional (NULL: @packet only): the whole transfer in one call,
 *          for a device whose parser does not care where packets split:
 *          the bytes @packet would get, in order, and @ended as the last
 *          packet's @end_of_transfer (the transfer ends with a short packet
 *          or a ZLP; a zero-length transfer is one ZLP). km_usb_bulk_out()
 *          calls it instead of @packet when set: the same stream, one call.
 */
struct km_usb_sink {
	void (*packet)(void *priv, const uint8_t *data, size_t len, bool end_of_transfer);
	void *priv;
	void (*transfer)(void *priv, const uint8_t *data, size_t len, bool ended);
};

/** A bulk-out endpoint: @maxpacket bytes per packet, @sink receives them. */
struct km_usb_ep {
	struct km_machine *m;
	unsigned int maxpacket;
	struct km_usb_sink sink;
};

/**
 * km_usb_bulk_out() - send one bulk transfer of @len bytes from @buf over
 * @ep: ceil(len / maxpacket) packets, the last one short unless len is a
 * multiple of maxpacket; then, with @zero_packet (URB_ZERO_PACKET), a
 * zero-length packet ends the transfer. A non-empty transfer that is a
 * multiple of maxpacket without a ZLP is reported (KM_R_USB_NO_ZLP WARN:
 * the device keeps waiting for the rest of it). A zero-length transfer is
 * one ZLP. Events: urbs, usb_packets, usb_bytes.
 * Return: number of packets sent, or -EINVAL (bad endpoint).
 */
KM_API int km_usb_bulk_out(struct km_usb_ep *ep, const void *buf, size_t len, bool zero_packet);

/**
 * struct km_usbnet_driver_info - the slice of struct driver_info used on
 * transmit and receive (include/linux/usb/usbnet.h, v3.5).
 * @bind: called by km_usbnet_probe() (may set net->needed_headroom,
 *        rx_urb_size...); returns 0 or -errno.
 * @tx_fixup: may return the same skb, a new one (having freed the old), or
 *            NULL (having freed it).
 * @rx_fixup: (appended) the receive side: called by rx_process() with the
 *            URB's skb; returns 0 for an error (usbnet counts it unless
 *            FLAG_RX_ASSEMBLE), non-zero to have usbnet pass what is left
 *            of the skb up (or free it with FLAG_MULTI_PACKET). Read only
 *            through a variant whose @size covers its @framing member
 *            (km_usbnet_variant_has(v, framing)): a table compiled before
 *            the member was appended ends at @tx_fixup.
 * @unbind: (appended, read as @rx_fixup is) km_usbnet_free() calls it
 *          first: a driver that keeps state across URBs frees it there
 *          (ax88772_unbind(): asix_rx_fixup_common_free()).
 */
struct km_usbnet_driver_info {
	const char *description;
	int flags;
	int (*bind)(struct km_usbnet *dev, struct km_usb_interface *intf);
	struct km_skb *(*tx_fixup)(struct km_usbnet *dev, struct km_skb *skb, km_gfp_t flags);
	/* appended */
	int (*rx_fixup)(struct km_usbnet *dev, struct km_skb *skb);
	void (*unbind)(struct km_usbnet *dev, struct km_usb_interface *intf);
};

/**
 * enum km_usbnet_era - the version of usbnet's transmit path a driver runs
 * under (the model's usbnet follows one version per driver, as a driver
 * was written and tested against the usbnet of its time).
 * @KM_USBNET_V3_5: drivers/net/usb/usbnet.c of v3.5 (July 2012).
 * @KM_USBNET_MAINLINE: current mainline usbnet.c.
 * Where the two differ for the model (what a NULL from tx_fixup drops,
 * tx statistics, config.c's maxpacket clamp) mainline's rules date from
 * v4.0 (usbnet_set_skb_tx_stats(): the driver reports its packets and
 * bytes) or earlier, so a driver of v4.0 or later -- a v5.7 port, say --
 * takes KM_USBNET_MAINLINE, one of the 2012 era KM_USBNET_V3_5.
 */
enum km_usbnet_era {
	KM_USBNET_V3_5 = 0,
	KM_USBNET_MAINLINE = 1,
};

/** Short name of @era ("v3.5", "mainline"; "unknown" otherwise): for a
 *  program's listing of variants. */
KM_API const char *km_usbnet_era_name(enum km_usbnet_era era);

/* ---- the device model at the far end of the pipe -------------------------- */

/** Called for each frame a device model parsed: @frame (valid during the
 *  call) of @len bytes. */
typedef void (*km_usbnet_frame_fn)(void *arg, const uint8_t *frame, size_t len);

/**
 * struct km_usbnet_dev_stats - counters of a device model's bulk-out parser.
 * Members are only appended: km_usbnet_dev_get_stats() passes the caller's
 * size, and a model's get_stats is told the library's (a plugin's struct
 * may be older or newer than the library's).
 * @frames: frames delivered.
 * @frame_bytes: their bytes.
 * @pad_words: padding units of the framing seen (asix: 0xffff0000 words).
 * @bad_headers: headers the device refused (the rest of the transfer is
 *               discarded).
 * @truncated: transfers that ended inside a header or a frame.
 * @transfers: transfers ended (by a short packet or a ZLP).
 * @oversized: frames the device dropped as longer than it takes or than
 *             its header can encode.
 */
struct km_usbnet_dev_stats {
	uint64_t frames;
	uint64_t frame_bytes;
	uint64_t pad_words;
	uint64_t bad_headers;
	uint64_t truncated;
	uint64_t transfers;
	uint64_t oversized;
};

/** The members of the first versioned km_usbnet_dev_stats (SONAME 2). */
#define KM_USBNET_DEV_STATS_MIN_SIZE \
	(offsetof(struct km_usbnet_dev_stats, oversized) + sizeof(uint64_t))

/**
 * km_usbnet_dev_stats_put() - for a device model's get_stats: copy its
 * counters @st into @out, @size bytes of it (the size the library passes):
 * the members both know; the library zeroed the rest.
 */
static inline void km_usbnet_dev_stats_put(struct km_usbnet_dev_stats *out, size_t size,
					   const struct km_usbnet_dev_stats *st)
{
	memcpy(out, st, size < sizeof(*st) ? size : sizeof(*st));
}

/**
 * struct km_usbnet_dev - one instance of a device model, as a variant's
 * @dev_new constructor makes it.
 * @priv: the model's state (owned by the instance).
 * @sink: gives it the bulk-out packets (pass to km_usbnet_probe()).
 * @get_stats: fills the counters: @size bytes of @out, the library's
 *             sizeof(struct km_usbnet_dev_stats), zeroed before the call
 *             (use km_usbnet_dev_stats_put()); callers use
 *             km_usbnet_dev_get_stats().
 * @free: frees @priv (use km_usbnet_dev_free()).
 */
struct km_usbnet_dev {
	void *priv;
	struct km_usb_sink sink;
	void (*get_stats)(const void *priv, struct km_usbnet_dev_stats *out, size_t size);
	void (*free)(void *priv);
};

/**
 * km_usbnet_dev_get_stats_sized() - @d's counters into @out, @size bytes
 * of it (sizeof(struct km_usbnet_dev_stats) as the caller was compiled, at
 * least KM_USBNET_DEV_STATS_MIN_SIZE): what the model does not fill is
 * zero. A NULL @d: zeros; a NULL @out or a smaller @size: nothing;
 * km_last_error() says which. Use km_usbnet_dev_get_stats().
 */
KM_API void km_usbnet_dev_get_stats_sized(const struct km_usbnet_dev *d,
					  struct km_usbnet_dev_stats *out, size_t size);
/** km_usbnet_dev_get_stats() - km_usbnet_dev_get_stats_sized() with this
 *  header's size. */
static inline void km_usbnet_dev_get_stats(const struct km_usbnet_dev *d,
					   struct km_usbnet_dev_stats *out)
{
	km_usbnet_dev_get_stats_sized(d, out, sizeof(struct km_usbnet_dev_stats));
}
/** Free the instance's state; @d itself is the caller's. NULL is a no-op. */
KM_API void km_usbnet_dev_free(struct km_usbnet_dev *d);
/**
 * km_usbnet_dev_wire_bits_per_s() - the fastest Ethernet line rate of the
 * device @d is an instance of, bits per second: the library's AX88772
 * parser (km_asix_usbnet_dev_new(): the variants before, after, mainline,
 * hardened, sr9800 and any variant that reuses it) 100000000 -- the
 * AX88772 and the SR9800 are 10/100 controllers -- and its AX88179
 * (variant ax88179) 1000000000, 10/100/1000. The wire of the cost model's
 * link bound for an iperf row (km_cost_predict_row()).
 * Return: that rate; 0 for NULL or a device model built outside the
 * library (not known: no wire bound).
 */
KM_API uint64_t km_usbnet_dev_wire_bits_per_s(const struct km_usbnet_dev *d);

/* ---- framing: what a device puts around the frames of a bulk transfer ----- */

/** enum km_framing_kind - the shapes of bulk-in framing the model's
 *  devices produce (km_framing_encode()). */
enum km_framing_kind {
	KM_FRAMING_NONE = 0,	/**< one frame per transfer, as it is */
	KM_FRAMING_LENGTH = 1,	/**< a length word before (or after) each frame */
	KM_FRAMING_AX88179 = 2,	/**< frames, then a descriptor per frame and a count */
	KM_FRAMING_ENCODER = 3,	/**< laid out by the framing's @encode hook */
};

struct km_framing;

/**
 * struct km_framing_layout - where the fields a sweep mutates lie in a
 * stream km_framing_encode_layout() laid out, each as bits of the
 * little-endian 32-bit word at a byte offset of the stream (a field of a
 * 64-bit descriptor names the word of its half).
 * @len_off: offset of the word with the first frame's length (as the
 *           device counts it: with a pseudo header or pad, if it does).
 * @len_shift: its lowest bit in the word.
 * @len_bits: its width; 0: no length to mutate (len+1, len-1, len+8 are
 *            then the valid stream).
 * @count_off: offset of the word with the transfer's frame or descriptor
 *             count, if the framing has one.
 * @count_shift: its lowest bit.
 * @count_bits: its width; 0: none (copy_disagrees has nothing to change).
 * A field's word lies inside the stream; @shift + @bits is at most 32.
 */
struct km_framing_layout {
	size_t len_off;
	unsigned int len_shift, len_bits;
	size_t count_off;
	unsigned int count_shift, count_bits;
};

/**
 * km_framing_encode_fn - a user's device, laying out one bulk-in stream
 * (KM_FRAMING_ENCODER): @n frames (@frames[i] of @lens[i] bytes, each at
 * most @f->max_frame, checked before the call) into @out, @cap bytes at
 * most, and its @layout (zeroed before the call: fill what the framing
 * has). @f is the framing the hook belongs to (a user's struct that embeds
 * it reaches its own parameters with container_of()).
 * Return: the stream's length (at most @cap), or a negative errno
 * (-ENOSPC when @cap is too small, -EINVAL for frames the device cannot
 * send).
 */
typedef long (*km_framing_encode_fn)(const struct km_framing *f, const uint8_t *const *frames,
				     const size_t *lens, size_t n, uint8_t *out, size_t cap,
				     struct km_framing_layout *layout);

/** km_framing_emit_fn - hands a frame a decode hook found to the device:
 *  @frame (@len bytes) must lie in the transfer the hook was given.
 *  Return: 0, or -EINVAL for a frame outside it (not delivered). */
typedef int (*km_framing_emit_fn)(void *ctx, const uint8_t *frame, size_t len);

/**
 * km_framing_decode_fn - a user's device parsing what it got on bulk-out
 * (KM_FRAMING_ENCODER): @buf, @len bytes, the bytes up to a short packet
 * (or a ZLP) -- one transfer as the device sees it. Each frame it finds
 * goes to @emit(@ctx, frame, len), in order. @f is the framing the hook
 * belongs to.
 * Return: 0, or a negative errno for a transfer it cannot parse (the
 * device counts a bad header and reports KM_R_USB_PROTOCOL; the frames
 * emitted before stay delivered).
 */
typedef int (*km_framing_decode_fn)(const struct km_framing *f, const uint8_t *buf, size_t len,
				    km_framing_emit_fn emit, void *ctx);

/**
 * struct km_framing - a framed device, described instead of written: what
 * a user's driver needs for the model to produce its device's bulk-in
 * transfers (and to compare the frames its rx_fixup passes up).
 * @kind: the shape (above).
 * @hdr_bytes: KM_FRAMING_LENGTH: bytes of the length word (2 or 4),
 *             little-endian.
 * @suffix: KM_FRAMING_LENGTH: the word follows its frame instead of
 *          preceding it.
 * @len_bits: bits of the length in the word's low half (11 for the
 *            AX88772: 0x7ff).
 * @inverted_copy: the word's high 16 bits hold the length's complement
 *                 (the AX88772's header: len | ~len << 16); needs 4 bytes.
 * @align: each frame's span (its word included) is padded with zero bytes
 *         to a multiple of this (AX88772 2, AX88179 8; 0 or 1: none).
 * @pseudo_hdr: bytes the device puts before each frame inside its span
 *              (AX88179: the 2-byte IP alignment pseudo header), counted in
 *              the length it reports.
 * @trailing_pad: bytes after a frame that a driver may pass up with it as
 *                the device's documented pad (a v3.5 asix_rx_fixup() last
 *                frame of odd length keeps its pad byte): a delivered frame
 *                that is the sent one plus up to this many bytes is no
 *                mismatch (km_framing_frame_ok()).
 * @max_frame: the longest frame the device sends, bytes.
 * @descriptors_per_frame: KM_FRAMING_AX88179: descriptors per frame, 1 or
 *                2 (the second a dummy of length 0 with the drop bit, as
 *                the driver's comment says current firmware sends).
 * @encode: (appended) KM_FRAMING_ENCODER: the device's layout of a bulk-in
 *          stream, for a framing none of the other kinds describes (the
 *          AQC111's descriptors at the transfer's end:
 *          examples/byo_rx_framing). Read only when @kind is
 *          KM_FRAMING_ENCODER, so a struct compiled before it existed is
 *          never read past its end. Of the other members such a framing
 *          uses @max_frame and @trailing_pad.
 * @decode: (appended) KM_FRAMING_ENCODER: the same device on bulk-out,
 *          optional: with it km_framing_dev_new() makes the device at the
 *          far end of a user's tx_fixup (a variant with no @dev_new gets
 *          it); without it a variant with a transmit side gives its own
 *          @dev_new.
 * Members are only appended; the library's instances are const.
 */
struct km_framing {
	enum km_framing_kind kind;
	unsigned int hdr_bytes;
	bool suffix;
	unsigned int len_bits;
	bool inverted_copy;
	unsigned int align;
	unsigned int pseudo_hdr;
	unsigned int trailing_pad;
	unsigned int max_frame;
	unsigned int descriptors_per_frame;
	/* appended */
	km_framing_encode_fn encode;
	km_framing_decode_fn decode;
};

/** The AX88772's (and SR9800's) bulk-in framing: a 4-byte header len |
 *  ~len << 16 (11 bits), each frame padded to an even length; the longest
 *  frame 1518 bytes (mtu + ETH_HLEN + VLAN_HLEN). A user's driver for a
 *  device framed the same way (an AX88772 clone) names it in its variant
 *  instead of describing the framing again. */
KM_API const struct km_framing *km_framing_ax88772(void);
/** The AX88179's: frames at 8-byte alignment behind a 2-byte pseudo
 *  header, then per frame a descriptor and a dummy, a 4-byte pad and
 *  rx_hdr = count | offset << 16 (ax88179_rx_fixup()'s comment,
 *  torvalds/linux 002bba562dd3); the longest frame 1518 bytes. For a
 *  user's port of ax88179_178a or a driver of a device framed as it is. */
KM_API const struct km_framing *km_framing_ax88179(void);

/**
 * km_framing_encode() - what a device of framing @f sends for @n frames
 * (@frames[i] of @lens[i] bytes) as one bulk-in stream: for
 * KM_FRAMING_LENGTH the frames back to back, each with its length word and
 * padded; for KM_FRAMING_AX88179 one transfer's whole layout; for
 * KM_FRAMING_NONE the frames back to back; for KM_FRAMING_ENCODER what
 * @f->encode lays out (km_framing_encode_layout()).
 * @out: receives the bytes, @cap bytes at most.
 * Return: the stream's length, or -EINVAL (NULL arguments, a frame longer
 * than @f->max_frame or than the length field holds, no hook), -ENOSPC
 * (@cap too small), or the hook's negative errno.
 */
KM_API long km_framing_encode(const struct km_framing *f, const uint8_t *const *frames,
			      const size_t *lens, size_t n, uint8_t *out, size_t cap);

/**
 * km_framing_encode_layout() - km_framing_encode(), and where in the stream
 * lie the fields a sweep mutates (@layout, zeroed first; may be NULL): for
 * KM_FRAMING_LENGTH the first frame's length word (its bits; with
 * @f->inverted_copy the copy is not included; a 2-byte word that ends the
 * stream, a suffix, is the high half of the stream's last 32-bit word), for KM_FRAMING_AX88179 the
 * first descriptor's pkt_len and rx_hdr's count, for KM_FRAMING_ENCODER
 * what @f->encode says. A hook that returns more than @cap or a field
 * outside the stream is refused: -EINVAL, km_last_error() naming it.
 */
KM_API long km_framing_encode_layout(const struct km_framing *f, const uint8_t *const *frames,
				     const size_t *lens, size_t n, uint8_t *out, size_t cap,
				     struct km_framing_layout *layout);

/**
 * km_framing_frame_ok() - is @got (@got_len bytes, as a driver passed it
 * up) the frame @sent (@sent_len bytes)? Equal bytes, or the same followed
 * by at most @f->trailing_pad more (the device's documented pad).
 */
KM_API bool km_framing_frame_ok(const struct km_framing *f, const uint8_t *sent, size_t sent_len,
				const uint8_t *got, size_t got_len);

/**
 * km_framing_dev_new() - a device model that parses bulk-out transfers of
 * framing @f: the device at the far end of a user's tx_fixup, described
 * instead of written. @f must be KM_FRAMING_LENGTH with the word before
 * its frame (2 or 4 bytes), or KM_FRAMING_ENCODER with a @decode hook:
 * that device gathers a transfer's packets up to a short one (or a ZLP)
 * and hands them to the hook, counts each transfer, each frame and its
 * bytes, a frame past @f->max_frame as oversized (dropped, a
 * KM_R_USB_FRAME_DROPPED WARN), a hook's error as a bad header (a
 * KM_R_USB_PROTOCOL WARN). For KM_FRAMING_LENGTH, per word: with @f->inverted_copy, a length
 * whose complement disagrees is a KM_R_USB_PROTOCOL WARN (bad_headers++)
 * and the rest of the transfer is discarded; a length past @f->max_frame
 * is consumed and dropped (oversized++, KM_R_USB_FRAME_DROPPED WARN); a
 * zero length is an empty frame; after each frame the pad to @f->align is
 * skipped when the transfer goes on. A transfer that ends inside a word or
 * a frame is a KM_R_USB_PROTOCOL WARN (truncated++). Frames go to
 * @fn(@arg, ...), reports to @m; @f must outlive the device.
 * Return: 0, or -EINVAL (NULL @m, @f or @out; a framing it cannot parse).
 * The caller frees @out with km_usbnet_dev_free().
 */
KM_API int km_framing_dev_new(struct km_machine *m, const struct km_framing *f,
			      km_usbnet_frame_fn fn, void *arg, struct km_usbnet_dev *out);

/* ---- checksum offload: what the device checks on receive ------------------ */

/** km_usbnet_variant.csum: the device checks each received frame's IPv4
 *  header and TCP/UDP checksums and tells the driver the verdict in the
 *  frame's status bits (the AX88179 with the RXCOE bits ax88179_reset()
 *  sets: drivers/net/usb/ax88179_178a.c). */
#define KM_USBNET_RX_CSUM 0x1u
/** km_usbnet_variant.csum: the device computes the TCP/UDP checksum of the
 *  frames it sends (TXCOE): its driver may advertise NETIF_F_IP_CSUM (or
 *  _HW_CSUM, _IPV6_CSUM) and be handed CHECKSUM_PARTIAL skbs. A bind that
 *  advertises them on a device without it is a KM_R_TX_CSUM_FEATURE WARN
 *  (km_usbnet_probe()). The model's bulk-out parsers pass frames on as
 *  they come (they do not compute checksums). */
#define KM_USBNET_TX_CSUM 0x2u

/**
 * enum km_csum_verdict - what a device with KM_USBNET_RX_CSUM finds in a
 * received frame (km_csum_rx_verdict()).
 * @KM_CSUM_UNCHECKED: not a frame it checks. It checks an untagged
 *      Ethernet II frame of an unfragmented IPv4 packet (IHL >= 5, its
 *      total length inside the frame) carrying TCP or UDP; of any other
 *      IPv4 packet only the header checksum (a wrong one is
 *      @KM_CSUM_BAD_L3).
 * @KM_CSUM_GOOD: IPv4 header and TCP/UDP checksum right (a UDP checksum
 *      of 0 is "none", RFC 768: nothing to get wrong).
 * @KM_CSUM_BAD_L3: the IPv4 header checksum is wrong.
 * @KM_CSUM_BAD_L4: the TCP or UDP checksum is wrong.
 */
enum km_csum_verdict {
	KM_CSUM_UNCHECKED = 0,
	KM_CSUM_GOOD = 1,
	KM_CSUM_BAD_L3 = 2,
	KM_CSUM_BAD_L4 = 3,
};

/**
 * km_csum_rx_verdict() - the checks a receive checksum offload does on
 * @frame (@len bytes, from its Ethernet header), as the model's devices
 * do them (a stated model policy: IPv4 only; an IPv6 frame is
 * KM_CSUM_UNCHECKED). @l4proto (may be NULL) receives the IP protocol
 * (6 TCP, 17 UDP) of a frame it checks, else 0: what a device puts in its
 * status bits' L4 type. A KM_FRAMING_ENCODER hook sets its own status bits
 * from it. NULL @frame: KM_CSUM_UNCHECKED.
 */
KM_API enum km_csum_verdict km_csum_rx_verdict(const uint8_t *frame, size_t len,
					       unsigned int *l4proto);

/**
 * km_framing_encode_csum() - km_framing_encode_layout() by a device whose
 * checksum offload is @csum (KM_USBNET_RX_CSUM, or 0: none, as
 * km_framing_encode() lays out; KM_USBNET_TX_CSUM changes nothing here,
 * another bit is -EINVAL). With KM_USBNET_RX_CSUM a
 * KM_FRAMING_AX88179 device sets each frame's descriptor bits as
 * ax88179_rx_checksum() reads them (torvalds/linux 002bba562dd3): the L4
 * type (AX_RXHDR_L4_TYPE_TCP 16, _UDP 4) of a frame it checks, and
 * AX_RXHDR_L3CSUM_ERR (2) or AX_RXHDR_L4CSUM_ERR (1) where the
 * km_csum_rx_verdict() is bad; without it, none of them (RXCOE off). The
 * other kinds have no status bits of the library's: a length-prefixed
 * device cannot tell the driver, and an encoder hook sets its own.
 */
KM_API long km_framing_encode_csum(const struct km_framing *f, unsigned int csum,
				   const uint8_t *const *frames, const size_t *lens, size_t n,
				   uint8_t *out, size_t cap, struct km_framing_layout *layout);

/* ---- variants: a driver's transmit side, its usbnet and its device --------- */

/**
 * struct km_usbnet_variant - one usbnet minidriver version, everything the
 * tests, the checker, the sweep and the bench need to run it.
 * @size: sizeof(struct km_usbnet_variant) as the variant was compiled:
 *        initialise with KM_USBNET_VARIANT_SIZE. Members are only appended;
 *        the library reads one past KM_USBNET_VARIANT_MIN_SIZE only where
 *        km_usbnet_variant_has() says @size covers it.
 * @name: short stable name ("before", "after", ...).
 * @summary: one line for --help and tables; optional (NULL: the tools
 *           show "-").
 * @source: kernel file(s), function(s) and the version ported.
 * @info: its driver_info (flags, bind, the ported tx_fixup).
 * @era: the usbnet whose URB/ZLP rules apply to it.
 * @dev_new: constructor of the device model that parses what the driver
 *           sends: frames go to @fn(@arg, ...), reports to @m. Fills *@out
 *           (the caller frees it with km_usbnet_dev_free()). Return 0 or a
 *           negative errno. NULL: the library's parser of @framing
 *           (km_framing_dev_new()), which must then be a length before
 *           each frame or an encoder with a decode hook -- the same
 *           description serves both directions.
 * @endpoints: the (speed, maxpacket) pairs the driver meets on a
 *             spec-conforming device of its USB generation, terminated by
 *             an entry with maxpacket 0.
 *
 * A variant made by copying another (`mine = *km_usbnet_find("after");`)
 * carries the library's @size, which may be larger than the struct the
 * copy was compiled with: set `mine.size = KM_USBNET_VARIANT_SIZE` after
 * the copy. The device's Ethernet line rate is its device model's
 * (km_usbnet_dev_wire_bits_per_s()), not a member here.
 * @framing: (appended) what the device sends on bulk-in, for the receive
 *           side (km_usbnet_rx_urb(), kmodel-sweep rx); NULL: the variant
 *           has no receive side the model runs. With it, @info's rx_fixup
 *           is read (it may still be NULL: usbnet passes the URB up as one
 *           frame).
 * @rx_source: (appended) kernel file, function and version of the
 *           rx_fixup; NULL when @framing is.
 * @csum: (appended) the device's checksum offload: KM_USBNET_RX_CSUM,
 *        KM_USBNET_TX_CSUM, or 0 (none: the AX88772, whose v3.5 driver
 *        sets no NETIF_F_*CSUM and leaves ip_summed CHECKSUM_NONE). A
 *        property of the device, not of its framing: struct km_framing is
 *        read without a size, so a member appended there could not be told
 *        from the bytes after an older one; here @size says
 *        (km_usbnet_variant_has(v, csum)). usbnet_skb_return() checks a
 *        frame the driver passes up with CHECKSUM_UNNECESSARY against it
 *        (KM_R_RX_CSUM_UNVERIFIED).
 */
struct km_usbnet_variant {
	size_t size;
	const char *name;
	const char *summary;
	const char *source;
	const struct km_usbnet_driver_info *info;
	enum km_usbnet_era era;
	int (*dev_new)(struct km_machine *m, km_usbnet_frame_fn fn, void *arg,
		       struct km_usbnet_dev *out);
	const struct km_usb_ep_cfg *endpoints;
	/* appended */
	const struct km_framing *framing;
	const char *rx_source;
	/* appended */
	unsigned int csum;
};

/** Initialiser of km_usbnet_variant.size. */
#define KM_USBNET_VARIANT_SIZE sizeof(struct km_usbnet_variant)
/** The smallest valid @size: the members of the first version. */
#define KM_USBNET_VARIANT_MIN_SIZE \
	(offsetof(struct km_usbnet_variant, endpoints) + \
	 sizeof(((struct km_usbnet_variant *)0)->endpoints))
/** Does @v (its @size) include @member? */
#define km_usbnet_variant_has(v, member) \
	((v)->size >= offsetof(struct km_usbnet_variant, member) + sizeof((v)->member))

/**
 * km_usbnet_variant_check() - is @v usable? @size at least
 * KM_USBNET_VARIANT_MIN_SIZE, a name, a driver_info (its tx_fixup and
 * rx_fixup are optional, as in usbnet), a known era, a device model
 * (km_usbnet_variant_has_tx_dev()) or a receive side (a @framing), a
 * @framing of a known kind (KM_FRAMING_ENCODER with its encode hook), no
 * @csum bit but KM_USBNET_RX_CSUM and KM_USBNET_TX_CSUM, and a
 * non-empty endpoint list of known speeds with maxpackets 1..1024 (the
 * largest bulk maxpacket the spec allows).
 * Return: 0, or -EINVAL with km_last_error() naming what is wrong.
 */
KM_API int km_usbnet_variant_check(const struct km_usbnet_variant *v);
/**
 * km_usbnet_variant_dev_new() - @v's device model on @m: its @dev_new, or
 * with none the parser of its @framing (km_framing_dev_new()). Arguments
 * and return as @dev_new; -EINVAL for a NULL @v or one with neither.
 */
KM_API int km_usbnet_variant_dev_new(const struct km_usbnet_variant *v, struct km_machine *m,
				     km_usbnet_frame_fn fn, void *arg, struct km_usbnet_dev *out);
/**
 * km_usbnet_variant_tx_framing() - the framing @v's device model parses on
 * bulk-out: @v's @framing when the device is the library's parser of it (no
 * @dev_new), else NULL (a device of its own, compared byte for byte). The
 * tools compare a frame the device got with the one sent through
 * km_framing_frame_ok() with it: its trailing_pad is no frame_mismatch.
 */
KM_API const struct km_framing *km_usbnet_variant_tx_framing(const struct km_usbnet_variant *v);
/**
 * km_usbnet_variant_has_tx_dev() - has @v a device model that parses what
 * it sends on bulk-out (a @dev_new, or a @framing with a length before
 * each frame or a decode hook)? A variant with a receive side only (a @framing the library
 * cannot parse back, no @dev_new) has none: km_usbnet_probe() and
 * km_usbnet_rx_urb() run it, the transmit sweep and kmodel-bench iperf
 * refuse it with a message naming it.
 */
KM_API bool km_usbnet_variant_has_tx_dev(const struct km_usbnet_variant *v);
/** Does @v list (@speed, @maxpacket) among its endpoints? */
KM_API bool km_usbnet_variant_allows(const struct km_usbnet_variant *v,
				     enum km_usb_speed speed, unsigned int maxpacket);
/** The built-in variants, NULL-terminated, in a stable order (before,
 *  after, then the others as they were added). */
KM_API const struct km_usbnet_variant *const *km_usbnet_variants(void);
/**
 * km_usbnet_rx_variants() - the built-in variants with a receive side,
 * NULL-terminated, stable order: before (asix_rx_fixup() of v3.5), sr9800,
 * ax88179 (mainline), then the ax88179 ports around its public fixes:
 * ax88179-v5.7 (before e869e7a17798), ax88179-v5.16 (before 57bc3d3ae8c1)
 * and ax88179-57bc3d3ae8c1 (after it, before f8ebb3ac881b); then
 * asix-v4.14 (asix_rx_fixup_internal(), a frame kept across URBs). The
 * last four are for the receive side only: they are not in
 * km_usbnet_variants() (their transmit side is ax88179's, or mainline
 * asix's).
 */
KM_API const struct km_usbnet_variant *const *km_usbnet_rx_variants(void);
/** A variant of km_usbnet_variants() or km_usbnet_rx_variants() called
 *  @name, or NULL. */
KM_API const struct km_usbnet_variant *km_usbnet_find_any(const char *name);
/** The built-in variant called @name, or NULL. */
KM_API const struct km_usbnet_variant *km_usbnet_find(const char *name);

/**
 * struct km_usbnet - the transmit slice of struct usbnet.
 * @net: the net_device (embedded here as @netdev).
 * @variant: what was probed (its driver_info is @driver_info).
 * @era: the usbnet version whose transmit rules apply (the variant's).
 * @speed: of the device.
 * @maxpacket: of the bulk-out endpoint, bytes.
 * @msg_tx_err: netif_msg_tx_err(dev); off by default as in usbnet_probe()
 *              (msg_level NETIF_MSG_DRV | PROBE | LINK): then a NULL from
 *              tx_fixup takes the not_drop path and tx_dropped stays put.
 * @udev: the USB device (points into this struct), set before bind as in
 *        usbnet_probe(): usb_maxpacket(dev->udev, dev->out[, 1]) of ported
 *        code reads it. Its endpoint tables hold what enumeration left
 *        (config.c's clamp applied): a bulk-in endpoint 0x81 and the bulk-out
 *        endpoint 0x02, both of the probe's maxpacket (a model policy: the
 *        seeds name no endpoint numbers; the model's device is one
 *        interface with these two).
 * @in: the bulk-in pipe, usb_rcvbulkpipe(udev, 1), as usbnet_get_endpoints()
 *      would set it (the model's binds do not call it); set before bind.
 * @out: the bulk-out pipe, usb_sndbulkpipe(udev, 2); set before bind.
 *       @maxpacket is usb_maxpacket(udev, out, 1) after bind, as in v3.5
 *       usbnet_probe().
 * @bulk_out: the model's bulk-out endpoint, which carries the URBs to the
 *            device model (km_usb_bulk_out()).
 * @tx_fixup_null: times tx_fixup returned NULL.
 * @last_urb_len: transfer_buffer_length of the last URB, bytes.
 * @last_urb_zero_packet: URB_ZERO_PACKET of the last URB.
 * @hard_mtu: bytes, "count any extra framing" (include/linux/usb/usbnet.h,
 *            v3.6): mtu + hard_header_len before bind, as usbnet_probe()
 *            sets it; a bind may change it. The model reads it nowhere
 *            (usbnet sizes rx URBs with it; the model has no rx URBs).
 * @msg_enable: NETIF_MSG_* bits, NETIF_MSG_DRV | PROBE | LINK (0x7) as
 *            usbnet_probe() sets it; what ported code's netif_msg_*() and
 *            netif_dbg() read. The model's usbnet reads @msg_tx_err instead.
 * @rx_urb_size: bytes of a bulk-in URB: the bind may set it (ax88772_bind()
 *            2048); 0 after bind becomes @hard_mtu, as v3.5 usbnet_probe().
 * @netdev: the net_device @net points to.
 * @rx: the receive path's state (library-private; NULL until the first
 *      bulk-in transfer).
 * @driver_priv: the driver's (usbnet.h: "can be used by minidriver"); its
 *      bind sets it, its unbind frees it.
 */
struct km_usbnet {
	struct km_machine *m;
	struct km_net_device *net;
	/* the first version's embedded net_device, its size kept so the
	 * members below keep their offsets; unused: @net points to @netdev
	 * (appended), whose struct gained the receive counters */
	struct {
		unsigned short hard_header_len, needed_headroom, needed_tailroom;
		unsigned int mtu;
		unsigned long tx_packets, tx_bytes, tx_dropped;
		unsigned int priv_flags;
		uint64_t features;
	} netdev_v1;
	union {
		const struct km_usbnet_driver_info *driver_info;
		/* the same, as ported code names it: the compatibility layer's
		 * <linux/usb/usbnet.h> maps the kernel's struct driver_info to
		 * struct km_usbnet_driver_info by a macro, which renames
		 * dev->driver_info too */
		const struct km_usbnet_driver_info *km_usbnet_driver_info;
	};
	const struct km_usbnet_variant *variant;
	enum km_usbnet_era era;
	enum km_usb_speed speed;
	unsigned int maxpacket;
	bool msg_tx_err;
	struct km_usb_ep bulk_out;
	unsigned long tx_fixup_null;
	size_t last_urb_len;
	bool last_urb_zero_packet;
	/* appended (the members above keep their offsets) */
	struct km_usb_device *udev;
	unsigned int in, out;
	/* storage behind @udev */
	struct km_usb_device usb_device;
	struct km_usb_host_endpoint ep_bulk_in, ep_bulk_out;
	/* appended */
	uint32_t hard_mtu;
	int msg_enable;
	/* appended */
	size_t rx_urb_size;
	struct km_net_device netdev;
	struct km_usbnet_rx *rx;
	void *driver_priv;
};

/**
 * km_usbnet_probe() - the transmit part of usbnet_probe(): enumeration's
 * check of the bulk-out endpoint (drivers/usb/core/config.c
 * usb_parse_endpoint(), of the variant's era), an Ethernet net_device
 * (ether_setup), the driver's bind, then the bulk-out maxpacket.
 * @v: the variant (checked with km_usbnet_variant_check()); its
 *     driver_info and era apply.
 * @speed: of the device (any of enum km_usb_speed but UNKNOWN).
 * @maxpacket: wMaxPacketSize of the bulk-out endpoint, 0..2047. 0 is a
 *     broken device: -ENODEV, as later kernels' usbnet_probe() (v3.5 had no
 *     check and would divide by zero in usbnet_start_xmit()). A value the
 *     spec forbids at @speed (full: 8, 16, 32, 64; high: 512; super: 1024)
 *     or that is not a power of two is accepted as the kernel accepts it
 *     and reported (a KM_R_USB_MAXPACKET WARN, with config.c's words where
 *     config.c warns); in the mainline era a value above the speed's
 *     maximum (64, 1024, 1024) is clamped to it and reported, as mainline
 *     config.c does, and the clamped value is then checked like any other
 *     (high speed 2047: "setting to 1024", then "invalid maxpacket 1024").
 *     Low speed has no bulk endpoints: config.c turns it into an interrupt
 *     endpoint (reported), usbnet finds no bulk-out: -ENODEV.
 * @sink: the device model that receives the bulk-out packets.
 * @out: receives the usbnet (caller owns it: km_usbnet_free()).
 * After bind, NETIF_F_IP_CSUM, _HW_CSUM or _IPV6_CSUM in net->features
 * on a variant whose @csum lacks KM_USBNET_TX_CSUM is a
 * KM_R_TX_CSUM_FEATURE WARN (the probe succeeds, as the kernel's).
 * Return: 0, -EINVAL (NULL argument, a variant that fails the check, an
 * unknown speed, maxpacket > 2047), -ENODEV (also when a bind that
 * rewrites @udev, the pipes or a descriptor leaves usb_maxpacket(udev,
 * out, 1) at 0 or above 2047), or the bind's error.
 */
KM_API int km_usbnet_probe(struct km_machine *m, const struct km_usbnet_variant *v,
			   enum km_usb_speed speed, unsigned int maxpacket,
			   const struct km_usb_sink *sink, struct km_usbnet **out);
KM_API void km_usbnet_free(struct km_usbnet *dev);

/**
 * km_usbnet_start_xmit() - usbnet_start_xmit() of the device's era on
 * `current`, with the URB completing at once (tx_complete + usbnet_bh):
 * tx_fixup(GFP_ATOMIC); on NULL the packet is dropped: tx_dropped++ in
 * v3.5 only with @msg_tx_err, in mainline unless FLAG_MULTI_PACKET ("packet
 * collected"). URB of skb->data, skb->len; when len % maxpacket == 0:
 * FLAG_SEND_ZLP sets URB_ZERO_PACKET, else without FLAG_MULTI_PACKET the
 * URB grows by one byte, which is zeroed and __skb_put() only when
 * skb_tailroom() allows (otherwise the byte after the data goes out as it
 * is). The zero is written even into a buffer the skb shares (the checker
 * reports KM_R_SKB_WRITE_CLONED or _SHARED): the wire carries what the
 * kernel sends. Completion: v3.5 tx_packets++ unless FLAG_MULTI_PACKET and
 * tx_bytes += len before the pad; mainline tx_packets += and tx_bytes +=
 * the skb's usbnet_packets/usbnet_length (the driver's
 * usbnet_set_skb_tx_stats() plus the URB length with FLAG_MULTI_PACKET,
 * else 1 and the URB length; a driver total <= 0 is mainline's
 * WARN_ON_ONCE(): a KM_R_WARN_ON WARN the first time on the machine, its
 * boot). Then dev_kfree_skb(). Consumes @skb. The URB is
 * usb_alloc_urb(0, GFP_ATOMIC) after the fixup, a kmalloc of the ARM
 * struct urb (124 bytes, v3.5) that the completion frees (events
 * urb_allocs, kmalloc/kfree; urbs counts the submission); when it fails
 * (km_fault_fail_kmalloc_nth()) the skb is dropped: tx_dropped++.
 * Return: NETDEV_TX_OK (0) as the kernel; -EINVAL for a NULL @skb, without
 * `current` (skb freed) or for an skb whose URB would run past its buffer
 * (a KM_R_SKB_INVALID BUG, skb freed); -EINVAL for an skb of another
 * machine than @dev (a KM_R_UNEXPECTED BUG on the skb's machine; the skb
 * is not touched and stays the caller's) and likewise for a NULL @dev.
 */
KM_API int km_usbnet_start_xmit(struct km_usbnet *dev, struct km_skb *skb);

/** rx_urb_size of an AX88772 (ax88772_bind(), v3.5): bytes of a bulk-in URB. */
#define KM_USBNET_RX_URB_SIZE 2048u

/**
 * km_usbnet_rx() - one bulk-in transfer of @len bytes (what the device
 * sends, at @buf) through usbnet's receive path of v3.5 for an AX88772,
 * on `current`, with the AX88772's receive framing whatever the device's
 * variant: this is the receive side modelled for its cost (the iperf
 * ACKs); km_usbnet_rx_urb() runs a variant's own rx_fixup. The asix text
 * is the device's era's:
 *  - a KM_USBNET_V3_5 device (before, after, a plugin's v3.5 variant with
 *    or without a receive side): asix_rx_fixup() of v3.5
 *    (src/asix/asix_rx_fixup_v3_5.c) under ax88772_info's flags, run as
 *    km_usbnet_rx_urb() runs a driver's, with its checkers: each frame
 *    copied into an skb of its own (netdev_alloc_skb_ip_align(), a page
 *    fragment with a head from skbuff_head_cache; memcpy()) and passed up,
 *    then the URB's skb freed (FLAG_MULTI_PACKET); a header whose
 *    complement does not match, a frame longer than mtu + ETH_HLEN +
 *    VLAN_HLEN or running past the transfer, or no skb for a copy make it
 *    return 0 (rx_errors++; the frames before were passed up);
 *  - a mainline-era device: the text before a9e0aca4b378, kept as
 *    the cost model of those rows: every frame but the last passed up as
 *    a clone, the last as the URB's skb; a header whose complement does
 *    not match is used anyway; a frame above mtu + 14 or running past the
 *    transfer ends the URB there.
 * Both: the device's receive URB -- usb_alloc_urb() of the ARM struct
 * urb, as on transmit, only when the device has none (its first transfer,
 * or after an skb allocation failed: rx_submit() frees the URB then);
 * rx_complete() resubmits it, and km_usbnet_free() frees it --,
 * rx_submit()'s skb of KM_USBNET_RX_URB_SIZE whose buffer is a page
 * fragment (v3.5 __netdev_alloc_skb() with netdev_alloc_frag(): at that
 * size a page per fragment, the fragment cache's reference dropped at the
 * next refill) and usb_submit_urb(); the device's transfer in maxpacket
 * packets, ended by a short packet or a ZLP; the frames behind a 4-byte
 * header of their length (11 bits) and the length's complement, padded to
 * an even length; the stack consumes every frame passed up.
 * Events: urbs; urb_allocs and a kmalloc (the URB) when one is
 * allocated, its kfree when freed; pages_allocated,
 * get_page/put_page_calls, pages_freed (the fragments), skb_allocs,
 * skb_clones (mainline era), memcpy_calls and memcpy_bytes (v3.5: the
 * copies), skb_frees, usb_in_packets/bytes/zlps, eth_rx_frames/bytes.
 * Return: the frames passed up (>= 0); -EINVAL (NULL @dev or @buf with
 * @len, no `current` of @dev's machine, @len above the URB, a URB being
 * processed on the machine); -EPROTO when v3.5's asix_rx_fixup() returned
 * 0, or in the mainline era when a frame is too long ("Bad RX Length":
 * the URB is dropped there) or runs past the transfer (the frames before
 * it were passed up); -ENOMEM when the URB or the page cannot be had.
 */
KM_API int km_usbnet_rx(struct km_usbnet *dev, const void *buf, size_t len);

/* ---- the receive path of the driver's era ---------------------------------- */

struct km_usbnet_rx;

/** Called by usbnet_skb_return() for each frame it passes up: @frame (the
 *  skb's data, @len bytes, before eth_type_trans() pulls the Ethernet
 *  header), valid during the call. */
typedef void (*km_usbnet_rx_fn)(void *arg, const uint8_t *frame, size_t len);

/** Where @dev's received frames go (NULL: nowhere; the stack consumes them
 *  either way). */
KM_API void km_usbnet_set_rx_sink(struct km_usbnet *dev, km_usbnet_rx_fn fn, void *arg);

/** Called by usbnet_skb_return() as km_usbnet_rx_fn, with the skb too
 *  (valid during the call, before eth_type_trans()): its ip_summed (and
 *  csum) as the driver left them. */
typedef void (*km_usbnet_rx_skb_fn)(void *arg, const uint8_t *frame, size_t len,
				    const struct km_skb *skb);

/** A second sink of @dev's received frames, with their skbs (NULL:
 *  none); km_usbnet_set_rx_sink()'s is called too. */
KM_API void km_usbnet_set_rx_skb_sink(struct km_usbnet *dev, km_usbnet_rx_skb_fn fn, void *arg);

/**
 * km_usbnet_rx_urb() - one bulk-in transfer of @len bytes (what the device
 * sent, @buf) through the receive path of @dev's era (drivers/net/usb/
 * usbnet.c v3.5 or mainline), on `current`:
 *  - usbnet_bh()'s refill: usb_alloc_urb() when the device has no receive
 *    URB (the first transfer, or after "no rx skb"); rx_complete() of a
 *    transfer resubmits it (status 0), so the next transfer takes the
 *    same URB; "no rx skb" frees it (rx_submit()), km_usbnet_free() too;
 *  - rx_submit(): an skb of rx_urb_size from
 *    __netdev_alloc_skb_ip_align() (NET_SKB_PAD + NET_IP_ALIGN 2 of
 *    headroom, kmodel's ARM), submitted with rx_urb_size;
 *  - rx_complete(): skb_put(actual_length); v3.5 sends a transfer shorter
 *    than hard_header_len (14) to rx_cleanup (rx_errors, rx_length_errors);
 *  - rx_process(): the driver's rx_fixup() (0: rx_errors++ unless
 *    FLAG_RX_ASSEMBLE); then with FLAG_MULTI_PACKET the skb is freed, else
 *    v3.5 passes a non-empty skb up (an empty one: rx_errors++), mainline
 *    one of at least ETH_HLEN bytes (shorter: rx_errors, rx_length_errors);
 *  - usbnet_skb_return() for every frame (km_usbnet_skb_return());
 *  - usbnet_bh(): whatever skb is left is freed.
 * The checkers, each a report naming the state:
 *  - KM_R_RX_READ_PAST (BUG): a read beyond the transfer's bytes in the URB
 *    buffer -- through get_unaligned_le32(), le32_to_cpus() or memcpy() of
 *    the compatibility layer, or a frame passed up whose data + len (or
 *    tail, or the 14 bytes eth_type_trans() reads) lies past them. The
 *    bytes there are stale (the model fills them with 0x6b, slab's
 *    POISON_FREE); the buffer keeps a host guard behind its end as far as a
 *    16-bit offset, 65536 4-byte descriptors and a 13-bit length reach,
 *    and behind the guard 4 GiB of reserved, inaccessible address space:
 *    as far as a 32-bit offset from the data reaches, nothing but the URB
 *    lies there. A read of the layer that starts there, or starts in the
 *    buffer or guard and runs past the guard, is reported with its offset
 *    (even after the URB's first report) and not done: the driver is
 *    stopped as for KM_R_RX_NO_PROGRESS; a frame passed up whose data lies
 *    there is reported and hands the sink none of its bytes (the host
 *    refusing the reservation, the reach is the guard's);
 *  - KM_R_RX_NO_PROGRESS (BUG): rx_fixup made more than
 *    KM_USBNET_RX_STEPS(len) calls of the layer's skb_pull, skb_clone,
 *    get_unaligned_le32, le32_to_cpus, netdev_alloc_skb or
 *    usbnet_skb_return: a loop that makes no progress. The model stops the
 *    driver there (its skbs of this URB stay allocated: leaks) and goes on
 *    as for a 0 return;
 *  - KM_R_RX_CSUM_UNVERIFIED (BUG): a frame passed up with ip_summed
 *    CHECKSUM_UNNECESSARY that the device did not verify: the variant has
 *    no KM_USBNET_RX_CSUM, or km_csum_rx_verdict() of the bytes passed up
 *    is not KM_CSUM_GOOD (the device flagged it, or does not check such a
 *    frame). The stack would skip the TCP/UDP checksum and take corrupt
 *    data; the frame goes up as the kernel sends it;
 *  - skb_over_panic/skb_under_panic, double frees: the skb model's reports.
 * Events as the skb and slab models count them; urbs, usb_in_bytes.
 * Return: the frames passed up (>= 0); -EINVAL (NULL @dev or @buf with
 * @len, @len above rx_urb_size, no `current` of @dev's machine, a variant
 * without a receive side); -ENOMEM (no URB or skb: nothing received).
 */
KM_API int km_usbnet_rx_urb(struct km_usbnet *dev, const void *buf, size_t len);

/** The rx_fixup step bound of a transfer of @len bytes: a loop of up to 8
 *  steps for each 4 bytes and for each of 65536 descriptors (AX88179's
 *  16-bit count: ax88179_rx_fixup() before 57bc3d3ae8c1 walks them all,
 *  5 steps each for a clone passed up), with room to spare. */
#define KM_USBNET_RX_STEPS(len) (8u * ((unsigned int)(len) / 4u + 65536u) + 64u)

/**
 * km_usbnet_skb_return() - usbnet_skb_return() (usbnet.c, v3.5; mainline's
 * is the same for the model): eth_type_trans() (pulls ETH_HLEN when the
 * skb has it), rx_packets++, rx_bytes += len after the pull, netif_rx():
 * the frame goes to the rx sink (km_usbnet_set_rx_sink()) and the stack
 * consumes the skb. Checks the frame against the URB it came from (above).
 * Consumes @skb; NULL is a no-op.
 */
KM_API void km_usbnet_skb_return(struct km_usbnet *dev, struct km_skb *skb);

/** Counters of @dev's receive path since probe: URBs completed, frames
 *  passed up, rx_fixup calls that returned 0. */
struct km_usbnet_rx_stats {
	uint64_t urbs, frames, fixup_errors;
};
/** @dev's receive counters into @out (zeros before the first URB). */
KM_API void km_usbnet_rx_get_stats(const struct km_usbnet *dev, struct km_usbnet_rx_stats *out);

/** For the compatibility layer: one step of a receive loop in ported code
 *  (skb_pull, skb_clone, get_unaligned_le*, le32_to_cpus, netdev_alloc_skb,
 *  usbnet_skb_return), and a read of @n bytes at @p (NULL, 0: none) that
 *  the KM_R_RX_READ_PAST checker looks at. Nothing outside
 *  km_usbnet_rx_urb()'s rx_fixup call. */
KM_API void km_compat_rx_step(const void *p, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_USB_H */
