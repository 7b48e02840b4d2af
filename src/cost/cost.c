// SPDX-License-Identifier: GPL-2.0
/*
 * Cost profiles (GKeyFile) and the prediction of target time from counted
 * events: kmodel/cost.h.
 */
#define _GNU_SOURCE	/* dladdr() */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <glib.h>
#include <stddef.h>
#include <string.h>
#include <kmodel/cost.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the largest profile or paths table read (the shipped ones are < 64 KiB) */
#define KM_PROFILE_MAX_BYTES (1 << 20)

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
	EV(urb_allocs), EV(usb_in_packets), EV(eth_rx_frames), EV(uaccess_pan_switches),
	EV(uaccess_range_masks),
};
#undef EV

/* The other required keys, group by group (NULL ends a group). */
static const char *const profile_keys[] = { "name", "summary", NULL };	/* strings, no comment */
static const char *const cpu_keys[] = { "clock_hz", NULL };
static const char *const cache_keys[] = { "l1_bytes", "l2_bytes", "line_bytes", NULL };
static const char *const bw_keys[] = { "copy_l1", "set_l1", NULL };
static const char *const mem_keys[] = { "read_l2_cycles", "read_mem_cycles", "write_mem_cycles",
					NULL };
static const char *const slab_keys[] = { "enabled", "alloc_cycles_per_byte",
					 "free_cycles_per_byte", "skb_head_bytes", NULL };
/* optional groups: all or nothing. [link] is the board's side of the
 * link, its USB host; the wire is the device's
 * (km_usbnet_dev_wire_bits_per_s()) */
static const char *const link_keys[] = { "usb_bytes_per_s", NULL };
/* [link]'s keys up to 0.3.0, which gave the wire: read (only
 * km_cost_link_seconds() prices them, as 0.3.0 did), with a warning */
static const char *const link_legacy_keys[] = { "wire_bits_per_s", "frame_overhead_bytes", NULL };
/* version and paths are strings (with a source comment), the rate a number */
static const char *const kernel_keys[] = { "version", "paths", "cycles_per_instruction", NULL };

struct calib {
	char *group, *key, *figure;
};

struct km_cost_profile {
	char *name, *summary, *file, *paths_file, *kernel;
	GHashTable *values;	/* "group/key" -> double* */
	GArray *calibrated;	/* struct calib */
	double cycles[G_N_ELEMENTS(cost_events)];	/* per event: instructions x CPI + [cycles] */
	double clock_hz, l1, l2, line, copy_l1, set_l1, cpi;
	double read_l2, read_mem, write_mem;	/* cycles per line */
	bool slab_debug, has_link;
	double alloc_cpb, free_cpb, skb_head_bytes;
	double usb_bps;
	double legacy_wire[2];	/* link_legacy_keys' values; 0: not given */
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
	g_free(p->paths_file);
	g_free(p->kernel);
	g_free(p);
}

/*
 * A number as the profiles write it: decimal digits with an optional
 * fraction and exponent, an optional leading '-' (refused later as
 * negative, with its own message). Not C's whole strtod() syntax: no hex
 * ("0x10"), no "inf"/"nan", no leading '+' or space inside.
 */
static bool decimal_number(const char *s)
{
	const char *d;

	if (*s == '-')
		s++;
	d = s;
	while (g_ascii_isdigit(*s))
		s++;
	if (*s == '.') {
		s++;
		while (g_ascii_isdigit(*s))
			s++;
	}
	if (s == d || (s == d + 1 && *d == '.'))
		return false;	/* no digit */
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!g_ascii_isdigit(*s))
			return false;
		while (g_ascii_isdigit(*s))
			s++;
	}
	return *s == '\0';
}

/* @key's comment lines (the '#'s removed), stripped; NULL when it has none
 * or they say nothing */
static gchar *key_source(GKeyFile *kf, const char *group, const char *key)
{
	gchar *comment = g_key_file_get_comment(kf, group, key, NULL);
	gchar *src = comment ? g_strstrip(g_strdup(comment)) : NULL;

	g_free(comment);
	if (src && !*src)
		g_clear_pointer(&src, g_free);
	return src;
}

