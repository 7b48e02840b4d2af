// SPDX-License-Identifier: GPL-2.0
/*
 * kmalloc caches, modelled on SLUB in mm/slab_common.c and
 * include/linux/slab.h (v5.7): kmalloc_index() bucket rounding with
 * KMALLOC_MIN_SIZE, caches up to KMALLOC_MAX_CACHE_SIZE (2 pages), larger
 * requests rounded to a page order (kmalloc_large) up to KMALLOC_MAX_SIZE.
 * Simplification: objects live in host memory, not in simulated frames;
 * freed objects stay cached per bucket (so a double kfree is detected
 * safely), and under ASan their bodies are poisoned.
 */
#include "internal.h"
#include <stdint.h>
#include <string.h>

/* ASan: GCC defines __SANITIZE_ADDRESS__, clang answers
 * __has_feature(address_sanitizer) (clang 14 defines no macro) */
#if defined(__SANITIZE_ADDRESS__)
#define KM_SLAB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KM_SLAB_ASAN 1
#endif
#endif
#ifdef KM_SLAB_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define ZERO_SIZE_PTR ((void *)16)
#define OBJ_LIVE 0x6b6d4c56u	/* "kmLV" */
#define OBJ_FREE 0x6b6d4652u	/* "kmFR" */
#define NR_CLASSES KM_NR_KMALLOC_CLASSES
#define SLAB_BYTES (64 * 1024)	/* a slab holds at least one object */
/* arm_cls of host memory the target does not kmalloc (km_kmalloc_host()) */
#define ARM_CLS_NONE 0xffffu

struct obj_hdr {
	uint32_t magic;
	uint16_t cls;		/* size class index */
	uint16_t arm_cls;	/* live: the size class of its bucket on 32-bit ARM
				 * (the events' size) */
	uint64_t size;		/* bucket bytes */
	struct obj_hdr *next_free;
	uint64_t freed_at;	/* km_traffic_bytes() at its kfree(); a new slab's
				 * object: never warm (new_slab()) */
};

/* A slab: objects of one size class carved from one host allocation. */
struct km_slab_page {
	unsigned char *base;	/* first header */
	size_t stride;		/* header + bucket */
	size_t nr;		/* objects */
};


static gint slab_cmp(gconstpointer a, gconstpointer b)
{
	const struct km_slab_page *x = a, *y = b;

	return x->base < y->base ? -1 : x->base > y->base;
}

static size_t size_roundup(const struct km_machine *m, size_t size);
static unsigned int size_class(size_t bucket);

/* km_slab.fast[] of sizes (8 * i, 8 * i + 8]: all round up to the bucket of
 * the largest, as every bucket is a multiple of 8 (kmalloc_min_size >= 8) */
static uint32_t fast_entry(const struct km_machine *m, size_t size)
{
	size_t bucket = size_roundup(m, size);

	return size_class(bucket) | (uint32_t)bucket << 16;
}

int km_slab_init(struct km_machine *m)
{
	m->slab = &m->slab_caches;
	m->slab->slabs = g_array_new(FALSE, FALSE, sizeof(struct km_slab_page));
	for (unsigned int i = 0; i < G_N_ELEMENTS(m->slab->fast); i++)
		m->slab->fast[i] = fast_entry(m, 8 * (i + 1));
	return 0;
}

void km_slab_fini(struct km_machine *m)
{
	if (!m->slab)
		return;
	for (guint i = 0; i < m->slab->slabs->len; i++) {
		struct km_slab_page *sp = &g_array_index(m->slab->slabs, struct km_slab_page, i);

		UNPOISON(sp->base, sp->stride * sp->nr);
		g_free(sp->base);
	}
	g_array_free(m->slab->slabs, TRUE);
	m->slab = NULL;
}

int km_slab_check(struct km_machine *m)
{
	int n = 0;

	for (guint i = 0; i < m->slab->slabs->len; i++) {
		const struct km_slab_page *sp = &g_array_index(m->slab->slabs, struct km_slab_page, i);

		for (size_t o = 0; o < sp->nr; o++) {
			const struct obj_hdr *h = (const struct obj_hdr *)(sp->base + o * sp->stride);

			if (h->magic != OBJ_LIVE)
				continue;
			km_report(m, KM_BUG, KM_R_LEAK_KMALLOC, "kmalloc-%llu object %p not freed",
				  (unsigned long long)h->size, (const void *)(h + 1));
			n++;
		}
	}
	return n;
}

