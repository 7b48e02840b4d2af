// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model (kmodel/cost.h): exact cycle totals on hand-made events,
 * the bandwidth tier at the cache sizes, the link bound, every refused
 * profile with its message, the shipped profiles and their calibrated
 * values (at most three in all, each naming its figure), and the events
 * the model counts for it.
 */
#include "km_test.h"
#include <locale.h>
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* A complete profile with round numbers; %s slots let a test replace a
 * line. */
static const char *const good_lines[] = {
	"[profile]", "name=test", "summary=round numbers",
	"[cpu]", "# a test value", "clock_hz=1000",
	"[cache]", "# a test value", "l1_bytes=100", "# a test value", "l2_bytes=1000",
	"[bandwidth]",
	"# a test value", "copy_l1=4", "# a test value", "copy_l2=2", "# a test value", "copy_mem=1",
	"# a test value", "set_l1=8", "# a test value", "set_l2=4", "# a test value", "set_mem=2",
	"[cycles]",
	"# a test value", "syscalls=100", "# a test value", "page_faults=0",
	"# a test value", "cow_breaks=0", "# a test value", "pagecache_lookups=7",
	"# a test value", "pagecache_allocs=0", "# a test value", "pages_allocated=0",
	"# a test value", "pages_freed=0", "# a test value", "gup_calls=10",
	"# a test value", "gup_slow_calls=0", "# a test value", "gup_fast_pages=0",
	"# a test value", "gup_slow_pages=0", "# a test value", "follow_page_calls=0",
	"# a test value", "find_vma_calls=0", "# a test value", "mmap_sem_locks=0",
	"# a test value", "get_page_calls=0", "# a test value", "put_page_calls=0",
	"# a test value", "pt_walks=0", "# a test value", "kmap_high=0", "# a test value", "kmap_low=0",
	"# a test value", "kunmap_high=0", "# a test value", "kunmap_low=0",
	"# a test value", "tlb_flushes=3", "# a test value", "kmalloc_calls=0",
	"# a test value", "kfree_calls=0", "# a test value", "memcpy_calls=0",
	"# a test value", "memset_calls=0", "# a test value", "memmove_calls=0",
	"# a test value", "skb_allocs=0", "# a test value", "skb_clones=0",
	"# a test value", "skb_copies=0", "# a test value", "skb_frees=0",
	"# a test value", "urbs=0", "# a test value", "usb_packets=0",
	"# calibrated: a made-up figure", "eth_frames=50",
	"# a test value", "spin_locks=0", "# a test value", "pt_walks_sw=0",
	"[slab_debug]", "# a test value", "enabled=1", "# a test value", "poison_cycles_per_byte=0.5",
	"# a test value", "skb_head_bytes=10",
	"[link]", "# a test value", "wire_bits_per_s=800", "# a test value", "frame_overhead_bytes=4",
	"# a test value", "usb_bytes_per_s=200",
	NULL
};

/* Write the good profile to a temporary file, with line @find (exact)
 * replaced by @repl (NULL: dropped). Returns the path (g_free). */
static char *write_profile(const char *find, const char *repl)
{
	GString *s = g_string_new(NULL);
	char *path = NULL;
	int fd = g_file_open_tmp("kmcost-XXXXXX.ini", &path, NULL);
	bool found = find == NULL;

	assert_true(fd >= 0);
	close(fd);
	for (size_t i = 0; good_lines[i]; i++) {
		if (find && !strcmp(good_lines[i], find)) {
			found = true;
			if (repl)
				g_string_append_printf(s, "%s\n", repl);
			continue;
		}
		g_string_append_printf(s, "%s\n", good_lines[i]);
	}
	assert_true(found);
	assert_true(g_file_set_contents(path, s->str, -1, NULL));
	g_string_free(s, TRUE);
	return path;
}

static struct km_cost_profile *load_good(char **path)
{
	struct km_cost_profile *p = NULL;

	*path = write_profile(NULL, NULL);
	assert_int_equal(km_cost_profile_load(*path, &p), 0);
	return p;
}

static double item(const struct km_cost_result *r, const char *what)
{
	for (unsigned int i = 0; i < r->n_items; i++)
		if (!strcmp(r->items[i].what, what))
			return r->items[i].cycles;
	return -1;
}

/* count x cycles for each priced event, bytes / bytes-per-cycle for the
 * copies and sets, the slab-debug charge per byte: exact sums */