/*
 * One key of @file: present, with a comment line above it giving its
 * source. A comment that starts with "calibrated:" marks a value fitted to
 * the figure named after it: recorded in @p's list when @calib_ok, refused
 * otherwise (the shared paths table holds no fitted values). @num: a
 * finite decimal number >= 0 into *@out (else the string is not checked).
 */
static int read_entry(struct km_cost_profile *p, const char *file, GKeyFile *kf,
		      const char *group, const char *key, bool num, bool calib_ok, double *out)
{
	GError *err = NULL;
	gchar *raw, *end, *src;
	double v = 0;
	int rc = 0;

	raw = g_key_file_get_value(kf, group, key, &err);
	if (!raw) {
		g_clear_error(&err);
		return km_err(-EINVAL, "%s: [%s] %s: missing", file, group, key);
	}
	g_strstrip(raw);
	if (num) {
		v = g_ascii_strtod(raw, &end);
		if (!decimal_number(raw) || end == raw || *end || !isfinite(v))
			rc = km_err(-EINVAL, "%s: [%s] %s: \"%s\" is not a decimal number", file,
				    group, key, raw);
		else if (v < 0)
			rc = km_err(-EINVAL, "%s: [%s] %s: %s is negative", file, group, key, raw);
		/* a subnormal (4e-320): its reciprocal, a cost per byte or
		 * cycle, is infinite, and every prediction column came out
		 * empty without a word */
		else if (v != 0 && !isnormal(v))
			rc = km_err(-EINVAL, "%s: [%s] %s: %s is too small (not a normal number, "
				    "below %g): implausible", file, group, key, raw, DBL_MIN);
	} else if (!*raw) {
		rc = km_err(-EINVAL, "%s: [%s] %s: empty", file, group, key);
	}
	g_free(raw);
	if (rc)
		return rc;
	src = key_source(kf, group, key);
	if (!src) {
		rc = km_err(-EINVAL, "%s: [%s] %s: no comment line above it giving its source "
				     "(or \"calibrated: <figure>\")", file, group, key);
	} else if (g_str_has_prefix(src, "calibrated:")) {
		gchar *fig = g_strstrip(g_strdup(src + strlen("calibrated:")));

		if (!*fig) {
			rc = km_err(-EINVAL, "%s: [%s] %s: \"calibrated:\" names no figure", file,
				    group, key);
		} else if (!calib_ok) {
			rc = km_err(-EINVAL, "%s: [%s] %s: a calibrated value belongs in a profile, "
					     "not in the shared paths table", file, group, key);
		} else {
			struct calib cal = { g_strdup(group), g_strdup(key), fig };

			g_array_append_val(p->calibrated, cal);
			fig = NULL;
		}
		g_free(fig);
	}
	g_free(src);
	if (rc)
		return rc;
	if (num) {
		*out = v;
		g_hash_table_insert(p->values, g_strdup_printf("%s/%s", group, key),
				    g_memdup2(&v, sizeof(v)));
	}
	return 0;
}

