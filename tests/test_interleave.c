// SPDX-License-Identifier: GPL-2.0
/*
 * Scripted interleavings (kmodel/interleave.h): the points, the scheduler's
 * rules (mmap_sem for write waits for readers, no switch onto a CPU whose
 * task waits in atomic context), and Al Viro's munmap race from the RFC's
 * thread against gup_kmap_rfc and direct.
 */
#include "km_test.h"

#define MiB (1024UL * 1024)

static const struct km_machine_config bbw = { 0 };	/* no fast GUP */
#define A15 .ram_size = 64 * MiB, .lowmem_size = 32 * MiB, .fast_gup = true
static const struct km_machine_config a15 = { A15 };

/*
 * Al Viro, 13 Jun 2020, on "[RFC 1/3] lib: copy_{from,to}_user using gup &
 * kmap_atomic()" (<20200613160040.GI23230@ZenIV.linux.org.uk>): fill a file
 * with zeroes, mmap it twice MAP_SHARED (A and B); thread 1 munmap()s A and
 * fills B with 'X'; thread 2 write()s from A into a pipe. "One could expect
 * that nothing but zeroes gets written into pipe - it might be a short
 * write() (or -EFAULT), but finding any 'X' there would be a bug." With the
 * RFC, write() may pin A's page just as munmap() is about to remove it;
 * the store through B then lands in it, and the copy through the kmap alias
 * sees it -- "a QoI issue". The pipe's copy is copy_from_user() of the
 * variant into a kernel buffer (pipe_write(): copy_page_from_iter()).
 */
struct viro {
	struct km_machine *m;
	struct km_task *unmapper, *writer;
	struct km_sched *s;
	const struct km_uaccess_ops *ops;
	unsigned long A, B, P;
	unsigned char pipe[65536];
	unsigned long not_copied;
	int munmap_ret;
	long stored;
	const void *row;	/* a test's row, when a fixture */
};

static void unmapper(struct km_task *t, void *arg)
{
	struct viro *v = arg;
	unsigned char x[65536];

	v->munmap_ret = km_munmap(km_task_mm(t), v->A, v->P);
	memset(x, 'X', v->P);
	v->stored = km_user_access(t, v->B, x, v->P, true);
}

static void writer(struct km_task *t, void *arg)
{
	struct viro *v = arg;

	v->not_copied = km_copy_from_user(t, v->ops, v->pipe, v->A, v->P);
}

static void viro_up(struct viro *v, const struct km_machine_config *c,
		    const struct km_uaccess_ops *ops, bool touch_a)
{
	struct km_mm *mm;
	struct km_file *f;
	unsigned char byte;

	memset(v, 0, sizeof(*v));
	v->ops = ops;
	assert_int_equal(km_machine_new(c, &v->m), 0);
	v->P = km_page_size(v->m);
	assert_int_equal(km_mm_new(v->m, &mm), 0);
	assert_int_equal(km_task_new(v->m, mm, 0, &v->unmapper), 0);
	assert_int_equal(km_task_new(v->m, mm, 0, &v->writer), 0);
	km_mm_put(mm);
	assert_int_equal(km_file_new(v->m, v->P, &f), 0);
	assert_int_equal(km_mmap_file(mm, 0, v->P, KM_PROT_READ | KM_PROT_WRITE, true, f, 0, &v->A), 0);
	assert_int_equal(km_mmap_file(mm, 0, v->P, KM_PROT_READ | KM_PROT_WRITE, true, f, 0, &v->B), 0);
	km_file_put(f);
	if (touch_a)	/* A's pte present, as after an earlier read */
		assert_int_equal(km_user_access(v->writer, v->A, &byte, 1, false), 1);
	assert_int_equal(km_sched_new(v->m, &v->s), 0);
	assert_int_equal(km_sched_add(v->s, v->unmapper, "unmapper", unmapper, v), 0);
	assert_int_equal(km_sched_add(v->s, v->writer, "writer", writer, v), 0);
}

