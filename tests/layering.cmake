# SPDX-License-Identifier: GPL-2.0
# The line between model and lab (src/CMakeLists.txt, docs/layout.md):
#  1. with the lab's include path (INCS_FILE: kmodel_lab_obj's include
#     directories), a lab-style file of public headers compiles, and one
#     that includes a private header of the model does not, the compiler
#     naming the header;
#  2. every #include "..." of a lab source or header names a file of its own
#     lab directory (no path: "../core/internal.h" would pass the include
#     path), and every file of a lab directory is in the lab's sources or
#     is a header;
#  3. the model's sources are in no lab directory.
# cmake -DCC= -DSRC= -DINCS_FILE= -DLAB_DIRS= -DLAB_SOURCES= -DMODEL_SOURCES= -P layering.cmake
cmake_minimum_required(VERSION 3.25)
file(READ "${INCS_FILE}" incs)
set(flags)
foreach(d ${incs})
  if(d MATCHES "^${SRC}/src(/|$)")
    message(FATAL_ERROR "the lab's include path holds ${d}, a directory of src/")
  endif()
  list(APPEND flags "-I${d}")
endforeach()
set(dir "${SRC}/tests/layering")
execute_process(COMMAND ${CC} -std=gnu11 -fsyntax-only ${flags} ${dir}/lab_public.c
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a lab file of public headers does not compile:\n${err}")
endif()
foreach(h internal.h mm_internal.h skb_internal.h core/internal.h mm_sim/mm_internal.h
          skb_sim/skb_internal.h src/core/internal.h)
  execute_process(COMMAND ${CC} -std=gnu11 -fsyntax-only ${flags} "-DPRIVATE_HEADER=\"${h}\""
    ${dir}/lab_private.c RESULT_VARIABLE rc ERROR_VARIABLE err)
  string(REPLACE "." "\\." hre "${h}")
  if(rc EQUAL 0 OR NOT err MATCHES "${hre}")
    message(FATAL_ERROR "a lab file including \"${h}\" compiles (or fails for another "
            "reason):\n${err}")
  endif()
endforeach()
set(nfiles 0)
foreach(d ${LAB_DIRS})
  file(GLOB files "${SRC}/src/${d}/*")
  foreach(f ${files})
    get_filename_component(name "${f}" NAME)
    math(EXPR nfiles "${nfiles} + 1")
    if(f MATCHES "\\.c$" AND NOT "${d}/${name}" IN_LIST LAB_SOURCES)
      message(FATAL_ERROR "src/${d}/${name}: a C file in a lab directory that is not a lab source")
    endif()
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(l ${lines})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*" "\\1" inc "${l}")
      if(inc MATCHES "/" OR NOT EXISTS "${SRC}/src/${d}/${inc}")
        message(FATAL_ERROR "src/${d}/${name}: #include \"${inc}\" is not a header of src/${d}: "
                "the lab includes the public headers (<kmodel/...>) and its own")
      endif()
    endforeach()
  endforeach()
endforeach()
foreach(s ${MODEL_SOURCES})
  string(REGEX REPLACE "/.*" "" d "${s}")
  if(d IN_LIST LAB_DIRS)
    message(FATAL_ERROR "src/${s}: a model source in a lab directory")
  endif()
endforeach()
message(STATUS "layering: ${nfiles} files in ${LAB_DIRS}: public headers only")
