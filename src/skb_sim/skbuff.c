// SPDX-License-Identifier: GPL-2.0
/*
 * skb_sim: the linear sk_buff of include/linux/skbuff.h and
 * net/core/skbuff.c (v3.5, 32-bit ARM), its data buffers, the sharing
 * checker and the teardown leak check. See include/kmodel/skb.h.
 *
 * Host layout: the data buffer is a kmalloc object of the machine (so the
 * kernel's SKB_DATA_ALIGN + kmalloc bucket rounding decides skb->end); the
 * sk_buff struct and the shared info live in host memory, in per-machine
 * caches that are never returned to the host before teardown, so a double
 * free is detected safely and the per-packet path allocates nothing. The
 * caches are FIFO quarantines: a freed struct is reused only after
 * KM_SKB_QUARANTINE other structs were freed after it, so a stale pointer
 * freed again within that window finds SKB_FREE, not a live skb.
 *
 * Containers: every record made is in a GPtrArray (teardown reports the
 * live ones and frees all; a write by no noted skb finds its buffer there);
 * a quarantine is a GPtrArray of the freed records used as a ring (struct
 * quarantine: the oldest at an index, a count; the array doubles when
 * full): a free stores a pointer at the end, a reuse reads the one at the
 * index. A list's links would be written in the records themselves, lines
 * long out of the cache by the time a record is reused, and glib's calls
 * would cost more than the stores; the ring's slots are a few lines, read
 * and written in order. Live counts stand in for live lists, which would
 * cost four list operations per record's lifetime.
 *
 * The checker observes: a rule it reports on never changes what the
 * simulated kernel does. Only a write that would leave the kmalloc object
 * (host memory) is not done; that is a BUG in the kernel too.
 */
