// SPDX-License-Identifier: GPL-2.0
/*
 * The versioned public structs (docs/library.md, "Versioning"): every function that
 * writes or reads a caller's struct that may grow takes the caller's size
 * (an inline wrapper passes sizeof as compiled). A program built against an
 * older header passes a smaller struct: the library touches no byte past
 * it and gives the missing members their defaults; one built against a
 * newer header passes a larger one: the library writes the members it
 * knows and zeroes the rest. Each case is a caller struct of the library's
 * size plus a tail (a newer header), or the first version's size, with
 * canary bytes around it.
 */
#include "km_test.h"
#include <errno.h>
#include <kmodel/filemap.h>
#include <kmodel/scenario.h>
#include <kmodel/sweep.h>

#define TAIL 24		/* bytes a newer header appended */
#define CANARY 0xa5

/* a buffer for a caller's struct of @size bytes, canaries after it */
static unsigned char *caller_buf(size_t size)
{
	unsigned char *b = g_malloc(size + TAIL);

	memset(b, CANARY, size + TAIL);
	return b;
}

static void assert_bytes(const unsigned char *b, size_t from, size_t to, unsigned char v)
{
	for (size_t i = from; i < to; i++)
		if (b[i] != v)
			fail_msg("byte %zu is 0x%02x, expected 0x%02x", i, b[i], v);
}

/* km_net_device_init_ether(): a newer caller's tail zeroed, an older
 * (too small) one refused with nothing written */
static void test_net_device_init(void **state)
{
	unsigned char *b = caller_buf(sizeof(struct km_net_device) + TAIL);
	const struct km_net_device *d = (const void *)b;

	km_net_device_init_ether_sized((void *)b, sizeof(*d) + TAIL);
	assert_int_equal(d->hard_header_len, 14);
	assert_int_equal(d->mtu, 1500);
	assert_int_equal(d->priv_flags, KM_IFF_TX_SKB_SHARING);
	assert_bytes(b, sizeof(*d), sizeof(*d) + TAIL, 0);		/* unknown: zeroed */
	assert_bytes(b, sizeof(*d) + TAIL, sizeof(*d) + 2 * TAIL, CANARY);
	memset(b, CANARY, sizeof(*d) + 2 * TAIL);
	km_net_device_init_ether_sized((void *)b, KM_NET_DEVICE_MIN_SIZE - 1);
	assert_bytes(b, 0, sizeof(*d) + 2 * TAIL, CANARY);
	assert_non_null(strstr(km_last_error(), "size"));
	g_free(b);
}

/* a device model built against a newer header fills the library's size
 * only; km_usbnet_dev_get_stats() gives a newer caller zeros past it */
static void newer_model_stats(const void *priv, struct km_usbnet_dev_stats *out, size_t size)
{
	struct { struct km_usbnet_dev_stats st; uint64_t appended[2]; } mine = {
		.st = { .frames = 3, .oversized = 7 }, .appended = { 9, 9 } };

	assert_int_equal(size, sizeof(struct km_usbnet_dev_stats));	/* the library's */
	km_usbnet_dev_stats_put(out, size, &mine.st);
}

static void test_usbnet_dev_stats(void **state)
{
	const struct km_usbnet_dev d = { .get_stats = newer_model_stats };
	size_t n = sizeof(struct km_usbnet_dev_stats);
	unsigned char *b = caller_buf(n + TAIL);
	const struct km_usbnet_dev_stats *st = (const void *)b;

	km_usbnet_dev_get_stats_sized(&d, (void *)b, n + TAIL);
	assert_int_equal(st->frames, 3);
	assert_int_equal(st->oversized, 7);
	assert_bytes(b, n, n + TAIL, 0);
	assert_bytes(b, n + TAIL, n + 2 * TAIL, CANARY);
	memset(b, CANARY, n + 2 * TAIL);
	km_usbnet_dev_get_stats_sized(&d, (void *)b, KM_USBNET_DEV_STATS_MIN_SIZE - 8);
	assert_bytes(b, 0, n + 2 * TAIL, CANARY);
	g_free(b);
}

