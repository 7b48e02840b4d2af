// SPDX-License-Identifier: GPL-2.0
/*
 * The KUnit runtime of the compatibility layer's <kunit/test.h> and the
 * runner of a test plugin's suites and initcalls: kmodel/kunit.h.
 * Follows lib/kunit/test.c (mainline): a case runs init, the case, exit;
 * a failed assertion or kunit_skip() ends the case (kunit_try_catch_throw(),
 * here a longjmp() to the runner); the resources it allocated with
 * kunit_kmalloc() are freed after it.
 */
#define _GNU_SOURCE	/* dladdr() */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <string.h>
#include <dlfcn.h>
#include <gmodule.h>
#include <setjmp.h>
#include <stdarg.h>
#include <unistd.h>

struct km_kunit_run {
	jmp_buf catch;
	struct km_machine *m;
	enum km_kunit_status status;
	GString *log;
	char *skip_reason;
	GArray *actions;	/* deferred actions (struct action), oldest first */
	const char *case_name;	/* the "# name: " of its diagnostic lines */
	/* what km_machine_check() found after the last test ("kind code
	 * message"): an earlier case's leak, which the machine (shared by the
	 * suite's cases, as the kernel is) still holds, is that case's only */
	GHashTable *stale;
	/* the case's struct kunit: outside run_case()'s frame, which the
	 * longjmp() of an assertion returns to (a local changed between
	 * setjmp() and longjmp() would be indeterminate after it) */
	struct km_kunit test;
};

/* a deferred action: lib/kunit/resource.c's struct kunit_action_ctx */
struct action {
	km_kunit_action_t *fn;
	void *ctx;
};

struct km_kunit_module {
	GModule *module;
	char *path, *name;
	struct km_kunit_suite *const *suites;
	size_t nsuites;
	const km_initcall_t *initcalls;
	size_t ninitcalls;
	void (*const *exitcalls)(void);
	size_t nexitcalls;
	unsigned int kernel_version;
	km_kunit_progress_fn progress;	/* km_kunit_module_set_progress() */
	void *progress_arg;
	km_kunit_result_fn result;	/* km_kunit_module_set_result() */
	void *result_arg;
};

/* lines of @text into @log, each after @indent ("    " or "    # name: ") */
static void log_lines(GString *log, const char *first, const char *text)
{
	gchar **lines = g_strsplit(text, "\n", -1);

	for (gchar **l = lines; *l; l++) {
		if (!l[1] && !**l && l != lines)
			break;	/* the text's trailing newline */
		g_string_append_printf(log, "%s%s\n", l == lines ? first : "", *l);
	}
	g_strfreev(lines);
}

void km_kunit_log(struct km_kunit *test, const char *fmt, ...)
{
	va_list ap;
	gchar *text, *first;

	if (!test || !test->run)
		return;
	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	first = g_strdup_printf("    # %s: ", test->run->case_name);
	log_lines(test->run->log, first, text);
	g_free(first);
	g_free(text);
}

void km_kunit_abort(struct km_kunit *test)
{
	longjmp(test->run->catch, 1);
}

/* ---- lib/kunit/assert.c's texts (mainline) ---------------------------------- */

#define SUBTEST_INDENT "    "
#define SUBSUBTEST_INDENT "        "

/* is_literal(): is @text the decimal literal of @value ("5" and 5)? */
static bool is_literal(const char *text, long long value)
{
	gchar *s = g_strdup_printf("%lld", value);
	bool ret = strcmp(s, text) == 0;

	g_free(s);
	return ret;
}

char *km_kunit_text_binary_int(const char *left, const char *op, const char *right,
			       long long lv, long long rv)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, SUBTEST_INDENT "Expected %s %s %s, but\n", left, op, right);
	if (!is_literal(left, lv))
		g_string_append_printf(s, SUBSUBTEST_INDENT "%s == %lld (0x%llx)\n", left, lv,
				       (unsigned long long)lv);
	if (!is_literal(right, rv))
		g_string_append_printf(s, SUBSUBTEST_INDENT "%s == %lld (0x%llx)", right, rv,
				       (unsigned long long)rv);
	return g_string_free(s, FALSE);
}

