// SPDX-License-Identifier: GPL-2.0
/*
 * The pinned-write checker. A page pinned with FOLL_WRITE, written while
 * pinned -- by the CPU through a kernel mapping (the compatibility layer's
 * memcpy()/memset() into its frame at any address the kernel has for it:
 * the linear map, a highmem frame, or in strict kmap mode a kmap slot's
 * alias of the frame), or by a device (km_page_device_write(): DMA, Xen's
 * grant copy) -- and released clean (!PageDirty) loses the
 * write: writeback sees a clean page and drops it (drivers/xen/gntdev.c
 * before 779055842da5, "xen/gntdev.c: Mark pages as dirty", v5.9: its
 * gntdev_put_pages() put_page()d the grant copy's destination pages
 * without set_page_dirty_lock()). The kernel cannot tell; the model can:
 * a KM_R_PIN_NOT_DIRTIED BUG when the last FOLL_WRITE reference of such a
 * page goes. It observes only: the pages, their flags and references are
 * the kernel's. A plain C store through a kmap pointer is not seen.
 */
#include "mm_internal.h"

void km_check_pinned_writes(struct km_machine *m, bool on)
{
	if (!m)
		return;
	m->check_pinned_writes = on;
	if (on && !m->write_pins)
		m->write_pins = g_hash_table_new(NULL, NULL);
}

void km_pin_write_track(struct km_machine *m, struct km_page *p)
{
	guint n = GPOINTER_TO_UINT(g_hash_table_lookup(m->write_pins, p));

	if (!n)
		p->flags = (p->flags | KM_PG_WPINNED) & ~KM_PG_PIN_WRITTEN;
	g_hash_table_insert(m->write_pins, p, GUINT_TO_POINTER(n + 1));
}

void km_pin_write_release(struct km_machine *m, struct km_page *p)
{
	guint n = m->write_pins ? GPOINTER_TO_UINT(g_hash_table_lookup(m->write_pins, p)) : 0;

	if (n > 1) {
		g_hash_table_insert(m->write_pins, p, GUINT_TO_POINTER(n - 1));
		return;
	}
	if (m->write_pins)
		g_hash_table_remove(m->write_pins, p);
	if ((p->flags & KM_PG_PIN_WRITTEN) && !(p->flags & KM_PG_DIRTY))
		km_report(m, KM_BUG, KM_R_PIN_NOT_DIRTIED,
			  "pfn %lu: written while pinned with FOLL_WRITE, released clean: no "
			  "set_page_dirty_lock() before put_page()/unpin_user_page(), so writeback "
			  "drops the write (xen/gntdev 779055842da5)", km_pfn(m, p));
	p->flags &= ~(KM_PG_WPINNED | KM_PG_PIN_WRITTEN);
}

static inline void pin_written(struct km_page *p)
{
	if (p->flags & KM_PG_WPINNED)
		p->flags |= KM_PG_PIN_WRITTEN;
}

void km_pin_write_seen(struct km_task *t, const void *to, size_t n)
{
	struct km_machine *m = t->m;
	const unsigned char *a = to, *end = a + n;
	unsigned long pfn;
	size_t room;

	if (!n)
		return;
	if (a >= m->ram && a < m->ram_end) {	/* the linear map; highmem's frames */
		unsigned long last = (unsigned long)(MIN(end, m->ram_end) - 1 - m->ram) >>
				     m->page_shift;

		for (pfn = (unsigned long)(a - m->ram) >> m->page_shift; pfn <= last; pfn++)
			pin_written(&m->pages[pfn]);
		return;
	}
	/* strict kmap mode: a kmap slot's own address aliases the frame its
	 * pte maps (the kernel's fixmap or kmap_local page): a write there is
	 * a write to that frame. Page by page, as the range may run on into
	 * the guard page after the slot (which faults, and is no frame). */
	while (a < end && (pfn = km_kmap_alias_pfn(t, a, &room), room)) {
		if (pfn != ~0UL)
			pin_written(&m->pages[pfn]);
		a += MIN(room, (size_t)(end - a));
	}
}

int km_page_device_write(struct km_machine *m, struct km_page *p, unsigned long off,
			 const void *src, size_t len)
{
	if (!m || !src)
		return km_err(-EINVAL, "km_page_device_write: machine or source is NULL");
	if (!km_page_valid(m, p))
		return km_err(-EINVAL, "km_page_device_write: not a page of this machine");
	if (off > m->page_size || len > m->page_size - off)
		return km_err(-EINVAL, "km_page_device_write: %zu bytes at %lu run past the "
			      "%lu-byte page", len, off, m->page_size);
	memcpy((unsigned char *)km_frame(m, km_pfn(m, p)) + off, src, len);
	pin_written(p);
	return 0;
}
