/* SPDX-License-Identifier: GPL-2.0 */
/*
 * km_tool.h - what every libkmodel command-line tool does the same way
 * (private to the build; a target gets it from kmodel_tool() in
 * cmake/KmodelTool.cmake): the locale, and the --version text that help2man
 * turns into the man page's header.
 */
#ifndef KM_TOOL_H
#define KM_TOOL_H

#include <json-glib/json-glib.h>
#include <math.h>
#include <kmodel/machine.h>
#include <kmodel/registry.h>
#include <kmodel/version.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The tools' one message for a name that is none of @known (@n names;
 * @what: "uaccess variant", "machine", ...):
 * `PROG: unknown WHAT "NAME"; known: a b c` */
static inline void km_tool_unknown(const char *prog, const char *what, const char *name,
				   const char *const *known, size_t n)
{
	fprintf(stderr, "%s: unknown %s \"%s\"; known:", prog, what, name);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, " %s", known[i]);
	fputc('\n', stderr);
}

/* km_tool_unknown() for a variant of @reg: uaccess (@usbnet false) or usbnet */
static inline void km_tool_unknown_variant(const char *prog, const struct km_registry *reg,
					   bool usbnet, const char *name)
{
	GPtrArray *known = g_ptr_array_new();

	if (usbnet)
		for (const struct km_usbnet_variant *const *v = km_registry_usbnet(reg); *v; v++)
			g_ptr_array_add(known, (gpointer)(*v)->name);
	else
		for (const struct km_uaccess_ops *const *v = km_registry_uaccess(reg); *v; v++)
			g_ptr_array_add(known, (gpointer)(*v)->name);
	km_tool_unknown(prog, usbnet ? "usbnet variant" : "uaccess variant", name,
			(const char *const *)known->pdata, known->len);
	g_ptr_array_free(known, TRUE);
}

/* The names of a repeatable, comma-separated list option --@option (@opt
 * as GOption fills it: NULL when not given), each stripped, into *@out
 * (g_strfreev(); NULL when not given: the caller's default). An empty
 * list or an empty name in it ("", "a,", " , ") selects nothing, a vacuous
 * run that exits 0: -1 after printing
 * `PROG: --OPTION "LIST": an empty name (want NAME[,NAME]...)`. */
static inline int km_tool_split_names(const char *prog, const char *option, char **opt,
				      char ***out)
{
	GPtrArray *a;

	*out = NULL;
	if (!opt)
		return 0;
	a = g_ptr_array_new();
	for (char **v = opt; *v; v++) {
		gchar **names = g_strsplit(*v, ",", -1);

		for (gchar **name = names; *name; name++)
			g_ptr_array_add(a, g_strdup(g_strstrip(*name)));
		if (!*names || g_strv_contains((const gchar *const *)names, "")) {
			fprintf(stderr, "%s: --%s \"%s\": an empty name (want NAME[,NAME]...)\n",
				prog, option, *v);
			g_strfreev(names);
			g_ptr_array_set_free_func(a, g_free);
			g_ptr_array_free(a, TRUE);
			return -1;
		}
		g_strfreev(names);
	}
	g_ptr_array_add(a, NULL);
	*out = (char **)g_ptr_array_free(a, FALSE);
	return 0;
}

/* The value of a --kmap-strict option (enum km_kmap_strict, kmodel/machine.h):
 * "off" (also when not given), "strict" or "force-map"; else -1 after
 * printing `PROG: --OPTION: want off, strict or force-map, got "ARG"`. */
