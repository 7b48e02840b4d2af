// SPDX-License-Identifier: GPL-2.0
/* kver_body.h at KMODEL_KERNEL_VERSION 5.7 (tests/CMakeLists.txt) */
#define KVER_OPS kver_v5_7
#define KVER_NAME "5.7"
#include "kver_body.h"
