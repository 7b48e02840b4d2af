/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private state of libkmodel's core (not installed, not part of the API):
 * the machine, tasks, reports, kmalloc. The lowest layer: it names no
 * subsystem's functions. Subsystems above it keep their own private
 * headers (mm_sim/mm_internal.h, skb_sim/skb_internal.h); the machine's
 * lifecycle that calls into them lives above them (lifecycle/lifecycle.c).
 * struct km_machine keeps the core's state (CPUs, tasks, reports, events,
 * kmalloc caches, the config) and the frames of physical memory, hot on
 * every modelled operation (mm_sim/physmem.c sets them up). skb_sim,
 * usbnet and kmap keep theirs behind opaque pointers (struct km_skb_state,
 * km_usbnet_state, km_kmap_state, km_interleave_state, defined in their
 * own files and set up and torn down by lifecycle.c).
 */
#ifndef KMODEL_INTERNAL_H
#define KMODEL_INTERNAL_H

#include <kmodel/machine.h>
#include <kmodel/current.h>
#include <kmodel/mm.h>
#include <kmodel/interleave.h>
#include <kmodel/sized.h>
#include <errno.h>
#include <glib.h>
#include <stddef.h>
#include <string.h>

#define KM_MAX_CPUS		32
#define KM_REPORT_LOG_MAX	1024
#define KM_REPORT_CHUNK		64	/* reports per log chunk: chunks never move */

struct km_page;		/* mm_sim/mm_internal.h */

/* a zone of the page allocator (mm_sim/page_alloc.c) */
struct km_zone {
	unsigned long start_pfn, end_pfn;	/* [start, end) */
	unsigned long next_pfn;			/* never-used frames start here */
	unsigned long free_head;		/* pfn + 1 of the last freed frame, 0: none */
};

/* ptes a slot stack records: KM_MAX_IDX 33 of CONFIG_DEBUG_KMAP_LOCAL and
 * room for a few overflowing maps (past which no pte is kept) */
#define KM_KMAP_PTES	40

/* A stack of kmap slots: per CPU before 5.11 (__kmap_atomic_idx, whose
 * fixmap ptes pfn[] holds), per task from 5.11 (current->kmap_ctrl: idx
 * and pteval[]). */
struct km_kmap_stack {
	unsigned int idx;			/* __kmap_atomic_idx / kmap_ctrl.idx */
	unsigned long pfn[KM_KMAP_PTES];	/* by slot: the pte's pfn, ~0UL: none */
};

static inline void km_kmap_stack_init(struct km_kmap_stack *st)
{
	st->idx = 0;
	for (unsigned int s = 0; s < KM_KMAP_PTES; s++)
		st->pfn[s] = ~0UL;
}

struct km_kwin_block;	/* strict kmap mode: host windows (mm_sim/highmem.c) */
struct km_skb_state;	/* skb_sim/skbuff.c */
struct km_kmap_state;	/* mm_sim/highmem.c */
struct km_usbnet_state;	/* asix/usbnet.c */
struct km_interleave_state;	/* mm_sim/interleave.c */
struct km_gup_state;		/* mm_sim/gup.c */
struct km_copy_state;		/* mm_sim/ptlock.c */

struct km_cpu {
	struct km_kmap_stack kmap;
};

/* kmalloc caches (slab.c): a free list per size class, and the slabs. */
#define KM_NR_KMALLOC_CLASSES 48
#define KM_SLAB_FAST_MAX 4096
struct obj_hdr;
struct km_slab {
	struct obj_hdr *freelist[KM_NR_KMALLOC_CLASSES];
	GArray *slabs;		/* struct km_slab_page, sorted by base */
	const unsigned char *hit_lo, *hit_hi;	/* the last slab kfree found */
	size_t hit_stride;
	/* the slabs obj_search() found last, round robin: a path that frees
	 * objects of several classes in turn (a URB, its buffer, the frames)
	 * finds each slab without the binary search */
#define KM_SLAB_RECENT 4
	struct km_slab_recent {
		const unsigned char *lo, *hi;
		size_t stride;
	} recent[KM_SLAB_RECENT];
	unsigned int recent_next;
	/* an object start known valid (slabs live as long as the machine):
	 * the last object handed out or found; kfree of it needs no search */
	const struct obj_hdr *last_obj;
	/* the last kmalloc() whose host and ARM sizes differ (the rx URB's
	 * buffer of every transfer): its size classes, not recomputed */
	size_t memo_size, memo_arm_size;
	unsigned int memo_cls, memo_arm_cls;
	/* kmalloc's sizes up to KM_SLAB_FAST_MAX, by (size - 1) / 8 (every
	 * bucket is a multiple of 8): the size class, | the bucket << 16
	 * (slab.c fast_entry()), made at boot */
	uint32_t fast[KM_SLAB_FAST_MAX / 8];
};

