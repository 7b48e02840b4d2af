// SPDX-License-Identifier: GPL-2.0
/*
 * compat: the compatibility layer (include/kmodel/kernel/) compiled at nine
 * kernel versions (tests/compat/kver_*.c, KMODEL_KERNEL_VERSION 3.5, 3.6,
 * 4.12, 5.4, 5.7, 5.11, 5.19, 6.1, 6.2). Each versioned signature is checked at compile time in
 * tests/compat/kver_body.h; here each name's behaviour is checked against
 * the kernel source of the version it follows (cited per test), and a name
 * a version lacks is NULL in that version's table. tests/CMakeLists.txt
 * also compiles calls of names a version lacks and expects the compiler to
 * refuse them.
 */
#include "km_test.h"
#include "compat/kver.h"
#include <errno.h>
#include <string.h>

#define RW (KM_PROT_READ | KM_PROT_WRITE)
#define KV(a, b) (((a) << 16) + ((b) << 8))

/* The versions each test runs at, one named row each; a row's test runs
 * on a fresh machine of its setup (km_row_setup(): the default one). */
static const struct kver_row {
	const char *name;
	const struct kver_ops *k;
} kvers[] = {
	{ "v3.5", &kver_v3_5 }, { "v3.6", &kver_v3_6 }, { "v4.12", &kver_v4_12 },
	{ "v5.4", &kver_v5_4 },
	{ "v5.7", &kver_v5_7 }, { "v5.11", &kver_v5_11 }, { "v5.19", &kver_v5_19 },
	{ "v6.1", &kver_v6_1 }, { "v6.2", &kver_v6_2 },
};
#define for_each_kver(k) \
	for (size_t _i = 0; _i < G_N_ELEMENTS(kvers) && ((k) = kvers[_i].k); _i++)

static const struct kver_ops *kver(void **state)
{
	return ((const struct kver_row *)km_row(state))->k;
}

static int setup_fast_gup(void **state)
{
	return km_row_setup_cfg(state, &(struct km_machine_config){ .fast_gup = true });
}

static unsigned long reports(struct km_fixture *f, enum km_report_code code)
{
	return km_report_count(f->m, code);
}

/* kmodel_kernel_sources(KERNEL_VERSION a.b) reached each file */
static void test_selector(void **state)
{
	assert_int_equal(kver_v3_5.version, KV(3, 5));
	assert_int_equal(kver_v3_6.version, KV(3, 6));
	assert_int_equal(kver_v4_12.version, KV(4, 12));
	assert_int_equal(kver_v5_4.version, KV(5, 4));
	assert_int_equal(kver_v5_7.version, KV(5, 7));
	assert_int_equal(kver_v5_11.version, KV(5, 11));
	assert_int_equal(kver_v5_19.version, KV(5, 19));
	assert_int_equal(kver_v6_1.version, KV(6, 1));
	assert_int_equal(kver_v6_2.version, KV(6, 2));
}

/* get_user_pages_fast(): int write (< 5.2) or gup_flags, the same pin;
 * the lockless walk pins nothing without CONFIG_HAVE_FAST_GUP (the
 * BeagleBone) and one page with it */
static void test_gup(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_page *p = NULL, *z = NULL;
	unsigned long a;
	int ref;

	a = km_test_map(f, 0, 2, RW);
	/* untouched anonymous pages: a read pins the shared zero
	 * page, a write (FOLL_WRITE / write = 1) a page of its own */
	assert_int_equal(k->gup(a + 4096, false, &z), 1);
	assert_int_equal(k->gup(a + 5, true, &p), 1);
	assert_ptr_not_equal(p, z);
	ref = km_page_refcount(p);
	k->put_page(p);
	assert_int_equal(km_page_refcount(p), ref - 1);
	k->put_page(z);
	assert_int_equal(k->gup(km_task_size(f->m), false, &p), -EFAULT);
	assert_int_equal(k->gup_fast_only(a, true, &p), 0);
}

/* the same on a machine with fast gup (setup_fast_gup) */
static void test_gup_fast_gup(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_page *p = NULL;
	unsigned long a;

	a = km_test_map(f, 0, 1, RW);
	assert_int_equal(k->gup(a, true, &p), 1);	/* fault it in */
	k->put_page(p);
	assert_int_equal(k->gup_fast_only(a, true, &p), 1);
	k->put_page(p);
}

/*
 * FOLL_FORCE through the layer. get_user_pages_fast():
 * v5.2 (73b0140bf0fe) passes gup_flags on unchecked; v5.3 (817be129e6f2)
 * to v5.5 WARN and return -EINVAL for any flag but FOLL_WRITE |
 * FOLL_LONGTERM; from v5.6 (f4000fdf435b) FOLL_FORCE is taken again (a
 * forced write to a read-only private page pins it). v5.9's
 * get_user_pages_fast_only() (dadbb612f6e5) takes FOLL_FORCE too (its
 * walk ignores it) and returns 0, never a negative errno: a flag it does
 * not take is a WARN and 0, and so is the model's refusal of FOLL_FORCE
 * in the 4.8 mm era (-EINVAL from km_get_user_pages_fast_only()).
 */
static void test_gup_foll_force(void **state)
{
	const unsigned int wf = KM_FOLL_WRITE | KM_FOLL_FORCE;
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);	/* setup_fast_gup */
	bool refused = k->version >= KV(5, 3) && k->version < KV(5, 6);
	struct km_page *p;
	unsigned long a;

	assert_true(!k->gup_flags == (k->version < KV(5, 2)));
	assert_true(!k->gup_fast_only_flags == (k->version < KV(5, 9)));
	a = km_test_map(f, 0, 2, RW);
	km_user_access(f->t, a, "x", 1, true);
	km_user_access(f->t, a + 4096, "y", 1, true);
	assert_int_equal(km_mprotect(f->mm, a, 4096, KM_PROT_READ), 0);
	if (k->gup_flags) {
		p = NULL;
		assert_int_equal(k->gup_flags(a, wf, &p), refused ? -EINVAL : 1);
		assert_int_equal(reports(f, KM_R_WARN_ON), refused);
		if (p)
			k->put_page(p);
		assert_int_equal(k->gup_flags(a + 4096, KM_FOLL_WRITE, &p), 1);
		k->put_page(p);
		km_reports_clear(f->m);
	}
	if (k->gup_fast_only_flags) {
		assert_int_equal(k->gup_fast_only_flags(a + 4096, wf, &p), 1);
		k->put_page(p);
		assert_int_equal(k->gup_fast_only_flags(a, wf, &p), 0);	/* read-only pte */
		assert_int_equal(k->gup_fast_only_flags(a + 4096, 0x100, &p), 0);
		assert_int_equal(reports(f, KM_R_UNEXPECTED), 1);
		km_reports_clear(f->m);
	}
	assert_int_equal(reports(f, KM_R_NONE), 0);
}

