/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/machine.h - a simulated machine: configuration, lifecycle, tasks,
 * BUG/WARN reports, event counters, kmalloc and fault injection.
 *
 * Everything in libkmodel hangs off a struct km_machine; there is no global
 * mutable state, so independent machines may run in parallel host threads.
 * One machine is NOT thread-safe: drive it from one host thread at a time.
 *
 * Errors: functions returning int return 0 or a negative errno (-EINVAL,
 * -ENOMEM, -EFAULT, ...). The reason for the last failure on the calling
 * host thread is available from km_last_error(). A NULL machine, task, mm,
 * file, page or buffer is checked before anything else and never
 * dereferenced: the call fails (-EINVAL, NULL, 0, false, or n bytes not
 * copied) or, returning void, does nothing, and km_last_error() says why;
 * a page of another machine is a KM_R_BAD_PAGE report where a machine is
 * at hand.
 */
#ifndef KMODEL_MACHINE_H
#define KMODEL_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KM_API __attribute__((visibility("default")))

struct km_machine;
struct km_task;
struct km_mm;

/** Where the 32-bit ARM user/kernel split lies (CONFIG_VMSPLIT_*). */
enum km_vmsplit {
	KM_VMSPLIT_3G = 0,	/**< default: PAGE_OFFSET 0xc0000000, TASK_SIZE 0xbf000000 */
	KM_VMSPLIT_2G,		/**< PAGE_OFFSET 0x80000000, TASK_SIZE 0x7f000000 */
	KM_VMSPLIT_1G,		/**< PAGE_OFFSET 0x40000000, TASK_SIZE 0x3f000000 */
	/** Separate 4 GiB user and kernel address spaces, the RFC's goal.
	 *  Model assumptions (no merged ARM definition exists): TASK_SIZE
	 *  0xff000000 (the top 16 MiB kept out, as TASK_SIZE = PAGE_OFFSET -
	 *  16 MiB elsewhere) and a lowmem limit of 3840 MiB (vmalloc_min
	 *  0xf0000000 with the kernel's space starting at 0). User pages are
	 *  not reachable from kernel mode, so the `direct` uaccess variant
	 *  records a KM_R_UNEXPECTED BUG and copies nothing. */
	KM_VMSPLIT_4G4G,
};

/** Which kmap implementation the machine models. */
enum km_kmap_flavour {
	/** default: pre-5.11 ARM kmap_atomic (arch/arm/mm/highmem.c, v5.7):
	 *  KM_TYPE_NR = 16 per-CPU slots, one TLB flush per highmem map; an
	 *  out-of-order unmap pops the top slot silently unless kmap_debug. */
	KM_KMAP_ATOMIC_PRE_5_11 = 0,
	/** 5.11+ kmap_local (mm/highmem.c, v5.11): KM_MAX_IDX = 16 slots per
	 *  task, a TLB flush on map and on unmap, WARN on out-of-order unmap,
	 *  BUG on overflow; kmap_atomic() = preempt/pagefault disable + this. */
	KM_KMAP_LOCAL,
};

/**
 * Strict kmap checking, a model debug mode (off by default) modelled on
 * CONFIG_DEBUG_KMAP_LOCAL (v5.11: a guard slot after every kmap slot) and
 * its CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP (every kmap takes a slot, lowmem
 * too). Each kmap slot gets its own host address: an alias mapping of the
 * frame (RAM then lives in a memfd), between two inaccessible guard pages.
 * So two kmaps of one page return two addresses, kunmap checks the
 * address exactly as the kernel does (see km_kunmap_atomic()), an access
 * past the mapped page or before it stops at a guard and is a
 * KM_R_KMAP_GUARD report (slot, pfn, how far past or before) instead of
 * silently reaching the next frame, and an access to a slot whose pte the
 * kernel cleared is KM_R_KMAP_UNMAPPED. The faulting access then completes
 * on a scratch page (reads give zeroes). Slots down to the bottom of the
 * fixmap (FIXADDR_START) have windows: a CPU's or task's kmaps may nest 767
 * deep with 4 KiB pages, 47 with 64 KiB (or KM_TYPE_NR per CPU and the
 * fixmap entries after them, where more); a kmap nested deeper is a
 * KM_R_UNEXPECTED BUG at the frame's address, for which kunmap pops
 * nothing, as the kernel's would not. It needs a SIGSEGV handler (installed when such a machine boots,
 * chaining to the previous one for every other fault; under ASan that
 * needs ASan's default allow_user_segv_handler=1); the access must come
 * from the host thread that drives the machine (its current task's, or the
 * last strict machine that kmapped on that thread, while it lives). Each
 * kmap/kunmap costs host mmap()/mprotect() calls: docs/mm.md, "Strict
 * kmap mode", says how to see the cost on the dd bench.
 */
enum km_kmap_strict {
	KM_KMAP_STRICT_OFF = 0,		/**< default: kmap addresses are the frames' */
	/** highmem kmaps get slot addresses with guard pages; lowmem kmaps
	 *  return the direct map, as the kernel does */
	KM_KMAP_STRICT,
	/** every kmap takes a slot (CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP, v5.11,
	 *  0e91a0c6984c, which selects CONFIG_DEBUG_KMAP_LOCAL: on a
	 *  KM_KMAP_LOCAL machine kmap_debug is then set too). Before 5.11 no
	 *  kernel had it: the model maps lowmem through the kmap_atomic slots
	 *  alike, so lowmem kmaps count against KM_TYPE_NR. */
	KM_KMAP_STRICT_FORCE_MAP,
};

/**
 * The mm era: whose COW, gup and fork rules the machine follows. Each era
 * differs from v5.7 only where it says (the rest of the model follows v5.7
 * throughout); each era's rules follow its commits' text, cited in
 * src/mm_sim/gup.c and mm.c.
 */
