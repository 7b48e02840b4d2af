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
/* skbuff_fclone_cache's object beyond its two heads: fclone_ref, an
 * atomic_t (v3.5 net/core/skbuff.c skb_init()) */
#define KM_FCLONE_REF_BYTES 4

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
	EV(uaccess_range_masks), EV(gup_kmap_calls), EV(gup_kmap_pages),
};
#undef EV

/* The other required keys, group by group (NULL ends a group). */
static const char *const profile_keys[] = { "name", "summary", NULL };	/* strings, no comment */
static const char *const cpu_keys[] = { "clock_hz", NULL };
static const char *const cache_keys[] = { "l1_bytes", "l2_bytes", "line_bytes", NULL };
static const char *const bw_keys[] = { "copy_l1", "set_l1", NULL };
static const char *const mem_keys[] = { "read_l2_cycles", "read_mem_cycles", "write_mem_cycles",
					NULL };
/* optional keys of those groups (issue 22: the store side), each alone;
 * without them a profile prices stores as 0.4.0 did (see cost.h) */
static const char *const cache_opt_keys[] = { "l1_write_allocate", "l2_write_allocate", NULL };
static const char *const bw_opt_keys[] = { "copy_word_l1", "set_word_l1", NULL };
static const char *const mem_opt_keys[] = { "write_txn_cycles", "l2_write_txn_cycles", NULL };
/* optional group, all or nothing: the core's write buffer */
static const char *const wb_keys[] = { "entries", "entry_bytes", "merge", NULL };
/* optional keys of [kernel]: the architecture and CPU_USE_DOMAINS, which
 * pick the user-access routines' stores with the version; the rate of
 * straight-line kernel C, apart from cycles_per_instruction's (a rate
 * measured over a path that holds an exception entry and return) */
static const char *const kernel_opt_keys[] = { "arch", "cpu_use_domains",
					       "c_cycles_per_instruction", NULL };

/* the part of an event's path ("<event>.drain") priced at
 * cycles_per_instruction when the profile gives c_cycles_per_instruction:
 * instructions that drain the pipeline (an exception's entry and return,
 * a CP15 write with its isb) or whose time was measured with them */
#define DRAIN_PART "drain"
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

/* a part of an event's path in the paths table, "<event>.<function>": the
 * event's count is the sum of its parts, each drawn on its own */
struct part {
	unsigned int ev;	/* index in cost_events[] */
	char *hkey;		/* "<group>/<event>.<function>" in the values */
};

/* a value's uncertainty: its comment's "uncertainty:" line (cost.h) */
struct unc {
	char *group, *key;
	char kind;		/* 'e' exact, 'r' range of two sources, 'a' assumed */
	double lo, hi;
};

