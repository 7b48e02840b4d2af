// SPDX-License-Identifier: GPL-2.0
/* kmodel-bench: text, CSV and JSON of the scenarios' tables (bench.h). */
#include "bench.h"
#include <errno.h>
#include <string.h>

/* the bool column @name of row @r: -1 when the table has none */
static int row_bool(const struct km_table *t, size_t r, const char *name)
{
	long c = km_table_column_index(t, name);
	const struct km_value *v = c < 0 ? NULL : km_table_value(t, r, (size_t)c);

	return v && v->type == KM_VALUE_BOOL ? v->b : -1;
}

/* the text of a value as the text table shows it (g_free) */
static gchar *cell(const struct km_column *c, const struct km_value *v, bool external)
{
	switch (v->type) {
	case KM_VALUE_STRING:
		return g_strconcat(v->s, external ? "*" : "", NULL);
	case KM_VALUE_BOOL:
		return g_strdup(v->b ? "on" : "off");
	case KM_VALUE_INT:
		return g_strdup_printf("%" G_GINT64_FORMAT, v->i);
	case KM_VALUE_DOUBLE:
		return g_strdup_printf("%.*f", c->precision, v->d);
	default:
		return g_strdup("-");
	}
}

/* The row's key in the text table: its KM_COL_KEY | KM_COL_TEXT values */
static gchar *row_key(const struct km_table *t, size_t r)
{
	GString *k = g_string_new(NULL);

	for (size_t c = 0; c < km_table_ncolumns(t); c++) {
		const struct km_column *col = km_table_column(t, c);
		const struct km_value *v = km_table_value(t, r, c);

		if ((col->flags & (KM_COL_KEY | KM_COL_TEXT)) != (KM_COL_KEY | KM_COL_TEXT))
			continue;
		if (v->type == KM_VALUE_STRING)
			g_string_append_printf(k, "%s%s", k->len ? " " : "", v->s);
		else if (v->type == KM_VALUE_INT)
			g_string_append_printf(k, "%s%s=%" G_GINT64_FORMAT, k->len ? " " : "",
					       col->heading, v->i);
	}
	return g_string_free(k, FALSE);
}

/* A dd row's error (its dd failed: column error), or NULL */
static const char *row_error(const struct km_table *t, size_t r)
{
	long c = km_table_column_index(t, "error");
	const struct km_value *v = c >= 0 ? km_table_value(t, r, (size_t)c) : NULL;

	return v && v->type == KM_VALUE_STRING ? v->s : NULL;
}

/* a row that has no numbers: it stalled or failed */
static bool row_stalled(const struct km_table *t, size_t r)
{
	return row_bool(t, r, "stalled") == 1 || row_error(t, r);
}

static const char *reports_unit(const struct km_table *t, size_t r, const struct km_column *col)
{
	return row_bool(t, r, "stalled") == 1 ? "until the stall" :
	       row_error(t, r) ? "until it failed" : col->unit;
}

/* Below the table, per row that has them (--wide): its reports by code
 * (the KM_COL_REPORT columns, headed with their unit; a stalled row's
 * until its stall, a failed one's until it failed), its first report's
 * message (column first_report) and the first frame that did not verify
 * (column first_mismatch). Without --wide the reports go by group
 * (group_reports()). */
