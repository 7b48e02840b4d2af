/* SPDX-License-Identifier: GPL-2.0 */
/*
 * km_tool.h - what every libkmodel command-line tool does the same way
 * (private to the build; a target gets it from kmodel_tool() in
 * cmake/KmodelTool.cmake): the locale, and the --version text that help2man
 * turns into the man page's header.
 */
#ifndef KM_TOOL_H
#define KM_TOOL_H

#include <kmodel/registry.h>
#include <kmodel/version.h>
#include <locale.h>
#include <stdio.h>

/* The --version entry of a tool's GOptionEntry table. */
#define KM_TOOL_VERSION_ENTRY(flag) \
	{ "version", 0, 0, G_OPTION_ARG_NONE, (flag), "Print the version and exit", NULL }

/* First thing in main(): the user's locale, so GOption's --help and glib's
 * messages print in the terminal's charset (and translated, where glib is). */
static inline void km_tool_init(void)
{
	setlocale(LC_ALL, "");
}

/* The --version text on stdout. Line 1, "PROG (libkmodel) VERSION", is
 * the GNU form help2man reads; the library's version is that of the
 * libkmodel linked at run time. */
static inline void km_tool_print_version(const char *prog)
{
	const char *describe = km_version_describe();

	printf("%s (libkmodel) %s\n", prog, km_version());
	if (*describe)
		printf("Built from git %s.\n", describe);
	printf("License GPL-2.0: GNU GPL version 2 <https://www.gnu.org/licenses/old-licenses/gpl-2.0.html>.\n"
	       "This is free software: you are free to change and redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n");
}

/* The --load entry of a tool's GOptionEntry table: plugins to load. */
#define KM_TOOL_LOAD_ENTRY(paths) \
	{ "load", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, (paths), \
	  "Load a plugin: a shared object linking libkmodel.so whose KM_PLUGIN_INIT " \
	  "entry point registers variants (kmodel/registry.h); repeatable", "PATH.so" }

/* A registry of the built-in variants and those of the plugins @load
 * (NULL-terminated, may be NULL); NULL after printing why a plugin failed
 * to load. */
static inline struct km_registry *km_tool_registry(const char *prog, char **load)
{
	struct km_registry *reg;
	int err = km_registry_new(KM_REGISTRY_DEFAULT, &reg);

	for (char **p = load; !err && p && *p; p++)
		err = km_registry_load(reg, *p);
	if (err) {
		fprintf(stderr, "%s: %s\n", prog, km_last_error());
		km_registry_free(reg);
		return NULL;
	}
	return reg;
}

#endif