/* the pipe got an 'X': the race's outcome */
static bool viro_saw_x(const struct viro *v)
{
	return memchr(v->pipe, 'X', v->P - v->not_copied) != NULL;
}

static void viro_down(struct viro *v)
{
	assert_int_equal(km_sched_free(v->s), 0);
	assert_int_equal(v->munmap_ret, 0);
	assert_int_equal(v->stored, (long)v->P);
	km_task_free(v->unmapper);
	km_task_free(v->writer);
	assert_int_equal(km_machine_destroy(v->m), 0);
}

/*
 * Preempt the writer at the @n-th time it reaches @ip, run the unmapper to
 * the end (it blocks if the writer holds mmap_sem: then the writer goes
 * first), finish both. Returns -1 when the writer never reaches that
 * point, else whether an 'X' reached the pipe.
 */
static int viro_preempt_writer(const struct km_machine_config *c,
			       const struct km_uaccess_ops *ops, bool touch_a, enum km_ipoint ip,
			       unsigned int n, int *unmapper_state)
{
	struct viro v;
	int ret;

	viro_up(&v, c, ops, touch_a);
	if (km_sched_run_until(v.s, v.writer, ip, n) == KM_SCHED_DONE) {
		km_sched_finish(v.s, v.unmapper);
		viro_down(&v);
		return -1;
	}
	*unmapper_state = km_sched_finish(v.s, v.unmapper);
	assert_int_equal(km_sched_finish(v.s, v.writer), KM_SCHED_DONE);
	assert_int_equal(km_sched_finish(v.s, v.unmapper), KM_SCHED_DONE);
	ret = viro_saw_x(&v);
	viro_down(&v);
	return ret;
}

/*
 * Every point the writer reaches on the BeagleBone (no fast GUP: the RFC's
 * gup takes the slow path, under mmap_sem): the RFC shows the 'X' exactly
 * when preempted between its pin and its copy; inside gup (after its
 * fault, before its retry) it holds mmap_sem, so munmap() waits for it and
 * nothing goes wrong. direct never shows an 'X': after its fault is
 * handled the unmapper may run, and the retried access faults on the
 * unmapped A -- a short write.
 */
static const struct viro_bbw_row {
	const char *name;
	const struct km_uaccess_ops *ops;
	enum km_ipoint ip;
	int x, blocked;		/* x -1: the writer never gets there */
} viro_bbw_rows[] = {
	{ "gup_kmap_rfc after its fault: munmap waits", &km_uaccess_gup_kmap_rfc,
	  KM_IP_AFTER_FAULT, 0, 1 },
	{ "gup_kmap_rfc at gup's retry: munmap waits", &km_uaccess_gup_kmap_rfc,
	  KM_IP_GUP_RETRY, 0, 1 },
	{ "gup_kmap_rfc between pin and copy: the X", &km_uaccess_gup_kmap_rfc,
	  KM_IP_AFTER_PIN, 1, 0 },
	{ "direct after its fault: a short write", &km_uaccess_direct, KM_IP_AFTER_FAULT, 0, 0 },
	{ "direct has no gup retry", &km_uaccess_direct, KM_IP_GUP_RETRY, -1, 0 },
	{ "direct has no pin", &km_uaccess_direct, KM_IP_AFTER_PIN, -1, 0 },
};

/* each row's two runs build their own machine (viro_up(): the race's
 * file, mappings and two tasks) */
static void test_viro_munmap_race_bbw(void **state)
{
	const struct viro_bbw_row *row = *state;	/* a row of viro_bbw_rows[] */
	int st = -1;
	int x = viro_preempt_writer(&bbw, row->ops, false, row->ip, 1, &st);

	assert_int_equal(x, row->x);
	if (x >= 0)
		assert_int_equal(st, row->blocked ? KM_SCHED_BLOCKED : KM_SCHED_DONE);
	/* each point is reached once: the second time never comes */
	assert_int_equal(viro_preempt_writer(&bbw, row->ops, false, row->ip, 2, &st), -1);
}

