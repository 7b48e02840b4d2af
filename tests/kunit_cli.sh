#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kmodel-kunit on the kernel's user-copy tests (compiled unchanged through
# the layer) and the boundary suite: usage: kunit_cli.sh KMODEL-KUNIT
# USERCOPY_KUNIT.so TEST_USER_COPY.so BOUNDARY.so KMODEL-CHECK KMAP_LOCAL_68.so
# FEATURES.so FROM_ONLY.so CRASH.so LOOP.so NAMES.so NAMES_PRE412.so BADTABLE.so
# EXITCRASH.so LEAK.so PINWRITE.so KMODEL-BENCH|none
set -u
kunit=$1 usercopy=$2 test_user_copy=$3 boundary=$4 check=$5 kmap68=$6 features=$7
from_only=$8 crash=$9 loop=${10} names=${11} names_pre412=${12} badtable=${13}
exitcrash=${14} leak=${15} pinwrite=${16} bench=${17}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# the expected status of a run, and its output in $tmp/out
expect() {
	want=$1; shift
	"$kunit" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq "$want" ] || no "kmodel-kunit $* exited $rc, want $want: $(head -c 600 "$tmp/err")"
}

# lib/usercopy_kunit.c (mainline) passes its 4 cases on the three variants
# that keep the contract, on both machines; its version (6.12) picks the
# kmap_local era
for v in direct gup_kmap_fixed uaccess_with_memcpy; do
	expect 0 "$usercopy" --variant "$v" --machine bbw,a15
	n=$(grep -c '^    # Totals: pass:4 fail:0 skip:0 total:4$' "$tmp/out")
	[ "$n" -eq 2 ] || no "usercopy_kunit on $v: $n of 2 runs pass 4 of 4"
	grep -q "^ok 1 bbw.$v.kmap-5.11\$" "$tmp/out" || no "usercopy_kunit on $v: no kmap-5.11 run"
	# lib/test_user_copy.c of v5.7 through module_init(): pre-5.11 era
	expect 0 "$test_user_copy" --variant "$v" --machine bbw,a15
	n=$(grep -c '^    ok 1 kunit_test_user_copy$' "$tmp/out")
	[ "$n" -eq 2 ] || no "test_user_copy on $v: $n of 2 runs pass"
	grep -q "^ok 1 bbw.$v.kmap-pre-5.11\$" "$tmp/out" || no "test_user_copy on $v: no pre-5.11 run"
	# the boundary suite passes
	expect 0 "$boundary" --variant "$v"
	grep -q '^    # Totals: pass:4 fail:0 skip:0 total:4$' "$tmp/out" || no "boundary on $v"
done

# the RFC's partial pin returns n where a copy straddles the hole: the two
# trailing-edge cases fail, each with the 8128 straddling (off, n) pairs
# (n - 1 offsets for each n in 1..128); the leading edge passes. So the
# layer's copies do run the selected variant.
expect 1 "$boundary" --variant gup_kmap_rfc
grep -q '^        not ok 2 boundary_from_user_trailing$' "$tmp/out" || no "rfc: from_user_trailing not failed"
grep -q '^        not ok 4 boundary_to_user_trailing$' "$tmp/out" || no "rfc: to_user_trailing not failed"
grep -q '^        ok 1 boundary_from_user_leading$' "$tmp/out" || no "rfc: from_user_leading failed"
n=$(grep -c '\.\.\. 8128 failing cases in all' "$tmp/out")
[ "$n" -eq 2 ] || no "rfc: $n cases with 8128 failures, want 2"
grep -q 'copy_from_user at edge-127, n 128: 128 bytes not copied, want 1' "$tmp/out" ||
	no "rfc: the first straddling case's message"
grep -q "uaccess variant gup_kmap_rfc runs direct's for: clear_user, get_user" "$tmp/err" ||
	no "rfc: the fallback to direct's is not said"

# and its copy_to_user() put_page()s the pages it wrote through the pin
# without set_page_dirty() (gup_kmap_fixed.c's FIX(6)): with the pinned-
# write checker on, the leading edge to user fails too
grep -q '^        not ok 3 boundary_to_user_leading$' "$tmp/out" &&
grep -q '^        # boundary_to_user_leading: BUG pin_not_dirtied: ' "$tmp/out" ||
	no "rfc: to_user_leading does not fail with pin_not_dirtied"

