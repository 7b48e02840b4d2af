/* SPDX-License-Identifier: GPL-2.0 */
/* Shared helpers of the cmocka tests. */
#ifndef KM_TEST_H
#define KM_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kmodel/kmodel.h>

/* A machine with one address space and a current task on cpu 0. */
struct km_fixture {
	struct km_machine *m;
	struct km_mm *mm;
	struct km_task *t;
};

static inline void km_fixture_up(struct km_fixture *f, const struct km_machine_config *cfg)
{
	assert_int_equal(km_machine_new(cfg, &f->m), 0);
	assert_int_equal(km_mm_new(f->m, &f->mm), 0);
	assert_int_equal(km_task_new(f->m, f->mm, 0, &f->t), 0);
	km_mm_put(f->mm);	/* the task holds it */
	km_task_switch(f->t);
}

/* Tear down; the machine's teardown check must find nothing. */
static inline void km_fixture_down(struct km_fixture *f)
{
	km_task_switch(NULL);
	km_task_free(f->t);
	assert_int_equal(km_machine_destroy(f->m), 0);
}

/* The same as cmocka fixtures: *state is the struct km_fixture (the
 * default machine), torn down after the test whatever it asserted. */
static inline int km_fixture_setup(void **state)
{
	struct km_fixture *f = g_new0(struct km_fixture, 1);

	km_fixture_up(f, NULL);
	*state = f;
	return 0;
}

/* The same on a machine of the test's own config: the test's initial
 * state (cmocka_unit_test_prestate_setup_teardown()) is the config. */
static inline int km_fixture_setup_cfg(void **state)
{
	const struct km_machine_config *cfg = *state;
	struct km_fixture *f = g_new0(struct km_fixture, 1);

	km_fixture_up(f, cfg);
	*state = f;
	return 0;
}

static inline int km_fixture_teardown(void **state)
{
	km_fixture_down(*state);
	g_free(*state);
	return 0;
}

/* A cmocka case on a fixture of the machine config @cfg (an object that
 * outlives the run: a static struct km_machine_config). */
#define KM_TEST_CFG(fn, cfg)                                                       \
	cmocka_unit_test_prestate_setup_teardown(fn, km_fixture_setup_cfg,          \
						 km_fixture_teardown, (void *)&(cfg))

/* Counts km_machine_destroy()'s teardown warnings instead of printing them. */
static inline void km_test_count_teardown(const gchar *domain, GLogLevelFlags level,
					  const gchar *message, gpointer counter)
{
	if (strncmp(message, "kmodel teardown: ", 17) == 0)
		++*(int *)counter;
	else	/* not what the test expects: let it show */
		g_log_default_handler(domain, level, message, NULL);
}

/* The "kmodel" domain's log messages captured (g_log_set_handler("kmodel",
 * G_LOG_LEVEL_MASK, km_log_capture, &logged)): how many, and the last
 * one's level and text; printk() of ported code logs there. */
struct km_logged {
	int n;
	GLogLevelFlags level;
	char text[128];
};

static inline void km_log_capture(const gchar *domain, GLogLevelFlags level, const gchar *msg,
				  gpointer arg)
{
	struct km_logged *l = arg;

	(void)domain;
	l->n++;
	l->level = level & G_LOG_LEVEL_MASK;
	g_strlcpy(l->text, msg, sizeof(l->text));
}

/*
 * km_machine_destroy() of a machine a test leaves problems in on purpose:
 * the destroy must find exactly @expected of them, and the g_warning() it
 * logs for each is counted here rather than printed (a passing test binary
 * prints no warnings; ctest fails a test whose output has one).
 */
static inline void km_test_destroy_expecting(struct km_machine *m, int expected)
{
	int warned = 0;
	guint id = g_log_set_handler("kmodel", G_LOG_LEVEL_WARNING, km_test_count_teardown, &warned);
	int found = km_machine_destroy(m);

	g_log_remove_handler("kmodel", id);
	assert_int_equal(found, expected);
	assert_int_equal(warned, expected);
}

/* The variants a sweep runs come from a registry holding the built-ins
 * (kmodel/registry.h), as a tool's or a user's program's do. Free it with
 * km_registry_free(). */
static inline struct km_registry *km_test_registry(void)
{
	struct km_registry *r = NULL;

	assert_int_equal(km_registry_new(KM_REGISTRY_DEFAULT, &r), 0);
	return r;
}

static inline unsigned long km_test_map(struct km_fixture *f, unsigned long addr,
					unsigned long pages, int prot)
{
	unsigned long a;

	assert_int_equal(km_mmap(f->mm, addr, pages * km_page_size(f->m), prot, &a), 0);
	return a;
}

