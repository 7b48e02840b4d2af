// SPDX-License-Identifier: GPL-2.0
/*
 * Two eras of kmap_atomic(), and the strict kmap mode.
 *
 * pre-5.11 (KM_KMAP_ATOMIC_PRE_5_11): kmap_atomic()/__kunmap_atomic() of
 * arch/arm/mm/highmem.c and kmap_atomic_idx_push()/pop() of
 * include/linux/highmem.h (v5.7). kmap_atomic() first asks kmap_high_get()
 * for the address of a persistent kmap() of the page (ARM has it --
 * arch/arm/include/asm/highmem.h, ARCH_NEEDS_KMAP_HIGH_GET -- unless SMP
 * with CPU_TLB_V6, or ARM_ERRATA_798181; with CONFIG_DEBUG_HIGHMEM on a
 * non-VIVT cache it skips it): the model has no persistent kmaps (kmap()
 * gives the frame's address, no pkmap slot), so it never finds one and
 * every highmem kmap_atomic() takes a slot. Per-CPU slot stack
 * __kmap_atomic_idx of KM_TYPE_NR (16, arch/arm/include/asm/kmap_types.h);
 * slot `type` of CPU c is fixmap index FIX_KMAP_BEGIN + type + KM_TYPE_NR
 * * c, and FIX_TEXT_POKE0/1 follow the last CPU's slots
 * (arch/arm/include/asm/fixmap.h; the model's nr_cpus plays NR_CPUS).
 * set_fixmap_pte() flushes the TLB entry on map. Without
 * CONFIG_DEBUG_HIGHMEM the push has no bound check -- a 17th slot maps over
 * the next fixmap pte (a KM_R_KMAP_CLOBBER report says which) -- and unmap
 * only pops the index (the pte stays); with it, BUG_ON(idx >= KM_TYPE_NR),
 * BUG_ON(!pte_none()) on map, BUG_ON(vaddr != __fix_to_virt(idx)) on unmap,
 * which then clears (and flushes) the top slot's pte. Every address at or
 * above FIXADDR_START is taken for a slot by kunmap_atomic().
 *
 * 5.11+ (KM_KMAP_LOCAL): __kmap_local_pfn_prot()/kunmap_local_indexed() of
 * mm/highmem.c (v5.11) with ARM's arch_kmap_local_post_{map,unmap}() TLB
 * flushes. Per-task stack current->kmap_ctrl (idx, pteval[]), slots
 * KM_MAX_IDX per CPU (asm-generic/kmap_size.h: 16, 33 with
 * CONFIG_DEBUG_KMAP_LOCAL, which steps by KM_INCR 2 so that a guard slot
 * lies between slots). kmap_local_idx_push() BUG()s on overflow and a map
 * BUG()s on a pte that is not none; kunmap_local_indexed() takes only
 * addresses in [__fix_to_virt(FIX_KMAP_END), __fix_to_virt(FIX_KMAP_BEGIN)]
 * for slots (others are left alone, and WARN only under FORCE_MAP), then
 * WARN_ON_ONCE()s on an address that is not the top slot's (recorded at
 * every occurrence) and clears the top slot anyway. A context switch saves
 * and restores the task's ptes (__kmap_local_sched_out/in), which the
 * model's per-task stacks (and per-task host windows) stand for.
 *
 * Strict mode (km_machine_config.kmap_strict): each slot has a host
 * address -- a window of three pages: an inaccessible guard page, an alias
 * of the frame the slot's pte maps (RAM is then a memfd), another guard --
 * and kunmap translates its address to the kernel's fixmap address (a
 * guard page stands for the fixmap page beside the slot) and checks it
 * exactly as above. Pre-5.11 slots are one window block for the machine's
 * fixmap; 5.11 slots are a block per task; either has windows down to
 * FIXADDR_START, so a deep overflow still maps at addresses kunmap takes
 * for slots, as the kernel's does. A SIGSEGV handler catches an access to
 * a guard page (an overrun above the slot, an underrun below it) or to a
 * slot whose pte is none, reports it and maps a scratch page there so the
 * access completes.
 * Without strict mode a kmap address is the frame's host storage: two
 * kmaps of one page share it, kunmap finds the slot by frame, and neither
 * an overrun nor a use after kunmap is caught.
 */
#define _GNU_SOURCE
#include "mm_internal.h"
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FIX_KMAP_BEGIN	1UL		/* after FIX_EARLYCON_MEM_BASE */
#define FIXADDR_START	0xffc00000UL	/* arch/arm/include/asm/fixmap.h, v5.7 */
#define FIXADDR_END	0xfff00000UL

/* strict mode: the host windows of one block of slots */
struct km_kwin {
	unsigned long pfn;	/* frame aliased at the slot page, ~0UL: none */
	bool mapped;		/* the slot page is accessible (its pte is present) */
	bool scratch;		/* a scratch page stands in at the slot or the guard */
};

struct km_kwin_block {
	unsigned char *base;	/* nwin windows of 3 pages: guard, slot, guard */
	unsigned int nwin;
	struct km_task *task;	/* kmap_local: the task's slots; NULL: the fixmap's */
	struct km_kwin win[];
};

/*
 * The SIGSEGV handler finds the machine of a fault through the thread's
 * current task, else through the last strict machine that kmapped on the
 * thread -- which another thread may have destroyed since. So the thread
 * keeps a handle and its generation, not the machine: a strict machine
 * holds a handle while it lives; destroying it clears the handle, bumps
 * its generation and waits until no handler is looking at it, and the
 * handle goes back on a free list for the next strict machine. Handles are
 * never freed (at most as many as strict machines ever lived at once):
 * with the handler's chain (strict_prev) they are the only process-wide
 * state of the strict mode, what a signal handler needs, and the handler
 * takes no lock (only atomics).
 */
struct km_strict_handle {
	_Atomic(struct km_machine *) m;	/* NULL: free */
	atomic_uint gen;			/* bumped when the machine goes */
	atomic_uint busy;			/* handlers looking at it now */
	struct km_strict_handle *next_free;	/* under strict_lock */
};

/* kmap's state on a machine (m->kmap; km_kmap_init(), km_kmap_fini()). The
 * slot stacks themselves are the CPUs' and tasks' (core/internal.h). */
struct km_kmap_state {
	/* strict kmap mode: the pre-5.11 fixmap's host windows (NULL: off),
	 * and the machine's handle for the SIGSEGV handler */
	struct km_kwin_block *kwin;
	struct km_strict_handle *strict_handle;
	/* fixmap ptes past the kmap slots: FIX_TEXT_POKE0/1 and a few more,
	 * what an overflowing pre-5.11 kmap_atomic maps over (pfn, ~0UL: none) */
	unsigned long fixmap_extra[2 + KM_TYPE_NR];
};

