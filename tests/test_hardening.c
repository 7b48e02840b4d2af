// SPDX-License-Identifier: GPL-2.0
/*
 * Bad input never crashes or hangs the host: each test is a defect found
 * from outside, with the input that triggered it.
 * - a cost profile that is a FIFO (open(2) blocked), /dev/zero (read until
 *   memory ran out), a subnormal clock_hz or copy_l1 (accepted: every
 *   prediction column empty), a paths= file that is no paths table (its
 *   line quoted in the error);
 * - km_dd_run() with block sizes in a NULL array (dereferenced);
 * - a plugin that is a FIFO, a plugin whose entry point loads itself
 *   (recursion until the stack overflowed);
 * - a raw copy that returns more bytes not copied than asked (dd's
 *   shmem_write_end() ran past its page).
 */
#include "km_test.h"
#include <glib/gstdio.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* a test that hangs fails instead of blocking ctest until its timeout */
static void watchdog(unsigned int seconds)
{
	signal(SIGALRM, SIG_DFL);
	alarm(seconds);
}

static gchar *tmpdir(void)
{
	gchar *d = g_dir_make_tmp("kmharden-XXXXXX", NULL);

	assert_non_null(d);
	return d;
}

static void rm_tree(gchar *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *n;

	while (d && (n = g_dir_read_name(d))) {
		gchar *f = g_build_filename(dir, n, NULL);

		unlink(f);
		g_free(f);
	}
	if (d)
		g_dir_close(d);
	rmdir(dir);
	g_free(dir);
}

/* ---- cost profiles -------------------------------------------------------- */

static void assert_profile_refused(const char *path, const char *want)
{
	struct km_cost_profile *p = NULL;
	int rc;

	watchdog(20);
	rc = km_cost_profile_load(path, &p);
	alarm(0);
	if (rc == 0 || !strstr(km_last_error(), want))
		fail_msg("%s: rc %d, \"%s\"; want an error with \"%s\"", path, rc, km_last_error(),
			 want);
	assert_null(p);
}

static void test_profile_fifo(void **state)
{
	gchar *dir = tmpdir(), *fifo = g_build_filename(dir, "fifo.ini", NULL);

	(void)state;
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_profile_refused(fifo, "not a regular file (a FIFO), not a cost profile");
	g_free(fifo);
	rm_tree(dir);
}

static void test_profile_dev_zero(void **state)
{
	(void)state;
	assert_profile_refused("/dev/zero", "not a regular file (a character device)");
}

/* a regular file past the 1 MiB a profile may have: refused, not read */
static void test_profile_too_large(void **state)
{
	gchar *dir = tmpdir(), *path = g_build_filename(dir, "big.ini", NULL);
	FILE *fp = fopen(path, "w");

	(void)state;
	assert_non_null(fp);
	assert_int_equal(ftruncate(fileno(fp), (2 << 20) + 1), 0);
	fclose(fp);
	assert_profile_refused(path, "2097153 bytes, more than a cost profile has");
	g_free(path);
	rm_tree(dir);
}

/* the shipped profile, with @find replaced by @repl, written into @dir */
static gchar *edited_profile(const char *dir, const char *find, const char *repl)
{
	gchar *text = NULL, *path = g_build_filename(dir, "p.ini", NULL), **parts;
	gchar *edited;

	assert_true(g_file_get_contents(KM_PROFILES_DIR "/beaglebone-white.ini", &text, NULL,
					NULL));
	parts = g_strsplit(text, find, 2);
	assert_non_null(parts[1]);	/* @find is in the profile */
	edited = g_strjoinv(repl, parts);
	assert_true(g_file_set_contents(path, edited, -1, NULL));
	g_strfreev(parts);
	g_free(edited);
	g_free(text);
	return path;
}