static inline int km_tool_kmap_strict(const char *prog, const char *option, const char *arg,
				      enum km_kmap_strict *out)
{
	static const char *const names[] = {
		[KM_KMAP_STRICT_OFF] = "off",
		[KM_KMAP_STRICT] = "strict",
		[KM_KMAP_STRICT_FORCE_MAP] = "force-map",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
		if (!arg || !strcmp(arg, names[i])) {
			*out = arg ? (enum km_kmap_strict)i : KM_KMAP_STRICT_OFF;
			return 0;
		}
	fprintf(stderr, "%s: --%s: want off, strict or force-map, got \"%s\"\n", prog, option, arg);
	return -1;
}

/* The kmap era of code compiled through the layer at @kernel_version
 * (KMODEL_KERNEL_VERSION; 0: not through the layer): kmap_local_page()
 * machines from 5.11 (mm/highmem.c, v5.11), kmap_atomic() ones before,
 * when no --kmap option says. */
static inline bool km_tool_kmap_local(unsigned int kernel_version)
{
	return kernel_version >= ((5u << 16) | (11u << 8));
}

/* The --version entry of a tool's GOptionEntry table. */
#define KM_TOOL_VERSION_ENTRY(flag) \
	{ "version", 0, 0, G_OPTION_ARG_NONE, (flag), "Print the version and exit", NULL }

/* First thing in main(): the user's locale, so GOption's --help and glib's
 * messages print in the terminal's charset (and translated, where glib is);
 * but numbers in the C locale's notation (LC_NUMERIC "C"): the tables, CSV,
 * JSON and plot data are read by programs, and a decimal comma (de_DE)
 * would split a CSV field in two. */
static inline void km_tool_init(void)
{
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
}

/* The --version text on stdout. Line 1, "PROG (libkmodel) VERSION", is
 * the GNU form help2man reads; the library's version is that of the
 * libkmodel linked at run time. */
static inline void km_tool_print_version(const char *prog)
{
	const char *describe = km_version_describe();

	printf("%s (libkmodel) %s\n", prog, km_version());
	if (*describe)
		printf("Built from git %s.\n", describe);
	printf("License GPL-2.0: GNU GPL version 2 <https://www.gnu.org/licenses/old-licenses/gpl-2.0.html>.\n"
	       "This is free software: you are free to change and redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n");
}

/* The --variant (-v) entry, spelled the same in every tool that runs
 * ported code: repeatable, each a comma list (km_tool_split_names()); a
 * name the registry lacks exits 2 with km_tool_unknown()'s message.
 * @what: the help's first words, which variants and what for. */
#define KM_TOOL_VARIANT_ENTRY(names, what) \
	{ "variant", 'v', 0, G_OPTION_ARG_STRING_ARRAY, (names), \
	  what " (repeatable, or a comma list; default: all; an unknown name exits 2 naming " \
	  "the known ones)", "NAME[,NAME]" }

/* The --load entry of a tool's GOptionEntry table: plugins to load. */
#define KM_TOOL_LOAD_ENTRY(paths) \
	{ "load", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, (paths), \
	  "Load a plugin: a shared object linking libkmodel.so whose KM_PLUGIN_INIT " \
	  "entry point registers variants (kmodel/registry.h); repeatable", "PATH.so" }

/* Read the file @path (@what for messages: "shard report", ...) whole into
 * *@text (g_free()), *@len bytes: a regular file only, opened O_NONBLOCK
 * (open(2) of a FIFO blocks until a writer comes), of at most @max bytes
 * (/dev/zero reads without end). -1 after printing `PROG: PATH: why`,
 * never the file's contents. */
static inline int km_tool_read_file(const char *prog, const char *path, const char *what,
				    off_t max, gchar **text, gsize *len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	GString *buf;
	char chunk[65536];
	ssize_t r;

	*text = NULL;
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, g_strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > max) {
		fprintf(stderr, "%s: %s: %s, not a %s\n", prog, path,
			S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
			S_ISCHR(st.st_mode) ? "a character device" :
			!S_ISREG(st.st_mode) ? "not a regular file" : "too large", what);
		close(fd);
		return -1;
	}
	buf = g_string_sized_new((gsize)st.st_size);
	while ((r = read(fd, chunk, sizeof(chunk))) != 0 && buf->len <= (gsize)max) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, path, g_strerror(errno));
			close(fd);
			g_string_free(buf, TRUE);
			return -1;
		}
		g_string_append_len(buf, chunk, r);
	}
	close(fd);
	if (buf->len > (gsize)max) {	/* grew since fstat() */
		fprintf(stderr, "%s: %s: too large, not a %s\n", prog, path, what);
		g_string_free(buf, TRUE);
		return -1;
	}
	*len = buf->len;
	*text = g_string_free(buf, FALSE);
	return 0;
}

