// SPDX-License-Identifier: GPL-2.0
/*
 * The exhaustive tx_fixup sweep (see include/kmodel/sweep.h): for each
 * variant and endpoint a machine, a usbnet and the variant's device model;
 * then every (sharing, len) row of headroom x tailroom states of this
 * shard: build the skb, hand it to usbnet_start_xmit(), and check what the
 * device got, what the other holder owns, the reports and the leaks.
 */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <glib.h>
#include <stddef.h>
#include <string.h>
#include <kmodel/sweep.h>
#include "sweep_internal.h"
#include <string.h>
#include <time.h>

#define LEN_MAX 1518u		/* ETH_FRAME_LEN + VLAN_HLEN */
#define ROOM_MAX 64u
#define QUICK_ROOM_MAX 8u
#define TCP_HDRS 66u		/* Ethernet + IPv4 + TCP with timestamps */
#define PAT_LEN (LEN_MAX + 256u)

static const struct km_usb_ep_cfg sweep_eps[] = {
	{ KM_USB_SPEED_FULL, 8 }, { KM_USB_SPEED_FULL, 64 }, { KM_USB_SPEED_HIGH, 512 },
	{ KM_USB_SPEED_SUPER, 1024 },
};

/* the rules past the report codes */
enum { RULE_FRAME = KM_R__COUNT, RULE_OTHER, RULE_LEAK, RULE__COUNT };

_Static_assert(RULE__COUNT <= 2 * KM_SWEEP_RULES_MAX, "rule table");

static const char *rule_name(unsigned int r)
{
	switch (r) {
	case KM_R_USB_NO_ZLP: return "zlp_stall";
	case RULE_FRAME: return "frame_mismatch";
	case RULE_OTHER: return "other_holder_corrupted";
	case RULE_LEAK: return "leak";
	default: return km_report_code_name((enum km_report_code)r);
	}
}

const char *km_sweep_sharing_name(enum km_sweep_sharing s)
{
	static const char *const names[] = { "private", "tcp_clone", "header_cloned", "shared" };

	return (unsigned int)s < KM_SWEEP_SHARING_COUNT ? names[s] : NULL;
}

int km_sweep_state_cmp(const struct km_sweep_state *a, const struct km_sweep_state *b)
{
	/* default tailroom sorts after every exact one */
	unsigned int ta = a->tailroom < 0 ? UINT32_MAX : (unsigned int)a->tailroom;
	unsigned int tb = b->tailroom < 0 ? UINT32_MAX : (unsigned int)b->tailroom;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	if (a->headroom != b->headroom)
		return a->headroom < b->headroom ? -1 : 1;
	if (ta != tb)
		return ta < tb ? -1 : 1;
	if (a->sharing != b->sharing)
		return a->sharing < b->sharing ? -1 : 1;
	if (a->maxpacket != b->maxpacket)
		return a->maxpacket < b->maxpacket ? -1 : 1;
	return 0;
}

/* km_sweep_run()'s loops, outermost first: endpoint, sharing, len,
 * headroom, tailroom from KM_SWEEP_TAIL_DEFAULT (-1) up */
int km_sweep_state_run_cmp(const struct km_sweep_state *a, const struct km_sweep_state *b)
{
	size_t ea = km_sweep_ep_order(sweep_eps, G_N_ELEMENTS(sweep_eps), a->speed, a->maxpacket);
	size_t eb = km_sweep_ep_order(sweep_eps, G_N_ELEMENTS(sweep_eps), b->speed, b->maxpacket);

	if (ea != eb)
		return ea < eb ? -1 : 1;
	if (a->sharing != b->sharing)
		return a->sharing < b->sharing ? -1 : 1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	if (a->headroom != b->headroom)
		return a->headroom < b->headroom ? -1 : 1;
	if (a->tailroom != b->tailroom)
		return a->tailroom < b->tailroom ? -1 : 1;
	return 0;
}

/* ---- the space ------------------------------------------------------------ */

static unsigned int len_max(const struct km_sweep_config *c, unsigned int mp)
{
	return c->quick ? MIN(2 * mp + 8, LEN_MAX) : LEN_MAX;
}

/* the smallest len of a sharing's rows: a TCP clone carries at least the
 * headers (a segment with no payload, a FIN); shorter ones are no TCP */
static unsigned int len_min(unsigned int sharing)
{
	return sharing == KM_SWEEP_TCP_CLONE ? TCP_HDRS : 0;
}

