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
#include <sys/mman.h>
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
	gchar **variant;		/* --variant: uaccess or usbnet variants; NULL: all */
	gint repeat;
	gchar *scenarios;		/* comma list, NULL: all */
	gchar **scenario_names;		/* its names; NULL: all */
	gchar *dd_block_sizes, *dd_variants, *dd_kmap, *dd_machines, *dd_kmap_strict;
	gint dd_total_mib, dd_file_mib;
	gboolean dd_page_aligned;	/* dd's buffer on a page boundary (GNU dd's) */
	gchar *iperf_variants;
	gchar *profile;			/* --profile: cost profile for every row */
	gint iperf_packets, iperf_mss, iperf_maxpacket;
	gboolean iperf_no_checker;
	gboolean iperf_rx;
	gboolean fail_on_reports;	/* a BUG/WARN report in any row: exit 1 */
	gint timeout;			/* --timeout: a plugin's isolated run, seconds */
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

/*
 * --variant: each name a variant of the registry, uaccess (dd's rows) or
 * usbnet (iperf's), into --dd-variants and --iperf-variants (which it
 * excludes); a scenario none of the names is for is left out, an error
 * when -s names it. An exit status: 0, or 2 after saying why.
 */
static int pick_variants(struct kb_opts *o, const struct km_registry *reg)
{
	GString *lists[2] = { g_string_new(NULL), g_string_new(NULL) };	/* dd, iperf */
	static const char *const kinds[2] = { "uaccess", "usbnet" };
	char **names;
	int rc = 0;

	if (km_tool_split_names("kmodel-bench", "variant", o->variant, &names))
		rc = 2;
	if (names && (o->dd_variants || o->iperf_variants))
		usage_error(&rc, "--variant and --%s exclude each other",
			    o->dd_variants ? "dd-variants" : "iperf-variants");
	for (char **n = names; !rc && n && *n; n++) {
		bool u = km_registry_find_uaccess(reg, *n), b = km_registry_find_usbnet(reg, *n);

		if (u)
			g_string_append_printf(lists[0], ",%s", *n);
		if (b)
			g_string_append_printf(lists[1], ",%s", *n);
		if (!u && !b) {
			GPtrArray *known = g_ptr_array_new();

			for (const struct km_uaccess_ops *const *v = km_registry_uaccess(reg); *v; v++)
				g_ptr_array_add(known, (gpointer)(*v)->name);
			for (const struct km_usbnet_variant *const *v = km_registry_usbnet(reg); *v; v++)
				g_ptr_array_add(known, (gpointer)(*v)->name);
			km_tool_unknown("kmodel-bench", "variant", *n, (const char *const *)known->pdata,
					known->len);
			g_ptr_array_free(known, TRUE);
			rc = 2;
		}
	}
	if (names && !rc) {
		GPtrArray *keep = g_ptr_array_new_with_free_func(g_free);

		o->dd_variants = lists[0]->len ? g_strdup(lists[0]->str + 1) : NULL;
		o->iperf_variants = lists[1]->len ? g_strdup(lists[1]->str + 1) : NULL;
		for (size_t i = 0; i < G_N_ELEMENTS(scenarios); i++) {
			if (!wanted(o, scenarios[i].name))
				continue;
			if (lists[i]->len)
				g_ptr_array_add(keep, g_strdup(scenarios[i].name));
			else if (o->scenario_names)
				usage_error(&rc, "-s %s: --variant names no %s variant",
					    scenarios[i].name, kinds[i]);
		}
		g_ptr_array_add(keep, NULL);
		g_strfreev(o->scenario_names);
		o->scenario_names = (gchar **)g_ptr_array_free(keep, FALSE);
	}
	g_strfreev(names);
	g_string_free(lists[0], TRUE);
	g_string_free(lists[1], TRUE);
	return rc;
}

