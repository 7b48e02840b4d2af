// SPDX-License-Identifier: GPL-2.0
/* kmodel-bench: timing, progress, size lists and event columns shared by
 * the scenarios and the front end (bench.h). */
#include "bench.h"
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

double kb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void kb_progress(const struct kb_out *out, const char *fmt, ...)
{
	va_list ap;

	if (out->opts->quiet || !isatty(STDERR_FILENO))
		return;
	va_start(ap, fmt);
	fputs("\r\033[K", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

gboolean kb_parse_sizes(const char *list, GArray *out, GError **err)
{
	gchar **parts = g_strsplit(list, ",", -1);
	gboolean ok = TRUE;

	if (!parts[0]) {
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "no sizes given");
		ok = FALSE;
	}

	for (gchar **p = parts; *p && ok; p++) {
		gchar *end;
		guint64 v = g_ascii_strtoull(g_strstrip(*p), &end, 10);

		if (*end == 'K' || *end == 'k')
			v <<= 10, end++;
		else if (*end == 'M' || *end == 'm')
			v <<= 20, end++;
		if (end == *p || *end || v == 0 || v > (64u << 20)) {
			g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				    "bad size \"%s\": want bytes with an optional K or M, 1 .. 64M", *p);
			ok = FALSE;
		} else {
			unsigned long s = (unsigned long)v;

			g_array_append_val(out, s);
		}
	}
	g_strfreev(parts);
	return ok;
}

void kb_json_events(JsonBuilder *b, const struct km_events *ev, double per)
{
#define EV(f) json_builder_set_member_name(b, #f), json_builder_add_double_value(b, (double)ev->f / per)
	json_builder_begin_object(b);
	EV(gup_calls); EV(gup_fast_pages); EV(gup_slow_pages); EV(put_page_calls);
	EV(pt_walks); EV(page_faults); EV(cow_breaks); EV(pages_allocated); EV(pages_freed);
	EV(kmap_high); EV(kmap_low); EV(tlb_flushes); EV(kmalloc_calls); EV(kmalloc_bytes);
	EV(kfree_calls); EV(kfree_bytes); EV(memcpy_bytes); EV(clear_bytes); EV(memmove_bytes);
	EV(skb_allocs); EV(skb_clones); EV(skb_copies); EV(skb_copy_bytes); EV(skb_frees);
	EV(urbs); EV(usb_packets); EV(usb_bytes);
	json_builder_end_object(b);
#undef EV
}