static void write_row_notes(FILE *fp, const struct km_table *t, bool wide)
{
	long mism = km_table_column_index(t, "first_mismatch");
	long first = km_table_column_index(t, "first_report");

	for (size_t r = 0; r < km_table_nrows(t); r++) {
		gchar *key = NULL;

		for (size_t c = 0; c < km_table_ncolumns(t) && wide; c++) {
			const struct km_column *col = km_table_column(t, c);
			const struct km_value *v = km_table_value(t, r, c);

			if (!(col->flags & KM_COL_REPORT) || v->type != KM_VALUE_INT || !v->i)
				continue;
			if (!key)
				fprintf(fp, "%s: reports by code (%s):", (key = row_key(t, r)),
					reports_unit(t, r, col));
			fprintf(fp, " %s %" G_GINT64_FORMAT, col->heading, v->i);
		}
		if (key)
			fputc('\n', fp);
		if (first >= 0 && km_table_value(t, r, (size_t)first)->type == KM_VALUE_STRING &&
		    (key || !wide)) {
			if (!key)
				key = row_key(t, r);
			fprintf(fp, "%s: first report: %s\n", key,
				km_table_value(t, r, (size_t)first)->s);
		}
		if (mism >= 0 && km_table_value(t, r, (size_t)mism)->type == KM_VALUE_STRING) {
			if (!key)
				key = row_key(t, r);
			fprintf(fp, "%s: first mismatch: %s\n", key,
				km_table_value(t, r, (size_t)mism)->s);
		}
		g_free(key);
	}
}

/* One line per row group (its first key column: the variant) and report
 * code, where the table had one per row: "<variant>: <code> in N of M
 * rows, MIN .. MAX <unit>"; a group of one row keeps that row's key and
 * count. */
static void group_reports(FILE *fp, const struct km_table *t)
{
	size_t nr = km_table_nrows(t);
	GPtrArray *groups = g_ptr_array_new();	/* the variants, in order of first row */

	for (size_t r = 0; r < nr; r++) {
		const struct km_value *v = km_table_value(t, r, 0);

		if (v->type == KM_VALUE_STRING && !g_ptr_array_find_with_equal_func(groups, v->s,
										  g_str_equal, NULL))
			g_ptr_array_add(groups, (gpointer)v->s);
	}
	for (guint g = 0; g < groups->len; g++) {
		const char *name = g_ptr_array_index(groups, g);

		for (size_t c = 0; c < km_table_ncolumns(t); c++) {
			const struct km_column *col = km_table_column(t, c);
			gint64 lo = G_MAXINT64, hi = 0;
			size_t n = 0, rows = 0, last = 0;
			const char *unit = NULL;

			if (!(col->flags & KM_COL_REPORT))
				continue;
			for (size_t r = 0; r < nr; r++) {
				const struct km_value *v = km_table_value(t, r, c);

				if (km_table_value(t, r, 0)->type != KM_VALUE_STRING ||
				    strcmp(km_table_value(t, r, 0)->s, name))
					continue;
				rows++;
				if (v->type != KM_VALUE_INT || !v->i)
					continue;
				n++;
				last = r;
				lo = MIN(lo, v->i);
				hi = MAX(hi, v->i);
				/* a stalled or failed row's count is until then */
				unit = !unit || !strcmp(unit, reports_unit(t, r, col)) ?
				       reports_unit(t, r, col) : "per timed run, or until a row stopped";
			}
			if (n == 1) {
				gchar *key = row_key(t, last);

				fprintf(fp, "%s: reports by code (%s): %s %" G_GINT64_FORMAT "\n", key,
					unit, col->heading, lo);
				g_free(key);
			} else if (n && lo == hi) {
				fprintf(fp, "%s: reports by code (%s): %s %" G_GINT64_FORMAT
					" in %zu of %zu rows\n", name, unit, col->heading, lo, n, rows);
			} else if (n) {
				fprintf(fp, "%s: reports by code (%s): %s %" G_GINT64_FORMAT " .. %"
					G_GINT64_FORMAT " in %zu of %zu rows\n", name, unit, col->heading,
					lo, hi, n, rows);
			}
		}
	}
	g_ptr_array_free(groups, TRUE);
}

/* the host's measurements: a view asked for (--host) */
static bool host_column(const struct km_column *c)
{
	static const char *const names[] = { "host_mb_s", "ratio", "spread_pct",
					     "host_ns_per_packet", "mpps", "host_minsn_per_mib",
					     "host_insn_per_packet", NULL };

	return g_strv_contains(names, c->name);
}

/* does a row have a value in column @c? (the host's instructions: none
 * where it counts none) */
static bool has_values(const struct km_table *t, size_t c)
{
	for (size_t r = 0; r < km_table_nrows(t); r++)
		if (km_table_value(t, r, c)->type != KM_VALUE_NONE)
			return true;
	return false;
}

