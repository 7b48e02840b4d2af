/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/kernel.h>, <linux/string.h> */
#ifndef KM_COMPAT_LINUX_KERNEL_H
#define KM_COMPAT_LINUX_KERNEL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <linux/types.h>	/* as the kernel's (v3.5, v5.7) includes it */
#include <linux/compiler.h>
#include <linux/printk.h>	/* as the kernel's <linux/kernel.h> brings it */
#include <kmodel/current.h>
#include <kmodel/machine.h>

#include <linux/bitops.h>	/* as the kernel's <linux/kernel.h> (v3.6) brings it */

/* duplicate in effect (lib/string.c memchr_inv(), v5.7; <linux/string.h>, which
 * the kernel's headers bring nearly everywhere): the first byte of
 * [@start, @start + @bytes) that is not @c, or NULL */
static inline void *memchr_inv(const void *start, int c, size_t bytes)
{
	const u8 *p = start;

	for (size_t i = 0; i < bytes; i++)
		if (p[i] != (u8)c)
			return (void *)(p + i);
	return NULL;
}

/* duplicate (include/linux/kernel.h, v5.7) */
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define upper_32_bits(n) ((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n) ((u32)(n))
/* duplicate (include/linux/kernel.h and include/uapi/linux/kernel.h's
 * __ALIGN_KERNEL(), v3.6; v5.7 the same): @a a power of two; the mask is
 * of x's type */
#define __ALIGN_KERNEL(x, a) __ALIGN_KERNEL_MASK(x, (typeof(x))(a) - 1)
#define __ALIGN_KERNEL_MASK(x, mask) (((x) + (mask)) & ~(mask))
#define ALIGN(x, a) __ALIGN_KERNEL((x), (a))
#define IS_ALIGNED(x, a) (((x) & ((typeof(x))(a) - 1)) == 0)
/* duplicate (include/linux/kernel.h, v3.6): any @y, not only powers of
 * two; y evaluated once */
#define roundup(x, y) (					\
{							\
	const typeof(y) __y = y;			\
	(((x) + (__y - 1)) / __y) * __y;		\
}							\
)
/* duplicate in effect (include/linux/kernel.h, v5.7): strict typing, a
 * pointer comparison warns when x and y differ in type */
#define min(x, y) ({ typeof(x) _min1 = (x); typeof(y) _min2 = (y); \
		     (void)(&_min1 == &_min2); _min1 < _min2 ? _min1 : _min2; })
#define max(x, y) ({ typeof(x) _max1 = (x); typeof(y) _max2 = (y); \
		     (void)(&_max1 == &_max2); _max1 > _max2 ? _max1 : _max2; })
/* duplicate (include/linux/kernel.h, v3.5; v5.7's __careful_cmp() form
 * computes the same): both converted to @type, each evaluated once */
#define min_t(type, x, y) ({ type __min1 = (x); type __min2 = (y); \
			     __min1 < __min2 ? __min1 : __min2; })
#define max_t(type, x, y) ({ type __max1 = (x); type __max2 = (y); \
			     __max1 > __max2 ? __max1 : __max2; })

/* custom: `current` for the shims is the model's thread-local current task
 * (kmodel/current.h), set by km_task_switch(). Ported code cannot run
 * without a task: with none, km_shim_current() aborts with a message
 * (km_shim_no_current()) instead of dereferencing NULL. */
static inline struct km_task *km_shim_current(void)
{
	struct km_task *t = km_current_task;

	return __builtin_expect(t != NULL, 1) ? t : km_shim_no_current();
}

/* custom: memcpy() and memset() count the bytes in the current machine's
 * events (memcpy_bytes, clear_bytes) and, inside uaccess_save_and_enable()
 * .. uaccess_restore(), reach user addresses through the user mapping
 * (km_kernel_memcpy(), kmodel/current.h) */
#define memcpy(to, from, n) km_kernel_memcpy((to), (from), (n))
#define memset(s, c, n) km_kernel_memset((s), (c), (n))

