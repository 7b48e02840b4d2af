// SPDX-License-Identifier: GPL-2.0
/* Errors, BUG/WARN reports and event counters of a km_machine. */
#include "internal.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * km_last_error()'s text, one per thread (an errno-like value: a plugin's
 * load fails before any machine exists). On the heap, grown to fit: an
 * error may name three long paths (a self-loading plugin's). Not a TLS
 * array: a libkmodel.so dlopen()ed by a static program gets its TLS from
 * glibc's small static TLS surplus. A pthread key, not a GPrivate: a copy
 * of the library that is dlclose()d deletes its key and frees its text.
 */
struct err_text {
	size_t size;
	char text[];
};

static pthread_key_t err_key;
static pthread_once_t err_once = PTHREAD_ONCE_INIT;
static bool err_key_ok;

static void err_key_create(void)
{
	err_key_ok = pthread_key_create(&err_key, free) == 0;
}

static struct err_text *err_get(void)
{
	pthread_once(&err_once, err_key_create);
	return err_key_ok ? pthread_getspecific(err_key) : NULL;
}

static void __attribute__((destructor)) err_key_delete(void)
{
	if (err_key_ok) {
		free(pthread_getspecific(err_key));
		pthread_key_delete(err_key);
		err_key_ok = false;	/* a later destructor's error is dropped */
	}
}

static void set_error(const char *fmt, va_list ap)
{
	struct err_text *e = err_get(), *grown;
	size_t size;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = e ? vsnprintf(e->text, e->size, fmt, aq) : vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (e && (n < 0 || (size_t)n < e->size)) {
		g_debug("%s", e->text);
		return;
	}
	/* a new buffer, formatted before the old one goes: an argument may
	 * point into the old one */
	size = MAX(n < 0 ? 0 : (size_t)n + 1, 256);
	grown = malloc(sizeof(*grown) + size);
	if (!err_key_ok || !grown || pthread_setspecific(err_key, grown)) {
		free(grown);	/* the old text stays, cut */
		return;
	}
	grown->size = size;
	vsnprintf(grown->text, size, fmt, ap);
	free(e);
	g_debug("%s", grown->text);
}

void km_set_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_error(fmt, ap);
	va_end(ap);
}

int km_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_error(fmt, ap);
	va_end(ap);
	return err;
}

const char *km_last_error(void)
{
	struct err_text *e = err_get();

	return e ? e->text : "";
}

static const char *const code_names[KM_R__COUNT] = {
	[KM_R_NONE] = "none",
	[KM_R_KMAP_OVERFLOW] = "kmap_overflow",
	[KM_R_KMAP_ORDER] = "kmap_order",
	[KM_R_KMAP_UNBALANCED] = "kmap_unbalanced",
	[KM_R_ATOMIC_UNBALANCED] = "atomic_unbalanced",
	[KM_R_PAGE_REFCOUNT] = "page_refcount",
	[KM_R_BAD_PAGE] = "bad_page",
	[KM_R_SLEEP_IN_ATOMIC] = "sleep_in_atomic",
	[KM_R_BAD_KFREE] = "bad_kfree",
	[KM_R_COPY_SIZE] = "copy_size",
	[KM_R_UNEXPECTED] = "unexpected",
	[KM_R_LEAK_PAGE] = "leak_page",
	[KM_R_LEAK_KMAP] = "leak_kmap",
	[KM_R_LEAK_ATOMIC] = "leak_atomic",
	[KM_R_LEAK_KMALLOC] = "leak_kmalloc",
	[KM_R_LEAK_MM] = "leak_mm",
	[KM_R_SKB_UNDER] = "skb_under_panic",
	[KM_R_SKB_OVER] = "skb_over_panic",
	[KM_R_SKB_SHARING] = "skb_sharing",
	[KM_R_SKB_REFCOUNT] = "skb_refcount",
	[KM_R_LEAK_SKB] = "leak_skb",
	[KM_R_USB_NO_ZLP] = "usb_no_zlp",
	[KM_R_USB_PROTOCOL] = "usb_protocol",
	[KM_R_INATOMIC_FAULT] = "inatomic_fault",
	[KM_R_SKB_WRITE_CLONED] = "skb_write_cloned",
	[KM_R_SKB_WRITE_SHARED] = "skb_write_shared",
	[KM_R_SKB_WRITE_OUTSIDE] = "skb_write_outside",
	[KM_R_SKB_CHANGE_SHARED] = "skb_change_shared",
	[KM_R_SKB_EXPAND_SHARED] = "skb_expand_shared",
	[KM_R_SKB_HDR_RELEASED] = "skb_header_released",
	[KM_R_SKB_INVALID] = "skb_invalid",
	[KM_R_USB_MAXPACKET] = "usb_maxpacket",
	[KM_R_USB_FRAME_DROPPED] = "usb_frame_dropped",
	[KM_R_LOCK] = "lock",
	[KM_R_ALLOC_TOO_LARGE] = "alloc_too_large",
	[KM_R_WARN_ON] = "warn_on",
	[KM_R_BUG_ON] = "bug_on",
	[KM_R_KMAP_CLOBBER] = "kmap_clobber",
	[KM_R_KMAP_GUARD] = "kmap_guard",
	[KM_R_KMAP_UNMAPPED] = "kmap_unmapped",
	[KM_R_LIVELOCK] = "livelock",
	[KM_R_DIV0] = "div0",
	[KM_R_KMAP_ERA] = "kmap_era",
	[KM_R_ZERO_PAGE] = "zero_page",
	[KM_R_SKB_STORE_SHARED] = "skb_store_shared",
	[KM_R_PIN_NOT_DIRTIED] = "pin_not_dirtied",
	[KM_R_RX_READ_PAST] = "rx_read_past_urb",
	[KM_R_RX_NO_PROGRESS] = "rx_no_progress",
	[KM_R_RX_CSUM_UNVERIFIED] = "rx_csum_unverified",
	[KM_R_TX_CSUM_FEATURE] = "tx_csum_feature",
};

