// SPDX-License-Identifier: GPL-2.0
/*
 * The receive sweep (see include/kmodel/sweep.h, km_sweep_rx_run()): for
 * each variant with a receive side and each endpoint it allows, a machine
 * and a usbnet; then every (len, frames, mutation, split) state of this
 * shard's rows: the device's transfers through km_usbnet_rx_urb(), and
 * what was passed up, the reports and the leaks checked.
 */
#include <kmodel/kmodel.h>
#include <kmodel/sweep.h>
#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include "sweep_internal.h"
#include <string.h>
#include <time.h>

#define LEN_MIN 14u		/* ETH_HLEN: the shortest frame a device sends */
#define LEN_MAX 1518u		/* ETH_FRAME_LEN + VLAN_HLEN */
#define FRAMES_MAX 3u
#define FRAME_STRIDE 1600u	/* frame f's pattern starts at f * FRAME_STRIDE */
/* a fill run: max-size frames and one to fill rx_urb_size (aqc111's 62
 * KiB holds 42 of 1518 bytes) */
#define FILL_FRAMES_MAX 64u
#define STREAM_CAP (96u * 1024u)
#define NFILL (KM_SWEEP_RX_SPLIT_COUNT - KM_SWEEP_RX_FILL_UNDER)

static const struct km_usb_ep_cfg rx_eps[] = {
	{ KM_USB_SPEED_FULL, 64 }, { KM_USB_SPEED_HIGH, 512 }, { KM_USB_SPEED_SUPER, 1024 },
};

/* the rules past the report codes */
enum { RULE_MISMATCH = KM_R__COUNT, RULE_BAD_UP, RULE_LOST, RULE_LEAK, RULE__COUNT };

_Static_assert(RULE__COUNT <= 2 * KM_SWEEP_RULES_MAX, "rule table");

static const char *rule_name(unsigned int r)
{
	switch (r) {
	case RULE_MISMATCH: return "frame_mismatch";
	case RULE_BAD_UP: return "malformed_frame_passed_up";
	case RULE_LOST: return "frame_lost";
	case RULE_LEAK: return "leak";
	default: return km_report_code_name((enum km_report_code)r);
	}
}

const char *km_sweep_rx_mutation_name(unsigned int m)
{
	static const char *const names[] = { "valid", "len+1", "len-1", "len+8",
					     "copy_disagrees", "truncated", "offset_past_end" };

	return m < KM_SWEEP_RX_MUTATION_COUNT ? names[m] : NULL;
}

const char *km_sweep_rx_split_name(unsigned int s)
{
	static const char *const names[] = { "whole", "split_header", "split_frame",
					     "urb_fill-1", "urb_fill", "urb_fill+1" };

	return s < KM_SWEEP_RX_SPLIT_COUNT ? names[s] : NULL;
}

/* km_sweep_rx_state_cmp()'s order, inline for hit() on every finding */
static inline int state_cmp(const struct km_sweep_rx_state *a, const struct km_sweep_rx_state *b)
{
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	if (a->frames != b->frames)
		return a->frames < b->frames ? -1 : 1;
	if (a->mutation != b->mutation)
		return a->mutation < b->mutation ? -1 : 1;
	if (a->split != b->split)
		return a->split < b->split ? -1 : 1;
	if (a->maxpacket != b->maxpacket)
		return a->maxpacket < b->maxpacket ? -1 : 1;
	return 0;
}

int km_sweep_rx_state_cmp(const struct km_sweep_rx_state *a, const struct km_sweep_rx_state *b)
{
	return state_cmp(a, b);
}

/* ---- the space ---------------------------------------------------------------- */

/* the lengths of a row set: the whole range, or the quick one's bands */
static unsigned int lens_of(bool quick, unsigned int mp, unsigned int *out)
{
	unsigned int n = 0;

	if (!quick) {
		for (unsigned int l = LEN_MIN; l <= LEN_MAX; l++)
			out[n++] = l;
		return n;
	}
	for (unsigned int l = LEN_MIN; l <= LEN_MAX; l++)
		if (l <= 20 || (l >= 58 && l <= 66) || (l + 4 >= mp && l <= mp + 4) || l >= 1510)
			out[n++] = l;
	return n;
}

static unsigned int splits_of(const struct km_usbnet_variant *v)
{
	return v->framing->kind == KM_FRAMING_LENGTH ? KM_SWEEP_RX_FILL_UNDER : 1;
}

