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
 * custom: module_init() and module_exit() put their function in the
 * object's km_initcalls / km_exitcalls section, where a harness finds it
 * (km_kunit_module_load(), kmodel/kunit.h: kmodel-kunit runs a module's
 * init in a task with an address space, as insmod's, then its exit). The
 * function's type is checked by the kernel's __inittest()/__exittest(),
 * which are kept (one module_init() and one module_exit() per file, as
 * the kernel's); the kernel moved both to <linux/module.h>
 * (0fd972a7d91d, v4.5); here <linux/module.h> brings this header, as in
 * v3.6.
 */
#define module_init(initfn)							\
	static inline initcall_t __attribute__((__unused__)) __inittest(void)	\
	{ return initfn; }							\
	static initcall_t __km_initcall_##initfn				\
		__attribute__((used, section("km_initcalls"))) = initfn
#define module_exit(exitfn)							\
	static inline exitcall_t __attribute__((__unused__)) __exittest(void)	\
	{ return exitfn; }							\
	static exitcall_t __km_exitcall_##exitfn				\
		__attribute__((used, section("km_exitcalls"))) = exitfn

/* custom: what km_kunit_module_load() reads of a plugin: its suites
 * (<kunit/test.h>'s kunit_test_suites()), initcalls and exitcalls, by the
 * linker's __start_/__stop_ symbols of their sections (weak: a section the
 * plugin lacks is empty). One definition per plugin (weak, merged). */
extern void *const __start_km_kunit_suites[] __attribute__((weak, visibility("hidden")));
extern void *const __stop_km_kunit_suites[] __attribute__((weak, visibility("hidden")));
extern const initcall_t __start_km_initcalls[] __attribute__((weak, visibility("hidden")));
extern const initcall_t __stop_km_initcalls[] __attribute__((weak, visibility("hidden")));
extern const exitcall_t __start_km_exitcalls[] __attribute__((weak, visibility("hidden")));
extern const exitcall_t __stop_km_exitcalls[] __attribute__((weak, visibility("hidden")));
void kmodel_kunit_sections(void *const **suites, size_t *nsuites, void *const **init,
			   size_t *ninit, void *const **exit, size_t *nexit)
	__attribute__((weak, visibility("default")));
__attribute__((weak, visibility("default"))) void
kmodel_kunit_sections(void *const **suites, size_t *nsuites, void *const **init, size_t *ninit,
		      void *const **exit, size_t *nexit)
{
	*suites = __start_km_kunit_suites;
	*nsuites = __start_km_kunit_suites ? (size_t)(__stop_km_kunit_suites -
						      __start_km_kunit_suites) : 0;
	*init = (void *const *)__start_km_initcalls;
	*ninit = __start_km_initcalls ? (size_t)(__stop_km_initcalls - __start_km_initcalls) : 0;
	*exit = (void *const *)__start_km_exitcalls;
	*nexit = __start_km_exitcalls ? (size_t)(__stop_km_exitcalls - __start_km_exitcalls) : 0;
}
#define __setup(str, func)

#endif