const char *km_report_code_name(enum km_report_code code)
{
	if ((unsigned int)code >= KM_R__COUNT || !code_names[code])
		return "invalid";
	return code_names[code];
}

void km_report(struct km_machine *m, enum km_report_kind kind,
	       enum km_report_code code, const char *fmt, ...)
{
	struct km_report r = { .kind = kind, .code = code };
	bool abort_now;
	va_list ap;

	if (!m) {
		km_set_error("km_report: machine is NULL");
		return;
	}
	abort_now = kind == KM_BUG && m->cfg.report_policy == KM_REPORT_ABORT_ON_BUG;

	if ((unsigned int)code >= KM_R__COUNT)
		code = r.code = KM_R_UNEXPECTED;
	km_report_tally(m, code);
	/* past the log's capacity only the counters move: a hot path that
	 * keeps hitting a BUG stays cheap (the kernel rate-limits too) */
	if (m->report_log_full && !abort_now)
		return;
	va_start(ap, fmt);
	vsnprintf(r.message, sizeof(r.message), fmt, ap);
	va_end(ap);
	/* raised inside a layer shim: the ported code's line that called it
	 * (km_task_set_caller()), kept whole at the message's end */
	if (km_current_task && km_current_task->m == m && km_current_task->caller_file) {
		const char *file = km_current_task->caller_file;
		char at[96];
		int n;

		if (strlen(file) > 64)	/* a long absolute path: its end */
			file += strlen(file) - 64;
		n = snprintf(at, sizeof(at), " [called at %s:%d]", file,
			     km_current_task->caller_line);
		if (n > 0 && (size_t)n < sizeof(r.message)) {
			size_t len = MIN(strlen(r.message), sizeof(r.message) - 1 - (size_t)n);

			memcpy(r.message + len, at, (size_t)n + 1);
		}
	}
	if (m->report_log_len < m->report_log_max) {
		struct km_report **chunk = &m->report_chunk[m->report_log_len / KM_REPORT_CHUNK];

		if (!*chunk)
			*chunk = g_new(struct km_report, KM_REPORT_CHUNK);
		(*chunk)[m->report_log_len++ % KM_REPORT_CHUNK] = r;
	}
	m->report_log_full = m->report_log_len >= m->report_log_max;
	if (!g_log_writer_default_would_drop(G_LOG_LEVEL_DEBUG, G_LOG_DOMAIN))
		g_debug("%s: %s: %s", kind == KM_BUG ? "BUG" : "WARNING",
			km_report_code_name(code), r.message);
	if (abort_now) {
		fprintf(stderr, "kmodel: BUG: %s: %s\n", km_report_code_name(code), r.message);
		abort();
	}
}

