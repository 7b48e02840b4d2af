// SPDX-License-Identifier: GPL-2.0
/* The model's objects linked without the lab's (tests/CMakeLists.txt): a
 * call from the model up into the lab (a scenario, the cost model, the
 * registry) would be an undefined symbol here, so the build itself keeps
 * the layers pointing one way. Runs a machine's life once. */
#include <kmodel/kmodel.h>
#include <stdio.h>

int main(void)
{
	struct km_machine *m;
	int err = km_machine_new(NULL, &m);

	if (err) {
		fprintf(stderr, "km_machine_new: %s\n", km_last_error());
		return 1;
	}
	return km_machine_destroy(m) ? 1 : 0;
}
