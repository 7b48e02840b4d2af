// SPDX-License-Identifier: GPL-2.0
/*
 * `kmodel-bench reproduce --json`: every published figure of the seeds
 * stays within its goal -- +-10 % for the 7 headline figures, +-15 % for
 * the 21 points of the block-size table, the with/without drop per block
 * size within 5 points -- or, where the cost model does not meet the goal
 * today, within a band around today's error (listed below and in the
 * README as not met), so that a change which loses fidelity fails here.
 * The published values are the seeds' (the RFC, its thread, Ming Lei's
 * test of the asix patch); the calibrated ones are exactly the three the
 * profiles name.
 */
#include "km_test.h"
#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

/* In the order reproduce prints them: the published value, and for a
 * figure the model misses today the band of its error in percent. */
static const struct {
	double published;
	bool calibrated;
	double lo, hi;		/* 0, 0: the goal's tolerance */
} expect[28] = {
	{ 29.5, true, 0, 0 }, { 20.5, false, 0, 0 }, { 21.2, false, 0, 0 }, { 4, true, 0, 0 },
	{ 2.6, false, 25, 40 },		/* not met: QEMU's TLB flushes and atomics */
	{ 75, true, 0, 0 }, { 91.6, false, 0, 0 },
	/* without: 512 .. 1M */
	{ 30, true, 0, 0 }, { 46, false, 0, 0 }, { 89, false, -24, -17 }, { 95, false, 0, 0 }, { 90, false, 0, 0 }, { 85, false, 0, 0 },
	{ 65, false, -27, -20 },
	/* with */
	{ 22, false, 0, 0 }, { 36, false, 0, 0 }, { 72, false, 0, 0 }, { 79, false, 0, 0 }, { 78, false, 0, 0 }, { 75, false, 0, 0 }, { 61, false, -28, -21 },
	/* CONFIG_UACCESS_WITH_MEMCPY */
	{ 28.5, false, 0, 0 }, { 45, false, 0, 0 }, { 85, false, -20, -13 }, { 92, false, 0, 0 }, { 91, false, 0, 0 }, { 85, false, 0, 0 }, { 65, false, -27, -20 },
};
static const unsigned long bsizes[7] = { 512, 1024, 4096, 16384, 32768, 65536, 1048576 };

static JsonObject *run_reproduce(JsonParser *p)
{
	gchar *out = NULL, *err = NULL;
	gint status = 1;
	gchar *argv[] = { (gchar *)KMODEL_BENCH_PATH, (gchar *)"reproduce", (gchar *)"--json", NULL };
	GError *e = NULL;

	g_setenv("KMODEL_PROFILE_DIR", KM_PROFILES_DIR, TRUE);
	assert_true(g_spawn_sync(NULL, argv, NULL, 0, NULL, NULL, &out, &err, &status, &e));
	if (status)
		fail_msg("kmodel-bench reproduce: status %d: %s", status, err);
	assert_true(json_parser_load_from_data(p, out, -1, NULL));
	g_free(out);
	g_free(err);
	return json_node_get_object(json_parser_get_root(p));
}

static void test_figures_within_tolerance(void **state)
{
	JsonParser *p = json_parser_new();
	JsonObject *root = run_reproduce(p);
	JsonArray *figs = json_object_get_array_member(root, "figures");
	double with[7] = { 0 }, without[7] = { 0 }, pub_w[7], pub_wo[7];
	int calibrated = 0;

	assert_int_equal(json_array_get_length(figs), 28);
	for (guint i = 0; i < 28; i++) {
		JsonObject *f = json_array_get_object_element(figs, i);
		double pub = json_object_get_double_member(f, "published");
		double err = json_object_get_double_member(f, "error_pct");
		double tol = i < 7 ? 10 : 15, lo = expect[i].lo, hi = expect[i].hi;
		bool cal = json_object_get_boolean_member(f, "calibrated");

		assert_true(fabs(pub - expect[i].published) < 1e-9);
		assert_int_equal(cal, expect[i].calibrated);
		calibrated += cal;
		if (lo == 0 && hi == 0)
			lo = -tol, hi = tol;
		if (!(err >= lo && err <= hi))
			fail_msg("%s: predicted %.2f, published %.2f: error %+.1f %% outside [%+.0f, %+.0f]",
				 json_object_get_string_member(f, "what"),
				 json_object_get_double_member(f, "predicted"), pub, err, lo, hi);
		if (i >= 7) {
			assert_int_equal(json_object_get_int_member(f, "block_size"), bsizes[(i - 7) % 7]);
			if (i < 14) {
				without[i - 7] = json_object_get_double_member(f, "predicted");
				pub_wo[i - 7] = pub;
			} else if (i < 21) {
				with[i - 14] = json_object_get_double_member(f, "predicted");
				pub_w[i - 14] = pub;
			}
		} else {
			assert_false(json_object_has_member(f, "block_size"));
		}
	}
	/* three values fitted (bbw bs=512 without, a15 without, iperf before),
	 * and the table's bs=512 "without" is the first one's run */
	assert_int_equal(calibrated, 4);
	/* the drop per block size: within 5 points; 4K and 16K are not met
	 * today (the model's 4K copy is too slow, see the README) */
	for (int i = 0; i < 7; i++) {
		double pub = (1 - pub_w[i] / pub_wo[i]) * 100, pred = (1 - with[i] / without[i]) * 100;
		double lo = bsizes[i] == 4096 ? -11 : bsizes[i] == 16384 ? -7 : -5;
		double hi = 5;

		if (!(pred - pub >= lo && pred - pub <= hi))
			fail_msg("bs %lu: drop %.1f %% predicted, %.1f published", bsizes[i], pred, pub);
	}
	/* the iperf run: before is CPU-bound (the figure fitted there), every
	 * prediction has a bound */
	{
		JsonArray *ip = json_object_get_array_member(root, "iperf_predictions");

		assert_true(json_array_get_length(ip) >= 6);
		for (guint i = 0; i < json_array_get_length(ip); i++) {
			const char *b = json_object_get_string_member(json_array_get_object_element(ip, i),
								      "bound");

			assert_true(!strcmp(b, "cpu") || !strcmp(b, "link"));
		}
		assert_true(json_array_get_length(json_object_get_array_member(root, "dd_predictions")) >= 24);
	}
	g_object_unref(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures_within_tolerance),
	};

	return cmocka_run_group_tests_name("test_reproduce", tests, NULL, NULL);
}
