// SPDX-License-Identifier: GPL-2.0
/*
 * The variant registry (kmodel/registry.h): built-ins by default, adds and
 * their refusals, independence of two registries, and plugins loaded with
 * km_registry_load() (tests/plugins/plugin.c, built three ways; a program
 * with a second copy of the library: test_registry_static.c).
 */
#include "km_test.h"
#include <errno.h>
#include <string.h>

static size_t count_uaccess(const struct km_registry *r)
{
	size_t n = 0;

	for (const struct km_uaccess_ops *const *v = km_registry_uaccess(r); *v; v++)
		n++;
	return n;
}

static size_t count_usbnet(const struct km_registry *r)
{
	size_t n = 0;

	for (const struct km_usbnet_variant *const *v = km_registry_usbnet(r); *v; v++)
		n++;
	return n;
}

static void test_default_holds_the_builtins_in_order(void **state)
{
	struct km_registry *r;
	size_t i = 0;

	assert_int_equal(km_registry_new(KM_REGISTRY_DEFAULT, &r), 0);
	for (const struct km_uaccess_ops *const *v = km_uaccess_variants(); *v; v++, i++) {
		assert_ptr_equal(km_registry_uaccess(r)[i], *v);
		assert_ptr_equal(km_registry_find_uaccess(r, (*v)->name), *v);
		assert_string_equal(km_registry_origin(r, *v), "builtin");
		assert_true(km_registry_builtin(r, *v));
	}
	assert_null(km_registry_uaccess(r)[i]);
	i = 0;
	for (const struct km_usbnet_variant *const *v = km_usbnet_variants(); *v; v++, i++) {
		assert_ptr_equal(km_registry_usbnet(r)[i], *v);
		assert_ptr_equal(km_registry_find_usbnet(r, (*v)->name), *v);
		assert_true(km_registry_builtin(r, *v));
	}
	assert_null(km_registry_usbnet(r)[i]);
	assert_true(count_uaccess(r) >= 3);
	assert_true(count_usbnet(r) >= 2);
	km_registry_free(r);
}

static const struct km_uaccess_ops mine = {
	.size = KM_UACCESS_OPS_SIZE,
	.name = "mine",
	.summary = "direct under another name",
};

