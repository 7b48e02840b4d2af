// SPDX-License-Identifier: GPL-2.0
/* The variant registry and its GModule plugin loader: kmodel/registry.h. */
#define _GNU_SOURCE	/* dladdr() */
#include <kmodel/kmodel.h>
#include <errno.h>
#include <glib.h>
#include <stddef.h>
#include <string.h>
#include <kmodel/registry.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <gmodule.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One per copy of libkmodel in the process: a registry records the copy
 * that made it, and only that copy may add to it. */
static const char instance;

enum kind { UACCESS, USBNET, NR_KINDS };

struct entry {
	const void *variant;
	const char *origin;	/* "builtin", "program" or a struct plugin's path */
	const void *given;	/* the caller's ops where @variant is their completed copy */
	char *fallbacks;	/* what it leaves to direct's (km_uaccess_fallbacks()) */
};

struct plugin {
	GModule *module;
	char *path;
	unsigned int kernel_version;	/* its layer's KMODEL_KERNEL_VERSION, 0: none */
};

struct km_registry {
	const void *instance;
	GArray *entries[NR_KINDS];	/* struct entry, in the order added */
	GPtrArray *list[NR_KINDS];	/* the variants, NULL-terminated */
	GPtrArray *plugins;		/* struct plugin * */
	GPtrArray *owned;		/* completed uaccess ops and their fallback texts */
	const char *origin;		/* of what is added now */
};

static const char *const builtin = "builtin", *const program = "program";

static const char *variant_name(enum kind k, const void *v)
{
	return k == UACCESS ? ((const struct km_uaccess_ops *)v)->name
			    : ((const struct km_usbnet_variant *)v)->name;
}

static const void *find(const struct km_registry *r, enum kind k, const char *name)
{
	if (!r || !name)
		return NULL;
	for (guint i = 0; i < r->entries[k]->len; i++) {
		const void *v = g_array_index(r->entries[k], struct entry, i).variant;

		if (strcmp(variant_name(k, v), name) == 0)
			return v;
	}
	return NULL;
}

/* A name the tools take on their command line (--variant a,b: comma lists,
 * no quoting) and write into CSV unquoted: letters, digits, '_', '-', '.' */
static bool usable_name(const char *name)
{
	size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				"0123456789_-.");

	return n && !name[n];
}

static int add_entry(struct km_registry *r, enum kind k, const void *v, const void *given,
		     char *fallbacks, const char *fn)
{
	struct entry e = { v, r->origin, given, fallbacks };
	const void *old;

	if (r->instance != &instance)
		return km_err(-ELIBBAD, "%s: the registry belongs to another copy of libkmodel "
			      "(a plugin linked with libkmodel.a? link libkmodel.so)", fn);
	if (!usable_name(variant_name(k, v)))
		return km_err(-EINVAL, "%s: variant name \"%s\": want letters, digits, '_', '-' "
			      "or '.' (a name --variant can give)", fn, variant_name(k, v));
	old = find(r, k, variant_name(k, v));
	if (old)
		return km_err(-EEXIST, "%s: a variant called \"%s\" is already registered (%s)",
			      fn, variant_name(k, v), km_registry_origin(r, old));
	g_array_append_val(r->entries[k], e);
	if (given && given != v) {
		g_ptr_array_add(r->owned, (gpointer)v);
		g_ptr_array_add(r->owned, fallbacks);
	}
	/* keep the list NULL-terminated: the new variant replaces the NULL */
	g_ptr_array_index(r->list[k], r->list[k]->len - 1) = (gpointer)v;
	g_ptr_array_add(r->list[k], NULL);
	return 0;
}

static int add(struct km_registry *r, enum kind k, const void *v, const char *fn)
{
	return add_entry(r, k, v, NULL, NULL, fn);
}

/* A uaccess variant with what it leaves to direct's noted; one without a
 * raw copy is held as a completed copy, so that every caller of the
 * registry's ops (kmodel-check's suite, the dd bench) can call both */
