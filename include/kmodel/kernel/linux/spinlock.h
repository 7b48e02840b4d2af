/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/spinlock.h> */
#ifndef KM_COMPAT_LINUX_SPINLOCK_H
#define KM_COMPAT_LINUX_SPINLOCK_H

#include <linux/kernel.h>
#include <linux/irqflags.h>	/* as the kernel's <linux/spinlock.h> brings it */
#include <kmodel/mm.h>

/* custom: the model's spinlock (kmodel/mm.h struct km_spinlock):
 * preempt_disable() + owner checks of CONFIG_DEBUG_SPINLOCK */
typedef struct km_spinlock spinlock_t;
static inline void spin_lock(spinlock_t *lock) { km_spin_lock(km_shim_current(), lock); }
static inline void spin_unlock(spinlock_t *lock) { km_spin_unlock(km_shim_current(), lock); }
/* include/linux/spinlock_types.h and spinlock.h (v5.7): a lock defined
 * unlocked at build time, or initialised unlocked at run time (a driver's
 * probe: wl128x's fmc_prepare()) */
#define __SPIN_LOCK_UNLOCKED(lockname) { .owner = NULL }
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
#define spin_lock_init(lock) do { *(lock) = (spinlock_t)__SPIN_LOCK_UNLOCKED(lock); } while (0)

/* custom: include/linux/spinlock.h (v5.7): _irqsave saves and disables
 * interrupts, then takes the lock (__raw_spin_lock_irqsave()); _bh
 * disables softirqs, which raises preempt_count by SOFTIRQ_DISABLE_OFFSET
 * (local_bh_disable(), include/linux/bottom_half.h): in_atomic() either
 * way, and a sleeping fault under them a report (kmodel/machine.h) */
#define spin_lock_irqsave(lock, flags)					\
	do {								\
		local_irq_save(flags);					\
		spin_lock(lock);					\
	} while (0)
static inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	spin_unlock(lock);
	local_irq_restore(flags);
}
static inline void spin_lock_irq(spinlock_t *lock)
{
	local_irq_disable();
	spin_lock(lock);
}
static inline void spin_unlock_irq(spinlock_t *lock)
{
	spin_unlock(lock);
	local_irq_enable();
}
static inline void local_bh_disable(void) { km_preempt_disable(km_shim_current()); }
static inline void local_bh_enable(void) { km_preempt_enable(km_shim_current()); }
static inline void spin_lock_bh(spinlock_t *lock)
{
	local_bh_disable();
	spin_lock(lock);
}
static inline void spin_unlock_bh(spinlock_t *lock)
{
	spin_unlock(lock);
	local_bh_enable();
}

#endif