# --json: the same runs, parseable
expect 1 "$boundary" --variant direct,gup_kmap_rfc --json
# (json_to_string()'s pretty form: "key" : value)
[ "$(grep -c '"failures" : 0,' "$tmp/out")" -eq 1 ] &&
[ "$(grep -c '"failures" : 3,' "$tmp/out")" -eq 1 ] &&
[ "$(grep -c '"status" : "fail"' "$tmp/out")" -eq 3 ] &&
[ "$(grep -c '"status" : "pass"' "$tmp/out")" -eq 5 ] &&
grep -q '"metadata" : {' "$tmp/out" || no "--json: $(head -c 600 "$tmp/out")"

# --kmap overrides the plugin's era; bad usage is 2
expect 0 "$usercopy" --variant direct --kmap pre-5.11
grep -q '^ok 1 bbw.direct.kmap-pre-5.11$' "$tmp/out" || no "--kmap pre-5.11 not taken"
expect 2 "$usercopy" --variant nosuch
grep -q 'unknown uaccess variant "nosuch"' "$tmp/err" || no "unknown variant message"
expect 2 "$usercopy" --kmap 4.0
expect 2 "$tmp/none.so"
expect 2
expect 0 --version
expect 0 --help

# <kunit/test.h> itself (tests/kunit/features_kunit.c): init/exit and
# test->priv, the failure texts of lib/kunit/assert.c (mainline), an
# assertion ends its case, kunit_skip() gives "# SKIP reason", a BUG report
# fails a case, KUNIT_ARRAY_PARAM's parameters with their descriptions,
# and KUnit's totals (each parameter counted, as kunit_run_tests() does)
expect 1 "$features" --variant direct
cat >"$tmp/want" <<'KTAP'
        ok 1 features_priv
        # features_expect_fails: EXPECTATION FAILED at tests/kunit/features_kunit.c:57
        Expected 1 + 1 == 3, but
            1 + 1 == 2 (0x2)
        # features_expect_fails: EXPECTATION FAILED at tests/kunit/features_kunit.c:58
        Expected s == "abc", but
            s == "abd"
    strings 7
        not ok 2 features_expect_fails
        # features_assert_ends: ASSERTION FAILED at tests/kunit/features_kunit.c:66
        Expected x == 2 to be true, but is false
        not ok 3 features_assert_ends
        ok 4 features_skip # SKIP not on this machine
        # features_bug: BUG leak_atomic: task exits with preempt_count 1, pagefault_disabled 0
        not ok 5 features_bug
            KTAP version 1
            # Subtest: features_param
            1..3
            ok 1 n=1
            # features_param: EXPECTATION FAILED at tests/kunit/features_kunit.c:97
            Expected *v != 2, but
                *v == 2 (0x2)
            not ok 2 n=2
            ok 3 n=3
        not ok 6 features_param
        # kunit_features: pass:3 fail:4 skip:1 total:8
    not ok 1 kunit_features
KTAP
sed -n '/^        ok 1 features_priv$/,/^    not ok 1 kunit_features$/p' "$tmp/out" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || no "features suite KTAP: $(diff "$tmp/want" "$tmp/got" | head -20)"
grep -q 'never printed' "$tmp/out" && no "a case went on after its assertion or kunit_skip()"

# kmodel-check takes the kmap era from a plugin's KMODEL_KERNEL_VERSION: a
# variant of 6.8 code (kmap_local_page()) passes without --kmap 5.11, and
# fails with --kmap pre-5.11 on the era's BUG reports
"$check" uaccess --load "$kmap68" --variant kmap_local_68 --machine bbw --context process \
	>"$tmp/out" 2>&1 || no "kmodel-check of a 6.8 plugin without --kmap: $(tail -5 "$tmp/out")"
"$check" uaccess --load "$kmap68" --variant kmap_local_68 --machine bbw --context process \
	--kmap pre-5.11 >"$tmp/out" 2>&1
