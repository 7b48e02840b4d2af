// SPDX-License-Identifier: GPL-2.0
/*
 * skb_sim: every operation at its boundary and one past it, the dataref
 * arithmetic of clone / header release / free, copies, leaks.
 * Expected values come from include/linux/skbuff.h and net/core/skbuff.c
 * (v3.5): e.g. alloc_skb(100) on a Cortex-A8 (64-byte lines, KMALLOC_MIN 64)
 * is kmalloc(SKB_DATA_ALIGN(100) + SKB_DATA_ALIGN(192)) = kmalloc(128 + 192
 * = 320) -> kmalloc-512, end = 512 - 192 = 320 bytes after head.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <kmodel/kmodel.h>
#include "km_test.h"

struct fx {
	struct km_machine *m;
	struct km_task *t;
};

static void fx_up_cfg(struct fx *f, const struct km_machine_config *cfg)
{
	assert_int_equal(km_machine_new(cfg, &f->m), 0);
	assert_int_equal(km_task_new(f->m, NULL, 0, &f->t), 0);
	km_task_switch(f->t);
}

static void fx_up(struct fx *f)
{
	fx_up_cfg(f, NULL);
}

/* Tear down; the teardown check must find nothing. */
static void fx_down(struct fx *f)
{
	km_task_switch(NULL);
	km_task_free(f->t);
	assert_int_equal(km_machine_destroy(f->m), 0);
}

/* The same as cmocka fixtures: *state is a struct fx on the default
 * machine, torn down (and its teardown checked) whatever the test asserted. */
static int fx_setup(void **state)
{
	struct fx *f = g_new0(struct fx, 1);

	fx_up(f);
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	fx_down(*state);
	g_free(*state);
	return 0;
}

static size_t align_up(size_t x, size_t a)
{
	return (x + a - 1) / a * a;
}

static unsigned long reports(struct fx *f, enum km_report_code c)
{
	return km_report_count(f->m, c);
}

/* alloc_skb(@size), skb_reserve(@reserve), skb_put(@len) filled with @fill. */
static struct km_skb *mk(struct fx *f, unsigned int size, int reserve, unsigned int len,
			 int fill)
{
	struct km_skb *skb = km_alloc_skb(f->t, size, KM_GFP_KERNEL);

	assert_non_null(skb);
	km_skb_reserve(skb, reserve);
	memset(km_skb_put(skb, len), fill, len);
	return skb;
}

static void test_alloc_rounding_literals(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb;

	skb = km_alloc_skb(f.t, 100, KM_GFP_KERNEL);
	assert_non_null(skb);
	assert_int_equal(skb->end - skb->head, 320);
	assert_int_equal(km_skb_tailroom(skb), 320);
	assert_int_equal(km_skb_headroom(skb), 0);
	assert_int_equal(skb->len, 0);
	assert_int_equal(skb->users, 1);
	assert_int_equal(skb->shinfo->dataref, 1);
	km_kfree_skb(skb);
	/* the TCP sender's skb: 1448 + 224 = 1672 -> 1728 + 192 = 1920 ->
	 * kmalloc-2048, end 1856; after reserving 224: tailroom 1632 */
	skb = km_alloc_skb(f.t, 1448 + 224, KM_GFP_KERNEL);
	km_skb_reserve(skb, 224);
	assert_int_equal(km_skb_tailroom(skb), 1632);
	assert_int_equal(km_skb_headroom(skb), 224);
	km_kfree_skb(skb);
}

/*
 * The kmalloc bucket (ksize()) of kmalloc(@size) as mm/slab_common.c of
 * v5.7 (SLUB) computes it, for KMALLOC_MIN_SIZE @min and sizes up to
 * KMALLOC_MAX_CACHE_SIZE: kmalloc_slab() takes size_index[] for sizes up
 * to 192 -- the table as setup_kmalloc_cache_index_table() patches it for
 * @min -- else fls(size - 1); kmalloc_info[] gives the index's size (1:
 * kmalloc-96, 2: kmalloc-192, else 1 << index).
 */
static size_t kernel_kmalloc_bucket(size_t size, unsigned int min)
{
	unsigned char size_index[24] = {	/* by (size - 1) / 8: 8, 16, ... 192 */
		3, 4, 5, 5, 6, 6, 6, 6, 1, 1, 1, 1, 7, 7, 7, 7, 2, 2, 2, 2, 2, 2, 2, 2,
	};
	unsigned int index;

	for (unsigned int i = 8; i < min && (i - 1) / 8 < 24; i += 8)
		size_index[(i - 1) / 8] = (unsigned char)__builtin_ctz(min);	/* KMALLOC_SHIFT_LOW */
	if (min >= 64)		/* the 96 byte size cache is not used */
		for (unsigned int i = 64 + 8; i <= 96; i += 8)
			size_index[(i - 1) / 8] = 7;
	if (min >= 128)		/* nor the 192 byte one */
		for (unsigned int i = 128 + 8; i <= 192; i += 8)
			size_index[(i - 1) / 8] = 8;
	if (size <= 192)
		index = size_index[(size - 1) / 8];
	else
		index = 64 - (unsigned int)__builtin_clzl(size - 1);	/* fls(size - 1) */
	return index == 1 ? 96 : index == 2 ? 192 : (size_t)1 << index;
}

/* alloc_skb(size) (net/core/skbuff.c, v3.5 __alloc_skb()): kmalloc of
 * SKB_DATA_ALIGN(size) + SKB_DATA_ALIGN(sizeof(struct skb_shared_info)),
 * and the tailroom is what ksize() leaves past the shared info. Every size
 * 0 .. 5000 in steps of 7, on machines of each row. */
static void test_alloc_rounding_sweep(void **state)
{
	static const struct {
		const char *name;
		unsigned int line, kmalloc_min;
	} rows[] = {
		{ "32-byte lines, KMALLOC_MIN_SIZE 8", 32, 8 },
		{ "32-byte lines, KMALLOC_MIN_SIZE 32", 32, 32 },
		{ "64-byte lines, KMALLOC_MIN_SIZE 64 (Cortex-A8)", 64, 64 },
		{ "128-byte lines, KMALLOC_MIN_SIZE 64", 128, 64 },
		{ "128-byte lines, KMALLOC_MIN_SIZE 128", 128, 128 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		struct km_machine_config cfg = { .l1_cache_bytes = rows[i].line,
						 .kmalloc_min_size = rows[i].kmalloc_min };
		size_t sh = align_up(KM_SKB_SHINFO_SIZE, rows[i].line);
		struct fx f;

		fx_up_cfg(&f, &cfg);
		for (unsigned int size = 0; size <= 5000; size += 7) {
			struct km_skb *skb = km_alloc_skb(f.t, size, KM_GFP_KERNEL);
			size_t bucket = kernel_kmalloc_bucket(align_up(size, rows[i].line) + sh,
							      rows[i].kmalloc_min);

			assert_non_null(skb);
			if ((size_t)km_skb_tailroom(skb) != bucket - sh)
				fail_msg("%s: alloc_skb(%u): tailroom %u, the kernel's %zu",
					 rows[i].name, size, km_skb_tailroom(skb), bucket - sh);
			assert_true((size_t)km_skb_tailroom(skb) >= size);
			km_kfree_skb(skb);
		}
		fx_down(&f);
	}
}

static void test_alloc_failure(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_events ev;

	km_fault_fail_kmalloc_nth(f.m, 1);
	assert_null(km_alloc_skb(f.t, 100, KM_GFP_ATOMIC));
	km_events_get(f.m, &ev);
	assert_int_equal(ev.skb_allocs, 0);
	assert_null(km_alloc_skb(NULL, 100, KM_GFP_ATOMIC));
}

static void test_push_boundary(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb;
	unsigned char *data;

	skb = km_alloc_skb(f.t, 100, KM_GFP_KERNEL);
	km_skb_reserve(skb, 16);
	km_skb_put(skb, 10);
	/* exactly enough headroom */
	assert_ptr_equal(km_skb_push(skb, 16), skb->head);
	assert_int_equal(skb->len, 26);
	assert_int_equal(km_skb_headroom(skb), 0);
	assert_int_equal(reports(&f, KM_R_NONE), 0);
	/* one past: skb_under_panic, state unchanged */
	data = skb->data;
	assert_ptr_equal(km_skb_push(skb, 1), data);
	assert_int_equal(reports(&f, KM_R_SKB_UNDER), 1);
	assert_ptr_equal(skb->data, data);
	assert_int_equal(skb->len, 26);
	km_kfree_skb(skb);
	km_reports_clear(f.m);
}

static void test_put_boundary(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb;
	unsigned char *tail;
	int room;

	skb = km_alloc_skb(f.t, 100, KM_GFP_KERNEL);
	km_skb_reserve(skb, 8);
	room = km_skb_tailroom(skb);
	assert_int_equal(room, 320 - 8);
	tail = skb->tail;
	assert_ptr_equal(km_skb_put(skb, (unsigned int)room), tail);
	assert_ptr_equal(skb->tail, skb->end);
	assert_int_equal(km_skb_tailroom(skb), 0);
	assert_int_equal(reports(&f, KM_R_NONE), 0);
	assert_ptr_equal(km_skb_put(skb, 1), skb->end);
	assert_int_equal(reports(&f, KM_R_SKB_OVER), 1);
	assert_int_equal(skb->len, (unsigned int)room);
	assert_ptr_equal(skb->tail, skb->end);
	km_kfree_skb(skb);
	km_reports_clear(f.m);
}

static void test_reserve_pull_trim_tail(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb;

	skb = km_alloc_skb(f.t, 100, KM_GFP_KERNEL);
	/* reserve exactly all the tailroom, then one past */
	km_skb_reserve(skb, 320);
	assert_int_equal(km_skb_headroom(skb), 320);
	assert_int_equal(km_skb_tailroom(skb), 0);
	km_skb_reserve(skb, 1);
	assert_int_equal(reports(&f, KM_R_SKB_OVER), 1);
	assert_int_equal(km_skb_headroom(skb), 320);
	km_skb_reserve(skb, -300);
	km_skb_put(skb, 50);
	/* pull: len exactly, one past */
	assert_null(km_skb_pull(skb, 51));
	assert_int_equal(skb->len, 50);
	assert_ptr_equal(km_skb_pull(skb, 10), skb->head + 30);
	assert_int_equal(skb->len, 40);
	/* trim: longer is a no-op, shorter moves tail */
	km_skb_trim(skb, 41);
	assert_int_equal(skb->len, 40);
	km_skb_trim(skb, 5);
	assert_int_equal(skb->len, 5);
	assert_ptr_equal(km_skb_tail_pointer(skb), skb->data + 5);
	/* set_tail_pointer: tail = data + offset without a check (v3.5
	 * include/linux/skbuff.h), one past end too; skb_put() then panics */
	km_skb_set_tail_pointer(skb, (int)(skb->end - skb->data));
	assert_ptr_equal(skb->tail, skb->end);
	km_skb_set_tail_pointer(skb, (int)(skb->end - skb->data) + 1);
	assert_int_equal(reports(&f, KM_R_SKB_OVER), 1);
	assert_ptr_equal(skb->tail, skb->end + 1);
	assert_ptr_equal(km_skb_put(skb, 0), skb->end);
	assert_int_equal(reports(&f, KM_R_SKB_OVER), 2);
	km_skb_set_tail_pointer(skb, (int)skb->len);
	km_kfree_skb(skb);
	km_reports_clear(f.m);
}

static void test_clone_dataref(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb, *c;
	struct km_events ev;

	skb = km_alloc_skb(f.t, 200, KM_GFP_KERNEL);
	km_skb_reserve(skb, 64);
	km_skb_put(skb, 100);
	assert_false(km_skb_cloned(skb));
	assert_false(km_skb_header_cloned(skb));
	c = km_skb_clone(f.t, skb, KM_GFP_ATOMIC);
	assert_ptr_equal(c->head, skb->head);
	assert_ptr_equal(c->data, skb->data);
	assert_int_equal(skb->shinfo->dataref, 2);
	assert_true(skb->cloned && c->cloned);
	assert_true(km_skb_cloned(skb) && km_skb_cloned(c));
	assert_true(km_skb_header_cloned(skb) && km_skb_header_cloned(c));
	assert_false(km_skb_shared(c));
	km_kfree_skb(c);
	assert_int_equal(skb->shinfo->dataref, 1);
	assert_true(skb->cloned);		/* the flag stays ... */
	assert_false(km_skb_cloned(skb));	/* ... but dataref says private */
	assert_false(km_skb_header_cloned(skb));
	km_kfree_skb(skb);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.skb_allocs, 1);
	assert_int_equal(ev.skb_clones, 1);
	assert_int_equal(ev.skb_frees, 2);
}

