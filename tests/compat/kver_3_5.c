// SPDX-License-Identifier: GPL-2.0
/* kver_body.h at KMODEL_KERNEL_VERSION 3.5 (tests/CMakeLists.txt) */
#define KVER_OPS kver_v3_5
#define KVER_NAME "3.5"
#include "kver_body.h"
