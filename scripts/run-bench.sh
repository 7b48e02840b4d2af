#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install missing packages, build kmodel-bench in the release preset
# (build/release: only the bench and libkmodel, not the tests), run it.
# Arguments are passed to kmodel-bench (try --help). The build's progress
# goes to stderr; stdout is the bench's alone (--json, --csv pipe cleanly).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
echo "run-bench: configuring and building kmodel-bench (release preset, build/release) ..." >&2
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)" --target kmodel-bench >&2
exec build/release/bench/kmodel-bench "$@"