/* does mutation @m change @v's stream? copy_disagrees needs an inverted
 * copy in a KM_FRAMING_LENGTH word (the AX88772's): without one the state
 * would be the valid stream labelled malformed, so it is not in the space;
 * offset_past_end needs the AX88179's rx_hdr */
static bool mutation_applies(const struct km_usbnet_variant *v, unsigned int m)
{
	if (m == KM_SWEEP_RX_OFFSET_PAST_END)
		return v->framing->kind == KM_FRAMING_AX88179;
	return m != KM_SWEEP_RX_COPY_DISAGREES || v->framing->kind != KM_FRAMING_LENGTH ||
	       v->framing->inverted_copy;
}

static unsigned int mutations_of(const struct km_usbnet_variant *v)
{
	unsigned int n = 0;

	for (unsigned int m = 0; m < KM_SWEEP_RX_MUTATION_COUNT; m++)
		n += mutation_applies(v, m);
	return n;
}

static bool is_fill(const struct km_sweep_rx_state *st)
{
	return st->split >= KM_SWEEP_RX_FILL_UNDER && st->split < KM_SWEEP_RX_SPLIT_COUNT;
}

/* km_sweep_rx_run()'s loops, outermost first: endpoint; its lengths'
 * rows (len up, frames, mutation, split), then its fill row (mutation,
 * split; the frames are the split's) */
int km_sweep_rx_state_run_cmp(const struct km_sweep_rx_state *a,
			      const struct km_sweep_rx_state *b)
{
	size_t ea = km_sweep_ep_order(rx_eps, G_N_ELEMENTS(rx_eps), a->speed, a->maxpacket);
	size_t eb = km_sweep_ep_order(rx_eps, G_N_ELEMENTS(rx_eps), b->speed, b->maxpacket);
	bool fa = is_fill(a), fb = is_fill(b);

	if (ea != eb)
		return ea < eb ? -1 : 1;
	if (fa != fb)
		return fa ? 1 : -1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	if (!fa && a->frames != b->frames)
		return a->frames < b->frames ? -1 : 1;
	if (a->mutation != b->mutation)
		return a->mutation < b->mutation ? -1 : 1;
	if (a->split != b->split)
		return a->split < b->split ? -1 : 1;
	return 0;
}

/* states of an endpoint's fill row of @v: each mutation of each fill */
static uint64_t fill_row_states(const struct km_usbnet_variant *v)
{
	return (uint64_t)mutations_of(v) * NFILL;
}

/* states of one row (one len) of @v */
static uint64_t row_states(const struct km_usbnet_variant *v)
{
	return (uint64_t)FRAMES_MAX * mutations_of(v) * splits_of(v);
}

static const struct km_usbnet_variant *const *variants_of(const struct km_sweep_rx_config *c)
{
	return c->variants ? c->variants : km_usbnet_rx_variants();
}

static bool has_rx(const struct km_usbnet_variant *v)
{
	return v && km_usbnet_variant_has(v, framing) && v->framing;
}

uint64_t km_sweep_rx_space_size(const struct km_sweep_rx_config *cfg)
{
	struct km_sweep_rx_config c = { 0 };
	unsigned int lens[LEN_MAX + 1];
	uint64_t n = 0;

	if (cfg)
		c = *cfg;
	for (const struct km_usbnet_variant *const *v = variants_of(&c); *v; v++) {
		if (!has_rx(*v))
			continue;
		for (size_t e = 0; e < G_N_ELEMENTS(rx_eps); e++)
			if (km_usbnet_variant_allows(*v, rx_eps[e].speed, rx_eps[e].maxpacket))
				n += lens_of(c.quick, rx_eps[e].maxpacket, lens) * row_states(*v) +
				     fill_row_states(*v);
	}
	return n;
}

/* ---- one state -------------------------------------------------------------------- */