/* km_dd_run(): a newer caller's options and cases (a larger stride) run as
 * the library's; a smaller size is refused */
static void test_dd_sizes(void **state)
{
	const unsigned long bs = 4096;
	struct { struct km_dd_opts o; unsigned char appended[TAIL]; } opts = {
		.o = { .block_sizes = &bs, .nblock_sizes = 1, .total_bytes = 1 << 20,
		       .file_bytes = 1 << 20, .repeat = 1 } };
	struct newer_case { struct km_dd_case c; unsigned char appended[TAIL]; } cases[2] = {
		{ .c = { &km_uaccess_direct, km_dd_machine_find("bbw"), KM_KMAP_ATOMIC_PRE_5_11 } },
		{ .c = { &km_uaccess_gup_kmap_fixed, km_dd_machine_find("a15"), KM_KMAP_LOCAL } },
	};
	struct km_table *t;
	long var, mach;

	memset(opts.appended, CANARY, TAIL);
	assert_int_equal(km_dd_run_sized(&opts.o, sizeof(opts), &cases[0].c, sizeof(cases[0]), 2,
					  &t), 0);
	var = km_table_column_index(t, "variant");
	mach = km_table_column_index(t, "machine");
	assert_int_equal(km_table_nrows(t), 3);		/* memcpy, then the two cases */
	assert_string_equal(km_table_value(t, 1, (size_t)var)->s, "direct");
	assert_string_equal(km_table_value(t, 2, (size_t)var)->s, "gup_kmap_fixed");
	assert_string_equal(km_table_value(t, 2, (size_t)mach)->s, "a15");
	km_table_free(t);
	assert_int_equal(km_dd_run_sized(&opts.o, KM_DD_OPTS_MIN_SIZE - 1, &cases[0].c,
					 sizeof(cases[0]), 2, &t), -EINVAL);
	assert_int_equal(km_dd_run_sized(&opts.o, sizeof(opts), &cases[0].c,
					 KM_DD_CASE_MIN_SIZE - 1, 2, &t), -EINVAL);
	assert_null(t);
	/* the machines come as pointers: a stride of the caller's own */
	for (const struct km_dd_machine *const *d = km_dd_machines(); *d; d++)
		assert_ptr_equal(km_dd_machine_find((*d)->name), *d);
}

static void test_iperf_sizes(void **state)
{
	struct { struct km_iperf_opts o; unsigned char appended[TAIL]; } opts = {
		.o = { .packets = 20, .repeat = 1 } };
	const struct km_usbnet_variant *v = &km_asix_after;
	struct km_table *t;

	memset(opts.appended, CANARY, TAIL);
	assert_int_equal(km_iperf_run_sized(&opts.o, sizeof(opts), &v, 1, &t), 0);
	assert_int_equal(km_table_nrows(t), 3);		/* tcp, tcp+tap, udp */
	km_table_free(t);
	assert_int_equal(km_iperf_run_sized(&opts.o, KM_IPERF_OPTS_MIN_SIZE - 1, &v, 1, &t),
			 -EINVAL);
}

/* the sweep's config: a newer caller's (a larger struct, its tail not
 * read as options) runs the same space; one below the first version is
 * refused */
static void test_sweep_config_sizes(void **state)
{
	const struct km_usbnet_variant *vs[] = { &km_asix_hardened, NULL };
	struct { struct km_sweep_config c; unsigned char appended[TAIL]; } cfg = {
		.c = { .quick = true, .shard = 0, .shards = 64, .variants = vs } };
	struct km_sweep_result *r, *plain;

	(void)state;
	memset(cfg.appended, CANARY, TAIL);
	assert_int_equal(km_sweep_space_size_sized(&cfg.c, sizeof(cfg)),
			 km_sweep_space_size(&cfg.c));
	assert_int_equal(km_sweep_run_sized(&cfg.c, sizeof(cfg), &r), 0);
	assert_int_equal(km_sweep_run(&cfg.c, &plain), 0);
	assert_true(r->states > 0);
	assert_int_equal(r->states, plain->states);
	km_sweep_result_free(plain);
	km_sweep_result_free(r);
	assert_int_equal(km_sweep_space_size_sized(&cfg.c, KM_SWEEP_CONFIG_MIN_SIZE - 1), 0);
	assert_int_equal(km_sweep_run_sized(&cfg.c, KM_SWEEP_CONFIG_MIN_SIZE - 1, &r), -EINVAL);
	assert_null(r);
}

