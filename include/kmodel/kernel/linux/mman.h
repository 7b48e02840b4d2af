/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel compatibility layer: <linux/mman.h>, with vm_mmap() and
 * vm_munmap() (include/linux/mm.h, mm/util.c, mm/mmap.c, v5.7).
 */
#ifndef KM_COMPAT_LINUX_MMAN_H
#define KM_COMPAT_LINUX_MMAN_H

#include <linux/mm.h>
#include <errno.h>

/* duplicate (include/uapi/asm-generic/mman-common.h, v5.7: ARM's) */
#define PROT_READ	0x1
#define PROT_WRITE	0x2
#define PROT_EXEC	0x4
#define PROT_NONE	0x0
#define MAP_SHARED	0x01
#define MAP_PRIVATE	0x02
#define MAP_FIXED	0x10
#define MAP_ANONYMOUS	0x20

/*
 * custom: vm_mmap() of an anonymous private mapping in current->mm
 * (km_mmap(); MAP_FIXED places it at @addr). PROT_EXEC is accepted and
 * not modelled; PROT_NONE, a file or a shared mapping are not modelled: a
 * KM_R_UNEXPECTED BUG and -EINVAL. Returns the address, or a negative
 * errno as an unsigned long, as the kernel's.
 */
static inline unsigned long vm_mmap(void *file, unsigned long addr, unsigned long len,
				    unsigned long prot, unsigned long flag, unsigned long offset)
{
	struct km_task *t = km_shim_current();
	unsigned long u;
	int err;

	if (file || offset || !(flag & MAP_ANONYMOUS) || !(flag & MAP_PRIVATE) ||
	    !(prot & PROT_READ)) {
		km_report(km_task_machine(t), KM_BUG, KM_R_UNEXPECTED,
			  "vm_mmap(prot %#lx, flags %#lx): only an anonymous private readable "
			  "mapping is modelled", prot, flag);
		return (unsigned long)-EINVAL;
	}
	if (!km_task_mm(t))
		return (unsigned long)-ENOMEM;
	err = km_mmap(km_task_mm(t), (flag & MAP_FIXED) ? addr : 0, len,
		      (int)(prot & (PROT_READ | PROT_WRITE)), &u);
	return err ? (unsigned long)(long)err : u;
}

/* custom: vm_munmap() of current->mm (km_munmap()) */
static inline int vm_munmap(unsigned long start, size_t len)
{
	struct km_task *t = km_shim_current();

	return km_task_mm(t) ? km_munmap(km_task_mm(t), start, len) : -EINVAL;
}

#endif
