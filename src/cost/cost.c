// SPDX-License-Identifier: GPL-2.0
/*
 * Cost profiles (GKeyFile) and the prediction of target time from counted
 * events: kmodel/cost.h.
 */
#define _GNU_SOURCE	/* dladdr() */
#include "internal.h"
#include <kmodel/cost.h>
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The event kinds a profile prices, in [cycles], with their place in
 * struct km_events. Every one is a required key. */
#define EV(f) { #f, offsetof(struct km_events, f) }
static const struct cost_event {
	const char *name;
	size_t off;
} cost_events[] = {
	EV(syscalls), EV(page_faults), EV(cow_breaks), EV(pagecache_lookups),
	EV(pagecache_allocs), EV(pages_allocated), EV(pages_freed), EV(gup_calls),
	EV(gup_slow_calls), EV(gup_fast_pages), EV(gup_slow_pages), EV(follow_page_calls),
	EV(find_vma_calls), EV(mmap_sem_locks), EV(get_page_calls), EV(put_page_calls),
	EV(pt_walks), EV(kmap_high), EV(kmap_low), EV(kunmap_high), EV(kunmap_low),
	EV(tlb_flushes), EV(kmalloc_calls), EV(kfree_calls), EV(memcpy_calls), EV(memset_calls),
	EV(memmove_calls), EV(skb_allocs), EV(skb_clones), EV(skb_copies), EV(skb_frees),
	EV(urbs), EV(usb_packets), EV(eth_frames), EV(spin_locks), EV(pt_walks_sw),
	EV(urb_allocs), EV(usb_in_packets), EV(eth_rx_frames),
};
#undef EV

/* The other required keys, group by group (NULL ends a group). */
static const char *const cpu_keys[] = { "clock_hz", NULL };
static const char *const cache_keys[] = { "l1_bytes", "l2_bytes", "line_bytes", NULL };
static const char *const bw_keys[] = { "copy_l1", "set_l1", NULL };
static const char *const mem_keys[] = { "read_l2_cycles", "read_mem_cycles", "write_mem_cycles",
					NULL };
static const char *const slab_keys[] = { "enabled", "alloc_cycles_per_byte",
					 "free_cycles_per_byte", "skb_head_bytes", NULL };
/* optional group: all or nothing */
static const char *const link_keys[] = { "wire_bits_per_s", "frame_overhead_bytes",
					 "usb_bytes_per_s", NULL };

struct calib {
	char *group, *key, *figure;
};

struct km_cost_profile {
	char *name, *summary, *file;
	GHashTable *values;	/* "group/key" -> double* */
	GArray *calibrated;	/* struct calib */
	double cycles[G_N_ELEMENTS(cost_events)];
	double clock_hz, l1, l2, line, copy_l1, set_l1;
	double read_l2, read_mem, write_mem;	/* cycles per line */
	bool slab_debug, has_link;
	double alloc_cpb, free_cpb, skb_head_bytes;
	double wire_bps, frame_overhead, usb_bps;
};

void km_cost_profile_free(struct km_cost_profile *p)
{
	if (!p)
		return;
	for (guint i = 0; p->calibrated && i < p->calibrated->len; i++) {
		struct calib *c = &g_array_index(p->calibrated, struct calib, i);

		g_free(c->group);
		g_free(c->key);
		g_free(c->figure);
	}
	if (p->calibrated)
		g_array_free(p->calibrated, TRUE);
	if (p->values)
		g_hash_table_destroy(p->values);
	g_free(p->name);
	g_free(p->summary);
	g_free(p->file);
	g_free(p);
}

