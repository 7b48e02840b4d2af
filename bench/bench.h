/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel-bench: the front end's writers of the scenarios' tables. */
#ifndef KMODEL_BENCH_H
#define KMODEL_BENCH_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include <kmodel/kmodel.h>
#include <stdio.h>

/* common.c */

/* kb_write_text()'s flags: the host's timings (host MB/s, ratio, spread,
 * ns/pkt, Mpps, instructions); every column, each row's notes */
#define KB_TEXT_HOST	0x1u
#define KB_TEXT_WIDE	0x2u
/* the width the text tables keep to without KB_TEXT_WIDE */
#define KB_TEXT_COLUMNS	100
/* A text table: @t's title, the KM_COL_TEXT columns (the host's with
 * KB_TEXT_HOST), its rows; a stalled row says so instead of its speeds; a
 * variant built outside libkmodel is marked with '*' and a note below the
 * table; then its reports by code (KM_COL_REPORT) and first_mismatch.
 * Without KB_TEXT_WIDE: a column with one value in every row is said once
 * above, event counters are left out until the table fits KB_TEXT_COLUMNS,
 * the reports go one line per variant and code, and dd (without
 * KB_TEXT_HOST) is the predicted MB/s by machine and block size. */
void kb_write_text(FILE *fp, const struct km_table *t, unsigned int flags);
/* CSV (RFC 4180): a header of every column's name, then the rows; a value
 * the row does not have is an empty field; numbers exact, with a decimal
 * point whatever the locale. One table: one schema. */
void kb_write_csv(FILE *fp, const struct km_table *t);
/* {"columns": [{"name", "unit", "doc"}...], "rows": [{...}...]}: a row's
 * event counters go in its "events" object (with "events_per"), its
 * non-zero reports by code in "reports_by_code" {code: count} (a table
 * with KM_COL_REPORT columns), a value it does not have is null. */
void kb_json_table(JsonBuilder *b, const struct km_table *t);
/* reproduce.c: `kmodel-bench reproduce [OPTION...]` (argv[0] is "reproduce");
 * an exit status */
int kb_reproduce(int argc, char **argv);
/* the headline figures' lines of `reproduce`, for kmodel-bench's first
 * screen, priced with @profile (NULL: the one mapped to each machine): 0,
 * or 1 with a message on stderr */
int kb_reproduce_summary(FILE *fp, const char *profile);
/* `kmodel-bench calibrate -o FILE`: km_cost_calibrate_host() */
int kb_calibrate(int argc, char **argv);
/* parse "512,1K,4K,1M" into bytes; FALSE with a message on bad input */
gboolean kb_parse_sizes(const char *list, GArray *out, GError **err);

#endif