/* --host: how far the host's timings can be trusted, under the table */
static void host_notes(FILE *fp, const struct km_table *t)
{
	long spread = km_table_column_index(t, "spread_pct");
	long insn = km_table_column_index(t, "host_minsn_per_mib");
	int err = km_scenario_host_insn();
	double max = 0;

	if (insn < 0)
		insn = km_table_column_index(t, "host_insn_per_packet");
	for (size_t r = 0; spread >= 0 && r < km_table_nrows(t); r++)
		if (km_table_value(t, r, (size_t)spread)->type == KM_VALUE_DOUBLE)
			max = MAX(max, km_table_value(t, r, (size_t)spread)->d);
	fprintf(fp, "host timings: best timed run; spread up to %.1f %%: rows closer than that "
		"do not rank\n", max);
	if (insn >= 0 && !has_values(t, (size_t)insn))
		fprintf(fp, "host instructions: not counted: perf_event_open(2): %s%s\n",
			err ? g_strerror(-err) : "no value",
			err == -ENOENT ? " (no PMU: a VM?)" :
			err == -EACCES || err == -EPERM ? " (perf_event_paranoid)" : "");
}

struct text_col {
	size_t c;	/* the table's column */
	int w;		/* its width: the widest of heading and values */
};

/* the text of row @r's column @c (g_free) */
static gchar *row_cell(const struct km_table *t, size_t r, size_t c)
{
	const struct km_column *col = km_table_column(t, c);

	return cell(col, km_table_value(t, r, c),
		    row_bool(t, r, "builtin") == 0 && !strcmp(col->name, "variant"));
}

/* the columns the text table shows: KM_COL_TEXT, the host's with --host;
 * without --wide, a column with one value in every row is said once
 * above the table (in @same), and the event counters from the right go
 * until the table fits KB_TEXT_COLUMNS */
static GArray *text_columns(const struct km_table *t, unsigned int flags, GString *same)
{
	GArray *cols = g_array_new(FALSE, FALSE, sizeof(struct text_col));
	size_t nr = km_table_nrows(t);
	int total = 0;

	for (size_t c = 0; c < km_table_ncolumns(t); c++) {
		const struct km_column *col = km_table_column(t, c);
		struct text_col tc = { c, (int)strlen(col->heading) };
		gchar *first = NULL;
		bool one = nr > 1;

		if (!(col->flags & KM_COL_TEXT) || (host_column(col) && !(flags & KB_TEXT_HOST)) ||
		    (!strncmp(col->name, "host_", 5) && !has_values(t, c)))
			continue;
		tc.w = MAX(tc.w, ABS(col->width));
		for (size_t r = 0; r < nr; r++) {
			gchar *s = row_cell(t, r, c);

			tc.w = MAX(tc.w, (int)strlen(s));
			if (!first)
				first = g_strdup(s);
			/* a stalled row has its key, not its numbers */
			one &= !strcmp(first, s) && (!row_stalled(t, r) || (col->flags & KM_COL_KEY));
			g_free(s);
		}
		if (one && !(flags & KB_TEXT_WIDE) && c) {
			g_string_append_printf(same, "%s%s %s", same->len ? ", " : "", col->heading,
					       first);
		} else {
			g_array_append_val(cols, tc);
			total += tc.w + 1;
		}
		g_free(first);
	}
	for (guint i = cols->len; i-- > 0 && total > KB_TEXT_COLUMNS + 1 && !(flags & KB_TEXT_WIDE);) {
		const struct text_col *tc = &g_array_index(cols, struct text_col, i);

		if (km_table_column(t, tc->c)->flags & KM_COL_EVENT) {
			total -= tc->w + 1;
			g_array_remove_index(cols, i);
		}
	}
	return cols;
}

static void write_cell(FILE *fp, const struct km_table *t, const struct text_col *tc,
		       const char *s, bool first)
{
	int w = km_table_column(t, tc->c)->width < 0 ? -tc->w : tc->w;

	fprintf(fp, "%s%*s", first ? "" : " ", w, s);
}