static void test_header_release_tcp_shape(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *orig, *c, *tap;

	orig = mk(&f, 1448 + 224, 224, 1448, 0);
	km_skb_header_release(orig);
	assert_int_equal(orig->nohdr, 1);
	assert_int_equal(orig->shinfo->dataref, 0x10001);
	/* v3.5 BUG_ON(skb->nohdr) */
	km_skb_header_release(orig);
	assert_int_equal(reports(&f, KM_R_SKB_SHARING), 1);
	assert_int_equal(orig->shinfo->dataref, 0x10001);
	km_reports_clear(f.m);

	c = km_skb_clone(f.t, orig, KM_GFP_ATOMIC);
	assert_int_equal(c->shinfo->dataref, 0x10002);
	assert_int_equal(c->nohdr, 0);
	assert_int_equal(c->hdr_len, 224);
	assert_true(km_skb_cloned(c));
	assert_false(km_skb_header_cloned(c));
	/* the clone may write its header, within hdr_len */
	km_skb_push(c, 66);
	assert_true(km_skb_check_write(c, c->data, 66));
	assert_int_equal(reports(&f, KM_R_NONE), 0);
	/* ... but not the payload, and the nohdr owner nothing */
	assert_false(km_skb_check_write(c, c->data + 66, 1));
	assert_false(km_skb_check_write(orig, orig->data - 4, 4));
	assert_int_equal(reports(&f, KM_R_SKB_SHARING), 2);
	km_reports_clear(f.m);

	/* a packet tap clones the clone: now header-cloned */
	tap = km_skb_clone(f.t, c, KM_GFP_ATOMIC);
	assert_int_equal(c->shinfo->dataref, 0x10003);
	assert_true(km_skb_header_cloned(c));
	assert_false(km_skb_check_write(c, c->data, 4));
	km_reports_clear(f.m);

	/* frees in any order: the ACKed original first */
	km_kfree_skb(orig);
	assert_int_equal(c->shinfo->dataref, 2);
	km_kfree_skb(tap);
	assert_int_equal(c->shinfo->dataref, 1);
	km_kfree_skb(c);
}

/* skb_header_release() (include/linux/skbuff.h, v3.5): "the owner of this
 * skb will no longer access the header" -- also a clone that had a
 * writable header: the original (released), a clone with hdr_len 224, a
 * clone of that (the header still one writer's: 3 references, 1 nohdr),
 * then the first clone releases its header too (3 references, 2 nohdr:
 * the third clone alone may write it). The first clone's write into its
 * old hdr_len window is a KM_R_SKB_WRITE_CLONED BUG; the third's is
 * allowed. */
static void test_header_release_of_a_clone(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *orig, *c, *c2;

	orig = mk(&f, 1448 + 224, 224, 1448, 0);
	km_skb_header_release(orig);
	c = km_skb_clone(f.t, orig, KM_GFP_ATOMIC);
	c2 = km_skb_clone(f.t, c, KM_GFP_ATOMIC);
	assert_int_equal(c2->hdr_len, 224);
	km_skb_header_release(c);
	assert_int_equal(c->shinfo->dataref, 0x20003);
	assert_int_equal(c->hdr_len, 224);
	assert_false(km_skb_check_write(c, c->head + 200, 4));
	assert_int_equal(reports(&f, KM_R_SKB_WRITE_CLONED), 1);
	assert_true(km_skb_check_write(c2, c2->head + 200, 4));
	assert_int_equal(reports(&f, KM_R_NONE), 1);
	km_reports_clear(f.m);
	km_kfree_skb(c2);
	km_kfree_skb(c);
	km_kfree_skb(orig);
}

static void test_copy_and_copy_expand(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb, *c, *n;
	struct km_events ev;
	unsigned char pat[300];

	for (unsigned int i = 0; i < sizeof(pat); i++)
		pat[i] = (unsigned char)(i * 13 + 1);
	skb = km_alloc_skb(f.t, 400, KM_GFP_KERNEL);
	km_skb_reserve(skb, 40);
	km_skb_put(skb, 300);
	memcpy(skb->head, pat, 40);		/* headroom bytes */
	memcpy(skb->data, pat, 300);
	c = km_skb_clone(f.t, skb, KM_GFP_ATOMIC);

	n = km_skb_copy(f.t, c, KM_GFP_ATOMIC);
	assert_non_null(n);
	assert_int_equal(km_skb_headroom(n), 40);
	assert_int_equal(n->len, 300);
	assert_memory_equal(n->data, pat, 300);
	assert_memory_equal(n->head, pat, 40);
	assert_false(km_skb_cloned(n));
	assert_int_equal(n->shinfo->dataref, 1);
	km_kfree_skb(n);

	/* more headroom than the original: the old headroom lands right
	 * before data, the new tail has at least the asked tailroom */
	n = km_skb_copy_expand(f.t, c, 64, 4, KM_GFP_ATOMIC);
	assert_non_null(n);
	assert_int_equal(km_skb_headroom(n), 64);
	assert_true(km_skb_tailroom(n) >= 4);
	assert_memory_equal(n->data, pat, 300);
	assert_memory_equal(n->data - 40, pat, 40);
	assert_int_equal(n->shinfo->dataref, 1);
	assert_false(n->cloned);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.skb_copies, 2);
	assert_int_equal(ev.skb_copy_bytes, 340 + 340);
	km_kfree_skb(n);

	/* less headroom: only the last 4 bytes of it are copied */
	km_events_reset(f.m);
	n = km_skb_copy_expand(f.t, c, 4, 0, KM_GFP_ATOMIC);
	assert_int_equal(km_skb_headroom(n), 4);
	assert_memory_equal(n->data - 4, pat + 36, 4);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.skb_copy_bytes, 304);
	assert_int_equal(ev.memcpy_bytes, 0);	/* skb_copy_bytes are not memcpy_bytes */
	km_kfree_skb(n);
	/* failure: NULL, the source untouched */
	km_fault_fail_kmalloc_nth(f.m, 1);
	assert_null(km_skb_copy_expand(f.t, c, 4, 4, KM_GFP_ATOMIC));
	assert_int_equal(c->shinfo->dataref, 2);
	km_kfree_skb(c);
	km_kfree_skb(skb);
}

