#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kmodel-bench's output contract: one CSV schema per stream, --csv-dir
# writes one file per scenario whose rows all have the header's fields, a
# run of several scenarios refuses a plain --csv, -o writes the file and
# nothing to stdout, --json carries the run metadata and a table per
# scenario; exact CSV numbers; iperf's reports by code and first mismatch;
# --fail-on-reports; exit 2 on an output that cannot be written; --help
# lists the subcommands. Tiny runs: seconds.
set -euo pipefail
bench=$1
stall=$2	# a plugin whose variant "stall" never copies in atomic context
flip=$3		# a plugin whose usbnet variant "flip_last" corrupts each frame's last byte
broken=$4	# a new user's broken variants: nocopy, atomic_leak, leak_tx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# (--wide --host: the text tables with every column and each row's notes,
# which the checks below read; the default view's: first_screen())
small=(-q -r 1 --wide --host --no-summary --dd-block-sizes 4K,1K --dd-total-mib 1 --dd-file-mib 1
       --dd-machines bbw,a15 --iperf-packets 50 --load "$stall")
fail() { echo "bench_cli: $*" >&2; exit 1; }

# ---- the default run: the answer first, in 100 columns ----
first_screen() {
	# Its first lines are the seeds' published figures, each on the
	# configuration the seed ran (seed 000: dd bs=512 on a BeagleBone White,
	# 29.5 MB/s without the RFC, 20.5 with it, both a CONFIG_HIGHMEM kernel,
	# 21.2 with it and CONFIG_HIGHMEM=n; seed 001: iperf TCP transmit on a
	# BeagleBoard-xM with an AX88772, about 75 Mbit/s before the asix patch,
	# 91.6 after), next to predictions within the figures' 10 % goal. The
	# default options but smaller runs (the figures' lines do not depend on
	# them).
	quick=(-r 1 --dd-total-mib 1 --dd-file-mib 1 --iperf-packets 50)
	"$bench" "${quick[@]}" >"$tmp/default.txt" 2>"$tmp/default.err"
	head -1 "$tmp/default.txt" | grep -q "^The seeds' published figures and the cost model's predictions" ||
		fail "the default run does not start with the published figures"
	# published: exact; predicted: within 10 % of the published figure
	within() {	# within LINE_REGEX PUB1 PUB2: the line's two predictions
		local line
		line=$(head -8 "$tmp/default.txt" | grep -E "$1") || fail "the first lines: no line /$1/"
		# "29.5 -> 20.5 MB/s   29.5* -> 20.2   -1.5%": the predictions follow the unit
		echo "$line" | awk -v a="$2" -v b="$3" '{
			for (i = 1; i <= NF; i++) if ($i ~ /^(MB|Mbit)\/s$/) u = i
			p = $(u + 1); q = $(u + 3); gsub(/\*/, "", p); gsub(/\*/, "", q)
			if (b == "") q = p
			ok = (p - a) ^ 2 <= (a / 10) ^ 2 && (b == "" || (q - b) ^ 2 <= (b / 10) ^ 2)
			exit !ok }' || fail "the first lines: the predictions of /$1/ are not within 10 %"
	}
	within '^dd bs=512, BeagleBone White, HIGHMEM=y: without, with +29\.5 -> 20\.5 MB/s ' 29.5 20.5
	within '^dd bs=512, BeagleBone White, HIGHMEM=n: with +21\.2 MB/s ' 21.2 ''
	within '^dd bs=512, Cortex-A15 under QEMU: without, with +4\.0 -> 2\.6 MB/s ' 4.0 2.6
	within '^iperf TCP tx, BeagleBoard-xM\+AX88772: before, after +~75 -> 91\.6 Mbit/s ' 75 91.6
	# every line fits 100 columns; so does the --host view
	awk 'length > 100 { print FILENAME ": line " FNR " has " length " columns"; bad = 1 }
		END { exit bad }' "$tmp/default.txt" || fail "the default run is wider than 100 columns"
	"$bench" "${quick[@]}" --host --no-summary --dd-block-sizes 512,1M >"$tmp/host.txt" 2>/dev/null
	awk 'length > 100 { print FILENAME ": line " FNR " has " length " columns"; bad = 1 }
		END { exit bad }' "$tmp/host.txt" || fail "--host is wider than 100 columns"
	# the host's timings are asked for: not in the default view, in --host's
	grep -Eqw 'ratio|ns/pkt|Mpps' "$tmp/default.txt" && fail "the default view shows the host's timings"
	grep -Eq '^variant +machine +hmem +bs +MB/s +ratio ' "$tmp/host.txt" ||
		fail "--host: no host MB/s and ratio columns"
	# dd by block size, the seed's configuration among the machines
	grep -Eq '^gup_kmap_rfc +bbw-config-highmem +on +[0-9.]+( +[0-9.]+){6}$' "$tmp/default.txt" ||
		fail "the default dd table: no row of the RFC on bbw-config-highmem with 7 block sizes"
	# one line per variant and report code, the RFC's only, each in all its
	# 28 rows (4 machines x 7 block sizes): its sleep in atomic context, and
	# the user pages its copy_to_user() writes through a FOLL_WRITE pin and
	# put_page()s clean (pin_not_dirtied). Those are the pages each call
	# writes: a read(2) copies page-cache page by page, busybox dd's buffer
	# starts 8 bytes into a page, so per MiB 2048 calls of one page at 512,
	# 1024 at 1K, and from 4K on 256 chunks of 4 KiB spanning 2 pages: 512.
	[ "$(grep -c 'reports by code' "$tmp/default.txt")" = 2 ] &&
		grep -Eq '^gup_kmap_rfc: reports by code \(per timed run\): sleep_in_atomic [0-9]+ \.\. [0-9]+ in 28 of 28 rows$' \
		"$tmp/default.txt" &&
		grep -Eq '^gup_kmap_rfc: reports by code \(per timed run\): pin_not_dirtied 512 \.\. 2048 in 28 of 28 rows$' \
		"$tmp/default.txt" || fail "the default run: not the two lines of the RFC's reports"
	# progress on a terminal only: none in a file
	[ -s "$tmp/default.err" ] && fail "the default run wrote to stderr: $(head -c 200 "$tmp/default.err")"
	# rows without numbers: "stalls" in their cells, why said once per variant
	"$bench" -q -r 1 -s dd --dd-block-sizes 4K,1K --dd-total-mib 1 --dd-file-mib 1 \
		--dd-machines bbw,a15 --load "$stall" --dd-variants direct,stall >"$tmp/stalls.txt"
	grep -Eq '^stall\* +bbw +off +stalls +stalls$' "$tmp/stalls.txt" &&
		[ "$(grep -c 'never progresses' "$tmp/stalls.txt")" = 1 ] &&
		grep -q "^stall: stalls in 4 of 4 rows: the write path's atomic copy never progresses" \
		"$tmp/stalls.txt" || fail "the default dd table: not one line for the stalled rows"
	# the host's timings, where written, are the best of 9 timed runs by default
	"$bench" -q -s dd --dd-block-sizes 4K --dd-total-mib 1 --dd-file-mib 1 --dd-machines bbw \
		--dd-variants direct --json >"$tmp/r9.json"
	grep -q '"repeat" : 9,' "$tmp/r9.json" || fail "--json: not 9 timed runs by default"
	# the instructions where the host counts them, else a line that says why
	if grep -q '"host_instructions" : "counted"' "$tmp/r9.json"; then
		grep -q 'Minsn/MiB' "$tmp/host.txt" || fail "--host: no instructions, which the host counts"
	else
		grep -q '"host_instructions" : "not counted: perf_event_open(2): ' "$tmp/r9.json" &&
		grep -q '^host instructions: not counted: perf_event_open(2): ' "$tmp/host.txt" ||
			fail "--host: the host counts no instructions and does not say so"
	fi
}

