/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <asm/current.h>: current is in <linux/sched.h> */
#include <linux/sched.h>
