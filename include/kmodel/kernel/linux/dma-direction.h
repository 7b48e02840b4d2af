/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel compatibility layer: <linux/dma-direction.h> */
#ifndef KM_COMPAT_LINUX_DMA_DIRECTION_H
#define KM_COMPAT_LINUX_DMA_DIRECTION_H

#include <linux/types.h>	/* as every header of the layer brings it */

/* duplicate (include/linux/dma-direction.h, v5.7) */
enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

#endif