/*
 * Event counting. Every update of struct km_events (m->ev) and of the path
 * counters (m->path_ev) goes through these macros, and the "warm" clock's
 * bookkeeping tests KMODEL_COUNT_EVENTS, so that a measurement build
 * (cmake -DKMODEL_COUNT_EVENTS=OFF: docs/bench.md, "Counting the events") compiles
 * all of it to nothing. Its events, and every prediction made from them,
 * are meaningless: it exists only to measure what counting costs.
 * At run time km_events_set_counting(m, false) stops the counter updates
 * (KM_EV_INC, KM_EV_ADD, KM_PATH_INC, the counter of KM_EV_TRAFFIC) behind
 * a predictable branch on m->counting_off, next to the counters; the
 * clock (KM_EV_CLOCK, KM_EV_MEMCPY, the clock of KM_EV_TRAFFIC) and the
 * warm-line bookkeeping keep running, so that the warm-line counters of a
 * later counted stretch are what they would have been.
 */
#ifndef KMODEL_COUNT_EVENTS
#define KMODEL_COUNT_EVENTS 1
#endif
/* compile-time checks of a byte counter of the warm clock: memcpy_bytes
 * counts only through KM_EV_MEMCPY(), the other three through
 * KM_EV_TRAFFIC(), and KM_EV_ADD() takes none of them */
#define KM_EV_IS(field, other)	(offsetof(struct km_events, field) == offsetof(struct km_events, other))
#define KM_EV_CLOCKED(field)                                                      \
	(KM_EV_IS(field, clear_bytes) || KM_EV_IS(field, memmove_bytes) ||       \
	 KM_EV_IS(field, skb_copy_bytes))
#define KM_EV_ASSERT(cond)	((void)sizeof(char[(cond) ? 1 : -1]))
#if KMODEL_COUNT_EVENTS
#define KM_EV_COUNTING(m)	__builtin_expect(!(m)->counting_off, 1)
#define KM_EV_INC(m, field)	(KM_EV_COUNTING(m) ? (void)((m)->ev.field++) : (void)0)
#define KM_EV_ADD(m, field, n)	(KM_EV_ASSERT(!KM_EV_CLOCKED(field) && !KM_EV_IS(field, memcpy_bytes)), \
				 KM_EV_COUNTING(m) ? (void)((m)->ev.field += (n)) : (void)0)
#define KM_PATH_INC(m, field)	(KM_EV_COUNTING(m) ? (void)((m)->path_ev.field++) : (void)0)
/* the warm clock (km_traffic_bytes()) alone; the bytes of memcpy_bytes
 * count only there: km_events_get_sized() derives memcpy_bytes from it */
#define KM_EV_CLOCK(m, n)	((m)->traffic += (n))
#define KM_EV_MEMCPY(m, n)	KM_EV_CLOCK(m, n)
/* clear_bytes, memmove_bytes, skb_copy_bytes: the counter and the clock */
#define KM_EV_TRAFFIC(m, field, n)                   \
	do {                                         \
		uint64_t km_ev_n_ = (n);             \
		KM_EV_ASSERT(KM_EV_CLOCKED(field));  \
		if (KM_EV_COUNTING(m))               \
			(m)->ev.field += km_ev_n_;   \
		(m)->traffic += km_ev_n_;            \
	} while (0)