/* The header at @p, an object start in no remembered place: a binary
 * search over the slabs, so a foreign or bogus pointer is recognised
 * without being dereferenced. */
static struct obj_hdr * __attribute__((noinline)) obj_search(struct km_slab *s,
							     const unsigned char *p)
{
	GArray *a = s->slabs;
	guint lo = 0, hi = a->len;

	for (unsigned int i = 0; i < KM_SLAB_RECENT; i++) {
		const struct km_slab_recent *r = &s->recent[i];

		if (p >= r->lo && p < r->hi) {
			if ((size_t)(p - r->lo) % r->stride)
				return NULL;
			s->hit_lo = r->lo;
			s->hit_hi = r->hi;
			s->hit_stride = r->stride;
			s->last_obj = (const struct obj_hdr *)p;
			return (struct obj_hdr *)p;
		}
	}
	while (lo < hi) {		/* last slab with base <= p */
		guint mid = lo + (hi - lo) / 2;

		if (g_array_index(a, struct km_slab_page, mid).base <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	{
		const struct km_slab_page *sp = &g_array_index(a, struct km_slab_page, lo - 1);
		size_t off = (size_t)(p - sp->base);

		if (off >= sp->stride * sp->nr || off % sp->stride)
			return NULL;
		s->hit_lo = sp->base;
		s->hit_hi = sp->base + sp->stride * sp->nr;
		s->hit_stride = sp->stride;
		s->last_obj = (const struct obj_hdr *)p;
		s->recent[s->recent_next] = (struct km_slab_recent){ s->hit_lo, s->hit_hi,
								     s->hit_stride };
		s->recent_next = (s->recent_next + 1) % KM_SLAB_RECENT;
		return (struct obj_hdr *)p;
	}
}

/* The header at @p when the last lookup vouches for it: the last object
 * handed out or found, or an object start in the slab of the last search;
 * else NULL (obj_search() knows) */
static inline struct obj_hdr *obj_cached(const struct km_slab *s, const unsigned char *p)
{
	if (p == (const unsigned char *)s->last_obj ||
	    (p >= s->hit_lo && p < s->hit_hi && (size_t)(p - s->hit_lo) % s->hit_stride == 0))
		return (struct obj_hdr *)p;
	return NULL;
}

/* Where the header of @obj would be: computed as an integer, as @obj may
 * be any value (a bogus pointer below the header's size would make
 * pointer arithmetic overflow: undefined, and a UBSan abort) */
static inline const unsigned char *hdr_addr(const void *obj)
{
	return (const unsigned char *)((uintptr_t)obj - sizeof(struct obj_hdr));
}

/* The header of @obj if it is an object of one of @m's slabs, else NULL */
static inline struct obj_hdr *obj_header(struct km_machine *m, const void *obj)
{
	const unsigned char *p = hdr_addr(obj);
	struct obj_hdr *h = obj_cached(m->slab, p);

	return h ? h : obj_search(m->slab, p);
}

/* new_slab(): carve a slab of class @cls into free objects; @now is
 * km_traffic_bytes() */
static void __attribute__((noinline)) new_slab(struct km_slab *s, unsigned int cls, size_t bucket,
					      uint64_t now)
{
	struct km_slab_page sp;
	guint i;

	sp.stride = sizeof(struct obj_hdr) + bucket;
	sp.nr = MAX((size_t)1, SLAB_BYTES / sp.stride);
	/* a new slab page's bytes are whatever the page held: zero here, so
	 * that a checker comparing a buffer's bytes before and after a call
	 * (km_skb_watch_end()) never branches on host bytes nobody wrote */
	sp.base = g_malloc0(sp.stride * sp.nr);
	for (size_t o = sp.nr; o-- > 0;) {
		struct obj_hdr *h = (struct obj_hdr *)(sp.base + o * sp.stride);

		h->magic = OBJ_FREE;
		h->cls = cls;
		h->size = bucket;
		/* freed long ago: never warm, however little is copied
		 * from now on (a distance that does not wrap) */
		h->freed_at = now - KM_EVENTS_WARM_BYTES - 1;
		h->next_free = s->freelist[cls];
		s->freelist[cls] = h;
		POISON(h + 1, bucket);
	}
	for (i = 0; i < s->slabs->len && slab_cmp(&g_array_index(s->slabs, struct km_slab_page, i),
						  &sp) < 0; i++)
		;
	g_array_insert_val(s->slabs, i, sp);
}

static size_t kmalloc_max_size(const struct km_machine *m)
{
	return (size_t)m->page_size << 10;	/* 1 << (MAX_ORDER - 1 + PAGE_SHIFT) */
}

/* kmalloc_size_roundup() of a size > 0 (inline: kmalloc's per-call path) */
static inline size_t size_roundup(const struct km_machine *m, size_t size)
{
	size_t min = m->cfg.kmalloc_min_size;

	if (size <= min)
		return min;
	if (min <= 32 && size > 64 && size <= 96)
		return 96;
	if (min <= 64 && size > 128 && size <= 192)
		return 192;
	/* a power of two: kmalloc_index() up to 2 pages, then kmalloc_large's
	 * PAGE_SIZE << get_order(size). Saturate where that does not fit in
	 * size_t, as kmalloc_size_roundup() (mm/slab_common.c, v6.1) returns
	 * SIZE_MAX for a saturated SIZE_MAX */
	if (size > SIZE_MAX / 2 + 1)
		return SIZE_MAX;
	return (size_t)1 << (64 - __builtin_clzl(size - 1));
}

size_t km_kmalloc_size_roundup(const struct km_machine *m, size_t size)
{
	if (!m || size == 0)
		return 0;
	return size_roundup(m, size);
}

/* the events' size class of an ARM bucket: ceil(log2(bucket)) (buckets
 * are at least 8 bytes), the last class holding anything larger */
static unsigned int event_class(size_t arm_bucket)
{
	return MIN(64u - (unsigned int)__builtin_clzll((unsigned long long)arm_bucket - 1),
		   KM_EVENTS_KMALLOC_CLASSES - 1u);
}

static unsigned int size_class(size_t bucket)
{
	if (bucket == 96)
		return 1;
	if (bucket == 192)
		return 2;
	return (unsigned int)__builtin_ctzl(bucket);
}

/* the bucket of size class @cls: size_class()'s inverse */
static size_t class_bytes(unsigned int cls)
{
	if (cls == 1)
		return 96;
	if (cls == 2)
		return 192;
	return (size_t)1 << cls;
}

/* kzalloc's events of an object whose ARM bucket @arm_bucket is not its
 * host @bucket, counted one by one: they are rare (km_path_events'
 * counters count the rest, and such a kmalloc without __GFP_ZERO) */
static void __attribute__((noinline)) count_kzalloc_arm(struct km_machine *m, size_t bucket,
							size_t arm_bucket)
{
	KM_EV_INC(m, kmalloc_calls);
	KM_EV_ADD(m, kmalloc_bytes, bucket);
	KM_EV_ADD(m, kmalloc_arm_bytes, arm_bucket);
	KM_EV_INC(m, kmalloc_class[event_class(arm_bucket)]);
	KM_EV_TRAFFIC(m, clear_bytes, arm_bucket);	/* the target's object */
	KM_EV_INC(m, memset_calls);
}

/* kfree's events of such an object: by its host and its ARM class */
static inline void count_kfree_arm(struct km_machine *m, const struct obj_hdr *h)
{
	KM_PATH_INC(m, kfree_host_cls[h->cls]);
	KM_PATH_INC(m, kfree_arm_cls[h->arm_cls]);
}

void km_slab_events(const struct km_path_events *p, struct km_events *ev)
{
	for (unsigned int c = 0; c < NR_CLASSES; c++) {
		uint64_t z = p->kzalloc_cls[c], a = p->kmalloc_cls[c] + z, f = p->kfree_cls[c];
		/* objects whose ARM bucket is another: by host class, by ARM class */
		uint64_t ha = p->kmalloc_host_cls[c], aa = p->kmalloc_arm_cls[c];
		uint64_t hf = p->kfree_host_cls[c], af = p->kfree_arm_cls[c];
		uint64_t bytes;
		unsigned int ec;

		if (!(a | f | ha | aa | hf | af))
			continue;
		bytes = class_bytes(c);
		ec = event_class(bytes);
		ev->kmalloc_calls += a + ha;
		ev->kmalloc_bytes += (a + ha) * bytes;
		ev->kmalloc_arm_bytes += (a + aa) * bytes;
		ev->kmalloc_class[ec] += a + aa;
		ev->clear_bytes += z * bytes;
		ev->memset_calls += z;
		ev->kfree_calls += f + hf;
		ev->kfree_bytes += (f + hf) * bytes;
		ev->kfree_arm_bytes += (f + af) * bytes;
		ev->kfree_class[ec] += f + af;
	}
}

/* The object @h off the free list of class @cls, live: bucket @bucket,
 * size class @arm_cls on ARM (not counted) */
static inline void *take(struct km_machine *m, struct obj_hdr *h, unsigned int cls,
			 size_t bucket, unsigned int arm_cls)
{
	struct km_slab *s = m->slab;

	s->freelist[cls] = h->next_free;
	UNPOISON(h + 1, bucket);
	h->magic = OBJ_LIVE;
	h->arm_cls = (uint16_t)arm_cls;
	h->next_free = NULL;
	s->last_obj = h;
	return h + 1;
}

/* km_kmalloc_arm() after the fast path's checks (see there) */
static void * __attribute__((noinline)) kmalloc_slow(struct km_task *t, size_t size,
						      size_t arm_size, km_gfp_t flags)
{
	struct km_machine *m;
	struct km_slab *s;
	struct obj_hdr *h;
	size_t bucket, arm_bucket;
	unsigned int cls, arm_cls;

	if (__builtin_expect(!t, 0)) {
		km_set_error("km_kmalloc: task is NULL");
		return NULL;
	}
	m = t->m;
	s = m->slab;
	if (size - 1 < KM_SLAB_FAST_MAX && arm_size == size) {
		uint32_t e = s->fast[(size - 1) / 8];	/* size 0 wraps: not here */

		cls = arm_cls = e & 0xff;
		bucket = arm_bucket = e >> 16;
	} else {
		/* a call that allocates nothing counts in kmalloc_calls alone
		 * (size 0: and in kmalloc_class[0]) */
		if (size == 0 || arm_size == 0) {
			KM_EV_INC(m, kmalloc_calls);
			KM_EV_INC(m, kmalloc_class[0]);
			return ZERO_SIZE_PTR;
		}
		if (__builtin_expect(arm_size > kmalloc_max_size(m), 0)) {
			KM_EV_INC(m, kmalloc_calls);
			km_report(m, KM_WARN, KM_R_ALLOC_TOO_LARGE,
				  "kmalloc(%zu): above KMALLOC_MAX_SIZE %zu (alloc_pages order >= "
				  "MAX_ORDER)", arm_size, kmalloc_max_size(m));
			return NULL;
		}
		bucket = size_roundup(m, size);
		cls = size_class(bucket);
		arm_bucket = arm_size == size ? bucket : size_roundup(m, arm_size);
		arm_cls = arm_size == size ? cls : size_class(arm_bucket);
		/* the kind that repeats past the table (the rx URB's buffer):
		 * remembered for the path above */
		if (arm_cls != cls && bucket == class_bytes(cls)) {
			s->memo_size = size;
			s->memo_arm_size = arm_size;
			s->memo_cls = cls;
			s->memo_arm_cls = arm_cls;
		}
	}
	if (flags & KM_GFP_DIRECT_RECLAIM)
		km_might_sleep(t, "kmalloc(GFP_KERNEL)");
	if (m->fail_kmalloc_nth && --m->fail_kmalloc_nth == 0) {
		KM_EV_INC(m, kmalloc_calls);
		return NULL;
	}
	if (!s->freelist[cls])
		new_slab(s, cls, bucket, km_traffic_bytes(m));
	h = s->freelist[cls];
	take(m, h, cls, bucket, arm_cls);
	if (flags & KM_GFP_ZERO) {	/* slab_alloc_node(): memset(object, 0, s->object_size) */
		memset(h + 1, 0, bucket);
		/* its lines still in the caches from its kfree() (LIFO) */
		if (KMODEL_COUNT_EVENTS && km_traffic_bytes(m) - h->freed_at <= KM_EVENTS_WARM_BYTES)
			KM_EV_ADD(m, clear_slab_warm_bytes, arm_bucket);
		if (__builtin_expect(arm_cls == cls, 1)) {
			KM_PATH_INC(m, kzalloc_cls[cls]);
			KM_EV_CLOCK(m, bucket);		/* its clear_bytes */
		} else {
			count_kzalloc_arm(m, bucket, arm_bucket);
		}
	} else if (__builtin_expect(arm_cls == cls, 1)) {
		KM_PATH_INC(m, kmalloc_cls[cls]);
	} else {
		KM_PATH_INC(m, kmalloc_host_cls[cls]);
		KM_PATH_INC(m, kmalloc_arm_cls[arm_cls]);
	}
	return h + 1;
}

/* km_kmalloc_arm() past its fast path: the kind kmalloc_slow() remembered
 * again (each rx URB's buffer), GFP_ATOMIC, an object free, no fault
 * injection armed -- what kmalloc_slow() would do, without its frame --
 * or kmalloc_slow() */
static void * __attribute__((noinline)) kmalloc_other(struct km_task *t, size_t size,
						       size_t arm_size, km_gfp_t flags)
{
	struct km_machine *m;
	struct km_slab *s;
	unsigned int cls;

	if (__builtin_expect(!t, 0))
		return kmalloc_slow(t, size, arm_size, flags);
	m = t->m;
	s = m->slab;
	if (size == s->memo_size && size && arm_size == s->memo_arm_size &&
	    !(flags & (KM_GFP_ZERO | KM_GFP_DIRECT_RECLAIM)) && s->freelist[s->memo_cls] &&
	    !m->fail_kmalloc_nth) {
		cls = s->memo_cls;
		KM_PATH_INC(m, kmalloc_host_cls[cls]);
		KM_PATH_INC(m, kmalloc_arm_cls[s->memo_arm_cls]);
		return take(m, s->freelist[cls], cls, class_bytes(cls), s->memo_arm_cls);
	}
	return kmalloc_slow(t, size, arm_size, flags);
}

/*
 * kmalloc() of SLUB (include/linux/slab.h, mm/slub.c __kmalloc(),
 * mm/slab_common.c kmalloc_slab(), mm/page_alloc.c, v5.7), in the kernel's
 * order: size 0 is ZERO_SIZE_PTR from kmalloc_slab() before any hook runs;
 * beyond KMALLOC_MAX_SIZE kmalloc_large()'s alloc_pages() fails with
 * WARN_ON_ONCE(order >= MAX_ORDER), also before its hooks; only then
 * might_sleep_if(__GFP_DIRECT_RECLAIM) and the fault injection
 * (slab_pre_alloc_hook()/prepare_alloc_pages(): should_failslab(),
 * should_fail_alloc_page()).
 * @arm_size: the object's size on 32-bit ARM, where it differs from the
 * host's @size (pointers and longs are 8 bytes here, 4 there): the limit
 * and the size-class events follow ARM; the host object has @size bytes.
 * Fast path (no call, no saved registers): a size of the table, the same
 * on ARM, no __GFP_ZERO, an object on the free list, no fault injection
 * armed, and no sleep-in-atomic to report; the rest in kmalloc_slow().
 */
void *km_kmalloc_arm(struct km_task *t, size_t size, size_t arm_size, km_gfp_t flags)
{
	struct km_machine *m;
	struct obj_hdr *h;
	uint32_t e;

	if (__builtin_expect(!t || size - 1 >= KM_SLAB_FAST_MAX || arm_size != size ||
			     (flags & KM_GFP_ZERO), 0))
		return kmalloc_other(t, size, arm_size, flags);
	m = t->m;
	e = m->slab->fast[(size - 1) / 8];
	h = m->slab->freelist[e & 0xff];
	if (__builtin_expect(!h || m->fail_kmalloc_nth ||
			     ((flags & KM_GFP_DIRECT_RECLAIM) && km_in_atomic(t)), 0))
		return kmalloc_slow(t, size, arm_size, flags);
	KM_PATH_INC(m, kmalloc_cls[e & 0xff]);
	return take(m, h, e & 0xff, e >> 16, e & 0xff);
}

void *km_kmalloc(struct km_task *t, size_t size, km_gfp_t flags)
{
	return km_kmalloc_arm(t, size, size, flags);
}

/* Host memory from the slabs for bytes the target does not kmalloc (a
 * page fragment's: netdev_alloc_frag()): no events, no fault injection;
 * km_kfree_obj() takes it back uncounted. NULL for 0 bytes or past
 * KMALLOC_MAX_SIZE. */
void *km_kmalloc_host(struct km_machine *m, size_t size)
{
	struct km_slab *s = m->slab;
	size_t bucket;
	unsigned int cls;

	if (size == 0 || size > kmalloc_max_size(m))
		return NULL;
	bucket = size_roundup(m, size);
	cls = size_class(bucket);
	if (!s->freelist[cls])
		new_slab(s, cls, bucket, km_traffic_bytes(m));
	return take(m, s->freelist[cls], cls, bucket, ARM_CLS_NONE);
}

void km_kfree(struct km_task *t, const void *obj)
{
	if (__builtin_expect(!t, 0)) {
		km_set_error("km_kfree: task is NULL");
		return;
	}
	km_kfree_machine(t->m, obj);
}

/* kfree() of the live object @h: on its class's free list, counted */
static inline void give_back(struct km_machine *m, struct obj_hdr *h)
{
	h->magic = OBJ_FREE;
	if (KMODEL_COUNT_EVENTS)
		h->freed_at = km_traffic_bytes(m);
	h->next_free = m->slab->freelist[h->cls];
	m->slab->freelist[h->cls] = h;
	POISON(h + 1, h->size);
}

/* kfree() of the live object @h: counted (by its host and its ARM class
 * where they differ), on its class's free list */
static inline void free_counted(struct km_machine *m, struct obj_hdr *h)
{
	if (__builtin_expect(h->arm_cls == h->cls, 1))
		KM_PATH_INC(m, kfree_cls[h->cls]);
	else if (h->arm_cls != ARM_CLS_NONE)
		count_kfree_arm(m, h);
	give_back(m, h);
}

/* km_kfree_machine() past its fast path's checks (see there) */
static void __attribute__((noinline)) kfree_slow(struct km_machine *m, const void *obj)
{
	struct obj_hdr *h = obj_header(m, obj);

	if (!h || h->magic != OBJ_LIVE) {
		km_report(m, KM_BUG, KM_R_BAD_KFREE, "kfree(%p): %s", obj,
			  h ? "double free" : "not a kmalloc object of this machine");
		return;
	}
	free_counted(m, h);
}

/* kfree() on machine @m, for model code that has no task at hand.
 * Fast path (no call, no saved registers): the last object handed out or
 * found, or an object start in the slab of the last search, live, with
 * the same size class on ARM; the rest in kfree_slow(). */
void km_kfree_machine(struct km_machine *m, const void *obj)
{
	struct obj_hdr *h;

	if (obj == NULL || obj == ZERO_SIZE_PTR)
		return;
	h = obj_cached(m->slab, hdr_addr(obj));
	if (__builtin_expect(h && h->magic == OBJ_LIVE && h->arm_cls == h->cls, 1)) {
		KM_PATH_INC(m, kfree_cls[h->cls]);
		give_back(m, h);
		return;
	}
	kfree_slow(m, obj);
}

void km_kfree_obj(struct km_machine *m, const void *obj)
{
	struct obj_hdr *h;

	if (obj == NULL || obj == ZERO_SIZE_PTR)
		return;
	h = (struct obj_hdr *)hdr_addr(obj);
	if (__builtin_expect(h->magic != OBJ_LIVE, 0)) {
		kfree_slow(m, obj);
		return;
	}
	free_counted(m, h);
}

size_t km_ksize_obj(const void *obj)
{
	return ((const struct obj_hdr *)hdr_addr(obj))->size;
}

size_t km_ksize(struct km_machine *m, const void *obj)
{
	const struct obj_hdr *h;

	if (!m || obj == NULL || obj == ZERO_SIZE_PTR)
		return 0;
	h = obj_header(m, obj);
	return h && h->magic == OBJ_LIVE ? h->size : 0;
}

void km_fault_fail_kmalloc_nth(struct km_machine *m, unsigned long nth)
{
	if (m)
		m->fail_kmalloc_nth = nth;
}
