/* SPDX-License-Identifier: GPL-2.0 */
/* Private hooks of skb_sim for the machine's lifecycle (src/lifecycle/). */
#ifndef KMODEL_SKB_INTERNAL_H
#define KMODEL_SKB_INTERNAL_H

#include "internal.h"

/* skbuff.c: the teardown check files a report per live skb or data
 * buffer; fini frees the host structs (the kmalloc objects go with slab) */
int km_skb_check_leaks(struct km_machine *m);
void km_skb_fini(struct km_machine *m);

#endif