/* One numeric key: present, a finite number >= 0, with a source comment. */
static int read_key(struct km_cost_profile *p, GKeyFile *kf, const char *group, const char *key,
		    double *out)
{
	GError *err = NULL;
	gchar *raw, *comment, *end, *src;
	double v;
	int rc = 0;

	raw = g_key_file_get_value(kf, group, key, &err);
	if (!raw) {
		g_clear_error(&err);
		return km_err(-EINVAL, "%s: [%s] %s: missing", p->file, group, key);
	}
	g_strstrip(raw);
	v = g_ascii_strtod(raw, &end);
	if (end == raw || *end || !isfinite(v)) {
		rc = km_err(-EINVAL, "%s: [%s] %s: \"%s\" is not a number", p->file, group, key, raw);
	} else if (v < 0) {
		rc = km_err(-EINVAL, "%s: [%s] %s: %s is negative", p->file, group, key, raw);
	}
	g_free(raw);
	if (rc)
		return rc;
	comment = g_key_file_get_comment(kf, group, key, NULL);
	src = comment ? g_strstrip(g_strdup(comment)) : NULL;
	/* the comment lines come back with their '#'s removed; one that says
	 * nothing is no source */
	if (!src || !*src) {
		rc = km_err(-EINVAL, "%s: [%s] %s: no comment line above it giving its source "
				     "(or \"calibrated: <figure>\")", p->file, group, key);
	} else {
		const char *c = strstr(src, "calibrated:");

		if (c) {
			struct calib cal = { g_strdup(group), g_strdup(key),
					     g_strstrip(g_strdup(c + strlen("calibrated:"))) };

			if (!*cal.figure) {
				g_free(cal.group);
				g_free(cal.key);
				g_free(cal.figure);
				rc = km_err(-EINVAL, "%s: [%s] %s: \"calibrated:\" names no figure",
					    p->file, group, key);
			} else {
				g_array_append_val(p->calibrated, cal);
			}
		}
	}
	g_free(src);
	g_free(comment);
	if (rc)
		return rc;
	*out = v;
	g_hash_table_insert(p->values, g_strdup_printf("%s/%s", group, key), g_memdup2(&v, sizeof(v)));
	return 0;
}

