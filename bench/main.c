// SPDX-License-Identifier: GPL-2.0
/*
 * kmodel-bench: a front end to the library's scenarios (kmodel/scenario.h):
 * it picks the variants from a registry (built-ins and --load plugins),
 * runs km_dd_run() and km_iperf_run() and writes their tables as text,
 * CSV or JSON.
 */
#include "bench.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "km_tool.h"

struct kb_opts {
	gboolean json, csv, quiet;
	gboolean host, wide;		/* the text tables' views (KB_TEXT_*) */
	gboolean no_summary;
	GArray *dd_sizes;		/* the block sizes, for the progress line */
	gchar *csv_dir;			/* one CSV file per scenario */
	gchar *output;			/* -o: instead of stdout */
	gchar **load;			/* plugins */
	gint repeat;
	gchar *scenarios;		/* comma list, NULL: all */
	gchar **scenario_names;		/* its names; NULL: all */
	gchar *dd_block_sizes, *dd_variants, *dd_kmap, *dd_machines, *dd_kmap_strict;
	gint dd_total_mib, dd_file_mib;
	gchar *iperf_variants;
	gchar *profile;			/* --profile: cost profile for every row */
	gint iperf_packets, iperf_mss, iperf_maxpacket;
	gboolean iperf_no_checker;
	gboolean iperf_rx;
	gboolean fail_on_reports;	/* a BUG/WARN report in any row: exit 1 */
	gint timeout;			/* --timeout: a plugin case's trial run, seconds */
};

static const struct {
	const char *name, *summary;
} scenarios[] = {
	{ "dd", "dd if=<tmpfs file> of=<tmpfs file> bs=N through each uaccess variant vs memcpy" },
	{ "iperf", "TCP/UDP stream through usbnet and each driver's tx_fixup to its device" },
};