enum km_mm_era {
	/** default, v5.7: do_wp_page() reuses an anonymous page whose
	 *  page_mapcount() is 1 (reuse_swap_page()); gup's FOLL_COW after a
	 *  COW fault, and can_follow_write_pte() = pte_write() || (FOLL_FORCE
	 *  && FOLL_COW && pte_dirty()) (19be0eaffa3a); fork shares every
	 *  private page copy-on-write. A read-only gup of a COW-shared page can
	 *  end up seeing another process's writes (CVE-2020-29374), and a page
	 *  pinned before fork loses its parent at the parent's next write. */
	KM_MM_ERA_5_7 = 0,
	/** v4.8, before 19be0eaffa3a (Dirty COW, CVE-2016-5195): after a COW
	 *  fault on a vma without VM_WRITE, faultin_page() drops FOLL_WRITE and
	 *  the retry looks the page up for reading; no FOLL_COW; follow_page()
	 *  wants pte_write() for FOLL_WRITE. No pin_user_pages() (v5.6), and
 *  no FOLL_FORCE through the lockless gup entries (their `int write`). */
	KM_MM_ERA_4_8,
	/** v5.8, 17839856fd58 ("gup: document and work around 'COW can break
	 *  either way' issue"): __get_user_pages() turns on FOLL_WRITE for
	 *  FOLL_GET/FOLL_PIN on a COW mapping (a read-only gup breaks COW),
	 *  the fast walk of get_user_pages_fast() takes only writable ptes
	 *  (__get_user_pages_fast() unchanged), can_follow_write_pte() =
	 *  pte_write() || (FOLL_COW && pte_dirty()). */
	KM_MM_ERA_5_8,
	/** v5.9: 09854ba94c6a (do_wp_page() reuses an anonymous page only when
	 *  page_count() is 1, mapcount 1) with a308c71bf1e6 (5.8's forced COW
	 *  break reverted), and 70e806e4e645 (5.9-rc7: at fork, a page of a
	 *  COW mapping that may be DMA-pinned -- page_count() >=
	 *  GUP_PIN_COUNTING_BIAS -- in an mm that has pinned (FOLL_PIN, ever)
	 *  is copied to the child at once; the parent keeps its pte). */
	KM_MM_ERA_5_9,
};

/** What a BUG report does (WARNs are always only recorded). */
enum km_report_policy {
	KM_REPORT_RECORD = 0,	/**< default: record and go on (tests assert on it) */
	KM_REPORT_ABORT_ON_BUG,	/**< record, log, then abort() the host process */
};

/**
 * struct km_machine_config - the simulated machine. A zero-initialised
 * config means all defaults; every non-zero field is validated by
 * km_machine_new(), which returns -EINVAL naming the field and the reason.
 */
struct km_machine_config {
	/** bytes: 4096 (default), 16384 or 65536 */
	unsigned long page_size;
	/** bytes of RAM, a multiple of page_size, 1 MiB .. 4 GiB;
	 *  default 256 MiB (BeagleBone White) */
	uint64_t ram_size;
	/** bytes of lowmem (the rest is highmem), a multiple of page_size,
	 *  at least 1 MiB, at most ram_size and the split's lowmem limit
	 *  (arm_lowmem_limit: 768 MiB for 3G/1G, 1792 MiB for 2G/2G,
	 *  2816 MiB for 1G/3G, 3840 MiB for 4G/4G); default
	 *  min(ram_size, that limit) */
	uint64_t lowmem_size;
	/** simulated CPUs, 1..32; default 1 */
	unsigned int nr_cpus;
	enum km_vmsplit vmsplit;
	enum km_kmap_flavour kmap;
	/** Before 5.11, CONFIG_DEBUG_HIGHMEM: BUG on out-of-order
	 *  kunmap_atomic, on a slot overflow and on mapping a slot whose pte is
	 *  not none, and clear (and flush) the fixmap pte on unmap; without it
	 *  an overflowing kmap_atomic maps over the next fixmap slot
	 *  (KM_R_KMAP_CLOBBER says which). With KM_KMAP_LOCAL,
	 *  CONFIG_DEBUG_KMAP_LOCAL: a guard slot between slots (KM_INCR 2,
	 *  KM_MAX_IDX 33). Default off. */
	bool kmap_debug;
	/** CONFIG_HAVE_FAST_GUP (ARM: only with LPAE). Default off, as on the
	 *  BeagleBone: get_user_pages_fast() then always takes the slow path. */
	bool fast_gup;
	/** bytes: L1_CACHE_BYTES, a power of two 16..256; default 64 (Cortex-A8) */
	unsigned int l1_cache_bytes;
	/** bytes: KMALLOC_MIN_SIZE (ARCH_DMA_MINALIGN on ARM), a power of two
	 *  8..256; default 64 (ARMv7). kmalloc-96 exists only when it is <= 32,
	 *  kmalloc-192 only when it is <= 64 (include/linux/slab.h, v5.7). */
	unsigned int kmalloc_min_size;
	enum km_report_policy report_policy;
	/* Appended members (versioning: km_machine_new_sized()). */
	/** strict kmap mode (see enum km_kmap_strict); default off. Needs
	 *  host pages no larger than page_size. */
	enum km_kmap_strict kmap_strict;
	/** the mm era (see enum km_mm_era); default KM_MM_ERA_5_7 */
	enum km_mm_era mm_era;
};

/**
 * km_machine_get_config_sized() - the effective configuration of a machine
 * (defaults filled in): @size bytes of it into @out, the caller's
 * sizeof(struct km_machine_config); use km_machine_get_config(). A NULL
 * @m zero-fills them; a NULL @out is a no-op.
 */
KM_API void km_machine_get_config_sized(const struct km_machine *m,
					struct km_machine_config *out, size_t size);

/**
 * km_machine_new_sized() - boot a simulated machine; use km_machine_new().
 * @cfg: configuration; NULL or zero-initialised for all defaults.
 * @cfg_size: sizeof(struct km_machine_config) as the caller was compiled:
 *            members are only ever appended, and those past @cfg_size take
 *            their defaults, so a program built against an older header
 *            keeps working (the exported km_machine_new() symbol such
 *            programs call reads the first version's members only).
 * @out: receives the machine; the caller owns it (km_machine_destroy()).
 *
 * Reserves RAM as one host mapping backed only when touched, so a 1 GiB
 * machine costs the host only the pages it uses.
 * Return: 0, -EINVAL (bad field: see km_last_error()), -ENOMEM.
 */
KM_API int km_machine_new_sized(const struct km_machine_config *cfg, size_t cfg_size,
				struct km_machine **out);
/* The library also exports km_machine_new() and km_machine_get_config()
 * symbols: the first version's, which read and write the members up to
 * report_policy, for programs built before these inline wrappers. */
#ifndef KM_DEFINE_V1_ENTRY_POINTS
/** km_machine_new() - km_machine_new_sized() with this header's config size:
 *  boot a machine from @cfg (NULL: defaults) into *@out. */
