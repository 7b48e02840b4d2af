/* SPDX-License-Identifier: GPL-2.0 */
/* kmodel-bench: shared options, output and timing of the scenarios. */
#ifndef KMODEL_BENCH_H
#define KMODEL_BENCH_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include <kmodel/kmodel.h>

struct kb_opts {
	gboolean json, csv, quiet;
	gchar **load;			/* --load: plugins, NULL-terminated */
	gint repeat;			/* timed runs per row; the best is kept */
	gchar *scenarios;		/* comma list, NULL: all */
	/* dd */
	gchar *dd_block_sizes;		/* comma list of bytes (K/M suffixes) */
	gchar *dd_variants;		/* comma list of uaccess variant names */
	gchar *dd_kmap;			/* "pre-5.11", "5.11" or both */
	gchar *dd_machines;		/* comma list of dd machine profiles */
	gint dd_total_mib;		/* MiB written per timed run */
	gint dd_file_mib;		/* tmpfs file size before it is recreated */
	/* iperf */
	gint iperf_packets;		/* packets per timed run */
	gint iperf_mss;			/* TCP payload bytes */
	gint iperf_maxpacket;		/* bulk-out wMaxPacketSize */
};

/* Where rows go: --json appends objects to the "scenarios" array of @json,
 * --csv prints CSV, else a text table. */
struct kb_out {
	const struct kb_opts *opts;
	JsonBuilder *json;
	const struct km_registry *reg;	/* the variants to choose from */
};

struct kb_scenario {
	const char *name;
	const char *summary;
	int (*run)(struct kb_out *out);	/* 0, or a negative errno */
};

/* the scenarios, for main.c */
extern const struct kb_scenario kb_dd_scenario;
/* print the dd machine profiles (--list) */
void kb_dd_list_machines(void);
extern const struct kb_scenario kb_iperf_scenario;

/* common.c: shared by the scenarios (dd.c, iperf.c) and main.c */

/* seconds from CLOCK_MONOTONIC */
double kb_now(void);
/* progress line on stderr when it is a terminal and not --quiet */
void kb_progress(const struct kb_out *out, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* parse "512,1K,4K,1M" into bytes; FALSE with a message on bad input */
gboolean kb_parse_sizes(const char *list, GArray *out, GError **err);
/* JSON object {"name": value, ...} of all event counters divided by @per */
void kb_json_events(JsonBuilder *b, const struct km_events *ev, double per);

#endif