static int add_uaccess(struct km_registry *r, const struct km_uaccess_ops *ops, const char *fn)
{
	char *fallbacks = km_uaccess_fallbacks(ops);
	struct km_uaccess_ops *full = NULL;
	int err;

	if (!ops->raw_copy_from_user || !ops->raw_copy_to_user)
		full = km_uaccess_complete(ops);
	err = add_entry(r, UACCESS, full ? full : (const void *)ops, ops, fallbacks, fn);
	if (err) {
		g_free(full);
		g_free(fallbacks);
	} else if (!full) {
		g_ptr_array_add(r->owned, fallbacks);
	}
	return err;
}

int km_registry_add_uaccess(struct km_registry *r, const struct km_uaccess_ops *ops)
{
	if (!r || !ops)
		return km_err(-EINVAL, "km_registry_add_uaccess: registry or ops is NULL");
	if (ops->size < KM_UACCESS_OPS_MIN_SIZE)
		return km_err(-EINVAL, "km_registry_add_uaccess: ops->size %zu is below %zu "
			      "(initialise .size with KM_UACCESS_OPS_SIZE)",
			      ops->size, (size_t)KM_UACCESS_OPS_MIN_SIZE);
	if (!ops->name || !*ops->name)
		return km_err(-EINVAL, "km_registry_add_uaccess: ops has no name");
	if (!ops->raw_copy_from_user && !ops->raw_copy_to_user)
		return km_err(-EINVAL, "km_registry_add_uaccess: %s: raw_copy_from_user and "
			      "raw_copy_to_user are NULL (one is needed)", ops->name);
	/* what it lacks runs direct's: the registry holds a completed copy */
	return add_uaccess(r, ops, "km_registry_add_uaccess");
}

const char *km_registry_fallbacks(const struct km_registry *r, const void *variant)
{
	for (guint i = 0; r && variant && i < r->entries[UACCESS]->len; i++) {
		const struct entry *e = &g_array_index(r->entries[UACCESS], struct entry, i);

		if (e->variant == variant || e->given == variant)
			return e->fallbacks;
	}
	return NULL;
}

int km_registry_add_usbnet(struct km_registry *r, const struct km_usbnet_variant *v)
{
	int err;

	if (!r)
		return km_err(-EINVAL, "km_registry_add_usbnet: registry is NULL");
	err = km_usbnet_variant_check(v);
	if (err)
		return err;
	return add(r, USBNET, v, "km_registry_add_usbnet");
}

int km_registry_new(unsigned int flags, struct km_registry **out)
{
	struct km_registry *r;

	if (!out)
		return km_err(-EINVAL, "km_registry_new: out is NULL");
	*out = NULL;
	if (flags & ~(unsigned int)KM_REGISTRY_EMPTY)
		return km_err(-EINVAL, "km_registry_new: unknown flags %#x", flags);
	r = g_new0(struct km_registry, 1);
	r->instance = &instance;
	for (int k = 0; k < NR_KINDS; k++) {
		r->entries[k] = g_array_new(FALSE, FALSE, sizeof(struct entry));
		r->list[k] = g_ptr_array_new();
		g_ptr_array_add(r->list[k], NULL);
	}
	r->plugins = g_ptr_array_new();
	r->owned = g_ptr_array_new_with_free_func(g_free);
	r->origin = builtin;
	if (!(flags & KM_REGISTRY_EMPTY)) {
		/* the built-ins are valid and their names distinct: no error */
		for (const struct km_uaccess_ops *const *v = km_uaccess_variants(); *v; v++)
			add_uaccess(r, *v, "km_registry_new");
		for (const struct km_usbnet_variant *const *v = km_usbnet_variants(); *v; v++)
			add(r, USBNET, *v, "km_registry_new");
	}
	r->origin = program;
	*out = r;
	return 0;
}

static void plugin_free(struct plugin *p)
{
	g_module_close(p->module);
	g_free(p->path);
	g_free(p);
}

void km_registry_free(struct km_registry *r)
{
	if (!r)
		return;
	for (int k = 0; k < NR_KINDS; k++) {
		g_array_free(r->entries[k], TRUE);
		g_ptr_array_free(r->list[k], TRUE);
	}
	for (guint i = 0; i < r->plugins->len; i++)
		plugin_free(g_ptr_array_index(r->plugins, i));
	g_ptr_array_free(r->plugins, TRUE);
	g_ptr_array_free(r->owned, TRUE);
	g_free(r);
}

