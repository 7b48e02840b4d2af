/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/kernel.h>, <linux/string.h> */
#ifndef KM_COMPAT_LINUX_KERNEL_H
#define KM_COMPAT_LINUX_KERNEL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/compiler.h>
#include <kmodel/current.h>

/* duplicate (include/linux/kernel.h, v5.7) */
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
/* duplicate in effect (include/linux/kernel.h, v5.7): strict typing, a
 * pointer comparison warns when x and y differ in type */
#define min(x, y) ({ typeof(x) _min1 = (x); typeof(y) _min2 = (y); \
		     (void)(&_min1 == &_min2); _min1 < _min2 ? _min1 : _min2; })
#define max(x, y) ({ typeof(x) _max1 = (x); typeof(y) _max2 = (y); \
		     (void)(&_max1 == &_max2); _max1 > _max2 ? _max1 : _max2; })

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

#endif