/* the dd cases: --dd-variants x --dd-machines x --dd-kmap */
static int dd_cases(const struct kb_opts *o, const struct km_registry *reg, GArray *cases)
{
	int rc = 0;
	gchar **vs = o->dd_variants ? names_of("dd-variants", o->dd_variants, &rc) : NULL;
	gchar **ms = names_of("dd-machines", o->dd_machines, &rc);
	gchar **ks = o->dd_kmap ? names_of("dd-kmap", o->dd_kmap, &rc) : NULL;
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
	for (guint v = 0; v < ops->len && !rc; v++) {
		/* no --dd-kmap: the era the variant's plugin was written for
		 * (a built-in's version is 0: pre-5.11) */
		if (!o->dd_kmap) {
			kmap[1] = km_tool_kmap_local(
				km_registry_kernel_version(reg, g_ptr_array_index(ops, v)));
			kmap[0] = !kmap[1];
		}
		for (guint d = 0; d < machs->len; d++)
			for (int k = 0; k < 2; k++)
				if (kmap[k])
					g_array_append_val(cases, ((struct km_dd_case){
						g_ptr_array_index(ops, v), g_ptr_array_index(machs, d),
						k ? KM_KMAP_LOCAL : KM_KMAP_ATOMIC_PRE_5_11 }));
	}
	g_strfreev(vs);
	g_strfreev(ms);
	g_strfreev(ks);
	g_ptr_array_free(ops, TRUE);
	g_ptr_array_free(machs, TRUE);
	return rc;
}

/* a receive-only variant (a plugin's): no device model takes its bulk-out,
 * so it has no iperf rows; a notice, as for a maxpacket it does not meet */
static void rx_only_notice(const struct km_usbnet_variant *v)
{
	g_printerr("kmodel-bench: iperf skips %s: a receive side only (no device model "
		   "parses its bulk-out); see kmodel-sweep rx\n", v->name);
}

/* a variant the library has built in: the registry's, or a built-in
 * receive variant (km_usbnet_rx_variants(): ax88179's and mainline asix's
 * transmit side with an earlier rx_fixup), which is not in the registry */
static bool iperf_builtin(const struct km_registry *reg, const struct km_usbnet_variant *v)
{
	return km_registry_builtin(reg, v) ||
	       (!km_registry_find_usbnet(reg, v->name) && km_usbnet_find_any(v->name) == v);
}

/* the iperf variants: --iperf-variants, or every usbnet variant of the
 * registry that meets a device of this maxpacket. A built-in receive
 * variant only by name, with --iperf-rx (its tcp-rx row alone): by
 * default their rows would fail the run on the findings their ports keep
 * (ax88179-v5.7 passes every frame up 2 bytes long) */
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
			if (!km_usbnet_variant_has_tx_dev(*v))
				rx_only_notice(*v);
			else if (km_usbnet_variant_allows(*v, speed, mp))
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

		if (!v && (v = km_usbnet_find_any(*n)) && !o->iperf_rx) {
			/* a built-in receive variant: its one row is tcp-rx */
			g_printerr("kmodel-bench: --iperf-variants: %s is a built-in receive variant: "
				   "its only iperf row is tcp-rx; add --iperf-rx\n", *n);
			rc = 2;
		} else if (!v) {
			km_tool_unknown_variant("kmodel-bench", reg, true, *n);
			rc = 2;
		} else if (!km_usbnet_variant_has_tx_dev(v)) {
			rx_only_notice(v);
			continue;
		}
		g_ptr_array_add(out, (gpointer)v);
	}
	g_strfreev(names);
	return rc;
}

/*
 * A plugin's variant runs isolated (km_tool_isolated()): its rows in a
 * forked child, which sends back its table (km_table_serialize()) and
 * the scenario's error; the built-ins' rows run here. dd: a child per
 * case (its block sizes), against a memcpy baseline of its own; one that
 * crashes or runs past --timeout is run again a block size per child, so
 * the rows that fail name their block size and the others keep their
 * numbers. iperf: a child per variant (its traffic kinds), which marks in
 * a shared page the traffic it was timing. A row lost so is a failing
 * row (column error) naming the variant, the machine and the case.
 */
struct iso_where {
	char traffic[16];	/* iperf: the traffic kind set up or timed */
	unsigned int run, runs;	/* the timed run begun (0: its setup, warm-up) */
};

struct iso_job {
	const struct kb_opts *o;
	const struct km_dd_opts *dd;
	const struct km_dd_case *dd_case;
	const struct km_iperf_opts *iperf;
	const struct km_usbnet_variant *iperf_variant;
	struct iso_where *where;	/* iperf: MAP_SHARED, or NULL */
};

