#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The tools survive bad input and a user's crashing plugin: each case
# checks the exact exit status (a crash is 128 + the signal, and a test
# that checked only "non-zero" passed while the command crashed).
set -uo pipefail
check=$1 sweep=$2 bench=$3 crash=$4 selfload=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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

# a plugin whose entry point loads itself: recursion until the stack overflowed
run "$check" uaccess --load "$selfload"
want 2 "a plugin that loads itself"
has "already being loaded" err "a plugin that loads itself"