static int setup_fast_gup_4_8(void **state)
{
	return km_row_setup_cfg(state, &(struct km_machine_config){ .fast_gup = true,
								    .mm_era = KM_MM_ERA_4_8 });
}

/* get_user_pages_fast_only() with FOLL_FORCE in the 4.8 mm era
 * (setup_fast_gup_4_8) */
static void test_gup_foll_force_4_8(void **state)
{
	const unsigned int wf = KM_FOLL_WRITE | KM_FOLL_FORCE;
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_page *p;
	unsigned long a;

	if (!k->gup_fast_only_flags)
		return;
	a = km_test_map(f, 0, 1, RW);
	km_user_access(f->t, a, "x", 1, true);
	assert_int_equal(k->gup_fast_only_flags(a, wf, &p), 0);
	assert_int_equal(reports(f, KM_R_UNEXPECTED), 1);
	km_reports_clear(f->m);
}

/* access_ok(): (type, addr, size) before v5.0, (addr, size) after: the
 * range must lie below TASK_SIZE */
static void test_access_ok(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	unsigned long top;

	top = km_task_size(f->m);
	assert_true(k->access_ok(top - 4096, 4096));
	assert_false(k->access_ok(top - 4096, 4097));
	assert_false(k->access_ok(top, 1));
}

/*
 * might_fault()/might_sleep()/in_atomic(). v3.5 (mm/memory.c might_fault()
 * with CONFIG_PROVE_LOCKING; pagefault_disable() raised preempt_count):
 * every sleep check fails inside pagefault_disable(). From v4.2
 * (8222dbe21e79; v5.7's __might_fault()) pagefault_disable() is not
 * atomic and might_fault() returns early inside it. Everywhere:
 * preempt_disable() makes both report, KERNEL_DS silences might_fault().
 */
static void test_might_fault(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	bool v3_5 = k->version < KV(4, 2);

	k->might_fault();
	k->might_sleep();
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 0);

	k->pagefault_disable();
	assert_int_equal(k->in_atomic(), v3_5);
	k->might_fault();
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), v3_5);
	k->might_sleep();
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 2 * v3_5);
	k->pagefault_enable();
	km_reports_clear(f->m);

	/* kmap_atomic()'s section, preemption and pagefaults off:
	 * might_fault() returns early from v4.2 */
	km_preempt_disable(f->t);
	k->pagefault_disable();
	k->might_fault();
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), v3_5);
	k->pagefault_enable();
	km_reports_clear(f->m);

	assert_int_equal(k->in_atomic(), 1);
	k->might_fault();
	k->might_sleep();
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 2);
	km_task_set_kernel_ds(f->t, true);
	k->might_fault();
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 2);
	km_task_set_kernel_ds(f->t, false);
	km_preempt_enable(f->t);
	km_reports_clear(f->m);
}

/*
 * get_user()/put_user()/__get_user()/__put_user() (ARM's
 * arch/arm/include/asm/uaccess.h and lib/{get,put}user.S): 0 or -EFAULT;
 * a failed get sets x to 0, so no stale or kernel value reaches a caller
 * that ignores the error; the checked forms call might_fault() and refuse
 * a range past addr_limit before any access, the __ forms do neither (see
 * the header on ARM's might_fault() there). Little-endian values.
 */
static const unsigned int uaccess_sizes[] = { 1, 2, 4, 8 };

static void test_get_put_user(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	unsigned long long v;
	unsigned char b[8];
	unsigned int v32;
	unsigned long a;

	a = km_test_map(f, 0, 1, RW);
	for (size_t i = 0; i < sizeof(uaccess_sizes) / sizeof(uaccess_sizes[0]); i++) {
		unsigned int n = uaccess_sizes[i];
		unsigned long long mask = n == 8 ? ~0ULL : (1ULL << (8 * n)) - 1;
		bool has8 = n < 8 || k->version >= KV(3, 17);

		/* a mapped page: the value's n bytes, little-endian */
		assert_int_equal(k->put_user(a, n, 0x8877665544332211ULL), 0);
		assert_int_equal(km_mm_peek(f->mm, a, b, 8), 0);
		for (unsigned int j = 0; j < 8; j++)
			assert_int_equal(b[j], j < n ? 0x11 * (j + 1) : 0);
		v = 0;
		assert_int_equal(k->get_user(a, n, &v), has8 ? 0 : -ENOSYS);
		if (has8)
			assert_true(v == (0x8877665544332211ULL & mask));
		assert_int_equal(k->__put_user(a, n, 0), 0);
		assert_int_equal(km_mm_peek(f->mm, a, b, 8), 0);
		assert_int_equal(b[0], 0);
		if (n < 8) {
			v = mask;
			assert_int_equal(k->__get_user(a, n, &v), 0);
			assert_true(v == 0);
		}
		/* unmapped (the page past the mapping): -EFAULT and x zeroed */
		v = mask;
		assert_int_equal(k->get_user(a + 4096, n, &v), has8 ? -EFAULT : -ENOSYS);
		assert_true(v == (has8 ? 0 : mask));
		if (n < 8) {
			v = mask;
			assert_int_equal(k->__get_user(a + 4096, n, &v), -EFAULT);
			assert_true(v == 0);
		}
		assert_int_equal(k->put_user(a + 4096, n, 1), -EFAULT);
		assert_int_equal(k->__put_user(a + 4096, n, 1), -EFAULT);
		/* straddling into the unmapped page: the readable first
		 * byte does not survive the fault (ARM faults the
		 * unaligned ldr; the fixup zeroes) */
		assert_int_equal(k->put_user(a + 4095, 1, 0xff), 0);
		if (n > 1) {
			v = mask;
			assert_int_equal(k->get_user(a + 4095, n, &v), has8 ? -EFAULT : -ENOSYS);
			assert_true(v == (has8 ? 0 : mask));
		}
		if (n > 1 && n < 8) {
			v = mask;
			assert_int_equal(k->__get_user(a + 4095, n, &v), -EFAULT);
			assert_true(v == 0);
		}
		/* past addr_limit: refused */
		v = mask;
		assert_int_equal(k->get_user(km_task_size(f->m), n, &v), has8 ? -EFAULT : -ENOSYS);
		assert_true(v == (has8 ? 0 : mask));
		assert_int_equal(k->put_user(km_task_size(f->m), n, 1), -EFAULT);
	}
	/* an 8-byte *ptr into a 32-bit x: the low word (getuser.S
	 * __get_user_4 through __get_user_x_32t) */
	if (k->version >= KV(3, 17)) {
		assert_int_equal(k->put_user(a, 8, 0x8877665544332211ULL), 0);
		v32 = 0;
		assert_int_equal(k->get_user_64_32(a, &v32), 0);
		assert_int_equal(v32, 0x44332211);
	} else {
		assert_null(k->get_user_64_32);
	}
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 0);
}