static void test_pskb_expand_head_and_cow(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb, *c;
	unsigned char *old_head;
	unsigned char pat[100];

	for (unsigned int i = 0; i < sizeof(pat); i++)
		pat[i] = (unsigned char)(i + 5);
	skb = km_alloc_skb(f.t, 200, KM_GFP_KERNEL);
	km_skb_reserve(skb, 8);
	memcpy(km_skb_put(skb, 100), pat, 100);
	c = km_skb_clone(f.t, skb, KM_GFP_ATOMIC);
	old_head = skb->head;
	/* header-cloned: skb_cow_head(4) must unshare, even with headroom 8 */
	assert_int_equal(km_skb_cow_head(f.t, c, 4), 0);
	assert_ptr_not_equal(c->head, old_head);
	assert_int_equal(c->shinfo->dataref, 1);
	assert_false(c->cloned);
	assert_memory_equal(c->data, pat, 100);
	/* delta 0 -> ALIGN(0, NET_SKB_PAD) = 0 more headroom */
	assert_int_equal(km_skb_headroom(c), 8);
	assert_int_equal(skb->shinfo->dataref, 1);
	assert_ptr_equal(skb->head, old_head);
	/* now private with enough headroom: a no-op */
	old_head = c->head;
	assert_int_equal(km_skb_cow_head(f.t, c, 8), 0);
	assert_ptr_equal(c->head, old_head);
	/* headroom 9 > 8: delta 1 -> ALIGN(1, 64) = 64 more */
	assert_int_equal(km_skb_cow_head(f.t, c, 9), 0);
	assert_int_equal(km_skb_headroom(c), 8 + 64);
	assert_memory_equal(c->data, pat, 100);
	/* BUG_ON(nhead < 0) */
	assert_int_equal(km_pskb_expand_head(f.t, c, -1, 0, KM_GFP_ATOMIC), -EINVAL);
	assert_int_equal(reports(&f, KM_R_SKB_UNDER), 1);
	km_reports_clear(f.m);
	km_kfree_skb(c);
	km_kfree_skb(skb);
}

static void test_double_free_and_shared(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb;

	skb = km_alloc_skb(f.t, 100, KM_GFP_KERNEL);
	km_skb_get(skb);
	assert_true(km_skb_shared(skb));
	km_skb_put(skb, 4);	/* in-place change of a shared skb */
	assert_int_equal(reports(&f, KM_R_SKB_SHARING), 1);
	km_kfree_skb(skb);	/* users 2 -> 1 */
	km_kfree_skb(skb);	/* freed */
	km_kfree_skb(skb);	/* double free */
	assert_int_equal(reports(&f, KM_R_SKB_REFCOUNT), 1);
	assert_null(km_skb_clone(f.t, skb, KM_GFP_ATOMIC));	/* clone of a freed skb */
	assert_int_equal(reports(&f, KM_R_SKB_REFCOUNT), 2);
	km_reports_clear(f.m);
}

static void test_leak_reported(void **state)
{
	struct km_machine *m;
	struct km_task *t;
	struct km_skb *skb;

	assert_int_equal(km_machine_new(NULL, &m), 0);
	assert_int_equal(km_task_new(m, NULL, 0, &t), 0);
	skb = km_alloc_skb(t, 100, KM_GFP_KERNEL);
	assert_non_null(km_skb_clone(t, skb, KM_GFP_ATOMIC));
	km_kfree_skb(skb);
	km_task_free(t);
	/* one clone left: the skb, its buffer, the kmalloc object */
	assert_int_equal(km_machine_check(m), 3);
	assert_int_equal(km_report_count(m, KM_R_LEAK_SKB), 2);
	km_test_destroy_expecting(m, 3);
}

static void test_ll_reserved_space(void **state)
{
	struct km_net_device dev;
	struct km_machine *m;
	struct km_machine_config cfg = { .l1_cache_bytes = 128 };

	km_net_device_init_ether(&dev);
	assert_int_equal(dev.hard_header_len, 14);
	assert_int_equal(km_ll_reserved_space(&dev), 16);	/* (14 & ~15) + 16 */
	dev.needed_headroom = 2;
	assert_int_equal(km_ll_reserved_space(&dev), 32);	/* (16 & ~15) + 16 */
	dev.needed_headroom = 4;
	assert_int_equal(km_ll_reserved_space(&dev), 32);	/* (18 & ~15) + 16 */
	assert_int_equal(km_machine_new(NULL, &m), 0);
	assert_int_equal(km_skb_net_pad(m), 64);
	assert_int_equal(km_machine_destroy(m), 0);
	assert_int_equal(km_machine_new(&cfg, &m), 0);
	assert_int_equal(km_skb_net_pad(m), 128);
	assert_int_equal(km_machine_destroy(m), 0);
}

static void test_traffic_shapes(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_net_device dev;
	struct km_traffic *tr;
	struct km_traffic_config cfg = { .kind = KM_TRAFFIC_TCP };
	struct km_skb *skb;

	km_net_device_init_ether(&dev);
	assert_int_equal(km_traffic_new(f.t, &dev, &cfg, &tr), 0);
	skb = km_traffic_next(tr);
	assert_int_equal(skb->len, 1514);
	assert_int_equal(skb->shinfo->dataref, 0x10002);
	assert_true(km_skb_cloned(skb));
	assert_false(km_skb_header_cloned(skb));
	assert_int_equal(km_skb_headroom(skb), 224 - 66);
	assert_true(km_traffic_verify(tr, skb->data, skb->len));
	km_kfree_skb(skb);
	km_traffic_free(tr);

	cfg.tap = true;
	assert_int_equal(km_traffic_new(f.t, &dev, &cfg, &tr), 0);
	skb = km_traffic_next(tr);
	assert_int_equal(skb->shinfo->dataref, 0x10003);
	assert_true(km_skb_header_cloned(skb));
	km_kfree_skb(skb);
	km_traffic_free(tr);

	/* UDP: private, headroom LL_RESERVED_SPACE - 14 */
	cfg = (struct km_traffic_config){ .kind = KM_TRAFFIC_UDP };
	assert_int_equal(km_traffic_new(f.t, &dev, &cfg, &tr), 0);
	skb = km_traffic_next(tr);
	assert_int_equal(skb->len, 1514);
	assert_int_equal(km_skb_headroom(skb), 2);
	assert_false(skb->cloned);
	assert_true(km_traffic_verify(tr, skb->data, skb->len));
	km_kfree_skb(skb);
	dev.needed_headroom = 4;
	skb = km_traffic_next(tr);
	assert_int_equal(km_skb_headroom(skb), 18);
	km_kfree_skb(skb);
	km_traffic_free(tr);

	cfg.payload = 70000;
	assert_int_equal(km_traffic_new(f.t, &dev, &cfg, &tr), -EINVAL);
	assert_int_equal(reports(&f, KM_R_NONE), 0);
}

static unsigned int be16(const uint8_t *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)be16(p) << 16 | be16(p + 2);
}

/* the one's complement sum of the 20-byte IPv4 header at @ip (RFC 1071):
 * 0xffff when its checksum is right */
