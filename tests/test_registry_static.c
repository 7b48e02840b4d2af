// SPDX-License-Identifier: GPL-2.0
/*
 * A program linked with libkmodel.a loads a plugin linked with libkmodel.so:
 * two copies of the library (two `current`s), so the plugin's adds reach a
 * registry that its copy did not make, and km_registry_load() refuses it
 * (-ELIBBAD; also if the loader cannot place the second copy's TLS).
 */
#include "km_test.h"
#include <errno.h>
#include <string.h>

static void test_second_copy_refused(void **state)
{
	struct km_registry *r;
	int err;

	assert_int_equal(km_registry_new(0, &r), 0);
	err = km_registry_load(r, KM_PLUGIN_OK);
	assert_int_equal(err, -ELIBBAD);
	/* and says why: the refusal the plugin's calls met was written into
	 * the other copy's error buffer ("kmodel_plugin_init
	 * failed (-80): Accessing a corrupted shared library") */
	print_message("%s\n", km_last_error());
	assert_non_null(strstr(km_last_error(), "another copy of libkmodel"));
	assert_null(km_registry_find_uaccess(r, "plugin_direct"));
	km_registry_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_second_copy_refused),
	};

	return cmocka_run_group_tests_name("test_registry_static", tests, NULL, NULL);
}
