// SPDX-License-Identifier: GPL-2.0
/* `current` of the calling host thread, and the model hooks of the
 * compatibility layer (kmodel/current.h). */
#include "internal.h"

_Thread_local struct km_task *km_current_task;
_Thread_local unsigned int km_current_page_shift_v;

struct km_task *km_task_switch(struct km_task *t)
{
	struct km_task *prev = km_current_task;

	km_current_task = t;
	km_current_page_shift_v = t ? t->m->page_shift : 0;
	return prev;
}

struct km_task *km_current(void)
{
	return km_current_task;
}

struct km_task *km_shim_no_current(void)
{
	g_error("kmodel: kernel-named shim used with no current task (km_task_switch())");
}

void km_syscall(struct km_task *t)
{
	if (t)
		KM_EV_INC(t->m, syscalls);
}

/* the names of struct km_events' counters, in order (kmodel/machine.h) */
static const char *const event_names[] = {
	"gup_calls", "gup_fast_pages", "gup_slow_pages", "put_page_calls", "pt_walks",
	"page_faults", "cow_breaks", "pages_allocated", "pages_freed", "kmap_high", "kmap_low",
	"tlb_flushes", "kmalloc_calls", "kmalloc_bytes", "kfree_calls", "kfree_bytes",
	"memcpy_bytes", "clear_bytes", "memmove_bytes", "skb_allocs", "skb_clones", "skb_copies",
	"skb_copy_bytes", "skb_frees", "urbs", "usb_packets", "usb_bytes", "mmap_sem_locks",
	"syscalls", "pagecache_lookups", "pagecache_allocs", "uaccess_from_bytes",
	"uaccess_to_bytes", "uaccess_clear_bytes", "memcpy_calls", "memset_calls",
	"memmove_calls", "gup_slow_calls", "find_vma_calls", "follow_page_calls",
	"get_page_calls", "kunmap_high", "kunmap_low", "usb_zlps", "eth_frames", "eth_bytes",
	"kmalloc_class_0", "kmalloc_class_1", "kmalloc_class_2", "kmalloc_class_3",
	"kmalloc_class_4", "kmalloc_class_5", "kmalloc_class_6", "kmalloc_class_7",
	"kmalloc_class_8", "kmalloc_class_9", "kmalloc_class_10", "kmalloc_class_11",
	"kmalloc_class_12", "kmalloc_class_13", "kmalloc_class_14", "kmalloc_class_15",
	"spin_locks", "pt_walks_sw", "urb_allocs", "usb_in_packets", "usb_in_bytes", "usb_in_zlps",
	"eth_rx_frames", "eth_rx_bytes",
	"kfree_class_0", "kfree_class_1", "kfree_class_2", "kfree_class_3",
	"kfree_class_4", "kfree_class_5", "kfree_class_6", "kfree_class_7",
	"kfree_class_8", "kfree_class_9", "kfree_class_10", "kfree_class_11",
	"kfree_class_12", "kfree_class_13", "kfree_class_14", "kfree_class_15",
	"kmalloc_arm_bytes", "kfree_arm_bytes", "clear_slab_warm_bytes", "clear_refilled_bytes",
	"uaccess_pan_switches", "uaccess_range_masks", "uaccess_asm_to_bytes",
	"uaccess_asm_from_bytes", "uaccess_asm_clear_bytes", "gup_kmap_calls", "gup_kmap_pages",
};
_Static_assert(G_N_ELEMENTS(event_names) == KM_EVENTS_NFIELDS,
	       "a name for every counter of struct km_events");
_Static_assert(offsetof(struct km_events, eth_bytes) == 45 * sizeof(uint64_t),
	       "the names follow the members' order");

const char *km_events_field_name(size_t i)
{
	return i < G_N_ELEMENTS(event_names) ? event_names[i] : NULL;
}

/* printk_get_level() (include/linux/printk.h, v5.7) for either prefix form:
 * KERN_SOH "N" (v3.6 on) or "<N>" (v3.5), 'd' as v3.5's KERN_DEFAULT; the
 * prefix's character, or 0 */
static char printk_get_level(const char *s, size_t *skip)
{
	char c;

	if (s[0] == '\001' && s[1])
		c = s[1], *skip = 2;
	else if (s[0] == '<' && s[1] && s[2] == '>')
		c = s[1], *skip = 3;
	else
		return 0;
	return (c >= '0' && c <= '7') || c == 'c' || c == 'd' ? c : 0;
}

int km_printk(const char *fmt, ...)
{
	static const GLogLevelFlags glib_level[8] = {
		G_LOG_LEVEL_WARNING, G_LOG_LEVEL_WARNING, G_LOG_LEVEL_WARNING,
		G_LOG_LEVEL_WARNING, G_LOG_LEVEL_WARNING, G_LOG_LEVEL_MESSAGE,
		G_LOG_LEVEL_INFO, G_LOG_LEVEL_DEBUG,
	};
	int level = -1;
	char *text, *msg, c;
	size_t skip;
	va_list ap;
	int len;

	if (!fmt)
		return -EINVAL;
	if (km_current() && km_current()->m->printk_quiet)
		return 0;
	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (!text)
		return -EINVAL;
	len = (int)strlen(text);
	/* as v5.7's vprintk_store(): the trailing newline, then the prefixes
	 * of the formatted text (the first level counts) */
	if (len && text[len - 1] == '\n')
		text[--len] = '\0';
	for (msg = text; (c = printk_get_level(msg, &skip)); msg += skip, len -= (int)skip)
		if (c >= '0' && c <= '7' && level < 0)
			level = c - '0';
	if (level < 0)
		level = 4;	/* MESSAGE_LOGLEVEL_DEFAULT */
	g_log(G_LOG_DOMAIN, glib_level[level], "%s", msg);
	g_free(text);
	return len;
}

void km_printk_set_quiet(struct km_machine *m, bool quiet)
{
	if (!m) {
		km_set_error("printk_set_quiet: NULL machine");
		return;
	}
	m->printk_quiet = quiet;
}

void km_task_set_caller(struct km_task *t, const char *file, int line)
{
	if (!t)
		return;
	t->caller_file = file;
	t->caller_line = file ? line : 0;
}

const char *km_task_caller(const struct km_task *t, int *line)
{
	if (line)
		*line = t ? t->caller_line : 0;
	return t ? t->caller_file : NULL;
}
