/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Versioned structs (docs/library.md, "Versioning"): a struct a caller passes with
 * its sizeof, so that a program built against an older or newer header
 * still works. Public so that code that implements a sized interface
 * outside the model -- the lab, a plugin's device model whose get_stats()
 * fills a caller's struct km_usbnet_dev_stats (kmodel/registry.h) -- reads
 * and writes them as the library does.
 */
#ifndef KMODEL_SIZED_H
#define KMODEL_SIZED_H

#include <stddef.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * km_struct_read() - take the members both sides know of the caller's
 * struct @caller (@size: its sizeof as the caller was compiled) into the
 * library's copy @lib (@lsize: the library's sizeof), which holds the
 * defaults of the members the caller does not know.
 */
static inline void km_struct_read(void *lib, size_t lsize, const void *caller, size_t size)
{
	memcpy(lib, caller, size < lsize ? size : lsize);
}

/**
 * km_struct_write() - give the caller's struct @caller the members both
 * sides know from @lib, and zero any the library does not know.
 */
static inline void km_struct_write(void *caller, size_t size, const void *lib, size_t lsize)
{
	memcpy(caller, lib, size < lsize ? size : lsize);
	if (size > lsize)
		memset((char *)caller + lsize, 0, size - lsize);
}

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_SIZED_H */