static void iso_iperf_traffic(void *arg, const char *traffic)
{
	const struct iso_job *j = arg;

	if (j->where) {
		g_strlcpy(j->where->traffic, traffic, sizeof(j->where->traffic));
		j->where->run = 0;
	}
}

static void iso_iperf_progress(void *arg, const char *traffic, unsigned int run, unsigned int runs)
{
	const struct iso_job *j = arg;

	if (j->where) {
		g_strlcpy(j->where->traffic, traffic, sizeof(j->where->traffic));
		j->where->run = run;
		j->where->runs = runs;
	}
	iperf_progress((void *)j->o, traffic, run, runs);
}

/* the child: [int err][int has table][guint32 message length][message][table] */
static int iso_child(void *arg, GByteArray *out)
{
	const struct iso_job *j = arg;
	struct km_table *t = NULL;
	void *data = NULL;
	size_t len = 0;
	int err, has;
	guint32 mlen;

	if (j->dd) {
		err = km_dd_run(j->dd, j->dd_case, 1, &t);
	} else {
		struct km_iperf_opts io = *j->iperf;

		io.progress = iso_iperf_progress;
		io.progress_arg = (void *)j;
		io.on_traffic = iso_iperf_traffic;
		io.on_traffic_arg = (void *)j;
		err = km_iperf_run(&io, &j->iperf_variant, 1, &t);
	}
	mlen = err ? (guint32)strlen(km_last_error()) : 0;
	has = t && !km_table_serialize(t, &data, &len);
	g_byte_array_append(out, (const guint8 *)&err, sizeof(err));
	g_byte_array_append(out, (const guint8 *)&has, sizeof(has));
	g_byte_array_append(out, (const guint8 *)&mlen, sizeof(mlen));
	g_byte_array_append(out, (const guint8 *)km_last_error(), mlen);
	if (has)
		g_byte_array_append(out, data, (guint)len);
	free(data);
	km_table_free(t);
	return 0;
}

/* Run @j isolated: 0 with the scenario's error in *@err (its message in
 * *@msg, g_free()) and its table in *@t (NULL: none); -1 with why the
 * child died in *@failure (g_free()). */
static int iso_run(const struct iso_job *j, struct km_table **t, int *err, gchar **msg,
		   gchar **failure)
{
	GByteArray *b = g_byte_array_new();
	const gsize head = sizeof(int) * 2 + sizeof(guint32);
	int has = 0;
	guint32 mlen = 0;

	*t = NULL;
	*msg = NULL;
	km_tool_isolated((unsigned int)j->o->timeout, iso_child, (void *)j, b, failure);
	if (!*failure && b->len >= head) {
		memcpy(err, b->data, sizeof(*err));
		memcpy(&has, b->data + sizeof(int), sizeof(has));
		memcpy(&mlen, b->data + 2 * sizeof(int), sizeof(mlen));
	}
	if (!*failure && (b->len < head || mlen > b->len - head ||
			  (has && km_table_deserialize(b->data + head + mlen,
						       b->len - head - mlen, t))))
		*failure = g_strdup_printf("sent back no result (%s)", km_last_error());
	if (!*failure)
		*msg = g_strndup((const char *)b->data + head, mlen);
	g_byte_array_free(b, TRUE);
	return *failure ? -1 : 0;
}

/* "kmodel-bench: dd: ..." for a scenario's error @msg (the library's start
 * "dd: ", some of them; files that do not fit the RAM: the option to
 * lower). The rows that failed, of this process's run and the isolated
 * ones alike, are said once, in one line (@failed), at the end. */
static void scenario_error(const char *scenario, int err, const char *msg, GString *failed)
{
	gchar *prefix = g_strdup_printf("%s: ", scenario);
	gchar *rows = g_strdup_printf("%s: rows that failed: ", scenario);

	if (g_str_has_prefix(msg, rows))
		g_string_append_printf(failed, "; %s", msg + strlen(rows));
	else
		fprintf(stderr, "kmodel-bench: %s%s%s\n", g_str_has_prefix(msg, prefix) ? "" : prefix,
			msg, !strcmp(scenario, "dd") && (err == -ENOMEM || strstr(msg, "MiB per file")) ?
			" (lower --dd-file-mib)" : "");
	g_free(prefix);
	g_free(rows);
}

