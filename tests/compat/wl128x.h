/* SPDX-License-Identifier: GPL-2.0 */
/* drivers/media/radio/wl128x's RDS read, ported for tests/test_checkers.c
 * (tests/compat/wl128x_3_10.c): the entry points the test calls. */
#ifndef KM_TEST_WL128X_H
#define KM_TEST_WL128X_H

#include <stdbool.h>
#include <stddef.h>

struct fmdev;

/* an fmdev whose RDS buffer holds @blocks 3-byte blocks 0x10, 0x11, ... */
struct fmdev *wl128x_test_fmdev_new(unsigned int blocks);
void wl128x_test_fmdev_free(struct fmdev *fmdev);
/* fmc_transfer_rds_from_internal_buff() of v3.10 (@fixed false: copy_to_user
 * under the spinlock) or of v3.11: the bytes copied to user @buf */
int wl128x_test_read(struct fmdev *fmdev, bool fixed, unsigned long buf, size_t count);

#endif
