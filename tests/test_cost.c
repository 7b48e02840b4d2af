// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model (kmodel/cost.h): exact cycle totals on hand-made events
 * (an event: its kernel path's instructions x CPI + its [cycles] value),
 * the bandwidth at the cache sizes, the CPU or the link binding an iperf
 * row, the predicted columns of the dd and iperf tables, every refused
 * profile and paths table with its message, the shipped profiles (their
 * calibrated values: at most three in all, each naming its figure; every
 * derived value's arithmetic adding up to it), and the events the model
 * counts for it.
 */
#include "km_test.h"
#include <locale.h>
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* The test profile's cache line, bytes: a power of two in 16 .. 256 as
 * every profile's (a machine's rule); its caches hold 100 and 1000 lines. */
#define LINE 16

/* A complete profile with round numbers; %s slots let a test replace a
 * line. */
static const char *const good_lines[] = {
	"[profile]", "name=test", "summary=round numbers",
	"[cpu]", "# a test value", "clock_hz=1000",
	"[cache]", "# a test value", "l1_bytes=1600", "# a test value", "l2_bytes=16000",
	"# a test value", "line_bytes=16",
	"[bandwidth]", "# a test value", "copy_l1=4", "# a test value", "set_l1=8",
	"[memory]", "# a test value", "read_l2_cycles=0", "# a test value", "read_mem_cycles=0",
	"# a test value", "write_mem_cycles=0",
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
	"# a test value", "urb_allocs=11", "# a test value", "usb_in_packets=0",
	"# a test value", "eth_rx_frames=13", "# a test value", "uaccess_pan_switches=17",
	"# a test value", "uaccess_range_masks=19", "# a test value", "gup_kmap_calls=0",
	"# a test value", "gup_kmap_pages=0",
	"[slab_debug]", "# a test value", "enabled=1", "# a test value", "alloc_cycles_per_byte=0.5",
	"# a test value", "free_cycles_per_byte=0.25", "# a test value", "skb_head_bytes=10",
	"[link]", "# a test value", "usb_bytes_per_s=200",
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

/* The good profile as a cmocka fixture: *state is a struct good */
struct good {
	char *path;
	struct km_cost_profile *p;
};

static int good_setup(void **state)
{
	struct good *g = g_new0(struct good, 1);

	g->p = load_good(&g->path);
	*state = g;
	return 0;
}

static int good_teardown(void **state)
{
	struct good *g = *state;

	km_cost_profile_free(g->p);
	g_unlink(g->path);
	g_free(g->path);
	g_free(g);
	return 0;
}

static double item(const struct km_cost_result *r, const char *what)
{
	for (unsigned int i = 0; i < r->n_items; i++)
		if (!strcmp(r->items[i].what, what))
			return r->items[i].cycles;
	return -1;
}

/* count x cycles for each priced event, bytes / bytes-per-cycle for the
 * copies and sets (no working set: all in L1), the slab-debug charges per
 * byte: exact sums */
static void test_exact_cycles(void **state)
{
	struct km_cost_profile *p = ((struct good *)*state)->p;	/* good_setup() */
	struct km_events ev = { 0 };
	struct km_cost_workload w = { 0 };
	struct km_cost_result r;

	ev.syscalls = 3;		/* 300 */
	ev.pagecache_lookups = 2;	/* 14 */
	ev.gup_calls = 1;		/* 10 */
	ev.tlb_flushes = 5;		/* 15 */
	ev.eth_frames = 2;		/* 100 */
	ev.urb_allocs = 1;		/* 11 */
	ev.eth_rx_frames = 1;		/* 13 */
	ev.uaccess_pan_switches = 2;	/* 34 */
	ev.uaccess_range_masks = 1;	/* 19 */
	ev.uaccess_to_bytes = 400;	/* 400 / 4 = 100 */
	ev.uaccess_from_bytes = 200;	/* 200 / 4 = 50 */
	ev.memcpy_bytes = 1000;		/* beyond the uaccess 600: 400, + memmove + skb copies */
	ev.memmove_bytes = 100;		/* = 600 / 4 = 150 */
	ev.skb_copy_bytes = 100;
	ev.clear_bytes = 800;		/* 800 / 8 = 100, of which clear_user 80 / 8 = 10 */
	ev.uaccess_clear_bytes = 80;
	ev.kmalloc_arm_bytes = 64;	/* (64 + 1 x 10) x 0.5 + (64 + 1 x 10) x 0.25 = 55.5 */
	ev.kfree_arm_bytes = 64;
	ev.kmalloc_bytes = 96;		/* the host's objects: not what the target checks */
	ev.kfree_bytes = 96;
	ev.skb_allocs = 1;
	ev.skb_frees = 1;
	ev.put_page_calls = 1000;	/* priced 0 */
	assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
	assert_true(r.cycles == 300 + 14 + 10 + 15 + 100 + 11 + 13 + 34 + 19 + 100 + 50 + 150 + 100 +
			       55.5);
	assert_true(r.seconds == r.cycles / 1000);
	assert_true(item(&r, "syscalls") == 300);
	assert_true(item(&r, "copy to user bytes") == 100);
	assert_true(item(&r, "copy from user bytes") == 50);
	assert_true(item(&r, "copy bytes") == 150);
	assert_true(item(&r, "clear user bytes") == 10);
	assert_true(item(&r, "set bytes") == 90);
	assert_true(item(&r, "slab debug") == 55.5);
	assert_true(item(&r, "put_page_calls") == 0);	/* 0 cycles: kept, as counted */
	assert_true(r.items[0].cycles >= r.items[r.n_items - 1].cycles);	/* largest first */
	/* an older caller's struct: the members past its size count as 0 */
	assert_int_equal(km_cost_predict_sized(p, &ev, offsetof(struct km_events, mmap_sem_locks),
					       &w, sizeof(w), &r, sizeof(r)), 0);
	assert_true(item(&r, "syscalls") == -1);
	assert_true(item(&r, "copy to user bytes") == -1);
	/* memcpy_bytes 1000 + 200 are all "other" copies now: 1200 / 4; the
	 * ARM bytes are past the old struct: slab debug is the skb heads' */
	assert_true(r.cycles == 10 + 15 + 300 + 100 + 7.5);
	assert_int_equal(km_cost_predict(NULL, &ev, &w, &r), -EINVAL);
	/* a newer caller's workload (its tail not read) and result (its tail
	 * zeroed); sizes below the first version refused, nothing written */
	{
		struct { struct km_cost_workload w; unsigned char tail[16]; } nw;
		struct { struct km_cost_result r; unsigned char tail[16]; } nr;
		struct km_cost_result plain;

		memset(&nw, 0xa5, sizeof(nw));
		nw.w = w;
		memset(&nr, 0xa5, sizeof(nr));
		assert_int_equal(km_cost_predict(p, &ev, &w, &plain), 0);
		assert_int_equal(km_cost_predict_sized(p, &ev, sizeof(ev), &nw.w, sizeof(nw),
						       &nr.r, sizeof(nr)), 0);
		assert_true(nr.r.cycles == plain.cycles);
		for (size_t i = sizeof(struct km_cost_result); i < sizeof(nr); i++)
			assert_int_equal(((unsigned char *)&nr)[i], 0);
		memset(&nr, 0xa5, sizeof(nr));
		assert_int_equal(km_cost_predict_sized(p, &ev, sizeof(ev), &w,
						       KM_COST_WORKLOAD_MIN_SIZE - 1, &nr.r,
						       sizeof(nr)), -EINVAL);
		assert_int_equal(km_cost_predict_sized(p, &ev, sizeof(ev), &w, sizeof(w), &nr.r,
						       KM_COST_RESULT_MIN_SIZE - 1), -EINVAL);
		for (size_t i = 0; i < sizeof(nr); i++)
			assert_int_equal(((unsigned char *)&nr)[i], 0xa5);
	}
}

/* a TCP segment's fast clone under DEBUG_SLAB: the original and its clone
 * are one skbuff_fclone_cache object of 2 x sizeof(struct sk_buff) +
 * sizeof(atomic_t) (v3.5 net/core/skbuff.c skb_init()), checked whole at
 * the original's allocation (one skb_alloc) and poisoned whole at the
 * second free (two skb_frees): alloc (10 + 10 + 4) x 0.5, free (10 + 10 +
 * 4) x 0.25 with the good profile's 10-byte head -- a head and 4 bytes
 * more on each side than the two plain heads' count */
static void test_slab_debug_fclone(void **state)
{
	struct km_cost_profile *p = ((struct good *)*state)->p;	/* good_setup() */
	struct km_events ev = { .skb_allocs = 1, .skb_clones = 1, .skb_frees = 2 };
	struct km_cost_workload w = { 0 };
	struct km_cost_result r;

	assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
	assert_true(item(&r, "slab debug") == (10 + 10 + 4) * 0.5 + (10 + 10 + 4) * 0.25);
	/* no clone: each head alone (skbuff_head_cache) */
	ev.skb_clones = 0;
	ev.skb_frees = 1;
	assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
	assert_true(item(&r, "slab debug") == 10 * 0.5 + 10 * 0.25);
}

/* clear_user's bytes: uaccess_clear_bytes counts those asked of it,
 * clear_bytes those zeroed (struct km_events); a clear_user that faults
 * part way zeroes fewer than it was asked, and only zeroed bytes cost
 * their set_l1 time (the good profile: 8 bytes a cycle) */
static void test_clear_user_short(void **state)
{
	struct km_cost_profile *p = ((struct good *)*state)->p;	/* good_setup() */
	struct km_events ev = { .clear_bytes = 40, .uaccess_clear_bytes = 80 };
	struct km_cost_workload w = { 0 };
	struct km_cost_result r;

	assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
	assert_true(item(&r, "clear user bytes") == 40 / 8.0);
	assert_true(item(&r, "set bytes") == -1);	/* none left over */
	assert_true(r.cycles == 40 / 8.0);
}

/* the good profile with [memory] replaced: stalls of @l2 and @mem cycles
 * per byte (x LINE per line), @wr per byte written */
static struct km_cost_profile *load_memory(char **path, double l2, double mem, double wr)
{
	GString *s = g_string_new(NULL);
	struct km_cost_profile *p = NULL;
	int fd = g_file_open_tmp("kmcost-XXXXXX.ini", path, NULL);

	assert_true(fd >= 0);
	close(fd);
	for (size_t i = 0; good_lines[i]; i++)
		if (!strcmp(good_lines[i], "read_l2_cycles=0"))
			g_string_append_printf(s, "read_l2_cycles=%g\n", l2 * LINE);
		else if (!strcmp(good_lines[i], "read_mem_cycles=0"))
			g_string_append_printf(s, "read_mem_cycles=%g\n", mem * LINE);
		else if (!strcmp(good_lines[i], "write_mem_cycles=0"))
			g_string_append_printf(s, "write_mem_cycles=%g\n", wr * LINE);
		else
			g_string_append_printf(s, "%s\n", good_lines[i]);
	assert_true(g_file_set_contents(*path, s->str, -1, NULL));
	g_string_free(s, TRUE);
	assert_int_equal(km_cost_profile_load(*path, &p), 0);
	return p;
}

/* the fraction of the working set's lines that miss, read off the cost of
 * copy_from_user per byte: 1/4 (the loop) + miss x 1000; @ws in lines */
static double from_user_miss(const struct km_cost_profile *p, uint64_t ws)
{
	struct km_events ev = { .uaccess_to_bytes = 1000, .uaccess_from_bytes = 1000 };
	struct km_cost_workload w = { .working_set = ws * LINE };
	struct km_cost_result r;

	assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
	return (item(&r, "copy from user bytes") / 1000 - 0.25) / 1000;
}

/*
 * The working set's lines under random replacement (kmodel/cost.h): each
 * reuse of W lines streams W lines through L1 (copy_to_user's source) and
 * 2W through L2 (its source and copy_from_user's destination), and a line
 * misses with the probability m = 1 - exp(-(streamed + W m) / C). With
 * the L2 stall alone (read_l2 1000): m1 - m2; with the memory one alone:
 * m2. The stream side costs its stall on every byte.
 */
static void test_working_set_misses(void **state)
{
	char *p1, *p2, *p3;
	struct km_cost_profile *l1only = load_memory(&p1, 1000, 0, 0);
	struct km_cost_profile *mem = load_memory(&p2, 0, 1000, 0);
	struct km_cost_profile *wr = load_memory(&p3, 0, 0, 10);
	const uint64_t ws[] = { 1, 10, 50, 100, 300, 1000, 5000 };
	double prev1 = 0, prev2 = 0;

	for (size_t i = 0; i < G_N_ELEMENTS(ws); i++) {
		double W = (double)ws[i], m2 = from_user_miss(mem, ws[i]);
		double m1 = from_user_miss(l1only, ws[i]) + m2;

		/* each is the root of its equation (L1 100 lines, L2 1000) */
		assert_true(fabs(m1 - (1 - exp(-(W + W * m1) / 100))) < 1e-9);
		assert_true(fabs(m2 - (1 - exp(-(2 * W + W * m2) / 1000))) < 1e-9);
		/* more reuse distance, more misses; L2 never misses more */
		assert_true(m1 > prev1 && m2 > prev2 && m2 <= m1);
		prev1 = m1;
		prev2 = m2;
	}
	assert_true(prev1 > 0.999 && prev2 > 0.99);	/* 5000 lines: all miss */
	/* no working set: the copies are the loop's, no stall */
	assert_true(from_user_miss(mem, 0) == 0);
	/* the stream side: copy_to_user reads every source line from memory
	 * (1000 cycles a byte), copy_from_user writes every line to memory,
	 * which drains behind the loop: the slower of 1/4 and 10 per byte;
	 * page zeroing streams too, clear_user writes the working set */
	{
		struct km_events ev = { .uaccess_to_bytes = 100, .uaccess_from_bytes = 100,
					.clear_bytes = 50, .uaccess_clear_bytes = 10 };
		struct km_cost_workload w = { .working_set = LINE };
		struct km_cost_result r;

		assert_int_equal(km_cost_predict(mem, &ev, &w, &r), 0);
		assert_true(fabs(item(&r, "copy to user bytes") - 100 * (1000 + 0.25)) < 1e-6);
		assert_int_equal(km_cost_predict(wr, &ev, &w, &r), 0);
		assert_true(fabs(item(&r, "copy from user bytes") - 100 * 10) < 1e-6);
		assert_true(fabs(item(&r, "set bytes") - 40 * 10) < 1e-6);
		assert_true(fabs(item(&r, "clear user bytes") - 10 * 0.125) < 1e-3);
		/* a working set far beyond L2: clear_user's lines are evicted
		 * (written back) as often as they are written */
		w.working_set = 100000 * LINE;
		assert_int_equal(km_cost_predict(wr, &ev, &w, &r), 0);
		assert_true(fabs(item(&r, "clear user bytes") - 10 * 10) < 1e-3);
		/* without a working set nothing streams */
		w.working_set = 0;
		assert_int_equal(km_cost_predict(wr, &ev, &w, &r), 0);
		assert_true(item(&r, "copy from user bytes") == 25 && item(&r, "set bytes") == 5);
	}
	km_cost_profile_free(l1only);
	km_cost_profile_free(mem);
	km_cost_profile_free(wr);
	for (char **p = (char *[]){ p1, p2, p3, NULL }; *p; p++) {
		g_unlink(*p);
		g_free(*p);
	}
}

/* the profile's USB host: its bytes at usb_bytes_per_s, the frames not
 * its business (the wire is the device's); an Ethernet wire: the frames
 * and their 24 bytes each of FCS, preamble and gap; no [link]: no bound */
static void test_link_bound(void **state)
{
	char *nolink;
	struct km_cost_profile *p = ((struct good *)*state)->p, *q;	/* good_setup() */
	GString *s = g_string_new(NULL);

	/* 1000 USB bytes at 200/s: 5 s, whatever the frames */
	assert_true(km_cost_usb_seconds(p, 1000) == 5);
	assert_true(km_cost_usb_seconds(NULL, 1000) < 0);
	/* 0.3.0's link (its profile had no wire keys: 100 Mbit/s, 24 bytes a
	 * frame): the USB time, or the wire's when slower */
	assert_true(km_cost_link_seconds(p, 10, 960, 1000) == 5);
	assert_true(km_cost_link_seconds(p, 99, 1e9, 1000) == (1e9 + 99 * 24) * 8 / 1e8);
	assert_true(km_cost_link_seconds(NULL, 10, 960, 1000) < 0);
	/* 10 frames of 96 bytes at 800 bit/s: (960 + 10 x 24) x 8 / 800 */
	assert_true(km_cost_wire_seconds(800, 10, 960) == 12);
	assert_true(km_cost_wire_seconds(0, 10, 960) < 0);
	assert_true(km_cost_wire_seconds(NAN, 10, 960) < 0);
	/* the whole [link] group dropped */
	for (size_t i = 0; good_lines[i] && strcmp(good_lines[i], "[link]"); i++)
		g_string_append_printf(s, "%s\n", good_lines[i]);
	{
		int fd = g_file_open_tmp("kmcost-XXXXXX.ini", &nolink, NULL);

		assert_true(fd >= 0);
		close(fd);
	}
	assert_true(g_file_set_contents(nolink, s->str, -1, NULL));
	g_string_free(s, TRUE);
	assert_int_equal(km_cost_profile_load(nolink, &q), 0);
	assert_true(km_cost_link_seconds(q, 10, 960, 1000) < 0);
	assert_true(km_cost_usb_seconds(q, 1000) < 0);
	km_cost_profile_free(q);
	g_unlink(nolink);
	g_free(nolink);
}

/* every refusal names the file, the group and the key: -EINVAL, and a
 * message naming the file and holding the row's name (the expected text)
 * unless the row gives its own @msg */
static const struct refusal {
	const char *name;	/* the message, or what it says when @msg */
	const char *find, *repl, *msg;
} refusals[] = {
	{ "[cycles] syscalls: missing", "syscalls=100", NULL, NULL },
	{ "[cycles] syscalls: \"fast\" is not a decimal number", "syscalls=100", "syscalls=fast", NULL },
	{ "[cycles] syscalls: \"12x\" is not a decimal number", "syscalls=100", "syscalls=12x", NULL },
	/* parts of a path belong in the paths table, not in a profile */
	{ "[cycles] syscalls.vfs_read: unknown key", "syscalls=100",
	  "syscalls=100\n# a part\nsyscalls.vfs_read=1", NULL },
	{ "[cycles] syscalls: \"0x10\" is not a decimal number", "syscalls=100", "syscalls=0x10", NULL },
	{ "[cycles] syscalls: \"1e\" is not a decimal number", "syscalls=100", "syscalls=1e", NULL },
	{ "[cycles] syscalls: \".\" is not a decimal number", "syscalls=100", "syscalls=.", NULL },
	{ "[cycles] syscalls: \"+5\" is not a decimal number", "syscalls=100", "syscalls=+5", NULL },
	{ "[cycles] syscalls: \"inf\" is not a decimal number", "syscalls=100", "syscalls=inf", NULL },
	{ "[cycles] syscalls: -1 is negative", "syscalls=100", "syscalls=-1", NULL },
	{ "[cache] l2_bytes: \"nan\" is not a decimal number", "l2_bytes=16000", "l2_bytes=nan", NULL },
	/* a misspelt key would otherwise be ignored */
	{ "[cycles] sycsalls: unknown key", "syscalls=100", "syscalls=100\n# a test value\nsycsalls=1", NULL },
	{ "[cpu] clock: unknown key", "clock_hz=1000", "clock_hz=1000\n# a test value\nclock=1", NULL },
	{ "[profile] owner: unknown key", "name=test", "name=test\nowner=me", NULL },
	/* the name went into reproduce --plot's gnuplot
	 * script, where a backquote ran a shell command and a newline
	 * (GKeyFile's \n) started a gnuplot one */
	{ "[profile] name: \"bb`touch PWNED2`w\": empty or a character outside A-Z a-z 0-9 . _ + -",
	  "name=test", "name=bb`touch PWNED2`w", NULL },
	{ "[profile] name: \"x\\nsystem 'touch PWN6'\\n#\": empty or a character outside",
	  "name=test", "name=x\\nsystem 'touch PWN6'\\n#", NULL },
	{ "[profile] name: \"\": empty or a character outside", "name=test", "name=", NULL },
	{ "[lnk] usb_bytes_per_s: unknown group", "[link]", "[lnk]", NULL },
	{ "[link] usb_bytes_per_s: must be above 0", "usb_bytes_per_s=200", "usb_bytes_per_s=0", NULL },
	/* the keys of 0.3.0 (read for km_cost_link_seconds()) are numbers above 0 */
	{ "[link] wire_bits_per_s: must be above 0",
	  "usb_bytes_per_s=200", "usb_bytes_per_s=200\n# a test value\nwire_bits_per_s=0", NULL },
	{ "[link] frame_overhead_bytes: -4 is negative",
	  "usb_bytes_per_s=200", "usb_bytes_per_s=200\n# a test value\nframe_overhead_bytes=-4", NULL },
	{ "[cycles] eth_frames: its comment line dropped", "# calibrated: a made-up figure", NULL,
	  "[cycles] eth_frames: no comment line" },
	{ "[cycles] eth_frames: an empty comment", "# calibrated: a made-up figure", "#",
	  "[cycles] eth_frames: no comment line" },
	{ "[cycles] eth_frames: \"calibrated:\" names no figure", "# calibrated: a made-up figure", "# calibrated:", NULL },
	{ "[cpu] clock_hz: must be above 0", "clock_hz=1000", "clock_hz=0", NULL },
	{ "[bandwidth] set_l1: must be above 0", "set_l1=8", "set_l1=0", NULL },
	{ "[cache] line_bytes: must be above 0", "line_bytes=16", "line_bytes=0", NULL },
	/* the rule of a machine's L1_CACHE_BYTES, not just > 0 */
	{ "[cache] line_bytes: 3 is not a power of two in 16 .. 256", "line_bytes=16", "line_bytes=3", NULL },
	{ "[cache] line_bytes: 8 is not a power of two in 16 .. 256", "line_bytes=16", "line_bytes=8", NULL },
	{ "[cache] line_bytes: 512 is not a power of two in 16 .. 256", "line_bytes=16", "line_bytes=512", NULL },
	{ "[cache] line_bytes: 48 is not a power of two in 16 .. 256", "line_bytes=16", "line_bytes=48", NULL },
	/* enabled is 0 or 1 (cost.h), not any number */
	{ "[slab_debug] enabled: 2 is not 0 or 1", "enabled=1", "enabled=2", NULL },
	{ "[slab_debug] enabled: 0.5 is not 0 or 1", "enabled=1", "enabled=0.5", NULL },
	/* GKeyFile keeps a repeated key's last value */
	{ "[cycles] syscalls: given twice (lines", "syscalls=100", "syscalls=100\n# again\nsyscalls=5", NULL },
	{ "[cpu] clock_hz: given twice (lines 6 and", "[link]", "[cpu]\n# a test value\nclock_hz=2000\n[link]", NULL },
	{ "[memory] write_mem_cycles: -2 is negative", "write_mem_cycles=0", "write_mem_cycles=-2", NULL },
	{ "[mem] read_l2_cycles: unknown group", "[memory]", "[mem]", NULL },
	{ "[cycles] eth_rx_frames: missing", "eth_rx_frames=13", NULL, NULL },
	{ "[cycles] uaccess_range_masks: missing", "uaccess_range_masks=19", NULL, NULL },
	{ "[link] usb_bytes_per_s: missing", "usb_bytes_per_s=200", NULL, NULL },
	{ "[profile] name: missing", "name=test", NULL, NULL },
	{ "[slab-debug] enabled: unknown group", "[slab_debug]", "[slab-debug]", NULL },
	{ "not a key file", "[cpu]", "[cpu", "" },
};

static void test_refused(void **state)
{
	const struct refusal *row = *state;	/* a row of refusals[] */
	const char *msg = row->msg ? row->msg : row->name;
	char *path = write_profile(row->find, row->repl);
	struct km_cost_profile *p = (void *)1;

	assert_int_equal(km_cost_profile_load(path, &p), -EINVAL);
	assert_null(p);
	if (!strstr(km_last_error(), path) || !strstr(km_last_error(), msg))
		fail_msg("\"%s\" does not name %s and \"%s\"", km_last_error(), path, msg);
	g_unlink(path);
	g_free(path);
}

/* a profile that is not there: -ENOENT naming the file */
static void test_refused_missing_file(void **state)
{
	assert_int_equal(km_cost_profile_load("/nonexistent/x.ini", &(struct km_cost_profile *){ 0 }),
			 -ENOENT);
	assert_non_null(strstr(km_last_error(), "/nonexistent/x.ini"));
	assert_int_equal(km_cost_profile_load("no-such-profile", &(struct km_cost_profile *){ 0 }),
			 -ENOENT);
	assert_non_null(strstr(km_last_error(), "no-such-profile.ini"));
}

/* "calibrated:" counts at the start of a key's comment only: eth_frames'
 * comment replaced by the row's */
static const struct calibrated_row {
	const char *name;
	const char *comment;
	bool calibrated;
} calibrated_rows[] = {
	{ "at the start", "# calibrated: a made-up figure", true },
	{ "at the start, no spaces", "#calibrated:a figure", true },
	{ "after a word", "# not calibrated: hmm", false },
	{ "after a clause", "# measured, then calibrated: elsewhere", false },
	/* the first line is the start of the comment */
	{ "on the second line", "# derived from x\n# calibrated: on a second line", false },
};

static void test_calibrated_at_start(void **state)
{
	const struct calibrated_row *row = *state;	/* a row of calibrated_rows[] */
	char *path = write_profile("# calibrated: a made-up figure", row->comment);
	struct km_cost_profile *p;
	const char *g, *k, *fig;

	if (km_cost_profile_load(path, &p))
		fail_msg("%s", km_last_error());
	if (km_cost_profile_calibrated(p, 0, &g, &k, &fig) != row->calibrated)
		fail_msg("\"%s\": calibrated should be %d", row->comment, row->calibrated);
	if (row->calibrated) {
		assert_string_equal(g, "cycles");
		assert_string_equal(k, "eth_frames");
	}
	km_cost_profile_free(p);
	g_unlink(path);
	g_free(path);
}

/* A directory with the good profile plus @kernel (its [kernel] group, or
 * NULL) and a paths table @table (NULL: none) as kernel-paths.ini. Returns
 * the profile's path; *@dir the directory (rm_dir()). */
static char *write_kernel_profile(char **dir, const char *kernel, const char *table)
{
	GString *s = g_string_new(NULL);
	char *path;

	*dir = g_dir_make_tmp("kmcost-XXXXXX", NULL);
	assert_non_null(*dir);
	path = g_build_filename(*dir, "p.ini", NULL);
	for (size_t i = 0; good_lines[i]; i++)
		g_string_append_printf(s, "%s\n", good_lines[i]);
	if (kernel)
		g_string_append(s, kernel);
	assert_true(g_file_set_contents(path, s->str, -1, NULL));
	g_string_free(s, TRUE);
	if (table) {
		gchar *t = g_build_filename(*dir, "kernel-paths.ini", NULL);

		assert_true(g_file_set_contents(t, table, -1, NULL));
		g_free(t);
	}
	return path;
}

static void rm_dir(char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *n;

	while (d && (n = g_dir_read_name(d))) {
		gchar *f = g_build_filename(dir, n, NULL);

		g_unlink(f);
		g_free(f);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(dir);
	g_free(dir);
}

/* a paths table with every event at @n instructions, syscalls at 40 */
static gchar *paths_table(const char *group, const char *extra)
{
	static const char *const events[] = {
		"syscalls", "page_faults", "cow_breaks", "pagecache_lookups", "pagecache_allocs",
		"pages_allocated", "pages_freed", "gup_calls", "gup_slow_calls", "gup_fast_pages",
		"gup_slow_pages", "follow_page_calls", "find_vma_calls", "mmap_sem_locks",
		"get_page_calls", "put_page_calls", "pt_walks", "kmap_high", "kmap_low", "kunmap_high",
		"kunmap_low", "tlb_flushes", "kmalloc_calls", "kfree_calls", "memcpy_calls",
		"memset_calls", "memmove_calls", "skb_allocs", "skb_clones", "skb_copies", "skb_frees",
		"urbs", "usb_packets", "eth_frames", "spin_locks", "pt_walks_sw", "urb_allocs",
		"usb_in_packets", "eth_rx_frames", "uaccess_pan_switches", "uaccess_range_masks",
		"gup_kmap_calls", "gup_kmap_pages",
	};
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "[%s]\n", group);
	for (size_t i = 0; i < G_N_ELEMENTS(events); i++)
		g_string_append_printf(s, "# counted: a test value\n%s=%d\n", events[i],
				       !strcmp(events[i], "syscalls") ? 40 : 2);
	if (extra)
		g_string_append(s, extra);
	return g_string_free(s, FALSE);
}

#define KERNEL_GROUP(version, paths, cpi)						\
	"[kernel]\n# a test value\nversion=" version "\n# a test value\npaths=" paths		\
	"\n# a test value\ncycles_per_instruction=" cpi "\n"

/* [kernel]: an event costs its path's instructions x CPI + its [cycles]
 * value; the table's counts are the profile's "instructions" group */
static void test_kernel_paths(void **state)
{
	gchar *table = paths_table("v9", NULL), *dir;
	char *path = write_kernel_profile(&dir, KERNEL_GROUP("v9", "kernel-paths", "2.5"), table);
	struct km_cost_profile *p;
	struct km_events ev = { .syscalls = 3, .gup_calls = 1, .put_page_calls = 2 };
	struct km_cost_workload w = { 0 };
	struct km_cost_result r;

	if (km_cost_profile_load(path, &p))
		fail_msg("%s", km_last_error());
	assert_true(km_cost_profile_value(p, "instructions", "syscalls") == 40);
	assert_true(km_cost_profile_value(p, "kernel", "cycles_per_instruction") == 2.5);
	assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
	assert_true(item(&r, "syscalls") == 3 * (40 * 2.5 + 100));	/* [cycles] syscalls=100 */
	assert_true(item(&r, "gup_calls") == 1 * (2 * 2.5 + 10));
	assert_true(item(&r, "put_page_calls") == 2 * (2 * 2.5 + 0));
	assert_true(r.cycles == 600 + 15 + 10);
	km_cost_profile_free(p);
	g_free(path);
	rm_dir(dir);
	/* the same with the table named by a path relative to the profile */
	path = write_kernel_profile(&dir, KERNEL_GROUP("v9", "./kernel-paths.ini", "1"), table);
	if (km_cost_profile_load(path, &p))
		fail_msg("%s", km_last_error());
	assert_true(km_cost_profile_value(p, "instructions", "gup_calls") == 2);
	km_cost_profile_free(p);
	g_free(path);
	rm_dir(dir);
	/* no [kernel]: no instruction charged, no "instructions" group */
	path = write_kernel_profile(&dir, NULL, NULL);
	assert_int_equal(km_cost_profile_load(path, &p), 0);
	assert_true(km_cost_profile_value(p, "instructions", "syscalls") < 0);
	km_cost_profile_free(p);
	g_free(path);
	rm_dir(dir);
	g_free(table);
}

/* @s with its first @find replaced by @repl (g_free) */
static gchar *replace_once(const char *s, const char *find, const char *repl)
{
	const char *at = strstr(s, find);

	assert_non_null(at);
	return g_strdup_printf("%.*s%s%s", (int)(at - s), s, repl, at + strlen(find));
}

/*
 * A path given by parts in the paths table ("<event>.<function>", each with
 * its source and uncertainty): the event costs the sum of its parts, and a
 * draw of the profile draws each part on its own from its range.
 */
static void test_kernel_path_parts(void **state)
{
	gchar *whole = paths_table("v9", NULL), *dir;
	gchar *table = replace_once(whole, "# counted: a test value\neth_frames=2\n",
				    "# estimated: a test function\n# uncertainty: assumed 5 .. 15\n"
				    "eth_frames.tcp_sendmsg=10\n# counted: another\n"
				    "eth_frames.ip_queue_xmit=20\n");
	char *path = write_kernel_profile(&dir, KERNEL_GROUP("v9", "kernel-paths", "2"), table);
	struct km_cost_profile *p, *s;
	struct km_events ev = { .eth_frames = 3 };
	struct km_cost_workload w = { 0 };
	struct km_cost_result r;
	bool moved = false;

	if (km_cost_profile_load(path, &p))
		fail_msg("%s", km_last_error());
	assert_true(km_cost_profile_value(p, "instructions", "eth_frames") == 30);
	assert_true(km_cost_profile_value(p, "v9", "eth_frames.tcp_sendmsg") == 10);
	/* the parts, listed in the table's order */
	{
		const char *ev, *fn;
		double n;

		assert_true(km_cost_profile_part(p, 0, &ev, &fn, &n));
		assert_string_equal(ev, "eth_frames");
		assert_string_equal(fn, "tcp_sendmsg");
		assert_true(n == 10);
		assert_true(km_cost_profile_part(p, 1, &ev, &fn, &n));
		assert_string_equal(fn, "ip_queue_xmit");
		assert_true(n == 20);
		assert_false(km_cost_profile_part(p, 2, &ev, &fn, &n));
		assert_false(km_cost_profile_part(NULL, 0, &ev, &fn, &n));
	}
	assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
	/* [cycles] eth_frames of the good profile: 0 */
	assert_true(item(&r, "eth_frames") == 3 * (30 * 2 + km_cost_profile_value(p, "cycles",
										      "eth_frames")));
	for (uint64_t seed = 1; seed <= 16; seed++) {
		double a, n;

		assert_int_equal(km_cost_profile_sample(p, seed, &s), 0);
		a = km_cost_profile_value(s, "v9", "eth_frames.tcp_sendmsg");
		n = km_cost_profile_value(s, "instructions", "eth_frames");
		assert_true(a >= 5 && a <= 15);
		assert_true(fabs(n - (a + 20)) < 1e-9);	/* the exact part stays */
		{	/* a sample lists its parts' draws */
			double d;

			assert_true(km_cost_profile_part(s, 0, NULL, NULL, &d));
			assert_true(d == a);
		}
		assert_int_equal(km_cost_predict(s, &ev, &w, &r), 0);
		assert_true(fabs(item(&r, "eth_frames") -
				 3 * (n * 2 + km_cost_profile_value(s, "cycles", "eth_frames"))) < 1e-6);
		moved |= a != 10;
		km_cost_profile_free(s);
	}
	assert_true(moved);
	km_cost_profile_free(p);
	g_free(path);
	rm_dir(dir);
	g_free(table);
	g_free(whole);
	(void)state;
}

/*
 * [kernel] c_cycles_per_instruction: two profiles that differ only in it
 * price an event's "drain" part (the null syscall's path, timed with its
 * exception entry and return) at cycles_per_instruction either way and
 * move only the other instructions; without it every instruction costs
 * cycles_per_instruction. A draw of the C rate moves the same
 * instructions, and a sample's drawn drain part stays at the null rate.
 */
static void test_kernel_c_rate(void **state)
{
	gchar *whole = paths_table("v9", NULL), *dir[3];
	gchar *table = replace_once(whole, "# counted: a test value\nsyscalls=40\n",
				    "# counted: the null syscall's path\n# uncertainty: assumed 8 .. 12\n"
				    "syscalls.drain=10\n# counted: the rest\nsyscalls.ksys_read=30\n");
	char *path[3] = {
		write_kernel_profile(&dir[0], KERNEL_GROUP("v9", "kernel-paths", "5"), table),
		write_kernel_profile(&dir[1], KERNEL_GROUP("v9", "kernel-paths", "5")
				     "# a test value\nc_cycles_per_instruction=2\n", table),
		write_kernel_profile(&dir[2], KERNEL_GROUP("v9", "kernel-paths", "5")
				     "# a test value\n# uncertainty: range 1 .. 3\n"
				     "c_cycles_per_instruction=2\n", table),
	};
	struct km_cost_profile *p[3], *s;
	struct km_events ev = { .syscalls = 3, .gup_calls = 1 };
	struct km_cost_workload w = { 0 };
	struct km_cost_result r[2];
	bool moved = false;

	for (int i = 0; i < 3; i++)
		if (km_cost_profile_load(path[i], &p[i]))
			fail_msg("%s", km_last_error());
	assert_int_equal(km_cost_predict(p[0], &ev, &w, &r[0]), 0);
	assert_int_equal(km_cost_predict(p[1], &ev, &w, &r[1]), 0);
	/* one rate: 40 x 5 + [cycles] 100; two: 10 x 5 + 30 x 2 + 100 */
	assert_true(item(&r[0], "syscalls") == 3 * (40 * 5 + 100));
	assert_true(item(&r[1], "syscalls") == 3 * (10 * 5 + 30 * 2 + 100));
	/* gup_calls has no drain part: all of it at the C rate */
	assert_true(item(&r[0], "gup_calls") == 2 * 5 + 10);
	assert_true(item(&r[1], "gup_calls") == 2 * 2 + 10);
	/* the difference is the non-drain instructions' alone */
	assert_true(r[0].cycles - r[1].cycles == 3 * 30 * (5 - 2) + 2 * (5 - 2));
	assert_true(km_cost_profile_value(p[1], "kernel", "c_cycles_per_instruction") == 2);
	assert_true(km_cost_profile_value(p[0], "kernel", "c_cycles_per_instruction") < 0);
	assert_true(km_cost_profile_part_rate(p[1], "drain") == 5);
	assert_true(km_cost_profile_part_rate(p[1], "ksys_read") == 2);
	assert_true(km_cost_profile_part_rate(p[0], "ksys_read") == 5);
	assert_true(km_cost_profile_part_rate(NULL, "drain") == 0);
	for (uint64_t seed = 1; seed <= 16; seed++) {
		double c, d;
		struct km_cost_result q;

		assert_int_equal(km_cost_profile_sample(p[2], seed, &s), 0);
		c = km_cost_profile_value(s, "kernel", "c_cycles_per_instruction");
		d = km_cost_profile_value(s, "v9", "syscalls.drain");
		assert_true(c >= 1 && c <= 3 && d >= 8 && d <= 12);
		assert_int_equal(km_cost_predict(s, &ev, &w, &q), 0);
		assert_true(fabs(item(&q, "syscalls") - 3 * (d * 5 + 30 * c + 100)) < 1e-6);
		assert_true(fabs(item(&q, "gup_calls") - (2 * c + 10)) < 1e-9);
		moved |= c != 2;
		km_cost_profile_free(s);
	}
	assert_true(moved);
	for (int i = 0; i < 3; i++) {
		km_cost_profile_free(p[i]);
		g_free(path[i]);
		rm_dir(dir[i]);
	}
	g_free(table);
	g_free(whole);
	(void)state;
}

/*
 * A version group based_on another that gives an event by parts: its
 * parts, not the base's whole count; the events it does not give, the
 * base's.
 */
static void test_kernel_path_parts_based_on(void **state)
{
	gchar *base = paths_table("v8", NULL), *dir;
	gchar *table = g_strdup_printf("%s[v9]\n# the v8 paths but for the transmit path\n"
				       "based_on=v8\n# counted: a part\neth_frames.tcp_sendmsg=10\n"
				       "# counted: another\neth_frames.ip_queue_xmit=20\n", base);
	char *path = write_kernel_profile(&dir, KERNEL_GROUP("v9", "kernel-paths", "1"), table);
	struct km_cost_profile *p;

	if (km_cost_profile_load(path, &p))
		fail_msg("%s", km_last_error());
	assert_true(km_cost_profile_value(p, "instructions", "eth_frames") == 30);
	assert_true(km_cost_profile_value(p, "instructions", "syscalls") == 40);
	km_cost_profile_free(p);
	g_free(path);
	rm_dir(dir);
	g_free(table);
	g_free(base);
	(void)state;
}

/* the stderr of @fn(@arg) (g_free) */
static gchar *stderr_of(void (*fn)(void *), void *arg)
{
	gchar *path, *text;
	int fd = g_file_open_tmp("kmcost-err-XXXXXX", &path, NULL), saved;

	assert_true(fd >= 0);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_unlink(path);
	g_free(path);
	return text;
}

struct load_args {
	const char *file;
	struct km_cost_profile *p;
	int rc;
};

static void load_into(void *arg)
{
	struct load_args *a = arg;

	a->rc = km_cost_profile_load(a->file, &a->p);
}

/*
 * A profile of 0.3.0 still loads (0.3.0's own
 * beagleboard-xm-debug-slab.ini, the text of bb07386, was refused for its
 * [link] wire_bits_per_s and frame_overhead_bytes). Each key is named on
 * stderr with its file; the predictions price the device's wire, as for
 * today's profile; km_cost_link_seconds() keeps 0.3.0's meaning, the
 * larger of the profile's wire with its overhead a frame and the USB host
 * -- and without the keys the AX88772's 100 Mbit/s and 24 bytes, what
 * 0.3.0's profiles gave.
 */
static void test_profile_0_3_0_loads(void **state)
{
	gchar *cur_path = g_build_filename(KM_PROFILES_DIR, "beagleboard-xm-debug-slab.ini", NULL);
	gchar *cur, *old, *path, *err, *dir, *table, *text;
	struct load_args a = { 0 };
	struct km_cost_profile *now, *mine;
	const struct km_usbnet_variant *vs[1] = { km_usbnet_find("after") };
	struct km_iperf_opts o = { .packets = 50, .repeat = 1 };
	struct km_table *t;
	char *own = write_profile("usb_bytes_per_s=200", "usb_bytes_per_s=200\n# a test value\n"
				  "wire_bits_per_s=800\n# a test value\nframe_overhead_bytes=4");

	(void)state;
	assert_true(g_file_get_contents(cur_path, &cur, NULL, NULL));
	old = replace_once(cur, "[link]\n# the DM3730's EHCI, a USB 2.0 host: high-speed bulk at most, 13 "
			   "packets of 512 bytes per 125 us microframe",
			   "[link]\n# 100BASE-TX: the AX88772 is a 10/100 Ethernet controller (IEEE 802.3 "
			   "clause 25)\nwire_bits_per_s=100000000\n# per frame on the wire besides the "
			   "1514 bytes the driver gets: FCS 4, preamble and SFD 8, inter-frame gap 12 byte "
			   "times (IEEE 802.3)\nframe_overhead_bytes=24\n# USB 2.0 high-speed bulk: at "
			   "most 13 packets of 512 bytes per 125 us microframe");
	/* in a directory of its own, beside the paths table of today's
	 * profile: a kernel-paths.ini that something else left in the
	 * temporary directory would be found first */
	dir = g_dir_make_tmp("kmcost-XXXXXX", NULL);
	assert_non_null(dir);
	path = g_build_filename(dir, "beagleboard-xm-debug-slab.ini", NULL);
	table = g_build_filename(dir, "kernel-paths.ini", NULL);
	assert_true(g_file_get_contents(KM_PROFILES_DIR "/kernel-paths.ini", &text, NULL, NULL));
	assert_true(g_file_set_contents(table, text, -1, NULL));
	assert_true(g_file_set_contents(path, old, -1, NULL));
	a.file = path;
	err = stderr_of(load_into, &a);
	assert_int_equal(a.rc, 0);
	for (const char *const *k = (const char *const[]){ "wire_bits_per_s", "frame_overhead_bytes",
							   NULL }; *k; k++) {
		gchar *line = g_strdup_printf("kmodel: %s: [link] %s (a key up to 0.3.0): ignored by "
					      "the predictions: the wire is the device's", path, *k);

		assert_non_null(strstr(err, line));
		g_free(line);
	}
	/* 0.3.0's link: 10 frames of 1514 bytes on 100 Mbit/s, 24 bytes each
	 * more; the host's 53,248,000 bytes in a second */
	assert_true(fabs(km_cost_link_seconds(a.p, 10, 15140, 0) - 15380 * 8 / 1e8) < 1e-15);
	assert_true(km_cost_link_seconds(a.p, 0, 0, 53248000) == 1);
	assert_true(km_cost_usb_seconds(a.p, 53248000) == 1);
	/* the predictions: as today's profile's, the device's wire */
	assert_int_equal(km_cost_profile_load(cur_path, &now), 0);
	assert_int_equal(km_iperf_run(&o, vs, 1, &t), 0);
	for (size_t r = 0; r < km_table_nrows(t); r++) {
		const char *b1 = NULL, *b2 = NULL;

		assert_true(km_cost_predict_row(a.p, t, r, &b1, NULL) ==
			    km_cost_predict_row(now, t, r, &b2, NULL));
		assert_string_equal(b1, b2);
	}
	km_table_free(t);
	/* a profile's own wire and overhead: 10 frames of 96 bytes at 800
	 * bit/s, 4 bytes each more, 10 s, beyond the host's 1000 bytes at
	 * 200/s, 5 s; the current profile, without the keys: 100 Mbit/s */
	assert_int_equal(km_cost_profile_load(own, &mine), 0);
	assert_true(km_cost_link_seconds(mine, 10, 960, 1000) == 10);
	assert_true(km_cost_usb_seconds(mine, 1000) == 5);
	assert_true(km_cost_link_seconds(now, 10, 15140, 0) == km_cost_link_seconds(a.p, 10, 15140, 0));
	km_cost_profile_free(mine);
	km_cost_profile_free(now);
	km_cost_profile_free(a.p);
	g_unlink(path);
	g_unlink(table);
	g_rmdir(dir);
	g_unlink(own);
	g_free(own);
	g_free(path);
	g_free(table);
	g_free(text);
	g_free(dir);
	g_free(err);
	g_free(old);
	g_free(cur);
	g_free(cur_path);
}

/* each refusal of [kernel] and of its table names the file, group and key:
 * the profile's [kernel] group @kernel, and the paths table
 * paths_table("v9", @extra) with its first @find replaced by @repl (none
 * with @no_table) */
static const struct kernel_refusal {
	const char *name;
	const char *kernel;
	bool no_table;
	const char *extra, *find, *repl;
	const char *msg;
	bool in_table;		/* the message names the table, not the profile */
} kernel_refusals[] = {
	{ "no table", KERNEL_GROUP("v9", "no-such-table", "1"), true, NULL, NULL, NULL,
	  "[kernel] paths: cost profile \"no-such-table\": no no-such-table.ini", false },
	{ "no group of the version", KERNEL_GROUP("v8", "kernel-paths", "1"), false, NULL, NULL,
	  NULL, "[kernel] version: ", false },
	{ "negative CPI", KERNEL_GROUP("v9", "kernel-paths", "-1"), false, NULL, NULL, NULL,
	  "[kernel] cycles_per_instruction: -1 is negative", false },
	{ "hexadecimal CPI", KERNEL_GROUP("v9", "kernel-paths", "0x2"), false, NULL, NULL, NULL,
	  "[kernel] cycles_per_instruction: \"0x2\" is not a decimal number", false },
	{ "no paths key",
	  "[kernel]\n# a test value\nversion=v9\n# a test value\ncycles_per_instruction=1\n", false,
	  NULL, NULL, NULL, "[kernel] paths: missing", false },
	{ "a [kernel] key without comment",
	  "[kernel]\nversion=v9\n# a test value\npaths=kernel-paths\n# a test value\n"
	  "cycles_per_instruction=1\n", false, NULL, NULL, NULL,
	  "[kernel] version: no comment line", false },
	{ "an unknown [kernel] key", KERNEL_GROUP("v9", "kernel-paths", "1") "# a test value\nrate=1\n",
	  false, NULL, NULL, NULL, "[kernel] rate: unknown key", false },
	{ "a count missing", KERNEL_GROUP("v9", "kernel-paths", "1"), false, NULL,
	  "# counted: a test value\nurbs=2\n", "", "[v9] urbs: missing", true },
	{ "an unknown count", KERNEL_GROUP("v9", "kernel-paths", "1"), false,
	  "# counted: a test value\nsycsalls=1\n", NULL, NULL, "[v9] sycsalls: unknown key", true },
	{ "a calibrated count", KERNEL_GROUP("v9", "kernel-paths", "1"), false, NULL,
	  "# counted: a test value\nsyscalls", "# calibrated: a figure\nsyscalls",
	  "[v9] syscalls: a calibrated value belongs in a profile", true },
	{ "a hexadecimal count", KERNEL_GROUP("v9", "kernel-paths", "1"), false, NULL, "urbs=2\n",
	  "urbs=0x10\n", "[v9] urbs: \"0x10\" is not a decimal number", true },
	/* a count given twice is refused, not the last one taken */
	{ "a count given twice", KERNEL_GROUP("v9", "kernel-paths", "1"), false, NULL, "urbs=2\n",
	  "urbs=2\n# counted: again\nurbs=3\n", "[v9] urbs: given twice (lines", true },
	{ "a count without comment", KERNEL_GROUP("v9", "kernel-paths", "1"), false, NULL,
	  "# counted: a test value\nurbs=2\n", "urbs=2\n", "[v9] urbs: no comment line", true },
	/* a path given by parts ("<event>.<function>"): not also whole, only
	 * of an event, each part with its source */
	{ "a count given whole and by parts", KERNEL_GROUP("v9", "kernel-paths", "1"), false,
	  "# counted: a part\nurbs.usb_submit_urb=1\n", NULL, NULL,
	  "[v9] urbs: given whole and by parts (urbs.usb_submit_urb)", true },
	{ "a part of no event", KERNEL_GROUP("v9", "kernel-paths", "1"), false,
	  "# counted: a part\nsycsalls.vfs_read=1\n", NULL, NULL,
	  "[v9] sycsalls.vfs_read: unknown key", true },
	/* "<event>.<function>": the event's whole name, the function a C
	 * identifier; anything else is an unknown key, not a part */
	{ "a part of an event's prefix", KERNEL_GROUP("v9", "kernel-paths", "1"), false,
	  "# counted: a part\nurb.usb_submit_urb=1\n", NULL, NULL,
	  "[v9] urb.usb_submit_urb: unknown key", true },
	{ "a part of no function", KERNEL_GROUP("v9", "kernel-paths", "1"), false,
	  "# counted: a part\nurbs.1st=1\n", NULL, NULL, "[v9] urbs.1st: unknown key", true },
	{ "a part without comment", KERNEL_GROUP("v9", "kernel-paths", "1"), false, NULL,
	  "# counted: a test value\nurbs=2\n", "urbs.usb_submit_urb=2\n",
	  "[v9] urbs.usb_submit_urb: no comment line", true },
	{ "a part that is no number", KERNEL_GROUP("v9", "kernel-paths", "1"), false, NULL,
	  "urbs=2\n", "urbs.usb_submit_urb=many\n",
	  "[v9] urbs.usb_submit_urb: \"many\" is not a decimal number", true },
};

static void test_kernel_refused(void **state)
{
	const struct kernel_refusal *row = *state;	/* a row of kernel_refusals[] */
	gchar *table = row->no_table ? NULL : paths_table("v9", row->extra), *dir, *tfile;
	char *path;
	struct km_cost_profile *p = (void *)1;

	if (table && row->find) {
		gchar *t = replace_once(table, row->find, row->repl);

		g_free(table);
		table = t;
	}
	path = write_kernel_profile(&dir, row->kernel, table);
	tfile = g_build_filename(dir, "kernel-paths.ini", NULL);
	assert_int_equal(km_cost_profile_load(path, &p), -EINVAL);
	assert_null(p);
	if (!strstr(km_last_error(), row->in_table ? tfile : path) ||
	    !strstr(km_last_error(), row->msg))
		fail_msg("\"%s\" does not name %s and \"%s\"", km_last_error(),
			 row->in_table ? tfile : path, row->msg);
	g_free(tfile);
	g_free(path);
	g_free(table);
	rm_dir(dir);
}

/*
 * Bandwidth changes at the cache sizes (kmodel/cost.h): copy_from_user
 * reading a working set back (nothing streamed through L1 when no
 * copy_to_user brings lines in) costs the loop's rate alone up to L1's
 * size and stalls on L2 beyond it; against memory, a working set well
 * inside L2 hardly stalls and one far beyond it stalls on nearly every
 * line.
 */
static void test_bandwidth_at_cache_sizes(void **state)
{
	char *p1, *p2;
	/* L1 100 lines, L2 1000 (working sets below in lines), the loop 1/4
	 * cycle a byte */
	/* (a line missing L1 costs 100 cycles from L2 or from memory alike) */
	struct km_cost_profile *l2 = load_memory(&p1, 100, 100, 0);
	struct km_cost_profile *mem = load_memory(&p2, 0, 100, 0);
	struct km_events ev = { .uaccess_from_bytes = 1000 };
	struct km_cost_result r;
	double prev = 0;

	/* L1: the loop's rate up to 100 bytes, a stall on each missed line
	 * beyond (100 cycles, wherever the line comes from) */
	for (uint64_t ws = 1; ws <= 100; ws++) {
		struct km_cost_workload w = { .working_set = ws * LINE };

		assert_int_equal(km_cost_predict(l2, &ev, &w, &r), 0);
		assert_true(item(&r, "copy from user bytes") == 1000 * 0.25);
	}
	for (uint64_t ws = 101; ws <= 401; ws += 300) {
		struct km_cost_workload w = { .working_set = ws * LINE };
		double c;

		assert_int_equal(km_cost_predict(l2, &ev, &w, &r), 0);
		c = item(&r, "copy from user bytes");
		assert_true(c > 1000 * 0.25 && c > prev);
		prev = c;
	}
	/* memory: a fifth of L2 (beyond L1) stalls on under 30 % of the lines
	 * (its writes stream through L2), eight times L2 on over 99 % */
	{
		struct km_cost_workload in = { .working_set = 200 * LINE },
					out = { .working_set = 8000 * LINE };
		double a, b;

		assert_int_equal(km_cost_predict(mem, &ev, &in, &r), 0);
		a = (item(&r, "copy from user bytes") / 1000 - 0.25) / 100;
		assert_int_equal(km_cost_predict(mem, &ev, &out, &r), 0);
		b = (item(&r, "copy from user bytes") / 1000 - 0.25) / 100;
		assert_true(a > 0 && a < 0.3);
		assert_true(b > 0.99 && b <= 1);
	}
	km_cost_profile_free(l2);
	km_cost_profile_free(mem);
	g_unlink(p1);
	g_unlink(p2);
	g_free(p1);
	g_free(p2);
}

static const struct km_value *cell(const struct km_table *t, size_t r, const char *col)
{
	long c = km_table_column_index(t, col);

	return c >= 0 ? km_table_value(t, r, (size_t)c) : NULL;
}

/* the good profile with its clock replaced (cycles per second) */
static char *profile_with_clock(const char *clock)
{
	gchar *line = g_strdup_printf("clock_hz=%s", clock);
	char *path = write_profile("clock_hz=1000", line);

	g_free(line);
	return path;
}

/*
 * The CPU or the link binds an iperf row (km_cost_predict_row(),
 * km_cost_table_predict()): the good profile prices each packet at a few
 * hundred cycles; at a thousandth of a cycle a second the CPU is far
 * slower than its host's 200 bytes/s of bulk-out, at 10^12 the host binds.
 * The prediction is the payload over the slower of the two.
 */
static void test_cpu_or_link(void **state)
{
	const struct km_usbnet_variant *vs[1] = { km_usbnet_find("after") };
	struct km_iperf_opts o = { .packets = 50, .repeat = 1 };
	struct km_table *t;
	char *slow = profile_with_clock("0.001"), *fast = profile_with_clock("1000000000000");
	struct km_cost_profile *ps, *pf;
	long tcp = -1;

	assert_int_equal(km_iperf_run(&o, vs, 1, &t), 0);
	for (size_t r = 0; r < km_table_nrows(t); r++)
		if (!strcmp(cell(t, r, "traffic")->s, "tcp"))
			tcp = (long)r;
	assert_true(tcp >= 0);
	assert_int_equal(km_cost_profile_load(slow, &ps), 0);
	assert_int_equal(km_cost_profile_load(fast, &pf), 0);
	{
		const char *bound = NULL;
		struct km_cost_result res;
		double cpu = km_cost_predict_row(ps, t, (size_t)tcp, &bound, &res);
		double frames = cell(t, (size_t)tcp, "eth_frames_per_packet")->d;
		double bytes = cell(t, (size_t)tcp, "eth_bytes_per_packet")->d;
		double usb = cell(t, (size_t)tcp, "usb_bytes_per_packet")->d;
		double link;

		assert_string_equal(bound, "cpu");
		/* 100000 packets: res is their cost; 1448 bytes of payload each */
		assert_true(fabs(cpu - 100000 * 1448 * 8 / res.seconds / 1e6) < 1e-9 * cpu);
		/* the host's 200 bytes/s, far slower than the device's wire
		 * (100 Mbit/s) and the high-speed pipe, binds (1fafbbd: the
		 * pipe's rate capped by the profile's usb_bytes_per_s; mutant
		 * predict-host-cap survived) */
		link = km_cost_predict_row(pf, t, (size_t)tcp, &bound, &res);
		assert_string_equal(bound, "link");
		assert_true(km_cost_wire_seconds(1e8, frames, bytes) < usb / 200);
		assert_true(fabs(link - 1448 * 8 / km_cost_usb_seconds(pf, usb) / 1e6) < 1e-6 * link);
		assert_true(fabs(link - 1448 * 8 / (usb / 200) / 1e6) < 1e-6 * link);
		assert_true(link > cpu);
	}
	/* the table gains the columns, each row priced with the profile */
	assert_int_equal(km_cost_table_predict(t, fast), 0);
	for (size_t r = 0; r < km_table_nrows(t); r++) {
		assert_int_equal(cell(t, r, "predicted_mbit_s")->type, KM_VALUE_DOUBLE);
		assert_string_equal(cell(t, r, "bound")->s, "link");
	}
	km_cost_profile_free(ps);
	km_cost_profile_free(pf);
	km_table_free(t);
	g_unlink(slow);
	g_unlink(fast);
	g_free(slow);
	g_free(fast);
}

/*
 * The USB link of an iperf row follows its speed and maxpacket (USB 2.0
 * spec 5.8.4): full speed carries floor(1500 / (13 + maxpacket)) bulk
 * transactions a 1 ms frame (table 5-9: 19 x 64 bytes, 1,216,000 bytes/s;
 * 71 x 8, 568,000), so an AX88772 at full speed is bound by it, not by
 * the 100 Mbit/s wire (the prediction once took the profile's high-speed
 * 53,248,000 for every row: 83.9 Mbit/s at maxpacket 64, found by a new
 * user). A SuperSpeed row (maxpacket 1024) on the BeagleBoard-xM's USB 2.0
 * host has no prediction: the device runs at high speed there.
 */
/* bytes_per_s 0: no prediction on a USB 2.0 host ([link]); -1: a
 * profile without [link] knows no host, so the CPU prices it */
static const struct usb_speed_row {
	const char *name;
	const char *profile, *variant;
	unsigned int mp;
	double bytes_per_s;
} usb_speed_rows[] = {
	{ "BeagleBoard-xM, full speed, maxpacket 64", "beagleboard-xm-debug-slab", "after", 64,
	  19.0 * 64 * 1000 },
	{ "BeagleBoard-xM, full speed, maxpacket 8", "beagleboard-xm-debug-slab", "after", 8,
	  71.0 * 8 * 1000 },
	{ "BeagleBoard-xM, SuperSpeed device: none", "beagleboard-xm-debug-slab", "ax88179", 1024,
	  0 },
	/* the bus's limit holds whatever the profile (it once applied
	 * only with a [link] group: found by review) */
	{ "BeagleBone White, full speed, maxpacket 64", "beaglebone-white", "after", 64,
	  19.0 * 64 * 1000 },
	{ "BeagleBone White, SuperSpeed device: the CPU", "beaglebone-white", "ax88179", 1024, -1 },
};

static void test_link_follows_usb_speed(void **state)
{
	const struct usb_speed_row *row = *state;	/* a row of usb_speed_rows[] */
	const struct km_usbnet_variant *vs[1] = { km_usbnet_find(row->variant) };
	struct km_iperf_opts o = { .packets = 50, .repeat = 1, .maxpacket = row->mp };
	struct km_cost_profile *p;
	struct km_table *t;

	g_setenv("KMODEL_PROFILE_DIR", KM_PROFILES_DIR, TRUE);
	assert_non_null(vs[0]);
	assert_int_equal(km_cost_profile_load(row->profile, &p), 0);
	assert_int_equal(km_iperf_run(&o, vs, 1, &t), 0);
	for (size_t r = 0; r < km_table_nrows(t); r++) {
		const char *bound = NULL;
		double x = km_cost_predict_row(p, t, r, &bound, NULL);
		double usb = cell(t, r, "usb_bytes_per_packet")->d;
		double payload = !strcmp(cell(t, r, "traffic")->s, "udp")
			? cell(t, r, "eth_bytes_per_packet")->d - 42 : 1448;

		if (row->bytes_per_s == 0) {
			assert_true(x == 0);
			continue;
		}
		if (row->bytes_per_s < 0) {
			assert_true(x > 0);
			assert_string_equal(bound, "cpu");
			continue;
		}
		assert_string_equal(bound, "link");
		assert_true(fabs(x - payload * 8 / (usb / row->bytes_per_s) / 1e6) <
			    1e-6 * x);
	}
	assert_int_equal(km_cost_table_predict(t, row->profile), 0);
	for (size_t r = 0; r < km_table_nrows(t); r++)
		assert_int_equal(cell(t, r, "predicted_mbit_s")->type,
				 row->bytes_per_s ? KM_VALUE_DOUBLE : KM_VALUE_NONE);
	km_table_free(t);
	km_cost_profile_free(p);
}

/*
 * The wire is the device's: each row carries its variant's
 * device's wire_bits_per_s -- 100 Mbit/s for the AX88772-framed ones (10/100
 * controllers), 1 Gbit/s for the AX88179 -- and the link bound is the
 * slower of that wire, with 24 bytes of FCS, preamble and gap a frame,
 * and the bulk-out pipe. The BeagleBone White's profile has no [link]:
 * its AX88772 rows were predicted at 406 Mbit/s of payload, the high-speed
 * pipe's, beyond the device's wire. A fast host (usb_bytes_per_s 10^12)
 * and CPU leave the bound to the device: its wire for the AX88772, the
 * high-speed pipe (53,248,000 bytes/s) for the AX88179, which a
 * profile's 100 Mbit/s wire used to cap.
 */
/* a device model of the user's: the AX88772 parser behind its own stats */
static void own_dev_stats(const void *priv, struct km_usbnet_dev_stats *out, size_t size)
{
	km_asix_dev_get_stats_sized(priv, out, size);
}

static int own_dev_new(struct km_machine *m, km_usbnet_frame_fn fn, void *arg,
		       struct km_usbnet_dev *out)
{
	int err = km_asix_usbnet_dev_new(m, fn, arg, out);

	out->get_stats = own_dev_stats;
	return err;
}

static void test_wire_is_the_device(void **state)
{
	const struct km_usbnet_variant *vs[2] = { km_usbnet_find("after"),
						  km_usbnet_find("ax88179") };
	struct km_usbnet_variant old;
	struct km_iperf_opts o = { .packets = 50, .repeat = 1 };
	char *fastpath = write_profile("usb_bytes_per_s=200", "usb_bytes_per_s=1e12");
	struct km_cost_profile *bbw, *pf;
	struct km_table *t;

	/* the fast host with a fast CPU */
	{
		gchar *text, *c;

		assert_true(g_file_get_contents(fastpath, &text, NULL, NULL));
		c = replace_once(text, "clock_hz=1000\n", "clock_hz=1e12\n");
		assert_true(g_file_set_contents(fastpath, c, -1, NULL));
		g_free(text);
		g_free(c);
	}
	g_setenv("KMODEL_PROFILE_DIR", KM_PROFILES_DIR, TRUE);
	assert_int_equal(km_cost_profile_load("beaglebone-white", &bbw), 0);
	assert_int_equal(km_cost_profile_load(fastpath, &pf), 0);
	assert_int_equal(km_iperf_run(&o, vs, 2, &t), 0);
	for (size_t r = 0; r < km_table_nrows(t); r++) {
		bool ax88772 = !strcmp(cell(t, r, "variant")->s, "after");
		double wire = ax88772 ? 1e8 : 1e9, bulk = 13.0 * 512 * 8000;
		double frames = cell(t, r, "eth_frames_per_packet")->d;
		double bytes = cell(t, r, "eth_bytes_per_packet")->d;
		double usb = cell(t, r, "usb_bytes_per_packet")->d;
		double payload = !strcmp(cell(t, r, "traffic")->s, "udp") ? bytes / frames - 42 : 1448;
		double want = payload * 8 / MAX(km_cost_wire_seconds(wire, frames, bytes),
						usb / bulk) / 1e6;
		const char *bound = NULL;
		double x;

		assert_int_equal(cell(t, r, "wire_bits_per_s")->type, KM_VALUE_INT);
		assert_true(cell(t, r, "wire_bits_per_s")->i == (int64_t)wire);
		x = km_cost_predict_row(pf, t, r, &bound, NULL);
		assert_string_equal(bound, "link");
		assert_true(fabs(x - want) < 1e-9 * want);
		if (ax88772)	/* the wire binds: under its 100 Mbit/s */
			assert_true(x < 100 && km_cost_wire_seconds(wire, frames, bytes) > usb / bulk);
		else		/* the pipe binds, well past 100 Mbit/s */
			assert_true(x > 300 && km_cost_wire_seconds(wire, frames, bytes) < usb / bulk);
		/* the BeagleBone White's profile, without [link]: its CPU is
		 * fast enough for the AX88772's wire to bind; of the AX88179's
		 * rows the CPU binds some (tcp+tap), none at 100 Mbit/s */
		x = km_cost_predict_row(bbw, t, r, &bound, NULL);
		if (ax88772) {
			assert_string_equal(bound, "link");
			assert_true(fabs(x - want) < 1e-9 * want);
		} else {
			assert_true(x <= want * (1 + 1e-9) && x > 300);
		}
	}
	km_table_free(t);
	/* the wire is the device model's (it was a member
	 * appended to the variant, and a plugin built against 0.3.0 that
	 * copied a built-in variant carried the library's size into its old
	 * struct: the library read past it). A variant of the first size and
	 * one of the user's that reuses the AX88772 parser get its 100
	 * Mbit/s; a device model built outside the library gives none: the
	 * pipe alone binds */
	old = *vs[0];
	old.size = KM_USBNET_VARIANT_MIN_SIZE;
	vs[0] = &old;
	for (int own = 0; own < 2; own++) {
		old.dev_new = own ? own_dev_new : km_asix_usbnet_dev_new;
		assert_int_equal(km_iperf_run(&o, vs, 1, &t), 0);
		for (size_t r = 0; r < km_table_nrows(t); r++) {
			double usb = cell(t, r, "usb_bytes_per_packet")->d, x;
			double frames = cell(t, r, "eth_frames_per_packet")->d;
			double bytes = cell(t, r, "eth_bytes_per_packet")->d;
			double payload = !strcmp(cell(t, r, "traffic")->s, "udp")
				? bytes / frames - 42 : 1448;
			double secs = usb / (13.0 * 512 * 8000);

			if (own) {
				assert_int_equal(cell(t, r, "wire_bits_per_s")->type, KM_VALUE_NONE);
			} else {
				assert_true(cell(t, r, "wire_bits_per_s")->i == 100000000);
				secs = MAX(secs, km_cost_wire_seconds(1e8, frames, bytes));
			}
			x = km_cost_predict_row(pf, t, r, NULL, NULL);
			assert_true(fabs(x - payload * 8 / secs / 1e6) < 1e-9 * x);
		}
		km_table_free(t);
	}
	km_cost_profile_free(bbw);
	km_cost_profile_free(pf);
	g_unlink(fastpath);
	g_free(fastpath);
	(void)state;
}

/* the file a profile came from is absolute and canonical, whether it was
 * named by a relative path or found in a relative $KMODEL_PROFILE_DIR
 * (kmodel-bench --json recorded "./bbb.ini") */
static void test_profile_file_resolved(void **state)
{
	gchar *cwd = g_get_current_dir();
	const char *how[] = { "beaglebone-white", "./beaglebone-white.ini",
			      "../profiles/./beaglebone-white.ini" };

	assert_int_equal(chdir(KM_PROFILES_DIR), 0);
	g_setenv("KMODEL_PROFILE_DIR", ".", TRUE);
	for (size_t i = 0; i < G_N_ELEMENTS(how); i++) {
		struct km_cost_profile *p;
		char *got, *want = realpath(KM_PROFILES_DIR "/beaglebone-white.ini", NULL);
		const char *file;

		assert_int_equal(km_cost_profile_load(how[i], &p), 0);
		file = km_cost_profile_file(p);
		/* (realpath(): the working directory has its links resolved) */
		assert_true(g_path_is_absolute(file) && !strstr(file, "/./") && !strstr(file, "/../"));
		got = realpath(file, NULL);
		assert_string_equal(got, want);
		free(got);
		free(want);
		km_cost_profile_free(p);
	}
	g_setenv("KMODEL_PROFILE_DIR", KM_PROFILES_DIR, TRUE);
	assert_int_equal(chdir(cwd), 0);
	g_free(cwd);
	/* through a symbolic link, ".." is the link target's parent, as the
	 * kernel resolves it (dir/L/../p.ini with L -> a/b was
	 * made dir/p.ini as text, which does not exist) */
	{
		gchar *dir = g_dir_make_tmp("kmcost-XXXXXX", NULL), *text;
		gchar *sub = g_build_filename(dir, "a", "b", NULL), *ini = g_build_filename(dir, "a", "p.ini", NULL);
		gchar *link = g_build_filename(dir, "L", NULL), *via = g_build_filename(dir, "L", "..", "p.ini", NULL);
		char *want;
		struct km_cost_profile *p;

		assert_int_equal(g_mkdir_with_parents(sub, 0755), 0);
		assert_true(g_file_get_contents(KM_PROFILES_DIR "/beaglebone-white.ini", &text, NULL, NULL));
		assert_true(g_file_set_contents(ini, text, -1, NULL));
		assert_int_equal(symlink("a/b", link), 0);
		assert_int_equal(km_cost_profile_load(via, &p), 0);
		want = realpath(ini, NULL);
		assert_string_equal(km_cost_profile_file(p), want);
		km_cost_profile_free(p);
		free(want);
		g_unlink(link);
		g_unlink(ini);
		g_rmdir(sub);
		*strrchr(sub, '/') = 0;
		g_rmdir(sub);
		g_rmdir(dir);
		g_free(text);
		g_free(via);
		g_free(link);
		g_free(ini);
		g_free(sub);
		g_free(dir);
	}
	(void)state;
}

/* An iperf row whose frames did not all verify (MSS 1460: 1526-byte
 * frames, longer than the AX88772 takes) gets no prediction: its events
 * are not the stream's (it was priced at 84.6 Mbit/s with frames_ok 0,
 * found by review) */
static void test_no_prediction_for_lost_frames(void **state)
{
	const struct km_usbnet_variant *vs[1] = { km_usbnet_find("after") };
	struct km_iperf_opts o = { .packets = 20, .repeat = 1, .mss = 1460 };
	struct km_cost_profile *p;
	struct km_table *t;

	g_setenv("KMODEL_PROFILE_DIR", KM_PROFILES_DIR, TRUE);
	assert_int_equal(km_cost_profile_load("beagleboard-xm-debug-slab", &p), 0);
	assert_int_equal(km_iperf_run(&o, vs, 1, &t), -EIO);
	for (size_t r = 0; r < km_table_nrows(t); r++) {
		if (strcmp(cell(t, r, "traffic")->s, "udp")) {	/* TCP: MSS 1460 */
			assert_true(cell(t, r, "frames_ok")->i < cell(t, r, "packets")->i);
			assert_true(km_cost_predict_row(p, t, r, NULL, NULL) == 0);
		} else {
			struct km_value *ok = (struct km_value *)cell(t, r, "frames_ok");

			assert_true(km_cost_predict_row(p, t, r, NULL, NULL) > 0);
			/* one frame short is enough: the row as if the device
			 * had lost one of its packets (no setter: the cell
			 * itself, put back after) */
			assert_int_equal(ok->i, cell(t, r, "packets")->i);
			ok->i--;
			assert_true(km_cost_predict_row(p, t, r, NULL, NULL) == 0);
			ok->i++;
		}
	}
	km_table_free(t);
	km_cost_profile_free(p);
}

/* km_cost_table_predict() on a dd table: each machine's profile, or the
 * one named; the host baseline gets no prediction; a profile that does
 * not load adds no column */
static void test_table_predict(void **state)
{
	const unsigned long bs = 4096;
	struct km_dd_opts o = { .block_sizes = &bs, .nblock_sizes = 1, .total_bytes = 64 * 1024,
				.file_bytes = 64 * 1024, .repeat = 1 };
	struct km_dd_case c[2] = {
		{ &km_uaccess_direct, km_dd_machine_find("bbw"), KM_KMAP_ATOMIC_PRE_5_11 },
		{ &km_uaccess_direct, km_dd_machine_find("a15"), KM_KMAP_ATOMIC_PRE_5_11 },
	};
	struct km_table *t;
	struct km_cost_profile *bbw, *a15;
	char *slow = profile_with_clock("1000");
	long ncol;

	g_setenv("KMODEL_PROFILE_DIR", KM_PROFILES_DIR, TRUE);
	assert_int_equal(km_dd_run(&o, c, 2, &t), 0);
	assert_int_equal(km_table_nrows(t), 3);	/* the memcpy baseline and the two */
	ncol = (long)km_table_ncolumns(t);
	assert_int_equal(km_cost_table_predict(t, "no-such-profile"), -ENOENT);
	assert_int_equal((long)km_table_ncolumns(t), ncol);
	assert_true(km_table_column_index(t, "predicted_mb_s") < 0);
	assert_int_equal(km_cost_table_predict(t, NULL), 0);
	/* the profiles kmodel/cost.h maps the machines to, and the iperf
	 * run's (no machine: the 2012 patch's BeagleBoard-xM) */
	assert_string_equal(km_cost_profile_for("bbw"), "beaglebone-white");
	assert_string_equal(km_cost_profile_for("a15"), "cortex-a15-qemu");
	assert_string_equal(km_cost_profile_for(NULL), "beagleboard-xm-debug-slab");
	assert_string_equal(km_cost_profile_for("bbw-highmem"), "beaglebone-white");
	assert_string_equal(km_cost_profile_for("a15-nohighmem"), "cortex-a15-qemu");
	/* any other machine: none, said ("foo" was mapped to
	 * beaglebone-white without a word) */
	assert_null(km_cost_profile_for("foo"));
	assert_non_null(strstr(km_last_error(), "\"foo\""));
	assert_null(km_cost_profile_for(""));
	assert_int_equal(km_cost_profile_load("beaglebone-white", &bbw), 0);
	assert_int_equal(km_cost_profile_load("cortex-a15-qemu", &a15), 0);
	for (size_t r = 0; r < 3; r++) {
		const char *v = cell(t, r, "variant")->s, *m = cell(t, r, "machine")->s;

		if (!strcmp(v, "memcpy")) {
			assert_int_equal(cell(t, r, "predicted_mb_s")->type, KM_VALUE_NONE);
			continue;
		}
		assert_true(cell(t, r, "predicted_mb_s")->d ==
			    km_cost_predict_row(!strcmp(m, "a15") ? a15 : bbw, t, r, NULL, NULL));
	}
	km_table_free(t);
	/* --profile: every row with the one named */
	assert_int_equal(km_dd_run(&o, c, 2, &t), 0);
	assert_int_equal(km_cost_table_predict(t, slow), 0);
	{
		struct km_cost_profile *p;

		assert_int_equal(km_cost_profile_load(slow, &p), 0);
		for (size_t r = 1; r < 3; r++)
			assert_true(cell(t, r, "predicted_mb_s")->d ==
				    km_cost_predict_row(p, t, r, NULL, NULL));
		km_cost_profile_free(p);
	}
	/* a double: compared as one (converting -22.0 to the unsigned long of
	 * assert_int_equal() is undefined, and clang's UBSan says so) */
	assert_true(km_cost_predict_row(bbw, t, 3, NULL, NULL) == -EINVAL);
	km_table_free(t);
	km_cost_profile_free(bbw);
	km_cost_profile_free(a15);
	g_unsetenv("KMODEL_PROFILE_DIR");
	g_unlink(slow);
	g_free(slow);
}

/* the arithmetic of a derivation: numbers, + - x * / and parentheses */
static double expr_sum(const char **s);

static double expr_atom(const char **s)
{
	double v;
	char *end;

	while (**s == ' ')
		(*s)++;
	if (**s == '(') {
		(*s)++;
		v = expr_sum(s);
		while (**s == ' ')
			(*s)++;
		if (**s == ')')
			(*s)++;
		else
			return NAN;
		return v;
	}
	v = g_ascii_strtod(*s, &end);
	if (end == *s)
		return NAN;
	*s = end;
	return v;
}

static double expr_product(const char **s)
{
	double v = expr_atom(s);

	for (;;) {
		while (**s == ' ')
			(*s)++;
		if (**s == 'x' || **s == '*')
			(*s)++, v *= expr_atom(s);
		else if (**s == '/')
			(*s)++, v /= expr_atom(s);
		else
			return v;
	}
}

static double expr_sum(const char **s)
{
	double v = expr_product(s);

	for (;;) {
		while (**s == ' ')
			(*s)++;
		if (**s == '+')
			(*s)++, v += expr_product(s);
		else if (**s == '-')
			(*s)++, v -= expr_product(s);
		else
			return v;
	}
}

/*
 * A derived value's comment ends in its arithmetic, "<terms> = <value>":
 * the terms (the longest run of numbers, spaces, + - x * / and
 * parentheses before the last " = ") must add up to the number after it,
 * and that number must be the key's value (to its printed precision).
 * Returns an error message (g_free) or NULL.
 */
static gchar *check_derivation(const char *comment, double value)
{
	const char *eq = g_strrstr(comment, " = "), *start;
	double lhs, rhs;
	char *end;

	if (!eq)
		return g_strdup("no \"<terms> = <value>\" at its end");
	rhs = g_ascii_strtod(eq + 3, &end);
	if (end == eq + 3)
		return g_strdup("no number after its last \" = \"");
	for (start = eq; start > comment && strchr("0123456789.+-x*/() ", start[-1]); start--)
		;
	/* not a word ending in x (a product), nor a parenthesis or full stop
	 * that closes the prose before the terms */
	while (*start == ' ' || *start == 'x' || *start == ')' || (*start == '.' && start[1] == ' '))
		start++;
	{
		const char *s = start;

		lhs = expr_sum(&s);
		while (*s == ' ')
			s++;
		if (s != eq + 1 || isnan(lhs))
			return g_strdup_printf("its terms \"%.*s\" do not parse", (int)(eq - start), start);
	}
	if (fabs(lhs - rhs) > 0.01 * fabs(rhs) + 0.01)
		return g_strdup_printf("its terms make %g, not %g", lhs, rhs);
	if (fabs(rhs - value) > 0.005 * fabs(value) + 0.01)
		return g_strdup_printf("it derives %g, the key is %g", rhs, value);
	return NULL;
}

static void test_derivation_check(void **state)
{
	gchar *e;

	assert_null(check_derivation("a: 12 + 3 = 15", 15));
	assert_null(check_derivation("mean: (410 + 625) / 2 = 517.5", 517.5));
	assert_null(check_derivation("rate 510 / 103 = 4.95", 4.95));
	assert_null(check_derivation("0.3 x 13 + 0.7 x 3 = 6", 6));
	/* the review's case: a list of 10 pages priced as 12 refills */
	e = check_derivation("refills: 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 = 12", 12);
	assert_non_null(e);
	g_free(e);
	e = check_derivation("12 + 3 = 15", 16);	/* the key says otherwise */
	assert_non_null(e);
	g_free(e);
	e = check_derivation("about 450 each", 450);	/* no arithmetic */
	assert_non_null(e);
	g_free(e);
	(void)state;
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
	/*
	 * Every derived value shows its arithmetic (check_derivation()): each
	 * count of the paths table that is not 0, and each value of the
	 * profiles' [kernel] and [cycles] that is not 0 and not calibrated.
	 * The table holds no calibrated value (the loader refuses one).
	 */
	{
		const char *files[] = { "kernel-paths", "beaglebone-white", "cortex-a15-qemu",
					"beagleboard-xm-debug-slab" };

		for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
			gchar *file = g_strdup_printf("%s/%s.ini", KM_PROFILES_DIR, files[i]);
			GKeyFile *kf = g_key_file_new();
			gchar **groups;
			unsigned int derived = 0;

			assert_true(g_key_file_load_from_file(kf, file, G_KEY_FILE_KEEP_COMMENTS, NULL));
			groups = g_key_file_get_groups(kf, NULL);
			for (gchar **g = groups; *g; g++) {
				gchar **keys;

				if (i && strcmp(*g, "cycles") && strcmp(*g, "kernel"))
					continue;
				keys = g_key_file_get_keys(kf, *g, NULL, NULL);
				for (gchar **k = keys; k && *k; k++) {
					gchar *c = g_key_file_get_comment(kf, *g, *k, NULL);
					gchar *raw = g_key_file_get_value(kf, *g, *k, NULL);
					gchar *src = g_strstrip(g_strdup(c ? c : "")), *err;
					double v = g_ascii_strtod(raw, NULL);

					if (v != 0 && !g_str_has_prefix(src, "calibrated:") &&
					    strcmp(*k, "version") && strcmp(*k, "paths")) {
						gchar *flat = g_strdelimit(g_strdup(src), "\n", ' ');

						if ((err = check_derivation(flat, v)))
							fail_msg("%s: [%s] %s=%s: %s", file, *g, *k, raw, err);
						derived++;
						g_free(flat);
					}
					g_free(src);
					g_free(raw);
					g_free(c);
				}
				g_strfreev(keys);
			}
			assert_true(derived > 0);
			g_strfreev(groups);
			g_key_file_free(kf);
			g_free(file);
		}
	}
}

/* the events the cost model prices are counted where the kernel pays */
static void test_events_counted(void **state)
{
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_events ev;
	struct km_page *pg[2];
	unsigned char buf[64] = { 0 };
	unsigned long a;
	void *k, *obj;

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
	/* raw_copy_{from,to}_user(), __clear_user() (v5.7): each one call
	 * inside the PAN domain switch; the copies with the Spectre mask */
	assert_int_equal(ev.uaccess_pan_switches, 3);
	assert_int_equal(ev.uaccess_range_masks, 2);
	assert_int_equal(ev.kmalloc_class[7], 1);	/* 100 bytes: kmalloc-128 */
	assert_int_equal(ev.kfree_class[7], 1);		/* its kfree(), the same class */
	assert_int_equal(ev.kmalloc_arm_bytes, 128);
	assert_int_equal(ev.kfree_arm_bytes, 128);
	/* one arm_copy_*_user() call, however many pages it spans (dd's
	 * 4 KiB blocks 8 bytes into a page: two), a walk per page */
	{
		unsigned char page[4096] = { 0 };

		km_events_reset(f.m);
		assert_int_equal(km_copyout(f.t, &km_uaccess_direct, a + 8, page, 4096), 0);
		assert_int_equal(km_copyin(f.t, &km_uaccess_direct, page, a + 8, 4096), 0);
		assert_int_equal(km_clear_user_with(f.t, &km_uaccess_direct, a + 8, 4096), 0);
		km_events_get(f.m, &ev);
		assert_int_equal(ev.memcpy_calls, 2);
		assert_int_equal(ev.memset_calls, 1);
		assert_int_equal(ev.uaccess_pan_switches, 3);
		assert_int_equal(ev.uaccess_range_masks, 2);
		assert_int_equal(ev.pt_walks, 3 * 2);
		assert_int_equal(ev.memcpy_bytes, 2 * 4096);
		assert_int_equal(ev.clear_bytes, 4096);
		km_events_reset(f.m);
	}
	/* the RFC's page array of a 17-page copy, kmalloc_array(17,
	 * sizeof(struct page *)): 136 bytes here, 68 on 32-bit ARM -- its
	 * class and its __GFP_ZERO memset are ARM's kmalloc-128, not the
	 * host's 192 (kmalloc_bytes stays the host object's) */
	{
		unsigned long b = km_test_map(&f, 0, 17, KM_PROT_READ | KM_PROT_WRITE);
		unsigned char *big = g_malloc0(17 * 4096);

		/* fault the pages in first: their zeroing is not the array's */
		assert_int_equal(km_copyout(f.t, &km_uaccess_direct, b, big, 17 * 4096), 0);
		km_events_reset(f.m);
		assert_int_equal(km_copyout(f.t, &km_uaccess_gup_kmap_rfc, b, big, 17 * 4096), 0);
		km_events_get(f.m, &ev);
		assert_int_equal(ev.kmalloc_calls, 1);
		assert_int_equal(ev.kmalloc_class[7], 1);
		assert_int_equal(ev.kmalloc_bytes, 192);	/* host: kmalloc-192 */
		assert_int_equal(ev.kmalloc_arm_bytes, 128);	/* ARM: kmalloc-128 */
		assert_int_equal(ev.clear_bytes, 128);		/* __GFP_ZERO */
		/* the RFC's kfree() of the array: ARM's class and bytes too */
		assert_int_equal(ev.kfree_calls, 1);
		assert_int_equal(ev.kfree_class[7], 1);
		assert_int_equal(ev.kfree_class[8], 0);
		assert_int_equal(ev.kfree_bytes, 192);
		assert_int_equal(ev.kfree_arm_bytes, 128);
		/* the RFC's own code: one gup_kmap_copy_to_user(), one
		 * do_op_one_page() for each of the 17 pages */
		assert_int_equal(ev.gup_kmap_calls, 1);
		assert_int_equal(ev.gup_kmap_pages, 17);
		/* one copyin of 4 KiB each: the calls and the chunks it counts */
		{
			static const struct {
				const char *name;
				bool rfc;		/* else the direct variant */
				unsigned long off;	/* from b */
				unsigned long left, calls, pages;
			} rows[] = {
				{ "dd's 4 KiB 8 bytes into a page: 4088 + 8", true, 8, 0, 1, 2 },
				{ "a partial pin copies nothing (the RFC's flaw)", true,
				  16 * 4096 + 8, 4096, 1, 0 },
				{ "the direct variant has no such code", false, 8, 0, 0, 0 },
			};

			for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
				km_events_reset(f.m);
				if (km_copyin(f.t, rows[i].rfc ? &km_uaccess_gup_kmap_rfc
							       : &km_uaccess_direct,
					      big, b + rows[i].off, 4096) != rows[i].left)
					fail_msg("%s: not %lu left", rows[i].name, rows[i].left);
				km_events_get(f.m, &ev);
				if (ev.gup_kmap_calls != rows[i].calls ||
				    ev.gup_kmap_pages != rows[i].pages)
					fail_msg("%s: %llu calls, %llu pages", rows[i].name,
						 (unsigned long long)ev.gup_kmap_calls,
						 (unsigned long long)ev.gup_kmap_pages);
			}
		}
		g_free(big);
	}
}