const struct km_uaccess_ops *const *km_registry_uaccess(const struct km_registry *r)
{
	return (const struct km_uaccess_ops *const *)r->list[UACCESS]->pdata;
}

const struct km_usbnet_variant *const *km_registry_usbnet(const struct km_registry *r)
{
	return (const struct km_usbnet_variant *const *)r->list[USBNET]->pdata;
}

const struct km_uaccess_ops *km_registry_find_uaccess(const struct km_registry *r,
						      const char *name)
{
	return find(r, UACCESS, name);
}

const struct km_usbnet_variant *km_registry_find_usbnet(const struct km_registry *r,
							const char *name)
{
	return find(r, USBNET, name);
}

const char *km_registry_origin(const struct km_registry *r, const void *variant)
{
	for (int k = 0; r && variant && k < NR_KINDS; k++)
		for (guint i = 0; i < r->entries[k]->len; i++)
			if (g_array_index(r->entries[k], struct entry, i).variant == variant ||
			    g_array_index(r->entries[k], struct entry, i).given == variant)
				return g_array_index(r->entries[k], struct entry, i).origin;
	return NULL;
}

bool km_registry_builtin(const struct km_registry *r, const void *variant)
{
	return km_registry_origin(r, variant) == builtin;
}

/* drop the entries of @origin (a failed plugin's) */
static void remove_origin(struct km_registry *r, const char *origin)
{
	for (int k = 0; k < NR_KINDS; k++) {
		for (guint i = r->entries[k]->len; i-- > 0;) {
			if (g_array_index(r->entries[k], struct entry, i).origin != origin)
				continue;
			g_array_remove_index(r->entries[k], i);
			g_ptr_array_remove_index(r->list[k], i);
		}
	}
}

/* Does the plugin define libkmodel's names itself (linked with
 * libkmodel.a)? Its calls may then bind to the program's copy by ELF
 * interposition and work by accident, or to its own (-Bsymbolic,
 * --exclude-libs) where add() refuses them: refused either way. */
static bool own_copy(GModule *module, gpointer init)
{
	gpointer sym;
	Dl_info a, b;

	return g_module_symbol(module, "km_registry_load", &sym) && sym && dladdr(sym, &a) &&
	       dladdr(init, &b) && a.dli_fbase == b.dli_fbase;
}

/* 0 if @path is a regular file: opened without blocking (open(2) of a
 * FIFO waits for a writer), then fstat(); else the error, named */
static int regular_file(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), err = 0;

	if (fd < 0 || fstat(fd, &st))
		err = km_err(-errno, "%s: %s", path, g_strerror(errno));
	else if (!S_ISREG(st.st_mode))
		err = km_err(-EINVAL, "%s: not a regular file (%s), not a plugin (a shared object)",
			     path, S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) ?
			     "a character device" : S_ISSOCK(st.st_mode) ? "a socket" :
			     "a device");
	if (fd >= 0)
		close(fd);
	return err;
}

/* kmodel_kernel_version of the plugin's files compiled through the layer
 * (<linux/version.h>), not libkmodel's own (its ports define it too) */
static unsigned int plugin_kernel_version(GModule *module)
{
	gpointer sym = NULL;
	Dl_info a, b;

	if (!g_module_symbol(module, "kmodel_kernel_version", &sym) || !sym ||
	    !dladdr(sym, &a) || !dladdr((void *)km_registry_load, &b) ||
	    a.dli_fbase == b.dli_fbase)
		return 0;
	return *(const unsigned int *)sym;
}

unsigned int km_registry_kernel_version(const struct km_registry *r, const void *variant)
{
	const char *origin = km_registry_origin(r, variant);

	for (guint i = 0; origin && i < r->plugins->len; i++) {
		const struct plugin *p = g_ptr_array_index(r->plugins, i);

		if (p->path == origin)
			return p->kernel_version;
	}
	return 0;
}

