/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/rwsem.h> */
#ifndef KM_COMPAT_LINUX_RWSEM_H
#define KM_COMPAT_LINUX_RWSEM_H

#include <linux/kernel.h>
#include <kmodel/mm.h>

/* custom: struct rw_semaphore is the model's struct km_rwsem */
#define rw_semaphore km_rwsem
static inline void down_read(struct rw_semaphore *sem) { km_down_read(km_shim_current(), sem); }
static inline void up_read(struct rw_semaphore *sem) { km_up_read(km_shim_current(), sem); }

#endif
