// SPDX-License-Identifier: GPL-2.0
/*
 * Interleaving points and the deterministic scheduler (kmodel/interleave.h).
 *
 * A point fires km_ipoint() on the modelled path; when a hook or a
 * scheduler is armed on the machine it calls km_ipoint_fire(). The
 * scheduler gives each task's program a host thread and lets exactly one
 * of them -- or the controller, the thread that called km_sched_*() --
 * run at a time: a handoff under one mutex (GMutex/GCond), so the machine
 * is still driven by one thread at a time and every write is seen by the
 * next thread to run. A task stops at the point its script names (the
 * hook waits there for the controller), at the end of its program, or
 * when it needs mmap_sem for write while a stopped task holds it for read
 * (km_mmap_write_lock()). Simplification: mmap_sem is a reader count; a
 * writer only waits for readers to leave (no writer is ever waited for,
 * since no point lies inside a writer's section).
 */
#include "mm_internal.h"
#include <kmodel/interleave.h>

enum task_state { T_NEW, T_RUNNING, T_STOPPED, T_BLOCKED, T_DONE };

struct sched_task {
	struct km_sched *s;
	struct km_task *t;
	char *name;
	void (*fn)(struct km_task *t, void *arg);
	void *arg;
	GThread *thread;
	enum task_state state;
	/* the stop the script asked for: at @stop_ip after @stop_left more hits */
	bool stop_armed;
	enum km_ipoint stop_ip;
	unsigned int stop_left;
	unsigned int hits[KM_IP__COUNT];
};

/* the interleaving points' state on a machine (m->interleave): a hook
 * (km_interleave_hook()) or a scheduler (km_sched_new()), never both; the
 * machine's ip_armed says whether either is set, read inline at every
 * point (mm_internal.h km_ipoint()) */
struct km_interleave_state {
	void (*hook)(struct km_task *t, enum km_ipoint ip, unsigned long addr, void *arg);
	void *hook_arg;
	struct km_sched *sched;
};

int km_interleave_init(struct km_machine *m)
{
	m->interleave = g_try_new0(struct km_interleave_state, 1);
	return m->interleave ? 0 : km_err(-ENOMEM, "interleave: no host memory for its state");
}

void km_interleave_fini(struct km_machine *m)
{
	g_free(m->interleave);
	m->interleave = NULL;
	m->ip_armed = false;
}

bool km_interleave_busy(const struct km_machine *m)
{
	return m->interleave && m->interleave->sched;
}

struct km_sched {
	struct km_machine *m;
	GMutex lock;
	GCond cond;
	GPtrArray *tasks;		/* struct sched_task *, in the order added */
	struct sched_task *running;	/* the one allowed to run; NULL: the controller */
	GString *trace;
};

static const char *const ip_names[KM_IP__COUNT] = {
	[KM_IP_AFTER_FAULT] = "after_fault",
	[KM_IP_GUP_RETRY] = "gup_retry",
	[KM_IP_AFTER_PIN] = "after_pin",
	[KM_IP_MUNMAP] = "munmap",
};

const char *km_ipoint_name(enum km_ipoint ip)
{
	return (unsigned int)ip < KM_IP__COUNT ? ip_names[ip] : "invalid";
}

static void rearm(struct km_machine *m)
{
	m->ip_armed = m->interleave->hook || m->interleave->sched;
}

int km_interleave_hook(struct km_machine *m,
		       void (*fn)(struct km_task *t, enum km_ipoint ip, unsigned long addr, void *arg),
		       void *arg)
{
	if (!m)
		return km_err(-EINVAL, "km_interleave_hook: machine is NULL");
	if (m->interleave->sched)
		return km_err(-EBUSY, "km_interleave_hook: a scheduler drives this machine");
	m->interleave->hook = fn;
	m->interleave->hook_arg = arg;
	rearm(m);
	return 0;
}

static struct sched_task *find(const struct km_sched *s, const struct km_task *t)
{
	for (guint i = 0; s && i < s->tasks->len; i++) {
		struct sched_task *e = g_ptr_array_index(s->tasks, i);

		if (e->t == t)
			return e;
	}
	return NULL;
}

/* On @e's thread, with s->lock held: hand the machine back to the
 * controller and wait until the controller resumes @e. */
static void yield_locked(struct sched_task *e)
{
	struct km_sched *s = e->s;

	s->running = NULL;
	g_cond_broadcast(&s->cond);
	while (s->running != e)
		g_cond_wait(&s->cond, &s->lock);
	e->state = T_RUNNING;
}

/* A point reached by the running task @e */
static void sched_point(struct sched_task *e, enum km_ipoint ip, unsigned long addr)
{
	struct km_sched *s = e->s;

	g_mutex_lock(&s->lock);
	e->hits[ip]++;
	g_string_append_printf(s->trace, "%s: at %s 0x%lx (%u)\n", e->name, ip_names[ip], addr,
			       e->hits[ip]);
	if (e->stop_armed && e->stop_ip == ip && --e->stop_left == 0) {
		e->stop_armed = false;
		e->state = T_STOPPED;
		g_string_append_printf(s->trace, "%s: stops\n", e->name);
		yield_locked(e);
		g_string_append_printf(s->trace, "%s: resumes\n", e->name);
	}
	g_mutex_unlock(&s->lock);
}