/* an LPAE kernel (fast_gup on ARM) has no CPU_SW_DOMAIN_PAN */
static const struct km_machine_config lpae = { .fast_gup = true };

static void test_events_counted_lpae(void **state)
{
	struct km_fixture g = *(struct km_fixture *)*state;	/* km_fixture_setup_cfg(lpae) */
	struct km_events ev;
	unsigned char buf[64] = { 0 };
	unsigned long b;

	b = km_test_map(&g, 0, 1, KM_PROT_READ | KM_PROT_WRITE);
	assert_int_equal(km_copyout(g.t, &km_uaccess_direct, b, buf, 64), 0);
	assert_int_equal(km_clear_user_with(g.t, &km_uaccess_direct, b, 16), 0);
	km_events_get(g.m, &ev);
	assert_int_equal(ev.uaccess_pan_switches, 0);
	assert_int_equal(ev.uaccess_range_masks, 1);
}

/*
 * The two "warm" counters (kmodel/machine.h: at most
 * KM_EVENTS_WARM_BYTES copied or set between the two writes of a line).
 * clear_slab_warm_bytes: __GFP_ZERO of the object SLUB's LIFO freelist
 * hands back (mm/slub.c slab_alloc_node(), v5.7), the RFC's page array
 * each call; clear_refilled_bytes: the bytes shmem_write_end()'s
 * zero_user_segments() zeroed in a new page (mm/shmem.c, v5.7) that the
 * next writes of dd's 512-byte blocks copy over.
 */
