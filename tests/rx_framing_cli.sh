#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# examples/byo_rx_framing through kmodel-sweep rx: aqc111_rx_fixup()
# (drivers/net/usb/aqc111.c) before and after afb8e2465275, its device a
# KM_FRAMING_ENCODER hook. Expected from the driver's text:
#  - a valid stream of frames up to hard_mtu (1514: mtu 1500 + ETH_HLEN)
#    comes up byte for byte; a frame of 1515..1518 bytes is dropped
#    (pkt_len, pad included, > hard_mtu + AQ_RX_HW_PAD): frame_lost in the
#    quick space's 4 such lens x 1..3 frames x 2 endpoints, 24 states,
#    and the 3 valid fill runs of 1518-byte frames (urb_fill-1, urb_fill,
#    urb_fill+1) x 2 endpoints: 30;
#  - a first descriptor's length one short (the sweep's len-1, made in the
#    field the hook named) passes a frame one byte short up: 13 bytes of a
#    14-byte frame; a header count one too many (copy_disagrees) fails
#    the start_of_descs self check: rx_fixup returns 0, nothing goes up;
#  - nothing reads past the transfer, loops or leaks, before or after.
set -uo pipefail
sweep=$1 plugin=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "rx_framing_cli: $*" >&2; exit 1; }
run() { timeout 120 "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
want() { [ "$rc" = "$1" ] || { cat "$tmp/out" "$tmp/err" >&2; fail "$2: exit $rc, want $1"; }; }
has() { grep -q -- "$1" "$tmp/$2" || { cat "$tmp/$2" >&2; fail "$3: no \"$1\""; }; }

for v in aqc111 aqc111-afb8e2465275; do
	run "$sweep" rx --quick --load "$plugin" --variant "$v"
	want 0 "sweep rx $v"
	has "^$v: [0-9]* states" out "sweep rx $v"
	has "^  frame_lost  *30  *e\.g\. --replay 1515,1,valid,whole,high/512$" out "sweep rx $v"
	has "^  malformed_frame_passed_up " out "sweep rx $v"
	if grep -Eq 'rx_read_past_urb|rx_no_progress|leak|skb_|frame_mismatch' "$tmp/out"; then
		cat "$tmp/out" >&2; fail "sweep rx $v: a finding the driver's text does not make"
	fi
	sed "s/^$v:/V:/" "$tmp/out" | grep -v -e '^#' -e 'states in' >"$tmp/$v.findings"
done
diff -u "$tmp/aqc111.findings" "$tmp/aqc111-afb8e2465275.findings" >&2 ||
	fail "afb8e2465275 changes what the sweep finds"

run "$sweep" rx --load "$plugin" --variant aqc111 --replay 14,1,len-1,whole
want 0 "replay len-1"
has "frame passed up: 13 bytes" out "replay len-1"
run "$sweep" rx --load "$plugin" --variant aqc111 --replay 60,2,copy_disagrees,whole,super/1024
want 0 "replay copy_disagrees"
has "0 frames passed up, rx_fixup returned 0 1 times" out "replay copy_disagrees"
run "$sweep" rx --load "$plugin" --variant aqc111 --replay 60,3,valid,whole,super/1024
want 0 "replay valid"
[ "$(grep -c 'frame passed up: 60 bytes, a sent frame' "$tmp/out")" = 3 ] ||
	{ cat "$tmp/out" >&2; fail "replay valid: not the 3 frames sent"; }
run "$sweep" rx --quick --load "$plugin" --variant aqc111 --fail-on-findings
want 1 "--fail-on-findings"
exit 0
