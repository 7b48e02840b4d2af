#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Does a build change the dd bench beyond what code layout alone does?
#
# One binary is one sample of the program's code layout, however often it
# runs, and a change of the code moves the layout too (Curtsinger and
# Berger, "STABILIZER: Statistically Sound Performance Evaluation", ASPLOS
# 2013): at 512-byte blocks the plain-memcpy baseline of two builds with the
# same instructions per block can differ beyond the runs' spread in host
# MB/s (docs/bench.md, "Counting the events"). So this script builds each of two configurations in
# LAYOUTS code layouts -- the library's functions in a random order per
# layout (-ffunction-sections, GNU gold's --section-ordering-file; layout 0
# is the linker's own order) -- runs every binary ROUNDS times in a shuffled
# order per round, and compares the two configurations over their layouts:
# per row the median over layouts of each layout's median run, the range of
# those over layouts (the layout spread), the shift between the two, and the
# exact two-sided Mann-Whitney p of the layout medians (p < 0.05 says the
# two differ beyond layout noise; with 7 layouts each the smallest p is
# 0.0006). Only the library's code is shuffled, not its stack or heap. On
# demand, not in CI: about 15 s a build and 4 s a bench run on 2 cores; give
# it an otherwise idle machine.
#
# Usage: scripts/layout-ab.sh [-k LAYOUTS] [-r ROUNDS] [--rev REV] [--keep]
#                             [A B] [-- DD-ARGS...]
#   A, B        configurations: REV (counting compiled in, the release
#               preset's flags) or REV,nocount (-DKMODEL_COUNT_EVENTS=OFF,
#               the release-nocount preset); default HEAD and HEAD,nocount:
#               what counting, switched off in dd's timed runs, still costs
#   -k LAYOUTS  layouts per configuration (default 7)
#   -r ROUNDS   bench runs per binary (default 6)
#   --keep      keep the scratch directory (its path is printed)
#   DD-ARGS     replace the dd rows measured (default: --dd-block-sizes
#               512,4K,1M --dd-variants direct,gup_kmap_rfc --dd-machines
#               bbw,a15); `-s dd -q --csv` is always given
# Needs ld.gold (Debian: binutils, or binutils-gold from trixie on).
# Exit status: 0 when the run finished, 2 on usage errors, 1 on a failed
# build or bench run.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
k=7 rounds=6 keep=0 cfgs=() ddargs=()
while [ $# -gt 0 ]; do
	case $1 in
	-k) k=$2; shift ;;
	-r) rounds=$2; shift ;;
	--keep) keep=1 ;;
	-h|--help) awk 'NR > 2 && !/^#/ { exit } NR > 2' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	--) shift; ddargs=("$@"); break ;;
	-*) echo "layout-ab: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) cfgs+=("$1") ;;
	esac
	shift