[ $? -eq 1 ] || no "kmodel-check of a 6.8 plugin with --kmap pre-5.11 did not fail"
grep -q 'kmap_era' "$tmp/out" || no "the pre-5.11 run of the 6.8 plugin names no kmap_era report"
# and so does kmodel-bench's dd: the 6.8 variant's rows are kmap_local
# ones, without a report; a built-in's stay pre-5.11; --dd-kmap overrides
[ "$bench" = none ] || {
run_dd() {
	"$bench" -q -r 1 --host -s dd --dd-block-sizes 4K --dd-total-mib 1 --dd-file-mib 1 \
		--dd-machines bbw --csv --load "$kmap68" --dd-variants kmap_local_68,direct "$@"
}
run_dd >"$tmp/dd.csv" 2>"$tmp/err" || no "kmodel-bench dd of a 6.8 plugin: $(head -c 600 "$tmp/err")"
# (variant,builtin,machine,kmap,...; the 17th field: reports)
awk -F, '$1 == "kmap_local_68" && $4 == "5.11" && $17 == 0 { k++ }
	 $1 == "direct" && $4 == "pre-5.11" { d++ } END { exit !(k == 1 && d == 1) }' "$tmp/dd.csv" ||
	no "kmodel-bench dd: the 6.8 plugin's row is not a clean 5.11 one: $(cut -d, -f1-17 "$tmp/dd.csv")"
run_dd --dd-kmap pre-5.11 >"$tmp/dd.csv" 2>"$tmp/err"
awk -F, '$1 == "kmap_local_68" && $4 == "pre-5.11" && $17 > 0 { k++ } END { exit !k }' "$tmp/dd.csv" ||
	no "kmodel-bench dd --dd-kmap pre-5.11: the 6.8 plugin's row has no reports"
}
# a plugin's variant of copy_from_user alone was refused; now it runs
# direct's copy_to_user, conforms, and the tools say so
"$check" uaccess --load "$from_only" --variant from_only --machine bbw --context process \
	>"$tmp/out" 2>"$tmp/err" || no "kmodel-check of a copy_from_user-only variant: $(cat "$tmp/err")"
grep -q "^kmodel-check: uaccess variant from_only ($from_only) runs direct's for: raw_copy_to_user, clear_user" \
	"$tmp/err" || no "kmodel-check does not say what from_only runs of direct's: $(cat "$tmp/err")"
expect 0 "$boundary" --load "$from_only" --variant from_only
grep -q "^kmodel-kunit: uaccess variant from_only (.*) runs direct's for: raw_copy_to_user" "$tmp/err" ||
	no "kmodel-kunit does not say what from_only runs of direct's"
# a suite that crashes or never ends fails its run, not the tool: each run
# is a process of its own; the other runs still print, the exit status is
# 1, not a signal
expect 1 "$crash" --variant direct,gup_kmap_fixed
n=$(grep -c '^    # bbw\.[a-z_]*\.kmap-pre-5\.11: crashed: ' "$tmp/out")
[ "$n" -eq 2 ] || no "crashing suite: $n of 2 runs say crashed: $(head -c 400 "$tmp/out")"
grep -q '^not ok 2 bbw.gup_kmap_fixed.kmap-pre-5.11$' "$tmp/out" || no "crashing suite: run 2 not listed"
# each names the case it died in (the second: crash_first passed); under
# ASan the child exits through the sanitizer instead of by SIGSEGV
n=$(grep -c '^    # bbw\.[a-z_]*\.kmap-pre-5\.11: crashed: .*, in kunit_crash\.crash_null$' "$tmp/out")
[ "$n" -eq 2 ] || no "crashing suite: $n of 2 runs name the crashing case: $(head -c 600 "$tmp/out")"
# the tests that ended before the crash are listed with their results,
# streamed from the child as each ended; the one it died in is "not ok"
# with ktap.rst's ERROR directive and how it died; the rest keep their
# place in the plans without a result line (kunit_parser.py reads them as
# crashed), each named "not run". WHY: SIGSEGV, or a sanitizer's end:
# ASan's exit 1, or SIGABRT where a preset sets abort_on_error=1.
expect 1 "$crash" --variant direct
cat >"$tmp/want" <<'KTAP'
    1..2
        KTAP version 1
        # Subtest: kunit_crash
        1..3
        ok 1 crash_first
        not ok 2 crash_null # ERROR WHY
        # crash_after: not run
        # kunit_crash: pass:1 fail:1 skip:0 total:2
    not ok 1 kunit_crash
    # kunit_crash_later: not run
    # Totals: pass:1 fail:1 skip:0 total:2
not ok 1 bbw.direct.kmap-pre-5.11
KTAP
why='killed by signal 11 \(Segmentation fault\)|killed by signal 6 \(Aborted\)|exited with status 1 before its result .*'
sed -n '/^    1\.\./,$p' "$tmp/out" | sed -E "s/# ERROR ($why)\$/# ERROR WHY/" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || no "crashing suite KTAP: $(diff "$tmp/want" "$tmp/got" | head -20)"
expect 1 "$crash" --variant direct --json
grep -q '"failures" : 1,' "$tmp/out" && grep -q '"error" : "' "$tmp/out" ||
	no "crashing suite: JSON has no error: $(head -c 600 "$tmp/out")"
