// SPDX-License-Identifier: GPL-2.0
/* kmodel-bench: run named scenarios on simulated machines and print what
 * the modelled kernel code costs on this host, with events per unit. */
#include "bench.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "km_tool.h"

static const struct kb_scenario *const scenarios[] = {
	&kb_dd_scenario,
	&kb_iperf_scenario,
};

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

/* a scenario's result as an exit status: -EINVAL is a bad option (2) */
static int kb_exit_status(int err)
{
	return err == 0 ? 0 : err == -EINVAL ? 2 : 1;
}

static gboolean wanted(const char *list, const char *name)
{
	gboolean hit = FALSE;
	gchar **parts;

	if (!list)
		return TRUE;
	parts = g_strsplit(list, ",", -1);
	for (gchar **p = parts; *p; p++)
		hit |= strcmp(g_strstrip(*p), name) == 0;
	g_strfreev(parts);
	return hit;
}

int main(int argc, char **argv)
{
	struct kb_opts o = {
		.repeat = 9,
		.dd_block_sizes = NULL,
		.dd_variants = NULL,
		.dd_kmap = NULL,
		.dd_machines = NULL,
		.dd_total_mib = 64,
		.dd_file_mib = 16,
		.iperf_packets = 100000,
		.iperf_mss = 1448,
		.iperf_maxpacket = 512,
	};
	gboolean list = FALSE, version = FALSE;
	GOptionEntry entries[] = {
		{ "scenario", 's', 0, G_OPTION_ARG_STRING, &o.scenarios,
		  "Comma list of scenarios to run (default: all)", "NAMES" },
		{ "list", 'l', 0, G_OPTION_ARG_NONE, &list,
		  "List scenarios, variants (with where they come from) and machines", NULL },
		KM_TOOL_LOAD_ENTRY(&o.load),
		{ "json", 0, 0, G_OPTION_ARG_NONE, &o.json, "Write JSON to stdout (not with --csv)", NULL },
		{ "csv", 0, 0, G_OPTION_ARG_NONE, &o.csv, "Write CSV rows to stdout (not with --json)", NULL },
		{ "repeat", 'r', 0, G_OPTION_ARG_INT, &o.repeat,
		  "Timed runs per row, best kept: 1 .. 100 (default 9)", "N" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &o.quiet, "No progress on stderr", NULL },
		KM_TOOL_VERSION_ENTRY(&version),
		{ 0 },
	};
	GOptionEntry dd_entries[] = {
		{ "dd-block-sizes", 0, 0, G_OPTION_ARG_STRING, &o.dd_block_sizes,
		  "dd block sizes (default 512,1K,4K,16K,32K,64K,1M)", "LIST" },
		{ "dd-variants", 0, 0, G_OPTION_ARG_STRING, &o.dd_variants,
		  "uaccess variants (default: all, see --list)", "LIST" },
		{ "dd-kmap", 0, 0, G_OPTION_ARG_STRING, &o.dd_kmap,
		  "kmap eras: pre-5.11 (kmap_atomic), 5.11 (kmap_local) or both (default pre-5.11)",
		  "LIST" },
		{ "dd-machines", 0, 0, G_OPTION_ARG_STRING, &o.dd_machines,
		  "machine profiles (default bbw,a15,a15-nohighmem; see --list)", "LIST" },
		{ "dd-total-mib", 0, 0, G_OPTION_ARG_INT, &o.dd_total_mib,
		  "MiB written per timed run: 1 .. 65536 (default 64)", "MIB" },
		{ "dd-file-mib", 0, 0, G_OPTION_ARG_INT, &o.dd_file_mib,
		  "tmpfs file size in MiB, 1 .. 1024; dd then starts a new file (default 16)", "MIB" },
		{ 0 },
	};
	GOptionEntry iperf_entries[] = {
		{ "iperf-packets", 0, 0, G_OPTION_ARG_INT, &o.iperf_packets,
		  "Packets per timed run (default 100000)", "N" },
		{ "iperf-mss", 0, 0, G_OPTION_ARG_INT, &o.iperf_mss,
		  "TCP MSS in bytes (default 1448: 1514-byte frames)", "BYTES" },
		{ "iperf-maxpacket", 0, 0, G_OPTION_ARG_INT, &o.iperf_maxpacket,
		  "Bulk-out maxpacket: 8, 16, 32, 64, 512 or 1024 (default 512)", "BYTES" },
		{ 0 },
	};
	GOptionContext *ctx;
	GOptionGroup *dd, *iperf;
	GError *err = NULL;
	struct kb_out out = { .opts = &o };
	struct km_registry *reg = NULL;
	int rc = 0;

	km_tool_init();
	ctx = g_option_context_new("- libkmodel benchmarks");
	dd = g_option_group_new("dd", "dd scenario options:", "Show dd scenario options", NULL, NULL);
	iperf = g_option_group_new("iperf", "iperf scenario options:", "Show iperf scenario options",
				   NULL, NULL);
	g_option_context_set_summary(ctx,
		"Runs kernel code ported into libkmodel on simulated machines. dd reports host\n"
		"throughput, its ratio to a plain-memcpy baseline measured in the same run and\n"
		"the modelled kernel events per MiB; iperf reports host time, copies and\n"
		"events per packet.\n\n"
		"Scenarios:\n"
		"  dd     dd if=/dev/zero of=<tmpfs file> bs=N: clear_user() per page for the\n"
		"         read, generic_perform_write() with copy_from_user under kmap_atomic\n"
		"         for the write, through each uaccess variant.\n"
		"  iperf  N TCP segments (with and without a packet tap) and UDP datagrams through\n"
		"         usbnet and asix_tx_fixup before/after \"asix: avoid copies in tx path\"\n"
		"         (2012) to a simulated AX88772 that parses every frame back.");
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
	if (!o.dd_machines)
		o.dd_machines = g_strdup("bbw,a15,a15-nohighmem");
	if (argc > 1)
		usage_error(&rc, "unexpected argument \"%s\"", argv[1]);
	if (o.repeat < 1 || o.repeat > 100)
		usage_error(&rc, "--repeat %d: want 1 .. 100", o.repeat);
	if (o.dd_total_mib < 1 || o.dd_total_mib > 65536)
		usage_error(&rc, "--dd-total-mib %d: want 1 .. 65536", o.dd_total_mib);
	if (o.dd_file_mib < 1 || o.dd_file_mib > 1024)
		usage_error(&rc, "--dd-file-mib %d: want 1 .. 1024", o.dd_file_mib);
	if (o.iperf_packets < 1)
		usage_error(&rc, "--iperf-packets %d: want at least 1", o.iperf_packets);
	if (o.iperf_mss < 1 || o.iperf_mss > 65535 - 66)
		usage_error(&rc, "--iperf-mss %d: want 1 .. %d", o.iperf_mss, 65535 - 66);
	if (o.iperf_maxpacket != 8 && o.iperf_maxpacket != 16 && o.iperf_maxpacket != 32 &&
	    o.iperf_maxpacket != 64 && o.iperf_maxpacket != 512 && o.iperf_maxpacket != 1024)
		usage_error(&rc, "--iperf-maxpacket %d: want 8, 16, 32, 64, 512 or 1024",
			    o.iperf_maxpacket);
	if (o.json && o.csv)
		usage_error(&rc, "--json and --csv exclude each other");
	if (rc)
		goto out;
	out.reg = reg = km_tool_registry("kmodel-bench", o.load);
	if (!reg) {
		rc = 2;
		goto out;
	}
	if (list) {
		for (size_t i = 0; i < G_N_ELEMENTS(scenarios); i++)
			printf("scenario %-14s %s\n", scenarios[i]->name, scenarios[i]->summary);
		for (const struct km_uaccess_ops *const *v = km_registry_uaccess(reg); *v; v++)
			printf("uaccess  %-14s %s%s%s\n", (*v)->name, (*v)->summary,
			       km_registry_builtin(reg, *v) ? "" : " -- from ",
			       km_registry_builtin(reg, *v) ? "" : km_registry_origin(reg, *v));
		kb_dd_list_machines();
		for (const struct km_usbnet_variant *const *v = km_registry_usbnet(reg); *v; v++)
			printf("usbnet   %-14s %s%s%s\n", (*v)->name, (*v)->summary,
			       km_registry_builtin(reg, *v) ? "" : " -- from ",
			       km_registry_builtin(reg, *v) ? "" : km_registry_origin(reg, *v));
		goto out;
	}
	if (o.scenarios) {
		gchar **names = g_strsplit(o.scenarios, ",", -1);

		for (gchar **n = names; *n; n++) {
			gboolean known = FALSE;

			for (size_t i = 0; i < G_N_ELEMENTS(scenarios); i++)
				known |= strcmp(g_strstrip(*n), scenarios[i]->name) == 0;
			if (!known) {
				fprintf(stderr, "kmodel-bench: unknown scenario \"%s\" (see --list)\n",
					*n);
				rc = 2;
			}
		}
		g_strfreev(names);
	}
	if (rc)
		goto out;
	if (o.json) {
		out.json = json_builder_new();
		json_builder_begin_object(out.json);
		json_builder_set_member_name(out.json, "scenarios");
		json_builder_begin_array(out.json);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(scenarios) && !rc; i++)
		if (wanted(o.scenarios, scenarios[i]->name))
			rc = kb_exit_status(scenarios[i]->run(&out));
	if (out.json) {
		JsonGenerator *gen = json_generator_new();
		JsonNode *root;
		gchar *s;

		json_builder_end_array(out.json);
		json_builder_end_object(out.json);
		root = json_builder_get_root(out.json);
		json_generator_set_root(gen, root);
		json_generator_set_pretty(gen, TRUE);
		s = json_generator_to_data(gen, NULL);
		puts(s);
		g_free(s);
		json_node_unref(root);
		g_object_unref(gen);
		g_object_unref(out.json);
	}
out:
	km_registry_free(reg);
	g_strfreev(o.load);
	g_option_context_free(ctx);
	g_clear_error(&err);
	g_free(o.scenarios);
	g_free(o.dd_block_sizes);
	g_free(o.dd_variants);
	g_free(o.dd_kmap);
	g_free(o.dd_machines);
	return rc;
}