static inline int km_machine_new(const struct km_machine_config *cfg, struct km_machine **out)
{
	return km_machine_new_sized(cfg, sizeof(struct km_machine_config), out);
}
/** km_machine_get_config() - the effective configuration of @m into *@out. */
static inline void km_machine_get_config(const struct km_machine *m,
					 struct km_machine_config *out)
{
	km_machine_get_config_sized(m, out, sizeof(struct km_machine_config));
}
#endif

/**
 * km_machine_check() - run the teardown checks now, without destroying:
 * pages still referenced (pinned pages, leaked references), kmap slots
 * held, preempt/pagefault counts left raised, kmalloc objects not freed,
 * address spaces and tasks not released (each a KM_R_LEAK_* report), and
 * the machine invariant that the shared zero page holds only zeroes
 * (KM_R_ZERO_PAGE). Return: number of problems found (>= 0).
 */
KM_API int km_machine_check(struct km_machine *m);

/** km_machine_task_size() - TASK_SIZE of @m's split (3G/1G: 0xbf000000;
 *  arch/arm/include/asm/memory.h, v5.7); 0 for NULL @m. */
KM_API unsigned long km_machine_task_size(const struct km_machine *m);

/**
 * km_machine_destroy() - run km_machine_check(), log the first 8 problems
 * with g_warning() each and the rest as one "... and N more" warning,
 * release every host resource (including what leaked).
 * NULL is a no-op. Return: number of teardown problems (0 when clean), or
 * -EBUSY while a scheduler of km_sched_new() (kmodel/interleave.h) is
 * alive on @m -- its tasks may wait at a point and still run on @m, so
 * nothing is checked or freed: km_sched_free() it, then destroy again.
 */
KM_API int km_machine_destroy(struct km_machine *m);

/** Message for the last failing km_ call on this host thread ("" if none). */
KM_API const char *km_last_error(void);

/**
 * km_err() - fail with @err: set this host thread's km_last_error() message
 * from @fmt and return @err, as in `return km_err(-EINVAL, "...: %s", why);`.
 * The error convention of every km_ function, public so that code built on
 * the model -- the lab (scenarios, cost, registry, sweeps, conformance),
 * plugins (kmodel/registry.h) and a user's own harness -- fails the same
 * way and its callers read the reason from one place. The message is cut
 * at 255 bytes and also logged with g_debug() (domain "kmodel").
 */
KM_API int km_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** km_set_error() - km_err() for a function that returns no errno (a NULL
 *  pointer, void): sets the message only. */
KM_API void km_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- Tasks: the `current` of the compatibility layer ---------------------- */

/**
 * km_task_new() - a simulated task (a slice of task_struct + thread_info):
 * its address space @mm (may be NULL: a kernel thread), the CPU it runs on,
 * preempt_count, pagefault_disabled and addr_limit (USER_DS).
 * Takes a reference on @mm. Return: 0, -EINVAL (cpu out of range), -ENOMEM.
 */
KM_API int km_task_new(struct km_machine *m, struct km_mm *mm, unsigned int cpu,
		       struct km_task **out);
/** Free a task; reports KM_R_LEAK_ATOMIC if preempt/pagefault counts are
 *  still raised, drops its @mm reference. Clears `current` if it is @t. */
KM_API void km_task_free(struct km_task *t);
/** Make @t the calling host thread's `current` (NULL clears); returns the
 *  previous one. Kernel-named shims act on `current`. */
KM_API struct km_task *km_task_switch(struct km_task *t);
/** The calling host thread's `current`, or NULL. */
KM_API struct km_task *km_current(void);
KM_API struct km_machine *km_task_machine(const struct km_task *t);
KM_API struct km_mm *km_task_mm(const struct km_task *t);
/**
 * km_task_use_mm() - kthread_use_mm() (kernel/kthread.c, v5.8; use_mm() of
 * mm/mmu_context.c before): the task, a kernel thread without an address
 * space, adopts @mm (a reference is taken) until km_task_unuse_mm(), which
 * drops it and leaves the task without one again.
 * Return: 0; -EINVAL for a NULL argument or an @mm of another machine;
 * -EBUSY when the task has an mm already (the kernel's WARN_ON_ONCE(tsk->mm),
 * recorded as a KM_R_UNEXPECTED WARN).
 */
KM_API int km_task_use_mm(struct km_task *t, struct km_mm *mm);
KM_API void km_task_unuse_mm(struct km_task *t);
/** set_fs(KERNEL_DS) (true) or set_fs(USER_DS) (false); uaccess_kernel():
 *  how a harness runs a copy the way a kernel caller with KERNEL_DS does. */
KM_API void km_task_set_kernel_ds(struct km_task *t, bool kernel_ds);
KM_API bool km_task_kernel_ds(const struct km_task *t);
/** preempt_disable()/preempt_enable(); an enable below zero is a
 *  KM_R_ATOMIC_UNBALANCED WARN and leaves the count at 0. */
KM_API void km_preempt_disable(struct km_task *t);
KM_API void km_preempt_enable(struct km_task *t);
/** pagefault_disable()/pagefault_enable(), same underflow rule. */
KM_API void km_pagefault_disable(struct km_task *t);
KM_API void km_pagefault_enable(struct km_task *t);
KM_API int km_preempt_count(const struct km_task *t);
KM_API int km_pagefault_disabled(const struct km_task *t);
/**
 * km_local_irq_disable(), km_local_irq_enable(), km_irqs_disabled() - the
 * task's CPU interrupt mask, as local_irq_disable()/local_irq_enable()/
 * irqs_disabled() (not nested: local_irq_save()/restore() keep the old
 * state, as the compatibility layer's do). With interrupts off,
 * might_sleep() is a KM_R_SLEEP_IN_ATOMIC BUG (___might_sleep(),
 * kernel/sched/core.c, v5.7), and so is a page fault on a user address,
 * as with a spinlock held (km_spin_lock()) outside pagefault_disable():
 * the fault path may sleep. A task that exits with them off is a
 * KM_R_LEAK_ATOMIC report.
 */
KM_API void km_local_irq_disable(struct km_task *t);
KM_API void km_local_irq_enable(struct km_task *t);
KM_API bool km_irqs_disabled(const struct km_task *t);
/**
 * km_task_sleep_in_atomic() - record the KM_R_SLEEP_IN_ATOMIC BUG that
 * ___might_sleep() (kernel/sched/core.c, v5.7, CONFIG_DEBUG_ATOMIC_SLEEP)
 * prints, "sleeping function called from invalid context at @what", with
 * @t's counts. The caller has decided that @t is in atomic context: the
 * compatibility layer's might_sleep()/might_fault() do, by the rule of the
 * kernel version they follow. NULL @t: nothing.
 */
