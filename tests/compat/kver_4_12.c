// SPDX-License-Identifier: GPL-2.0
/* kver_body.h at KMODEL_KERNEL_VERSION 4.12 (tests/CMakeLists.txt) */
#define KVER_OPS kver_v4_12
#define KVER_NAME "4.12"
#include "kver_body.h"