/* rows (lengths) of one sharing at one endpoint */
static unsigned int len_rows(const struct km_sweep_config *c, unsigned int mp,
			     unsigned int sharing)
{
	unsigned int lo = len_min(sharing), hi = len_max(c, mp);

	return hi >= lo ? hi - lo + 1 : 0;
}

static unsigned int room_max(const struct km_sweep_config *c)
{
	return c->quick ? QUICK_ROOM_MAX : ROOM_MAX;
}

/* states of one row: headroom x (tailroom + default) */
static uint64_t row_states(const struct km_sweep_config *c)
{
	return (uint64_t)(room_max(c) + 1) * (room_max(c) + 2);
}

static const struct km_usbnet_variant *const *variants_of(const struct km_sweep_config *c)
{
	return c->variants ? c->variants : km_usbnet_variants();
}

/* a receive-only variant: usbnet would send its skbs unchanged, but no
 * device model parses them back, so the sweep has nothing to compare */
static int no_tx_dev(const struct km_usbnet_variant *v)
{
	return km_err(-EINVAL, "sweep: variant %s has a receive side only (no dev_new, and "
		      "its framing has neither a length before each frame nor a decode "
		      "hook): nothing parses its "
		      "bulk-out; sweep it with `kmodel-sweep rx`", v->name);
}

static bool sharing_on(const struct km_sweep_config *c, unsigned int s)
{
	return !c->sharings || (c->sharings & (1u << s));
}

/* rows (sharing, len) of variant @v in the whole space */
static uint64_t variant_rows(const struct km_sweep_config *c, const struct km_usbnet_variant *v)
{
	uint64_t rows = 0;

	for (size_t e = 0; e < G_N_ELEMENTS(sweep_eps); e++)
		for (unsigned int s = 0; s < KM_SWEEP_SHARING_COUNT; s++)
			if (sharing_on(c, s) &&
			    km_usbnet_variant_allows(v, sweep_eps[e].speed, sweep_eps[e].maxpacket))
				rows += len_rows(c, sweep_eps[e].maxpacket, s);
	return rows;
}

uint64_t km_sweep_space_size_sized(const struct km_sweep_config *cfg, size_t cfg_size)
{
	struct km_sweep_config c = { 0 };
	uint64_t rows = 0;

	if (cfg && cfg_size < KM_SWEEP_CONFIG_MIN_SIZE)
		return 0;
	if (cfg)
		km_struct_read(&c, sizeof(c), cfg, cfg_size);

	for (const struct km_usbnet_variant *const *v = variants_of(&c); *v; v++)
		rows += variant_rows(&c, *v);
	return rows * row_states(&c);
}

/* ---- one state -------------------------------------------------------------- */

struct run {
	struct km_machine *m;
	struct km_task *t;
	struct km_usbnet_dev dev;
	const struct km_framing *tx_framing;	/* its device's, when the library's parser */
	struct km_usbnet *net;
	struct km_usb_sink dev_sink;	/* the device model's */
	const uint8_t *pat;
	/* what the device got in this state */
	unsigned int expect_len;
	unsigned int frames, bad_frames;
	bool started, ended;
	unsigned long counts[KM_R__COUNT];	/* report counts before the state */
	size_t live_skbs, live_bufs;
	struct km_sweep_variant_result *res;
	struct km_sweep_finding **by_rule;	/* the variant's, by rule index */
	struct km_skb_watch *watch;	/* plain stores into a shared buffer */
	FILE *trace;			/* km_sweep_replay(): what happened */
	unsigned int hits;
};

static void on_frame(void *arg, const uint8_t *frame, size_t len)
{
	struct run *r = arg;

	bool ok = len == r->expect_len && !memcmp(frame, r->pat, len);

	/* or the skb's with the device's documented trailing pad */
	if (!ok && r->tx_framing)
		ok = km_framing_frame_ok(r->tx_framing, r->pat, r->expect_len, frame, len);
	r->frames++;
	if (!ok)
		r->bad_frames++;
	if (r->trace)
		fprintf(r->trace, " device got a frame of %zu bytes: %s\n", len,
			ok ? "the skb's" : "not the skb's (frame_mismatch)");
}

/* between usbnet and the device: notes whether the transfer ended */
static void wire(void *priv, const uint8_t *data, size_t len, bool end)
{
	struct run *r = priv;

	r->started = true;
	r->ended = end;
	r->dev_sink.packet(r->dev_sink.priv, data, len, end);
}

