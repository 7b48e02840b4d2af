// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator over the frames of physical memory (physmem.c). Two
 * zones, ZONE_NORMAL (lowmem, pfn 0 .. nr_lowmem) and ZONE_HIGHMEM (the
 * rest). A never-used frame is handed out from a bump pointer, so boot
 * touches no frame data.
 * Freed frames go on their zone's free list, linked through struct km_page
 * as the kernel links them through page->lru, and are taken back last
 * freed, first reused (the cache-hot frame, as order-0 pages come back).
 * Simplification: no buddy orders, per-cpu lists or watermarks; alloc_page
 * fails (NULL) when the zones are empty.
 */
#include "mm_internal.h"
#include <string.h>

int km_page_alloc_init(struct km_machine *m)
{
	/* PG_highmem is set as a frame is first handed out (zone_take()) or
	 * looked up (km_pfn_to_page()): a big machine's mem_map stays
	 * untouched, and costs the host nothing, until its frames are used */
	m->zone_low = (struct km_zone){ 0, m->nr_lowmem, 0, 0 };
	m->zone_high = (struct km_zone){ m->nr_lowmem, m->nr_pages, m->nr_lowmem, 0 };
	/* the shared zero page (ZERO_PAGE(0)), reserved for the machine's life */
	m->zero_page = km_alloc_page(m, KM_GFP_ZERO);
	m->zero_page->flags |= KM_PG_RESERVED;
	return 0;
}

struct km_page *km_zero_page(struct km_machine *m)
{
	if (!m) {
		km_set_error("km_zero_page: machine is NULL");
		return NULL;
	}
	return m->zero_page;
}

int km_zero_page_check(struct km_machine *m)
{
	unsigned long pfn;
	const unsigned char *z;
	size_t i = 0, nonzero = 0;

	if (!m)
		return km_err(-EINVAL, "km_zero_page_check: machine is NULL");
	pfn = km_pfn(m, m->zero_page);
	z = km_frame(m, pfn);

	while (i < m->page_size && !z[i])
		i++;
	if (i == m->page_size)
		return 0;
	for (size_t j = i; j < m->page_size; j++)
		nonzero += z[j] != 0;
	km_report(m, KM_BUG, KM_R_ZERO_PAGE,
		  "the shared zero page (pfn %lu) was written: %zu byte%s not zero, the first at "
		  "offset %zu (0x%02x): a write through a pin without FOLL_WRITE, or through a "
		  "kmap of ZERO_PAGE(0)? every read of an untouched anonymous page now sees it",
		  pfn, nonzero, nonzero == 1 ? "" : "s", i, z[i]);
	return 1;
}

/* every frame but the reserved zero page must be free again */
/* Frame @pfn still referenced at teardown: one problem, reported */
static int check_frame(struct km_machine *m, unsigned long pfn)
{
	struct km_page *p = &m->pages[pfn];

	if (p == m->zero_page) {
		int n = km_zero_page_check(m);

		if (p->refcount == 1)	/* the machine's own reference */
			return n;
		km_report(m, KM_BUG, KM_R_LEAK_PAGE,
			  "zero page (pfn %lu) refcount %d, expected 1: "
			  "unbalanced get/put of the shared zero page", pfn, p->refcount);
		return n + 1;
	}
	if (p->refcount == 0)
		return 0;
	/* the refcount decoded as page_maybe_dma_pinned() reads it (include/
	 * linux/mm.h, v5.7): each FOLL_PIN adds GUP_PIN_COUNTING_BIAS
	 * ("refcount 16646144 (pinned)" said nothing more) --
	 * "true means probably pinned for DMA, but possibly a false positive
	 * due to having at least GUP_PIN_COUNTING_BIAS worth of normal page
	 * references" (the report called 1024 plain references a
	 * pin) */
	/* the release the caller's gup wants: only pin_user_pages*() pins
	 * (FOLL_PIN), unpin_user_page() releases them; get_user_pages*()
	 * (FOLL_GET) references want put_page() */
	const char *hint = (p->flags & KM_PG_GUP_PIN) && (p->flags & KM_PG_GUP_GET) ?
				   " (pin_ and get_user_pages*(): no unpin_user_page() or "
				   "put_page()?)" :
			   p->flags & KM_PG_GUP_PIN ? " (pin_user_pages*(): no unpin_user_page()?)" :
			   p->flags & KM_PG_GUP_GET ? " (get_user_pages*(): no put_page()?)" : "";

	if (p->refcount >= KM_GUP_PIN_COUNTING_BIAS) {
		int pins = p->refcount / KM_GUP_PIN_COUNTING_BIAS;
		int others = p->refcount % KM_GUP_PIN_COUNTING_BIAS;

		km_report(m, KM_BUG, KM_R_LEAK_PAGE,
			  "pfn %lu still referenced%s: refcount %d: as FOLL_PIN counts them %d "
			  "pin%s (GUP_PIN_COUNTING_BIAS %d each) and %d "
			  "other reference%s, or %d plain references (page_maybe_dma_pinned()), "
			  "mapcount %d", pfn, hint, p->refcount, pins,
			  pins == 1 ? "" : "s", KM_GUP_PIN_COUNTING_BIAS, others,
			  others == 1 ? "" : "s", p->refcount, p->mapcount);
		return 1;
	}
	km_report(m, KM_BUG, KM_R_LEAK_PAGE, "pfn %lu still referenced%s: refcount %d, mapcount %d",
		  pfn, hint, p->refcount, p->mapcount);
	return 1;
}