/* the title: in full with --wide; else up to its list of what the columns
 * hold (the first "; ", or ": " when it has none) */
static void write_title(FILE *fp, const struct km_table *t, unsigned int flags, const char *what)
{
	const char *title = km_table_title(t), *end = strstr(title, "; ");

	if (!end)
		end = strstr(title, ": ");
	if ((flags & KB_TEXT_WIDE) || !end)
		fprintf(fp, "%s\n", title);
	else
		fprintf(fp, "%.*s: %s\n", (int)(end - title), title, what);
}

/* Why rows have no numbers (they stalled or failed), one line per
 * variant and reason: "<variant>: stalls in N of M rows: <why>", or a
 * row's key where one row has it */
static void write_stalls(FILE *fp, const struct km_table *t)
{
	size_t nr = km_table_nrows(t);
	long stalled = km_table_column_index(t, "stalled");
	bool *said = g_new0(bool, nr ? nr : 1);

	for (size_t r = 0; r < nr; r++) {
		const char *v = km_table_value(t, r, 0)->s, *why;
		size_t n = 0, rows = 0;

		if (said[r] || !row_stalled(t, r))
			continue;
		why = row_error(t, r) ? row_error(t, r) : km_table_column(t, (size_t)stalled)->doc;
		for (size_t q = r; q < nr; q++) {
			if (strcmp(km_table_value(t, q, 0)->s, v))
				continue;
			rows++;
			if (!said[q] && row_stalled(t, q) &&
			    !strcmp(row_error(t, q) ? row_error(t, q) :
				    km_table_column(t, (size_t)stalled)->doc, why))
				said[q] = true, n++;
		}
		for (size_t q = 0; q < r; q++)	/* the group's rows before it */
			rows += !strcmp(km_table_value(t, q, 0)->s, v);
		if (n == 1) {
			gchar *key = row_key(t, r);

			fprintf(fp, "%s: %s: %s\n", key, row_error(t, r) ? "fails" : "stalls", why);
			g_free(key);
		} else {
			fprintf(fp, "%s: %s in %zu of %zu rows: %s\n", v,
				row_error(t, r) ? "fails" : "stalls", n, rows, why);
		}
	}
	g_free(said);
}

/* a group's key in write_pivot(): @r's shown key columns but @bs_col */
static gchar *pivot_key(const struct km_table *t, size_t r, const GArray *keys)
{
	GString *k = g_string_new(NULL);

	for (guint i = 0; i < keys->len; i++) {
		gchar *s = row_cell(t, r, g_array_index(keys, struct text_col, i).c);

		g_string_append_printf(k, "%s\t", s);
		g_free(s);
	}
	return g_string_free(k, FALSE);
}

/* dd without --host or --wide: the predicted MB/s of each variant on
 * each machine, a column per block size; a group with no prediction (the
 * memcpy baseline, priced by no profile) is left out */
