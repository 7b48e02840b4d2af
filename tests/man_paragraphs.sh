#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The tools' man pages keep --help's paragraphs: help2man joins lines that
# only break into one paragraph, so a --help paragraph that starts on the
# line after a sentence, with no blank line between, runs into the one
# before in the page (kmodel-check's "Machines:", "A variant that claims
# ...", "Variants:" and "Exit status:" did). In each page's DESCRIPTION: no
# text line that starts like a paragraph (a capital, or a "word:" label)
# right after a text line ending a sentence. Usage: man_paragraphs.sh
# PAGE.1...
set -euo pipefail
[ $# -gt 0 ] || { echo "man_paragraphs: no man page given" >&2; exit 2; }
rc=0
for page; do
	[ -s "$page" ] || { echo "man_paragraphs: $page: no such page" >&2; rc=1; continue; }
	awk -v page="${page##*/}" '
		/^\.SH / { desc = ($2 == "DESCRIPTION"); prev = ""; next }
		/^\./ { prev = ""; next }	# a request (.PP, .TP, ...) breaks the text
		# the --version text after the options (km_tool_print_version()):
		# one paragraph by design, as GNU tools have it
		prev == "" && /^(Built from git |License )/ { desc = 0 }
		desc && prev ~ /\.$/ && ($0 ~ /^[A-Z]/ || $0 ~ /^[a-z]+:/) {
			printf "man_paragraphs: %s: line %d \"%s\" runs into the paragraph " \
			       "before (a blank line before it in --help)\n", page, NR, $0
			bad = 1
		}
		{ prev = $0 }
		END { exit bad }' "$page" || rc=1
done
[ $rc = 0 ] && echo "man_paragraphs: $# pages, every --help paragraph its own"
exit $rc