/* the last page below TASK_SIZE mapped: put_user() of 8 bytes
 * at top - 4 fails its range check and writes nothing;
 * __put_user() has none, stores the first word (the first of
 * __put_user_asm_dword()'s two str) and faults on the second */
static void test_get_put_user_top(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	unsigned long a, top;
	unsigned long long v;
	unsigned char b[8];
	unsigned int v32;
	struct km_events ev0, ev;

	top = km_task_size(f->m);
	a = km_test_map(f, top - 4096, 1, RW);
	assert_int_equal(a, top - 4096);
	assert_int_equal(k->put_user(top - 4, 8, 0x8877665544332211ULL), -EFAULT);
	assert_int_equal(km_mm_peek(f->mm, top - 4, b, 4), 0);
	assert_int_equal(b[0] | b[1] | b[2] | b[3], 0);
	/* ... nor does get_user() read: no page-table walk at all */
	v = 1;
	km_events_get(f->m, &ev0);
	assert_int_equal(k->get_user(top - 2, 4, &v), -EFAULT);
	km_events_get(f->m, &ev);
	assert_true(v == 0);
	assert_int_equal(ev.pt_walks, ev0.pt_walks);
	assert_int_equal(k->get_user(top - 4, 4, &v), 0);
	/* __get_user() has no range check: it walks, and faults */
	v = 1;
	km_events_get(f->m, &ev);
	assert_int_equal(k->__get_user(top - 2, 4, &v), -EFAULT);
	km_events_get(f->m, &ev0);
	assert_true(v == 0);
	assert_true(ev0.pt_walks > ev.pt_walks);
	/* an 8-byte *ptr into a u32 reads 4 bytes only: the second
	 * word, past TASK_SIZE, is never touched */
	if (k->version >= KV(3, 17)) {
		assert_int_equal(k->put_user(top - 4, 4, 0x44332211), 0);
		v32 = 0;
		assert_int_equal(k->get_user_64_32(top - 4, &v32), 0);
		assert_int_equal(v32, 0x44332211);
		v = 1;
		assert_int_equal(k->get_user(top - 4, 8, &v), -EFAULT);
		assert_true(v == 0);
	}
	assert_int_equal(k->__put_user(top - 4, 8, 0x8877665544332211ULL), -EFAULT);
	assert_int_equal(km_mm_peek(f->mm, top - 4, b, 4), 0);
	assert_int_equal(b[0], 0x11);
	assert_int_equal(b[3], 0x44);
}

/* The same in the contexts of test_might_fault(): with page faults off
 * a page that is not present cannot be faulted in (-EFAULT, x zeroed; the
 * sleep report only before v4.2, where pagefault_disable() was atomic, and
 * from v3.6, whose accessors call might_fault()); with preemption off
 * might_fault() reports from v3.6, for the __ forms too (ARM's
 * __get_user_err() and __put_user_err(), later __put_user_switch(), call
 * it: "ARM: 7528/1", in the v3.6 header, none in v3.0's), and the access
 * itself still goes through; under KERNEL_DS the "user" pointer is a kernel one. clear_user()
 * (ARM, v5.7): access_ok(), then __clear_user(); the bytes not cleared. */
static void test_get_put_user_contexts(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	bool v3_5 = k->version < KV(4, 2), mf = k->version >= KV(3, 6);
	unsigned long long v, host = 0x1234;
	struct km_events ev0, ev;
	unsigned long a;

	a = km_test_map(f, 0, 2, RW);
	k->pagefault_disable();
	v = 0xffffffff;
	assert_int_equal(k->get_user(a, 4, &v), -EFAULT);
	assert_true(v == 0);
	v = 0xffffffff;
	assert_int_equal(k->__get_user(a, 4, &v), -EFAULT);
	assert_true(v == 0);
	assert_int_equal(k->put_user(a, 4, 7), -EFAULT);
	assert_int_equal(k->__put_user(a, 4, 7), -EFAULT);
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 4 * (v3_5 && mf));
	k->pagefault_enable();
	km_reports_clear(f->m);
	assert_int_equal(k->put_user(a, 4, 7), 0);	/* faulted in now */

	km_preempt_disable(f->t);
	assert_int_equal(k->get_user(a, 4, &v), 0);
	assert_true(v == 7);
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 1 * mf);
	assert_int_equal(k->put_user(a, 4, 8), 0);
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 2 * mf);
	assert_int_equal(k->__put_user(a, 4, 9), 0);
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 3 * mf);
	assert_int_equal(k->__get_user(a, 4, &v), 0);
	assert_true(v == 9);
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 4 * mf);
	km_preempt_enable(f->t);
	km_reports_clear(f->m);

	km_task_set_kernel_ds(f->t, true);
	assert_int_equal(k->get_user((unsigned long)&host, 4, &v), 0);
	assert_true(v == 0x1234);
	assert_int_equal(k->put_user((unsigned long)&host, 2, 0xabcd), 0);
	assert_true(host == 0xabcd);
	km_task_set_kernel_ds(f->t, false);

	assert_int_equal(k->put_user(a + 4096 - 4, 4, 0xffffffff), 0);
	assert_int_equal(k->put_user(a + 4096, 4, 0xffffffff), 0);
	assert_int_equal(k->clear_user(a + 4096 - 2, 4), 0);
	assert_int_equal(k->get_user(a + 4096 - 4, 4, &v), 0);
	assert_true(v == 0x0000ffff);
	assert_int_equal(k->get_user(a + 4096, 4, &v), 0);
	assert_true(v == 0xffff0000);
	/* two bytes mapped, two past the mapping: two not cleared */
	assert_int_equal(k->clear_user(a + 8192 - 2, 4), 2);
	km_events_get(f->m, &ev0);
	assert_int_equal(k->clear_user(km_task_size(f->m) - 2, 4), 4);
	km_events_get(f->m, &ev);
	assert_int_equal(ev.uaccess_clear_bytes - ev0.uaccess_clear_bytes, 4);
	assert_int_equal(ev.pt_walks, ev0.pt_walks);	/* access_ok() refused it */
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 0);
}