static void write_pivot(FILE *fp, const struct km_table *t, long bs_col, long pred_col)
{
	size_t nr = km_table_nrows(t);
	GArray *sizes = g_array_new(FALSE, FALSE, sizeof(gint64));
	GArray *groups = g_array_new(FALSE, FALSE, sizeof(size_t));	/* a row of each */
	GString *same = g_string_new(NULL);
	GArray *cols = text_columns(t, 0, same), *keys = g_array_new(FALSE, FALSE,
								     sizeof(struct text_col));
	GHashTable *cells = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	g_string_truncate(same, 0);	/* the key columns with one value, said once */
	for (guint i = 0; i < cols->len; i++) {
		const struct text_col *tc = &g_array_index(cols, struct text_col, i);

		if ((km_table_column(t, tc->c)->flags & KM_COL_KEY) && (long)tc->c != bs_col)
			g_array_append_val(keys, *tc);
	}
	for (size_t c = 0; c < km_table_ncolumns(t); c++) {
		const struct km_column *col = km_table_column(t, c);
		bool shown = (long)c == bs_col;

		for (guint i = 0; i < keys->len; i++)
			shown |= g_array_index(keys, struct text_col, i).c == c;
		if ((col->flags & (KM_COL_KEY | KM_COL_TEXT)) == (KM_COL_KEY | KM_COL_TEXT) &&
		    !shown && nr) {
			gchar *v = row_cell(t, 0, c);

			g_string_append_printf(same, "%s%s %s", same->len ? ", " : "", col->heading, v);
			g_free(v);
		}
	}
	for (size_t r = 0; r < nr; r++) {
		gint64 bs = km_table_value(t, r, (size_t)bs_col)->i;
		gchar *k = pivot_key(t, r, keys);
		bool have = false;

		for (guint i = 0; i < sizes->len; i++)
			have |= g_array_index(sizes, gint64, i) == bs;
		if (!have)
			g_array_append_val(sizes, bs);
		if (!g_hash_table_contains(seen, k)) {
			g_hash_table_add(seen, g_strdup(k));
			g_array_append_val(groups, r);
		}
		g_hash_table_insert(cells, g_strdup_printf("%s%" G_GINT64_FORMAT, k, bs),
				    row_error(t, r) ? g_strdup("fails") :
				    row_bool(t, r, "stalled") == 1 ? g_strdup("stalls") :
				    row_cell(t, r, (size_t)pred_col));
		g_free(k);
	}
	write_title(fp, t, 0, "MB/s the cost model predicts on each machine, by block size");
	if (same->len)
		fprintf(fp, "every row: %s\n", same->str);
	for (guint i = 0; i < keys->len; i++)
		write_cell(fp, t, &g_array_index(keys, struct text_col, i),
			   km_table_column(t, g_array_index(keys, struct text_col, i).c)->heading, !i);
	for (guint i = 0; i < sizes->len; i++) {
		gint64 bs = g_array_index(sizes, gint64, i);

		if (bs % (1 << 20) == 0)
			fprintf(fp, " %6" G_GINT64_FORMAT "M", bs >> 20);
		else if (bs % 1024 == 0)
			fprintf(fp, " %6" G_GINT64_FORMAT "K", bs >> 10);
		else
			fprintf(fp, " %7" G_GINT64_FORMAT, bs);
	}
	fputc('\n', fp);
	for (guint g = 0; g < groups->len; g++) {
		size_t r = g_array_index(groups, size_t, g);
		gchar *k = pivot_key(t, r, keys);
		GString *line = g_string_new(NULL);
		bool any = false;

		for (guint i = 0; i < sizes->len; i++) {
			gchar *id = g_strdup_printf("%s%" G_GINT64_FORMAT, k,
						    g_array_index(sizes, gint64, i));
			const char *v = g_hash_table_lookup(cells, id);

			g_string_append_printf(line, " %7s", v ? v : "");
			any |= v && strcmp(v, "-");
			g_free(id);
		}
		if (any) {
			for (guint i = 0; i < keys->len; i++) {
				const struct text_col *tc = &g_array_index(keys, struct text_col, i);
				gchar *s = row_cell(t, r, tc->c);

				write_cell(fp, t, tc, s, !i);
				g_free(s);
			}
			fprintf(fp, "%s\n", line->str);
		}
		g_string_free(line, TRUE);
		g_free(k);
	}
	write_stalls(fp, t);
	g_array_free(sizes, TRUE);
	g_array_free(groups, TRUE);
	g_array_free(keys, TRUE);
	g_string_free(same, TRUE);
	g_array_free(cols, TRUE);
	g_hash_table_destroy(cells);
	g_hash_table_destroy(seen);
}