static unsigned int ip_sum(const uint8_t *ip)
{
	uint32_t sum = 0;

	for (int i = 0; i < 20; i += 2)
		sum += be16(ip + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

/* The senders' headers as the protocols define them, not as the sender
 * itself checks them (km_traffic_verify() compares with its own bytes):
 * the IPv4 total length counts the IP header and what follows it (RFC
 * 791), the UDP length its 8-byte header and the payload (RFC 768); TCP
 * sequence numbers advance by the bytes sent, an MSS per segment (RFC
 * 793); a routed frame leaves with its TTL one less (ip_decrease_ttl())
 * and a header checksum that sums to 0xffff (RFC 1071). A frame cut short
 * is no match (km_traffic_mismatch(): the shorter length), and an MSS past
 * 65535 - 66 is refused (kmodel/traffic.h). */
static void test_traffic_headers(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_net_device dev;
	struct km_traffic *tr;
	struct km_traffic_config cfg = { .kind = KM_TRAFFIC_UDP };
	struct km_skb *skb;
	uint32_t seq;
	int want, got;

	km_net_device_init_ether(&dev);
	assert_int_equal(km_traffic_new(f.t, &dev, &cfg, &tr), 0);
	skb = km_traffic_next(tr);
	assert_int_equal(be16(skb->data + 12), 0x0800);		/* ETH_P_IP */
	assert_int_equal(be16(skb->data + 14 + 2), 20 + 8 + KM_UDP_PAYLOAD_DEFAULT);
	assert_int_equal(skb->data[14 + 9], 17);		/* IPPROTO_UDP */
	assert_int_equal(be16(skb->data + 34 + 4), 8 + KM_UDP_PAYLOAD_DEFAULT);
	/* the frame less its last byte: a prefix, so the mismatch is there */
	assert_int_equal(km_traffic_mismatch(tr, skb->data, skb->len - 1, &want, &got),
			 (long)skb->len - 1);
	assert_int_equal(want, skb->data[skb->len - 1]);
	assert_int_equal(got, -1);
	assert_int_equal(km_traffic_mismatch(tr, skb->data, skb->len, NULL, NULL), -1);
	km_kfree_skb(skb);
	km_traffic_free(tr);

	cfg = (struct km_traffic_config){ .kind = KM_TRAFFIC_TCP };
	assert_int_equal(km_traffic_new(f.t, &dev, &cfg, &tr), 0);
	skb = km_traffic_next(tr);
	assert_int_equal(be16(skb->data + 14 + 2), 20 + 32 + KM_TCP_MSS_DEFAULT);
	seq = be32(skb->data + 34 + 4);
	km_kfree_skb(skb);
	skb = km_traffic_next(tr);
	assert_int_equal(be32(skb->data + 34 + 4) - seq, KM_TCP_MSS_DEFAULT);
	km_kfree_skb(skb);
	km_traffic_free(tr);
	cfg.payload = 65535 - KM_TCP_HDRS;
	assert_int_equal(km_traffic_new(f.t, &dev, &cfg, &tr), 0);
	km_traffic_free(tr);
	cfg.payload++;
	assert_int_equal(km_traffic_new(f.t, &dev, &cfg, &tr), -EINVAL);

	cfg = (struct km_traffic_config){ .kind = KM_TRAFFIC_FORWARD };
	assert_int_equal(km_traffic_new(f.t, &dev, &cfg, &tr), 0);
	skb = km_traffic_next(tr);
	assert_int_equal(skb->data[14 + 8], 64 - 1);		/* sent with TTL 64 */
	assert_int_equal(ip_sum(skb->data + 14), 0xffff);
	km_kfree_skb(skb);
	km_traffic_free(tr);
	assert_int_equal(reports(&f, KM_R_NONE), 0);
}

/* Fix 1: size arithmetic never wraps into a small buffer or UB. In v3.5
 * skb_copy_expand() sums newheadroom + len + newtailroom as unsigned int
 * and skb_cow_head() ALIGNs an unsigned delta: both wrap near 4 GiB; the
 * model refuses (NULL / -ENOMEM, km_last_error()) since KMALLOC_MAX_SIZE
 * (4 MiB with 4 KiB pages) is far below any such size. */
static void test_huge_sizes(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb;
	struct km_events ev;
	unsigned char *data, *tail;

	skb = mk(&f, 100, 40, 60, 0);
	data = skb->data;
	tail = skb->tail;
	km_events_reset(f.m);
	/* INT_MAX + 60 + INT_MAX = 2^32 + 58: wraps to 58 as unsigned int */
	assert_null(km_skb_copy_expand(f.t, skb, INT_MAX, INT_MAX, KM_GFP_ATOMIC));
	assert_non_null(strstr(km_last_error(), "skb_copy_expand"));
	/* 2^31 - 1 + 60 fits 32 bits but is past KMALLOC_MAX_SIZE */
	assert_null(km_skb_copy_expand(f.t, skb, INT_MAX, 0, KM_GFP_ATOMIC));
	assert_null(km_skb_copy_expand(f.t, skb, 0, INT_MAX, KM_GFP_ATOMIC));
	assert_null(km_alloc_skb(f.t, UINT_MAX, KM_GFP_ATOMIC));
	km_events_get(f.m, &ev);
	assert_int_equal(ev.skb_copies, 0);
	assert_int_equal(ev.skb_allocs, 0);
	/* ALIGN(UINT_MAX - 40, 64) wraps to 0 in the kernel: here -ENOMEM */
	assert_int_equal(km_skb_cow_head(f.t, skb, UINT_MAX), -ENOMEM);
	assert_int_equal(km_pskb_expand_head(f.t, skb, INT_MAX, INT_MAX, KM_GFP_ATOMIC),
			 -ENOMEM);
	assert_ptr_equal(skb->data, data);
	assert_ptr_equal(skb->tail, tail);
	assert_int_equal(km_skb_headroom(skb), 40);
	/* the 4 sizes that reach kmalloc past KMALLOC_MAX_SIZE are its
	 * order >= MAX_ORDER WARN (mm/page_alloc.c) and nothing else */
	assert_int_equal(reports(&f, KM_R_ALLOC_TOO_LARGE), 4);
	assert_int_equal(reports(&f, KM_R_NONE), 4);
	km_reports_clear(f.m);
	/* push/put/reserve/set_tail_pointer far out: reports, skb unchanged */
	assert_ptr_equal(km_skb_push(skb, UINT_MAX), data);
	assert_int_equal(reports(&f, KM_R_SKB_UNDER), 1);
	assert_ptr_equal(km_skb_put(skb, UINT_MAX), tail);
	km_skb_reserve(skb, INT_MAX);
	km_skb_reserve(skb, INT_MIN);
	assert_int_equal(reports(&f, KM_R_SKB_OVER), 3);
	/* set_tail_pointer does what the kernel does, far out too: no report */
	km_skb_set_tail_pointer(skb, INT_MAX);
	km_skb_set_tail_pointer(skb, INT_MIN);
	assert_int_equal(reports(&f, KM_R_SKB_OVER), 3);
	km_skb_set_tail_pointer(skb, (int)skb->len);
	km_skb_copy_to_linear_data_offset(skb, INT_MIN, "x", 1);
	km_skb_copy_to_linear_data_offset(skb, INT_MAX, "x", 1);
	assert_int_equal(reports(&f, KM_R_SKB_SHARING), 2);
	assert_ptr_equal(skb->data, data);
	assert_ptr_equal(skb->tail, tail);
	assert_int_equal(skb->len, 60);
	km_reports_clear(f.m);
	km_kfree_skb(skb);
}

/* Fix 2: a task of machine B working on an skb of machine A would allocate
 * from B's slabs and attach the buffer to A's skb (a foreign kfree at the
 * end). Every such call is a KM_R_UNEXPECTED BUG on A and changes nothing. */
static void test_cross_machine(void **state)
{
	struct fx a, b;
	struct km_skb *skb, *c;
	unsigned char *head, *data;
	struct km_events ev;

	fx_up(&a);
	fx_up(&b);
	km_task_switch(a.t);
	skb = mk(&a, 200, 16, 100, 1);
	c = km_skb_clone(a.t, skb, KM_GFP_ATOMIC);
	head = skb->head;
	data = skb->data;
	km_events_reset(a.m);
	km_events_reset(b.m);
	assert_null(km_skb_clone(b.t, skb, KM_GFP_ATOMIC));
	assert_null(km_skb_copy(b.t, skb, KM_GFP_ATOMIC));
	assert_null(km_skb_copy_expand(b.t, skb, 4, 4, KM_GFP_ATOMIC));
	assert_int_equal(km_pskb_expand_head(b.t, c, 64, 0, KM_GFP_ATOMIC), -EINVAL);
	assert_int_equal(km_skb_cow_head(b.t, c, 64), -EINVAL);
	assert_int_equal(reports(&a, KM_R_UNEXPECTED), 5);
	assert_int_equal(km_report_count(b.m, KM_R_NONE), 0);
	/* nothing changed on either machine */
	assert_ptr_equal(skb->head, head);
	assert_ptr_equal(c->head, head);
	assert_ptr_equal(c->data, data);
	assert_int_equal(skb->shinfo->dataref, 2);
	assert_true(c->cloned);
	km_events_get(a.m, &ev);
	assert_int_equal(ev.skb_clones + ev.skb_copies + ev.skb_allocs, 0);
	km_events_get(b.m, &ev);
	assert_int_equal(ev.skb_clones + ev.skb_copies + ev.skb_allocs + ev.kmalloc_calls, 0);
	km_reports_clear(a.m);
	km_kfree_skb(c);
	km_kfree_skb(skb);
	km_task_switch(NULL);
	km_task_free(b.t);
	assert_int_equal(km_machine_destroy(b.m), 0);
	km_task_switch(a.t);
	fx_down(&a);
}

/* Fix 3: v3.5 skb_copy() allocates skb_end_offset(skb) + data_len, so the
 * tailroom is kept. alloc_skb(1000): 1024 + 192 -> kmalloc-2048, end 1856;
 * reserve 16, put 10: tailroom 1830. The copy: alloc_skb(1856): 1856 + 192
 * = 2048 -> kmalloc-2048, end 1856, reserve 16, put 10: tailroom 1830 (a
 * headroom + len allocation would give alloc_skb(26): end 128, tailroom
 * 102). */
static void test_copy_keeps_tailroom(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb, *n;
	struct km_events ev;

	skb = mk(&f, 1000, 16, 10, 0xa5);
	assert_int_equal(skb->end - skb->head, 1856);
	assert_int_equal(km_skb_tailroom(skb), 1830);
	km_events_reset(f.m);
	n = km_skb_copy(f.t, skb, KM_GFP_ATOMIC);
	assert_non_null(n);
	assert_int_equal(n->end - n->head, 1856);
	assert_int_equal(km_skb_tailroom(n), 1830);
	assert_int_equal(km_skb_headroom(n), 16);
	assert_int_equal(n->len, 10);
	assert_memory_equal(n->data, skb->data, 10);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.kmalloc_bytes, 2048);
	assert_int_equal(ev.skb_copy_bytes, 26);
	km_kfree_skb(n);
	km_kfree_skb(skb);
}

/* Fix 4: the public boundary never crashes the host: NULL skb, NULL task,
 * NULL net_device give 0/NULL/false/-EINVAL and km_last_error() names the
 * call; with an skb there is a machine, and it records nothing new. */
static void test_null_arguments(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb;

	assert_int_equal(km_skb_headroom(NULL), 0);
	assert_non_null(strstr(km_last_error(), "skb_headroom"));
	assert_int_equal(km_skb_tailroom(NULL), 0);
	assert_null(km_skb_tail_pointer(NULL));
	km_skb_set_tail_pointer(NULL, 0);
	km_skb_reserve(NULL, 16);
	assert_null(km_skb_push(NULL, 4));
	assert_null(km_skb_put(NULL, 4));
	assert_non_null(strstr(km_last_error(), "skb_put"));
	assert_null(km_skb_pull(NULL, 4));
	km_skb_trim(NULL, 4);
	assert_false(km_skb_cloned(NULL));
	assert_false(km_skb_header_cloned(NULL));
	assert_false(km_skb_shared(NULL));
	km_skb_header_release(NULL);
	assert_null(km_skb_get(NULL));
	assert_null(km_skb_clone(f.t, NULL, KM_GFP_ATOMIC));
	assert_null(km_skb_copy(f.t, NULL, KM_GFP_ATOMIC));
	assert_null(km_skb_copy_expand(f.t, NULL, 4, 4, KM_GFP_ATOMIC));
	assert_int_equal(km_pskb_expand_head(f.t, NULL, 4, 0, KM_GFP_ATOMIC), -EINVAL);
	assert_int_equal(km_skb_cow_head(f.t, NULL, 4), -EINVAL);
	assert_false(km_skb_check_write(NULL, "x", 1));
	km_skb_copy_to_linear_data_offset(NULL, 0, "x", 1);
	km_skb_note(NULL);
	km_kfree_skb(NULL);
	km_consume_skb(NULL);
	km_dev_kfree_skb_any(NULL);
	assert_int_equal(km_ll_reserved_space(NULL), 0);
	km_net_device_init_ether(NULL);
	assert_int_equal(km_skb_net_pad(NULL), 32);
	/* a real skb with a NULL task or NULL source */
	skb = mk(&f, 100, 16, 10, 3);
	assert_null(km_skb_clone(NULL, skb, KM_GFP_ATOMIC));
	assert_non_null(strstr(km_last_error(), "no task"));
	assert_null(km_skb_copy(NULL, skb, KM_GFP_ATOMIC));
	assert_null(km_skb_copy_expand(NULL, skb, 4, 4, KM_GFP_ATOMIC));
	assert_int_equal(km_pskb_expand_head(NULL, skb, 4, 0, KM_GFP_ATOMIC), -EINVAL);
	assert_int_equal(km_skb_cow_head(NULL, skb, 64), -EINVAL);
	km_skb_copy_to_linear_data_offset(skb, 0, NULL, 4);
	assert_int_equal(skb->shinfo->dataref, 1);
	assert_false(skb->cloned);
	assert_int_equal(km_skb_headroom(skb), 16);
	assert_int_equal(reports(&f, KM_R_NONE), 0);
	km_kfree_skb(skb);
}

/* Fix 5: with a LIFO struct cache the next alloc_skb got the struct just
 * freed, and a stale pointer's second kfree_skb freed that live skb. Now a
 * freed struct waits in a FIFO quarantine of KM_SKB_QUARANTINE: the stale
 * free is a KM_R_SKB_REFCOUNT BUG and the live skbs are untouched. The
 * residual limit is shown too: the (Q + 1)-th allocation reuses it. */
static void test_stale_free_after_reuse(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *stale, *live, *n;
	struct km_events ev;

	stale = mk(&f, 100, 0, 10, 1);
	km_kfree_skb(stale);
	live = mk(&f, 100, 0, 10, 2);
	assert_ptr_not_equal(live, stale);
	km_kfree_skb(stale);		/* the stale pointer, again */
	assert_int_equal(reports(&f, KM_R_SKB_REFCOUNT), 1);
	assert_null(km_skb_clone(f.t, stale, KM_GFP_ATOMIC));
	assert_int_equal(reports(&f, KM_R_SKB_REFCOUNT), 2);
	assert_int_equal(live->users, 1);
	assert_int_equal(live->shinfo->dataref, 1);
	assert_int_equal(live->data[0], 2);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.skb_frees, 1);
	km_kfree_skb(live);
	km_reports_clear(f.m);
	/* stale was freed first, then live: Q - 1 more frees keep it out */
	for (unsigned int i = 0; i < KM_SKB_QUARANTINE - 1; i++) {
		n = km_alloc_skb(f.t, 10, KM_GFP_ATOMIC);
		assert_ptr_not_equal(n, stale);
		km_kfree_skb(n);
	}
	n = km_alloc_skb(f.t, 10, KM_GFP_ATOMIC);
	assert_ptr_equal(n, stale);	/* the documented limit */
	km_kfree_skb(n);
	assert_int_equal(reports(&f, KM_R_NONE), 0);
}