/*
 * Driver code of a test's own that loses a write to writeback, as
 * drivers/xen/gntdev.c before 779055842da5: current, a kernel thread,
 * adopts a fresh address space (kthread_use_mm()), pins a user page of it
 * with get_user_pages_fast(FOLL_WRITE), copies @n bytes of @src into it
 * through the linear map (the layer's memcpy()) and put_page()s it clean.
 * A machine that checks pinned writes reports it (pin_not_dirtied).
 */
static inline void km_test_pinned_write_clean(const void *src, size_t n)
{
	struct km_task *t = km_current();
	struct km_machine *m = km_task_machine(t);
	struct km_mm *mm;
	struct km_page *p;
	unsigned long u;

	if (km_mm_new(m, &mm))
		return;
	if (!km_task_use_mm(t, mm)) {
		if (!km_mmap(mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &u) &&
		    km_get_user_pages_fast(t, u, 1, KM_FOLL_WRITE, &p) == 1) {
			km_kernel_memcpy(km_page_address(m, p), src, n);
			km_put_page(m, p);
		}
		km_task_unuse_mm(t);
	}
	km_mm_put(mm);
}

/*
 * A usbnet device model of a test's own, built from public parts as a
 * user's is: the AX88772 model (km_asix_usbnet_dev_new()) behind a hook
 * that sees each bulk-out packet first -- to file reports, count, look at
 * transfer ends -- before the model parses it. A variant's @dev_new calls
 * km_test_asix_wrap_new() with its hook (the @dev_new signature has no
 * room for one).
 */
struct km_test_asix_wrap;
typedef void (*km_test_packet_hook)(struct km_test_asix_wrap *w, const uint8_t *data,
				    size_t len, bool end);

struct km_test_asix_wrap {
	struct km_machine *m;
	struct km_usbnet_dev inner;	/* the AX88772 model */
	km_test_packet_hook hook;
	bool last_end;			/* the packet before this one ended a transfer */
};

static inline void km_test_asix_wrap_packet(void *priv, const uint8_t *data, size_t len, bool end)
{
	struct km_test_asix_wrap *w = priv;

	w->hook(w, data, len, end);
	w->last_end = end;
	w->inner.sink.packet(w->inner.sink.priv, data, len, end);
}

static inline void km_test_asix_wrap_stats(const void *priv, struct km_usbnet_dev_stats *out,
					   size_t size)
{
	const struct km_test_asix_wrap *w = priv;

	km_usbnet_dev_get_stats_sized(&w->inner, out, size);
}

static inline void km_test_asix_wrap_free(void *priv)
{
	struct km_test_asix_wrap *w = priv;

	km_usbnet_dev_free(&w->inner);
	g_free(w);
}

static inline int km_test_asix_wrap_new(struct km_machine *m, km_usbnet_frame_fn fn, void *arg,
					km_test_packet_hook hook, struct km_usbnet_dev *out)
{
	struct km_test_asix_wrap *w = g_new0(struct km_test_asix_wrap, 1);
	int err = km_asix_usbnet_dev_new(m, fn, arg, &w->inner);

	if (err) {
		g_free(w);
		return err;
	}
	w->m = m;
	w->hook = hook;
	*out = (struct km_usbnet_dev){ .priv = w,
				       .sink = { .packet = km_test_asix_wrap_packet, .priv = w },
				       .get_stats = km_test_asix_wrap_stats,
				       .free = km_test_asix_wrap_free };
	return 0;
}

/*
 * Tables with named rows, as KUnit's KUNIT_ARRAY_PARAM: each row of a
 * table (an array of structs whose first member is `const char *name`)
 * is a cmocka case of its own, named "test(row name)", so a failing row
 * names itself. With km_row_setup()/km_fixture_teardown() each row runs
 * on a fresh default machine and reads its row with km_row(state); with
 * no setup, *state is the row.
 */
struct km_row_fixture {
	struct km_fixture f;	/* first: km_fixture_teardown() frees it */
	const void *row;
};

/* a row's fixture on a machine of @cfg (NULL: the default), for a
 * file's setup of a config its rows share */
static inline int km_row_setup_cfg(void **state, const struct km_machine_config *cfg)
{
	struct km_row_fixture *x = g_new0(struct km_row_fixture, 1);

	x->row = *state;
	km_fixture_up(&x->f, cfg);
	*state = x;
	return 0;
}

static inline int km_row_setup(void **state)
{
	return km_row_setup_cfg(state, NULL);
}

#define km_row(state) (((struct km_row_fixture *)*(state))->row)
#define km_row_fixture(state) (&((struct km_row_fixture *)*(state))->f)

static inline void km_test_add_rows(GArray *tests, const char *test, CMUnitTestFunction fn,
				    CMFixtureFunction setup, CMFixtureFunction teardown,
				    const void *rows, size_t n, size_t size)
{
	for (size_t i = 0; i < n; i++) {
		const void *row = (const char *)rows + i * size;
		char *name = g_strdup_printf("%s(%s)", test, *(const char *const *)row);
		struct CMUnitTest t = { .name = g_intern_string(name), .test_func = fn,
					.setup_func = setup, .teardown_func = teardown,
					.initial_state = (void *)row };

		g_array_append_val(tests, t);
		g_free(name);
	}
}