static _Thread_local struct {
	struct km_strict_handle *h;
	unsigned int gen;
} strict_tls;				/* the last strict kmap on this thread */

static inline bool local_era(const struct km_machine *m)
{
	return m->cfg.kmap == KM_KMAP_LOCAL;
}

/* KM_MAX_IDX and KM_INCR of mm/highmem.c and asm-generic/kmap_size.h (v5.11) */
static inline unsigned int km_max_idx(const struct km_machine *m)
{
	return m->cfg.kmap_debug ? 33 : 16;
}

static inline unsigned int km_incr(const struct km_machine *m)
{
	return m->cfg.kmap_debug ? 2 : 1;
}

static struct km_kmap_stack *kmap_stack(struct km_task *t)
{
	return local_era(t->m) ? &t->kmap : &t->m->cpu[t->cpu].kmap;
}

/* __fix_to_virt(@x): the 32-bit ARM address of fixmap index @x */
static unsigned long fix_to_virt(const struct km_machine *m, unsigned long x)
{
	return FIXADDR_END - m->page_size - x * m->page_size;
}

/* Before 5.11: the pte of fixmap index FIX_KMAP_BEGIN + @w -- slot w %
 * KM_TYPE_NR of CPU w / KM_TYPE_NR, then FIX_TEXT_POKE0/1 and a few unused
 * indices; NULL past those (the model keeps no pte there). */
static unsigned long *pre511_pte(struct km_machine *m, unsigned long w)
{
	unsigned long n = (unsigned long)KM_TYPE_NR * m->cfg.nr_cpus;

	if (w < n)
		return &m->cpu[w / KM_TYPE_NR].kmap.pfn[w % KM_TYPE_NR];
	if (w - n < G_N_ELEMENTS(m->kmap->fixmap_extra))
		return &m->kmap->fixmap_extra[w - n];
	return NULL;
}

/* A slot's pte for messages: "maps pfn N", or "maps nothing (pte none)"
 * for a cleared pte (~0UL) or a slot past the modelled ptes (NULL) -- not
 * pfn 18446744073709551615 */
static const char *slot_pte_describe(const unsigned long *pte, char *buf, size_t len)
{
	if (pte && *pte != ~0UL)
		snprintf(buf, len, "maps pfn %lu", *pte);
	else
		snprintf(buf, len, "maps nothing (pte none)");
	return buf;
}

/* What fixmap index FIX_KMAP_BEGIN + @w holds before 5.11, for messages */
static void pre511_describe(struct km_machine *m, unsigned long w, char *buf, size_t len)
{
	unsigned long n = (unsigned long)KM_TYPE_NR * m->cfg.nr_cpus;
	unsigned long *pte = pre511_pte(m, w);
	char what[64];

	if (pte && *pte != ~0UL)
		snprintf(what, sizeof(what), "maps pfn %lu", *pte);
	else
		snprintf(what, sizeof(what), "pte none");
	if (w < n)
		snprintf(buf, len, "cpu %lu's slot %lu (%s)", w / KM_TYPE_NR, w % KM_TYPE_NR, what);
	else if (w - n < 2)
		snprintf(buf, len, "FIX_TEXT_POKE%lu, the kernel-text patching slot (%s)", w - n,
			 what);
	else
		snprintf(buf, len, "fixmap index %lu past __end_of_fixmap_region (%s)",
			 FIX_KMAP_BEGIN + w, what);
}

/* A pre-5.11 push past the slots: the injected limit, the debug BUG, or,
 * without CONFIG_DEBUG_HIGHMEM, the silent map over the next fixmap pte. */
static void __attribute__((noinline, cold)) pre511_overflow(struct km_task *t, unsigned int type,
							    unsigned long w, unsigned long pfn)
{
	struct km_machine *m = t->m;
	char over[128];

	if (type < KM_TYPE_NR) {
		km_report(m, KM_BUG, KM_R_KMAP_OVERFLOW,
			  "kmap_atomic_idx_push: slot %u >= %u usable of KM_TYPE_NR %d (cpu %u, pfn %lu)",
			  type, m->kmap_slots, KM_TYPE_NR, t->cpu, pfn);
	} else if (m->cfg.kmap_debug) {
		km_report(m, KM_BUG, KM_R_KMAP_OVERFLOW,
			  "kmap_atomic_idx_push: BUG_ON(idx >= KM_TYPE_NR %d): cpu %u slot %u (pfn %lu)",
			  KM_TYPE_NR, t->cpu, type, pfn);
	} else {
		pre511_describe(m, w, over, sizeof(over));
		km_report(m, KM_BUG, KM_R_KMAP_CLOBBER,
			  "kmap_atomic: cpu %u slot %u >= KM_TYPE_NR %d, no CONFIG_DEBUG_HIGHMEM: "
			  "set_fixmap_pte() maps pfn %lu over %s", t->cpu, type, KM_TYPE_NR, pfn,
			  over);
	}
}

static void __attribute__((noinline, cold)) local_overflow(struct km_task *t, unsigned int idx,
							   unsigned long pfn)
{
	struct km_machine *m = t->m;

	if (idx >= km_max_idx(m))
		km_report(m, KM_BUG, KM_R_KMAP_OVERFLOW,
			  "kmap_local_idx_push: BUG_ON(idx %u >= KM_MAX_IDX %u) (cpu %u, pfn %lu)",
			  idx, km_max_idx(m), t->cpu, pfn);
	else
		km_report(m, KM_BUG, KM_R_KMAP_OVERFLOW,
			  "kmap_local_idx_push: map %u > %u usable of KM_MAX_IDX %u (cpu %u, pfn %lu)",
			  idx / km_incr(m), m->kmap_slots, km_max_idx(m), t->cpu, pfn);
}

static void __attribute__((noinline, cold)) pte_not_none(struct km_task *t, unsigned int slot,
							 unsigned long old)
{
	km_report(t->m, KM_BUG, KM_R_KMAP_ORDER,
		  "kmap: slot %u pte not none (pfn %lu): BUG_ON(!pte_none()), a missed unmap", slot,
		  old);
}

/*
 * Push a slot for @pfn on @t's stack with the era's checks:
 * kmap_atomic_idx_push() and the fixmap index of kmap_atomic_high_prot(),
 * or kmap_local_idx_push() and __kmap_local_pfn_prot()'s BUG_ON(). Returns
 * the slot -- before 5.11 the fixmap index less FIX_KMAP_BEGIN, from 5.11
 * the stack slot kmap_local_idx() -- and in *@pte the pte the map sets
 * (NULL where the model keeps none).
 */
