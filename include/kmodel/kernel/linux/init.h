/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel compatibility layer: <linux/init.h> (include/linux/init.h, v3.6).
 * There is no boot and no module loader: nothing is discarded after init
 * and no initcall runs.
 */
#ifndef KM_COMPAT_LINUX_INIT_H
#define KM_COMPAT_LINUX_INIT_H

#include <linux/compiler.h>
#include <linux/types.h>

/* stub (v3.6): the section markers are empty (no .init.text to free) */
#define __init
#define __initdata
#define __initconst
#define __exit
#define __exitdata
#define __ref
#define __refdata
#define __refconst
#define __init_or_module
#define __initdata_or_module
#define __initconst_or_module
/* stub (v3.6): the HOTPLUG markers. The kernel dropped them after v3.7,
 * when CONFIG_HOTPLUG became always on; the release that removed them
 * from init.h was not checked, so they are not gated here */
#define __devinit
#define __devinitdata
#define __devinitconst
#define __devexit
#define __devexitdata
#define __devexitconst
#define __devexit_p(x) x
/* duplicate (v3.6, MODULE): a module keeps its exit function */
#define __exit_p(x) x

/* duplicate (v3.6) */
typedef int (*initcall_t)(void);
typedef void (*exitcall_t)(void);

/*
 * stub (v3.6's MODULE form without its alias to init_module and
 * cleanup_module, which would clash between two drivers of one plugin):
 * the function's type is checked and it counts as used; nothing calls it.
 * One module_init() and one module_exit() per file, as the kernel's.
 * The kernel moved both to <linux/module.h> (0fd972a7d91d, v4.5); here
 * <linux/module.h> brings this header, as in v3.6.
 */
#define module_init(initfn) \
	static inline initcall_t __inittest(void) { return initfn; }
#define module_exit(exitfn) \
	static inline exitcall_t __exittest(void) { return exitfn; }
#define __setup(str, func)

#endif
