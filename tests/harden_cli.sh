#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The tools survive bad input and a user's crashing plugin: each case
# checks the exact exit status (a crash is 128 + the signal, and a test
# that checked only "non-zero" passed while the command crashed).
set -uo pipefail
check=$1 sweep=$2 bench=$3 crash=$4 selfload=$5 contract=$6 badinit_segv=$7 badinit_spin=$8
kunit=$9 kunit_suite=${10} badctor_segv=${11} badctor_spin=${12}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the sanitizer presets: a crashing child reports unsymbolized, at once
# (symbolizing took over a second under load, past the cases' --timeout 1)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}symbolize=0"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}symbolize=0"
fail() { echo "harden_cli: $*" >&2; exit 1; }
# run CMD... with a 60 s limit: its exit status in $rc, stderr in $tmp/err
run() { timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
want() { [ "$rc" = "$1" ] || { cat "$tmp/err" >&2; fail "$2: exit $rc, want $1"; }; }
has() { grep -q -- "$1" "$tmp/$2" || { cat "$tmp/$2" >&2; fail "$3: no \"$1\""; }; }

# kmodel-sweep asix --variant nosuch: a use after free, then a double free
run "$sweep" asix --variant nosuch
want 2 "sweep --variant nosuch"
has 'unknown usbnet variant "nosuch"' err "sweep --variant nosuch"

# kmodel-sweep merge of a file nested 100000 deep: json-glib's parser
# overflowed the stack
python3 -c 'print("[" * 100000 + "]" * 100000)' >"$tmp/deep.json"
run "$sweep" merge "$tmp/deep.json"
want 2 "merge of a deeply nested file"
has "nested deeper than" err "merge of a deeply nested file"
# ... but an ordinary report is 6 deep: the depth count once crept up a
# level per sibling object (glib's MAX() evaluating ++depth twice) and
# refused plain `asix --quick --json --shard K/2` files
for k in 1 2; do
	timeout 60 "$sweep" asix --quick --json --shard $k/2 >"$tmp/plain$k.json" 2>/dev/null ||
		fail "sweep asix --quick --shard $k/2"
done
run "$sweep" merge "$tmp/plain1.json" "$tmp/plain2.json"
want 0 "merge of two plain asix shards"

# FIFOs: open(2) blocked until a writer came
mkfifo "$tmp/fifo.json" "$tmp/fifo.so"
run "$sweep" merge "$tmp/fifo.json"
want 2 "merge of a FIFO"
has "a FIFO" err "merge of a FIFO"
run "$check" uaccess --load "$tmp/fifo.so"
want 2 "--load of a FIFO"
has "a FIFO" err "--load of a FIFO"
run "$sweep" merge /dev/zero
want 2 "merge of /dev/zero"

# a plugin whose entry point loads itself: recursion until the stack
# overflowed; each tool refuses it (its trial load in a child refuses it
# too: it is no crash there)
for cmd in "$check uaccess" "$sweep asix --quick" "$sweep rx --quick" \
	   "$bench -s iperf -q -r 1 --iperf-packets 20" "$kunit $kunit_suite"; do
	# shellcheck disable=SC2086 # the command's words
	run $cmd --load "$selfload"
	want 2 "$cmd with a plugin that loads itself"
	has "already being loaded (as $selfload)" err "$cmd: a plugin that loads itself"
done

# a plugin whose entry point crashes or loops: each tool tries the load in
# a child, names the plugin and exits 2 (it died of SIGSEGV, exit 139, or
# hung). The crash gets 30 s: under ASan the child symbolizes its report
# before it dies, which took over a second on a loaded host
for how in segv spin; do
	eval "plugin=\$badinit_$how"
	t=1
	[ $how = segv ] && t=30
	for cmd in "$check uaccess" "$sweep asix --quick" "$sweep rx --quick" \
		   "$bench -s iperf -q -r 1 --iperf-packets 20" "$kunit $kunit_suite"; do
		# shellcheck disable=SC2086 # the command's words
		run $cmd --load "$plugin" --timeout $t
		want 2 "$cmd with a plugin whose KM_PLUGIN_INIT ${how}s"
		if [ $how = segv ]; then
			has ": $plugin: its load (KM_PLUGIN_INIT, constructors) crashed: " err \
				"$cmd: badinit_segv"
		else
			has ": $plugin: its load (KM_PLUGIN_INIT, constructors) timed out after 1 s (killed)" \
				err "$cmd: badinit_spin"
		fi
	done
done
# ... the one that crashed, of two
run "$sweep" asix --quick --load "$crash" --load "$badinit_segv"
want 2 "a good plugin, then one whose KM_PLUGIN_INIT crashes"
has ": $badinit_segv: its load (KM_PLUGIN_INIT, constructors) crashed: " err \
	"the second of two plugins named"

# a KUnit suite whose constructor crashes or loops: it ran at
# kmodel-kunit's own dlopen(), before any run's child (SIGSEGV, exit 139,
# or a hang); its load is tried in a child first, named, exit 2
run "$kunit" "$badctor_segv" --timeout 30
want 2 "kmodel-kunit with a suite whose constructor crashes"
has "^kmodel-kunit: $badctor_segv: its load (constructors) crashed: " err \
	"kmodel-kunit: badctor_segv"
[ ! -s "$tmp/out" ] || fail "kmodel-kunit: badctor_segv: KTAP printed"
run "$kunit" "$badctor_spin" --timeout 1
want 2 "kmodel-kunit with a suite whose constructor loops"
has "^kmodel-kunit: $badctor_spin: its load (constructors) timed out after 1 s (killed)" err \
	"kmodel-kunit: badctor_spin"
# ... a good --load plugin, then the suite: the suite is named
run "$kunit" "$badctor_segv" --load "$contract" --timeout 1
want 2 "kmodel-kunit with a plugin and a suite whose constructor crashes"
has "^kmodel-kunit: $badctor_segv: its load (constructors) crashed: " err \
	"kmodel-kunit: a plugin, then badctor_segv"

# A plugin's variant runs isolated (a forked child, --timeout): a crash
# (segv) or a loop (spin) is a failing row naming the variant, the
# machine and the case; the rows before it still print; exit 1, never a
# signal. (Under ASan a SIGSEGV is the sanitizer's exit: "crashed: exited".)
run "$check" uaccess --load "$crash" --variant direct,segv,spin --machine bbw --context atomic \
	--timeout 2
want 1 "kmodel-check with a crashing and a looping plugin"
grep -Eq '^direct +bbw +atomic +yes +pass ' "$tmp/out" || fail "check: the direct row is missing"
grep -Eq '^segv\* +bbw +atomic +yes +CRASH ' "$tmp/out" || fail "check: no CRASH row for segv"
grep -Eq '^spin\* +bbw +atomic +yes +CRASH ' "$tmp/out" || fail "check: no CRASH row for spin"
has "segv on bbw, atomic: crashed: " out "check: segv"
# without a sanitizer the child dies of the signal, and the row says so
if ! grep -q __asan_init "$check"; then
	has "segv on bbw, atomic: crashed: killed by signal 11" out "check: segv's signal"
fi
# the case it crashed in: its 1001st copy, in the suite's order (from_user,
# 4 KiB pages, the leading edge, n from 0 and each n at offsets -128..128:
# 3 x 257 cases of n 0..2, then n 3's 230th offset)
has ", in the case from_user P=4096 leading off=101 n=3" out "check: segv's case"
has "spin on bbw, atomic: timed out after 2 s" out "check: spin"
# a copy that calls exit(0): no result is no pass
run "$check" uaccess --load "$crash" --variant quit --machine bbw --context process
want 1 "kmodel-check with a plugin that exits"
has "quit on bbw, process: crashed: exited with status 0 before its result" out "check: quit"
run "$check" uaccess --load "$crash" --variant segv --machine a15 --context process --json \
	--timeout 2
want 1 "kmodel-check --json with a crashing plugin"
has '"verdict" : "CRASH"' out "check --json: segv"
has '"crashed" : "crashed: ' out "check --json: segv"

run "$sweep" asix --quick --sharing private --load "$crash" --variant after,segv_tx,spin_tx \
	--timeout 2
want 1 "kmodel-sweep with a crashing and a looping plugin"
grep -Eq '^after: [1-9][0-9]* states' "$tmp/out" || fail "sweep: after's row is missing"
has "segv_tx: 0 states" out "sweep: segv_tx"
# each names the state it died in, as --replay takes it, and the usbnet
# era: segv_tx on its first packet, the space's first state (full/8,
# private, len 0, headroom 0, alloc_skb()'s tailroom)
has "  crashed: .*, in the state 0,0,default,private,full/8 (usbnet v3.5): no result" out \
	"sweep: segv_tx's state"
has "  timed out after 2 s (killed), in the state 0,0,default,private,full/8 (usbnet v3.5)" out \
	"sweep: spin_tx's state"
has "segv_tx: crashed: .*, in the state 0,0,default,private,full/8 (usbnet v3.5)" err \
	"sweep: segv_tx on stderr"

# a tx_fixup that dies in a later state (segv_tx_at: an skb of len 20,
# headroom 3, tailroom 4): the row names that state, --json carries it,
# and --replay of it dies again (exit 1) while its neighbour replays whole
run "$sweep" asix --quick --load "$crash" --variant after,segv_tx_at --timeout 5
want 1 "sweep asix with a tx_fixup that crashes in a later state"
grep -Eq '^after: [1-9][0-9]* states' "$tmp/out" || fail "sweep: segv_tx_at: after's row is missing"
has "segv_tx_at: 0 states" out "sweep: segv_tx_at"
has "  crashed: .*, in the state 20,3,4,private,full/8 (usbnet v3.5): no result" out \
	"sweep: segv_tx_at's state"
has "segv_tx_at: crashed: .*, in the state 20,3,4,private,full/8 (usbnet v3.5)" err \
	"sweep: segv_tx_at on stderr"
run "$sweep" asix --quick --json --load "$crash" --variant segv_tx_at --timeout 5
want 1 "sweep asix --json with a tx_fixup that crashes in a later state"
has '"crashed" : "crashed: .*, in the state 20,3,4,private,full/8 (usbnet v3.5)"' out \
	"sweep asix --json: segv_tx_at"
has '"crashed_state" : "20,3,4,private,full/8"' out "sweep asix --json: segv_tx_at's state"
run "$sweep" asix --load "$crash" --variant segv_tx_at --replay 20,3,4,private,full/8
want 1 "sweep asix --replay of segv_tx_at's state"
has "segv_tx_at: crashed: .*, in the state 20,3,4,private,full/8 (usbnet v3.5)" err \
	"sweep asix --replay of segv_tx_at's state"
run "$sweep" asix --load "$crash" --variant segv_tx_at --replay 20,3,3,private,full/8
want 0 "sweep asix --replay of the state before segv_tx_at's"
# shards of that sweep merge with the crash kept (it lost the crash: the
# states fell short of the space's, exit 2 with no word of why). Rows of
# (endpoint, sharing, len) go to shards by index mod 3: full/8's private
# len 20 is row 20, in shard 3/3, full/64's row 25 + 20, in shard 1/3
# (exit 1); shard 2/3 holds no row of len 20 (high/512: row 25 + 137 + 20)
for k in 1 2 3; do
	timeout 60 "$sweep" asix --quick --json --shard $k/3 --sharing private --load "$crash" \
		--variant after,segv_tx_at --timeout 5 >"$tmp/shard$k.json" 2>/dev/null
	rc=$?
	want $((k != 2)) "sweep asix --shard $k/3 with segv_tx_at"
done
run "$sweep" merge "$tmp/shard1.json" "$tmp/shard2.json" "$tmp/shard3.json"
want 1 "merge of shards in which a variant crashed"
grep -Eq '^after: [1-9][0-9]* states' "$tmp/out" || fail "merge: after's row is missing"
grep -Eq '^segv_tx_at: [1-9][0-9]* states' "$tmp/out" || fail "merge: segv_tx_at's row lost shard 2/3's states"
has "crashed: .*, in the state 20,3,4,private,full/64 (usbnet v3.5), in shard 1/3; crashed: .*, in the state 20,3,4,private,full/8 (usbnet v3.5), in shard 3/3: no result" \
	out "merge: the states"
has "merge: segv_tx_at: crashed: " err "merge: stderr"
# its crashed_state is the state the sweep runs first, whatever the order
# of the files: full/8's rows before full/64's (src/sweep/sweep.c's
# loops: endpoint, sharing, len, headroom, tailroom); it kept the first
# file's
for order in "1 2 3" "3 2 1" "2 1 3"; do
	# shellcheck disable=SC2046 # the files, in that order
	run "$sweep" merge --json $(for k in $order; do echo "$tmp/shard$k.json"; done)
	want 1 "merge --json of shards $order in which a variant crashed"
	has '"crashed_state" : "20,3,4,private,full/8"' out "merge of shards $order: crashed_state"
done
# ... and on the receive side: segv_rx dies at len 20 (3 x 24 bytes) in
# shard 1/2 (rows of full/64's lens 14, 16, 18, 20), at len 19 in 2/2;
# the sweep runs len 19 first
for k in 1 2; do
	timeout 60 "$sweep" rx --quick --json --shard $k/2 --load "$crash" \
		--variant before,segv_rx --timeout 5 >"$tmp/rx$k.json" 2>/dev/null
	rc=$?
	want 1 "sweep rx --shard $k/2 with segv_rx"
done
has '"crashed_state" : "20,3,valid,whole,full/64"' rx1.json "sweep rx --shard 1/2: segv_rx's state"
for order in "1 2" "2 1"; do
	# shellcheck disable=SC2046 # the files, in that order
	run "$sweep" merge --json $(for k in $order; do echo "$tmp/rx$k.json"; done)
	want 1 "merge --json of rx shards $order in which a variant crashed"
	has '"crashed_state" : "19,3,valid,whole,full/64"' out "merge of rx shards $order: crashed_state"
done

# ... and on the receive side: a crashing rx_fixup (segv_rx) and one that
# loops without a call into the model (spin_rx, which no step bound
# stops) are failing rows naming the variant and the state, in the form
# --replay takes. segv_rx dies on a transfer of 68 bytes or more: at
# full/64 the first is 3 frames of 19 bytes (3 x (4 + 19 + 1) = 72; 18
# bytes make 3 x 22 = 66); spin_rx in the space's first state
run "$sweep" rx --quick --load "$crash" --variant before,segv_rx,spin_rx --timeout 1
want 1 "sweep rx with a crashing and a looping plugin"
grep -Eq '^before: [1-9][0-9]* states' "$tmp/out" || fail "sweep rx: before's row is missing"
has "segv_rx: 0 states" out "sweep rx: segv_rx"
has "  crashed: .*, in the state 19,3,valid,whole,full/64" out "sweep rx: segv_rx's state"
has "  timed out after 1 s (killed), in the state 14,1,valid,whole,full/64" out \
	"sweep rx: spin_rx's state"
has "segv_rx: crashed: .*, in the state 19,3,valid,whole,full/64" err "sweep rx: stderr"
run "$sweep" rx --quick --json --load "$crash" --variant segv_rx --timeout 2
want 1 "sweep rx --json with a crashing plugin"
has '"crashed" : "crashed: .*in the state 19,3,valid,whole,full/64 (usbnet v3.5)"' out \
	"sweep rx --json"
has '"crashed_state" : "19,3,valid,whole,full/64"' out "sweep rx --json: crashed_state"
# --replay of that state: the same crash, the trace up to it, exit 1; the
# state before it replays whole
run "$sweep" rx --load "$crash" --variant segv_rx --replay 19,3,valid,whole,full/64
want 1 "sweep rx --replay of a crashing state"
has "transfer of 72 bytes" out "sweep rx --replay: the trace before the crash"
has "segv_rx: crashed: .*, in the state 19,3,valid,whole,full/64" err "sweep rx --replay"
run "$sweep" rx --load "$crash" --variant segv_rx --replay 18,3,valid,whole,full/64
want 0 "sweep rx --replay of the state before"
run "$sweep" rx --load "$crash" --variant spin_rx --replay 14,1,valid,whole --timeout 1
want 1 "sweep rx --replay of a loop"
has "spin_rx: timed out after 1 s (killed), in the state 14,1,valid,whole" err \
	"sweep rx --replay of a loop"
run "$sweep" asix --load "$crash" --variant segv_tx --replay 60,0,4,private
want 1 "sweep asix --replay of a crashing tx_fixup"
has "segv_tx: crashed: .*, in the state 60,0,4,private (usbnet v3.5)" err "sweep asix --replay"

# (--wide --host: the tables by row, as these checks read them)
run "$bench" -q -r 1 --wide --host --dd-block-sizes 4K --dd-total-mib 1 --dd-file-mib 1 \
	--dd-machines bbw --iperf-packets 20 --load "$crash" --dd-variants direct,segv,spin \
	--iperf-variants after,segv_tx,spin_tx --timeout 2
want 1 "kmodel-bench with crashing and looping plugins"
grep -Eq '^direct +bbw .* [0-9.]+ +[0-9.]+ ' "$tmp/out" || fail "bench: direct's row is missing"
grep -Eq '^after +tcp ' "$tmp/out" || fail "bench: after's iperf row is missing"
# each lost row names the variant, the machine and the case (iperf: where
# it was)
has "dd: segv on bbw (pre-5.11), bs 4096: crashed: " err "bench: segv"
grep -Eq '^segv\* +bbw +pre-5\.11 .* 4096 +fails: crashed: ' "$tmp/out" ||
	fail "bench: no failing row for segv"
has "dd: spin on bbw (pre-5.11), bs 4096: timed out after 2 s" err "bench: spin"
grep -Eq '^spin\* +bbw .* 4096 +fails: timed out after 2 s' "$tmp/out" || fail "bench: no row for spin"
# (the machine: the profile that prices iperf's rows, and the usbnet era)
has "iperf: segv_tx on beagleboard-xm-debug-slab (usbnet v3.5), tcp, in its setup or warm-up: crashed: " \
	err "bench: segv_tx"
has "iperf: spin_tx on beagleboard-xm-debug-slab (usbnet v3.5), tcp, in its setup or warm-up: timed out after 2 s" \
	err "bench: spin_tx"
grep -Eq '^segv_tx\* +tcp +fails: crashed: .*, in its setup or warm-up, on beagleboard-xm-debug-slab \(usbnet v3\.5\)$' \
	"$tmp/out" || fail "bench: no failing row for segv_tx naming its machine"
# an iperf variant that dies in a later traffic kind's timed run: its row
# there names it (segv_tx_late: tcp's 500 + 3 x 500 packets, tcp+tap's
# warm-up of 500, then its 201st packet in tcp+tap's first timed run);
# its tcp row, whose table died with the process, is run again alone and
# kept; --profile names the machine
run "$bench" -s iperf -q -r 3 --wide --host --iperf-packets 500 --load "$crash" \
	--iperf-variants after,segv_tx_late --profile beaglebone-white --timeout 5
want 1 "kmodel-bench iperf with a variant that crashes late"
grep -Eq '^after +udp ' "$tmp/out" || fail "bench: segv_tx_late: after's udp row is missing"
grep -Eq '^segv_tx_late\* +tcp +500 +500 ' "$tmp/out" || fail "bench: segv_tx_late: its tcp row is lost"
grep -Eq '^segv_tx_late\* +tcp\+tap +fails: crashed: .*, after timed run 1 of 3 began, on beaglebone-white \(usbnet v3\.5\)$' \
	"$tmp/out" || fail "bench: segv_tx_late: no failing tcp+tap row naming its machine"
has "iperf: segv_tx_late on beaglebone-white (usbnet v3.5), tcp+tap, after timed run 1 of 3 began: crashed: " \
	err "bench: segv_tx_late on stderr"
# ... alone: no other table has tcp+tap (its row was lost, exit 0)
run "$bench" -s iperf -q -r 3 --wide --host --iperf-packets 500 --load "$crash" \
	--iperf-variants segv_tx_late --timeout 5
want 1 "kmodel-bench iperf with a variant alone that crashes late"
grep -Eq '^segv_tx_late\* +tcp\+tap +fails: crashed: .*, after timed run 1 of 3 began, on beagleboard-xm-debug-slab \(usbnet v3\.5\)$' \
	"$tmp/out" || fail "bench: segv_tx_late alone: no failing tcp+tap row"
# a receive side that dies in tcp-rx (--iperf-rx; segv_rx on a transfer
# of 68 bytes or more, spin_rx at once): named there, not in udp, the
# kind timed before it (named so, as timed run 1 of 1 of udp)
run "$bench" -s iperf --iperf-rx -q -r 1 --wide --host --iperf-packets 100 --load "$crash" \
	--iperf-variants before,segv_rx,spin_rx --timeout 2
want 1 "kmodel-bench iperf --iperf-rx with a crashing and a looping rx_fixup"
grep -Eq '^before +tcp-rx +100 +100 ' "$tmp/out" || fail "bench --iperf-rx: before's tcp-rx row"
grep -Eq '^segv_rx\* +tcp-rx +fails: crashed: .*, in its setup or warm-up, on beagleboard-xm-debug-slab \(usbnet v3\.5\)$' \
	"$tmp/out" || fail "bench --iperf-rx: no failing tcp-rx row for segv_rx"
has "iperf: spin_rx on beagleboard-xm-debug-slab (usbnet v3.5), tcp-rx, in its setup or warm-up: timed out after 2 s" \
	err "bench --iperf-rx: spin_rx"
# a variant that lives through a trial of its row (warm-up, one timed and
# the counted pass) and dies in the run proper: its row is isolated too
# (a trial run alone then left the tool to die of SIGSEGV, exit 139)
run "$bench" -s dd -q -r 9 --wide --host --dd-block-sizes 64K --dd-total-mib 1 --dd-file-mib 1 \
	--dd-machines bbw --load "$crash" --dd-variants direct,segv_late
want 1 "kmodel-bench with a variant that crashes late"
grep -Eq '^direct +bbw .* [0-9.]+ +[0-9.]+ ' "$tmp/out" || fail "bench: segv_late: direct's row"
grep -Eq '^segv_late\* +bbw .* 65536 +fails: crashed: ' "$tmp/out" ||
	fail "bench: segv_late: no failing row"

# a case whose process dies at one block size: run again a block size per
# child, the rows that live keep their numbers, the one that dies is named
run "$bench" -s dd -q -r 1 --wide --host --dd-block-sizes 4K,1K --dd-total-mib 1 --dd-file-mib 1 \
	--dd-machines bbw --load "$crash" --dd-variants segv_1k
want 1 "kmodel-bench with a variant that crashes at bs 1K"
grep -Eq '^segv_1k\* +bbw +pre-5\.11 .* 4096 +[0-9.]+ +[0-9.]+ ' "$tmp/out" ||
	fail "bench: segv_1k: the 4K row has no numbers"
grep -Eq '^segv_1k\* +bbw +pre-5\.11 .* 1024 +fails: crashed: ' "$tmp/out" ||
	fail "bench: segv_1k: no failing 1K row"
[ "$(grep -c 'the row fails' "$tmp/err")" = 1 ] || fail "bench: segv_1k: not one row lost"

# a copy that returns more bytes not copied than asked: dd crashed in
# shmem_write_end(); now a failing row with the reason
run "$bench" -s dd -q -r 1 --wide --host --dd-block-sizes 4K --dd-total-mib 1 --dd-file-mib 1 \
	--dd-machines bbw --load "$crash" --dd-variants direct,overcount
want 1 "dd with a copy that returns more than n"
grep -Eq '^direct +bbw ' "$tmp/out" || fail "dd overcount: the direct row is missing"
grep -Eq '^overcount\* .* fails: write\(2\) .*overcount: raw_copy_from_user\(n 4096\) returned 4097 bytes not copied, more than asked' "$tmp/out" ||
	fail "dd overcount: no failing row with the reason"

# copy_from_user's contract by era (tests/plugins/contract.c): a correct
# arch copy_from_user() of v4.8-v4.11 zeroes its tail and passes once it
# declares the zeroing contract -- held to the raw one it failed 126108
# cases in process context (dst: the zeroed tail), as before contracts;
# the pre-v4.8 one that leaves the tail stale fails (--timeout 0: the
# isolated run has no limit, it is not timed out at once)
run "$check" uaccess --load "$contract" --variant cfu_v4_8 --machine bbw --context process \
	--timeout 0
want 0 "cfu_v4_8 (zeroing contract)"
grep -Eq '^cfu_v4_8\* +bbw +process +yes +pass +[0-9]+ +0 ' "$tmp/out" || fail "cfu_v4_8 does not pass"
run "$check" uaccess --load "$contract" --variant cfu_pre_v4_8,cfu_v4_8_undeclared \
	--machine bbw --context process --raw-only
want 1 "a stale tail, and zeroing under the raw contract"
grep -Eq '^cfu_pre_v4_8\* +bbw +process +yes +FAIL +[0-9]+ +[1-9][0-9]* +0 +0 +[1-9]' "$tmp/out" ||
	fail "cfu_pre_v4_8: no dst failures"
grep -Eq '^cfu_v4_8_undeclared\* +bbw +process +yes +FAIL +[0-9]+ +126108 +0 +0 +126108 ' "$tmp/out" ||
	fail "cfu_v4_8_undeclared: not its 126108 dst failures"
run "$check" uaccess --load "$contract" --variant cfu_pre_v4_8 --machine bbw --context process --json
want 1 "cfu_pre_v4_8 --json"
has '"contract" : "zeroing"' out "cfu_pre_v4_8 --json"
has '"context" : "process"' out "cfu_pre_v4_8 --json"
# the whole copy_from_user() is checked unless --raw-only: the stale tail
# fails there too (the wrapper adds no zeroing to a zeroing variant)
run "$check" uaccess --load "$contract" --variant cfu_pre_v4_8 --machine bbw --context process \
	--raw-only
raw=$(awk '$1 == "cfu_pre_v4_8*" { print $7 }' "$tmp/out")
run "$check" uaccess --load "$contract" --variant cfu_pre_v4_8 --machine bbw --context process
whole=$(awk '$1 == "cfu_pre_v4_8*" { print $7 }' "$tmp/out")
[ -n "$raw" ] && [ "$whole" = $((2 * raw)) ] ||
	fail "cfu_pre_v4_8: $whole failures with the whole copy, $raw raw-only; want twice"
