// SPDX-License-Identifier: GPL-2.0
/*
 * kmodel-kunit - run the KUnit suites and module_init() tests of a plugin
 * (a kernel test file compiled unchanged through the compatibility layer)
 * on each selected machine x uaccess variant x kmap era, and print KTAP
 * (Documentation/dev-tools/ktap.rst, version 1) or JSON. kmodel/kunit.h
 * runs them; this is its command line.
 */
#define _GNU_SOURCE	/* memfd_create() */
#include "km_tool.h"
#include <kmodel/kmodel.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

struct run {
	const struct km_tool_machine *mach;
	const struct km_uaccess_ops *ops;
	bool kmap_local;
	/* its tests, in the order they run: res[0..ndone) ended, res[ndone]
	 * is the one its process died in when crashed_test, the rest did not
	 * run (a run that finished: ndone == nres) */
	struct km_kunit_result *res;
	size_t nres, ndone;
	bool crashed_test;
	int failures;
	char *why;	/* how its process ended if not by finishing: NULL when it did */
	char *crash;	/* why, and the test it was in */
};

static const char *run_era(const struct run *r)
{
	return r->kmap_local ? "5.11" : "pre-5.11";
}

static gchar *run_name(const struct run *r)
{
	return g_strdup_printf("%s.%s.kmap-%s", r->mach->name, r->ops->name, run_era(r));
}

enum test_state { TEST_ENDED, TEST_CRASHED, TEST_NOT_RUN };

static enum test_state test_state(const struct run *r, size_t k)
{
	if (k < r->ndone)
		return TEST_ENDED;
	return k == r->ndone && r->crashed_test ? TEST_CRASHED : TEST_NOT_RUN;
}

/* a result's KTAP line: "ok N name" [# SKIP reason] */
static void ktap_result(FILE *out, const char *indent, size_t n, const char *name,
			enum km_kunit_status st, const char *skip)
{
	fprintf(out, "%s%s %zu %s", indent, st == KM_KUNIT_FAILURE ? "not ok" : "ok", n, name);
	if (st == KM_KUNIT_SKIPPED)
		fprintf(out, " # SKIP%s%s", *skip ? " " : "", skip);
	fputc('\n', out);
}

/* The test a run's process died in: "not ok" with the directive of
 * Documentation/dev-tools/ktap.rst (mainline) for a test that timed out
 * (TIMEOUT) or whose execution failed (ERROR), the signal after it */
static void ktap_crashed(FILE *out, const char *indent, size_t n, const char *name,
			 const struct run *r)
{
	const char *timed_out = "timed out ";

	if (g_str_has_prefix(r->why, timed_out))
		fprintf(out, "%snot ok %zu %s # TIMEOUT %s\n", indent, n, name,
			r->why + strlen(timed_out));
	else
		fprintf(out, "%snot ok %zu %s # ERROR %s\n", indent, n, name, r->why);
}

/* the log, each line under @indent ("    # ..." lines come indented) */
static void ktap_log(FILE *out, const char *indent, const char *log)
{
	gchar **lines = g_strsplit(log, "\n", -1);

	for (gchar **l = lines; *l; l++)
		if (**l)
			fprintf(out, "%s%s\n", indent, *l);
	g_strfreev(lines);
}

/* One run: a subtest per suite (a case with parameters: a subtest of its
 * parameters), in KUnit's layout (lib/kunit/test.c, mainline) one level
 * down, with the pass/fail/skip totals lines. In a run whose process died,
 * a test that did not run keeps its place in its plan with a "# NAME: not
 * run" line but no result line: tools/testing/kunit/kunit_parser.py
 * (mainline) reads a subtest its plan promised and that never came as
 * crashed ("missing expected subtest!"), as after an oops. */