static inline unsigned long kmap_push(struct km_task *t, unsigned long pfn, unsigned long **pte)
{
	struct km_machine *m = t->m;
	struct km_kmap_stack *st;
	unsigned int s;

	if (!local_era(m)) {
		unsigned int type = m->cpu[t->cpu].kmap.idx++;
		unsigned long w = type + (unsigned long)KM_TYPE_NR * t->cpu;

		if (__builtin_expect(type >= m->kmap_slots, 0))	/* kmap_slots <= KM_TYPE_NR */
			pre511_overflow(t, type, w, pfn);
		*pte = pre511_pte(m, w);
		if (m->cfg.kmap_debug && *pte && **pte != ~0UL)
			pte_not_none(t, type, **pte);
		return w;
	}
	st = &t->kmap;
	st->idx += km_incr(m);
	s = st->idx - 1;
	if (__builtin_expect(st->idx >= km_max_idx(m) || st->idx / km_incr(m) > m->kmap_slots, 0))
		local_overflow(t, st->idx, pfn);
	*pte = s < KM_KMAP_PTES ? &st->pfn[s] : NULL;
	if (*pte && **pte != ~0UL)
		pte_not_none(t, s, **pte);
	return s;
}

/* Map highmem @page into the next slot (not strict): the address is the
 * frame's host storage */
static void *__attribute__((noinline)) kmap_high_slot(struct km_task *t, struct km_page *page)
{
	struct km_machine *m = t->m;
	unsigned long pfn = km_pfn(m, page);
	unsigned long *pte;

	kmap_push(t, pfn, &pte);
	if (pte)
		*pte = pfn;		/* set_fixmap_pte() / set_pte_at() */
	KM_PATH_INC(m, kmap_high_flush);	/* and local_flush_tlb_kernel_page() */
	return km_frame(m, pfn);
}

/*
 * kmap of @page that is no page of @t's machine (NULL: ported code that
 * kmaps pages[0] after a gup that failed with a negative errno): the
 * kernel oopses at PageHighMem(page) -- a NULL pointer dereference for
 * NULL -- with CONFIG_HIGHMEM, else at the caller's access through
 * page_address(page) (v5.11's FORCE_MAP maps a wild pfn), with kmap_atomic()'s preempt and pagefault counts already
 * raised (arch/arm/mm/highmem.c, v5.7; include/linux/highmem-internal.h,
 * v5.11); kmap_local_page() raises none. The model records the BUG and,
 * so that the ported code runs on and its caller sees the report (a
 * NULL + offset would crash the host in the code's memcpy()),
 * hands out the machine's bad-kmap page: zeroed at each hand-out, the
 * access lands there (as strict mode's scratch page after a guard fault).
 * A page of host memory on each side takes an access that runs up to a
 * page before or past it (a copy that also overruns its kmap, as the
 * user's code did that found this): absorbed, not reported again, where
 * an inaccessible neighbour would crash the host. No slot is taken; a
 * kunmap of an address in it pops nothing. NULL only when the host has no
 * memory for it.
 */
static void *__attribute__((noinline, cold)) kmap_bad_page(struct km_task *t,
							   struct km_page *page,
							   const char *fn)
{
	struct km_machine *m = t->m;

	/* where the kernel fails: kmap_atomic()/kmap_local_page()
	 * test PageHighMem(page) with CONFIG_HIGHMEM; without it they are
	 * page_address(page) (include/linux/highmem.h v5.7, highmem-internal.h
	 * v5.11), which does not dereference the page: the oops comes at the
	 * caller's access; under CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP v5.11's
	 * __kmap_local_page_prot() skips PageHighMem() and maps
	 * page_to_pfn(page) */
	bool force_map = local_era(m) && m->cfg.kmap_strict == KM_KMAP_STRICT_FORCE_MAP;
	char arg[32];

	snprintf(arg, sizeof(arg), page ? "%p" : "NULL", (void *)page);
	km_report(m, KM_BUG, KM_R_BAD_PAGE, "%s(%s): %s%s (%sthe access goes to a scratch page)",
		  fn, arg, page ? "not a page of this machine; " : "",
		  force_map ? "CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP maps page_to_pfn(page), a wild "
			      "pfn, without PageHighMem(): an oops or silent corruption" :
		  page ? "the kernel oopses at PageHighMem(page) with CONFIG_HIGHMEM, else at "
			 "the caller's access through page_address(page)" :
			 "NULL pointer dereference at PageHighMem(page) with CONFIG_HIGHMEM, else "
			 "at the caller's access through page_address(NULL): a kernel oops",
		  page ? "" : "a page from a gup that failed? ");
	return km_bad_page_scratch(m);
}

static bool bad_kmap_addr(const struct km_machine *m, const void *addr)
{
	const unsigned char *a = addr;

	return m->bad_kmap && a >= m->bad_kmap && a < m->bad_kmap + m->page_size;
}

static void *kmap_strict(struct km_task *t, struct km_page *page);
static void kunmap_strict(struct km_task *t, void *addr);

/* kmap_atomic()'s mapping step, for a valid @page: a lowmem page is its
 * direct-map address (page_address()), a highmem page takes a slot. */
static void *kmap_slot(struct km_task *t, struct km_page *page)
{
	struct km_machine *m = t->m;

	if (__builtin_expect(m->cfg.kmap_strict != KM_KMAP_STRICT_OFF, 0))
		return kmap_strict(t, page);
	if (page->flags & KM_PG_HIGHMEM)
		return kmap_high_slot(t, page);
	KM_EV_INC(m, kmap_low);
	return km_frame(m, km_pfn(m, page));
}

/* The pfn of @addr if it is the address of a highmem frame (a kmap slot's
 * address when not strict), else ~0UL: lowmem, or not a frame at all. */
static unsigned long highmem_addr_pfn(const struct km_machine *m, const void *addr)
{
	const unsigned char *a = addr;

	if (a < m->highmem_start || a >= m->ram_end)
		return ~0UL;
	return (unsigned long)(a - m->ram) >> m->page_shift;
}

