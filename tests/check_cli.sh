#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kmodel-check fails a variant that claims conformance and passes every
# case but leaks a page reference per copy (tests/plugins/leaky.c): exit 1,
# verdict FAIL, and the JSON (-o FILE) names the leak by code and in its
# leak checks, with the run metadata. A variant that leaks only on the
# second page of a copy_to_user (tests/plugins/leak_second.c) fails too, in
# every context: the suite's adjacent edge copies across two resident
# writable pages. A variant of kmap_local code (tests/plugins/kmap_local.c)
# fails on pre-5.11 machines and passes with --kmap 5.11. (Here on a15, its user pages in highmem; on a lowmem
# machine in every context: test_conformance's
# test_catches_second_page_leak. Exit 0 when every claiming variant passes:
# test_conformance's test_cli_json.)
set -euo pipefail
check=$1 plugin=$2 second=$3 local=$4 overrun=$5 kmap_overrun=$6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check_cli: $*" >&2; exit 1; }

set +e
"$check" uaccess --load "$plugin" --variant leaky,direct --machine bbw \
	--context process,atomic >"$tmp/table" 2>/dev/null
rc=$?
set -e
[ $rc = 1 ] || fail "leaky variant: exit $rc, want 1"
grep -Eq '^leaky\* +bbw +process +yes +FAIL +[0-9]+ +0 ' "$tmp/table" ||
	fail "no FAIL row with 0 failures"
grep -Eq '^direct +bbw +process +yes +pass ' "$tmp/table" || fail "direct does not pass"
grep -Eq '^direct +bbw +atomic +yes +pass ' "$tmp/table" || fail "direct does not pass in atomic"
[ "$(grep -c '^direct ' "$tmp/table")" = 2 ] || fail "not one row per machine and context"
grep -q 'leak_page' "$tmp/table" || fail "no leak_page among the reports by code"

set +e
"$check" uaccess --load "$plugin" --variant leaky --machine bbw --context process --json \
	-o "$tmp/out.json" >"$tmp/stdout"
rc=$?
set -e
[ $rc = 1 ] || fail "--json: exit $rc, want 1"
[ -s "$tmp/stdout" ] && fail "-o FILE still wrote to stdout"
for key in '"metadata"' '"options"' '"libkmodel_version"' '"compiler"' '"host_cpu"' '"verdict" : "FAIL"' \
	   '"reports_by_code"' '"leak_checks"' '"origin"' '"runs"' '"context" : "process"'; do
	grep -q "$key" "$tmp/out.json" || fail "--json: no $key"
done
grep -Eq '"leak_page" : [1-9]' "$tmp/out.json" || fail "--json: leak_page is not counted"

# an output that cannot be written is exit 2, as in kmodel-bench (before
# the runs: no output after a wasted suite); a plugin named without a path
# gets the hint to give one
: >"$tmp/file"
set +e
"$check" uaccess --variant direct --machine bbw --context process -o "$tmp/file/x" 2>"$tmp/err_o"
rc=$?
# (from an empty directory: CMake pads a build-tree RUNPATH with ':', an
# empty entry the loader reads as the current directory, and under clang's
# ASan, which intercepts dlopen(), the tool's RUNPATH applies to the plugin)
mkdir "$tmp/empty"
(cd "$tmp/empty" && "$check" uaccess --load "$(basename "$plugin")") 2>"$tmp/err"
rc2=$?
set -e
[ $rc = 2 ] || fail "-o into a file: exit $rc, want 2"
grep -q "^kmodel-check: $tmp/file/x: " "$tmp/err_o" || fail "-o into a file: no message naming it"
[ $rc2 = 2 ] || fail "--load of a bare name: exit $rc2, want 2"
grep -q "needs a path: --load ./$(basename "$plugin")" "$tmp/err" || fail "--load: no hint to give a path"

set +e
"$check" uaccess --load "$second" --variant leak_second --machine a15 >"$tmp/second" 2>/dev/null
rc=$?
set -e
[ $rc = 1 ] || fail "leak_second: exit $rc, want 1"
[ "$(grep -Ec '^leak_second\* +a15 +[a-z_]+ +yes +FAIL +[0-9]+ +0 ' "$tmp/second")" = 4 ] ||
	fail "leak_second: not FAIL with 0 failures in each of the 4 runs"
grep -q 'leak_page' "$tmp/second" || fail "leak_second: no leak_page among the reports by code"
# --kmap 5.11: the machines of kmap_local_page()'s era. A variant of 5.11
# code (tests/plugins/kmap_local.c) fails on the default pre-5.11 machines,
# each kmap_local_page() a BUG report of its own code (kmap_era, whose
# message is printed under the reports by code), and runs to the end;
# it passes with --kmap 5.11. An unknown era is bad usage.
set +e
"$check" uaccess --load "$local" --variant kmap_local --machine a15 --context process \
	>"$tmp/local" 2>/dev/null