static int read_key(struct km_cost_profile *p, GKeyFile *kf, const char *group, const char *key,
		    double *out)
{
	return read_entry(p, p->file, kf, group, key, true, true, out);
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

static bool in_list(const char *const *keys, const char *key)
{
	for (size_t i = 0; keys[i]; i++)
		if (!strcmp(keys[i], key))
			return true;
	return false;
}

static bool is_event(const char *key)
{
	for (size_t i = 0; i < G_N_ELEMENTS(cost_events); i++)
		if (!strcmp(cost_events[i].name, key))
			return true;
	return false;
}

/* A key the format does not have (a misspelt "sycsalls" would otherwise
 * be ignored and its real key reported missing, or worse, silently
 * shadowed), or a group it does not have: refused, naming file, group and
 * key. @table: the paths table, whose groups are kernel versions. */
static int check_known(const char *file, GKeyFile *kf, bool table)
{
	static const struct {
		const char *group;
		const char *const *keys;	/* NULL: the events */
	} groups[] = {
		{ "profile", profile_keys }, { "kernel", kernel_keys }, { "cpu", cpu_keys },
		{ "cache", cache_keys }, { "bandwidth", bw_keys }, { "memory", mem_keys },
		{ "cycles", NULL }, { "slab_debug", slab_keys }, { "link", link_keys },
	};
	gchar **gs = g_key_file_get_groups(kf, NULL);
	int rc = 0;

	for (gchar **g = gs; *g && !rc; g++) {
		const char *const *keys = NULL;
		bool known = table;	/* any group of the table is a version */
		gchar **ks;

		for (size_t i = 0; !table && i < G_N_ELEMENTS(groups); i++)
			if (!strcmp(groups[i].group, *g)) {
				known = true;
				keys = groups[i].keys;
			}
		ks = g_key_file_get_keys(kf, *g, NULL, NULL);
		if (!known)
			rc = km_err(-EINVAL, "%s: [%s]%s%s: unknown group", file, *g,
				    ks && ks[0] ? " " : "", ks && ks[0] ? ks[0] : "");
		for (gchar **k = ks; !rc && k && *k; k++)
			if (keys ? !in_list(keys, *k) &&
					   !(keys == link_keys && in_list(link_legacy_keys, *k))
				 : !is_event(*k))
				rc = km_err(-EINVAL, "%s: [%s] %s: unknown key", file, *g, *k);
		g_strfreev(ks);
	}
	g_strfreev(gs);
	return rc;
}

/* @file's text into *@text (g_free()): a regular file of at most
 * KM_PROFILE_MAX_BYTES, opened without blocking -- a FIFO blocked in
 * open(2), /dev/zero was read until memory ran out. False with *@err
 * (G_FILE_ERROR, the reason: never the file's contents). */
static bool read_regular(const char *file, gchar **text, GError **err)
{
	struct stat st;
	int fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e = 0;
	gsize got = 0;

	*text = NULL;
	if (fd < 0 || fstat(fd, &st))
		e = errno;
	else if (!S_ISREG(st.st_mode))
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL, "not a regular file (%s), not a "
			    "cost profile", S_ISDIR(st.st_mode) ? "a directory" :
			    S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) ?
			    "a character device" : "a device or socket");
	else if (st.st_size > KM_PROFILE_MAX_BYTES)
		g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%lld bytes, more than a cost "
			    "profile has (at most %d)", (long long)st.st_size, KM_PROFILE_MAX_BYTES);
	else
		*text = g_malloc((gsize)st.st_size + 1);
	/* up to the size fstat() gave: a file that grows is not followed */
	while (*text && got < (gsize)st.st_size) {
		ssize_t r = read(fd, *text + got, (gsize)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			e = r < 0 ? errno : 0;
			break;
		}
		got += (gsize)r;
	}
	if (*text)
		(*text)[got] = '\0';
	if (e) {
		g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(e), "%s", g_strerror(e));
		g_clear_pointer(text, g_free);
	}
	if (fd >= 0)
		close(fd);
	return *text != NULL;
}

/*
 * Load @file into @kf (comments kept), refusing a key given twice in a
 * group: GKeyFile silently keeps the last value (and merges a group given
 * twice), so a hand-merged profile would override a sourced value without
 * a word. The scan reads lines as g_key_file_parse_line() does: leading
 * blanks skipped, blank lines and '#' comments ignored, "[group]" opens a
 * group, any other line's key is the text before its '=' less trailing
 * blanks. Return: true, or false with *@err set (a G_FILE_ERROR of
 * reading, or a G_KEY_FILE_ERROR: _PARSE from GKeyFile, quoting the line;
 * _INVALID_VALUE "[group] key: given twice (lines A and B)").
 */
static bool load_keyfile(GKeyFile *kf, const char *file, GError **err)
{
	gchar *text = NULL, **lines;
	GHashTable *seen;
	const char *group = "";
	bool ok = true;

	if (!read_regular(file, &text, err))
		return false;
	seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; ok && lines[i]; i++) {
		gchar *l = g_strchug(lines[i]), *eq, *k;
		gpointer first;

		if (!*l || *l == '#')
			continue;
		if (*l == '[') {
			group = l + 1;
			*strchrnul(l, ']') = '\0';
			continue;
		}
		if (!(eq = strchr(l, '=')))
			continue;	/* GKeyFile refuses it below */
		*eq = '\0';
		k = g_strdup_printf("[%s] %s", group, g_strchomp(l));
		if (g_hash_table_lookup_extended(seen, k, NULL, &first)) {
			g_set_error(err, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
				    "%s: given twice (lines %u and %u)", k, GPOINTER_TO_UINT(first),
				    i + 1);
			ok = false;
			g_free(k);
		} else {
			g_hash_table_insert(seen, k, GUINT_TO_POINTER(i + 1));
		}
	}
	g_strfreev(lines);
	g_hash_table_destroy(seen);
	if (ok)
		ok = g_key_file_load_from_data(kf, text, (gsize)-1, G_KEY_FILE_KEEP_COMMENTS, err);
	g_free(text);
	return ok;
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

