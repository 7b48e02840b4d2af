// SPDX-License-Identifier: GPL-2.0
/*
 * kmodel-check: run libkmodel's contract suites against the registered
 * implementations. `kmodel-check uaccess` runs km_uaccess_conformance_in()
 * on every uaccess variant of its registry -- the built-ins and those of
 * the --load plugins -- (or the --variant ones), on each machine and in
 * each context (or the --machine/--context ones), prints a table (or
 * JSON) and exits 1 when a variant that claims conformance fails a case
 * or leaves a report (teardown leaks included) in any run, 2 on bad usage
 * or when the suite cannot run.
 */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <kmodel/kmodel.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "km_tool.h"

struct check_opts {
	gchar **variants;	/* --variant, repeatable or comma lists; NULL: all */
	gchar **machines;	/* --machine: the same; NULL: all */
	gchar **contexts;	/* --context: the same; NULL: all */
	gchar **load;		/* --load: plugins */
	gchar *output;		/* -o */
	gchar *kmap;		/* --kmap: "pre-5.11" (NULL) or "5.11" */
	gchar *kmap_strict;	/* --kmap-strict: "off" (NULL), "strict", "force-map" */
	const struct km_registry *reg;
	gboolean json;
	gint show;		/* failing checks printed per run */
	gint timeout;		/* --timeout: seconds an isolated run may take */
	gboolean raw_only;	/* --raw-only: no whole copy_from_user() cases */
	int argc;		/* the command line, for the JSON metadata */
	char **argv;
};

/* One run: a variant on a machine in a context; or, summed over a
 * variant's runs (mach NULL), the variant's totals. */
struct variant_run {
	const struct km_uaccess_ops *ops;
	const struct km_tool_machine *mach;
	enum km_conformance_context ctx;
	struct km_conformance_result res;
	unsigned long by_code[KM_R__COUNT];	/* reports by code; [KM_R_NONE]: all */
	gchar *crashed;		/* a plugin's run that crashed or timed out: why */
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
	return r->crashed || (r->ops->claims_conformance && (r->res.failures || r->res.reports));
}

/* a run that crashed fails whatever the variant claims */
static const char *verdict(const struct variant_run *r)
{
	return r->crashed ? "CRASH" : !r->ops->claims_conformance ? "no-claim" :
	       claim_failed(r) ? "FAIL" : "pass";
}

/* The names of the list option --@option (@opt: repeatable, each may be
 * a comma list) that @known (@n names, @what for messages) holds, as a bit
 * mask in @known's order; all when @opt is NULL. -1 with a message for an
 * unknown or an empty name (km_tool_split_names()). */
static long pick_names(gchar **opt, const char *option, const char *const *known,
		       unsigned int n, const char *what)
{
	gchar **names;
	long mask;

	if (km_tool_split_names("kmodel-check", option, opt, &names))
		return -1;
	mask = names ? 0 : (1L << n) - 1;
	for (gchar **p = names; p && *p && mask >= 0; p++) {
		unsigned int i;

		for (i = 0; i < n && strcmp(known[i], *p); i++)
			;
		if (i < n) {
			mask |= 1L << i;
			continue;
		}
		km_tool_unknown("kmodel-check", what, *p, known, n);
		mask = -1;
	}
	g_strfreev(names);
	return mask;
}

/* The variants named by --variant, in the registry's order, or all; -1
 * with a message for an unknown name. */
static int pick_variants(const struct km_registry *reg, gchar **names, GPtrArray *out)
{
	const struct km_uaccess_ops *const *all = km_registry_uaccess(reg);
	GPtrArray *known = g_ptr_array_new();
	long mask;

	for (const struct km_uaccess_ops *const *v = all; *v; v++)
		g_ptr_array_add(known, (gpointer)(*v)->name);
	mask = pick_names(names, "variant", (const char *const *)known->pdata, known->len,
			  "uaccess variant");
	for (guint i = 0; mask > 0 && i < known->len; i++)
		if (mask & (1L << i))
			g_ptr_array_add(out, (gpointer)all[i]);
	g_ptr_array_free(known, TRUE);
	return mask < 0 ? -1 : 0;
}

