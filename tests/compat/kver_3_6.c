// SPDX-License-Identifier: GPL-2.0
/* kver_body.h at KMODEL_KERNEL_VERSION 3.6 (tests/CMakeLists.txt): the
 * first version whose get_user()/put_user() call might_fault() */
#define KVER_OPS kver_v3_6
#define KVER_NAME "3.6"
#include "kver_body.h"
