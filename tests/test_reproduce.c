// SPDX-License-Identifier: GPL-2.0
/*
 * `kmodel-bench reproduce`: every published figure of the seeds within its
 * goal -- +-10 % for the 7 headline figures, +-15 % for the 21 points of
 * the block-size table, the with/without drop per block size within 5
 * points -- except the KNOWN MISSES listed below, each asserted within one
 * point of today's value with its reason, the same list as
 * docs/predicting.md's: a change that loses fidelity fails here, and so
 * does one that moves a known miss either way (then update it here and in
 * docs/predicting.md, or move it to the met figures). The published values are the seeds' (the RFC,
 * its thread, Ming Lei's test of the asix patch); the calibrated ones are
 * exactly the three the profiles name. Also: --json in the issue's schema
 * exactly, --profile taking the calibrated flags from the profile used,
 * and --plot's data, script and PNGs.
 */
#include "km_test.h"
#include <glib.h>
#include <json-glib/json-glib.h>
#include <locale.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

/* In the order reproduce prints them: the published value and whether a
 * profile value was fitted to it (or to its run). */
static const struct {
	double published;
	bool calibrated;
} expect[28] = {
	/* the BeagleBone's headline (no value fitted: its read(2)/write(2)
	 * path is counted), the QEMU run: without (calibrated), then the
	 * ratio with/without, 2.6 / 4 (only the ratio carries meaning) */
	{ 29.5, false }, { 20.5, false }, { 21.2, false }, { 4, true }, { 0.65, false },
	{ 75, true }, { 91.6, false },
	/* without: 512 .. 1M */
	{ 30, false }, { 46, false }, { 89, false }, { 95, false }, { 90, false }, { 85, false },
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
 * KNOWN MISSES (docs/predicting.md, the known misses): the with/without drop
 * per block size, predicted - published in points, today's value +-1.
 * The RFC's work per 4 KiB chunk (two user pages pinned through the gup
 * slow path -- dd's buffer starts 8 bytes into a page, as the RFC's author
 * saw: page-sized copies "not page aligned", never more than 2 pages --
 * kmap'ed and put, a kmalloc/kfree, a gup call, and the RFC's own
 * buffer_op() and do_op_one_page()) is priced by instruction counts
 * estimated from the v5.7 source and the RFC at the null syscall's 4.95
 * cycles per instruction, an upper bound for straight-line code: it costs
 * more than the thread's figures show at every block size, by more than 5
 * points of drop at all but 4K. And it
 * is the same at every block size, while the published drops imply a
 * per-chunk cost that falls steadily from 4K to 1M: nothing the model
 * counts gets cheaper with larger blocks. (Counting the RFC's own code,
 * 69 instructions a call and 35 a page, added 2.5 to 3.7 points to every
 * drop and made 16K a miss.)
 */
static const struct {
	unsigned long bs;
	double lo, hi;		/* the band of predicted - published drop, points */
} drop_known_miss[] = {
	{ 512, 7.9, 9.9 }, { 1024, 7.8, 9.8 }, { 16384, 6.1, 8.1 }, { 32768, 8.9, 10.9 },
	{ 65536, 8.7, 10.7 }, { 1048576, 10.5, 12.5 },
};

/* the block sizes whose published drop lies outside the drop's interval
 * (the interval reaches from the 2.5th to the 97.5th percentile of 256
 * draws and sits above the published drop there) */
static const unsigned long drop_known_outside[] = { 512, 1024, 32768, 65536, 1048576 };

/* the block sizes whose predicted drop lies outside what the published
 * readings allow: each reading +-2 MB/s, the variation the table's author
 * reports on repeated runs (afzal mohammed, 12 Jun 2020: "There are
 * variations in the range +/-2 in some readings when repeated"); at 512
 * and 4K the model's drop is within it */
static const unsigned long drop_known_beyond_readings[] = { 1024, 16384, 32768, 65536, 1048576 };

static bool bs_listed(const unsigned long *list, size_t n, unsigned long bs)
{
	for (size_t k = 0; k < n; k++)
		if (list[k] == bs)
			return true;
	return false;
}

static bool drop_outside_known(unsigned long bs)
{
	return bs_listed(drop_known_outside, G_N_ELEMENTS(drop_known_outside), bs);
}

/* kmodel-bench @argv in the environment @envp (NULL: this process's) */
static gchar *run_bench_env(gchar **argv, gchar **envp, int *status)
{
	gchar *out = NULL, *err = NULL;
	GError *e = NULL;

	g_setenv("KMODEL_PROFILE_DIR", KM_PROFILES_DIR, TRUE);
	assert_true(g_spawn_sync(NULL, argv, envp, 0, NULL, NULL, &out, &err, status, &e));
	if (*status)
		fail_msg("kmodel-bench reproduce: status %d: %s", *status, err);
	g_free(err);
	return out;
}