/*
 * copy_from_user()/copy_to_user() (an ioctl handler could not
 * be ported): the bytes not copied, through the direct variant on current.
 * copy_from_user() zeroes what it did not copy: include/linux/uaccess.h /
 * lib/usercopy.c v5.7 _copy_from_user(); before v4.12 ARM's
 * copy_from_user() (memset() when access_ok() fails, arm_copy_from_user's
 * fixup after a fault). might_fault() from v4.12 (the generic
 * _copy_{from,to}_user()); ARM v3.5 had none. check_copy_size()'s
 * WARN_ON_ONCE(bytes > INT_MAX) from v5.5 (6d13de1489b6): nothing copied or
 * zeroed.
 */
/* copy_to_user() then copy_from_user() of @n bytes at @uaddr, of which
 * the last @left are not accessible: the rest copied each way, the @left
 * bytes zeroed in the kernel buffer and nothing after them touched */
static void copy_both(const struct kver_ops *k, struct km_fixture *f, unsigned long uaddr,
		      unsigned long n, unsigned long left)
{
	unsigned char src[32], dst[32], b[32];

	assert_true(n < sizeof(dst));
	for (unsigned int i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(i + 1);
	assert_int_equal(k->copy_to_user(uaddr, src, n), left);
	assert_int_equal(km_mm_peek(f->mm, uaddr, b, n - left), 0);
	assert_memory_equal(b, src, n - left);
	memset(dst, 0xaa, sizeof(dst));
	assert_int_equal(k->copy_from_user(dst, uaddr, n), left);
	assert_memory_equal(dst, src, n - left);
	for (unsigned long i = n - left; i < n; i++)
		assert_int_equal(dst[i], 0);
	assert_int_equal(dst[n], 0xaa);
}

static void test_copy_user(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	bool faults = k->version >= KV(4, 12), int_max = k->version >= KV(5, 5);
	unsigned char src[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, dst[32];
	unsigned long a, top, huge = (unsigned long)INT_MAX + 1;

	a = km_test_map(f, 0, 2, RW);
	top = km_task_size(f->m);
	copy_both(k, f, a + 4096 - 10, 20, 0);	/* across a page end */
	copy_both(k, f, a + 8192 - 8, 20, 12);	/* into the hole past the mapping */
	/* past addr_limit: access_ok() refuses, nothing copied, the
	 * whole destination of copy_from_user() zeroed */
	memset(dst, 0xaa, sizeof(dst));
	assert_int_equal(k->copy_from_user(dst, top - 4, 8), 8);
	for (unsigned int i = 0; i < 8; i++)
		assert_int_equal(dst[i], 0);
	assert_int_equal(dst[8], 0xaa);
	assert_int_equal(k->copy_to_user(top - 4, src, 8), 8);
	assert_int_equal(reports(f, KM_R_NONE), 0);
	/* preemption off: might_fault() reports from v4.12 only */
	km_preempt_disable(f->t);
	assert_int_equal(k->copy_to_user(a, src, 4), 0);
	assert_int_equal(k->copy_from_user(dst, a, 4), 0);
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), faults ? 2 : 0);
	/* the BUG raised inside the shim names the ported code's line
	 * that called copy_to_user() (kver_body.h's kv_copy_to_user()),
	 * not the shim's header alone */
	for (size_t i = 0; faults && i < km_report_log_len(f->m); i++)
		assert_non_null(strstr(km_report_get(f->m, i)->message,
				       i == 0 ? "kver_body.h:259]" : "kver_body.h:255]"));
	km_preempt_enable(f->t);
	km_reports_clear(f->m);
	/* n > INT_MAX: the WARN from v5.5, n returned, @to untouched (below
	 * v5.5 access_ok() refuses it here, and the kernel's zero-fill of
	 * n bytes is a KM_R_UNEXPECTED BUG instead) */
	memset(dst, 0xaa, sizeof(dst));
	assert_true(k->copy_from_user(dst, top - 4, huge) == huge);
	assert_int_equal(dst[0], 0xaa);
	assert_true(k->copy_to_user(top - 4, src, huge) == huge);
	assert_int_equal(reports(f, KM_R_COPY_SIZE), int_max ? 2 : 0);
	assert_int_equal(reports(f, KM_R_UNEXPECTED), int_max ? 0 : 1);
	km_reports_clear(f->m);
}

/* min_t()/max_t() (include/linux/kernel.h): both operands converted to the
 * type first (300 as u8 is 44), each evaluated once; offset_in_page() */
static void test_kernel_h(void **state)
{
	const struct kver_ops *k = kver(state);

	assert_int_equal(k->min_t_u8(300, 50), 44);
	assert_int_equal(k->max_t_u8(300, 50), 50);
	assert_int_equal(k->max_t_u8(-1, 7), 255);
	assert_int_equal(k->min_t_evals(), 2);
	assert_int_equal(k->offset_in_page(0x12345), 0x345);
}

static int setup_16k(void **state)
{
	return km_row_setup_cfg(state, &(struct km_machine_config){ .page_size = 16384 });
}

/* offset_in_page() on a machine of 16 KiB pages (setup_16k) */
static void test_kernel_h_16k(void **state)
{
	assert_int_equal(kver(state)->offset_in_page(0x12345), 0x2345);
}

/* get/put_unaligned_le16/32 (include/linux/unaligned/le_byteshift.h):
 * little-endian at any address, nothing else touched */
static void test_unaligned(void **state)
{
	const struct kver_ops *k = kver(state);
	unsigned char b[12];
	static const unsigned char want[12] = {
		0xee, 0x44, 0x33, 0x22, 0x11, 0xee, 0xee, 0xcd, 0xab, 0xee, 0xee, 0xee,
	};

	memset(b, 0xee, sizeof(b));
	k->put_le32(b + 1, 0x11223344);
	k->put_le16(b + 7, 0xabcd);
	assert_memory_equal(b, want, sizeof(b));
	assert_int_equal(k->get_le32(b + 1), 0x11223344);
	assert_int_equal(k->get_le16(b + 7), 0xabcd);
	assert_int_equal(k->get_le16(b + 2), 0x2233);
}

/* WARN_ON() is the condition's truth value and a KM_R_WARN_ON report when
 * true; BUG_ON() a KM_R_BUG_ON report (asm-generic/bug.h) */
static void test_bug_h(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	assert_int_equal(k->warn_on(0), 0);
	assert_int_equal(k->warn_on(7), 1);
	assert_int_equal(k->warn_on(-1), 1);
	assert_int_equal(reports(f, KM_R_WARN_ON), 2);
	assert_non_null(strstr(km_report_get(f->m, 0)->message, "WARN_ON(cond)"));
	k->bug_on(0);
	k->bug_on(1);
	assert_int_equal(reports(f, KM_R_BUG_ON), 1);
	km_reports_clear(f->m);
}

