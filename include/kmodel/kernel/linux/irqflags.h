/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/irqflags.h> on current */
#ifndef KM_COMPAT_LINUX_IRQFLAGS_H
#define KM_COMPAT_LINUX_IRQFLAGS_H

#include <linux/kernel.h>

/* custom: the task's interrupt mask (km_local_irq_*(), kmodel/machine.h),
 * read by might_sleep() and the model's fault path. @flags is the state
 * local_irq_save() found (include/linux/irqflags.h, v5.7: flags are the
 * CPSR's I bit on ARM, arch_irqs_disabled_flags()), so a restore puts
 * back what a nested save saw. */
#define local_irq_disable() km_local_irq_disable(km_shim_current())
#define local_irq_enable() km_local_irq_enable(km_shim_current())
#define irqs_disabled() km_irqs_disabled(km_shim_current())
#define local_irq_save(flags)						\
	do {								\
		(flags) = (unsigned long)km_irqs_disabled(km_shim_current()); \
		km_local_irq_disable(km_shim_current());		\
	} while (0)
#define local_irq_restore(flags)					\
	do {								\
		if (!(flags))						\
			km_local_irq_enable(km_shim_current());		\
	} while (0)
#define irqs_disabled_flags(flags) ((flags) != 0)

#endif