char *km_kunit_text_binary_ptr(const char *left, const char *op, const char *right,
			       const void *lv, const void *rv)
{
	/* %px: the raw address, as many hex digits as a pointer has */
	return g_strdup_printf(SUBTEST_INDENT "Expected %s %s %s, but\n"
			       SUBSUBTEST_INDENT "%s == %0*" G_GINTPTR_MODIFIER "x\n"
			       SUBSUBTEST_INDENT "%s == %0*" G_GINTPTR_MODIFIER "x",
			       left, op, right, left, (int)(2 * sizeof(void *)), (guintptr)lv,
			       right, (int)(2 * sizeof(void *)), (guintptr)rv);
}

/* is_str_literal(): @text is "@value" with its quotes */
static bool is_str_literal(const char *text, const char *value)
{
	size_t len = strlen(text);

	if (len < 2 || text[0] != '"' || text[len - 1] != '"')
		return false;
	return strncmp(text + 1, value, len - 2) == 0;
}

char *km_kunit_text_binary_str(const char *left, const char *op, const char *right,
			       const char *lv, const char *rv)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, SUBTEST_INDENT "Expected %s %s %s, but\n", left, op, right);
	if (!is_str_literal(left, lv))
		g_string_append_printf(s, SUBSUBTEST_INDENT "%s == \"%s\"\n", left, lv);
	if (!is_str_literal(right, rv))
		g_string_append_printf(s, SUBSUBTEST_INDENT "%s == \"%s\"", right, rv);
	return g_string_free(s, FALSE);
}

char *km_kunit_text_unary(const char *cond, bool expect_true)
{
	return g_strdup_printf(SUBTEST_INDENT "Expected %s to be %s, but is %s\n", cond,
			       expect_true ? "true" : "false", expect_true ? "false" : "true");
}

char *km_kunit_text_ptr_not_err(const char *text, const void *ptr)
{
	if (!ptr)
		return g_strdup_printf(SUBTEST_INDENT "Expected %s is not null, but is\n", text);
	return g_strdup_printf(SUBTEST_INDENT "Expected %s is not error, but is: %ld\n", text,
			       (long)(intptr_t)ptr);
}

/* kunit_assert_hexdump() */
static void hexdump(GString *s, const unsigned char *buf, const unsigned char *other, size_t len)
{
	g_string_append(s, SUBSUBTEST_INDENT);
	for (size_t i = 0; i < len; ++i) {
		if (!(i % 16) && i)
			g_string_append(s, "\n" SUBSUBTEST_INDENT);
		if (buf[i] != other[i])
			g_string_append_printf(s, "<%02x>", buf[i]);
		else
			g_string_append_printf(s, " %02x ", buf[i]);
	}
}

char *km_kunit_text_mem(const char *left, const char *op, const char *right, const void *lv,
			const void *rv, size_t size)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, SUBTEST_INDENT "Expected %s %s %s, but\n", left, op, right);
	if (!lv || !rv) {	/* mainline prints the NULL operand's name */
		g_string_append_printf(s, SUBSUBTEST_INDENT "%s is not null, but is\n",
				       !lv ? left : right);
		return g_string_free(s, FALSE);
	}
	g_string_append_printf(s, SUBSUBTEST_INDENT "%s ==\n", left);
	hexdump(s, lv, rv, size);
	g_string_append(s, "\n");
	g_string_append_printf(s, SUBSUBTEST_INDENT "%s ==\n", right);
	hexdump(s, rv, lv, size);
	return g_string_free(s, FALSE);
}

char *km_kunit_text_fail(void)
{
	return g_strdup("");
}

void km_kunit_fail(struct km_kunit *test, enum km_kunit_assert_type type, const char *file,
		   int line, char *text, const char *fmt, ...)
{
	GString *s = g_string_new(NULL);

	/* kunit_assert_prologue() and the format's text (lib/kunit/assert.c) */
	g_string_append_printf(s, "%s FAILED at %s:%d\n",
			       type == KM_KUNIT_ASSERTION ? "ASSERTION" : "EXPECTATION", file, line);
	g_string_append(s, text ? text : "");
	if (fmt) {	/* kunit_assert_print_msg(): "\n%pV"; KUNIT_FAIL's: "%pV" */
		va_list ap;

		va_start(ap, fmt);
		if (text && *text)
			g_string_append_c(s, '\n');
		g_string_append_vprintf(s, fmt, ap);
		va_end(ap);
	}
	free(text);
	test->run->status = KM_KUNIT_FAILURE;
	km_kunit_log(test, "%s", s->str);
	g_string_free(s, TRUE);
	if (type == KM_KUNIT_ASSERTION)
		km_kunit_abort(test);
}

