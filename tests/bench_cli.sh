#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kmodel-bench's output contract (issue 10, "the tools tell the truth"):
# one CSV schema per stream, --csv-dir writes one file per scenario whose
# rows all have the header's fields, a run of several scenarios refuses a
# plain --csv, -o writes the file and nothing to stdout, --json carries the
# run metadata and a table per scenario. Tiny runs: seconds.
set -euo pipefail
bench=$1
stall=$2	# a plugin whose variant "stall" never copies in atomic context
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
small=(-q -r 1 --dd-block-sizes 4K,1K --dd-total-mib 1 --dd-file-mib 1
       --dd-machines bbw,a15 --iperf-packets 50 --load "$stall")
fail() { echo "bench_cli: $*" >&2; exit 1; }

"$bench" "${small[@]}" --csv-dir "$tmp/csv" -o "$tmp/out.txt" >"$tmp/stdout"
[ -s "$tmp/stdout" ] && fail "-o FILE still wrote to stdout"
grep -q '^dd if=' "$tmp/out.txt" || fail "-o FILE: no dd table"
for s in dd iperf; do
	f=$tmp/csv/$s.csv
	[ -s "$f" ] || fail "--csv-dir: no $s.csv"
	awk -F, -v f="$f" 'NR == 1 { n = NF; if ($1 != "variant") exit 1 }
		NF != n { print f ": line " NR " has " NF " fields, the header " n; exit 1 }
		NR > 1 && $1 == "variant" { print f ": a second header"; exit 1 }' "$f" ||
		fail "$s.csv: not one schema"
done
# a stalled row (the stall plugin's variant) leaves its numbers empty
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["stalled"] == "true" && $col["host_mb_s"] != "" { exit 1 }' "$tmp/csv/dd.csv" ||
	fail "dd.csv: a stalled row has a speed"
grep -q '^stall,false,bbw,.*,true,' "$tmp/csv/dd.csv" || fail "dd.csv: no stalled row"
grep -q '^gup_kmap_fixed,true,bbw,.*,true,' "$tmp/csv/dd.csv" && fail "dd.csv: gup_kmap_fixed stalls"
# numbers are exact: dd copies each byte once each way, so direct's uaccess
# bytes per MiB are 1048576 (not 1.04858e+06), and no field is rounded into
# an exponent
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$1 == "direct" && ($col["uaccess_from_bytes_per_mib"] != "1048576" ||
			   $col["uaccess_to_bytes_per_mib"] != "1048576") { exit 1 }' "$tmp/csv/dd.csv" ||
	fail "dd.csv: direct's uaccess bytes per MiB are not exactly 1048576"
grep -Eq '(^|,)[0-9.]+e[+-]?[0-9]+(,|$)' "$tmp/csv/dd.csv" "$tmp/csv/iperf.csv" &&
	fail "a CSV number in exponent notation"
true

if "$bench" "${small[@]}" --csv >/dev/null 2>&1; then
	fail "--csv with two scenarios did not refuse"
fi
"$bench" "${small[@]}" -s iperf --csv >"$tmp/one.csv"
[ "$(grep -c '^variant,' "$tmp/one.csv")" = 1 ] || fail "-s iperf --csv: not one header"

"$bench" "${small[@]}" -s dd --json >"$tmp/out.json"
for key in '"metadata"' '"libkmodel_version"' '"git_describe"' '"compiler"' '"cflags"' \
	   '"lto"' '"host_cpu"' '"command_line"' '"options"' '"scenarios"' '"dd"' \
	   '"columns"' '"rows"' '"events_per"'; do
	grep -q "$key" "$tmp/out.json" || fail "--json: no $key"
done
# --help (and the man page made from it) lists the subcommands; theirs
# name the tool
for sub in reproduce calibrate; do
	"$bench" --help-all | grep -q "kmodel-bench $sub" || fail "--help does not list $sub"
	"$bench" $sub --help | grep -q "^  kmodel-bench $sub \[OPTION" ||
		fail "$sub --help does not name kmodel-bench"
	man=$(dirname "$bench")/kmodel-bench.1
	[ ! -f "$man" ] || grep -qF 'kmodel\-bench '"$sub" "$man" ||
		fail "the man page does not list $sub"
done
echo "bench_cli: -o, --csv-dir (one schema per file), --csv refusal, --json metadata, subcommands"