/* KM_SKB_QUARANTINE's FIFO holds for any number of freed structs: with
 * 100 freed and 36 of them reused, 264 more frees (the quarantine past 128
 * and 256 waiting, its oldest no longer first in memory) leave the reuse
 * order the order of the frees. */
static void test_quarantine_fifo_many(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	enum { N = 300, FIRST = 100, AGAIN = FIRST - KM_SKB_QUARANTINE };
	struct km_skb *a[N], *order[N];
	unsigned int k = 0;

	for (unsigned int i = 0; i < N; i++)
		a[i] = km_alloc_skb(f.t, 10, KM_GFP_ATOMIC);
	for (unsigned int i = 0; i < FIRST; i++)
		km_kfree_skb(a[i]);
	for (unsigned int i = 0; i < AGAIN; i++) {	/* the oldest AGAIN come back */
		struct km_skb *n = km_alloc_skb(f.t, 10, KM_GFP_ATOMIC);

		assert_ptr_equal(n, a[i]);
	}
	for (unsigned int i = AGAIN; i < N; i++)	/* freed since: in this order */
		order[k++] = a[i];
	for (unsigned int i = 0; i < AGAIN; i++)
		order[k++] = a[i];
	for (unsigned int i = FIRST; i < N; i++)
		km_kfree_skb(a[i]);
	for (unsigned int i = 0; i < AGAIN; i++)
		km_kfree_skb(a[i]);
	for (unsigned int i = 0; i < N - KM_SKB_QUARANTINE; i++) {
		a[i] = km_alloc_skb(f.t, 10, KM_GFP_ATOMIC);
		assert_ptr_equal(a[i], order[i]);
	}
	for (unsigned int i = 0; i < N - KM_SKB_QUARANTINE; i++)
		km_kfree_skb(a[i]);
	assert_int_equal(reports(&f, KM_R_NONE), 0);
}

/*
 * pskb_expand_head() of v3.5 (net/core/skbuff.c) always kmallocs a new head:
 * size = SKB_DATA_ALIGN(nhead + skb_end_offset(skb) + ntail), kmalloc(size +
 * SKB_DATA_ALIGN(sizeof(struct skb_shared_info))), end = SKB_WITH_OVERHEAD(
 * ksize), memcpy of head..tail to data + nhead; then skb_release_data() when
 * skb_cloned(), else skb_free_head(). The ksize() in-place memmove is v3.4's
 * (the 2012 Android 3.4 skbuff.c has it; the June 2012 pre-image of "netvm:
 * Allow skb allocation to use PFMEMALLOC reserves", v3.5-rc, does not).
 * A TCP-shaped original (header released, its clone freed: dataref 0x10001,
 * skb_cloned() false) expanded by (0, 0): kmalloc(320 + 192) = kmalloc-512,
 * end 320, the 16 + 100 bytes copied, the old buffer freed, cloned, nohdr,
 * hdr_len 0 and dataref 1. Fails with the v3.4 path (the head would stay).
 */
static void test_pskb_expand_head_v35_allocates(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb, *c;
	struct km_events ev;
	unsigned char *head;
	size_t skbs, bufs;

	skb = mk(&f, 100, 16, 100, 9);
	km_skb_header_release(skb);
	c = km_skb_clone(f.t, skb, KM_GFP_ATOMIC);
	km_kfree_skb(c);
	assert_int_equal(skb->shinfo->dataref, 0x10001);
	assert_true(skb->cloned);
	head = skb->head;
	km_events_reset(f.m);
	assert_int_equal(km_pskb_expand_head(f.t, skb, 0, 0, KM_GFP_ATOMIC), 0);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.kmalloc_calls, 1);
	assert_int_equal(ev.kfree_calls, 1);		/* skb_free_head() */
	assert_int_equal(ev.skb_copies, 1);
	assert_int_equal(ev.skb_copy_bytes, 116);
	assert_int_equal(ev.memmove_bytes, 0);
	assert_ptr_not_equal(skb->head, head);
	assert_int_equal(km_skb_headroom(skb), 16);
	assert_int_equal(skb->end - skb->head, 320);
	assert_int_equal(skb->shinfo->dataref, 1);
	assert_false(skb->cloned);
	assert_false(skb->nohdr);
	assert_int_equal(skb->data[0], 9);
	assert_int_equal(skb->data[99], 9);
	km_skb_live(f.m, &skbs, &bufs);
	assert_int_equal(bufs, 1);
	/* a private, never cloned skb: a new head again */
	head = skb->head;
	assert_int_equal(km_pskb_expand_head(f.t, skb, 0, 0, KM_GFP_ATOMIC), 0);
	assert_ptr_not_equal(skb->head, head);
	/* skb_cloned(): the old buffer's reference is dropped, its other holder
	 * keeps it (dataref 2 -> 1) and its bytes */
	c = km_skb_clone(f.t, skb, KM_GFP_ATOMIC);
	head = skb->head;
	assert_int_equal(km_pskb_expand_head(f.t, skb, 64, 0, KM_GFP_ATOMIC), 0);
	assert_ptr_equal(c->head, head);
	assert_int_equal(c->shinfo->dataref, 1);
	assert_false(km_skb_cloned(c));
	assert_int_equal(c->data[50], 9);
	/* nhead 64: SKB_DATA_ALIGN(64 + 320) = 384, kmalloc(576) -> 1024 */
	assert_int_equal(km_skb_headroom(skb), 80);
	assert_int_equal(skb->end - skb->head, 1024 - 192);
	assert_int_equal(skb->data[99], 9);
	km_kfree_skb(c);
	km_kfree_skb(skb);
	assert_int_equal(reports(&f, KM_R_NONE), 0);
}