/* pin_user_pages_fast()/unpin_user_pages*() exist from v5.6 (eddb1c228f79).
 * unpin_user_pages_dirty_lock() (mm/gup.c, v5.7) dirties each clean page
 * with set_page_dirty_lock(), whose lock_page() may sleep. */
static void test_pin(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_page *p[2];
	unsigned long a;
	int ref0, ref1;

	if (k->version < KV(5, 6)) {
		assert_null(k->pin);
		assert_null(k->unpin_dirty_lock);
		return;
	}
	a = km_test_map(f, 0, 2, RW);
	assert_int_equal(k->pin(a, 2, p), 2);
	ref0 = km_page_refcount(p[0]);
	ref1 = km_page_refcount(p[1]);
	assert_true(ref0 >= KM_GUP_PIN_COUNTING_BIAS);
	k->unpin(p, 2);
	assert_int_equal(km_page_refcount(p[0]), ref0 - KM_GUP_PIN_COUNTING_BIAS);
	assert_int_equal(km_page_refcount(p[1]), ref1 - KM_GUP_PIN_COUNTING_BIAS);

	/* clean anonymous pages: dirty them, in process context quietly */
	assert_int_equal(k->pin(a, 2, p), 2);
	k->unpin_dirty_lock(p, 2, false);
	assert_int_equal(km_page_refcount(p[0]), ref0 - KM_GUP_PIN_COUNTING_BIAS);
	assert_int_equal(k->pin(a, 2, p), 2);
	k->unpin_dirty_lock(p, 2, true);
	assert_true(km_page_dirty(p[0]));
	assert_true(km_page_dirty(p[1]));
	assert_int_equal(km_page_refcount(p[1]), ref1 - KM_GUP_PIN_COUNTING_BIAS);
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 0);
}

/* pin_user_pages_unlocked() (mm/gup.c, from v5.8): pins as
 * pin_user_pages_fast() does; FOLL_LONGTERM is a WARN_ON_ONCE() and
 * -EINVAL, nothing pinned, up to v6.1; a long-term pin from v6.2, where
 * 53b2d09bdd12 ("mm/gup: remove the restriction on locked with
 * FOLL_LONGTERM") lifted get_user_pages_unlocked()'s refusal. */
static void test_pin_unlocked(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	bool longterm_ok = k->version >= KV(6, 2);
	struct km_page *p[2] = { NULL, NULL };
	unsigned long a;
	int ref;

	if (k->version < KV(5, 8)) {
		assert_null(k->pin_unlocked);
		return;
	}
	a = km_test_map(f, 0, 2, RW);
	assert_int_equal(k->pin_unlocked(a, 2, p, false), 2);
	ref = km_page_refcount(p[0]);
	assert_true(ref >= KM_GUP_PIN_COUNTING_BIAS);
	k->unpin(p, 2);
	assert_int_equal(km_page_refcount(p[0]), ref - KM_GUP_PIN_COUNTING_BIAS);
	p[0] = p[1] = NULL;
	assert_int_equal(k->pin_unlocked(a, 2, p, true), longterm_ok ? 2 : -EINVAL);
	assert_int_equal(reports(f, KM_R_WARN_ON), !longterm_ok);
	if (longterm_ok) {
		assert_int_equal(km_page_refcount(p[0]), ref);
		k->unpin(p, 2);
	} else {
		assert_null(p[0]);
	}
	km_reports_clear(f->m);
}

/* set_page_dirty_lock() (mm/page-writeback.c, v5.7): lock_page() may sleep */
static void test_set_page_dirty_lock(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_page *p;

	p = km_alloc_page(f->m, 0);
	assert_int_equal(k->set_page_dirty_lock(p), 1);
	assert_true(km_page_dirty(p));
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 0);
	km_preempt_disable(f->t);
	k->set_page_dirty_lock(p);
	km_preempt_enable(f->t);
	assert_int_equal(reports(f, KM_R_SLEEP_IN_ATOMIC), 1);
	km_reports_clear(f->m);
	km_put_page(f->m, p);
}

/* kmap_local_page()/kunmap_local() from v5.11 (f3ba3c710ac5): a slot
 * without disabling preemption or pagefaults (mm/highmem.c, v5.11) */
static int setup_kmap_local(void **state)
{
	return km_row_setup_cfg(state, &(struct km_machine_config){ .ram_size = 64 << 20,
			.lowmem_size = 32 << 20, .kmap = KM_KMAP_LOCAL });
}

static void test_kmap_local(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);	/* setup_kmap_local */
	struct km_page *p;
	char *v;

	if (k->version < KV(5, 11)) {
		assert_null(k->kmap_local_page);
		return;
	}
	p = km_alloc_page(f->m, KM_GFP_HIGHMEM);
	assert_true(km_page_highmem(p));
	v = k->kmap_local_page(p);
	assert_non_null(v);
	assert_int_equal(km_kmap_slots_held(f->m, 0), 1);
	assert_int_equal(km_preempt_count(f->t), 0);
	assert_int_equal(km_pagefault_disabled(f->t), 0);
	v[0] = 'x';
	k->kunmap_local(v);
	assert_int_equal(km_kmap_slots_held(f->m, 0), 0);
	km_put_page(f->m, p);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}

static int setup_highmem(void **state)
{
	return km_row_setup_cfg(state, &(struct km_machine_config){ .ram_size = 64 << 20,
			.lowmem_size = 32 << 20 });
}

/* 5.11 code on a machine of the pre-5.11 era (setup_highmem; a plugin run
 * by a tool's default machines): a BUG report, and a mapping the code can
 * use -- never a NULL the ported memcpy dereferences */
static void test_kmap_local_pre_5_11_machine(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_page *p;
	char *v;

	if (k->version < KV(5, 11))
		return;
	p = km_alloc_page(f->m, KM_GFP_HIGHMEM);
	v = k->kmap_local_page(p);
	assert_non_null(v);
	assert_int_equal(km_report_count(f->m, KM_R_KMAP_ERA), 1);
	assert_int_equal(km_kmap_slots_held(f->m, 0), 1);
	assert_int_equal(km_preempt_count(f->t), 0);
	v[0] = 'y';
	k->kunmap_local(v);
	assert_int_equal(km_kmap_slots_held(f->m, 0), 0);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 1);
	km_put_page(f->m, p);
	km_reports_clear(f->m);
}