/* a kunmap with no slot held: the era's pop BUGs, kmap_local_idx_pop()
 * (mm/highmem.c, v5.11) always, kmap_atomic_idx_pop() (include/linux/
 * highmem.h, v5.7) under CONFIG_DEBUG_HIGHMEM: "BUG_ON(idx < 0)"; without
 * it the index goes to -1 silently and the next kmap_atomic() takes fixmap
 * index FIX_KMAP_BEGIN + KM_TYPE_NR * cpu - 1 (on CPU 0 FIX_EARLYCON_MEM_BASE,
 * arch/arm/include/asm/fixmap.h, v5.7). The model reports it on every
 * machine, and the message says which. */
static void __attribute__((noinline, cold)) kunmap_unbalanced(struct km_task *t, const void *addr)
{
	bool local = local_era(t->m);

	km_report(t->m, KM_BUG, KM_R_KMAP_UNBALANCED, "%s(%p): no kmap slot held (cpu %u); %s",
		  local ? "kunmap_local" : "kunmap_atomic", addr, t->cpu,
		  local ? "kmap_local_idx_pop() BUGs on idx < 0" :
		  t->m->cfg.kmap_debug ? "kmap_atomic_idx_pop() BUGs on idx < 0 (CONFIG_DEBUG_HIGHMEM)" :
		  "without CONFIG_DEBUG_HIGHMEM kmap_atomic_idx_pop() leaves the index at -1 "
		  "unsaid (the next kmap_atomic() takes the fixmap entry before the CPU's first "
		  "slot)");
}

/* Unmap highmem frame @pfn (not strict): kunmap_atomic_high() /
 * kunmap_local_indexed(), the slot found by frame */
static void __attribute__((noinline)) kunmap_high_slot(struct km_task *t, unsigned long pfn)
{
	struct km_machine *m = t->m;
	struct km_kmap_stack *st = kmap_stack(t);
	unsigned long *pte;
	unsigned int s;
	char top[48];

	if (st->idx == 0) {
		kunmap_unbalanced(t, km_frame(m, pfn));
		return;
	}
	s = st->idx - 1;	/* kmap_atomic_idx() / kmap_local_idx() */
	if (!local_era(m)) {
		if (m->cfg.kmap_debug) {
			pte = pre511_pte(m, s + (unsigned long)KM_TYPE_NR * t->cpu);
			if (!pte || *pte != pfn)	/* BUG_ON(vaddr != __fix_to_virt(idx)) */
				km_report(m, KM_BUG, KM_R_KMAP_ORDER,
					  "kunmap_atomic(pfn %lu): cpu %u top slot %u %s",
					  pfn, t->cpu, s, slot_pte_describe(pte, top, sizeof(top)));
			if (pte)
				*pte = ~0UL;	/* set_fixmap_pte(idx, __pte(0)) */
			KM_EV_INC(m, tlb_flushes);
		}
		/* without debug the pte stays, the next map flushes */
		st->idx--;		/* kmap_atomic_idx_pop() */
		return;
	}
	pte = s < KM_KMAP_PTES ? &st->pfn[s] : NULL;
	if (!pte || *pte != pfn)	/* WARN_ON_ONCE(addr != __fix_to_virt(...)) */
		km_report(m, KM_WARN, KM_R_KMAP_ORDER, "kunmap_local(pfn %lu): top slot %u %s",
			  pfn, s, slot_pte_describe(pte, top, sizeof(top)));
	if (pte)
		*pte = ~0UL;		/* pte_clear() */
	KM_EV_INC(m, tlb_flushes);		/* arch_kmap_local_post_unmap() */
	st->idx -= km_incr(m);		/* kmap_local_idx_pop() */
}

/* kunmap_atomic()'s unmapping step: only a highmem (slot) address has a
 * slot to release; a lowmem address, or one that is no frame, has none. */
static void kunmap_slot(struct km_task *t, void *addr)
{
	unsigned long pfn;

	if (__builtin_expect(bad_kmap_addr(t->m, addr), 0))
		return;		/* kmap_bad_page() took no slot */
	if (__builtin_expect(t->m->cfg.kmap_strict != KM_KMAP_STRICT_OFF, 0)) {
		kunmap_strict(t, addr);
		return;
	}
	pfn = highmem_addr_pfn(t->m, addr);
	if (pfn != ~0UL) {
		KM_EV_INC(t->m, kunmap_high);
		kunmap_high_slot(t, pfn);
	} else {
		KM_EV_INC(t->m, kunmap_low);
	}
}

/* ---- strict mode: host windows ------------------------------------------- */

/* Host windows: window w is three pages from base + 3 w pages: a guard
 * page, the slot page (the alias of the frame its pte maps), a guard page.
 * The slot page is the kernel's fixmap page of the slot; the guard above it
 * stands for the fixmap page above (index - 1), the guard below for the
 * one below (index + 1). */
#define KWIN_PAGES	3

/* The slot page of window @w */
static unsigned char *kwin_addr(const struct km_machine *m, const struct km_kwin_block *b,
				unsigned long w)
{
	return b->base + (KWIN_PAGES * w + 1) * m->page_size;
}

static size_t kwin_span(const struct km_machine *m, unsigned long nwin)
{
	return KWIN_PAGES * (size_t)nwin * m->page_size;
}

/* Fixmap indices from FIX_KMAP_BEGIN to the bottom of the fixmap region,
 * FIXADDR_START: every index an overflowing kmap can reach while its
 * address is still one kunmap takes for a slot (a pre-5.11 kunmap_atomic()
 * pops any address >= FIXADDR_START) */
static unsigned long fixmap_windows(const struct km_machine *m)
{
	return ((FIXADDR_END - FIXADDR_START) >> m->page_shift) - FIX_KMAP_BEGIN;
}

static struct km_kwin_block *kwin_block_new(struct km_machine *m, unsigned int nwin,
					    struct km_task *task)
{
	struct km_kwin_block *b = g_malloc0(sizeof(*b) + nwin * sizeof(b->win[0]));

