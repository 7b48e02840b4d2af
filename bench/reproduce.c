// SPDX-License-Identifier: GPL-2.0
/*
 * kmodel-bench reproduce: every figure published for the seeds' runs, next
 * to what the cost model predicts from the events the library's dd and
 * iperf scenarios count (kmodel/cost.h, kmodel/scenario.h).
 *
 * Seed 000 (the RFC and its thread): dd bs=512 on a BeagleBone White
 * without the series 29.5 MB/s, with it 20.5, with it and CONFIG_HIGHMEM=n
 * 21.2; on a QEMU Cortex-A15 4 and 2.6 MB/s; the thread's block-size table
 * (bs 512 .. 1M) without, with, and with ARM's CONFIG_UACCESS_WITH_MEMCPY
 * instead. Seed 001: iperf TCP transmit on a BeagleBoard-xM with an
 * AX88772 and CONFIG_DEBUG_SLAB, about 75 Mbit/s before the asix patch and
 * 91.6 after.
 *
 * Only events matter here, not host time: each scenario runs once, on a
 * few MiB, and the prediction scales its events per MiB (per packet).
 */
#include "bench.h"
#include "km_tool.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MiB (1024UL * 1024)

/* Prediction intervals: each profile drawn N_DRAWS times from its values'
 * uncertainties (km_cost_profile_sample(), seeds 1 .. N_DRAWS: the same
 * draws on every host); a figure's interval spans the 2.5th to the 97.5th
 * percentile of its predictions on them. */
#define N_DRAWS KM_COST_DRAWS

/* a published figure: which run, its value, the goal's tolerance */
struct figure {
	const char *id;		/* matches a profile's "calibrated: <id> ..." */
	const char *seed, *what, *unit;
	double published;
	unsigned long block_size;	/* block-size table points; 0 headline */
	/* the run: dd (variant, machine, config_highmem) or iperf (variant) */
	const char *variant, *machine;
	int highmem;			/* dd: CONFIG_HIGHMEM */
	const char *calibrated_by;	/* a figure of the same run that was fitted */
	const char *ratio_of;		/* unit "ratio": this run over that figure's */
	/* filled */
	double predicted;
	bool calibrated;
	const char *bound;
	double draws[N_DRAWS];	/* the prediction on each drawn profile */
	double low, high;	/* the interval: the draws' 2.5th and 97.5th percentiles */
};


static const unsigned long bsizes[7] = { 512, 1024, 4096, 16384, 32768, 65536, 1048576 };
static const double pub_without[7] = { 30, 46, 89, 95, 90, 85, 65 };
static const double pub_with[7] = { 22, 36, 72, 79, 78, 75, 61 };
static const double pub_memcpy[7] = { 28.5, 45, 85, 92, 91, 85, 65 };

/* the 7 headline figures and the 21 of the block-size table */
static GArray *figures_new(void)
{
	GArray *f = g_array_new(FALSE, TRUE, sizeof(struct figure));
	const struct figure head[] = {
		{ .id = "bbw-without-512", .seed = "000", .what = "dd bs=512, BeagleBone White, without the series", .unit = "MB/s",
		  .published = 29.5, .variant = "direct", .machine = "bbw", .highmem = 1 },
		{ .id = "bbw-with-512", .seed = "000", .what = "dd bs=512, BeagleBone White, with the series", .unit = "MB/s",
		  .published = 20.5, .variant = "gup_kmap_rfc", .machine = "bbw", .highmem = 1 },
		{ .id = "bbw-with-nohighmem-512", .seed = "000", .what = "dd bs=512, BeagleBone White, with the series, CONFIG_HIGHMEM=n", .unit = "MB/s",
		  .published = 21.2, .variant = "gup_kmap_rfc", .machine = "bbw", .highmem = 0 },
		{ .id = "a15-without", .seed = "000", .what = "dd bs=512, Cortex-A15 2 GiB under QEMU, without the series", .unit = "MB/s",
		  .published = 4, .variant = "direct", .machine = "a15", .highmem = 1 },
		/* QEMU's speed depends on a host nobody described: the ratio
		 * with/without (2.6 / 4 MB/s) is the figure */
		{ .id = "a15-ratio", .seed = "000", .what = "dd bs=512, Cortex-A15 2 GiB under QEMU, with/without the series", .unit = "ratio",
		  .published = 2.6 / 4.0, .variant = "gup_kmap_rfc", .machine = "a15", .highmem = 1,
		  .ratio_of = "a15-without" },
		{ .id = "iperf-before", .seed = "001", .what = "iperf -c -w 131072 TCP transmit, BeagleBoard-xM, before the patch", .unit = "Mbit/s",
		  .published = 75, .variant = "before", .machine = NULL, .highmem = 0 },
		{ .id = "iperf-after", .seed = "001", .what = "iperf -c -w 131072 TCP transmit, BeagleBoard-xM, after the patch", .unit = "Mbit/s",
		  .published = 91.6, .variant = "after", .machine = NULL, .highmem = 0 },
	};

	g_array_append_vals(f, head, G_N_ELEMENTS(head));
	for (int v = 0; v < 3; v++)
		for (int i = 0; i < 7; i++) {
			struct figure x = {
				.seed = "000", .unit = "MB/s", .block_size = bsizes[i], .machine = "bbw",
				.highmem = 1,
				.variant = (const char *[]){ "direct", "gup_kmap_rfc", "uaccess_with_memcpy" }[v],
				.published = (v == 0 ? pub_without : v == 1 ? pub_with : pub_memcpy)[i],
			};

			gchar *id = g_strdup_printf("bbw-bs%lu-%s", bsizes[i],
						    (const char *[]){ "without", "with", "memcpy" }[v]);
			gchar *what = g_strdup_printf("dd bs=%lu, BeagleBone White, %s", bsizes[i],
						      (const char *[]){ "without the series",
									"with the series",
									"CONFIG_UACCESS_WITH_MEMCPY" }[v]);

			x.id = g_intern_string(id);
			x.what = g_intern_string(what);
			g_free(id);
			g_free(what);
			/* the table's 512-byte "without" is the headline's run */
			if (v == 0 && i == 0)
				x.calibrated_by = "bbw-without-512";
			g_array_append_val(f, x);
		}
	return f;
}

static const struct km_value *row_value(const struct km_table *t, size_t row, const char *col)
{
	long c = km_table_column_index(t, col);

	return c >= 0 ? km_table_value(t, row, (size_t)c) : NULL;
}

static const char *row_string(const struct km_table *t, size_t row, const char *col)
{
	const struct km_value *v = row_value(t, row, col);

	return v && v->type == KM_VALUE_STRING ? v->s : "";
}

static int64_t row_int(const struct km_table *t, size_t row, const char *col)
{
	const struct km_value *v = row_value(t, row, col);

	return v && v->type == KM_VALUE_INT ? v->i : -1;
}

static double row_double(const struct km_table *t, size_t row, const char *col)
{
	const struct km_value *v = row_value(t, row, col);

	return v && v->type == KM_VALUE_DOUBLE ? v->d : 0;
}

static bool row_bool(const struct km_table *t, size_t row, const char *col)
{
	const struct km_value *v = row_value(t, row, col);

	return v && v->type == KM_VALUE_BOOL && v->b;
}

static FILE *explain_fp;	/* --explain: where a prediction's breakdown goes, NULL: none */

/* a row's prediction (km_cost_predict_row()), and with --explain each
 * event kind's share of it */