/* The deepest nesting of arrays and objects in the JSON text @s (@len
 * bytes), strings skipped, counted up to @limit + 1: json-glib's parser
 * recurses once a level, and a file nested 100000 deep overflowed the
 * stack. */
static inline unsigned int km_tool_json_depth(const char *s, gsize len, unsigned int limit)
{
	unsigned int depth = 0, deepest = 0;
	bool in_string = false;

	for (gsize i = 0; i < len && deepest <= limit; i++) {
		if (in_string) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == '"')
				in_string = false;
		} else if (s[i] == '"') {
			in_string = true;
		} else if (s[i] == '[' || s[i] == '{') {
			/* not MAX(deepest, ++depth): glib's MAX evaluates it twice */
			if (++depth > deepest)
				deepest = depth;
		} else if ((s[i] == ']' || s[i] == '}') && depth) {
			depth--;
		}
	}
	return deepest;
}

/*
 * Isolation of a user's code (a plugin's variant): @fn(@arg, @result) runs
 * in a forked child, which sends what @fn appended to @result back over a
 * pipe and exits with @fn's return. A crash (a signal; under ASan, the
 * sanitizer's exit), a loop (past @timeout seconds: SIGKILL) or an exit
 * before the whole result arrived is a failure: *@failure (g_free()) says
 * which -- "crashed: killed by signal 11 (Segmentation fault)", "timed
 * out after 5 s (killed)", ...; NULL when the child finished
 * (@timeout seconds; 0: no limit). @result then holds
 * the child's bytes (the parent's address space is the child's: the
 * layout of what @fn wrote is the caller's own).
 * Return: @fn's return as the child's exit status, or -1 (a failure).
 */
#define KM_TOOL_TIMEOUT_DEFAULT 600
typedef int (*km_tool_child_fn)(void *arg, GByteArray *result);

static inline int km_tool_isolated(double timeout, km_tool_child_fn fn, void *arg,
				   GByteArray *result, gchar **failure)
{
	gint64 deadline = g_get_monotonic_time() + (gint64)(timeout * G_USEC_PER_SEC);
	int fds[2], status = 0;
	bool timed_out = false, eof = false;
	guint64 want = 0;
	pid_t pid;

	*failure = NULL;
	g_byte_array_set_size(result, 0);
	if (pipe(fds)) {
		*failure = g_strdup_printf("cannot isolate it: pipe: %s", g_strerror(errno));
		return -1;
	}
	fflush(stdout);		/* or the child's exit would print them again */
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		*failure = g_strdup_printf("cannot isolate it: fork: %s", g_strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		GByteArray *mine = g_byte_array_new();
		int rc;
		guint64 len;

		close(fds[0]);
		rc = fn(arg, mine);
		len = mine->len;
		/* the length first: a child that dies mid-write is told apart */
		if (write(fds[1], &len, sizeof(len)) == sizeof(len))
			for (gsize off = 0; off < mine->len;) {
				ssize_t w = write(fds[1], mine->data + off, mine->len - off);

				if (w < 0 && errno == EINTR)
					continue;
				if (w <= 0)
					_exit(126);
				off += (gsize)w;
			}
		fflush(stdout);
		fflush(stderr);
		_exit(rc & 0x7f);	/* no atexit handlers, no LSan of the parent's heap */
	}
	close(fds[1]);
	while (!eof) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		gint64 left = (deadline - g_get_monotonic_time()) / 1000;
		guint8 chunk[65536];
		ssize_t r;

		if (timeout > 0 && left <= 0) {
			timed_out = true;
			break;
		}
		r = poll(&pfd, 1, timeout > 0 ? (int)MIN(left + 1, 1000) : 1000);
		if (r < 0 && errno != EINTR)
			break;
		if (r <= 0)
			continue;
		r = read(fds[0], chunk, sizeof(chunk));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			eof = true;
		else
			g_byte_array_append(result, chunk, (guint)r);
	}
	close(fds[0]);
	if (timed_out)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (result->len >= sizeof(want))
		memcpy(&want, result->data, sizeof(want));
	if (timed_out)
		*failure = g_strdup_printf("timed out after %g s (killed)", timeout);
	else if (WIFSIGNALED(status))
		*failure = g_strdup_printf("crashed: killed by signal %d (%s)", WTERMSIG(status),
					   g_strsignal(WTERMSIG(status)));
	else if (result->len < sizeof(want) || result->len - sizeof(want) != want)
		*failure = g_strdup_printf("crashed: exited with status %d before its result "
					   "(a sanitizer's report above?)",
					   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (*failure) {
		g_byte_array_set_size(result, 0);
		return -1;
	}
	g_byte_array_remove_range(result, 0, sizeof(want));
	return WEXITSTATUS(status);
}

