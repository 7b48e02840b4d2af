#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the build tree into a temporary prefix, then, as a user would:
#  - every KM_API name of the installed headers is exported by libkmodel.so;
#  - the example consumer builds and runs with find_package and pkg-config;
#  - a kernel-style file compiled through the installed compatibility layer
#    (tests/install/ported_copy.c) links against the shared and the static
#    library, through find_package and through pkg-config, and passes the
#    conformance suite;
#  - the installed kmodel-check runs (without LD_LIBRARY_PATH: the tools
#    find libkmodel.so by their RPATH); every installed tool's --version
#    names the package's version, and its man page is installed;
#  - examples/byo_uaccess, examples/byo_tx_fixup and examples/byo_rx_framing
#    build as plugins and the installed kmodel-check, kmodel-bench and
#    kmodel-sweep run them with --load; the
#    example driver also builds into programs linked with the static
#    library (find_package, pkg-config) and a plugin through pkg-config;
#    the pkg-config plugins are built by the examples' READMEs' own lines,
#    run by a compiler told -fno-pie (their -fPIC must be there), and
#    link with -Wl,-z,defs (no undefined symbol
#    left for load time), and a kernel-style file calling a name the layer
#    lacks fails to build through kmodel_kernel_sources(), as does each
#    example's CMake plugin with a name nothing defines (-z defs), and
#    kmodel_kernel_sources() of a missing file fails at configure time;
#  - every installed header compiles alone under -Wall -Wextra -Werror
#    (the layer's at 3.5 and 5.7), and each layer header brings u8 .. s64,
#    bool and size_t as the kernel's do;
#  - the prefix moved elsewhere still works: its kmodel-bench runs dd, iperf
#    and reproduce with the cost profiles of the moved prefix (found
#    relative to its libkmodel.so), never the source tree's.
# The CMake consumers (examples/, tests/install/ and the two byo examples)
# are configured once, as subprojects of one generated top-level project:
# each still calls project() and find_package(kmodel) in its own directory
# scope, as it does alone. The full conformance suite of the built-in
# variants is test_conformance's and check_cli's: here the installed tool
# runs it on one machine and context, the plugins on one context.
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
prefix=$tmp/prefix
libdir=$(dirname "$(find "$prefix" -name libkmodel.so -print -quit)")
export LD_LIBRARY_PATH=$libdir
export PKG_CONFIG_PATH=$libdir/pkgconfig

# 1. exports: a KM_API declaration whose definition never saw it is hidden
# (matched by bash itself: no process per declaration)
declare -A exported
while read -r _ _ sym; do exported[$sym]=1; done \
	< <(nm -D --defined-only "$libdir/libkmodel.so")