/*
 * The window Al described: "get_user_pages_fast(), getting the first page
 * just as munmap() is about to remove it from page tables". With fast GUP
 * (the Cortex-A15) the lockless walk needs no mmap_sem: the unmapper stops
 * inside munmap(), its vma detached but the pte not yet zapped; the
 * writer's gup pins A's page; munmap() finishes and 'X' is stored through
 * B; the RFC's memcpy() then copies the 'X'. direct, in the same window,
 * reads A through the pte that is still there: zeroes, before the store.
 */
static const struct viro_a15_row {
	const char *name;
	const struct km_uaccess_ops *ops;
	bool want_x;
} viro_a15_rows[] = {
	{ "gup_kmap_rfc pins A's page, copies the X", &km_uaccess_gup_kmap_rfc, true },
	{ "direct reads zeroes through A's pte", &km_uaccess_direct, false },
};

/* the race on the Cortex-A15, A touched: *state is a row of
 * viro_a15_rows[] before, a struct viro after */
static int viro_a15_setup(void **state)
{
	const struct viro_a15_row *row = *state;
	struct viro *v = g_new(struct viro, 1);

	viro_up(v, &a15, row->ops, true);
	v->row = row;
	*state = v;
	return 0;
}

static int viro_teardown(void **state)
{
	viro_down(*state);
	g_free(*state);
	return 0;
}

static void test_viro_munmap_race_fast_gup(void **state)
{
	struct viro *v = *state;	/* viro_a15_setup() */
	const struct viro_a15_row *row = v->row;
	bool want_x = row->want_x;

	assert_int_equal(km_sched_run_until(v->s, v->unmapper, KM_IP_MUNMAP, 1), KM_SCHED_AT_POINT);
	if (want_x)	/* stop the writer between pin and copy */
		assert_int_equal(km_sched_run_until(v->s, v->writer, KM_IP_AFTER_PIN, 1),
				 KM_SCHED_AT_POINT);
	else		/* direct has no pin: it runs to the end */
		assert_int_equal(km_sched_run_until(v->s, v->writer, KM_IP_AFTER_PIN, 1),
				 KM_SCHED_DONE);
	assert_int_equal(km_sched_finish(v->s, v->unmapper), KM_SCHED_DONE);
	assert_int_equal(km_sched_finish(v->s, v->writer), KM_SCHED_DONE);
	assert_int_equal(v->not_copied, 0);
	assert_int_equal(viro_saw_x(v), want_x);
	assert_non_null(strstr(km_sched_trace(v->s), "unmapper: at munmap"));
}

/* Every order of the two programs at every point the writer reaches, on
 * both machines: direct never lets an 'X' through. */
static const struct viro_machine_row {
	const char *name;
	const struct km_machine_config *c;
} viro_machines[] = {
	{ "BeagleBone, no fast GUP", &bbw },
	{ "Cortex-A15, fast GUP", &a15 },
};

/* each run builds its own machine (viro_up()) */
static void test_viro_direct_never_sees_x(void **state)
{
	const struct viro_machine_row *row = *state;	/* a row of viro_machines[] */

	for (int touch = 0; touch < 2; touch++)
		for (int ip = 0; ip < KM_IP__COUNT; ip++)
			for (unsigned int n = 1; n < 4; n++) {
				int st, x = viro_preempt_writer(row->c, &km_uaccess_direct, touch,
								ip, n, &st);

				if (!(x <= 0))
					fail_msg("%s, A %s: an 'X' with the writer stopped at "
						 "%s #%u", row->name, touch ? "touched" : "untouched",
						 km_ipoint_name(ip), n);
			}
}

/* ---- the scheduler's rules ---------------------------------------------- */

