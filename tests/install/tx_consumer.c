// SPDX-License-Identifier: GPL-2.0
/* Sends iperf traffic through the out-of-tree driver of
 * examples/byo_tx_fixup (its tx_fixup compiled through the installed
 * compatibility layer, its device model beside it), registered in a
 * registry of this program's own by calling the example's plugin entry
 * point directly: a program linked with libkmodel.a (or libkmodel.so) runs
 * a driver of its own without a plugin. Exit 0: every frame verified. */
#include <kmodel/kmodel.h>
#include <stdio.h>

int kmodel_plugin_init(struct km_registry *reg);	/* byo_dev.c's KM_PLUGIN_INIT */

int main(void)
{
	const struct km_iperf_opts o = { .packets = 200, .repeat = 1 };
	const struct km_usbnet_variant *v;
	struct km_registry *reg;
	struct km_table *t = NULL;
	int err = km_registry_new(KM_REGISTRY_EMPTY, &reg);

	if (!err)
		err = kmodel_plugin_init(reg);
	v = err ? NULL : km_registry_find_usbnet(reg, "byo1");
	if (v)
		err = km_iperf_run(&o, &v, 1, &t);
	if (err || !v) {
		fprintf(stderr, "tx_consumer: %s\n", v ? km_last_error() : "no variant byo1");
		err = 1;
	} else {
		printf("tx_consumer: %zu rows, every frame verified\n", km_table_nrows(t));
	}
	km_table_free(t);
	km_registry_free(reg);
	return err ? 1 : 0;
}