int km_registry_load(struct km_registry *r, const char *path)
{
	const unsigned int *abi;
	const char *origin;
	int (*init)(struct km_registry *);
	struct plugin *p;
	int err;

	if (!r || !path)
		return km_err(-EINVAL, "km_registry_load: registry or path is NULL");
	/* GModule retries a name it cannot open with ".so" appended, and
	 * quotes that: "" and a directory were "cannot load: .so", "/tmp.so" */
	if (!*path)
		return km_err(-EINVAL, "km_registry_load: an empty path");
	if (strchr(path, '/') && access(path, F_OK) != 0)
		return km_err(-ENOENT, "%s: no such file", path);
	if (strchr(path, '/') && g_file_test(path, G_FILE_TEST_IS_DIR))
		return km_err(-EISDIR, "%s: a directory, not a plugin (a shared object)", path);
	/* dlopen() of a FIFO blocks in open(2) until a writer comes */
	if (strchr(path, '/') && (err = regular_file(path)))
		return err;
	p = g_new0(struct plugin, 1);
	p->path = g_strdup(path);
	/* LOCAL: plugins do not see each other's symbols; all see libkmodel's */
	p->module = g_module_open(path, G_MODULE_BIND_LOCAL);
	if (!p->module) {
		err = km_err(-ELIBBAD, "%s: cannot load: %s", path, g_module_error());
		g_free(p->path);
		g_free(p);
		return err;
	}
	if (!g_module_symbol(p->module, "kmodel_plugin_init", (gpointer *)&init) || !init) {
		err = km_err(-ENOEXEC, "%s: no kmodel_plugin_init (define it with KM_PLUGIN_INIT)",
			     path);
		goto fail;
	}
	if (!g_module_symbol(p->module, "kmodel_plugin_abi", (gpointer *)&abi) || !abi ||
	    *abi != KM_PLUGIN_ABI) {
		err = km_err(-ENOEXEC, "%s: built for plugin ABI %d, this libkmodel has %d", path,
			     abi ? (int)*abi : -1, KM_PLUGIN_ABI);
		goto fail;
	}
	if (own_copy(p->module, (gpointer)init)) {
		err = km_err(-ELIBBAD, "%s: has a copy of libkmodel of its own (linked with "
			     "libkmodel.a?): a plugin shares the program's libkmodel.so "
			     "(pkg-config --libs kmodel)", path);
		goto fail;
	}
	/* the same file under another path is the same handle (dlopen()
	 * counts references): its entry point would add its variants again;
	 * one whose entry point is running loads itself, which without
	 * this check recursed until the stack overflowed */
	for (guint i = 0; i < r->plugins->len; i++) {
		const struct plugin *q = g_ptr_array_index(r->plugins, i);

		if (q->module == p->module) {
			err = km_err(-EEXIST, "%s: this plugin is already %s (as %s): "
				     "load it once", path, q == r->plugins->pdata[r->plugins->len - 1]
				     && r->origin == q->path ? "being loaded" : "loaded", q->path);
			goto fail;
		}
	}
	origin = r->origin;
	r->origin = p->path;
	g_ptr_array_add(r->plugins, p);	/* seen by a nested load of the same file */
	km_set_error("%s", "");	/* a message from the entry point, not a stale one */
	err = init(r);
	r->origin = origin;
	g_ptr_array_remove(r->plugins, p);
	if (err) {
		gchar *why;

		if (err > 0)
			err = -EINVAL;
		/* an entry point that fails without saying why:
		 * the errno's text; -ELIBBAD with no message here is add()'s
		 * refusal written into the error buffer of the other copy of
		 * libkmodel the plugin's calls reached */
		if (*km_last_error())
			why = g_strdup(km_last_error());
		else if (err == -ELIBBAD)
			why = g_strdup("its calls reached another copy of libkmodel (plugin "
				       "linked with libkmodel.a? static program without -rdynamic?)");
		else
			why = g_strdup(g_strerror(-err));
		remove_origin(r, p->path);
		km_err(err, "%s: kmodel_plugin_init failed (%d): %s", path, err, why);
		g_free(why);
		goto fail;
	}
	p->kernel_version = plugin_kernel_version(p->module);
	g_ptr_array_add(r->plugins, p);
	return 0;
fail:
	plugin_free(p);
	return err;
}
