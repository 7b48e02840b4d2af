#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# KmodelManHelp.sh TOOL ARGS...: run TOOL ARGS and hand help2man GOption's
# --help in the shape help2man reads (kmodel_tool_man() in
# KmodelTool.cmake runs help2man on "KmodelManHelp.sh TOOL"):
#  - "Usage:" then the indented usage line becomes "Usage: <line>", the
#    page's SYNOPSIS (an include file's [SYNOPSIS] replaces it);
#  - an "Options:" line goes before the first "<group> Options:" heading,
#    so the option groups make the OPTIONS section (help2man puts all of
#    --help in DESCRIPTION otherwise);
#  - after the options, a paragraph "Exit status: ..." becomes the EXIT
#    STATUS section ("*Exit status*", help2man's custom section), and any
#    other paragraph goes back to DESCRIPTION.
# --version: its first line names the program and version; the text after
# it (git revision, licence) is the COPYRIGHT section, where help2man would
# otherwise append it to the last section of --help.
tool=$1
shift
case " $* " in
*" --version "*)
	"$tool" "$@" | awk 'NR == 2 { print ""; print "*Copyright*"; print "" } { print }'
	exit 0 ;;
esac
"$tool" "$@" | awk '
	function section(s) { if (s != sect) { print "*" s "*"; print ""; sect = s } }
	state == 0 && /^Usage:$/ { state = 1; next }
	state == 1 { sub(/^ +/, ""); print "Usage: " $0; state = 2; next }
	state < 3 && /^[^ ].* [Oo]ptions:$/ { print "Options:"; print ""; state = 3 }
	state == 3 && /^[^ ]/ && !/[Oo]ptions:$/ { state = 4 }
	state == 4 && para && /^[^ ]/ {
		if (sub(/^Exit status: */, "")) section("Exit status")
		else section("Description")
	}
	{ para = ($0 == ""); print }'
exit 0