struct prog {
	unsigned long a;
	const struct km_uaccess_ops *ops;
	unsigned long left;
	int ret;
};

/* __get_user_pages_fast() with preemption disabled: the lockless walk,
 * safe in atomic context, pins and reaches KM_IP_AFTER_PIN there */
static void atomic_pin(struct km_task *t, void *arg)
{
	struct prog *p = arg;
	struct km_page *page;

	km_preempt_disable(t);
	p->ret = (int)km_get_user_pages_fast_only(t, p->a, 1, 0, &page);
	if (p->ret == 1)
		km_put_page(km_task_machine(t), page);
	km_preempt_enable(t);
}

static void plain_copy(struct km_task *t, void *arg)
{
	struct prog *p = arg;
	char buf[64];

	p->left = km_copy_from_user(t, p->ops, buf, p->a, sizeof(buf));
}

static void munmap_prog(struct km_task *t, void *arg)
{
	struct prog *p = arg;

	p->ret = km_munmap(km_task_mm(t), p->a, 4096);
}

static void nothing(struct km_task *t, void *arg)
{
}

/* A task stopped in atomic context keeps its CPU: no other task runs there
 * (the kernel would not switch), one on another CPU does. */
/* a hook km_interleave_hook() must refuse */
static void hook_refused(struct km_task *t, enum km_ipoint ip, unsigned long addr, void *arg)
{
	fail_msg("a refused hook ran at %s", km_ipoint_name(ip));
}

static const struct km_machine_config a15_2cpus = { A15, .nr_cpus = 2 };

static void test_no_switch_onto_atomic_cpu(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup_cfg(a15_2cpus) */
	struct km_machine *m = f.m;
	struct km_mm *mm = f.mm;
	struct km_task *t0 = f.t, *t0b, *t1;	/* t0: the fixture's, on cpu 0 */
	struct km_sched *s;
	struct prog p = { 0 };
	char byte = 1;

	km_task_switch(NULL);	/* the scheduler runs the tasks */
	assert_int_equal(km_task_new(m, mm, 0, &t0b), 0);
	assert_int_equal(km_task_new(m, mm, 1, &t1), 0);
	assert_int_equal(km_mmap(mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &p.a), 0);
	assert_int_equal(km_user_access(t0, p.a, &byte, 1, true), 1);
	assert_int_equal(km_sched_new(m, &s), 0);
	assert_int_equal(km_sched_add(s, t0, "atomic", atomic_pin, &p), 0);
	assert_int_equal(km_sched_add(s, t0b, "same-cpu", nothing, NULL), 0);
	assert_int_equal(km_sched_add(s, t1, "other-cpu", nothing, NULL), 0);
	/* kmodel/interleave.h: no hook while a scheduler drives the machine;
	 * no 0th hit of a point, nor a point past the last */
	assert_int_equal(km_interleave_hook(m, hook_refused, NULL), -EBUSY);
	assert_int_equal(km_sched_run_until(s, t0, KM_IP_AFTER_PIN, 0), -EINVAL);
	assert_int_equal(km_sched_run_until(s, t0, KM_IP__COUNT, 1), -EINVAL);
	assert_int_equal(km_sched_run_until(s, t0, KM_IP_AFTER_PIN, 1), KM_SCHED_AT_POINT);
	assert_int_equal(km_preempt_count(t0), 1);
	assert_int_equal(km_sched_finish(s, t0b), -EDEADLK);
	assert_non_null(strstr(km_last_error(), "atomic"));
	assert_int_equal(km_sched_finish(s, t1), KM_SCHED_DONE);
	assert_int_equal(km_sched_finish(s, t0), KM_SCHED_DONE);
	assert_int_equal(km_sched_finish(s, t0b), KM_SCHED_DONE);
	assert_int_equal(p.ret, 1);
	assert_int_equal(km_sched_free(s), 0);
	km_task_free(t0b);
	km_task_free(t1);
}