/*
 * ported code that kmaps the NULL pages[0] left by a failed
 * pin_user_pages_fast() (-EFAULT taken for pinned by "if (pinned == 0)")
 * and memcpy()s at its offset crashed the host (SIGSEGV at NULL + off:
 * kmap recorded the BUG and returned NULL). The kernel oopses; the model
 * records one KM_R_BAD_PAGE BUG and hands out a scratch page that takes
 * the write, so the code runs on and returns: kmap_atomic() (both kmap
 * eras) and kmap_local_page() (5.11+), strict and not; kmap_atomic()'s
 * counts are raised and the kunmap drops them, and no slot is taken.
 */
static void test_kmap_null_page(void **state)
{
	static const enum km_kmap_strict stricts[] = {
		KM_KMAP_STRICT_OFF, KM_KMAP_STRICT, KM_KMAP_STRICT_FORCE_MAP,
	};
	const struct kver_ops *k;
	const char src[16] = "from the kernel";

	for_each_kver(k) {
		if (!k->negerr_copy_to_user)	/* no pin_user_pages_fast() before 5.6 */
			continue;
		for (size_t s = 0; s < G_N_ELEMENTS(stricts); s++)
			for (int era = 0; era < 2; era++)
				for (int local = 0; local < 1 + (k->version >= KV(5, 11)); local++) {
					struct km_fixture f;
					unsigned long a;

					km_fixture_up(&f, &(struct km_machine_config){
						.ram_size = 64 << 20, .lowmem_size = 32 << 20,
						.kmap = era ? KM_KMAP_LOCAL : KM_KMAP_ATOMIC_PRE_5_11,
						.kmap_strict = stricts[s] });
					a = km_test_map(&f, 0, 1, RW);
					/* one page past the mapping: the pin fails */
					assert_int_equal(k->negerr_copy_to_user(a + 4096 + 8, src,
										sizeof(src), local),
							 0);
					assert_int_equal(reports(&f, KM_R_BAD_PAGE), 1);
					/* kmap_local_page() on a pre-5.11 machine: also kmap_era */
					assert_int_equal(reports(&f, KM_R_NONE),
							 1 + (local && !era));
					assert_int_equal(km_preempt_count(f.t), 0);
					assert_int_equal(km_pagefault_disabled(f.t), 0);
					assert_int_equal(km_kmap_slots_held(f.m, 0), 0);
					km_reports_clear(f.m);
					km_fixture_down(&f);
				}
	}
}

/* an skb of @len bytes of 0xaa, its tailroom filled with 0xee */
static struct km_skb *skb_with(struct km_fixture *f, unsigned int size, unsigned int len)
{
	struct km_skb *skb = km_alloc_skb(f->t, size, KM_GFP_KERNEL);

	assert_non_null(skb);
	memset(km_skb_put(skb, len), 0xaa, len);
	memset(skb->tail, 0xee, (size_t)km_skb_tailroom(skb));
	return skb;
}

static void assert_padded(const struct km_skb *skb, unsigned int from, unsigned int to)
{
	for (unsigned int i = 0; i < from; i++)
		assert_int_equal(skb->data[i], 0xaa);
	for (unsigned int i = from; i < to; i++)
		assert_int_equal(skb->data[i], 0);
}

/*
 * skb_padto() and skb_pad() (include/linux/skbuff.h, net/core/skbuff.c,
 * v3.5): zero bytes after the data, len unchanged; with too little
 * tailroom pskb_expand_head() first; on failure the skb is freed.
 * skb_put_padto()/eth_skb_pad() (v3.19) also put the bytes.
 */
static void test_skb_pad(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_skb *skb;
	unsigned int len;

	skb = skb_with(f, 100, 54);		/* a short TCP segment */
	assert_int_equal(k->skb_padto(skb, 54), 0);
	assert_int_equal(k->skb_padto(skb, 10), 0);
	assert_int_equal(skb->data[54], 0xee);
	assert_int_equal(k->skb_padto(skb, 60), 0);
	assert_int_equal(skb->len, 54);
	assert_padded(skb, 54, 60);
	assert_int_equal(skb->data[60], 0xee);
	if (k->version >= KV(3, 19)) {
		assert_int_equal(k->eth_skb_pad(skb), 0);
		assert_int_equal(skb->len, 60);
		assert_int_equal(k->skb_put_padto(skb, 64), 0);
		assert_int_equal(skb->len, 64);
		assert_padded(skb, 54, 64);
		assert_int_equal(k->skb_put_padto(skb, 10), 0);	/* long enough */
		assert_int_equal(skb->len, 64);
	} else {
		assert_null(k->skb_put_padto);
		assert_null(k->eth_skb_pad);
	}
	assert_int_equal(k->skb_linearize(skb), 0);
	/* the kernel's memset() would run over 4 GiB: a BUG, skb kept */
	assert_int_equal(k->skb_pad(skb, -1), -EINVAL);
	assert_int_equal(km_report_count(f->m, KM_R_SKB_OVER), 1);
	km_reports_clear(f->m);
	km_kfree_skb(skb);

	/* no tailroom: expanded, then zeroed */
	skb = skb_with(f, 64, 0);
	len = (unsigned int)km_skb_tailroom(skb);
	memset(km_skb_put(skb, len), 0xaa, len);
	assert_int_equal(k->skb_pad(skb, 8), 0);
	assert_int_equal(skb->len, len);
	assert_true(km_skb_tailroom(skb) >= 8);
	assert_padded(skb, len, len + 8);
	km_kfree_skb(skb);

	/* a cloned skb, tailroom just @pad (ntail 0) or more (v3.5
	 * passes a negative ntail): the buffer is unshared first, the
	 * clone keeps its bytes */
	for (unsigned int more = 0; more <= 200; more += 200) {
		struct km_skb *clone;

		skb = skb_with(f, 300, 0);
		len = (unsigned int)km_skb_tailroom(skb) - 6 - more;
		memset(km_skb_put(skb, len), 0xaa, len);
		clone = km_skb_clone(f->t, skb, KM_GFP_ATOMIC);
		assert_int_equal(k->skb_pad(skb, 6), 0);
		assert_false(km_skb_cloned(skb));
		assert_padded(skb, len, len + 6);
		assert_int_equal(clone->data[len], 0xee);
		km_kfree_skb(clone);
		km_kfree_skb(skb);
	}
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);

	/* the expansion fails: -ENOMEM, and the skb is gone (a leak
	 * would show at km_fixture_down()) */
	skb = skb_with(f, 64, 0);
	km_skb_put(skb, (unsigned int)km_skb_tailroom(skb));
	km_fault_fail_kmalloc_nth(f->m, 1);
	assert_int_equal(k->skb_padto(skb, skb->len + 1), -ENOMEM);
	km_fault_inject_reset(f->m);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}