void km_kunit_mark_skipped(struct km_kunit *test, const char *fmt, ...)
{
	va_list ap;

	if (test->run->status == KM_KUNIT_FAILURE)
		return;	/* kunit_mark_skipped() does not hide a failure */
	test->run->status = KM_KUNIT_SKIPPED;
	g_free(test->run->skip_reason);
	va_start(ap, fmt);
	test->run->skip_reason = g_strdup_vprintf(fmt, ap);
	va_end(ap);
}

/* ---- deferred actions (lib/kunit/resource.c, mainline) ------------------------- */

int km_kunit_add_action(struct km_kunit *test, km_kunit_action_t *action, void *ctx)
{
	struct action a = { action, ctx };

	if (!test || !test->run)
		return km_err(-EINVAL, "kunit_add_action: not in a KUnit case");
	/* KUNIT_ASSERT_NOT_NULL_MSG(): ends the case */
	if (!action)
		km_kunit_fail(test, KM_KUNIT_ASSERTION, __FILE__, __LINE__,
			      km_kunit_text_binary_ptr("action", "!=", "NULL", NULL, NULL),
			      "Tried to action a NULL function!");
	/* the kernel's kzalloc() of its record may fail (-ENOMEM, and
	 * kunit_add_action_or_reset() runs the action); here it is host
	 * memory and does not */
	g_array_append_val(test->run->actions, a);
	return 0;
}

/* kunit_find_resource(): the most recent (@action, @ctx), or -1 */
static gint find_action(const struct km_kunit *test, km_kunit_action_t *action, const void *ctx)
{
	const GArray *acts = test->run->actions;

	for (guint i = acts->len; i-- > 0;) {
		const struct action *a = &g_array_index(acts, struct action, i);

		if (a->fn == action && a->ctx == ctx)
			return (gint)i;
	}
	return -1;
}

void km_kunit_remove_action(struct km_kunit *test, km_kunit_action_t *action, void *ctx)
{
	gint i;

	if (test && test->run && (i = find_action(test, action, ctx)) >= 0)
		g_array_remove_index(test->run->actions, (guint)i);
}

void km_kunit_release_action(struct km_kunit *test, km_kunit_action_t *action, void *ctx)
{
	gint i;

	/* removed from the list first, then run (kunit_release_resource()) */
	if (test && test->run && (i = find_action(test, action, ctx)) >= 0) {
		g_array_remove_index(test->run->actions, (guint)i);
		action(ctx);
	}
}

/* lib/kunit/test.c's kfree_action_wrapper: kunit_kmalloc() memory is a
 * deferred kfree() in the same list as the case's own actions */
static void kfree_action(void *p)
{
	km_kfree(km_current(), p);
}

void *km_kunit_kmalloc(struct km_kunit *test, size_t size, unsigned int gfp)
{
	void *p = km_kmalloc(km_current(), size, gfp);

	if (p)
		km_kunit_add_action(test, kfree_action, p);
	return p;
}

void km_kunit_kfree(struct km_kunit *test, const void *p)
{
	if (p && find_action(test, kfree_action, p) >= 0)
		km_kunit_release_action(test, kfree_action, (void *)p);
	else if (p)
		km_report(test->run->m, KM_BUG, KM_R_BAD_KFREE,
			  "kunit_kfree(%p): not allocated by kunit_kmalloc() in this case", p);
}

unsigned long km_kunit_vm_mmap(struct km_kunit *test, unsigned long addr, unsigned long len,
			       unsigned long prot, unsigned long flag, unsigned long offset)
{
	struct km_task *t = km_current();
	unsigned long u;

	(void)test;
	(void)flag;
	(void)offset;
	if (!km_task_mm(t) || km_mmap(km_task_mm(t), addr, len,
				     (int)(prot & (KM_PROT_READ | KM_PROT_WRITE)), &u))
		return 0;
	return u;
}

/* ---- the plugin ------------------------------------------------------------ */

static void *own_symbol(GModule *module, const char *name)
{
	gpointer sym = NULL;
	Dl_info a, b;

	/* a symbol the plugin defines, not libkmodel's (built through the
	 * layer too, it may define the layer's weak symbols itself) */
	if (!g_module_symbol(module, name, &sym) || !sym)
		return NULL;
	if (!dladdr(sym, &a) || !dladdr((void *)km_kunit_module_load, &b) ||
	    a.dli_fbase == b.dli_fbase)
		return NULL;
	return sym;
}

