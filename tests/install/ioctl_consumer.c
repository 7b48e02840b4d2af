// SPDX-License-Identifier: GPL-2.0
/*
 * Runs the kernel-style ioctl handler of ported_ioctl.c on a simulated
 * process: a reply across a page end is copied whole (0);
 * a reply running into a hole after the mapping, or a request in the hole,
 * is -EFAULT with the mapped part of the reply written (copy_to_user()
 * returned the bytes not copied); the handler's kmalloc() is freed and
 * the machine's teardown finds no leak. Exit 0: all as the kernel does.
 */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

/* ported_ioctl.c's */
#define PORTED_IOC_FILL 1
struct ported_req {
	uint32_t len;
	uint32_t fill;
};
long ported_ioctl(unsigned int cmd, unsigned long arg);

static int check(int ok, const char *what)
{
	if (!ok)
		fprintf(stderr, "ioctl_consumer: %s\n", what);
	return !ok;
}

int main(void)
{
	struct km_machine *m;
	struct km_mm *mm;
	struct km_task *t;
	unsigned long u, req_at;
	struct ported_req req = { .len = 32, .fill = 0x5a };
	unsigned char reply[32], want[32];
	int bad = 0;

	if (km_machine_new(NULL, &m)) {
		fprintf(stderr, "km_machine_new: %s\n", km_last_error());
		return 1;
	}
	km_mm_new(m, &mm);
	km_task_new(m, mm, 0, &t);
	km_mm_put(mm);
	km_mmap(mm, 0, 8192, KM_PROT_READ | KM_PROT_WRITE, &u);	/* a hole after it */
	km_task_switch(t);
	memset(want, 0x5a, sizeof(want));

	/* the reply crosses the first page's end */
	req_at = u + 4096 - sizeof(req) - 8;
	bad |= check(km_copy_to_user(t, &km_uaccess_direct, req_at, &req, sizeof(req)) == 0, "setup");
	bad |= check(ported_ioctl(PORTED_IOC_FILL, req_at) == 0, "across a page end: not 0");
	bad |= check(km_mm_peek(mm, req_at + sizeof(req), reply, sizeof(reply)) == 0 &&
		     memcmp(reply, want, sizeof(reply)) == 0, "across a page end: wrong reply");
	/* the reply runs into the hole: 8 bytes written, -EFAULT */
	req_at = u + 8192 - sizeof(req) - 8;
	bad |= check(km_copy_to_user(t, &km_uaccess_direct, req_at, &req, sizeof(req)) == 0, "setup");
	bad |= check(ported_ioctl(PORTED_IOC_FILL, req_at) == -EFAULT, "into a hole: not -EFAULT");
	bad |= check(km_mm_peek(mm, req_at + sizeof(req), reply, 8) == 0 &&
		     memcmp(reply, want, 8) == 0, "into a hole: the mapped part not written");
	/* the request itself straddles into the hole */
	bad |= check(ported_ioctl(PORTED_IOC_FILL, u + 8192 - 4) == -EFAULT,
		     "request in a hole: not -EFAULT");
	bad |= check(ported_ioctl(2, u) == -ENOTTY, "unknown command: not -ENOTTY");
	bad |= check(km_report_count(m, KM_R_NONE) == 0, "reports recorded");

	km_task_free(t);
	bad |= check(km_machine_destroy(m) == 0, "the teardown found leaks");
	if (!bad)
		printf("ioctl_consumer: across a page end 0, into a hole -EFAULT, no leaks\n");
	return bad;
}