#define KM_TEST_ROWS(tests, fn, setup, teardown, rows)                                  \
	km_test_add_rows(tests, #fn, fn, setup, teardown, rows, G_N_ELEMENTS(rows),       \
			 sizeof((rows)[0]))

/*
 * The array @all of a group: the fixed cases @fixed (an array), then the
 * rows gathered in @rows (freed here), for cmocka_run_group_tests_name()
 * (a variable-length array: its sizeof is the count the macro takes).
 */
#define KM_TEST_CASES(all, fixed, rows)                                               \
	g_array_prepend_vals(rows, fixed, G_N_ELEMENTS(fixed));                      \
	struct CMUnitTest all[(rows)->len];                                           \
	memcpy(all, (rows)->data, sizeof(all));                                       \
	g_array_free(rows, TRUE)

#define km_test_new_group() g_array_new(FALSE, FALSE, sizeof(struct CMUnitTest))

/*
 * Which of a group's tests run: KM_TEST_ONLY, a comma list of test names,
 * runs only those; KM_TEST_SKIP leaves those out (tests/CMakeLists.txt's
 * km_split_test() registers an executable's exhaustive tests apart, under
 * the label the quick start leaves out). A name that matches no test is an
 * error: a renamed test would silently run in neither half.
 */
static inline const struct CMUnitTest *km_test_select(const struct CMUnitTest *tests, size_t n,
						     size_t *out)
{
	const char *only = g_getenv("KM_TEST_ONLY"), *skip = g_getenv("KM_TEST_SKIP");
	gchar **names = g_strsplit(only ? only : skip ? skip : "", ",", -1);
	/* kept for the process's life, reachable (LeakSanitizer) */
	static struct CMUnitTest *sel;

	sel = g_renew(struct CMUnitTest, sel, n ? n : 1);

	*out = 0;
	for (gchar **p = names; *p; p++) {
		bool found = false;

		for (size_t i = 0; i < n; i++)
			found |= !strcmp(tests[i].name, *p);
		if (**p && !found) {
			fprintf(stderr, "km_test_select: no test \"%s\" in this group\n", *p);
			exit(1);
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!only && !skip ? true :
		    (only != NULL) == g_strv_contains((const gchar *const *)names, tests[i].name))
			sel[(*out)++] = tests[i];
	g_strfreev(names);
	return sel;
}

#undef cmocka_run_group_tests_name
#define cmocka_run_group_tests_name(group_name, group_tests, group_setup, group_teardown)	\
	({ size_t km_n_; const struct CMUnitTest *km_t_ = km_test_select(group_tests,	\
		sizeof(group_tests) / sizeof((group_tests)[0]), &km_n_);			\
	   _cmocka_run_group_tests(group_name, km_t_, km_n_, group_setup, group_teardown); })

/*
 * kmodel-sweep's text report (@sweep @args, one --variant @variant) prints
 * each finding's example as --replay STATE: each, pasted into `@sweep
 * @cmd --variant @variant --replay STATE`, replays a state with that
 * finding. Returns the examples checked.
 */
static inline unsigned int km_test_examples_replay(const char *sweep, const char *cmd,
						   const char *args, const char *variant)
{
	gchar *line = g_strdup_printf("%s %s %s --variant %s", sweep, cmd, args, variant);
	gchar *out = NULL, **lines;
	unsigned int n = 0;
	gint status;

	assert_true(g_spawn_command_line_sync(line, &out, NULL, &status, NULL));
	assert_true(g_spawn_check_wait_status(status, NULL));
	lines = g_strsplit(out, "\n", -1);
	for (gchar **l = lines; *l; l++) {
		gchar rule[64], state[128], *replay, *rout = NULL, *rerr = NULL, *want;
		unsigned long long count;

		if (sscanf(*l, " %63s %llu e.g. --replay %127s", rule, &count, state) != 3)
			continue;
		replay = g_strdup_printf("%s %s --variant %s --replay %s", sweep, cmd, variant,
					 state);
		/* its stderr: the driver's messages, not the test's */
		assert_true(g_spawn_command_line_sync(replay, &rout, &rerr, &status, NULL));
		want = g_strdup_printf(" finding: %s\n", rule);
		if (!g_spawn_check_wait_status(status, NULL) || !strstr(rout, want))
			fail_msg("%s: no \"%s\" in:\n%s", replay, rule, rout);
		n++;
		g_free(want);
		g_free(rerr);
		g_free(rout);
		g_free(replay);
	}
	g_strfreev(lines);
	g_free(out);
	g_free(line);
	return n;
}

#endif
