// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin whose entry point takes the host down, for tests/harden_cli.sh:
 * built twice, with BADINIT_SEGV (KM_PLUGIN_INIT dereferences NULL) and
 * BADINIT_SPIN (it never returns). The tools try a plugin's load in a
 * forked child first: each is named and refused (exit 2), never the tool
 * killed by SIGSEGV or hung.
 */
#include <errno.h>
#include <kmodel/kmodel.h>

KM_PLUGIN_INIT(reg)
{
	(void)reg;
#ifdef BADINIT_SEGV
	*(volatile unsigned char *)0 = 0;	/* SIGSEGV */
#endif
#ifdef BADINIT_SPIN
	for (volatile int forever = 1; forever;)
		;
#endif
	return -EINVAL;
}