/*
 * A negative ntail follows the kernel's arithmetic, ksize rounding included
 * (v3.5 pskb_expand_head()): alloc_skb(256) (end 320), skb_put(300),
 * pskb_expand_head(skb, 0, -100): size = SKB_DATA_ALIGN(0 + 320 - 100) = 256,
 * kmalloc(256 + 192) is a 512-byte object, end = SKB_WITH_OVERHEAD(512) =
 * 320 >= tail 300: 0. Refused (KM_R_SKB_OVER, skb unchanged) only where the
 * copy of head..tail would run past the new buffer: ntail -260 gives
 * SKB_DATA_ALIGN(60) = 64, kmalloc(256), end 64 < 300. A sum below zero is
 * a ~4 GiB size_t on 32-bit ARM: kmalloc fails (its order WARN), -ENOMEM;
 * a sum of exactly 0 is kmalloc(0), ZERO_SIZE_PTR: refused.
 */
static void test_pskb_expand_head_negative_ntail_ksize(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb;
	unsigned char *head;
	size_t skbs, bufs;

	skb = mk(&f, 256, 0, 300, 0x33);
	assert_int_equal(skb->end - skb->head, 320);
	assert_int_equal(km_pskb_expand_head(f.t, skb, 0, -100, KM_GFP_ATOMIC), 0);
	assert_int_equal(reports(&f, KM_R_NONE), 0);
	assert_int_equal(skb->end - skb->head, 320);
	assert_int_equal(skb->len, 300);
	assert_int_equal(skb->data[299], 0x33);
	head = skb->head;
	assert_int_equal(km_pskb_expand_head(f.t, skb, 0, -260, KM_GFP_ATOMIC), -EINVAL);
	assert_int_equal(reports(&f, KM_R_SKB_OVER), 1);
	assert_ptr_equal(skb->head, head);
	assert_int_equal(skb->end - skb->head, 320);
	km_skb_live(f.m, &skbs, &bufs);
	assert_int_equal(bufs, 1);			/* the new object went back */
	/* -600: SKB_DATA_ALIGN(-280) = -256, -256 + 192 < 0 */
	assert_int_equal(km_pskb_expand_head(f.t, skb, 0, -600, KM_GFP_ATOMIC), -ENOMEM);
	assert_int_equal(reports(&f, KM_R_ALLOC_TOO_LARGE), 1);
	/* -512: SKB_DATA_ALIGN(-192) = -192, kmalloc(0) */
	assert_int_equal(km_pskb_expand_head(f.t, skb, 0, -512, KM_GFP_ATOMIC), -EINVAL);
	assert_int_equal(reports(&f, KM_R_SKB_OVER), 2);
	assert_ptr_equal(skb->head, head);
	km_reports_clear(f.m);
	km_kfree_skb(skb);
}

/* Fix 8: skb_shared_info depends on PAGE_SIZE in v3.5: MAX_SKB_FRAGS =
 * max(16, 65536 / PAGE_SIZE + 2), frags of 8 bytes (12 with 64 KiB pages).
 *   4 KiB: 44 + 18 x 8 = 188 -> 192;  16 KiB: 44 + 16 x 8 = 172 -> 176;
 *  64 KiB: 44 + 16 x 12 = 236 -> 240, SKB_DATA_ALIGN(240) = 256.
 * alloc_skb(100) on a 64 KiB-page machine: kmalloc(128 + 256 = 384) ->
 * kmalloc-512, end = 512 - 256 = 256 (it was 320 with a fixed 192). */
static void test_shinfo_by_page_size(void **state)
{
	static const struct { unsigned long ps; unsigned int shinfo, end; } c[] = {
		{ 4096, 192, 320 }, { 16384, 176, 320 }, { 65536, 240, 256 },
	};

	for (size_t i = 0; i < 3; i++) {
		struct km_machine_config cfg = { .page_size = c[i].ps };
		struct fx f;
		struct km_skb *skb;

		fx_up_cfg(&f, &cfg);
		assert_int_equal(km_skb_shinfo_size(f.m), c[i].shinfo);
		skb = km_alloc_skb(f.t, 100, KM_GFP_KERNEL);
		assert_non_null(skb);
		assert_int_equal(km_kmalloc_size_roundup(f.m, 128 + align_up(c[i].shinfo, 64)),
				 512);
		assert_int_equal(skb->end - skb->head, c[i].end);
		assert_int_equal(km_skb_tailroom(skb), c[i].end);
		km_skb_reserve(skb, 16);
		assert_int_equal(km_skb_tailroom(skb), c[i].end - 16);
		km_kfree_skb(skb);
		fx_down(&f);
	}
	assert_int_equal(km_skb_shinfo_size(NULL), KM_SKB_SHINFO_SIZE);
}

/* __alloc_skb() (v3.5) zeroes the shared info past end (memset(shinfo, 0,
 * offsetof(struct skb_shared_info, dataref))); the model zeroes the whole
 * area, so a read past end finds zeros, not the bytes of the kmalloc
 * object's last user: the same object (kmalloc's free list is LIFO) comes
 * back clean, at each SKB_DATA_ALIGN(shinfo) -- 192 (4 KiB pages, L1 64),
 * 256 (64 KiB pages, or L1 128). */
