// SPDX-License-Identifier: GPL-2.0
/* kver_body.h at KMODEL_KERNEL_VERSION 6.2 (tests/CMakeLists.txt): the
 * first version the layer lets pin_user_pages_unlocked() take
 * FOLL_LONGTERM (53b2d09bdd12, merged for v6.2) */
#define KVER_OPS kver_v6_2
#define KVER_NAME "6.2"
#include "kver_body.h"
