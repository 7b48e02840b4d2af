// SPDX-License-Identifier: GPL-2.0
/*
 * kmodel-kunit - run the KUnit suites and module_init() tests of a plugin
 * (a kernel test file compiled unchanged through the compatibility layer)
 * on each selected machine x uaccess variant x kmap era, and print KTAP
 * (Documentation/dev-tools/ktap.rst, version 1) or JSON. kmodel/kunit.h
 * runs them; this is its command line.
 */
#include "km_tool.h"
#include <kmodel/kmodel.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

struct run {
	const struct km_tool_machine *mach;
	const struct km_uaccess_ops *ops;
	bool kmap_local;
	struct km_kunit_result *res;
	size_t nres;
	int failures;
	/* what the run's child process sent back (NULL: it sent nothing) */
	char *ktap, *json;
	char *crash;	/* how the child ended if not by finishing: NULL when it did */
};

static const char *run_era(const struct run *r)
{
	return r->kmap_local ? "5.11" : "pre-5.11";
}

static gchar *run_name(const struct run *r)
{
	return g_strdup_printf("%s.%s.kmap-%s", r->mach->name, r->ops->name, run_era(r));
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
 * down, with the pass/fail/skip totals lines */
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
	fprintf(out, "    1..%zu\n", nsuites);
	for (size_t s = 1; i < r->nres; s++) {
		const char *suite = r->res[i].suite;
		size_t end = i, ncases = 0;
		unsigned int cnt[3] = { 0 };
		bool suite_fail = false;

		while (end < r->nres && !strcmp(r->res[end].suite, suite))
			end++;
		for (size_t k = i; k < end; k++)
			if (!r->res[k].param_index || r->res[k].param_index == 1)
				ncases++;
		fprintf(out, "        KTAP version 1\n        # Subtest: %s\n        1..%zu\n",
			suite, ncases);
		for (size_t k = i, c = 1; k < end; c++) {
			const struct km_kunit_result *x = &r->res[k];

			if (!x->param_index) {
				ktap_log(out, "    ", x->log);
				ktap_result(out, "        ", c, x->name, x->status, x->skip_reason);
				cnt[x->status]++;
				suite_fail |= x->status == KM_KUNIT_FAILURE;
				k++;
				continue;
			}
			/* a parameterised case: its parameters' subtest */
			size_t pend = k;
			enum km_kunit_status st = KM_KUNIT_SKIPPED;

			while (pend < end && !strcmp(r->res[pend].name, x->name) &&
			       r->res[pend].param_index)
				pend++;
			fprintf(out, "            KTAP version 1\n            # Subtest: %s\n"
				"            1..%zu\n", x->name, pend - k);
			for (size_t p = k; p < pend; p++) {
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

/* one run's JSON object */
static JsonNode *json_run(const struct run *r)
{
	JsonBuilder *b = json_builder_new();
	JsonNode *node;

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "machine");
	json_builder_add_string_value(b, r->mach->name);
	json_builder_set_member_name(b, "variant");
	json_builder_add_string_value(b, r->ops->name);
	json_builder_set_member_name(b, "kmap");
	json_builder_add_string_value(b, run_era(r));
	json_builder_set_member_name(b, "failures");
	json_builder_add_int_value(b, r->failures);
	json_builder_set_member_name(b, "error");
	if (r->crash)
		json_builder_add_string_value(b, r->crash);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "tests");
	json_builder_begin_array(b);
	for (size_t k = 0; k < r->nres; k++) {
		const struct km_kunit_result *x = &r->res[k];

		json_builder_begin_object(b);
		json_builder_set_member_name(b, "suite");
		json_builder_add_string_value(b, x->suite);
		json_builder_set_member_name(b, "case");
		json_builder_add_string_value(b, x->name);
		json_builder_set_member_name(b, "param");
		if (x->param)
			json_builder_add_string_value(b, x->param);
		else
			json_builder_add_null_value(b);
		json_builder_set_member_name(b, "status");
		json_builder_add_string_value(b, status_names[x->status]);
		json_builder_set_member_name(b, "skip_reason");
		json_builder_add_string_value(b, x->skip_reason);
		json_builder_set_member_name(b, "log");
		json_builder_add_string_value(b, x->log);
		json_builder_end_object(b);
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
	json_builder_set_member_name(b, "plugin");
	json_builder_add_string_value(b, plugin);
	json_builder_set_member_name(b, "runs");
	json_builder_begin_array(b);
	for (size_t i = 0; i < nruns; i++) {
		JsonNode *node = runs[i].json ? json_from_string(runs[i].json, NULL) : NULL;

		json_builder_add_value(b, node ? node : json_run(&runs[i]));
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	km_tool_print_json(out, root);
	json_node_unref(root);
	g_object_unref(b);
}

/* The run, in a child process (km_tool_isolated(): a suite that crashes
 * or hangs ends that run only): it sends back its failures, the length of
 * its KTAP (as the @n-th run), its KTAP and its JSON object */
struct child_job {
	size_t n;
	struct run *r;
	struct km_kunit_module *mod;
	char *running;		/* the test the child is in: shared with us */
};

/* Which test the child is in, where its parent reads it once it crashed
 * or hung: "suite.case", "suite.case (param)" */
#define RUNNING_SIZE 512

static void note_running(const char *suite, const char *name, const char *param, void *arg)
{
	if (param)
		snprintf(arg, RUNNING_SIZE, "%s.%s (%s)", suite, name, param);
	else
		snprintf(arg, RUNNING_SIZE, "%s.%s", suite, name);
}

static int run_child(void *arg, GByteArray *out)
{
	struct child_job *j = arg;
	struct run *r = j->r;
	struct km_machine_config cfg = r->mach->cfg;
	struct km_machine *m;
	char *ktap = NULL, *json;
	size_t klen = 0;
	guint64 len;
	FILE *fp;
	JsonNode *node;

	if (r->kmap_local)
		cfg.kmap = KM_KMAP_LOCAL;
	if (j->running)
		km_kunit_module_set_progress(j->mod, note_running, j->running);
	if (km_machine_new(&cfg, &m)) {
		fprintf(stderr, "kmodel-kunit: machine %s: %s\n", r->mach->name, km_last_error());
		return 3;
	}
	r->failures = km_kunit_run(j->mod, m, r->ops, &r->res, &r->nres);
	if (r->failures < 0) {
		fprintf(stderr, "kmodel-kunit: %s\n", km_last_error());
		return 3;
	}
	km_machine_destroy(m);
	fp = open_memstream(&ktap, &klen);
	ktap_run(fp, j->n, r);
	fclose(fp);
	node = json_run(r);
	json = json_to_string(node, FALSE);
	len = klen;
	g_byte_array_append(out, (const guint8 *)&r->failures, sizeof(r->failures));
	g_byte_array_append(out, (const guint8 *)&len, sizeof(len));
	g_byte_array_append(out, (const guint8 *)ktap, (guint)klen);
	g_byte_array_append(out, (const guint8 *)json, (guint)strlen(json));
	return 0;
}

/* run @r in a child; fills its ktap and json, or crash */
static void run_isolated(size_t n, struct run *r, struct km_kunit_module *mod, double timeout)
{
	char *running = mmap(NULL, RUNNING_SIZE, PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct child_job j = { n, r, mod, running == MAP_FAILED ? NULL : running };
	GByteArray *got = g_byte_array_new();
	const gsize head = sizeof(int) + sizeof(guint64);
	gchar *failure = NULL;
	guint64 klen = 0;
	int status;

	if (j.running)
		j.running[0] = '\0';
	status = km_tool_isolated(timeout, run_child, &j, got, &failure);

	if (got->len >= head)
		memcpy(&klen, got->data + sizeof(int), sizeof(klen));
	if (failure && g_str_has_prefix(failure, "timed out"))	/* kmodel-kunit's words */
		r->crash = g_strdup_printf("timed out after %g s (--timeout): killed", timeout);
	else if (failure)	/* "crashed: killed by signal ..." */
		r->crash = g_strdup(g_str_has_prefix(failure, "crashed: ") ?
				    failure + strlen("crashed: ") : failure);
	else if (status)
		r->crash = g_strdup_printf("its process exited with status %d", status);
	else if (got->len < head || klen > got->len - head)
		r->crash = g_strdup("its process sent back no result");
	if (r->crash) {
		r->failures = 1;
		if (j.running && j.running[0]) {	/* name the test it died in */
			gchar *why = g_strdup_printf("%s, in %.*s", r->crash, RUNNING_SIZE - 1,
						     j.running);

			g_free(r->crash);
			r->crash = why;
		}
	} else {
		memcpy(&r->failures, got->data, sizeof(r->failures));
		r->ktap = g_strndup((const char *)got->data + head, klen);
		r->json = g_strndup((const char *)got->data + head + klen, got->len - head - klen);
	}
	if (j.running)
		munmap(j.running, RUNNING_SIZE);
	g_free(failure);
	g_byte_array_free(got, TRUE);
}

/* a run that did not finish: its KTAP line, with why as a diagnostic */
static void ktap_crashed(FILE *out, size_t n, const struct run *r)
{
	gchar *name = run_name(r);

	fprintf(out, "    KTAP version 1\n    # Subtest: %s\n", name);
	fprintf(out, "    # machine %s, uaccess variant %s, kmap era %s\n", r->mach->name,
		r->ops->name, run_era(r));
	fprintf(out, "    # %s: crashed: %s\n    1..0\n", name, r->crash);
	fprintf(out, "not ok %zu %s\n", n, name);
	g_free(name);
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
		  "before it is killed and reported failed (default 600; 0: no limit)", "S" },
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
		"suites below it; --json the same as JSON.\n"
		"docs/kunit.md: running your own suite from the installed package.\n"
		"\n"
		"Exit status: 0 all passed or skipped, 1 a test failed or a run crashed or\n"
		"timed out, 2 bad usage or a plugin that cannot be loaded.");
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
	if (km_tool_split_names("kmodel-kunit", "variant", variant_opt, &variants) ||
	    km_tool_split_names("kmodel-kunit", "machine", machine_opt, &mnames))
		goto out;
	reg = km_tool_registry("kmodel-kunit", load);
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
	if (km_kunit_module_load(argv[1], &mod)) {
		bool bare = !strchr(argv[1], '/');

		fprintf(stderr, "kmodel-kunit: %s%s\n", km_last_error(),
			bare ? " (a plugin in the current directory needs a path: ./NAME.so)" : "");
		goto out;
	}
	/* the era the plugin was written for, unless --kmap says */
	kmap_local = kmap ? !strcmp(kmap, "5.11")
			  : km_kunit_module_kernel_version(mod) >= ((5u << 16) + (11u << 8));
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
	if (!(timeout >= 0)) {
		fprintf(stderr, "kmodel-kunit: --timeout: want seconds >= 0, got %g\n", timeout);
		goto out;
	}
	runs = g_array_new(FALSE, TRUE, sizeof(struct run));
	for (guint mi = 0; mi < mach->len; mi++) {
		for (guint v = 0; v < ops->len; v++) {
			struct run r = { .mach = g_ptr_array_index(mach, mi),
					 .ops = g_ptr_array_index(ops, v), .kmap_local = kmap_local };

			run_isolated(runs->len + 1, &r, mod, timeout);
			failures += r.failures;
			g_array_append_val(runs, r);
		}
	}
	if (json) {
		json_runs(out, argv[1], (struct run *)runs->data, runs->len, argc0, argv0);
	} else {
		fprintf(out, "KTAP version 1\n1..%u\n", runs->len);
		for (guint i = 0; i < runs->len; i++) {
			const struct run *r = &g_array_index(runs, struct run, i);

			if (r->crash)
				ktap_crashed(out, i + 1, r);
			else
				fputs(r->ktap, out);
		}
	}
	for (guint i = 0; i < runs->len; i++) {
		struct run *r = &g_array_index(runs, struct run, i);

		g_free(r->ktap);
		g_free(r->json);
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