struct run {
	struct km_machine *m;
	struct km_task *t;
	struct km_usbnet *dev;
	const struct km_usbnet_variant *v;
	const uint8_t *pat;
	uint8_t stream[STREAM_CAP];
	/* the valid stream of (enc_len, enc_frames) is in @stream (encoded
	 * once for the row's mutations and splits), with the words the state's
	 * mutation changed saved to be put back */
	unsigned int enc_len, enc_frames;
	long enc_n;
	struct km_framing_layout lay;	/* KM_FRAMING_ENCODER: its fields */
	/* this endpoint's fill runs (0 frames: the framing cannot lay one
	 * out), and a fill state's transfer boundaries (self-contained
	 * framings: whole frames per transfer) */
	unsigned int fill_frames[NFILL], fill_last[NFILL];
	size_t cuts[FILL_FRAMES_MAX];
	unsigned int ncuts;
	size_t undo_off[2];
	uint32_t undo_word[2];
	unsigned int nundo;
	/* this state */
	const struct km_sweep_rx_state *st;
	unsigned int next;		/* the next sent frame expected */
	unsigned int delivered, mismatched;
	FILE *trace;			/* replay: what happened */
	unsigned long counts[KM_R__COUNT];
	size_t live_skbs, live_bufs;
	struct km_sweep_rx_variant_result *res;
	struct km_sweep_rx_finding **by_rule;
};

static const uint8_t *frame_of(const struct run *r, unsigned int f)
{
	return r->pat + (size_t)f * FRAME_STRIDE;
}

/* frame @j's length: @len, but a fill run's last frame fills the URB */
static size_t frame_len(const struct run *r, const struct km_sweep_rx_state *st, unsigned int j)
{
	return is_fill(st) && j == st->frames - 1 ?
	       r->fill_last[st->split - KM_SWEEP_RX_FILL_UNDER] : st->len;
}

static void on_frame(void *arg, const uint8_t *frame, size_t len)
{
	struct run *r = arg;
	const struct km_sweep_rx_state *st = r->st;
	unsigned int j;

	/* the next sent frame, or a later one (those between were lost) */
	for (j = r->next; j < st->frames; j++)
		if (km_framing_frame_ok(r->v->framing, frame_of(r, j), frame_len(r, st, j), frame,
					len))
			break;
	if (j < st->frames) {
		r->next = j + 1;
		r->delivered++;
	} else {
		r->mismatched++;
	}
	if (r->trace)
		fprintf(r->trace, "  frame passed up: %zu bytes, %s\n", len,
			j < st->frames ? "a sent frame" : "not a sent frame (frame_mismatch)");
}

/* one load and one store (GCC left put_le32()'s byte loop a loop) */
static uint32_t get_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return GUINT32_FROM_LE(v);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	v = GUINT32_TO_LE(v);
	memcpy(p, &v, sizeof(v));
}

/* a word of the stream changed by the mutation: saved for unmutate() */
static void mutate_word(struct run *r, size_t off, uint32_t w)
{
	r->undo_off[r->nundo] = off;
	r->undo_word[r->nundo++] = get_le32(r->stream + off);
	put_le32(r->stream + off, w);
}

/* bits @shift..@shift+@bits of the word at @off, plus @delta (in the field) */
static void mutate_field(struct run *r, size_t off, unsigned int shift, unsigned int bits,
			 int delta)
{
	uint32_t mask = bits >= 32 ? ~0u : (1u << bits) - 1, w = get_le32(r->stream + off);
	uint32_t v = (((w >> shift) & mask) + (uint32_t)delta) & mask;

	mutate_word(r, off, (w & ~(mask << shift)) | v << shift);
}

/* the stream back to the valid one of its (len, frames) */
static void unmutate(struct run *r)
{
	while (r->nundo) {
		r->nundo--;
		put_le32(r->stream + r->undo_off[r->nundo], r->undo_word[r->nundo]);
	}
}

/* ---- fill runs: transfers that fill rx_urb_size to within a frame -------- */

/* a framing whose device cuts one byte stream into transfers anywhere
 * (the AX88772's: asix_rx_fixup_internal() keeps a frame's state across
 * URBs); the others end each transfer on a frame with its own
 * descriptors (ax88179_rx_fixup() reads them at the transfer's end) */
static bool byte_stream(const struct km_framing *f)
{
	return f->kind == KM_FRAMING_LENGTH || f->kind == KM_FRAMING_NONE;
}

/* bytes of one transfer of @k max-size frames and one of @last; SIZE_MAX
 * if the framing cannot lay them out */
static size_t fill_bytes(struct run *r, unsigned int k, size_t last)
{
	const uint8_t *frames[FILL_FRAMES_MAX];
	size_t lens[FILL_FRAMES_MAX];
	long n;

	if (k + 1 > FILL_FRAMES_MAX)
		return SIZE_MAX;
	for (unsigned int i = 0; i <= k; i++) {
		frames[i] = frame_of(r, i);
		lens[i] = i < k ? LEN_MAX : last;
	}
	n = km_framing_encode(r->v->framing, frames, lens, k + 1, r->stream, sizeof(r->stream));
	return n < 0 ? SIZE_MAX : (size_t)n;
}

