// SPDX-License-Identifier: GPL-2.0
/* tx_body.h at KMODEL_KERNEL_VERSION 3.6 (tests/CMakeLists.txt) */
#define TX_OPS tx_v3_6
#include "tx_body.h"