static double predict(const struct km_cost_profile *p, const struct km_table *t, size_t row,
		      const char **bound)
{
	struct km_cost_result r;
	double x = km_cost_predict_row(p, t, row, bound, &r);
	bool dd = !strcmp(km_table_name(t), "dd");
	double per = dd ? 1024.0 * MiB / (double)row_int(t, row, "block_size") : 100000;

	if (explain_fp && x > 0) {
		fprintf(explain_fp, "%s %s on %s (%s): %.0f cycles per %s\n", km_table_name(t),
			row_string(t, row, "variant"),
			dd ? row_string(t, row, "machine") : row_string(t, row, "traffic"),
			km_cost_profile_name(p), r.cycles / per, dd ? "block" : "packet");
		for (unsigned int i = 0; i < r.n_items; i++) {
			const char *ev, *fn;
			double n;

			if (r.items[i].cycles <= 0)
				continue;
			fprintf(explain_fp, "  %-20s %12.2f x %10.2f cycles = %12.1f (%4.1f%%)\n",
				r.items[i].what, r.items[i].count / per,
				r.items[i].cycles / r.items[i].count, r.items[i].cycles / per,
				r.items[i].cycles / r.cycles * 100);
			/* a path the paths table gives by function: its parts'
			 * instructions at the profile's rate for each */
			for (unsigned int j = 0; km_cost_profile_part(p, j, &ev, &fn, &n); j++)
				if (!strcmp(ev, r.items[i].what))
					fprintf(explain_fp, "    %-30s %8.2f instructions = %12.1f\n", fn,
						n, r.items[i].count / per * n *
						km_cost_profile_part_rate(p, fn));
			/* and the profile's own cycles beyond the path, fitted or not */
			n = km_cost_profile_value(p, "cycles", r.items[i].what);
			if (n > 0) {
				const char *g, *k, *fig = NULL;

				for (unsigned int j = 0; km_cost_profile_calibrated(p, j, &g, &k, &fig);
				     j++, fig = NULL)
					if (!strcmp(g, "cycles") && !strcmp(k, r.items[i].what))
						break;
				/* the figure's name, its first word */
				fprintf(explain_fp, "    %-30s %8s %12s = %12.1f%s%.*s\n", "[cycles]", "",
					"", r.items[i].count / per * n, fig ? " calibrated: " : "",
					fig ? (int)strcspn(fig, " \n") : 0, fig ? fig : "");
			}
		}
		if (!dd) {	/* the link: the device's wire, the USB pipe, the host's */
			int64_t wire = row_int(t, row, "wire_bits_per_s");
			const char *speed = row_string(t, row, "speed");
			long long mp = (long long)row_int(t, row, "maxpacket");
			double host = km_cost_usb_seconds(p, 1);
			double pipe = km_cost_pipe_bytes_per_s(p, speed, (unsigned int)mp);
			double wire_us = wire > 0 ? km_cost_wire_seconds((double)wire,
				row_double(t, row, "eth_frames_per_packet"),
				row_double(t, row, "eth_bytes_per_packet")) * 1e6 : 0;
			double pipe_us = pipe > 0 ? row_double(t, row, "usb_bytes_per_packet") / pipe * 1e6 : 0;
			gchar *w = wire > 0 ? g_strdup_printf("the device's %g Mbit/s wire, %.2f us",
							      (double)wire / 1e6, wire_us)
					    : g_strdup("no wire (its device model gives none)");
			gchar *cap = host > 0 ? g_strdup_printf(" capped by the profile's [link] "
								"usb_bytes_per_s %.0f", 1 / host)
					      : g_strdup("");

			fprintf(explain_fp, "  bound: %s (the slower of the CPU and the link, whose slower "
				"part is %s; a packet on %s; on the bulk-out pipe at %s speed, "
				"maxpacket %lld%s, %.2f us)\n", bound && *bound ? *bound : "cpu",
				wire_us >= pipe_us ? "the device's wire" : "the bulk-out pipe", w, speed,
				mp, cap, pipe_us);
			g_free(w);
			g_free(cap);
		}
	}
	return x;
}

struct repro {
	const char *profile_override;	/* --profile */
	gboolean dd_page_aligned;	/* --dd-page-aligned: dd's buffer on a page boundary */
	GHashTable *profiles;		/* name -> struct km_cost_profile * */
	GHashTable *draws;		/* name -> GPtrArray of its N_DRAWS samples; NULL: no
					 * intervals (the first screen's summary) */
	GArray *figures;
	struct km_table *dd, *dd1, *iperf;
};

static const struct km_cost_profile *profile(struct repro *R, const char *machine)
{
	const char *name = R->profile_override ? R->profile_override : km_cost_profile_for(machine);

	return g_hash_table_lookup(R->profiles, name);
}

/* the @k-th draw (0 .. N_DRAWS - 1) of the profile @machine maps to */
static const struct km_cost_profile *profile_draw(struct repro *R, const char *machine,
						  unsigned int k)
{
	const char *name = R->profile_override ? R->profile_override : km_cost_profile_for(machine);
	GPtrArray *d = g_hash_table_lookup(R->draws, name);

	return d->pdata[k];
}

static void free_draws(gpointer a)
{
	g_ptr_array_free(a, TRUE);
}

/* the 2.5th and 97.5th percentiles of @n values (sorted in place) */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void interval(double *v, size_t n, double *lo, double *hi)
{
	qsort(v, n, sizeof(*v), cmp_double);
	*lo = v[(size_t)floor(0.025 * (double)(n - 1))];
	*hi = v[(size_t)ceil(0.975 * (double)(n - 1))];
}

static int load_profiles(struct repro *R)
{
	/* the profiles mapped to the machines, or only the one --profile names */
	const char *names[] = { "beaglebone-white", "cortex-a15-qemu", "beagleboard-xm-debug-slab",
				NULL };

	if (R->profile_override) {
		names[0] = R->profile_override;
		names[1] = names[2] = NULL;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		struct km_cost_profile *p;

		if (!names[i] || g_hash_table_contains(R->profiles, names[i]))
			continue;
		if (km_cost_profile_load(names[i], &p)) {
			fprintf(stderr, "kmodel-bench reproduce: %s\n", km_last_error());
			return -EINVAL;
		}
		g_hash_table_insert(R->profiles, g_strdup(names[i]), p);
		if (R->draws) {
			GPtrArray *d = g_ptr_array_new_with_free_func(
				(GDestroyNotify)km_cost_profile_free);

			for (unsigned int k = 0; k < N_DRAWS; k++) {
				struct km_cost_profile *s;

				if (km_cost_profile_sample(p, k + 1, &s)) {
					g_ptr_array_free(d, TRUE);
					return -ENOMEM;
				}
				g_ptr_array_add(d, s);
			}
			g_hash_table_insert(R->draws, g_strdup(names[i]), d);
		}
	}
	return 0;
}

/* the row of @t for a variant and machine (dd) or traffic (iperf) at @bs */
static long find_row(const struct km_table *t, const char *variant, const char *key_col,
		     const char *key, unsigned long bs)
{
	for (size_t r = 0; t && r < km_table_nrows(t); r++)
		if (!strcmp(row_string(t, r, "variant"), variant) &&
		    !strcmp(row_string(t, r, key_col), key) &&
		    (!bs || row_int(t, r, "block_size") == (int64_t)bs))
			return (long)r;
	return -1;
}