static void test_add_and_its_refusals(void **state)
{
	struct km_registry *r, *empty;
	struct km_uaccess_ops ops = mine, bad;
	struct km_usbnet_variant uv;

	ops.raw_copy_from_user = km_uaccess_direct.raw_copy_from_user;
	ops.raw_copy_to_user = km_uaccess_direct.raw_copy_to_user;
	assert_int_equal(km_registry_new(0, &r), 0);
	assert_int_equal(km_registry_new(KM_REGISTRY_EMPTY, &empty), 0);
	assert_int_equal(count_uaccess(empty), 0);
	assert_int_equal(count_usbnet(empty), 0);

	assert_int_equal(km_registry_add_uaccess(r, &ops), 0);
	assert_ptr_equal(km_registry_uaccess(r)[count_uaccess(r) - 1], &ops);
	assert_ptr_equal(km_registry_find_uaccess(r, "mine"), &ops);
	assert_string_equal(km_registry_origin(r, &ops), "program");
	assert_false(km_registry_builtin(r, &ops));
	/* the other registry is untouched */
	assert_null(km_registry_find_uaccess(empty, "mine"));
	assert_null(km_registry_origin(empty, &ops));

	assert_int_equal(km_registry_add_uaccess(r, &ops), -EEXIST);
	assert_non_null(strstr(km_last_error(), "mine"));
	assert_int_equal(km_registry_add_uaccess(r, &km_uaccess_direct), -EEXIST);
	bad = ops;
	bad.size = KM_UACCESS_OPS_MIN_SIZE - 1;
	assert_int_equal(km_registry_add_uaccess(empty, &bad), -EINVAL);
	bad = ops;
	bad.name = NULL;
	assert_int_equal(km_registry_add_uaccess(empty, &bad), -EINVAL);
	/* a variant of one raw copy runs direct's for the other (and says
	 * so): the registry holds a completed copy; neither raw copy is
	 * refused */
	bad = ops;
	bad.name = "from_only";
	bad.raw_copy_to_user = NULL;
	assert_int_equal(km_registry_add_uaccess(r, &bad), 0);
	{
		const struct km_uaccess_ops *held = km_registry_find_uaccess(r, "from_only");

		assert_non_null(held);
		assert_ptr_not_equal(held, &bad);
		assert_ptr_equal(held->raw_copy_from_user, bad.raw_copy_from_user);
		assert_ptr_equal(held->raw_copy_to_user, km_uaccess_direct.raw_copy_to_user);
		assert_ptr_equal(held->clear_user, km_uaccess_direct.clear_user);
		assert_string_equal(km_registry_origin(r, held), "program");
		assert_string_equal(km_registry_origin(r, &bad), "program");
		assert_string_equal(km_registry_fallbacks(r, held),
				    "raw_copy_to_user, clear_user, get_user, put_user, "
				    "strncpy_from_user, strnlen_user");
		assert_null(km_registry_fallbacks(r, &km_uaccess_direct));
	}
	bad.raw_copy_from_user = NULL;
	assert_int_equal(km_registry_add_uaccess(empty, &bad), -EINVAL);
	assert_non_null(strstr(km_last_error(), "one is needed"));
	/* names --variant cannot give (user report item 16: "bad name" was
	 * accepted); the built-ins' characters are fine */
	bad = ops;
	for (const char *const *n = (const char *const[]){ "bad name", "a,b", "", "tab\t",
							   "quote\"", NULL }; *n; n++) {
		bad.name = *n;
		assert_int_equal(km_registry_add_uaccess(empty, &bad), -EINVAL);
	}
	assert_non_null(strstr(km_last_error(), "want letters, digits"));
	bad.name = "v5.11-local_2";
	assert_int_equal(km_registry_add_uaccess(empty, &bad), 0);
	assert_int_equal(km_registry_add_uaccess(NULL, &ops), -EINVAL);
	assert_int_equal(km_registry_add_uaccess(empty, NULL), -EINVAL);
	assert_int_equal(count_uaccess(empty), 1);	/* v5.11-local_2 */

	uv = *km_usbnet_find("after");
	assert_int_equal(km_registry_add_usbnet(r, &uv), -EEXIST);
	uv.name = "after2";
	assert_int_equal(km_registry_add_usbnet(r, &uv), 0);
	assert_ptr_equal(km_registry_find_usbnet(r, "after2"), &uv);
	uv.name = "after 2";
	assert_int_equal(km_registry_add_usbnet(r, &uv), -EINVAL);
	uv.endpoints = NULL;
	uv.name = "broken";
	assert_int_equal(km_registry_add_usbnet(empty, &uv), -EINVAL);
	assert_null(km_registry_find_usbnet(empty, "broken"));
	km_registry_free(empty);	/* before the pointer is reused below */

	assert_int_equal(km_registry_new(~0u, &empty), -EINVAL);
	assert_null(empty);
	assert_int_equal(km_registry_new(0, NULL), -EINVAL);
	km_registry_free(r);
	km_registry_free(NULL);
}