/*
 * custom: preempt_count() of current (include/linux/preempt.h). Before
 * v4.2, pagefault_disable() raised preempt_count (include/linux/uaccess.h,
 * v3.5: inc_preempt_count()); 8222dbe21e79 (v4.2) gave it a count of its
 * own, pagefault_disabled(). The model keeps the two apart, so the value
 * below v4.2 is their sum: in_atomic() and might_sleep() then see a
 * pagefault_disable() section as atomic, as v3.5 did.
 */
static inline int preempt_count(void)
{
	struct km_task *t = km_shim_current();

#if KMODEL_KERNEL_VERSION < KERNEL_VERSION(4, 2, 0)
	return km_preempt_count(t) + km_pagefault_disabled(t);
#else
	return km_preempt_count(t);
#endif
}
/* duplicate (include/linux/preempt.h, v5.7; v3.5 the same) */
#define in_atomic() (preempt_count() != 0)

/* custom: run a shim's body with the ported code's call site set on
 * current (km_task_set_caller()), unless an outer shim set one: a report
 * it raises names the caller's file:line, not the shim's header. A shim
 * wrapped so is a function and a macro of the same name calling it (the
 * macro does not expand inside itself), so &copy_from_user still names
 * the function */
#define KM_SHIM_AT(expr) ({							\
		struct km_task *__at_t = km_shim_current();			\
		bool __at_own = !km_task_caller(__at_t, NULL);			\
		if (__at_own)							\
			km_task_set_caller(__at_t, __FILE__, __LINE__);		\
		__auto_type __at_r = (expr);					\
		if (__at_own)							\
			km_task_set_caller(__at_t, NULL, 0);			\
		__at_r;								\
	})
#define KM_SHIM_AT_VOID(stmt) do {						\
		struct km_task *__at_t = km_shim_current();			\
		bool __at_own = !km_task_caller(__at_t, NULL);			\
		if (__at_own)							\
			km_task_set_caller(__at_t, __FILE__, __LINE__);		\
		stmt;								\
		if (__at_own)							\
			km_task_set_caller(__at_t, NULL, 0);			\
	} while (0)

/* custom: might_sleep() with CONFIG_DEBUG_ATOMIC_SLEEP (___might_sleep(),
 * kernel/sched/core.c): in atomic context or with interrupts off
 * (irqs_disabled(), <linux/irqflags.h>) a KM_R_SLEEP_IN_ATOMIC BUG on
 * current's machine, "at file:line" */
static inline void km_compat_might_sleep(const char *file, int line)
{
	char at[128];

	if (likely(!in_atomic() && !km_irqs_disabled(km_shim_current())))
		return;
	snprintf(at, sizeof(at), "%s:%d", file, line);
	km_task_sleep_in_atomic(km_shim_current(), at);
}
#define might_sleep() km_compat_might_sleep(__FILE__, __LINE__)

/*
 * custom: might_fault() with CONFIG_PROVE_LOCKING or CONFIG_DEBUG_ATOMIC_SLEEP.
 * v5.7 (mm/memory.c __might_fault(), since v4.2): nothing under KERNEL_DS
 * (uaccess_kernel()) or pagefault_disable(), else might_sleep().
 * v3.5 (mm/memory.c might_fault()): nothing under KERNEL_DS, else
 * might_sleep(), which a pagefault_disable() section fails too (see
 * preempt_count() above). Kernels between 3.5 and 4.2 reworked this
 * function; the layer follows v3.5 below v4.2. The might_lock_read() of
 * mmap_sem that follows is lockdep's: not modelled.
 */
static inline void km_compat_might_fault(const char *file, int line)
{
	struct km_task *t = km_shim_current();

	if (km_task_kernel_ds(t))
		return;
#if KMODEL_KERNEL_VERSION >= KERNEL_VERSION(4, 2, 0)
	if (km_pagefault_disabled(t))
		return;
#endif
	km_compat_might_sleep(file, line);
}
#define might_fault() km_compat_might_fault(__FILE__, __LINE__)

#include <linux/bug.h>	/* as the kernel's <linux/kernel.h> brings it */

#endif