#else
/* sizeof: the same expressions type-check, none is evaluated */
#define KM_EV_INC(m, field)	((void)sizeof((m)->ev.field))
#define KM_EV_ADD(m, field, n)	(KM_EV_ASSERT(!KM_EV_CLOCKED(field) && !KM_EV_IS(field, memcpy_bytes)), \
				 (void)sizeof((m)->ev.field += (n)))
#define KM_PATH_INC(m, field)	((void)sizeof((m)->path_ev.field))
#define KM_EV_CLOCK(m, n)	((void)sizeof((m)->traffic += (n)))
#define KM_EV_MEMCPY(m, n)	KM_EV_CLOCK(m, n)
#define KM_EV_TRAFFIC(m, field, n) (KM_EV_ASSERT(KM_EV_CLOCKED(field)), (void)sizeof((m)->ev.field += (n)))
#endif

/*
 * Path counters. Where a modelled path always bumps several struct km_events
 * counters together, it bumps one of these instead: one store where there
 * were two or three, which weighs on the short system calls of dd at
 * 512-byte blocks, where a counter update is a visible share of a block.
 * km_events_get_sized() adds each into every counter it stands for, so the
 * public counters are exact; a snapshot taken inside a path (from a memcpy
 * hook) sees the path's counts from its start on.
 */
struct km_path_events {
	uint64_t shmem_read_page;	/* a page of shmem_file_read_iter(): pagecache_lookups,
					 * get_page_calls, put_page_calls */
	uint64_t shmem_write_begin;	/* shmem_write_begin() with a page: pagecache_lookups,
					 * get_page_calls */
	uint64_t direct_copy;		/* a direct copy call: memcpy_calls, uaccess_range_masks,
					 * uaccess_pan_switches (without fast_gup: not ARM_LPAE) */
	uint64_t direct_clear;		/* a direct clear call: memset_calls, uaccess_pan_switches
					 * (the same) */
	uint64_t fault_in_byte;		/* a one-byte __get_user()/__put_user() of
					 * fault_in_pages_{readable,writeable}():
					 * uaccess_pan_switches (the same) */
	uint64_t kmap_high_flush;	/* kmap of a highmem page to a slot: kmap_high, tlb_flushes */
	uint64_t gup_fast_page;		/* a page pinned by gup_pte_range(): pt_walks,
					 * get_page_calls, gup_fast_pages */
	uint64_t gup_slow_call;		/* __get_user_pages(): gup_slow_calls, mmap_sem_locks,
					 * find_vma_calls (its first page's) */
	uint64_t gup_slow_page;		/* a page it pinned: follow_page_calls and pt_walks
					 * (the follow_page_pte() that found it),
					 * get_page_calls, gup_slow_pages */
	/* kmalloc() and kfree() of an object whose bucket on 32-bit ARM is
	 * its host bucket (all but the rare ones whose ARM size rounds to
	 * another bucket, which count in the km_events directly), by size
	 * class (slab.c; km_slab_events() derives the counters) */
	uint64_t kmalloc_cls[KM_NR_KMALLOC_CLASSES];	/* kmalloc_calls, kmalloc_bytes,
							 * kmalloc_arm_bytes, kmalloc_class */
	uint64_t kzalloc_cls[KM_NR_KMALLOC_CLASSES];	/* the same with __GFP_ZERO: and
							 * clear_bytes, memset_calls */
	uint64_t kfree_cls[KM_NR_KMALLOC_CLASSES];	/* kfree_calls, kfree_bytes,
							 * kfree_arm_bytes, kfree_class */
	/* those of an object whose ARM bucket is another (the rx URB's buffer
	 * with its host guard), without __GFP_ZERO: each call by its host
	 * class (the calls, the host bytes) and by its ARM class (the ARM
	 * bytes, the size class) */
	uint64_t kmalloc_host_cls[KM_NR_KMALLOC_CLASSES];	/* kmalloc_calls, kmalloc_bytes */
	uint64_t kmalloc_arm_cls[KM_NR_KMALLOC_CLASSES];	/* kmalloc_arm_bytes,
								 * kmalloc_class */
	uint64_t kfree_host_cls[KM_NR_KMALLOC_CLASSES];		/* kfree_calls, kfree_bytes */
	uint64_t kfree_arm_cls[KM_NR_KMALLOC_CLASSES];		/* kfree_arm_bytes, kfree_class */
};

