// SPDX-License-Identifier: GPL-2.0
/* Calls a name no kernel and no compatibility layer has: through
 * kmodel_kernel_sources() this must not compile (tests/install_consumer.sh). */
#include <linux/uaccess.h>

int undeclared(void);
int undeclared(void)
{
	return no_such_kernel_function(0);
}
