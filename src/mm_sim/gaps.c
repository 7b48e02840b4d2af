// SPDX-License-Identifier: GPL-2.0
/*
 * The free areas of an address space, for get_unmapped_area(): the gaps
 * between its vmas, in a tree ordered by address in which every node also
 * knows the largest gap of its subtree -- what the kernel keeps as
 * rb_subtree_gap in the vma rbtree (mm/mmap.c, v5.7) -- so that the lowest
 * gap of a given length above an address is found in O(log n), where a
 * walk over every vma made 32,000 mmaps quadratic. The tree is a treap
 * (randomised priorities from a per-tree xorshift, deterministic per
 * address space): a gap node's key is its start, so neither the key nor
 * the subtree maximum depends on a neighbour.
 */
#include "mm_internal.h"

struct km_gap {
	unsigned long start, end;	/* [start, end): free */
	unsigned long max;		/* largest end - start in the subtree */
	uint32_t prio;
	struct km_gap *l, *r;
};

static unsigned long glen(const struct km_gap *n)
{
	return n->end - n->start;
}

static void update(struct km_gap *n)
{
	unsigned long m = glen(n);

	if (n->l && n->l->max > m)
		m = n->l->max;
	if (n->r && n->r->max > m)
		m = n->r->max;
	n->max = m;
}

/* @t split into the gaps starting below @key (*a) and the rest (*b) */
static void split(struct km_gap *t, unsigned long key, struct km_gap **a, struct km_gap **b)
{
	if (!t) {
		*a = *b = NULL;
		return;
	}
	if (t->start < key) {
		split(t->r, key, &t->r, b);
		*a = t;
	} else {
		split(t->l, key, a, &t->l);
		*b = t;
	}
	update(t);
}

/* every gap of @a lies below every gap of @b */
static struct km_gap *merge(struct km_gap *a, struct km_gap *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	if (a->prio > b->prio) {
		a->r = merge(a->r, b);
		update(a);
		return a;
	}
	b->l = merge(a, b->l);
	update(b);
	return b;
}

static void insert(struct km_gaps *g, unsigned long start, unsigned long end)
{
	struct km_gap *n = g_new0(struct km_gap, 1), *a, *b;

	g->seed ^= g->seed << 13;	/* xorshift32 */
	g->seed ^= g->seed >> 17;
	g->seed ^= g->seed << 5;
	n->start = start;
	n->end = end;
	n->max = end - start;
	n->prio = g->seed;
	split(g->root, start, &a, &b);
	g->root = merge(merge(a, n), b);
}

/* remove (and free) the gap starting at @start */
static void remove_gap(struct km_gaps *g, unsigned long start)
{
	struct km_gap *a, *b, *mid, *c;

	split(g->root, start, &a, &b);
	split(b, start + 1, &mid, &c);
	g_free(mid);
	g->root = merge(a, c);
}

/* the gap with the largest start <= @addr, or NULL */
static const struct km_gap *find_le(const struct km_gaps *g, unsigned long addr)
{
	const struct km_gap *t = g->root, *best = NULL;

	while (t) {
		if (t->start <= addr) {
			best = t;
			t = t->r;
		} else {
			t = t->l;
		}
	}
	return best;
}

static void free_all(struct km_gap *t)
{
	if (!t)
		return;
	free_all(t->l);
	free_all(t->r);
	g_free(t);
}

void km_gaps_init(struct km_gaps *g, unsigned long lo, unsigned long hi)
{
	g->root = NULL;
	g->seed = 0x9e3779b9u;
	if (lo < hi)
		insert(g, lo, hi);
}

void km_gaps_fini(struct km_gaps *g)
{
	free_all(g->root);
	g->root = NULL;
}

void km_gaps_take(struct km_gaps *g, unsigned long start, unsigned long end)
{
	const struct km_gap *in = find_le(g, start);
	unsigned long gs, ge;

	if (!in || in->end < end)	/* not free: the callers check overlaps first */
		return;
	gs = in->start;
	ge = in->end;
	remove_gap(g, gs);
	if (gs < start)
		insert(g, gs, start);
	if (end < ge)
		insert(g, end, ge);
}

void km_gaps_give(struct km_gaps *g, unsigned long start, unsigned long end)
{
	const struct km_gap *left = start ? find_le(g, start - 1) : NULL, *right;

	if (left && left->end == start) {
		start = left->start;
		remove_gap(g, start);
	}
	/* looked up after the left merge: without a gap starting in [start,
	 * end], find_le(end) is the left gap, which remove_gap() just freed */
	right = find_le(g, end);
	if (right && right->start == end) {
		end = right->end;
		remove_gap(g, right->start);
	}
	insert(g, start, end);
}

/* the leftmost gap starting above @lo with at least @len bytes */
static const struct km_gap *leftmost(const struct km_gap *t, unsigned long lo, unsigned long len)
{
	while (t && t->max >= len) {
		if (t->start > lo) {
			const struct km_gap *l = leftmost(t->l, lo, len);

			if (l)
				return l;
			if (glen(t) >= len)
				return t;
		}
		t = t->r;
	}
	return NULL;
}

unsigned long km_gaps_first_fit(const struct km_gaps *g, unsigned long lo, unsigned long hi,
				unsigned long len)
{
	const struct km_gap *in = find_le(g, lo), *n;
	unsigned long addr;

	if (in && in->end > lo) {	/* the gap around @lo, from @lo on */
		addr = lo;
		if ((in->end < hi ? in->end : hi) - addr >= len && addr < hi)
			return addr;
	}
	n = leftmost(g->root, lo, len);
	if (!n || n->start >= hi || hi - n->start < len)
		return 0;
	return n->start;
}
