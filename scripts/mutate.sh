#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Mutation testing: does the suite fail when the library is wrong?
#
# Each mutant of scripts/mutants.txt (one small semantic change of src/,
# tools/, the compatibility layer include/kmodel/kernel/ or its CMake
# helper cmake/KmodelKernel.cmake) is applied in a
# scratch clone of the committed tree, built, and the suite is run; the
# mutant is killed when a test fails, survives when all pass, and is
# stillborn when it does not build (not counted in the score). Runs on
# demand, not in CI: about half a minute per mutant on 2 cores.
#
# Usage: scripts/mutate.sh [-j N] [--only ID[,ID...]] [--rev REV] [--keep]
#                          [--all-tests] [--exclude REGEX] [--list] [--check]
#   -j N         build and test jobs (default: nproc)
#   --only IDs   just these mutants
#   --rev REV    the commit to mutate (default HEAD; uncommitted changes are
#                not in the clone)
#   --keep       keep the scratch directory (its path is printed)
#   --all-tests  also run install_consumer (installs the package and
#                builds the examples against it): slow, left out by default
#                (test_sweep, a few seconds unoptimised, is in the suite)
#   --exclude RE also leave out the ctest tests RE matches (e.g. 'seeds':
#                test_seeds hashes every faithful port, so it kills any
#                mutant inside one; without it, is a behaviour test
#                noticing the change?)
#   --list       print the mutants and exit
#   --check      only check that each mutant's text is found exactly once
#                in its file of REV (no build; others' edits move texts)
# Exit status: 0 when the run finished (the score is printed), 2 on usage
# errors, a mutant that does not apply, or a suite that fails unmutated.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
list=$repo/scripts/mutants.txt
jobs=$(nproc)
only="" rev=HEAD keep=0 check=0 exclude='^install_consumer$'
while [ $# -gt 0 ]; do
	case $1 in
	-j) jobs=$2; shift ;;
	--only) only=",$2,"; shift ;;
	--rev) rev=$2; shift ;;
	--keep) keep=1 ;;
	--all-tests) exclude=${exclude/#^install_consumer$/^$} ;;
	--exclude) exclude="$exclude|$2"; shift ;;
	--check) check=1 ;;
	--list) grep -v '^#' "$list" | grep -v '^$' | awk -F'\t' '{ printf "%-24s %-40s %s\n", $1, $2, $5 }'
		exit 0 ;;
	-h|--help) awk 'NR > 2 && !/^#/ { exit } NR > 2' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "mutate: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done

# every line a comment, blank, or five TAB-separated fields (a real tab or
# newline inside a text splits it: write \t and \n)
bad=$(awk -F'\t' '!/^#/ && !/^$/ && NF != 5 { printf " %d", NR }' "$list")
if [ -n "$bad" ]; then
	echo "mutate: $list: lines without 5 TAB-separated fields:$bad" >&2
	exit 2
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/kmodel-mutate.XXXXXX")
[ $keep = 1 ] || trap 'rm -rf "$scratch"' EXIT
src=$scratch/src build=$scratch/build report=$scratch/report.txt
commit=$(git -C "$repo" rev-parse "$rev")
git clone -q --no-checkout "$repo" "$src"
git -C "$src" checkout -q "$commit"
# the one occurrence of FIND in the file (\n, \t escapes in FIND and REPL)
find_once='
	our ($find, $repl);
	BEGIN {
		($find, $repl) = ($ENV{FIND}, $ENV{REPL} // "");
		for ($find, $repl) { s/\\n/\n/g; s/\\t/\t/g; }
	}
	my $n = () = /\Q$find\E/g;
	die "found $n times, not once\n" unless $n == 1;'
# apply FILE FIND REPLACE: FIND, found once, replaced in the clone
apply() { FIND=$2 REPL=$3 perl -0777 -i -pe "$find_once"' s/\Q$find\E/$repl/;' "$src/$1"; }
# applies FILE FIND: FIND is in the clone's FILE once
applies() {
	[ -f "$src/$1" ] || { echo "no such file" >&2; return 1; }
	FIND=$2 perl -0777 -ne "$find_once" "$src/$1"
}
if [ $check = 1 ]; then
	bad=0 n=0
	while IFS=$'\037' read -r -u 3 id file find repl what; do
		case $id in ''|'#'*) continue ;; esac
		[ -z "$only" ] || [[ $only == *",$id,"* ]] || continue
		n=$((n + 1))
		if ! applies "$file" "$find" 2>"$scratch/apply.log"; then
			echo "mutate: $id: $(cat "$scratch/apply.log" || :) in $file" >&2
			bad=$((bad + 1))
		fi
	done 3< <(tr '\t' '\037' <"$list")
	echo "mutate: $n mutants checked on $commit, $bad do not apply"
	[ $bad = 0 ] && exit 0 || exit 2
