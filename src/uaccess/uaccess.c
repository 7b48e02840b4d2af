// SPDX-License-Identifier: GPL-2.0
/*
 * The uaccess contract wrapper (include/linux/uaccess.h copy_{from,to}_user,
 * lib/usercopy.c _copy_{from,to}_user, mm/memory.c __might_fault, v5.7),
 * clear_user, the variant registry and the compatibility layer's helpers.
 */
#include "internal.h"
#include "variant.h"
#include <kmodel/uaccess.h>
#include <string.h>

unsigned long km_direct_user_copy(struct km_task *t, unsigned long uaddr, void *kbuf,
				  unsigned long n, bool to_user);

static const struct km_uaccess_ops *const variants[] = {
	&km_uaccess_direct,
	&km_uaccess_gup_kmap_rfc,
	&km_uaccess_gup_kmap_fixed,
	&km_uaccess_with_memcpy,
	NULL,
};

const struct km_uaccess_ops *const *km_uaccess_variants(void)
{
	return variants;
}

const struct km_uaccess_ops *km_uaccess_find(const char *name)
{
	for (size_t i = 0; name && variants[i]; i++)
		if (strcmp(variants[i]->name, name) == 0)
			return variants[i];
	return NULL;
}

bool km_uaccess_access_ok(const struct km_task *t, unsigned long addr, unsigned long size)
{
	return t && km_access_ok(t, addr, size);
}

/* __might_fault() */
static void might_fault(struct km_task *t)
{
	if (t->kernel_ds || t->pagefault_disabled)
		return;
	km_might_sleep(t, "might_fault()");
}

/* check_copy_size(): WARN_ON_ONCE(bytes > INT_MAX) */
static bool check_copy_size(struct km_task *t, unsigned long n)
{
	if (n > INT_MAX) {
		km_report(t->m, KM_WARN, KM_R_COPY_SIZE,
			  "check_copy_size: %lu bytes > INT_MAX", n);
		return false;
	}
	return true;
}

/* The wrappers' argument checks, before any use: a task, ops with the raw
 * function (@fn non-NULL), and a kernel buffer unless @n is 0. */
static bool __attribute__((noinline, cold)) bad_args(const char *wrapper)
{
	km_set_error("%s: task, ops, its raw function or the kernel buffer is NULL", wrapper);
	return true;
}
#define UACCESS_ARGS_BAD(t, ops, member, kbuf, n, wrapper)                              \
	(__builtin_expect(!(t) || !(ops) || !(ops)->member || (!(kbuf) && (n)), 0) && \
	 bad_args(wrapper))

/* A raw copy's result, N of @n: above @n it is a variant's bug the
 * kernel cannot survive (its callers compute n - N: iov_iter's copyin()
 * then advances past the iovec, generic_perform_write() hands
 * shmem_write_end() a length past the page). A BUG report naming the
 * variant, and nothing counted as copied, so the host goes on. */
static unsigned long raw_result(struct km_task *t, const struct km_uaccess_ops *ops, bool to_user,
				unsigned long n, unsigned long res)
{
	if (__builtin_expect(res <= n, 1))
		return res;
	km_report(t->m, KM_BUG, KM_R_UNEXPECTED,
		  "%s: raw_copy_%s_user(n %lu) returned %lu bytes not copied, more than asked: "
		  "taken as %lu (nothing copied)", ops->name, to_user ? "to" : "from", n, res, n);
	return n;
}

unsigned long km_copy_from_user(struct km_task *t, const struct km_uaccess_ops *ops, void *to,
				unsigned long from, unsigned long n)
{
	struct km_task *prev;
	unsigned long res = n;

	if (UACCESS_ARGS_BAD(t, ops, raw_copy_from_user, to, n, "km_copy_from_user"))
		return n;
	if (!check_copy_size(t, n))
		return n;
	KM_EV_ADD(t->m, uaccess_from_bytes, n);
	prev = km_task_switch(t);
	might_fault(t);
	if (km_access_ok(t, from, n)) {
		res = raw_result(t, ops, false, n, ops->raw_copy_from_user(to, from, n));
		/* before v4.12 the arch's copy_from_user() zeroed the tail
		 * itself (KM_UACCESS_CONTRACT_ZEROING): no second zeroing, so
		 * that one which did not shows */
		if (res && km_uaccess_ops_contract(ops) == KM_UACCESS_CONTRACT_RAW)
			memset((unsigned char *)to + (n - res), 0, res);
	} else if (res) {
		memset(to, 0, res);
	}
	km_task_switch(prev);
	return res;
}

