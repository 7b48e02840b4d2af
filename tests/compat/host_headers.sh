#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The function kmodel_host_headers() of include/kmodel/kernel/README.md, as
# the README gives it, run on tests/compat/host_headers.c (a usbnet
# driver's include list and <linux/netlink.h>): it must name the host's
# netlink.h and nothing else -- every other header there is the layer's.
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
echo "host_headers: only <linux/netlink.h> came from the host"