int km_kunit_module_load(const char *path, struct km_kunit_module **out)
{
	struct km_kunit_module *mod;
	void (*sections)(void *const **, size_t *, void *const **, size_t *,
			 void *const **, size_t *);
	const unsigned int *ver;

	if (!out)
		return km_err(-EINVAL, "km_kunit_module_load: out is NULL");
	*out = NULL;
	if (!path || !*path)
		return km_err(-EINVAL, "km_kunit_module_load: no path");
	if (strchr(path, '/') && access(path, F_OK) != 0)
		return km_err(-ENOENT, "%s: no such file", path);
	if (strchr(path, '/') && !g_file_test(path, G_FILE_TEST_IS_REGULAR))
		return km_err(-ELIBBAD, "%s: not a regular file (a plugin is a shared object)",
			      path);
	mod = g_new0(struct km_kunit_module, 1);
	mod->module = g_module_open(path, G_MODULE_BIND_LOCAL);
	if (!mod->module) {
		int err = km_err(-ELIBBAD, "%s: cannot load: %s", path, g_module_error());

		g_free(mod);
		return err;
	}
	mod->path = g_strdup(path);
	sections = own_symbol(mod->module, "kmodel_kunit_sections");
	if (sections)
		sections((void *const **)&mod->suites, &mod->nsuites,
			 (void *const **)&mod->initcalls, &mod->ninitcalls,
			 (void *const **)&mod->exitcalls, &mod->nexitcalls);
	if (!mod->nsuites && !mod->ninitcalls) {
		km_kunit_module_free(mod);
		return km_err(-ENOEXEC, "%s: no kunit_test_suites() and no module_init() (compile "
			      "it through the compatibility layer: <kunit/test.h>, "
			      "<linux/module.h>)", path);
	}
	ver = own_symbol(mod->module, "kmodel_kernel_version");
	mod->kernel_version = ver ? *ver : 0;
	{
		gchar *base = g_path_get_basename(path);
		char *dot = strstr(base, ".so");

		if (dot)
			*dot = '\0';
		mod->name = g_strdup(g_str_has_prefix(base, "lib") ? base + 3 : base);
		g_free(base);
	}
	*out = mod;
	return 0;
}

void km_kunit_module_free(struct km_kunit_module *mod)
{
	if (!mod)
		return;
	if (mod->module)
		g_module_close(mod->module);
	g_free(mod->path);
	g_free(mod->name);
	g_free(mod);
}

struct km_kunit_suite *const *km_kunit_module_suites(const struct km_kunit_module *mod,
						      size_t *n)
{
	*n = mod ? mod->nsuites : 0;
	return mod ? mod->suites : NULL;
}

const km_initcall_t *km_kunit_module_initcalls(const struct km_kunit_module *mod, size_t *n)
{
	*n = mod ? mod->ninitcalls : 0;
	return mod ? mod->initcalls : NULL;
}

unsigned int km_kunit_module_kernel_version(const struct km_kunit_module *mod)
{
	return mod ? mod->kernel_version : 0;
}

const char *km_kunit_module_name(const struct km_kunit_module *mod)
{
	return mod ? mod->name : NULL;
}

/* ---- the runner ------------------------------------------------------------ */

/* printk() of the code under test, into the log of the test that runs
 * (the kernel's log holds it beside KUnit's lines) */
static void log_handler(const gchar *domain, GLogLevelFlags level, const gchar *message,
			gpointer data)
{
	struct km_kunit_run *run = data;

	(void)domain;
	(void)level;
	log_lines(run->log, "    # ", message);
}

static void result_add(const struct km_kunit_module *mod, GArray *res, const char *suite,
		       const char *name, const char *param, int param_index,
		       struct km_kunit_run *run)
{
	struct km_kunit_result r = {
		.suite = g_strdup(suite), .name = g_strdup(name), .param = g_strdup(param),
		.param_index = param_index, .status = run->status,
		.log = g_strdup(run->log->str),
		.skip_reason = g_strdup(run->skip_reason ? run->skip_reason : ""),
	};

	g_array_append_val(res, r);
	if (mod->result)
		mod->result(&r, mod->result_arg);
}

static gchar *report_key(const struct km_report *r)
{
	return g_strdup_printf("%d %d %s", r->kind, r->code, r->message);
}