unsigned long km_copy_to_user(struct km_task *t, const struct km_uaccess_ops *ops,
			      unsigned long to, const void *from, unsigned long n)
{
	struct km_task *prev;

	if (UACCESS_ARGS_BAD(t, ops, raw_copy_to_user, from, n, "km_copy_to_user"))
		return n;
	if (!check_copy_size(t, n))
		return n;
	KM_EV_ADD(t->m, uaccess_to_bytes, n);
	prev = km_task_switch(t);
	might_fault(t);
	if (km_access_ok(t, to, n))
		n = raw_result(t, ops, true, n, ops->raw_copy_to_user(to, from, n));
	km_task_switch(prev);
	return n;
}

/* On 4G/4G the user mapping is out of the kernel's reach: pin each page,
 * kmap it and clear it (what such a kernel's clear_user must do; the RFC
 * converted only copy_{from,to}_user). Stops at the first unpinnable page. */
static unsigned long clear_user_4g4g(struct km_task *t, unsigned long to, unsigned long n)
{
	struct km_machine *m = t->m;

	while (n) {
		unsigned long off = to & (m->page_size - 1), chunk = MIN(n, m->page_size - off);
		struct km_page *p;
		unsigned char *k;

		if (km_get_user_pages_fast(t, to, 1, KM_FOLL_WRITE, &p) != 1)
			break;
		k = km_kmap_atomic(t, p);
		memset(k + off, 0, chunk);
		km_kunmap_atomic(t, k);
		km_put_page(m, p);
		KM_EV_TRAFFIC(m, clear_bytes, chunk);
		KM_EV_INC(m, memset_calls);
		to += chunk;
		n -= chunk;
	}
	return n;
}

unsigned long km_clear_user(struct km_task *t, unsigned long to, unsigned long n)
{
	/* clear_user() (arch/arm/include/asm/uaccess.h, v5.7): access_ok() ?
	 * __clear_user() : n -- no might_fault() there */
	if (!t)
		return n;
	KM_EV_ADD(t->m, uaccess_clear_bytes, n);
	if (!km_access_ok(t, to, n))
		return n;
	if (t->m->cfg.vmsplit == KM_VMSPLIT_4G4G && !t->kernel_ds)
		return clear_user_4g4g(t, to, n);
	return km_direct_user_copy(t, to, NULL, n, true);
}

unsigned long km_copyin(struct km_task *t, const struct km_uaccess_ops *ops, void *to,
			unsigned long from, unsigned long n)
{
	struct km_task *prev;

	if (UACCESS_ARGS_BAD(t, ops, raw_copy_from_user, to, n, "km_copyin"))
		return n;
	KM_EV_ADD(t->m, uaccess_from_bytes, n);
	if (!km_access_ok(t, from, n))
		return n;
	prev = km_task_switch(t);
	n = raw_result(t, ops, false, n, ops->raw_copy_from_user(to, from, n));
	km_task_switch(prev);
	return n;
}

unsigned long km_copyout(struct km_task *t, const struct km_uaccess_ops *ops, unsigned long to,
			 const void *from, unsigned long n)
{
	struct km_task *prev;

	if (UACCESS_ARGS_BAD(t, ops, raw_copy_to_user, from, n, "km_copyout"))
		return n;
	KM_EV_ADD(t->m, uaccess_to_bytes, n);
	if (!km_access_ok(t, to, n))
		return n;
	prev = km_task_switch(t);
	n = raw_result(t, ops, true, n, ops->raw_copy_to_user(to, from, n));
	km_task_switch(prev);
	return n;
}

unsigned long km_clear_user_with(struct km_task *t, const struct km_uaccess_ops *ops,
				 unsigned long to, unsigned long n)
{
	struct km_task *prev;

	if (!t || !ops) {
		km_set_error("km_clear_user_with: task or ops is NULL");
		return n;
	}
	if (!km_uaccess_ops_has(ops, clear_user) || !ops->clear_user)
		return km_clear_user(t, to, n);
	KM_EV_ADD(t->m, uaccess_clear_bytes, n);
	if (!km_access_ok(t, to, n))
		return n;
	prev = km_task_switch(t);
	n = ops->clear_user(to, n);
	km_task_switch(prev);
	return n;
}

unsigned long km_uaccess_no_task(const char *op, unsigned long n)
{
	km_set_error("%s: no current task (km_task_switch()): nothing copied", op);
	return n;
}