/* munmap() needs mmap_sem for write: while a task waits inside gup's slow
 * path (holding it for read) munmap blocks, and goes on once the reader has
 * finished; km_sched_free() finishes what is left. */
static void test_munmap_blocks_on_gup_reader(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup_cfg(bbw) */
	struct km_machine *m = f.m;
	struct km_mm *mm = f.mm;
	struct km_task *t0 = f.t, *t1;
	struct km_sched *s;
	struct prog reader = { .ops = &km_uaccess_gup_kmap_rfc }, unm;

	km_task_switch(NULL);	/* the scheduler runs the tasks */
	assert_int_equal(km_task_new(m, mm, 0, &t1), 0);
	assert_int_equal(km_mmap(mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &reader.a), 0);
	unm.a = reader.a;
	assert_int_equal(km_sched_new(m, &s), 0);
	assert_int_equal(km_sched_add(s, t0, "reader", plain_copy, &reader), 0);
	assert_int_equal(km_sched_add(s, t1, "munmap", munmap_prog, &unm), 0);
	/* no fast GUP: the slow path faults the page in, then retries */
	assert_int_equal(km_sched_run_until(s, t0, KM_IP_GUP_RETRY, 1), KM_SCHED_AT_POINT);
	assert_int_equal(km_sched_finish(s, t1), KM_SCHED_BLOCKED);
	assert_int_equal(km_sched_finish(s, t1), KM_SCHED_BLOCKED);	/* still */
	assert_int_equal(km_sched_hits(s, t0, KM_IP_AFTER_FAULT), 1);
	assert_non_null(strstr(km_sched_trace(s), "munmap: blocks in munmap"));
	assert_int_equal(km_sched_free(s), 0);	/* the reader, then munmap */
	assert_int_equal(unm.ret, 0);
	assert_int_equal(reader.left, 0);
	assert_int_equal(km_report_count(m, KM_R_NONE), 0);
	km_task_free(t1);
}

/* Outside a scheduler a writer cannot wait: a munmap() while mmap_sem is
 * held for read is a lock report (the caller would wait for ever). */
static void test_munmap_with_reader_outside_scheduler(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	unsigned long a;

	a = km_test_map(&f, 0, 1, KM_PROT_READ);
	km_down_read(f.t, &km_mm_locks(f.mm)->mmap_sem);
	assert_int_equal(km_munmap(f.mm, a, 4096), 0);
	km_up_read(f.t, &km_mm_locks(f.mm)->mmap_sem);
	assert_int_equal(km_report_count(f.m, KM_R_LOCK), 1);
	km_reports_clear(f.m);
}

/* A program that drives its own scheduler: it would wait for itself
 * (the handoff waits until the running task stops, and that is the
 * caller). Refused, with a message, instead of a hang. */
struct selfdrive {
	struct km_sched *s;
	struct km_task *self, *other;
	int finish, until, free_ret, other_ret;
	char why[256];
};

static void drive_self(struct km_task *t, void *arg)
{
	struct selfdrive *d = arg;

	d->finish = km_sched_finish(d->s, d->self);
	g_strlcpy(d->why, km_last_error(), sizeof(d->why));
	d->until = km_sched_run_until(d->s, d->self, KM_IP_AFTER_FAULT, 1);
	d->free_ret = km_sched_free(d->s);
	d->other_ret = km_sched_finish(d->s, d->other);
}

static void test_program_cannot_drive_its_scheduler(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_task *t1;
	struct selfdrive d = { 0 };

	assert_int_equal(km_task_new(f.m, f.mm, 0, &t1), 0);
	assert_int_equal(km_sched_new(f.m, &d.s), 0);
	d.self = f.t;
	d.other = t1;
	assert_int_equal(km_sched_add(d.s, f.t, "self", drive_self, &d), 0);
	assert_int_equal(km_sched_add(d.s, t1, "other", nothing, NULL), 0);
	assert_int_equal(km_sched_finish(d.s, f.t), KM_SCHED_DONE);
	assert_int_equal(d.finish, -EDEADLK);
	assert_non_null(strstr(d.why, "wait for itself"));
	assert_int_equal(d.until, -EDEADLK);
	assert_int_equal(d.free_ret, -EDEADLK);
	assert_int_equal(d.other_ret, -EINVAL);
	assert_int_equal(km_sched_finish(d.s, t1), KM_SCHED_DONE);	/* still usable */
	assert_int_equal(km_sched_free(d.s), 0);
	km_task_free(t1);
}