rc=$?
set -e
[ $rc = 1 ] || fail "kmap_local on pre-5.11 machines: exit $rc, want 1"
grep -Eq '^kmap_local\* +a15 +process +yes +FAIL +[0-9]+ +0 ' "$tmp/local" ||
	fail "kmap_local on pre-5.11 machines: no FAIL row with 0 failures"
grep -Eq 'reports by code: kmap_era [0-9]+$' "$tmp/local" ||
	fail "kmap_local: not kmap_era alone among the reports by code"
grep -q '^  BUG kmap_era: kmap_local_page() on a machine of the pre-5.11 kmap era' "$tmp/local" ||
	fail "kmap_local: the report's message is not shown"
"$check" uaccess --load "$local" --variant kmap_local --machine a15 --context process \
	--kmap 5.11 >/dev/null || fail "kmap_local with --kmap 5.11: does not pass"
# kmap_local_page(NULL) then a write at the offset (a port
# that kmaps the page a failed gup left) crashed kmodel-check (SIGSEGV, no
# output); now the row, FAIL by its bad_page BUG reports
set +e
"$check" uaccess --load "$local" --variant kmap_null --machine a15 --context process \
	--kmap 5.11 >"$tmp/null" 2>/dev/null
rc=$?
set -e
[ $rc = 1 ] || fail "kmap_null: exit $rc, want 1"
grep -Eq '^kmap_null\* +a15 +process +yes +FAIL ' "$tmp/null" || fail "kmap_null: no FAIL row"
grep -q '^  BUG bad_page: kmap_local_page(NULL): NULL pointer dereference' "$tmp/null" ||
	fail "kmap_null: the bad_page report is not shown"
"$check" uaccess --variant direct --machine a15 --context atomic --kmap 5.11 --json \
	-o "$tmp/kmap.json" || fail "--kmap 5.11: direct does not pass"
grep -q '"kmap" : "5.11"' "$tmp/kmap.json" || fail "--kmap 5.11: not in the JSON options"
set +e
"$check" uaccess --variant direct --kmap 5.10 >/dev/null 2>"$tmp/err_kmap"
rc=$?
set -e
[ $rc = 2 ] || fail "--kmap 5.10: exit $rc, want 2"
grep -q 'want pre-5.11 or 5.11' "$tmp/err_kmap" || fail "--kmap 5.10: no message"
# a negative --show says so (it printed only the usage line); --help
# defines the edge names of the failing-check lines (user report item 13)
set +e
"$check" uaccess --variant direct --show -1 >/dev/null 2>"$tmp/err_show"
rc=$?
set -e
[ $rc = 2 ] || fail "--show -1: exit $rc, want 2"
grep -q -- '--show -1: want 0 or more' "$tmp/err_show" || fail "--show -1: no message"
# bad usage: exit 2 and a message matching the pattern $1 (grep -E) on stderr
usage_error() {
	local want=$1 rc
	shift
	set +e
	"$check" "$@" >/dev/null 2>"$tmp/err_usage"
	rc=$?
	set -e
	[ $rc = 2 ] || fail "$*: exit $rc, want 2"
	grep -Eq -- "$want" "$tmp/err_usage" || fail "$*: no message like $want"
}
# an empty list selects nothing: a vacuous run that exited 0;
# bad usage now, as is an empty name in a list
for opt in '--variant=' '--variant=direct,' '--machine= , ' '--context='; do
	usage_error 'an empty name \(want NAME\[,NAME\]\.\.\.\)' uaccess "$opt"
done
# an empty --load path is named so, with no hint to prefix it with ./
# (GModule's retry quoted ".so")
set +e
"$check" uaccess --load "" >/dev/null 2>"$tmp/err_load"
rc=$?
set -e
[ $rc = 2 ] || fail "--load '': exit $rc, want 2"
grep -qx 'kmodel-check: km_registry_load: an empty path' "$tmp/err_load" ||
	fail "--load '': not 'an empty path' alone: $(cat "$tmp/err_load")"
# an unknown command is named, not only the usage line
usage_error "^kmodel-check: unknown command 'bogus'; commands: uaccess\$" bogus
# report messages name the ported file relative to the source tree, not the
# build machine's path (__FILE__ of might_fault())
set +e
"$check" uaccess --variant uaccess_with_memcpy --machine bbw --context preempt_off \
	>"$tmp/file_path" 2>/dev/null