tr -d ' \n' <"$tmp/out" | grep -o '"case":"[a-z_]*","param":null,"param_index":0,"status":"[a-z_]*"' \
	>"$tmp/got"
cat >"$tmp/want" <<'JSON'
"case":"crash_first","param":null,"param_index":0,"status":"pass"
"case":"crash_null","param":null,"param_index":0,"status":"fail"
"case":"crash_after","param":null,"param_index":0,"status":"not_run"
"case":"crash_after","param":null,"param_index":0,"status":"not_run"
JSON
cmp -s "$tmp/want" "$tmp/got" || no "crashing suite JSON tests: $(cat "$tmp/got")"
grep -Eq "\"error\" : \"($why)\"" "$tmp/out" || no "crashing suite: JSON's crashed test has no error"
# a hang in a parameter: the parameters before it listed, it TIMEOUT, its
# subtest without a plan (how many would come is not known)
expect 1 "$loop" --variant direct --timeout 0.5
grep -q 'crashed: timed out after 0.5 s (--timeout): killed, in kunit_loop\.loop_forever (n=3)$' \
	"$tmp/out" || no "looping suite not timed out, or its case not named: $(head -c 600 "$tmp/out")"
cat >"$tmp/want" <<'KTAP'
        1..2
            KTAP version 1
            # Subtest: loop_forever
            ok 1 n=1
            ok 2 n=2
            not ok 3 n=3 # TIMEOUT after 0.5 s (--timeout): killed
        not ok 1 loop_forever
        # loop_after: not run
        # kunit_loop: pass:2 fail:1 skip:0 total:3
    not ok 1 kunit_loop
KTAP
sed -n '/^        1\.\.2$/,/^    not ok 1 kunit_loop$/p' "$tmp/out" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || no "looping suite KTAP: $(diff "$tmp/want" "$tmp/got" | head -20)"
# a crash in a suite's suite_exit, after its cases passed: named, listed
# after them; two cases of one name are two tests
expect 1 "$exitcrash" --variant direct
cat >"$tmp/want" <<'KTAP'
        1..3
        ok 1 exitcrash_a
        ok 2 exitcrash_a
        not ok 3 suite_exit # ERROR WHY
        # kunit_exitcrash: pass:2 fail:1 skip:0 total:3
    not ok 1 kunit_exitcrash
    # kunit_exitcrash_next: not run
KTAP
sed -n '/^        1\.\.3$/,/^    # kunit_exitcrash_next: not run$/p' "$tmp/out" |
	sed -E "s/# ERROR ($why)\$/# ERROR WHY/" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || no "suite_exit crash KTAP: $(diff "$tmp/want" "$tmp/got" | head -20)"
grep -Eq "^    # bbw\.direct\.kmap-pre-5\.11: crashed: ($why), in kunit_exitcrash\.suite_exit\$" \
	"$tmp/out" || no "suite_exit crash not named: $(head -c 600 "$tmp/out")"
# a case table with a bad name pointer fails its run in the child; the
# tool itself (which never reads the plugin's tables) prints and exits 1
expect 1 "$badtable" --variant direct
grep -q '^not ok 1 bbw\.direct\.kmap-pre-5\.11$' "$tmp/out" ||
	no "bad case table: no failing run: $(head -c 600 "$tmp/out")"
# the names real suites use (tests/kunit/names_kunit.c, at 6.12): the
# descriptions of KUNIT_ARRAY_PARAM_DESC(); deferred actions after the exit
# hook, the last first, a removed one never, a released one at once, and
# after a failed assertion too; alloc_page() zeroed, GFP_ATOMIC quiet in
# atomic context and GFP_KERNEL there might_sleep()'s BUG;
# __copy_from_user_inatomic() short at a hole, its tail left as it was
expect 1 "$names" --variant direct --machine bbw,a15
cat >"$tmp/want" <<'KTAP'
        1..6
            KTAP version 1
            # Subtest: names_param_desc
            1..2
            # names_param_desc: exit
            ok 1 one
            # names_param_desc: exit
            ok 2 two
        ok 1 names_param_desc
        # names_actions: action 3
        # names_actions: case ends
        # names_actions: exit
        # names_actions: action 3
        # names_actions: action 2
        # names_actions: action 1
        ok 2 names_actions
        # names_action_after_assert: ASSERTION FAILED at tests/kunit/names_kunit.c:94
        Expected 1 == 2, but
        # names_action_after_assert: exit
        # names_action_after_assert: action 1
        not ok 3 names_action_after_assert
        # names_alloc_page: __GFP_HIGHMEM: lowmem
        # names_alloc_page: exit
        ok 4 names_alloc_page
        # names_alloc_page_sleeps: exit
        # names_alloc_page_sleeps: BUG sleep_in_atomic: sleeping function called from invalid context at tests/kunit/names_kunit.c:131: in_atomic(): 1, irqs_disabled(): 0, preempt_count 1, pagefault_disabled 0
        not ok 5 names_alloc_page_sleeps
        # names_copy_inatomic: exit
        ok 6 names_copy_inatomic
        # kunit_names: pass:5 fail:2 skip:0 total:7
    not ok 1 kunit_names