static void test_load_plugin(void **state)
{
	struct km_registry *r;
	const struct km_uaccess_ops *ops;
	size_t before;

	assert_int_equal(km_registry_new(0, &r), 0);
	before = count_uaccess(r);
	assert_int_equal(km_registry_load(r, KM_PLUGIN_OK), 0);
	assert_int_equal(count_uaccess(r), before + 1);
	ops = km_registry_find_uaccess(r, "plugin_direct");
	assert_non_null(ops);
	assert_string_equal(km_registry_origin(r, ops), KM_PLUGIN_OK);
	assert_false(km_registry_builtin(r, ops));
	assert_non_null(km_registry_find_usbnet(r, "plugin_after"));
	/* one library instance: the plugin's variant runs on our `current`
	 * and passes the contract */
	{
		struct km_conformance_result res;
		struct km_conformance_opts o = { .page_sizes = { 4096 }, .max_size = 16 };

		assert_int_equal(km_uaccess_conformance(ops, &o, &res), 0);
		assert_true(res.cases > 0);
		assert_int_equal(res.failures, 0);
		assert_int_equal(res.reports, 0);
		km_conformance_result_clear(&res);
	}
	/* loading it twice is refused as that, not as a name already taken
	 * under another path to the same file too */
	assert_int_equal(km_registry_load(r, KM_PLUGIN_OK), -EEXIST);
	assert_non_null(strstr(km_last_error(), "already loaded"));
	{
		gchar *dir = g_path_get_dirname(KM_PLUGIN_OK), *base = g_path_get_basename(KM_PLUGIN_OK);
		gchar *other = g_strconcat(dir, "/./", base, NULL);

		assert_int_equal(km_registry_load(r, other), -EEXIST);
		assert_non_null(strstr(km_last_error(), "already loaded"));
		g_free(dir);
		g_free(base);
		g_free(other);
	}
	assert_int_equal(count_uaccess(r), before + 1);
	km_registry_free(r);
}

static void test_load_refusals(void **state)
{
	struct km_registry *r;
	size_t before, before_usbnet;

	assert_int_equal(km_registry_new(0, &r), 0);
	before = count_uaccess(r);
	before_usbnet = count_usbnet(r);
	/* the entry point fails after one add: the add is undone */
	assert_int_equal(km_registry_load(r, KM_PLUGIN_FAIL), -EEXIST);
	assert_non_null(strstr(km_last_error(), "kmodel_plugin_init failed"));
	assert_null(km_registry_find_uaccess(r, "plugin_direct"));
	assert_int_equal(count_uaccess(r), before);
	/* an entry point that fails without a message: the errno's text, not
	 * an empty reason, and not the message of an earlier
	 * error (the one above) */
	assert_int_equal(km_registry_load(r, KM_PLUGIN_FAIL_QUIET), -ENOMEM);
	assert_non_null(strstr(km_last_error(), "kmodel_plugin_init failed (-12): "));
	assert_non_null(strstr(km_last_error(), g_strerror(ENOMEM)));
	assert_int_equal(count_uaccess(r), before);
	assert_int_equal(km_registry_load(r, KM_PLUGIN_ABI_BAD), -ENOEXEC);
	assert_non_null(strstr(km_last_error(), "999"));
	assert_int_equal(km_registry_load(r, "/nonexistent/plugin.so"), -ENOENT);
	/* said so, not as GModule's retry with ".so" appended: "cannot
	 * load: .so", "/.so" */
	assert_int_equal(km_registry_load(r, ""), -EINVAL);
	assert_null(strstr(km_last_error(), ".so"));
	assert_int_equal(km_registry_load(r, "/"), -EISDIR);
	assert_null(strstr(km_last_error(), ".so"));
	assert_int_equal(km_registry_load(r, KM_TEST_SOURCE), -ELIBBAD);	/* not an ELF */
	assert_int_equal(km_registry_load(r, KM_NOT_A_PLUGIN), -ENOEXEC);
	assert_int_equal(km_registry_load(r, NULL), -EINVAL);
	assert_int_equal(count_uaccess(r), before);
	assert_int_equal(count_usbnet(r), before_usbnet);
	assert_null(km_registry_find_usbnet(r, "plugin_after"));
	/* still usable */
	assert_int_equal(km_registry_load(r, KM_PLUGIN_OK), 0);
	km_registry_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_holds_the_builtins_in_order),
		cmocka_unit_test(test_add_and_its_refusals),
		cmocka_unit_test(test_load_plugin),
		cmocka_unit_test(test_load_refusals),
	};

	return cmocka_run_group_tests_name("test_registry", tests, NULL, NULL);
}