static void test_alloc_zeroes_shinfo_area(void **state)
{
	static const struct { unsigned long ps; unsigned int line, space; } c[] = {
		{ 4096, 64, 192 }, { 65536, 64, 256 }, { 4096, 128, 256 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(c); i++) {
		struct km_machine_config cfg = { .page_size = c[i].ps,
						 .l1_cache_bytes = c[i].line };
		struct fx f;
		struct km_skb *skb;
		unsigned char *head;

		fx_up_cfg(&f, &cfg);
		skb = km_alloc_skb(f.t, 1000, KM_GFP_KERNEL);
		assert_non_null(skb);
		head = skb->head;
		assert_int_equal(km_ksize(f.m, head) - (size_t)(skb->end - head), c[i].space);
		memset(skb->end, 0xa5, c[i].space);	/* the last user's bytes */
		km_kfree_skb(skb);
		skb = km_alloc_skb(f.t, 1000, KM_GFP_KERNEL);
		assert_ptr_equal(skb->head, head);
		for (unsigned int b = 0; b < c[i].space; b++)
			if (skb->end[b])
				fail_msg("page %lu, L1 %u: byte %u past end is %#x", c[i].ps,
					 c[i].line, b, skb->end[b]);
		km_kfree_skb(skb);
		fx_down(&f);
	}
}

/* ---- skb_pad() of clones, negative room, skb_cow_head() of shared skbs, compat
 * writes into any live buffer, a code per sharing rule, len past the buffer,
 * header-cloned TCP: defects an outside review found, a test each ---------- */

/* Defect 1: a negative ntail is legal. v3.5 skb_pad() (net/core/skbuff.c)
 * unshares a cloned skb with pskb_expand_head(skb, 0, ntail) where ntail =
 * data_len + pad - tailroom < 0 when the tailroom suffices: padding a
 * 54-byte TCP ACK (14 + 20 + 20) to ETH_ZLEN (60) with skb_padto(). Right
 * value: 0, a private skb, 6 zero bytes after the data, no report. */
static void test_skb_pad_clone_negative_ntail(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb, *c;
	unsigned char after[6];

	/* alloc_skb(256): kmalloc(256 + 192) -> kmalloc-512, end = 320 */
	skb = mk(&f, 256, 0, 54, 0x5a);
	assert_int_equal(km_skb_tailroom(skb), 266);
	memset(skb->tail, 0xee, 6);	/* what the original's tailroom holds */
	c = km_skb_clone(f.t, skb, KM_GFP_ATOMIC);
	assert_int_equal(km_skb_padto(f.t, c, 60), 0);	/* skb_pad(c, 6) */
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	assert_false(km_skb_cloned(c));
	assert_ptr_not_equal(c->head, skb->head);
	assert_int_equal(c->shinfo->dataref, 1);
	assert_int_equal(c->len, 54);		/* skb_pad() leaves len */
	/* size = 0 + 320 - 260 = 60 -> SKB_DATA_ALIGN 64; kmalloc(64 + 192)
	 * -> kmalloc-256, SKB_WITH_OVERHEAD: end = 64 */
	assert_int_equal(c->end - c->head, 64);
	memset(after, 0, sizeof(after));
	assert_memory_equal(c->data + 54, after, 6);
	for (int i = 0; i < 54; i++)
		assert_int_equal(c->data[i], 0x5a);
	/* the original and its tailroom untouched, no longer cloned */
	assert_int_equal(skb->shinfo->dataref, 1);
	assert_false(km_skb_cloned(skb));
	for (int i = 0; i < 6; i++)
		assert_int_equal(skb->tail[i], 0xee);
	/* a private skb with the tailroom: padded in place */
	assert_int_equal(km_skb_pad(f.t, skb, 6), 0);
	assert_memory_equal(skb->data + 54, after, 6);
	assert_int_equal(km_skb_padto(f.t, skb, 54), 0);	/* long enough */
	/* ntail that leaves no room for the data: SKB_DATA_ALIGN(320 - 400) =
	 * -64, kmalloc(128), end -64: the kernel would copy past the new
	 * buffer; reported, nothing changed */
	assert_int_equal(km_pskb_expand_head(f.t, skb, 0, -400, KM_GFP_ATOMIC), -EINVAL);
	assert_int_equal(reports(&f, KM_R_SKB_OVER), 1);
	assert_int_equal(km_skb_pad(f.t, skb, -1), -EINVAL);
	assert_int_equal(reports(&f, KM_R_SKB_OVER), 2);
	km_reports_clear(f.m);
	km_kfree_skb(c);
	km_kfree_skb(skb);
}

/* skb_pad() frees the skb when the expand fails, as v3.5's does. */
static void test_skb_pad_failure_frees(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb, *c;

	skb = mk(&f, 256, 0, 54, 1);
	c = km_skb_clone(f.t, skb, KM_GFP_ATOMIC);
	km_fault_fail_kmalloc_nth(f.m, 1);
	assert_int_equal(km_skb_pad(f.t, c, 6), -ENOMEM);
	assert_int_equal(skb->shinfo->dataref, 1);	/* c is gone */
	km_kfree_skb(skb);
}

/* skb_copy_expand(): a negative newtailroom is legal while the buffer still
 * holds len (v3.5: alloc_skb(newheadroom + len + newtailroom)); a negative
 * newheadroom puts data before head. */
static void test_copy_expand_negative_room(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb, *n;

	skb = mk(&f, 256, 16, 100, 3);
	/* alloc_skb(4 + 100 - 20): kmalloc(128 + 192) -> kmalloc-512, end 320 */
	n = km_skb_copy_expand(f.t, skb, 4, -20, KM_GFP_ATOMIC);
	assert_non_null(n);
	assert_int_equal(n->len, 100);
	assert_int_equal(km_skb_headroom(n), 4);
	assert_int_equal(km_skb_tailroom(n), 320 - 104);
	assert_memory_equal(n->data, skb->data, 100);
	km_kfree_skb(n);
	/* alloc_skb(4 + 100 - 50): kmalloc(64 + 192) -> kmalloc-256, end 64:
	 * skb_put(100) is skb_over_panic */
	assert_null(km_skb_copy_expand(f.t, skb, 4, -50, KM_GFP_ATOMIC));
	assert_int_equal(reports(&f, KM_R_SKB_OVER), 1);
	km_reports_clear(f.m);
	assert_null(km_skb_copy_expand(f.t, skb, -4, 0, KM_GFP_ATOMIC));
	assert_int_equal(reports(&f, KM_R_SKB_UNDER), 1);
	assert_null(km_skb_copy_expand(f.t, skb, 0, -200, KM_GFP_ATOMIC));	/* sum < 0 */
	assert_int_equal(reports(&f, KM_R_NONE), 1);
	km_reports_clear(f.m);
	km_kfree_skb(skb);
}

/* Defect 3: skb_cow_head() of a shared skb that needs a new head reaches
 * pskb_expand_head(), which BUG()s on skb_shared(): the BUG is recorded,
 * -EINVAL, the skb as it was. Follows v3.5: include/linux/skbuff.h
 * skb_cow_head() -> __skb_cow() (delta > 0 or skb_header_cloned() ->
 * pskb_expand_head(skb, ALIGN(delta, NET_SKB_PAD), 0, GFP_ATOMIC)) and
 * net/core/skbuff.c pskb_expand_head() ("if (skb_shared(skb)) BUG();"). */
static void test_cow_head_shared(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb;
	unsigned char *head;

	skb = mk(&f, 200, 2, 100, 9);
	km_skb_get(skb);
	head = skb->head;
	assert_int_equal(km_skb_cow_head(f.t, skb, 4), -EINVAL);
	assert_int_equal(reports(&f, KM_R_SKB_EXPAND_SHARED), 1);
	assert_int_equal(reports(&f, KM_R_SKB_SHARING), 1);
	assert_ptr_equal(skb->head, head);
	assert_int_equal(km_skb_headroom(skb), 2);
	/* enough headroom, not cloned: __skb_cow() does nothing, no BUG */
	assert_int_equal(km_skb_cow_head(f.t, skb, 2), 0);
	assert_int_equal(reports(&f, KM_R_NONE), 1);
	km_reports_clear(f.m);
	km_kfree_skb(skb);
	km_kfree_skb(skb);
}

/* Defect 5: a write through the compatibility layer into any live skb
 * buffer is checked, not only into the last noted skb's. */
static void test_compat_write_any_buffer(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *x, *orig, *c, *y;
	unsigned char junk[8] = { 0 }, local[8];

	x = mk(&f, 100, 16, 10, 1);
	orig = mk(&f, 300, 64, 100, 2);
	km_skb_header_release(orig);
	c = km_skb_clone(f.t, orig, KM_GFP_ATOMIC);	/* a TCP clone pair */
	y = mk(&f, 100, 16, 10, 3);
	km_skb_note(x);
	/* into the clone pair's payload, while x is the noted skb */
	km_skb_compat_memcpy(c->data + 10, junk, 8);
	assert_int_equal(reports(&f, KM_R_SKB_WRITE_CLONED), 1);
	/* the checker observes: the bytes are written */
	assert_memory_equal(orig->data + 10, junk, 8);
	km_skb_compat_memmove(orig->data, junk, 4);
	km_skb_compat_memset(orig->head, 0, 4);		/* headroom of a cloned buffer */
	assert_int_equal(reports(&f, KM_R_SKB_WRITE_CLONED), 3);
	/* a private skb that is not the noted one: allowed */
	km_skb_compat_memcpy(y->data, junk, 8);
	assert_int_equal(reports(&f, KM_R_NONE), 3);
	/* ... unless shared */
	km_skb_get(y);
	km_skb_compat_memcpy(y->data, junk, 8);
	assert_int_equal(reports(&f, KM_R_SKB_WRITE_SHARED), 1);
	/* memory that is no skb's: nothing to check */
	km_skb_compat_memcpy(local, junk, 8);
	assert_int_equal(reports(&f, KM_R_NONE), 4);
	/* the noted skb may write its own header */
	km_skb_note(c);
	km_skb_compat_memcpy(c->data - 4, junk, 4);
	assert_int_equal(reports(&f, KM_R_NONE), 4);
	km_reports_clear(f.m);
	km_kfree_skb(y);
	km_kfree_skb(y);
	km_kfree_skb(c);
	km_kfree_skb(orig);
	km_kfree_skb(x);
}

/*
 * With the checker off (km_skb_set_checker()) bounds stay checked: a
 * compatibility-layer memcpy with no noted skb that would run past its
 * skb's kmalloc object (600 bytes from the head of a kmalloc-512 buffer:
 * over the next object of the slab) is not done and is reported; only the
 * sharing rules go unreported. Found by review: with the checker off and
 * no noted skb the write was done, over another skb's buffer.
 */
static void test_checker_off_keeps_bounds(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *v[9];
	unsigned char junk[600];

	memset(junk, 0xa5, sizeof(junk));
	for (int i = 0; i < 9; i++)
		v[i] = mk(&f, 300, 0, 10, i + 1);	/* kmalloc(320 + 192): 512 */
	km_kfree_skb(v[8]);		/* the noted skb goes: no skb is noted */
	km_skb_set_checker(f.m, false);
	km_skb_compat_memcpy(v[0]->head, junk, 600);
	assert_int_equal(reports(&f, KM_R_SKB_WRITE_OUTSIDE), 1);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 10; j++)
			assert_int_equal(v[i]->data[j], i + 1);
	/* inside the object past end (the shared-info area): done, no report */
	km_skb_compat_memcpy(v[0]->end, junk, 8);
	assert_int_equal(v[0]->end[7], 0xa5);
	/* a cloned buffer: the sharing rule goes unreported, the write is done */
	v[8] = km_skb_clone(f.t, v[1], KM_GFP_ATOMIC);
	km_skb_compat_memset(v[1]->data, 0, 4);
	assert_int_equal(v[8]->data[3], 0);
	assert_int_equal(reports(&f, KM_R_NONE), 1);
	/* the checker on: the same overrun reported, not done */
	km_skb_set_checker(f.m, true);
	km_skb_compat_memmove(v[2]->head, junk, 600);
	assert_int_equal(reports(&f, KM_R_SKB_WRITE_OUTSIDE), 2);
	assert_int_equal(v[2]->data[0], 3);
	km_reports_clear(f.m);
	for (int i = 0; i < 9; i++)
		km_kfree_skb(v[i]);
}