void kb_write_text(FILE *fp, const struct km_table *t, unsigned int flags)
{
	size_t nr = km_table_nrows(t);
	long stalled = km_table_column_index(t, "stalled");
	long bs_col = km_table_column_index(t, "block_size");
	long pred_col = km_table_column_index(t, "predicted_mb_s");
	bool any_external = false;
	GString *same;
	GArray *cols;

	for (size_t r = 0; r < nr; r++)
		any_external |= row_bool(t, r, "builtin") == 0;
	if (!(flags & (KB_TEXT_WIDE | KB_TEXT_HOST)) && bs_col >= 0 && pred_col >= 0) {
		write_pivot(fp, t, bs_col, pred_col);
	} else {
		same = g_string_new(NULL);
		cols = text_columns(t, flags, same);
		write_title(fp, t, flags, flags & KB_TEXT_HOST ?
			    "host timings, the model's counts, predictions" :
			    "counts and predictions (--host: host timings)");
		if (same->len)
			fprintf(fp, "every row: %s\n", same->str);
		for (guint i = 0; i < cols->len; i++)
			write_cell(fp, t, &g_array_index(cols, struct text_col, i),
				   km_table_column(t, g_array_index(cols, struct text_col, i).c)->heading,
				   i == 0);
		fputc('\n', fp);
		for (size_t r = 0; r < nr; r++) {
			const char *error = row_error(t, r);
			bool stall = row_stalled(t, r);

			for (guint i = 0, first = 1; i < cols->len; i++) {
				const struct text_col *tc = &g_array_index(cols, struct text_col, i);
				gchar *s;

				if (stall && !(km_table_column(t, tc->c)->flags & KM_COL_KEY))
					continue;
				s = row_cell(t, r, tc->c);
				write_cell(fp, t, tc, s, first);
				first = 0;
				g_free(s);
			}
			if (error)
				fprintf(fp, "   fails: %s", error);
			else if (stall)
				fprintf(fp, "   stalls: %s", km_table_column(t, (size_t)stalled)->doc);
			fputc('\n', fp);
		}
		g_string_free(same, TRUE);
		g_array_free(cols, TRUE);
	}
	if (flags & KB_TEXT_HOST)
		host_notes(fp, t);
	if (any_external && (flags & KB_TEXT_HOST))
		fprintf(fp, "* built outside libkmodel: its calls into the model are not inlined "
			"as the built-ins' are,\n  so its host timings are not comparable one to one\n");
	else if (any_external)	/* its counts and predictions compare */
		fprintf(fp, "* built outside libkmodel (--list: where it comes from)\n");
	if (!(flags & KB_TEXT_WIDE))
		group_reports(fp, t);
	write_row_notes(fp, t, flags & KB_TEXT_WIDE);
}