/* km_tool_try_load()'s job, in a child: each of @paths loaded by @load
 * (into a registry of its own), the one it is in marked in *@at (shared
 * with the parent). Its stdout goes nowhere: what a load prints is the
 * parent's to print, once. */
typedef int (*km_tool_load_fn)(struct km_registry *reg, const char *path);

struct km_tool_trial {
	char **paths;
	km_tool_load_fn load;
	int *at;
};

static inline int km_tool_trial_load(void *arg, GByteArray *result)
{
	const struct km_tool_trial *t = arg;
	struct km_registry *reg;
	int fd = open("/dev/null", O_WRONLY);

	(void)result;
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	if (km_registry_new(KM_REGISTRY_DEFAULT, &reg))
		return 0;
	for (char **p = t->paths; *p; p++) {
		*t->at = (int)(p - t->paths);
		if (t->load(reg, *p))
			break;	/* the parent's load says why */
	}
	return 0;	/* (the child exits: no dlclose(), no destructors) */
}

/* Try the load by @load of each of @paths (NULL-terminated, may be NULL)
 * in a child (km_tool_isolated(), @timeout seconds): a shared object's
 * load runs user code (its constructors; @what names it, for a plugin
 * "KM_PLUGIN_INIT, constructors"), and one that crashes or never returns
 * must be named, not kill or hang the tool. False after printing
 * "@prog: PATH: its load (@what) crashed: ..." (or "timed out ..."): the
 * tool exits 2, as for a file that fails to load. A load that fails
 * cleanly passes: the tool's own load says why. */
static inline bool km_tool_try_load(const char *prog, char **paths, const char *what,
				    km_tool_load_fn load, double timeout)
{
	int *at, none = 0;
	struct km_tool_trial t = { paths, load, &none };
	GByteArray *b;
	gchar *why;
	bool ok;

	if (!paths || !*paths)
		return true;
	at = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (at != MAP_FAILED)
		t.at = at;
	*t.at = 0;
	b = g_byte_array_new();
	km_tool_isolated(timeout, km_tool_trial_load, &t, b, &why);
	g_byte_array_free(b, TRUE);
	ok = !why;
	if (!ok)
		fprintf(stderr, "%s: %s: its load (%s) %s\n", prog, paths[*t.at], what, why);
	if (at != MAP_FAILED)
		munmap(at, sizeof(int));
	g_free(why);
	return ok;
}

/* A registry of the built-in variants and those of the plugins @load
 * (NULL-terminated, may be NULL); NULL after printing why a plugin failed
 * to load. A plugin's entry point (KM_PLUGIN_INIT) and constructors are
 * user code that runs at load: tried first in a child (km_tool_try_load(),
 * @timeout seconds), so that one that crashes or loops is named and
 * refused (the tool exits 2 as for any plugin that fails to load), never
 * the tool killed by its signal. */