static void log_report(struct km_kunit_run *run, const struct km_report *r)
{
	g_string_append_printf(run->log, "    # %s: %s %s: %s\n", run->case_name,
			       r->kind == KM_BUG ? "BUG" : "WARN",
			       km_report_code_name(r->code), r->message);
	if (r->kind == KM_BUG)
		run->status = KM_KUNIT_FAILURE;
}

/* after a test: the reports it raised, then the teardown checks' new
 * findings (a leak found at a case's end is that case's), and its BUG
 * reports fail it */
static void collect_reports(struct km_kunit_run *run)
{
	size_t raised = km_report_log_len(run->m), old = 0;
	GHashTable *found = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	for (size_t i = 0; i < raised; i++)
		log_report(run, km_report_get(run->m, i));
	km_machine_check(run->m);
	for (size_t i = raised; i < km_report_log_len(run->m); i++) {
		const struct km_report *r = km_report_get(run->m, i);
		gchar *key = report_key(r);

		if (g_hash_table_contains(run->stale, key))
			old++;
		else
			log_report(run, r);
		g_hash_table_add(found, key);
	}
	/* what the checks found now, the next test finds before it begins */
	g_hash_table_destroy(run->stale);
	run->stale = found;
	if (km_report_count(run->m, KM_R_NONE) > km_report_log_len(run->m))
		g_string_append_printf(run->log, "    # %s: ... %lu reports in all\n",
				       run->case_name, km_report_count(run->m, KM_R_NONE) - old);
	km_reports_clear(run->m);
}

static void run_reset(struct km_kunit_run *run, const char *name)
{
	g_string_truncate(run->log, 0);
	g_free(run->skip_reason);
	run->skip_reason = NULL;
	run->status = KM_KUNIT_SUCCESS;
	run->case_name = name;
}

/* one case, or one parameter of it, in a task of its own */
static void run_case(struct km_kunit_run *run, struct km_kunit_suite *suite,
		     struct km_kunit_case *c, const void *param, int param_index)
{
	struct km_kunit *test = &run->test;
	struct km_task *t = NULL, *prev;
	struct km_mm *mm = NULL;

	if (km_mm_new(run->m, &mm) || km_task_new(run->m, mm, 0, &t)) {
		km_mm_put(mm);
		run->status = KM_KUNIT_FAILURE;
		g_string_append_printf(run->log, "    # %s: cannot make its task: %s\n", c->name,
				       km_last_error());
		return;
	}
	km_mm_put(mm);
	*test = (struct km_kunit){ .name = c->name, .param_value = param,
				   .param_index = param_index, .run = run };
	prev = km_task_switch(t);
	/* kunit_run_case_internal(), then kunit_run_case_cleanup() -- exit
	 * whatever init did -- each under a try-catch of its own */
	if (!setjmp(run->catch)) {
		if (suite->init) {
			int err = suite->init(test);

			if (err) {
				km_kunit_log(test, "failed to initialize: %d", err);
				run->status = KM_KUNIT_FAILURE;
			}
		}
		if (run->status == KM_KUNIT_SUCCESS)
			c->run_case(test);
	}
	if (suite->exit && !setjmp(run->catch))
		suite->exit(test);
	/* kunit_cleanup(): the deferred actions, the last added first, each
	 * under a catch of its own (an assertion in one ends that one) */
	while (run->actions->len) {
		struct action a = g_array_index(run->actions, struct action,
						run->actions->len - 1);

		g_array_set_size(run->actions, run->actions->len - 1);
		if (!setjmp(run->catch))
			a.fn(a.ctx);
	}
	km_task_switch(prev);
	km_task_free(t);
	collect_reports(run);
}

void km_kunit_module_set_progress(struct km_kunit_module *mod, km_kunit_progress_fn fn,
				  void *arg)
{
	if (!mod)
		return;
	mod->progress = fn;
	mod->progress_arg = arg;
}

void km_kunit_module_set_result(struct km_kunit_module *mod, km_kunit_result_fn fn, void *arg)
{
	if (!mod)
		return;
	mod->result = fn;
	mod->result_arg = arg;
}

static void progress(const struct km_kunit_module *mod, const char *suite, const char *name,
		     const char *param)
{
	if (mod->progress)
		mod->progress(suite, name, param, mod->progress_arg);
}