/* @runs[0..n) of one variant summed into *@t */
static void variant_total(const struct variant_run *runs, guint n, struct variant_run *t)
{
	memset(t, 0, sizeof(*t));
	t->ops = runs[0].ops;
	for (guint j = 0; j < n; j++) {
		if (runs[j].crashed && !t->crashed)
			t->crashed = runs[j].crashed;	/* borrowed: the verdict */
		t->res.cases += runs[j].res.cases;
		t->res.failures += runs[j].res.failures;
		for (int c = 0; c < KM_CONF_CHECK__COUNT; c++)
			t->res.by_check[c] += runs[j].res.by_check[c];
		t->res.reports += runs[j].res.reports;
		t->res.seconds += runs[j].res.seconds;
		t->res.kbuf_overrun = MAX(t->res.kbuf_overrun, runs[j].res.kbuf_overrun);
		t->res.kbuf_underrun = MAX(t->res.kbuf_underrun, runs[j].res.kbuf_underrun);
		for (int c = 0; c < KM_R__COUNT; c++)
			t->by_code[c] += runs[j].by_code[c];
	}
}

/* The runs of the variant that starts at @runs[i]: how many */
static guint variant_runs(const struct variant_run *runs, guint n, guint i)
{
	guint j = i;

	while (j < n && runs[j].ops == runs[i].ops)
		j++;
	return j - i;
}

static const char *run_where(const struct variant_run *r)
{
	static char buf[64];

	g_snprintf(buf, sizeof(buf), "%s on %s, %s", r->ops->name, r->mach->name,
		   km_conformance_context_name(r->ctx));
	return buf;
}