KM_API void km_task_sleep_in_atomic(struct km_task *t, const char *what);

/* ---- Reports --------------------------------------------------------------- */

enum km_report_kind { KM_BUG = 1, KM_WARN = 2 };

/** What a report is about. Stable values: new codes are appended. */
enum km_report_code {
	KM_R_NONE = 0,
	/** BUG: a kmap slot stack overflows: before 5.11 only with kmap_debug
	 *  (BUG_ON(idx >= KM_TYPE_NR)), with KM_KMAP_LOCAL always
	 *  (BUG_ON(idx >= KM_MAX_IDX)); also past km_fault_kmap_slots() */
	KM_R_KMAP_OVERFLOW,
	/** kunmap not of the top slot (BUG with kmap_debug before 5.11, WARN
	 *  with KM_KMAP_LOCAL), or a slot whose pte is not none mapped again */
	KM_R_KMAP_ORDER,
	KM_R_KMAP_UNBALANCED,	/**< BUG: kunmap_atomic with no slot held */
	KM_R_ATOMIC_UNBALANCED,	/**< WARN: preempt/pagefault enable below zero */
	KM_R_PAGE_REFCOUNT,	/**< BUG: put_page/get_page on a page with refcount 0 */
	KM_R_BAD_PAGE,		/**< BUG: a struct page pointer not of this machine */
	KM_R_SLEEP_IN_ATOMIC,	/**< BUG: sleeping function called from invalid context */
	KM_R_BAD_KFREE,		/**< BUG: kfree of a freed or foreign pointer */
	KM_R_COPY_SIZE,		/**< WARN: check_copy_size(): n > INT_MAX */
	KM_R_UNEXPECTED,	/**< BUG: a path the model does not implement, or
				 *   a call it cannot carry out (e.g. a page or task
				 *   of another machine); the message says which */
	KM_R_LEAK_PAGE,		/**< teardown: page still referenced (pinned/leaked) */
	KM_R_LEAK_KMAP,		/**< teardown: kmap slot still held */
	KM_R_LEAK_ATOMIC,	/**< teardown: preempt/pagefault count still raised */
	KM_R_LEAK_KMALLOC,	/**< teardown: kmalloc object not freed */
	KM_R_LEAK_MM,		/**< teardown: address space or task not released */
	KM_R_SKB_UNDER,		/**< BUG: skb_under_panic (skb_push past head) */
	KM_R_SKB_OVER,		/**< BUG: skb_over_panic (skb_put past end) */
	/** A category, not reported itself: km_report_count() of it counts
	 *  every report of the six sharing rules, KM_R_SKB_WRITE_CLONED ..
	 *  KM_R_SKB_HDR_RELEASED, which each report carries instead. */
	KM_R_SKB_SHARING,
	KM_R_SKB_REFCOUNT,	/**< BUG: free of an skb or buffer with no reference */
	KM_R_LEAK_SKB,		/**< teardown: skb or data buffer not freed */
	KM_R_USB_NO_ZLP,	/**< WARN: bulk transfer a multiple of maxpacket, no ZLP */
	KM_R_USB_PROTOCOL,	/**< WARN: device could not parse the bulk stream */
	/** WARN (a model check, not a kernel WARN): the gup slow path -- mmap_sem,
	 *  faulting pages in -- ran with pagefault_disable() but preemption on,
	 *  which an _inatomic copy promises not to do (might_sleep() would stay
	 *  silent: it looks at preempt_count only) */
	KM_R_INATOMIC_FAULT,
	/** BUG/WARN: spinlock recursion, lockup or bad unlock (spin_bug() of
	 *  CONFIG_DEBUG_SPINLOCK), rw_semaphore released with no holder */
	KM_R_LOCK,
	/** WARN: an allocation beyond the page allocator's largest order
	 *  (kmalloc above KMALLOC_MAX_SIZE: WARN_ON_ONCE(order >= MAX_ORDER)
	 *  in __alloc_pages_nodemask(), mm/page_alloc.c, v5.7) */
	KM_R_ALLOC_TOO_LARGE,
	/* the sharing rules of skb_sim (each also counted in KM_R_SKB_SHARING) */
	KM_R_SKB_WRITE_CLONED,	/**< BUG (checker): write into a cloned buffer beyond the
				 *   writable header (hdr_len) of the skb that writes: payload
				 *   or room another holder shares */
	KM_R_SKB_WRITE_SHARED,	/**< BUG (checker): write into the buffer of a shared skb
				 *   (users > 1) */
	KM_R_SKB_WRITE_OUTSIDE,	/**< BUG (checker): write outside [head, end] of the buffer */
	KM_R_SKB_CHANGE_SHARED,	/**< BUG (checker): skb_push/put/pull/trim of a shared skb
				 *   (users > 1): every holder sees the change */
	KM_R_SKB_EXPAND_SHARED,	/**< BUG: pskb_expand_head() of a shared skb (BUG() in
				 *   v3.5) */
	KM_R_SKB_HDR_RELEASED,	/**< BUG: skb_header_release() of an skb with nohdr set
				 *   (BUG_ON(skb->nohdr) in v3.5) */
	KM_R_SKB_INVALID,	/**< BUG: an skb whose len or tail runs past its buffer
				 *   (data + len > end, or tail != data + len), met where
				 *   the model trusts len; nothing is copied or sent */
	KM_R_USB_MAXPACKET,	/**< WARN: a bulk maxpacket the USB spec forbids at the
				 *   device's speed (as drivers/usb/core/config.c warns),
				 *   or one that is not a power of two */
	KM_R_USB_FRAME_DROPPED,	/**< WARN: the device dropped a frame it cannot take
				 *   (longer than it accepts, or a length its header cannot
				 *   encode) */
	/** WARN: a WARN_ON()/WARN_ON_ONCE()/WARN() of ported kernel code fired
	 *  (the compatibility layer's include/kmodel/kernel/linux/bug.h) */
	KM_R_WARN_ON,
	/** BUG: a BUG_ON()/BUG() of ported kernel code fired (the kernel would
	 *  oops; the model records it and the code runs on) */
	KM_R_BUG_ON,
	/** BUG (checker): a kmap_atomic slot overflow before 5.11 without
	 *  CONFIG_DEBUG_HIGHMEM, which has no BUG_ON(): the kernel maps over the
	 *  next fixmap pte (another CPU's slot, FIX_TEXT_POKE0/1, or past the
	 *  fixmap); the message says which and what it mapped */
	KM_R_KMAP_CLOBBER,
	/** BUG (strict kmap): an access past the end of a kmapped page, or
	 *  before its start, reached a guard page beside its slot; the message
	 *  gives the slot, pfn, how far past ("past") or before ("before") and
	 *  what the kernel has at that address */
	KM_R_KMAP_GUARD,
	/** BUG (strict kmap): an access to a kmap slot whose pte is none
	 *  (cleared by kunmap, or never mapped): unable to handle kernel
	 *  paging request */
	KM_R_KMAP_UNMAPPED,
	/** WARN (a model check, not a kernel WARN): a fault-and-retry loop
	 *  -- gup's `retry:`, a user access or a kernel memcpy through the
	 *  user mapping retried after its fault -- faulted KM_RETRY_LIMIT
	 *  times in a row at one address without getting on (another task
	 *  undoes each fault: e.g. MADV_DONTNEED at every interleaving point).
	 *  The kernel would spin until a fatal signal; the model stops and
	 *  fails as the path does (see KM_RETRY_LIMIT). The message names the
	 *  loop and the address. */
	KM_R_LIVELOCK,
	/** WARN: an integer division by zero in modelled kernel code. On the
	 *  modelled 32-bit ARM, a division without a hardware divider goes
	 *  through __aeabi_uidiv(mod) (arch/arm/lib/lib1funcs.S): a zero
	 *  divisor calls __div0() (arch/arm/kernel/traps.c: "Division by zero
	 *  in kernel." and a stack dump), the quotient is 0 and the remainder
	 *  the dividend, and the kernel goes on; the model records this and
	 *  goes on with the same values instead of trapping the host. */
	KM_R_DIV0,
	/** BUG (a model check): code of a later kmap era than the machine's:
	 *  kmap_local_page() (v5.11+) on a pre-5.11 machine
	 *  (km_machine_config.kmap is not KM_KMAP_LOCAL). The page is mapped
	 *  anyway and the code runs on (kmodel/mm.h). */
	KM_R_KMAP_ERA,
	/** BUG (a model check): the shared zero page (ZERO_PAGE(0)) holds a
	 *  byte that is not zero: something wrote to it -- a copy_to_user()
	 *  that pinned without FOLL_WRITE where a read fault had mapped the
	 *  zero page, or a kmap of it. Every later read of an untouched
	 *  anonymous page, in every address space, sees those bytes. Checked
	 *  by km_machine_check() (and so at teardown) and by the conformance
	 *  suite after each case. */
	KM_R_ZERO_PAGE,
	/** BUG (checker; a sharing rule, counted in KM_R_SKB_SHARING too): a
	 *  store not through an accessor -- a plain C store such as
	 *  `skb->data[0] = len` -- into bytes of a cloned or shared skb's
	 *  buffer that the rules of km_skb_check_write() forbid that skb to
	 *  write. Found by the harnesses that run a driver's tx_fixup
	 *  (kmodel-sweep, kmodel-bench -s iperf), which compare the buffer
	 *  before and after; the checker sees only writes through a call
	 *  otherwise (kmodel/skb.h). The message gives the run's offset and
	 *  length and the rule. */
	KM_R_SKB_STORE_SHARED,
	/** BUG (checker, km_check_pinned_writes()): a page pinned with
	 *  FOLL_WRITE, written while pinned (through a kernel mapping by the
	 *  compatibility layer's memcpy()/memset(), or km_page_device_write())
	 *  and released clean -- no set_page_dirty_lock() before its
	 *  put_page()/unpin_user_page(): writeback drops the write
	 *  (drivers/xen/gntdev.c before 779055842da5, v5.9). */
	KM_R_PIN_NOT_DIRTIED,
	/** BUG (checker): the receive path read past the bytes of a bulk-in
	 *  transfer -- past urb->actual_length in the URB's buffer, not past
	 *  the buffer's end: stale bytes of an earlier transfer (or another
	 *  object) taken for the device's. A driver's read through the
	 *  compatibility layer (get_unaligned_le32(), le32_to_cpus(),
	 *  memcpy()) or a frame passed up that reaches there (kmodel/usb.h,
	 *  km_usbnet_rx_urb()). The message gives the offsets. */
	KM_R_RX_READ_PAST,
	/** BUG (checker): a driver's rx_fixup made more steps than a loop
	 *  over the transfer can need (KM_USBNET_RX_STEPS()): no progress.
	 *  The kernel would spin, or walk memory; the model stops it. */
	KM_R_RX_NO_PROGRESS,
	/** BUG (checker): usbnet_skb_return() got a frame whose skb says
	 *  ip_summed CHECKSUM_UNNECESSARY ("the device verified the TCP/UDP
	 *  checksum") that the device did not verify: it has no receive
	 *  checksum offload, or it checks no such frame, or it flagged the
	 *  frame's checksum bad. The stack skips its own check and takes the
	 *  bytes (kmodel/usb.h, km_usbnet_rx_urb()). */
	KM_R_RX_CSUM_UNVERIFIED,
	/** WARN (checker): a driver's bind advertises transmit checksumming
	 *  (NETIF_F_IP_CSUM, NETIF_F_HW_CSUM or NETIF_F_IPV6_CSUM) for a
	 *  device its variant says does not compute checksums (no
	 *  KM_USBNET_TX_CSUM): the stack hands it CHECKSUM_PARTIAL skbs, whose
	 *  checksums go out unfinished (km_usbnet_probe()). */
	KM_R_TX_CSUM_FEATURE,
	KM_R__COUNT
};