static void run_suite(const struct km_kunit_module *mod, struct km_kunit_run *run,
		      struct km_kunit_suite *suite, GArray *res)
{
	for (struct km_kunit_case *c = suite->test_cases; c && c->run_case; c++) {
		if (!c->generate_params) {
			progress(mod, suite->name, c->name, NULL);
			run_reset(run, c->name);
			run_case(run, suite, c, NULL, 0);
			result_add(mod, res, suite->name, c->name, NULL, 0, run);
			continue;
		}
		/* kunit_run_tests(): each parameter from generate_params(), with
		 * its description (or "param-N") */
		char desc[KM_KUNIT_PARAM_DESC_SIZE];
		int i = 0;

		desc[0] = '\0';
		for (const void *p = c->generate_params(NULL, desc); p;
		     p = c->generate_params(p, desc)) {
			gchar *name;

			i++;
			name = desc[0] ? g_strdup(desc) : g_strdup_printf("param-%d", i - 1);
			progress(mod, suite->name, c->name, name);
			run_reset(run, c->name);
			run_case(run, suite, c, p, i);
			result_add(mod, res, suite->name, c->name, name, i, run);
			g_free(name);
			desc[0] = '\0';
		}
	}
}

int km_kunit_run(struct km_kunit_module *mod, struct km_machine *m,
		 const struct km_uaccess_ops *ops, struct km_kunit_result **res, size_t *nres)
{
	struct km_kunit_run run = { .m = m };
	GArray *out;
	guint handler;
	int failures = 0, err;

	if (!mod || !m || !res || !nres)
		return km_err(-EINVAL, "km_kunit_run: module, machine or result is NULL");
	err = km_machine_set_uaccess(m, ops);
	if (err)
		return err;
	out = g_array_new(FALSE, TRUE, sizeof(struct km_kunit_result));
	run.log = g_string_new(NULL);
	run.actions = g_array_new(FALSE, FALSE, sizeof(struct action));
	run.stale = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	handler = g_log_set_handler("kmodel", G_LOG_LEVEL_MASK, log_handler, &run);
	km_reports_clear(m);
	for (size_t s = 0; s < mod->nsuites; s++) {
		struct km_kunit_suite *suite = mod->suites[s];

		if (suite->suite_init)
			progress(mod, suite->name, "suite_init", NULL);
		if (suite->suite_init && suite->suite_init(suite)) {
			run_reset(&run, suite->name);
			run.status = KM_KUNIT_FAILURE;
			g_string_append_printf(run.log, "    # %s: suite_init failed\n", suite->name);
			result_add(mod, out, suite->name, "suite_init", NULL, 0, &run);
			continue;
		}
		run_suite(mod, &run, suite, out);
		if (suite->suite_exit) {
			progress(mod, suite->name, "suite_exit", NULL);
			suite->suite_exit(suite);
		}
	}
	for (size_t i = 0; i < mod->ninitcalls; i++) {
		struct km_task *t = NULL, *prev;
		struct km_mm *mm = NULL;
		int ret = -ENOMEM;

		/* insmod's context: a process with its address space */
		progress(mod, mod->name, "module_init", NULL);
		run_reset(&run, "module_init");
		if (!km_mm_new(m, &mm) && !km_task_new(m, mm, 0, &t)) {
			prev = km_task_switch(t);
			ret = mod->initcalls[i]();
			if (!ret)
				for (size_t j = 0; j < mod->nexitcalls; j++)
					mod->exitcalls[j]();
			km_task_switch(prev);
		}
		km_mm_put(mm);
		km_task_free(t);
		if (ret) {
			run.status = KM_KUNIT_FAILURE;
			g_string_append_printf(run.log, "    # module_init: returned %d\n", ret);
		}
		collect_reports(&run);
		result_add(mod, out, mod->name, "module_init", NULL, 0, &run);
	}
	g_log_remove_handler("kmodel", handler);
	g_string_free(run.log, TRUE);
	g_free(run.skip_reason);
	g_array_free(run.actions, TRUE);
	g_hash_table_destroy(run.stale);
	km_machine_set_uaccess(m, NULL);
	for (guint i = 0; i < out->len; i++)
		failures += g_array_index(out, struct km_kunit_result, i).status ==
			    KM_KUNIT_FAILURE;
	*nres = out->len;
	*res = (struct km_kunit_result *)g_array_free(out, FALSE);
	return failures;
}

void km_kunit_results_free(struct km_kunit_result *res, size_t nres)
{
	for (size_t i = 0; res && i < nres; i++) {
		g_free((char *)res[i].suite);
		g_free((char *)res[i].name);
		g_free((char *)res[i].param);
		g_free((char *)res[i].log);
		g_free((char *)res[i].skip_reason);
	}
	g_free(res);
}
