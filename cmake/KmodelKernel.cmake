# SPDX-License-Identifier: GPL-2.0
# kmodel_kernel_sources([KERNEL_VERSION <major>.<minor>[.<sublevel>]]
#                       [TARGET_DIRECTORY <target>] <file>...)
#
# Compiles the kernel-style source files <file>... (a ported uaccess
# variant, a usbnet tx_fixup, ...) against libkmodel's compatibility layer
# (include/kmodel/kernel/, see its README.md), and nothing else:
#  - the layer's directory joins the include path of these files only
#    (after the target's own directories, before the system's). The layer
#    shadows the system's <linux/*.h> and <asm/*.h> and makes memcpy() and
#    memset() macros (in skb code memmove() too), so it must not reach the
#    rest of a program: keep main() and the libkmodel calls in other files;
#  - KMODEL_KERNEL_VERSION is KERNEL_VERSION(major, minor, sublevel) for
#    them: the kernel version whose signatures the layer offers where they
#    changed (get_user_pages_fast(), skb_push(), usb_maxpacket(), ...) and
#    whose names exist. Without KERNEL_VERSION the layer's default applies
#    (5.7, the version the 2020 RFC was written against). Files of several
#    versions live in one target: call this once per version;
#  - with GCC or Clang, -Werror=implicit-function-declaration: a call of a
#    name the layer lacks is an error here, not a warning now and an
#    "undefined symbol" when a plugin is loaded; and -Werror=implicit-int:
#    a file-scope use of a macro the layer lacks, such as EXPORT_SYMBOL(f);
#    without <linux/export.h>, parses as a declaration of type int and is
#    otherwise only a warning; and -Wundef -Werror=undef: a macro the
#    layer does not define (a CONFIG_ option) read in #if is an error
#    naming it, not a silent 0;
#  - KBUILD_MODNAME is the file's name, as Kbuild defines it (pr_fmt(),
#    KUNIT_CASE());
#  - KMODEL_KERNEL_GUARD_DIR after the layer: a <linux/...> or <asm/...>
#    header of the build host that the layer lacks is an #error naming it
#    (cmake/KmodelGuard.cmake), not the host's uapi header taken silently.
# Source file properties belong to a directory: call it in the directory
# that creates the target, or name the target with TARGET_DIRECTORY. A
# <file> that does not exist, and is not GENERATED, is a configure error.
# A plugin (a MODULE library) links with -z defs too, so that a name
# nothing defines fails its link, not --load:
#   target_link_options(<plugin> PRIVATE LINKER:-z,defs)
#
# Installed, find_package(kmodel) brings this function; in the source tree
# the top CMakeLists.txt includes it. Example, a consumer's CMakeLists.txt:
#   find_package(kmodel 0.3 REQUIRED)
#   add_executable(my_check main.c my_copy_user.c my_tx_fixup.c)
#   target_link_libraries(my_check PRIVATE kmodel::kmodel)
#   kmodel_kernel_sources(KERNEL_VERSION 5.7 my_copy_user.c)
#   kmodel_kernel_sources(KERNEL_VERSION 3.5 my_tx_fixup.c)
# Without CMake: -I"$(pkg-config --variable=kernel_includedir kmodel)"
# -DKMODEL_KERNEL_VERSION='KERNEL_VERSION(3,5,0)'
# -Werror=implicit-function-declaration -Werror=implicit-int on those files
# alone (and -fPIC for a plugin's objects).
function(kmodel_kernel_sources)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "KERNEL_VERSION;TARGET_DIRECTORY" "")
  if(NOT KMODEL_KERNEL_INCLUDE_DIR OR NOT EXISTS "${KMODEL_KERNEL_INCLUDE_DIR}/linux/kernel.h")
    message(FATAL_ERROR "kmodel_kernel_sources: KMODEL_KERNEL_INCLUDE_DIR "
                        "(\"${KMODEL_KERNEL_INCLUDE_DIR}\") is not the compatibility layer")
  endif()
  if(NOT arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "kmodel_kernel_sources: no source files")
  endif()
  set(where)
  set(dir "${CMAKE_CURRENT_SOURCE_DIR}")
  if(arg_TARGET_DIRECTORY)
    set(where TARGET_DIRECTORY ${arg_TARGET_DIRECTORY})
    get_target_property(dir ${arg_TARGET_DIRECTORY} SOURCE_DIR)
  endif()
  # a file that is neither there nor generated (a typo) is an error now,
  # not a compile error of the real file later, far from the cause
  foreach(f IN LISTS arg_UNPARSED_ARGUMENTS)
    cmake_path(ABSOLUTE_PATH f BASE_DIRECTORY "${dir}" OUTPUT_VARIABLE abs)
    get_source_file_property(gen "${f}" ${where} GENERATED)
    if(NOT EXISTS "${abs}" AND NOT gen)
      message(FATAL_ERROR "kmodel_kernel_sources: ${f}: no such file (${abs}); a generated "
                          "file: call this after the add_custom_command() that makes it")
    endif()
  endforeach()
  set_property(SOURCE ${arg_UNPARSED_ARGUMENTS} ${where} APPEND PROPERTY
    INCLUDE_DIRECTORIES "${KMODEL_KERNEL_INCLUDE_DIR}")
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    set_property(SOURCE ${arg_UNPARSED_ARGUMENTS} ${where} APPEND PROPERTY
      COMPILE_OPTIONS -Werror=implicit-function-declaration -Werror=implicit-int
                      -Wundef -Werror=undef
                      # __FILE__ (BUG reports, KUnit's "FAILED at") relative to the
                      # project's top, as the kernel's -fmacro-prefix-map=$(srctree)/=
                      "-fmacro-prefix-map=${CMAKE_SOURCE_DIR}/=")
  endif()
  # after the layer: an #error stub for each host kernel header it lacks
  # (cmake/KmodelGuard.cmake), not the host's uapi header taken silently
  if(KMODEL_KERNEL_GUARD_DIR AND IS_DIRECTORY "${KMODEL_KERNEL_GUARD_DIR}")
    set_property(SOURCE ${arg_UNPARSED_ARGUMENTS} ${where} APPEND PROPERTY
      INCLUDE_DIRECTORIES "${KMODEL_KERNEL_GUARD_DIR}")
  endif()
  # KBUILD_MODNAME as Kbuild sets it: the file's name, '-' as '_'
  foreach(f IN LISTS arg_UNPARSED_ARGUMENTS)
    get_filename_component(modname "${f}" NAME_WE)
    string(REPLACE "-" "_" modname "${modname}")
    set_property(SOURCE ${f} ${where} APPEND PROPERTY
      COMPILE_DEFINITIONS "KBUILD_MODNAME=\"${modname}\"")
  endforeach()
  if(DEFINED arg_KERNEL_VERSION)
    if(NOT arg_KERNEL_VERSION MATCHES "^([0-9]+)\\.([0-9]+)(\\.([0-9]+))?$")
      message(FATAL_ERROR "kmodel_kernel_sources: KERNEL_VERSION \"${arg_KERNEL_VERSION}\": "
                          "want <major>.<minor>[.<sublevel>], e.g. 5.7 or 3.5.7")
    endif()
    set(sub 0)
    if(CMAKE_MATCH_4)
      set(sub ${CMAKE_MATCH_4})
    endif()
    # KERNEL_VERSION(a, b, c) of include/linux/version.h (sublevel capped at 255)
    if(sub GREATER 255)
      set(sub 255)
    endif()
    math(EXPR code "(${CMAKE_MATCH_1} << 16) + (${CMAKE_MATCH_2} << 8) + ${sub}")
    set_property(SOURCE ${arg_UNPARSED_ARGUMENTS} ${where} APPEND PROPERTY
      COMPILE_DEFINITIONS "KMODEL_KERNEL_VERSION=${code}")
  endif()
endfunction()