static void progress_line(const struct kb_opts *o, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void progress_line(const struct kb_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (o->quiet || !isatty(STDERR_FILENO))
		return;
	va_start(ap, fmt);
	fputs("\r\033[K", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

static void dd_progress(void *arg, unsigned long bs, unsigned int run, unsigned int runs)
{
	const struct kb_opts *o = arg;
	guint i = 0;

	while (i < o->dd_sizes->len && g_array_index(o->dd_sizes, unsigned long, i) != bs)
		i++;
	progress_line(o, "kmodel-bench: dd block size %u of %u (bs=%lu): timed run %u of %u",
		      i + 1, o->dd_sizes->len, bs, run, runs);
}

static void iperf_progress(void *arg, const char *traffic, unsigned int run, unsigned int runs)
{
	progress_line(arg, "kmodel-bench: iperf %s: timed run %u of %u", traffic, run, runs);
}

/* a bad command line: say why, exit status 2 */
static void usage_error(int *rc, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void usage_error(int *rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("kmodel-bench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs(" (see --help)\n", stderr);
	va_end(ap);
	*rc = 2;
}

static gboolean wanted(const struct kb_opts *o, const char *name)
{
	return !o->scenario_names || g_strv_contains((const gchar *const *)o->scenario_names, name);
}

/* the names of @list given to --@option (km_tool_split_names()); NULL and
 * *@rc = 2 when it refuses it */
static gchar **names_of(const char *option, const char *list, int *rc)
{
	char *v[] = { (char *)list, NULL };
	char **names = NULL;

	if (list && km_tool_split_names("kmodel-bench", option, v, &names))
		*rc = 2;
	return names;
}

/* the dd cases: --dd-variants x --dd-machines x --dd-kmap */
static int dd_cases(const struct kb_opts *o, const struct km_registry *reg, GArray *cases)
{
	int rc = 0;
	gchar **vs = o->dd_variants ? names_of("dd-variants", o->dd_variants, &rc) : NULL;
	gchar **ms = names_of("dd-machines", o->dd_machines, &rc);
	gchar **ks = names_of("dd-kmap", o->dd_kmap, &rc);
	GPtrArray *ops = g_ptr_array_new(), *machs = g_ptr_array_new();
	bool kmap[2] = { false, false };

	if (!o->dd_variants)
		for (const struct km_uaccess_ops *const *v = km_registry_uaccess(reg); *v; v++)
			g_ptr_array_add(ops, (gpointer)*v);
	for (gchar **n = vs; n && *n; n++) {
		const struct km_uaccess_ops *v = km_registry_find_uaccess(reg, *n);

		if (!v) {
			km_tool_unknown_variant("kmodel-bench", reg, false, *n);
			rc = 2;
		}
		g_ptr_array_add(ops, (gpointer)v);
	}
	for (gchar **n = ms; n && *n; n++) {
		const struct km_dd_machine *d = km_dd_machine_find(*n);

		if (!d) {
			GPtrArray *known = g_ptr_array_new();

			for (const struct km_dd_machine *const *m = km_dd_machines(); *m; m++)
				g_ptr_array_add(known, (gpointer)(*m)->name);
			km_tool_unknown("kmodel-bench", "dd machine", *n,
					(const char *const *)known->pdata, known->len);
			g_ptr_array_free(known, TRUE);
			rc = 2;
		}
		g_ptr_array_add(machs, (gpointer)d);
	}
	for (gchar **n = ks; n && *n; n++) {
		const char *k = *n;

		if (!strcmp(k, "both"))	/* what --help offers (refused) */
			kmap[0] = kmap[1] = true;
		else if (!strcmp(k, "pre-5.11") || !strcmp(k, "5.11"))
			kmap[!strcmp(k, "5.11")] = true;
		else
			usage_error(&rc, "--dd-kmap: want pre-5.11, 5.11 or both, got \"%s\"", k);
	}
	for (guint v = 0; v < ops->len && !rc; v++)
		for (guint d = 0; d < machs->len; d++)
			for (int k = 0; k < 2; k++)
				if (kmap[k])
					g_array_append_val(cases, ((struct km_dd_case){
						g_ptr_array_index(ops, v), g_ptr_array_index(machs, d),
						k ? KM_KMAP_LOCAL : KM_KMAP_ATOMIC_PRE_5_11 }));
	g_strfreev(vs);
	g_strfreev(ms);
	g_strfreev(ks);
	g_ptr_array_free(ops, TRUE);
	g_ptr_array_free(machs, TRUE);
	return rc;
}

/* the iperf variants: --iperf-variants, or every usbnet variant of the
 * registry that meets a device of this maxpacket */
static int iperf_variants(const struct kb_opts *o, const struct km_registry *reg, GPtrArray *out)
{
	unsigned int mp = (unsigned int)o->iperf_maxpacket;
	enum km_usb_speed speed = mp == 512 ? KM_USB_SPEED_HIGH :
				  mp == 1024 ? KM_USB_SPEED_SUPER : KM_USB_SPEED_FULL;
	gchar **names;
	int rc = 0;

	if (!o->iperf_variants) {
		GString *skipped = g_string_new(NULL);

		for (const struct km_usbnet_variant *const *v = km_registry_usbnet(reg); *v; v++)
			if (km_usbnet_variant_allows(*v, speed, mp))
				g_ptr_array_add(out, (gpointer)*v);
			else
				g_string_append_printf(skipped, ", %s", (*v)->name);
		/* a variant left out says so (no row, no word); a
		 * notice, not progress: -q does not hide it */
		if (skipped->len)
			g_printerr("kmodel-bench: iperf skips %s: no bulk-out endpoint of maxpacket "
				   "%u (%s speed); see --list, --iperf-maxpacket\n",
				   skipped->str + 2, mp, km_usb_speed_name(speed));
		g_string_free(skipped, TRUE);
		return 0;
	}
	names = names_of("iperf-variants", o->iperf_variants, &rc);
	for (gchar **n = names; n && *n; n++) {
		const struct km_usbnet_variant *v = km_registry_find_usbnet(reg, *n);

		if (!v) {
			km_tool_unknown_variant("kmodel-bench", reg, true, *n);
			rc = 2;
		}
		g_ptr_array_add(out, (gpointer)v);
	}
	g_strfreev(names);
	return rc;
}

/*
 * A plugin's variant is tried first in a forked child (km_tool_isolated()):
 * the scenario on its case alone, one timed run. One that crashes or
 * runs past --timeout is a failing row, named on stderr, and left out of
 * the run proper, which then times the other rows in this process (a
 * child's table cannot come back: km_table has no reader). A row that
 * merely fails (a stall, a wrong byte) runs in the table as any other.
 */
struct trial {
	const struct km_dd_opts *dd;
	const struct km_dd_case *dd_case;
	const struct km_iperf_opts *iperf;
	const struct km_usbnet_variant *iperf_variant;
};

static int trial_child(void *arg, GByteArray *result)
{
	const struct trial *t = arg;
	struct km_table *table = NULL;

	(void)result;
	/* quiet: the row runs again for real, and its messages then */
	if (!freopen("/dev/null", "w", stderr))
		return 1;
	if (t->dd) {
		struct km_dd_opts d = *t->dd;

		d.repeat = 1;
		d.progress = NULL;
		km_dd_run(&d, t->dd_case, 1, &table);
	} else {
		struct km_iperf_opts io = *t->iperf;

		io.repeat = 1;
		io.progress = NULL;
		km_iperf_run(&io, &t->iperf_variant, 1, &table);
	}
	km_table_free(table);
	return 0;
}

/* false (and *@rc 1, the row named) when the trial of @t crashed or timed out */
static bool trial_ok(const struct kb_opts *o, const struct trial *t, const char *row, int *rc)
{
	GByteArray *b = g_byte_array_new();
	gchar *failure = NULL;

	km_tool_isolated((unsigned int)o->timeout, trial_child, (void *)t, b, &failure);
	g_byte_array_free(b, TRUE);
	if (!failure)
		return true;
	fprintf(stderr, "kmodel-bench: %s: %s: the row fails, the others run\n", row, failure);
	g_free(failure);
	*rc = 1;
	return false;
}

/* Run the scenario @name: its table in *@out. An exit status. */
static int run_scenario(const struct kb_opts *o, const struct km_registry *reg, const char *name,
			struct km_table **out, int *crashed)
{
	int err = 0;

	*out = NULL;
	if (!strcmp(name, "dd")) {
		GArray *sizes = g_array_new(FALSE, FALSE, sizeof(unsigned long));
		GArray *cases = g_array_new(FALSE, FALSE, sizeof(struct km_dd_case));
		GError *gerr = NULL;
		struct km_dd_opts d = {
			.total_bytes = (uint64_t)o->dd_total_mib << 20,
			.file_bytes = (uint64_t)o->dd_file_mib << 20,
			.repeat = (unsigned int)o->repeat,
			.progress = dd_progress, .progress_arg = (void *)o,
		};
		int rc = 0;

		((struct kb_opts *)o)->dd_sizes = sizes;

		if (km_tool_kmap_strict("kmodel-bench", "dd-kmap-strict", o->dd_kmap_strict,
					&d.kmap_strict))
			rc = 2;

		if (!kb_parse_sizes(o->dd_block_sizes, sizes, &gerr)) {
			usage_error(&rc, "--dd-block-sizes: %s", gerr->message);
			g_error_free(gerr);
		}
		/* a block larger than the input file: say which option to raise
		 * (the default 16 MiB file and --dd-block-sizes 64M) */
		for (guint i = 0; i < sizes->len && !rc; i++) {
			unsigned long bs = g_array_index(sizes, unsigned long, i);

			if (bs > (unsigned long)o->dd_file_mib << 20)
				usage_error(&rc, "--dd-block-sizes: a block of %lu bytes is larger than "
					    "the input file (--dd-file-mib %d): raise --dd-file-mib to "
					    "at least %lu", bs, o->dd_file_mib, (bs + (1ul << 20) - 1) >> 20);
		}
		if (!rc)
			rc = dd_cases(o, reg, cases);
		if (!rc) {
			d.block_sizes = (const unsigned long *)(void *)sizes->data;
			d.nblock_sizes = sizes->len;
			for (guint i = 0; i < cases->len;) {
				const struct km_dd_case *c = &g_array_index(cases, struct km_dd_case, i);
				struct trial t = { .dd = &d, .dd_case = c };
				gchar *row;
				bool ok;

				if (km_registry_builtin(reg, c->ops)) {
					i++;
					continue;
				}
				row = g_strdup_printf("dd: %s on %s (%s), bs %s", c->ops->name,
						      c->machine->name, c->kmap == KM_KMAP_LOCAL ?
						      "5.11" : "pre-5.11", o->dd_block_sizes);
				ok = trial_ok(o, &t, row, crashed);
				g_free(row);
				if (ok)
					i++;
				else
					g_array_remove_index(cases, i);
			}
			err = km_dd_run(&d, (const struct km_dd_case *)(void *)cases->data,
					cases->len, out);
			rc = err == 0 ? 0 : err == -EINVAL ? 2 : 1;
		}
		((struct kb_opts *)o)->dd_sizes = NULL;
		g_array_free(sizes, TRUE);
		g_array_free(cases, TRUE);
		/* the library's messages start "dd: " ("dd: dd:");
		 * files that do not fit the RAM: the option to lower */
		if (err)
			fprintf(stderr, "kmodel-bench: %s%s%s\n",
				g_str_has_prefix(km_last_error(), "dd: ") ? "" : "dd: ", km_last_error(),
				err == -ENOMEM || strstr(km_last_error(), "MiB per file") ?
				" (lower --dd-file-mib)" : "");
		return rc;
	} else {
		GPtrArray *vs = g_ptr_array_new();
		struct km_iperf_opts io = {
			.packets = (unsigned long)o->iperf_packets,
			.mss = (unsigned int)o->iperf_mss,
			.maxpacket = (unsigned int)o->iperf_maxpacket,
			.repeat = (unsigned int)o->repeat,
			.progress = iperf_progress, .progress_arg = (void *)o,
			.no_checker = o->iperf_no_checker,
			.rx = o->iperf_rx,
		};
		int rc = iperf_variants(o, reg, vs);

		for (guint i = 0; !rc && i < vs->len;) {
			struct trial t = { .iperf = &io, .iperf_variant = g_ptr_array_index(vs, i) };
			gchar *row;
			bool ok;

			if (km_registry_builtin(reg, t.iperf_variant)) {
				i++;
				continue;
			}
			row = g_strdup_printf("iperf: %s", t.iperf_variant->name);
			ok = trial_ok(o, &t, row, crashed);
			g_free(row);
			if (ok)
				i++;
			else
				g_ptr_array_remove_index(vs, i);
		}
		if (!rc) {
			err = km_iperf_run(&io, (const struct km_usbnet_variant *const *)vs->pdata,
					   vs->len, out);
			if (err)
				fprintf(stderr, "kmodel-bench: %s\n", km_last_error());	/* "iperf: ..." */
			rc = err == 0 ? 0 : err == -EINVAL ? 2 : 1;
		}
		g_ptr_array_free(vs, TRUE);
		return rc;
	}
}

/* one line of --list: the names in a column as wide as the longest
 * a variant without a summary (optional, kmodel/uaccess.h,
 * kmodel/usb.h) shows "-" (printf of NULL printed "(null)") */
static void list_line(const char *kind, int width, const char *name, const char *summary,
		      const struct km_registry *reg, const void *variant)
{
	bool plugin = variant && !km_registry_builtin(reg, variant);

	printf("%-8s %-*s %s%s%s\n", kind, width, name, summary ? summary : "-",
	       plugin ? " -- from " : "", plugin ? km_registry_origin(reg, variant) : "");
}

static void list_all(const struct km_registry *reg)
{
	int w = 14;

	for (const struct km_uaccess_ops *const *v = km_registry_uaccess(reg); *v; v++)
		w = MAX(w, (int)strlen((*v)->name));
	for (const struct km_dd_machine *const *d = km_dd_machines(); *d; d++)
		w = MAX(w, (int)strlen((*d)->name));
	for (const struct km_usbnet_variant *const *v = km_registry_usbnet(reg); *v; v++)
		w = MAX(w, (int)strlen((*v)->name));
	for (size_t i = 0; i < G_N_ELEMENTS(scenarios); i++)
		list_line("scenario", w, scenarios[i].name, scenarios[i].summary, reg, NULL);
	for (const struct km_uaccess_ops *const *v = km_registry_uaccess(reg); *v; v++)
		list_line("uaccess", w, (*v)->name, (*v)->summary, reg, *v);
	for (const struct km_dd_machine *const *d = km_dd_machines(); *d; d++)
		list_line("machine", w, (*d)->name, (*d)->summary, reg, NULL);
	for (const struct km_usbnet_variant *const *v = km_registry_usbnet(reg); *v; v++)
		list_line("usbnet", w, (*v)->name, (*v)->summary, reg, *v);
}

/* --fail-on-reports: the rows of @t with BUG/WARN reports (its "reports"
 * column above 0; a stalled dd row's too), said on stderr. */
static unsigned int rows_with_reports(const struct km_table *t)
{
	long c = km_table_column_index(t, "reports");
	unsigned int n = 0;

	for (size_t r = 0; c >= 0 && r < km_table_nrows(t); r++) {
		const struct km_value *v = km_table_value(t, r, (size_t)c);

		n += v->type == KM_VALUE_INT && v->i > 0;
	}
	if (n)
		fprintf(stderr, "kmodel-bench: %s: %u row%s with BUG/WARN reports (--fail-on-reports)\n",
			km_table_name(t), n, n == 1 ? "" : "s");
	return n;
}

/* the options, for the JSON metadata */
static void json_options(JsonBuilder *b, const struct kb_opts *o)
{
#define STR(k, v) json_builder_set_member_name(b, k), json_builder_add_string_value(b, v)
#define INT(k, v) json_builder_set_member_name(b, k), json_builder_add_int_value(b, v)
	json_builder_set_member_name(b, "options");
	json_builder_begin_object(b);
	STR("scenarios", o->scenarios ? o->scenarios : "dd,iperf");
	INT("repeat", o->repeat);
	STR("dd_block_sizes", o->dd_block_sizes);
	STR("dd_variants", o->dd_variants ? o->dd_variants : "(all)");
	STR("dd_kmap", o->dd_kmap);
	STR("dd_kmap_strict", o->dd_kmap_strict);
	STR("dd_machines", o->dd_machines);
	INT("dd_total_mib", o->dd_total_mib);
	INT("dd_file_mib", o->dd_file_mib);
	STR("iperf_variants", o->iperf_variants ? o->iperf_variants : "(all that allow it)");
	INT("iperf_packets", o->iperf_packets);
	INT("iperf_mss", o->iperf_mss);
	INT("iperf_maxpacket", o->iperf_maxpacket);
	json_builder_set_member_name(b, "iperf_checker");
	json_builder_add_boolean_value(b, !o->iperf_no_checker);
	json_builder_set_member_name(b, "fail_on_reports");
	json_builder_add_boolean_value(b, o->fail_on_reports);
	/* the predicted columns' prices */
	STR("profile", o->profile ? o->profile : "(the one mapped to each row's machine)");
	if (o->profile) {	/* the file it resolved to */
		struct km_cost_profile *p;

		if (!km_cost_profile_load(o->profile, &p))
			STR("profile_file", km_cost_profile_file(p));
		km_cost_profile_free(p);
	}
	km_tool_json_strv(b, "load", o->load);
	json_builder_end_object(b);
#undef STR
#undef INT
}

/* --csv-dir: DIR/<scenario>.csv */
static int write_csv_file(const struct kb_opts *o, const struct km_table *t)
{
	gchar *name = g_strconcat(km_table_name(t), ".csv", NULL);
	gchar *path = g_build_filename(o->csv_dir, name, NULL);
	FILE *fp = km_tool_open_output("kmodel-bench", path);
	int rc = 2;

	if (fp) {
		kb_write_csv(fp, t);
		rc = km_tool_close_output("kmodel-bench", fp, path) ? 2 : 0;
	}
	g_free(name);
	g_free(path);
	return rc;
}

static int bench_main(int argc, char **argv)
{
	struct kb_opts o = {
		.repeat = G_MININT, .dd_total_mib = 64, .dd_file_mib = 16,
		.iperf_packets = 100000, .iperf_mss = 1448, .iperf_maxpacket = 512,
		.timeout = KM_TOOL_TIMEOUT_DEFAULT,
	};
	gboolean list = FALSE, version = FALSE;
	GOptionEntry entries[] = {
		{ "scenario", 's', 0, G_OPTION_ARG_STRING, &o.scenarios,
		  "Comma list of scenarios to run (default: all)", "NAMES" },
		{ "list", 'l', 0, G_OPTION_ARG_NONE, &list,
		  "List scenarios, variants (with where they come from) and machines", NULL },
		KM_TOOL_LOAD_ENTRY(&o.load),
		KM_TOOL_TIMEOUT_ENTRY(&o.timeout),
		{ "json", 0, 0, G_OPTION_ARG_NONE, &o.json,
		  "Write JSON: run metadata and one table per scenario", NULL },
		{ "csv", 0, 0, G_OPTION_ARG_NONE, &o.csv,
		  "Write one scenario's table as CSV (with several: --csv-dir)", NULL },
		{ "csv-dir", 0, 0, G_OPTION_ARG_FILENAME, &o.csv_dir,
		  "Write each scenario's table to DIR/<scenario>.csv (the text table still goes to "
		  "the output); DIR is created, with its missing parents, as by mkdir -p", "DIR" },
		KM_TOOL_OUTPUT_ENTRY(&o.output),
		{ "repeat", 'r', 0, G_OPTION_ARG_INT, &o.repeat,
		  "Timed runs per row, best kept: 1 .. 100 (default 9 where the host's timings are "
		  "shown or written: --host, --json, --csv, --csv-dir; else 1: the text tables' "
		  "counts and predictions come from a counted run after the timed ones)", "N" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &o.quiet, "No progress on stderr", NULL },
		{ "host", 0, 0, G_OPTION_ARG_NONE, &o.host,
		  "Text tables: show the host's timings (host MB/s, ratio to memcpy, spread, ns per "
		  "packet, Mpps, user instructions where the host counts them); JSON and CSV always "
		  "have them", NULL },
		{ "wide", 0, 0, G_OPTION_ARG_NONE, &o.wide,
		  "Text tables: every column and row (dd by row, not by block size), each row's "
		  "reports; without it they fit 100 columns", NULL },
		{ "no-summary", 0, 0, G_OPTION_ARG_NONE, &o.no_summary,
		  "Text output: leave out the seeds' published figures and their predictions "
		  "(priced as the tables are: --profile), which come first when both scenarios "
		  "run", NULL },
		{ "fail-on-reports", 0, 0, G_OPTION_ARG_NONE, &o.fail_on_reports,
		  "Exit 1 when any row has a BUG/WARN report (the default run's flawed built-ins "
		  "have some by design: without this option they do not fail the run)", NULL },
		{ "profile", 0, 0, G_OPTION_ARG_STRING, &o.profile,
		  "Cost profile (name or path, kmodel/cost.h) for the predicted columns of every row "
		  "(default: the one mapped to the row's machine)", "NAME|PATH" },
		KM_TOOL_VERSION_ENTRY(&version),
		{ 0 },
	};
	GOptionEntry dd_entries[] = {
		{ "dd-block-sizes", 0, 0, G_OPTION_ARG_STRING, &o.dd_block_sizes,
		  "dd block sizes (default 512,1K,4K,16K,32K,64K,1M)", "LIST" },
		{ "dd-variants", 0, 0, G_OPTION_ARG_STRING, &o.dd_variants,
		  "uaccess variants (default: all, see --list)", "LIST" },
		{ "dd-kmap", 0, 0, G_OPTION_ARG_STRING, &o.dd_kmap,
		  "kmap eras: pre-5.11 (kmap_atomic), 5.11 (kmap_local) or both (the same as "
		  "pre-5.11,5.11; default pre-5.11)",
		  "LIST" },
		{ "dd-kmap-strict", 0, 0, G_OPTION_ARG_STRING, &o.dd_kmap_strict,
		  "strict kmap mode of the rows' machines: off, strict or force-map (default off; "
		  "the memcpy baseline is always off)", "MODE" },
		{ "dd-machines", 0, 0, G_OPTION_ARG_STRING, &o.dd_machines,
		  "machine profiles (default bbw-config-highmem,bbw,a15,a15-nohighmem; see --list)",
		  "LIST" },
		{ "dd-total-mib", 0, 0, G_OPTION_ARG_INT, &o.dd_total_mib,
		  "MiB copied per timed run: 1 .. 65536, rounded up to whole passes over the input "
		  "file (default 64)", "MIB" },
		{ "dd-file-mib", 0, 0, G_OPTION_ARG_INT, &o.dd_file_mib,
		  "input file size in MiB (default 16). The input and output files and the buffer "
		  "share the RAM of each row's machine and of bbw (256 MiB), where the memcpy "
		  "baseline runs: at most 127 at blocks up to 1M, 95 at 64M (the error names the "
		  "limit). A pass over the file is one dd invocation, the output file truncated "
		  "first", "MIB" },
		{ 0 },
	};
	GOptionEntry iperf_entries[] = {
		{ "iperf-variants", 0, 0, G_OPTION_ARG_STRING, &o.iperf_variants,
		  "usbnet variants (default: all that meet the maxpacket, see --list; stderr names "
		  "those left out)", "LIST" },
		{ "iperf-packets", 0, 0, G_OPTION_ARG_INT, &o.iperf_packets,
		  "Packets per timed run (default 100000)", "N" },
		{ "iperf-mss", 0, 0, G_OPTION_ARG_INT, &o.iperf_mss,
		  "TCP MSS in bytes (default 1448: 1514-byte frames, MSS + 66); a device model "
		  "drops a frame longer than it takes (the AX88772's 1518 bytes: MSS 1452; "
		  "the row's first report says so)", "BYTES" },
		{ "iperf-maxpacket", 0, 0, G_OPTION_ARG_INT, &o.iperf_maxpacket,
		  "Bulk-out maxpacket: 8, 16, 32, 64, 512 or 1024 (default 512)", "BYTES" },
		{ "iperf-no-checker", 0, 0, G_OPTION_ARG_NONE, &o.iperf_no_checker,
		  "Run with the skb sharing checker off (km_skb_set_checker()): its cost", NULL },
		{ "iperf-rx", 0, 0, G_OPTION_ARG_NONE, &o.iperf_rx,
		  "iperf: also a tcp-rx row per variant with a receive side: the segments in "
		  "through usbnet's receive path and its rx_fixup, the ACKs out through its "
		  "tx_fixup (docs/receive.md)", NULL },
		{ 0 },
	};
	GOptionContext *ctx;
	GOptionGroup *dd, *iperf;
	GError *err = NULL;
	gchar **args = g_strdupv(argv);	/* the command line, before parsing */
	struct km_registry *reg = NULL;
	GPtrArray *tables = g_ptr_array_new_with_free_func((GDestroyNotify)km_table_free);
	FILE *fp = NULL;
	int rc = 0, nscen = 0, summary_rc = 0;
	bool reported = false;	/* --fail-on-reports: a row had reports */
	int crashed = 0;	/* a plugin's row crashed or timed out */

	km_tool_init();
	ctx = g_option_context_new("- libkmodel benchmarks");
	dd = g_option_group_new("dd", "dd scenario options:", "Show dd scenario options", NULL, NULL);
	iperf = g_option_group_new("iperf", "iperf scenario options:", "Show iperf scenario options",
				   NULL, NULL);
	g_option_context_set_summary(ctx,
		"Runs the seeds' workloads (kmodel/scenario.h) on simulated machines and prices\n"
		"the modelled kernel events (of a counted run after the timed ones) with each\n"
		"machine's cost profile: what the target would do. The host's own timings --\n"
		"dd's throughput and its ratio to a plain-memcpy baseline of the same run,\n"
		"iperf's thread CPU time per packet, the retired user instructions where the\n"
		"host counts them -- are the --host view, and always in JSON and CSV. Variants\n"
		"come from the built-ins and --load plugins; one built outside libkmodel is marked\n"
		"'*': it is not inlined as the built-ins are.\n\n"
		"Scenarios:\n"
		"  dd     dd if=<tmpfs file> of=<tmpfs file> bs=N through a user buffer: each\n"
		"         block a read(2) (copy_page_to_iter(): copy_to_user through the variant,\n"
		"         under kmap_atomic with CONFIG_HIGHMEM) and a write(2)\n"
		"         (generic_perform_write(): fault-in, kmap_atomic, atomic copy_from_user).\n"
		"  iperf  N TCP segments (with and without a packet tap) and UDP datagrams through\n"
		"         usbnet and each driver's tx_fixup (asix before/after \"asix: avoid\n"
		"         copies in tx path\", 2012, and the others registered) to its device\n"
		"         model, which parses every frame back.");
	g_option_context_set_description(ctx,
		"Subcommands (each with its --help and man page):\n"
		"  reproduce  the seeds' published figures against the cost model's\n"
		"             predictions: kmodel-bench reproduce [OPTION...],\n"
		"             kmodel-bench-reproduce(1)\n"
		"  calibrate  write a cost profile of this host from timings of the model's\n"
		"             own operations: kmodel-bench calibrate -o FILE,\n"
		"             kmodel-bench-calibrate(1)\n\n"
		"Output on stdout (or -o FILE): as text, first the seeds' published figures\n"
		"next to their predictions (the headline of `reproduce`; --no-summary), then a\n"
		"table per scenario in 100 columns -- dd the predicted MB/s of each variant and\n"
		"machine by block size, iperf a row per variant and traffic; a value every row\n"
		"shares is said once above -- and below it one line per variant and report\n"
		"code, each failing row's first report and first frame that did not verify.\n"
		"--host adds the host's timings, --wide shows every column and a line per row.\n"
		"--json one document; --csv one scenario's table (one schema per stream);\n"
		"--csv-dir DIR one CSV file per scenario.\n\n"
		"Exit status: 0 done, 1 a scenario failed (leaks or a task left in atomic\n"
		"context at a row's teardown, frames that did not verify: the table is still\n"
		"written and the message names every such row; with --fail-on-reports, a\n"
		"BUG/WARN report in any row; a plugin's row that crashed or timed out), 2\n"
		"bad usage or the output could not be written (-o, --csv-dir), as\n"
		"kmodel-check.\n\n"
		"A plugin's variant first runs each of its rows once in a forked child: a\n"
		"row that crashes or runs past --timeout is named on stderr and left out,\n"
		"and the other rows run and print.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_group_add_entries(dd, dd_entries);
	g_option_context_add_group(ctx, dd);
	g_option_group_add_entries(iperf, iperf_entries);
	g_option_context_add_group(ctx, iperf);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "kmodel-bench: %s\n", err->message);
		rc = 2;
		goto out;
	}
	if (version) {
		km_tool_print_version("kmodel-bench");
		goto out;
	}
	/* defaults after parsing: GOption overwrites a string without freeing it */
	if (!o.dd_block_sizes)
		o.dd_block_sizes = g_strdup("512,1K,4K,16K,32K,64K,1M");
	if (!o.dd_kmap)
		o.dd_kmap = g_strdup("pre-5.11");
	if (!o.dd_kmap_strict)
		o.dd_kmap_strict = g_strdup("off");
	if (!o.dd_machines)
		o.dd_machines = g_strdup("bbw-config-highmem,bbw,a15,a15-nohighmem");
	if (o.repeat == G_MININT)	/* timings nobody sees are not worth a run */
		o.repeat = o.host || o.json || o.csv || o.csv_dir ? 9 : 1;
	if (argc > 1)
		usage_error(&rc, "unexpected argument \"%s\"", argv[1]);
	if (o.repeat < 1 || o.repeat > 100)
		usage_error(&rc, "--repeat %d: want 1 .. 100", o.repeat);
	if (o.timeout < 0)
		usage_error(&rc, "--timeout %d: want 0 or more", o.timeout);
	if (o.dd_total_mib < 1 || o.dd_total_mib > 65536)
		usage_error(&rc, "--dd-total-mib %d: want 1 .. 65536", o.dd_total_mib);
	/* the upper limit is the machines' RAM: km_dd_run() names it */
	if (o.dd_file_mib < 1 || o.dd_file_mib > 65536)
		usage_error(&rc, "--dd-file-mib %d: want 1 .. the limit of the machines' RAM "
			    "(bbw: 127)", o.dd_file_mib);
	if (o.iperf_packets < 1)
		usage_error(&rc, "--iperf-packets %d: want at least 1", o.iperf_packets);
	if (o.iperf_mss < 1 || o.iperf_mss > 65535 - 66)
		usage_error(&rc, "--iperf-mss %d: want 1 .. %d", o.iperf_mss, 65535 - 66);
	if (o.iperf_maxpacket != 8 && o.iperf_maxpacket != 16 && o.iperf_maxpacket != 32 &&
	    o.iperf_maxpacket != 64 && o.iperf_maxpacket != 512 && o.iperf_maxpacket != 1024)
		usage_error(&rc, "--iperf-maxpacket %d: want 8, 16, 32, 64, 512 or 1024",
			    o.iperf_maxpacket);
	if (o.json + o.csv > 1)
		usage_error(&rc, "--json and --csv exclude each other");
	if (o.scenarios && (o.scenario_names = names_of("scenario", o.scenarios, &rc))) {
		for (gchar **n = o.scenario_names; *n; n++) {
			gboolean known = FALSE;

			for (size_t i = 0; i < G_N_ELEMENTS(scenarios); i++)
				known |= strcmp(*n, scenarios[i].name) == 0;
			if (!known) {
				const char *names[G_N_ELEMENTS(scenarios)];

				for (size_t i = 0; i < G_N_ELEMENTS(scenarios); i++)
					names[i] = scenarios[i].name;
				km_tool_unknown("kmodel-bench", "scenario", *n, names,
						G_N_ELEMENTS(scenarios));
				rc = 2;
			}
		}
	}
	for (size_t i = 0; i < G_N_ELEMENTS(scenarios); i++)
		nscen += wanted(&o, scenarios[i].name);
	if (o.csv && nscen > 1)
		usage_error(&rc, "--csv writes one table: pick one scenario with -s, or use "
				 "--csv-dir DIR for one file per scenario");
	if (rc)
		goto out;
	reg = km_tool_registry("kmodel-bench", o.load);
	if (!reg) {
		rc = 2;
		goto out;
	}
	if (list) {
		list_all(reg);
		goto out;
	}
	if (o.csv_dir && g_mkdir_with_parents(o.csv_dir, 0777)) {
		fprintf(stderr, "kmodel-bench: --csv-dir %s: %s\n", o.csv_dir, g_strerror(errno));
		rc = 2;
		goto out;
	}
	fp = km_tool_open_output("kmodel-bench", o.output);
	if (!fp) {
		rc = 2;
		goto out;
	}
	/* the answer first: the seeds' figures on their own configurations */
	if (!o.json && !o.csv && !o.no_summary && nscen == G_N_ELEMENTS(scenarios)) {
		progress_line(&o, "%s", "kmodel-bench: the seeds' figures");
		summary_rc = kb_reproduce_summary(fp, o.profile);
		progress_line(&o, "%s", "");
		fputc('\n', fp);
		fflush(fp);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(scenarios) && !rc; i++) {
		struct km_table *t;

		if (!wanted(&o, scenarios[i].name))
			continue;
		/* a plugin's row that crashed: exit 1, the other scenarios run */
		rc = run_scenario(&o, reg, scenarios[i].name, &t, &crashed);
		progress_line(&o, "%s", "");
		if (!t)
			continue;
		g_ptr_array_add(tables, t);
		if (km_cost_table_predict(t, o.profile)) {
			fprintf(stderr, "kmodel-bench: %s\n", km_last_error());
			rc = 2;
			break;
		}
		if (o.csv_dir && write_csv_file(&o, t))
			rc = 2;
		if (o.fail_on_reports && rows_with_reports(t))
			reported = true;	/* the other scenarios still run */
		if (o.csv) {
			kb_write_csv(fp, t);
		} else if (!o.json) {
			if (tables->len > 1)
				fputc('\n', fp);
			kb_write_text(fp, t, (o.host ? KB_TEXT_HOST : 0) | (o.wide ? KB_TEXT_WIDE : 0));
		}
		fflush(fp);
	}
	if (o.json) {
		JsonBuilder *b = json_builder_new();
		JsonNode *root;

		json_builder_begin_object(b);
		km_tool_json_metadata(b, "kmodel-bench", g_strv_length(args), args);
		json_options(b, &o);
		/* the rows' host_minsn_per_mib, host_insn_per_packet: counted,
		 * or why not */
		json_builder_set_member_name(b, "host_instructions");
		if (km_scenario_host_insn()) {
			gchar *why = g_strdup_printf("not counted: perf_event_open(2): %s",
						     g_strerror(-km_scenario_host_insn()));

			json_builder_add_string_value(b, why);
			g_free(why);
		} else {
			json_builder_add_string_value(b, "counted");
		}
		json_builder_set_member_name(b, "scenarios");
		json_builder_begin_object(b);
		for (guint i = 0; i < tables->len; i++) {
			json_builder_set_member_name(b, km_table_name(g_ptr_array_index(tables, i)));
			kb_json_table(b, g_ptr_array_index(tables, i));
		}
		json_builder_end_object(b);
		json_builder_end_object(b);
		root = json_builder_get_root(b);
		km_tool_print_json(fp, root);
		json_node_unref(root);
		g_object_unref(b);
	}
	if (km_tool_close_output("kmodel-bench", fp, o.output))
		rc = 2;
	if ((reported || crashed) && !rc)
		rc = 1;
	if (summary_rc && !rc)	/* said on stderr; the tables still came */
		rc = summary_rc;
out:
	g_ptr_array_free(tables, TRUE);
	km_registry_free(reg);
	g_option_context_free(ctx);
	g_clear_error(&err);
	g_strfreev(args);
	g_strfreev(o.load);
	g_free(o.csv_dir);
	g_free(o.output);
	g_free(o.scenarios);
	g_strfreev(o.scenario_names);
	g_free(o.dd_block_sizes);
	g_free(o.dd_variants);
	g_free(o.dd_kmap);
	g_free(o.dd_kmap_strict);
	g_free(o.dd_machines);
	g_free(o.iperf_variants);
	g_free(o.profile);
	return rc;
}

/* `kmodel-bench reproduce ...` and `kmodel-bench calibrate ...` are
 * subcommands; anything else runs the scenarios */
int main(int argc, char **argv)
{
	/* the subcommand's --help and messages name the tool and the subcommand */
	if (argc > 1 && !strcmp(argv[1], "reproduce")) {
		km_tool_init();
		g_set_prgname("kmodel-bench reproduce");
		return kb_reproduce(argc - 1, argv + 1);
	}
	if (argc > 1 && !strcmp(argv[1], "calibrate")) {
		km_tool_init();
		g_set_prgname("kmodel-bench calibrate");
		return kb_calibrate(argc - 1, argv + 1);
	}
	return bench_main(argc, argv);
}
