/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/spinlock.h> */
#ifndef KM_COMPAT_LINUX_SPINLOCK_H
#define KM_COMPAT_LINUX_SPINLOCK_H

#include <linux/kernel.h>
#include <kmodel/mm.h>

/* custom: the model's spinlock (kmodel/mm.h struct km_spinlock):
 * preempt_disable() + owner checks of CONFIG_DEBUG_SPINLOCK */
typedef struct km_spinlock spinlock_t;
static inline void spin_lock(spinlock_t *lock) { km_spin_lock(km_shim_current(), lock); }
static inline void spin_unlock(spinlock_t *lock) { km_spin_unlock(km_shim_current(), lock); }

#endif