	b->base = km_host_map_kernel(kwin_span(m, nwin), PROT_NONE,
				     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (b->base == MAP_FAILED) {
		g_free(b);
		return NULL;
	}
	b->nwin = nwin;
	b->task = task;
	for (unsigned int w = 0; w < nwin; w++)
		b->win[w].pfn = ~0UL;
	return b;
}

static void kwin_block_free(struct km_machine *m, struct km_kwin_block *b)
{
	if (!b)
		return;
	munmap(b->base, kwin_span(m, b->nwin));
	g_free(b);
}

static void __attribute__((noinline, cold)) kwin_host_error(struct km_machine *m, const char *what,
							    unsigned long w)
{
	km_report(m, KM_BUG, KM_R_UNEXPECTED, "strict kmap: host %s of slot window %lu failed: %s",
		  what, w, g_strerror(errno));
}

/* Point window @w at frame @pfn, accessible (set_fixmap_pte()) */
static void *kwin_map(struct km_machine *m, struct km_kwin_block *b, unsigned long w,
		      unsigned long pfn)
{
	struct km_kwin *win = &b->win[w];
	unsigned char *a = kwin_addr(m, b, w);

	if (win->scratch) {	/* re-arm the window after a caught fault */
		if (mmap(a - m->page_size, KWIN_PAGES * m->page_size, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) == MAP_FAILED)
			kwin_host_error(m, "re-arm", w);
		*win = (struct km_kwin){ .pfn = ~0UL };
	}
	if (win->pfn != pfn) {
		/* populated at once: the copy that follows takes no host fault */
		if (mmap(a, m->page_size, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED | MAP_POPULATE, m->ram_fd,
			 (off_t)pfn << m->page_shift) == MAP_FAILED) {
			kwin_host_error(m, "mmap", w);
			return km_frame(m, pfn);
		}
		win->pfn = pfn;
		win->mapped = true;
	} else if (!win->mapped) {
		if (mprotect(a, m->page_size, PROT_READ | PROT_WRITE))
			kwin_host_error(m, "mprotect", w);
		win->mapped = true;
	}
	return a;
}

/* Make window @w's slot page inaccessible (pte_clear()); the alias stays,
 * so mapping the same frame again costs one mprotect() */
static void kwin_clear(struct km_machine *m, struct km_kwin_block *b, unsigned long w)
{
	struct km_kwin *win;

	if (!b || w >= b->nwin)
		return;
	win = &b->win[w];
	if (win->mapped && mprotect(kwin_addr(m, b, w), m->page_size, PROT_NONE))
		kwin_host_error(m, "mprotect", w);
	win->mapped = false;
}

/* Where host address @a lies in a window */
struct kwin_pos {
	unsigned long w;	/* the window */
	int page;		/* -1: the guard below the slot, 0: the slot, 1: the guard above */
	unsigned long off;	/* offset in that page */
};

static bool kwin_in(const struct km_machine *m, const struct km_kwin_block *b,
		    const unsigned char *a, struct kwin_pos *pos)
{
	unsigned long rel, p;

	if (!b || a < b->base || a >= b->base + kwin_span(m, b->nwin))
		return false;
	rel = (unsigned long)(a - b->base);
	p = rel >> m->page_shift;
	pos->w = p / KWIN_PAGES;
	pos->page = (int)(p % KWIN_PAGES) - 1;
	pos->off = rel & (m->page_size - 1);
	return true;
}

/* The block and position of host address @addr, or NULL when it is in no
 * slot window of @m. Looks at the fixmap's block, @t's, then every task's. */
static struct km_kwin_block *kwin_find(struct km_machine *m, struct km_task *t, const void *addr,
				       struct kwin_pos *pos)
{
	const unsigned char *a = addr;
	GHashTableIter it;
	gpointer key;

