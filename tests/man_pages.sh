#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The man pages a user reads. For each tool's page (made by help2man,
# cmake/KmodelTool.cmake) and the library's kmodel(3):
#  - it renders without a warning: groff -man -ww, and man -l as a user
#    opens an uninstalled page;
#  - a page with an include file (man/<page>.h2m) has NAME, SYNOPSIS,
#    DESCRIPTION, OPTIONS, EXIT STATUS, ENVIRONMENT, FILES, EXAMPLES and
#    SEE ALSO, in that order, none empty;
#  - its OPTIONS are exactly the options its --help lists, long and short;
#  - kmodel(3) has its sections and every kmodel/*.h it names exists.
# Usage: man_pages.sh SRCDIR PAGE|FULL|HELP-COMMAND...
#   FULL is 1 for a page with an include file, 0 without.
set -uo pipefail
[ $# -gt 1 ] || { echo "man_pages: usage: man_pages.sh SRCDIR PAGE|FULL|HELP-COMMAND..." >&2; exit 2; }
src=$1
shift
export LC_ALL=C.UTF-8 MANWIDTH=80
rc=0
fail() { echo "man_pages: $*" >&2; rc=1; }

# the .SH headings of a page, unquoted, one a line
sections() { sed -n 's/^\.SH  *"\{0,1\}\([^"]*\)"\{0,1\} *$/\1/p' "$1"; }

# $1 page, $2... the sections it must have, in this order, none empty
check_sections() {
	local page=$1 want got
	shift
	want=$(printf '%s\n' "$@")
	got=$(sections "$page" | grep -Fx -f <(printf '%s\n' "$@"))
	[ "$got" = "$want" ] ||
		fail "${page##*/}: sections $(sections "$page" | paste -sd, -), want $(paste -sd, - <<<"$want") in this order"
	# a section with no text before the next heading
	awk -v page="${page##*/}" '
		/^\.SH / { if (name != "" && !text) { print "man_pages: " page ": section " name " is empty"; bad = 1 }
			   name = $0; text = 0; next }
		/^[^.]/ || /^\.(B|BR|I|IR|BI|TP|IP)( |$)/ { text = 1 }
		END { if (name != "" && !text) { print "man_pages: " page ": section " name " is empty"; bad = 1 }
		      exit bad }' "$page" >&2 || rc=1
}

render() {
	local page=$1 out
	out=$(groff -man -Tutf8 -ww -z "$page" 2>&1) ||
		fail "${page##*/}: groff failed"
	[ -z "$out" ] || fail "${page##*/}: groff -ww: $out"
	out=$(man --warnings -l "$page" 2>&1 >/dev/null) ||
		fail "${page##*/}: man -l failed"
	[ -z "$out" ] || fail "${page##*/}: man -l: $out"
}

n=0
for entry; do
	page=${entry%%|*}
	rest=${entry#*|}
	full=${rest%%|*}
	help=${rest#*|}
	n=$((n + 1))
	[ -s "$page" ] || { fail "${page##*/}: no such page"; continue; }
	render "$page"
	[ "$full" = 1 ] && check_sections "$page" NAME SYNOPSIS DESCRIPTION OPTIONS \
		"EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"
	# the options of the page's OPTIONS section, from the tags of its .TP
	# paragraphs, and those --help lists: each -x and --xx once
	from_page=$(awk '/^\.SH / { opts = ($2 == "OPTIONS"); next }
			 opts && tag { print; tag = 0 } opts && /^\.TP/ { tag = 1 }' "$page" |
		sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\,//g; s/\\\///g' |
		grep -oE '(^|[ ,])--?[A-Za-z0-9][A-Za-z0-9-]*' | tr -d ' ,' | sort -u)
	# shellcheck disable=SC2086 # HELP-COMMAND is a command line
	from_help=$($help 2>/dev/null | grep -E '^ {1,10}-' | sed -E 's/^ +//; s/  .*//' |
		grep -oE '(^|[ ,])--?[A-Za-z0-9][A-Za-z0-9-]*' | tr -d ' ,' | sort -u)
	[ -n "$from_help" ] || fail "${page##*/}: '$help' lists no option"
	if [ "$from_page" != "$from_help" ]; then
		fail "${page##*/}: OPTIONS differ from '$help': $(diff <(echo "$from_page") \
			<(echo "$from_help") | grep '^[<>]' | sed 's/^</page has/; s/^>/--help has/' | paste -sd, -)"
	fi
done

lib=$src/man/kmodel.3
n=$((n + 1))
render "$lib"
check_sections "$lib" NAME SYNOPSIS DESCRIPTION "RETURN VALUE" ENVIRONMENT FILES EXAMPLES "SEE ALSO"
for h in $(grep -oE 'kmodel/[a-z_]+\.h' "$lib" | sort -u); do
	[ -f "$src/include/$h" ] || [ -f "$src/include/$h.in" ] ||
		fail "kmodel.3: names $h, which include/ does not have"
done

[ $rc = 0 ] && echo "man_pages: $n pages render cleanly, with their sections and --help's options"
exit $rc
