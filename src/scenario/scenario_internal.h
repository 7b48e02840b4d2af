/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the scenarios' files: private, not installed. */
#ifndef KM_SCENARIO_INTERNAL_H
#define KM_SCENARIO_INTERNAL_H

#include "mm_internal.h"
#include <kmodel/filemap.h>

/* filemap.c: shmem_write_begin() -- the page-cache page of @index with a
 * reference for the caller, *@fresh when it was just allocated (not
 * zeroed); NULL when out of memory -- and the dd baseline's write_end: the
 * bytes around [pos, pos + copied) of a fresh page zeroed through its host
 * address (a lowmem page), i_size, dirty, the reference dropped. */
struct km_page *km_shmem_write_begin(struct km_shmem_file *f, unsigned long index, bool *fresh);
void km_shmem_write_end_plain(struct km_shmem_file *f, uint64_t pos, unsigned long copied,
			      struct km_page *page, bool fresh);

/* seconds from CLOCK_MONOTONIC */
double km_scenario_now(void);
/* the calling thread's CPU time, seconds (CLOCK_THREAD_CPUTIME_ID): what a
 * run cost, which other load on the host stretches little */
double km_scenario_cpu_now(void);
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