static int read_group(struct km_cost_profile *p, GKeyFile *kf, const char *group,
		      const char *const *keys, double *out)
{
	for (size_t i = 0; keys[i]; i++) {
		int rc = read_key(p, kf, group, keys[i], &out[i]);

		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The directories a profile is looked up in by name, in order (g_strfreev()
 * them): $KMODEL_PROFILE_DIR; the installed share/kmodel/profiles found
 * relative to the file that holds this code -- libkmodel.so in its libdir,
 * or the program linked with libkmodel.a in its bindir -- so a relocated
 * install (cmake --install --prefix P, a copied or moved prefix) finds its
 * own; the datadir configured at build time; and, only while this code runs
 * from the build tree, the source tree's data/profiles.
 */
static gchar **profile_dirs(void)
{
	GPtrArray *dirs = g_ptr_array_new();
	const char *env = g_getenv("KMODEL_PROFILE_DIR");
	gchar *self = NULL, *exe = g_file_read_link("/proc/self/exe", NULL);
	Dl_info info;

	if (env && *env)
		g_ptr_array_add(dirs, g_strdup(env));
	if (dladdr((void *)profile_dirs, &info) && info.dli_fname && *info.dli_fname)
		self = realpath(info.dli_fname, NULL);
	if (!self && exe)	/* the main program's name may be empty */
		self = g_strdup(exe);
	if (self) {
		gchar *dir = g_path_get_dirname(self);
		bool in_exe = exe && !strcmp(self, exe);

		g_ptr_array_add(dirs, g_canonicalize_filename(in_exe ? KMODEL_PROFILES_FROM_BINDIR
								     : KMODEL_PROFILES_FROM_LIBDIR,
							      dir));
		g_free(dir);
	}
	g_ptr_array_add(dirs, g_strdup(KMODEL_PROFILES_INSTALL_DIR));
	if (self && g_str_has_prefix(self, KMODEL_BUILD_DIR "/"))
		g_ptr_array_add(dirs, g_strdup(KMODEL_PROFILES_SOURCE_DIR));
	g_ptr_array_add(dirs, NULL);
	free(self);
	g_free(exe);
	return (gchar **)g_ptr_array_free(dirs, FALSE);
}

/* The file of the profile @name, or NULL with km_last_error() listing the
 * directories searched. */
static char *find_profile(const char *name)
{
	gchar **dirs = profile_dirs(), *file = g_strconcat(name, ".ini", NULL), *path = NULL;

	for (gchar **d = dirs; *d && !path; d++) {
		path = g_build_filename(*d, file, NULL);
		if (!g_file_test(path, G_FILE_TEST_IS_REGULAR))
			g_clear_pointer(&path, g_free);
	}
	if (!path) {
		gchar *list = g_strjoinv(", ", dirs);

		km_set_error("cost profile \"%s\": no %s in %s%s", name, file, list,
			     g_getenv("KMODEL_PROFILE_DIR") ? "" : " ($KMODEL_PROFILE_DIR adds a directory)");
		g_free(list);
	}
	g_strfreev(dirs);
	g_free(file);
	return path;
}

int km_cost_profile_load(const char *name_or_path, struct km_cost_profile **out)
{
	struct km_cost_profile *p;
	GKeyFile *kf;
	GError *err = NULL;
	double v[8];
	int rc = 0;

	if (!name_or_path || !out)
		return km_err(-EINVAL, "km_cost_profile_load: name or out is NULL");
	*out = NULL;
	p = g_new0(struct km_cost_profile, 1);
	p->values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	p->calibrated = g_array_new(FALSE, TRUE, sizeof(struct calib));
	if (strchr(name_or_path, '/') || g_str_has_suffix(name_or_path, ".ini"))
		p->file = g_strdup(name_or_path);
	else if (!(p->file = find_profile(name_or_path))) {
		km_cost_profile_free(p);
		return -ENOENT;		/* km_last_error(): find_profile()'s */
	}
	kf = g_key_file_new();
	if (!g_key_file_load_from_file(kf, p->file, G_KEY_FILE_KEEP_COMMENTS, &err)) {
		rc = km_err(err->domain == G_FILE_ERROR && err->code == G_FILE_ERROR_NOENT ? -ENOENT
											     : -EINVAL,
			    "%s: %s", p->file, err->message);
		g_error_free(err);
		goto out;
	}
	p->name = g_key_file_get_string(kf, "profile", "name", NULL);
	if (!p->name) {
		rc = km_err(-EINVAL, "%s: [profile] name: missing", p->file);
		goto out;
	}
	p->summary = g_key_file_get_string(kf, "profile", "summary", NULL);
	if (!p->summary)
		p->summary = g_strdup("");
	if ((rc = read_group(p, kf, "cpu", cpu_keys, v)))
		goto out;
	p->clock_hz = v[0];
	if (p->clock_hz <= 0) {
		rc = km_err(-EINVAL, "%s: [cpu] clock_hz: must be above 0", p->file);
		goto out;
	}
	if ((rc = read_group(p, kf, "cache", cache_keys, v)))
		goto out;
	for (int i = 0; i < 3; i++)
		if (v[i] <= 0) {
			rc = km_err(-EINVAL, "%s: [cache] %s: must be above 0", p->file, cache_keys[i]);
			goto out;
		}
	p->l1 = v[0];
	p->l2 = v[1];
	p->line = v[2];
	if ((rc = read_group(p, kf, "bandwidth", bw_keys, v)))
		goto out;
	for (int i = 0; i < 2; i++)
		if (v[i] <= 0) {
			rc = km_err(-EINVAL, "%s: [bandwidth] %s: must be above 0", p->file, bw_keys[i]);
			goto out;
		}
	p->copy_l1 = v[0];
	p->set_l1 = v[1];
	if ((rc = read_group(p, kf, "memory", mem_keys, v)))
		goto out;
	p->read_l2 = v[0];
	p->read_mem = v[1];
	p->write_mem = v[2];
	for (size_t i = 0; i < G_N_ELEMENTS(cost_events); i++)
		if ((rc = read_key(p, kf, "cycles", cost_events[i].name, &p->cycles[i])))
			goto out;
	if ((rc = read_group(p, kf, "slab_debug", slab_keys, v)))
		goto out;
	p->slab_debug = v[0] != 0;
	p->alloc_cpb = v[1];
	p->free_cpb = v[2];
	p->skb_head_bytes = v[3];
	p->has_link = g_key_file_has_group(kf, "link");
	if (p->has_link) {
		if ((rc = read_group(p, kf, "link", link_keys, v)))
			goto out;
		p->wire_bps = v[0];
		p->frame_overhead = v[1];
		p->usb_bps = v[2];
		if (p->wire_bps <= 0 || p->usb_bps <= 0) {
			rc = km_err(-EINVAL, "%s: [link] wire_bits_per_s and usb_bytes_per_s must be "
					     "above 0", p->file);
			goto out;
		}
	}
out:
	g_key_file_free(kf);
	if (rc) {
		km_cost_profile_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

const char *km_cost_profile_name(const struct km_cost_profile *p)
{
	return p ? p->name : NULL;
}

const char *km_cost_profile_summary(const struct km_cost_profile *p)
{
	return p ? p->summary : NULL;
}

const char *km_cost_profile_file(const struct km_cost_profile *p)
{
	return p ? p->file : NULL;
}

double km_cost_profile_value(const struct km_cost_profile *p, const char *group, const char *key)
{
	gchar *k;
	const double *v;

	if (!p || !group || !key)
		return -1;
	k = g_strdup_printf("%s/%s", group, key);
	v = g_hash_table_lookup(p->values, k);
	g_free(k);
	return v ? *v : -1;
}

bool km_cost_profile_calibrated(const struct km_cost_profile *p, unsigned int i,
				const char **group, const char **key, const char **figure)
{
	const struct calib *c;

	if (!p || i >= p->calibrated->len)
		return false;
	c = &g_array_index(p->calibrated, struct calib, i);
	if (group)
		*group = c->group;
	if (key)
		*key = c->key;
	if (figure)
		*figure = c->figure;
	return true;
}

/*
 * The fraction of a reused working set's lines that miss a cache of @c
 * lines with random replacement, when each reuse of its @w lines also
 * allocates @s streamed lines: every allocation evicts a random line, so a
 * line survives one reuse with probability exp(-(s + w m) / c) (the
 * misses m of the set itself allocate too). The root of
 * f(m) = m - (1 - exp(-(s + w m) / c)) in (0, 1]: f is convex, f(1) > 0,
 * and f < 0 just above 0 unless everything fits with nothing streaming.
 */
static double miss_fraction(double w, double s, double c)
{
	double lo = 1e-12, hi = 1;

	if (w <= 0 || (s <= 0 && w <= c))
		return 0;
	for (int i = 0; i < 60; i++) {
		double m = (lo + hi) / 2;

		if (m - (1 - exp(-(s + w * m) / c)) < 0)
			lo = m;
		else
			hi = m;
	}
	return hi;
}

static void add_item(struct km_cost_result *r, const char *what, double count, double cycles)
{
	if (count == 0 || r->n_items == KM_COST_MAX_ITEMS)
		return;
	r->items[r->n_items++] = (struct km_cost_item){ what, count, cycles };
	r->cycles += cycles;
}

static int cmp_item(const void *a, const void *b)
{
	double x = ((const struct km_cost_item *)a)->cycles, y = ((const struct km_cost_item *)b)->cycles;

	return x < y ? 1 : x > y ? -1 : 0;
}

int km_cost_predict_sized(const struct km_cost_profile *p, const struct km_events *ev,
			  size_t ev_size, const struct km_cost_workload *w,
			  struct km_cost_result *out)
{
	struct km_events e = { 0 };
	double to, from, clear, copy_other, set_other;
	double c_copy, c_set, r_l2, r_mem, w_mem;

	if (!p || !ev || !w || !out)
		return km_err(-EINVAL, "km_cost_predict: NULL argument");
	memcpy(&e, ev, MIN(ev_size, sizeof(e)));
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < G_N_ELEMENTS(cost_events); i++) {
		double n = (double)*(const uint64_t *)((const char *)&e + cost_events[i].off);

		add_item(out, cost_events[i].name, n, n * p->cycles[i]);
	}
	/* per byte, in cycles */
	c_copy = 1 / p->copy_l1;
	c_set = 1 / p->set_l1;
	r_l2 = p->read_l2 / p->line;
	r_mem = p->read_mem / p->line;
	w_mem = p->write_mem / p->line;
	to = (double)e.uaccess_to_bytes;
	from = (double)e.uaccess_from_bytes;
	clear = (double)MIN(e.uaccess_clear_bytes, e.clear_bytes);
	/* the uaccess bytes are among the copies a variant counted (memcpy,
	 * the copy_template loops); the rest are kernel-side copies */
	copy_other = (double)(e.memcpy_bytes - MIN(e.memcpy_bytes, e.uaccess_to_bytes +
								  e.uaccess_from_bytes)) +
		     (double)(e.memmove_bytes + e.skb_copy_bytes);
	set_other = (double)e.clear_bytes - clear;
	if (w->working_set && (to > 0 || from > 0)) {
		/* per reuse of the W bytes: copy_to_user streams W bytes in
		 * (L1 and L2), copy_from_user W bytes out (L2 only), in the
		 * ratio the two directions were counted */
		double W = (double)w->working_set / p->line, big = MAX(to, from);
		double m1 = miss_fraction(W, W * to / big, p->l1 / p->line);
		double m2 = MIN(m1, miss_fraction(W, W * (to + from) / big, p->l2 / p->line));

		/* stores drain behind the loop: a copy costs the slower; a
		 * missed load stalls it */
		add_item(out, "copy to user bytes", to, to * (r_mem + MAX(c_copy, m2 * w_mem)));
		add_item(out, "copy from user bytes", from,
			 from * ((m1 - m2) * r_l2 + m2 * r_mem + MAX(c_copy, w_mem)));
		add_item(out, "clear user bytes", clear, clear * MAX(c_set, m2 * w_mem));
		add_item(out, "set bytes", set_other, set_other * MAX(c_set, w_mem));
	} else {
		add_item(out, "copy to user bytes", to, to * c_copy);
		add_item(out, "copy from user bytes", from, from * c_copy);
		add_item(out, "clear user bytes", clear, clear * c_set);
		add_item(out, "set bytes", set_other, set_other * c_set);
	}
	add_item(out, "copy bytes", copy_other, copy_other * c_copy);
	if (p->slab_debug) {
		double a = (double)e.kmalloc_bytes + (double)e.skb_allocs * p->skb_head_bytes;
		double f = (double)e.kfree_bytes + (double)e.skb_frees * p->skb_head_bytes;

		add_item(out, "slab debug", a + f, a * p->alloc_cpb + f * p->free_cpb);
	}
	qsort(out->items, out->n_items, sizeof(out->items[0]), cmp_item);
	out->seconds = out->cycles / p->clock_hz;
	return 0;
}

double km_cost_link_seconds(const struct km_cost_profile *p, double frames, double frame_bytes,
			    double usb_bytes)
{
	double wire, usb;

	if (!p || !p->has_link)
		return -1;
	wire = (frame_bytes + frames * p->frame_overhead) * 8 / p->wire_bps;
	usb = usb_bytes / p->usb_bps;
	return MAX(wire, usb);
}