static gchar *run_bench(gchar **argv, int *status)
{
	return run_bench_env(argv, NULL, status);
}

static JsonObject *run_json(JsonParser *p, const char *profile)
{
	gchar *argv[] = { (gchar *)KMODEL_BENCH_PATH, (gchar *)"reproduce", (gchar *)"--json",
			  profile ? (gchar *)"--profile" : NULL, (gchar *)profile, NULL };
	int status;
	gchar *out = run_bench(argv, &status);

	assert_true(json_parser_load_from_data(p, out, -1, NULL));
	g_free(out);
	return json_node_get_object(json_parser_get_root(p));
}

/* One `reproduce --json --plot DIR` run (the group's setup) feeds the
 * figures' checks and the plot's: its JSON and DIR */
static struct {
	gchar *dir;
	gchar *json;
} full;

static int run_full(void **state)
{
	gchar *argv[] = { (gchar *)KMODEL_BENCH_PATH, (gchar *)"reproduce", (gchar *)"--json",
			  (gchar *)"--plot", NULL, NULL };
	int status;

	full.dir = g_dir_make_tmp("kmrepro-XXXXXX", NULL);
	argv[4] = full.dir;
	full.json = run_bench(argv, &status);
	return 0;
}

static int free_full(void **state)
{
	static const char *const files[] = { "dd.dat", "iperf.dat", "reproduce.gp", "dd.png",
					     "iperf.png" };

	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		gchar *f = g_build_filename(full.dir, files[i], NULL);

		g_unlink(f);
		g_free(f);
	}
	g_rmdir(full.dir);
	g_free(full.dir);
	g_free(full.json);
	return 0;
}

static JsonObject *run_reproduce(JsonParser *p)
{
	assert_true(json_parser_load_from_data(p, full.json, -1, NULL));
	return json_node_get_object(json_parser_get_root(p));
}

/* @o has exactly the members @names (NULL-terminated), each of @type
 * (JSON_NODE_VALUE members: any value but null) */
static void exact_members(JsonObject *o, const char *const *names, const char *what)
{
	GList *m = json_object_get_members(o);
	size_t n = 0;

	for (; names[n]; n++) {
		JsonNode *v = json_object_get_member(o, names[n]);

		if (!v || JSON_NODE_HOLDS_NULL(v))
			fail_msg("%s: no \"%s\" (or null)", what, names[n]);
	}
	if (g_list_length(m) != n)
		fail_msg("%s: %u members, the schema has %zu", what, g_list_length(m), n);
	g_list_free(m);
}

