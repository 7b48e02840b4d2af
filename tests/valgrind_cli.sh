#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kmodel-bench's dd under valgrind memcheck: the tools stay right when
# the host's memory sits low. The model tells a user address from a
# kernel one by value (user_ptr(), src/mm_sim/ptlock.c): below TASK_SIZE,
# a pointer into a machine's RAM is a kernel one. valgrind maps its
# client's memory from low addresses up, so three machines' RAM reached
# dd's buffer (0x3faab008 inside RAM at 0x3583c000..0x4583c000), and
# uaccess_with_memcpy's memcpy() to the buffer landed in RAM: "after
# read(2), dd's buffer differs from A at byte 1". RAM and the strict kmap
# windows are now mapped above 4 GiB (km_host_map_kernel()). Both kmap
# modes, exit 0, no failed row and no memcheck error; then test_machine
# ($2), whose test_kernel_memory_above_task_size checks the addresses
# themselves, which only a host that maps low puts to the test.
# Exit 77 (skipped) without valgrind; not under the sanitizer presets.
set -euo pipefail
bench=$1 test_machine=$2
command -v valgrind >/dev/null || { echo "valgrind_cli: no valgrind: skipped"; exit 77; }
fail() { echo "valgrind_cli: $*" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT

for strict in off force-map; do
	rc=0
	valgrind -q --error-exitcode=9 "$bench" -q -r 1 -s dd --dd-total-mib 4 --dd-file-mib 4 \
		--dd-machines bbw-config-highmem --dd-block-sizes 512 \
		--dd-variants direct,gup_kmap_rfc,uaccess_with_memcpy --dd-kmap-strict "$strict" \
		>"$out" 2>&1 || rc=$?
	[ $rc = 0 ] || { cat "$out" >&2; fail "strict $strict: exit $rc (9 is a memcheck error)"; }
	grep -Eq '^uaccess_with_memcpy +bbw-config-highmem .* [0-9]+\.[0-9]$' "$out" ||
		{ cat "$out" >&2; fail "strict $strict: no uaccess_with_memcpy row with a figure"; }
	! grep -q 'fails' "$out" || { cat "$out" >&2; fail "strict $strict: a row failed"; }
done
rc=0
valgrind -q --error-exitcode=9 "$test_machine" >"$out" 2>&1 || rc=$?
[ $rc = 0 ] || { cat "$out" >&2; fail "test_machine under valgrind: exit $rc"; }
echo "valgrind_cli: ok"
