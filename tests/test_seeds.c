// SPDX-License-Identifier: GPL-2.0
/*
 * The ported regions are the seeds' (and the cited kernels') text. Each BEGIN/END-marked region of
 * a ported file is read from the source tree; the lines of it that the
 * seed contains -- the RFC's whole added file (but its SPDX line, which
 * sits above the marker), for asix_tx_fixup() the context and "+" lines
 * (after) or the context and "-" lines (before) of the patch's two hunks
 * in that function -- are hashed (FNV-1a 64, each line with its '\n') and
 * compared with the hash of those seed lines, recorded here from the
 * seeds' mails (the RFC 1/3 "lib: copy_{from,to}_user using gup &
 * kmap_atomic()" to linux-kernel, 12 Jun 2020, 162 added lines; "asix:
 * avoid copies in tx path" as posted to netdev, 5 Jul 2012, hunks
 * "@@ -358,14 +358,30 @@" and "@@ -373,8 +389,8 @@"). A changed, added or
 * removed line in those places fails; so does a line added to the region
 * before them (they move).
 *
 * The other faithful ports are guarded the same way, each whole region
 * against the kernel text it cites: mainline asix_tx_fixup()
 * (drivers/net/usb/asix_common.c, current mainline: torvalds/linux
 * 0c17cc5fc36a with v5.4's put_unaligned_le32 change, 55 lines),
 * sr_tx_fixup() (drivers/net/usb/sr9800.c at torvalds/linux 010e85f9e47c,
 * 39 lines) and ax88179_tx_fixup() (drivers/net/usb/ax88179_178a.c at
 * torvalds/linux 002bba562dd3, 32 lines); the hashes were taken of those
 * functions as read from the kernel sources, not of the ported files.
 * ARM's arch/arm/lib/uaccess_with_memcpy.c (v5.7) from its first line,
 * the SPDX tag "GPL-2.0-only", to the end of arm_clear_user() (213 lines):
 * the text of rppt/linux 1c3056c3cb6f (pre-5.8) with that tree's own
 * page-table-struct experiment undone (current->mm->pgt.page_table_lock
 * and mm_pgt(current->mm) are v5.7's current->mm->page_table_lock and
 * current->mm), the reconstruction src/uaccess/uaccess_with_memcpy.c
 * documents. The v3.6 usbnet tx_fixups test_compat_tx runs through the
 * compatibility layer (tests/compat/tx_body.h): smsc95xx's
 * smsc95xx_calc_csum_preamble() and smsc95xx_tx_fixup() (59 lines) and
 * dm9601_tx_fixup() (35 lines) and int51x1_tx_fixup() (52 lines) of
 * New-B/Linux3.6 b5154d3e5bc2, hashed from
 * the excerpts saved when they were read.
 */
#include "km_test.h"
#include <glib.h>
#include <string.h>

struct span {
	unsigned int first, count;	/* lines of the region, from its first */
};

struct region {
	const char *file;		/* under src/ (or ../tests/) */
	const char *begin, *end;	/* substrings of the marker lines */
	struct span spans[2];
	unsigned int lines;		/* lines the region has */
	guint64 seed_hash;		/* FNV-1a 64 of the seed's lines */
};

static const struct region regions[] = {
	{ "uaccess/gup_kmap_memcpy.c", "---- BEGIN RFC", "---- END RFC",
	  { { 0, 161 } }, 161, 0x0618cb9947b84d6cULL },
	{ "asix/asix_tx_fixup_after.c", "---- BEGIN drivers/net/usb/asix.c", "---- END verbatim",
	  { { 8, 30 }, { 39, 8 } }, 54, 0x7a05962c14fb463aULL },
	{ "asix/asix_tx_fixup_before.c", "---- BEGIN drivers/net/usb/asix.c", "---- END verbatim",
	  { { 8, 14 }, { 23, 8 } }, 38, 0x4cf6ace6836d52daULL },
	{ "asix/asix_tx_fixup_mainline.c", "---- BEGIN drivers/net/usb/asix_common.c",
	  "---- END verbatim", { { 0, 55 } }, 55, 0x4c065b85f73b8fa7ULL },
	{ "asix/sr9800_tx_fixup.c", "---- BEGIN drivers/net/usb/sr9800.c", "---- END verbatim",
	  { { 0, 39 } }, 39, 0x44af2c1a67ed04e0ULL },
	{ "asix/ax88179_tx_fixup.c", "---- BEGIN drivers/net/usb/ax88179_178a.c",
	  "---- END verbatim", { { 0, 32 } }, 32, 0x4c0d170190522a99ULL },
	{ "uaccess/uaccess_with_memcpy.c", "---- BEGIN uaccess_with_memcpy.c v5.7",
	  "---- END uaccess_with_memcpy.c", { { 0, 213 } }, 213, 0x581717c324196db0ULL },
	{ "../tests/compat/tx_body.h", "verbatim: drivers/net/usb/smsc95xx.c v3.6",
	  "end verbatim", { { 0, 59 } }, 59, 0x9b2e145127ac6c4aULL },
	{ "../tests/compat/tx_body.h", "verbatim: drivers/net/usb/dm9601.c v3.6",
	  "end verbatim", { { 0, 35 } }, 35, 0xa7c536f18fc52e40ULL },
	{ "../tests/compat/tx_body.h", "verbatim: drivers/net/usb/int51x1.c v3.6",
	  "end verbatim", { { 0, 52 } }, 52, 0xbf675b2a9e270e4dULL },
	/* the receive side: the lines of each port as ported */
	{ "asix/asix_rx_fixup_v3_5.c", "asix.c asix_rx_fixup(), v3.5",
	  "---- END verbatim", { { 0, 42 } }, 42, 0xc68e15e412705f0cULL },
	{ "asix/sr9800_rx_fixup.c", "sr9800.c sr_rx_fixup()",
	  "---- END verbatim", { { 0, 47 } }, 47, 0x54ce57ce1e435342ULL },
	{ "asix/ax88179_rx_fixup.c", "ax88179_rx_fixup(), 002bba562dd3",
	  "---- END verbatim", { { 0, 117 } }, 117, 0x849c7775c820e706ULL },
	{ "asix/ax88179_rx.h", "ax88179_rx_checksum(), 002bba562dd3",
	  "---- END verbatim", { { 0, 15 } }, 15, 0x795c698f10afe7daULL },
	{ "asix/ax88179_rx_v5_7.c", "ax88179_rx_fixup() before e869e7a17798",
	  "---- END verbatim", { { 0, 60 } }, 60, 0x47b18a5049b75149ULL },
	{ "asix/ax88179_rx_v5_16.c", "ax88179_rx_fixup() before 57bc3d3ae8c1",
	  "---- END verbatim", { { 0, 61 } }, 61, 0xcb1a0b73173a63deULL },
	{ "asix/ax88179_rx_57bc.c", "ax88179_rx_fixup() after 57bc3d3ae8c1",
	  "---- END verbatim", { { 0, 71 } }, 71, 0xfd570b2fed5fbe22ULL },
	{ "asix/asix_rx_fixup_v4_14.c", "asix_rx_fixup_internal(), 0c17cc5fc36a",
	  "---- END verbatim", { { 0, 149 } }, 149, 0x6afc2cde642c618dULL },
};

