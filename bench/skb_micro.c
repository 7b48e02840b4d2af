// SPDX-License-Identifier: GPL-2.0
/*
 * skb_micro: host cost of single skb_sim operations, each against a
 * baseline measured in the same run (not installed; see README "Cost").
 *
 *   build/release/bench/skb_micro [ITERATIONS]
 *
 * pskb_expand_head(skb, 0, 0) of a private 64-byte skb takes v3.5's
 * in-place path (alloc_skb(64): kmalloc-256, size 64 + shinfo 192 fits
 * ksize): a memmove of head..tail onto itself. The baseline is that memmove
 * alone on the same bytes. Best of 9 runs of ITERATIONS (default 10^7) calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <kmodel/kmodel.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000000ul;
	double best_op = 1e30, best_base = 1e30;
	struct km_machine *m;
	struct km_task *t;
	struct km_skb *skb;
	struct km_events ev;
	/* through a volatile pointer: the compiler keeps every call */
	void *(*volatile move)(void *, const void *, size_t) = memmove;

	if (!n || km_machine_new(NULL, &m) || km_task_new(m, NULL, 0, &t))
		return 2;
	skb = km_alloc_skb(t, 64, KM_GFP_KERNEL);
	km_skb_put(skb, 64);
	memset(skb->data, 0x5a, 64);
	for (int run = 0; run < 9; run++) {
		double t0 = now(), t1;

		for (unsigned long i = 0; i < n; i++)
			km_pskb_expand_head(t, skb, 0, 0, KM_GFP_ATOMIC);
		t1 = now();
		if (t1 - t0 < best_op)
			best_op = t1 - t0;
		t0 = now();
		for (unsigned long i = 0; i < n; i++)
			move(skb->head, skb->head, (size_t)(skb->tail - skb->head));
		t1 = now();
		if (t1 - t0 < best_base)
			best_base = t1 - t0;
	}
	km_events_get(m, &ev);
	printf("pskb_expand_head(skb, 0, 0), 64-byte private skb, in place: %.1f ns/call\n",
	       best_op * 1e9 / (double)n);
	printf("baseline memmove of the same %td bytes: %.1f ns; ratio %.2f\n",
	       skb->tail - skb->head, best_base * 1e9 / (double)n, best_op / best_base);
	printf("in place: %s (skb_copies %llu, reports %lu)\n",
	       ev.skb_copies ? "no" : "yes", (unsigned long long)ev.skb_copies,
	       km_report_count(m, KM_R_NONE));
	km_kfree_skb(skb);
	km_task_free(t);
	return km_machine_destroy(m) ? 1 : 0;
}
