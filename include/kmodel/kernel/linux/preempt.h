/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/preempt.h> on current (preempt_count()
 * and in_atomic() are in <linux/kernel.h> here, which might_sleep() needs) */
#ifndef KM_COMPAT_LINUX_PREEMPT_H
#define KM_COMPAT_LINUX_PREEMPT_H

#include <linux/kernel.h>

/* custom: the model's counters */
static inline void preempt_disable(void) { km_preempt_disable(km_shim_current()); }
static inline void preempt_enable(void) { km_preempt_enable(km_shim_current()); }

#endif