set -e
grep -q 'invalid context at src/uaccess/uaccess_with_memcpy.c:[0-9]' "$tmp/file_path" ||
	fail "might_fault() report: no source-relative path"
grep -q ' at /' "$tmp/file_path" && fail "a report names an absolute path"
# a copy_from_user that writes 1000 bytes past its kernel buffer (once
# kmodel-check segfaulted or corrupted its heap): FAIL on dst, the table and
# the JSON say how far it wrote
set +e
"$check" uaccess --load "$overrun" --variant overrun --machine bbw --context process \
	>"$tmp/overrun" 2>"$tmp/err_overrun"
rc=$?
"$check" uaccess --load "$overrun" --variant overrun --machine a15 --context atomic --json \
	-o "$tmp/overrun.json" 2>/dev/null
rc2=$?
set -e
[ $rc = 1 ] && [ $rc2 = 1 ] || fail "overrun: exit $rc and $rc2, want 1 (stderr: $(cat "$tmp/err_overrun"))"
grep -Eq '^overrun\* +bbw +process +yes +FAIL +[0-9]+ +[1-9][0-9]* +0 +0 +[1-9][0-9]* +0 +0 ' \
	"$tmp/overrun" || fail "overrun: no FAIL row with dst failures alone"
grep -q '^overrun on bbw, process: copy_from_user wrote up to 1000 bytes past the end of its kernel buffer' \
	"$tmp/overrun" || fail "overrun: the table does not say how far"
# in the run's counts and in the variant's (the most over its runs; mutant
# check-overrun-total: the variant's said 0)
[ "$(grep -c '"kbuf_overrun" : 1000,' "$tmp/overrun.json")" = 2 ] ||
	fail "overrun: kbuf_overrun 1000 not in the run's and the variant's counts of the JSON"
# a copy that runs 64 bytes past the page it kmapped: without a
# strict kmap mode only the dst failures of the next frame's bytes show; with
# --kmap-strict force-map none do, each overrun is a kmap_guard report; the
# JSON options say the mode (strict: on bbw's lowmem no kmap takes a slot)
set +e
"$check" uaccess --load "$kmap_overrun" --variant kmap_overrun --machine bbw --context process \
	>"$tmp/kmo_off" 2>/dev/null
rc=$?
"$check" uaccess --load "$kmap_overrun" --variant kmap_overrun --machine bbw --context process \
	--kmap-strict force-map >"$tmp/kmo_force" 2>/dev/null
rc2=$?
"$check" uaccess --load "$kmap_overrun" --variant kmap_overrun --machine bbw --context process \
	--kmap-strict strict --json -o "$tmp/kmo.json" 2>/dev/null
rc3=$?
set -e
[ $rc = 1 ] && [ $rc2 = 1 ] && [ $rc3 = 1 ] || fail "kmap_overrun: exit $rc, $rc2, $rc3, want 1"
grep -Eq '^kmap_overrun\* +bbw +process +yes +FAIL +[0-9]+ +[1-9][0-9]* +0 +0 +[1-9][0-9]* +0 +0 ' \
	"$tmp/kmo_off" || fail "kmap_overrun without a strict mode: no FAIL row with dst failures alone"
grep -q kmap_guard "$tmp/kmo_off" && fail "kmap_overrun: kmap_guard without a strict mode"
grep -Eq '^kmap_overrun\* +bbw +process +yes +FAIL +[0-9]+ +0 +0 +0 +0 +0 +[1-9][0-9]* ' \
	"$tmp/kmo_force" || fail "kmap_overrun, force-map: no FAIL row with reports and no failure"
grep -Eq '^kmap_overrun on bbw, process: reports by code: kmap_guard [1-9][0-9]*$' "$tmp/kmo_force" ||
	fail "kmap_overrun, force-map: the reports are not kmap_guard alone"
grep -q 'BUG kmap_guard: access 1 byte past the kmapped page' "$tmp/kmo_force" ||
	fail "kmap_overrun, force-map: the first report does not say where"
grep -q '"kmap_strict" : "strict"' "$tmp/kmo.json" || fail "--json: no kmap_strict option"
usage_error '^kmodel-check: --kmap-strict: want off, strict or force-map, got "bogus"$' \
	uaccess --kmap-strict bogus
"$check" --help >"$tmp/help"
for e in leading trailing readonly untouched adjacent; do
	grep -q "$e:" "$tmp/help" || fail "--help: the edge $e is not defined"
done
grep -q 'per run (machine and context)' "$tmp/help" || fail "--help: --show is not per run"
echo "check_cli: a leaking variant that claims conformance fails (leaking on every copy or on a" \
     "second page only); JSON reports and leak checks; --kmap"