unsigned long km_report_count(const struct km_machine *m, enum km_report_code code)
{
	if (!m || (unsigned int)code >= KM_R__COUNT)
		return 0;
	return m->report_counts[code];
}

size_t km_report_log_len(const struct km_machine *m)
{
	return m ? m->report_log_len : 0;
}

const struct km_report *km_report_get(const struct km_machine *m, size_t i)
{
	if (!m || i >= m->report_log_len)
		return NULL;
	return &m->report_chunk[i / KM_REPORT_CHUNK][i % KM_REPORT_CHUNK];
}

void km_report_log_fini(struct km_machine *m)
{
	for (size_t c = 0; c < G_N_ELEMENTS(m->report_chunk); c++)
		g_free(m->report_chunk[c]);
}

void km_reports_set_log_max(struct km_machine *m, unsigned int max)
{
	if (!m)
		return;
	m->report_log_max = MIN(max, (unsigned int)KM_REPORT_LOG_MAX);
	m->report_log_len = MIN(m->report_log_len, (size_t)m->report_log_max);
	m->report_log_full = m->report_log_len >= m->report_log_max;
}

void km_reports_clear(struct km_machine *m)
{
	if (!m)
		return;
	m->report_log_len = 0;
	m->report_log_full = m->report_log_max == 0;
	memset(m->report_counts, 0, sizeof(m->report_counts));
}

void km_events_get_sized(const struct km_machine *m, struct km_events *out, size_t size)
{
	struct km_events ev;
	const struct km_path_events *p;
	size_t have = MIN(size, sizeof(ev));

	if (!out)
		return;
	if (!m) {
		memset(out, 0, size);
		return;
	}
	/* the public counters: each plus the path counters standing for it */
	ev = m->ev;
	p = &m->path_ev;
	ev.pagecache_lookups += p->shmem_read_page + p->shmem_write_begin;
	ev.get_page_calls += p->shmem_read_page + p->shmem_write_begin + p->gup_fast_page +
			     p->gup_slow_page;
	ev.put_page_calls += p->shmem_read_page;
	ev.pt_walks += p->gup_fast_page + p->gup_slow_page;
	ev.memcpy_calls += p->direct_copy;
	ev.memset_calls += p->direct_clear;
	ev.uaccess_range_masks += p->direct_copy;
	if (!m->cfg.fast_gup)	/* CPU_SW_DOMAIN_PAN depends on !ARM_LPAE */
		ev.uaccess_pan_switches += p->direct_copy + p->direct_clear + p->fault_in_byte;
	ev.kmap_high += p->kmap_high_flush;
	ev.tlb_flushes += p->kmap_high_flush;
	ev.gup_fast_pages += p->gup_fast_page;
	ev.gup_slow_calls += p->gup_slow_call;
	ev.mmap_sem_locks += p->gup_slow_call;
	ev.find_vma_calls += p->gup_slow_call;
	ev.follow_page_calls += p->gup_slow_page;
	ev.gup_slow_pages += p->gup_slow_page;
	km_slab_events(p, &ev);
	/* the clock's counted bytes since the reset that no other counter
	 * holds (while counting is off: up to where it went off) */
	ev.memcpy_bytes = (m->counting_off ? m->traffic_off : m->traffic) - m->traffic_reset -
			  ev.clear_bytes - ev.memmove_bytes - ev.skb_copy_bytes;
	memcpy(out, &ev, have);
	if (size > have)
		memset((char *)out + have, 0, size - have);
}

void km_events_reset(struct km_machine *m)
{
	if (!m)
		return;
	m->traffic_reset = m->traffic;
	m->traffic_off = m->traffic;	/* while off: nothing counted since */
	memset(&m->ev, 0, sizeof(m->ev));
	memset(&m->path_ev, 0, sizeof(m->path_ev));
}

void km_events_set_counting(struct km_machine *m, bool on)
{
	if (!m || m->counting_off == !on)
		return;
	/* the clock runs on; memcpy_bytes leaves out what it advanced while
	 * off, as the other counters do */
	if (on)
		m->traffic_reset += m->traffic - m->traffic_off;
	else
		m->traffic_off = m->traffic;
	m->counting_off = !on;
}

bool km_events_counting(const struct km_machine *m)
{
	return m && !m->counting_off;
}
