// SPDX-License-Identifier: GPL-2.0
/* The library's version and the revision it was built from. */
#include <kmodel/version.h>

#include "describe.h"	/* KM_GIT_DESCRIBE, generated at build time by cmake/describe.cmake */

const char *km_version(void)
{
	return KMODEL_VERSION_STRING;
}

const char *km_version_describe(void)
{
	return KM_GIT_DESCRIBE;
}
