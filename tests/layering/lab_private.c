// SPDX-License-Identifier: GPL-2.0
/* A lab file that reaches for a private header of the model (PRIVATE_HEADER,
 * e.g. "internal.h"): with the lab's include path it must not compile
 * (tests/layering.cmake). */
#include <kmodel/kmodel.h>
#include PRIVATE_HEADER
