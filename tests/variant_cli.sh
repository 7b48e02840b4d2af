#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# --variant in every tool that runs ported code (kmodel-check,
# kmodel-kunit, kmodel-sweep, kmodel-bench): spelled the same (-v, a
# repeatable comma list), an unknown name exits 2 naming it and the known
# ones; kmodel-bench's picks rows: a uaccess variant's dd rows, a usbnet
# variant's iperf rows, a plugin's variant too.
set -uo pipefail
check=$1 kunit=$2 sweep=$3 bench=$4 suite=$5 plugin=$6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "variant_cli: $*" >&2; exit 1; }
run() { timeout 120 "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
want() { [ "$rc" = "$1" ] || { cat "$tmp/err" >&2; fail "$2: exit $rc, want $1"; }; }
has() { grep -q -- "$1" "$tmp/$2" || { cat "$tmp/$2" >&2; fail "$3: no \"$1\""; }; }

# the same option and message in each tool: PROG: unknown KIND "NAME"; known: ...
for t in "check:$check uaccess:uaccess variant:direct" "kunit:$kunit $suite:uaccess variant:direct" \
	 "sweep:$sweep asix:usbnet variant:after" "bench:$bench:variant:direct gup_kmap_rfc"; do
	IFS=: read -r name cmd kind known <<<"$t"
	# shellcheck disable=SC2086 # cmd is the tool and its subcommand
	run $cmd --variant nosuch
	want 2 "$name --variant nosuch"
	grep -Eq "^kmodel-[a-z]+: unknown $kind \"nosuch\"; known:( [a-z0-9_]+)* ${known%% *}( |\$)" "$tmp/err" ||
		fail "$name --variant nosuch: not the message naming it and the known ones ($(cat "$tmp/err"))"
	# shellcheck disable=SC2086
	run $cmd -v "${known%% *},nosuch"
	want 2 "$name -v ${known%% *},nosuch"
	has "unknown $kind \"nosuch\"" err "$name -v with a comma list"
	# shellcheck disable=SC2086
	run $cmd --variant ''
	want 2 "$name --variant ''"
	has '--variant "": an empty name' err "$name --variant ''"
	# shellcheck disable=SC2086
	"${cmd%% *}" --help >"$tmp/help"
	grep -Eq -- '-v, --variant=NAME\[,NAME\] ' "$tmp/help" || fail "$name --help: no -v, --variant=NAME[,NAME]"
done

# kmodel-bench: the named variants' rows, each scenario's of its kind
bench1=(-q -r 1 --wide --host --dd-block-sizes 4K --dd-total-mib 1 --dd-file-mib 1 --dd-machines bbw
	--iperf-packets 20)
run "$bench" "${bench1[@]}" --load "$plugin" --variant gup_kmap_fixed,stall -v after
want 0 "bench --variant gup_kmap_fixed,stall -v after"
awk '$1 ~ /^(memcpy|direct|gup_kmap_rfc|gup_kmap_fixed|uaccess_with_memcpy|stall\*)$/ && $2 == "bbw" { print $1 }' \
	"$tmp/out" | sort | tr '\n' ' ' >"$tmp/dd"
[ "$(cat "$tmp/dd")" = "gup_kmap_fixed memcpy stall* " ] ||
	fail "bench --variant: dd rows $(cat "$tmp/dd"), want memcpy, gup_kmap_fixed, stall"
awk '$2 ~ /^(tcp|tcp\+tap|udp)$/ { print $1 }' "$tmp/out" | sort -u | tr '\n' ' ' >"$tmp/iperf"
[ "$(cat "$tmp/iperf")" = "after " ] || fail "bench --variant: iperf rows of $(cat "$tmp/iperf"), want after's"
# a scenario none of the names is for is left out; asked for with -s, an error
run "$bench" "${bench1[@]}" --variant direct
want 0 "bench --variant direct"
grep -q '^iperf' "$tmp/out" && fail "bench --variant direct: an iperf table"
grep -Eq '^direct +bbw ' "$tmp/out" || fail "bench --variant direct: no dd row"
run "$bench" "${bench1[@]}" -s dd,iperf --variant direct
want 2 "bench -s dd,iperf --variant direct"
has "-s iperf: --variant names no usbnet variant" err "bench -s iperf --variant direct"
run "$bench" "${bench1[@]}" --variant direct --dd-variants direct
want 2 "bench --variant with --dd-variants"
has "--variant and --dd-variants exclude each other" err "bench --variant --dd-variants"
# one scenario left: --csv writes its table
run "$bench" "${bench1[@]}" --variant after --csv
want 0 "bench --variant after --csv"
head -1 "$tmp/out" | grep -q '^variant,builtin,traffic,' || fail "bench --variant after --csv: not iperf's CSV"
exit 0
