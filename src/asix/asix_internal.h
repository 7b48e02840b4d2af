/* SPDX-License-Identifier: GPL-2.0 */
/* Private to src/asix: the ported driver tables. */
#ifndef KMODEL_ASIX_INTERNAL_H
#define KMODEL_ASIX_INTERNAL_H

#include <kmodel/usb.h>

extern const struct km_usbnet_driver_info km_asix_v35_ax88772_info;
extern const struct km_usbnet_driver_info km_asix_v36_ax88772_info;

#endif
