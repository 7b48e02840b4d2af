/* SPDX-License-Identifier: GPL-2.0 */
/* Building a struct km_table (kmodel/scenario.h): private to the scenarios. */
#ifndef KM_SCENARIO_TABLE_H
#define KM_SCENARIO_TABLE_H

#include <kmodel/kmodel.h>
#include <errno.h>
#include <glib.h>
#include <stddef.h>
#include <string.h>
#include <kmodel/scenario.h>

/* A table with the @ncols columns of @cols (copied; their strings must be
 * static) and none of its rows. */
struct km_table *km_table_new(const char *name, const char *title,
			      const struct km_column *cols, size_t ncols);
/* Append a row; its values start as KM_VALUE_NONE. Returns its index. */
size_t km_table_add_row(struct km_table *t);
/* Set a value of row @r by column name (which must exist). */
void km_table_set_str(struct km_table *t, size_t r, const char *col, const char *s);
void km_table_set_bool(struct km_table *t, size_t r, const char *col, bool b);
void km_table_set_int(struct km_table *t, size_t r, const char *col, int64_t i);
void km_table_set_double(struct km_table *t, size_t r, const char *col, double d);
/* Append the event-counter columns (KM_COL_EVENT, "<counter>_per_<unit>",
 * every member of struct km_events) to @t, before any row: @unit "mib" or
 * "packet". The counters named in @text (NULL-terminated) are also
 * KM_COL_TEXT. */
void km_table_add_event_columns(struct km_table *t, const char *unit,
				const char *const *text);
/* Append the report columns (KM_COL_REPORT, "reports_<code>", one per
 * enum km_report_code but KM_R_NONE and the aggregate KM_R_SKB_SHARING;
 * @unit, e.g. "per timed run", and @doc static strings), and set them for
 * row @r from @by_code[KM_R__COUNT]. */
void km_table_add_report_columns(struct km_table *t, const char *unit, const char *doc);
void km_table_set_reports(struct km_table *t, size_t r, const unsigned long *by_code);
/* Append a column after rows exist: each row gets no value in it. */
void km_table_append_column(struct km_table *t, const struct km_column *c);
/* Set them for row @r: @ev divided by @per. */
void km_table_set_events(struct km_table *t, size_t r, const struct km_events *ev, double per);

#endif
