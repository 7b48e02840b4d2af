// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model on the scenarios' result tables (kmodel/cost.h,
 * kmodel/scenario.h): a dd row's events per MiB and an iperf row's events
 * per packet, priced with a target's profile. Here, above the cost model,
 * because it reads the scenarios' tables (the layers point one way).
 */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <glib.h>
#include <stddef.h>
#include <string.h>
#include "table.h"
#include <kmodel/cost.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MiB (1024.0 * 1024.0)

const char *km_cost_profile_for(const char *machine)
{
	if (!machine)
		return "beagleboard-xm-debug-slab";
	if (g_str_has_prefix(machine, "a15"))
		return "cortex-a15-qemu";
	if (g_str_has_prefix(machine, "bbw"))
		return "beaglebone-white";
	km_set_error("km_cost_profile_for: no profile is mapped to machine \"%s\" (bbw..., "
		     "a15...): name one", machine);
	return NULL;
}

static const struct km_value *value(const struct km_table *t, size_t row, const char *col)
{
	long c = km_table_column_index(t, col);

	return c >= 0 ? km_table_value(t, row, (size_t)c) : NULL;
}

/* the row's "<event>_per_<unit>" columns times @scale, rounded */
static void row_events(const struct km_table *t, size_t row, const char *unit, double scale,
		       struct km_events *ev)
{
	const char *name;

	*ev = (struct km_events){ 0 };
	for (size_t i = 0; (name = km_events_field_name(i)) && km_events_field(ev, i); i++) {
		gchar *col = g_strdup_printf("%s_per_%s", name, unit);
		const struct km_value *v = value(t, row, col);

		if (v && v->type == KM_VALUE_DOUBLE)
			*km_events_field(ev, i) = (uint64_t)llround(v->d * scale);
		g_free(col);
	}
}

/*
 * The most a bulk-out pipe of @speed and @maxpacket can carry, bytes per
 * second, from the USB 2.0 specification's transaction limits (5.8.4):
 * as many transactions of maxpacket data bytes plus their protocol
 * overhead as fit a (micro)frame -- full speed 13 bytes of overhead in a
 * 1 ms frame of 1500 byte times (table 5-9: 19 x 64 bytes, 1,216,000
 * bytes/s), high speed 55 bytes in a 125 us microframe of 7500 (table
 * 5-10: 13 x 512, 53,248,000). 0 for another speed (see predict_row()).
 */
static double bulk_bytes_per_s(const char *speed, unsigned int maxpacket)
{
	double frame, overhead, per_s;

	if (!strcmp(speed, "full")) {
		frame = 1500, overhead = 13, per_s = 1000;
	} else if (!strcmp(speed, "high")) {
		frame = 7500, overhead = 55, per_s = 8000;
	} else {
		return 0;
	}
	return floor(frame / (overhead + maxpacket)) * maxpacket * per_s;
}

/* the profile's host's bulk-out limit, bytes per second ([link]
 * usb_bytes_per_s: km_cost_usb_seconds() of one byte is its inverse), or
 * 0 when the profile has no [link] group */
static double host_bulk_bytes_per_s(const struct km_cost_profile *p)
{
	double s = km_cost_usb_seconds(p, 1);

	return s > 0 ? 1 / s : 0;
}

double km_cost_pipe_bytes_per_s(const struct km_cost_profile *p, const char *speed,
				unsigned int maxpacket)
{
	double bulk = speed ? bulk_bytes_per_s(speed, maxpacket) : 0, host = host_bulk_bytes_per_s(p);

	if (host > 0) {
		if (!bulk && host <= bulk_bytes_per_s("high", 512))
			return 0;
		bulk = bulk ? MIN(bulk, host) : host;
	}
	return bulk;
}

