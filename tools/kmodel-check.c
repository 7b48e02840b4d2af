// SPDX-License-Identifier: GPL-2.0
/*
 * kmodel-check: run libkmodel's contract suites against the registered
 * implementations. `kmodel-check uaccess` runs km_uaccess_conformance() on
 * every uaccess variant of its registry -- the built-ins and those of the
 * --load plugins -- (or the --variant ones), prints a table (or JSON)
 * and exits 1 when a variant that claims conformance fails a case or
 * leaves a report (teardown leaks included), 2 on bad usage or when the
 * suite cannot run.
 */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <kmodel/kmodel.h>
#include <stdio.h>
#include <string.h>

#include "km_tool.h"

struct check_opts {
	gchar **variants;	/* --variant, repeatable or comma lists; NULL: all */
	gchar **load;		/* --load: plugins */
	gchar *output;		/* -o */
	const struct km_registry *reg;
	gboolean json;
	gint show;		/* failing checks printed per variant */
	int argc;		/* the command line, for the JSON metadata */
	char **argv;
};

struct variant_run {
	const struct km_uaccess_ops *ops;
	struct km_conformance_result res;
	unsigned long by_code[KM_R__COUNT];	/* reports by code; [KM_R_NONE]: all */
};

/* the teardown checks the suite's machines run (kmodel/machine.h) */
static const enum km_report_code leak_codes[] = {
	KM_R_LEAK_PAGE, KM_R_LEAK_KMAP, KM_R_LEAK_ATOMIC, KM_R_LEAK_KMALLOC, KM_R_LEAK_MM,
	KM_R_LEAK_SKB,
};

/* A variant that claims conformance passes with no failing case and no
 * report: a BUG/WARN, or a leak the teardown found, is a failure too. */
static bool claim_failed(const struct variant_run *r)
{
	return r->ops->claims_conformance && (r->res.failures || r->res.reports);
}

static const char *verdict(const struct variant_run *r)
{
	return !r->ops->claims_conformance ? "no-claim" : claim_failed(r) ? "FAIL" : "pass";
}

/* The variants named by --variant (each may be a comma list), in the
 * registry's order, or all; -1 with a message for an unknown name. */
static int pick_variants(const struct km_registry *reg, gchar **names, GPtrArray *out)
{
	GHashTable *want = g_hash_table_new(g_str_hash, g_str_equal);
	gchar *joined = names ? g_strjoinv(",", names) : NULL;
	gchar **parts = joined ? g_strsplit(joined, ",", -1) : NULL;
	int rc = 0;

	for (gchar **p = parts; p && *p; p++) {
		g_strstrip(*p);
		if (!km_registry_find_uaccess(reg, *p)) {
			fprintf(stderr, "kmodel-check: unknown uaccess variant \"%s\"; known:", *p);
			for (const struct km_uaccess_ops *const *v = km_registry_uaccess(reg); *v; v++)
				fprintf(stderr, " %s", (*v)->name);
			fputc('\n', stderr);
			rc = -1;
		}
		g_hash_table_add(want, *p);
	}
	for (const struct km_uaccess_ops *const *v = km_registry_uaccess(reg); *v && !rc; v++)
		if (!parts || g_hash_table_contains(want, (*v)->name))
			g_ptr_array_add(out, (gpointer)*v);
	g_hash_table_destroy(want);
	g_strfreev(parts);
	g_free(joined);
	return rc;
}