/* skb_push() returns the new data (unsigned char * before v4.13, void *
 * after: checked at compile time); skb_put_zero() (v4.13) */
static void test_skb_push_put(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_skb *skb;
	unsigned char *old;

	skb = km_alloc_skb(f->t, 100, KM_GFP_KERNEL);
	km_skb_reserve(skb, 8);
	old = skb->data;
	assert_ptr_equal(k->skb_push(skb, 4), old - 4);
	assert_ptr_equal(skb->data, old - 4);
	assert_int_equal(skb->len, 4);
	if (k->version >= KV(4, 13)) {
		unsigned char *t = skb->tail;

		memset(t, 0xee, 6);
		assert_ptr_equal(k->skb_put_zero(skb, 6), t);
		assert_int_equal(skb->len, 10);
		for (int i = 0; i < 6; i++)
			assert_int_equal(t[i], 0);
		/* the __ forms (v4.13, de77b966ce8a; mainline
		 * int51x1_tx_fixup() pads with __skb_put_zero():
		 * user report 4) */
		t = skb->tail;
		memset(t, 0xee, 3);
		assert_ptr_equal(k->__skb_put_zero(skb, 3), t);
		assert_int_equal(skb->len, 13);
		for (int i = 0; i < 3; i++)
			assert_int_equal(t[i], 0);
		t = skb->tail;
		assert_ptr_equal(k->__skb_put_data(skb, "abc", 3), t);
		assert_int_equal(skb->len, 16);
		assert_memory_equal(t, "abc", 3);
		km_skb_trim(skb, 4);
	} else {
		assert_null(k->skb_put_zero);
		assert_null(k->__skb_put_zero);
		assert_null(k->__skb_put_data);
	}
	assert_int_equal(k->skb_cow_head(skb, 4), 0);	/* enough headroom, private */
	assert_ptr_equal(skb->data, old - 4);
	km_kfree_skb(skb);
	assert_int_equal(km_report_count(f->m, KM_R_NONE), 0);
}

/* printk() and pr_*() (user report 4): the message goes to glib's log in
 * the "kmodel" domain, levels 0..4 as warnings, 6 as info; pr_fmt()
 * applies; pr_debug() without DEBUG logs nothing and is 0 (v5.7's
 * no_printk()); printk() returns the length without level prefix and
 * newline (v5.7's vprintk_store()); a message without level takes
 * MESSAGE_LOGLEVEL_DEFAULT, 4 */

static void test_printk(void **state)
{
	const struct kver_ops *k;
	struct km_logged l;
	guint id = g_log_set_handler("kmodel", G_LOG_LEVEL_MASK, km_log_capture, &l);

	for_each_kver(k) {
		memset(&l, 0, sizeof(l));
		assert_int_equal(k->pr_info("hello"), (int)strlen("kver: hello"));
		assert_int_equal(l.n, 1);
		assert_int_equal(l.level, G_LOG_LEVEL_INFO);
		assert_string_equal(l.text, "kver: hello");
		assert_int_equal(k->pr_err("bad"), (int)strlen("kver: bad"));
		assert_int_equal(l.n, 2);
		assert_int_equal(l.level, G_LOG_LEVEL_WARNING);
		assert_string_equal(l.text, "kver: bad");
		assert_int_equal(k->pr_debug("quiet"), 0);
		assert_int_equal(l.n, 2);
		assert_int_equal(k->printk("plain"), 5);
		assert_int_equal(l.level, G_LOG_LEVEL_WARNING);
		assert_string_equal(l.text, "plain");
		assert_int_equal(k->pr_cont("more"), 4);
		assert_int_equal(l.n, 4);
		assert_string_equal(l.text, "more");
	}
	/* the library reads both prefix forms, whichever era wrote it; the
	 * first level counts */
	memset(&l, 0, sizeof(l));
	assert_int_equal(km_printk("<7>%s\n", "dbg"), 3);
	assert_int_equal(l.level, G_LOG_LEVEL_DEBUG);
	assert_string_equal(l.text, "dbg");
	assert_int_equal(km_printk("\001" "5" "\001" "3" "note"), 4);
	assert_int_equal(l.level, G_LOG_LEVEL_MESSAGE);
	assert_string_equal(l.text, "note");
	assert_int_equal(km_printk("%s", "\001" "6" "from an argument"), 16);
	assert_int_equal(l.level, G_LOG_LEVEL_INFO);
	assert_int_equal(km_printk("<x>text"), 7);	/* not a level */
	assert_string_equal(l.text, "<x>text");
	g_log_remove_handler("kmodel", id);
}

/* a driver's put_unaligned_le32() into an skb goes through the sharing
 * checker like its memcpy(): a header write into a buffer whose header a
 * clone shares is reported, and stored as the kernel would */
static void test_skb_store_checked(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	struct km_skb *skb, *clone;

	skb = skb_with(f, 100, 20);
	k->put_unaligned_le32_skb(skb, 0x04030201);
	assert_int_equal(skb->data[0], 1);
	assert_int_equal(km_report_count(f->m, KM_R_SKB_SHARING), 0);
	clone = km_skb_clone(f->t, skb, KM_GFP_ATOMIC);
	k->skb_linearize(skb);		/* any accessor notes the skb */
	k->put_unaligned_le32_skb(skb, 0x08070605);
	assert_int_equal(km_report_count(f->m, KM_R_SKB_SHARING), 1);
	assert_int_equal(clone->data[0], 5);	/* the write happened */
	km_kfree_skb(clone);
	km_kfree_skb(skb);
	km_reports_clear(f->m);
}

/*
 * usb_maxpacket() (include/linux/usb.h). Up to v5.18 (udev, pipe, is_out):
 * is_out picks the endpoint table, a pipe of the other direction WARNs.
 * From v5.19 (0f08c2e7458e and its series) (udev, pipe): the pipe's
 * direction picks. A missing endpoint is 0.
 */
static void test_usb_maxpacket(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	assert_int_equal(k->usb_maxpacket(1, false, 1), 512);
	assert_int_equal(k->usb_maxpacket(1, true, 0), 64);
	assert_int_equal(k->usb_maxpacket(2, false, 1), 0);
	assert_int_equal(reports(f, KM_R_WARN_ON), 0);
	if (k->version < KV(5, 19)) {
		/* a pipe against is_out: WARN, is_out's table */
		assert_int_equal(k->usb_maxpacket(1, false, 0), 64);
		assert_int_equal(reports(f, KM_R_WARN_ON), 1);
		assert_int_equal(k->usb_maxpacket(1, true, 1), 512);
		assert_int_equal(reports(f, KM_R_WARN_ON), 2);
		km_reports_clear(f->m);
	} else {
		assert_int_equal(k->usb_maxpacket(1, false, 0), 512);
		assert_int_equal(k->usb_maxpacket(1, true, 1), 64);
		assert_int_equal(reports(f, KM_R_WARN_ON), 0);
	}
}