/* Defect 6: each sharing rule has its code; KM_R_SKB_SHARING counts them all. */
static void test_sharing_codes_apart(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb, *c;
	unsigned char b[4] = { 1, 2, 3, 4 };

	skb = mk(&f, 300, 64, 100, 2);
	km_skb_header_release(skb);
	km_skb_header_release(skb);			/* BUG_ON(skb->nohdr) */
	c = km_skb_clone(f.t, skb, KM_GFP_ATOMIC);
	km_skb_copy_to_linear_data_offset(c, 20, b, 4);	/* into the shared payload */
	km_skb_get(c);
	km_skb_push(c, 4);				/* push on a shared skb */
	assert_int_equal(km_pskb_expand_head(f.t, c, 0, 0, KM_GFP_ATOMIC), -EINVAL);
	km_skb_copy_to_linear_data_offset(c, 0, b, 4);	/* write into a shared skb */
	km_skb_copy_to_linear_data_offset(c, 4000, b, 4);	/* outside [head, end] */
	assert_int_equal(reports(&f, KM_R_SKB_HDR_RELEASED), 1);
	assert_int_equal(reports(&f, KM_R_SKB_WRITE_CLONED), 1);
	assert_int_equal(reports(&f, KM_R_SKB_CHANGE_SHARED), 1);
	assert_int_equal(reports(&f, KM_R_SKB_EXPAND_SHARED), 1);
	assert_int_equal(reports(&f, KM_R_SKB_WRITE_SHARED), 1);
	assert_int_equal(reports(&f, KM_R_SKB_WRITE_OUTSIDE), 1);
	assert_int_equal(reports(&f, KM_R_SKB_SHARING), 6);
	assert_int_equal(reports(&f, KM_R_NONE), 6);
	assert_string_equal(km_report_code_name(KM_R_SKB_WRITE_CLONED), "skb_write_cloned");
	/* with the checker off the rules report nothing; BUG paths still do */
	km_reports_clear(f.m);
	km_skb_set_checker(f.m, false);
	km_skb_copy_to_linear_data_offset(c, 0, b, 4);
	km_skb_push(c, 4);
	assert_int_equal(reports(&f, KM_R_NONE), 0);
	assert_int_equal(km_pskb_expand_head(f.t, c, 0, 0, KM_GFP_ATOMIC), -EINVAL);
	assert_int_equal(reports(&f, KM_R_SKB_EXPAND_SHARED), 1);
	km_skb_set_checker(f.m, true);
	km_reports_clear(f.m);
	km_kfree_skb(c);
	km_kfree_skb(c);
	km_kfree_skb(skb);
}

/* Defect 7 (found by fuzzing): documented calls reach an skb whose len runs
 * past its buffer: alloc_skb(1000) (end 1856), skb_put(1856),
 * skb_set_tail_pointer(skb, 0) (tail moves, len stays, as in the kernel),
 * skb_put(1856): len 3712 in a 2048-byte object. skb_copy() would write
 * past the new buffer and skb_copy_expand() read past the old one: both are
 * KM_R_SKB_INVALID BUGs, nothing copied (ASan stays quiet). Follows v3.5:
 * include/linux/skbuff.h skb_put() (checks only tail > end) and
 * skb_set_tail_pointer() (tail = data + offset, len untouched);
 * net/core/skbuff.c skb_copy() (alloc_skb(skb_end_offset + data_len),
 * skb_copy_bits(skb, -headroom, n->head, headroom + len)) and
 * skb_copy_expand() (skb_copy_bits(..., skb->len + head_copy_len)). */
static void test_len_past_buffer(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb;

	skb = km_alloc_skb(f.t, 1000, KM_GFP_KERNEL);
	assert_int_equal(skb->end - skb->head, 1856);
	km_skb_put(skb, 1856);
	km_skb_set_tail_pointer(skb, 0);
	assert_int_equal(skb->len, 1856);
	km_skb_put(skb, 1856);
	assert_int_equal(skb->len, 3712);
	assert_int_equal(reports(&f, KM_R_NONE), 0);	/* the kernel checks tail only */
	assert_null(km_skb_copy(f.t, skb, KM_GFP_ATOMIC));
	assert_null(km_skb_copy_expand(f.t, skb, 4, 4, KM_GFP_ATOMIC));
	assert_int_equal(km_pskb_expand_head(f.t, skb, 4, 0, KM_GFP_ATOMIC), -EINVAL);
	assert_int_equal(km_skb_pad(f.t, skb, 4), -EINVAL);
	assert_int_equal(reports(&f, KM_R_SKB_INVALID), 4);
	assert_int_equal(reports(&f, KM_R_NONE), 4);
	km_reports_clear(f.m);
	km_kfree_skb(skb);
}

/* Defect 8: skb_header_cloned() of a TCP original whose clone was freed:
 * dataref 0x10001, v3.5 computes (1 - 1) != 1: true (the original may not
 * write its header: it gave it up). And skb_cow_head() of a TCP clone
 * (dataref 0x10002) whose headroom suffices does not reallocate. */
static void test_tcp_header_cloned_and_cow(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb, *c;
	unsigned char *head;

	skb = mk(&f, 1448 + 224, 224, 1448, 4);
	km_skb_header_release(skb);
	c = km_skb_clone(f.t, skb, KM_GFP_ATOMIC);
	assert_int_equal(skb->shinfo->dataref, 0x10002);
	assert_false(km_skb_header_cloned(c));
	km_skb_push(c, 66);
	head = c->head;
	assert_int_equal(km_skb_cow_head(f.t, c, 4), 0);
	assert_ptr_equal(c->head, head);
	assert_int_equal(km_skb_headroom(c), 224 - 66);
	assert_int_equal(skb->shinfo->dataref, 0x10002);
	assert_true(km_skb_cloned(c));
	km_kfree_skb(c);
	assert_int_equal(skb->shinfo->dataref, 0x10001);
	assert_true(km_skb_header_cloned(skb));
	assert_false(km_skb_cloned(skb));
	assert_int_equal(reports(&f, KM_R_NONE), 0);
	km_kfree_skb(skb);
}

/*
 * skb_copy_expand(skb, newheadroom, newtailroom) with a negative
 * newtailroom that takes back more than the data: alloc_skb() of the sum
 * gives less room than the reserve, skb_reserve() puts data past end, and
 * v3.5's skb_put(n, skb->len) finds tail > end: skb_over_panic. The model
 * compared the room as a size_t difference, which wrapped, and returned a
 * corrupt skb (data past end) with no report. Found by fuzz_skb.
 */
static void test_copy_expand_reserve_past_end(void **state)
{
	struct fx f = *(struct fx *)*state;	/* fx_setup() */
	struct km_skb *skb;

	skb = mk(&f, 0, 0, 0, 0);
	assert_null(km_skb_copy_expand(f.t, skb, 80, -80, KM_GFP_ATOMIC));
	assert_int_equal(reports(&f, KM_R_SKB_OVER), 1);
	km_reports_clear(f.m);
	km_kfree_skb(skb);
}

/* The harness API of kmodel/skb.h: a watch sees a plain C store into a
 * buffer the skb shares with a clone (skb_cloned(): the payload is
 * read-only to both, include/linux/skbuff.h v3.5), none on a private skb;
 * km_skb_held() tells a held skb from one whose reference was dropped. */
static void test_harness_watch(void **state)
{
	struct km_fixture *f = *state;
	struct km_skb_watch *w = km_skb_watch_new();
	struct km_skb *skb = km_alloc_skb(f->t, 100, KM_GFP_ATOMIC), *c;

	assert_non_null(w);
	assert_non_null(skb);
	km_skb_put(skb, 60);
	assert_false(km_skb_watch_begin(w, skb));	/* private: nothing to watch */
	c = km_skb_clone(f->t, skb, KM_GFP_ATOMIC);
	assert_true(km_skb_held(c));
	assert_true(km_skb_watch_begin(w, skb));
	assert_false(km_skb_watch_begin(w, c));	/* one watch per machine at a time */
	skb->data[10] ^= 0x5a;			/* a plain store, not through an accessor */
	assert_int_equal(km_skb_watch_end(w), 1);
	assert_int_equal(km_report_count(f->m, KM_R_SKB_STORE_SHARED), 1);
	assert_int_equal(km_skb_watch_end(w), 0);	/* not running */
	assert_true(km_skb_watch_begin(w, c));
	km_skb_watch_free(w);			/* running: the machine forgets it */
	km_kfree_skb(c);
	assert_false(km_skb_held(c));
	km_kfree_skb(skb);
	km_reports_clear(f->m);

	assert_false(km_skb_watch_begin(NULL, skb));
	assert_int_equal(km_skb_watch_end(NULL), 0);
	km_skb_watch_free(NULL);
	assert_false(km_skb_held(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_copy_expand_reserve_past_end, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_alloc_rounding_literals, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_harness_watch, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test(test_alloc_rounding_sweep),
		cmocka_unit_test_setup_teardown(test_alloc_failure, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_push_boundary, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_put_boundary, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_reserve_pull_trim_tail, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_clone_dataref, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_header_release_tcp_shape, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_header_release_of_a_clone, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_copy_and_copy_expand, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_pskb_expand_head_and_cow, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_double_free_and_shared, fx_setup, fx_teardown),
		cmocka_unit_test(test_leak_reported),
		cmocka_unit_test(test_ll_reserved_space),
		cmocka_unit_test_setup_teardown(test_traffic_shapes, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_traffic_headers, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_huge_sizes, fx_setup, fx_teardown),
		cmocka_unit_test(test_cross_machine),
		cmocka_unit_test_setup_teardown(test_copy_keeps_tailroom, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_null_arguments, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_stale_free_after_reuse, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_quarantine_fifo_many, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_pskb_expand_head_v35_allocates, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_pskb_expand_head_negative_ntail_ksize, fx_setup, fx_teardown),
		cmocka_unit_test(test_shinfo_by_page_size),
		cmocka_unit_test(test_alloc_zeroes_shinfo_area),
		cmocka_unit_test_setup_teardown(test_skb_pad_clone_negative_ntail, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_skb_pad_failure_frees, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_copy_expand_negative_room, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_cow_head_shared, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_compat_write_any_buffer, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_sharing_codes_apart, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_checker_off_keeps_bounds, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_len_past_buffer, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_tcp_header_cloned_and_cow, fx_setup, fx_teardown),
	};

	return cmocka_run_group_tests_name("test_skb", tests, NULL, NULL);
}
