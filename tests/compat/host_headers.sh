#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The function kmodel_host_headers() of include/kmodel/kernel/README.md, as
# the README gives it, run on tests/compat/host_headers.c (a usbnet
# driver's include list and <linux/netlink.h>): it must name the host's
# netlink.h and nothing else -- every other header there is the layer's;
# and on tests/compat/host_headers_missing.c (<linux/crc32.h>, in neither):
# it must print the compiler's fatal error and fail (it printed
# nothing and returned 0).
# Usage: host_headers.sh <source dir> <cc arguments...>
set -euo pipefail
src=$1; shift
fn=$(sed -n '/^kmodel_host_headers() {/,/^}/p' "$src/include/kmodel/kernel/README.md")
[ -n "$fn" ] || { echo "host_headers: no kmodel_host_headers() in the layer's README" >&2; exit 1; }
eval "$fn"
got=$(kmodel_host_headers "$@" "$src/tests/compat/host_headers.c")
want="the file includes host header /usr/include/linux/netlink.h"
if [ "$got" != "$want" ]; then
	printf 'host_headers: got\n%s\nwant\n%s\n' "$got" "$want" >&2
	exit 1
fi
rc=0
err=$(kmodel_host_headers "$@" "$src/tests/compat/host_headers_missing.c" 2>&1 >/dev/null) || rc=$?
if [ "$rc" -eq 0 ] || ! grep -q 'fatal error:.*crc32\.h' <<<"$err"; then
	printf 'host_headers: on a missing header: status %s, stderr\n%s\n' "$rc" "$err" >&2
	exit 1
fi
echo "host_headers: only <linux/netlink.h> came from the host; a missing <linux/crc32.h> failed"