# $5: first-screen (the default run's view, below) or contract (the rest);
# both when not given. ctest runs them as two tests, side by side.
part=${5:-all}
if [ "$part" = first-screen ]; then
	first_screen
	echo "bench_cli: the default run leads with the published figures, in 100 columns"
	exit 0
fi

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
# the iperf text table's count of frames sent has its CSV name (it was
# headed `sent`, the column `packets`)
grep -A1 '^iperf' "$tmp/out.txt" | grep -Eq ' packets +frames_ok ' ||
	fail "iperf text: no packets heading before frames_ok"
# a stalled row (the stall plugin's variant) leaves its numbers empty
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["stalled"] == "true" && $col["host_mb_s"] != "" { exit 1 }' "$tmp/csv/dd.csv" ||
	fail "dd.csv: a stalled row has a speed"
grep -q '^stall,false,bbw,.*,true,' "$tmp/csv/dd.csv" || fail "dd.csv: no stalled row"
# ... and keeps the reports recorded until its stall (it printed none):
# the plugin reports a sleep in atomic context in each of the two atomic
# copies of the first block's write before generic_perform_write() would
# go round for ever
grep -q '^stall bbw pre-5.11 off bs=4096: reports by code (until the stall): sleep_in_atomic 2$' \
	"$tmp/out.txt" || fail "dd text: no reports by code for the stalled row"
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
"$bench" "${small[@]}" -s iperf --csv >"$tmp/one.csv" 2>"$tmp/one.err"
[ "$(grep -c '^variant,' "$tmp/one.csv")" = 1 ] || fail "-s iperf --csv: not one header"
grep -q 'iperf skips' "$tmp/one.err" && fail "-s iperf at 512: a skip notice, yet every variant meets it"

