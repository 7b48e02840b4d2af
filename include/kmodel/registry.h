/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel/registry.h - the variants a program (a tool, a test, a scenario)
 * chooses from: uaccess implementations (struct km_uaccess_ops) and usbnet
 * minidrivers (struct km_usbnet_variant), the built-in ones and a user's,
 * registered by the program itself or loaded from a plugin.
 *
 * A registry is an object its caller owns, not a process global: two
 * registries in one process are independent. Adding to a registry is not
 * thread-safe; once filled, any number of threads may look it up.
 *
 * A registry holds pointers: a registered variant (and its name) must
 * outlive the registry. Plugins loaded with km_registry_load() stay loaded
 * until km_registry_free().
 *
 * Plugins. A plugin is a shared object that links libkmodel.so (pkg-config
 * --libs kmodel, or the CMake target kmodel::kmodel; never the static
 * library: a plugin must share the loading program's libkmodel, its
 * `current` and its registry) and defines its entry point with
 * KM_PLUGIN_INIT:
 *
 *	#include <kmodel/kmodel.h>
 *
 *	static const struct km_uaccess_ops my_ops = {
 *		.size = KM_UACCESS_OPS_SIZE, .name = "mine", ...
 *	};
 *
 *	KM_PLUGIN_INIT(reg)
 *	{
 *		return km_registry_add_uaccess(reg, &my_ops);
 *	}
 *
 * kmodel-check --load ./mine.so and kmodel-bench --load ./mine.so call it
 * (through km_registry_load()); --variant mine then names the variant.
 * The tools link libkmodel.so. A program of yours that loads plugins
 * should too: one linked with libkmodel.a has a copy of its own, which a
 * plugin reaches only if the program exports it (--export-dynamic, which
 * gmodule-2.0's pkg-config flags add); when the plugin's adds reach the
 * other copy, km_registry_load() fails with -ELIBBAD. A plugin linked
 * with libkmodel.a (a copy of its own, whatever its calls bind to) is
 * refused with -ELIBBAD too.
 */
#ifndef KMODEL_REGISTRY_H
#define KMODEL_REGISTRY_H

#include <kmodel/uaccess.h>
#include <kmodel/usb.h>

#ifdef __cplusplus
extern "C" {
#endif

struct km_registry;

/** The plugin ABI: km_registry_load() refuses a plugin built for another.
 *  It changes with the SONAME. */
#define KM_PLUGIN_ABI 3

/** Symbol visibility of a plugin's entry point (plugins built with
 *  -fvisibility=hidden still export it). */
#define KM_PLUGIN_EXPORT __attribute__((visibility("default")))

/**
 * KM_PLUGIN_INIT(reg) - begin a plugin's entry point,
 * `int kmodel_plugin_init(struct km_registry *reg)`, and the ABI mark
 * `kmodel_plugin_abi` beside it. The body registers the plugin's variants
 * in @reg and returns 0, or a negative errno (km_registry_load() then
 * removes what it registered and fails with that error).
 */
#define KM_PLUGIN_INIT(reg) \
	KM_PLUGIN_EXPORT const unsigned int kmodel_plugin_abi = KM_PLUGIN_ABI; \
	KM_PLUGIN_EXPORT int kmodel_plugin_init(struct km_registry *reg); \
	int kmodel_plugin_init(struct km_registry *reg)

/** Flags of km_registry_new(). */
enum km_registry_flags {
	KM_REGISTRY_DEFAULT = 0,	/**< the built-in variants, then yours */
	KM_REGISTRY_EMPTY = 1u << 0,	/**< no built-ins */
};

/**
 * km_registry_new() - a registry holding the built-in variants
 * (km_uaccess_variants(), km_usbnet_variants(), in their order) unless
 * @flags has KM_REGISTRY_EMPTY.
 * @out: receives it; the caller frees it with km_registry_free().
 * Return: 0, or -EINVAL (NULL @out, unknown flags).
 */
KM_API int km_registry_new(unsigned int flags, struct km_registry **out);

/** Free @r and unload its plugins (their variants go with them). NULL is a
 *  no-op. */
KM_API void km_registry_free(struct km_registry *r);

/**
 * km_registry_add_uaccess() - register @ops after those already in @r.
 * A name is letters, digits, '_', '-' and '.' only (the tools take it in
 * comma lists on their command line and write it into CSV). The summary
 * and source are optional (kmodel-bench --list shows a NULL summary as
 * "-"). A variant that leaves operations NULL (one raw copy, no
 * clear_user, ...) runs direct's for them: the registry then holds a
 * completed copy of @ops (km_uaccess_complete(); km_registry_uaccess()
 * lists it, km_registry_origin() knows both), and km_registry_fallbacks()
 * names what it left.
 * Return: 0; -EINVAL for a NULL argument, an @ops->size below
 * KM_UACCESS_OPS_MIN_SIZE, no name, a name of other characters (a space, a
 * comma, ...) or neither raw copy; -EEXIST when
 * @r already holds a uaccess variant of that name; -ELIBBAD when the
 * caller runs on another copy of libkmodel than the one that made @r (a
 * plugin linked with the static library). km_last_error() says which.
 */
KM_API int km_registry_add_uaccess(struct km_registry *r, const struct km_uaccess_ops *ops);

/**
 * km_registry_add_usbnet() - register the usbnet minidriver @v after those
 * already in @r. Return: 0; -EINVAL for a NULL @r, a variant that fails
 * km_usbnet_variant_check() or a name as km_registry_add_uaccess() refuses
 * it; -EEXIST for a name already held; -ELIBBAD as
 * for km_registry_add_uaccess().
 */
KM_API int km_registry_add_usbnet(struct km_registry *r, const struct km_usbnet_variant *v);

/**
 * km_registry_uaccess() - the uaccess variants of @r in the order added,
 * NULL-terminated. The array belongs to @r and stays valid until the next
 * add, load or km_registry_free().
 */
KM_API const struct km_uaccess_ops *const *km_registry_uaccess(const struct km_registry *r);
/** km_registry_usbnet() - the usbnet variants of @r, as km_registry_uaccess(). */
KM_API const struct km_usbnet_variant *const *km_registry_usbnet(const struct km_registry *r);

/** The uaccess variant of @r called @name, or NULL (NULL @r or @name too). */
KM_API const struct km_uaccess_ops *km_registry_find_uaccess(const struct km_registry *r,
							     const char *name);
/** The usbnet variant of @r called @name, or NULL. */
KM_API const struct km_usbnet_variant *km_registry_find_usbnet(const struct km_registry *r,
							       const char *name);

/**
 * km_registry_origin() - where the variant @variant (a uaccess ops table or
 * a usbnet variant registered in @r) comes from: "builtin" (compiled into
 * libkmodel: its raw copy entry is flattened, and with the release preset
 * link-time optimised, together with the model calls under it), "program"
 * (registered by the program) or the path of the plugin that registered
 * it. Code built outside libkmodel calls the model through exported
 * functions, never inlined: its timings are not comparable one to one with
 * a built-in's. NULL if @variant is not in @r. The string belongs to @r.
 */
KM_API const char *km_registry_origin(const struct km_registry *r, const void *variant);

/** km_registry_fallbacks() - the operations the uaccess variant @variant
 *  of @r (as registered, or its completed copy) runs direct's for,
 *  "raw_copy_to_user, clear_user", or NULL when none. Belongs to @r. */
KM_API const char *km_registry_fallbacks(const struct km_registry *r, const void *variant);

/** km_registry_kernel_version() - the KMODEL_KERNEL_VERSION
 *  (KERNEL_VERSION(a, b, c)) that the plugin which registered @variant
 *  compiled its kernel-style files at (the layer's <linux/version.h>
 *  exports it); 0 for a built-in, a program's variant or a plugin with no
 *  file compiled through the layer. The tools take the kmap era from it:
 *  5.11 and later run on kmap_local machines unless --kmap says. */
KM_API unsigned int km_registry_kernel_version(const struct km_registry *r, const void *variant);

/** Is @variant a built-in of libkmodel (see km_registry_origin())? */
KM_API bool km_registry_builtin(const struct km_registry *r, const void *variant);

/**
 * km_registry_load() - load the plugin @path with GModule and call its
 * entry point (KM_PLUGIN_INIT) on @r. A bare file name is searched for as
 * dlopen() does; give a path ("./mine.so") for a file in the current
 * directory. The variants it registers report @path as their origin.
 * Return: 0; -EINVAL for a NULL argument or an empty @path; -ENOENT when
 * @path does not exist; -EISDIR when it is a directory; -ELIBBAD when it cannot be loaded (its undefined symbols, not a
 * shared object: km_last_error() quotes the loader) or defines libkmodel's
 * names itself (linked with libkmodel.a); -ENOEXEC when it has
 * no kmodel_plugin_init, or was built for another KM_PLUGIN_ABI; -EEXIST
 * when @r already holds this plugin (loaded before, under any path); else
 * the entry point's error (km_last_error() quotes its message, or the
 * errno's text when it set none). On error nothing of the plugin stays in
 * @r and the plugin is unloaded.
 */
KM_API int km_registry_load(struct km_registry *r, const char *path);

#ifdef __cplusplus
}
#endif
#endif /* KMODEL_REGISTRY_H */
