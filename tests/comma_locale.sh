#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ctest fixture: a locale whose decimal point is a comma (de_DE.UTF-8),
# compiled into DIR for LOCPATH=DIR when the system has none installed.
# The locale tests (test_cost, locale_cli) skip without it; this exits 0
# either way, saying so when it could not make one (no localedef, or no
# de_DE source: Debian's "locales" package).
set -u
dir=$1
if [ -d "$dir/de_DE.UTF-8" ]; then
	exit 0
fi
mkdir -p "$dir"
if ! command -v localedef >/dev/null ||
   ! localedef -i de_DE -f UTF-8 "$dir/de_DE.UTF-8" >/dev/null 2>&1; then
	rm -rf "$dir/de_DE.UTF-8"
	echo "comma_locale: could not make de_DE.UTF-8 (localedef, locales): locale tests skip"
fi
exit 0