/**
 * KM_RETRY_LIMIT - faults in a row at one address after which a
 * fault-and-retry loop of the model gives up (KM_R_LIVELOCK). Only
 * another task undoing every fault gets near this: the test suite's
 * accesses, its scripted races included, fault at most three times in a
 * row. Then
 * __get_user_pages() returns what it pinned, or -EFAULT; a user access
 * (direct's copy, km_user_access()) returns the bytes not done, as its
 * exception fixup would after the fatal signal that ends a real livelock;
 * a kernel memcpy through the user mapping skips the page.
 */
#define KM_RETRY_LIMIT 1000u

struct km_report {
	enum km_report_kind kind;
	enum km_report_code code;
	char message[240];	/**< includes the state that explains it */
};

/** Number of reports recorded with @code (KM_R_NONE: all; KM_R_SKB_SHARING:
 *  all six sharing rules), since the last km_reports_clear(). Counts every
 *  report, even past the log's capacity. */
KM_API unsigned long km_report_count(const struct km_machine *m,
				     enum km_report_code code);
/** Number of reports held in the log (at most the first 1024 since clear). */
KM_API size_t km_report_log_len(const struct km_machine *m);
/** The @i-th report in the log, or NULL. The pointer stays valid (and the
 *  report unchanged) while more reports are recorded, until the next
 *  km_reports_clear() or km_machine_destroy() of @m. */
