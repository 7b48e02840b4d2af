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
 * memcpy_bytes event of current's machine (no-op with no current task).
 * The compatibility layer's memcpy() calls it.
 */
KM_API void km_event_memcpy(size_t n);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_CURRENT_H */