/* write(2) of @n bytes of user memory @a to @file at @pos, through direct */
static void write_at(struct km_fixture *f, struct km_shmem_file *file, unsigned long a,
		     uint64_t pos, size_t n)
{
	struct km_iovec v = { a, n };
	struct km_iov_iter it;

	km_iov_iter_init(&it, &v, 1, n);
	assert_int_equal(km_shmem_write_iter(f->t, &km_uaccess_direct, file, &pos, &it), (long)n);
}

static void test_warm_counters(void **state)
{
	const unsigned long P = 4096;
	struct km_fixture f = *(struct km_fixture *)*state;	/* km_fixture_setup() */
	struct km_events ev;
	struct km_shmem_file *file;
	unsigned char *big = g_malloc0(8 * P);
	unsigned long a;
	void *obj;

	/* a new slab's object is cold, however little was copied before */
	obj = km_kmalloc(f.t, 3000, KM_GFP_KERNEL | KM_GFP_ZERO);	/* kmalloc-4096 */
	km_events_get(f.m, &ev);
	assert_true(ev.memcpy_bytes + ev.clear_bytes <= KM_EVENTS_WARM_BYTES);
	assert_int_equal(ev.clear_slab_warm_bytes, 0);
	km_kfree(f.t, obj);
	a = km_test_map(&f, 0, 8, KM_PROT_READ | KM_PROT_WRITE);
	assert_int_equal(km_copyout(f.t, &km_uaccess_direct, a, big, 8 * P), 0);  /* faulted in */
	km_events_reset(f.m);
	/* the one kfree() pushed comes back warm */
	obj = km_kmalloc(f.t, 3000, KM_GFP_KERNEL | KM_GFP_ZERO);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.clear_bytes, 4096);
	assert_int_equal(ev.clear_slab_warm_bytes, 0);	/* 32 KiB copied since */
	km_kfree(f.t, obj);
	obj = km_kmalloc(f.t, 3000, KM_GFP_KERNEL | KM_GFP_ZERO);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.clear_slab_warm_bytes, 4096);
	/* without __GFP_ZERO nothing is zeroed, warm or not */
	km_kfree(f.t, obj);
	obj = km_kmalloc(f.t, 3000, KM_GFP_KERNEL);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.clear_slab_warm_bytes, 4096);
	/* warm up to KM_EVENTS_WARM_BYTES copied since the kfree(), not beyond */
	for (unsigned long gap = KM_EVENTS_WARM_BYTES - 1; gap <= KM_EVENTS_WARM_BYTES + 1; gap++) {
		km_kfree(f.t, obj);
		assert_int_equal(km_copyout(f.t, &km_uaccess_direct, a, big, gap), 0);
		km_events_reset(f.m);	/* the distance counts across it */
		obj = km_kmalloc(f.t, 3000, KM_GFP_KERNEL | KM_GFP_ZERO);
		km_events_get(f.m, &ev);
		assert_int_equal(ev.clear_slab_warm_bytes, gap <= KM_EVENTS_WARM_BYTES ? 4096 : 0);
	}
	km_kfree(f.t, obj);

	/* dd's 512-byte writes into a new page: the first zeroes [512, P),
	 * the second copies over 512 of those bytes */
	assert_int_equal(km_shmem_file_new(f.m, &file), 0);
	km_events_reset(f.m);
	write_at(&f, file, a, 0, 512);
	write_at(&f, file, a, 512, 512);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.clear_bytes, P - 512);
	assert_int_equal(ev.clear_refilled_bytes, 512);
	/* over written and zeroed bytes: only the zeroed ones count, once */
	write_at(&f, file, a, 768, 512);
	write_at(&f, file, a, 768, 512);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.clear_refilled_bytes, 512 + 256);
	/* cold after more than KM_EVENTS_WARM_BYTES copied */
	assert_int_equal(km_copyout(f.t, &km_uaccess_direct, a, big, KM_EVENTS_WARM_BYTES + 1), 0);
	write_at(&f, file, a, 1280, 512);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.clear_refilled_bytes, 512 + 256);
	/* a write into the middle of a new page zeroes both sides: the head's
	 * bytes count once too */
	write_at(&f, file, a, P + 1024, 512);
	km_events_reset(f.m);
	write_at(&f, file, a, P + 512, 512);
	write_at(&f, file, a, P + 512, 512);
	write_at(&f, file, a, P, 512);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.clear_refilled_bytes, 512 + 512);
	/* the model follows the last zeroed page: a write to the page before
	 * it, at the offsets of its zeroed tail, refills nothing; one to it
	 * does */
	write_at(&f, file, a, 1536, 512);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.clear_refilled_bytes, 512 + 512);
	write_at(&f, file, a, P + 1536, 512);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.clear_refilled_bytes, 512 + 512 + 512);
	/* a write past the zeroed tail's start ends that range: neither the
	 * bytes it skipped nor those after it count any more */
	write_at(&f, file, a, 2 * P, 512);
	km_events_reset(f.m);
	write_at(&f, file, a, 2 * P + 1024, 512);
	write_at(&f, file, a, 2 * P + 1536, 512);
	write_at(&f, file, a, 2 * P + 512, 512);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.clear_refilled_bytes, 512);
	/* a page written whole is not zeroed: nothing to refill */
	km_shmem_file_truncate(file);
	km_events_reset(f.m);
	write_at(&f, file, a, 0, P);
	write_at(&f, file, a, 0, P);
	km_events_get(f.m, &ev);
	assert_int_equal(ev.clear_bytes, 0);
	assert_int_equal(ev.clear_refilled_bytes, 0);
	km_shmem_file_free(file);
	g_free(big);
	(void)state;
}