/* the same for a whole transfer (km_usb_sink.transfer) */
static void wire_transfer(void *priv, const uint8_t *data, size_t len, bool ended)
{
	struct run *r = priv;
	size_t mp = r->net->maxpacket;

	r->started = true;
	r->ended = ended;
	if (r->dev_sink.transfer) {
		r->dev_sink.transfer(r->dev_sink.priv, data, len, ended);
		return;
	}
	/* a device that wants packets: as km_usb_bulk_out() splits them, a
	 * short packet ends the transfer, and a full last one only with the
	 * ZLP that follows it (@ended with len a multiple of maxpacket) */
	for (size_t off = 0; off < len; off += mp)
		r->dev_sink.packet(r->dev_sink.priv, data + off, MIN(mp, len - off),
				   len - off < mp);
	if (ended && (len == 0 || len % mp == 0))
		r->dev_sink.packet(r->dev_sink.priv, NULL, 0, true);
}

static void hit(struct run *r, unsigned int rule, const struct km_sweep_state *st)
{
	struct km_sweep_finding *f = r->by_rule[rule];

	r->hits++;
	if (r->trace) {
		fprintf(r->trace, " finding: %s\n", rule_name(rule));
		return;
	}
	if (!f) {
		if (r->res->nfindings == KM_SWEEP_RULES_MAX)
			return;
		f = r->by_rule[rule] = &r->res->findings[r->res->nfindings++];
		f->rule = rule_name(rule);
		f->example = *st;
	} else if (km_sweep_state_cmp(st, &f->example) < 0) {
		f->example = *st;
	}
	f->count++;
}

/* An skb of @st's geometry holding the pattern, or NULL. */
static struct km_skb *build(struct run *r, const struct km_sweep_state *st)
{
	unsigned int h = st->headroom, l = st->len;
	struct km_skb *skb;