/* The file of the profile (or paths table) @name, looked up first in
 * @first (NULL: not) then in profile_dirs(); NULL with km_last_error()
 * listing the directories searched. */
static char *find_profile(const char *name, const char *first)
{
	gchar **dirs = profile_dirs(), *file = g_strconcat(name, ".ini", NULL), *path = NULL;

	if (first) {
		path = g_build_filename(first, file, NULL);
		if (!g_file_test(path, G_FILE_TEST_IS_REGULAR))
			g_clear_pointer(&path, g_free);
	}
	for (gchar **d = dirs; *d && !path; d++) {
		path = g_build_filename(*d, file, NULL);
		if (!g_file_test(path, G_FILE_TEST_IS_REGULAR))
			g_clear_pointer(&path, g_free);
	}
	if (!path) {
		gchar *list = g_strjoinv(", ", dirs);

		km_set_error("cost profile \"%s\": no %s in %s%s%s%s", name, file, first ? first : "",
			     first ? ", " : "", list,
			     g_getenv("KMODEL_PROFILE_DIR") ? "" : " ($KMODEL_PROFILE_DIR adds a directory)");
		g_free(list);
	}
	g_strfreev(dirs);
	g_free(file);
	return path;
}

static bool is_path(const char *s)
{
	return strchr(s, '/') || g_str_has_suffix(s, ".ini");
}

/*
 * [kernel]: the kernel paths' instruction counts for the profile's kernel
 * version, read from the shared table its paths key names (a name: looked
 * up next to the profile, then as a profile is; a relative path: from the
 * profile's directory), each event's cycles = instructions x CPI + its
 * [cycles] value. Every event must have its count, with a source comment;
 * the table holds no calibrated value.
 */
