// SPDX-License-Identifier: GPL-2.0
/*
 * skb_micro: host cost of single skb_sim operations, each against a
 * baseline measured in the same run (not installed; see docs/bench.md, "iperf").
 *
 *   build/release/bench/skb_micro [ITERATIONS]
 *
 * 1. pskb_expand_head(skb, 0, 0) of a private 64-byte skb (alloc_skb(64):
 *    end 64). v3.5 always allocates (net/core/skbuff.c): kmalloc(64 + 192)
 *    = kmalloc-256, a copy of head..tail (64 bytes), kfree of the old head.
 *    The baseline is that modelled kernel work alone on the same machine:
 *    km_kmalloc(256), memcpy of 64 bytes, km_kfree; the ratio is what the
 *    skb layer (its records, lists and checks) adds.
 * 2. The same call on a shared skb (users 2): pskb_expand_head() BUG()s,
 *    a KM_R_SKB_EXPAND_SHARED report. With the report log off
 *    (km_reports_set_log_max(m, 0)) the report is counted, never
 *    formatted; logged (the log cleared after each call), its message and
 *    the skb state are formatted: formatting happens only when reporting.
 * Times are the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), best of 9
 * runs of ITERATIONS (default 10^6) calls, so other load on the host
 * stretches them little.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <kmodel/kmodel.h>

#define RUNS 9

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum op { EXPAND, BASELINE, REPORT_COUNTED, REPORT_LOGGED, NOPS };

static const char *const names[NOPS] = {
	"pskb_expand_head(skb, 0, 0), private 64-byte skb (v3.5: kmalloc-256 + copy)",
	"baseline: km_kmalloc(256) + memcpy(64) + km_kfree",
	"pskb_expand_head() of a shared skb, BUG counted only (log off)",
	"pskb_expand_head() of a shared skb, BUG logged (formatted)",
};

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000ul;
	double best[NOPS];
	struct km_machine *m;
	struct km_task *t;
	struct km_skb *skb, *shared;
	struct km_events ev;
	unsigned char src[64];
	/* through a volatile pointer: the compiler keeps every copy */
	void *(*volatile copy)(void *, const void *, size_t) = memcpy;

	if (!n || km_machine_new(NULL, &m) || km_task_new(m, NULL, 0, &t))
		return 2;
	km_task_switch(t);
	skb = km_alloc_skb(t, 64, KM_GFP_KERNEL);
	shared = km_alloc_skb(t, 64, KM_GFP_KERNEL);
	if (!skb || !shared)
		return 2;
	km_skb_put(skb, 64);
	memset(skb->data, 0x5a, 64);
	memset(src, 0x5a, sizeof(src));
	km_skb_get(shared);
	for (int i = 0; i < NOPS; i++)
		best[i] = 1e30;
	km_events_reset(m);
	for (int run = 0; run < RUNS; run++) {
		for (int op = 0; op < NOPS; op++) {
			double t0;

			km_reports_set_log_max(m, op == REPORT_LOGGED ? 1024 : 0);
			t0 = cpu_now();
			for (unsigned long i = 0; i < n; i++) {
				switch (op) {
				case EXPAND:
					km_pskb_expand_head(t, skb, 0, 0, KM_GFP_ATOMIC);
					break;
				case BASELINE: {
					void *p = km_kmalloc(t, 256, KM_GFP_ATOMIC);

					copy(p, src, 64);
					km_kfree(t, p);
					break;
				}
				default:
					km_pskb_expand_head(t, shared, 0, 0, KM_GFP_ATOMIC);
					if (op == REPORT_LOGGED)
						km_reports_clear(m);
					break;
				}
			}
			t0 = cpu_now() - t0;
			if (t0 < best[op])
				best[op] = t0;
		}
		km_reports_clear(m);
	}
	km_events_get(m, &ev);
	for (int op = 0; op < NOPS; op++)
		printf("%-78s %7.1f ns/call\n", names[op], best[op] * 1e9 / (double)n);
	printf("expand / baseline: %.2f; logged / counted report: %.1f\n",
	       best[EXPAND] / best[BASELINE], best[REPORT_LOGGED] / best[REPORT_COUNTED]);
	printf("expand: %.3f copies and %.0f bytes copied per call; end - head %td\n",
	       (double)ev.skb_copies / (double)(RUNS * n),
	       (double)ev.skb_copy_bytes / (double)(RUNS * n), skb->end - skb->head);
	km_reports_set_log_max(m, 0);
	km_kfree_skb(shared);
	km_kfree_skb(shared);
	km_kfree_skb(skb);
	km_task_switch(NULL);
	km_task_free(t);
	return km_machine_destroy(m) ? 1 : 0;
}
