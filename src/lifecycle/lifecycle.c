// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's lifecycle, above the subsystems: km_machine_new() boots
 * core and then each subsystem, km_machine_check() runs their teardown
 * checks, km_machine_destroy() checks and releases them; tasks, which hold
 * an address space, are created and freed here too. Core (core/machine.c)
 * names no subsystem; this file is the one place that names them all.
 */
#define KM_DEFINE_V1_ENTRY_POINTS	/* defines the first version's symbols */
#include "mm_internal.h"
#include "skb_internal.h"
#include "usbnet_internal.h"

static void force_task_free(gpointer p)
{
	km_task_free(p);
}

static int tasks_check(struct km_machine *m)
{
	GHashTableIter it;
	gpointer key;
	int n = 0;

	g_hash_table_iter_init(&it, m->tasks);
	while (g_hash_table_iter_next(&it, &key, NULL)) {
		struct km_task *t = key;

		km_report(m, KM_BUG, KM_R_LEAK_MM, "task on cpu %u not freed", t->cpu);
		n++;
		if (t->preempt_count || t->pagefault_disabled) {
			km_report(m, KM_BUG, KM_R_LEAK_ATOMIC,
				  "task on cpu %u: preempt_count %d, pagefault_disabled %d", t->cpu,
				  t->preempt_count, t->pagefault_disabled);
			n++;
		}
	}
	return n;
}

static void tasks_fini(struct km_machine *m)
{
	km_release_all(m->tasks, force_task_free);
}

/*
 * The subsystems in teardown order: each one's check runs before, and its
 * fini after, those below it (a task holds an mm, whose pages go back to
 * the page allocator). Boot runs the inits in the reverse order. A fini
 * also releases what leaked, and copes with a failed or missing init.
 */
static const struct km_subsystem {
	int (*init)(struct km_machine *m);	/* 0 or a negative errno */
	int (*check)(struct km_machine *m);	/* reports filed */
	void (*fini)(struct km_machine *m);
} subsystems[] = {
	{ NULL, tasks_check, tasks_fini },
	{ km_mm_init, km_mm_check, km_mm_fini },
	{ km_kmap_init, km_kmap_check, km_kmap_fini },
	{ km_usbnet_init, NULL, km_usbnet_fini },
	{ km_skb_init, km_skb_check_leaks, km_skb_fini },
	{ km_interleave_init, NULL, km_interleave_fini },	/* below mm: munmap's down_write asks it */
	{ km_slab_init, km_slab_check, km_slab_fini },
	{ km_page_alloc_init, km_page_alloc_check, NULL },
	{ km_physmem_init, NULL, km_physmem_fini },
	{ NULL, NULL, km_gup_fini },	/* the hooks, armed or not: last, as */
	{ NULL, NULL, km_copy_fini },	/* a fini above may still copy */
};
#define NR_SUBSYSTEMS G_N_ELEMENTS(subsystems)

/* fini of subsystems[from..]: those booted, and the one that failed */
static void fini_from(struct km_machine *m, size_t from)
{
	for (size_t i = from; i < NR_SUBSYSTEMS; i++)
		if (subsystems[i].fini)
			subsystems[i].fini(m);
}

int km_machine_new_sized(const struct km_machine_config *cfg, size_t cfg_size,
			 struct km_machine **out)
{
	struct km_machine *m;
	int err;

	if (!out)
		return km_err(-EINVAL, "km_machine_new: out is NULL");
	*out = NULL;
	err = km_machine_alloc(cfg, cfg_size, &m);
	if (err)
		return err;
	for (size_t i = NR_SUBSYSTEMS; i-- > 0;) {
		err = subsystems[i].init ? subsystems[i].init(m) : 0;
		if (err) {
			fini_from(m, i);
			km_machine_free(m);
			return err;
		}
	}
	*out = m;
	return 0;
}

/* the first version's symbol: the members up to report_policy */
KM_API int km_machine_new(const struct km_machine_config *cfg, struct km_machine **out)
{
	return km_machine_new_sized(cfg, KM_MACHINE_CONFIG_V1_SIZE, out);
}

/* the knobs are core's and the subsystems' (km_fault_*()) */
void km_fault_inject_reset(struct km_machine *m)
{
	if (!m)
		return;
	m->fail_kmalloc_nth = 0;
	m->gup_limit = -1;
	m->kmap_slots = KM_TYPE_NR;
	km_fault_after_gup(m, NULL, NULL);
	km_fault_on_memcpy(m, NULL, NULL);
}

