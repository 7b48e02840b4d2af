// SPDX-License-Identifier: GPL-2.0
/* kver_body.h at KMODEL_KERNEL_VERSION 6.1 (tests/CMakeLists.txt): the
 * last version whose pin_user_pages_unlocked() refuses FOLL_LONGTERM */
#define KVER_OPS kver_v6_1
#define KVER_NAME "6.1"
#include "kver_body.h"
