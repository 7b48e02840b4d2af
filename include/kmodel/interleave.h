/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/interleave.h - named interleaving points in the modelled kernel
 * paths, and a small deterministic scheduler that runs two or more tasks of
 * one machine and switches between them at those points as a test scripts.
 *
 * Races are where uaccess bugs live: a munmap() between a gup's pin and the
 * copy, a madvise(MADV_DONTNEED) between a COW fault and gup's retry. The
 * model runs one task at a time; an interleaving point is a place where the
 * kernel could switch to another task (a cond_resched(), a return to a
 * preemptible context, another CPU running meanwhile), and a script says
 * which task runs there and how far.
 *
 * The scheduler runs each task's program on a host thread of its own, one
 * thread at a time (the machine still sees one task at a time): a task runs
 * until it reaches the point the script named, then waits there, holding
 * whatever it holds in the kernel -- mmap_sem for read in gup's slow path,
 * a pin, a kmap slot, preemption disabled. Another task may run meanwhile
 * as the kernel would let it: a task that needs mmap_sem for write while a
 * waiting task holds it for read blocks (KM_SCHED_BLOCKED) until that one
 * releases it, and no task runs on the CPU of a task waiting in atomic
 * context (-EDEADLK). No global state: everything hangs off the scheduler.
 */
#ifndef KMODEL_INTERLEAVE_H
#define KMODEL_INTERLEAVE_H

#include <kmodel/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The interleaving points. Stable values: new ones are appended. */
enum km_ipoint {
	/** A fault was handled: handle_mm_fault() returned success, for a
	 *  user access, a kernel access through the user mapping (`direct`)
	 *  or gup's faultin_page() (which holds mmap_sem for read), before the
	 *  access or lookup is retried. addr: the faulting address. */
	KM_IP_AFTER_FAULT = 0,
	/** __get_user_pages(): faultin_page() succeeded and the loop goes
	 *  back to `retry:`, whose cond_resched() comes before
	 *  follow_page_mask() looks the pte up again (mm/gup.c) -- the window
	 *  of Dirty COW. mmap_sem is held for read. addr: the page. */
	KM_IP_GUP_RETRY,
	/** get_user_pages_fast(), pin_user_pages_fast() or
	 *  __get_user_pages_fast() pinned at least one page and returns: the
	 *  pages are pinned, their use by the caller is still to come
	 *  (mmap_sem is not held). addr: the first page. */
	KM_IP_AFTER_PIN,
	/** munmap(): the vmas of the range are detached and mmap_sem is
	 *  downgraded to read (__do_munmap(), v5.7), before unmap_region()
	 *  zaps their ptes: faults no longer find the vmas, but the lockless
	 *  gup can still pin the pages. addr: the start of the range. */
	KM_IP_MUNMAP,
	KM_IP__COUNT
};

/** Short name of a point ("after_fault", ...), never NULL: for a hook's
 *  or a harness's own trace and messages. */
KM_API const char *km_ipoint_name(enum km_ipoint ip);

/**
 * km_interleave_hook() - the low-level form: call @fn(@t, @ip, @addr, @arg)
 * at every interleaving point reached on @m, on the host thread that
 * reaches it, with @t the task that reaches it (current; NULL when none).
 * The hook may run other tasks' operations there (switching `current` to
 * them and back). NULL disarms. Return: 0, -EINVAL (NULL @m), -EBUSY (a
 * scheduler of km_sched_new() drives @m).
 */
KM_API int km_interleave_hook(struct km_machine *m,
			      void (*fn)(struct km_task *t, enum km_ipoint ip, unsigned long addr,
					 void *arg),
			      void *arg);

/** A deterministic scheduler of tasks of one machine (opaque). */
struct km_sched;

/** What km_sched_run_until() and km_sched_finish() left the task doing. */
enum km_sched_state {
	KM_SCHED_AT_POINT = 0,	/**< waiting at the point the script named */
	KM_SCHED_DONE = 1,	/**< its program returned */
	KM_SCHED_BLOCKED = 2,	/**< waiting for mmap_sem held by a waiting task */
};

/**
 * km_sched_new() - a scheduler for tasks of @m. While it exists it owns
 * @m's interleaving points (km_interleave_hook() is refused) and @m
 * outlives it: km_machine_destroy(@m) is refused (-EBUSY) until
 * km_sched_free().
 * Return: 0, -EINVAL, -EBUSY (a hook or another scheduler is armed on @m).
 * Free it with km_sched_free().
 */
KM_API int km_sched_new(struct km_machine *m, struct km_sched **out);

/**
 * km_sched_add() - give task @t of the scheduler's machine a program:
 * @fn(@t, @arg) runs on a host thread of its own, with @t as `current`,
 * the first time a script resumes @t. @name (copied) names it in the
 * trace. A program must not call cmocka's assert macros (they jump on the
 * test's thread): store results for the test to check afterwards.
 * Return: 0, -EINVAL (bad argument, @t of another machine), -EEXIST (@t
 * has a program already).
 */
KM_API int km_sched_add(struct km_sched *s, struct km_task *t, const char *name,
			void (*fn)(struct km_task *t, void *arg), void *arg);

/**
 * km_sched_run_until() - resume @t until it reaches point @ip for the @nth
 * time counted from this call (1: the next one), its program returns, or it
 * blocks on mmap_sem held by a waiting task. The other tasks stay where
 * they are. Only the controlling thread (the one that is no task's
 * program) drives the scheduler. Return: a km_sched_state, -EINVAL (no
 * program for @t, @nth 0, @ip not below KM_IP__COUNT -- km_last_error()
 * names the bad value and the valid range; called from another task's
 * program),
 * -EDEADLK (another task waits in atomic context on @t's CPU: the kernel
 * could not switch to @t, and @t does not run; or called from @t's own
 * program, which would wait for itself).
 */
KM_API int km_sched_run_until(struct km_sched *s, struct km_task *t, enum km_ipoint ip,
			      unsigned int nth);
/** km_sched_finish() - resume @t until its program returns (or it
 *  blocks). Return as km_sched_run_until(). */
KM_API int km_sched_finish(struct km_sched *s, struct km_task *t);

/** How often @t reached @ip since its program started (0 for a bad
 *  argument): a script checks that the interleaving it meant happened. */
KM_API unsigned int km_sched_hits(const struct km_sched *s, const struct km_task *t,
				  enum km_ipoint ip);

/**
 * km_sched_trace() - what ran: one line per resume, point reached, stop,
 * block and return ("writer: at after_pin 0x40000000 (1)", ...). The
 * pointer stays valid until the next call on @s or km_sched_free().
 */
KM_API const char *km_sched_trace(const struct km_sched *s);

/**
 * km_sched_free() - finish every started task that has not returned (in
 * the order they were added, again while one that was blocked can go on;
 * a program never started is dropped), join their threads, disarm the
 * machine's points and free @s. NULL: no-op.
 * Return: 0, or -EDEADLK when some task could not finish (its thread is
 * left waiting and @s is not freed) or when called from a task's program
 * (nothing is done).
 */
KM_API int km_sched_free(struct km_sched *s);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_INTERLEAVE_H */
