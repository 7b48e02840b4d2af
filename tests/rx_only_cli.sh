#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A receive-only usbnet variant through the tools (tests/plugins/rx_only.c:
# ax88179's rx_fixup, no tx_fixup, no device model): kmodel-sweep rx runs
# it as the built-in ax88179; kmodel-sweep asix refuses it by name (nothing
# parses its bulk-out) and kmodel-bench's iperf leaves it out with a notice
# while the other variants keep their rows.
set -uo pipefail
sweep=$1 bench=$2 plugin=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "rx_only_cli: $*" >&2; exit 1; }
run() { timeout 120 "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
want() { [ "$rc" = "$1" ] || { cat "$tmp/err" >&2; fail "$2: exit $rc, want $1"; }; }
has() { grep -q -- "$1" "$tmp/$2" || { cat "$tmp/$2" >&2; fail "$3: no \"$1\""; }; }

run "$sweep" rx --quick --load "$plugin" --variant rx_only
want 0 "sweep rx rx_only"
has "^rx_only: 2058 states" out "sweep rx rx_only"
sed 's/^rx_only:/V:/' "$tmp/out" | grep -v -e '^#' -e 'states in' >"$tmp/mine"
run "$sweep" rx --quick --variant ax88179
want 0 "sweep rx ax88179"
sed 's/^ax88179:/V:/' "$tmp/out" | grep -v -e '^#' -e 'states in' >"$tmp/builtin"
diff -u "$tmp/builtin" "$tmp/mine" >&2 || fail "sweep rx: rx_only's findings are not ax88179's"
# with no --variant, a loaded plugin's receive variants run after the
# library's (they once were left out without a word)
run "$sweep" rx --quick --load "$plugin"
want 0 "sweep rx --load, every variant"
has "^rx_only: 2058 states" out "sweep rx --load, every variant"
has "^asix-v4.14: " out "sweep rx --load, every variant"

# replay names where the rx_fixup comes from, or that the variant does not
# say (it printed "(-)")
run "$sweep" rx --load "$plugin" --variant rx_only --replay 60,1,valid,whole,high/512
want 0 "sweep rx rx_only --replay"
has "^rx_only (rx_source not set by its variant): high/512" out "sweep rx rx_only --replay"

run "$sweep" asix --quick --load "$plugin" --variant rx_only
want 2 "sweep asix rx_only"
has "variant 'rx_only' has a receive side only" err "sweep asix rx_only"

run "$bench" -s iperf --load "$plugin" --iperf-variants rx_only,ax88179 --iperf-packets 200 \
	--repeat 1 --iperf-maxpacket 1024 -q
want 0 "bench iperf rx_only,ax88179"
has "iperf skips rx_only: a receive side only" err "bench iperf"
has "^ax88179  *tcp " out "bench iperf: ax88179's rows"
grep -q "rx_only" "$tmp/out" && fail "bench iperf: a row of rx_only"
exit 0
