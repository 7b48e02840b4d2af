// SPDX-License-Identifier: GPL-2.0
/* Calls CALL at KMODEL_KERNEL_VERSION (tests/CMakeLists.txt passes both): a
 * name that version lacks must be undeclared (-fsyntax-only). */
#include <linux/etherdevice.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/uio.h>
#include <linux/usb.h>

void absent(void);
void absent(void)
{
	(void)CALL;
}
