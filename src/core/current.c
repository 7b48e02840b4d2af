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

void km_event_memcpy(size_t n)
{
	struct km_task *t = km_current_task;

	if (!t)
		return;
	t->m->ev.memcpy_bytes += n;
	t->m->ev.memcpy_calls++;
	if (__builtin_expect(t->m->memcpy_hook != NULL, 0))
		t->m->memcpy_hook(t, n, t->m->memcpy_hook_arg);
}

void km_syscall(struct km_task *t)
{
	if (t)
		t->m->ev.syscalls++;
}