done
[ ${#cfgs[@]} -eq 0 ] && cfgs=(HEAD HEAD,nocount)
if [ ${#cfgs[@]} -ne 2 ]; then
	echo "layout-ab: give two configurations or none (see --help)" >&2; exit 2
fi
if ! [[ $k =~ ^[0-9]+$ && $k -ge 2 && $k -le 12 && $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]]; then
	echo "layout-ab: -k takes 2 .. 12 layouts, -r at least 1 round" >&2; exit 2
fi
[ ${#ddargs[@]} -eq 0 ] && ddargs=(--dd-block-sizes 512,4K,1M --dd-variants direct,gup_kmap_rfc
				    --dd-machines bbw,a15)
command -v ld.gold >/dev/null || { echo "layout-ab: needs ld.gold (binutils-gold)" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/kmodel-layout.XXXXXX")
[ $keep = 1 ] && echo "layout-ab: scratch directory $scratch" >&2 || trap 'rm -rf "$scratch"' EXIT

# build CFG TAG: TAG.0 .. TAG.(k-1) under $scratch/bin, each a kmodel-bench
# and the libkmodel.so.3 it runs with
build() {
	local rev=${1%%,*} count=ON src=$scratch/src.$2 b=$scratch/build.$2 lf
	[ "$1" != "${1%,nocount}" ] && count=OFF
	[ "$1" = "$rev" ] || [ "$count" = OFF ] || { echo "layout-ab: bad configuration '$1'" >&2; exit 2; }
	mkdir -p "$src"
	git -C "$repo" archive "$(git -C "$repo" rev-parse --verify "$rev^{commit}")" | tar -x -C "$src"
	for l in $(seq 0 $((k - 1))); do
		lf="-fuse-ld=gold -ffunction-sections -Wl,-Map,$b.map"
		[ $l -gt 0 ] && lf="$lf -Wl,--section-ordering-file,$scratch/order.$2.$l"
		cmake -S "$src" -B "$b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" \
		      -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON -DKMODEL_BUILD_TESTS=OFF \
		      -DKMODEL_BUILD_TOOLS=OFF -DKMODEL_COUNT_EVENTS=$count \
		      -DCMAKE_C_FLAGS=-ffunction-sections -DCMAKE_SHARED_LINKER_FLAGS="$lf" \
		      -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=gold >"$b.log" 2>&1 &&
			cmake --build "$b" -j"$(nproc)" --target kmodel-bench >>"$b.log" 2>&1 ||
			{ tail -20 "$b.log" >&2; echo "layout-ab: build of $1 failed" >&2; exit 1; }
		mkdir -p "$scratch/bin/$2.$l"
		cp "$b/bench/kmodel-bench" "$scratch/bin/$2.$l/"
		cp -L "$b/src/libkmodel.so.3" "$scratch/bin/$2.$l/"
		if [ $l -eq 0 ]; then	# the text sections the linker saw, shuffled per layout
			grep -o '^ \.text\.[^ ]*' "$b.map" | sed 's/^ //' | sort -u >"$scratch/sections.$2"
			for s in $(seq 1 $((k - 1))); do
				awk -v s="$s" 'BEGIN { srand(s) } { printf "%.9f\t%s\n", rand(), $0 }' \
					"$scratch/sections.$2" | sort | cut -f2 >"$scratch/order.$2.$s"
			done
		fi
	done
	echo "layout-ab: built $1 in $k layouts" >&2
}
build "${cfgs[0]}" A
build "${cfgs[1]}" B

echo "layout-ab: $rounds rounds of $((2 * k)) runs, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
mkdir -p "$scratch/out"
for r in $(seq 1 "$rounds"); do
	for bin in $(ls "$scratch/bin" | shuf); do
		KMODEL_PROFILE_DIR=$scratch/src.${bin%%.*}/data/profiles LD_LIBRARY_PATH=$scratch/bin/$bin \
			"$scratch/bin/$bin/kmodel-bench" -s dd -q --csv "${ddargs[@]}" \
			>"$scratch/out/$bin.$r.csv" ||
			{ echo "layout-ab: bench run of $bin failed" >&2; exit 1; }
	done
done
echo "layout-ab: done, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# per binary and row the median run; per configuration and row the median
# and range of those over layouts; the shift; Mann-Whitney over layouts
echo "A: ${cfgs[0]}, B: ${cfgs[1]}; $k layouts each, $rounds runs per layout"
cd "$scratch/out"
awk -F, -v k="$k" '
function median(s,   n, a, i, j, t) {
	n = split(s, a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function lo(s,   n, a, i, m) { n = split(s, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] + 0 < m) m = a[i]; return m }
function hi(s,   n, a, i, m) { n = split(s, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] + 0 > m) m = a[i]; return m }
# number of orders of i x-values and j y-values with u pairs x > y
function ways(i, j, u,   key) {
	if (u < 0 || u > i * j) return 0
	if (i == 0 || j == 0) return u == 0
	key = i SUBSEP j SUBSEP u
	if (!(key in W)) W[key] = ways(i - 1, j, u - j) + ways(i, j - 1, u)
	return W[key]
}
function mw_p(x, y,   n, m, a, b, i, j, u, tot, c, mu) {
	n = split(x, a, " "); m = split(y, b, " "); u = 0
	for (i = 1; i <= n; i++) for (j = 1; j <= m; j++) u += (a[i] > b[j]) + 0.5 * (a[i] == b[j])
	mu = n * m / 2; tot = c = 0
	for (i = 0; i <= n * m; i++) {
		tot += ways(n, m, i)
		if ((i - mu) ^ 2 >= (u - mu) ^ 2 - 1e-9) c += ways(n, m, i)
	}
	return c / tot
}
FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; split(FILENAME, f, "."); bin = f[1] "." f[2]; next }
{
	row = sprintf("%-13s %-4s %7s", $col["variant"], $col["machine"], $col["block_size"])
	if (!(row in seen)) { seen[row] = 1; rows[++nrows] = row }
	runs[bin, row, "ratio"] = runs[bin, row, "ratio"] " " $col["ratio"]
	runs[bin, row, "MB/s"] = runs[bin, row, "MB/s"] " " $col["host_mb_s"]
}
END {
	printf "%-26s %-5s %9s %7s %9s %7s %7s %7s\n", "row", "", "A", "A lay%", "B", "B lay%",
	       "A/B-1%", "p"
	for (r = 1; r <= nrows; r++) for (mi = 1; mi <= 2; mi++) {
		met = mi == 1 ? "ratio" : "MB/s"
		if (met == "ratio" && rows[r] ~ /^memcpy/) continue
		for (c = 1; c <= 2; c++) {
			cfg = c == 1 ? "A" : "B"; lay[cfg] = ""
			for (l = 0; l < k; l++) lay[cfg] = lay[cfg] " " median(runs[cfg "." l, rows[r], met])
			med[cfg] = median(lay[cfg])
			spread[cfg] = 100 * (hi(lay[cfg]) - lo(lay[cfg])) / med[cfg]
		}
		printf "%-26s %-5s %9.4g %7.1f %9.4g %7.1f %+7.1f %7.4f\n", rows[r], met, med["A"],
		       spread["A"], med["B"], spread["B"], 100 * (med["A"] / med["B"] - 1),
		       mw_p(lay["A"], lay["B"])
	}
	print "lay%: range over layouts of the layouts'"'"' median runs, in % of the median; p: exact" \
	      " two-sided Mann-Whitney of the layout medians"
}' $(ls *.csv)