static void csv_string(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/* @v exactly, in the C locale's notation: the shortest of %.15g, %.16g and
 * %.17g that reads back as @v (an integral value below 10^15 as an
 * integer: 2097152, not 2.09715e+06) */
static const char *exact_double(char buf[G_ASCII_DTOSTR_BUF_SIZE], double v)
{
	static const char *const fmt[] = { "%.15g", "%.16g", "%.17g" };

	for (size_t i = 0; i < G_N_ELEMENTS(fmt); i++) {
		g_ascii_formatd(buf, G_ASCII_DTOSTR_BUF_SIZE, fmt[i], v);
		if (g_ascii_strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

void kb_write_csv(FILE *fp, const struct km_table *t)
{
	char num[G_ASCII_DTOSTR_BUF_SIZE];

	size_t nc = km_table_ncolumns(t), nr = km_table_nrows(t);

	for (size_t c = 0; c < nc; c++) {
		fputs(c ? "," : "", fp);
		csv_string(fp, km_table_column(t, c)->name);
	}
	fputc('\n', fp);
	for (size_t r = 0; r < nr; r++) {
		for (size_t c = 0; c < nc; c++) {
			const struct km_value *v = km_table_value(t, r, c);

			fputs(c ? "," : "", fp);
			if (v->type == KM_VALUE_STRING)
				csv_string(fp, v->s);
			else if (v->type == KM_VALUE_BOOL)
				fputs(v->b ? "true" : "false", fp);
			else if (v->type == KM_VALUE_INT)
				fprintf(fp, "%" G_GINT64_FORMAT, v->i);
			else if (v->type == KM_VALUE_DOUBLE)
				fputs(exact_double(num, v->d), fp);
		}
		fputc('\n', fp);
	}
}

static void json_value(JsonBuilder *b, const struct km_value *v)
{
	if (v->type == KM_VALUE_STRING)
		json_builder_add_string_value(b, v->s);
	else if (v->type == KM_VALUE_BOOL)
		json_builder_add_boolean_value(b, v->b);
	else if (v->type == KM_VALUE_INT)
		json_builder_add_int_value(b, v->i);
	else if (v->type == KM_VALUE_DOUBLE)
		json_builder_add_double_value(b, v->d);
	else
		json_builder_add_null_value(b);
}

void kb_json_table(JsonBuilder *b, const struct km_table *t)
{
	size_t nc = km_table_ncolumns(t), nr = km_table_nrows(t);
	const char *per = NULL;
	bool has_reports = false;

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "columns");
	json_builder_begin_array(b);
	for (size_t c = 0; c < nc; c++) {
		const struct km_column *col = km_table_column(t, c);

		json_builder_begin_object(b);
		json_builder_set_member_name(b, "name");
		json_builder_add_string_value(b, col->name);
		json_builder_set_member_name(b, "unit");
		json_builder_add_string_value(b, col->unit);
		json_builder_set_member_name(b, "doc");
		json_builder_add_string_value(b, col->doc);
		json_builder_end_object(b);
		if (col->flags & KM_COL_EVENT)
			per = col->unit;
		has_reports |= (col->flags & KM_COL_REPORT) != 0;
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "rows");
	json_builder_begin_array(b);
	for (size_t r = 0; r < nr; r++) {
		json_builder_begin_object(b);
		for (size_t c = 0; c < nc; c++) {
			const struct km_column *col = km_table_column(t, c);

			if (col->flags & (KM_COL_EVENT | KM_COL_REPORT))
				continue;
			json_builder_set_member_name(b, col->name);
			json_value(b, km_table_value(t, r, c));
		}
		/* the codes that occurred, as kmodel-check's "reports_by_code" */
		if (has_reports) {
			json_builder_set_member_name(b, "reports_by_code");
			json_builder_begin_object(b);
		}
		for (size_t c = 0; c < nc && has_reports; c++) {
			const struct km_column *col = km_table_column(t, c);
			const struct km_value *v = km_table_value(t, r, c);

			if (!(col->flags & KM_COL_REPORT) || v->type != KM_VALUE_INT || !v->i)
				continue;
			json_builder_set_member_name(b, col->heading);
			json_builder_add_int_value(b, v->i);
		}
		if (has_reports)
			json_builder_end_object(b);
		if (per) {
			json_builder_set_member_name(b, "events_per");
			json_builder_add_string_value(b, per);
			json_builder_set_member_name(b, "events");
			json_builder_begin_object(b);
			for (size_t c = 0; c < nc; c++) {
				const struct km_column *col = km_table_column(t, c);

				if (!(col->flags & KM_COL_EVENT))
					continue;
				json_builder_set_member_name(b, col->heading);
				json_value(b, km_table_value(t, r, c));
			}
			json_builder_end_object(b);
		}
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

gboolean kb_parse_sizes(const char *list, GArray *out, GError **err)
{
	gchar **parts = g_strsplit(list, ",", -1);
	gboolean ok = TRUE;

	if (!parts[0]) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "no sizes given");
		ok = FALSE;
	}

	for (gchar **p = parts; *p && ok; p++) {
		gchar *end;
		guint64 v = g_ascii_strtoull(g_strstrip(*p), &end, 10);

		if (*end == 'K' || *end == 'k')
			v <<= 10, end++;
		else if (*end == 'M' || *end == 'm')
			v <<= 20, end++;
		if (end == *p || *end || v == 0 || v > (64u << 20)) {
			g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				    "bad size \"%s\": want bytes with an optional K or M, 1 .. 64M", *p);
			ok = FALSE;
		} else {
			unsigned long s = (unsigned long)v;

			g_array_append_val(out, s);
		}
	}
	g_strfreev(parts);
	return ok;
}