/* with a working set, the sets in warm lines run at the L1 rate (set_l1
 * 8 bytes a cycle), the other kernel-side sets stream (10 cycles a
 * byte); the warm bytes never exceed the sets; without a working set all
 * sets are in L1 */
static void test_warm_sets_priced(void **state)
{
	char *path;
	struct km_cost_profile *p = load_memory(&path, 0, 0, 10);
	struct km_events ev = { .clear_bytes = 1000, .clear_slab_warm_bytes = 64,
				.clear_refilled_bytes = 336, .uaccess_from_bytes = 100,
				.memcpy_bytes = 100 };
	struct km_cost_workload w = { .working_set = 4096 };
	struct km_cost_result r;

	assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
	assert_true(item(&r, "set bytes") == 600 * 10);
	assert_true(item(&r, "warm set bytes") == 400 / 8.0);
	ev.clear_refilled_bytes = 5000;
	assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
	assert_true(item(&r, "set bytes") == -1);	/* none left: no item */
	assert_true(item(&r, "warm set bytes") == 1000 / 8.0);
	ev.clear_refilled_bytes = 336;
	w.working_set = 0;
	assert_int_equal(km_cost_predict(p, &ev, &w, &r), 0);
	assert_true(item(&r, "set bytes") == 600 / 8.0);
	assert_true(item(&r, "warm set bytes") == 400 / 8.0);
	km_cost_profile_free(p);
	g_unlink(path);
	g_free(path);
	(void)state;
}

