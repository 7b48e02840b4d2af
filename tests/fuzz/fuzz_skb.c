// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: programs of sk_buff operations -- alloc, reserve, put,
 * push, pull, trim, clone, copy, copy_expand, pskb_expand_head, cow_head,
 * header_release, get, free, a write into the data -- on a pool of skb
 * references, and transmits through usbnet to the variant's device model,
 * all on a usbnet variant, speed and maxpacket the input chooses.
 *
 * The variant is a built-in one or, on the input's choice, the same with
 * FLAG_SEND_ZLP in its driver_info (as smsc95xx sets it).
 *
 * Oracles: the host never crashes (ASan, UBSan); after every operation,
 * even one the model reports as a kernel BUG (skb_over_panic, ...), every
 * held skb is whole: head <= data <= tail <= end, len == tail - data, no
 * frags, a reference held; a FLAG_SEND_ZLP variant never leaves a transfer
 * without its ZLP (usbnet sets URB_ZERO_PACKET: no KM_R_USB_NO_ZLP); a
 * write through the accessors (the sharing checker, kmodel/skb.h) inside
 * [head, end] of a private, uncloned skb reports nothing, and one of at
 * least a byte into a shared skb, a header-cloned buffer or by the nohdr
 * owner of a cloned one reports; while the device's stream is in step (no
 * transfer without its ZLP, no header it cannot read or encode: those are
 * reported), a transmit is at most one frame, one from an asix
 * before/after/mainline/hardened transmit on an endpoint the variant
 * allows is the skb's data as handed to usbnet_start_xmit(), and such a
 * frame of a legal size (14 to 1518 bytes: ETH_FRAME_LEN + VLAN_HLEN, what
 * the AX88772 takes) is never dropped; the device counts exactly the
 * frames it delivered; once the program has freed what it holds, the
 * teardown check finds nothing (no skb, buffer or kmalloc object leaked).
 */
#include <kmodel/kmodel.h>
#include <string.h>
#include "fuzz_input.h"

#define MAX_SKBS 12
#define MAX_OPS 96
#define ETH_MIN 14		/* ETH_HLEN */
#define ASIX_MAX 1518		/* ETH_FRAME_LEN + VLAN_HLEN (kmodel/asix.h) */

struct st {
	struct km_machine *m;
	struct km_task *t;
	const struct km_usbnet_variant *v;
	struct km_usbnet_variant zlp_v;		/* v with FLAG_SEND_ZLP ... */
	struct km_usbnet_driver_info zlp_info;	/* ... in its driver_info */
	bool zlp_promised;		/* a FLAG_SEND_ZLP variant, probed */
	struct km_usbnet_dev dev;
	struct km_usbnet *net;
	bool exact;			/* frames must equal what was sent */
	struct km_skb *skb[MAX_SKBS];	/* each holds one reference */
	int n;
	unsigned long frames;		/* delivered to the callback */
	unsigned char last[4096];
	size_t last_len;
};

static void on_frame(void *arg, const uint8_t *frame, size_t len)
{
	struct st *s = arg;

	s->frames++;
	s->last_len = len;
	memcpy(s->last, frame, len < sizeof(s->last) ? len : sizeof(s->last));
}

static void check_skb(const struct km_skb *skb)
{
	FUZZ_ASSERT(skb->head <= skb->data && skb->data <= skb->tail && skb->tail <= skb->end);
	FUZZ_ASSERT(skb->len == (unsigned int)(skb->tail - skb->data));
	FUZZ_ASSERT(skb->data_len == 0 && skb->users >= 1);
}

static void add(struct st *s, struct km_skb *skb)
{
	if (!skb)
		return;
	if (s->n < MAX_SKBS)
		s->skb[s->n++] = skb;
	else
		km_kfree_skb(skb);
}

static struct km_skb *pick(struct st *s, struct fuzz_in *in, int *i)
{
	if (!s->n)
		return NULL;
	*i = fuzz_u8(in) % s->n;
	return s->skb[*i];
}

static void drop(struct st *s, int i)
{
	s->skb[i] = s->skb[--s->n];
}