static void ktap_run(FILE *out, size_t n, const struct run *r)
{
	gchar *name = run_name(r);
	size_t nsuites = 0, i = 0;
	unsigned int tot[3] = { 0 };

	for (size_t k = 0; k < r->nres; k++)
		if (!k || strcmp(r->res[k].suite, r->res[k - 1].suite))
			nsuites++;
	fprintf(out, "    KTAP version 1\n    # Subtest: %s\n", name);
	fprintf(out, "    # machine %s, uaccess variant %s, kmap era %s\n", r->mach->name,
		r->ops->name, run_era(r));
	if (r->crash)
		fprintf(out, "    # %s: crashed: %s\n", name, r->crash);
	fprintf(out, "    1..%zu\n", nsuites);
	for (size_t s = 1; i < r->nres; s++) {
		const char *suite = r->res[i].suite;
		size_t end = i, ncases = 0;
		unsigned int cnt[3] = { 0 };
		bool suite_fail = false;

		while (end < r->nres && !strcmp(r->res[end].suite, suite))
			end++;
		if (test_state(r, i) == TEST_NOT_RUN) {	/* (so are the others) */
			fprintf(out, "    # %s: not run\n", suite);
			i = end;
			continue;
		}
		for (size_t k = i; k < end; k++)
			if (!r->res[k].param_index || r->res[k].param_index == 1)
				ncases++;
		fprintf(out, "        KTAP version 1\n        # Subtest: %s\n        1..%zu\n",
			suite, ncases);
		for (size_t k = i, c = 1; k < end; c++) {
			const struct km_kunit_result *x = &r->res[k];

			if (!x->param_index) {
				k++;
				if (test_state(r, k - 1) == TEST_NOT_RUN) {
					fprintf(out, "        # %s: not run\n", x->name);
					continue;
				}
				if (test_state(r, k - 1) == TEST_CRASHED) {
					ktap_crashed(out, "        ", c, x->name, r);
					cnt[KM_KUNIT_FAILURE]++;
					suite_fail = true;
					continue;
				}
				ktap_log(out, "    ", x->log);
				ktap_result(out, "        ", c, x->name, x->status, x->skip_reason);
				cnt[x->status]++;
				suite_fail |= x->status == KM_KUNIT_FAILURE;
				continue;
			}
			/* a parameterised case: its parameters' subtest (no
			 * plan when its process died in one: how many would
			 * have come is not known) */
			size_t pend = k;
			enum km_kunit_status st = KM_KUNIT_SKIPPED;

			while (pend < end && !strcmp(r->res[pend].name, x->name) &&
			       r->res[pend].param_index)
				pend++;
			fprintf(out, "            KTAP version 1\n            # Subtest: %s\n",
				x->name);
			if (test_state(r, pend - 1) == TEST_ENDED)
				fprintf(out, "            1..%zu\n", pend - k);
			for (size_t p = k; p < pend; p++) {
				if (test_state(r, p) == TEST_CRASHED) {
					ktap_crashed(out, "            ",
						     (size_t)r->res[p].param_index,
						     r->res[p].param, r);
					cnt[KM_KUNIT_FAILURE]++;
					st = KM_KUNIT_FAILURE;
					continue;
				}
				ktap_log(out, "        ", r->res[p].log);
				ktap_result(out, "            ", (size_t)r->res[p].param_index,
					    r->res[p].param, r->res[p].status,
					    r->res[p].skip_reason);
				cnt[r->res[p].status]++;
				if (r->res[p].status == KM_KUNIT_FAILURE)
					st = KM_KUNIT_FAILURE;
				else if (r->res[p].status == KM_KUNIT_SUCCESS &&
					 st == KM_KUNIT_SKIPPED)
					st = KM_KUNIT_SUCCESS;
			}
			ktap_result(out, "        ", c, x->name, st, "");
			suite_fail |= st == KM_KUNIT_FAILURE;
			k = pend;
		}
		fprintf(out, "        # %s: pass:%u fail:%u skip:%u total:%u\n", suite,
			cnt[KM_KUNIT_SUCCESS], cnt[KM_KUNIT_FAILURE], cnt[KM_KUNIT_SKIPPED],
			cnt[0] + cnt[1] + cnt[2]);
		for (int k = 0; k < 3; k++)
			tot[k] += cnt[k];
		ktap_result(out, "    ", s, suite, suite_fail ? KM_KUNIT_FAILURE : KM_KUNIT_SUCCESS,
			    "");
		i = end;
	}
	fprintf(out, "    # Totals: pass:%u fail:%u skip:%u total:%u\n", tot[KM_KUNIT_SUCCESS],
		tot[KM_KUNIT_FAILURE], tot[KM_KUNIT_SKIPPED], tot[0] + tot[1] + tot[2]);
	ktap_result(out, "", n, name, r->failures ? KM_KUNIT_FAILURE : KM_KUNIT_SUCCESS, "");
	g_free(name);
}

static const char *const status_names[] = { "pass", "fail", "skip" };

/* one test's JSON object: @status "pass", "fail", "skip" or "not_run";
 * @error how its run's process died in it, or NULL */
