# SPDX-License-Identifier: GPL-2.0
# kmodel_tool(<target> DESCRIPTION <text> [HELP_OPTION <option>])
#
# Makes the executable <target> (already created by add_executable and
# linked with kmodel, the shared library, so that plugins it loads with
# --load share its libkmodel) one of libkmodel's command-line tools:
#  - its sources may #include "km_tool.h" (tools/km_tool.h: km_tool_init(),
#    KM_TOOL_VERSION_ENTRY, km_tool_print_version());
#  - it is installed to bin/;
#  - at build time help2man runs `<target> --version` and
#    `<target> <HELP_OPTION>` (default --help; --help-all for a tool with
#    option groups) and writes <target>.1, installed to share/man/man1.
#    DESCRIPTION is the man page's NAME line ("<target> - DESCRIPTION").
#    --help's option groups make its OPTIONS section and its "Exit status:"
#    paragraph its EXIT STATUS (cmake/KmodelManHelp.sh); man/<target>.h2m,
#    a help2man include file, adds what --help lacks: [SYNOPSIS],
#    [ENVIRONMENT], [FILES], [EXAMPLES], [SEE ALSO]. A tool without one
#    gets a page of --help alone (a configure warning says so), and the
#    man_pages test checks the sections only of pages with one.
#    With -DKMODEL_BUILD_MAN=OFF no man page is made.
#
# The tool's main() then does, as tools/kmodel-check.c does:
#   km_tool_init();          /* setlocale(LC_ALL, ""), LC_NUMERIC "C" */
#   ... KM_TOOL_VERSION_ENTRY(&version) in the GOptionEntry table ...
#   if (version) { km_tool_print_version("<target>"); return 0; }
# and prints --help on stdout with exit 0 (GOption does).
#
# kmodel_tool_subcommand(<target> <subcommand> DESCRIPTION <text>) makes a
# man page of a subcommand's own options, <target>-<subcommand>.1, from
# `<target> <subcommand> --help` (as git-commit(1)), with
# man/<target>-<subcommand>.h2m as its include file.
#
# A new tool, e.g. tools/kmodel-sweep.c, takes three lines in
# tools/CMakeLists.txt:
#   add_executable(kmodel-sweep kmodel-sweep.c)
#   target_link_libraries(kmodel-sweep PRIVATE kmodel PkgConfig::KMODEL_GLIB)
#   kmodel_tool(kmodel-sweep DESCRIPTION "sweep usbnet drivers over ...")
option(KMODEL_BUILD_MAN "Generate the tools' man pages with help2man" ON)
if(KMODEL_BUILD_MAN)
  find_program(KMODEL_HELP2MAN help2man)
  if(NOT KMODEL_HELP2MAN)
    message(FATAL_ERROR "help2man not found: install it (scripts/deps.sh) "
                        "or configure with -DKMODEL_BUILD_MAN=OFF")
  endif()
endif()

function(kmodel_tool target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DESCRIPTION;HELP_OPTION" "")
  if(NOT arg_DESCRIPTION)
    message(FATAL_ERROR "kmodel_tool(${target}): DESCRIPTION is required")
  endif()
  if(NOT arg_HELP_OPTION)
    set(arg_HELP_OPTION --help)
  endif()
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tools)
  # tools link libkmodel.so (one library for the tool and its --load
  # plugins); installed, they find it relative to themselves
  set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
  # how the tool and its libkmodel were built, for the JSON run metadata
  string(TOUPPER "${CMAKE_BUILD_TYPE}" bt)
  if(CMAKE_INTERPROCEDURAL_OPTIMIZATION AND CMAKE_C_COMPILER_ID STREQUAL "GNU")
    set(lto 1)
  else()
    set(lto 0)
  endif()
  # the flags of the build type after the general ones, each once (the dev
  # preset's -g is in both)
  separate_arguments(flags UNIX_COMMAND "${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${bt}}")
  list(REMOVE_DUPLICATES flags)
  list(JOIN flags " " flags)
  target_compile_definitions(${target} PRIVATE
    KM_TOOL_COMPILER="${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}"
    KM_TOOL_CFLAGS="${flags}"
    KM_TOOL_BUILD_TYPE="${CMAKE_BUILD_TYPE}" KM_TOOL_LTO=${lto})
  install(TARGETS ${target} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  if(NOT KMODEL_BUILD_MAN)
    return()
  endif()
  kmodel_tool_man(${target} ${target} "${arg_DESCRIPTION}" ${arg_HELP_OPTION} "")
endfunction()

# the man page <page>.1 of <target> from `<target> <help>` (<help> may
# hold a subcommand: help2man runs it through the shell)
function(kmodel_tool_man target page description help fixup)
  set(man ${CMAKE_CURRENT_BINARY_DIR}/${page}.1)
  set(inc ${PROJECT_SOURCE_DIR}/man/${page}.h2m)
  if(EXISTS ${inc})
    set(include_opt --include=${inc})
    set(full 1)
  else()
    set(include_opt)
    set(inc)
    set(full 0)
    message(WARNING "kmodel_tool(${target}): no man/${page}.h2m: ${page}(1) has only "
                    "--help's sections (no ENVIRONMENT, FILES, EXAMPLES, SEE ALSO)")
  endif()
  # a fixed locale: the page does not depend on the builder's; UTF-8 so
  # GOption's "[OPTION…]" survives (in plain C glib prints "[OPTION?]")
  add_custom_command(OUTPUT ${man}
    COMMAND ${KMODEL_HELP2MAN} --no-info --locale=C.UTF-8 --section=1
            --name=${description} --help-option=${help} ${include_opt}
            --source=libkmodel --manual=libkmodel --output=${man}
            "${PROJECT_SOURCE_DIR}/cmake/KmodelManHelp.sh $<TARGET_FILE:${target}>"
    ${fixup}
    DEPENDS ${target} ${inc} ${PROJECT_SOURCE_DIR}/cmake/KmodelSubMan.cmake
            ${PROJECT_SOURCE_DIR}/cmake/KmodelManHelp.sh
    COMMENT "help2man ${page}.1" VERBATIM)
  add_custom_target(${page}-man ALL DEPENDS ${man})
  install(FILES ${man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  # for tests/man_pages.sh: the page, whether it has an include file, and
  # the command line of the --help it is made from
  set_property(GLOBAL APPEND PROPERTY KMODEL_MAN_PAGES
    "${man}|${full}|$<TARGET_FILE:${target}> ${help}")
endfunction()

function(kmodel_tool_subcommand target sub)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "DESCRIPTION" "")
  if(NOT arg_DESCRIPTION)
    message(FATAL_ERROR "kmodel_tool_subcommand(${target} ${sub}): DESCRIPTION is required")
  endif()
  if(NOT KMODEL_BUILD_MAN)
    return()
  endif()
  kmodel_tool_man(${target} ${target}-${sub} "${arg_DESCRIPTION}" "${sub} --help"
    "COMMAND;${CMAKE_COMMAND};-DPAGE=${CMAKE_CURRENT_BINARY_DIR}/${target}-${sub}.1;-DTOOL=${target};-DSUB=${sub};-P;${PROJECT_SOURCE_DIR}/cmake/KmodelSubMan.cmake")
endfunction()