static void setup(struct st *s, struct fuzz_in *in)
{
	static const enum km_usb_speed speeds[] = { KM_USB_SPEED_FULL, KM_USB_SPEED_HIGH,
						    KM_USB_SPEED_SUPER };
	static const char *const exact[] = { "before", "after", "mainline", "hardened" };
	const struct km_usbnet_variant *const *vs = km_usbnet_variants();
	struct km_machine_config cfg = { .ram_size = 4ULL << 20 };
	struct km_mm *mm;
	size_t nv = 0;
	uint8_t a = fuzz_u8(in), b = fuzz_u8(in);
	enum km_usb_speed speed = speeds[b % 3];
	unsigned int mp = fuzz_u16(in) % 1100;

	while (vs[nv])
		nv++;
	s->v = vs[a % nv];
	if (b & 0x40) {
		s->zlp_info = *s->v->info;
		s->zlp_info.flags |= KM_FLAG_SEND_ZLP;
		s->zlp_v = *s->v;
		s->zlp_v.info = &s->zlp_info;
		s->v = &s->zlp_v;
	}
	cfg.l1_cache_bytes = 16u << ((a >> 4) % 5);		/* 16..256 */
	cfg.page_size = (b & 0x80) ? 65536 : 4096;
	FUZZ_ASSERT(km_machine_new(&cfg, &s->m) == 0);
	FUZZ_ASSERT(km_mm_new(s->m, &mm) == 0);
	FUZZ_ASSERT(km_task_new(s->m, mm, 0, &s->t) == 0);
	km_mm_put(mm);
	km_task_switch(s->t);
	FUZZ_ASSERT(s->v->dev_new(s->m, on_frame, s, &s->dev) == 0);
	if (km_usbnet_probe(s->m, s->v, speed, mp, &s->dev.sink, &s->net))
		s->net = NULL;		/* a refused endpoint: no transmits */
	for (size_t i = 0; i < 4; i++)
		s->exact |= !strcmp(s->v->name, exact[i]);
	s->exact &= s->net && km_usbnet_variant_allows(s->v, speed, mp);
	s->zlp_promised = s->net && (s->v->info->flags & KM_FLAG_SEND_ZLP);
	km_reports_clear(s->m);
}

/* no report yet that the device lost step with the stream */
static bool in_step(const struct st *s)
{
	return !km_report_count(s->m, KM_R_USB_NO_ZLP) &&
	       !km_report_count(s->m, KM_R_USB_PROTOCOL) &&
	       !km_report_count(s->m, KM_R_USB_FRAME_DROPPED);
}

static void op_xmit(struct st *s, struct fuzz_in *in)
{
	struct km_skb *skb;
	unsigned char sent[4096];
	unsigned long before = s->frames;
	unsigned int len;
	bool was_in_step = in_step(s);
	int i;

	if (!s->net || !(skb = pick(s, in, &i)))
		return;
	len = skb->len;
	memcpy(sent, skb->data, len < sizeof(sent) ? len : sizeof(sent));
	drop(s, i);			/* usbnet consumes the reference */
	km_usbnet_start_xmit(s->net, skb);
	/* usbnet: a FLAG_SEND_ZLP device gets URB_ZERO_PACKET, never a
	 * transfer left without its ZLP */
	if (s->zlp_promised)
		FUZZ_ASSERT(km_report_count(s->m, KM_R_USB_NO_ZLP) == 0);
	/* a legal frame from an in-step stream (no ZLP missing, no header
	 * the device could not read) reaches the AX88772 whole: not dropped */
	if (s->exact && was_in_step && len >= ETH_MIN && len <= ASIX_MAX &&
	    !km_report_count(s->m, KM_R_USB_NO_ZLP) && !km_report_count(s->m, KM_R_USB_PROTOCOL))
		FUZZ_ASSERT(km_report_count(s->m, KM_R_USB_FRAME_DROPPED) == 0);
	/* while the device's stream is in step (no transfer left without its
	 * ZLP, no header it could not read or encode), one skb is at most one
	 * frame, and on an allowed endpoint exactly the skb's bytes */
	if (!in_step(s))
		return;
	FUZZ_ASSERT(s->frames <= before + 1);
	if (s->exact && len >= ETH_MIN && len <= ASIX_MAX && s->frames == before + 1) {
		FUZZ_ASSERT(s->last_len == len);
		FUZZ_ASSERT(memcmp(s->last, sent, len) == 0);
	}
}

static unsigned long write_reports(const struct st *s)
{
	return km_report_count(s->m, KM_R_SKB_WRITE_OUTSIDE) +
	       km_report_count(s->m, KM_R_SKB_WRITE_SHARED) +
	       km_report_count(s->m, KM_R_SKB_WRITE_CLONED);
}

/* skb_copy_to_linear_data_offset(): the sharing checker's rules as
 * kmodel/skb.h states them (km_skb_check_write()) for the clear cases */
