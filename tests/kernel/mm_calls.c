// SPDX-License-Identifier: GPL-2.0
/* Kernel-style use of another address space from a kernel thread, through
 * the layer at 5.8 (<linux/sched/mm.h>, <linux/kthread.h>): for
 * test_machine, which links this file. Returns 0 when every step did what
 * the kernel's does, else the step that failed. */
#include <linux/kthread.h>
#include <linux/mman.h>
#include <linux/uaccess.h>

int kernel_use_foreign_mm(void);

int kernel_use_foreign_mm(void)
{
	struct mm_struct *mm = mm_alloc();
	unsigned long u;
	char buf[4] = "abc", back[4] = { 0 };

	if (!mm)
		return 1;
	kthread_use_mm(mm);
	u = vm_mmap(NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (u >= TASK_SIZE)
		return 2;
	if (copy_to_user((void __user *)u, buf, 4) || copy_from_user(back, (void __user *)u, 4))
		return 3;
	if (memcmp(back, "abc", 4))
		return 4;
	kthread_unuse_mm(mm);
	mmput(mm);
	return 0;
}