static void print_table(FILE *fp, const struct check_opts *o, const struct variant_run *runs,
			guint n)
{
	fprintf(fp, "%-20s %-7s %-13s %-6s %-8s %8s %8s %8s %8s %8s %8s %7s %8s\n", "variant",
		"machine", "context", "claims", "verdict", "cases", "failures", "size", "src", "dst",
		"copy", "reports", "seconds");
	for (guint i = 0; i < n; i++) {
		const struct km_conformance_result *r = &runs[i].res;
		bool external = !km_registry_builtin(o->reg, runs[i].ops);
		gchar *name = g_strconcat(runs[i].ops->name, external ? "*" : "", NULL);

		fprintf(fp, "%-20s %-7s %-13s %-6s %-8s %8lu %8lu %8lu %8lu %8lu %8lu %7lu %8.3f\n",
			name, runs[i].mach->name, km_conformance_context_name(runs[i].ctx),
			runs[i].ops->claims_conformance ? "yes" : "no", verdict(&runs[i]), r->cases,
			r->failures, r->by_check[KM_CONF_CHECK_SIZE], r->by_check[KM_CONF_CHECK_SRC],
			r->by_check[KM_CONF_CHECK_DST], r->by_check[KM_CONF_CHECK_COPY], r->reports,
			r->seconds);
		g_free(name);
	}
	for (guint i = 0; i < n; i++) {
		const struct km_conformance_result *r = &runs[i].res;

		if (!r->reports)
			continue;
		fprintf(fp, "\n%s: reports by code:", run_where(&runs[i]));
		for (int c = 1; c < KM_R__COUNT; c++)
			if (runs[i].by_code[c])
				fprintf(fp, " %s %lu", km_report_code_name(c), runs[i].by_code[c]);
		fputc('\n', fp);
		/* the first message of each code */
		for (size_t j = 0; j < r->first_reports_len; j++)
			fprintf(fp, "  %s %s: %s\n",
				r->first_reports[j].kind == KM_BUG ? "BUG" : "WARN",
				km_report_code_name(r->first_reports[j].code),
				r->first_reports[j].message);
	}
	/* a plugin's run that crashed or looped: in a forked child, so the
	 * other runs went on */
	for (guint i = 0; i < n; i++)
		if (runs[i].crashed)
			fprintf(fp, "\n%s: %s: no result (its counts are 0)\n", run_where(&runs[i]),
				runs[i].crashed);
	/* a copy that wrote outside the kernel buffer: a heap overflow in a
	 * kernel (it crashed the tool) */
	for (guint i = 0; i < n; i++) {
		const struct km_conformance_result *r = &runs[i].res;

		if (r->kbuf_overrun)
			fprintf(fp, "\n%s: copy_from_user wrote up to %lu bytes past the end of "
				"its kernel buffer (dst + n): a heap overflow in a kernel\n",
				run_where(&runs[i]), r->kbuf_overrun);
		if (r->kbuf_underrun)
			fprintf(fp, "\n%s: copy_from_user wrote up to %lu bytes before the start "
				"of its kernel buffer: a heap underflow in a kernel\n",
				run_where(&runs[i]), r->kbuf_underrun);
	}
	for (guint i = 0; i < n; i++) {
		const struct km_conformance_result *r = &runs[i].res;
		size_t k = MIN(r->list_len, (size_t)o->show);

		if (!k)
			continue;
		fprintf(fp, "\n%s: first %zu of %lu failing checks (P page size, off the copy's "
			"start from the page boundary, n bytes asked, N bytes not copied: the raw "
			"copy's return)\n", run_where(&runs[i]), k,
			r->by_check[0] + r->by_check[1] + r->by_check[2] + r->by_check[3]);
		for (size_t j = 0; j < k; j++) {
			const struct km_conformance_failure *f = &r->list[j];

			fprintf(fp, "  %-9s P=%-5lu %-9s off=%-4ld n=%-3lu N=%-3lu %-4s ",
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

/* The counts, verdict, reports and leak checks of @r as members of the
 * open JSON object. */
static void json_counts(JsonBuilder *b, const struct variant_run *r)
{
	json_builder_set_member_name(b, "verdict");
	json_builder_add_string_value(b, verdict(r));
	if (r->crashed) {
		json_builder_set_member_name(b, "crashed");
		json_builder_add_string_value(b, r->crashed);
	}
	json_builder_set_member_name(b, "cases");
	json_builder_add_int_value(b, (gint64)r->res.cases);
	json_builder_set_member_name(b, "failures");
	json_builder_add_int_value(b, (gint64)r->res.failures);
	json_builder_set_member_name(b, "by_check");
	json_builder_begin_object(b);
	for (int c = 0; c < KM_CONF_CHECK__COUNT; c++) {
		json_builder_set_member_name(b, km_conformance_check_name(c));
		json_builder_add_int_value(b, (gint64)r->res.by_check[c]);
	}
	json_builder_end_object(b);
	json_builder_set_member_name(b, "reports");
	json_builder_add_int_value(b, (gint64)r->res.reports);
	json_builder_set_member_name(b, "kbuf_overrun");
	json_builder_add_int_value(b, (gint64)r->res.kbuf_overrun);
	json_builder_set_member_name(b, "kbuf_underrun");
	json_builder_add_int_value(b, (gint64)r->res.kbuf_underrun);
	/* every report code that occurred */
	json_builder_set_member_name(b, "reports_by_code");
	json_builder_begin_object(b);
	for (int c = 1; c < KM_R__COUNT; c++) {
		if (!r->by_code[c])
			continue;
		json_builder_set_member_name(b, km_report_code_name(c));
		json_builder_add_int_value(b, (gint64)r->by_code[c]);
	}
	json_builder_end_object(b);
	/* a run's first report of each code, with its message */
	if (r->mach) {
		json_builder_set_member_name(b, "first_reports");
		json_builder_begin_array(b);
		for (size_t j = 0; j < r->res.first_reports_len; j++) {
			const struct km_report *rep = &r->res.first_reports[j];

			json_builder_begin_object(b);
			json_builder_set_member_name(b, "code");
			json_builder_add_string_value(b, km_report_code_name(rep->code));
			json_builder_set_member_name(b, "kind");
			json_builder_add_string_value(b, rep->kind == KM_BUG ? "BUG" : "WARN");
			json_builder_set_member_name(b, "message");
			json_builder_add_string_value(b, rep->message);
			json_builder_end_object(b);
		}
		json_builder_end_array(b);
	}
	/* the teardown checks, each with its count (0: clean) */
	json_builder_set_member_name(b, "leak_checks");
	json_builder_begin_object(b);
	for (size_t c = 0; c < G_N_ELEMENTS(leak_codes); c++) {
		json_builder_set_member_name(b, km_report_code_name(leak_codes[c]));
		json_builder_add_int_value(b, (gint64)r->by_code[leak_codes[c]]);
	}
	json_builder_end_object(b);
	json_builder_set_member_name(b, "seconds");
	json_builder_add_double_value(b, r->res.seconds);
}

/* "options": what was asked for, as kmodel-bench's (a list option not
 * given: "(all)") */
static void json_options(JsonBuilder *b, const struct check_opts *o)
{
	gchar **lists[] = { o->variants, o->machines, o->contexts };
	const char *names[] = { "variants", "machines", "contexts" };

	json_builder_set_member_name(b, "options");
	json_builder_begin_object(b);
	for (size_t i = 0; i < G_N_ELEMENTS(lists); i++) {
		gchar *joined = lists[i] ? g_strjoinv(",", lists[i]) : g_strdup("(all)");

		json_builder_set_member_name(b, names[i]);
		json_builder_add_string_value(b, joined);
		g_free(joined);
	}
	json_builder_set_member_name(b, "show");
	json_builder_add_int_value(b, o->show);
	json_builder_set_member_name(b, "kmap");
	json_builder_add_string_value(b, o->kmap ? o->kmap : "pre-5.11");
	json_builder_set_member_name(b, "kmap_strict");
	json_builder_add_string_value(b, o->kmap_strict ? o->kmap_strict : "off");
	km_tool_json_strv(b, "load", o->load);
	json_builder_end_object(b);
}

/* Per variant its totals over its runs, and "runs": one object per
 * machine and context with the same counts. */
static void print_json(FILE *fp, const struct check_opts *o, const struct variant_run *runs,
		       guint n)
{
	JsonBuilder *b = json_builder_new();
	JsonNode *root;

	json_builder_begin_object(b);
	km_tool_json_metadata(b, "kmodel-check", o->argc, o->argv);
	json_options(b, o);
	json_builder_set_member_name(b, "variants");
	json_builder_begin_array(b);
	for (guint i = 0; i < n;) {
		guint k = variant_runs(runs, n, i);
		struct variant_run total;

		variant_total(runs + i, k, &total);
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "name");
		json_builder_add_string_value(b, runs[i].ops->name);
		json_builder_set_member_name(b, "origin");
		json_builder_add_string_value(b, km_registry_origin(o->reg, runs[i].ops));
		json_builder_set_member_name(b, "claims_conformance");
		json_builder_add_boolean_value(b, runs[i].ops->claims_conformance);
		json_builder_set_member_name(b, "contract");
		json_builder_add_string_value(b, km_uaccess_ops_contract(runs[i].ops) ==
					      KM_UACCESS_CONTRACT_ZEROING ? "zeroing" : "raw");
		json_counts(b, &total);
		json_builder_set_member_name(b, "runs");
		json_builder_begin_array(b);
		for (guint j = i; j < i + k; j++) {
			json_builder_begin_object(b);
			json_builder_set_member_name(b, "machine");
			json_builder_add_string_value(b, runs[j].mach->name);
			json_builder_set_member_name(b, "context");
			json_builder_add_string_value(b, km_conformance_context_name(runs[j].ctx));
			json_counts(b, &runs[j]);
			json_builder_end_object(b);
		}
		json_builder_end_array(b);
		json_builder_end_object(b);
		i += k;
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	km_tool_print_json(fp, root);
	json_node_unref(root);
	g_object_unref(b);
}

/* One run in a forked child (km_tool_isolated()): what it sends back */
struct conf_job {
	const struct km_uaccess_ops *ops;
	const struct km_conformance_opts *opts;
	enum km_conformance_context ctx;
	struct km_conformance_failure *where;	/* shared with the parent: the case */
};

/* the child's on_case: the case about to run, where the parent reads it */
static void record_case(void *arg, const struct km_conformance_failure *where)
{
	*(struct km_conformance_failure *)arg = *where;
}

/* the child: the error, then (0) the result, its reports by code, list and
 * first reports, or (an error) its message */
static int conf_child(void *arg, GByteArray *out)
{
	const struct conf_job *j = arg;
	struct km_conformance_result res = { 0 };
	unsigned long by_code[KM_R__COUNT] = { 0 };
	struct km_conformance_opts opts = *j->opts;
	int err;

	if (j->where) {
		opts.on_case = record_case;
		opts.on_case_arg = j->where;
	}
	err = km_uaccess_conformance_in(j->ops, &opts, j->ctx, &res, by_code, KM_R__COUNT);

	g_byte_array_append(out, (const guint8 *)&err, sizeof(err));
	if (err) {
		g_byte_array_append(out, (const guint8 *)km_last_error(),
				    (guint)strlen(km_last_error()) + 1);
		return 0;
	}
	g_byte_array_append(out, (const guint8 *)&res, sizeof(res));
	g_byte_array_append(out, (const guint8 *)by_code, sizeof(by_code));
	g_byte_array_append(out, (const guint8 *)res.list, (guint)(res.list_len * sizeof(*res.list)));
	g_byte_array_append(out, (const guint8 *)res.first_reports,
			    (guint)(res.first_reports_len * sizeof(*res.first_reports)));
	km_conformance_result_clear(&res);
	return 0;
}

/* A run: in process for a built-in variant; in a forked child for a
 * plugin's (or the program's), whose crash or loop then fails its row
 * (r->crashed) instead of killing the tool. 0, or the suite's error with
 * its message in *@why (g_free()). */
static int conf_run(const struct check_opts *o, struct variant_run *r,
		    const struct km_conformance_opts *opts, gchar **why)
{
	struct conf_job j = { r->ops, opts, r->ctx, NULL };
	GByteArray *b;
	const guint8 *p;
	int err;
	void *shared;

	*why = NULL;
	if (km_registry_builtin(o->reg, r->ops)) {
		err = km_uaccess_conformance_in(r->ops, opts, r->ctx, &r->res, r->by_code,
						KM_R__COUNT);
		if (err)
			*why = g_strdup(km_last_error());
		return err;
	}
	/* the case the child runs, in a page it shares with us */
	shared = mmap(NULL, sizeof(*j.where), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	if (shared != MAP_FAILED) {
		j.where = shared;
		j.where->size = ~0UL;	/* no case begun */
	}
	b = g_byte_array_new();
	if (km_tool_isolated((unsigned int)o->timeout, conf_child, &j, b, &r->crashed) < 0 ||
	    b->len < sizeof(err)) {
		if (!r->crashed)
			r->crashed = g_strdup("crashed: no result");
		if (j.where && j.where->size != ~0UL) {
			gchar *why = r->crashed;

			r->crashed = g_strdup_printf("%s, in the case %s P=%lu %s off=%ld n=%lu", why,
						     km_conformance_dir_name(j.where->dir),
						     j.where->page_size,
						     km_conformance_edge_name(j.where->edge),
						     j.where->offset, j.where->size);
			g_free(why);
		}
		if (j.where)
			munmap(shared, sizeof(*j.where));
		g_byte_array_free(b, TRUE);
		return 0;
	}
	if (j.where)
		munmap(shared, sizeof(*j.where));
	p = b->data;
	memcpy(&err, p, sizeof(err));
	p += sizeof(err);
	if (err) {
		*why = g_strndup((const char *)p, b->len - sizeof(err));
	} else {
		memcpy(&r->res, p, sizeof(r->res));
		p += sizeof(r->res);
		memcpy(r->by_code, p, sizeof(r->by_code));
		p += sizeof(r->by_code);
		r->res.list = g_memdup2(p, r->res.list_len * sizeof(*r->res.list));
		p += r->res.list_len * sizeof(*r->res.list);
		r->res.first_reports = g_memdup2(p, r->res.first_reports_len *
						    sizeof(*r->res.first_reports));
	}
	g_byte_array_free(b, TRUE);
	return err;
}

/* Return: 0 all claiming variants pass in every run, 1 one fails (a
 * failing case or a report), 2 the suite or the output failed. */
static int check_uaccess(const struct check_opts *o)
{
	size_t nmach;
	const struct km_tool_machine *machines = km_tool_machines(&nmach);
	const char **mnames = g_newa(const char *, nmach), *cnames[KM_CONF_CTX__COUNT];
	GPtrArray *pick = g_ptr_array_new();
	GArray *runs = g_array_new(FALSE, TRUE, sizeof(struct variant_run));
	long mmask, cmask;
	FILE *fp = NULL;
	bool kmap_local = o->kmap && !strcmp(o->kmap, "5.11");	/* else pre-5.11 */
	enum km_kmap_strict strict = KM_KMAP_STRICT_OFF;
	int rc = 0;

	for (guint i = 0; i < nmach; i++)
		mnames[i] = machines[i].name;
	for (int c = 0; c < KM_CONF_CTX__COUNT; c++)
		cnames[c] = km_conformance_context_name(c);
	mmask = pick_names(o->machines, "machine", mnames, nmach, "machine");
	cmask = pick_names(o->contexts, "context", cnames, KM_CONF_CTX__COUNT, "context");
	if (pick_variants(o->reg, o->variants, pick) || mmask < 0 || cmask < 0)
		rc = 2;
	if (o->kmap && !kmap_local && strcmp(o->kmap, "pre-5.11")) {
		fprintf(stderr, "kmodel-check: --kmap: want pre-5.11 or 5.11, got \"%s\"\n", o->kmap);
		rc = 2;
	}
	if (km_tool_kmap_strict("kmodel-check", "kmap-strict", o->kmap_strict, &strict))
		rc = 2;
	/* an output that cannot be written fails before the runs */
	if (rc != 2 && !(fp = km_tool_open_output("kmodel-check", o->output)))
		rc = 2;
	for (guint i = 0; i < pick->len && rc != 2; i++)
		for (guint mi = 0; mi < nmach && rc != 2; mi++)
			for (int c = 0; c < KM_CONF_CTX__COUNT && rc != 2; c++) {
				/* list only what is printed: the counts stay exact */
				struct km_machine_config cfg = machines[mi].cfg;
				struct km_conformance_opts opts = {
					.machine = &cfg,
					.max_listed = o->show > 0 ? (size_t)o->show : 1,
					.whole_copy = !o->raw_only,
				};
				struct variant_run r = { .ops = g_ptr_array_index(pick, i),
							 .mach = &machines[mi], .ctx = c };
				gchar *why;
				int err;

				if (!(mmask & (1L << mi)) || !(cmask & (1L << c)))
					continue;
				/* --kmap, else the era the plugin was written for */
				if (kmap_local ||
				    (!o->kmap &&
				     km_tool_kmap_local(km_registry_kernel_version(o->reg, r.ops))))
					cfg.kmap = KM_KMAP_LOCAL;
				cfg.kmap_strict = strict;
				err = conf_run(o, &r, &opts, &why);
				if (err) {
					fprintf(stderr, "kmodel-check: %s: %s (%d)\n", run_where(&r),
						why, err);
					g_free(why);
					rc = 2;
					break;
				}
				if (r.crashed)	/* at once: the table comes after every run */
					fprintf(stderr, "kmodel-check: %s: %s\n", run_where(&r),
						r.crashed);
				if (claim_failed(&r))
					rc = 1;
				g_array_append_val(runs, r);
			}
	if (rc != 2) {
		if (o->json)
			print_json(fp, o, (struct variant_run *)runs->data, runs->len);
		else
			print_table(fp, o, (struct variant_run *)runs->data, runs->len);
		if (km_tool_close_output("kmodel-check", fp, o->output))
			rc = 2;
	} else if (fp && fp != stdout) {	/* the suite could not run: no output */
		fclose(fp);
		remove(o->output);
	}
	for (guint i = 0; i < runs->len; i++) {
		km_conformance_result_clear(&g_array_index(runs, struct variant_run, i).res);
		g_free(g_array_index(runs, struct variant_run, i).crashed);
	}
	g_array_free(runs, TRUE);
	g_ptr_array_free(pick, TRUE);
	return rc;
}

int main(int argc, char **argv)
{
	struct check_opts o = { .show = 5, .timeout = KM_TOOL_TIMEOUT_DEFAULT };
	gboolean version = FALSE;
	GOptionEntry entries[] = {
		KM_TOOL_VARIANT_ENTRY(&o.variants, "uaccess variants to check"),
		{ "machine", 'm', 0, G_OPTION_ARG_STRING_ARRAY, &o.machines,
		  "machine to run on: bbw, a15 (repeatable, or a comma list; default: both)", "NAME" },
		{ "context", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &o.contexts,
		  "context: process, preempt_off, pagefault_off, atomic (repeatable, or a comma "
		  "list; default: all)", "NAME" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &o.json,
		  "Write JSON: run metadata and, per variant, the counts, reports by code and "
		  "leak checks, in all and per run (machine and context)", NULL },
		KM_TOOL_OUTPUT_ENTRY(&o.output),
		{ "kmap", 0, 0, G_OPTION_ARG_STRING, &o.kmap,
		  "kmap era of the machines: pre-5.11 (kmap_atomic()'s per-CPU slots, the seeds' "
		  "kernel) or 5.11 (kmap_local_page(), for code of 5.11 or later); default: 5.11 "
		  "for a plugin's variant compiled through the layer at 5.11 or later "
		  "(KMODEL_KERNEL_VERSION), else pre-5.11", "ERA" },
		{ "kmap-strict", 0, 0, G_OPTION_ARG_STRING, &o.kmap_strict,
		  "strict kmap mode of the machines: off (default), strict (highmem kmaps "
		  "between guard pages) or force-map (every kmap, lowmem too): an access past "
		  "a kmapped page is a kmap_guard report", "MODE" },
		{ "raw-only", 0, 0, G_OPTION_ARG_NONE, &o.raw_only,
		  "Check the raw copies only, not also the whole copy_from_user()", NULL },
		{ "show", 0, 0, G_OPTION_ARG_INT, &o.show,
		  "Failing checks to print per run (machine and context) in the table: 0 or "
		  "more (default 5)", "N" },
		KM_TOOL_LOAD_ENTRY(&o.load),
		KM_TOOL_TIMEOUT_ENTRY(&o.timeout),
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
	/* paragraphs apart by a blank line: help2man joins lines that only
	 * break, and the man page would run them together */
	g_option_context_set_summary(ctx,
		"uaccess: run the raw copy_{from,to}_user contract of include/linux/uaccess.h\n"
		"(km_uaccess_conformance_in()) against each uaccess variant, one row per\n"
		"machine and context: 4, 16 and 64 KiB pages, sizes 0..128 at every offset\n"
		"-128..128 around five page boundaries (a hole then a mapped page, a mapped\n"
		"page then a hole, a writable then a read-only zero page, a resident then a\n"
		"never-touched page, two resident writable pages), and at offsets -128,\n"
		"-n-1, -n, -n+1, -1, 0 and 1 around two more: a page shared copy-on-write\n"
		"with the address space it was forked from, then a hole (the parent must\n"
		"keep its bytes), and a MAP_SHARED file page, then a hole, written back\n"
		"between a gup's pin and the copy (after a copy_to_user the file written\n"
		"back must hold the copied bytes); both directions; checks: size (returned\n"
		"count), src (source untouched), dst (nothing written outside the copied\n"
		"bytes, the COW parent's page included), copy (copied bytes match, in the\n"
		"written-back file too). A write into the shared zero page is a zero_page\n"
		"report. Each run (machine and context) covers all three page sizes.\n\n"
		"The whole copy_from_user() is checked too (unless --raw-only), each\n"
		"from_user case again through km_copy_from_user() (direction\n"
		"copy_from_user; not in preempt_off, where it may not be called): the\n"
		"copied bytes, then zeroes up to n. A variant declares which contract its\n"
		"raw_copy_from_user implements (km_uaccess_ops.contract): raw (v4.12+,\n"
		"the default) leaves the uncopied tail untouched and the generic\n"
		"copy_from_user() zeroes it; zeroing (an architecture's copy_from_user()\n"
		"before v4.12, as its kernel-doc required and Al Viro's v4.8 fixes made\n"
		"true) zeroes it itself. A tail the contract does not allow is a dst\n"
		"failure; the JSON's \"contract\" says which a variant declares.\n\n"
		"Machines: bbw (no fast GUP, all lowmem), a15 (fast GUP, user pages in\n"
		"highmem), both with CONFIG_DEBUG_HIGHMEM, of the pre-5.11 kmap era unless\n"
		"--kmap 5.11 (code using kmap_local_page() needs it: on a pre-5.11 machine it\n"
		"is a BUG report); with --kmap-strict their kmaps lie between guard\n"
		"pages. Contexts: process, preempt_off\n"
		"(preempt_disable()), pagefault_off (pagefault_disable()), atomic (both, as\n"
		"under kmap_atomic()): where faults are not handled only resident pages\n"
		"with the access's permission count as accessible. In preempt_off, page\n"
		"faults are enabled but sleeping is not: might_fault() (get_user(),\n"
		"put_user(), __get_user(), __put_user()), mmap_sem and GFP_KERNEL\n"
		"allocations report a sleep in atomic context, as CONFIG_DEBUG_ATOMIC_SLEEP\n"
		"does.\n\n"
		"A copy_from_user that writes past its kernel buffer (or before it) fails\n"
		"dst, and the run says how far it wrote: the suite's kernel buffers lie\n"
		"between 64 KiB red zones (past the 256-byte guard the checks compare), each\n"
		"before an inaccessible host page. Writes are followed from the guard on,\n"
		"while contiguous: one that skips the guard is not seen, one beyond a red\n"
		"zone ends kmodel-check with SIGSEGV (the limit).\n\n"
		"A variant that claims conformance passes only with no failing case and no\n"
		"BUG/WARN report on the suite's machines in any run, teardown leak checks\n"
		"included (leaked pins, held kmap slots, unfreed kmalloc, ...).");
	g_option_context_set_description(ctx,
		"Below the table: per run with reports, its reports by code and the first\n"
		"message of each code; then its first --show failing checks, each with its\n"
		"direction, page size P, edge (the boundary: leading: a hole then a mapped\n"
		"page; trailing: a mapped page then a hole; readonly: writable then the\n"
		"read-only zero page; untouched: resident then never touched; adjacent: two\n"
		"resident pages; cow: a page shared copy-on-write with a forked parent;\n"
		"writeback: a MAP_SHARED file page), off, n, N and the check.\n\n"
		"Variants: the built-ins and those of --load plugins (marked '*'). A\n"
		"plugin's variant runs each machine and context in a forked child: one\n"
		"that crashes or runs past --timeout is a row of verdict CRASH, its\n"
		"cause below the table, and the other runs go on.\n\n"
		"Exit status: 0 every variant that claims conformance passed, 1 one failed\n"
		"(verdict FAIL: a failing case or a report) or a plugin's run crashed or\n"
		"timed out (CRASH), 2 bad usage, the suite could not run or the output\n"
		"could not be written.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "kmodel-check: %s\n", err->message);
		rc = 2;
	} else if (version) {
		km_tool_print_version("kmodel-check");
		rc = 0;
	} else if (o.show < 0) {
		fprintf(stderr, "kmodel-check: --show %d: want 0 or more\n", o.show);
		rc = 2;
	} else if (o.timeout < 0) {
		fprintf(stderr, "kmodel-check: --timeout %d: want 0 or more\n", o.timeout);
		rc = 2;
	} else if (argc != 2 || strcmp(argv[1], "uaccess") != 0) {
		/* a wrong command is named, not only the usage */
		if (argc < 2)
			fprintf(stderr, "kmodel-check: no command; commands: uaccess\n");
		else if (strcmp(argv[1], "uaccess"))
			fprintf(stderr, "kmodel-check: unknown command '%s'; commands: uaccess\n",
				argv[1]);
		else
			fprintf(stderr, "kmodel-check: uaccess: unexpected argument '%s'\n",
				argv[2]);
		fprintf(stderr, "kmodel-check: usage: kmodel-check uaccess [--load PATH.so] "
				"[--variant NAME] [--machine NAME] [--context NAME] [--kmap ERA] "
				"[--kmap-strict MODE] [--json] "
				"[-o FILE] [--show N] (see --help)\n");
		rc = 2;
	} else if (!(o.reg = reg = km_tool_registry("kmodel-check", o.load, o.timeout))) {
		rc = 2;
	} else {
		rc = check_uaccess(&o);
	}
	km_registry_free(reg);
	g_strfreev(o.load);
	g_strfreev(args);
	g_free(o.output);
	g_free(o.kmap);
	g_free(o.kmap_strict);
	g_option_context_free(ctx);
	g_clear_error(&err);
	g_strfreev(o.variants);
	g_strfreev(o.machines);
	g_strfreev(o.contexts);
	return rc;
}