int km_page_alloc_check(struct km_machine *m)
{
	const struct km_zone *zones[] = { &m->zone_low, &m->zone_high };
	int n = 0;

	/* only frames ever handed out can be referenced: those below each
	 * zone's never-used mark (the check follows what was touched) */
	for (size_t z = 0; z < 2; z++)
		for (unsigned long pfn = zones[z]->start_pfn; pfn < zones[z]->next_pfn; pfn++)
			n += check_frame(m, pfn);
	return n;
}


static long zone_take(struct km_machine *m, struct km_zone *z)
{
	if (z->free_head) {
		unsigned long pfn = z->free_head - 1;

		z->free_head = m->pages[pfn].free_next;
		return (long)pfn;
	}
	if (z->next_pfn < z->end_pfn) {
		if (z == &m->zone_high)
			m->pages[z->next_pfn].flags = KM_PG_HIGHMEM;
		return (long)z->next_pfn++;
	}
	return -1;
}

struct km_page *km_alloc_page(struct km_machine *m, km_gfp_t gfp)
{
	long pfn = -1;
	struct km_page *p;

	if (!m) {
		km_set_error("km_alloc_page: machine is NULL");
		return NULL;
	}
	if (gfp & KM_GFP_HIGHMEM)
		pfn = zone_take(m, &m->zone_high);
	if (pfn < 0)
		pfn = zone_take(m, &m->zone_low);
	if (pfn < 0)
		return NULL;
	p = &m->pages[pfn];
	p->flags &= KM_PG_HIGHMEM;
	p->refcount = 1;
	p->mapcount = 0;
	KM_EV_INC(m, pages_allocated);
	if (gfp & KM_GFP_ZERO) {	/* clear_highpage() */
		memset(km_frame(m, (unsigned long)pfn), 0, m->page_size);
		KM_EV_TRAFFIC(m, clear_bytes, m->page_size);
		KM_EV_INC(m, memset_calls);
	}
	return p;
}

static void free_page(struct km_machine *m, struct km_page *p)
{
	unsigned long pfn = km_pfn(m, p);
	struct km_zone *z = (p->flags & KM_PG_HIGHMEM) ? &m->zone_high : &m->zone_low;

	/* free_pages_check() -> bad_page() (mm/page_alloc.c, v5.7): a page
	 * still mapped by a pte, or a reserved one, must not be freed; the
	 * kernel reports it and leaks the page, and so does the model */
	if (p->mapcount > 0 || (p->flags & KM_PG_RESERVED)) {
		km_report(m, KM_BUG, KM_R_BAD_PAGE,
			  "Bad page state: pfn %lu freed with mapcount %d%s", pfn, p->mapcount,
			  (p->flags & KM_PG_RESERVED) ? ", PG_reserved" : "");
		return;
	}

	p->flags &= KM_PG_HIGHMEM;
	p->mapcount = 0;
	p->free_next = (uint32_t)z->free_head;
	z->free_head = pfn + 1;
	KM_EV_INC(m, pages_freed);
}

/* inlined: it is on every get_page() and put_page() */
static inline __attribute__((always_inline)) bool check_page(struct km_machine *m, struct km_page *p,
							    const char *what)
{
	if (!km_page_valid(m, p)) {
		km_report(m, KM_BUG, KM_R_BAD_PAGE, "%s(%p): not a page of this machine", what,
			  (void *)p);
		return false;
	}
	if (p->refcount <= 0) {
		km_report(m, KM_BUG, KM_R_PAGE_REFCOUNT,
			  "%s: pfn %lu has refcount %d (VM_BUG_ON_PAGE(page_ref_count(page) == 0))",
			  what, km_pfn(m, p), p->refcount);
		return false;
	}
	return true;
}