static void test_profile_subnormal(void **state)
{
	static const struct {
		const char *name, *find, *repl, *want;
	} rows[] = {
		{ "clock_hz 4e-320", "\nclock_hz=", "\nclock_hz=4e-320\n#", "[cpu] clock_hz: 4e-320 is too small" },
		{ "copy_l1 1e-320", "\ncopy_l1=", "\ncopy_l1=1e-320\n#", "[bandwidth] copy_l1: 1e-320 is too small" },
		{ "set_l1 1e-310", "\nset_l1=", "\nset_l1=1e-310\n#", "[bandwidth] set_l1: 1e-310 is too small" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		gchar *dir = tmpdir(), *path = edited_profile(dir, rows[i].find, rows[i].repl);
		struct km_cost_profile *p = NULL;
		int rc = km_cost_profile_load(path, &p);

		if (rc != -EINVAL || !strstr(km_last_error(), rows[i].want) ||
		    !strstr(km_last_error(), "p.ini: "))
			fail_msg("%s: rc %d, \"%s\"", rows[i].name, rc, km_last_error());
		g_free(path);
		rm_tree(dir);
	}
}

/* paths= naming a file that is not a paths table: the file and the reason,
 * never a line of it (tried with /etc/shadow) */
static void test_profile_paths_not_quoted(void **state)
{
	gchar *dir = tmpdir(), *secret = g_build_filename(dir, "shadow", NULL), *repl, *path;
	struct km_cost_profile *p = NULL;
	int rc;

	(void)state;
	assert_true(g_file_set_contents(secret, "root:$6$SECRETHASH:19000:0:99999:7:::\n", -1,
					NULL));
	repl = g_strdup_printf("\npaths=%s\n#", secret);
	path = edited_profile(dir, "\npaths=", repl);
	rc = km_cost_profile_load(path, &p);
	assert_int_equal(rc, -EINVAL);
	if (strstr(km_last_error(), "SECRET") || strstr(km_last_error(), "root:") ||
	    !strstr(km_last_error(), secret) || !strstr(km_last_error(), "not a paths table"))
		fail_msg("\"%s\"", km_last_error());
	g_free(repl);
	g_free(path);
	g_free(secret);
	rm_tree(dir);
}

/* a profile that is not a key file at all: its name, the line's number
 * and the reason, never the line (GKeyFile's own message quotes it) */
static void test_profile_not_keyfile_not_quoted(void **state)
{
	static const struct {
		const char *name, *text, *want;
	} rows[] = {
		{ "shadow", "root:$6$SECRETHASH:19000:0:99999:7:::\n", "line 1 is neither" },
		{ "shadow after a group", "[cpu]\nroot:$6$SECRETHASH:1:::\n", "line 2 is neither" },
		{ "bad group", "[SECRET\nk=1\n", "not a key file" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		gchar *dir = tmpdir(), *path = g_build_filename(dir, "secret.ini", NULL);
		struct km_cost_profile *p = NULL;
		int rc;

		assert_true(g_file_set_contents(path, rows[i].text, -1, NULL));
		rc = km_cost_profile_load(path, &p);
		if (rc >= 0 || strstr(km_last_error(), "SECRET") || !strstr(km_last_error(), path) ||
		    !strstr(km_last_error(), rows[i].want))
			fail_msg("%s: rc %d, \"%s\"", rows[i].name, rc, km_last_error());
		g_free(path);
		rm_tree(dir);
	}
}

/* ---- dd -------------------------------------------------------------------- */

static void test_dd_null_block_sizes(void **state)
{
	struct km_dd_opts o = { .block_sizes = NULL, .nblock_sizes = 2 };
	struct km_dd_case c = { &km_uaccess_direct, km_dd_machines()[0], KM_KMAP_ATOMIC_PRE_5_11 };
	struct km_table *t = NULL;

	(void)state;
	assert_int_equal(km_dd_run(&o, &c, 1, &t), -EINVAL);
	assert_null(t);
	assert_non_null(strstr(km_last_error(), "NULL array"));
}

/* ---- plugins ----------------------------------------------------------------- */

static void test_plugin_fifo(void **state)
{
	gchar *dir = tmpdir(), *fifo = g_build_filename(dir, "p.so", NULL);
	struct km_registry *r;

	(void)state;
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(km_registry_new(KM_REGISTRY_DEFAULT, &r), 0);
	watchdog(20);
	assert_int_equal(km_registry_load(r, fifo), -EINVAL);
	alarm(0);
	assert_non_null(strstr(km_last_error(), "a FIFO"));
	km_registry_free(r);
	g_free(fifo);
	rm_tree(dir);
}

static void test_plugin_loads_itself(void **state)
{
	struct km_registry *r;
	size_t before;

	(void)state;
	assert_int_equal(km_registry_new(KM_REGISTRY_DEFAULT, &r), 0);
	for (before = 0; km_registry_uaccess(r)[before]; before++)
		;
	assert_int_equal(km_registry_load(r, KM_PLUGIN_SELFLOAD), -EEXIST);
	if (!strstr(km_last_error(), "kmodel_plugin_init failed") ||
	    !strstr(km_last_error(), "already being loaded"))
		fail_msg("\"%s\"", km_last_error());
	/* nothing of it stays, and the registry still works */
	assert_null(km_registry_uaccess(r)[before]);
	assert_int_equal(km_registry_load(r, KM_PLUGIN_SELFLOAD), -EEXIST);
	km_registry_free(r);
}

/* the refusal names the nested load's path whole, however deep the tree it
 * was built in: a 256-byte error buffer cut "(as PATH)" off at a CI path of
 * 40 characters (three paths in one message) */
static void test_plugin_loads_itself_deep_path(void **state)
{
	gchar *dir = tmpdir();
	GString *path = g_string_new(dir);
	struct km_registry *r;
	gchar *body, *want;
	gsize len;

	(void)state;
	for (int i = 0; i < 6; i++) {	/* 6 x 101 bytes deeper */
		g_string_append_printf(path, "/%0100d", i);
		assert_int_equal(g_mkdir(path->str, 0700), 0);
	}
	g_string_append(path, "/libplugin_selfload.so");
	assert_true(g_file_get_contents(KM_PLUGIN_SELFLOAD, &body, &len, NULL));
	assert_true(g_file_set_contents(path->str, body, (gssize)len, NULL));
	assert_int_equal(km_registry_new(KM_REGISTRY_DEFAULT, &r), 0);
	assert_int_equal(km_registry_load(r, path->str), -EEXIST);
	want = g_strdup_printf("already being loaded (as %s)", path->str);
	if (!strstr(km_last_error(), want))
		fail_msg("no \"%s\" in \"%s\"", want, km_last_error());
	km_registry_free(r);
	g_free(want);
	g_free(body);
	for (int i = 0; i <= 6; i++) {	/* the file, then each level */
		assert_int_equal(g_remove(path->str), 0);
		g_string_truncate(path, (gsize)(strrchr(path->str, '/') - path->str));
	}
	g_string_free(path, TRUE);
	rm_tree(dir);
}

/* ---- a raw copy's result past n --------------------------------------------- */

static unsigned long over_from(void *to, unsigned long from, unsigned long n)
{
	(void)to;
	(void)from;
	return n + 1;
}

static unsigned long over_to(unsigned long to, const void *from, unsigned long n)
{
	(void)to;
	(void)from;
	return n + 5;
}

static const struct km_uaccess_ops overcount = {
	.size = KM_UACCESS_OPS_SIZE, .name = "overcount",
	.raw_copy_from_user = over_from, .raw_copy_to_user = over_to,
};

static void test_raw_copy_overcount(void **state)
{
	struct km_fixture *f = *state;
	unsigned char k[64];
	unsigned long u;
	const struct km_report *rep;

	assert_int_equal(km_mmap(f->mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &u), 0);
	memset(k, 0xaa, sizeof(k));
	/* copy_from_user: taken as nothing copied, the whole tail zeroed */
	assert_int_equal(km_copy_from_user(f->t, &overcount, k, u, 64), 64);
	for (size_t i = 0; i < sizeof(k); i++)
		assert_int_equal(k[i], 0);
	assert_int_equal(km_copyout(f->t, &overcount, u, k, 16), 16);
	assert_int_equal(km_copyin(f->t, &overcount, k, u, 8), 8);
	assert_int_equal(km_copy_to_user(f->t, &overcount, u, k, 4), 4);
	assert_int_equal(km_report_count(f->m, KM_R_UNEXPECTED), 4);
	rep = km_report_get(f->m, 0);
	assert_non_null(strstr(rep->message, "overcount: raw_copy_from_user(n 64) returned 65 "));
	rep = km_report_get(f->m, 1);
	assert_non_null(strstr(rep->message, "overcount: raw_copy_to_user(n 16) returned 21 "));
	km_reports_clear(f->m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_fifo),
		cmocka_unit_test(test_profile_dev_zero),
		cmocka_unit_test(test_profile_too_large),
		cmocka_unit_test(test_profile_subnormal),
		cmocka_unit_test(test_profile_paths_not_quoted),
		cmocka_unit_test(test_profile_not_keyfile_not_quoted),
		cmocka_unit_test(test_dd_null_block_sizes),
		cmocka_unit_test(test_plugin_fifo),
		cmocka_unit_test(test_plugin_loads_itself),
		cmocka_unit_test(test_plugin_loads_itself_deep_path),
		cmocka_unit_test_setup_teardown(test_raw_copy_overcount, km_fixture_setup,
						km_fixture_teardown),
	};

	return cmocka_run_group_tests_name("test_hardening", tests, NULL, NULL);
}
