#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Checks of the text a reader meets, on the source tree:
#   readme-length SRCDIR   README.md is at most 200 lines: one screen of what
#                          libkmodel is, its headline, set-up and where to go
#                          next; the manual is docs/.
#   readme-sample SRCDIR KMODEL-BENCH
#                          the README's sample of `kmodel-bench reproduce`
#                          (the second block under "## The headline
#                          result"; the first is the default run's first
#                          screen) is what it prints, line for line
#                          ("..." stands for the lines left out).
#   internal-notes SRCDIR  no tracked source, test, doc or script cites a
#                          note the repository does not hold (a review,
#                          new-user or mutation-run note by its name and
#                          number): a comment or doc states the fact itself,
#                          or cites a kernel commit, file or version.
# Usage: docs_checks.sh CHECK SRCDIR [KMODEL-BENCH]
set -euo pipefail
[ $# -ge 2 ] || { echo "docs_checks: usage: docs_checks.sh readme-length|readme-sample|internal-notes SRCDIR [KMODEL-BENCH]" >&2; exit 2; }
check=$1 src=$2
readme_max=200

# the tracked files (a clean clone, as CI has it), else every file outside
# build trees and .git
files() {
	if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$src" ls-files -z --cached --others --exclude-standard
	else
		(cd "$src" && find . -path ./build -prune -o -path ./.git -prune -o -type f -print0 |
			sed -z 's|^\./||')
	fi
}

case $check in
readme-length)
	n=$(wc -l <"$src/README.md")
	if [ "$n" -gt $readme_max ]; then
		echo "docs_checks: README.md has $n lines, at most $readme_max: move the detail to docs/" >&2
		exit 1
	fi
	echo "docs_checks: README.md has $n lines (at most $readme_max)"
	;;
readme-sample)
	bench=${3:?docs_checks: readme-sample needs the kmodel-bench to run}
	sample=$(awk '/^## The headline result/ { h = 1; next } /^## / { h = 0 }
		      h && /^```/ { if (in_block) { if (n == 2) exit; in_block = 0; next }
				   in_block = 1; n++; next }
		      in_block && n == 2' "$src/README.md")
	[ -n "$sample" ] || { echo "docs_checks: README.md has no sample under '## The headline result'" >&2; exit 1; }
	out=$("$bench" reproduce | sed 's/ *$//')
	bad=0 n=0
	while IFS= read -r line; do
		line=${line%"${line##*[! ]}"}
		[ "$line" = "..." ] && continue
		n=$((n + 1))
		grep -qxF -- "$line" <<<"$out" ||
			{ echo "docs_checks: README.md's sample line is not in 'kmodel-bench reproduce': $line" >&2; bad=1; }
	done <<<"$sample"
	[ $bad = 0 ] || { echo "docs_checks: update the sample from 'kmodel-bench reproduce'" >&2; exit 1; }
	echo "docs_checks: the README's $n sample lines are kmodel-bench reproduce's"
	;;
internal-notes)
	# the note names: "review", "newuser", "mutants", ... then a number
	# (a word, a number, an optional letter)
	re='\b(review|newuser|mutants|costfix|compat|speedfix|session)[0-9]+[a-z]?\b'
	hits=$(cd "$src" && files | grep -zvE '\.(png|dat)$' | xargs -0 grep -sInE "$re" -- || true)
	if [ -n "$hits" ]; then
		echo "docs_checks: these lines cite notes outside the repository; state the fact instead:" >&2
		echo "$hits" >&2
		exit 1
	fi
	echo "docs_checks: no citation of an internal note in $(cd "$src" && files | tr -cd '\0' | wc -c) files"
	;;
*)
	echo "docs_checks: unknown check '$check'" >&2
	exit 2
	;;
esac