#include "skb_internal.h"
#include <kmodel/skb.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* skb_sim's state on a machine (m->skb; km_skb_init(), km_skb_fini()):
 * every sk_buff struct and data-buffer record made (host memory until
 * teardown, which reports the live ones), the freed ones waiting in FIFO
 * quarantines, the live counts, and the skb that modelled code last worked
 * on (checks its raw memcpy/memmove: the compatibility layer's README) */
struct quarantine {
	GPtrArray *ring;	/* slots: a power of two of them, or none */
	void **slot;		/* its slots (ring->pdata), one load nearer */
	guint mask;		/* its size - 1 */
	guint head;		/* the oldest freed record's slot */
	guint n;		/* records waiting */
};

struct km_skb_state {
	GPtrArray *all, *buf_all;
	struct quarantine free, buf_free;
	size_t nlive, buf_nlive;
	size_t shinfo_space;		/* SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) */
	const void *hint;
	bool nocheck;			/* km_skb_set_checker(m, false) */
	struct km_skb_watch *watch;	/* a harness's watch for plain stores, or NULL */
	/* the CPU's netdev_alloc_cache (net/core/skbuff.c, v3.5): its page
	 * (the cache's reference) and the next fragment's offset */
	struct km_page *frag_page;
	unsigned int frag_offset;
};

#define SKB_LIVE 0x736b4c56u	/* "skLV" */
#define SKB_FREE 0x736b4652u	/* "skFR" */

struct skb_priv {
	struct km_skb skb;
	uint32_t magic;
};

struct buf_priv {
	struct km_skb_shared_info sh;
	uint32_t magic;
	unsigned char *obj;	/* the kmalloc object (== head at allocation) */
	size_t ksize;		/* its usable bytes */
	/* a page fragment's buffer (netdev_alloc_frag()): the page it holds a
	 * reference on; its bytes are host memory (km_kmalloc_host()) */
	struct km_page *frag;
};

static inline struct skb_priv *skb_priv(const struct km_skb *skb)
{
	return (struct skb_priv *)((char *)skb - offsetof(struct skb_priv, skb));
}

static inline struct buf_priv *buf_priv(const struct km_skb *skb)
{
	return (struct buf_priv *)((char *)skb->shinfo - offsetof(struct buf_priv, sh));
}

/* SKB_DATA_ALIGN(X): ALIGN(X, SMP_CACHE_BYTES) (include/linux/skbuff.h) */
static inline size_t data_align(const struct km_machine *m, size_t x)
{
	size_t a = m->cfg.l1_cache_bytes;

	return (x + a - 1) & ~(a - 1);
}

/* sizeof(struct skb_shared_info), 32-bit ARM, v3.5 (see skb.h):
 * 44 bytes before frags[], MAX_SKB_FRAGS = max(16, 65536 / PAGE_SIZE + 2)
 * frags of 8 bytes (12 when PAGE_SIZE >= 65536: __u32 offset and size),
 * rounded up to the 8-byte alignment of ktime_t. */
unsigned int km_skb_shinfo_size(const struct km_machine *m)
{
	unsigned long ps;
	unsigned int frags, frag_size;

	if (!m) {
		km_set_error("skb_shinfo_size: NULL machine");
		return KM_SKB_SHINFO_SIZE;
	}
	ps = m->cfg.page_size;
	if (ps == 4096)		/* the per-packet case: no division */
		return KM_SKB_SHINFO_SIZE;
	frags = (unsigned int)MAX(16ul, 65536ul / ps + 2);
	frag_size = ps >= 65536 ? 12u : 8u;
	return (44u + frags * frag_size + 7u) & ~7u;
}

/* SKB_DATA_ALIGN(sizeof(struct skb_shared_info)): the bytes of a data
 * buffer past end (per machine: made at boot) */
static inline size_t shinfo_space(const struct km_machine *m)
{
	return m->skb->shinfo_space;
}

static inline void note(const struct km_skb *skb)
{
	skb->m->skb->hint = skb;
}

/* The public boundary: a NULL skb never crashes the host. There is no
 * machine to report on: km_set_error() says which call it was. */
static bool no_skb(const struct km_skb *skb, const char *what)
{
	if (skb)
		return false;
	km_set_error("%s: NULL skb", what);
	return true;
}

/* ---- reports ---------------------------------------------------------------- */

static void state(const struct km_skb *skb, char *buf, size_t n)
{
	g_snprintf(buf, n, "len:%u head:%p data:+%td tail:+%td end:+%td users:%d "
		   "cloned:%u nohdr:%u hdr_len:%u dataref:%#x",
		   skb->len, (void *)skb->head, skb->data - skb->head, skb->tail - skb->head,
		   skb->end - skb->head, skb->users, skb->cloned, skb->nohdr, skb->hdr_len,
		   (unsigned int)skb->shinfo->dataref);
}

/* A report about @skb: "<message>: <state>". The message and the state are
 * formatted only when the report is logged (km_report_formats()); past the
 * log's capacity, or with km_reports_set_log_max(m, 0), a report costs a
 * counter increment. */
static void __attribute__((format(printf, 4, 5)))
skb_report(const struct km_skb *skb, enum km_report_kind kind, enum km_report_code code,
	   const char *fmt, ...)
{
	struct km_machine *m = skb->m;
	char msg[128], st[160];
	va_list ap;

	if (!km_report_formats(m)) {	/* counted only: no call, no format */
		km_report_tally(m, code);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	state(skb, st, sizeof(st));
	km_report(m, kind, code, "%s: %s", msg, st);
}

/* ---- structs and buffers ------------------------------------------------ */

/* @q's ring, full, doubled: the slots from @head to the end move to the
 * end of the new ones, so the records stay in order from @head */
static void __attribute__((noinline)) quarantine_grow(struct quarantine *q)
{
	guint old = q->ring->len, len = old ? 2 * old : 2 * KM_SKB_QUARANTINE;

	g_ptr_array_set_size(q->ring, len);
	q->slot = q->ring->pdata;
	q->mask = len - 1;
	if (old) {
		memmove(&q->slot[q->head + len - old], &q->slot[q->head],
			(old - q->head) * sizeof(void *));
		q->head += len - old;
	}
}

/* a freed record into the quarantine @q, the newest */
static inline void quarantine_add(struct quarantine *q, void *p)
{
	if (q->n == q->ring->len)
		quarantine_grow(q);
	q->slot[(q->head + q->n++) & q->mask] = p;
}

/* a new host struct of @size bytes, in @all (every struct made, for
 * teardown) */
static void * __attribute__((noinline)) cache_new(GPtrArray *all, size_t size)
{
	void *p = g_malloc0(size);

	g_ptr_array_add(all, p);
	return p;
}

/* A cached host struct of @size bytes: the oldest freed one once more
 * than KM_SKB_QUARANTINE wait in @q (frees go to the end), else a new one */
static inline void *cache_get(struct quarantine *q, GPtrArray *all, size_t size)
{
	void *p;

	if (q->n <= KM_SKB_QUARANTINE)
		return cache_new(all, size);
	p = q->slot[q->head];
	q->head = (q->head + 1) & q->mask;
	q->n--;
	/* the quarantine hands structs out in the order they were freed, long
	 * after: fetch the next one's lines now, while this one is used */
	__builtin_prefetch(q->slot[q->head], 1);
	__builtin_prefetch((char *)q->slot[q->head] + 64, 1);
	return p;
}

static inline struct km_skb *skb_struct_new(struct km_machine *m)
{
	struct skb_priv *p = cache_get(&m->skb->free, m->skb->all, sizeof(*p));

	p->magic = SKB_LIVE;
	m->skb->nlive++;
	return &p->skb;
}

static void skb_struct_free(struct km_skb *skb)
{
	struct km_machine *m = skb->m;
	struct skb_priv *p = skb_priv(skb);

	if (m->skb->hint == skb)
		m->skb->hint = NULL;
	p->magic = SKB_FREE;
	m->skb->nlive--;
	quarantine_add(&m->skb->free, p);
	KM_EV_INC(m, skb_frees);
}

/* A data buffer: a kmalloc object of @bytes, its record and an empty
 * list of skbs. NULL when the kmalloc fails (km_last_error()). */
/* core/slab.c (declared in uaccess/variant.h for its ports): kmalloc of
 * @size host bytes counted as @arm_size on the target */
void *km_kmalloc_arm(struct km_task *t, size_t size, size_t arm_size, km_gfp_t flags);

/* @arm_bytes: the object's size on the target where the host's is larger
 * (0: the same): the rx URB's read guard (km_skb_alloc_rx_urb()) */
static inline struct buf_priv *buf_alloc_arm(struct km_task *t, uint64_t bytes, size_t arm_bytes,
					     km_gfp_t gfp)
{
	struct km_machine *m = t->m;
	unsigned char *obj = NULL;
	struct buf_priv *b;
	size_t z;

	if (bytes <= SIZE_MAX / 2)	/* km_kmalloc() refuses past KMALLOC_MAX_SIZE */
		obj = km_kmalloc_arm(t, (size_t)bytes, arm_bytes ? arm_bytes : (size_t)bytes,
				     gfp & ~KM_GFP_ZERO);
	if (!obj) {
		km_set_error("alloc_skb: kmalloc of %" PRIu64 " bytes failed", bytes);
		return NULL;
	}
	b = cache_get(&m->skb->buf_free, m->skb->buf_all, sizeof(*b));
	b->magic = SKB_LIVE;
	b->sh = (struct km_skb_shared_info){ .dataref = 1 };
	b->obj = obj;
	b->ksize = km_ksize_obj(obj);
	b->frag = NULL;
	/* the shared-info area: zeroed, so reads past end are deterministic
	 * (the whole object when it is smaller: a pskb_expand_head() that
	 * will refuse it) */
	z = MIN(b->ksize, shinfo_space(m));
	/* a memset() call of a variable length: GCC makes a constant 192
	 * bytes `rep stosq`, whose start-up costs more host time per packet
	 * than the call on x86-64, though it is fewer instructions */
	memset(obj + b->ksize - z, 0, z);
	m->skb->buf_nlive++;
	return b;
}

static inline struct buf_priv *buf_alloc(struct km_task *t, uint64_t bytes, km_gfp_t gfp)
{
	return buf_alloc_arm(t, bytes, 0, gfp);
}

/* A data buffer of __alloc_skb() (v3.5): kmalloc(SKB_DATA_ALIGN(size) +
 * SKB_DATA_ALIGN(shinfo)), usable up to ksize - SKB_DATA_ALIGN(shinfo). */
static struct buf_priv *buf_new(struct km_task *t, uint64_t size, km_gfp_t gfp)
{
	struct km_machine *m = t->m;

	/* checked before SKB_DATA_ALIGN can wrap: no kmalloc gives that much */
	if (size + m->cfg.l1_cache_bytes + shinfo_space(m) > SIZE_MAX / 2) {
		km_set_error("alloc_skb: kmalloc of %" PRIu64 " bytes failed", size);
		return NULL;
	}
	return buf_alloc(t, data_align(m, (size_t)size) + shinfo_space(m), gfp);
}

/*
 * netdev_alloc_frag(@fragsz) (net/core/skbuff.c, v3.5): the CPU's cache
 * carves its page front to back, a reference per fragment; a fragment that
 * does not fit drops the cache's reference and takes a new page
 * (`if (nc->offset + fragsz > PAGE_SIZE) { put_page(nc->page); goto
 * refill; }`, alloc_page(GFP_ATOMIC | __GFP_COLD)). Return: the page, or
 * NULL when none can be had.
 */
static struct km_page *netdev_alloc_frag(struct km_machine *m, unsigned int fragsz)
{
	struct km_skb_state *s = m->skb;

	if (s->frag_page && s->frag_offset + fragsz > m->page_size) {
		km_put_page(m, s->frag_page);
		s->frag_page = NULL;
	}
	if (!s->frag_page) {
		s->frag_page = km_alloc_page(m, KM_GFP_ATOMIC);
		s->frag_offset = 0;
		if (!s->frag_page)
			return NULL;
	}
	s->frag_offset += fragsz;
	km_get_page(m, s->frag_page);
	return s->frag_page;
}

/* A data buffer of build_skb(netdev_alloc_frag(@fragsz), @fragsz): the
 * fragment's events, @host bytes of host memory (>= @fragsz: a read guard
 * behind it). NULL when no page can be had. */
static struct buf_priv *buf_frag(struct km_task *t, unsigned int fragsz, size_t host)
{
	struct km_machine *m = t->m;
	struct km_page *pg = netdev_alloc_frag(m, fragsz);
	unsigned char *obj;
	struct buf_priv *b;

	if (!pg) {
		km_set_error("netdev_alloc_frag: no page");
		return NULL;
	}
	obj = km_kmalloc_host(m, host);
	if (!obj) {
		km_put_page(m, pg);
		km_set_error("netdev_alloc_frag: no host memory for %zu bytes", host);
		return NULL;
	}
	b = cache_get(&m->skb->buf_free, m->skb->buf_all, sizeof(*b));
	b->magic = SKB_LIVE;
	b->sh = (struct km_skb_shared_info){ .dataref = 1 };
	b->obj = obj;
	b->ksize = fragsz;	/* build_skb(): end from frag_size */
	b->frag = pg;
	memset(obj + fragsz - shinfo_space(m), 0, shinfo_space(m));
	m->skb->buf_nlive++;
	return b;
}

/* __netdev_alloc_skb()'s choice (v3.5): a page fragment when `fragsz <=
 * PAGE_SIZE && !(gfp_mask & __GFP_WAIT)`, fragsz = SKB_DATA_ALIGN(@len)
 * + SKB_DATA_ALIGN(sizeof(struct skb_shared_info)), @len with its
 * NET_SKB_PAD */
static inline bool netdev_frag_fits(const struct km_machine *m, uint64_t len, km_gfp_t gfp,
				    unsigned int *fragsz)
{
	uint64_t f = (uint64_t)data_align(m, (size_t)MIN(len, (uint64_t)UINT_MAX)) +
		     shinfo_space(m);

	*fragsz = (unsigned int)MIN(f, (uint64_t)UINT_MAX);
	return f <= m->page_size && !(gfp & KM_GFP_DIRECT_RECLAIM);
}

static inline void buf_free(struct km_machine *m, struct buf_priv *b)
{
	km_kfree_obj(m, b->obj);
	/* skb_free_head() of a fragment: put_page(virt_to_head_page(head)) */
	if (b->frag)
		km_put_page(m, b->frag);
	b->obj = NULL;
	b->magic = SKB_FREE;
	m->skb->buf_nlive--;
	quarantine_add(&m->skb->buf_free, b);
}

static inline unsigned char *buf_end(const struct km_machine *m, const struct buf_priv *b)
{
	return b->obj + b->ksize - shinfo_space(m);
}

static inline struct km_skb *skb_on(struct km_machine *m, struct buf_priv *b);

struct km_skb *km_alloc_skb(struct km_task *t, unsigned int size, km_gfp_t gfp)
{
	struct km_machine *m;
	struct buf_priv *b;

	if (!t) {
		km_set_error("alloc_skb: no task");
		return NULL;
	}
	m = t->m;
	b = buf_new(t, size, gfp);
	if (!b)
		return NULL;
	return skb_on(m, b);
}

/* the sk_buff of a new data buffer @b */
static inline struct km_skb *skb_on(struct km_machine *m, struct buf_priv *b)
{
	struct km_skb *skb;

	static const struct km_skb zero;

	skb = skb_struct_new(m);
	/* a copy of a zeroed struct, not a memset(): GCC makes a memset() of
	 * the struct a `rep stosq`, slow to start for its 96 bytes */
	*skb = zero;
	skb->m = m;
	skb->users = 1;
	skb->head = skb->data = skb->tail = b->obj;
	skb->end = buf_end(m, b);
	skb->shinfo = &b->sh;
	KM_EV_INC(m, skb_allocs);
	return skb;
}

struct km_skb *km_build_skb(struct km_task *t, unsigned int size, km_gfp_t gfp)
{
	struct km_skb *skb = km_alloc_skb(t, size, gfp);

	if (skb)
		skb->end = skb->head + size;	/* build_skb(): from frag_size */
	return skb;
}

struct km_skb *km_netdev_alloc_skb(struct km_task *t, const struct km_net_device *dev,
				   unsigned int len, km_gfp_t gfp)
{
	struct km_skb *skb;
	unsigned int pad, fragsz;

	(void)dev;
	if (!t) {
		km_set_error("netdev_alloc_skb: no task");
		return NULL;
	}
	pad = km_skb_net_pad(t->m);
	if (len > UINT_MAX - pad) {
		km_set_error("netdev_alloc_skb: %u bytes", len);
		return NULL;
	}
	if (netdev_frag_fits(t->m, (uint64_t)len + pad, gfp, &fragsz)) {
		struct buf_priv *b = buf_frag(t, fragsz, fragsz);

		skb = b ? skb_on(t->m, b) : NULL;
	} else {
		skb = km_alloc_skb(t, len + pad, gfp);
	}
	if (skb)
		skb->data = skb->tail = skb->head + pad;	/* skb_reserve(NET_SKB_PAD) */
	return skb;
}

struct km_skb *km_skb_alloc_rx_urb(struct km_task *t, unsigned int size, unsigned int guard,
				   bool frag)
{
	unsigned int pad = km_skb_net_pad(t->m) + KM_NET_IP_ALIGN, fragsz;
	struct km_skb *skb;

	struct buf_priv *b;

	if (size > UINT_MAX / 2 - pad - guard)
		return NULL;
	if (frag && netdev_frag_fits(t->m, (uint64_t)pad + size, KM_GFP_ATOMIC, &fragsz))
		/* the fragment's events; its host bytes with the guard */
		b = buf_frag(t, fragsz, (size_t)fragsz + guard);
	else
		/* the events of the kernel's object, kmalloc'ed with the guard */
		b = buf_alloc_arm(t, data_align(t->m, pad + size + guard) + shinfo_space(t->m),
				  data_align(t->m, pad + size) + shinfo_space(t->m), KM_GFP_ATOMIC);
	skb = b ? skb_on(t->m, b) : NULL;
	if (skb) {
		/* build_skb() of the fragment: end at SKB_DATA_ALIGN(length +
		 * NET_SKB_PAD); then the two skb_reserve()s */
		skb->end = skb->head + data_align(t->m, pad + size);
		skb->data = skb->tail = skb->head + pad;
	}
	return skb;
}

/* skb_release_data() (net/core/skbuff.c, v3.5): @skb gives up its data
 * reference (its struct is going, or it takes a new head) */
static inline void release_data(struct km_skb *skb)
{
	struct km_machine *m = skb->m;
	struct buf_priv *b = buf_priv(skb);
	int sub = skb->nohdr ? (1 << KM_SKB_DATAREF_SHIFT) + 1 : 1;

	if (b->magic != SKB_LIVE || (b->sh.dataref & KM_SKB_DATAREF_MASK) == 0) {
		km_report(m, KM_BUG, KM_R_SKB_REFCOUNT,
			  "skb_release_data: data buffer with no reference (dataref %#x)",
			  (unsigned int)b->sh.dataref);
		return;
	}
	if (!skb->cloned || !(b->sh.dataref -= sub))
		buf_free(m, b);
}

bool km_skb_held(const struct km_skb *skb)
{
	return skb && skb_priv(skb)->magic == SKB_LIVE && skb->users > 0 &&
	       buf_priv(skb)->magic == SKB_LIVE;
}

static bool skb_alive(const struct km_skb *skb, const char *what)
{
	if (skb_priv(skb)->magic == SKB_LIVE)
		return true;
	km_report(skb->m, KM_BUG, KM_R_SKB_REFCOUNT, "%s of an skb that is not alive "
		  "(double free?)", what);
	return false;
}

/* Is @t a task of @skb's machine? A task of another machine would allocate
 * from its own slabs and attach the buffer to @skb (a foreign kfree later):
 * a KM_R_UNEXPECTED BUG on the skb's machine, and nothing is done. */
static bool task_of(struct km_task *t, const struct km_skb *skb, const char *what)
{
	if (!t) {
		km_set_error("%s: no task", what);
		return false;
	}
	if (t->m == skb->m)
		return true;
	km_report(skb->m, KM_BUG, KM_R_UNEXPECTED, "%s: the task belongs to another machine "
		  "than the skb", what);
	km_set_error("%s: task and skb of different machines", what);
	return false;
}

/* The skb's invariants where the model trusts len (a linear skb: head <=
 * data <= tail <= end, tail == data + len): a KM_R_SKB_INVALID BUG
 * otherwise. skb_set_tail_pointer() may leave tail and len apart on the
 * way (as asix_tx_fixup() does between its memmove and its push); code
 * that then copies len bytes would read or write past the buffer. */
static bool __attribute__((noinline)) skb_insane(const struct km_skb *skb, const char *what)
{
	uintptr_t d = (uintptr_t)skb->data, t = (uintptr_t)skb->tail, e = (uintptr_t)skb->end;

	skb_report(skb, KM_BUG, KM_R_SKB_INVALID, "%s: len %u does not match the buffer "
		   "(tail - data %td, end - data %td)", what, skb->len,
		   (ptrdiff_t)(t - d), (ptrdiff_t)(e - d));
	km_set_error("%s: invalid skb (len past the buffer or tail != data + len)", what);
	return false;
}

static inline bool skb_sane(const struct km_skb *skb, const char *what)
{
	uintptr_t h = (uintptr_t)skb->head, d = (uintptr_t)skb->data;
	uintptr_t t = (uintptr_t)skb->tail, e = (uintptr_t)skb->end;

	if (h <= d && d <= t && t <= e && t - d == skb->len && !skb->data_len)
		return true;
	return skb_insane(skb, what);
}

static void free_skb(struct km_skb *skb, const char *what)
{
	if (!skb || !skb_alive(skb, what))
		return;
	if (skb->users <= 0) {
		km_report(skb->m, KM_BUG, KM_R_SKB_REFCOUNT, "%s: users %d", what, skb->users);
		return;
	}
	if (skb->users != 1 && --skb->users)
		return;
	skb->users = 0;
	release_data(skb);
	skb_struct_free(skb);
}

void km_kfree_skb(struct km_skb *skb)
{
	free_skb(skb, "kfree_skb");
}

void km_consume_skb(struct km_skb *skb)
{
	free_skb(skb, "consume_skb");
}

void km_dev_kfree_skb_any(struct km_skb *skb)
{
	free_skb(skb, "dev_kfree_skb_any");
}

struct km_skb *km_skb_get(struct km_skb *skb)
{
	if (no_skb(skb, "skb_get") || !skb_alive(skb, "skb_get"))
		return NULL;
	skb->users++;
	return skb;
}

/* ---- pointer arithmetic ------------------------------------------------- */

/* The checker's rule for skb_push/put/pull/trim: an skb with users > 1 is
 * seen by its other holders, who did not ask for the change. The change
 * is made (the kernel does not check). */
static inline void shared_change(struct km_skb *skb, const char *what)
{
	if (skb->users > 1 && !skb->m->skb->nocheck)
		skb_report(skb, KM_BUG, KM_R_SKB_CHANGE_SHARED, "%s on a shared skb (users %d)",
			   what, skb->users);
}

unsigned int km_skb_headroom(const struct km_skb *skb)
{
	if (no_skb(skb, "skb_headroom"))
		return 0;
	note(skb);
	return (unsigned int)(skb->data - skb->head);
}

int km_skb_tailroom(const struct km_skb *skb)
{
	if (no_skb(skb, "skb_tailroom"))
		return 0;
	note(skb);
	return skb->data_len ? 0 : (int)(skb->end - skb->tail);
}

unsigned char *km_skb_tail_pointer(const struct km_skb *skb)
{
	if (no_skb(skb, "skb_tail_pointer"))
		return NULL;
	note(skb);
	return skb->tail;
}

void km_skb_set_tail_pointer(struct km_skb *skb, int offset)
{
	if (no_skb(skb, "skb_set_tail_pointer"))
		return;
	note(skb);
	/* include/linux/skbuff.h (v3.5, !NET_SKBUFF_DATA_USES_OFFSET):
	 * skb->tail = skb->data + offset, no check: a tail outside the buffer
	 * is caught where it is used (skb_put()'s tail > end, the invariant
	 * checks of the copies). Computed as an integer, not as pointer
	 * arithmetic past the object. */
	skb->tail = (unsigned char *)((uintptr_t)skb->data + (uintptr_t)(intptr_t)offset);
}

/* tail beyond end (a tail skb_set_tail_pointer() put there): no room */
static inline size_t room_after_tail(const struct km_skb *skb)
{
	return skb->tail > skb->end ? 0 : (size_t)(skb->end - skb->tail);
}

void km_skb_reserve(struct km_skb *skb, int len)
{
	if (no_skb(skb, "skb_reserve"))
		return;
	note(skb);
	if ((len < 0 && (size_t)-(ptrdiff_t)len > (size_t)(skb->data - skb->head)) ||
	    (len > 0 && ((size_t)len > room_after_tail(skb) || skb->tail > skb->end))) {
		skb_report(skb, KM_BUG, KM_R_SKB_OVER,
			   "skb_reserve(%d) moves data/tail outside [head, end]", len);
		return;
	}
	skb->data += len;
	skb->tail += len;
}

/* skb_push() of a non-NULL @skb (inline: km_skb_push_copy() too) */
static inline unsigned char *push(struct km_skb *skb, unsigned int len)
{
	note(skb);
	if (len > (size_t)(skb->data - skb->head)) {
		skb_report(skb, KM_BUG, KM_R_SKB_UNDER, "skb_under_panic: put:%u", len);
		return skb->data;
	}
	shared_change(skb, "skb_push");
	skb->data -= len;
	skb->len += len;
	return skb->data;
}

unsigned char *km_skb_push(struct km_skb *skb, unsigned int len)
{
	if (no_skb(skb, "skb_push"))
		return NULL;
	return push(skb, len);
}

unsigned char *km_skb_put(struct km_skb *skb, unsigned int len)
{
	unsigned char *tmp;

	if (no_skb(skb, "skb_put"))
		return NULL;
	tmp = skb->tail;
	note(skb);
	/* v3.5: tail += len, then tail > end panics; a tail already past end
	 * (skb_set_tail_pointer()) too, whatever len. A tail before head the
	 * kernel would move on and write there: the model reports it the same
	 * way rather than hand out a pointer outside the buffer */
	if (skb->tail > skb->end || skb->tail < skb->head || len > room_after_tail(skb)) {
		skb_report(skb, KM_BUG, KM_R_SKB_OVER, "skb_over_panic: put:%u", len);
		return skb->tail > skb->end || skb->tail < skb->head ? skb->end : tmp;
	}
	shared_change(skb, "skb_put");
	skb->tail += len;
	skb->len += len;
	return tmp;
}

unsigned char *km_skb_pull(struct km_skb *skb, unsigned int len)
{
	if (no_skb(skb, "skb_pull"))
		return NULL;
	note(skb);
	if (len > skb->len)
		return NULL;
	shared_change(skb, "skb_pull");
	skb->len -= len;
	return skb->data += len;
}

void km_skb_trim(struct km_skb *skb, unsigned int len)
{
	if (no_skb(skb, "skb_trim"))
		return;
	note(skb);
	if (skb->len > len) {
		shared_change(skb, "skb_trim");
		skb->len = len;
		skb->tail = skb->data + len;
	}
}

/* ---- sharing -------------------------------------------------------------- */

bool km_skb_cloned(const struct km_skb *skb)
{
	if (no_skb(skb, "skb_cloned"))
		return false;
	note(skb);
	return skb->cloned && (skb->shinfo->dataref & KM_SKB_DATAREF_MASK) != 1;
}

bool km_skb_header_cloned(const struct km_skb *skb)
{
	int dataref;

	if (no_skb(skb, "skb_header_cloned"))
		return false;
	note(skb);
	if (!skb->cloned)
		return false;
	dataref = skb->shinfo->dataref;
	dataref = (dataref & KM_SKB_DATAREF_MASK) - (dataref >> KM_SKB_DATAREF_SHIFT);
	return dataref != 1;
}

bool km_skb_shared(const struct km_skb *skb)
{
	if (no_skb(skb, "skb_shared"))
		return false;
	return skb->users != 1;
}

void km_skb_header_release(struct km_skb *skb)
{
	if (no_skb(skb, "skb_header_release"))
		return;
	if (skb->nohdr) {
		skb_report(skb, KM_BUG, KM_R_SKB_HDR_RELEASED, "skb_header_release: BUG_ON(skb->nohdr)");
		return;
	}
	skb->nohdr = 1;
	skb->shinfo->dataref += 1 << KM_SKB_DATAREF_SHIFT;
}

struct km_skb *km_skb_clone(struct km_task *t, struct km_skb *skb, km_gfp_t gfp)
{
	struct km_machine *m;
	struct km_skb *n;

	if (no_skb(skb, "skb_clone"))
		return NULL;
	m = skb->m;
	if (!skb_alive(skb, "skb_clone") || !task_of(t, skb, "skb_clone"))
		return NULL;
	if (gfp & KM_GFP_DIRECT_RECLAIM)
		km_might_sleep(t, "skb_clone(GFP_KERNEL)");
	n = skb_struct_new(m);
	*n = *skb;		/* __skb_clone(): C(...) of every field */
	n->hdr_len = skb->nohdr ? (unsigned short)(skb->data - skb->head) : skb->hdr_len;
	n->cloned = 1;
	n->nohdr = 0;
	n->users = 1;
	skb->shinfo->dataref++;
	skb->cloned = 1;
	KM_EV_INC(m, skb_clones);
	return n;
}

/* the members of __copy_skb_header() (net/core/skbuff.c, v3.6) the model
 * has: protocol, ip_summed and csum (the union with csum_start and
 * csum_offset). csum_start counts from head: a copy with the same headroom
 * keeps it (skb_copy(), __pskb_copy()); skb_copy_expand() moves it */
static void copy_skb_header(struct km_skb *n, const struct km_skb *old)
{
	n->protocol = old->protocol;
	n->ip_summed = old->ip_summed;
	n->csum = old->csum;
}

static void count_copy(struct km_machine *m, size_t bytes)
{
	KM_EV_INC(m, skb_copies);
	KM_EV_TRAFFIC(m, skb_copy_bytes, bytes);
}

struct km_skb *km_skb_copy(struct km_task *t, const struct km_skb *skb, km_gfp_t gfp)
{
	unsigned int headerlen;
	struct km_skb *n;

	if (no_skb(skb, "skb_copy") || !task_of(t, skb, "skb_copy") || !skb_sane(skb, "skb_copy"))
		return NULL;
	headerlen = (unsigned int)(skb->data - skb->head);
	/* v3.5: alloc_skb(skb_end_offset(skb) + skb->data_len): the whole
	 * buffer, so the copy keeps the original's tailroom */
	n = km_alloc_skb(t, (unsigned int)(skb->end - skb->head) + skb->data_len, gfp);
	if (!n)
		return NULL;
	n->data += headerlen;	/* skb_reserve */
	n->tail = n->data + skb->len;	/* skb_put */
	n->len = skb->len;
	memcpy(n->head, skb->head, headerlen + skb->len);	/* skb_copy_bits */
	count_copy(n->m, headerlen + skb->len);
	copy_skb_header(n, skb);
	return n;
}

struct km_skb *km_pskb_copy(struct km_task *t, const struct km_skb *skb, km_gfp_t gfp)
{
	unsigned int headroom;
	struct km_skb *n;

	if (no_skb(skb, "pskb_copy") || !task_of(t, skb, "pskb_copy") || !skb_sane(skb, "pskb_copy"))
		return NULL;
	/* __pskb_copy(skb, skb_headroom(skb), gfp): alloc_skb(headlen +
	 * headroom), skb_reserve(headroom), skb_put(headlen), the linear
	 * data copied (not the headroom) */
	headroom = (unsigned int)(skb->data - skb->head);
	n = km_alloc_skb(t, skb->len + headroom, gfp);
	if (!n)
		return NULL;
	n->data += headroom;
	n->tail = n->data + skb->len;
	n->len = skb->len;
	memcpy(n->data, skb->data, skb->len);
	count_copy(n->m, skb->len);
	copy_skb_header(n, skb);
	return n;
}

struct km_skb *km_skb_copy_expand(struct km_task *t, const struct km_skb *skb,
				  int newheadroom, int newtailroom, km_gfp_t gfp)
{
	struct km_skb *n;
	int oldheadroom;
	int head_copy_len, head_copy_off;
	int64_t size;

	if (no_skb(skb, "skb_copy_expand") || !task_of(t, skb, "skb_copy_expand") ||
	    !skb_sane(skb, "skb_copy_expand"))
		return NULL;
	oldheadroom = (int)(skb->data - skb->head);
	/* a negative newheadroom makes skb_reserve() put data before head:
	 * the kernel builds a corrupt skb (and copies into it) */
	if (newheadroom < 0) {
		skb_report(skb, KM_BUG, KM_R_SKB_UNDER,
			   "skb_copy_expand(%d, %d): data would start before head",
			   newheadroom, newtailroom);
		km_set_error("skb_copy_expand: negative headroom %d", newheadroom);
		return NULL;
	}
	/* alloc_skb(newheadroom + skb->len + newtailroom): an int sum passed
	 * as unsigned int. A negative newtailroom is legal while the buffer
	 * still holds len; a negative sum asks for ~4 GiB and fails, a sum
	 * past UINT_MAX wraps in v3.5 (the copy then overruns the small
	 * buffer): the model sums in 64 bits and refuses both (NULL). */
	size = (int64_t)newheadroom + skb->len + (int64_t)newtailroom;
	if (size < 0 || size > UINT_MAX) {
		km_set_error("skb_copy_expand: %d + %u + %d bytes is more than kmalloc can give",
			     newheadroom, skb->len, newtailroom);
		return NULL;
	}
	n = km_alloc_skb(t, (unsigned int)size, gfp);
	if (!n)
		return NULL;
	n->data += newheadroom;		/* skb_reserve(n, newheadroom) */
	/* skb_put(n, skb->len): tail (= data + len) past end panics, also
	 * when the reserve alone put data past end (a negative newtailroom:
	 * found by fuzzing; the size_t difference wrapped to a huge room) */
	if (n->data > n->end || skb->len > (size_t)(n->end - n->data)) {
		skb_report(n, KM_BUG, KM_R_SKB_OVER, "skb_copy_expand(%d, %d): skb_over_panic: "
			   "put:%u", newheadroom, newtailroom, skb->len);
		km_kfree_skb(n);
		return NULL;
	}
	n->tail = n->data + skb->len;
	n->len = skb->len;

	head_copy_len = oldheadroom;
	head_copy_off = 0;
	if (newheadroom <= head_copy_len)
		head_copy_len = newheadroom;
	else
		head_copy_off = newheadroom - head_copy_len;

	/* skb_copy_bits(skb, -head_copy_len, n->head + head_copy_off,
	 *		 skb->len + head_copy_len) */
	memcpy(n->head + head_copy_off, skb->data - head_copy_len,
	       skb->len + (unsigned int)head_copy_len);
	count_copy(n->m, skb->len + (unsigned int)head_copy_len);
	copy_skb_header(n, skb);
	if (n->ip_summed == KM_CHECKSUM_PARTIAL)
		n->csum_start += newheadroom - oldheadroom;	/* v3.6 */
	return n;
}

unsigned int km_skb_smp_cache_bytes(const struct km_machine *m)
{
	if (!m) {
		km_set_error("skb_smp_cache_bytes: NULL machine");
		return 64;	/* the default machine's */
	}
	return m->cfg.l1_cache_bytes;
}

unsigned int km_skb_net_pad(const struct km_machine *m)
{
	if (!m) {
		km_set_error("skb_net_pad: NULL machine");
		return 32;	/* NET_SKB_PAD's floor */
	}
	return MAX(32u, m->cfg.l1_cache_bytes);
}

/*
 * pskb_expand_head() of v3.5 (net/core/skbuff.c): always a new kmalloc
 * object. The in-place path of v3.4 and earlier (memmove within the old
 * object when the skb held the last data reference and ksize(head) had
 * room) left net-next before v3.5 with Alexander Duyck's pskb_expand_head()
 * series (skb_end_offset() came with it): the pre-image of Mel Gorman's
 * "netvm: Allow skb allocation to use PFMEMALLOC reserves" (linux-mm, 20
 * June 2012, during v3.5-rc) goes from SKB_DATA_ALIGN(size) straight to
 * kmalloc(). No switch keeps the v3.4 path: the model's sk_buff is v3.5
 * throughout, and no modelled driver or scenario runs on v3.4.
 * The kernel's arithmetic, in its order: size = nhead + skb_end_offset() +
 * ntail as an int (a negative ntail is legal), SKB_DATA_ALIGN() of it,
 * kmalloc(size + SKB_DATA_ALIGN(sizeof(struct skb_shared_info))) (a
 * negative sum is a ~4 GiB size_t on 32-bit ARM: the kmalloc fails), the
 * new size SKB_WITH_OVERHEAD(ksize(data)), then memcpy(data + nhead, head,
 * tail - head) and the shared info. Only where that copy would run past
 * the new size (into the shared info it then writes, or past the object)
 * does the model refuse (a KM_R_SKB_OVER BUG, the new object freed).
 */
int km_pskb_expand_head(struct km_task *t, struct km_skb *skb, int nhead, int ntail,
			km_gfp_t gfp)
{
	struct km_machine *m;
	struct buf_priv *b, *nb;
	int64_t size, alloc;
	size_t used, a;
	ptrdiff_t off;

	if (no_skb(skb, "pskb_expand_head"))
		return -EINVAL;
	if (!task_of(t, skb, "pskb_expand_head"))
		return -EINVAL;
	m = skb->m;
	b = buf_priv(skb);
	if (nhead < 0) {
		skb_report(skb, KM_BUG, KM_R_SKB_UNDER, "pskb_expand_head: BUG_ON(nhead %d < 0)",
			   nhead);
		return km_err(-EINVAL, "pskb_expand_head: negative nhead %d", nhead);
	}
	if (skb->users != 1) {
		skb_report(skb, KM_BUG, KM_R_SKB_EXPAND_SHARED,
			   "pskb_expand_head: BUG() on a shared skb");
		return km_err(-EINVAL, "pskb_expand_head: skb is shared");
	}
	if (!skb_sane(skb, "pskb_expand_head"))
		return -EINVAL;
	used = (size_t)(skb->tail - skb->head);
	a = m->cfg.l1_cache_bytes;
	/* in 64 bits: the kernel's int sum would wrap for sizes no kmalloc
	 * can give anyway (then km_kmalloc() refuses, as kmalloc_large) */
	size = (int64_t)nhead + (int64_t)(skb->end - skb->head) + (int64_t)ntail;
	size = (size + (int64_t)a - 1) & ~(int64_t)(a - 1);	/* SKB_DATA_ALIGN */
	alloc = size + (int64_t)shinfo_space(m);
	if (alloc == 0) {	/* kmalloc(0): ZERO_SIZE_PTR, the copy would fault */
		skb_report(skb, KM_BUG, KM_R_SKB_OVER, "pskb_expand_head(%d, %d): kmalloc(0) "
			   "for %zu bytes of head..tail", nhead, ntail, (size_t)nhead + used);
		return km_err(-EINVAL, "pskb_expand_head: ntail %d leaves no buffer", ntail);
	}
	/* a negative sum: size_t on 32-bit ARM wraps to ~4 GiB */
	nb = buf_alloc(t, alloc > 0 ? (uint64_t)alloc : (uint64_t)(uint32_t)alloc, gfp);
	if (!nb)
		return km_err(-ENOMEM, "pskb_expand_head: kmalloc failed");
	size = (int64_t)nb->ksize - (int64_t)shinfo_space(m);	/* SKB_WITH_OVERHEAD */
	if ((int64_t)nhead + (int64_t)used > size) {
		skb_report(skb, KM_BUG, KM_R_SKB_OVER, "pskb_expand_head(%d, %d): the copy of "
			   "%zu bytes at +%d runs past the new buffer's %" PRId64, nhead, ntail,
			   used, nhead, size);
		buf_free(m, nb);
		return km_err(-EINVAL, "pskb_expand_head: ntail %d too small", ntail);
	}
	memcpy(nb->obj + nhead, skb->head, used);
	count_copy(m, used);
	nb->sh = b->sh;		/* memcpy of the shared info (dataref set below) */
	/* "if shinfo is shared we must drop the old head gracefully" */
	if (skb->cloned && (b->sh.dataref & KM_SKB_DATAREF_MASK) != 1) {
		release_data(skb);	/* skb_cloned(): skb_release_data() */
	} else {
		buf_free(m, b);		/* skb_free_head() */
	}
	off = (nb->obj + nhead) - skb->head;
	skb->head = nb->obj;
	skb->data += off;
	skb->end = skb->head + (size_t)size;
	skb->tail += off;
	/* "Only adjust this if it actually is csum_start rather than csum" */
	if (skb->ip_summed == KM_CHECKSUM_PARTIAL)
		skb->csum_start += nhead;
	skb->shinfo = &nb->sh;
	skb->cloned = 0;
	skb->hdr_len = 0;
	skb->nohdr = 0;
	skb->shinfo->dataref = 1;
	return 0;
}

int km_skb_cow_head(struct km_task *t, struct km_skb *skb, unsigned int headroom)
{
	unsigned int delta = 0, pad;
	uint64_t nhead;

	if (no_skb(skb, "skb_cow_head") || !task_of(t, skb, "skb_cow_head"))
		return -EINVAL;
	pad = km_skb_net_pad(skb->m);
	if (headroom > km_skb_headroom(skb))
		delta = headroom - km_skb_headroom(skb);
	if (!delta && !km_skb_header_cloned(skb))
		return 0;
	/* ALIGN(delta, NET_SKB_PAD) in 64 bits: the kernel's unsigned int ALIGN
	 * wraps to 0 for a delta near UINT_MAX and returns 0 with the headroom
	 * unchanged; no kmalloc can give more than INT_MAX bytes anyway */
	nhead = ((uint64_t)delta + pad - 1) & ~(uint64_t)(pad - 1);
	if (nhead > INT_MAX)
		return km_err(-ENOMEM, "skb_cow_head(%u): %" PRIu64 " more bytes of headroom "
			      "is more than kmalloc can give", headroom, nhead);
	return km_pskb_expand_head(t, skb, (int)nhead, 0, KM_GFP_ATOMIC);
}

/* ---- writes and the sharing checker ------------------------------------- */

/* May a write of @n bytes at @to touch host memory? Only inside the kmalloc
 * object (the shared-info area past end included, as in the kernel). */
static bool inside_object(const struct km_skb *skb, const void *to, size_t n)
{
	const struct buf_priv *b = buf_priv(skb);
	const unsigned char *p = to;

	return p >= b->obj && p <= b->obj + b->ksize && n <= (size_t)(b->obj + b->ksize - p);
}

/* The checker's rules for a write of @n bytes at @dst into @skb's buffer,
 * reporting nothing (check_write_slow() reports; a harness's watch asks
 * them before the driver runs). @known: the writer is @skb (an accessor
 * named it); otherwise the write came through the compatibility layer's
 * memcpy into a buffer several skbs may share, and no skb's header right
 * applies. Return: the code of the rule the write breaks (*@why says how),
 * or KM_R_NONE when it is allowed. */
static enum km_report_code write_rule(const struct km_skb *skb, const void *dst, size_t n,
				      bool known, const char **why)
{
	const unsigned char *p = dst;
	uintptr_t a = (uintptr_t)dst, h = (uintptr_t)skb->head, e = (uintptr_t)skb->end;
	int dref = skb->shinfo->dataref;

	if (!n)			/* no byte written */
		return KM_R_NONE;
	if (a < h || a > e || n > e - a) {
		*why = "outside [head, end]";
		return KM_R_SKB_WRITE_OUTSIDE;
	}
	if (skb->users > 1) {
		*why = "into a shared skb (users > 1)";
		return KM_R_SKB_WRITE_SHARED;
	}
	if (!skb->cloned || (dref & KM_SKB_DATAREF_MASK) == 1)
		return KM_R_NONE;
	if (!known)
		*why = "into a cloned buffer, by code that names no skb";
	else if (skb->nohdr)
		*why = "by the payload-only (nohdr) owner of a cloned buffer";
	else if ((dref & KM_SKB_DATAREF_MASK) - (dref >> KM_SKB_DATAREF_SHIFT) != 1)
		*why = "into a header-cloned buffer";
	else if (n > (size_t)(skb->head + skb->hdr_len - p) || p > skb->head + skb->hdr_len)
		*why = "past the writable header (hdr_len) of a cloned buffer";
	else
		return KM_R_NONE;
	return KM_R_SKB_WRITE_CLONED;
}

static void watch_cover(struct km_skb_watch *w, const void *dst, size_t n);

/* The slow path of check_write(): the rules of write_rule(), reporting what
 * they forbid (and telling a harness's watch which bytes that report
 * covers). Return: whether the write is allowed. */
static bool __attribute__((noinline)) check_write_slow(struct km_skb *skb, const void *dst,
							size_t n, bool known)
{
	uintptr_t a = (uintptr_t)dst, h = (uintptr_t)skb->head;
	const char *why = NULL;
	enum km_report_code code = write_rule(skb, dst, n, known, &why);

	if (code == KM_R_NONE)
		return true;
	/* off, the checker still reports a write it keeps from leaving the
	 * kmalloc object: host memory, not a sharing rule */
	if (!skb->m->skb->nocheck) {
		skb_report(skb, KM_BUG, code, "write of %zu bytes at head%+" PRIdPTR " %s", n,
			   (intptr_t)(a - h), why);
		if (skb->m->skb->watch)
			watch_cover(skb->m->skb->watch, dst, n);
	} else if (code == KM_R_SKB_WRITE_OUTSIDE && !inside_object(skb, dst, n)) {
		skb_report(skb, KM_BUG, code, "write of %zu bytes at head%+" PRIdPTR " leaves "
			   "the kmalloc object: not done", n, (intptr_t)(a - h));
	}
	return false;
}

/* the common cases inline: a private skb's own buffer, inside [head, end];
 * a clone (not header-cloned, its header not released) writing inside its
 * writable header [head, head + hdr_len), as a TCP clone pushes its
 * headers (the rules of check_write_slow(), which reports) */
static inline bool check_write(struct km_skb *skb, const void *dst, size_t n, bool known)
{
	uintptr_t a = (uintptr_t)dst, h = (uintptr_t)skb->head, e = (uintptr_t)skb->end;
	uintptr_t w;	/* the end of a clone's writable header */
	int dref;

	if (__builtin_expect(a >= h && a <= e && n <= e - a && skb->users == 1, 1)) {
		if (!skb->cloned)
			return true;
		w = h + skb->hdr_len;	/* [h, w) lies in [h, e] when w <= e */
		if (known && !skb->nohdr && a <= w && n <= w - a && w <= e) {
			dref = skb->shinfo->dataref;
			if ((dref & KM_SKB_DATAREF_MASK) - (dref >> KM_SKB_DATAREF_SHIFT) == 1)
				return true;
		}
	}
	return check_write_slow(skb, dst, n, known);
}

bool km_skb_check_write(struct km_skb *skb, const void *dst, size_t n)
{
	if (no_skb(skb, "skb_check_write"))
		return false;
	return check_write(skb, dst, n, true);
}

/* ---- the watch for plain stores (skb_internal.h) ---------------------------- */

/* a checker report during a watch: bytes [dst, dst + n) are reported, the
 * watch must not report them again */
static void watch_cover(struct km_skb_watch *w, const void *dst, size_t n)
{
	uintptr_t lo = MAX((uintptr_t)dst, (uintptr_t)w->lo);
	uintptr_t hi = MIN((uintptr_t)dst + n, (uintptr_t)w->hi);

	if (lo >= hi)		/* not watched bytes (another buffer's) */
		return;
	if (w->ncovered == KM_SKB_WATCH_RANGES) {	/* full: grow the last */
		w->covered[w->ncovered - 1].lo = MIN(w->covered[w->ncovered - 1].lo, lo);
		w->covered[w->ncovered - 1].hi = MAX(w->covered[w->ncovered - 1].hi, hi);
		return;
	}
	w->covered[w->ncovered].lo = lo;
	w->covered[w->ncovered++].hi = hi;
}

/* ~ of @n bytes at @p, 8 at a time (a byte loop cost the watch most of
 * its time in iperf's tcp+tap row) */
static void complement(unsigned char *p, size_t n)
{
	size_t i = 0;
	uint64_t x;

	for (; i + 8 <= n; i += 8) {
		memcpy(&x, p + i, 8);
		x = ~x;
		memcpy(p + i, &x, 8);
	}
	for (; i < n; i++)
		p[i] = (unsigned char)~p[i];
}

struct km_skb_watch *km_skb_watch_new(void)
{
	return g_try_new0(struct km_skb_watch, 1);
}

void km_skb_watch_free(struct km_skb_watch *w)
{
	if (!w)
		return;
	if (w->m)	/* still running: the machine forgets it */
		w->m->skb->watch = NULL;
	g_free(w->snap);
	g_free(w);
}

bool km_skb_watch_begin(struct km_skb_watch *w, struct km_skb *skb)
{
	struct km_machine *m;
	unsigned char *h, *lo;
	size_t size;
	const char *why = NULL;

	if (!w || !skb || skb->m->skb->watch == w)	/* @w already running: it stays */
		return false;
	m = skb->m;
	h = lo = skb->head;
	size = (size_t)(skb->end - h);
	w->m = NULL;
	/* a private skb may write it all: the common case, no rule asked */
	if (__builtin_expect(skb->users == 1 && !skb->cloned, 1) || m->skb->nocheck ||
	    m->skb->watch || skb->end < h)
		return false;
	if (write_rule(skb, h, size, true, &why) == KM_R_NONE)
		return false;	/* a clone whose dataref says it is alone */
	/* a clone's writable header: the bytes from hdr_len on are watched */
	if (skb->hdr_len && skb->hdr_len < size &&
	    write_rule(skb, h, skb->hdr_len, true, &why) == KM_R_NONE)
		lo = h + skb->hdr_len;
	if (write_rule(skb, lo, (size_t)(skb->end - lo), true, &why) == KM_R_NONE)
		return false;
	if (size > w->snap_size) {
		w->snap = g_realloc(w->snap, size);
		w->snap_size = size;
	}
	/* a store of the value a byte already holds changes nothing to
	 * compare: the watched bytes outside the data, whose contents the
	 * kernel leaves undefined, get the complement of theirs, so the same
	 * header stored again (the previous packet's, in a reused buffer) is
	 * seen */
	if (skb->data > lo)
		complement(lo, (size_t)(MIN(skb->data, skb->end) - lo));
	if (skb->end > MAX(lo, skb->tail))
		complement(MAX(lo, skb->tail), (size_t)(skb->end - MAX(lo, skb->tail)));
	memcpy(w->snap, lo, (size_t)(skb->end - lo));
	w->m = m;
	w->buf = buf_priv(skb);
	w->obj = buf_priv(skb)->obj;
	w->head = h;
	w->lo = lo;
	w->hi = skb->end;
	w->why = why;
	w->users = skb->users;
	w->dataref = skb->shinfo->dataref;
	w->hdr_len = skb->hdr_len;
	w->ncovered = 0;
	m->skb->watch = w;
	return true;
}

/* the first index from @i below @n where @a and @b differ, or @n; 8 bytes
 * at a time (a byte loop was 30 % of a quick sweep's profile) */
static size_t first_diff(const unsigned char *a, const unsigned char *b, size_t i, size_t n)
{
	uint64_t x, y;

	for (; i + 8 <= n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			break;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

unsigned int km_skb_watch_end(struct km_skb_watch *w)
{
	const struct buf_priv *b;
	struct km_machine *m;
	size_t n, i = 0, j;
	unsigned int found = 0;

	if (!w || !(m = w->m))
		return 0;
	w->m = NULL;
	m->skb->watch = NULL;
	b = w->buf;
	n = (size_t)(w->hi - w->lo);
	if (b->magic != SKB_LIVE || b->obj != w->obj)	/* freed meanwhile */
		return 0;
	if (!memcmp(w->snap, w->lo, n))
		return 0;
	if (w->ncovered) {
		/* the bytes the checker reported: as they are now */
		for (unsigned int c = 0; c < w->ncovered; c++) {
			size_t off = w->covered[c].lo - (uintptr_t)w->lo;

			memcpy(w->snap + off, w->lo + off, w->covered[c].hi - w->covered[c].lo);
		}
		if (!memcmp(w->snap, w->lo, n))
			return 0;
	}
	while ((i = first_diff(w->snap, w->lo, i, n)) < n) {
		for (j = i + 1; j < n && w->snap[j] != w->lo[j]; j++)
			;
		found++;
		if (!km_report_formats(m))	/* counted only */
			km_report_tally(m, KM_R_SKB_STORE_SHARED);
		else
			km_report(m, KM_BUG, KM_R_SKB_STORE_SHARED, "store of %zu bytes at "
				  "head%+td not through an accessor (a plain C store) %s: the "
				  "skb had users:%d hdr_len:%u dataref:%#x", j - i,
				  w->lo + i - w->head, w->why, w->users, w->hdr_len,
				  (unsigned int)w->dataref);
		i = j;
	}
	return found;
}


/* may the write be done? (the checker reports; only host memory is kept) */
static inline bool may_write(struct km_skb *skb, const void *dst, size_t n)
{
	return check_write(skb, dst, n, true) || inside_object(skb, dst, n);
}

bool km_skb_may_write(struct km_skb *skb, const void *dst, size_t n)
{
	return may_write(skb, dst, n);
}

/* memcpy() of @n bytes, 8 to 32 (the headers the senders push) as two
 * overlapping fixed-size moves: GCC expands a short copy of a size it only
 * bounds into a loop of 8-byte moves, slower than either */
static inline void copy_bytes(unsigned char *to, const unsigned char *from, size_t n)
{
	if (n >= 16 && n <= 32) {
		memcpy(to, from, 16);
		memcpy(to + n - 16, from + n - 16, 16);
	} else if (n >= 8 && n < 16) {
		memcpy(to, from, 8);
		memcpy(to + n - 8, from + n - 8, 8);
	} else {
		memcpy(to, from, n);
	}
}

/* skb_copy_to_linear_data_offset() of a non-NULL @skb (inline:
 * km_skb_push_copy() too) */
static inline void copy_to_linear(struct km_skb *skb, int offset, const void *from,
				  unsigned int len)
{
	ptrdiff_t off;	/* to - head */
	unsigned char *to;

	if (len && !from) {
		km_set_error("skb_copy_to_linear_data_offset: NULL source");
		return;
	}
	off = (skb->data - skb->head) + (ptrdiff_t)offset;
	note(skb);
	if (off < 0 || off > skb->end - skb->head) {	/* never form the pointer */
		(void)check_write(skb, (const void *)((uintptr_t)skb->head + (uintptr_t)off),
				  len, true);
		return;
	}
	to = skb->head + off;
	if (!may_write(skb, to, len))
		return;
	KM_EV_MEMCPY(skb->m, len);
	KM_EV_INC(skb->m, memcpy_calls);
	copy_bytes(to, from, len);
}

void km_skb_copy_to_linear_data_offset(struct km_skb *skb, int offset, const void *from,
				       unsigned int len)
{
	if (no_skb(skb, "skb_copy_to_linear_data_offset"))
		return;
	copy_to_linear(skb, offset, from, len);
}

void km_skb_push_copy(struct km_skb *skb, const void *from, unsigned int len)
{
	if (no_skb(skb, "skb_push"))
		return;
	push(skb, len);
	copy_to_linear(skb, 0, from, len);
}

void km_skb_note(struct km_skb *skb)
{
	if (no_skb(skb, "skb_note"))
		return;
	note(skb);
}

/* The skb to check a compat-layer write at @p by: the noted skb when @p
 * lies in its kmalloc object (*known), else a live skb of the live buffer
 * that holds @p (the writer unknown), else NULL (not an skb buffer). The
 * search past the noted skb walks every buffer record and skb struct made
 * (linear in their number): modelled code that names the skb it writes
 * (every accessor notes it) never pays for it. */
static struct km_skb *writer_of(struct km_machine *m, const void *p, bool *known)
{
	const unsigned char *c = p;
	struct km_skb *skb = (struct km_skb *)m->skb->hint;
	const struct buf_priv *b;

	if (skb) {
		b = buf_priv(skb);
		if (c >= b->obj && c < b->obj + b->ksize) {
			*known = true;
			return skb;
		}
	}
	for (guint i = 0; i < m->skb->buf_all->len; i++) {
		b = g_ptr_array_index(m->skb->buf_all, i);
		if (b->magic != SKB_LIVE || c < b->obj || c >= b->obj + b->ksize)
			continue;
		for (guint j = 0; j < m->skb->all->len; j++) {	/* one that holds it */
			struct skb_priv *p = g_ptr_array_index(m->skb->all, j);

			if (p->magic == SKB_LIVE && p->skb.shinfo == &b->sh) {
				*known = false;
				return &p->skb;
			}
		}
		return NULL;
	}
	return NULL;
}

enum compat_op { OP_MEMCPY, OP_MEMMOVE, OP_MEMSET };

static bool compat_write(void *to, size_t n, enum compat_op op)
{
	struct km_task *t = km_current();
	struct km_skb *skb;
	bool known;

	if (!t)
		return true;
	if (op == OP_MEMMOVE) {
		KM_EV_TRAFFIC(t->m, memmove_bytes, n);
		KM_EV_INC(t->m, memmove_calls);
	} else if (op == OP_MEMSET) {
		KM_EV_TRAFFIC(t->m, clear_bytes, n);	/* as km_kernel_memset() counts */
		KM_EV_INC(t->m, memset_calls);
	} else {
		KM_EV_MEMCPY(t->m, n);
		KM_EV_INC(t->m, memcpy_calls);
	}
	/* with the checker off too: only the sharing rules go unreported, a
	 * write that would leave the kmalloc object is never done */
	skb = writer_of(t->m, to, &known);
	if (!skb || check_write(skb, to, n, known))
		return true;
	return inside_object(skb, to, n);	/* never write outside the object */
}

void *km_skb_compat_memcpy(void *to, const void *from, size_t n)
{
	struct km_task *t = km_current();

	if (t)	/* a receive path's read of its URB (usbnet_rx.c) */
		km_rx_read_check(t->m, from, n);
	if (compat_write(to, n, OP_MEMCPY))
		memcpy(to, from, n);
	return to;
}

void *km_skb_compat_memmove(void *to, const void *from, size_t n)
{
	if (compat_write(to, n, OP_MEMMOVE))
		memmove(to, from, n);
	return to;
}

void *km_skb_compat_memset(void *to, int c, size_t n)
{
	if (compat_write(to, n, OP_MEMSET))
		memset(to, c, n);
	return to;
}

void km_skb_set_checker(struct km_machine *m, bool on)
{
	if (!m) {
		km_set_error("skb_set_checker: NULL machine");
		return;
	}
	m->skb->nocheck = !on;
}

void km_skb_live(const struct km_machine *m, size_t *skbs, size_t *buffers)
{
	if (skbs)
		*skbs = m ? m->skb->nlive : 0;
	if (buffers)
		*buffers = m ? m->skb->buf_nlive : 0;
	if (!m)
		km_set_error("skb_live: NULL machine");
}

/* ---- padding (net/core/skbuff.c, include/linux/skbuff.h, v3.5) --------------- */

int km_skb_pad(struct km_task *t, struct km_skb *skb, int pad)
{
	unsigned char *p;
	int err, ntail;

	if (no_skb(skb, "skb_pad") || !task_of(t, skb, "skb_pad"))
		return -EINVAL;
	if (pad < 0) {	/* memset(..., 0, pad) of ~4 GiB in the kernel */
		skb_report(skb, KM_BUG, KM_R_SKB_OVER, "skb_pad(%d): negative pad", pad);
		return km_err(-EINVAL, "skb_pad: negative pad %d", pad);
	}
	if (!skb_sane(skb, "skb_pad"))
		return -EINVAL;
	/* If the skbuff is non linear tailroom is always zero.. */
	if (!km_skb_cloned(skb) && km_skb_tailroom(skb) >= pad) {
		p = skb->data + skb->len;
		if (km_skb_may_write(skb, p, (size_t)pad))
			memset(p, 0, (size_t)pad);
		return 0;
	}
	ntail = (int)skb->data_len + pad - (int)(skb->end - skb->tail);
	if (km_skb_cloned(skb) || ntail > 0) {
		err = km_pskb_expand_head(t, skb, 0, ntail, KM_GFP_ATOMIC);
		if (err)
			goto free_skb;
	}
	/* skb_linearize(): the model's skbs are linear */
	p = skb->data + skb->len;
	if (km_skb_may_write(skb, p, (size_t)pad))
		memset(p, 0, (size_t)pad);
	return 0;

free_skb:
	km_kfree_skb(skb);
	return err;
}

int km_skb_padto(struct km_task *t, struct km_skb *skb, unsigned int len)
{
	if (no_skb(skb, "skb_padto"))
		return -EINVAL;
	if (skb->len >= len)
		return 0;
	return km_skb_pad(t, skb, (int)(len - skb->len));
}

/* ---- net_device ----------------------------------------------------------- */

unsigned int km_ll_reserved_space(const struct km_net_device *dev)
{
	if (!dev) {
		km_set_error("LL_RESERVED_SPACE: NULL net_device");
		return 0;
	}
	return ((dev->hard_header_len + dev->needed_headroom) & ~(KM_HH_DATA_MOD - 1)) +
	       KM_HH_DATA_MOD;
}

void km_net_device_init_ether_sized(struct km_net_device *dev, size_t size)
{
	const struct km_net_device ether = {
		.hard_header_len = 14,			/* ETH_HLEN */
		.mtu = 1500,				/* ETH_DATA_LEN */
		.priv_flags = KM_IFF_TX_SKB_SHARING,	/* ether_setup(), v3.5 */
	};

	if (!dev || size < KM_NET_DEVICE_MIN_SIZE) {
		km_set_error("net_device_init_ether: NULL net_device or size %zu < %zu", size,
			     (size_t)KM_NET_DEVICE_MIN_SIZE);
		return;
	}
	km_struct_write(dev, size, &ether, sizeof(ether));
}

/* ---- teardown --------------------------------------------------------------- */

int km_skb_init(struct km_machine *m)
{
	m->skb = g_try_new0(struct km_skb_state, 1);
	if (!m->skb)
		return km_err(-ENOMEM, "skb_sim: no host memory for its state");
	m->skb->shinfo_space = data_align(m, km_skb_shinfo_size(m));
	m->skb->all = g_ptr_array_new_with_free_func(g_free);
	m->skb->buf_all = g_ptr_array_new_with_free_func(g_free);
	m->skb->free.ring = g_ptr_array_new();
	m->skb->buf_free.ring = g_ptr_array_new();
	return 0;
}

int km_skb_check_leaks(struct km_machine *m)
{
	int n = 0;
	char st[160];

	/* the netdev_alloc_cache's own reference is the CPU's, not a leak:
	 * dropped, so the page allocator's check sees the fragments' alone
	 * (the next fragment takes a new page) */
	if (m->skb && m->skb->frag_page) {
		km_put_page(m, m->skb->frag_page);
		m->skb->frag_page = NULL;
	}

	for (guint i = 0; m->skb && i < m->skb->all->len; i++) {
		struct skb_priv *p = g_ptr_array_index(m->skb->all, i);

		if (p->magic != SKB_LIVE)
			continue;
		state(&p->skb, st, sizeof(st));
		km_report(m, KM_BUG, KM_R_LEAK_SKB, "skb not freed: %s", st);
		n++;
	}
	for (guint i = 0; m->skb && i < m->skb->buf_all->len; i++) {
		struct buf_priv *b = g_ptr_array_index(m->skb->buf_all, i);

		if (b->magic != SKB_LIVE)
			continue;
		km_report(m, KM_BUG, KM_R_LEAK_SKB, "skb data buffer %p (ksize %zu) not freed: "
			  "dataref %#x", (void *)b->obj, b->ksize, (unsigned int)b->sh.dataref);
		n++;
	}
	return n;
}

void km_skb_fini(struct km_machine *m)
{
	/* the kmalloc objects go with the slab; here only the host structs
	 * (NULL: a failed boot) */
	if (!m->skb)
		return;
	g_ptr_array_free(m->skb->free.ring, TRUE);
	g_ptr_array_free(m->skb->buf_free.ring, TRUE);
	g_ptr_array_free(m->skb->all, TRUE);
	g_ptr_array_free(m->skb->buf_all, TRUE);
	g_free(m->skb);
	m->skb = NULL;
}