static double predict_row(const struct km_cost_profile *p, const struct km_table *t, size_t row,
			  const char **bound, struct km_cost_result *r)
{
	struct km_events ev;
	const struct km_value *v;

	if (!strcmp(km_table_name(t), "dd")) {
		const double scale = 1024;	/* per GiB */
		struct km_cost_workload w = { 0 };

		v = value(t, row, "stalled");
		if (v && v->type == KM_VALUE_BOOL && v->b)
			return 0;
		v = value(t, row, "error");	/* its dd failed: no events */
		if (v && v->type == KM_VALUE_STRING)
			return 0;
		v = value(t, row, "block_size");
		w.working_set = v && v->type == KM_VALUE_INT ? (uint64_t)v->i : 0;
		row_events(t, row, "mib", scale, &ev);
		if (km_cost_predict(p, &ev, &w, r) || r->seconds <= 0)
			return 0;
		return scale * MiB / r->seconds / 1e6;
	}
	if (!strcmp(km_table_name(t), "iperf")) {
		const double scale = 100000;	/* packets */
		struct km_cost_workload w = { 0 };	/* a frame's copies stay in L1 */
		double link = 0, secs, payload, bulk, wire, host = host_bulk_bytes_per_s(p);
		unsigned int mss, mp;
		const char *speed;
		const struct km_value *ok = value(t, row, "frames_ok"), *sent = value(t, row, "packets");

		/* frames the device dropped or misread: the events are not
		 * those of the stream, so there is nothing to predict */
		if (ok && sent && ok->type == KM_VALUE_INT && sent->type == KM_VALUE_INT &&
		    ok->i < sent->i)
			return 0;
		v = value(t, row, "mss");
		mss = v && v->type == KM_VALUE_INT ? (unsigned int)v->i : 0;
		v = value(t, row, "maxpacket");
		mp = v && v->type == KM_VALUE_INT ? (unsigned int)v->i : 512;
		v = value(t, row, "speed");
		speed = v && v->type == KM_VALUE_STRING ? v->s : "high";
		v = value(t, row, "wire_bits_per_s");
		wire = v && v->type == KM_VALUE_INT ? (double)v->i : 0;
		row_events(t, row, "packet", scale, &ev);
		if (km_cost_predict(p, &ev, &w, r) || r->seconds <= 0)
			return 0;
		/* the link: the device's wire (the row's, from its variant;
		 * none when not given) and the bulk-out pipe at the row's
		 * speed and maxpacket -- the bus's limit, whatever the
		 * profile -- no faster than the profile's host allows ([link]
		 * usb_bytes_per_s). A host no faster than high speed (a USB
		 * 2.0 one, as the iperf profile's) runs a SuperSpeed device
		 * at high speed with maxpacket 512: that row is its
		 * prediction, a row at maxpacket 1024 has none */
		if (wire > 0)
			link = km_cost_wire_seconds(wire, (double)ev.eth_frames, (double)ev.eth_bytes);
		bulk = km_cost_pipe_bytes_per_s(p, speed, mp);
		if (!bulk && host > 0)
			return 0;
		if (bulk)
			link = MAX(link, (double)ev.usb_bytes / bulk);
		if (bound)
			*bound = link > r->seconds ? "link" : "cpu";
		secs = MAX(link, r->seconds);
		/* TCP: the MSS; UDP (mss 0): the frame less Ethernet, IPv4 and UDP headers */
		payload = mss ? mss : ev.eth_frames ? (double)ev.eth_bytes / (double)ev.eth_frames - 42 : 0;
		return scale * payload * 8 / secs / 1e6;
	}
	return km_err(-EINVAL, "km_cost_predict_row: table \"%s\" is not dd or iperf", km_table_name(t));
}

double km_cost_predict_row_sized(const struct km_cost_profile *p, const struct km_table *t,
				 size_t row, const char **bound, struct km_cost_result *res,
				 size_t res_size)
{
	struct km_cost_result r = { 0 };
	double mb_s;

	if (bound)
		*bound = NULL;
	if (!p || !t || row >= km_table_nrows(t))
		return km_err(-EINVAL, "km_cost_predict_row: NULL profile or table, or no row %zu", row);
	if (res && res_size < KM_COST_RESULT_MIN_SIZE)
		return km_err(-EINVAL, "km_cost_predict_row: result size %zu (< %zu)", res_size,
			      (size_t)KM_COST_RESULT_MIN_SIZE);
	mb_s = predict_row(p, t, row, bound, &r);
	if (res)
		km_struct_write(res, res_size, &r, sizeof(r));
	return mb_s;
}

