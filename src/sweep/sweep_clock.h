/* SPDX-License-Identifier: GPL-2.0 */
/* Private to src/sweep: the clock the sweeps time themselves by. */
#ifndef KMODEL_SWEEP_CLOCK_H
#define KMODEL_SWEEP_CLOCK_H

#include <time.h>

/* @clock's time, seconds (sweep.c) */
double km_sweep_now(clockid_t clock);

#endif
