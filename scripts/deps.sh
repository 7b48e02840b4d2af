#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages libkmodel needs to build and test, only those
# that are missing. Needs root (or sudo) when something is missing.
# Usage: deps.sh [clang] [valgrind] -- clang also installs clang and its
# runtimes (ASan/UBSan and libFuzzer: libclang-rt-dev), for the asan-clang
# preset and the fuzz targets (tests/fuzz/); valgrind the memcheck runs of
# docs/testing.md (CI installs it for the valgrind_cli test).
set -euo pipefail

# locales: the de_DE source localedef compiles for the decimal-comma tests;
# groff-base and man-db: the man_pages test renders the pages (groff, man -l)
pkgs=(gcc make cmake pkg-config libglib2.0-dev libjson-glib-dev libcmocka-dev gnuplot-nox help2man
      locales patch groff-base man-db)
for group in "$@"; do
	case $group in
	clang) pkgs+=(clang libclang-rt-dev) ;;
	valgrind) pkgs+=(valgrind) ;;
	*) echo "deps: unknown group '$group' (known: clang, valgrind)" >&2; exit 2 ;;
	esac
done
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
	sudo=()
elif command -v sudo >/dev/null; then
	sudo=(sudo)
else
	echo "deps: missing ${missing[*]}; run this script as root" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