	if (st->tailroom == KM_SWEEP_TAIL_DEFAULT)
		skb = km_alloc_skb(r->t, h + l, KM_GFP_ATOMIC);
	else
		skb = km_build_skb(r->t, h + l + (unsigned int)st->tailroom, KM_GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb->data += h;			/* skb_reserve(): an empty skb */
	skb->tail = skb->data + l;	/* skb_put() */
	skb->len = l;
	memcpy(skb->data, r->pat, l);
	return skb;
}

static void run_state(struct run *r, struct km_sweep_state *st)
{
	struct km_skb *skb, *drv, *other = NULL;
	unsigned char *other_data = NULL;
	unsigned int other_len = 0, p = 0;
	uint64_t news;
	bool corrupted = false;

	skb = build(r, st);
	if (!skb) {
		hit(r, RULE_LEAK, st);	/* cannot happen without fault injection */
		return;
	}
	st->tail_bytes = (unsigned int)(skb->end - skb->tail);
	drv = skb;
	switch (st->sharing) {
	case KM_SWEEP_PRIVATE:
		break;
	case KM_SWEEP_TCP_CLONE:
		/* tcp_transmit_skb(): the queued original holds the payload and
		 * released its header; the clone pushes the headers (len >=
		 * TCP_HDRS: see len_min()) */
		p = TCP_HDRS;
		skb->data += p;
		skb->len -= p;
		km_skb_header_release(skb);
		drv = km_skb_clone(r->t, skb, KM_GFP_ATOMIC);
		drv->data -= p;
		drv->len += p;
		other = skb;
		break;
	case KM_SWEEP_HDR_CLONED:
		drv = km_skb_clone(r->t, skb, KM_GFP_ATOMIC);
		other = skb;
		break;
	case KM_SWEEP_SHARED:
		other = km_skb_get(skb);
		break;
	default:
		break;
	}
	if (other) {
		other_data = other->data;
		other_len = other->len;
	}
	r->expect_len = st->len;
	r->frames = r->bad_frames = 0;
	r->started = r->ended = false;

	/* the checker sees writes through calls only: the bytes of a shared
	 * buffer it forbids drv to write are compared around the call too,
	 * so a plain C store there is a finding (skb_store_shared) */
	if (km_skb_watch_begin(r->watch, drv)) {
		km_usbnet_start_xmit(r->net, drv);
		km_skb_watch_end(r->watch);
	} else {
		km_usbnet_start_xmit(r->net, drv);
	}

	if (r->started && !r->ended) {
		hit(r, KM_R_USB_NO_ZLP, st);	/* also reported: see below */
		r->dev_sink.packet(r->dev_sink.priv, NULL, 0, true);	/* reset the device */
	}
	/* one frame equal to the skb's bytes; of an empty skb, none (the
	 * AX88772 reads a zero length as its pad word) or one empty frame (a
	 * device whose framing can carry it) */
	if (r->bad_frames || r->frames > 1 || (st->len && r->frames != 1))
		hit(r, RULE_FRAME, st);
	if (other && !km_skb_held(other)) {
		/* the driver dropped the other holder's reference (it freed
		 * the skb once more than it owned): the holder's bytes are
		 * gone, and its own kfree_skb() would free a dead skb -- the
		 * double free that kfree_skb() reports (the sweep
		 * compared, then freed, the freed buffer). Counted under
		 * skb_refcount, as that free would be; nothing freed again. */
		km_report(r->m, KM_BUG, KM_R_SKB_REFCOUNT, "sweep: the other holder's skb "
			  "was freed by the driver (a reference it did not own)");
	} else if (other) {
		corrupted = other->data != other_data || other->len != other_len ||
			    memcmp(other_data, r->pat + p, other_len);
		if (corrupted)
			hit(r, RULE_OTHER, st);
		km_kfree_skb(other);
	}
	if (km_sweep_leaked(r->m, &r->live_skbs, &r->live_bufs))
		hit(r, RULE_LEAK, st);
	/* the category and the stall (counted above) aside */
	news = km_sweep_new_reports(r->m, r->counts,
				    1ull << KM_R_SKB_SHARING | 1ull << KM_R_USB_NO_ZLP);
	for (; news; news &= news - 1)	/* each code, lowest first */
		hit(r, (unsigned int)__builtin_ctzll(news), st);
}

/* ---- setup and the loop ------------------------------------------------------ */

static int run_up(struct run *r, const struct km_usbnet_variant *v, const struct km_usb_ep_cfg *ep)
{
	struct km_usb_sink sink = { wire, r, wire_transfer };
	int err;

	err = km_sweep_machine_up(&r->m, &r->t);
	if (!err && !(r->watch = km_skb_watch_new()))
		err = km_err(-ENOMEM, "sweep: no host memory for the plain-store watch");
	if (!err)
		err = km_usbnet_variant_dev_new(v, r->m, on_frame, r, &r->dev);
	r->tx_framing = km_usbnet_variant_tx_framing(v);
	if (err)
		return err;
	r->dev_sink = r->dev.sink;
	err = km_usbnet_probe(r->m, v, ep->speed, ep->maxpacket, &sink, &r->net);
	if (err)
		return err;
	km_reports_clear(r->m);
	memset(r->counts, 0, sizeof(r->counts));
	km_skb_live(r->m, &r->live_skbs, &r->live_bufs);
	return 0;
}

static void run_down(struct run *r)
{
	km_skb_watch_free(r->watch);
	r->watch = NULL;
	km_usbnet_free(r->net);
	km_usbnet_dev_free(&r->dev);
	km_sweep_machine_down(r->m, r->t);
	r->net = NULL;
	r->t = NULL;
	r->m = NULL;
}

double km_sweep_now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

size_t km_sweep_ep_order(const struct km_usb_ep_cfg *eps, size_t n, enum km_usb_speed speed,
			 unsigned int maxpacket)
{
	size_t e = 0;

	while (e < n && (eps[e].speed != speed || eps[e].maxpacket != maxpacket))
		e++;
	return e;
}

uint8_t *km_sweep_pattern(size_t n)
{
	uint8_t *pat = g_malloc(n);

	for (size_t i = 0; i < n; i++)
		pat[i] = (uint8_t)(i * 7u + (i >> 8) * 13u + 1u);
	return pat;
}

int km_sweep_machine_up(struct km_machine **m, struct km_task **t)
{
	int err = km_machine_new(NULL, m);

	*t = NULL;
	if (!err)
		err = km_task_new(*m, NULL, 0, t);
	if (!err) {
		km_reports_set_log_max(*m, 0);	/* count, never format */
		km_reports_clear(*m);
		/* a variant's driver that writes a page it pinned for write and
		 * releases it clean (km_check_pinned_writes()) */
		km_check_pinned_writes(*m, true);
	}
	return err;
}

void km_sweep_machine_down(struct km_machine *m, struct km_task *t)
{
	if (t)
		km_task_free(t);
	if (m) {
		km_reports_set_log_max(m, 0);
		km_machine_destroy(m);
	}
}

uint64_t km_sweep_new_reports(struct km_machine *m, unsigned long counts[KM_R__COUNT],
			      uint64_t skip)
{
	uint64_t news = 0;

	if (km_report_count(m, KM_R_NONE) == counts[KM_R_NONE])	/* the total */
		return 0;
	for (unsigned int c = 1; c < KM_R__COUNT; c++) {
		unsigned long n = km_report_count(m, (enum km_report_code)c);

		if (n != counts[c] && !(skip >> c & 1))
			news |= 1ull << c;
		counts[c] = n;
	}
	counts[KM_R_NONE] = km_report_count(m, KM_R_NONE);
	return news;
}

bool km_sweep_leaked(struct km_machine *m, size_t *skbs, size_t *bufs)
{
	size_t s, b;

	km_skb_live(m, &s, &b);
	if (s == *skbs && b == *bufs)
		return false;
	*skbs = s;
	*bufs = b;
	return true;
}

void km_sweep_replay_end(struct km_machine *m, FILE *out, unsigned int found)
{
	for (size_t i = 0; i < km_report_log_len(m); i++) {
		const struct km_report *rep = km_report_get(m, i);

		fprintf(out, " report %s: %s\n", km_report_code_name(rep->code), rep->message);
	}
	fprintf(out, " %u finding%s\n", found, found == 1 ? "" : "s");
}

void km_sweep_result_free(struct km_sweep_result *r)
{
	if (!r)
		return;
	g_free(r->variants);
	g_free(r);
}

const struct km_sweep_finding *km_sweep_find(const struct km_sweep_variant_result *r,
					     const char *rule)
{
	for (size_t i = 0; r && rule && i < r->nfindings; i++)
		if (!strcmp(r->findings[i].rule, rule))
			return &r->findings[i];
	return NULL;
}

int km_sweep_run_sized(const struct km_sweep_config *cfg, size_t cfg_size,
		       struct km_sweep_result **out)
{
	struct km_sweep_config c = { 0 };
	const struct km_usbnet_variant *const *vs;
	struct km_sweep_result *res;
	uint64_t row = 0, done = 0, total, next_progress = 0;
	uint8_t *pat;
	size_t nv = 0;
	double t0, c0;
	int err = 0;