/* the 2.5th and 97.5th percentiles of @n values (sorted in place),
 * widened to hold @x, the stated values' prediction */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void percentiles(double *v, size_t n, double x, double *lo, double *hi)
{
	qsort(v, n, sizeof(*v), cmp_double);
	*lo = MIN(v[(size_t)floor(0.025 * (double)(n - 1))], x);
	*hi = MAX(v[(size_t)ceil(0.975 * (double)(n - 1))], x);
}

/* @row's interval on the draws @d (KM_COST_DRAWS of them) */
static void row_interval(GPtrArray *d, const struct km_table *t, size_t row, double x,
			 double *lo, double *hi)
{
	double v[KM_COST_DRAWS];

	for (unsigned int k = 0; k < KM_COST_DRAWS; k++) {
		v[k] = km_cost_predict_row(d->pdata[k], t, row, NULL, NULL);
		if (v[k] <= 0)
			v[k] = x;
	}
	percentiles(v, KM_COST_DRAWS, x, lo, hi);
}

static GPtrArray *draws_new(const struct km_cost_profile *p)
{
	GPtrArray *d = g_ptr_array_new_with_free_func((GDestroyNotify)km_cost_profile_free);

	for (unsigned int k = 0; k < KM_COST_DRAWS; k++) {
		struct km_cost_profile *s;

		if (km_cost_profile_sample(p, k + 1, &s)) {
			g_ptr_array_free(d, TRUE);
			return NULL;
		}
		g_ptr_array_add(d, s);
	}
	return d;
}

int km_cost_predict_row_interval(const struct km_cost_profile *p, const struct km_table *t,
				 size_t row, double *low, double *high)
{
	double x = km_cost_predict_row(p, t, row, NULL, NULL);
	GPtrArray *d;

	if (x < 0)
		return (int)x;
	if (!low || !high)
		return km_err(-EINVAL, "km_cost_predict_row_interval: NULL low or high");
	*low = *high = x;
	if (x == 0)
		return 0;
	if (!(d = draws_new(p)))
		return -ENOMEM;
	row_interval(d, t, row, x, low, high);
	g_ptr_array_free(d, TRUE);
	return 0;
}