# a variant without the --iperf-maxpacket endpoint gets no row: one line on
# stderr names it, even with -q; none when the
# variants are named
"$bench" "${small[@]}" -s iperf --iperf-maxpacket 1024 --csv >"$tmp/mp.csv" 2>"$tmp/mp.err"
[ "$(grep -c 'iperf skips' "$tmp/mp.err")" = 1 ] || fail "--iperf-maxpacket 1024: not one skip line"
grep -q '^kmodel-bench: iperf skips before, after, mainline, hardened, sr9800: no bulk-out endpoint of maxpacket 1024 (super speed)' \
	"$tmp/mp.err" || fail "--iperf-maxpacket 1024: the skip line does not name the USB 2 variants"
grep -q '^ax88179,' "$tmp/mp.csv" || fail "--iperf-maxpacket 1024: no ax88179 row"
grep -q '^before,' "$tmp/mp.csv" && fail "--iperf-maxpacket 1024: a row for before"
"$bench" "${small[@]}" -s iperf --iperf-maxpacket 1024 --iperf-variants ax88179 --csv \
	>/dev/null 2>"$tmp/mp.err"
grep -q 'iperf skips' "$tmp/mp.err" && fail "--iperf-variants: a skip notice"

"$bench" "${small[@]}" -s dd --json >"$tmp/out.json"
for key in '"metadata"' '"libkmodel_version"' '"git_describe"' '"compiler"' '"cflags"' \
	   '"lto"' '"host_cpu"' '"command_line"' '"options"' '"scenarios"' '"dd"' \
	   '"columns"' '"rows"' '"events_per"'; do
	grep -q "$key" "$tmp/out.json" || fail "--json: no $key"
done
# the options record the cost profile the predicted columns took (they
# did not: the same JSON for any --profile)
grep -q '"profile" : "(the one mapped to each row'"'"'s machine)"' "$tmp/out.json" ||
	fail "--json: no default profile among the options"
"$bench" "${small[@]}" -s dd --json --profile beaglebone-white >"$tmp/profile.json"
grep -q '"profile" : "beaglebone-white"' "$tmp/profile.json" ||
	fail "--json --profile: the options do not name the profile"
# iperf: reports by code and the first frame that did not verify, in the
# text and the JSON; frames that do not verify fail the run (exit 1).
# flip_last inverts the last byte of every frame in place: in a TCP segment
# (a clone sharing its payload with the queued original) that is one
# skb_write_cloned report per packet, and the first mismatch is packet 0's
# last byte (1514-byte frames: byte 1513)
iperf=(-q -r 1 --wide --host -s iperf --load "$flip" --iperf-variants after,flip_last --iperf-packets 50)
set +e
"$bench" "${iperf[@]}" >"$tmp/iperf.txt" 2>/dev/null
rc=$?
set -e
[ $rc = 1 ] || fail "iperf with frames that did not verify: exit $rc, want 1"
grep -q '^flip_last tcp: reports by code (per timed run): skb_write_cloned 50$' "$tmp/iperf.txt" ||
	fail "iperf text: no reports by code for flip_last tcp"
grep -Eq '^flip_last tcp: first mismatch: packet 0: a frame of 1514 bytes, expected 1514: byte 1513 is 0x[0-9a-f]{2}, expected 0x[0-9a-f]{2}$' \
	"$tmp/iperf.txt" || fail "iperf text: no first mismatch line for flip_last tcp"
grep -q '^after ' "$tmp/iperf.txt" || fail "iperf text: no after row"
grep -q '^after.*: ' "$tmp/iperf.txt" && fail "iperf text: a note for after, which verifies"
set +e
"$bench" "${iperf[@]}" --json >"$tmp/iperf.json" 2>/dev/null
set -e
grep -q '"reports_by_code" : {' "$tmp/iperf.json" || fail "iperf --json: no reports_by_code"
grep -q '"skb_write_cloned" : 50' "$tmp/iperf.json" || fail "iperf --json: skb_write_cloned not 50"
grep -q '"first_mismatch" : "packet 0: ' "$tmp/iperf.json" || fail "iperf --json: no first_mismatch"

dd1=(-q -r 1 --wide --host -s dd --dd-block-sizes 4K --dd-total-mib 1 --dd-file-mib 1 --dd-machines bbw)
# --dd-page-aligned: dd's buffer on a page boundary (GNU coreutils dd's),
# so the RFC pins one user page per 4 KiB chunk, read and write: 512 per
# MiB at bs=4K, against 1024 with busybox+glibc's buffer 8 bytes into a page
gup_pages() {	# the gup_kmap_rfc row's gup_slow_pages_per_mib, from CSV on stdin
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "gup_slow_pages_per_mib") c = i }
		 $1 == "gup_kmap_rfc" { print $c }'
}
[ "$("$bench" "${dd1[@]}" --dd-variants gup_kmap_rfc --dd-page-aligned --csv 2>/dev/null |
     gup_pages)" = 512 ] || fail "--dd-page-aligned: the RFC does not pin 512 pages per MiB at 4K"
