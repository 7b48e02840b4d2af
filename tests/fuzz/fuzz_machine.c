// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: km_machine_new_sized() on arbitrary configuration
 * bytes (every field, any value) and an arbitrary struct size.
 *
 * Oracles: the host never crashes; the answer is 0 or -EINVAL (with a
 * message; *out NULL), -ENOMEM only for RAM the host cannot reserve; a
 * machine that boots keeps every non-zero field it was given (within the
 * size passed), has consistent geometry (pages x page size = RAM, lowmem
 * <= RAM), maps and touches a user page, allocates and frees a page and a
 * kmalloc object, and tears down clean.
 */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <string.h>
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct km_machine_config cfg, got;
	size_t cfg_size = sizeof(cfg);
	struct km_machine *m = (void *)1;
	struct km_mm *mm;
	struct km_task *t;
	unsigned long a;
	void *obj;
	int err;

	memset(&cfg, 0, sizeof(cfg));
	if (size < 2)
		return 0;
	/* field by field, most of them small so that valid machines occur */
	cfg.page_size = fuzz_u8(&in) & 0x80 ? fuzz_u32(&in) : 4096UL << (fuzz_u8(&in) % 5);
	cfg.ram_size = (uint64_t)fuzz_u16(&in) << (fuzz_u8(&in) % 24);
	cfg.lowmem_size = fuzz_u8(&in) & 1 ? (uint64_t)fuzz_u16(&in) << 16 : 0;
	cfg.nr_cpus = fuzz_u8(&in) % 40;
	cfg.vmsplit = (enum km_vmsplit)(fuzz_u8(&in) % 6);
	cfg.kmap = (enum km_kmap_flavour)(fuzz_u8(&in) % 3);
	cfg.kmap_debug = fuzz_u8(&in) & 1;
	cfg.fast_gup = fuzz_u8(&in) & 1;
	cfg.l1_cache_bytes = fuzz_u16(&in) % 600;
	cfg.kmalloc_min_size = fuzz_u16(&in) % 600;
	cfg.report_policy = KM_REPORT_RECORD;
	cfg.kmap_strict = (enum km_kmap_strict)(fuzz_u8(&in) % 4);
	if (fuzz_u8(&in) & 1)
		cfg_size = offsetof(struct km_machine_config, kmap_strict);	/* version 1 */
	err = km_machine_new_sized(&cfg, cfg_size, &m);
	if (err) {
		FUZZ_ASSERT(err == -EINVAL || err == -ENOMEM);
		FUZZ_ASSERT(m == NULL && km_last_error()[0]);
		return 0;
	}
	km_machine_get_config(m, &got);
	FUZZ_ASSERT(!cfg.page_size || got.page_size == cfg.page_size);
	FUZZ_ASSERT(!cfg.ram_size || got.ram_size == cfg.ram_size);
	FUZZ_ASSERT(!cfg.lowmem_size || got.lowmem_size == cfg.lowmem_size);
	FUZZ_ASSERT(!cfg.nr_cpus || got.nr_cpus == cfg.nr_cpus);
	FUZZ_ASSERT(got.vmsplit == cfg.vmsplit && got.kmap == cfg.kmap);
	FUZZ_ASSERT(cfg_size < sizeof(cfg) || got.kmap_strict == cfg.kmap_strict ||
		    cfg.kmap == KM_KMAP_LOCAL);
	FUZZ_ASSERT((uint64_t)km_nr_pages(m) * km_page_size(m) == got.ram_size);
	FUZZ_ASSERT((uint64_t)km_nr_lowmem_pages(m) * km_page_size(m) == got.lowmem_size);
	FUZZ_ASSERT(got.lowmem_size <= got.ram_size);
	FUZZ_ASSERT(km_mm_new(m, &mm) == 0);
	FUZZ_ASSERT(km_task_new(m, mm, got.nr_cpus - 1, &t) == 0);
	km_mm_put(mm);
	FUZZ_ASSERT(km_mmap(mm, 0, km_page_size(m), KM_PROT_READ | KM_PROT_WRITE, &a) == 0);
	FUZZ_ASSERT(a % km_page_size(m) == 0 && a < km_task_size(m));
	FUZZ_ASSERT(km_user_access(t, a + 1, "x", 1, true) == 1);
	obj = km_kmalloc(t, 1 + fuzz_u16(&in) % 5000, KM_GFP_KERNEL);
	FUZZ_ASSERT(obj && km_ksize(m, obj) >= got.kmalloc_min_size);
	km_kfree(t, obj);
	km_put_page(m, km_alloc_page(m, KM_GFP_HIGHMEM));
	km_task_free(t);
	FUZZ_ASSERT(km_report_count(m, KM_R_NONE) == 0);
	FUZZ_ASSERT(km_machine_destroy(m) == 0);
	return 0;
}
