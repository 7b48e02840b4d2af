// SPDX-License-Identifier: GPL-2.0
/* km_machine: configuration and the core state (the lifecycle that boots
 * and checks the subsystems: lifecycle/lifecycle.c); task state. */
#define KM_DEFINE_V1_ENTRY_POINTS	/* defines the first version's symbols */
#include "internal.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MiB (1024ULL * 1024)
#define GiB (1024ULL * MiB)

/* arm_lowmem_limit: vmalloc_min (0xf0000000: VMALLOC_END 0xff800000 less
 * 240 MiB and the 8 MiB VMALLOC_OFFSET, arch/arm/mm/mmu.c) - PAGE_OFFSET. */
static const struct {
	unsigned long page_offset, task_size;
	const char *name;
} splits[] = {
	[KM_VMSPLIT_3G] = { 0xc0000000UL, 0xbf000000UL, "3G/1G" },
	[KM_VMSPLIT_2G] = { 0x80000000UL, 0x7f000000UL, "2G/2G" },
	[KM_VMSPLIT_1G] = { 0x40000000UL, 0x3f000000UL, "1G/3G" },
	/* assumptions, see enum km_vmsplit */
	[KM_VMSPLIT_4G4G] = { 0x00000000UL, 0xff000000UL, "4G/4G" },
};
#define VMALLOC_MIN 0xf0000000ULL

static bool is_pow2(unsigned long x)
{
	return x && !(x & (x - 1));
}

/* Fill defaults into @c and validate it; -EINVAL names the field. */
static int config_resolve(struct km_machine_config *c)
{
	uint64_t limit;

	if (!c->page_size)
		c->page_size = 4096;
	if (c->page_size != 4096 && c->page_size != 16384 && c->page_size != 65536)
		return km_err(-EINVAL, "page_size: %lu bytes is not 4096, 16384 or 65536",
			      c->page_size);
	if ((unsigned int)c->vmsplit > KM_VMSPLIT_4G4G)
		return km_err(-EINVAL, "vmsplit: %d is not a known split", (int)c->vmsplit);
	if ((unsigned int)c->kmap > KM_KMAP_LOCAL)
		return km_err(-EINVAL, "kmap: %d is not a known kmap flavour", (int)c->kmap);
	if ((unsigned int)c->kmap_strict > KM_KMAP_STRICT_FORCE_MAP)
		return km_err(-EINVAL, "kmap_strict: %d is not a known strict kmap mode",
			      (int)c->kmap_strict);
	if ((unsigned int)c->mm_era > KM_MM_ERA_5_9)
		return km_err(-EINVAL, "mm_era: %d is not a known mm era", (int)c->mm_era);
	if ((unsigned int)c->report_policy > KM_REPORT_ABORT_ON_BUG)
		return km_err(-EINVAL, "report_policy: %d is not a known policy",
			      (int)c->report_policy);
	if (!c->ram_size)
		c->ram_size = 256 * MiB;
	if (c->ram_size < MiB || c->ram_size > 4 * GiB)
		return km_err(-EINVAL, "ram_size: %llu bytes is outside 1 MiB .. 4 GiB",
			      (unsigned long long)c->ram_size);
	if (c->ram_size % c->page_size)
		return km_err(-EINVAL, "ram_size: %llu bytes is not a multiple of page_size %lu",
			      (unsigned long long)c->ram_size, c->page_size);
	limit = VMALLOC_MIN - splits[c->vmsplit].page_offset;
	if (!c->lowmem_size)
		c->lowmem_size = MIN(c->ram_size, limit);
	if (c->lowmem_size < MiB || c->lowmem_size > c->ram_size)
		return km_err(-EINVAL, "lowmem_size: %llu bytes is outside 1 MiB .. ram_size",
			      (unsigned long long)c->lowmem_size);
	if (c->lowmem_size > limit)
		return km_err(-EINVAL, "lowmem_size: %llu bytes exceeds the %s lowmem limit of %llu",
			      (unsigned long long)c->lowmem_size, splits[c->vmsplit].name,
			      (unsigned long long)limit);
	if (c->lowmem_size % c->page_size)
		return km_err(-EINVAL, "lowmem_size: %llu bytes is not a multiple of page_size %lu",
			      (unsigned long long)c->lowmem_size, c->page_size);
	if (c->kmap_strict && (unsigned long)sysconf(_SC_PAGESIZE) > c->page_size)
		return km_err(-EINVAL, "kmap_strict: host pages of %ld bytes cannot alias %lu-byte "
			      "frames", sysconf(_SC_PAGESIZE), c->page_size);
	/* CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP selects CONFIG_DEBUG_KMAP_LOCAL */
	if (c->kmap_strict == KM_KMAP_STRICT_FORCE_MAP && c->kmap == KM_KMAP_LOCAL)
		c->kmap_debug = true;
	if (!c->nr_cpus)
		c->nr_cpus = 1;
	if (c->nr_cpus > KM_MAX_CPUS)
		return km_err(-EINVAL, "nr_cpus: %u is outside 1 .. %d", c->nr_cpus, KM_MAX_CPUS);
	if (!c->l1_cache_bytes)
		c->l1_cache_bytes = 64;
	if (!is_pow2(c->l1_cache_bytes) || c->l1_cache_bytes < 16 || c->l1_cache_bytes > 256)
		return km_err(-EINVAL, "l1_cache_bytes: %u is not a power of two in 16 .. 256",
			      c->l1_cache_bytes);
	if (!c->kmalloc_min_size)
		c->kmalloc_min_size = 64;
	if (!is_pow2(c->kmalloc_min_size) || c->kmalloc_min_size < 8 ||
	    c->kmalloc_min_size > 256)
		return km_err(-EINVAL, "kmalloc_min_size: %u is not a power of two in 8 .. 256",
			      c->kmalloc_min_size);
	return 0;
}