/* the rows that failed, gathered by scenario_error() */
static void say_failed(const char *scenario, GString *failed)
{
	if (failed->len)
		fprintf(stderr, "kmodel-bench: %s: rows that failed: %s\n", scenario, failed->str + 2);
	g_string_free(failed, TRUE);
}

/* the exit status of a scenario's error */
static int scenario_rc(int err)
{
	return err == 0 ? 0 : err == -EINVAL ? 2 : 1;
}

/* a row lost with its process: the values that name it and why (and,
 * with @where, what its columns do not say: ", @where" in its error), said
 * on stderr too */
static void lost_row(struct km_table *t, const char *row, const char *failure, const char *where,
		     const char *const *cols, const struct km_value *vals, size_t n)
{
	long r = km_table_append_row(t, NULL, 0);
	gchar *why = g_strdup_printf("%s%s", g_str_has_prefix(failure, "crashed") ||
				     g_str_has_prefix(failure, "timed out") ? "" : "crashed: ",
				     failure);
	gchar *cell = where ? g_strdup_printf("%s, %s", why, where) : g_strdup(why);
	struct km_value e = { .type = KM_VALUE_STRING, .s = cell };

	for (size_t i = 0; r >= 0 && i < n; i++)
		km_table_set_value(t, (size_t)r, cols[i], &vals[i]);
	if (r >= 0)
		km_table_set_value(t, (size_t)r, "error", &e);
	fprintf(stderr, "kmodel-bench: %s: %s: the row fails, the others run\n", row, why);
	g_free(cell);
	g_free(why);
}

#define KV_S(x) { .type = KM_VALUE_STRING, .s = (x) }
#define KV_B(x) { .type = KM_VALUE_BOOL, .b = (x) }
#define KV_I(x) { .type = KM_VALUE_INT, .i = (x) }

/* one dd row lost: case @c at block size @bs */
static void dd_lost_row(struct km_table *t, const struct km_dd_opts *d, const struct km_dd_case *c,
			unsigned long bs, const char *failure)
{
	static const char *const cols[] = { "variant", "builtin", "machine", "kmap", "kmap_strict",
					    "highmem", "fast_gup", "block_size", "stalled" };
	const char *era = c->kmap == KM_KMAP_LOCAL ? "5.11" : "pre-5.11";
	const char *strict = d->kmap_strict == KM_KMAP_STRICT_FORCE_MAP ? "force-map" :
			     d->kmap_strict == KM_KMAP_STRICT ? "strict" : "off";
	const struct km_value vals[] = {
		KV_S(c->ops->name), KV_B(false), KV_S(c->machine->name), KV_S(era), KV_S(strict),
		KV_B(km_dd_machine_highmem(c->machine)), KV_B(c->machine->fast_gup),
		KV_I((int64_t)bs), KV_B(false),
	};
	gchar *row = g_strdup_printf("dd: %s on %s (%s), bs %lu", c->ops->name, c->machine->name,
				     era, bs);

	lost_row(t, row, failure, NULL, cols, vals, G_N_ELEMENTS(cols));
	g_free(row);
}

/* a row of the merged table: row @r of @t, or lost (why in @lost) */
struct dd_cell {
	const struct km_table *t;
	size_t r;
	gchar *lost;
};

/* Run the plugin's case @c isolated (a block size per child if its
 * process dies) into @cells[0 .. nblock_sizes), the tables kept in
 * @tables. 0, or the exit status of a scenario error (said). A child's
 * rows that failed are said, and raise *@rc to 1. */
