#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install missing packages, build a preset (default: dev, -Werror) and run
# the cmocka suite under ctest: all but the tests labelled exhaustive (the
# conformance suite's long sweeps, kmodel-check's CLI, the installed
# package, the host's timings), which --all adds (CI runs them all).
# Usage: run-tests.sh [--all] [dev|release|asan|asan-clang]
set -euo pipefail
cd "$(dirname "$0")/.."
filter=(-LE exhaustive)
if [ "${1:-}" = --all ]; then
	filter=()
	shift
fi
preset=${1:-dev}
case $preset in
*clang*) scripts/deps.sh clang ;;
*) scripts/deps.sh ;;
esac
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j"$(nproc)"
ctest --preset "$preset" -j"$(nproc)" "${filter[@]}"
