// SPDX-License-Identifier: GPL-2.0
/* kver_body.h at KMODEL_KERNEL_VERSION 5.19 (tests/CMakeLists.txt) */
#define KVER_OPS kver_v5_19
#define KVER_NAME "5.19"
#include "kver_body.h"
