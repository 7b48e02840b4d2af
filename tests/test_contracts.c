// SPDX-License-Identifier: GPL-2.0
/*
 * copy_from_user's tail by era. Before v4.12 an architecture's own
 * copy_from_user() had to zero the bytes it could not copy -- its
 * kernel-doc: "If some data could not be copied, this function will pad
 * the copied data to the requested size using zero bytes" -- and Al
 * Viro's 2016 series for v4.8 fixed the architectures that did not
 * (2545e5da080b "asm-generic: make copy_from_user() zero the destination
 * properly", 8ae95ed4ae5f for metag's access_ok() failure, ...). From
 * v4.12 raw_copy_from_user() must not zero: the generic _copy_from_user()
 * does (d597580d3737). A variant declares its contract
 * (km_uaccess_ops.contract); the suite holds its raw copy to it and, with
 * whole_copy, checks the whole copy_from_user() too.
 */
#include "km_test.h"

#define M 16	/* max_size: the layout's cases, quickly */

static unsigned long zeroing_from(void *to, unsigned long from, unsigned long n)
{
	unsigned long left = km_uaccess_direct.raw_copy_from_user(to, from, n);

	memset((unsigned char *)to + (n - left), 0, left);
	return left;
}

static const struct km_uaccess_ops cfu_v4_8 = {
	.size = KM_UACCESS_OPS_SIZE, .name = "cfu_v4_8", .claims_conformance = true,
	.contract = KM_UACCESS_CONTRACT_ZEROING,
	.raw_copy_from_user = zeroing_from,
	.raw_copy_to_user = NULL,	/* set in main(): direct's */
};

static struct km_uaccess_ops v4_8, pre_v4_8, undeclared;

/* one run in process context on 4 KiB pages */
static void run(const struct km_uaccess_ops *ops, bool whole, struct km_conformance_result *r)
{
	struct km_conformance_opts o = { .page_sizes = { 4096 }, .max_size = M,
					 .whole_copy = whole };

	assert_int_equal(km_uaccess_conformance_in(ops, &o, KM_CONF_CTX_PROCESS, r, NULL, 0), 0);
}

static void test_contracts_by_era(void **state)
{
	struct km_conformance_result base, r;
	static const struct {
		const char *name;
		const struct km_uaccess_ops *ops;
		bool fails;
	} rows[] = {
		{ "v4.12+ raw (direct): leaves the tail", &km_uaccess_direct, false },
		{ "v4.8 arch copy_from_user: zeroes the tail", &v4_8, false },
		{ "pre-v4.8 arch copy_from_user: tail stale", &pre_v4_8, true },
		{ "zeroing held to the raw contract", &undeclared, true },
	};

	(void)state;
	run(&km_uaccess_direct, false, &base);
	assert_int_equal(base.failures, 0);
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		unsigned long raw_failures;

		run(rows[i].ops, false, &r);
		raw_failures = r.failures;
		if (r.cases != base.cases || (r.failures != 0) != rows[i].fails ||
		    r.by_check[KM_CONF_CHECK_DST] != r.failures)
			fail_msg("%s, raw: %lu cases, %lu failures, %lu dst", rows[i].name, r.cases,
				 r.failures, r.by_check[KM_CONF_CHECK_DST]);
		for (size_t j = 0; j < r.list_len; j++) {
			/* the first tail byte: zero wanted (pre-v4.8) or the
			 * byte that was there (raw) */
			const struct km_conformance_failure *f = &r.list[j];

			assert_int_equal(f->dir, KM_CONF_FROM_USER);
			assert_int_equal(f->at, (long)(f->size - f->returned));
			assert_int_equal(rows[i].ops == &pre_v4_8, f->expected_min == 0);
		}
		km_conformance_result_clear(&r);
		/* the whole copy_from_user(): copied bytes, then zeroes. A raw
		 * variant gets its zeroes from the wrapper; a zeroing one must
		 * make them itself */
		run(rows[i].ops, true, &r);
		assert_int_equal(r.cases, base.cases + base.cases / 2);
		if (rows[i].ops == &pre_v4_8)
			assert_int_equal(r.failures, 2 * raw_failures);
		else
			assert_int_equal(r.failures, raw_failures);
		for (size_t j = 0; j < r.list_len; j++)
			if (r.list[j].dir == KM_CONF_COPY_FROM_USER)
				assert_ptr_equal(rows[i].ops, &pre_v4_8);
		km_conformance_result_clear(&r);
	}
	km_conformance_result_clear(&base);
}

/* km_copy_from_user() adds the zeroing only to a raw variant's copy */
static const struct zero_row {
	const char *name;
	const struct km_uaccess_ops *ops;
	unsigned char tail;	/* the uncopied byte after the call */
} zero_rows[] = {
	{ "raw: the wrapper zeroes", &km_uaccess_direct, 0 },
	{ "zeroing, done", &v4_8, 0 },
	{ "zeroing, not done (pre-v4.8)", &pre_v4_8, 0xaa },
};

static void test_wrapper_zeroes_by_contract(void **state)
{
	const struct zero_row *row = km_row(state);
	struct km_fixture *f = km_row_fixture(state);
	unsigned char k[8];
	unsigned long u;

	/* a readable page, then a hole: 4 bytes before the hole */
	assert_int_equal(km_mmap(f->mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &u), 0);
	memset(k, 0xaa, sizeof(k));
	assert_int_equal(km_copy_from_user(f->t, row->ops, k, u + 4092, 8), 4);
	if (k[4] != row->tail || k[7] != row->tail || k[0] != 0)
		fail_msg("%s: tail 0x%02x", row->name, k[4]);
	/* access_ok() failing: the whole @n zeroed in every era */
	memset(k, 0xaa, sizeof(k));
	assert_int_equal(km_copy_from_user(f->t, row->ops, k, ~0UL - 3, 8), 8);
	assert_int_equal(k[0], 0);
	assert_int_equal(k[7], 0);
}

int main(void)
{
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_contracts_by_era),
	};
	GArray *rows = km_test_new_group();

	v4_8 = cfu_v4_8;
	v4_8.raw_copy_to_user = km_uaccess_direct.raw_copy_to_user;
	pre_v4_8 = v4_8;
	pre_v4_8.name = "cfu_pre_v4_8";
	pre_v4_8.raw_copy_from_user = km_uaccess_direct.raw_copy_from_user;
	undeclared = v4_8;
	undeclared.name = "cfu_v4_8_undeclared";
	undeclared.contract = KM_UACCESS_CONTRACT_RAW;
	KM_TEST_ROWS(rows, test_wrapper_zeroes_by_contract, km_row_setup, km_fixture_teardown,
		     zero_rows);
	KM_TEST_CASES(tests, fixed, rows);
	return cmocka_run_group_tests_name("test_contracts", tests, NULL, NULL);
}
