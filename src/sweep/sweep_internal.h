/* SPDX-License-Identifier: GPL-2.0 */
/* Private to src/sweep: what the tx sweep (sweep.c) and the rx sweep
 * (sweep_rx.c) both do around their states. */
#ifndef KMODEL_SWEEP_INTERNAL_H
#define KMODEL_SWEEP_INTERNAL_H

#include <kmodel/kmodel.h>
#include <stdio.h>
#include <time.h>

_Static_assert(KM_R__COUNT <= 64, "a report code mask of 64 bits");

/* where a sweep takes the endpoint @speed/@maxpacket: its index in the
 * sweep's @eps (@n of them; one not there: @n, after them) */
size_t km_sweep_ep_order(const struct km_usb_ep_cfg *eps, size_t n, enum km_usb_speed speed,
			 unsigned int maxpacket);
/* @clock's time, seconds */
double km_sweep_now(clockid_t clock);
/* @n bytes of the sweeps' frame pattern, no short period a shift could
 * hide (g_free() it) */
uint8_t *km_sweep_pattern(size_t n);
/* a machine and a task on it for a sweep's states: reports counted, none
 * kept (km_sweep_replay()s keep theirs); 0 or an errno, with *@m and *@t
 * as far as they came (km_sweep_machine_down() them) */
int km_sweep_machine_up(struct km_machine **m, struct km_task **t);
void km_sweep_machine_down(struct km_machine *m, struct km_task *t);
/* the report codes whose counts went up since @counts (updated), but for
 * those in @skip: a mask by code */
uint64_t km_sweep_new_reports(struct km_machine *m, unsigned long counts[KM_R__COUNT],
			      uint64_t skip);
/* did the skbs or buffers alive change since *@skbs, *@bufs (updated)? */
bool km_sweep_leaked(struct km_machine *m, size_t *skbs, size_t *bufs);
/* the end of a replay: @m's reports, then the findings */
void km_sweep_replay_end(struct km_machine *m, FILE *out, unsigned int found);

#endif
