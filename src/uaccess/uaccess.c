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

void km_uaccess_gup_kmap_count(struct km_task *t, unsigned long uaddr, unsigned long n,
			       unsigned long left, bool kernel_ds)
{
	struct km_machine *m = t->m;
	unsigned long first, last;

	if (kernel_ds)		/* uaccess_kernel(): a test and a memcpy() */
		return;
	KM_EV_INC(m, gup_kmap_calls);
	if (left || !n)		/* no buffer_op() chunk copied */
		return;
	/* num_pages of the RFC: DIV_ROUND_UP(uaddr + n, PAGE_SIZE) - uaddr / PAGE_SIZE */
	first = uaddr >> m->page_shift;
	last = (uaddr + n - 1) >> m->page_shift;
	KM_EV_ADD(m, gup_kmap_pages, last - first + 1);
}

unsigned long km_uaccess_no_task(const char *op, unsigned long n)
{
	km_set_error("%s: no current task (km_task_switch()): nothing copied", op);
	return n;
}

/* ---- a variant for every caller: the task's, the machine's ---------------- */

/* The operations a variant may leave to direct's, in the order
 * km_uaccess_fallbacks() names them. Each row reads the member only where
 * the variant's @size covers it (km_uaccess_ops_has()). */
#define OPS_MEMBER(member) { #member, offsetof(struct km_uaccess_ops, member), \
			     offsetof(struct km_uaccess_ops, member) + sizeof(void (*)(void)) }
static const struct {
	const char *name;
	size_t off, end;
} ops_members[] = {
	OPS_MEMBER(raw_copy_from_user), OPS_MEMBER(raw_copy_to_user), OPS_MEMBER(clear_user),
	OPS_MEMBER(get_user), OPS_MEMBER(put_user), OPS_MEMBER(strncpy_from_user),
	OPS_MEMBER(strnlen_user),
};

static bool ops_member_set(const struct km_uaccess_ops *ops, size_t i)
{
	void (*fn)(void);

	if (ops->size < ops_members[i].end)
		return false;
	memcpy(&fn, (const char *)ops + ops_members[i].off, sizeof(fn));
	return fn != NULL;
}

char *km_uaccess_fallbacks(const struct km_uaccess_ops *ops)
{
	GString *s;

	if (!ops)
		return NULL;
	s = g_string_new(NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(ops_members); i++)
		if (!ops_member_set(ops, i))
			g_string_append_printf(s, "%s%s", s->len ? ", " : "", ops_members[i].name);
	return g_string_free(s, s->len == 0);
}

struct km_uaccess_ops *km_uaccess_complete(const struct km_uaccess_ops *ops)
{
	struct km_uaccess_ops *c;

	if (!ops) {
		km_set_error("km_uaccess_complete: ops is NULL");
		return NULL;
	}
	if (ops->size < KM_UACCESS_OPS_MIN_SIZE) {
		km_set_error("km_uaccess_complete: ops->size %zu is below %zu (initialise .size "
			     "with KM_UACCESS_OPS_SIZE)", ops->size, (size_t)KM_UACCESS_OPS_MIN_SIZE);
		return NULL;
	}
	if (!ops->raw_copy_from_user && !ops->raw_copy_to_user) {
		km_set_error("km_uaccess_complete: %s: neither raw_copy_from_user nor "
			     "raw_copy_to_user", ops->name ? ops->name : "(unnamed)");
		return NULL;
	}
	c = g_new0(struct km_uaccess_ops, 1);
	memcpy(c, ops, MIN(ops->size, sizeof(*c)));
	c->size = KM_UACCESS_OPS_SIZE;
	for (size_t i = 0; i < G_N_ELEMENTS(ops_members); i++)
		if (!ops_member_set(c, i))
			memcpy((char *)c + ops_members[i].off,
			       (const char *)&km_uaccess_direct + ops_members[i].off,
			       sizeof(void (*)(void)));
	return c;
}

int km_task_set_uaccess(struct km_task *t, const struct km_uaccess_ops *ops)
{
	struct km_uaccess_ops *c = NULL;

	if (!t)
		return km_err(-EINVAL, "km_task_set_uaccess: task is NULL");
	if (ops && !(c = km_uaccess_complete(ops)))
		return -EINVAL;
	g_free(t->uaccess);
	t->uaccess = c;
	return 0;
}

int km_machine_set_uaccess(struct km_machine *m, const struct km_uaccess_ops *ops)
{
	struct km_uaccess_ops *c = NULL;

	if (!m)
		return km_err(-EINVAL, "km_machine_set_uaccess: machine is NULL");
	if (ops && !(c = km_uaccess_complete(ops)))
		return -EINVAL;
	g_free(m->uaccess);
	m->uaccess = c;
	return 0;
}

const struct km_uaccess_ops *km_task_uaccess(const struct km_task *t)
{
	if (t && t->uaccess)
		return t->uaccess;
	if (t && t->m->uaccess)
		return t->m->uaccess;
	return &km_uaccess_direct;
}

long km_get_user(struct km_task *t, const struct km_uaccess_ops *ops, void *to,
		 unsigned long from, unsigned long size)
{
	struct km_task *prev;
	long err;

	if (!t || !to) {
		km_set_error("km_get_user: task or buffer is NULL");
		return -EFAULT;
	}
	if (!ops || !km_uaccess_ops_has(ops, get_user) || !ops->get_user)
		ops = &km_uaccess_direct;
	prev = km_task_switch(t);
	err = ops->get_user(to, from, size);
	km_task_switch(prev);
	return err;
}

long km_put_user(struct km_task *t, const struct km_uaccess_ops *ops, unsigned long to,
		 const void *from, unsigned long size)
{
	struct km_task *prev;
	long err;

	if (!t || !from) {
		km_set_error("km_put_user: task or value is NULL");
		return -EFAULT;
	}
	if (!ops || !km_uaccess_ops_has(ops, put_user) || !ops->put_user)
		ops = &km_uaccess_direct;
	prev = km_task_switch(t);
	err = ops->put_user(to, from, size);
	km_task_switch(prev);
	return err;
}

long km_strncpy_from_user(struct km_task *t, const struct km_uaccess_ops *ops, char *dst,
			  unsigned long src, long count)
{
	struct km_task *prev;
	long res;

	if (!t || (!dst && count > 0)) {
		km_set_error("km_strncpy_from_user: task or buffer is NULL");
		return -EFAULT;
	}
	if (count <= 0)
		return 0;
	if (!ops || !km_uaccess_ops_has(ops, strncpy_from_user) || !ops->strncpy_from_user)
		ops = &km_uaccess_direct;
	prev = km_task_switch(t);
	res = ops->strncpy_from_user(dst, src, count);
	km_task_switch(prev);
	return res;
}

long km_strnlen_user(struct km_task *t, const struct km_uaccess_ops *ops, unsigned long src,
		     long n)
{
	struct km_task *prev;
	long res;

	if (!t) {
		km_set_error("km_strnlen_user: task is NULL");
		return 0;
	}
	if (n <= 0)
		return 0;
	if (!ops || !km_uaccess_ops_has(ops, strnlen_user) || !ops->strnlen_user)
		ops = &km_uaccess_direct;
	prev = km_task_switch(t);
	res = ops->strnlen_user(src, n);
	km_task_switch(prev);
	return res;
}