int km_machine_alloc(const struct km_machine_config *cfg, size_t cfg_size,
		     struct km_machine **out)
{
	struct km_machine_config c = {0};
	struct km_machine *m;
	int err;

	*out = NULL;
	if (cfg)	/* the members the caller knows; the rest stay defaults */
		memcpy(&c, cfg, MIN(cfg_size, sizeof(c)));
	err = config_resolve(&c);
	if (err)
		return err;

	m = g_new0(struct km_machine, 1);
	m->cfg = c;
	m->page_size = c.page_size;
	m->page_shift = (unsigned int)__builtin_ctzl(c.page_size);
	m->nr_pages = (unsigned long)(c.ram_size >> m->page_shift);
	m->nr_lowmem = (unsigned long)(c.lowmem_size >> m->page_shift);
	m->task_size = splits[c.vmsplit].task_size;
	m->report_log_max = KM_REPORT_LOG_MAX;
	m->tasks = g_hash_table_new(NULL, NULL);
	m->ram_fd = -1;
	for (unsigned int i = 0; i < KM_MAX_CPUS; i++)
		km_kmap_stack_init(&m->cpu[i].kmap);
	m->gup_limit = -1;		/* the fault knobs off, as km_fault_inject_reset() */
	m->kmap_slots = KM_TYPE_NR;
	*out = m;
	return 0;
}

void km_machine_free(struct km_machine *m)
{
	g_hash_table_destroy(m->tasks);
	if (m->write_pins)
		g_hash_table_destroy(m->write_pins);
	km_report_log_fini(m);
	g_free(m->uaccess);
	g_free(m);
}

void km_machine_get_config_sized(const struct km_machine *m, struct km_machine_config *out,
				 size_t size)
{
	if (!out)
		return;
	if (m)
		memcpy(out, &m->cfg, MIN(size, sizeof(m->cfg)));
	else
		memset(out, 0, MIN(size, sizeof(*out)));
}

/* the first version's symbol: the members up to report_policy */
KM_API void km_machine_get_config(const struct km_machine *m, struct km_machine_config *out)
{
	km_machine_get_config_sized(m, out, KM_MACHINE_CONFIG_V1_SIZE);
}

