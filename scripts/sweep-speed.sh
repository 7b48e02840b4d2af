#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The sweeps' speed: states per CPU-second (the thread's CPU time, as
# kmodel-sweep prints it) of `kmodel-sweep rx` (the whole space) and
# `kmodel-sweep asix --quick`, interleaved round by round, so both see the
# same load on a shared host; the median and range of each and of their
# ratio, and the load average before and after.
#
#   scripts/sweep-speed.sh [ROUNDS] [KMODEL-SWEEP...]
#
# ROUNDS defaults to 9. With no KMODEL-SWEEP, builds the release preset's
# (build/release) and times it; with several (e.g. a build of another
# commit), each round runs each of them in turn, so they compare in the
# same run.
set -euo pipefail
rounds=${1:-9}
shift || true
case $rounds in '' | *[!0-9]* | 0) echo "usage: $0 [ROUNDS] [KMODEL-SWEEP...]" >&2; exit 2 ;; esac
bins=()
for b in "$@"; do	# as given, from where it was called
	[ -x "$b" ] || { echo "sweep-speed: $b: not an executable" >&2; exit 2; }
	bins+=("$(realpath "$b")")
done
cd "$(dirname "$0")/.."
if [ ${#bins[@]} -eq 0 ]; then
	echo "sweep-speed: building kmodel-sweep (release preset, build/release) ..." >&2
	cmake --preset release >/dev/null
	cmake --build --preset release -j"$(nproc)" --target kmodel-sweep >&2
	bins=(build/release/tools/kmodel-sweep)
fi

# the "M states per CPU-second" figure of a run's first line
rate() {
	local r

	r=$("$@" | sed -n '1s/.*(\([0-9.]*\) M states per CPU-second).*/\1/p')
	[ -n "$r" ] || { echo "sweep-speed: $*: no states per CPU-second" >&2; exit 1; }
	echo "$r"
}

out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 1; i <= rounds; i++)); do
	for b in "${bins[@]}"; do
		r=$(rate "$b" rx)
		echo "$b rx $r" >>"$out"
		r=$(rate "$b" asix --quick)
		echo "$b tx $r" >>"$out"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "M states per CPU-second, $rounds rounds (median, min..max):"
for b in "${bins[@]}"; do
	for s in rx tx; do
		awk -v b="$b" -v s="$s" '$1 == b && $2 == s { print $3 }' "$out" | sort -g |
			awk -v b="$b" -v s="$s" '{ v[NR] = $1 } END {
				m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
				printf "  %s %s: %.2f (%.2f..%.2f)\n", b, s, m, v[1], v[NR] }'
	done
	# rx over tx, round by round
	awk -v b="$b" '$1 == b && $2 == "rx" { rx[++n] = $3 } $1 == b && $2 == "tx" { tx[++k] = $3 }
		END { for (i = 1; i <= n; i++) print rx[i] / tx[i] }' "$out" | sort -g |
		awk -v b="$b" '{ v[NR] = $1 } END {
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "  %s rx/tx: %.3f (%.3f..%.3f)\n", b, m, v[1], v[NR] }'
done