static void op_write(struct st *s, struct km_skb *skb, int off, unsigned int n, unsigned char c)
{
	unsigned char bytes[64];
	uintptr_t a = (uintptr_t)skb->data + (intptr_t)off, h = (uintptr_t)skb->head,
		  e = (uintptr_t)skb->end;
	int dref = skb->shinfo->dataref;
	bool inside = a >= h && a <= e && n <= e - a;
	/* skb_cloned(), skb_header_cloned() (include/linux/skbuff.h, v3.5):
	 * the checker forbids a write only into a buffer another skb shares */
	bool cloned = skb->cloned && (dref & KM_SKB_DATAREF_MASK) != 1;
	bool header_cloned = cloned &&
			     (dref & KM_SKB_DATAREF_MASK) - (dref >> KM_SKB_DATAREF_SHIFT) != 1;
	bool forbidden = skb->users > 1 || header_cloned || (cloned && skb->nohdr);
	unsigned long before = write_reports(s);

	memset(bytes, c, sizeof(bytes));
	km_skb_copy_to_linear_data_offset(skb, off, bytes, n);
	if (inside && skb->users == 1 && !cloned)
		FUZZ_ASSERT(write_reports(s) == before);	/* a private skb's own buffer */
	if (inside && n && forbidden)
		FUZZ_ASSERT(write_reports(s) == before + 1);
}

static void op(struct st *s, struct fuzz_in *in)
{
	struct km_skb *skb;
	uint8_t code = fuzz_u8(in);
	int i, v = (int16_t)fuzz_u16(in), w = (int16_t)fuzz_u16(in);

	switch (code % 18) {
	case 0:
	case 1:
		add(s, km_alloc_skb(s->t, (unsigned int)v & 0x1fff, KM_GFP_ATOMIC));
		return;
	case 2:
		op_xmit(s, in);
		return;
	}
	if (!(skb = pick(s, in, &i)))
		return;
	switch (code % 18) {
	case 3: km_skb_reserve(skb, v % 512); break;
	case 4: km_skb_put(skb, (unsigned int)v & 0x7ff); break;
	case 5: km_skb_push(skb, (unsigned int)v & 0x1ff); break;
	case 6: km_skb_pull(skb, (unsigned int)v & 0x7ff); break;
	case 7: km_skb_trim(skb, (unsigned int)v & 0x7ff); break;
	case 8: add(s, km_skb_clone(s->t, skb, KM_GFP_ATOMIC)); break;
	case 9: add(s, km_skb_copy(s->t, skb, KM_GFP_ATOMIC)); break;
	case 10: add(s, km_skb_copy_expand(s->t, skb, v % 256, w % 256, KM_GFP_ATOMIC)); break;
	case 11: km_pskb_expand_head(s->t, skb, v % 256, w % 256, KM_GFP_ATOMIC); break;
	case 12: km_skb_cow_head(s->t, skb, (unsigned int)v & 0x1ff); break;
	case 13: km_skb_header_release(skb); break;
	case 14:
		if (s->n < MAX_SKBS)
			add(s, km_skb_get(skb));
		break;
	case 15:
	case 16:
		drop(s, i);
		km_kfree_skb(skb);
		break;
	default:
		op_write(s, skb, v % 128, (unsigned int)w & 63, (unsigned char)w);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct km_usbnet_dev_stats st;
	struct st s;
	bool trace = getenv("FUZZ_TRACE") != NULL;	/* reproducing: each op */

	memset(&s, 0, sizeof(s));
	setup(&s, &in);
	for (int ops = 0; fuzz_more(&in) && ops < MAX_OPS; ops++) {
		if (trace)
			fprintf(stderr, "op %d: code %u\n", ops, in.n ? in.p[0] % 18 : 0);
		op(&s, &in);
		for (int i = 0; i < s.n; i++) {
			if (trace)
				fprintf(stderr, "  skb %d: head %p data +%td tail +%td end +%td len %u\n", i,
					(void *)s.skb[i]->head, s.skb[i]->data - s.skb[i]->head,
					s.skb[i]->tail - s.skb[i]->head, s.skb[i]->end - s.skb[i]->head,
					s.skb[i]->len);
			check_skb(s.skb[i]);
		}
	}
	while (s.n)
		km_kfree_skb(s.skb[--s.n]);
	km_usbnet_dev_get_stats(&s.dev, &st);
	FUZZ_ASSERT(st.frames == s.frames);
	km_usbnet_free(s.net);
	km_usbnet_dev_free(&s.dev);
	km_task_switch(NULL);
	km_task_free(s.t);
	FUZZ_ASSERT(km_report_count(s.m, KM_R_SKB_REFCOUNT) == 0);
	FUZZ_ASSERT(km_report_count(s.m, KM_R_BAD_KFREE) == 0);
	FUZZ_ASSERT(km_machine_check(s.m) == 0);
	km_reports_clear(s.m);
	FUZZ_ASSERT(km_machine_destroy(s.m) == 0);
	return 0;
}