static int read_kernel(struct km_cost_profile *p, GKeyFile *kf)
{
	gchar *paths = g_key_file_get_value(kf, "kernel", "paths", NULL);
	gchar *dir = g_path_get_dirname(p->file);
	GKeyFile *tk = g_key_file_new();
	GError *err = NULL;
	double dummy;
	int rc;

	if ((rc = read_entry(p, p->file, kf, "kernel", "version", false, false, &dummy)) ||
	    (rc = read_entry(p, p->file, kf, "kernel", "paths", false, false, &dummy)) ||
	    (rc = read_key(p, kf, "kernel", "cycles_per_instruction", &p->cpi)))
		goto out;
	p->kernel = g_strstrip(g_key_file_get_value(kf, "kernel", "version", NULL));
	g_strstrip(paths);
	if (is_path(paths))
		p->paths_file = g_path_is_absolute(paths) ? g_strdup(paths)
							  : g_build_filename(dir, paths, NULL);
	else
		p->paths_file = find_profile(paths, dir);
	if (!p->paths_file) {
		gchar *why = g_strdup(km_last_error());	/* km_err() rewrites it */

		rc = km_err(-EINVAL, "%s: [kernel] paths: %s", p->file, why);
		g_free(why);
		goto out;
	}
	if (!load_keyfile(tk, p->paths_file, &err)) {
		/* GKeyFile's parse error quotes the line it stopped at: of a
		 * file that is no paths table (/etc/shadow), never printed */
		bool parse = err->domain == G_KEY_FILE_ERROR &&
			     err->code != G_KEY_FILE_ERROR_INVALID_VALUE;

		rc = km_err(-EINVAL, "%s: [kernel] paths: %s: %s", p->file, p->paths_file,
			    parse ? "not a paths table (not a key file: a line that is neither "
				    "[group], key=value nor a comment)" : err->message);
		g_error_free(err);
		goto out;
	}
	if ((rc = check_known(p->paths_file, tk, true)))
		goto out;
	if (!g_key_file_has_group(tk, p->kernel)) {
		rc = km_err(-EINVAL, "%s: [kernel] version: %s has no [%s]", p->file, p->paths_file,
			    p->kernel);
		goto out;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(cost_events); i++) {
		double n;
		gchar *k;

		if ((rc = read_entry(p, p->paths_file, tk, p->kernel, cost_events[i].name, true,
				     false, &n)))
			goto out;
		/* the counts, as the profile's "instructions" group */
		k = g_strdup_printf("instructions/%s", cost_events[i].name);
		g_hash_table_insert(p->values, k, g_memdup2(&n, sizeof(n)));
		p->cycles[i] += n * p->cpi;
	}
out:
	g_key_file_free(tk);
	g_free(paths);
	g_free(dir);
	return rc;
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
	p->file = is_path(name_or_path) ? g_strdup(name_or_path) : find_profile(name_or_path, NULL);
	if (!p->file) {
		km_cost_profile_free(p);
		return -ENOENT;		/* km_last_error(): find_profile()'s */
	}
	/* the file realpath(3) names: absolute, no "." or "..", links
	 * resolved (g_canonicalize_filename() dropped "x/.."
	 * as text, and through a link x that opened another file); a path
	 * that does not resolve is loaded as given, to fail naming it */
	{
		char *real = realpath(p->file, NULL);

		if (real) {
			g_free(p->file);
			p->file = g_strdup(real);
			free(real);
		}
	}
	kf = g_key_file_new();
	if (!load_keyfile(kf, p->file, &err)) {
		rc = km_err(err->domain == G_FILE_ERROR && err->code == G_FILE_ERROR_NOENT ? -ENOENT
											     : -EINVAL,
			    "%s: %s", p->file, err->message);
		g_error_free(err);
		goto out;
	}
	if ((rc = check_known(p->file, kf, false)))
		goto out;
	p->name = g_key_file_get_string(kf, "profile", "name", NULL);
	if (!p->name) {
		rc = km_err(-EINVAL, "%s: [profile] name: missing", p->file);
		goto out;
	}
	/* an identifier: tools put it in plots' scripts, file names, tables */
	if (!*p->name || p->name[strspn(p->name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					      "0123456789._+-")]) {
		gchar *shown = g_strescape(p->name, NULL);

		rc = km_err(-EINVAL, "%s: [profile] name: \"%s\": empty or a character outside "
			    "A-Z a-z 0-9 . _ + -", p->file, shown);
		g_free(shown);
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
	/* the rule a machine has for l1_cache_bytes (km_machine_new()) */
	if (v[2] != 16 && v[2] != 32 && v[2] != 64 && v[2] != 128 && v[2] != 256) {
		rc = km_err(-EINVAL, "%s: [cache] line_bytes: %g is not a power of two in 16 .. 256",
			    p->file, v[2]);
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
	if (g_key_file_has_group(kf, "kernel") && (rc = read_kernel(p, kf)))
		goto out;
	if ((rc = read_group(p, kf, "slab_debug", slab_keys, v)))
		goto out;
	if (v[0] != 0 && v[0] != 1) {
		rc = km_err(-EINVAL, "%s: [slab_debug] enabled: %g is not 0 or 1", p->file, v[0]);
		goto out;
	}
	p->slab_debug = v[0] != 0;
	p->alloc_cpb = v[1];
	p->free_cpb = v[2];
	p->skb_head_bytes = v[3];
	p->has_link = g_key_file_has_group(kf, "link");
	if (p->has_link) {
		if ((rc = read_group(p, kf, "link", link_keys, v)))
			goto out;
		p->usb_bps = v[0];
		if (p->usb_bps <= 0) {
			rc = km_err(-EINVAL, "%s: [link] usb_bytes_per_s: must be above 0", p->file);
			goto out;
		}
		for (int i = 0; link_legacy_keys[i]; i++) {
			if (!g_key_file_has_key(kf, "link", link_legacy_keys[i], NULL))
				continue;
			if ((rc = read_key(p, kf, "link", link_legacy_keys[i], &p->legacy_wire[i])))
				goto out;
			if (p->legacy_wire[i] <= 0) {
				rc = km_err(-EINVAL, "%s: [link] %s: must be above 0", p->file,
					    link_legacy_keys[i]);
				goto out;
			}
			fprintf(stderr, "kmodel: %s: [link] %s (a key up to 0.3.0): ignored by the "
				"predictions: the wire is the device's "
				"(km_usbnet_dev_wire_bits_per_s()), Ethernet's overhead %d bytes a "
				"frame\n", p->file, link_legacy_keys[i], KM_COST_ETH_WIRE_OVERHEAD);
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
			  size_t ev_size, const struct km_cost_workload *caller_w, size_t w_size,
			  struct km_cost_result *caller_out, size_t out_size)
{
	struct km_events e = { 0 };
	struct km_cost_workload wl = { 0 }, *w = &wl;
	struct km_cost_result res = { 0 }, *out = &res;
	double to, from, clear, copy_other, set_other, set_warm;
	double c_copy, c_set, r_l2, r_mem, w_mem;

	if (!p || !ev || !caller_w || !caller_out)
		return km_err(-EINVAL, "km_cost_predict: NULL argument");
	if (w_size < KM_COST_WORKLOAD_MIN_SIZE || out_size < KM_COST_RESULT_MIN_SIZE)
		return km_err(-EINVAL, "km_cost_predict: workload size %zu (< %zu) or result size "
			      "%zu (< %zu)", w_size, (size_t)KM_COST_WORKLOAD_MIN_SIZE, out_size,
			      (size_t)KM_COST_RESULT_MIN_SIZE);
	memcpy(&e, ev, MIN(ev_size, sizeof(e)));
	km_struct_read(&wl, sizeof(wl), caller_w, w_size);
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
	/* of those, the ones in lines written moments before: a line goes to
	 * DRAM once, and these lines' write is another's (the slab object's
	 * earlier life, the copy that fills the zeroed page-cache bytes) */
	set_warm = MIN(set_other, (double)e.clear_slab_warm_bytes + (double)e.clear_refilled_bytes);
	set_other -= set_warm;
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
		add_item(out, "warm set bytes", set_warm, set_warm * c_set);
	} else {
		add_item(out, "copy to user bytes", to, to * c_copy);
		add_item(out, "copy from user bytes", from, from * c_copy);
		add_item(out, "clear user bytes", clear, clear * c_set);
		add_item(out, "set bytes", set_other, set_other * c_set);
		add_item(out, "warm set bytes", set_warm, set_warm * c_set);
	}
	add_item(out, "copy bytes", copy_other, copy_other * c_copy);
	if (p->slab_debug) {
		/* the objects as the target has them (32-bit ARM buckets) */
		double a = (double)e.kmalloc_arm_bytes + (double)e.skb_allocs * p->skb_head_bytes;
		double f = (double)e.kfree_arm_bytes + (double)e.skb_frees * p->skb_head_bytes;

		add_item(out, "slab debug", a + f, a * p->alloc_cpb + f * p->free_cpb);
	}
	qsort(out->items, out->n_items, sizeof(out->items[0]), cmp_item);
	out->seconds = out->cycles / p->clock_hz;
	km_struct_write(caller_out, out_size, &res, sizeof(res));
	return 0;
}

double km_cost_link_seconds(const struct km_cost_profile *p, double frames, double frame_bytes,
			    double usb_bytes)
{
	/* 0.3.0's link: the profile's wire, else the AX88772's of its profiles */
	double bps = p && p->legacy_wire[0] > 0 ? p->legacy_wire[0] : 100000000;
	double overhead = p && p->legacy_wire[1] > 0 ? p->legacy_wire[1] : KM_COST_ETH_WIRE_OVERHEAD;
	double usb = km_cost_usb_seconds(p, usb_bytes);

	return usb < 0 ? usb : MAX((frame_bytes + frames * overhead) * 8 / bps, usb);
}

double km_cost_usb_seconds(const struct km_cost_profile *p, double usb_bytes)
{
	if (!p || !p->has_link)
		return -1;
	return usb_bytes / p->usb_bps;
}

double km_cost_wire_seconds(double wire_bits_per_s, double frames, double frame_bytes)
{
	if (!(wire_bits_per_s > 0))
		return -1;
	return (frame_bytes + frames * KM_COST_ETH_WIRE_OVERHEAD) * 8 / wire_bits_per_s;
}