int km_machine_check(struct km_machine *m)
{
	int n = 0;

	if (!m)
		return 0;
	for (size_t i = 0; i < NR_SUBSYSTEMS; i++)
		if (subsystems[i].check)
			n += subsystems[i].check(m);
	return n;
}

/* the teardown reports km_machine_destroy() logs one by one; then one line
 * for the rest (2049 lines, cut off by the report log's end
 * without a word) */
#define TEARDOWN_SHOWN 8

int km_machine_destroy(struct km_machine *m)
{
	size_t shown;
	int n;

	if (!m)
		return 0;
	/* a scheduler's task may wait at an interleaving point, holding the
	 * machine's pages, locks and slots, and km_sched_free() still runs it
	 * to its end on this machine: refused, nothing is checked or freed
	 * (the task ran on the freed machine) */
	if (km_interleave_busy(m))
		return km_err(-EBUSY, "km_machine_destroy: a scheduler (km_sched_new()) still "
			      "drives this machine; km_sched_free() it first");
	/* the log from its start for the teardown's reports: one the run
	 * filled would keep only their counts (the machine goes, and its log
	 * with it) */
	m->report_log_len = 0;
	m->report_log_full = m->report_log_max == 0;
	n = km_machine_check(m);
	shown = MIN(m->report_log_len, (size_t)TEARDOWN_SHOWN);
	for (size_t i = 0; i < shown; i++)
		g_warning("kmodel teardown: %s: %s", km_report_code_name(km_report_get(m, i)->code),
			  km_report_get(m, i)->message);
	if ((size_t)n > shown)
		g_warning("kmodel teardown: ... and %zu more (%d teardown problems in all)",
			  (size_t)n - shown, n);
	fini_from(m, 0);
	km_machine_free(m);
	return n;
}

/* ---- tasks ---------------------------------------------------------------- */

int km_task_new(struct km_machine *m, struct km_mm *mm, unsigned int cpu, struct km_task **out)
{
	struct km_task *t;

	if (!m || !out)
		return km_err(-EINVAL, "km_task_new: machine or out is NULL");
	if (cpu >= m->cfg.nr_cpus)
		return km_err(-EINVAL, "km_task_new: cpu %u >= nr_cpus %u", cpu, m->cfg.nr_cpus);
	if (mm && mm->m != m)
		return km_err(-EINVAL, "km_task_new: mm belongs to another machine");
	t = g_new0(struct km_task, 1);
	t->m = m;
	t->cpu = cpu;
	t->mm = mm;
	km_kmap_stack_init(&t->kmap);
	if (mm)
		km_mm_get(mm);
	g_hash_table_add(m->tasks, t);
	*out = t;
	return 0;
}

void km_task_free(struct km_task *t)
{
	if (!t)
		return;
	if (t->preempt_count || t->pagefault_disabled || t->irqs_disabled)
		km_report(t->m, KM_BUG, KM_R_LEAK_ATOMIC,
			  "task exits with preempt_count %d, pagefault_disabled %d%s",
			  t->preempt_count, t->pagefault_disabled,
			  t->irqs_disabled ? ", interrupts off" : "");
	if (t->kmap.idx)
		km_report(t->m, KM_BUG, KM_R_LEAK_KMAP, "task exits holding %u kmap_local slot(s)",
			  km_kmap_task_slots(t));
	km_kmap_task_fini(t);
	if (km_current_task == t)
		km_task_switch(NULL);
	g_hash_table_remove(t->m->tasks, t);
	if (t->mm)
		km_mm_put(t->mm);
	g_free(t->uaccess);
	g_free(t);
}

int km_task_use_mm(struct km_task *t, struct km_mm *mm)
{
	if (!t || !mm)
		return km_err(-EINVAL, "km_task_use_mm: task or mm is NULL");
	if (mm->m != t->m)
		return km_err(-EINVAL, "km_task_use_mm: mm belongs to another machine");
	if (t->mm) {
		km_report(t->m, KM_WARN, KM_R_UNEXPECTED,
			  "kthread_use_mm(): the task has an mm already (WARN_ON_ONCE(tsk->mm))");
		return km_err(-EBUSY, "km_task_use_mm: the task has an mm already");
	}
	km_mm_get(mm);
	t->mm = mm;
	return 0;
}

void km_task_unuse_mm(struct km_task *t)
{
	struct km_mm *mm;

	if (!t || !t->mm)
		return;
	mm = t->mm;
	t->mm = NULL;
	km_mm_put(mm);
}