static guint64 fnv1a(guint64 h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void check_region(const struct region *r)
{
	gchar *path = g_build_filename(KM_SRC_DIR, r->file, NULL), *text = NULL;
	gchar **lines;
	int b = -1, e = -1;
	guint64 h = 0xcbf29ce484222325ULL;

	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	lines = g_strsplit(text, "\n", -1);
	for (int i = 0; lines[i]; i++) {
		if (b < 0 && strstr(lines[i], r->begin))
			b = i + 1;
		else if (b >= 0 && strstr(lines[i], r->end)) {
			e = i;
			break;
		}
	}
	if (b < 0 || e < 0)
		fail_msg("%s: markers not found", r->file);
	if ((unsigned int)(e - b) != r->lines)
		fail_msg("%s: the region has %d lines, the port had %u", r->file, e - b, r->lines);
	for (size_t s = 0; s < G_N_ELEMENTS(r->spans) && r->spans[s].count; s++)
		for (unsigned int i = 0; i < r->spans[s].count; i++) {
			const char *l = lines[b + r->spans[s].first + i];

			h = fnv1a(h, l, strlen(l));
			h = fnv1a(h, "\n", 1);
		}
	if (h != r->seed_hash)
		fail_msg("%s: the ported lines differ from the cited text (hash 0x%016llx, "
			 "cited 0x%016llx)", r->file,
			 (unsigned long long)h, (unsigned long long)r->seed_hash);
	g_strfreev(lines);
	g_free(text);
	g_free(path);
}

/* one test per region, the region its initial state */
static void test_region(void **state)
{
	check_region(*state);
}

int main(void)
{
	/* { name, test, setup, teardown, initial state }: the region */
	const struct CMUnitTest tests[] = {
		{ "rfc_region_is_the_seed", test_region, NULL, NULL, (void *)&regions[0] },
		{ "asix_after_region_is_the_patch", test_region, NULL, NULL, (void *)&regions[1] },
		{ "asix_before_region_is_the_patch", test_region, NULL, NULL,
		  (void *)&regions[2] },
		{ "asix_mainline_region_is_asix_common", test_region, NULL, NULL,
		  (void *)&regions[3] },
		{ "sr9800_region_is_the_pinned_text", test_region, NULL, NULL, (void *)&regions[4] },
		{ "ax88179_region_is_the_pinned_text", test_region, NULL, NULL,
		  (void *)&regions[5] },
		{ "uaccess_with_memcpy_region_is_v5_7", test_region, NULL, NULL,
		  (void *)&regions[6] },
		{ "smsc95xx_v3_6_region_is_the_kernel_text", test_region, NULL, NULL,
		  (void *)&regions[7] },
		{ "dm9601_v3_6_region_is_the_kernel_text", test_region, NULL, NULL,
		  (void *)&regions[8] },
		{ "int51x1_v3_6_region_is_the_kernel_text", test_region, NULL, NULL,
		  (void *)&regions[9] },
		{ "asix_rx_v3_5_region_is_the_ported_text", test_region, NULL, NULL,
		  (void *)&regions[10] },
		{ "sr9800_rx_region_is_the_ported_text", test_region, NULL, NULL,
		  (void *)&regions[11] },
		{ "ax88179_rx_mainline_region_is_the_ported_text", test_region, NULL, NULL,
		  (void *)&regions[12] },
		{ "ax88179_rx_checksum_region_is_the_ported_text", test_region, NULL, NULL,
		  (void *)&regions[13] },
		{ "ax88179_rx_v5_7_region_is_the_ported_text", test_region, NULL, NULL,
		  (void *)&regions[14] },
		{ "ax88179_rx_v5_16_region_is_the_ported_text", test_region, NULL, NULL,
		  (void *)&regions[15] },
		{ "ax88179_rx_57bc3d3ae8c1_region_is_the_ported_text", test_region, NULL, NULL,
		  (void *)&regions[16] },
		{ "asix_rx_v4_14_region_is_the_ported_text", test_region, NULL, NULL,
		  (void *)&regions[17] },
	};

	return cmocka_run_group_tests_name("test_seeds", tests, NULL, NULL);
}