static int run_scenarios(struct repro *R, const struct km_registry *reg, bool want_dd,
			 bool want_iperf)
{
	int err = 0;

	if (want_dd) {
		const char *vs[] = { "direct", "gup_kmap_rfc", "uaccess_with_memcpy" };
		struct km_dd_case main_cases[3], more[3];
		unsigned long one = 512;
		struct km_dd_opts o = { .block_sizes = bsizes, .nblock_sizes = 7,
					.total_bytes = 4 * MiB, .file_bytes = 4 * MiB, .repeat = 1,
					.buffer_page_aligned = R->dd_page_aligned };

		for (int i = 0; i < 3; i++) {
			main_cases[i] = (struct km_dd_case){ km_registry_find_uaccess(reg, vs[i]),
							     km_dd_machine_find("bbw-config-highmem"),
							     KM_KMAP_ATOMIC_PRE_5_11 };
			if (!main_cases[i].ops || !main_cases[i].machine)
				return -ENOENT;
		}
		more[0] = (struct km_dd_case){ main_cases[1].ops, km_dd_machine_find("bbw"),
					       KM_KMAP_ATOMIC_PRE_5_11 };
		more[1] = (struct km_dd_case){ main_cases[0].ops, km_dd_machine_find("a15"),
					       KM_KMAP_ATOMIC_PRE_5_11 };
		more[2] = (struct km_dd_case){ main_cases[1].ops, km_dd_machine_find("a15"),
					       KM_KMAP_ATOMIC_PRE_5_11 };
		err = km_dd_run(&o, main_cases, 3, &R->dd);
		if (!err) {
			o.block_sizes = &one;
			o.nblock_sizes = 1;
			err = km_dd_run(&o, more, 3, &R->dd1);
		}
		if (err)
			return err;
	}
	if (want_iperf) {
		const struct km_usbnet_variant *v[2] = { km_registry_find_usbnet(reg, "before"),
							 km_registry_find_usbnet(reg, "after") };
		struct km_iperf_opts o = { .packets = 2000, .repeat = 1 };

		if (!v[0] || !v[1])
			return -ENOENT;
		err = km_iperf_run(&o, v, 2, &R->iperf);
	}
	return err;
}

static const struct figure *figure_by_id(const struct repro *R, const char *id);

/* @fig (a profile's "calibrated: <id> ...") names the figure @id */
static bool names_figure(const char *fig, const char *id)
{
	size_t n = strlen(id);

	return !strncmp(fig, id, n) && (!fig[n] || fig[n] == ' ');
}

static void predict_figures(struct repro *R)
{
	for (guint i = 0; i < R->figures->len; i++) {
		struct figure *f = &g_array_index(R->figures, struct figure, i);
		const struct km_cost_profile *p = profile(R, f->machine);
		const char *fig;
		long row;

		if (!f->machine) {	/* iperf: TCP */
			row = find_row(R->iperf, f->variant, "traffic", "tcp", 0);
			if (row >= 0) {
				f->predicted = predict(p, R->iperf, (size_t)row, &f->bound);
				for (unsigned int k = 0; R->draws && k < N_DRAWS; k++)
					f->draws[k] = km_cost_predict_row(profile_draw(R, NULL, k),
									  R->iperf, (size_t)row,
									  NULL, NULL);
			}
		} else {
			const char *mach = !strcmp(f->machine, "bbw") && f->highmem ? "bbw-config-highmem"
										     : f->machine;
			unsigned long bs = f->block_size ? f->block_size : 512;
			struct km_table *t = R->dd;

			row = find_row(t, f->variant, "machine", mach, bs);
			if (row < 0) {
				t = R->dd1;
				row = find_row(t, f->variant, "machine", mach, bs);
			}
			if (row >= 0) {
				f->predicted = predict(p, t, (size_t)row, NULL);
				for (unsigned int k = 0; R->draws && k < N_DRAWS; k++)
					f->draws[k] = km_cost_predict_row(
						profile_draw(R, f->machine, k), t, (size_t)row, NULL,
						NULL);
			}
		}
		if (f->ratio_of) {	/* figures come before the ratios that use them */
			const struct figure *base = figure_by_id(R, f->ratio_of);

			f->predicted = base->predicted > 0 ? f->predicted / base->predicted : 0;
			for (unsigned int k = 0; k < N_DRAWS; k++)
				f->draws[k] = base->draws[k] > 0 ? f->draws[k] / base->draws[k] : 0;
		}
		f->low = f->high = f->predicted;	/* without draws (the first screen's summary) */
		if (f->predicted > 0 && R->draws) {
			double d[N_DRAWS];

			memcpy(d, f->draws, sizeof(d));
			interval(d, N_DRAWS, &f->low, &f->high);
			/* the stated values' prediction lies inside */
			f->low = MIN(f->low, f->predicted);
			f->high = MAX(f->high, f->predicted);
		}
		/* calibrated: a value of the profile this figure is priced with
		 * was fitted to it, or to another figure of the same run */
		for (unsigned int j = 0; km_cost_profile_calibrated(p, j, NULL, NULL, &fig); j++)
			if (names_figure(fig, f->id) ||
			    (f->calibrated_by && names_figure(fig, f->calibrated_by)))
				f->calibrated = true;
	}
}

static double error_pct(const struct figure *f)
{
	return f->predicted > 0 ? (f->predicted - f->published) / f->published * 100 : NAN;
}

static const struct figure *figure_by_id(const struct repro *R, const char *id)
{
	for (guint i = 0; i < R->figures->len; i++)
		if (!strcmp(g_array_index(R->figures, struct figure, i).id, id))
			return &g_array_index(R->figures, struct figure, i);
	return NULL;
}

/* The block-size table's readings vary by up to this many MB/s on repeated
 * runs, not shown in the table: "There are variations in the range +/-2
 * in some readings when repeated" (afzal mohammed, 12 Jun 2020, in reply
 * to Nicolas Pitre, on the RFC's thread). */
#define READING_SPREAD_MB_S 2.0

/* the with/without drop of the block-size table, in percent; the range the
 * readings' spread gives it (the fastest "with" against the slowest
 * "without" reading, and the reverse); and the prediction's interval from
 * the draws (each draw prices both runs) */
static void drops(const struct repro *R, unsigned long bs, double *pub, double *pub_lo,
		  double *pub_hi, double *pred, double *lo, double *hi)
{
	gchar *a = g_strdup_printf("bbw-bs%lu-without", bs), *b = g_strdup_printf("bbw-bs%lu-with", bs);
	const struct figure *w = figure_by_id(R, a), *x = figure_by_id(R, b);
	const double e = READING_SPREAD_MB_S;
	double d[N_DRAWS];

	*pub = (1 - x->published / w->published) * 100;
	*pub_lo = MAX(0, (1 - (x->published + e) / (w->published - e)) * 100);
	*pub_hi = (1 - (x->published - e) / (w->published + e)) * 100;
	*pred = w->predicted > 0 && x->predicted > 0 ? (1 - x->predicted / w->predicted) * 100 : NAN;
	*lo = *hi = *pred;
	if (!isnan(*pred)) {
		for (unsigned int k = 0; k < N_DRAWS; k++)
			d[k] = w->draws[k] > 0 ? (1 - x->draws[k] / w->draws[k]) * 100 : *pred;
		interval(d, N_DRAWS, lo, hi);
		*lo = MIN(*lo, *pred);
		*hi = MAX(*hi, *pred);
	}
	g_free(a);
	g_free(b);
}

/* the goal: 10 % for a headline figure, 15 % for a block-size point */
static const char *goal(const struct figure *f)
{
	return fabs(error_pct(f)) <= (f->block_size ? 15 : 10) ? "met" : "MISS";
}

/* the interval's half-width, percent of the prediction */
static double half_width_pct(const struct figure *f)
{
	return f->predicted > 0 ? (f->high - f->low) / 2 / f->predicted * 100 : NAN;
}

/* a figure counts as predicted when it was not fitted, the published
 * value lies inside the interval and the interval is narrow enough: a
 * half-width of at most 10 % for an iperf headline, 15 % for dd */
static bool counts_as_predicted(const struct figure *f)
{
	return f->predicted > 0 && !f->calibrated && f->low <= f->published &&
	       f->published <= f->high && half_width_pct(f) <= (f->machine ? 15 : 10);
}

/*
 * Other boards, from their profiles alone (issue 22): copy_to_user() and
 * clear_user() of a 4 KiB user buffer that nothing reads back -- dd
 * bs=4k of=/dev/null, from a file whose page-cache pages stream from
 * DRAM, or from /dev/zero -- with the assembler routines (direct) and
 * with CONFIG_UACCESS_WITH_MEMCPY. The events are the model's, of one
 * call after a first that faulted the buffer in; a call's time is priced
 * with the buffer as the working set.
 */
