/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/bug.h>, <asm-generic/bug.h> */
#ifndef KM_COMPAT_LINUX_BUG_H
#define KM_COMPAT_LINUX_BUG_H

#include <linux/kernel.h>

/*
 * custom: what the kernel's BUG()/WARN() print is a report on current's
 * machine (KM_R_BUG_ON, KM_R_WARN_ON, with the condition and the file and
 * line); the code runs on, where the kernel would oops after a BUG.
 * WARN_ON_ONCE() reports every time it fires (the kernel's once-flag per
 * call site would be state shared by every machine and thread):
 * km_report_count() tells how often. The macros' values are the kernel's
 * (include/asm-generic/bug.h, v5.7; the same in v3.5).
 */
#define km_compat_warn(what, ...) \
	km_report(km_task_machine(km_shim_current()), KM_WARN, KM_R_WARN_ON, \
		  "%s:%d: " what, __FILE__, __LINE__, ##__VA_ARGS__)
#define km_compat_bug(what, ...) \
	km_report(km_task_machine(km_shim_current()), KM_BUG, KM_R_BUG_ON, \
		  "%s:%d: " what, __FILE__, __LINE__, ##__VA_ARGS__)

#define BUG() km_compat_bug("BUG()")
#define BUG_ON(condition) do {						\
		if (unlikely(condition))				\
			km_compat_bug("BUG_ON(%s)", #condition);	\
	} while (0)
#define WARN_ON(condition) ({						\
		int __ret_warn_on = !!(condition);			\
		if (unlikely(__ret_warn_on))				\
			km_compat_warn("WARN_ON(%s)", #condition);	\
		unlikely(__ret_warn_on);				\
	})
#define WARN_ON_ONCE(condition) ({					\
		int __ret_warn_on = !!(condition);			\
		if (unlikely(__ret_warn_on))				\
			km_compat_warn("WARN_ON_ONCE(%s)", #condition);	\
		unlikely(__ret_warn_on);				\
	})
#define WARN(condition, format, ...) ({					\
		int __ret_warn_on = !!(condition);			\
		if (unlikely(__ret_warn_on))				\
			km_compat_warn(format, ##__VA_ARGS__);		\
		unlikely(__ret_warn_on);				\
	})

#endif