/* km_machine_destroy() while a scheduler is alive
 * freed the machine under a task waiting at a point (holding a pin), and
 * km_sched_free() then ran that task's km_put_page() on the freed machine.
 * The machine outlives its scheduler (kmodel/interleave.h): the destroy is
 * refused with -EBUSY and frees nothing; after km_sched_free() it goes. */
static void pin_and_put(struct km_task *t, void *arg)
{
	struct prog *p = arg;
	struct km_page *page;

	p->ret = (int)km_get_user_pages_fast(t, p->a, 1, KM_FOLL_WRITE, &page);
	if (p->ret == 1)
		km_put_page(km_task_machine(t), page);
}

static void test_destroy_refused_while_sched_alive(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup_cfg(a15) */
	struct km_machine *m = f.m;
	struct km_mm *mm = f.mm;
	struct km_task *t = f.t;
	struct km_sched *s;
	struct prog p = { 0 };
	char byte = 1;

	km_task_switch(NULL);	/* the scheduler runs the task */
	assert_int_equal(km_mmap(mm, 0, 4096, KM_PROT_READ | KM_PROT_WRITE, &p.a), 0);
	assert_int_equal(km_user_access(t, p.a, &byte, 1, true), 1);
	assert_int_equal(km_sched_new(m, &s), 0);
	assert_int_equal(km_sched_add(s, t, "driver", pin_and_put, &p), 0);
	assert_int_equal(km_sched_run_until(s, t, KM_IP_AFTER_PIN, 1), KM_SCHED_AT_POINT);
	assert_int_equal(km_machine_destroy(m), -EBUSY);
	assert_non_null(strstr(km_last_error(), "km_sched_free() it first"));
	assert_int_equal(km_report_count(m, KM_R_NONE), 0);	/* nothing checked */
	assert_int_equal(km_sched_free(s), 0);	/* the task's put runs on a live machine */
	assert_int_equal(p.ret, 1);
	/* km_fixture_teardown(): km_task_free(t), the destroy succeeds */
}

/* km_sched_run_until()'s -EINVAL names the bad value and the valid range
 * (it said only "point 4, nth 1") */
static void test_run_until_bad_point_or_nth(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_sched *s;
	char want[128];

	km_task_switch(NULL);
	assert_int_equal(km_sched_new(f.m, &s), 0);
	assert_int_equal(km_sched_add(s, f.t, "t", nothing, NULL), 0);
	assert_int_equal(km_sched_run_until(s, f.t, KM_IP__COUNT, 1), -EINVAL);
	g_snprintf(want, sizeof(want), "point %d is not a point: the points are 0 (after_fault) "
		   "to %d (%s)", KM_IP__COUNT, KM_IP__COUNT - 1, km_ipoint_name(KM_IP__COUNT - 1));
	assert_non_null(strstr(km_last_error(), want));
	assert_int_equal(km_sched_run_until(s, f.t, (enum km_ipoint)-1, 1), -EINVAL);
	assert_non_null(strstr(km_last_error(), "point -1 is not a point"));
	assert_int_equal(km_sched_run_until(s, f.t, KM_IP_AFTER_PIN, 0), -EINVAL);
	assert_non_null(strstr(km_last_error(),
			       "nth 0: it counts the hits of after_pin from 1 (the next one)"));
	assert_int_equal(km_sched_free(s), 0);
}