static inline struct km_registry *km_tool_registry(const char *prog, char **load, double timeout)
{
	struct km_registry *reg;
	int err;
	const char *failed = NULL;

	if (!km_tool_try_load(prog, load, "KM_PLUGIN_INIT, constructors", km_registry_load,
			      timeout))
		return NULL;
	err = km_registry_new(KM_REGISTRY_DEFAULT, &reg);

	for (char **p = load; !err && p && *p; p++)
		if ((err = km_registry_load(reg, *p)))
			failed = *p;
	if (err) {
		/* a bare name is searched for as dlopen() does, not in "." */
		bool bare = failed && *failed && !strchr(failed, '/');

		fprintf(stderr, "%s: %s%s%s%s\n", prog, km_last_error(),
			bare ? " (a plugin in the current directory needs a path: --load ./" : "",
			bare ? failed : "", bare ? ")" : "");
		km_registry_free(reg);
		return NULL;
	}
	/* a plugin's variant of one raw copy runs direct's for the other: say
	 * so (what it leaves besides, clear_user and the rest, is the
	 * kernel's default there too) */
	for (const struct km_uaccess_ops *const *v = km_registry_uaccess(reg); *v; v++) {
		const char *fb = km_registry_fallbacks(reg, *v);

		if (fb && strstr(fb, "raw_copy_") && !km_registry_builtin(reg, *v))
			fprintf(stderr, "%s: uaccess variant %s (%s) runs direct's for: %s\n", prog,
				(*v)->name, km_registry_origin(reg, *v), fb);
	}
	return reg;
}

/* The machines kmodel-check's conformance suite and kmodel-kunit boot, as
 * far as a uaccess variant can tell them apart: the BeagleBone's kind (no
 * fast GUP, user pages in lowmem) and the Cortex-A15 with LPAE (fast GUP,
 * user pages in highmem), on a small RAM of their own, with
 * CONFIG_DEBUG_HIGHMEM (an out-of-order kunmap_atomic() is a BUG). */
struct km_tool_machine {
	const char *name;
	struct km_machine_config cfg;
};

/* km_tool_machine's table: *@n machines */
static inline const struct km_tool_machine *km_tool_machines(size_t *n)
{
	static const struct km_tool_machine machines[] = {
		{ "bbw", { .kmap_debug = true } },
		{ "a15", { .ram_size = 16ULL << 20, .lowmem_size = 4ULL << 20, .fast_gup = true,
			   .kmap_debug = true } },
	};

	*n = G_N_ELEMENTS(machines);
	return machines;
}

/* The --timeout entry: seconds an isolated run of a plugin's variant may take */
#define KM_TOOL_TIMEOUT_ENTRY(seconds) \
	{ "timeout", 0, 0, G_OPTION_ARG_INT, (seconds), \
	  "Seconds a plugin's variant may take for one isolated run (a forked child): " \
	  "one that takes longer, or crashes, is a failing row naming it; 0: no limit " \
	  "(default " G_STRINGIFY(KM_TOOL_TIMEOUT_DEFAULT) ")", "SECONDS" }

/* The --output entry: write the results to FILE instead of stdout. */
#define KM_TOOL_OUTPUT_ENTRY(path) \
	{ "output", 'o', 0, G_OPTION_ARG_FILENAME, (path), \
	  "Write the results to FILE instead of stdout", "FILE" }

/* Open @path for the results (NULL or "-": stdout); NULL after printing why. */
static inline FILE *km_tool_open_output(const char *prog, const char *path)
{
	FILE *fp;

	if (!path || !strcmp(path, "-"))
		return stdout;
	fp = fopen(path, "w");
	if (!fp)
		fprintf(stderr, "%s: %s: %s\n", prog, path, g_strerror(errno));
	return fp;
}

/* Close what km_tool_open_output() opened; -1 after printing a write error. */
static inline int km_tool_close_output(const char *prog, FILE *fp, const char *path)
{
	int err = fflush(fp) || ferror(fp);

	if (fp != stdout)
		err |= fclose(fp) != 0;
	if (err)
		fprintf(stderr, "%s: writing %s failed\n", prog, fp == stdout ? "stdout" : path);
	return err ? -1 : 0;
}

/* The host CPU: "model name" (x86) or "Hardware"/"CPU part" lines of
 * /proc/cpuinfo; "unknown" when there is none. g_free() it. */
