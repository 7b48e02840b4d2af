/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel compatibility layer: <kunit/resource.h>, its deferred actions
 * (include/kunit/resource.h and lib/kunit/resource.c, mainline): a
 * function and its argument run when the case ends -- after its exit hook,
 * even when an assertion ended it -- the last added first, in one list
 * with the case's kunit_kmalloc() memory. The runtime is libkmodel's
 * (km_kunit_*_action(), kmodel/kunit.h). <kunit/test.h> includes this, as
 * the kernel's does.
 */
#ifndef KM_COMPAT_KUNIT_RESOURCE_H
#define KM_COMPAT_KUNIT_RESOURCE_H

#include <kunit/test.h>

/* custom: the runtime's (a NULL action fails the case's assertion) */
typedef km_kunit_action_t kunit_action_t;
#define kunit_add_action(test, action, ctx) km_kunit_add_action((test), (action), (ctx))
#define kunit_remove_action(test, action, ctx) km_kunit_remove_action((test), (action), (ctx))
#define kunit_release_action(test, action, ctx) km_kunit_release_action((test), (action), (ctx))

/* duplicate (lib/kunit/resource.c, mainline). The model's
 * kunit_add_action() does not fail (the kernel's kzalloc() of its record
 * can: -ENOMEM), so the action runs at the case's end */
static inline int kunit_add_action_or_reset(struct kunit *test, void (*action)(void *),
					    void *ctx)
{
	int res = kunit_add_action(test, action, ctx);

	if (res)
		action(ctx);
	return res;
}

/* duplicate (include/kunit/resource.h, mainline) */
#define KUNIT_DEFINE_ACTION_WRAPPER(wrapper, orig, arg_type)	\
	static void wrapper(void *in)				\
	{							\
		arg_type arg = (arg_type)in;			\
		orig(arg);					\
	}

#endif
