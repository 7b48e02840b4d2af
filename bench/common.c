// SPDX-License-Identifier: GPL-2.0
/* kmodel-bench: text, CSV and JSON of the scenarios' tables (bench.h). */
#include "bench.h"
#include <string.h>

static bool has_text(const struct km_column *c)
{
	return c->flags & KM_COL_TEXT;
}

/* the bool column @name of row @r: -1 when the table has none */
static int row_bool(const struct km_table *t, size_t r, const char *name)
{
	long c = km_table_column_index(t, name);
	const struct km_value *v = c < 0 ? NULL : km_table_value(t, r, (size_t)c);

	return v && v->type == KM_VALUE_BOOL ? v->b : -1;
}

static void text_value(FILE *fp, const struct km_column *c, const struct km_value *v,
		       bool external)
{
	int w = c->width;

	switch (v->type) {
	case KM_VALUE_STRING:
		if (external) {
			gchar *s = g_strconcat(v->s, "*", NULL);

			fprintf(fp, "%*s", w, s);
			g_free(s);
		} else {
			fprintf(fp, "%*s", w, v->s);
		}
		break;
	case KM_VALUE_BOOL:
		fprintf(fp, "%*s", w, v->b ? "on" : "off");
		break;
	case KM_VALUE_INT:
		fprintf(fp, "%*" G_GINT64_FORMAT, w, v->i);
		break;
	case KM_VALUE_DOUBLE:
		fprintf(fp, "%*.*f", w, c->precision, v->d);
		break;
	default:
		fprintf(fp, "%*s", w, "-");
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

/* Below the table, per row that has them: its reports by code (the
 * KM_COL_REPORT columns, headed with their unit; a stalled row's until its
 * stall, a failed one's until it failed), its first report's message (column first_report) and the first
 * frame that did not verify (column first_mismatch). */
static void write_row_notes(FILE *fp, const struct km_table *t)
{
	long mism = km_table_column_index(t, "first_mismatch");
	long first = km_table_column_index(t, "first_report");

	for (size_t r = 0; r < km_table_nrows(t); r++) {
		gchar *key = NULL;

		for (size_t c = 0; c < km_table_ncolumns(t); c++) {
			const struct km_column *col = km_table_column(t, c);
			const struct km_value *v = km_table_value(t, r, c);

			if (!(col->flags & KM_COL_REPORT) || v->type != KM_VALUE_INT || !v->i)
				continue;
			if (!key)
				fprintf(fp, "%s: reports by code (%s):", (key = row_key(t, r)),
					row_bool(t, r, "stalled") == 1 ? "until the stall" :
					row_error(t, r) ? "until it failed" : col->unit);
			fprintf(fp, " %s %" G_GINT64_FORMAT, col->heading, v->i);
		}
		if (key)
			fputc('\n', fp);
		if (key && first >= 0 && km_table_value(t, r, (size_t)first)->type == KM_VALUE_STRING)
			fprintf(fp, "%s: first report: %s\n", key,
				km_table_value(t, r, (size_t)first)->s);
		if (mism >= 0 && km_table_value(t, r, (size_t)mism)->type == KM_VALUE_STRING) {
			if (!key)
				key = row_key(t, r);
			fprintf(fp, "%s: first mismatch: %s\n", key,
				km_table_value(t, r, (size_t)mism)->s);
		}
		g_free(key);
	}
}

void kb_write_text(FILE *fp, const struct km_table *t)
{
	size_t nc = km_table_ncolumns(t), nr = km_table_nrows(t);
	long stalled = km_table_column_index(t, "stalled");
	bool any_external = false;

	fprintf(fp, "%s\n", km_table_title(t));
	for (size_t c = 0, first = 1; c < nc; c++) {
		const struct km_column *col = km_table_column(t, c);

		if (!has_text(col))
			continue;
		fprintf(fp, "%s%*s", first ? "" : " ", col->width, col->heading);
		first = 0;
	}
	fputc('\n', fp);
	for (size_t r = 0; r < nr; r++) {
		bool external = row_bool(t, r, "builtin") == 0;
		const char *error = row_error(t, r);
		bool stall = row_bool(t, r, "stalled") == 1 || error;

		any_external |= external;
		for (size_t c = 0, first = 1; c < nc; c++) {
			const struct km_column *col = km_table_column(t, c);

			if (!has_text(col) || (stall && !(col->flags & KM_COL_KEY)))
				continue;
			if (!first)
				fputc(' ', fp);
			first = 0;
			text_value(fp, col, km_table_value(t, r, c),
				   external && !strcmp(col->name, "variant"));
		}
		if (error)
			fprintf(fp, "   fails: %s", error);
		else if (stall)
			fprintf(fp, "   stalls: %s", km_table_column(t, (size_t)stalled)->doc);
		fputc('\n', fp);
	}
	if (any_external)
		fprintf(fp, "* built outside libkmodel: its calls into the model are not inlined "
			"as the built-ins' are, so its host timings are not comparable one to one\n");
	write_row_notes(fp, t);
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
