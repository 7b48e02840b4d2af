#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the build tree into a temporary prefix, then build and run the
# example consumer twice: with find_package(kmodel) and with pkg-config,
# and run the installed kmodel-check.
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/examples" -B "$tmp/ex" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/ex" >/dev/null
LD_LIBRARY_PATH="$tmp/prefix/lib:$tmp/prefix/lib64" "$tmp/ex/uaccess_copy"
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig:$tmp/prefix/lib64/pkgconfig"
cc -std=gnu11 -o "$tmp/pc" "$src/examples/uaccess_copy.c" $(pkg-config --cflags --libs kmodel)
LD_LIBRARY_PATH="$tmp/prefix/lib:$tmp/prefix/lib64" "$tmp/pc" >/dev/null
# the installed kmodel-check runs (exit 0: direct conforms)
"$tmp/prefix/bin/kmodel-check" uaccess --variant direct >/dev/null
echo "install_consumer: find_package and pkg-config consumers built and ran; kmodel-check ran"