/* the last frame behind @k max-size ones: the longest whose transfer is at
 * most @lim bytes, or (@over) the shortest past @lim; 0 if none */
static unsigned int fill_search(struct run *r, unsigned int k, size_t lim, bool over)
{
	unsigned int lo = LEN_MIN, hi = LEN_MAX + 1;

	while (lo < hi) {	/* the first len past @lim (the bytes grow with it) */
		unsigned int mid = lo + (hi - lo) / 2;

		if (fill_bytes(r, k, mid) > lim)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (over)
		return lo <= LEN_MAX && fill_bytes(r, k, lo) != SIZE_MAX ? lo : 0;
	return lo > LEN_MIN ? lo - 1 : 0;
}

/* this endpoint's fill runs: the most max-size frames that leave room for
 * a shortest one under rx_urb_size, then the last frame that ends the
 * transfer at rx_urb_size - 1, at rx_urb_size, and just past it (as near
 * as the framing's pad allows) */
static void fill_plan(struct run *r)
{
	size_t urb = r->dev->rx_urb_size;
	unsigned int k = 0, l;

	memset(r->fill_frames, 0, sizeof(r->fill_frames));
	if (urb < 2 || fill_bytes(r, 0, LEN_MIN) > urb - 1)
		return;
	while (fill_bytes(r, k + 1, LEN_MIN) <= urb - 1)
		k++;
	for (unsigned int d = 0; d < 2; d++) {
		l = fill_search(r, k, urb - 1 + d, false);
		r->fill_frames[d] = l ? k + 1 : 0;
		r->fill_last[d] = l;
	}
	for (unsigned int kk = k; kk <= k + 1; kk++) {
		if ((l = fill_search(r, kk, urb, true)) != 0) {
			r->fill_frames[2] = kk + 1;
			r->fill_last[2] = l;
			break;
		}
	}
	r->enc_len = 0;		/* @stream holds no state's stream */
}

/* a fill state's stream: one byte stream, or as many whole frames per
 * transfer as rx_urb_size holds, the boundaries in @cuts; *@base: the
 * last transfer's start, *@last_n its bytes */
static long build_fill(struct run *r, const struct km_sweep_rx_state *st, size_t *base,
		       long *last_n)
{
	const struct km_framing *f = r->v->framing;
	const uint8_t *frames[FILL_FRAMES_MAX];
	size_t lens[FILL_FRAMES_MAX], off = 0;
	unsigned int i = 0;
	long n = -ENOSPC;

	r->ncuts = 0;
	r->enc_len = 0;
	*base = 0;
	for (unsigned int j = 0; j < st->frames; j++) {
		frames[j] = frame_of(r, j);
		lens[j] = frame_len(r, st, j);
	}
	if (byte_stream(f))
		return *last_n = km_framing_encode_layout(f, frames, lens, st->frames, r->stream,
							  sizeof(r->stream), &r->lay);
	while (i < st->frames) {
		unsigned int j;

		for (j = st->frames; j > i; j--) {
			n = km_framing_encode_layout(f, frames + i, lens + i, j - i, r->stream + off,
						     sizeof(r->stream) - off, &r->lay);
			if (n >= 0 && (size_t)n <= r->dev->rx_urb_size)
				break;
		}
		if (j == i)
			return -ENOSPC;
		if (off)
			r->cuts[r->ncuts++] = off;
		*base = off;
		*last_n = n;
		off += (size_t)n;
		i = j;
	}
	return (long)off;
}

/* the state's stream: encoded (unless the last state's len and frames
 * were the same), then mutated (in its last transfer); its length */
static size_t build(struct run *r, size_t *last_hdr)
{
	const struct km_sweep_rx_state *st = r->st;
	const struct km_framing *f = r->v->framing;
	size_t base = 0;
	long n = 0, nl = 0;
	int delta = st->mutation == KM_SWEEP_RX_LEN_PLUS1 ? 1 :
		    st->mutation == KM_SWEEP_RX_LEN_MINUS1 ? -1 :
		    st->mutation == KM_SWEEP_RX_LEN_PLUS8 ? 8 : 0;

	*last_hdr = 0;
	unmutate(r);
	r->ncuts = 0;
	if (is_fill(st)) {
		n = build_fill(r, st, &base, &nl);
	} else if (r->enc_len != st->len || r->enc_frames != st->frames) {
		const uint8_t *frames[FRAMES_MAX];
		size_t lens[FRAMES_MAX];

		for (unsigned int i = 0; i < st->frames; i++) {
			frames[i] = frame_of(r, i);
			lens[i] = st->len;
		}
		r->enc_n = km_framing_encode_layout(f, frames, lens, st->frames, r->stream,
						    sizeof(r->stream), &r->lay);
		r->enc_len = st->len;
		r->enc_frames = st->frames;
	}
	if (!is_fill(st))
		n = nl = r->enc_n;
	if (n < 0)
		return 0;
	if (!is_fill(st) && f->kind == KM_FRAMING_LENGTH) {	/* the splits' last word */
		size_t span = f->align > 1 ? (f->hdr_bytes + st->len + f->align - 1) / f->align *
					     f->align : f->hdr_bytes + st->len;

		*last_hdr = span * (st->frames - 1) + (f->suffix ? st->len : 0);
	}
	if (f->kind == KM_FRAMING_LENGTH && r->lay.len_bits) {
		/* the first frame's word where the layout puts it (after its
		 * frame for a suffix), its width; an inverted copy (bits 16-31
		 * of a 4-byte word) follows the length, or disagrees by a bit */
		size_t off = base + r->lay.len_off;
		unsigned int sh = r->lay.len_shift;
		uint32_t mask = (1u << r->lay.len_bits) - 1, w = get_le32(r->stream + off);
		uint32_t l = (((w >> sh) & mask) + (uint32_t)delta) & mask;

		if (delta)
			w = (w & ~(mask << sh)) | l << sh;
		if (f->inverted_copy && delta)
			w = (w & 0xffffu) | (~l & 0xffffu) << 16;
		else if (f->inverted_copy && st->mutation == KM_SWEEP_RX_COPY_DISAGREES)
			w ^= 0x10000u;
		if (delta || st->mutation == KM_SWEEP_RX_COPY_DISAGREES)
			mutate_word(r, off, w);
	} else if (f->kind == KM_FRAMING_AX88179) {
		size_t hdr = base + (size_t)nl - 4;
		uint32_t h = get_le32(r->stream + hdr), off = h >> 16;

		if (delta && off + 4 <= (uint32_t)nl) {
			uint32_t d = get_le32(r->stream + base + off);
			uint32_t l = (((d >> 16) & 0x1fffu) + (uint32_t)delta) & 0x1fffu;

			mutate_word(r, base + off, (d & ~(0x1fffu << 16)) | l << 16);
		} else if (st->mutation == KM_SWEEP_RX_COPY_DISAGREES) {
			mutate_word(r, hdr, (h & 0xffff0000u) | ((h + 1) & 0xffffu));
		} else if (st->mutation == KM_SWEEP_RX_OFFSET_PAST_END) {
			/* hdr_off: the transfer's length (a 20 KiB URB's fits 16 bits) */
			mutate_word(r, hdr, (h & 0xffffu) | (uint32_t)nl << 16);
		}
	} else if (f->kind == KM_FRAMING_ENCODER) {	/* the fields its hook named */
		if (delta && r->lay.len_bits)
			mutate_field(r, base + r->lay.len_off, r->lay.len_shift, r->lay.len_bits,
				     delta);
		else if (st->mutation == KM_SWEEP_RX_COPY_DISAGREES && r->lay.count_bits)
			mutate_field(r, base + r->lay.count_off, r->lay.count_shift,
				     r->lay.count_bits, 1);
	}
	if (st->mutation == KM_SWEEP_RX_TRUNCATED)
		n -= 2;
	return (size_t)n;
}

/* hand the stream to usbnet in transfers: the split's cut, then at most
 * rx_urb_size each */
static void deliver(struct run *r, size_t len, size_t last_hdr)
{
	size_t cut = len, off = 0, urb = r->dev->rx_urb_size;
	unsigned int c = 0;

	/* @last_hdr: the last frame's length word (a suffix's after its frame) */
	if (r->st->split == KM_SWEEP_RX_SPLIT_HEADER)	/* half of the word */
		cut = last_hdr + r->v->framing->hdr_bytes / 2;
	else if (r->st->split == KM_SWEEP_RX_SPLIT_FRAME)	/* at an even offset into
								 * the frame, as a device
								 * ends a transfer on a
								 * packet boundary */
		cut = (r->v->framing->suffix ? last_hdr - r->st->len
					     : last_hdr + r->v->framing->hdr_bytes) +
		      (r->st->len / 2 & ~1u);
	if (cut > len)
		cut = len;
	while (off < len) {
		size_t end;
		int rc;

		/* a fill run of whole-frame transfers: its boundaries */
		while (c < r->ncuts && r->cuts[c] <= off)
			c++;
		if (c < r->ncuts)
			cut = r->cuts[c];
		end = off < cut ? MIN(cut, off + urb) : MIN(len, off + urb);

		if (r->trace)
			fprintf(r->trace, " transfer of %zu bytes (stream offset %zu):\n", end - off,
				off);
		rc = km_usbnet_rx_urb(r->dev, r->stream + off, end - off);
		if (r->trace)
			fprintf(r->trace, "  km_usbnet_rx_urb() returned %d\n", rc);
		off = end;
	}
}

static void hit(struct run *r, unsigned int rule)
{
	struct km_sweep_rx_finding *f;

	if (r->trace) {
		fprintf(r->trace, " finding: %s\n", rule_name(rule));
		return;
	}
	f = r->by_rule[rule];
	if (!f) {
		if (r->res->nfindings == KM_SWEEP_RULES_MAX)
			return;
		f = r->by_rule[rule] = &r->res->findings[r->res->nfindings++];
		f->rule = rule_name(rule);
		f->example = *r->st;
	} else if (state_cmp(r->st, &f->example) < 0) {
		f->example = *r->st;
	}
	f->count++;
}

/* one state; returns the findings */
static unsigned int run_state(struct run *r, const struct km_sweep_rx_state *st)
{
	size_t len, last_hdr;
	unsigned int found = 0;
	uint64_t news;

	r->st = st;
	r->next = r->delivered = r->mismatched = 0;
	len = build(r, &last_hdr);
	deliver(r, len, last_hdr);
	/* a driver that keeps state across URBs starts each state afresh:
	 * its unbind and bind, as a reconnect (what it held is freed there) */
	if (r->dev->driver_info->unbind) {
		r->dev->driver_info->unbind(r->dev, NULL);
		if (r->dev->driver_info->bind)
			r->dev->driver_info->bind(r->dev, NULL);
	}
	if (r->mismatched) {
		hit(r, st->mutation == KM_SWEEP_RX_VALID ? RULE_MISMATCH : RULE_BAD_UP);
		found++;
	}
	if (st->mutation == KM_SWEEP_RX_VALID && r->delivered < st->frames) {
		hit(r, RULE_LOST);
		found++;
	}
	if (km_sweep_leaked(r->m, &r->live_skbs, &r->live_bufs)) {
		hit(r, RULE_LEAK);
		found++;
	}
	news = km_sweep_new_reports(r->m, r->counts, 1ull << KM_R_SKB_SHARING);
	for (; news; news &= news - 1) {	/* each code, lowest first */
		hit(r, (unsigned int)__builtin_ctzll(news));
		found++;
	}
	return found;
}

static int run_up(struct run *r, const struct km_usbnet_variant *v, enum km_usb_speed speed,
		  unsigned int mp, unsigned int log_max)
{
	int err = km_sweep_machine_up(&r->m, &r->t);

	if (!err)
		err = km_usbnet_probe(r->m, v, speed, mp, NULL, &r->dev);
	if (err)
		return err;
	r->v = v;
	fill_plan(r);
	km_usbnet_set_rx_sink(r->dev, on_frame, r);
	km_printk_set_quiet(r->m, log_max == 0);
	km_reports_clear(r->m);
	km_reports_set_log_max(r->m, log_max);
	memset(r->counts, 0, sizeof(r->counts));
	km_task_switch(r->t);
	km_skb_live(r->m, &r->live_skbs, &r->live_bufs);
	return 0;
}

static void run_down(struct run *r)
{
	km_task_switch(NULL);
	km_usbnet_free(r->dev);
	km_sweep_machine_down(r->m, r->t);
	r->dev = NULL;
	r->t = NULL;
	r->m = NULL;
}

static uint8_t *pattern(void)
{
	return km_sweep_pattern((size_t)FILL_FRAMES_MAX * FRAME_STRIDE);
}

void km_sweep_rx_result_free(struct km_sweep_rx_result *r)
{
	if (!r)
		return;
	g_free(r->variants);
	g_free(r);
}

const struct km_sweep_rx_finding *km_sweep_rx_find(const struct km_sweep_rx_variant_result *r,
						   const char *rule)
{
	for (size_t i = 0; r && rule && i < r->nfindings; i++)
		if (!strcmp(r->findings[i].rule, rule))
			return &r->findings[i];
	return NULL;
}

int km_sweep_rx_run(const struct km_sweep_rx_config *cfg, struct km_sweep_rx_result **out)
{
	struct km_sweep_rx_config c = { 0 };
	const struct km_usbnet_variant *const *vs;
	struct km_sweep_rx_result *res;
	unsigned int lens[LEN_MAX + 1];
	uint64_t row = 0, done = 0, total, next_progress = 0;
	uint8_t *pat;
	size_t nv = 0;
	double t0, c0;
	int err = 0;

	if (!out)
		return km_err(-EINVAL, "sweep_rx_run: NULL out");
	*out = NULL;
	if (cfg)	/* the members the caller knows (@size 0: all, as before) */
		km_struct_read(&c, sizeof(c), cfg, cfg->size ? cfg->size : sizeof(c));
	if (!c.shards)
		c.shards = 1;
	if (c.shard >= c.shards)
		return km_err(-EINVAL, "sweep_rx_run: shard %u of %u", c.shard, c.shards);
	vs = variants_of(&c);
	for (; vs[nv]; nv++) {
		if ((err = km_usbnet_variant_check(vs[nv])) != 0)
			return err;
		if (!has_rx(vs[nv]))
			return km_err(-EINVAL, "sweep_rx_run: variant %s has no receive side "
				      "(no framing)", vs[nv]->name);
	}
	total = km_sweep_rx_space_size(&c) / c.shards;
	pat = pattern();
	res = g_new0(struct km_sweep_rx_result, 1);
	res->nvariants = nv;
	res->variants = g_new0(struct km_sweep_rx_variant_result, nv);
	t0 = km_sweep_now(CLOCK_MONOTONIC);
	c0 = km_sweep_now(CLOCK_THREAD_CPUTIME_ID);
	for (size_t vi = 0; vi < nv && !err; vi++) {
		struct km_sweep_rx_variant_result *vr = &res->variants[vi];
		struct km_sweep_rx_finding *by_rule[RULE__COUNT] = { 0 };

		vr->name = vs[vi]->name;
		for (size_t e = 0; e < G_N_ELEMENTS(rx_eps) && !err; e++) {
			const struct km_usb_ep_cfg *ep = &rx_eps[e];
			struct run *r;
			unsigned int nl;

			if (!km_usbnet_variant_allows(vs[vi], ep->speed, ep->maxpacket))
				continue;
			r = g_new0(struct run, 1);
			r->pat = pat;
			r->res = vr;
			r->by_rule = by_rule;
			err = run_up(r, vs[vi], ep->speed, ep->maxpacket, 0);
			nl = lens_of(c.quick, ep->maxpacket, lens);
			for (unsigned int li = 0; li < nl && !err; li++, row++) {
				struct km_sweep_rx_state st = { .speed = ep->speed,
								.maxpacket = ep->maxpacket,
								.len = lens[li] };

				if (row % c.shards != c.shard)
					continue;
				for (st.frames = 1; st.frames <= FRAMES_MAX; st.frames++)
					for (st.mutation = 0; st.mutation < KM_SWEEP_RX_MUTATION_COUNT;
					     st.mutation++)
						for (st.split = 0; st.split < splits_of(vs[vi]) &&
						     mutation_applies(vs[vi], st.mutation);
						     st.split++) {
							if (c.on_state)
								c.on_state(c.on_state_arg,
									   vs[vi], &st);
							run_state(r, &st);
						}
				vr->states += row_states(vs[vi]);
				done += row_states(vs[vi]);
				if (c.progress && done >= next_progress) {
					c.progress(c.progress_arg, done, total);
					next_progress = done + 65536;
				}
			}
			/* the endpoint's fill row (a fill the framing cannot lay
			 * out counts, but runs nothing) */
			if (!err && row++ % c.shards == c.shard) {
				struct km_sweep_rx_state st = { .speed = ep->speed,
								.maxpacket = ep->maxpacket,
								.len = LEN_MAX };

				for (st.mutation = 0; st.mutation < KM_SWEEP_RX_MUTATION_COUNT;
				     st.mutation++)
					for (st.split = KM_SWEEP_RX_FILL_UNDER;
					     st.split < KM_SWEEP_RX_SPLIT_COUNT &&
					     mutation_applies(vs[vi], st.mutation); st.split++) {
						st.frames = r->fill_frames[st.split -
									   KM_SWEEP_RX_FILL_UNDER];
						if (!st.frames)
							continue;
						if (c.on_state)
							c.on_state(c.on_state_arg, vs[vi], &st);
						run_state(r, &st);
					}
				vr->states += fill_row_states(vs[vi]);
				done += fill_row_states(vs[vi]);
			}
			run_down(r);
			g_free(r);
		}
		res->states += vr->states;
	}
	res->seconds = km_sweep_now(CLOCK_MONOTONIC) - t0;
	res->cpu_seconds = km_sweep_now(CLOCK_THREAD_CPUTIME_ID) - c0;
	g_free(pat);
	if (err) {
		km_sweep_rx_result_free(res);
		return err;
	}
	if (c.progress)
		c.progress(c.progress_arg, done, total);
	*out = res;
	return 0;
}

int km_sweep_rx_replay(const struct km_usbnet_variant *v, const struct km_sweep_rx_state *st,
		       FILE *out)
{
	struct km_usbnet_rx_stats rs;
	struct run *r;
	unsigned int found;
	int err;

	if (!v || !st || !out || !has_rx(v) || !st->frames ||
	    st->frames > (is_fill(st) ? FILL_FRAMES_MAX : FRAMES_MAX) ||
	    st->len < LEN_MIN || st->len > LEN_MAX || (is_fill(st) && st->len != LEN_MAX) ||
	    st->mutation >= KM_SWEEP_RX_MUTATION_COUNT ||
	    (st->split >= splits_of(v) && !is_fill(st)) ||
	    !km_usbnet_variant_allows(v, st->speed, st->maxpacket))
		return km_err(-EINVAL, "sweep_rx_replay: not a state of the space (len 14..1518, "
			      "frames 1..3, a mutation, a split of the framing, an endpoint of "
			      "the variant; a urb_fill: len 1518 and the endpoint's frames)");
	if (!mutation_applies(v, st->mutation))
		return km_err(-EINVAL, "sweep_rx_replay: %s is not a state of %s: its framing "
			      "has no %s", km_sweep_rx_mutation_name(st->mutation), v->name,
			      st->mutation == KM_SWEEP_RX_OFFSET_PAST_END ?
			      "trailing descriptor header (the AX88179's rx_hdr)" :
			      "inverted copy in its length word to disagree");
	r = g_new0(struct run, 1);
	r->pat = pattern();
	r->trace = out;
	err = run_up(r, v, st->speed, st->maxpacket, 1024);
	if (!err && is_fill(st) && st->frames != r->fill_frames[st->split - KM_SWEEP_RX_FILL_UNDER]) {
		err = km_err(-EINVAL, "sweep_rx_replay: %s's %s run on this endpoint has %u "
			     "frames, not %u", v->name, km_sweep_rx_split_name(st->split),
			     r->fill_frames[st->split - KM_SWEEP_RX_FILL_UNDER], st->frames);
		run_down(r);
	}
	if (err) {
		g_free((void *)r->pat);
		g_free(r);
		return err;
	}
	fprintf(out, "%s (%s): %s/%u, %u frame%s of %u bytes, %s, %s; rx_urb_size %zu\n",
		v->name, v->rx_source ? v->rx_source : "rx_source not set by its variant",
		km_usb_speed_name(st->speed),
		st->maxpacket, st->frames, st->frames == 1 ? "" : "s", st->len,
		km_sweep_rx_mutation_name(st->mutation), km_sweep_rx_split_name(st->split),
		r->dev->rx_urb_size);
	if (is_fill(st))
		fprintf(out, " the last frame fills the URB: %zu bytes\n",
			frame_len(r, st, st->frames - 1));
	found = run_state(r, st);
	km_usbnet_rx_get_stats(r->dev, &rs);
	fprintf(out, " usbnet: %" G_GUINT64_FORMAT " URBs, %" G_GUINT64_FORMAT " frames passed "
		"up, rx_fixup returned 0 %" G_GUINT64_FORMAT " times; rx_packets %lu rx_bytes %lu "
		"rx_errors %lu rx_length_errors %lu\n", rs.urbs, rs.frames, rs.fixup_errors,
		r->dev->net->stats.rx_packets, r->dev->net->stats.rx_bytes,
		r->dev->net->stats.rx_errors, r->dev->net->stats.rx_length_errors);
	km_sweep_replay_end(r->m, out, found);
	run_down(r);
	g_free((void *)r->pat);
	g_free(r);
	return (int)found;
}
