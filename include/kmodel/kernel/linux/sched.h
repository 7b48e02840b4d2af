/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/sched.h>, <linux/mm_types.h> (the
 * slices of task_struct and mm_struct that ported code names) */
#ifndef KM_COMPAT_LINUX_SCHED_H
#define KM_COMPAT_LINUX_SCHED_H

#include <linux/kernel.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <kmodel/mm.h>

/* custom: struct mm_struct is the model's struct km_mm_locks: its members
 * mmap_sem and page_table_lock (v5.7 names), and mm, the model's address
 * space, which pgd_offset() walks */
#define mm_struct km_mm_locks
/* custom: current is a task_struct whose only member is mm; a kernel
 * thread's NULL mm is a recorded BUG (km_task_mm_locks()) */
struct task_struct {
	struct mm_struct *mm;
};
#define current (&(struct task_struct){ .mm = km_task_mm_locks(km_shim_current()) })

#endif