void km_ipoint_fire(struct km_machine *m, struct km_task *t, enum km_ipoint ip,
		    unsigned long addr)
{
	struct km_sched *s = m->interleave->sched;

	if (m->interleave->hook)
		m->interleave->hook(t, ip, addr, m->interleave->hook_arg);
	/* only the task the scheduler let run stops; a point that another
	 * task object reaches on its thread (none today) passes */
	if (s && t && s->running && s->running->t == t)
		sched_point(s->running, ip, addr);
}

void km_mmap_write_lock(struct km_mm *mm, const char *what)
{
	struct km_machine *m = mm->m;
	struct km_sched *s = m->interleave->sched;
	struct km_task *cur = km_current_task;
	struct sched_task *e = s ? s->running : NULL;

	while (mm->locks.mmap_sem.readers > 0) {
		if (!e || e->t != cur) {
			km_report(m, KM_BUG, KM_R_LOCK,
				  "%s: down_write(&mm->mmap_sem) with %d reader(s): the caller would "
				  "wait for them (for ever if it is one of them)", what,
				  mm->locks.mmap_sem.readers);
			return;
		}
		g_mutex_lock(&s->lock);
		e->state = T_BLOCKED;
		g_string_append_printf(s->trace, "%s: blocks in %s (mmap_sem: %d reader(s))\n",
				       e->name, what, mm->locks.mmap_sem.readers);
		yield_locked(e);
		g_string_append_printf(s->trace, "%s: resumes\n", e->name);
		g_mutex_unlock(&s->lock);
	}
}

int km_sched_new(struct km_machine *m, struct km_sched **out)
{
	struct km_sched *s;

	if (!m || !out)
		return km_err(-EINVAL, "km_sched_new: machine or out is NULL");
	if (m->interleave->sched || m->interleave->hook)
		return km_err(-EBUSY, "km_sched_new: the machine's points are taken");
	s = g_new0(struct km_sched, 1);
	s->m = m;
	g_mutex_init(&s->lock);
	g_cond_init(&s->cond);
	s->tasks = g_ptr_array_new();
	s->trace = g_string_new(NULL);
	m->interleave->sched = s;
	rearm(m);
	*out = s;
	return 0;
}

int km_sched_add(struct km_sched *s, struct km_task *t, const char *name,
		 void (*fn)(struct km_task *t, void *arg), void *arg)
{
	struct sched_task *e;

	if (!s || !t || !fn || !name)
		return km_err(-EINVAL, "km_sched_add: scheduler, task, name or program is NULL");
	if (t->m != s->m)
		return km_err(-EINVAL, "km_sched_add: task of another machine");
	if (find(s, t))
		return km_err(-EEXIST, "km_sched_add: task %s has a program already",
			      find(s, t)->name);
	e = g_new0(struct sched_task, 1);
	e->s = s;
	e->t = t;
	e->name = g_strdup(name);
	e->fn = fn;
	e->arg = arg;
	g_ptr_array_add(s->tasks, e);
	return 0;
}

static gpointer task_thread(gpointer data)
{
	struct sched_task *e = data;
	struct km_sched *s = e->s;

	g_mutex_lock(&s->lock);
	while (s->running != e)
		g_cond_wait(&s->cond, &s->lock);
	g_mutex_unlock(&s->lock);
	km_task_switch(e->t);
	e->fn(e->t, e->arg);
	km_task_switch(NULL);
	g_mutex_lock(&s->lock);
	e->state = T_DONE;
	g_string_append_printf(s->trace, "%s: returns\n", e->name);
	s->running = NULL;
	g_cond_broadcast(&s->cond);
	g_mutex_unlock(&s->lock);
	return NULL;
}

/* Could the kernel switch to @e now? Not onto a CPU whose stopped or
 * blocked task is in atomic context (preemption disabled). */
static struct sched_task *atomic_on_cpu(struct km_sched *s, struct sched_task *e)
{
	for (guint i = 0; i < s->tasks->len; i++) {
		struct sched_task *o = g_ptr_array_index(s->tasks, i);

		if (o != e && (o->state == T_STOPPED || o->state == T_BLOCKED) &&
		    o->t->cpu == e->t->cpu && km_in_atomic(o->t))
			return o;
	}
	return NULL;
}

/* The task whose program calls into @s, or NULL on the controller. Only
 * one thread runs at a time: while a task runs (s->running set) the caller
 * is that task's program; the controller runs only while none does. */
static struct sched_task *caller_task(struct km_sched *s)
{
	struct sched_task *r;

	g_mutex_lock(&s->lock);
	r = s->running;
	g_mutex_unlock(&s->lock);
	return r;
}

/* A task's program that drives the scheduler would wait for itself (its
 * own thread is the one the handoff waits on): refused. */