static void test_exact_cycles(void **state)
{
	char *path;
	struct km_cost_profile *p = load_good(&path);
	struct km_events ev = { 0 };
	struct km_cost_workload w = { .working_set = 64 };
	struct km_cost_result r;

	ev.syscalls = 3;		/* 300 */
	ev.pagecache_lookups = 2;	/* 14 */
	ev.gup_calls = 1;		/* 10 */
	ev.tlb_flushes = 5;		/* 15 */
	ev.eth_frames = 2;		/* 100 */
	ev.memcpy_bytes = 1000;		/* + memmove + skb copies: 1200 / 4 = 300 */
	ev.memmove_bytes = 100;
	ev.skb_copy_bytes = 100;
	ev.clear_bytes = 800;		/* 800 / 8 = 100 */
	ev.kmalloc_bytes = 64;		/* (64 + 64 + (1 + 1) x 10) x 0.5 = 74 */
	ev.kfree_bytes = 64;
	ev.skb_allocs = 1;
	ev.skb_frees = 1;
	ev.put_page_calls = 1000;	/* priced 0: no item */
	assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
	assert_true(r.cycles == 300 + 14 + 10 + 15 + 100 + 300 + 100 + 74);
	assert_true(r.seconds == r.cycles / 1000);
	assert_true(item(&r, "syscalls") == 300);
	assert_true(item(&r, "copy bytes") == 300);
	assert_true(item(&r, "set bytes") == 100);
	assert_true(item(&r, "slab debug") == 74);
	assert_true(item(&r, "put_page_calls") == 0);	/* 0 cycles: kept, as counted */
	assert_true(r.items[0].cycles >= r.items[r.n_items - 1].cycles);	/* largest first */
	/* an older caller's struct: the members past its size count as 0 */
	assert_int_equal(km_cost_predict_sized(p, &ev, offsetof(struct km_events, mmap_sem_locks),
					       &w, &r), 0);
	assert_true(item(&r, "syscalls") == -1);
	assert_true(r.cycles == 10 + 15 + 300 + 100 + 74);
	assert_int_equal(km_cost_predict(NULL, &ev, &w, &r), -EINVAL);
	km_cost_profile_free(p);
	g_unlink(path);
	g_free(path);
}