KTAP
sed -n '/^    # Subtest: bbw\./,/^    not ok 1 kunit_names$/p' "$tmp/out" | sed -n '/^        1\.\.6$/,$p' >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || no "names suite KTAP: $(diff "$tmp/want" "$tmp/got" | head -20)"
# a15's highmem: the __GFP_HIGHMEM page has no permanent mapping
grep -q '^        # names_alloc_page: __GFP_HIGHMEM: highmem$' "$tmp/out" ||
	no "names suite: alloc_page(__GFP_HIGHMEM) on a15 is not a highmem page"
# at 4.11 the tail is zeroed (ARM's fixup); the RFC's variant, which the
# copy goes through, returns n at the hole
expect 1 "$names_pre412" --variant direct
grep -q '^        ok 6 names_copy_inatomic$' "$tmp/out" || no "names suite at 4.11: inatomic tail"
expect 1 "$names" --variant gup_kmap_rfc
grep -q '^        not ok 6 names_copy_inatomic$' "$tmp/out" &&
grep -q '^            left == 16 (0x10)$' "$tmp/out" ||
	no "names suite: __copy_from_user_inatomic() does not run gup_kmap_rfc"
# a page a case leaks (get_user_pages_fast() without put_page()) stays
# referenced on the machine the suite's cases share: it is the BUG of the
# case that leaked it, once, and the case after it passes
expect 1 "$leak" --variant direct
cat >"$tmp/want" <<'KTAP'
        1..2
        # leak_gupf: BUG leak_page: pfn PFN still referenced (get_user_pages*(): no put_page()?): refcount 1, mapcount 0
        not ok 1 leak_gupf
        ok 2 fine
        # kunit_leak: pass:1 fail:1 skip:0 total:2
    not ok 1 kunit_leak
KTAP
sed -n '/^        1\.\.2$/,/^    not ok 1 kunit_leak$/p' "$tmp/out" |
	sed -E 's/pfn [0-9]+ still/pfn PFN still/' >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || no "leak suite KTAP: $(diff "$tmp/want" "$tmp/got" | head -20)"
# the pinned-write checker is on in kmodel-kunit's machines: a page pinned
# with FOLL_WRITE, written through kmap() and unpinned clean is the
# pin_not_dirtied BUG of its case (drivers/xen/gntdev.c before
# 779055842da5); set_page_dirty_lock() or unpin_user_pages_dirty_lock()
# first passes. On lowmem (bbw) and a highmem page (a15).
expect 1 "$pinwrite" --variant direct --machine bbw,a15
cat >"$tmp/want" <<'KTAP'
        1..3
        # pinwrite_clean: BUG pin_not_dirtied: pfn PFN: written while pinned with FOLL_WRITE, released clean: no set_page_dirty_lock() before put_page()/unpin_user_page(), so writeback drops the write (xen/gntdev 779055842da5)
        not ok 1 pinwrite_clean
        ok 2 pinwrite_dirtied
        ok 3 pinwrite_dirty_lock
        # kunit_pinwrite: pass:2 fail:1 skip:0 total:3
    not ok 1 kunit_pinwrite
KTAP
for mach in bbw a15; do
	sed -n "/^    # Subtest: $mach\./,/^    not ok 1 kunit_pinwrite\$/p" "$tmp/out" |
		sed -n '/^        1\.\.3$/,$p' | sed -E 's/pfn [0-9]+:/pfn PFN:/' >"$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" ||
		no "pinwrite suite KTAP on $mach: $(diff "$tmp/want" "$tmp/got" | head -20)"
done
# a fraction of a second is a limit, not none (nor 0 s): a run that ends
# within it passes
expect 0 "$boundary" --variant direct --timeout 0.9
expect 2 "$loop" --timeout -1
[ "$fail" -eq 0 ] && echo "kunit_cli: all passed"
exit "$fail"