	if (!out)
		return km_err(-EINVAL, "sweep_run: NULL out");
	*out = NULL;
	if (cfg && cfg_size < KM_SWEEP_CONFIG_MIN_SIZE)
		return km_err(-EINVAL, "sweep_run: config size %zu (< %zu)", cfg_size,
			      (size_t)KM_SWEEP_CONFIG_MIN_SIZE);
	if (cfg)
		km_struct_read(&c, sizeof(c), cfg, cfg_size);
	if (!c.shards)
		c.shards = 1;
	if (c.shard >= c.shards)
		return km_err(-EINVAL, "sweep_run: shard %u of %u", c.shard, c.shards);
	if (c.sharings >> KM_SWEEP_SHARING_COUNT)
		return km_err(-EINVAL, "sweep_run: sharing mask %#x", c.sharings);
	vs = variants_of(&c);
	for (; vs[nv]; nv++) {
		if ((err = km_usbnet_variant_check(vs[nv])) != 0)
			return err;
		if (!km_usbnet_variant_has_tx_dev(vs[nv]))
			return no_tx_dev(vs[nv]);
	}
	total = km_sweep_space_size_sized(&c, sizeof(c)) / c.shards;
	pat = km_sweep_pattern(PAT_LEN);
	res = g_new0(struct km_sweep_result, 1);
	res->nvariants = nv;
	res->variants = g_new0(struct km_sweep_variant_result, nv);
	t0 = km_sweep_now(CLOCK_MONOTONIC);
	c0 = km_sweep_now(CLOCK_THREAD_CPUTIME_ID);
	for (size_t vi = 0; vi < nv && !err; vi++) {
		struct km_sweep_variant_result *vr = &res->variants[vi];
		struct km_sweep_finding *by_rule[RULE__COUNT] = { 0 };

		vr->name = vs[vi]->name;
		for (size_t e = 0; e < G_N_ELEMENTS(sweep_eps) && !err; e++) {
			const struct km_usb_ep_cfg *ep = &sweep_eps[e];
			unsigned int lmax = len_max(&c, ep->maxpacket), rmax = room_max(&c);
			struct run r = { .pat = pat, .res = vr, .by_rule = by_rule };

			if (!km_usbnet_variant_allows(vs[vi], ep->speed, ep->maxpacket))
				continue;
			err = run_up(&r, vs[vi], ep);
			if (!err)
				km_task_switch(r.t);
			for (unsigned int s = 0; s < KM_SWEEP_SHARING_COUNT && !err; s++)
				for (unsigned int l = len_min(s); l <= lmax && sharing_on(&c, s);
				     l++, row++) {
					struct km_sweep_state st = { .speed = ep->speed,
								     .maxpacket = ep->maxpacket,
								     .sharing = s, .len = l };

					if (row % c.shards != c.shard)
						continue;
					for (unsigned int h = 0; h <= rmax; h++) {
						st.headroom = h;
						for (int t = -1; t <= (int)rmax; t++) {
							st.tailroom = t;
							if (c.on_state)
								c.on_state(c.on_state_arg,
									   vs[vi], &st);
							run_state(&r, &st);
						}
					}
					vr->states += row_states(&c);
					done += row_states(&c);
					if (c.progress && done >= next_progress) {
						c.progress(c.progress_arg, done, total);
						next_progress = done + 262144;
					}
				}
			km_task_switch(NULL);
			run_down(&r);
		}
		res->states += vr->states;
	}
	res->seconds = km_sweep_now(CLOCK_MONOTONIC) - t0;
	res->cpu_seconds = km_sweep_now(CLOCK_THREAD_CPUTIME_ID) - c0;
	g_free(pat);
	if (err) {
		km_sweep_result_free(res);
		return err;
	}
	if (c.progress)
		c.progress(c.progress_arg, done, total);
	*out = res;
	return 0;
}

int km_sweep_replay(const struct km_usbnet_variant *v, const struct km_sweep_state *st, FILE *out)
{
	struct km_sweep_finding *by_rule[RULE__COUNT] = { 0 };
	struct km_sweep_variant_result vr = { 0 };
	struct km_usb_ep_cfg ep;
	struct km_sweep_state s;
	struct run r = { 0 };
	uint8_t *pat;
	int err;

	if (v && !km_usbnet_variant_check(v) && !km_usbnet_variant_has_tx_dev(v))
		return no_tx_dev(v);
	if (!v || !st || !out || km_usbnet_variant_check(v) ||
	    !km_usbnet_variant_allows(v, st->speed, st->maxpacket) || st->len > LEN_MAX ||
	    st->headroom > ROOM_MAX || st->tailroom < KM_SWEEP_TAIL_DEFAULT ||
	    st->tailroom > (int)ROOM_MAX || (unsigned int)st->sharing >= KM_SWEEP_SHARING_COUNT ||
	    st->len < len_min(st->sharing))
		return km_err(-EINVAL, "sweep_replay: not a state of the space (len 0..1518, "
			      "head- and tailroom 0..64 or default, a sharing, an endpoint of the "
			      "variant; tcp_clone from len 66)");
	pat = km_sweep_pattern(PAT_LEN);
	ep = (struct km_usb_ep_cfg){ st->speed, st->maxpacket };
	r.pat = pat;
	r.res = &vr;
	r.by_rule = by_rule;
	r.trace = out;
	err = run_up(&r, v, &ep);
	if (!err) {
		s = *st;
		km_reports_set_log_max(r.m, 1024);
		km_task_switch(r.t);
		fprintf(out, "%s (%s): %s/%u, %s skb of len %u, headroom %u, tailroom %d%s\n",
			v->name, v->source, km_usb_speed_name(st->speed), st->maxpacket,
			km_sweep_sharing_name(st->sharing), st->len, st->headroom, st->tailroom,
			st->tailroom < 0 ? " (alloc_skb()'s default)" : "");
		run_state(&r, &s);
		fprintf(out, " URB of %zu bytes%s; tx_packets %lu tx_bytes %lu tx_dropped %lu\n",
			r.net->last_urb_len, r.net->last_urb_zero_packet ? " with URB_ZERO_PACKET" : "",
			r.net->net->tx_packets, r.net->net->tx_bytes, r.net->net->tx_dropped);
		km_sweep_replay_end(r.m, out, r.hits);
		km_task_switch(NULL);
	}
	run_down(&r);
	g_free(pat);
	return err ? err : (int)r.hits;
}
