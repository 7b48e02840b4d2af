/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the scenarios' files: private, not installed. */
#ifndef KM_SCENARIO_INTERNAL_H
#define KM_SCENARIO_INTERNAL_H

#include <kmodel/kmodel.h>
#include <errno.h>
#include <glib.h>
#include <stddef.h>
#include <string.h>

/* seconds from CLOCK_MONOTONIC */
double km_scenario_now(void);
/* the calling thread's CPU time, seconds (CLOCK_THREAD_CPUTIME_ID): what a
 * run cost, which other load on the host stretches little */
double km_scenario_cpu_now(void);
/* insn.c: a counter of the calling thread's retired user-mode
 * instructions (its file descriptor, or the negative errno of
 * perf_event_open(2)); its count now (0 without one); closed (fd < 0: a
 * no-op) */
int km_insn_open(void);
uint64_t km_insn_read(int fd);
void km_insn_close(int fd);
/* How much slower the median of @runs (seconds) was than @best, percent
 * (sorts @runs). */
double km_scenario_spread_pct(GArray *runs, double best);

/* Free @t (NULL: none) and destroy @m, which logs its teardown problems
 * (km_machine_destroy()). The problems -- those of the task's exit
 * (preempt_count or pagefault_disabled left raised, kmap_local slots held)
 * and of the teardown checks -- are counted by code, and the row's appended
 * to @failed as "; @row: teardown: <code> <count>, ...", and given in
 * *@codes as "<code> <count>, ..." (g_free(); NULL when clean) for the
 * row's `teardown` column. Their number, 0 when clean. */
unsigned long km_scenario_teardown(struct km_machine *m, struct km_task *t, const char *row,
				   GString *failed, gchar **codes);
/* -EFAULT with "@scenario: @what: @failed" (the rows of
 * km_scenario_teardown(), less their leading "; ") as km_last_error(), cut
 * at a row's end with "..." where the message would not fit */
int km_scenario_fail(int err, const char *scenario, const char *what, const GString *failed);

#endif