/* ---- livelocks: every fault undone before its retry ----------------------- */

/* madvise(MADV_DONTNEED) of the page at every @ip: another thread that
 * drops the page each time the faulting one is about to retry */
struct dropper {
	struct km_mm *mm;
	enum km_ipoint ip;
	unsigned long page, P;
	unsigned int drops;
};

static void drop_page(struct km_task *t, enum km_ipoint ip, unsigned long addr, void *arg)
{
	struct dropper *d = arg;

	if (ip == d->ip) {
		assert_int_equal(km_madvise(d->mm, d->page, d->P, KM_MADV_DONTNEED), 0);
		d->drops++;
	}
}

/* KM_RETRY_LIMIT faults in a row, each undone at its point (gup's retry
 * point comes after the check: one drop fewer) */
static void livelock_reported(struct km_machine *m, const char *loop, unsigned int drops,
			      unsigned int want_drops)
{
	assert_int_equal(drops, want_drops);
	assert_int_equal(km_report_count(m, KM_R_LIVELOCK), 1);
	assert_int_equal(km_report_count(m, KM_R_NONE), 1);
	assert_int_equal(km_report_get(m, 0)->kind, KM_WARN);
	assert_non_null(strstr(km_report_get(m, 0)->message, loop));
	assert_string_equal(km_report_code_name(KM_R_LIVELOCK), "livelock");
	km_reports_clear(m);
}

/* A user access (km_user_access(), direct's copy, a kernel memcpy through
 * the user mapping) whose every fault is undone at KM_IP_AFTER_FAULT
 * would retry for ever, as the kernel's would until a fatal signal: the
 * model gives up after KM_RETRY_LIMIT faults with a livelock WARN and
 * fails as the path does (bytes not done; the page skipped). */
