#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Under a locale with a decimal comma (de_DE.UTF-8, from LOCPATH=$2: the
# comma_locale fixture), kmodel-bench's machine-readable output keeps the
# C locale's decimal point: CSV (a comma would split a field), the profile
# `kmodel-bench calibrate -o` writes (library code; written under this
# locale by the host_profile fixture: $3) and reproduce reads back, and
# reproduce's plot data. Exit 77 (skipped) without such a locale.
set -euo pipefail
bench=$1 profile=$3
export LOCPATH=$2 LC_ALL=de_DE.UTF-8
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "locale_cli: $*" >&2; exit 1; }
if [ "$(/usr/bin/printf %.1f 0.5 2>/dev/null)" != "0,5" ]; then
	echo "locale_cli: no de_DE.UTF-8 locale with a decimal comma: skipped"
	exit 77
fi

"$bench" -q -r 1 -s dd --dd-block-sizes 4K --dd-total-mib 1 --dd-file-mib 1 --dd-machines bbw \
	--csv >"$tmp/dd.csv"
awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$tmp/dd.csv" ||
	fail "dd CSV: a row has more fields than the header (decimal commas)"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ratio") c = i; next }
	$c != "" && $c !~ /^[0-9]+(\.[0-9]+)?$/ { exit 1 }' "$tmp/dd.csv" ||
	fail "dd CSV: a ratio not in C notation"

grep -q '^read_mem_cycles=' "$profile" || fail "$profile: no profile calibrate wrote"
if grep -E '^[a-z0-9_]+=-?[0-9]+,[0-9]' "$profile"; then
	fail "calibrate wrote decimal commas"
fi
plot=()
command -v gnuplot >/dev/null && plot=(--plot "$tmp/plot")
"$bench" reproduce --profile "$profile" "${plot[@]}" >/dev/null ||
	fail "reproduce does not load the profile calibrate wrote"
if [ ${#plot[@]} -gt 0 ] && grep -E '[0-9],[0-9]' "$tmp"/plot/*.dat; then
	fail "plot data with decimal commas"
fi
echo "locale_cli: CSV, the calibrated profile and the plot data keep a decimal point under de_DE"
