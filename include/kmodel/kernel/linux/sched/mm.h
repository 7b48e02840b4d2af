/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/sched/mm.h> (v4.11 and later; before,
 * <linux/sched.h> declared these) */
#ifndef KM_COMPAT_LINUX_SCHED_MM_H
#define KM_COMPAT_LINUX_SCHED_MM_H

#include <linux/sched.h>

/* custom: mm_alloc() (kernel/fork.c, v5.7): a new address space of
 * current's machine (km_mm_new()), one user; NULL when that fails */
static inline struct mm_struct *mm_alloc(void)
{
	struct km_mm *mm;

	if (km_mm_new(km_task_machine(km_shim_current()), &mm))
		return NULL;
	return km_mm_locks(mm);
}
/* custom: mmget()/mmput() (kernel/fork.c, v5.7): a user reference; the
 * last mmput() unmaps and frees the address space (km_mm_put()) */
static inline void mmget(struct mm_struct *mm) { km_mm_get(mm->mm); }
static inline void mmput(struct mm_struct *mm) { km_mm_put(mm->mm); }

#endif
