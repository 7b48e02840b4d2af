// SPDX-License-Identifier: GPL-2.0
/* kver_body.h at KMODEL_KERNEL_VERSION 6.3 (tests/CMakeLists.txt): the
 * first version the layer lets pin_user_pages_unlocked() take
 * FOLL_LONGTERM */
#define KVER_OPS kver_v6_3
#define KVER_NAME "6.3"
#include "kver_body.h"
