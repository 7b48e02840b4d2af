/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/hardirq.h>: in_atomic() lives in
 * <linux/uaccess.h> here */
#include <linux/uaccess.h>