	if (kwin_in(m, m->kmap->kwin, a, pos))
		return m->kmap->kwin;
	if (t && kwin_in(m, t->kwin, a, pos))
		return t->kwin;
	if (!local_era(m))
		return NULL;
	g_hash_table_iter_init(&it, m->tasks);
	while (g_hash_table_iter_next(&it, &key, NULL)) {
		struct km_kwin_block *b = ((struct km_task *)key)->kwin;

		if (kwin_in(m, b, a, pos))
			return b;
	}
	return NULL;
}

bool km_kmap_window(struct km_task *t, const void *p)
{
	struct kwin_pos pos;

	return t->m->cfg.kmap_strict && kwin_find(t->m, t, p, &pos);
}

unsigned long km_kmap_alias_pfn(struct km_task *t, const void *p, size_t *room)
{
	struct kwin_pos pos;
	struct km_kwin_block *b;
	const struct km_kwin *win;

	*room = 0;
	if (!t->m->cfg.kmap_strict || !(b = kwin_find(t->m, t, p, &pos)))
		return ~0UL;
	*room = t->m->page_size - pos.off;
	if (pos.page)
		return ~0UL;	/* a guard page */
	win = &b->win[pos.w];
	/* a slot page whose pte is none holds no frame (an access faults, and
	 * the scratch page the handler puts there is none either) */
	return win->mapped ? win->pfn : ~0UL;
}

/* The fixmap index of window @w of block @b */
static unsigned long kwin_fixidx(const struct km_machine *m, const struct km_kwin_block *b,
				 unsigned long w)
{
	if (!b->task)
		return FIX_KMAP_BEGIN + w;
	return FIX_KMAP_BEGIN + w + (unsigned long)km_max_idx(m) * b->task->cpu;
}

/* kmap of @page in strict mode: a slot for a highmem page (any page with
 * FORCE_MAP), mapped at its window */
static void *__attribute__((noinline)) kmap_strict(struct km_task *t, struct km_page *page)
{
	struct km_machine *m = t->m;
	unsigned long pfn = km_pfn(m, page), slot, *pte;
	struct km_kwin_block *b;

	if (!(page->flags & KM_PG_HIGHMEM) && m->cfg.kmap_strict != KM_KMAP_STRICT_FORCE_MAP) {
		KM_EV_INC(m, kmap_low);
		return km_frame(m, pfn);
	}
	slot = kmap_push(t, pfn, &pte);
	if (pte)
		*pte = pfn;
	KM_PATH_INC(m, kmap_high_flush);	/* and the TLB flush */
	if (strict_tls.h != m->kmap->strict_handle) {
		strict_tls.h = m->kmap->strict_handle;
		strict_tls.gen = atomic_load(&m->kmap->strict_handle->gen);
	}
	b = m->kmap->kwin;
	if (local_era(m)) {
		if (!t->kwin)
			t->kwin = kwin_block_new(m, MAX(KM_KMAP_PTES, fixmap_windows(m)), t);
		b = t->kwin;
	}
	if (!b || slot >= b->nwin) {
		km_report(m, KM_BUG, KM_R_UNEXPECTED,
			  "strict kmap: slot %lu lies below FIXADDR_START (past the fixmap: the kernel "
			  "sets a pte outside it, and its kunmap takes the address for no slot): "
			  "pfn %lu mapped at its frame", slot, pfn);
		return km_frame(m, pfn);
	}
	return kwin_map(m, b, slot, pfn);
}

static void __attribute__((noinline, cold)) kunmap_not_slot(struct km_task *t, const void *addr)
{
	/* kunmap_local_indexed(): WARN_ON_ONCE(1) "This _should_ never happen!" */
	km_report(t->m, KM_WARN, KM_R_KMAP_ORDER,
		  "kunmap_local(%p): not in the kmap fixmap range, with "
		  "CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP (WARN_ON_ONCE(1)); nothing popped", addr);
}

/* kunmap in strict mode: the kernel's pop-and-check on the fixmap address */
static void __attribute__((noinline)) kunmap_strict(struct km_task *t, void *addr)
{
	struct km_machine *m = t->m;
	struct km_kmap_stack *st = kmap_stack(t);
	unsigned long x = 0, s, top;
	struct kwin_pos pos;
	struct km_kwin_block *b = kwin_find(m, t, addr, &pos);

	/* the fixmap page of the address (kunmap masks it with PAGE_MASK): a
	 * guard page is the fixmap page beside the slot's */
	if (b)
		x = kwin_fixidx(m, b, pos.w) - pos.page;
	/* lowmem's direct map, no kernel mapping at all, or (before 5.11) the
	 * guard below the lowest window: below FIXADDR_START */
	if (!b || (!local_era(m) && x >= FIX_KMAP_BEGIN + b->nwin)) {
		KM_EV_INC(m, kunmap_low);
		if (local_era(m) && m->cfg.kmap_strict == KM_KMAP_STRICT_FORCE_MAP)
			kunmap_not_slot(t, addr);
		return;
	}
	KM_EV_INC(m, kunmap_high);
	if (!local_era(m)) {	/* kvaddr >= FIXADDR_START: every window */
		if (st->idx == 0) {
			kunmap_unbalanced(t, addr);
			return;
		}
		s = st->idx - 1;
		top = s + (unsigned long)KM_TYPE_NR * t->cpu;
		if (m->cfg.kmap_debug) {
			unsigned long *pte = pre511_pte(m, top);

			if (x != FIX_KMAP_BEGIN + top)	/* BUG_ON(vaddr != __fix_to_virt(idx)) */
				km_report(m, KM_BUG, KM_R_KMAP_ORDER,
					  "kunmap_atomic(0x%08lx): cpu %u top slot %lu is at 0x%08lx "
					  "(BUG_ON(vaddr != __fix_to_virt(idx)))",
					  fix_to_virt(m, x), t->cpu, s, fix_to_virt(m, FIX_KMAP_BEGIN + top));
			if (pte)
				*pte = ~0UL;	/* set_fixmap_pte(idx, __pte(0)) */
			kwin_clear(m, m->kmap->kwin, top);
			KM_EV_INC(m, tlb_flushes);
		}
		st->idx--;
		return;
	}
	/* addr < __fix_to_virt(FIX_KMAP_END) || addr > __fix_to_virt(FIX_KMAP_BEGIN),
	 * except the task's own top slot past KM_MAX_IDX: one that exists only
	 * after the overflow BUG, unmapped so that the BUG does not cascade */
	if ((x < FIX_KMAP_BEGIN ||
	     x > FIX_KMAP_BEGIN + (unsigned long)km_max_idx(m) * m->cfg.nr_cpus - 1) &&
	    !(b == t->kwin && pos.page == 0 && pos.w + 1 == st->idx && pos.w >= km_max_idx(m))) {
		if (m->cfg.kmap_strict == KM_KMAP_STRICT_FORCE_MAP)
			kunmap_not_slot(t, addr);
		/* else kmap_high_unmap_local() finds nothing and addr >= PAGE_OFFSET:
		 * no WARN, nothing popped */
		return;
	}
	if (st->idx == 0) {
		kunmap_unbalanced(t, addr);
		return;
	}
	s = st->idx - 1;
	top = FIX_KMAP_BEGIN + s + (unsigned long)km_max_idx(m) * t->cpu;
	if (x != top)	/* WARN_ON_ONCE(addr != __fix_to_virt(FIX_KMAP_BEGIN + idx)) */
		km_report(m, KM_WARN, KM_R_KMAP_ORDER,
			  "kunmap_local(0x%08lx): top slot %lu of the task on cpu %u is at 0x%08lx",
			  fix_to_virt(m, x), s, t->cpu, fix_to_virt(m, top));
	if (s < KM_KMAP_PTES)
		st->pfn[s] = ~0UL;	/* pte_clear(); pteval = 0 */
	kwin_clear(m, t->kwin, s);
	KM_EV_INC(m, tlb_flushes);
	st->idx -= km_incr(m);
}

/* What the kernel has at fixmap index @x, seen from window block @b (a
 * guard page's address is the slot above the window's), for messages */
static void kernel_at(struct km_machine *m, const struct km_kwin_block *b, unsigned long x,
		      char *buf, size_t len)
{
	unsigned long s, c;

	if (x < FIX_KMAP_BEGIN) {
		snprintf(buf, len, "FIX_EARLYCON_MEM_BASE, the early console's mapping");
		return;
	}
	if (!b->task) {
		pre511_describe(m, x - FIX_KMAP_BEGIN, buf, len);
		return;
	}
	s = (x - FIX_KMAP_BEGIN) % km_max_idx(m);
	c = (x - FIX_KMAP_BEGIN) / km_max_idx(m);
	if (m->cfg.kmap_debug && !(s & 1))
		snprintf(buf, len, "a guard slot of CONFIG_DEBUG_KMAP_LOCAL (pte none: an oops)");
	else if (c == b->task->cpu && s < KM_KMAP_PTES && b->task->kmap.pfn[s] != ~0UL)
		snprintf(buf, len, "kmap_local slot %lu of cpu %lu (maps pfn %lu)", s, c,
			 b->task->kmap.pfn[s]);
	else
		snprintf(buf, len, "kmap_local slot %lu of cpu %lu", s, c);
}

/* The SIGSEGV handler's part for machine @m: @addr in a slot window? Then
 * report it, put a scratch page there and return true. Runs in the signal
 * handler of a synchronous fault of the model's own thread (a memcpy() or
 * load of modelled code), so it may call what that code may. */
static bool strict_fault(struct km_machine *m, struct km_task *t, void *addr)
{
	unsigned long x, pfn;
	struct kwin_pos pos;
	struct km_kwin_block *b = kwin_find(m, t, addr, &pos);
	struct km_kwin *win;
	unsigned char *page;
	char there[128];

	if (!b)
		return false;
	win = &b->win[pos.w];
	x = kwin_fixidx(m, b, pos.w);
	pfn = win->pfn;
	if (pos.page) {		/* the fixmap page beside the slot's: x - 1 above, x + 1 below */
		kernel_at(m, b, x - pos.page, there, sizeof(there));
		/* how far, counting the first byte out as 1 either way (the
		 * first byte past the page must not read "0 bytes past") */
		unsigned long far = pos.page > 0 ? pos.off + 1 : m->page_size - pos.off;

		km_report(m, KM_BUG, KM_R_KMAP_GUARD,
			  "access %lu byte%s %s the kmapped page: slot at 0x%08lx (fixmap %lu) maps "
			  "pfn %lu; the kernel's address 0x%08lx is %s", far, far == 1 ? "" : "s",
			  pos.page > 0 ? "past" : "before", fix_to_virt(m, x), x, pfn,
			  fix_to_virt(m, x - pos.page) + pos.off, there);
	} else {
		km_report(m, KM_BUG, KM_R_KMAP_UNMAPPED,
			  "unable to handle kernel paging request at 0x%08lx: kmap slot (fixmap %lu) "
			  "has no pte (unmapped by kunmap, or never mapped); last pfn %lu",
			  fix_to_virt(m, x) + pos.off, x, pfn);
	}
	page = kwin_addr(m, b, pos.w) + pos.page * (long)m->page_size;
	if (mmap(page, m->page_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		return false;	/* let the previous handler have it */
	if (!pos.page) {
		win->pfn = ~0UL;
		win->mapped = false;
	}
	win->scratch = true;
	return true;
}

/* ---- strict mode: the SIGSEGV handler (process-wide, chained) ------------ */

static GMutex strict_lock;
static struct sigaction strict_prev;	/* the action ours replaced: chained */

static void strict_segv(int sig, siginfo_t *si, void *uc);

static void strict_chain(int sig, siginfo_t *si, void *uc)
{
	struct sigaction prev = strict_prev;

	if ((prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction && prev.sa_sigaction != strict_segv) {
		prev.sa_sigaction(sig, si, uc);
	} else if (!(prev.sa_flags & SA_SIGINFO) && prev.sa_handler != SIG_DFL &&
		   prev.sa_handler != SIG_IGN) {
		prev.sa_handler(sig);
	} else {
		/* default action: the access faults again and kills the process */
		signal(sig, SIG_DFL);
	}
}

/* The thread's last strict machine (unless @skip), if it still lives */
static bool strict_fault_tls(struct km_machine *skip, void *addr)
{
	struct km_strict_handle *h = strict_tls.h;
	struct km_machine *m;
	bool ours = false;

	if (!h)
		return false;
	atomic_fetch_add(&h->busy, 1);	/* then the generation: see strict_handle_put() */
	if (atomic_load(&h->gen) == strict_tls.gen && (m = atomic_load(&h->m)) && m != skip)
		ours = strict_fault(m, NULL, addr);
	atomic_fetch_sub(&h->busy, 1);
	return ours;
}

static void strict_segv(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	struct km_task *cur = km_current_task;
	struct km_machine *m = cur ? cur->m : NULL;
	bool ours = false;

	if (m && m->cfg.kmap_strict)
		ours = strict_fault(m, cur, si->si_addr);
	if (!ours)
		ours = strict_fault_tls(m, si->si_addr);
	if (!ours)
		strict_chain(sig, si, uc);
	errno = saved;
}

/* Make strict_segv() the SIGSEGV action, chaining to the current one. A
 * program or harness that installs its own later (cmocka does per test)
 * gets ours back, on top, when the next strict machine boots. */
static void strict_install(void)
{
	struct sigaction sa, cur;

	g_mutex_lock(&strict_lock);
	if (sigaction(SIGSEGV, NULL, &cur) == 0 &&
	    !((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == strict_segv)) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = strict_segv;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		strict_prev = cur;
		sigaction(SIGSEGV, &sa, NULL);
	}
	g_mutex_unlock(&strict_lock);
}

static struct km_strict_handle *strict_free;	/* under strict_lock */

static struct km_strict_handle *strict_handle_get(struct km_machine *m)
{
	struct km_strict_handle *h;

	g_mutex_lock(&strict_lock);
	h = strict_free;
	if (h)
		strict_free = h->next_free;
	g_mutex_unlock(&strict_lock);
	if (!h)
		h = g_new0(struct km_strict_handle, 1);
	atomic_store(&h->m, m);
	return h;
}

/* The machine goes: no handler may reach it through @h from now on. The
 * generation is bumped before busy is read, and a handler raises busy
 * before it reads the generation (both sequentially consistent), so a
 * handler either is counted here or sees the new generation. */
static void strict_handle_put(struct km_strict_handle *h)
{
	atomic_store(&h->m, NULL);
	atomic_fetch_add(&h->gen, 1);
	while (atomic_load(&h->busy))
		g_thread_yield();
	g_mutex_lock(&strict_lock);
	h->next_free = strict_free;
	strict_free = h;
	g_mutex_unlock(&strict_lock);
}

int km_kmap_init(struct km_machine *m)
{
	m->kmap = g_try_new0(struct km_kmap_state, 1);
	if (!m->kmap)
		return km_err(-ENOMEM, "kmap: no host memory for its state");
	for (unsigned int i = 0; i < G_N_ELEMENTS(m->kmap->fixmap_extra); i++)
		m->kmap->fixmap_extra[i] = ~0UL;
	if (!m->cfg.kmap_strict)
		return 0;
	if (!local_era(m)) {	/* the fixmap: every CPU's slots, then TEXT_POKE0/1 and more */
		m->kmap->kwin = kwin_block_new(m, MAX(KM_TYPE_NR * m->cfg.nr_cpus +
					     G_N_ELEMENTS(m->kmap->fixmap_extra), fixmap_windows(m)),
					 NULL);
		if (!m->kmap->kwin)
			return km_err(-ENOMEM, "strict kmap: cannot reserve the slot windows");
	}
	m->kmap->strict_handle = strict_handle_get(m);
	strict_install();
	return 0;
}

void km_kmap_fini(struct km_machine *m)
{
	if (!m->kmap)	/* a failed boot */
		return;
	if (m->kmap->strict_handle) {
		if (strict_tls.h == m->kmap->strict_handle)
			strict_tls.h = NULL;
		strict_handle_put(m->kmap->strict_handle);
		m->kmap->strict_handle = NULL;
	}
	kwin_block_free(m, m->kmap->kwin);
	g_free(m->kmap);
	m->kmap = NULL;
}

void km_kmap_task_fini(struct km_task *t)
{
	kwin_block_free(t->m, t->kwin);
	t->kwin = NULL;
}

unsigned int km_kmap_task_slots(const struct km_task *t)
{
	return t->kmap.idx / km_incr(t->m);
}

/* ---- entry points ---------------------------------------------------------- */

/* kmap_atomic() of a page that is not one of @t's machine: the counts
 * raised, a BUG and the bad-kmap page (kmap_bad_page()), which
 * kunmap_atomic() takes back (dropping the counts) */
void *km_kmap_atomic(struct km_task *t, struct km_page *page)
{
	if (__builtin_expect(!t, 0)) {
		km_set_error("km_kmap_atomic: task is NULL");
		return NULL;
	}
	km_preempt_count_inc(t);
	km_pagefault_disabled_inc(t);
	if (__builtin_expect(!km_page_valid(t->m, page), 0))
		return kmap_bad_page(t, page, "kmap_atomic");
	return kmap_slot(t, page);
}

void km_kunmap_atomic(struct km_task *t, void *addr)
{
	if (__builtin_expect(!t, 0)) {
		km_set_error("km_kunmap_atomic: task is NULL");
		return;
	}
	kunmap_slot(t, addr);
	km_pagefault_disabled_dec(t);
	km_preempt_count_dec(t);
}

void *km_kmap_local_page(struct km_task *t, struct km_page *page)
{
	if (!t) {
		km_set_error("km_kmap_local_page: task is NULL");
		return NULL;
	}
	/* code of 5.11 or later on a machine of an older kernel: reported,
	 * then mapped from the CPU's slots as kmap_atomic() maps (without
	 * its preempt and pagefault counts), so the ported code runs on
	 * instead of dereferencing NULL; kunmap_local() pops it */
	if (!local_era(t->m))
		km_report(t->m, KM_BUG, KM_R_KMAP_ERA,
			  "kmap_local_page() on a machine of the pre-5.11 kmap era "
			  "(km_machine_config.kmap = KM_KMAP_LOCAL; kmodel-check --kmap 5.11, "
			  "kmodel-bench --dd-kmap 5.11)");
	if (!km_page_valid(t->m, page))
		return kmap_bad_page(t, page, "kmap_local_page");
	return kmap_slot(t, page);
}

void km_kunmap_local(struct km_task *t, void *addr)
{
	if (!t) {
		km_set_error("km_kunmap_local: task is NULL");
		return;
	}
	/* on a pre-5.11 machine kmap_local_page() reported and took a slot */
	kunmap_slot(t, addr);
}

unsigned int km_kmap_slots_held(const struct km_machine *m, unsigned int cpu)
{
	GHashTableIter it;
	gpointer key;
	unsigned int n = 0;

	if (!m || cpu >= m->cfg.nr_cpus)
		return 0;
	if (!local_era(m))
		return m->cpu[cpu].kmap.idx;
	/* kmap_local: the slots of the tasks on @cpu (its fixmap range) */
	g_hash_table_iter_init(&it, m->tasks);
	while (g_hash_table_iter_next(&it, &key, NULL))
		if (((struct km_task *)key)->cpu == cpu)
			n += km_kmap_task_slots(key);
	return n;
}

void km_fault_kmap_slots(struct km_machine *m, unsigned int slots)
{
	if (m)
		m->kmap_slots = MIN(slots, (unsigned int)KM_TYPE_NR);
}

/*
 * kmap()/kunmap() of ARM (arch/arm/mm/highmem.c, mm/highmem.c, v5.7):
 * might_sleep(); a lowmem page is page_address(); a highmem one takes a
 * pkmap entry of kmap_high() (LAST_PKMAP 512 on ARM, shared by all CPUs),
 * whose mapping is the frame's host storage here. With every entry in use
 * kmap_high() sleeps until a kunmap() frees one: a report, as a task that
 * holds them all would wait forever. kunmap() of an unmapped highmem page
 * is kunmap_high()'s BUG().
 */
#define KM_LAST_PKMAP 512u

void *km_kmap(struct km_task *t, struct km_page *page)
{
	struct km_machine *m;

	if (!t)
		return NULL;
	m = t->m;
	km_might_sleep(t, "kmap()");
	if (!km_page_valid(m, page) || !(page->flags & KM_PG_HIGHMEM))
		return km_page_address(m, page);
	if (m->pkmap_held >= KM_LAST_PKMAP)
		km_report(m, KM_BUG, KM_R_KMAP_OVERFLOW,
			  "kmap(pfn %lu): all %u pkmap entries held: kmap_high() sleeps until a "
			  "kunmap() frees one", km_pfn(m, page), KM_LAST_PKMAP);
	m->pkmap_held++;
	KM_EV_INC(m, kmap_high);
	return km_frame(m, km_pfn(m, page));
}

void km_kunmap(struct km_task *t, struct km_page *page)
{
	struct km_machine *m;

	if (!t)
		return;
	m = t->m;
	if (!km_page_valid(m, page) || !(page->flags & KM_PG_HIGHMEM))
		return;
	if (!m->pkmap_held) {
		km_report(m, KM_BUG, KM_R_KMAP_UNBALANCED,
			  "kunmap(pfn %lu): no pkmap entry held (kunmap_high() BUG())",
			  km_pfn(m, page));
		return;
	}
	m->pkmap_held--;
}

int km_kmap_check(struct km_machine *m)
{
	GHashTableIter it;
	gpointer key;
	int n = 0;

	if (m->pkmap_held) {
		km_report(m, KM_BUG, KM_R_LEAK_KMAP, "%u kmap() pkmap entr%s still held (no kunmap())",
			  m->pkmap_held, m->pkmap_held == 1 ? "y" : "ies");
		n++;
	}
	/* kmap_local: the slots are the task's (its kmap_ctrl, v5.11), held
	 * while it lives: reported here too, not only when the task exits
	 * (km_task_free()), so that a check of a running machine sees them */
	g_hash_table_iter_init(&it, m->tasks);
	while (local_era(m) && g_hash_table_iter_next(&it, &key, NULL)) {
		const struct km_task *t = key;

		if (!km_kmap_task_slots(t))
			continue;
		km_report(m, KM_BUG, KM_R_LEAK_KMAP, "a live task on cpu %u holds %u kmap_local "
			  "slot(s)", t->cpu, km_kmap_task_slots(t));
		n++;
	}

	for (unsigned int cpu = 0; cpu < m->cfg.nr_cpus; cpu++) {
		if (!m->cpu[cpu].kmap.idx)
			continue;
		km_report(m, KM_BUG, KM_R_LEAK_KMAP, "cpu %u still holds %u kmap_atomic slot(s)",
			  cpu, m->cpu[cpu].kmap.idx);
		n++;
	}
	return n;
}