[ "$("$bench" "${dd1[@]}" --dd-variants gup_kmap_rfc --csv 2>/dev/null | gup_pages)" = 1024 ] ||
	fail "without --dd-page-aligned: the RFC does not pin 1024 pages per MiB at 4K"
# (to files first: grep -q leaving a pipe early would fail the writer under pipefail)
"$bench" "${dd1[@]}" --dd-variants direct --dd-page-aligned --json >"$tmp/aligned.json" 2>/dev/null
grep -q '"dd_page_aligned" : true' "$tmp/aligned.json" ||
	fail "--json: the options do not record --dd-page-aligned"
"$bench" reproduce -s dd --dd-page-aligned >"$tmp/aligned.txt" 2>/dev/null
sed -n 2p "$tmp/aligned.txt" | grep -q "^dd's buffer page-aligned (--dd-page-aligned" ||
	fail "reproduce --dd-page-aligned: the header does not say so"

# --fail-on-reports: the RFC sleeps in atomic context in dd (reports), which
# is exit 0 by default and 1 with the option; a run without reports is 0
"$bench" "${dd1[@]}" --dd-variants gup_kmap_rfc >/dev/null || fail "dd rfc: not exit 0"
set +e
"$bench" "${dd1[@]}" --dd-variants gup_kmap_rfc --fail-on-reports >/dev/null 2>&1
rc=$?
set -e
[ $rc = 1 ] || fail "--fail-on-reports with reports: exit $rc, want 1"
# ... and so do the reports of a stalled row (recorded until the stall)
set +e
"$bench" "${dd1[@]}" --load "$stall" --dd-variants stall --fail-on-reports >/dev/null 2>&1
rc=$?
set -e
[ $rc = 1 ] || fail "--fail-on-reports with a stalled row's reports: exit $rc, want 1"
# dd rows break their reports down by code, as iperf's (user report item
# 8): below the text table, and a reports_<code> column in CSV (the RFC
# sleeps in atomic context in dd, and puts the pages of dd's buffer its
# copy_to_user() wrote clean: 256 calls of 4 KiB 8 bytes into a page, 2
# pages each). The row's reports column and the line below count the
# same: a timed run's reports (the column was per MiB)
"$bench" "${dd1[@]}" --dd-variants gup_kmap_rfc >"$tmp/dd_rfc.txt"
n=$(awk 'NR == 2 { for (i = 1; i <= NF; i++) if ($i == "reports") c = i }
	 $1 == "gup_kmap_rfc" && !/: / && c { print $c }' "$tmp/dd_rfc.txt")
[ -n "$n" ] && [ "$n" -gt 512 ] || fail "dd: the RFC's row has not its reports"
grep -q "^gup_kmap_rfc bbw .*bs=4096: reports by code (per timed run): sleep_in_atomic $((n - 512)) pin_not_dirtied 512\$" \
	"$tmp/dd_rfc.txt" || fail "dd: the reports by code below the table are not the row's $n"
"$bench" "${dd1[@]}" --dd-variants gup_kmap_rfc --csv >"$tmp/dd_rfc.csv"
col=$(head -1 "$tmp/dd_rfc.csv" | tr , '\n' | grep -nx reports_sleep_in_atomic | cut -d: -f1)
[ -n "$col" ] || fail "dd --csv: no reports_sleep_in_atomic column"
[ "$(sed -n 3p "$tmp/dd_rfc.csv" | cut -d, -f"$col")" -gt 0 ] ||
	fail "dd --csv: the RFC's row has no sleep_in_atomic reports"
"$bench" "${dd1[@]}" --dd-variants direct --fail-on-reports >/dev/null ||
	fail "--fail-on-reports without reports: not exit 0"

# an unknown name: the tools' one style (kmodel-check's), said once (it
# ended "(see --list) (see --help)")
set +e
"$bench" "${dd1[@]}" --dd-variants nosuch >/dev/null 2>"$tmp/err_unknown"
rc=$?
set -e
[ $rc = 2 ] || fail "an unknown variant: exit $rc, want 2"
grep -qx 'kmodel-bench: unknown uaccess variant "nosuch"; known: direct .*' "$tmp/err_unknown" ||
	fail "an unknown variant: not the tools' message"

# an MSS whose frames the AX88772 cannot take: the row says why (user
# report item 16: every frame failed and nothing said why); the ax88179
# takes them
set +e
"$bench" -q -r 1 --wide --host -s iperf --iperf-packets 5 --iperf-mss 1453 --iperf-variants after,ax88179 \
	>"$tmp/mss.txt" 2>/dev/null
rc=$?
set -e
[ $rc = 1 ] || fail "--iperf-mss 1453: exit $rc, want 1 (frames that do not verify)"
# ... and the message names every failing row, not only the last
set +e
"$bench" -q -r 1 --wide --host -s iperf --iperf-packets 5 --iperf-mss 1453 --iperf-variants after,ax88179 \
	>/dev/null 2>"$tmp/mss.err"
set -e
grep -qx 'kmodel-bench: iperf: rows that failed: after tcp: 0 of 5 frames verified; after tcp+tap: 0 of 5 frames verified' \
	"$tmp/mss.err" || fail "--iperf-mss 1453: the message does not name every failing row"
grep -q '^after tcp: first report: usb_frame_dropped: asix device: frame of 1519 bytes is longer than 1518' \
	"$tmp/mss.txt" || fail "--iperf-mss 1453: the row does not say the frame was too long"
grep -Eq '^ax88179 +tcp +5 +5 ' "$tmp/mss.txt" || fail "--iperf-mss 1453: ax88179 lost frames"

# reproduce --profile names the profile inside its title line (user report
# item 10: the name came after the line's ")")
"$bench" reproduce --profile beaglebone-white >"$tmp/repro.txt"
head -1 "$tmp/repro.txt" | grep -q '(profile of every row: beaglebone-white)$' ||
	fail "reproduce --profile: the title line does not name the profile"
sed -n 2p "$tmp/repro.txt" | grep -q '^seed ' || fail "reproduce --profile: the header is not line 2"

# --csv-dir and reproduce --plot create DIR with its missing parents, as
# their --help and docs/bench.md say (it was done unsaid)
"$bench" "${dd1[@]}" --dd-variants direct --csv-dir "$tmp/new/csv" >/dev/null ||
	fail "--csv-dir under a missing parent: failed"
[ -s "$tmp/new/csv/dd.csv" ] || fail "--csv-dir under a missing parent: no dd.csv"
"$bench" --help-all >"$tmp/help"
"$bench" reproduce --help >>"$tmp/help"
[ "$(grep -c 'DIR is created, with its missing parents' "$tmp/help")" = 2 ] ||
	fail "--help of --csv-dir or reproduce --plot does not say DIR is made as by mkdir -p"

# an output that cannot be written is exit 2, as in kmodel-check
: >"$tmp/file"	# a path under a regular file: no directory can be made there
for out in "-o $tmp/file/x" "--csv-dir $tmp/file/x"; do
	set +e
	"$bench" "${dd1[@]}" --dd-variants direct $out >/dev/null 2>&1
	rc=$?
	set -e
	[ $rc = 2 ] || fail "$out: exit $rc, want 2"
done

# --help (and the man page made from it) lists the subcommands; theirs
# name the tool
"$bench" --help-all >"$tmp/help"	# (grep -q in a pipe: SIGPIPE under pipefail)
for sub in reproduce calibrate; do
	grep -q "kmodel-bench $sub" "$tmp/help" || fail "--help does not list $sub"
	"$bench" $sub --help >"$tmp/help-$sub"
	grep -q "^  kmodel-bench $sub \[OPTION" "$tmp/help-$sub" ||
		fail "$sub --help does not name kmodel-bench"
	man=$(dirname "$bench")/kmodel-bench.1
	[ ! -f "$man" ] || grep -qF 'kmodel\-bench '"$sub" "$man" ||
		fail "the man page does not list $sub"
done
# ---- what a new user found ----
# an option's error once, without "dd: dd:"; a block larger than the
# input file names the option to raise
err1() {	# err1 WANT_RC ARGS...: run, the exit status WANT_RC, stderr in $tmp/err
	local want=$1 rc
	shift
	set +e
	"$bench" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
	[ $rc = "$want" ] || fail "$*: exit $rc, want $want ($(head -c 300 "$tmp/err"))"
	if grep -q 'dd: dd:' "$tmp/err"; then fail "$*: says dd: dd:"; fi
	true
}
err1 2 "${dd1[@]}" --dd-block-sizes 64M --dd-file-mib 16
grep -qx 'kmodel-bench: --dd-block-sizes: a block of 67108864 bytes is larger than the input file (--dd-file-mib 16): raise --dd-file-mib to at least 64 (see --help)' \
	"$tmp/err" || fail "--dd-block-sizes 64M: not the message that names --dd-file-mib"
# a block as large as the file is one block per pass: it runs (mutant
# bench-bs-equal-file refused it)
"$bench" "${dd1[@]}" --dd-block-sizes 1M --dd-variants direct >/dev/null 2>"$tmp/err" ||
	fail "--dd-block-sizes 1M --dd-file-mib 1: not exit 0 ($(cat "$tmp/err"))"
# input and output files that do not fit in the RAM: refused naming the
# limit (bbw, where the baseline runs: 256 MiB, one page for the zero page)
# and the option, not an empty message half-way
err1 2 "${dd1[@]}" --dd-file-mib 128 --dd-machines a15
grep -qx 'kmodel-bench: dd: bbw (256 MiB of RAM, where the memcpy baseline runs) cannot hold the input and output files of 134217728 bytes each and a buffer of 4096: at most 127 MiB per file at this block size (lower --dd-file-mib)' \
	"$tmp/err" || fail "--dd-file-mib 128: not the message naming the limit"
err1 2 "${dd1[@]}" --dd-file-mib 96 --dd-block-sizes 64M
grep -q 'at most 95 MiB per file at this block size (lower --dd-file-mib)$' "$tmp/err" ||
	fail "--dd-file-mib 96 at 64M: not the limit of 95"
# (a buffer of 512 pages leaves 127 MiB less a page: the zero page counts)
err1 2 "${dd1[@]}" --dd-file-mib 127 --dd-block-sizes 2044K
grep -q 'at most 126 MiB per file at this block size (lower --dd-file-mib)$' "$tmp/err" ||
	fail "--dd-file-mib 127 at 2044K: not the limit of 126"
# one page less of buffer (2044K less the 8 bytes before dd's buffer: 511
# pages) leaves exactly 127 MiB per file: it runs, the files filling the RAM
# to its last page (mutant dd-fit-boundary refused it)
"$bench" "${dd1[@]}" --dd-file-mib 127 --dd-block-sizes 2093048 --dd-variants direct \
	>/dev/null 2>"$tmp/err" || fail "--dd-file-mib 127 at 2093048: not exit 0 ($(cat "$tmp/err"))"
"$bench" --help-dd >"$tmp/help-dd"
grep -q 'at most 127 at blocks up to 1M, 95 at 64M' "$tmp/help-dd" ||
	fail "--help-dd: --dd-file-mib does not say the RAM limit"
# a variant whose copy_to_user copies nothing: its dd cannot complete (busybox
# dd: "read error: Bad address"): the row fails saying why, the other rows
# stay, the message names the row and the cause (not "kmodel-bench: dd: "
# and nothing after it, no table)
why="read(2) of the input file at byte 0 failed (-14, $(perl -e '$!=14; print "$!"' 2>/dev/null || echo 'Bad address')): the variant's copy_to_user copied nothing into dd's resident, writable buffer"
err1 1 "${dd1[@]}" --load "$broken" --dd-variants direct,nocopy --dd-block-sizes 4K,1K
grep -qx "kmodel-bench: dd: rows that failed: nocopy on bbw (pre-5.11), bs 4096: ${why%%: *}; nocopy on bbw (pre-5.11), bs 1024: ${why%%: *}" \
	"$tmp/err" || fail "dd nocopy: not the read(2) message ($(cat "$tmp/err"))"
grep -E '^nocopy\* +bbw +pre-5\.11 off +off +4096   fails: ' "$tmp/out" | grep -Fq "fails: $why" ||
	fail "dd nocopy: the text table does not say why the row failed"
[ "$(grep -Ec '^(memcpy|direct) +bbw .* [0-9.]+ +[0-9.]+ ' "$tmp/out")" = 4 ] ||
	fail "dd nocopy: the other rows are not all there with their numbers"
"$bench" "${dd1[@]}" --load "$broken" --dd-variants direct,nocopy --csv >"$tmp/nocopy.csv" 2>/dev/null || true
head -1 "$tmp/nocopy.csv" | grep -q '^variant,builtin,machine,kmap,kmap_strict,highmem,fast_gup,block_size,stalled,error,teardown,host_mb_s,' &&
	grep -Fq "nocopy,false,bbw,pre-5.11,off,false,false,4096,false,\"$why\",,,,,," "$tmp/nocopy.csv" &&
	grep -Eq '^direct,true,bbw,pre-5\.11,off,false,false,4096,false,,,[0-9]' "$tmp/nocopy.csv" ||
	fail "dd nocopy --csv: the failed row's error column or the rows' speeds are wrong"
# variants that copy the wrong bytes (a normal row and exit 0):
# the counted run checks dd's buffer after each read(2), then B, on the host
err1 1 "${dd1[@]}" --load "$broken" --dd-variants direct,flip_to,flip_from
grep -qx "kmodel-bench: dd: rows that failed: flip_to on bbw (pre-5.11), bs 4096: after read(2), dd's buffer differs from A at byte 0 (want 0x00, got 0xff); flip_from on bbw (pre-5.11), bs 4096: B differs from A at byte 0 (want 0x00, got 0xff)" \
	"$tmp/err" || fail "dd flip_to, flip_from: not the messages of the wrong bytes ($(cat "$tmp/err"))"
grep -Eq '^direct +bbw .* [0-9.]+ +[0-9.]+ ' "$tmp/out" && grep -q '^flip_from\* .* fails: B differs' "$tmp/out" ||
	fail "dd flip_from: not the table with direct's numbers and flip_from's failure"
# ... and one that copies nothing to dd's buffer, at bs = the file: each
# read(2) would find the block of the pass before there, so the counted run
# first fills the buffer with the inverse of A (a normal row)
err1 1 "${dd1[@]}" --load "$broken" --dd-variants direct,skip_to --dd-block-sizes 1M
grep -qx "kmodel-bench: dd: rows that failed: skip_to on bbw (pre-5.11), bs 1048576: after read(2), dd's buffer differs from A at byte 0 (want 0x00, got 0xff)" \
	"$tmp/err" || fail "dd skip_to at bs 1M: not the message of the buffer left as it was ($(cat "$tmp/err"))"
# a variant that leaves the task in atomic context: the row fails on the
# task's leak_atomic at exit (once exit 0, the report cleared unseen), the
# other rows' table is still written
err1 1 "${dd1[@]}" --load "$broken" --dd-variants direct,atomic_leak --dd-block-sizes 4K,1K
grep -qx 'kmodel-bench: dd: rows that failed: atomic_leak on bbw (pre-5.11), bs 4096: teardown: leak_atomic 1; atomic_leak on bbw (pre-5.11), bs 1024: teardown: leak_atomic 1' \
	"$tmp/err" || fail "dd atomic_leak: the message does not name the rows' leak_atomic"
[ "$(grep -Ec '^(memcpy|direct|atomic_leak\*) +bbw ' "$tmp/out")" = 6 ] ||
	fail "dd atomic_leak: not the table of all six rows"
# ... and its rows say it in CSV (and JSON): the teardown column
"$bench" "${dd1[@]}" --load "$broken" --dd-variants direct,atomic_leak --dd-block-sizes 4K --csv \
	>"$tmp/leak.csv" 2>/dev/null || true
grep -Eq '^atomic_leak,false,bbw,pre-5\.11,off,false,false,4096,false,,leak_atomic 1,[0-9]' "$tmp/leak.csv" &&
	grep -Eq '^direct,true,bbw,pre-5\.11,off,false,false,4096,false,,,[0-9]' "$tmp/leak.csv" ||
	fail "dd atomic_leak --csv: the rows' teardown column is wrong"
# ... every failing row named in one line, past the 255 characters of
# km_last_error() (a plugin's cases run isolated, each child's message
# joined): 2 variants x 3 machines x 2 block sizes
err1 1 "${dd1[@]}" --load "$broken" --dd-variants atomic_leak,atomic_leak --dd-machines bbw,a15-nohighmem,bbw \
	--dd-block-sizes 4K,1K
[ "$(grep -c '^kmodel-bench: dd: rows that failed: ' "$tmp/err")" = 1 ] &&
	[ "$(grep -o 'atomic_leak on [a-z0-9-]* (pre-5\.11), bs [0-9]*: teardown: leak_atomic 1' "$tmp/err" | wc -l)" = 12 ] ||
	fail "dd: not one line naming the 12 failing rows ($(cat "$tmp/err"))"
# a tx_fixup that leaks: the table, each leaking row named with its counts,
# and at most 8 teardown warnings per machine then "... and N more"
err1 1 -q -r 1 --wide --host -s iperf --iperf-packets 20 --load "$broken" --iperf-variants after,leak_tx
for tt in tcp tcp+tap udp; do
	re=${tt//+/\\+}	# tcp\+tap
	grep -Eq "^kmodel-bench: iperf: rows that failed: .*leak_tx $re: teardown: leak_kmalloc [0-9]+, leak_skb [0-9]+(;|\$)" \
		"$tmp/err" || fail "iperf leak_tx: the message does not name leak_tx $tt with counts"
	grep -Eq "^after +$re +20 +20 " "$tmp/out" || fail "iperf leak_tx: no table row for after $tt"
done
# the leaking rows' teardown column, the clean ones' empty
"$bench" -q -r 1 -s iperf --iperf-packets 20 --load "$broken" --iperf-variants after,leak_tx --json \
	-o "$tmp/leak.json" 2>/dev/null || true
[ "$(grep -Ec '"teardown" : "leak_kmalloc [0-9]+, leak_skb [0-9]+"' "$tmp/leak.json")" = 3 ] &&
	[ "$(grep -c '"teardown" : null' "$tmp/leak.json")" = 3 ] ||
	fail "iperf leak_tx --json: not three rows with a teardown column and three without"
[ "$(grep -c 'kmodel teardown: leak_skb' "$tmp/err")" = 24 ] ||
	fail "iperf leak_tx: not 8 teardown warnings for each of the three machines"
[ "$(grep -c 'kmodel teardown: \.\.\. and [0-9]* more ([0-9]* teardown problems in all)' "$tmp/err")" = 3 ] ||
	fail "iperf leak_tx: no '... and N more' per machine"
# a device constructor that fails without a message: the row and the
# errno's text, not an empty reason (as of a plugin entry point that fails without one)
err1 1 -q -r 1 -s iperf --iperf-packets 5 --load "$broken" --iperf-variants after,nodev
grep -qx "kmodel-bench: iperf: nodev tcp: setting up its machine failed (-12): $(perl -e '$!=12; print "$!"' 2>/dev/null || echo 'Cannot allocate memory')" \
	"$tmp/err" || fail "iperf nodev: not the message naming the row ($(cat "$tmp/err"))"
# --list: a variant without a summary shows "-", not "(null)"; the
# summaries start in one column whatever the names' length
"$bench" --list --load "$broken" >"$tmp/list"
grep -Eq '^uaccess +nocopy +- -- from ' "$tmp/list" || fail "--list: nocopy's missing summary"
grep -q '(null)' "$tmp/list" && fail "--list prints (null)"
[ "$(awk '{ match($0, /^[^ ]+ +[^ ]+ +/); print RLENGTH }' "$tmp/list" | sort -u | wc -l)" = 1 ] ||
	fail "--list: the summaries do not start in one column"
# an empty list, or an empty name in one, is a usage error, said once
# (-s "" once passed running nothing, -s , said its error twice)
for args in "-s|" "-s|," "-s|dd,,iperf" "-s|dd|--dd-variants|" "-s|dd|--dd-machines|" \
	    "-s|dd|--dd-kmap|" "-s|iperf|--iperf-variants|" "-s|iperf|--iperf-variants| , " \
	    "reproduce|-s|"; do
	IFS='|' read -r -a a <<<"$args|"
	err1 2 "${a[@]}"
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -Eq '": an empty name \(want NAME\[,NAME\]\.\.\.\)$' "$tmp/err" ||
		fail "${a[*]}: not one usage error ($(cat "$tmp/err"))"
done
# --dd-kmap both, as --help offers it, is pre-5.11,5.11 (refused)
"$bench" "${dd1[@]}" --dd-variants direct --dd-kmap both --csv | cut -d, -f1,3,4 >"$tmp/both" &&
	"$bench" "${dd1[@]}" --dd-variants direct --dd-kmap pre-5.11,5.11 --csv | cut -d, -f1,3,4 |
	cmp -s - "$tmp/both" && grep -qx 'direct,bbw,5.11' "$tmp/both" ||
	fail "--dd-kmap both: not the rows of pre-5.11,5.11"
err1 2 -s dd --dd-kmap 5.10
grep -qx 'kmodel-bench: --dd-kmap: want pre-5.11, 5.11 or both, got "5.10" (see --help)' "$tmp/err" ||
	fail "--dd-kmap 5.10: $(cat "$tmp/err")"
# --dd-kmap-strict takes the modes kmodel-check's --kmap-strict does, parsed
# once (km_tool_kmap_strict())
err1 2 -s dd --dd-kmap-strict bogus
grep -qx 'kmodel-bench: --dd-kmap-strict: want off, strict or force-map, got "bogus"' "$tmp/err" ||
	fail "--dd-kmap-strict bogus: $(cat "$tmp/err")"
# a built-in receive variant (km_usbnet_rx_variants(), not in --list):
# by name with --iperf-rx its one row is tcp-rx, built in; without
# --iperf-rx a usage error naming the option
err1 2 -q -r 1 -s iperf --iperf-packets 20 --iperf-variants asix-v4.14
grep -qx 'kmodel-bench: --iperf-variants: asix-v4.14 is a built-in receive variant: its only iperf row is tcp-rx; add --iperf-rx' \
	"$tmp/err" || fail "--iperf-variants asix-v4.14: $(cat "$tmp/err")"
err1 0 -q -r 1 -s iperf --iperf-rx --iperf-packets 20 --iperf-variants asix-v4.14 --csv
[ "$(cut -d, -f1-3 "$tmp/out" | tail -n +2)" = "asix-v4.14,true,tcp-rx" ] ||
	fail "--iperf-rx --iperf-variants asix-v4.14: not one built-in tcp-rx row ($(cut -d, -f1-3 "$tmp/out"))"

[ "$part" = contract ] || first_screen
echo "bench_cli: -o, --csv-dir (one schema per file), --csv refusal, --json metadata, iperf" \
     "reports by code and first mismatch, --fail-on-reports, exit 2 on output, subcommands"
