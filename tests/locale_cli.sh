#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Under a locale with a decimal comma (de_DE.UTF-8, from LOCPATH=$2: the
# comma_locale fixture), kmodel-bench's machine-readable output keeps the
# C locale's decimal point: CSV (a comma would split a field) and the
# profile `kmodel-bench calibrate -o` writes (written under this locale by
# the host_profile fixture: $3). Reproduce reading that profile back under
# this locale, and its plot data: test_reproduce's
# test_host_profile_comma_locale. Exit 77 (skipped) without such a locale.
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
echo "locale_cli: CSV and the calibrated profile keep a decimal point under de_DE"