struct km_machine {
	/* hot: read on every modelled operation, kept together */
	struct km_machine_config cfg;
	unsigned int page_shift;
	unsigned long page_size, nr_pages, nr_lowmem;
	unsigned long task_size;
	unsigned char *ram;		/* host mapping of all frames */
	unsigned char *highmem_start;	/* km_frame(nr_lowmem): highmem frames from here */
	unsigned char *ram_end;		/* past the last frame */
	struct km_page *pages;		/* mem_map */
	struct km_slab *slab;		/* &slab_caches while the machine lives */
	struct km_slab slab_caches;
	bool counting_off;		/* km_events_set_counting(m, false) */
	struct km_events ev;
	uint64_t traffic;		/* km_traffic_bytes() */
	uint64_t traffic_reset;		/* traffic at the last km_events_reset(), plus
					 * what it advanced while counting was off */
	uint64_t traffic_off;		/* traffic when counting went off (or at the last
					 * reset while off) */
	struct km_path_events path_ev;	/* read with ev by km_events_get_sized() */
	unsigned long report_counts[KM_R__COUNT];
	bool report_log_full;		/* the log holds report_log_max */
	unsigned int report_log_max;	/* KM_REPORT_LOG_MAX unless set */
	/* fault injection */
	unsigned long fail_kmalloc_nth;
	long gup_limit;			/* < 0: off; else pages per gup call */
	unsigned int kmap_slots;	/* usable kmap slots (KM_TYPE_NR: all) */
	/* km_fault_after_gup()'s hook (mm_sim/gup.c): NULL unless armed */
	struct km_gup_state *gup;
	/* interleaving points (mm_sim/interleave.c): armed while a hook or a
	 * scheduler is, which its state holds */
	bool ip_armed;
	struct km_interleave_state *interleave;
	/* km_fault_on_memcpy()'s hook of the memcpy()/memset() shims
	 * (mm_sim/ptlock.c): NULL unless armed */
	struct km_copy_state *copy;
	/* the pinned-write checker (mm_sim/pinwrite.c): on, and the FOLL_WRITE
	 * references of each page it follows (struct km_page * -> count) */
	bool check_pinned_writes;
	GHashTable *write_pins;
	/* current->mm of a task with no mm (km_task_mm_locks()) */
	struct km_mm_locks no_mm_locks;
	struct km_page *zero_page;
	struct km_zone zone_low, zone_high;
	/* reports: the log is chunks of KM_REPORT_CHUNK, allocated as it
	 * fills and never moved or freed before the machine, so a pointer
	 * from km_report_get() stays valid until km_reports_clear() */
	struct km_report *report_chunk[KM_REPORT_LOG_MAX / KM_REPORT_CHUNK];
	size_t report_log_len;
	/* live objects, for teardown: tasks (lifecycle.c), address spaces
	 * and files (mm_sim/mm.c) */
	GHashTable *mms, *tasks, *files;
	struct km_skb_state *skb;	/* skb_sim's (skb_sim/skbuff.c) */
	struct km_usbnet_state *usbnet;	/* usbnet's (asix/usbnet.c) */
	/* RAM's memfd (strict kmap mode; -1 otherwise: mm_sim/physmem.c) */
	int ram_fd;
	struct km_kmap_state *kmap;	/* kmap's (mm_sim/highmem.c): fixmap, strict mode */
	/* what a kmap of a bad page (NULL, another machine's) returns: one
	 * page-aligned page between inaccessible host pages (NULL until the
	 * first; mm_sim/physmem.c) */
	unsigned char *bad_kmap, *bad_kmap_map;
	bool printk_quiet;		/* km_printk_set_quiet() */
	/* the layer's uaccess variant of tasks without their own
	 * (km_machine_set_uaccess()), NULL: direct */
	struct km_uaccess_ops *uaccess;
	/* kmap() (sleeping) of highmem pages held: kmap_high()'s pkmap
	 * entries in use (mm_sim/highmem.c km_kmap()) */
	unsigned int pkmap_held;
	struct km_cpu cpu[KM_MAX_CPUS];	/* cold unless highmem: last */
};


