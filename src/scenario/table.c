// SPDX-License-Identifier: GPL-2.0
/* struct km_table: the result tables of the scenarios (kmodel/scenario.h). */
#include "table.h"
#include <stddef.h>
#include <string.h>

struct km_table {
	const char *name, *title;
	GArray *cols;		/* struct km_column */
	GHashTable *index;	/* column name -> index + 1 */
	GPtrArray *rows;	/* struct km_value[ncols] */
	GStringChunk *strings;	/* every string the table owns */
};

static void add_column(struct km_table *t, const struct km_column *c)
{
	struct km_column copy = *c;

	copy.name = g_string_chunk_insert_const(t->strings, c->name);
	g_assert(!g_hash_table_contains(t->index, copy.name));	/* names are unique */
	g_array_append_val(t->cols, copy);
	g_hash_table_insert(t->index, (gpointer)copy.name, GSIZE_TO_POINTER(t->cols->len));
}

struct km_table *km_table_new(const char *name, const char *title,
			      const struct km_column *cols, size_t ncols)
{
	struct km_table *t = g_new0(struct km_table, 1);

	t->strings = g_string_chunk_new(256);
	t->name = g_string_chunk_insert_const(t->strings, name);
	t->title = g_string_chunk_insert(t->strings, title);
	t->cols = g_array_new(FALSE, FALSE, sizeof(struct km_column));
	t->index = g_hash_table_new(g_str_hash, g_str_equal);
	t->rows = g_ptr_array_new_with_free_func(g_free);
	for (size_t i = 0; i < ncols; i++)
		add_column(t, &cols[i]);
	return t;
}

/* every counter of struct km_events, by the library's names */
void km_table_add_event_columns(struct km_table *t, const char *unit, const char *const *text)
{
	const char *ev;

	for (size_t i = 0; (ev = km_events_field_name(i)); i++) {
		gchar *name = g_strdup_printf("%s_per_%s", ev, unit);
		struct km_column c = { .name = name, .heading = ev, .unit = unit,
				       .type = KM_VALUE_DOUBLE, .precision = 1,
				       .width = (int)MAX(8, strlen(ev)),
				       .flags = KM_COL_EVENT,
				       .doc = "event counter (struct km_events) per unit" };

		for (const char *const *p = text; p && *p; p++)
			if (!strcmp(*p, ev))
				c.flags |= KM_COL_TEXT;

		add_column(t, &c);
		g_free(name);
	}
}

/* one column per report code, KM_R_SKB_SHARING (the sum of the sharing
 * rules' codes) left out */
void km_table_add_report_columns(struct km_table *t, const char *unit, const char *doc)
{
	for (int code = KM_R_NONE + 1; code < KM_R__COUNT; code++) {
		const char *name = km_report_code_name(code);
		gchar *col = g_strconcat("reports_", name, NULL);
		struct km_column c = { .name = col, .heading = name, .unit = unit,
				       .type = KM_VALUE_INT, .width = (int)strlen(name),
				       .flags = KM_COL_REPORT, .doc = doc };

		if (code != KM_R_SKB_SHARING)
			add_column(t, &c);
		g_free(col);
	}
}

void km_table_set_reports(struct km_table *t, size_t r, const unsigned long *by_code)
{
	for (int code = KM_R_NONE + 1; code < KM_R__COUNT; code++) {
		gchar *col = g_strconcat("reports_", km_report_code_name(code), NULL);

		if (code != KM_R_SKB_SHARING)
			km_table_set_int(t, r, col, (int64_t)by_code[code]);
		g_free(col);
	}
}

size_t km_table_add_row(struct km_table *t)
{
	g_ptr_array_add(t->rows, g_new0(struct km_value, t->cols->len));
	return t->rows->len - 1;
}

static struct km_value *cell(struct km_table *t, size_t r, const char *col)
{
	gsize c = GPOINTER_TO_SIZE(g_hash_table_lookup(t->index, col));

	g_assert(c && r < t->rows->len);	/* the scenarios' own columns */
	return &((struct km_value *)g_ptr_array_index(t->rows, r))[c - 1];
}

void km_table_set_str(struct km_table *t, size_t r, const char *col, const char *s)
{
	*cell(t, r, col) = (struct km_value){ .type = KM_VALUE_STRING,
					      .s = g_string_chunk_insert_const(t->strings, s) };
}

void km_table_set_bool(struct km_table *t, size_t r, const char *col, bool b)
{
	*cell(t, r, col) = (struct km_value){ .type = KM_VALUE_BOOL, .b = b };
}

void km_table_set_int(struct km_table *t, size_t r, const char *col, int64_t i)
{
	*cell(t, r, col) = (struct km_value){ .type = KM_VALUE_INT, .i = i };
}

void km_table_set_double(struct km_table *t, size_t r, const char *col, double d)
{
	*cell(t, r, col) = (struct km_value){ .type = KM_VALUE_DOUBLE, .d = d };
}

void km_table_set_events(struct km_table *t, size_t r, const struct km_events *ev, double per)
{
	struct km_events copy = *ev;
	size_t i = 0;

	/* the event columns are the table's last, in km_events_field_name() order */
	for (guint c = 0; c < t->cols->len; c++) {
		uint64_t *v;

		if (!(g_array_index(t->cols, struct km_column, c).flags & KM_COL_EVENT))
			continue;
		v = km_events_field(&copy, i++);
		if (v)
			((struct km_value *)g_ptr_array_index(t->rows, r))[c] =
				(struct km_value){ .type = KM_VALUE_DOUBLE, .d = (double)*v / per };
	}
}

const char *km_table_name(const struct km_table *t)
{
	return t->name;
}

const char *km_table_title(const struct km_table *t)
{
	return t->title;
}

size_t km_table_ncolumns(const struct km_table *t)
{
	return t->cols->len;
}

const struct km_column *km_table_column(const struct km_table *t, size_t c)
{
	return c < t->cols->len ? &g_array_index(t->cols, struct km_column, c) : NULL;
}

long km_table_column_index(const struct km_table *t, const char *name)
{
	return name ? (long)GPOINTER_TO_SIZE(g_hash_table_lookup(t->index, name)) - 1 : -1;
}

size_t km_table_nrows(const struct km_table *t)
{
	return t->rows->len;
}

const struct km_value *km_table_value(const struct km_table *t, size_t r, size_t c)
{
	static const struct km_value none = { .type = KM_VALUE_NONE };

	if (r >= t->rows->len || c >= t->cols->len)
		return &none;
	return &((const struct km_value *)g_ptr_array_index(t->rows, r))[c];
}

void km_table_free(struct km_table *t)
{
	if (!t)
		return;
	g_ptr_array_free(t->rows, TRUE);
	g_hash_table_destroy(t->index);
	g_array_free(t->cols, TRUE);
	g_string_chunk_free(t->strings);
	g_free(t);
}

void km_table_append_column(struct km_table *t, const struct km_column *c)
{
	add_column(t, c);
	for (guint r = 0; r < t->rows->len; r++) {
		struct km_value *v = g_renew(struct km_value, g_ptr_array_index(t->rows, r), t->cols->len);

		v[t->cols->len - 1] = (struct km_value){ .type = KM_VALUE_NONE };
		g_ptr_array_index(t->rows, r) = v;
	}
}
