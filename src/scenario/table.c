// SPDX-License-Identifier: GPL-2.0
/* struct km_table: the result tables of the scenarios (kmodel/scenario.h). */
#include "table.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct km_table {
	const char *name, *title;
	GArray *cols;		/* struct km_column */
	GHashTable *index;	/* column name -> index + 1 */
	GPtrArray *rows;	/* struct km_value[ncols] */
	GStringChunk *strings;	/* every string the table owns */
};

/* the table's own copy of @s (NULL stays NULL) */
static const char *own(struct km_table *t, const char *s)
{
	return s ? g_string_chunk_insert_const(t->strings, s) : NULL;
}

static void add_column(struct km_table *t, const struct km_column *c)
{
	struct km_column copy = *c;

	/* all its strings: a table read back (km_table_deserialize()) has
	 * no static ones */
	copy.name = own(t, c->name);
	copy.heading = own(t, c->heading);
	copy.unit = own(t, c->unit);
	copy.doc = own(t, c->doc);
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

/* ---- assembling tables across processes (kmodel/scenario.h) ---------------- */

/* (name, title, columns (name, heading, unit, type, width, precision,
 * flags, doc), rows: a value per column, "()" for none) */
#define TABLE_GVARIANT "(ssa(sssuiius)aav)"
#define KM_COL_ALL (KM_COL_TEXT | KM_COL_EVENT | KM_COL_KEY | KM_COL_REPORT)

static GVariant *value_variant(const struct km_value *v)
{
	switch (v->type) {
	case KM_VALUE_STRING:
		return g_variant_new_string(v->s);
	case KM_VALUE_BOOL:
		return g_variant_new_boolean(v->b);
	case KM_VALUE_INT:
		return g_variant_new_int64(v->i);
	case KM_VALUE_DOUBLE:
		return g_variant_new_double(v->d);
	default:
		return g_variant_new_tuple(NULL, 0);
	}
}

int km_table_serialize(const struct km_table *t, void **data, size_t *len)
{
	GVariantBuilder cols, rows;
	GVariant *all;
	gsize n;

	if (!t || !data || !len)
		return km_err(-EINVAL, "km_table_serialize: NULL argument");
	g_variant_builder_init(&cols, G_VARIANT_TYPE("a(sssuiius)"));
	for (guint c = 0; c < t->cols->len; c++) {
		const struct km_column *col = &g_array_index(t->cols, struct km_column, c);

		g_variant_builder_add(&cols, "(sssuiius)", col->name, col->heading ? col->heading : "",
				      col->unit ? col->unit : "", (guint32)col->type, col->width,
				      col->precision, col->flags, col->doc ? col->doc : "");
	}
	g_variant_builder_init(&rows, G_VARIANT_TYPE("aav"));
	for (guint r = 0; r < t->rows->len; r++) {
		const struct km_value *v = g_ptr_array_index(t->rows, r);

		g_variant_builder_open(&rows, G_VARIANT_TYPE("av"));
		for (guint c = 0; c < t->cols->len; c++)
			g_variant_builder_add(&rows, "v", value_variant(&v[c]));
		g_variant_builder_close(&rows);
	}
	all = g_variant_ref_sink(g_variant_new("(ssa(sssuiius)aav)", t->name, t->title, &cols,
					       &rows));
	n = g_variant_get_size(all);
	*data = malloc(n ? n : 1);
	if (!*data) {
		g_variant_unref(all);
		return km_err(-ENOMEM, "km_table_serialize: %zu bytes", (size_t)n);
	}
	g_variant_store(all, *data);
	*len = n;
	g_variant_unref(all);
	return 0;
}

/* @v as a value of a column of @type into *@out (a string still the
 * variant's); false when it is neither that type nor "()" */
static bool variant_value(GVariant *v, enum km_value_type type, struct km_value *out)
{
	static const struct {
		enum km_value_type type;
		const char *gtype;
	} types[] = {
		{ KM_VALUE_STRING, "s" }, { KM_VALUE_BOOL, "b" }, { KM_VALUE_INT, "x" },
		{ KM_VALUE_DOUBLE, "d" },
	};

	*out = (struct km_value){ .type = KM_VALUE_NONE };
	if (g_variant_is_of_type(v, G_VARIANT_TYPE_UNIT))
		return true;
	for (size_t i = 0; i < G_N_ELEMENTS(types); i++) {
		if (types[i].type != type || !g_variant_is_of_type(v, G_VARIANT_TYPE(types[i].gtype)))
			continue;
		out->type = type;
		if (type == KM_VALUE_STRING)
			out->s = g_variant_get_string(v, NULL);
		else if (type == KM_VALUE_BOOL)
			out->b = g_variant_get_boolean(v);
		else if (type == KM_VALUE_INT)
			out->i = g_variant_get_int64(v);
		else
			out->d = g_variant_get_double(v);
		return true;
	}
	return false;
}

int km_table_deserialize(const void *data, size_t len, struct km_table **out)
{
	GVariant *all, *cols, *rows;
	const char *name, *title;
	struct km_table *t;
	GBytes *bytes;
	int rc = 0;

	if (!out || (!data && len))
		return km_err(-EINVAL, "km_table_deserialize: NULL argument");
	*out = NULL;
	/* copied: GVariant wants its data aligned; any bytes are read safely.
	 * g_variant_new_from_bytes() takes its own reference */
	bytes = g_bytes_new(data, len);
	all = g_variant_ref_sink(g_variant_new_from_bytes(G_VARIANT_TYPE(TABLE_GVARIANT), bytes,
							  FALSE));
	g_bytes_unref(bytes);
	/* km_table_serialize() writes the normal form: truncated or other
	 * bytes, which GVariant would read as defaults, are not */
	if (!g_variant_is_normal_form(all)) {
		g_variant_unref(all);
		return km_err(-EINVAL, "km_table_deserialize: %zu bytes that are not a table", len);
	}
	g_variant_get(all, "(&s&s@a(sssuiius)@aav)", &name, &title, &cols, &rows);
	t = km_table_new(name, title, NULL, 0);
	for (gsize c = 0; c < g_variant_n_children(cols) && !rc; c++) {
		struct km_column col;
		guint32 type;

		g_variant_get_child(cols, c, "(&s&s&suiiu&s)", &col.name, &col.heading, &col.unit,
				    &type, &col.width, &col.precision, &col.flags, &col.doc);
		col.type = (enum km_value_type)type;
		if (!*col.name || g_hash_table_contains(t->index, col.name) ||
		    type < KM_VALUE_STRING || type > KM_VALUE_DOUBLE || (col.flags & ~KM_COL_ALL))
			rc = km_err(-EINVAL, "km_table_deserialize: column %zu is malformed (an empty "
				    "or repeated name, an unknown type or flag)", (size_t)c);
		else
			add_column(t, &col);
	}
	for (gsize r = 0; r < g_variant_n_children(rows) && !rc; r++) {
		GVariant *row = g_variant_get_child_value(rows, r);
		size_t at;

		if (g_variant_n_children(row) != t->cols->len) {
			rc = km_err(-EINVAL, "km_table_deserialize: row %zu has %zu values for %u "
				    "columns", (size_t)r, (size_t)g_variant_n_children(row),
				    t->cols->len);
			g_variant_unref(row);
			break;
		}
		at = km_table_add_row(t);
		for (guint c = 0; c < t->cols->len && !rc; c++) {
			GVariant *cell = g_variant_get_child_value(row, c);
			GVariant *v = g_variant_get_variant(cell);
			struct km_value val;
			struct km_value *dst = &((struct km_value *)g_ptr_array_index(t->rows, at))[c];

			if (!variant_value(v, g_array_index(t->cols, struct km_column, c).type, &val))
				rc = km_err(-EINVAL, "km_table_deserialize: row %zu: the value of "
					    "column %s is not of its type", (size_t)r,
					    g_array_index(t->cols, struct km_column, c).name);
			else if (val.type == KM_VALUE_STRING)
				val.s = own(t, val.s);
			*dst = val;
			g_variant_unref(v);
			g_variant_unref(cell);
		}
		g_variant_unref(row);
	}
	g_variant_unref(cols);
	g_variant_unref(rows);
	g_variant_unref(all);
	if (rc) {
		km_table_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

struct km_table *km_table_new_like(const struct km_table *t)
{
	struct km_table *n;

	if (!t)
		return NULL;
	n = km_table_new(t->name, t->title, NULL, 0);
	for (guint c = 0; c < t->cols->len; c++)
		add_column(n, &g_array_index(t->cols, struct km_column, c));
	return n;
}

long km_table_append_row(struct km_table *t, const struct km_table *src, size_t r)
{
	struct km_value *dst;
	size_t at;

	if (!t)
		return km_err(-EINVAL, "km_table_append_row: NULL table");
	if (src && r >= src->rows->len)
		return km_err(-EINVAL, "km_table_append_row: row %zu of %u", r, src->rows->len);
	for (guint c = 0; src && c < MAX(t->cols->len, src->cols->len); c++) {
		const struct km_column *a = c < t->cols->len ?
					    &g_array_index(t->cols, struct km_column, c) : NULL;
		const struct km_column *b = c < src->cols->len ?
					    &g_array_index(src->cols, struct km_column, c) : NULL;

		if (!a || !b || strcmp(a->name, b->name) || a->type != b->type)
			return km_err(-EINVAL, "km_table_append_row: column %u differs (%s, %s)", c,
				      a ? a->name : "none", b ? b->name : "none");
	}
	at = km_table_add_row(t);
	dst = g_ptr_array_index(t->rows, at);
	for (guint c = 0; src && c < t->cols->len; c++) {
		dst[c] = ((const struct km_value *)g_ptr_array_index(src->rows, r))[c];
		if (dst[c].type == KM_VALUE_STRING)
			dst[c].s = own(t, dst[c].s);
	}
	return (long)at;
}

int km_table_set_value(struct km_table *t, size_t r, const char *col, const struct km_value *v)
{
	gsize c;
	struct km_value *dst;

	if (!t || !col || !v)
		return km_err(-EINVAL, "km_table_set_value: NULL argument");
	c = GPOINTER_TO_SIZE(g_hash_table_lookup(t->index, col));
	if (!c || r >= t->rows->len)
		return km_err(-EINVAL, "km_table_set_value: no row %zu or column %s", r, col);
	if (v->type != KM_VALUE_NONE && v->type != g_array_index(t->cols, struct km_column, c - 1).type)
		return km_err(-EINVAL, "km_table_set_value: column %s: a value of another type", col);
	if (v->type == KM_VALUE_STRING && !v->s)
		return km_err(-EINVAL, "km_table_set_value: column %s: a NULL string", col);
	dst = &((struct km_value *)g_ptr_array_index(t->rows, r))[c - 1];
	*dst = *v;
	if (v->type == KM_VALUE_STRING)
		dst->s = own(t, v->s);
	return 0;
}