void km_release_all(GHashTable *set, void (*release)(gpointer))
{
	GList *l = g_hash_table_get_keys(set);

	for (GList *i = l; i; i = i->next)
		release(i->data);
	g_list_free(l);
}

/* ---- tasks ---------------------------------------------------------------- */

struct km_machine *km_task_machine(const struct km_task *t)
{
	return t ? t->m : NULL;
}

struct km_mm *km_task_mm(const struct km_task *t)
{
	return t ? t->mm : NULL;
}

void km_task_set_kernel_ds(struct km_task *t, bool kernel_ds)
{
	if (t)
		t->kernel_ds = kernel_ds;
}

bool km_task_kernel_ds(const struct km_task *t)
{
	return t && t->kernel_ds;
}

void km_preempt_disable(struct km_task *t)
{
	if (t)
		km_preempt_count_inc(t);
}

void km_preempt_enable(struct km_task *t)
{
	if (t)
		km_preempt_count_dec(t);
}

void km_pagefault_disable(struct km_task *t)
{
	if (t)
		km_pagefault_disabled_inc(t);
}

void km_pagefault_enable(struct km_task *t)
{
	if (t)
		km_pagefault_disabled_dec(t);
}

/* an enable without its disable: a WARN, and the count stays at 0 */
void km_count_underflow(struct km_task *t, const char *what, int count)
{
	km_report(t->m, KM_WARN, KM_R_ATOMIC_UNBALANCED, "%s %d", what, count);
}

int km_preempt_count(const struct km_task *t)
{
	return t ? t->preempt_count : 0;
}

int km_pagefault_disabled(const struct km_task *t)
{
	return t ? t->pagefault_disabled : 0;
}

/* __might_sleep() (kernel/sched/core.c, v5.7) with CONFIG_DEBUG_ATOMIC_SLEEP:
 * a sleeping call while preempt_count != 0 is a BUG report. */
/* the slow half of km_might_sleep(): in atomic context */
void km_might_sleep_report(struct km_task *t, const char *what)
{
	if (t->m->report_log_full && t->m->cfg.report_policy == KM_REPORT_RECORD) {
		/* the log is full: only count, as km_report() would */
		t->m->report_counts[KM_R_SLEEP_IN_ATOMIC]++;
		t->m->report_counts[KM_R_NONE]++;
		return;
	}
	km_report(t->m, KM_BUG, KM_R_SLEEP_IN_ATOMIC,
			  "sleeping function called from invalid context at %s: "
			  "in_atomic(): %d, irqs_disabled(): %d, preempt_count %d, "
			  "pagefault_disabled %d", what, km_in_atomic(t), t->irqs_disabled,
			  t->preempt_count, t->pagefault_disabled);
}

void km_fault_in_atomic_report(struct km_task *t, unsigned long addr, bool write)
{
	km_report(t->m, KM_BUG, KM_R_SLEEP_IN_ATOMIC,
		  "page fault on a %s of user address 0x%lx with %s%s%s (preempt_count %d): "
		  "handle_mm_fault() may sleep -- scheduling while atomic, or a deadlock on "
		  "the lock; pagefault_disable() around the access, or no lock across it",
		  write ? "store" : "load", addr, t->spinlocks ? "a spinlock held" : "",
		  t->spinlocks && t->irqs_disabled ? " and " : "",
		  t->irqs_disabled ? "interrupts off" : "", t->preempt_count);
}

void km_local_irq_disable(struct km_task *t)
{
	if (t)
		t->irqs_disabled = true;
}

void km_local_irq_enable(struct km_task *t)
{
	if (t)
		t->irqs_disabled = false;
}

bool km_irqs_disabled(const struct km_task *t)
{
	return t && t->irqs_disabled;
}

void km_task_sleep_in_atomic(struct km_task *t, const char *what)
{
	if (t)
		km_might_sleep_report(t, what);
}

unsigned long km_machine_task_size(const struct km_machine *m)
{
	return m ? m->task_size : 0;
}
