/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/kthread.h> (and <linux/mmu_context.h>'s
 * use_mm() before v5.8) */
#ifndef KM_COMPAT_LINUX_KTHREAD_H
#define KM_COMPAT_LINUX_KTHREAD_H

#include <linux/sched/mm.h>

/* custom: kthread_use_mm()/kthread_unuse_mm() (kernel/kthread.c, v5.8:
 * use_mm()/unuse_mm() renamed): current, a task without an address space,
 * adopts @mm until the unuse (km_task_use_mm()); current with an mm of its
 * own is the kernel's WARN_ON_ONCE(tsk->mm), a KM_R_UNEXPECTED WARN */
static inline void km_compat_use_mm(struct mm_struct *mm)
{
	(void)km_task_use_mm(km_shim_current(), mm->mm);
}
static inline void km_compat_unuse_mm(struct mm_struct *mm)
{
	(void)mm;
	km_task_unuse_mm(km_shim_current());
}
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(5, 8, 0)
#define kthread_use_mm(mm) km_compat_use_mm(mm)
#define kthread_unuse_mm(mm) km_compat_unuse_mm(mm)
#else
#define use_mm(mm) km_compat_use_mm(mm)
#define unuse_mm(mm) km_compat_unuse_mm(mm)
#endif

#endif
