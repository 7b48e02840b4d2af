// SPDX-License-Identifier: GPL-2.0
/* Calls CALL at KMODEL_KERNEL_VERSION (tests/CMakeLists.txt passes both): a
 * name that version lacks must be undeclared (-fsyntax-only), a single-value
 * transfer of a size it lacks refused. */
#include <linux/etherdevice.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/usb.h>

void absent(void);
void absent(void)
{
	(void)CALL;
}
