/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/current.h - the calling host thread's `current` task, and the two
 * model hooks the compatibility layer (include/kmodel/kernel/) builds on.
 *
 * Ported kernel code reads `current` on nearly every call, as the kernel
 * reads a register or a per-CPU variable: here it is a thread-local
 * pointer set by km_task_switch() (kmodel/machine.h), with the page shift
 * of its machine beside it so that PAGE_SIZE costs one load. Both are
 * exported from libkmodel (shared and static) with initial-exec TLS: the
 * library is linked, not dlopen()ed; a plugin loaded by the tools
 * (--load) resolves them against the tool's libkmodel.so.
 *
 * Most callers want km_current() and km_task_switch() of kmodel/machine.h;
 * the rest of this header is for the compatibility layer.
 */
#ifndef KMODEL_CURRENT_H
#define KMODEL_CURRENT_H

#include <kmodel/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

/** `current` of the calling host thread (NULL: none). Set it only through
 *  km_task_switch(), which keeps km_current_page_shift_v in step. */
KM_API extern _Thread_local struct km_task *km_current_task
	__attribute__((tls_model("initial-exec")));
/** PAGE_SHIFT of current's machine (0 with no current task). */
KM_API extern _Thread_local unsigned int km_current_page_shift_v
	__attribute__((tls_model("initial-exec")));

/**
 * km_shim_no_current() - a kernel-named shim was called with no current
 * task. There is no machine to record a report on, so this logs why with
 * g_error() and aborts the host process: ported code cannot run outside a
 * task (km_task_switch() first). Never returns.
 */
KM_API struct km_task *km_shim_no_current(void) __attribute__((noreturn));

/**
 * km_event_memcpy() - count @n bytes copied by modelled kernel code in the
 * memcpy_bytes event of current's machine (no-op with no current task),
 * and run the machine's km_fault_on_memcpy() hook if one is armed.
 * Kernel-style code that copies with its own memcpy calls it; the
 * compatibility layer's memcpy() is km_kernel_memcpy(), which does this.
 */
KM_API void km_event_memcpy(size_t n);

/**
 * km_kernel_memcpy() - memcpy() of modelled kernel code: counts the bytes
 * (memcpy_bytes), runs the km_fault_on_memcpy() hook, and between
 * km_uaccess_save_and_enable() and km_uaccess_restore() reaches user
 * memory the way a 3G/1G kernel does, through the user mapping: there a
 * pointer below TASK_SIZE that lies in a vma of current's mm, or that the
 * host has not mapped, is a user address; kernel buffers are host pointers
 * (above TASK_SIZE on a 64-bit PIE host; below it -- under valgrind, in a
 * non-PIE program -- the machine's RAM, a strict kmap window or any other
 * host mapping outside current's vmas), and a missing pte is faulted in by
 * handle_mm_fault() -- or, with
 * faulthandler_disabled(), is a KM_R_UNEXPECTED BUG ("unable to handle
 * kernel paging request": no exception-table entry covers memcpy) and
 * that page's bytes are skipped. On KM_VMSPLIT_4G4G the user mapping is
 * out of reach: a KM_R_UNEXPECTED BUG. With no current task: plain
 * memcpy(). Returns @to. km_kernel_memset() is the same for memset()
 * (clear_bytes).
 */
KM_API void *km_kernel_memcpy(void *to, const void *from, size_t n);
KM_API void *km_kernel_memset(void *s, int c, size_t n);
/**
 * km_uaccess_save_and_enable() - uaccess_save_and_enable() (ARM
 * CONFIG_CPU_SW_DOMAIN_PAN, v5.7) on current: opens the window in which
 * km_kernel_memcpy()/km_kernel_memset() reach user addresses. Returns the
 * flags for km_uaccess_restore(), which closes it again (windows nest).
 */
KM_API unsigned int km_uaccess_save_and_enable(void);
KM_API void km_uaccess_restore(unsigned int flags);

/**
 * km_printk() - printk() of modelled kernel code (the compatibility
 * layer's <linux/printk.h>): formats @fmt as printf() does and logs the
 * message with glib's g_log() in the "kmodel" domain, the domain of the
 * library's own messages, one message per call, its trailing newline
 * dropped. The level is @fmt's prefix, in either form the kernel has used:
 * KERN_SOH and a character (v3.6 and later) or "<N>" (v3.5), read from
 * the formatted text as v5.7's vprintk_store() does; several prefixes may
 * follow each other, the first level counts. '0'..'4' (emerg,
 * alert, crit, err, warning) log G_LOG_LEVEL_WARNING, '5' (notice)
 * G_LOG_LEVEL_MESSAGE, '6' (info) G_LOG_LEVEL_INFO and '7' (debug)
 * G_LOG_LEVEL_DEBUG: glib's default handler prints levels 0..5 on stderr
 * and info and debug only with G_MESSAGES_DEBUG=kmodel (or all). No level,
 * 'd' (KERN_DEFAULT) and 'c' (KERN_CONT) take MESSAGE_LOGLEVEL_DEFAULT, 4
 * (v5.7's default): a continuation is a message of its own, not appended
 * to the previous line (that would be state shared by all machines).
 * Needs no current task. Returns the length of the message without its
 * level prefix and trailing newline (v5.7's vprintk_store() returns that),
 * or a negative errno if it cannot be formatted (-EINVAL).
 */
KM_API int km_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * km_printk_set_quiet() - drop (@quiet) or log (the default) the printk()
 * messages of code running on @m's tasks: a harness that feeds a driver
 * millions of malformed transfers (kmodel-sweep rx, the rx fuzzer) keeps
 * its "Bad RX Length" lines off stderr. A dropped message is not formatted
 * and km_printk() returns 0. NULL @m: nothing (km_last_error()).
 */
KM_API void km_printk_set_quiet(struct km_machine *m, bool quiet);

/**
 * km_task_set_caller() - the call site (@file, @line) of the layer shim
 * that @t runs now, in the ported code: a report raised on @t's machine
 * while @t is `current` ends with "[called at FILE:LINE]", so a BUG inside
 * copy_from_user() names the line that called it, not the shim's header.
 * NULL @file clears it. The layer's shims set it around their body when
 * none is set (the outermost call site wins). km_task_caller() returns it
 * (NULL when none) and its line in *@line.
 */
KM_API void km_task_set_caller(struct km_task *t, const char *file, int line);
KM_API const char *km_task_caller(const struct km_task *t, int *line);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_CURRENT_H */
