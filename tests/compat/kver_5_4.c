// SPDX-License-Identifier: GPL-2.0
/* kver_body.h at KMODEL_KERNEL_VERSION 5.4 (tests/CMakeLists.txt): between
 * 817be129e6f2 (v5.3) and f4000fdf435b (v5.6), get_user_pages_fast()
 * refuses FOLL_FORCE */
#define KVER_OPS kver_v5_4
#define KVER_NAME "5.4"
#include "kver_body.h"
