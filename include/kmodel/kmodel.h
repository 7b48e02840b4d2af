/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel/kmodel.h - umbrella header of libkmodel. */
#ifndef KMODEL_KMODEL_H
#define KMODEL_KMODEL_H

#include <kmodel/version.h>	/* generated: KMODEL_VERSION_*, km_version() */
#include <kmodel/machine.h>
#include <kmodel/sized.h>
#include <kmodel/current.h>
#include <kmodel/mm.h>
#include <kmodel/interleave.h>
#include <kmodel/uaccess.h>
#include <kmodel/skb.h>
#include <kmodel/traffic.h>
#include <kmodel/usb.h>
#include <kmodel/asix.h>
#include <kmodel/sweep.h>
#include <kmodel/conformance.h>
#include <kmodel/registry.h>
#include <kmodel/filemap.h>
#include <kmodel/scenario.h>
#include <kmodel/cost.h>
#include <kmodel/kunit.h>

#endif