static int dd_isolated(const struct kb_opts *o, const struct km_dd_opts *d,
		       const struct km_dd_case *c, struct dd_cell *cells, GPtrArray *tables, int *rc,
		       GString *failed)
{
	struct iso_job j = { .o = o, .dd = d, .dd_case = c };
	size_t nbs = d->nblock_sizes, per = nbs;	/* block sizes per child */
	struct km_dd_opts one = *d;

	for (size_t s = 0; s < nbs; s += per) {
		struct km_table *t;
		gchar *msg, *failure;
		int err = 0;

		one.block_sizes = &d->block_sizes[s];
		one.nblock_sizes = per;
		j.dd = &one;
		if (iso_run(&j, &t, &err, &msg, &failure) == 0 && !t) {
			/* no table: the scenario failed as a whole (a bad option,
			 * no memory), as it would have here */
			scenario_error("dd", err, msg, failed);
			g_free(msg);
			return scenario_rc(err);
		}
		if (!failure && km_table_nrows(t) != 2 * per) {
			failure = g_strdup("crashed: sent back a table of other rows");
			g_clear_pointer(&t, km_table_free);
		}
		if (failure && per > 1) {	/* again, a block size each */
			g_free(failure);
			g_free(msg);
			per = 1;
			s = (size_t)-1;
			continue;
		}
		for (size_t k = 0; k < per; k++) {
			/* per block size the child's baseline, then the case */
			cells[s + k] = (struct dd_cell){ t, 2 * k + 1,
							 failure ? g_strdup(failure) : NULL };
		}
		if (t)
			g_ptr_array_add(tables, t);
		if (err) {	/* rows that failed: their table is good */
			scenario_error("dd", err, msg, failed);
			*rc = MAX(*rc, 1);
		}
		g_free(failure);
		g_free(msg);
	}
	return 0;
}

/* dd: the built-in cases here, each plugin's case isolated; the table in
 * the library's order (per block size the baseline, then the cases). An
 * exit status. */
static int dd_scenario(const struct kb_opts *o, const struct km_registry *reg,
		       const struct km_dd_opts *d, const GArray *cases, struct km_table **out,
		       int *crashed)
{
	GArray *builtin = g_array_new(FALSE, FALSE, sizeof(struct km_dd_case));
	GPtrArray *tables = g_ptr_array_new_with_free_func((GDestroyNotify)km_table_free);
	size_t nbs = d->nblock_sizes, nc = cases->len;
	struct dd_cell *cells = g_new0(struct dd_cell, MAX(nc * nbs, 1));
	struct km_table *here = NULL;
	GString *failed = g_string_new(NULL);
	int rc = 0, err;

	for (guint i = 0; i < nc; i++) {
		const struct km_dd_case *c = &g_array_index(cases, struct km_dd_case, i);

		if (km_registry_builtin(reg, c->ops))
			g_array_append_val(builtin, *c);
	}
	err = km_dd_run(d, (const struct km_dd_case *)(void *)builtin->data, builtin->len, &here);
	if (err)
		scenario_error("dd", err, km_last_error(), failed);
	rc = scenario_rc(err);
	for (guint i = 0, b = 0; i < nc && here; i++) {
		const struct km_dd_case *c = &g_array_index(cases, struct km_dd_case, i);
		int e;

		if (km_registry_builtin(reg, c->ops)) {
			for (size_t s = 0; s < nbs; s++)
				cells[i * nbs + s] = (struct dd_cell){
					here, s * (builtin->len + 1) + 1 + b, NULL };
			b++;
		} else if ((e = dd_isolated(o, d, c, &cells[i * nbs], tables, &rc, failed))) {
			rc = e;
			g_clear_pointer(&here, km_table_free);
		}
	}
	if (here) {
		*out = km_table_new_like(here);
		for (size_t s = 0; s < nbs; s++) {
			km_table_append_row(*out, here, s * (builtin->len + 1));	/* memcpy */
			for (guint i = 0; i < nc; i++) {
				struct dd_cell *cell = &cells[i * nbs + s];

				if (cell->lost)
					dd_lost_row(*out, d, &g_array_index(cases, struct km_dd_case, i),
						    d->block_sizes[s], cell->lost);
				else
					km_table_append_row(*out, cell->t, cell->r);
			}
		}
		for (guint i = 0; i < nc * nbs; i++)
			if (cells[i].lost)
				*crashed = 1;	/* the other scenarios still run */
	}
	say_failed("dd", failed);
	for (guint i = 0; i < nc * nbs; i++)
		g_free(cells[i].lost);
	g_free(cells);
	km_table_free(here);
	g_ptr_array_free(tables, TRUE);
	g_array_free(builtin, TRUE);
	return rc;
}