struct km_cost_profile {
	char *name, *summary, *file, *paths_file, *kernel;
	GHashTable *values;	/* "group/key" -> double* */
	GArray *calibrated;	/* struct calib */
	GArray *unc;		/* struct unc, one per value that states one */
	GArray *parts;		/* struct part, of the events the table gives by parts */
	/* per event: instructions (the paths table) x CPI + [cycles]; of
	 * the instructions, exc[] are its "drain" part's (see
	 * event_cycles()) */
	double instr[G_N_ELEMENTS(cost_events)], extra[G_N_ELEMENTS(cost_events)];
	double exc[G_N_ELEMENTS(cost_events)];
	double clock_hz, l1, l2, line, copy_l1, set_l1, cpi;
	double c_cpi;		/* [kernel] c_cycles_per_instruction; has_c_cpi: given */
	bool has_c_cpi;
	double read_l2, read_mem, write_mem;	/* cycles per line */
	/* the store side (issue 22) */
	double copy_word_l1, set_word_l1;	/* bytes per cycle of the one-word-store loops */
	double write_txn, l2_write_txn;		/* cycles per write transaction: DRAM's fixed part, L2's */
	double wb_entries, wb_entry_bytes;
	bool l1_wa, l2_wa, wb_merge;
	unsigned int arch, kmajor, kminor;	/* [kernel] arch, version */
	bool use_domains;
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
	for (guint i = 0; p->unc && i < p->unc->len; i++) {
		struct unc *u = &g_array_index(p->unc, struct unc, i);

		g_free(u->group);
		g_free(u->key);
	}
	if (p->unc)
		g_array_free(p->unc, TRUE);
	for (guint i = 0; p->parts && i < p->parts->len; i++)
		g_free(g_array_index(p->parts, struct part, i).hkey);
	if (p->parts)
		g_array_free(p->parts, TRUE);
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

/* "LO .. HI" or "+-P %" (also "±P %") around @v, into *@lo, *@hi */
static bool parse_bounds(const char *t, double v, double *lo, double *hi)
{
	gchar **parts;
	bool ok = false;

	while (*t == ' ')
		t++;
	if (g_str_has_prefix(t, "+-") || g_str_has_prefix(t, "\xc2\xb1")) {	/* +- or U+00B1 */
		gchar *end;
		double pct;

		t += 2;
		pct = g_ascii_strtod(t, &end);
		while (*end == ' ')
			end++;
		if (end == t || *end != '%' || !(pct >= 0) || pct > 100)
			return false;
		*lo = v * (1 - pct / 100);
		*hi = v * (1 + pct / 100);
		return true;
	}
	parts = g_strsplit(t, "..", 2);
	if (parts[0] && parts[1]) {
		gchar *a = g_strstrip(parts[0]), *b = g_strstrip(parts[1]), *sp = strchr(b, ' ');

		if (sp)
			*sp = '\0';	/* "HI (why)" */
		ok = decimal_number(a) && decimal_number(b);
		*lo = g_ascii_strtod(a, NULL);
		*hi = g_ascii_strtod(b, NULL);
	}
	g_strfreev(parts);
	return ok;
}

/*
 * The "uncertainty:" line of @key's comment @src, if any (cost.h): exact,
 * "range LO .. HI" (two sources that disagree), "assumed LO .. HI" (no
 * source bounds it), either with "+-P %" instead of LO .. HI. The range
 * must hold the value. Recorded in @p's list; a value without the line
 * is taken as exact.
 */
static int read_uncertainty(struct km_cost_profile *p, const char *file, const char *group,
			    const char *key, const char *src, double v)
{
	gchar **lines = g_strsplit(src, "\n", -1);
	struct unc u = { .kind = 'e', .lo = v, .hi = v };
	bool seen = false;
	int rc = 0;

	for (gchar **l = lines; *l && !rc; l++) {
		gchar *t = g_strstrip(*l);

		if (!g_str_has_prefix(t, "uncertainty:"))
			continue;
		if (seen) {
			rc = km_err(-EINVAL, "%s: [%s] %s: two \"uncertainty:\" lines", file, group, key);
			break;
		}
		seen = true;
		t = g_strstrip(t + strlen("uncertainty:"));
		if (g_str_has_prefix(t, "exact"))
			continue;
		if (g_str_has_prefix(t, "range"))
			u.kind = 'r', t += strlen("range");
		else if (g_str_has_prefix(t, "assumed"))
			u.kind = 'a', t += strlen("assumed");
		else
			t = NULL;
		if (!t || !parse_bounds(t, v, &u.lo, &u.hi))
			rc = km_err(-EINVAL, "%s: [%s] %s: \"uncertainty:\" is not \"exact\", "
				    "\"range LO .. HI\", \"assumed LO .. HI\" or either with "
				    "\"+-P %%\"", file, group, key);
		else if (!(u.lo <= v && v <= u.hi) || u.lo < 0)
			rc = km_err(-EINVAL, "%s: [%s] %s: uncertainty %g .. %g does not hold the "
				    "value %g (or is negative)", file, group, key, u.lo, u.hi, v);
	}
	g_strfreev(lines);
	if (!rc && u.kind != 'e') {
		u.group = g_strdup(group);
		u.key = g_strdup(key);
		g_array_append_val(p->unc, u);
	}
	return rc;
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
		gchar *fig = g_strdup(src + strlen("calibrated:"));

		/* the figure, not the uncertainty line after it */
		for (gchar *nl = strchr(fig, '\n'); nl; nl = strchr(nl + 1, '\n'))
			if (g_str_has_prefix(nl + 1 + strspn(nl + 1, " \t"), "uncertainty:")) {
				*nl = '\0';
				break;
			}
		g_strstrip(fig);

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
	if (!rc && num)
		rc = read_uncertainty(p, file, group, key, src, v);
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

/* The event whose part @key names, "<event>.<function>" (the function a
 * C identifier), as its index in cost_events[]; -1 for any other key */
static int part_event(const char *key)
{
	const char *dot = strchr(key, '.');

	if (!dot || !dot[1] || !(g_ascii_isalpha(dot[1]) || dot[1] == '_'))
		return -1;
	for (const char *c = dot + 1; *c; c++)
		if (!g_ascii_isalnum(*c) && *c != '_')
			return -1;
	for (size_t i = 0; i < G_N_ELEMENTS(cost_events); i++)
		if (strlen(cost_events[i].name) == (size_t)(dot - key) &&
		    !strncmp(cost_events[i].name, key, (size_t)(dot - key)))
			return (int)i;
	return -1;
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
		const char *const *opt;		/* optional keys */
	} groups[] = {
		{ "profile", profile_keys, NULL }, { "kernel", kernel_keys, kernel_opt_keys },
		{ "cpu", cpu_keys, NULL }, { "cache", cache_keys, cache_opt_keys },
		{ "bandwidth", bw_keys, bw_opt_keys }, { "memory", mem_keys, mem_opt_keys },
		{ "cycles", NULL, NULL }, { "slab_debug", slab_keys, NULL },
		{ "link", link_keys, link_legacy_keys }, { "write_buffer", wb_keys, NULL },
	};
	gchar **gs = g_key_file_get_groups(kf, NULL);
	int rc = 0;

	for (gchar **g = gs; *g && !rc; g++) {
		const char *const *keys = NULL, *const *opt = NULL;
		bool known = table;	/* any group of the table is a version */
		gchar **ks;

		for (size_t i = 0; !table && i < G_N_ELEMENTS(groups); i++)
			if (!strcmp(groups[i].group, *g)) {
				known = true;
				keys = groups[i].keys;
				opt = groups[i].opt;
			}
		ks = g_key_file_get_keys(kf, *g, NULL, NULL);
		if (!known)
			rc = km_err(-EINVAL, "%s: [%s]%s%s: unknown group", file, *g,
				    ks && ks[0] ? " " : "", ks && ks[0] ? ks[0] : "");
		for (gchar **k = ks; !rc && k && *k; k++)
			if (keys ? !in_list(keys, *k) && !(opt && in_list(opt, *k))
				 : !is_event(*k) && !(table && !strcmp(*k, "based_on")) &&
				   !(table && part_event(*k) >= 0))
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
	guint bad = 0;		/* the first line GKeyFile will refuse, 1-based */
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
		if (!(eq = strchr(l, '='))) {
			bad = bad ? bad : i + 1;	/* GKeyFile refuses it below */
			continue;
		}
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
	/* GKeyFile's parse errors quote the offending line: the file may be
	 * anything a user named (/etc/shadow), so the message names only the
	 * line's number and the reason */
	if (!ok && err && *err && (*err)->domain == G_KEY_FILE_ERROR &&
	    ((*err)->code == G_KEY_FILE_ERROR_PARSE ||
	     (*err)->code == G_KEY_FILE_ERROR_UNKNOWN_ENCODING)) {
		g_clear_error(err);
		if (bad)
			g_set_error(err, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_PARSE,
				    "not a key file: line %u is neither a key=value pair, a "
				    "[group] nor a comment", bad);
		else
			g_set_error_literal(err, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_PARSE,
					    "not a key file (a malformed group, key or encoding)");
	}
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

/* @group of the paths table @tk gives event @i: whole, or by parts */
static bool has_event(GKeyFile *tk, const char *group, size_t i)
{
	gchar **ks = g_key_file_get_keys(tk, group, NULL, NULL);
	bool has = false;

	for (gchar **k = ks; k && *k && !has; k++)
		has = !strcmp(*k, cost_events[i].name) || part_event(*k) == (int)i;
	g_strfreev(ks);
	return has;
}

/*
 * Event @i's count in @group of the paths table @tk into *@n: its key, or
 * the sum of its parts ("<event>.<function>", each with its source and
 * uncertainty, recorded in @p->parts for the draws); not both.
 */
static int read_event(struct km_cost_profile *p, GKeyFile *tk, const char *group, size_t i,
		      double *n)
{
	const char *name = cost_events[i].name;
	gchar **ks = g_key_file_get_keys(tk, group, NULL, NULL);
	unsigned int parts = 0;
	int rc = 0;

	*n = 0;
	for (gchar **k = ks; k && *k && !rc; k++) {
		double v;

		if (part_event(*k) != (int)i)
			continue;
		if (g_key_file_has_key(tk, group, name, NULL)) {
			rc = km_err(-EINVAL, "%s: [%s] %s: given whole and by parts (%s): one or "
				    "the other", p->paths_file, group, name, *k);
			break;
		}
		if ((rc = read_entry(p, p->paths_file, tk, group, *k, true, false, &v)))
			break;
		*n += v;
		if (!strcmp(strchr(*k, '.') + 1, DRAIN_PART))
			p->exc[i] += v;
		parts++;
		g_array_append_val(p->parts, ((struct part){ (unsigned int)i,
							      g_strdup_printf("%s/%s", group, *k) }));
	}
	g_strfreev(ks);
	if (!rc && !parts)
		rc = read_entry(p, p->paths_file, tk, group, name, true, false, n);
	return rc;
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
	gchar *base = NULL;
	double dummy;
	int rc;

	if ((rc = read_entry(p, p->file, kf, "kernel", "version", false, false, &dummy)) ||
	    (rc = read_entry(p, p->file, kf, "kernel", "paths", false, false, &dummy)) ||
	    (rc = read_key(p, kf, "kernel", "cycles_per_instruction", &p->cpi)))
		goto out;
	p->has_c_cpi = g_key_file_has_key(kf, "kernel", "c_cycles_per_instruction", NULL);
	if (p->has_c_cpi &&
	    (rc = read_key(p, kf, "kernel", "c_cycles_per_instruction", &p->c_cpi)))
		goto out;
	p->kernel = g_strstrip(g_key_file_get_value(kf, "kernel", "version", NULL));
	/* "vMAJOR[.MINOR[.x]]": the era picks the routines' stores */
	if (sscanf(p->kernel, "v%u.%u", &p->kmajor, &p->kminor) < 1) {
		rc = km_err(-EINVAL, "%s: [kernel] version: \"%s\" is not vMAJOR.MINOR", p->file,
			    p->kernel);
		goto out;
	}
	/* the architecture (5, 6, 7) and CPU_USE_DOMAINS: arch/arm/mm/Kconfig
	 * (v3.x .. v5.x) has CPU_32v3, v4, v4T and v5 select CPU_USE_DOMAINS
	 * if MMU; ARMv7 never uses it */
	p->arch = 7;
	if (g_key_file_has_key(kf, "kernel", "arch", NULL)) {
		double a;

		if ((rc = read_key(p, kf, "kernel", "arch", &a)))
			goto out;
		if (a != 5 && a != 6 && a != 7) {
			rc = km_err(-EINVAL, "%s: [kernel] arch: %g is not 5, 6 or 7", p->file, a);
			goto out;
		}
		p->arch = (unsigned int)a;
	}
	p->use_domains = p->arch <= 5;
	if (g_key_file_has_key(kf, "kernel", "cpu_use_domains", NULL)) {
		double d;

		if ((rc = read_key(p, kf, "kernel", "cpu_use_domains", &d)))
			goto out;
		if ((d != 0 && d != 1) || (p->arch <= 5 && d != 1) || (p->arch == 7 && d != 0)) {
			rc = km_err(-EINVAL, "%s: [kernel] cpu_use_domains: %g: 0 or 1, and 1 on "
				    "ARMv5 (CPU_32v5 selects it), 0 on ARMv7", p->file, d);
			goto out;
		}
		p->use_domains = d != 0;
	}
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
	/* a group may take another's counts for the events it does not
	 * give ("based_on", with its source comment: why the paths are the
	 * same) */
	base = g_key_file_get_value(tk, p->kernel, "based_on", NULL);
	if (base) {
		g_strstrip(base);
		if ((rc = read_entry(p, p->paths_file, tk, p->kernel, "based_on", false, false,
				     &dummy)))
			goto out;
		if (!strcmp(base, p->kernel) || !g_key_file_has_group(tk, base) ||
		    g_key_file_has_key(tk, base, "based_on", NULL)) {
			rc = km_err(-EINVAL, "%s: [%s] based_on: \"%s\" is not another version "
				    "group without based_on", p->paths_file, p->kernel, base);
			goto out;
		}
	}
	for (size_t i = 0; i < G_N_ELEMENTS(cost_events) && !rc; i++) {
		const char *g = base && !has_event(tk, p->kernel, i) ? base : p->kernel;
		double n = 0;
		gchar *k;

		if ((rc = read_event(p, tk, g, i, &n)))
			goto out;
		/* the counts, as the profile's "instructions" group */
		k = g_strdup_printf("instructions/%s", cost_events[i].name);
		g_hash_table_insert(p->values, k, g_memdup2(&n, sizeof(n)));
		p->instr[i] = n;
	}
out:
	g_free(base);
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
	p->unc = g_array_new(FALSE, TRUE, sizeof(struct unc));
	p->parts = g_array_new(FALSE, TRUE, sizeof(struct part));
	p->arch = 7;
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
	/* l2_bytes 0: a core without an L2 (Orion5x's Feroceon, the
	 * BCM2835's ARM1176, whose L2 serves the GPU) */
	for (int i = 0; i < 3; i++)
		if (v[i] <= 0 && i != 1) {
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
	/* the allocation policies: 0.4.0's, a Cortex-A8's, unless given
	 * (L1 on read misses only, L2 on read and write misses) */
	p->l2_wa = p->l2 > 0;
	for (int i = 0; cache_opt_keys[i]; i++) {
		double a;

		if (!g_key_file_has_key(kf, "cache", cache_opt_keys[i], NULL))
			continue;
		if ((rc = read_key(p, kf, "cache", cache_opt_keys[i], &a)))
			goto out;
		if ((a != 0 && a != 1) || (i == 1 && a && p->l2 <= 0)) {
			rc = km_err(-EINVAL, "%s: [cache] %s: %g is not 0 or 1 (1 needs an L2)",
				    p->file, cache_opt_keys[i], a);
			goto out;
		}
		*(i == 0 ? &p->l1_wa : &p->l2_wa) = a != 0;
	}
	if ((rc = read_group(p, kf, "bandwidth", bw_keys, v)))
		goto out;
	for (int i = 0; i < 2; i++)
		if (v[i] <= 0) {
			rc = km_err(-EINVAL, "%s: [bandwidth] %s: must be above 0", p->file, bw_keys[i]);
			goto out;
		}
	p->copy_l1 = p->copy_word_l1 = v[0];
	p->set_l1 = p->set_word_l1 = v[1];
	for (int i = 0; bw_opt_keys[i]; i++) {
		double *f = i == 0 ? &p->copy_word_l1 : &p->set_word_l1;

		if (!g_key_file_has_key(kf, "bandwidth", bw_opt_keys[i], NULL))
			continue;
		if ((rc = read_key(p, kf, "bandwidth", bw_opt_keys[i], f)))
			goto out;
		if (*f <= 0) {
			rc = km_err(-EINVAL, "%s: [bandwidth] %s: must be above 0", p->file,
				    bw_opt_keys[i]);
			goto out;
		}
	}
	if ((rc = read_group(p, kf, "memory", mem_keys, v)))
		goto out;
	p->read_l2 = v[0];
	p->read_mem = v[1];
	p->write_mem = v[2];
	for (int i = 0; mem_opt_keys[i]; i++)
		if (g_key_file_has_key(kf, "memory", mem_opt_keys[i], NULL) &&
		    (rc = read_key(p, kf, "memory", mem_opt_keys[i],
				   i == 0 ? &p->write_txn : &p->l2_write_txn)))
			goto out;
	if (p->write_txn > p->write_mem) {
		rc = km_err(-EINVAL, "%s: [memory] write_txn_cycles: %g is above write_mem_cycles "
			    "(a line's write is one transaction at most)", p->file, p->write_txn);
		goto out;
	}
	/* the write buffer: without the group, 0.4.0's pricing -- stores to
	 * lines that miss L1 drain whole lines (entry_bytes = line, merged) */
	p->wb_entries = 1;
	p->wb_entry_bytes = p->line;
	p->wb_merge = true;
	if (g_key_file_has_group(kf, "write_buffer")) {
		if ((rc = read_group(p, kf, "write_buffer", wb_keys, v)))
			goto out;
		if (v[0] < 1 || v[1] < 4 || v[1] > p->line || (v[2] != 0 && v[2] != 1)) {
			rc = km_err(-EINVAL, "%s: [write_buffer]: entries >= 1, entry_bytes 4 .. "
				    "line_bytes, merge 0 or 1", p->file);
			goto out;
		}
		p->wb_entries = v[0];
		p->wb_entry_bytes = v[1];
		p->wb_merge = v[2] != 0;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(cost_events); i++)
		if ((rc = read_key(p, kf, "cycles", cost_events[i].name, &p->extra[i])))
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

bool km_cost_profile_uncertainty(const struct km_cost_profile *p, unsigned int i,
				 const char **group, const char **key, char *kind, double *lo,
				 double *hi)
{
	const struct unc *u;

	if (!p || i >= p->unc->len)
		return false;
	u = &g_array_index(p->unc, struct unc, i);
	if (group)
		*group = u->group;
	if (key)
		*key = u->key;
	if (kind)
		*kind = u->kind;
	if (lo)
		*lo = u->lo;
	if (hi)
		*hi = u->hi;
	return true;
}

bool km_cost_profile_part(const struct km_cost_profile *p, unsigned int i, const char **event,
			  const char **function, double *instructions)
{
	const struct part *q;

	if (!p || !p->parts || i >= p->parts->len)
		return false;
	q = &g_array_index(p->parts, struct part, i);
	if (event)
		*event = cost_events[q->ev].name;
	if (function)
		*function = strchr(strrchr(q->hkey, '/') + 1, '.') + 1;
	if (instructions)
		*instructions = *(const double *)g_hash_table_lookup(p->values, q->hkey);
	return true;
}

/*
 * Event @i's cycles, one event: its path's instructions at the profile's
 * rates and its [cycles] value. With c_cycles_per_instruction, the
 * "drain" part at cycles_per_instruction (the rate lmbench's null
 * syscall gives: entry and return included) and every other instruction
 * at the straight-line C rate; without it, all at cycles_per_instruction.
 */
static double event_cycles(const struct km_cost_profile *p, size_t i)
{
	double c = p->has_c_cpi ? p->c_cpi : p->cpi;

	return p->exc[i] * p->cpi + (p->instr[i] - p->exc[i]) * c + p->extra[i];
}

double km_cost_profile_part_rate(const struct km_cost_profile *p, const char *function)
{
	if (!p)
		return 0;
	return p->has_c_cpi && function && strcmp(function, DRAIN_PART) ? p->c_cpi : p->cpi;
}

/* the field of @p that the value @group/@key sets, or NULL (a value
 * whose draw would change nothing priced: sizes of the write buffer) */
static double *value_field(struct km_cost_profile *p, const char *group, const char *key)
{
	static const struct {
		const char *group, *key;
		size_t off;
	} fields[] = {
#define F(g, k, f) { g, k, offsetof(struct km_cost_profile, f) }
		F("cpu", "clock_hz", clock_hz), F("kernel", "cycles_per_instruction", cpi),
		F("kernel", "c_cycles_per_instruction", c_cpi),
		F("cache", "l1_bytes", l1), F("cache", "l2_bytes", l2),
		F("bandwidth", "copy_l1", copy_l1), F("bandwidth", "set_l1", set_l1),
		F("bandwidth", "copy_word_l1", copy_word_l1),
		F("bandwidth", "set_word_l1", set_word_l1),
		F("memory", "read_l2_cycles", read_l2), F("memory", "read_mem_cycles", read_mem),
		F("memory", "write_mem_cycles", write_mem),
		F("memory", "write_txn_cycles", write_txn),
		F("memory", "l2_write_txn_cycles", l2_write_txn),
		F("slab_debug", "alloc_cycles_per_byte", alloc_cpb),
		F("slab_debug", "free_cycles_per_byte", free_cpb),
		F("slab_debug", "skb_head_bytes", skb_head_bytes),
		F("link", "usb_bytes_per_s", usb_bps),
#undef F
	};

	for (size_t i = 0; i < G_N_ELEMENTS(fields); i++)
		if (!strcmp(fields[i].group, group) && !strcmp(fields[i].key, key))
			return (double *)((char *)p + fields[i].off);
	for (size_t i = 0; i < G_N_ELEMENTS(cost_events); i++)
		if (!strcmp(cost_events[i].name, key))	/* [cycles], or the paths table's group */
			return !strcmp(group, "cycles") ? &p->extra[i] : &p->instr[i];
	return NULL;
}

int km_cost_profile_sample(const struct km_cost_profile *p, uint64_t seed,
			   struct km_cost_profile **out)
{
	struct km_cost_profile *s;
	GHashTableIter it;
	gpointer k, v;
	GRand *r;
	guint32 sd[2] = { (guint32)seed, (guint32)(seed >> 32) };

	if (!p || !out)
		return km_err(-EINVAL, "km_cost_profile_sample: NULL argument");
	s = g_memdup2(p, sizeof(*p));
	s->name = g_strdup(p->name);
	s->summary = g_strdup(p->summary);
	s->file = g_strdup(p->file);
	s->paths_file = g_strdup(p->paths_file);
	s->kernel = g_strdup(p->kernel);
	s->values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_hash_table_iter_init(&it, p->values);
	while (g_hash_table_iter_next(&it, &k, &v))
		g_hash_table_insert(s->values, g_strdup(k), g_memdup2(v, sizeof(double)));
	s->calibrated = g_array_new(FALSE, TRUE, sizeof(struct calib));
	for (guint i = 0; i < p->calibrated->len; i++) {
		const struct calib *c = &g_array_index(p->calibrated, struct calib, i);
		struct calib d = { g_strdup(c->group), g_strdup(c->key), g_strdup(c->figure) };

		g_array_append_val(s->calibrated, d);
	}
	s->unc = g_array_new(FALSE, TRUE, sizeof(struct unc));
	s->parts = g_array_new(FALSE, TRUE, sizeof(struct part));
	for (guint i = 0; i < p->parts->len; i++) {
		const struct part *q = &g_array_index(p->parts, struct part, i);

		g_array_append_val(s->parts, ((struct part){ q->ev, g_strdup(q->hkey) }));
	}
	/* seed 0: the stated values; else each uncertain value drawn
	 * uniformly from its range, in the list's order (GLib's Mersenne
	 * Twister: the same draws on every host) */
	r = g_rand_new_with_seed_array(sd, 2);
	for (guint i = 0; i < p->unc->len; i++) {
		const struct unc *u = &g_array_index(p->unc, struct unc, i);
		struct unc d = *u;
		double x = g_rand_double_range(r, u->lo, u->hi), *f;
		gchar *hk;

		d.group = g_strdup(u->group);
		d.key = g_strdup(u->key);
		g_array_append_val(s->unc, d);
		if (seed && strcmp(u->group, "cycles") && part_event(u->key) >= 0) {
			/* a part of a path: summed into its event below */
			g_hash_table_insert(s->values, g_strdup_printf("%s/%s", u->group, u->key),
					    g_memdup2(&x, sizeof(x)));
			continue;
		}
		if (!seed || !(f = value_field(s, u->group, u->key)))
			continue;
		*f = x;
		hk = g_strdup_printf("%s/%s", is_event(u->key) && strcmp(u->group, "cycles")
						      ? "instructions" : u->group, u->key);
		g_hash_table_insert(s->values, hk, g_memdup2(&x, sizeof(x)));
	}
	g_rand_free(r);
	/* an event given by parts costs the sum of its parts' draws */
	for (size_t i = 0; seed && i < G_N_ELEMENTS(cost_events); i++) {
		double n = 0, x = 0;
		bool parted = false;

		for (guint j = 0; j < s->parts->len; j++) {
			const struct part *q = &g_array_index(s->parts, struct part, j);
			double v;

			if (q->ev != i)
				continue;
			v = *(const double *)g_hash_table_lookup(s->values, q->hkey);
			n += v;
			if (!strcmp(strchr(strrchr(q->hkey, '/') + 1, '.') + 1, DRAIN_PART))
				x += v;
			parted = true;
		}
		if (!parted)
			continue;
		s->instr[i] = n;
		s->exc[i] = x;
		g_hash_table_insert(s->values, g_strdup_printf("instructions/%s", cost_events[i].name),
				    g_memdup2(&n, sizeof(n)));
	}
	*out = s;
	return 0;
}

int km_cost_profiles_check_calibrated(const struct km_cost_profile *const *profiles, size_t n,
				      unsigned int max)
{
	GString *list = g_string_new(NULL);
	GPtrArray *seen = g_ptr_array_new();
	unsigned int count = 0;
	int rc = 0;

	for (size_t i = 0; profiles && i < n; i++) {
		const struct km_cost_profile *p = profiles[i];
		bool dup = false;

		if (!p)
			continue;
		/* a profile given twice (one file) counts once */
		for (guint j = 0; j < seen->len; j++)
			dup |= !strcmp(((const struct km_cost_profile *)seen->pdata[j])->file, p->file);
		if (dup)
			continue;
		g_ptr_array_add(seen, (gpointer)p);
		for (guint j = 0; j < p->calibrated->len; j++) {
			const struct calib *c = &g_array_index(p->calibrated, struct calib, j);

			g_string_append_printf(list, "%s%s [%s] %s (%s)", count ? "; " : "", p->name,
					       c->group, c->key, c->figure);
			count++;
		}
	}
	if (count > max)
		rc = km_err(-EINVAL, "%u calibrated values in the profiles, at most %u allowed: %s",
			    count, max, list->str);
	g_string_free(list, TRUE);
	g_ptr_array_free(seen, TRUE);
	return rc ? rc : (int)count;
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

/*
 * The store side (issue 22). A routine stores @width bytes an instruction
 * (copy_template.S's stm of 8 registers 32, memset.S's stm of 4 16, the
 * one-word loops 4) at @cpu cycles a byte with its lines in L1. Of its
 * lines a fraction @m1 is not in L1 when stored, @m2 not in L2 (m2 <= m1;
 * without an L2 the lines not in L1 are in DRAM: m2 = m1). Cycles a byte:
 * - an L1 that allocates on writes fills each missed line first (the
 *   store waits for the fill: from L2 or DRAM) and writes it back whole
 *   when evicted (DRAM's write_mem a line, behind the loop);
 * - one that does not (ARM9E/Feroceon, the Cortex-A8's L1) hands each
 *   store to the write buffer, which takes a transaction of the store's
 *   bytes -- of up to an entry's bytes when it merges consecutive stores
 *   ([write_buffer] merge) -- to L2 (l2_write_txn_cycles each; an L2 that
 *   allocates on writes sends DRAM whole lines later) or, for a line no
 *   cache holds, to DRAM: its fixed write_txn_cycles plus the transfer of
 *   its bytes at the line's rate, (write_mem - write_txn) x bytes / line.
 * The write buffer lets the core run on while it drains (ARM TRMs: "the
 * data is placed in the write buffer and the CPU continues execution"):
 * a stream costs the slower of the core's loop and the drain. Its depth
 * only hides a short burst, which these steady streams are not.
 */
static double store_cpb(const struct km_cost_profile *p, double width, double cpu, double m1,
			double m2)
{
	double line = p->line, txn, dram_txn;

	if (p->l2 <= 0)
		m2 = m1;
	if (p->l1_wa) {
		double fill = (m1 - m2) * p->read_l2 + m2 * p->read_mem;

		return fill / line + MAX(cpu, m2 * p->write_mem / line);
	}
	txn = p->wb_merge ? MAX(width, MIN(p->wb_entry_bytes, line)) : width;
	/* a draw may put the fixed part above the whole line's: at most it */
	dram_txn = MIN(p->write_txn, p->write_mem);
	dram_txn += (p->write_mem - dram_txn) * txn / line;
	if (p->l2 > 0 && p->l2_wa)
		return MAX(cpu, m1 * p->l2_write_txn / txn + m2 * p->write_mem / line);
	if (p->l2 > 0)
		return MAX(cpu, (m1 - m2) * p->l2_write_txn / txn + m2 * dram_txn / txn);
	return MAX(cpu, m1 * dram_txn / txn);
}

/* copy_to_user.S's stores on @p's kernel (struct km_events
 * uaccess_asm_to_bytes): one strt a word with CPU_USE_DOMAINS, one str a
 * word without it before v5.0, an 8-register stm from f441882a5229
 * ("ARM: 8812/1: Optimise copy_{from/to}_user for !CPU_USE_DOMAINS",
 * v5.0) on -- bytes a store */
static double asm_copy_width(const struct km_cost_profile *p)
{
	return !p->use_domains && p->kmajor >= 5 ? 32 : 4;
}

int km_cost_predict_sized(const struct km_cost_profile *p, const struct km_events *ev,
			  size_t ev_size, const struct km_cost_workload *caller_w, size_t w_size,
			  struct km_cost_result *caller_out, size_t out_size)
{
	struct km_events e = { 0 };
	struct km_cost_workload wl = { 0 }, *w = &wl;
	struct km_cost_result res = { 0 }, *out = &res;
	double to, from, clear, copy_other, set_other, set_warm, to_asm, from_asm, clear_asm;
	double c_copy, c_set, c_word_copy, c_word_set, c_asm_copy, r_l2, r_mem;

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

		add_item(out, cost_events[i].name, n, n * event_cycles(p, i));
	}
	/* per byte, in cycles: the core's loops with their lines in L1 */
	c_copy = 1 / p->copy_l1;
	c_set = 1 / p->set_l1;
	c_word_copy = 1 / p->copy_word_l1;
	c_word_set = 1 / p->set_word_l1;
	c_asm_copy = asm_copy_width(p) < 32 ? c_word_copy : c_copy;
	r_l2 = p->read_l2 / p->line;
	r_mem = p->read_mem / p->line;
	to = (double)e.uaccess_to_bytes;
	from = (double)e.uaccess_from_bytes;
	clear = (double)MIN(e.uaccess_clear_bytes, e.clear_bytes);
	/* of those, the bytes the assembler routines moved (copy_to_user.S,
	 * copy_from_user.S, clear_user.S); the rest went through memcpy()
	 * and memset() (a variant that kmaps or walks the page table) */
	to_asm = MIN((double)e.uaccess_asm_to_bytes, to);
	from_asm = MIN((double)e.uaccess_asm_from_bytes, from);
	clear_asm = MIN((double)e.uaccess_asm_clear_bytes, clear);
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
	if (w->working_set && (to > 0 || from > 0 || clear > 0)) {
		/* per reuse of the W bytes: copy_to_user streams W bytes in
		 * (L1 and L2), copy_from_user W bytes out (L2 only, when it
		 * allocates on writes), in the ratio the directions were
		 * counted */
		double W = (double)w->working_set / p->line, big = MAX(MAX(to, from), clear);
		double m1 = miss_fraction(W, W * to / big, p->l1 / p->line);
		double m2 = p->l2 > 0 ? MIN(m1, miss_fraction(W, W * (to + (p->l2_wa ? from : 0)) / big,
							    p->l2 / p->line))
				      : m1;
		/* the user buffer's lines as the stores find them: a cache
		 * that allocates only on reads holds them only when
		 * copy_from_user reads the buffer back (dd between files; not
		 * dd to /dev/null) */
		double s1 = p->l1_wa || from > 0 ? m1 : 1;
		double s2 = p->l2 <= 0 ? s1 : p->l2_wa || from > 0 ? m2 : 1;

		/* copy_to_user: a page-cache line streams in from DRAM (the
		 * load stalls the loop), the stores go to the user buffer */
		add_item(out, "copy to user bytes", to,
			 to * r_mem +
			 to_asm * store_cpb(p, asm_copy_width(p), c_asm_copy, s1, s2) +
			 (to - to_asm) * store_cpb(p, 32, c_copy, s1, s2));
		/* copy_from_user: the user buffer's lines where the copies to
		 * it left them; the page-cache lines stored stream to DRAM
		 * (copy_template.S's stm in either routine) */
		add_item(out, "copy from user bytes", from,
			 from * ((m1 - m2) * r_l2 + m2 * r_mem) +
			 from_asm * store_cpb(p, 32, c_asm_copy, 1, 1) +
			 (from - from_asm) * store_cpb(p, 32, c_copy, 1, 1));
		add_item(out, "clear user bytes", clear,
			 clear_asm * store_cpb(p, 4, c_word_set, s1, s2) +
			 (clear - clear_asm) * store_cpb(p, 16, c_set, s1, s2));
		add_item(out, "set bytes", set_other, set_other * store_cpb(p, 16, c_set, 1, 1));
		add_item(out, "warm set bytes", set_warm, set_warm * c_set);
	} else {
		add_item(out, "copy to user bytes", to, to_asm * c_asm_copy + (to - to_asm) * c_copy);
		add_item(out, "copy from user bytes", from,
			 from_asm * c_asm_copy + (from - from_asm) * c_copy);
		add_item(out, "clear user bytes", clear,
			 clear_asm * c_word_set + (clear - clear_asm) * c_set);
		add_item(out, "set bytes", set_other, set_other * c_set);
		add_item(out, "warm set bytes", set_warm, set_warm * c_set);
	}
	add_item(out, "copy bytes", copy_other, copy_other * c_copy);
	if (p->slab_debug) {
		/* the objects as the target has them (32-bit ARM buckets).
		 * A clone's head: skb_clone() of a fast-clone original takes
		 * its companion, which came with the original as one
		 * skbuff_fclone_cache object of two heads and fclone_ref
		 * (v3.5 net/core/skbuff.c skb_init(), alloc_skb_fclone()),
		 * checked and refilled whole at the original's allocation
		 * and poisoned whole when the second of the two is freed
		 * (kfree_skbmem()); another clone allocates its head from
		 * skbuff_head_cache. Either way a clone adds a head and
		 * fclone_ref's 4 bytes to the allocated bytes, and 4 to the
		 * freed (its head's free is among skb_frees) */
		double a = (double)e.kmalloc_arm_bytes + (double)e.skb_allocs * p->skb_head_bytes +
			   (double)e.skb_clones * (p->skb_head_bytes + KM_FCLONE_REF_BYTES);
		double f = (double)e.kfree_arm_bytes + (double)e.skb_frees * p->skb_head_bytes +
			   (double)e.skb_clones * KM_FCLONE_REF_BYTES;

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