static void test_figures_within_tolerance(void **state)
{
	JsonParser *p = json_parser_new();
	JsonObject *root = run_reproduce(p);
	JsonArray *figs = json_object_get_array_member(root, "figures");
	double with[7] = { 0 }, without[7] = { 0 }, pub_w[7], pub_wo[7];
	int calibrated = 0;

	/* the issue's schema, exactly */
	{
		static const char *const top[] = { "figures", "drops", "dd_predictions",
						   "iperf_predictions", "uaccess_4k", NULL };
		/* and a dd prediction's machine, beyond it */
		static const char *const dd[] = { "profile", "variant", "machine", "highmem",
						  "block_size", "predicted_mb_s", NULL };
		static const char *const ip[] = { "profile", "variant", "traffic",
						  "predicted_mbit_s", "bound", NULL };
		JsonArray *a = json_object_get_array_member(root, "dd_predictions");

		exact_members(root, top, "the top level");
		for (guint i = 0; i < json_array_get_length(a); i++) {
			JsonObject *o = json_array_get_object_element(a, i);
			const char *m = json_object_get_string_member(o, "machine");

			exact_members(o, dd, "a dd prediction");
			assert_true(!strcmp(m, "bbw") || !strcmp(m, "bbw-config-highmem") ||
				    !strcmp(m, "a15"));
		}
		a = json_object_get_array_member(root, "iperf_predictions");
		for (guint i = 0; i < json_array_get_length(a); i++)
			exact_members(json_array_get_object_element(a, i), ip, "an iperf prediction");
	}
	assert_int_equal(json_array_get_length(figs), 28);
	for (guint i = 0; i < 28; i++) {
		JsonObject *f = json_array_get_object_element(figs, i);
		static const char *const head[] = { "seed", "what", "unit", "published", "predicted",
						    "error_pct", "calibrated", "low", "high",
						    "counts_as_predicted", NULL };
		static const char *const point[] = { "seed", "what", "unit", "published", "predicted",
						     "error_pct", "calibrated", "low", "high",
						     "counts_as_predicted", "block_size", NULL };

		/* a full run: every figure predicted, never null */
		exact_members(f, i < 7 ? head : point, json_object_get_string_member(f, "what"));
		assert_string_equal(json_object_get_string_member(f, "unit"),
				    i == 4 ? "ratio" : i == 5 || i == 6 ? "Mbit/s" : "MB/s");
		double pub = json_object_get_double_member(f, "published");
		double err = json_object_get_double_member(f, "error_pct");
		double tol = i < 7 ? 10 : 15;
		bool cal = json_object_get_boolean_member(f, "calibrated");

		double pred = json_object_get_double_member(f, "predicted");
		double lo = json_object_get_double_member(f, "low");
		double hi = json_object_get_double_member(f, "high");
		bool counts = json_object_get_boolean_member(f, "counts_as_predicted");
		bool inside = lo <= pub && pub <= hi;

		assert_true(fabs(pub - expect[i].published) < 1e-9);
		assert_int_equal(cal, expect[i].calibrated);
		/* the interval holds the stated values' prediction; the
		 * figure counts as predicted exactly when it is not fitted,
		 * the published value is inside and the half-width at most
		 * 10 % (iperf) or 15 % (dd) -- issue 22's rule */
		assert_true(lo <= pred && pred <= hi && lo > 0);
		assert_int_equal(counts, !cal && inside &&
					 (hi - lo) / 2 / pred * 100 <= (i == 5 || i == 6 ? 10 : 15));
		/* the intervals cover the in-sample figures (issue 22) */
		if (!inside)
			fail_msg("%s: published %.3f outside the interval [%.3f, %.3f]",
				 json_object_get_string_member(f, "what"), pub, lo, hi);
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
	/* two values fitted (a15 without, iperf before) */
	assert_int_equal(calibrated, 2);
	/* the drop per block size: within 5 points, but for the known misses;
	 * its interval (each draw prices both runs) holds the prediction, and
	 * the published drop but at the block sizes drop_known_outside names */
	for (int i = 0; i < 7; i++) {
		double pub = (1 - pub_w[i] / pub_wo[i]) * 100, pred = (1 - with[i] / without[i]) * 100;
		double d = pred - pub;
		bool known = false;
		JsonObject *dr = json_array_get_object_element(
			json_object_get_array_member(root, "drops"), (guint)i);
		double lo = json_object_get_double_member(dr, "low");
		double hi = json_object_get_double_member(dr, "high");

		assert_int_equal(json_object_get_int_member(dr, "block_size"), bsizes[i]);
		assert_float_equal(json_object_get_double_member(dr, "published_pct"), pub, 1e-9);
		assert_float_equal(json_object_get_double_member(dr, "predicted_pct"), pred, 1e-6);
		assert_true(lo <= pred && pred <= hi);
		/* the readings' range: the fastest "with" reading against the
		 * slowest "without" one and the reverse, floored at 0 */
		{
			double rlo = json_object_get_double_member(dr, "readings_low_pct");
			double rhi = json_object_get_double_member(dr, "readings_high_pct");
			bool beyond = bs_listed(drop_known_beyond_readings,
						G_N_ELEMENTS(drop_known_beyond_readings), bsizes[i]);

			assert_float_equal(rlo, MAX(0, (1 - (pub_w[i] + 2) / (pub_wo[i] - 2)) * 100),
					   1e-9);
			assert_float_equal(rhi, (1 - (pub_w[i] - 2) / (pub_wo[i] + 2)) * 100, 1e-9);
			assert_true(rlo <= pub && pub <= rhi);
			if ((rlo <= pred && pred <= rhi) == beyond)
				fail_msg("bs %lu: the predicted drop %.1f %% is %s the readings' "
					 "[%.1f, %.1f] (see drop_known_beyond_readings: update here "
					 "and docs/predicting.md)", bsizes[i], pred,
					 beyond ? "inside" : "outside", rlo, rhi);
		}
		if ((lo <= pub && pub <= hi) == drop_outside_known(bsizes[i]))
			fail_msg("bs %lu: the published drop %.1f %% is %s [%.1f, %.1f] (see "
				 "drop_known_outside: update here and docs/predicting.md)", bsizes[i], pub,
				 lo <= pub && pub <= hi ? "inside" : "outside", lo, hi);

		for (size_t k = 0; k < G_N_ELEMENTS(drop_known_miss); k++) {
			if (drop_known_miss[k].bs != bsizes[i])
				continue;
			known = true;
			if (fabs(d) <= 5)
				fail_msg("bs %lu: the KNOWN MISS is met (%+.1f points): move it to the "
					 "met figures here and in docs/predicting.md", bsizes[i], d);
			if (!(d >= drop_known_miss[k].lo && d <= drop_known_miss[k].hi))
				fail_msg("bs %lu: the KNOWN MISS moved: %+.2f points, outside "
					 "[%+.1f, %+.1f] (update it here and in docs/predicting.md)", bsizes[i],
					 d, drop_known_miss[k].lo, drop_known_miss[k].hi);
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

/* The text table of drops: each row's readings range, from the published
 * pair (expect[]: without at 7 + i, with at 14 + i) and the author's +-2
 * MB/s, and its "in readings" verdict as drop_known_beyond_readings says */
static void test_drop_table_text(void **state)
{
	gchar *argv[] = { (gchar *)KMODEL_BENCH_PATH, (gchar *)"reproduce", (gchar *)"-s",
			  (gchar *)"dd", NULL };
	int status, row = -1;
	gchar *out = run_bench(argv, &status);
	gchar **lines = g_strsplit(out, "\n", -1);

	(void)state;
	assert_int_equal(status, 0);
	for (int i = 0; lines[i] && row < 0; i++)
		if (strstr(lines[i], "bs published      readings predicted"))
			row = i + 1;
	assert_true(row > 0);
	for (int k = 0; k < 7; k++) {
		double wo = expect[7 + k].published, w = expect[14 + k].published;
		bool beyond = bs_listed(drop_known_beyond_readings,
					G_N_ELEMENTS(drop_known_beyond_readings), bsizes[k]);
		char readings[64], goal[16], in[16];
		unsigned long bs;
		gchar *want;

		assert_non_null(lines[row + k]);
		assert_int_equal(sscanf(lines[row + k], "%lu %*f %63s %*f %*f %*f %*f %15s %15s", &bs,
					readings, goal, in), 4);
		assert_int_equal(bs, bsizes[k]);
		want = g_strdup_printf("%.1f..%.1f", MAX(0, (1 - (w + 2) / (wo - 2)) * 100),
				       (1 - (w - 2) / (wo + 2)) * 100);
		assert_string_equal(readings, want);
		assert_string_equal(in, beyond ? "no" : "yes");
		g_free(want);
	}
	g_strfreev(lines);
	g_free(out);
}

/* the predicted MB/s of figure @i of `reproduce -s dd --json [--dd-page-aligned]` */
static double dd_figure(unsigned int i, bool page_aligned)
{
	gchar *argv[] = { (gchar *)KMODEL_BENCH_PATH, (gchar *)"reproduce", (gchar *)"-s",
			  (gchar *)"dd", (gchar *)"--json",
			  page_aligned ? (gchar *)"--dd-page-aligned" : NULL, NULL };
	JsonParser *p = json_parser_new();
	int status;
	gchar *out = run_bench(argv, &status);
	JsonObject *f;
	double x;

	assert_true(json_parser_load_from_data(p, out, -1, NULL));
	f = json_array_get_object_element(json_object_get_array_member(
		json_node_get_object(json_parser_get_root(p)), "figures"), i);
	assert_int_equal(json_object_get_int_member(f, "block_size"), 4096);
	x = json_object_get_double_member(f, "predicted");
	g_free(out);
	g_object_unref(p);
	return x;
}

/* --dd-page-aligned runs dd with its buffer on a page boundary (GNU
 * coreutils dd's): the RFC pins one user page per 4 KiB chunk instead of
 * two (test_scenario), so at bs=4K it does strictly less of the work the
 * profile prices, and its predicted MB/s is higher */
static void test_dd_page_aligned(void **state)
{
	const unsigned int with_4k = 14 + 2;	/* "with": 512, 1K, 4K, ... */

	assert_true(dd_figure(with_4k, true) > dd_figure(with_4k, false));
}

/* --profile: every row priced with that profile, and "calibrated" said of
 * the figures its own calibrated values name -- not the shipped ones' */
static void test_profile_override(void **state)
{
	JsonParser *p = json_parser_new();
	JsonObject *root = run_json(p, "cortex-a15-qemu");
	JsonArray *figs = json_object_get_array_member(root, "figures");
	JsonArray *dd = json_object_get_array_member(root, "dd_predictions");

	/* cortex-a15-qemu's one calibrated value names a15-without: that
	 * figure only; not the BeagleBone's (whose own profile has none) or
	 * the iperf run's */
	for (guint i = 0; i < 28; i++)
		assert_int_equal(json_object_get_boolean_member(json_array_get_object_element(figs, i),
								"calibrated"),
				 i == 3);
	for (guint i = 0; i < json_array_get_length(dd); i++)
		assert_string_equal(json_object_get_string_member(json_array_get_object_element(dd, i),
								  "profile"), "cortex-a15-qemu");
	g_object_unref(p);
}

/*
 * A profile without calibrated values, the one kmodel-bench calibrate
 * wrote (the host_profile fixture): it loads, and no figure is calibrated.
 * The run is under a locale whose decimal point is a comma (de_DE: ctest
 * provides it, LOCPATH and KM_TEST_COMMA_LOCALE, tests/comma_locale.sh;
 * without it the C locale), with --plot: its JSON parses and the plot data
 * keeps the C locale's decimal point (a comma would split gnuplot's
 * columns). locale_cli checks the profile's own notation.
 */
static void test_host_profile_comma_locale(void **state)
{
	const char *name = g_getenv("KM_TEST_COMMA_LOCALE");
	gchar *dir = g_dir_make_tmp("kmrepro-XXXXXX", NULL);
	gchar *argv[] = { (gchar *)KMODEL_BENCH_PATH, (gchar *)"reproduce", (gchar *)"--json",
			  (gchar *)"--profile", (gchar *)KM_HOST_PROFILE, (gchar *)"--plot", dir,
			  NULL };
	static const char *const files[] = { "dd.dat", "iperf.dat", "reproduce.gp", "dd.png",
					     "iperf.png" };
	GRegex *comma = g_regex_new("[0-9],[0-9]", 0, 0, NULL);
	gchar **envp = g_get_environ(), *out;
	JsonParser *p = json_parser_new();
	JsonArray *figs;
	int status;

	if (name && setlocale(LC_NUMERIC, name) && !strcmp(localeconv()->decimal_point, ","))
		envp = g_environ_setenv(envp, "LC_ALL", name, TRUE);
	else
		print_message("no comma locale: reproduce runs in the C locale\n");
	setlocale(LC_NUMERIC, "C");
	out = run_bench_env(argv, envp, &status);
	assert_true(json_parser_load_from_data(p, out, -1, NULL));
	figs = json_object_get_array_member(json_node_get_object(json_parser_get_root(p)),
					    "figures");
	assert_int_equal(json_array_get_length(figs), 28);
	for (guint i = 0; i < 28; i++)
		assert_false(json_object_get_boolean_member(json_array_get_object_element(figs, i),
							    "calibrated"));
	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		gchar *f = g_build_filename(dir, files[i], NULL), *text = NULL;

		if (g_str_has_suffix(f, ".dat")) {
			assert_true(g_file_get_contents(f, &text, NULL, NULL));
			if (g_regex_match(comma, text, 0, NULL))
				fail_msg("%s: a decimal comma under %s", files[i], name ? name : "C");
		}
		if (g_str_has_suffix(f, ".gp")) {
			/* the y ranges hold what is drawn, the titles name the
			 * profile (fixed [0:110] and [0:135] cut off
			 * the host's predictions) */
			const char *at;
			double top[2], max[2] = { 0, 0 };

			assert_true(g_file_get_contents(f, &text, NULL, NULL));
			at = strstr(text, "set yrange [0:");
			for (int k = 0; k < 2; k++) {
				assert_non_null(at);
				top[k] = g_ascii_strtod(at + strlen("set yrange [0:"), NULL);
				at = strstr(at + 1, "set yrange [0:");
			}
			for (guint k = 5; k < 28; k++) {	/* iperf 5, 6; dd points 7 .. */
				JsonObject *o = json_array_get_object_element(figs, k);

				max[k >= 7] = MAX(max[k >= 7], MAX(json_object_get_double_member(o, "published"),
								   json_object_get_double_member(o, "predicted")));
			}
			if (!(top[0] >= max[1] && top[1] >= max[0]))
				fail_msg("y ranges [0:%g] (dd) and [0:%g] (iperf) below %g and %g", top[0],
					 top[1], max[1], max[0]);
			/* both titles name it (the iperf
			 * title's profile was not checked), in single quotes
			 * (gnuplot runs `...` in double ones) */
			at = strstr(text, "profile \" . 'host'\n");
			assert_non_null(at);
			assert_non_null(strstr(at + 1, "profile \" . 'host'\n"));
		}
		g_unlink(f);
		g_free(f);
		g_free(text);
	}
	g_rmdir(dir);
	g_free(dir);
	g_regex_unref(comma);
	g_object_unref(p);
	g_free(out);
	g_strfreev(envp);
}

/* --plot DIR: dd.dat (bs, published and predicted per variant), iperf.dat,
 * reproduce.gp and, where gnuplot runs, the PNGs; dd.dat holds what the
 * same run's --json says */
static void test_plot(void **state)
{
	gchar *text = NULL;
	const char *files[] = { "dd.dat", "iperf.dat", "reproduce.gp", "dd.png", "iperf.png" };
	JsonParser *p = json_parser_new();
	JsonArray *figs = json_object_get_array_member(run_reproduce(p), "figures");
	gchar **lines;

	for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
		gchar *f = g_build_filename(full.dir, files[i], NULL);

		if (!g_file_test(f, G_FILE_TEST_IS_REGULAR))
			fail_msg("--plot wrote no %s", f);
		g_free(f);
	}
	/* dd.dat: a comment, then per block size the 3 published and the 3
	 * predicted values, as --json's figures */
	{
		gchar *f = g_build_filename(full.dir, "dd.dat", NULL);

		assert_true(g_file_get_contents(f, &text, NULL, NULL));
		g_free(f);
	}
	lines = g_strsplit(text, "\n", -1);
	assert_int_equal(lines[0][0], '#');
	for (int i = 0; i < 7; i++) {
		gchar **v = g_strsplit(lines[i + 1], " ", -1);

		assert_int_equal(g_strv_length(v), 7);
		assert_int_equal(g_ascii_strtoull(v[0], NULL, 10), bsizes[i]);
		for (int k = 0; k < 3; k++) {
			JsonObject *f = json_array_get_object_element(figs, 7 + 7 * k + i);

			assert_true(fabs(g_ascii_strtod(v[1 + k], NULL) -
					 json_object_get_double_member(f, "published")) < 0.006);
			assert_true(fabs(g_ascii_strtod(v[4 + k], NULL) -
					 json_object_get_double_member(f, "predicted")) < 0.006);
		}
		g_strfreev(v);
	}
	g_strfreev(lines);
	g_free(text);
	/* reproduce.gp: each title names the profile that priced its plot,
	 * in single quotes */
	{
		gchar *f = g_build_filename(full.dir, "reproduce.gp", NULL);
		const char *iperf;

		assert_true(g_file_get_contents(f, &text, NULL, NULL));
		g_free(f);
		iperf = strstr(text, "set output 'iperf.png'");
		assert_non_null(iperf);
		assert_true(strstr(text, "profile \" . 'beaglebone-white'\n") < iperf);
		assert_non_null(strstr(iperf, "profile \" . 'beagleboard-xm-debug-slab'\n"));
		g_free(text);
	}
	g_object_unref(p);
}

/*
 * a profile's [profile] name went into --plot's gnuplot
 * script in double quotes, where gnuplot runs `...` in a shell, and a
 * newline (GKeyFile's \n) started a gnuplot command: both of the
 * review's names created a file. The profile is refused now (exit 2,
 * naming file, group and key), before anything is written or run.
 */
static void test_plot_name_refused(void **state)
{
	static const char *const names[] = { "bb`touch PWNED2`w", "x\\nsystem 'touch PWN6'\\n#" };
	gchar *src = g_build_filename(KM_PROFILES_DIR, "beaglebone-white.ini", NULL), *text;

	(void)state;
	assert_true(g_file_get_contents(src, &text, NULL, NULL));
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		gchar *dir = g_dir_make_tmp("kmrepro-XXXXXX", NULL);
		gchar *ini = g_build_filename(dir, "p.ini", NULL), *plot = g_build_filename(dir, "plot", NULL);
		gchar *at = strstr(text, "\nname=beaglebone-white\n"), *bad, *out = NULL, *err = NULL;
		gchar *argv[] = { (gchar *)KMODEL_BENCH_PATH, (gchar *)"reproduce", (gchar *)"--profile",
				  ini, (gchar *)"--plot", plot, NULL };
		const char *made[] = { "PWNED2", "PWN6", "plot", "p.ini" };
		int status;

		assert_non_null(at);
		bad = g_strdup_printf("%.*s\nname=%s\n%s", (int)(at - text), text, names[i],
				      at + strlen("\nname=beaglebone-white\n"));
		assert_true(g_file_set_contents(ini, bad, -1, NULL));
		assert_true(g_spawn_sync(dir, argv, NULL, 0, NULL, NULL, &out, &err, &status, NULL));
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
		assert_non_null(strstr(err, "p.ini: [profile] name: \""));
		for (size_t k = 0; k < 3; k++) {	/* nothing ran, in dir or plot */
			gchar *f = g_build_filename(dir, made[k], NULL), *g = g_build_filename(plot, made[k], NULL);

			assert_false(g_file_test(f, G_FILE_TEST_EXISTS) || g_file_test(g, G_FILE_TEST_EXISTS));
			g_free(f);
			g_free(g);
		}
		g_unlink(ini);
		g_rmdir(dir);
		g_free(bad);
		g_free(out);
		g_free(err);
		g_free(ini);
		g_free(plot);
		g_free(dir);
	}
	g_free(text);
	g_free(src);
}

/* the dd and iperf tables' predicted columns through kmodel-bench, with
 * --profile naming the profile for every row: a value for each target row
 * (none for the host's memcpy baseline), and for iperf what binds */
static void test_bench_tables_predicted(void **state)
{
	gchar *argv[] = { (gchar *)KMODEL_BENCH_PATH, (gchar *)"-s", (gchar *)"dd,iperf", (gchar *)"-q",
			  (gchar *)"-r", (gchar *)"1", (gchar *)"--dd-block-sizes=4K",
			  (gchar *)"--dd-total-mib=1", (gchar *)"--dd-file-mib=1",
			  (gchar *)"--dd-machines=bbw,a15", (gchar *)"--dd-variants=direct,gup_kmap_rfc",
			  (gchar *)"--iperf-packets=200", (gchar *)"--json", (gchar *)"--profile",
			  (gchar *)KM_PROFILES_DIR "/./beagleboard-xm-debug-slab.ini", NULL };
	int status;
	gchar *out = run_bench(argv, &status);
	JsonParser *p = json_parser_new();
	JsonObject *sc;
	JsonArray *rows;
	unsigned int priced = 0;

	assert_true(json_parser_load_from_data(p, out, -1, NULL));
	/* the options record the profile as given and the file it resolved
	 * to (only as given) */
	sc = json_object_get_object_member(json_node_get_object(json_parser_get_root(p)), "options");
	assert_true(json_object_has_member(sc, "profile_file"));
	assert_string_equal(json_object_get_string_member(sc, "profile_file"),
			    KM_PROFILES_DIR "/beagleboard-xm-debug-slab.ini");
	sc = json_object_get_object_member(json_node_get_object(json_parser_get_root(p)), "scenarios");
	rows = json_object_get_array_member(json_object_get_object_member(sc, "dd"), "rows");
	for (guint i = 0; i < json_array_get_length(rows); i++) {
		JsonObject *r = json_array_get_object_element(rows, i);
		JsonNode *v = json_object_get_member(r, "predicted_mb_s");

		if (!strcmp(json_object_get_string_member(r, "variant"), "memcpy")) {
			assert_true(!v || JSON_NODE_HOLDS_NULL(v));
		} else {
			double x = v ? json_node_get_double(v) : 0;

			assert_true(x > 0);
			/* the interval holds the stated values' prediction */
			assert_true(json_object_get_double_member(r, "predicted_low_mb_s") <= x);
			assert_true(json_object_get_double_member(r, "predicted_high_mb_s") >= x);
			priced++;
		}
	}
	assert_int_equal(priced, 4);
	rows = json_object_get_array_member(json_object_get_object_member(sc, "iperf"), "rows");
	assert_true(json_array_get_length(rows) >= 6);
	for (guint i = 0; i < json_array_get_length(rows); i++) {
		JsonObject *r = json_array_get_object_element(rows, i);
		const char *b = json_object_get_string_member(r, "bound");

		double x = json_object_get_double_member(r, "predicted_mbit_s");

		assert_true(x > 0);
		assert_true(json_object_get_double_member(r, "predicted_low_mbit_s") <= x);
		assert_true(json_object_get_double_member(r, "predicted_high_mbit_s") >= x);
		assert_true(!strcmp(b, "cpu") || !strcmp(b, "link"));
	}
	g_object_unref(p);
	g_free(out);
}

/* --explain names the files of the profiles that price a row: with -s
 * iperf the BeagleBoard-xM's alone (all three were listed);
 * each iperf row's bound names the device's wire, which
 * part of the link is the slower -- the AX88772's wire: 1514 + 24 bytes
 * at 100 Mbit/s, 123.04 us, against about 1518 bytes on the high-speed
 * pipe's 53,248,000 bytes/s, 28.5 us -- and the profile's [link] cap only
 * where the profile has one (beaglebone-white, without
 * [link], was said to have its usb_bytes_per_s) */
static void test_explain_profiles_used(void **state)
{
	for (int bbw = 0; bbw < 2; bbw++) {
		gchar *argv[] = { (gchar *)KMODEL_BENCH_PATH, (gchar *)"reproduce", (gchar *)"-s",
				  (gchar *)"iperf", (gchar *)"--explain", (gchar *)"-o",
				  (gchar *)"/dev/null", bbw ? (gchar *)"--profile" : NULL,
				  (gchar *)"beaglebone-white", NULL };
		gchar *out = NULL, *err = NULL, **lines;
		int status, n = 0, bounds = 0, parts = 0, fitted = 0, paths = 0, zero = 0;
		double item = -1, sum = 0;	/* an item's cycles, and its lines' under it */
		bool by_parts = false;		/* the lines under it list parts */

		g_setenv("KMODEL_PROFILE_DIR", KM_PROFILES_DIR, TRUE);
		assert_true(g_spawn_sync(NULL, argv, NULL, 0, NULL, NULL, &out, &err, &status, NULL));
		assert_int_equal(status, 0);
		lines = g_strsplit(err, "\n", -1);
		for (gchar **l = lines; *l; l++)
			if (g_str_has_prefix(*l, "profile ")) {
				assert_true(g_str_has_prefix(*l, bbw ? "profile beaglebone-white: /"
								   : "profile beagleboard-xm-debug-slab: /"));
				n++;
			} else if (g_str_has_prefix(*l, "  bound: ")) {
				assert_non_null(strstr(*l, "whose slower part is the device's wire; a "
							   "packet on the device's 100 Mbit/s wire, 123.04 us; "
							   "on the bulk-out pipe at high speed, maxpacket 512"));
				assert_true((strstr(*l, "[link]") == NULL) == (bbw != 0));
				if (!bbw)
					assert_non_null(strstr(*l, "maxpacket 512 capped by the profile's "
								   "[link] usb_bytes_per_s 53248000, 28.5"));
				bounds++;
			}
		/*
		 * A path the paths table gives by function lists its parts
		 * under its item, and the profile's [cycles] value after them
		 * (the xM's urbs: [v3.5]'s parts and the DRAM lines); the lines
		 * under an item add up to it. No [cycles] line is a fit: the
		 * xM's one fitted value is its [kernel]
		 * c_cycles_per_instruction (iperf-before), the rate of every
		 * part.
		 */
		for (gchar **l = lines; *l; l++) {
			const char *eq = strrchr(*l, '=');

			if (g_str_has_prefix(*l, "    ") && eq) {
				sum += g_ascii_strtod(eq + 1, NULL);
				by_parts |= !strstr(*l, "[cycles]");
				parts += g_str_has_prefix(*l, "    tcp_transmit_skb ");
				fitted += strstr(*l, "[cycles]") && strstr(*l, "calibrated: iperf-before");
				/* a [cycles] line only for a value the profile gives */
				zero += strstr(*l, "[cycles]") && g_ascii_strtod(eq + 1, NULL) == 0;
				continue;
			}
			if (item >= 0 && by_parts) {	/* the item before was a path by parts */
				assert_true(fabs(sum - item) < 1);
				paths++;
			}
			item = -1;
			sum = 0;
			by_parts = false;
			if (g_str_has_prefix(*l, "  ") && !g_str_has_prefix(*l, "  bound: ") &&
			    (eq = strrchr(*l, '=')))
				item = g_ascii_strtod(eq + 1, NULL);
		}
		assert_int_equal(n, 1);
		assert_int_equal(bounds, 2);	/* the two TCP figures */
		assert_int_equal(parts, bbw ? 0 : 2);
		assert_int_equal(fitted, 0);
		/* the xM's eth_frames, urbs, eth_rx_frames and, with their
		 * lockdep parts, syscalls, kmalloc_calls, kfree_calls,
		 * skb_allocs, skb_frees, pages_allocated and pages_freed; the
		 * BeagleBone's [v5.7] syscalls, its null syscall's path apart:
		 * twice */
		assert_int_equal(paths, bbw ? 2 : 20);
		assert_int_equal(zero, 0);
		g_strfreev(lines);
		g_free(out);
		g_free(err);
	}
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures_within_tolerance),
		cmocka_unit_test(test_profile_override),
		cmocka_unit_test(test_dd_page_aligned),
		cmocka_unit_test(test_drop_table_text),
		cmocka_unit_test(test_host_profile_comma_locale),
		cmocka_unit_test(test_plot),
		cmocka_unit_test(test_plot_name_refused),
		cmocka_unit_test(test_bench_tables_predicted),
		cmocka_unit_test(test_explain_profiles_used),
	};

	return cmocka_run_group_tests_name("test_reproduce", tests, run_full, free_full);
}