int km_cost_table_predict(struct km_table *t, const char *profile)
{
	static const struct km_column dd_col = {
		"predicted_mb_s", "pred MB/s", "MB/s", KM_VALUE_DOUBLE, 9, 1, KM_COL_TEXT,
		"the target's dd throughput the cost model predicts from the row's events "
		"(kmodel/cost.h; profile: the machine's or --profile)" };
	static const struct km_column iperf_cols[] = {
		{ "predicted_mbit_s", "pred Mbit/s", "Mbit/s", KM_VALUE_DOUBLE, 11, 1, KM_COL_TEXT,
		  "the target's TCP/UDP goodput the cost model predicts from the row's events: "
		  "the slower of its CPU and its link" },
		{ "bound", "bound", "", KM_VALUE_STRING, 5, 0, KM_COL_TEXT,
		  "what binds the prediction: cpu or link" },
	};
	/* the prediction interval (km_cost_predict_row_interval()): in the
	 * CSV and JSON, not the text table (kept within 100 columns) */
	static const struct km_column dd_iv[] = {
		{ "predicted_low_mb_s", "low MB/s", "MB/s", KM_VALUE_DOUBLE, 8, 1, 0,
		  "the prediction interval's low end: the 2.5th percentile over the profile's "
		  "values drawn from their stated uncertainties (kmodel/cost.h)" },
		{ "predicted_high_mb_s", "high MB/s", "MB/s", KM_VALUE_DOUBLE, 9, 1, 0,
		  "the prediction interval's high end: the 97.5th percentile" },
	};
	static const struct km_column iperf_iv[] = {
		{ "predicted_low_mbit_s", "low Mbit/s", "Mbit/s", KM_VALUE_DOUBLE, 10, 1, 0,
		  "the prediction interval's low end: the 2.5th percentile over the profile's "
		  "values drawn from their stated uncertainties (kmodel/cost.h)" },
		{ "predicted_high_mbit_s", "high Mbit/s", "Mbit/s", KM_VALUE_DOUBLE, 11, 1, 0,
		  "the prediction interval's high end: the 97.5th percentile" },
	};
	GHashTable *profiles, *draws;
	bool dd;
	int err = 0;

	if (!t)
		return km_err(-EINVAL, "km_cost_table_predict: table is NULL");
	dd = !strcmp(km_table_name(t), "dd");
	if (!dd && strcmp(km_table_name(t), "iperf"))
		return km_err(-EINVAL, "km_cost_table_predict: table \"%s\" is not dd or iperf",
			      km_table_name(t));
	profiles = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 (GDestroyNotify)km_cost_profile_free);
	/* load every profile first: a bad one adds no column */
	for (size_t r = 0; r < km_table_nrows(t) && !err; r++) {
		const struct km_value *m = dd ? value(t, r, "machine") : NULL;
		const char *name = profile ? profile
					   : km_cost_profile_for(m && m->type == KM_VALUE_STRING ? m->s
												  : NULL);
		struct km_cost_profile *p;

		if (!name) {
			err = km_err(-EINVAL, "km_cost_table_predict: row %zu: no profile is mapped "
					      "to machine \"%s\": give one", r, m->s);
			break;
		}
		if (g_hash_table_contains(profiles, name))
			continue;
		if (!(err = km_cost_profile_load(name, &p)))
			g_hash_table_insert(profiles, g_strdup(name), p);
	}
	draws = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				      (GDestroyNotify)g_ptr_array_unref);
	if (!err) {
		GHashTableIter it;
		gpointer k, v;

		g_hash_table_iter_init(&it, profiles);
		while (g_hash_table_iter_next(&it, &k, &v)) {
			GPtrArray *d = draws_new(v);

			if (!d) {
				err = -ENOMEM;
				break;
			}
			g_hash_table_insert(draws, g_strdup(k), d);
		}
	}
	if (!err) {
		if (dd) {
			km_table_append_column(t, &dd_col);
			km_table_append_column(t, &dd_iv[0]);
			km_table_append_column(t, &dd_iv[1]);
		} else {
			km_table_append_column(t, &iperf_cols[0]);
			km_table_append_column(t, &iperf_iv[0]);
			km_table_append_column(t, &iperf_iv[1]);
			km_table_append_column(t, &iperf_cols[1]);
		}
	}
	for (size_t r = 0; r < km_table_nrows(t) && !err; r++) {
		const struct km_value *m = dd ? value(t, r, "machine") : NULL;
		const struct km_value *var = value(t, r, "variant");
		const char *name = profile ? profile
					   : km_cost_profile_for(m && m->type == KM_VALUE_STRING ? m->s
												  : NULL);
		const char *bound;
		double x;

		if (dd && var && var->type == KM_VALUE_STRING && !strcmp(var->s, "memcpy"))
			continue;	/* the host baseline: no target run */
		x = km_cost_predict_row(g_hash_table_lookup(profiles, name), t, r, &bound, NULL);
		if (x <= 0)
			continue;	/* stalled, frames lost, or a speed the host cannot run */
		km_table_set_double(t, r, dd ? "predicted_mb_s" : "predicted_mbit_s", x);
		{
			double lo, hi;

			row_interval(g_hash_table_lookup(draws, name), t, r, x, &lo, &hi);
			km_table_set_double(t, r, dd ? "predicted_low_mb_s" : "predicted_low_mbit_s", lo);
			km_table_set_double(t, r, dd ? "predicted_high_mb_s" : "predicted_high_mbit_s",
					    hi);
		}
		if (bound)
			km_table_set_str(t, r, "bound", bound);
	}
	g_hash_table_destroy(draws);
	g_hash_table_destroy(profiles);
	return err;
}
