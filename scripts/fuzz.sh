#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the libFuzzer targets of tests/fuzz (the fuzz preset: clang, ASan,
# UBSan; scripts/deps.sh clang installs clang) and run them.
#   scripts/fuzz.sh smoke [SECONDS]        every target for SECONDS (default 10),
#                                          from its committed seed corpus, and
#                                          fuzz_rx on the aqc111 example plugin
#                                          (KMODEL_FUZZ_PLUGIN) (CI)
#   scripts/fuzz.sh run TARGET SECONDS [DIR]
#                                          one campaign: corpus in DIR (default
#                                          fuzz-corpus/TARGET, seeded from the
#                                          committed one), crashes in DIR/../
#   scripts/fuzz.sh list                   the targets
# Targets: mm, skb, parser, machine, rx. Exit 1 when a target finds a crash,
# a leak or a broken promise (the reproducer is kept: libFuzzer names it).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(mm skb parser machine rx)
bin=build/fuzz/tests/fuzz
seeds=tests/fuzz/corpus

build() {
	scripts/deps.sh clang
	cmake --preset fuzz >/dev/null
	cmake --build --preset fuzz -j"$(nproc)" >/dev/null
}

# run TARGET SECONDS CORPUS_DIR ARTIFACT_PREFIX: libFuzzer with the
# committed seeds as a second (read-only) corpus
fuzz() {
	mkdir -p "$3"
	"$bin/fuzz_$1" -max_total_time="$2" -print_final_stats=1 -timeout=20 \
		-rss_limit_mb=4096 -artifact_prefix="$4" "$3" "$seeds/$1"
}

case ${1:-} in
smoke)
	secs=${2:-10}
	build
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# NAME TARGET: one target's smoke run (KMODEL_FUZZ_PLUGIN as exported)
	smoke_one() {
		if ! fuzz "$2" "$secs" "$tmp/$1" "$PWD/fuzz-$1-" >"$tmp/$1.log" 2>&1; then
			tail -40 "$tmp/$1.log" >&2
			echo "fuzz: $1 found a problem (its input: fuzz-$1-*)" >&2
			exit 1
		fi
		echo "fuzz: $1: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$tmp/$1.log" |
			grep -o '[0-9]*$') runs in ${secs} s, $(grep -o 'cov: [0-9]*' "$tmp/$1.log" |
			tail -1), no problem"
	}
	for t in "${targets[@]}"; do
		smoke_one "$t" "$t"
	done
	# fuzz_rx on a user's plugin: the aqc111 example (examples/byo_rx_framing)
	KMODEL_FUZZ_PLUGIN=$PWD/$bin/libfuzz_plugin_byo_rx_framing.so smoke_one rx-plugin rx
	;;
run)
	[ $# -ge 3 ] || { echo "usage: fuzz.sh run TARGET SECONDS [DIR]" >&2; exit 2; }
	[[ " ${targets[*]} " == *" $2 "* ]] || { echo "fuzz: unknown target $2" >&2; exit 2; }
	build
	dir=${4:-fuzz-corpus/$2}
	# libFuzzer exits 77 (a broken promise, -error_exitcode) or 1: the
	# header promises 1
	if ! fuzz "$2" "$3" "$dir" "$(dirname "$dir")/$2-"; then
		echo "fuzz: $2 found a problem (its input: $(dirname "$dir")/$2-*)" >&2
		exit 1
	fi
	;;
list)
	printf '%s\n' "${targets[@]}"
	;;
*)
	sed -n '3,14p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
	;;
esac