static void print_table(FILE *fp, const struct check_opts *o, const struct variant_run *runs,
			guint n)
{
	fprintf(fp, "%-20s %-6s %-8s %8s %8s %8s %8s %8s %8s %7s %8s\n", "variant", "claims",
		"verdict", "cases", "failures", "size", "src", "dst", "copy", "reports", "seconds");
	for (guint i = 0; i < n; i++) {
		const struct km_conformance_result *r = &runs[i].res;
		bool external = !km_registry_builtin(o->reg, runs[i].ops);
		gchar *name = g_strconcat(runs[i].ops->name, external ? "*" : "", NULL);

		fprintf(fp, "%-20s %-6s %-8s %8lu %8lu %8lu %8lu %8lu %8lu %7lu %8.3f\n", name,
			runs[i].ops->claims_conformance ? "yes" : "no", verdict(&runs[i]), r->cases,
			r->failures, r->by_check[KM_CONF_CHECK_SIZE], r->by_check[KM_CONF_CHECK_SRC],
			r->by_check[KM_CONF_CHECK_DST], r->by_check[KM_CONF_CHECK_COPY], r->reports,
			r->seconds);
		g_free(name);
	}
	for (guint i = 0; i < n; i++) {
		if (!runs[i].res.reports)
			continue;
		fprintf(fp, "\n%s: reports by code:", runs[i].ops->name);
		for (int c = 1; c < KM_R__COUNT; c++)
			if (runs[i].by_code[c])
				fprintf(fp, " %s %lu", km_report_code_name(c), runs[i].by_code[c]);
		fputc('\n', fp);
	}
	for (guint i = 0; i < n; i++) {
		const struct km_conformance_result *r = &runs[i].res;
		size_t k = MIN(r->list_len, (size_t)o->show);

		if (!k)
			continue;
		fprintf(fp, "\n%s: first %zu of %lu failing checks\n", runs[i].ops->name, k,
			r->by_check[0] + r->by_check[1] + r->by_check[2] + r->by_check[3]);
		for (size_t j = 0; j < k; j++) {
			const struct km_conformance_failure *f = &r->list[j];

			fprintf(fp, "  %-9s P=%-5lu %-8s off=%-4ld n=%-3lu N=%-3lu %-4s ",
				km_conformance_dir_name(f->dir), f->page_size,
				km_conformance_edge_name(f->edge), f->offset, f->size, f->returned,
				km_conformance_check_name(f->check));
			if (f->check == KM_CONF_CHECK_SIZE)
				fprintf(fp, "expected N in [%lu, %lu], got %lu\n", f->expected_min,
					f->expected_max, f->got);
			else
				fprintf(fp, "at %ld: expected 0x%02lx, got 0x%02lx\n", f->at,
					f->expected_min, f->got);
		}
	}
	for (guint i = 0; i < n; i++)
		if (!km_registry_builtin(o->reg, runs[i].ops)) {
			fprintf(fp, "\n* built outside libkmodel (loaded or registered by the program)\n");
			break;
		}
}