/* one iperf row lost: variant @v in @traffic (where it was, or the
 * first traffic kind when it died before a timed run: @w says which),
 * named as a dd row is: the variant, the machine (the cost profile that
 * prices its row, --profile or the one mapped to iperf, and the usbnet
 * era the variant runs) and the case (the traffic kind, and its setup and
 * warm-up or the timed run last begun) */
static void iperf_lost_row(struct km_table *t, const struct kb_opts *o,
			   const struct km_iperf_opts *io, const struct km_usbnet_variant *v,
			   const char *traffic, const struct iso_where *w, const char *failure)
{
	static const char *const cols[] = { "variant", "builtin", "traffic", "maxpacket",
					    "packets" };
	const struct km_value vals[] = {
		KV_S(v->name), KV_B(false), KV_S(traffic), KV_I(io->maxpacket),
		KV_I((int64_t)io->packets),
	};
	const char *profile = o->profile ? o->profile : km_cost_profile_for(NULL);
	gchar *when = w->run ? g_strdup_printf("after timed run %u of %u began", w->run, w->runs) :
		      w->traffic[0] ? g_strdup("in its setup or warm-up") :
				      g_strdup("before its first traffic kind");
	gchar *machine = g_strdup_printf("%s (usbnet %s)", profile ? profile : "no profile",
					 km_usbnet_era_name(v->era));
	gchar *row = g_strdup_printf("iperf: %s on %s, %s, %s", v->name, machine, traffic, when);
	gchar *where = g_strdup_printf("%s, on %s", when, machine);

	lost_row(t, row, failure, where, cols, vals, G_N_ELEMENTS(cols));
	g_free(where);
	g_free(row);
	g_free(machine);
	g_free(when);
}

/* the traffic kind a plugin's variant died in (@w: where its child was;
 * none begun: the first of @traffics) */
static const char *lost_in(const struct iso_where *w, const GPtrArray *traffics)
{
	return w && w->traffic[0] ? w->traffic : g_ptr_array_index(traffics, 0);
}

/* iperf's traffic kinds, in the library's order (struct km_iperf_opts) */
static const char *const iperf_kinds[] = { "tcp", "tcp+tap", "udp", "tcp-rx" };

/* A plugin's variant (@j) died in traffic kind @in: its rows of the kinds
 * before it -- which ran to their end, but their table died with the
 * process -- run again, a kind per child; a table of them, or NULL. One
 * that dies alone too is said, and left out. */
static struct km_table *iperf_before(const struct iso_job *j, const char *in, GString *failed,
				     int *rc)
{
	struct km_iperf_opts one = *j->iperf;
	struct iso_job k = *j;
	struct km_table *all = NULL;

	k.iperf = &one;
	k.where = NULL;
	for (size_t i = 0; i < G_N_ELEMENTS(iperf_kinds) && strcmp(iperf_kinds[i], in); i++) {
		struct km_table *t;
		gchar *msg, *failure;
		int e = 0;

		one.traffic = iperf_kinds[i];
		if (iso_run(&k, &t, &e, &msg, &failure)) {
			fprintf(stderr, "kmodel-bench: iperf: %s, %s run again alone: %s: left out\n",
				j->iperf_variant->name, iperf_kinds[i], failure);
			g_free(failure);
			continue;
		}
		if (e) {
			scenario_error("iperf", e, msg, failed);
			*rc = MAX(*rc, scenario_rc(e));
		}
		g_free(msg);
		for (size_t r = 0; t && r < km_table_nrows(t); r++) {
			if (!all)
				all = km_table_new_like(t);
			km_table_append_row(all, t, r);
		}
		km_table_free(t);
	}
	return all;
}

/* the value of column @col of row @r, a string, or "" */
static const char *cell_str(const struct km_table *t, size_t r, const char *col)
{
	long c = km_table_column_index(t, col);
	const struct km_value *v = c >= 0 ? km_table_value(t, r, (size_t)c) : NULL;

	return v && v->type == KM_VALUE_STRING ? v->s : "";
}

/* iperf: the built-in variants here, each plugin's isolated (a child per
 * variant); the table in the library's order (per traffic kind the
 * variants in order). An exit status. */
