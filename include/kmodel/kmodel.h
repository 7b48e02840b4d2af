/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel/kmodel.h - umbrella header of libkmodel. */
#ifndef KMODEL_KMODEL_H
#define KMODEL_KMODEL_H

#define KMODEL_VERSION_MAJOR 0
#define KMODEL_VERSION_MINOR 2
#define KMODEL_VERSION_PATCH 0

#include <kmodel/machine.h>
#include <kmodel/current.h>
#include <kmodel/mm.h>
#include <kmodel/uaccess.h>
#include <kmodel/skb.h>
#include <kmodel/traffic.h>
#include <kmodel/usb.h>
#include <kmodel/asix.h>
#include <kmodel/conformance.h>

#endif