struct km_usbnet_rx;

struct km_task {
	struct km_machine *m;
	/* the receive path whose rx_fixup this task runs (asix/usbnet_rx.c:
	 * m->usbnet->rx_active, one load away for each step of the loop), or
	 * NULL */
	struct km_usbnet_rx *rx_fixup;
	struct km_mm *mm;
	unsigned int cpu;
	int preempt_count;
	int pagefault_disabled;
	int spinlocks;			/* spin_lock()s held (each also in preempt_count) */
	bool irqs_disabled;		/* local_irq_disable()/_save() */
	bool kernel_ds;
	unsigned int uaccess_open;	/* inside uaccess_save_and_enable() */
	struct km_kmap_stack kmap;	/* kmap_local (5.11+) slots */
	struct km_kwin_block *kwin;	/* strict kmap_local: the task's host windows */
	/* the variant the compatibility layer copies through on this task
	 * (km_task_set_uaccess(): completed with direct's), NULL: the
	 * machine's */
	struct km_uaccess_ops *uaccess;
	/* the ported code's call site of the layer shim that runs now (the
	 * outermost), named by the reports it raises: km_task_set_caller() */
	const char *caller_file;
	int caller_line;
};

/* `current` of the calling host thread: kmodel/current.h, core/current.c */

/* report.c */
/* km_err(), km_set_error(): kmodel/machine.h */
void km_report_log_fini(struct km_machine *m);

/* machine.c: the core half of km_machine_new() and km_machine_destroy()
 * (lifecycle.c): resolve and check @cfg, allocate the machine with its
 * core state (reports, task table, kmap stacks, fault injection off). */
int km_machine_alloc(const struct km_machine_config *cfg, size_t cfg_size,
		     struct km_machine **out);
/* sizeof the first version of struct km_machine_config: the members that
 * programs built before km_machine_new_sized() pass */
#define KM_MACHINE_CONFIG_V1_SIZE offsetof(struct km_machine_config, kmap_strict)
void km_machine_free(struct km_machine *m);

/* km_struct_read(), km_struct_write(): kmodel/sized.h */
/* call @release on every object in @set (which @release removes from it) */
void km_release_all(GHashTable *set, void (*release)(gpointer));

/* slab.c */
void km_kfree_machine(struct km_machine *m, const void *obj);
/* kfree() of @obj, a pointer a kmalloc() of @m returned that the caller
 * kept in its own host memory (skb_sim's data buffers, the rx URB): no
 * lookup of its slab; anything but a live object goes the way of
 * km_kfree_machine() */
void km_kfree_obj(struct km_machine *m, const void *obj);
/* host memory from the slabs that the target does not kmalloc (a page
 * fragment's bytes): no events; km_kfree_obj() frees it uncounted */
void *km_kmalloc_host(struct km_machine *m, size_t size);
/* ksize() of @obj, what a successful kmalloc() just returned (not
 * ZERO_SIZE_PTR): its bucket, without a lookup */
size_t km_ksize_obj(const void *obj);
/* add the counters that kmalloc_cls, kzalloc_cls and kfree_cls of @p stand
 * for into @ev */
void km_slab_events(const struct km_path_events *p, struct km_events *ev);
int km_slab_init(struct km_machine *m);
int km_slab_check(struct km_machine *m);
void km_slab_fini(struct km_machine *m);

static inline bool km_in_atomic(const struct km_task *t)
{
	return t->preempt_count != 0;
}
static inline bool km_faulthandler_disabled(const struct km_task *t)
{
	return t->pagefault_disabled != 0 || km_in_atomic(t);
}

/* machine.c. The hot halves of might_sleep() and of the preempt and
 * pagefault counters are inline for the modelled paths inside the library;
 * the exported km_preempt_*()/km_pagefault_*() call the same helpers. */
void km_might_sleep_report(struct km_task *t, const char *what);

/* Would km_report() on @m format and log a message now? When false it only
 * counts, so a caller may skip building the state it would print. */
static inline bool km_report_formats(const struct km_machine *m)
{
	return !m->report_log_full || m->cfg.report_policy != KM_REPORT_RECORD;
}