static const char *const board_profiles[] = { "feroceon-kirkwood", "feroceon-orion5x",
					      "arm1176-bcm2835", "cortex-a9-omap4430",
					      "beaglebone-white" };
#define UACCESS_4K 4096

struct board_row {
	const char *profile, *op, *variant;
	double mb_s, low, high;
};

/* the events of one 4 KiB copy_to_user() (@clear false) or clear_user()
 * through @ops, after a first call that faulted the buffer in */
static int uaccess_4k_events(const struct km_uaccess_ops *ops, bool clear, struct km_events *ev)
{
	struct km_machine *m = NULL;
	struct km_mm *mm = NULL;
	struct km_task *t = NULL;
	struct km_page *src = NULL;
	unsigned long buf = 0, left = 1;
	int rc;

	if ((rc = km_machine_new(NULL, &m)) || (rc = km_mm_new(m, &mm)) ||
	    (rc = km_mmap(mm, 0, UACCESS_4K, KM_PROT_READ | KM_PROT_WRITE, &buf)) ||
	    (rc = km_task_new(m, mm, 0, &t)))
		goto out;
	src = km_alloc_page(m, 0);
	rc = -ENOMEM;
	if (!src)
		goto out;
	for (int pass = 0; pass < 2; pass++) {
		km_events_reset(m);
		left = clear ? km_clear_user_with(t, ops, buf, UACCESS_4K)
			     : km_copy_to_user(t, ops, buf, km_page_address(m, src), UACCESS_4K);
		if (left)
			break;
	}
	km_events_get(m, ev);
	rc = left ? -EFAULT : 0;
out:
	if (src)
		km_put_page(m, src);
	km_task_free(t);
	if (mm)
		km_mm_put(mm);
	km_machine_destroy(m);
	return rc;
}

/* the rows: each board, each operation, each variant; NULL on failure */
static GArray *board_rows(void)
{
	GArray *rows = g_array_new(FALSE, TRUE, sizeof(struct board_row));
	const struct km_uaccess_ops *ops[2] = { &km_uaccess_direct, &km_uaccess_with_memcpy };
	struct km_events ev[2][2];

	for (int c = 0; c < 2; c++)
		for (int v = 0; v < 2; v++)
			if (uaccess_4k_events(ops[v], c, &ev[c][v])) {
				g_array_free(rows, TRUE);
				return NULL;
			}
	for (size_t b = 0; b < G_N_ELEMENTS(board_profiles); b++) {
		struct km_cost_profile *p;

		if (km_cost_profile_load(board_profiles[b], &p)) {
			fprintf(stderr, "kmodel-bench reproduce: %s\n", km_last_error());
			g_array_free(rows, TRUE);
			return NULL;
		}
		for (int c = 0; c < 2; c++)
			for (int v = 0; v < 2; v++) {
				struct km_cost_workload w = { .working_set = UACCESS_4K };
				struct board_row r = { board_profiles[b], c ? "clear_user" : "copy_to_user",
						       ops[v]->name, 0, 0, 0 };
				struct km_cost_result res;
				double d[N_DRAWS];

				if (!km_cost_predict(p, &ev[c][v], &w, &res) && res.seconds > 0)
					r.mb_s = UACCESS_4K / res.seconds / 1e6;
				for (unsigned int k = 0; k < N_DRAWS; k++) {
					struct km_cost_profile *s = NULL;

					d[k] = r.mb_s;
					if (!km_cost_profile_sample(p, k + 1, &s) &&
					    !km_cost_predict(s, &ev[c][v], &w, &res) && res.seconds > 0)
						d[k] = UACCESS_4K / res.seconds / 1e6;
					km_cost_profile_free(s);
				}
				interval(d, N_DRAWS, &r.low, &r.high);
				r.low = MIN(r.low, r.mb_s);
				r.high = MAX(r.high, r.mb_s);
				g_array_append_val(rows, r);
			}
		km_cost_profile_free(p);
	}
	return rows;
}

static void write_boards(FILE *fp, const GArray *rows)
{
	fprintf(fp, "\ncopy_to_user and clear_user of a 4 KiB user buffer nothing reads back (dd bs=4k "
		"of=/dev/null), one call, from the profiles alone;\nwith/without: "
		"CONFIG_UACCESS_WITH_MEMCPY's MB/s over the assembler routine's (> 1: faster)\n"
		"%-20s %-13s %-20s %9s %9s %9s %12s\n", "profile", "operation", "variant", "MB/s",
		"low", "high", "with/without");
	for (guint i = 0; i < rows->len; i++) {
		const struct board_row *r = &g_array_index(rows, struct board_row, i);
		const struct board_row *base = i % 2 ? r - 1 : NULL;

		if (base && base->mb_s > 0)
			fprintf(fp, "%-20s %-13s %-20s %9.1f %9.1f %9.1f %12.2f\n", r->profile, r->op,
				r->variant, r->mb_s, r->low, r->high, r->mb_s / base->mb_s);
		else
			fprintf(fp, "%-20s %-13s %-20s %9.1f %9.1f %9.1f\n", r->profile, r->op,
				r->variant, r->mb_s, r->low, r->high);
	}
}

