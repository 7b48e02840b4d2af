/* SPDX-License-Identifier: GPL-2.0 */
/* Private hooks of usbnet for the machine's lifecycle (src/lifecycle/). */
#ifndef KMODEL_USBNET_INTERNAL_H
#define KMODEL_USBNET_INTERNAL_H

#include "internal.h"

/* usbnet.c: its state on a machine (m->usbnet, opaque: usbnet.c) */
int km_usbnet_init(struct km_machine *m);
void km_usbnet_fini(struct km_machine *m);

#endif