static void print_json(FILE *fp, const struct check_opts *o, const struct variant_run *runs,
		       guint n)
{
	JsonBuilder *b = json_builder_new();
	JsonNode *root;

	json_builder_begin_object(b);
	km_tool_json_metadata(b, "kmodel-check", o->argc, o->argv);
	json_builder_set_member_name(b, "variants");
	json_builder_begin_array(b);
	for (guint i = 0; i < n; i++) {
		const struct km_conformance_result *r = &runs[i].res;

		json_builder_begin_object(b);
		json_builder_set_member_name(b, "name");
		json_builder_add_string_value(b, runs[i].ops->name);
		json_builder_set_member_name(b, "origin");
		json_builder_add_string_value(b, km_registry_origin(o->reg, runs[i].ops));
		json_builder_set_member_name(b, "claims_conformance");
		json_builder_add_boolean_value(b, runs[i].ops->claims_conformance);
		json_builder_set_member_name(b, "verdict");
		json_builder_add_string_value(b, verdict(&runs[i]));
		json_builder_set_member_name(b, "cases");
		json_builder_add_int_value(b, (gint64)r->cases);
		json_builder_set_member_name(b, "failures");
		json_builder_add_int_value(b, (gint64)r->failures);
		json_builder_set_member_name(b, "by_check");
		json_builder_begin_object(b);
		for (int c = 0; c < KM_CONF_CHECK__COUNT; c++) {
			json_builder_set_member_name(b, km_conformance_check_name(c));
			json_builder_add_int_value(b, (gint64)r->by_check[c]);
		}
		json_builder_end_object(b);
		json_builder_set_member_name(b, "reports");
		json_builder_add_int_value(b, (gint64)r->reports);
		/* every report code that occurred */
		json_builder_set_member_name(b, "reports_by_code");
		json_builder_begin_object(b);
		for (int c = 1; c < KM_R__COUNT; c++) {
			if (!runs[i].by_code[c])
				continue;
			json_builder_set_member_name(b, km_report_code_name(c));
			json_builder_add_int_value(b, (gint64)runs[i].by_code[c]);
		}
		json_builder_end_object(b);
		/* the teardown checks, each with its count (0: clean) */
		json_builder_set_member_name(b, "leak_checks");
		json_builder_begin_object(b);
		for (size_t c = 0; c < G_N_ELEMENTS(leak_codes); c++) {
			json_builder_set_member_name(b, km_report_code_name(leak_codes[c]));
			json_builder_add_int_value(b, (gint64)runs[i].by_code[leak_codes[c]]);
		}
		json_builder_end_object(b);
		json_builder_set_member_name(b, "seconds");
		json_builder_add_double_value(b, r->seconds);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	km_tool_print_json(fp, root);
	json_node_unref(root);
	g_object_unref(b);
}

/* Return: 0 all claiming variants pass, 1 one fails (a failing case or a
 * report), 2 the suite or the output failed. */
static int check_uaccess(const struct check_opts *o)
{
	GPtrArray *pick = g_ptr_array_new();
	struct variant_run *runs;
	FILE *fp;
	int rc = 0;

	if (pick_variants(o->reg, o->variants, pick)) {
		g_ptr_array_free(pick, TRUE);
		return 2;
	}
	runs = g_new0(struct variant_run, pick->len);
	for (guint i = 0; i < pick->len && rc != 2; i++) {
		/* list only what is printed: the counts stay exact */
		struct km_conformance_opts opts = { .max_listed = o->show > 0 ? (size_t)o->show : 1 };
		int err;

		runs[i].ops = g_ptr_array_index(pick, i);
		err = km_uaccess_conformance_reports(runs[i].ops, &opts, &runs[i].res,
						     runs[i].by_code, KM_R__COUNT);
		if (err) {
			fprintf(stderr, "kmodel-check: %s: %s (%d)\n", runs[i].ops->name,
				km_last_error(), err);
			rc = 2;
		} else if (claim_failed(&runs[i])) {
			rc = 1;
		}
	}
	if (rc != 2) {
		fp = km_tool_open_output("kmodel-check", o->output);
		if (!fp) {
			rc = 2;
		} else {
			if (o->json)
				print_json(fp, o, runs, pick->len);
			else
				print_table(fp, o, runs, pick->len);
			if (km_tool_close_output("kmodel-check", fp, o->output))
				rc = 2;
		}
	}
	for (guint i = 0; i < pick->len; i++)
		km_conformance_result_clear(&runs[i].res);
	g_free(runs);
	g_ptr_array_free(pick, TRUE);
	return rc;
}

int main(int argc, char **argv)
{
	struct check_opts o = { .show = 5 };
	gboolean version = FALSE;
	GOptionEntry entries[] = {
		{ "variant", 'v', 0, G_OPTION_ARG_STRING_ARRAY, &o.variants,
		  "uaccess variant to check (repeatable, or a comma list; default: all)", "NAME" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &o.json,
		  "Write JSON: run metadata and, per variant, the counts, reports by code and "
		  "leak checks", NULL },
		KM_TOOL_OUTPUT_ENTRY(&o.output),
		{ "show", 0, 0, G_OPTION_ARG_INT, &o.show,
		  "Failing checks to print per variant in the table (default 5)", "N" },
		KM_TOOL_LOAD_ENTRY(&o.load),
		KM_TOOL_VERSION_ENTRY(&version),
		{ 0 },
	};
	GOptionContext *ctx;
	GError *err = NULL;
	struct km_registry *reg = NULL;
	gchar **args = g_strdupv(argv);	/* the command line, before parsing */
	int rc;

	km_tool_init();
	o.argc = (int)g_strv_length(args);
	o.argv = args;
	ctx = g_option_context_new("uaccess - check implementations against a contract");
	g_option_context_set_summary(ctx,
		"uaccess: run the raw copy_{from,to}_user contract of include/linux/uaccess.h\n"
		"(km_uaccess_conformance()) against each uaccess variant: 4, 16 and 64 KiB\n"
		"pages, sizes 0..128 at every offset -128..128 around a mapped page's leading\n"
		"and trailing boundary (and, copy_to_user, a read-only neighbour), both\n"
		"directions; checks: size (returned count), src (source untouched), dst\n"
		"(nothing written outside the copied bytes), copy (copied bytes match).\n"
		"A variant that claims conformance passes only with no failing case and no\n"
		"BUG/WARN report on the suite's machines, teardown leak checks included\n"
		"(leaked pins, held kmap slots, unfreed kmalloc, ...).");
	g_option_context_set_description(ctx,
		"Variants: the built-ins and those of --load plugins (marked '*').\n"
		"Exit status: 0 every variant that claims conformance passed, 1 one failed\n"
		"(verdict FAIL: a failing case or a report), 2 bad usage, the suite could not\n"
		"run or the output could not be written.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "kmodel-check: %s\n", err->message);
		rc = 2;
	} else if (version) {
		km_tool_print_version("kmodel-check");
		rc = 0;
	} else if (argc != 2 || strcmp(argv[1], "uaccess") != 0 || o.show < 0) {
		fprintf(stderr, "kmodel-check: usage: kmodel-check uaccess [--load PATH.so] "
				"[--variant NAME] [--json] [-o FILE] [--show N] (see --help)\n");
		rc = 2;
	} else if (!(o.reg = reg = km_tool_registry("kmodel-check", o.load))) {
		rc = 2;
	} else {
		rc = check_uaccess(&o);
	}
	km_registry_free(reg);
	g_strfreev(o.load);
	g_strfreev(args);
	g_free(o.output);
	g_option_context_free(ctx);
	g_clear_error(&err);
	g_strfreev(o.variants);
	return rc;
}