/* Count a report of @code (valid) on @m: its code, all, and the sharing
 * category (what km_report() counts before it logs). */
static inline void km_report_tally(struct km_machine *m, enum km_report_code code)
{
	m->report_counts[code]++;
	m->report_counts[KM_R_NONE]++;
	if ((code >= KM_R_SKB_WRITE_CLONED && code <= KM_R_SKB_HDR_RELEASED) ||
	    code == KM_R_SKB_STORE_SHARED)
		m->report_counts[KM_R_SKB_SHARING]++;	/* the category */
}
void km_count_underflow(struct km_task *t, const char *what, int count);

/* might_sleep(): ___might_sleep() reports only in atomic context */
/* ___might_sleep(): atomic, or interrupts off (kernel/sched/core.c, v5.7:
 * `preempt_count_equals(preempt_offset) && !irqs_disabled()` returns) */
static inline void km_might_sleep(struct km_task *t, const char *what)
{
	if (km_in_atomic(t) || t->irqs_disabled)
		km_might_sleep_report(t, what);
}
/* A page fault on a user address (do_page_fault(), arch/arm/mm/fault.c)
 * with a spinlock held or interrupts off, outside pagefault_disable(): in
 * every era a bug -- a kernel without CONFIG_PREEMPT_COUNT sleeps in it
 * holding the lock ("scheduling while atomic", a deadlock), one with it
 * fixes the access up and the copy fails without a word, and with
 * interrupts off handle_mm_fault() sleeps with them off. A checker: the
 * fault is then handled (or not) as the kernel does. */
void km_fault_in_atomic_report(struct km_task *t, unsigned long addr, bool write);
static inline void km_fault_in_atomic_check(struct km_task *t, unsigned long addr, bool write)
{
	if (__builtin_expect((t->spinlocks || t->irqs_disabled) && !t->pagefault_disabled, 0))
		km_fault_in_atomic_report(t, addr, write);
}
/* barrier(): as in the kernel's preempt_disable()/pagefault_disable() and
 * their enables. It also keeps the compiler from merging the two adjacent
 * counters into one 8-byte vector update, whose load cannot be forwarded
 * from the two 4-byte stores of the previous kunmap and so waits for every
 * store before it (a whole page's memcpy) to drain. */
#define km_barrier() __asm__ __volatile__("" ::: "memory")

static inline void km_preempt_count_inc(struct km_task *t)
{
	t->preempt_count++;
	km_barrier();
}
static inline void km_preempt_count_dec(struct km_task *t)
{
	km_barrier();
	if (t->preempt_count <= 0)
		km_count_underflow(t, "preempt_enable() with preempt_count", t->preempt_count);
	else
		t->preempt_count--;
}
static inline void km_pagefault_disabled_inc(struct km_task *t)
{
	t->pagefault_disabled++;
	km_barrier();
}
static inline void km_pagefault_disabled_dec(struct km_task *t)
{
	km_barrier();
	if (t->pagefault_disabled <= 0)
		km_count_underflow(t, "pagefault_enable() with pagefault_disabled",
				   t->pagefault_disabled);
	else
		t->pagefault_disabled--;
}

/* access_ok() (arch/arm/include/asm/uaccess.h __range_ok, v5.7): addr + size
 * must not pass addr_limit (USER_DS = TASK_SIZE) and must not wrap;
 * KERNEL_DS allows everything. */
static inline bool km_access_ok(const struct km_task *t, unsigned long addr, unsigned long size)
{
	unsigned long limit = t->m->task_size;

	if (t->kernel_ds)
		return true;
	return size <= limit && addr <= limit - size;
}

/* The bytes @m has copied, set or moved since it booted (memcpy_bytes,
 * clear_bytes, memmove_bytes and skb_copy_bytes, never reset): the clock of
 * "warm" lines (KM_EVENTS_WARM_BYTES, kmodel/machine.h). One counter that
 * KM_EV_MEMCPY() and KM_EV_TRAFFIC() advance, so that the clock is one load
 * where it is read (each kfree() and kzalloc(), each write over a zeroed
 * page-cache range). */
static inline uint64_t km_traffic_bytes(const struct km_machine *m)
{
	return m->traffic;
}

#endif