static inline gchar *km_tool_cpu_model(void)
{
	gchar *text = NULL, *model = NULL;

	if (g_file_get_contents("/proc/cpuinfo", &text, NULL, NULL)) {
		gchar **lines = g_strsplit(text, "\n", -1);

		for (gchar **l = lines; *l && !model; l++) {
			gchar *colon = strchr(*l, ':');

			if (colon && (g_str_has_prefix(*l, "model name") ||
				      g_str_has_prefix(*l, "Hardware") ||
				      g_str_has_prefix(*l, "Model")))
				model = g_strdup(g_strstrip(colon + 1));
		}
		g_strfreev(lines);
		g_free(text);
	}
	return model ? model : g_strdup("unknown");
}

/* A member of the JSON object being built: a string (null when NULL), a
 * number, or a number that is null when NaN (a value the run did not
 * produce). */
static inline void km_tool_json_str(JsonBuilder *b, const char *name, const char *s)
{
	json_builder_set_member_name(b, name);
	if (s)
		json_builder_add_string_value(b, s);
	else
		json_builder_add_null_value(b);
}

static inline void km_tool_json_num(JsonBuilder *b, const char *name, double v)
{
	json_builder_set_member_name(b, name);
	json_builder_add_double_value(b, v);
}

static inline void km_tool_json_num_or_null(JsonBuilder *b, const char *name, double v)
{
	json_builder_set_member_name(b, name);
	if (isnan(v))
		json_builder_add_null_value(b);
	else
		json_builder_add_double_value(b, v);
}

/* The "metadata" member of a tool's JSON output: what was run, with what
 * and where -- libkmodel's version (headers and run time), git describe,
 * compiler, flags, LTO, host CPU, the command line. */
static inline void km_tool_json_metadata(JsonBuilder *b, const char *prog, int argc, char **argv)
{
	gchar *cpu = km_tool_cpu_model(), *cflags = g_strstrip(g_strdup(KM_TOOL_CFLAGS));

	json_builder_set_member_name(b, "metadata");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "tool");
	json_builder_add_string_value(b, prog);
	json_builder_set_member_name(b, "libkmodel_version");
	json_builder_add_string_value(b, km_version());
	json_builder_set_member_name(b, "git_describe");
	json_builder_add_string_value(b, km_version_describe());
	json_builder_set_member_name(b, "compiler");
	json_builder_add_string_value(b, KM_TOOL_COMPILER);
	json_builder_set_member_name(b, "build_type");
	json_builder_add_string_value(b, KM_TOOL_BUILD_TYPE);
	json_builder_set_member_name(b, "cflags");
	json_builder_add_string_value(b, cflags);
	json_builder_set_member_name(b, "lto");
	json_builder_add_boolean_value(b, KM_TOOL_LTO);
	json_builder_set_member_name(b, "host_cpu");
	json_builder_add_string_value(b, cpu);
	json_builder_set_member_name(b, "host_cpus_online");
	json_builder_add_int_value(b, (gint64)g_get_num_processors());
	json_builder_set_member_name(b, "command_line");
	json_builder_begin_array(b);
	for (int i = 0; i < argc; i++)
		json_builder_add_string_value(b, argv[i]);
	json_builder_end_array(b);
	json_builder_end_object(b);
	g_free(cpu);
	g_free(cflags);
}

/* The member @name of the open JSON object: an array of the strings of
 * @v (NULL-terminated; NULL: empty), e.g. the --load plugins. */
static inline void km_tool_json_strv(JsonBuilder *b, const char *name, char **v)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_array(b);
	for (char **p = v; p && *p; p++)
		json_builder_add_string_value(b, *p);
	json_builder_end_array(b);
}

/* Print the JSON document @root to @fp, pretty. */
static inline void km_tool_print_json(FILE *fp, JsonNode *root)
{
	gchar *s = json_to_string(root, TRUE);

	fputs(s, fp);
	fputc('\n', fp);
	g_free(s);
}

#endif