/*
 * The host profile km_cost_calibrate_host() (kmodel-bench calibrate) writes
 * loads as a profile:
 * every key present, numeric, sourced; none calibrated. It is written
 * under a locale whose decimal point is a comma (de_DE:
 * "read_mem_cycles=33,30", which the loader refuses) and reads back:
 * km_cost_calibrate_host() writes numbers in the C locale's notation
 * whatever LC_NUMERIC is. ctest provides the locale (LOCPATH,
 * KM_TEST_COMMA_LOCALE: tests/comma_locale.sh); without it the profile is
 * written in the C locale. One calibration (it measures for two or three
 * seconds): a path that cannot be written fails first, before measuring.
 */
/* sysconf(@name), or @fallback where the host does not say */
static long host_sysconf(int name, long fallback)
{
	long v = sysconf(name);

	return v > 0 ? v : fallback;
}

static void test_calibrate_host(void **state)
{
	const char *name = g_getenv("KM_TEST_COMMA_LOCALE");
	char *path = NULL, *text = NULL;
	struct km_cost_profile *p = NULL;
	GRegex *comma = g_regex_new("^[a-z0-9_]+=-?[0-9]+,[0-9]", G_REGEX_MULTILINE, 0, NULL);
	const char *preload = g_getenv("LD_PRELOAD");
	int fd, err;

	assert_int_equal(km_cost_calibrate_host("/nonexistent/dir/host.ini"), -ENOENT);
	/* under valgrind (its preload is in LD_PRELOAD) every operation is
	 * translated: memory no longer costs more than L1, and the profile is
	 * rightly refused as implausible; docs/testing.md runs every test
	 * executable there */
	if (preload && strstr(preload, "vgpreload")) {
		g_regex_unref(comma);
		print_message("under valgrind: host timings are the translator's, not calibrated\n");
		skip();
	}
	fd = g_file_open_tmp("kmhost-XXXXXX.ini", &path, NULL);
	assert_true(fd >= 0);
	close(fd);
	if (!name || !setlocale(LC_NUMERIC, name) || strcmp(localeconv()->decimal_point, ",")) {
		setlocale(LC_NUMERIC, "C");
		print_message("no comma locale: calibrating in the C locale\n");
	}
	/* an implausible result is -EAGAIN (another process took the caches
	 * or the memory bus: a CI runner's neighbours): measured again, as
	 * kmodel-bench calibrate does, up to 3 attempts */
	assert_int_equal(km_cost_calibrate_host_attempts(path, 0), -EINVAL);
	err = km_cost_calibrate_host_attempts(path, 3);
	if (!err)
		err = km_cost_profile_load(path, &p);
	setlocale(LC_NUMERIC, "C");
	if (err)
		fail_msg("%s", km_last_error());
	assert_string_equal(km_cost_profile_name(p), "host");
	assert_true(km_cost_profile_value(p, "bandwidth", "copy_l1") > 0);
	assert_true(km_cost_profile_value(p, "cycles", "kmalloc_calls") > 0);
	assert_true(km_cost_profile_value(p, "memory", "read_mem_cycles") > 0);
	assert_false(km_cost_profile_calibrated(p, 0, NULL, NULL, NULL));
	/* the memory tests reach memory (kmodel/cost.h: the profile is
	 * refused otherwise): a load from memory stalls longer than one from
	 * L2, and a line of memset to memory takes at least twice one in L1
	 * (8 MiB inside a 32 MiB L3 gave write_mem_cycles 0.64
	 * against 0.59 in L1, and read_l2_cycles once 0) */
	assert_true(km_cost_profile_value(p, "memory", "read_l2_cycles") > 0);
	assert_true(km_cost_profile_value(p, "memory", "read_mem_cycles") >
		    km_cost_profile_value(p, "memory", "read_l2_cycles"));
	assert_true(km_cost_profile_value(p, "memory", "write_mem_cycles") >=
		    2 * km_cost_profile_value(p, "cache", "line_bytes") /
			    km_cost_profile_value(p, "bandwidth", "set_l1"));
	/* what km_cost_calibrate_host() documents (kmodel/cost.h, the
	 * profile's own comments): a cycle is a nanosecond; the cache sizes
	 * are this host's sysconf() values (32 KiB, 1 MiB and 64 bytes where
	 * it has none); no slab debugging; each timed pair of operations is
	 * charged half to each of its two events */
	assert_true(km_cost_profile_value(p, "cpu", "clock_hz") == 1e9);
	assert_true(km_cost_profile_value(p, "cache", "l1_bytes") ==
		    (double)host_sysconf(_SC_LEVEL1_DCACHE_SIZE, 32768));
	assert_true(km_cost_profile_value(p, "cache", "l2_bytes") ==
		    (double)host_sysconf(_SC_LEVEL2_CACHE_SIZE, 1 << 20));
	assert_true(km_cost_profile_value(p, "cache", "line_bytes") ==
		    (double)host_sysconf(_SC_LEVEL1_DCACHE_LINESIZE, 64));
	assert_true(km_cost_profile_value(p, "slab_debug", "enabled") == 0);
	{
		static const char *const halves[][2] = {
			{ "pages_allocated", "pages_freed" }, { "get_page_calls", "put_page_calls" },
			{ "kmap_low", "kunmap_low" }, { "kmalloc_calls", "kfree_calls" },
		};

		for (size_t i = 0; i < G_N_ELEMENTS(halves); i++)
			if (km_cost_profile_value(p, "cycles", halves[i][0]) !=
			    km_cost_profile_value(p, "cycles", halves[i][1]))
				fail_msg("%s %g != %s %g", halves[i][0],
					 km_cost_profile_value(p, "cycles", halves[i][0]), halves[i][1],
					 km_cost_profile_value(p, "cycles", halves[i][1]));
	}
	/* nanoseconds, not another unit: a kmalloc + kfree of the model is
	 * more than a nanosecond's few cycles on any host, and no core copies
	 * its L1 at 1000 bytes per ns (1 TB/s) */
	assert_true(km_cost_profile_value(p, "cycles", "kmalloc_calls") > 0.5);
	assert_true(km_cost_profile_value(p, "bandwidth", "copy_l1") < 1000);
	assert_true(km_cost_profile_value(p, "bandwidth", "set_l1") < 1000);
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
		{ "kfree_class_0", &ev.kfree_class[0] }, { "kfree_class_15", &ev.kfree_class[15] },
		{ "kmalloc_arm_bytes", &ev.kmalloc_arm_bytes }, { "kfree_arm_bytes", &ev.kfree_arm_bytes },
		{ "eth_rx_bytes", &ev.eth_rx_bytes },
		{ "clear_slab_warm_bytes", &ev.clear_slab_warm_bytes },
		{ "clear_refilled_bytes", &ev.clear_refilled_bytes },
		{ "uaccess_range_masks", &ev.uaccess_range_masks },
		{ "gup_kmap_pages", &ev.gup_kmap_pages },
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
	GArray *rows = km_test_new_group();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_exact_cycles, good_setup, good_teardown),
		cmocka_unit_test_setup_teardown(test_slab_debug_fclone, good_setup, good_teardown),
		cmocka_unit_test_setup_teardown(test_clear_user_short, good_setup, good_teardown),
		cmocka_unit_test(test_working_set_misses),
		cmocka_unit_test_setup_teardown(test_link_bound, good_setup, good_teardown),
		cmocka_unit_test(test_profile_0_3_0_loads),
		cmocka_unit_test(test_refused_missing_file),
		cmocka_unit_test(test_kernel_paths),
		cmocka_unit_test(test_kernel_path_parts),
		cmocka_unit_test(test_kernel_c_rate),
		cmocka_unit_test(test_kernel_path_parts_based_on),
		cmocka_unit_test(test_bandwidth_at_cache_sizes),
		cmocka_unit_test(test_cpu_or_link),
		cmocka_unit_test(test_wire_is_the_device),
		cmocka_unit_test(test_profile_file_resolved),
		cmocka_unit_test(test_no_prediction_for_lost_frames),
		cmocka_unit_test(test_table_predict),
		cmocka_unit_test(test_derivation_check),
		cmocka_unit_test(test_shipped_profiles),
		cmocka_unit_test_setup_teardown(test_events_counted, km_fixture_setup,
						km_fixture_teardown),
		cmocka_unit_test_prestate_setup_teardown(test_events_counted_lpae,
							 km_fixture_setup_cfg, km_fixture_teardown,
							 (void *)&lpae),
		cmocka_unit_test_setup_teardown(test_warm_counters, km_fixture_setup, km_fixture_teardown),
		cmocka_unit_test(test_warm_sets_priced),
		cmocka_unit_test(test_calibrate_host),
		cmocka_unit_test(test_event_names),
	};

	KM_TEST_ROWS(rows, test_refused, NULL, NULL, refusals);
	KM_TEST_ROWS(rows, test_calibrated_at_start, NULL, NULL, calibrated_rows);
	KM_TEST_ROWS(rows, test_kernel_refused, NULL, NULL, kernel_refusals);
	KM_TEST_ROWS(rows, test_link_follows_usb_speed, NULL, NULL, usb_speed_rows);
	KM_TEST_CASES(all, tests, rows);
	return cmocka_run_group_tests_name("test_cost", all, NULL, NULL);
}