fi
echo "mutate: $commit in $src ($(nproc) cores, -j$jobs)" | tee "$report"
# Debug without -Werror: a mutant that only brings a warning still runs
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="-g" \
	-DKMODEL_BUILD_MAN=OFF >"$scratch/configure.log" 2>&1
build() { cmake --build "$build" -j"$jobs" >"$scratch/build.log" 2>&1; }
suite() {
	ctest --test-dir "$build" -j"$jobs" --stop-on-failure --timeout 300 -E "$exclude" \
		>"$scratch/ctest.log" 2>&1
}
build || { echo "mutate: the unmutated tree does not build ($scratch/build.log)" >&2; exit 2; }
t0=$(date +%s)
suite || { echo "mutate: the suite fails unmutated ($scratch/ctest.log)" >&2; exit 2; }
echo "mutate: baseline built and passed the suite in $(( $(date +%s) - t0 )) s" | tee -a "$report"

killed=0 survived=0 stillborn=0 total=0
survivors=()
# the list on fd 3: a child (ctest, cmake) must not eat it from stdin; its
# tabs as \037, which read does not take for whitespace (an empty
# replacement is a field, not a gap to collapse)
while IFS=$'\037' read -r -u 3 id file find repl what; do
	case $id in ''|'#'*) continue ;; esac
	[ -z "$only" ] || [[ $only == *",$id,"* ]] || continue
	total=$((total + 1))
	t0=$(date +%s)
	if ! apply "$file" "$find" "$repl" 2>"$scratch/apply.log"; then
		echo "mutate: $id: $(cat "$scratch/apply.log") in $file" >&2
		exit 2
	fi
	if ! build; then
		result=stillborn by=""
		stillborn=$((stillborn + 1))
	elif suite; then
		result=SURVIVED by=""
		survived=$((survived + 1))
		survivors+=("$id: $what ($file)")
	else
		result=killed
		by=$(awk '/The following tests FAILED/ { f = 1; next }
			  f && / - / { sub(/^[ \t]*[0-9]+ - /, ""); sub(/ \(.*$/, ""); printf "%s%s", s, $0; s = "," }' \
			  "$scratch/ctest.log")
		[ -n "$by" ] || by=$(grep -Eo '[A-Za-z_0-9]+ \.+\*+(Failed|Timeout|Exception)' "$scratch/ctest.log" |
				     head -1 | cut -d' ' -f1)
		killed=$((killed + 1))
	fi
	git -C "$src" checkout -q -- "$file"
	printf '%-24s %-9s %4ss  %s\n' "$id" "$result" "$(( $(date +%s) - t0 ))" "$by" | tee -a "$report"
done 3< <(tr '\t' '\037' <"$list") </dev/null
build || { echo "mutate: the tree does not build after the run" >&2; exit 2; }

scored=$((killed + survived))
{
	echo
	echo "mutants: $total; killed $killed, survived $survived, stillborn $stillborn (not scored)"
	[ $scored -gt 0 ] && echo "score: $killed / $scored = $(( 100 * killed / scored )) % killed"
	for s in "${survivors[@]}"; do echo "survived: $s"; done
} | tee -a "$report"
[ $keep = 1 ] && echo "mutate: kept $scratch (report.txt, logs)"
exit 0
