// SPDX-License-Identifier: GPL-2.0
/* Runs the kernel-style variant of ported_copy.c through the uaccess
 * conformance suite of the installed libkmodel, in process context (it
 * pins with get_user_pages_fast(), which may sleep: not for atomic
 * context). Exit 0: it conforms. */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

unsigned long ported_copy_from_user(void *to, unsigned long from, unsigned long n);
unsigned long ported_copy_to_user(unsigned long to, const void *from, unsigned long n);

static const struct km_uaccess_ops ported = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "ported",
	.summary = "page at a time: gup, kmap_atomic, memcpy, put_page",
	.source = "tests/install/ported_copy.c",
	.claims_conformance = true,
	.raw_copy_from_user = ported_copy_from_user,
	.raw_copy_to_user = ported_copy_to_user,
};

int main(void)
{
	struct km_conformance_opts o = { .page_sizes = { 4096 }, .max_size = 16 };
	struct km_conformance_result r;
	int err = km_uaccess_conformance_in(&ported, &o, KM_CONF_CTX_PROCESS, &r, NULL, 0);

	if (strcmp(km_version(), KMODEL_VERSION_STRING) != 0) {
		fprintf(stderr, "library %s, headers %s\n", km_version(), KMODEL_VERSION_STRING);
		return 1;
	}
	if (err) {
		fprintf(stderr, "conformance: %s\n", km_last_error());
		return 1;
	}
	/* the cost model's object comes along (it needs libm: the static
	 * recipe's -lm); a NULL profile is refused */
	{
		struct km_events ev = { 0 };
		struct km_cost_workload w = { 0 };
		struct km_cost_result res;

		if (km_cost_predict(NULL, &ev, &w, &res) != -EINVAL) {
			fprintf(stderr, "km_cost_predict(NULL profile) is not -EINVAL\n");
			return 1;
		}
	}
	printf("ported: %lu cases, %lu failures, %lu reports\n", r.cases, r.failures, r.reports);
	err = r.cases == 0 || r.failures || r.reports;
	km_conformance_result_clear(&r);
	return err;
}