/*
 * A driver's usb_maxpacket(dev->udev, dev->out[, 1]) on the usbnet the model
 * probed (v3.5 usbnet_probe(): dev->maxpacket = usb_maxpacket(dev->udev,
 * dev->out, 1); rndis_host's bind asks the same): the bulk-out endpoint's
 * wMaxPacketSize as enumeration left it -- config.c's clamp of the
 * mainline era included (high speed 2047 -> 1024) -- and a bulk-out and a
 * bulk-in pipe of the probed device.
 */
static const struct udev_row {
	const char *name;
	const struct km_usbnet_variant *v;
	enum km_usb_speed speed;
	unsigned int maxpacket, want;
} udev_rows[] = {
	{ "asix_before, high speed, 512", &km_asix_before, KM_USB_SPEED_HIGH, 512, 512 },
	{ "asix_after, full speed, 64", &km_asix_after, KM_USB_SPEED_FULL, 64, 64 },
	{ "asix_after, full speed, 8", &km_asix_after, KM_USB_SPEED_FULL, 8, 8 },
	{ "asix_after, high speed, 2047: v3.5, no clamp", &km_asix_after, KM_USB_SPEED_HIGH,
	  2047, 2047 },
	{ "asix_mainline, high speed, 2047: clamped", &km_asix_mainline, KM_USB_SPEED_HIGH,
	  2047, 1024 },
	{ "ax88179, super speed, 1024", &km_ax88179, KM_USB_SPEED_SUPER, 1024, 1024 },
};

/* each row at each version, a device of its own */
static void test_usbnet_udev_pipes(void **state)
{
	const struct udev_row *c = km_row(state);
	struct km_fixture *f = km_row_fixture(state);
	const struct kver_ops *k;

	for_each_kver(k) {
		struct km_usbnet *dev;
		bool dir_ok = false;

		assert_int_equal(km_usbnet_probe(f->m, c->v, c->speed, c->maxpacket, NULL, &dev),
				 0);
		assert_int_equal(dev->maxpacket, c->want);
		assert_int_equal(k->usbnet_maxpacket(dev, &dir_ok), c->want);
		assert_true(dir_ok);
		assert_int_equal(dev->udev->speed, c->speed);
		assert_int_equal(reports(f, KM_R_WARN_ON), 0);
		km_usbnet_free(dev);
		km_reports_clear(f->m);
	}
}

/*
 * iov_iter_fault_in_readable() (< 5.16, a6294593e8a1): writev({a, 0}, {b, 64}) as
 * generic_perform_write() asks it. Before v4.8 only the current segment,
 * here the empty one: nothing is faulted in and 0 comes back even when b
 * is not mapped. From v4.8 (d4690f1e1cda) every segment within @bytes: b's
 * page is faulted in, and an unmapped b is -EFAULT.
 */
static void test_fault_in_readable(void **state)
{
	const struct kver_ops *k = kver(state);
	struct km_fixture *f = km_row_fixture(state);
	bool all = k->version >= KV(4, 8);
	unsigned long a, hole;
	struct km_page *p;

	if (k->version >= KV(5, 16)) {	/* fault_in_iov_iter_readable() */
		assert_null(k->fault_in_readable);
		return;
	}
	a = km_test_map(f, 0, 2, RW);
	hole = a + 64 * 4096;		/* nothing mapped there */
	{
		struct km_iovec iov[] = { { a, 0 }, { a + 4096, 64 } };

		assert_int_equal(k->fault_in_readable(iov, 2, 64, 64), 0);
		assert_int_equal(km_follow_pte(f->mm, a + 4096, NULL, &p) == 0, all);
	}
	{
		struct km_iovec iov[] = { { a, 0 }, { hole, 64 } };

		assert_int_equal(k->fault_in_readable(iov, 2, 64, 64), all ? -EFAULT : 0);
	}
	{	/* the current segment itself: every version */
		struct km_iovec iov[] = { { hole, 64 } };

		assert_int_equal(k->fault_in_readable(iov, 1, 64, 64), -EFAULT);
	}
}

int main(void)
{
	const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_selector),
		cmocka_unit_test(test_kmap_null_page),
		cmocka_unit_test(test_printk),
	};
	GArray *rows = km_test_new_group();

#define KVER_ROWS(fn, setup) KM_TEST_ROWS(rows, fn, setup, km_fixture_teardown, kvers)
	KVER_ROWS(test_gup, km_row_setup);
	KVER_ROWS(test_gup_fast_gup, setup_fast_gup);
	KVER_ROWS(test_gup_foll_force, setup_fast_gup);
	KVER_ROWS(test_gup_foll_force_4_8, setup_fast_gup_4_8);
	KVER_ROWS(test_access_ok, km_row_setup);
	KVER_ROWS(test_might_fault, km_row_setup);
	KVER_ROWS(test_get_put_user, km_row_setup);
	KVER_ROWS(test_get_put_user_top, km_row_setup);
	KVER_ROWS(test_get_put_user_contexts, km_row_setup);
	KVER_ROWS(test_copy_user, km_row_setup);
	KVER_ROWS(test_kernel_h, km_row_setup);
	KVER_ROWS(test_kernel_h_16k, setup_16k);
	KVER_ROWS(test_unaligned, km_row_setup);
	KVER_ROWS(test_bug_h, km_row_setup);
	KVER_ROWS(test_pin, km_row_setup);
	KVER_ROWS(test_pin_unlocked, km_row_setup);
	KVER_ROWS(test_set_page_dirty_lock, km_row_setup);
	KVER_ROWS(test_kmap_local, setup_kmap_local);
	KVER_ROWS(test_kmap_local_pre_5_11_machine, setup_highmem);
	KVER_ROWS(test_skb_pad, km_row_setup);
	KVER_ROWS(test_skb_push_put, km_row_setup);
	KVER_ROWS(test_skb_store_checked, km_row_setup);
	KVER_ROWS(test_usb_maxpacket, km_row_setup);
	KVER_ROWS(test_fault_in_readable, km_row_setup);
#undef KVER_ROWS
	KM_TEST_ROWS(rows, test_usbnet_udev_pipes, km_row_setup, km_fixture_teardown, udev_rows);
	KM_TEST_CASES(tests, fixed, rows);

	return cmocka_run_group_tests_name("test_compat", tests, NULL, NULL);
}