static void test_user_access_livelock(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct dropper d = { .ip = KM_IP_AFTER_FAULT };
	char buf[64] = "bytes";
	unsigned int fl;

	d.mm = f.mm;
	d.P = km_page_size(f.m);
	d.page = km_test_map(&f, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	assert_int_equal(km_interleave_hook(f.m, drop_page, &d), 0);

	assert_int_equal(km_user_access(f.t, d.page, buf, sizeof(buf), true), 0);
	livelock_reported(f.m, "user access", d.drops, KM_RETRY_LIMIT);

	d.drops = 0;
	assert_int_equal(km_copy_to_user(f.t, &km_uaccess_direct, d.page, buf, sizeof(buf)),
			 sizeof(buf));
	livelock_reported(f.m, "direct user access", d.drops, KM_RETRY_LIMIT);

	d.drops = 0;
	fl = km_uaccess_save_and_enable();
	km_kernel_memcpy((void *)(uintptr_t)d.page, buf, sizeof(buf));
	km_uaccess_restore(fl);
	livelock_reported(f.m, "kernel memcpy/memset through the user mapping", d.drops,
			  KM_RETRY_LIMIT);

	/* without the dropper the same accesses go through */
	assert_int_equal(km_interleave_hook(f.m, NULL, NULL), 0);
	assert_int_equal(km_user_access(f.t, d.page, buf, sizeof(buf), true), sizeof(buf));
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
}

/* The same at gup's retry: a forced write through /proc/self/mem into a
 * read-only private file mapping COWs, and MADV_DONTNEED drops the copy
 * before each retry; with FOLL_COW (v5.7) every retry faults again.
 * access_remote_vm() gets no page: 0 bytes written. */
static void test_gup_retry_livelock(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_file *file;
	struct dropper d = { .ip = KM_IP_GUP_RETRY };

	d.mm = f.mm;
	d.P = km_page_size(f.m);
	assert_int_equal(km_file_new(f.m, d.P, &file), 0);
	assert_int_equal(km_mmap_file(f.mm, 0, d.P, KM_PROT_READ, false, file, 0, &d.page), 0);
	assert_int_equal(km_interleave_hook(f.m, drop_page, &d), 0);
	assert_int_equal(km_access_remote_vm(f.t, f.mm, d.page, "EVIL", 4,
					     KM_FOLL_FORCE | KM_FOLL_WRITE), 0);
	livelock_reported(f.m, "__get_user_pages() retry", d.drops, KM_RETRY_LIMIT - 1);
	assert_int_equal(km_mm_locks(f.mm)->mmap_sem.readers, 0);	/* released */
	assert_int_equal(km_interleave_hook(f.m, NULL, NULL), 0);
	assert_int_equal(km_access_remote_vm(f.t, f.mm, d.page, "EVIL", 4,
					     KM_FOLL_FORCE | KM_FOLL_WRITE), 4);
	assert_int_equal(km_report_count(f.m, KM_R_NONE), 0);
	km_file_put(file);
}

struct counts {
	unsigned int n[KM_IP__COUNT];
};

static void count_points(struct km_task *t, enum km_ipoint ip, unsigned long addr, void *arg)
{
	((struct counts *)arg)->n[ip]++;
}

/* The low-level hook sees every point; it and a scheduler exclude each other. */
static void test_hook_counts_points(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct counts c = { { 0 } };
	struct km_sched *s;
	unsigned long a;
	char buf[16] = { 0 };

	a = km_test_map(&f, 0, 2, KM_PROT_READ | KM_PROT_WRITE);
	assert_int_equal(km_interleave_hook(f.m, count_points, &c), 0);
	assert_int_equal(km_sched_new(f.m, &s), -EBUSY);
	km_copy_to_user(f.t, &km_uaccess_gup_kmap_rfc, a + 4090, buf, sizeof(buf));
	assert_int_equal(c.n[KM_IP_AFTER_FAULT], 2);	/* two pages faulted in by gup */
	assert_int_equal(c.n[KM_IP_GUP_RETRY], 2);
	assert_int_equal(c.n[KM_IP_AFTER_PIN], 1);
	assert_int_equal(km_munmap(f.mm, a, 8192), 0);
	assert_int_equal(c.n[KM_IP_MUNMAP], 1);
	assert_int_equal(km_interleave_hook(f.m, NULL, NULL), 0);
	assert_string_equal(km_ipoint_name(KM_IP_GUP_RETRY), "gup_retry");
	assert_string_equal(km_ipoint_name(KM_IP__COUNT), "invalid");
}

int main(void)
{
	GArray *rows = km_test_new_group();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate_setup_teardown(test_no_switch_onto_atomic_cpu, km_fixture_setup_cfg,
							 km_fixture_teardown, (void *)&a15_2cpus),
		cmocka_unit_test_prestate_setup_teardown(test_munmap_blocks_on_gup_reader, km_fixture_setup_cfg,
							 km_fixture_teardown, (void *)&bbw),
		cmocka_unit_test_setup_teardown(test_munmap_with_reader_outside_scheduler, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_hook_counts_points, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_prestate_setup_teardown(test_destroy_refused_while_sched_alive, km_fixture_setup_cfg,
							 km_fixture_teardown, (void *)&a15),
		cmocka_unit_test_setup_teardown(test_run_until_bad_point_or_nth, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_program_cannot_drive_its_scheduler, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_user_access_livelock, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test_setup_teardown(test_gup_retry_livelock, km_fixture_setup, km_fixture_teardown),
	};

	KM_TEST_ROWS(rows, test_viro_munmap_race_bbw, NULL, NULL, viro_bbw_rows);
	KM_TEST_ROWS(rows, test_viro_munmap_race_fast_gup, viro_a15_setup, viro_teardown,
		     viro_a15_rows);
	KM_TEST_ROWS(rows, test_viro_direct_never_sees_x, NULL, NULL, viro_machines);
	KM_TEST_CASES(all, tests, rows);
	return cmocka_run_group_tests_name("test_interleave", all, NULL, NULL);
}
