// SPDX-License-Identifier: GPL-2.0
/*
 * The host's retired user-mode instructions of a timed run: perf_event_open(2)
 * of PERF_COUNT_HW_INSTRUCTIONS on the calling thread, the kernel's share
 * excluded. Unlike time, the count barely moves with other load on the
 * host, so rows compare where their times' spread would not let them. A
 * host without a hardware counter (a VM without a virtual PMU: ENOENT) or
 * one that forbids it (perf_event_paranoid above 2, a seccomp filter:
 * EACCES, EPERM, ENOSYS) counts none: the columns stay empty.
 */
#include "scenario_internal.h"
#include <kmodel/scenario.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int km_insn_open(void)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

uint64_t km_insn_read(int fd)
{
	uint64_t n = 0;

	if (fd < 0 || read(fd, &n, sizeof(n)) != sizeof(n))
		return 0;
	return n;
}

void km_insn_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

int km_scenario_host_insn(void)
{
	int fd = km_insn_open();

	km_insn_close(fd);
	return fd < 0 ? fd : 0;
}
