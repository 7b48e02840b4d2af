// SPDX-License-Identifier: GPL-2.0
/*
 * mm_cost: what the model's address spaces cost the host (not installed;
 * docs/library.md, "What the model costs the host"). Each row is measured here, in this run:
 *  - mmap: 32,000 km_mmap() of a page each on a fresh address space (the
 *    gap tree: the lowest gap in O(log n)), and 32,000 more after every
 *    second one was unmapped (the gaps then are all one page);
 *  - writeback: km_file_writeback() of a 64-page shared file with no other
 *    address space, and with 200 unrelated ones of 100 mappings each: the
 *    ratio (the file's reverse map: only its own vmas are visited);
 *  - fork and teardown of an address space with one page touched in a
 *    1 GiB mapping, as a ratio to one with the page in a 4 MiB mapping
 *    (the walks follow the page tables in use, not the mapped size);
 *  - a 4 GiB machine whose task writes 16 MiB: the host memory it costs
 *    (resident set growth, /proc/self/statm).
 * Times are the best of 5 runs, monotonic clock. Usage: mm_cost
 */
#include <kmodel/kmodel.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define P 4096UL

static double best_ms(double (*fn)(void *), void *arg)
{
	double best = 1e30;

	for (int i = 0; i < 5; i++) {
		double t = fn(arg);

		best = t < best ? t : best;
	}
	return best;
}

static double now_ms(void)
{
	return (double)g_get_monotonic_time() / 1000.0;
}

static void up(struct km_machine **m, struct km_mm **mm, struct km_task **t,
	       const struct km_machine_config *cfg)
{
	if (km_machine_new(cfg, m) || km_mm_new(*m, mm) || km_task_new(*m, *mm, 0, t)) {
		fprintf(stderr, "mm_cost: %s\n", km_last_error());
		exit(1);
	}
	km_mm_put(*mm);
}

static void down(struct km_machine *m, struct km_task *t)
{
	km_task_free(t);
	if (km_machine_destroy(m)) {
		fprintf(stderr, "mm_cost: teardown problems\n");
		exit(1);
	}
}

/* 32,000 single-page mmaps; @arg non-NULL: into a space whose every
 * second page was unmapped after the first 64,000 */
static double mmaps(void *arg)
{
	struct km_machine *m;
	struct km_mm *mm;
	struct km_task *t;
	unsigned long a, first = 0;
	double t0, t1;

	up(&m, &mm, &t, NULL);
	if (arg) {
		for (int i = 0; i < 64000; i++) {
			km_mmap(mm, 0, P, KM_PROT_READ, &a);
			first = i ? first : a;
		}
		for (int i = 0; i < 64000; i += 2)
			km_munmap(mm, first + (unsigned long)i * P, P);
	}
	t0 = now_ms();
	for (int i = 0; i < 32000; i++)
		if (km_mmap(mm, 0, P, KM_PROT_READ | KM_PROT_WRITE, &a)) {
			fprintf(stderr, "mm_cost: mmap %d: %s\n", i, km_last_error());
			exit(1);
		}
	t1 = now_ms();
	down(m, t);
	return t1 - t0;
}

static double writeback(void *arg)
{
	int others = arg ? 200 : 0;
	struct km_machine *m;
	struct km_mm *mm, *o[200];
	struct km_task *t;
	struct km_file *f;
	unsigned long a, b;
	double t0, t1;

	up(&m, &mm, &t, &(struct km_machine_config){ .ram_size = 64ULL << 20 });
	km_file_new(m, 64 * P, &f);
	km_mmap_file(mm, 0, 64 * P, KM_PROT_READ | KM_PROT_WRITE, true, f, 0, &a);
	for (int i = 0; i < others; i++) {
		km_mm_new(m, &o[i]);
		for (int j = 0; j < 100; j++)
			km_mmap(o[i], 0, P, KM_PROT_READ, &b);
	}
	t0 = now_ms();
	for (int round = 0; round < 20; round++) {
		for (unsigned long i = 0; i < 64; i++)
			km_user_access(t, a + i * P, "d", 1, true);
		km_file_writeback(f);
	}
	t1 = now_ms();
	for (int i = 0; i < others; i++)
		km_mm_put(o[i]);
	km_file_put(f);
	down(m, t);
	return t1 - t0;
}

/* fork and teardown of a space with one touched page in a mapping of
 * *(unsigned long *)arg bytes */
static double fork_teardown(void *arg)
{
	unsigned long len = *(unsigned long *)arg, a;
	struct km_machine *m;
	struct km_mm *mm, *child;
	struct km_task *t;
	double t0, t1;

	up(&m, &mm, &t, NULL);
	km_mmap(mm, 0, len, KM_PROT_READ | KM_PROT_WRITE, &a);
	km_user_access(t, a + len / 2, "x", 1, true);
	t0 = now_ms();
	for (int i = 0; i < 50; i++) {
		km_mm_fork(mm, &child);
		km_mm_put(child);
	}
	t1 = now_ms();
	down(m, t);
	return t1 - t0;
}

static long resident_kib(void)
{
	long pages = 0, rss = 0;
	FILE *fp = fopen("/proc/self/statm", "r");

	if (!fp || fscanf(fp, "%ld %ld", &pages, &rss) != 2)
		rss = -1;
	if (fp)
		fclose(fp);
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

int main(void)
{
	unsigned long small = 4UL << 20, big = 1UL << 30;
	double mm0, mm1, wb0, wb1, ft0, ft1;
	struct km_machine *m;
	struct km_mm *mm;
	struct km_task *t;
	unsigned char *buf = g_malloc0(16 << 20);
	unsigned long a;
	long r0, r1;

	mm0 = best_ms(mmaps, NULL);
	mm1 = best_ms(mmaps, (void *)1);
	wb0 = best_ms(writeback, NULL);
	wb1 = best_ms(writeback, (void *)1);
	ft0 = best_ms(fork_teardown, &small);
	ft1 = best_ms(fork_teardown, &big);
	r0 = resident_kib();
	up(&m, &mm, &t, &(struct km_machine_config){ .ram_size = 4ULL << 30 });
	km_mmap(mm, 0, 16 << 20, KM_PROT_READ | KM_PROT_WRITE, &a);
	km_user_access(t, a, buf, 16 << 20, true);
	r1 = resident_kib();
	down(m, t);
	g_free(buf);
	printf("32000 mmaps, fresh address space:            %8.2f ms\n", mm0);
	printf("32000 mmaps, 32000 one-page gaps below:      %8.2f ms\n", mm1);
	printf("writeback x20, no other address space:       %8.3f ms\n", wb0);
	printf("writeback x20, 200 others of 100 mappings:   %8.3f ms (ratio %.2f)\n", wb1,
	       wb1 / wb0);
	printf("50 forks + teardowns, 1 page in 4 MiB:       %8.3f ms\n", ft0);
	printf("50 forks + teardowns, 1 page in 1 GiB:       %8.3f ms (ratio %.2f)\n", ft1,
	       ft1 / ft0);
	printf("4 GiB machine, 16 MiB written: resident +%ld KiB (%.1f MiB)\n", r1 - r0,
	       (double)(r1 - r0) / 1024);
	return 0;
}
