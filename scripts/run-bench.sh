#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install missing packages, build the release preset, run kmodel-bench.
# Arguments are passed to kmodel-bench (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
echo "run-bench: building the release preset (build/release) ..." >&2
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)" >/dev/null
exec build/release/bench/kmodel-bench "$@"
