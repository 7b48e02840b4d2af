/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel compatibility layer: <linux/kconfig.h> (include/linux/kconfig.h,
 * v5.7) and the modelled configuration's CONFIG_ symbols, which a kernel
 * build takes from include/generated/autoconf.h. Every layer header
 * brings it (through <linux/compiler.h>), as Kbuild's -include does.
 *
 * The model is 32-bit ARM with an MMU and highmem (the RFC's machines):
 * CONFIG_ARM, CONFIG_MMU, CONFIG_HIGHMEM. Options the model does not have
 * stay undefined, so #ifdef and IS_ENABLED() see them off, as in a kernel
 * configured without them; one named in #if is an error with -Wundef
 * -Werror=undef (kmodel_kernel_sources() adds them), so a test of an
 * option the layer does not decide never silently reads 0.
 */
#ifndef KM_COMPAT_LINUX_KCONFIG_H
#define KM_COMPAT_LINUX_KCONFIG_H

#include <linux/types.h>	/* as every header of the layer brings it */

/* the modelled configuration (arch/arm/Kconfig: ARM selects MMU unless
 * !MMU; HIGHMEM is the a15 machine's user memory) */
#define CONFIG_ARM 1
#define CONFIG_MMU 1
#define CONFIG_HIGHMEM 1

/* duplicate (include/linux/kconfig.h, v5.7) */
#define __ARG_PLACEHOLDER_1 0,
#define __take_second_arg(__ignored, val, ...) val
#define __and(x, y)			___and(x, y)
#define ___and(x, y)			____and(__ARG_PLACEHOLDER_##x, y)
#define ____and(arg1_or_junk, y)	__take_second_arg(arg1_or_junk y, 0)
#define __or(x, y)			___or(x, y)
#define ___or(x, y)			____or(__ARG_PLACEHOLDER_##x, y)
#define ____or(arg1_or_junk, y)		__take_second_arg(arg1_or_junk 1, y)
#define __is_defined(x)			___is_defined(x)
#define ___is_defined(val)		____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk)	__take_second_arg(arg1_or_junk 1, 0)
#define IS_BUILTIN(option) __is_defined(option)
#define IS_MODULE(option) __is_defined(option##_MODULE)
#define IS_REACHABLE(option) __or(IS_BUILTIN(option), \
				__and(IS_MODULE(option), __is_defined(MODULE)))
#define IS_ENABLED(option) __or(IS_BUILTIN(option), IS_MODULE(option))

#endif