static void json_boards(JsonBuilder *b, const GArray *rows)
{
	json_builder_set_member_name(b, "uaccess_4k");
	json_builder_begin_array(b);
	for (guint i = 0; rows && i < rows->len; i++) {
		const struct board_row *r = &g_array_index(rows, struct board_row, i);

		json_builder_begin_object(b);
		km_tool_json_str(b, "profile", r->profile);
		km_tool_json_str(b, "operation", r->op);
		km_tool_json_str(b, "variant", r->variant);
		km_tool_json_num(b, "predicted_mb_s", r->mb_s);
		km_tool_json_num(b, "low", r->low);
		km_tool_json_num(b, "high", r->high);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

/* the calibrated values of the profiles used, against the limit */
static void write_calibrated(FILE *fp, const struct repro *R)
{
	GHashTableIter it;
	gpointer k, v;
	GPtrArray *ps = g_ptr_array_new();
	int n;

	g_hash_table_iter_init(&it, R->profiles);
	while (g_hash_table_iter_next(&it, &k, &v))
		g_ptr_array_add(ps, v);
	n = km_cost_profiles_check_calibrated((const struct km_cost_profile *const *)ps->pdata,
					      ps->len, UINT_MAX);
	fprintf(fp, "\ncalibrated values in the profiles used: %d (goal: at most %d, the QEMU host's "
		"speed)\n", n, KM_COST_CALIBRATED_MAX);
	for (guint i = 0; i < ps->len; i++) {
		const char *g, *key, *fig;

		for (unsigned int j = 0; km_cost_profile_calibrated(ps->pdata[i], j, &g, &key, &fig); j++)
			fprintf(fp, "  %s [%s] %s: %.*s\n", km_cost_profile_name(ps->pdata[i]), g, key,
				(int)strcspn(fig, " \n"), fig);	/* the figure's id */
	}
	g_ptr_array_free(ps, TRUE);
}

static void write_text(FILE *fp, const struct repro *R)
{
	if (R->profile_override)
		fprintf(fp, "Published figures of the seeds and the cost model's predictions "
			"(profile of every row: %s)\n", R->profile_override);
	else
		fprintf(fp, "Published figures of the seeds and the cost model's predictions "
			"(profiles: beaglebone-white, cortex-a15-qemu, beagleboard-xm-debug-slab)\n");
	if (R->dd_page_aligned)
		fprintf(fp, "dd's buffer page-aligned (--dd-page-aligned, as GNU coreutils dd's), "
			"not 8 bytes into a page as busybox dd's with glibc\n");
	fprintf(fp, "%-4s %-66s %8s %9s %9s %9s %9s %7s %-4s %-5s %-9s %s\n", "seed", "figure",
		"unit", "published", "predicted", "low", "high", "error%", "goal", "calib",
		"predicted?", "bound");
	for (guint i = 0; i < R->figures->len; i++) {
		const struct figure *f = &g_array_index(R->figures, struct figure, i);

		int dec = f->ratio_of ? 3 : 1;	/* a ratio: 0.650 */

		if (f->predicted > 0)
			fprintf(fp, "%-4s %-66s %8s %9.*f %9.*f %9.*f %9.*f %+7.1f %-4s %-5s %-10s %s\n",
				f->seed, f->what, f->unit, dec, f->published, dec, f->predicted, dec,
				f->low, dec, f->high, error_pct(f), goal(f),
				f->calibrated ? "yes" : "no", counts_as_predicted(f) ? "yes" : "no",
				f->bound ? f->bound : "");
		else	/* not run (-s) */
			fprintf(fp, "%-4s %-66s %8s %9.*f %9s %9s %9s %7s %-4s %-5s %-10s\n", f->seed,
				f->what, f->unit, dec, f->published, "-", "-", "-", "-", "-",
				f->calibrated ? "yes" : "no", "-");
	}
	{
		unsigned int n = 0, pred = 0;

		for (guint i = 0; i < R->figures->len; i++) {
			const struct figure *f = &g_array_index(R->figures, struct figure, i);

			n += f->predicted > 0;
			pred += counts_as_predicted(f);
		}
		fprintf(fp, "\n%u of %u figures count as predicted: not calibrated, the published "
			"value inside [low, high] (%u draws of each profile's uncertain values, the "
			"2.5th to 97.5th percentile), half-width at most 15 %% (dd) or 10 %% "
			"(iperf)\n", pred, n, N_DRAWS);
	}
	fprintf(fp, "\nwith/without drop per block size, percent (goal: within 5 points); readings: "
		    "the published\ndrop with each reading +-%.0f MB/s, the variation its author "
		    "reports on repeated runs\n%8s %9s %13s %9s %9s %9s %7s %-4s %s\n",
		    READING_SPREAD_MB_S, "bs", "published", "readings", "predicted", "low", "high",
		    "points", "goal", "in readings");
	for (int i = 0; i < 7; i++) {
		double pub, pub_lo, pub_hi, pred, lo, hi;
		gchar *rd;

		drops(R, bsizes[i], &pub, &pub_lo, &pub_hi, &pred, &lo, &hi);
		rd = g_strdup_printf("%.1f..%.1f", pub_lo, pub_hi);
		if (isnan(pred))
			fprintf(fp, "%8lu %9.1f %13s %9s %9s %9s %7s\n", bsizes[i], pub, rd, "-", "-",
				"-", "-");
		else
			fprintf(fp, "%8lu %9.1f %13s %9.1f %9.1f %9.1f %+7.1f %-4s %s\n", bsizes[i], pub,
				rd, pred, lo, hi, pred - pub, fabs(pred - pub) <= 5 ? "met" : "MISS",
				pub_lo <= pred && pred <= pub_hi ? "yes" : "no");
		g_free(rd);
	}
}

static void json_figures(JsonBuilder *b, const struct repro *R)
{
	json_builder_set_member_name(b, "figures");
	json_builder_begin_array(b);
	for (guint i = 0; i < R->figures->len; i++) {
		const struct figure *f = &g_array_index(R->figures, struct figure, i);

		json_builder_begin_object(b);
		json_builder_set_member_name(b, "seed");
		json_builder_add_string_value(b, f->seed);
		json_builder_set_member_name(b, "what");
		json_builder_add_string_value(b, f->what);
		json_builder_set_member_name(b, "unit");
		json_builder_add_string_value(b, f->unit);
		json_builder_set_member_name(b, "published");
		json_builder_add_double_value(b, f->published);
		/* a figure whose scenario did not run (-s): null, not NaN */
		json_builder_set_member_name(b, "predicted");
		if (f->predicted > 0)
			json_builder_add_double_value(b, f->predicted);
		else
			json_builder_add_null_value(b);
		json_builder_set_member_name(b, "error_pct");
		if (f->predicted > 0)
			json_builder_add_double_value(b, error_pct(f));
		else
			json_builder_add_null_value(b);
		json_builder_set_member_name(b, "calibrated");
		json_builder_add_boolean_value(b, f->calibrated);
		/* the interval (null when not run) and whether the figure
		 * counts as predicted */
		json_builder_set_member_name(b, "low");
		if (f->predicted > 0)
			json_builder_add_double_value(b, f->low);
		else
			json_builder_add_null_value(b);
		json_builder_set_member_name(b, "high");
		if (f->predicted > 0)
			json_builder_add_double_value(b, f->high);
		else
			json_builder_add_null_value(b);
		json_builder_set_member_name(b, "counts_as_predicted");
		json_builder_add_boolean_value(b, counts_as_predicted(f));
		if (f->block_size) {
			json_builder_set_member_name(b, "block_size");
			json_builder_add_int_value(b, (gint64)f->block_size);
		}
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

/* the with/without drop per block size with its interval, percent */
static void json_drops(JsonBuilder *b, const struct repro *R)
{
	json_builder_set_member_name(b, "drops");
	json_builder_begin_array(b);
	for (int i = 0; i < 7; i++) {
		double pub, pub_lo, pub_hi, pred, lo, hi;

		drops(R, bsizes[i], &pub, &pub_lo, &pub_hi, &pred, &lo, &hi);
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "block_size");
		json_builder_add_int_value(b, (gint64)bsizes[i]);
		km_tool_json_num(b, "published_pct", pub);
		km_tool_json_num(b, "readings_low_pct", pub_lo);
		km_tool_json_num(b, "readings_high_pct", pub_hi);
		/* not run (-s): null */
		km_tool_json_num_or_null(b, "predicted_pct", pred);
		km_tool_json_num_or_null(b, "low", isnan(pred) ? NAN : lo);
		km_tool_json_num_or_null(b, "high", isnan(pred) ? NAN : hi);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void json_predictions(JsonBuilder *b, struct repro *R)
{
	json_builder_set_member_name(b, "dd_predictions");
	json_builder_begin_array(b);
	for (int k = 0; k < 2; k++) {
		const struct km_table *t = k ? R->dd1 : R->dd;

		for (size_t r = 0; t && r < km_table_nrows(t); r++) {
			const char *variant = row_string(t, r, "variant"), *mach = row_string(t, r, "machine");
			const struct km_cost_profile *p = profile(R, mach);
			unsigned long bs = (unsigned long)row_int(t, r, "block_size");

			if (!strcmp(variant, "memcpy") || row_bool(t, r, "stalled"))
				continue;
			json_builder_begin_object(b);
			json_builder_set_member_name(b, "profile");
			json_builder_add_string_value(b, km_cost_profile_name(p));
			json_builder_set_member_name(b, "variant");
			json_builder_add_string_value(b, variant);
			/* beyond the schema: the dd machine (highmem
			 * alone does not tell bbw-config-highmem from a machine
			 * with highmem pages) */
			json_builder_set_member_name(b, "machine");
			json_builder_add_string_value(b, mach);
			json_builder_set_member_name(b, "highmem");
			json_builder_add_boolean_value(b, row_bool(t, r, "highmem"));
			json_builder_set_member_name(b, "block_size");
			json_builder_add_int_value(b, (gint64)bs);
			json_builder_set_member_name(b, "predicted_mb_s");
			json_builder_add_double_value(b, predict(p, t, r, NULL));
			json_builder_end_object(b);
		}
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "iperf_predictions");
	json_builder_begin_array(b);
	for (size_t r = 0; R->iperf && r < km_table_nrows(R->iperf); r++) {
		const struct km_cost_profile *p = profile(R, NULL);
		const char *bound = NULL;
		double mbit = predict(p, R->iperf, r, &bound);

		json_builder_begin_object(b);
		json_builder_set_member_name(b, "profile");
		json_builder_add_string_value(b, km_cost_profile_name(p));
		json_builder_set_member_name(b, "variant");
		json_builder_add_string_value(b, row_string(R->iperf, r, "variant"));
		json_builder_set_member_name(b, "traffic");
		json_builder_add_string_value(b, row_string(R->iperf, r, "traffic"));
		json_builder_set_member_name(b, "predicted_mbit_s");
		json_builder_add_double_value(b, mbit);
		json_builder_set_member_name(b, "bound");
		json_builder_add_string_value(b, bound ? bound : "cpu");
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

/* The top of a plot's y range from the largest value it draws, @max:
 * @headroom times it (room for the key) rounded up to a multiple of
 * @step; @step for nothing drawn */
static double y_top(double max, double headroom, double step)
{
	return max > 0 ? ceil(max * headroom / step) * step : step;
}

/* @s as a gnuplot string in single quotes, each ' doubled (g_free):
 * gnuplot expands `command` inside double quotes, not single ones, and
 * the profile loader already refused a name with a control character */
static gchar *gp_quote(const char *s)
{
	GString *q = g_string_new("'");

	for (; *s; s++) {
		if (*s == '\'')
			g_string_append_c(q, '\'');
		g_string_append_c(q, *s);
	}
	g_string_append_c(q, '\'');
	return g_string_free(q, FALSE);
}

/* --plot DIR: the data, a gnuplot script and the PNGs it draws */
static int write_plots(struct repro *R, const char *dir)
{
	gchar *dat = g_build_filename(dir, "dd.dat", NULL), *idat = g_build_filename(dir, "iperf.dat", NULL);
	gchar *gp = g_build_filename(dir, "reproduce.gp", NULL);
	gchar *argv[] = { (gchar *)"gnuplot", (gchar *)"reproduce.gp", NULL };
	GString *s = g_string_new(NULL);
	GError *err = NULL;
	gint status = 0;
	int rc = 0;
	double dd_max = 0, iperf_max = 0;

	if (g_mkdir_with_parents(dir, 0755)) {
		fprintf(stderr, "kmodel-bench reproduce: %s: %s\n", dir, g_strerror(errno));
		rc = -errno;
		goto out;
	}
	g_string_append(s, "# bs  published: without with memcpy  predicted: without with memcpy\n");
	for (int i = 0; i < 7; i++) {
		g_string_append_printf(s, "%lu", bsizes[i]);
		for (int k = 0; k < 2; k++)
			for (int v = 0; v < 3; v++) {
				gchar *id = g_strdup_printf("bbw-bs%lu-%s", bsizes[i],
							    (const char *[]){ "without", "with", "memcpy" }[v]);
				const struct figure *f = figure_by_id(R, id);
				double y = k ? f->predicted : f->published;

				g_string_append_printf(s, " %.2f", y);
				dd_max = MAX(dd_max, y);
				g_free(id);
			}
		g_string_append_c(s, '\n');
	}
	if (!g_file_set_contents(dat, s->str, -1, &err))
		goto gerr;
	g_string_assign(s, "# index variant traffic predicted_mbit_s bound published (tcp only, else -)\n");
	for (size_t r = 0; R->iperf && r < km_table_nrows(R->iperf); r++) {
		const char *bound = NULL, *v = row_string(R->iperf, r, "variant"),
			   *tr = row_string(R->iperf, r, "traffic");
		double mbit = predict(profile(R, NULL), R->iperf, r, &bound);
		const struct figure *f = !strcmp(tr, "tcp") ?
			figure_by_id(R, !strcmp(v, "before") ? "iperf-before" : "iperf-after") : NULL;

		iperf_max = MAX(iperf_max, MAX(mbit, f ? f->published : 0));
		if (f)
			g_string_append_printf(s, "%zu \"%s\\n%s\" %.2f %s %.2f\n", r, v, tr, mbit,
						bound ? bound : "cpu", f->published);
		else
			g_string_append_printf(s, "%zu \"%s\\n%s\" %.2f %s -\n", r, v, tr, mbit,
						bound ? bound : "cpu");
	}
	if (!g_file_set_contents(idat, s->str, -1, &err))
		goto gerr;
	{	/* the AX88772's wire's bound for the TCP frames: MSS 1448 in 1514
		 * bytes (the wire of "before"'s device model, as its rows say) */
		struct km_machine *m = NULL;
		struct km_usbnet_dev d = { 0 };
		double wire_bps = 0, wire;

		if (!km_machine_new(NULL, &m) && !km_asix_before.dev_new(m, NULL, NULL, &d))
			wire_bps = (double)km_usbnet_dev_wire_bits_per_s(&d);
		km_usbnet_dev_free(&d);
		km_machine_destroy(m);
		wire = 1448 * 8 / km_cost_wire_seconds(wire_bps, 1, 1514) / 1e6;
		/* the y ranges from the data drawn, published and predicted:
		 * dd 15 % above its largest value, iperf 40 % (its key sits
		 * inside, over the bars); the profiles that priced them named */
		double dd_top = y_top(dd_max, 1.15, 10), iperf_top = y_top(MAX(iperf_max, wire), 1.4, 5);
		gchar *dd_name = gp_quote(km_cost_profile_name(profile(R, "bbw-config-highmem")));
		gchar *iperf_name = gp_quote(km_cost_profile_name(profile(R, NULL)));

		g_string_printf(s,
			"# kmodel-bench reproduce --plot: the seeds' published figures and the\n"
			"# cost model's predictions. Run: gnuplot reproduce.gp (in this directory)\n"
			"set terminal pngcairo size 900,560 noenhanced\n"
			"set output 'dd.png'\n"
			"set title \"dd between tmpfs files, BeagleBone White: published (points), "
			"predicted (lines)\\nprofile \" . %s\n"
			"set logscale x 2\nset xlabel 'block size (bytes)'\nset ylabel 'MB/s'\n"
			"set xtics ('512' 512, '1K' 1024, '4K' 4096, '16K' 16384, '32K' 32768, '64K' 65536, "
			"'1M' 1048576)\n"
			"set key below maxrows 3\nset grid\nset yrange [0:%g]\n"
			"plot 'dd.dat' u 1:5 w l lt 1 lw 2 t 'predicted: without the series', \\\n"
			"     ''       u 1:6 w l lt 2 lw 2 t 'predicted: with the series', \\\n"
			"     ''       u 1:7 w l lt 3 lw 1 dt 2 t 'predicted: CONFIG_UACCESS_WITH_MEMCPY', \\\n"
			"     ''       u 1:2 w p lt 1 pt 7 ps 1.3 t 'published: without', \\\n"
			"     ''       u 1:3 w p lt 2 pt 5 ps 1.3 t 'published: with', \\\n"
			"     ''       u 1:4 w p lt 3 pt 9 ps 1.3 t 'published: CONFIG_UACCESS_WITH_MEMCPY'\n"
			"set output 'iperf.png'\n"
			"unset logscale x\nunset xtics\nset xtics nomirror\n"
			"set title \"iperf transmit, BeagleBoard-xM + AX88772, CONFIG_DEBUG_SLAB: "
			"predicted\\nprofile \" . %s\n"
			"set style fill solid 0.6 border -1\nset boxwidth 0.7\n"
			"set xlabel ''\nset ylabel 'Mbit/s of payload'\nset yrange [0:%g]\n"
			"set key inside top left\nset bmargin 4\n"
			"plot 'iperf.dat' u 1:3:xtic(2) w boxes lt 3 t 'predicted (the slower of CPU and link)', \\\n"
			"     ''          u 1:(strcol(5) eq '-' ? NaN : $5) w p pt 7 ps 2 lt 1 t 'published (TCP)', \\\n"
			"     %.2f w l lt 0 lw 2 t 'the AX88772 wire, %g Mbit/s, at MSS 1448 (%.1f)'\n",
			dd_name, dd_top, iperf_name, iperf_top, wire, wire_bps / 1e6, wire);
		g_free(dd_name);
		g_free(iperf_name);
	}
	if (!g_file_set_contents(gp, s->str, -1, &err))
		goto gerr;
	if (!g_spawn_sync(dir, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status,
			  &err))
		goto gerr;
	if (!g_spawn_check_wait_status(status, &err))
		goto gerr;
	goto out;
gerr:
	fprintf(stderr, "kmodel-bench reproduce: --plot: %s%s\n", err->message,
		g_error_matches(err, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT) ?
			" (install gnuplot: scripts/deps.sh)" : "");
	g_error_free(err);
	rc = -EIO;
out:
	g_string_free(s, TRUE);
	g_free(dat);
	g_free(idat);
	g_free(gp);
	return rc;
}

int kb_reproduce(int argc, char **argv)
{
	gboolean json = FALSE, version = FALSE, expl = FALSE;
	gchar *plot = NULL, *output = NULL, *scenarios = NULL, **names = NULL;
	GOptionEntry entries[] = {
		{ "scenario", 's', 0, G_OPTION_ARG_STRING, &scenarios,
		  "Comma list of scenarios whose figures to reproduce: dd, iperf (default: both)",
		  "NAMES" },
		{ "profile", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json,
		  "Write JSON: {\"figures\", \"dd_predictions\", \"iperf_predictions\"}", NULL },
		{ "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot,
		  "Write DIR/dd.dat, iperf.dat, reproduce.gp and the PNGs gnuplot draws from them; "
		  "DIR is created, with its missing parents, as by mkdir -p", "DIR" },
		{ "dd-page-aligned", 0, 0, G_OPTION_ARG_NONE, NULL, NULL, NULL },
		{ "explain", 0, 0, G_OPTION_ARG_NONE, &expl,
		  "Print the files of the profiles that price a row and each figure's prediction by "
		  "event kind (count, cycles each, share; under a kind, the functions of a path the "
		  "paths table gives by parts and the profile's own cycles, marked when calibrated), "
		  "for iperf what binds it and which part of the link is the slower (the device's "
		  "wire or the bulk-out pipe), on stderr",
		  NULL },
		KM_TOOL_OUTPUT_ENTRY(&output),
		KM_TOOL_VERSION_ENTRY(&version),
		{ 0 },
	};
	struct repro R = { 0 };
	GOptionContext *ctx = g_option_context_new("- the seeds' published figures against the cost model");
	GError *err = NULL;
	struct km_registry *reg = NULL;
	GArray *boards = NULL;
	FILE *fp = NULL;
	int rc = 0, e;

	entries[1] = (GOptionEntry){ "profile", 0, 0, G_OPTION_ARG_STRING, &R.profile_override,
				     "Use this cost profile (name or path) for every row instead of "
				     "the one mapped to its machine; the calibrated flags are its own",
				     "NAME|PATH" };
	entries[4] = (GOptionEntry){ "dd-page-aligned", 0, 0, G_OPTION_ARG_NONE, &R.dd_page_aligned,
				     "Run dd with its buffer on a page boundary, as GNU coreutils dd "
				     "aligns it, instead of 8 bytes into a page (busybox dd's "
				     "xmalloc() with glibc, the scenario's assumption)", NULL };
	g_option_context_set_summary(ctx,
		"Runs the library's dd and iperf scenarios once, only for their events, and\n"
		"prices them with the cost profile mapped to each machine: beaglebone-white\n"
		"(bbw, bbw-config-highmem), cortex-a15-qemu (a15), beagleboard-xm-debug-slab\n"
		"(iperf). Prints every published figure of the seeds with the prediction, the\n"
		"error, whether a value of the profile used was calibrated (fitted) on it or\n"
		"on another figure of the same configuration (calib yes: then the figure is\n"
		"not a prediction), and for iperf whether the CPU or the link binds. The QEMU\n"
		"run's \"with\" figure is its ratio to the run without: only the ratio is\n"
		"predicted there. Each prediction has an interval (low, high: 256 draws of the\n"
		"profile's values from their stated uncertainties); a figure counts as\n"
		"predicted when not calibrated, inside it, and the half-width is at most 15 %\n"
		"(dd) or 10 % (iperf). Then the with/without drop per block size, with the\n"
		"range the published drop takes when each reading moves by the +-2 MB/s its\n"
		"author reports on repeated runs; the profiles' calibrated values; and\n"
		"copy_to_user and clear_user of 4 KiB on the other boards' profiles\n"
		"(Feroceon, ARM1176, Cortex-A9, Cortex-A8) with and without\n"
		"CONFIG_UACCESS_WITH_MEMCPY. Only the seeds' own (built-in) variants are\n"
		"priced: no --load.");
	g_option_context_set_description(ctx,
		"Exit status: 0 done, 1 a scenario or the plot failed, 2 bad usage, a profile\n"
		"that does not load, or the output could not be written (-o).");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "kmodel-bench reproduce: %s\n", err->message);
		g_error_free(err);
		rc = 2;
		goto out;
	}
	if (version) {
		km_tool_print_version("kmodel-bench");
		goto out;
	}
	if (argc > 1) {
		fprintf(stderr, "kmodel-bench reproduce: unexpected argument \"%s\"\n", argv[1]);
		rc = 2;
		goto out;
	}
	/* an empty list is refused, not a run of nothing */
	if (scenarios && km_tool_split_names("kmodel-bench reproduce", "scenario",
					     (char *[]){ scenarios, NULL }, &names))
		rc = 2;
	for (gchar **n = names; n && *n; n++)
		if (strcmp(*n, "dd") && strcmp(*n, "iperf")) {
			fprintf(stderr, "kmodel-bench reproduce: unknown scenario \"%s\" (dd, iperf)\n",
				*n);
			rc = 2;
		}
	if (rc)
		goto out;
	R.profiles = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   (GDestroyNotify)km_cost_profile_free);
	R.draws = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, free_draws);
	R.figures = figures_new();
	if (load_profiles(&R)) {
		rc = 2;
		goto out;
	}
	/* the seeds' own variants, built in: no --load (a plugin's variants
	 * would price no figure) */
	reg = km_tool_registry("kmodel-bench reproduce", NULL, 0);
	if (!reg) {
		rc = 1;
		goto out;
	}
	e = run_scenarios(&R, reg, !names || g_strv_contains((const gchar *const *)names, "dd"),
			  !names || g_strv_contains((const gchar *const *)names, "iperf"));
	if (e) {
		fprintf(stderr, "kmodel-bench reproduce: %s\n",
			e == -ENOENT ? "a built-in variant or machine is missing" : km_last_error());
		rc = 1;
		goto out;
	}
	explain_fp = expl ? stderr : NULL;
	if (explain_fp) {	/* which file each profile that prices a row came from */
		GPtrArray *used = g_ptr_array_new();

		for (guint i = 0; i < R.figures->len; i++) {
			const struct figure *f = &g_array_index(R.figures, struct figure, i);
			const struct km_cost_profile *p = profile(&R, f->machine);

			if ((f->machine ? R.dd : R.iperf) && !g_ptr_array_find(used, p, NULL)) {
				g_ptr_array_add(used, (gpointer)p);
				fprintf(explain_fp, "profile %s: %s\n", km_cost_profile_name(p),
					km_cost_profile_file(p));
			}
		}
		g_ptr_array_free(used, TRUE);
	}
	predict_figures(&R);
	explain_fp = NULL;
	boards = board_rows();
	if (!boards) {
		fprintf(stderr, "kmodel-bench reproduce: the 4 KiB uaccess calls: %s\n",
			km_last_error());
		rc = 1;
		goto out;
	}
	fp = km_tool_open_output("kmodel-bench reproduce", output);
	if (!fp) {
		rc = 2;		/* as kmodel-bench and kmodel-check */
		goto out;
	}
	if (json) {
		JsonBuilder *b = json_builder_new();
		JsonNode *root;

		json_builder_begin_object(b);
		json_figures(b, &R);
		json_drops(b, &R);
		json_predictions(b, &R);
		json_boards(b, boards);
		json_builder_end_object(b);
		root = json_builder_get_root(b);
		km_tool_print_json(fp, root);
		json_node_unref(root);
		g_object_unref(b);
	} else {
		write_text(fp, &R);
		write_calibrated(fp, &R);
		write_boards(fp, boards);
	}
	if (km_tool_close_output("kmodel-bench reproduce", fp, output))
		rc = 2;
	if (!rc && plot && write_plots(&R, plot))
		rc = 1;
out:
	if (boards)
		g_array_free(boards, TRUE);
	km_table_free(R.dd);
	km_table_free(R.dd1);
	km_table_free(R.iperf);
	if (R.profiles)
		g_hash_table_destroy(R.profiles);
	if (R.draws)
		g_hash_table_destroy(R.draws);
	if (R.figures)
		g_array_free(R.figures, TRUE);
	km_registry_free(reg);
	g_option_context_free(ctx);
	g_free(plot);
	g_free(output);
	g_free(scenarios);
	g_strfreev(names);
	g_free((gchar *)R.profile_override);
	return rc;
}

/* The headline figures as kmodel-bench's first screen: each before/after
 * pair on one line, on the configuration the seed ran (the RFC's
 * BeagleBone ran a CONFIG_HIGHMEM kernel: bbw-config-highmem), with the
 * prediction of each and the error of the second. */
static void write_summary(FILE *fp, const struct repro *R)
{
	static const struct {
		const char *first, *second, *label, *unit;
		bool about;	/* the seed gives the first figure as "about" */
	} pairs[] = {
		{ "bbw-without-512", "bbw-with-512",
		  "dd bs=512, BeagleBone White, HIGHMEM=y: without, with", "MB/s", false },
		{ NULL, "bbw-with-nohighmem-512",
		  "dd bs=512, BeagleBone White, HIGHMEM=n: with", "MB/s", false },
		{ "a15-without", "a15-ratio",
		  "dd bs=512, Cortex-A15 under QEMU: without, with", "MB/s", false },
		{ "iperf-before", "iperf-after",
		  "iperf TCP tx, BeagleBoard-xM+AX88772: before, after", "Mbit/s", true },
	};
	unsigned int miss = 0, n = 0;

	if (R->profile_override)
		fprintf(fp, "The seeds' published figures and the predictions of profile %s\n",
			R->profile_override);
	else
		fprintf(fp, "The seeds' published figures and the cost model's predictions "
			"(all %u: kmodel-bench reproduce)\n", R->figures->len);
	fprintf(fp, "%-53s %-19s %-14s %6s\n", "run, on the configuration the seed ran",
		"published", "predicted", "error");
	for (size_t i = 0; i < G_N_ELEMENTS(pairs); i++) {
		const struct figure *a = pairs[i].first ? figure_by_id(R, pairs[i].first) : NULL;
		const struct figure *b = figure_by_id(R, pairs[i].second);
		/* the QEMU figure is a ratio to the run without */
		double pub = b->ratio_of ? b->published * a->published : b->published;
		double pred = b->ratio_of ? b->predicted * a->predicted : b->predicted;
		gchar *p, *q;

		if (a)
			p = g_strdup_printf(pairs[i].about ? "~%.0f -> %.1f %s" : "%.1f -> %.1f %s",
					    a->published, pub, pairs[i].unit);
		else
			p = g_strdup_printf("%.1f %s", pub, pairs[i].unit);
		if (b->predicted <= 0)
			q = g_strdup("-");
		else if (a)
			q = g_strdup_printf("%.1f%s -> %.1f%s", a->predicted, a->calibrated ? "*" : "",
					    pred, b->calibrated ? "*" : "");
		else
			q = g_strdup_printf("%.1f%s", pred, b->calibrated ? "*" : "");
		if (b->predicted > 0)
			fprintf(fp, "%-53s %-19s %-14s %+5.1f%%\n", pairs[i].label,
				p, q, error_pct(b));
		else
			fprintf(fp, "%-53s %-19s %-14s %6s\n", pairs[i].label,
				p, q, "-");
		g_free(p);
		g_free(q);
	}
	for (guint i = 0; i < R->figures->len; i++) {
		const struct figure *f = &g_array_index(R->figures, struct figure, i);

		n += f->predicted > 0;
		miss += f->predicted > 0 && !strcmp(goal(f), "MISS");
	}
	fprintf(fp, "*: calibrated (a profile value was fitted to it); error: of the last figure; "
		"goal met by %u of %u\n", n - miss, n);
}

int kb_reproduce_summary(FILE *fp, const char *profile)
{
	struct repro R = { .profile_override = profile };
	struct km_registry *reg;
	int rc = 1;

	R.profiles = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   (GDestroyNotify)km_cost_profile_free);
	R.figures = figures_new();
	reg = load_profiles(&R) ? NULL : km_tool_registry("kmodel-bench", NULL, 0);
	if (reg && !run_scenarios(&R, reg, true, true)) {
		predict_figures(&R);
		write_summary(fp, &R);
		rc = 0;
	} else if (reg) {
		fprintf(stderr, "kmodel-bench: the seeds' figures: %s\n", km_last_error());
	}
	km_table_free(R.dd);
	km_table_free(R.dd1);
	km_table_free(R.iperf);
	g_hash_table_destroy(R.profiles);
	g_array_free(R.figures, TRUE);
	km_registry_free(reg);
	return rc;
}

int kb_calibrate(int argc, char **argv)
{
	gchar *output = NULL;
	gboolean version = FALSE;
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "Write the profile to FILE (required)", "FILE" },
		KM_TOOL_VERSION_ENTRY(&version),
		{ 0 },
	};
	GOptionContext *ctx = g_option_context_new("- write a cost profile of this host");
	GError *err = NULL;
	int rc = 0, err2;

	g_option_context_set_summary(ctx,
		"Times the model's own operations on this machine (kmalloc/kfree, get/put_page,\n"
		"kmap, gup per call and per page, page allocation, memcpy/memset at L1, L2 and\n"
		"memory sizes) and writes them as a cost profile named \"host\" (kmodel/cost.h):\n"
		"`kmodel-bench reproduce --profile FILE` then prices the scenarios' events in\n"
		"this host's nanoseconds.");
	g_option_context_set_description(ctx,
		"Memory is timed over 4 x the last-level cache (64 to 512 MiB), each value as\n"
		"the median of 7 timings; results that cannot be (memory no slower than L2,\n"
		"or memset to memory within twice the L1 rate) are measured again, up to 3\n"
		"attempts in all, each failed one said on stderr; then no profile is written.\n\n"
		"Exit status: 0 written, 1 the model ran out of memory or the results of all 3\n"
		"attempts were implausible (nothing written: run it again on a quieter\n"
		"machine), 2 bad usage or the profile could not be written.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "kmodel-bench calibrate: %s\n", err->message);
		g_error_free(err);
		rc = 2;
	} else if (version) {
		km_tool_print_version("kmodel-bench");
	} else if (!output || argc > 1) {
		fprintf(stderr, "kmodel-bench calibrate: want -o FILE and no other argument\n");
		rc = 2;
	} else if ((err2 = km_cost_calibrate_host_attempts(output, 3))) {
		fprintf(stderr, "kmodel-bench calibrate: %s\n", km_last_error());
		/* 2: the output could not be written */
		rc = err2 == -ENOMEM || err2 == -EAGAIN ? 1 : 2;
	}
	g_option_context_free(ctx);
	g_free(output);
	return rc;
}