missing=0 names=0
id='[A-Za-z_][A-Za-z0-9_]*'
while IFS= read -r decl; do
	decl=${decl#*KM_API}
	name=
	if [[ $decl == *"("* ]]; then	# a function: the first name before a '('
		[[ $decl =~ ($id)[[:space:]]*\( ]] && name=${BASH_REMATCH[1]}
	else				# an object: the last name before the ';'
		rest=${decl%%;*}
		while [[ $rest =~ ($id)(.*)$ ]]; do
			name=${BASH_REMATCH[1]} rest=${BASH_REMATCH[2]}
		done
	fi
	names=$((names + 1))
	if [ -z "$name" ] || [ -z "${exported[$name]:-}" ]; then
		echo "install_consumer: ${name:-$decl} is declared KM_API but not exported by libkmodel.so" >&2
		missing=1
	fi
done < <(grep -rh 'KM_API' "$prefix/include/kmodel" | grep -v '#define KM_API')
[ $missing -eq 0 ]
[ $names -gt 100 ]

# 2. the CMake consumers, configured once (see above): the example; ported
# code through the compatibility layer (shared, static) and the example
# driver in a program linked with libkmodel.a; the byo examples as plugins
cat >"$tmp/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.25)
project(kmodel_consumers NONE)
add_subdirectory("$src/examples" ex)
add_subdirectory("$src/tests/install" ported)
add_subdirectory("$src/examples/byo_uaccess" byo_uaccess)
add_subdirectory("$src/examples/byo_tx_fixup" byo_tx_fixup)
add_subdirectory("$src/examples/byo_rx_framing" byo_rx_framing)
add_subdirectory("$src/examples/kunit_suite" kunit_suite)
EOF
cmake -S "$tmp" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$prefix" -DKM_EXAMPLES="$src/examples" >/dev/null
cmake --build "$tmp/b" -j2 >/dev/null
"$tmp/b/ex/uaccess_copy" >/dev/null
"$tmp/b/ported/ported_shared" >/dev/null
"$tmp/b/ported/ported_static" >/dev/null
"$tmp/b/ported/tx_static" >/dev/null
"$tmp/b/ported/ioctl_shared" >/dev/null
# ... and a kernel-style file calling a name the layer lacks does not build
if cmake --build "$tmp/b" --target undeclared >"$tmp/undeclared.log" 2>&1 ||
   ! grep -q 'implicit-function-declaration' "$tmp/undeclared.log"; then
	cat "$tmp/undeclared.log" >&2
	echo "install_consumer: a call of an undeclared name built through kmodel_kernel_sources()" >&2
	exit 1
fi
# ... nor a file-scope EXPORT_SYMBOL(f); that <linux/export.h> did not define
if cmake --build "$tmp/b" --target implicit_int >"$tmp/implicit_int.log" 2>&1 ||
   ! grep -q 'implicit-int' "$tmp/implicit_int.log"; then
	cat "$tmp/implicit_int.log" >&2
	echo "install_consumer: EXPORT_SYMBOL() without its header built through kmodel_kernel_sources()" >&2
	exit 1
fi

# ... and kmodel_kernel_sources() of a file that is not there (a typo) fails
# at configure time, naming it (accepted silently); a
# GENERATED one is not there yet either, and is accepted
mkdir "$tmp/nothere"
cat >"$tmp/nothere/CMakeLists.txt" <<'EOF2'
cmake_minimum_required(VERSION 3.25)
project(nothere NONE)
find_package(kmodel 0.3 REQUIRED)
add_custom_command(OUTPUT made.c COMMAND true)
kmodel_kernel_sources(KERNEL_VERSION 5.7 made.c)
kmodel_kernel_sources(KERNEL_VERSION 5.7 nothere.c)
EOF2
if cmake -S "$tmp/nothere" -B "$tmp/nothere/b" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/nothere.log" 2>&1 ||
   ! grep -q 'kmodel_kernel_sources: nothere.c: no such file' "$tmp/nothere.log" ||
   grep -q 'made.c' "$tmp/nothere.log"; then
	cat "$tmp/nothere.log" >&2
	echo "install_consumer: kmodel_kernel_sources() took a missing file, or refused a generated one" >&2
	exit 1
fi

# 3. the example and ported code through pkg-config (shared, then the
# archive named explicitly)
cc -std=gnu11 -o "$tmp/pc" "$src/examples/uaccess_copy.c" $(pkg-config --cflags --libs kmodel)
"$tmp/pc" >/dev/null
kinc=$(pkg-config --variable=kernel_includedir kmodel)
case $kinc in
*//*) echo "install_consumer: kernel_includedir $kinc has a double slash" >&2; exit 1 ;;
esac
cc -std=gnu11 -c -o "$tmp/ported_copy.o" -I"$kinc" -DKMODEL_KERNEL_VERSION='KERNEL_VERSION(5,7,0)' \
	$(pkg-config --cflags kmodel) \
	"$src/tests/install/ported_copy.c"
cc -std=gnu11 -o "$tmp/pc_shared" "$src/tests/install/consumer.c" "$tmp/ported_copy.o" \
	$(pkg-config --cflags --libs kmodel)
"$tmp/pc_shared" >/dev/null
cc -std=gnu11 -o "$tmp/pc_static" "$src/tests/install/consumer.c" "$tmp/ported_copy.o" \
	$(pkg-config --cflags kmodel) "$libdir/libkmodel.a" $(pkg-config --libs glib-2.0 gmodule-2.0) \
	-lm -ldl
"$tmp/pc_static" >/dev/null
# ... and the ioctl handler calling copy_{from,to}_user() at 3.5 (ARM's
# copy_*_user(), no might_fault()), in a program linked with the archive
cc -std=gnu11 -c -o "$tmp/ported_ioctl.o" -I"$kinc" -DKMODEL_KERNEL_VERSION='KERNEL_VERSION(3,5,0)' \
	-Werror=implicit-function-declaration $(pkg-config --cflags kmodel) "$src/tests/install/ported_ioctl.c"
cc -std=gnu11 -o "$tmp/ioctl_static" "$src/tests/install/ioctl_consumer.c" "$tmp/ported_ioctl.o" \
	$(pkg-config --cflags kmodel) "$libdir/libkmodel.a" $(pkg-config --libs glib-2.0 gmodule-2.0) -lm -ldl
"$tmp/ioctl_static" >/dev/null
if ldd "$tmp/pc_static" | grep -q libkmodel; then
	echo "install_consumer: pc_static links libkmodel.so" >&2
	exit 1
fi

# 4. the installed kmodel-check runs without LD_LIBRARY_PATH (its RPATH
# finds libkmodel.so; exit 0: direct conforms); the tools' --version and
# the package agree on the version; the man pages are there
env -u LD_LIBRARY_PATH "$prefix/bin/kmodel-check" uaccess --variant direct --machine bbw \
	--context atomic >/dev/null
for tool in "$prefix"/bin/kmodel-*; do
	want="${tool##*/} (libkmodel) $(pkg-config --modversion kmodel)"
	got=$("$tool" --version | head -1)
	[ "$got" = "$want" ] || { echo "install_consumer: '$got', want '$want'" >&2; exit 1; }
	if [ -f "$build/CMakeCache.txt" ] && grep -q '^KMODEL_BUILD_MAN:BOOL=ON' "$build/CMakeCache.txt" &&
	   [ ! -s "$prefix/share/man/man1/${tool##*/}.1" ]; then
		echo "install_consumer: no man page for ${tool##*/}" >&2; exit 1
	fi
done
# kmodel-bench's subcommands have theirs, with their own options (the
# tool's page omitted reproduce's)
if [ -f "$build/CMakeCache.txt" ] && grep -q '^KMODEL_BUILD_MAN:BOOL=ON' "$build/CMakeCache.txt"; then
	for sub in reproduce calibrate; do
		page=$prefix/share/man/man1/kmodel-bench-$sub.1
		grep -q "^\.TH KMODEL-BENCH-${sub^^} " "$page" 2>/dev/null &&
			grep -qF -- '\-\-output' "$page" ||
			{ echo "install_consumer: no kmodel-bench-$sub(1) with its options" >&2; exit 1; }
	done
fi
# the library's page and the manual
[ -s "$prefix/share/man/man3/kmodel.3" ] && [ -s "$prefix/share/doc/kmodel/index.md" ] ||
	{ echo "install_consumer: no kmodel(3) or share/doc/kmodel/index.md" >&2; exit 1; }
# 5. bring your own: the examples' plugins through the installed tools (the
# uaccess plugin on bbw here, built through pkg-config on a15 below)
"$prefix/bin/kmodel-check" uaccess --load "$tmp/b/byo_uaccess/libbyo_uaccess.so" \
	--variant page_copy --machine bbw --context process >/dev/null
"$prefix/bin/kmodel-bench" -q -r 1 -s dd --load "$tmp/b/byo_uaccess/libbyo_uaccess.so" \
	--dd-variants page_copy --dd-machines a15 --dd-block-sizes 4K --dd-total-mib 1 \
	--dd-file-mib 1 >"$tmp/dd.txt"
grep -q '^page_copy\* ' "$tmp/dd.txt" || { echo "install_consumer: no page_copy row" >&2; exit 1; }
"$prefix/bin/kmodel-bench" -q -r 1 -s iperf --load "$tmp/b/byo_tx_fixup/libbyo_tx_fixup.so" \
	--iperf-variants byo1 --iperf-packets 200 >/dev/null	# exit 0: every frame verified
# a plugin that copies a built-in variant (tests/plugins/flip_tx.c) built
# against the installed headers: its rows carry the device model's wire,
# the AX88772's 100 Mbit/s (the wire was a member appended to
# the variant, and such a copy built against 0.3.0 made the library read
# past the plugin's struct)
cc -std=gnu11 -fPIC -shared -o "$tmp/libflip.so" "$src/tests/plugins/flip_tx.c" \
	$(pkg-config --cflags --libs kmodel)
"$prefix/bin/kmodel-bench" -q -r 1 -s iperf --load "$tmp/libflip.so" --iperf-variants flip_last \
	--iperf-packets 200 --csv-dir "$tmp/flipcsv" >/dev/null || true	# flip_last's frames fail
col=$(head -1 "$tmp/flipcsv/iperf.csv" | tr , '\n' | grep -nx wire_bits_per_s | cut -d: -f1)
[ -n "$col" ] && [ "$(tail -n +2 "$tmp/flipcsv/iperf.csv" | cut -d, -f"$col" | sort -u)" = 100000000 ] ||
	{ echo "install_consumer: flip_last's rows do not carry the AX88772's wire" >&2; exit 1; }
# the sweep of the same device (packets only, an empty frame for len 0):
# neither a protocol error nor a frame mismatch (it once split a transfer
# ending on a full packet into two, and wanted no frame for len 0)
"$prefix/bin/kmodel-sweep" asix --quick --load "$tmp/b/byo_tx_fixup/libbyo_tx_fixup.so" \
	-v byo1 >"$tmp/sweep.txt"
grep -q byo1 "$tmp/sweep.txt" || { echo "install_consumer: no byo1 sweep" >&2; exit 1; }
if grep -Eq 'usb_protocol|frame_mismatch' "$tmp/sweep.txt"; then
	echo "install_consumer: false findings in the byo1 sweep:" >&2; cat "$tmp/sweep.txt" >&2; exit 1
fi
# ... and the example's README names each finding and its count (the
# sweep shows the driver writing into shared skbs)
while read -r rule count _; do
	count=$(sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta' <<<"$count")	# 81,900
	grep -q "\`$rule\`" "$src/examples/byo_tx_fixup/README.md" &&
		grep -q "$count of the" "$src/examples/byo_tx_fixup/README.md" ||
		{ echo "install_consumer: examples/byo_tx_fixup/README.md does not tell $rule ($count)" >&2; exit 1; }
done < <(awk '/^  [a-z_]+ +[0-9]+ +e\.g\./ { print $1, $2 }' "$tmp/sweep.txt")
grep -q '^  [a-z_]* *[0-9]* *e\.g\.' "$tmp/sweep.txt" ||
	{ echo "install_consumer: the byo1 sweep found nothing (the README says what it finds)" >&2; exit 1; }
# the receive example: aqc111's rx_fixup, its device a KM_FRAMING_ENCODER
# hook, through the installed kmodel-sweep rx (its findings are
# tests/rx_framing_cli.sh's; here: it loads, runs, reads nothing past)
"$prefix/bin/kmodel-sweep" rx --quick --load "$tmp/b/byo_rx_framing/libbyo_rx_framing.so" \
	--variant aqc111,aqc111-afb8e2465275 >"$tmp/rxsweep.txt"
grep -q '^aqc111-afb8e2465275: ' "$tmp/rxsweep.txt" && grep -q '^  frame_lost ' "$tmp/rxsweep.txt" ||
	{ cat "$tmp/rxsweep.txt" >&2; echo "install_consumer: no aqc111 receive sweep" >&2; exit 1; }
if grep -Eq 'rx_read_past_urb|rx_no_progress|leak' "$tmp/rxsweep.txt"; then
	cat "$tmp/rxsweep.txt" >&2; echo "install_consumer: false findings in the aqc111 sweep" >&2; exit 1
fi
# ... and through pkg-config, as the examples' READMEs say, their lines run
# as written: only the kernel file sees the compatibility layer, and with a
# compiler that does not default to PIE (-fno-pie first: the READMEs'
# -fPIC must be there and win) the plugins still link
readme_build() {	# <example dir> <work dir>: the README's "Without CMake" block
	mkdir "$2" && cp "$1"/*.c "$2"/
	awk '/^Without CMake/ { w = 1 } w && /^```/ { if (b) exit; b = 1; next } b' \
		"$1/README.md" >"$2/build.sh"
	grep -q 'cc .*-shared' "$2/build.sh" &&
	(cd "$2" && cc() { command cc -fno-pie "$@"; } && export -f cc && bash -e build.sh) ||
		{ echo "install_consumer: $1/README.md's pkg-config build failed" >&2; exit 1; }
}
# ... and the examples' CMake recipes refuse at link time a name nothing
# defines (its MODULE linked without -z defs, and the name
# failed only at --load): every file of the example gets a reference to one
cat >"$tmp/undef.h" <<'EOF2'
void km_undefined_by_install_consumer(void);
__attribute__((used)) static void (*const km_undefined_ref)(void) = km_undefined_by_install_consumer;
EOF2
printf 'add_compile_options(-include "%s")\n' "$tmp/undef.h" >"$tmp/undef.cmake"
for ex in byo_uaccess byo_tx_fixup byo_rx_framing; do
	cmake -S "$src/examples/$ex" -B "$tmp/undef_$ex" -DCMAKE_PREFIX_PATH="$prefix" \
		-DCMAKE_PROJECT_INCLUDE="$tmp/undef.cmake" >/dev/null
	if cmake --build "$tmp/undef_$ex" >"$tmp/undef.log" 2>&1 ||
	   ! grep -q 'undefined reference to .km_undefined_by_install_consumer' "$tmp/undef.log"; then
		cat "$tmp/undef.log" >&2
		echo "install_consumer: examples/$ex's CMake plugin linked with an undefined name" >&2
		exit 1
	fi
done
readme_build "$src/examples/byo_uaccess" "$tmp/pc_byo"
# the example KUnit suite runs from the installed kmodel-kunit, built both
# ways (find_package above, pkg-config as its README says): 2 cases pass on
# 3 variants x 2 machines; on gup_kmap_rfc the setup's copy_to_user()
# puts the pages it wrote without set_page_dirty() (gup_kmap_fixed.c's
# FIX(6)), the pinned-write checker's BUG, so those 2 runs fail (exit 1)
readme_build "$src/examples/kunit_suite" "$tmp/pc_kunit"
for so in "$tmp/b/kunit_suite/libmy_test.so" "$tmp/pc_kunit/libmy_test.so"; do
	rc=0
	env -u LD_LIBRARY_PATH "$prefix/bin/kmodel-kunit" "$so" --machine bbw,a15 >"$tmp/kunit.ktap" ||
		rc=$?
	[ "$rc" -eq 1 ] && [ "$(grep -c '^not ok [0-9]* [a-z0-9]*\.gup_kmap_rfc\.' "$tmp/kunit.ktap")" -eq 2 ] &&
	[ "$(grep -c '^not ok' "$tmp/kunit.ktap")" -eq 2 ] &&
	grep -q '^        # my_get_name: BUG pin_not_dirtied: ' "$tmp/kunit.ktap" ||
		{ cat "$tmp/kunit.ktap" >&2; echo "install_consumer: kmodel-kunit $so exited $rc, want 1 (gup_kmap_rfc's 2 runs)" >&2; exit 1; }
	[ "$(grep -c '^        ok 1 my_get_name$' "$tmp/kunit.ktap")" -eq 6 ] ||
		{ cat "$tmp/kunit.ktap" >&2; echo "install_consumer: my_get_name did not pass 6 runs" >&2; exit 1; }
	# KUNIT_ARRAY_PARAM_DESC()'s descriptions, a deferred vm_munmap()
	[ "$(grep -c '^            ok 3 too long$' "$tmp/kunit.ktap")" -eq 6 ] &&
	[ "$(grep -c '^        ok 2 my_get_name_table$' "$tmp/kunit.ktap")" -eq 6 ] ||
		{ cat "$tmp/kunit.ktap" >&2; echo "install_consumer: my_get_name_table did not pass 6 runs" >&2; exit 1; }
done
# the kernel's own user-copy suites, unchanged, and the boundary suite in
# KUnit form, built against the installed package as a user builds a
# plugin: both kernel suites pass on direct, gup_kmap_fixed and
# uaccess_with_memcpy; the boundary suite fails gup_kmap_rfc (its copy that
# straddles a hole returns n) and passes the others
mkdir "$tmp/ksuites"
cat >"$tmp/ksuites/CMakeLists.txt" <<EOF2
cmake_minimum_required(VERSION 3.25)
project(ksuites C)
find_package(kmodel 0.3 REQUIRED)
foreach(p usercopy_kunit:6.12:kernel test_user_copy:5.7:kernel boundary:default:kunit)
  string(REPLACE ":" ";" p \${p})
  list(GET p 0 name)
  list(GET p 1 ver)
  list(GET p 2 dir)
  set(f $src/tests/\${dir}/\${name}.c)
  if(dir STREQUAL "kunit")
    set(f $src/tests/kunit/\${name}_kunit.c)
  endif()
  add_library(\${name} MODULE \${f})
  target_link_libraries(\${name} PRIVATE kmodel::kmodel)
  target_link_options(\${name} PRIVATE LINKER:-z,defs)
  if(ver STREQUAL "default")
    kmodel_kernel_sources(\${f})
  else()
    kmodel_kernel_sources(KERNEL_VERSION \${ver} \${f})
  endif()
  set_source_files_properties(\${f} PROPERTIES
    COMPILE_OPTIONS "-Wno-sign-compare;-Wno-unused-variable;-Wno-unused-but-set-variable")
endforeach()
EOF2
cmake -S "$tmp/ksuites" -B "$tmp/ksuites/b" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null &&
	cmake --build "$tmp/ksuites/b" >"$tmp/ksuites.log" 2>&1 ||
	{ cat "$tmp/ksuites.log" >&2; echo "install_consumer: the kernel KUnit suites did not build" >&2; exit 1; }
for v in direct gup_kmap_fixed uaccess_with_memcpy; do
	for so in usercopy_kunit test_user_copy boundary; do
		env -u LD_LIBRARY_PATH "$prefix/bin/kmodel-kunit" --variant "$v" \
			"$tmp/ksuites/b/lib$so.so" >"$tmp/ks.ktap" ||
			{ cat "$tmp/ks.ktap" >&2; echo "install_consumer: $so failed on $v" >&2; exit 1; }
	done
done
if env -u LD_LIBRARY_PATH "$prefix/bin/kmodel-kunit" --variant gup_kmap_rfc \
	"$tmp/ksuites/b/libboundary.so" >"$tmp/ks.ktap"; then
	echo "install_consumer: the boundary suite passed gup_kmap_rfc" >&2
	exit 1
fi
grep -q 'not ok 2 boundary_from_user_trailing' "$tmp/ks.ktap" ||
	{ cat "$tmp/ks.ktap" >&2; echo "install_consumer: boundary_from_user_trailing did not fail on gup_kmap_rfc" >&2; exit 1; }
# a kernel header the layer lacks is an error naming it (the guard after the
# layer), and so is #if of a configuration option it does not set: through
# kmodel_kernel_sources() and through the pkg-config flags
mkdir "$tmp/guard"
printf '#include <linux/module.h>\n#include <linux/netlink.h>\n' >"$tmp/guard/hdr.c"
printf '#include <linux/kernel.h>\n#if CONFIG_KMODEL_UNSET\n#endif\n' >"$tmp/guard/cfg.c"
cat >"$tmp/guard/CMakeLists.txt" <<'EOF2'
cmake_minimum_required(VERSION 3.25)
project(guard C)
find_package(kmodel REQUIRED)
add_library(hdr OBJECT hdr.c)
add_library(cfg OBJECT cfg.c)
target_link_libraries(hdr PRIVATE kmodel::kmodel)
target_link_libraries(cfg PRIVATE kmodel::kmodel)
kmodel_kernel_sources(hdr.c cfg.c)
EOF2
cmake -S "$tmp/guard" -B "$tmp/guard/b" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
for t in hdr:'<linux/netlink.h> is not in libkmodel' cfg:'"CONFIG_KMODEL_UNSET" is not defined'; do
	if cmake --build "$tmp/guard/b" --target "${t%%:*}" >"$tmp/guard.log" 2>&1 ||
	   ! grep -q "${t#*:}" "$tmp/guard.log"; then
		cat "$tmp/guard.log" >&2
		echo "install_consumer: ${t%%:*}.c built, or not with the error naming what it lacks" >&2
		exit 1
	fi
	if cc -std=gnu11 -fsyntax-only "$tmp/guard/${t%%:*}.c" \
	      -I"$(pkg-config --variable=kernel_includedir kmodel)" \
	      -I"$(pkg-config --variable=kernel_guarddir kmodel)" -Wundef -Werror=undef \
	      $(pkg-config --cflags kmodel) 2>"$tmp/guard.log" || ! grep -q "${t#*:}" "$tmp/guard.log"; then
		cat "$tmp/guard.log" >&2
		echo "install_consumer: ${t%%:*}.c compiled with the pkg-config flags" >&2
		exit 1
	fi
done
"$prefix/bin/kmodel-check" uaccess --load "$tmp/pc_byo/libbyo_uaccess.so" --variant page_copy \
	--machine a15 --context process >/dev/null
# ... but not linked with libkmodel.a: a copy of its own is refused, though
# its calls would bind to the tool's copy and run
cc -std=gnu11 -fPIC -shared -o "$tmp/pc_byo/libstatic.so" "$src/examples/byo_uaccess/plugin.c" \
	"$tmp/pc_byo/my_copy.o" $(pkg-config --cflags kmodel) "$libdir/libkmodel.a" \
	$(pkg-config --libs glib-2.0 gmodule-2.0) -lm -ldl
if "$prefix/bin/kmodel-check" uaccess --load "$tmp/pc_byo/libstatic.so" --variant page_copy \
	--machine a15 --context process >/dev/null 2>"$tmp/static.err" ||
   ! grep -q 'has a copy of libkmodel of its own' "$tmp/static.err"; then
	cat "$tmp/static.err" >&2
	echo "install_consumer: a plugin linked with libkmodel.a was not refused" >&2
	exit 1
fi
# ... the example driver through pkg-config: a plugin (libkmodel.so) and a
# program linked with the archive
byo=$src/examples/byo_tx_fixup
readme_build "$byo" "$tmp/pc_tx"
"$prefix/bin/kmodel-bench" -q -r 1 -s iperf --load "$tmp/pc_tx/libbyo_tx_fixup.so" --iperf-variants byo1 \
	--iperf-packets 200 >/dev/null
cc -std=gnu11 -o "$tmp/pc_tx_static" "$src/tests/install/tx_consumer.c" "$byo/byo_dev.c" \
	"$tmp/pc_tx/byo_fixup.o" $(pkg-config --cflags kmodel) "$libdir/libkmodel.a" \
	$(pkg-config --libs glib-2.0 gmodule-2.0) -lm -ldl
"$tmp/pc_tx_static" >/dev/null

# 6. every installed header compiles on its own, as kernel developers build
# (-Wall -Wextra -Werror): the public API and the compatibility layer. One
# file per header, each its own translation unit; one compiler run per
# include path.
# A layer header also brings <linux/types.h>, as the kernel's do (a
# file including only <linux/kernel.h>, <linux/uaccess.h> and
# <linux/slab.h> failed on u32): v5.7's <linux/kernel.h> includes it, its
# <linux/compiler.h> reaches it (<uapi/linux/types.h>), and every other
# header one of those. Not linux/version.h (generated, macros only) nor
# linux/ctype.h (v3.5's has no #include; the layer's is an empty stub).
mkdir "$tmp/hdr"
api=() kernel=()
types_use='typedef struct { u8 a; u16 b; u32 c; u64 d; s8 e; s16 f; s32 g; s64 h; bool i; size_t j; } km_types_in_header;'

# (not the guard's stubs: each is an #error by design)
for h in $(cd "$prefix/include" && find kmodel -path kmodel/kernel-guard -prune -o -name '*.h' -print |
	   sort); do
	f=$tmp/hdr/${h//\//_}.c
	case $h in
	kmodel/kernel/linux/version.h | kmodel/kernel/linux/ctype.h)
		printf '#include <%s>\n' "${h#kmodel/kernel/}" >"$f"; kernel+=("$f") ;;
	kmodel/kernel/*)
		printf '#include <%s>\n%s\n' "${h#kmodel/kernel/}" "$types_use" >"$f"; kernel+=("$f") ;;
	*) printf '#include <%s>\n' "$h" >"$f"; api+=("$f") ;;
	esac
done
[ ${#api[@]} -gt 10 ]
[ ${#kernel[@]} -gt 10 ]
# ... and the layer's README lists every header it has (a header it lacks
# falls back to the host's /usr/include silently: the list is what to go by)
for h in $(cd "$prefix/include/kmodel/kernel" && find . -name '*.h' | sed 's|^\./||'); do
	grep -q "\`$h\`" "$prefix/include/kmodel/kernel/README.md" ||
		{ echo "install_consumer: include/kmodel/kernel/README.md does not list $h" >&2; exit 1; }
done
cflags=(-std=gnu11 -Wall -Wextra -Werror -fsyntax-only $(pkg-config --cflags kmodel))
cc "${cflags[@]}" "${api[@]}" ||
	{ echo "install_consumer: a header above is not clean under -Wall -Wextra -Werror" >&2; exit 1; }
for v in 'KERNEL_VERSION(3,5,0)' 'KERNEL_VERSION(5,7,0)'; do
	cc "${cflags[@]}" -I"$kinc" -DKMODEL_KERNEL_VERSION="$v" "${kernel[@]}" ||
		{ echo "install_consumer: a layer header above is not clean under -Wall -Wextra -Werror" \
		       "at $v, or does not bring <linux/types.h>" >&2; exit 1; }
done

# 7. a relocated prefix: moved away, its tools find their libkmodel (RPATH)
# and their cost profiles (relative to libkmodel.so), not the source tree's
mv "$prefix" "$tmp/moved"
moved=$tmp/moved
run() { env -u LD_LIBRARY_PATH -u KMODEL_PROFILE_DIR "$@"; }
run "$moved/bin/kmodel-bench" -q -r 1 -s dd --dd-variants direct --dd-machines bbw \
	--dd-block-sizes 4K --dd-total-mib 1 --dd-file-mib 1 >/dev/null
run "$moved/bin/kmodel-bench" -q -r 1 -s iperf --iperf-variants after --iperf-packets 200 >/dev/null
run "$moved/bin/kmodel-bench" reproduce --explain -o /dev/null 2>"$tmp/repro.explain"
files=$(sed -n 's/^profile [^:]*: //p' "$tmp/repro.explain")
[ -n "$files" ] || { echo "install_consumer: reproduce --explain names no profile file" >&2; exit 1; }
files=$(sed 's/.*/"&/' <<<"$files")
if grep -v "\"$moved/share/kmodel/profiles/" <<<"$files"; then
	echo "install_consumer: a profile was not taken from the moved prefix" >&2; exit 1
fi
echo "install_consumer: exports complete; example and ported code built and ran" \
     "(find_package and pkg-config, shared and static); kmodel-check ran; versions and man pages;" \
     "the byo examples ran as plugins and statically; the KUnit example ran;" \
     "a missing kernel header and an unset CONFIG_ in #if are errors; headers clean under -Wextra;" \
     "a moved prefix runs dd, iperf and reproduce on its own profiles"