/* the conformance suite: a newer caller's result gets zeros past the
 * library's members; a smaller one is refused and left alone */
static void test_conformance_sizes(void **state)
{
	struct { struct km_conformance_opts o; unsigned char appended[TAIL]; } opts = {
		.o = { .page_sizes = { 4096 }, .max_size = 4 } };
	size_t n = sizeof(struct km_conformance_result);
	unsigned char *b = caller_buf(n + TAIL);
	struct km_conformance_result *r = (void *)b;

	memset(opts.appended, CANARY, TAIL);
	assert_int_equal(km_uaccess_conformance_sized(&km_uaccess_direct, &opts.o, sizeof(opts),
						      KM_CONF_CTX_PROCESS, r, n + TAIL, NULL, 0), 0);
	assert_true(r->cases > 0);
	assert_int_equal(r->failures, 0);
	assert_bytes(b, n, n + TAIL, 0);
	assert_bytes(b, n + TAIL, n + 2 * TAIL, CANARY);
	km_conformance_result_clear_sized(r, n + TAIL);
	assert_bytes(b, 0, n + TAIL, 0);
	memset(b, CANARY, n + 2 * TAIL);
	assert_int_equal(km_uaccess_conformance_sized(&km_uaccess_direct, &opts.o, sizeof(opts),
						      KM_CONF_CTX_PROCESS, r,
						      KM_CONFORMANCE_RESULT_MIN_SIZE - 1, NULL, 0),
			 -EINVAL);
	assert_bytes(b, 0, n + 2 * TAIL, CANARY);
	g_free(b);
}

/* km_generic_perform_write(): the stats of a newer caller, tail zeroed */
static void test_perform_write_stats(void **state)
{
	struct km_fixture *f = *state;
	size_t n = sizeof(struct km_perform_write_stats);
	unsigned char *b = caller_buf(n + TAIL);
	const struct km_perform_write_stats *st = (const void *)b;
	struct km_shmem_file *file;
	struct km_iov_iter it;
	struct km_iovec iov;
	unsigned long u;

	u = km_test_map(f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	iov = (struct km_iovec){ u, 64 };
	assert_int_equal(km_shmem_file_new(f->m, &file), 0);
	assert_int_equal(km_import_iovec(f->t, &iov, 1, &it), 64);
	assert_int_equal(km_generic_perform_write_sized(f->t, &km_uaccess_direct, file, 0, &it,
							(void *)b, n + TAIL), 64);
	assert_int_equal(st->rounds, 1);
	assert_bytes(b, n, n + TAIL, 0);
	assert_bytes(b, n + TAIL, n + 2 * TAIL, CANARY);
	assert_int_equal(km_generic_perform_write_sized(f->t, &km_uaccess_direct, file, 0, &it,
							(void *)b, KM_PERFORM_WRITE_STATS_MIN_SIZE - 1),
			 -EINVAL);
	km_shmem_file_free(file);
	g_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_net_device_init),
		cmocka_unit_test(test_usbnet_dev_stats),
		cmocka_unit_test(test_dd_sizes),
		cmocka_unit_test(test_iperf_sizes),
		cmocka_unit_test(test_sweep_config_sizes),
		cmocka_unit_test(test_conformance_sizes),
		cmocka_unit_test_setup_teardown(test_perform_write_stats, km_fixture_setup,
						km_fixture_teardown),
	};

	return cmocka_run_group_tests_name("test_abi", tests, NULL, NULL);
}