KM_API const struct km_report *km_report_get(const struct km_machine *m, size_t i);
KM_API void km_reports_clear(struct km_machine *m);
/** Keep at most @max (<= 1024, the default) reports in the log of @m;
 *  0 keeps none: reports are only counted and their messages never
 *  formatted (what an exhaustive sweep wants). Truncates the log. */
KM_API void km_reports_set_log_max(struct km_machine *m, unsigned int max);
/** Short name of a code ("kmap_overflow", ...), never NULL. */
KM_API const char *km_report_code_name(enum km_report_code code);
/**
 * km_report() - record a report on @m (for modelled kernel code: BUG_ON,
 * WARN_ON and friends). printf-style message. Under KM_REPORT_ABORT_ON_BUG a
 * KM_BUG aborts the host after logging it.
 */
KM_API void km_report(struct km_machine *m, enum km_report_kind kind,
		      enum km_report_code code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* ---- Events ---------------------------------------------------------------- */

/**
 * struct km_events - per-machine event counters: plain counters, cheap to
 * bump. Versioning: fields are only ever appended. km_events_get() passes
 * the size of the struct the caller was compiled with, and the library
 * fills exactly that prefix, so a consumer built against an older header
 * keeps working and never has memory past its struct written.
 */
struct km_events {
	uint64_t gup_calls;		/**< get_user_pages_fast() calls */
	uint64_t gup_fast_pages;	/**< pages pinned by the lockless walk */
	uint64_t gup_slow_pages;	/**< pages pinned by the slow path */
	uint64_t put_page_calls;
	uint64_t pt_walks;		/**< page-table lookups of one user page */
	uint64_t page_faults;		/**< handle_mm_fault() calls */
	uint64_t cow_breaks;		/**< write faults that copied a page */
	uint64_t pages_allocated;
	uint64_t pages_freed;
	uint64_t kmap_high;		/**< kmap_atomic that took a slot (a highmem page;
					 *   any page under KM_KMAP_STRICT_FORCE_MAP) */
	uint64_t kmap_low;		/**< kmap_atomic of a lowmem page (no slot) */
	uint64_t tlb_flushes;		/**< local_flush_tlb_kernel_page() */
	uint64_t kmalloc_calls;
	uint64_t kmalloc_bytes;		/**< bytes, after kmalloc bucket rounding */
	uint64_t kfree_calls;
	uint64_t kfree_bytes;		/**< bytes, bucket sizes */
	uint64_t memcpy_bytes;		/**< bytes copied by modelled kernel code */
	uint64_t clear_bytes;		/**< bytes zeroed (clear_user, page zeroing) */
	uint64_t memmove_bytes;
	uint64_t skb_allocs;
	uint64_t skb_clones;
	uint64_t skb_copies;		/**< skb_copy/skb_copy_expand/pskb_expand_head */
	uint64_t skb_copy_bytes;
	uint64_t skb_frees;
	uint64_t urbs;			/**< usb_submit_urb() calls (bulk out and in) */
	uint64_t usb_packets;		/**< bulk-out packets, ZLPs included */
	uint64_t usb_bytes;		/**< bulk-out bytes */
	/* appended (the cost model's events, kmodel/cost.h): */
	uint64_t mmap_sem_locks;	/**< down_read(&mm->mmap_sem): uaccess_with_memcpy, gup slow path */
	uint64_t syscalls;		/**< system call entries (km_syscall()) */
	uint64_t pagecache_lookups;	/**< find_get_page() of a file's page cache */
	uint64_t pagecache_allocs;	/**< pages added to a page cache */
	uint64_t uaccess_from_bytes;	/**< bytes asked of copy_from_user/copyin */
	uint64_t uaccess_to_bytes;	/**< bytes asked of copy_to_user/copyout */
	uint64_t uaccess_clear_bytes;	/**< bytes asked of clear_user */
	uint64_t memcpy_calls;		/**< memcpy() calls behind memcpy_bytes */
	uint64_t memset_calls;		/**< memset() calls behind clear_bytes */
	uint64_t memmove_calls;		/**< memmove() calls behind memmove_bytes */
	uint64_t gup_slow_calls;	/**< __get_user_pages() entries (mmap_sem taken) */
	uint64_t find_vma_calls;	/**< find_vma() lookups by gup and faults */
	uint64_t follow_page_calls;	/**< follow_page_pte() steps of the gup slow path */
	uint64_t get_page_calls;	/**< page references taken (get_page, gup pins) */
	uint64_t kunmap_high;		/**< kunmap_atomic of a slot address (highmem) */
	uint64_t kunmap_low;		/**< kunmap_atomic of a lowmem address */
	uint64_t usb_zlps;		/**< zero-length packets among usb_packets */
	uint64_t eth_frames;		/**< Ethernet frames handed to usbnet_start_xmit() */
	uint64_t eth_bytes;		/**< their bytes (header + payload, no FCS) */
	/** kmalloc calls per size class: [i] counts buckets of 2^(i-1) < size
	 *  <= 2^i bytes (kmalloc-96 in [7], kmalloc-192 in [8]); [0]: size 0;
	 *  [KM_EVENTS_KMALLOC_CLASSES - 1] also holds anything larger. The
	 *  bucket is the object's on 32-bit ARM: the host's, except where the
	 *  model knows the ARM object is smaller (the RFC's page array of
	 *  4-byte struct page pointers); kmalloc_bytes is the host's. */
	uint64_t kmalloc_class[16];
	uint64_t spin_locks;		/**< spin_lock() (the pte lock of uaccess_with_memcpy) */
	uint64_t pt_walks_sw;		/**< page-table walks by kernel code (pgd_offset() ..) */
	uint64_t urb_allocs;		/**< usb_alloc_urb() calls (a transmit URB per packet, a
					 *   receive URB once: rx_complete() resubmits it) */
	uint64_t usb_in_packets;	/**< bulk-in packets, ZLPs included */
	uint64_t usb_in_bytes;		/**< bulk-in bytes */
	uint64_t usb_in_zlps;		/**< zero-length packets among usb_in_packets */
	uint64_t eth_rx_frames;		/**< Ethernet frames a usbnet driver's rx_fixup passed up */
	uint64_t eth_rx_bytes;		/**< their bytes (header + payload, no FCS) */
	/** kfree calls per size class, as kmalloc_class (the object's bucket
	 *  on 32-bit ARM). */
	uint64_t kfree_class[16];
	/** kmalloc_bytes and kfree_bytes at the object's bucket on 32-bit ARM
	 *  (the RFC's array of 17 page pointers: 128 bytes, not the host's
	 *  192): what the target's slab allocator and DEBUG_SLAB handle. */
	uint64_t kmalloc_arm_bytes;
	uint64_t kfree_arm_bytes;
	/* appended (lines written again while still in the caches;
	 * "warm": at most KM_EVENTS_WARM_BYTES copied or set on the machine
	 * -- memcpy_bytes, clear_bytes, memmove_bytes, skb_copy_bytes --
	 * between the two writes) */
	/** bytes of clear_bytes that __GFP_ZERO zeroed in a kmalloc object
	 *  SLUB's per-cpu freelist handed back warm: the object its last
	 *  kfree() pushed (LIFO: slab_alloc_node() pops the freelist's head,
	 *  do_slab_free() pushes it, mm/slub.c v5.7), freed no more than
	 *  KM_EVENTS_WARM_BYTES ago; a new slab's objects are never warm.
	 *  The object's bucket on 32-bit ARM, as kmalloc_arm_bytes. */
	uint64_t clear_slab_warm_bytes;
	/** bytes of clear_bytes that shmem_write_end() zeroed around the copy
	 *  in a new page-cache page (zero_user_segments(), mm/shmem.c v5.7)
	 *  and that a later write to that page copied over while warm
	 *  (counted at that write; the model follows a file's last such
	 *  page) */
	uint64_t clear_refilled_bytes;
	/** CPU_SW_DOMAIN_PAN's domain switch around a user-access routine:
	 *  uaccess_save_and_enable() before and uaccess_restore() after the
	 *  one arm_copy_from_user(), arm_copy_to_user() or arm_clear_user()
	 *  call of raw_copy_{from,to}_user() and __clear_user()
	 *  (arch/arm/include/asm/uaccess.h, v5.7): the direct variant's, on
	 *  a machine without fast_gup (the option depends on !ARM_LPAE, and
	 *  ARM has HAVE_FAST_GUP exactly with ARM_LPAE) */
	uint64_t uaccess_pan_switches;
	/** CPU_SPECTRE's prologue of arm_copy_from_user()/arm_copy_to_user()
	 *  (arch/arm/lib/copy_{from,to}_user.S, v5.7: get_thread_info, the
	 *  addr_limit load, uaccess_mask_range_ptr; arm_clear_user() has
	 *  none): the direct variant's */
	uint64_t uaccess_range_masks;
	/* appended (issue 22: the routine that moved a uaccess byte; the
	 * rest of uaccess_{to,from,clear}_bytes went through memcpy() or
	 * memset() -- copy_template.S, memset.S -- as a variant that kmaps or
	 * walks the page table calls them). The routines' stores are the
	 * kernel's era and configuration's, which the cost profile names
	 * (kmodel/cost.h): */
	/** bytes stored by arm_copy_to_user()/__copy_to_user_std()
	 *  (arch/arm/lib/copy_to_user.S on copy_template.S): with
	 *  CPU_USE_DOMAINS one strt a word, without it one str a word before
	 *  v5.0 and an 8-register stm from f441882a5229 (v5.0) on */
	uint64_t uaccess_asm_to_bytes;
	/** bytes loaded by arm_copy_from_user() (copy_from_user.S; its
	 *  kernel-side stores are copy_template.S's stm) */
	uint64_t uaccess_asm_from_bytes;
	/** bytes zeroed by arm_clear_user()/__clear_user_std()
	 *  (arch/arm/lib/clear_user.S: a loop of two one-word stores, strt
	 *  with CPU_USE_DOMAINS, str without) */
	uint64_t uaccess_asm_clear_bytes;
	/* appended: the faithful RFC's own code (gup_kmap_rfc:
	 * lib/uaccess_gup_kmap_memcpy.c of "[RFC 1/3] lib: copy_{from,to}_user
	 * using gup & kmap_atomic()", on v5.7), beyond the calls it makes,
	 * which count as their own events (kmalloc, gup, kmap, memcpy,
	 * put_page, kfree). gup_kmap_fixed's own code is not counted. */
	/** gup_kmap_copy_{from,to}_user() calls, with their buffer_op() */
	uint64_t gup_kmap_calls;
	/** do_op_one_page() calls, with their copy_chunk_*() and their turn of
	 *  the put_page() loop: a chunk of one page of the user buffer */
	uint64_t gup_kmap_pages;
};
#define KM_EVENTS_KMALLOC_CLASSES 16
/** The distance that keeps a written line "warm" for the events above:
 *  bytes the machine copied or set since (memcpy_bytes + clear_bytes +
 *  memmove_bytes + skb_copy_bytes). 16 KiB is 256 lines of 64 bytes, a
 *  sixteenth of the Cortex-A8's 256 KiB L2 (the cache that allocates on
 *  writes, kmodel/cost.h; the default machine is the BeagleBone's): under
 *  its random replacement a line survives that many allocations with
 *  probability (1 - 1/4096)^256 = 0.94. */
#define KM_EVENTS_WARM_BYTES 16384u

/**
 * km_events_get_sized() - snapshot the counters into @out, @size bytes of
 * it (the caller's sizeof(struct km_events)); a @size larger than the
 * library's struct zero-fills the rest. Use km_events_get().
 * Exact between modelled calls. Taken from a hook inside one (a
 * km_fault_on_memcpy() function, an interleaving point), a page of
 * km_shmem_read_iter() may show its put_page_calls already counted: some
 * counters a path always bumps together are counted at once.
 */
KM_API void km_events_get_sized(const struct km_machine *m, struct km_events *out,
				size_t size);
/** km_events_get() - snapshot the counters of @m into *@out. */
#define km_events_get(m, out) km_events_get_sized((m), (out), sizeof(*(out)))
KM_API void km_events_reset(struct km_machine *m);
/**
 * km_events_set_counting() - stop (@on false) or resume (@on true) the
 * counting of the events of @m; a new machine counts. For timing code on
 * a model, as a profiler separates timing runs from counting runs: each
 * counter update is a store on the hot path of the modelled calls (docs/bench.md,
 * "Counting the events"), and while counting is off it is a predictable
 * branch instead. No units; a NULL @m does nothing.
 * Off: no counter of struct km_events changes (km_events_get() returns the
 * same snapshot, memcpy_bytes included) until counting resumes. The
 * counts are neither reset nor lost: they resume from where they stopped
 * (km_events_reset() still zeroes them, on or off). What keeps running:
 * the warm-line clock behind the *_warm_bytes and clear_refilled_bytes
 * counters (bytes copied, set and moved, and the times objects were freed
 * and pages zeroed), so that those counters of a later counted stretch are
 * what they would have been; and everything else the model does -- its
 * BUG/WARN reports and km_report_count(), pages, skbs, the data copied --
 * is the same on or off.
 */
KM_API void km_events_set_counting(struct km_machine *m, bool on);
/** km_events_counting() - whether @m counts its events (false for NULL):
 *  code that turns counting off around its own set-up asks it first, to
 *  restore what its caller had. */
KM_API bool km_events_counting(const struct km_machine *m);
/** The number of counters in struct km_events as the caller was compiled
 *  (every member is a uint64_t; kmalloc_class and kfree_class count as
 *  their 16). */
#define KM_EVENTS_NFIELDS (sizeof(struct km_events) / sizeof(uint64_t))
/** km_events_field_name() - the name of counter @i (0 ..) of the
 *  library's struct km_events: the member's name, "kmalloc_class_N" and
 *  "kfree_class_N" for the arrays'. NULL past the library's last counter. */
KM_API const char *km_events_field_name(size_t i);
/** The counter @i of @ev, or NULL past the caller's struct. */
static inline uint64_t *km_events_field(struct km_events *ev, size_t i)
{
	return i < KM_EVENTS_NFIELDS ? &((uint64_t *)(void *)ev)[i] : NULL;
}
/** km_syscall() - count one system call entry and return of @t (vector_swi
 *  .. ret_fast_syscall on ARM): the syscalls event. Scenarios call it where
 *  user space would enter the kernel. NULL: no-op. */
KM_API void km_syscall(struct km_task *t);

/* ---- kmalloc (mm/slab_common.c) -------------------------------------------- */

/** gfp_t bits the model understands (values are the model's own). */
typedef unsigned int km_gfp_t;
#define KM_GFP_DIRECT_RECLAIM	0x01u	/**< may sleep */
#define KM_GFP_ZERO		0x02u
#define KM_GFP_HIGHMEM		0x04u	/**< page allocations: prefer highmem */
#define KM_GFP_ATOMIC		0x00u
#define KM_GFP_KERNEL		KM_GFP_DIRECT_RECLAIM

/**
 * km_kmalloc() - allocate @size bytes from the kmalloc caches of @t's machine.
 * The object is rounded up to its kmalloc bucket (km_kmalloc_size_roundup());
 * km_ksize() returns the rounded size. In v5.7 SLUB's order: @size 0
 * returns ZERO_SIZE_PTR ((void *)16, which kfree accepts) before anything
 * else; @size above KMALLOC_MAX_SIZE (1024 pages: 4 MiB with 4 KiB pages)
 * is a KM_R_ALLOC_TOO_LARGE WARN and NULL, also before anything else; then
 * a KM_GFP_DIRECT_RECLAIM allocation in atomic context (preempt_count != 0)
 * is a KM_R_SLEEP_IN_ATOMIC BUG, and km_fault_fail_kmalloc_nth() may fail
 * it. Every call counts in kmalloc_calls.
 * Return: the object (owned by the caller, free with km_kfree()),
 * ZERO_SIZE_PTR, or NULL (injected failure, too large, NULL @t).
 * Objects live in host memory, not in frames.
 */
KM_API void *km_kmalloc(struct km_task *t, size_t size, km_gfp_t flags);
/** kfree(); NULL and ZERO_SIZE_PTR are no-ops. A double free, or a pointer
 *  that is not an object of this machine's slabs (another machine's, a
 *  stack address, an interior pointer), is a KM_R_BAD_KFREE BUG and frees
 *  nothing; the pointer is looked up, never dereferenced. */
KM_API void km_kfree(struct km_task *t, const void *obj);
/** ksize(): the usable bytes (the bucket) of a live kmalloc object of @m;
 *  0 for NULL, ZERO_SIZE_PTR or anything else. */
KM_API size_t km_ksize(struct km_machine *m, const void *obj);
/** kmalloc_size_roundup(): the bucket @size falls in on @m, in bytes
 *  (0 for 0 or a NULL @m; beyond the largest cache: page-order rounding,
 *  SIZE_MAX where that does not fit in size_t). A harness sizes a buffer
 *  with it as ported code that calls kmalloc_size_roundup() would on the
 *  modelled machine's caches, whose buckets are not the host's. */
KM_API size_t km_kmalloc_size_roundup(const struct km_machine *m, size_t size);

/* ---- Fault injection (deterministic, reset by km_fault_inject_reset) ------- */

/** Make the @nth kmalloc from now on fail (1 = the next one); 0 disarms.
 *  Only calls that reach the allocation hooks count: not kmalloc(0), not
 *  one above KMALLOC_MAX_SIZE (see km_kmalloc()). */
KM_API void km_fault_fail_kmalloc_nth(struct km_machine *m, unsigned long nth);
/** Let each get_user_pages_fast() pin at most @max_pages pages, as if the
 *  next page could not be pinned (0: every call pins none, -EFAULT);
 *  negative disarms. */
KM_API void km_fault_gup_limit(struct km_machine *m, long max_pages);
/** Leave only @slots kmap slots usable (0 .. KM_TYPE_NR), as if the others
 *  were held: the next map past them is a KM_R_KMAP_OVERFLOW BUG. */
KM_API void km_fault_kmap_slots(struct km_machine *m, unsigned int slots);
/**
 * km_fault_on_memcpy() - test hook: call @fn(@t, @n, @arg) from every
 * memcpy()/memset() of code compiled through the compatibility layer
 * (km_kernel_memcpy(), km_kernel_memset()) and km_event_memcpy(), before
 * the @n bytes move, to
 * look at locks, refcounts and the atomic state in the middle of a copy.
 * NULL disarms; km_fault_inject_reset() disarms too.
 */
KM_API void km_fault_on_memcpy(struct km_machine *m,
			       void (*fn)(struct km_task *t, size_t n, void *arg), void *arg);
/** Disarm every knob: kmalloc and gup succeed, all kmap slots usable. */
KM_API void km_fault_inject_reset(struct km_machine *m);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_MACHINE_H */
