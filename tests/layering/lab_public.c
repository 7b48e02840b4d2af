// SPDX-License-Identifier: GPL-2.0
/* A lab file (src/scenario, src/cost, ...) as the build compiles it: the
 * public headers are all it sees (tests/layering.cmake). */
#include <kmodel/kmodel.h>

int lab_fails(void)
{
	return km_err(-22, "a lab file reports through the public error helper");
}
