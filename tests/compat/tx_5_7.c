// SPDX-License-Identifier: GPL-2.0
/* tx_body.h at KMODEL_KERNEL_VERSION 5.7 (tests/CMakeLists.txt) */
#define TX_OPS tx_v5_7
#include "tx_body.h"