/* the bandwidth tier changes exactly past L1 (100) and L2 (1000) */
static void test_bandwidth_at_cache_sizes(void **state)
{
	char *path;
	struct km_cost_profile *p = load_good(&path);
	struct km_events ev = { .memcpy_bytes = 4000, .clear_bytes = 8000 };
	const struct { uint64_t ws; double copy, set; } cases[] = {
		{ 0, 1000, 1000 }, { 100, 1000, 1000 }, { 101, 2000, 2000 },
		{ 1000, 2000, 2000 }, { 1001, 4000, 4000 }, { 1 << 20, 4000, 4000 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct km_cost_workload w = { .working_set = cases[i].ws };
		struct km_cost_result r;

		assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
		assert_true(item(&r, "copy bytes") == cases[i].copy);
		assert_true(item(&r, "set bytes") == cases[i].set);
	}
	km_cost_profile_free(p);
	g_unlink(path);
	g_free(path);
}

/* the wire binds unless the USB side is slower; no [link]: no bound */
static void test_link_bound(void **state)
{
	char *path, *nolink;
	struct km_cost_profile *p = load_good(&path), *q;

	/* 10 frames of 96 bytes: (960 + 10 x 4) x 8 / 800 = 10 s on the wire;
	 * 1000 USB bytes at 200/s: 5 s -- the wire binds */
	assert_true(km_cost_link_seconds(p, 10, 960, 1000) == 10);
	/* 4000 USB bytes: 20 s -- the USB side binds */
	assert_true(km_cost_link_seconds(p, 10, 960, 4000) == 20);
	km_cost_profile_free(p);
	g_unlink(path);
	g_free(path);
	/* drop the whole [link] group */
	nolink = write_profile("[link]", "[unused]");
	assert_int_equal(km_cost_profile_load(nolink, &q), 0);
	assert_true(km_cost_link_seconds(q, 10, 960, 1000) < 0);
	km_cost_profile_free(q);
	g_unlink(nolink);
	g_free(nolink);
}

/* every refusal names the file, the group and the key */
static void test_refused(void **state)
{
	const struct {
		const char *find, *repl, *msg;
		int err;
	} cases[] = {
		{ "syscalls=100", NULL, "[cycles] syscalls: missing", -EINVAL },
		{ "syscalls=100", "syscalls=fast", "[cycles] syscalls: \"fast\" is not a number", -EINVAL },
		{ "syscalls=100", "syscalls=12x", "[cycles] syscalls: \"12x\" is not a number", -EINVAL },
		{ "syscalls=100", "syscalls=-1", "[cycles] syscalls: -1 is negative", -EINVAL },
		{ "l2_bytes=1000", "l2_bytes=nan", "[cache] l2_bytes: \"nan\" is not a number", -EINVAL },
		{ "# calibrated: a made-up figure", NULL, "[cycles] eth_frames: no comment line", -EINVAL },
		{ "# calibrated: a made-up figure", "#", "[cycles] eth_frames: no comment line", -EINVAL },
		{ "# calibrated: a made-up figure", "# calibrated:", "[cycles] eth_frames: \"calibrated:\" names no figure", -EINVAL },
		{ "clock_hz=1000", "clock_hz=0", "[cpu] clock_hz: must be above 0", -EINVAL },
		{ "copy_mem=1", "copy_mem=0", "[bandwidth] copy_mem: must be above 0", -EINVAL },
		{ "usb_bytes_per_s=200", NULL, "[link] usb_bytes_per_s: missing", -EINVAL },
		{ "name=test", NULL, "[profile] name: missing", -EINVAL },
		{ "[slab_debug]", "[slab-debug]", "[slab_debug] enabled: missing", -EINVAL },
		{ "[cpu]", "[cpu", "", -EINVAL },	/* not a key file */
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *path = write_profile(cases[i].find, cases[i].repl);
		struct km_cost_profile *p = (void *)1;

		assert_int_equal(km_cost_profile_load(path, &p), cases[i].err);
		assert_null(p);
		if (!strstr(km_last_error(), path) || !strstr(km_last_error(), cases[i].msg))
			fail_msg("case %zu: \"%s\" does not name %s and \"%s\"", i, km_last_error(),
				 path, cases[i].msg);
		g_unlink(path);
		g_free(path);
	}
	assert_int_equal(km_cost_profile_load("/nonexistent/x.ini", &(struct km_cost_profile *){ 0 }),
			 -ENOENT);
	assert_non_null(strstr(km_last_error(), "/nonexistent/x.ini"));
	assert_int_equal(km_cost_profile_load("no-such-profile", &(struct km_cost_profile *){ 0 }),
			 -ENOENT);
	assert_non_null(strstr(km_last_error(), "no-such-profile.ini"));
}

/* The shipped profiles load by name; at most three values are calibrated
 * in all of them together, each naming its figure. */
static void test_shipped_profiles(void **state)
{
	const char *names[] = { "beaglebone-white", "cortex-a15-qemu", "beagleboard-xm-debug-slab" };
	unsigned int calibrated = 0;

	g_setenv("KMODEL_PROFILE_DIR", KM_PROFILES_DIR, TRUE);
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		struct km_cost_profile *p;
		const char *g, *k, *fig;

		if (km_cost_profile_load(names[i], &p))
			fail_msg("%s: %s", names[i], km_last_error());
		assert_string_equal(km_cost_profile_name(p), names[i]);
		assert_true(km_cost_profile_value(p, "cpu", "clock_hz") > 0);
		assert_true(km_cost_profile_value(p, "cpu", "nothing") < 0);
		for (unsigned int j = 0; km_cost_profile_calibrated(p, j, &g, &k, &fig); j++) {
			assert_true(strlen(fig) > 0);
			calibrated++;
		}
		km_cost_profile_free(p);
	}
	assert_true(calibrated <= 3);
	g_unsetenv("KMODEL_PROFILE_DIR");
}

/* the events the cost model prices are counted where the kernel pays */
static void test_events_counted(void **state)
{
	struct km_fixture f;
	struct km_events ev;
	struct km_page *pg[2];
	unsigned char buf[64] = { 0 };
	unsigned long a;
	void *k, *obj;

	km_fixture_up(&f, NULL);
	a = km_test_map(&f, 0, 2, KM_PROT_READ | KM_PROT_WRITE);
	km_events_reset(f.m);
	km_syscall(f.t);
	assert_int_equal(km_get_user_pages_fast(f.t, a, 2, KM_FOLL_WRITE, pg), 2);
	k = km_kmap_atomic(f.t, pg[0]);
	km_kunmap_atomic(f.t, k);
	km_put_page(f.m, pg[0]);
	km_put_page(f.m, pg[1]);
	assert_int_equal(km_copyout(f.t, &km_uaccess_direct, a, buf, 64), 0);
	assert_int_equal(km_copyin(f.t, &km_uaccess_direct, buf, a, 32), 0);
	assert_int_equal(km_clear_user_with(f.t, &km_uaccess_direct, a, 16), 0);
	obj = km_kmalloc(f.t, 100, KM_GFP_KERNEL);
	km_kfree(f.t, obj);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.syscalls, 1);
	assert_int_equal(ev.gup_slow_calls, 1);	/* no fast gup: all slow */
	assert_int_equal(ev.mmap_sem_locks, 1);
	assert_int_equal(ev.find_vma_calls, 1);	/* faultin_page() reuses the vma */
	assert_int_equal(ev.follow_page_calls, 4);	/* each page: miss, fault, retry */
	assert_int_equal(ev.get_page_calls, 2);
	assert_int_equal(ev.kmap_low, 1);
	assert_int_equal(ev.kunmap_low, 1);
	assert_int_equal(ev.uaccess_to_bytes, 64);
	assert_int_equal(ev.uaccess_from_bytes, 32);
	assert_int_equal(ev.uaccess_clear_bytes, 16);
	assert_int_equal(ev.memcpy_calls, 2);
	assert_int_equal(ev.memset_calls, 1 + 2);	/* clear_user + two zeroed new pages */
	assert_int_equal(ev.kmalloc_class[7], 1);	/* 100 bytes: kmalloc-128 */
	km_fixture_down(&f);
}

