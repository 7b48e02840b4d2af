# SPDX-License-Identifier: GPL-2.0
# cmake -DPAGE=<file.1> -DTOOL=<tool> -DSUB=<subcommand> -P KmodelSubMan.cmake
# help2man names a page after the program's --version line ("kmodel-bench");
# a subcommand's page (kmodel_tool(... SUBCOMMAND ...)) is
# <tool>-<subcommand>(1), as git-commit(1): its title and NAME say so.
file(READ "${PAGE}" page)
string(TOUPPER "${TOOL}" up)
string(TOUPPER "${SUB}" upsub)
string(REPLACE ".TH ${up} " ".TH ${up}-${upsub} " page "${page}")
string(REPLACE "\n${TOOL} \\- " "\n${TOOL}-${SUB} \\- " page "${page}")
file(WRITE "${PAGE}" "${page}")
