/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/kunit.h - the KUnit runtime behind the compatibility layer's
 * <kunit/test.h> (include/kmodel/kernel/kunit/test.h), and the runner of
 * suites and module initcalls built as a plugin (kmodel-kunit).
 *
 * A kernel test file (lib/usercopy_kunit.c, a module_init() test such as
 * v5.7's lib/test_user_copy.c) compiles unchanged through the layer into a
 * shared object; km_kunit_module_load() opens it with GModule and finds
 * its kunit_test_suites() and module_init() functions, which the layer
 * places in the sections km_kunit_suites and km_initcalls of that object.
 * km_kunit_run() runs them on a machine: each case in a task of its own
 * with a fresh address space, current's uaccess variant the machine's
 * (km_machine_set_uaccess()), so copy_from_user() and its family run the
 * variant under test for every caller.
 *
 * The structs below are the kernel's (include/kunit/test.h, mainline),
 * with the members the layer's macros fill; they are frozen (a change is
 * an incompatible one, KM_PLUGIN_ABI).
 */
#ifndef KMODEL_KUNIT_H
#define KMODEL_KUNIT_H

#include <kmodel/machine.h>
#include <kmodel/uaccess.h>

#ifdef __cplusplus
extern "C" {
#endif

struct km_kunit;
struct km_kunit_run;

/** enum kunit_status (include/kunit/test.h, mainline) */
enum km_kunit_status { KM_KUNIT_SUCCESS, KM_KUNIT_FAILURE, KM_KUNIT_SKIPPED };

/** KUNIT_PARAM_DESC_SIZE (include/kunit/test.h, mainline) */
#define KM_KUNIT_PARAM_DESC_SIZE 128

/** struct kunit_case: a test case (KUNIT_CASE(), KUNIT_CASE_PARAM()). */
struct km_kunit_case {
	void (*run_case)(struct km_kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
	const char *module_name;
};

/** struct kunit_suite: its name, hooks and cases ({} ends them). */
struct km_kunit_suite {
	const char name[256];
	int (*suite_init)(struct km_kunit_suite *suite);
	void (*suite_exit)(struct km_kunit_suite *suite);
	int (*init)(struct km_kunit *test);
	void (*exit)(struct km_kunit *test);
	struct km_kunit_case *test_cases;
};

/** struct kunit: what a case sees (test->priv, test->param_value). */
struct km_kunit {
	void *priv;
	const char *name;
	const void *param_value;
	int param_index;
	struct km_kunit_run *run;	/* the runner's state: opaque */
};

/** enum kunit_assert_type */
enum km_kunit_assert_type { KM_KUNIT_ASSERTION, KM_KUNIT_EXPECTATION };

/**
 * km_kunit_fail() - an expectation (@type KM_KUNIT_EXPECTATION) or
 * assertion failed at @file:@line: marks @test failed and logs
 * "EXPECTATION FAILED at FILE:LINE" (or ASSERTION), @text (a
 * km_kunit_text_*() string, which this frees) and the optional message
 * @fmt (NULL: none) on a line of its own; an assertion ends the case
 * (longjmp() to the runner, as kunit_try_catch_throw() ends the kernel's
 * test thread).
 */
KM_API void km_kunit_fail(struct km_kunit *test, enum km_kunit_assert_type type,
			  const char *file, int line, char *text, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* The failure texts of lib/kunit/assert.c (mainline), as malloc()ed
 * strings for km_kunit_fail(): kunit_binary_assert_format() (an operand
 * that is the literal of its value is not repeated),
 * kunit_binary_ptr_assert_format(), kunit_binary_str_assert_format(),
 * kunit_unary_assert_format(), kunit_ptr_not_err_assert_format(),
 * kunit_mem_assert_format() (hex dumps, differing bytes in <>) and
 * kunit_fail_assert_format() (nothing but the message). */
KM_API char *km_kunit_text_binary_int(const char *left, const char *op, const char *right,
				      long long lv, long long rv);
KM_API char *km_kunit_text_binary_ptr(const char *left, const char *op, const char *right,
				      const void *lv, const void *rv);
KM_API char *km_kunit_text_binary_str(const char *left, const char *op, const char *right,
				      const char *lv, const char *rv);
KM_API char *km_kunit_text_unary(const char *cond, bool expect_true);
KM_API char *km_kunit_text_ptr_not_err(const char *text, const void *ptr);
KM_API char *km_kunit_text_mem(const char *left, const char *op, const char *right,
			       const void *lv, const void *rv, size_t size);
KM_API char *km_kunit_text_fail(void);
/** kunit_mark_skipped(): the case is skipped with the reason @fmt. */
KM_API void km_kunit_mark_skipped(struct km_kunit *test, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** kunit_try_catch_throw(): end the case now (kunit_skip(), an assertion). */
KM_API void km_kunit_abort(struct km_kunit *test) __attribute__((noreturn));
/** kunit_log(): a diagnostic line of the case ("    # " prefix in KTAP). */
KM_API void km_kunit_log(struct km_kunit *test, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** kunit_kmalloc_array()/kunit_kmalloc(): kmalloc() on current, freed by a
 *  deferred action when the case ends; NULL when kmalloc fails.
 *  kunit_kfree() frees one early. */
KM_API void *km_kunit_kmalloc(struct km_kunit *test, size_t size, unsigned int gfp);
KM_API void km_kunit_kfree(struct km_kunit *test, const void *p);
/** kunit_action_t (include/kunit/resource.h, mainline) */
typedef void(km_kunit_action_t)(void *);
/**
 * km_kunit_add_action() - kunit_add_action(): call @action(@ctx) when the
 * case ends (after its exit hook), the last added first, with
 * kunit_kmalloc() memory (freed by actions of the same list), even when an
 * assertion ended it. A NULL @action fails the case's assertion
 * (lib/kunit/resource.c, mainline). Return: 0; -EINVAL outside a case.
 */
KM_API int km_kunit_add_action(struct km_kunit *test, km_kunit_action_t *action, void *ctx);
/** kunit_remove_action(): forget the most recent (@action, @ctx), unrun. */
KM_API void km_kunit_remove_action(struct km_kunit *test, km_kunit_action_t *action,
				   void *ctx);
/** kunit_release_action(): forget the most recent (@action, @ctx) and run
 *  it now. Neither does anything when there is none. */
KM_API void km_kunit_release_action(struct km_kunit *test, km_kunit_action_t *action,
				    void *ctx);
/** kunit_vm_mmap(): vm_mmap() in the case's address space, unmapped when
 *  the case ends (the case's task owns one). 0 on failure. */
KM_API unsigned long km_kunit_vm_mmap(struct km_kunit *test, unsigned long addr,
				      unsigned long len, unsigned long prot,
				      unsigned long flag, unsigned long offset);

/** A loaded test plugin: its suites and initcalls. */
struct km_kunit_module;

/**
 * km_kunit_module_load() - open the shared object @path (GModule; a bare
 * name is searched for as dlopen() does) and find its suites
 * (kunit_test_suites()), module_init() and module_exit() functions and the
 * KMODEL_KERNEL_VERSION it was compiled with.
 * Return: 0; -EINVAL (NULL or empty argument), -ENOENT (no such file),
 * -ELIBBAD (cannot load: km_last_error() quotes the loader), -ENOEXEC (it
 * holds no suite and no module_init(): not compiled with the layer's
 * <kunit/test.h> or <linux/module.h>).
 */
KM_API int km_kunit_module_load(const char *path, struct km_kunit_module **out);
KM_API void km_kunit_module_free(struct km_kunit_module *mod);
/** The suites of @mod, in link order; their number in *@n. */
KM_API struct km_kunit_suite *const *km_kunit_module_suites(const struct km_kunit_module *mod,
							     size_t *n);
/** initcall_t: a module_init() function */
typedef int (*km_initcall_t)(void);
/** The module_init() functions of @mod (its initcalls); their number in *@n. */
KM_API const km_initcall_t *km_kunit_module_initcalls(const struct km_kunit_module *mod,
						      size_t *n);
/** KMODEL_KERNEL_VERSION of @mod's layer headers (KERNEL_VERSION(a, b, c));
 *  0 when unknown. */
KM_API unsigned int km_kunit_module_kernel_version(const struct km_kunit_module *mod);
/** km_kunit_module_name() - the name KTAP gives a module_init() test: the
 *  plugin's file name without "lib" and ".so". Belongs to @mod. */
KM_API const char *km_kunit_module_name(const struct km_kunit_module *mod);

/** One test's result: a case, a parameter of a case, or an initcall. The
 *  struct is frozen. */
struct km_kunit_result {
	const char *suite;	/**< the suite; for an initcall, the module name */
	const char *name;	/**< case name, or "module_init" */
	const char *param;	/**< the parameter's description, or NULL */
	int param_index;	/**< 1-based within its case (0: not a parameter) */
	enum km_kunit_status status;
	const char *log;	/**< KTAP diagnostic lines ("# ..." and the failure
				 *   texts), "" when none */
	const char *skip_reason; /**< "" unless skipped */
};

/**
 * km_kunit_run() - run every suite and initcall of @mod on @m with @ops as
 * the machine's uaccess variant (NULL: direct). Each case (each parameter
 * of a parameterised case) gets a task of its own on CPU 0 with a new
 * address space; init/exit hooks run around it, kunit_kmalloc() memory
 * and kunit_vm_mmap() mappings are released after it. A case fails on a
 * failed expectation or assertion, a failed init, and on every BUG report
 * its machine records while it runs (the reports are in its log); the
 * teardown checks run after each case (km_machine_check()): a leak fails
 * the case that left it. An initcall passes when it returns 0 and records
 * no BUG, then its module_exit() functions run.
 * The exit hook runs whatever init did (lib/kunit/test.c, mainline:
 * kunit_run_case_cleanup()). While it runs, the "kmodel" glib log domain
 * (the code's printk()) goes into the running test's log: one
 * km_kunit_run() at a time in a process (kmodel-kunit forks one per run).
 * @res, @nres: the results, in order (free with km_kunit_results_free()).
 * Return: the number of failures (0: all passed or skipped), or a negative
 * errno (-EINVAL for NULL arguments).
 */
KM_API int km_kunit_run(struct km_kunit_module *mod, struct km_machine *m,
			const struct km_uaccess_ops *ops, struct km_kunit_result **res,
			size_t *nres);
KM_API void km_kunit_results_free(struct km_kunit_result *res, size_t nres);

/** A test about to run: its suite (the module name for an initcall), its
 *  case ("module_init" for an initcall; "suite_init", "suite_exit" for a
 *  suite's hooks) and its parameter's description (NULL when it has
 *  none). */
typedef void (*km_kunit_progress_fn)(const char *suite, const char *name, const char *param,
				     void *arg);
/**
 * km_kunit_module_set_progress() - call @fn with @arg before each test
 * km_kunit_run() runs on @mod (NULL: none). A runner that isolates a run
 * in a child process (kmodel-kunit) records there which test was running,
 * so a crash or a hang names it, as the kernel's log names the test that
 * oopsed.
 */
KM_API void km_kunit_module_set_progress(struct km_kunit_module *mod, km_kunit_progress_fn fn,
					 void *arg);
/** A test's result, as soon as it is known: @r is valid during the call. */
typedef void (*km_kunit_result_fn)(const struct km_kunit_result *r, void *arg);
/**
 * km_kunit_module_set_result() - call @fn with @arg after each test
 * km_kunit_run() runs on @mod, with the result it adds to its array (NULL:
 * none). A runner that isolates a run in a child process (kmodel-kunit)
 * streams them to its parent there, so the tests that ended before a crash
 * or a hang are still reported, as the kernel's log keeps the lines KUnit
 * printed before an oops.
 */
KM_API void km_kunit_module_set_result(struct km_kunit_module *mod, km_kunit_result_fn fn,
				       void *arg);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_KUNIT_H */
