// SPDX-License-Identifier: GPL-2.0
/*
 * fmc_transfer_rds_from_internal_buff() of drivers/media/radio/wl128x/
 * fmdrv_common.c, as the v3.11 fix 5255e4d9dfe2 ("[media] wl128x: do not
 * call copy_to_user() while holding spinlocks", Alexey Khoroshilov, posted
 * 8 May 2013, merged for v3.11) shows it before and after: before, copy_to_user()
 * ran under spin_lock_irqsave() -- a fault on the user buffer then sleeps
 * with the lock held and interrupts off. Built at 3.10, where ARM's
 * copy_to_user() calls no might_fault() (arch/arm/include/asm/uaccess.h:
 * access_ok() and __copy_to_user(); might_fault() came with the generic
 * _copy_to_user() of v4.12), so only the model's fault path can see it.
 * Between the markers the function as the fix's diff gives it (context and
 * "-" lines: v3.10; context and "+" lines: v3.11), each name suffixed with
 * its version, and the wait for data at its top (not in the diff: the
 * test fills the buffer first) left out where marked.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include "wl128x.h"

#define FM_RDS_BLK_SIZE 3

struct fm_rds {
	u8 *buff;
	u32 buf_size;
	u32 wr_idx;
	u32 rd_idx;
};

struct fmdev {
	struct {
		struct fm_rds rds;
	} rx;
	spinlock_t rds_buff_lock;
};

struct file;

/* BEGIN drivers/media/radio/wl128x/fmdrv_common.c v3.10 */
static int fmc_transfer_rds_from_internal_buff_v3_10(struct fmdev *fmdev, struct file *file,
		u8 __user *buf, size_t count)
{
	u32 block_count;
	unsigned long flags;
	int ret;

	/* kmodel: the wait for data (wait_event_interruptible()) left out */

	/* Calculate block count from byte count */
	count /= 3;
	block_count = 0;
	ret = 0;

	spin_lock_irqsave(&fmdev->rds_buff_lock, flags);

	while (block_count < count) {
		if (fmdev->rx.rds.wr_idx == fmdev->rx.rds.rd_idx)
			break;

		if (copy_to_user(buf, &fmdev->rx.rds.buff[fmdev->rx.rds.rd_idx],
					FM_RDS_BLK_SIZE))
			break;

		fmdev->rx.rds.rd_idx += FM_RDS_BLK_SIZE;
		if (fmdev->rx.rds.rd_idx >= fmdev->rx.rds.buf_size)
			fmdev->rx.rds.rd_idx = 0;

		block_count++;
		buf += FM_RDS_BLK_SIZE;
		ret += FM_RDS_BLK_SIZE;
	}
	spin_unlock_irqrestore(&fmdev->rds_buff_lock, flags);
	return ret;
}
/* END drivers/media/radio/wl128x/fmdrv_common.c v3.10 */

/* BEGIN drivers/media/radio/wl128x/fmdrv_common.c v3.11 */
static int fmc_transfer_rds_from_internal_buff_v3_11(struct fmdev *fmdev, struct file *file,
		u8 __user *buf, size_t count)
{
	u32 block_count;
	u8 tmpbuf[FM_RDS_BLK_SIZE];
	unsigned long flags;
	int ret;

	/* kmodel: the wait for data (wait_event_interruptible()) left out */

	/* Calculate block count from byte count */
	count /= FM_RDS_BLK_SIZE;
	block_count = 0;
	ret = 0;

	while (block_count < count) {
		spin_lock_irqsave(&fmdev->rds_buff_lock, flags);

		if (fmdev->rx.rds.wr_idx == fmdev->rx.rds.rd_idx) {
			spin_unlock_irqrestore(&fmdev->rds_buff_lock, flags);
			break;
		}
		memcpy(tmpbuf, &fmdev->rx.rds.buff[fmdev->rx.rds.rd_idx],
					FM_RDS_BLK_SIZE);
		fmdev->rx.rds.rd_idx += FM_RDS_BLK_SIZE;
		if (fmdev->rx.rds.rd_idx >= fmdev->rx.rds.buf_size)
			fmdev->rx.rds.rd_idx = 0;

		spin_unlock_irqrestore(&fmdev->rds_buff_lock, flags);

		if (copy_to_user(buf, tmpbuf, FM_RDS_BLK_SIZE))
			break;

		block_count++;
		buf += FM_RDS_BLK_SIZE;
		ret += FM_RDS_BLK_SIZE;
	}
	return ret;
}
/* END drivers/media/radio/wl128x/fmdrv_common.c v3.11 */

struct fmdev *wl128x_test_fmdev_new(unsigned int blocks)
{
	struct fmdev *fmdev = kzalloc(sizeof(*fmdev), GFP_KERNEL);
	u32 i;

	if (!fmdev)
		return NULL;
	spin_lock_init(&fmdev->rds_buff_lock);	/* as fmc_prepare() does */
	/* a ring of blocks + 1 slots: wr_idx == rd_idx means empty */
	fmdev->rx.rds.buf_size = (blocks + 1) * FM_RDS_BLK_SIZE;
	fmdev->rx.rds.buff = kzalloc(fmdev->rx.rds.buf_size, GFP_KERNEL);
	if (!fmdev->rx.rds.buff) {
		kfree(fmdev);
		return NULL;
	}
	for (i = 0; i < blocks * FM_RDS_BLK_SIZE; i++)
		fmdev->rx.rds.buff[i] = (u8)(0x10 + i);
	fmdev->rx.rds.wr_idx = blocks * FM_RDS_BLK_SIZE;
	return fmdev;
}

void wl128x_test_fmdev_free(struct fmdev *fmdev)
{
	kfree(fmdev->rx.rds.buff);
	kfree(fmdev);
}

int wl128x_test_read(struct fmdev *fmdev, bool fixed, unsigned long buf, size_t count)
{
	if (fixed)
		return fmc_transfer_rds_from_internal_buff_v3_11(fmdev, NULL, (u8 __user *)buf,
								 count);
	return fmc_transfer_rds_from_internal_buff_v3_10(fmdev, NULL, (u8 __user *)buf, count);
}
