// SPDX-License-Identifier: GPL-2.0
/*
 * `kmodel-bench reproduce --json`: every published figure of the seeds
 * within its goal -- +-10 % for the 7 headline figures, +-15 % for the 21
 * points of the block-size table, the with/without drop per block size
 * within 5 points -- except the KNOWN MISSES listed below, each asserted
 * as a miss (and within a band of today's error) with its reason, the
 * same list as the README's: a change that loses fidelity fails here, and
 * so does one that meets a known miss (move it to the met figures then).
 * The published values are the seeds' (the RFC, its thread, Ming Lei's
 * test of the asix patch); the calibrated ones are exactly the three the
 * profiles name.
 */
#include "km_test.h"
#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

/* In the order reproduce prints them: the published value and whether a
 * profile value was fitted to it (or to its run). */
static const struct {
	double published;
	bool calibrated;
} expect[28] = {
	{ 29.5, true }, { 20.5, false }, { 21.2, false }, { 4, true }, { 2.6, false },
	{ 75, true }, { 91.6, false },
	/* without: 512 .. 1M (the 512 point is the calibrated run's) */
	{ 30, true }, { 46, false }, { 89, false }, { 95, false }, { 90, false }, { 85, false },
	{ 65, false },
	/* with */
	{ 22, false }, { 36, false }, { 72, false }, { 79, false }, { 78, false }, { 75, false },
	{ 61, false },
	/* CONFIG_UACCESS_WITH_MEMCPY */
	{ 28.5, false }, { 45, false }, { 85, false }, { 92, false }, { 91, false }, { 85, false },
	{ 65, false },
};
static const unsigned long bsizes[7] = { 512, 1024, 4096, 16384, 32768, 65536, 1048576 };

/*
 * KNOWN MISS (README, "What the model misses"): the with/without drop at
 * bs=1M, +6.8 points today (12.9 % predicted, 6.2 % published). The model
 * prices the RFC per 4 KiB page-cache chunk -- two user pages pinned
 * (dd's buffer starts 8 bytes into a page), kmap'ed and put, a
 * kmalloc/kfree and a gup call -- at ~3300 cycles, as at 4K to 64K, where
 * the thread's figures agree; at 1M they imply ~1500 cycles per chunk.
 * Nothing the model counts gets cheaper with larger blocks.
 */
static const struct {
	unsigned long bs;
	double lo, hi;		/* the band of predicted - published drop, points */
} drop_known_miss[] = { { 1048576, 5, 9 } };

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
		double tol = i < 7 ? 10 : 15;
		bool cal = json_object_get_boolean_member(f, "calibrated");

		assert_true(fabs(pub - expect[i].published) < 1e-9);
		assert_int_equal(cal, expect[i].calibrated);
		calibrated += cal;
		if (!(fabs(err) <= tol))
			fail_msg("%s: predicted %.2f, published %.2f: error %+.1f %% beyond %.0f %%",
				 json_object_get_string_member(f, "what"),
				 json_object_get_double_member(f, "predicted"), pub, err, tol);
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
	/* the drop per block size: within 5 points, but for the known misses */
	for (int i = 0; i < 7; i++) {
		double pub = (1 - pub_w[i] / pub_wo[i]) * 100, pred = (1 - with[i] / without[i]) * 100;
		double d = pred - pub;
		bool known = false;

		for (size_t k = 0; k < G_N_ELEMENTS(drop_known_miss); k++) {
			if (drop_known_miss[k].bs != bsizes[i])
				continue;
			known = true;
			if (fabs(d) <= 5)
				fail_msg("bs %lu: the KNOWN MISS is met (%+.1f points): move it to the "
					 "met figures here and in the README", bsizes[i], d);
			if (!(d >= drop_known_miss[k].lo && d <= drop_known_miss[k].hi))
				fail_msg("bs %lu: the KNOWN MISS moved: %+.1f points, outside "
					 "[%+.0f, %+.0f]", bsizes[i], d, drop_known_miss[k].lo,
					 drop_known_miss[k].hi);
		}
		if (!known && !(fabs(d) <= 5))
			fail_msg("bs %lu: drop %.1f %% predicted, %.1f %% published: %+.1f points",
				 bsizes[i], pred, pub, d);
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