/* a page operation with no machine: nothing to report on */
static void __attribute__((noinline, cold)) no_machine(const char *what)
{
	km_set_error("%s: machine is NULL", what);
}

void km_page_get_uncounted(struct km_machine *m, struct km_page *p)
{
	if (check_page(m, p, "get_page"))
		p->refcount++;
}

void km_page_put_uncounted(struct km_machine *m, struct km_page *p)
{
	if (!check_page(m, p, "put_page"))
		return;
	if (__builtin_expect(p->flags & KM_PG_WPINNED, 0))
		km_pin_write_release(m, p);
	if (--p->refcount == 0)
		free_page(m, p);
}

void km_get_page(struct km_machine *m, struct km_page *p)
{
	if (__builtin_expect(!m, 0)) {
		no_machine("km_get_page");
		return;
	}
	KM_EV_INC(m, get_page_calls);
	km_page_get_uncounted(m, p);
}

void km_put_page(struct km_machine *m, struct km_page *p)
{
	if (__builtin_expect(!m, 0)) {
		no_machine("km_put_page");
		return;
	}
	KM_EV_INC(m, put_page_calls);
	km_page_put_uncounted(m, p);
}

void km_unpin_user_page(struct km_machine *m, struct km_page *p)
{
	if (!m) {
		no_machine("km_unpin_user_page");
		return;
	}
	if (!check_page(m, p, "unpin_user_page"))
		return;
	if (p->refcount < KM_GUP_PIN_COUNTING_BIAS) {
		km_report(m, KM_BUG, KM_R_PAGE_REFCOUNT,
			  "unpin_user_page: pfn %lu refcount %d is below GUP_PIN_COUNTING_BIAS",
			  km_pfn(m, p), p->refcount);
		return;
	}
	if (__builtin_expect(p->flags & KM_PG_WPINNED, 0))
		km_pin_write_release(m, p);
	p->refcount -= KM_GUP_PIN_COUNTING_BIAS;
	if (p->refcount == 0)
		free_page(m, p);
}

unsigned long km_page_size(const struct km_machine *m) { return m ? m->page_size : 0; }
unsigned int km_page_shift(const struct km_machine *m) { return m ? m->page_shift : 0; }
unsigned long km_nr_pages(const struct km_machine *m) { return m ? m->nr_pages : 0; }
unsigned long km_nr_lowmem_pages(const struct km_machine *m) { return m ? m->nr_lowmem : 0; }
unsigned long km_task_size(const struct km_machine *m) { return m ? m->task_size : 0; }

unsigned long km_page_to_pfn(const struct km_machine *m, const struct km_page *p)
{
	return m && km_page_valid(m, p) ? km_pfn(m, p) : ~0UL;
}

struct km_page *km_pfn_to_page(struct km_machine *m, unsigned long pfn)
{
	if (!m || pfn >= m->nr_pages)
		return NULL;
	if (pfn >= m->nr_lowmem)
		m->pages[pfn].flags |= KM_PG_HIGHMEM;	/* see km_page_alloc_init() */
	return &m->pages[pfn];
}

int km_page_refcount(const struct km_page *p) { return p ? p->refcount : 0; }
int km_page_mapcount(const struct km_page *p) { return p ? p->mapcount : 0; }
bool km_page_highmem(const struct km_page *p) { return p && (p->flags & KM_PG_HIGHMEM); }
bool km_page_dirty(const struct km_page *p) { return p && (p->flags & KM_PG_DIRTY); }

void *km_page_address(struct km_machine *m, const struct km_page *p)
{
	if (!m)
		return NULL;
	/* NULL came back and ported code's memcpy() to
	 * page_address(page) + off crashed the host */
	if (__builtin_expect(!km_page_valid(m, p), 0)) {
		km_report(m, KM_BUG, KM_R_BAD_PAGE,
			  p ? "page_address(%p): not a page of this machine; the kernel oopses at "
			      "PageHighMem(page) with CONFIG_HIGHMEM, else at the caller's access "
			      "(the access goes to a scratch page)"
			    : "page_address(NULL): NULL pointer dereference at PageHighMem(page) "
			      "with CONFIG_HIGHMEM, else at the caller's access: a kernel oops (a "
			      "page from a gup that failed? the access goes to a scratch page)",
			  (const void *)p);
		return km_bad_page_scratch(m);
	}
	if (p->flags & KM_PG_HIGHMEM)
		return NULL;
	return km_frame(m, km_pfn(m, p));
}