static int iperf_scenario(const struct kb_opts *o, const struct km_registry *reg,
			  const struct km_iperf_opts *io, GPtrArray *vs, struct km_table **out,
			  int *crashed)
{
	GPtrArray *builtin = g_ptr_array_new();
	GPtrArray *tables = g_ptr_array_new_with_free_func((GDestroyNotify)km_table_free);
	GPtrArray *lost = g_ptr_array_new_with_free_func(g_free);	/* per variant: why */
	GPtrArray *traffics = g_ptr_array_new();	/* in order of first row */
	struct iso_where *where = mmap(NULL, sizeof(*where) * MAX(vs->len, 1),
				       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct km_table *here = NULL;
	GString *failed = g_string_new(NULL);
	bool *used;
	int rc, err;

	g_ptr_array_set_size(tables, vs->len);
	g_ptr_array_set_size(lost, vs->len);
	for (guint i = 0; i < vs->len; i++)
		if (iperf_builtin(reg, g_ptr_array_index(vs, i)))
			g_ptr_array_add(builtin, g_ptr_array_index(vs, i));
	err = km_iperf_run(io, (const struct km_usbnet_variant *const *)builtin->pdata, builtin->len,
			   &here);
	if (err)
		scenario_error("iperf", err, km_last_error(), failed);
	rc = scenario_rc(err);
	for (guint i = 0; i < vs->len && here; i++) {
		struct iso_job j = { .o = o, .iperf = io, .iperf_variant = g_ptr_array_index(vs, i),
				     .where = where == MAP_FAILED ? NULL : &where[i] };
		struct km_table *t;
		gchar *msg, *failure;
		int e = 0;

		if (iperf_builtin(reg, j.iperf_variant))
			continue;
		if (iso_run(&j, &t, &e, &msg, &failure)) {
			g_ptr_array_index(lost, i) = failure;
			if (j.where && j.where->traffic[0])
				g_ptr_array_index(tables, i) = iperf_before(&j, j.where->traffic,
									    failed, &rc);
			continue;
		}
		if (e)
			scenario_error("iperf", e, msg, failed);
		g_free(msg);
		if (!t) {	/* the scenario failed as a whole, as it would have here */
			rc = scenario_rc(e);
			g_clear_pointer(&here, km_table_free);
			break;
		}
		rc = MAX(rc, scenario_rc(e));
		g_ptr_array_index(tables, i) = t;
	}
	/* the traffic kinds: every table lists them in the library's order */
	for (guint i = 0; here && i <= vs->len; i++) {
		const struct km_table *t = i ? g_ptr_array_index(tables, i - 1) : here;

		for (size_t r = 0; t && r < km_table_nrows(t); r++)
			if (!g_ptr_array_find_with_equal_func(traffics, cell_str(t, r, "traffic"),
							      g_str_equal, NULL))
				g_ptr_array_add(traffics, (gpointer)cell_str(t, r, "traffic"));
	}
	if (here && !traffics->len)
		g_ptr_array_add(traffics, "tcp");
	/* and where a lost variant died, if no table has it (a variant alone
	 * that died in tcp+tap lost its row, and the run exited 0) */
	for (guint i = 0; here && i < vs->len; i++) {
		const char *in = lost_in(where == MAP_FAILED ? NULL : &where[i], traffics);

		if (g_ptr_array_index(lost, i) &&
		    !g_ptr_array_find_with_equal_func(traffics, in, g_str_equal, NULL))
			g_ptr_array_add(traffics, (gpointer)in);
	}
	used = g_new0(bool, here ? km_table_nrows(here) + 1 : 1);
	if (here)
		*out = km_table_new_like(here);
	for (guint k = 0; here && k < traffics->len; k++) {
		const char *tt = g_ptr_array_index(traffics, k);

		for (guint i = 0; i < vs->len; i++) {
			const struct km_usbnet_variant *v = g_ptr_array_index(vs, i);
			const struct km_table *t = g_ptr_array_index(tables, i);
			const struct iso_where *w = where == MAP_FAILED ? NULL : &where[i];
			const char *in = lost_in(w, traffics);

			if (iperf_builtin(reg, v)) {	/* its next row of this traffic */
				for (size_t r = 0; r < km_table_nrows(here); r++)
					if (!used[r] && !strcmp(cell_str(here, r, "traffic"), tt) &&
					    !strcmp(cell_str(here, r, "variant"), v->name)) {
						used[r] = true;
						km_table_append_row(*out, here, r);
						break;
					}
			} else {
				for (size_t r = 0; t && r < km_table_nrows(t); r++)
					if (!strcmp(cell_str(t, r, "traffic"), tt))
						km_table_append_row(*out, t, r);
			}
			if (!iperf_builtin(reg, v) && g_ptr_array_index(lost, i) &&
			    !strcmp(in, tt)) {	/* lost where it died */
				static const struct iso_where none;

				iperf_lost_row(*out, o, io, v, in, w ? w : &none,
					       g_ptr_array_index(lost, i));
				*crashed = 1;
			}
		}
	}
	say_failed("iperf", failed);
	g_free(used);
	if (where != MAP_FAILED)
		munmap(where, sizeof(*where) * MAX(vs->len, 1));
	km_table_free(here);
	g_ptr_array_free(traffics, TRUE);
	g_ptr_array_free(lost, TRUE);
	g_ptr_array_free(tables, TRUE);
	g_ptr_array_free(builtin, TRUE);
	return rc;
}

/* Run the scenario @name: its table in *@out. An exit status. */
static int run_scenario(const struct kb_opts *o, const struct km_registry *reg, const char *name,
			struct km_table **out, int *crashed)
{
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
			.buffer_page_aligned = o->dd_page_aligned,
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
			rc = dd_scenario(o, reg, &d, cases, out, crashed);
		}
		((struct kb_opts *)o)->dd_sizes = NULL;
		g_array_free(sizes, TRUE);
		g_array_free(cases, TRUE);
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

		if (!rc)
			rc = iperf_scenario(o, reg, &io, vs, out, crashed);
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
	STR("dd_kmap", o->dd_kmap ? o->dd_kmap : "(each variant's era)");
	STR("dd_kmap_strict", o->dd_kmap_strict);
	STR("dd_machines", o->dd_machines);
	INT("dd_total_mib", o->dd_total_mib);
	INT("dd_file_mib", o->dd_file_mib);
	json_builder_set_member_name(b, "dd_page_aligned");
	json_builder_add_boolean_value(b, o->dd_page_aligned);
	STR("iperf_variants", o->iperf_variants ? o->iperf_variants : "(all that allow it)");
	km_tool_json_strv(b, "variant", o->variant);
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
		KM_TOOL_VARIANT_ENTRY(&o.variant,
				      "Variants whose rows to run: a uaccess variant's dd rows, a usbnet "
				      "variant's iperf rows (a scenario none is for is left out; "
				      "instead of --dd-variants and --iperf-variants"),
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
		  "pre-5.11,5.11; default: 5.11 for a plugin's variant built at "
		  "KMODEL_KERNEL_VERSION 5.11 or later, else pre-5.11)",
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
		{ "dd-page-aligned", 0, 0, G_OPTION_ARG_NONE, &o.dd_page_aligned,
		  "dd's buffer starts on a page boundary, as GNU coreutils dd aligns it (default: "
		  "8 bytes into a page, busybox dd's xmalloc() with glibc)", NULL },
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
		  "tx_fixup (docs/receive.md); the built-in receive variants (asix-v4.14, "
		  "ax88179-v5.7, ...) by name in --iperf-variants, their tcp-rx row alone", NULL },
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
		"A plugin's variant's rows run in forked children (dd: a child per case,\n"
		"then per block size if it dies; iperf: per variant, then the traffic\n"
		"kinds before the one it died in, per kind): a row whose child\n"
		"crashes or runs past --timeout fails, its error column and stderr naming\n"
		"the variant, machine and case, and the other rows run and print.");
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
	if (rc)
		goto out;
	reg = km_tool_registry("kmodel-bench", o.load, o.timeout);
	if (!reg) {
		rc = 2;
		goto out;
	}
	if (list) {
		list_all(reg);
		goto out;
	}
	if ((rc = pick_variants(&o, reg)))
		goto out;
	for (size_t i = 0; i < G_N_ELEMENTS(scenarios); i++)
		nscen += wanted(&o, scenarios[i].name);
	if (o.csv && nscen > 1) {
		usage_error(&rc, "--csv writes one table: pick one scenario with -s, or use "
				 "--csv-dir DIR for one file per scenario");
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
	g_strfreev(o.variant);
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
