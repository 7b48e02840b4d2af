// SPDX-License-Identifier: GPL-2.0
/* A header neither the layer nor the build host has (dm9601's and
 * smsc95xx's <linux/crc32.h>): host_headers.sh expects the
 * README's kmodel_host_headers() to print the compiler's fatal error and
 * fail. */
#include <linux/module.h>
#include <linux/crc32.h>