static void json_test(JsonBuilder *b, const struct km_kunit_result *x, const char *status,
		      const char *error)
{
	json_builder_begin_object(b);
	km_tool_json_str(b, "suite", x->suite);
	km_tool_json_str(b, "case", x->name);
	km_tool_json_str(b, "param", x->param);
	json_builder_set_member_name(b, "param_index");
	json_builder_add_int_value(b, x->param_index);
	km_tool_json_str(b, "status", status);
	km_tool_json_str(b, "skip_reason", x->skip_reason);
	km_tool_json_str(b, "log", x->log);
	km_tool_json_str(b, "error", error);
	json_builder_end_object(b);
}

/* one run's JSON object */
static JsonNode *json_run(const struct run *r)
{
	JsonBuilder *b = json_builder_new();
	JsonNode *node;

	json_builder_begin_object(b);
	km_tool_json_str(b, "machine", r->mach->name);
	km_tool_json_str(b, "variant", r->ops->name);
	km_tool_json_str(b, "kmap", run_era(r));
	json_builder_set_member_name(b, "failures");
	json_builder_add_int_value(b, r->failures);
	km_tool_json_str(b, "error", r->crash);
	json_builder_set_member_name(b, "tests");
	json_builder_begin_array(b);
	for (size_t k = 0; k < r->nres; k++) {
		enum test_state st = test_state(r, k);

		json_test(b, &r->res[k],
			  st == TEST_NOT_RUN ? "not_run" :
			  st == TEST_CRASHED ? "fail" : status_names[r->res[k].status],
			  st == TEST_CRASHED ? r->why : NULL);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	node = json_builder_get_root(b);
	g_object_unref(b);
	return node;
}

static void json_runs(FILE *out, const char *plugin, const struct run *runs, size_t nruns,
		      int argc, char **argv)
{
	JsonBuilder *b = json_builder_new();
	JsonNode *root;

	json_builder_begin_object(b);
	km_tool_json_metadata(b, "kmodel-kunit", argc, argv);
	km_tool_json_str(b, "plugin", plugin);
	json_builder_set_member_name(b, "runs");
	json_builder_begin_array(b);
	for (size_t i = 0; i < nruns; i++)
		json_builder_add_value(b, json_run(&runs[i]));
	json_builder_end_array(b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	km_tool_print_json(out, root);
	json_node_unref(root);
	g_object_unref(b);
}

/* Which test the child is in, where its parent reads it once it crashed
 * or hung (a page shared with it): the names of kmodel/kunit.h's
 * km_kunit_progress_fn, cut to fit; param "" when it has none */
struct running {
	char suite[256];	/* struct kunit_suite's name[256] */
	char name[256];
	char param[KM_KUNIT_PARAM_DESC_SIZE];
};

/* The run, in a child process (km_tool_isolated(): a suite that crashes
 * or hangs ends that run only). It writes lines of JSON to the file
 * @stream, shared with the parent (a pipe would fill while the parent
 * waits): first the plan of the tests (send_plan()), then each test's
 * result as it ends; at the end it sends its failures and the number of
 * results. */
struct child_job {
	struct run *r;
	struct km_kunit_module *mod;
	struct running *running;	/* shared with the parent (NULL: none) */
	int stream;			/* -1: none */
};

static void note_running(const char *suite, const char *name, const char *param, void *arg)
{
	struct running *p = arg;

	g_strlcpy(p->suite, suite, sizeof(p->suite));
	g_strlcpy(p->name, name, sizeof(p->name));
	g_strlcpy(p->param, param ? param : "", sizeof(p->param));
}

/* one line of JSON to the parent's stream; a failed write loses the line
 * (the parent counts what it got) */
static void send_line(const struct child_job *j, JsonBuilder *b)
{
	JsonNode *node = json_builder_get_root(b);
	gchar *line = json_to_string(node, FALSE);	/* one line: "\n" is escaped */
	GString *s = g_string_new(line);

	g_string_append_c(s, '\n');
	for (gsize off = 0; off < s->len;) {
		ssize_t w = write(j->stream, s->str + off, s->len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (gsize)w;
	}
	g_string_free(s, TRUE);
	g_free(line);
	json_node_unref(node);
}

/* The tests km_kunit_run() will run, from the plugin's tables, read here
 * in the child: a table the plugin got wrong (a case array without its
 * {} end) ends the child, never the parent. {"plan": {"module": NAME,
 * "initcalls": N, "suites": [{"name": S, "cases": [C, ...]}, ...]}} */
static void send_plan(const struct child_job *j)
{
	JsonBuilder *b = json_builder_new();
	struct km_kunit_suite *const *suites;
	size_t nsuites, ninit;

	suites = km_kunit_module_suites(j->mod, &nsuites);
	km_kunit_module_initcalls(j->mod, &ninit);
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "plan");
	json_builder_begin_object(b);
	km_tool_json_str(b, "module", km_kunit_module_name(j->mod));
	json_builder_set_member_name(b, "initcalls");
	json_builder_add_int_value(b, (gint64)ninit);
	json_builder_set_member_name(b, "suites");
	json_builder_begin_array(b);
	for (size_t i = 0; i < nsuites; i++) {
		json_builder_begin_object(b);
		km_tool_json_str(b, "name", suites[i]->name);
		json_builder_set_member_name(b, "cases");
		json_builder_begin_array(b);
		for (const struct km_kunit_case *c = suites[i]->test_cases; c && c->run_case; c++)
			json_builder_add_string_value(b, c->name ? c->name : "");
		json_builder_end_array(b);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	json_builder_end_object(b);
	send_line(j, b);
	g_object_unref(b);
}

static void send_result(const struct km_kunit_result *x, void *arg)
{
	JsonBuilder *b = json_builder_new();

	json_test(b, x, status_names[x->status], NULL);
	send_line(arg, b);
	g_object_unref(b);
}

static int run_child(void *arg, GByteArray *out)
{
	struct child_job *j = arg;
	struct run *r = j->r;
	struct km_machine_config cfg = r->mach->cfg;
	struct km_machine *m;
	int sent[2];

	if (r->kmap_local)
		cfg.kmap = KM_KMAP_LOCAL;
	if (j->running)
		km_kunit_module_set_progress(j->mod, note_running, j->running);
	if (j->stream >= 0) {
		send_plan(j);
		km_kunit_module_set_result(j->mod, send_result, j);
	}
	if (km_machine_new(&cfg, &m)) {
		fprintf(stderr, "kmodel-kunit: machine %s: %s\n", r->mach->name, km_last_error());
		return 3;
	}
	/* as in kmodel-check (the conformance suite): a page pinned with
	 * FOLL_WRITE, written and released clean loses the write
	 * (drivers/xen/gntdev.c before 779055842da5, v5.9) */
	km_check_pinned_writes(m, true);
	r->failures = km_kunit_run(j->mod, m, r->ops, &r->res, &r->nres);
	if (r->failures < 0) {
		fprintf(stderr, "kmodel-kunit: %s\n", km_last_error());
		return 3;
	}
	km_machine_destroy(m);
	sent[0] = r->failures;
	sent[1] = (int)r->nres;
	g_byte_array_append(out, (const guint8 *)sent, sizeof(sent));
	return 0;
}

/* a streamed line back into a result (its strings g_strdup()ed) */
static bool result_from_json(const char *line, struct km_kunit_result *x)
{
	JsonNode *node = json_from_string(line, NULL);
	JsonObject *o;
	const char *st;
	bool ok = false;

	if (!node || !JSON_NODE_HOLDS_OBJECT(node) ||
	    !json_object_has_member(json_node_get_object(node), "status"))
		goto out;
	o = json_node_get_object(node);
	st = json_object_get_string_member_with_default(o, "status", "");
	*x = (struct km_kunit_result){
		.suite = g_strdup(json_object_get_string_member_with_default(o, "suite", "")),
		.name = g_strdup(json_object_get_string_member_with_default(o, "case", "")),
		.param = json_object_get_null_member(o, "param") ? NULL :
			 g_strdup(json_object_get_string_member_with_default(o, "param", "")),
		.param_index = (int)json_object_get_int_member_with_default(o, "param_index", 0),
		.status = !strcmp(st, "fail") ? KM_KUNIT_FAILURE :
			  !strcmp(st, "skip") ? KM_KUNIT_SKIPPED : KM_KUNIT_SUCCESS,
		.log = g_strdup(json_object_get_string_member_with_default(o, "log", "")),
		.skip_reason = g_strdup(json_object_get_string_member_with_default(
			o, "skip_reason", "")),
	};
	ok = true;
out:
	if (node)
		json_node_unref(node);
	return ok;
}

/* What the child streamed to @fd, whole lines only (a line cut by its
 * death is not one): its plan (*@plan, NULL if none came; json_node_unref())
 * and its results */
static GArray *read_stream(int fd, JsonNode **plan)
{
	GArray *res = g_array_new(FALSE, TRUE, sizeof(struct km_kunit_result));
	GString *all = g_string_new(NULL);
	char buf[65536];
	ssize_t n;

	*plan = NULL;
	while (fd >= 0 && (n = pread(fd, buf, sizeof(buf), (off_t)all->len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		g_string_append_len(all, buf, n);
	}
	for (char *line = all->str, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		struct km_kunit_result x;
		JsonNode *node;

		*nl = '\0';
		if (result_from_json(line, &x)) {
			g_array_append_val(res, x);
		} else if (!*plan && (node = json_from_string(line, NULL))) {
			if (JSON_NODE_HOLDS_OBJECT(node) &&
			    json_object_has_member(json_node_get_object(node), "plan"))
				*plan = node;
			else
				json_node_unref(node);
		}
	}
	g_string_free(all, TRUE);
	return res;
}

static void add_test(GArray *res, const char *suite, const char *name, const char *param,
		     int param_index)
{
	struct km_kunit_result x = {
		.suite = g_strdup(suite), .name = g_strdup(name), .param = g_strdup(param),
		.param_index = param_index, .status = KM_KUNIT_FAILURE,
		.log = g_strdup(""), .skip_reason = g_strdup(""),
	};

	g_array_append_val(res, x);
}

static bool same_test(const struct km_kunit_result *x, const struct running *p)
{
	return !strcmp(x->suite, p->suite) && !strcmp(x->name, p->name) &&
	       !strcmp(x->param ? x->param : "", p->param);
}

/* the string @i of JSON array @a, "" when it is none */
static const char *plan_str(JsonArray *a, guint i)
{
	JsonNode *n = json_array_get_element(a, i);

	return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_string(n) ?
	       json_node_get_string(n) : "";
}

/* A run whose process died: its tests in the order km_kunit_run() runs
 * them (lib/kunit/test.c's, then the initcalls), from the @plan the child
 * sent (NULL: none came): those that ended (@done), the one it died in
 * (@p, unless it had ended), then the rest (a parameterised case not run
 * is one test: how many parameters its generator gives is not known) */
static void plan_crashed(struct run *r, JsonNode *plan, GArray *done, const struct running *p)
{
	const struct km_kunit_result *d = (const struct km_kunit_result *)done->data;
	bool pending = p && p->suite[0] && !(done->len && same_test(&d[done->len - 1], p));
	GArray *res = g_array_new(FALSE, TRUE, sizeof(struct km_kunit_result));
	JsonObject *po = plan ? json_object_get_object_member(json_node_get_object(plan), "plan")
			      : NULL;
	JsonArray *suites = po && json_object_has_member(po, "suites") ?
			    json_object_get_array_member(po, "suites") : NULL;
	const char *mname = po ? json_object_get_string_member_with_default(po, "module", "") : "";
	gint64 ninit = po ? json_object_get_int_member_with_default(po, "initcalls", 0) : 0;
	size_t k = 0;

	/* a test not seen: not run when no ended test and no crash is after it */
#define NOT_SEEN(suite, name) do {						\
		if (k == done->len && !pending)					\
			add_test(res, suite, name, NULL, 0);			\
	} while (0)
#define CRASHED_HERE(suite, name, idx) do {					\
		r->ndone = res->len;						\
		r->crashed_test = true;						\
		pending = false;						\
		add_test(res, suite, name, p->param[0] ? p->param : NULL, idx);	\
	} while (0)
	for (guint s = 0; suites && s < json_array_get_length(suites); s++) {
		JsonObject *so = json_array_get_object_element(suites, s);
		JsonArray *cases = so && json_object_has_member(so, "cases") ?
				   json_object_get_array_member(so, "cases") : NULL;
		const char *suite = so ? json_object_get_string_member_with_default(so, "name", "")
				       : "";

		if (pending && !strcmp(p->suite, suite) && !strcmp(p->name, "suite_init"))
			CRASHED_HERE(suite, "suite_init", 0);
		if (k < done->len && !strcmp(d[k].suite, suite) && !strcmp(d[k].name, "suite_init")) {
			g_array_append_val(res, d[k]);	/* it failed: no case ran */
			k++;
			continue;
		}
		for (guint c = 0; cases && c < json_array_get_length(cases); c++) {
			const char *name = plan_str(cases, c);
			int nparams = 0;

			/* its result, or its parameters' (1, 2, ...): two cases
			 * of one name are two tests */
			for (; k < done->len && !strcmp(d[k].suite, suite) && !strcmp(d[k].name, name) &&
			       (!nparams || d[k].param_index == nparams + 1);
			     k++, nparams++)
				g_array_append_val(res, d[k]);
			if (pending && !strcmp(p->suite, suite) && !strcmp(p->name, name))
				CRASHED_HERE(suite, name, p->param[0] ? nparams + 1 : 0);
			else if (!nparams)
				NOT_SEEN(suite, name);
		}
		if (pending && !strcmp(p->suite, suite))	/* its exit, say */
			CRASHED_HERE(suite, p->name, 0);
	}
	for (gint64 i = 0; i < ninit; i++) {
		if (k < done->len && !strcmp(d[k].name, "module_init"))
			g_array_append_val(res, d[k++]);
		else if (pending && !strcmp(p->name, "module_init"))
			CRASHED_HERE(mname, "module_init", 0);
		else
			NOT_SEEN(mname, "module_init");
	}
	/* what the plan does not hold (none came), then the test it died in */
	for (; k < done->len; k++)
		g_array_append_val(res, d[k]);
	if (pending)
		CRASHED_HERE(p->suite, p->name, 0);
#undef NOT_SEEN
#undef CRASHED_HERE
	if (!r->crashed_test)
		r->ndone = k;
	g_array_set_size(done, 0);	/* its strings are res's now */
	r->nres = res->len;
	r->res = (struct km_kunit_result *)g_array_free(res, FALSE);
}

/* run @r in a child; fills its results, and why and crash if it died */
static void run_isolated(struct run *r, struct km_kunit_module *mod, double timeout)
{
	struct running *running = mmap(NULL, sizeof(*running), PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int stream = memfd_create("kmodel-kunit results", MFD_CLOEXEC);
	int status, sent[2] = { 0, 0 }, stream_err = stream < 0 ? errno : 0;
	struct child_job j = { r, mod, running == MAP_FAILED ? NULL : running, stream };
	GByteArray *got = g_byte_array_new();
	gchar *failure = NULL;
	JsonNode *plan = NULL;
	GArray *done;

	if (j.running)
		j.running->suite[0] = '\0';
	status = km_tool_isolated(timeout, run_child, &j, got, &failure);
	done = read_stream(j.stream, &plan);
	if (got->len == sizeof(sent))
		memcpy(sent, got->data, sizeof(sent));
	if (failure && g_str_has_prefix(failure, "timed out"))	/* kmodel-kunit's words */
		r->why = g_strdup_printf("timed out after %g s (--timeout): killed", timeout);
	else if (failure)	/* "crashed: killed by signal ..." */
		r->why = g_strdup(g_str_has_prefix(failure, "crashed: ") ?
				  failure + strlen("crashed: ") : failure);
	else if (status)
		r->why = g_strdup_printf("its process exited with status %d", status);
	else if (j.stream < 0)
		r->why = g_strdup_printf("its results could not come back: memfd_create: %s",
					 g_strerror(stream_err));
	else if (got->len != sizeof(sent))
		r->why = g_strdup("its process sent back no result");
	else if (sent[1] < 0 || (guint)sent[1] != done->len)
		r->why = g_strdup_printf("%u of its %d results came back", done->len, sent[1]);
	if (r->why) {
		plan_crashed(r, plan, done, j.running);
		r->failures = 1;
		for (size_t k = 0; k < r->ndone; k++)
			r->failures += r->res[k].status == KM_KUNIT_FAILURE;
		if (j.running && j.running->suite[0]) {	/* name the test it died in */
			r->crash = g_strdup_printf("%s, in %s.%s%s%s%s", r->why, j.running->suite,
						   j.running->name, j.running->param[0] ? " (" : "",
						   j.running->param,
						   j.running->param[0] ? ")" : "");
		} else {
			r->crash = g_strdup(r->why);
		}
	} else {
		r->failures = sent[0];
		r->nres = r->ndone = done->len;
		r->res = (struct km_kunit_result *)g_array_free(done, FALSE);
		done = NULL;
	}
	if (done)
		km_kunit_results_free((struct km_kunit_result *)g_array_free(done, FALSE), 0);
	if (plan)
		json_node_unref(plan);
	if (j.stream >= 0)
		close(j.stream);
	if (j.running)
		munmap(j.running, sizeof(*j.running));
	g_free(failure);
	g_byte_array_free(got, TRUE);
}

/* km_tool_try_load()'s load of the suite (in the child, left loaded) */
static int try_suite(struct km_registry *reg, const char *path)
{
	struct km_kunit_module *mod;

	(void)reg;
	return km_kunit_module_load(path, &mod);
}

int main(int argc, char **argv)
{
	gboolean version = FALSE, json = FALSE;
	gdouble timeout = 600;
	gchar **variant_opt = NULL, **machine_opt = NULL, **load = NULL, *kmap = NULL, *output = NULL;
	char **variants = NULL, **mnames = NULL;
	GOptionEntry entries[] = {
		KM_TOOL_VARIANT_ENTRY(&variant_opt, "uaccess variants the layer's "
				      "copy_{from,to}_user() family runs through"),
		{ "machine", 0, 0, G_OPTION_ARG_STRING_ARRAY, &machine_opt,
		  "machines: bbw (no fast GUP, all lowmem; the default) and a15 (fast GUP, user "
		  "pages in highmem)", "NAME[,NAME]" },
		{ "kmap", 0, 0, G_OPTION_ARG_STRING, &kmap,
		  "kmap era of the machines: pre-5.11 or 5.11 (default: 5.11 for a plugin built "
		  "at KMODEL_KERNEL_VERSION 5.11 or later, else pre-5.11)", "ERA" },
		KM_TOOL_LOAD_ENTRY(&load),
		{ "timeout", 0, 0, G_OPTION_ARG_DOUBLE, &timeout,
		  "Seconds a run (a machine x variant x era: a process of its own) may take "
		  "before it is killed and reported failed, and the trial load of PLUGIN.so "
		  "and of each --load plugin (default 600; 0: no limit)", "S" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, "Write JSON instead of KTAP", NULL },
		KM_TOOL_OUTPUT_ENTRY(&output),
		KM_TOOL_VERSION_ENTRY(&version),
		{ 0 }
	};
	GOptionContext *ctx;
	GError *error = NULL;
	struct km_registry *reg = NULL;
	struct km_kunit_module *mod = NULL;
	GArray *runs;
	GPtrArray *ops = g_ptr_array_new();
	GPtrArray *mach = g_ptr_array_new();
	FILE *out;
	int status = 2, failures = 0;
	bool kmap_local;
	const struct km_tool_machine *machines;
	size_t nmach;

	int argc0 = argc;
	char **argv0 = g_strdupv(argv);

	km_tool_init();
	ctx = g_option_context_new("PLUGIN.so - run a KUnit suite built as a plugin");
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"PLUGIN.so is a kernel test file compiled unchanged through the compatibility\n"
		"layer (kmodel_kernel_sources(), <kunit/test.h>, module_init()) into a shared\n"
		"object that links libkmodel.so. Each of its suites' cases runs in a task with\n"
		"an address space of its own; copy_from_user(), copy_to_user(), clear_user(),\n"
		"get_user(), put_user(), strncpy_from_user() and strnlen_user() of the layer\n"
		"run the variant of the run (what a variant lacks runs direct's: said on\n"
		"stderr). A case fails on a failed expectation or assertion and on a BUG\n"
		"report of its machine (sleeping in atomic context, a leaked pin, ...).\n"
		"A module_init() function passes when it returns 0 without a BUG.\n"
		"Output: KTAP version 1, one subtest per machine x variant x kmap era, its\n"
		"suites below it; --json the same as JSON. A run runs in a process of its\n"
		"own: when a test crashes it or hangs past --timeout, the tests that ended\n"
		"before are listed, the one it died in is \"not ok N name # ERROR signal\"\n"
		"(# TIMEOUT), the others keep their place in the plans, without a result\n"
		"line, under \"# name: not run\" (JSON: status \"not_run\").\n"
		"PLUGIN.so's load (its constructors) and each --load plugin's (KM_PLUGIN_INIT)\n"
		"are tried first in a process of their own, within --timeout: a load that\n"
		"crashes or hangs is named (\"kmodel-kunit: PLUGIN.so: its load (constructors)\n"
		"crashed: killed by signal 11 (Segmentation fault)\"), exit status 2.\n"
		"docs/kunit.md: running your own suite from the installed package.\n"
		"\n"
		"Exit status: 0 all passed or skipped, 1 a test failed or a run crashed or\n"
		"timed out, 2 bad usage or a plugin that cannot be loaded (or whose load\n"
		"crashes or hangs).");
	if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
		fprintf(stderr, "kmodel-kunit: %s\n", error->message);
		g_error_free(error);
		goto out;
	}
	if (version) {
		km_tool_print_version("kmodel-kunit");
		status = 0;
		goto out;
	}
	if (argc != 2) {
		fprintf(stderr, "kmodel-kunit: want one PLUGIN.so (see --help)\n");
		goto out;
	}
	if (kmap && strcmp(kmap, "5.11") && strcmp(kmap, "pre-5.11")) {
		fprintf(stderr, "kmodel-kunit: --kmap: want pre-5.11 or 5.11, got \"%s\"\n", kmap);
		goto out;
	}
	/* (before the loads it bounds) */
	if (!(timeout >= 0)) {
		fprintf(stderr, "kmodel-kunit: --timeout: want seconds >= 0, got %g\n", timeout);
		goto out;
	}
	if (km_tool_split_names("kmodel-kunit", "variant", variant_opt, &variants) ||
	    km_tool_split_names("kmodel-kunit", "machine", machine_opt, &mnames))
		goto out;
	reg = km_tool_registry("kmodel-kunit", load, timeout);
	if (!reg)
		goto out;
	if (variants) {
		for (char **v = variants; *v; v++) {
			const struct km_uaccess_ops *o = km_registry_find_uaccess(reg, *v);

			if (!o) {
				km_tool_unknown_variant("kmodel-kunit", reg, false, *v);
				goto out;
			}
			g_ptr_array_add(ops, (gpointer)o);
		}
	} else {
		for (const struct km_uaccess_ops *const *v = km_registry_uaccess(reg); *v; v++)
			g_ptr_array_add(ops, (gpointer)*v);
	}
	machines = km_tool_machines(&nmach);
	for (char **n = mnames; n && *n; n++) {
		size_t i;

		for (i = 0; i < nmach && strcmp(machines[i].name, *n); i++)
			;
		if (i == nmach) {
			const char **known = g_newa(const char *, nmach);

			for (i = 0; i < nmach; i++)
				known[i] = machines[i].name;
			km_tool_unknown("kmodel-kunit", "machine", *n, known, nmach);
			goto out;
		}
		g_ptr_array_add(mach, (gpointer)&machines[i]);
	}
	if (!mach->len)
		g_ptr_array_add(mach, (gpointer)&machines[0]);
	/* the suite's constructors run at its load, in the tool: tried in a
	 * child first, as a --load plugin's entry point */
	if (!km_tool_try_load("kmodel-kunit", (char *[]){ argv[1], NULL }, "constructors",
			      try_suite, timeout))
		goto out;
	if (km_kunit_module_load(argv[1], &mod)) {
		bool bare = !strchr(argv[1], '/');

		fprintf(stderr, "kmodel-kunit: %s%s\n", km_last_error(),
			bare ? " (a plugin in the current directory needs a path: ./NAME.so)" : "");
		goto out;
	}
	/* the era the plugin was written for, unless --kmap says */
	kmap_local = kmap ? !strcmp(kmap, "5.11")
			  : km_tool_kmap_local(km_kunit_module_kernel_version(mod));
	for (guint v = 0; v < ops->len; v++) {
		const struct km_uaccess_ops *o = g_ptr_array_index(ops, v);
		const char *fb = km_registry_fallbacks(reg, o);

		/* (a plugin's without a raw copy: km_tool_registry() said it) */
		if (fb && (!strstr(fb, "raw_copy_") || km_registry_builtin(reg, o)))
			fprintf(stderr, "kmodel-kunit: uaccess variant %s runs direct's for: %s\n",
				o->name, fb);
	}
	out = km_tool_open_output("kmodel-kunit", output);
	if (!out)
		goto out;
	runs = g_array_new(FALSE, TRUE, sizeof(struct run));
	for (guint mi = 0; mi < mach->len; mi++) {
		for (guint v = 0; v < ops->len; v++) {
			struct run r = { .mach = g_ptr_array_index(mach, mi),
					 .ops = g_ptr_array_index(ops, v), .kmap_local = kmap_local };

			run_isolated(&r, mod, timeout);
			failures += r.failures;
			g_array_append_val(runs, r);
		}
	}
	if (json) {
		json_runs(out, argv[1], (struct run *)runs->data, runs->len, argc0, argv0);
	} else {
		fprintf(out, "KTAP version 1\n1..%u\n", runs->len);
		for (guint i = 0; i < runs->len; i++)
			ktap_run(out, i + 1, &g_array_index(runs, struct run, i));
	}
	for (guint i = 0; i < runs->len; i++) {
		struct run *r = &g_array_index(runs, struct run, i);

		km_kunit_results_free(r->res, r->nres);
		g_free(r->why);
		g_free(r->crash);
	}
	g_array_free(runs, TRUE);
	status = km_tool_close_output("kmodel-kunit", out, output) ? 2 : failures ? 1 : 0;
out:
	km_kunit_module_free(mod);
	km_registry_free(reg);
	g_ptr_array_free(ops, TRUE);
	g_ptr_array_free(mach, TRUE);
	g_strfreev(variants);
	g_strfreev(mnames);
	g_strfreev(variant_opt);
	g_strfreev(machine_opt);
	g_strfreev(load);
	g_free(kmap);
	g_free(output);
	g_option_context_free(ctx);
	g_strfreev(argv0);
	return status;
}
