// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel-style file that uses EXPORT_SYMBOL() without <linux/export.h>:
 * at file scope it parses as a declaration of an int (a warning in gnu11).
 * Built through kmodel_kernel_sources(), -Werror=implicit-int makes it an
 * error (user report 4); install_consumer.sh expects this not to build.
 */
#include <linux/kernel.h>

int my_helper(void);
int my_helper(void)
{
	return 0;
}
EXPORT_SYMBOL(my_helper);
