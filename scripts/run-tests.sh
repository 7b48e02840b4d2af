#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install missing packages, build a preset (default: dev, -Werror) and run
# the whole cmocka suite under ctest.
# Usage: run-tests.sh [dev|release|asan|asan-clang]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-dev}
case $preset in
*clang*) scripts/deps.sh clang ;;
*) scripts/deps.sh ;;
esac
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j"$(nproc)"
ctest --preset "$preset" -j"$(nproc)"