static int __attribute__((cold)) from_task(struct sched_task *c, const char *fn,
					  const struct km_task *t)
{
	if (!t || c->t == t)
		return km_err(-EDEADLK, "%s: called from the program of task %s, which would "
				"wait for itself; only the controlling thread drives the scheduler",
			      fn, c->name);
	return km_err(-EINVAL, "%s: called from the program of task %s; only the "
			       "controlling thread drives the scheduler", fn, c->name);
}

static int resume(struct km_sched *s, struct km_task *t, bool stop, enum km_ipoint ip,
		  unsigned int nth)
{
	struct sched_task *e, *o, *c;
	int ret;

	if ((c = caller_task(s)))
		return from_task(c, stop ? "km_sched_run_until" : "km_sched_finish", t);
	if (!(e = find(s, t)))
		return km_err(-EINVAL, "km_sched: the task has no program on this scheduler");
	if (stop && (unsigned int)ip >= KM_IP__COUNT)
		return km_err(-EINVAL, "km_sched_run_until: point %d is not a point: the points "
			      "are 0 (%s) to %d (%s)", (int)ip, ip_names[0], KM_IP__COUNT - 1,
			      ip_names[KM_IP__COUNT - 1]);
	if (stop && nth == 0)
		return km_err(-EINVAL, "km_sched_run_until: nth 0: it counts the hits of %s from "
			      "1 (the next one)", ip_names[ip]);
	if (e->state == T_DONE)
		return KM_SCHED_DONE;
	if ((o = atomic_on_cpu(s, e)))
		return km_err(-EDEADLK, "km_sched: %s waits in atomic context (preempt_count %d) "
			      "on cpu %u: %s cannot run there", o->name, o->t->preempt_count,
			      o->t->cpu, e->name);
	g_mutex_lock(&s->lock);
	e->stop_armed = stop;
	e->stop_ip = ip;
	e->stop_left = nth;
	if (stop)
		g_string_append_printf(s->trace, "%s: run until %s (%u)\n", e->name, ip_names[ip],
				       nth);
	else
		g_string_append_printf(s->trace, "%s: run to the end\n", e->name);
	if (e->state == T_NEW) {
		e->state = T_RUNNING;
		e->thread = g_thread_new(e->name, task_thread, e);
	}
	s->running = e;
	g_cond_broadcast(&s->cond);
	while (s->running)
		g_cond_wait(&s->cond, &s->lock);
	e->stop_armed = false;
	ret = e->state == T_DONE ? KM_SCHED_DONE :
	      e->state == T_BLOCKED ? KM_SCHED_BLOCKED : KM_SCHED_AT_POINT;
	g_mutex_unlock(&s->lock);
	if (ret == KM_SCHED_DONE && e->thread) {
		g_thread_join(e->thread);
		e->thread = NULL;
	}
	return ret;
}

int km_sched_run_until(struct km_sched *s, struct km_task *t, enum km_ipoint ip, unsigned int nth)
{
	if (!s)
		return km_err(-EINVAL, "km_sched_run_until: scheduler is NULL");
	return resume(s, t, true, ip, nth);
}

int km_sched_finish(struct km_sched *s, struct km_task *t)
{
	if (!s)
		return km_err(-EINVAL, "km_sched_finish: scheduler is NULL");
	return resume(s, t, false, 0, 0);
}

unsigned int km_sched_hits(const struct km_sched *s, const struct km_task *t, enum km_ipoint ip)
{
	struct sched_task *e = find(s, t);

	return e && (unsigned int)ip < KM_IP__COUNT ? e->hits[ip] : 0;
}

const char *km_sched_trace(const struct km_sched *s)
{
	return s ? s->trace->str : "";
}

int km_sched_free(struct km_sched *s)
{
	struct sched_task *c;
	bool progress = true;

	if (!s)
		return 0;
	if ((c = caller_task(s)))
		return from_task(c, "km_sched_free", NULL);
	/* finish what is left, in order, again while a blocked one moves on */
	while (progress) {
		bool all_done = true;

		progress = false;
		for (guint i = 0; i < s->tasks->len; i++) {
			struct sched_task *e = g_ptr_array_index(s->tasks, i);
			enum task_state before = e->state;

			if (e->state == T_NEW || e->state == T_DONE)
				continue;	/* never started, or finished */
			if (km_sched_finish(s, e->t) == KM_SCHED_DONE || e->state != before)
				progress = true;
			all_done &= e->state == T_DONE;
		}
		if (all_done)
			break;
	}
	for (guint i = 0; i < s->tasks->len; i++) {
		struct sched_task *e = g_ptr_array_index(s->tasks, i);

		if (e->state != T_NEW && e->state != T_DONE)
			return km_err(-EDEADLK, "km_sched_free: %s cannot finish", e->name);
	}
	for (guint i = 0; i < s->tasks->len; i++) {
		struct sched_task *e = g_ptr_array_index(s->tasks, i);

		g_free(e->name);
		g_free(e);
	}
	s->m->interleave->sched = NULL;
	rearm(s->m);
	g_ptr_array_free(s->tasks, TRUE);
	g_string_free(s->trace, TRUE);
	g_mutex_clear(&s->lock);
	g_cond_clear(&s->cond);
	g_free(s);
	return 0;
}