/* the host profile that kmodel-bench calibrate writes loads as a profile:
 * every key present, numeric, sourced; none calibrated */
static void test_calibrate_host(void **state)
{
	char *path = NULL;
	int fd = g_file_open_tmp("kmhost-XXXXXX.ini", &path, NULL);
	struct km_cost_profile *p;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(km_cost_calibrate_host(path), 0);
	if (km_cost_profile_load(path, &p))
		fail_msg("%s", km_last_error());
	assert_string_equal(km_cost_profile_name(p), "host");
	assert_true(km_cost_profile_value(p, "bandwidth", "copy_l1") > 0);
	assert_true(km_cost_profile_value(p, "cycles", "kmalloc_calls") > 0);
	assert_false(km_cost_profile_calibrated(p, 0, NULL, NULL, NULL));
	km_cost_profile_free(p);
	assert_int_equal(km_cost_calibrate_host("/nonexistent/dir/host.ini"), -ENOENT);
	g_unlink(path);
	g_free(path);
}

/* A profile written under a locale whose decimal point is a comma (de_DE:
 * "copy_mem=33,3020", which the loader refuses) reads back:
 * km_cost_calibrate_host() writes numbers in the C locale's notation
 * whatever LC_NUMERIC is. ctest provides the locale (LOCPATH,
 * KM_TEST_COMMA_LOCALE: tests/comma_locale.sh); without it, skipped. */
static void test_calibrate_comma_locale(void **state)
{
	const char *name = g_getenv("KM_TEST_COMMA_LOCALE");
	char *path = NULL, *text = NULL;
	struct km_cost_profile *p;
	GRegex *comma = g_regex_new("^[a-z0-9_]+=-?[0-9]+,[0-9]", G_REGEX_MULTILINE, 0, NULL);
	int fd, err;

	if (!name || !setlocale(LC_NUMERIC, name) || strcmp(localeconv()->decimal_point, ",")) {
		setlocale(LC_NUMERIC, "C");
		g_regex_unref(comma);
		skip();
	}
	fd = g_file_open_tmp("kmhost-XXXXXX.ini", &path, NULL);
	assert_true(fd >= 0);
	close(fd);
	err = km_cost_calibrate_host(path);
	if (!err)
		err = km_cost_profile_load(path, &p);
	setlocale(LC_NUMERIC, "C");
	if (err)
		fail_msg("%s", km_last_error());
	assert_true(km_cost_profile_value(p, "bandwidth", "copy_mem") > 0);
	km_cost_profile_free(p);
	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	assert_false(g_regex_match(comma, text, 0, NULL));
	g_regex_unref(comma);
	g_free(text);
	g_unlink(path);
	g_free(path);
}

/* the counters' names follow struct km_events member by member */
static void test_event_names(void **state)
{
	struct km_events ev;
	const struct { const char *name; uint64_t *field; } probe[] = {
		{ "gup_calls", &ev.gup_calls }, { "usb_bytes", &ev.usb_bytes },
		{ "syscalls", &ev.syscalls }, { "eth_bytes", &ev.eth_bytes },
		{ "kmalloc_class_0", &ev.kmalloc_class[0] }, { "kmalloc_class_15", &ev.kmalloc_class[15] },
	};

	for (size_t j = 0; j < G_N_ELEMENTS(probe); j++) {
		size_t i = 0;

		while (km_events_field_name(i) && strcmp(km_events_field_name(i), probe[j].name))
			i++;
		assert_non_null(km_events_field_name(i));
		assert_ptr_equal(km_events_field(&ev, i), probe[j].field);
	}
	assert_null(km_events_field_name(KM_EVENTS_NFIELDS));
	assert_null(km_events_field(&ev, KM_EVENTS_NFIELDS));
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_cycles),
		cmocka_unit_test(test_bandwidth_at_cache_sizes),
		cmocka_unit_test(test_link_bound),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_shipped_profiles),
		cmocka_unit_test(test_events_counted),
		cmocka_unit_test(test_calibrate_host),
		cmocka_unit_test(test_calibrate_comma_locale),
		cmocka_unit_test(test_event_names),
	};

	return cmocka_run_group_tests_name("test_cost", tests, NULL, NULL);
}
