// SPDX-License-Identifier: GPL-2.0
/*
 * A plugin whose entry point loads the plugin itself (its own file, found
 * with dladdr()): the nested km_registry_load() must refuse it, not call
 * this entry point again without end (unbounded recursion: SIGSEGV).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <kmodel/kmodel.h>

KM_PLUGIN_INIT(reg)
{
	Dl_info self;

	if (!dladdr((void *)kmodel_plugin_init, &self) || !self.dli_fname)
		return -ENOENT;
	return km_registry_load(reg, self.dli_fname);
}
